//! Tests of every chart kind as drawn: a backend that records where each text and line goes
//! (text measured with the embedded font, as the PNG draws it), and real runs of the rule sets
//! whose charts showed collisions (issue 29), checked for labels that overlap each other, leave
//! the picture, or have a line through them.

use plotters::prelude::*;
use plotters_backend::text_anchor::{HPos, VPos};
use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingErrorKind, FontTransform,
};

use super::layout::Rect;
use super::layout::GAP;
use super::render::{text_size, Chart, Target};
use super::RunChart;
use crate::charts::{self, Line, LineStyle};
use crate::export::table::{self, Row};
use crate::model::report::{Curve, Report, RunInfo, Timing};
use crate::term::text;

use crate::config::setup::WithGame;
use crate::games::Game;
use crate::games::Unit;
use crate::sim::engine;
use crate::sim::shard::Shard;
use crate::stats::summary::{fixed, grouped};

/// What a chart drew: its texts' boxes and its opaque line segments, in drawing order.
#[derive(Default)]
struct Drawn {
    size: (u32, u32),
    texts: Vec<(String, Rect)>,
    /// (from, to, drawn before text number k).
    lines: Vec<((i32, i32), (i32, i32))>,
}

/// A backend that draws nothing and records what it was asked to draw.
struct Recorder<'a> {
    drawn: &'a mut Drawn,
}

#[derive(Debug)]
struct Never;
impl std::fmt::Display for Never {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("never")
    }
}
impl std::error::Error for Never {}

/// Lines fainter than this are grid lines, drawn under labels on purpose.
const GRID_ALPHA: f64 = 0.3;

impl DrawingBackend for Recorder<'_> {
    type ErrorType = Never;

    fn get_size(&self) -> (u32, u32) {
        self.drawn.size
    }

    fn ensure_prepared(&mut self) -> Result<(), DrawingErrorKind<Never>> {
        Ok(())
    }

    fn present(&mut self) -> Result<(), DrawingErrorKind<Never>> {
        Ok(())
    }

    fn draw_pixel(
        &mut self,
        _: BackendCoord,
        _: BackendColor,
    ) -> Result<(), DrawingErrorKind<Never>> {
        Ok(())
    }

    fn draw_line<S: BackendStyle>(
        &mut self,
        from: BackendCoord,
        to: BackendCoord,
        style: &S,
    ) -> Result<(), DrawingErrorKind<Never>> {
        if style.color().alpha > GRID_ALPHA {
            self.drawn.lines.push((from, to));
        }
        Ok(())
    }

    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Result<(), DrawingErrorKind<Never>> {
        let points: Vec<BackendCoord> = path.into_iter().collect();
        for w in points.windows(2) {
            self.draw_line(w[0], w[1], style)?;
        }
        Ok(())
    }

    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        _: I,
        _: &S,
    ) -> Result<(), DrawingErrorKind<Never>> {
        Ok(())
    }

    fn draw_rect<S: BackendStyle>(
        &mut self,
        _: BackendCoord,
        _: BackendCoord,
        _: &S,
        _: bool,
    ) -> Result<(), DrawingErrorKind<Never>> {
        Ok(())
    }

    fn draw_circle<S: BackendStyle>(
        &mut self,
        _: BackendCoord,
        _: u32,
        _: &S,
        _: bool,
    ) -> Result<(), DrawingErrorKind<Never>> {
        Ok(())
    }

    fn estimate_text_size<S: BackendTextStyle>(
        &self,
        text: &str,
        style: &S,
    ) -> Result<(u32, u32), DrawingErrorKind<Never>> {
        let (w, h) = text_size(text, style.size());
        Ok((w as u32, h as u32))
    }

    fn draw_text<S: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &S,
        pos: BackendCoord,
    ) -> Result<(), DrawingErrorKind<Never>> {
        if text.trim().is_empty() || style.color().alpha == 0.0 {
            return Ok(());
        }
        // As glyphs.rs draws it: the unrotated box placed by its anchor, then turned about pos.
        let (w, h) = text_size(text, style.size());
        let dx = match style.anchor().h_pos {
            HPos::Left => 0.0,
            HPos::Center => -w / 2.0,
            HPos::Right => -w,
        };
        let dy = match style.anchor().v_pos {
            VPos::Top => 0.0,
            VPos::Center => -h / 2.0,
            VPos::Bottom => -h,
        };
        let corners = [(dx, dy), (dx + w, dy + h)].map(|(x, y)| match style.transform() {
            FontTransform::Rotate90 => (-y, x),
            FontTransform::Rotate180 => (-x, -y),
            FontTransform::Rotate270 => (y, -x),
            FontTransform::None => (x, y),
        });
        let (px, py) = (f64::from(pos.0), f64::from(pos.1));
        self.drawn.texts.push((
            text.to_string(),
            Rect {
                x0: px + corners[0].0.min(corners[1].0),
                y0: py + corners[0].1.min(corners[1].1),
                x1: px + corners[0].0.max(corners[1].0),
                y1: py + corners[0].1.max(corners[1].1),
            },
        ));
        Ok(())
    }
}

