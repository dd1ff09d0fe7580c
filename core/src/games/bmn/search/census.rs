//! The census of cycles: every cycle a pool search reaches, each with its basin (every
//! position whose game enters it, by depth) and every balanced deal among them, counted the
//! same way for every cycle.
//!
//! The pool is every position of every cycle known and of its basin. A round draws tries from
//! it (a pool position changed by one to three swaps or moves, [`perturb`]) and plays each
//! forward; a try that falls into a cycle not known names it. After the round the new cycles,
//! merged in walker order, are walked backward (their basins join the pool), so the search
//! spreads from every cycle and from every position leading into one: a changed position of
//! a basin is a position near a deal, where cycles that deals enter are likeliest.
//!
//! Rounds are fixed: `walkers` walkers of `tries` tries each, walker w of round r drawing from
//! generator (seed, r·2^32 + w), the pool read-only during the round. So the census depends on
//! the seed, the walkers, the tries per round and the rounds played, never on the threads; a
//! census for a time stops between rounds.
//!
//! Counting: a cycle is oriented by its canonical position (the least of its positions written
//! leader first, [`canonical`]) with player 1 to lead. Its basin is that oriented cycle's; its
//! balanced positions with player 1 to lead are the deals that enter it, and with either player
//! to lead the deals that enter it or its mirror image (seats swapped). Every cycle is counted
//! from this one position, whatever deal or try found it.

use std::collections::HashSet;
use std::ops::ControlFlow;

use rayon::prelude::*;
use serde::Serialize;

use super::insert::Grower;
use super::loops::{canonical, key, learn, perturb, Cycle, MAX_TRICKS};
use super::reaching::{deals, Deal};
use crate::cancel::Cancel;
use crate::games::bmn::backward::{basin, Basin, Fate, Node};
use crate::games::bmn::{Bmn, Position};
use crate::games::cards::{bounded, shuffle};
use crate::rng::game_rng;

/// What a census is asked to do.
#[derive(Clone, Debug)]
pub struct CensusConfig {
    /// Base seed.
    pub seed: u64,
    /// Walkers per round.
    pub walkers: u32,
    /// Tries per walker per round.
    pub tries: u64,
    /// Rounds to play at most (a census for a time stops earlier).
    pub rounds: u64,
    /// The most positions a basin walk may hold; a larger basin is listed without its
    /// positions and deals (`complete: false`).
    pub max_positions: u64,
    /// The deck (demands) insertion grows cycles from toward the census's deck, `walkers / 4`
    /// growers ([`Grower`]) of `tries` steps a round; empty: no insertion.
    pub grow_from: Vec<u8>,
}

/// One cycle of the census.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Clone, Debug, Serialize)]
pub struct Counted {
    /// Its name, length and canonical position.
    #[serde(flatten)]
    pub cycle: Cycle,
    /// The round that found it (0 for a seed).
    pub round: u64,
    /// What found it: `seed`, `pool` (the pool search) or `insertion`.
    pub by: &'static str,
    /// Whether the basin walk finished (else the counts below are those of the depths done).
    pub complete: bool,
    /// Positions whose game enters it, its own included.
    pub basin_positions: u64,
    /// Positions at each depth, the cycle's first.
    pub per_depth: Vec<u64>,
    /// Balanced deals with player 1 to lead (the canonical orientation).
    pub balanced_player_1_leads: usize,
    /// Balanced positions with either player to lead: the deals entering it or its mirror.
    pub balanced_either_leads: usize,
    /// Distinct deals among them: `balanced_either_leads` unless the cycle is its own mirror
    /// image, when a deal and its seats swapped enter the same cycle and are written alike.
    pub distinct_deals: usize,
    /// The balanced deals, player 1's first, then by depth and deal.
    pub deals: Vec<Deal>,
}

