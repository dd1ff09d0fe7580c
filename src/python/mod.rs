//! The extension module `warsim._warsim` (the `python` feature, built by maturin): typed
//! functions over the same run layer as the command line ([`RunConfig`], the games' own
//! option checks, the output sets), so a run from Python writes the files the command line
//! writes, byte for byte, and nothing is printed. The Python package (`python/warsim`) adds
//! only pandas and the notebook's display.
//!
//! Long calls release the GIL and play on a worker thread while this thread looks for signals
//! every 50 ms: Ctrl-C sets the run's [`Cancel`], which the engine sees before its next chunk
//! and every output set sees before its commit, and the call raises `KeyboardInterrupt` with
//! nothing written (the earlier set in `out=` left whole), or, when the interrupt came after
//! the commit, one that says the output was written in full.

mod args;
mod run;

use std::path::PathBuf;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

use clap::Parser;
use pyo3::exceptions::{PyKeyboardInterrupt, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

use crate::app::{self, Merge, Simulate};
use crate::cli::{Cli, Command};
use crate::error::{one_line, pythonic, UsageError};
use crate::exact::{Exact, FlawlessGame};
use crate::face::PlayIo;
use crate::face::{self, GameCli, WithGameType};
use crate::list::{self, OptionDoc};
use crate::sim::engine::Cancel;
use crate::store::private::PrivateDir;
use crate::term::progress;
use crate::term::stdout::Print;
use args::{rule_args, RunKwargs};
use run::Run;

/// Runs `work` on a worker thread with the GIL released, checking for signals (Ctrl-C) every
/// 50 ms; a signal cancels the run and raises its exception (`KeyboardInterrupt`) here.
/// `command` is the command line (after `warsim`) equivalent to the call, which the files it
/// writes record as theirs.
fn interruptible<T: Send>(
    py: Python<'_>,
    command: Vec<String>,
    work: impl FnOnce(&Cancel) -> anyhow::Result<T> + Send,
) -> PyResult<T> {
    let cancel = Cancel::default();
    let shared = Arc::new(progress::Shared::default());
    let mut shown = Shown::new();
    std::thread::scope(|s| {
        let worker = s.spawn(|| {
            crate::store::commits_unless(&cancel);
            crate::model::summary::called_as(command);
            progress::count_for_host(shared.clone());
            work(&cancel)
        });
        loop {
            shown.draw(py, &shared, false);
            let finished = py.detach(|| {
                for _ in 0..10 {
                    if worker.is_finished() {
                        return true;
                    }
                    std::thread::sleep(Duration::from_millis(5));
                }
                false
            });
            if finished {
                break;
            }
            if let Err(signal) = py.check_signals() {
                shown.draw(py, &shared, true);
                cancel.set();
                // The engine stops before its next chunk, and no output set commits once the
                // cancel is set: what was staged is removed on the way out and the old set stays.
                // A worker that had committed before the cancel has written its set in full,
                // and the interrupt says so.
                let done = py.detach(|| worker.join());
                if matches!(done, Ok(Ok(_))) && signal.is_instance_of::<PyKeyboardInterrupt>(py) {
                    return Err(written());
                }
                return Err(signal);
            }
        }
        shown.draw(py, &shared, true);
        let value = match worker.join() {
            Ok(done) => done.map_err(to_python)?,
            Err(panic) => std::panic::resume_unwind(panic),
        };
        // An interrupt that came while the finished call was being collected is raised here,
        // saying that the output was written, rather than by Python on the next line as if
        // the call had been stopped.
        match py.check_signals() {
            Err(signal) if signal.is_instance_of::<PyKeyboardInterrupt>(py) => Err(written()),
            Err(signal) => Err(signal),
            Ok(()) => Ok(value),
        }
    })
}

/// The progress line of a long call, drawn by Python's `warsim._show_progress` (on stderr,
/// where a terminal or a notebook shows it; `warsim.show_progress` says when) after the call
/// has run for [`QUIET_FOR`], at most every [`DRAW_EVERY`].
struct Shown {
    start: Instant,
    last: Option<Instant>,
}

/// How long a call runs before its progress is shown: a short call stays silent.
const QUIET_FOR: Duration = Duration::from_secs(2);
/// Time between two draws of the progress line.
const DRAW_EVERY: Duration = Duration::from_millis(250);

impl Shown {
    fn new() -> Shown {
        Shown {
            start: Instant::now(),
            last: None,
        }
    }

    /// Draws the line (or, `finished`, clears it if it was drawn). Progress is a courtesy: a
    /// failure to draw it is ignored, never the call's error.
    fn draw(&mut self, py: Python<'_>, shared: &progress::Shared, finished: bool) {
        let elapsed = self.start.elapsed();
        let due = self
            .last
            .map_or(elapsed >= QUIET_FOR, |t| t.elapsed() >= DRAW_EVERY);
        let total = shared.total.load(Ordering::Relaxed);
        if (finished && self.last.is_none()) || (!finished && (!due || total == 0)) {
            return;
        }
        self.last = Some(Instant::now());
        let done = shared.done.load(Ordering::Relaxed);
        let args = (done, total, elapsed.as_secs_f64(), finished);
        let _ = (py.import("warsim"))
            .and_then(|m| m.getattr("_show_progress"))
            .and_then(|f| f.call1(args));
    }
}

/// The `KeyboardInterrupt` of a call interrupted after it had written its output.
fn written() -> PyErr {
    PyKeyboardInterrupt::new_err(
        "interrupted after the call had finished: its output, if any, was written in full",
    )
}

/// A failure as Python sees it: bad input a `ValueError` naming the keyword argument, any other
/// failure (a full disk, say) a `RuntimeError`.
fn to_python(e: anyhow::Error) -> PyErr {
    if e.downcast_ref::<UsageError>().is_some() {
        // Settings named by the rules read as keyword arguments already; the command line's
        // own parser (the rule options Python still passes through it) names flags.
        let text = crate::error::chain(&e, crate::error::with_keywords);
        PyValueError::new_err(pythonic(text.trim_start_matches("error: ")))
    } else {
        PyRuntimeError::new_err(format!("{e:#}"))
    }
}

/// The rule options of game `name`, or a `ValueError` listing the games.
fn options(name: &str) -> PyResult<Vec<OptionDoc>> {
    #[derive(Clone)]
    struct Options;
    impl WithGameType for Options {
        type Output = Vec<OptionDoc>;
        fn with<G: GameCli>(self) -> Vec<OptionDoc> {
            list::settings_of::<G>()
        }
    }
    face::by_name(name, Options).ok_or_else(|| {
        PyValueError::new_err(format!(
            "game={name:?}: no such game; the games are {}",
            face::names().join(", ")
        ))
    })
}

/// Where a call writes: the user's `out=`, or `run` in a private folder ([`PrivateDir`],
/// removed when dropped) that is read back.
fn target(out: Option<PathBuf>) -> PyResult<(PathBuf, Option<PrivateDir>)> {
    match out {
        Some(o) => Ok((o, None)),
        None => {
            let s =
                PrivateDir::new("warsim-py").map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
            Ok((s.path().join("run"), Some(s)))
        }
    }
}

/// The command line (after `warsim`) equivalent to a call of `command` (`simulate`, `exact`)
/// on `game` with rule arguments `rule` and run options `run`; its `--out` only when the caller
/// `kept` the folder (a private scratch folder says nothing).
fn call(
    command: &str,
    game: &str,
    rule: &[String],
    run: &RunKwargs<'_>,
    kept: bool,
) -> PyResult<Vec<String>> {
    let mut args = run.args()?;
    if !kept {
        if let Some(i) = args.iter().position(|a| a == "--out") {
            args.drain(i..i + 2);
        }
    }
    Ok([command.to_string(), game.to_string()]
        .into_iter()
        .chain(rule.iter().cloned())
        .chain(args)
        .collect())
}

/// Plays `games` games of `game` (1,000,000 without `games`) and returns the run, written into
/// the folder `out` when given (the files of `warsim simulate GAME --out OUT`).
///
/// Rule options are keyword arguments named as the command line's, with `_` for `-`
/// (`war_down=1`, `pickup="p1-first"`); `True` turns a switch on. `warsim.games()` lists every
/// game's options with their help. Same seed and options, same histogram as the command
/// line, on any number of threads. `max_hours` refuses a run estimated longer (`math.inf`:
/// no bound); `shard="K/N"` plays one slice (see `merge`); `precision=H` plays until the 95%
/// interval of the mean rounds is at most ±H. Bad input raises ValueError naming the
/// argument; Ctrl-C stops the run within a second.
#[pyfunction]
#[pyo3(signature = (game, /, *, games=None, seed=None, threads=None, shard=None,
    precision=None, max_games=None, max_hours=None, out=None, svg=false, **rules),
    text_signature = "(game, /, *, games=None, seed=0, threads=None, shard=None, \
    precision=None, max_games=None, max_hours=6.0, out=None, svg=False, **rules)")]
