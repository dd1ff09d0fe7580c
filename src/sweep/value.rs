//! [`SweepRun`]: what `sweep` returns, a sweep held in memory: every rule set played, each as
//! its [`Run`] with the row the sweep's own files show of it, and sweep.json's document made
//! once from them. Its consumers write it as an output set ([`SweepRun::write`]), print it
//! ([`SweepRun::print`]) or hand its documents to Python; none of them plays or computes it
//! again.

use std::path::Path;

use anyhow::Result;
use serde_json::Value;

use super::Sweep;
use crate::error::Interrupted;
use crate::export::sweep::{self as export, Held, RuleSetJson, SweepCharts, SweepJson, SweepRow};
use crate::model::pretty_json;
use crate::model::summary::Provenance;
use crate::model::sweep::RuleSet;
use crate::stats::summary::{counted, grouped};
use crate::store::OutputSet;
use crate::term::stdout::Print;
use crate::value::Run;

/// A sweep played, whole or stopped part way: nothing of it is written or printed until a
/// consumer asks.
pub struct SweepRun {
    /// The rule sets played, in order, each whole but perhaps the last: their rows.
    rows: Vec<SweepRow>,
    /// Their runs.
    runs: Vec<Run>,
    /// sweep.json.
    doc: SweepJson,
    /// The title of its charts, page and summary.
    title: String,
    /// Every rule set, played or not, and the number of values of each axis: the charts'
    /// layout.
    sets: Vec<RuleSet>,
    lens: Vec<usize>,
    /// The one axis, when only one varies and its values are numbers.
    numeric: Option<String>,
}

impl SweepRun {
    /// The sweep `sweep` (its rule sets' folders `names`) as `played`, in `timing` (seconds,
    /// threads), made by `made` and asked by the command `asked`.
    pub(super) fn new(
        sweep: &Sweep,
        names: Vec<String>,
        played: Vec<(SweepRow, Run)>,
        timing: (f64, usize),
        made: Provenance,
        asked: Vec<String>,
    ) -> Result<SweepRun> {
        let n = sweep.rule_sets.len();
        let stopped = played.len() < n || played.last().is_some_and(|p| p.1.info().stopped());
        let held: Vec<(Held, Option<Value>)> = (0..n)
            .map(|i| match played.get(i) {
                Some((row, run)) if run.info().stopped() => {
                    (Held::Partial, Some(row.summary.clone()))
                }
                Some((row, _)) => (Held::Whole, Some(row.summary.clone())),
                None => (Held::Missing, None),
            })
            .collect();
        let asked = stopped.then_some(asked);
        let doc = document(sweep, &names, &held, timing, made, asked);
        let many = played.first().map_or("rounds", |p| p.0.unit.many);
        let axes = &sweep.axes;
        let numeric = match &axes[..] {
            [a] if a.1.iter().all(|v| v.parse::<f64>().is_ok()) => Some(crate::error::long(&a.0)),
            _ => None,
        };
        let (rows, runs) = played.into_iter().unzip();
        Ok(SweepRun {
            rows,
            runs,
            doc,
            title: super::title(sweep, many),
            sets: sweep.rule_sets.iter().map(|s| s.0.clone()).collect(),
            lens: axes.iter().map(|a| a.1.len()).collect(),
            numeric,
        })
    }

    /// The runs of the rule sets played, in order.
    pub fn runs(&self) -> &[Run] {
        &self.runs
    }

    /// Whether an interrupt stopped it before every rule set was played whole.
    pub fn stopped(&self) -> bool {
        self.doc.stopped
    }

    /// sweep.json's text, as the output set holds it.
    pub fn sweep_json(&self) -> Result<String> {
        Ok(String::from_utf8(pretty_json(&self.doc)?)?)
    }

    /// sweep.csv's text, as the output set holds it.
    pub fn sweep_csv(&self) -> Result<String> {
        Ok(String::from_utf8(export::sweep_csv(&self.rows)?)?)
    }

