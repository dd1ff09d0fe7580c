//! `resume`: a run that an interrupt stopped, or that was killed after a checkpoint, played to
//! the end it was asked. Game i depends on (seed, i) alone and a tally is integer counts, so
//! the games played after the stop added to those before it are the run played in one go: the
//! same histogram, summary (but for its timing and provenance) and charts.

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::Result;

use super::{Run, Session};
use crate::cancel::Cancel;
use crate::config::setup::WithGameType;
use crate::games::Game;
use crate::model::report::{RunInfo, Timing};
use crate::model::summary::PrecisionJson;
use crate::model::{self, load::Part};
use crate::run::{self as runs, threads_or_cores, Saver};
use crate::sim::precision::{self, Target};
use crate::stats::histogram::Tally;
use crate::stats::summary::grouped;
use crate::store::{checkpoint, Kind};
use crate::term::progress::{self, Progress, When};
use crate::usage;
use crate::value::Checkpointer;

/// `resume DIR`: the stopped run in `dir`, or the newest checkpoint a killed run into `dir`
/// left beside it (which comes first: it is newer than any set in `dir`), played to its end
/// and written into `dir`; gives the run and `dir`. A run that is not stopped, or a folder
/// with neither, is refused, `dir` untouched. Stopped again, it is written as far as it got,
/// still stopped; it saves checkpoints every `minutes` (0: none) as `simulate` does.
pub fn resume(
    session: &Session,
    dir: &Path,
    progress: When,
    minutes: f64,
) -> Result<(Run, PathBuf)> {
    let from = checkpoint::latest(dir);
    if from.is_none() && !dir.exists() {
        return Err(usage!(
            "{}: nothing to resume: no run there, and no checkpoint beside it (a run killed \
             before its first checkpoint, --checkpoint-minutes after its start, leaves none; \
             run its command again)",
            dir.display()
        )
        .into());
    }
    let task = Resume {
        dir,
        from: from.as_deref(),
        session,
        progress,
        minutes,
    };
    super::load::of_folder(from.as_deref().unwrap_or(dir), task)
}

/// `resume`, for game type `G`.
struct Resume<'a> {
    /// Where the run is written.
    dir: &'a Path,
    /// The checkpoint it goes on from, if not the run in `dir`.
    from: Option<&'a Path>,
    session: &'a Session,
    progress: When,
    /// `--checkpoint-minutes` (0: none).
    minutes: f64,
}

impl WithGameType for Resume<'_> {
    type Output = Result<(Run, PathBuf)>;

    fn with<G: Game>(self) -> Result<(Run, PathBuf)> {
        let Resume {
            dir,
            from,
            session,
            progress,
            minutes,
        } = self;
        let part: Part<G> = model::load::load(from.unwrap_or(dir))?;
        let info = &part.info;
        refuse_whole(dir, info)?;
        if from.is_some() {
            progress::tell(
                progress,
                &format!(
                    "resuming from the checkpoint of {} games that a killed run into {} left",
                    grouped(part.tally.games),
                    dir.display()
                ),
            );
        }
        // The set is begun (which removes what killed runs left beside `dir`, the checkpoint
        // read above among them) and the games read saved again at once in its own.
        let set = session.begin(dir, Kind::Simulate, &[])?.told(progress);
        let threads = threads_or_cores(None);
        let head = (part.tally.clone(), part.elapsed_s);
        let saving = Checkpointer::of(
            Some(set.dir()),
            minutes,
            info,
            head,
            threads,
            session.provenance(),
        );
        let rest = info.range.end..info.planned_end();
        if let Some(c) = &saving {
            c.save(rest.start, &Tally::new(part.game.players()))?;
        }
        let bar = Progress::new(rest.end - rest.start, &session.show(progress));
        let start = Instant::now();
        let saver: Option<&dyn Saver<G::Stats>> = saving.as_ref().map(|c| c as _);
        let (mut info, tally) = play_on(&part, &bar, (threads, &session.stop_as(progress)), saver)?;
        bar.finish();
        // One engine played the run where the stopped run names the one that plays now.
        let said: serde_json::Value = serde_json::from_str(&part.summary_json)?;
        let engine = part.game.engine();
        info.engine = engine.filter(|e| said["engine"].as_str() == Some(e.as_str()));
        let timing = timing(part.elapsed_s + start.elapsed().as_secs_f64(), threads);
        let run = Run::new(info, tally, timing, session.provenance())?;
        run.write(set, false)?;
        Ok((run, dir.to_path_buf()))
    }
}

/// The rest of the stopped run `part` played on `threads` threads, counted by `bar`, stopped
/// by `stop`, saving checkpoints with `saver`: its description and all its games.
fn play_on<G: Game>(
    part: &Part<G>,
    bar: &Progress,
    (threads, stop): (usize, &Cancel),
    saver: Option<&dyn Saver<G::Stats>>,
) -> Result<(RunInfo, Tally<G::Stats>)> {
    let info = part.info.clone();
    let rest = info.range.end..info.planned_end();
    let inc = |n| bar.inc(n);
    match info.precision.clone() {
        Some(p) => {
            let planned = |n: u64| bar.set_total(n - rest.start);
            let watched = precision::Watched {
                threads,
                progress: &inc,
                planned: &planned,
                cancel: stop,
            };
            to_precision(info, p, &part.game, part.tally.clone(), &watched, saver)
        }
        None => {
            let with: (usize, &(dyn Fn(u64) + Sync), _) = (threads, &inc, stop);
            let (tally, end) = runs::play_rest(&part.game, info.seed, rest, with, saver)?;
            let mut info = info;
            info.range.end = end;
            Ok((info, part.tally.clone().merge(tally)?))
        }
    }
}

/// The stopped run to a precision `info` (its block `p`), of games `head`, played on deciding
/// at the same checks as in one go ([`precision::simulate_until`]), saving checkpoints with
/// `saver`; stopped again, it is as far as it got.
fn to_precision<G: Game>(
    mut info: RunInfo,
    p: PrecisionJson,
    game: &G,
    head: Tally<G::Stats>,
    watched: &precision::Watched<'_>,
    saver: Option<&dyn Saver<G::Stats>>,
) -> Result<(RunInfo, Tally<G::Stats>)> {
    let target = Target {
        half_width: p.target,
        min_games: p.min_games,
        max_games: p.max_games,
    };
    let (tally, stopped, toward) =
        runs::play_precise(game, (&info, &target), head, watched, saver)?;
    runs::precisely(&mut info, &target, &stopped, toward);
    Ok((info, tally))
}

/// Refuses the run `info` in `dir` if it holds every game it was asked: nothing to resume.
fn refuse_whole(dir: &Path, info: &RunInfo) -> Result<()> {
    if info.stopped() {
        return Ok(());
    }
    Err(usage!(
        "{}: this run holds every game it was asked ({}..{} of {}); resume plays the rest of a \
         run that an interrupt stopped",
        dir.display(),
        info.range.start,
        info.range.end,
        info.games_total
    )
    .into())
}

/// The timing of a resumed run: `elapsed_s` over both its parts, on `threads` now.
fn timing(elapsed_s: f64, threads: usize) -> Timing {
    Timing {
        elapsed_s,
        threads: Some(threads),
        note: Some(
            "elapsed_s adds the time of the games played before the run stopped and of those \
             played when it was resumed"
                .into(),
        ),
    }
}
