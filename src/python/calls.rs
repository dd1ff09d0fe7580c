//! The functions of `warsim._warsim` that run commands: each makes its keyword arguments into
//! the typed values of [`crate::api`] (through serde, [`args`]) and calls the API under the
//! call's own session ([`interruptible`]); none builds or parses a command line. The words of
//! the equivalent command line are written only as what the output files record.

use std::path::PathBuf;

use pyo3::exceptions::{PyFileNotFoundError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

use super::args::{self, words};
use super::run::Run;
use super::{interruptible, json_loads, keeping};
use crate::api::{self, Setup};
use crate::face::PlayIo;
use crate::term::stdout::Print;
use warsim_core::error::{setting, setting_alone};
use warsim_core::usage_of;

/// The command line (after `warsim`) equivalent to a call of `command` on `game` with rule
/// words `rule` and run option words `run`, and `--out` when the caller kept the folder `out`
/// (a private scratch folder says nothing).
fn call(
    command: &str,
    game: &str,
    rule: Vec<String>,
    run: Vec<String>,
    out: Option<&PathBuf>,
) -> Vec<String> {
    let out = out.map(|o| ["--out".to_string(), o.display().to_string()]);
    [command.to_string(), game.to_string()]
        .into_iter()
        .chain(rule)
        .chain(run)
        .chain(out.into_iter().flatten())
        .collect()
}

/// The command line of `command` (`merge`, `compare`) over the run folders `dirs`, into `out`
/// when the caller kept one, with `--svg` when asked.
fn of_dirs(command: &str, dirs: &[PathBuf], out: Option<&PathBuf>, svg: bool) -> Vec<String> {
    let out = out.map(|o| ["--out".to_string(), o.display().to_string()]);
    std::iter::once(command.to_string())
        .chain(dirs.iter().map(|d| d.display().to_string()))
        .chain(out.into_iter().flatten())
        .chain(svg.then(|| "--svg".to_string()))
        .collect()
}

/// Raises `FileNotFoundError` for each of `dirs` that does not exist (or is a link to nothing),
/// as Python's own `open` does; a folder that exists but holds no run stays the API's
/// `ValueError`.
fn existing(dirs: &[PathBuf]) -> PyResult<()> {
    for dir in dirs {
        if let Err(e) = std::fs::metadata(dir) {
            if e.kind() == std::io::ErrorKind::NotFound {
                let errno = e.raw_os_error().unwrap_or(libc::ENOENT);
                let shown = dir.display().to_string();
                return Err(PyFileNotFoundError::new_err((
                    errno,
                    "no such folder",
                    shown,
                )));
            }
        }
    }
    Ok(())
}

/// Refuses `svg=True` without `out=`, as the command line refuses `--svg` without `--out`: the
/// SVG files would go into the scratch folder and be removed, and the call would record a
/// command the command line refuses.
fn svg_needs_out(config: &api::RunConfig) -> PyResult<()> {
    let quiet = api::RunConfig {
        print: Print::Text,
        ..config.clone()
    };
    quiet
        .check_outputs()
        .map_err(|e| super::to_python(e.into()))
}

/// A run of `command` (`simulate`, `exact`) asked from Python: its run options, its game, and
/// the command line it records.
struct Planned {
    config: api::RunConfig,
    setup: Setup,
    command: Vec<String>,
}

/// The run of `command` on `game` that keyword arguments `kwargs` ask for.
fn planned(
    py: Python<'_>,
    command: &str,
    game: &str,
    kwargs: Option<&Bound<'_, PyDict>>,
) -> PyResult<Planned> {
    let (config, run, rules) = args::run_keywords(py, command, kwargs)?;
    svg_needs_out(&config)?;
    let what = format!("{command}({game:?})");
    let setup = setup(game, &what, Some(&rules), args::run_names(command))?;
    let command = call(
        command,
        game,
        words(Some(&rules))?,
        run,
        config.out.as_ref(),
    );
    Ok(Planned {
        config,
        setup,
        command,
    })
}

/// Game `game` with the settings of keyword arguments `rules`; `what` names the call, whose
/// other keywords are `also` (listed when a keyword is none).
fn setup(
    game: &str,
    what: &str,
    rules: Option<&Bound<'_, PyDict>>,
    also: Vec<String>,
) -> PyResult<Setup> {
    let mut fields = args::settings_fields(game, what)?;
    fields.also = also;
    fields.set_all(rules)?;
    Setup::from_json(game, &fields.value()).map_err(|e| super::to_python(e.into()))
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
/// argument; Ctrl-C stops the run within a second: with `out`, after writing the games
/// finished so far there, marked stopped, for `warsim.resume(out)` to play the rest, as the
/// command line's Ctrl-C does (it then raises KeyboardInterrupt saying so; a second Ctrl-C
/// stops it at once, writing nothing).
#[pyfunction]
#[pyo3(signature = (game, /, **kwargs))]
pub fn simulate<'py>(
    py: Python<'py>,
    game: &str,
    kwargs: Option<&Bound<'py, PyDict>>,
) -> PyResult<Run> {
    let p = planned(py, "simulate", game, kwargs)?;
    let resume = |d: &std::path::Path| format!("warsim.resume({:?})", d.display().to_string());
    let played = keeping(
        py,
        p.command,
        |session| {
            let (run, written) = api::simulate_into(session, &p.setup, &p.config)?;
            let figures = "every figure of its summary";
            let said = crate::app::stopped_said(&run, written.as_deref(), (&resume, figures));
            Ok((Run::of(run, written), said))
        },
        |(_, said): &(Run, Option<String>)| said.clone(),
    );
    Ok(played?.0)
}

/// Every distinct deal of `game` played once: a `Result`, whatever the rules. Its `summary` is
/// summary.json for a run of every deal, or the document of an answer solved without playing:
/// chain.json (War's shuffled pickups, solved as a Markov chain) or flawless.json
/// (`flawless=True`: War's flawless game); `document` names which. Written into `out` when
/// given. Rule options as for `simulate`.
#[pyfunction]
#[pyo3(signature = (game, /, *, flawless=false, **kwargs))]
pub fn exact<'py>(
    py: Python<'py>,
    game: &str,
    flawless: bool,
    kwargs: Option<&Bound<'py, PyDict>>,
) -> PyResult<Py<PyAny>> {
    let Planned {
        config,
        setup,
        mut command,
    } = planned(py, "exact", game, kwargs)?;
    if flawless {
        command.push("--flawless".into());
    }
    let done = interruptible(py, command, |session| {
        match api::exact_into(session, &setup, &config, flawless)? {
            (api::Answer::Run(run), written) => Ok(Ok(Run::of(run, written))),
            (api::Answer::Solved(solved), written) => {
                let doc = serde_json::to_string(&solved.doc)?;
                Ok(Err((solved.file, doc, written)))
            }
        }
    })?;
    match done {
        Ok(run) => Ok(Py::new(py, run)?.into_any()),
        Err((file, doc, written)) => {
            let doc = json_loads(py, &doc)?;
            Ok((file, doc, written).into_pyobject(py)?.into_any().unbind())
        }
    }
}

