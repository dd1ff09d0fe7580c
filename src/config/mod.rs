//! What a run is asked to do, as plain data: built once from the command line (`cli`), or read
//! through serde from the typed API's JSON (the Python package's keyword arguments, which are
//! its fields), and read by `run`, `exact` and `sweep`. Nothing here is a command-line type.
//! Each option's reader of its text is here too, shared by both faces, so they accept and
//! refuse the same values in the same words.

pub mod bounded;
pub mod search;
pub mod settings;
pub mod setup;

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use crate::error::UsageError;
use crate::estimate::MaxHours;
use crate::sim::shard::Shard;
use crate::term::progress::When;
use crate::term::stdout::Print;
pub use bounded::{Bases, Games, Keep, Threads, Walkers, MAX_THREADS};
use warsim_core::error::{setting, setting_alone};
use warsim_core::usage_of;

/// Minutes between two checkpoints of a run without `--checkpoint-minutes`: a SIGKILL loses
/// at most this much work, and a run shorter than it writes none.
pub const DEFAULT_CHECKPOINT_MINUTES: f64 = 5.0;

/// `--checkpoint-minutes`: minutes of at least 0 (0: no checkpoints).
pub fn parse_minutes(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(m) if m.is_finite() && m >= 0.0 => Ok(m),
        _ => Err("expected minutes of at least 0, such as 5 or 0.5 (0: no checkpoints)".into()),
    }
}

/// The run options of `simulate`, `exact` and `sweep`. Its JSON (serde) is what the typed
/// API's callers give: each field a keyword of the Python package's (whose signatures and stubs
/// list the fields the command line's flags share), a number as a number, read by the same
/// reader as the flag's text; what is printed and how progress is shown are the front end's.
/// Its JSON Schema (schemars) gives each keyword's type to Python's stubs.
#[derive(Clone, Debug, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct RunConfig {
    /// Games of the run; with `precision`, those before the first check (`None`: the default).
    pub games: Option<Games>,
    /// Play until the 95% interval of the mean rounds is at most ± this.
    #[serde(deserialize_with = "json::precision")]
    pub precision: Option<f64>,
    /// With `precision`, the most games played.
    #[serde(deserialize_with = "json::max_games")]
    pub max_games: Games,
    /// Base seed: game i draws from (seed, i) alone.
    #[serde(deserialize_with = "json::seed")]
    pub seed: u64,
    /// Worker threads (`None`: every core).
    pub threads: Option<Threads>,
    /// Where the output set goes.
    #[schemars(extend("format" = "path"))]
    pub out: Option<PathBuf>,
    /// What is printed on stdout when the run is done.
    #[serde(skip)]
    pub print: Print,
    /// Also write every chart as SVG.
    pub svg: bool,
    /// How progress is shown.
    #[serde(skip)]
    pub progress: When,
    /// The bound on a run's estimated time.
    #[serde(with = "json::max_hours")]
    #[schemars(with = "f64")]
    pub max_hours: MaxHours,
    /// The slice of the games this run plays.
    #[serde(with = "json::shard")]
    #[schemars(schema_with = "json::shard::schema")]
    pub shard: Option<Shard>,
    /// Minutes between two checkpoints of a `simulate --out` run (0: none); the command
    /// line's, as the interrupt that keeps a run's games is.
    #[serde(skip)]
    pub checkpoint_minutes: f64,
}

impl Default for RunConfig {
    /// A run asked for nothing but its game: `simulate`'s defaults (a million games, seed 0,
    /// every core, no output set, the summary printed, progress where a terminal shows it,
    /// refused if estimated over six hours); each front end sets what it was asked. The
    /// command line's flags take their defaults from here.
    fn default() -> RunConfig {
        RunConfig {
            games: None,
            precision: None,
            max_games: Games::DEFAULT_MAX,
            seed: 0,
            threads: None,
            out: None,
            print: Print::Text,
            svg: false,
            progress: When::Auto,
            max_hours: MaxHours::DEFAULT,
            shard: None,
            checkpoint_minutes: DEFAULT_CHECKPOINT_MINUTES,
        }
    }
}

impl RunConfig {
    /// Refuses a precision no face's reader takes (a typed caller's NaN): the counts are
    /// [`bounded`] types, which cannot hold what their readers refuse; a precision is read
    /// again by its flag's own reader below. `run::plan` and `exact` call it before anything
    /// is played.
    pub fn check_values(&self) -> Result<(), UsageError> {
        if let Some(h) = self.precision {
            read_again("precision", h, parse_precision)?;
        }
        Ok(())
    }

    /// Refuses output options that would do nothing: `--svg` writes SVG files into the output
    /// set, so without `--out` it would be ignored without a word; `--quiet` without `--out`
    /// would play the games and show nothing.
    pub fn check_outputs(&self) -> Result<(), UsageError> {
        if self.svg && self.out.is_none() {
            return Err(usage_of![
                setting_alone("svg"),
                " writes the charts as SVG files into the output directory: add ",
                setting("out", "DIR"),
            ]);
        }
        if self.print == Print::Nothing && self.out.is_none() {
            return Err(usage_of![
                setting_alone("quiet"),
                " prints nothing, so without ",
                setting("out", "DIR"),
                " the run would leave no result: add ",
                setting("out", "DIR"),
                " (the files are then the result)",
            ]);
        }
        Ok(())
    }
}

/// `--precision`: a half-width above 0.
pub fn parse_precision(text: &str) -> Result<f64, String> {
    text.parse::<f64>()
        .ok()
        .filter(|h| h.is_finite() && *h > 0.0)
        .ok_or_else(|| "expected a half-width in rounds above 0, such as 0.5".into())
}

