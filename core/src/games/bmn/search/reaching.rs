//! Every deal that enters a cycle: the basin of the cycle a position's game enters (walked
//! backward by [`crate::games::bmn::backward`]), and the balanced deals (hands of equal size)
//! among its positions, each written as a deal that replays into the cycle.
//!
//! A deal is a position at the start of a game, so player 1 leads it; a balanced position with
//! player 2 to lead is the deal with the seats swapped (player 2's hand first), whose game is
//! the mirror image of the position's and enters the mirror image of the cycle. Both counts are
//! kept: player 1 to lead only, and either player to lead (Casella et al.'s count of 30 for
//! their cycle is the second).

use std::ops::ControlFlow;
use std::time::Instant;

use serde::Serialize;

use super::header::{Header, Listed, Replays};
use super::plan::check_minutes;
use crate::error::{setting, setting_alone, Op, UsageError};
use crate::games::bmn::backward::{basin, Basin, BasinError, Node, Step};
use crate::games::bmn::Bmn;
use crate::games::{Game, Outcome};
use crate::stats::summary::grouped;
use crate::usage_of;

/// Positions a walk holds at most by default: about 70 bytes each, so some 0.35 GB (twice that
/// while a depth's list grows).
pub const DEFAULT_MAX_POSITIONS: u64 = 5_000_000;

/// Positions expanded between two looks at the clock.
const CLOCK_EVERY: u64 = 1 << 16;

/// One balanced deal of a basin.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Deal {
    /// `HAND1/HAND2`, player 1 to lead (seats swapped when the position has player 2 to lead).
    pub deal: String,
    /// Who leads the position in the basin: 1, or 2 (then `deal` is the mirror image).
    pub leader: usize,
    /// Tricks before the game stands on the cycle.
    pub depth: u32,
}

/// A basin and its balanced deals.
#[derive(Clone, Debug)]
pub struct Reaching {
    /// The walk.
    pub basin: Basin,
    /// Its balanced positions as deals, player 1's first, then by depth and deal.
    pub deals: Vec<Deal>,
}

impl Reaching {
    /// Balanced deals with player 1 to lead.
    pub fn player_1_leads(&self) -> usize {
        self.deals.iter().filter(|d| d.leader == 1).count()
    }
}

/// The basin of the cycle that the game from `start` enters and its balanced deals, holding
/// at most `limit` positions; `each` hears of the walk's steps (every `every` positions
/// expanded, and every depth done) and may stop it.
pub fn reaching(
    game: &Bmn,
    start: Node,
    limit: u64,
    every: u64,
    each: &mut dyn FnMut(Step) -> ControlFlow<()>,
) -> Result<Reaching, BasinError> {
    let basin = basin(start, u64::MAX, limit, every, each)?;
    Ok(Reaching {
        deals: deals(game, &basin),
        basin,
    })
}

/// The balanced positions of `b` as deals, sorted: player 1's first, then by depth and deal.
pub fn deals(game: &Bmn, b: &Basin) -> Vec<Deal> {
    let mut deals: Vec<Deal> = b
        .balanced
        .iter()
        .map(|f| Deal {
            deal: game.show_deal(&f.node.leader_first()),
            leader: f.node.leader() + 1,
            depth: f.depth,
        })
        .collect();
    deals.sort_by(|x, y| (x.leader, x.depth, &x.deal).cmp(&(y.leader, y.depth, &y.deal)));
    deals
}

/// A walk backward from the cycle a deal's game enters, checked ([`Walk::of`]: the only way
/// to one).
#[derive(Clone, Debug)]
pub struct Walk {
    /// The deal as given.
    deal: String,
    /// Its hands, player 1's first.
    hands: [Vec<u8>; 2],
    /// The most positions held at once.
    max_positions: u64,
    /// Give up after this many minutes.
    minutes: Option<f64>,
}

/// reaching.json: a cycle's basin and its balanced deals.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Serialize)]
#[non_exhaustive]
pub struct ReachingReport {
    /// The game and the rules.
    #[serde(flatten)]
    pub head: Header,
    /// The deal walked from, each hand with its own cards.
    pub deal: String,
    /// Tricks in one turn of the cycle.
    pub cycle_tricks: u64,
    /// Cards laid in one turn.
    pub cycle_cards: u64,
    /// Tricks the deal's game plays before it stands on the cycle.
    pub entered_after_tricks: u64,
    /// Positions whose game enters the cycle, the cycle's own included.
    pub basin_positions: u64,
    /// Those not on the cycle.
    pub leading_in: u64,
    /// The most tricks a position of the basin plays before the cycle.
    pub depth: u32,
    /// Positions at each depth, the cycle's first.
    pub per_depth: Vec<u64>,
    /// Balanced positions (hands of equal size) with player 1 to lead: deals as dealt.
    pub balanced_player_1_leads: usize,
    /// Balanced positions with either player to lead.
    pub balanced_either_leads: usize,
    /// The balanced deals, player 1's first, then by depth and deal.
    pub deals: Vec<Listed<Deal>>,
    /// The most positions the walk could hold.
    pub max_positions: u64,
    /// The most it held.
    pub peak_positions_held: u64,
    /// Seconds the walk took.
    pub elapsed_s: f64,
}

