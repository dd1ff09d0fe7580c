//! The count files of a run folder (histogram.csv, cycles.csv, by.csv) read back row by row:
//! every key, count and sum checked against the summary and the rules, one row in memory at a
//! time, nothing allocated on a file's word alone.

use std::path::Path;

use super::summary::GroupJson;
use crate::error::UsageError;
use crate::games::{GameStats, Outcome};
use crate::stats::histogram::{RoundHistogram, Tally};
use crate::stats::summary::Named;
use crate::usage;

/// Most groups a run read back may have: a game's group is a `u16` ([`GameStats::group`]), so
/// every run warsim writes (War's `--by p1-top` has one group more than the suits, up to
/// thousands) is read back.
const MAX_GROUPS: usize = 1 << 16;

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

pub(super) fn read_cycles<S: GameStats>(
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

pub(super) fn read_histogram<S: GameStats>(
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
pub(super) fn read_groups<S: GameStats>(
    text: &str,
    tally: &mut Tally<S>,
    said: &Named<GroupJson>,
    (cap, groups): (Option<u64>, u64),
    dir: &Path,
) -> Result<(), UsageError> {
    let d = dir.display();
    let (header, rows) = csv_rows(text, "group,rounds,count", dir, "by.csv")?;
    let slots = outcome_slots(header.iter().skip(3), tally.players, dir, "by.csv")?;
    if said.0.len() > MAX_GROUPS {
        return Err(usage!(
            "{d}: summary.json lists {} groups; a run has at most {MAX_GROUPS}",
            said.0.len()
        ));
    }
    let listed: std::collections::BTreeSet<&str> = said.0.iter().map(|(k, _)| k.as_str()).collect();
    let mut current: Option<(u64, CountRows)> = None;
    let mut totals: Vec<(u64, u64)> = Vec::new();
    for row in rows {
        let (line, rec) = row?;
        let g = parse_u64(&rec, 0, line, dir, "by.csv")?;
        // Only the groups summary.json lists: each group's histogram costs memory, so a file
        // may not make up others.
        if g >= groups {
            return Err(usage!(
                "{d}: by.csv line {line}: group {g}, but its rules make groups 0..{groups} only"
            ));
        }
        if !listed.contains(g.to_string().as_str()) {
            return Err(usage!(
                "{d}: by.csv line {line}: group {g} is not one of the groups summary.json lists"
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
    groups_agree(tally, said, &totals, dir)
}

/// The groups' games (`totals`: each group and its games, as by.csv counts them) are the
/// run's and summary.json's, group by group, and the groups' histograms add up to
/// histogram.csv row by row: every game is in one group.
fn groups_agree<S: GameStats>(
    tally: &Tally<S>,
    said: &Named<GroupJson>,
    totals: &[(u64, u64)],
    dir: &Path,
) -> Result<(), UsageError> {
    let d = dir.display();
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
