//! `histogram.png`: the distribution of rounds with mean, median, min and max marked.
//!
//! Text is drawn with DejaVu Sans embedded in the binary (assets/), so a chart renders the same
//! on a machine with no fonts installed.

use std::path::Path;
use std::sync::Once;

use anyhow::{anyhow, Result};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters::style::{register_font, FontStyle};

use super::report::Report;
use crate::games::GameStats;
use crate::stats::summary::{counted, grouped};

static FONT: &[u8] = include_bytes!("../../assets/DejaVuSans.ttf");
static REGISTER: Once = Once::new();

const SIZE: (u32, u32) = (1200, 720);
/// Bars drawn at most: wider bins beyond that keep each bar visible.
const MAX_BARS: u64 = 160;

fn register() {
    REGISTER.call_once(|| {
        // The font is compiled in and known to parse; a failure would only lose the text.
        let _ = register_font("sans-serif", FontStyle::Normal, FONT);
    });
}

/// Draws the chart of `r` into `path` (a file of the staged output set).
pub fn histogram<S: GameStats>(r: &Report<S>, path: &Path) -> Result<()> {
    register();
    draw(r, path)
}

fn draw<S: GameStats>(r: &Report<S>, path: &Path) -> Result<()> {
    let d = r
        .rounds
        .as_ref()
        .ok_or_else(|| anyhow!("no games to plot"))?;
    let width = (d.max - d.min + 1).div_ceil(MAX_BARS).max(1);
    let mut bins: Vec<(u64, u64)> = Vec::new();
    for (rounds, n) in r.tally.rounds.counts_where(|_| true) {
        let lo = d.min + (rounds - d.min) / width * width;
        match bins.last_mut() {
            Some(b) if b.0 == lo => b.1 += n,
            _ => bins.push((lo, n)),
        }
    }
    let top = bins.iter().map(|b| b.1).max().unwrap_or(1) as f64 * 1.25;
    let (x0, x1) = (
        d.min.saturating_sub(width) as f64,
        (d.max + 2 * width) as f64,
    );

    let root = BitMapBackend::new(path, SIZE).into_drawing_area();
    root.fill(&WHITE)?;
    let title = format!("{} — {}", r.info.game, counted(r.games(), "game"));
    let (head, body) = root.split_vertically(70);
    head.draw(&Text::new(
        title,
        (20, 10),
        ("sans-serif", 26).into_font().color(&BLACK),
    ))?;
    head.draw(&Text::new(
        r.info.description.clone(),
        (20, 42),
        ("sans-serif", 17).into_font().color(&BLACK.mix(0.75)),
    ))?;
    let mut chart = ChartBuilder::on(&body)
        .margin(20)
        .x_label_area_size(50)
        .y_label_area_size(90)
        .build_cartesian_2d(x0..x1, 0f64..top)?;
    let bin_label = if width == 1 {
        "rounds per game".to_string()
    } else {
        format!("rounds per game (bins of {width})")
    };
    chart
        .configure_mesh()
        .disable_x_mesh()
        .light_line_style(TRANSPARENT)
        .x_desc(bin_label)
        .y_desc("games")
        .label_style(("sans-serif", 15))
        .axis_desc_style(("sans-serif", 17))
        .x_label_formatter(&|x| grouped(x.max(0.0) as u64))
        .y_label_formatter(&|y| grouped(y.max(0.0) as u64))
        .draw()?;
    let bar = RGBColor(100, 135, 190).filled();
    chart.draw_series(bins.iter().map(|&(lo, n)| {
        Rectangle::new([(lo as f64, 0.0), ((lo + width) as f64, n as f64)], bar)
    }))?;

    let marks = [
        (
            "min",
            d.min as f64,
            format!("min {}", grouped(d.min)),
            RGBColor(30, 140, 60),
        ),
        (
            "median",
            d.median as f64,
            format!("median {}", grouped(d.median)),
            RGBColor(200, 120, 0),
        ),
        (
            "mean",
            d.mean,
            format!("mean {:.2}", d.mean),
            RGBColor(200, 30, 30),
        ),
        (
            "max",
            d.max as f64,
            format!("max {}", grouped(d.max)),
            RGBColor(120, 40, 160),
        ),
    ];
    for (i, (_, x, label, colour)) in marks.into_iter().enumerate() {
        // Bars start at the left edge of their bin; centre the marks on the value's bin.
        let x = x + 0.5;
        chart
            .draw_series(LineSeries::new(
                [(x, 0.0), (x, top * 0.97)],
                colour.stroke_width(2),
            ))?
            .label(label.clone())
            .legend(move |(lx, ly)| {
                PathElement::new([(lx, ly), (lx + 24, ly)], colour.stroke_width(3))
            });
        // Labels sit beside their line, on the side with room, at staggered heights.
        let y = top * (0.95 - 0.055 * i as f64);
        let right_half = x > (x0 + x1) / 2.0;
        let (dx, anchor) = if right_half {
            (-0.006, HPos::Right)
        } else {
            (0.006, HPos::Left)
        };
        let style = ("sans-serif", 15)
            .into_font()
            .color(&colour)
            .pos(Pos::new(anchor, VPos::Center));
        chart.draw_series(std::iter::once(Text::new(
            label,
            (x + dx * (x1 - x0), y),
            style,
        )))?;
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperMiddle)
        .label_font(("sans-serif", 16))
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK.mix(0.4))
        .draw()?;
    root.present()?;
    Ok(())
}
