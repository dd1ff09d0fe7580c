//! Charts over the rounds of one run or several: survival curves, how many games last longer
//! than t rounds (log scale, so an exponential tail is a straight line: `survival.png` of a run
//! with its fitted tail, `sweep.png` of a sweep, `compare.png`), and `means.png`, a sweep's mean
//! rounds of the games that end with their 95% intervals (and the share that never ends, where
//! some never do).

use anyhow::Result;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::layout::y_label_area;
use super::render::{text_size, Chart, Target};
use super::report::Curve;
use crate::games::ShareChart;
use crate::stats::summary::{fixed, grouped, Share};
use crate::stats::tail::TailFit;

const SIZE: (u32, u32) = (1200, 800);

/// Line colours: distinct on white.
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

/// Dash patterns (dash, gap) in px; (0, 0) is a solid line.
const DASHES: [(u32, u32); 4] = [(0, 0), (14, 6), (4, 4), (22, 5)];

/// How one curve is drawn: a colour of [`PALETTE`] and a dash pattern of [`DASHES`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LineStyle {
    /// Index into the palette.
    pub colour: usize,
    /// Index into the dash patterns.
    pub dash: usize,
}

impl LineStyle {
    /// The style of the `i`-th of a list of curves with no structure: every colour solid,
    /// then every colour with the next dash pattern.
    pub fn nth(i: usize) -> LineStyle {
        LineStyle {
            colour: i % PALETTE.len(),
            dash: (i / PALETTE.len()) % DASHES.len(),
        }
    }

    /// The styles of a sweep's rule sets, the product of axes of `lens` values (the first
    /// varying slowest): the colour says the value of one setting and the dash the values of the
    /// others, so 24 lines of 6 × 4 settings are 6 colours in 4 dash patterns and a reader can
    /// tell which setting a line has. With no such split (too many values), [`LineStyle::nth`].
    pub fn sweep(lens: &[usize]) -> Vec<LineStyle> {
        let n: usize = lens.iter().product();
        // The colour axis: the last one that leaves few enough combinations for the dashes.
        let colour_axis = (0..lens.len())
            .rev()
            .find(|&c| lens[c] <= PALETTE.len() && n / lens[c].max(1) <= DASHES.len());
        let Some(c) = colour_axis else {
            return (0..n).map(LineStyle::nth).collect();
        };
        (0..n)
            .map(|i| {
                // The digits of i in the mixed radix of lens, the last axis fastest.
                let mut rest = i;
                let mut digits = vec![0; lens.len()];
                for (k, &len) in lens.iter().enumerate().rev() {
                    digits[k] = rest % len;
                    rest /= len;
                }
                let dash = digits
                    .iter()
                    .zip(lens)
                    .enumerate()
                    .filter(|&(k, _)| k != c)
                    .fold(0, |acc, (_, (&d, &len))| acc * len + d);
                LineStyle {
                    colour: digits[c],
                    dash,
                }
            })
            .collect()
    }

    fn colour(self) -> RGBColor {
        PALETTE[self.colour % PALETTE.len()]
    }
}

/// One curve of a survival chart: its legend label, its games and how it is drawn.
pub struct Line<'a> {
    /// The legend's text.
    pub label: String,
    /// The games.
    pub curve: &'a Curve,
    /// Colour and dashes.
    pub style: LineStyle,
}

