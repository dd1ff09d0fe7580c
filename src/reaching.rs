//! `search bmn --reaching DEAL`: the command's face over the core's walk backward
//! (`warsim_core::games::bmn::search::reaching`): every position whose game enters the cycle
//! DEAL's game enters (its basin), and the balanced deals among them, each a command that
//! `play bmn --deal` replays, given as a [`Searched`] that its consumers write and print
//! ([`crate::export::search`]); each depth noted as it is done with `--progress`.

use std::time::Instant;

use anyhow::Result;

use crate::games::bmn::backward::Step;
use crate::games::bmn::search::reaching::Walk;
use crate::games::bmn::search::report::SearchReport;
use crate::games::bmn::Bmn;
use crate::games::Game;
use crate::search::replay::Say;
use crate::session::Session;
use crate::stats::summary::grouped;
use crate::term::progress::note;
use crate::value::{Asked, Searched};

pub use crate::config::search::ReachingConfig;
pub use crate::games::bmn::search::reaching::DEFAULT_MAX_POSITIONS;

/// A walk backward checked (its deal is seen to loop), not yet walked: every refusal comes
/// before an output set is begun.
pub struct Reaching<'a> {
    game: &'a Bmn,
    cfg: &'a ReachingConfig,
    walk: Walk,
}

impl<'a> Reaching<'a> {
    /// The walk of game `game` that `cfg` asks.
    pub fn new(game: &'a Bmn, cfg: &'a ReachingConfig) -> Result<Reaching<'a>> {
        let walk = Walk::of(game, &cfg.deal, cfg.max_positions, cfg.minutes)?;
        Ok(Reaching { game, cfg, walk })
    }

    /// Walks the basin, each depth noted as it is done; nothing written or printed.
    pub fn play(self, session: &Session) -> Result<Searched> {
        let Reaching { game, cfg, walk } = self;
        let say = Say::new(game.rules(), None);
        let start = Instant::now();
        let mut each = |step: &Step| {
            if step.finished {
                let (at, so_far) = (grouped(step.at_depth), grouped(step.so_far));
                let took = start.elapsed().as_secs_f64();
                let line = format!(
                    "depth {}: {at} positions, {so_far} so far ({took:.2} s)",
                    step.depth
                );
                note(cfg.progress, &line);
            }
        };
        let report = SearchReport::Reaching(walk.run(game, &mut each, &say)?);
        let asked = Asked::Reaching(cfg.clone());
        Ok(Searched::new(report, asked, &say, session.provenance()))
    }
}
