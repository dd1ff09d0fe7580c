//! How a game of Beggar-my-neighbour is played (see the module above for the rules): hands as
//! fixed rings of demands, a trick in its two phases, and a whole game with Brent's loop
//! detection over positions at the start of a trick.

use std::ops::ControlFlow;

use super::MAX_CARDS;
use crate::error::UsageError;
use crate::games::{Cycle, Outcome};
use crate::usage;

const MASK: usize = MAX_CARDS - 1;

/// A hand: the demands of its cards, top first, in a fixed ring (no allocation while playing).
#[derive(Clone, Copy, Debug)]
pub struct Hand {
    buf: [u8; MAX_CARDS],
    head: usize,
    len: usize,
}

impl Hand {
    const EMPTY: Hand = Hand {
        buf: [0; MAX_CARDS],
        head: 0,
        len: 0,
    };

    /// The cards, top first.
    pub fn cards(&self) -> impl Iterator<Item = u8> + '_ {
        (0..self.len).map(move |i| self.buf[(self.head + i) & MASK])
    }

    /// Writes the cards, top first, to the start of `out` (which holds them), the ring's two
    /// pieces copied whole; returns how many. The lanes start a position from these bytes.
    pub(super) fn copy_to(&self, out: &mut [u8]) -> usize {
        let first = (MAX_CARDS - self.head).min(self.len);
        out[..first].copy_from_slice(&self.buf[self.head..self.head + first]);
        out[first..self.len].copy_from_slice(&self.buf[..self.len - first]);
        self.len
    }

    /// The cards, top first, in the first `len` places (those after them are stale): the ring
    /// written twice and read once at the head, copies of fixed length (a copy of a length
    /// known only at run time is a call to the library's memmove, which the census's moves
    /// made a tenth of its time).
    pub(super) fn top_first(&self) -> [u8; MAX_CARDS] {
        let mut two = [0u8; 2 * MAX_CARDS];
        two[..MAX_CARDS].copy_from_slice(&self.buf);
        two[MAX_CARDS..].copy_from_slice(&self.buf);
        let mut out = [0u8; MAX_CARDS];
        out.copy_from_slice(&two[self.head..self.head + MAX_CARDS]);
        out
    }

    /// How many cards it holds.
    pub(super) fn len(&self) -> usize {
        self.len
    }

    fn set(&mut self, cards: &[u8]) {
        self.head = 0;
        self.len = cards.len();
        self.buf[..cards.len()].copy_from_slice(cards);
    }

    fn same(&self, other: &Hand) -> bool {
        self.len == other.len && self.cards().eq(other.cards())
    }
}

/// A position at the start of a trick: both hands and who leads (the pile is empty).
///
/// Its fields are the crate's alone: the hands share one ring's worth of cards ([`MAX_CARDS`]
/// in all, or a trick's pile would wrap over cards still held and lose them) and the leader is
/// player 1 or 2 (or `trick` would index past the hands), which [`Position::new`] checks once.
#[derive(Clone, Copy, Debug)]
pub struct Position {
    pub(super) hands: [Hand; 2],
    pub(super) leader: usize,
}

/// Whether `cards` cards and `leader` (0-based) to lead make a position: at most [`MAX_CARDS`]
/// cards together (a hand's ring) and player 1 or 2 to lead, what [`Position`] and the
/// backward walk's nodes both hold.
pub(super) fn check_fits(cards: usize, leader: usize) -> Result<(), UsageError> {
    if cards > MAX_CARDS || leader > 1 {
        return Err(usage!(
            "a position holds at most {MAX_CARDS} cards and player 1 or 2 to lead, not \
             {cards} cards and player {} to lead",
            leader.saturating_add(1)
        ));
    }
    Ok(())
}

/// What one trick did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Trick {
    /// Cards laid.
    pub laid: u64,
    /// Who took the pile (0-based).
    pub taker: usize,
    /// The cards taken.
    pub taken: usize,
    /// The game's end, if the trick ended it (or the card cap was reached: `Capped`).
    pub ended: Option<Outcome>,
}

impl Position {
    /// The position of a deal (each hand's demands, top card first), player 1 to lead, or why
    /// there is none ([`Position::new`]).
    pub fn dealt(hand1: &[u8], hand2: &[u8]) -> Result<Position, UsageError> {
        Position::new(hand1, hand2, 0)
    }

    /// The position with these hands (top card first) and `leader` (0-based) to lead, or why
    /// there is none: more than [`MAX_CARDS`] cards together, or a leader other than player 1
    /// or 2.
    pub fn new(hand1: &[u8], hand2: &[u8], leader: usize) -> Result<Position, UsageError> {
        check_fits(hand1.len().saturating_add(hand2.len()), leader)?;
        Ok(Position::fitted(hand1, hand2, leader))
    }