/// Adds the shard runs in `dirs` (`simulate(..., shard="K/N", out=...)` or the command
/// line's) exactly, and returns the whole run, written into `out` when given.
#[pyfunction]
#[pyo3(signature = (dirs, /, *, out=None, svg=false))]
pub fn merge(py: Python<'_>, dirs: Vec<PathBuf>, out: Option<PathBuf>, svg: bool) -> PyResult<Run> {
    existing(&dirs)?;
    let command = of_dirs("merge", &dirs, out.as_ref(), svg);
    let merge = api::Merge { dirs, out, svg };
    interruptible(py, command, |session| {
        let (run, written) = api::merge_into(session, &merge)?;
        Ok(Run::of(run, written))
    })
}

/// Reads the run in folder `dir` (written by `simulate`, `exact` or `merge`, from Python or
/// the command line).
#[pyfunction]
pub fn load(py: Python<'_>, dir: PathBuf) -> PyResult<Run> {
    existing(std::slice::from_ref(&dir))?;
    interruptible(py, Vec::new(), |_| Run::read(&dir, true))
}

/// Plays the rest of the run in folder `dir`, which an interrupt stopped (its summary says
/// `"stopped": true`) or a killed run left a checkpoint of, writes the whole run there and
/// returns it: the same histogram as the run played in one go. A stopped sweep is finished the
/// same way and returned as `sweep` returns one (the document, its table, the folder). Ctrl-C
/// stops it, leaving the stopped run as it was.
#[pyfunction]
pub fn resume(py: Python<'_>, dir: PathBuf) -> PyResult<Py<PyAny>> {
    existing(std::slice::from_ref(&dir))?;
    let command = vec!["resume".to_string(), dir.display().to_string()];
    let never = crate::term::progress::When::Never;
    let minutes = crate::config::DEFAULT_CHECKPOINT_MINUTES;
    if api::resumes_a_sweep(&dir) {
        let (doc, csv) = interruptible(py, command, |session| {
            let (played, _) = api::resume_sweep(session, &dir, never, minutes)?;
            Ok((played.sweep_json()?, played.sweep_csv()?))
        })?;
        return document(py, &doc, csv, Some(dir));
    }
    let run = interruptible(py, command, |session| {
        let (run, written) = api::resume(session, &dir, never, minutes)?;
        Ok(Run::of(run, Some(written)))
    })?;
    Ok(Py::new(py, run)?.into_any())
}

