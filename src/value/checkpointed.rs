//! What a run that keeps its games saves as its checkpoints ([`crate::store::checkpoint`]):
//! the games of its slice finished so far, as the stopped run they make.

use std::time::{Duration, Instant};

use anyhow::Result;

use super::Run;
use crate::games::GameStats;
use crate::model::report::{RunInfo, Timing};
use crate::model::summary::Provenance;
use crate::run::Saver;
use crate::stats::histogram::Tally;
use crate::store::{checkpoint, Dir};

/// The timing note of a checkpoint.
const NOTE: &str = "a checkpoint of a run that was still playing: warsim resume plays the rest";

/// Saves the checkpoints of the run `base` (as planned) into the set staged in `dir`, every
/// `every`: its games are `head` (played before these: a pilot's, or a stopped run's), then
/// those the run's play gives [`Saver::save`].
pub struct Checkpointer<'a, S> {
    /// The staged set.
    dir: &'a Dir,
    /// The time between two checkpoints.
    every: Duration,
    /// The run as planned.
    base: RunInfo,
    /// The games before those played now, and the seconds they took.
    head: (Tally<S>, f64),
    /// When the games played now began.
    started: Instant,
    /// The threads playing them.
    threads: usize,
    /// Who writes the run.
    made: Provenance,
}

impl<'a, S> Checkpointer<'a, S> {
    /// The checkpoints of the run `base` into the set staged `at`, if it is staged and
    /// `--checkpoint-minutes` is not 0 (`minutes`), its games played now starting now on
    /// `threads`, after `head`; written by `made`.
    pub fn of(
        at: Option<&'a Dir>,
        minutes: f64,
        base: &RunInfo,
        head: (Tally<S>, f64),
        threads: usize,
        made: Provenance,
    ) -> Option<Checkpointer<'a, S>> {
        let every = (minutes > 0.0).then(|| Duration::from_secs_f64(minutes * 60.0))?;
        Some(Checkpointer {
            dir: at?,
            every,
            base: base.clone(),
            head,
            started: Instant::now(),
            threads,
            made,
        })
    }
}

impl<S: GameStats + 'static> Checkpointer<'_, S> {
    /// The run stopped at `end`, its games `played` after the head: what a checkpoint holds
    /// (a sweep's, beside its sweep.json).
    pub fn run_at(&self, end: u64, played: &Tally<S>) -> Result<Run> {
        let mut info = self.base.clone();
        info.range.end = end;
        let tally = self.head.0.clone().merge(played.clone())?;
        let timing = Timing {
            elapsed_s: self.head.1 + self.started.elapsed().as_secs_f64(),
            threads: Some(self.threads),
            note: Some(NOTE.into()),
        };
        Run::new(info, tally, timing, self.made.clone())
    }
}

impl<S: GameStats + 'static> Saver<S> for Checkpointer<'_, S> {
    fn every(&self) -> Duration {
        self.every
    }

    /// Saves the games up to `end`, `played` after the head, as the run's checkpoint.
    fn save(&self, end: u64, played: &Tally<S>) -> Result<()> {
        let run = self.run_at(end, played)?;
        checkpoint::save(self.dir, end, &|put| run.write_data(put))
    }
}
