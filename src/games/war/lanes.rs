//! Many games per core in AVX-512 lanes (issue 25): 32 games at once, one battle of each per
//! step, for the rule sets whose play after the deal draws no randomness and whose wars fit one
//! step (the `bryer` pickup, 3 cards down; see [`supports`]).
//!
//! Why lanes: one game's battles depend on each other (the next card is the one just won), so
//! a single game leaves most of a core idle; games do not, so 16 of them fill a vector. The
//! design is the C prototype's (`shared/reference/war-lanes/v16b.h`):
//!
//! - A lane is a game; its two hands are linear byte buffers with a head and a tail that only
//!   grow (compacted out of line when a tail nears its buffer's end), so no read or write
//!   wraps and every lane may write past its tail unconditionally.
//! - One step gathers each hand's top 8 cards, decides a plain battle or a one-level war (its
//!   cards are among the 8) without a branch, and scatters the winner card, loser card and
//!   player 1's first two cards as one dword under the winner's hand; a war's other 8 cards go
//!   down with two 8-byte stores of the lanes compressed to the front.
//! - Out of line, per lane: deeper wars, a hand too short for a war, the game's end, the cap,
//!   compaction. A finished lane takes the next game at once, dealt by today's scalar deal
//!   from `game_rng(seed, i)`, so every game draws exactly what it draws on the other paths.
//!
//! Results leave in the order games end, each with its index: the tallies are sums, so the
//! order does not matter.

use std::arch::x86_64::*;
use std::ops::Range;

use super::deal::bryer_deal;
use super::lane_deal::{deal8, AHEAD};
use super::rules::{DealOrder, Pickup, ShortWar, WarRules};
use super::stats::WarGame;
use super::{War, WarScratch};
use crate::games::cards::Card;
use crate::games::cycle::Ending;
use crate::games::{GameResult, Outcome};
use crate::sim::rng::game_rng;

/// Vectors of 16 games played in turn: two, so one's gathers overlap the other's work.
const GROUPS: usize = 2;
/// Games in play at once.
const LANES: usize = 16 * GROUPS;
/// Bytes of one hand's buffer.
const HAND: u32 = 1024;
/// The largest deck the lanes play: a hand never holds more.
pub(super) const MAX_CARDS: usize = 256;
/// A tail beyond this many bytes into its buffer compacts the hand. What one step and one war
/// out of line can write past it (12 bytes, then a whole deck, then 8 junk bytes of a
/// gather) stays inside the buffer.
const LIMIT: u32 = HAND - MAX_CARDS as u32 - 32;
/// Where the war stores of the lanes without a one-level war go (after the last buffer).
const SPARE: u32 = 2 * HAND * LANES as u32;
/// Bytes of every lane's buffers, the spare stores' place and the gathers' overreach.
pub(super) const BYTES: usize = SPARE as usize + 64;
/// Cards each player lays face down in a war: the one-level war decided within a step reads a
/// hand's first five cards.
const WAR_DOWN: u32 = 3;

/// Whether the lanes play this rule set exactly as today's path does: the `bryer` pickup (no
/// randomness after the deal, a war's cards in a fixed order) under the hand (no won pile), 3
/// cards down, a short player
/// losing (`bryer` or `lose`), no honor, no loop detection, no quit statistics (they watch
/// every round), a deck of at most [`MAX_CARDS`]
/// and a cap of 1 to 2^31 − 1 rounds; any deal, `--p1-cards` and `--by`. Every other rule set
/// stays on today's path.
///
/// The rule set is taken apart field by field with no `..`, so a rule option added to
/// [`WarRules`] does not compile here until someone decides whether the lanes play it: a new
/// option cannot reach the lanes unnoticed.
pub(super) fn supports(rules: &WarRules, cards: usize) -> bool {
    let WarRules {
        preset: _,
        ranks: _,
        suits: _,
        war_down,
        short_war,
        pickup,
        won_pile,
        deal: _,
        detect_loops,
        max_rounds,
        p1_cards: _,
        honor,
        by: _,
        quit_stats,
        players,
    } = rules;
    *players == 2
        && *pickup == Pickup::Bryer
        && won_pile.is_none()
        && matches!(short_war, ShortWar::Bryer | ShortWar::Lose)
        && *war_down == WAR_DOWN
        && honor.is_none()
        && !detect_loops
        && !quit_stats
        && (2..=MAX_CARDS).contains(&cards)
        && (1..1 << 31).contains(max_rounds)
}

