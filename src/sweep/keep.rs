//! What a sweep played into an output set keeps in the set's staging folder as it goes, so
//! that a SIGKILL, a power loss or a preemption loses at most the games of the rule set being
//! played since its last checkpoint: each rule set that ends whole, its data files in its
//! folder (the set's write adds its charts and page); and a checkpoint of the sweep as a
//! stopped one ([`checkpoint::save`]), its sweep.json naming the rule sets kept, after each of
//! them and every `--checkpoint-minutes` of the one playing, whose games so far lie beside it.
//! `warsim resume DIR` goes on from the newest ([`super::resume`]).

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use anyhow::Result;

use super::value::document;
use super::Sweep;
use crate::export::sweep::Held;
use crate::games::GameStats;
use crate::model::pretty_json;
use crate::model::report::RunInfo;
use crate::model::summary::Provenance;
use crate::run::{Head, Saver};
use crate::stats::histogram::Tally;
use crate::store::{checkpoint, OutputSet};
use crate::value::{Checkpointer, Run};

/// Keeps a sweep's rule sets and checkpoints in the staging folder of the set it is written
/// into.
pub struct Keeper<'a> {
    set: &'a OutputSet,
    sweep: &'a Sweep,
    /// Each rule set's folder.
    names: &'a [String],
    /// `--checkpoint-minutes`.
    minutes: f64,
    threads: usize,
    /// Its provenance.
    made: Provenance,
    /// The command that asked the sweep.
    asked: &'a [String],
    /// How much of each rule set is kept.
    held: Mutex<Vec<Held>>,
    /// Checkpoints saved (their folders are numbered so).
    saves: AtomicU64,
    /// When the sweep began playing now, and the seconds it took before.
    began: (Instant, f64),
}

impl<'a> Keeper<'a> {
    /// What keeps the sweep `sweep` (its rule sets' folders `names`), asked by `asked`,
    /// playing on `threads` since `began`, made by `made`, in `set`'s staging folder; `None`
    /// with `--checkpoint-minutes 0`.
    pub fn new(
        set: &'a OutputSet,
        (sweep, names): (&'a Sweep, &'a [String]),
        asked: &'a [String],
        began: (Instant, f64),
        (threads, made): (usize, Provenance),
    ) -> Option<Keeper<'a>> {
        let minutes = sweep.run.checkpoint_minutes;
        (minutes > 0.0).then(|| Keeper {
            set,
            sweep,
            names,
            minutes,
            threads,
            made,
            asked,
            held: Mutex::new(vec![Held::Missing; names.len()]),
            saves: AtomicU64::new(0),
            began,
        })
    }

    /// Keeps rule set `i`, ended whole as `run`: its data files in its folder, then a
    /// checkpoint that names it kept.
    pub fn kept(&self, i: usize, run: &Run) -> Result<()> {
        let dir = self.set.subdir(&self.names[i])?;
        run.write_data(&mut |name, bytes| dir.write(name, bytes))?;
        self.held.lock().unwrap_or_else(|e| e.into_inner())[i] = Held::Whole;
        self.save(None)
    }

    /// What saves the checkpoints of rule set `i`, planned as `info`, playing on `threads`
    /// after `head` (games played before: a stopped sweep's).
    pub fn saver<S: GameStats>(
        &'a self,
        i: usize,
        info: &RunInfo,
        head: &Head<S>,
        threads: usize,
    ) -> Option<RuleSetSaver<'a, S>> {
        let made = self.made.clone();
        let head = (head.tally.clone(), head.seconds);
        let at = Some(self.set.dir());
        let checkpointer = Checkpointer::of(at, self.minutes, info, head, threads, made)?;
        Some(RuleSetSaver {
            keeper: self,
            i,
            checkpointer,
        })
    }

    /// Saves a checkpoint: the sweep.json of a stopped sweep holding the rule sets kept, and
    /// rule set `partial`'s games so far (its index and stopped run), if any, beside it.
    fn save(&self, partial: Option<(usize, &Run)>) -> Result<()> {
        let mut held = self.held.lock().unwrap_or_else(|e| e.into_inner()).clone();
        if let Some((i, _)) = partial {
            held[i] = Held::Partial;
        }
        let held: Vec<_> = held.into_iter().map(|h| (h, None)).collect();
        let elapsed_s = self.began.1 + self.began.0.elapsed().as_secs_f64();
        let made = self.made.clone();
        let asked = Some(self.asked.to_vec());
        let timing = (elapsed_s, self.threads);
        let doc = document(self.sweep, self.names, &held, timing, made, asked);
        let doc = pretty_json(&doc)?;
        let number = self.saves.fetch_add(1, Ordering::Relaxed) + 1;
        checkpoint::save(self.set.dir(), number, &|put| {
            put("sweep.json", &doc)?;
            match partial {
                Some((_, run)) => run.write_data(put),
                None => Ok(()),
            }
        })
    }
}

/// Saves the checkpoints of the rule set being played: the sweep's, with its games so far.
pub struct RuleSetSaver<'a, S> {
    keeper: &'a Keeper<'a>,
    /// The rule set's index.
    i: usize,
    checkpointer: Checkpointer<'a, S>,
}

impl<S: GameStats + 'static> Saver<S> for RuleSetSaver<'_, S> {
    fn every(&self) -> Duration {
        self.checkpointer.every()
    }

    fn save(&self, end: u64, played: &Tally<S>) -> Result<()> {
        let run = self.checkpointer.run_at(end, played)?;
        self.keeper.save(Some((self.i, &run)))
    }
}
