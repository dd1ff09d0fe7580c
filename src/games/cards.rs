//! Small-integer cards, a fixed-capacity pile, and the two random primitives every game uses.
//!
//! Cards are `u8` ranks (1 = lowest). A [`Pile`] is a ring buffer whose capacity is fixed when
//! the scratch space is made, so playing a game never allocates.
//!
//! The shuffle and the bounded draw are written here rather than taken from `rand::seq`: rand
//! 0.9.0 changed `shuffle`'s output, and pinning our own algorithm keeps every deal of every
//! (seed, game) pair stable across dependency upgrades.

use rand::RngCore;

/// A card's rank: 1 is the lowest; a higher rank beats a lower one.
pub type Card = u8;

/// A uniformly random integer in `0..n`, by Lemire's nearly divisionless method (unbiased).
///
/// Panics if `n` is 0.
#[inline]
pub fn bounded<R: RngCore + ?Sized>(rng: &mut R, n: u32) -> u32 {
    assert!(n > 0, "bounded(0) has no value");
    let mut m = u64::from(rng.next_u32()) * u64::from(n);
    if (m as u32) < n {
        let threshold = n.wrapping_neg() % n;
        while (m as u32) < threshold {
            m = u64::from(rng.next_u32()) * u64::from(n);
        }
    }
    (m >> 32) as u32
}

/// Shuffles `items` in place (Fisher–Yates, from the back), every order equally likely.
pub fn shuffle<T, R: RngCore + ?Sized>(rng: &mut R, items: &mut [T]) {
    for i in (1..items.len()).rev() {
        let j = bounded(rng, i as u32 + 1) as usize;
        items.swap(i, j);
    }
}

/// Random bits drawn 64 at a time, for games that flip a coin every round.
#[derive(Clone, Debug, Default)]
pub struct CoinFlips {
    bits: u64,
    left: u32,
}

impl CoinFlips {
    /// Forgets any buffered bits, so a new game starts from its own generator only.
    pub fn reset(&mut self) {
        self.left = 0;
    }

    /// One fair random bit.
    #[inline]
    pub fn flip<R: RngCore + ?Sized>(&mut self, rng: &mut R) -> bool {
        if self.left == 0 {
            self.bits = rng.next_u64();
            self.left = 64;
        }
        let bit = self.bits & 1 == 1;
        self.bits >>= 1;
        self.left -= 1;
        bit
    }
}

/// Where a pile's cards are in its ring buffer.
///
/// Hot loops copy the cursors of the piles they play into local variables
/// ([`Pile::split`]), so the compiler keeps them in registers: a store of a card through the
/// buffer could otherwise alias a cursor field in memory and force a reload every round.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Cursor {
    /// Position of the top card (wrapping; masked on access).
    head: usize,
    /// Position after the bottom card, so the length is `tail − head` and a push touches one
    /// field.
    tail: usize,
}

impl Cursor {
    /// Number of cards.
    #[inline(always)]
    pub fn len(self) -> usize {
        self.tail.wrapping_sub(self.head)
    }

    /// Whether there is no card.
    #[inline(always)]
    pub fn is_empty(self) -> bool {
        self.tail == self.head
    }

    /// The top card (the pile must not be empty).
    #[inline(always)]
    pub fn top(self, buf: &[Card]) -> Card {
        buf[self.head & (buf.len() - 1)]
    }

    /// The bottom card (the pile must not be empty).
    #[inline(always)]
    pub fn bottom(self, buf: &[Card]) -> Card {
        buf[self.tail.wrapping_sub(1) & (buf.len() - 1)]
    }

    /// Takes the top card of `buf`.
    #[inline(always)]
    pub fn pop(&mut self, buf: &[Card]) -> Card {
        debug_assert!(!self.is_empty(), "pop from an empty pile");
        let card = buf[self.head & (buf.len() - 1)];
        self.head = self.head.wrapping_add(1);
        card
    }

    /// Puts `card` at the bottom of `buf`.
    #[inline(always)]
    pub fn push(&mut self, buf: &mut [Card], card: Card) {
        debug_assert!(self.len() < buf.len(), "push onto a full pile");
        buf[self.tail & (buf.len() - 1)] = card;
        self.tail = self.tail.wrapping_add(1);
    }
}

/// A pile of cards, top first, in a ring buffer of fixed capacity.
///
/// ```
/// use warsim::games::cards::Pile;
/// let mut p = Pile::with_capacity(4);
/// p.push_bottom(3);
/// p.push_bottom(7);
/// assert_eq!(p.pop_top(), 3);
/// assert_eq!(p.len(), 1);
/// ```
#[derive(Clone, Debug)]
pub struct Pile {
    /// Power-of-two length, so positions wrap with a mask.
    buf: Box<[Card]>,
    at: Cursor,
}

