//! The N-player rules (`multi`), point by point on hand-made deals; the N-player engine against
//! the two-player one; loops against a brute force; properties over random games.

use std::collections::HashMap;

use super::multi::Seats;
use super::tests::rules_with;
use super::*;
use crate::games::{Cycle, Outcome};
use crate::rng::game_rng;

/// `players` players with deterministic `pickup`, the other options set by `f`.
fn rules(players: u32, pickup: Pickup, f: impl FnOnce(&mut WarSettings)) -> WarRules {
    rules_with(|o| {
        o.players = Some(players);
        o.pickup = Some(pickup);
        f(o);
    })
}

/// The game on `hands` (top card first) and a position holding them.
fn at(rules: WarRules, hands: &[&[Card]]) -> (War, Seats) {
    let war = War::with_deck(rules, hands.concat());
    let mut s = Seats::new(hands.len(), war.capacity);
    s.set_hands(&hands.iter().map(|h| h.to_vec()).collect::<Vec<_>>());
    (war, s)
}

fn round(war: &War, s: &mut Seats) -> Option<Outcome> {
    s.round(war, &mut NoRandomness)
}

#[test]
fn the_highest_card_takes_every_card_laid() {
    let (war, mut s) = at(
        rules(3, Pickup::P1First, |_| {}),
        &[&[3, 1], &[9, 1], &[5, 1]],
    );
    assert_eq!(round(&war, &mut s), None);
    assert_eq!(s.hands(), [vec![1], vec![1, 3, 9, 5], vec![1]]);
    assert_eq!(s.stats().wars, 0);
}

#[test]
fn a_tie_for_the_highest_is_a_war_of_the_tied_players_only() {
    // Players 2 and 3 tie on 9; player 1's 5 stays on the table and goes to the war's winner.
    // War down 1: each lays one card face down and turns one.
    let r = rules(3, Pickup::P1First, |o| o.war_down = Some(1));
    let (war, mut s) = at(r, &[&[5, 7, 7], &[9, 2, 4, 1], &[9, 3, 8, 1]]);
    assert_eq!(round(&war, &mut s), None);
    assert_eq!(
        s.hands(),
        [vec![7, 7], vec![1], vec![1, 5, 9, 2, 4, 9, 3, 8]]
    );
    assert_eq!((s.stats().wars, s.stats().deepest), (1, 1));
}

#[test]
fn a_tie_below_the_highest_is_no_war() {
    let (war, mut s) = at(
        rules(3, Pickup::P1First, |_| {}),
        &[&[4, 1], &[4, 1], &[6, 1]],
    );
    assert_eq!(round(&war, &mut s), None);
    assert_eq!(s.hands(), [vec![1], vec![1], vec![1, 4, 4, 6]]);
    assert_eq!(s.stats().wars, 0);
}

#[test]
fn each_pickup_order_with_three_players() {
    // Players 1 and 3 tie on 9 and fight with one card down; player 3 wins 8 v 2.
    let hands: [&[Card]; 3] = [&[9, 3, 2, 1], &[5, 1], &[9, 4, 8, 1]];
    let after = |pickup| {
        let r = rules(3, pickup, |o| o.war_down = Some(1));
        let (war, mut s) = at(r, &hands);
        round(&war, &mut s);
        s.hands()[2].clone()
    };
    // Laid: p1 9 (3) 2; p2 5; p3 9 (4) 8.
    assert_eq!(after(Pickup::P1First), [1, 9, 3, 2, 5, 9, 4, 8]);
    assert_eq!(after(Pickup::WinnerFirst), [1, 9, 4, 8, 9, 3, 2, 5]);
    assert_eq!(after(Pickup::LoserFirst), [1, 9, 3, 2, 5, 9, 4, 8]);
    // Level 0: each player's face-up card and the card laid down after it, card by card in
    // player order (9 5 9, then 3 4); level 1: the deciding cards (2 8).
    assert_eq!(after(Pickup::Table), [1, 9, 5, 9, 3, 4, 2, 8]);
    // Loser-first differs from p1-first when the winner is not the last player.
    let r = rules(3, Pickup::LoserFirst, |_| {});
    let (war, mut s) = at(r, &[&[2, 1], &[9, 1], &[5, 1]]);
    round(&war, &mut s);
    assert_eq!(s.hands()[1], [1, 2, 5, 9]);
}