#[allow(clippy::too_many_arguments)]
fn simulate<'py>(
    py: Python<'py>,
    game: &str,
    games: Option<Bound<'py, PyAny>>,
    seed: Option<Bound<'py, PyAny>>,
    threads: Option<Bound<'py, PyAny>>,
    shard: Option<Bound<'py, PyAny>>,
    precision: Option<Bound<'py, PyAny>>,
    max_games: Option<Bound<'py, PyAny>>,
    max_hours: Option<Bound<'py, PyAny>>,
    out: Option<PathBuf>,
    svg: bool,
    rules: Option<&Bound<'py, PyDict>>,
) -> PyResult<Run> {
    let what = format!("simulate({game:?})");
    let settings = args::settings(game, &what, rules)?;
    let rule = rule_args(&what, &options(game)?, rules)?;
    let kept = out.is_some();
    let (dir, scratch) = target(out)?;
    let run = RunKwargs {
        games,
        seed,
        threads,
        shard,
        precision,
        max_games,
        max_hours,
        out: Some(dir.clone()),
        svg,
    };
    let mut config = run.config()?;
    let command = call("simulate", game, &rule, &run, kept)?;
    interruptible(py, command, |cancel| {
        config.cancel = cancel.clone();
        list::with_settings(game, &settings, Simulate(&config))?;
        Run::read(&dir, scratch.is_none())
    })
}

