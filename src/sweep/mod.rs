//! `sweep GAME [options]`: every combination of listed rule settings, each a whole run on the
//! same games.
//!
//! A sweep is typed ([`Sweep`]): the settings that vary with their values, and every rule set
//! built as its game, which the command line ([`from_args`]) and the Python package make each
//! their own way; each rule set is run with the same seed and game indices as a `simulate` with
//! those settings, so its histogram is byte for byte that run's. On the command line any rule
//! option of `simulate GAME` may take a comma list (`--war-down 1,3`) or `all` (every value of
//! an option with a fixed list, `--pickup all`); `;` separates values that hold commas
//! themselves (`--mix "1,1,1;2,1,1"`), and a value the option accepts whole is never split
//! (`--mix 2,1,1` is one mix). The rule sets are the cartesian product, in the order the
//! settings are given.

mod args;
mod keep;
mod play;
mod resume;
mod value;

use std::collections::HashSet;
use std::time::Duration;

use anyhow::Result;

use crate::config::setup::{Setup, WithGame};
use crate::config::RunConfig;
use crate::error::{long, UsageError};
use crate::estimate::Estimate;
use crate::games::Game;
use crate::model::sweep::RuleSet;
use crate::session::Session;
use crate::sim::pilot;
use crate::stats::summary::{counted, grouped};
use crate::term::progress::{Progress, Show};
use crate::{run, usage};
pub use args::{from_args, from_words, help_text};
pub use play::{Prepared, Start};
pub use resume::{resume, resumes_a_sweep};
pub use value::SweepRun;
use warsim_core::error::{setting, setting_alone};
use warsim_core::usage_of;

/// Rule sets a sweep may hold unless its caller allows more (`--max-rule-sets`): each writes a
/// folder of files (about 0.3 MB), and a thousand of them is already more than a chart or a
/// table can show; more is most likely a list that went wrong (`--max-rounds 1,2,...,10000`).
pub const MAX_RULE_SETS: u64 = 1_000;

/// The run options a sweep refuses (each rule set is a whole run).
pub const REFUSED: &[&str] = &["shard"];

/// Seconds a rule set spends writing its folder (summary, CSVs, charts), added to its games'
/// estimate: 6.5 ms measured on a 2-core machine for runs of one game.
const WRITE_SECONDS: f64 = 0.01;

/// The longest folder name most file systems take (`NAME_MAX`), in bytes.
const NAME_MAX: usize = 255;

/// A sweep: the game, the settings that vary, every rule set built, and the run options they
/// share.
#[derive(Clone, Debug)]
pub struct Sweep {
    /// The game's name.
    pub game: String,
    /// Each setting that varies (named as its settings struct names it, `war_down`; the
    /// outputs spell it as the command line does, `war-down`: [`crate::error::long`]) with
    /// its values as text, in the order given.
    pub axes: Vec<(String, Vec<String>)>,
    /// Every rule set, the first axis varying slowest: its values, and the game they make.
    pub rule_sets: Vec<(RuleSet, Setup)>,
    /// The run options every rule set shares.
    pub run: RunConfig,
}

impl Sweep {
    /// The sweep of game `game` over `axes`, every rule set's game built by `build` from the
    /// set and the index of its value on each axis; refused with more than `max_rule_sets`
    /// rule sets, with a shard, or without an output folder.
    pub fn new(
        game: &str,
        axes: Vec<(String, Vec<String>)>,
        run: RunConfig,
        max_rule_sets: u64,
        mut build: impl FnMut(&RuleSet, &[usize]) -> Result<Setup, UsageError>,
    ) -> Result<Sweep, UsageError> {
        if run.shard.is_some() {
            return Err(usage_of![
                "sweep: ",
                setting_alone("shard"),
                " is not for sweeps; shard each rule set's `simulate` instead",
            ]);
        }
        // An axis with no values makes no rule set: a sweep of nothing, whose charts have no
        // point to draw (plotters looked for their range forever).
        if let Some((name, _)) = axes.iter().find(|a| a.1.is_empty()) {
            return Err(usage!(
                "sweep {game}: {} lists no values; list at least one",
                long(name)
            ));
        }
        let count = axes
            .iter()
            .try_fold(1u64, |n, a| n.checked_mul(a.1.len() as u64));
        match count {
            Some(n) if n <= max_rule_sets => {}
            n => {
                return Err(usage_of![
                    format!(
                        "sweep {game}: the lists make {} rule sets, more than {} (each writes a \
                         folder of files); sweep fewer values, or allow more with ",
                        n.map_or_else(|| "over 2^64".into(), grouped),
                        grouped(max_rule_sets)
                    ),
                    setting("max_rule_sets", "N"),
                ])
            }
        }
        if run.out.is_none() {
            return Err(usage_of![
                format!("sweep {game}: "),
                setting("out", "DIR"),
                " is missing (a sweep writes a directory)",
            ]);
        }
        let rule_sets: Vec<(RuleSet, Setup)> = product(&axes)
            .into_iter()
            .map(|(set, at)| build(&set, &at).map(|g| (set, g)))
            .collect::<Result<_, _>>()?;
        if let Some((_, g)) = rule_sets.iter().find(|(_, g)| g.name() != game) {
            return Err(usage!(
                "sweep {game}: a rule set of {} is no rule set of {game}",
                g.name()
            ));
        }
        Ok(Sweep {
            game: game.to_string(),
            axes,
            rule_sets,
            run,
        })
    }

