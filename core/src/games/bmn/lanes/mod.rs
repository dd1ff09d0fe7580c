//! Beggar-my-neighbour in SIMD lanes (issue 52): 8 games at once on AVX2, one *phase* of each
//! per step, with no branch, for `simulate bmn` (`lanes-avx2` in summary.json's provenance),
//! 16 on AVX-512 (`lanes`); and for the searches' climb and census ([`Lanes`], [`Games`]:
//! deals and positions whose next game may depend on the last one's end).
//!
//! A lane is one game in the phase engine's form ([`super::phase`]): each hand a mask of its
//! penalty cards, their demands as 2-bit fields, and its length; the pile the same. One step
//! computes, for all 8 games, where the phase ends (the first penalty card, a player with no
//! card, or the demand paid), lays that many cards by shifts, moves the penalty card's demand
//! onto the pile, puts a paid pile under the taker's hand and swaps the players by blends.
//! Random deals take about 114 phases (35 tricks, 255 cards), so about 14 steps of 8 games a
//! deal, against 114 mispredicted branches for the scalar phase engine. What AVX2 lacks
//! (lzcnt of a lane, 64-bit minimum, masks) is done as the C reference of issue 52 does it
//! (`lanes_avx2.h`; the step is in [`step`], the deal in [`deal`]).
//!
//! Exactness: every game is dealt from its own `game_rng(seed, i)` exactly as `simulate`
//! deals it ([`deal`]), and reports the phase engine's cards, tricks and winner. Loops are not
//! followed in the lanes: a game that reaches [`step::trick_cap`] tricks (832 for 52 cards;
//! random deals end within about 500) leaves them, and the phase engine plays it again from
//! its deal with Brent's loop detection, so a loop's start and length are the reference's. A
//! game ends within the lanes only with a winner, and never near the card cap, which the
//! lanes require to be at least [`MIN_CAP`] ([`fits`]).

mod avx512;
mod deal;
mod step;

use std::ops::Range;

use deal::{deal8, deal8_wide, of_bytes, of_deck, Deal8, Dealt, Penalties};
pub(in crate::games::bmn) use step::Report;
use step::WHO;

use super::{Bmn, BmnGame, BmnScratch, Position, Width};
use crate::games::cards::shuffle;
use crate::games::{Game, GameResult, Outcome};
use crate::rng::game_rng;

/// The most cards the lanes hold: a hand's mask must keep its bits at or above bit 12, where
/// the float conversion of the leading-zero count reads them.
pub const MAX_CARDS: usize = 52;
/// The most penalty cards: a queue of 2-bit demands is one dword.
pub const MAX_PENALTIES: usize = 16;
/// The highest demand a 2-bit field holds.
pub const MAX_DEMAND: u8 = 4;
/// The least card cap the lanes play under: more than any game they hold can lay before it
/// leaves them at the trick cap (2,112 tricks of at most 52 cards), so a capped game never
/// ends in the lanes.
pub const MIN_CAP: u64 = 1 << 17;
/// Games dealt ahead at a time.
const AHEAD: usize = 256;

/// Whether this CPU runs the AVX2 lanes: AVX2, and BMI2's pext and pdep for the deal's queues
/// (which the AVX-512 lanes share).
pub fn available() -> bool {
    is_x86_feature_detected!("avx2")
        && is_x86_feature_detected!("bmi2")
        && is_x86_feature_detected!("popcnt")
}

/// Whether this CPU runs the AVX2 lanes in the EVEX encoding ([`step::evex`]) and deals for
/// them with AVX-512 ([`deal8_wide`]): AVX-512 F, VL and BW beside what [`available`] needs.
fn evex() -> bool {
    available()
        && is_x86_feature_detected!("avx512f")
        && is_x86_feature_detected!("avx512vl")
        && is_x86_feature_detected!("avx512bw")
}

impl Width {
    /// Whether this CPU has every feature these lanes and their deal are compiled for.
    pub fn available(self) -> bool {
        match self {
            Width::Avx512 => avx512::available(),
            Width::Avx2 => available(),
        }
    }
}

