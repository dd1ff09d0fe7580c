//! `histogram.png`: the distribution of rounds with mean, median, min and max marked.

use anyhow::{anyhow, Result};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::layout::{place_labels, y_label_area, Mark, Rect};
use super::render::{text_size, Chart, Target};
use crate::games::{GameStats, Outcome};
use crate::model::report::{Report, Unended};
use crate::stats::summary::{counted, fixed, grouped, grouped_in, pct, Distribution};

const SIZE: (u32, u32) = (1200, 720);
/// Bars drawn at most: wider bins beyond that keep each bar visible.
const MAX_BARS: u64 = 160;

/// Draws the chart of `r` into `target`.
pub fn histogram<S: GameStats>(r: &Report<S>, target: impl Target) -> Result<()> {
    target.take(&Histogram(r))
}

/// The margin around the histogram's plot and the height of its rounds' labels, in px.
const MARGIN: u32 = 20;
const X_LABELS: u32 = 50;

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

/// How many of `bars` (from the first) end with a bar at least a pixel high, the games'
/// axis running to `top` over `plot_px` pixels: a shorter bar draws nothing.
fn visible(bars: &[(u64, u64)], top: f64, plot_px: f64) -> usize {
    bars.iter()
        .rposition(|b| b.1 as f64 / top * plot_px >= 1.0)
        .map_or(0, |i| i + 1)
}

/// The most tick labels of the rounds' axis: plotters' default, by which it picks the ticks.
const MAX_TICKS: usize = 11;

/// The ticks of an axis from `lo` that must reach `hi`: the multiples of the finest round
/// step (1, 2, 5, 10, 20, …) that makes at most [`MAX_TICKS`] of them, from the first at or
/// after `lo` to the first at or past `hi`, where the axis ends. They are the ticks plotters
/// draws on the axis from `lo` to the last of them (it picks them alike; a test checks), so
/// the axis ends at a labelled round number.
fn ticks(lo: f64, hi: f64) -> Vec<f64> {
    let mut step = 1u64;
    let marks = |step: u64| {
        let s = step as f64;
        let (a, b) = ((lo / s).ceil() as i64, (hi / s).ceil() as i64);
        (a..=b).map(move |k| k as f64 * s)
    };
    while marks(step).count() > MAX_TICKS {
        step = round_width(step + 1);
    }
    marks(step).collect()
}

/// The width of the panel that counts the games that end, loop and were capped, where some
/// games do not end.
const SIDE_W: u32 = 340;

/// What a histogram shows and on what scale: the games whose rounds it counts, their bars and
/// the axes' ends.
struct Scale {
    /// The distribution marked (min, median, mean, max).
    marked: Distribution,
    /// Whether the games that end are shown on their own, the others counted beside them.
    apart: bool,
    /// The bars: (first round of the bin, games).
    bars: Vec<(u64, u64)>,
    /// Rounds per bar.
    width: u64,
    /// The top of the games' axis.
    top: f64,
    /// The rounds' axis: from a bin before the first bar to the first tick past the last
    /// ([`ticks`]).
    x: (f64, f64),
}

