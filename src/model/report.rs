//! A run's description and the statistics every output format shows, computed once.

use std::ops::Range;

use anyhow::Context as _;
use serde_json::Value;

use super::summary::{
    histogram_digest, GroupJson, LoopStats, Parity, PrecisionJson, Provenance, RunSpan, Summary,
};
use crate::games::{Game, GameStats, Outcome, Unit};
use crate::sim::shard::Shard;
use crate::stats::histogram::Tally;
use crate::stats::summary::{counted, fixed, pct, Distribution, Named, Share};
use crate::stats::tail::{even_share, TailFit};

/// What was run: everything `merge` needs to check that shards belong together.
#[derive(Clone, Debug, PartialEq)]
pub struct RunInfo {
    /// Game name (`war`, …).
    pub game: String,
    /// One-line human description of the rules.
    pub description: String,
    /// What the game's rounds count ([`Game::UNIT`]): every output names them so.
    pub unit: Unit,
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
    /// Whether loop statistics are reported.
    pub detects_loops: bool,
    /// Exact values of the estimated statistics, where known ([`Game::exact`]).
    pub exact: Option<Value>,
    /// For a run to a stated precision: the target and where it stopped.
    pub precision: Option<PrecisionJson>,
    /// What the run's groups count, if it groups its games ([`Game::grouping`]).
    pub grouping: Option<String>,
    /// Whether the games are every distinct deal once (`exact`), not a random sample.
    pub exhaustive: bool,
    /// The engine path that played the games ([`Game::engine`]), where one process played
    /// them all (not a merge).
    pub engine: Option<String>,
}

impl RunInfo {
    /// The description of a run of `game`.
    pub fn new<G: Game>(
        game: &G,
        seed: u64,
        games_total: u64,
        shard: Shard,
    ) -> anyhow::Result<Self> {
        Ok(RunInfo {
            game: G::NAME.to_string(),
            description: game.describe(),
            unit: G::UNIT,
            rules: serde_json::to_value(game.rules()).context("cannot describe the rules")?,
            seed,
            players: game.players(),
            games_total,
            range: shard.range(games_total),
            shard: (shard.count() > 1).then_some(shard),
            detects_loops: game.detects_loops(),
            exact: game.exact(),
            precision: None,
            grouping: game.grouping(),
            exhaustive: false,
            engine: game.engine(),
        })
    }

    /// The `run` object of the summary.
    pub fn span(&self) -> RunSpan {
        RunSpan {
            games_total: self.games_total,
            first_game: self.range.start,
            end_game: self.range.end,
            shard: self.shard.map(|s| s.to_string()),
            stopped: self.stopped(),
        }
    }

    /// One past the last game the run was asked to play: its shard's end, or all its games.
    pub fn planned_end(&self) -> u64 {
        self.shard
            .map_or(self.games_total, |s| s.range(self.games_total).end)
    }

    /// Whether the run was stopped before it played every game it was asked: it holds the
    /// first games of its slice, `range`, and `warsim resume` plays the rest.
    pub fn stopped(&self) -> bool {
        self.range.end < self.planned_end()
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
pub struct Report<'a, S> {
    /// The run.
    pub info: &'a RunInfo,
    /// Its counts.
    pub tally: &'a Tally<S>,
    /// Rounds over all games (`None` only for an empty tally).
    pub rounds: Option<Distribution>,
    /// Outcomes shown, in canonical order, with their counts.
    pub outcomes: Vec<(Outcome, u64)>,
    /// Rounds over the games that ended with a result (not loop or capped), where some games
    /// may not end: loops are detected, or some games were capped.
    pub finished: Option<Distribution>,
    /// Cycle lengths of looping games.
    pub cycles: Option<Distribution>,
    /// The tail of the games that end (not loop or capped).
    pub tail: Option<TailFit>,
    /// Their parity.
    pub parity: Option<Parity>,
    /// Per group (for a run that groups its games): the group, its games, rounds and outcomes.
    pub groups: Vec<Group>,
}

/// The statistics of one group of games.
#[derive(Clone, Debug)]
pub struct Group {
    /// The group's number.
    pub group: u16,
    /// Its games.
    pub games: u64,
    /// Their rounds.
    pub rounds: Option<Distribution>,
    /// The rounds of its games that end (not loop or capped), where the run's do lead
    /// ([`Report::leading_ended`]): the population the terminal and by.png give per group.
    pub finished: Option<Distribution>,
    /// Games per outcome, every outcome the whole run shows.
    pub outcomes: Vec<(Outcome, u64)>,
}

impl Group {
    /// The share of games with outcome `o`.
    pub fn share(&self, o: Outcome) -> Share {
        let n = self.outcomes.iter().find(|x| x.0 == o).map_or(0, |x| x.1);
        Share::new(n, self.games.max(1))
    }

