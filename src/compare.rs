//! `compare DIR... --out DIR`: the survival curves of several runs on one chart, and every pair
//! of runs tested with the two-sample Kolmogorov–Smirnov test on their exact histograms.
//!
//! Each directory is read and checked as `merge` reads a shard (its histogram must be the one
//! its summary describes), as the game its summary names. The test compares the rounds of all
//! games, loops and capped games at the rounds they were stopped at, as histogram.csv has them.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::Result;
use serde::Serialize;

use crate::charts;
use crate::charts::render::Sink;
use crate::export::html::Page;
use crate::face::{self, GameCli, WithGameType};
use crate::games::Unit;
use crate::model;
use crate::model::report::{Curve, Report};
use crate::model::summary::Provenance;
use crate::stats::summary::{counted, fixed, grouped, grouped_in};
use crate::stats::tail::Ks;
use crate::store::{Kind, OutputSet};
use crate::term::stdout::Print;
use crate::usage;

/// One run read back.
struct Run {
    dir: PathBuf,
    game: String,
    description: String,
    games: u64,
    mean: Option<f64>,
    /// What its rounds count.
    unit: Unit,
    /// (rounds, games) over all games.
    counts: Vec<(u64, u64)>,
    curve: Curve,
}

/// The unit the runs share, or rounds where they count different things: the chart's axis
/// names it.
fn shared_unit(runs: &[Run]) -> Unit {
    match runs.first() {
        Some(r) if runs.iter().all(|s| s.unit == r.unit) => r.unit,
        _ => Unit::ROUNDS,
    }
}

/// Reads the run in a directory as the game type its summary names.
struct Load<'a>(&'a Path);

impl WithGameType for Load<'_> {
    type Output = Result<Run>;
    fn with<G: GameCli>(self) -> Result<Run> {
        let part = model::load::load::<G>(self.0)?;
        let report = Report::new(&part.info, &part.tally);
        Ok(Run {
            dir: self.0.to_path_buf(),
            game: part.info.game.clone(),
            description: part.info.description.clone(),
            games: part.tally.games,
            mean: report.rounds.as_ref().map(|d| d.mean),
            unit: G::UNIT,
            counts: part.tally.rounds.counts_where(|_| true).collect(),
            curve: report.curve(),
        })
    }
}

/// compare.json.
#[derive(Serialize)]
struct CompareJson {
    runs: Vec<RunJson>,
    /// Every pair of runs: their indices in `runs`, D and p.
    ks: Vec<PairJson>,
    provenance: Provenance,
}

#[derive(Serialize)]
struct RunJson {
    dir: String,
    game: String,
    description: String,
    games: u64,
    mean: Option<f64>,
}

#[derive(Serialize)]
struct PairJson {
    a: usize,
    b: usize,
    d: f64,
    p: f64,
}

/// `compare DIRS --out OUT`.
pub fn run(dirs: &[PathBuf], out: &Path, print: Print, svg: bool) -> Result<()> {
    if dirs.len() < 2 {
        return Err(usage!("compare needs at least two run directories").into());
    }
    let set = OutputSet::begin(out, Kind::Compare, dirs)?;
    let mut runs = Vec::new();
    for dir in dirs {
        let game = model::load::game_of(dir)?;
        let run = face::by_name(&game, Load(dir)).unwrap_or_else(|| {
            Err(usage!(
                "{}: summary.json names game {game:?}, which warsim does not know",
                dir.display()
            )
            .into())
        })?;
        runs.push(run);
    }
    let mut pairs = Vec::new();
    for a in 0..runs.len() {
        for b in a + 1..runs.len() {
            let ks = Ks::new(&runs[a].counts, &runs[b].counts)
                .ok_or_else(|| usage!("{}: no games to compare", runs[a].dir.display()))?;
            pairs.push(PairJson {
                a,
                b,
                d: ks.d,
                p: ks.p,
            });
        }
    }
    let doc = CompareJson {
        runs: runs
            .iter()
            .map(|r| RunJson {
                dir: r.dir.display().to_string(),
                game: r.game.clone(),
                description: r.description.clone(),
                games: r.games,
                mean: r.mean,
            })
            .collect(),
        ks: pairs,
        provenance: Provenance::now(),
    };
    let dir = set.dir();
    dir.write_json("compare.json", &doc)?;
    dir.write("compare.csv", &pairs_csv(&doc)?)?;
    let labels: Vec<(String, &Curve)> = runs
        .iter()
        .enumerate()
        .map(|(i, r)| {
            (
                format!("{}: {}", i + 1, grouped_in(&r.description)),
                &r.curve,
            )
        })
        .collect();
    let lines = charts::Line::each(&labels);
    let title = format!("{} runs compared", runs.len());
    let unit = shared_unit(&runs);
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
    dir.write("report.html", page(&title, &doc, &runs, &chart).as_bytes())?;
    set.commit()?;
    if print == Print::Json {
        crate::term::stdout::print_json(&doc)?;
    } else if print == Print::Text {
        let mut stdout = crate::term::stdout::out();
        for (i, r) in doc.runs.iter().enumerate() {
            let mean = r.mean.map_or_else(|| "-".into(), |m| fixed(m, 3));
            writeln!(
                stdout,
                "run {}   {}  ({}, mean {mean}): {}",
                i + 1,
                r.dir,
                counted(r.games, "game"),
                grouped_in(&r.description)
            )?;
        }
        for p in &doc.ks {
            writeln!(
                stdout,
                "KS {} vs {}  D = {:.5}  {}",
                p.a + 1,
                p.b + 1,
                p.d,
                p_value(p.p)
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
                grouped_in(&r.description),
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
            "rules",
            "games",
            "mean rounds (all games)",
            "mean rounds of the games that end (95% interval)",
            "loop",
            "capped",
        ],
        &rows,
    );
    page.heading("Kolmogorov–Smirnov tests, every pair");
    let rows: Vec<Vec<String>> = doc
        .ks
        .iter()
        .map(|p| {
            vec![
                format!("{} vs {}", p.a + 1, p.b + 1),
                format!("{:.5}", p.d),
                format!("{:.3e}", p.p),
            ]
        })
        .collect();
    page.table(&["pair", "D", "p"], &rows);
    page.heading("Chart");
    page.chart("The runs' survival curves", chart);
    page.finish(title)
}

/// compare.csv: one row per pair of runs.
fn pairs_csv(doc: &CompareJson) -> Result<Vec<u8>> {
    let mut wtr = csv::Writer::from_writer(Vec::new());
    wtr.write_record(["run_a", "run_b", "games_a", "games_b", "ks_d", "ks_p"])?;
    for p in &doc.ks {
        let (a, b) = (&doc.runs[p.a], &doc.runs[p.b]);
        wtr.write_record([
            a.dir.clone(),
            b.dir.clone(),
            a.games.to_string(),
            b.games.to_string(),
            p.d.to_string(),
            p.p.to_string(),
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
