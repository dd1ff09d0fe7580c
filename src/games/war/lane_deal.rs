//! The lanes' deal (issue 25): the `bryer` and `shuffled` deals of 8 games at once, with
//! exactly the draws each game makes on the other paths, and each game's generator after them. Alone, a deal is a chain of dependent draws, loads and
//! stores (about a fifth of a lane engine's time); 8 generators in the lanes of one vector and
//! 8 interleaved chains of swaps keep the core busy instead.

use std::arch::x86_64::*;

use rand::SeedableRng;

use super::rules::DealOrder;
use super::War;
use crate::games::cards::Card;
use crate::sim::rng::{splitmix_finalize, GameRng};

/// Games dealt at once by [`deal8`].
pub(super) const AHEAD: usize = 8;

/// The generators of 8 consecutive games, `first..first + 8` of the run with base `seed`,
/// in the lanes of 4 vectors: the xoshiro256++ state of each game's
/// [`game_rng`](crate::sim::rng::game_rng), seeded by SplitMix64 as `seed_from_u64` seeds it.
struct Gen8 {
    s: [__m512i; 4],
}

impl Gen8 {
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq,popcnt")]
    fn new(seed: u64, first: u64) -> Gen8 {
        // SplitMix64 from each game's seed, four outputs: the xoshiro state.
        let index = _mm512_add_epi64(
            _mm512_set1_epi64(first as i64),
            _mm512_setr_epi64(0, 1, 2, 3, 4, 5, 6, 7),
        );
        let mut x = _mm512_xor_si512(_mm512_set1_epi64(splitmix_finalize(seed) as i64), index);
        Gen8 {
            s: [(); 4].map(|()| splitmix(&mut x)),
        }
    }

    /// Each game's next `bounded(rng, range)` draw (`range` the same for all 8), as the low
    /// byte of each qword; sets `rejected`'s bit for a game whose draw `bounded` would
    /// reject and draw again (under 2^-25 per draw with these ranges).
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq,popcnt")]
    fn bounded(&mut self, range: u32, rejected: &mut u8) -> __m512i {
        let [s0, s1, s2, s3] = &mut self.s;
        // xoshiro256++'s output and step.
        let out = _mm512_add_epi64(_mm512_rol_epi64::<23>(_mm512_add_epi64(*s0, *s3)), *s0);
        let t = _mm512_slli_epi64::<17>(*s1);
        *s2 = _mm512_xor_si512(*s2, *s0);
        *s3 = _mm512_xor_si512(*s3, *s1);
        *s1 = _mm512_xor_si512(*s1, *s2);
        *s0 = _mm512_xor_si512(*s0, *s3);
        *s2 = _mm512_xor_si512(*s2, t);
        *s3 = _mm512_rol_epi64::<45>(*s3);
        // `bounded`: the upper 32 bits (`next_u32`) times the range; the low half below the
        // range would need the unbiasing check.
        let range = _mm512_set1_epi64(i64::from(range));
        let m = _mm512_mul_epu32(_mm512_srli_epi64::<32>(out), range);
        *rejected |=
            _mm512_cmplt_epu64_mask(_mm512_and_si512(m, _mm512_set1_epi64(0xffff_ffff)), range);
        _mm512_srli_epi64::<32>(m)
    }

    /// Each game's generator as it now stands, as `GameRng::from_seed` takes it back.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq,popcnt")]
    fn states(&self) -> [GameRng; AHEAD] {
        let words = self.s.map(|v| {
            let mut w = [0u64; AHEAD];
            // SAFETY: `w` is 64 bytes, the width of the unaligned store.
            unsafe { _mm512_storeu_si512(w.as_mut_ptr().cast(), v) };
            w
        });
        std::array::from_fn(|g| {
            let mut seed = [0u8; 32];
            for (k, chunk) in seed.chunks_exact_mut(8).enumerate() {
                chunk.copy_from_slice(&words[k][g].to_le_bytes());
            }
            GameRng::from_seed(seed)
        })
    }
}

/// Stores the low byte of each of `v`'s qwords in `row`.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq,popcnt")]
fn store_bytes(row: &mut [u8; AHEAD], v: __m512i) {
    // SAFETY: `row` is 8 bytes, the width of the store.
    unsafe { _mm512_mask_cvtepi64_storeu_epi8(row.as_mut_ptr().cast(), 0xff, v) };
}

