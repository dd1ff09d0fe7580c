//! One run of a game as the run options say, shared by `simulate` and `sweep`: a fixed number
//! of games (or a shard of them), or games until a stated precision.

use std::ops::Range;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

use anyhow::Result;

use crate::cancel::Cancel;
use crate::config::{Games, RunConfig, Threads};
use crate::estimate::{self, Estimate, MaxHours};
use crate::games::Game;
use crate::model::report::{RunInfo, Timing};
use crate::model::summary::PrecisionJson;
use crate::sim::engine;
use crate::sim::pilot::{self, Pilot};
use crate::sim::precision::{self, Stop, Target};
use crate::sim::shard::Shard;
use crate::stats::histogram::Tally;
use crate::stats::summary::counted;
use crate::term::progress::{self, Progress};
use warsim_core::error::{setting, setting_alone, Piece, UsageError};
use warsim_core::usage_of;

/// Games of a run without `--games`.
pub const DEFAULT_GAMES: u64 = 1_000_000;
/// Games before the first check of a run with `--precision` and no `--games`.
pub const DEFAULT_MIN_GAMES: u64 = 10_000;

/// Worker threads: `--threads`, or every core.
pub fn threads(opts: &RunConfig) -> usize {
    threads_or_cores(opts.threads)
}

/// `threads`, or every core (for `search`, which has no [`RunConfig`]).
pub fn threads_or_cores(threads: Option<Threads>) -> usize {
    threads.map_or_else(cores, |t| t.get() as usize)
}

/// The cores this process may use.
fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Games a run planned as `info` may play: its slice, or with `--precision` its `--max-games`.
pub fn most_games(opts: &RunConfig, info: &RunInfo) -> u64 {
    match opts.precision {
        Some(_) => opts.max_games.get().max(info.games_total),
        None => info.range.end - info.range.start,
    }
}

/// Whether a run needs an estimate: to keep `--max-hours`, or to be shown with the progress.
pub fn wants_estimate(opts: &RunConfig) -> bool {
    opts.max_hours.hours().is_some() || opts.progress.shows()
}

/// The pilot of a run alone: at least [`pilot::BUDGET`], then until it has seen the games'
/// tail or [`estimate::PILOT_MOST`] has passed.
pub const PILOT: pilot::Budget = pilot::Budget {
    least: pilot::BUDGET,
    most: estimate::PILOT_MOST,
};

/// Pilots the run planned as `info` for `budget` and estimates it. The pilot plays the first
/// games of its slice (of a run to a precision: of the games before the first check), which
/// [`play`] then takes as the run's own. A game that takes long enough for the estimate to
/// break `--max-hours` (with `already` seconds of other work: a sweep's other rule sets) is left
/// open there ([`pilot::run`]), so a first game that never ends is refused, not played; a
/// cancelled run stops between the pilot's tries.
pub fn estimate<G: Game>(
    game: &G,
    opts: &RunConfig,
    info: &RunInfo,
    (budget, already): (pilot::Budget, f64),
    cancel: &Cancel,
) -> Result<(Pilot<G::Stats>, Estimate)> {
    let games = most_games(opts, info);
    let exact = game.expected_rounds().map(|mean| (mean, game.max_rounds()));
    let estimate = |m: &pilot::Measured| {
        let busy = estimate::busy_threads(threads(opts), cores(), games.saturating_sub(m.games));
        Estimate::run(*m, exact, games, busy)
    };
    // Without a bound a game that may never end is left open after the pilot's most time,
    // its estimate a floor.
    let refuses = |m: &pilot::Measured| match opts.max_hours.hours() {
        Some(_) => opts.max_hours.refuses(already + estimate(m).seconds),
        None => m.seconds >= budget.most.as_secs_f64(),
    };
    let pilot = pilot::run(
        game,
        opts.seed,
        info.range.clone(),
        budget,
        &refuses,
        cancel,
    )?;
    let e = estimate(&pilot.measured);
    Ok((pilot, e))
}

/// Refuses `what` (`simulate rps: 100,000 games`, its pieces) when `e` breaks `--max-hours`,
/// saying by how much and how to run it anyway.
pub fn check_bound(what: Vec<Piece>, e: &Estimate, max: MaxHours) -> Result<()> {
    if max.refuses(e.seconds) {
        return Err(over_bound(what, &format!(" would take {e}, over the "), max).into());
    }
    Ok(())
}

/// `what`, then `over` (` would take 2 h, over the `), then the `--max-hours` bound `max`
/// and how to run it anyway: the refusal of everything the bound holds.
pub fn over_bound(mut what: Vec<Piece>, over: &str, max: MaxHours) -> UsageError {
    what.extend([
        over.into(),
        setting_alone("max_hours"),
        format!(" bound of {max}; ask for less, or raise the bound with ").into(),
        setting("max_hours", "H"),
        " (`".into(),
        setting("max_hours", "none"),
        "` lifts it)".into(),
    ]);
    UsageError::of(what)
}

