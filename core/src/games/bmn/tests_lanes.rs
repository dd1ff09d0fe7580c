//! The AVX2 lanes (issue 52) against the card-by-card reference: every field of every game
//! (cards, tricks, outcome, cycle) on random deals of the standard deck and of other decks the
//! lanes hold, the published records and loops, and the same tally on 1 thread and 2. On a
//! CPU without the lanes these tests say so on stderr and compare nothing, and fail where
//! `WARSIM_REQUIRE_PATHS` names `lanes-avx2`.

use super::*;
use crate::cancel::Cancel;
use crate::games::Outcome;
use crate::rng::game_rng;
use crate::stats::game::GameResult;

/// Whether the lanes run here; if not, says so on stderr (the test then compares nothing).
fn lanes_here(test: &str) -> bool {
    let here = lanes::available();
    if !here {
        eprintln!("{test}: this CPU has no AVX2 and BMI2: the lanes-avx2 path is not compared");
    }
    here
}

/// The game `rules` on each engine: the lanes, the reference.
fn engines(rules: BmnRules) -> (Bmn, Bmn) {
    let game = Bmn::new(rules).unwrap();
    assert!(lanes::fits(game.deck(), game.rules.max_rounds));
    let cards = Bmn {
        engine: Engine::Cards,
        ..game.clone()
    };
    (
        Bmn {
            engine: Engine::Lanes,
            ..game
        },
        cards,
    )
}

/// Plays games `0..n` of seed `seed` in the lanes, checks each was reported once and is the
/// reference's game in every field; returns how many looped.
fn against_reference(rules: BmnRules, seed: u64, n: u64) -> u64 {
    let (lanes, cards) = engines(rules);
    let mut got: Vec<Option<GameResult<BmnGame>>> = vec![None; n as usize];
    lanes.play_range(seed, 0..n, &mut lanes.scratch(), &mut |i, r| {
        let slot = &mut got[i as usize];
        assert!(slot.is_none(), "game {i} reported twice");
        *slot = Some(*r);
    });
    let mut s = cards.scratch();
    let mut loops = 0;
    for (i, r) in got.into_iter().enumerate() {
        let want = cards.play(&mut game_rng(seed, i as u64), &mut s);
        assert_eq!(r, Some(want), "{:?} seed {seed} game {i}", cards.rules);
        loops += u64::from(want.outcome == Outcome::Loop);
    }
    loops
}

/// A million in the release test run, fewer unoptimised.
fn deals(release: u64) -> u64 {
    if cfg!(debug_assertions) {
        release / 50
    } else {
        release
    }
}

#[test]
fn the_lanes_give_the_reference_game_for_a_million_random_deals() {
    if lanes_here("the_lanes_give_the_reference_game_for_a_million_random_deals") {
        against_reference(
            BmnRules::britannica(13, 4, [1, 2, 3, 4]),
            7,
            deals(1_000_000),
        );
    }
}

#[test]
fn the_lanes_give_the_reference_game_on_other_decks_and_hand_loops_over() {
    if !lanes_here("the_lanes_give_the_reference_game_on_other_decks_and_hand_loops_over") {
        return;
    }
    // (ranks, suits, demands of J Q K A): small decks where many games loop (handed to the
    // phase engine at the trick cap), demands of 0, a lone demanding rank, 16 penalty cards
    // and no plain card, Camicia's 40 cards, 48 cards, and odd penalty orders.
    let decks: [(usize, usize, [u8; 4]); 10] = [
        (4, 1, [1, 2, 3, 4]),
        (6, 2, [1, 2, 3, 4]),
        (7, 2, [1, 2, 3, 4]),
        (4, 4, [1, 2, 3, 4]),
        (10, 4, [1, 2, 3, 0]),
        (13, 4, [4, 4, 4, 4]),
        (13, 4, [2, 0, 0, 0]),
        (7, 4, [2, 0, 0, 0]),
        (12, 4, [1, 2, 3, 4]),
        (13, 4, [2, 1, 4, 3]),
    ];
    let mut loops = 0;
    for (ranks, suits, penalties) in decks {
        loops += against_reference(
            BmnRules::britannica(ranks, suits, penalties),
            3,
            deals(20_000),
        );
    }
    // 314 of the 200,000 deals of the release run loop.
    assert!(
        loops >= deals(20_000) / 200,
        "only {loops} loops: the test should hand many over"
    );
}