/// Every distinct deal of `game` played once, an exact answer (the run's Run), or for War's
/// shuffled pickups the solved Markov chain (chain.json, as a dict); with `flawless=True`
/// (War) the flawless game's probability (flawless.json, as a dict). Written into `out` when
/// given. Rule options as for `simulate`.
#[pyfunction]
#[pyo3(signature = (game, /, *, threads=None, out=None, svg=false, flawless=false, **rules))]
fn exact<'py>(
    py: Python<'py>,
    game: &str,
    threads: Option<Bound<'py, PyAny>>,
    out: Option<PathBuf>,
    svg: bool,
    flawless: bool,
    rules: Option<&Bound<'py, PyDict>>,
) -> PyResult<Py<PyAny>> {
    let what = format!("exact({game:?})");
    let settings = args::settings(game, &what, rules)?;
    let rule = rule_args(&what, &options(game)?, rules)?;
    let kept = out.is_some();
    let (dir, scratch) = target(out)?;
    let run = RunKwargs {
        games: None,
        seed: None,
        threads,
        shard: None,
        precision: None,
        max_games: None,
        max_hours: None,
        out: Some(dir.clone()),
        svg,
    };
    let mut config = run.config()?;
    let mut command = call("exact", game, &rule, &run, kept)?;
    // `exact` takes none of simulate's seed, count or bound; `--flawless` is its own.
    for flag in ["--seed", "--max-games", "--max-hours"] {
        if let Some(i) = command.iter().position(|a| a == flag) {
            command.drain(i..i + 2);
        }
    }
    if flawless {
        command.push("--flawless".into());
    }
    let answer = if flawless {
        "flawless.json"
    } else {
        "chain.json"
    };
    let done = interruptible(py, command, |cancel| {
        config.cancel = cancel.clone();
        if flawless {
            list::with_settings(game, &settings, FlawlessGame(&config))?;
        } else {
            list::with_settings(game, &settings, Exact(&config))?;
        }
        if dir.join(answer).exists() {
            return Ok(Err(crate::model::reader::read_text(
                &dir,
                answer,
                crate::model::reader::MAX_JSON_BYTES,
            )?));
        }
        Run::read(&dir, scratch.is_none()).map(Ok)
    })?;
    match done {
        Ok(run) => Ok(Py::new(py, run)?.into_any()),
        Err(chain) => json_loads(py, &chain),
    }
}

