//! Backward play: the positions a trick can come from, and every position whose game enters a
//! given cycle (its basin).
//!
//! The trick map (a position at the start of a trick to the next one) is a function but not a
//! one-to-one map: a position has zero or more predecessors. The last trick's pile lies under the
//! taker's hand, in the order laid, and the taker leads; so a predecessor takes a suffix of the
//! leader's hand as the pile, a player to lead it, and gives each card of it back to the top of
//! the hand of the player who laid it. Who laid each card follows from the cards alone (players
//! alternate until a penalty card; a payer lays until a penalty card or the demand is paid), so
//! for each suffix and each leader there is at most one predecessor, and it is one exactly when
//! that replay ends with the pile's last card and gives the pile to the position's leader.
//!
//! Because every position has one successor, the positions leading into a cycle form trees
//! hanging off it: a walk backward from the cycle meets no position twice, so it keeps only the
//! frontier (one trick deeper each step), never a set of the positions seen.
//!
//! No I/O here: the command (`search bmn --reaching`) shows progress, bounds the time, writes.

use std::collections::HashSet;
use std::ops::ControlFlow;

use super::play::{check_fits, Position};
use super::MAX_CARDS;
use crate::error::UsageError;

/// A position at the start of a trick, compact for holding many: both hands' demands one after
/// the other (top card first) and who leads.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Node {
    cards: [u8; MAX_CARDS],
    len: [u8; 2],
    leader: u8,
}

impl std::fmt::Debug for Node {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{:?}/{:?} p{} leads",
            self.hand(0),
            self.hand(1),
            self.leader + 1
        )
    }
}

impl Node {
    /// The position with these hands (top card first) and `leader` (0-based) to lead, or why
    /// there is none: more than [`MAX_CARDS`] cards together (a deck's bound), or a leader
    /// other than player 1 or 2.
    pub fn new(hand1: &[u8], hand2: &[u8], leader: usize) -> Result<Node, UsageError> {
        check_fits(hand1.len().saturating_add(hand2.len()), leader)?;
        Ok(Node::fitted(hand1, hand2, leader))
    }

    /// [`Node::new`] of hands and a leader known to fit (a position played or walked to).
    fn fitted(hand1: &[u8], hand2: &[u8], leader: usize) -> Node {
        let mut cards = [0u8; MAX_CARDS];
        cards[..hand1.len()].copy_from_slice(hand1);
        cards[hand1.len()..hand1.len() + hand2.len()].copy_from_slice(hand2);
        Node {
            cards,
            len: [hand1.len() as u8, hand2.len() as u8],
            leader: leader as u8,
        }
    }

    /// Player `p`'s hand (0-based), top card first.
    pub fn hand(&self, p: usize) -> &[u8] {
        let start = if p == 0 { 0 } else { usize::from(self.len[0]) };
        &self.cards[start..start + usize::from(self.len[p])]
    }

    /// Who leads (0-based).
    pub fn leader(&self) -> usize {
        usize::from(self.leader)
    }

    /// Both hands, the leader's first: the deal (player 1 to lead) whose game is this
    /// position's, the seats swapped when player 2 leads.
    pub fn leader_first(&self) -> Vec<u8> {
        [self.hand(self.leader()), self.hand(self.leader() ^ 1)].concat()
    }

    /// Both hands hold the same number of cards, as a deal's do.
    pub fn balanced(&self) -> bool {
        self.len[0] == self.len[1]
    }

    fn of(p: &Position) -> Node {
        let a: Vec<u8> = p.hands[0].cards().collect();
        let b: Vec<u8> = p.hands[1].cards().collect();
        Node::fitted(&a, &b, p.leader)
    }

    /// The position this node holds, to be played forward.
    pub fn position(&self) -> Position {
        Position::fitted(self.hand(0), self.hand(1), self.leader())
    }

    /// The position after one trick, or `None` when the trick ends the game.
    pub fn forward(&self) -> Option<Node> {
        let mut p = self.position();
        p.trick(u64::MAX).ended.is_none().then(|| Node::of(&p))
    }

    /// Adds every position whose trick leads here to `out` (none when a hand is empty: that
    /// position ends the game, so no trick leads to it as the game goes on).
    pub fn predecessors(&self, out: &mut Vec<Node>) {
        self.each_predecessor(&mut |n, _| out.push(n));
    }

