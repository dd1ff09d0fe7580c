//! A pilot: the first games of a run, played on one thread for a few milliseconds before the
//! run starts, to measure what a game costs on this machine.
//!
//! The pilot plays the run's own games (indices from the start of its slice, each with
//! [`game_rng`]`(seed, i)` as the engine would), so its tally is the run's first games and the
//! run goes on from where the pilot stopped: a pilot costs no game twice.

use std::ops::Range;
use std::time::{Duration, Instant};

use super::rng::game_rng;
use crate::games::Game;
use crate::stats::histogram::Tally;

/// How long a pilot plays: long enough for thousands of games of most rule sets (the first
/// few hundred games of War already give its mean within a few per cent), short enough to
/// go unnoticed in a command that runs in well under a second.
pub const BUDGET: Duration = Duration::from_millis(25);

/// What a pilot played and how long it took.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Measured {
    /// Games played.
    pub games: u64,
    /// Their rounds, summed.
    pub rounds: u64,
    /// Wall time on one thread.
    pub seconds: f64,
}

/// A pilot's measurement and the games it played, which are the first games of the run.
pub struct Pilot<S> {
    /// What it measured.
    pub measured: Measured,
    /// Its games: indices `range.start ..` of the run, `measured.games` of them.
    pub tally: Tally<S>,
}

/// Plays games `range.start, range.start + 1, …` of the run with base `seed` on this thread
/// until `budget` has passed or `range` is done; at least one game unless `range` is empty.
/// A game cannot be stopped half-way, so a rule set whose games take longer than `budget`
/// costs one whole game (the run keeps it).
pub fn run<G: Game>(game: &G, seed: u64, range: Range<u64>, budget: Duration) -> Pilot<G::Stats> {
    let mut tally = Tally::new(game.players());
    let mut scratch = game.scratch();
    let mut rounds = 0u64;
    let start = Instant::now();
    for i in range {
        let result = game.play(&mut game_rng(seed, i), &mut scratch);
        rounds = rounds.saturating_add(result.rounds);
        tally.record(i, &result);
        if start.elapsed() >= budget {
            break;
        }
    }
    Pilot {
        measured: Measured {
            games: tally.games,
            rounds,
            seconds: start.elapsed().as_secs_f64(),
        },
        tally,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::shotgun::{Shotgun, ShotgunRules};
    use crate::sim::engine;

    fn shotgun() -> Shotgun {
        Shotgun::new(ShotgunRules {
            mix: [1.0 / 3.0; 3],
            max_rounds: 1_000_000,
        })
    }

    /// The pilot's games are the run's: pilot then engine on the rest is the whole run.
    #[test]
    fn pilot_and_the_rest_tally_the_whole_run() {
        let game = shotgun();
        let whole = engine::simulate(&game, 3, 10..5000, 2, &|_| {}, &Default::default()).unwrap();
        let pilot = run(&game, 3, 10..5000, Duration::from_micros(50));
        let done = pilot.measured.games;
        assert!((1..4990).contains(&done), "{done}");
        let rest =
            engine::simulate(&game, 3, 10 + done..5000, 2, &|_| {}, &Default::default()).unwrap();
        assert_eq!(pilot.tally.merge(rest).unwrap(), whole);
    }

    #[test]
    fn a_short_range_is_played_whole_and_an_empty_one_not_at_all() {
        let game = shotgun();
        let p = run(&game, 0, 0..7, Duration::from_secs(60));
        assert_eq!(p.measured.games, 7);
        assert!(p.measured.rounds >= 7);
        let empty = run(&game, 0, 4..4, BUDGET);
        assert_eq!((empty.measured.games, empty.measured.rounds), (0, 0));
    }
}