impl<'a> Line<'a> {
    /// `curves` styled one after the other ([`LineStyle::nth`]).
    pub fn each(curves: &[(String, &'a Curve)]) -> Vec<Line<'a>> {
        curves
            .iter()
            .enumerate()
            .map(|(i, (label, curve))| Line {
                label: label.clone(),
                curve,
                style: LineStyle::nth(i),
            })
            .collect()
    }
}

/// Survival curves under `title` and `subtitle`, their legend below the plot (where it cannot
/// cover a curve's end); with `fits`, each curve's fitted tail is drawn too.
pub fn survival(
    title: &str,
    subtitle: &str,
    lines: &[Line<'_>],
    fits: bool,
    target: impl Target,
) -> Result<()> {
    target.take(&Survival {
        title,
        subtitle,
        lines,
        fits,
    })
}

/// `means.png`: mean rounds per rule set, against the varying option's value when a single
/// numeric option varies (`numeric` names it), else one row per rule set.
pub fn means(
    title: &str,
    curves: &[(String, &Curve)],
    numeric: Option<&str>,
    target: impl Target,
) -> Result<()> {
    match numeric {
        Some(option) => target.take(&MeansByValue {
            title,
            curves,
            option,
        }),
        None => target.take(&MeansByRuleSet { title, curves }),
    }
}

/// A line of `style` from `a` to `b` in pixels, dashed as its pattern says.
fn sample(a: (i32, i32), b: (i32, i32), style: LineStyle) -> Vec<PathElement<(i32, i32)>> {
    let stroke = style.colour().stroke_width(2);
    let (dash, gap) = DASHES[style.dash % DASHES.len()];
    if dash == 0 {
        return vec![PathElement::new([a, b], stroke)];
    }
    let mut out = Vec::new();
    let mut x = a.0;
    while x < b.0 {
        let end = (x + dash as i32).min(b.0);
        out.push(PathElement::new([(x, a.1), (end, b.1)], stroke));
        x = end + gap as i32;
    }
    out
}

/// The text size of legend entries, and the height of a row of them.
const LEGEND_PX: f64 = 14.0;
const LEGEND_ROW: u32 = 22;
/// The sample line's length before each legend label.
const SAMPLE_W: i32 = 36;

/// The legend's columns for `entries` on a chart `width` wide: two when every label fits in
/// half the width, else one.
fn legend_columns(entries: &[(String, LegendKey)], width: u32) -> usize {
    let widest = entries
        .iter()
        .map(|e| text_size(&e.0, LEGEND_PX).0)
        .fold(0.0, f64::max);
    if entries.len() > 1 && widest + f64::from(SAMPLE_W) + 40.0 <= f64::from(width) / 2.0 - 30.0 {
        2
    } else {
        1
    }
}

/// The height of the legend area below the plot.
fn legend_height(entries: &[(String, LegendKey)], width: u32) -> u32 {
    let rows = entries.len().div_ceil(legend_columns(entries, width)) as u32;
    rows * LEGEND_ROW + 16
}

/// What a legend entry's sample shows.
#[derive(Clone, Copy)]
enum LegendKey {
    /// A curve.
    Line(LineStyle),
    /// A fitted tail: black, dashed.
    Fit,
    /// The survival of the games that end only: grey, thin.
    Ended,
    /// A mean: a dot of this colour.
    Mean(RGBColor),
    /// An exact value: a line of this colour.
    Exact(RGBColor),
}

/// The colours of simulated means and of exact values.
const BLUE_MEAN: RGBColor = RGBColor(50, 90, 160);
const RED_EXACT: RGBColor = RGBColor(200, 30, 30);

/// Draws `entries` in rows (and columns) on `area`.
fn draw_legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    entries: &[(String, LegendKey)],
) -> Result<()>
where
    DB::ErrorType: 'static,
{
    let (width, _) = area.dim_in_pixel();
    let columns = legend_columns(entries, width);
    let rows = entries.len().div_ceil(columns);
    let col_w = (width as i32 - 40) / columns as i32;
    for (k, (label, key)) in entries.iter().enumerate() {
        let (col, row) = (k / rows, k % rows);
        let x = 20 + col as i32 * col_w;
        let y = 8 + row as i32 * LEGEND_ROW as i32 + LEGEND_ROW as i32 / 2;
        let (a, b) = ((x, y), (x + SAMPLE_W - 6, y));
        match key {
            LegendKey::Line(style) => {
                for seg in sample(a, b, *style) {
                    area.draw(&seg)?;
                }
            }
            LegendKey::Fit => {
                for x in (a.0..b.0).step_by(16) {
                    area.draw(&PathElement::new(
                        [(x, y), ((x + 10).min(b.0), y)],
                        BLACK.mix(0.8).stroke_width(2),
                    ))?;
                }
            }
            LegendKey::Ended => {
                area.draw(&PathElement::new([a, b], BLACK.mix(0.45).stroke_width(1)))?;
            }
            LegendKey::Mean(c) => {
                area.draw(&Circle::new(((a.0 + b.0) / 2, y), 5, c.filled()))?;
            }
            LegendKey::Exact(c) => {
                area.draw(&PathElement::new([a, b], c.stroke_width(2)))?;
            }
        }
        area.draw(&Text::new(
            label.clone(),
            (x + SAMPLE_W, y),
            ("sans-serif", LEGEND_PX)
                .into_font()
                .color(&BLACK)
                .pos(Pos::new(HPos::Left, VPos::Center)),
        ))?;
    }
    Ok(())
}

/// The title and subtitle lines; returns the area below them.
fn head<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    title: &str,
    subtitles: &[&str],
) -> Result<DrawingArea<DB, Shift>>
where
    DB::ErrorType: 'static,
{
    root.fill(&WHITE)?;
    let (head, body) = root.split_vertically(46 + 24 * subtitles.len() as u32);
    head.draw(&Text::new(
        title.to_string(),
        (20, 10),
        ("sans-serif", 26).into_font().color(&BLACK),
    ))?;
    for (i, line) in subtitles.iter().enumerate() {
        head.draw(&Text::new(
            line.to_string(),
            (20, 42 + 24 * i as i32),
            ("sans-serif", 17).into_font().color(&BLACK.mix(0.75)),
        ))?;
    }
    Ok(body)
}

/// A share on a log axis, as a percentage: 100%, 10%, 1%, 0.1%, …
fn percent(v: f64) -> String {
    let p = 100.0 * v;
    let digits = (-p.log10().floor()).max(0.0) as usize;
    format!("{p:.digits$}%")
}

/// The fitted tail of `curve` as points (t, share still going), from its threshold to where it
/// leaves the chart (below `y_min` or beyond `x_end`). The fit is to the games that end, so the
/// share is of those games: P(rounds > t | the game ends) = S(from)·exp(−rate·(t − from)), with
/// S(from) the share of the ending games beyond the threshold. Where every game ends this is
/// the curve's own scale; where some loop or are capped it is the grey conditional curve's.
fn tail_line(curve: &Curve, t: &TailFit, y_min: f64, x_end: f64) -> Vec<(f64, f64)> {
    let ended = curve.games - curve.unended.total();
    let beyond = t.games as f64 / ended.max(1) as f64;
    let from = t.from as f64;
    let end = x_end.min(from + t.e_folding_rounds * (beyond / y_min).ln());
    (0..=100)
        .map(|k| from + (end - from) * f64::from(k) / 100.0)
        .map(|x| (x, beyond * (-t.rate * (x - from)).exp()))
        .collect()
}

/// P(rounds > t | the game ends), as [`Curve::survival`] steps: the survival of the games that
/// end alone, which levels off at zero where the whole curve levels off at the share that
/// never ends.
fn ended_survival(curve: &Curve) -> Vec<(u64, f64)> {
    let ended = curve.games - curve.unended.total();
    let n = ended.max(1) as f64;
    let mut left = ended;
    let mut out = vec![(0, 1.0)];
    for &(t, c) in &curve.ended {
        left -= c;
        out.push((t, left as f64 / n));
    }
    out
}

/// Step points of `steps` ((t, share after t)), cut at the chart's edges.
fn step_points(steps: &[(u64, f64)], y_min: f64, x_end: f64) -> Vec<(f64, f64)> {
    let mut points = Vec::new();
    let mut prev = 1.0f64;
    for &(t, s) in steps {
        let t = (t as f64).min(x_end);
        points.push((t, prev.max(y_min)));
        points.push((t, s.max(y_min)));
        prev = s;
        // Below the axis the curve has left the chart: it ends at the axis.
        if s < y_min || t >= x_end {
            return points;
        }
    }
    points.push((x_end, prev));
    points
}

struct Survival<'a> {
    title: &'a str,
    subtitle: &'a str,
    lines: &'a [Line<'a>],
    fits: bool,
}

