//! The typed API: every command of warsim as a function of typed values and a [`Session`], which
//! the command line ([`crate::app`]) and the Python package (`python`) adapt, neither building
//! nor parsing an argument list for the other. A game comes as a [`Setup`]: its name and its
//! settings struct ([`crate::games::Game::Settings`]), typed; the run options as a
//! [`RunConfig`]. Each function writes what the command writes and prints what `print` asks;
//! a usage error ([`crate::error::UsageError`]) names settings, which each front end says in its
//! own words.

mod load;

use std::path::{Path, PathBuf};

use anyhow::Result;

pub use crate::compare::Compare;
pub use crate::config::RunConfig;
pub use crate::face::{PlayGame as Play, SearchGame, SimulateGame as Setup};
pub use crate::reaching::ReachingConfig;
pub use crate::replay::Replayed;
pub use crate::search::SearchConfig;
pub use crate::session::{Session, Signals};
pub use crate::sweep::Sweep;
pub use load::{load, Loaded};

use warsim_core::error::{setting, setting_alone, UsageError};
use warsim_core::usage_of;

use crate::face::{self, GameCli, PlayIo, PlayReport, WithGame, WithGameType};
use crate::store::Kind;
use crate::term::progress::Progress;
use crate::term::stdout::Print;
use crate::{exact as exacts, export, merge as merges, model, run as runs, usage};

/// `simulate`: plays the run `run` asks of game `game`, writes its set into `run.out` and prints
/// its summary as `run.print` says.
pub fn simulate(session: &Session, game: &Setup, run: &RunConfig) -> Result<()> {
    game.run(Simulate { run, session })
}

/// `exact`: every distinct deal of `game` played once (or its Markov chain solved); with
/// `flawless`, War's flawless game computed instead.
pub fn exact(session: &Session, game: &Setup, run: &RunConfig, flawless: bool) -> Result<()> {
    if flawless {
        let given = [(run.threads.is_some(), "threads"), (run.svg, "svg")];
        let takes = " computes one probability: it takes no ";
        alone("exact", "flawless", takes, &given)?;
        game.run(exacts::FlawlessGame { run, session })
    } else {
        game.run(exacts::Exact { run, session })
    }
}

/// `sweep`: every rule set of `sweep` played into its folder of `sweep.run.out`.
pub fn sweep(session: &Session, sweep: &Sweep) -> Result<()> {
    crate::sweep::run(session, sweep)
}

/// What `merge` adds up and where it writes.
#[derive(Clone, Debug)]
pub struct Merge {
    /// The shards' directories.
    pub dirs: Vec<PathBuf>,
    /// Where the merged run goes.
    pub out: PathBuf,
    /// What is printed when it is written.
    pub print: Print,
    /// Whether the charts are also written as SVG.
    pub svg: bool,
}

/// `merge`: the shards in `m.dirs`, of the game the first one names, added exactly.
pub fn merge(session: &Session, m: &Merge) -> Result<()> {
    let first = m
        .dirs
        .first()
        .ok_or_else(|| usage!("merge needs at least one directory"))?;
    let name = model::load::game_of(first)?;
    face::by_name(&name, MergeOf { m, session }).unwrap_or_else(|| {
        Err(usage!(
            "{}: summary.json names game {name:?}, which is none of {}",
            first.display(),
            face::names().join(", ")
        )
        .into())
    })
}

/// `compare`: the survival curves of the runs and every pair's KS test.
pub fn compare(session: &Session, c: &Compare) -> Result<()> {
    crate::compare::run(session, c)
}

/// `replay`: game `index` of the run in `dir` (its longest by default) played again.
pub fn replay(dir: &Path, index: Option<u64>) -> Result<Replayed> {
    crate::replay::replayed(dir, index)
}

/// `play`: one game as `game` describes it, its trace (or an interactive game's transcript)
/// written to `io` as it is made; `io.cancel` stops a long one.
pub fn play(game: &Play, io: &mut PlayIo) -> Result<PlayReport> {
    game.play(io)
}

/// `search`: Beggar-my-neighbour's searches (the record climb, `--loops`, `--census`,
/// `--method`), written into `config.out`.
pub fn search(session: &Session, game: &SearchGame, config: &SearchConfig) -> Result<()> {
    has_out(&config.out)?;
    if config.census {
        let keep = config.keep != SearchConfig::default().keep;
        alone(
            "search",
            "census",
            " takes no ",
            &[(config.loops, "loops"), (keep, "keep")],
        )?;
    }
    crate::search::run(session, &game.game()?, config)
}

