//! `sweep GAME [options]`: every combination of listed rule settings, each a whole run on the
//! same games.
//!
//! Any rule option of `simulate GAME` may take a comma list (`--war-down 1,3`) or `all` (every
//! value of an option with a fixed list, `--pickup all`); `;` separates values that hold commas
//! themselves (`--mix "1,1,1;2,1,1"`), and a value the option accepts whole is never split
//! (`--mix 2,1,1` is one mix). The rule sets are the cartesian product, in the order the options
//! are given, each run with the same `--seed` and game indices as a `simulate` with those
//! settings, so its histogram is byte for byte that run's. Nothing here names a game: the
//! options, their values and their parsing come from the command-line definition of
//! `simulate GAME`. The command line is parsed once and each listed value once; a rule set is
//! the shared game flags with its values set on them, typed, never an argv parsed again.

use std::collections::HashSet;
use std::time::{Duration, Instant};

use anyhow::Result;
use clap::{ArgAction, ArgMatches, CommandFactory, Parser};
use serde_json::Value;

use crate::cli::{Cli, Command};
use crate::config::RunConfig;
use crate::error::{one_line, UsageError};
use crate::estimate::{self, Estimate};
use crate::export::sweep::{RuleSetJson, SweepCharts, SweepJson, SweepRow};
use crate::export::{self, csv as out_csv, run::write_run};
use crate::face::{GameCli, SimulateGame, WithGame};
use crate::games::Unit;
use crate::model::report::{Curve, Report};
use crate::model::summary::Provenance;
use crate::model::sweep::RuleSet;
use crate::sim::engine::Cancel;
use crate::sim::pilot;
use crate::stats::summary::{counted, grouped};
use crate::store::{Dir, Kind, OutputSet};
use crate::term::progress::{self, Progress};
use crate::{run, usage};

/// Rule sets a sweep may hold without `--max-rule-sets`: each writes a folder of files (about
/// 0.3 MB), and a thousand of them is already more than a chart or a table can show; more is
/// most likely a list that went wrong (`--max-rounds 1,2,...,10000`).
const MAX_RULE_SETS: u64 = 1_000;

/// The sweep's own option that allows more rule sets than [`MAX_RULE_SETS`].
const MAX_RULE_SETS_OPTION: &str = "max-rule-sets";

/// Seconds a rule set spends writing its folder (summary, CSVs, charts), added to its games'
/// estimate: 6.5 ms measured on a 2-core machine for runs of one game.
const WRITE_SECONDS: f64 = 0.01;

/// The longest folder name most file systems take (`NAME_MAX`), in bytes.
const NAME_MAX: usize = 255;

/// One option that takes several values.
#[derive(Clone, Debug)]
struct Axis {
    /// Its long name, without the dashes.
    long: String,
    values: Vec<String>,
    /// Each value parsed as the option alone (no other flag, no default): what a rule set
    /// with that value sets on the shared flags.
    parsed: Vec<ArgMatches>,
}

/// What the command line asked for: the arguments every rule set shares, parsed once, and the
/// axes.
#[derive(Debug)]
pub struct Plan {
    game: String,
    axes: Vec<Axis>,
    /// The run options and the game's flags of `simulate GAME` with the shared arguments.
    shared: (RunConfig, SimulateGame),
}

/// How many rule sets a sweep may hold: [`MAX_RULE_SETS`] or `--max-rule-sets N`.
fn max_rule_sets(text: &str) -> Result<u64, UsageError> {
    let plain: String = text.chars().filter(|&c| c != '_' && c != ',').collect();
    plain
        .parse::<u64>()
        .ok()
        .filter(|&n| n >= 1)
        .ok_or_else(|| {
            usage!(
                "sweep: --{MAX_RULE_SETS_OPTION} {text:?}: expected a whole number of at least 1"
            )
        })
}

/// The command `simulate GAME` of the command line, whose options a sweep takes.
fn simulate_command(game: &str) -> Result<clap::Command, UsageError> {
    let mut cli = Cli::command();
    cli.build();
    let simulate = cli
        .find_subcommand("simulate")
        .ok_or_else(|| usage!("sweep: no simulate command"))?;
    let cmd = simulate.find_subcommand(game).ok_or_else(|| {
        let names: Vec<&str> = simulate.get_subcommands().map(|c| c.get_name()).collect();
        usage!("sweep {game}: no such game; one of {}", names.join(", "))
    })?;
    Ok(cmd.clone())
}

