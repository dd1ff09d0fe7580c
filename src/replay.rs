//! `warsim replay DIR`: plays one game of a run again, any game, from the run's seed and rules
//! as read back by the run reader ([`crate::model::load::load`]): by default its longest game, which
//! must end as the run says it did. (`play war --from DIR --trace` shows a War game round by
//! round.)

use std::io::Write;
use std::path::Path;

use anyhow::Result;
use serde::Serialize;

use crate::config::setup::{self, WithGameType};
use crate::games::Game;
use crate::games::{Outcome, Unit};
use crate::model;
use crate::rng::game_rng;
use crate::stats::summary::{grouped, grouped_in};
use crate::usage;

/// One game of a run played again: what `replay --json` prints and Python's `replay` returns.
#[derive(Debug, Serialize)]
pub struct Replayed {
    /// The game's name.
    pub game: String,
    /// Its rules in a line.
    pub description: String,
    /// The run's base seed.
    pub seed: u64,
    /// The game's index in the run (for an exact run, the deal's number).
    pub index: u64,
    /// Whether `index` numbers a deal of every deal (a run of `exact`), not a game drawn from
    /// the seed.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub deal: bool,
    /// Its length, in `unit`.
    pub rounds: u64,
    /// What `rounds` count: the game's unit (`cards`, `turns`, `rounds`).
    pub unit: &'static str,
    /// The same unit, to count in.
    #[serde(skip)]
    pub counts: Unit,
    /// How it ended (`p1`, `loop`, `capped`, ...).
    pub outcome: String,
    /// Where a loop starts, for a game that loops.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub loop_from: Option<u64>,
    /// The loop's length, for a game that loops.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cycle_len: Option<u64>,
}

struct Replay<'a> {
    dir: &'a Path,
    index: Option<u64>,
}

impl WithGameType for Replay<'_> {
    type Output = Result<Replayed>;

    fn with<G: Game>(self) -> Result<Replayed> {
        let part = model::load::load::<G>(self.dir)?;
        let info = &part.info;
        let replaying = part.replaying(self.index).map_err(|e| e.after("replay "))?;
        let index = replaying.index;
        let game = &part.game;
        let mut scratch = game.scratch();
        let result = if replaying.deal {
            game.play_deal_number(index, &mut scratch)
                .ok_or_else(|| usage!("replay: {} deals cannot be replayed", G::NAME))?
        } else {
            game.play(&mut game_rng(info.seed, index), &mut scratch)
        };
        replaying
            .check(self.dir, result.rounds)
            .map_err(|e| e.after("replay "))?;
        Ok(Replayed {
            game: G::NAME.into(),
            description: game.describe(),
            seed: info.seed,
            index,
            deal: replaying.deal,
            rounds: result.rounds,
            unit: G::UNIT.many,
            counts: G::UNIT,
            outcome: result.outcome.name(),
            loop_from: result.cycle.map(|c| c.loop_from),
            cycle_len: result.cycle.map(|c| c.cycle_len),
        })
    }
}

/// Plays game `index` of the run in `dir` again (`None`: its longest), and checks it ends as
/// the run says: the typed call under `replay` and Python's `replay`.
pub fn replayed(dir: &Path, index: Option<u64>) -> Result<Replayed> {
    let name = model::load::game_of(dir)?;
    setup::by_name(&name, Replay { dir, index }).unwrap_or_else(|| {
        Err(usage!(
            "{}: summary.json names game {name:?}, which is none of {}",
            dir.display(),
            setup::names().join(", ")
        )
        .into())
    })
}

/// `replay DIR [--game I] [--json]`.
pub fn run(dir: &Path, index: Option<u64>, json: bool) -> Result<()> {
    let r = replayed(dir, index)?;
    if json {
        crate::term::stdout::print_json(&r)?;
    } else {
        let mut out = crate::term::stdout::out();
        let ending = match r.outcome.as_str() {
            "loop" => format!(
                "loops (from {} {}, every {})",
                r.counts.one,
                grouped(r.loop_from.unwrap_or(0)),
                r.counts.count(r.cycle_len.unwrap_or(0))
            ),
            o => match Outcome::parse(o, 26) {
                Some(Outcome::Player(p)) => format!("player {} wins", u32::from(p) + 1),
                // A capped game did not end: it was stopped at the cap.
                Some(Outcome::Capped) => "stopped at the cap, undecided,".to_string(),
                _ => format!("ends: {o}"),
            },
        };
        // An exact run's game i is deal number i, which no seed draws.
        let which = if r.deal {
            format!("deal number {} of every deal", r.index)
        } else {
            format!("game {} of seed {}", r.index, r.seed)
        };
        writeln!(
            out,
            "{} {which} ({}): {ending} after {}",
            r.game,
            grouped_in(&r.description),
            r.counts.count(r.rounds)
        )?;
        out.flush()?;
    }
    Ok(())
}
