//! The lanes' deals: `simulate`'s own deal of each game (`game_rng(seed, i)`, Fisher–Yates from
//! the back with Lemire's draws, [`shuffle`](crate::games::cards::shuffle)), 8 games at a
//! time, straight into the lanes' form of a hand ([`Dealt`]).
//!
//! Only where the penalty cards go matters to play, so the vector dealer follows only them:
//! xoshiro256++ for 8 games in the qword lanes of two vectors, each draw's `j` by one multiply,
//! and the (at most 16) penalty cards' positions as bytes, two games a vector, swapped by
//! compares and blends (a card at `i` moves to `j`, one at `j` to `i`). A draw whose product's
//! low half falls under the deck's size may have needed Lemire's rejection loop; such a game
//! (about 1 in 10^6) is dealt again by the scalar shuffle, so every deal is `simulate`'s.
//! This is the C reference's `deal8_pos` (`deal.h` of issue 52's reference), written afresh.

use std::arch::x86_64::*;

use super::MAX_PENALTIES;
use crate::rng::splitmix_finalize;

/// SplitMix64's increment, by which `seed_from_u64` steps its state.
const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;
/// A position no card has: the padding of a deck with fewer penalty cards than the lanes'
/// 16 bytes (the swaps compare positions with 0..=51 only).
const NOWHERE: u8 = 0xFF;

/// One deal in the lanes' form: each hand's penalty cards as a mask read from the top (bit 63
/// the top card), their demands − 1 as 2-bit fields from the top of a u32 (the top card's in
/// bits 31–30), and twice their count.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Dealt {
    pub xp: u64,
    pub yp: u64,
    pub xq: u32,
    pub yq: u32,
    pub xc: u32,
    pub yc: u32,
}

/// Where a deck's penalty cards lie before the shuffle, and what each demands, as the vector
/// dealer follows them.
#[derive(Clone, Debug)]
pub(super) struct Penalties {
    /// Cards in the deck.
    cards: u32,
    /// The penalty cards' positions in the deck in rank order, [`NOWHERE`] past the last.
    at: [u8; MAX_PENALTIES],
    /// All ones where the penalty card's demand − 1 has bit 0 (`low`) or bit 1 (`high`) set.
    low: [u64; MAX_PENALTIES],
    high: [u64; MAX_PENALTIES],
    /// Penalty cards in the deck.
    count: usize,
}

impl Penalties {
    /// The penalty cards of `deck` (demands in rank order; the caller checked it fits the
    /// lanes: at most 16 penalty cards and 52 cards).
    pub fn of(deck: &[u8]) -> Penalties {
        let mut p = Penalties {
            cards: deck.len() as u32,
            at: [NOWHERE; MAX_PENALTIES],
            low: [0; MAX_PENALTIES],
            high: [0; MAX_PENALTIES],
            count: 0,
        };
        for (i, &d) in deck.iter().enumerate().filter(|(_, &d)| d > 0) {
            let k = p.count.min(MAX_PENALTIES - 1);
            p.at[k] = i as u8;
            p.low[k] = 0u64.wrapping_sub(u64::from((d - 1) & 1));
            p.high[k] = 0u64.wrapping_sub(u64::from((d - 1) >> 1 & 1));
            p.count += 1;
        }
        p
    }
}

/// The lanes' form of the deal `deck` (demands, player 1's hand first, top card first; at
/// most 52 cards).
#[target_feature(enable = "avx2,bmi2,popcnt")]
pub(super) fn of_deck(deck: &[u8]) -> Dealt {
    let mut bytes = [0u8; 64];
    bytes[..deck.len()].copy_from_slice(deck);
    of_bytes(&bytes, deck.len() as u32 / 2)
}

