//! `search bmn --reaching DEAL`: every position whose game enters the cycle DEAL's game enters
//! (its basin, walked backward by [`crate::games::bmn::backward`]), and the balanced deals
//! (hands of equal size) among them, written so that `play bmn --deal` replays each.
//!
//! A deal is a position at the start of a game, so player 1 leads it; a balanced position with
//! player 2 to lead is the deal with the seats swapped (player 2's hand first), whose game is
//! the mirror image of the position's and enters the mirror image of the cycle. Both counts are
//! reported: player 1 to lead only, and either player to lead (Casella et al.'s count of 30
//! for their cycle is the second).

use std::ops::ControlFlow;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::Result;
use serde::Serialize;

use crate::games::bmn::backward::{BasinError, Node, Step};
use crate::games::bmn::search::reaching::{reaching, Deal, Reaching};
use crate::games::bmn::{Bmn, BmnRules};
use crate::games::{Game, Outcome};
use crate::model::summary::Provenance;
use crate::search::Listed;
use crate::stats::summary::grouped;
use crate::store::{Kind, OutputSet};
use crate::term::progress::{note, When};
use crate::term::stdout::{self, Print};
use crate::usage;

/// Positions a walk holds at most by default: about 70 bytes each, so some 0.35 GB (twice that
/// while a depth's list grows).
pub const DEFAULT_MAX_POSITIONS: u64 = 5_000_000;

/// Positions expanded between two looks at the clock.
const CLOCK_EVERY: u64 = 1 << 16;

/// What `search bmn --reaching` is asked to do.
#[derive(Clone, Debug)]
pub struct ReachingConfig {
    /// The deal whose cycle is walked, as `play bmn --deal` reads it.
    pub deal: String,
    /// The most positions held at once.
    pub max_positions: u64,
    /// Give up after this many minutes.
    pub minutes: Option<f64>,
    /// Where reaching.json and deals.txt go.
    pub out: PathBuf,
    /// What is printed when done.
    pub print: Print,
    /// How progress is shown.
    pub progress: When,
}

/// reaching.json.
#[derive(Debug, Serialize)]
struct ReachingJson<'a> {
    game: &'static str,
    description: String,
    rules: &'a BmnRules,
    deal: String,
    cycle_tricks: u64,
    cycle_cards: u64,
    /// Tricks the deal's game plays before it stands on the cycle.
    entered_after_tricks: u64,
    /// Positions whose game enters the cycle, the cycle's own included.
    basin_positions: u64,
    /// Those not on the cycle.
    leading_in: u64,
    /// The most tricks a position of the basin plays before the cycle.
    depth: u32,
    /// Positions at each depth, the cycle's first.
    per_depth: Vec<u64>,
    /// Balanced positions (hands of equal size) with player 1 to lead: deals as dealt.
    balanced_player_1_leads: usize,
    /// Balanced positions with either player to lead.
    balanced_either_leads: usize,
    deals: Vec<Listed<Deal>>,
    max_positions: u64,
    peak_positions_held: u64,
    elapsed_s: f64,
    provenance: Provenance,
}

/// `search bmn --reaching`: walks the basin, writes reaching.json and deals.txt into `cfg.out`.
pub fn run(game: &Bmn, cfg: &ReachingConfig) -> Result<()> {
    crate::search::check_minutes(cfg.minutes)?;
    let [a, b] = game.parse_deal(&cfg.deal)?;
    enters_a_cycle(game, cfg, &[a.clone(), b.clone()])?;
    let set = OutputSet::begin(&cfg.out, Kind::Search, &[], None)?;
    let start = Instant::now();
    let mut each = |step: Step| {
        if step.finished {
            note(
                cfg.progress,
                &format!(
                    "depth {}: {} positions, {} so far ({:.2} s)",
                    step.depth,
                    grouped(step.at_depth),
                    grouped(step.so_far),
                    start.elapsed().as_secs_f64()
                ),
            );
        }
        match cfg.minutes {
            Some(m) if start.elapsed().as_secs_f64() > m * 60.0 => ControlFlow::Break(()),
            _ => ControlFlow::Continue(()),
        }
    };
    // The game was seen to loop within the card cap, so the walk's forward play finds the
    // cycle: it needs no bound of its own.
    let first = Node::new(&a, &b, 0)?;
    let hands = [a, b];
    let found = reaching(game, first, cfg.max_positions, CLOCK_EVERY, &mut each)
        .map_err(|e| explain(e, cfg))?;
    let elapsed_s = start.elapsed().as_secs_f64();
    let doc = document(game, cfg, &hands, found, elapsed_s);
    let dir = set.dir();
    dir.write_json("reaching.json", &doc)?;
    dir.write("deals.txt", deals_txt(&doc).as_bytes())?;
    set.commit()?;
    match cfg.print {
        Print::Json => stdout::print_json(&doc)?,
        Print::Nothing => {}
        Print::Text | Print::Markdown => stdout::write_all(text(&doc, cfg).as_bytes())?,
    }
    Ok(())
}

