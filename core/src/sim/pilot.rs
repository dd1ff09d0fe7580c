//! A pilot: the first games of a run, played on one thread for a few milliseconds before the
//! run starts, to measure what a game costs on this machine.
//!
//! The pilot plays the run's own games (indices from the start of its slice, each with
//! [`game_rng`]`(seed, i)` as the engine would), so its tally is the run's first games and the
//! run goes on from where the pilot stopped: a pilot costs no game twice.
//!
//! A pilot is bounded in time, not in games: a game that may never end (a first game that loops
//! for 10^12 rounds) is played under round caps that double, [`FIRST_CAP`] first, each try
//! from the game's own generator again, until it ends before the cap or the time it has taken
//! already proves the run too long. So `--max-hours` refuses such a run within about twice the
//! time that proves it (the estimate then a lower bound: the game has not ended), and a
//! cancelled run stops between two tries.
//!
//! Its length is sized by the tail it sees ([`Budget`]): after its least time it stops once the
//! mean rounds of its games are known to within [`TAIL`] (relative standard error), or at its
//! most time. A rule set whose cost lies in a few long games (War with `--pickup p1-first`:
//! 4% of its games carry two thirds of its rounds) so plays thousands of games before it is
//! priced, where a fixed 25 ms saw 50 to 500 and its estimates ranged over a factor of 10.

use std::ops::Range;
use std::time::{Duration, Instant};

use super::engine::{Cancel, Cancelled};
use crate::games::{Game, Outcome};
use crate::rng::game_rng;
use crate::stats::histogram::Tally;

/// How long a pilot plays: long enough for thousands of games of most rule sets (the first
/// few hundred games of War already give its mean within a few per cent), short enough to
/// go unnoticed in a command that runs in well under a second.
pub const BUDGET: Duration = Duration::from_millis(25);

/// The relative standard error of the mean rounds a game at which a pilot has seen enough of
/// the games' tail: the estimates of one run then agree within about ±10% (two errors) as far
/// as the games go.
pub const TAIL: f64 = 0.05;

/// The fewest games before [`TAIL`] is trusted: a handful of games can agree by chance.
pub const TAIL_GAMES: u64 = 200;

/// How long a pilot may play: at least `least` (unless its slice is done), then until the
/// tail is seen ([`TAIL`]) or `most` has passed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// The time it plays whatever the games look like.
    pub least: Duration,
    /// The time after which it stops however wide the games' spread still is.
    pub most: Duration,
}

impl Budget {
    /// A pilot of exactly `time`, as a sweep's pilots of many rule sets each are.
    pub fn fixed(time: Duration) -> Budget {
        Budget {
            least: time,
            most: time,
        }
    }
}

/// The round cap of a pilot's first try at a game: most games of every rule set end well
/// within it, so most games are played once, as the run plays them.
pub const FIRST_CAP: u64 = 1 << 16;

/// How much each new try at a game raises its cap: the tries before the last cost at most as
/// much as it, and a refusal (or a cancel) comes at most twice the time that proves it.
const GROWTH: u64 = 2;

/// What a pilot played and how long it took.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Measured {
    /// Games played to their end.
    pub games: u64,
    /// Their rounds, summed, with the rounds of the game left open.
    pub rounds: u64,
    /// Rounds played, with those of the tries under caps a game outlasted: what the time was
    /// spent on, so a game tried three times is not priced as three games.
    pub played: u64,
    /// The relative standard error of the mean rounds of the games played to their end (0
    /// with fewer than two): how far the tail it saw may move the estimate.
    pub spread: f64,
    /// Wall time on one thread.
    pub seconds: f64,
    /// A game the pilot left before its end, as (index, rounds played): it had taken long
    /// enough to decide the estimate.
    pub open: Option<(u64, u64)>,
}

impl Measured {
    /// Games the time was spent on: those played and the one left open, which costs at least
    /// the time spent on it.
    pub fn games_timed(&self) -> u64 {
        self.games + u64::from(self.open.is_some())
    }

    /// Seconds a round takes, from the rounds played, or `None` when none were.
    pub fn seconds_per_round(&self) -> Option<f64> {
        (self.played > 0).then(|| self.seconds / self.played as f64)
    }
}

/// The running sums of the pilot's games' rounds, for [`Measured::spread`].
#[derive(Default)]
struct Spread {
    n: f64,
    sum: f64,
    squares: f64,
}

impl Spread {
    fn add(&mut self, rounds: u64) {
        let r = rounds as f64;
        self.n += 1.0;
        self.sum += r;
        self.squares += r * r;
    }

    /// The relative standard error of the mean.
    fn relative(&self) -> f64 {
        if self.n < 2.0 || self.sum <= 0.0 {
            return 0.0;
        }
        let mean = self.sum / self.n;
        let var = ((self.squares - self.n * mean * mean) / (self.n - 1.0)).max(0.0);
        (var / self.n).sqrt() / mean
    }