/// The lanes' form of two hands written one after the other in `bytes` (demands, top card
/// first, zeros after them), the first of `xn` cards (1 to 63). Byte compares of the two
/// vectors give each demand's bits at once: the climb makes one of these for every deal it
/// plays, where a loop over the cards took a quarter of its time.
#[target_feature(enable = "avx2,bmi2,popcnt")]
pub(super) fn of_bytes(bytes: &[u8; 64], xn: u32) -> Dealt {
    // SAFETY: `bytes` holds 64 bytes, two unaligned 32-byte loads.
    let (lo, hi) = unsafe {
        (
            _mm256_loadu_si256(bytes.as_ptr().cast()),
            _mm256_loadu_si256(bytes[32..].as_ptr().cast()),
        )
    };
    // Bit i of the mask: byte i's top bit.
    let bits = |f: &dyn Fn(__m256i) -> __m256i| {
        let m = |v| u64::from(_mm256_movemask_epi8(f(v)) as u32);
        m(lo) | m(hi) << 32
    };
    let on = bits(&|v| _mm256_cmpgt_epi8(v, _mm256_setzero_si256()));
    // A demand's bit 0 as its byte's top bit: demand − 1 has bit 0 where the demand is even.
    let odd = bits(&|v| _mm256_slli_epi16::<7>(v));
    let high = bits(&|v| _mm256_cmpgt_epi8(v, _mm256_set1_epi8(2)));
    // Position i is bit 63 − i.
    let (a, b0, b1) = (
        on.reverse_bits(),
        (on & !odd).reverse_bits(),
        high.reverse_bits(),
    );
    hands(a, b0, b1, xn)
}

/// The two hands of a deal whose penalty cards are `a` (bit 63 − i for position i, none past
/// the last card) and whose demands − 1 have bit 0 at `b0`'s bits and bit 1 at `b1`'s; the
/// first hand `xn` cards, the second the rest.
#[target_feature(enable = "bmi2,popcnt")]
fn hands(a: u64, b0: u64, b1: u64, xn: u32) -> Dealt {
    let (xp, yp) = (a & !(u64::MAX >> xn), a << xn);
    let (xc, yc) = (2 * xp.count_ones(), 2 * yp.count_ones());
    Dealt {
        xp,
        yp,
        xq: queue(b0, b1, xp, xc),
        yq: queue(b0 << xn, b1 << xn, yp, yc),
        xc,
        yc,
    }
}

/// The demands − 1 of the penalty cards at `m` (`k2` = twice their count, at most 32) as
/// 2-bit fields, the top card's (the highest bit of `m`) in bits 31–30.
#[target_feature(enable = "bmi2,popcnt")]
fn queue(b0: u64, b1: u64, m: u64, k2: u32) -> u32 {
    let q = _pdep_u64(_pext_u64(b0, m), 0x5555_5555_5555_5555)
        | _pdep_u64(_pext_u64(b1, m), 0xAAAA_AAAA_AAAA_AAAA);
    (q.checked_shl(64 - k2).unwrap_or(0) >> 32) as u32
}

/// xoshiro256++'s next output in each qword lane, as `GameRng::next_u64`.
#[inline]
#[target_feature(enable = "avx2")]
fn next(s: &mut [__m256i; 4]) -> __m256i {
    let rotl23 = |x| _mm256_or_si256(_mm256_slli_epi64::<23>(x), _mm256_srli_epi64::<41>(x));
    let r = _mm256_add_epi64(rotl23(_mm256_add_epi64(s[0], s[3])), s[0]);
    let t = _mm256_slli_epi64::<17>(s[1]);
    s[2] = _mm256_xor_si256(s[2], s[0]);
    s[3] = _mm256_xor_si256(s[3], s[1]);
    s[1] = _mm256_xor_si256(s[1], s[2]);
    s[0] = _mm256_xor_si256(s[0], s[3]);
    s[2] = _mm256_xor_si256(s[2], t);
    s[3] = _mm256_or_si256(_mm256_slli_epi64::<45>(s[3]), _mm256_srli_epi64::<19>(s[3]));
    r
}

/// Swaps, in each game of `p`, the penalty card at position `vi` with the card at `vj`.
#[inline]
#[target_feature(enable = "avx2")]
fn swap(p: __m256i, vi: __m256i, vj: __m256i) -> __m256i {
    let (ei, ej) = (_mm256_cmpeq_epi8(p, vi), _mm256_cmpeq_epi8(p, vj));
    _mm256_blendv_epi8(_mm256_blendv_epi8(p, vj, ei), vi, ej)
}