/// The deal of 8 consecutive games, `first..first + 8` of the run with base `seed`, for the
/// `bryer` and `shuffled` deals of decks of at most 64 cards without `--p1-cards`: the draws
/// of [`bryer_deal`](super::deal::bryer_deal) or of the shuffled deal
/// (`Position::deal`) from each game's [`game_rng`](crate::sim::rng::game_rng), computed for
/// the 8 games at once ([`Gen8`]), the swaps interleaved so that one game's chain of dependent
/// loads and stores overlaps the others'. Game `g`'s player 1 gets `p1[g][..n / 2]`, top
/// first, player 2 `p2[g][..n - n / 2]`, and `rng[g]` is its generator after the deal, for
/// the draws of its play.
///
/// Returns `false`, having dealt nothing, in the rare case (under 2^-25 per draw) where a draw
/// would be rejected by [`bounded`](crate::games::cards::bounded)'s unbiasing and draw again:
/// the caller then deals those games one at a time.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq,popcnt")]
pub(super) fn deal8(
    war: &War,
    seed: u64,
    first: u64,
    p1: &mut [[Card; 64]; AHEAD],
    p2: &mut [[Card; 64]; AHEAD],
    rng: &mut [GameRng; AHEAD],
) -> bool {
    let n = war.deck.len();
    assert!((2..=64).contains(&n), "deal8: {n} cards");
    assert!(
        war.fixed_hands.is_none(),
        "deal8: --p1-cards deals one at a time"
    );
    let mut gen = Gen8::new(seed, first);
    let mut draws = [[0u8; AHEAD]; 64];
    let mut rejected = 0u8;
    let half = n / 2;
    match war.rules.deal {
        DealOrder::Bryer => {
            // Player 1's cards, drawn from the deck's positions left (draw i in 0..n - i).
            for (i, row) in draws.iter_mut().enumerate().take(half) {
                let j = gen.bounded((n - i) as u32, &mut rejected);
                store_bytes(row, _mm512_add_epi64(j, _mm512_set1_epi64(i as i64)));
            }
        }
        DealOrder::Shuffled => {
            // Fisher–Yates from the back: draw k swaps position n − 1 − k with one of 0..=it.
            for (k, row) in draws.iter_mut().enumerate().take(n - 1) {
                store_bytes(row, gen.bounded((n - k) as u32, &mut rejected));
            }
        }
        DealOrder::Even => unreachable!("deal8: the even deal is dealt one at a time"),
    }
    if rejected != 0 {
        return false;
    }
    *rng = gen.states();
    if war.rules.deal == DealOrder::Shuffled {
        let mut cards = [[0u8; 64]; AHEAD];
        for c in &mut cards {
            c[..n].copy_from_slice(&war.deck);
        }
        for (k, row) in draws.iter().enumerate().take(n - 1) {
            let i = n - 1 - k;
            for g in 0..AHEAD {
                cards[g].swap(i, usize::from(row[g]) & 63);
            }
        }
        for g in 0..AHEAD {
            p1[g][..half].copy_from_slice(&cards[g][..half]);
            p2[g][..n - half].copy_from_slice(&cards[g][half..n]);
        }
        return true;
    }
    let mut positions = [[0u8; 64]; AHEAD];
    for p in &mut positions {
        for (i, x) in p.iter_mut().enumerate() {
            *x = i as u8;
        }
    }
    let mut taken = [0u64; AHEAD];
    for (i, row) in draws.iter().enumerate().take(half) {
        for g in 0..AHEAD {
            let j = usize::from(row[g]) & 63;
            positions[g].swap(i, j);
            let k = usize::from(positions[g][i]) & 63;
            taken[g] |= 1 << k;
            p1[g][i] = war.deck[k];
        }
    }
    for g in 0..AHEAD {
        let mut free = !taken[g] & (u64::MAX >> (64 - n));
        let mut t = 0;
        while free != 0 {
            p2[g][t] = war.deck[free.trailing_zeros() as usize];
            t += 1;
            free &= free - 1;
        }
    }
    true
}

/// SplitMix64's next output in each lane, as `rand_xoshiro::SplitMix64::next_u64` makes it.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq,popcnt")]
fn splitmix(x: &mut __m512i) -> __m512i {
    *x = _mm512_add_epi64(*x, _mm512_set1_epi64(0x9e37_79b9_7f4a_7c15_u64 as i64));
    let z = *x;
    let z = _mm512_mullo_epi64(
        _mm512_xor_si512(z, _mm512_srli_epi64::<30>(z)),
        _mm512_set1_epi64(0xbf58_476d_1ce4_e5b9_u64 as i64),
    );
    let z = _mm512_mullo_epi64(
        _mm512_xor_si512(z, _mm512_srli_epi64::<27>(z)),
        _mm512_set1_epi64(0x94d0_49bb_1331_11eb_u64 as i64),
    );
    _mm512_xor_si512(z, _mm512_srli_epi64::<31>(z))
}