impl Scale {
    /// The scale of `r`'s histogram, whose bars are drawn `plot_px` pixels high at most.
    fn of<S: GameStats>(r: &Report<S>, plot_px: f64) -> Result<Scale> {
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
        let every: Vec<(u64, u64)> = r.tally.rounds.counts_where(|_| true).collect();
        // Games that never end sit at the round their loop was found or at the cap: on one
        // axis with the games that end they squeeze those into a few bars. So where some games
        // end and some do not, the histogram and its marks are the games that end, on their
        // own scale, and the others are counted apart beside it.
        let apart = r.unended().total() > 0 && !ended.is_empty();
        let shown = if apart { &ended } else { &every };
        let marked = Distribution::from_counts(shown).unwrap_or_else(|| all.clone());
        // The axis ends near the 99.9th percentile, so a long sparse tail does not squeeze the
        // bulk; a maximum beyond it is labelled at the edge.
        let bulk = marked.quantiles["p99.9"].as_u64().unwrap_or(marked.max);
        let last = if marked.max > bulk + bulk / 4 + 10 {
            bulk + bulk / 4
        } else {
            marked.max
        };
        let width = round_width((last - marked.min + 1).div_ceil(MAX_BARS));
        let mut bars = bins(shown, width, last);
        let top = bars.iter().map(|b| b.1).max().unwrap_or(1) as f64 * 1.3;
        // The axis ends at the last bar a reader can see: the bars after it, under a pixel
        // high (ten million games put ~1,500 a bin there), would leave a third of the
        // chart empty; the games in them stay in the marks, and a max beyond is labelled.
        let seen = visible(&bars, top, plot_px);
        bars.truncate(seen.max(1));
        let first = marked.min / width * width;
        let end = bars.last().map_or(first, |b| b.0) + width;
        let x0 = first as f64 - 0.5 - width as f64;
        let ticks = ticks(x0, end as f64 - 0.5);
        let x1 = ticks.last().copied().unwrap_or(end as f64);
        Ok(Scale {
            marked,
            apart,
            bars,
            width,
            top,
            x: (x0, x1),
        })
    }

    /// The rounds' axis title: what the games are, and the bins' width.
    fn x_desc(&self, unit_many: &str) -> String {
        let population = if self.apart {
            format!(
                "{unit_many} per game, the {} that end",
                counted(self.marked.n, "game")
            )
        } else {
            format!("{unit_many} per game")
        };
        if self.width == 1 {
            population
        } else {
            format!("{population} (bins of {})", self.width)
        }
    }
}

fn draw<S: GameStats, DB: DrawingBackend>(r: &Report<S>, root: DrawingArea<DB, Shift>) -> Result<()>
where
    DB::ErrorType: 'static,
{
    let kinds = r.unended();
    let head_h = if kinds.total() == 0 { 70 } else { 94 };
    let plot_px = f64::from(SIZE.1 - head_h - 2 * MARGIN - X_LABELS);
    let scale = Scale::of(r, plot_px)?;
    let Scale {
        ref marked,
        apart,
        ref bars,
        width,
        top,
        x: (x0, x1),
    } = scale;
    root.fill(&WHITE)?;
    let (head, body) = root.split_vertically(head_h);
    draw_head(r, kinds, apart, &head)?;
    let (main, side) = if apart {
        let (w, _) = body.dim_in_pixel();
        let (main, side) = body.split_horizontally(w - SIDE_W);
        (main, Some(side))
    } else {
        (body, None)
    };
    // Wide enough for the widest tick label beside the axis title.
    let widest = text_size(&grouped(top as u64), TICK_PX).0;
    let y_area = y_label_area(widest, text_size("games", DESC_PX).1);
    let mut chart = ChartBuilder::on(&main)
        .margin(MARGIN)
        .x_label_area_size(X_LABELS)
        .y_label_area_size(y_area)
        .build_cartesian_2d(x0..x1, 0f64..top)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .light_line_style(TRANSPARENT)
        .x_desc(scale.x_desc(r.info.unit.many))
        .y_desc("games")
        .label_style(("sans-serif", TICK_PX))
        .axis_desc_style(("sans-serif", DESC_PX))
        .x_label_formatter(&whole)
        .y_label_formatter(&whole)
        .draw()?;
    // Games that never end, where none ends, sit at their round count in their own colour.
    let colour = if kinds.total() > 0 && !apart {
        ORANGE_DARK.mix(0.8).filled()
    } else {
        BLUE.filled()
    };
    chart.draw_series(bars.iter().map(|&(lo, n)| {
        let (a, b) = bar_span(lo, width);
        Rectangle::new([(a, 0.0), (b, n as f64)], colour)
    }))?;
    let (xs, ys) = chart.plotting_area().get_pixel_range();
    let area = Rect {
        x0: f64::from(xs.start),
        y0: f64::from(ys.start),
        x1: f64::from(xs.end),
        y1: f64::from(ys.end),
    };
    let to_px = |x: f64| f64::from(chart.backend_coord(&(x, 0.0)).0);
    draw_marks(&root, &marks(marked, x1), area, to_px)?;
    if let Some(side) = side {
        draw_counts(&side, marked.n, kinds, r.games())?;
    }
    root.present()?;
    Ok(())
}