/// The option `--long` of `cmd` if it takes a value a sweep may list: the game's own, not a
/// global one, and not a switch.
fn rule_option<'c>(cmd: &'c clap::Command, long: &str) -> Option<&'c clap::Arg> {
    cmd.get_arguments().find(|a| {
        a.get_long() == Some(long)
            && !a.is_global_set()
            && matches!(a.get_action(), ArgAction::Set | ArgAction::Append)
    })
}

/// An option's value: given inline (`--x=v`), else the next argument, else `missing`.
fn value_of<'a>(
    inline: Option<String>,
    rest: &mut impl Iterator<Item = &'a String>,
    missing: impl FnOnce() -> UsageError,
) -> Result<String, UsageError> {
    match inline {
        Some(v) => Ok(v),
        None => rest.next().cloned().ok_or_else(missing),
    }
}

impl Axis {
    /// The axis of option `--long` (`arg` of `cmd`) listing `value`: `all` of its fixed list,
    /// a list split at `;` or `,`, or one value the option accepts whole; each value parsed by
    /// clap itself.
    fn new(
        cmd: &clap::Command,
        game: &str,
        arg: &clap::Arg,
        long: &str,
        value: &str,
    ) -> Result<Axis, UsageError> {
        // The option alone with value `v`, parsed by clap itself; no flag has a default
        // here, so the matches hold this option only.
        let parses = |v: &str| {
            cmd.clone()
                .no_binary_name(true)
                .mut_args(|a| a.default_value(None::<&str>))
                .try_get_matches_from([format!("--{long}={v}")])
        };
        let values: Vec<String> = if value == "all" && parses("all").is_err() {
            let all: Vec<String> = arg
                .get_possible_values()
                .iter()
                .filter(|p| !p.is_hide_set())
                .map(|p| p.get_name().to_string())
                .collect();
            if all.is_empty() {
                return Err(usage!(
                    "sweep {game}: --{long} all: this option has no fixed list of values; \
                     list the values, separated by commas"
                ));
            }
            all
        } else if value.contains(';') || parses(value).is_err() {
            let sep = if value.contains(';') { ';' } else { ',' };
            value.split(sep).map(|v| v.trim().to_string()).collect()
        } else {
            vec![value.to_string()]
        };
        let mut parsed = Vec::with_capacity(values.len());
        for v in &values {
            parsed.push(parses(v).map_err(|e| {
                usage!(
                    "sweep {game}: --{long} {value:?}: value {v:?}: {}",
                    one_line(&e.render().to_string()).trim_start_matches("error: ")
                )
            })?);
        }
        Ok(Axis {
            long: long.to_string(),
            values,
            parsed,
        })
    }
}

/// The run options and the game's flags of `simulate GAME` with the arguments `fixed` that
/// every rule set shares, parsed once.
fn shared_args(game: &str, fixed: &[String]) -> Result<(RunConfig, SimulateGame), UsageError> {
    let mut argv: Vec<String> = vec!["warsim".into(), "simulate".into(), game.to_string()];
    argv.extend(fixed.iter().cloned());
    match Cli::try_parse_from(&argv) {
        Ok(Cli {
            command: Command::Simulate { run, game },
        }) => Ok((RunConfig::from(&run), game)),
        Ok(_) => Err(usage!("sweep: not a simulation")),
        Err(e) => Err(usage!(
            "sweep {game}: {}",
            one_line(&e.render().to_string()).trim_start_matches("error: ")
        )),
    }
}

