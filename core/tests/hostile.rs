//! Every public entry point of the library given hostile values (empty, reversed, past the end,
//! zero, huge, not a number): each returns an error, never panics, never plays a game it cannot
//! play. A crate others build on must hold this whatever its caller passes.

use warsim_core::cancel::Cancel;
use warsim_core::games::bmn::{Bmn, BmnRules};
use warsim_core::games::jitsu::{Jitsu, JitsuSettings, Strategy};
use warsim_core::games::rps::{Elimination, RpsSettings};
use warsim_core::games::shotgun::{Shotgun, ShotgunRules};
use warsim_core::games::snap::{Snap, SnapSettings};
use warsim_core::games::war::{multi, War, WarRules, WarSettings};
use warsim_core::games::{from_rules, Game};
use warsim_core::rng::game_rng;
use warsim_core::sim::precision::{self, Target};
use warsim_core::sim::{engine, shard::Shard};
use warsim_core::stats::histogram::Tally;

fn war_rules() -> WarRules {
    WarRules::try_from(&WarSettings::default()).unwrap()
}

fn bmn(ranks: usize, suits: usize, penalties: [u8; 4]) -> Result<Bmn, String> {
    Bmn::new(BmnRules::britannica(ranks, suits, penalties)).map_err(|e| e.to_string())
}

#[test]
fn beggar_my_neighbour_refuses_decks_it_cannot_hold() {
    // 104 cards: a hand is a ring of 64, so hands would silently lose cards.
    let e = bmn(13, 8, [1, 2, 3, 4]).unwrap_err();
    assert!(e.contains("at most 64"), "{e}");
    // Fewer than the four penalty ranks: `ranks - 4` underflowed.
    for (ranks, suits) in [(2, 4), (0, 4), (13, 0), (usize::MAX, 2), (3, 1)] {
        assert!(bmn(ranks, suits, [1, 2, 3, 4]).is_err(), "{ranks}x{suits}");
    }
    // An odd deck cannot be dealt in halves.
    assert!(bmn(5, 1, [1, 2, 3, 4]).is_err());
    let mut rules = BmnRules::britannica(13, 4, [1, 2, 3, 4]);
    rules.max_rounds = 0;
    assert!(Bmn::new(rules).is_err());
    // A demand over 9, which --penalties refuses, indexed past the demand counts.
    for penalties in [[10, 1, 2, 3], [200, 1, 2, 3], [1, 2, 3, 255]] {
        let e = bmn(13, 4, penalties).unwrap_err();
        assert!(e.contains("from 0 to 9"), "{e}");
    }
    assert!(bmn(13, 4, [1, 2, 3, 4]).is_ok());
}

#[test]
fn every_game_refuses_rules_no_option_could_name() {
    let mut cases: Vec<(&str, Result<(), String>)> = Vec::new();
    for (what, change) in [
        (
            "no ranks",
            &(|r: &mut WarRules| r.ranks = 0) as &dyn Fn(&mut WarRules),
        ),
        ("no suits", &|r| r.suits = 0),
        ("a deck too large", &|r| {
            r.ranks = u32::MAX;
            r.suits = u32::MAX
        }),
        ("one player", &|r| r.players = 1),
        ("a cap of 0", &|r| r.max_rounds = 0),
        ("a card not of the deck", &|r| r.p1_cards = Some(vec![99])),
    ] {
        let mut r = war_rules();
        change(&mut r);
        cases.push((what, War::new(r).map(drop).map_err(|e| e.to_string())));
    }
    let shotgun = |mix: [f64; 3]| {
        Shotgun::new(ShotgunRules {
            mix,
            max_rounds: 10,
        })
    };
    for mix in [
        [f64::NAN, 0.5, 0.5],
        [-1.0, 1.0, 1.0],
        [0.0; 3],
        [f64::INFINITY, 0.0, 0.0],
    ] {
        cases.push(("a mix", shotgun(mix).map(drop).map_err(|e| e.to_string())));
    }
    let snap = |players, faces, copies| {
        Snap::new(SnapSettings {
            players,
            faces,
            copies,
            max_rounds: 10,
        })
    };
    for (p, f, c) in [
        (0, 13, 4),
        (1, 13, 4),
        (2, 0, 4),
        (2, 13, 0),
        (usize::MAX, 13, 4),
    ] {
        cases.push(("snap", snap(p, f, c).map(drop).map_err(|e| e.to_string())));
    }
    for players in [0, 1, usize::MAX] {
        let r = RpsSettings {
            players,
            max_rounds: 10,
        };
        cases.push((
            "rps",
            Elimination::new(r).map(drop).map_err(|e| e.to_string()),
        ));
    }
    let jitsu = JitsuSettings {
        strategy: Strategy::Random,
        max_rounds: 0,
    };
    cases.push((
        "jitsu cap 0",
        Jitsu::new(jitsu).map(drop).map_err(|e| e.to_string()),
    ));
    for (what, result) in cases {
        assert!(result.is_err(), "{what}: accepted");
    }
}

