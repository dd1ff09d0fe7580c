//! The census's tests: it finds the known cycles from Casella's on a small budget, the same on
//! 1 thread as on 2; every cycle's name is the same from every position on it and its mirror;
//! every deal listed replays into its cycle at the depth stated; and a hand-made 6-card cycle's
//! basin is the one counted by hand and by playing every position forward.

use std::collections::HashSet;
use std::ops::ControlFlow;

use super::*;
use crate::games::bmn::backward::fate;
use crate::games::bmn::search::loops::{canonical, CASELLA};
use crate::games::bmn::search::plan::ROUND_TRIES;
use crate::games::bmn::BmnRules;
use crate::games::{Game, Outcome};

fn standard() -> Bmn {
    Bmn::new(BmnRules::britannica(13, 4, [1, 2, 3, 4])).unwrap()
}

fn seed(game: &Bmn, deal: &str) -> (Position, u64) {
    let [a, b] = game.parse_deal(deal).unwrap();
    match fate(&Position::dealt(&a, &b).unwrap(), MAX_TRICKS) {
        Fate::Cycle(on, tricks) => (on, tricks),
        _ => panic!("{deal} loops"),
    }
}

fn run(game: &Bmn, seeds: &[(Position, u64)], rounds: u64, threads: usize) -> Census {
    let cfg = CensusConfig {
        seed: 0,
        walkers: 16,
        tries: ROUND_TRIES,
        rounds,
        max_positions: 1 << 20,
        grow_from: Vec::new(),
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    pool.install(|| {
        census(game, &cfg, seeds, &Cancel::default(), &mut |_| {
            ControlFlow::Continue(())
        })
    })
}

/// From Casella's cycle, 12 rounds of 16 walkers (786,432 tries) find the second cycle
/// (`6e7ba7ae405e28e0`, issue 51) and the two others of the family, 120 balanced deals in
/// all; 1 thread finds exactly what 2 find. Each cycle's name is the same from every
/// position on it and from each mirrored, and every deal replays into it at its depth.
#[test]
fn the_census_finds_the_four_cycles_from_casellas_the_same_on_any_threads() {
    let game = standard();
    let seeds = [seed(&game, CASELLA)];
    let two = run(&game, &seeds, 12, 2);
    let one = run(&game, &seeds, 12, 1);
    let ids = |c: &Census| -> Vec<(String, usize)> {
        c.cycles
            .iter()
            .map(|k| (k.cycle.id.clone(), k.balanced_either_leads))
            .collect()
    };
    assert_eq!(ids(&one), ids(&two));
    assert_eq!((one.looped, one.ended), (two.looped, two.ended));
    let names: HashSet<&str> = two.cycles.iter().map(|c| c.cycle.id.as_str()).collect();
    assert!(names.contains("cbfece7bda400120"), "{names:?}");
    assert!(names.contains("6e7ba7ae405e28e0"), "{names:?}");
    assert!(two.cycles.len() >= 4, "{names:?}");
    let deals: usize = two.cycles.iter().map(|c| c.balanced_either_leads).sum();
    assert!(deals >= 120, "{deals}");
    for c in &two.cycles {
        one_name_all_round(&game, c);
        every_deal_replays(&game, c);
    }
}

/// Every position of the cycle, and each with the seats swapped, names it alike.
fn one_name_all_round(game: &Bmn, c: &Counted) {
    let [a, b] = game.parse_deal(&c.cycle.position).unwrap();
    let mut p = Position::dealt(&a, &b).unwrap();
    for _ in 0..c.cycle.tricks {
        assert_eq!(canonical(game, &p, c.cycle.tricks).id, c.cycle.id);
        let mut mirror = p;
        mirror.hands.swap(0, 1);
        mirror.leader ^= 1;
        assert_eq!(canonical(game, &mirror, c.cycle.tricks).id, c.cycle.id);
        p.trick(u64::MAX);
    }
}

/// Every deal listed loops, from the depth stated, with the cycle's length, and the position
/// it stands on there names the cycle.
fn every_deal_replays(game: &Bmn, c: &Counted) {
    assert!(c.complete);
    assert_eq!(c.deals.len(), c.balanced_either_leads);
    let mut s = game.scratch();
    for d in &c.deals {
        let [a, b] = game.parse_deal(&d.deal).unwrap();
        assert_eq!(a.len(), b.len(), "{}", d.deal);
        let p = game.play_deck(&[a.clone(), b.clone()].concat(), &mut s);
        let (cards, tricks) = p.cycle.expect("a loop");
        assert_eq!(p.outcome, Outcome::Loop);
        let stated = (c.cycle.tricks, c.cycle.cards, u64::from(d.depth));
        assert_eq!(
            (tricks.cycle_len, cards.cycle_len, tricks.loop_from),
            stated
        );
        let mut q = Position::dealt(&a, &b).unwrap();
        for _ in 0..d.depth {
            q.trick(u64::MAX);
        }
        assert_eq!(canonical(game, &q, c.cycle.tricks).id, c.cycle.id);
    }
}

/// Six cards, four plain and two J demanding 1 (`--ranks 6 --suits 1 --penalties 1,1,0,0`):
/// `--J-/J-`, player 1 to lead, lays `-`, `J`, `-` and player 2 takes them: `J-/--J-` with
/// player 2 to lead, its mirror image. So the cycle is 2 tricks and its own mirror. By hand,
/// the tricks that end in `--J-/J-` (player 1 took the pile: a suffix of his hand, of 2 to 4
/// cards) are `J-` laid J by player 1 then `-` (from `J--/-J-`), `-J-` (from the cycle's other
/// position) and `--J-` laid `-`,`-`,J,`-` (from `-J/--J-`); nothing leads to those two. With
/// the mirror's two: 2 positions on the cycle and 4 one trick before it; the balanced ones are
/// `J--/-J-` with player 1 to lead and its mirror, the same deal written seats swapped.
#[test]
fn a_six_card_cycle_has_the_basin_counted_by_hand() {
    let game = Bmn::new(BmnRules::britannica(6, 1, [1, 1, 0, 0])).unwrap();
    let found = run(&game, &[], 1, 1);
    assert_eq!(found.cycles.len(), 1, "one cycle of 6 cards: {found:?}");
    let c = &found.cycles[0];
    assert_eq!((c.cycle.position.as_str(), c.cycle.tricks), ("--J-/J-", 2));
    assert_eq!(c.per_depth, vec![2, 4]);
    assert_eq!((c.balanced_player_1_leads, c.balanced_either_leads), (1, 2));
    assert_eq!(c.distinct_deals, 1);
    assert_eq!(c.deals[0].deal, "J--/-J-");
    // And by playing every position of the deck forward: those that reach the cycle.
    let [a, b] = game.parse_deal("--J-/J-").unwrap();
    let on: HashSet<Node> = [Node::new(&a, &b, 0).unwrap(), Node::new(&b, &a, 1).unwrap()]
        .into_iter()
        .collect();
    let mut per_depth = vec![0u64; 3];
    for n in every_position(game.deck()) {
        let (mut m, mut depth) = (Some(n), 0);
        while let Some(x) = m.filter(|x| !on.contains(x) && depth < 50) {
            m = x.forward();
            depth += 1;
        }
        if m.is_some_and(|x| on.contains(&x)) {
            per_depth[depth] += 1;
        }
    }
    assert_eq!(per_depth, vec![2, 4, 0]);
}

/// Every position of `deck`: each distinct order of its cards, cut anywhere leaving both
/// hands a card, either player to lead.
fn every_position(deck: &[u8]) -> Vec<Node> {
    let mut orders: Vec<Vec<u8>> = vec![Vec::new()];
    for _ in 0..deck.len() {
        let mut next = Vec::new();
        for o in &orders {
            let mut left = deck.to_vec();
            for c in o {
                let i = left.iter().position(|x| x == c).unwrap();
                left.remove(i);
            }
            left.sort_unstable();
            left.dedup();
            for c in left {
                next.push([o.clone(), vec![c]].concat());
            }
        }
        orders = next;
    }
    let mut out = Vec::new();
    for o in &orders {
        for cut in 1..o.len() {
            for leader in 0..2 {
                out.push(Node::new(&o[..cut], &o[cut..], leader).unwrap());
            }
        }
    }
    out
}

/// A shake keeps every card.
#[test]
fn a_shake_keeps_the_cards() {
    let a: Vec<u8> = (0..20).collect();
    let b: Vec<u8> = (20..52).collect();
    let p = Position::dealt(&a, &b).unwrap();
    let mut rng = game_rng(1, 2);
    let mut cards = Vec::new();
    for _ in 0..1000 {
        let q = shake(&p, &mut rng, &mut cards);
        let mut all: Vec<u8> = q.hands[0].cards().chain(q.hands[1].cards()).collect();
        all.sort_unstable();
        assert_eq!(all, (0..52).collect::<Vec<u8>>());
    }
}