impl Plan {
    /// Reads `args` (everything after `sweep GAME`) against the options of `simulate GAME`:
    /// an option with a list of values is an axis, everything else the shared arguments.
    pub fn new(game: &str, args: &[String]) -> Result<Plan, UsageError> {
        let cmd = simulate_command(game)?;
        let mut fixed = Vec::new();
        let mut axes: Vec<Axis> = Vec::new();
        let mut max_sets = MAX_RULE_SETS;
        let mut it = args.iter();
        while let Some(tok) = it.next() {
            let Some(name) = tok.strip_prefix("--") else {
                fixed.push(tok.clone());
                continue;
            };
            let (long, inline) = match name.split_once('=') {
                Some((l, v)) => (l, Some(v.to_string())),
                None => (name, None),
            };
            if long == MAX_RULE_SETS_OPTION {
                let value = value_of(inline, &mut it, || {
                    usage!("sweep {game}: --{MAX_RULE_SETS_OPTION} needs a value")
                })?;
                max_sets = max_rule_sets(&value)?;
                continue;
            }
            if long == "shard" {
                return Err(usage!(
                    "sweep: --shard is not for sweeps; shard each rule set's `simulate` instead"
                ));
            }
            let Some(arg) = rule_option(&cmd, long) else {
                fixed.push(tok.clone());
                continue;
            };
            let value = value_of(inline, &mut it, || {
                usage!("sweep {game}: --{long} needs a value")
            })?;
            let axis = Axis::new(&cmd, game, arg, long, &value)?;
            if axes.iter().any(|a| a.long == long) {
                return Err(usage!(
                    "sweep {game}: --{long} is given twice; list its values once"
                ));
            }
            axes.push(axis);
        }
        let plan = Plan {
            game: game.to_string(),
            axes,
            shared: shared_args(game, &fixed)?,
        };
        match plan.count() {
            Some(n) if n <= max_sets => Ok(plan),
            n => Err(usage!(
                "sweep {game}: the lists make {} rule sets, more than {} (each writes a folder \
                 of files); sweep fewer values, or allow more with --{MAX_RULE_SETS_OPTION} N",
                n.map_or_else(|| "over 2^64".into(), grouped),
                grouped(max_sets)
            )),
        }
    }

    /// The number of rule sets, if it fits in a u64.
    fn count(&self) -> Option<u64> {
        self.axes
            .iter()
            .try_fold(1u64, |n, a| n.checked_mul(a.values.len() as u64))
    }

    /// Every combination of the axes' values, the first axis varying slowest.
    pub fn rule_sets(&self) -> Vec<RuleSet> {
        let mut sets = vec![RuleSet {
            settings: Vec::new(),
        }];
        for axis in &self.axes {
            sets = sets
                .into_iter()
                .flat_map(|s| {
                    axis.values.iter().map(move |v| {
                        let mut t = s.clone();
                        t.settings.push((axis.long.clone(), v.clone()));
                        t
                    })
                })
                .collect();
        }
        sets
    }

    /// The run options and the game of `set`: the shared flags with the set's values set on
    /// them.
    fn parse(&self, set: &RuleSet) -> Result<(RunConfig, SimulateGame), UsageError> {
        let (run, mut game) = self.shared.clone();
        for ((long, value), axis) in set.settings.iter().zip(&self.axes) {
            let at = axis.values.iter().position(|v| v == value);
            let matches = at.map(|i| &axis.parsed[i]).filter(|_| axis.long == *long);
            let matches = matches.ok_or_else(|| usage!("sweep: --{long} {value}: not listed"))?;
            game.update(matches).map_err(|e| {
                usage!(
                    "sweep {}, rule set {}: {}",
                    self.game,
                    set.label(),
                    one_line(&e.render().to_string()).trim_start_matches("error: ")
                )
            })?;
        }
        Ok((run, game))
    }

    /// sweep.json of the rule sets `sets`, played as `rows`.
    fn document(
        &self,
        sets: &[RuleSet],
        rows: &[SweepRow],
        run0: &RunConfig,
        per_set: u64,
        elapsed_s: f64,
        threads: usize,
    ) -> SweepJson {
        SweepJson {
            game: self.game.clone(),
            games: run0.precision.is_none().then_some(per_set),
            precision: run0.precision,
            seed: run0.seed,
            varying: self.axes.iter().map(|a| a.long.clone()).collect(),
            rule_sets: (sets.iter().zip(rows))
                .map(|(set, r)| RuleSetJson {
                    name: r.name.clone(),
                    label: r.label.clone(),
                    settings: set
                        .settings
                        .iter()
                        .map(|(k, v)| (k.clone(), Value::String(v.clone())))
                        .collect(),
                    summary: r.summary.clone(),
                })
                .collect(),
            elapsed_s,
            threads,
            provenance: Provenance::now(),
        }
    }
}

