//! The lanes on AVX-512: 16 games a vector, each group's vectors kept in registers across
//! steps; one step gathers each hand's top 8 cards with qword gathers, writes a battle's cards
//! with one dword scatter, and a one-level war's other 6 with stores of the lanes compressed
//! to the front.

use std::arch::x86_64::*;

use super::{limits, out_of_line, Arrays, Events, Games, MainLoop, BRYER, KEPT, SPARE};
use crate::games::war::lane_deal::{self, DealAhead};
use crate::games::war::stats::WarGame;
use crate::games::war::step::{LOSER_FIRST, P1_FIRST, RANDOM_ORDER, WINNER_FIRST, WON_PILE};
use crate::games::war::{War, WarScratch};
use crate::games::GameResult;

/// Whether this CPU has every feature this engine is compiled for.
pub(super) fn available() -> bool {
    is_x86_feature_detected!("avx512f")
        && is_x86_feature_detected!("avx512bw")
        && is_x86_feature_detected!("avx512vl")
        && is_x86_feature_detected!("avx512dq")
        && is_x86_feature_detected!("popcnt")
}

/// The AVX-512 engine.
pub(super) struct Avx512;

impl MainLoop for Avx512 {
    const DEAL: DealAhead = lane_deal::deal8;

    /// On AVX-512, so the CPU must have every feature [`available`] checks.
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq,popcnt")]
    unsafe fn play<const ORDER: u8, const LOOPS: bool>(
        war: &War,
        s: &mut WarScratch,
        mem: &mut [u8],
        games: &mut Games,
        arrays: &mut [Arrays; 2],
        record: &mut dyn FnMut(u64, &GameResult<WarGame>),
    ) {
        let [a0, a1] = arrays;
        let (mut g0, mut g1) = (a0.group(), a1.group());
        let limits = [0, 1].map(|g| (vector(&limits(g, 0)), vector(&limits(g, 1))));
        // The two groups are separate locals, not an array indexed in a loop, so that their
        // vectors stay in registers; the rare work out of line sees them through their arrays
        // (stored before, patched back after), never by value: a group is up to 15 vectors.
        while (g0.live | g1.live) != 0 {
            // SAFETY: every offset in `g0` and `g1` lies inside `mem` with the margins `step`
            // needs: heads and tails stay within their buffers below LIMIT + 12, refills and
            // compaction put them at buffer starts (`Games::refill`, `out_of_line`).
            let events = unsafe { step::<ORDER, LOOPS>(&mut g0, mem.as_mut_ptr(), limits[0]) };
            if events.touched() != 0 {
                a0.load::<ORDER, LOOPS>(&g0);
                out_of_line::<ORDER, LOOPS>(war, s, mem, games, 0, a0, events, record);
                g0 = a0.patch::<ORDER, LOOPS>(g0, events.touched());
            }
            // SAFETY: as above.
            let events = unsafe { step::<ORDER, LOOPS>(&mut g1, mem.as_mut_ptr(), limits[1]) };
            if events.touched() != 0 {
                a1.load::<ORDER, LOOPS>(&g1);
                out_of_line::<ORDER, LOOPS>(war, s, mem, games, 1, a1, events, record);
                g1 = a1.patch::<ORDER, LOOPS>(g1, events.touched());
            }
        }
    }
}

/// 16 games in play: each hand's head (`p`) and tail (`q`) as byte offsets into the buffers,
/// rounds played, one-level wars fought in the main loop, and which lanes hold a game; for
/// the orders that need them, where each hand proper ends and its won pile begins (`h`,
/// [`WON_PILE`]) and the coin bits (lanes 0–7 and 8–15, a u64 each) and how many are left
/// ([`RANDOM_ORDER`]).
#[derive(Clone, Copy)]
struct Group {
    pa: __m512i,
    pb: __m512i,
    qa: __m512i,
    qb: __m512i,
    rounds: __m512i,
    wars1: __m512i,
    ha: __m512i,
    hb: __m512i,
    bits: [__m512i; 2],
    left: __m512i,
    due: __m512i,
    kept: [__m512i; KEPT],
    live: u16,
    skip: u16,
}

impl Group {
    /// Where each hand proper ends: at its won pile ([`WON_PILE`]), else at its tail.
    #[inline(always)]
    fn hand_ends<const ORDER: u8>(&self) -> (__m512i, __m512i) {
        if ORDER == WON_PILE {
            (self.ha, self.hb)
        } else {
            (self.qa, self.qb)
        }
    }
}

