//! The parallel engine: any [`Game`], many games, one exact [`Tally`].

use std::ops::Range;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use std::time::{Duration, Instant};

use crate::error::{Error, Result, UsageError};
use crate::games::{Game, Result1};
use crate::stats::histogram::Tally;
use crate::usage;

/// The most games a thread claims at once (fast games; slow ones are claimed a few at a time,
/// `CLAIM_TIME`). How the games are cut never changes a result: game `i` draws from its own
/// generator and tallies are merged by adding integers.
pub const CHUNK: u64 = 4096;

pub use crate::cancel::{Cancel, Cancelled};

/// Plays games `range` (global indices) of the run with base `seed` on `threads` threads,
/// until `cancel` is set.
///
/// Game `i` draws only from [`game_rng`](crate::rng::game_rng)`(seed, i)`; the threads'
/// tallies are merged by adding integers; so the result is identical for every thread count,
/// every cut into claims and every split into shards. `progress` is called with the number of
/// games of each finished claim (about every `CLAIM_TIME` per thread, or every game).
pub fn simulate<G: Game>(
    game: &G,
    seed: u64,
    range: Range<u64>,
    threads: usize,
    progress: &(dyn Fn(u64) + Sync),
    cancel: &Cancel,
) -> Result<Tally<G::Stats>> {
    check_range(&range)?;
    play_each(
        game,
        range,
        threads,
        progress,
        cancel,
        &|games, scratch, record| {
            game.play_range(seed, games, scratch, record);
            Ok(())
        },
    )
}

/// [`simulate`], but a run that `stop` stops keeps what it played: every game a thread had
/// claimed is finished and counted, so the games played are the first of `range`, and their
/// end is returned beside their tally (`range.end` when none was stopped). What stops it
/// stops it between claims (`CLAIM_TIME`).
pub fn simulate_until<G: Game>(
    game: &G,
    seed: u64,
    range: Range<u64>,
    threads: usize,
    progress: &(dyn Fn(u64) + Sync),
    stop: &Cancel,
) -> Result<(Tally<G::Stats>, u64)> {
    check_range(&range)?;
    let start = range.start;
    let claims = Claims::new(range);
    let tally = play_claims(
        game,
        &claims,
        threads,
        progress,
        (stop, Stopped::Keep),
        &|games, scratch, record| {
            game.play_range(seed, games, scratch, record);
            Ok(())
        },
    )?;
    Ok((tally, start + claims.claimed()))
}

/// Plays distinct deals `range` of `game` (`exact`): game `i` is deal number `i` of the
/// game's enumeration ([`Game::play_deal_number`]), with no randomness. Same claims and merge
/// as [`simulate`], so the tally does not depend on the threads either. A range past the
/// game's [`Game::deal_count`] is refused: there is no such deal.
pub fn enumerate<G: Game>(
    game: &G,
    range: Range<u64>,
    threads: usize,
    progress: &(dyn Fn(u64) + Sync),
    cancel: &Cancel,
) -> Result<Tally<G::Stats>> {
    check_range(&range)?;
    let deals = game.deal_count()?;
    if u128::from(range.end) > deals {
        return Err(usage!(
            "{}: deals {}..{} run past the {deals} deals these rules have",
            G::NAME,
            range.start,
            range.end
        )
        .into());
    }
    play_each(
        game,
        range,
        threads,
        progress,
        cancel,
        &|games, scratch, record| {
            game.play_deal_range(games, scratch, record)
                .map_err(|index| Error::Unplayable {
                    game: G::NAME,
                    index,
                })
        },
    )
}

/// Refuses a range of games that runs backwards (which would count some 2^64 games).
fn check_range(range: &Range<u64>) -> Result<(), UsageError> {
    if range.start > range.end {
        return Err(usage!(
            "games {}..{}: the range runs backwards",
            range.start,
            range.end
        ));
    }
    Ok(())
}

/// How a claim is played: games `range` of the run with a worker's buffers, each result handed
/// to the recorder with its index (in any order), or an error if a game cannot be played.
type PlayChunk<'a, G> = dyn Fn(Range<u64>, &mut <G as Game>::Scratch, &mut dyn FnMut(u64, &Result1<G>)) -> Result<()>
    + Sync
    + 'a;

