//! The games: each one a module with its rules, its deal, its adjudication, its statistics and
//! its tests.
//!
//! Every game implements [`Game`]; the engine ([`crate::sim::engine`]), the tallies and the
//! command crate's outputs and `merge` handle any of them without knowing which it is. Where a
//! game can be solved exactly it says so through [`Game::deal_count`] and
//! [`Game::solve_chain`].

pub(crate) mod arrange;
pub mod bmn;
pub mod cards;
pub mod cycle;
pub mod engine_path;
pub mod jitsu;
pub mod rps;
pub mod shotgun;
pub mod snap;
pub mod war;

use std::fmt::Debug;
use std::ops::ControlFlow;

use rand::RngCore;
use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::error::setting;
use crate::error::{Op, UsageError};
pub use crate::stats::game::{
    Cycle, GameResult, GameStats, NoStats, Outcome, ShareChart, StatsTable,
};
use crate::usage;
use crate::usage_of;

/// [`Game::play_range`] one game at a time: the default, and where a game's faster way does
/// not apply.
pub fn each_game<G: Game>(
    game: &G,
    seed: u64,
    range: std::ops::Range<u64>,
    s: &mut G::Scratch,
    record: &mut dyn FnMut(u64, &Result1<G>),
) {
    for i in range {
        record(i, &game.play(&mut crate::rng::game_rng(seed, i), s));
    }
}

/// [`Game::play_deal_range`] one deal at a time: the default, and where a game's faster way
/// does not apply.
pub fn each_deal<G: Game>(
    game: &G,
    range: std::ops::Range<u64>,
    s: &mut G::Scratch,
    record: &mut dyn FnMut(u64, &Result1<G>),
) -> Result<(), u64> {
    for i in range {
        record(i, &game.play_deal_number(i, s).ok_or(i)?);
    }
    Ok(())
}

/// What a game counts as the length of a game: its `rounds` in the tallies and in summary.json,
/// named as the game names them (War's battles are rounds, Beggar-my-neighbour's records count
/// cards laid, Snap counts turns), so every output says the game's own word.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Unit {
    /// One of them: `round`.
    pub one: &'static str,
    /// Several, and summary.json's `unit`: `rounds`.
    pub many: &'static str,
}

impl Unit {
    /// Rounds: War's battles, a throw of rps, a turn of Shotgun War, a trick of Card-Jitsu.
    pub const ROUNDS: Unit = Unit {
        one: "round",
        many: "rounds",
    };
    /// Cards laid (Beggar-my-neighbour).
    pub const CARDS: Unit = Unit {
        one: "card",
        many: "cards",
    };
    /// Turns: a card played or a rotation (Snap).
    pub const TURNS: Unit = Unit {
        one: "turn",
        many: "turns",
    };

    /// `n` of them, grouped, singular for one: `1 card`, `2,157 cards`.
    pub fn count(self, n: u64) -> String {
        let word = if n == 1 { self.one } else { self.many };
        format!("{} {word}", crate::stats::summary::grouped(n))
    }
}

