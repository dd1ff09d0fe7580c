//! The lanes on AVX2, for x86-64 CPUs without the AVX-512 features the other engine and the
//! block path need (`Path::or_available`): the same games, steps and work out of line, with
//! what AVX2 lacks done another way. Its 16 vector registers do not hold a group (up to 15
//! vectors of 16 lanes, 30 of AVX2's 8), so a group stays in its [`Arrays`],
//! which each step reads and writes half by half (8 lanes a vector) and the work out of line
//! uses as they are. With no scatter, each lane's cards go down with two scalar stores, made
//! whether or not it fought a war (bytes past a tail are junk), so no store waits on a
//! branch; with no mask registers, lane masks are vectors of all-ones dwords.

use std::arch::x86_64::*;

use super::{limits, out_of_line, Arrays, Events, Games, MainLoop, BRYER};
use crate::games::war::lane_deal::{self, DealAhead};
use crate::games::war::stats::WarGame;
use crate::games::war::step::{LOSER_FIRST, P1_FIRST, RANDOM_ORDER, WINNER_FIRST, WON_PILE};
use crate::games::war::{War, WarScratch};
use crate::games::GameResult;

/// Whether this CPU has every feature this engine is compiled for.
pub(super) fn available() -> bool {
    is_x86_feature_detected!("avx2") && is_x86_feature_detected!("popcnt")
}

/// The AVX2 engine.
pub(super) struct Avx2;

impl MainLoop for Avx2 {
    const DEAL: DealAhead = lane_deal::deal8_avx2;

    /// On AVX2, so the CPU must have every feature [`available`] checks.
    #[target_feature(enable = "avx2,popcnt")]
    unsafe fn play<const ORDER: u8, const LOOPS: bool>(
        war: &War,
        s: &mut WarScratch,
        mem: &mut [u8],
        games: &mut Games,
        arrays: &mut [Arrays; 2],
        record: &mut dyn FnMut(u64, &GameResult<WarGame>),
    ) {
        let limits: Limits = [0, 1].map(|g| {
            let (a, b) = (limits(g, 0), limits(g, 1));
            [0, 1].map(|h| (load(&a, h), load(&b, h)))
        });
        // One call of `step` in a loop over the groups, not one per group: a function called
        // once is inlined, so the step's events stay in registers and its constants are
        // loaded once (called twice, it was a call per step, its events returned through
        // memory). The groups live in their arrays either way.
        while (arrays[0].live | arrays[1].live) != 0 {
            for (g, (a, limits)) in arrays.iter_mut().zip(&limits).enumerate() {
                // SAFETY: on entry to a step every tail is at most its buffer's start + LIMIT:
                // a step moves only the tails of lanes that played, flags those past LIMIT
                // (`check`), and `out_of_line` compacts every lane it sees that did not end;
                // refills put heads and tails at buffer starts (`Games::refill`). So the 12
                // bytes `step` writes at a tail end by start + LIMIT + 12, inside the lane's
                // own buffer and past its cards, and the 8 it reads at a head (never past the
                // tail) are inside `mem`.
                let events = unsafe { step::<ORDER, LOOPS>(a, mem.as_mut_ptr(), limits) };
                if events.touched() != 0 {
                    out_of_line::<ORDER, LOOPS>(war, s, mem, games, g, a, events, record);
                }
            }
        }
    }
}

/// Where the tails of each half of each group start to need compaction: player 1's, player
/// 2's.
type Limits = [[(__m256i, __m256i); 2]; 2];