/// Whether this CPU has every feature [`play_range`] is compiled for.
pub(super) fn available() -> bool {
    is_x86_feature_detected!("avx512f")
        && is_x86_feature_detected!("avx512bw")
        && is_x86_feature_detected!("avx512vl")
        && is_x86_feature_detected!("avx512dq")
        && is_x86_feature_detected!("popcnt")
}

/// 16 games in play: each hand's head (`p`) and tail (`q`) as byte offsets into the buffers,
/// rounds played, one-level wars fought in the main loop, and which lanes hold a game.
#[derive(Clone, Copy)]
struct Group {
    pa: __m512i,
    pb: __m512i,
    qa: __m512i,
    qb: __m512i,
    rounds: __m512i,
    wars1: __m512i,
    live: u16,
}

/// The games in the lanes: the index of each lane's game and what it counted out of line.
struct Games {
    index: [u64; LANES],
    counted: [WarGame; LANES],
    next: u64,
    end: u64,
    ahead: Ahead,
}

/// Games dealt ahead, [`AHEAD`] at a time ([`deal8`]), for the `bryer` deal of decks of at most
/// 64 cards.
struct Ahead {
    index: [u64; AHEAD],
    p1: [[Card; 64]; AHEAD],
    p2: [[Card; 64]; AHEAD],
    /// The next game to hand out (`AHEAD`: none left).
    at: usize,
}

/// The offset of lane `lane`'s buffer for player `p`.
#[inline(always)]
fn base(lane: usize, p: usize) -> u32 {
    (2 * lane + p) as u32 * HAND
}

/// Plays games `range` of the run with base `seed` in lanes, handing each result with its index
/// to `record`. The caller checked [`supports`] for the rules and [`available`] for this CPU.
///
/// # Safety
/// The CPU must have every feature [`available`] checks.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq,popcnt")]
pub(super) unsafe fn play_range(
    war: &War,
    seed: u64,
    range: Range<u64>,
    s: &mut WarScratch,
    record: &mut dyn FnMut(u64, &GameResult<WarGame>),
) {
    let mut mem = std::mem::take(&mut s.lanes);
    assert_eq!(mem.len(), BYTES, "lane buffers are made by War::scratch");
    let mut games = Games {
        index: [0; LANES],
        counted: [WarGame::default(); LANES],
        next: range.start,
        end: range.end,
        ahead: Ahead {
            index: [0; AHEAD],
            p1: [[0; 64]; AHEAD],
            p2: [[0; 64]; AHEAD],
            at: AHEAD,
        },
    };
    let [mut g0, mut g1] = [0, 1].map(|g| {
        let mut arrays = Arrays::default();
        for l in 0..16 {
            games.refill(war, seed, s, &mut mem, g * 16 + l, &mut arrays, record);
        }
        arrays.group()
    });
    let lanes = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    let hand_bytes = _mm512_set1_epi32(HAND as i32);
    let limits = [0, 1].map(|g: i32| {
        let lane = _mm512_add_epi32(lanes, _mm512_set1_epi32(16 * g));
        let a = _mm512_mullo_epi32(lane, _mm512_set1_epi32(2 * HAND as i32));
        let lim = _mm512_add_epi32(a, _mm512_set1_epi32(LIMIT as i32));
        (lim, _mm512_add_epi32(lim, hand_bytes))
    });
    let cap = _mm512_set1_epi32(war.rules.max_rounds as i32);
    // The two groups are separate locals, not an array indexed in a loop, so that their
    // vectors stay in registers; the rare work out of line takes and returns one by value.
    while (g0.live | g1.live) != 0 {
        // SAFETY: every offset in `g0` and `g1` lies inside `mem` with the margins `step`
        // needs: heads and tails stay within their buffers below LIMIT + 12, refills and
        // compaction put them at buffer starts (`Games::refill`, `out_of_line`).
        let events = unsafe { step(&mut g0, mem.as_mut_ptr(), limits[0], cap) };
        if events.any() {
            g0 = out_of_line(war, seed, s, &mut mem, &mut games, 0, g0, events, record);
        }
        // SAFETY: as above.
        let events = unsafe { step(&mut g1, mem.as_mut_ptr(), limits[1], cap) };
        if events.any() {
            g1 = out_of_line(war, seed, s, &mut mem, &mut games, 1, g1, events, record);
        }
    }
    s.lanes = mem;
}

