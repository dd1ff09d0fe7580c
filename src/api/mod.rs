//! The typed API: every command of warsim as a function of typed values and a [`Session`], which
//! the command line ([`crate::app`]) and the Python package (`python`) adapt, neither building
//! nor parsing an argument list for the other. A game comes as a [`Setup`]: its name and its
//! settings struct ([`crate::games::Game::Settings`]), typed; the run options as a
//! [`RunConfig`]. `simulate` and `merge` return the run as a value ([`Run`]), `exact` its
//! [`Answer`], `sweep` a [`SweepRun`], `compare` a [`Comparison`] and `search` a
//! [`Searched`], each of which writes nothing and prints nothing until a consumer asks
//! (`write`, `print`); each `_into` sibling begins the output set before the work, so that a
//! folder that cannot take it is refused first, and writes the value there. A usage
//! error ([`crate::error::UsageError`]) names settings, which each front end says in its own
//! words.

mod load;
mod resume;
#[cfg(test)]
mod value_tests;

use std::path::{Path, PathBuf};

use crate::value::Checkpointer;

use anyhow::Result;

pub use crate::compare::Compare;
pub use crate::config::setup::{SearchSetup, Setup};
pub use crate::config::RunConfig;
pub use crate::face::PlayGame as Play;
pub use crate::reaching::ReachingConfig;
pub use crate::replay::Replayed;
pub use crate::search::SearchConfig;
pub use crate::session::{Session, Signals};
pub use crate::sweep::{resumes_a_sweep, Sweep, SweepRun};
pub use crate::value::{Answer, Asked, Comparison, Loaded, Run, Searched, Solved};
pub use load::load;
pub use resume::resume;

use warsim_core::error::{setting, setting_alone, UsageError};
use warsim_core::usage_of;

use crate::config::setup::{self, WithGame, WithGameType};
use crate::exact::Found;
use crate::face::{PlayIo, PlayReport};
use crate::games::Game;
use crate::store::{Dir, Kind, OutputSet};
use crate::term::progress::Progress;
use crate::{exact as exacts, merge as merges, model, run as runs, usage};

/// `simulate`: plays the run `run` asks of game `game` and returns it; nothing is written or
/// printed (`run`'s `out`, `print` and `svg` are its consumers', [`simulate_into`]).
pub fn simulate(session: &Session, game: &Setup, run: &RunConfig) -> Result<Run> {
    Simulation::new(game, run)?.play(session)
}

/// `simulate` as the command line and Python run it: the run's outputs checked, the run planned,
/// its output set begun in `run.out` (when given) before a game is played, then played and
/// written there; gives the run and the folder written.
pub fn simulate_into(
    session: &Session,
    game: &Setup,
    run: &RunConfig,
) -> Result<(Run, Option<PathBuf>)> {
    let simulation = Simulation::new(game, run)?;
    let set =
        begin(session, run.out.as_deref(), Kind::Simulate, &[])?.map(|s| s.told(run.progress));
    let played = simulation
        .planned
        .play(session, set.as_ref().map(|s| s.dir()))?;
    if played.info().stopped() && played.games() == 0 {
        // Stopped before its first game finished: no run to write, and the set dropped
        // unwritten leaves what `out` held whole (a chart of no games cannot be drawn).
        let nothing = "interrupted before the first game finished; nothing written";
        return Err(crate::error::Interrupted(nothing.into()).into());
    }
    let written = write(set, |set| played.write(set, run.svg))?;
    Ok((played, written))
}

/// Begins the output set of `kind` in `out`, if any, so that a target that cannot take it is
/// refused before the work.
fn begin(
    session: &Session,
    out: Option<&Path>,
    kind: Kind,
    inputs: &[PathBuf],
) -> Result<Option<OutputSet>> {
    out.map(|o| session.begin(o, kind, inputs)).transpose()
}

/// Writes into `set`, if any, with `write`; gives the folder written.
fn write(
    set: Option<OutputSet>,
    write: impl FnOnce(OutputSet) -> Result<()>,
) -> Result<Option<PathBuf>> {
    let Some(set) = set else {
        return Ok(None);
    };
    let target = set.dir().target().to_path_buf();
    write(set)?;
    Ok(Some(target))
}

/// A simulation planned and checked, not yet played: its game built from its settings and
/// what it will play, so that every refusal comes before an output set is begun.
pub struct Simulation {
    planned: Box<dyn Planned>,
}

