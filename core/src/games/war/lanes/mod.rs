//! Many games per core in SIMD lanes (issue 25): 32 games at once, one battle of each per
//! step, for the two-player rule sets with 3 cards down whose wars the hot loop fights on
//! cursors, with loop detection or without (see [`supports`] and [`order`], which say which
//! rule sets stay on today's path and why).
//!
//! This module holds what the engines share: the lanes' games and buffers, each lane's game
//! dealt, started and checked for loops (in `games.rs`), and the work out of line (in
//! `out_of_line.rs`). Each engine ([`Engine`]) has its main loop and step: `avx512` (the
//! design below, vectors of 16 lanes kept in registers) and `avx2` (the same step 8 lanes at a
//! time, on the group's arrays in memory, for CPUs without the AVX-512 features of the other
//! engine and the block path).
//!
//! Why lanes: one game's battles depend on each other (the next card is the one just won), so
//! a single game leaves most of a core idle; games do not, so 16 of them fill a vector. The
//! design is the C prototype's (`v16b.h` of the lanes reference, docs/speed.md):
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

mod avx2;
mod avx512;
mod games;
mod measured;
mod out_of_line;

use out_of_line::{out_of_line, Arrays, Events};

use std::ops::Range;

use rand::RngCore;

use super::cursor_war::{cursor_war, fights_on_cursors, Hands};
use super::deal::bryer_deal;
use super::lane_deal::{DealAhead, AHEAD};
use super::rules::{DealOrder, Pickup, WarRules};
use super::stats::WarGame;
use super::step::{LOSER_FIRST, P1_FIRST, RANDOM_ORDER, WINNER_FIRST, WON_PILE};
use super::{War, WarScratch};
use crate::games::cards::{shuffle, Card, Cursor};
use crate::games::cycle::Ending;
use crate::games::{Game, GameResult, Outcome};
use crate::rng::{game_rng, GameRng};

/// Groups of 16 games (one AVX-512 vector, two AVX2 ones) played in turn: two, so one's
/// gathers overlap the other's work.
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
/// deck of at most [`MAX_CARDS`] and a cap of 1 to 2^31 − 1 rounds; any short-war rule
/// `cursor_war` fights, deal, `--p1-cards` and `--by`. Every other rule set stays on today's
/// path. "Faster" was measured against the AVX-512 block path on the Intel Xeon
/// (`results/bench-xeon.txt`); on the AVX2 engine the same rule sets play in lanes, beside the
/// scalar path, which they beat or equal there, except where [`measured`] names a CPU family
/// on which they lose (`results/bench.txt`).
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

/// The lanes measured fastest on this CPU's family ([`measured::lanes_engine`]).
pub(in crate::games::war) fn preferred_engine() -> Engine {
    measured::lanes_engine(measured::Family::here())
}

/// Whether `engine` measured slower for these rules on this CPU's family than the path
/// beside it ([`measured`]).
pub(super) fn measured_slower(engine: Engine, rules: &WarRules, cards: usize) -> bool {
    measured::lanes_lose(measured::Family::here(), engine, rules, cards)
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

/// Games dealt ahead, [`AHEAD`] at a time (by [`Ahead::deal`]), for the `bryer` and `shuffled`
/// deals of decks of at most 64 cards, with their generators after the deal.
struct Ahead {
    index: [u64; AHEAD],
    p1: [[Card; 64]; AHEAD],
    p2: [[Card; 64]; AHEAD],
    rng: [GameRng; AHEAD],
    /// The next game to hand out (`AHEAD`: none left).
    at: usize,
    /// The deal of [`AHEAD`] games: the engine's ([`MainLoop::DEAL`]), or the VBMI2 deal where
    /// the CPU has it ([`fastest`](super::lane_deal::fastest)).
    deal: DealAhead,
}

/// The offset of lane `lane`'s buffer for player `p`.
#[inline(always)]
fn base(lane: usize, p: usize) -> u32 {
    (2 * lane + p) as u32 * HAND
}

/// The offset past which lane `lane`'s tail of player `p` needs compaction ([`out_of_line`]).
fn limit(lane: usize, p: usize) -> u32 {
    base(lane, p) + LIMIT
}

/// [`limit`] for player `p` in group `g`'s 16 lanes, for the engines' steps to flag those
/// lanes.
fn limits(g: usize, p: usize) -> [u32; 16] {
    std::array::from_fn(|l| limit(16 * g + l, p))
}

/// Where the lanes' games come from.
#[derive(Clone, Copy, Debug)]
pub(super) enum Source {
    /// The run with this base seed: game `i` is dealt from `game_rng(seed, i)`.
    Seed(u64),
    /// `exact`'s enumeration: game `i` is distinct deal number `i` (`War::deal_cards`).
    Deals,
}

/// Which vector instructions play the lanes: AVX-512 (16 lanes a vector, with gathers,
/// scatters and mask registers), or AVX2 for CPUs without the AVX-512 features of that engine
/// and the block path (8 lanes a vector, gathers but no scatter, compress or mask registers:
/// the step stores each lane's cards one by one).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Engine {
    Avx512,
    Avx2,
}