    /// The sweep checked, before anything is run or written: every rule set's game against
    /// the run options, and its folder's name.
    pub fn prepare(&self) -> Result<Prepared<'_>> {
        check_all(self)?;
        let sets: Vec<RuleSet> = self.rule_sets.iter().map(|s| s.0.clone()).collect();
        let names = folder_names(&self.game, &sets)?;
        Ok(Prepared { sweep: self, names })
    }

    /// Games each rule set plays: `--games`, or its default (with `--precision`, the games
    /// before its first check: a run to a precision learns its length as it goes).
    fn per_set(&self) -> u64 {
        let run0 = &self.run;
        let default = if run0.precision.is_some() {
            run::DEFAULT_MIN_GAMES
        } else {
            run::DEFAULT_GAMES
        };
        run0.games.map_or(default, crate::config::Games::get)
    }
}

/// Every combination of the axes' values, the first axis varying slowest, with the index of
/// each value on its axis; each rule set names its settings as the outputs do.
fn product(axes: &[(String, Vec<String>)]) -> Vec<(RuleSet, Vec<usize>)> {
    let mut sets = vec![(
        RuleSet {
            settings: Vec::new(),
        },
        Vec::new(),
    )];
    for (name, values) in axes {
        sets = sets
            .into_iter()
            .flat_map(|(s, at)| {
                values.iter().enumerate().map(move |(i, v)| {
                    let mut t = s.clone();
                    t.settings.push((long(name), v.clone()));
                    let mut at = at.clone();
                    at.push(i);
                    (t, at)
                })
            })
            .collect();
    }
    sets
}

/// Every rule set's game checked against the run options, before anything is run or written.
fn check_all(sweep: &Sweep) -> Result<()> {
    for (_, g) in &sweep.rule_sets {
        g.run(Check(&sweep.run))?;
    }
    Ok(())
}

/// The sweep's progress, and each rule set's weight in it: costed from the estimate where a
/// run wants one (which may refuse the sweep as too long) and it is not `resumed` (which was
/// accepted when it began), else a count of games.
fn progress_of(session: &Session, sweep: &Sweep, resumed: bool) -> Result<(Progress, Vec<u64>)> {
    let run0 = &sweep.run;
    let n = sweep.rule_sets.len();
    let per_set = sweep.per_set();
    let show: Show = session.show(run0.progress);
    if resumed || !run::wants_estimate(run0) {
        let total = per_set.saturating_mul(n as u64);
        return Ok((Progress::new(total, &show), vec![1; n]));
    }
    let (e, seconds) = estimate(session, sweep)?;
    let what = format!("sweep {}: {}", sweep.game, counted(n as u64, "rule set"));
    run::check_bound(vec![what.into()], &e, run0.max_hours)?;
    run::show_estimate(run0.progress, &e);
    let weights = cost_weights(&seconds, per_set);
    let total = weights.iter().map(|w| w.saturating_mul(per_set)).sum();
    Ok((Progress::costed(total, &show), weights))
}

/// The title of the sweep's charts, page and summary: the game, the rule sets and their games
/// (`many`: what its rounds count).
fn title(sweep: &Sweep, many: &str) -> String {
    let each = match sweep.run.precision {
        Some(h) => format!("each to ±{h} {many}"),
        None => format!("{} each", counted(sweep.per_set(), "game")),
    };
    format!(
        "{} — {}, {each}",
        sweep.game,
        counted(sweep.rule_sets.len() as u64, "rule set")
    )
}

