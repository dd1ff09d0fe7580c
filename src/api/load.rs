//! `load`: a run folder read back by the one reader ([`model::load::load`]) as the game its
//! summary names, with its charts drawn by the same code as the command line's files
//! ([`RunChart::draw`]).

use std::path::Path;

use anyhow::{Context, Result};

use crate::charts::render::Sink;
use crate::charts::RunChart;
use crate::face::{self, GameCli, WithGameType};
use crate::games::Game;
use crate::model::report::Report;
use crate::model::{self, load::Part};
use crate::store::private::PrivateDir;
use crate::usage;

/// The run in folder `dir` (written by `simulate`, `exact` or `merge`), read and checked as
/// `merge` reads a shard.
pub fn load(dir: &Path) -> Result<Box<dyn Loaded>> {
    let game = model::load::game_of(dir)?;
    face::by_name(&game, Load(dir))
        .unwrap_or_else(|| Err(usage!("{}: no game {game:?}", dir.display()).into()))
}

/// A run read back, whatever its game: its files' texts and its charts.
pub trait Loaded: Send {
    /// Chart `name` as PNG or SVG bytes (`ext`).
    fn chart(&self, name: &str, ext: &str) -> Result<Vec<u8>>;
    /// The names of its charts.
    fn charts(&self) -> Vec<&'static str>;
    /// Its summary.json and histogram.csv as read, with everything else of the same set.
    fn texts(&self) -> (String, String);
}

impl<G: Game> Loaded for Part<G> {
    fn chart(&self, name: &str, ext: &str) -> Result<Vec<u8>> {
        let r = Report::new(&self.info, &self.tally);
        let charts = RunChart::of(&r);
        let Some(chart) = charts.into_iter().find(|c| c.stem() == name) else {
            return Err(usage!(
                "no chart {name:?}: this run's charts are {}",
                self.charts().join(", ")
            )
            .into());
        };
        rendered(ext, |path| chart.draw(&r, Sink::File(path)))
    }

    fn charts(&self) -> Vec<&'static str> {
        let r = Report::new(&self.info, &self.tally);
        RunChart::of(&r).into_iter().map(RunChart::stem).collect()
    }

    fn texts(&self) -> (String, String) {
        (self.summary_json.clone(), self.histogram_csv.clone())
    }
}

/// What `draw` writes into a file named `chart.ext`, as bytes: the chart code draws into
/// files, and the file is the command line's to the byte. The file lies in a private folder
/// of its own ([`PrivateDir`]): a name in the shared temporary folder that another user could
/// guess would let them plant a link there and have the chart written through it.
fn rendered(ext: &str, draw: impl FnOnce(&Path) -> Result<()>) -> Result<Vec<u8>> {
    let dir = PrivateDir::new("warsim-chart")?;
    let path = dir.path().join(format!("chart.{ext}"));
    draw(&path).and_then(|()| {
        std::fs::read(&path).with_context(|| format!("cannot read {}", path.display()))
    })
}

/// Reads the run in `dir` as game `G`'s.
struct Load<'a>(&'a Path);

impl WithGameType for Load<'_> {
    type Output = Result<Box<dyn Loaded>>;

    fn with<G: GameCli>(self) -> Result<Box<dyn Loaded>> {
        Ok(Box::new(model::load::load::<G>(self.0)?))
    }
}