#[test]
fn every_record_and_loop_replays_in_the_lanes() {
    if !lanes_here("every_record_and_loop_replays_in_the_lanes") {
        return;
    }
    let game = Bmn::new(BmnRules::britannica(13, 4, [1, 2, 3, 4])).unwrap();
    let casella = "---K---Q-KQAJ-----AAJ--J--/----------Q----KQ-J-----KA";
    let deals: Vec<&str> = (tests::RECORDS.iter().map(|r| r.1))
        .chain([casella])
        .collect();
    let decks: Vec<Vec<u8>> = deals
        .iter()
        .map(|d| game.parse_deal(d).unwrap().concat())
        .collect();
    let mut got = vec![None; decks.len()];
    let deck_of = |i: u64, deck: &mut [u8]| deck.copy_from_slice(&decks[i as usize]);
    lanes::play_decks(&game, 0..decks.len() as u64, &deck_of, &mut |i, r| {
        got[i as usize] = Some(*r)
    });
    for ((who, _, cards, tricks), r) in tests::RECORDS.iter().zip(&got) {
        let r = r.unwrap();
        assert_eq!(
            (r.rounds, r.stats.tricks),
            (*cards, *tricks as u32),
            "{who}"
        );
        assert!(matches!(r.outcome, Outcome::Player(_)), "{who}");
    }
    let looped = got[decks.len() - 1].unwrap();
    assert_eq!(looped.outcome, Outcome::Loop);
    assert_eq!((looped.rounds, looped.stats.tricks), (474, 66));
    let cycle = looped.cycle.unwrap();
    assert_eq!((cycle.loop_from, cycle.cycle_len), (34, 440));
    // The 40-card loop without aces, handed over too.
    let forty = Bmn::new(BmnRules::britannica(10, 4, [1, 2, 3, 0])).unwrap();
    let deck = forty
        .parse_deal("--Q------QJ----JK---/---Q---J-Q-KJ--K-K--")
        .unwrap()
        .concat();
    let mut got = None;
    lanes::play_decks(
        &forty,
        0..1,
        &|_, d| d.copy_from_slice(&deck),
        &mut |_, r| got = Some(*r),
    );
    let r = got.unwrap();
    assert_eq!(
        (r.outcome, r.rounds, r.stats.tricks),
        (Outcome::Loop, 197, 37)
    );
}

#[test]
fn the_lanes_give_the_same_tally_on_one_thread_and_two() {
    if !lanes_here("the_lanes_give_the_same_tally_on_one_thread_and_two") {
        return;
    }
    let (lanes, cards) = engines(BmnRules::britannica(13, 4, [1, 2, 3, 4]));
    let run = |game: &Bmn, threads| {
        let range = 5..5 + deals(100_000);
        crate::sim::engine::simulate(game, 11, range, threads, &|_| {}, &Cancel::default()).unwrap()
    };
    let one = run(&lanes, 1);
    assert_eq!(run(&lanes, 2), one);
    assert_eq!(run(&cards, 1), one);
}

#[test]
fn the_lanes_play_where_the_cpu_and_the_rules_allow() {
    let game = |ranks, suits, cap| {
        let mut rules = BmnRules::britannica(ranks, suits, [1, 2, 3, 4]);
        rules.max_rounds = cap;
        Bmn::build(rules).engine
    };
    let lanes = if lanes::available() && crate::games::engine_path::named().is_none() {
        Engine::Lanes
    } else {
        game(13, 4, DEFAULT_MAX_ROUNDS)
    };
    assert_eq!(game(13, 4, DEFAULT_MAX_ROUNDS), lanes);
    // `exact` plays its deals on the phase engine, and its summary says so.
    let standard = Bmn::new(BmnRules::britannica(13, 4, [1, 2, 3, 4])).unwrap();
    let exact = standard.exact_engine();
    assert!(
        matches!(exact.as_deref(), Some("phase" | "cards")),
        "{exact:?}"
    );
    // A cap the lanes could reach, a deck over 52 cards, over 16 penalty cards: the phase
    // engine (unless WARSIM_PATH names the reference).
    let phase = game(14, 4, DEFAULT_MAX_ROUNDS);
    assert!([Engine::Phase, Engine::Cards].contains(&phase));
    assert_eq!(game(13, 4, lanes::MIN_CAP - 1), phase);
    assert_eq!(game(4, 6, DEFAULT_MAX_ROUNDS), phase);
}

/// `.ci/run` requires the lanes (`WARSIM_REQUIRE_PATHS=lanes-avx2`, as War's AVX2 lanes are
/// named), so a CI machine without AVX2 and BMI2 fails instead of comparing nothing.
#[test]
fn the_lanes_run_here_or_are_not_required() {
    let required = std::env::var("WARSIM_REQUIRE_PATHS").unwrap_or_default();
    let wanted = required.split(',').any(|r| r.trim() == "lanes-avx2");
    assert!(
        lanes_here("the_lanes_run_here_or_are_not_required") || !wanted,
        "WARSIM_REQUIRE_PATHS asks for lanes-avx2: this CPU has no AVX2 and BMI2 for \
         Beggar-my-neighbour's lanes"
    );
}
