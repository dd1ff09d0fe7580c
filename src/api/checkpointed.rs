//! What a run that keeps its games saves as its checkpoints ([`crate::store::checkpoint`]):
//! the games of its slice finished so far, as the stopped run they make.

use std::time::{Duration, Instant};

use anyhow::Result;

use crate::games::GameStats;
use crate::model::report::{RunInfo, Timing};
use crate::model::summary::Provenance;
use crate::stats::histogram::Tally;
use crate::store::{checkpoint, Dir};
use crate::value::Run;

/// The timing note of a checkpoint.
const NOTE: &str = "a checkpoint of a run that was still playing: warsim resume plays the rest";

/// Saves the checkpoints of the run `base` (as planned) into the set staged in `dir`: its
/// games are `head` (played before these: a pilot's, or a stopped run's), then those the
/// run's play gives [`Checkpointer::save`].
pub struct Checkpointer<'a, S> {
    /// The staged set.
    pub dir: &'a Dir,
    /// The run as planned.
    pub base: RunInfo,
    /// The games before those played now, and the seconds they took.
    pub head: (Tally<S>, f64),
    /// When the games played now began.
    pub started: Instant,
    /// The threads playing them.
    pub threads: usize,
    /// Who writes the run.
    pub made: Provenance,
}

impl<S: GameStats + 'static> Checkpointer<'_, S> {
    /// Saves the games up to `end`, `played` after the head, as the run's checkpoint.
    pub fn save(&self, end: u64, played: &Tally<S>) -> Result<()> {
        let mut info = self.base.clone();
        info.range.end = end;
        let tally = self.head.0.clone().merge(played.clone())?;
        let timing = Timing {
            elapsed_s: self.head.1 + self.started.elapsed().as_secs_f64(),
            threads: Some(self.threads),
            note: Some(NOTE.into()),
        };
        let run = Run::new(info, tally, timing, self.made.clone())?;
        checkpoint::save(self.dir, end, &|put| run.write_data(put))
    }
}

/// `--checkpoint-minutes`' interval, or `None` for none (0).
pub fn every(minutes: f64) -> Option<Duration> {
    (minutes > 0.0).then(|| Duration::from_secs_f64(minutes * 60.0))
}
