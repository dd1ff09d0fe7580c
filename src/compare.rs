//! `compare DIR... --out DIR`: the survival curves of several runs on one chart, and every pair
//! of runs tested with the two-sample Kolmogorov–Smirnov test on their exact histograms.
//!
//! Each directory is read and checked as `merge` reads a shard (its histogram must be the one
//! its summary describes), as the game its summary names. The test compares the rounds of all
//! games, loops and capped games at the rounds they were stopped at, as histogram.csv has them.

use std::path::{Path, PathBuf};

use anyhow::Result;

use crate::config::setup::{self, WithGameType};
use crate::export::compare::{CompareJson, PairJson, PairedJson, Run, RunJson};
use crate::games::Game;
use crate::model;
use crate::model::report::Report;
use crate::rng::game_rng;
use crate::session::Session;
use crate::stats::tail::{holm, Ks};
use crate::usage;
use crate::value::Comparison;

/// What `compare` reads and where it writes (the command line's and Python's `compare`, which
/// write a set).
#[derive(Clone, Debug)]
pub struct Compare {
    /// The runs' directories.
    pub dirs: Vec<PathBuf>,
    /// Where the comparison goes.
    pub out: PathBuf,
    /// Whether the chart is also written as SVG.
    pub svg: bool,
}

/// Reads the run in a directory as the game type its summary names.
struct Load<'a>(&'a Path);

impl WithGameType for Load<'_> {
    type Output = Result<Run>;
    fn with<G: Game>(self) -> Result<Run> {
        let part = model::load::load::<G>(self.0)?;
        let report = Report::new(&part.info, &part.tally);
        Ok(Run {
            dir: self.0.to_path_buf(),
            game: part.info.game.clone(),
            description: part.info.description.clone(),
            rules: part.info.rules.clone(),
            seed: part.info.seed,
            span: part.info.range.clone(),
            exhaustive: part.info.exhaustive,
            games: part.tally.games,
            mean: report.rounds.as_ref().map(|d| d.mean),
            unit: G::UNIT,
            counts: part.tally.rounds.counts_where(|_| true).collect(),
            curve: report.curve(),
        })
    }
}

/// Refuses fewer than two runs: there is nothing to compare (said before an output set is
/// begun or a run read).
pub fn enough(dirs: &[PathBuf]) -> Result<()> {
    if dirs.len() < 2 {
        return Err(usage!("compare needs at least two run directories").into());
    }
    Ok(())
}

/// `compare DIRS`: the runs read and every pair tested, made by `session` (its provenance);
/// nothing written or printed.
pub fn compared(session: &Session, dirs: &[PathBuf]) -> Result<Comparison> {
    enough(dirs)?;
    let runs = dirs
        .iter()
        .map(|dir| read(dir))
        .collect::<Result<Vec<Run>>>()?;
    comparable(&runs)?;
    let ks = pairs(&runs)?;
    let doc = CompareJson {
        runs: runs
            .iter()
            .map(|r| RunJson {
                dir: r.dir.display().to_string(),
                game: r.game.clone(),
                description: r.description.clone(),
                rules: r.rules.clone(),
                unit: r.unit.many.to_string(),
                seed: r.seed,
                first_game: r.span.start,
                end_game: r.span.end,
                games: r.games,
                mean: r.mean,
            })
            .collect(),
        pairs_tested: ks.len(),
        ks,
        provenance: session.provenance(),
    };
    Ok(Comparison::new(doc, runs))
}

/// The run in `dir`, read as the game its summary names.
fn read(dir: &Path) -> Result<Run> {
    let game = model::load::game_of(dir)?;
    setup::by_name(&game, Load(dir)).unwrap_or_else(|| {
        Err(usage!(
            "{}: summary.json names game {game:?}, which warsim does not know",
            dir.display()
        )
        .into())
    })
}

/// The rule settings that make a run's deck: a different deck is a different distribution of
/// deals, whose lengths are not the same quantity.
const DECK: [&str; 4] = ["ranks", "suits", "faces", "copies"];

/// A run as a refusal names it: its folder, game, deck and unit.
fn named(r: &Run) -> String {
    let deck: Vec<String> = (DECK.iter())
        .filter_map(|k| Some(format!("{k} {}", r.rules.get(k).filter(|v| !v.is_null())?)))
        .collect();
    let deck = match deck.is_empty() {
        true => String::new(),
        false => format!(", {}", deck.join(" ")),
    };
    format!("{} ({}{deck}, in {})", r.dir.display(), r.game, r.unit.many)
}

