//! War's rules, point by point from the seed's R program and on hand-built deals; loops against
//! a brute force; properties over random games of every rule set; value pins.

use std::ops::ControlFlow;

use super::position::Position;
use super::*;
use crate::games::{Cycle, Outcome};
use crate::sim::rng::game_rng;

pub(super) fn rules_with(f: impl FnOnce(&mut WarOptions)) -> WarRules {
    let mut o = WarOptions::default();
    f(&mut o);
    WarRules::try_from(&o).expect("valid rules")
}

pub(super) fn bryer() -> WarRules {
    rules_with(|o| o.preset = Some(Preset::Bryer))
}

pub(super) fn at(war: &War, h0: &[Card], h1: &[Card]) -> Position {
    let mut p = Position::new(war.capacity);
    p.set_hands([h0, h1]);
    p
}

pub(super) fn hands(p: &Position) -> [Vec<Card>; 2] {
    [0, 1].map(|q| p.hands[q].iter().take(p.hand_len(q)).collect())
}

/// One round of a deterministic rule set.
pub(super) fn round(war: &War, p: &mut Position) -> Option<Outcome> {
    p.round(war, &mut NoRandomness)
}

// --- The R program of docs/rules/war.md, point by point (`check_cards`, `play_war`). ---

#[test]
fn bryer_battle_winner_puts_own_card_then_losers() {
    // R: p1 <- c(p1[-1], p1[1], p2[1]) when p1[1] > p2[1].
    let war = War::new(bryer());
    let mut p = at(&war, &[9, 1, 2], &[4, 3, 5]);
    assert_eq!(round(&war, &mut p), None);
    assert_eq!(hands(&p), [vec![1, 2, 9, 4], vec![3, 5]]);
    // R: p2 <- c(p2[-1], p2[1], p1[1]) when p2[1] > p1[1].
    assert_eq!(round(&war, &mut p), None);
    assert_eq!(hands(&p), [vec![2, 9, 4], vec![5, 3, 1]]);
}

#[test]
fn bryer_war_cards_follow_the_deciding_pair_player_1_first() {
    // Tie on 7: winners_cards = c(p1[1:4], p2[1:4]); the recursion on p1[5:], p2[5:] puts
    // 9 then 4 under player 1, then the set-aside 7 1 2 3 and 7 4 5 6.
    let war = War::new(bryer());
    let mut p = at(&war, &[7, 1, 2, 3, 9, 8], &[7, 4, 5, 6, 4, 2]);
    assert_eq!(round(&war, &mut p), None);
    assert_eq!(hands(&p), [vec![8, 9, 4, 7, 1, 2, 3, 7, 4, 5, 6], vec![2]]);
    assert_eq!((p.stats.wars, p.stats.deepest), (1, 1));
}

#[test]
fn bryer_nested_war_puts_the_inner_war_first() {
    // Ties on 7, then on 5; player 2 wins the third battle 3 v 6.
    let war = War::new(bryer());
    let p1 = [7, 1, 1, 1, 5, 2, 2, 2, 3, 9];
    let p2 = [7, 4, 4, 4, 5, 8, 8, 8, 6, 10];
    let mut p = at(&war, &p1, &p2);
    assert_eq!(round(&war, &mut p), None);
    let want_p2 = [10, 6, 3, 5, 2, 2, 2, 5, 8, 8, 8, 7, 1, 1, 1, 7, 4, 4, 4];
    assert_eq!(hands(&p), [vec![9], want_p2.to_vec()]);
    assert_eq!((p.stats.wars, p.stats.deepest), (2, 2));
}