/// A tick of whole numbers only: a tick between two rounds or games gets no label (no
/// repeats).
fn whole(v: &f64) -> String {
    if (v - v.round()).abs() < 1e-6 && *v >= 0.0 {
        grouped(v.round() as u64)
    } else {
        String::new()
    }
}

/// The bars' colour where they are the games that end.
const BLUE: RGBColor = RGBColor(100, 135, 190);

/// A marked value: where its line stands (`None`: beyond the axis), its label and colour.
struct Marked {
    at: Option<f64>,
    label: String,
    colour: RGBColor,
}

/// The marks of `d`, whose axis ends at `end`: min, median, mean and max, with the
/// precision the terminal summary prints them at, so every number shown is one it shows.
fn marks(d: &Distribution, end: f64) -> [Marked; 4] {
    let beyond = d.max as f64 > end;
    [
        Marked {
            at: Some(d.min as f64),
            label: format!("min {}", grouped(d.min)),
            colour: RGBColor(30, 140, 60),
        },
        Marked {
            at: Some(d.median as f64),
            label: format!("median {}", grouped(d.median)),
            colour: RGBColor(200, 120, 0),
        },
        Marked {
            at: Some(d.mean),
            label: format!("mean {}", fixed(d.mean, 3)),
            colour: RGBColor(200, 30, 30),
        },
        Marked {
            at: (!beyond).then_some(d.max as f64),
            label: if beyond {
                format!("max {} (beyond the axis) →", grouped(d.max))
            } else {
                format!("max {}", grouped(d.max))
            },
            colour: RGBColor(120, 40, 160),
        },
    ]
}

/// Draws each mark's line from its label down to the axis, and the label beside it
/// ([`place_labels`]), on `root` in pixels; `to_px` is the chart's x in pixels.
fn draw_marks<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    marks: &[Marked],
    area: Rect,
    to_px: impl Fn(f64) -> f64,
) -> Result<()>
where
    DB::ErrorType: 'static,
{
    let px: Vec<Mark> = marks
        .iter()
        .map(|m| {
            let (width, height) = text_size(&m.label, MARK_PX);
            Mark {
                x: m.at.map_or(area.x1, &to_px),
                // Room for the SVG's text drawn by a viewer's own sans-serif, which can run a
                // little wider than DejaVu Sans.
                width: width * SVG_SLACK,
                height,
                line: m.at.is_some(),
            }
        })
        .collect();
    for ((m, p), placed) in marks.iter().zip(&px).zip(place_labels(&px, area)) {
        if p.line {
            let x = p.x.round() as i32;
            root.draw(&PathElement::new(
                [(x, placed.line_top as i32), (x, area.y1 as i32)],
                m.colour.stroke_width(2),
            ))?;
        }
        // The text starts at its line's side of the box: a label left of its line ends there.
        let b = placed.label;
        let (anchor, x) = if b.x1 <= p.x {
            (HPos::Right, b.x1)
        } else {
            (HPos::Left, b.x0)
        };
        root.draw(&Rectangle::new(
            [
                (b.x0 as i32 - 1, b.y0 as i32 - 1),
                (b.x1 as i32, b.y1 as i32),
            ],
            WHITE.mix(0.85).filled(),
        ))?;
        let style = ("sans-serif", MARK_PX)
            .into_font()
            .color(&m.colour)
            .pos(Pos::new(anchor, VPos::Top));
        root.draw(&Text::new(m.label.clone(), (x as i32, b.y0 as i32), style))?;
    }
    Ok(())
}