impl Simulation {
    /// Builds game `game` and plans the run `run` asks of it, refusing bad settings and
    /// options.
    pub fn new(game: &Setup, run: &RunConfig) -> Result<Simulation> {
        let planned = game.run(Plan { run })?;
        Ok(Simulation { planned })
    }

    /// Plays it (its pilot first, which refuses a run over `max_hours`) under `session`.
    pub fn play(self, session: &Session) -> Result<Run> {
        self.planned.play(session, None)
    }

    /// Its time estimate from its pilot, whatever its `max_hours` (`simulate --estimate`);
    /// nothing is played beyond the pilot, nothing written.
    pub fn estimate(&self, session: &Session) -> Result<crate::estimate::Estimate> {
        self.planned.estimate(session)
    }
}

/// `exact`: every distinct deal of `game` played once (or its Markov chain solved); with
/// `flawless`, War's flawless game computed instead. Nothing is written or printed.
pub fn exact(session: &Session, game: &Setup, run: &RunConfig, flawless: bool) -> Result<Answer> {
    let run = RunConfig {
        out: None,
        ..run.clone()
    };
    Ok(found(session, game, &run, flawless)?.0)
}

/// `exact` as the command line and Python run it: its output set begun in `run.out` (when
/// given) before the work, then written there; gives the answer and the folder written.
pub fn exact_into(
    session: &Session,
    game: &Setup,
    run: &RunConfig,
    flawless: bool,
) -> Result<(Answer, Option<PathBuf>)> {
    let (answer, set) = found(session, game, run, flawless)?;
    let written = write(set, |set| answer.write(set, run.svg))?;
    Ok((answer, written))
}

/// `exact`'s answer, and its output set begun in `run.out`.
fn found(session: &Session, game: &Setup, run: &RunConfig, flawless: bool) -> Result<Found> {
    if flawless {
        let given = [(run.threads.is_some(), "threads"), (run.svg, "svg")];
        let takes = " computes one probability: it takes no ";
        alone("exact", "flawless", takes, &given)?;
        game.run(exacts::FlawlessGame { run, session })
    } else {
        game.run(exacts::Exact { run, session })
    }
}

/// `sweep`: every rule set of `sweep` played, returned as the sweep's value; nothing is
/// written or printed (`sweep.run`'s `out`, `print` and `svg` are its consumers',
/// [`sweep_into`]).
pub fn sweep(session: &Session, sweep: &Sweep) -> Result<SweepRun> {
    sweep.prepare()?.play(session, None, None)
}

/// `sweep` as the command line and Python run it: every rule set checked, the output set begun
/// in `sweep.run.out` before a game is played, the sweep played (what it finishes kept in the
/// set's staging folder as it goes) and written there; gives the sweep and the folder written.
/// Stopped by an interrupt (on the command line), it is written as far as it got, marked
/// stopped.
pub fn sweep_into(session: &Session, sweep: &Sweep) -> Result<(SweepRun, Option<PathBuf>)> {
    let prepared = sweep.prepare()?;
    let set = begin(session, sweep.run.out.as_deref(), Kind::Sweep, &[])?;
    let played = prepared.play(session, set.as_ref(), None)?;
    let written = write(set, |set| played.write(set, sweep.run.svg))?;
    Ok((played, written))
}

/// `resume DIR` of a stopped sweep (one [`resumes_a_sweep`] finds): played to its end and
/// written into `dir`, as [`resume`] does a run.
pub fn resume_sweep(
    session: &Session,
    dir: &Path,
    progress: crate::term::progress::When,
    minutes: f64,
) -> Result<(SweepRun, PathBuf)> {
    crate::sweep::resume(session, dir, progress, minutes)
}

/// What `merge` adds up and where it writes.
#[derive(Clone, Debug)]
pub struct Merge {
    /// The shards' directories.
    pub dirs: Vec<PathBuf>,
    /// Where the merged run goes, if it is written.
    pub out: Option<PathBuf>,
    /// Whether the charts are also written as SVG.
    pub svg: bool,
}

/// `merge`: the shards in `dirs`, of the game the first one names, added exactly; the whole
/// run is returned, nothing written.
pub fn merge(session: &Session, dirs: &[PathBuf]) -> Result<Run> {
    let name = game_of_shards(dirs)?;
    merge_as(session, dirs, &name)
}

/// `merge` as the command line and Python run it: the output set begun in `m.out` (when
/// given, and none of the shards), the shards added, the run written there; gives the run and
/// the folder written.
pub fn merge_into(session: &Session, m: &Merge) -> Result<(Run, Option<PathBuf>)> {
    let name = game_of_shards(&m.dirs)?;
    let set = begin(session, m.out.as_deref(), Kind::Merge, &m.dirs)?;
    let run = merge_as(session, &m.dirs, &name)?;
    let written = write(set, |set| run.write(set, m.svg))?;
    Ok((run, written))
}

