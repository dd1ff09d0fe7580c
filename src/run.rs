//! One run of a game as the run options say, shared by `simulate` and `sweep`: a fixed number
//! of games (or a shard of them), or games until a stated precision.

use std::time::Instant;

use anyhow::Result;

use crate::cli::RunOptions;
use crate::games::Game;
use crate::output::progress::Progress;
use crate::output::report::{RunInfo, Timing};
use crate::output::summary::PrecisionJson;
use crate::sim::engine;
use crate::sim::precision::{self, Target};
use crate::sim::shard::Shard;
use crate::stats::histogram::Tally;
use crate::usage;

/// Games of a run without `--games`.
pub const DEFAULT_GAMES: u64 = 1_000_000;
/// Games before the first check of a run with `--precision` and no `--games`.
pub const DEFAULT_MIN_GAMES: u64 = 10_000;

/// Worker threads: `--threads`, or every core.
pub fn threads(opts: &RunOptions) -> usize {
    match opts.threads {
        Some(t) => t as usize,
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    }
}

/// What a run will play, checked before anything is written.
pub fn plan<G: Game>(game: &G, opts: &RunOptions) -> Result<RunInfo> {
    let shard = opts.shard.unwrap_or(Shard::WHOLE);
    if let Some(h) = opts.precision {
        if opts.shard.is_some() {
            return Err(usage!(
                "--precision {h} with --shard: a run to a precision decides when to stop from \
                 all its games, so it cannot be split; shard a fixed --games instead"
            )
            .into());
        }
        let min = opts.games.unwrap_or(DEFAULT_MIN_GAMES);
        check_feasible(game, min)?;
        return RunInfo::new(game, opts.seed, min, shard);
    }
    let games = opts.games.unwrap_or(DEFAULT_GAMES);
    let info = RunInfo::new(game, opts.seed, games, shard)?;
    if info.range.is_empty() {
        return Err(usage!(
            "--shard {shard}: this slice of {games} games holds no game; use at most {games} shards"
        )
        .into());
    }
    check_feasible(game, info.range.end - info.range.start)?;
    Ok(info)
}

/// Plays the run `info` (from [`plan`]) on `threads` threads, reporting to `progress`;
/// `offset` games of the progress total come before this run's (a sweep's earlier rule sets).
pub fn play<G: Game>(
    game: &G,
    opts: &RunOptions,
    mut info: RunInfo,
    threads: usize,
    progress: &Progress,
    offset: u64,
) -> Result<(RunInfo, Tally<G::Stats>, Timing)> {
    let start = Instant::now();
    let inc = |n| progress.inc(n);
    let tally = match opts.precision {
        Some(half_width) => {
            let target = Target {
                half_width,
                min_games: info.games_total,
                max_games: opts.max_games.max(info.games_total),
            };
            let planned = |n| progress.set_total(offset + n);
            let (tally, stop) =
                precision::simulate(game, opts.seed, &target, threads, &inc, &planned)?;
            info = RunInfo {
                precision: Some(PrecisionJson::new(&target, &stop)),
                ..RunInfo::new(game, opts.seed, stop.games, Shard::WHOLE)?
            };
            tally
        }
        None => engine::simulate(game, opts.seed, info.range.clone(), threads, &inc)?,
    };
    let timing = Timing {
        elapsed_s: start.elapsed().as_secs_f64(),
        threads: Some(threads),
        note: None,
    };
    Ok((info, tally, timing))
}

/// Rounds a run may be expected to play before it is refused as too long (about an hour or
/// more on these machines).
const MAX_EXPECTED_ROUNDS: f64 = 1e12;

/// Refuses a run whose exact expected length is beyond [`MAX_EXPECTED_ROUNDS`], saying why.
fn check_feasible<G: Game>(game: &G, games: u64) -> Result<()> {
    let Some(mean) = game.expected_rounds() else {
        return Ok(());
    };
    let per_game = mean.min(game.max_rounds() as f64);
    let total = per_game * games as f64;
    if total > MAX_EXPECTED_ROUNDS {
        return Err(usage!(
            "simulate {}: {games} games would play about {total:.1e} rounds (exactly \
             {mean:.3e} per game on average, capped at {}); that takes days. Use fewer games, \
             fewer players or a lower --max-rounds",
            G::NAME,
            game.max_rounds()
        )
        .into());
    }
    Ok(())
}