/// Plays one battle in every live lane of `g`: a plain battle, or a tie whose one-level war
/// the 16 gathered cards decide. Returns the lanes left to [`out_of_line`].
///
/// With `LOOPS`, a lane's position before the battle (the one after the last round) is first
/// compared with the images of the positions kept from its last checkpoints ([`image`]): a
/// lane that matches one plays no battle and goes out of line, where the hands are compared
/// in full; one that `skip`s (it was just compared, or saved) plays.
///
/// # Safety
/// `mem` must be the lane buffers (at least [`BYTES`](super::BYTES) bytes) and `g`'s offsets
/// within them as [`MainLoop::play`] keeps them: each step reads 8 bytes at each head and
/// writes at most 12 bytes at a tail below LIMIT + 12 (or to the spare bytes at [`SPARE`]).
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq,popcnt")]
unsafe fn step<const ORDER: u8, const LOOPS: bool>(
    g: &mut Group,
    mem: *mut u8,
    (lim_a, lim_b): (__m512i, __m512i),
) -> Events {
    let ff = _mm512_set1_epi32(0xff);
    let one = _mm512_set1_epi32(1);
    let five = _mm512_set1_epi32(5);
    // Each hand's top 8 cards: dwords of cards 0..4 and 4..8 per lane.
    // SAFETY: the caller's: 8 bytes at each head are inside `mem`.
    let (a03, a47) = unsafe { top8(g.pa, mem) };
    // SAFETY: as above.
    let (b03, b47) = unsafe { top8(g.pb, mem) };
    let (a0, b0) = (_mm512_and_si512(a03, ff), _mm512_and_si512(b03, ff));
    let probe = if LOOPS {
        // `image`, 16 lanes at once.
        let img = _mm512_ternarylogic_epi32::<0xfe>(
            _mm512_sub_epi32(g.qa, g.pa),
            _mm512_slli_epi32::<16>(a0),
            _mm512_slli_epi32::<24>(b0),
        );
        let watch = g.live & !g.skip;
        g.skip = 0;
        g.kept.iter().fold(0, |hit, &t| {
            hit | _mm512_mask_cmpeq_epi32_mask(watch, img, t)
        })
    } else {
        0
    };
    let live = g.live & !probe;
    let tie = _mm512_mask_cmpeq_epi32_mask(live, a0, b0);
    // A tie with a hand (proper, beside a won pile) of fewer than 5 cards, 3 down and 1 up
    // after the tie, is fought out of line, where the short-war rule applies.
    let (ends_a, ends_b) = g.hand_ends::<ORDER>();
    let na = _mm512_sub_epi32(ends_a, g.pa);
    let nb = _mm512_sub_epi32(ends_b, g.pb);
    let short =
        _mm512_mask_cmplt_epu32_mask(tie, na, five) | _mm512_mask_cmplt_epu32_mask(tie, nb, five);
    let war = tie & !short;
    // The deciding cards: the top ones, or a war's face-up ones (cards 4).
    let xa = _mm512_mask_and_epi32(a0, war, a47, ff);
    let xb = _mm512_mask_and_epi32(b0, war, b47, ff);
    let deep = _mm512_mask_cmpeq_epi32_mask(war, xa, xb);
    let war1 = war & !deep;
    let out = tie & !war1;
    let mut played = live & !out;
    let p1_wins = _mm512_cmpgt_epu32_mask(xa, xb);
    let hi = _mm512_max_epu32(xa, xb);
    let lo = _mm512_min_epu32(xa, xb);
    let mut coin = 0;
    // A plain battle's cards in the pickup's order.
    let (first, second) = match ORDER {
        LOSER_FIRST => (lo, hi),
        WON_PILE | P1_FIRST => (xa, xb),
        RANDOM_ORDER => {
            // A lane whose bits are spent draws a word out of line first, as `CoinFlips`
            // draws just before the flip; it plays this battle at the next step.
            let plain = played & !war1;
            coin = _mm512_mask_cmpeq_epi32_mask(plain, g.left, _mm512_setzero_si512());
            played &= !coin;
            let flips = plain & !coin;
            let low = _mm512_inserti64x4::<1>(
                _mm512_castsi256_si512(_mm512_cvtepi64_epi32(g.bits[0])),
                _mm512_cvtepi64_epi32(g.bits[1]),
            );
            // Bit 1: the winner's card first, as `Hands::scalar_run` orders them.
            let winner_first = _mm512_test_epi32_mask(low, one);
            g.bits[0] = _mm512_mask_srli_epi64(g.bits[0], flips as u8, g.bits[0], 1);
            g.bits[1] = _mm512_mask_srli_epi64(g.bits[1], (flips >> 8) as u8, g.bits[1], 1);
            g.left = _mm512_mask_sub_epi32(g.left, flips, g.left, one);
            (
                _mm512_mask_blend_epi32(winner_first, lo, hi),
                _mm512_mask_blend_epi32(winner_first, hi, lo),
            )
        }
        _ => (hi, lo),
    };
    // A one-level war's 10 cards in the pickup's order (as `cursor_war` gives them): its first
    // 4 in the scatter's dword, the other 6 (`rest1`, `rest2`) in an 8-byte store after them.
    let (war03, rest1, rest2) = if ORDER == BRYER {
        // The deciding cards, winner's first, then player 1's other 4 and player 2's.
        (
            _mm512_ternarylogic_epi32::<0xfe>(
                hi,
                _mm512_slli_epi32::<8>(lo),
                _mm512_slli_epi32::<16>(a03),
            ),
            _mm512_or_si512(_mm512_srli_epi32::<16>(a03), _mm512_slli_epi32::<16>(b03)),
            _mm512_srli_epi32::<16>(b03),
        )
    } else {
        // One player's 5 cards (`x`), then the other's (`y`).
        let (x_first, y_first) = match ORDER {
            WINNER_FIRST => (p1_wins, !p1_wins),
            LOSER_FIRST => (!p1_wins, p1_wins),
            _ => (u16::MAX, 0),
        };
        let x03 = _mm512_mask_blend_epi32(x_first, b03, a03);
        let y03 = _mm512_mask_blend_epi32(y_first, b03, a03);
        let x4 = _mm512_and_si512(_mm512_mask_blend_epi32(x_first, b47, a47), ff);
        let y4 = _mm512_and_si512(_mm512_mask_blend_epi32(y_first, b47, a47), ff);
        (
            x03,
            _mm512_or_si512(x4, _mm512_slli_epi32::<8>(y03)),
            _mm512_or_si512(_mm512_srli_epi32::<24>(y03), _mm512_slli_epi32::<8>(y4)),
        )
    };
    let pair = _mm512_or_si512(first, _mm512_slli_epi32::<8>(second));
    let head = _mm512_mask_blend_epi32(war1, pair, war03);
    let dst = _mm512_mask_blend_epi32(p1_wins, g.qb, g.qa);
    // SAFETY: `dst` is a tail of each lane (below LIMIT + 12 in its buffer): 4 bytes there are
    // inside `mem`; bytes past a tail are not cards, so lanes that played no battle may write.
    unsafe { _mm512_i32scatter_epi32::<1>(mem.cast(), dst, head) };
    // SAFETY: the caller's.
    unsafe { store_wars(war1, dst, rest1, rest2, mem) };
    let steps = _mm512_mask_mov_epi32(_mm512_maskz_mov_epi32(played, one), war1, five);
    let gain = _mm512_mask_mov_epi32(_mm512_set1_epi32(2), war1, _mm512_set1_epi32(10));
    g.pa = _mm512_add_epi32(g.pa, steps);
    g.pb = _mm512_add_epi32(g.pb, steps);
    g.qa = _mm512_mask_add_epi32(g.qa, played & p1_wins, g.qa, gain);
    g.qb = _mm512_mask_add_epi32(g.qb, played & !p1_wins, g.qb, gain);
    g.wars1 = _mm512_mask_add_epi32(g.wars1, war1, g.wars1, one);
    g.rounds = if ORDER == RANDOM_ORDER || LOOPS {
        _mm512_mask_add_epi32(g.rounds, !(coin | probe), g.rounds, one)
    } else {
        _mm512_add_epi32(g.rounds, one)
    };
    // A hand (proper) that ran out, the cap or a checkpoint, a tail to compact.
    let (ends_a, ends_b) = g.hand_ends::<ORDER>();
    let check = _mm512_mask_cmpeq_epi32_mask(played, g.pa, ends_a)
        | _mm512_mask_cmpeq_epi32_mask(played, g.pb, ends_b)
        | _mm512_mask_cmpge_epu32_mask(played, g.rounds, g.due)
        | _mm512_mask_cmpgt_epu32_mask(played, g.qa, lim_a)
        | _mm512_mask_cmpgt_epu32_mask(played, g.qb, lim_b);
    Events {
        war: out,
        coin,
        // The shuffled pickup shuffles a war's cards once they are under the winner's hand.
        shuffle: if ORDER == RANDOM_ORDER { war1 } else { 0 },
        p1_wins,
        check,
        probe,
    }
}