impl Survival<'_> {
    /// The fitted tails drawn, with the curve each belongs to.
    fn fitted(&self) -> impl Iterator<Item = (&Curve, &TailFit)> {
        self.lines
            .iter()
            .filter(|_| self.fits)
            .filter_map(|l| Some((l.curve, l.curve.tail.as_ref()?)))
    }

    /// The legend's entries: every curve, then every fitted tail (and, for a curve with games
    /// that never end, the survival of its games that end, on which its tail is fitted).
    fn legend(&self) -> Vec<(String, LegendKey)> {
        let mut entries: Vec<(String, LegendKey)> = self
            .lines
            .iter()
            .map(|l| (l.label.clone(), LegendKey::Line(l.style)))
            .collect();
        for (c, t) in self.fitted() {
            let of = if c.unended.total() > 0 {
                entries.push((
                    "the games that end only: share of them still going after t rounds".into(),
                    LegendKey::Ended,
                ));
                " of the games that end"
            } else {
                ""
            };
            entries.push((
                format!(
                    "fitted tail{of} beyond {} rounds: e-folding {:.1} rounds ({:.1}–{:.1})",
                    grouped(t.from),
                    t.e_folding_rounds,
                    t.e_folding_ci95[0],
                    t.e_folding_ci95[1]
                ),
                LegendKey::Fit,
            ));
        }
        entries
    }
}