#[test]
fn short_war_last_card_lays_what_it_can_and_a_player_with_none_leaves_the_war() {
    // Players 1 and 2 tie on 9: player 1 holds one more card and turns it up (nothing down);
    // player 2 lays 3 down and turns a 2. Player 1's 7 wins.
    let r = rules(3, Pickup::P1First, |o| {
        o.short_war = Some(ShortWar::LastCard)
    });
    let (war, mut s) = at(r.clone(), &[&[9, 7], &[9, 1, 1, 1, 2, 6], &[3, 5]]);
    assert_eq!(round(&war, &mut s), None);
    assert_eq!(s.hands(), [vec![9, 7, 9, 1, 1, 1, 2, 3], vec![6], vec![5]]);
    // Player 1 has no card after the tied one: out of the war, so player 2 wins it without
    // laying more, and player 1 (holding nothing) is out of the game.
    let (war, mut s) = at(r, &[&[9], &[9, 1, 1, 1, 2], &[3, 5]]);
    assert_eq!(round(&war, &mut s), None);
    assert_eq!(s.hands(), [vec![], vec![1, 1, 1, 2, 9, 9, 3], vec![5]]);
    assert_eq!(s.eliminated(), [(1, 1)]);
}

#[test]
fn short_war_lose_puts_the_short_players_cards_on_the_table_and_puts_them_out() {
    // Player 1 ties on 9 with 3 cards left (war down 3 needs 4): their 3 cards go on the table
    // and to player 2, who wins the war without laying more.
    let r = rules(3, Pickup::P1First, |o| o.short_war = Some(ShortWar::Lose));
    let (war, mut s) = at(r, &[&[9, 1, 2, 3], &[9, 4, 4, 4, 4], &[5, 5]]);
    assert_eq!(round(&war, &mut s), None);
    assert_eq!(
        s.hands(),
        [vec![], vec![4, 4, 4, 4, 9, 1, 2, 3, 9, 5], vec![5]]
    );
    assert_eq!(s.eliminated(), [(1, 1)]);
}

#[test]
fn when_no_tied_player_can_fight_the_others_decide_the_round() {
    // Players 1 and 2 tie on 9 and both hold nothing more: they leave the round, and player 3's
    // 5 beats player 4's 2 and takes the whole table. Both are out, in the same round.
    let r = rules(4, Pickup::P1First, |_| {});
    let (war, mut s) = at(r.clone(), &[&[9], &[9], &[5, 1], &[2, 1]]);
    assert_eq!(round(&war, &mut s), None);
    assert_eq!(s.hands(), [vec![], vec![], vec![1, 9, 9, 5, 2], vec![1]]);
    assert_eq!(s.eliminated(), [(1, 1), (2, 1)]);
    assert_eq!(s.stats().wars, 1);
    // If the others tie too, they fight their own war.
    let (war, mut s) = at(r, &[&[9], &[9], &[5, 1, 1, 1, 2], &[5, 1, 1, 1, 7]]);
    assert_eq!(round(&war, &mut s), Some(Outcome::Player(3)));
    assert_eq!(s.stats().wars, 2);
}

#[test]
fn a_war_nobody_in_the_round_can_fight_is_a_draw() {
    let (war, mut s) = at(rules(3, Pickup::P1First, |_| {}), &[&[9], &[9], &[9]]);
    assert_eq!(round(&war, &mut s), Some(Outcome::Draw));
    // Every card goes back to the player who laid it.
    assert_eq!(s.hands(), [vec![9], vec![9], vec![9]]);
}

