//! The parallel engine: any [`Game`], many games, one exact [`Tally`].

use std::ops::Range;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use anyhow::Context as _;
use rayon::prelude::*;

use crate::games::{Game, Result1};
use crate::stats::histogram::Tally;

/// Games per unit of parallel work. A constant, never derived from the thread count: together
/// with one generator per game index it makes the tally independent of scheduling.
pub const CHUNK: u64 = 4096;

/// A request to stop a run, shared with whoever may ask (the Python package, when Ctrl-C
/// reaches the interpreter). The engine looks at it before each chunk, so a run stops within
/// one chunk's time of the request, with an error ([`Cancelled`]) and no tally.
#[derive(Clone, Debug, Default)]
pub struct Cancel(Arc<AtomicBool>);

impl Cancel {
    /// Asks the runs watching this to stop.
    pub fn set(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// Whether a stop was asked for.
    pub fn is_set(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

/// The error of a run stopped by its [`Cancel`].
#[derive(Debug, thiserror::Error)]
#[error("cancelled")]
pub struct Cancelled;

/// Plays games `range` (global indices) of the run with base `seed` on `threads` threads,
/// until `cancel` is set.
///
/// Game `i` draws only from [`game_rng`](super::rng::game_rng)`(seed, i)`; chunk tallies are merged by adding
/// integers; so the result is identical for every thread count and every split into shards.
/// `progress` is called with the number of games of each finished chunk.
pub fn simulate<G: Game>(
    game: &G,
    seed: u64,
    range: Range<u64>,
    threads: usize,
    progress: &(dyn Fn(u64) + Sync),
    cancel: &Cancel,
) -> anyhow::Result<Tally<G::Stats>> {
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

/// Plays distinct deals `range` of `game` (`exact`): game `i` is deal number `i` of the
/// game's enumeration ([`Game::play_deal_number`]), with no randomness. Same chunks and merge
/// as [`simulate`], so the tally does not depend on the threads either.
pub fn enumerate<G: Game>(
    game: &G,
    range: Range<u64>,
    threads: usize,
    progress: &(dyn Fn(u64) + Sync),
    cancel: &Cancel,
) -> anyhow::Result<Tally<G::Stats>> {
    play_each(
        game,
        range,
        threads,
        progress,
        cancel,
        &|games, scratch, record| {
            game.play_deal_range(games, scratch, record)
                .map_err(|i| anyhow::anyhow!("{}: game {i} cannot be played", G::NAME))
        },
    )
}

/// How a chunk is played: games `range` of the run with a worker's buffers, each result handed
/// to the recorder with its index (in any order), or an error if a game cannot be played.
type PlayChunk<'a, G> = dyn Fn(
        Range<u64>,
        &mut <G as Game>::Scratch,
        &mut dyn FnMut(u64, &Result1<G>),
    ) -> anyhow::Result<()>
    + Sync
    + 'a;

/// Plays the games of `range` with `chunk(games, scratch, record)` on `threads` threads, in
/// chunks of [`CHUNK`] indices merged by adding integers, until `cancel` is set.
fn play_each<G: Game>(
    game: &G,
    range: Range<u64>,
    threads: usize,
    progress: &(dyn Fn(u64) + Sync),
    cancel: &Cancel,
    chunk: &PlayChunk<'_, G>,
) -> anyhow::Result<Tally<G::Stats>> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .context("cannot start the worker threads")?;
    let chunks = (range.end - range.start).div_ceil(CHUNK);
    let players = game.players();
    pool.install(|| {
        (0..chunks)
            .into_par_iter()
            .map_init(
                || game.scratch(),
                |scratch, c| {
                    if cancel.is_set() {
                        return Err(Cancelled.into());
                    }
                    let lo = range.start + c * CHUNK;
                    let hi = lo.saturating_add(CHUNK).min(range.end);
                    let mut tally = Tally::new(players);
                    chunk(lo..hi, scratch, &mut |i, result| tally.record(i, result))?;
                    progress(hi - lo);
                    Ok(tally)
                },
            )
            .try_reduce(|| Tally::new(players), |a, b| Ok(a.merge(b)?))
    })
}
