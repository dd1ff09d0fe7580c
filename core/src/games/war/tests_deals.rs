//! War beyond the fair deal (honorable War, even and fixed deals, grouping by what player 1
//! holds) and the exact answers (every deal against a brute force, the shuffled pickup's
//! Markov chain against a hand computation and a simulation).

use super::position::Position;
use super::tests::{at, hands, permutations, round, rules_with, with};
use super::*;
use crate::games::Outcome;
use crate::rng::game_rng;

// --- Honorable War, the other deals and grouping by what player 1 holds. ---

#[test]
fn honor_removes_a_narrow_loser_in_a_plain_battle() {
    for (k, p1, kept) in [(1, 5, false), (1, 6, true), (2, 6, false), (2, 7, true)] {
        let war = with(|o| {
            o.honor = Some(k);
            o.pickup = Some(Pickup::WinnerFirst);
        });
        let mut p = at(&war, &[p1, 1], &[4, 2]);
        assert_eq!(round(&war, &mut p), None);
        let won = if kept { vec![1, p1, 4] } else { vec![1, p1] };
        assert_eq!(hands(&p), [won, vec![2]], "honor {k}, {p1} beats 4");
        assert_eq!(p.removed, u32::from(!kept));
    }
}

#[test]
fn honor_removes_only_the_deciding_loser_of_a_war() {
    // A war on 7s; the face-up 5 loses to 6, within 1 rank: the 5 leaves, the face-down cards
    // and the 7 go to player 2 (winner's cards first).
    let war = with(|o| {
        o.honor = Some(1);
        o.pickup = Some(Pickup::WinnerFirst);
    });
    let mut p = at(&war, &[7, 1, 1, 1, 5, 9], &[7, 4, 4, 4, 6, 10]);
    assert_eq!(round(&war, &mut p), None);
    assert_eq!(hands(&p), [vec![9], vec![10, 7, 4, 4, 4, 6, 7, 1, 1, 1]]);
    assert_eq!(p.removed, 1);
    // Without honor nothing leaves.
    let war = with(|o| o.pickup = Some(Pickup::WinnerFirst));
    let mut p = at(&war, &[7, 1, 1, 1, 5, 9], &[7, 4, 4, 4, 6, 10]);
    round(&war, &mut p);
    assert_eq!(p.removed, 0);
    assert_eq!(hands(&p)[1].len(), 11);
}

#[test]
fn honor_ends_a_game_whose_loser_has_no_card_left() {
    let rules = rules_with(|o| {
        o.honor = Some(1);
        o.pickup = Some(Pickup::WinnerFirst);
    });
    let r = War::play_deal(
        rules,
        [&[3], &[2]],
        &mut NoRandomness,
        (None, false),
        &Default::default(),
    )
    .unwrap();
    assert_eq!((r.outcome, r.rounds), (Outcome::Player(0), 1));
}

#[test]
fn even_deal_gives_each_player_one_of_every_rank_per_two_suits() {
    let war = with(|o| o.deal = Some("even".into()));
    for i in 0..10 {
        let mut p = Position::new(war.capacity);
        p.deal(&war, &mut game_rng(3, i));
        for h in hands(&p) {
            let mut sorted = h.clone();
            sorted.sort_unstable();
            let want: Vec<Card> = (1..=13).flat_map(|r| [r, r]).collect();
            assert_eq!(sorted, want);
        }
    }
    let odd = WarRules::try_from(&WarSettings {
        deal: Some("even".into()),
        suits: Some(3),
        ..WarSettings::default()
    });
    assert!(odd.unwrap_err().to_string().contains("even"));
}

#[test]
fn p1_cards_deal_unequal_hands_and_bad_cards_are_named() {
    let war = with(|o| o.p1_cards = Some(Ranks(vec![13, 13, 13, 13])));
    let mut p = Position::new(war.capacity);
    p.deal(&war, &mut game_rng(0, 0));
    let [h0, h1] = hands(&p);
    assert_eq!(h0, [13, 13, 13, 13]);
    assert_eq!(h1.len(), 48);
    assert!(h1.iter().all(|&c| c != 13));
    let refused = |cards: Vec<Card>, want: &str| {
        let e = WarRules::try_from(&WarSettings {
            p1_cards: Some(Ranks(cards)),
            ..WarSettings::default()
        })
        .unwrap_err()
        .to_string();
        assert!(e.contains(want), "{e}");
    };
    refused(vec![14], "14");
    refused(vec![13, 13, 13, 13, 13], "rank 13 appears 5 times");
    refused((1..=13).flat_map(|r| [r; 4]).collect(), "player 2");
    // An odd hand is fine when player 1's cards are given: 3 + 49.
    let war = with(|o| o.p1_cards = Some(Ranks(vec![1, 2, 3])));
    let r = war.play(&mut game_rng(1, 1), &mut war.scratch());
    assert!(r.rounds > 0);
}