/// A step's one-level wars (`war1`): the 8 bytes of each after the 4 its scatter wrote at
/// the winner's tail (`dst`).
///
/// # Safety
/// As [`step`]'s stores.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq,popcnt")]
unsafe fn store_wars(war1: u16, dst: __m512i, rest1: __m512i, rest2: __m512i, mem: *mut u8) {
    let at = _mm512_mask_compress_epi32(
        _mm512_set1_epi32(SPARE as i32),
        war1,
        _mm512_add_epi32(dst, _mm512_set1_epi32(4)),
    );
    let pairs = _mm512_unpacklo_epi32(
        _mm512_maskz_compress_epi32(war1, rest1),
        _mm512_maskz_compress_epi32(war1, rest2),
    );
    let at_words = words(at);
    let pair_words = words(pairs);
    let pair = |i: usize| u64::from(pair_words[2 * i]) | u64::from(pair_words[2 * i + 1]) << 32;
    // The first two such lanes always store (to the spare bytes when there are fewer), so the
    // common case has no branch; `unpacklo` made each of their 8 cards one qword (dwords 0-1,
    // 2-3).
    // SAFETY: each `at` is a tail + 4 below LIMIT + 16 or SPARE: 8 bytes there are in `mem`.
    unsafe {
        mem.add(at_words[0] as usize)
            .cast::<u64>()
            .write_unaligned(pair(0));
        mem.add(at_words[1] as usize)
            .cast::<u64>()
            .write_unaligned(pair(1));
    }
    if war1.count_ones() > 2 {
        // SAFETY: as above.
        unsafe { more_wars(war1, dst, rest1, rest2, mem) };
    }
}

