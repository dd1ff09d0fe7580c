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
use crate::output::summary::{histogram_digest, GroupJson, Summary};
use crate::sim::shard::Shard;
use crate::stats::histogram::{RoundHistogram, Tally};
use crate::stats::summary::Named;
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

/// Most players any game has (outcome slots are indexed by a `u8` player number).
const MAX_PLAYERS: usize = 255;

/// Reads the output in `dir`, written by a run of a game whose statistics are `S`, and checks
/// it against itself: the histogram is the one the summary describes (digest), counts add up
/// to the games and to the slice of the run, rounds lie within the rules' cap, and every sum is
/// checked. Nothing is allocated on a file's word alone.
pub fn load<S: GameStats>(dir: &Path) -> Result<Part<S>, UsageError> {
    let d = dir.display();
    let v: Summary<S::Json> = serde_json::from_str(&read(dir, "summary.json")?)
        .map_err(|e| usage!("{d}: summary.json: {e}"))?;
    if !(1..=MAX_PLAYERS).contains(&v.players) {
        return Err(usage!(
            "{d}: summary.json says {} players; a game has 1 to {MAX_PLAYERS}",
            v.players
        ));
    }
    let range = v.run.first_game..v.run.end_game;
    if range.start > range.end || range.end > v.run.games_total {
        return Err(usage!(
            "{d}: summary.json covers games {}..{} of a run of {}",
            range.start,
            range.end,
            v.run.games_total
        ));
    }
    let shard = match &v.run.shard {
        None => None,
        Some(s) => {
            let shard = s
                .parse::<Shard>()
                .map_err(|e| usage!("{d}: run.shard {e}"))?;
            if shard.range(v.run.games_total) != range {
                return Err(usage!(
                    "{d}: shard {shard} of {} games is not games {}..{}",
                    v.run.games_total,
                    range.start,
                    range.end
                ));
            }
            Some(shard)
        }
    };
    let info = RunInfo {
        game: v.game,
        description: v.description,
        rules: v.rules,
        seed: v.seed,
        players: v.players,
        games_total: v.run.games_total,
        range,
        shard,
        detects_loops: v.loops.is_some(),
        exact: v.exact,
        precision: v.precision,
        grouping: v.grouping,
        exhaustive: false,
    };
    let text = read(dir, "histogram.csv")?;
    let digest = histogram_digest(text.as_bytes());
    if v.histogram_digest.as_deref() != Some(digest.as_str()) {
        return Err(usage!(
            "{d}: histogram.csv is not the histogram summary.json describes (its digest is {digest}, \
             summary.json records {})",
            v.histogram_digest.as_deref().unwrap_or("none")
        ));
    }
    // Rounds are at least 1 and at most the rules' cap, where the rules have one.
    let cap = info.rules.get("max_rounds").and_then(|m| m.as_u64());
    let mut tally = Tally::<S>::new(info.players);
    read_histogram(&text, &mut tally, cap, dir)?;
    let games = v.games;
    if tally.games != games || info.range.end - info.range.start != games {
        return Err(usage!(
            "{d}: the histogram counts {} games, summary.json says {games} over games {}..{}",
            tally.games,
            info.range.start,
            info.range.end
        ));
    }
    for (o, n) in tally.outcomes() {
        let said = v.outcomes.get(&o.name()).copied().unwrap_or(0);
        if said != n {
            return Err(usage!(
                "{d}: the histogram counts {n} games of outcome {}, summary.json {said}",
                o.name()
            ));
        }
    }
    tally.stats = S::from_json(v.stats, games).map_err(|e| usage!("{d}: summary.json: {e}"))?;
    if info.detects_loops {
        read_cycles(&read(dir, "cycles.csv")?, &mut tally, cap, dir)?;
    }
    if let Some(by) = &v.by {
        read_groups(&read(dir, "by.csv")?, &mut tally, by, cap, dir)?;
    }
    if games > 0 {
        let max = tally.rounds.rows().last().map_or(0, |(r, _)| r);
        if v.longest_rounds != max || !info.range.contains(&v.longest_game) {
            return Err(usage!(
                "{d}: longest game {} of {} rounds: the histogram's longest has {max} rounds \
                 and the shard holds games {}..{}",
                v.longest_game,
                v.longest_rounds,
                info.range.start,
                info.range.end
            ));
        }
        tally.longest = Some((v.longest_rounds, v.longest_game));
    }
    Ok(Part {
        dir: dir.to_path_buf(),
        info,
        tally,
        elapsed_s: v.elapsed_s,
    })
}

