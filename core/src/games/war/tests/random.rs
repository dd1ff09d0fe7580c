//! War over random games of every rule set: properties, the flawless game as the engine plays
//! it, won piles of deterministic pickups and kbWar's order.

use super::*;

// --- Properties over random games of every rule set. ---

/// Every pickup, the R program's last.
const PICKUPS: [Pickup; 8] = [
    Pickup::Shuffled,
    Pickup::P1First,
    Pickup::WinnerFirst,
    Pickup::LoserFirst,
    Pickup::Table,
    Pickup::WonPile,
    Pickup::Kbwar,
    Pickup::Bryer,
];

pub(in crate::games::war) fn all_rule_sets() -> Vec<WarRules> {
    let mut out = vec![bryer()];
    for war_down in [0, 1, 3] {
        for short in [ShortWar::Lose, ShortWar::LastCard] {
            for pickup in &PICKUPS[..7] {
                let pickup = *pickup;
                out.push(rules_with(|o| {
                    o.war_down = Some(war_down);
                    o.short_war = Some(short);
                    o.pickup = Some(pickup);
                    o.max_rounds = Some(3000);
                }));
            }
            // A reversed won pile under the deterministic pickups.
            for pickup in PICKUPS[1..7].iter().filter(|p| p.is_deterministic()) {
                out.push(rules_with(|o| {
                    (o.war_down, o.short_war) = (Some(war_down), Some(short));
                    (o.pickup, o.won_pile) = (Some(*pickup), Some(WonPile::Reversed));
                    o.max_rounds = Some(3000);
                }));
            }
        }
    }
    // Honorable War under every pickup, and the other deals.
    for honor in [1, 2] {
        for pickup in PICKUPS {
            out.push(rules_with(|o| {
                o.honor = Some(honor);
                o.pickup = Some(pickup);
                o.max_rounds = Some(3000);
            }));
        }
    }
    out.push(rules_with(|o| {
        o.deal = Some("even".into());
        o.max_rounds = Some(3000);
    }));
    out.push(rules_with(|o| {
        o.p1_cards = Some(Ranks(vec![13, 13, 13, 13]));
        o.honor = Some(1);
        o.max_rounds = Some(3000);
    }));
    out
}

#[test]
fn cards_are_conserved_after_every_round_under_every_rule_set() {
    for rules in all_rule_sets() {
        let war = War::new(rules).unwrap();
        for i in 0..20 {
            let mut rng = game_rng(11, i);
            let mut p = Position::new(war.capacity);
            p.deal(&war, &mut rng);
            for _ in 0..3000 {
                let ended = p.round(&war, &mut rng);
                // Cards in play plus cards removed (`--honor`) are the deck, and every card in
                // play is one of the deck's.
                let held = p.holding(0) + p.holding(1);
                assert_eq!(held + p.removed as usize, 52, "{:?}", war.rules);
                let mut all: Vec<Card> = (0..2)
                    .flat_map(|q| p.hands[q].iter().collect::<Vec<_>>())
                    .collect();
                all.sort_unstable();
                let mut deck = war.deck.clone();
                deck.sort_unstable();
                if war.rules.honor.is_none() {
                    assert_eq!(all, deck);
                } else {
                    let mut rest = deck.clone();
                    for c in &all {
                        let i = rest
                            .iter()
                            .position(|x| x == c)
                            .expect("a card of the deck");
                        rest.remove(i);
                    }
                }
                if ended.is_some() {
                    break;
                }
            }
        }
    }
}

#[test]
fn traced_replay_is_the_simulated_game_under_every_rule_set() {
    for rules in all_rule_sets() {
        let war = War::new(rules).unwrap();
        let mut s = war.scratch();
        for i in 0..30 {
            let simulated = war.play(&mut game_rng(4, i), &mut s);
            let mut lines = 0u64;
            let mut sink = |_: String| {
                lines += 1;
                ControlFlow::Continue(())
            };
            let traced = war
                .play_traced(&mut game_rng(4, i), Some(&mut sink), &Default::default())
                .unwrap();
            assert_eq!(simulated, traced, "{:?} game {i}", war.rules);
            assert!(lines > simulated.rounds.min(war.rules.max_rounds));
        }
    }
}