/// The folder of every rule set (`-again` added to a name met before), each checked to be
/// one folder name a file system takes, before anything is run or written.
fn folder_names(game: &str, sets: &[RuleSet]) -> Result<Vec<String>, UsageError> {
    let mut seen = HashSet::new();
    let mut names = Vec::with_capacity(sets.len());
    for (i, set) in sets.iter().enumerate() {
        let mut name = set.dir_name();
        while !seen.insert(name.clone()) {
            name.push_str("-again");
        }
        if let Err(why) = check_folder_name(&name) {
            let mut label = set.label();
            if label.chars().count() > 60 {
                label = label.chars().take(60).chain(['…']).collect();
            }
            return Err(usage!(
                "sweep {game}: rule set {} of {} ({label}): its folder name {why}; sweep \
                 shorter values",
                i + 1,
                sets.len()
            ));
        }
        names.push(name);
    }
    Ok(names)
}

/// Whether `name` is a single folder name of at most [`NAME_MAX`] bytes; if not, why.
fn check_folder_name(name: &str) -> Result<(), String> {
    if name.len() > NAME_MAX {
        return Err(format!(
            "is {} bytes long, over the {NAME_MAX} a file system takes",
            name.len()
        ));
    }
    if name.is_empty() || name == "." || name == ".." || name.contains(['/', '\0']) {
        return Err(format!("{name:?} is not a single folder name"));
    }
    Ok(())
}

/// The estimate of the whole sweep, from a pilot of every rule set sharing one pilot budget
/// (at least one game each): a rule set whose games never end is found wherever it stands in
/// the list, and refused as soon as its own first game proves the sweep too long.
/// Piloting stops at the first rule set whose estimate, with those before it, breaks the
/// bound: the sweep is refused then, not after every pilot.
fn estimate(session: &Session, sweep: &Sweep) -> Result<(Estimate, Vec<f64>)> {
    let n = sweep.rule_sets.len();
    let budget = pilot::BUDGET / u32::try_from(n.max(1)).unwrap_or(u32::MAX);
    let mut sample = Vec::with_capacity(n);
    let mut already = 0.0;
    let run = &sweep.run;
    for (_, g) in &sweep.rule_sets {
        let e = g.run(Pilot {
            run,
            budget,
            already,
            session,
        })?;
        already += e.seconds + WRITE_SECONDS;
        sample.push(e);
        if run.max_hours.refuses(already) {
            break;
        }
    }
    // Rule sets not piloted (the bound already broken) count as the mean of those that were.
    let e = Estimate::sweep(&sample, n as u64, WRITE_SECONDS);
    let mean = e.seconds / n.max(1) as f64;
    let mut seconds: Vec<f64> = sample.iter().map(|s| s.seconds + WRITE_SECONDS).collect();
    seconds.resize(n, mean);
    Ok((e, seconds))
}

/// Each rule set's weight in a costed progress ([`Progress::costed`]): the nanoseconds a game
/// of it is estimated to take, from its estimated `seconds` for `games` games (at least 1, so
/// every game moves the bar).
fn cost_weights(seconds: &[f64], games: u64) -> Vec<u64> {
    seconds
        .iter()
        .map(|s| ((s * 1e9 / games.max(1) as f64).round() as u64).max(1))
        .collect()
}

/// Checks that a rule set can run: its description, and its games.
struct Check<'a>(&'a RunConfig);

impl WithGame for Check<'_> {
    type Output = Result<()>;
    fn with<G: Game>(self, game: G) -> Result<()> {
        run::plan(&game, self.0).map(|_| ())
    }
}

/// Estimates one rule set's run from a pilot of `budget`.
struct Pilot<'a> {
    run: &'a RunConfig,
    budget: Duration,
    /// Seconds the rule sets piloted before it are estimated to take.
    already: f64,
    session: &'a Session,
}

impl WithGame for Pilot<'_> {
    type Output = Result<Estimate>;
    fn with<G: Game>(self, game: G) -> Result<Estimate> {
        let info = run::plan(&game, self.run)?;
        let budget = (pilot::Budget::fixed(self.budget), self.already);
        let cancel = self.session.cancel();
        Ok(run::estimate(&game, self.run, &info, budget, cancel)?.1)
    }
}

#[cfg(test)]
mod tests;
