//! Wars fought on the hands' cursors, for the hot loop: the same cards, draws and pickup order
//! as [`Position::battle`](super::position::Position::battle), without copying the table.
//!
//! Each player's laid cards stay where they were in their ring, just above its head, and are
//! read from there when the war is decided. The rings hold twice the cards in play
//! ([`Position::new`](super::position::Position::new)), so the winner's pushes (at most every
//! card in play) never reach the laid cards before they are read.

use rand::RngCore;

use super::rules::{Pickup, ShortWar, WarRules};
use super::stats::WarGame;
use super::War;
use crate::games::cards::{Card, Cursor};
use crate::games::Outcome;

/// Whether [`cursor_war`] fights this rule set's wars. Not: honor (a narrow loss removes a
/// card), the table and kbwar pickups (which interleave levels card by card), and the bryer
/// pickup with
/// last-card short wars (levels of uneven width); those go through `Position::battle`.
pub(super) fn fights_on_cursors(rules: &WarRules) -> bool {
    rules.honor.is_none()
        && !matches!(rules.pickup, Pickup::Table | Pickup::Kbwar)
        && !(rules.pickup == Pickup::Bryer && rules.short_war == ShortWar::LastCard)
}

/// Both players' hands as the hot loop holds them: buffers, cursors, won-pile sizes.
pub(super) struct Hands<'a> {
    pub(super) bufs: [&'a mut [Card]; 2],
    pub(super) at: [Cursor; 2],
    pub(super) won: [usize; 2],
}

impl Hands<'_> {
    /// Player `p` takes `n` cards from the top; with the won pile, an empty hand is refilled
    /// first, card by card, as `Position::draw` does.
    #[inline(always)]
    fn lay<R: RngCore + ?Sized>(&mut self, refills: bool, p: usize, n: usize, rng: &mut R) {
        if !refills {
            self.at[p].skip(n);
            return;
        }
        for _ in 0..n {
            if self.at[p].len() == self.won[p] {
                self.at[p].shuffle(self.bufs[p], rng);
                self.won[p] = 0;
            }
            self.at[p].skip(1);
        }
    }

    /// Puts cards `range` of player `from`'s laid cards `span` under player `to`'s hand.
    #[inline(always)]
    fn give(&mut self, to: usize, from: usize, span: Cursor, range: std::ops::Range<usize>) {
        let mut at = self.at[to];
        let [b0, b1] = &mut self.bufs;
        if from == to {
            let buf: &mut [Card] = if to == 0 { b0 } else { b1 };
            for i in range {
                let c = span.get(buf, i);
                at.push(buf, c);
            }
        } else {
            let (src, dst): (&[Card], &mut [Card]) = if from == 0 { (b0, b1) } else { (b1, b0) };
            for i in range {
                at.push(dst, span.get(src, i));
            }
        }
        self.at[to] = at;
    }
}

/// Fights the war begun by the tie just drawn (`card`, on both sides) and gives the table to
/// its winner; returns the outcome if it decided the game. Counts the wars in `stats`.
#[inline(never)]
pub(super) fn cursor_war<R: RngCore + ?Sized>(
    war: &War,
    rng: &mut R,
    stats: &mut WarGame,
    h: &mut Hands,
    card: Card,
) -> Option<Outcome> {
    let rules = &war.rules;
    let k = rules.war_down as usize;
    let refills = rules.pickup == Pickup::WonPile;
    // Cards each player has laid, the tied ones included.
    let mut laid = [1usize; 2];
    let (mut a, mut b) = (card, card);
    let mut depth = 0;
    while a == b {
        depth += 1;
        stats.wars += 1;
        let down = match rules.face_down([h.at[0].len(), h.at[1].len()]) {
            Ok(down) => down,
            Err(winner) => return Some(end_mid_war(stats, h, laid, winner, depth)),
        };
        for p in 0..2 {
            h.lay(refills, p, down[p] + 1, rng);
            laid[p] += down[p] + 1;
        }
        a = h.at[0].taken(1).get(h.bufs[0], 0);
        b = h.at[1].taken(1).get(h.bufs[1], 0);
    }
    stats.note_battle(depth);
    let w = usize::from(b > a);
    let l = 1 - w;
    let table = [h.at[0].taken(laid[0]), h.at[1].taken(laid[1])];
    let all = |p: usize| 0..laid[p];
    match rules.pickup {
        Pickup::P1First | Pickup::WonPile | Pickup::Shuffled => {
            h.give(w, 0, table[0], all(0));
            h.give(w, 1, table[1], all(1));
            if rules.pickup == Pickup::Shuffled {
                // The same draws as shuffling the table (player 1's cards, then player 2's)
                // and then giving it: the shuffle runs on the pushed cards in place.
                h.at[w].pushed(laid[0] + laid[1]).shuffle(h.bufs[w], rng);
            }
            if refills {
                h.won[w] += laid[0] + laid[1];
            }
        }
        Pickup::WinnerFirst => {
            h.give(w, w, table[w], all(w));
            h.give(w, l, table[l], all(l));
        }
        Pickup::LoserFirst => {
            h.give(w, l, table[l], all(l));
            h.give(w, w, table[w], all(w));
        }
        Pickup::Bryer => {
            // The deciding cards, winner's first, then each level's set-aside cards from the
            // innermost out, player 1's then player 2's; every level is k + 1 cards wide.
            h.give(w, w, table[w], laid[w] - 1..laid[w]);
            h.give(w, l, table[l], laid[l] - 1..laid[l]);
            for level in (0..depth as usize).rev() {
                for (p, span) in table.into_iter().enumerate() {
                    h.give(w, p, span, level * (k + 1)..(level + 1) * (k + 1));
                }
            }
        }
        Pickup::Table | Pickup::Kbwar => {
            unreachable!("these pickups' wars go through Position::battle")
        }
    }
    h.at[l].is_empty().then_some(Outcome::Player(w as u8))
}

/// Ends the game in the middle of a war as `Position::end_mid_war` does: the table to the
/// winner, or back to its owners on a draw.
fn end_mid_war(
    stats: &mut WarGame,
    h: &mut Hands,
    laid: [usize; 2],
    winner: Option<usize>,
    depth: u32,
) -> Outcome {
    stats.note_battle(depth);
    for (p, n) in laid.into_iter().enumerate() {
        let table = h.at[p].taken(n);
        h.give(winner.unwrap_or(p), p, table, 0..n);
    }
    match winner {
        Some(w) => Outcome::Player(w as u8),
        None => Outcome::Draw,
    }
}