    /// Whether the games so far price the tail: enough of them, known to within [`TAIL`].
    fn seen(&self) -> bool {
        self.n >= TAIL_GAMES as f64 && self.relative() <= TAIL
    }
}

/// A pilot's measurement and the games it played, which are the first games of the run.
pub struct Pilot<S> {
    /// What it measured.
    pub measured: Measured,
    /// Its games: indices `range.start ..` of the run, `measured.games` of them.
    pub tally: Tally<S>,
}

/// The rules of `game` with round cap `cap`, or `None` for a game whose rules have no cap.
fn capped<G: Game>(game: &G, cap: u64) -> Option<G> {
    let mut rules = serde_json::to_value(game.rules()).ok()?;
    *rules.get_mut("max_rounds")? = cap.into();
    crate::games::from_rules::<G>(&rules).ok()
}

/// The rule sets a pilot tries a long game with: caps [`FIRST_CAP`], eight times that, ...,
/// below the game's own, each built once when first needed, with its buffers.
struct Tries<G: Game> {
    games: Vec<(u64, G, G::Scratch)>,
    /// Time spent building them, which is not time spent playing: rules built from their
    /// description can take longer than a game (rps's exact distribution for 12 players takes
    /// 50 ms, which counted as one game's time made a 4 s sweep an estimated 25 h).
    building: Duration,
}

impl<G: Game> Tries<G> {
    /// The capped game of try `k`, or `None` when try `k` is the game itself.
    fn get(&mut self, game: &G, k: usize) -> Option<&mut (u64, G, G::Scratch)> {
        while self.games.len() <= k {
            let cap = match self.games.last() {
                None => FIRST_CAP,
                Some((c, _, _)) => c.saturating_mul(GROWTH),
            };
            let started = Instant::now();
            let g = (cap < game.max_rounds())
                .then(|| capped(game, cap))
                .flatten()?;
            let s = g.scratch();
            self.games.push((cap, g, s));
            self.building += started.elapsed();
        }
        self.games.get_mut(k)
    }
}

