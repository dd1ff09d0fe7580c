//! The lanes' deal (issue 25): the `bryer` and `shuffled` deals of 8 games at once, with
//! exactly the draws each game makes on the other paths, and each game's generator after
//! them, on AVX-512 or AVX2 as the lanes' engine (on AVX-512 with VBMI2 for either engine
//! where the CPU has it: [`fastest`]). Alone, a deal is a chain of dependent draws, loads and
//! stores (about a fifth of a lane engine's time); 8 generators in vector lanes and 8
//! interleaved chains of swaps keep the core busy instead.

use std::arch::x86_64::*;

use rand::SeedableRng;

use super::rules::DealOrder;
use super::War;
use crate::games::cards::Card;
use crate::rng::{splitmix_finalize, GameRng};

/// Games dealt at once by [`deal8`] and [`deal8_avx2`].
pub(super) const AHEAD: usize = 8;

/// A lane engine's deal of [`AHEAD`] games ([`deal8`], [`deal8_avx2`]).
///
/// # Safety
/// The CPU must have the features the function is compiled for.
pub(super) type DealAhead = unsafe fn(
    &War,
    u64,
    u64,
    &mut [[Card; 64]; AHEAD],
    &mut [[Card; 64]; AHEAD],
    &mut [GameRng; AHEAD],
) -> bool;

/// The generators of 8 consecutive games, `first..first + 8` of the run with base `seed`, in
/// vector lanes: the xoshiro256++ state of each game's
/// [`game_rng`](crate::rng::game_rng), seeded by SplitMix64 as `seed_from_u64` seeds it.
/// Its methods are `unsafe` as they run only on CPUs with their engine's features.
trait Gen8: Sized {
    /// The generators of games `first..first + 8`.
    ///
    /// # Safety
    /// The CPU must have the engine's features.
    unsafe fn new(seed: u64, first: u64) -> Self;

    /// Stores in `row` each game's next `bounded(rng, range)` draw (`range` the same for all
    /// 8) plus `plus`; sets `rejected`'s bit for a game whose draw `bounded` would reject and
    /// draw again (under 2^-25 per draw with these ranges).
    ///
    /// # Safety
    /// As [`Gen8::new`].
    unsafe fn draw(&mut self, range: u32, plus: u8, row: &mut [u8; AHEAD], rejected: &mut u8);

    /// Each game's generator as it now stands, as `GameRng::from_seed` takes it back.
    ///
    /// # Safety
    /// As [`Gen8::new`].
    unsafe fn states(&self) -> [GameRng; AHEAD];
}

/// The generators' words (`s0..s3` of each game) as `GameRng::from_seed` takes them.
fn generators(words: [[u64; AHEAD]; 4]) -> [GameRng; AHEAD] {
    std::array::from_fn(|g| {
        let mut seed = [0u8; 32];
        for (k, chunk) in seed.chunks_exact_mut(8).enumerate() {
            chunk.copy_from_slice(&words[k][g].to_le_bytes());
        }
        GameRng::from_seed(seed)
    })
}

/// [`Gen8`] on AVX-512: the 8 games' words in the qwords of 4 vectors.
struct Zmm {
    s: [__m512i; 4],
}

impl Gen8 for Zmm {
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq,popcnt")]
    unsafe fn new(seed: u64, first: u64) -> Zmm {
        // SplitMix64 from each game's seed, four outputs: the xoshiro state.
        let index = _mm512_add_epi64(
            _mm512_set1_epi64(first as i64),
            _mm512_setr_epi64(0, 1, 2, 3, 4, 5, 6, 7),
        );
        let mut x = _mm512_xor_si512(_mm512_set1_epi64(splitmix_finalize(seed) as i64), index);
        Zmm {
            s: [(); 4].map(|()| splitmix(&mut x)),
        }
    }

    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq,popcnt")]
    unsafe fn draw(&mut self, range: u32, plus: u8, row: &mut [u8; AHEAD], rejected: &mut u8) {
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
        let v = _mm512_add_epi64(
            _mm512_srli_epi64::<32>(m),
            _mm512_set1_epi64(i64::from(plus)),
        );
        // SAFETY: `row` is 8 bytes, the width of the store.
        unsafe { _mm512_mask_cvtepi64_storeu_epi8(row.as_mut_ptr().cast(), 0xff, v) };
    }

    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq,popcnt")]
    unsafe fn states(&self) -> [GameRng; AHEAD] {
        generators(self.s.map(|v| {
            let mut w = [0u64; AHEAD];
            // SAFETY: `w` is 64 bytes, the width of the unaligned store.
            unsafe { _mm512_storeu_si512(w.as_mut_ptr().cast(), v) };
            w
        }))
    }
}

