//! What `compare` writes and prints of the runs it read: compare.json, compare.csv, the
//! survival chart of every run (compare.png), report.html, and the lines on the terminal.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::Result;
use serde::Serialize;

use super::html::Page;
use crate::charts;
use crate::charts::render::Sink;
use crate::games::Unit;
use crate::model::report::Curve;
use crate::model::summary::Provenance;
use crate::stats::summary::{counted, fixed, grouped, grouped_in};
use crate::store::Dir;
use crate::term::stdout::Print;

/// One run read back, as a comparison shows it.
pub struct Run {
    /// Its folder.
    pub dir: PathBuf,
    /// Its game.
    pub game: String,
    /// Its rules, described.
    pub description: String,
    /// Every rule setting, as its summary.json records them.
    pub rules: serde_json::Value,
    /// Its base seed.
    pub seed: u64,
    /// The game indices it covers.
    pub span: std::ops::Range<u64>,
    /// Its games.
    pub games: u64,
    /// The mean rounds of all its games.
    pub mean: Option<f64>,
    /// What its rounds count.
    pub unit: Unit,
    /// (rounds, games) over all games.
    pub counts: Vec<(u64, u64)>,
    /// Its survival curve.
    pub curve: Curve,
}

impl Run {
    /// Its label on the chart and in the tables: the game, its rules and its seed (two runs
    /// of one rule set differ in their seeds alone).
    pub fn label(&self) -> String {
        format!(
            "{} — {} (seed {})",
            self.game,
            grouped_in(&self.description),
            self.seed
        )
    }
}

/// The unit the runs share (`compare` refuses runs that count different things): the
/// chart's axis names it.
fn shared_unit(runs: &[Run]) -> Unit {
    runs.first().map_or(Unit::ROUNDS, |r| r.unit)
}

/// compare.json.
#[derive(Serialize)]
pub struct CompareJson {
    /// The runs, in the order given.
    pub runs: Vec<RunJson>,
    /// How many pairs were tested: the number of tests Holm's adjustment accounts for.
    pub pairs_tested: usize,
    /// Every pair of runs: their indices in `runs`, D, p and Holm's adjusted p.
    pub ks: Vec<PairJson>,
    /// What compared them, when, and how it was called.
    pub provenance: Provenance,
}

/// A run of compare.json.
#[derive(Serialize)]
pub struct RunJson {
    /// Its folder.
    pub dir: String,
    /// Its game.
    pub game: String,
    /// Its rules, described.
    pub description: String,
    /// Every rule setting.
    pub rules: serde_json::Value,
    /// What its rounds count.
    pub unit: String,
    /// Its base seed.
    pub seed: u64,
    /// The first game index it covers.
    pub first_game: u64,
    /// One past the last.
    pub end_game: u64,
    /// Its games.
    pub games: u64,
    /// The mean rounds of all its games.
    pub mean: Option<f64>,
}

/// A pair of runs of compare.json, tested.
#[derive(Serialize)]
pub struct PairJson {
    /// The first run's index in `runs`.
    pub a: usize,
    /// The second run's.
    pub b: usize,
    /// The KS statistic D.
    pub d: f64,
    /// Its p-value, for this pair alone.
    pub p: f64,
    /// Holm's step-down adjustment of `p` over all `pairs_tested` pairs: the p-value to read
    /// when any pair's difference would be reported.
    pub p_holm: f64,
    /// How many deals both runs played (one game and deck, the same seed, game indices in
    /// common: a sweep's rule sets share all of theirs): where any, the two samples are not
    /// independent, as the KS test assumes.
    pub shared_deals: u64,
}

/// Writes compare.json (`doc`), compare.csv, compare.png (and compare.svg with `svg`) and
/// report.html of `runs` into `dir`.
pub fn write(dir: &Dir, doc: &CompareJson, runs: &[Run], svg: bool) -> Result<()> {
    dir.write_json("compare.json", doc)?;
    dir.write("compare.csv", &pairs_csv(doc)?)?;
    let labels: Vec<(String, &Curve)> = runs
        .iter()
        .enumerate()
        .map(|(i, r)| (format!("{}: {}", i + 1, r.label()), &r.curve))
        .collect();
    let lines = charts::Line::each(&labels);
    let title = format!("{} runs compared", runs.len());
    let unit = shared_unit(runs);
    let what = format!(
        "share of games still going after t {} (a game that never ends never stops)",
        unit.many
    );
    let what = what.as_str();
    charts::survival(
        &title,
        what,
        unit,
        &lines,
        false,
        Sink::File(&dir.path("compare.png")),
    )?;
    if svg {
        charts::survival(
            &title,
            what,
            unit,
            &lines,
            false,
            Sink::File(&dir.path("compare.svg")),
        )?;
    }
    let mut chart = String::new();
    charts::survival(&title, what, unit, &lines, false, Sink::Svg(&mut chart))?;
    dir.write("report.html", page(&title, doc, runs, &chart).as_bytes())
}

