//! The exact construction: which arrangements of a cycle's tricks close into a cycle.
//!
//! A trick's shape is who leads it and the demands of the cards laid, in order (who lays each
//! card and who takes the pile follow from those). A periodic sequence of shapes is the play of
//! a cycle only if each player's hand is a queue that gives back what it took: the cards a
//! player lays over the period are the cards he won, delayed by his hand size at the start of
//! the period. So card slot `i` that player `p` lays holds the card of the slot he won
//! `h_p` places earlier (modulo his `n_p` cards laid per period): every such pair must have the
//! same demand, and then the hands at the start of the period are those cards. For each split
//! `h_0 + h_1` of the deck the check is linear in the cards laid; a solution is played forward
//! to confirm it returns (the hands must never run dry between a lay and the win it needs).
//!
//! [`rearrangements`] applies this to every exchange of two blocks of tricks of a known cycle
//! (the four known 52-card cycles differ by such exchanges: issue 51's `P·X·Q·Y·R` and
//! `P·Y·Q·X·R`), so it decides exactly which of those arrangements are cycles.

use super::loops::{canonical, Cycle};
use crate::games::bmn::backward::{fate, laid_by, Fate};
use crate::games::bmn::{Bmn, Position};

/// One trick's shape: who leads, the demands of the cards laid in order, who lays each, and
/// who takes the pile.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Shape {
    /// Who leads (0-based).
    pub leader: usize,
    /// The demands laid, in order.
    pub cards: Vec<u8>,
    /// Who laid each card.
    pub who: Vec<usize>,
    /// Who takes the pile.
    pub taker: usize,
}

/// The shapes of the `tricks` tricks of the cycle through `on`, in play order.
pub fn shapes(on: &Position, tricks: u64) -> Vec<Shape> {
    let mut p = *on;
    let mut out = Vec::with_capacity(tricks as usize);
    for _ in 0..tricks {
        let leader = p.leader;
        let t = p.trick(u64::MAX);
        let hand: Vec<u8> = p.hands[t.taker].cards().collect();
        let cards = hand[hand.len() - t.laid as usize..].to_vec();
        let who = laid_by(&cards, leader, t.taker).expect("a trick played replays");
        out.push(Shape {
            leader,
            cards,
            who,
            taker: t.taker,
        });
    }
    out
}

/// Whether each trick is led by the taker of the one before (cyclically): the least a
/// sequence of shapes needs to be play.
pub fn coherent(seq: &[&Shape]) -> bool {
    (0..seq.len()).all(|t| seq[t].taker == seq[(t + 1) % seq.len()].leader)
}

/// Every position whose play is the periodic sequence `seq` (coherent) with the demands of
/// `deck` (sorted), one per split of the deck that solves: the construction's verdict on
/// this arrangement. Each is confirmed by play: it returns to itself after `seq.len()` tricks.
pub fn close(seq: &[&Shape], deck_sorted: &[u8]) -> Vec<Position> {
    // Each player's laid slots (their demands), and the piles he wins, in order.
    let mut laid: [Vec<u8>; 2] = [Vec::new(), Vec::new()];
    let mut won: [Vec<u8>; 2] = [Vec::new(), Vec::new()];
    for s in seq {
        for (&c, &w) in s.cards.iter().zip(&s.who) {
            laid[w].push(c);
        }
        won[s.taker].extend_from_slice(&s.cards);
    }
    if laid[0].len() != won[0].len() || laid[1].len() != won[1].len() {
        return Vec::new();
    }
    let n = deck_sorted.len();
    let mut out = Vec::new();
    for h0 in 1..n {
        if let Some(p) = solve(&laid, &won, [h0, n - h0], seq[0].leader, deck_sorted) {
            if returns(&p, seq.len() as u64) {
                out.push(p);
            }
        }
    }
    out
}

/// The position of the split `h` if every laid slot has the demand of the slot won `h_p`
/// places before it, and the hands hold the deck.
fn solve(
    laid: &[Vec<u8>; 2],
    won: &[Vec<u8>; 2],
    h: [usize; 2],
    leader: usize,
    deck_sorted: &[u8],
) -> Option<Position> {
    let mut hands: [Vec<u8>; 2] = [Vec::new(), Vec::new()];
    for p in 0..2 {
        let np = laid[p].len() as i64;
        if np == 0 {
            return None;
        }
        let back = |i: i64| won[p][(i - h[p] as i64).rem_euclid(np) as usize];
        if (0..np).any(|i| laid[p][i as usize] != back(i)) {
            return None;
        }
        hands[p] = (0..h[p] as i64).map(back).collect();
    }
    let mut all = [hands[0].clone(), hands[1].clone()].concat();
    all.sort_unstable();
    if all != deck_sorted {
        return None;
    }
    Some(Position::fitted(&hands[0], &hands[1], leader))
}

