//! What each command does: the dispatch of a parsed command line ([`crate::cli`], which only
//! defines it) to the modules that run it, and the visitors that give `simulate` and `merge`
//! their game.

use anyhow::{Context, Result};

use crate::cli::{Cli, Command, MergeArgs};
use crate::config::RunConfig;
use crate::games::kind::{self, WithGame, WithGameType};
use crate::games::Game;
use crate::output::atomic::{Kind, OutputSet};
use crate::output::{self, progress};
use crate::{compare, exact, merge, play, run as runs, sweep, usage};

/// Runs a parsed command line.
pub fn run(cli: Cli) -> Result<()> {
    match cli.command {
        Command::Simulate { run, game } => game.run(Simulate(&RunConfig::from(&run))),
        Command::Merge(args) => {
            let first = args
                .dirs
                .first()
                .ok_or_else(|| usage!("merge needs at least one directory"))?;
            let name = merge::game_of(first)?;
            kind::by_name(&name, Merge(&args)).unwrap_or_else(|| {
                Err(usage!(
                    "{}: summary.json names game {name:?}, which is none of {}",
                    first.display(),
                    kind::NAMES.join(", ")
                )
                .into())
            })
        }
        Command::Sweep { help, game, args } => match game {
            Some(game) if !help => sweep::run(&game, &args),
            Some(game) => sweep::help(&game),
            None => sweep::help_without_game(),
        },
        Command::Exact { run, game } => game.run(exact::Exact(&RunConfig::from(&run))),
        Command::Compare {
            dirs,
            out,
            json,
            svg,
        } => compare::run(&dirs, &out, json, svg),
        Command::Play { output, game } => play::run(&game, output.json, output.trace),
        Command::Completions { shell } => {
            // Rendered first: `generate` panics when its writer fails.
            let mut cmd = <Cli as clap::CommandFactory>::command();
            let mut text = Vec::new();
            clap_complete::generate(shell, &mut cmd, "warsim", &mut text);
            crate::output::stdout::write_all(&text)
        }
        Command::Games { json } => crate::list::run(json),
        Command::Replay { dir, game, json } => crate::replay::run(&dir, game, json),
        Command::Manpage { out_dir: None } => {
            let mut text = Vec::new();
            clap_mangen::Man::new(manual_command()).render(&mut text)?;
            crate::output::stdout::write_all(&text)
        }
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
fn manual_pages(dir: &std::path::Path) -> Result<()> {
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

/// `simulate`: any game, on the engine.
struct Simulate<'a>(&'a RunConfig);

impl WithGame for Simulate<'_> {
    type Output = Result<()>;

    fn with<G: Game>(self, game: G) -> Result<()> {
        let opts = self.0;
        let info = runs::plan(&game, opts)?;
        let out = opts
            .out
            .as_deref()
            .map(|o| OutputSet::begin(o, Kind::Simulate, &[]))
            .transpose()?;
        let head = runs::guard(&game, opts, &info)?;
        let bar = progress::Progress::new(info.range.end - info.range.start, opts.progress);
        let threads = runs::threads(opts);
        let (info, tally, timing) = runs::play(&game, opts, info, head, threads, &bar, 0)?;
        bar.finish();
        output::finish(&info, &tally, &timing, out, opts.json, opts.svg)
    }
}

/// `merge`: the shards of a run of any game.
struct Merge<'a>(&'a MergeArgs);

impl WithGameType for Merge<'_> {
    type Output = Result<()>;

    fn with<G: Game>(self) -> Result<()> {
        let args = self.0;
        let out = OutputSet::begin(&args.out, Kind::Merge, &args.dirs)?;
        let (info, tally, timing) = merge::merge::<G>(&args.dirs)?;
        output::finish(&info, &tally, &timing, Some(out), args.json, args.svg)
    }
}