/// Prints the comparison as `print` says, once its set (at `out`) is in place.
pub fn print(doc: &CompareJson, out: &Path, print: Print) -> Result<()> {
    if print == Print::Json {
        crate::term::stdout::print_json(doc)?;
    } else if print == Print::Text {
        let mut stdout = crate::term::stdout::out();
        for (i, r) in doc.runs.iter().enumerate() {
            let mean = r.mean.map_or_else(|| "-".into(), |m| fixed(m, 3));
            writeln!(
                stdout,
                "run {}   {}  ({}, seed {}, mean {mean} {}): {} — {}",
                i + 1,
                r.dir,
                counted(r.games, "game"),
                r.seed,
                r.unit,
                r.game,
                grouped_in(&r.description)
            )?;
        }
        writeln!(
            stdout,
            "pairs     {} tested (two-sample KS); Holm's p adjusts each for all of them",
            grouped(doc.pairs_tested as u64)
        )?;
        for p in &doc.ks {
            writeln!(
                stdout,
                "KS {} vs {}  D = {:.5}  {}  Holm {}{}",
                p.a + 1,
                p.b + 1,
                p.d,
                p_value(p.p),
                p_value(p.p_holm),
                shared_note(p)
            )?;
        }
        writeln!(
            stdout,
            "written   {}/ (compare.json, compare.csv, compare.png, report.html)",
            out.display()
        )?;
        stdout.flush()?;
    }
    Ok(())
}

/// What a pair of runs that played the same deals must be read with.
fn shared_note(p: &PairJson) -> String {
    match p.shared_deals {
        0 => String::new(),
        n => format!(
            "  ({} in common: same seed, shared game indices; the test assumes independent \
             samples)",
            counted(n, "deal")
        ),
    }
}

/// A p-value as a reader takes it in: plain decimals down to 0.001, then powers of ten
/// (`p = 3.2e-12`), and below what a double holds a bound, not the `0` it rounded to.
fn p_value(p: f64) -> String {
    if p >= 0.01 {
        format!("p = {p:.3}")
    } else if p >= 0.001 {
        format!("p = {p:.4}")
    } else if p >= 1e-300 {
        format!("p = {p:.1e}")
    } else {
        "p < 1e-300".into()
    }
}

/// report.html: what ran, the runs side by side, every pair's test and the chart.
fn page(title: &str, doc: &CompareJson, runs: &[Run], chart: &str) -> String {
    let mut page = Page::new(title);
    page.heading("What ran");
    page.paragraph(&format!(
        "{}, {}",
        doc.provenance.program, doc.provenance.date
    ));
    page.code(&doc.provenance.command);
    page.heading("Runs");
    let rows: Vec<Vec<String>> = runs
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let c = &r.curve;
            vec![
                (i + 1).to_string(),
                r.dir.display().to_string(),
                r.label(),
                r.seed.to_string(),
                grouped(r.games),
                r.mean.map_or_else(String::new, |m| fixed(m, 3)),
                c.mean_text(),
                c.looping().text(),
                c.capped().text(),
            ]
        })
        .collect();
    page.table(
        &[
            "run",
            "folder",
            "game — rules",
            "seed",
            "games",
            "mean rounds (all games)",
            "mean rounds of the games that end (95% interval)",
            "loop",
            "capped",
        ],
        &rows,
    );
    page.heading("Kolmogorov–Smirnov tests, every pair");
    page.paragraph(&format!(
        "{} tested; Holm's p adjusts each pair's p for all of them (read it when reporting any \
         difference among the runs).",
        counted(doc.pairs_tested as u64, "pair")
    ));
    let rows: Vec<Vec<String>> = doc
        .ks
        .iter()
        .map(|p| {
            vec![
                format!("{} vs {}", p.a + 1, p.b + 1),
                format!("{:.5}", p.d),
                format!("{:.3e}", p.p),
                format!("{:.3e}", p.p_holm),
                shared_note(p).trim().to_string(),
            ]
        })
        .collect();
    page.table(&["pair", "D", "p", "Holm's p", "note"], &rows);
    page.heading("Chart");
    page.chart("The runs' survival curves", chart);
    page.finish(title)
}

/// compare.csv: one row per pair of runs.
fn pairs_csv(doc: &CompareJson) -> Result<Vec<u8>> {
    let mut wtr = csv::Writer::from_writer(Vec::new());
    wtr.write_record([
        "run_a",
        "run_b",
        "games_a",
        "games_b",
        "ks_d",
        "ks_p",
        "ks_p_holm",
        "shared_deals",
    ])?;
    for p in &doc.ks {
        let (a, b) = (&doc.runs[p.a], &doc.runs[p.b]);
        wtr.write_record([
            a.dir.clone(),
            b.dir.clone(),
            a.games.to_string(),
            b.games.to_string(),
            p.d.to_string(),
            p.p.to_string(),
            p.p_holm.to_string(),
            p.shared_deals.to_string(),
        ])?;
    }
    Ok(wtr.into_inner().map_err(|e| e.into_error())?)
}

#[cfg(test)]
mod tests {
    use super::p_value;

    #[test]
    fn p_values_read_as_numbers() {
        assert_eq!(p_value(0.699), "p = 0.699");
        assert_eq!(p_value(1.0), "p = 1.000");
        assert_eq!(p_value(0.0123), "p = 0.012");
        assert_eq!(p_value(0.00123), "p = 0.0012");
        assert_eq!(p_value(3.2e-12), "p = 3.2e-12");
        assert_eq!(p_value(0.0), "p < 1e-300");
        assert_eq!(p_value(1e-310), "p < 1e-300");
    }
}
