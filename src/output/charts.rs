//! Charts over the rounds of one run or several: survival curves, how many games last longer
//! than t rounds (log scale, so an exponential tail is a straight line: `survival.png` of a run
//! with its fitted tail, `sweep.png` of a sweep, `compare.png`), and `means.png`, a sweep's mean
//! rounds of the games that end with their 95% intervals (and the share that never ends, where
//! some never do).

use std::path::Path;

use anyhow::Result;
use plotters::coord::Shift;
use plotters::element::IntoDynElement;
use plotters::prelude::*;

use super::render::{render, Chart};
use super::report::Curve;
use crate::stats::summary::{grouped, Share};

const SIZE: (u32, u32) = (1200, 800);

/// Line colours: distinct on white, then the same again dashed.
const PALETTE: [RGBColor; 12] = [
    RGBColor(31, 119, 180),
    RGBColor(214, 39, 40),
    RGBColor(44, 160, 44),
    RGBColor(255, 127, 14),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(90, 90, 90),
    RGBColor(188, 189, 34),
    RGBColor(23, 190, 207),
    RGBColor(0, 0, 128),
    RGBColor(128, 0, 0),
];

/// Survival curves, one per (label, curve), under `title` and `subtitle`; with `fits`, each
/// curve's fitted tail is drawn too.
pub fn survival(
    title: &str,
    subtitle: &str,
    curves: &[(String, &Curve)],
    fits: bool,
    path: &Path,
) -> Result<()> {
    let chart = Survival {
        title,
        subtitle,
        curves,
        fits,
    };
    render(&chart, path, SIZE)
}

/// `means.png`: mean rounds per rule set, against the varying option's value when a single
/// numeric option varies (`numeric` names it), else one row per rule set.
pub fn means(
    title: &str,
    curves: &[(String, &Curve)],
    numeric: Option<&str>,
    path: &Path,
) -> Result<()> {
    match numeric {
        Some(option) => render(
            &MeansByValue {
                title,
                curves,
                option,
            },
            path,
            SIZE,
        ),
        None => render(&MeansByRuleSet { title, curves }, path, SIZE),
    }
}

/// A dashed line's sample in a legend, at `at`.
fn dashes<'a, DB: DrawingBackend + 'a>(
    at: (i32, i32),
    style: ShapeStyle,
) -> impl IntoDynElement<'a, DB, (i32, i32)> {
    EmptyElement::at(at)
        + PathElement::new([(0, 0), (9, 0)], style)
        + PathElement::new([(15, 0), (24, 0)], style)
}

/// Draws the series' legend at `position` in text of `size` px, on a pale box.
fn legend<'a, DB: DrawingBackend + 'a, X: Ranged, Y: Ranged>(
    chart: &mut ChartContext<'a, DB, Cartesian2d<X, Y>>,
    position: SeriesLabelPosition,
    size: u32,
) -> Result<()>
where
    DB::ErrorType: 'static,
{
    chart
        .configure_series_labels()
        .position(position)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK.mix(0.4))
        .label_font(("sans-serif", size))
        .draw()?;
    Ok(())
}

/// The title and subtitle; returns the area below them.
fn head<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    title: &str,
    subtitle: &str,
) -> Result<DrawingArea<DB, Shift>>
where
    DB::ErrorType: 'static,
{
    root.fill(&WHITE)?;
    let (head, body) = root.split_vertically(70);
    head.draw(&Text::new(
        title.to_string(),
        (20, 10),
        ("sans-serif", 26).into_font().color(&BLACK),
    ))?;
    head.draw(&Text::new(
        subtitle.to_string(),
        (20, 42),
        ("sans-serif", 17).into_font().color(&BLACK.mix(0.75)),
    ))?;
    Ok(body)
}

/// A share on a log axis, as a percentage: 100%, 10%, 1%, 0.1%, …
fn percent(v: f64) -> String {
    let p = 100.0 * v;
    let digits = (-p.log10().floor()).max(0.0) as usize;
    format!("{p:.digits$}%")
}