/// A target that records the chart it is given into a [`Drawn`].
struct Record<'a>(&'a mut Drawn);

impl Target for Record<'_> {
    fn take(self, chart: &impl Chart) -> anyhow::Result<()> {
        self.0.size = chart.size();
        chart.draw(Recorder { drawn: self.0 }.into_drawing_area())
    }
}

/// What `draw` draws into its target.
fn record(draw: impl FnOnce(Record<'_>) -> anyhow::Result<()>) -> Drawn {
    let mut drawn = Drawn::default();
    draw(Record(&mut drawn)).expect("the chart draws");
    drawn
}

/// Whether segment a–b passes through the inside of `r` (shrunk by a pixel: touching is fine).
fn crosses(a: (i32, i32), b: (i32, i32), r: &Rect) -> bool {
    let r = r.grown(-1.0);
    if r.x0 >= r.x1 || r.y0 >= r.y1 {
        return false;
    }
    // Sample the segment finely enough for boxes a few pixels wide.
    let (ax, ay, bx, by) = (
        f64::from(a.0),
        f64::from(a.1),
        f64::from(b.0),
        f64::from(b.1),
    );
    let steps = ((bx - ax).abs().max((by - ay).abs()) as usize).max(1);
    (0..=steps).any(|k| {
        let t = k as f64 / steps as f64;
        let (x, y) = (ax + t * (bx - ax), ay + t * (by - ay));
        r.x0 < x && x < r.x1 && r.y0 < y && y < r.y1
    })
}

/// Every text inside the picture, no two overlapping, no line through one.
fn assert_readable(what: &str, d: &Drawn) {
    let (w, h) = (f64::from(d.size.0), f64::from(d.size.1));
    for (i, (t, r)) in d.texts.iter().enumerate() {
        assert!(
            r.x0 >= 0.0 && r.y0 >= 0.0 && r.x1 <= w && r.y1 <= h,
            "{what}: {t:?} at {r:?} leaves the {w}×{h} picture"
        );
        for (u, s) in &d.texts[i + 1..] {
            assert!(
                !r.grown(-1.0).overlaps(&s.grown(-1.0)),
                "{what}: {t:?} at {r:?} overlaps {u:?} at {s:?}"
            );
        }
        if let Some((a, b)) = d.lines.iter().find(|(a, b)| crosses(*a, *b, r)) {
            panic!("{what}: the line {a:?}–{b:?} crosses {t:?} at {r:?}");
        }
    }
}

/// What the checks need of a run: every chart of it recorded, and its curve.
struct Checked {
    charts: Vec<(RunChart, Drawn)>,
    curve: Curve,
    description: String,
    /// summary.json's object.
    summary: serde_json::Value,
    /// The terminal summary and the rows of report.html's (and `--markdown`'s) table.
    terminal: String,
    rows: Vec<Row>,
}

impl Checked {
    /// The texts of one of its charts.
    fn texts(&self, chart: RunChart) -> Vec<&str> {
        self.charts
            .iter()
            .filter(|c| c.0 == chart)
            .flat_map(|c| c.1.texts.iter().map(|t| t.0.as_str()))
            .collect()
    }
}

/// Plays `games` games of `simulate ARGS`, and records its charts.
struct Play(u64);

impl WithGame for Play {
    type Output = anyhow::Result<Checked>;
    fn with<G: Game>(self, game: G) -> anyhow::Result<Checked> {
        let tally = engine::simulate(&game, 0, 0..self.0, 2, &|_| {}, &Default::default())?;
        let info = RunInfo::new(&game, 0, self.0, Shard::WHOLE)?;
        let r = Report::new(&info, &tally);
        let charts = RunChart::of(&r)
            .into_iter()
            .map(|c| (c, record(|t| c.draw(&r, t))))
            .collect();
        let timing = Timing {
            elapsed_s: 1.0,
            threads: None,
            note: None,
        };
        Ok(Checked {
            charts,
            curve: r.curve(),
            description: info.description.clone(),
            summary: serde_json::to_value(r.summary(
                &timing,
                b"",
                crate::model::summary::Provenance::of(None),
            ))?,
            terminal: text::summary(&r, &timing),
            rows: table::rows(&r, &timing),
        })
    }
}

fn run(args: &str, games: u64) -> Checked {
    let words: Vec<&str> = args.split_whitespace().collect();
    let setup = crate::list::setup_from_args(words[0], &words[1..]).unwrap();
    setup.run(Play(games)).unwrap()
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "plays millions of games to draw them: run by `cargo test --release`"
)]
fn every_run_chart_of_the_runs_in_issue_29_is_readable() {
    for (args, games) in [
        ("war", 20_000),
        ("war --rules bryer", 20_000),
        ("war --pickup p1-first", 5_000),
        ("war --rules bryer --max-rounds 300", 5_000),
        ("war --by p1-top", 5_000),
        ("war --quit-stats", 20_000),
        (
            "war --quit-stats --ranks 4 --suits 2 --pickup p1-first",
            2_000,
        ),
        ("jitsu", 20_000),
        ("shotgun", 10_000_000),
        ("rps --players 3", 1_000),
        ("snap", 2_000),
    ] {
        let checked = run(args, games);
        for (chart, drawn) in &checked.charts {
            assert!(drawn.texts.len() > 5, "{args}: {chart:?} drew its text");
            assert_readable(&format!("{args}: {chart:?}"), drawn);
        }
    }
}

