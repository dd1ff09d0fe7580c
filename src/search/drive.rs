//! How a search is played: checked, estimated and bounded before its output set begins, then
//! its walkers played in batches, each sized to about a quarter of a second from the rate the
//! last one measured, so that a search for a time (`--minutes`) stops within about that time
//! and an interrupted one (Ctrl-C, SIGTERM) within a batch. Every walker plays the same deals
//! in each batch, and a walker plays on from where it stopped, so the batches never change
//! the result: it depends on the seed, the deals and the walkers alone.

use std::time::Instant;

use anyhow::Result;
use rayon::prelude::*;

use super::SearchConfig;
use crate::estimate::{Basis, Estimate};
use crate::games::bmn::Bmn;
use crate::games::Game;
use crate::rng::game_rng;
use crate::sim::engine::Cancel;
use crate::sim::pilot::Measured;
use crate::stats::summary::grouped;
use crate::store::{self, Kind, OutputSet};
use crate::term::progress::Progress;
use crate::usage;

/// Deals a search without `--deals` or `--minutes` plays.
pub const DEFAULT_DEALS: u64 = 10_000_000;

/// Mixed into the seed of the search's pilot, so its deals are none of the walkers'.
const PILOT_SALT: u64 = 0x5EA2_C4E5_7171_0700;

/// Seconds one batch of deals is sized to take: how late a search for a time may stop, and
/// how long an interrupted one takes to stop.
const BATCH_SECONDS: f64 = 0.25;

/// How much larger than the last one a batch may be: a rate measured over a few deals is
/// rough, so the batches grow from one deal per walker by at most this factor.
const BATCH_GROWTH: u64 = 4;

/// What the search will take: deals played on one thread for a pilot's time (shuffled deals
/// from a generator of the pilot's own, so the search's deals are untouched), times the deals
/// to play over the walkers the threads keep busy.
fn estimate(game: &Bmn, cfg: &SearchConfig, deals: u64, threads: usize) -> Estimate {
    let mut rng = game_rng(cfg.seed ^ PILOT_SALT, u64::MAX);
    let mut s = game.scratch();
    let mut deck = game.deck().to_vec();
    let (mut played, mut rounds) = (0u64, 0u64);
    let start = Instant::now();
    while played < deals && start.elapsed() < crate::sim::pilot::BUDGET {
        crate::games::cards::shuffle(&mut rng, &mut deck);
        rounds = rounds.saturating_add(game.play_deck(&deck, &mut s).tricks);
        played += 1;
    }
    let pilot = Measured {
        games: played,
        rounds,
        seconds: start.elapsed().as_secs_f64(),
        open: None,
    };
    let busy = threads.min(cfg.walkers as usize).max(1);
    // The pilot's deals are not the search's: all of them are still to play.
    let e = Estimate::run(pilot, None, deals.saturating_add(played), busy);
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

/// How a search's play ended: the deals each walker played, and whether an interrupt stopped
/// it before the deals or the time asked for.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Played {
    pub(super) per_walker: u64,
    pub(super) stopped: bool,
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

/// Refuses a deck whose cards all demand the same: a climb changes a deal by swapping two
/// cards of different demands and would look for them forever, and its games all end in the
/// first trick, so there is neither a long game nor a loop to find.
fn check_deck(game: &Bmn) -> Result<()> {
    let deck = game.deck();
    if deck.iter().all(|&d| d == deck[0]) {
        let r = game.rules();
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
    let set = OutputSet::begin(&cfg.out, Kind::Search, &[])?;
    let stop = Cancel::default();
    store::stop_on_interrupt(&stop);
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
        // One for a number of deals is bounded by its estimate, and by its time if given; a
        // search for a time takes that time, so its estimate is shown only without one.
        let e = estimate(game, cfg, steps * u64::from(cfg.walkers), threads);
        let seconds = cfg.minutes.map_or(e.seconds, |m| e.seconds.min(m * 60.0));
        let e = Estimate { seconds, ..e };
        crate::run::check_bound(
            &format!("search bmn: {}", planned(cfg, asked)),
            &e,
            cfg.max_hours,
        )?;
        if cfg.minutes.is_none() && e.seconds > crate::estimate::LONG {
            crate::term::progress::note(cfg.progress, &format!("estimate: {e}"));
        }
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()?;
    let noun = if cfg.loops { "tries" } else { "deals" };
    let progress = match cfg.minutes {
        Some(m) => Progress::timed(m * 60.0, cfg.progress, noun),
        None => Progress::counting(steps * u64::from(cfg.walkers), cfg.progress, noun),
    };
    Ok(Prepared {
        set,
        steps,
        threads,
        pool,
        progress,
        start: Instant::now(),
        stop,
    })
}

impl Prepared {
    /// Plays every walker's share in batches until it is played, the time is up (`--minutes`)
    /// or an interrupt stops it. Every walker plays the same number in each batch, so the
    /// deals played are a multiple of the walkers and the result is the one `--deals` of that
    /// number gives.
    pub(super) fn drive<W: Send>(
        &self,
        cfg: &SearchConfig,
        walkers: &mut [W],
        walk: impl Fn(&mut W, u64, &Progress) + Sync,
    ) -> Played {
        let deadline = cfg.minutes.map(|m| m * 60.0);
        let (mut played, mut batch) = (0u64, 1u64);
        let stopped = loop {
            let elapsed = self.start.elapsed().as_secs_f64();
            // The first batch (one deal a walker) is played however short the time: a search
            // of no deals would have no replay line that runs.
            if played >= self.steps || (played > 0 && deadline.is_some_and(|d| elapsed >= d)) {
                break false;
            }
            // Nor does an interrupt stop it: it has something to write, and deals to replay.
            if played > 0 && self.stop.is_set() {
                break true;
            }
            let n = batch.min(self.steps - played);
            let began = Instant::now();
            self.pool.install(|| {
                walkers
                    .par_iter_mut()
                    .for_each(|w| walk(w, n, &self.progress))
            });
            played += n;
            // The next batch: about BATCH_SECONDS at the rate just measured, no longer than
            // the time left.
            let rate = n as f64 / began.elapsed().as_secs_f64().max(1e-9);
            let left = deadline.map_or(BATCH_SECONDS, |d| {
                (d - self.start.elapsed().as_secs_f64()).min(BATCH_SECONDS)
            });
            batch = ((rate * left) as u64).clamp(1, n.saturating_mul(BATCH_GROWTH));
        };
        self.progress.finish();
        Played {
            per_walker: played,
            stopped,
        }
    }
}
