//! `exact war` with the shuffled pickup: the game as an absorbing Markov chain over positions.
//!
//! A round's play is fixed by the two hands; only the order in which the winner puts the table
//! under their hand is random, uniform over the orders of the table's cards. So each position
//! (both hands, card for card) leads to the positions with the winner's new bottom cards in
//! each distinct order, each equally likely, or to the end of the game. The positions reachable
//! from every deal are built breadth first; player 1's chance of winning and the expected
//! rounds from each are the solutions of the chain's linear equations, found by Gauss–Seidel
//! sweeps until no value moves by more than 1e-13 of itself (a stated tolerance, not a
//! rational solution). The answer is their average over the deals, which are equally likely.

use std::collections::HashMap;

use super::enumerate::DealSpace;
use super::position::Position;
use super::rules::Pickup;
use super::{NoRandomness, War};
use crate::cancel::{Cancel, Cancelled};
use crate::error::setting;
use crate::error::{Op, Result, UsageError};
use crate::games::cards::Card;
use crate::games::{ChainSolution, Game, Outcome};
use crate::usage_of;

/// Positions the chain may hold: beyond this the deck is too large to solve here in minutes
/// and a few hundred megabytes (8 cards: 17,112 positions in 0.2 s; 10 cards, 5 ranks × 2:
/// 1,017,000 positions took 300 s and 5 GB, so it is refused).
pub const MAX_STATES: usize = 400_000;
/// Convergence: the largest change of a value in a sweep, relative to the value.
const TOLERANCE: f64 = 1e-13;
/// Deals, positions built or positions swept between two looks at the cancel.
const CANCEL_EVERY: usize = 4096;
/// Sweeps before giving up (a chain that does not converge may never end).
const MAX_SWEEPS: u64 = 1_000_000;

/// Where a round from a position leads.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Next {
    /// Another position, by index.
    State(u32),
    /// The end of the game.
    End(Outcome),
}

/// A position as a key: player 1's card count `n0`, then both hands top first (`cards`).
fn key(n0: usize, cards: impl Iterator<Item = Card>) -> Vec<Card> {
    std::iter::once(n0 as Card).chain(cards).collect()
}

/// The key of the position `p` holds.
fn key_of(p: &Position) -> Vec<Card> {
    key(p.hands[0].len(), p.hands[0].iter().chain(p.hands[1].iter()))
}

/// The next distinct arrangement of `v` in lexicographic order, or `false` after the last.
fn next_arrangement(v: &mut [Card]) -> bool {
    let Some(i) = (1..v.len()).rev().find(|&i| v[i - 1] < v[i]) else {
        return false;
    };
    let j = (i..v.len()).rev().find(|&j| v[j] > v[i - 1]).unwrap_or(i);
    v.swap(i - 1, j);
    v[i..].reverse();
    true
}