/// Adds the shard runs in `dirs` (`simulate(..., shard="K/N", out=...)` or the command
/// line's) exactly, and returns the whole run, written into `out` when given.
#[pyfunction]
#[pyo3(signature = (dirs, /, *, out=None, svg=false))]
fn merge(py: Python<'_>, dirs: Vec<PathBuf>, out: Option<PathBuf>, svg: bool) -> PyResult<Run> {
    let mut command: Vec<String> = std::iter::once("merge".to_string())
        .chain(dirs.iter().map(|d| d.display().to_string()))
        .collect();
    if let Some(o) = &out {
        command.extend(["--out".into(), o.display().to_string()]);
    }
    if svg {
        command.push("--svg".into());
    }
    let (dir, scratch) = target(out)?;
    interruptible(py, command, |_| {
        app::merge_run(&Merge {
            dirs: &dirs,
            out: &dir,
            print: Print::Nothing,
            svg,
        })?;
        Run::read(&dir, scratch.is_none())
    })
}

/// Reads the run in folder `dir` (written by `simulate`, `exact` or `merge`, from Python or
/// the command line).
#[pyfunction]
fn load(py: Python<'_>, dir: PathBuf) -> PyResult<Run> {
    interruptible(py, Vec::new(), |_| Run::read(&dir, true))
}

/// Plays one game of the run in folder `dir` again (`warsim replay DIR --json`, as a dict): by
/// default its longest, which must end as the run says; `game=I` any other.
#[pyfunction]
#[pyo3(signature = (dir, /, *, game=None))]
fn replay(py: Python<'_>, dir: PathBuf, game: Option<u64>) -> PyResult<Py<PyAny>> {
    let text = interruptible(py, Vec::new(), |_| {
        Ok(serde_json::to_string(&crate::replay::replayed(
            &dir, game,
        )?)?)
    })?;
    json_loads(py, &text)
}

/// Runs every combination of the listed rule settings (`war_down=[1, 2, 3]`, or "all" for every
/// value of an option) into folder `out`, one subfolder per rule set, and returns sweep.json
/// as a dict. Run options as for `simulate`; `max_rule_sets` raises the bound of 1,000.
#[pyfunction]
#[pyo3(signature = (game, /, *, out, games=None, seed=None, threads=None, precision=None,
    max_games=None, max_hours=None, svg=false, max_rule_sets=None, **settings),
    text_signature = "(game, /, *, out, games=None, seed=0, threads=None, precision=None, \
    max_games=None, max_hours=6.0, svg=False, max_rule_sets=None, **settings)")]
