//! `search bmn --reaching DEAL`: the command's face over the core's walk backward
//! (`warsim_core::games::bmn::search::reaching`): every position whose game enters the cycle
//! DEAL's game enters (its basin), and the balanced deals among them, written so that
//! `play bmn --deal` replays each ([`crate::export::search`]), each depth noted as it is done
//! with `--progress`.

use std::time::Instant;

use anyhow::Result;

use crate::export::search::{into_set, Shown};
use crate::games::bmn::backward::Step;
use crate::games::bmn::search::reaching::Walk;
use crate::games::bmn::search::report::SearchReport;
use crate::games::bmn::Bmn;
use crate::games::Game;
use crate::search::replay::Say;
use crate::session::Session;
use crate::stats::summary::grouped;
use crate::term::progress::note;

pub use crate::config::search::ReachingConfig;
pub use crate::games::bmn::search::reaching::DEFAULT_MAX_POSITIONS;

/// `search bmn --reaching`: walks the basin, writes reaching.json and deals.txt into `cfg.out`.
pub fn run(session: &Session, game: &Bmn, cfg: &ReachingConfig) -> Result<()> {
    let walk = Walk::of(game, &cfg.deal, cfg.max_positions, cfg.minutes)?;
    let say = Say::new(game.rules(), None);
    let shown = Shown {
        out: &cfg.out,
        print: cfg.print,
        timed: false,
    };
    into_set(session, &shown, &say, || {
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
        Ok(SearchReport::Reaching(walk.run(game, &mut each, &say)?))
    })
}