/// Regression pins: (seed, index) → the game's result. A change here changes every
/// published figure; make it only on purpose and say so.
#[test]
fn value_stability() {
    // Every pinned game's wars are single wars (deepest 1), so all of them are depth 1.
    let singles = |wars| {
        let mut d = [0; WAR_DEPTHS];
        d[0] = wars;
        d
    };
    let won = |rounds, p, wars, deepest| GameResult {
        stats: WarGame {
            wars,
            deepest,
            by_depth: singles(wars),
            ..WarGame::default()
        },
        ..GameResult::plain(rounds, Outcome::Player(p))
    };
    let p1_first = rules_with(|o| o.pickup = Some(Pickup::P1First));
    let looped = GameResult {
        stats: WarGame {
            wars: 9,
            deepest: 1,
            by_depth: singles(9),
            ..WarGame::default()
        },
        cycle: Some(Cycle {
            loop_from: 482,
            cycle_len: 2080,
        }),
        ..GameResult::plain(2562, Outcome::Loop)
    };
    let pins = [
        (rules_with(|_| {}), 0, 0, won(86, 0, 4, 1)),
        (rules_with(|_| {}), 5, 299_999, won(148, 0, 8, 1)),
        (bryer(), 0, 0, won(116, 0, 13, 1)),
        (bryer(), 1, 12_345, won(160, 1, 9, 1)),
        (p1_first, 3, 0, looped),
    ];
    for (rules, seed, index, want) in pins {
        let war = War::new(rules).unwrap();
        assert_eq!(
            war.play(&mut game_rng(seed, index), &mut war.scratch()),
            want
        );
    }
}

/// The vector path plays exactly the scalar reference's games under every rule set, decks of
/// other sizes included (where the CPU has no vector path, both runs are the scalar one).
#[test]
fn every_block_path_plays_the_scalar_references_games() {
    let mut sets = all_rule_sets();
    sets.push(rules_with(|o| {
        o.suits = Some(8);
        o.pickup = Some(Pickup::WonPile);
    }));
    sets.push(rules_with(|o| {
        o.suits = Some(12);
        o.war_down = Some(2);
        o.max_rounds = Some(20_000);
    }));
    sets.push(rules_with(|o| {
        o.ranks = Some(5);
        o.suits = Some(2);
        o.pickup = Some(Pickup::WinnerFirst);
    }));
    for rules in sets {
        let detected = War::new(rules).unwrap();
        let scalar = detected.clone().on_path(Path::Scalar);
        let (mut s1, mut s2) = (detected.scratch(), scalar.scratch());
        for i in 0..200 {
            assert_eq!(
                detected.play(&mut game_rng(8, i), &mut s1),
                scalar.play(&mut game_rng(8, i), &mut s2),
                "{:?} game {i} on {}",
                scalar.rules,
                detected.path.name()
            );
        }
    }
}

#[test]
fn a_trace_whose_reader_has_gone_stops_the_game() {
    for rules in all_rule_sets() {
        let war = War::new(rules).unwrap();
        let mut lines = 0u64;
        let mut sink = |_: String| {
            lines += 1;
            if lines < 3 {
                ControlFlow::Continue(())
            } else {
                ControlFlow::Break(())
            }
        };
        war.play_traced(&mut game_rng(4, 0), Some(&mut sink), &Default::default())
            .unwrap();
        assert!(lines <= 3, "{:?}: {lines} lines", war.rules);
    }
}

// --- The flawless game (flawless.rs) as the engine plays it. ---

