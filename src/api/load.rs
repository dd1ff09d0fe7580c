//! `load`: a run folder read back by the one reader ([`model::load::load`]) as the game its
//! summary names, with its charts drawn by the same code as the command line's files
//! ([`crate::charts::RunChart::draw`]).

use std::path::Path;

use anyhow::Result;

use crate::config::setup::{self, WithGameType};
use crate::games::Game;
use crate::model::report::Report;
use crate::model::{self, load::Part};
use crate::usage;
use crate::value::{chart_of, charts_of, summary_csv_of, Loaded};

/// The run in folder `dir` (written by `simulate`, `exact` or `merge`), read and checked as
/// `merge` reads a shard.
pub fn load(dir: &Path) -> Result<Box<dyn Loaded>> {
    of_folder(dir, Load(dir))
}

/// `task` done for the game type the run in folder `dir` names (`load`, `resume`); a game no
/// list holds is a usage error naming the folder.
pub(super) fn of_folder<R, T: WithGameType<Output = Result<R>>>(dir: &Path, task: T) -> Result<R> {
    let game = model::load::game_of(dir)?;
    setup::by_name(&game, task)
        .unwrap_or_else(|| Err(usage!("{}: no game {game:?}", dir.display()).into()))
}

impl<G: Game> Loaded for Part<G> {
    fn chart(&self, name: &str, ext: &str) -> Result<Vec<u8>> {
        chart_of(&Report::new(&self.info, &self.tally), name, ext)
    }

    fn charts(&self) -> Vec<&'static str> {
        charts_of(&Report::new(&self.info, &self.tally))
    }

    fn texts(&self) -> (String, String) {
        (self.summary_json.clone(), self.histogram_csv.clone())
    }

    fn summary_csv(&self) -> Result<String> {
        summary_csv_of(&Report::new(&self.info, &self.tally))
    }
}

/// Reads the run in `dir` as game `G`'s.
struct Load<'a>(&'a Path);

impl WithGameType for Load<'_> {
    type Output = Result<Box<dyn Loaded>>;

    fn with<G: Game>(self) -> Result<Box<dyn Loaded>> {
        Ok(Box::new(model::load::load::<G>(self.0)?))
    }
}