    /// The rounds shown for the group: of its games that end where the run leads with those,
    /// else of all its games.
    pub fn leading(&self) -> Option<&Distribution> {
        self.finished.as_ref().or(self.rounds.as_ref())
    }

    /// A player's fair share of the group's games: an even share of the games someone won
    /// (not those that loop, were capped, drawn or stalled), so that a group where half the
    /// games loop is measured against 25% for each of two players, not 50%.
    pub fn fair_share(&self, players: usize) -> f64 {
        let won: u64 = (self.outcomes.iter())
            .filter(|o| matches!(o.0, Outcome::Player(_)))
            .map(|o| o.1)
            .sum();
        won as f64 / (self.games.max(1) as f64 * players.max(1) as f64)
    }
}

/// (value, count) pairs of the rounds of the games whose outcome `keep` selects.
fn round_counts<S: GameStats>(tally: &Tally<S>, keep: impl Fn(Outcome) -> bool) -> Vec<(u64, u64)> {
    let players = tally.players;
    tally
        .rounds
        .counts_where(move |s| keep(Outcome::from_slot(s, players)))
        .collect()
}

impl<'a, S: GameStats> Report<'a, S> {
    /// Computes the statistics of `tally`.
    pub fn new(info: &'a RunInfo, tally: &'a Tally<S>) -> Self {
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
        let ended = round_counts(tally, |o| !matches!(o, Outcome::Loop | Outcome::Capped));
        // The games that end are a population of their own wherever some games do not: a
        // rule set that detects loops, or a run with games stopped at the cap.
        let unended = tally.games - ended.iter().map(|c| c.1).sum::<u64>();
        let finished = (info.detects_loops || unended > 0)
            .then(|| Distribution::from_counts(&ended))
            .flatten();
        let cycles = info.detects_loops.then(|| {
            let cyc: Vec<(u64, u64)> = tally.cycles.iter().map(|(&l, &n)| (l, n)).collect();
            Distribution::from_counts(&cyc)
        });
        let players = tally.players;
        let shown: &Vec<(Outcome, u64)> = &outcomes;
        // As `leading_ended`: some games do not end, and some do.
        let leads_ended = unended > 0 && finished.as_ref().is_some_and(|f| f.n > 0);
        let groups = tally
            .groups
            .iter()
            .enumerate()
            .filter_map(|(g, h)| {
                let counts: Vec<(u64, u64)> = h.counts_where(|_| true).collect();
                let ends = |s| {
                    !matches!(
                        Outcome::from_slot(s, players),
                        Outcome::Loop | Outcome::Capped
                    )
                };
                let ended: Vec<(u64, u64)> = h.counts_where(ends).collect();
                let totals = h.outcome_totals();
                let games: u64 = totals.iter().sum();
                (games > 0).then(|| Group {
                    group: g as u16,
                    games,
                    rounds: Distribution::from_counts(&counts),
                    finished: leads_ended
                        .then(|| Distribution::from_counts(&ended))
                        .flatten(),
                    outcomes: shown
                        .iter()
                        .map(|&(o, _)| (o, totals[o.slot(players)]))
                        .collect(),
                })
            })
            .collect();
        Report {
            info,
            tally,
            rounds: Distribution::from_counts(&all),
            outcomes,
            finished,
            cycles: cycles.flatten(),
            tail: TailFit::from_counts(&ended).map(|t| t.among(&ended, unended)),
            parity: even_share(&ended).map(|even| Parity { even }),
            groups,
        }
    }

    /// How many games loop and how many were capped.
    pub fn unended(&self) -> Unended {
        let count = |o: Outcome| self.outcomes.iter().find(|x| x.0 == o).map_or(0, |x| x.1);
        Unended {
            looping: count(Outcome::Loop),
            capped: count(Outcome::Capped),
        }
    }

    /// The rounds of the games that end, where some games never end (and some end): the figure
    /// a reader means, so the terminal and the summary table lead with it, named, and give all
    /// games' after.
    pub fn leading_ended(&self) -> Option<&Distribution> {
        let unended = self.unended().total() > 0;
        self.finished.as_ref().filter(|f| unended && f.n > 0)
    }

    /// The rounds of the games that end, and how many loop or were capped, for the charts.
    pub fn curve(&self) -> Curve {
        let endless = |o: Outcome| matches!(o, Outcome::Loop | Outcome::Capped);
        Curve::new(
            round_counts(self.tally, |o| !endless(o)),
            self.unended(),
            self.tail.clone(),
            None,
        )
    }

    /// Games counted.
    pub fn games(&self) -> u64 {
        self.tally.games
    }