#[test]
fn by_p1_top_groups_each_game_by_the_aces_player_1_holds() {
    let war = with(|o| o.by = Some(By::P1Top));
    let mut s = war.scratch();
    let mut tally = crate::stats::histogram::Tally::<WarStats>::new(2);
    for i in 0..2000 {
        let mut rng = game_rng(5, i);
        let mut p = Position::new(war.capacity);
        p.deal(&war, &mut game_rng(5, i));
        let aces = p.hands[0].iter().filter(|&c| c == 13).count() as u16;
        let r = war.play(&mut rng, &mut s);
        assert_eq!(r.stats.group, Some(aces));
        tally.record(i, &r);
    }
    // Every game is in exactly one group, and the groups add up to the whole histogram.
    let mut sum = crate::stats::histogram::RoundHistogram::new(6);
    for g in &tally.groups {
        sum.merge(g).unwrap();
    }
    assert_eq!(sum, tally.rounds);
    assert_eq!(tally.groups.len(), 5);
}

// --- exact: every deal of a small deck, against a brute force. ---

/// Every ordering of `deck` (with repeats), by Heap's algorithm, independent of the unranking.
fn all_orders(deck: &[Card]) -> Vec<Vec<Card>> {
    permutations(deck.len())
        .into_iter()
        .map(|p| p.iter().map(|&i| deck[usize::from(i) - 1]).collect())
        .collect()
}