/// Whether this CPU has every feature `engine` is compiled for.
pub(super) fn available(engine: Engine) -> bool {
    match engine {
        Engine::Avx512 => avx512::available(),
        Engine::Avx2 => avx2::available(),
    }
}

/// An engine's main loop: steps both groups of lanes, sending the lanes each step leaves to
/// [`out_of_line`], until no lane holds a game.
trait MainLoop {
    /// The deal of [`AHEAD`] games at once on the engine's features
    /// ([`deal8`](super::lane_deal::deal8) or [`deal8_avx2`](super::lane_deal::deal8_avx2)).
    const DEAL: DealAhead;

    /// Plays `games` from the lanes as [`run`] dealt them into `arrays` and `mem`.
    ///
    /// # Safety
    /// The CPU must have every feature the engine's `available` checks.
    unsafe fn play<const ORDER: u8, const LOOPS: bool>(
        war: &War,
        s: &mut WarScratch,
        mem: &mut [u8],
        games: &mut Games,
        arrays: &mut [Arrays; 2],
        record: &mut dyn FnMut(u64, &GameResult<WarGame>),
    );
}

/// Plays games `range` of `src` in lanes with `engine`, handing each result with its index to
/// `record`. The caller checked [`supports`] for the rules and [`available`] for this CPU and
/// engine (and, for [`Source::Deals`], that the rules have an enumeration).
///
/// # Safety
/// The CPU must have every feature [`available`] checks for `engine`.
pub(super) unsafe fn play_range(
    war: &War,
    engine: Engine,
    src: Source,
    range: Range<u64>,
    s: &mut WarScratch,
    record: &mut dyn FnMut(u64, &GameResult<WarGame>),
) {
    // SAFETY: the caller's, for each arm.
    unsafe {
        match engine {
            Engine::Avx512 => by_order::<avx512::Avx512>(war, src, range, s, record),
            Engine::Avx2 => by_order::<avx2::Avx2>(war, src, range, s, record),
        }
    }
}

/// [`play_range`] on engine `E`, for the rules' pickup order and loop detection.
///
/// # Safety
/// As [`play_range`].
unsafe fn by_order<E: MainLoop>(
    war: &War,
    src: Source,
    range: Range<u64>,
    s: &mut WarScratch,
    record: &mut dyn FnMut(u64, &GameResult<WarGame>),
) {
    let rules = &war.rules;
    // SAFETY: the caller's, for each arm.
    unsafe {
        match (
            order(rules.pickup, rules.war_down, rules.detect_loops),
            rules.detect_loops,
        ) {
            (Some(BRYER), false) => run::<E, BRYER, false>(war, src, range, s, record),
            (Some(BRYER), true) => run::<E, BRYER, true>(war, src, range, s, record),
            (Some(WINNER_FIRST), false) => {
                run::<E, WINNER_FIRST, false>(war, src, range, s, record)
            }
            (Some(WINNER_FIRST), true) => run::<E, WINNER_FIRST, true>(war, src, range, s, record),
            (Some(LOSER_FIRST), false) => run::<E, LOSER_FIRST, false>(war, src, range, s, record),
            (Some(LOSER_FIRST), true) => run::<E, LOSER_FIRST, true>(war, src, range, s, record),
            (Some(P1_FIRST), true) => run::<E, P1_FIRST, true>(war, src, range, s, record),
            (Some(RANDOM_ORDER), false) => {
                run::<E, RANDOM_ORDER, false>(war, src, range, s, record)
            }
            (Some(WON_PILE), false) => run::<E, WON_PILE, false>(war, src, range, s, record),
            _ => unreachable!("the lanes do not play {rules:?}"),
        }
    }
}

/// [`play_range`] on engine `E` for the pickup whose [`order`] is `ORDER`, detecting loops if
/// `LOOPS`: deals the first games into the lanes, then runs the engine's main loop.
///
/// # Safety
/// As [`play_range`].
unsafe fn run<E: MainLoop, const ORDER: u8, const LOOPS: bool>(
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
            deal: super::lane_deal::fastest(E::DEAL),
        },
    };
    let mut arrays = [Arrays::default(), Arrays::default()];
    for (g, a) in arrays.iter_mut().enumerate() {
        for l in 0..16 {
            games.refill(war, s, &mut mem, g * 16 + l, a, record);
        }
    }
    // SAFETY: the caller's.
    unsafe { E::play::<ORDER, LOOPS>(war, s, &mut mem, &mut games, &mut arrays, record) };
    s.lanes = mem;
}
