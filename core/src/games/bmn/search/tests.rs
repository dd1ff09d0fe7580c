//! The searches' invariants: the same finds in batches of any sizes as at once, every
//! progress report counted once, a cycle's one name from every position on it and its mirror,
//! and every balanced deal of a basin replaying into the cycle at the depth stated.

use std::collections::HashSet;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicU64, Ordering};

use super::climb::Walker;
use super::loops::{canonical, LoopWalker, CASELLA, MAX_TRICKS};
use super::reaching::reaching;
use crate::games::bmn::backward::{fate, Fate, Node};
use crate::games::bmn::{Bmn, BmnRules, Position};
use crate::games::{Game, Outcome};

fn standard() -> Bmn {
    Bmn::new(BmnRules::britannica(13, 4, [1, 2, 3, 4])).unwrap()
}

fn position(game: &Bmn, deal: &str) -> Position {
    let [a, b] = game.parse_deal(deal).unwrap();
    Position::dealt(&a, &b).unwrap()
}

/// A climbing walker plays the same deals in batches of any sizes as at once: the batches a
/// search is played in (sized from the clock) never change what it finds; progress hears of
/// each deal once, however the batches cross its reports.
#[test]
fn a_climbing_walker_is_the_same_in_batches() {
    let game = Bmn::new(BmnRules::britannica(7, 2, [1, 2, 3, 4])).unwrap();
    let mut once = Walker::new(&game, 5, 1, 10, None);
    once.walk(30_000, &|_| {});
    let counted = AtomicU64::new(0);
    let count = |n: u64| {
        counted.fetch_add(n, Ordering::Relaxed);
    };
    let mut batches = Walker::new(&game, 5, 1, 10, None);
    for n in [1, 4, 16, 9_979, 20_000] {
        batches.walk(n, &count);
    }
    assert_eq!(counted.load(Ordering::Relaxed), 30_000);
    assert_eq!(once.out.best, batches.out.best);
    assert_eq!(once.out.loops, batches.out.loops);
    assert_eq!(
        (once.out.loops_found, once.out.capped),
        (batches.out.loops_found, batches.out.capped)
    );
    assert!(!once.out.best.is_empty());
}

/// Casella's deal enters a 62-trick cycle (the paper's count); every position on it has
/// the same canonical name, and so has each with the players' names swapped.
#[test]
fn casellas_cycle_has_one_name_from_every_position_on_it() {
    let game = standard();
    let Fate::Cycle(on, tricks) = fate(&position(&game, CASELLA), MAX_TRICKS) else {
        panic!("Casella's deal must loop");
    };
    assert_eq!(tricks, 62);
    let name = canonical(&game, &on, tricks);
    let mut p = on;
    for _ in 0..tricks {
        p.trick(u64::MAX);
        assert_eq!(canonical(&game, &p, tricks), name);
        let mut swapped = p;
        swapped.hands.swap(0, 1);
        swapped.leader ^= 1;
        assert_eq!(canonical(&game, &swapped, tricks), name);
    }
    // The canonical position replays into the same cycle as a deal.
    let again = position(&game, &name.position);
    let Fate::Cycle(on2, t2) = fate(&again, MAX_TRICKS) else {
        panic!("the canonical position must loop");
    };
    assert_eq!(canonical(&game, &on2, t2), name);
}

/// A deal that ends is no cycle, and a cap too small to see either is undecided.
#[test]
fn an_ending_game_ends_and_a_short_cap_is_undecided() {
    let game = standard();
    let ends = position(
        &game,
        &format!("{}/{}", "-".repeat(26), "JJJJQQQQKKKKAAAA----------"),
    );
    assert!(matches!(fate(&ends, MAX_TRICKS), Fate::Ends(_)));
    assert!(matches!(
        fate(&position(&game, CASELLA), 3),
        Fate::Undecided
    ));
}

/// Loop walkers with the same seed find the same cycles, batch by batch or at once.
#[test]
fn a_loop_walker_is_the_same_in_batches() {
    let game = standard();
    let Fate::Cycle(on, tricks) = fate(&position(&game, CASELLA), MAX_TRICKS) else {
        panic!("Casella's deal must loop");
    };
    let mut once = LoopWalker::new(&game, 7, 3, &[(on, tricks)]);
    once.walk(1_100, &|_| {});
    let counted = AtomicU64::new(0);
    let count = |n: u64| {
        counted.fetch_add(n, Ordering::Relaxed);
    };
    let mut twice = LoopWalker::new(&game, 7, 3, &[(on, tricks)]);
    twice.walk(1_000, &count);
    twice.walk(100, &count);
    assert_eq!(counted.load(Ordering::Relaxed), 1_100);
    assert_eq!(once.out.found, twice.out.found);
    assert_eq!(
        (once.out.looped, once.out.ended, once.out.undecided),
        (twice.out.looped, twice.out.ended, twice.out.undecided)
    );
    assert_eq!(once.out.looped + once.out.ended + once.out.undecided, 1_100);
    assert!(
        once.out.looped > 0,
        "some changed positions fall back into the cycle"
    );
}

/// Every balanced deal of Casella's basin replays, as a deal, into a loop of the cycle's
/// length that starts where the walk says; player 1's enter the very cycle.
#[test]
fn every_balanced_deal_replays_into_the_cycle() {
    let game = standard();
    let [a, b] = game.parse_deal(CASELLA).unwrap();
    let start = Node::new(&a, &b, 0).unwrap();
    let r = reaching(&game, start, 100_000, 1024, &mut |_| {
        ControlFlow::Continue(())
    })
    .unwrap();
    assert_eq!(
        r.deals.len(),
        30,
        "the paper's count, either player to lead"
    );
    let cycle_tricks = r.basin.cycle.len() as u64;
    let mut s = game.scratch();
    for d in &r.deals {
        let [a, b] = game.parse_deal(&d.deal).unwrap();
        let p = game.play_deck(&[a, b].concat(), &mut s);
        let (cards, tricks) = p.cycle.expect("a loop");
        assert_eq!(p.outcome, Outcome::Loop);
        assert_eq!(
            (tricks.cycle_len, cards.cycle_len, tricks.loop_from),
            (cycle_tricks, r.basin.cycle_cards, u64::from(d.depth)),
            "{}",
            d.deal
        );
    }
    let on_cycle: HashSet<Node> = r.basin.cycle.iter().copied().collect();
    for d in r.deals.iter().filter(|d| d.leader == 1) {
        let [a, b] = game.parse_deal(&d.deal).unwrap();
        let mut n = Node::new(&a, &b, 0).unwrap();
        for _ in 0..d.depth {
            n = n.forward().unwrap();
        }
        assert!(on_cycle.contains(&n), "{}", d.deal);
    }
}
