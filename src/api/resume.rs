//! `resume`: a run that an interrupt stopped, played to the end it was asked. Game i depends on
//! (seed, i) alone and a tally is integer counts, so the games played after the stop added to
//! those before it are the run played in one go: the same histogram, summary (but for its
//! timing and provenance) and charts.

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::Result;

use super::{Run, Session};
use crate::face::{GameCli, WithGameType};
use crate::model::report::Timing;
use crate::model::{self, load::Part};
use crate::run::threads_or_cores;
use crate::sim::engine;
use crate::store::Kind;
use crate::term::progress::{Progress, When};
use crate::usage;

/// `resume DIR`: the stopped run in `dir` played to its end and written there in place of the
/// stopped one; gives the run and `dir`. A run that is not stopped is refused, `dir` untouched.
/// Stopped again, it is written as far as it got, still stopped.
pub fn resume(session: &Session, dir: &Path, progress: When) -> Result<(Run, PathBuf)> {
    let task = Resume {
        dir,
        session,
        progress,
    };
    super::load::of_folder(dir, task)
}

/// `resume`, for game type `G`.
struct Resume<'a> {
    dir: &'a Path,
    session: &'a Session,
    progress: When,
}

impl WithGameType for Resume<'_> {
    type Output = Result<(Run, PathBuf)>;

    fn with<G: GameCli>(self) -> Result<(Run, PathBuf)> {
        let Resume {
            dir,
            session,
            progress,
        } = self;
        let part: Part<G> = model::load::load(dir)?;
        let info = &part.info;
        if !info.stopped() {
            return Err(usage!(
                "{}: this run holds every game it was asked ({}..{} of {}); resume plays the \
                 rest of a run that an interrupt stopped",
                dir.display(),
                info.range.start,
                info.range.end,
                info.games_total
            )
            .into());
        }
        let set = session.begin(dir, Kind::Simulate, &[])?;
        let rest = info.range.end..info.planned_end();
        let bar = Progress::new(rest.end - rest.start, &session.show(progress));
        let threads = threads_or_cores(None);
        let stop = session.search_stop();
        let start = Instant::now();
        let (tally, end) =
            engine::simulate_until(&part.game, info.seed, rest, threads, &|n| bar.inc(n), &stop)?;
        bar.finish();
        let mut info = part.info;
        info.range.end = end;
        // One engine played the run where the stopped run names the one that plays now.
        let said: serde_json::Value = serde_json::from_str(&part.summary_json)?;
        let engine = part.game.engine();
        info.engine = engine.filter(|e| said["engine"].as_str() == Some(e.as_str()));
        let timing = Timing {
            elapsed_s: part.elapsed_s + start.elapsed().as_secs_f64(),
            threads: Some(threads),
            note: Some(
                "elapsed_s adds the time of the games played before the run stopped and of \
                 those played when it was resumed"
                    .into(),
            ),
        };
        let run = Run::new(info, part.tally.merge(tally)?, timing, session.provenance())?;
        run.write(set, false)?;
        Ok((run, dir.to_path_buf()))
    }
}
