//! `search bmn`: the command's face over the searches of `warsim_core::games::bmn::search`
//! (the record climb, `--loops`, `--census`, `--method sample` and `--method record`). Each
//! runs in the same stages: its flags checked as the core's settings into a plan, its output
//! set begun, its time foreseen and held to `--max-hours` (the climb and `--loops`), the core's
//! search run with progress shown and an interrupt (Ctrl-C, SIGTERM) as its cancel, then its
//! set written and its summary printed ([`crate::export::search`]). A search for a time
//! (`--minutes`) plays as many deals as the time allows, and search.json says how many (its
//! `replay` is the command with `--deals` of that number, which plays the same search again);
//! an interrupted one writes what it found, marked `"stopped": true`, replayable the same way.

use std::path::PathBuf;

use anyhow::Result;

use crate::estimate::{Basis, Estimate, MaxHours};
use crate::export::search::{into_set, Shown};
use crate::games::bmn::search::climb;
use crate::games::bmn::search::plan::{Plan, Settings};
use crate::games::bmn::Bmn;
use crate::games::Game;
use crate::session::Session;
use crate::sim::pilot::Measured;
use crate::stats::summary::grouped;
use crate::term::progress::{Progress, When};
use crate::term::stdout::Print;
use serde::{Deserialize, Serialize};
use warsim_core::error::{setting, setting_alone};
use warsim_core::usage_of;

pub(crate) mod replay;

pub use crate::games::bmn::search::plan::{Method, DEFAULT_BASES, DEFAULT_DEALS};

/// What `search` is asked to do. Its JSON (serde) is what the typed API's callers give (the
/// Python package's `search` keywords), each number as a number, read as the flag reads it;
/// the command line's flags take their defaults from [`SearchConfig::default`].
#[derive(Clone, Debug, Serialize, Deserialize)]
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
    pub walkers: u32,
    /// Base seed: walker w draws from (seed, w).
    #[serde(deserialize_with = "seed")]
    pub seed: u64,
    /// Worker threads (`None`: every core).
    #[serde(deserialize_with = "crate::config::json::threads")]
    pub threads: Option<u32>,
    /// The longest deals kept.
    #[serde(deserialize_with = "keep")]
    pub keep: usize,
    /// Where search.json and best.txt go.
    pub out: PathBuf,
    /// What is printed when done.
    #[serde(skip)]
    pub print: Print,
    /// How progress is shown.
    #[serde(skip)]
    pub progress: When,
    /// The bound on the estimated time (`--max-hours`).
    #[serde(with = "crate::config::json::max_hours")]
    pub max_hours: MaxHours,
    /// Search for cycles instead of long games (`--loops`).
    pub loops: bool,
    /// The deal to search around (`--from`): every walker's climb starts from it, or (with
    /// `--loops`) the cycle it enters is the seed.
    pub from: Option<String>,
    /// How to look for long games (`--method`): the climb, plain sampling, or sampling and
    /// backward joining.
    pub method: Method,
    /// With `--method record`: the longest games sampled that are joined from.
    #[serde(deserialize_with = "bases")]
    pub bases: usize,
    /// The census of cycles instead (`--census`).
    pub census: bool,
}

impl Default for SearchConfig {
    /// The command line's defaults: [`DEFAULT_DEALS`] deals on 16 walkers from seed 0, every
    /// core, the 10 longest kept, the climb, [`DEFAULT_BASES`] bases for a join, the run
    /// options' bound on the estimated time; no output folder (a search refuses none).
    fn default() -> SearchConfig {
        SearchConfig {
            deals: None,
            minutes: None,
            walkers: 16,
            seed: 0,
            threads: None,
            keep: 10,
            out: PathBuf::new(),
            print: Print::Text,
            progress: When::Auto,
            max_hours: MaxHours::DEFAULT,
            loops: false,
            from: None,
            method: Method::Climb,
            bases: DEFAULT_BASES,
            census: false,
        }
    }
}

/// A whole number from JSON, `min` to `max`, as `name` takes it.
fn whole<'de, D: serde::Deserializer<'de>>(
    d: D,
    min: u64,
    max: u64,
) -> Result<Option<u64>, D::Error> {
    let read = |t: &str| {
        t.parse::<u64>()
            .ok()
            .filter(|n| (min..=max).contains(n))
            .ok_or_else(|| format!("expected a whole number from {min} to {}", grouped(max)))
    };
    crate::config::json::number(d, read)
}

fn deals<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<u64>, D::Error> {
    crate::config::json::number(d, |t| crate::settings::parse_count(t, "deals"))
}

/// `minutes` read from JSON: a number (the plan refuses one that is no time).
pub(crate) fn minutes<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<f64>, D::Error> {
    crate::config::json::number(d, |t| t.parse::<f64>().map_err(|e| e.to_string()))
}

fn walkers<'de, D: serde::Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
    let n = whole(d, 1, MAX_WALKERS.into())?;
    Ok(n.map_or(SearchConfig::default().walkers, |n| n as u32))
}