/// Refuses a deal whose game ends, or reaches the card cap (`--max-rounds`, in cards as
/// everywhere) before it is seen to loop: it has no cycle to walk back from.
fn enters_a_cycle(game: &Bmn, cfg: &ReachingConfig, hands: &[Vec<u8>; 2]) -> Result<()> {
    let p = game.play_hands(hands, &mut |_, _, _| ControlFlow::Continue(()))?;
    match p.outcome {
        Outcome::Loop => Ok(()),
        Outcome::Capped => Err(usage!(
            "search bmn --reaching {:?}: its game neither ends nor is seen to loop within {} \
             cards (--max-rounds); raise --max-rounds",
            cfg.deal,
            grouped(game.max_rounds())
        )
        .into()),
        _ => Err(explain(BasinError::Ends(p.tricks), cfg)),
    }
}

/// A walk that stopped, as a message that says what to change.
fn explain(e: BasinError, cfg: &ReachingConfig) -> anyhow::Error {
    let deal = &cfg.deal;
    match e {
        BasinError::Ends(tricks) => usage!(
            "search bmn --reaching {deal:?}: its game ends after {tricks} tricks, so it enters \
             no cycle; give a deal that never ends (play bmn --deal shows which)"
        ),
        BasinError::Capped(tricks) => usage!(
            "search bmn --reaching {deal:?}: its game neither ends nor repeats a position \
             within {} tricks; raise --max-rounds",
            grouped(tricks)
        ),
        BasinError::TooMany {
            limit,
            reached,
            depth,
        } => usage!(
            "search bmn --reaching: the walk would hold more than {} positions (--max-positions) \
             at depth {depth}, after {} found; raise --max-positions (about 70 bytes each)",
            grouped(limit),
            grouped(reached)
        ),
        BasinError::Stopped { reached, depth } => usage!(
            "search bmn --reaching: --minutes {} ran out at depth {depth}, after {} positions; \
             raise --minutes",
            cfg.minutes.unwrap_or(0.0),
            grouped(reached)
        ),
    }
    .into()
}

/// reaching.json's content for the walk `r` from the deal of `hands` (player 1's first, each
/// written with its own cards, whatever their sizes).
fn document<'a>(
    game: &'a Bmn,
    cfg: &ReachingConfig,
    hands: &[Vec<u8>; 2],
    r: Reaching,
    elapsed_s: f64,
) -> ReachingJson<'a> {
    let b = &r.basin;
    let player_1 = r.player_1_leads();
    let deals: Vec<Listed<Deal>> = r
        .deals
        .iter()
        .map(|d| Listed {
            replay: crate::search::replay::play_loop(game.rules(), &d.deal),
            found: d.clone(),
        })
        .collect();
    ReachingJson {
        game: Bmn::NAME,
        description: game.describe(),
        rules: game.rules(),
        deal: game.show_hands(&hands[0], &hands[1]),
        cycle_tricks: b.cycle.len() as u64,
        cycle_cards: b.cycle_cards,
        entered_after_tricks: b.start_depth,
        basin_positions: b.positions(),
        leading_in: b.positions() - b.cycle.len() as u64,
        depth: b.depth(),
        per_depth: b.per_depth.clone(),
        balanced_player_1_leads: player_1,
        balanced_either_leads: deals.len(),
        deals,
        max_positions: cfg.max_positions,
        peak_positions_held: b.peak_held,
        elapsed_s,
        provenance: Provenance::of(None),
    }
}

/// deals.txt: one `play bmn` command per balanced deal, player 1's first, each with the
/// deck's options so that it runs as written.
fn deals_txt(doc: &ReachingJson) -> String {
    let mut out = format!(
        "# The balanced deals whose game enters the {}-trick ({}-card) cycle of {}.\n\
         # Player 1 to lead: {}; with player 2 to lead too: {} (a position with player 2 to \
         lead is written seats swapped, player 2's hand first: its game is the mirror image).\n",
        doc.cycle_tricks,
        doc.cycle_cards,
        doc.deal,
        doc.balanced_player_1_leads,
        doc.balanced_either_leads
    );
    for d in &doc.deals {
        let whose = if d.found.leader == 1 {
            "the cycle"
        } else {
            "its mirror image (player 2 led, seats swapped)"
        };
        out.push_str(&format!(
            "{}   # on {whose} after {} tricks\n",
            d.replay, d.found.depth
        ));
    }
    out
}

fn text(doc: &ReachingJson, cfg: &ReachingConfig) -> String {
    format!(
        "search bmn --reaching — {}\n\
         cycle     {} tricks ({} cards), entered after {} tricks of {}\n\
         basin     {} positions ({} on the cycle, {} leading into it), at most {} tricks deep, \
         {:.3} s\n\
         balanced  {} deals with player 1 to lead; {} with either player to lead\n\
         written   {}/ (reaching.json, deals.txt)\n",
        doc.description,
        doc.cycle_tricks,
        grouped(doc.cycle_cards),
        doc.entered_after_tricks,
        doc.deal,
        grouped(doc.basin_positions),
        doc.cycle_tricks,
        grouped(doc.leading_in),
        doc.depth,
        doc.elapsed_s,
        doc.balanced_player_1_leads,
        doc.balanced_either_leads,
        cfg.out.display()
    )
}
