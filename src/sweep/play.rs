//! A sweep played: its rule sets in order, each a run of the same games as `simulate` with its
//! settings ([`run::play`]), held as a value ([`SweepRun`]). Where warsim answers the signals
//! and the sweep is written, the first interrupt stops the rule set being played, which keeps
//! the games it finished, and the sweep with it: what was played is the sweep's value, marked
//! stopped. A resumed sweep goes on from what a stopped one held ([`Start`]).

use std::time::Instant;

use anyhow::Result;

use super::keep::Keeper;
use super::value::SweepRun;
use super::{progress_of, Sweep};
use crate::cancel::Cancel;
use crate::config::setup::WithGame;
use crate::config::RunConfig;
use crate::export::sweep::SweepRow;
use crate::games::Game;
use crate::model::report::Curve;
use crate::model::summary::Provenance;
use crate::run::{self, Head, PlayWith, Saver as _, Slot};
use crate::session::{Session, Signals};
use crate::stats::histogram::Tally;
use crate::store::OutputSet;
use crate::term::progress::Progress;
use crate::value::{Loaded as _, Run};

/// A sweep checked and its rule sets' folders named ([`Sweep::prepare`]), not yet played.
pub struct Prepared<'a> {
    pub(super) sweep: &'a Sweep,
    /// Each rule set's folder.
    pub(super) names: Vec<String>,
}

/// What a sweep goes on from: what a stopped sweep held.
pub struct Start {
    /// Each rule set's run as far as it was played: whole, stopped part way, or not begun.
    pub runs: Vec<Option<Run>>,
    /// The seconds the sweep took before.
    pub elapsed_s: f64,
    /// The command that asked the sweep (its words after `warsim`).
    pub asked: Vec<String>,
}

impl Prepared<'_> {
    /// Plays the sweep under `session`, going on from `start` (`None`: from its beginning).
    /// Played into the staged set `set`, it keeps what it played in the set's staging folder
    /// as it goes ([`Keeper`]); where warsim answers the signals, the first interrupt stops it.
    pub fn play(
        self,
        session: &Session,
        set: Option<&OutputSet>,
        start: Option<Start>,
    ) -> Result<SweepRun> {
        let sweep = self.sweep;
        let (progress, weights) = progress_of(session, sweep, start.is_some())?;
        let start = start.unwrap_or_else(|| Start {
            runs: sweep.rule_sets.iter().map(|_| None).collect(),
            elapsed_s: 0.0,
            asked: session.words(),
        });
        let keeps = session.signals() == Signals::Own && set.is_some();
        let stop = match keeps {
            true => session.search_stop(),
            false => session.cancel().clone(),
        };
        let threads = run::threads(&sweep.run);
        let made = session.provenance();
        let began = (Instant::now(), start.elapsed_s);
        let with = (threads, made.clone());
        let of = (sweep, &self.names[..]);
        let keeper = set.and_then(|set| Keeper::new(set, of, &start.asked, began, with));
        let playing = Playing {
            threads,
            progress: &progress,
            weights: &weights,
            stop: &stop,
            keeps,
            made: &made,
            keeper: keeper.as_ref(),
        };
        let played = playing.play(&self, start.runs)?;
        drop(keeper);
        progress.finish();
        let timing = (start.elapsed_s + began.0.elapsed().as_secs_f64(), threads);
        let names = self.names.clone();
        SweepRun::new(sweep, names, played, timing, made, start.asked)
    }
}

/// What every rule set of a sweep plays with.
struct Playing<'a> {
    threads: usize,
    progress: &'a Progress,
    /// Each rule set's weight in the progress.
    weights: &'a [u64],
    /// What stops the sweep.
    stop: &'a Cancel,
    /// Whether a rule set stopped keeps the games it finished.
    keeps: bool,
    made: &'a Provenance,
    keeper: Option<&'a Keeper<'a>>,
}

impl Playing<'_> {
    /// Plays every rule set of `prepared` in order, going on from `runs`, until the sweep ends
    /// or its stop ends it: the rule sets played, each whole but perhaps the last, with their
    /// rows.
    fn play(
        &self,
        prepared: &Prepared<'_>,
        runs: Vec<Option<Run>>,
    ) -> Result<Vec<(SweepRow, Run)>> {
        let sweep = prepared.sweep;
        let mut offset = 0;
        let mut played = Vec::new();
        let each = (sweep.rule_sets.iter().zip(&prepared.names))
            .zip(self.weights)
            .zip(runs);
        for (i, ((((set, g), name), &weight), had)) in each.enumerate() {
            let whole = had.as_ref().is_some_and(|r| !r.info().stopped());
            if self.stop.is_set() && !whole {
                break;
            }
            let one = One {
                run: &sweep.run,
                with: PlayWith {
                    threads: self.threads,
                    progress: self.progress,
                    slot: Slot { offset, weight },
                    cancel: self.stop,
                    keeps: self.keeps,
                },
                had,
                made: self.made,
                keeper: self.keeper.map(|k| (k, i)),
            };
            let (run, exact) = g.run(one)?;
            offset += run.games().saturating_mul(weight);
            // Stopped before its first game ended: a rule set the sweep did not reach.
            if run.games() == 0 {
                break;
            }
            let whole = !run.info().stopped();
            if let (true, Some(keeper)) = (whole, self.keeper) {
                keeper.kept(i, &run)?;
            }
            let row = SweepRow {
                label: set.label(),
                name: name.clone(),
                summary: run.summary_value()?,
                summary_csv: run.summary_csv()?.into_bytes(),
                curve: Curve {
                    exact,
                    ..run.curve()
                },
                unit: run.info().unit,
            };
            played.push((row, run));
            if !whole {
                break;
            }
        }
        Ok(played)
    }
}

/// Plays one rule set, or goes on with it from where a stopped sweep left it.
struct One<'a> {
    run: &'a RunConfig,
    with: PlayWith<'a>,
    /// Its run as far as a stopped sweep played it.
    had: Option<Run>,
    /// Its provenance.
    made: &'a Provenance,
    /// What keeps the sweep's checkpoints, and the rule set's index in the sweep.
    keeper: Option<(&'a Keeper<'a>, usize)>,
}

impl WithGame for One<'_> {
    /// The rule set's run, and the exact mean rounds its game knows.
    type Output = Result<(Run, Option<f64>)>;

    fn with<G: Game>(self, game: G) -> Result<(Run, Option<f64>)> {
        let exact = game.expected_rounds();
        let One {
            run,
            with,
            had,
            made,
            keeper,
        } = self;
        let head = match had {
            Some(whole) if !whole.info().stopped() => {
                with.progress
                    .inc(whole.games().saturating_mul(with.slot.weight));
                return Ok((whole, exact));
            }
            Some(part) => Head {
                tally: (part.tally::<G::Stats>().cloned())
                    .ok_or_else(|| anyhow::anyhow!("a stopped rule set of another game"))?,
                seconds: part.timing().elapsed_s,
            },
            None => Head::none(game.players()),
        };
        let info = run::plan(&game, run)?;
        let saver = keeper.and_then(|(k, i)| k.saver(i, &info, &head, with.threads));
        // Games a stopped sweep held are saved again at once, in this set's own staging.
        if let (Some(s), None, true) = (&saver, run.precision, head.tally.games > 0) {
            s.save(
                info.range.start + head.tally.games,
                &Tally::new(game.players()),
            )?;
        }
        let saver = saver.as_ref().map(|s| s as _);
        let (info, tally, timing) = run::play(&game, run, info, head, with, saver)?;
        Ok((Run::new(info, tally, timing, made.clone())?, exact))
    }
}