    /// The share of games with outcome `o`.
    pub fn share(&self, o: Outcome) -> Share {
        let n = self.outcomes.iter().find(|x| x.0 == o).map_or(0, |x| x.1);
        Share::new(n, self.games().max(1))
    }

    /// The summary: the JSON object of docs/contract.md (plus what `merge` needs), describing
    /// `histogram`, the bytes of histogram.csv; `made` says where it comes from.
    pub fn summary(&self, timing: &Timing, histogram: &[u8], made: Provenance) -> Summary<S::Json> {
        let info = self.info;
        let (longest_rounds, longest_game) = self.tally.longest.unwrap_or((0, info.range.start));
        let loops = info.detects_loops.then(|| {
            let l = self.share(Outcome::Loop);
            LoopStats {
                count: l.count,
                share: l.share,
                ci95: l.ci95,
                cycle_len: self.cycles.clone(),
            }
        });
        let finished_rounds =
            (info.detects_loops || self.unended().total() > 0).then(|| self.finished.clone());
        let games_per_s = if timing.elapsed_s > 0.0 {
            self.games() as f64 / timing.elapsed_s
        } else {
            0.0
        };
        Summary {
            game: info.game.clone(),
            description: info.description.clone(),
            rules: info.rules.clone(),
            games: self.games(),
            seed: info.seed,
            players: info.players,
            run: info.span(),
            rounds: self.rounds.clone(),
            unit: Some(info.unit.many.to_string()),
            outcomes: Named(self.outcomes.iter().map(|&(o, n)| (o.name(), n)).collect()),
            shares: Named(
                self.outcomes
                    .iter()
                    .map(|&(o, _)| (o.name(), self.share(o)))
                    .collect(),
            ),
            longest_game,
            longest_rounds,
            histogram_digest: Some(histogram_digest(histogram)),
            stats: self.tally.stats.to_json(self.games()),
            loops,
            finished_rounds,
            tail: self.tail.clone(),
            parity: self.parity.clone(),
            exact: info.exact.clone(),
            precision: info.precision.clone(),
            grouping: info.grouping.clone(),
            by: self.groups_json(),
            elapsed_s: timing.elapsed_s,
            games_per_s,
            threads: timing.threads,
            timing: timing.note.clone(),
            provenance: Some(Provenance {
                engine: self.info.engine.clone(),
                ..made
            }),
        }
    }

    /// summary.json's `by`: each group's games, rounds and outcomes, where the run groups
    /// its games.
    fn groups_json(&self) -> Option<Named<GroupJson>> {
        (!self.groups.is_empty()).then(|| {
            Named(
                self.groups
                    .iter()
                    .map(|g| {
                        let json = GroupJson {
                            games: g.games,
                            rounds: g.rounds.clone(),
                            finished_rounds: g.finished.clone(),
                            fair_share: Some(g.fair_share(self.tally.players)),
                            outcomes: Named(
                                g.outcomes.iter().map(|&(o, n)| (o.name(), n)).collect(),
                            ),
                            shares: Named(
                                g.outcomes
                                    .iter()
                                    .map(|&(o, _)| (o.name(), g.share(o)))
                                    .collect(),
                            ),
                        };
                        (g.group.to_string(), json)
                    })
                    .collect(),
            )
        })
    }
}

/// The games of a run that did not end with a result, kept apart: a loop never ends, while a
/// capped game was only stopped (it might have ended a round later), so a reader must never
/// see one counted as the other.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Unended {
    /// Games found to repeat a state: they never end.
    pub looping: u64,
    /// Games stopped at `--max-rounds` (or a preset's cap).
    pub capped: u64,
}

impl Unended {
    /// Both kinds together.
    pub fn total(self) -> u64 {
        self.looping + self.capped
    }

    /// `2 loop (0.20%), 3 capped at the round cap (0.30%)`: the kinds that occur, apart, as
    /// shares of `games`; empty when every game ended.
    pub fn describe(self, games: u64) -> String {
        let pct = |n: u64| pct(n as f64 / games.max(1) as f64);
        let mut parts = Vec::new();
        if self.looping > 0 {
            parts.push(format!(
                "{} loop forever ({})",
                counted(self.looping, "game"),
                pct(self.looping)
            ));
        }
        if self.capped > 0 {
            parts.push(format!(
                "{} stopped at the round cap ({})",
                counted(self.capped, "game"),
                pct(self.capped)
            ));
        }
        parts.join(", ")
    }
}