/// Solves the chain of `war` (shuffled pickup), or says why it cannot be solved here; a set
/// `cancel` stops it within some thousands of deals or positions ([`Cancelled`]).
pub fn solve(war: &War, cancel: &Cancel) -> Result<ChainSolution> {
    // The same rules with a fixed pickup order: the round is then played as it is, and the
    // winner's new bottom cards are rearranged in every order below.
    let mut fixed = war.rules.clone();
    fixed.pickup = Pickup::P1First;
    fixed.detect_loops = false;
    let twin = War::with_deck(fixed, war.deck.clone());
    let rest = twin.fixed_hands.as_ref().map(|h| h[1].as_slice());
    let space = DealSpace::of(&twin.rules, &twin.deck, rest)?;
    let deals = space
        .count()
        .filter(|&d| d <= MAX_STATES as u128)
        .ok_or_else(|| {
            usage_of![
                Op::Exact.of(War::NAME),
                " ",
                setting("pickup", "shuffled"),
                format!(
                    ": a deck of {} cards has more than {MAX_STATES} deals, each a position of the \
                     Markov chain; the chain is solved up to about 10 cards here; use ",
                    war.deck.len()
                ),
                Op::Simulate,
            ]
        })?;
    let mut index: HashMap<Vec<Card>, u32> = HashMap::new();
    let mut states: Vec<Vec<Card>> = Vec::new();
    let mut starts = Vec::with_capacity(deals as usize);
    let mut pos = Position::new(twin.capacity);
    let (mut counts, mut cards) = (Vec::new(), Vec::new());
    let mut intern = |k: Vec<Card>, states: &mut Vec<Vec<Card>>| -> Result<u32, UsageError> {
        if let Some(&i) = index.get(&k) {
            return Ok(i);
        }
        if states.len() >= MAX_STATES {
            return Err(usage_of![
                Op::Exact.of(War::NAME),
                " ",
                setting("pickup", "shuffled"),
                format!(
                    ": more than {MAX_STATES} positions are reachable from the {}-card deck; the \
                     chain is too large to solve here; use ",
                    war.deck.len()
                ),
                Op::Simulate,
            ]);
        }
        let i = states.len() as u32;
        index.insert(k.clone(), i);
        states.push(k);
        Ok(i)
    };
    for d in 0..deals {
        if d % CANCEL_EVERY as u128 == 0 && cancel.is_set() {
            return Err(Cancelled.into());
        }
        let half = space.deal(d, &mut counts, &mut cards);
        pos.set_hands([&cards[..half], &cards[half..]]);
        starts.push(intern(key_of(&pos), &mut states)?);
    }
    // Breadth first: each state's transitions, built as states are found.
    let mut next: Vec<Vec<(Next, f64)>> = Vec::new();
    let mut s = 0;
    while s < states.len() {
        if s % CANCEL_EVERY == 0 && cancel.is_set() {
            return Err(Cancelled.into());
        }
        let k = states[s].clone();
        let n0 = usize::from(k[0]);
        pos.set_hands([&k[1..1 + n0], &k[1 + n0..]]);
        let mut out = Vec::new();
        match pos.round(&twin, &mut NoRandomness) {
            Some(o) => out.push((Next::End(o), 1.0)),
            None => {
                let (a, b) = (pos.table[0].last(), pos.table[1].last());
                let w = usize::from(b > a);
                let won = pos.table[0].len() + pos.table[1].len() - usize::from(pos.honored);
                let hand: Vec<Card> = pos.hands[w].iter().collect();
                let keep = hand.len() - won;
                let mut bottom = hand[keep..].to_vec();
                bottom.sort_unstable();
                let mut orders = Vec::new();
                loop {
                    orders.push(bottom.clone());
                    if !next_arrangement(&mut bottom) {
                        break;
                    }
                }
                let p = 1.0 / orders.len() as f64;
                let other: Vec<Card> = pos.hands[1 - w].iter().collect();
                for order in orders {
                    let mut mine = hand[..keep].to_vec();
                    mine.extend(order);
                    let (h0, h1) = if w == 0 {
                        (&mine, &other)
                    } else {
                        (&other, &mine)
                    };
                    let k = key(h0.len(), h0.iter().chain(h1).copied());
                    out.push((Next::State(intern(k, &mut states)?), p));
                }
            }
        }
        next.push(out);
        s += 1;
    }
    // Gauss–Seidel on E (rounds) and P1, P2, draw (the chance of each end).
    let n = states.len();
    let mut e = vec![0.0f64; n];
    let mut win = vec![[0.0f64; 3]; n];
    let end_slot = |o: Outcome| match o {
        Outcome::Player(p) => usize::from(p),
        _ => 2,
    };
    let mut sweeps = 0;
    loop {
        sweeps += 1;
        let mut moved = 0.0f64;
        for i in (0..n).rev() {
            if i % CANCEL_EVERY == 0 && cancel.is_set() {
                return Err(Cancelled.into());
            }
            let mut ei = 1.0;
            let mut wi = [0.0; 3];
            for &(t, p) in &next[i] {
                match t {
                    Next::State(j) => {
                        let j = j as usize;
                        ei += p * e[j];
                        for (x, y) in wi.iter_mut().zip(win[j]) {
                            *x += p * y;
                        }
                    }
                    Next::End(o) => wi[end_slot(o)] += p,
                }
            }
            moved = moved.max((ei - e[i]).abs() / ei.max(1.0));
            for (x, y) in win[i].iter().zip(wi) {
                moved = moved.max((x - y).abs());
            }
            e[i] = ei;
            win[i] = wi;
        }
        if moved <= TOLERANCE {
            break;
        }
        if sweeps >= MAX_SWEEPS || !moved.is_finite() {
            return Err(usage_of![
                Op::Exact.of(War::NAME),
                " ",
                setting("pickup", "shuffled"),
                format!(
                    ": the chain did not settle in {MAX_SWEEPS} sweeps (some positions may never \
                     end); use "
                ),
                Op::Simulate,
            ]
            .into());
        }
    }
    let m = starts.len() as f64;
    let avg = |f: &dyn Fn(usize) -> f64| starts.iter().map(|&i| f(i as usize)).sum::<f64>() / m;
    Ok(ChainSolution {
        states: n,
        deals,
        outcomes: vec![
            (Outcome::Player(0), avg(&|i| win[i][0])),
            (Outcome::Player(1), avg(&|i| win[i][1])),
            (Outcome::Draw, avg(&|i| win[i][2])),
        ],
        mean_rounds: avg(&|i| e[i]),
        sweeps,
        tolerance: TOLERANCE,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arrangements_in_order() {
        let mut v = vec![1, 1, 2];
        let mut all = vec![v.clone()];
        while next_arrangement(&mut v) {
            all.push(v.clone());
        }
        assert_eq!(all, [vec![1, 1, 2], vec![1, 2, 1], vec![2, 1, 1]]);
    }
}