/// The title, the rules and, where some games do not end, what happened to them.
fn draw_head<S: GameStats, DB: DrawingBackend>(
    r: &Report<S>,
    kinds: Unended,
    apart: bool,
    head: &DrawingArea<DB, Shift>,
) -> Result<()>
where
    DB::ErrorType: 'static,
{
    let grey = BLACK.mix(0.75);
    let title = format!("{} — {}", r.info.game, counted(r.games(), "game"));
    head.draw(&Text::new(
        title,
        (20, 10),
        ("sans-serif", 26).into_font().color(&BLACK),
    ))?;
    head.draw(&Text::new(
        grouped_in(&r.info.description),
        (20, 42),
        ("sans-serif", 17).into_font().color(&grey),
    ))?;
    if kinds.total() > 0 {
        let ended = r.games() - kinds.total();
        let text = if apart {
            format!(
                "{}, counted at the right; the histogram and its marks are the {} that end",
                kinds.describe(r.games()),
                counted(ended, "game")
            )
        } else {
            format!(
                "{}: no game ended; each is drawn at the {} it stopped at",
                kinds.describe(r.games()),
                r.info.unit.one
            )
        };
        head.draw(&Text::new(
            text,
            (20, 66),
            ("sans-serif", 17).into_font().color(&ORANGE_DARK),
        ))?;
    }
    Ok(())
}

/// The panel's bars: each way a game can go (end, loop, capped) that some game went, with its
/// count and its share of all `games` in percent, the height it is drawn at on the panel's own
/// axis (0–100% of all games), never on the histogram's scale of games per bin.
fn side_bars(ended: u64, kinds: Unended, games: u64) -> Vec<(&'static str, u64, f64, RGBColor)> {
    [
        ("end", ended, BLUE),
        ("loop", kinds.looping, ORANGE_DARK),
        ("capped", kinds.capped, CAPPED),
    ]
    .into_iter()
    .filter(|b| b.1 > 0)
    .map(|(name, n, colour)| (name, n, 100.0 * n as f64 / games.max(1) as f64, colour))
    .collect()
}

/// A tick of the panel's axis: whole percentages up to 100% (none above, in the labels' room).
fn side_tick(v: f64) -> String {
    if v <= 100.0 && (v - v.round()).abs() < 1e-6 {
        format!("{v:.0}%")
    } else {
        String::new()
    }
}

/// The top of the panel's axis: 100% of all games, with room above for a full bar's labels.
const SIDE_TOP: f64 = 118.0;