/// The rounds of one rule set's games, as the charts need them.
#[derive(Clone, Debug)]
pub struct Curve {
    /// Games played.
    pub games: u64,
    /// (rounds, games) of the games that ended with a result, ascending.
    pub ended: Vec<(u64, u64)>,
    /// Games that did not end with a result: those that loop and those stopped at the cap.
    pub unended: Unended,
    /// The mean rounds of the games that ended, and its 95% interval.
    pub mean: Option<(f64, Option<[f64; 2]>)>,
    /// The exact expected rounds, where the game knows it.
    pub exact: Option<f64>,
    /// The fitted tail of the games that ended.
    pub tail: Option<TailFit>,
}

impl Curve {
    /// The mean rounds of the games that ended and its interval, as tables show it:
    /// `1,000.663 (994.018 to 1,007.307)`; empty when no game ended.
    pub fn mean_text(&self) -> String {
        self.mean.map_or_else(String::new, |(m, ci)| match ci {
            Some([lo, hi]) => format!("{} ({} to {})", fixed(m, 3), fixed(lo, 3), fixed(hi, 3)),
            None => fixed(m, 3),
        })
    }

    /// The curve of a run whose ended games are `ended` (their fitted tail `tail`) and whose
    /// other games are `unended`.
    pub fn new(
        ended: Vec<(u64, u64)>,
        unended: Unended,
        tail: Option<TailFit>,
        exact: Option<f64>,
    ) -> Curve {
        let d = Distribution::from_counts(&ended);
        Curve {
            games: ended.iter().map(|c| c.1).sum::<u64>() + unended.total(),
            mean: d.as_ref().map(|d| (d.mean, d.ci95)),
            tail,
            ended,
            unended,
            exact,
        }
    }

    /// The share of games that loop, with its interval.
    pub fn looping(&self) -> Share {
        Share::new(self.unended.looping, self.games.max(1))
    }

    /// The share of games stopped at the round cap, with its interval.
    pub fn capped(&self) -> Share {
        Share::new(self.unended.capped, self.games.max(1))
    }

    /// P(rounds > t) as a step function: its value after each round count that occurred,
    /// starting with (0, 1). A game that never ends is longer than every t.
    pub fn survival(&self) -> Vec<(u64, f64)> {
        let n = self.games.max(1) as f64;
        let mut left = self.games;
        let mut out = vec![(0, 1.0)];
        for &(t, c) in &self.ended {
            left -= c;
            out.push((t, left as f64 / n));
        }
        out
    }
}
/// Whether a fitted tail `t` is exponential, in words a reader cannot over-trust: the χ² test
/// (for a sample; every deal of an exact run is no sample) and far out, the share of all games
/// still going (as histogram.csv and the survival chart count them; with the games that end
/// apart where some never do), then the share of the fitted games, observed beside fitted. The
/// terminal, report.html and the survival chart say the same; `None` without a check.
pub fn tail_verdict(t: &TailFit, exhaustive: bool, unit: Unit) -> Option<String> {
    let c = t.check.as_ref()?;
    let games = if exhaustive { "deal" } else { "game" };
    let fitted = format!(
        "of the {} fitted (beyond {}) {}, the fit says {}",
        counted(t.games, games),
        unit.count(t.from),
        pct(c.far_observed),
        pct(c.far_fitted)
    );
    let at = unit.count(c.far_rounds);
    let far = match (c.far_all, c.far_ended) {
        (Some(all), Some(ended)) if all != ended => format!(
            "at {at} {} of all {games}s still go (those that never end included; {} of the \
             {games}s that end); {fitted}",
            pct(all),
            pct(ended)
        ),
        (Some(all), _) => format!("at {at} {} of all {games}s still go; {fitted}", pct(all)),
        _ => format!(
            "at {at} {} of the fitted {games}s still go, the fit says {}",
            pct(c.far_observed),
            pct(c.far_fitted)
        ),
    };
    if exhaustive {
        return Some(format!("fit: {far}"));
    }
    let p = match c.p < 1e-4 {
        true => "p < 0.0001".to_string(),
        false => format!("p {:.4}", c.p),
    };
    let test = format!("χ² {:.1} on {} df, {p}", c.chi2, c.df);
    // With millions of games the test tells apart departures too small to matter: within a
    // tenth far out, the tail is said to be nearly exponential, with the size of the miss.
    let off = c.far_observed / c.far_fitted - 1.0;
    Some(if c.exponential {
        format!("exponential: the fit holds ({test}); {far}")
    } else if off.abs() < NEARLY {
        format!(
            "nearly exponential: the test tells it apart ({test}), by {:.1}% far out: {far}",
            100.0 * off.abs()
        )
    } else {
        format!("NOT exponential ({test}): {far}; the rate only summarises it")
    })
}

/// How far from the fit the share still going far out may be for a tail the χ² test tells
/// apart to be called nearly exponential.
const NEARLY: f64 = 0.1;