/// Refuses what has no meaning to compare: runs of different games, decks or units (their
/// lengths are different quantities on one axis), and a run against itself (the same folder,
/// or the same games of the same rules and seed, which a test can only find equal).
fn comparable(runs: &[Run]) -> Result<()> {
    for (i, a) in runs.iter().enumerate() {
        for b in &runs[i + 1..] {
            let deck = |r: &Run| DECK.map(|k| r.rules.get(k).cloned());
            if a.game != b.game || a.unit != b.unit || deck(a) != deck(b) {
                return Err(usage!(
                    "compare: {} and {} are not the same game on the same deck: their lengths \
                     are different quantities, not compared",
                    named(a),
                    named(b)
                )
                .into());
            }
            let same_dir = match (a.dir.canonicalize(), b.dir.canonicalize()) {
                (Ok(x), Ok(y)) => x == y,
                _ => a.dir == b.dir,
            };
            let same_run = a.rules == b.rules && a.seed == b.seed && a.span == b.span;
            if same_dir || same_run {
                return Err(usage!(
                    "compare: {} and {} are the same run (seed {}, games {}..{}, the same \
                     rules): a run against itself has nothing to compare",
                    a.dir.display(),
                    b.dir.display(),
                    a.seed,
                    a.span.start,
                    a.span.end
                )
                .into());
            }
        }
    }
    Ok(())
}

/// How many deals two runs of one game and deck played both: game i is dealt from (seed, i)
/// alone, so with one seed, and rules that deal alike, their common game indices. The number
/// of players is one of those rules: the same shuffle split among 3 players is another deal.
fn shared_deals(x: &Run, y: &Run) -> u64 {
    let alike = ["deal", "p1_cards", "players"]
        .iter()
        .all(|k| x.rules.get(k) == y.rules.get(k));
    let common = x
        .span
        .end
        .min(y.span.end)
        .saturating_sub(x.span.start.max(y.span.start));
    if x.seed == y.seed && alike {
        common
    } else {
        0
    }
}

/// The lengths of games `range` of the run in `dir`, played again from its seed and rules
/// (game i is dealt and played from (seed, i) alone), in index order.
struct Lengths<'a> {
    dir: &'a Path,
    range: std::ops::Range<u64>,
}

impl WithGameType for Lengths<'_> {
    type Output = Result<Vec<u64>>;
    fn with<G: Game>(self) -> Result<Vec<u64>> {
        let part = model::load::load::<G>(self.dir)?;
        let (game, seed) = (&part.game, part.info.seed);
        let mut scratch = game.scratch();
        Ok(self
            .range
            .map(|i| game.play(&mut game_rng(seed, i), &mut scratch).rounds)
            .collect())
    }
}

/// The paired analysis of two runs over the deals both played, both re-played in lockstep
/// (common random numbers: each deal's difference leaves out what the deal alone decides).
fn paired(x: &Run, y: &Run) -> Result<Option<PairedJson>> {
    let start = x.span.start.max(y.span.start);
    let end = x.span.end.min(y.span.end);
    if x.exhaustive || y.exhaustive || shared_deals(x, y) == 0 {
        return Ok(None);
    }
    let lengths = |r: &Run| {
        let name = r.game.clone();
        setup::by_name(
            &name,
            Lengths {
                dir: &r.dir,
                range: start..end,
            },
        )
        .unwrap_or_else(|| Err(usage!("{}: no game {name:?}", r.dir.display()).into()))
    };
    let (a, b) = (lengths(x)?, lengths(y)?);
    Ok(Some(PairedJson::new(start, end, &a, &b)))
}

/// Every pair of `runs` tested with the two-sample Kolmogorov–Smirnov test, with Holm's
/// adjustment over all of them; runs that played the same deals said to.
fn pairs(runs: &[Run]) -> Result<Vec<PairJson>> {
    let mut pairs = Vec::new();
    for a in 0..runs.len() {
        for b in a + 1..runs.len() {
            let ks = Ks::new(&runs[a].counts, &runs[b].counts)
                .ok_or_else(|| usage!("{}: no games to compare", runs[a].dir.display()))?;
            let (x, y) = (&runs[a], &runs[b]);
            pairs.push(PairJson {
                a,
                b,
                d: ks.d,
                p: ks.p,
                p_holm: ks.p,
                shared_deals: shared_deals(x, y),
                paired: paired(x, y)?,
            });
        }
    }
    let raw: Vec<f64> = pairs.iter().map(|p| p.p).collect();
    for (p, adjusted) in pairs.iter_mut().zip(holm(&raw)) {
        p.p_holm = adjusted;
    }
    Ok(pairs)
}
