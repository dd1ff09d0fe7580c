//! `search bmn`: the command's face over the searches of `warsim_core::games::bmn::search`
//! (`--method record`, the default, `--method sample` and `--method climb`, `--loops`,
//! `--census`). Each
//! runs in the same stages: its flags checked as the core's settings into a plan ([`Search`]),
//! its output set begun (by [`crate::api::search_into`]), its time foreseen and held to
//! `--max-hours` (every mode, [`bound`]), the core's search run with progress shown and an
//! interrupt (Ctrl-C, SIGTERM) as its cancel, giving a [`Searched`]; then its set written and
//! its summary printed by their consumers ([`crate::export::search`]). A search for a time
//! (`--minutes`) plays as many deals as the time allows, and search.json says how many (its
//! `replay` is the command with `--deals` of that number, which plays the same search again);
//! an interrupted one writes what it found, marked `"stopped": true`, replayable the same way.

use anyhow::Result;

use crate::estimate::{Basis, Estimate};
use crate::games::bmn::search::climb;
use crate::games::bmn::search::plan::{Plan, Settings};
use crate::games::bmn::Bmn;
use crate::games::Game;
use crate::session::Session;
use crate::sim::pilot::Measured;
use crate::stats::summary::grouped;
use crate::term::progress::Progress;
use crate::value::{Asked, Searched};
use warsim_core::error::{setting, setting_alone};

pub(crate) mod replay;

pub use crate::config::search::SearchConfig;
pub use crate::games::bmn::search::plan::{Method, DEFAULT_DEALS};

/// A search planned and checked, not yet played: every refusal of its settings comes before
/// an output set is begun.
pub struct Search<'a> {
    game: &'a Bmn,
    cfg: &'a SearchConfig,
    plan: Plan,
}

impl<'a> Search<'a> {
    /// Checks `cfg` as the core's settings and plans the search of `game` it asks.
    pub fn new(game: &'a Bmn, cfg: &'a SearchConfig) -> Result<Search<'a>> {
        check_mode(cfg)?;
        let plan = Plan::of(game, &settings(cfg))?;
        Ok(Search { game, cfg, plan })
    }

    /// Plays it under `session`: its time foreseen and held to `--max-hours`, then the core's
    /// search with progress shown and an interrupt as its cancel; nothing written or printed.
    pub fn play(self, session: &Session) -> Result<Searched> {
        let Search { game, cfg, plan } = self;
        let stop = session.search_stop();
        let threads = crate::run::threads_or_cores(cfg.threads);
        bound(game, cfg, &plan, threads)?;
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()?;
        let progress = match cfg.minutes {
            Some(m) => Progress::timed(m * 60.0, &session.show(cfg.progress), plan.unit()),
            None => Progress::counting(plan.total(), &session.show(cfg.progress), plan.unit()),
        };
        let say = replay::Say::new(game.rules(), Some(cfg));
        let report = pool.install(|| plan.run(game, &stop, &|n| progress.inc(n), &say));
        progress.finish();
        let asked = Asked::Search(cfg.clone());
        Ok(Searched::new(report, asked, &say, session.provenance()))
    }
}

/// Refuses a method given to a search for cycles, which has none (the core cannot tell the
/// default given from none), and walkers (other than the default, which it cannot tell from
/// none) for a search that has none: sampling and joining play chunks of deals on every
/// thread. Ignored, walkers would also turn a climb's command written before `record` was the
/// default (`--deals N --walkers 64`) into another search without a word.
fn check_mode(cfg: &SearchConfig) -> Result<()> {
    let cycles = match (cfg.census, cfg.loops) {
        (true, _) => Some(("census", " counts the cycles its own walk finds; ")),
        (false, true) => Some(("loops", " searches for cycles by its own walk; ")),
        (false, false) => None,
    };
    if let (Some((mode, does)), Some(m)) = (cycles, cfg.method) {
        return Err(warsim_core::usage_of![
            "search: ",
            setting_alone(mode),
            does,
            setting("method", m.name()),
            " searches for long games (drop one of them)"
        ]
        .into());
    }
    let method = cfg.method.unwrap_or_default();
    let walks = cycles.is_some() || method == Method::Climb;
    if walks || cfg.walkers == SearchConfig::default().walkers {
        return Ok(());
    }
    Err(warsim_core::usage_of![
        "search: ",
        setting("walkers", cfg.walkers),
        " counts the walkers of ",
        setting("method", Method::Climb.name()),
        ", ",
        setting_alone("loops"),
        " and ",
        setting_alone("census"),
        "; ",
        setting("method", method.name()),
        " plays on every thread (add ",
        setting("method", Method::Climb.name()),
        " or drop ",
        setting_alone("walkers"),
        ")"
    ]
    .into())
}