/// Whether `p` is back after `tricks` tricks, no game having ended on the way.
fn returns(p: &Position, tricks: u64) -> bool {
    let mut q = *p;
    for _ in 0..tricks {
        if q.trick(u64::MAX).ended.is_some() {
            return false;
        }
    }
    q.same(p)
}

/// What [`rearrangements`] tried and found.
#[derive(Clone, Debug, Default)]
pub struct Verdict {
    /// Block exchanges tried.
    pub tried: u64,
    /// Those whose tricks chain (each led by the taker of the one before).
    pub coherent: u64,
    /// Those that close into a cycle (for some split of the deck).
    pub closed: u64,
    /// The positions they close into (one per closing arrangement and split), with the
    /// arrangement's length in tricks.
    pub cycles: Vec<(Position, u64)>,
}

/// Every exchange of two blocks of at most `max_block` tricks of the cyclic sequence `base`
/// (blocks `X` and `Y` of `X·M·Y·N` become `Y·M·X·N`, for every start of `X`), decided by
/// [`close`]. `stop` is asked between starts and may end the enumeration early.
pub fn rearrangements(
    base: &[Shape],
    deck_sorted: &[u8],
    max_block: usize,
    stop: &mut dyn FnMut() -> bool,
) -> Verdict {
    let t = base.len();
    let mut v = Verdict::default();
    let mut seq: Vec<&Shape> = Vec::with_capacity(t);
    for r in 0..t {
        if stop() {
            break;
        }
        let at = |i: usize| &base[(r + i) % t];
        for b in 1..=max_block.min(t) {
            for c in b..t {
                for d in c + 1..=(c + max_block).min(t) {
                    seq.clear();
                    seq.extend((c..d).map(at));
                    seq.extend((b..c).map(at));
                    seq.extend((0..b).map(at));
                    seq.extend((d..t).map(at));
                    v.tried += 1;
                    if !coherent(&seq) {
                        continue;
                    }
                    v.coherent += 1;
                    let found = close(&seq, deck_sorted);
                    if !found.is_empty() {
                        v.closed += 1;
                    }
                    for p in found {
                        if let Fate::Cycle(on, tricks) = fate(&p, 8 * t as u64 + 64) {
                            v.cycles.push((on, tricks));
                        }
                    }
                }
            }
        }
    }
    v
}

/// Issue 51's pieces of the known 52-card family, in tricks, in the order of Casella et al.'s
/// half-period, which starts with the trick whose demands are [`FAMILY_START`]: `P` (4), a
/// lone `-J-` (1), `X` (5), three tricks `-J-`, `-J-`, `-J-` with the lead passing (3), `Q` (7),
/// `-J-` (1), `Y` (3), the three again (3), `R` (4): 31 tricks, the second half the same pieces
/// with one Q and one A exchanged. Read off by comparing the trick shapes of the four known
/// cycles, which are these pieces in other orders.
pub const FAMILY_PIECES: [usize; 9] = [4, 1, 5, 3, 7, 1, 3, 3, 4];

/// The demands of the first trick of `P` in the half-period that opens with `A-KQQJ-` as its
/// fourth trick.
pub const FAMILY_START: [u8; 6] = [0, 0, 3, 0, 0, 0];

/// What [`orders`] tried and found.
#[derive(Clone, Debug, Default)]
pub struct Orders {
    /// Orders of a half-period's pieces (the first piece kept first), each half.
    pub per_half: u64,
    /// Of those, distinct orders whose tricks chain within the half, half 1 and half 2.
    pub chaining: [u64; 2],
    /// Whole periods tried: every chaining order of half 1 with every one of half 2 (the same
    /// order in both, or mixed).
    pub periods: u64,
    /// Those that close (for some split of the deck), each with its orders.
    pub closed: Vec<([Vec<usize>; 2], Position, u64)>,
}

