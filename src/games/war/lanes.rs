//! Many games per core in AVX-512 lanes (issue 25): 32 games at once, one battle of each per
//! step, for the two-player rule sets with 3 cards down whose wars the hot loop fights on
//! cursors, with loop detection or without (see [`supports`] and [`order`], which say which
//! rule sets stay on today's path and why).
//!
//! Why lanes: one game's battles depend on each other (the next card is the one just won), so
//! a single game leaves most of a core idle; games do not, so 16 of them fill a vector. The
//! design is the C prototype's (`shared/reference/war-lanes/v16b.h`):
//!
//! - A lane is a game; its two hands are linear byte buffers with a head and a tail that only
//!   grow (compacted out of line when a tail nears its buffer's end), so no read or write
//!   wraps and every lane may write past its tail unconditionally.
//! - One step gathers each hand's top 8 cards, decides a plain battle or a one-level war (its
//!   10 cards are among the 16) without a branch, and scatters the battle's two cards (a war's
//!   first four) as one dword under the winner's hand, in the pickup's order; a war's other 6
//!   cards go down with 8-byte stores of the lanes compressed to the front. The shuffled
//!   pickup's coin comes from the lane's 64 buffered bits, shifted in the vector.
//! - Out of line, per lane: deeper wars and a hand too short for a war, fought by the hot
//!   loop's own [`cursor_war`] on the lane's buffers with the lane's own generator; the
//!   shuffled pickup's shuffle of a war the step decided; a coin word drawn when a lane's 64
//!   are spent; a won pile shuffled into an empty hand; the game's end, the cap, compaction;
//!   loop detection's checkpoints and full comparisons ([`out_of_line`]).
//!   A finished lane takes the next game at once, dealt by today's deal from
//!   `game_rng(seed, i)`. Each lane draws from its game's generator exactly what that game
//!   draws on the other paths, in the same order: coin words and won-pile shuffles when the
//!   other paths draw them (just before the battle that needs them, which the lane plays
//!   after), a war's shuffle once its cards are under the winner's hand, before any later
//!   draw.
//!
//! Results leave in the order games end, each with its index: the tallies are sums, so the
//! order does not matter.

use std::arch::x86_64::*;
use std::ops::Range;

use rand::RngCore;

use super::cursor_war::{cursor_war, fights_on_cursors, Hands};
use super::deal::bryer_deal;
use super::lane_deal::{deal8, AHEAD};
use super::rules::{DealOrder, Pickup, WarRules};
use super::stats::WarGame;
use super::step::{LOSER_FIRST, P1_FIRST, RANDOM_ORDER, WINNER_FIRST, WON_PILE};
use super::{War, WarScratch};
use crate::games::cards::{shuffle, Card, Cursor};
use crate::games::cycle::Ending;
use crate::games::{Game, GameResult, Outcome};
use crate::sim::rng::{game_rng, GameRng};

/// Vectors of 16 games played in turn: two, so one's gathers overlap the other's work.
const GROUPS: usize = 2;
/// Games in play at once.
const LANES: usize = 16 * GROUPS;
/// Bytes of one hand's buffer (a power of two: a war out of line sees it as a ring, which it
/// never wraps).
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
/// The lanes' own order beside the hot loop's (`step.rs`): the `bryer` pickup, a plain
/// battle's cards winner first and a one-level war's in the R program's order.
const BRYER: u8 = 5;
/// With loop detection, the positions a lane keeps from its last checkpoints (rounds 2^k − 1)
/// and compares every round with. Brent's search keeps one, and sees a cycle of length λ only
/// from a checkpoint at least λ − 1 rounds in, so 2λ to 3λ rounds into a game whose loop
/// starts early, as p1-first's long cycles mostly do (mean λ 2,418 in
/// `results/war-rules/war-down-3_short-war-last-card_pickup-p1-first`); keeping three sees it
/// from a checkpoint λ/7 in.
const KEPT: usize = 3;
/// The first checkpoint after the deal (then 2r + 1 after one at round r): later than
/// Brent's round 1, as each costs a trip out of line (the deal is kept from the start), but
/// early enough for the short loops of the small decks `exact` plays. Measured on one thread:
/// at 63, `exact war --ranks 6 --suits 2 --pickup p1-first` ran at 1.80M deals/s against
/// 1.88M at 15, and `bryer` with loop detection at 1.49-1.59M games/s against 1.43M.
const FIRST_CHECKPOINT: u32 = 15;
/// An image no position has (player 1 never holds 65,535 cards).
const NO_IMAGE: u32 = u32::MAX;