impl Chart for Survival<'_> {
    /// Taller by the legend below the plot.
    fn size(&self) -> (u32, u32) {
        (SIZE.0, SIZE.1 + legend_height(&self.legend(), SIZE.0))
    }

    fn draw<DB: DrawingBackend>(&self, root: DrawingArea<DB, Shift>) -> Result<()>
    where
        DB::ErrorType: 'static,
    {
        let body = head(&root, self.title, &[self.subtitle])?;
        let entries = self.legend();
        let (width, height) = body.dim_in_pixel();
        let (plot, below) = body.split_vertically(height - legend_height(&entries, width));
        // One curve: all of it. Several: up to the largest 99.9th percentile, so one long
        // tail does not squeeze the rest.
        let x_end = match self.lines {
            [l] => l.curve.ended.last().map(|e| e.0),
            _ => self.lines.iter().filter_map(|l| l.curve.p999).max(),
        }
        .unwrap_or(1)
        .max(1) as f64;
        let games = self.lines.iter().map(|l| l.curve.games).max().unwrap_or(1);
        let y_min = (1.0 / games as f64).max(1e-5);
        let y_desc = "share of games longer than t rounds";
        let y_area = y_label_area(
            text_size(&percent(y_min), 15.0).0,
            text_size(y_desc, 17.0).1,
        );
        let mut chart = ChartBuilder::on(&plot)
            .margin(20)
            .x_label_area_size(50)
            .y_label_area_size(y_area)
            .build_cartesian_2d(0f64..x_end, (y_min..1.0).log_scale())?;
        chart
            .configure_mesh()
            .light_line_style(TRANSPARENT)
            .x_desc("rounds t")
            .y_desc(y_desc)
            .label_style(("sans-serif", 15))
            .axis_desc_style(("sans-serif", 17))
            .x_label_formatter(&|v| grouped(v.round().max(0.0) as u64))
            .y_label_formatter(&|v| percent(*v))
            .draw()?;
        for line in self.lines {
            let points = step_points(&line.curve.survival(), y_min, x_end);
            let stroke = line.style.colour().stroke_width(2);
            match DASHES[line.style.dash % DASHES.len()] {
                (0, _) => chart.draw_series(LineSeries::new(points, stroke))?,
                (dash, gap) => {
                    chart.draw_series(DashedLineSeries::new(points, dash, gap, stroke))?
                }
            };
        }
        for (curve, t) in self.fitted() {
            if curve.unended.total() > 0 {
                let points = step_points(&ended_survival(curve), y_min, x_end);
                chart.draw_series(LineSeries::new(points, BLACK.mix(0.45).stroke_width(1)))?;
            }
            let style = BLACK.mix(0.8).stroke_width(2);
            chart.draw_series(DashedLineSeries::new(
                tail_line(curve, t, y_min, x_end),
                10,
                6,
                style,
            ))?;
        }
        draw_legend(&below, &entries)?;
        root.present()?;
        Ok(())
    }
}

