//! What one game reports to the statistics and what the statistics keep of a game's own
//! counts: the layer under both the games and the tallies, so neither imports the other.

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::fmt::Debug;

use crate::stats::count::Overflow;

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

/// A game's own statistics over many games, beyond rounds and outcomes (War: wars per game and
/// their depths). Integer tallies only, so merging is exact and order-free; every rendering of
/// them (JSON, CSV, text) lives here, with the game, never in a generic layer.
pub trait GameStats: Clone + Debug + Default + PartialEq + Send + Sync {
    /// What one game reports.
    type PerGame: Copy + Debug + Default + PartialEq + Send;
    /// Its part of summary.json (flattened into the summary object), written and read back.
    type Json: Serialize + DeserializeOwned + Debug + Send + Sync;

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
    /// The charts of the game's own statistics (War: places.png with three players or more,
    /// quit.png with `--quit-stats`), none by default.
    fn charts(&self) -> Vec<ShareChart> {
        Vec::new()
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
    /// The share every point would have if nothing favoured any (a dashed line): ½ for a
    /// player's wins against another's, 1/N for a place among N players.
    pub even: f64,
    /// Each series: its legend label and its points (x, share).
    pub series: Vec<(String, Vec<(u64, crate::stats::summary::Share)>)>,
}

/// No statistics of its own: an empty part of the summary.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
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

#[cfg(test)]
mod tests {
    use super::Outcome;

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
