//! What a step of War's hot loop shares with the paths that play it and with loop detection:
//! why it stopped ([`Stop`]), the cheap image of a position it watches for ([`Probe`]), and the
//! orders in which a plain battle's cards go under the winner's hand. Kept apart so the block
//! paths (`fast`, `avx512`) and `detect` depend on it, not on each other.

use crate::games::cards::{Card, Cursor, Pile};
use crate::games::Outcome;

/// Why the hot loop stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Stop {
    /// The game was decided.
    Ended(Outcome),
    /// The requested number of rounds was played.
    Limit,
    /// The position may equal the probed one (its cheap image matches).
    Probe,
}

/// Orders of a plain battle's two cards under the winner's hand (`plain_rounds`' `ORDER`).
pub(super) const WINNER_FIRST: u8 = 0;
pub(super) const LOSER_FIRST: u8 = 1;
pub(super) const P1_FIRST: u8 = 2;
pub(super) const RANDOM_ORDER: u8 = 3;
/// Player 1's card then player 2's, onto the winner's won pile; an empty hand is refilled
/// first.
pub(super) const WON_PILE: u8 = 4;

/// A cheap image of a position: player 1's hand size and both hands' top and bottom cards.
/// Equal positions have equal images; unequal ones rarely do (then a full comparison decides),
/// so loop detection costs a few compares per round and no hashing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Probe {
    len0: usize,
    ends: [Card; 4],
}

impl Probe {
    /// The image of two non-empty hands.
    pub(super) fn of(hands: &[Pile; 2]) -> Probe {
        let end = |p: &Pile| [p.get(0), p.last().unwrap_or(0)];
        let ([t0, b0], [t1, b1]) = (end(&hands[0]), end(&hands[1]));
        Probe {
            len0: hands[0].len(),
            ends: [t0, b0, t1, b1],
        }
    }

    /// Whether hands held as cursors over buffers have this image.
    #[inline(always)]
    pub(super) fn hits(self, c0: Cursor, b0: &[Card], c1: Cursor, b1: &[Card]) -> bool {
        c0.len() == self.len0
            && c0.top(b0) == self.ends[0]
            && c1.top(b1) == self.ends[2]
            && c0.bottom(b0) == self.ends[1]
            && c1.bottom(b1) == self.ends[3]
    }
}
