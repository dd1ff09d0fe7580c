//! `warsim merge`: reads shard outputs back and adds them exactly.
//!
//! A shard's `summary.json` records the run it belongs to (game, rules, seed, total games) and
//! the game indices it covers; its `histogram.csv` and `cycles.csv` hold the exact counts. Merge
//! checks that the shards belong to one run, are disjoint and cover it whole before it adds
//! anything, so a missing, duplicated or foreign shard is refused by name.

use std::ops::Range;
use std::path::{Path, PathBuf};

use crate::error::UsageError;
use crate::games::{Game, GameStats, Outcome};
use crate::output::reader;
use crate::output::report::{RunInfo, Timing};
use crate::output::summary::{histogram_digest, GroupJson, Summary};
use crate::sim::shard::Shard;
use crate::stats::histogram::{RoundHistogram, Tally};
use crate::stats::summary::Named;
use crate::usage;

/// One run output read back.
#[derive(Debug)]
pub struct Part<G: Game> {
    /// Where it was read from.
    pub dir: PathBuf,
    /// The game its rules describe, built by the game's own option checks.
    pub game: G,
    /// Its run description.
    pub info: RunInfo,
    /// Its counts.
    pub tally: Tally<G::Stats>,
    /// Its `elapsed_s`.
    pub elapsed_s: f64,
}

/// The game of a run read back that a replay plays (`replay`, `play war --from`).
#[derive(Clone, Copy, Debug)]
pub struct Replaying {
    /// Its index in the run.
    pub index: u64,
    /// Whether game `index` is deal number `index` (a run of `exact`), not the game drawn from
    /// (seed, index).
    pub deal: bool,
    /// The rounds the run records for it, when it is the run's longest.
    pub said: Option<u64>,
}

impl<G: Game> Part<G> {
    /// The game a replay plays: `game`, or by default the run's longest, whose rounds the run
    /// records.
    pub fn replaying(&self, game: Option<u64>) -> Result<Replaying, UsageError> {
        let total = self.info.games_total;
        let longest = self.tally.longest;
        let index = game.or(longest.map(|(_, i)| i)).unwrap_or(0);
        if index >= total {
            return Err(usage!(
                "{}: the run has {total} games; --game {index} is not one",
                self.dir.display()
            ));
        }
        Ok(Replaying {
            index,
            deal: self
                .info
                .exact
                .as_ref()
                .is_some_and(|e| e.get("deals").is_some()),
            said: longest.filter(|_| game.is_none()).map(|(rounds, _)| rounds),
        })
    }
}

impl Replaying {
    /// Refuses a replay of the run's longest game that does not end after the rounds the run
    /// records: its summary was edited, or another warsim version dealt its games otherwise.
    pub fn check(&self, dir: &Path, rounds: u64) -> Result<(), UsageError> {
        match self.said {
            Some(said) if said != rounds => Err(usage!(
                "{}: its longest game, {}, ends after {rounds} rounds, the run says {said}: the \
                 summary was edited, or another warsim version wrote it",
                dir.display(),
                self.index
            )),
            _ => Ok(()),
        }
    }
}

/// The summary.json of `dir`, bounded and with every string checked ([`reader`]).
fn read_summary(dir: &Path) -> Result<serde_json::Value, UsageError> {
    if !dir.join("summary.json").exists() {
        let d = dir.display();
        let other = [
            (
                "sweep.json",
                format!("is a sweep; name one of its rule-set folders ({d}/NAME)"),
            ),
            (
                "chain.json",
                "holds an exact Markov-chain answer (chain.json), no games".into(),
            ),
            (
                "flawless.json",
                "holds the flawless game's probability (flawless.json), no games".into(),
            ),
            (
                "compare.json",
                "holds a comparison of runs (compare.json), no games".into(),
            ),
        ];
        if let Some((_, what)) = other.iter().find(|(f, _)| dir.join(f).is_file()) {
            return Err(usage!("{d} {what}"));
        }
    }
    let text = reader::read_text(dir, "summary.json", reader::MAX_JSON_BYTES)?;
    reader::parse_json(&text, dir, "summary.json")
}