/// Where slot `k` of lane `lane` lies in `tortoise` ([`Games::tortoise`]): a deck's worth of
/// cards each, [`KEPT`] + 1 slots a lane.
fn slot(tortoise: &[Card], lane: usize, k: usize) -> Range<usize> {
    let n = tortoise.len() / (LANES * (KEPT + 1));
    let at = (lane * (KEPT + 1) + k) * n;
    at..at + n
}

/// Writes `hands` into a lane's buffers from `starts`; returns where they end (the tails).
fn put_hands(mem: &mut [u8], starts: [u32; 2], hands: [&[Card]; 2]) -> [u32; 2] {
    let mut tails = starts;
    for (tail, hand) in tails.iter_mut().zip(hands) {
        let at = *tail as usize;
        mem[at..at + hand.len()].copy_from_slice(hand);
        *tail += hand.len() as u32;
    }
    tails
}

/// A cheap image of a lane's position for loop detection: player 1's hand size and both top
/// cards. Equal positions have equal images; the full comparison decides.
fn image(len0: usize, top0: Card, top1: Card) -> u32 {
    len0 as u32 | u32::from(top0) << 16 | u32::from(top1) << 24
}

/// How the lanes play a pickup with `war_down` cards down: the order of a plain battle's
/// cards (or [`BRYER`]); `None` for the rule sets today's path plays faster or alone. A match
/// with no wildcard, so a new pickup does not compile until it is placed here.
///
/// Measured on one thread (`WARSIM_PATH=lanes` against `avx512`, 100,000 games, this
/// session's Xeon): with another number than 3 down, every war goes out of line (the step
/// decides only wars whose 10 cards are among the 16 it gathers), and the block path wins:
/// winner-first 1 down 0.96M games/s against 1.05M, won-pile 2 down 0.30M against 0.34M,
/// shuffled 2 down 0.64M against 0.69M. `p1-first` games without loop detection are long and
/// even (9,305 rounds on average), where the block path's 32 battles per step beat a
/// gather and a scatter per battle: 0.090M against 0.103M; with loop detection the block
/// path compares every battle and the lanes win. `table` and `kbwar` interleave a war's
/// levels card by card, which `cursor_war` does not fight.
fn order(pickup: Pickup, war_down: u32, detect_loops: bool) -> Option<u8> {
    if war_down != 3 {
        return None;
    }
    Some(match pickup {
        Pickup::Bryer => BRYER,
        Pickup::WinnerFirst => WINNER_FIRST,
        Pickup::LoserFirst => LOSER_FIRST,
        Pickup::Shuffled => RANDOM_ORDER,
        Pickup::WonPile => WON_PILE,
        Pickup::P1First if detect_loops => P1_FIRST,
        Pickup::P1First | Pickup::Table | Pickup::Kbwar => return None,
    })
}

/// Whether the lanes play this rule set exactly as today's path does, and faster: two
/// players, a pickup and 3 cards down that [`order`] places, wars the hot loop fights on
/// cursors ([`fights_on_cursors`]: not honor, nor `bryer` with last-card short wars), won
/// cards under the hand or (`--pickup won-pile`) on its shuffled won pile but not a
/// `--won-pile` one, loop detection or not, no quit statistics (they watch every round), a
/// deck of at most [`MAX_CARDS`] and a cap of 1 to 2^31 − 1 rounds; any short-war rule `cursor_war` fights, deal, `--p1-cards` and `--by`.
/// Every other rule set stays on today's path.
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
        short_war: _,
        pickup,
        won_pile,
        deal: _,
        detect_loops,
        max_rounds,
        p1_cards: _,
        honor: _,
        by: _,
        quit_stats,
        players,
    } = rules;
    *players == 2
        && order(*pickup, *war_down, *detect_loops).is_some()
        && fights_on_cursors(rules)
        && won_pile.is_none()
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

/// The games in the lanes: the index of each lane's game, what it counted out of line and its
/// generator.
struct Games {
    src: Source,
    index: [u64; LANES],
    counted: [WarGame; LANES],
    rng: [GameRng; LANES],
    next: u64,
    end: u64,
    ahead: Ahead,
    /// With loop detection, each lane's positions saved at its last [`KEPT`] checkpoints, then
    /// its deal (player 1's hand, then player 2's: a deck's worth of cards each, [`slot`]), the
    /// rounds they were saved at, player 1's cards in the deal, and the slot the next
    /// checkpoint takes.
    tortoise: Vec<Card>,
    dealt: [usize; LANES],
    since: [[u32; KEPT]; LANES],
    slot: [usize; LANES],
}

