//! [`Run`]: what `simulate` and `merge` return, a run held in memory whatever its game. What
//! was asked and planned ([`RunInfo`]), the tally, the timing, and the summary made once from
//! them; its consumers write it as an output set ([`Run::write`]), print it ([`Run::print`]),
//! draw its charts ([`Run::chart`]) or hand it to Python, and none of them computes it again.

use std::any::Any;
use std::path::Path;

use anyhow::Result;

use super::{chart_of, charts_of, summary_csv_of, Loaded};
use crate::export::run::{print, summarize, write_run};
use crate::games::GameStats;
use crate::model::pretty_json;
use crate::model::report::{Curve, Report, RunInfo, Timing};
use crate::model::summary::{Provenance, Summary};
use crate::stats::histogram::Tally;
use crate::stats::summary::Distribution;
use crate::store::{Dir, OutputSet};
use crate::term::stdout::Print;

/// A run of any game, in memory: nothing of it is written or printed until a consumer asks.
pub struct Run {
    played: Box<dyn Played>,
}

impl std::fmt::Debug for Run {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Run")
            .field("game", &self.info().game)
            .field("games", &self.games())
            .finish_non_exhaustive()
    }
}

impl Run {
    /// The run `info` played as `tally` in `timing`, made by `made` (its provenance).
    pub fn new<S: GameStats + 'static>(
        info: RunInfo,
        tally: Tally<S>,
        timing: Timing,
        made: Provenance,
    ) -> Result<Run> {
        let (summary, histogram) = summarize(&info, &tally, &timing, made)?;
        let summary_json = String::from_utf8(pretty_json(&summary)?)?;
        let histogram_csv = String::from_utf8(histogram)?;
        Ok(Run {
            played: Box::new(Typed {
                info,
                tally,
                timing,
                summary,
                summary_json,
                histogram_csv,
            }),
        })
    }

    /// What was asked and planned: the game, its rules, the seed, the games' indices.
    pub fn info(&self) -> &RunInfo {
        self.played.info()
    }

    /// How long the games took.
    pub fn timing(&self) -> &Timing {
        self.played.timing()
    }

    /// Games played.
    pub fn games(&self) -> u64 {
        self.played.games()
    }

    /// The rounds of all games (`None` for a run of no game): mean with its 95% interval,
    /// spread and quantiles, from the exact counts.
    pub fn rounds(&self) -> Option<Distribution> {
        self.played.rounds()
    }

    /// summary.json's text, as the output set holds it.
    pub fn summary_json(&self) -> &str {
        self.played.texts().0
    }

    /// histogram.csv's text, as the output set holds it.
    pub fn histogram_csv(&self) -> &str {
        self.played.texts().1
    }

    /// Writes the run's output set into `set` (its charts also as SVG with `svg`) and commits it.
    pub fn write(&self, set: OutputSet, svg: bool) -> Result<()> {
        self.played.write_dir(set.dir(), svg)?;
        set.commit()
    }

    /// Writes the run's files into `dir`, a folder of a staged set (a sweep's rule set).
    pub fn write_dir(&self, dir: &Dir, svg: bool) -> Result<()> {
        self.played.write_dir(dir, svg)
    }

    /// Its summary as a JSON value (a sweep's sweep.json holds every rule set's).
    pub fn summary_value(&self) -> Result<serde_json::Value> {
        self.played.summary_value()
    }

    /// The rounds of its games that end and how many did not, for a sweep's charts and table.
    pub fn curve(&self) -> Curve {
        self.played.curve()
    }

    /// Its tally, if its games count `S` (a stopped run played on: its games so far).
    pub fn tally<S: GameStats + 'static>(&self) -> Option<&Tally<S>> {
        let any: &dyn Any = self.played.as_any();
        any.downcast_ref::<Typed<S>>().map(|t| &t.tally)
    }

    /// Puts the run's data files (a checkpoint's: no chart) with `put`.
    pub fn write_data(&self, put: &mut dyn FnMut(&str, &[u8]) -> Result<()>) -> Result<()> {
        self.played.write_data(put)
    }

    /// Prints the run on stdout as `print` says, naming the folder `written` where its set went.
    pub fn print(&self, print: Print, written: Option<&Path>) -> Result<()> {
        self.played.print(print, written)
    }
}