#[test]
fn rules_read_back_are_checked_as_rules_built_in_code() {
    for bad in [
        serde_json::json!(null),
        serde_json::json!({"ranks": 13}),
        serde_json::json!({"ranks": 13, "suits": 8, "penalties": [1, 2, 3, 4], "max_rounds": 5}),
        serde_json::json!({"ranks": 13, "suits": 4, "penalties": [50, 1, 2, 3], "max_rounds": 9}),
    ] {
        assert!(from_rules::<Bmn>(&bad).is_err(), "{bad}");
    }
}

#[test]
#[allow(clippy::reversed_empty_ranges)] // the point of the test
fn ranges_that_run_backwards_or_past_the_deals_are_refused() {
    let game = bmn(7, 2, [1, 2, 3, 4]).unwrap();
    let none = &|_| {};
    let cancel = Cancel::default();
    let e = engine::simulate(&game, 0, 10..5, 1, none, &cancel).unwrap_err();
    assert!(e.to_string().contains("runs backwards"), "{e}");
    // An empty range is no error: it plays nothing.
    assert_eq!(
        engine::simulate(&game, 0, 5..5, 1, none, &cancel)
            .unwrap()
            .games,
        0
    );
    let deals = game.deal_count().unwrap() as u64;
    let e = engine::enumerate(&game, deals - 1..deals + 2, 1, none, &cancel).unwrap_err();
    assert!(e.to_string().contains("run past"), "{e}");
    assert!(engine::enumerate(&game, 9..3, 1, none, &cancel).is_err());
    let all = engine::enumerate(&game, 0..deals, 2, none, &cancel).unwrap();
    assert_eq!(all.games, deals);
    // A game with no enumeration says so.
    let war = War::new(war_rules()).unwrap();
    assert!(engine::enumerate(&war, 0..1, 1, none, &cancel).is_err());
}

#[test]
fn a_precision_target_no_run_can_aim_for_is_refused() {
    let game = bmn(7, 2, [1, 2, 3, 4]).unwrap();
    let run = |half_width, min_games, max_games, head: u64| {
        let target = Target {
            half_width,
            min_games,
            max_games,
        };
        let head = engine::simulate(&game, 0, 0..head, 1, &|_| {}, &Cancel::default()).unwrap();
        let cancel = Cancel::default();
        precision::simulate(
            &game,
            0,
            &target,
            head,
            &precision::Watched::quietly(1, &cancel),
        )
    };
    assert!(run(1.0, 10, 0, 0).is_err(), "max_games 0 (clamp panicked)");
    assert!(run(f64::NAN, 10, 100, 0).is_err());
    assert!(run(-1.0, 10, 100, 0).is_err());
    assert!(
        run(1.0, 10, 100, 50).is_err(),
        "a head past the first checkpoint"
    );
    let (tally, stop) = run(0.0, 10, 100, 10).unwrap();
    assert_eq!((tally.games, stop.games), (100, 100));
    let empty = Target {
        half_width: 1.0,
        min_games: 5,
        max_games: 0,
    };
    assert_eq!(empty.checkpoints().collect::<Vec<_>>(), [0]);
    let _ = Tally::<()>::new(2);
}

#[test]
fn given_deals_are_checked_before_they_are_played() {
    let none = &mut game_rng(0, 0);
    let cancel = Cancel::default();
    let play = |h1: &[u8], h2: &[u8]| {
        War::play_deal(
            war_rules(),
            [h1, h2],
            &mut game_rng(0, 0),
            (None, false),
            &cancel,
        )
        .map(drop)
    };
    assert!(play(&[0], &[2]).is_err(), "rank 0");
    assert!(play(&[14], &[2]).is_err(), "rank 14 of 13");
    assert!(play(&[], &[2]).is_err(), "an empty hand");
    assert!(
        play(&[2, 2, 2, 2, 2], &[3]).is_err(),
        "five 2s of four suits"
    );
    assert!(play(&[2, 5], &[3, 4]).is_ok());
    let mut three = war_rules();
    three.players = 3;
    let hands = vec![vec![2u8], vec![3]];
    assert!(
        multi::play(three.clone(), Some(&hands), none, (None, false)).is_err(),
        "2 hands of 3"
    );
    let hands = vec![vec![2u8], vec![3], vec![77]];
    assert!(
        multi::play(three, Some(&hands), none, (None, false)).is_err(),
        "rank 77"
    );
    let game = bmn(13, 4, [1, 2, 3, 4]).unwrap();
    for deal in [
        "4".repeat(52),
        "0".repeat(52),
        "--J-/Q---".to_string(),
        String::new(),
    ] {
        assert!(game.parse_deal(&deal).is_err(), "{deal:?}");
    }
}

#[test]
fn a_shard_outside_its_run_does_not_exist() {
    for (k, n) in [(0, 0), (3, 3), (u64::MAX, 1)] {
        assert!(Shard::new(k, n).is_err(), "{k}/{n}");
    }
    let s = Shard::new(2, 3).unwrap();
    assert_eq!((s.index(), s.count(), s.range(9)), (2, 3, 6..9));
    assert_eq!(s.range_start(u64::MAX, 9), 9);
}