/// The games a run planned as `info` plays, for messages: `100,000 games`, or with
/// `--precision` `up to 100,000,000 games (--max-games)`.
pub fn games_text(opts: &RunConfig, info: &RunInfo) -> Vec<Piece> {
    let n = counted(most_games(opts, info), "game");
    match opts.precision {
        Some(_) => vec![
            format!("up to {n} (").into(),
            setting_alone("max_games"),
            ")".into(),
        ],
        None => vec![n.into()],
    }
}

/// The first games of a run, played by its pilot, and the time they took: the run takes them
/// as its own, and its rate counts them over their time too.
pub struct Head<S> {
    /// Their tally.
    pub tally: Tally<S>,
    /// Seconds the pilot took.
    pub seconds: f64,
}

impl<S: crate::games::GameStats> Head<S> {
    /// No games yet: a run without a pilot.
    pub fn none(players: usize) -> Head<S> {
        Head {
            tally: Tally::new(players),
            seconds: 0.0,
        }
    }
}

/// Pilots, estimates and checks the run planned as `info` before anything is written, and
/// shows a long run's estimate where progress is shown; gives the pilot's games, for [`play`]
/// (none when the run needs no estimate, [`wants_estimate`]).
pub fn guard<G: Game>(
    game: &G,
    opts: &RunConfig,
    info: &RunInfo,
    cancel: &Cancel,
) -> Result<Head<G::Stats>> {
    if !wants_estimate(opts) {
        return Ok(Head::none(game.players()));
    }
    let (pilot, e) = estimate(game, opts, info, (PILOT, 0.0), cancel)?;
    let mut what = vec![Piece::from(format!("simulate {}: ", G::NAME))];
    what.extend(games_text(opts, info));
    check_bound(what, &e, opts.max_hours)?;
    show_estimate(opts.progress, &e);
    Ok(Head {
        tally: pilot.tally,
        seconds: pilot.measured.seconds,
    })
}

/// Shows estimate `e` where progress is shown: a long run's on a terminal, every run's in a
/// log (`--progress log`), which is read after the run.
pub fn show_estimate(when: progress::When, e: &Estimate) {
    if e.seconds > estimate::LONG || when == progress::When::Log {
        progress::note(when, &format!("estimate: {e}"));
    }
}

/// The estimate of the run planned as `info`, whatever its bound (`--estimate`): its pilot
/// is the run's, but plays no longer for the bound.
pub fn estimate_alone<G: Game>(
    game: &G,
    opts: &RunConfig,
    info: &RunInfo,
    cancel: &Cancel,
) -> Result<Estimate> {
    let unbounded = RunConfig {
        max_hours: MaxHours::NONE,
        ..opts.clone()
    };
    Ok(estimate(game, &unbounded, info, (PILOT, 0.0), cancel)?.1)
}

/// What a run will play, checked before anything is written.
pub fn plan<G: Game>(game: &G, opts: &RunConfig) -> Result<RunInfo> {
    opts.check_values()?;
    let shard = opts.shard.unwrap_or(Shard::WHOLE);
    if let Some(h) = opts.precision {
        if opts.shard.is_some() {
            return Err(usage_of![
                setting("precision", h),
                " with ",
                setting_alone("shard"),
                ": a run to a precision decides when to stop from all its games, so it cannot \
                 be split; shard a fixed ",
                setting_alone("games"),
                " instead",
            ]
            .into());
        }
        // The games before the first check are at most --max-games: a run asked to stop
        // after M games plays no more.
        let min = match opts.games.map(Games::get) {
            Some(g) if g > opts.max_games.get() => {
                return Err(usage_of![
                    setting("games", g),
                    " with ",
                    setting_alone("precision"),
                    ": the games before the first check are more than ",
                    setting("max_games", opts.max_games),
                    "; ask for at most as many",
                ]
                .into())
            }
            Some(g) => g,
            None => DEFAULT_MIN_GAMES.min(opts.max_games.get()),
        };
        return RunInfo::new(game, opts.seed, min, shard);
    }
    let games = opts.games.map_or(DEFAULT_GAMES, Games::get);
    let info = RunInfo::new(game, opts.seed, games, shard)?;
    if info.range.is_empty() {
        return Err(usage_of![
            setting("shard", shard),
            format!(": this slice of {games} games holds no game; use at most {games} shards"),
        ]
        .into());
    }
    Ok(info)
}

/// How far past its `--max-hours` bound an accepted run may go before it stops itself: half
/// again, so an estimate right within its factor of two rarely stops a run, and a run whose
/// estimate was wrong by more stops where `resume` can go on from (on a cluster: before the
/// job's time limit, set a little above the bound, kills it).
pub const OVERRUN: f64 = 1.5;