/// The rules of one game: deal, then play to the end, with no I/O. Its command-line face (rule
/// flags, help, the `play` command) lives in the command crate.
pub trait Game: Send + Sync + Sized + 'static {
    /// The game's name on the command line and in the JSON summary.
    const NAME: &'static str;
    /// What its `rounds` count, declared once and read by every output ([`Unit`]).
    const UNIT: Unit = Unit::ROUNDS;
    /// The rule settings asked for, each left out taking its preset's or its default: each
    /// setting declared once, as a field with its help and default ([`crate::settings`]); the
    /// command line derives its flags from it, Python fills it through serde.
    type Settings: Clone + Debug + Default + Serialize + DeserializeOwned;
    /// Every rule setting in use (preset expanded): the JSON `rules` object, read back by
    /// [`from_rules`].
    type Rules: Serialize + DeserializeOwned + PartialEq;
    /// What the game counts besides rounds and outcomes (`()` for nothing).
    type Stats: GameStats;
    /// Reusable buffers, one per worker, so the hot loop never allocates.
    type Scratch: Send;
    /// The game for these options, or a usage error naming the bad option.
    fn from_settings(options: &Self::Settings) -> Result<Self, UsageError>;

    /// The rule set.
    fn rules(&self) -> &Self::Rules;

    /// The rule options that give `rules`, so that rules read back from a file pass the same
    /// checks as options typed on the command line ([`from_rules`]).
    fn settings_of(rules: &Self::Rules) -> Self::Settings;

    /// Fresh buffers for one worker.
    fn scratch(&self) -> Self::Scratch;

    /// Plays one whole game, drawing all randomness from `rng`.
    fn play<R: RngCore + ?Sized>(&self, rng: &mut R, s: &mut Self::Scratch) -> Result1<Self>;

    /// Plays games `range` of the run with base `seed` and hands each result with its index to
    /// `record`, in any order. Game `i` must be exactly the game [`Game::play`] plays from
    /// [`game_rng`](crate::rng::game_rng)`(seed, i)`: the engine's tallies are sums, so
    /// the order does not matter, but every game's draws do. The default plays them one at a
    /// time; War plays many at once in SIMD lanes where its rules allow.
    fn play_range(
        &self,
        seed: u64,
        range: std::ops::Range<u64>,
        s: &mut Self::Scratch,
        record: &mut dyn FnMut(u64, &Result1<Self>),
    ) {
        each_game(self, seed, range, s, record);
    }

    /// Number of players, which fixes the outcome names `p1`…`pN`.
    fn players(&self) -> usize;

    /// A short human description of the rule set, for chart titles and terminal summaries.
    fn describe(&self) -> String;

    /// Exact values of the statistics the simulation estimates, where the rules allow an exact
    /// computation (reported as JSON key `exact`, beside the estimates).
    fn exact(&self) -> Option<serde_json::Value> {
        None
    }

    /// The exact expected rounds of a game before any cap, where the rules give it: lets a run
    /// that would take days be refused up front with the estimate.
    fn expected_rounds(&self) -> Option<f64> {
        None
    }

    /// The round cap (outcome `capped`).
    fn max_rounds(&self) -> u64;

    /// How many distinct deals these rules have, for `exact`: every deal is played once, which
    /// answers exactly when play after the deal uses no randomness. A usage error says why a
    /// rule set cannot be enumerated (a random pickup, say).
    fn deal_count(&self) -> Result<u128, UsageError> {
        Err(usage_of![
            Op::Exact.of(Self::NAME),
            ": this game's deals are not enumerated; use ",
            Op::Simulate,
        ])
    }

    /// For a rule set with randomness after the deal, the exact answer from the game's Markov
    /// chain over positions, where the game can build it (`exact`); `None` where it cannot.
    /// A set `cancel` stops the solver (a chain may take minutes): the error is then
    /// [`Cancelled`](crate::cancel::Cancelled).
    fn solve_chain(
        &self,
        _cancel: &crate::cancel::Cancel,
    ) -> Option<crate::error::Result<ChainSolution>> {
        None
    }

    /// Plays distinct deal number `i` (0-based, in the order of [`Game::deal_count`]'s
    /// enumeration) to its end; `None` where the game has no enumeration.
    fn play_deal_number(&self, _i: u64, _s: &mut Self::Scratch) -> Option<Result1<Self>> {
        None
    }

    /// Plays distinct deals `range` ([`Game::play_deal_number`]) and hands each result with its
    /// index to `record`, in any order, as [`Game::play_range`] plays a run's games; the
    /// number of a deal the game cannot play is the error. The default plays them one at a
    /// time; War plays many at once in SIMD lanes where its rules allow.
    fn play_deal_range(
        &self,
        range: std::ops::Range<u64>,
        s: &mut Self::Scratch,
        record: &mut dyn FnMut(u64, &Result1<Self>),
    ) -> Result<(), u64> {
        each_deal(self, range, s, record)
    }

    /// The engine path that plays this rule set's simulations on this machine, where a game
    /// has more than one (War: the lanes, the AVX-512 block path, the AVX2 lanes or the scalar
    /// reference): summary.json's provenance names it, since the speed depends on it (the
    /// games never do).
    fn engine(&self) -> Option<String> {
        None
    }

    /// The engine path that plays `exact`'s deals ([`Game::play_deal_range`]) on this machine,
    /// where it differs from [`Game::engine`]'s (Beggar-my-neighbour's lanes play `simulate`
    /// only): what summary.json's provenance names for an `exact` run.
    fn exact_engine(&self) -> Option<String> {
        self.engine()
    }

    /// The same game on the engine path `path` names, where the game has a path of that name
    /// (for tests and benchmarks that time or check one path: every path plays the same
    /// games); otherwise, and by default, the game as it was built, on its fastest path.
    fn on_engine(self, path: &engine_path::EnginePath) -> Self
    where
        Self: Sized,
    {
        let _ = path;
        self
    }

    /// Whether loop detection is on, so that loop statistics are reported.
    fn detects_loops(&self) -> bool {
        false
    }

    /// What the groups of a run count, when it groups its games ([`GameStats::group`]).
    fn grouping(&self) -> Option<String> {
        None
    }

    /// How many groups its games can fall in (groups `0..n`), when it groups them: a run read
    /// back holds no other.
    fn groups(&self) -> u64 {
        0
    }
}

