//! The command line's adapter over the typed API ([`crate::api`]): a parsed command line
//! ([`crate::cli`], which only defines it) made into the API's typed values and run under the
//! command line's session; and the commands that only print what clap generates (completions,
//! manual pages).

use anyhow::{Context, Result};

use crate::api::{self, RunConfig, Session};
use crate::cli::{Cli, Command};
use crate::error::Interrupted;
use crate::stats::summary::grouped;
use crate::term::progress::{self, When};
use crate::term::stdout::Print;
use crate::{play, sweep};

/// Runs a parsed command line: each command's flags made into the typed values of [`api`],
/// under the command line's one [`Session`].
pub fn run(cli: Cli) -> Result<()> {
    let session = Session::command_line();
    match cli.command {
        Command::Simulate { run, game } if run.estimate => {
            let config = RunConfig::from(&run);
            let e = api::Simulation::new(&game.into(), &config)?.estimate(&session)?;
            estimate_alone(&e, &config)
        }
        Command::Simulate { run, game } => {
            let config = RunConfig::from(&run);
            config.check_outputs()?;
            let (run, written) = api::simulate_into(&session, &game.into(), &config)?;
            run.print(config.print, written.as_deref(), config.progress)?;
            stopped(&run, written.as_deref(), config.progress)
        }
        Command::Resume {
            dir,
            progress,
            checkpoint,
        } => resume(
            &session,
            &dir,
            progress.progress,
            checkpoint.checkpoint_minutes,
        ),
        Command::Merge(args) => {
            let merge = api::Merge {
                dirs: args.dirs,
                out: Some(args.out),
                svg: args.svg.svg,
            };
            let (run, written) = api::merge_into(&session, &merge)?;
            run.print(args.print.print(), written.as_deref(), When::Auto)
        }
        Command::Sweep { help, game, args } => match game {
            Some(game) if !help && !args.iter().any(|a| a == "--help" || a == "-h") => {
                let sweep = sweep::from_args(&game, &args)?;
                let (played, written) = api::sweep_into(&session, &sweep)?;
                played.print(sweep.run.print, written.as_deref())?;
                sweep_stopped(&played, written.as_deref())
            }
            game => crate::term::stdout::write_all(sweep::help_text(game.as_deref())?.as_bytes()),
        },
        Command::Exact { run, game } => {
            let config = RunConfig::from(&run);
            config.check_outputs()?;
            let (answer, written) = api::exact_into(&session, &game.into(), &config, run.flawless)?;
            answer.print(config.print, written.as_deref(), config.progress)
        }
        Command::Search { search, game } => search_run(&session, search, &game.into()),
        Command::Compare {
            dirs,
            out,
            json,
            svg,
        } => {
            let compare = api::Compare {
                dirs,
                out,
                svg: svg.svg,
            };
            let comparison = api::compare_into(&session, &compare)?;
            comparison.print(Print::of(json, false, false), Some(compare.out.as_path()))
        }
        Command::Play { output, game } => play::run(&game, output.json, output.trace),
        Command::Completions { shell } => crate::term::stdout::write_all(&completions(shell)),
        Command::Games { json } => crate::term::stdout::write_all(&crate::list::text(json)?),
        Command::Replay { dir, game, json } => crate::replay::run(&dir, game, json),
        Command::Manpage { out_dir: None } => crate::term::stdout::write_all(&manpage()?),
        Command::Manpage { out_dir: Some(dir) } => manual_pages(&dir),
    }
}

/// `simulate --estimate`: the estimate `e` of the run `config` asks on stdout, and whether
/// `--max-hours` would refuse it.
fn estimate_alone(e: &crate::estimate::Estimate, config: &RunConfig) -> Result<()> {
    let bound = config.max_hours;
    let verdict = match bound.refuses(e.seconds) {
        true => format!("over the --max-hours bound of {bound}: the run would be refused"),
        false => format!("within the --max-hours bound of {bound}"),
    };
    crate::term::stdout::write_all(format!("estimate: {e}\n{verdict}\n").as_bytes())
}

/// `resume DIR`: the stopped run or sweep in `dir` (or the checkpoint a killed one left beside
/// it) played to its end, written there and printed, progress as `progress` says, checkpoints
/// every `minutes`.
fn resume(
    session: &Session,
    dir: &std::path::Path,
    progress: crate::term::progress::When,
    minutes: f64,
) -> Result<()> {
    if api::resumes_a_sweep(dir) {
        let (played, written) = api::resume_sweep(session, dir, progress, minutes)?;
        played.print(Print::Text, Some(&written))?;
        return sweep_stopped(&played, Some(&written));
    }
    let (run, written) = api::resume(session, dir, progress, minutes)?;
    run.print(Print::Text, Some(&written), progress)?;
    stopped(&run, Some(&written), progress)
}

/// A sweep stopped by an interrupt, written in `written` as far as it got: said on stderr,
/// exit status 130 ([`Interrupted`]); `Ok` for a sweep that played every rule set whole.
fn sweep_stopped(played: &api::SweepRun, written: Option<&std::path::Path>) -> Result<()> {
    let Some(held) = played.held() else {
        return Ok(());
    };
    let at = written.map_or_else(String::new, |d| {
        format!(
            " and wrote what it played into {}/ (sweep.json says \"stopped\": true; `warsim resume {}` plays \
             the rest)",
            d.display(),
            d.display()
        )
    });
    Err(Interrupted(format!("interrupted: the sweep stopped ({held}){at}")).into())
}