/// What a step leaves to [`out_of_line`]: lanes whose tie began a deeper war, lanes whose tie
/// found a short hand, and lanes that may have ended or need compaction.
#[derive(Clone, Copy)]
struct Events {
    deep: u16,
    short: u16,
    check: u16,
}

impl Events {
    fn any(self) -> bool {
        (self.deep | self.short | self.check) != 0
    }
}

/// Plays one battle in every live lane of `g`: a plain battle, or a tie whose one-level war the
/// 8 gathered cards decide. Returns the lanes left to [`out_of_line`].
///
/// # Safety
/// `mem` must be the lane buffers (at least [`BYTES`] bytes) and `g`'s offsets within them as
/// [`play_range`] keeps them: each step reads 8 bytes at each head and writes at most 12 bytes
/// at a tail below LIMIT + 12 (or to the spare bytes at [`SPARE`]).
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq,popcnt")]
unsafe fn step(
    g: &mut Group,
    mem: *mut u8,
    (lim_a, lim_b): (__m512i, __m512i),
    cap: __m512i,
) -> Events {
    let ff = _mm512_set1_epi32(0xff);
    let one = _mm512_set1_epi32(1);
    let five = _mm512_set1_epi32(5);
    // Each hand's top 8 cards: dwords of cards 0..4 and 4..8 per lane.
    let (a03, a47) = unsafe { top8(g.pa, mem) };
    let (b03, b47) = unsafe { top8(g.pb, mem) };
    let (a0, b0) = (_mm512_and_si512(a03, ff), _mm512_and_si512(b03, ff));
    let tie = _mm512_mask_cmpeq_epi32_mask(g.live, a0, b0);
    // A tie with a hand of fewer than 5 cards (3 down and 1 up after the tie) ends the game.
    let na = _mm512_sub_epi32(g.qa, g.pa);
    let nb = _mm512_sub_epi32(g.qb, g.pb);
    let short =
        _mm512_mask_cmplt_epu32_mask(tie, na, five) | _mm512_mask_cmplt_epu32_mask(tie, nb, five);
    let war = tie & !short;
    // The deciding cards: the top ones, or a war's face-up ones (cards 4).
    let xa = _mm512_mask_and_epi32(a0, war, a47, ff);
    let xb = _mm512_mask_and_epi32(b0, war, b47, ff);
    let deep = _mm512_mask_cmpeq_epi32_mask(war, xa, xb);
    let war1 = war & !deep;
    let played = g.live & !(short | deep);
    let p1_wins = _mm512_cmpgt_epu32_mask(xa, xb);
    let hi = _mm512_max_epu32(xa, xb);
    let lo = _mm512_min_epu32(xa, xb);
    // Winner card, loser card, then (a war) player 1's tied card and first card down.
    let head = _mm512_ternarylogic_epi32::<0xfe>(
        hi,
        _mm512_slli_epi32::<8>(lo),
        _mm512_slli_epi32::<16>(a03),
    );
    let dst = _mm512_mask_blend_epi32(p1_wins, g.qb, g.qa);
    // SAFETY: `dst` is a tail of each lane (below LIMIT + 12 in its buffer): 4 bytes there are
    // inside `mem`; bytes past a tail are not cards, so lanes that played no battle may write.
    unsafe { _mm512_i32scatter_epi32::<1>(mem.cast(), dst, head) };
    // A one-level war's other 8 cards, after those 2: player 1's last two, player 2's four.
    let rest1 = _mm512_or_si512(_mm512_srli_epi32::<16>(a03), _mm512_slli_epi32::<16>(b03));
    let rest2 = _mm512_srli_epi32::<16>(b03);
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
    let steps = _mm512_mask_mov_epi32(_mm512_maskz_mov_epi32(played, one), war1, five);
    let gain = _mm512_mask_mov_epi32(_mm512_set1_epi32(2), war1, _mm512_set1_epi32(10));
    g.pa = _mm512_add_epi32(g.pa, steps);
    g.pb = _mm512_add_epi32(g.pb, steps);
    g.qa = _mm512_mask_add_epi32(g.qa, played & p1_wins, g.qa, gain);
    g.qb = _mm512_mask_add_epi32(g.qb, played & !p1_wins, g.qb, gain);
    g.rounds = _mm512_add_epi32(g.rounds, one);
    g.wars1 = _mm512_mask_add_epi32(g.wars1, war1, g.wars1, one);
    let check = _mm512_mask_cmpeq_epi32_mask(played, g.pa, g.qa)
        | _mm512_mask_cmpeq_epi32_mask(played, g.pb, g.qb)
        | _mm512_mask_cmpge_epu32_mask(played, g.rounds, cap)
        | _mm512_mask_cmpgt_epu32_mask(played, g.qa, lim_a)
        | _mm512_mask_cmpgt_epu32_mask(played, g.qb, lim_b);
    Events { deep, short, check }
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

/// A group's vectors as arrays, for the per-lane work out of line.
#[derive(Default)]
struct Arrays {
    pa: [u32; 16],
    pb: [u32; 16],
    qa: [u32; 16],
    qb: [u32; 16],
    rounds: [u32; 16],
    wars1: [u32; 16],
    live: u16,
}

impl Arrays {
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq,popcnt")]
    fn of(g: &Group) -> Arrays {
        Arrays {
            pa: words(g.pa),
            pb: words(g.pb),
            qa: words(g.qa),
            qb: words(g.qb),
            rounds: words(g.rounds),
            wars1: words(g.wars1),
            live: g.live,
        }
    }

    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq,popcnt")]
    fn group(&self) -> Group {
        Group {
            pa: vector(&self.pa),
            pb: vector(&self.pb),
            qa: vector(&self.qa),
            qb: vector(&self.qb),
            rounds: vector(&self.rounds),
            wars1: vector(&self.wars1),
            live: self.live,
        }
    }
}

impl Arrays {
    /// `group` with lanes `touched` set from these arrays: lane by lane from registers, since
    /// reloading whole vectors just after scalar stores to them would stall on store
    /// forwarding.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq,popcnt")]
    fn patch(&self, mut group: Group, touched: u16) -> Group {
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
        }
        group.live = self.live;
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

/// 16 dwords as a vector.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq,popcnt")]
fn vector(w: &[u32; 16]) -> __m512i {
    // SAFETY: `w` is 64 bytes, the width of the unaligned load.
    unsafe { _mm512_loadu_si512(w.as_ptr().cast()) }
}

/// The per-lane work a step left: deeper wars, short hands, ends, the cap, compaction; each
/// ended game is recorded and its lane refilled.
#[inline(never)]
#[allow(clippy::too_many_arguments)]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq,popcnt")]
fn out_of_line(
    war: &War,
    seed: u64,
    s: &mut WarScratch,
    mem: &mut [u8],
    games: &mut Games,
    g: usize,
    group: Group,
    events: Events,
    record: &mut dyn FnMut(u64, &GameResult<WarGame>),
) -> Group {
    let mut a = Arrays::of(&group);
    let max = war.rules.max_rounds;
    let touched = events.deep | events.short | events.check;
    let mut lanes = touched;
    while lanes != 0 {
        let l = lanes.trailing_zeros() as usize;
        lanes &= lanes - 1;
        let lane = g * 16 + l;
        let bit = 1 << l;
        let counted = &mut games.counted[lane];
        let ended = if events.deep & bit != 0 {
            deep_war(
                war,
                mem,
                [&mut a.pa[l], &mut a.pb[l]],
                [&mut a.qa[l], &mut a.qb[l]],
                counted,
            )
        } else if events.short & bit != 0 {
            // The war is fought (and counted) but a short player ends it.
            counted.wars += 1;
            counted.note_battle(1);
            let held = [
                (a.qa[l] - a.pa[l] - 1) as usize,
                (a.qb[l] - a.pb[l] - 1) as usize,
            ];
            match war.rules.face_down(held) {
                Err(winner) => Some(winner.map_or(Outcome::Draw, |w| Outcome::Player(w as u8))),
                Ok(_) => unreachable!("a hand of fewer than 5 cards is short of a 3-down war"),
            }
        } else {
            None
        };
        let rounds = u64::from(a.rounds[l]);
        let ending = match ended {
            Some(outcome) => Some(Ending::Ended { rounds, outcome }),
            None if a.pa[l] == a.qa[l] => Some(Ending::Ended {
                rounds,
                outcome: Outcome::Player(1),
            }),
            None if a.pb[l] == a.qb[l] => Some(Ending::Ended {
                rounds,
                outcome: Outcome::Player(0),
            }),
            None if rounds >= max => Some(Ending::Capped),
            None => None,
        };
        match ending {
            Some(ending) => {
                let mut stats = *counted;
                let wars1 = a.wars1[l];
                stats.wars += wars1;
                stats.by_depth[0] += wars1;
                if wars1 > 0 {
                    stats.deepest = stats.deepest.max(1);
                }
                record(games.index[lane], &ending.result(max, stats));
                games.refill(war, seed, s, mem, lane, &mut a, record);
            }
            None => {
                for (p, head, tail) in [
                    (0, &mut a.pa[l], &mut a.qa[l]),
                    (1, &mut a.pb[l], &mut a.qb[l]),
                ] {
                    let start = base(lane, p);
                    if *tail > start + LIMIT {
                        mem.copy_within(*head as usize..*tail as usize, start as usize);
                        *tail -= *head - start;
                        *head = start;
                    }
                }
            }
        }
    }
    a.patch(group, touched)
}

/// Fights the war a step left at the heads of a lane's hands (their top cards tie, and so do
/// the cards 4 below), as `cursor_war` does for the `bryer` pickup, and gives the table to its
/// winner; returns the outcome if it decided the game.
fn deep_war(
    war: &War,
    mem: &mut [u8],
    heads: [&mut u32; 2],
    tails: [&mut u32; 2],
    counted: &mut WarGame,
) -> Option<Outcome> {
    let k = war.rules.war_down as usize;
    let p = [*heads[0] as usize, *heads[1] as usize];
    let q = [*tails[0] as usize, *tails[1] as usize];
    let mut laid = [1usize; 2];
    let (mut a, mut b) = (mem[p[0]], mem[p[1]]);
    let mut depth = 0;
    while a == b {
        depth += 1;
        counted.wars += 1;
        let held = [q[0] - p[0] - laid[0], q[1] - p[1] - laid[1]];
        match war.rules.face_down(held) {
            Ok(down) => {
                laid[0] += down[0] + 1;
                laid[1] += down[1] + 1;
            }
            Err(winner) => {
                counted.note_battle(depth);
                return Some(winner.map_or(Outcome::Draw, |w| Outcome::Player(w as u8)));
            }
        }
        (a, b) = (mem[p[0] + laid[0] - 1], mem[p[1] + laid[1] - 1]);
    }
    counted.note_battle(depth);
    let w = usize::from(b > a);
    let l = 1 - w;
    // The deciding cards, winner's first, then each level's cards from the innermost out,
    // player 1's then player 2's. The winner's tail is past both hands' laid cards.
    let mut t = q[w];
    let mut push = |mem: &mut [u8], from: usize| {
        mem[t] = mem[from];
        t += 1;
    };
    push(mem, p[w] + laid[w] - 1);
    push(mem, p[l] + laid[l] - 1);
    for level in (0..depth as usize).rev() {
        for start in p {
            for i in level * (k + 1)..(level + 1) * (k + 1) {
                push(mem, start + i);
            }
        }
    }
    let [head0, head1] = heads;
    *head0 += laid[0] as u32;
    *head1 += laid[1] as u32;
    *tails[w] = t as u32;
    (*tails[l] == if l == 0 { *head0 } else { *head1 }).then_some(Outcome::Player(w as u8))
}

impl Games {
    /// Puts the next game of the range into lane `lane` (dealt by today's deal code from its
    /// own generator), or marks the lane idle when none is left. A deal the lanes cannot start
    /// (an empty hand) is played on today's path at once.
    #[allow(clippy::too_many_arguments)]
    fn refill(
        &mut self,
        war: &War,
        seed: u64,
        s: &mut WarScratch,
        mem: &mut [u8],
        lane: usize,
        a: &mut Arrays,
        record: &mut dyn FnMut(u64, &GameResult<WarGame>),
    ) {
        let l = lane % 16;
        let starts = [base(lane, 0), base(lane, 1)];
        let n = war.deck.len();
        let bryer = war.rules.deal == DealOrder::Bryer && war.fixed_hands.is_none();
        let ahead = &mut self.ahead;
        if bryer && n <= 64 && ahead.at == AHEAD && self.end - self.next >= AHEAD as u64 {
            let first = self.next;
            // SAFETY: `refill` runs only within `play_range`, whose caller checked that the
            // CPU has every feature `deal8` enables.
            if unsafe { deal8(war, seed, first, &mut ahead.p1, &mut ahead.p2) } {
                ahead.index = std::array::from_fn(|g| first + g as u64);
                ahead.at = 0;
                self.next += AHEAD as u64;
            }
        }
        if self.ahead.at < AHEAD {
            let g = self.ahead.at;
            self.ahead.at += 1;
            let (h1, h2) = (n / 2, n - n / 2);
            let hands = [&self.ahead.p1[g][..h1], &self.ahead.p2[g][..h2]];
            for (start, hand) in starts.into_iter().zip(hands) {
                mem[start as usize..start as usize + hand.len()].copy_from_slice(hand);
            }
            let tails = [starts[0] + h1 as u32, starts[1] + h2 as u32];
            self.start(war, lane, self.ahead.index[g], starts, tails, a, mem);
            return;
        }
        while self.next < self.end {
            let i = self.next;
            self.next += 1;
            let mut rng = game_rng(seed, i);
            let hare = &mut s.detector.hare;
            let mut tails = starts;
            if bryer {
                // Today's deal, written straight into the lane.
                let (a_buf, b_buf) = mem.split_at_mut(starts[1] as usize);
                let [ta, tb] = &mut tails;
                let (to_p1, to_p2) = (
                    |c| {
                        a_buf[*ta as usize] = c;
                        *ta += 1;
                    },
                    |c| {
                        b_buf[(*tb - starts[1]) as usize] = c;
                        *tb += 1;
                    },
                );
                bryer_deal(
                    war,
                    &mut rng,
                    &mut hare.positions,
                    &mut hare.taken,
                    to_p1,
                    to_p2,
                );
            } else {
                hare.deal(war, &mut rng);
                if hare.hands.iter().any(|h| h.is_empty()) {
                    record(i, &war.run_dealt(&mut rng, s));
                    continue;
                }
                for (p, hand) in hare.hands.iter().enumerate() {
                    for c in hand.iter() {
                        mem[tails[p] as usize] = c;
                        tails[p] += 1;
                    }
                }
            }
            self.start(war, lane, i, starts, tails, a, mem);
            return;
        }
        // Idle: a hand of one card each, never played (the lane is not live).
        [a.pa[l], a.pb[l], a.qa[l], a.qb[l]] = [starts[0], starts[1], starts[0] + 1, starts[1] + 1];
        a.live &= !(1 << l);
    }

    /// Starts game `i`, dealt into lane `lane`'s buffers from `heads` to `tails`; its group
    /// (`--by`) is taken from player 1's hand there, as `Position::deal` takes it.
    #[allow(clippy::too_many_arguments)]
    fn start(
        &mut self,
        war: &War,
        lane: usize,
        i: u64,
        heads: [u32; 2],
        tails: [u32; 2],
        a: &mut Arrays,
        mem: &[u8],
    ) {
        let l = lane % 16;
        let group = war.rules.by.map(|by| {
            let hand = &mem[heads[0] as usize..tails[0] as usize];
            by.group(hand.iter().copied(), war.rules.ranks)
        });
        self.index[lane] = i;
        self.counted[lane] = WarGame {
            group,
            ..WarGame::default()
        };
        [a.pa[l], a.pb[l], a.qa[l], a.qb[l]] = [heads[0], heads[1], tails[0], tails[1]];
        a.rounds[l] = 0;
        a.wars1[l] = 0;
        a.live |= 1 << l;
    }
}