/// Games dealt ahead, [`AHEAD`] at a time ([`deal8`]), for the `bryer` and `shuffled` deals of
/// decks of at most 64 cards, with their generators after the deal.
struct Ahead {
    index: [u64; AHEAD],
    p1: [[Card; 64]; AHEAD],
    p2: [[Card; 64]; AHEAD],
    rng: [GameRng; AHEAD],
    /// The next game to hand out (`AHEAD`: none left).
    at: usize,
}

/// The offset of lane `lane`'s buffer for player `p`.
#[inline(always)]
fn base(lane: usize, p: usize) -> u32 {
    (2 * lane + p) as u32 * HAND
}

/// Where the lanes' games come from.
#[derive(Clone, Copy, Debug)]
pub(super) enum Source {
    /// The run with this base seed: game `i` is dealt from `game_rng(seed, i)`.
    Seed(u64),
    /// `exact`'s enumeration: game `i` is distinct deal number `i` (`War::deal_cards`).
    Deals,
}

/// Plays games `range` of `src` in lanes, handing each result with its index to `record`.
/// The caller checked [`supports`] for the rules and [`available`] for this CPU (and, for
/// [`Source::Deals`], that the rules have an enumeration).
///
/// # Safety
/// The CPU must have every feature [`available`] checks.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq,popcnt")]
pub(super) unsafe fn play_range(
    war: &War,
    src: Source,
    range: Range<u64>,
    s: &mut WarScratch,
    record: &mut dyn FnMut(u64, &GameResult<WarGame>),
) {
    let rules = &war.rules;
    // SAFETY (each arm): the caller's.
    unsafe {
        match (
            order(rules.pickup, rules.war_down, rules.detect_loops),
            rules.detect_loops,
        ) {
            (Some(BRYER), false) => play::<BRYER, false>(war, src, range, s, record),
            (Some(BRYER), true) => play::<BRYER, true>(war, src, range, s, record),
            (Some(WINNER_FIRST), false) => play::<WINNER_FIRST, false>(war, src, range, s, record),
            (Some(WINNER_FIRST), true) => play::<WINNER_FIRST, true>(war, src, range, s, record),
            (Some(LOSER_FIRST), false) => play::<LOSER_FIRST, false>(war, src, range, s, record),
            (Some(LOSER_FIRST), true) => play::<LOSER_FIRST, true>(war, src, range, s, record),
            (Some(P1_FIRST), true) => play::<P1_FIRST, true>(war, src, range, s, record),
            (Some(RANDOM_ORDER), false) => play::<RANDOM_ORDER, false>(war, src, range, s, record),
            (Some(WON_PILE), false) => play::<WON_PILE, false>(war, src, range, s, record),
            _ => unreachable!("the lanes do not play {rules:?}"),
        }
    }
}

