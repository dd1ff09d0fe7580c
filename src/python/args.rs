//! Python's keyword arguments as the command line's options: the run options typed and checked
//! by the command line's own parsers, the rule options handed to the game's own option checks,
//! and every error a `ValueError` that names the Python parameter, not the command-line flag.

use std::path::PathBuf;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};

use crate::cli::{parse_games, parse_precision, parse_seed};
use crate::config::RunConfig;
use crate::config::DEFAULT_MAX_GAMES;
use crate::error::pythonic;
use crate::estimate::{MaxHours, DEFAULT_MAX_HOURS};
use crate::list::OptionDoc;
use crate::term::progress::When;
use crate::term::stdout::Print;

/// `name=value: why`, as a `ValueError`.
fn bad(name: &str, value: &Bound<'_, PyAny>, why: &str) -> PyErr {
    let shown = value.repr().map_or_else(|_| "?".into(), |r| r.to_string());
    PyValueError::new_err(format!("{name}={shown}: {}", pythonic(why)))
}

/// A number argument as the command line reads it (`str()` of a Python int or float), checked
/// by the command line's parser `parse`; a bool is no number. An integer of another type
/// (numpy's `int64`, any `__index__`) is read as the int it stands for, and numpy's floats
/// are Python floats already.
fn number<T>(
    name: &str,
    value: &Bound<'_, PyAny>,
    parse: impl Fn(&str) -> Result<T, String>,
) -> PyResult<T> {
    let is_bool = value.is_instance_of::<pyo3::types::PyBool>()
        || value
            .get_type()
            .name()
            .is_ok_and(|n| n.to_string().starts_with("bool"));
    let text = if is_bool {
        None
    } else if value.is_instance_of::<pyo3::types::PyInt>()
        || value.is_instance_of::<pyo3::types::PyFloat>()
    {
        Some(value.str()?.to_string())
    } else {
        value
            .call_method0("__index__")
            .ok()
            .filter(|i| i.is_instance_of::<pyo3::types::PyInt>())
            .map(|i| i.str().map(|s| s.to_string()))
            .transpose()?
    };
    let Some(text) = text else {
        return Err(bad(name, value, "expected a number"));
    };
    parse(&text).map_err(|e| bad(name, value, &e))
}

/// The run options shared by `simulate`, `exact` and `sweep`, as Python passes them.
pub struct RunKwargs<'py> {
    /// `games=`.
    pub games: Option<Bound<'py, PyAny>>,
    /// `seed=` (`None`: 0).
    pub seed: Option<Bound<'py, PyAny>>,
    /// `threads=`.
    pub threads: Option<Bound<'py, PyAny>>,
    /// `shard=` (`"K/N"` or `(K, N)`).
    pub shard: Option<Bound<'py, PyAny>>,
    /// `precision=`.
    pub precision: Option<Bound<'py, PyAny>>,
    /// `max_games=`.
    pub max_games: Option<Bound<'py, PyAny>>,
    /// `max_hours=` (`None`: the command line's default; `math.inf`: no bound).
    pub max_hours: Option<Bound<'py, PyAny>>,
    /// `out=`.
    pub out: Option<PathBuf>,
    /// `svg=`.
    pub svg: bool,
}