/// What a census found.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Clone, Debug, Default, Serialize)]
#[non_exhaustive]
pub struct Census {
    /// Every cycle: the seeds first, then in the order found (round, walker, try).
    pub cycles: Vec<Counted>,
    /// Rounds played.
    pub rounds: u64,
    /// Tries played.
    pub tries: u64,
    /// Tries that fell into a cycle, known or new.
    pub looped: u64,
    /// Tries whose game ended.
    pub ended: u64,
    /// Tries neither ended nor seen to loop within [`MAX_TRICKS`] tricks.
    pub undecided: u64,
    /// Positions in the pool at the end.
    pub pool: u64,
    /// Cycles insertion keeps at each number of cards (summed over its growers; each keeps
    /// at most [`super::insert::PER_SIZE`] a size).
    pub grown: Vec<u64>,
    /// Whether the cancel stopped it before the rounds asked for (not `each`: a census for a
    /// time that ran out is not stopped).
    pub stopped: bool,
}

/// Where a census stands, after each round.
#[derive(Clone, Copy, Debug)]
pub struct Round {
    /// Rounds played.
    pub rounds: u64,
    /// Tries played.
    pub tries: u64,
    /// Cycles known.
    pub cycles: usize,
    /// Positions in the pool.
    pub pool: u64,
}

/// What one walker of one round saw.
#[derive(Default)]
struct Tried {
    new: Vec<(Position, u64)>,
    looped: u64,
    ended: u64,
    undecided: u64,
}

/// The census's state between rounds: the cycles, the keys of their positions and the pool.
struct Pool {
    known: HashSet<Vec<u8>>,
    positions: Vec<Position>,
}

/// Runs the census from the cycles through `seeds` (positions on them, lengths in tricks):
/// rounds until `cfg.rounds` are played or `stop` is set (checked between rounds); `each`
/// hears of every round and may stop the census.
pub fn census(
    game: &Bmn,
    cfg: &CensusConfig,
    seeds: &[(Position, u64)],
    stop: &Cancel,
    each: &mut dyn FnMut(Round) -> ControlFlow<()>,
) -> Census {
    let mut pool = Pool {
        known: HashSet::new(),
        positions: Vec::new(),
    };
    let mut out = Census::default();
    admit(game, cfg, &mut pool, &mut out, seeds, (0, "seed"));
    let mut growers: Vec<Grower> = match cfg.grow_from.is_empty() {
        true => Vec::new(),
        false => (0..cfg.walkers.div_ceil(4))
            .map(|w| Grower::new(cfg.seed, w, &cfg.grow_from, game.deck()))
            .collect(),
    };
    while out.rounds < cfg.rounds {
        if stop.is_set() {
            out.stopped = true;
            break;
        }
        let round = out.rounds + 1;
        let tried: Vec<Tried> = (0..cfg.walkers)
            .into_par_iter()
            .map(|w| try_round(game, cfg, &pool, round, w))
            .collect();
        let mut new = Vec::new();
        for t in &tried {
            out.looped += t.looped;
            out.ended += t.ended;
            out.undecided += t.undecided;
            new.extend_from_slice(&t.new);
        }
        out.tries += cfg.tries * u64::from(cfg.walkers);
        out.rounds = round;
        admit(game, cfg, &mut pool, &mut out, &new, (round, "pool"));
        growers.par_iter_mut().for_each(|g| g.grow(game, cfg.tries));
        let full: Vec<(Position, u64)> = growers.iter_mut().flat_map(|g| g.take_full()).collect();
        admit(game, cfg, &mut pool, &mut out, &full, (round, "insertion"));
        out.pool = pool.positions.len() as u64;
        let at = Round {
            rounds: out.rounds,
            tries: out.tries,
            cycles: out.cycles.len(),
            pool: out.pool,
        };
        // A stop from `each` is the caller's time running out: no cancel.
        if each(at).is_break() {
            break;
        }
    }
    out.pool = pool.positions.len() as u64;
    out.grown = growers.iter().fold(Vec::new(), |mut sum, g| {
        sum.resize(g.pools.len(), 0);
        sum.iter_mut().zip(g.sizes()).for_each(|(s, n)| *s += n);
        sum
    });
    out
}

/// Tries a walker draws and plays together: its round's tries, a piece at a time.
const TRIES_AT_ONCE: u64 = 1024;