struct Survival<'a> {
    title: &'a str,
    subtitle: &'a str,
    curves: &'a [(String, &'a Curve)],
    fits: bool,
}

impl Chart for Survival<'_> {
    fn draw<DB: DrawingBackend>(&self, root: DrawingArea<DB, Shift>) -> Result<()>
    where
        DB::ErrorType: 'static,
    {
        let body = head(&root, self.title, self.subtitle)?;
        // One curve: all of it. Several: up to the largest 99.9th percentile, so one long
        // tail does not squeeze the rest.
        let x_end = match self.curves {
            [(_, c)] => c.ended.last().map(|e| e.0),
            _ => self.curves.iter().filter_map(|c| c.1.p999).max(),
        }
        .unwrap_or(1)
        .max(1) as f64;
        let games = self.curves.iter().map(|c| c.1.games).max().unwrap_or(1);
        let y_min = (1.0 / games as f64).max(1e-5);
        let mut chart = ChartBuilder::on(&body)
            .margin(20)
            .x_label_area_size(50)
            .y_label_area_size(90)
            .build_cartesian_2d(0f64..x_end, (y_min..1.0).log_scale())?;
        chart
            .configure_mesh()
            .light_line_style(TRANSPARENT)
            .x_desc("rounds t")
            .y_desc("share of games longer than t rounds")
            .label_style(("sans-serif", 15))
            .axis_desc_style(("sans-serif", 17))
            .x_label_formatter(&|v| grouped(v.round().max(0.0) as u64))
            .y_label_formatter(&|v| percent(*v))
            .draw()?;
        for (i, (label, curve)) in self.curves.iter().enumerate() {
            let colour = PALETTE[i % PALETTE.len()];
            let mut steps = Vec::new();
            let mut prev = 1.0f64;
            for (t, s) in curve.survival() {
                let t = (t as f64).min(x_end);
                steps.push((t, prev.max(y_min)));
                steps.push((t, s.max(y_min)));
                prev = s;
                // Below the axis the curve has left the chart: it ends at the axis.
                if s < y_min || t >= x_end {
                    break;
                }
            }
            if prev >= y_min {
                steps.push((x_end, prev));
            }
            let style = colour.stroke_width(2);
            let label = label.clone();
            if i < PALETTE.len() {
                chart
                    .draw_series(LineSeries::new(steps, style))?
                    .label(label)
                    .legend(move |(x, y)| PathElement::new([(x, y), (x + 24, y)], style));
            } else {
                chart
                    .draw_series(DashedLineSeries::new(steps, 8, 5, style))?
                    .label(label)
                    .legend(move |at| dashes(at, style));
            }
        }
        for (_, curve) in self.curves {
            let Some(t) = curve.tail.as_ref().filter(|_| self.fits) else {
                continue;
            };
            // P(rounds > t) = S(from)·exp(−rate·(t − from)) beyond the threshold.
            let beyond = t.games as f64 / curve.games.max(1) as f64;
            let from = t.from as f64;
            let end = x_end.min(from + t.e_folding_rounds * (beyond / y_min).ln());
            let line: Vec<(f64, f64)> = (0..=100)
                .map(|k| from + (end - from) * f64::from(k) / 100.0)
                .map(|x| (x, beyond * (-t.rate * (x - from)).exp()))
                .collect();
            let style = BLACK.mix(0.8).stroke_width(2);
            chart
                .draw_series(DashedLineSeries::new(line, 10, 6, style))?
                .label(format!(
                    "fitted tail beyond {} rounds: e-folding {:.1} rounds ({:.1}–{:.1})",
                    grouped(t.from),
                    t.e_folding_rounds,
                    t.e_folding_ci95[0],
                    t.e_folding_ci95[1]
                ))
                .legend(move |at| dashes(at, style));
        }
        legend(&mut chart, SeriesLabelPosition::LowerRight, 13)?;
        root.present()?;
        Ok(())
    }
}

struct MeansByRuleSet<'a> {
    title: &'a str,
    curves: &'a [(String, &'a Curve)],
}