/// Plays one battle in every live lane of the group whose arrays are `a`, 8 lanes at a time,
/// as the AVX-512 engine's step does (its comments say what each part is for).
///
/// # Safety
/// `mem` must be the lane buffers and `a`'s offsets within them as [`MainLoop::play`] keeps
/// them (every tail at most its buffer's start + LIMIT): each step reads 8 bytes at each head
/// and writes 12 bytes at each tail.
#[inline]
#[target_feature(enable = "avx2,popcnt")]
unsafe fn step<const ORDER: u8, const LOOPS: bool>(
    a: &mut Arrays,
    mem: *mut u8,
    limits: &[(__m256i, __m256i); 2],
) -> Events {
    let skip = a.skip;
    a.skip = 0;
    // One call in a loop, not two calls: a function called once is inlined, and `half` was
    // not where it was called twice (the shuffled pickup's, measured on AMD's Zen 3).
    let mut events = Events::default();
    for (h, &limits) in limits.iter().enumerate() {
        // SAFETY: the caller's.
        let e = unsafe { half::<ORDER, LOOPS>(a, h, mem, limits, skip) };
        events.war |= e.war;
        events.coin |= e.coin;
        events.shuffle |= e.shuffle;
        events.p1_wins |= e.p1_wins;
        events.check |= e.check;
        events.probe |= e.probe;
    }
    events
}

