//! `means.png`: a sweep's mean rounds per rule set, with the shares that loop or are capped.

use std::ops::Range;

use super::*;
use crate::games::Unit;

/// `means.png`: mean rounds (in the game's `unit`) per rule set, against the varying option's
/// value when a single numeric option varies (`numeric` names it), else one row per rule set.
pub fn means(
    title: &str,
    unit: Unit,
    curves: &[(String, &Curve)],
    numeric: Option<&str>,
    target: impl Target,
) -> Result<()> {
    match numeric {
        Some(option) => target.take(&MeansByValue {
            title,
            unit,
            curves,
            option,
        }),
        None => target.take(&MeansByRuleSet {
            title,
            unit,
            curves,
        }),
    }
}

struct MeansByRuleSet<'a> {
    title: &'a str,
    unit: Unit,
    curves: &'a [(String, &'a Curve)],
}

impl Chart for MeansByRuleSet<'_> {
    fn size(&self) -> (u32, u32) {
        SIZE
    }

    fn draw<DB: DrawingBackend>(&self, root: DrawingArea<DB, Shift>) -> Result<()>
    where
        DB::ErrorType: 'static,
    {
        let any_endless = self.curves.iter().any(|c| c.1.unended.total() > 0);
        let many = self.unit.many;
        let left = format!("left: mean {many} of the games that end (95% interval)");
        let only = format!("mean {many} (95% interval)");
        let subtitles: Vec<&str> = if any_endless {
            vec![
                &left,
                "right: the share of all games that loop (red) and that were stopped at the round \
                 cap (grey)",
            ]
        } else {
            vec![&only]
        };
        let body = head(&root, self.title, &subtitles)?;
        let labels: Vec<String> = self.curves.iter().map(|c| c.0.clone()).collect();
        let longest = labels.iter().map(|l| l.chars().count()).max().unwrap_or(0) as u32;
        let label_width = (longest * 8 + 20).min(520);
        let (left, right) = if any_endless {
            body.split_horizontally(label_width + (1200 - label_width) * 3 / 5)
        } else {
            (body.clone(), body.clone())
        };
        self.draw_means(&left, &labels, label_width, any_endless)?;
        if any_endless {
            self.draw_unended(&right)?;
        }
        root.present()?;
        Ok(())
    }
}

impl MeansByRuleSet<'_> {
    /// Rule set i on row n − 1 − i: the first at the top. A segmented range holds its end.
    fn row(&self, i: usize) -> SegmentValue<i32> {
        SegmentValue::CenterOf(self.curves.len() as i32 - 1 - i as i32)
    }

    /// The means and their intervals, a row per rule set labelled `labels` in a label area
    /// `label_width` wide; of the games that end where `any_endless`.
    fn draw_means<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
        labels: &[String],
        label_width: u32,
        any_endless: bool,
    ) -> Result<()>
    where
        DB::ErrorType: 'static,
    {
        let many = self.unit.many;
        let n = self.curves.len() as i32;
        let label_of = |v: &SegmentValue<i32>| match v {
            SegmentValue::CenterOf(k) if (0..n).contains(k) => labels[(n - 1 - k) as usize].clone(),
            _ => String::new(),
        };
        let top = self
            .curves
            .iter()
            .filter_map(|c| c.1.mean.map(|(m, ci)| ci.map_or(m, |c| c[1])))
            .fold(1.0f64, f64::max)
            * 1.08;
        let mut chart = ChartBuilder::on(area)
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
                format!("mean {many} of the games that end")
            } else {
                format!("mean {many}")
            })
            .label_style(("sans-serif", 13))
            .axis_desc_style(("sans-serif", 16))
            .draw()?;
        let blue = RGBColor(50, 90, 160);
        for (i, (_, c)) in self.curves.iter().enumerate() {
            let Some((m, ci)) = c.mean else { continue };
            if let Some([lo, hi]) = ci {
                chart.draw_series(std::iter::once(PathElement::new(
                    [(lo, self.row(i)), (hi, self.row(i))],
                    blue.stroke_width(2),
                )))?;
            }
            chart.draw_series(std::iter::once(Circle::new(
                (m, self.row(i)),
                4,
                blue.filled(),
            )))?;
            if let Some(e) = c.exact {
                chart.draw_series(std::iter::once(Cross::new(
                    (e, self.row(i)),
                    6,
                    RGBColor(200, 30, 30).stroke_width(2),
                )))?;
            }
        }
        Ok(())
    }

    /// The shares of all games that loop and that were capped, a row per rule set.
    fn draw_unended<DB: DrawingBackend>(&self, area: &DrawingArea<DB, Shift>) -> Result<()>
    where
        DB::ErrorType: 'static,
    {
        let n = self.curves.len() as i32;
        let mut chart = ChartBuilder::on(area)
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
            .x_desc("loop (red), capped (grey), % of games")
            .label_style(("sans-serif", 13))
            .axis_desc_style(("sans-serif", 16))
            .draw()?;
        let red = RGBColor(200, 60, 40);
        let grey = RGBColor(120, 120, 120);
        for (i, (_, c)) in self.curves.iter().enumerate() {
            // The loops' bar, then the capped games' bar after it: apart, never summed into
            // one "never ends".
            let (l, k) = (c.looping(), c.capped());
            for (from, share, colour) in [(0.0, &l, red), (l.share, &k, grey)] {
                if share.count == 0 {
                    continue;
                }
                chart.draw_series(std::iter::once(PathElement::new(
                    [
                        (100.0 * from, self.row(i)),
                        (100.0 * (from + share.share), self.row(i)),
                    ],
                    colour.mix(0.45).stroke_width(12),
                )))?;
            }
            for (share, colour) in [(&l, red), (&k, grey)] {
                if share.count > 0 {
                    chart.draw_series(std::iter::once(PathElement::new(
                        [
                            (100.0 * share.ci95[0], self.row(i)),
                            (100.0 * share.ci95[1], self.row(i)),
                        ],
                        colour.stroke_width(2),
                    )))?;
                }
            }
        }
        Ok(())
    }
}

