//! What each command does: the dispatch of a parsed command line ([`crate::cli`], which only
//! defines it) to the modules that run it, and the visitors that give `simulate` and `merge`
//! their game.

use anyhow::Result;

use std::path::{Path, PathBuf};

use crate::cli::{Cli, Command, SearchGame};
use crate::config::RunConfig;
use crate::games::bmn::Bmn;
use crate::games::kind::{self, WithGame, WithGameType};
use crate::games::Game;
use crate::output::atomic::{Kind, OutputSet};
use crate::output::stdout::Print;
use crate::output::{self, progress};
use crate::{compare, exact, merge, play, run as runs, sweep, usage};

/// Runs a parsed command line.
pub fn run(cli: Cli) -> Result<()> {
    match cli.command {
        Command::Simulate { run, game } => game.run(Simulate(&RunConfig::from(&run))),
        Command::Merge(args) => merge_run(&Merge {
            dirs: &args.dirs,
            out: &args.out,
            print: Print::of(args.json, args.markdown, false),
            svg: args.svg,
        }),
        Command::Sweep { game, args } => sweep::run(&game, &args, &Default::default()),
        Command::Exact { run, game } => game.run(exact::Exact(&RunConfig::from(&run))),
        Command::Search { search, game } => {
            let cfg = crate::search::SearchConfig {
                deals: search.deals,
                walkers: search.walkers,
                seed: search.seed,
                threads: search.threads,
                keep: search.keep as usize,
                out: search.out.ok_or_else(|| {
                    usage!("search: --out DIR is missing (a search writes a directory)")
                })?,
                print: Print::of(search.json, false, false),
                progress: search.progress,
            };
            match game {
                SearchGame::Bmn(o) => crate::search::run(&Bmn::from_options(&o)?, &cfg),
            }
        }
        Command::Compare {
            dirs,
            out,
            json,
            svg,
        } => compare::run(&dirs, &out, Print::of(json, false, false), svg),
        Command::Play { output, game } => play::run(&game, output.json, output.trace),
        Command::Completions { shell } => crate::output::stdout::write_all(&completions(shell)),
        Command::Games { json } => crate::output::stdout::write_all(&crate::list::text(json)?),
        Command::Replay { dir, game, json } => crate::replay::run(&dir, game, json),
        Command::Manpage => crate::output::stdout::write_all(&manpage()?),
    }
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
    let cmd = <Cli as clap::CommandFactory>::command();
    let mut text = Vec::new();
    clap_mangen::Man::new(cmd).render(&mut text)?;
    Ok(text)
}

/// `merge`: the shards in `m.dirs`, of the game the first one names.
pub fn merge_run(m: &Merge) -> Result<()> {
    let first = m
        .dirs
        .first()
        .ok_or_else(|| usage!("merge needs at least one directory"))?;
    let name = merge::game_of(first)?;
    kind::by_name(&name, m).unwrap_or_else(|| {
        Err(usage!(
            "{}: summary.json names game {name:?}, which is none of {}",
            first.display(),
            kind::NAMES.join(", ")
        )
        .into())
    })
}

/// `simulate`: any game, on the engine.
pub struct Simulate<'a>(pub &'a RunConfig);

impl WithGame for Simulate<'_> {
    type Output = Result<()>;

    fn with<G: Game>(self, game: G) -> Result<()> {
        let opts = self.0;
        opts.check_outputs()?;
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
        output::finish(&info, &tally, &timing, out, opts.print, opts.svg)
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

    fn with<G: Game>(self) -> Result<()> {
        let out = OutputSet::begin(self.out, Kind::Merge, self.dirs)?;
        let (info, tally, timing) = merge::merge::<G>(self.dirs)?;
        output::finish(&info, &tally, &timing, Some(out), self.print, self.svg)
    }
}