/// Plays one game of the run in folder `dir` again (`warsim replay DIR --json`, as a dict): by
/// default its longest, which must end as the run says; `game=I` any other.
#[pyfunction]
#[pyo3(signature = (dir, /, *, game=None))]
pub fn replay(
    py: Python<'_>,
    dir: PathBuf,
    game: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let game = args::whole("game", game)?;
    existing(std::slice::from_ref(&dir))?;
    let text = interruptible(py, Vec::new(), |_| {
        Ok(serde_json::to_string(&api::replay(&dir, game)?)?)
    })?;
    json_loads(py, &text)
}

/// Runs every combination of the listed rule settings (`war_down=[1, 2, 3]`, any iterable of
/// values, or "all" for every value of an option) into folder `out`, one subfolder per rule
/// set, and returns sweep.json as a dict (`to_frame()`: sweep.csv as a DataFrame). Run options as for `simulate`; `max_rule_sets` raises the bound of 1,000.
#[pyfunction]
#[pyo3(signature = (game, /, *, max_rule_sets=None, **kwargs))]
pub fn sweep<'py>(
    py: Python<'py>,
    game: &str,
    max_rule_sets: Option<&Bound<'py, PyAny>>,
    kwargs: Option<&Bound<'py, PyDict>>,
) -> PyResult<Py<PyAny>> {
    let max_rule_sets = args::whole("max_rule_sets", max_rule_sets)?;
    let (config, run, settings) = args::run_keywords(py, "sweep", kwargs)?;
    // A required keyword left out is Python's TypeError, as `search` and `compare` raise it.
    let Some(out) = config.out.clone() else {
        return Err(PyTypeError::new_err(
            "sweep() missing 1 required keyword argument: 'out'",
        ));
    };
    let settings = args::listed(py, Some(&settings))?;
    let max = max_rule_sets.unwrap_or(crate::sweep::MAX_RULE_SETS);
    let what = format!("sweep({game:?})");
    let sweep = args::sweep_of(game, &what, Some(&settings), config, max)?;
    let mut command = call("sweep", game, words(Some(&settings))?, run, Some(&out));
    command.push("--quiet".into());
    if let Some(n) = max_rule_sets {
        command.extend(["--max-rule-sets".into(), n.to_string()]);
    }
    let (doc, csv) = interruptible(py, command, |session| {
        let (played, _) = api::sweep_into(session, &sweep)?;
        Ok((played.sweep_json()?, played.sweep_csv()?))
    })?;
    document(py, &doc, csv, Some(out))
}