#[test]
fn a_player_without_cards_is_out_and_the_last_one_holding_cards_wins() {
    let (war, mut s) = at(rules(3, Pickup::P1First, |_| {}), &[&[2, 7], &[3], &[9, 1]]);
    assert_eq!(round(&war, &mut s), None);
    assert_eq!(s.eliminated(), [(2, 1)]);
    // Round 2: only players 1 and 3 turn a card.
    assert_eq!(round(&war, &mut s), None);
    assert_eq!(s.hands(), [vec![7, 1], vec![], vec![2, 3, 9]]);
    assert_eq!(round(&war, &mut s), None);
    assert_eq!(round(&war, &mut s), None);
    let mut end = None;
    for _ in 0..20 {
        end = end.or_else(|| round(&war, &mut s));
    }
    assert!(matches!(end, Some(Outcome::Player(_))), "{end:?}");
}

#[test]
fn the_deal_cuts_the_shuffled_deck_in_blocks_extra_cards_to_the_first_players() {
    let war = War::new(rules(5, Pickup::Shuffled, |_| {})).unwrap();
    let mut s = Seats::new(5, war.capacity);
    s.deal(&war, &mut game_rng(3, 1));
    let sizes: Vec<usize> = s.hands().iter().map(Vec::len).collect();
    assert_eq!(sizes, [11, 11, 10, 10, 10]);
    let mut all: Vec<Card> = s.hands().concat();
    all.sort_unstable();
    let mut deck = war.deck.clone();
    deck.sort_unstable();
    assert_eq!(all, deck);
}

/// With two players the N-player engine is the two-player game: the same deals give the same
/// rounds, outcomes, loops and war counts under every rule it shares with it.
#[test]
fn the_n_player_rules_with_two_players_are_the_two_player_game() {
    for pickup in [
        Pickup::P1First,
        Pickup::WinnerFirst,
        Pickup::LoserFirst,
        Pickup::Table,
        Pickup::WonPile,
    ] {
        for short_war in [ShortWar::Lose, ShortWar::LastCard] {
            for (down, ranks, suits) in [(3, 13, 4), (1, 5, 4), (2, 4, 3), (0, 6, 2)] {
                let r = rules(2, pickup, |o| {
                    o.short_war = Some(short_war);
                    o.war_down = Some(down);
                    o.ranks = Some(ranks);
                    o.suits = Some(suits);
                    o.max_rounds = Some(20_000);
                });
                let war = War::new(r).unwrap();
                let mut s = war.scratch();
                let mut d = LoopDetector::new(Seats::new(2, war.capacity));
                for i in 0..200 {
                    let two = war.play(&mut game_rng(11, i), &mut s);
                    let mut rng = game_rng(11, i);
                    d.hare.deal(&war, &mut rng);
                    let n = war.run_multi(&mut rng, &mut d, None);
                    assert_eq!(
                        (two.rounds, two.outcome, two.cycle, two.stats),
                        (n.rounds, n.outcome, n.cycle, n.stats),
                        "game {i}, {pickup:?} {short_war:?} down {down}, {ranks}×{suits}"
                    );
                }
            }
        }
    }
}

/// The first repeated state by brute force: every state kept in a map.
fn brute_force_loop(war: &War, mut s: Seats, max: u64) -> Option<Cycle> {
    let mut seen: HashMap<Vec<Vec<Card>>, u64> = HashMap::new();
    seen.insert(s.hands(), 0);
    for round in 1..=max {
        if round_ends(war, &mut s) {
            return None;
        }
        if let Some(&from) = seen.get(&s.hands()) {
            return Some(Cycle {
                loop_from: from,
                cycle_len: round - from,
            });
        }
        seen.insert(s.hands(), round);
    }
    None
}

fn round_ends(war: &War, s: &mut Seats) -> bool {
    round(war, s).is_some()
}