/// The game the first of the shards `dirs` names.
fn game_of_shards(dirs: &[PathBuf]) -> Result<String> {
    let first = dirs
        .first()
        .ok_or_else(|| usage!("merge needs at least one directory"))?;
    Ok(model::load::game_of(first)?)
}

/// The shards `dirs` added as runs of game `name`.
fn merge_as(session: &Session, dirs: &[PathBuf], name: &str) -> Result<Run> {
    setup::by_name(name, MergeOf { dirs, session }).unwrap_or_else(|| {
        Err(usage!(
            "{}: summary.json names game {name:?}, which is none of {}",
            dirs[0].display(),
            setup::names().join(", ")
        )
        .into())
    })
}

/// `compare`: the survival curves of the runs in `dirs` and every pair's KS test; nothing is
/// written or printed.
pub fn compare(session: &Session, dirs: &[PathBuf]) -> Result<Comparison> {
    crate::compare::compared(session, dirs)
}

/// `compare` as the command line and Python run it: its output set begun in `c.out` (none of
/// the runs it reads) before a run is read, then the comparison written there.
pub fn compare_into(session: &Session, c: &Compare) -> Result<Comparison> {
    crate::compare::enough(&c.dirs)?;
    let set = session.begin(&c.out, Kind::Compare, &c.dirs)?;
    let comparison = crate::compare::compared(session, &c.dirs)?;
    comparison.write(set, c.svg)?;
    Ok(comparison)
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

/// `search`: Beggar-my-neighbour's searches (`--method record`, `sample` or `climb`,
/// `--loops`, `--census`), returned as the core's report; nothing is written or printed
/// (`config.out` is the folder its replay command names, and `config.print` the printer's).
pub fn search(session: &Session, game: &SearchSetup, config: &SearchConfig) -> Result<Searched> {
    let bmn = searchable(game, config)?;
    crate::search::Search::new(&bmn, config)?.play(session)
}

/// `search` as the command line and Python run it: the search planned and checked, its
/// output set begun in `config.out` before it plays, then written there (also when an
/// interrupt stopped it: see [`Searched::interrupted`]).
pub fn search_into(
    session: &Session,
    game: &SearchSetup,
    config: &SearchConfig,
) -> Result<Searched> {
    let bmn = searchable(game, config)?;
    let search = crate::search::Search::new(&bmn, config)?;
    searched_into(session, &config.out, || search.play(session))
}

/// The game of a search of `config`, once the options the command line refuses together are
/// refused.
fn searchable(game: &SearchSetup, config: &SearchConfig) -> Result<crate::games::bmn::Bmn> {
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
    Ok(game.game()?)
}

/// `search --reaching`: the deals that reach a never-ending cycle's basin, returned as the
/// core's report; nothing is written or printed.
pub fn reaching(
    session: &Session,
    game: &SearchSetup,
    config: &ReachingConfig,
) -> Result<Searched> {
    has_out(&config.out)?;
    let bmn = game.game()?;
    crate::reaching::Reaching::new(&bmn, config)?.play(session)
}

/// `search --reaching` as the command line and Python run it: its output set begun in
/// `config.out` before the walk, then written there.
pub fn reaching_into(
    session: &Session,
    game: &SearchSetup,
    config: &ReachingConfig,
) -> Result<Searched> {
    has_out(&config.out)?;
    let bmn = game.game()?;
    let walk = crate::reaching::Reaching::new(&bmn, config)?;
    searched_into(session, &config.out, || walk.play(session))
}

/// A search's set begun in `out` (so that a target that cannot take it is refused before
/// the search), the search played with `play`, and its set written.
fn searched_into(
    session: &Session,
    out: &Path,
    play: impl FnOnce() -> Result<Searched>,
) -> Result<Searched> {
    let set = session.begin(out, Kind::Search, &[])?;
    let searched = play()?;
    searched.write(set)?;
    Ok(searched)
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

/// A simulation of game `G` planned: the game, what it plays, and the options asked.
struct PlannedRun<G> {
    game: G,
    info: model::report::RunInfo,
    run: RunConfig,
}

/// A [`PlannedRun`] of any game.
trait Planned {
    fn play(self: Box<Self>, session: &Session, at: Option<&Dir>) -> Result<Run>;
    fn estimate(&self, session: &Session) -> Result<crate::estimate::Estimate>;
}

impl<G: Game> Planned for PlannedRun<G> {
    fn estimate(&self, session: &Session) -> Result<crate::estimate::Estimate> {
        runs::estimate_alone(&self.game, &self.run, &self.info, session.cancel())
    }

    /// Plays it under `session`; a run that keeps its games saves its checkpoints into the
    /// set staged `at`.
    fn play(self: Box<Self>, session: &Session, at: Option<&Dir>) -> Result<Run> {
        let PlannedRun { game, info, run } = *self;
        let head = runs::guard(&game, &run, &info, session.cancel())?;
        let bar = Progress::after(
            info.range.end - info.range.start,
            &session.show(run.progress),
            std::time::Duration::from_secs_f64(head.seconds),
        );
        // Where the run is written, the first interrupt (the command line's SIGINT or SIGTERM,
        // a host's Ctrl-C) stops the games and the set is written of those played, marked
        // stopped (`warsim resume` plays the rest), a run to a precision's too.
        let keeps = run.out.is_some();
        let stop = match keeps {
            true => session.keeping_stop(run.progress),
            false => session.cancel().clone(),
        };
        // A run that keeps its games also stops itself when it runs far past its bound.
        let overrun =
            keeps.then(|| runs::Overrun::watch(run.max_hours, head.seconds, &stop, run.progress));
        let threads = runs::threads(&run);
        let head_games = (head.tally.clone(), head.seconds);
        let saving = Checkpointer::of(
            at,
            run.checkpoint_minutes,
            &info,
            head_games,
            threads,
            session.provenance(),
        );
        let with = runs::PlayWith {
            threads,
            progress: &bar,
            slot: runs::Slot::ALONE,
            cancel: &stop,
            keeps,
        };
        let (info, tally, mut timing) = runs::play(
            &game,
            &run,
            info,
            head,
            with,
            saving.as_ref().map(|c| c as _),
        )?;
        bar.finish();
        timing.note = overrun.and_then(|o| o.note()).filter(|_| info.stopped());
        Run::new(info, tally, timing, session.provenance())
    }
}

/// Plans a simulation of game type `G`.
struct Plan<'a> {
    run: &'a RunConfig,
}

impl WithGame for Plan<'_> {
    type Output = Result<Box<dyn Planned>>;

    fn with<G: Game>(self, game: G) -> Result<Box<dyn Planned>> {
        let info = runs::plan(&game, self.run)?;
        Ok(Box::new(PlannedRun {
            game,
            info,
            run: self.run.clone(),
        }))
    }
}