    /// Writes the sweep's output set into `set` (its charts also as SVG with `svg`): a folder
    /// per rule set played, then the sweep's own files; and commits it. A sweep stopped before
    /// any game ended has nothing to write: refused as interrupted, `set` dropped unwritten.
    pub fn write(&self, set: OutputSet, svg: bool) -> Result<()> {
        if self.runs.is_empty() {
            let nothing = "interrupted before the sweep's first game finished; nothing written";
            return Err(Interrupted(nothing.into()).into());
        }
        for (row, run) in self.rows.iter().zip(&self.runs) {
            run.write_dir(&set.subdir(&row.name)?, svg)?;
        }
        let drawn = SweepCharts {
            title: &self.title,
            sets: &self.sets,
            lens: self.lens.clone(),
            numeric: self.numeric.as_deref(),
        };
        export::write(set.dir(), &self.doc, &self.rows, &drawn, svg)?;
        set.commit()
    }

    /// Prints the sweep on stdout as `print` says, naming the folder `written` where its set
    /// went.
    pub fn print(&self, print: Print, written: Option<&Path>) -> Result<()> {
        let (doc, rows) = (&self.doc, &self.rows);
        export::print(print, doc, rows, &self.title, doc.elapsed_s, written)
    }

    /// What a stopped sweep holds, in words (`1 of 4 rule sets whole; war-down 3 part way:
    /// 1,200 of its 3,000 games; 2 not begun`); `None` for a sweep played whole.
    pub fn held(&self) -> Option<String> {
        if !self.stopped() {
            return None;
        }
        let n = self.doc.rule_sets.len();
        let count = |h: Held| {
            self.doc
                .rule_sets
                .iter()
                .filter(|r| r.held == Some(h))
                .count()
        };
        let mut said = format!(
            "{} of {} whole",
            count(Held::Whole),
            counted(n as u64, "rule set")
        );
        let part = (self.rows.last().zip(self.runs.last())).filter(|(_, r)| r.info().stopped());
        if let Some((row, run)) = part {
            let info = run.info();
            let asked = info.planned_end() - info.range.start;
            said.push_str(&format!(
                "; {} part way: {} of its {} games",
                row.label,
                grouped(run.games()),
                grouped(asked)
            ));
        }
        match count(Held::Missing) {
            0 => {}
            k => said.push_str(&format!("; {k} not begun")),
        }
        Some(said)
    }
}

/// sweep.json of the sweep `sweep` (its rule sets' folders `names`) holding each rule set as
/// `held` says (with its summary, where given), played in `timing` (seconds, threads), made by
/// `made`; stopped, with the command `asked` that `warsim resume` plays the rest of.
pub(super) fn document(
    sweep: &Sweep,
    names: &[String],
    held: &[(Held, Option<Value>)],
    timing: (f64, usize),
    made: Provenance,
    asked: Option<Vec<String>>,
) -> SweepJson {
    let run0 = &sweep.run;
    let stopped = asked.is_some();
    SweepJson {
        game: sweep.game.clone(),
        games: run0.precision.is_none().then_some(sweep.per_set()),
        precision: run0.precision,
        seed: run0.seed,
        varying: sweep
            .axes
            .iter()
            .map(|a| crate::error::long(&a.0))
            .collect(),
        stopped,
        asked,
        rule_sets: (sweep.rule_sets.iter().zip(names).zip(held))
            .map(|(((set, _), name), (h, summary))| RuleSetJson {
                name: name.clone(),
                label: set.label(),
                settings: set
                    .settings
                    .iter()
                    .map(|(k, v)| (k.clone(), Value::String(v.clone())))
                    .collect(),
                held: stopped.then_some(*h),
                summary: summary.clone(),
            })
            .collect(),
        elapsed_s: timing.0,
        threads: timing.1,
        provenance: made,
    }
}