/// Whether the lanes play this deck (demands in rank order) under the card cap `max_rounds`:
/// at most [`MAX_CARDS`] cards, [`MAX_PENALTIES`] penalty cards, demands up to
/// [`MAX_DEMAND`], and a cap of at least [`MIN_CAP`]. The phase engine plays the others.
pub fn fits(deck: &[u8], max_rounds: u64) -> bool {
    (2..=MAX_CARDS).contains(&deck.len())
        && deck.iter().all(|&d| d <= MAX_DEMAND)
        && deck.iter().filter(|&&d| d > 0).count() <= MAX_PENALTIES
        && max_rounds >= MIN_CAP
}

/// A game to start in a lane: its hands in the lanes' form, the cards of the player to lead
/// (`x`; the other holds the rest of the deck) and who that is ([`WHO`] set: player 2).
#[derive(Clone, Copy, Debug, Default)]
pub(in crate::games::bmn) struct Start {
    deal: Dealt,
    xn: u32,
    who: u32,
}

/// What the lanes play: a source of games, each with the caller's id, and the sink of their
/// ends. One object, so that a caller whose next game depends on the last one's end (the
/// climb's walkers) can start it as soon as it hears of that end.
pub(in crate::games::bmn) trait Games {
    /// The next game to start, if any is ready (none: the lane stays idle until every lane is).
    fn next(&mut self) -> Option<(u64, Start)>;
    /// A game that ended in the lanes, or that reached the trick cap ([`Report::Long`]).
    fn report(&mut self, r: Report);
}

/// Where the lanes take `simulate`'s games: a buffer of deals in the lanes' form, filled
/// [`AHEAD`] at a time by `fill(first, out)` (deals `first`, `first + 1`, …), and where their
/// ends go.
struct Feed<'a> {
    buf: Vec<Dealt>,
    at: usize,
    next: u64,
    end: u64,
    half: u32,
    fill: &'a mut dyn FnMut(u64, &mut [Dealt]),
    report: &'a mut dyn FnMut(Report),
}

impl Games for Feed<'_> {
    /// Inlined into the lanes' refill, which keeps the lanes in registers; a call only when
    /// the buffer is empty ([`Feed::more`]).
    #[inline]
    fn next(&mut self) -> Option<(u64, Start)> {
        if self.at == self.buf.len() && !self.more() {
            return None;
        }
        let i = self.next - (self.buf.len() - self.at) as u64;
        self.at += 1;
        let start = Start {
            deal: self.buf[self.at - 1],
            xn: self.half,
            who: 0,
        };
        Some((i, start))
    }

    fn report(&mut self, r: Report) {
        (self.report)(r);
    }
}

impl Feed<'_> {
    /// Deals the next [`AHEAD`] games (fewer at the range's end) into the empty buffer;
    /// whether any was left to deal.
    #[inline(never)]
    fn more(&mut self) -> bool {
        let k = (self.end - self.next).min(AHEAD as u64) as usize;
        if k == 0 {
            return false;
        }
        self.buf.resize(k, Dealt::default());
        (self.fill)(self.next, &mut self.buf);
        self.at = 0;
        self.next += k as u64;
        true
    }
}

/// The lanes set in `m`, lowest first: one branch per lane set, not per lane (the work out of
/// line when a game ends, where the lanes set are unpredictable).
fn set_lanes(mut m: u32) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (m != 0).then(|| {
            let l = m.trailing_zeros() as usize;
            m &= m - 1;
            l
        })
    })
}

/// The result of a game that ended in the lanes.
fn result(e: step::Ended) -> GameResult<BmnGame> {
    GameResult {
        rounds: u64::from(e.cards),
        outcome: Outcome::Player(e.winner),
        cycle: None,
        stats: BmnGame { tricks: e.tricks },
    }
}

/// Plays games `range` of the run with base `seed` ([`Game::play_range`]) in the lanes of
/// `width`; the game's deck must [`fit`](fits) them. Without the CPU features
/// ([`Width::available`]), one at a time.
pub(super) fn play_range(
    game: &Bmn,
    width: Width,
    seed: u64,
    range: Range<u64>,
    s: &mut BmnScratch,
    record: &mut dyn FnMut(u64, &GameResult<BmnGame>),
) {
    let Some(lanes) = Lanes::new(width, game.deck()) else {
        return crate::games::each_game(game, seed, range, s, record);
    };
    play_range_in(game, lanes, seed, range, s, record);
}