/// `search --reaching`: the deals that reach a never-ending cycle's basin.
pub fn reaching(session: &Session, game: &SearchGame, config: &ReachingConfig) -> Result<()> {
    has_out(&config.out)?;
    crate::reaching::run(session, &game.game()?, config)
}

/// Refuses setting `name` of `command` asked with one of `others` (each with whether it was
/// given), which the command line's flag conflicts with: a caller of the API is told so too,
/// rather than have one ignored and its files record a command the command line refuses.
fn alone(
    command: &str,
    name: &'static str,
    takes: &str,
    others: &[(bool, &'static str)],
) -> Result<(), UsageError> {
    match others.iter().find(|(given, _)| *given) {
        Some(&(_, other)) => Err(usage_of![
            format!("{command}: "),
            setting_alone(name),
            takes,
            setting_alone(other),
        ]),
        None => Ok(()),
    }
}

/// Refuses a search with no output folder: a search writes one.
fn has_out(out: &Path) -> Result<(), UsageError> {
    if out.as_os_str().is_empty() {
        return Err(usage_of![
            "search: ",
            setting("out", "DIR"),
            " is missing (a search writes a directory)",
        ]);
    }
    Ok(())
}

/// `simulate`, for game type `G`.
struct Simulate<'a> {
    run: &'a RunConfig,
    session: &'a Session,
}

impl WithGame for Simulate<'_> {
    type Output = Result<()>;

    fn with<G: GameCli>(self, game: G) -> Result<()> {
        let (opts, session) = (self.run, self.session);
        opts.check_outputs()?;
        let info = runs::plan(&game, opts)?;
        let out = opts
            .out
            .as_deref()
            .map(|o| session.begin(o, Kind::Simulate, &[]))
            .transpose()?;
        let head = runs::guard(&game, opts, &info, session.cancel())?;
        let bar = Progress::after(
            info.range.end - info.range.start,
            &session.show(opts.progress),
            std::time::Duration::from_secs_f64(head.seconds),
        );
        let with = runs::PlayWith {
            threads: runs::threads(opts),
            progress: &bar,
            slot: runs::Slot::ALONE,
            cancel: session.cancel(),
        };
        let (info, tally, timing) = runs::play(&game, opts, info, head, with)?;
        bar.finish();
        let made = session.provenance();
        export::run::finish(&info, &tally, &timing, out, (opts.print, opts.svg), made)
    }
}

/// `merge`, for game type `G`.
struct MergeOf<'a> {
    m: &'a Merge,
    session: &'a Session,
}