/// The rows of a file of counts (`KEY,count,...`: rounds, or cycle lengths), checked one at a
/// time: keys from 1, strictly ascending and within the rules' cap; counts non-zero, and their
/// total without overflow.
struct CountRows<'a> {
    dir: &'a Path,
    name: &'static str,
    cap: Option<u64>,
    last: u64,
    total: u64,
}

impl<'a> CountRows<'a> {
    fn new(dir: &'a Path, name: &'static str, cap: Option<u64>) -> Self {
        CountRows {
            dir,
            name,
            cap,
            last: 0,
            total: 0,
        }
    }

    fn check(&mut self, line: usize, key: u64, count: u64) -> Result<(), UsageError> {
        let (d, name, cap) = (self.dir.display(), self.name, self.cap);
        if key <= self.last || cap.is_some_and(|c| key > c) || count == 0 {
            return Err(usage!(
                "{d}: {name} line {line}: {key} with {count} games is out of order, repeated, \
                 beyond the cap of {} or empty",
                cap.map_or("none".to_string(), |c| c.to_string())
            ));
        }
        self.last = key;
        self.total = self
            .total
            .checked_add(count)
            .ok_or_else(|| usage!("{d}: {name} counts overflow"))?;
        Ok(())
    }
}

fn read_cycles<S: GameStats>(
    text: &str,
    tally: &mut Tally<S>,
    cap: Option<u64>,
    dir: &Path,
) -> Result<(), UsageError> {
    let (_, rows) = csv_rows(text, "cycle_len,count", dir, "cycles.csv")?;
    let mut counted = CountRows::new(dir, "cycles.csv", cap);
    for (line, rec) in rows {
        let len = parse_u64(&rec, 0, line, dir, "cycles.csv")?;
        let n = parse_u64(&rec, 1, line, dir, "cycles.csv")?;
        counted.check(line, len, n)?;
        tally.cycles.insert(len, n);
    }
    let total = counted.total;
    let d = dir.display();
    let loops = tally
        .outcomes()
        .iter()
        .find(|(o, _)| *o == Outcome::Loop)
        .map_or(0, |x| x.1);
    if total != loops {
        return Err(usage!(
            "{d}: cycles.csv counts {total} looping games, histogram.csv {loops}"
        ));
    }
    Ok(())
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
    cap: Option<u64>,
    dir: &Path,
) -> Result<(), UsageError> {
    let (header, rows) = csv_rows(text, "rounds,count", dir, "histogram.csv")?;
    let slots = outcome_slots(&header[2..], tally.players, dir, "histogram.csv")?;
    let mut counted = CountRows::new(dir, "histogram.csv", cap);
    for (line, rec) in rows {
        read_row(&rec, &slots, line, &mut counted, &mut tally.rounds)?;
    }
    tally.games = counted.total;
    Ok(())
}

/// The outcome slots of a histogram's outcome columns, each named once.
fn outcome_slots(
    names: &[String],
    players: usize,
    dir: &Path,
    file: &'static str,
) -> Result<Vec<usize>, UsageError> {
    let slots: Vec<usize> = names
        .iter()
        .map(|name| {
            Outcome::parse(name, players)
                .map(|o| o.slot(players))
                .ok_or_else(|| {
                    usage!(
                        "{}: {file} has an unknown outcome column {name:?}",
                        dir.display()
                    )
                })
        })
        .collect::<Result<_, _>>()?;
    let mut distinct = slots.clone();
    distinct.sort_unstable();
    distinct.dedup();
    if distinct.len() != slots.len() {
        return Err(usage!(
            "{}: {file} names an outcome column twice",
            dir.display()
        ));
    }
    Ok(slots)
}