/// `merge`, for game type `G`.
struct MergeOf<'a> {
    dirs: &'a [PathBuf],
    session: &'a Session,
}

impl WithGameType for MergeOf<'_> {
    type Output = Result<Run>;

    fn with<G: Game>(self) -> Result<Run> {
        let (info, tally, timing) = merges::merge::<G>(self.dirs)?;
        Run::new(info, tally, timing, self.session.provenance())
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::cancel::{Cancel, Cancelled};
    use crate::store::private::PrivateDir;
    use crate::term::stdout::Print;

    fn hosted(command: &[&str]) -> (Session, Cancel) {
        let cancel = Cancel::default();
        let words = command.iter().map(|w| w.to_string()).collect();
        let session = Session::hosted(cancel.clone(), words, Arc::default());
        (session, cancel)
    }

    fn quiet_run(out: &Path, games: u64) -> RunConfig {
        RunConfig {
            games: Some(crate::config::Games::new(games).unwrap()),
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
        simulate_into(&session, &game, &quiet_run(&out, 500)).unwrap();
        let summary = std::fs::read_to_string(out.join("summary.json")).unwrap();
        assert!(
            summary.contains("\"command\": \"warsim simulate snap --faces 3 --copies 2\""),
            "{summary}"
        );
        assert!(summary.contains("\"games\": 500"), "{summary}");
    }

    /// `simulate` returns the run and writes nothing; the run's texts are those of the set
    /// that `simulate_into` writes for the same game and options, and its statistics are those
    /// the summary states.
    #[test]
    fn a_simulation_is_a_value_that_its_set_writes() {
        let dir = PrivateDir::new("warsim-api").unwrap();
        let out = dir.path().join("run");
        let game = Setup::from_json("rps", &serde_json::json!({"players": 3, "max_rounds": 100}));
        let game = game.unwrap();
        let (session, _) = hosted(&["simulate", "rps", "--players", "3"]);
        let config = RunConfig {
            out: None,
            ..quiet_run(&out, 2_000)
        };
        let run = simulate(&session, &game, &config).unwrap();
        assert!(std::fs::read_dir(dir.path()).unwrap().next().is_none());
        let (written, at) = simulate_into(&session, &game, &quiet_run(&out, 2_000)).unwrap();
        assert_eq!(at.as_deref(), Some(out.as_path()));
        let file = |name: &str| std::fs::read_to_string(out.join(name)).unwrap();
        assert_eq!(run.histogram_csv(), file("histogram.csv"));
        assert_eq!(written.summary_json(), file("summary.json"));
        let summary: serde_json::Value = serde_json::from_str(run.summary_json()).unwrap();
        let rounds = run.rounds().unwrap();
        assert_eq!(run.games(), 2_000);
        assert_eq!(summary["rounds"]["mean"], serde_json::json!(rounds.mean));
        assert_eq!(summary["rounds"]["ci95"], serde_json::json!(rounds.ci95));
        assert_eq!(run.charts(), vec!["histogram", "survival"]);
        let png = run.chart("histogram", "png").unwrap();
        assert_eq!(png, std::fs::read(out.join("histogram.png")).unwrap());
    }

    /// `sweep` returns the sweep and writes nothing; `sweep_into` writes the same sweep, its
    /// sweep.json and sweep.csv the value's texts and each rule set's folder its run's.
    #[test]
    fn a_sweep_is_a_value_that_its_set_writes() {
        let dir = PrivateDir::new("warsim-api").unwrap();
        let out = dir.path().join("sweep");
        let axes = vec![(
            "players".to_string(),
            vec!["3".to_string(), "4".to_string()],
        )];
        let swept = Sweep::new("rps", axes, quiet_run(&out, 1_000), 10, |_, at| {
            let players = 3 + at[0];
            let settings = serde_json::json!({ "players": players, "max_rounds": 100 });
            Ok(Setup::from_json("rps", &settings).unwrap())
        })
        .unwrap();
        let (session, _) = hosted(&["sweep", "rps", "--players", "3,4"]);
        let played = sweep(&session, &swept).unwrap();
        assert!(std::fs::read_dir(dir.path()).unwrap().next().is_none());
        assert!(!played.stopped() && played.held().is_none());
        let (written, at) = sweep_into(&session, &swept).unwrap();
        assert_eq!(at.as_deref(), Some(out.as_path()));
        let file = |name: &str| std::fs::read_to_string(out.join(name)).unwrap();
        assert_eq!(written.sweep_json().unwrap(), file("sweep.json"));
        assert_eq!(played.sweep_csv().unwrap(), file("sweep.csv"));
        for (run, set) in played.runs().iter().zip(["players-3", "players-4"]) {
            assert_eq!(run.histogram_csv(), file(&format!("{set}/histogram.csv")));
        }
    }

    /// A host's cancelled session plays nothing and writes nothing.
    #[test]
    fn a_cancelled_session_writes_nothing() {
        let dir = PrivateDir::new("warsim-api").unwrap();
        let out = dir.path().join("run");
        let game = Setup::from_json("rps", &serde_json::json!({"players": 3, "max_rounds": 100}));
        let (session, cancel) = hosted(&["simulate", "rps"]);
        cancel.set();
        let e = simulate_into(&session, &game.unwrap(), &quiet_run(&out, 100_000)).unwrap_err();
        let cancelled = matches!(
            e.downcast_ref::<warsim_core::error::Error>(),
            Some(warsim_core::error::Error::Cancelled(Cancelled))
        );
        assert!(
            cancelled || e.downcast_ref::<Cancelled>().is_some(),
            "{e:#}"
        );
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
                threads: Some(crate::config::Threads::new(2).unwrap()),
                ..quiet_run(&out, 1)
            },
            RunConfig {
                svg: true,
                ..quiet_run(&out, 1)
            },
        ] {
            let e = exact(&session, &game, &run, true).unwrap_err();
            assert!(crate::error::is_usage(&e), "{e:#}");
            assert!(e.to_string().contains("flawless"), "{e}");
        }
        let bmn = serde_json::to_value(crate::games::bmn::BmnSettings::default()).unwrap();
        let bmn = SearchSetup::from_json("bmn", &bmn).unwrap();
        for config in [
            SearchConfig {
                loops: true,
                ..SearchConfig::default()
            },
            SearchConfig {
                keep: crate::config::Keep::new(5).unwrap(),
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
}