impl Pile {
    /// An empty pile that can hold `capacity` cards (rounded up to a power of two).
    pub fn with_capacity(capacity: usize) -> Self {
        let size = capacity.max(1).next_power_of_two();
        Pile {
            buf: vec![0; size].into_boxed_slice(),
            at: Cursor::default(),
        }
    }

    /// Number of cards in the pile.
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.at.len()
    }

    /// Whether the pile has no card.
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.at.is_empty()
    }

    /// Removes every card.
    pub fn clear(&mut self) {
        self.at = Cursor::default();
    }

    /// Takes the top card. Panics (in debug builds) if the pile is empty.
    #[inline(always)]
    pub fn pop_top(&mut self) -> Card {
        self.at.pop(&self.buf)
    }

    /// Puts a card at the bottom. Panics (in debug builds) if the pile is full.
    #[inline(always)]
    pub fn push_bottom(&mut self, card: Card) {
        self.at.push(&mut self.buf, card)
    }

    /// Moves the top `n` cards to the end of `out`, top first.
    #[inline]
    pub fn take_into(&mut self, n: usize, out: &mut Vec<Card>) {
        let mut at = self.at;
        out.extend((0..n).map(|_| at.pop(&self.buf)));
        self.at = at;
    }

    /// Puts `cards` at the bottom in order.
    #[inline]
    pub fn extend_bottom(&mut self, cards: &[Card]) {
        let mut at = self.at;
        for &c in cards {
            at.push(&mut self.buf, c);
        }
        self.at = at;
    }

    /// The buffer and a copy of the cursor, for a hot loop; hand the cursor back with
    /// [`Pile::set_cursor`] before using the pile again.
    #[inline(always)]
    pub fn split(&mut self) -> (&mut [Card], Cursor) {
        (&mut self.buf, self.at)
    }

    /// Puts back a cursor taken with [`Pile::split`].
    #[inline(always)]
    pub fn set_cursor(&mut self, at: Cursor) {
        self.at = at;
    }

    /// The card at position `i` from the top.
    #[inline]
    pub fn get(&self, i: usize) -> Card {
        self.buf[self.at.head.wrapping_add(i) & (self.buf.len() - 1)]
    }

    /// The bottom card, if any.
    #[inline]
    pub fn last(&self) -> Option<Card> {
        (!self.is_empty()).then(|| self.get(self.len() - 1))
    }

    /// The cards from top to bottom.
    pub fn iter(&self) -> impl Iterator<Item = Card> + '_ {
        (0..self.at.len()).map(move |i| self.get(i))
    }

    /// Whether both piles hold the same cards in the same order, compared card by card.
    pub fn same_sequence(&self, other: &Pile) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }

    /// Makes this pile a copy of `other` without allocating (capacities must match).
    pub fn copy_from(&mut self, other: &Pile) {
        debug_assert_eq!(self.buf.len(), other.buf.len());
        self.buf.copy_from_slice(&other.buf);
        self.at = other.at;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_xoshiro::Xoshiro256PlusPlus;

    #[test]
    fn pile_is_first_in_first_out_across_wraparound() {
        let mut p = Pile::with_capacity(4);
        for round in 0..10u8 {
            p.push_bottom(round);
            p.push_bottom(round + 100);
            assert_eq!(p.pop_top(), round);
            assert_eq!(p.pop_top(), round + 100);
        }
        assert!(p.is_empty());
    }

    #[test]
    fn bounded_stays_in_range_and_covers_it() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
        let mut seen = [0u32; 7];
        for _ in 0..7000 {
            seen[bounded(&mut rng, 7) as usize] += 1;
        }
        // Each of 7 values expected 1000 times; sd ≈ 29, so 850..1150 is > 5 sd either side.
        assert!(seen.iter().all(|&n| (850..1150).contains(&n)), "{seen:?}");
    }

    #[test]
    fn shuffle_is_a_permutation_and_uniform_on_three() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(2);
        let mut counts = std::collections::HashMap::new();
        for _ in 0..60_000 {
            let mut v = [1, 2, 3];
            shuffle(&mut rng, &mut v);
            *counts.entry(v).or_insert(0u32) += 1;
        }
        assert_eq!(counts.len(), 6);
        // Expected 10,000 each, sd ≈ 91: 9,500..10,500 is > 5 sd.
        assert!(
            counts.values().all(|&n| (9_500..10_500).contains(&n)),
            "{counts:?}"
        );
    }

    #[test]
    fn coin_flips_are_fair() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
        let mut coins = CoinFlips::default();
        let heads = (0..100_000).filter(|_| coins.flip(&mut rng)).count();
        // sd ≈ 158: 49,200..50,800 is > 5 sd.
        assert!((49_200..50_800).contains(&heads), "{heads}");
    }
}