/// [`Gen8`] on AVX2: each word of games 0–3 and of games 4–7 in the qwords of a vector. AVX2
/// has no 64-bit rotate, product or unsigned compare: shifts, a 32-bit product and a signed
/// compare (of values below 2^32) do their work, and SplitMix64's four outputs per game are
/// made in scalar code.
struct Ymm {
    s: [[__m256i; 2]; 4],
}

/// Each qword of `x` rotated left by `K` (`R` = 64 − `K`).
#[inline]
#[target_feature(enable = "avx2,popcnt")]
fn rol<const K: i32, const R: i32>(x: __m256i) -> __m256i {
    _mm256_or_si256(_mm256_slli_epi64::<K>(x), _mm256_srli_epi64::<R>(x))
}

impl Gen8 for Ymm {
    #[inline]
    #[target_feature(enable = "avx2,popcnt")]
    unsafe fn new(seed: u64, first: u64) -> Ymm {
        let base = splitmix_finalize(seed);
        let words: [[u64; AHEAD]; 4] = std::array::from_fn(|k| {
            std::array::from_fn(|g| {
                // Output k + 1 of SplitMix64 started at the game's seed.
                let x = base ^ (first + g as u64);
                splitmix_finalize(x.wrapping_add(GOLDEN.wrapping_mul(k as u64)))
            })
        });
        Ymm {
            s: words.map(|w| {
                // SAFETY: each half of `w` is 32 bytes, the width of the unaligned load.
                unsafe {
                    [
                        _mm256_loadu_si256(w.as_ptr().cast()),
                        _mm256_loadu_si256(w[4..].as_ptr().cast()),
                    ]
                }
            }),
        }
    }

    #[inline]
    #[target_feature(enable = "avx2,popcnt")]
    unsafe fn draw(&mut self, range: u32, plus: u8, row: &mut [u8; AHEAD], rejected: &mut u8) {
        let range = _mm256_set1_epi64x(i64::from(range));
        for h in 0..2 {
            let [s0, s1, s2, s3] = self.s.each_mut().map(|v| &mut v[h]);
            let out = _mm256_add_epi64(rol::<23, 41>(_mm256_add_epi64(*s0, *s3)), *s0);
            let t = _mm256_slli_epi64::<17>(*s1);
            *s2 = _mm256_xor_si256(*s2, *s0);
            *s3 = _mm256_xor_si256(*s3, *s1);
            *s1 = _mm256_xor_si256(*s1, *s2);
            *s0 = _mm256_xor_si256(*s0, *s3);
            *s2 = _mm256_xor_si256(*s2, t);
            *s3 = rol::<45, 19>(*s3);
            let m = _mm256_mul_epu32(_mm256_srli_epi64::<32>(out), range);
            let low = _mm256_and_si256(m, _mm256_set1_epi64x(0xffff_ffff));
            let below = _mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpgt_epi64(range, low)));
            *rejected |= (below as u8) << (4 * h);
            let mut w = [0u64; 4];
            // SAFETY: `w` is 32 bytes, the width of the unaligned store.
            unsafe { _mm256_storeu_si256(w.as_mut_ptr().cast(), _mm256_srli_epi64::<32>(m)) };
            for (to, x) in row[4 * h..4 * h + 4].iter_mut().zip(w) {
                *to = (x as u8).wrapping_add(plus);
            }
        }
    }

    #[inline]
    #[target_feature(enable = "avx2,popcnt")]
    unsafe fn states(&self) -> [GameRng; AHEAD] {
        generators(self.s.map(|halves| {
            let mut w = [0u64; AHEAD];
            // SAFETY: each half of `w` is 32 bytes, the width of the unaligned store.
            unsafe {
                _mm256_storeu_si256(w.as_mut_ptr().cast(), halves[0]);
                _mm256_storeu_si256(w[4..].as_mut_ptr().cast(), halves[1]);
            }
            w
        }))
    }
}

/// SplitMix64's increment.
const GOLDEN: u64 = 0x9e37_79b9_7f4a_7c15;

