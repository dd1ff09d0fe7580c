//! The Python extension module `warsim._warsim` (built with the `python` feature by maturin):
//! it runs a warsim command line in-process and returns what the command printed, so the
//! Python package (`python/warsim`) is a thin layer over the same commands, with no second
//! implementation of anything. The GIL is released while the command runs.

use std::sync::Mutex;

use clap::Parser;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;

use crate::app::run;
use crate::cli::Cli;
use crate::error::{one_line, UsageError};
use crate::output::stdout::capture;

/// Commands run one at a time: the stdout capture is process-wide.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

/// What a command gave: its output, or the error and whether it was bad usage.
enum Done {
    Ok(Vec<u8>),
    Usage(String),
    Failed(String),
}

fn execute(argv: Vec<String>) -> Done {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let cli = match Cli::try_parse_from(std::iter::once("warsim".to_string()).chain(argv)) {
        Ok(cli) => cli,
        Err(e) => return Done::Usage(one_line(&e.render().to_string())),
    };
    let (result, out) = capture(|| run(cli));
    match result {
        Ok(()) => Done::Ok(out),
        Err(e) if e.downcast_ref::<UsageError>().is_some() => Done::Usage(format!("{e:#}")),
        Err(e) => Done::Failed(format!("{e:#}")),
    }
}

/// Runs `warsim ARGV...` and returns its stdout; bad usage raises ValueError with the command
/// line's one-line message, any other failure RuntimeError.
#[pyfunction]
fn run_command(py: Python<'_>, argv: Vec<String>) -> PyResult<String> {
    match py.detach(|| execute(argv)) {
        Done::Ok(out) => Ok(String::from_utf8_lossy(&out).into_owned()),
        Done::Usage(m) => Err(PyValueError::new_err(
            m.trim_start_matches("error: ").to_string(),
        )),
        Done::Failed(m) => Err(PyRuntimeError::new_err(m)),
    }
}

/// The module.
#[pymodule]
fn _warsim(m: &Bound<'_, PyModule>) -> PyResult<()> {
    // Python keeps its Ctrl-C: warsim's handler would end the interpreter.
    crate::output::atomic::embedded();
    m.add_function(wrap_pyfunction!(run_command, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