/// Each hand's top 8 cards for the 16 lanes whose heads are `p`: cards 0..4 and 4..8 as dwords.
///
/// # Safety
/// 8 bytes at every offset of `p` must be inside `mem`.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq,popcnt")]
unsafe fn top8(p: __m512i, mem: *const u8) -> (__m512i, __m512i) {
    let even = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
    let odd = _mm512_setr_epi32(1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31);
    // SAFETY: the caller's.
    let (lo, hi) = unsafe {
        (
            _mm512_i32gather_epi64::<1>(_mm512_castsi512_si256(p), mem.cast()),
            _mm512_i32gather_epi64::<1>(_mm512_extracti64x4_epi64::<1>(p), mem.cast()),
        )
    };
    (
        _mm512_permutex2var_epi32(lo, even, hi),
        _mm512_permutex2var_epi32(lo, odd, hi),
    )
}

/// The third and later one-level wars of a step (rare): their 8 cards after the first 2.
///
/// # Safety
/// As [`step`]'s stores.
#[inline(never)]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq,popcnt")]
unsafe fn more_wars(war1: u16, dst: __m512i, rest1: __m512i, rest2: __m512i, mem: *mut u8) {
    let (at, r1, r2) = (words(dst), words(rest1), words(rest2));
    let mut lanes = war1;
    // The first two were stored in the step.
    lanes &= lanes - 1;
    lanes &= lanes - 1;
    while lanes != 0 {
        let l = lanes.trailing_zeros() as usize;
        lanes &= lanes - 1;
        let pair = u64::from(r1[l]) | u64::from(r2[l]) << 32;
        // SAFETY: the caller's: a tail + 4 of lane `l`, 8 bytes inside `mem`.
        unsafe {
            mem.add(at[l] as usize + 4)
                .cast::<u64>()
                .write_unaligned(pair)
        };
    }
}
impl Arrays {
    /// Sets these arrays to `g`'s vectors; of those only some orders use, only theirs. In
    /// place: the arrays are too large to build and move on every call out of line.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq,popcnt")]
    fn load<const ORDER: u8, const LOOPS: bool>(&mut self, g: &Group) {
        for (to, v) in [
            (&mut self.pa, g.pa),
            (&mut self.pb, g.pb),
            (&mut self.qa, g.qa),
            (&mut self.qb, g.qb),
            (&mut self.rounds, g.rounds),
            (&mut self.wars1, g.wars1),
            (&mut self.due, g.due),
        ] {
            store(to, v);
        }
        if LOOPS {
            for (to, &v) in self.kept.iter_mut().zip(&g.kept) {
                store(to, v);
            }
            self.skip = g.skip;
        }
        if ORDER == WON_PILE {
            store(&mut self.ha, g.ha);
            store(&mut self.hb, g.hb);
        }
        if ORDER == RANDOM_ORDER {
            store(&mut self.left, g.left);
            for (half, v) in self.bits.chunks_exact_mut(8).zip(g.bits) {
                // SAFETY: `half` is 64 bytes, the width of the unaligned store.
                unsafe { _mm512_storeu_si512(half.as_mut_ptr().cast(), v) };
            }
        }
        self.live = g.live;
    }

    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq,popcnt")]
    fn group(&self) -> Group {
        let [lo, hi] = [0, 8].map(|at| {
            // SAFETY: 8 u64 from `at` are inside `bits`, the width of the unaligned load.
            unsafe { _mm512_loadu_si512(self.bits[at..at + 8].as_ptr().cast()) }
        });
        Group {
            pa: vector(&self.pa),
            pb: vector(&self.pb),
            qa: vector(&self.qa),
            qb: vector(&self.qb),
            rounds: vector(&self.rounds),
            wars1: vector(&self.wars1),
            ha: vector(&self.ha),
            hb: vector(&self.hb),
            bits: [lo, hi],
            left: vector(&self.left),
            due: vector(&self.due),
            kept: self.kept.each_ref().map(|k| vector(k)),
            live: self.live,
            skip: self.skip,
        }
    }

