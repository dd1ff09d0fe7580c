//! The lanes' deal (issue 25): the `bryer` deal of 8 games at once, with exactly the draws
//! each game makes on the other paths. Alone, a deal is a chain of dependent draws, loads and
//! stores (about a fifth of a lane engine's time); 8 generators in the lanes of one vector and
//! 8 interleaved chains of swaps keep the core busy instead.

use std::arch::x86_64::*;

use super::War;
use crate::games::cards::Card;
use crate::sim::rng::splitmix_finalize;

/// Games dealt at once by [`deal8`].
pub(super) const AHEAD: usize = 8;

/// The `bryer` deal of 8 consecutive games, `first..first + 8` of the run with base `seed`,
/// for decks of at most 64 cards: the draws of [`bryer_deal`](super::deal::bryer_deal) from each game's
/// [`game_rng`](crate::sim::rng::game_rng), computed for the 8 games at once in the lanes of
/// 4 vectors (the xoshiro256++ state, seeded by SplitMix64 as `seed_from_u64` seeds it), the
/// swaps interleaved so that one game's chain of dependent loads and stores overlaps the
/// others'. Game `g`'s player 1 gets `p1[g][..n / 2]`, top first, player 2 `p2[g][..n - n / 2]`.
///
/// Returns `false`, having dealt nothing, in the rare case (under 2^-25 per draw) where a draw
/// would be rejected by [`bounded`](crate::games::cards::bounded)'s unbiasing and draw again: the caller then deals those
/// games one at a time.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq,popcnt")]
pub(super) fn deal8(
    war: &War,
    seed: u64,
    first: u64,
    p1: &mut [[Card; 64]; AHEAD],
    p2: &mut [[Card; 64]; AHEAD],
) -> bool {
    let n = war.deck.len();
    assert!((2..=64).contains(&n), "deal8: {n} cards");
    // SplitMix64 from each game's seed, four outputs: the xoshiro state.
    let index = _mm512_add_epi64(
        _mm512_set1_epi64(first as i64),
        _mm512_setr_epi64(0, 1, 2, 3, 4, 5, 6, 7),
    );
    let mut x = _mm512_xor_si512(_mm512_set1_epi64(splitmix_finalize(seed) as i64), index);
    let (mut s0, mut s1, mut s2, mut s3) = (
        splitmix(&mut x),
        splitmix(&mut x),
        splitmix(&mut x),
        splitmix(&mut x),
    );
    let half = n / 2;
    let mut draws = [[0u8; AHEAD]; 32];
    let mut rejected = 0u8;
    for (i, row) in draws.iter_mut().enumerate().take(half) {
        // xoshiro256++'s output and step.
        let out = _mm512_add_epi64(_mm512_rol_epi64::<23>(_mm512_add_epi64(s0, s3)), s0);
        let t = _mm512_slli_epi64::<17>(s1);
        s2 = _mm512_xor_si512(s2, s0);
        s3 = _mm512_xor_si512(s3, s1);
        s1 = _mm512_xor_si512(s1, s2);
        s0 = _mm512_xor_si512(s0, s3);
        s2 = _mm512_xor_si512(s2, t);
        s3 = _mm512_rol_epi64::<45>(s3);
        // `bounded`: the upper 32 bits times the range; the low half below the range would
        // need the unbiasing check.
        let range = _mm512_set1_epi64((n - i) as i64);
        let m = _mm512_mul_epu32(_mm512_srli_epi64::<32>(out), range);
        rejected |=
            _mm512_cmplt_epu64_mask(_mm512_and_si512(m, _mm512_set1_epi64(0xffff_ffff)), range);
        let j = _mm512_add_epi64(_mm512_srli_epi64::<32>(m), _mm512_set1_epi64(i as i64));
        // SAFETY: `row` is 8 bytes, the width of the store.
        unsafe { _mm512_mask_cvtepi64_storeu_epi8(row.as_mut_ptr().cast(), 0xff, j) };
    }
    if rejected != 0 {
        return false;
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
