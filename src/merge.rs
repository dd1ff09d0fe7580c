//! `warsim merge`: adds shard outputs, read back through [`crate::model::load`], exactly.
//!
//! A shard's `summary.json` records the run it belongs to (game, rules, seed, total games) and
//! the game indices it covers; its `histogram.csv` and `cycles.csv` hold the exact counts. Merge
//! checks that each shard's summary agrees with its own counts ([`figures::agree`]), that the
//! shards belong to one run, are disjoint and cover it whole before it adds anything, so an
//! edited, missing, duplicated or foreign shard is refused by name.

use std::ops::Range;
use std::path::{Path, PathBuf};

use crate::error::UsageError;
use crate::games::Game;
use crate::model::figures;
use crate::model::load::{game_of, load, Part};
use crate::model::report::{RunInfo, Timing};
use crate::model::summary::Provenance;
use crate::sim::shard::Shard;
use crate::stats::histogram::Tally;
use crate::usage;

/// Reads the outputs in `dirs` one at a time, checks that they are the disjoint shards of one
/// run covering it whole, and adds them. Memory grows with the histogram, not with the number
/// of shards: each shard's tally is added and dropped as soon as it is read.
pub fn merge<G: Game>(dirs: &[PathBuf]) -> Result<(RunInfo, Tally<G::Stats>, Timing), UsageError> {
    let (first_dir, rest) = dirs
        .split_first()
        .ok_or_else(|| usage!("merge needs at least one directory"))?;
    let first = load::<G>(first_dir)?;
    same_program(&first)?;
    figures::agree(&first)?;
    let base = first.info.clone();
    let mut spans = vec![(base.range.clone(), first.dir)];
    let mut elapsed = first.elapsed_s;
    let mut tally = first.tally;
    for dir in rest {
        let p = read_shard::<G>(dir, &base, first_dir)?;
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
    covers(&base, &mut spans)?;
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

/// The shard in `dir`, read and checked to be of the run of `base` (read from `first_dir`):
/// the same game, program, rules, players, seed and games in all.
fn read_shard<G: Game>(
    dir: &Path,
    base: &RunInfo,
    first_dir: &Path,
) -> Result<Part<G>, UsageError> {
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
    same_program(&p)?;
    figures::agree(&p)?;
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
    match what {
        Some(what) => Err(usage!(
            "{} is foreign: {what}, as in {}",
            p.dir.display(),
            first_dir.display()
        )),
        None => Ok(p),
    }
}

/// Checks that the shards' `spans` (games, folder), sorted here, cover the run of `base`
/// exactly: no game twice, none missing.
fn covers(base: &RunInfo, spans: &mut [(Range<u64>, PathBuf)]) -> Result<(), UsageError> {
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
    match gaps.is_empty() {
        true => Ok(()),
        false => Err(missing(base, &gaps)),
    }
}

/// Refuses a shard written by another program or another version of warsim: its games may
/// have been played by other rules or drawn otherwise, and adding them would be silent.
fn same_program<G: Game>(p: &Part<G>) -> Result<(), UsageError> {
    let this = Provenance::program();
    match &p.program {
        Some(program) if *program == this => Ok(()),
        said => Err(usage!(
            "{}: summary.json provenance.program is {}, not {this}: merge adds only shards of \
             this program and version, whose games are played alike; run the shard again with \
             this warsim",
            p.dir.display(),
            said.as_deref()
                .map_or("missing".into(), |s| format!("{s:?}"))
        )),
    }
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
            |g| match base.shard.map(|s| shards_within(total, s.count(), g)) {
                Some(Some(k)) if k.end - k.start == 1 => {
                    format!(
                        "shard {}/{} (games {}..{})",
                        k.start,
                        base.shard.map_or(1, |s| s.count()),
                        g.start,
                        g.end
                    )
                }
                Some(Some(k)) => format!(
                    "shards {}..{} of {} (games {}..{})",
                    k.start,
                    k.end,
                    base.shard.map_or(1, |s| s.count()),
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
    let first = Shard::new(0, n).ok().filter(|_| total > 0)?;
    let cut = |k: u64| first.range_start(k, total);
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
