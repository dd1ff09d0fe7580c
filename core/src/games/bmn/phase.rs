//! Beggar-my-neighbour played a *phase* at a time instead of a card at a time: the engine of
//! `simulate`, `exact` and `search bmn` wherever the deck fits it ([`fits`]); [`super::play`]
//! stays the reference (and plays `play bmn`'s traces), and this engine gives exactly its
//! cards, tricks, outcome and loop for every deal (the tests hold them together).
//!
//! A hand is three numbers: a mask of where its penalty cards are (bit 0 the top card), their
//! demands in order as 2-bit fields (demand − 1, the first in bits 0–1), and its length. Only
//! a card's demand matters to play, so this is the whole hand. A trick is a few *phases*: the
//! players alternate until the first penalty card, then the payer pays until a penalty card or
//! the end of the demand. Each phase is one computation: where the next penalty card lies is a
//! count of trailing zeros, so a run of plain cards costs nothing per card; laying cards is a
//! right shift; the pile gains at most one penalty card per phase (a bit in its mask and a
//! field in its queue), and taking it is two shifts and two ors. No card is ever copied.
//! Random deals lay about 255 cards in 114 phases (35 tricks), so this does a third of the
//! reference's steps, with one unpredictable branch per phase instead of one per card.
//!
//! Loops are found as the reference finds them, by Brent's algorithm over the positions at
//! the start of each trick, compared in this form: the form is canonical (no mask bit at or
//! past the length, no queue field past the mask's count), so two positions are equal exactly
//! when their hands hold the same demands in the same order and the same player leads.
//!
//! The C design this follows is `phase.h` of the measured reference in issue 40 (written here
//! afresh in Rust; nothing of it is linked).

use super::backward::Fate;
use super::play::Played;
use super::Position;
use super::MAX_CARDS;
use crate::games::Outcome;

/// The most penalty cards a deck may hold: a hand's queue is a u64 of 2-bit fields.
pub const MAX_PENALTIES: usize = 32;
/// The highest demand a 2-bit field holds (demand − 1 ≤ 3).
pub const MAX_DEMAND: u8 = 4;

/// Whether the phase engine plays a deck of these demands (0 a plain card): at most
/// [`MAX_CARDS`] cards (a hand's mask is a u64), at most [`MAX_PENALTIES`] penalty cards, and
/// no demand above [`MAX_DEMAND`]. Any other deck is played by the reference.
pub fn fits(deck: &[u8]) -> bool {
    deck.len() <= MAX_CARDS
        && deck.iter().all(|&d| d <= MAX_DEMAND)
        && deck.iter().filter(|&&d| d > 0).count() <= MAX_PENALTIES
}

/// One hand: `p` where its penalty cards are (bit 0 the top card), `q` their demands − 1,
/// 2 bits each, top first, `n` its length. Canonical: no bit of `p` at or above `n`, no field
/// of `q` past `p`'s count, so equal hands have equal numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Hand {
    p: u64,
    q: u64,
    n: u32,
}

impl Hand {
    /// The hand of these demands, top first (a deck that [`fits`]).
    fn of(cards: &[u8]) -> Hand {
        // The mask first, with no branch on a card (one there would be mispredicted at every
        // penalty card); then the penalty cards alone, a quarter of a deck's cards, each
        // one's field at the next 2 bits (at most 32 fields: the shift stays below 64).
        let mut p = 0u64;
        for (i, &c) in cards.iter().enumerate() {
            p |= u64::from(c > 0) << i;
        }
        let (mut q, mut m, mut shift) = (0u64, p, 0u32);
        while m != 0 {
            let c = cards[m.trailing_zeros() as usize];
            q |= (u64::from(c - 1) & 3).wrapping_shl(shift);
            shift += 2;
            m &= m - 1;
        }
        Hand {
            p,
            q,
            n: cards.len() as u32,
        }
    }

    /// Lays `k` plain cards from the top (`k` ≤ the length, < 64).
    #[inline(always)]
    fn lay_plain(&mut self, k: u32) {
        self.p >>= k;
        self.n -= k;
    }

    /// Lays `k` plain cards and then the penalty card under them; returns its demand − 1.
    #[inline(always)]
    fn lay_to_penalty(&mut self, k: u32) -> u64 {
        self.p >>= k + 1;
        self.n -= k + 1;
        let dq = self.q & 3;
        self.q >>= 2;
        dq
    }
}

