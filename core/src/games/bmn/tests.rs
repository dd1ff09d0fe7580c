//! Beggar-my-neighbour's rules, from the published records and small hand-made deals.

use super::*;
use crate::games::Outcome;

fn standard() -> Bmn {
    Bmn::new(BmnRules::britannica(13, 4, [1, 2, 3, 4])).unwrap()
}

fn play(game: &Bmn, deal: &str) -> Played {
    let [a, b] = game.parse_deal(deal).unwrap();
    let mut s = game.scratch();
    s.start = Position::dealt(&a, &b).unwrap();
    play_from(&mut s, game.rules.max_rounds, &mut |_, _, _| {
        ControlFlow::Continue(())
    })
}

/// The published longest games (Richard Mann's list of records, as replayed by public
/// simulators): cards laid and tricks, every one.
pub(super) const RECORDS: [(&str, &str, u64, u64); 9] = [
    (
        "Paulhus 1999",
        "------------KAQ----J------/-JQQK---K----JK--QA-A-JA--",
        4791,
        670,
    ),
    (
        "Kleber 1999",
        "---JQ---K-A----A-J-K---QK-/-J-----------AJQA----K---Q",
        5790,
        805,
    ),
    (
        "Collins 2006",
        "A-QK------Q----KA-----J---/-JAK----A--Q----J---QJ--K-",
        6913,
        960,
    ),
    (
        "Mann and Wu 2007",
        "K-KK----K-A-----JAA--Q--J-/---Q---Q-J-----J------AQ--",
        7157,
        1007,
    ),
    (
        "Nessler 2012",
        "----Q------A--K--A-A--QJK-/-Q--J--J---QK---K----JA---",
        7207,
        1015,
    ),
    (
        "Anderson 2013",
        "--A-Q--J--J---Q--AJ-K---K-/-J-------Q------A--A--QKK-",
        7225,
        1016,
    ),
    (
        "Rucklidge 2014",
        "-J------Q------AAA-----QQ-/K----JA-----------KQ-K-JJK",
        7959,
        1122,
    ),
    (
        "Nessler 2021",
        "----K---A--Q-A--JJA------J/-----KK---------A-JK-Q-Q-Q",
        7972,
        1106,
    ),
    (
        "Nessler 2022",
        "---AJ--Q---------QAKQJJ-QK/-----A----KJ-K--------A---",
        8344,
        1164,
    ),
];

#[test]
fn every_published_record_replays_with_its_cards_and_tricks() {
    let game = standard();
    for (who, deal, cards, tricks) in RECORDS {
        let p = play(&game, deal);
        assert_eq!(
            (p.cards, p.tricks, p.cycle.is_some()),
            (cards, tricks, false),
            "{who}"
        );
    }
}

/// Casella et al. 2024 (arXiv 2403.13855): this deal never ends; its cycle is 62 tricks.
#[test]
fn casellas_deal_loops_with_its_62_trick_cycle() {
    let p = play(
        &standard(),
        "---K---Q-KQAJ-----AAJ--J--/----------Q----KQ-J-----KA",
    );
    assert_eq!(p.outcome, Outcome::Loop);
    let (cards, tricks) = p.cycle.unwrap();
    assert_eq!(tricks.cycle_len, 62);
    assert_eq!(p.cards, cards.loop_from + cards.cycle_len);
    assert_eq!(p.tricks, tricks.loop_from + tricks.cycle_len);
}

/// The 40-card variant without aces that beggarmypython's README shows looping "after 197
/// turns and 37 tricks" (J, Q, K demand 1, 2, 3; aces nothing).
#[test]
fn the_forty_card_game_without_aces_loops_where_published() {
    let game = Bmn::new(BmnRules::britannica(10, 4, [1, 2, 3, 0])).unwrap();
    let p = play(&game, "--Q------QJ----JK---/---Q---J-Q-KJ--K-K--");
    assert_eq!((p.outcome, p.cards, p.tricks), (Outcome::Loop, 197, 37));
}

fn small() -> Bmn {
    Bmn::new(BmnRules::britannica(4, 1, [1, 2, 3, 4])).unwrap()
}

