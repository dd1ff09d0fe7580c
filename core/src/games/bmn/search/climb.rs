//! The record climb: seeded walkers over deals for the longest finite games, recording the
//! deals that never end on the way.
//!
//! Each walker starts from a random deal drawn from (seed, walker), or from one given deal, and
//! climbs: it swaps two cards of different demands, plays the new deal, and keeps the swap when
//! the game is at least as long (equal lengths let it cross plateaus); after [`RESTART`] swaps
//! with no longer game it starts again. A deal that never ends is recorded and the swap undone;
//! a deal whose game reaches the card cap is counted and undone too (it did not end, so it has
//! no length). When the walkers are done, backward play extends the longest deals kept
//! ([`longer_ancestors`]). Where the game plays in SIMD lanes, a thread's walkers play there
//! together (`report::walk_all`, `on_lanes.rs`), each the deals it plays alone.

use std::time::Instant;

use serde::Serialize;

use super::Report;
use crate::games::bmn::backward::{ancestors, Node};
use crate::games::bmn::{Bmn, BmnScratch, Played};
use crate::games::cards::{bounded, shuffle};
use crate::games::{Game, Outcome};
use crate::rng::{game_rng, GameRng};

/// Swaps without a longer game before a walker starts again from a new deal.
pub const RESTART: u64 = 50_000;
/// Loops kept (every one found is counted).
pub const MAX_LOOPS: usize = 1000;
/// Deals a walker plays between two progress reports.
pub(super) const REPORT_EVERY: u64 = 4096;

/// A deal found.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Found {
    /// `HAND1/HAND2`, top card first, as [`Bmn::parse_deal`] reads it.
    pub deal: String,
    /// Cards laid (a loop: up to the position's return).
    pub cards: u64,
    /// Tricks.
    pub tricks: u64,
    /// A loop's length in cards and in tricks.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cycle: Option<(u64, u64)>,
    /// The walker that found it.
    pub walker: u32,
    /// The walker's deals played when it found it.
    pub at: u64,
    /// For a deal found by backward play: the deal found by the walker whose game it reaches
    /// (its game is that game with tricks before it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ancestor_of: Option<String>,
}

/// What one walker found.
#[derive(Debug, Default)]
pub struct Walk {
    /// Its longest deals, longest first.
    pub best: Vec<Found>,
    /// Deals that never end, in the order found ([`MAX_LOOPS`] of them).
    pub loops: Vec<Found>,
    /// Deals that never end, all counted.
    pub loops_found: u64,
    /// Deals whose game reached the card cap.
    pub capped: u64,
}

/// One walker: its generator, its deal, the climb's state and what it found. [`Walker::walk`]
/// plays on from where it stopped, so a search played in batches plays the same deals as one
/// played at once.
pub struct Walker<'a> {
    game: &'a Bmn,
    w: u32,
    keep: usize,
    rng: GameRng,
    s: BmnScratch,
    deck: Vec<u8>,
    /// The deal every climb starts from, or none: a random deal.
    from: Option<Vec<u8>>,
    current: u64,
    stale: u64,
    done: u64,
    /// What it found so far.
    pub out: Walk,
}

impl<'a> Walker<'a> {
    /// Walker `w` of a climb with base `seed`, keeping its `keep` longest deals, every climb
    /// starting from `from` (an arrangement of the deck, hands equal) or a random deal.
    ///
    /// Panics if `from` is not an arrangement of [`Bmn::deck`] (check it with
    /// [`Bmn::parse_deal`] first): the hot path plays its swaps unchecked.
    pub fn new(game: &'a Bmn, seed: u64, w: u32, keep: usize, from: Option<Vec<u8>>) -> Self {
        if let Some(f) = &from {
            let (mut a, mut b) = (f.clone(), game.deck().to_vec());
            a.sort_unstable();
            b.sort_unstable();
            assert_eq!(a, b, "a climb starts from an arrangement of the deck");
        }
        Walker {
            game,
            w,
            keep,
            rng: game_rng(seed, u64::from(w)),
            s: game.scratch(),
            deck: game.deck().to_vec(),
            from,
            current: 0,
            stale: RESTART,
            done: 0,
            out: Walk::default(),
        }
    }

    /// The next deal of the climb: after [`RESTART`] swaps with no longer game a new start
    /// (`None`), else two cards of different demands swapped (the caller refuses a deck whose
    /// cards all demand the same).
    pub(super) fn next_deal(&mut self) -> Option<(usize, usize)> {
        let (deck, rng) = (&mut self.deck, &mut self.rng);
        if self.stale >= RESTART {
            match &self.from {
                Some(from) => deck.copy_from_slice(from),
                None => shuffle(rng, deck),
            }
            self.stale = 0;
            self.current = 0;
            return None;
        }
        let n = deck.len() as u32;
        let (i, j) = loop {
            let (i, j) = (bounded(rng, n) as usize, bounded(rng, n) as usize);
            if deck[i] != deck[j] {
                break (i, j);
            }
        };
        deck.swap(i, j);
        Some((i, j))
    }

