//! `histogram.png`: the distribution of rounds with mean, median, min and max marked.

use anyhow::{anyhow, Result};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::layout::{place_labels, y_label_area, Mark, Rect};
use super::render::{text_size, Chart, Target};
use super::report::{Report, Unended};
use crate::games::{GameStats, Outcome};
use crate::stats::summary::{counted, grouped, Distribution};

const SIZE: (u32, u32) = (1200, 720);
/// Bars drawn at most: wider bins beyond that keep each bar visible.
const MAX_BARS: u64 = 160;

/// Draws the chart of `r` into `target`.
pub fn histogram<S: GameStats>(r: &Report<S>, target: impl Target) -> Result<()> {
    target.take(&Histogram(r))
}

/// Text sizes of the chart, in px.
const TICK_PX: f64 = 15.0;
const DESC_PX: f64 = 17.0;
const MARK_PX: f64 = 15.0;
/// How much wider than measured a mark's label box is kept.
const SVG_SLACK: f64 = 1.15;

struct Histogram<'a, 'b, S>(&'a Report<'b, S>);

impl<S: GameStats> Chart for Histogram<'_, '_, S> {
    fn size(&self) -> (u32, u32) {
        SIZE
    }

    fn draw<DB: DrawingBackend>(&self, root: DrawingArea<DB, Shift>) -> Result<()>
    where
        DB::ErrorType: 'static,
    {
        draw(self.0, root)
    }
}

/// Bin widths a reader can count in: 1, 2, 5, 10, 20, 50, …
fn round_width(at_least: u64) -> u64 {
    let mut w = 1u64;
    loop {
        for k in [1, 2, 5] {
            if w.saturating_mul(k) >= at_least {
                return w.saturating_mul(k);
            }
        }
        w = w.saturating_mul(10);
    }
}

/// The bar of the bin of `width` rounds starting at `lo` spans `lo − ½ … lo + width − ½` on the
/// x axis, so that a bar of one round is centred on its value and a mark at a value (a mean of
/// 2.25, say) is drawn at that value itself.
fn bar_span(lo: u64, width: u64) -> (f64, f64) {
    (lo as f64 - 0.5, (lo + width) as f64 - 0.5)
}

/// The bins of `counts` ((rounds, games), ascending) `width` rounds wide and aligned on
/// multiples of the width, up to `last` rounds: (first round of the bin, games).
fn bins(counts: &[(u64, u64)], width: u64, last: u64) -> Vec<(u64, u64)> {
    let mut out: Vec<(u64, u64)> = Vec::new();
    for &(rounds, n) in counts.iter().filter(|c| c.0 <= last) {
        let lo = rounds / width * width;
        match out.last_mut() {
            Some(b) if b.0 == lo => b.1 += n,
            _ => out.push((lo, n)),
        }
    }
    out
}

