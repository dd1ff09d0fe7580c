//! What a search (`search bmn`, and `--reaching`) is asked to do, as plain data: built from the
//! command line's flags, whose defaults are stated here, or read through serde from the typed
//! API's JSON (the Python package's `search` keywords), each number as a number and read as the
//! flag reads it.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use super::bounded::{Bases, Keep, Threads, Walkers};
use super::json::number;
use crate::estimate::MaxHours;
use crate::games::bmn::search::plan::Method;
use crate::games::bmn::search::reaching::DEFAULT_MAX_POSITIONS;
use crate::term::progress::When;
use crate::term::stdout::Print;

/// What `search` is asked to do. Its JSON (serde) is what the typed API's callers give (the
/// Python package's `search` keywords), each number as a number, read as the flag reads it;
/// the command line's flags take their defaults from [`SearchConfig::default`]. Its JSON
/// Schema (schemars) gives each keyword's type to Python's stubs.
#[derive(Clone, Debug, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct SearchConfig {
    /// Deals played in all (split evenly among the walkers); `None`: [`DEFAULT_DEALS`], or
    /// with `minutes` as many as the time allows.
    #[serde(deserialize_with = "deals")]
    pub deals: Option<u64>,
    /// Play for this many minutes, in batches of deals on every walker.
    #[serde(deserialize_with = "minutes")]
    pub minutes: Option<f64>,
    /// Independent walkers.
    #[serde(deserialize_with = "walkers")]
    pub walkers: Walkers,
    /// Base seed: walker w draws from (seed, w).
    #[serde(deserialize_with = "super::json::seed")]
    pub seed: u64,
    /// Worker threads (`None`: every core).
    pub threads: Option<Threads>,
    /// The longest deals kept.
    #[serde(deserialize_with = "keep")]
    pub keep: Keep,
    /// Where search.json and best.txt go.
    #[schemars(extend("format" = "path"))]
    pub out: PathBuf,
    /// What is printed when done.
    #[serde(skip)]
    pub print: Print,
    /// How progress is shown.
    #[serde(skip)]
    pub progress: When,
    /// The bound on the estimated time (`--max-hours`).
    #[serde(with = "super::json::max_hours")]
    #[schemars(with = "f64")]
    pub max_hours: MaxHours,
    /// Search for cycles instead of long games (`--loops`).
    pub loops: bool,
    /// The deal to search around (`--from`): every walker's climb starts from it, or (with
    /// `--loops`) the cycle it enters is the seed.
    pub from: Option<String>,
    /// How to look for long games (`--method`): the climb, plain sampling, or sampling and
    /// backward joining (`None`: the default, [`Method::Record`], which finds the longest).
    /// `None` apart from it, so that one given to a search for cycles is refused.
    pub method: Option<Method>,
    /// With `--method record`: the longest games sampled that are joined from.
    #[serde(deserialize_with = "bases")]
    pub bases: Bases,
    /// The census of cycles instead (`--census`).
    pub census: bool,
}

impl Default for SearchConfig {
    /// The command line's defaults: [`DEFAULT_DEALS`] deals from seed 0 (16 walkers for the
    /// climb and the searches for cycles), every core, the 10 longest kept, sampling and
    /// joining from [`Bases::DEFAULT`] bases, the run options' bound on the estimated time; no
    /// output folder (a search refuses none).
    fn default() -> SearchConfig {
        SearchConfig {
            deals: None,
            minutes: None,
            walkers: Walkers::DEFAULT,
            seed: 0,
            threads: None,
            keep: Keep::DEFAULT,
            out: PathBuf::new(),
            print: Print::Text,
            progress: When::Auto,
            max_hours: MaxHours::DEFAULT,
            loops: false,
            from: None,
            method: None,
            bases: Bases::DEFAULT,
            census: false,
        }
    }
}

fn deals<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<u64>, D::Error> {
    number(d, |t| crate::settings::parse_count(t, "deals"))
}

/// `minutes` read from JSON: a number (the plan refuses one that is no time).
fn minutes<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<f64>, D::Error> {
    number(d, |t| t.parse::<f64>().map_err(|e| e.to_string()))
}

/// `walkers`, `keep` and `bases` from JSON: `null` is the default.
fn walkers<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Walkers, D::Error> {
    Ok(Option::deserialize(d)?.unwrap_or(Walkers::DEFAULT))
}

fn keep<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Keep, D::Error> {
    Ok(Option::deserialize(d)?.unwrap_or(Keep::DEFAULT))
}

fn bases<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Bases, D::Error> {
    Ok(Option::deserialize(d)?.unwrap_or(Bases::DEFAULT))
}

/// What `search bmn --reaching` is asked to do. Its JSON (serde) is what the typed API's callers
/// give (the Python package's `search(reaching=DEAL, ...)`), each number as a number.
#[derive(Clone, Debug, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct ReachingConfig {
    /// The deal whose cycle is walked, as `play bmn --deal` reads it.
    #[serde(rename = "reaching")]
    pub deal: String,
    /// The most positions held at once.
    #[serde(deserialize_with = "max_positions")]
    pub max_positions: u64,
    /// Give up after this many minutes.
    #[serde(deserialize_with = "minutes")]
    pub minutes: Option<f64>,
    /// Where reaching.json and deals.txt go.
    #[schemars(extend("format" = "path"))]
    pub out: PathBuf,
    /// What is printed when done.
    #[serde(skip)]
    pub print: Print,
    /// How progress is shown.
    #[serde(skip)]
    pub progress: When,
}

impl Default for ReachingConfig {
    /// No deal (the walk refuses it), [`DEFAULT_MAX_POSITIONS`], no time bound, the summary
    /// printed, progress where a terminal shows it.
    fn default() -> ReachingConfig {
        ReachingConfig {
            deal: String::new(),
            max_positions: DEFAULT_MAX_POSITIONS,
            minutes: None,
            out: PathBuf::new(),
            print: Print::Text,
            progress: When::Auto,
        }
    }
}

/// `max_positions` read from JSON: a whole number of at least 1.
fn max_positions<'de, D: serde::Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
    let read = |t: &str| {
        t.parse::<u64>()
            .ok()
            .filter(|&n| n >= 1)
            .ok_or_else(|| "expected a whole number of at least 1".to_string())
    };
    Ok(number(d, read)?.unwrap_or(DEFAULT_MAX_POSITIONS))
}
