//! The extension module `warsim._warsim` (the `python` feature, built by maturin): typed
//! functions over the same API as the command line ([`crate::api`]), whose runs come back as
//! values held in memory: a call writes a file only where `out=` asks, and then the files the
//! command line writes, byte for byte; nothing is printed. The Python package (`python/warsim`)
//! adds only pandas and the notebook's display.
//!
//! Long calls release the GIL and play on a worker thread while this thread looks for signals
//! every 50 ms: Ctrl-C sets the run's [`Cancel`], which the engine sees before its next chunk
//! and every output set sees before its commit, and the call raises `KeyboardInterrupt` with
//! nothing written (the earlier set in `out=` left whole), or, when the interrupt came after
//! the commit, one that says the output was written in full. A run into `out=` is stopped as
//! the command line's Ctrl-C stops it instead: it writes the games finished, marked stopped,
//! then raises ([`keeping`]).

mod args;
mod calls;
mod run;

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

use clap::Parser;
use pyo3::exceptions::{PyKeyboardInterrupt, PyOSError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;

use crate::app;
use crate::cli::{Cli, Command};
use crate::error::one_line;
use crate::list;
use crate::session::Session;
use crate::sim::engine::Cancel;
use crate::term::progress;
use run::Run;

/// Runs `work` on a worker thread with the GIL released, checking for signals (Ctrl-C) every
/// 50 ms; a signal cancels the run and raises its exception (`KeyboardInterrupt`) here.
/// `work` runs under the call's own [`Session`]: Python's signal handling, cancelled by
/// Ctrl-C, its progress counted for [`Shown`], and `command`, the command line (after
/// `warsim`) equivalent to the call, recorded as the maker of the files it writes.
pub(crate) fn interruptible<T: Send>(
    py: Python<'_>,
    command: Vec<String>,
    work: impl FnOnce(&Session) -> anyhow::Result<T> + Send,
) -> PyResult<T> {
    keeping(py, command, work, |_| None)
}

/// [`interruptible`], for a call whose run writes the games it finished when interrupted
/// (`simulate` with `out=`, [`Session::keeping_stop`]): the first Ctrl-C while it plays stops
/// its games, as the command line's SIGINT does, and the call goes on to write them, marked
/// stopped, then raises `KeyboardInterrupt` with what `kept` says of its value (`None`: that it
/// was written in full); a second Ctrl-C cancels it, writing nothing.
pub(crate) fn keeping<T: Send>(
    py: Python<'_>,
    command: Vec<String>,
    work: impl FnOnce(&Session) -> anyhow::Result<T> + Send,
    kept: impl FnOnce(&T) -> Option<String>,
) -> PyResult<T> {
    let cancel = Cancel::default();
    let shared = Arc::new(progress::Shared::default());
    let session = Session::hosted(cancel.clone(), command, shared.clone());
    let mut shown = Shown::new();
    // The worker says when it is done, so a short call returns at once rather than at the next
    // of the 50 ms checks for signals (a worker that panics is seen at that check).
    let done = (std::sync::Mutex::new(false), std::sync::Condvar::new());
    std::thread::scope(|s| {
        let worker = s.spawn(|| {
            let value = work(&session);
            *done.0.lock().unwrap_or_else(|e| e.into_inner()) = true;
            done.1.notify_all();
            value
        });
        // The interrupt that stopped a run which then writes what it finished.
        let mut stopped = None;
        loop {
            shown.draw(py, &shared, false);
            let finished = py.detach(|| {
                let flag = done.0.lock().unwrap_or_else(|e| e.into_inner());
                let wait = done
                    .1
                    .wait_timeout_while(flag, Duration::from_millis(50), |d| !*d);
                let (flag, _) = wait.unwrap_or_else(|e| e.into_inner());
                *flag || worker.is_finished()
            });
            if finished {
                break;
            }
            if let Err(signal) = py.check_signals() {
                if session.interrupt() {
                    stopped = Some(signal);
                    continue;
                }
                // The engine stops before its next chunk, and no output set commits once the
                // cancel is set: what was staged is removed on the way out and the old set stays.
                // A worker that had committed before the cancel has written its set in full
                // (or, stopped, as far as it got), and the interrupt says so.
                shown.draw(py, &shared, true);
                let done = py.detach(|| worker.join());
                return Err(match (done, stopped) {
                    (Ok(Ok(value)), Some(_)) => interrupted(kept(&value)),
                    (Ok(Ok(_)), None) if signal.is_instance_of::<PyKeyboardInterrupt>(py) => {
                        written()
                    }
                    _ => signal,
                });
            }
        }
        shown.draw(py, &shared, true);
        let value = match (worker.join(), stopped) {
            (Ok(Ok(value)), Some(_)) => return Err(interrupted(kept(&value))),
            (Ok(Err(e)), Some(signal)) => return Err(stopped_without_set(e, signal)),
            (Ok(done), None) => done.map_err(to_python)?,
            (Err(panic), _) => std::panic::resume_unwind(panic),
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

/// The `KeyboardInterrupt` of a call stopped by an interrupt that then wrote what it had:
/// `said` says what (`None`: it had finished, and wrote its output in full).
fn interrupted(said: Option<String>) -> PyErr {
    match said {
        Some(said) => PyKeyboardInterrupt::new_err(said),
        None => written(),
    }
}

/// What a call stopped by an interrupt (`signal`) raises when it then failed with `e`: a run
/// stopped before its first game finished (which writes nothing) raises the interrupt with
/// what the command line says of it; a failure of its own (a full disk) raises that failure.
fn stopped_without_set(e: anyhow::Error, signal: PyErr) -> PyErr {
    if let Some(i) = e.downcast_ref::<crate::error::Interrupted>() {
        return PyKeyboardInterrupt::new_err(i.0.clone());
    }
    let cancelled = e.downcast_ref::<crate::sim::engine::Cancelled>().is_some()
        || matches!(
            e.downcast_ref::<warsim_core::error::Error>(),
            Some(warsim_core::error::Error::Cancelled(_))
        );
    match cancelled {
        true => signal,
        false => to_python(e),
    }
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

/// A failure as Python sees it: bad input a `ValueError` naming the keyword argument; a failure
/// of the system's (a folder it will not let warsim write, a full disk) the `OSError` of its
/// errno (`PermissionError`, `FileNotFoundError`, ...); anything else a `RuntimeError`. Each
/// names settings as keyword arguments (`out=DIR`).
pub(crate) fn to_python(e: anyhow::Error) -> PyErr {
    // Every usage error names settings, which read as keyword arguments here.
    let text = crate::error::chain(&e, crate::error::with_keywords);
    if crate::error::is_usage(&e) {
        return PyValueError::new_err(text);
    }
    let errno = (e.chain())
        .find_map(|c| c.downcast_ref::<std::io::Error>())
        .and_then(std::io::Error::raw_os_error);
    match errno {
        // OSError(errno, text) is the subclass of the errno: PermissionError for EACCES.
        Some(errno) => PyOSError::new_err((errno, text)),
        None => PyRuntimeError::new_err(text),
    }
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
            let instead = format!("runs as warsim.{name}(...)");
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

/// The run options of `command` (`simulate`, `exact`, `sweep`): each keyword with its help,
/// its default and its JSON Schema, from the command line's definition and the run
/// configuration's fields, for the signatures, docstrings and type stubs.
#[pyfunction]
fn run_options(py: Python<'_>, command: &str) -> PyResult<Py<PyAny>> {
    let list = crate::cli::run_options(command).map_err(|e| to_python(e.into()))?;
    json_loads(
        py,
        &serde_json::to_string(&list).map_err(|e| to_python(e.into()))?,
    )
}

/// The keywords of `search` beside `out` and the game's rule settings, for the type stubs: the
/// fields of a search's configuration, then those of a walk's that it lacks (`reaching`, which
/// asks for the walk and is `None` without one, and `max_positions`), each with its help (its
/// doc comment), its default and its JSON Schema.
#[pyfunction]
fn search_options(py: Python<'_>) -> PyResult<Py<PyAny>> {
    use crate::api::{ReachingConfig, SearchConfig};
    use crate::cli::{field_schemas, RunOption};
    let json = |v: serde_json::Result<serde_json::Value>| v.map_err(|e| to_python(e.into()));
    let search = json(serde_json::to_value(SearchConfig::default()))?;
    let mut walk = json(serde_json::to_value(ReachingConfig::default()))?;
    walk["reaching"] = serde_json::Value::Null;
    let mut list: Vec<RunOption> = Vec::new();
    for (defaults, schemas) in [
        (search, field_schemas::<SearchConfig>()),
        (walk, field_schemas::<ReachingConfig>()),
    ] {
        for (name, schema) in schemas {
            if name == "out" || list.iter().any(|o| o.name == name) {
                continue;
            }
            list.push(RunOption {
                help: (schema.get("description").and_then(|d| d.as_str()))
                    .map_or_else(String::new, one_line),
                default: defaults[&name].clone(),
                schema,
                name,
            });
        }
    }
    json_loads(py, &json(serde_json::to_value(&list))?.to_string())
}

/// `json.loads(text)`.
pub(crate) fn json_loads(py: Python<'_>, text: &str) -> PyResult<Py<PyAny>> {
    Ok(py.import("json")?.call_method1("loads", (text,))?.unbind())
}

/// The module.
#[pymodule]
fn _warsim(m: &Bound<'_, PyModule>) -> PyResult<()> {
    // Python keeps its Ctrl-C (each call's session says so): warsim's handler would end the
    // interpreter.
    m.add_class::<Run>()?;
    m.add_function(wrap_pyfunction!(calls::simulate, m)?)?;
    m.add_function(wrap_pyfunction!(calls::exact, m)?)?;
    m.add_function(wrap_pyfunction!(calls::merge, m)?)?;
    m.add_function(wrap_pyfunction!(calls::load, m)?)?;
    m.add_function(wrap_pyfunction!(calls::resume, m)?)?;
    m.add_function(wrap_pyfunction!(calls::replay, m)?)?;
    m.add_function(wrap_pyfunction!(calls::sweep, m)?)?;
    m.add_function(wrap_pyfunction!(calls::compare, m)?)?;
    m.add_function(wrap_pyfunction!(calls::play, m)?)?;
    m.add_function(wrap_pyfunction!(calls::search, m)?)?;
    m.add_function(wrap_pyfunction!(command, m)?)?;
    m.add_function(wrap_pyfunction!(games, m)?)?;
    m.add_function(wrap_pyfunction!(run_options, m)?)?;
    m.add_function(wrap_pyfunction!(search_options, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