/// The start of the timing note of a run that stopped itself for its time.
pub const OVERRAN: &str = "the run stopped itself";

/// Overrides the seconds of [`Overrun::watch`] (tests: a run stopped by its time at a moment
/// they choose, not after hours).
const OVERRUN_ENV: &str = "WARSIM_TEST_OVERRUN_S";

/// A watch on an accepted run's time: once it has run [`OVERRUN`] times its bound, it sets the
/// run's stop, as an interrupt would; dropped when the run ends, it stops watching. A thread
/// that sleeps, so the games pay nothing for it.
pub struct Overrun {
    fired: Arc<AtomicBool>,
    /// Dropped to wake the watch when the run ends first.
    done: Option<mpsc::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
    bound: MaxHours,
}

impl Overrun {
    /// Watches a run bounded by `bound` that has already taken `spent` seconds (its pilot):
    /// sets `stop` and says why on stderr (`when`) once it has taken half again the bound.
    pub fn watch(bound: MaxHours, spent: f64, stop: &Cancel, when: progress::When) -> Overrun {
        let fired = Arc::new(AtomicBool::new(false));
        let test = std::env::var(OVERRUN_ENV)
            .ok()
            .and_then(|t| t.parse::<f64>().ok());
        let limit = test.or(bound.hours().map(|h| h * 3600.0 * OVERRUN - spent));
        let Some(limit) = limit else {
            return Overrun {
                fired,
                done: None,
                thread: None,
                bound,
            };
        };
        let (done, wake) = mpsc::channel::<()>();
        let (flag, stop) = (fired.clone(), stop.clone());
        let wait = Duration::from_secs_f64(limit.clamp(0.0, 1e9));
        let thread = std::thread::spawn(move || {
            if let Err(mpsc::RecvTimeoutError::Timeout) = wake.recv_timeout(wait) {
                flag.store(true, Ordering::Relaxed);
                stop.set();
                progress::tell(
                    when,
                    &format!(
                        "stopping: the run has taken half again its --max-hours bound of \
                         {bound}; writing what is finished so far"
                    ),
                );
            }
        });
        Overrun {
            fired,
            done: Some(done),
            thread: Some(thread),
            bound,
        }
    }

    /// The timing note of a run it stopped, or `None`.
    pub fn note(&self) -> Option<String> {
        self.fired.load(Ordering::Relaxed).then(|| {
            format!(
                "{OVERRAN} after half again its --max-hours bound of {}; warsim resume plays \
                 the rest",
                self.bound
            )
        })
    }
}

impl Drop for Overrun {
    fn drop(&mut self) {
        self.done.take();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// Where a run's games stand in a progress total: after `offset` units (a sweep's earlier rule
/// sets), each game `weight` units (a sweep weighs each rule set's games by their estimated
/// cost, [`Progress::costed`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slot {
    /// Units of the total before this run's.
    pub offset: u64,
    /// Units a game.
    pub weight: u64,
}

impl Slot {
    /// A run alone: its games are the total.
    pub const ALONE: Slot = Slot {
        offset: 0,
        weight: 1,
    };
}

/// What a run plays with: its threads, where its progress goes and at which slot of the total,
/// and what stops it.
pub struct PlayWith<'a> {
    /// Worker threads.
    pub threads: usize,
    /// The progress it reports to.
    pub progress: &'a Progress,
    /// Where its games stand in the progress total.
    pub slot: Slot,
    /// Stops it before its next chunk of games.
    pub cancel: &'a Cancel,
    /// Whether a stopped run keeps the games it played (a run stopped by an interrupt that
    /// writes what it has) rather than fail as [`Cancelled`](crate::cancel::Cancelled).
    pub keeps: bool,
}

/// The run `info` to the precision `target`, now of the games it played, to `stop`: nothing of
/// its description is made again, so a field added to it reaches this run's summary too.
/// Stopped on its way `toward` a checkpoint, it is planned to that checkpoint and holds the
/// games it finished, the first ([`RunInfo::stopped`]); `warsim resume` goes on from there.
pub fn precisely(info: &mut RunInfo, target: &Target, stop: &Stop, toward: Option<u64>) {
    info.games_total = toward.unwrap_or(stop.games);
    info.range = 0..stop.games;
    info.precision = Some(PrecisionJson::new(target, stop));
}

/// Where a run that keeps its games saves a checkpoint, and how often.
pub trait Saver<S> {
    /// The time between two checkpoints.
    fn every(&self) -> Duration;
    /// Saves the games `head.. end` of the run's slice (its games after its pilot's: the
    /// pilot's come first) as a checkpoint, given `end` and their tally.
    fn save(&self, end: u64, played: &Tally<S>) -> Result<()>;
}