#[test]
fn a_demand_paid_with_plain_cards_gives_the_pile_to_its_claimant_in_the_order_laid() {
    // p1 lays J, p2 pays one plain card: p1 takes J then -, under its hand, and leads.
    let mut p = Position::dealt(&[1, 0, 2, 3, 4], &[0, 4, 3, 2, 1]).unwrap();
    let t = p.trick(u64::MAX);
    assert_eq!((t.laid, t.taker, t.taken, t.ended), (2, 0, 2, None));
    assert_eq!(
        p.hands[0].cards().collect::<Vec<_>>(),
        vec![0, 2, 3, 4, 1, 0]
    );
    assert_eq!(p.leader, 0);
}

#[test]
fn a_penalty_card_laid_while_paying_passes_a_new_demand_back() {
    // p1: Q; p2 pays with a plain card, then a J; p1 owes one and pays plain: p2 takes all.
    let mut p = Position::dealt(&[2, 0, 0], &[0, 1, 0]).unwrap();
    let t = p.trick(u64::MAX);
    assert_eq!((t.laid, t.taker, t.taken), (4, 1, 4));
    assert_eq!(p.hands[1].cards().collect::<Vec<_>>(), vec![0, 2, 0, 1, 0]);
    assert_eq!(p.leader, 1);
}

#[test]
fn without_a_demand_the_players_alternate_and_a_player_with_no_card_loses() {
    // Only plain cards: 1, 2, 1, 2, ... then p1 has none and p2 takes the pile and wins.
    let mut p = Position::dealt(&[0, 0], &[0, 0]).unwrap();
    let t = p.trick(u64::MAX);
    assert_eq!((t.laid, t.taker, t.ended), (4, 1, Some(Outcome::Player(1))));
}

#[test]
fn the_game_ends_when_the_taker_holds_every_card() {
    // p1 lays A, p2 pays with its last cards: p1 takes them and holds all.
    let mut p = Position::dealt(&[4], &[0, 0, 0, 0]).unwrap();
    let t = p.trick(u64::MAX);
    assert_eq!((t.laid, t.taker, t.ended), (5, 0, Some(Outcome::Player(0))));
    // Paying runs out of cards halfway: the claimant takes the pile and wins.
    let mut p = Position::dealt(&[4], &[0, 0]).unwrap();
    let t = p.trick(u64::MAX);
    assert_eq!((t.laid, t.taker, t.ended), (3, 0, Some(Outcome::Player(0))));
}

#[test]
fn the_card_cap_ends_a_game_as_capped_at_the_cap() {
    let game = Bmn::new(BmnRules {
        preset: BmnPreset::Britannica,
        max_rounds: 100,
        ..standard().rules
    })
    .unwrap();
    let p = play(
        &game,
        "-J------Q------AAA-----QQ-/K----JA-----------KQ-K-JJK",
    );
    assert_eq!((p.outcome, p.cards), (Outcome::Capped, 100));
}

#[test]
fn deals_read_in_the_communitys_notation_and_full_card_names() {
    let game = small();
    assert_eq!(game.parse_deal("JQ/KA").unwrap(), [vec![1, 2], vec![3, 4]]);
    assert_eq!(
        game.parse_deal("Js, qh/K♠ A").unwrap(),
        [vec![1, 2], vec![3, 4]]
    );
    let e = game.parse_deal("JQ/KK").unwrap_err().to_string();
    assert!(
        e.contains("cards demanding 3") || e.contains("cards demanding 4"),
        "{e}"
    );
    assert!(game
        .parse_deal("JQKA")
        .unwrap_err()
        .to_string()
        .contains("HAND1/HAND2"));
    let e = game.parse_deal("JQ/KZ").unwrap_err().to_string();
    assert!(e.contains("hand 2") && e.contains("'Z'"), "{e}");
    let big = standard();
    let deal =
        "10 9 8 7 6 5 4 3 2 J Q K A - - - - - - - - - - - - -/Q K A J --------------------------";
    assert!(big.parse_deal(deal).is_err(), "13 + 4 plain cards, not 36");
}

