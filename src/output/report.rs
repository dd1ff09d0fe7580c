//! A run's description and the statistics every output format shows, computed once.

use std::ops::Range;

use serde_json::{json, Map, Value};

use crate::games::{Game, Outcome, WAR_DEPTHS};
use crate::sim::shard::Shard;
use crate::stats::histogram::Tally;
use crate::stats::summary::{Distribution, Share};

/// What was run: everything `merge` needs to check that shards belong together.
#[derive(Clone, Debug, PartialEq)]
pub struct RunInfo {
    /// Game name (`war`, …).
    pub game: String,
    /// One-line human description of the rules.
    pub description: String,
    /// The JSON `rules` object.
    pub rules: Value,
    /// Base seed.
    pub seed: u64,
    /// Number of players.
    pub players: usize,
    /// Games in the whole run (all shards).
    pub games_total: u64,
    /// Global game indices this output covers.
    pub range: Range<u64>,
    /// The shard, or `None` for a whole run (or a complete merge).
    pub shard: Option<Shard>,
    /// Whether War's war statistics are reported.
    pub counts_wars: bool,
    /// Whether loop statistics are reported.
    pub detects_loops: bool,
    /// Exact values of the estimated statistics, where known ([`Game::exact`]).
    pub exact: Option<Value>,
}

impl RunInfo {
    /// The description of a run of `game`.
    pub fn new<G: Game>(game: &G, seed: u64, games_total: u64, shard: Shard) -> Self {
        RunInfo {
            game: game.name().to_string(),
            description: game.describe(),
            rules: game.rules_json(),
            seed,
            players: game.players(),
            games_total,
            range: shard.range(games_total),
            shard: (shard.count > 1).then_some(shard),
            counts_wars: game.counts_wars(),
            detects_loops: game.detects_loops(),
            exact: game.exact(),
        }
    }
}

/// How long the work took.
#[derive(Clone, Debug, PartialEq)]
pub struct Timing {
    /// Seconds.
    pub elapsed_s: f64,
    /// Worker threads, when one process did the work.
    pub threads: Option<usize>,
    /// How `elapsed_s` was obtained, when it is not one process's wall time.
    pub note: Option<String>,
}

/// The statistics of a run, from its tally.
#[derive(Clone, Debug)]
pub struct Report<'a> {
    /// The run.
    pub info: &'a RunInfo,
    /// Its counts.
    pub tally: &'a Tally,
    /// Rounds over all games (`None` only for an empty tally).
    pub rounds: Option<Distribution>,
    /// Outcomes shown, in canonical order, with their counts.
    pub outcomes: Vec<(Outcome, u64)>,
    /// Rounds over games that ended with a result (not loop or capped), with loop detection.
    pub finished: Option<Distribution>,
    /// Cycle lengths of looping games.
    pub cycles: Option<Distribution>,
}

/// The JSON key of war depth index `d` (0-based) in `battles_by_depth`: "1", "2", …, and
/// "8+" for the last, which counts every deeper war too.
pub fn depth_key(d: usize) -> String {
    if d + 1 == WAR_DEPTHS {
        format!("{WAR_DEPTHS}+")
    } else {
        (d + 1).to_string()
    }
}

/// (value, count) pairs of the rounds of the games whose outcome slot `keep` selects.
fn round_counts(tally: &Tally, keep: impl Fn(Outcome) -> bool) -> Vec<(u64, u64)> {
    let players = tally.players;
    tally
        .rounds
        .counts_where(move |s| keep(Outcome::from_slot(s, players)))
        .collect()
}

impl<'a> Report<'a> {
    /// Computes the statistics of `tally`.
    pub fn new(info: &'a RunInfo, tally: &'a Tally) -> Self {
        let all = round_counts(tally, |_| true);
        let outcomes = tally
            .outcomes()
            .into_iter()
            .filter(|&(o, n)| {
                n > 0
                    || matches!(o, Outcome::Player(_))
                    || (info.detects_loops && matches!(o, Outcome::Loop | Outcome::Capped))
            })
            .collect();
        let (finished, cycles) = if info.detects_loops {
            let done = round_counts(tally, |o| !matches!(o, Outcome::Loop | Outcome::Capped));
            let cyc: Vec<(u64, u64)> = tally.cycles.iter().map(|(&l, &n)| (l, n)).collect();
            (
                Distribution::from_counts(&done),
                Distribution::from_counts(&cyc),
            )
        } else {
            (None, None)
        };
        Report {
            info,
            tally,
            rounds: Distribution::from_counts(&all),
            outcomes,
            finished,
            cycles,
        }
    }

