//! Everything a run writes: the JSON and CSV summaries, the histogram, the chart, the terminal
//! summary, and (for `merge`) reading shard outputs back.

pub mod atomic;
pub mod charts;
pub mod csv;
pub mod glyphs;
pub mod plot;
pub mod progress;
pub mod reader;
pub mod readme;
pub mod render;
pub mod report;
pub mod stdout;
pub mod summary;
pub mod text;

use std::io::Write;
use std::path::Path;

use anyhow::{Context, Result};

use atomic::{Dir, OutputSet};

use crate::games::{GameStats, Outcome};
use crate::stats::histogram::Tally;
use crate::stats::summary::{counted, grouped};
use report::{Report, RunInfo, Timing};
use summary::Summary;

/// Writes a run's files into `set`, then moves the set into place as a whole.
pub fn write_set<S: GameStats>(
    set: OutputSet,
    r: &Report<S>,
    summary: &Summary<S::Json>,
    histogram: &[u8],
    svg: bool,
) -> Result<()> {
    write_run(set.dir(), r, summary, histogram, svg)?;
    set.commit()
}

/// Writes `summary.json` (`summary`, of `r`), `summary.csv`, `histogram.csv` (`histogram`),
/// `cycles.csv` (with loop detection), `histogram.png` (and `.svg`) and `README.md` into `set`.
pub fn write_run<S: GameStats>(
    set: &Dir,
    r: &Report<S>,
    summary: &Summary<S::Json>,
    histogram: &[u8],
    svg: bool,
) -> Result<()> {
    set.write_json("summary.json", summary)?;
    set.write("summary.csv", &csv::summary(r)?)?;
    set.write("histogram.csv", histogram)?;
    let mut files = vec![
        "summary.json",
        "summary.csv",
        "histogram.csv",
        "histogram.png",
        "survival.png",
    ];
    if r.info.detects_loops {
        set.write("cycles.csv", &csv::cycles(r)?)?;
        files.push("cycles.csv");
    }
    if !r.groups.is_empty() {
        set.write("by.csv", &csv::groups(r)?)?;
        files.extend(["by.csv", "by.png"]);
    }
    if svg {
        files.extend(["histogram.svg", "survival.svg"]);
    }
    for chart in files
        .iter()
        .filter(|f| !f.ends_with(".csv") && !f.ends_with(".json"))
    {
        let stem = chart.split('.').next().unwrap_or(chart);
        draw_chart(r, stem, &set.path(chart))
            .with_context(|| format!("cannot draw {}", set.target().join(chart).display()))?;
    }
    files.push("README.md");
    set.write("README.md", readme::readme(summary, &files).as_bytes())
}

/// The charts of a run, by name: `histogram` and `survival`, and `by` for a run with groups.
pub fn chart_names<S: GameStats>(r: &Report<S>) -> Vec<&'static str> {
    let mut names = vec!["histogram", "survival"];
    if !r.groups.is_empty() {
        names.push("by");
    }
    names
}

/// Draws chart `name` ([`chart_names`]) of `r` into `path` (PNG, or SVG for a `.svg` path):
/// the one drawing of each chart, for the files of a run and for the Python package.
pub fn draw_chart<S: GameStats>(r: &Report<S>, name: &str, path: &Path) -> Result<()> {
    let title = format!("{} — {}", r.info.game, counted(r.games(), "game"));
    match name {
        "histogram" => plot::histogram(r, path),
        "by" => {
            let points: Vec<charts::GroupPoint> = r
                .groups
                .iter()
                .map(|g| charts::GroupPoint {
                    group: g.group,
                    p1: g.share(Outcome::Player(0)),
                    mean: g.rounds.as_ref().map(|d| (d.mean, d.ci95)),
                })
                .collect();
            let meaning = r.info.grouping.as_deref().unwrap_or("group");
            charts::by_group(&title, meaning, &points, path)
        }
        "survival" => {
            let subtitle = format!(
                "{}: share of games still going after t rounds",
                r.info.description
            );
            let label = format!("{} games", grouped(r.games()));
            charts::survival(&title, &subtitle, &[(label, &r.curve())], true, path)
        }
        _ => Err(anyhow::anyhow!("no chart named {name:?}")),
    }
}

/// The end of every run: the output set written into `out` (if any), then the summary on
/// stdout, as text or as one JSON object.
pub fn finish<S: GameStats>(
    info: &RunInfo,
    tally: &Tally<S>,
    timing: &Timing,
    out: Option<OutputSet>,
    print: stdout::Print,
    svg: bool,
) -> Result<()> {
    let report = Report::new(info, tally);
    let histogram = csv::histogram(&report)?;
    // Made once: the file and stdout carry the same summary, date included.
    let summary = report.summary(timing, &histogram);
    let target = out.as_ref().map(|s| s.dir().target().to_path_buf());
    if let Some(set) = out {
        write_set(set, &report, &summary, &histogram, svg)?;
    }
    let print = || -> Result<()> {
        match print {
            stdout::Print::Json => return stdout::print_json(&summary),
            stdout::Print::Nothing => return Ok(()),
            stdout::Print::Text => {}
        }
        let mut stdout = stdout::out();
        write!(stdout, "{}", text::summary(&report, timing))?;
        if let Some(dir) = &target {
            writeln!(
                stdout,
                "written   {}/ (summary.json, summary.csv, histogram.csv, charts, README.md)",
                dir.display()
            )?;
        }
        stdout.flush()?;
        Ok(())
    };
    // The set is in place whatever happens to stdout: say so.
    match &target {
        Some(dir) => print().with_context(|| {
            format!(
                "{} was written in full; cannot print its summary",
                dir.display()
            )
        })?,
        None => print()?,
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::shard::Shard;

    #[test]
    fn a_set_that_fails_halfway_leaves_the_old_one_and_no_trace() {
        let dir = std::env::temp_dir().join(format!("warsim-set-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let out = dir.join("out");
        let set = OutputSet::begin(&out, atomic::Kind::Simulate, &[]).unwrap();
        set.dir().write("summary.json", b"old").unwrap();
        set.commit().unwrap();
        // An empty tally has no chart: the write fails after the CSV files are staged.
        let game = crate::games::shotgun::Shotgun::new(crate::games::shotgun::ShotgunRules {
            mix: [1.0 / 3.0; 3],
            max_rounds: 10,
        });
        let info = RunInfo::new(&game, 0, 1, Shard::WHOLE).unwrap();
        let tally = Tally::<()>::new(2);
        let report = Report::new(&info, &tally);
        let timing = Timing {
            elapsed_s: 0.0,
            threads: None,
            note: None,
        };
        let histogram = csv::histogram(&report).unwrap();
        let summary = report.summary(&timing, &histogram);
        let set = OutputSet::begin(&out, atomic::Kind::Simulate, &[]).unwrap();
        assert!(write_set(set, &report, &summary, &histogram, false).is_err());
        assert_eq!(std::fs::read(out.join("summary.json")).unwrap(), b"old");
        let left: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
        assert_eq!(left.len(), 1, "only --out remains beside it");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