#[test]
fn charts_say_loops_and_capped_games_apart_and_by_states_the_rules() {
    let capped = run("war --rules bryer --max-rounds 300", 2_000);
    let line = |c: &Checked| {
        c.texts(RunChart::Histogram)
            .into_iter()
            .find(|t| t.contains("the histogram and its marks are"))
            .map(str::to_string)
            .unwrap_or_default()
    };
    let text = line(&capped);
    assert!(text.contains("stopped at the round cap"), "{text}");
    assert!(
        !text.contains("loop") && !text.contains("never end"),
        "{text}"
    );
    let looping = run("war --pickup p1-first", 2_000);
    let text = line(&looping);
    assert!(
        text.contains("loop forever") && !text.contains("cap"),
        "{text}"
    );
    for c in [&capped, &looping] {
        let ended = c.summary["finished_rounds"]["n"].as_u64().unwrap();
        let text = line(c);
        let named = format!("the {} games that end", grouped(ended));
        assert!(text.contains(&named), "{text} lacks {named:?}");
        let axis = c.texts(RunChart::Histogram);
        assert!(
            axis.iter()
                .any(|t| t.starts_with("rounds per game, ") && t.contains(&named)),
            "the x axis names the population: {axis:?}"
        );
    }
    let by = run("war --by p1-top --war-down 2", 1_000);
    assert!(
        by.texts(RunChart::By).contains(&by.description.as_str()),
        "{:?} lacks {:?}",
        by.texts(RunChart::By),
        by.description
    );
    assert!(by.description.contains("2 down"), "{}", by.description);
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "plays millions of games to draw them: run by `cargo test --release`"
)]
fn compare_sweep_and_means_charts_are_readable() {
    let runs: Vec<Checked> = ["war", "war --rules bryer", "war --pickup p1-first"]
        .iter()
        .map(|a| run(a, 2_000))
        .collect();
    let labels: Vec<(String, &Curve)> = runs
        .iter()
        .enumerate()
        .map(|(i, r)| {
            (
                format!(
                    "{}: a long description of run {i}, as compare writes",
                    i + 1
                ),
                &r.curve,
            )
        })
        .collect();
    let lines = Line::each(&labels);
    let title = "war — 3 runs compared";
    let what = "share of games still going after t rounds (a game that never ends never stops)";
    let chart = |lines: &[Line<'_>]| {
        record(|t| charts::survival(title, what, Unit::ROUNDS, lines, false, t))
    };
    assert_readable("compare", &chart(&lines));
    // A sweep of 6 pickups × 4 war-downs: 24 lines.
    let pickups = [
        "shuffled",
        "p1-first",
        "winner-first",
        "loser-first",
        "table",
        "won-pile",
    ];
    let sweep: Vec<(String, Checked)> = pickups
        .iter()
        .flat_map(|p| (1..=4).map(move |d| format!("war --pickup {p} --war-down {d}")))
        .map(|a| (a.clone(), run(&a, 200)))
        .collect();
    let styles = LineStyle::sweep(&[6, 4]);
    let lines: Vec<Line<'_>> = sweep
        .iter()
        .zip(&styles)
        .map(|((a, c), &style)| Line {
            label: a.clone(),
            curve: &c.curve,
            style,
        })
        .collect();
    assert_readable("sweep", &chart(&lines));
    let curves: Vec<(String, &Curve)> = sweep.iter().map(|(a, c)| (a.clone(), &c.curve)).collect();
    assert_readable(
        "means",
        &record(|t| charts::means(title, Unit::ROUNDS, &curves, None, t)),
    );
    let war_down: Vec<(String, &Curve)> = sweep[..4]
        .iter()
        .map(|(a, c)| (format!("war-down {}", &a[a.len() - 1..]), &c.curve))
        .collect();
    assert_readable(
        "means by value",
        &record(|t| charts::means(title, Unit::ROUNDS, &war_down, Some("war-down"), t)),
    );
}

