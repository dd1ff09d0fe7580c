//! Backward play against forward play: predecessors worked out by hand, every predecessor
//! replayed forward, and a basin against every position of a small deck played forward.

use super::*;
use crate::games::bmn::{Bmn, BmnRules};
use crate::games::cards::shuffle;
use crate::rng::game_rng;

fn preds(n: &Node) -> Vec<Node> {
    let mut out = Vec::new();
    n.predecessors(&mut out);
    out
}

/// Player 2 leads holding `- J -`, player 1 holds `-`. The last pile is a suffix of player 2's
/// hand: `J -` led by player 2 (player 1 paying the J), or `- J -` led by player 1 (player 2
/// answering with the J, player 1 paying). Led the other way, each gives the pile to player 1.
#[test]
fn a_position_has_the_predecessors_worked_out_by_hand() {
    let q = Node::new(&[0], &[0, 1, 0], 1).unwrap();
    let mut got = preds(&q);
    got.sort_by_key(|n| format!("{n:?}"));
    let mut want = vec![
        Node::new(&[0, 0], &[1, 0], 1).unwrap(),
        Node::new(&[0, 0, 0], &[1], 0).unwrap(),
    ];
    want.sort_by_key(|n| format!("{n:?}"));
    assert_eq!(got, want);
    for p in &got {
        assert_eq!(p.forward(), Some(q));
    }
    // A position with an empty hand ends the game: no trick leads to it in play.
    assert!(preds(&Node::new(&[], &[0, 1, 0], 1).unwrap()).is_empty());
    // Plain cards alone never make a pile that someone takes by a paid demand.
    assert!(preds(&Node::new(&[0], &[0, 0, 0], 1).unwrap()).is_empty());
}

/// Positions from random deals of the full deck: each one's successor counts it among its
/// predecessors, and every predecessor found plays forward one trick to that successor.
#[test]
fn every_predecessor_replays_forward_one_trick_to_the_position() {
    let game = Bmn::new(BmnRules::britannica(13, 4, [1, 2, 3, 4])).unwrap();
    let mut checked = 0;
    for i in 0..40 {
        let mut deck = game.deck().to_vec();
        shuffle(&mut game_rng(7, i), &mut deck);
        let mut p = Node::new(&deck[..26], &deck[26..], (i % 2) as usize).unwrap();
        for _ in 0..30 {
            let Some(q) = p.forward() else { break };
            let found = preds(&q);
            assert!(
                found.contains(&p),
                "{p:?} missing from {q:?}'s predecessors"
            );
            for f in &found {
                assert_eq!(f.forward(), Some(q), "{f:?}");
            }
            checked += found.len();
            p = q;
        }
    }
    assert!(checked > 1000, "{checked}");
}

fn arrangements(counts: &mut [usize], cur: &mut Vec<u8>, n: usize, out: &mut Vec<Vec<u8>>) {
    if cur.len() == n {
        out.push(cur.clone());
        return;
    }
    for d in 0..counts.len() {
        if counts[d] > 0 {
            counts[d] -= 1;
            cur.push(d as u8);
            arrangements(counts, cur, n, out);
            cur.pop();
            counts[d] += 1;
        }
    }
}

/// A deck of ten cards, five plain, two J, two Q and a K, has one cycle (found by playing
/// every position); the basin walked backward from it is exactly the positions whose game,
/// played forward, reaches it, each at the depth forward play finds.
#[test]
fn the_basin_of_a_small_cycle_is_every_position_that_enters_it() {
    let start = Node::new(&[0, 0, 2, 0, 2, 1, 0], &[3, 1, 0], 0).unwrap();
    let b = basin(start, 1000, 10_000, 1, &mut |_| ControlFlow::Continue(())).unwrap();
    assert_eq!(b.cycle.len(), 6);
    let on_cycle: HashSet<Node> = b.cycle.iter().copied().collect();
    let mut all = Vec::new();
    arrangements(&mut [5, 2, 2, 1], &mut Vec::new(), 10, &mut all);
    let mut per_depth = vec![0u64; 16];
    for a in &all {
        for split in 1..10 {
            for leader in 0..2 {
                let node = Node::new(&a[..split], &a[split..], leader).unwrap();
                if let Ok((cycle, depth)) = find_cycle(node, 1000) {
                    if on_cycle.contains(&cycle[0]) {
                        per_depth[depth as usize] += 1;
                    }
                }
            }
        }
    }
    per_depth.truncate(b.per_depth.len());
    assert_eq!(b.per_depth, per_depth);
    assert_eq!(b.positions(), 60);
    for f in &b.balanced {
        let (cycle, depth) = find_cycle(f.node, 1000).unwrap();
        assert!(on_cycle.contains(&cycle[0]) && depth == u64::from(f.depth));
    }
}

#[test]
fn a_game_that_ends_has_no_basin_and_a_small_bound_stops_the_walk() {
    let never = |_| ControlFlow::Continue(());
    let ends = Node::new(&[4], &[0, 0, 0, 0], 0).unwrap();
    assert_eq!(
        basin(ends, 1000, 10, 1, &mut { never }).unwrap_err(),
        BasinError::Ends(1)
    );
    let start = Node::new(&[0, 0, 2, 0, 2, 1, 0], &[3, 1, 0], 0).unwrap();
    assert!(matches!(
        basin(start, 1000, 20, 1, &mut { never }),
        Err(BasinError::TooMany { limit: 20, .. })
    ));
    assert!(matches!(
        basin(start, 1000, 10_000, 1000, &mut |_| ControlFlow::Break(())),
        Err(BasinError::Stopped { depth: 1, .. })
    ));
    assert_eq!(
        basin(start, 2, 10_000, 1, &mut { never }).unwrap_err(),
        BasinError::Capped(2)
    );
}

/// Casella et al. 2024 (arXiv 2403.13855): "a cyclical structure of 62 tricks that is reached
/// by 30 distinct starting hands". The walk finds 30 balanced positions when either player may
/// lead them (18 with player 1 to lead), none on the cycle itself; 2,670 positions in all, 62 of
/// them the cycle's, at most 6 tricks from it; the published deal is 4 tricks from it.
#[test]
fn casellas_cycle_is_reached_from_30_balanced_positions_either_player_leading() {
    let game = Bmn::new(BmnRules::britannica(13, 4, [1, 2, 3, 4])).unwrap();
    let [a, b] = game
        .parse_deal("---K---Q-KQAJ-----AAJ--J--/----------Q----KQ-J-----KA")
        .unwrap();
    let start = Node::new(&a, &b, 0).unwrap();
    let walk = basin(start, 100_000, 100_000, 1, &mut |_| {
        ControlFlow::Continue(())
    })
    .unwrap();
    assert_eq!((walk.cycle.len(), walk.cycle_cards), (62, 440));
    assert_eq!(walk.start_depth, 4);
    assert_eq!((walk.positions(), walk.depth()), (2670, 6));
    let p1 = walk.balanced.iter().filter(|f| f.node.leader() == 0);
    assert_eq!((walk.balanced.len(), p1.count()), (30, 18));
    assert!(walk.balanced.iter().all(|f| f.depth > 0));
    assert!(walk.balanced.contains(&Found {
        node: start,
        depth: 4
    }));
}
