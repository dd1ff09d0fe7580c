//! The parallel engine: any [`Game`], many games, one exact [`Tally`].

use std::ops::Range;

use anyhow::Context as _;
use rayon::prelude::*;

use super::rng::game_rng;
use crate::games::{Game, Result1};
use crate::stats::histogram::Tally;

/// Games per unit of parallel work. A constant, never derived from the thread count: together
/// with one generator per game index it makes the tally independent of scheduling.
pub const CHUNK: u64 = 4096;

/// Plays games `range` (global indices) of the run with base `seed` on `threads` threads.
///
/// Game `i` draws only from [`game_rng`]`(seed, i)`; chunk tallies are merged by adding
/// integers; so the result is identical for every thread count and every split into shards.
/// `progress` is called with the number of games of each finished chunk.
pub fn simulate<G: Game>(
    game: &G,
    seed: u64,
    range: Range<u64>,
    threads: usize,
    progress: &(dyn Fn(u64) + Sync),
) -> anyhow::Result<Tally<G::Stats>> {
    play_each(game, range, threads, progress, &|i, scratch| {
        Some(game.play(&mut game_rng(seed, i), scratch))
    })
}

/// Plays distinct deals `range` of `game` (`exact`): game `i` is deal number `i` of the
/// game's enumeration ([`Game::play_deal_number`]), with no randomness. Same chunks and merge
/// as [`simulate`], so the tally does not depend on the threads either.
pub fn enumerate<G: Game>(
    game: &G,
    range: Range<u64>,
    threads: usize,
    progress: &(dyn Fn(u64) + Sync),
) -> anyhow::Result<Tally<G::Stats>> {
    play_each(game, range, threads, progress, &|i, scratch| {
        game.play_deal_number(i, scratch)
    })
}

/// How one game is played: game `i` of the run with a worker's buffers (`None`: it cannot be).
type PlayOne<'a, G> = dyn Fn(u64, &mut <G as Game>::Scratch) -> Option<Result1<G>> + Sync + 'a;

/// Plays game `i` of `range` with `one(i, scratch)` on `threads` threads, in chunks of
/// [`CHUNK`] indices merged by adding integers.
fn play_each<G: Game>(
    game: &G,
    range: Range<u64>,
    threads: usize,
    progress: &(dyn Fn(u64) + Sync),
    one: &PlayOne<'_, G>,
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
                    let lo = range.start + c * CHUNK;
                    let hi = lo.saturating_add(CHUNK).min(range.end);
                    let mut tally = Tally::new(players);
                    for i in lo..hi {
                        let result = one(i, scratch).ok_or_else(|| {
                            anyhow::anyhow!("{}: game {i} cannot be played", G::NAME)
                        })?;
                        tally.record(i, &result);
                    }
                    progress(hi - lo);
                    Ok(tally)
                },
            )
            .try_reduce(|| Tally::new(players), |a, b| Ok(a.merge(b)?))
    })
}