#[test]
fn bryer_short_player_counted_from_the_tied_card_loses_player_1_first() {
    let war = War::new(bryer());
    // R: length(p1) < 5 with the tied card counted: 4 cards lose...
    let mut p = at(&war, &[6, 1, 1, 1], &[6, 2, 2, 2, 2, 2]);
    assert_eq!(round(&war, &mut p), Some(Outcome::Player(1)));
    let mut p = at(&war, &[6, 2, 2, 2, 2, 2], &[6, 1, 1, 1]);
    assert_eq!(round(&war, &mut p), Some(Outcome::Player(0)));
    // ...5 cards fight: 3 beats 2 and player 2 has nothing left.
    let mut p = at(&war, &[6, 1, 1, 1, 3], &[6, 2, 2, 2, 2]);
    assert_eq!(round(&war, &mut p), Some(Outcome::Player(0)));
    // Both short: R checks player 1 first, so player 1 loses (no draw).
    let mut p = at(&war, &[6, 1], &[6, 2, 2]);
    assert_eq!(round(&war, &mut p), Some(Outcome::Player(1)));
    // `lose` without the quirk: both short is a draw.
    let lose = War::new(rules_with(|o| o.short_war = Some(ShortWar::Lose)));
    let mut p = at(&lose, &[6, 1], &[6, 2, 2]);
    assert_eq!(round(&lose, &mut p), Some(Outcome::Draw));
}

#[test]
fn bryer_nested_war_counts_from_the_current_face_up_card() {
    // Second tie on 5: player 1 holds 5 2 2 from the face-up card (3 < 5) and loses.
    let war = War::new(bryer());
    let mut p = at(&war, &[7, 1, 1, 1, 5, 2, 2], &[7, 4, 4, 4, 5, 8, 8, 8, 8]);
    assert_eq!(round(&war, &mut p), Some(Outcome::Player(1)));
    assert_eq!((p.stats.wars, p.stats.deepest), (2, 2));
}

#[test]
fn bryer_rounds_count_the_deciding_round_and_cap_at_2000() {
    // R reports games = 0 for a game decided in its first round; we report rounds = 1.
    let r = War::play_deal(bryer(), [&[2], &[1]], &mut NoRandomness, None);
    assert_eq!((r.rounds, r.outcome), (1, Outcome::Player(0)));
    // A deal that cycles (with p1-first pickup; the preset keeps detection off): R stops
    // after 2000 counted rounds and calls it a draw; we report `capped` at 2000.
    let rules = WarRules {
        pickup: Pickup::P1First,
        ..bryer()
    };
    let r = War::play_deal(rules, [&[1, 3], &[4, 2]], &mut NoRandomness, None);
    assert_eq!((r.rounds, r.outcome), (2000, Outcome::Capped));
}

#[test]
fn bryer_deal_gives_player_2_the_rest_in_deck_order() {
    let war = War::new(bryer());
    let mut s = war.scratch();
    for i in 0..50 {
        s.detector.hare.deal(&war, &mut game_rng(9, i));
        let [h0, h1] = hands(&s.detector.hare);
        assert_eq!((h0.len(), h1.len()), (26, 26));
        // Player 2's cards, read as deck positions, are increasing: rank sequence 1..13
        // restarts only when the rank drops.
        let mut all = [h0.clone(), h1.clone()].concat();
        all.sort_unstable();
        let mut deck = war.deck.clone();
        deck.sort_unstable();
        assert_eq!(all, deck);
        let suit_changes = h1.windows(2).filter(|w| w[1] <= w[0]).count();
        assert!(suit_changes <= 3, "player 2 is not in deck order: {h1:?}");
    }
}

#[test]
fn bryer_preset_expands_to_the_r_program_settings() {
    let r = bryer();
    assert_eq!(
        (
            r.war_down,
            r.short_war,
            r.pickup,
            r.deal,
            r.detect_loops,
            r.max_rounds
        ),
        (
            3,
            ShortWar::Bryer,
            Pickup::Bryer,
            DealOrder::Bryer,
            false,
            2000
        )
    );
    let v = serde_json::to_value(&r).unwrap();
    assert_eq!(v["pickup"], "bryer");
    assert_eq!(v["deal"], "bryer");
    let c = rules_with(|_| {});
    assert_eq!(
        (
            c.war_down,
            c.short_war,
            c.pickup,
            c.deal,
            c.detect_loops,
            c.max_rounds
        ),
        (
            3,
            ShortWar::LastCard,
            Pickup::Shuffled,
            DealOrder::Shuffled,
            false,
            100_000
        )
    );
}