fn draw<S: GameStats, DB: DrawingBackend>(r: &Report<S>, root: DrawingArea<DB, Shift>) -> Result<()>
where
    DB::ErrorType: 'static,
{
    let all = r
        .rounds
        .as_ref()
        .ok_or_else(|| anyhow!("no games to plot"))?;
    let players = r.tally.players;
    let endless = |slot: usize| {
        matches!(
            Outcome::from_slot(slot, players),
            Outcome::Loop | Outcome::Capped
        )
    };
    let ended: Vec<(u64, u64)> = r.tally.rounds.counts_where(|s| !endless(s)).collect();
    let unended: Vec<(u64, u64)> = r.tally.rounds.counts_where(endless).collect();
    // With games that never end, the marks describe the games that end.
    let marked = match Distribution::from_counts(&ended) {
        Some(d) if !unended.is_empty() => d,
        _ => all.clone(),
    };
    // The axis ends near the 99.9th percentile of the games that end (and the 95th of those
    // that do not), so a long sparse tail does not squeeze the bulk; the maximum is still
    // marked, at the edge.
    let q = |d: &Distribution, k: &str| d.quantiles[k].as_u64().unwrap_or(d.max);
    let endless_p95 = Distribution::from_counts(&unended).map_or(0, |d| q(&d, "p95"));
    let bulk = q(&marked, "p99.9").max(endless_p95);
    let last = if all.max > bulk + bulk / 4 + 10 {
        bulk + bulk / 4
    } else {
        all.max
    };
    let width = round_width((last - all.min + 1).div_ceil(MAX_BARS));
    // Games that never end are stacked on those that end, in their own colour.
    let ended_bins = bins(&ended, width, last);
    let mut stacked = bins(&unended, width, last);
    for (lo, n) in &mut stacked {
        let below = ended_bins.iter().find(|b| b.0 == *lo).map_or(0, |b| b.1);
        *n += below;
    }
    let unended_bins: Vec<(u64, u64, u64)> = stacked
        .iter()
        .map(|&(lo, top)| {
            let below = ended_bins.iter().find(|b| b.0 == lo).map_or(0, |b| b.1);
            (lo, below, top)
        })
        .collect();
    let top = ended_bins
        .iter()
        .map(|b| b.1)
        .chain(stacked.iter().map(|b| b.1))
        .max()
        .unwrap_or(1) as f64
        * 1.3;
    let first = all.min / width * width;
    let end = (last / width + 1) * width;
    let (x0, x1) = (
        first as f64 - 0.5 - width as f64,
        end as f64 - 0.5 + width as f64,
    );

    root.fill(&WHITE)?;
    let title = format!("{} — {}", r.info.game, counted(r.games(), "game"));
    let (head, body) = root.split_vertically(if unended.is_empty() { 70 } else { 94 });
    let grey = BLACK.mix(0.75);
    head.draw(&Text::new(
        title,
        (20, 10),
        ("sans-serif", 26).into_font().color(&BLACK),
    ))?;
    head.draw(&Text::new(
        r.info.description.clone(),
        (20, 42),
        ("sans-serif", 17).into_font().color(&grey),
    ))?;
    if !unended.is_empty() {
        let count = |o: Outcome| r.outcomes.iter().find(|x| x.0 == o).map_or(0, |x| x.1);
        let kinds = Unended {
            looping: count(Outcome::Loop),
            capped: count(Outcome::Capped),
        };
        let out_of_view: u64 = unended.iter().filter(|c| c.0 > last).map(|c| c.1).sum();
        let beyond = if out_of_view > 0 {
            format!(
                ", {:.2}% of all beyond the axis",
                100.0 * out_of_view as f64 / r.games() as f64
            )
        } else {
            String::new()
        };
        head.draw(&Text::new(
            format!(
                "{} (orange{beyond}); the marks describe the {} that end (all games: max {})",
                kinds.describe(r.games()),
                counted(r.games() - kinds.total(), "game"),
                grouped(all.max)
            ),
            (20, 66),
            ("sans-serif", 17).into_font().color(&ORANGE_DARK),
        ))?;
    }
    // Wide enough for the widest tick label beside the axis title.
    let widest = text_size(&grouped(top as u64), TICK_PX).0;
    let y_area = y_label_area(widest, text_size("games", DESC_PX).1);
    let mut chart = ChartBuilder::on(&body)
        .margin(20)
        .x_label_area_size(50)
        .y_label_area_size(y_area)
        .build_cartesian_2d(x0..x1, 0f64..top)?;
    let bin_label = if width == 1 {
        "rounds per game".to_string()
    } else {
        format!("rounds per game (bins of {width})")
    };
    // Whole numbers only: a tick between two rounds or games gets no label (no repeats).
    let whole = |v: &f64| {
        if (v - v.round()).abs() < 1e-6 && *v >= 0.0 {
            grouped(v.round() as u64)
        } else {
            String::new()
        }
    };
    chart
        .configure_mesh()
        .disable_x_mesh()
        .light_line_style(TRANSPARENT)
        .x_desc(bin_label)
        .y_desc("games")
        .label_style(("sans-serif", TICK_PX))
        .axis_desc_style(("sans-serif", DESC_PX))
        .x_label_formatter(&whole)
        .y_label_formatter(&whole)
        .draw()?;
    let bar = RGBColor(100, 135, 190).filled();
    chart.draw_series(ended_bins.iter().map(|&(lo, n)| {
        let (a, b) = bar_span(lo, width);
        Rectangle::new([(a, 0.0), (b, n as f64)], bar)
    }))?;
    // Endless games sit at their round count (the cap, or where the loop was found).
    chart.draw_series(unended_bins.iter().map(|&(lo, below, top)| {
        let (a, b) = bar_span(lo, width);
        Rectangle::new(
            [(a, below as f64), (b, top as f64)],
            ORANGE_DARK.mix(0.8).filled(),
        )
    }))?;

    let beyond = marked.max > end;
    let marks = [
        (
            marked.min as f64,
            format!("min {}", grouped(marked.min)),
            RGBColor(30, 140, 60),
        ),
        (
            marked.median as f64,
            format!("median {}", grouped(marked.median)),
            RGBColor(200, 120, 0),
        ),
        (
            marked.mean,
            format!("mean {:.2}", marked.mean),
            RGBColor(200, 30, 30),
        ),
        (
            if beyond {
                x1 - width as f64 / 2.0
            } else {
                marked.max as f64
            },
            if beyond {
                format!("max {} (beyond the axis) →", grouped(marked.max))
            } else {
                format!("max {}", grouped(marked.max))
            },
            RGBColor(120, 40, 160),
        ),
    ];
    // The lines run the plot's full height; their labels are placed clear of each other and of
    // every line (layout.rs), in pixels.
    let (xs, ys) = chart.plotting_area().get_pixel_range();
    let area = Rect {
        x0: f64::from(xs.start),
        y0: f64::from(ys.start),
        x1: f64::from(xs.end),
        y1: f64::from(ys.end),
    };
    let px: Vec<Mark> = marks
        .iter()
        .map(|(x, label, _)| {
            let (width, height) = text_size(label, MARK_PX);
            Mark {
                x: f64::from(chart.backend_coord(&(*x, 0.0)).0),
                // Room for the SVG's text drawn by a viewer's own sans-serif, which can run a
                // little wider than DejaVu Sans; the label starts at the box's left edge.
                width: width * SVG_SLACK,
                height,
            }
        })
        .collect();
    let boxes = place_labels(&px, area);
    for ((x, label, colour), b) in marks.into_iter().zip(boxes) {
        chart.draw_series(LineSeries::new(
            [(x, 0.0), (x, top)],
            colour.stroke_width(2),
        ))?;
        let style = ("sans-serif", MARK_PX)
            .into_font()
            .color(&colour)
            .pos(Pos::new(HPos::Left, VPos::Top));
        root.draw(&Text::new(label, (b.x0 as i32, b.y0 as i32), style))?;
    }
    root.present()?;
    Ok(())
}

