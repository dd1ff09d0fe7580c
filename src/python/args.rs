//! Python's keyword arguments as the typed API's values, through serde: the run options as
//! fields of [`RunConfig`] (each number read by the flag's own reader), a game's settings and
//! `play` arguments as fields of their structs ([`Fields`]), a sweep's axes; and every error a
//! `ValueError` that names the Python parameter, not the command-line flag.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};

use crate::config::RunConfig;
use crate::term::progress::When;
use crate::term::stdout::Print;

/// `name=value: why`, as a `ValueError`.
fn bad(name: &str, value: &Bound<'_, PyAny>, why: &str) -> PyErr {
    let shown = value.repr().map_or_else(|_| "?".into(), |r| r.to_string());
    PyValueError::new_err(format!("{name}={shown}: {why}"))
}

/// The run options of `command` (`simulate`, `exact`, `sweep`) among the keyword arguments
/// `kwargs`, read through serde as the fields of [`RunConfig`] (nothing printed, no progress
/// of warsim's own: the session counts it for Python), with the command-line words that say
/// them (for the command the output records; `--out` left to the caller), and the keywords
/// left, which are the game's settings. `shard=(K, N)` is `"K/N"`.
pub fn run_keywords<'py>(
    py: Python<'py>,
    command: &str,
    kwargs: Option<&Bound<'py, PyDict>>,
) -> PyResult<(RunConfig, Vec<String>, Bound<'py, PyDict>)> {
    let options = crate::cli::run_options(command)
        .map_err(|e| PyValueError::new_err(crate::error::with_keywords(&e)))?;
    let mut fields = Fields::of::<RunConfig>(command);
    fields.text_numbers = false;
    let rest = PyDict::new(py);
    for (key, value) in kwargs.into_iter().flat_map(|k| k.iter()) {
        let name: String = key.extract()?;
        if !options.iter().any(|o| o.name == name) {
            rest.set_item(key, value)?;
            continue;
        }
        match value.cast::<PyTuple>() {
            Ok(t) if name == "shard" && t.len() == 2 => {
                let text = format!("{}/{}", t.get_item(0)?, t.get_item(1)?);
                let put = fields.put(&name, serde_json::Value::String(text));
                put.map_err(|why| bad(&name, &value, &why))?
            }
            _ => fields.set(&name, &value)?,
        }
    }
    let value = fields.value();
    let mut config: RunConfig = serde_json::from_value(value.clone())
        .map_err(|e| PyValueError::new_err(format!("{command}: {e}")))?;
    config.print = Print::Nothing;
    config.progress = When::Never;
    let words = (options.iter().filter(|o| o.name != "out"))
        .flat_map(|o| flag_words(&o.name, &value[&o.name]))
        .collect();
    Ok((config, words, rest))
}