/// `sweep GAME ARGS...`: the plan, every rule set checked, then played into its folder, the
/// sweep's own files written and committed, and its summary printed.
pub fn run(game: &str, args: &[String], cancel: &Cancel) -> Result<()> {
    if args.iter().any(|a| a == "--help" || a == "-h") {
        return crate::term::stdout::write_all(help_text(Some(game))?.as_bytes());
    }
    let plan = Plan::new(game, args)?;
    let sets = plan.rule_sets();
    let parsed = check_all(&plan, &sets, cancel)?;
    let names = folder_names(game, &sets)?;
    let run0 = &parsed[0].0;
    let out = run0
        .out
        .as_deref()
        .ok_or_else(|| usage!("sweep {game}: --out DIR is missing (a sweep writes a directory)"))?;
    let set_out = OutputSet::begin(out, Kind::Sweep, &[])?;
    // A run to a precision learns its length as it goes: the total grows rule set by rule set.
    let per_set = run0.games.unwrap_or(if run0.precision.is_some() {
        run::DEFAULT_MIN_GAMES
    } else {
        run::DEFAULT_GAMES
    });
    let (progress, weights) = progress_of(game, &parsed, per_set)?;
    let playing = Playing {
        threads: run::threads(run0),
        progress: &progress,
        weights: &weights,
        set_out: &set_out,
    };
    let start = Instant::now();
    let rows = playing.play(&sets, names, &parsed)?;
    progress.finish();
    let elapsed_s = start.elapsed().as_secs_f64();
    let doc = plan.document(&sets, &rows, run0, per_set, elapsed_s, playing.threads);
    let title = title(&plan.game, &rows, run0, per_set);
    let drawn = SweepCharts {
        title: &title,
        sets: &sets,
        lens: plan.axes.iter().map(|a| a.values.len()).collect(),
        numeric: match &plan.axes[..] {
            [a] if a.values.iter().all(|v| v.parse::<f64>().is_ok()) => Some(a.long.as_str()),
            _ => None,
        },
    };
    export::sweep::write(set_out.dir(), &doc, &rows, &drawn, run0.svg)?;
    set_out.commit()?;
    export::sweep::print(run0.print, &doc, &rows, &title, elapsed_s, out)
}

/// Every rule set parsed and its game built, before anything is run or written.
fn check_all(
    plan: &Plan,
    sets: &[RuleSet],
    cancel: &Cancel,
) -> Result<Vec<(RunConfig, SimulateGame)>> {
    let mut parsed = Vec::new();
    for set in sets {
        let (mut run, g) = plan.parse(set)?;
        run.cancel = cancel.clone();
        g.run(Check(&run))?;
        parsed.push((run, g));
    }
    Ok(parsed)
}

/// The sweep's progress, and each rule set's weight in it: costed from the estimate where a
/// run wants one (which may refuse the sweep as too long), else a count of games.
fn progress_of(
    game: &str,
    parsed: &[(RunConfig, SimulateGame)],
    per_set: u64,
) -> Result<(Progress, Vec<u64>)> {
    let run0 = &parsed[0].0;
    if !run::wants_estimate(run0) {
        let total = per_set.saturating_mul(parsed.len() as u64);
        return Ok((Progress::new(total, run0.progress), vec![1; parsed.len()]));
    }
    let (e, seconds) = estimate(parsed)?;
    let what = format!("sweep {game}: {}", counted(parsed.len() as u64, "rule set"));
    run::check_bound(&what, &e, run0.max_hours)?;
    if e.seconds > estimate::LONG {
        progress::note(run0.progress, &format!("estimate: {e}"));
    }
    let weights = cost_weights(&seconds, per_set);
    let total = weights.iter().map(|w| w.saturating_mul(per_set)).sum();
    Ok((Progress::costed(total, run0.progress), weights))
}

/// What every rule set of a sweep plays with.
struct Playing<'a> {
    threads: usize,
    progress: &'a Progress,
    /// Each rule set's weight in the progress.
    weights: &'a [u64],
    set_out: &'a OutputSet,
}

impl Playing<'_> {
    /// Plays every rule set (`sets`, parsed as `parsed`) into its folder (`names`), in order.
    fn play(
        &self,
        sets: &[RuleSet],
        names: Vec<String>,
        parsed: &[(RunConfig, SimulateGame)],
    ) -> Result<Vec<SweepRow>> {
        let mut offset = 0;
        let mut rows = Vec::new();
        for (((set, name), (run, g)), &weight) in
            sets.iter().zip(names).zip(parsed).zip(self.weights)
        {
            let dir = self.set_out.subdir(&name)?;
            let one = One {
                run,
                threads: self.threads,
                progress: self.progress,
                slot: run::Slot { offset, weight },
                dir: &dir,
            };
            let done = g.run(one)?;
            offset += done.games.saturating_mul(weight);
            rows.push(SweepRow {
                label: set.label(),
                name,
                summary: done.summary,
                summary_csv: done.summary_csv,
                curve: done.curve,
                unit: done.unit,
            });
        }
        Ok(rows)
    }
}