    /// The game its walkers play (walkers of one game play together in its lanes).
    #[cfg(target_arch = "x86_64")]
    pub(super) fn game(&self) -> &Bmn {
        self.game
    }

    /// The deal [`Walker::next_deal`] made, as the lanes start it.
    pub(super) fn deck(&self) -> &[u8] {
        &self.deck
    }

    /// That deal played on the game's one-deal engine: the lanes hand back the games they do
    /// not finish (loops, long games), whose loop and cap only this engine reports.
    pub(super) fn replay(&mut self) -> Played {
        self.game.play_deck(&self.deck, &mut self.s)
    }

    fn found(&self, p: &Played) -> Found {
        Found {
            deal: self.game.show_deal(&self.deck),
            cards: p.cards,
            tricks: p.tricks,
            cycle: p.cycle.map(|(c, t)| (c.cycle_len, t.cycle_len)),
            walker: self.w,
            at: self.done,
            ancestor_of: None,
        }
    }

    /// Plays `steps` more deals of the climb, reporting them to `progress`, one at a time on
    /// the game's engine (`report::walk_all` plays several walkers together in the lanes).
    pub fn walk(&mut self, steps: u64, progress: Report) {
        let start = self.done;
        // Progress counts this batch's deals (a batch may be smaller than a report).
        let mut reported = 0;
        while self.done < start + steps {
            let swap = self.next_deal();
            let p = self.game.play_deck(&self.deck, &mut self.s);
            self.take(&p, swap);
            if (self.done - start).is_multiple_of(REPORT_EVERY) {
                progress(REPORT_EVERY);
                reported += REPORT_EVERY;
            }
        }
        progress(steps - reported);
    }

    /// The game `p` of the deal [`Walker::next_deal`] made (by `swap`, or a new start): the
    /// climb moves on, stays or undoes the swap.
    pub(super) fn take(&mut self, p: &Played, swap: Option<(usize, usize)>) {
        self.done += 1;
        // A capped game has no length to compare (it did not end), and is no loop found.
        if matches!(p.outcome, Outcome::Loop | Outcome::Capped) {
            self.not_climbed(p, swap);
            return;
        }
        if swap.is_none() || p.cards > self.current {
            self.climbed(p, swap.is_some());
        } else {
            if p.cards < self.current {
                if let Some((i, j)) = swap {
                    self.deck.swap(i, j);
                }
            }
            self.stale += 1;
        }
    }

    /// A deal that never ends or reached the cap: counted (a loop kept), the swap undone.
    fn not_climbed(&mut self, p: &Played, swap: Option<(usize, usize)>) {
        if p.outcome == Outcome::Capped {
            self.out.capped += 1;
        } else {
            self.out.loops_found += 1;
            if self.out.loops.len() < MAX_LOOPS {
                let f = self.found(p);
                self.out.loops.push(f);
            }
        }
        match swap {
            Some((i, j)) => self.deck.swap(i, j),
            None => self.stale = RESTART,
        }
    }

    /// A longer game (or a new start): the climb stands here, kept if among the longest.
    fn climbed(&mut self, p: &Played, swapped: bool) {
        if swapped {
            self.stale = 0;
        }
        self.current = p.cards;
        let best = &self.out.best;
        let kept = best.len() >= self.keep && best.last().is_some_and(|b| p.cards <= b.cards);
        let f = self.found(p);
        if !kept && !self.out.best.iter().any(|b| b.deal == f.deal) {
            self.out.best.push(f);
            sort(&mut self.out.best);
            self.out.best.truncate(self.keep);
        }
    }
}

/// `walkers` in the groups `report::walk_all` plays together, in walker order: where the game plays
/// in the lanes, a thread's share each (`threads` groups, so that every thread fills its
/// lanes, and no more, or a thread would wait for another's group); one walker a group on the
/// phase engine, as the threads share them best. The groups never change what a walker finds.
pub fn groups<'a>(
    game: &Bmn,
    walkers: impl Iterator<Item = Walker<'a>>,
    threads: usize,
) -> Vec<Vec<Walker<'a>>> {
    let walkers: Vec<Walker> = walkers.collect();
    #[cfg(target_arch = "x86_64")]
    let lanes = game.lanes().is_some();
    #[cfg(not(target_arch = "x86_64"))]
    let lanes = false;
    let size = match lanes {
        true => walkers.len().div_ceil(threads.max(1)).max(1),
        false => 1,
    };
    let mut groups: Vec<Vec<Walker>> = Vec::new();
    for w in walkers {
        match groups.last_mut() {
            Some(g) if g.len() < size => g.push(w),
            _ => groups.push(vec![w]),
        }
    }
    groups
}