/// A dealer of 8 games ([`deal8`], [`deal8_wide`]); unsafe to call where the CPU lacks its
/// features.
pub(super) type Deal8 = unsafe fn(&Penalties, u64, u64, &mut [Dealt]) -> u32;

/// Deals games `g0` to `g0 + 7` of the run with base `seed` into `out` (8 long). Returns the
/// games (bit l for game `g0 + l`) that may have needed Lemire's rejection loop: the caller
/// deals those again with the scalar shuffle.
#[target_feature(enable = "avx2,bmi2,popcnt")]
pub(super) fn deal8(pen: &Penalties, seed: u64, g0: u64, out: &mut [Dealt]) -> u32 {
    let (mut s, mut t) = (generators(seed, g0, 0), generators(seed, g0, 4));
    let mut p = [penalty_positions(pen); 4];
    let n = pen.cards;
    let mut vi = _mm256_set1_epi8(n as i8 - 1);
    let mut nn = _mm256_set1_epi64x(i64::from(n));
    let (one8, one64) = (_mm256_set1_epi8(1), _mm256_set1_epi64x(1));
    let mut least = _mm256_set1_epi32(-1);
    for _ in 1..n {
        let (ra, rb) = (next(&mut s), next(&mut t));
        // next_u32 is the high half; j = (u32 × (i + 1)) >> 32, byte 4 of each qword.
        let ma = _mm256_mul_epu32(_mm256_srli_epi64::<32>(ra), nn);
        let mb = _mm256_mul_epu32(_mm256_srli_epi64::<32>(rb), nn);
        least = _mm256_min_epu32(least, _mm256_min_epu32(ma, mb));
        let j = swap_targets(ma, mb);
        for (p, j) in p.iter_mut().zip(j) {
            *p = swap(*p, vi, j);
        }
        vi = _mm256_sub_epi8(vi, one8);
        nn = _mm256_sub_epi64(nn, one64);
    }
    hands_of(pen, &p, out);
    rejected(least, n)
}

/// The xoshiro256++ states of games `g0 + from` to `g0 + from + 3`, one per qword lane, as
/// `game_rng(seed, g)` seeds them: SplitMix64 seeded with `splitmix_finalize(seed) ^ g`
/// fills the state.
#[inline]
#[target_feature(enable = "avx2")]
fn generators(seed: u64, g0: u64, from: u64) -> [__m256i; 4] {
    let base = splitmix_finalize(seed);
    let state = |l: u64, k: u64| {
        let x = base ^ g0.wrapping_add(l);
        splitmix_finalize(x.wrapping_add(k.wrapping_mul(GOLDEN))) as i64
    };
    [0, 1, 2, 3].map(|k| {
        _mm256_setr_epi64x(
            state(from, k),
            state(from + 1, k),
            state(from + 2, k),
            state(from + 3, k),
        )
    })
}

/// The deck's penalty cards' positions before the shuffle ([`Penalties::at`]) in both 128-bit
/// halves of a vector, one game a half.
#[inline]
#[target_feature(enable = "avx2")]
fn penalty_positions(pen: &Penalties) -> __m256i {
    let b = pen.at.map(|x| x as i8);
    let half = _mm_setr_epi8(
        b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13],
        b[14], b[15],
    );
    _mm256_broadcastsi128_si256(half)
}

/// Each game's `j` of this draw broadcast to the 16 bytes of its half: from the products
/// `ma` (games 0–3) and `mb` (games 4–7), byte 4 of each qword, in the order of the four
/// vectors of positions (games 0 and 2, 1 and 3, 4 and 6, 5 and 7 share a vector, one per
/// 128-bit half).
#[inline]
#[target_feature(enable = "avx2")]
fn swap_targets(ma: __m256i, mb: __m256i) -> [__m256i; 4] {
    let (b4, b12) = (_mm256_set1_epi8(4), _mm256_set1_epi8(12));
    [
        _mm256_shuffle_epi8(ma, b4),
        _mm256_shuffle_epi8(ma, b12),
        _mm256_shuffle_epi8(mb, b4),
        _mm256_shuffle_epi8(mb, b12),
    ]
}

