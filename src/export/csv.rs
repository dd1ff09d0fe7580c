//! The CSV files: `histogram.csv`, `summary.csv`, `cycles.csv`, each serialised to bytes.

use anyhow::Result;

use crate::games::{GameStats, Outcome, StatsTable};
use crate::model::report::{Group, Report};
use crate::stats::histogram::RoundHistogram;
use crate::stats::summary::{Distribution, QUANTILES};

fn finish(wtr: csv::Writer<Vec<u8>>) -> Result<Vec<u8>> {
    // `into_inner` flushes and reports errors that the writer's `Drop` would swallow.
    Ok(wtr.into_inner().map_err(|e| e.into_error())?)
}

/// `rounds,count,<outcome>...`: one row per round count that occurred, ascending, with the
/// games of each shown outcome.
pub fn histogram<S: GameStats>(r: &Report<S>) -> Result<Vec<u8>> {
    let mut wtr = csv::Writer::from_writer(Vec::new());
    let mut header = vec!["rounds".to_string(), "count".to_string()];
    header.extend(r.outcomes.iter().map(|(o, _)| o.name()));
    wtr.write_record(&header)?;
    write_rows(&mut wtr, r, None, &r.tally.rounds)?;
    finish(wtr)
}

/// One row per round count of `hist`: (`group`,) rounds, count, then the games of each shown
/// outcome.
fn write_rows<S: GameStats>(
    wtr: &mut csv::Writer<Vec<u8>>,
    r: &Report<S>,
    group: Option<u16>,
    hist: &RoundHistogram,
) -> Result<()> {
    let players = r.tally.players;
    for (rounds, counts) in hist.rows() {
        let mut row: Vec<String> = group.iter().map(u16::to_string).collect();
        row.extend([rounds.to_string(), counts.iter().sum::<u64>().to_string()]);
        row.extend(
            r.outcomes
                .iter()
                .map(|(o, _)| counts[o.slot(players)].to_string()),
        );
        wtr.write_record(&row)?;
    }
    Ok(())
}

/// `group,rounds,count,<outcome>...`: each group's histogram (as histogram.csv's rows), groups
/// ascending.
pub fn groups<S: GameStats>(r: &Report<S>) -> Result<Vec<u8>> {
    let mut wtr = csv::Writer::from_writer(Vec::new());
    let mut header = vec!["group".to_string(), "rounds".into(), "count".into()];
    header.extend(r.outcomes.iter().map(|(o, _)| o.name()));
    wtr.write_record(&header)?;
    for g in &r.groups {
        write_rows(
            &mut wtr,
            r,
            Some(g.group),
            &r.tally.groups[usize::from(g.group)],
        )?;
    }
    finish(wtr)
}

/// A table of a game's own statistics, under its header.
pub fn table(t: &StatsTable) -> Result<Vec<u8>> {
    let mut wtr = csv::Writer::from_writer(Vec::new());
    wtr.write_record(&t.header)?;
    for row in &t.rows {
        wtr.write_record(row)?;
    }
    finish(wtr)
}

/// `cycle_len,count`: looping games per cycle length.
pub fn cycles<S: GameStats>(r: &Report<S>) -> Result<Vec<u8>> {
    let mut wtr = csv::Writer::from_writer(Vec::new());
    wtr.write_record(["cycle_len", "count"])?;
    for (len, n) in &r.tally.cycles {
        wtr.write_record([len.to_string(), n.to_string()])?;
    }
    finish(wtr)
}

/// A value, or an empty cell (read as missing by pandas and R) where it is undefined.
fn optional(x: Option<f64>) -> String {
    x.map_or_else(String::new, |x| x.to_string())
}

/// One header row and one data row of the scalar statistics, then a row per group.
pub fn summary<S: GameStats>(r: &Report<S>) -> Result<Vec<u8>> {
    let cols = summary_cols(r);
    let mut wtr = csv::Writer::from_writer(Vec::new());
    wtr.write_record(cols.iter().map(|c| &c.0))?;
    wtr.write_record(cols.iter().map(|c| &c.1))?;
    for g in &r.groups {
        wtr.write_record(group_row(&cols, g))?;
    }
    finish(wtr)
}

/// The columns of summary.csv, (name, value of the run's row).
fn summary_cols<S: GameStats>(r: &Report<S>) -> Vec<(String, String)> {
    let mut cols: Vec<(String, String)> = vec![
        ("game".into(), r.info.game.clone()),
        ("description".into(), r.info.description.clone()),
        ("games".into(), r.games().to_string()),
        ("seed".into(), r.info.seed.to_string()),
        // Empty in the row of all games; the group's number in a group's row.
        ("group".into(), String::new()),
    ];
    cols.extend(rule_cols(&r.info.rules));
    cols.extend(distribution_cols(r.rounds.as_ref()));
    // Every outcome, shown in the summary or not, so a game's rows always have the same
    // columns (for a given number of players).
    for (o, n) in r.tally.outcomes() {
        cols.push((format!("outcome_{}", o.name()), n.to_string()));
    }
    if let Some((_, i)) = r.tally.longest {
        cols.push(("longest_game".into(), i.to_string()));
    }
    cols.extend(r.tally.stats.csv(r.games()));
    cols.extend(tail_cols(r));
    cols.extend(loop_cols(r));
    cols
}