#[allow(clippy::too_many_arguments)]
fn sweep<'py>(
    py: Python<'py>,
    game: &str,
    out: PathBuf,
    games: Option<Bound<'py, PyAny>>,
    seed: Option<Bound<'py, PyAny>>,
    threads: Option<Bound<'py, PyAny>>,
    precision: Option<Bound<'py, PyAny>>,
    max_games: Option<Bound<'py, PyAny>>,
    max_hours: Option<Bound<'py, PyAny>>,
    svg: bool,
    max_rule_sets: Option<u64>,
    settings: Option<&Bound<'py, PyDict>>,
) -> PyResult<Py<PyAny>> {
    let mut argv = rule_args(&format!("sweep({game:?})"), &options(game)?, settings)?;
    let run = RunKwargs {
        games,
        seed,
        threads,
        shard: None,
        precision,
        max_games,
        max_hours,
        out: Some(out.clone()),
        svg,
    };
    argv.extend(run.args()?);
    argv.push("--quiet".into());
    if let Some(n) = max_rule_sets {
        argv.extend(["--max-rule-sets".into(), n.to_string()]);
    }
    let command: Vec<String> = ["sweep".to_string(), game.to_string()]
        .into_iter()
        .chain(argv.iter().cloned())
        .collect();
    let doc = interruptible(py, command, |cancel| {
        crate::sweep::run(game, &argv, cancel)?;
        Ok(crate::model::reader::read_text(
            &out,
            "sweep.json",
            crate::model::reader::MAX_SET_JSON_BYTES,
        )?)
    })?;
    json_loads(py, &doc)
}

/// Survival curves and pairwise two-sample KS tests of the runs in `dirs`, written into folder
/// `out`; returns compare.json as a dict.
#[pyfunction]
#[pyo3(signature = (dirs, /, *, out, svg=false))]
fn compare(py: Python<'_>, dirs: Vec<PathBuf>, out: PathBuf, svg: bool) -> PyResult<Py<PyAny>> {
    let mut command: Vec<String> = std::iter::once("compare".to_string())
        .chain(dirs.iter().map(|d| d.display().to_string()))
        .chain(["--out".to_string(), out.display().to_string()])
        .collect();
    if svg {
        command.push("--svg".into());
    }
    let doc = interruptible(py, command, |_| {
        crate::compare::run(&dirs, &out, Print::Nothing, svg)?;
        Ok(crate::model::reader::read_text(
            &out,
            "compare.json",
            crate::model::reader::MAX_JSON_BYTES,
        )?)
    })?;
    json_loads(py, &doc)
}

/// Plays one game as `warsim play GAME ARGS...` does and returns its report (the JSON of
/// `--json`) as a dict, with the trace's lines under "trace" when `trace=True`. Positional
/// arguments are the command's (snap's piles, shotgun's moves, rps's throws); options are
/// keyword arguments (War: `seed=`, `game=`, `deal=`, `from_=`, `rules=`, ...).
#[pyfunction]
#[pyo3(signature = (game, /, *args, trace=false, **options))]
fn play<'py>(
    py: Python<'py>,
    game: &str,
    args: &Bound<'py, PyTuple>,
    trace: bool,
    options: Option<&Bound<'py, PyDict>>,
) -> PyResult<Py<PyAny>> {
    let mut argv: Vec<String> = args
        .iter()
        .map(|a| a.str().map(|s| s.to_string()))
        .collect::<PyResult<_>>()?;
    if let Some(options) = options {
        for (key, value) in options.iter() {
            let key: String = key.extract()?;
            let flag = crate::error::flag(key.trim_end_matches('_'));
            match value.extract::<bool>() {
                Ok(true) => argv.push(flag),
                Ok(false) => {}
                Err(_) if value.is_none() => {}
                Err(_) => argv.extend([flag, value.str()?.to_string()]),
            }
        }
    }
    let report = interruptible(py, Vec::new(), |cancel| {
        struct Play<'a>(&'a [String], bool, &'a Cancel);
        impl WithGameType for Play<'_> {
            type Output = anyhow::Result<serde_json::Value>;
            fn with<G: GameCli>(self) -> anyhow::Result<serde_json::Value> {
                let args = list::parse_args::<G::PlayArgs, _>(G::NAME, self.0)?;
                let mut lines = Vec::new();
                let report = G::play_command(
                    &args,
                    &mut PlayIo {
                        trace: self.1,
                        out: &mut lines,
                        input: &mut std::io::stdin().lock(),
                        input_echoed: std::io::IsTerminal::is_terminal(&std::io::stdin()),
                        prompt: &mut std::io::stderr(),
                        cancel: self.2,
                    },
                )?;
                let mut value = serde_json::to_value(&report)?;
                if self.1 {
                    let text = String::from_utf8_lossy(&lines);
                    value["trace"] = text.lines().collect::<Vec<_>>().into();
                }
                Ok(value)
            }
        }
        face::by_name(game, Play(&argv, trace, cancel))
            .unwrap_or_else(|| Err(crate::usage!("game={game:?}: no such game").into()))
    })?;
    json_loads(py, &report.to_string())
}