/// Each game's two hands in the lanes' form from its penalty cards' positions after the
/// shuffle (`p`, laid out as [`swap_targets`] says), 4 games a vector as [`hands_wide`] makes 8: each
/// penalty card's position moved into its game's qword by two byte shuffles (games 0 to 3 from
/// the first two vectors, 4 to 7 from the last two), its bit or-ed into the masks by a shift
/// ([`NOWHERE`] shifts to nothing).
#[inline]
#[target_feature(enable = "avx2,bmi2,popcnt")]
fn hands_of(pen: &Penalties, p: &[__m256i; 4], out: &mut [Dealt]) {
    let top = _mm256_set1_epi64x(i64::MIN);
    let z = _mm256_setzero_si256();
    let (mut a, mut b0, mut b1) = ([z; 2], [z; 2], [z; 2]);
    for c in 0..pen.count.min(MAX_PENALTIES) {
        // Byte c of each 128-bit half into byte 0 of its low qword (the even games' vector)
        // or of its high one (the odd games'); every other byte zero.
        let pick = !0xFF | c as i64;
        let even = _mm256_setr_epi64x(pick, -1, pick, -1);
        let odd = _mm256_setr_epi64x(-1, pick, -1, pick);
        let low = _mm256_set1_epi64x(pen.low[c] as i64);
        let high = _mm256_set1_epi64x(pen.high[c] as i64);
        for h in 0..2 {
            let at = _mm256_or_si256(
                _mm256_shuffle_epi8(p[2 * h], even),
                _mm256_shuffle_epi8(p[2 * h + 1], odd),
            );
            let bit = _mm256_srlv_epi64(top, at);
            a[h] = _mm256_or_si256(a[h], bit);
            b0[h] = _mm256_or_si256(b0[h], _mm256_and_si256(bit, low));
            b1[h] = _mm256_or_si256(b1[h], _mm256_and_si256(bit, high));
        }
    }
    let (mut pa, mut p0, mut p1) = ([0u64; 8], [0u64; 8], [0u64; 8]);
    for h in 0..2 {
        // SAFETY: each array holds 8 u64s; these write u64s 4h to 4h + 3, h < 2.
        unsafe {
            _mm256_storeu_si256(pa.as_mut_ptr().add(4 * h).cast(), a[h]);
            _mm256_storeu_si256(p0.as_mut_ptr().add(4 * h).cast(), b0[h]);
            _mm256_storeu_si256(p1.as_mut_ptr().add(4 * h).cast(), b1[h]);
        }
    }
    for (l, out) in out.iter_mut().take(8).enumerate() {
        *out = hands(pa[l], p0[l], p1[l], pen.cards / 2);
    }
}