/// [`play_range`] for the pickup whose [`order`] is `ORDER`, detecting loops if `LOOPS`.
///
/// # Safety
/// As [`play_range`].
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq,popcnt")]
unsafe fn play<const ORDER: u8, const LOOPS: bool>(
    war: &War,
    src: Source,
    range: Range<u64>,
    s: &mut WarScratch,
    record: &mut dyn FnMut(u64, &GameResult<WarGame>),
) {
    let mut mem = std::mem::take(&mut s.lanes);
    assert_eq!(mem.len(), BYTES, "lane buffers are made by War::scratch");
    // The generators' first value is never drawn: each game's replaces it (`refill`).
    let seed = match src {
        Source::Seed(seed) => seed,
        Source::Deals => 0,
    };
    let mut games = Games {
        src,
        index: [0; LANES],
        counted: [WarGame::default(); LANES],
        rng: std::array::from_fn(|_| game_rng(seed, range.start)),
        next: range.start,
        end: range.end,
        tortoise: if LOOPS {
            vec![0; LANES * (KEPT + 1) * war.deck.len()]
        } else {
            Vec::new()
        },
        since: [[0; KEPT]; LANES],
        dealt: [0; LANES],
        slot: [0; LANES],
        ahead: Ahead {
            index: [0; AHEAD],
            p1: [[0; 64]; AHEAD],
            p2: [[0; 64]; AHEAD],
            rng: std::array::from_fn(|_| game_rng(seed, range.start)),
            at: AHEAD,
        },
    };
    let mut arrays = [Arrays::default(), Arrays::default()];
    let [mut g0, mut g1] = [0, 1].map(|g| {
        let a = &mut arrays[g];
        for l in 0..16 {
            games.refill(war, s, &mut mem, g * 16 + l, a, record);
        }
        a.group()
    });
    let [a0, a1] = &mut arrays;
    let lanes = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    let hand_bytes = _mm512_set1_epi32(HAND as i32);
    let limits = [0, 1].map(|g: i32| {
        let lane = _mm512_add_epi32(lanes, _mm512_set1_epi32(16 * g));
        let a = _mm512_mullo_epi32(lane, _mm512_set1_epi32(2 * HAND as i32));
        let lim = _mm512_add_epi32(a, _mm512_set1_epi32(LIMIT as i32));
        (lim, _mm512_add_epi32(lim, hand_bytes))
    });
    // The two groups are separate locals, not an array indexed in a loop, so that their
    // vectors stay in registers; the rare work out of line sees them through their arrays
    // (stored before, patched back after), never by value: a group is 11 vectors.
    while (g0.live | g1.live) != 0 {
        // SAFETY: every offset in `g0` and `g1` lies inside `mem` with the margins `step`
        // needs: heads and tails stay within their buffers below LIMIT + 12, refills and
        // compaction put them at buffer starts (`Games::refill`, `out_of_line`).
        let events = unsafe { step::<ORDER, LOOPS>(&mut g0, mem.as_mut_ptr(), limits[0]) };
        if events.touched() != 0 {
            a0.load::<ORDER, LOOPS>(&g0);
            out_of_line::<ORDER, LOOPS>(war, s, &mut mem, &mut games, 0, a0, events, record);
            g0 = a0.patch::<ORDER, LOOPS>(g0, events.touched());
        }
        // SAFETY: as above.
        let events = unsafe { step::<ORDER, LOOPS>(&mut g1, mem.as_mut_ptr(), limits[1]) };
        if events.touched() != 0 {
            a1.load::<ORDER, LOOPS>(&g1);
            out_of_line::<ORDER, LOOPS>(war, s, &mut mem, &mut games, 1, a1, events, record);
            g1 = a1.patch::<ORDER, LOOPS>(g1, events.touched());
        }
    }
    s.lanes = mem;
}

/// What a step leaves to [`out_of_line`]: lanes whose tie began a war the step did not decide,
/// lanes that need a fresh coin word before their battle (which they play at the next step),
/// lanes whose war the step decided and whose cards the shuffled pickup now shuffles (player 1
/// won where `p1_wins`), lanes that may have ended, emptied a hand proper, reached the cap or
/// a checkpoint of loop detection or need compaction, and (`LOOPS`) lanes whose position may
/// equal one kept from their last checkpoints (its cheap image matches; the battle waits).
#[derive(Clone, Copy)]
struct Events {
    war: u16,
    coin: u16,
    shuffle: u16,
    p1_wins: u16,
    check: u16,
    probe: u16,
}

