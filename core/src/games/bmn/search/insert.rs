//! Insertion: cycles of a small deck grown card by card toward a larger one (the idea of
//! Andorno et al.'s "Infinite Loop Factory", arXiv 2602.23406), to reach cycles of other
//! families than the ones a search near known cycles finds.
//!
//! A walker keeps a pool of cycles at each number of cards. A step takes a position on a cycle
//! of the pool (a random number of tricks along it, mostly from the four largest sizes held),
//! inserts one card the target deck still lacks at a random place of either hand (or, a third
//! of the time, moves one card: a sideways step that widens the pool at that size), and plays
//! forward: a cycle not seen before joins the pool of its size. Walkers draw from their own generators
//! and keep their own pools, so what they grow depends on the seed, the steps and the walkers.
//! They play on the game's engine (`Bmn::fate`, `Bmn::after`: a phase at a time where the
//! deck fits it), which gives the card engine's positions exactly, so a path grows the same.

use std::collections::HashSet;

use super::fnv;
use super::loops::{key, MAX_TRICKS};
use crate::games::bmn::backward::Fate;
use crate::games::bmn::{Bmn, Position};
use crate::games::cards::{bounded, shuffle};
use crate::rng::{game_rng, GameRng};

/// Salt of the walkers' generators, so that they draw none of a census's numbers.
const SALT: u64 = 0x1A5E_27F0_0C7C_1E55;

/// Cycles a walker keeps at each number of cards: each is held with the hashes of all its
/// positions, so this bounds a walker's memory (some 10 MB) over a long census.
pub const PER_SIZE: usize = 500;

/// The deck insertion starts from toward the standard one: the 16-card deck of `--ranks 8
/// --suits 2` (eight plain cards, two of each penalty card), whose cycles a census of that
/// deck finds within seconds: a census of the standard deck grows from it.
pub fn sixteen() -> Vec<u8> {
    let mut start = vec![0u8; 8];
    for d in 1..=4 {
        start.extend([d; 2]);
    }
    start
}

/// Tricks between the positions a grower keeps of each cycle it holds ([`Grower::marks`]): a
/// step starts from a random trick of a cycle, and walking there from the nearest kept
/// position costs at most this many tricks, not up to the cycle's length. A position kept
/// every 16 tricks costs a tenth of the memory the cycle's hashes already take.
const STRIDE: u64 = 16;

/// One growing walker.
pub struct Grower {
    rng: GameRng,
    /// The target deck's demands, sorted.
    target: Vec<u8>,
    /// The start deck's demands (a sub-multiset of the target's).
    start: Vec<u8>,
    /// Cycles held, by cards in play: `pools[n]` the cycles of `n` cards.
    pub pools: Vec<Vec<(Position, u64)>>,
    /// Each held cycle's positions every [`STRIDE`] tricks from the one in `pools`, alike
    /// indexed.
    marks: Vec<Vec<Vec<Position>>>,
    /// Hashes of the positions of the cycles kept.
    known: HashSet<u64>,
    /// Scratch of a step: cards, the sizes held (largest first), the cards missing.
    cards: Vec<u8>,
    levels: Vec<usize>,
    missing: Vec<u8>,
    /// Full-deck cycles found and not yet taken ([`Grower::take_full`]).
    full: Vec<(Position, u64)>,
}

impl Grower {
    /// Walker `w` of base `seed`, growing from random positions of `start` toward `target`.
    pub fn new(seed: u64, w: u32, start: &[u8], target: &[u8]) -> Grower {
        let mut t = target.to_vec();
        t.sort_unstable();
        Grower {
            rng: game_rng(seed ^ SALT, u64::from(w)),
            target: t,
            start: start.to_vec(),
            pools: vec![Vec::new(); target.len() + 1],
            marks: vec![Vec::new(); target.len() + 1],
            known: HashSet::new(),
            cards: Vec::with_capacity(64),
            levels: Vec::with_capacity(target.len() + 1),
            missing: Vec::with_capacity(target.len()),
            full: Vec::new(),
        }
    }

