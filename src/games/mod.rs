//! The games: each one a module with its rules, its deal, its adjudication, its statistics, its
//! `play` command and its tests.
//!
//! Every game implements [`Game`]; the engine ([`crate::sim::engine`]), the tallies, the output
//! formats and `merge` handle any of them without knowing which it is. [`kind`] is the one list
//! of games the command line offers.

pub mod arrange;
pub mod bmn;
pub mod cards;
pub mod cycle;
pub mod jitsu;
pub mod kind;
pub mod rps;
pub mod shotgun;
pub mod snap;
pub mod war;

use std::fmt::Debug;
use std::io::{self, BufRead, Write};
use std::ops::ControlFlow;

use rand::RngCore;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::error::UsageError;
use crate::stats::histogram::Overflow;
use crate::usage;

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
        record(i, &game.play(&mut crate::sim::rng::game_rng(seed, i), s));
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

/// The rules of one game: deal, then play to the end, with no I/O; and the `play` command that
/// shows one game.
pub trait Game: Send + Sync + Sized + 'static {
    /// The game's name on the command line and in the JSON summary.
    const NAME: &'static str;
    /// What `simulate GAME` plays, in a line (its help and `warsim games`).
    const ABOUT: &'static str;
    /// What `play GAME` does, in a line.
    const PLAY_ABOUT: &'static str;
    /// What `play GAME --help` says instead of [`Game::PLAY_ABOUT`], where a line is too short
    /// (`-h` keeps the line).
    const PLAY_HELP: Option<&'static str> = None;
    /// The rules in a paragraph and where to read more (docs/rules/GAME.md, which states every
    /// rule point of the document the game was specified from with its worked examples), shown
    /// under the help of `simulate`, `exact` and `play GAME`.
    const RULES: &'static str;
    /// A small rule set (rule options of `simulate GAME`) that the conformance suite plays:
    /// quick to simulate, and small enough for `exact` where the game has it.
    const EXAMPLE: &'static [&'static str];
    /// The rule options of `simulate GAME`.
    type Options: clap::Args + clap::FromArgMatches + Debug;
    /// Every rule setting in use (preset expanded): the JSON `rules` object, read back by
    /// [`from_rules`].
    type Rules: Serialize + DeserializeOwned + PartialEq;
    /// What the game counts besides rounds and outcomes (`()` for nothing).
    type Stats: GameStats;
    /// Reusable buffers, one per worker, so the hot loop never allocates.
    type Scratch: Send;
    /// The arguments of `play GAME`.
    type PlayArgs: clap::Args + clap::FromArgMatches + Debug;

    /// The game for these options, or a usage error naming the bad option.
    fn from_options(options: &Self::Options) -> Result<Self, UsageError>;

    /// The rule set.
    fn rules(&self) -> &Self::Rules;

    /// The rule options that give `rules`, so that rules read back from a file pass the same
    /// checks as options typed on the command line ([`from_rules`]).
    fn options_of(rules: &Self::Rules) -> Self::Options;

    /// Fresh buffers for one worker.
    fn scratch(&self) -> Self::Scratch;

    /// Plays one whole game, drawing all randomness from `rng`.
    fn play<R: RngCore + ?Sized>(&self, rng: &mut R, s: &mut Self::Scratch) -> Result1<Self>;

    /// Plays games `range` of the run with base `seed` and hands each result with its index to
    /// `record`, in any order. Game `i` must be exactly the game [`Game::play`] plays from
    /// [`game_rng`](crate::sim::rng::game_rng)`(seed, i)`: the engine's tallies are sums, so
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
        Err(usage!(
            "exact {}: this game's deals are not enumerated; use simulate",
            Self::NAME
        ))
    }

    /// For a rule set with randomness after the deal, the exact answer from the game's Markov
    /// chain over positions, where the game can build it (`exact`); `None` where it cannot.
    fn solve_chain(&self) -> Option<Result<ChainSolution, UsageError>> {
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

    /// `play GAME`: plays the game the arguments describe, writing its trace (or an
    /// interactive game's transcript) to `io` as it is made.
    fn play_command(args: &Self::PlayArgs, io: &mut PlayIo) -> anyhow::Result<PlayReport>;
}

/// The exact answer of an absorbing Markov chain over a game's positions (`exact` with a
/// random pickup): averaged over the equally likely deals.
#[derive(Clone, Debug, PartialEq)]
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