/// The flawless probability is the share of games the engine ends after n/2 rounds without a
/// war, on every pickup (none of them comes into play): 400,000 games of a 4×2 deck, where it is
/// 1/14, within four standard errors; and a flawless deal ends with its winner holding all.
#[test]
fn flawless_games_are_the_warless_games_of_half_the_deck() {
    let exact = Flawless::of(4, 2).unwrap();
    for pickup in [Pickup::Shuffled, Pickup::P1First, Pickup::WonPile] {
        let war = with(|o| {
            (o.ranks, o.suits, o.pickup) = (Some(4), Some(2), Some(pickup));
        });
        let mut s = war.scratch();
        let n = 400_000u64;
        let hits = (0..n)
            .filter(|&i| {
                let r = war.play(&mut game_rng(21, i), &mut s);
                r.rounds == 4 && r.stats.wars == 0 && matches!(r.outcome, Outcome::Player(_))
            })
            .count() as f64;
        let p = exact.probability();
        let se = (p * (1.0 - p) / n as f64).sqrt();
        assert!(
            (hits / n as f64 - p).abs() < 4.0 * se,
            "{pickup:?}: {hits} of {n} against {p}"
        );
    }
    let war = with(|o| (o.ranks, o.suits) = (Some(4), Some(2)));
    let mut p = at(&war, &[4, 3, 2, 4], &[1, 2, 1, 3]);
    let ends: Vec<_> = (0..4).map(|_| p.round(&war, &mut game_rng(0, 0))).collect();
    assert_eq!(ends[..3], [None, None, None]);
    assert!(ends[3].is_some() && p.hand_len(1) == 0 && p.hand_len(0) == 8);
}

// --- Won piles of deterministic pickups (`--won-pile`) and kbWar's order. ---

/// Every card player `q` holds, hand then won pile, and where the won pile begins.
fn held(p: &Position, q: usize) -> (Vec<Card>, usize) {
    (p.hands[q].iter().collect(), p.hand_len(q))
}

#[test]
fn a_reversed_won_pile_is_played_last_won_first() {
    let war = with(|o| {
        (o.pickup, o.won_pile) = (Some(Pickup::P1First), Some(WonPile::Reversed));
    });
    let mut p = at(&war, &[4, 3, 2], &[1, 2, 3]);
    // 4 beats 1 and 3 beats 2: player 1's won pile is 4 1 3 2; 2 loses to 3.
    for _ in 0..3 {
        assert_eq!(round(&war, &mut p), None);
    }
    assert_eq!(held(&p, 0), (vec![4, 1, 3, 2], 0));
    assert_eq!(held(&p, 1), (vec![2, 3], 0));
    // Both hands are empty: each won pile is turned over, so 2 (won last) meets 3.
    assert_eq!(round(&war, &mut p), None);
    assert_eq!(held(&p, 0), (vec![3, 1, 4], 3));
    assert_eq!(held(&p, 1), (vec![2, 2, 3], 1));
    // Kept in order instead, 4 (won first) meets 2 (the kept pile is held as the hand's
    // bottom: the same game).
    let kept = with(|o| (o.pickup, o.won_pile) = (Some(Pickup::P1First), Some(WonPile::Kept)));
    let mut p = at(&kept, &[4, 3, 2], &[1, 2, 3]);
    for _ in 0..4 {
        assert_eq!(round(&kept, &mut p), None);
    }
    assert_eq!(held(&p, 0), (vec![1, 3, 2, 4, 2], 5));
}

/// A model of p1-first War (short war `lose`) whose won pile is kept apart and becomes the
/// hand, in the order won, when the hand runs out: rounds and winner (`None`: draw or cap).
fn kept_pile_model(deal: [Vec<Card>; 2], k: usize, max: u64) -> (u64, Option<usize>) {
    use std::collections::VecDeque;
    type Piles = [VecDeque<Card>; 2];
    fn lay(hand: &mut Piles, won: &mut Piles, table: &mut [Vec<Card>; 2], n: usize) {
        for p in 0..2 {
            for _ in 0..n {
                if hand[p].is_empty() {
                    hand[p].append(&mut won[p]);
                }
                table[p].push(hand[p].pop_front().unwrap());
            }
        }
    }
    let mut hand = deal.map(VecDeque::from);
    let mut won = [VecDeque::new(), VecDeque::new()];
    for round in 1..=max {
        let mut table: [Vec<Card>; 2] = [vec![], vec![]];
        lay(&mut hand, &mut won, &mut table, 1);
        while table[0].last() == table[1].last() {
            let short = [0, 1].map(|p| hand[p].len() + won[p].len() <= k);
            if short[0] || short[1] {
                return (
                    round,
                    (short[0] != short[1]).then_some(usize::from(short[0])),
                );
            }
            lay(&mut hand, &mut won, &mut table, k + 1);
        }
        let w = usize::from(table[1].last() > table[0].last());
        won[w].extend(table.concat());
        if hand[1 - w].len() + won[1 - w].len() == 0 {
            return (round, Some(w));
        }
    }
    (max, None)
}