/// Plays games `range.start, range.start + 1, …` of the run with base `seed` on this thread
/// until `budget` says ([`Budget`]) or `range` is done; at least one game unless `range` is
/// empty. A game is tried under growing caps (see the module's docs); when, past the least
/// time, the time it has taken makes `refuses` true of the measurement (the open game counted
/// as one game), the pilot stops there and says so in [`Measured::open`]: the caller's bound,
/// not `most`, ends a game that may never end. `cancel` is looked at between tries.
pub fn run<G: Game>(
    game: &G,
    seed: u64,
    range: Range<u64>,
    budget: Budget,
    refuses: &dyn Fn(&Measured) -> bool,
    cancel: &Cancel,
) -> Result<Pilot<G::Stats>, Cancelled> {
    let mut tally = Tally::new(game.players());
    let mut scratch = game.scratch();
    let mut tries = Tries {
        games: Vec::new(),
        building: Duration::ZERO,
    };
    // The time playing: since the start, less the time building the tries' rules.
    let playing = |start: Instant, tries: &Tries<G>| start.elapsed().saturating_sub(tries.building);
    let mut rounds = 0u64;
    let mut played = 0u64;
    let mut spread = Spread::default();
    let start = Instant::now();
    for i in range {
        let mut k = 0;
        let result = loop {
            let Some((cap, g, s)) = tries.get(game, k) else {
                break game.play(&mut game_rng(seed, i), &mut scratch);
            };
            let (cap, result) = (*cap, g.play(&mut game_rng(seed, i), s));
            if result.outcome != Outcome::Capped {
                break result;
            }
            played = played.saturating_add(cap);
            let spent = playing(start, &tries);
            let now = Measured {
                games: tally.games,
                rounds: rounds.saturating_add(cap),
                played,
                spread: spread.relative(),
                seconds: spent.as_secs_f64(),
                open: Some((i, cap)),
            };
            if spent >= budget.least && refuses(&now) {
                return Ok(Pilot {
                    measured: now,
                    tally,
                });
            }
            if cancel.is_set() {
                return Err(Cancelled);
            }
            k += 1;
        };
        rounds = rounds.saturating_add(result.rounds);
        played = played.saturating_add(result.rounds);
        spread.add(result.rounds);
        tally.record(i, &result);
        let spent = playing(start, &tries);
        if (spent >= budget.least && spread.seen()) || spent >= budget.most || cancel.is_set() {
            break;
        }
    }
    if cancel.is_set() {
        return Err(Cancelled);
    }
    Ok(Pilot {
        measured: Measured {
            games: tally.games,
            rounds,
            played,
            spread: spread.relative(),
            seconds: playing(start, &tries).as_secs_f64(),
            open: None,
        },
        tally,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::shotgun::{Shotgun, ShotgunRules};
    use crate::games::war::War;
    use crate::sim::engine;

    fn shotgun() -> Shotgun {
        Shotgun::new(ShotgunRules {
            mix: [1.0 / 3.0; 3],
            max_rounds: 1_000_000,
        })
        .unwrap()
    }

    fn never(_: &Measured) -> bool {
        false
    }

    fn pilot<G: Game>(game: &G, seed: u64, range: Range<u64>, budget: Duration) -> Pilot<G::Stats> {
        run(
            game,
            seed,
            range,
            Budget::fixed(budget),
            &never,
            &Cancel::default(),
        )
        .unwrap()
    }

    /// The pilot's games are the run's: pilot then engine on the rest is the whole run.
    #[test]
    fn pilot_and_the_rest_tally_the_whole_run() {
        let game = shotgun();
        let whole = engine::simulate(&game, 3, 10..5000, 2, &|_| {}, &Default::default()).unwrap();
        let p = pilot(&game, 3, 10..5000, Duration::from_micros(50));
        let done = p.measured.games;
        assert!((1..4990).contains(&done), "{done}");
        let rest =
            engine::simulate(&game, 3, 10 + done..5000, 2, &|_| {}, &Default::default()).unwrap();
        assert_eq!(p.tally.merge(rest).unwrap(), whole);
    }

    /// War with player 1's cards first under the winner's and no loop detection: on a small
    /// deck most games repeat a position and go on to the cap.
    fn looping_war(cap: u64) -> War {
        use crate::games::war::{DetectLoops, Pickup, WarSettings};
        War::from_settings(&WarSettings {
            ranks: Some(6),
            suits: Some(2),
            pickup: Some(Pickup::P1First),
            detect_loops: Some(DetectLoops::Off),
            max_rounds: Some(cap),
            ..WarSettings::default()
        })
        .unwrap()
    }

    /// Games longer than the first cap are tried again under larger caps and counted as the
    /// engine counts them, capped games among them.
    #[test]
    fn games_past_the_first_cap_are_the_engines_games() {
        let game = looping_war(200_000);
        let whole = engine::simulate(&game, 5, 0..8, 1, &|_| {}, &Default::default()).unwrap();
        assert!(
            whole.rounds.rows().any(|(r, _)| r == 200_000),
            "no game reached the cap"
        );
        let p = pilot(&game, 5, 0..8, Duration::from_secs(600));
        assert_eq!(p.measured.games, 8);
        assert_eq!(p.tally, whole);
    }

    /// A game that outlasts what the bound allows is left open, named, and its time counted;
    /// a cancelled pilot stops between tries.
    #[test]
    fn a_game_too_long_for_the_bound_is_left_open() {
        let game = looping_war(1_000_000_000_000);
        let refuses = |m: &Measured| m.open.is_some_and(|(_, r)| r >= FIRST_CAP * GROWTH);
        let started = Instant::now();
        let budget = Budget {
            least: Duration::ZERO,
            most: Duration::from_secs(600),
        };
        let p = run(&game, 5, 0..1000, budget, &refuses, &Cancel::default()).unwrap();
        assert!(started.elapsed() < Duration::from_secs(60));
        let (index, rounds) = p.measured.open.expect("a game left open");
        assert_eq!(rounds, FIRST_CAP * GROWTH);
        assert_eq!(p.measured.games, p.tally.games);
        assert_eq!(p.measured.games_timed(), p.tally.games + 1);
        assert!(index < 1000);
        let cancel = Cancel::default();
        cancel.set();
        assert!(run(&game, 5, 0..1000, budget, &never, &cancel).is_err());
    }

    /// Past its least time a pilot plays until the mean rounds are known to within TAIL
    /// (however long that takes, below its most), and counts every round it played.
    #[test]
    fn a_pilot_plays_until_it_has_seen_the_tail() {
        let game = shotgun();
        let budget = Budget {
            least: Duration::ZERO,
            most: Duration::from_secs(600),
        };
        let p = run(&game, 1, 0..1_000_000, budget, &never, &Cancel::default()).unwrap();
        let m = p.measured;
        assert!(m.games >= TAIL_GAMES && m.games < 1_000_000, "{m:?}");
        assert!(m.spread > 0.0 && m.spread <= TAIL, "{m:?}");
        assert_eq!(m.played, m.rounds);
        let (mut one_less, mut scratch) = (Spread::default(), game.scratch());
        for i in 0..m.games - 1 {
            one_less.add(game.play(&mut game_rng(1, i), &mut scratch).rounds);
        }
        assert!(
            !one_less.seen(),
            "it stopped at the first game that showed the tail"
        );
    }

    #[test]
    fn a_short_range_is_played_whole_and_an_empty_one_not_at_all() {
        let game = shotgun();
        let p = pilot(&game, 0, 0..7, Duration::from_secs(60));
        assert_eq!(p.measured.games, 7);
        assert!(p.measured.rounds >= 7);
        let empty = pilot(&game, 0, 4..4, BUDGET);
        assert_eq!((empty.measured.games, empty.measured.rounds), (0, 0));
    }
}
