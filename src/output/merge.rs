//! `warsim merge`: reads shard outputs back and adds them exactly.
//!
//! A shard's `summary.json` records the run it belongs to (game, rules, seed, total games) and
//! the game indices it covers; its `histogram.csv` and `cycles.csv` hold the exact counts. Merge
//! checks that the shards belong to one run, are disjoint and cover it whole before it adds
//! anything, so a missing, duplicated or foreign shard is refused by name.

use std::fs;
use std::path::{Path, PathBuf};

use serde_json::Value;

use super::report::{depth_key, RunInfo, Timing};
use crate::error::UsageError;
use crate::games::{Outcome, WAR_DEPTHS};
use crate::sim::shard::Shard;
use crate::stats::histogram::Tally;
use crate::usage;

/// One shard output read back.
#[derive(Debug)]
pub struct Part {
    /// Where it was read from.
    pub dir: PathBuf,
    /// Its run description.
    pub info: RunInfo,
    /// Its counts.
    pub tally: Tally,
    /// Its `elapsed_s`.
    pub elapsed_s: f64,
}

fn read(dir: &Path, name: &str) -> Result<String, UsageError> {
    let path = dir.join(name);
    fs::read_to_string(&path).map_err(|e| {
        usage!(
            "{}: cannot read {name} ({e}); is it a warsim --out directory?",
            dir.display()
        )
    })
}

fn field<'a>(v: &'a Value, path: &[&str], dir: &Path) -> Result<&'a Value, UsageError> {
    path.iter()
        .try_fold(v, |v, k| v.get(k))
        .ok_or_else(|| usage!("{}: summary.json has no {}", dir.display(), path.join(".")))
}

fn number(v: &Value, path: &[&str], dir: &Path) -> Result<u64, UsageError> {
    field(v, path, dir)?.as_u64().ok_or_else(|| {
        usage!(
            "{}: {} in summary.json is not a whole number",
            dir.display(),
            path.join(".")
        )
    })
}

