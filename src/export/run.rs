//! A run's output set: its summary made once ([`summarize`]), summary.json, the CSV files, the
//! charts, report.html and README.md written into a staged set's folder ([`write_run`]),
//! and the summary printed as asked ([`print`]).

use std::io::Write;
use std::path::Path;

use anyhow::{Context, Result};

use super::{csv, html, readme, table};
use crate::charts::{render, RunChart};
use crate::games::{GameStats, Outcome};
use crate::model::pretty_json;
use crate::model::report::{Report, RunInfo, Timing};
use crate::model::summary::{Provenance, Summary};
use crate::stats::histogram::Tally;
use crate::stats::summary::{counted, fixed, grouped, grouped_in, pct};
use crate::store::Dir;
use crate::term::stdout::{self, Print};
use crate::term::text;

/// Puts a run's data files (those a reader of the run reads its counts from; no chart, no
/// page) with `put`: `summary.json`, `summary.csv`, `histogram.csv`, `cycles.csv` (with loop
/// detection), `by.csv` (with groups) and the game's own table. A checkpoint is these.
pub fn write_data<S: GameStats>(
    r: &Report<S>,
    summary: &Summary<S::Json>,
    histogram: &[u8],
    put: &mut dyn FnMut(&str, &[u8]) -> Result<()>,
) -> Result<()> {
    put("summary.json", &pretty_json(summary)?)?;
    put("summary.csv", &csv::summary(r)?)?;
    put("histogram.csv", histogram)?;
    if r.info.detects_loops {
        put("cycles.csv", &csv::cycles(r)?)?;
    }
    if !r.groups.is_empty() {
        put("by.csv", &csv::groups(r)?)?;
    }
    if let Some(table) = r.tally.stats.table() {
        put(table.file, &csv::table(&table)?)?;
    }
    Ok(())
}

/// Writes a run's files into `set`: `summary.json` (`summary`, of `r`), `summary.csv`,
/// `histogram.csv` (`histogram`), `cycles.csv` (with loop detection), `by.csv` (with groups),
/// the game's own table ([`GameStats::table`], e.g. War's quit.csv), the charts (PNG, and SVG with `svg`), `report.html` and `README.md`, whose list of files is
/// the list of what was written.
pub fn write_run<S: GameStats>(
    set: &Dir,
    r: &Report<S>,
    summary: &Summary<S::Json>,
    histogram: &[u8],
    svg: bool,
) -> Result<()> {
    let mut written: Vec<String> = Vec::new();
    write_data(r, summary, histogram, &mut |name: &str, bytes: &[u8]| {
        set.write(name, bytes)?;
        written.push(name.to_string());
        Ok(())
    })?;
    let mut inline = Vec::new();
    for chart in RunChart::of(r) {
        let cannot = |name: &str| format!("cannot draw {}", set.target().join(name).display());
        let mut names = vec![format!("{}.png", chart.stem())];
        if svg {
            names.push(format!("{}.svg", chart.stem()));
        }
        for name in names {
            chart
                .draw(r, render::Sink::File(&set.path(&name)))
                .with_context(|| cannot(&name))?;
            written.push(name);
        }
        let mut text = String::new();
        chart
            .draw(r, render::Sink::Svg(&mut text))
            .with_context(|| cannot("report.html"))?;
        inline.push((chart.caption(r.info.unit), text));
    }
    written.push("report.html".into());
    written.push("README.md".into());
    let timing = Timing {
        elapsed_s: summary.elapsed_s,
        threads: summary.threads,
        note: summary.timing.clone(),
    };
    let page = run_page(r, summary, &timing, &inline, &written);
    set.write("report.html", page.as_bytes())?;
    let names: Vec<&str> = written.iter().map(String::as_str).collect();
    set.write(
        "README.md",
        readme::readme(summary, r.info.unit, &names).as_bytes(),
    )
}

/// The rules of summary.json as a reader names them: `war down` for `war_down`, numbers with
/// separators, `yes`/`no`; a setting that is not set (`null`) is left out.
fn rule_rows(rules: &serde_json::Value) -> Vec<Vec<String>> {
    use serde_json::Value;
    let Value::Object(rules) = rules else {
        return Vec::new();
    };
    rules
        .iter()
        .filter(|(_, v)| !v.is_null())
        .map(|(k, v)| {
            let v = match v {
                Value::String(t) => t.clone(),
                Value::Bool(b) => if *b { "yes" } else { "no" }.to_string(),
                Value::Number(n) => n.as_u64().map_or_else(|| n.to_string(), grouped),
                v => v.to_string(),
            };
            vec![k.replace('_', " "), v]
        })
        .collect()
}