/// A won pile kept in the order won is the same game as cards put under the hand: the engine's
/// `--won-pile kept` against the model that keeps the pile apart, on 1,000 deals.
#[test]
fn a_kept_won_pile_plays_as_cards_under_the_hand() {
    let war = with(|o| {
        (o.ranks, o.pickup, o.short_war) = (Some(6), Some(Pickup::P1First), Some(ShortWar::Lose));
        (o.won_pile, o.detect_loops, o.max_rounds) =
            (Some(WonPile::Kept), Some(DetectLoops::Off), Some(3000));
    });
    let mut s = war.scratch();
    let mut wins = 0;
    for i in 0..1000 {
        let mut p = Position::new(war.capacity);
        p.deal(&war, &mut game_rng(4, i));
        let model = kept_pile_model(hands(&p), 3, 3000);
        let r = war.play(&mut game_rng(4, i), &mut s);
        let winner = match r.outcome {
            Outcome::Player(w) => Some(usize::from(w)),
            _ => None,
        };
        assert_eq!((r.rounds, winner), model, "game {i}");
        wins += usize::from(winner.is_some());
    }
    assert!(wins > 500, "most games end: {wins}");
}

/// With a reversed won pile a loop is a repeat of both hands *and* where the won piles begin:
/// replayed, the position after loop_from rounds comes back after cycle_len more.
#[test]
fn reversed_won_pile_loops_repeat_hands_and_piles() {
    let war = with(|o| {
        (o.ranks, o.suits) = (Some(5), Some(4));
        (o.pickup, o.won_pile) = (Some(Pickup::Table), Some(WonPile::Reversed));
    });
    let mut s = war.scratch();
    let mut found = 0;
    for i in 0..2000 {
        let r = war.play(&mut game_rng(5, i), &mut s);
        let Some(c) = r.cycle else { continue };
        found += 1;
        let mut p = Position::new(war.capacity);
        p.deal(&war, &mut game_rng(5, i));
        for _ in 0..c.loop_from {
            round(&war, &mut p);
        }
        let at_mu = [held(&p, 0), held(&p, 1)];
        for _ in 0..c.cycle_len {
            assert_eq!(round(&war, &mut p), None);
        }
        assert_eq!([held(&p, 0), held(&p, 1)], at_mu, "game {i}");
    }
    assert!(found > 0, "no looping game among 2,000 deals");
}

#[test]
fn kbwar_takes_the_cards_as_laid_from_the_bottom() {
    let war = with(|o| o.pickup = Some(Pickup::Kbwar));
    // A plain battle: player 2's card, then player 1's.
    let mut p = at(&war, &[3, 9], &[2, 9]);
    assert_eq!(round(&war, &mut p), None);
    assert_eq!(hands(&p), [vec![9, 2, 3], vec![9]]);
    // A war: laid 5 5 | 1 2 3 | 4 6 7 | 9 2, taken from the bottom.
    let mut p = at(&war, &[5, 1, 2, 3, 9], &[5, 4, 6, 7, 2]);
    assert_eq!(round(&war, &mut p), Some(Outcome::Player(0)));
    assert_eq!(hands(&p)[0], [2, 9, 7, 6, 4, 3, 2, 1, 5, 5]);
}