/// The panel beside the histogram: every game, as games that end, loop or were capped, each
/// a bar on an axis of its own, the share of all games (labelled in percent), with its count
/// and share above it.
fn draw_counts<DB: DrawingBackend>(
    side: &DrawingArea<DB, Shift>,
    ended: u64,
    kinds: Unended,
    games: u64,
) -> Result<()>
where
    DB::ErrorType: 'static,
{
    let bars = side_bars(ended, kinds, games);
    let y_desc = "share of all games";
    let mut chart = ChartBuilder::on(side)
        .margin(20)
        .margin_left(10)
        .x_label_area_size(50)
        .y_label_area_size(y_label_area(
            text_size("100%", TICK_PX).0,
            text_size(y_desc, DESC_PX).1,
        ))
        .build_cartesian_2d(0f64..bars.len() as f64, 0f64..SIDE_TOP)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .light_line_style(TRANSPARENT)
        .x_labels(0)
        .y_desc(y_desc)
        .label_style(("sans-serif", TICK_PX))
        .axis_desc_style(("sans-serif", DESC_PX))
        .y_label_formatter(&|v| side_tick(*v))
        .draw()?;
    // The chart's coordinates in pixels of `side`, which draws relative to its own corner.
    let base = side.get_base_pixel();
    let px = |x: f64, y: f64| {
        let (a, b) = chart.backend_coord(&(x, y));
        (a - base.0, b - base.1)
    };
    for (i, &(name, n, height, colour)) in bars.iter().enumerate() {
        let x = i as f64;
        chart.plotting_area().draw(&Rectangle::new(
            [(x + 0.2, 0.0), (x + 0.8, height)],
            colour.filled(),
        ))?;
        let (cx, top) = px(x + 0.5, height);
        let above = |text: String, dy: i32| {
            Text::new(
                text,
                (cx, top - dy),
                ("sans-serif", MARK_PX)
                    .into_font()
                    .color(&BLACK)
                    .pos(Pos::new(HPos::Center, VPos::Bottom)),
            )
        };
        side.draw(&above(grouped(n), 24))?;
        side.draw(&above(pct(n as f64 / games.max(1) as f64), 4))?;
        let (_, axis) = px(x + 0.5, 0.0);
        side.draw(&Text::new(
            name,
            (cx, axis + 8),
            ("sans-serif", TICK_PX)
                .into_font()
                .color(&BLACK)
                .pos(Pos::new(HPos::Center, VPos::Top)),
        ))?;
    }
    let (left, axis) = px(0.0, 0.0);
    let (right, _) = px(bars.len() as f64, 0.0);
    side.draw(&Text::new(
        format!("all {}", counted(games, "game")),
        ((left + right) / 2, axis + 30),
        ("sans-serif", DESC_PX)
            .into_font()
            .color(&BLACK)
            .pos(Pos::new(HPos::Center, VPos::Top)),
    ))?;
    Ok(())
}

/// The colour of capped games.
const CAPPED: RGBColor = RGBColor(150, 150, 150);

/// The colour of games that never end.
const ORANGE_DARK: RGBColor = RGBColor(220, 110, 20);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_side_panel_draws_shares_of_all_games_not_games_per_bin() {
        // 56,150 games end and 43,850 loop: the bars stand at 56.15% and 43.85% on the
        // panel's own axis, which runs to 100% (plus room for the labels).
        let kinds = Unended {
            looping: 43_850,
            capped: 0,
        };
        let bars = side_bars(56_150, kinds, 100_000);
        let got: Vec<(&str, u64)> = bars.iter().map(|b| (b.0, b.1)).collect();
        assert_eq!(got, [("end", 56_150), ("loop", 43_850)]);
        assert!((bars[0].2 - 56.15).abs() < 1e-9 && (bars[1].2 - 43.85).abs() < 1e-9);
        assert!(bars.iter().all(|b| b.2 <= 100.0) && SIDE_TOP > 100.0);
    }

    #[test]
    fn the_axis_ends_at_the_first_round_tick_past_the_last_bar_and_plotters_draws_it() {
        use plotters::coord::types::RangedCoordf64;
        // War's 10,000,000 games: bins of 20 from -20.5, the last bar seen ending at 1,459.5.
        assert_eq!(ticks(-20.5, 1459.5).last(), Some(&1600.0));
        for (lo, hi) in [
            (-20.5, 1459.5),
            (0.5, 10.5),
            (-1.5, 3.5),
            (29.5, 1_234.5),
            (-0.5, 9.5),
        ] {
            let mine = ticks(lo, hi);
            let end = *mine.last().unwrap();
            assert!(end >= hi && mine.len() <= MAX_TICKS, "{lo} {hi}: {mine:?}");
            let drawn = RangedCoordf64::from(lo..end).key_points(MAX_TICKS);
            assert_eq!(drawn, mine, "{lo}..{end}");
        }
    }

    #[test]
    fn bars_under_a_pixel_at_the_end_are_not_drawn() {
        // The tallest bar 1,000 games on an axis to 1,300 over 520 px: 2.5 games a pixel.
        let bars = [(0, 1000), (10, 3), (20, 2), (30, 4), (40, 2), (50, 1)];
        assert_eq!(visible(&bars, 1300.0, 520.0), 4);
        assert_eq!(visible(&bars[..1], 1300.0, 520.0), 1);
    }

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