impl RunKwargs<'_> {
    /// The [`RunConfig`]: nothing printed, no progress (a notebook's stderr is no terminal).
    pub fn config(&self) -> PyResult<RunConfig> {
        let threads = self
            .threads
            .as_ref()
            .map(|t| {
                number("threads", t, |s| {
                    s.parse::<u32>()
                        .ok()
                        .filter(|n| (1..=1024).contains(n))
                        .ok_or_else(|| "expected a whole number from 1 to 1024".to_string())
                })
            })
            .transpose()?;
        let shard = match &self.shard {
            None => None,
            Some(s) => {
                let text = match s.cast::<PyTuple>() {
                    Ok(t) if t.len() == 2 => format!("{}/{}", t.get_item(0)?, t.get_item(1)?),
                    _ => s.str()?.to_string(),
                };
                Some(text.parse().map_err(|e: String| bad("shard", s, &e))?)
            }
        };
        let max_hours = match &self.max_hours {
            None => MaxHours::parse(DEFAULT_MAX_HOURS).map_err(PyValueError::new_err)?,
            Some(h) => number("max_hours", h, MaxHours::parse)?,
        };
        Ok(RunConfig {
            games: self
                .games
                .as_ref()
                .map(|g| number("games", g, parse_games))
                .transpose()?,
            precision: self
                .precision
                .as_ref()
                .map(|p| number("precision", p, parse_precision))
                .transpose()?,
            max_games: self
                .max_games
                .as_ref()
                .map(|m| number("max_games", m, parse_games))
                .transpose()?
                .unwrap_or(DEFAULT_MAX_GAMES),
            seed: self
                .seed
                .as_ref()
                .map(|s| number("seed", s, parse_seed))
                .transpose()?
                .unwrap_or(0),
            threads,
            out: self.out.clone(),
            print: Print::Nothing,
            svg: self.svg,
            progress: When::Never,
            max_hours,
            shard,
            cancel: Default::default(),
        })
    }

    /// The same options as command-line arguments, for `sweep` (which parses its own), after
    /// the same checks as [`RunKwargs::config`].
    pub fn args(&self) -> PyResult<Vec<String>> {
        let c = self.config()?;
        let mut args = vec!["--seed".to_string(), c.seed.to_string()];
        let mut add = |flag: &str, value: Option<String>| {
            if let Some(v) = value {
                args.extend([flag.to_string(), v]);
            }
        };
        add("--games", c.games.map(|g| g.to_string()));
        add("--threads", c.threads.map(|t| t.to_string()));
        add("--precision", c.precision.map(|p| p.to_string()));
        add("--max-games", Some(c.max_games.to_string()));
        add(
            "--max-hours",
            Some(
                c.max_hours
                    .0
                    .map_or_else(|| "none".into(), |h| h.to_string()),
            ),
        );
        add("--out", c.out.map(|o| o.display().to_string()));
        if c.svg {
            args.push("--svg".into());
        }
        Ok(args)
    }
}

/// A Python value as one command-line value: a list or tuple as a comma list (`;` between
/// values that hold commas), anything else as `str()`.
fn value_text(value: &Bound<'_, PyAny>) -> PyResult<String> {
    let items: Vec<String> = if let Ok(l) = value.cast::<PyList>() {
        l.iter()
            .map(|v| v.str().map(|s| s.to_string()))
            .collect::<PyResult<_>>()?
    } else if let Ok(t) = value.cast::<PyTuple>() {
        t.iter()
            .map(|v| v.str().map(|s| s.to_string()))
            .collect::<PyResult<_>>()?
    } else {
        return Ok(value.str()?.to_string());
    };
    let sep = if items.iter().any(|i| i.contains(',')) {
        ";"
    } else {
        ","
    };
    Ok(items.join(sep))
}

/// The rule options among `kwargs` as command-line words, for the command line a call records
/// as its own (summary.json's `provenance.command`; the game is built from [`settings`], not
/// from these words) and for `sweep`, which reads its axes as text: `war_down=1` → `--war-down 1`, `True` for a switch; `None` (and `False` for a
/// switch) leave an option at its default. `what` names the call in errors.
pub fn rule_args(
    what: &str,
    options: &[OptionDoc],
    kwargs: Option<&Bound<'_, PyDict>>,
) -> PyResult<Vec<String>> {
    let mut args = Vec::new();
    let Some(kwargs) = kwargs else {
        return Ok(args);
    };
    for (key, value) in kwargs.iter() {
        let key: String = key.extract()?;
        let flag = crate::error::flag(&key);
        let Some(option) = options
            .iter()
            .find(|o| flag.strip_prefix("--") == Some(o.name.as_str()))
        else {
            let known: Vec<String> = options.iter().map(|o| o.name.replace('-', "_")).collect();
            return Err(PyValueError::new_err(format!(
                "{what}: no option {key}; its options are {}",
                known.join(", ")
            )));
        };
        if value.is_none() {
            continue;
        }
        match (&option.value, value.is_instance_of::<pyo3::types::PyBool>()) {
            (None, true) => {
                if value.is_truthy()? {
                    args.push(flag);
                }
            }
            (None, false) => return Err(bad(&key, &value, "expected True or False")),
            (Some(_), true) => return Err(bad(&key, &value, "expected a value, not a bool")),
            (Some(_), false) => args.extend([flag, value_text(&value)?]),
        }
    }
    Ok(args)
}