#[test]
fn a_sweeps_lines_are_told_apart_by_colour_for_one_setting_and_dashes_for_the_other() {
    let styles = LineStyle::sweep(&[6, 4]);
    let distinct: std::collections::HashSet<_> = styles.iter().collect();
    assert_eq!(distinct.len(), 24, "every line its own look");
    for (i, a) in styles.iter().enumerate() {
        for (j, b) in styles.iter().enumerate() {
            // Same pickup (i / 4): same colour; same war-down (i % 4): same dashes.
            assert_eq!(i / 4 == j / 4, a.colour == b.colour, "{i} {j}");
            assert_eq!(i % 4 == j % 4, a.dash == b.dash, "{i} {j}");
        }
    }
    // One setting of up to 12 values: colours only.
    assert!(LineStyle::sweep(&[12]).iter().all(|s| s.dash == 0));
}

/// A histogram's mark labels: (text, box) of `min …`, `median …`, `mean …`, `max …`.
fn mark_labels(d: &Drawn) -> Vec<(&str, Rect)> {
    d.texts
        .iter()
        .filter(|(t, _)| {
            ["min ", "median ", "mean ", "max "]
                .iter()
                .any(|k| t.starts_with(k))
        })
        .map(|(t, r)| (t.as_str(), *r))
        .collect()
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "plays millions of games to draw them: run by `cargo test --release`"
)]
fn every_histogram_label_sits_beside_its_line_and_its_number_is_in_every_summary() {
    for (args, games) in [
        ("war", 5_000),
        ("war --rules bryer --max-rounds 300", 2_000),
        ("war --pickup p1-first", 2_000),
        ("war --by p1-top", 2_000),
        ("war --players 4", 1_000),
        ("bmn", 2_000),
        ("rps --players 5", 2_000),
        ("snap --players 4", 2_000),
        ("jitsu", 2_000),
        ("shotgun", 20_000),
    ] {
        let c = run(args, games);
        let drawn = &c
            .charts
            .iter()
            .find(|x| x.0 == RunChart::Histogram)
            .unwrap()
            .1;
        let labels = mark_labels(drawn);
        assert_eq!(labels.len(), 4, "{args}: {labels:?}");
        each_label_beside_its_line(args, drawn, &labels);
        each_mark_in_every_summary(args, &c, &labels);
    }
}