    /// Hands `each` every position whose trick leads here, with the cards that trick lays
    /// (the pile taken): [`Node::predecessors`] with the cards counted, and no allocation,
    /// for walks that add up the cards a game lays before it reaches a position.
    pub fn each_predecessor(&self, each: &mut dyn FnMut(Node, usize)) {
        let taker = self.leader();
        let hand = self.hand(taker);
        if self.len[0] == 0 || self.len[1] == 0 {
            return;
        }
        let other = taker ^ 1;
        let mut laid = [0u8; MAX_CARDS];
        // A trick lays at least two cards: a penalty card and one paid for it; and it ends
        // with a card paid, a plain one.
        if hand.last().is_none_or(|&c| c != 0) {
            return;
        }
        for k in 2..=hand.len() {
            let (kept, pile) = hand.split_at(hand.len() - k);
            for leader in 0..2 {
                if !replay(pile, leader, taker, &mut laid[..k]) {
                    continue;
                }
                let mut hands = [[0u8; MAX_CARDS]; 2];
                let mut lens = [0usize; 2];
                for (&c, &who) in pile.iter().zip(&laid[..k]) {
                    let who = usize::from(who);
                    hands[who][lens[who]] = c;
                    lens[who] += 1;
                }
                hands[taker][lens[taker]..lens[taker] + kept.len()].copy_from_slice(kept);
                lens[taker] += kept.len();
                let theirs = self.hand(other);
                hands[other][lens[other]..lens[other] + theirs.len()].copy_from_slice(theirs);
                lens[other] += theirs.len();
                each(
                    Node::fitted(&hands[0][..lens[0]], &hands[1][..lens[1]], leader),
                    k,
                );
            }
        }
    }
}

/// Who lays each card of `pile` (0-based players) when `leader` leads a trick that lays exactly
/// these cards, if that trick ends with its last card and gives the pile to `taker` (the
/// census's form of [`replay`]).
pub(crate) fn laid_by(pile: &[u8], leader: usize, taker: usize) -> Option<Vec<usize>> {
    let mut who = vec![0u8; pile.len()];
    replay(pile, leader, taker, &mut who).then(|| who.iter().map(|&w| usize::from(w)).collect())
}

/// Whether `leader` leading a trick that lays exactly the cards of `pile` ends it with its last
/// card and gives the pile to `taker`; if so `who` holds who laid each card (0-based players).
fn replay(pile: &[u8], leader: usize, taker: usize, who: &mut [u8]) -> bool {
    let (mut turn, mut owed, mut claimant) = (leader, 0u8, None);
    for (i, &c) in pile.iter().enumerate() {
        who[i] = turn as u8;
        if c > 0 {
            // A penalty card: the other player owes its demand.
            owed = c;
            claimant = Some(turn);
            turn ^= 1;
        } else if owed == 0 {
            // No demand yet: the players alternate.
            turn ^= 1;
        } else {
            owed -= 1;
            if owed == 0 {
                // The demand is paid: the trick ends here, the claimant taking the pile.
                return i + 1 == pile.len() && claimant == Some(taker);
            }
        }
    }
    false
}

/// Why a walk stopped before its end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BasinError {
    /// The start never enters a cycle: its game ends, after this many tricks.
    Ends(u64),
    /// The start's game neither ended nor repeated a position within this many tricks.
    Capped(u64),
    /// More positions than the bound would be held at once.
    TooMany {
        /// The bound.
        limit: u64,
        /// How many positions the walk had reached.
        reached: u64,
        /// The depth (tricks before the cycle) it had reached.
        depth: u32,
    },
    /// The caller's progress callback asked to stop (its time ran out).
    Stopped {
        /// How many positions the walk had reached.
        reached: u64,
        /// The depth it had reached.
        depth: u32,
    },
}

/// A balanced position of the basin, with the tricks its game plays before it enters the cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Found {
    /// The position.
    pub node: Node,
    /// Tricks before its game stands on the cycle (0: it is on the cycle).
    pub depth: u32,
}