struct MeansByValue<'a> {
    title: &'a str,
    unit: Unit,
    curves: &'a [(String, &'a Curve)],
    option: &'a str,
}

impl Chart for MeansByValue<'_> {
    fn size(&self) -> (u32, u32) {
        SIZE
    }

    fn draw<DB: DrawingBackend>(&self, root: DrawingArea<DB, Shift>) -> Result<()>
    where
        DB::ErrorType: 'static,
    {
        let what = format!(
            "mean {} against --{} (95% interval)",
            self.unit.many, self.option
        );
        let body = head(&root, self.title, &[&what])?;
        let exact: Vec<(f64, f64)> = self
            .curves
            .iter()
            .filter_map(|(l, c)| Some((l.rsplit(' ').next()?.parse().ok()?, c.exact?)))
            .collect();
        let mut entries = vec![(
            "simulated mean, 95% interval".to_string(),
            LegendKey::Mean(BLUE_MEAN),
        )];
        if !exact.is_empty() {
            entries.push(("exact".into(), LegendKey::Exact(RED_EXACT)));
        }
        let (width, height) = body.dim_in_pixel();
        let (body, below) = body.split_vertically(height - legend_height(&entries, width));
        // Labels are `OPTION VALUE`.
        let points: Vec<(f64, &Curve)> = self
            .curves
            .iter()
            .filter_map(|(l, c)| Some((l.rsplit(' ').next()?.parse().ok()?, *c)))
            .collect();
        let (x, low, top) = value_ranges(&points);
        let y_desc = format!("mean {}", self.unit.many);
        let mut builder = ChartBuilder::on(&body);
        builder
            .margin(20)
            .x_label_area_size(50)
            .y_label_area_size(y_label_area(
                text_size(&grouped(top as u64), 15.0).0,
                text_size(&y_desc, 17.0).1,
            ));
        // Means that grow by a factor (rps's, about 1.4 a player) are a straight line on a log
        // axis, and its ticks read 1, 2, 5, 10, …
        if let Some((from, to)) = log_range(low, top) {
            let ticks = log_ticks(from, to);
            let y = (from..to).log_scale().with_key_points(ticks);
            let mut chart = builder.build_cartesian_2d(x, y)?;
            chart
                .configure_mesh()
                .light_line_style(TRANSPARENT)
                .x_desc(self.option)
                .y_desc(format!("{y_desc} (log scale)"))
                .x_label_formatter(&x_tick)
                .y_label_formatter(&|v| log_tick(*v))
                .label_style(("sans-serif", 15))
                .axis_desc_style(("sans-serif", 17))
                .draw()?;
            draw_value_means(&mut chart, exact, &points)?;
        } else {
            let mut chart = builder.build_cartesian_2d(x, 0f64..top)?;
            chart
                .configure_mesh()
                .light_line_style(TRANSPARENT)
                .x_desc(self.option)
                .y_desc(&y_desc)
                .x_label_formatter(&x_tick)
                .y_label_formatter(&|v| plain_tick(*v))
                .label_style(("sans-serif", 15))
                .axis_desc_style(("sans-serif", 17))
                .draw()?;
            draw_value_means(&mut chart, exact, &points)?;
        }
        draw_legend(&below, &entries)?;
        root.present()?;
        Ok(())
    }
}

/// The axes of means against an option's values (`points`: value, curve): the values' range
/// with a margin, and the lowest and the top of the means, their intervals and exact values.
fn value_ranges(points: &[(f64, &Curve)]) -> (Range<f64>, f64, f64) {
    let (x0, x1) = points
        .iter()
        .fold((f64::MAX, f64::MIN), |(a, b), p| (a.min(p.0), b.max(p.0)));
    let pad = ((x1 - x0) * 0.05).max(0.5);
    let highs = points.iter().filter_map(|p| {
        p.1.mean
            .map(|(m, ci)| ci.map_or(m, |c| c[1]).max(p.1.exact.unwrap_or(0.0)))
    });
    let lows = points.iter().filter_map(|p| {
        p.1.mean
            .map(|(m, ci)| ci.map_or(m, |c| c[0]).min(p.1.exact.unwrap_or(f64::MAX)))
    });
    let top = highs.fold(1.0f64, f64::max) * 1.08;
    let low = lows.fold(f64::MAX, f64::min);
    ((x0 - pad)..(x1 + pad), low, top)
}