/// The core's settings of `cfg`.
fn settings(cfg: &SearchConfig) -> Settings {
    Settings {
        deals: cfg.deals,
        minutes: cfg.minutes,
        walkers: cfg.walkers.get(),
        seed: cfg.seed,
        keep: cfg.keep.get(),
        from: cfg.from.clone(),
        method: cfg.method.unwrap_or_default(),
        bases: cfg.bases.get(),
        loops: cfg.loops,
        census: cfg.census,
    }
}

/// Mixed into the seed of the search's pilot, so its deals are none of the walkers'.
const PILOT_SALT: u64 = 0x5EA2_C4E5_7171_0700;

/// Holds a search (every mode) on `threads` threads to `--max-hours`: one for a time alone by
/// that time, one for a number of steps by its estimate (and its time, if given), which it
/// notes when long. The estimate prices a step as a random deal played (a pilot on one thread):
/// a climb's and a sample's step is one, and a try (of the loop search or the census) plays a
/// changed position forward as a deal is played. What follows the steps is not priced: a
/// record search's joins (at most `--bases`) and a census's basin walks.
fn bound(game: &Bmn, cfg: &SearchConfig, plan: &Plan, threads: usize) -> Result<()> {
    if let (None, Some(m)) = (cfg.deals, cfg.minutes) {
        if cfg.max_hours.refuses(m * 60.0) {
            let what = vec!["search bmn: ".into(), setting("minutes", m)];
            return Err(crate::run::over_bound(what, " is over the ", cfg.max_hours).into());
        }
        return Ok(());
    }
    // The core's pilot of random deals on one thread, times the deals to play over the
    // walkers the threads keep busy.
    let deals = plan.total();
    let budget = crate::sim::pilot::BUDGET.as_secs_f64();
    let (games, rounds, seconds) = climb::pilot(game, cfg.seed ^ PILOT_SALT, deals, budget);
    let pilot = Measured {
        games,
        rounds,
        played: rounds,
        spread: 0.0,
        seconds,
        open: None,
    };
    let busy = plan.busy(threads);
    // The pilot's deals are not the search's: all of them are still to play.
    let e = Estimate::run(pilot, None, deals.saturating_add(games), busy);
    let seconds = e.seconds - pilot.seconds;
    let seconds = cfg.minutes.map_or(seconds, |m| seconds.min(m * 60.0));
    let e = Estimate {
        seconds,
        low: seconds,
        high: seconds,
        basis: Basis::PerDeal,
        ..e
    };
    // The climb and the loop search as asked; the census (whole rounds of tries) and
    // sampling as planned.
    let asked = match plan.walks() {
        true => format!("{} deals", grouped(cfg.deals.unwrap_or(DEFAULT_DEALS))),
        false => format!("{} {}", grouped(deals), plan.unit()),
    };
    let planned = match cfg.minutes {
        Some(m) => format!("search bmn: {asked} or {m} minutes"),
        None => format!("search bmn: {asked}"),
    };
    crate::run::check_bound(vec![planned.into()], &e, cfg.max_hours)?;
    if cfg.minutes.is_none() && e.seconds > crate::estimate::LONG {
        crate::term::progress::note(cfg.progress, &format!("estimate: {e}"));
    }
    Ok(())
}