/// Field `name` set to `value` as command-line words: `true` the switch alone, a string or a
/// number the flag and its text, anything else (`null`, `false`) nothing.
fn flag_words(name: &str, value: &serde_json::Value) -> Vec<String> {
    let flag = crate::error::flag(name);
    match value {
        serde_json::Value::Bool(true) => vec![flag],
        serde_json::Value::String(t) => vec![flag, t.clone()],
        serde_json::Value::Number(n) => vec![flag, crate::config::json::text(n)],
        _ => Vec::new(),
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

/// The keyword arguments `kwargs` as command-line words, for the command line a call records as
/// its own (summary.json's `provenance.command`; nothing reads these words back):
/// `war_down=1` → `--war-down 1`, `True` → the switch alone; `None` and `False` say nothing.
pub fn words(kwargs: Option<&Bound<'_, PyDict>>) -> PyResult<Vec<String>> {
    let mut args = Vec::new();
    for (key, value) in kwargs.into_iter().flat_map(|k| k.iter()) {
        let flag = crate::error::flag(key.extract::<String>()?.trim_end_matches('_'));
        if value.is_instance_of::<pyo3::types::PyBool>() {
            if value.is_truthy()? {
                args.push(flag);
            }
        } else if !value.is_none() {
            args.extend([flag, value_text(&value)?]);
        }
    }
    Ok(args)
}

/// A keyword that takes a whole number (`max_rule_sets`, `replay`'s `game`): a Python or numpy
/// integer from 0 to 2^64 − 1, `None` for none; a bool, a float, a negative or larger number is
/// a `ValueError` naming the keyword (pyo3's own conversion took `True` as 1 and raised
/// `OverflowError` or `TypeError` naming nothing).
pub fn whole(name: &str, value: Option<&Bound<'_, PyAny>>) -> PyResult<Option<u64>> {
    let Some(value) = value.filter(|v| !v.is_none()) else {
        return Ok(None);
    };
    match json_of(value)? {
        serde_json::Value::Number(n) if !value.is_instance_of::<pyo3::types::PyFloat>() => {
            n.as_u64().map(Some).ok_or_else(|| {
                bad(
                    name,
                    value,
                    &format!("expected a whole number from 0 to {}", u64::MAX),
                )
            })
        }
        _ => Err(bad(name, value, "expected a whole number")),
    }
}

/// A typed value (a game's settings, a game's `play` arguments) filled from Python's keyword
/// arguments through serde, no command line built or parsed: the JSON object of its defaults,
/// each keyword a field set on it, the whole read back by `read` after each, so an error names
/// the keyword it came from.
#[derive(Clone)]
pub struct Fields {
    object: serde_json::Map<String, serde_json::Value>,
    /// Whether a number written as text is read as the number (a setting's `ranks="3"`; a run
    /// option takes a number only as a number).
    pub text_numbers: bool,
    read: fn(&serde_json::Value) -> Result<(), String>,
    /// The call, as errors name it.
    what: String,
    /// The call's other keywords (its run options, `out`), listed with the fields when a
    /// keyword is none of them.
    pub also: Vec<String>,
}

impl Fields {
    /// The fields of `T`, at its defaults; `what` names the call in errors.
    pub fn of<T>(what: &str) -> Fields
    where
        T: Default + serde::Serialize + serde::de::DeserializeOwned,
    {
        // As the typed API reads settings ([`crate::config::settings`]): whole floats whole,
        // serde's words (`expected u32`) in the caller's.
        let read = |v: &serde_json::Value| {
            serde_json::from_value::<T>(crate::config::settings::whole(v))
                .map(drop)
                .map_err(|e| crate::config::settings::in_words(&e.to_string()))
        };
        let object = match serde_json::to_value(T::default()) {
            Ok(serde_json::Value::Object(o)) => o,
            _ => serde_json::Map::new(),
        };
        Fields {
            object,
            text_numbers: true,
            read,
            what: what.to_string(),
            also: Vec::new(),
        }
    }

    /// The fields' names.
    pub fn names(&self) -> Vec<String> {
        self.object.keys().cloned().collect()
    }

    /// Whether `key` is one of the fields.
    pub fn has(&self, key: &str) -> bool {
        self.object.contains_key(key)
    }

    /// The error of a keyword that is no field nor one of the call's other keywords, listing
    /// them all as Python spells them (`from_` for a field named as a Python keyword), with the
    /// nearest as a guess where one is a slip away (`gams` for `games`).
    pub fn unknown(&self, key: &str) -> PyErr {
        let mut known: Vec<String> = (self.object.keys())
            .map(|k| match k.as_str() {
                "from" => "from_".to_string(),
                k => k.to_string(),
            })
            .collect();
        known.extend(
            self.also
                .iter()
                .filter(|a| !known.contains(a))
                .cloned()
                .collect::<Vec<_>>(),
        );
        let nearest = (known.iter())
            .map(|k| (edits(k, key), k))
            .filter(|&(d, k)| d <= 2.min(k.len() / 2))
            .min();
        let guess = nearest.map_or_else(String::new, |(_, k)| format!(" (did you mean {k}?)"));
        PyValueError::new_err(format!(
            "{}: no option {key}{guess}; its options are {}",
            self.what,
            known.join(", ")
        ))
    }

    /// Sets field `key` to the Python value `value` (`None` leaves its default).
    pub fn set(&mut self, key: &str, value: &Bound<'_, PyAny>) -> PyResult<()> {
        if !self.has(key) {
            return Err(self.unknown(key));
        }
        if value.is_none() {
            return Ok(());
        }
        // A list for a field that is one (play's throws, piles, moves) is its items' texts.
        let list = value.is_instance_of::<PyList>() || value.is_instance_of::<PyTuple>();
        let given = match self.object.get(key) {
            Some(serde_json::Value::Array(_)) if list => serde_json::Value::Array(
                (value.try_iter()?)
                    .map(|v| Ok(serde_json::Value::String(v?.str()?.to_string())))
                    .collect::<PyResult<_>>()?,
            ),
            _ => json_of(value)?,
        };
        self.put(key, given).map_err(|why| bad(key, value, &why))
    }

    /// Sets field `key` to `given`, or says why the value cannot be it; a number written as
    /// text (`ranks="3"`) is tried as the number too, where the field takes one.
    pub fn put(&mut self, key: &str, given: serde_json::Value) -> Result<(), String> {
        let mut tries = vec![given.clone()];
        if let (serde_json::Value::String(text), true) = (&given, self.text_numbers) {
            if let Ok(n @ serde_json::Value::Number(_)) = serde_json::from_str(text) {
                tries.push(n);
            }
        }
        let old = self.object.get(key).cloned();
        let mut first = None;
        for v in tries {
            self.object.insert(key.to_string(), v);
            match (self.read)(&serde_json::Value::Object(self.object.clone())) {
                Ok(()) => return Ok(()),
                Err(e) => {
                    first.get_or_insert(e);
                }
            }
        }
        if let Some(old) = old {
            self.object.insert(key.to_string(), old);
        }
        Err(first.unwrap_or_default())
    }

    /// Every keyword of `kwargs` set ([`Fields::set`]).
    pub fn set_all(&mut self, kwargs: Option<&Bound<'_, PyDict>>) -> PyResult<()> {
        for (key, value) in kwargs.into_iter().flat_map(|k| k.iter()) {
            self.set(&key.extract::<String>()?, &value)?;
        }
        Ok(())
    }

    /// The JSON object, every field given.
    pub fn value(&self) -> serde_json::Value {
        serde_json::Value::Object(self.object.clone())
    }

    /// The fields set to other than `T`'s default as command-line words, in the order of the
    /// fields (`"walkers": 4` → `--walkers 4`, `true` → the switch), but for `skip`: what the
    /// output of a call records as the command that makes it again.
    pub fn changed_words<T: Default + serde::Serialize>(&self, skip: &[&str]) -> Vec<String> {
        let defaults = serde_json::to_value(T::default()).unwrap_or_default();
        (self.object.iter())
            .filter(|(key, value)| {
                !skip.contains(&key.as_str()) && defaults.get(key.as_str()) != Some(value)
            })
            .flat_map(|(key, value)| flag_words(key, value))
            .collect()
    }
}

/// The keywords of `command`'s run options (`games`, `seed`, `threads`, `out`, ...), as a
/// call's settings list them beside their own.
pub fn run_names(command: &str) -> Vec<String> {
    let options = crate::cli::run_options(command).unwrap_or_default();
    options.into_iter().map(|o| o.name).collect()
}

/// The fields of game `game`'s settings struct, at its defaults.
pub fn settings_fields(game: &str, what: &str) -> PyResult<Fields> {
    struct Of<'a>(&'a str);
    impl crate::config::setup::WithGameType for Of<'_> {
        type Output = Fields;
        fn with<G: crate::games::Game>(self) -> Fields {
            Fields::of::<G::Settings>(self.0)
        }
    }
    crate::config::setup::by_name(game, Of(what)).ok_or_else(|| no_game(game))
}