impl Walk {
    /// The walk from `deal`, holding at most `max_positions` positions, for at most `minutes`;
    /// refused unless the deal's game is seen to loop within the card cap (one that ends, or
    /// reaches the cap first, has no cycle to walk back from).
    pub fn of(
        game: &Bmn,
        deal: &str,
        max_positions: u64,
        minutes: Option<f64>,
    ) -> Result<Walk, UsageError> {
        check_minutes(minutes)?;
        // The deal's reader names `deal`; here its text came from `reaching`.
        let hands = (game.parse_deal(deal)).map_err(|e| e.renamed("deal", "reaching"))?;
        let walk = Walk {
            deal: deal.to_string(),
            hands,
            max_positions,
            minutes,
        };
        let p = game.play_hands(&walk.hands, &mut |_, _, _| ControlFlow::Continue(()))?;
        match p.outcome {
            Outcome::Loop => Ok(walk),
            Outcome::Capped => Err(usage_of![
                Op::Search.of(Bmn::NAME),
                " ",
                setting("reaching", format!("{deal:?}")),
                format!(
                    ": its game neither ends nor is seen to loop within {} cards (",
                    grouped(game.max_rounds())
                ),
                setting_alone("max_rounds"),
                "); raise ",
                setting_alone("max_rounds")
            ]),
            _ => Err(walk.explain(BasinError::Ends(p.tricks))),
        }
    }

    /// Walks the basin; `each` hears of every depth done and of the walk within one.
    pub fn run(
        &self,
        game: &Bmn,
        each: &mut dyn FnMut(&Step),
        say: &dyn Replays,
    ) -> Result<ReachingReport, UsageError> {
        let start = Instant::now();
        let mut each = |step: Step| {
            each(&step);
            match self.minutes {
                Some(m) if start.elapsed().as_secs_f64() > m * 60.0 => ControlFlow::Break(()),
                _ => ControlFlow::Continue(()),
            }
        };
        let [one, two] = &self.hands;
        // The game was seen to loop within the card cap, so the walk's forward play finds the
        // cycle: it needs no bound of its own.
        let first = Node::new(one, two, 0)?;
        let r = reaching(game, first, self.max_positions, CLOCK_EVERY, &mut each)
            .map_err(|e| self.explain(e))?;
        let elapsed_s = start.elapsed().as_secs_f64();
        let b = &r.basin;
        let player_1 = r.player_1_leads();
        let deals: Vec<Listed<Deal>> = (r.deals.iter())
            .map(|d| Listed {
                replay: say.cycle(&d.deal),
                found: d.clone(),
            })
            .collect();
        Ok(ReachingReport {
            head: Header::of(game),
            deal: game.show_hands(one, two),
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
            max_positions: self.max_positions,
            peak_positions_held: b.peak_held,
            elapsed_s,
        })
    }

    /// A walk that stopped, said so that it tells what to change.
    fn explain(&self, e: BasinError) -> UsageError {
        let (walk, deal) = (
            Op::Search.of(Bmn::NAME),
            setting("reaching", format!("{:?}", self.deal)),
        );
        match e {
            BasinError::Ends(tricks) => usage_of![
                walk.clone(),
                " ",
                deal,
                format!(
                    ": its game ends after {tricks} tricks, so it enters no cycle; give a deal \
                     that never ends ("
                ),
                Op::Play.of(Bmn::NAME),
                " ",
                setting_alone("deal"),
                " shows which)"
            ],
            BasinError::Capped(tricks) => usage_of![
                walk.clone(),
                " ",
                deal,
                format!(
                    ": its game neither ends nor repeats a position within {} tricks; raise ",
                    grouped(tricks)
                ),
                setting_alone("max_rounds")
            ],
            BasinError::TooMany {
                limit,
                reached,
                depth,
            } => usage_of![
                walk.clone(),
                " ",
                setting_alone("reaching"),
                format!(
                    ": the walk would hold more than {} positions (",
                    grouped(limit)
                ),
                setting_alone("max_positions"),
                format!(
                    ") at depth {depth}, after {} found; raise ",
                    grouped(reached)
                ),
                setting_alone("max_positions"),
                " (about 70 bytes each)"
            ],
            BasinError::Stopped { reached, depth } => usage_of![
                walk.clone(),
                " ",
                setting_alone("reaching"),
                ": ",
                setting("minutes", self.minutes.unwrap_or(0.0)),
                format!(
                    " ran out at depth {depth}, after {} positions; raise ",
                    grouped(reached)
                ),
                setting_alone("minutes")
            ],
        }
    }
}
