//! The plain battles of a block 32 at a time with AVX-512: the same battles, cards, pickup
//! order and coin flips as the scalar path (`Hands::scalar_run` in `fast.rs`), which the tests
//! hold it to on the same games.
//!
//! A block's battles draw each hand's next cards whoever wins (see `Hands::vector_block`), so
//! 32 of them are two vector loads. One compare finds the first tie, which ends the block; another
//! says who wins each battle; each battle's two cards become one 16-bit pair in pickup order;
//! and a compress (VBMI2) packs the pairs each player won, in battle order, under their hand.

use std::arch::x86_64::*;

use rand::RngCore;

use super::cursor_war::Hands;
use super::step::{LOSER_FIRST, P1_FIRST, RANDOM_ORDER, WINNER_FIRST, WON_PILE};
use crate::games::cards::CoinFlips;

/// Whether this CPU has every feature [`block`] is compiled for.
pub(super) fn available() -> bool {
    is_x86_feature_detected!("avx512f")
        && is_x86_feature_detected!("avx512bw")
        && is_x86_feature_detected!("avx512vl")
        && is_x86_feature_detected!("avx512vbmi2")
        && is_x86_feature_detected!("popcnt")
}

/// A mask of the first `n` ≤ 32 lanes.
#[inline(always)]
fn lanes(n: usize) -> u32 {
    if n >= 32 {
        u32::MAX
    } else {
        (1 << n) - 1
    }
}

/// `Hands::vector_block`'s work: plays up to `m` plain battles, stopping before a tie, and
/// returns how many it played.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi2,popcnt")]
pub(super) fn block<R: RngCore + ?Sized, const ORDER: u8>(
    h: &mut Hands,
    coins: &mut CoinFlips,
    rng: &mut R,
    m: usize,
) -> usize {
    let mut played = 0;
    while played < m {
        let size = [h.bufs[0].len(), h.bufs[1].len()];
        let top = [h.at[0].head_index(size[0]), h.at[1].head_index(size[1])];
        // Up to 32 battles whose cards lie before the end of both rings.
        let n = (m - played)
            .min(32)
            .min(size[0] - top[0])
            .min(size[1] - top[1]);
        let k = lanes(n);
        // SAFETY: lane i is read from ring index top + i, i < n ≤ size − top, so inside the
        // ring; the lanes beyond n are masked off and not read.
        let (a, b) = unsafe {
            (
                _mm256_maskz_loadu_epi8(k, h.bufs[0].as_ptr().add(top[0]).cast()),
                _mm256_maskz_loadu_epi8(k, h.bufs[1].as_ptr().add(top[1]).cast()),
            )
        };
        let ties = _mm256_mask_cmpeq_epu8_mask(k, a, b);
        let n = if ties == 0 {
            n
        } else {
            ties.trailing_zeros() as usize
        };
        let k = lanes(n);
        let p2_wins = _mm256_mask_cmpgt_epu8_mask(k, b, a);
        let (hi, lo) = (_mm256_max_epu8(a, b), _mm256_min_epu8(a, b));
        let (first, second) = match ORDER {
            WINNER_FIRST => (hi, lo),
            LOSER_FIRST => (lo, hi),
            P1_FIRST | WON_PILE => (a, b),
            _ => {
                debug_assert_eq!(ORDER, RANDOM_ORDER);
                let winner_first = coins.take(n as u32, rng);
                (
                    _mm256_mask_blend_epi8(winner_first, lo, hi),
                    _mm256_mask_blend_epi8(winner_first, hi, lo),
                )
            }
        };
        // Battle i's pair: its first card in the low byte, so it is stored first.
        let pairs = _mm512_or_si512(
            _mm512_cvtepu8_epi16(first),
            _mm512_slli_epi16::<8>(_mm512_cvtepu8_epi16(second)),
        );
        for (p, won) in [(0, k & !p2_wins), (1, p2_wins)] {
            let count = won.count_ones() as usize;
            if count == 0 {
                continue;
            }
            let packed = _mm512_maskz_compress_epi16(won, pairs);
            let at = h.at[p].tail_index(size[p]);
            if at + 2 * count <= size[p] {
                // SAFETY: the store writes the `count` pairs, bytes at..at + 2·count, inside
                // the ring; the masked-off pairs are not written.
                unsafe {
                    _mm512_mask_storeu_epi16(
                        h.bufs[p].as_mut_ptr().add(at).cast(),
                        lanes(count),
                        packed,
                    )
                };
            } else {
                // The pairs wrap past the ring's end: place them byte by byte.
                let mut bytes = [0u8; 64];
                // SAFETY: `bytes` is 64 bytes, the width of the unaligned store.
                unsafe { _mm512_storeu_si512(bytes.as_mut_ptr().cast(), packed) };
                for (i, &c) in bytes[..2 * count].iter().enumerate() {
                    h.bufs[p][(at + i) & (size[p] - 1)] = c;
                }
            }
            h.at[p].grow(2 * count);
            if ORDER == WON_PILE {
                h.won[p] += 2 * count;
            }
        }
        h.at[0].skip(n);
        h.at[1].skip(n);
        played += n;
        if ties != 0 {
            break;
        }
    }
    played
}