fn seed<'de, D: serde::Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
    Ok(crate::config::json::number(d, crate::config::parse_seed)?.unwrap_or(0))
}

fn keep<'de, D: serde::Deserializer<'de>>(d: D) -> Result<usize, D::Error> {
    let n = whole(d, 1, MAX_KEEP as u64)?;
    Ok(n.map_or(SearchConfig::default().keep, |n| n as usize))
}

fn bases<'de, D: serde::Deserializer<'de>>(d: D) -> Result<usize, D::Error> {
    let n = whole(d, 1, MAX_BASES as u64)?;
    Ok(n.map_or(DEFAULT_BASES, |n| n as usize))
}

/// The most walkers a search takes.
pub const MAX_WALKERS: u32 = 65536;
/// The most deals a search keeps.
pub const MAX_KEEP: u32 = 10_000;
/// The most bases a join starts from.
pub const MAX_BASES: u32 = 1_000_000;

/// `search bmn`: plans the search, runs it, writes its set into `cfg.out` and prints it.
pub fn run(session: &Session, game: &Bmn, cfg: &SearchConfig) -> Result<()> {
    let plan = Plan::of(game, &settings(cfg))?;
    let say = replay::Say::new(game.rules(), Some(cfg));
    let shown = Shown {
        out: &cfg.out,
        print: cfg.print,
        timed: cfg.minutes.is_some(),
    };
    into_set(session, &shown, &say, || {
        let stop = session.search_stop();
        let threads = crate::run::threads_or_cores(cfg.threads);
        if plan.walks() {
            bound(game, cfg, plan.total(), threads)?;
        }
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()?;
        let progress = match cfg.minutes {
            Some(m) => Progress::timed(m * 60.0, &session.show(cfg.progress), plan.unit()),
            None => Progress::counting(plan.total(), &session.show(cfg.progress), plan.unit()),
        };
        let report = pool.install(|| plan.run(game, &stop, &|n| progress.inc(n), &say));
        progress.finish();
        Ok(report)
    })
}

/// The core's settings of `cfg`.
fn settings(cfg: &SearchConfig) -> Settings {
    Settings {
        deals: cfg.deals,
        minutes: cfg.minutes,
        walkers: cfg.walkers,
        seed: cfg.seed,
        keep: cfg.keep,
        from: cfg.from.clone(),
        method: cfg.method,
        bases: cfg.bases,
        loops: cfg.loops,
        census: cfg.census,
    }
}

/// Mixed into the seed of the search's pilot, so its deals are none of the walkers'.
const PILOT_SALT: u64 = 0x5EA2_C4E5_7171_0700;

/// Holds a climb or loop search of `deals` deals on `threads` threads to `--max-hours`: one
/// for a time alone by that time, one for a number of deals by its estimate (and its time, if
/// given), which it notes when long.
fn bound(game: &Bmn, cfg: &SearchConfig, deals: u64, threads: usize) -> Result<()> {
    if let (None, Some(m)) = (cfg.deals, cfg.minutes) {
        if cfg.max_hours.refuses(m * 60.0) {
            return Err(usage_of![
                "search bmn: ",
                setting("minutes", m),
                " is over the ",
                setting_alone("max_hours"),
                format!(
                    " bound of {}; ask for less, or raise the bound with ",
                    cfg.max_hours
                ),
                setting("max_hours", "H"),
                " (`",
                setting("max_hours", "none"),
                "` lifts it)",
            ]
            .into());
        }
        return Ok(());
    }
    // The core's pilot of random deals on one thread, times the deals to play over the
    // walkers the threads keep busy.
    let budget = crate::sim::pilot::BUDGET.as_secs_f64();
    let (games, rounds, seconds) = climb::pilot(game, cfg.seed ^ PILOT_SALT, deals, budget);
    let pilot = Measured {
        games,
        rounds,
        seconds,
        open: None,
    };
    let busy = threads.min(cfg.walkers as usize).max(1);
    // The pilot's deals are not the search's: all of them are still to play.
    let e = Estimate::run(pilot, None, deals.saturating_add(games), busy);
    let seconds = e.seconds - pilot.seconds;
    let e = Estimate {
        seconds: cfg.minutes.map_or(seconds, |m| seconds.min(m * 60.0)),
        basis: Basis::PerDeal,
        ..e
    };
    let asked = grouped(cfg.deals.unwrap_or(DEFAULT_DEALS));
    let planned = match cfg.minutes {
        Some(m) => format!("search bmn: {asked} deals or {m} minutes"),
        None => format!("search bmn: {asked} deals"),
    };
    crate::run::check_bound(vec![planned.into()], &e, cfg.max_hours)?;
    if cfg.minutes.is_none() && e.seconds > crate::estimate::LONG {
        crate::term::progress::note(cfg.progress, &format!("estimate: {e}"));
    }
    Ok(())
}