    /// [`Position::new`] of hands and a leader known to fit: a deal of a checked deck, or a
    /// position played or walked to.
    pub(super) fn fitted(hand1: &[u8], hand2: &[u8], leader: usize) -> Position {
        debug_assert!(check_fits(hand1.len() + hand2.len(), leader).is_ok());
        let mut p = Position {
            hands: [Hand::EMPTY; 2],
            leader,
        };
        p.hands[0].set(hand1);
        p.hands[1].set(hand2);
        p
    }

    /// Player 1's and player 2's hands.
    pub fn hands(&self) -> &[Hand; 2] {
        &self.hands
    }

    /// Who leads (0-based).
    pub fn leader(&self) -> usize {
        self.leader
    }

    /// Whether both hands and the leader are the same (the hands' rings may start anywhere).
    pub fn same(&self, other: &Position) -> bool {
        self.leader == other.leader
            && self.hands[0].same(&other.hands[0])
            && self.hands[1].same(&other.hands[1])
    }

    /// Writes both hands to `cards` (what it held is dropped), player 1's first, each ring's
    /// two pieces copied whole; returns player 1's count.
    pub(super) fn cards_into(&self, cards: &mut Vec<u8>) -> usize {
        let [a, b] = &self.hands;
        cards.resize(2 * MAX_CARDS, 0);
        cards[..MAX_CARDS].copy_from_slice(&a.top_first());
        cards[a.len..a.len + MAX_CARDS].copy_from_slice(&b.top_first());
        cards.truncate(a.len + b.len);
        a.len
    }

    /// The position `tricks` tricks on, no card cap (a position on a cycle, whose game no
    /// trick ends: [`super::phase::after`] plays the same a phase at a time).
    pub(super) fn after(&self, tricks: u64) -> Position {
        let mut p = *self;
        for _ in 0..tricks {
            p.trick(u64::MAX);
        }
        p
    }

    /// Plays one trick, laying at most `budget` cards (the rest of the card cap: reaching it
    /// ends the game as `Capped`).
    ///
    /// Written as its two phases (players alternating until a penalty card, then a payer
    /// paying a demand) with the player to lay and the other as locals swapped in registers:
    /// indexing the hands by a turn number put a load of the hand's address on every card's
    /// dependency chain.
    #[inline]
    pub fn trick(&mut self, budget: u64) -> Trick {
        let budget = usize::try_from(budget).unwrap_or(usize::MAX);
        let leader = self.leader;
        let [h0, h1] = &mut self.hands;
        let (a, b) = if leader == 0 { (h0, h1) } else { (h1, h0) };
        let mut x = Side::new(a, leader);
        let mut y = Side::new(b, leader ^ 1);
        let mut pile = [0u8; MAX_CARDS];
        let mut laid = 0usize;
        // Until a penalty card, the players alternate.
        let mut owed = loop {
            if x.len == 0 || laid == budget {
                break 0;
            }
            let c = x.pop();
            pile[laid & MASK] = c;
            laid += 1;
            std::mem::swap(&mut x, &mut y);
            if c > 0 {
                break c;
            }
        };
        // x pays what y's card demands; a penalty card laid while paying turns the demand.
        let won = owed > 0
            && 'paying: loop {
                let mut left = owed;
                while left > 0 {
                    if x.len == 0 || laid == budget {
                        break 'paying false;
                    }
                    let c = x.pop();
                    pile[laid & MASK] = c;
                    laid += 1;
                    if c > 0 {
                        owed = c;
                        std::mem::swap(&mut x, &mut y);
                        continue 'paying;
                    }
                    left -= 1;
                }
                break true;
            };
        // The trick ended: a demand paid (`won`), a player with no card to lay, or the cap.
        let capped = !won && x.len > 0;
        let taker = y.who;
        if !capped {
            y.take(&pile[..laid]);
        }
        let out_of_cards = x.len == 0;
        let (xw, yw) = (x.who, y.who);
        let (xs, ys) = (x.end(), y.end());
        self.hands[xw].head = xs.0;
        self.hands[xw].len = xs.1;
        self.hands[yw].head = ys.0;
        self.hands[yw].len = ys.1;
        if capped {
            return Trick {
                laid: laid as u64,
                taker,
                taken: 0,
                ended: Some(Outcome::Capped),
            };
        }
        self.leader = taker;
        Trick {
            laid: laid as u64,
            taker,
            taken: laid,
            ended: out_of_cards.then_some(Outcome::Player(taker as u8)),
        }
    }
}