/// The fields of game `game`'s `play` arguments (the command line's `play GAME`), at their
/// defaults.
pub fn play_fields(game: &str, what: &str) -> PyResult<Fields> {
    struct Of<'a>(&'a str);
    impl crate::face::WithFace for Of<'_> {
        type Output = Fields;
        fn with<G: crate::face::GameCli>(self) -> Fields {
            Fields::of::<G::PlayArgs>(self.0)
        }
    }
    crate::face::by_name(game, Of(what)).ok_or_else(|| no_game(game))
}

/// The field that `play(game, ...)`'s positional arguments fill (snap's piles, rps's throws),
/// if the game's `play` takes any: the command line's positional argument.
pub fn positional(game: &str) -> Option<String> {
    struct Of;
    impl crate::face::WithFace for Of {
        type Output = Option<String>;
        fn with<G: crate::face::GameCli>(self) -> Option<String> {
            let cmd = <G::PlayArgs as clap::Args>::augment_args(clap::Command::new(G::NAME));
            let id = cmd.get_positionals().next()?.get_id().to_string();
            Some(id)
        }
    }
    crate::face::by_name(game, Of).flatten()
}

/// The `ValueError` of a game no game is, listing the games.
pub fn no_game(game: &str) -> PyErr {
    PyValueError::new_err(format!(
        "game={game:?}: no such game; the games are {}",
        crate::config::setup::names().join(", ")
    ))
}

