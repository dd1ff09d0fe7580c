//! `warsim merge`: reads shard outputs back and adds them exactly.
//!
//! A shard's `summary.json` records the run it belongs to (game, rules, seed, total games) and
//! the game indices it covers; its `histogram.csv` and `cycles.csv` hold the exact counts. Merge
//! checks that the shards belong to one run, are disjoint and cover it whole before it adds
//! anything, so a missing, duplicated or foreign shard is refused by name.

use std::fs;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::error::UsageError;
use crate::games::{GameStats, Outcome};
use crate::output::report::{RunInfo, Timing};
use crate::output::summary::Summary;
use crate::sim::shard::Shard;
use crate::stats::histogram::Tally;
use crate::usage;

/// One shard output read back.
#[derive(Debug)]
pub struct Part<S> {
    /// Where it was read from.
    pub dir: PathBuf,
    /// Its run description.
    pub info: RunInfo,
    /// Its counts.
    pub tally: Tally<S>,
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

/// The game whose output `dir` holds, so the caller can read it as that game's.
pub fn game_of(dir: &Path) -> Result<String, UsageError> {
    #[derive(Deserialize)]
    struct Header {
        game: String,
    }
    let h: Header = serde_json::from_str(&read(dir, "summary.json")?)
        .map_err(|e| usage!("{}: summary.json: {e}", dir.display()))?;
    Ok(h.game)
}

/// Reads the output in `dir`, written by a run of a game whose statistics are `S`.
pub fn load<S: GameStats>(dir: &Path) -> Result<Part<S>, UsageError> {
    let d = dir.display();
    let v: Summary<S::Json> = serde_json::from_str(&read(dir, "summary.json")?)
        .map_err(|e| usage!("{d}: summary.json: {e}"))?;
    let shard = match &v.run.shard {
        None => None,
        Some(s) => Some(
            s.parse::<Shard>()
                .map_err(|e| usage!("{d}: run.shard {e}"))?,
        ),
    };
    let info = RunInfo {
        game: v.game,
        description: v.description,
        rules: v.rules,
        seed: v.seed,
        players: v.players,
        games_total: v.run.games_total,
        range: v.run.first_game..v.run.end_game,
        shard,
        detects_loops: v.loops.is_some(),
        exact: v.exact,
    };
    let mut tally = Tally::<S>::new(info.players);
    read_histogram(&read(dir, "histogram.csv")?, &mut tally, dir)?;
    tally.games = tally.rounds.outcome_totals().iter().sum();
    tally.stats = S::from_json(v.stats, v.games).map_err(|e| usage!("{d}: summary.json: {e}"))?;
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
    let games = v.games;
    if tally.games != games || info.range.end.checked_sub(info.range.start) != Some(games) {
        return Err(usage!(
            "{d}: the histogram counts {} games, summary.json says {games} over games {}..{}",
            tally.games,
            info.range.start,
            info.range.end
        ));
    }
    if games > 0 {
        tally.longest = Some((v.longest_rounds, v.longest_game));
    }
    Ok(Part {
        dir: dir.to_path_buf(),
        info,
        tally,
        elapsed_s: v.elapsed_s,
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

fn read_histogram<S: GameStats>(
    text: &str,
    tally: &mut Tally<S>,
    dir: &Path,
) -> Result<(), UsageError> {
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
pub fn merge<S: GameStats>(dirs: &[PathBuf]) -> Result<(RunInfo, Tally<S>, Timing), UsageError> {
    let (first_dir, rest) = dirs
        .split_first()
        .ok_or_else(|| usage!("merge needs at least one directory"))?;
    let first = load::<S>(first_dir)?;
    let base = first.info.clone();
    let mut spans = vec![(base.range.clone(), first.dir)];
    let mut elapsed = first.elapsed_s;
    let mut tally = first.tally;
    for dir in rest {
        let game = game_of(dir)?;
        if game != base.game {
            return Err(usage!(
                "{} is foreign: game {game} (expected {}), as in {}",
                dir.display(),
                base.game,
                first_dir.display()
            ));
        }
        let p = load::<S>(dir)?;
        let i = &p.info;
        let what = if i.rules != base.rules {
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
