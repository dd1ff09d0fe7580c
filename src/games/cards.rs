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

/// The odd multiplier of [`Pile`]'s fingerprint. Odd, so it is invertible modulo 2^64.
const HASH_BASE: u64 = 0x9E37_79B9_7F4A_7C15;

/// The fingerprint weights `HASH_BASE^j` for positions `j = 0..=capacity`, shared by all piles of
/// one game.
#[derive(Clone, Debug)]
pub struct HashPowers {
    powers: Vec<u64>,
    inverse: u64,
}

impl HashPowers {
    /// Weights for piles of up to `capacity` cards.
    pub fn new(capacity: usize) -> Self {
        let mut powers = Vec::with_capacity(capacity + 1);
        let mut p = 1u64;
        for _ in 0..=capacity {
            powers.push(p);
            p = p.wrapping_mul(HASH_BASE);
        }
        // Newton's iteration for the inverse modulo 2^64: each step doubles the correct bits.
        let mut inverse = HASH_BASE;
        for _ in 0..6 {
            inverse = inverse.wrapping_mul(2u64.wrapping_sub(HASH_BASE.wrapping_mul(inverse)));
        }
        HashPowers { powers, inverse }
    }
}

/// Where a pile's cards are in its ring buffer, plus its fingerprint.
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
    hash: u64,
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

    /// Takes the top card of `buf`; with `H`, keeps the fingerprint.
    #[inline(always)]
    pub fn pop<const H: bool>(&mut self, buf: &[Card], hp: &HashPowers) -> Card {
        debug_assert!(!self.is_empty(), "pop from an empty pile");
        let card = buf[self.head & (buf.len() - 1)];
        self.head = self.head.wrapping_add(1);
        if H {
            self.hash = self
                .hash
                .wrapping_sub(u64::from(card))
                .wrapping_mul(hp.inverse);
        }
        card
    }

    /// Puts `card` at the bottom of `buf`; with `H`, keeps the fingerprint.
    #[inline(always)]
    pub fn push<const H: bool>(&mut self, buf: &mut [Card], card: Card, hp: &HashPowers) {
        debug_assert!(self.len() < buf.len(), "push onto a full pile");
        if H {
            self.hash = self
                .hash
                .wrapping_add(u64::from(card).wrapping_mul(hp.powers[self.len()]));
        }
        buf[self.tail & (buf.len() - 1)] = card;
        self.tail = self.tail.wrapping_add(1);
    }
}

/// A pile of cards, top first, in a ring buffer of fixed capacity.
///
/// With `H = true` on its operations the pile keeps a polynomial fingerprint of its
/// sequence, `Σ card_j · B^j` over positions from the top, updated in O(1) per card. Loop
/// detection compares fingerprints first and confirms a match card by card, so the fingerprint
/// only saves work and can never cause a false positive.
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

/// A fingerprint table for piles that are never hashed.
static NO_POWERS: HashPowers = HashPowers {
    powers: Vec::new(),
    inverse: 1,
};

impl HashPowers {
    /// The table to pass to operations that do not hash (`H = false`).
    pub fn none() -> &'static HashPowers {
        &NO_POWERS
    }
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
        self.at.pop::<false>(&self.buf, &NO_POWERS)
    }

    /// Puts a card at the bottom. Panics (in debug builds) if the pile is full.
    #[inline(always)]
    pub fn push_bottom(&mut self, card: Card) {
        self.at.push::<false>(&mut self.buf, card, &NO_POWERS)
    }

    /// [`Pile::pop_top`], keeping the fingerprint.
    #[inline(always)]
    pub fn pop_top_hashed(&mut self, hp: &HashPowers) -> Card {
        self.at.pop::<true>(&self.buf, hp)
    }

    /// [`Pile::push_bottom`], keeping the fingerprint.
    #[inline(always)]
    pub fn push_bottom_hashed(&mut self, card: Card, hp: &HashPowers) {
        self.at.push::<true>(&mut self.buf, card, hp)
    }

    /// Moves the top `n` cards to the end of `out`, top first; with `H`, keeps the fingerprint.
    #[inline]
    pub fn take_into<const H: bool>(&mut self, n: usize, out: &mut Vec<Card>, hp: &HashPowers) {
        let mut at = self.at;
        out.extend((0..n).map(|_| at.pop::<H>(&self.buf, hp)));
        self.at = at;
    }

    /// Puts `cards` at the bottom in order; with `H`, keeps the fingerprint.
    #[inline]
    pub fn extend_bottom<const H: bool>(&mut self, cards: &[Card], hp: &HashPowers) {
        let mut at = self.at;
        for &c in cards {
            at.push::<H>(&mut self.buf, c, hp);
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

    /// Whether both piles hold the same cards in the same order, compared card by card (for
    /// piles whose fingerprints are not kept).
    pub fn same_sequence(&self, other: &Pile) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }

    /// Whether both piles hold the same cards in the same order (fingerprint first).
    #[inline]
    pub fn same_cards(&self, other: &Pile) -> bool {
        self.at.len() == other.at.len()
            && self.at.hash == other.at.hash
            && self.iter().eq(other.iter())
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
    fn fingerprint_depends_on_sequence_not_buffer_position() {
        let hp = HashPowers::new(8);
        let mut a = Pile::with_capacity(8);
        let mut b = Pile::with_capacity(8);
        for c in [5, 1, 2, 9] {
            a.push_bottom_hashed(c, &hp);
        }
        // b reaches the same sequence after rotating through other cards.
        for c in [7, 7, 7, 5, 1] {
            b.push_bottom_hashed(c, &hp);
        }
        for _ in 0..3 {
            b.pop_top_hashed(&hp);
        }
        b.push_bottom_hashed(2, &hp);
        b.push_bottom_hashed(9, &hp);
        assert_eq!(a.at.hash, b.at.hash);
        assert!(a.same_cards(&b));
        // The incremental fingerprint equals Σ card_j · B^j computed from scratch.
        let direct = (0..a.len()).fold(0u64, |h, i| {
            h.wrapping_add(u64::from(a.get(i)).wrapping_mul(hp.powers[i]))
        });
        assert_eq!(a.at.hash, direct);
        b.pop_top_hashed(&hp);
        assert!(!a.same_cards(&b));
    }

    #[test]
    fn hash_inverse_is_exact() {
        let hp = HashPowers::new(1);
        assert_eq!(HASH_BASE.wrapping_mul(hp.inverse), 1);
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