/// [`deal8`] on AVX-512 (the AVX-512 lanes' deal): the 8 generators in one vector's qword
/// lanes (rotations in one instruction), and the positions 4 games a vector, one per 128-bit
/// lane (games 0, 2, 4, 6 in the first, 1, 3, 5, 7 in the second: each lane's `j` is byte 4
/// or 12 of that lane's product), swapped by byte compares into mask registers: half the
/// AVX2 dealer's vector operations a draw.
#[target_feature(enable = "avx512f,avx512bw,avx2,bmi2,popcnt")]
pub(super) fn deal8_wide(pen: &Penalties, seed: u64, g0: u64, out: &mut [Dealt]) -> u32 {
    let (a, b) = (generators(seed, g0, 0), generators(seed, g0, 4));
    let mut s = [0, 1, 2, 3].map(|k| _mm512_inserti64x4::<1>(_mm512_castsi256_si512(a[k]), b[k]));
    let n = pen.cards;
    let at = pen.at.map(|x| x as i8);
    let start = _mm512_broadcast_i32x4(_mm_setr_epi8(
        at[0], at[1], at[2], at[3], at[4], at[5], at[6], at[7], at[8], at[9], at[10], at[11],
        at[12], at[13], at[14], at[15],
    ));
    let mut p = [start, start];
    let mut vi = _mm512_set1_epi8(n as i8 - 1);
    let mut nn = _mm512_set1_epi64(i64::from(n));
    let (one8, one64) = (_mm512_set1_epi8(1), _mm512_set1_epi64(1));
    let (b4, b12) = (_mm512_set1_epi8(4), _mm512_set1_epi8(12));
    let mut least = _mm512_set1_epi32(-1);
    for _ in 1..n {
        let r = _mm512_add_epi64(_mm512_rol_epi64::<23>(_mm512_add_epi64(s[0], s[3])), s[0]);
        let t = _mm512_slli_epi64::<17>(s[1]);
        // xoshiro's five xors as two three-way xors and two plain ones (0x96: a ^ b ^ c).
        let s3 = _mm512_xor_si512(s[3], s[1]);
        s[1] = _mm512_ternarylogic_epi64::<0x96>(s[1], s[2], s[0]);
        s[2] = _mm512_ternarylogic_epi64::<0x96>(s[2], s[0], t);
        s[0] = _mm512_xor_si512(s[0], s3);
        s[3] = _mm512_rol_epi64::<45>(s3);
        // next_u32 is the high half; j = (u32 × (i + 1)) >> 32, byte 4 of each qword.
        let m = _mm512_mul_epu32(_mm512_srli_epi64::<32>(r), nn);
        least = _mm512_min_epu32(least, m);
        let js = [_mm512_shuffle_epi8(m, b4), _mm512_shuffle_epi8(m, b12)];
        for (p, j) in p.iter_mut().zip(js) {
            let (ei, ej) = (
                _mm512_cmpeq_epi8_mask(*p, vi),
                _mm512_cmpeq_epi8_mask(*p, j),
            );
            *p = _mm512_mask_mov_epi8(_mm512_mask_mov_epi8(*p, ei, j), ej, vi);
        }
        vi = _mm512_sub_epi8(vi, one8);
        nn = _mm512_sub_epi64(nn, one64);
    }
    hands_wide(pen, &p, out);
    // Lemire's test, (u32)m < i + 1 <= n, on each game's low dword (bit 2l).
    let low = _mm512_mask_cmplt_epu32_mask(0x5555, least, _mm512_set1_epi32(n as i32));
    _pext_u32(u32::from(low), 0x5555)
}

/// Each game's two hands in the lanes' form from its penalty cards' positions after
/// [`deal8_wide`]'s shuffle (`p`: games 0, 2, 4, 6 in the 128-bit lanes of the first vector,
/// 1, 3, 5, 7 in the second), the 8 games at once: for each penalty card, its position in
/// each game is moved into that game's qword (game `l` in qword `l`) by two byte shuffles, and
/// its bit (`1 << 63 >> position`) or-ed into the masks of every penalty card and of each bit
/// of the demands; a card past the deck's penalty cards sits at [`NOWHERE`], which shifts to
/// nothing. What is left per game (splitting the hands, the queues' `pext` and `pdep`) is
/// scalar ([`hands`]).
#[inline]
#[target_feature(enable = "avx512f,avx512bw,bmi2,popcnt")]
fn hands_wide(pen: &Penalties, p: &[__m512i; 2], out: &mut [Dealt]) {
    let top = _mm512_set1_epi64(i64::MIN);
    let z = _mm512_setzero_si512();
    let (mut a, mut b0, mut b1) = (z, z, z);
    for c in 0..pen.count.min(MAX_PENALTIES) {
        // Byte c of each 128-bit lane into byte 0 of its low qword (the first vector) or of
        // its high one (the second); every other byte zero (a shuffle index with bit 7 set).
        let pick = !0xFF | c as i64;
        let lo = _mm512_shuffle_epi8(p[0], _mm512_set4_epi64(-1, pick, -1, pick));
        let hi = _mm512_shuffle_epi8(p[1], _mm512_set4_epi64(pick, -1, pick, -1));
        let bit = _mm512_srlv_epi64(top, _mm512_or_si512(lo, hi));
        a = _mm512_or_si512(a, bit);
        b0 = _mm512_mask_or_epi64(b0, pen.low[c] as u8, b0, bit);
        b1 = _mm512_mask_or_epi64(b1, pen.high[c] as u8, b1, bit);
    }
    let (mut pa, mut p0, mut p1) = ([0u64; 8], [0u64; 8], [0u64; 8]);
    // SAFETY: each array holds 8 u64s, 64 bytes.
    unsafe {
        _mm512_storeu_si512(pa.as_mut_ptr().cast(), a);
        _mm512_storeu_si512(p0.as_mut_ptr().cast(), b0);
        _mm512_storeu_si512(p1.as_mut_ptr().cast(), b1);
    }
    for (l, out) in out.iter_mut().take(8).enumerate() {
        *out = hands(pa[l], p0[l], p1[l], pen.cards / 2);
    }
}

