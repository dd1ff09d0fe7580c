//! `compare DIR... --out DIR`: the survival curves of several runs on one chart, and every pair
//! of runs tested with the two-sample Kolmogorov–Smirnov test on their exact histograms.
//!
//! Each directory is read and checked as `merge` reads a shard (its histogram must be the one
//! its summary describes), as the game its summary names. The test compares the rounds of all
//! games, loops and capped games at the rounds they were stopped at, as histogram.csv has them.

use std::path::{Path, PathBuf};

use anyhow::Result;

use crate::export::compare::{self, CompareJson, PairJson, Run, RunJson};
use crate::face::{self, GameCli, WithGameType};
use crate::model;
use crate::model::report::Report;
use crate::session::Session;
use crate::stats::tail::Ks;
use crate::store::Kind;
use crate::term::stdout::Print;
use crate::usage;

/// What `compare` reads and where it writes.
#[derive(Clone, Debug)]
pub struct Compare {
    /// The runs' directories.
    pub dirs: Vec<PathBuf>,
    /// Where the comparison goes.
    pub out: PathBuf,
    /// What is printed when it is written.
    pub print: Print,
    /// Whether the chart is also written as SVG.
    pub svg: bool,
}

/// Reads the run in a directory as the game type its summary names.
struct Load<'a>(&'a Path);

impl WithGameType for Load<'_> {
    type Output = Result<Run>;
    fn with<G: GameCli>(self) -> Result<Run> {
        let part = model::load::load::<G>(self.0)?;
        let report = Report::new(&part.info, &part.tally);
        Ok(Run {
            dir: self.0.to_path_buf(),
            game: part.info.game.clone(),
            description: part.info.description.clone(),
            games: part.tally.games,
            mean: report.rounds.as_ref().map(|d| d.mean),
            unit: G::UNIT,
            counts: part.tally.rounds.counts_where(|_| true).collect(),
            curve: report.curve(),
        })
    }
}

/// `compare DIRS --out OUT`: the runs read, every pair tested, the set written, then printed.
pub fn run(session: &Session, c: &Compare) -> Result<()> {
    let (dirs, out) = (&c.dirs, &c.out);
    if dirs.len() < 2 {
        return Err(usage!("compare needs at least two run directories").into());
    }
    let set = session.begin(out, Kind::Compare, dirs)?;
    let runs = dirs
        .iter()
        .map(|dir| read(dir))
        .collect::<Result<Vec<Run>>>()?;
    let doc = CompareJson {
        runs: runs
            .iter()
            .map(|r| RunJson {
                dir: r.dir.display().to_string(),
                game: r.game.clone(),
                description: r.description.clone(),
                games: r.games,
                mean: r.mean,
            })
            .collect(),
        ks: pairs(&runs)?,
        provenance: session.provenance(),
    };
    compare::write(set.dir(), &doc, &runs, c.svg)?;
    set.commit()?;
    compare::print(&doc, out, c.print)
}

/// The run in `dir`, read as the game its summary names.
fn read(dir: &Path) -> Result<Run> {
    let game = model::load::game_of(dir)?;
    face::by_name(&game, Load(dir)).unwrap_or_else(|| {
        Err(usage!(
            "{}: summary.json names game {game:?}, which warsim does not know",
            dir.display()
        )
        .into())
    })
}

/// Every pair of `runs` tested with the two-sample Kolmogorov–Smirnov test.
fn pairs(runs: &[Run]) -> Result<Vec<PairJson>> {
    let mut pairs = Vec::new();
    for a in 0..runs.len() {
        for b in a + 1..runs.len() {
            let ks = Ks::new(&runs[a].counts, &runs[b].counts)
                .ok_or_else(|| usage!("{}: no games to compare", runs[a].dir.display()))?;
            pairs.push(PairJson {
                a,
                b,
                d: ks.d,
                p: ks.p,
            });
        }
    }
    Ok(pairs)
}