/// Every position whose game enters one cycle.
#[derive(Clone, Debug)]
pub struct Basin {
    /// The cycle, in play order from the first of its positions the start's game reaches.
    pub cycle: Vec<Node>,
    /// The cards laid over one turn of the cycle.
    pub cycle_cards: u64,
    /// Tricks the start's game plays before it stands on the cycle.
    pub start_depth: u64,
    /// Positions at each depth: `per_depth[0]` is the cycle's length, `per_depth[d]` the
    /// positions whose game enters the cycle after `d` tricks. The last entry is non-zero.
    pub per_depth: Vec<u64>,
    /// Its balanced positions (hands of equal size), either player to lead.
    pub balanced: Vec<Found>,
    /// The most positions held at once (the cycle's set, two depths and the balanced ones).
    pub peak_held: u64,
}

impl Basin {
    /// Positions in all, the cycle's included.
    pub fn positions(&self) -> u64 {
        self.per_depth.iter().sum()
    }

    /// The greatest number of tricks a position of the basin plays before the cycle.
    pub fn depth(&self) -> u32 {
        (self.per_depth.len() - 1) as u32
    }
}

/// Where a walk stands, for progress and for stopping it: after each depth, and every so many
/// positions expanded within one.
#[derive(Clone, Copy, Debug)]
pub struct Step {
    /// Tricks before the cycle of the depth being found.
    pub depth: u32,
    /// Positions found at this depth so far.
    pub at_depth: u64,
    /// Positions found so far, the cycle's included.
    pub so_far: u64,
    /// Whether this depth is complete.
    pub finished: bool,
}

/// The basin of the cycle that the game from `start` enters: walks backward from the cycle one
/// trick at a time, holding at most `limit` positions at once; `each` hears of every depth done,
/// and of the depth being found every `every` positions expanded, and may stop the walk.
///
/// The start's game is played forward first (Brent's cycle detection over its positions), at
/// most `max_tricks` tricks; a game that ends has no cycle ([`BasinError::Ends`]).
pub fn basin(
    start: Node,
    max_tricks: u64,
    limit: u64,
    every: u64,
    each: &mut dyn FnMut(Step) -> ControlFlow<()>,
) -> Result<Basin, BasinError> {
    let (cycle, start_depth) = find_cycle(start, max_tricks)?;
    let cycle_cards = cycle
        .iter()
        .map(|n| {
            let mut p = n.position();
            p.trick(u64::MAX).laid
        })
        .sum();
    let on_cycle: HashSet<Node> = cycle.iter().copied().collect();
    let back = walk_back(cycle.clone(), &on_cycle, limit, every, each)?;
    Ok(Basin {
        cycle,
        cycle_cards,
        start_depth,
        per_depth: back.per_depth,
        balanced: back.balanced,
        peak_held: back.peak_held,
    })
}

/// What a walk backward found: positions at each depth (`per_depth[0]` the starting ones),
/// the balanced ones, and the most positions held at once.
struct Back {
    per_depth: Vec<u64>,
    balanced: Vec<Found>,
    peak_held: u64,
}

/// Walks backward from the positions `level` one trick at a time (their predecessors, then
/// theirs ...) until none has any, holding at most `limit` positions at once (with the set
/// `exclude`, positions not to count again: a cycle's own); `each` hears of every depth done,
/// and of the depth being found every `every` positions expanded, and may stop the walk.
fn walk_back(
    mut level: Vec<Node>,
    exclude: &HashSet<Node>,
    limit: u64,
    every: u64,
    each: &mut dyn FnMut(Step) -> ControlFlow<()>,
) -> Result<Back, BasinError> {
    let mut per_depth = vec![level.len() as u64];
    let mut balanced: Vec<Found> = level
        .iter()
        .filter(|n| n.balanced())
        .map(|&node| Found { node, depth: 0 })
        .collect();
    let mut next = Vec::new();
    let mut peak = 0u64;
    let mut depth = 0u32;
    let mut expanded = 0u64;
    while !level.is_empty() {
        next.clear();
        let found: u64 = per_depth.iter().sum();
        for n in &level {
            expanded += 1;
            if expanded.is_multiple_of(every.max(1)) {
                let step = Step {
                    depth: depth + 1,
                    at_depth: next.len() as u64,
                    so_far: found + next.len() as u64,
                    finished: false,
                };
                if each(step).is_break() {
                    return Err(BasinError::Stopped {
                        reached: step.so_far,
                        depth: step.depth,
                    });
                }
            }
            let before = next.len();
            n.predecessors(&mut next);
            // A cycle position's own predecessor on the cycle is no new position.
            if depth == 0 && !exclude.is_empty() {
                let mut i = before;
                while i < next.len() {
                    if exclude.contains(&next[i]) {
                        next.swap_remove(i);
                    } else {
                        i += 1;
                    }
                }
            }
            let held = (exclude.len() + level.len() + next.len() + balanced.len()) as u64;
            peak = peak.max(held);
            if held > limit {
                return Err(BasinError::TooMany {
                    limit,
                    reached: found + next.len() as u64,
                    depth: depth + 1,
                });
            }
        }
        if next.is_empty() {
            break;
        }
        depth += 1;
        per_depth.push(next.len() as u64);
        balanced.extend(
            next.iter()
                .filter(|n| n.balanced())
                .map(|&node| Found { node, depth }),
        );
        std::mem::swap(&mut level, &mut next);
        let step = Step {
            depth,
            at_depth: level.len() as u64,
            so_far: per_depth.iter().sum(),
            finished: true,
        };
        if each(step).is_break() {
            return Err(BasinError::Stopped {
                reached: step.so_far,
                depth,
            });
        }
    }
    Ok(Back {
        per_depth,
        balanced,
        peak_held: peak,
    })
}

