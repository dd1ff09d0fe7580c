//! What a run is asked to do, as plain data: built once from the command line (`cli`), read by
//! `run`, `exact` and `sweep`. Nothing here is a command-line type, so another front end (the
//! Python package) can build one too.

use std::path::PathBuf;

use crate::error::UsageError;
use crate::estimate::MaxHours;
use crate::sim::shard::Shard;
use crate::term::progress::When;
use crate::term::stdout::Print;
use warsim_core::error::{setting, setting_alone};
use warsim_core::usage_of;

/// With `--precision`, the most games played without `--max-games`.
pub const DEFAULT_MAX_GAMES: u64 = 100_000_000;

/// The run options of `simulate`, `exact` and `sweep`.
#[derive(Clone, Debug)]
pub struct RunConfig {
    /// Games of the run; with `precision`, those before the first check (`None`: the default).
    pub games: Option<u64>,
    /// Play until the 95% interval of the mean rounds is at most ± this.
    pub precision: Option<f64>,
    /// With `precision`, the most games played.
    pub max_games: u64,
    /// Base seed: game i draws from (seed, i) alone.
    pub seed: u64,
    /// Worker threads (`None`: every core).
    pub threads: Option<u32>,
    /// Where the output set goes.
    pub out: Option<PathBuf>,
    /// What is printed on stdout when the run is done.
    pub print: Print,
    /// Also write every chart as SVG.
    pub svg: bool,
    /// How progress is shown.
    pub progress: When,
    /// The bound on a run's estimated time.
    pub max_hours: MaxHours,
    /// The slice of the games this run plays.
    pub shard: Option<Shard>,
}

impl Default for RunConfig {
    /// A run asked for nothing but its game: `simulate`'s defaults (a million games, seed 0,
    /// every core, no output set, the summary printed, progress where a terminal shows it), with
    /// no bound on its estimated time; each front end sets what it was asked.
    fn default() -> RunConfig {
        RunConfig {
            games: None,
            precision: None,
            max_games: DEFAULT_MAX_GAMES,
            seed: 0,
            threads: None,
            out: None,
            print: Print::Text,
            svg: false,
            progress: When::Auto,
            max_hours: MaxHours(None),
            shard: None,
        }
    }
}

impl RunConfig {
    /// Refuses output options that would do nothing: `--svg` writes SVG files into the output
    /// set, so without `--out` it would be ignored without a word; `--quiet` without `--out`
    /// would play the games and show nothing.
    pub fn check_outputs(&self) -> Result<(), UsageError> {
        if self.svg && self.out.is_none() {
            return Err(usage_of![
                setting_alone("svg"),
                " writes the charts as SVG files into the output directory: add ",
                setting("out", "DIR"),
            ]);
        }
        if self.print == Print::Nothing && self.out.is_none() {
            return Err(usage_of![
                setting_alone("quiet"),
                " prints nothing, so without ",
                setting("out", "DIR"),
                " the run would leave no result: add ",
                setting("out", "DIR"),
                " (the files are then the result)",
            ]);
        }
        Ok(())
    }
}