/// [`step`] for lanes 8h to 8h + 7 of the group; its events in those lanes' bits.
///
/// # Safety
/// As [`step`].
#[inline]
#[target_feature(enable = "avx2,popcnt")]
unsafe fn half<const ORDER: u8, const LOOPS: bool>(
    a: &mut Arrays,
    h: usize,
    mem: *mut u8,
    (lim_a, lim_b): (__m256i, __m256i),
    skip: u16,
) -> Events {
    let ff = _mm256_set1_epi32(0xff);
    let one = _mm256_set1_epi32(1);
    let five = _mm256_set1_epi32(5);
    let zero = _mm256_setzero_si256();
    let (pa, pb, qa, qb) = (
        load(&a.pa, h),
        load(&a.pb, h),
        load(&a.qa, h),
        load(&a.qb, h),
    );
    // SAFETY: the caller's: 8 bytes at each head are inside `mem`.
    let (a03, a47) = unsafe { top8(&a.pa[8 * h..8 * h + 8], mem) };
    // SAFETY: as above.
    let (b03, b47) = unsafe { top8(&a.pb[8 * h..8 * h + 8], mem) };
    let (a0, b0) = (_mm256_and_si256(a03, ff), _mm256_and_si256(b03, ff));
    let live = mask(a.live, h);
    let probe = if LOOPS {
        let img = _mm256_or_si256(
            _mm256_sub_epi32(qa, pa),
            _mm256_or_si256(_mm256_slli_epi32::<16>(a0), _mm256_slli_epi32::<24>(b0)),
        );
        let watch = mask(a.live & !skip, h);
        let hit = a.kept.iter().fold(zero, |hit, kept| {
            _mm256_or_si256(hit, _mm256_cmpeq_epi32(img, load(kept, h)))
        });
        _mm256_and_si256(hit, watch)
    } else {
        zero
    };
    let live = _mm256_andnot_si256(probe, live);
    let tie = _mm256_and_si256(_mm256_cmpeq_epi32(a0, b0), live);
    let (ends_a, ends_b) = if ORDER == WON_PILE {
        (load(&a.ha, h), load(&a.hb, h))
    } else {
        (qa, qb)
    };
    // Hand sizes and offsets are below 2^31: the signed compares of AVX2 do.
    let short = _mm256_and_si256(
        tie,
        _mm256_or_si256(
            _mm256_cmpgt_epi32(five, _mm256_sub_epi32(ends_a, pa)),
            _mm256_cmpgt_epi32(five, _mm256_sub_epi32(ends_b, pb)),
        ),
    );
    let war = _mm256_andnot_si256(short, tie);
    let (a4, b4) = (_mm256_and_si256(a47, ff), _mm256_and_si256(b47, ff));
    let xa = _mm256_blendv_epi8(a0, a4, war);
    let xb = _mm256_blendv_epi8(b0, b4, war);
    let deep = _mm256_and_si256(war, _mm256_cmpeq_epi32(xa, xb));
    let war1 = _mm256_andnot_si256(deep, war);
    let out = _mm256_andnot_si256(war1, tie);
    let mut played = _mm256_andnot_si256(out, live);
    let p1_wins = _mm256_cmpgt_epi32(xa, xb);
    let hi = _mm256_max_epu32(xa, xb);
    let lo = _mm256_min_epu32(xa, xb);
    let mut coin = zero;
    let (first, second) = match ORDER {
        LOSER_FIRST => (lo, hi),
        WON_PILE | P1_FIRST => (xa, xb),
        RANDOM_ORDER => {
            let plain = _mm256_andnot_si256(war1, played);
            coin = _mm256_and_si256(plain, _mm256_cmpeq_epi32(load(&a.left, h), zero));
            played = _mm256_andnot_si256(coin, played);
            let flips = _mm256_andnot_si256(coin, plain);
            let bits = &mut a.bits[8 * h..8 * h + 8];
            // SAFETY: `bits` is 8 u64: two unaligned 32-byte loads.
            let (bits03, bits47) = unsafe {
                (
                    _mm256_loadu_si256(bits.as_ptr().cast()),
                    _mm256_loadu_si256(bits[4..].as_ptr().cast()),
                )
            };
            // Each lane's low dword: lanes 0, 1, 4, 5, 2, 3, 6, 7, put in order.
            let low = _mm256_permute4x64_epi64::<0b11_01_10_00>(_mm256_castps_si256(
                _mm256_shuffle_ps::<0b10_00_10_00>(
                    _mm256_castsi256_ps(bits03),
                    _mm256_castsi256_ps(bits47),
                ),
            ));
            let winner_first = _mm256_cmpeq_epi32(_mm256_and_si256(low, one), one);
            let shifted = |v: __m256i, which: __m128i| {
                _mm256_blendv_epi8(v, _mm256_srli_epi64::<1>(v), _mm256_cvtepi32_epi64(which))
            };
            let (bits03, bits47) = (
                shifted(bits03, _mm256_castsi256_si128(flips)),
                shifted(bits47, _mm256_extracti128_si256::<1>(flips)),
            );
            // SAFETY: as the loads.
            unsafe {
                _mm256_storeu_si256(bits.as_mut_ptr().cast(), bits03);
                _mm256_storeu_si256(bits[4..].as_mut_ptr().cast(), bits47);
            }
            // `flips` lanes are −1.
            let left = _mm256_add_epi32(load(&a.left, h), flips);
            store(&mut a.left, h, left);
            (
                _mm256_blendv_epi8(lo, hi, winner_first),
                _mm256_blendv_epi8(hi, lo, winner_first),
            )
        }
        _ => (hi, lo),
    };
    let (war03, rest1, rest2) = if ORDER == BRYER {
        (
            _mm256_or_si256(
                hi,
                _mm256_or_si256(_mm256_slli_epi32::<8>(lo), _mm256_slli_epi32::<16>(a03)),
            ),
            _mm256_or_si256(_mm256_srli_epi32::<16>(a03), _mm256_slli_epi32::<16>(b03)),
            _mm256_srli_epi32::<16>(b03),
        )
    } else {
        let all = _mm256_cmpeq_epi32(zero, zero);
        let (x_first, y_first) = match ORDER {
            WINNER_FIRST => (p1_wins, _mm256_andnot_si256(p1_wins, all)),
            LOSER_FIRST => (_mm256_andnot_si256(p1_wins, all), p1_wins),
            _ => (all, zero),
        };
        let x03 = _mm256_blendv_epi8(b03, a03, x_first);
        let y03 = _mm256_blendv_epi8(b03, a03, y_first);
        let x4 = _mm256_blendv_epi8(b4, a4, x_first);
        let y4 = _mm256_blendv_epi8(b4, a4, y_first);
        (
            x03,
            _mm256_or_si256(x4, _mm256_slli_epi32::<8>(y03)),
            _mm256_or_si256(_mm256_srli_epi32::<24>(y03), _mm256_slli_epi32::<8>(y4)),
        )
    };
    let pair = _mm256_or_si256(first, _mm256_slli_epi32::<8>(second));
    let head = _mm256_blendv_epi8(pair, war03, war1);
    let dst = _mm256_blendv_epi8(qb, qa, p1_wins);
    // SAFETY: the caller's; `dst` is a tail of each lane.
    unsafe { put(mem, dst, head, rest1, rest2) };
    let steps = _mm256_blendv_epi8(_mm256_and_si256(played, one), five, war1);
    let gain = _mm256_blendv_epi8(_mm256_set1_epi32(2), _mm256_set1_epi32(10), war1);
    let (pa, pb) = (_mm256_add_epi32(pa, steps), _mm256_add_epi32(pb, steps));
    let won_a = _mm256_and_si256(played, p1_wins);
    let won_b = _mm256_andnot_si256(p1_wins, played);
    let qa = _mm256_add_epi32(qa, _mm256_and_si256(won_a, gain));
    let qb = _mm256_add_epi32(qb, _mm256_and_si256(won_b, gain));
    // `war1` lanes are −1.
    let wars1 = _mm256_sub_epi32(load(&a.wars1, h), war1);
    store(&mut a.wars1, h, wars1);
    let rounds = load(&a.rounds, h);
    let rounds = if ORDER == RANDOM_ORDER || LOOPS {
        _mm256_add_epi32(
            rounds,
            _mm256_andnot_si256(_mm256_or_si256(coin, probe), one),
        )
    } else {
        _mm256_add_epi32(rounds, one)
    };
    let (ends_a, ends_b) = if ORDER == WON_PILE {
        (ends_a, ends_b)
    } else {
        (qa, qb)
    };
    let due = _mm256_cmpgt_epi32(load(&a.due, h), rounds);
    let check = _mm256_and_si256(
        played,
        _mm256_or_si256(
            _mm256_or_si256(
                _mm256_cmpeq_epi32(pa, ends_a),
                _mm256_cmpeq_epi32(pb, ends_b),
            ),
            _mm256_or_si256(
                _mm256_andnot_si256(due, _mm256_cmpeq_epi32(zero, zero)),
                _mm256_or_si256(_mm256_cmpgt_epi32(qa, lim_a), _mm256_cmpgt_epi32(qb, lim_b)),
            ),
        ),
    );
    for (to, v) in [
        (&mut a.pa, pa),
        (&mut a.pb, pb),
        (&mut a.qa, qa),
        (&mut a.qb, qb),
        (&mut a.rounds, rounds),
    ] {
        store(to, h, v);
    }
    Events {
        war: lanes(out, h),
        coin: lanes(coin, h),
        shuffle: if ORDER == RANDOM_ORDER {
            lanes(war1, h)
        } else {
            0
        },
        p1_wins: lanes(p1_wins, h),
        check: lanes(check, h),
        probe: lanes(probe, h),
    }
}