struct MeansByRuleSet<'a> {
    title: &'a str,
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
        let body = head(
            &root,
            self.title,
            if any_endless {
                &[
                    "left: mean rounds of the games that end (95% interval)",
                    "right: the share of all games that loop (red) and that were stopped at the \
                     round cap (grey)",
                ]
            } else {
                &["mean rounds (95% interval)"]
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
                .x_desc("loop (red), capped (grey), % of games")
                .label_style(("sans-serif", 13))
                .axis_desc_style(("sans-serif", 16))
                .draw()?;
            let red = RGBColor(200, 60, 40);
            let grey = RGBColor(120, 120, 120);
            for (i, (_, c)) in self.curves.iter().enumerate() {
                // The loops' bar, then the capped games' bar after it: apart, never summed
                // into one "never ends".
                let (l, k) = (c.looping(), c.capped());
                for (from, share, colour) in [(0.0, &l, red), (l.share, &k, grey)] {
                    if share.count == 0 {
                        continue;
                    }
                    chart.draw_series(std::iter::once(PathElement::new(
                        [
                            (100.0 * from, row(i)),
                            (100.0 * (from + share.share), row(i)),
                        ],
                        colour.mix(0.45).stroke_width(12),
                    )))?;
                }
                for (share, colour) in [(&l, red), (&k, grey)] {
                    if share.count > 0 {
                        chart.draw_series(std::iter::once(PathElement::new(
                            [
                                (100.0 * share.ci95[0], row(i)),
                                (100.0 * share.ci95[1], row(i)),
                            ],
                            colour.stroke_width(2),
                        )))?;
                    }
                }
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
    fn size(&self) -> (u32, u32) {
        SIZE
    }

    fn draw<DB: DrawingBackend>(&self, root: DrawingArea<DB, Shift>) -> Result<()>
    where
        DB::ErrorType: 'static,
    {
        let what = format!("mean rounds against --{} (95% interval)", self.option);
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
            .y_label_area_size(y_label_area(
                text_size(&format!("{top:.0}"), 15.0).0,
                text_size("mean rounds", 17.0).1,
            ))
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
        if !exact.is_empty() {
            chart.draw_series(LineSeries::new(exact, RED_EXACT.stroke_width(2)))?;
        }
        let blue = BLUE_MEAN;
        for &(x, c) in &points {
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
        draw_legend(&below, &entries)?;
        root.present()?;
        Ok(())
    }
}

/// A 95% interval from `lo` to `hi` at `x`: a vertical bar with caps, seen even where it is
/// shorter than the point's marker.
fn whisker(x: f64, lo: f64, hi: f64, colour: RGBColor) -> [PathElement<(f64, f64)>; 3] {
    let cap = 0.12;
    [
        [(x, lo), (x, hi)],
        [(x - cap, lo), (x + cap, lo)],
        [(x - cap, hi), (x + cap, hi)],
    ]
    .map(|p| PathElement::new(p, colour.stroke_width(2)))
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

/// `by.png`: player 1's win share and the mean rounds per group, against the group's number,
/// under the run's `title` and its `rules` (two runs with other rules must not look alike);
/// `population` names the games whose mean rounds are drawn.
pub fn by_group(
    title: &str,
    rules: &str,
    meaning: &str,
    population: &str,
    groups: &[GroupPoint],
    target: impl Target,
) -> Result<()> {
    target.take(&ByGroup {
        title,
        rules,
        meaning,
        population,
        groups,
    })
}

struct ByGroup<'a> {
    title: &'a str,
    rules: &'a str,
    meaning: &'a str,
    population: &'a str,
    groups: &'a [GroupPoint],
}

impl Chart for ByGroup<'_> {
    fn size(&self) -> (u32, u32) {
        SIZE
    }

    fn draw<DB: DrawingBackend>(&self, root: DrawingArea<DB, Shift>) -> Result<()>
    where
        DB::ErrorType: 'static,
    {
        let what = format!(
            "per number of {}: player 1's share of wins and the mean rounds (95% intervals)",
            self.meaning
        );
        let body = head(&root, self.title, &[self.rules, &what])?;
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
        // A tick reads 100 or 1,250, not 100.0; a fraction keeps one decimal.
        let tick = |v: &f64| {
            if (v - v.round()).abs() < 1e-9 {
                fixed(*v, 0)
            } else {
                fixed(*v, 1)
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
            .y_label_formatter(&tick)
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
            let [lo, hi] = g.p1.ci95.map(|v| 100.0 * v);
            chart.draw_series(whisker(gx, lo, hi, blue))?;
            chart.draw_series(std::iter::once(Circle::new(
                (gx, 100.0 * g.p1.share),
                4,
                blue.stroke_width(2),
            )))?;
        }
        // The means' axis spans their intervals, with a margin, so an interval a few rounds
        // wide is seen; its ticks give the scale.
        let ends = self
            .groups
            .iter()
            .filter_map(|g| g.mean.map(|(m, ci)| ci.unwrap_or([m, m])));
        let (low, high) = ends.fold((f64::MAX, 0.0f64), |(a, b), [lo, hi]| {
            (a.min(lo), b.max(hi))
        });
        let margin = ((high - low) * 0.15).max(1.0);
        let (bottom, top) = if low <= high {
            ((low - margin).max(0.0), high + margin)
        } else {
            (0.0, 1.0)
        };
        let mut chart = ChartBuilder::on(&right)
            .margin(20)
            .x_label_area_size(50)
            .y_label_area_size(70)
            .build_cartesian_2d(x, bottom..top)?;
        chart
            .configure_mesh()
            .light_line_style(TRANSPARENT)
            .x_desc(self.meaning)
            .y_desc(self.population)
            .x_label_formatter(&whole)
            .y_label_formatter(&tick)
            .label_style(("sans-serif", 14))
            .axis_desc_style(("sans-serif", 16))
            .draw()?;
        let red = RGBColor(200, 60, 40);
        for g in self.groups {
            let Some((m, ci)) = g.mean else { continue };
            let gx = f64::from(g.group);
            if let Some([lo, hi]) = ci {
                chart.draw_series(whisker(gx, lo, hi, red))?;
            }
            chart.draw_series(std::iter::once(Circle::new(
                (gx, m),
                4,
                red.stroke_width(2),
            )))?;
        }
        root.present()?;
        Ok(())
    }
}

/// A chart of a game's own shares ([`ShareChart`], e.g. War's quit.png) under the run's `title`
/// and its `rules`: each series a line through its points with each point's 95% interval as a
/// bar, the legend below the plot.
pub fn shares(title: &str, rules: &str, chart: &ShareChart, target: impl Target) -> Result<()> {
    target.take(&Shares {
        title,
        rules,
        chart,
    })
}

struct Shares<'a> {
    title: &'a str,
    rules: &'a str,
    chart: &'a ShareChart,
}

impl Shares<'_> {
    fn legend(&self) -> Vec<(String, LegendKey)> {
        self.chart
            .series
            .iter()
            .enumerate()
            .map(|(i, (label, _))| (label.clone(), LegendKey::Line(LineStyle::nth(i))))
            .collect()
    }
}

impl Chart for Shares<'_> {
    /// Taller by the legend below the plot.
    fn size(&self) -> (u32, u32) {
        (SIZE.0, SIZE.1 + legend_height(&self.legend(), SIZE.0))
    }

    fn draw<DB: DrawingBackend>(&self, root: DrawingArea<DB, Shift>) -> Result<()>
    where
        DB::ErrorType: 'static,
    {
        let c = self.chart;
        let body = head(&root, self.title, &[self.rules, &c.what])?;
        let entries = self.legend();
        let (width, height) = body.dim_in_pixel();
        let (plot, below) = body.split_vertically(height - legend_height(&entries, width));
        let xs = c.series.iter().flat_map(|(_, p)| p.iter().map(|q| q.0));
        let (lo, hi) = xs.fold((u64::MAX, 0), |(lo, hi), x| (lo.min(x), hi.max(x)));
        let (lo, hi) = if lo > hi { (0, 1) } else { (lo, hi) };
        let x = lo as f64 - 0.5..hi as f64 + 0.5;
        let y_area = y_label_area(text_size("100", 15.0).0, text_size(c.y_desc, 17.0).1);
        let mut chart = ChartBuilder::on(&plot)
            .margin(20)
            .x_label_area_size(50)
            .y_label_area_size(y_area)
            .build_cartesian_2d(x.clone(), 0f64..100.0)?;
        let whole = |v: &f64| {
            if v.fract() == 0.0 {
                format!("{v:.0}")
            } else {
                String::new()
            }
        };
        chart
            .configure_mesh()
            .light_line_style(TRANSPARENT)
            .x_desc(c.x_desc)
            .y_desc(c.y_desc)
            .x_label_formatter(&whole)
            .label_style(("sans-serif", 15))
            .axis_desc_style(("sans-serif", 17))
            .draw()?;
        chart.draw_series(DashedLineSeries::new(
            [(x.start, 50.0), (x.end, 50.0)],
            6,
            4,
            BLACK.mix(0.3).stroke_width(1),
        ))?;
        for (i, (_, points)) in c.series.iter().enumerate() {
            let style = LineStyle::nth(i);
            let colour = style.colour();
            // Each series a little apart from the others, so that bars at one x do not hide
            // each other.
            let shift = (i as f64 - (c.series.len() as f64 - 1.0) / 2.0) * 0.08;
            let at = |x: u64| x as f64 + shift;
            for (x, s) in points {
                chart.draw_series(std::iter::once(PathElement::new(
                    [(at(*x), 100.0 * s.ci95[0]), (at(*x), 100.0 * s.ci95[1])],
                    colour.mix(0.6).stroke_width(1),
                )))?;
            }
            let line = points.iter().map(|(x, s)| (at(*x), 100.0 * s.share));
            let stroke = colour.stroke_width(2);
            match DASHES[style.dash % DASHES.len()] {
                (0, _) => chart.draw_series(LineSeries::new(line, stroke))?,
                (dash, gap) => chart.draw_series(DashedLineSeries::new(line, dash, gap, stroke))?,
            };
            chart.draw_series(
                points
                    .iter()
                    .map(|(x, s)| Circle::new((at(*x), 100.0 * s.share), 3, colour.filled())),
            )?;
        }
        draw_legend(&below, &entries)?;
        root.present()?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::output::report::Unended;

    #[test]
    fn a_looping_runs_fitted_tail_starts_on_the_curve_of_the_games_that_end() {
        // 1,000 games end, one at each of 1..=1000 rounds; 700 more loop.
        let ended: Vec<(u64, u64)> = (1..=1000).map(|t| (t, 1)).collect();
        let tail = TailFit::from_counts(&ended).unwrap();
        assert_eq!((tail.from, tail.games), (900, 100));
        let unended = Unended {
            looping: 700,
            capped: 0,
        };
        let c = Curve::new(ended, unended, Some(tail.clone()), None);
        // At its threshold the fit stands at the share of the games that end beyond it
        // (100 of 1,000), where their own curve is, not at 100 of all 1,700 games.
        let line = tail_line(&c, &tail, 1e-5, 2000.0);
        assert_eq!(line[0], (900.0, 0.1));
        assert!(ended_survival(&c).contains(&(900, 0.1)));
        assert!(c.survival().contains(&(900, 800.0 / 1700.0)));
        // Every game ends: the two scales are one.
        let all: Vec<(u64, u64)> = (1..=1000).map(|t| (t, 1)).collect();
        let c = Curve::new(all, Unended::default(), Some(tail.clone()), None);
        assert_eq!(tail_line(&c, &tail, 1e-5, 2000.0)[0], (900.0, 0.1));
        assert_eq!(ended_survival(&c), c.survival());
    }

    #[test]
    fn loops_and_capped_games_are_told_apart() {
        let u = Unended {
            looping: 2,
            capped: 3,
        };
        assert_eq!(
            u.describe(1000),
            "2 games loop forever (0.20%), 3 games stopped at the round cap (0.30%)"
        );
        let c = Curve::new(vec![(5, 995)], u, None, None);
        assert_eq!(
            (c.looping().count, c.capped().count, c.unended.total()),
            (2, 3, 5)
        );
        assert_eq!(Unended::default().describe(10), "");
    }

    #[test]
    fn log_axis_labels_are_percentages() {
        let got: Vec<String> = [1.0, 0.1, 0.01, 1e-3, 1e-5].map(percent).to_vec();
        assert_eq!(got, ["100%", "10%", "1%", "0.1%", "0.001%"]);
    }

    #[test]
    fn survival_steps_down_to_the_share_that_never_ends() {
        // 2 games of 3 rounds, 1 of 5, 1 that never ends.
        let c = Curve::new(
            vec![(3, 2), (5, 1)],
            Unended {
                looping: 1,
                capped: 0,
            },
            None,
            None,
        );
        assert_eq!(c.games, 4);
        assert_eq!(c.survival(), [(0, 1.0), (3, 0.5), (5, 0.25)]);
        assert_eq!(c.looping().count, 1);
        let (m, _) = c.mean.unwrap();
        assert!((m - 11.0 / 3.0).abs() < 1e-12);
    }
}