/// `--seed`: a whole number from 0 to 2^64 − 1.
pub fn parse_seed(text: &str) -> Result<u64, String> {
    text.parse()
        .map_err(|_| format!("a seed is a whole number from 0 to {}", u64::MAX))
}

/// Refuses `value` of setting `name` unless `read`, its flag's reader, takes its text: how a
/// typed value is held to the bound the text is.
pub fn read_again<T: std::fmt::Display, U>(
    name: &'static str,
    value: T,
    read: impl Fn(&str) -> Result<U, String>,
) -> Result<(), UsageError> {
    read(&value.to_string())
        .map(drop)
        .map_err(|e| usage_of![setting(name, &value), ": ", e])
}

/// The run options read from JSON: a number only as a number (never a bool, never text, so a
/// string that looks like one is refused as the Python package has always refused it), its
/// text read by the option's own reader above; `null` is the default.
pub(crate) mod json {
    use serde::de::Error;
    use serde::{Deserialize, Deserializer, Serializer};
    use serde_json::Value;

    use super::Games;
    use crate::estimate::MaxHours;
    use crate::sim::shard::Shard;

    /// A number, read by `parse` from its text; `None` for `null`.
    pub fn number<'de, D: Deserializer<'de>, T>(
        d: D,
        parse: impl Fn(&str) -> Result<T, String>,
    ) -> Result<Option<T>, D::Error> {
        match Value::deserialize(d)? {
            Value::Null => Ok(None),
            Value::Number(n) => parse(&text(&n)).map(Some).map_err(D::Error::custom),
            _ => Err(D::Error::custom("expected a number")),
        }
    }

    /// A JSON number's text as a flag would be given it: a whole float (`1e3`, Python's
    /// `1e6`, which JSON carries as `1000.0`) as its digits, since that is how people write
    /// 10^8, and a whole-number reader would call the `.0` a decimal point.
    pub fn text(n: &serde_json::Number) -> String {
        match n.as_f64() {
            Some(x) if n.is_f64() && x.fract() == 0.0 && x.abs() < 9.0e15 => {
                format!("{}", x as i64)
            }
            _ => n.to_string(),
        }
    }

    pub fn precision<'de, D: Deserializer<'de>>(d: D) -> Result<Option<f64>, D::Error> {
        number(d, super::parse_precision)
    }

    /// `null` is the default.
    pub fn max_games<'de, D: Deserializer<'de>>(d: D) -> Result<Games, D::Error> {
        Ok(Option::<Games>::deserialize(d)?.unwrap_or(Games::DEFAULT_MAX))
    }

    pub fn seed<'de, D: Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
        Ok(number(d, super::parse_seed)?.unwrap_or(0))
    }

    /// Hours as a number, or `none` (`inf`) for no bound.
    pub mod max_hours {
        use super::*;

        pub fn serialize<S: Serializer>(h: &MaxHours, s: S) -> Result<S::Ok, S::Error> {
            match h.hours() {
                Some(h) => s.serialize_f64(h),
                None => s.serialize_str("none"),
            }
        }

        pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<MaxHours, D::Error> {
            match Value::deserialize(d)? {
                Value::Null => Ok(MaxHours::DEFAULT),
                Value::String(t) if t == "none" || t == "inf" => Ok(MaxHours::NONE),
                Value::Number(n) => MaxHours::parse(&n.to_string()).map_err(D::Error::custom),
                _ => Err(D::Error::custom("expected a number")),
            }
        }
    }

    /// `K/N`, or `[K, N]`.
    pub mod shard {
        use super::*;

        /// `"K/N"`, `[K, N]` or `null`.
        pub fn schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
            let index = serde_json::json!({"type": "integer", "minimum": 0});
            schemars::json_schema!({
                "anyOf": [
                    {"type": "string", "pattern": "^[0-9]+/[0-9]+$"},
                    {"type": "array", "prefixItems": [index, index], "minItems": 2, "maxItems": 2},
                    {"type": "null"}
                ]
            })
        }

        pub fn serialize<S: Serializer>(shard: &Option<Shard>, s: S) -> Result<S::Ok, S::Error> {
            match shard {
                Some(k) => s.serialize_str(&k.to_string()),
                None => s.serialize_none(),
            }
        }

        pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Shard>, D::Error> {
            match Value::deserialize(d)? {
                Value::Null => Ok(None),
                Value::String(t) => t.parse().map(Some).map_err(D::Error::custom),
                Value::Array(a) if a.len() == 2 && a.iter().all(Value::is_u64) => {
                    let text = format!("{}/{}", a[0], a[1]);
                    text.parse().map(Some).map_err(D::Error::custom)
                }
                _ => Err(D::Error::custom("expected \"K/N\"")),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A whole float (`1e3`, Python's `1e6`) is read as the whole number it is, as the flag
    /// reads `1e6`; a fraction is still refused, and fractions still read where they mean one.
    #[test]
    fn whole_floats_read_as_whole_numbers() {
        let read = |v: serde_json::Value| serde_json::from_value::<RunConfig>(v);
        let run = read(serde_json::json!({"games": 1e3, "threads": 2.0, "max_games": 1e8}));
        let run = run.unwrap();
        let got = (run.games.map(Games::get), run.threads.map(Threads::get));
        assert_eq!(
            (got, run.max_games),
            ((Some(1000), Some(2)), Games::DEFAULT_MAX)
        );
        let e = read(serde_json::json!({"games": 1.5}))
            .unwrap_err()
            .to_string();
        assert!(e.contains("decimal point"), "{e}");
        assert!(read(serde_json::json!({"threads": 1e4})).is_err());
        let run = read(serde_json::json!({"precision": 0.5, "max_hours": 2.0})).unwrap();
        assert_eq!(run.precision, Some(0.5));
        assert_eq!(run.max_hours, MaxHours::new(Some(2.0)).unwrap());
    }
}