/// [`engine::simulate_until`] of `rest` in segments of about `saver.every()` each, the games
/// finished so far saved after each one but the last: a segment is stopped as an interrupt
/// stops the run (by a watch that sleeps, so the games pay nothing), and the next goes on
/// from where it ended. A stop (`stop`) ends it as it ends `simulate_until`.
fn segments<G: Game>(
    game: &G,
    seed: u64,
    rest: Range<u64>,
    threads: usize,
    inc: &(dyn Fn(u64) + Sync),
    stop: &Cancel,
    saver: &dyn Saver<G::Stats>,
) -> Result<(Tally<G::Stats>, u64)> {
    let mut played = Tally::new(game.players());
    let mut at = rest.start;
    loop {
        let segment = Cancel::default();
        let (tally, end) = std::thread::scope(|scope| {
            let (done, wake) = mpsc::channel::<()>();
            let every = saver.every();
            let segment = &segment;
            scope.spawn(move || {
                let started = Instant::now();
                while let Err(mpsc::RecvTimeoutError::Timeout) = wake.recv_timeout(LOOK) {
                    if stop.is_set() || started.elapsed() >= every {
                        segment.set();
                        return;
                    }
                }
            });
            let played = engine::simulate_until(game, seed, at..rest.end, threads, inc, segment);
            drop(done);
            played
        })?;
        played = played.merge(tally)?;
        at = end;
        if at == rest.end || stop.is_set() {
            return Ok((played, at));
        }
        saver.save(at, &played)?;
    }
}

/// The games `rest` of a run that keeps its games, on `threads` threads, each claim counted
/// by `inc`, stopped by `stop`: in segments saved by `saver` ([`segments`]), or in one go.
pub fn play_rest<G: Game>(
    game: &G,
    seed: u64,
    rest: Range<u64>,
    (threads, inc, stop): (usize, &(dyn Fn(u64) + Sync), &Cancel),
    saver: Option<&dyn Saver<G::Stats>>,
) -> Result<(Tally<G::Stats>, u64)> {
    match saver {
        Some(saver) => segments(game, seed, rest, threads, inc, stop, saver),
        None => Ok(engine::simulate_until(
            game, seed, rest, threads, inc, stop,
        )?),
    }
}

/// How often a segment's watch looks at the run's stop.
const LOOK: Duration = Duration::from_millis(50);

/// Plays the run `info` (from [`plan`]) with `with`, going on from `head` (the first games of
/// its slice, a pilot's, whose time counts in the run's); a run that keeps its games saves
/// checkpoints with `saver`, if any.
pub fn play<G: Game>(
    game: &G,
    opts: &RunConfig,
    mut info: RunInfo,
    head: Head<G::Stats>,
    with: PlayWith<'_>,
    saver: Option<&dyn Saver<G::Stats>>,
) -> Result<(RunInfo, Tally<G::Stats>, Timing)> {
    let PlayWith {
        threads,
        progress,
        slot,
        cancel,
        keeps,
    } = with;
    let start = Instant::now();
    let Head {
        tally: head,
        seconds: head_seconds,
    } = head;
    let inc = |n: u64| progress.inc(n.saturating_mul(slot.weight));
    inc(head.games);
    let tally = match opts.precision {
        Some(half_width) => {
            let target = Target {
                half_width,
                min_games: info.games_total,
                max_games: opts.max_games.get().max(info.games_total),
            };
            let planned = |n: u64| progress.set_total(slot.offset + n.saturating_mul(slot.weight));
            let watched = precision::Watched {
                threads,
                progress: &inc,
                planned: &planned,
                cancel,
            };
            let (tally, stop, toward) = match keeps {
                true => precision::simulate_until(game, opts.seed, &target, head, &watched)?,
                false => {
                    let (tally, stop) =
                        precision::simulate(game, opts.seed, &target, head, &watched)?;
                    (tally, stop, None)
                }
            };
            precisely(&mut info, &target, &stop, toward);
            tally
        }
        None => {
            let rest = info.range.start + head.games..info.range.end;
            let (tally, end) = match keeps {
                true => play_rest(game, opts.seed, rest, (threads, &inc, cancel), saver)?,
                false => {
                    let end = rest.end;
                    (
                        engine::simulate(game, opts.seed, rest, threads, &inc, cancel)?,
                        end,
                    )
                }
            };
            // A stopped run holds the first games of its slice (`RunInfo::stopped`).
            info.range.end = end;
            head.merge(tally)?
        }
    };
    let timing = Timing {
        elapsed_s: head_seconds + start.elapsed().as_secs_f64(),
        threads: Some(threads),
        note: None,
    };
    Ok((info, tally, timing))
}
