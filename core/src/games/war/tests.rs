//! War's rules, point by point from the seed's R program and on hand-built deals; loops against
//! a brute force; properties over random games of every rule set; value pins.

use std::ops::ControlFlow;

use super::position::Position;
use super::*;
use crate::games::{Cycle, Outcome};
use crate::rng::game_rng;

pub(super) fn rules_with(f: impl FnOnce(&mut WarSettings)) -> WarRules {
    let mut o = WarSettings::default();
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
    let war = War::new(bryer()).unwrap();
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
    let war = War::new(bryer()).unwrap();
    let mut p = at(&war, &[7, 1, 2, 3, 9, 8], &[7, 4, 5, 6, 4, 2]);
    assert_eq!(round(&war, &mut p), None);
    assert_eq!(hands(&p), [vec![8, 9, 4, 7, 1, 2, 3, 7, 4, 5, 6], vec![2]]);
    assert_eq!((p.stats.wars, p.stats.deepest), (1, 1));
}

#[test]
fn bryer_nested_war_puts_the_inner_war_first() {
    // Ties on 7, then on 5; player 2 wins the third battle 3 v 6.
    let war = War::new(bryer()).unwrap();
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
    let war = War::new(bryer()).unwrap();
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
    let lose = War::new(rules_with(|o| o.short_war = Some(ShortWar::Lose))).unwrap();
    let mut p = at(&lose, &[6, 1], &[6, 2, 2]);
    assert_eq!(round(&lose, &mut p), Some(Outcome::Draw));
}

#[test]
fn bryer_nested_war_counts_from_the_current_face_up_card() {
    // Second tie on 5: player 1 holds 5 2 2 from the face-up card (3 < 5) and loses.
    let war = War::new(bryer()).unwrap();
    let mut p = at(&war, &[7, 1, 1, 1, 5, 2, 2], &[7, 4, 4, 4, 5, 8, 8, 8, 8]);
    assert_eq!(round(&war, &mut p), Some(Outcome::Player(1)));
    assert_eq!((p.stats.wars, p.stats.deepest), (2, 2));
}

#[test]
fn bryer_rounds_count_the_deciding_round_and_cap_at_2000() {
    // R reports games = 0 for a game decided in its first round; we report rounds = 1.
    let r = War::play_deal(
        bryer(),
        [&[2], &[1]],
        &mut NoRandomness,
        (None, false),
        &Default::default(),
    )
    .unwrap();
    assert_eq!((r.rounds, r.outcome), (1, Outcome::Player(0)));
    // A deal that cycles (with p1-first pickup; the preset keeps detection off): R stops
    // after 2000 counted rounds and calls it a draw; we report `capped` at 2000.
    let rules = WarRules {
        pickup: Pickup::P1First,
        ..bryer()
    };
    let r = War::play_deal(
        rules,
        [&[1, 3], &[4, 2]],
        &mut NoRandomness,
        (None, false),
        &Default::default(),
    )
    .unwrap();
    assert_eq!((r.rounds, r.outcome), (2000, Outcome::Capped));
}

#[test]
fn bryer_deal_gives_player_2_the_rest_in_deck_order() {
    let war = War::new(bryer()).unwrap();
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

pub(super) fn with(f: impl FnOnce(&mut WarSettings)) -> War {
    War::new(rules_with(f)).unwrap()
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
                let got = War::play_deal(
                    rules.clone(),
                    [h0, h1],
                    &mut NoRandomness,
                    (None, false),
                    &Default::default(),
                )
                .unwrap();
                let want = brute_force(&War::new(rules.clone()).unwrap(), h0, h1);
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

mod random;

pub(super) use random::all_rule_sets;