/// The exact answer of an absorbing Markov chain over a game's positions (`exact` with a
/// random pickup): averaged over the equally likely deals.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct ChainSolution {
    /// Positions reachable from the deals.
    pub states: usize,
    /// Distinct deals (the chain's starting positions, equally likely).
    pub deals: u128,
    /// The chance of each way the game can end.
    pub outcomes: Vec<(Outcome, f64)>,
    /// Expected rounds (no round cap).
    pub mean_rounds: f64,
    /// Gauss–Seidel sweeps until no value moved by more than `tolerance` of itself.
    pub sweeps: u64,
    /// That tolerance.
    pub tolerance: f64,
}

/// The result of one game of `G`.
pub type Result1<G> = GameResult<<<G as Game>::Stats as GameStats>::PerGame>;

/// The game whose summary holds `rules` (`merge`, `compare`, `play --from`): read as the game's
/// rule type, then checked as [`checked`] checks a rule set built in code.
pub fn from_rules<G: Game>(rules: &serde_json::Value) -> Result<G, String> {
    let read: G::Rules = serde_json::from_value(rules.clone()).map_err(|e| e.to_string())?;
    checked(read).map_err(|e| e.to_string())
}

/// The game for `rules` built in code (each game's `new`): they pass the same checks as options
/// typed on the command line, and must be what those options give back (floats to 12
/// significant digits: a normalised mix normalises again), so a rule set no option could name
/// (a 104-card Beggar-my-neighbour deck, a mix that does not add up) is refused, not played.
pub fn checked<G: Game>(rules: G::Rules) -> Result<G, UsageError> {
    let game = G::from_settings(&G::settings_of(&rules))?;
    if game.rules() == &rules {
        return Ok(game);
    }
    let again = serde_json::to_value(game.rules()).map_err(|e| usage!("{e}"))?;
    let asked = serde_json::to_value(&rules).map_err(|e| usage!("{e}"))?;
    if same_values(&again, &asked) {
        Ok(game)
    } else {
        Err(usage!("its settings do not form one rule set"))
    }
}

/// Whether two JSON values are equal, floats to a relative 1e-12.
pub fn same_values(a: &serde_json::Value, b: &serde_json::Value) -> bool {
    use serde_json::Value;
    match (a, b) {
        (Value::Number(x), Value::Number(y)) if x.is_f64() || y.is_f64() => {
            let (x, y) = (
                x.as_f64().unwrap_or(f64::NAN),
                y.as_f64().unwrap_or(f64::NAN),
            );
            (x - y).abs() <= 1e-12 * x.abs().max(y.abs())
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same_values(x, y))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| same_values(v, w)))
        }
        _ => a == b,
    }
}

/// `, cap N` for a description when the round cap `max_rounds` is not the game's `default`:
/// two rule sets that differ only in their cap never read alike.
pub fn cap_unless_default(max_rounds: u64, default: u64) -> String {
    if max_rounds == default {
        String::new()
    } else {
        format!(", cap {}", crate::stats::summary::grouped(max_rounds))
    }
}

/// The refusal of `exact` for game `game` whose deck of `cards` cards has more than 10^38 deals
/// (more than a count of them holds): every game with an `exact` says it alike.
pub fn too_many_deals(game: &'static str, cards: usize) -> UsageError {
    crate::usage_of![
        Op::Exact.of(game),
        format!(": a deck of {cards} cards has more than 10^38 deals; use "),
        Op::Simulate,
    ]
}
/// Checks a `max_rounds` value: every game needs at least one round (`unit` names it).
pub fn check_max_rounds(max_rounds: u64, unit: &str) -> Result<u64, UsageError> {
    if max_rounds == 0 {
        return Err(usage_of![
            setting("max_rounds", 0),
            format!(": a game needs at least one {unit}"),
        ]);
    }
    Ok(max_rounds)
}

/// Where a traced game sends its lines; `Break` means the reader has gone and the game stops.
pub type Trace<'a> = &'a mut dyn FnMut(String) -> ControlFlow<()>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_game_names_its_unit_and_counts_it_in_the_singular_for_one() {
        assert_eq!(war::War::UNIT, Unit::ROUNDS);
        assert_eq!(bmn::Bmn::UNIT.many, "cards");
        assert_eq!(snap::Snap::UNIT.many, "turns");
        assert_eq!(rps::Elimination::UNIT.many, "rounds");
        assert_eq!(Unit::CARDS.count(1), "1 card");
        assert_eq!(Unit::CARDS.count(2157), "2,157 cards");
        assert_eq!(Unit::ROUNDS.count(0), "0 rounds");
    }
}