/// Every rule setting as a column, so rows of several runs of a game stack into one table.
fn rule_cols(rules: &serde_json::Value) -> Vec<(String, String)> {
    let serde_json::Value::Object(rules) = rules else {
        return Vec::new();
    };
    rules
        .iter()
        .map(|(k, v)| {
            let text = match v {
                serde_json::Value::String(s) => s.clone(),
                serde_json::Value::Null => String::new(),
                serde_json::Value::Array(a) => a
                    .iter()
                    .map(|x| x.to_string())
                    .collect::<Vec<_>>()
                    .join(";"),
                other => other.to_string(),
            };
            (format!("rule_{k}"), text)
        })
        .collect()
}

/// The fitted tail and the parity (empty cells where there is none).
fn tail_cols<S: GameStats>(r: &Report<S>) -> [(String, String); 6] {
    let tail = r.tail.as_ref();
    [
        ("tail_from".into(), optional(tail.map(|t| t.from as f64))),
        ("tail_rate".into(), optional(tail.map(|t| t.rate))),
        (
            "tail_rate_ci95_lo".into(),
            optional(tail.map(|t| t.rate_ci95[0])),
        ),
        (
            "tail_rate_ci95_hi".into(),
            optional(tail.map(|t| t.rate_ci95[1])),
        ),
        (
            "tail_e_folding_rounds".into(),
            optional(tail.map(|t| t.e_folding_rounds)),
        ),
        (
            "even_share".into(),
            optional(r.parity.as_ref().map(|p| p.even.share)),
        ),
    ]
}

/// Loop statistics (empty cells without loop detection: nothing was proven), and the games
/// that end.
fn loop_cols<S: GameStats>(r: &Report<S>) -> [(String, String); 7] {
    let loops = r.info.detects_loops.then(|| r.share(Outcome::Loop));
    [
        (
            "loop_share".into(),
            optional(loops.as_ref().map(|s| s.share)),
        ),
        (
            "loop_ci95_lo".into(),
            optional(loops.as_ref().map(|s| s.ci95[0])),
        ),
        (
            "loop_ci95_hi".into(),
            optional(loops.as_ref().map(|s| s.ci95[1])),
        ),
        (
            "finished_mean".into(),
            optional(r.finished.as_ref().map(|f| f.mean)),
        ),
        (
            "finished_ci95_lo".into(),
            optional(r.finished.as_ref().and_then(|f| f.ci95.map(|c| c[0]))),
        ),
        (
            "finished_ci95_hi".into(),
            optional(r.finished.as_ref().and_then(|f| f.ci95.map(|c| c[1]))),
        ),
        (
            "finished_median".into(),
            optional(r.finished.as_ref().map(|f| f.median as f64)),
        ),
    ]
}

/// The row of group `g` under the columns `cols`: the group's games, rounds and outcomes; the
/// run's game, description, seed and rules; the rest empty.
fn group_row(cols: &[(String, String)], g: &Group) -> Vec<String> {
    let mut own: Vec<(String, String)> = vec![
        ("group".into(), g.group.to_string()),
        ("games".into(), g.games.to_string()),
    ];
    own.extend(distribution_cols(g.rounds.as_ref()));
    for (o, n) in &g.outcomes {
        own.push((format!("outcome_{}", o.name()), n.to_string()));
    }
    cols.iter()
        .map(|(k, v)| {
            if k == "game" || k == "description" || k == "seed" || k.starts_with("rule_") {
                v.clone()
            } else {
                own.iter()
                    .find(|c| &c.0 == k)
                    .map_or_else(String::new, |c| c.1.clone())
            }
        })
        .collect()
}

/// The columns of a distribution of rounds (empty cells for none).
fn distribution_cols(d: Option<&Distribution>) -> Vec<(String, String)> {
    let mut cols: Vec<(String, String)> = vec![
        ("mean".into(), optional(d.map(|d| d.mean))),
        ("sd".into(), optional(d.and_then(|d| d.sd))),
        ("sem".into(), optional(d.and_then(|d| d.sem))),
        (
            "ci95_lo".into(),
            optional(d.and_then(|d| d.ci95.map(|c| c[0]))),
        ),
        (
            "ci95_hi".into(),
            optional(d.and_then(|d| d.ci95.map(|c| c[1]))),
        ),
        ("median".into(), optional(d.map(|d| d.median as f64))),
        ("min".into(), optional(d.map(|d| d.min as f64))),
        ("max".into(), optional(d.map(|d| d.max as f64))),
    ];
    for (k, _, _) in QUANTILES {
        cols.push((
            format!("rounds_{k}"),
            d.map_or_else(String::new, |d| d.quantiles[k].to_string()),
        ));
    }
    cols
}