/// A hand while a trick is played: its cards, and its head and length as locals.
struct Side<'a> {
    buf: &'a mut [u8; MAX_CARDS],
    head: usize,
    len: usize,
    who: usize,
}

impl<'a> Side<'a> {
    fn new(hand: &'a mut Hand, who: usize) -> Self {
        Side {
            head: hand.head,
            len: hand.len,
            buf: &mut hand.buf,
            who,
        }
    }

    #[inline(always)]
    fn pop(&mut self) -> u8 {
        let c = self.buf[self.head];
        self.head = (self.head + 1) & MASK;
        self.len -= 1;
        c
    }

    /// Puts `pile` under the hand, first card first (a loop: piles are short, and a copy of
    /// a length known only here is a call).
    #[inline(always)]
    fn take(&mut self, pile: &[u8]) {
        let at = self.head + self.len;
        for (i, &c) in pile.iter().enumerate() {
            self.buf[(at + i) & MASK] = c;
        }
        self.len += pile.len();
    }

    fn end(self) -> (usize, usize) {
        (self.head, self.len)
    }
}

/// How a game ended, in cards and tricks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Played {
    /// Cards laid (a loop: up to the second time the repeated position stands).
    pub cards: u64,
    /// Tricks (piles taken), counted the same way.
    pub tricks: u64,
    /// The outcome.
    pub outcome: Outcome,
    /// A loop's start and length in cards, and its start and length in tricks.
    pub cycle: Option<(Cycle, Cycle)>,
}

impl Played {
    /// A loop that starts after `from_cards` cards (`from_tricks` tricks) and returns every
    /// `cycle_cards` cards (`cycle_tricks` tricks), counted to the repeat as the records count.
    pub(super) fn looped(
        from_cards: u64,
        cycle_cards: u64,
        from_tricks: u64,
        cycle_tricks: u64,
    ) -> Played {
        Played {
            cards: from_cards + cycle_cards,
            tricks: from_tricks + cycle_tricks,
            outcome: Outcome::Loop,
            cycle: Some((
                Cycle {
                    loop_from: from_cards,
                    cycle_len: cycle_cards,
                },
                Cycle {
                    loop_from: from_tricks,
                    cycle_len: cycle_tricks,
                },
            )),
        }
    }
}

/// One worker's positions: the game, Brent's saved copy, and the deal (to find where a loop
/// starts).
#[derive(Clone, Debug)]
pub struct BmnScratch {
    pub(super) deck: Vec<u8>,
    pub(super) counts: Vec<u32>,
    pub(super) game: Position,
    pub(super) saved: Position,
    pub(super) start: Position,
}

/// Plays `s.start` to its end with loop detection, at most `max_rounds` cards; every trick is
/// also handed to `each` (the trace).
pub(super) fn play_from(
    s: &mut BmnScratch,
    max_rounds: u64,
    each: &mut dyn FnMut(&Position, &Trick, u64) -> ControlFlow<()>,
) -> Played {
    s.game = s.start;
    s.saved = s.start;
    let (mut cards, mut tricks) = (0u64, 0u64);
    let (mut power, mut lam) = (1u64, 0u64);
    loop {
        let t = s.game.trick(max_rounds - cards);
        cards += t.laid;
        tricks += 1;
        if each(&s.game, &t, cards).is_break() {
            return Played {
                cards,
                tricks,
                outcome: Outcome::Capped,
                cycle: None,
            };
        }
        if let Some(outcome) = t.ended {
            let tricks = if outcome == Outcome::Capped {
                tricks - 1
            } else {
                tricks
            };
            return Played {
                cards,
                tricks,
                outcome,
                cycle: None,
            };
        }
        lam += 1;
        if s.game.same(&s.saved) {
            return cycle_of(s, lam);
        }
        if lam == power {
            s.saved = s.game;
            power *= 2;
            lam = 0;
        }
    }
}

/// The loop of the game from `s.start`, whose cycle is `lam` tricks long: where it starts
/// (Brent's second phase, two positions `lam` tricks apart walked together), in cards and
/// tricks.
fn cycle_of(s: &mut BmnScratch, lam: u64) -> Played {
    let mut ahead = s.start;
    let mut ahead_cards = 0;
    for _ in 0..lam {
        ahead_cards += ahead.trick(u64::MAX).laid;
    }
    let mut behind = s.start;
    let (mut from_cards, mut from_tricks) = (0u64, 0u64);
    while !behind.same(&ahead) {
        from_cards += behind.trick(u64::MAX).laid;
        ahead_cards += ahead.trick(u64::MAX).laid;
        from_tricks += 1;
    }
    let cycle_cards = ahead_cards - from_cards;
    Played::looped(from_cards, cycle_cards, from_tricks, lam)
}