    /// `group` with lanes `touched` set from these arrays: lane by lane from registers, since
    /// reloading whole vectors just after scalar stores to them would stall on store
    /// forwarding.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq,popcnt")]
    fn patch<const ORDER: u8, const LOOPS: bool>(&self, mut group: Group, touched: u16) -> Group {
        let mut lanes = touched;
        while lanes != 0 {
            let l = lanes.trailing_zeros() as usize;
            let bit = 1 << l;
            lanes &= lanes - 1;
            let set = |v: __m512i, x: u32| _mm512_mask_set1_epi32(v, bit, x as i32);
            group.pa = set(group.pa, self.pa[l]);
            group.pb = set(group.pb, self.pb[l]);
            group.qa = set(group.qa, self.qa[l]);
            group.qb = set(group.qb, self.qb[l]);
            group.rounds = set(group.rounds, self.rounds[l]);
            group.wars1 = set(group.wars1, self.wars1[l]);
            group.due = set(group.due, self.due[l]);
            if LOOPS {
                for (v, kept) in group.kept.iter_mut().zip(&self.kept) {
                    *v = set(*v, kept[l]);
                }
            }
            if ORDER == WON_PILE {
                group.ha = set(group.ha, self.ha[l]);
                group.hb = set(group.hb, self.hb[l]);
            }
            if ORDER == RANDOM_ORDER {
                group.left = set(group.left, self.left[l]);
                let half = &mut group.bits[l / 8];
                *half = _mm512_mask_set1_epi64(*half, 1 << (l % 8), self.bits[l] as i64);
            }
        }
        group.live = self.live;
        group.skip = self.skip;
        group
    }
}

/// A vector's 16 dwords.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq,popcnt")]
fn words(v: __m512i) -> [u32; 16] {
    let mut w = [0u32; 16];
    // SAFETY: `w` is 64 bytes, the width of the unaligned store.
    unsafe { _mm512_storeu_si512(w.as_mut_ptr().cast(), v) };
    w
}

/// Stores a vector's 16 dwords in `w`.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq,popcnt")]
fn store(w: &mut [u32; 16], v: __m512i) {
    // SAFETY: `w` is 64 bytes, the width of the unaligned store.
    unsafe { _mm512_storeu_si512(w.as_mut_ptr().cast(), v) };
}

/// 16 dwords as a vector.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq,popcnt")]
fn vector(w: &[u32; 16]) -> __m512i {
    // SAFETY: `w` is 64 bytes, the width of the unaligned load.
    unsafe { _mm512_loadu_si512(w.as_ptr().cast()) }
}
