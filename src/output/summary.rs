//! summary.json: one serde type, written by every run and read back by `merge`, so the file
//! and the program can never disagree on a key.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::stats::summary::{Distribution, Named, Share};

/// The summary of a run; `J` is the game's own part ([`crate::games::GameStats::Json`]),
/// flattened into the object.
#[derive(Debug, Serialize, Deserialize)]
pub struct Summary<J> {
    /// Game name.
    pub game: String,
    /// One-line human description of the rules.
    pub description: String,
    /// Every rule setting (preset expanded).
    pub rules: Value,
    /// Games counted.
    pub games: u64,
    /// Base seed.
    pub seed: u64,
    /// Number of players.
    pub players: usize,
    /// Which games of which run this covers.
    pub run: RunSpan,
    /// Rounds over all games (`null` only for an empty run).
    pub rounds: Option<Distribution>,
    /// Games per outcome, in canonical order.
    pub outcomes: Named<u64>,
    /// Share of games per outcome, with its 95% interval.
    pub shares: Named<Share>,
    /// The lowest index of a game with the most rounds.
    pub longest_game: u64,
    /// Its rounds.
    pub longest_rounds: u64,
    /// The digest of histogram.csv ([`crate::merge::histogram_digest`]), so `merge` can tell
    /// that a histogram is the one this summary describes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub histogram_digest: Option<String>,
    /// The game's own statistics.
    #[serde(flatten)]
    pub stats: J,
    /// Loop statistics, for rule sets with loop detection.
    #[serde(flatten)]
    pub loops: Option<LoopSummary>,
    /// Exact values of the estimated statistics, where known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exact: Option<Value>,
    /// Seconds the work took.
    pub elapsed_s: f64,
    /// Games per second.
    pub games_per_s: f64,
    /// Worker threads, when one process did the work.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub threads: Option<usize>,
    /// How `elapsed_s` was obtained, when it is not one process's wall time.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timing: Option<String>,
}

/// The game indices an output covers, and the run they belong to.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunSpan {
    /// Games in the whole run (all shards).
    pub games_total: u64,
    /// First game index covered.
    pub first_game: u64,
    /// One past the last game index covered.
    pub end_game: u64,
    /// `K/N`, or `null` for a whole run (or a complete merge).
    pub shard: Option<String>,
}

/// Loop statistics of a rule set with loop detection.
#[derive(Debug, Serialize, Deserialize)]
pub struct LoopSummary {
    /// How many games never end, and their cycle lengths.
    pub loops: LoopStats,
    /// Rounds of the games that ended with a result (not loop or capped).
    pub finished_rounds: Option<Distribution>,
}

/// The `loops` object.
#[derive(Debug, Serialize, Deserialize)]
pub struct LoopStats {
    /// Looping games.
    pub count: u64,
    /// Their share.
    pub share: f64,
    /// Its 95% Wilson interval.
    pub ci95: [f64; 2],
    /// Their cycle lengths.
    pub cycle_len: Option<Distribution>,
}
