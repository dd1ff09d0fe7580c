//! What a sweep prints and writes of its rule sets together: the terminal table, report.html,
//! sweep.json, sweep.csv and its charts (the `sweep` command runs the rule sets, each an output set of its
//! own, and hands their results here).

use std::io::Write;
use std::path::Path;

use anyhow::Result;
use serde::Serialize;
use serde_json::Value;

use crate::charts;
use crate::charts::render::Sink;
use crate::export::html::Page;
use crate::games::Unit;
use crate::model::report::Curve;
use crate::model::summary::Provenance;
use crate::model::sweep::RuleSet;
use crate::stats::summary::{fixed, grouped, pct};
use crate::store::Dir;
use crate::term::stdout::Print;

/// One rule set of a sweep, run: what the sweep's own files show of it.
pub struct SweepRow {
    /// Its label (`war-down 1, pickup shuffled`).
    pub label: String,
    /// Its folder in the sweep's.
    pub name: String,
    /// Its summary.json.
    pub summary: Value,
    /// Its summary.csv.
    pub summary_csv: Vec<u8>,
    /// Its survival curve and mean.
    pub curve: Curve,
    /// What its rounds count (the game's, the same in every row).
    pub unit: Unit,
}

/// The text summary: one line per rule set.
pub fn text(title: &str, results: &[SweepRow], elapsed_s: f64) -> String {
    let width = results
        .iter()
        .map(|r| r.label.chars().count())
        .max()
        .unwrap_or(0);
    let mut s = format!("sweep     {title}, {elapsed_s:.2} s\n");
    for r in results {
        let c = &r.curve;
        let mean = match c.mean {
            Some((m, Some([lo, hi]))) => {
                format!("mean {} ({}–{})", fixed(m, 2), fixed(lo, 2), fixed(hi, 2))
            }
            Some((m, None)) => format!("mean {}", fixed(m, 2)),
            None => "no game ended".into(),
        };
        let unended = c.unended.describe(c.games);
        s.push_str(&format!(
            "  {:<width$}  {mean}{}\n",
            r.label,
            if unended.is_empty() {
                String::new()
            } else {
                format!(" of the games that end; {unended}")
            }
        ));
    }
    s
}

/// Every rule set side by side, as report.html's table: its label, its report, games, the
/// mean and median of the games that end, player 1's wins, loops and capped games. Every
/// figure of rounds is of the games that end, the population the charts draw, so a row never
/// sets the mean of one population beside the median of another.
fn side_by_side(results: &[SweepRow]) -> (Vec<String>, Vec<Vec<String>>) {
    let many = results.first().map_or("rounds", |r| r.unit.many);
    let header = [
        "rule set".to_string(),
        "its report".into(),
        "games".into(),
        format!("mean {many} of the games that end (95% interval)"),
        format!("median {many} of the games that end"),
        "player 1 wins (all games)".into(),
        "loop".into(),
        "capped".into(),
    ];
    let rows = results
        .iter()
        .map(|r| {
            let c = &r.curve;
            let s = &r.summary;
            let ended = match &s["finished_rounds"] {
                Value::Null => &s["rounds"],
                f => f,
            };
            let median = ended["median"].as_u64().map_or_else(String::new, grouped);
            vec![
                r.label.clone(),
                format!("{}/report.html", r.name),
                grouped(c.games),
                c.mean_text(),
                median,
                s["shares"]["p1"]["share"]
                    .as_f64()
                    .map_or_else(String::new, pct),
                // A rule set that never looks for loops (a shuffled pickup) found none to
                // count: "—", as docs write it, not a count of 0.
                match s["loops"] {
                    Value::Null => "—".into(),
                    _ => c.looping().text(),
                },
                c.capped().text(),
            ]
        })
        .collect();
    (header.to_vec(), rows)
}

/// `sweep --markdown`: the rule sets side by side as a Markdown table (report.html's, each
/// report's path as a column), ready to paste into a post.
pub fn markdown(results: &[SweepRow]) -> String {
    let (header, rows) = side_by_side(results);
    let cell = |s: &str| s.replace('|', "\\|").replace(['\n', '\r'], " ");
    let line = |cells: &[String]| {
        let cells: Vec<String> = cells.iter().map(|c| cell(c)).collect();
        format!("| {} |\n", cells.join(" | "))
    };
    let mut s = line(&header);
    s.push_str(&format!("|{}\n", " --- |".repeat(header.len())));
    for r in &rows {
        s.push_str(&line(r));
    }
    s
}