impl Events {
    fn touched(self) -> u16 {
        self.war | self.coin | self.shuffle | self.check | self.probe
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
/// `mem` must be the lane buffers (at least [`BYTES`] bytes) and `g`'s offsets within them as
/// [`play`] keeps them: each step reads 8 bytes at each head and writes at most 12 bytes
/// at a tail below LIMIT + 12 (or to the spare bytes at [`SPARE`]).
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
    let (a03, a47) = unsafe { top8(g.pa, mem) };
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

/// A group's vectors as arrays, for the per-lane work out of line.
#[derive(Default)]
struct Arrays {
    pa: [u32; 16],
    pb: [u32; 16],
    qa: [u32; 16],
    qb: [u32; 16],
    rounds: [u32; 16],
    wars1: [u32; 16],
    ha: [u32; 16],
    hb: [u32; 16],
    bits: [u64; 16],
    left: [u32; 16],
    due: [u32; 16],
    kept: [[u32; 16]; KEPT],
    live: u16,
    skip: u16,
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

/// The per-lane work a step left, on group `g`'s arrays: wars, coin words, won piles, ends,
/// the cap, compaction and (`LOOPS`) loop detection; each ended game is recorded and its lane
/// refilled.
///
/// Loop detection is Brent's ([`crate::games::cycle::run_detecting`]) with [`KEPT`] saved
/// positions: each lane saves its position at checkpoints ([`FIRST_CHECKPOINT`], then
/// 2r + 1) and compares every later one with the last few saved, so the first full match
/// gives the cycle's length λ (the first return to a saved position in the cycle). Where
/// the loop begins (μ) is then found on today's path from the deal the lane kept
/// ([`Games::looped`]). A game that reaches the cap is played again on today's path, whose
/// search may look past the cap, so the lanes report exactly what it reports.
#[inline(never)]
#[allow(clippy::too_many_arguments)]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq,popcnt")]
fn out_of_line<const ORDER: u8, const LOOPS: bool>(
    war: &War,
    s: &mut WarScratch,
    mem: &mut [u8],
    games: &mut Games,
    g: usize,
    a: &mut Arrays,
    events: Events,
    record: &mut dyn FnMut(u64, &GameResult<WarGame>),
) {
    let max = war.rules.max_rounds;
    let touched = events.touched();
    let mut lanes = touched;
    while lanes != 0 {
        let l = lanes.trailing_zeros() as usize;
        lanes &= lanes - 1;
        let lane = g * 16 + l;
        let bit = 1 << l;
        if events.coin & bit != 0 {
            // The flip's word; the battle waits for the next step.
            a.bits[l] = games.rng[lane].next_u64();
            a.left[l] = 64;
            continue;
        }
        if LOOPS && events.probe & bit != 0 {
            match games.returned(lane, mem, a) {
                Some(cycle_len) => games.looped(war, s, mem, lane, a, cycle_len, record),
                // Only an image matched: the lane plays its battle at the next step.
                None => a.skip |= bit,
            }
            continue;
        }
        if events.shuffle & bit != 0 {
            // As `cursor_war` shuffles the war's cards, just given to the winner.
            let tail = if events.p1_wins & bit != 0 {
                a.qa[l]
            } else {
                a.qb[l]
            } as usize;
            shuffle(&mut games.rng[lane], &mut mem[tail - 10..tail]);
        }
        let ended = if events.war & bit != 0 {
            let rng = &mut games.rng[lane];
            lane_war::<ORDER>(war, rng, mem, lane, a, &mut games.counted[lane])
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
            None if rounds >= max && LOOPS => {
                games.replay(war, s, lane, record);
                games.refill(war, s, mem, lane, a, record);
                continue;
            }
            None if rounds >= max => Some(Ending::Capped),
            None => None,
        };
        if let Some(ending) = ending {
            let mut stats = games.counted[lane];
            let wars1 = a.wars1[l];
            stats.wars += wars1;
            stats.by_depth[0] += wars1;
            if wars1 > 0 {
                stats.deepest = stats.deepest.max(1);
            }
            record(games.index[lane], &ending.result(max, stats));
            games.refill(war, s, mem, lane, a, record);
            continue;
        }
        if LOOPS && rounds >= u64::from(a.due[l]) {
            // A checkpoint: the position is compared here, as the next step will not.
            if let Some(cycle_len) = games.returned(lane, mem, a) {
                games.looped(war, s, mem, lane, a, cycle_len, record);
                continue;
            }
            games.save(lane, mem, a);
            a.due[l] = (2 * rounds + 1).min(max) as u32;
        }
        let hands = [
            (0, &mut a.pa[l], &mut a.ha[l], &mut a.qa[l]),
            (1, &mut a.pb[l], &mut a.hb[l], &mut a.qb[l]),
        ];
        for (p, head, hand_end, tail) in hands {
            let start = base(lane, p);
            if ORDER == WON_PILE && *head == *hand_end {
                // An empty hand takes its won pile, shuffled (player 1's first), where the
                // other paths do it: before the next card is drawn.
                let buf = &mut mem[start as usize..(start + HAND) as usize];
                let pile = Cursor::span((*head - start) as usize, (*tail - start) as usize);
                pile.shuffle(buf, &mut games.rng[lane]);
                *hand_end = *tail;
            }
            if *tail > start + LIMIT {
                mem.copy_within(*head as usize..*tail as usize, start as usize);
                let moved = *head - start;
                *tail -= moved;
                *hand_end -= moved;
                *head = start;
            }
        }
    }
}

/// Fights the war a step left in lane `lane` (its hands' top cards tie) with the hot loop's
/// [`cursor_war`] on the lane's buffers, seen as rings it never wraps (their tails stay below
/// LIMIT + 12, and a war adds at most the deck), and the lane's generator; returns the outcome
/// if it decided the game.
fn lane_war<const ORDER: u8>(
    war: &War,
    rng: &mut GameRng,
    mem: &mut [u8],
    lane: usize,
    a: &mut Arrays,
    counted: &mut WarGame,
) -> Option<Outcome> {
    let l = lane % 16;
    let start = base(lane, 0);
    let (b0, b1) = mem[start as usize..(start + 2 * HAND) as usize].split_at_mut(HAND as usize);
    let heads = [&mut a.pa[l], &mut a.pb[l]];
    let tails = [&mut a.qa[l], &mut a.qb[l]];
    let ends = [&mut a.ha[l], &mut a.hb[l]];
    let starts = [start, start + HAND];
    let at = |p: usize| {
        Cursor::span(
            (*heads[p] - starts[p]) as usize,
            (*tails[p] - starts[p]) as usize,
        )
    };
    let won = if ORDER == WON_PILE {
        [
            (*tails[0] - *ends[0]) as usize,
            (*tails[1] - *ends[1]) as usize,
        ]
    } else {
        [0; 2]
    };
    let mut h = Hands {
        bufs: [b0, b1],
        at: [at(0), at(1)],
        won,
    };
    let card = h.at[0].pop(h.bufs[0]);
    h.at[1].pop(h.bufs[1]);
    let outcome = cursor_war(war, rng, counted, &mut h, card);
    let [head0, head1] = heads;
    let [tail0, tail1] = tails;
    let [end0, end1] = ends;
    for (p, (head, tail, end)) in [(head0, tail0, end0), (head1, tail1, end1)]
        .into_iter()
        .enumerate()
    {
        let cursor = h.at[p];
        debug_assert!(cursor.len() <= MAX_CARDS, "a lane's hand outgrew the deck");
        *head = starts[p] + cursor.head_index(HAND as usize) as u32;
        *tail = *head + cursor.len() as u32;
        *end = *tail - h.won[p] as u32;
    }
    outcome
}

impl Games {
    /// Puts the next game of the range into lane `lane` (dealt by today's deal code from its
    /// own generator, which the lane keeps for the rest of the game, or `exact`'s deal of that
    /// number), or marks the lane idle when none is left. A deal the lanes cannot start (an
    /// empty hand) is played on today's path at once.
    #[allow(clippy::too_many_arguments)]
    fn refill(
        &mut self,
        war: &War,
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
        let seed = match self.src {
            Source::Seed(seed) => Some(seed),
            Source::Deals => None,
        };
        if let Some(seed) = seed.filter(|_| {
            matches!(war.rules.deal, DealOrder::Bryer | DealOrder::Shuffled)
                && war.fixed_hands.is_none()
                && n <= 64
                && ahead.at == AHEAD
                && self.end - self.next >= AHEAD as u64
        }) {
            let first = self.next;
            // SAFETY: `refill` runs only within `play_range`, whose caller checked that the
            // CPU has every feature `deal8` enables.
            if unsafe {
                deal8(
                    war,
                    seed,
                    first,
                    &mut ahead.p1,
                    &mut ahead.p2,
                    &mut ahead.rng,
                )
            } {
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
            let tails = put_hands(mem, starts, hands);
            self.rng[lane] = self.ahead.rng[g].clone();
            self.start(war, lane, self.ahead.index[g], starts, tails, a, mem);
            return;
        }
        while self.next < self.end {
            let i = self.next;
            self.next += 1;
            let seed = match seed {
                Some(seed) => seed,
                None => {
                    let half = war.deal_cards(i, s).expect("the caller checked");
                    let (p1, p2) = s.deal.split_at(half);
                    if p1.is_empty() || p2.is_empty() {
                        // A hand dealt empty (rare): dealt again and played at once.
                        record(i, &war.play_deal_number(i, s).expect("the caller checked"));
                        continue;
                    }
                    let tails = put_hands(mem, starts, [p1, p2]);
                    self.start(war, lane, i, starts, tails, a, mem);
                    return;
                }
            };
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
            self.rng[lane] = rng;
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
        // No won pile yet, and no coin bits (`CoinFlips::reset`).
        [a.ha[l], a.hb[l]] = tails;
        a.left[l] = 0;
        a.live |= 1 << l;
        a.due[l] = war.rules.max_rounds as u32;
        if war.rules.detect_loops {
            for kept in &mut a.kept {
                kept[l] = NO_IMAGE;
            }
            self.slot[lane] = 0;
            self.save(lane, mem, a);
            // The deal, to play again from when the game loops (`looped`).
            let (from, to) = (
                slot(&self.tortoise, lane, 0),
                slot(&self.tortoise, lane, KEPT),
            );
            self.tortoise.copy_within(from, to.start);
            self.dealt[lane] = (tails[0] - heads[0]) as usize;
            a.due[l] = a.due[l].min(FIRST_CHECKPOINT);
        }
    }

    /// Saves lane `lane`'s position (a tortoise of Brent's) and its image in the slot of the
    /// oldest kept; the lane skips comparing at its next step, being there.
    fn save(&mut self, lane: usize, mem: &[u8], a: &mut Arrays) {
        let l = lane % 16;
        let k = self.slot[lane];
        self.slot[lane] = (k + 1) % KEPT;
        let (head, tail) = ([a.pa[l], a.pb[l]], [a.qa[l], a.qb[l]]);
        let len0 = (tail[0] - head[0]) as usize;
        let saved = self.kept_mut(lane, k);
        saved[..len0].copy_from_slice(&mem[head[0] as usize..tail[0] as usize]);
        saved[len0..].copy_from_slice(&mem[head[1] as usize..tail[1] as usize]);
        self.since[lane][k] = a.rounds[l];
        a.kept[k][l] = image(len0, mem[head[0] as usize], mem[head[1] as usize]);
        a.skip |= 1 << l;
    }

    /// Lane `lane`'s kept position `k`.
    fn kept_mut(&mut self, lane: usize, k: usize) -> &mut [Card] {
        let at = slot(&self.tortoise, lane, k);
        &mut self.tortoise[at]
    }

    /// The rounds since the checkpoint whose kept position lane `lane`'s position is, if one
    /// is: then the game's cycle length, this being the first time the lane has returned to
    /// it (every round is compared with every kept position).
    fn returned(&self, lane: usize, mem: &[u8], a: &Arrays) -> Option<u64> {
        let l = lane % 16;
        let (hand0, hand1) = (
            &mem[a.pa[l] as usize..a.qa[l] as usize],
            &mem[a.pb[l] as usize..a.qb[l] as usize],
        );
        let img = image(hand0.len(), hand0[0], hand1[0]);
        (0..KEPT).find_map(|k| {
            let (saved0, saved1) =
                self.tortoise[slot(&self.tortoise, lane, k)].split_at(hand0.len());
            (a.kept[k][l] == img && hand0 == saved0 && hand1 == saved1)
                .then(|| u64::from(a.rounds[l] - self.since[lane][k]))
        })
    }

    /// Records the game in lane `lane`, whose positions repeat every `cycle_len` rounds: where
    /// its loop begins is found on today's path, from the game's deal kept in the lane
    /// ([`locate`](crate::games::cycle::LoopDetector::locate)), as are its statistics.
    #[allow(clippy::too_many_arguments)]
    fn looped(
        &mut self,
        war: &War,
        s: &mut WarScratch,
        mem: &mut [u8],
        lane: usize,
        a: &mut Arrays,
        cycle_len: u64,
        record: &mut dyn FnMut(u64, &GameResult<WarGame>),
    ) {
        let i = self.index[lane];
        let max = war.rules.max_rounds;
        let deal = self.tortoise[slot(&self.tortoise, lane, KEPT)].split_at(self.dealt[lane]);
        war.set_dealt([deal.0, deal.1], &mut s.detector.hare);
        let ending = s.detector.locate(war, cycle_len, max);
        record(i, &s.detector.hare.result(ending, max));
        self.refill(war, s, mem, lane, a, record);
    }

    /// Plays the game in lane `lane` again on today's path, and records it.
    fn replay(
        &self,
        war: &War,
        s: &mut WarScratch,
        lane: usize,
        record: &mut dyn FnMut(u64, &GameResult<WarGame>),
    ) {
        let i = self.index[lane];
        let result = match self.src {
            Source::Seed(seed) => Game::play(war, &mut game_rng(seed, i), s),
            Source::Deals => war.play_deal_number(i, s).expect("the caller checked"),
        };
        record(i, &result);
    }
}