impl WithGameType for MergeOf<'_> {
    type Output = Result<()>;

    fn with<G: GameCli>(self) -> Result<()> {
        let m = self.m;
        let out = self.session.begin(&m.out, Kind::Merge, &m.dirs)?;
        let (info, tally, timing) = merges::merge::<G>(&m.dirs)?;
        let made = self.session.provenance();
        export::run::finish(&info, &tally, &timing, Some(out), (m.print, m.svg), made)
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::cancel::{Cancel, Cancelled};
    use crate::store::private::PrivateDir;

    fn hosted(command: &[&str]) -> (Session, Cancel) {
        let cancel = Cancel::default();
        let words = command.iter().map(|w| w.to_string()).collect();
        let session = Session::hosted(cancel.clone(), words, Arc::default());
        (session, cancel)
    }

    fn quiet_run(out: &Path, games: u64) -> RunConfig {
        RunConfig {
            games: Some(games),
            out: Some(out.to_path_buf()),
            print: Print::Nothing,
            progress: crate::term::progress::When::Never,
            ..RunConfig::default()
        }
    }

    /// A game set up from its settings as JSON plays as the command line's flags do, and the
    /// files record the session's command, not this process's.
    #[test]
    fn a_hosted_simulation_records_its_sessions_command() {
        let dir = PrivateDir::new("warsim-api").unwrap();
        let out = dir.path().join("run");
        let mut settings =
            serde_json::to_value(crate::games::snap::SnapSettings::default()).unwrap();
        settings["faces"] = 3.into();
        settings["copies"] = 2.into();
        let game = Setup::from_json("snap", &settings).unwrap();
        let (session, _) = hosted(&["simulate", "snap", "--faces", "3", "--copies", "2"]);
        simulate(&session, &game, &quiet_run(&out, 500)).unwrap();
        let summary = std::fs::read_to_string(out.join("summary.json")).unwrap();
        assert!(
            summary.contains("\"command\": \"warsim simulate snap --faces 3 --copies 2\""),
            "{summary}"
        );
        assert!(summary.contains("\"games\": 500"), "{summary}");
    }

    /// A host's cancelled session plays nothing and writes nothing.
    #[test]
    fn a_cancelled_session_writes_nothing() {
        let dir = PrivateDir::new("warsim-api").unwrap();
        let out = dir.path().join("run");
        let game = Setup::from_json("rps", &serde_json::json!({"players": 3, "max_rounds": 100}));
        let (session, cancel) = hosted(&["simulate", "rps"]);
        cancel.set();
        let e = simulate(&session, &game.unwrap(), &quiet_run(&out, 100_000)).unwrap_err();
        assert!(e.downcast_ref::<Cancelled>().is_some(), "{e:#}");
        assert!(!out.exists());
    }

    /// Settings that are no game's, or of the wrong type, are usage errors naming them.
    #[test]
    fn a_bad_setup_is_a_usage_error() {
        let e = Setup::from_json("chess", &serde_json::json!({})).unwrap_err();
        assert!(e.to_string().contains("chess"), "{e}");
        let e = Setup::from_json("snap", &serde_json::json!({"players": "x"})).unwrap_err();
        assert!(e.to_string().starts_with("snap: "), "{e}");
        let e = Play::from_json("rps", &serde_json::json!({"throws": 3})).unwrap_err();
        assert!(e.to_string().contains("play rps"), "{e}");
    }

    /// Every game's `play` at its default arguments (no piles, no throws: what no command
    /// line can ask, since clap requires them) is a usage error or a game, never a panic.
    #[test]
    fn every_play_at_its_defaults_answers_or_refuses() {
        for name in crate::face::names() {
            let game = Play::from_json(name, &default_play(name)).unwrap();
            let mut out = Vec::new();
            let mut io = PlayIo {
                trace: false,
                names: false,
                out: &mut out,
                input: &mut std::io::empty(),
                input_echoed: false,
                prompt: &mut std::io::sink(),
                cancel: &Cancel::default(),
            };
            if let Err(e) = play(&game, &mut io) {
                assert!(
                    e.downcast_ref::<crate::error::UsageError>().is_some(),
                    "{name}: {e:#}"
                );
            }
        }
    }

    /// What the command line's flags refuse together, the API refuses too (found by an attack:
    /// `exact(flawless=True, threads=2)` and `search(census=True, loops=True)` ran, ignoring
    /// one, and recorded a command the command line refuses), before anything is written.
    #[test]
    fn conflicting_options_are_refused_as_the_command_line_refuses_them() {
        let dir = PrivateDir::new("warsim-api").unwrap();
        let out = dir.path().join("run");
        let (session, _) = hosted(&["exact", "war"]);
        let war = serde_json::to_value(crate::games::war::WarSettings::default()).unwrap();
        let game = Setup::from_json("war", &war).unwrap();
        for run in [
            RunConfig {
                threads: Some(2),
                ..quiet_run(&out, 1)
            },
            RunConfig {
                svg: true,
                ..quiet_run(&out, 1)
            },
        ] {
            let e = exact(&session, &game, &run, true).unwrap_err();
            assert!(
                e.downcast_ref::<crate::error::UsageError>().is_some(),
                "{e:#}"
            );
            assert!(e.to_string().contains("flawless"), "{e}");
        }
        let bmn = serde_json::to_value(crate::games::bmn::BmnSettings::default()).unwrap();
        let bmn = SearchGame::from_json("bmn", &bmn).unwrap();
        for config in [
            SearchConfig {
                loops: true,
                ..SearchConfig::default()
            },
            SearchConfig {
                keep: 5,
                ..SearchConfig::default()
            },
        ] {
            let config = SearchConfig {
                census: true,
                out: out.clone(),
                print: Print::Nothing,
                ..config
            };
            let e = search(&session, &bmn, &config).unwrap_err();
            assert!(e.to_string().contains("census"), "{e}");
        }
        assert!(!out.exists());
    }

    /// The JSON of game `name`'s `play` arguments at their defaults.
    fn default_play(name: &str) -> serde_json::Value {
        struct Of;
        impl WithGameType for Of {
            type Output = serde_json::Value;
            fn with<G: GameCli>(self) -> serde_json::Value {
                serde_json::to_value(G::PlayArgs::default()).unwrap()
            }
        }
        face::by_name(name, Of).unwrap()
    }
}
