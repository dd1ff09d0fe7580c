//! The loop search: cycles, positions whose play returns to them forever.
//!
//! Random deals almost never loop (one known 52-card cycle in the whole history of the
//! problem; 250 million random positions played here gave none), so the search does not draw
//! positions at random. It starts from positions on cycles it knows (Casella et al.'s for the
//! standard deck, or any other), changes each a little (one to three moves: two cards swapped,
//! or one card moved to another place, in either hand) and plays the result forward with
//! Brent's algorithm: a position that ends in a cycle not seen before joins the walker's pool,
//! so the search spreads from every cycle it finds, as Andorno et al.'s "adaptive insertion"
//! grows cycles from known ones.
//!
//! A cycle is named by its canonical position: of all the positions on it, each written with
//! the leader's hand first (so the two players' names do not matter, and a cycle and its
//! mirror image share the name), the least; its id is a hash of that position. Walkers draw
//! only from their own generators and grow only their own pools, so the cycles found depend on
//! the seed, the tries and the walkers, never on the threads.

use std::collections::HashSet;

use serde::Serialize;

use super::{fnv, Report};
use crate::games::bmn::backward::{fate, Fate};
use crate::games::bmn::{Bmn, Position};
use crate::games::cards::{bounded, shuffle};
use crate::rng::{game_rng, GameRng};

/// Casella et al.'s never-ending deal (arXiv 2403.13855, 2024): the seed of the search under
/// the standard rules.
pub const CASELLA: &str = "---K---Q-KQAJ-----AAJ--J--/----------Q----KQ-J-----KA";

/// Tricks a changed position is played for before it counts as undecided: random positions
/// end within about 1,200 tricks, and the cycles known are 62 tricks (52 cards) or shorter.
pub const MAX_TRICKS: u64 = 1 << 16;

/// A cycle, named.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Cycle {
    /// A hash of the canonical position: 16 hexadecimal digits.
    pub id: String,
    /// Tricks in one turn of the cycle.
    pub tricks: u64,
    /// Cards laid in one turn.
    pub cards: u64,
    /// The canonical position as a deal (the leader's hand first, so it loops from its start).
    pub position: String,
    /// The walker that found it; `None` for a seed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub walker: Option<u32>,
    /// The walker's tries when it found it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub at: Option<u64>,
}

/// A position written with the leader's hand first, a separator, then the other hand: equal
/// for two positions that differ only in the players' names.
pub fn key(p: &Position) -> Vec<u8> {
    let mut k: Vec<u8> = p.hands[p.leader].cards().collect();
    k.push(u8::MAX);
    k.extend(p.hands[p.leader ^ 1].cards());
    k
}

/// The cycle through `on`, `tricks` tricks long, named: its canonical position, id and cards.
pub fn canonical(game: &Bmn, on: &Position, tricks: u64) -> Cycle {
    let (best, cards) = least(on, tricks);
    Cycle {
        id: format!("{:016x}", fnv(&key(&best))),
        tricks,
        cards,
        position: game.show_position(&best),
        walker: None,
        at: None,
    }
}

/// The position of the cycle through `on` (`tricks` long) with the least [`key`], and the
/// cards laid over one turn.
pub fn least(on: &Position, tricks: u64) -> (Position, u64) {
    let mut p = *on;
    let mut best = (key(&p), p);
    let mut cards = 0;
    for _ in 0..tricks {
        cards += p.trick(u64::MAX).laid;
        let k = key(&p);
        if k < best.0 {
            best = (k, p);
        }
    }
    (best.1, cards)
}

/// Adds the key of every position of the cycle through `on`, `tricks` tricks long, to `known`.
pub fn learn(known: &mut HashSet<Vec<u8>>, on: &Position, tricks: u64) {
    let mut p = *on;
    for _ in 0..tricks {
        known.insert(key(&p));
        p.trick(u64::MAX);
    }
}

/// What one walker found, and how its tries ended.
#[derive(Debug, Default)]
pub struct LoopWalk {
    /// Cycles new to this walker, in the order found.
    pub found: Vec<Cycle>,
    /// Tries that ended in a cycle (a known one or a new one).
    pub looped: u64,
    /// Tries whose game ended.
    pub ended: u64,
    /// Tries neither ended nor seen to loop within [`MAX_TRICKS`].
    pub undecided: u64,
}