// --- Every rule option on hand-built deals. ---

pub(super) fn with(f: impl FnOnce(&mut WarOptions)) -> War {
    War::new(rules_with(f))
}

/// The war of `bryer_nested_war_puts_the_inner_war_first` under each deterministic pickup.
#[test]
fn each_pickup_order_after_a_double_war() {
    let p1 = [7, 1, 1, 1, 5, 2, 2, 2, 3, 9];
    let p2 = [7, 4, 4, 4, 5, 8, 8, 8, 6, 10];
    let cases: [(Pickup, &[Card]); 4] = [
        (
            Pickup::P1First,
            &[7, 1, 1, 1, 5, 2, 2, 2, 3, 7, 4, 4, 4, 5, 8, 8, 8, 6],
        ),
        (
            Pickup::WinnerFirst,
            &[7, 4, 4, 4, 5, 8, 8, 8, 6, 7, 1, 1, 1, 5, 2, 2, 2, 3],
        ),
        (
            Pickup::LoserFirst,
            &[7, 1, 1, 1, 5, 2, 2, 2, 3, 7, 4, 4, 4, 5, 8, 8, 8, 6],
        ),
        (
            Pickup::Table,
            &[7, 7, 1, 4, 1, 4, 1, 4, 5, 5, 2, 8, 2, 8, 2, 8, 3, 6],
        ),
    ];
    for (pickup, won) in cases {
        let war = with(|o| o.pickup = Some(pickup));
        let mut p = at(&war, &p1, &p2);
        assert_eq!(round(&war, &mut p), None);
        let want = [&[10][..], won].concat();
        assert_eq!(hands(&p), [vec![9], want], "{pickup:?}");
    }
}

#[test]
fn plain_battle_pickup_orders() {
    for (pickup, want) in [
        (Pickup::P1First, vec![2, 3, 9]),
        (Pickup::Table, vec![2, 3, 9]),
        (Pickup::WinnerFirst, vec![2, 9, 3]),
        (Pickup::Bryer, vec![2, 9, 3]),
        (Pickup::LoserFirst, vec![2, 3, 9]),
    ] {
        let war = with(|o| o.pickup = Some(pickup));
        let mut p = at(&war, &[3, 1], &[9, 2]);
        round(&war, &mut p);
        assert_eq!(hands(&p)[1], want, "{pickup:?}");
    }
}

#[test]
fn shuffled_pickup_returns_both_orders() {
    let war = with(|o| o.pickup = Some(Pickup::Shuffled));
    let mut seen = std::collections::HashSet::new();
    for i in 0..64 {
        let mut p = at(&war, &[3, 1], &[9, 2]);
        p.round(&war, &mut game_rng(1, i));
        seen.insert(hands(&p)[1].clone());
    }
    assert_eq!(seen.len(), 2, "{seen:?}");
}

#[test]
fn won_pile_is_played_only_when_the_hand_runs_out() {
    let war = with(|o| o.pickup = Some(Pickup::WonPile));
    let mut p = at(&war, &[5, 1], &[3, 2]);
    let mut rng = game_rng(0, 0);
    assert_eq!(p.round(&war, &mut rng), None);
    // Player 1 won 5 and 3 onto the won pile; the hand still holds 1.
    assert_eq!(hands(&p), [vec![1], vec![2]]);
    assert_eq!(p.won[0], 2);
    assert_eq!(p.round(&war, &mut rng), None);
    // 1 lost to 2; player 1's hand is empty, its won pile becomes the hand next round.
    assert_eq!((p.hand_len(0), p.won[0], p.won[1]), (0, 2, 2));
    assert_eq!(p.round(&war, &mut rng), None);
    assert_eq!(p.holding(0) + p.holding(1), 4);
}