/// A keyword's Python value as JSON: a bool, an integer (numpy's too), a float (one that is not
/// finite as its text: `inf`), a string; a list or a tuple as its comma list (`[13, 13]` is
/// `"13,13"`), anything else as `str()`.
fn json_of(value: &Bound<'_, PyAny>) -> PyResult<serde_json::Value> {
    use serde_json::Value;
    // numpy's bools (`np.True_`) are no Python bool, yet bools all the same.
    let numpy_bool = (value.get_type().name()).is_ok_and(|n| n.to_string().starts_with("bool"));
    if value.is_instance_of::<pyo3::types::PyBool>() || numpy_bool {
        return Ok(Value::Bool(value.is_truthy()?));
    }
    if let Ok(n) = value.extract::<i64>() {
        return Ok(n.into());
    }
    if let Ok(n) = value.extract::<u64>() {
        return Ok(n.into());
    }
    // A float, numpy's of any width too (what converts to one; a string does not); `math.inf`
    // is its text, `inf`, where a setting takes it (`max_hours`).
    if let Ok(x) = value.extract::<f64>() {
        return Ok(serde_json::Number::from_f64(x)
            .map_or_else(|| Value::String(x.to_string()), Value::Number));
    }
    if value.is_instance_of::<pyo3::types::PyList>() || value.is_instance_of::<PyTuple>() {
        return Ok(Value::String(value_text(value)?));
    }
    Ok(Value::String(value.str()?.to_string()))
}

/// The sweep that `sweep(game, ..., **kwargs)` asks for: each keyword with a value is a setting
/// that varies (a list, a comma list in a string, `;` between values that hold commas, or
/// `"all"` for every value of a setting with a fixed list; a value the setting takes whole is
/// one value), a switch (`True`) is set on every rule set; each rule set's game is the
/// settings struct with its values set, read through serde. The same rule sets, in the same
/// order and with the same names, as the command line's `sweep` with the same options.
pub fn sweep_of(
    game: &str,
    what: &str,
    kwargs: Option<&Bound<'_, PyDict>>,
    run: RunConfig,
    max_rule_sets: u64,
) -> PyResult<crate::sweep::Sweep> {
    let mut base = settings_fields(game, what)?;
    base.also = run_names("sweep");
    base.also.push("max_rule_sets".into());
    let mut axes: Vec<(String, Vec<String>)> = Vec::new();
    for (key, value) in kwargs.into_iter().flat_map(|k| k.iter()) {
        let key: String = key.extract()?;
        if !base.has(&key) {
            return Err(base.unknown(&key));
        }
        if value.is_none() {
            continue;
        }
        if value.is_instance_of::<pyo3::types::PyBool>() {
            base.set(&key, &value)?;
            continue;
        }
        let values =
            axis_values(game, &base, &key, &value).map_err(|why| bad(&key, &value, &why))?;
        axes.push((key, values));
    }
    let sweep = crate::sweep::Sweep::new(game, axes.clone(), run, max_rule_sets, |_, at| {
        let mut fields = base.clone();
        for ((key, values), &i) in axes.iter().zip(at) {
            let v = serde_json::Value::String(values[i].clone());
            fields
                .put(key, v)
                .map_err(|why| crate::usage!("{what}: {key}={:?}: {why}", values[i]))?;
        }
        crate::config::setup::Setup::from_json(game, &fields.value())
    });
    sweep.map_err(|e| PyValueError::new_err(crate::error::with_keywords(&e)))
}