#[test]
fn exact_deals_of_a_small_deck_each_once() {
    let game = Bmn::new(BmnRules::britannica(5, 2, [1, 2, 3, 4])).unwrap();
    // 10 cards: 2 plain, 2 of each penalty rank: 10! / 2!^5.
    assert_eq!(game.deal_count().unwrap(), 113_400);
    let mut s = game.scratch();
    let mut seen = std::collections::HashSet::new();
    for i in [0u64, 1, 56_700, 113_399] {
        game.play_deal_number(i, &mut s).unwrap();
        assert!(seen.insert(s.deck.clone()));
        assert_eq!(s.deck.len(), 10);
    }
}

fn camicia() -> Bmn {
    Bmn::from_settings(&BmnSettings {
        preset: Some(BmnPreset::Camicia),
        ranks: None,
        suits: None,
        penalties: None,
        max_rounds: DEFAULT_MAX_ROUNDS,
    })
    .unwrap()
}

/// Camicia's never-ending deals as published: the first found (drago-96/cavacamisa,
/// infinite/20170217.txt, a loop from the deal itself; its log stops at the half-way mirror
/// image, 42 tricks) and one of each of four cycles of the exhaustive search's table
/// (N1k06/cudacamicia, docs/full_162_table.csv: cycle in cards and tricks, cards before it).
#[test]
fn camicias_published_never_ending_deals_loop_as_published() {
    let game = camicia();
    for (deal, cycle_cards, cycle_tricks, before) in [
        ("0030202030310000031000100200002000000010", 546, 84, 0),
        ("0000000203100000010020230203000100300010", 546, 84, 20),
        ("0000000100000202021010000300301002030300", 156, 20, 3),
        ("0000100032002001000132020000000010030003", 188, 36, 8),
        ("0000000000001003030000020201203020310010", 233, 33, 23),
    ] {
        let p = play(&game, deal);
        let (cards, tricks) = p.cycle.expect("a loop");
        assert_eq!(
            (cards.cycle_len, tricks.cycle_len, cards.loop_from),
            (cycle_cards, cycle_tricks, before),
            "{deal}"
        );
    }
}

#[test]
fn the_camicia_preset_round_trips_through_its_json_rules_and_writes_digits() {
    let game = camicia();
    let json = serde_json::to_value(game.rules()).unwrap();
    assert_eq!(json["preset"], "camicia");
    assert_eq!(
        (json["ranks"].as_u64(), json["suits"].as_u64()),
        (Some(10), Some(4))
    );
    let back = crate::games::from_rules::<Bmn>(&json).unwrap();
    assert_eq!(back.rules(), game.rules());
    assert!(game
        .describe()
        .starts_with("camicia: 10 ranks × 4 suits, J Q K A demand 1 2 3 0"));
    let camicia = vec![("rules", "camicia".to_string())];
    assert_eq!(changed_settings(game.rules()), camicia);
    // Britannica's JSON is as it was before presets.
    let britannica = serde_json::to_value(standard().rules()).unwrap();
    assert!(britannica.get("preset").is_none());
    assert!(crate::games::from_rules::<Bmn>(&britannica).is_ok());
    // The community's example reads, and a deal is written back in the same notation.
    let example = "0130023302200030010000000010000000000021";
    let [a, b] = game.parse_deal(example).unwrap();
    assert_eq!(game.show_deal(&[a, b].concat()), example);
    let e = game.parse_deal(&example[1..]).unwrap_err().to_string();
    assert!(e.contains("needs 40 digits, not 39"), "{e}");
    // A changed deck names no preset.
    let more = Bmn::from_settings(&BmnSettings {
        penalties: Some(Penalties([1, 2, 3, 4])),
        ..Bmn::settings_of(game.rules())
    })
    .unwrap();
    assert!(more.describe().starts_with("10 ranks"));
    assert_eq!(
        changed_settings(more.rules()),
        [camicia, vec![("penalties", "1,2,3,4".to_string())]].concat()
    );
}