/// A position at the start of a trick: `x` leads, `y` is the other player, `who` says which
/// player `x` is (0 for player 1). Equal positions have equal values (see [`Hand`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Phases {
    x: Hand,
    y: Hand,
    who: u32,
}

/// The pile of a trick: where its penalty cards are, their demands − 1 (2 bits each, in the
/// order laid), its length, and twice its count of penalty cards (the next field's shift).
struct Pile {
    p: u64,
    q: u64,
    n: u32,
    q_bits: u32,
}

impl Phases {
    /// The deal: player 1 holds `hand1`, player 2 `hand2` (top card first), player 1 leads.
    fn dealt(hand1: &[u8], hand2: &[u8]) -> Phases {
        Phases {
            x: Hand::of(hand1),
            y: Hand::of(hand2),
            who: 0,
        }
    }

    /// Plays one trick to its end (no cap) and returns the cards laid and whether the game
    /// ended; then `x` is the taker, who leads next or, if the game ended, has won.
    ///
    /// Shifts stay below 64: a trick starts with a card in each hand, so a hand holds at most
    /// `MAX_CARDS − 1`, and a pile position is below the cards in play.
    #[inline(always)]
    fn trick(&mut self) -> (u32, bool) {
        let Phases {
            mut x,
            mut y,
            mut who,
        } = *self;
        // The alternating phase: x lays at steps 0, 2, 4, …, y at 1, 3, 5, …; x's first
        // penalty card (or x running out) comes at step 2i, y's at step 2j + 1.
        let i = x.p.trailing_zeros().min(x.n);
        let j = y.p.trailing_zeros().min(y.n);
        let (mut pile, mut d) = if i <= j {
            if i == x.n {
                // x has no card to lay at step 2i: y takes the plain cards laid, and all.
                self.who = who ^ 1;
                return (2 * i, true);
            }
            let dq = x.lay_to_penalty(i);
            y.lay_plain(i);
            // y pays x's demand: the payer becomes x.
            std::mem::swap(&mut x, &mut y);
            who ^= 1;
            (
                Pile {
                    p: 1 << (2 * i),
                    q: dq,
                    n: 2 * i + 1,
                    q_bits: 2,
                },
                dq as u32 + 1,
            )
        } else {
            if j == y.n {
                // y has no card to lay at step 2j + 1: x takes the plain cards laid, and all.
                self.who = who;
                return (2 * j + 1, true);
            }
            x.lay_plain(j + 1);
            let dq = y.lay_to_penalty(j);
            // x pays y's demand.
            (
                Pile {
                    p: 1 << (2 * j + 1),
                    q: dq,
                    n: 2 * j + 2,
                    q_bits: 2,
                },
                dq as u32 + 1,
            )
        };
        // The paying phases: x pays d; a penalty card among the first d turns the demand.
        loop {
            let k = x.p.trailing_zeros();
            if k >= d {
                break;
            }
            let dq = x.lay_to_penalty(k);
            pile.p |= 1 << (pile.n + k);
            pile.n += k + 1;
            pile.q |= dq << pile.q_bits;
            pile.q_bits += 2;
            d = dq as u32 + 1;
            std::mem::swap(&mut x, &mut y);
            who ^= 1;
        }
        // x pays d plain cards, or what it has: y takes the pile under its hand and leads.
        let paid = d.min(x.n);
        x.lay_plain(paid);
        pile.n += paid;
        // 2 × y's penalty count is 64 only when y holds all 32 penalty cards; the pile then
        // holds none, its queue is 0, and the wrapping shift (by 0) leaves it 0.
        y.q |= pile.q.wrapping_shl(2 * y.p.count_ones());
        y.p |= pile.p << y.n;
        y.n += pile.n;
        *self = Phases {
            x: y,
            y: x,
            who: who ^ 1,
        };
        (pile.n, x.n == 0)
    }
}

impl Hand {
    /// Writes the demands, top card first, to the start of `out`; returns how many.
    fn write(&self, out: &mut [u8]) -> usize {
        let mut q = self.q;
        for (i, c) in out.iter_mut().take(self.n as usize).enumerate() {
            let pen = self.p >> i & 1 == 1;
            *c = if pen { (q & 3) as u8 + 1 } else { 0 };
            q >>= 2 * u32::from(pen);
        }
        self.n as usize
    }
}

impl Phases {
    /// The phase form of `p`; none if a hand is empty (the phase step needs a card in each).
    fn at(p: &Position) -> Option<Phases> {
        let [a, b] = &p.hands;
        let (x, y) = if p.leader == 0 { (a, b) } else { (b, a) };
        let (n, m) = (x.len(), y.len());
        (n > 0 && m > 0).then(|| Phases {
            x: Hand::of(&x.top_first()[..n]),
            y: Hand::of(&y.top_first()[..m]),
            who: p.leader as u32,
        })
    }

