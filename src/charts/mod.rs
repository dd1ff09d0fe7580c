//! Charts over the rounds of one run or several: survival curves, how many games last longer
//! than t rounds (log scale, so an exponential tail is a straight line: `survival.png` of a run
//! with its fitted tail, `sweep.png` of a sweep, `compare.png`), and `means.png`, a sweep's mean
//! rounds of the games that end with their 95% intervals (and the share that never ends, where
//! some never do).
//!
//! This module holds what they share (sizes, palette, line styles, the legend and the heading);
//! each chart is a file: [`histogram`], [`survival`], [`sweep`], [`means`], [`by_group`] and
//! [`shares`] (a game's own); [`RunChart`] lists a run's. The embedded DejaVu Sans is laid out
//! by [`glyphs`], labels are placed clear of each other by [`layout`], [`render`] draws to a
//! PNG, an SVG file or report.html's inline SVG, and `inspect` tests every chart kind for
//! collisions.

mod by_group;
pub mod glyphs;
pub mod histogram;
#[cfg(test)]
mod inspect;
pub mod layout;
mod means;
mod panels;
pub mod render;
mod run;
mod shares;
mod survival;
mod sweep;

pub use by_group::{by_group, GroupPoint};
pub use means::means;
pub use panels::{panel_axis, panels, place, Panel};
pub use run::RunChart;
pub use shares::shares;
pub use survival::survival;
pub use sweep::sweep;

use anyhow::Result;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::model::report::Curve;
use crate::stats::summary::{fixed, grouped, Share};
use layout::y_label_area;
use render::{text_size, Chart, Target};

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
    /// varying slowest). Up to [`PALETTE`]'s 12 lines (one plot, or a panel of small
    /// multiples), each line has a colour of its own and the dashes say the values of every
    /// setting but the one with the most values, a second cue: 8 lines of 4 pickups × 2 short
    /// wars are 8 colours, solid for one short war and dashed for the other. More lines share
    /// colours: the colour says the value of one setting and the dash the values of the
    /// others, so 24 lines of 6 × 4 settings are 6 colours in 4 dash patterns. With no such
    /// split (too many values), [`LineStyle::nth`].
    pub fn sweep(lens: &[usize]) -> Vec<LineStyle> {
        let n: usize = lens.iter().product();
        // The axis the dashes leave out: with a colour per line, the one of the most values
        // (the last of them), so the dashes are as few as can be; else the colour's axis, the
        // last that leaves few enough combinations for the dashes.
        let own_colours = n <= PALETTE.len();
        let free = if own_colours {
            (0..lens.len()).max_by_key(|&c| (lens[c], c))
        } else {
            (0..lens.len())
                .rev()
                .find(|&c| lens[c] <= PALETTE.len() && n / lens[c].max(1) <= DASHES.len())
        };
        let Some(c) = free else {
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
                    colour: if own_colours { i } else { digits[c] },
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

/// `text` as legend notes ([`LegendKey::Note`]) on a chart `width` wide, broken between words
/// into lines that fit beside the samples' column, so a long sentence is read whole, not cut
/// at the chart's edge.
fn notes(text: &str, width: u32) -> Vec<(String, LegendKey)> {
    let room = f64::from(width) - f64::from(SAMPLE_W) - 40.0;
    let mut lines: Vec<String> = Vec::new();
    for word in text.split(' ') {
        match lines.last_mut() {
            Some(line) if text_size(&format!("{line} {word}"), LEGEND_PX).0 <= room => {
                line.push(' ');
                line.push_str(word);
            }
            _ => lines.push(word.to_string()),
        }
    }
    lines.into_iter().map(|l| (l, LegendKey::Note)).collect()
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
    /// Words on the entry above (how far a fitted tail holds): no sample.
    Note,
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
            LegendKey::Note => {}
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