#[test]
fn war_down_zero_and_one() {
    // 0 down: the next card is face up at once.
    let war = with(|o| {
        o.war_down = Some(0);
        o.pickup = Some(Pickup::P1First)
    });
    let mut p = at(&war, &[4, 6, 1], &[4, 2, 3]);
    assert_eq!(round(&war, &mut p), None);
    assert_eq!(hands(&p), [vec![1, 4, 6, 4, 2], vec![3]]);
    // 1 down.
    let war = with(|o| {
        o.war_down = Some(1);
        o.pickup = Some(Pickup::P1First)
    });
    let mut p = at(&war, &[4, 6, 9, 1], &[4, 2, 3, 5]);
    assert_eq!(round(&war, &mut p), None);
    assert_eq!(hands(&p), [vec![1, 4, 6, 9, 4, 2, 3], vec![5]]);
}

#[test]
fn short_war_lose_at_depths_1_2_3() {
    let war = with(|o| {
        o.short_war = Some(ShortWar::Lose);
        o.pickup = Some(Pickup::P1First)
    });
    // Depth 1: player 2 holds 3 cards after the tie, needs 4.
    let mut p = at(&war, &[5, 1, 1, 1, 1], &[5, 2, 2, 2]);
    assert_eq!(round(&war, &mut p), Some(Outcome::Player(0)));
    assert_eq!(p.stats.deepest, 1);
    // Depth 2: after one war of 3 down and a tied 6, player 1 holds 2 cards.
    let mut p = at(&war, &[5, 1, 1, 1, 6, 9, 9], &[5, 2, 2, 2, 6, 3, 3, 3, 3]);
    assert_eq!(round(&war, &mut p), Some(Outcome::Player(1)));
    assert_eq!((p.stats.wars, p.stats.deepest), (2, 2));
    // Depth 3: both run short together: draw.
    let a = [5, 1, 1, 1, 6, 1, 1, 1, 7, 1];
    let b = [5, 2, 2, 2, 6, 2, 2, 2, 7, 2];
    let mut p = at(&war, &a, &b);
    assert_eq!(round(&war, &mut p), Some(Outcome::Draw));
    assert_eq!((p.stats.wars, p.stats.deepest), (3, 3));
    assert_eq!(
        p.holding(0) + p.holding(1),
        20,
        "a draw returns the table to its owners"
    );
}

#[test]
fn short_war_last_card_at_depths_1_2_3() {
    let war = with(|o| {
        o.short_war = Some(ShortWar::LastCard);
        o.pickup = Some(Pickup::P1First)
    });
    // Depth 1: player 2 has 2 cards after the tie: lays 1 down, turns up its last (9).
    let mut p = at(&war, &[5, 1, 1, 1, 4, 8], &[5, 2, 9]);
    assert_eq!(round(&war, &mut p), None);
    assert_eq!(hands(&p)[1], vec![5, 1, 1, 1, 4, 5, 2, 9]);
    assert_eq!(hands(&p)[0], vec![8]);
    // Depth 2: tie again on the short player's last card: it has none left and loses.
    let mut p = at(&war, &[5, 1, 1, 1, 4, 8], &[5, 2, 2, 4]);
    assert_eq!(round(&war, &mut p), Some(Outcome::Player(0)));
    assert_eq!((p.stats.wars, p.stats.deepest), (2, 2));
    // Depth 3: a full war, then both short (1 down, last card up), a third tie, and both
    // have nothing left: draw.
    let mut p = at(&war, &[5, 1, 1, 1, 6, 2, 7], &[5, 3, 3, 3, 6, 4, 7]);
    assert_eq!(round(&war, &mut p), Some(Outcome::Draw));
    assert_eq!((p.stats.wars, p.stats.deepest), (3, 3));
    // A war that exhausts both players but is decided by their last cards.
    let mut p = at(&war, &[5, 1, 4], &[5, 2, 3]);
    assert_eq!(round(&war, &mut p), Some(Outcome::Player(0)));
    assert_eq!(hands(&p), [vec![5, 1, 4, 5, 2, 3], vec![]]);
}

// --- Loop detection: exact against a brute-force replay that stores every state. ---

type State = (Vec<Card>, Vec<Card>);

