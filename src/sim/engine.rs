//! The parallel engine: any [`Game`], many games, one exact [`Tally`].

use std::ops::Range;

use anyhow::Context as _;
use rayon::prelude::*;

use super::rng::game_rng;
use crate::games::Game;
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
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .context("cannot start the worker threads")?;
    let chunks = (range.end - range.start).div_ceil(CHUNK);
    let players = game.players();
    let tally = pool.install(|| {
        (0..chunks)
            .into_par_iter()
            .map_init(
                || game.scratch(),
                |scratch, c| {
                    let lo = range.start + c * CHUNK;
                    let hi = lo.saturating_add(CHUNK).min(range.end);
                    let mut tally = Tally::new(players);
                    for i in lo..hi {
                        let result = game.play(&mut game_rng(seed, i), scratch);
                        tally.record(i, &result);
                    }
                    progress(hi - lo);
                    tally
                },
            )
            .reduce(|| Tally::new(players), Tally::merge)
    });
    Ok(tally)
}