    /// The largest number of cards a cycle held has.
    pub fn reached(&self) -> usize {
        (0..self.pools.len())
            .rev()
            .find(|&n| !self.pools[n].is_empty())
            .unwrap_or(0)
    }

    /// Plays `steps` steps of `game` (whose deck is the target).
    pub fn grow(&mut self, game: &Bmn, steps: u64) {
        for _ in 0..steps {
            let p = self.next_position(game);
            let Fate::Cycle(on, tricks) = game.fate(&p, MAX_TRICKS) else {
                continue;
            };
            let n = on.hands[0].cards().count() + on.hands[1].cards().count();
            if self.known.contains(&fnv(&key(&on))) {
                continue;
            }
            if n == self.target.len() {
                self.full.push((on, tricks));
            }
            if self.pools[n].len() < PER_SIZE {
                let mut q = on;
                let mut marks = Vec::with_capacity(tricks.div_ceil(STRIDE) as usize);
                for t in 0..tricks {
                    if t % STRIDE == 0 {
                        marks.push(q);
                    }
                    self.known.insert(fnv(&key(&q)));
                    q.trick(u64::MAX);
                }
                self.pools[n].push((on, tricks));
                self.marks[n].push(marks);
            }
        }
    }

    /// The full-deck cycles found since the last call (positions on them, lengths in tricks).
    pub fn take_full(&mut self) -> Vec<(Position, u64)> {
        std::mem::take(&mut self.full)
    }

    /// Cycles kept at each number of cards.
    pub fn sizes(&self) -> Vec<u64> {
        self.pools.iter().map(|p| p.len() as u64).collect()
    }