/// Plays a deterministic game, remembering every state; stops at the first repeat.
fn brute_force(war: &War, h0: &[Card], h1: &[Card]) -> GameResult<WarGame> {
    let mut p = at(war, h0, h1);
    let mut seen: std::collections::HashMap<State, u64> = Default::default();
    seen.insert((h0.to_vec(), h1.to_vec()), 0);
    for round_no in 1.. {
        if let Some(o) = round(war, &mut p) {
            return GameResult::plain(round_no, o);
        }
        let [a, b] = hands(&p);
        if let Some(&first) = seen.get(&(a.clone(), b.clone())) {
            let cycle = Cycle {
                loop_from: first,
                cycle_len: round_no - first,
            };
            return GameResult {
                cycle: Some(cycle),
                ..GameResult::plain(round_no, Outcome::Loop)
            };
        }
        seen.insert((a, b), round_no);
    }
    unreachable!()
}

pub(super) fn permutations(n: usize) -> Vec<Vec<Card>> {
    let mut out = vec![];
    let mut v: Vec<Card> = (1..=n as Card).collect();
    fn heap(k: usize, v: &mut Vec<Card>, out: &mut Vec<Vec<Card>>) {
        if k <= 1 {
            out.push(v.clone());
            return;
        }
        for i in 0..k {
            heap(k - 1, v, out);
            let j = if k.is_multiple_of(2) { i } else { 0 };
            v.swap(j, k - 1);
        }
    }
    heap(n, &mut v, &mut out);
    out
}

#[test]
fn loops_agree_with_brute_force_on_every_small_deal() {
    for n in [4u32, 6, 8] {
        for pickup in [Pickup::WinnerFirst, Pickup::LoserFirst, Pickup::P1First] {
            let rules = rules_with(|o| {
                o.ranks = Some(n);
                o.suits = Some(1);
                o.pickup = Some(pickup);
            });
            assert!(rules.detect_loops);
            let mut loops = 0;
            for deal in permutations(n as usize) {
                let (h0, h1) = deal.split_at(n as usize / 2);
                let got = War::play_deal(rules.clone(), [h0, h1], &mut NoRandomness, None);
                let want = brute_force(&War::new(rules.clone()), h0, h1);
                assert_eq!(
                    (got.rounds, got.outcome, got.cycle),
                    (want.rounds, want.outcome, want.cycle),
                    "{deal:?}"
                );
                loops += usize::from(got.outcome == Outcome::Loop);
            }
            if pickup == Pickup::P1First {
                assert!(
                    loops > 0,
                    "n = {n}: no deal loops, the check would be vacuous"
                );
            }
        }
    }
}

#[test]
fn looping_state_repeats_after_loop_from_plus_cycle_len() {
    let war = with(|o| o.pickup = Some(Pickup::P1First));
    let mut s = war.scratch();
    let mut found = 0;
    for i in 0..400 {
        let r = war.play(&mut game_rng(3, i), &mut s);
        let Some(c) = r.cycle else { continue };
        found += 1;
        let mut p = Position::new(war.capacity);
        p.deal(&war, &mut game_rng(3, i));
        for _ in 0..c.loop_from {
            round(&war, &mut p);
        }
        let at_mu = hands(&p);
        for _ in 0..c.cycle_len {
            assert_eq!(round(&war, &mut p), None);
        }
        assert_eq!(hands(&p), at_mu);
    }
    assert!(found > 0, "no looping game among 400 p1-first deals");
}

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

pub(super) fn all_rule_sets() -> Vec<WarRules> {
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
        let war = War::new(rules);
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
        let war = War::new(rules);
        let mut s = war.scratch();
        for i in 0..30 {
            let simulated = war.play(&mut game_rng(4, i), &mut s);
            let mut lines = 0u64;
            let mut sink = |_: String| {
                lines += 1;
                ControlFlow::Continue(())
            };
            let traced = war.play_traced(&mut game_rng(4, i), Some(&mut sink));
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
        let war = War::new(rules);
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
        let detected = War::new(rules);
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
        let war = War::new(rules);
        let mut lines = 0u64;
        let mut sink = |_: String| {
            lines += 1;
            if lines < 3 {
                ControlFlow::Continue(())
            } else {
                ControlFlow::Break(())
            }
        };
        war.play_traced(&mut game_rng(4, 0), Some(&mut sink));
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