/// A run stopped by an interrupt or by its time, written in `written` as it was: said on
/// stderr (as a log line where its progress went to a log, `when`), exit status 130
/// ([`Interrupted`]); `Ok` for a run that played every game.
fn stopped(run: &api::Run, written: Option<&std::path::Path>, when: When) -> Result<()> {
    let resume = |d: &std::path::Path| format!("`warsim resume {}`", d.display());
    match stopped_said(run, written, (&resume, "every figure above")) {
        Some(said) => Err(Interrupted(progress::stamped(when, &said)).into()),
        None => Ok(()),
    }
}

/// What a run stopped by an interrupt or by its time says, written in `written` as it was:
/// how many of its games it holds, the command that plays the rest (`resume` of the folder:
/// `warsim resume DIR`) and that `figures` (`every figure above`) are over those; `None` for
/// a run that played every game.
pub fn stopped_said(
    run: &api::Run,
    written: Option<&std::path::Path>,
    (resume, figures): (&dyn Fn(&std::path::Path) -> String, &str),
) -> Option<String> {
    let info = run.info();
    if !info.stopped() {
        return None;
    }
    let asked = info.planned_end() - info.range.start;
    let at = written.map_or_else(String::new, |d| {
        format!(
            " and wrote them into {}/ (summary.json says \"stopped\": true; {} plays the rest)",
            d.display(),
            resume(d)
        )
    });
    let why = match &run.timing().note {
        Some(note) if note.starts_with(crate::run::OVERRAN) => {
            "stopped: the run took half again its --max-hours bound and stopped itself"
        }
        _ => "interrupted: the run stopped",
    };
    // A run to a precision was asked no number of games: it played toward its next check.
    let of = match info.precision {
        Some(_) => format!("games, short of its check at {}", grouped(asked)),
        None => format!("of the {} games asked", grouped(asked)),
    };
    Some(format!(
        "{why} after {} {of}{at}; {figures} is over those {}",
        grouped(run.games()),
        grouped(run.games())
    ))
}

/// `search GAME`: its flags as the typed configuration of the mode they ask for.
fn search_run(
    session: &Session,
    search: crate::cli::SearchOptions,
    game: &api::SearchSetup,
) -> Result<()> {
    let out = search.out.unwrap_or_default();
    let print = Print::of(search.json, false, false);
    if let Some(deal) = search.reaching {
        let cfg = api::ReachingConfig {
            deal,
            max_positions: search.max_positions,
            minutes: search.minutes,
            out,
            print,
            progress: search.progress.progress,
        };
        let searched = api::reaching_into(session, game, &cfg)?;
        return shown(&searched, cfg.print, &cfg.out);
    }
    let cfg = api::SearchConfig {
        deals: search.deals,
        minutes: search.minutes,
        walkers: search.walkers,
        seed: search.seed.seed,
        threads: search.threads.threads,
        keep: search.keep,
        out,
        print,
        progress: search.progress.progress,
        max_hours: search.max_hours.max_hours,
        loops: search.loops,
        census: search.census,
        from: search.from,
        method: search.method,
        bases: search.bases,
    };
    let searched = api::search_into(session, game, &cfg)?;
    shown(&searched, cfg.print, &cfg.out)
}

/// A search written into `out`, printed as `print` says; then, if an interrupt stopped it,
/// its error (exit status 130).
fn shown(searched: &api::Searched, print: Print, out: &std::path::Path) -> Result<()> {
    searched.print(print, Some(out))?;
    searched.interrupted(out)
}

/// The command line as the manual shows it: built, so that each command knows its full name
/// (`warsim-simulate-war`), and without the `help` subcommand, which has no page to refer to.
fn manual_command() -> clap::Command {
    let mut cmd = <Cli as clap::CommandFactory>::command().disable_help_subcommand(true);
    cmd.build();
    cmd
}

/// `manpage --out-dir DIR`: the page of every command, down to each game of `simulate`,
/// `exact` and `play`, each page named as the pages above it refer to it
/// (`warsim-simulate-war.1`). Every page is rendered before the first is written, so a
/// failure to render writes nothing.
pub fn manual_pages(dir: &std::path::Path) -> Result<()> {
    fn render(cmd: &clap::Command, pages: &mut Vec<(String, Vec<u8>)>) -> Result<()> {
        for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
            render(sub, pages)?;
        }
        let man = clap_mangen::Man::new(cmd.clone());
        let mut text = Vec::new();
        man.render(&mut text)?;
        pages.push((man.get_filename(), text));
        Ok(())
    }
    let mut pages = Vec::new();
    render(&manual_command(), &mut pages)?;
    std::fs::create_dir_all(dir)
        .with_context(|| format!("manpage --out-dir {}: cannot create it", dir.display()))?;
    for (name, text) in &pages {
        let path = dir.join(name);
        std::fs::write(&path, text)
            .with_context(|| format!("manpage: cannot write {}", path.display()))?;
    }
    Ok(())
}

/// The shell completions of `warsim completions SHELL`.
pub fn completions(shell: clap_complete::Shell) -> Vec<u8> {
    // Rendered into memory first: `generate` panics when its writer fails.
    let mut cmd = <Cli as clap::CommandFactory>::command();
    let mut text = Vec::new();
    clap_complete::generate(shell, &mut cmd, "warsim", &mut text);
    text
}

/// The manual page of `warsim manpage`.
pub fn manpage() -> Result<Vec<u8>> {
    let mut text = Vec::new();
    clap_mangen::Man::new(manual_command()).render(&mut text)?;
    Ok(text)
}