impl Chart for MeansByRuleSet<'_> {
    fn draw<DB: DrawingBackend>(&self, root: DrawingArea<DB, Shift>) -> Result<()>
    where
        DB::ErrorType: 'static,
    {
        let any_endless = self.curves.iter().any(|c| c.1.endless > 0);
        let body = head(
            &root,
            self.title,
            if any_endless {
                "mean rounds of the games that end (95% interval), and the share of games that never end"
            } else {
                "mean rounds (95% interval)"
            },
        )?;
        let n = self.curves.len() as i32;
        let labels: Vec<String> = self.curves.iter().map(|c| c.0.clone()).collect();
        // Rule set i on row n − 1 − i: the first at the top. A segmented range holds its end.
        let row = |i: usize| SegmentValue::CenterOf(n - 1 - i as i32);
        let label_of = |v: &SegmentValue<i32>| match v {
            SegmentValue::CenterOf(k) if (0..n).contains(k) => labels[(n - 1 - k) as usize].clone(),
            _ => String::new(),
        };
        let longest = labels.iter().map(|l| l.chars().count()).max().unwrap_or(0) as u32;
        let label_width = (longest * 8 + 20).min(520);
        let (left, right) = if any_endless {
            body.split_horizontally(label_width + (1200 - label_width) * 3 / 5)
        } else {
            (body.clone(), body.clone())
        };
        let top = self
            .curves
            .iter()
            .filter_map(|c| c.1.mean.map(|(m, ci)| ci.map_or(m, |c| c[1])))
            .fold(1.0f64, f64::max)
            * 1.08;
        let mut chart = ChartBuilder::on(&left)
            .margin(20)
            .x_label_area_size(50)
            .y_label_area_size(label_width)
            .build_cartesian_2d(0f64..top, (0..n - 1).into_segmented())?;
        chart
            .configure_mesh()
            .disable_y_mesh()
            .light_line_style(TRANSPARENT)
            .y_labels(self.curves.len())
            .y_label_formatter(&label_of)
            .x_label_formatter(&|v| grouped(v.round().max(0.0) as u64))
            .x_desc(if any_endless {
                "mean rounds of the games that end"
            } else {
                "mean rounds"
            })
            .label_style(("sans-serif", 13))
            .axis_desc_style(("sans-serif", 16))
            .draw()?;
        let blue = RGBColor(50, 90, 160);
        for (i, (_, c)) in self.curves.iter().enumerate() {
            let Some((m, ci)) = c.mean else { continue };
            if let Some([lo, hi]) = ci {
                chart.draw_series(std::iter::once(PathElement::new(
                    [(lo, row(i)), (hi, row(i))],
                    blue.stroke_width(2),
                )))?;
            }
            chart.draw_series(std::iter::once(Circle::new((m, row(i)), 4, blue.filled())))?;
            if let Some(e) = c.exact {
                chart.draw_series(std::iter::once(Cross::new(
                    (e, row(i)),
                    6,
                    RGBColor(200, 30, 30).stroke_width(2),
                )))?;
            }
        }
        if any_endless {
            let mut chart = ChartBuilder::on(&right)
                .margin(20)
                .x_label_area_size(50)
                .y_label_area_size(10)
                .build_cartesian_2d(0f64..100.0, (0..n - 1).into_segmented())?;
            chart
                .configure_mesh()
                .disable_y_mesh()
                .light_line_style(TRANSPARENT)
                .y_label_formatter(&|_| String::new())
                .x_label_formatter(&|v| format!("{v:.0}"))
                .x_desc("never ends (%)")
                .label_style(("sans-serif", 13))
                .axis_desc_style(("sans-serif", 16))
                .draw()?;
            let red = RGBColor(200, 60, 40);
            for (i, (_, c)) in self.curves.iter().enumerate() {
                let s = c.never();
                chart.draw_series(std::iter::once(PathElement::new(
                    [(0.0, row(i)), (100.0 * s.share, row(i))],
                    red.mix(0.35).stroke_width(12),
                )))?;
                chart.draw_series(std::iter::once(PathElement::new(
                    [(100.0 * s.ci95[0], row(i)), (100.0 * s.ci95[1], row(i))],
                    red.stroke_width(2),
                )))?;
            }
        }
        root.present()?;
        Ok(())
    }
}