/// The title of the sweep's charts, page and summary: the game, the rule sets and their games.
fn title(game: &str, rows: &[SweepRow], run0: &RunConfig, per_set: u64) -> String {
    let each = match run0.precision {
        Some(h) => format!(
            "each to ±{h} {}",
            rows.first().map_or("rounds", |r| r.unit.many)
        ),
        None => format!("{} each", counted(per_set, "game")),
    };
    format!(
        "{game} — {}, {each}",
        counted(rows.len() as u64, "rule set")
    )
}

/// The help of `sweep --help`: with a game, the options of `simulate GAME`, which a sweep takes
/// as lists; without, the sweep command's own help, which says how to ask for a game's.
pub fn help_text(game: Option<&str>) -> Result<String> {
    let mut cli = Cli::command();
    cli.build();
    let Some(game) = game else {
        let cmd = cli
            .find_subcommand_mut("sweep")
            .ok_or_else(|| usage!("no sweep command"))?;
        return Ok(cmd.render_long_help().to_string());
    };
    let cmd = cli
        .find_subcommand_mut("simulate")
        .and_then(|s| s.find_subcommand_mut(game))
        .ok_or_else(|| usage!("sweep {game}: no such game"))?;
    // The options are simulate's, but the command is sweep's: its usage line says so.
    let help = cmd.render_long_help().to_string().replacen(
        &format!("Usage: warsim simulate {game} [OPTIONS]"),
        &format!("Usage: warsim sweep {game} [OPTIONS] --out <DIR>"),
        1,
    );
    Ok(format!(
        "warsim sweep {game} [options] --out DIR: the options of `simulate {game}`; each rule \
         option may take a comma list (`;` between values that hold commas) or `all`. At most {} \
         rule sets unless --{MAX_RULE_SETS_OPTION} N allows more.\n\n{help}\n",
        grouped(MAX_RULE_SETS)
    ))
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
fn estimate(parsed: &[(RunConfig, SimulateGame)]) -> Result<(Estimate, Vec<f64>)> {
    let n = parsed.len();
    let budget = pilot::BUDGET / u32::try_from(n.max(1)).unwrap_or(u32::MAX);
    let mut sample = Vec::with_capacity(n);
    let mut already = 0.0;
    for (run, g) in parsed {
        let e = g.run(Pilot {
            run,
            budget,
            already,
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
    fn with<G: GameCli>(self, game: G) -> Result<()> {
        run::plan(&game, self.0).map(|_| ())
    }
}

/// Estimates one rule set's run from a pilot of `budget`.
struct Pilot<'a> {
    run: &'a RunConfig,
    budget: Duration,
    /// Seconds the rule sets piloted before it are estimated to take.
    already: f64,
}

impl WithGame for Pilot<'_> {
    type Output = Result<Estimate>;
    fn with<G: GameCli>(self, game: G) -> Result<Estimate> {
        let info = run::plan(&game, self.run)?;
        Ok(run::estimate(&game, self.run, &info, self.budget, self.already)?.1)
    }
}

/// Runs one rule set into its directory.
struct One<'a> {
    run: &'a RunConfig,
    threads: usize,
    progress: &'a Progress,
    /// Where its games stand in the progress total.
    slot: run::Slot,
    dir: &'a Dir,
}

/// What a rule set's run gives the sweep.
struct Done {
    games: u64,
    unit: Unit,
    summary: Value,
    summary_csv: Vec<u8>,
    curve: Curve,
}

impl WithGame for One<'_> {
    type Output = Result<Done>;
    fn with<G: GameCli>(self, game: G) -> Result<Done> {
        let run = self.run;
        let info = run::plan(&game, run)?;
        let head = run::Head::none(game.players());
        let (info, tally, timing) = run::play(
            &game,
            run,
            info,
            head,
            self.threads,
            self.progress,
            self.slot,
        )?;
        let report = Report::new(&info, &tally);
        let histogram = out_csv::histogram(&report)?;
        let summary = report.summary(&timing, &histogram);
        write_run(self.dir, &report, &summary, &histogram, run.svg)?;
        Ok(Done {
            games: tally.games,
            unit: G::UNIT,
            summary: serde_json::to_value(&summary)?,
            summary_csv: out_csv::summary(&report)?,
            curve: Curve {
                exact: game.expected_rounds(),
                ..report.curve()
            },
        })
    }
}

#[cfg(test)]
mod tests;
