//! What the commands return: a run held in memory ([`Run`], of `simulate`, `merge` and the
//! enumerations of `exact`), an answer computed rather than played ([`Answer`], `exact`'s
//! Markov chain and flawless game), the runs `compare` read and tested ([`Comparison`]) and a
//! search's report ([`Searched`]). Their consumers write them as output sets, print them,
//! draw their charts or hand them to Python; none computes them again. A run still playing
//! saves itself as a stopped `Run` at its checkpoints ([`Checkpointer`]).

mod answer;
mod checkpointed;
mod compare;
mod run;
mod search;

use anyhow::Result;

pub use answer::{Answer, Solved};
pub use checkpointed::Checkpointer;
pub use compare::Comparison;
pub use run::Run;
pub use search::{Asked, Searched};

use crate::charts::render::Sink;
use crate::charts::RunChart;
use crate::games::GameStats;
use crate::model::report::Report;
use crate::usage;

/// A run in memory, whatever its game, as the Python package holds it: a [`Run`] just played,
/// or one read back from its folder ([`crate::api::load`]).
pub trait Loaded: Send {
    /// Chart `name` as PNG or SVG bytes (`ext`).
    fn chart(&self, name: &str, ext: &str) -> Result<Vec<u8>>;
    /// The names of its charts.
    fn charts(&self) -> Vec<&'static str>;
    /// Its summary.json and histogram.csv, as its output set holds them.
    fn texts(&self) -> (String, String);
    /// Its summary.csv, as its output set holds it (made by the writer's code, when asked:
    /// Python's `Result.summary_frame()`).
    fn summary_csv(&self) -> Result<String>;
}

/// summary.csv of the run `r`, as text.
pub(crate) fn summary_csv_of<S: GameStats>(r: &Report<S>) -> Result<String> {
    Ok(String::from_utf8(crate::export::csv::summary(r)?)?)
}

/// Chart `name` of the run `r` as the bytes of a PNG file, or of an SVG file when `ext` is
/// `svg`: the command line's file to the byte, drawn in memory.
pub(crate) fn chart_of<S: GameStats>(r: &Report<S>, name: &str, ext: &str) -> Result<Vec<u8>> {
    let Some(chart) = RunChart::of(r).into_iter().find(|c| c.stem() == name) else {
        return Err(usage!(
            "no chart {name:?}: this run's charts are {}",
            charts_of(r).join(", ")
        )
        .into());
    };
    let mut bytes = Vec::new();
    if ext == "svg" {
        let mut text = String::new();
        chart.draw(r, Sink::Svg(&mut text))?;
        bytes = text.into_bytes();
    } else {
        chart.draw(r, Sink::Png(&mut bytes))?;
    }
    Ok(bytes)
}

/// The names of the charts of run `r`.
pub(crate) fn charts_of<S: GameStats>(r: &Report<S>) -> Vec<&'static str> {
    RunChart::of(r).into_iter().map(RunChart::stem).collect()
}