/// Adds one row `rounds,count,<outcome counts>` (as `rec`, whose outcome columns are `slots`)
/// to `hist`, checked by `counted`.
fn read_row(
    rec: &[String],
    slots: &[usize],
    line: usize,
    counted: &mut CountRows,
    hist: &mut RoundHistogram,
) -> Result<(), UsageError> {
    let (dir, file) = (counted.dir, counted.name);
    let d = dir.display();
    if rec.len() != slots.len() + 2 {
        return Err(usage!(
            "{d}: {file} line {line} has {} columns, the header {}",
            rec.len(),
            slots.len() + 2
        ));
    }
    let rounds = parse_u64(rec, 0, line, dir, file)?;
    let count = parse_u64(rec, 1, line, dir, file)?;
    counted.check(line, rounds, count)?;
    let mut sum = 0u64;
    for (i, &slot) in slots.iter().enumerate() {
        let n = parse_u64(rec, i + 2, line, dir, file)?;
        sum = sum
            .checked_add(n)
            .ok_or_else(|| usage!("{d}: {file} line {line}: counts overflow"))?;
        hist.add(rounds, slot, n);
    }
    if sum != count {
        return Err(usage!(
            "{d}: {file} line {line}: outcome columns add up to {sum}, count is {count}"
        ));
    }
    Ok(())
}

/// Reads by.csv (`group,rounds,count,<outcomes>`: each group's histogram, groups ascending)
/// into `tally.groups`, and checks that the groups hold every game exactly once and agree with
/// summary.json's `by`.
fn read_groups<S: GameStats>(
    text: &str,
    tally: &mut Tally<S>,
    said: &Named<GroupJson>,
    cap: Option<u64>,
    dir: &Path,
) -> Result<(), UsageError> {
    let d = dir.display();
    let (header, rows) = csv_rows(text, "group,rounds,count", dir, "by.csv")?;
    let slots = outcome_slots(&header[3..], tally.players, dir, "by.csv")?;
    let mut current: Option<(u64, CountRows)> = None;
    let mut totals: Vec<(u64, u64)> = Vec::new();
    for (line, rec) in rows {
        let g = parse_u64(&rec, 0, line, dir, "by.csv")?;
        if g > u64::from(u16::MAX) {
            return Err(usage!("{d}: by.csv line {line}: group {g} is out of range"));
        }
        match &mut current {
            Some((cg, _)) if *cg == g => {}
            Some((cg, _)) if *cg > g => {
                return Err(usage!(
                    "{d}: by.csv line {line}: group {g} after group {cg}"
                ));
            }
            _ => {
                if let Some((cg, c)) = current.take() {
                    totals.push((cg, c.total));
                }
                current = Some((g, CountRows::new(dir, "by.csv", cap)));
            }
        }
        let (_, counted) = current.as_mut().expect("set above");
        read_row(
            &rec[1..],
            &slots,
            line,
            counted,
            tally.group_mut(g as usize),
        )?;
    }
    if let Some((cg, c)) = current {
        totals.push((cg, c.total));
    }
    let sum: u64 = totals.iter().map(|t| t.1).sum();
    let names: Vec<String> = totals.iter().map(|t| t.0.to_string()).collect();
    let expected: Vec<&String> = said.0.iter().map(|(k, _)| k).collect();
    if sum != tally.games || names.iter().collect::<Vec<_>>() != expected {
        return Err(usage!(
            "{d}: by.csv holds {sum} games in groups {names:?}; the run has {} games, summary.json \
             groups {expected:?}",
            tally.games
        ));
    }
    for ((g, n), (_, j)) in totals.iter().zip(&said.0) {
        if *n != j.games {
            return Err(usage!(
                "{d}: by.csv counts {n} games in group {g}, summary.json {}",
                j.games
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
        } else if i.players != base.players {
            Some(format!("{} players (expected {})", i.players, base.players))
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

/// Refuses an `out` that is one of the input directories: writing it would replace a shard
/// while it is being read.
pub fn check_out(dirs: &[PathBuf], out: &Path) -> Result<(), UsageError> {
    let Ok(out_real) = fs::canonicalize(out) else {
        return Ok(()); // not there yet, so it is no input
    };
    for dir in dirs {
        if fs::canonicalize(dir).is_ok_and(|d| d == out_real) {
            return Err(usage!(
                "--out {} is one of the shards being merged; write the merge elsewhere",
                out.display()
            ));
        }
    }
    Ok(())
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