/// Longest first; equal lengths by deal, so the order is the same however found.
pub fn sort(found: &mut [Found]) {
    found.sort_by(|a, b| b.cards.cmp(&a.cards).then_with(|| a.deal.cmp(&b.deal)));
}

/// Positions a backward walk from one deal may hold at once (about 70 bytes each): the walks
/// from the published records hold at most a few hundred.
const ANCESTOR_LIMIT: u64 = 1 << 20;

/// The deals whose game reaches one of `best`'s deals after some tricks and so is longer: the
/// balanced positions among its predecessors, theirs and so on (backward play), each written
/// with its leader's hand first and played again to count it. Backward play from Mann and
/// Wu's 2007 record deal finds Anderson's 2013 record this way.
pub fn longer_ancestors(game: &Bmn, best: &[Found]) -> Vec<Found> {
    let mut s = game.scratch();
    let mut out = Vec::new();
    for f in best {
        let Ok([a, b]) = game.parse_deal(&f.deal) else {
            continue;
        };
        // A walk that outgrows its bound finds nothing: the search keeps what it has.
        let Some(found) =
            (Node::new(&a, &b, 0).ok()).and_then(|start| ancestors(start, ANCESTOR_LIMIT).ok())
        else {
            continue;
        };
        for n in found {
            let deck = n.node.leader_first();
            let p = game.play_deck(&deck, &mut s);
            if matches!(p.outcome, Outcome::Player(_)) && p.cards > f.cards {
                out.push(Found {
                    deal: game.show_deal(&deck),
                    cards: p.cards,
                    tricks: p.tricks,
                    cycle: None,
                    walker: f.walker,
                    at: f.at,
                    ancestor_of: Some(f.deal.clone()),
                });
            }
        }
    }
    out
}

/// What a climb found, merged over its walkers in walker order.
#[derive(Debug)]
#[non_exhaustive]
pub struct Climbed {
    /// The longest deals, then the longer ones backward play finds, `keep` of them.
    pub best: Vec<Found>,
    /// Deals that never end, [`MAX_LOOPS`] of them, longest first.
    pub loops: Vec<Found>,
    /// Deals that never end, all counted.
    pub loops_found: u64,
    /// Deals whose game reached the card cap.
    pub capped: u64,
}

/// Merges the walkers' finds (the same whatever order they ran in) and extends the longest
/// by backward play.
pub fn merge(game: &Bmn, keep: usize, walks: &[Walk]) -> Climbed {
    let mut best: Vec<Found> = walks.iter().flat_map(|w| w.best.clone()).collect();
    sort(&mut best);
    best.dedup_by(|a, b| a.deal == b.deal);
    best.truncate(keep);
    let ancestors = longer_ancestors(game, &best);
    best.extend(ancestors);
    sort(&mut best);
    best.dedup_by(|a, b| a.deal == b.deal);
    best.truncate(keep);
    let mut loops: Vec<Found> = walks.iter().flat_map(|w| w.loops.clone()).collect();
    sort(&mut loops);
    loops.dedup_by(|a, b| a.deal == b.deal);
    loops.truncate(MAX_LOOPS);
    Climbed {
        best,
        loops,
        loops_found: walks.iter().map(|w| w.loops_found).sum(),
        capped: walks.iter().map(|w| w.capped).sum(),
    }
}

/// A pilot of random deals: deals played on this thread up to `deals` or `budget` seconds,
/// and the tricks they took, for an estimate of a climb's time. The deals come from
/// generator `(seed, u64::MAX)`, one no walker draws from.
pub fn pilot(game: &Bmn, seed: u64, deals: u64, budget: f64) -> (u64, u64, f64) {
    let mut rng = game_rng(seed, u64::MAX);
    let mut s = game.scratch();
    let mut deck = game.deck().to_vec();
    let (mut played, mut tricks) = (0u64, 0u64);
    let start = Instant::now();
    while played < deals && start.elapsed().as_secs_f64() < budget {
        shuffle(&mut rng, &mut deck);
        tricks = tricks.saturating_add(game.play_deck(&deck, &mut s).tricks);
        played += 1;
    }
    (played, tricks, start.elapsed().as_secs_f64())
}