/// The deal of 8 consecutive games, `first..first + 8` of the run with base `seed`, for the
/// `bryer` and `shuffled` deals of decks of at most 64 cards without `--p1-cards`: the draws
/// of [`bryer_deal`](super::deal::bryer_deal) or of the shuffled deal
/// (`Position::deal`) from each game's [`game_rng`](crate::rng::game_rng), computed for
/// the 8 games at once ([`Gen8`]), the swaps interleaved so that one game's chain of dependent
/// loads and stores overlaps the others'. Game `g`'s player 1 gets `p1[g][..n / 2]`, top
/// first, player 2 `p2[g][..n - n / 2]`, and `rng[g]` is its generator after the deal, for
/// the draws of its play (left as it was under a deterministic pickup, whose play draws none).
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
    // SAFETY: this function's features are `Zmm`'s.
    unsafe { deal::<Zmm, false>(war, seed, first, p1, p2, rng) }
}

/// [`deal8`] where the CPU also has AVX-512 VBMI2 ([`vbmi2_available`]): player 2's cards of
/// the `bryer` deal compressed from the deck in one instruction (`vpcompressb`) instead of a
/// loop over the positions left, card by card (about a quarter of the deal's time on AMD's
/// Zen 4).
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq,avx512vbmi2,popcnt")]
pub(super) fn deal8_vbmi2(
    war: &War,
    seed: u64,
    first: u64,
    p1: &mut [[Card; 64]; AHEAD],
    p2: &mut [[Card; 64]; AHEAD],
    rng: &mut [GameRng; AHEAD],
) -> bool {
    // SAFETY: this function's features are `Zmm`'s and `compress_rest`'s.
    unsafe { deal::<Zmm, true>(war, seed, first, p1, p2, rng) }
}

/// Whether this CPU runs [`deal8_vbmi2`].
pub(super) fn vbmi2_available() -> bool {
    is_x86_feature_detected!("avx512f")
        && is_x86_feature_detected!("avx512bw")
        && is_x86_feature_detected!("avx512vl")
        && is_x86_feature_detected!("avx512dq")
        && is_x86_feature_detected!("avx512vbmi2")
        && is_x86_feature_detected!("popcnt")
}

/// The deal a lane engine whose own is `deal` ([`deal8`] or [`deal8_avx2`]) uses on this CPU:
/// [`deal8_vbmi2`] where the CPU runs it, whichever engine plays (the deals are the same
/// games; the AVX2 engine plays on Zen 4, which has it), else `deal`.
pub(super) fn fastest(deal: DealAhead) -> DealAhead {
    if vbmi2_available() {
        deal8_vbmi2
    } else {
        deal
    }
}

/// [`deal8`] on AVX2.
#[target_feature(enable = "avx2,popcnt")]
pub(super) fn deal8_avx2(
    war: &War,
    seed: u64,
    first: u64,
    p1: &mut [[Card; 64]; AHEAD],
    p2: &mut [[Card; 64]; AHEAD],
    rng: &mut [GameRng; AHEAD],
) -> bool {
    // SAFETY: this function's features are `Ymm`'s.
    unsafe { deal::<Ymm, false>(war, seed, first, p1, p2, rng) }
}

/// [`deal8`] with the generators `G`, inlined into each engine's function so that `G`'s
/// methods are too; player 2's `bryer` cards by [`compress_rest`] where `COMPRESS`.
///
/// # Safety
/// The CPU must have `G`'s features, and with `COMPRESS` [`compress_rest`]'s.
#[inline(always)]
unsafe fn deal<G: Gen8, const COMPRESS: bool>(
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
        "deal8: p1_cards deals one at a time"
    );
    // SAFETY: the caller's.
    let mut gen = unsafe { G::new(seed, first) };
    let mut draws = [[0u8; AHEAD]; 64];
    // SAFETY: the caller's.
    if !unsafe { draw_all(war, &mut gen, &mut draws) } {
        return false;
    }
    // The generators after the deal, for the pickups that draw in play: a deterministic one
    // never reads them (a lane's replay starts from `game_rng` afresh), and taking them out of
    // the vectors cost 1.2% of a `bryer` run (perf), so `rng` keeps stale ones then.
    if !war.rules.pickup.is_deterministic() {
        // SAFETY: as `new`'s.
        *rng = unsafe { gen.states() };
    }
    match war.rules.deal {
        DealOrder::Shuffled => shuffled_hands(war, &draws, p1, p2),
        // SAFETY: the caller's.
        _ => unsafe { bryer_hands::<COMPRESS>(war, &draws, p1, p2) },
    }
    true
}