/// The colour of games that never end.
const ORANGE_DARK: RGBColor = RGBColor(220, 110, 20);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn widths_are_round_numbers() {
        let got: Vec<u64> = [1, 2, 3, 6, 13, 22, 51, 1151].map(round_width).to_vec();
        assert_eq!(got, [1, 2, 5, 10, 20, 50, 100, 2000]);
    }

    #[test]
    fn a_mark_lands_on_its_value_in_one_round_and_wider_bins() {
        // Three players of rps: 2 rounds three times, 3 rounds once: mean 2.25.
        let d = Distribution::from_counts(&[(2, 3), (3, 1)]).unwrap();
        assert_eq!(d.mean, 2.25);
        // One-round bins: the bar of 2 rounds is centred on 2, the mean sits a quarter of the
        // way from 2 to 3, inside the bar of 2.
        let (a, b) = bar_span(2, 1);
        assert_eq!(((a + b) / 2.0, a, b), (2.0, 1.5, 2.5));
        assert!(a < d.mean && d.mean < b);
        // Every integer value is the centre of its one-round bar.
        for v in 0..50u64 {
            let (a, b) = bar_span(v, 1);
            assert_eq!((a + b) / 2.0, v as f64);
        }
        // Bins of 10: the bar holding rounds 20..29 covers every value in it.
        let (a, b) = bar_span(20, 10);
        assert!((20..30).all(|v| a < v as f64 && (v as f64) < b));
        assert_eq!((a, b), (19.5, 29.5));
        assert_eq!(
            bins(&[(21, 1), (29, 2), (30, 1), (95, 4)], 10, 40),
            [(20, 3), (30, 1)]
        );
    }
}
