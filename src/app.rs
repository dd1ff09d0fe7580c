//! What each command does: the dispatch of a parsed command line ([`crate::cli`], which only
//! defines it) to the modules that run it, and the visitors that give `simulate` and `merge`
//! their game.

use anyhow::{Context, Result};

use std::path::{Path, PathBuf};

use crate::cli::{Cli, Command};
use crate::config::RunConfig;
use crate::face::{self, GameCli, WithGame, WithGameType};
use crate::store::{Kind, OutputSet};
use crate::term::progress;
use crate::term::stdout::Print;
use crate::{compare, exact, export, merge, model, play, run as runs, sweep, usage};

/// Names the engine path the environment variable `WARSIM_PATH` asks for (tests and benchmarks
/// time or check one path; results are the same on every path): the one place that reads it,
/// called by each front end before it builds a game, since the core reads no environment.
pub fn name_engine_path() {
    crate::games::engine_path::name(std::env::var("WARSIM_PATH").ok());
}

/// Runs a parsed command line.
pub fn run(cli: Cli) -> Result<()> {
    match cli.command {
        Command::Simulate { run, game } => game.run(Simulate(&RunConfig::from(&run))),
        Command::Merge(args) => merge_run(&Merge {
            dirs: &args.dirs,
            out: &args.out,
            print: args.print.print(),
            svg: args.svg.svg,
        }),
        Command::Sweep { help, game, args } => match game {
            Some(game) if !help => sweep::run(&game, &args, &Default::default()),
            game => crate::term::stdout::write_all(sweep::help_text(game.as_deref())?.as_bytes()),
        },
        Command::Exact { run, game } if run.flawless => {
            game.run(exact::FlawlessGame(&RunConfig::from(&run)))
        }
        Command::Exact { run, game } => game.run(exact::Exact(&RunConfig::from(&run))),
        Command::Search { search, game } if search.reaching.is_some() => {
            let cfg = crate::reaching::ReachingConfig {
                deal: search.reaching.unwrap_or_default(),
                max_positions: search.max_positions,
                minutes: search.minutes,
                out: search.out.ok_or_else(|| {
                    usage!("search: --out DIR is missing (a search writes a directory)")
                })?,
                print: Print::of(search.json, false, false),
                progress: search.progress.progress,
            };
            crate::reaching::run(&game.game()?, &cfg)
        }
        Command::Search { search, game } => {
            let cfg = crate::search::SearchConfig {
                deals: search.deals,
                minutes: search.minutes,
                walkers: search.walkers,
                seed: search.seed.seed,
                threads: search.threads.threads,
                keep: search.keep as usize,
                out: search.out.ok_or_else(|| {
                    usage!("search: --out DIR is missing (a search writes a directory)")
                })?,
                print: Print::of(search.json, false, false),
                progress: search.progress.progress,
                max_hours: search.max_hours.max_hours,
                loops: search.loops,
                census: search.census,
                from: search.from,
                method: search.method,
                bases: search.bases as usize,
            };
            crate::search::run(&game.game()?, &cfg)
        }
        Command::Compare {
            dirs,
            out,
            json,
            svg,
        } => compare::run(&dirs, &out, Print::of(json, false, false), svg.svg),
        Command::Play { output, game } => play::run(&game, output.json, output.trace),
        Command::Completions { shell } => crate::term::stdout::write_all(&completions(shell)),
        Command::Games { json } => crate::term::stdout::write_all(&crate::list::text(json)?),
        Command::Replay { dir, game, json } => crate::replay::run(&dir, game, json),
        Command::Manpage { out_dir: None } => crate::term::stdout::write_all(&manpage()?),
        Command::Manpage { out_dir: Some(dir) } => manual_pages(&dir),
    }
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

/// `merge`: the shards in `m.dirs`, of the game the first one names.
pub fn merge_run(m: &Merge) -> Result<()> {
    let first = m
        .dirs
        .first()
        .ok_or_else(|| usage!("merge needs at least one directory"))?;
    let name = model::load::game_of(first)?;
    face::by_name(&name, m).unwrap_or_else(|| {
        Err(usage!(
            "{}: summary.json names game {name:?}, which is none of {}",
            first.display(),
            face::names().join(", ")
        )
        .into())
    })
}

/// `simulate`: any game, on the engine.
pub struct Simulate<'a>(pub &'a RunConfig);

impl WithGame for Simulate<'_> {
    type Output = Result<()>;

    fn with<G: GameCli>(self, game: G) -> Result<()> {
        let opts = self.0;
        opts.check_outputs()?;
        let info = runs::plan(&game, opts)?;
        let out = opts
            .out
            .as_deref()
            .map(|o| OutputSet::begin(o, Kind::Simulate, &[]))
            .transpose()?;
        let head = runs::guard(&game, opts, &info)?;
        let bar = progress::Progress::after(
            info.range.end - info.range.start,
            opts.progress,
            std::time::Duration::from_secs_f64(head.seconds),
        );
        let threads = runs::threads(opts);
        let (info, tally, timing) =
            runs::play(&game, opts, info, head, threads, &bar, runs::Slot::ALONE)?;
        bar.finish();
        export::run::finish(&info, &tally, &timing, out, opts.print, opts.svg)
    }
}

/// `merge`: the shards of a run of any game.
pub struct Merge<'a> {
    /// The shards' directories.
    pub dirs: &'a [PathBuf],
    /// Where the merged run goes.
    pub out: &'a Path,
    /// What is printed when it is written.
    pub print: Print,
    /// Whether the charts are also written as SVG.
    pub svg: bool,
}

impl WithGameType for &Merge<'_> {
    type Output = Result<()>;

    fn with<G: GameCli>(self) -> Result<()> {
        let out = OutputSet::begin(self.out, Kind::Merge, self.dirs)?;
        let (info, tally, timing) = merge::merge::<G>(self.dirs)?;
        export::run::finish(&info, &tally, &timing, Some(out), self.print, self.svg)
    }
}