impl Loaded for Run {
    fn chart(&self, name: &str, ext: &str) -> Result<Vec<u8>> {
        self.played.chart(name, ext)
    }

    fn charts(&self) -> Vec<&'static str> {
        self.played.charts()
    }

    fn texts(&self) -> (String, String) {
        let (summary, histogram) = self.played.texts();
        (summary.to_string(), histogram.to_string())
    }

    fn summary_csv(&self) -> Result<String> {
        self.played.summary_csv()
    }
}

/// A run of one game's statistics type, behind [`Run`].
trait Played: Send + Sync {
    fn info(&self) -> &RunInfo;
    fn timing(&self) -> &Timing;
    fn games(&self) -> u64;
    fn rounds(&self) -> Option<Distribution>;
    fn texts(&self) -> (&str, &str);
    fn write_dir(&self, dir: &Dir, svg: bool) -> Result<()>;
    fn summary_value(&self) -> Result<serde_json::Value>;
    fn curve(&self) -> Curve;
    fn as_any(&self) -> &dyn Any;
    fn write_data(&self, put: &mut dyn FnMut(&str, &[u8]) -> Result<()>) -> Result<()>;
    fn print(&self, print: Print, written: Option<&Path>) -> Result<()>;
    fn chart(&self, name: &str, ext: &str) -> Result<Vec<u8>>;
    fn charts(&self) -> Vec<&'static str>;
    fn summary_csv(&self) -> Result<String>;
}

/// A run whose game counts `S`, with its summary made once.
struct Typed<S: GameStats> {
    info: RunInfo,
    tally: Tally<S>,
    timing: Timing,
    summary: Summary<S::Json>,
    summary_json: String,
    histogram_csv: String,
}

impl<S: GameStats + 'static> Played for Typed<S> {
    fn info(&self) -> &RunInfo {
        &self.info
    }

    fn timing(&self) -> &Timing {
        &self.timing
    }

    fn games(&self) -> u64 {
        self.tally.games
    }

    fn rounds(&self) -> Option<Distribution> {
        Report::new(&self.info, &self.tally).rounds
    }

    fn texts(&self) -> (&str, &str) {
        (&self.summary_json, &self.histogram_csv)
    }

    fn write_dir(&self, dir: &Dir, svg: bool) -> Result<()> {
        let report = Report::new(&self.info, &self.tally);
        let histogram = self.histogram_csv.as_bytes();
        write_run(dir, &report, &self.summary, histogram, svg)
    }

    fn summary_value(&self) -> Result<serde_json::Value> {
        Ok(serde_json::to_value(&self.summary)?)
    }

    fn curve(&self) -> Curve {
        Report::new(&self.info, &self.tally).curve()
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn write_data(&self, put: &mut dyn FnMut(&str, &[u8]) -> Result<()>) -> Result<()> {
        let report = Report::new(&self.info, &self.tally);
        crate::export::run::write_data(&report, &self.summary, self.histogram_csv.as_bytes(), put)
    }

    fn print(&self, print_as: Print, written: Option<&Path>) -> Result<()> {
        let report = Report::new(&self.info, &self.tally);
        print(&report, &self.summary, &self.timing, print_as, written)
    }

    fn chart(&self, name: &str, ext: &str) -> Result<Vec<u8>> {
        chart_of(&Report::new(&self.info, &self.tally), name, ext)
    }

    fn charts(&self) -> Vec<&'static str> {
        charts_of(&Report::new(&self.info, &self.tally))
    }

    fn summary_csv(&self) -> Result<String> {
        summary_csv_of(&Report::new(&self.info, &self.tally))
    }
}