/// Reads the output in `dir`.
pub fn load(dir: &Path) -> Result<Part, UsageError> {
    let d = dir.display();
    let v: Value = serde_json::from_str(&read(dir, "summary.json")?)
        .map_err(|e| usage!("{d}: summary.json is not valid JSON ({e})"))?;
    let players = number(&v, &["players"], dir)? as usize;
    let shard = match field(&v, &["run", "shard"], dir)? {
        Value::Null => None,
        Value::String(s) => Some(
            s.parse::<Shard>()
                .map_err(|e| usage!("{d}: run.shard {e}"))?,
        ),
        _ => return Err(usage!("{d}: run.shard in summary.json is not a string")),
    };
    let info = RunInfo {
        game: field(&v, &["game"], dir)?
            .as_str()
            .unwrap_or_default()
            .to_string(),
        description: field(&v, &["description"], dir)?
            .as_str()
            .unwrap_or_default()
            .to_string(),
        rules: field(&v, &["rules"], dir)?.clone(),
        seed: number(&v, &["seed"], dir)?,
        players,
        games_total: number(&v, &["run", "games_total"], dir)?,
        range: number(&v, &["run", "first_game"], dir)?..number(&v, &["run", "end_game"], dir)?,
        shard,
        counts_wars: v.get("wars").is_some(),
        detects_loops: v.get("loops").is_some(),
        exact: v.get("exact").cloned(),
    };
    let mut tally = Tally::new(players);
    read_histogram(&read(dir, "histogram.csv")?, &mut tally, dir)?;
    if info.counts_wars {
        tally.wars = number(&v, &["wars", "total"], dir)?;
        let deepest = field(&v, &["wars", "deepest"], dir)?
            .as_object()
            .ok_or_else(|| usage!("{d}: wars.deepest in summary.json is not an object"))?;
        for (depth, n) in deepest {
            let depth: usize = depth
                .parse()
                .map_err(|_| usage!("{d}: wars.deepest has a key {depth:?} that is not a depth"))?;
            let n = n
                .as_u64()
                .ok_or_else(|| usage!("{d}: wars.deepest.{depth} is not a whole number"))?;
            if depth >= tally.deepest.len() {
                tally.deepest.resize(depth + 1, 0);
            }
            tally.deepest[depth] = n;
        }
        if let Some(by) = v
            .pointer("/wars/battles_by_depth")
            .and_then(Value::as_object)
        {
            for (key, n) in by {
                let d = (0..WAR_DEPTHS)
                    .find(|&d| depth_key(d) == *key)
                    .ok_or_else(|| {
                        usage!("{d}: wars.battles_by_depth has an unknown key {key:?}")
                    })?;
                tally.war_depths[d] = n.as_u64().ok_or_else(|| {
                    usage!("{d}: wars.battles_by_depth.{key} is not a whole number")
                })?;
            }
        }
    } else {
        // Without war statistics every game counts at depth 0 (as the engine records it).
        tally.deepest = vec![tally.rounds.outcome_totals().iter().sum()];
    }
    if info.detects_loops {
        let cycles = read(dir, "cycles.csv")?;
        let (_, rows) = csv_rows(&cycles, "cycle_len,count", dir, "cycles.csv")?;
        for (line, rec) in rows {
            let len = parse_u64(&rec, 0, line, dir, "cycles.csv")?;
            tally
                .cycles
                .insert(len, parse_u64(&rec, 1, line, dir, "cycles.csv")?);
        }
    }
    let games = number(&v, &["games"], dir)?;
    if tally.games() != games || info.range.end.checked_sub(info.range.start) != Some(games) {
        return Err(usage!(
            "{d}: the histogram counts {} games, summary.json says {games} over games {}..{}",
            tally.games(),
            info.range.start,
            info.range.end
        ));
    }
    if games > 0 {
        tally.longest = Some((
            number(&v, &["longest_rounds"], dir)?,
            number(&v, &["longest_game"], dir)?,
        ));
    }
    let elapsed_s = field(&v, &["elapsed_s"], dir)?.as_f64().unwrap_or(0.0);
    Ok(Part {
        dir: dir.to_path_buf(),
        info,
        tally,
        elapsed_s,
    })
}

type Rows = Vec<(usize, Vec<String>)>;

/// The header of a CSV file, which must start with `expect`, and its data rows with their line
/// numbers.
fn csv_rows(
    text: &str,
    expect: &str,
    dir: &Path,
    name: &str,
) -> Result<(Vec<String>, Rows), UsageError> {
    let mut lines = text.lines().enumerate();
    let header = lines.next().map(|l| l.1).unwrap_or_default();
    if !header.starts_with(expect) {
        return Err(usage!(
            "{}: {name} does not start with the header {expect}",
            dir.display()
        ));
    }
    let split = |l: &str| l.split(',').map(str::to_string).collect::<Vec<_>>();
    Ok((
        split(header),
        lines.map(|(i, l)| (i + 1, split(l))).collect(),
    ))
}

fn parse_u64(
    rec: &[String],
    col: usize,
    line: usize,
    dir: &Path,
    name: &str,
) -> Result<u64, UsageError> {
    rec.get(col).and_then(|s| s.parse().ok()).ok_or_else(|| {
        usage!(
            "{}: {name} line {line}, column {}: not a whole number",
            dir.display(),
            col + 1
        )
    })
}