#[test]
fn positions_and_hands_given_to_beggar_my_neighbour_are_checked() {
    use std::ops::ControlFlow;
    use warsim_core::games::bmn::backward::Node;
    // A position of more than a deck's 64 cards, or a third player to lead.
    assert!(Node::new(&[0; 35], &[1; 35], 0).is_err());
    assert!(Node::new(&[0, 1], &[0, 0], 2).is_err());
    assert!(Node::new(&[0, 1], &[0, 0], 1).is_ok());
    let game = bmn(13, 4, [1, 2, 3, 4]).unwrap();
    let go = &mut |_: &_, _: &_, _| ControlFlow::Continue(());
    for hands in [
        [vec![0; 50], vec![0; 50]],
        [vec![], vec![]],
        [vec![200], vec![0; 51]],
        [vec![0; 35], vec![1; 35]],
    ] {
        assert!(game.play_hands(&hands, go).is_err(), "{hands:?}");
    }
    let deck = game.deck().to_vec();
    let hands = [deck[..26].to_vec(), deck[26..].to_vec()];
    assert!(game.play_hands(&hands, go).is_ok());
}

/// A public `Position` is built only through its constructors, which refuse what its rings
/// cannot hold: two 40-card hands lost cards at trick 18 and played on, 65 cards panicked on a
/// slice index, and a leader of 7 (a public field then) panicked inside `trick`.
#[test]
fn a_position_refuses_more_cards_than_its_rings_hold_and_a_third_leader() {
    use warsim_core::games::bmn::Position;
    let refused =
        |r: Result<Position, warsim_core::error::UsageError>| r.map(drop).unwrap_err().to_string();
    for (a, b) in [(40, 40), (65, 0), (0, 65), (33, 32), (1000, 1000)] {
        let (h1, h2) = (vec![0u8; a], vec![0u8; b]);
        let e = refused(Position::dealt(&h1, &h2));
        assert!(e.contains("at most 64 cards"), "{a}+{b}: {e}");
    }
    for leader in [2, 7, usize::MAX] {
        let e = refused(Position::new(&[1, 0], &[0, 0], leader));
        assert!(e.contains("player 1 or 2 to lead"), "{leader}: {e}");
    }
    // The largest position plays every trick with its 64 cards all held, none lost to the ring.
    let deck: Vec<u8> = (0..64).map(|i| [0, 0, 1, 0, 2, 0, 3, 4][i % 8]).collect();
    for leader in [0, 1] {
        let mut p = Position::new(&deck[..32], &deck[32..], leader).unwrap();
        assert_eq!(p.leader(), leader);
        for _ in 0..10_000 {
            let t = p.trick(u64::MAX);
            let [h1, h2] = p.hands();
            let mut held: Vec<u8> = h1.cards().chain(h2.cards()).collect();
            held.sort_unstable();
            let mut all = deck.clone();
            all.sort_unstable();
            assert_eq!(held, all);
            assert!(p.leader() < 2);
            if t.ended.is_some() {
                break;
            }
        }
    }
}

/// A search's counts past what any face takes are refused by the plan itself, so a typed
/// caller's `keep: usize::MAX` is not held as asked.
#[test]
fn a_search_plan_refuses_counts_past_their_bounds() {
    use warsim_core::games::bmn::search::plan::{Plan, Settings, DEFAULT_BASES};
    let game = bmn(13, 4, [1, 2, 3, 4]).unwrap();
    let good = Settings {
        deals: Some(100),
        walkers: 4,
        keep: 10,
        bases: DEFAULT_BASES,
        ..Settings::default()
    };
    assert!(Plan::of(&game, &good).is_ok());
    type Change = fn(&mut Settings);
    let cases: [(&str, Change); 4] = [
        ("keep", |s| s.keep = usize::MAX),
        ("keep", |s| s.keep = 10_001),
        ("walkers", |s| s.walkers = u32::MAX),
        ("bases", |s| s.bases = usize::MAX),
    ];
    for (name, change) in cases {
        let mut s = good.clone();
        change(&mut s);
        let e = Plan::of(&game, &s).unwrap_err().to_string();
        assert!(
            e.contains(name) && e.contains("expected a whole number from 1 to"),
            "{e}"
        );
    }
}

/// A deal named as no deal (a typo, read from JSON where no command-line parser checked it)
/// is refused, not dealt as the preset deals.
#[test]
fn a_deal_no_deal_is_named_is_refused() {
    for text in ["evne", "sorted", "", "shuffled,even"] {
        let settings = WarSettings {
            deal: Some(text.to_string()),
            ..WarSettings::default()
        };
        let e = War::from_settings(&settings)
            .map(drop)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("deal") && e.contains("expected shuffled or even"),
            "{text:?}: {e}"
        );
    }
    for text in ["shuffled", "even", "bryer"] {
        let settings = WarSettings {
            deal: Some(text.to_string()),
            ..WarSettings::default()
        };
        assert!(War::from_settings(&settings).is_ok(), "{text}");
    }
}