#[test]
fn exact_counts_every_distinct_deal_once_as_a_brute_force_does() {
    use std::collections::BTreeMap;
    let mut checked = 0;
    for (ranks, suits) in [
        (1, 2),
        (1, 4),
        (2, 1),
        (2, 2),
        (2, 3),
        (3, 2),
        (2, 4),
        (4, 2),
        (1, 6),
        (6, 1),
        (8, 1),
        (1, 8),
        (4, 1),
    ] {
        for pickup in [
            Pickup::P1First,
            Pickup::WinnerFirst,
            Pickup::LoserFirst,
            Pickup::Table,
        ] {
            for (down, short) in [(1, ShortWar::LastCard), (3, ShortWar::Lose)] {
                let rules = rules_with(|o| {
                    o.ranks = Some(ranks);
                    o.suits = Some(suits);
                    o.pickup = Some(pickup);
                    o.war_down = Some(down);
                    o.short_war = Some(short);
                });
                let war = War::new(rules.clone()).unwrap();
                // Brute force: every ordering, each distinct deal stored once with its result.
                let mut deals: BTreeMap<Vec<Card>, GameResult<WarGame>> = BTreeMap::new();
                for order in all_orders(&war.deck) {
                    if let std::collections::btree_map::Entry::Vacant(slot) = deals.entry(order) {
                        let order = slot.key();
                        let half = order.len() / 2;
                        let r = War::play_deal(
                            rules.clone(),
                            [&order[..half], &order[half..]],
                            &mut NoRandomness,
                            (None, false),
                            &Default::default(),
                        )
                        .unwrap();
                        slot.insert(r);
                    }
                }
                let n = war.deal_count().unwrap();
                assert_eq!(n, deals.len() as u128, "{ranks}x{suits}");
                let tally = crate::sim::engine::enumerate(
                    &war,
                    0..n as u64,
                    2,
                    &|_| {},
                    &Default::default(),
                )
                .unwrap();
                let mut brute = crate::stats::histogram::Tally::<WarStats>::new(2);
                for (i, r) in deals.values().enumerate() {
                    brute.record(i as u64, r);
                }
                assert_eq!(
                    tally.rounds, brute.rounds,
                    "{ranks}x{suits} {pickup:?} {down} {short:?}"
                );
                assert_eq!(tally.cycles, brute.cycles);
                assert_eq!(tally.stats, brute.stats);
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 13 * 8);
}

/// Monte Carlo meets exact: a million random deals of a small deck agree with every deal
/// played once, within 4 standard errors (fixed seeds: deterministic).
#[test]
fn simulation_agrees_with_exact_enumeration_on_small_decks() {
    use crate::stats::summary::{Distribution, Share};
    for (ranks, suits, pickup, down) in [
        (3, 4, Pickup::P1First, 3),
        (6, 2, Pickup::WinnerFirst, 1),
        (4, 3, Pickup::Table, 1),
    ] {
        let war = War::new(rules_with(|o| {
            o.ranks = Some(ranks);
            o.suits = Some(suits);
            o.pickup = Some(pickup);
            o.war_down = Some(down);
        }))
        .unwrap();
        let n = war.deal_count().unwrap() as u64;
        let exact =
            crate::sim::engine::enumerate(&war, 0..n, 2, &|_| {}, &Default::default()).unwrap();
        let sim =
            crate::sim::engine::simulate(&war, 17, 0..1_000_000, 2, &|_| {}, &Default::default())
                .unwrap();
        for o in [Outcome::Player(0), Outcome::Loop] {
            let count = |t: &crate::stats::histogram::Tally<WarStats>| {
                t.outcomes()
                    .into_iter()
                    .find(|x| x.0 == o)
                    .map_or(0, |x| x.1)
            };
            let p = count(&exact) as f64 / n as f64;
            let s = Share::new(count(&sim), 1_000_000);
            let se = (p * (1.0 - p) / 1e6).sqrt().max(1e-9);
            assert!(
                (s.share - p).abs() < 4.0 * se,
                "{ranks}x{suits} {pickup:?} {o:?}: {} vs {p}",
                s.share
            );
        }
        let mean = |t: &crate::stats::histogram::Tally<WarStats>| {
            let c: Vec<(u64, u64)> = t.rounds.counts_where(|_| true).collect();
            Distribution::from_counts(&c).unwrap()
        };
        let (e, m) = (mean(&exact), mean(&sim));
        assert!(
            (m.mean - e.mean).abs() < 4.0 * m.sem.unwrap(),
            "{ranks}x{suits}: {} vs {}",
            m.mean,
            e.mean
        );
    }
}

/// The Markov chain of the shuffled pickup against a second method: a million simulated games
/// (fixed seed) agree with its expected rounds and player 1's chance within 4 standard errors.
#[test]
fn shuffled_pickup_chain_agrees_with_simulation_on_4_and_6_cards() {
    use crate::stats::summary::Distribution;
    for (ranks, suits) in [(2, 2), (3, 2), (2, 3)] {
        let war = War::new(rules_with(|o| {
            o.ranks = Some(ranks);
            o.suits = Some(suits);
        }))
        .unwrap();
        let c = war.solve_chain(&Default::default()).unwrap().unwrap();
        let sim =
            crate::sim::engine::simulate(&war, 23, 0..1_000_000, 2, &|_| {}, &Default::default())
                .unwrap();
        let counts: Vec<(u64, u64)> = sim.rounds.counts_where(|_| true).collect();
        let d = Distribution::from_counts(&counts).unwrap();
        assert!(
            (d.mean - c.mean_rounds).abs() < 4.0 * d.sem.unwrap(),
            "{ranks}x{suits}: simulated {} vs chain {}",
            d.mean,
            c.mean_rounds
        );
        let p1 = c.outcomes[0].1;
        let got = sim.outcomes()[0].1 as f64 / 1e6;
        assert!(
            (got - p1).abs() < 4.0 * (p1 * (1.0 - p1) / 1e6).sqrt(),
            "{got} vs {p1}"
        );
        let total: f64 = c.outcomes.iter().map(|o| o.1).sum();
        assert!((total - 1.0).abs() < 1e-12, "the chain ends with certainty");
    }
    // 2 ranks × 2 suits by hand (classic: last-card, shuffled pickup), the 6 deals:
    // 11/22 and 22/11: the 2s win both rounds, the game ends in round 2 (p2, p1);
    // 12/12 and 21/21: a tie, then a war on the last cards ties again, both are out: a draw in
    //   round 1;
    // 12/21 and 21/12: after 2 rounds each holds a 1 and a 2 in random order; the next round
    //   ties with chance 1/2 (then the last cards tie: a draw), else its winner's next round
    //   is lost to the other's 2 and the hands are again a 1 and a 2 each: E = 1 + (1 + E)/2,
    //   E = 3, a draw after 5 rounds on average.
    // So p1 = p2 = 1/6, draw = 2/3, mean rounds (2 + 2 + 1 + 1 + 5 + 5)/6 = 8/3.
    let c = War::new(rules_with(|o| {
        o.ranks = Some(2);
        o.suits = Some(2);
    }))
    .unwrap()
    .solve_chain(&Default::default())
    .unwrap()
    .unwrap();
    assert_eq!(c.deals, 6);
    assert!((c.outcomes[0].1 - 1.0 / 6.0).abs() < 1e-12);
    assert!((c.outcomes[1].1 - 1.0 / 6.0).abs() < 1e-12);
    assert!((c.outcomes[2].1 - 2.0 / 3.0).abs() < 1e-12);
    assert!((c.mean_rounds - 8.0 / 3.0).abs() < 1e-12);
}