/// Each hand's top 8 cards for the 8 lanes whose heads are `p` (lanes 8h to 8h + 7 of an
/// array of heads): cards 0..4 and 4..8 as dwords. Eight scalar loads, not AVX2's gathers:
/// on AMD's Zen 3 a 4-qword gather cost more than its four loads and inserts (issue 41).
///
/// # Safety
/// 8 bytes at every offset of `p` must be inside `mem`.
#[inline]
#[target_feature(enable = "avx2,popcnt")]
unsafe fn top8(p: &[u32], mem: *const u8) -> (__m256i, __m256i) {
    // SAFETY: the caller's.
    let q = |l: usize| unsafe { mem.add(p[l] as usize).cast::<i64>().read_unaligned() };
    // Built as lanes 0, 1, 4, 5 and 2, 3, 6, 7, which the shuffles below put in order.
    let lo = _mm256_set_epi64x(q(5), q(4), q(1), q(0));
    let hi = _mm256_set_epi64x(q(7), q(6), q(3), q(2));
    let (lo, hi) = (_mm256_castsi256_ps(lo), _mm256_castsi256_ps(hi));
    (
        _mm256_castps_si256(_mm256_shuffle_ps::<0b10_00_10_00>(lo, hi)),
        _mm256_castps_si256(_mm256_shuffle_ps::<0b11_01_11_01>(lo, hi)),
    )
}