/// Every position of a game, hands of any sizes, is written so that `parse_deal` reads it
/// back (the leader's hand first): under camicia the digit notation for equal hands, else each
/// hand's digits joined by `/`; under britannica `HAND1/HAND2`.
#[test]
fn every_position_written_reads_back_with_its_own_hands() {
    let deal = "0000000100000202021010000300301002030300";
    for game in [camicia(), standard()] {
        let deck = if game.rules().preset == BmnPreset::Camicia {
            deck_of(&game, deal)
        } else {
            deck_of(
                &game,
                "K-KK----K-A-----JAA--Q--J-/---Q---Q-J-----J------AQ--",
            )
        };
        let (mut unequal, mut written) = (0, Vec::new());
        let mut each = |p: &Position, _: &Trick, _: u64| {
            written.push((p.leader, game.show_position(p), *p));
            ControlFlow::Continue(())
        };
        let half = deck.len() / 2;
        game.play_hands(&[deck[..half].to_vec(), deck[half..].to_vec()], &mut each)
            .unwrap();
        for (leader, text, p) in &written {
            let [a, b] = game
                .parse_deal(text)
                .unwrap_or_else(|e| panic!("{text}: {e:?}"));
            let lead: Vec<u8> = p.hands[*leader].cards().collect();
            let other: Vec<u8> = p.hands[leader ^ 1].cards().collect();
            assert_eq!((a, b), (lead.clone(), other), "{text}");
            unequal += usize::from(lead.len() * 2 != deck.len());
        }
        assert!(unequal > 10, "the game passes through uneven hands");
    }
    // Under camicia the unequal hands are written with a slash, and only camicia reads them.
    let game = camicia();
    let uneven = "0000000100000202021010000/300301002030300";
    assert_eq!(game.parse_deal(uneven).unwrap()[0].len(), 25);
    assert!(standard().parse_deal(uneven).is_err());
}

/// Plays `deck` (halves to the players) with cap `max_rounds` on the reference and on the phase
/// engine, checks they agree on everything they report, and returns the result.
fn both_engines(game: &Bmn, deck: &[u8], max_rounds: u64) -> Played {
    let half = deck.len() / 2;
    let mut s = game.scratch();
    s.start = Position::dealt(&deck[..half], &deck[half..]).unwrap();
    let reference = play_from(&mut s, max_rounds, &mut |_, _, _| ControlFlow::Continue(()));
    let fast = phase::play(&deck[..half], &deck[half..], max_rounds);
    assert_eq!(
        fast,
        reference,
        "deal {} with cap {max_rounds}",
        game.show_deal(deck)
    );
    reference
}

fn deck_of(game: &Bmn, deal: &str) -> Vec<u8> {
    game.parse_deal(deal).unwrap().concat()
}

/// Caps around a game's end and inside it: the cap one card before the end, at it, after it,
/// and a few small ones (a capped trick is not counted, and its cards stop at the cap).
fn caps_around(cards: u64) -> [u64; 6] {
    [
        1,
        2,
        cards / 2 + 1,
        cards.saturating_sub(1).max(1),
        cards.max(1),
        cards + 1,
    ]
}

#[test]
fn the_phase_engine_replays_every_record_and_loop_as_the_reference_does() {
    let game = standard();
    for (who, deal, cards, tricks) in RECORDS {
        let deck = deck_of(&game, deal);
        let p = both_engines(&game, &deck, DEFAULT_MAX_ROUNDS);
        assert_eq!((p.cards, p.tricks), (cards, tricks), "{who}");
        for cap in caps_around(cards) {
            both_engines(&game, &deck, cap);
        }
    }
    let casella = deck_of(
        &game,
        "---K---Q-KQAJ-----AAJ--J--/----------Q----KQ-J-----KA",
    );
    let p = both_engines(&game, &casella, DEFAULT_MAX_ROUNDS);
    assert_eq!(
        (p.outcome, p.cycle.unwrap().1.cycle_len),
        (Outcome::Loop, 62)
    );
    // Caps before the loop is seen, and after (a loop is reported whatever the cap past it).
    for cap in [1, 33, 34, 35, 200, 473, 474, 475, 1000] {
        both_engines(&game, &casella, cap);
    }
    let forty = Bmn::new(BmnRules::britannica(10, 4, [1, 2, 3, 0])).unwrap();
    let deck = deck_of(&forty, "--Q------QJ----JK---/---Q---J-Q-KJ--K-K--");
    let p = both_engines(&forty, &deck, DEFAULT_MAX_ROUNDS);
    assert_eq!((p.outcome, p.cards, p.tricks), (Outcome::Loop, 197, 37));
}