/// A document a call made (sweep.json, compare.json) as the tuple (the document as a dict, the
/// text of its table, sweep.csv or compare.csv, the folder written or `None`), which the
/// package makes a dict with `to_frame()`.
fn document(py: Python<'_>, doc: &str, csv: String, out: Option<PathBuf>) -> PyResult<Py<PyAny>> {
    let doc = json_loads(py, doc)?;
    Ok((doc, csv, out).into_pyobject(py)?.into_any().unbind())
}

/// Survival curves and pairwise two-sample KS tests of the runs in `dirs`, written into folder
/// `out` when given (nothing is written without it); returns compare.json as a dict
/// (`to_frame()`: compare.csv as a DataFrame).
#[pyfunction]
#[pyo3(signature = (dirs, /, *, out=None, svg=false))]
pub fn compare(
    py: Python<'_>,
    dirs: Vec<PathBuf>,
    out: Option<PathBuf>,
    svg: bool,
) -> PyResult<Py<PyAny>> {
    existing(&dirs)?;
    let command = of_dirs("compare", &dirs, out.as_ref(), svg);
    let (doc, csv) = interruptible(py, command, |session| {
        let comparison = match &out {
            Some(out) => api::compare_into(
                session,
                &api::Compare {
                    dirs: dirs.clone(),
                    out: out.clone(),
                    svg,
                },
            )?,
            // As the run options refuse it ([`crate::config::RunConfig::check_outputs`]).
            None if svg => {
                return Err(usage_of![
                    setting_alone("svg"),
                    " writes the charts as SVG files into the output directory: add ",
                    setting("out", "DIR"),
                ]
                .into())
            }
            None => api::compare(session, &dirs)?,
        };
        Ok((comparison.json()?, comparison.csv()?))
    })?;
    document(py, &doc, csv, out)
}

/// Plays one game as `warsim play GAME ARGS...` does and returns its report (the JSON of
/// `--json`) as a dict, with the trace's lines under "trace" when `trace=True`. Positional
/// arguments are the command's (snap's piles, shotgun's moves, rps's throws); options are
/// keyword arguments (War: `seed=`, `game=`, `deal=`, `from_=`, `rules=`, ...). Ctrl-C stops a
/// long game.
#[pyfunction]
#[pyo3(signature = (game, /, *args, trace=false, **options))]
pub fn play<'py>(
    py: Python<'py>,
    game: &str,
    args: &Bound<'py, PyTuple>,
    trace: bool,
    options: Option<&Bound<'py, PyDict>>,
) -> PyResult<Py<PyAny>> {
    let what = format!("play({game:?})");
    let mut fields = args::play_fields(game, &what)?;
    if !args.is_empty() {
        let key = args::positional(game).ok_or_else(|| {
            pyo3::exceptions::PyValueError::new_err(format!(
                "{what}: takes no positional arguments; its options are keyword arguments"
            ))
        })?;
        let given = (args.iter())
            .map(|a| Ok(serde_json::Value::String(a.str()?.to_string())))
            .collect::<PyResult<Vec<_>>>()?;
        let put = fields.put(&key, serde_json::Value::Array(given));
        put.map_err(|why| pyo3::exceptions::PyValueError::new_err(format!("{what}: {why}")))?;
    }
    for (key, value) in options.into_iter().flat_map(|o| o.iter()) {
        let key: String = key.extract()?;
        fields.set(key.trim_end_matches('_'), &value)?;
    }
    let setup =
        api::Play::from_json(game, &fields.value()).map_err(|e| super::to_python(e.into()))?;
    let report = interruptible(py, Vec::new(), |session| {
        let mut lines = Vec::new();
        let report = api::play(
            &setup,
            &mut PlayIo {
                trace,
                names: false,
                out: &mut lines,
                input: &mut std::io::stdin().lock(),
                input_echoed: std::io::IsTerminal::is_terminal(&std::io::stdin()),
                prompt: &mut std::io::stderr(),
                cancel: session.cancel(),
            },
        )?;
        let mut value = serde_json::to_value(&report)?;
        if trace {
            let text = String::from_utf8_lossy(&lines);
            value["trace"] = text.lines().collect::<Vec<_>>().into();
        }
        Ok(value)
    })?;
    json_loads(py, &report.to_string())
}