/// The games whose deal may have needed Lemire's rejection loop, from `least`, the running
/// minimum of the draws' products: Lemire's test, (u32)m < i + 1 <= n, on its low dwords,
/// each the minimum of games l and l + 4; both are dealt again.
#[inline]
#[target_feature(enable = "avx2")]
fn rejected(least: __m256i, n: u32) -> u32 {
    let low = _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(
        _mm256_min_epu32(least, _mm256_set1_epi32(n as i32 - 1)),
        least,
    ))) as u32
        & 0x55;
    (0..4)
        .filter(|l| low >> (2 * l) & 1 == 1)
        .fold(0, |bad, l| bad | 0x11 << l)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::bmn::Width;
    use crate::games::cards::shuffle;
    use crate::rng::game_rng;

    /// The vector dealer gives `simulate`'s deal (the scalar shuffle's) for every game it does
    /// not flag, and flags some (so the scalar redo in `play_range` runs); the lanes' tests
    /// check the flagged ones end to end.
    #[test]
    fn the_vector_deal_is_the_scalar_deal_of_every_game_it_keeps() {
        // A dealer this CPU cannot run is not checked here; `tests_lanes` says so on stderr
        // (the core's files print only from its tests_*.rs files).
        let dealers: [(Width, Deal8); 2] = [(Width::Avx2, deal8), (Width::Avx512, deal8_wide)];
        for (width, deal) in dealers.into_iter().filter(|(w, _)| w.available()) {
            the_deal_is_the_scalar_deal(width, deal);
        }
    }

    fn the_deal_is_the_scalar_deal(width: Width, deal: Deal8) {
        let games: u64 = if cfg!(debug_assertions) {
            80_000
        } else {
            4_000_000
        };
        for (deck, seed) in [(standard(), 1), (vec![0, 1, 0, 2, 3, 0, 4, 0, 0, 2], 9)] {
            let pen = Penalties::of(&deck);
            let mut flagged = 0;
            let mut out = [Dealt::default(); 8];
            let mut shuffled = deck.clone();
            for g0 in (0..games).step_by(8) {
                // SAFETY: the caller checked `width.available()`: the dealer's features.
                let bad = unsafe { deal(&pen, seed, g0, &mut out) };
                flagged += bad.count_ones();
                for (l, got) in out.iter().enumerate().filter(|(l, _)| bad >> l & 1 == 0) {
                    shuffled.copy_from_slice(&deck);
                    shuffle(&mut game_rng(seed, g0 + l as u64), &mut shuffled);
                    // SAFETY: as above (AVX2, BMI2 and POPCNT).
                    let want = unsafe { of_deck(&shuffled) };
                    assert_eq!(*got, want, "{width:?} seed {seed} game {}", g0 + l as u64);
                }
            }
            assert!(cfg!(debug_assertions) || deck.len() < 52 || flagged > 0);
        }
    }

    fn standard() -> Vec<u8> {
        (0..4)
            .flat_map(|_| [0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4])
            .collect()
    }
}