/// report.html of a run: what ran, the summary, the groups, every chart and the files.
fn run_page<S: GameStats>(
    r: &Report<S>,
    summary: &Summary<S::Json>,
    timing: &Timing,
    charts: &[(String, String)],
    files: &[String],
) -> String {
    let title = format!("{} — {}", r.info.game, counted(r.games(), "game"));
    let mut page = html::Page::new(&title);
    page.paragraph(&grouped_in(&r.info.description));
    page.heading("What ran");
    let mut ran: Vec<Vec<String>> = Vec::new();
    if let Some(p) = &summary.provenance {
        ran.push(vec!["program".into(), p.program.clone()]);
        ran.push(vec!["date".into(), p.date.clone()]);
    }
    if let Some(note) = &timing.note {
        ran.push(vec!["timing".into(), note.clone()]);
    }
    page.table(&["", ""], &ran);
    if let Some(p) = &summary.provenance {
        page.code(&p.command);
    }
    page.table(&["rule", "setting"], &rule_rows(&summary.rules));
    page.heading("Summary");
    // The game and its rules head the page already.
    let rows: Vec<table::Row> = table::rows(r, timing)
        .into_iter()
        .filter(|row| row.name != "game" && row.name != "rules")
        .collect();
    page.summary(&rows);
    if !r.groups.is_empty() {
        page.heading(&format!(
            "Groups: per number of {}",
            r.info.grouping.as_deref().unwrap_or("group")
        ));
        let rows = group_rows(r);
        let mean = match r.leading_ended() {
            Some(_) => format!("mean {} of the games that end", r.info.unit.many),
            None => format!("mean {}", r.info.unit.many),
        };
        page.table(
            &[
                "group",
                "games",
                &mean,
                "95% interval",
                "player 1 wins (of all the group's games)",
                "95% interval",
                "fair share (the games won, shared evenly)",
            ],
            &rows,
        );
    }
    page.heading("Charts");
    for (caption, svg) in charts {
        page.chart(caption, svg);
    }
    page.heading("Files");
    page.paragraph(&files.join(", "));
    page.finish(&title)
}

/// report.html's table of groups: a row per group, its games, mean rounds and player 1's
/// share of wins, each with its 95% interval.
fn group_rows<S: GameStats>(r: &Report<S>) -> Vec<Vec<String>> {
    r.groups
        .iter()
        .map(|g| {
            let p1 = g.share(Outcome::Player(0));
            let (mean, ci) = g.leading().map_or((String::new(), String::new()), |d| {
                let ci = d.ci95.map(|[lo, hi]| table::interval(lo, hi));
                (fixed(d.mean, 3), ci.unwrap_or_default())
            });
            vec![
                g.group.to_string(),
                grouped(g.games),
                mean,
                ci,
                pct(p1.share),
                p1.interval_text(),
                pct(g.fair_share(r.tally.players)),
            ]
        })
        .collect()
}

/// The summary of the run `info` played as `tally` in `timing`, made by `made`, with the bytes
/// of its histogram.csv, which the summary describes: made once, so the files, the terminal and
/// a value held in memory carry the same summary, date included.
pub fn summarize<S: GameStats>(
    info: &RunInfo,
    tally: &Tally<S>,
    timing: &Timing,
    made: Provenance,
) -> Result<(Summary<S::Json>, Vec<u8>)> {
    let report = Report::new(info, tally);
    let histogram = csv::histogram(&report)?;
    let summary = report.summary(timing, &histogram, made);
    Ok((summary, histogram))
}

/// Prints the run `r` (its `summary`, played in `timing`) on stdout as `print` says, naming
/// the folder `written` where its set was written; a failure to print says that the set is in
/// place.
pub fn print<S: GameStats>(
    r: &Report<S>,
    summary: &Summary<S::Json>,
    timing: &Timing,
    print: Print,
    written: Option<&Path>,
) -> Result<()> {
    let print = || -> Result<()> {
        let mut stdout = stdout::out();
        match print {
            Print::Nothing => return Ok(()),
            Print::Json => return stdout::print_json(summary),
            Print::Markdown => write!(stdout, "{}", table::markdown(&table::rows(r, timing)))?,
            Print::Text => {
                write!(stdout, "{}", text::summary(r, timing))?;
                if let Some(dir) = written {
                    // The game's own table, if it writes one (War's quit.csv with --quit-stats).
                    let table = r.tally.stats.table().map(|t| t.file);
                    let table = table.map(|f| format!("{f}, ")).unwrap_or_default();
                    writeln!(
                        stdout,
                        "written   {}/ (summary.json, summary.csv, histogram.csv, {table}charts, \
                         report.html, README.md)",
                        dir.display()
                    )?;
                }
            }
        }
        stdout.flush()?;
        Ok(())
    };
    // The set is in place whatever happens to stdout: say so.
    match written {
        Some(dir) => print().with_context(|| {
            format!(
                "{} was written in full; cannot print its summary",
                dir.display()
            )
        }),
        None => print(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::shard::Shard;
    use crate::store::OutputSet;

    #[test]
    fn a_set_that_fails_halfway_leaves_the_old_one_and_no_trace() {
        let dir = std::env::temp_dir().join(format!("warsim-set-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let out = dir.join("out");
        let set = OutputSet::begin(&out, crate::store::Kind::Simulate, &[], None).unwrap();
        set.dir().write("summary.json", b"old").unwrap();
        set.commit().unwrap();
        // An empty tally has no chart: the write fails after the CSV files are staged.
        let game = crate::games::shotgun::Shotgun::new(crate::games::shotgun::ShotgunRules {
            mix: [1.0 / 3.0; 3],
            max_rounds: 10,
        })
        .unwrap();
        let info = RunInfo::new(&game, 0, 1, Shard::WHOLE).unwrap();
        let tally = Tally::<()>::new(2);
        let report = Report::new(&info, &tally);
        let timing = Timing {
            elapsed_s: 0.0,
            threads: None,
            note: None,
        };
        let histogram = csv::histogram(&report).unwrap();
        let summary = report.summary(&timing, &histogram, Provenance::of(None));
        let set = OutputSet::begin(&out, crate::store::Kind::Simulate, &[], None).unwrap();
        // Dropped uncommitted, as a writer that fails drops it.
        assert!(write_run(set.dir(), &report, &summary, &histogram, false).is_err());
        drop(set);
        assert_eq!(std::fs::read(out.join("summary.json")).unwrap(), b"old");
        let left: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
        assert_eq!(left.len(), 1, "only --out remains beside it");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