    /// A random position of the start deck while no cycle is held; else a held cycle's
    /// position (mostly from the four largest sizes) with one missing card inserted, or one card
    /// moved.
    fn next_position(&mut self, game: &Bmn) -> Position {
        let top = self.reached();
        let rng = &mut self.rng;
        if top == 0 {
            self.cards.clear();
            self.cards.extend_from_slice(&self.start);
            shuffle(rng, &mut self.cards);
            let n = self.cards.len() as u32;
            let split = 1 + bounded(rng, n - 1) as usize;
            let p = Position::fitted(
                &self.cards[..split],
                &self.cards[split..],
                bounded(rng, 2) as usize,
            );
            return p;
        }
        // Mostly the top few sizes: the frontier is where growth happens.
        let levels = &mut self.levels;
        levels.clear();
        levels.extend(
            (0..self.pools.len())
                .rev()
                .filter(|&n| !self.pools[n].is_empty()),
        );
        let n = match bounded(rng, 4) {
            0 => levels[bounded(rng, levels.len() as u32) as usize],
            _ => levels[bounded(rng, levels.len().min(4) as u32) as usize],
        };
        let pool = &self.pools[n];
        let i = bounded(rng, pool.len() as u32) as usize;
        let k = u64::from(bounded(rng, pool[i].1 as u32));
        let p = game.after(&self.marks[n][i][(k / STRIDE) as usize], k % STRIDE);
        // A third of the time a sideways step: one card moved, the cards kept, so the
        // frontier's pool widens instead of only ever growing from the same few cycles. (The
        // cards held are the target's or some of them, so none is missing when as many are
        // held.)
        let held = p.hands[0].len() + p.hands[1].len();
        if held == self.target.len() || bounded(rng, 3) == 0 {
            return super::loops::perturb(&p, rng, &mut self.cards);
        }
        let missing = &mut self.missing;
        missing.clear();
        missing.extend_from_slice(&self.target);
        for c in p.hands[0].cards().chain(p.hands[1].cards()) {
            if let Some(i) = missing.iter().position(|&m| m == c) {
                missing.swap_remove(i);
            }
        }
        let card = missing[bounded(rng, missing.len() as u32) as usize];
        // Both hands in one buffer, player 1's first, the card inserted into hand `h`.
        let cards = &mut self.cards;
        let split = p.cards_into(cards);
        let h = bounded(rng, 2) as usize;
        let (from, held) = [(0, split), (split, cards.len() - split)][h];
        let at = from + bounded(rng, held as u32 + 1) as usize;
        cards.insert(at, card);
        let split = split + (1 - h);
        Position::fitted(&cards[..split], &cards[split..], p.leader)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::bmn::backward::fate;
    use crate::games::bmn::BmnRules;
    use crate::games::engine_path::EnginePath;
    use crate::games::Game;

    /// The standard deck's game on the path `name`.
    fn on(name: &str) -> Bmn {
        Bmn::new(BmnRules::britannica(13, 4, [1, 2, 3, 4]))
            .unwrap()
            .on_engine(&EnginePath::named(Some(name.to_string())))
    }

    /// From random positions of a 16-card deck (8 plain cards, two of each penalty card)
    /// toward the 52-card deck, insertion grows cycles of more cards than it started with,
    /// each a cycle of its own cards that the target deck holds (grown card by card, checked
    /// by the card engine's own `fate`).
    #[test]
    fn insertion_grows_cycles_of_more_cards() {
        let game = on("cards");
        let target = game.deck().to_vec();
        let mut g = Grower::new(0, 0, &sixteen(), &target);
        g.grow(&game, 200_000);
        assert!(g.reached() > 20, "{:?}", g.sizes());
        for n in 17..=g.reached() {
            for (p, t) in &g.pools[n] {
                assert!(matches!(fate(p, MAX_TRICKS), Fate::Cycle(_, k) if k == *t));
                let mut held: Vec<u8> = p.hands[0].cards().chain(p.hands[1].cards()).collect();
                held.sort_unstable();
                assert_eq!(held.len(), n);
                let mut left = target.clone();
                for c in held {
                    let i = left
                        .iter()
                        .position(|&m| m == c)
                        .expect("a card of the target");
                    left.remove(i);
                }
            }
        }
    }

    /// A grower plays the same steps a phase at a time as card by card: the same cycles held
    /// at every size, in the same order, and the same full-deck cycles handed on; the
    /// positions it keeps along each cycle are the card engine's.
    #[test]
    fn insertion_grows_the_same_on_the_phase_engine_as_card_by_card() {
        let names = |g: &Grower| -> Vec<Vec<(Vec<u8>, u64)>> {
            (g.pools.iter())
                .map(|p| p.iter().map(|(q, t)| (key(q), *t)).collect())
                .collect()
        };
        for seed in [0, 7] {
            let (cards, phase) = (on("cards"), on("phase"));
            let mut a = Grower::new(seed, 1, &sixteen(), cards.deck());
            let mut b = Grower::new(seed, 1, &sixteen(), phase.deck());
            for _ in 0..4 {
                a.grow(&cards, 25_000);
                b.grow(&phase, 25_000);
                assert_eq!(names(&a), names(&b), "seed {seed}");
                let full = |g: &mut Grower| g.take_full().iter().map(|(q, _)| key(q)).collect();
                let (fa, fb): (Vec<Vec<u8>>, Vec<Vec<u8>>) = (full(&mut a), full(&mut b));
                assert_eq!(fa, fb, "seed {seed}");
            }
            assert!(a.reached() > 20, "{:?}", a.sizes());
            // The kept positions are the cycle's every STRIDE tricks, as many as fit.
            for (pool, marks) in b.pools.iter().zip(&b.marks) {
                for ((on, tricks), marks) in pool.iter().zip(marks) {
                    assert_eq!(marks.len() as u64, tricks.div_ceil(STRIDE));
                    for (j, m) in marks.iter().enumerate() {
                        assert!(m.same(&on.after(j as u64 * STRIDE)));
                    }
                }
            }
        }
    }
}