/// [`play_range`] in `lanes` (the tests name AVX2's encoding, [`Lanes::vex`]).
pub(super) fn play_range_in(
    game: &Bmn,
    lanes: Lanes,
    seed: u64,
    range: Range<u64>,
    s: &mut BmnScratch,
    record: &mut dyn FnMut(u64, &GameResult<BmnGame>),
) {
    let pen = Penalties::of(game.deck());
    let deal = lanes.dealer();
    let mut deck = game.deck().to_vec();
    let mut fill = |first: u64, out: &mut [Dealt]| {
        let mut one = |g: u64| {
            deck.copy_from_slice(game.deck());
            shuffle(&mut game_rng(seed, g), &mut deck);
            // SAFETY: holding `lanes` (`Lanes::new`) says this CPU has AVX2, BMI2 and POPCNT.
            unsafe { of_deck(&deck) }
        };
        let mut chunks = out.chunks_exact_mut(8);
        let mut g = first;
        for eight in &mut chunks {
            // SAFETY: `Lanes::new` checked the features of `lanes.dealer()`'s choice.
            let redo = unsafe { deal(&pen, seed, g, eight) };
            for l in set_lanes(redo) {
                eight[l] = one(g + l as u64);
            }
            g += 8;
        }
        for d in chunks.into_remainder() {
            *d = one(g);
            g += 1;
        }
    };
    let mut report = |r: Report| match r {
        Report::Ended(i, e) => record(i, &result(e)),
        Report::Long(i) => record(i, &game.play(&mut game_rng(seed, i), s)),
    };
    run(lanes, game, range, &mut fill, &mut report);
}

/// Plays deals `range` whose decks `deck_of(i, deck)` writes (tests: the published deals) in
/// the lanes of `width`, the long ones on the phase engine.
#[cfg(test)]
pub(super) fn play_decks(
    game: &Bmn,
    width: Width,
    range: Range<u64>,
    deck_of: &dyn Fn(u64, &mut [u8]),
    record: &mut dyn FnMut(u64, &GameResult<BmnGame>),
) {
    let lanes = Lanes::new(width, game.deck()).expect("this CPU has the lanes the test asks");
    let mut deck = game.deck().to_vec();
    let mut fill = |first: u64, out: &mut [Dealt]| {
        for (g, d) in (first..).zip(out.iter_mut()) {
            deck_of(g, &mut deck);
            // SAFETY: `Lanes::new` said this CPU has the lanes (AVX2, BMI2, POPCNT).
            *d = unsafe { of_deck(&deck) };
        }
    };
    let mut s = game.scratch();
    let mut report = |r: Report| match r {
        Report::Ended(i, e) => record(i, &result(e)),
        Report::Long(i) => {
            let mut deck = game.deck().to_vec();
            deck_of(i, &mut deck);
            let p = game.play_deck(&deck, &mut s);
            record(
                i,
                &GameResult {
                    rounds: p.cards,
                    outcome: p.outcome,
                    cycle: p.cycle.map(|c| c.0),
                    stats: BmnGame {
                        tricks: p.tricks as u32,
                    },
                },
            );
        }
    };
    run(lanes, game, range, &mut fill, &mut report);
}

/// Plays the games `fill` deals for `range` in `lanes`.
fn run(
    lanes: Lanes,
    game: &Bmn,
    range: Range<u64>,
    fill: &mut dyn FnMut(u64, &mut [Dealt]),
    report: &mut dyn FnMut(Report),
) {
    let mut feed = Feed {
        buf: Vec::with_capacity(AHEAD),
        at: 0,
        next: range.start,
        end: range.end,
        half: game.deck().len() as u32 / 2,
        fill,
        report,
    };
    lanes.play(&mut feed);
}

/// The lanes of one width for one deck, on a CPU that has them: made only by [`Lanes::new`],
/// so that holding one is the proof the unsafe step and deal need. The searches play their
/// deals and positions through it (`search/on_lanes.rs`).
#[derive(Clone, Copy, Debug)]
pub(in crate::games::bmn) struct Lanes {
    width: Width,
    /// AVX2's lanes in the EVEX encoding ([`evex`]).
    evex: bool,
    cards: u32,
    pens: u32,
    trick_cap: u32,
}