/// Writes each lane's 12 bytes at its `dst`: `head` (a battle's two cards, or a one-level
/// war's first four), then `rest1` and `rest2` (the war's other six and two junk bytes).
///
/// # Safety
/// As [`step`]'s stores.
#[inline]
#[target_feature(enable = "avx2,popcnt")]
unsafe fn put(mem: *mut u8, dst: __m256i, head: __m256i, rest1: __m256i, rest2: __m256i) {
    let mut at = [0u32; 8];
    let mut rest = [0u32; 8];
    let mut first = [0u64; 8];
    // SAFETY: each array is 32 bytes (`first` 64, two stores), the stores' width.
    unsafe {
        _mm256_storeu_si256(at.as_mut_ptr().cast(), dst);
        _mm256_storeu_si256(rest.as_mut_ptr().cast(), rest2);
        // Lanes 0, 1, 4, 5, then 2, 3, 6, 7: each lane's head and rest1 as one qword.
        _mm256_storeu_si256(
            first.as_mut_ptr().cast(),
            _mm256_unpacklo_epi32(head, rest1),
        );
        _mm256_storeu_si256(
            first[4..].as_mut_ptr().cast(),
            _mm256_unpackhi_epi32(head, rest1),
        );
    }
    for (l, q) in [0, 1, 4, 5, 2, 3, 6, 7].into_iter().enumerate() {
        // SAFETY: the caller's: 12 bytes at a tail of lane `q`'s buffers are inside `mem`.
        unsafe {
            let to = mem.add(at[q] as usize);
            to.cast::<u64>().write_unaligned(first[l]);
            to.add(8).cast::<u32>().write_unaligned(rest[q]);
        }
    }
}

/// Lanes 8h to 8h + 7 of `w`.
#[inline]
#[target_feature(enable = "avx2,popcnt")]
fn load(w: &[u32; 16], h: usize) -> __m256i {
    let half = &w[8 * h..8 * h + 8];
    // SAFETY: `half` is 8 u32, the unaligned load's 32 bytes.
    unsafe { _mm256_loadu_si256(half.as_ptr().cast()) }
}

/// Sets lanes 8h to 8h + 7 of `w` to `v`.
#[inline]
#[target_feature(enable = "avx2,popcnt")]
fn store(w: &mut [u32; 16], h: usize, v: __m256i) {
    let half = &mut w[8 * h..8 * h + 8];
    // SAFETY: `half` is 8 u32, the unaligned store's 32 bytes.
    unsafe { _mm256_storeu_si256(half.as_mut_ptr().cast(), v) }
}

/// Bits 8h to 8h + 7 of `bits` as a lane mask.
#[inline]
#[target_feature(enable = "avx2,popcnt")]
fn mask(bits: u16, h: usize) -> __m256i {
    let each = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
    let b = _mm256_set1_epi32(i32::from(bits >> (8 * h)) & 0xff);
    _mm256_cmpeq_epi32(_mm256_and_si256(b, each), each)
}

/// A lane mask as bits 8h to 8h + 7.
#[inline]
#[target_feature(enable = "avx2,popcnt")]
fn lanes(m: __m256i, h: usize) -> u16 {
    (_mm256_movemask_ps(_mm256_castsi256_ps(m)) as u16) << (8 * h)
}