fn read_histogram(text: &str, tally: &mut Tally, dir: &Path) -> Result<(), UsageError> {
    let (header, rows) = csv_rows(text, "rounds,count", dir, "histogram.csv")?;
    let players = tally.players;
    let slots: Vec<usize> = header[2..]
        .iter()
        .map(|name| {
            Outcome::parse(name, players)
                .map(|o| o.slot(players))
                .ok_or_else(|| {
                    usage!(
                        "{}: histogram.csv has an unknown outcome column {name:?}",
                        dir.display()
                    )
                })
        })
        .collect::<Result<_, _>>()?;
    for (line, rec) in rows {
        let rounds = parse_u64(&rec, 0, line, dir, "histogram.csv")?;
        let count = parse_u64(&rec, 1, line, dir, "histogram.csv")?;
        let mut sum = 0;
        for (i, &slot) in slots.iter().enumerate() {
            let n = parse_u64(&rec, i + 2, line, dir, "histogram.csv")?;
            tally.rounds.add(rounds, slot, n);
            sum += n;
        }
        if sum != count {
            return Err(usage!(
                "{}: histogram.csv line {line}: outcome columns add up to {sum}, count is {count}",
                dir.display()
            ));
        }
    }
    Ok(())
}

/// Reads the outputs in `dirs` one at a time, checks that they are the disjoint shards of one
/// run covering it whole, and adds them. Memory grows with the histogram, not with the number
/// of shards: each shard's tally is added and dropped as soon as it is read.
pub fn merge(dirs: &[PathBuf]) -> Result<(RunInfo, Tally, Timing), UsageError> {
    let (first_dir, rest) = dirs
        .split_first()
        .ok_or_else(|| usage!("merge needs at least one directory"))?;
    let first = load(first_dir)?;
    let base = first.info.clone();
    let mut spans = vec![(base.range.clone(), first.dir)];
    let mut elapsed = first.elapsed_s;
    let mut tally = first.tally;
    for dir in rest {
        let p = load(dir)?;
        let i = &p.info;
        let what = if i.game != base.game {
            Some(format!("game {} (expected {})", i.game, base.game))
        } else if i.rules != base.rules {
            Some(format!("rules {} (expected {})", i.rules, base.rules))
        } else if i.seed != base.seed {
            Some(format!("seed {} (expected {})", i.seed, base.seed))
        } else if i.games_total != base.games_total {
            Some(format!(
                "a run of {} games (expected {})",
                i.games_total, base.games_total
            ))
        } else {
            None
        };
        if let Some(what) = what {
            return Err(usage!(
                "{} is foreign: {what}, as in {}",
                p.dir.display(),
                first_dir.display()
            ));
        }
        spans.push((p.info.range.clone(), p.dir));
        elapsed += p.elapsed_s;
        tally = tally.merge(p.tally);
    }
    spans.sort_by_key(|(r, _)| (r.start, r.end));
    let mut next = 0u64;
    for (k, (r, dir)) in spans.iter().enumerate() {
        if r.start < next {
            return Err(usage!(
                "{} duplicates games {}..{} of {}",
                dir.display(),
                r.start,
                next.min(r.end),
                spans[k - 1].1.display()
            ));
        }
        if r.start > next {
            return Err(missing(&base, next, r.start));
        }
        next = r.end;
    }
    if next < base.games_total {
        return Err(missing(&base, next, base.games_total));
    }
    let count = spans.len();
    let info = RunInfo {
        range: 0..base.games_total,
        shard: None,
        ..base
    };
    let timing = Timing {
        elapsed_s: elapsed,
        threads: None,
        note: Some(format!(
            "elapsed_s is the sum of the {count} shards' elapsed_s (compute time, not wall time); \
             games_per_s = games / that sum"
        )),
    };
    Ok((info, tally, timing))
}

/// The error for games `from..to` that no shard covers, naming the shard when they are one.
fn missing(base: &RunInfo, from: u64, to: u64) -> UsageError {
    if let Some(n) = base.shard.map(|s| s.count) {
        let names: Vec<String> = (0..n)
            .map(|k| Shard { index: k, count: n })
            .filter(|s| {
                let r = s.range(base.games_total);
                r.start >= from && r.end <= to && r.start < r.end
            })
            .map(|s| s.to_string())
            .collect();
        if !names.is_empty() {
            return usage!(
                "shard {} missing: no directory covers games {from}..{to}",
                names.join(", ")
            );
        }
    }
    usage!("games {from}..{to} missing: no directory covers them")
}