/// One to three moves, each two cards swapped or one card moved to another place of the
/// sequence of both hands, applied to `p`: the way a search changes a known position a little.
/// The leader stays; each hand keeps at least one card.
pub fn perturb(p: &Position, rng: &mut GameRng, cards: &mut Vec<u8>) -> Position {
    let mut split = p.cards_into(cards);
    let n = cards.len() as u32;
    for _ in 0..=bounded(rng, 3) {
        let i = bounded(rng, n) as usize;
        if bounded(rng, 2) == 0 {
            let j = bounded(rng, n) as usize;
            cards.swap(i, j);
        } else {
            // Moves card i to place j; the split moves with it when the card leaves one hand
            // for the other.
            let c = cards.remove(i);
            let j = bounded(rng, n) as usize;
            cards.insert(j, c);
            match (i < split, j < split) {
                (true, false) => split -= 1,
                (false, true) => split += 1,
                _ => {}
            }
        }
    }
    let split = split.clamp(1, cards.len() - 1);
    Position::fitted(&cards[..split], &cards[split..], p.leader)
}

/// One walker of the loop search: its generator, its pool of positions on cycles (the seeds'
/// and its own finds'), and what it found.
pub struct LoopWalker<'a> {
    game: &'a Bmn,
    w: u32,
    rng: GameRng,
    pool: Vec<(Position, u64)>,
    /// Every position of every cycle the walker knows, as [`key`] writes it: a try that falls
    /// into a known cycle is told by one lookup, without walking the cycle to name it.
    known: HashSet<Vec<u8>>,
    cards: Vec<u8>,
    done: u64,
    /// What it found so far.
    pub out: LoopWalk,
}

impl<'a> LoopWalker<'a> {
    /// Walker `w` of a search with base `seed`, starting from the cycles `seeds` (positions
    /// on them and their lengths in tricks); with none, from random positions.
    pub fn new(game: &'a Bmn, seed: u64, w: u32, seeds: &[(Position, u64)]) -> Self {
        let mut known = HashSet::new();
        for (p, t) in seeds {
            learn(&mut known, p, *t);
        }
        LoopWalker {
            game,
            w,
            rng: game_rng(seed, u64::from(w)),
            pool: seeds.to_vec(),
            known,
            cards: Vec::with_capacity(game.deck().len()),
            done: 0,
            out: LoopWalk::default(),
        }
    }

    /// The position of the next try: a position on a cycle of the pool, a random number of
    /// tricks along it, changed by [`perturb`]; with an empty pool, a random position.
    fn next_position(&mut self) -> Position {
        let rng = &mut self.rng;
        if self.pool.is_empty() {
            let n = self.game.deck().len();
            self.cards.clear();
            self.cards.extend_from_slice(self.game.deck());
            shuffle(rng, &mut self.cards);
            let split = 1 + bounded(rng, n as u32 - 1) as usize;
            let p = Position::fitted(
                &self.cards[..split],
                &self.cards[split..],
                bounded(rng, 2) as usize,
            );
            return p;
        }
        let (mut p, tricks) = self.pool[bounded(rng, self.pool.len() as u32) as usize];
        for _ in 0..bounded(rng, tricks as u32) {
            p.trick(u64::MAX);
        }
        perturb(&p, rng, &mut self.cards)
    }

    /// Plays `tries` more tries, reporting them to `progress`.
    pub fn walk(&mut self, tries: u64, progress: Report) {
        // Progress counts this batch's tries (a batch may be smaller than a report).
        let mut reported = 0;
        for k in 1..=tries {
            let p = self.next_position();
            self.done += 1;
            if k.is_multiple_of(1024) {
                progress(1024);
                reported += 1024;
            }
            match fate(&p, MAX_TRICKS) {
                Fate::Ends(_) => self.out.ended += 1,
                Fate::Undecided => self.out.undecided += 1,
                Fate::Cycle(on, tricks) => {
                    self.out.looped += 1;
                    if !self.known.contains(&key(&on)) {
                        learn(&mut self.known, &on, tricks);
                        let mut c = canonical(self.game, &on, tricks);
                        c.walker = Some(self.w);
                        c.at = Some(self.done);
                        self.out.found.push(c);
                        self.pool.push((on, tricks));
                    }
                }
            }
        }
        progress(tries - reported);
    }
}

/// The first find of each cycle, in the order (walker, try): the same whatever the threads.
pub fn first_finds(walks: &[LoopWalk]) -> Vec<Cycle> {
    let mut cycles: Vec<Cycle> = Vec::new();
    for c in walks.iter().flat_map(|w| &w.found) {
        if !cycles.iter().any(|k| k.id == c.id) {
            cycles.push(c.clone());
        }
    }
    cycles
}

/// Whether `game` is the standard 52-card deck, J Q K A demanding 1 2 3 4: the deck whose
/// search starts from Casella's cycle.
pub fn standard(game: &Bmn) -> bool {
    let r = crate::games::Game::rules(game);
    r.ranks == 13 && r.suits == 4 && r.penalties.0 == [1, 2, 3, 4]
}