/// One walker's tries of one round, from the pool as it stood when the round began: drawn a
/// piece at a time (a try's position depends on the walker's generator and the pool alone,
/// never on another try's game), played together in the lanes where the game plays on them
/// (`on_lanes`), the tries that did not end there judged in order by [`fate`](crate::games::bmn::backward::fate)'s rule, a phase
/// at a time ([`Bmn::fate`]).
fn try_round(game: &Bmn, cfg: &CensusConfig, pool: &Pool, round: u64, w: u32) -> Tried {
    let mut rng = game_rng(cfg.seed, (round << 32) | u64::from(w));
    let mut cards = Vec::with_capacity(64);
    let mut seen: HashSet<Vec<u8>> = HashSet::new();
    let mut t = Tried::default();
    let n = pool.positions.len() as u32;
    let mut tries = Vec::with_capacity(TRIES_AT_ONCE as usize);
    let mut left = cfg.tries;
    while left > 0 {
        tries.clear();
        for _ in 0..left.min(TRIES_AT_ONCE) {
            tries.push(match n {
                0 => random_position(game.deck(), &mut rng, &mut cards),
                _ => shake(
                    &pool.positions[bounded(&mut rng, n) as usize],
                    &mut rng,
                    &mut cards,
                ),
            });
        }
        left -= tries.len() as u64;
        #[cfg(target_arch = "x86_64")]
        let ended = game.lanes().map(|l| super::on_lanes::ended(l, &tries));
        #[cfg(not(target_arch = "x86_64"))]
        let ended: Option<Vec<bool>> = None;
        for (i, p) in tries.iter().enumerate() {
            if ended.as_ref().is_some_and(|e| e[i]) {
                t.ended += 1;
                continue;
            }
            match game.fate(p, MAX_TRICKS) {
                Fate::Ends(_) => t.ended += 1,
                Fate::Undecided => t.undecided += 1,
                Fate::Cycle(on, tricks) => {
                    t.looped += 1;
                    let k = key(&on);
                    if !pool.known.contains(&k) && !seen.contains(&k) {
                        learn(&mut seen, &on, tricks);
                        t.new.push((on, tricks));
                    }
                }
            }
        }
    }
    t
}

/// Longest block [`shake`] exchanges: a trick of the known cycles lays up to about a dozen
/// cards.
const MAX_BLOCK: u32 = 16;

/// A pool position changed: half the time by [`perturb`] (one to three swaps or moves), half
/// by two blocks of consecutive cards exchanged (the sequence of both hands, the hands keeping
/// their sizes). The known cycles are rearrangements of the same pieces of play (runs of
/// tricks), and a piece is a run of cards in a hand: exchanging two runs turns one
/// arrangement into another, which single swaps reach only by luck.
fn shake(p: &Position, rng: &mut crate::rng::GameRng, cards: &mut Vec<u8>) -> Position {
    if bounded(rng, 2) == 0 {
        return perturb(p, rng, cards);
    }
    let split = p.cards_into(cards);
    let n = cards.len() as u32;
    let a = 1 + bounded(rng, MAX_BLOCK.min(n / 2));
    let b = 1 + bounded(rng, MAX_BLOCK.min(n / 2));
    // Blocks [i, i+a) and [j, j+b), i + a <= j, j + b <= n.
    let i = bounded(rng, n - a - b + 1);
    let j = i + a + bounded(rng, n - a - b - i + 1);
    let (i, j, a, b) = (i as usize, j as usize, a as usize, b as usize);
    cards[i..j + b].rotate_left(a);
    // Now the middle and the second block precede the first: put the second block first.
    let mid = j - i - a;
    cards[i..i + mid + b].rotate_left(mid);
    Position::fitted(&cards[..split], &cards[split..], p.leader)
}

/// A random position of `deck`: the cards shuffled, cut anywhere (each hand holding one card
/// or more), either player to lead. With no cycle known yet, a census starts from these: on
/// small decks some of them loop.
pub(super) fn random_position(
    deck: &[u8],
    rng: &mut crate::rng::GameRng,
    cards: &mut Vec<u8>,
) -> Position {
    cards.clear();
    cards.extend_from_slice(deck);
    shuffle(rng, cards);
    let split = 1 + bounded(rng, deck.len() as u32 - 1) as usize;
    Position::fitted(&cards[..split], &cards[split..], bounded(rng, 2) as usize)
}