/// Game `game`'s settings from Python's keyword arguments `kwargs`, as the JSON object of its
/// settings struct (every field: the defaults, then the keywords given), read through serde:
/// no command line is built or parsed. Each keyword is a field (`war_down=1`, `rules="bryer"`);
/// `None` leaves it at its default; a number written as text (`ranks="3"`) is read as the
/// number where the setting takes one. An error is a `ValueError` naming the keyword; `what`
/// names the call.
pub fn settings(
    game: &str,
    what: &str,
    kwargs: Option<&Bound<'_, PyDict>>,
) -> PyResult<serde_json::Value> {
    #[derive(Clone)]
    struct Defaults;
    impl crate::face::WithGameType for Defaults {
        type Output = (
            serde_json::Value,
            fn(&serde_json::Value) -> Result<(), String>,
        );
        fn with<G: crate::face::GameCli>(self) -> Self::Output {
            let read = |v: &serde_json::Value| {
                serde_json::from_value::<G::Settings>(v.clone())
                    .map(drop)
                    .map_err(|e| e.to_string())
            };
            (
                serde_json::to_value(G::Settings::default()).unwrap_or_default(),
                read,
            )
        }
    }
    let Some((serde_json::Value::Object(mut object), read)) = crate::face::by_name(game, Defaults)
    else {
        return Err(PyValueError::new_err(format!(
            "game={game:?}: no such game; the games are {}",
            crate::face::names().join(", ")
        )));
    };
    for (key, value) in kwargs.into_iter().flat_map(|k| k.iter()) {
        let key: String = key.extract()?;
        if !object.contains_key(&key) {
            let known: Vec<&str> = object.keys().map(String::as_str).collect();
            return Err(PyValueError::new_err(format!(
                "{what}: no option {key}; its options are {}",
                known.join(", ")
            )));
        }
        if value.is_none() {
            continue;
        }
        let given = json_of(&key, &value)?;
        // A number written as text is tried as the number too.
        let mut tries = vec![given.clone()];
        if let serde_json::Value::String(text) = &given {
            if let Ok(n @ serde_json::Value::Number(_)) = serde_json::from_str(text) {
                tries.push(n);
            }
        }
        let mut first = None;
        for v in tries {
            object.insert(key.clone(), v);
            match read(&serde_json::Value::Object(object.clone())) {
                Ok(()) => {
                    first = None;
                    break;
                }
                Err(e) => {
                    first.get_or_insert(e);
                }
            }
        }
        if let Some(why) = first {
            return Err(bad(&key, &value, &why));
        }
    }
    Ok(serde_json::Value::Object(object))
}

/// Keyword `key`'s Python value as JSON: a bool, an integer (numpy's too), a float, a string; a list or a
/// tuple as its comma list (`[13, 13]` is `"13,13"`), anything else as `str()`.
fn json_of(key: &str, value: &Bound<'_, PyAny>) -> PyResult<serde_json::Value> {
    use serde_json::Value;
    if value.is_instance_of::<pyo3::types::PyBool>() {
        return Ok(Value::Bool(value.is_truthy()?));
    }
    if let Ok(n) = value.extract::<i64>() {
        return Ok(n.into());
    }
    if let Ok(n) = value.extract::<u64>() {
        return Ok(n.into());
    }
    if value.is_instance_of::<pyo3::types::PyFloat>() {
        let x: f64 = value.extract()?;
        return serde_json::Number::from_f64(x)
            .map(Value::Number)
            .ok_or_else(|| bad(key, value, "expected a finite number"));
    }
    if value.is_instance_of::<pyo3::types::PyList>() || value.is_instance_of::<PyTuple>() {
        return Ok(Value::String(value_text(value)?));
    }
    Ok(Value::String(value.str()?.to_string()))
}
