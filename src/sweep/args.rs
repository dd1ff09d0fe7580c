//! `sweep GAME ARGS...` read from the command line into a typed [`Sweep`]: an option of
//! `simulate GAME` with a list of values is an axis, everything else the arguments every rule
//! set shares. Nothing here names a game: the options, their values and their parsing come from
//! the command-line definition of `simulate GAME`. The command line is parsed once and each
//! listed value once, into the JSON value of its setting (the edge, where a flag's text is read
//! by clap); a rule set is the shared [`Setup`] with its settings' values set through serde
//! ([`Setup::with`]), never an argv parsed again.

use clap::{ArgAction, CommandFactory, Parser};
use serde_json::Value;

use super::{Sweep, MAX_RULE_SETS};
use crate::cli::{Cli, Command};
use crate::config::setup::Setup;
use crate::config::RunConfig;
use crate::error::{one_line, UsageError};
use crate::model::sweep::RuleSet;
use crate::stats::summary::grouped;
use crate::usage;

/// The sweep's own option that allows more rule sets than [`MAX_RULE_SETS`].
const MAX_RULE_SETS_OPTION: &str = "max-rule-sets";

/// The sweep that `args` (everything after `sweep GAME`) ask of game `game`.
pub fn from_args(game: &str, args: &[String]) -> Result<Sweep, UsageError> {
    let plan = Plan::new(game, args)?;
    let axes = (plan.axes.iter())
        .map(|a| (a.name.clone(), a.values.clone()))
        .collect();
    let run = plan.shared.0.clone();
    Sweep::new(game, axes, run, plan.max_sets, |set, at| {
        plan.parse(set, at)
    })
}

/// The sweep that the command `words` (after `warsim`: `sweep GAME ARGS...`, as a stopped
/// sweep's sweep.json records it) asks.
pub fn from_words(words: &[String]) -> Result<Sweep, UsageError> {
    match words {
        [sweep, game, args @ ..]
            if sweep == "sweep"
                && !game.starts_with('-')
                && !args.iter().any(|a| a == "--help" || a == "-h") =>
        {
            from_args(game, args)
        }
        _ => Err(usage!("`warsim {}` is no sweep", words.join(" "))),
    }
}

/// One option that takes several values.
#[derive(Clone, Debug)]
struct Axis {
    /// Its long name, without the dashes.
    long: String,
    /// The name of its setting (`war_down` for `--war-down`).
    name: String,
    values: Vec<String>,
    /// Each value as its setting's JSON value: what a rule set with that value sets on the
    /// shared settings.
    json: Vec<Value>,
}

/// What the command line asked for: the arguments every rule set shares, parsed once, and the
/// axes.
#[derive(Debug)]
struct Plan {
    game: String,
    axes: Vec<Axis>,
    /// The run options and the game of `simulate GAME` with the shared arguments.
    shared: (RunConfig, Setup),
    /// The most rule sets it may make.
    max_sets: u64,
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
        let name = crate::error::setting_of_long(long);
        let mut json = Vec::with_capacity(values.len());
        for v in &values {
            parses(v).map_err(|e| {
                usage!(
                    "sweep {game}: --{long} {value:?}: value {v:?}: {}",
                    one_line(&e.render().to_string()).trim_start_matches("error: ")
                )
            })?;
            json.push(setting_value(game, long, &name, v)?);
        }
        Ok(Axis {
            long: long.to_string(),
            name,
            values,
            json,
        })
    }
}

/// Value `v` of option `--long` as the JSON value of its setting `name`: `simulate GAME
/// --long=v` read by clap (the command line's reader of a flag's text), made the typed
/// [`Setup`] as `simulate`'s is, and its setting read.
fn setting_value(game: &str, long: &str, name: &str, v: &str) -> Result<Value, UsageError> {
    let flag = format!("--{long}={v}");
    let setup = match Cli::try_parse_from(["warsim", "simulate", game, &flag]) {
        Ok(Cli {
            command: Command::Simulate { game, .. },
        }) => Setup::from(game),
        _ => {
            return Err(usage!(
                "sweep {game}: {flag}: not an option of simulate {game}"
            ))
        }
    };
    let settings = setup.settings_json().ok();
    let value = settings.as_ref().and_then(|s| s.get(name));
    value
        .cloned()
        .ok_or_else(|| usage!("sweep {game}: --{long} sets no setting {name}"))
}

/// The run options and the game of `simulate GAME` with the arguments `fixed` that every rule
/// set shares, parsed once.
fn shared_args(game: &str, fixed: &[String]) -> Result<(RunConfig, Setup), UsageError> {
    let mut argv: Vec<String> = vec!["warsim".into(), "simulate".into(), game.to_string()];
    argv.extend(fixed.iter().cloned());
    match Cli::try_parse_from(&argv) {
        Ok(Cli {
            command: Command::Simulate { run, .. },
        }) if run.estimate => Err(usage!(
            "sweep {game}: --estimate is simulate's; a sweep shows its estimate with \
             --progress log"
        )),
        Ok(Cli {
            command: Command::Simulate { run, game },
        }) => Ok((RunConfig::from(&run), game.into())),
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
        Ok(Plan {
            game: game.to_string(),
            axes,
            shared: shared_args(game, &fixed)?,
            max_sets,
        })
    }

    /// The game of `set`, whose value on each axis is the one at `at`: the shared settings
    /// with the set's values set on them.
    fn parse(&self, set: &RuleSet, at: &[usize]) -> Result<Setup, UsageError> {
        let values: Vec<(String, Value)> = (self.axes.iter().zip(at))
            .map(|(axis, &i)| (axis.name.clone(), axis.json[i].clone()))
            .collect();
        (self.shared.1.with(&values))
            .map_err(|e| usage!("sweep {}, rule set {}: {e}", self.game, set.label()))
    }
}

/// The help of `sweep --help`: with a game, the options of `simulate GAME`, which a sweep takes
/// as lists; without, the sweep command's own help, which says how to ask for a game's.
pub fn help_text(game: Option<&str>) -> anyhow::Result<String> {
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