struct MeansByValue<'a> {
    title: &'a str,
    curves: &'a [(String, &'a Curve)],
    option: &'a str,
}

impl Chart for MeansByValue<'_> {
    fn draw<DB: DrawingBackend>(&self, root: DrawingArea<DB, Shift>) -> Result<()>
    where
        DB::ErrorType: 'static,
    {
        let body = head(
            &root,
            self.title,
            &format!("mean rounds against --{} (95% interval)", self.option),
        )?;
        // Labels are `OPTION VALUE`.
        let points: Vec<(f64, &Curve)> = self
            .curves
            .iter()
            .filter_map(|(l, c)| Some((l.rsplit(' ').next()?.parse().ok()?, *c)))
            .collect();
        let (x0, x1) = points
            .iter()
            .fold((f64::MAX, f64::MIN), |(a, b), p| (a.min(p.0), b.max(p.0)));
        let pad = ((x1 - x0) * 0.05).max(0.5);
        let top = points
            .iter()
            .filter_map(|p| {
                p.1.mean
                    .map(|(m, ci)| ci.map_or(m, |c| c[1]).max(p.1.exact.unwrap_or(0.0)))
            })
            .fold(1.0f64, f64::max)
            * 1.08;
        let mut chart = ChartBuilder::on(&body)
            .margin(20)
            .x_label_area_size(50)
            .y_label_area_size(90)
            .build_cartesian_2d((x0 - pad)..(x1 + pad), 0f64..top)?;
        chart
            .configure_mesh()
            .light_line_style(TRANSPARENT)
            .x_desc(self.option)
            .y_desc("mean rounds")
            .x_label_formatter(&|v| {
                if v.fract() == 0.0 {
                    format!("{v:.0}")
                } else {
                    format!("{v}")
                }
            })
            .label_style(("sans-serif", 15))
            .axis_desc_style(("sans-serif", 17))
            .draw()?;
        let exact: Vec<(f64, f64)> = points
            .iter()
            .filter_map(|p| Some((p.0, p.1.exact?)))
            .collect();
        if !exact.is_empty() {
            let red = RGBColor(200, 30, 30);
            chart
                .draw_series(LineSeries::new(exact, red.stroke_width(2)))?
                .label("exact")
                .legend(move |(x, y)| PathElement::new([(x, y), (x + 24, y)], red.stroke_width(2)));
        }
        let blue = RGBColor(50, 90, 160);
        for &(x, c) in &points {
            if let Some((_, Some([lo, hi]))) = c.mean {
                chart.draw_series(std::iter::once(PathElement::new(
                    [(x, lo), (x, hi)],
                    blue.stroke_width(2),
                )))?;
            }
        }
        chart
            .draw_series(
                points
                    .iter()
                    .filter_map(|&(x, c)| Some(Circle::new((x, c.mean?.0), 5, blue.filled()))),
            )?
            .label("simulated mean, 95% interval")
            .legend(move |(x, y)| Circle::new((x + 12, y), 5, blue.filled()));
        legend(&mut chart, SeriesLabelPosition::UpperLeft, 15)?;
        root.present()?;
        Ok(())
    }
}

/// One group of games for `by.png`: its number, player 1's share of wins, and mean rounds.
pub struct GroupPoint {
    /// The group's number.
    pub group: u16,
    /// Player 1's share of the group's games.
    pub p1: Share,
    /// Mean rounds and its 95% interval.
    pub mean: Option<(f64, Option<[f64; 2]>)>,
}

/// `by.png`: player 1's win share and the mean rounds per group, against the group's number.
pub fn by_group(title: &str, meaning: &str, groups: &[GroupPoint], path: &Path) -> Result<()> {
    render(
        &ByGroup {
            title,
            meaning,
            groups,
        },
        path,
        SIZE,
    )
}

struct ByGroup<'a> {
    title: &'a str,
    meaning: &'a str,
    groups: &'a [GroupPoint],
}