#[test]
fn loops_with_three_and_four_players_match_a_brute_force() {
    let mut loops = 0;
    for (players, ranks, suits, pickup) in [
        (3, 4, 3, Pickup::P1First),
        (3, 3, 4, Pickup::WinnerFirst),
        (4, 4, 4, Pickup::Table),
        (4, 5, 4, Pickup::LoserFirst),
    ] {
        let r = rules(players, pickup, |o| {
            o.ranks = Some(ranks);
            o.suits = Some(suits);
            o.war_down = Some(1);
        });
        let war = War::new(r).unwrap();
        let mut s = war.scratch();
        for i in 0..300 {
            let result = war.play(&mut game_rng(5, i), &mut s);
            let mut dealt = Seats::new(players as usize, war.capacity);
            dealt.deal(&war, &mut game_rng(5, i));
            let brute = brute_force_loop(&war, dealt, 100_000);
            assert_eq!(
                result.cycle, brute,
                "game {i} of {players} players, {pickup:?}"
            );
            loops += usize::from(brute.is_some());
        }
    }
    assert!(loops > 20, "only {loops} loops: the test checks too little");
}

#[test]
fn random_games_conserve_cards_and_replay_the_same_from_their_index() {
    for players in [3, 4, 7, 26] {
        for pickup in [Pickup::Shuffled, Pickup::WonPile, Pickup::Table] {
            let r = rules(players, pickup, |o| o.max_rounds = Some(5_000));
            let war = War::new(r).unwrap();
            let mut s = war.scratch();
            let mut outcomes = 0;
            for i in 0..100 {
                let a = war.play(&mut game_rng(9, i), &mut s);
                let b = war
                    .play_traced(&mut game_rng(9, i), None, &Default::default())
                    .unwrap();
                assert_eq!(a, b, "game {i}");
                let d = s.multi.as_ref().unwrap();
                let mut held: Vec<Card> = d.hare.hands().concat();
                held.sort_unstable();
                let mut deck = war.deck.clone();
                deck.sort_unstable();
                assert_eq!(held, deck, "game {i} of {players} players, {pickup:?}");
                if let Outcome::Player(p) = a.outcome {
                    assert!(u32::from(p) < players);
                    assert_eq!(d.hare.hands()[usize::from(p)].len(), war.deck.len());
                    outcomes += 1;
                }
            }
            assert!(
                outcomes > 50,
                "{players} players, {pickup:?}: {outcomes} won"
            );
        }
    }
}

#[test]
fn two_player_options_are_refused_for_three_players_by_name() {
    type Refused = (&'static str, fn(&mut WarSettings));
    let cases: [Refused; 10] = [
        ("quit_stats", |o| o.quit_stats = true),
        ("rules bryer", |o| o.preset = Some(Preset::Bryer)),
        ("pickup kbwar", |o| o.pickup = Some(Pickup::Kbwar)),
        ("won_pile reversed", |o| {
            o.pickup = Some(Pickup::Table);
            o.won_pile = Some(WonPile::Reversed)
        }),
        ("short_war bryer", |o| o.short_war = Some(ShortWar::Bryer)),
        ("pickup bryer", |o| o.pickup = Some(Pickup::Bryer)),
        ("deal even", |o| o.deal = Some("even".into())),
        ("p1_cards", |o| o.p1_cards = Some(Ranks(vec![13]))),
        ("honor", |o| o.honor = Some(1)),
        ("by", |o| o.by = Some(By::P1Top)),
    ];
    for (name, f) in cases {
        let mut o = WarSettings {
            players: Some(3),
            ..WarSettings::default()
        };
        f(&mut o);
        let e = WarRules::try_from(&o).unwrap_err().to_string();
        assert!(e.contains(name) && e.contains("players 3"), "{name}: {e}");
    }
    for players in [0, 1, 27] {
        let o = WarSettings {
            players: Some(players),
            ..WarSettings::default()
        };
        let e = WarRules::try_from(&o).unwrap_err().to_string();
        assert!(e.contains("2 to 26"), "{e}");
    }
    let o = WarSettings {
        players: Some(5),
        ranks: Some(2),
        suits: Some(2),
        ..WarSettings::default()
    };
    assert!(WarRules::try_from(&o)
        .unwrap_err()
        .to_string()
        .contains("4 cards"));
    // An odd deck deals unevenly to three players, and `exact` refuses them.
    let war = War::new(rules(3, Pickup::P1First, |o| {
        o.ranks = Some(5);
        o.suits = Some(1)
    }))
    .unwrap();
    assert!(war
        .deal_count()
        .unwrap_err()
        .to_string()
        .contains("players 3"));
}
