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
    // Before any draw, so that no draw's bound can wrap to 0 (see below).
    assert!(
        u32::try_from(items.len()).is_ok(),
        "a shuffle of 2^32 items or more"
    );
    for i in (1..items.len()).rev() {
        // `min` leaves j as drawn (it is at most i) but shows the compiler that the swap is in
        // bounds, as the assert shows that i + 1 does not wrap: with no panic in the loop, the
        // generator's state can stay in registers instead of going back to memory at every
        // draw (a shuffle of a won pile took 40% of `--pickup won-pile`'s time on AMD's Zen 3,
        // issue 41).
        let j = (bounded(rng, i as u32 + 1) as usize).min(i);
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

    /// The next `n` ≤ 32 flips at once, the first in the lowest bit: the same bits, drawn from
    /// `rng` at the same moments, as `n` calls of [`CoinFlips::flip`].
    #[inline]
    pub fn take<R: RngCore + ?Sized>(&mut self, n: u32, rng: &mut R) -> u32 {
        debug_assert!(n <= 32);
        if n <= self.left {
            let bits = self.bits & ((1u64 << n) - 1);
            self.bits >>= n;
            self.left -= n;
            return bits as u32;
        }
        // The `had` bits left (`reset` leaves stale ones above them), then n − had ≤ 32 of a
        // fresh word.
        let had = self.left;
        let low = self.bits & ((1u64 << had) - 1);
        let more = n - had;
        let word = rng.next_u64();
        self.bits = word >> more;
        self.left = 64 - more;
        (low | (word & ((1u64 << more) - 1)) << had) as u32
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

    /// The card `i` places from the top.
    #[inline(always)]
    pub fn get(self, buf: &[Card], i: usize) -> Card {
        buf[self.head.wrapping_add(i) & (buf.len() - 1)]
    }

    /// The last `n` cards taken from the top, as a pile of their own (top first): they stay in
    /// the buffer until a push reaches them, which the caller rules out.
    #[inline(always)]
    pub fn taken(self, n: usize) -> Cursor {
        Cursor {
            head: self.head.wrapping_sub(n),
            tail: self.head,
        }
    }

    /// The last `n` cards pushed, as a pile of their own.
    #[inline(always)]
    pub fn pushed(self, n: usize) -> Cursor {
        Cursor {
            head: self.tail.wrapping_sub(n),
            tail: self.tail,
        }
    }

    /// A pile at positions `head..tail` of a buffer: for an engine that keeps its own offsets
    /// (the lanes) and lends them to code written for cursors.
    #[inline(always)]
    pub fn span(head: usize, tail: usize) -> Cursor {
        debug_assert!(head <= tail, "a span ends before it starts");
        Cursor { head, tail }
    }

    /// Where the top card is in a buffer of `len` cards.
    #[inline(always)]
    pub fn head_index(self, len: usize) -> usize {
        self.head & (len - 1)
    }

    /// Where the next card pushed goes in a buffer of `len` cards.
    #[inline(always)]
    pub fn tail_index(self, len: usize) -> usize {
        self.tail & (len - 1)
    }

    /// Counts `n` cards written at the bottom directly (from [`Cursor::tail_index`] on, wrapping).
    #[inline(always)]
    pub fn grow(&mut self, n: usize) {
        self.tail = self.tail.wrapping_add(n);
    }

    /// Takes the top `n` cards without reading them.
    #[inline(always)]
    pub fn skip(&mut self, n: usize) {
        debug_assert!(self.len() >= n, "skip past the bottom");
        self.head = self.head.wrapping_add(n);
    }

    /// Takes the top card of `buf`.
    #[inline(always)]
    pub fn pop(&mut self, buf: &[Card]) -> Card {
        debug_assert!(!self.is_empty(), "pop from an empty pile");
        let card = buf[self.head & (buf.len() - 1)];
        self.head = self.head.wrapping_add(1);
        card
    }

    /// Shuffles the pile's cards in `buf` in place: the same draws and the same order as
    /// [`shuffle`] on a slice of them, top first.
    #[inline]
    pub fn shuffle<R: RngCore + ?Sized>(self, buf: &mut [Card], rng: &mut R) {
        let (at, len) = (self.head_index(buf.len()), self.len());
        if let Some(pile) = buf.get_mut(at..at + len) {
            // The pile does not wrap: the slice's shuffle, the same draws and swaps.
            return shuffle(rng, pile);
        }
        let mask = buf.len() - 1;
        for i in (1..self.len()).rev() {
            let j = bounded(rng, i as u32 + 1) as usize;
            buf.swap(
                self.head.wrapping_add(i) & mask,
                self.head.wrapping_add(j) & mask,
            );
        }
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
/// use warsim_core::games::cards::Pile;
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

    /// Shuffles the pile in place (see [`Cursor::shuffle`]).
    pub fn shuffle<R: RngCore + ?Sized>(&mut self, rng: &mut R) {
        self.at.shuffle(&mut self.buf, rng);
    }

    /// Turns the pile over: the bottom card becomes the top.
    pub fn reverse(&mut self) {
        let n = self.len();
        let mask = self.buf.len() - 1;
        let head = self.at.head;
        for i in 0..n / 2 {
            self.buf.swap(
                head.wrapping_add(i) & mask,
                head.wrapping_add(n - 1 - i) & mask,
            );
        }
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
        self.at.get(&self.buf, i)
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
    fn pile_shuffle_in_place_matches_the_slice_shuffle_across_the_wrap() {
        for (seed, start, n) in [(1, 0, 8), (2, 5, 8), (3, 13, 16), (4, 2, 1)] {
            let mut pile = Pile::with_capacity(16);
            (0..start).for_each(|_| pile.push_bottom(0));
            for _ in 0..start {
                let _ = pile.pop_top();
            }
            let cards: Vec<Card> = (1..=n).collect();
            pile.extend_bottom(&cards);
            let mut slice = cards.clone();
            shuffle(&mut Xoshiro256PlusPlus::seed_from_u64(seed), &mut slice);
            pile.shuffle(&mut Xoshiro256PlusPlus::seed_from_u64(seed));
            assert_eq!(pile.iter().collect::<Vec<_>>(), slice, "seed {seed}");
        }
    }

    #[test]
    fn coin_flips_taken_in_bulk_equal_single_flips() {
        let mut one = (CoinFlips::default(), Xoshiro256PlusPlus::seed_from_u64(9));
        let mut bulk = one.clone();
        for n in [0, 1, 5, 32, 31, 7, 64 - 1, 2, 32, 0, 17].map(|n: u32| n.min(32)) {
            let flips = (0..n).fold(0u32, |acc, i| acc | u32::from(one.0.flip(&mut one.1)) << i);
            assert_eq!(bulk.0.take(n, &mut bulk.1), flips, "n = {n}");
            assert_eq!(
                one.1.next_u64(),
                bulk.1.next_u64(),
                "the same draws after n = {n}"
            );
            if n == 7 {
                // A new game forgets the buffered bits (stale ones stay in the word).
                one.0.reset();
                bulk.0.reset();
            }
        }
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