/// A game's own statistics over many games, beyond rounds and outcomes (War: wars per game and
/// their depths). Integer tallies only, so merging is exact and order-free; every rendering of
/// them (JSON, CSV, text) lives here, with the game, never in a generic layer.
pub trait GameStats: Clone + Debug + Default + PartialEq + Send {
    /// What one game reports.
    type PerGame: Copy + Debug + Default + PartialEq + Send;
    /// Its part of summary.json (flattened into the summary object), written and read back.
    type Json: Serialize + DeserializeOwned + Debug;

    /// Counts one game.
    fn record(&mut self, game: &Self::PerGame);
    /// Adds `other` (integers only, checked: counts read from files may be anything).
    fn merge(&mut self, other: &Self) -> Result<(), Overflow>;
    /// The summary's part, for a run of `games` games.
    fn to_json(&self, games: u64) -> Self::Json;
    /// Reads back what [`GameStats::to_json`] wrote for `games` games, or says what is wrong.
    fn from_json(json: Self::Json, games: u64) -> Result<Self, String>;
    /// Columns of summary.csv, (name, value).
    fn csv(&self, games: u64) -> Vec<(String, String)>;
    /// Lines of the terminal summary.
    fn text(&self, games: u64) -> Vec<String>;
    /// The group of a game, for a game that tallies its statistics by groups (War `--by`);
    /// the tally then keeps a histogram per group.
    #[inline(always)]
    fn group(_game: &Self::PerGame) -> Option<u16> {
        None
    }
    /// A table of the game's own statistics for a file of its own (War `--quit-stats`:
    /// quit.csv), or none.
    fn table(&self) -> Option<StatsTable> {
        None
    }
    /// A chart of the game's own statistics (War `--quit-stats`: quit.png), or none.
    fn chart(&self) -> Option<ShareChart> {
        None
    }
}

/// A table a game's statistics add to a run's files: CSV rows under a header.
#[derive(Clone, Debug, PartialEq)]
pub struct StatsTable {
    /// The file's name (one of the output set's known files).
    pub file: &'static str,
    /// Column names.
    pub header: Vec<&'static str>,
    /// The rows, one value per column.
    pub rows: Vec<Vec<String>>,
}

/// A chart a game's statistics add to a run's charts: shares with their 95% Wilson intervals
/// against a whole number, one line per series. The game says what it shows; the output layer
/// draws it as it draws every chart.
#[derive(Clone, Debug, PartialEq)]
pub struct ShareChart {
    /// The file name without the extension.
    pub stem: &'static str,
    /// What it shows, as report.html captions it.
    pub caption: &'static str,
    /// The line under the title saying what is plotted.
    pub what: String,
    /// The x axis's description.
    pub x_desc: &'static str,
    /// The y axis's description (the shares are drawn as percentages).
    pub y_desc: &'static str,
    /// Each series: its legend label and its points (x, share).
    pub series: Vec<(String, Vec<(u64, crate::stats::summary::Share)>)>,
}

/// No statistics of its own: an empty part of the summary.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct NoStats {}

impl GameStats for () {
    type PerGame = ();
    type Json = NoStats;
    fn record(&mut self, _: &()) {}
    fn merge(&mut self, _: &()) -> Result<(), Overflow> {
        Ok(())
    }
    fn to_json(&self, _: u64) -> NoStats {
        NoStats {}
    }
    fn from_json(_: NoStats, _: u64) -> Result<(), String> {
        Ok(())
    }
    fn csv(&self, _: u64) -> Vec<(String, String)> {
        Vec::new()
    }
    fn text(&self, _: u64) -> Vec<String> {
        Vec::new()
    }
}

/// The game whose summary holds `rules` (`merge`, `compare`, `play --from`): read as the game's
/// rule type, then built by the game's own option checks, which must give back the same rules
/// (floats to 12 significant digits: a normalised mix read back normalises again).
pub fn from_rules<G: Game>(rules: &serde_json::Value) -> Result<G, String> {
    let read: G::Rules = serde_json::from_value(rules.clone()).map_err(|e| e.to_string())?;
    let game = G::from_options(&G::options_of(&read)).map_err(|e| e.0)?;
    let again = serde_json::to_value(game.rules()).map_err(|e| e.to_string())?;
    if game.rules() == &read || same_values(&again, rules) {
        Ok(game)
    } else {
        Err("its settings do not form one rule set".into())
    }
}