/// report.html: what ran, every rule set side by side (each linking to its own report), and
/// the sweep's charts.
pub fn page(title: &str, doc: &SweepJson, results: &[SweepRow], charts: &[(&str, &str)]) -> String {
    let mut page = Page::new(title);
    page.heading("What ran");
    page.paragraph(&format!(
        "{}, {}; seed {}; {} threads; varying: {}",
        doc.provenance.program,
        doc.provenance.date,
        doc.seed,
        doc.threads,
        doc.varying.join(", ")
    ));
    page.code(&doc.provenance.command);
    page.heading("Rule sets side by side");
    let (header, rows) = side_by_side(results);
    let header: Vec<&str> = header.iter().map(String::as_str).collect();
    page.linked_table(&header, &rows, Some(1));
    page.heading("Charts");
    for (caption, svg) in charts {
        page.chart(caption, svg);
    }
    page.finish(title)
}

/// sweep.json.
#[derive(Serialize, schemars::JsonSchema)]
pub struct SweepJson {
    /// The game swept.
    pub game: String,
    /// Games per rule set (`null` with `--precision`: each rule set's summary has its own).
    pub games: Option<u64>,
    /// The `--precision` target, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub precision: Option<f64>,
    /// Base seed of every rule set.
    pub seed: u64,
    /// The options that vary, in the order given.
    pub varying: Vec<String>,
    /// Only in a sweep that an interrupt stopped: `true`. Its rule sets say which of them it
    /// holds whole and which part way (`held`), and `warsim resume DIR` plays the rest.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub stopped: bool,
    /// Only in a stopped sweep: the command that asked it (its words after `warsim`), from
    /// which `warsim resume` makes the sweep again to play the rest.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub asked: Option<Vec<String>>,
    /// Every rule set.
    pub rule_sets: Vec<RuleSetJson>,
    /// Seconds the whole sweep took.
    pub elapsed_s: f64,
    /// Worker threads.
    pub threads: usize,
    /// What made it.
    pub provenance: Provenance,
}

/// One rule set in sweep.json.
#[derive(Serialize, schemars::JsonSchema)]
pub struct RuleSetJson {
    /// Its directory.
    pub name: String,
    /// Its label.
    pub label: String,
    /// The value of every varying option.
    pub settings: serde_json::Map<String, Value>,
    /// Only in a stopped sweep: how much of the rule set it holds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub held: Option<Held>,
    /// Its summary.json (absent for a rule set a stopped sweep did not reach, and in a
    /// checkpoint's sweep.json, which names the rule sets its folder holds).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub summary: Option<Value>,
}

/// How much of a rule set a stopped sweep holds.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Serialize, serde::Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum Held {
    /// Every game it was asked: its folder is the run `simulate` writes.
    Whole,
    /// Its first games: its folder is a stopped run (its summary.json says `"stopped": true`).
    Partial,
    /// None: the sweep stopped before it; it has no folder.
    Missing,
}

/// sweep.csv: `rule_set`, then the columns of every rule set's summary.csv (their union in
/// first-seen order, empty where a rule set has no such column).
pub fn sweep_csv(results: &[SweepRow]) -> Result<Vec<u8>> {
    let mut columns: Vec<String> = Vec::new();
    let mut rows: Vec<(String, Vec<(String, String)>)> = Vec::new();
    for r in results {
        let name = &r.name;
        let mut rdr = csv::Reader::from_reader(&r.summary_csv[..]);
        let header: Vec<String> = rdr.headers()?.iter().map(str::to_string).collect();
        let record = rdr
            .records()
            .next()
            .ok_or_else(|| anyhow::anyhow!("summary.csv of {name} has no row"))??;
        for h in &header {
            if !columns.contains(h) {
                columns.push(h.clone());
            }
        }
        rows.push((
            name.clone(),
            header
                .into_iter()
                .zip(record.iter().map(str::to_string))
                .collect(),
        ));
    }
    let mut wtr = csv::Writer::from_writer(Vec::new());
    wtr.write_record(std::iter::once("rule_set").chain(columns.iter().map(String::as_str)))?;
    for (name, cells) in rows {
        let mut row = vec![name];
        for c in &columns {
            row.push(
                cells
                    .iter()
                    .find(|(h, _)| h == c)
                    .map_or_else(String::new, |(_, v)| v.clone()),
            );
        }
        wtr.write_record(&row)?;
    }
    Ok(wtr.into_inner().map_err(|e| e.into_error())?)
}