/// An option's value as a tick: `3`, not `3.0`; a fraction as it is.
fn x_tick(v: &f64) -> String {
    if v.fract() == 0.0 {
        format!("{v:.0}")
    } else {
        format!("{v}")
    }
}

/// The y range of a log axis for values from `low` to `top`, where they span a factor of
/// [`LOG_FACTOR`] or more (else `None`: a linear axis from 0 reads better).
fn log_range(low: f64, top: f64) -> Option<(f64, f64)> {
    (low > 0.0 && low.is_finite() && top / low >= LOG_FACTOR).then(|| (low / 1.15, top))
}

/// The ratio of the largest mean to the smallest from which `means.png` draws a log axis.
const LOG_FACTOR: f64 = 5.0;

/// The ticks of a log axis from `from` to `to`: the round values 1, 2 and 5 of each decade.
fn log_ticks(from: f64, to: f64) -> Vec<f64> {
    let mut decade = 10f64.powf(from.log10().floor());
    let mut out = Vec::new();
    while decade <= to {
        out.extend(
            [1.0, 2.0, 5.0]
                .map(|k| k * decade)
                .into_iter()
                .filter(|v| (from..=to).contains(v)),
        );
        decade *= 10.0;
    }
    out
}

/// A tick of a log axis ([`log_ticks`]), grouped (`1,000`), with as many decimals as a value
/// below 1 needs (`0.5`); a value off the 1, 2, 5 steps gets no label, so labels never crowd.
fn log_tick(v: f64) -> String {
    let decade = 10f64.powf(v.log10().floor());
    let lead = v / decade;
    if [1.0, 2.0, 5.0].iter().any(|k| (lead - k).abs() < 1e-6) {
        plain_tick(v)
    } else {
        String::new()
    }
}

/// A tick of rounds: a whole number grouped (`25`, `1,000`), else with the decimals it needs
/// (`2.5`, `0.05`), never `25.0`.
fn plain_tick(v: f64) -> String {
    if (v - v.round()).abs() < 1e-9 * v.abs().max(1.0) {
        return fixed(v.round(), 0);
    }
    let decimals = (1..=6)
        .find(|&d| {
            let scale = 10f64.powi(d);
            ((v * scale).round() - v * scale).abs() < 1e-6
        })
        .unwrap_or(6) as usize;
    fixed(v, decimals)
}

/// The exact curve, the simulated means and their intervals of `MeansByValue` on `chart`.
fn draw_value_means<DB: DrawingBackend, X, Y>(
    chart: &mut ChartContext<'_, DB, Cartesian2d<X, Y>>,
    exact: Vec<(f64, f64)>,
    points: &[(f64, &Curve)],
) -> Result<()>
where
    DB::ErrorType: 'static,
    X: Ranged<ValueType = f64>,
    Y: Ranged<ValueType = f64>,
{
    if !exact.is_empty() {
        chart.draw_series(LineSeries::new(exact, RED_EXACT.stroke_width(2)))?;
    }
    let blue = BLUE_MEAN;
    for &(x, c) in points {
        if let Some((_, Some([lo, hi]))) = c.mean {
            chart.draw_series(std::iter::once(PathElement::new(
                [(x, lo), (x, hi)],
                blue.stroke_width(2),
            )))?;
        }
    }
    chart.draw_series(
        points
            .iter()
            .filter_map(|&(x, c)| Some(Circle::new((x, c.mean?.0), 5, blue.filled()))),
    )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_growing_mean_gets_a_log_axis_with_round_ticks() {
        // rps from 2 to 10 players: 1.5 to 24.6 rounds, a factor of 16: log.
        assert_eq!(log_range(1.48, 25.5 * 1.08).map(|r| r.1), Some(25.5 * 1.08));
        // War's down cards, 180 to 440 rounds: linear from 0.
        assert_eq!(log_range(180.0, 440.0), None);
        assert_eq!(log_range(0.0, 440.0), None);
        let got: Vec<String> = [1.0, 2.0, 3.0, 5.0, 10.0, 20.0, 50.0, 0.5, 0.2, 2000.0]
            .map(log_tick)
            .to_vec();
        assert_eq!(
            got,
            ["1", "2", "", "5", "10", "20", "50", "0.5", "0.2", "2,000"]
        );
        assert_eq!(log_ticks(1.29, 27.6), [2.0, 5.0, 10.0, 20.0]);
        assert_eq!(log_ticks(0.3, 1.0), [0.5, 1.0]);
        let got: Vec<String> = [25.0, 2.5, 0.05, 1250.0].map(plain_tick).to_vec();
        assert_eq!(got, ["25", "2.5", "0.05", "1,250"]);
    }
}