/// Sweep's settings `kwargs` with every value that lists values (a list, a tuple, a `range`, a
/// numpy array, a generator: any iterable but a string) made a list, read once, so a generator
/// is not spent by the first reader; a dict or a set is refused by name (a dict holds no list
/// of values, a set no order of rule sets).
pub fn listed<'py>(
    py: Python<'py>,
    kwargs: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyDict>> {
    use pyo3::types::{PyBytes, PyFrozenSet, PySet, PyString};
    let listed = PyDict::new(py);
    for (key, value) in kwargs.into_iter().flat_map(|k| k.iter()) {
        let name: String = key.extract()?;
        let kind = if value.is_instance_of::<PyDict>() {
            Some("a dict")
        } else if value.is_instance_of::<PySet>() || value.is_instance_of::<PyFrozenSet>() {
            Some("a set, which has no order")
        } else {
            None
        };
        if let Some(kind) = kind {
            let why = format!("{kind} is not a list of values; give a list ({name}=[1, 2])");
            return Err(bad(&name, &value, &why));
        }
        let text = value.is_instance_of::<PyString>() || value.is_instance_of::<PyBytes>();
        let items = match value.try_iter() {
            Ok(items) if !text => items,
            _ => {
                listed.set_item(key, value)?;
                continue;
            }
        };
        let list = PyList::empty(py);
        for item in items {
            list.append(item?)?;
        }
        listed.set_item(key, list)?;
    }
    Ok(listed)
}

/// The values of setting `key` that `text` lists: `all` of its fixed list, the value whole if
/// the setting takes it so, else the text split at `;` (if it holds one) or `,`; each value
/// checked by the setting.
fn axis_values(
    game: &str,
    base: &Fields,
    key: &str,
    value: &Bound<'_, PyAny>,
) -> Result<Vec<String>, String> {
    let takes = |v: &str| {
        base.clone()
            .put(key, serde_json::Value::String(v.to_string()))
    };
    let text = value_text(value).map_err(|e| e.to_string())?;
    let text = text.as_str();
    let listed = value.is_instance_of::<PyList>() || value.is_instance_of::<PyTuple>();
    let values: Vec<String> = if listed {
        // A list is its values, each whole: `p1_cards=["13", "12"]` is two rule sets.
        (value.try_iter().map_err(|e| e.to_string())?)
            .map(|v| Ok(v?.str()?.to_string()))
            .collect::<PyResult<_>>()
            .map_err(|e| e.to_string())?
    } else if text == "all" && takes("all").is_err() {
        let long = crate::error::long(key);
        let choices = crate::list::games()
            .map_err(|e| e.to_string())?
            .into_iter()
            .find(|g| g.name == game)
            .and_then(|g| g.options.into_iter().find(|o| o.name == long))
            .map(|o| o.choices)
            .unwrap_or_default();
        if choices.is_empty() {
            return Err("this option has no fixed list of values; list the values".into());
        }
        choices
    } else if text.contains(';') || takes(text).is_err() {
        let sep = if text.contains(';') { ';' } else { ',' };
        text.split(sep).map(|v| v.trim().to_string()).collect()
    } else {
        vec![text.to_string()]
    };
    for v in &values {
        takes(v).map_err(|why| format!("value {v:?}: {why}"))?;
    }
    Ok(values)
}

/// The edits (insertions, deletions, substitutions) that make `a` into `b`: how far a keyword
/// typed is from one the call takes.
fn edits(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = (above + 1)
                .min(row[j] + 1)
                .min(diagonal + usize::from(ca != cb));
            diagonal = above;
        }
    }
    row[b.len()]
}