/// What `warsim ARGV...` prints, for the commands that only print text: `--help` (of any
/// command), `--version`, `games [--json]`, `completions SHELL` and `manpage`. The commands
/// that run games are the functions of this module.
#[pyfunction]
#[pyo3(signature = (*argv))]
fn command(argv: Vec<String>) -> PyResult<String> {
    use clap::error::ErrorKind;
    let cli = match Cli::try_parse_from(std::iter::once("warsim".to_string()).chain(argv)) {
        Ok(cli) => cli,
        Err(e) if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) => {
            return Ok(e.render().to_string());
        }
        Err(e) => {
            return Err(PyValueError::new_err(
                one_line(&e.render().to_string())
                    .trim_start_matches("error: ")
                    .to_string(),
            ))
        }
    };
    let text = match cli.command {
        Command::Completions { shell } => app::completions(shell),
        Command::Manpage { out_dir: None } => app::manpage().map_err(to_python)?,
        Command::Manpage { out_dir: Some(dir) } => {
            app::manual_pages(&dir).map_err(to_python)?;
            Vec::new()
        }
        Command::Sweep {
            help: true, game, ..
        } => crate::sweep::help_text(game.as_deref())
            .map_err(to_python)?
            .into_bytes(),
        Command::Games { json } => list::text(json).map_err(to_python)?,
        other => {
            let name = format!("{other:?}");
            let name = name
                .split([' ', '(', '{'])
                .next()
                .unwrap_or("")
                .to_lowercase();
            // `search` has no Python function yet: say so, rather than name one that is not
            // there.
            let instead = if name == "search" {
                "runs from the command line only (warsim search ...)".to_string()
            } else {
                format!("runs as warsim.{name}(...)")
            };
            return Err(PyValueError::new_err(format!(
                "command {name}: {instead}; command() gives the text of --help, --version, \
                 games, completions and manpage"
            )));
        }
    };
    String::from_utf8(text).map_err(|e| PyRuntimeError::new_err(e.to_string()))
}

/// Every game with its rule options (name, value, help, default, choices), as
/// `warsim games --json` lists them.
#[pyfunction]
fn games(py: Python<'_>) -> PyResult<Py<PyAny>> {
    let list = list::games().map_err(|e| to_python(e.into()))?;
    json_loads(
        py,
        &serde_json::to_string(&list).map_err(|e| to_python(e.into()))?,
    )
}

/// `json.loads(text)`.
fn json_loads(py: Python<'_>, text: &str) -> PyResult<Py<PyAny>> {
    Ok(py.import("json")?.call_method1("loads", (text,))?.unbind())
}

/// The module.
#[pymodule]
fn _warsim(m: &Bound<'_, PyModule>) -> PyResult<()> {
    // Python keeps its Ctrl-C: warsim's handler would end the interpreter.
    crate::store::embedded();
    app::name_engine_path();
    m.add_class::<Run>()?;
    m.add_function(wrap_pyfunction!(simulate, m)?)?;
    m.add_function(wrap_pyfunction!(exact, m)?)?;
    m.add_function(wrap_pyfunction!(merge, m)?)?;
    m.add_function(wrap_pyfunction!(load, m)?)?;
    m.add_function(wrap_pyfunction!(replay, m)?)?;
    m.add_function(wrap_pyfunction!(sweep, m)?)?;
    m.add_function(wrap_pyfunction!(compare, m)?)?;
    m.add_function(wrap_pyfunction!(play, m)?)?;
    m.add_function(wrap_pyfunction!(command, m)?)?;
    m.add_function(wrap_pyfunction!(games, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
