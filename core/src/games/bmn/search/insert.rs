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

use std::collections::HashSet;

use super::fnv;
use super::loops::{key, MAX_TRICKS};
use crate::games::bmn::backward::{fate, Fate};
use crate::games::bmn::Position;
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

/// One growing walker.
pub struct Grower {
    rng: GameRng,
    /// The target deck's demands, sorted.
    target: Vec<u8>,
    /// The start deck's demands (a sub-multiset of the target's).
    start: Vec<u8>,
    /// Cycles held, by cards in play: `pools[n]` the cycles of `n` cards.
    pub pools: Vec<Vec<(Position, u64)>>,
    /// Hashes of the positions of the cycles kept.
    known: HashSet<u64>,
    cards: Vec<u8>,
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
            known: HashSet::new(),
            cards: Vec::with_capacity(64),
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

    /// Plays `steps` steps.
    pub fn grow(&mut self, steps: u64) {
        for _ in 0..steps {
            let p = self.next_position();
            let Fate::Cycle(on, tricks) = fate(&p, MAX_TRICKS) else {
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
                for _ in 0..tricks {
                    self.known.insert(fnv(&key(&q)));
                    q.trick(u64::MAX);
                }
                self.pools[n].push((on, tricks));
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
    fn next_position(&mut self) -> Position {
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
        let levels: Vec<usize> = (0..self.pools.len())
            .rev()
            .filter(|&n| !self.pools[n].is_empty())
            .collect();
        let n = match bounded(rng, 4) {
            0 => levels[bounded(rng, levels.len() as u32) as usize],
            _ => levels[bounded(rng, levels.len().min(4) as u32) as usize],
        };
        let pool = &self.pools[n];
        let (mut p, tricks) = pool[bounded(rng, pool.len() as u32) as usize];
        for _ in 0..bounded(rng, tricks as u32) {
            p.trick(u64::MAX);
        }
        let mut missing = self.target.clone();
        for c in p.hands[0].cards().chain(p.hands[1].cards()) {
            if let Some(i) = missing.iter().position(|&m| m == c) {
                missing.swap_remove(i);
            }
        }
        // A third of the time a sideways step: one card moved, the cards kept, so the
        // frontier's pool widens instead of only ever growing from the same few cycles.
        if missing.is_empty() || bounded(rng, 3) == 0 {
            return super::loops::perturb(&p, rng, &mut self.cards);
        }
        let card = missing[bounded(rng, missing.len() as u32) as usize];
        let mut hands: [Vec<u8>; 2] = [p.hands[0].cards().collect(), p.hands[1].cards().collect()];
        let h = bounded(rng, 2) as usize;
        let at = bounded(rng, hands[h].len() as u32 + 1) as usize;
        hands[h].insert(at, card);
        Position::fitted(&hands[0], &hands[1], p.leader)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// From random positions of a 16-card deck (8 plain cards, two of each penalty card)
    /// toward the 52-card deck, insertion grows cycles of more cards than it started with,
    /// each a cycle of its own cards that the target deck holds.
    #[test]
    fn insertion_grows_cycles_of_more_cards() {
        let mut target = vec![0u8; 36];
        let mut start = vec![0u8; 8];
        for d in 1..=4 {
            target.extend([d; 4]);
            start.extend([d; 2]);
        }
        let mut g = Grower::new(0, 0, &start, &target);
        g.grow(200_000);
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
}