    /// Games counted.
    pub fn games(&self) -> u64 {
        self.tally.games()
    }

    /// Mean wars per game.
    pub fn wars_mean(&self) -> f64 {
        self.tally.wars as f64 / self.games().max(1) as f64
    }

    /// The share of games with outcome `o`.
    pub fn share(&self, o: Outcome) -> Share {
        let n = self.outcomes.iter().find(|x| x.0 == o).map_or(0, |x| x.1);
        Share::new(n, self.games().max(1))
    }

    /// The summary as the JSON object of SPEC.md (plus what `merge` needs).
    pub fn to_json(&self, timing: &Timing) -> Value {
        let info = self.info;
        let mut rounds = serde_json::to_value(&self.rounds).unwrap_or(Value::Null);
        if let Value::Object(m) = &mut rounds {
            m.remove("n");
        }
        let outcomes: Map<String, Value> = self
            .outcomes
            .iter()
            .map(|(o, n)| (o.name(), json!(n)))
            .collect();
        let shares: Map<String, Value> = self
            .outcomes
            .iter()
            .map(|&(o, _)| (o.name(), json!(self.share(o))))
            .collect();
        let (longest_rounds, longest_game) = self.tally.longest.unwrap_or((0, info.range.start));
        let mut v = json!({
            "game": info.game,
            "description": info.description,
            "rules": info.rules,
            "games": self.games(),
            "seed": info.seed,
            "players": info.players,
            "run": {
                "games_total": info.games_total,
                "first_game": info.range.start,
                "end_game": info.range.end,
                "shard": info.shard.map(|s| s.to_string()),
            },
            "rounds": rounds,
            "outcomes": outcomes,
            "shares": shares,
            "longest_game": longest_game,
            "longest_rounds": longest_rounds,
        });
        let m = v.as_object_mut().expect("a JSON object");
        if info.counts_wars {
            let deepest: Map<String, Value> = self
                .tally
                .deepest
                .iter()
                .enumerate()
                .filter(|(_, &n)| n > 0)
                .map(|(d, &n)| (d.to_string(), json!(n)))
                .collect();
            let by_depth: Map<String, Value> = self
                .tally
                .war_depths
                .iter()
                .enumerate()
                .filter(|(_, &n)| n > 0)
                .map(|(d, &n)| (depth_key(d), json!(n)))
                .collect();
            let per_game: Map<String, Value> = by_depth
                .iter()
                .map(|(k, n)| {
                    (
                        k.clone(),
                        json!(n.as_u64().unwrap_or(0) as f64 / self.games().max(1) as f64),
                    )
                })
                .collect();
            m.insert(
                "wars".into(),
                json!({
                    "mean": self.wars_mean(),
                    "total": self.tally.wars,
                    "deepest": deepest,
                    "battles_by_depth": by_depth,
                    "battles_by_depth_per_game": per_game,
                }),
            );
        }
        if info.detects_loops {
            let loops = self.share(Outcome::Loop);
            m.insert(
                "loops".into(),
                json!({
                    "count": loops.count,
                    "share": loops.share,
                    "ci95": loops.ci95,
                    "cycle_len": self.cycles,
                }),
            );
            m.insert("finished_rounds".into(), json!(self.finished));
        }
        if let Some(exact) = &info.exact {
            m.insert("exact".into(), exact.clone());
        }
        m.insert("elapsed_s".into(), json!(timing.elapsed_s));
        let rate = if timing.elapsed_s > 0.0 {
            self.games() as f64 / timing.elapsed_s
        } else {
            0.0
        };
        m.insert("games_per_s".into(), json!(rate));
        if let Some(t) = timing.threads {
            m.insert("threads".into(), json!(t));
        }
        if let Some(note) = &timing.note {
            m.insert("timing".into(), json!(note));
        }
        v
    }
}