/// Random deals of `game` as `simulate` deals them (seed `seed`), each played on both engines
/// without a cap and with a cap inside the game; returns how many looped.
fn random_deals_on_both_engines(game: &Bmn, seed: u64, deals: u64) -> u64 {
    let mut deck = game.deck().to_vec();
    let mut loops = 0;
    for i in 0..deals {
        deck.copy_from_slice(game.deck());
        shuffle(&mut crate::rng::game_rng(seed, i), &mut deck);
        let p = both_engines(game, &deck, DEFAULT_MAX_ROUNDS);
        loops += u64::from(p.outcome == Outcome::Loop);
        both_engines(game, &deck, 1 + i % p.cards.max(1));
    }
    loops
}

/// Fewer deals unoptimised: the release test run plays them all.
fn deals(release: u64) -> u64 {
    if cfg!(debug_assertions) {
        release / 20
    } else {
        release
    }
}

#[test]
fn the_phase_engine_gives_the_reference_game_for_every_random_deal() {
    random_deals_on_both_engines(&standard(), 7, deals(200_000));
}

#[test]
fn the_phase_engine_gives_the_reference_game_on_small_decks_and_other_penalties() {
    // (ranks, suits, demands of J Q K A): small decks, demands of 0 (the rank is a plain
    // card), a lone demanding rank (where about 1 deal in 150 loops, with cycles of some
    // thousand cards), 32 penalty cards (the most the phase engine takes, with plain cards
    // beside them and without), and a 64-card deck.
    let decks: [(usize, usize, [u8; 4]); 11] = [
        (4, 1, [1, 2, 3, 4]),
        (6, 2, [1, 2, 3, 4]),
        (7, 2, [1, 2, 3, 4]),
        (8, 2, [1, 2, 3, 4]),
        (10, 4, [1, 2, 3, 0]),
        (13, 4, [4, 4, 4, 4]),
        (13, 4, [2, 0, 0, 0]),
        (7, 4, [2, 0, 0, 0]),
        (5, 8, [1, 2, 3, 4]),
        (4, 8, [1, 2, 3, 4]),
        (16, 4, [2, 1, 4, 3]),
    ];
    let mut loops = 0;
    for (ranks, suits, penalties) in decks {
        let game = Bmn::new(BmnRules::britannica(ranks, suits, penalties)).unwrap();
        assert!(phase::fits(game.deck()), "{ranks}x{suits}");
        let engine = game.engine();
        assert!(
            matches!(engine.as_deref(), Some("phase" | "lanes" | "lanes-avx2")),
            "{engine:?}"
        );
        loops += random_deals_on_both_engines(&game, 3, deals(20_000));
    }
    assert!(
        loops >= deals(20_000) / 200,
        "only {loops} loops: the test should exercise many"
    );
}

#[test]
fn decks_the_phase_engine_cannot_hold_are_played_by_the_reference() {
    // (ranks, suits, demands): 36 and 64 penalty cards (over 32), a demand of 5 (over 4).
    for (ranks, suits, penalties) in [
        (4, 9, [1, 2, 3, 4]),
        (4, 16, [1, 2, 3, 4]),
        (13, 4, [1, 2, 3, 5]),
    ] {
        let game = Bmn::new(BmnRules::britannica(ranks, suits, penalties)).unwrap();
        assert!(!phase::fits(game.deck()), "{ranks}x{suits} {penalties:?}");
        assert_eq!(game.engine().as_deref(), Some("cards"));
        // It still plays: every deal of the reference's, through the game's own entry.
        let mut s = game.scratch();
        let r = game.play(&mut crate::rng::game_rng(1, 0), &mut s);
        assert!(r.rounds > 0);
    }
}