/// Whether two JSON values are equal, floats to a relative 1e-12.
pub(crate) fn same_values(a: &serde_json::Value, b: &serde_json::Value) -> bool {
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

/// The name a rule setting has in the JSON `rules` object (and on the command line), such as
/// `last-card` for a variant `LastCard`: its serde name, so the two never disagree.
pub fn setting_name<T: Serialize>(setting: T) -> String {
    serde_json::to_value(setting)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_default()
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

/// Checks a `--max-rounds` value: every game needs at least one round (`unit` names it).
pub fn check_max_rounds(max_rounds: u64, unit: &str) -> Result<u64, UsageError> {
    if max_rounds == 0 {
        return Err(usage!("--max-rounds 0: a game needs at least one {unit}"));
    }
    Ok(max_rounds)
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// The player with this 0-based index won.
    Player(u8),
    /// Nobody won (e.g. both players ran out in the same war).
    Draw,
    /// No move can change the game any more (Snap).
    Stalemate,
    /// A state repeated, so the game would go on forever.
    Loop,
    /// The game reached its round cap undecided.
    Capped,
}

impl Outcome {
    /// The outcome's name in JSON and CSV: `p1`…`pN`, `draw`, `stalemate`, `loop`, `capped`.
    pub fn name(self) -> String {
        match self {
            Outcome::Player(p) => format!("p{}", u32::from(p) + 1),
            Outcome::Draw => "draw".into(),
            Outcome::Stalemate => "stalemate".into(),
            Outcome::Loop => "loop".into(),
            Outcome::Capped => "capped".into(),
        }
    }

    /// The outcome's index in a table of `players + 4` slots: players first, then draw,
    /// stalemate, loop, capped.
    #[inline]
    pub fn slot(self, players: usize) -> usize {
        match self {
            Outcome::Player(p) => usize::from(p),
            Outcome::Draw => players,
            Outcome::Stalemate => players + 1,
            Outcome::Loop => players + 2,
            Outcome::Capped => players + 3,
        }
    }

    /// The inverse of [`Outcome::slot`].
    pub fn from_slot(slot: usize, players: usize) -> Outcome {
        match slot.checked_sub(players) {
            None => Outcome::Player(slot as u8),
            Some(0) => Outcome::Draw,
            Some(1) => Outcome::Stalemate,
            Some(2) => Outcome::Loop,
            _ => Outcome::Capped,
        }
    }

    /// The inverse of [`Outcome::name`], for a game of `players` players.
    pub fn parse(name: &str, players: usize) -> Option<Outcome> {
        match name {
            "draw" => Some(Outcome::Draw),
            "stalemate" => Some(Outcome::Stalemate),
            "loop" => Some(Outcome::Loop),
            "capped" => Some(Outcome::Capped),
            _ => {
                let k: usize = name.strip_prefix('p')?.parse().ok()?;
                (1..=players)
                    .contains(&k)
                    .then(|| Outcome::Player((k - 1) as u8))
            }
        }
    }

    /// The JSON `players` of a two-player result: the winner alone, or both players.
    pub fn two_players_left(self) -> Vec<u32> {
        match self {
            Outcome::Player(p) => vec![u32::from(p) + 1],
            _ => vec![1, 2],
        }
    }
}

/// A repeated state: the state after `loop_from + cycle_len` rounds equals the one after
/// `loop_from` rounds, and no earlier pair of states is equal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cycle {
    /// Rounds played before the state that repeats (0 = the initial state).
    pub loop_from: u64,
    /// Rounds between the two equal states.
    pub cycle_len: u64,
}

/// What one game reports to the statistics; `S` is what the game counts of its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameResult<S = ()> {
    /// Rounds played, the deciding one included; a capped game counts the cap, a loop counts
    /// `loop_from + cycle_len`.
    pub rounds: u64,
    /// How the game ended.
    pub outcome: Outcome,
    /// The cycle, for an outcome [`Outcome::Loop`].
    pub cycle: Option<Cycle>,
    /// The game's own statistics ([`GameStats::PerGame`]).
    pub stats: S,
}

impl<S: Default> GameResult<S> {
    /// A result with no cycle and empty statistics.
    pub fn plain(rounds: u64, outcome: Outcome) -> Self {
        GameResult {
            rounds,
            outcome,
            cycle: None,
            stats: S::default(),
        }
    }
}

/// What `play GAME` found: printed as text or as one JSON object by [`crate::play`].
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PlayReport {
    /// The game's name.
    pub game: &'static str,
    /// An outcome name ([`Outcome::name`]), or a game's own (`none`, `winners`).
    pub outcome: String,
    /// Rounds played.
    pub rounds: u64,
    /// The 1-indexed players still in the game, or the winner alone.
    pub players: Vec<u32>,
    /// For a loop: the round after which the repeated state first stood.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub loop_from: Option<u64>,
    /// For a loop: rounds between the two equal states.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cycle_len: Option<u64>,
    /// The game's own keys (rules, seed, statistics of the game).
    #[serde(flatten)]
    pub extra: serde_json::Map<String, serde_json::Value>,
    /// What the plain-text output prints after the trace (nothing if empty).
    #[serde(skip)]
    pub text: String,
    /// What the plain-text output says on stderr beside `text`, where stdout's form is fixed
    /// (Snap's answers are the seed's: a loop and a stalemate print alike there).
    #[serde(skip)]
    pub note: String,
}