/// What a stopped run gives.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Stopped {
    /// [`Cancelled`]: the run's games are lost.
    Cancel,
    /// The tally of the games played, every claimed game finished.
    Keep,
}

/// Plays the games of `range` with `chunk(games, scratch, record)` on `threads` threads until
/// `cancel` is set or a thread fails: each thread claims the next games of the range (see
/// [`Claims`]), keeps one tally, and the threads' tallies are merged by adding integers at the
/// end.
fn play_each<G: Game>(
    game: &G,
    range: Range<u64>,
    threads: usize,
    progress: &(dyn Fn(u64) + Sync),
    cancel: &Cancel,
    chunk: &PlayChunk<'_, G>,
) -> Result<Tally<G::Stats>> {
    let claims = Claims::new(range);
    let stop = (cancel, Stopped::Cancel);
    play_claims(game, &claims, threads, progress, stop, chunk)
}

/// Plays the games of `claims` as [`play_each`] does; once `stop` is set, each thread finishes
/// its claim and stops, with the run [`Cancelled`] or its games kept as `stopped` says.
fn play_claims<G: Game>(
    game: &G,
    claims: &Claims,
    threads: usize,
    progress: &(dyn Fn(u64) + Sync),
    (stop, stopped): (&Cancel, Stopped),
    chunk: &PlayChunk<'_, G>,
) -> Result<Tally<G::Stats>> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()?;
    let players = game.players();
    // A failed thread's error is the run's; the others stop at their next claim.
    let failed = AtomicBool::new(false);
    let worker = || -> Result<Tally<G::Stats>> {
        let mut scratch = game.scratch();
        let mut tally = Tally::new(players);
        let mut size = 1;
        loop {
            if stop.is_set() {
                return match stopped {
                    Stopped::Cancel => Err(Cancelled.into()),
                    Stopped::Keep => Ok(tally),
                };
            }
            let Some(games) = claims
                .next(size)
                .filter(|_| !failed.load(Ordering::Relaxed))
            else {
                return Ok(tally);
            };
            let n = games.end - games.start;
            let started = Instant::now();
            if let Err(e) = chunk(games, &mut scratch, &mut |i, result| {
                tally.record(i, result)
            }) {
                failed.store(true, Ordering::Relaxed);
                return Err(e);
            }
            progress(n);
            size = next_claim(size, started.elapsed());
        }
    };
    pool.broadcast(|_| worker())
        .into_iter()
        .try_fold(Tally::new(players), |all, t| Ok(all.merge(t?)?))
}

/// How long a claim of games should take: long enough that a claim's bookkeeping (a clock
/// read, an atomic add, a progress update) is lost in its games' time, short enough that
/// progress moves, a cancel is seen and every thread gets games even when a game takes
/// milliseconds (a run of 2,000 games of 30-player rps once sat in one chunk of 4,096 games on
/// one thread, its progress frozen for the whole run).
const CLAIM_TIME: Duration = Duration::from_millis(40);

/// The games the next claim takes after one of `size` games took `took`: twice as many when
/// it took under half of [`CLAIM_TIME`], half as many when it took over twice that, from 1 to
/// [`CHUNK`]. Only how the work is cut depends on the clock; each game's draws and the summed
/// tally do not.
fn next_claim(size: u64, took: Duration) -> u64 {
    if took < CLAIM_TIME / 2 {
        (size * 2).min(CHUNK)
    } else if took > CLAIM_TIME * 2 {
        (size / 2).max(1)
    } else {
        size
    }
}

/// The games of a run not yet claimed by a thread: each thread takes the next few indices at a
/// time, as many as its last claim suggests ([`next_claim`]).
struct Claims {
    range: Range<u64>,
    /// Games of `range` claimed so far.
    taken: AtomicU64,
}

impl Claims {
    fn new(range: Range<u64>) -> Self {
        Claims {
            range,
            taken: AtomicU64::new(0),
        }
    }