impl Lanes {
    /// The lanes of `width` for `deck` (demands in rank order, [`fits`] checked by the
    /// caller), if this CPU has them; a game leaves them at [`step::trick_cap`] tricks.
    pub fn new(width: Width, deck: &[u8]) -> Option<Lanes> {
        let cards = deck.len() as u32;
        width.available().then(|| Lanes {
            width,
            evex: width == Width::Avx2 && evex(),
            cards,
            pens: deck.iter().filter(|&&d| d > 0).count() as u32,
            trick_cap: step::trick_cap(cards),
        })
    }

    /// These lanes with games leaving them at `tricks` tricks (at most [`step::trick_cap`]'s
    /// bound of 2,048, so that a game's cards fit its counter).
    pub fn leaving_at(self, tricks: u32) -> Lanes {
        Lanes {
            trick_cap: tricks.clamp(1, step::trick_cap(MAX_CARDS as u32)),
            ..self
        }
    }

    /// The lanes for `games` games at once: AVX2's 8 in place of AVX-512's 16 when they
    /// fill no more than 8 (a climb of 16 walkers on 2 threads, 8 a thread): a step of 8
    /// lanes costs less than one of 16 with half of them idle. The games are the same.
    pub fn for_games(self, games: usize) -> Lanes {
        match self.width {
            // AVX-512's lanes are available only where AVX2's are (`avx512::available`).
            Width::Avx512 if games <= 8 => Lanes {
                width: Width::Avx2,
                evex: evex(),
                ..self
            },
            _ => self,
        }
    }

    /// These lanes in AVX2's VEX encoding, if they are AVX2's in EVEX: the tests play both.
    #[cfg(test)]
    pub fn vex(self) -> Option<Lanes> {
        self.evex.then_some(Lanes {
            evex: false,
            ..self
        })
    }

    /// The dealer of 8 random deals for these lanes: AVX-512's where the CPU has it.
    fn dealer(self) -> Deal8 {
        match (self.width, self.evex) {
            (Width::Avx512, _) | (Width::Avx2, true) => deal8_wide,
            (Width::Avx2, false) => deal8,
        }
    }

    /// The deal `deck` (player 1's hand first, top card first, half the cards each) as a
    /// game to start, player 1 to lead.
    pub fn deal(self, deck: &[u8]) -> Start {
        // SAFETY: `Lanes::new` checked that this CPU has AVX2, BMI2 and POPCNT.
        let deal = unsafe { of_deck(deck) };
        Start {
            deal,
            xn: self.cards / 2,
            who: 0,
        }
    }

    /// The position `p` (a trick's start) as a game to start, its leader to lay first; none
    /// unless both hands hold a card and together the deck's cards and penalty cards (a lane
    /// starts with the pile empty and gives the second hand the cards the first lacks).
    pub fn position(self, p: &Position) -> Option<Start> {
        let [a, b] = &p.hands;
        let (x, y) = if p.leader == 0 { (a, b) } else { (b, a) };
        let mut bytes = [0u8; 64];
        let xn = x.copy_to(&mut bytes);
        let yn = y.copy_to(&mut bytes[xn..]);
        if xn == 0 || yn == 0 || (xn + yn) as u32 != self.cards {
            return None;
        }
        // SAFETY: `Lanes::new` checked that this CPU has AVX2, BMI2 and POPCNT.
        let deal = unsafe { of_bytes(&bytes, xn as u32) };
        (deal.xc + deal.yc == 2 * self.pens).then_some(Start {
            deal,
            xn: xn as u32,
            who: if p.leader == 0 { 0 } else { WHO },
        })
    }

    /// Plays every game `games` starts, reporting each back to it.
    pub fn play<G: Games>(self, games: &mut G) {
        match self.width {
            // SAFETY: `Lanes::new` checked `width.available()`: AVX-512 F, CD and BW, AVX2,
            // BMI2 and POPCNT.
            Width::Avx512 => unsafe { avx512::run(games, self.cards, self.pens, self.trick_cap) },
            // SAFETY: `Lanes::new` (or `for_games`) checked `evex()`: AVX-512 F, VL and BW,
            // AVX2, BMI2 and POPCNT.
            Width::Avx2 if self.evex => unsafe {
                step::evex::run(games, self.cards, self.pens, self.trick_cap)
            },
            // SAFETY: `Lanes::new` checked `width.available()`: AVX2, BMI2 and POPCNT.
            Width::Avx2 => unsafe { step::vex::run(games, self.cards, self.pens, self.trick_cap) },
        }
    }
}