/// The balanced positions whose game reaches `start` (a deal, say) after one trick or more,
/// with the tricks before it: every one of them is a deal whose game is the game of `start`
/// with those tricks before it, so longer. The positions leading to a position that is on no
/// cycle form a tree, so the walk meets none twice; it holds at most `limit` at once.
pub fn ancestors(start: Node, limit: u64) -> Result<Vec<Found>, BasinError> {
    let back = walk_back(vec![start], &HashSet::new(), limit, u64::MAX, &mut |_| {
        ControlFlow::Continue(())
    })?;
    Ok(back.balanced.into_iter().filter(|f| f.depth > 0).collect())
}

/// Where play from a position leads.
#[derive(Clone, Debug)]
pub enum Fate {
    /// A player ran out of cards, in this trick (counted from 1).
    Ends(u64),
    /// Into a cycle: a position on it and its length in tricks.
    Cycle(Position, u64),
    /// Neither within `max_tricks` tricks.
    Undecided,
}

/// Plays `start` forward for at most `max_tricks` tricks with Brent's algorithm (positions at
/// the start of a trick are compared exactly), and says where it leads: the first half of
/// `find_cycle`, and all that the loop search needs of a try.
pub fn fate(start: &Position, max_tricks: u64) -> Fate {
    let mut saved = *start;
    let mut hare = *start;
    let (mut power, mut lam) = (1u64, 0u64);
    for played in 1..=max_tricks {
        if hare.trick(u64::MAX).ended.is_some() {
            return Fate::Ends(played);
        }
        lam += 1;
        if hare.same(&saved) {
            return Fate::Cycle(hare, lam);
        }
        if lam == power {
            saved = hare;
            power *= 2;
            lam = 0;
        }
    }
    Fate::Undecided
}

/// The cycle the game from `start` enters (its positions in play order, from the first one
/// reached) and the tricks played before it: Brent's algorithm over positions ([`fate`]), then
/// its second phase.
fn find_cycle(start: Node, max_tricks: u64) -> Result<(Vec<Node>, u64), BasinError> {
    let lam = match fate(&start.position(), max_tricks) {
        Fate::Cycle(_, lam) => lam,
        Fate::Ends(tricks) => return Err(BasinError::Ends(tricks)),
        Fate::Undecided => return Err(BasinError::Capped(max_tricks)),
    };
    // Two positions `lam` tricks apart, walked together, meet where the cycle starts.
    let step = |n: Node| n.forward().unwrap_or(n);
    let mut ahead = start;
    for _ in 0..lam {
        ahead = step(ahead);
    }
    let mut behind = start;
    let mut from = 0u64;
    while behind != ahead {
        behind = step(behind);
        ahead = step(ahead);
        from += 1;
    }
    let mut cycle = vec![behind];
    let mut n = step(behind);
    while n != behind {
        cycle.push(n);
        n = step(n);
    }
    Ok((cycle, from))
}

#[cfg(test)]
#[path = "backward_tests.rs"]
mod tests;