/// A CSV file of `dir`, bounded.
fn read_csv(dir: &Path, name: &str) -> Result<String, UsageError> {
    reader::read_text(dir, name, reader::MAX_CSV_BYTES)
}

/// The game whose output `dir` holds, so the caller can read it as that game's.
pub fn game_of(dir: &Path) -> Result<String, UsageError> {
    match &read_summary(dir)?["game"] {
        serde_json::Value::String(g) => Ok(g.clone()),
        _ => Err(usage!("{}: summary.json names no game", dir.display())),
    }
}

/// Most groups a run read back may have (War's `--by p1-top` has one more than the suits).
const MAX_GROUPS: usize = 64;

/// Most players any game has (outcome slots are indexed by a `u8` player number).
const MAX_PLAYERS: usize = 255;

/// Reads the output in `dir`, written by a run of game `G`, and checks it against itself and
/// against the game: the rules pass the game's own option checks, the players are the game's,
/// the histogram is the one the summary describes (digest), counts add up to the games and to
/// the slice of the run, rounds lie within the rules' cap, every sum is checked and every time
/// finite. Nothing is allocated on a file's word alone. `merge`, `compare` and `play --from`
/// read runs through it.
pub fn load<G: Game>(dir: &Path) -> Result<Part<G>, UsageError> {
    let d = dir.display();
    let value = read_summary(dir)?;
    if value["game"] != G::NAME {
        return Err(usage!(
            "{d}: a run of {}, not of {}",
            value["game"],
            G::NAME
        ));
    }
    let v: Summary<<G::Stats as GameStats>::Json> =
        serde_json::from_value(value).map_err(|e| usage!("{d}: summary.json: {e}"))?;
    let game = crate::games::from_rules::<G>(&v.rules)
        .map_err(|e| usage!("{d}: summary.json rules: {e}"))?;
    if v.players != game.players() || !(1..=MAX_PLAYERS).contains(&v.players) {
        return Err(usage!(
            "{d}: summary.json says {} players; its rules have {}",
            v.players,
            game.players()
        ));
    }
    if !(v.elapsed_s.is_finite() && v.elapsed_s >= 0.0) {
        return Err(usage!(
            "{d}: summary.json: elapsed_s {} is not a time",
            v.elapsed_s
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
    let text = read_csv(dir, "histogram.csv")?;
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
    let mut tally = Tally::<G::Stats>::new(info.players);
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
    tally.stats = <G::Stats as GameStats>::from_json(v.stats, games)
        .map_err(|e| usage!("{d}: summary.json: {e}"))?;
    if info.detects_loops {
        read_cycles(&read_csv(dir, "cycles.csv")?, &mut tally, cap, dir)?;
    }
    if let Some(by) = &v.by {
        read_groups(&read_csv(dir, "by.csv")?, &mut tally, by, cap, dir)?;
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
        game,
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
    for row in rows {
        let (line, rec) = row?;
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

/// The data rows of a CSV file after its header, read one at a time with the `csv` crate:
/// memory holds one row, whatever the file's size. Rows may have any length; the callers
/// check them.
struct CsvRows<'a> {
    records: csv::StringRecordsIntoIter<&'a [u8]>,
    dir: &'a Path,
    name: &'static str,
}

/// The longest line a CSV file warsim writes can have: a group, a round count, a count and
/// one count per outcome of at most 255 players, each at most 20 digits.
const MAX_ROW_BYTES: usize = 8 << 10;

/// The header of a CSV file, which must start with `expect`, and its [`CsvRows`]. A line longer
/// than [`MAX_ROW_BYTES`] is refused before it is parsed: a row's fields cost memory apiece.
fn csv_rows<'a>(
    text: &'a str,
    expect: &str,
    dir: &'a Path,
    name: &'static str,
) -> Result<(csv::StringRecord, CsvRows<'a>), UsageError> {
    if let Some(n) = text.split('\n').position(|l| l.len() > MAX_ROW_BYTES) {
        return Err(usage!(
            "{}: {name} line {} is longer than {MAX_ROW_BYTES} bytes",
            dir.display(),
            n + 1
        ));
    }
    let mut records = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(text.as_bytes())
        .into_records();
    let header = match records.next() {
        Some(r) => r.map_err(|e| usage!("{}: {name}: {e}", dir.display()))?,
        None => csv::StringRecord::new(),
    };
    if !header
        .iter()
        .collect::<Vec<_>>()
        .join(",")
        .starts_with(expect)
    {
        return Err(usage!(
            "{}: {name} does not start with the header {expect}",
            dir.display()
        ));
    }
    Ok((header, CsvRows { records, dir, name }))
}

impl Iterator for CsvRows<'_> {
    /// A row and its line number.
    type Item = Result<(usize, csv::StringRecord), UsageError>;

    fn next(&mut self) -> Option<Self::Item> {
        let r = self.records.next()?;
        Some(
            r.map(|r| (r.position().map_or(0, |p| p.line() as usize), r))
                .map_err(|e| usage!("{}: {}: {e}", self.dir.display(), self.name)),
        )
    }
}

fn parse_u64(
    rec: &csv::StringRecord,
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
    let slots = outcome_slots(header.iter().skip(2), tally.players, dir, "histogram.csv")?;
    let mut counted = CountRows::new(dir, "histogram.csv", cap);
    for row in rows {
        let (line, rec) = row?;
        read_row(&rec, 0, &slots, line, &mut counted, &mut tally.rounds)?;
    }
    tally.games = counted.total;
    Ok(())
}

/// The outcome slots of a histogram's outcome columns, each named once.
fn outcome_slots<'a>(
    names: impl Iterator<Item = &'a str>,
    players: usize,
    dir: &Path,
    file: &'static str,
) -> Result<Vec<usize>, UsageError> {
    let slots: Vec<usize> = names
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

/// Adds one row `rounds,count,<outcome counts>` (the columns of `rec` from `first` on, whose
/// outcome columns are `slots`) to `hist`, checked by `counted`.
fn read_row(
    rec: &csv::StringRecord,
    first: usize,
    slots: &[usize],
    line: usize,
    counted: &mut CountRows,
    hist: &mut RoundHistogram,
) -> Result<(), UsageError> {
    let (dir, file) = (counted.dir, counted.name);
    let d = dir.display();
    if rec.len() != first + slots.len() + 2 {
        return Err(usage!(
            "{d}: {file} line {line} has {} columns, the header {}",
            rec.len(),
            first + slots.len() + 2
        ));
    }
    let rounds = parse_u64(rec, first, line, dir, file)?;
    let count = parse_u64(rec, first + 1, line, dir, file)?;
    counted.check(line, rounds, count)?;
    let mut sum = 0u64;
    for (i, &slot) in slots.iter().enumerate() {
        let n = parse_u64(rec, first + i + 2, line, dir, file)?;
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
    let slots = outcome_slots(header.iter().skip(3), tally.players, dir, "by.csv")?;
    let mut current: Option<(u64, CountRows)> = None;
    let mut totals: Vec<(u64, u64)> = Vec::new();
    for row in rows {
        let (line, rec) = row?;
        let g = parse_u64(&rec, 0, line, dir, "by.csv")?;
        // Only the groups summary.json lists, and few of them: each group's histogram costs
        // memory, so a file may not make up thousands.
        if said.0.len() > MAX_GROUPS || !said.0.iter().any(|(k, _)| *k == g.to_string()) {
            return Err(usage!(
                "{d}: by.csv line {line}: group {g} is not one of the at most {MAX_GROUPS} groups \
                 summary.json lists"
            ));
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
        read_row(&rec, 1, &slots, line, counted, tally.group_mut(g as usize))?;
    }
    if let Some((cg, c)) = current {
        totals.push((cg, c.total));
    }
    let sum = totals
        .iter()
        .try_fold(0u64, |a, t| a.checked_add(t.1))
        .ok_or_else(|| usage!("{d}: by.csv counts overflow"))?;
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
    // Every game is in one group: the groups add up to histogram.csv, row by row.
    let mut all = RoundHistogram::new(tally.rounds.slots());
    for h in &tally.groups {
        all.merge(h).map_err(|e| usage!("{d}: by.csv: {e}"))?;
    }
    if !all.rows().eq(tally.rounds.rows()) {
        return Err(usage!(
            "{d}: by.csv's groups do not add up to histogram.csv"
        ));
    }
    Ok(())
}

/// Reads the outputs in `dirs` one at a time, checks that they are the disjoint shards of one
/// run covering it whole, and adds them. Memory grows with the histogram, not with the number
/// of shards: each shard's tally is added and dropped as soon as it is read.
pub fn merge<G: Game>(dirs: &[PathBuf]) -> Result<(RunInfo, Tally<G::Stats>, Timing), UsageError> {
    let (first_dir, rest) = dirs
        .split_first()
        .ok_or_else(|| usage!("merge needs at least one directory"))?;
    let first = load::<G>(first_dir)?;
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
        let p = load::<G>(dir)?;
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
        tally = tally
            .merge(p.tally)
            .map_err(|e| usage!("{}: {e} when added to the shards before it", dir.display()))?;
    }
    if !elapsed.is_finite() {
        return Err(usage!(
            "the shards' elapsed_s add up to more than a number holds"
        ));
    }
    spans.sort_by_key(|(r, _)| (r.start, r.end));
    let mut next = 0u64;
    let mut gaps = Vec::new();
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
            gaps.push(next..r.start);
        }
        next = r.end;
    }
    if next < base.games_total {
        gaps.push(next..base.games_total);
    }
    if !gaps.is_empty() {
        return Err(missing(&base, &gaps));
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

/// The error for games that no shard covers: each gap as its shards (when the run was
/// sharded) and its games, a few gaps named and the rest counted. Arithmetic on the gaps'
/// ends only, so a run of 10^12 shards answers at once.
fn missing(base: &RunInfo, gaps: &[Range<u64>]) -> UsageError {
    const NAMED: usize = 4;
    let total = base.games_total;
    let mut said: Vec<String> = gaps
        .iter()
        .take(NAMED)
        .map(
            |g| match base.shard.map(|s| shards_within(total, s.count, g)) {
                Some(Some(k)) if k.end - k.start == 1 => {
                    format!(
                        "shard {}/{} (games {}..{})",
                        k.start,
                        base.shard.map_or(1, |s| s.count),
                        g.start,
                        g.end
                    )
                }
                Some(Some(k)) => format!(
                    "shards {}..{} of {} (games {}..{})",
                    k.start,
                    k.end,
                    base.shard.map_or(1, |s| s.count),
                    g.start,
                    g.end
                ),
                _ => format!("games {}..{}", g.start, g.end),
            },
        )
        .collect();
    if gaps.len() > NAMED {
        said.push(format!("and {} more gaps", gaps.len() - NAMED));
    }
    usage!("missing: {}; no directory covers them", said.join(", "))
}

/// The shards `k` of a run of `total` games cut into `n` whose games make up `games` exactly,
/// or `None` if the gap does not fall on shard boundaries.
fn shards_within(total: u64, n: u64, games: &Range<u64>) -> Option<Range<u64>> {
    if total == 0 {
        return None;
    }
    let cut = |k: u64| Shard { index: 0, count: n }.range_start(k, total);
    // The first shard starting at or after a game: k = ceil(game·n / total), then exact.
    let first_at = |game: u64| -> u64 {
        let mut k = (u128::from(game) * u128::from(n)).div_ceil(u128::from(total)) as u64;
        while k > 0 && cut(k - 1) >= game {
            k -= 1;
        }
        while k < n && cut(k) < game {
            k += 1;
        }
        k
    };
    let (lo, hi) = (first_at(games.start), first_at(games.end));
    (lo < hi && cut(lo) == games.start && cut(hi) == games.end).then_some(lo..hi)
}