impl Chart for ByGroup<'_> {
    fn draw<DB: DrawingBackend>(&self, root: DrawingArea<DB, Shift>) -> Result<()>
    where
        DB::ErrorType: 'static,
    {
        let body = head(
            &root,
            self.title,
            &format!(
                "per number of {}: player 1's share of wins and the mean rounds (95% intervals)",
                self.meaning
            ),
        )?;
        let (left, right) = body.split_horizontally(600);
        let last = self.groups.iter().map(|g| g.group).max().unwrap_or(0) as f64;
        let x = -0.5..last + 0.5;
        let blue = RGBColor(50, 90, 160);
        let whole = |v: &f64| {
            if v.fract() == 0.0 {
                format!("{v:.0}")
            } else {
                String::new()
            }
        };
        let mut chart = ChartBuilder::on(&left)
            .margin(20)
            .x_label_area_size(50)
            .y_label_area_size(70)
            .build_cartesian_2d(x.clone(), 0f64..100.0)?;
        chart
            .configure_mesh()
            .light_line_style(TRANSPARENT)
            .x_desc(self.meaning)
            .y_desc("player 1 wins (%)")
            .x_label_formatter(&whole)
            .label_style(("sans-serif", 14))
            .axis_desc_style(("sans-serif", 16))
            .draw()?;
        chart.draw_series(DashedLineSeries::new(
            [(x.start, 50.0), (x.end, 50.0)],
            6,
            4,
            BLACK.mix(0.4).stroke_width(1),
        ))?;
        for g in self.groups {
            let gx = f64::from(g.group);
            chart.draw_series(std::iter::once(PathElement::new(
                [(gx, 100.0 * g.p1.ci95[0]), (gx, 100.0 * g.p1.ci95[1])],
                blue.stroke_width(2),
            )))?;
            chart.draw_series(std::iter::once(Circle::new(
                (gx, 100.0 * g.p1.share),
                5,
                blue.filled(),
            )))?;
        }
        let top = self
            .groups
            .iter()
            .filter_map(|g| g.mean.map(|(m, ci)| ci.map_or(m, |c| c[1])))
            .fold(1.0f64, f64::max)
            * 1.1;
        let mut chart = ChartBuilder::on(&right)
            .margin(20)
            .x_label_area_size(50)
            .y_label_area_size(70)
            .build_cartesian_2d(x, 0f64..top)?;
        chart
            .configure_mesh()
            .light_line_style(TRANSPARENT)
            .x_desc(self.meaning)
            .y_desc("mean rounds")
            .x_label_formatter(&whole)
            .label_style(("sans-serif", 14))
            .axis_desc_style(("sans-serif", 16))
            .draw()?;
        let red = RGBColor(200, 60, 40);
        for g in self.groups {
            let Some((m, ci)) = g.mean else { continue };
            let gx = f64::from(g.group);
            if let Some([lo, hi]) = ci {
                chart.draw_series(std::iter::once(PathElement::new(
                    [(gx, lo), (gx, hi)],
                    red.stroke_width(2),
                )))?;
            }
            chart.draw_series(std::iter::once(Circle::new((gx, m), 5, red.filled())))?;
        }
        root.present()?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn log_axis_labels_are_percentages() {
        let got: Vec<String> = [1.0, 0.1, 0.01, 1e-3, 1e-5].map(percent).to_vec();
        assert_eq!(got, ["100%", "10%", "1%", "0.1%", "0.001%"]);
    }

    #[test]
    fn survival_steps_down_to_the_share_that_never_ends() {
        // 2 games of 3 rounds, 1 of 5, 1 that never ends.
        let c = Curve::new(vec![(3, 2), (5, 1)], 1, None, None);
        assert_eq!(c.games, 4);
        assert_eq!(c.survival(), [(0, 1.0), (3, 0.5), (5, 0.25)]);
        assert_eq!(c.never().count, 1);
        let (m, _) = c.mean.unwrap();
        assert!((m - 11.0 / 3.0).abs() < 1e-12);
    }
}