/// Searches Beggar-my-neighbour's deals as `warsim search bmn` does, into folder `out`, and
/// returns what it writes there (search.json, census.json or reaching.json) as a dict: by
/// default sampling and joining (`method="record"`), or `method="sample"` sampling alone,
/// `method="climb"` the swap climb; `loops=True` the never-ending games, `census=True` the
/// census of cycles; `reaching=DEAL` walks the
/// basin of the cycle DEAL enters instead. Its options are the command's flags as keywords
/// (`deals=`, `minutes=`, `walkers=`, `seed=`, `threads=`, `keep=`, `max_hours=`, `from_=`,
/// `bases=`, `max_positions=`; `warsim.command("search", "bmn", "--help")` says each), rule
/// settings as for `simulate("bmn")`. The same seed and options find the same deals as the
/// command line. Ctrl-C stops it within a second, writing nothing.
#[pyfunction]
#[pyo3(signature = (game, /, *, out, **options))]
pub fn search<'py>(
    py: Python<'py>,
    game: &str,
    out: PathBuf,
    options: Option<&Bound<'py, PyDict>>,
) -> PyResult<Py<PyAny>> {
    let what = format!("search({game:?})");
    let mut rules = args::settings_fields(game, &what)?;
    let reaching = options
        .and_then(|o| o.get_item("reaching").ok().flatten())
        .is_some_and(|v| !v.is_none());
    let mut fields = if reaching {
        args::Fields::of::<api::ReachingConfig>(&what)
    } else {
        args::Fields::of::<api::SearchConfig>(&what)
    };
    fields.text_numbers = false;
    fields.also = rules.names();
    fields
        .also
        .extend(["out".to_string(), "reaching".to_string()]);
    for (key, value) in options.into_iter().flat_map(|o| o.iter()) {
        let key: String = key.extract()?;
        let key = key.trim_end_matches('_');
        if value.is_none() {
            continue;
        }
        match rules.has(key) {
            true => rules.set(key, &value)?,
            false => fields.set(key, &value)?,
        }
    }
    let shown = serde_json::Value::String(out.display().to_string());
    let put = fields.put("out", shown);
    put.map_err(|why| pyo3::exceptions::PyValueError::new_err(format!("{what}: out: {why}")))?;
    let setup = api::SearchSetup::from_json(game, &rules.value())
        .map_err(|e| super::to_python(e.into()))?;
    let mut command = vec!["search".to_string(), game.to_string()];
    command.extend(rules.changed_words::<crate::games::bmn::BmnSettings>(&[]));
    command.extend(match reaching {
        true => fields.changed_words::<api::ReachingConfig>(&["out"]),
        false => fields.changed_words::<api::SearchConfig>(&["out"]),
    });
    command.extend(["--out".to_string(), out.display().to_string()]);
    let doc = interruptible(py, command, |session| {
        let searched = if reaching {
            let config: api::ReachingConfig = serde_json::from_value(fields.value())?;
            api::reaching_into(session, &setup, &config)?
        } else {
            let config: api::SearchConfig = serde_json::from_value(fields.value())?;
            api::search_into(session, &setup, &config)?
        };
        searched.interrupted(&out)?;
        searched.json()
    })?;
    json_loads(py, &doc)
}