/// Each mark's label in `drawn` (a histogram of run `args`) sits beside its line, or says it
/// lies beyond the axis.
fn each_label_beside_its_line(args: &str, drawn: &Drawn, labels: &[(&str, Rect)]) {
    for (t, r) in labels {
        if t.ends_with('→') {
            // A maximum beyond the axis: labelled at the plot's right edge, with no line.
            assert!(t.contains("(beyond the axis)"), "{args}: {t}");
            continue;
        }
        // A vertical line from the label's top row down, touching its left or right side.
        let beside = drawn.lines.iter().any(|&(a, b)| {
            let x = f64::from(a.0);
            let top = f64::from(a.1.min(b.1));
            a.0 == b.0
                && (top - r.y0).abs() <= 2.0
                && ((r.x0 - x - GAP).abs() <= 2.0 || (x - r.x1 - GAP).abs() <= 2.0)
        });
        assert!(beside, "{args}: {t:?} at {r:?} is not beside its line");
    }
}

/// The marked figures of run `args` (`labels` of its histogram) are those of the games that
/// end where some do not, else of all games; the terminal, summary.json and the report's
/// table show each of them, and the terminal every share the panel beside shows.
fn each_mark_in_every_summary(args: &str, c: &Checked, labels: &[(&str, Rect)]) {
    let unended = c.summary["outcomes"]
        .as_object()
        .unwrap()
        .iter()
        .filter(|(k, _)| *k == "loop" || *k == "capped")
        .map(|(_, v)| v.as_u64().unwrap())
        .sum::<u64>();
    let (key, row) = if unended > 0 {
        ("finished_rounds", " (games that end)")
    } else {
        ("rounds", "")
    };
    let d = &c.summary[key];
    let int = |k: &str| grouped(d[k].as_u64().unwrap());
    let expected = [
        ("min", int("min")),
        ("median", int("median")),
        ("mean", fixed(d["mean"].as_f64().unwrap(), 3)),
        ("max", int("max")),
    ];
    for (name, value) in expected {
        let label = format!("{name} {value}");
        assert!(
            labels
                .iter()
                .any(|(t, _)| *t == label || t.starts_with(&format!("{label} "))),
            "{args}: the chart's {name} is not summary.json's {key} {value}: {labels:?}"
        );
        assert!(
            c.terminal.contains(&label),
            "{args}: the terminal lacks {label:?}"
        );
        let row_name = if name == "mean" {
            // In the game's unit: `mean cards` for Beggar-my-neighbour.
            format!("mean {}{row}", c.summary["unit"].as_str().unwrap())
        } else {
            format!("{name}{row}")
        };
        assert!(
            c.rows
                .iter()
                .any(|r| r.name == row_name && r.value == value),
            "{args}: the report lacks {row_name} = {value}"
        );
    }
    if unended > 0 {
        let counts = c.texts(RunChart::Histogram);
        let n = int("n");
        assert!(
            counts.contains(&n.as_str()),
            "{args}: the games that end, {n}"
        );
        assert!(
            c.terminal.contains(&format!("the {n} games that end")),
            "{args}"
        );
        // Every share the panel beside the histogram shows, the terminal shows (its axis's
        // ticks, whole percentages such as 20%, are a scale, not figures of the run).
        for t in counts.iter().filter(|t| t.ends_with('%')) {
            let figure = t.rsplit(['(', ' ']).next().unwrap().trim_end_matches(')');
            if figure.starts_with(|ch: char| ch.is_ascii_digit()) && figure.contains('.') {
                assert!(c.terminal.contains(figure), "{args}: {figure} ({t:?})");
            }
        }
    }
}