/// Every order of the pieces (lengths `pieces`, in tricks) of the two half-periods of the
/// cycle whose shapes are `base` (from trick `start`), the first piece kept first, each half
/// ordered on its own; each whole period that chains is decided by [`close`].
pub fn orders(base: &[Shape], start: usize, pieces: &[usize], deck_sorted: &[u8]) -> Orders {
    let t = base.len();
    let half = t / 2;
    let mut out = Orders::default();
    let mut offsets = vec![0];
    for &l in pieces {
        offsets.push(offsets.last().unwrap() + l);
    }
    let piece = |h: usize, k: usize| -> Vec<&Shape> {
        (offsets[k]..offsets[k + 1])
            .map(|i| &base[(start + h * half + i) % t])
            .collect()
    };
    let mut rest: Vec<usize> = (1..pieces.len()).collect();
    let mut all_orders = Vec::new();
    permutations(&mut rest, 0, &mut |o| all_orders.push(o.to_vec()));
    out.per_half = all_orders.len() as u64;
    // Each half's distinct orders whose tricks chain within it.
    let halves: [Vec<(Vec<usize>, Vec<&Shape>)>; 2] = [0, 1].map(|h| {
        let mut seen = std::collections::HashSet::new();
        let mut kept = Vec::new();
        for o in &all_orders {
            let order: Vec<usize> = std::iter::once(0).chain(o.iter().copied()).collect();
            let seq: Vec<&Shape> = order.iter().flat_map(|&k| piece(h, k)).collect();
            let chains = seq.windows(2).all(|w| w[0].taker == w[1].leader);
            if chains && seen.insert(seq.clone()) {
                kept.push((order, seq));
            }
        }
        kept
    });
    out.chaining = [halves[0].len() as u64, halves[1].len() as u64];
    for (o1, s1) in &halves[0] {
        for (o2, s2) in &halves[1] {
            let seq: Vec<&Shape> = s1.iter().chain(s2.iter()).copied().collect();
            out.periods += 1;
            if !coherent(&seq) {
                continue;
            }
            for p in close(&seq, deck_sorted) {
                out.closed.push(([o1.clone(), o2.clone()], p, t as u64));
            }
        }
    }
    out
}

/// Calls `each` with every order of `items[k..]` after `items[..k]` (Heap's algorithm would do;
/// this is the plain recursive one, orders in lexicographic order of swaps).
fn permutations(items: &mut Vec<usize>, k: usize, each: &mut dyn FnMut(&[usize])) {
    if k == items.len() {
        each(items);
        return;
    }
    for i in k..items.len() {
        items.swap(k, i);
        permutations(items, k + 1, each);
        items.swap(k, i);
    }
}

/// Where the family's half-period starts in `shapes` (a cycle of the family): the trick whose
/// demands are [`FAMILY_START`] three tricks before a trick laying `A-KQQJ-`.
pub fn family_start(shapes: &[Shape]) -> Option<usize> {
    let t = shapes.len();
    (0..t).find(|&r| {
        shapes[r].cards == FAMILY_START && shapes[(r + 3) % t].cards == [4, 0, 3, 2, 2, 1, 0]
    })
}

/// The construction's verdict on the family of the cycle through `on`, as a census reports
/// it: `None` when the cycle is not of the family (no half-period opening as Casella's does).
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Clone, Debug, serde::Serialize)]
pub struct FamilyVerdict {
    /// The pieces' lengths in tricks ([`FAMILY_PIECES`]).
    pub pieces: Vec<usize>,
    /// Orders of a half's pieces tried (the first kept first).
    pub orders_per_half: u64,
    /// Distinct orders that chain, in half 1 and half 2.
    pub chaining: [u64; 2],
    /// Whole periods decided (half 1's chaining orders times half 2's).
    pub periods: u64,
    /// The periods that close: the cycle's name and each half's order of the pieces.
    pub closed: Vec<(Cycle, [Vec<usize>; 2])>,
}

/// [`orders`] over the pieces of the family from the cycle through `on` (`tricks` long), the
/// closing periods named.
pub fn family_verdict(game: &Bmn, on: &Position, tricks: u64) -> Option<FamilyVerdict> {
    let s = shapes(on, tricks);
    let start = family_start(&s)?;
    let mut deck = game.deck().to_vec();
    deck.sort_unstable();
    let v = orders(&s, start, &FAMILY_PIECES, &deck);
    Some(FamilyVerdict {
        pieces: FAMILY_PIECES.to_vec(),
        orders_per_half: v.per_half,
        chaining: v.chaining,
        periods: v.periods,
        closed: v
            .closed
            .into_iter()
            .map(|(o, p, t)| (canonical(game, &p, t), o))
            .collect(),
    })
}

#[cfg(test)]
#[path = "construct_tests.rs"]
mod tests;
