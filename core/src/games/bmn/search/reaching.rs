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

use serde::Serialize;

use crate::games::bmn::backward::{basin, Basin, BasinError, Node, Step};
use crate::games::bmn::Bmn;

/// One balanced deal of a basin.
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