/// Every draw of the 8 games' deals, in `draws` (row `k` holds draw `k` of each game):
/// player 1's cards drawn from the deck's positions left (`bryer`: draw i in 0..n − i), or
/// Fisher–Yates from the back (`shuffled`: draw k swaps position n − 1 − k with one of
/// 0..=it). `false` where a draw of some game would be rejected and drawn again.
///
/// # Safety
/// The CPU must have `G`'s features.
#[inline(always)]
unsafe fn draw_all<G: Gen8>(war: &War, gen: &mut G, draws: &mut [[u8; AHEAD]; 64]) -> bool {
    let n = war.deck.len();
    let mut rejected = 0u8;
    match war.rules.deal {
        DealOrder::Bryer => {
            for (i, row) in draws.iter_mut().enumerate().take(n / 2) {
                // SAFETY: the caller's.
                unsafe { gen.draw((n - i) as u32, i as u8, row, &mut rejected) };
            }
        }
        DealOrder::Shuffled => {
            for (k, row) in draws.iter_mut().enumerate().take(n - 1) {
                // SAFETY: the caller's.
                unsafe { gen.draw((n - k) as u32, 0, row, &mut rejected) };
            }
        }
        DealOrder::Even => unreachable!("deal8: the even deal is dealt one at a time"),
    }
    rejected == 0
}

/// The shuffled deal's hands from its `draws`: the 8 decks shuffled by their swaps, which
/// interleave so that one game's chain of dependent loads and stores overlaps the others';
/// player 1 takes the first half of each.
#[inline(always)]
fn shuffled_hands(
    war: &War,
    draws: &[[u8; AHEAD]; 64],
    p1: &mut [[Card; 64]; AHEAD],
    p2: &mut [[Card; 64]; AHEAD],
) {
    let n = war.deck.len();
    let half = n / 2;
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
}

/// The `bryer` deal's hands from its `draws`: player 1's cards in the order drawn from the
/// deck's positions left, the 8 games' swaps interleaved; player 2 the rest, in deck order
/// (by [`compress_rest`] where `COMPRESS`).
///
/// # Safety
/// With `COMPRESS`, the CPU must have [`compress_rest`]'s features.
#[inline(always)]
unsafe fn bryer_hands<const COMPRESS: bool>(
    war: &War,
    draws: &[[u8; AHEAD]; 64],
    p1: &mut [[Card; 64]; AHEAD],
    p2: &mut [[Card; 64]; AHEAD],
) {
    let n = war.deck.len();
    // The deck in 64 bytes, so that a position (masked to 6 bits) indexes it unchecked.
    let mut deck = [0u8; 64];
    deck[..n].copy_from_slice(&war.deck);
    let mut positions = [[0u8; 64]; AHEAD];
    for p in &mut positions {
        for (i, x) in p.iter_mut().enumerate() {
            *x = i as u8;
        }
    }
    let mut taken = [0u64; AHEAD];
    for (i, row) in draws.iter().enumerate().take(n / 2) {
        for g in 0..AHEAD {
            // Draw i is of positions i.. (`bryer_deal`): position i is never read again, so
            // the swap need only move its deck position to j.
            let j = usize::from(row[g]) & 63;
            let k = usize::from(positions[g][j]) & 63;
            positions[g][j] = positions[g][i];
            taken[g] |= 1 << k;
            p1[g][i] = deck[k];
        }
    }
    if COMPRESS {
        for g in 0..AHEAD {
            let free = !taken[g] & (u64::MAX >> (64 - n));
            // SAFETY: the caller's.
            unsafe { compress_rest(&deck, free, &mut p2[g]) };
        }
        return;
    }
    for g in 0..AHEAD {
        let mut free = !taken[g] & (u64::MAX >> (64 - n));
        let mut t = 0;
        while free != 0 {
            p2[g][t] = deck[free.trailing_zeros() as usize & 63];
            t += 1;
            free &= free - 1;
        }
    }
}

/// The cards of `deck` at the positions `free` holds, in deck order, from the start of `to`
/// (the rest of `to` zeros).
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq,avx512vbmi2,popcnt")]
fn compress_rest(deck: &[u8; 64], free: u64, to: &mut [u8; 64]) {
    // SAFETY: `deck` and `to` are 64 bytes, the width of the unaligned load and store.
    unsafe {
        let cards = _mm512_loadu_si512(deck.as_ptr().cast());
        _mm512_storeu_si512(
            to.as_mut_ptr().cast(),
            _mm512_maskz_compress_epi8(free, cards),
        );
    }
}

/// SplitMix64's next output in each lane, as `rand_xoshiro::SplitMix64::next_u64` makes it.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq,popcnt")]
fn splitmix(x: &mut __m512i) -> __m512i {
    *x = _mm512_add_epi64(*x, _mm512_set1_epi64(GOLDEN as i64));
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