/// What a sweep's charts are drawn from.
pub struct SweepCharts<'a> {
    /// The title of the charts and the page.
    pub title: &'a str,
    /// Every rule set, in order.
    pub sets: &'a [RuleSet],
    /// The number of values of each axis.
    pub lens: Vec<usize>,
    /// The one axis, when only one varies and its values are numbers: means.png puts them on
    /// a numeric scale.
    pub numeric: Option<&'a str>,
}

/// Writes the sweep's own files into `dir`: sweep.json (`doc`), sweep.csv, sweep.png and
/// means.png (and their SVG with `svg`), and report.html. A stopped sweep has no charts nor
/// page (their layout is of every rule set): `warsim resume` draws them.
pub fn write(
    dir: &Dir,
    doc: &SweepJson,
    rows: &[SweepRow],
    drawn: &SweepCharts,
    svg: bool,
) -> Result<()> {
    dir.write_json("sweep.json", doc)?;
    dir.write("sweep.csv", &sweep_csv(rows)?)?;
    if doc.stopped {
        return Ok(());
    }
    let curves: Vec<(String, &Curve)> = rows.iter().map(|r| (r.label.clone(), &r.curve)).collect();
    let unit = rows.first().map_or(Unit::ROUNDS, |r| r.unit);
    let sweep_curves: Vec<&Curve> = rows.iter().map(|r| &r.curve).collect();
    let SweepCharts {
        title,
        sets,
        ref lens,
        numeric,
    } = *drawn;
    let mut exts = vec!["png"];
    if svg {
        exts.push("svg");
    }
    for ext in exts {
        let (sweep, means) = (
            dir.path(&format!("sweep.{ext}")),
            dir.path(&format!("means.{ext}")),
        );
        charts::sweep(title, unit, lens, sets, &sweep_curves, Sink::File(&sweep))?;
        charts::means(title, unit, &curves, numeric, Sink::File(&means))?;
    }
    let (mut sweep_svg, mut means_svg) = (String::new(), String::new());
    charts::sweep(
        title,
        unit,
        lens,
        sets,
        &sweep_curves,
        Sink::Svg(&mut sweep_svg),
    )?;
    charts::means(title, unit, &curves, numeric, Sink::Svg(&mut means_svg))?;
    let html = page(
        title,
        doc,
        rows,
        &[
            ("Survival curves of every rule set (sweep.png)", &sweep_svg),
            ("Mean rounds per rule set (means.png)", &means_svg),
        ],
    );
    dir.write("report.html", html.as_bytes())
}

/// Prints the sweep as `print` says, once its set (at `out`, if written) is in place.
pub fn print(
    print: Print,
    doc: &SweepJson,
    rows: &[SweepRow],
    title: &str,
    elapsed_s: f64,
    out: Option<&Path>,
) -> Result<()> {
    if print == Print::Json {
        crate::term::stdout::print_json(doc)?;
    } else if print == Print::Markdown {
        crate::term::stdout::write_all(markdown(rows).as_bytes())?;
    } else if print == Print::Text {
        let mut stdout = crate::term::stdout::out();
        write!(stdout, "{}", text(title, rows, elapsed_s))?;
        match out {
            Some(out) if doc.stopped => writeln!(
                stdout,
                "written   {}/ (sweep.json, sweep.csv, one directory per rule set played)",
                out.display()
            )?,
            Some(out) => writeln!(
                stdout,
                "written   {}/ (sweep.json, sweep.csv, sweep.png, means.png, report.html, one \
                 directory per rule set)",
                out.display()
            )?,
            None => {}
        }
        stdout.flush()?;
    }
    Ok(())
}