/// Names the cycles through `found` (in order), and counts and admits each one not known:
/// its positions and its basin's join the pool.
fn admit(
    game: &Bmn,
    cfg: &CensusConfig,
    pool: &mut Pool,
    out: &mut Census,
    found: &[(Position, u64)],
    (round, by): (u64, &'static str),
) {
    let mut fresh: Vec<Cycle> = Vec::new();
    for (on, tricks) in found {
        if pool.known.contains(&key(on)) {
            continue;
        }
        learn(&mut pool.known, on, *tricks);
        fresh.push(canonical(game, on, *tricks));
    }
    let counted: Vec<(Counted, Vec<Position>)> = fresh
        .into_par_iter()
        .map(|c| count(game, c, (round, by), cfg.max_positions))
        .collect();
    for (c, positions) in counted {
        pool.positions.extend(positions);
        out.cycles.push(c);
    }
}

/// The census entry of cycle `c` (found in `round`): its basin from its canonical position,
/// player 1 to lead, and the positions of the basin for the pool.
pub fn count(
    game: &Bmn,
    c: Cycle,
    (round, by): (u64, &'static str),
    limit: u64,
) -> (Counted, Vec<Position>) {
    let [a, b] = game
        .parse_deal(&c.position)
        .expect("a canonical position is written as the game reads it");
    let start = Node::new(&a, &b, 0).expect("a deck's position fits a node");
    let walked = basin(start, u64::MAX, limit, u64::MAX, &mut |_| {
        ControlFlow::Continue(())
    });
    match walked {
        Ok(b) => {
            let positions = positions(&b, limit);
            (entry(game, c, (round, by), &b), positions)
        }
        // Too large a basin (or one the bound stopped): the cycle alone joins the pool.
        Err(_) => {
            let mut p = Position::fitted(&a, &b, 0);
            let mut on = Vec::new();
            for _ in 0..c.tricks {
                on.push(p);
                p.trick(u64::MAX);
            }
            let n = c.tricks;
            let counted = Counted {
                cycle: c,
                round,
                by,
                complete: false,
                basin_positions: n,
                per_depth: vec![n],
                balanced_player_1_leads: 0,
                balanced_either_leads: 0,
                distinct_deals: 0,
                deals: Vec::new(),
            };
            (counted, on)
        }
    }
}

/// The census entry of a cycle whose basin walk `b` finished.
fn entry(game: &Bmn, cycle: Cycle, (round, by): (u64, &'static str), b: &Basin) -> Counted {
    let deals = deals(game, b);
    Counted {
        cycle,
        round,
        by,
        complete: true,
        basin_positions: b.positions(),
        per_depth: b.per_depth.clone(),
        balanced_player_1_leads: deals.iter().filter(|d| d.leader == 1).count(),
        balanced_either_leads: deals.len(),
        distinct_deals: deals.iter().map(|d| &d.deal).collect::<HashSet<_>>().len(),
        deals,
    }
}

/// Every position of the basin `b` (the cycle's, then depth by depth), at most `limit`: the
/// positions leading into a cycle form trees, so a walk backward meets none twice.
fn positions(b: &Basin, limit: u64) -> Vec<Position> {
    let on: HashSet<Node> = b.cycle.iter().copied().collect();
    let mut all: Vec<Node> = b.cycle.clone();
    let mut level = b.cycle.clone();
    let mut next = Vec::new();
    while !level.is_empty() && (all.len() as u64) < limit {
        next.clear();
        for n in &level {
            n.predecessors(&mut next);
        }
        next.retain(|n| !on.contains(n));
        all.extend_from_slice(&next);
        std::mem::swap(&mut level, &mut next);
    }
    all.truncate(limit as usize);
    all.iter().map(Node::position).collect()
}

#[cfg(test)]
#[path = "census_tests.rs"]
mod tests;