impl PlayReport {
    /// A report of `game` with no cycle and no extra keys.
    pub fn new(game: &'static str, outcome: String, rounds: u64, players: Vec<u32>) -> Self {
        PlayReport {
            game,
            outcome,
            rounds,
            players,
            loop_from: None,
            cycle_len: None,
            extra: serde_json::Map::new(),
            text: String::new(),
            note: String::new(),
        }
    }

    /// Sets the loop keys from `cycle`.
    pub fn with_cycle(mut self, cycle: Option<Cycle>) -> Self {
        self.loop_from = cycle.map(|c| c.loop_from);
        self.cycle_len = cycle.map(|c| c.cycle_len);
        self
    }

    /// Sets the plain-text line.
    pub fn with_text(mut self, text: impl Into<String>) -> Self {
        self.text = text.into();
        self
    }

    /// Sets the plain-text note for stderr.
    pub fn with_note(mut self, note: impl Into<String>) -> Self {
        self.note = note.into();
        self
    }
}

/// What a `play` command reads and writes, so the games stay free of the process's I/O.
pub struct PlayIo<'a> {
    /// Whether `--trace` asked for a trace.
    pub trace: bool,
    /// Where trace lines (or an interactive game's transcript) go, one line at a time, as
    /// they are made: a trace of millions of rounds is never held in memory.
    pub out: &'a mut dyn Write,
    /// Input of an interactive game.
    pub input: &'a mut dyn BufRead,
    /// Whether the input shows as it is typed (stdin is a terminal, which echoes it); if not,
    /// an interactive game writes what it read after its prompt, so the prompts read as a
    /// dialogue in a log.
    pub input_echoed: bool,
    /// Prompts and messages of an interactive game (stderr).
    pub prompt: &'a mut dyn Write,
}

impl PlayIo<'_> {
    /// The generator the engine gives game `index` of a run with base `seed`: a replay draws
    /// exactly what that game of the run drew, and only the simulation layer knows how the
    /// generator is derived.
    pub fn game_rng(&self, seed: u64, index: u64) -> crate::sim::rng::GameRng {
        crate::sim::rng::game_rng(seed, index)
    }
}

/// Writes trace lines to a `play` command's output, keeping the first write error so the
/// rules, which cannot fail, need not handle it: they only learn, from
/// [`ControlFlow::Break`], that nobody reads the trace any more and stop playing (a trace of
/// millions of rounds piped into `head` must not run on for seconds after `head` quits).
pub struct LineSink<'a> {
    out: &'a mut dyn Write,
    error: Option<io::Error>,
}

impl<'a> LineSink<'a> {
    /// A sink writing to `out`.
    pub fn new(out: &'a mut dyn Write) -> Self {
        LineSink { out, error: None }
    }

    /// Writes one line; `Break` once a write has failed (and nothing is written after that).
    pub fn line(&mut self, line: &str) -> ControlFlow<()> {
        if self.error.is_none() {
            if let Err(e) = writeln!(self.out, "{line}") {
                self.error = Some(e);
            }
        }
        if self.error.is_some() {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    }

    /// The first write error, if any. A game stopped by a `Break` returns a result that is not
    /// its end, so its caller asks this first and reports the error instead.
    pub fn finish(self) -> io::Result<()> {
        self.error.map_or(Ok(()), Err)
    }
}

/// Where a traced game sends its lines; `Break` means the reader has gone and the game stops.
pub type Trace<'a> = &'a mut dyn FnMut(String) -> ControlFlow<()>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outcome_names_and_slots_round_trip() {
        let all = [
            Outcome::Player(0),
            Outcome::Player(2),
            Outcome::Draw,
            Outcome::Stalemate,
            Outcome::Loop,
            Outcome::Capped,
        ];
        for o in all {
            assert_eq!(Outcome::parse(&o.name(), 3), Some(o));
            assert_eq!(Outcome::from_slot(o.slot(3), 3), o);
        }
        assert_eq!(Outcome::Player(2).name(), "p3");
        assert_eq!(Outcome::parse("p4", 3), None);
        assert_eq!(Outcome::parse("p0", 3), None);
        assert_eq!(Outcome::parse("winner", 3), None);
    }
}
