//! `search bmn --reaching DEAL`: the command's face over the core's walk backward
//! (`warsim_core::games::bmn::search::reaching`): every position whose game enters the cycle
//! DEAL's game enters (its basin), and the balanced deals among them, written so that
//! `play bmn --deal` replays each ([`crate::export::search`]), each depth noted as it is done
//! with `--progress`.

use std::path::PathBuf;
use std::time::Instant;

use anyhow::Result;
use serde::{Deserialize, Serialize};

use crate::export::search::{into_set, Shown};
use crate::games::bmn::backward::Step;
use crate::games::bmn::search::reaching::Walk;
use crate::games::bmn::search::report::SearchReport;
use crate::games::bmn::Bmn;
use crate::games::Game;
use crate::search::replay::Say;
use crate::session::Session;
use crate::stats::summary::grouped;
use crate::term::progress::{note, When};
use crate::term::stdout::Print;

pub use crate::games::bmn::search::reaching::DEFAULT_MAX_POSITIONS;

/// What `search bmn --reaching` is asked to do. Its JSON (serde) is what the typed API's callers
/// give (the Python package's `search(reaching=DEAL, ...)`), each number as a number.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ReachingConfig {
    /// The deal whose cycle is walked, as `play bmn --deal` reads it.
    #[serde(rename = "reaching")]
    pub deal: String,
    /// The most positions held at once.
    #[serde(deserialize_with = "max_positions")]
    pub max_positions: u64,
    /// Give up after this many minutes.
    #[serde(deserialize_with = "crate::search::minutes")]
    pub minutes: Option<f64>,
    /// Where reaching.json and deals.txt go.
    pub out: PathBuf,
    /// What is printed when done.
    #[serde(skip)]
    pub print: Print,
    /// How progress is shown.
    #[serde(skip)]
    pub progress: When,
}

impl Default for ReachingConfig {
    /// No deal (the walk refuses it), [`DEFAULT_MAX_POSITIONS`], no time bound, the summary
    /// printed, progress where a terminal shows it.
    fn default() -> ReachingConfig {
        ReachingConfig {
            deal: String::new(),
            max_positions: DEFAULT_MAX_POSITIONS,
            minutes: None,
            out: PathBuf::new(),
            print: Print::Text,
            progress: When::Auto,
        }
    }
}

/// `max_positions` read from JSON: a whole number of at least 1.
fn max_positions<'de, D: serde::Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
    let read = |t: &str| {
        t.parse::<u64>()
            .ok()
            .filter(|&n| n >= 1)
            .ok_or_else(|| "expected a whole number of at least 1".to_string())
    };
    Ok(crate::config::json::number(d, read)?.unwrap_or(DEFAULT_MAX_POSITIONS))
}

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