    /// The position at a trick's start: `x`, the player to lead, is player `who`.
    fn position(&self) -> Position {
        let (mut xs, mut ys) = ([0u8; MAX_CARDS], [0u8; MAX_CARDS]);
        let (xn, yn) = (self.x.write(&mut xs), self.y.write(&mut ys));
        let (x, y) = (&xs[..xn], &ys[..yn]);
        match self.who {
            0 => Position::fitted(x, y, 0),
            _ => Position::fitted(y, x, 1),
        }
    }
}

/// The position `tricks` tricks after `start` (a position of a deck that [`fits`], on a
/// cycle or otherwise not ending within them): what as many [`Position::trick`]s give, a
/// phase at a time. Insertion walks along its cycles with it.
pub fn after(start: &Position, tricks: u64) -> Position {
    let Some(mut p) = Phases::at(start) else {
        return start.after(tricks);
    };
    for _ in 0..tricks {
        if p.trick().1 {
            break;
        }
    }
    p.position()
}

/// Where the game from `start` (a position of a deck that [`fits`]) leads within `max_tricks`
/// tricks: exactly [`super::backward::fate`]'s answer, the same Brent's schedule over the same
/// positions (a phase position is its card position's penalty cards and demands, compared
/// whole), played a phase at a time instead of a card at a time. The census judges the tries
/// the lanes hand back with it (those that loop, mostly).
pub fn fate(start: &Position, max_tricks: u64) -> Fate {
    // A position with an empty hand (a census move may empty one) is the card engine's.
    let Some(first) = Phases::at(start) else {
        return super::backward::fate(start, max_tricks);
    };
    let (mut saved, mut hare) = (first, first);
    let (mut power, mut lam) = (1u64, 0u64);
    for played in 1..=max_tricks {
        if hare.trick().1 {
            return Fate::Ends(played);
        }
        lam += 1;
        if hare == saved {
            return Fate::Cycle(hare.position(), lam);
        }
        if lam == power {
            saved = hare;
            power *= 2;
            lam = 0;
        }
    }
    Fate::Undecided
}

/// Plays the deal `hand1`/`hand2` (player 1 leads; the deck [`fits`]) to its end, at most
/// `max_rounds` cards, with loop detection: exactly what [`super::play::play_from`] reports
/// for the same deal and cap.
pub fn play(hand1: &[u8], hand2: &[u8], max_rounds: u64) -> Played {
    let start = Phases::dealt(hand1, hand2);
    let (mut game, mut saved) = (start, start);
    let (mut cards, mut tricks) = (0u64, 0u64);
    let (mut power, mut lam) = (1u64, 0u64);
    loop {
        let (laid, over) = game.trick();
        // A trick longer than the cards left under the cap is where the reference stops, with
        // the cap's cards laid and that trick not counted.
        if u64::from(laid) > max_rounds - cards {
            return Played {
                cards: max_rounds,
                tricks,
                outcome: Outcome::Capped,
                cycle: None,
            };
        }
        cards += u64::from(laid);
        tricks += 1;
        if over {
            return Played {
                cards,
                tricks,
                outcome: Outcome::Player(game.who as u8),
                cycle: None,
            };
        }
        // Brent's algorithm, saving after tricks 1, 3, 7, 15, … as the reference does.
        lam += 1;
        if game == saved {
            return cycle_of(start, lam);
        }
        if lam == power {
            saved = game;
            power *= 2;
            lam = 0;
        }
    }
}

/// The loop of the game from `start`, whose cycle is `lam` tricks long: where it starts (two
/// positions `lam` tricks apart walked together until they meet), as the reference reports
/// it. No trick of a game that loops ends it.
fn cycle_of(start: Phases, lam: u64) -> Played {
    let mut ahead = start;
    let mut ahead_cards = 0u64;
    for _ in 0..lam {
        ahead_cards += u64::from(ahead.trick().0);
    }
    let mut behind = start;
    let (mut from_cards, mut from_tricks) = (0u64, 0u64);
    while behind != ahead {
        from_cards += u64::from(behind.trick().0);
        ahead_cards += u64::from(ahead.trick().0);
        from_tricks += 1;
    }
    let cycle_cards = ahead_cards - from_cards;
    Played::looped(from_cards, cycle_cards, from_tricks, lam)
}