    /// The next at most `size` games, or `None` when every game is claimed.
    fn next(&self, size: u64) -> Option<Range<u64>> {
        let len = self.range.end - self.range.start;
        let from = self
            .taken
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |t| {
                (t < len).then(|| t.saturating_add(size).min(len))
            })
            .ok()?;
        let lo = self.range.start + from;
        Some(lo..lo + size.min(len - from))
    }

    /// Games claimed so far: once the threads have stopped, the games played, which are the
    /// first of the range.
    fn claimed(&self) -> u64 {
        self.taken.load(Ordering::Relaxed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn claims_cover_the_range_once_in_order() {
        let claims = Claims::new(10..25);
        let got: Vec<_> = [4, 1, 8, 4, 4].iter().map(|&n| claims.next(n)).collect();
        assert_eq!(
            got,
            [Some(10..14), Some(14..15), Some(15..23), Some(23..25), None]
        );
        assert_eq!(Claims::new(5..5).next(1), None);
        let end = Claims::new(u64::MAX - 3..u64::MAX);
        assert_eq!(end.next(CHUNK), Some(u64::MAX - 3..u64::MAX));
        assert_eq!(end.next(CHUNK), None);
    }

    #[test]
    fn claims_grow_to_a_chunk_for_fast_games_and_shrink_to_one_for_slow_ones() {
        let fast = (0..20).fold(1, |n, _| next_claim(n, Duration::from_micros(10)));
        assert_eq!(fast, CHUNK);
        let slow = (0..20).fold(CHUNK, |n, _| next_claim(n, Duration::from_secs(1)));
        assert_eq!(slow, 1);
        assert_eq!(next_claim(64, CLAIM_TIME), 64);
    }

    /// However the threads cut the games into claims, the tally is the same; progress hears
    /// of every game once, of the first game alone (a claim starts at one game: a slow game is
    /// counted when it ends, not with 4,095 more).
    #[test]
    fn any_thread_count_gives_the_same_tally_and_counts_every_game() {
        let game = crate::games::shotgun::Shotgun::new(crate::games::shotgun::ShotgunRules {
            mix: [1.0 / 3.0; 3],
            max_rounds: 1_000_000,
        })
        .unwrap();
        let run = |threads| {
            let (games, first) = (AtomicU64::new(0), AtomicU64::new(0));
            let progress = |n| {
                let _ = first.compare_exchange(0, n, Ordering::Relaxed, Ordering::Relaxed);
                games.fetch_add(n, Ordering::Relaxed);
            };
            let tally = simulate(&game, 7, 3..20_003, threads, &progress, &Cancel::default());
            (tally.unwrap(), games.into_inner(), first.into_inner())
        };
        let (one, games, first) = run(1);
        assert_eq!((one.games, games, first), (20_000, 20_000, 1));
        let (three, games, first) = run(3);
        assert_eq!((three, games, first), (one, 20_000, 1));
    }

    /// A run stopped part way keeps the first games of its range, every one finished: its
    /// tally is a run of exactly those games, on any number of threads.
    #[test]
    fn a_stopped_run_keeps_its_first_games_whole() {
        let game = crate::games::shotgun::Shotgun::new(crate::games::shotgun::ShotgunRules {
            mix: [1.0 / 3.0; 3],
            max_rounds: 1_000_000,
        })
        .unwrap();
        for (threads, after) in [(1, 1), (2, 5_000), (3, 50_000)] {
            let stop = Cancel::default();
            let done = AtomicU64::new(0);
            let progress = |n| {
                if done.fetch_add(n, Ordering::Relaxed) + n >= after {
                    stop.set();
                }
            };
            let (kept, end) =
                simulate_until(&game, 7, 100..1_000_100, threads, &progress, &stop).unwrap();
            assert!(
                end > 100 && end < 1_000_100,
                "{threads} threads: stopped at {end}"
            );
            assert_eq!(kept.games, end - 100);
            let whole = simulate(&game, 7, 100..end, 1, &|_| {}, &Cancel::default());
            assert_eq!(kept, whole.unwrap());
        }
        let all = simulate_until(&game, 7, 0..3_000, 2, &|_| {}, &Cancel::default());
        let (all, end) = all.unwrap();
        assert_eq!((all.games, end), (3_000, 3_000));
    }
}
