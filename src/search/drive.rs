//! How a search is played: checked, estimated and bounded before its output set begins, then
//! its walkers played in batches by the core ([`play_in_batches`]), each sized to about a
//! quarter of a second, so a search for a time (`--minutes`) stops within about that time and
//! an interrupted one (Ctrl-C, SIGTERM) within a batch.

use std::time::Instant;

use anyhow::Result;

use super::SearchConfig;
use crate::estimate::{Basis, Estimate};
use crate::games::bmn::search::{climb, play_in_batches};
use crate::games::bmn::Bmn;
use crate::sim::engine::Cancel;
use crate::sim::pilot::Measured;
use crate::stats::summary::grouped;
use crate::store::{self, Kind, OutputSet};
use crate::term::progress::Progress;
use crate::usage;

pub(crate) use crate::games::bmn::search::Played;

/// Deals a search without `--deals` or `--minutes` plays.
pub const DEFAULT_DEALS: u64 = 10_000_000;

/// Mixed into the seed of the search's pilot, so its deals are none of the walkers'.
const PILOT_SALT: u64 = 0x5EA2_C4E5_7171_0700;

/// What the search will take: the core's pilot of random deals on one thread, times the deals
/// to play over the walkers the threads keep busy.
fn estimate(game: &Bmn, cfg: &SearchConfig, deals: u64, threads: usize) -> Estimate {
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
    Estimate {
        seconds: e.seconds - pilot.seconds,
        basis: Basis::PerDeal,
        ..e
    }
}

/// What a search is asked to play, for messages: `10,000,000 deals`, `10 minutes`.
fn planned(cfg: &SearchConfig, asked: u64) -> String {
    match (cfg.deals, cfg.minutes) {
        (Some(_), Some(m)) => format!("{} deals or {m} minutes", grouped(asked)),
        (None, Some(m)) => format!("{m} minutes"),
        _ => format!("{} deals", grouped(asked)),
    }
}

/// A search ready to play: its output set begun, its walkers' share of the deals, the
/// threads, the progress shown and the stop an interrupt sets.
pub(crate) struct Prepared {
    pub(super) set: OutputSet,
    steps: u64,
    pub(super) threads: usize,
    pool: rayon::ThreadPool,
    progress: Progress,
    pub(super) start: Instant,
    stop: Cancel,
}

/// Refuses a `--minutes` that is no time: every search (`--reaching` too) is bounded by it.
pub(crate) fn check_minutes(minutes: Option<f64>) -> Result<()> {
    match minutes.filter(|m| !(m.is_finite() && *m > 0.0)) {
        Some(m) => {
            Err(usage!("search: --minutes {m}: expected minutes above 0, such as 10").into())
        }
        None => Ok(()),
    }
}

/// Refuses a deck whose cards all demand the same: a climb swaps two cards of different
/// demands and would look for them forever, and every game ends in its first trick.
fn check_deck(game: &Bmn) -> Result<()> {
    let deck = game.deck();
    if deck.iter().all(|&d| d == deck[0]) {
        let r = crate::games::Game::rules(game);
        return Err(usage!(
            "search: every card of this deck ({} ranks, --penalties {}) demands {}, so every \
             deal is the same game; give --penalties with two different demands, or --ranks \
             above 4 with a penalty above 0",
            r.ranks,
            r.penalties,
            deck[0]
        )
        .into());
    }
    Ok(())
}

/// Checks `cfg`, begins the output set, estimates the search and holds it to `--max-hours`.
pub(crate) fn prepare(game: &Bmn, cfg: &SearchConfig) -> Result<Prepared> {
    let asked = match (cfg.deals, cfg.minutes) {
        (Some(d), _) => d,
        (None, Some(_)) => u64::MAX,
        (None, None) => DEFAULT_DEALS,
    };
    if cfg.walkers == 0 || asked < u64::from(cfg.walkers) || cfg.keep == 0 {
        return Err(usage!(
            "search: --deals {asked} --walkers {} --keep {}: need at least one walker, one deal \
             per walker and one deal kept",
            cfg.walkers,
            cfg.keep
        )
        .into());
    }
    check_minutes(cfg.minutes)?;
    check_deck(game)?;
    let set = OutputSet::begin(&cfg.out, Kind::Search, &[], None)?;
    let stop = interrupt_stop();
    let steps = asked / u64::from(cfg.walkers);
    let threads = crate::run::threads_or_cores(cfg.threads);
    // A search for a time alone takes that time: it is held to the bound with no pilot.
    if let (None, Some(m)) = (cfg.deals, cfg.minutes) {
        if cfg.max_hours.refuses(m * 60.0) {
            return Err(usage!(
                "search bmn: --minutes {m} is over the --max-hours bound of {}; ask for less, \
                 or raise the bound with --max-hours H (`--max-hours none` lifts it)",
                cfg.max_hours
            )
            .into());
        }
    } else {
        // One for a number of deals is bounded by its estimate, and by its time if given.
        let e = estimate(game, cfg, steps * u64::from(cfg.walkers), threads);
        let seconds = cfg.minutes.map_or(e.seconds, |m| e.seconds.min(m * 60.0));
        let e = Estimate { seconds, ..e };
        crate::run::check_bound(
            vec![format!("search bmn: {}", planned(cfg, asked)).into()],
            &e,
            cfg.max_hours,
        )?;
        if cfg.minutes.is_none() && e.seconds > crate::estimate::LONG {
            crate::term::progress::note(cfg.progress, &format!("estimate: {e}"));
        }
    }
    let pool = pool_of(threads)?;
    let noun = if cfg.loops { "tries" } else { "deals" };
    let progress = progress_of(cfg, steps * u64::from(cfg.walkers), noun);
    let start = Instant::now();
    Ok(Prepared {
        set,
        steps,
        threads,
        pool,
        progress,
        start,
        stop,
    })
}

impl Prepared {
    /// Plays every walker's share in batches ([`play_in_batches`]) until it is played, the
    /// time is up (`--minutes`) or an interrupt stops it, on the search's threads.
    pub(super) fn drive<W: Send>(
        &self,
        cfg: &SearchConfig,
        walkers: &mut [W],
        walk: impl Fn(&mut W, u64, &(dyn Fn(u64) + Sync)) + Sync,
    ) -> Played {
        let seconds = cfg.minutes.map(|m| m * 60.0);
        let report = |n: u64| self.progress.inc(n);
        let played = self.pool.install(|| {
            play_in_batches(
                self.steps,
                seconds,
                self.start,
                &self.stop,
                walkers,
                |w, n| walk(w, n, &report),
            )
        });
        self.progress.finish();
        played
    }
}

/// A search's pool of `threads` workers.
pub(super) fn pool_of(threads: usize) -> Result<rayon::ThreadPool> {
    Ok(rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()?)
}

/// The stop an interrupt (Ctrl-C, SIGTERM) sets, so a search writes what it found.
pub(super) fn interrupt_stop() -> Cancel {
    let stop = Cancel::default();
    store::stop_on_interrupt(&stop);
    stop
}

/// A search's progress: against the clock with `--minutes`, else counting `total` `noun`.
pub(super) fn progress_of(cfg: &SearchConfig, total: u64, noun: &'static str) -> Progress {
    match cfg.minutes {
        Some(m) => Progress::timed(m * 60.0, cfg.progress, noun),
        None => Progress::counting(total, &crate::term::progress::Show::Own(cfg.progress), noun),
    }
}
