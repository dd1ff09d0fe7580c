//! The lanes, AVX2 (issue 52) and AVX-512 (issue 62), against the card-by-card reference:
//! every field of every game (cards, tricks, outcome, cycle) on random deals of the standard
//! deck and of other decks the lanes hold, the published records and loops, and the same tally
//! on 1 thread and 2. Lanes this CPU cannot run are named on stderr and not compared, and the
//! run fails where `WARSIM_REQUIRE_PATHS` names them (`lanes`, `lanes-avx2`).

use super::*;
use crate::cancel::Cancel;
use crate::games::Outcome;
use crate::rng::game_rng;
use crate::stats::game::GameResult;

/// Both widths of lanes.
const WIDTHS: [Width; 2] = [Width::Avx512, Width::Avx2];

/// The lanes that run here; those that do not are named on stderr (the test then compares
/// only the others, or nothing).
fn widths_here(test: &str) -> Vec<Width> {
    let (here, not): (Vec<Width>, Vec<Width>) = WIDTHS.iter().partition(|w| w.available());
    for w in not {
        eprintln!(
            "{test}: this CPU cannot run the {} lanes: not compared",
            w.name()
        );
    }
    here
}

/// The game `rules` on the lanes of `width`, and on the reference.
fn engines(rules: &BmnRules, width: Width) -> (Bmn, Bmn) {
    let game = Bmn::new(rules.clone()).unwrap();
    assert!(lanes::fits(game.deck(), game.rules.max_rounds));
    let cards = Bmn {
        engine: Engine::Cards,
        ..game.clone()
    };
    (
        Bmn {
            engine: Engine::Lanes(width),
            ..game
        },
        cards,
    )
}

/// Plays games `0..n` of seed `seed` in each of the lanes `widths`, checks each game was
/// reported once and is the reference's game in every field; returns how many looped.
fn against_reference(rules: BmnRules, widths: &[Width], seed: u64, n: u64) -> u64 {
    let (_, cards) = engines(&rules, Width::Avx2);
    let mut s = cards.scratch();
    let want: Vec<GameResult<BmnGame>> = (0..n)
        .map(|i| cards.play(&mut game_rng(seed, i), &mut s))
        .collect();
    let encodings = widths.iter().flat_map(|&w| {
        let here = lanes::Lanes::new(w, cards.deck()).expect("widths_here: this CPU runs them");
        // AVX2's lanes in their VEX encoding too where this CPU plays them in EVEX.
        [Some((w, here)), here.vex().map(|v| (w, v))]
    });
    for (width, l) in encodings.flatten() {
        let (lanes, _) = engines(&rules, width);
        let mut got: Vec<Option<GameResult<BmnGame>>> = vec![None; n as usize];
        let mut s = lanes.scratch();
        lanes::play_range_in(&lanes, l, seed, 0..n, &mut s, &mut |i, r| {
            let slot = &mut got[i as usize];
            assert!(slot.is_none(), "game {i} reported twice on {l:?}");
            *slot = Some(*r);
        });
        for (i, (r, want)) in got.into_iter().zip(&want).enumerate() {
            assert_eq!(
                r,
                Some(*want),
                "{:?} seed {seed} game {i} on {l:?}",
                cards.rules
            );
        }
    }
    (want.iter()).filter(|w| w.outcome == Outcome::Loop).count() as u64
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
    let widths = widths_here("the_lanes_give_the_reference_game_for_a_million_random_deals");
    against_reference(
        BmnRules::britannica(13, 4, [1, 2, 3, 4]),
        &widths,
        7,
        deals(1_000_000),
    );
}

#[test]
fn the_lanes_give_the_reference_game_on_other_decks_and_hand_loops_over() {
    let widths =
        widths_here("the_lanes_give_the_reference_game_on_other_decks_and_hand_loops_over");
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
            &widths,
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
    for width in widths_here("every_record_and_loop_replays_in_the_lanes") {
        records_and_loops(width);
    }
}

/// Every published record and two loops (handed over) in the lanes of `width`.
fn records_and_loops(width: Width) {
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
    lanes::play_decks(
        &game,
        width,
        0..decks.len() as u64,
        &deck_of,
        &mut |i, r| got[i as usize] = Some(*r),
    );
    for ((who, _, cards, tricks), r) in tests::RECORDS.iter().zip(&got) {
        let r = r.unwrap();
        assert_eq!(
            (r.rounds, r.stats.tricks),
            (*cards, *tricks as u32),
            "{who} on {}",
            width.name()
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
        width,
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
    let run = |game: &Bmn, threads| {
        let range = 5..5 + deals(100_000);
        crate::sim::engine::simulate(game, 11, range, threads, &|_| {}, &Cancel::default()).unwrap()
    };
    let rules = BmnRules::britannica(13, 4, [1, 2, 3, 4]);
    let one = run(&engines(&rules, Width::Avx2).1, 1);
    for width in widths_here("the_lanes_give_the_same_tally_on_one_thread_and_two") {
        let (lanes, _) = engines(&rules, width);
        assert_eq!(run(&lanes, 1), one, "{}", width.name());
        assert_eq!(run(&lanes, 2), one, "{}", width.name());
    }
}

#[test]
fn the_lanes_play_where_the_cpu_and_the_rules_allow() {
    let game = |ranks, suits, cap| {
        let mut rules = BmnRules::britannica(ranks, suits, [1, 2, 3, 4]);
        rules.max_rounds = cap;
        Bmn::build(rules).engine
    };
    // The widest lanes this CPU runs.
    let widest = WIDTHS.into_iter().find(|w| w.available());
    let lanes = match widest {
        Some(w) => Engine::Lanes(w),
        None => game(13, 4, DEFAULT_MAX_ROUNDS),
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
    // engine.
    let phase = game(14, 4, DEFAULT_MAX_ROUNDS);
    assert_eq!(phase, Engine::Phase);
    assert_eq!(game(13, 4, lanes::MIN_CAP - 1), phase);
    assert_eq!(game(4, 6, DEFAULT_MAX_ROUNDS), phase);
}

/// `.ci/run` requires the lanes its CPU has (`WARSIM_REQUIRE_PATHS=lanes-avx2,lanes,avx512`, as
/// War's lanes are named), so a CI machine without them fails instead of comparing nothing.
#[test]
fn the_lanes_run_here_or_are_not_required() {
    let required = std::env::var("WARSIM_REQUIRE_PATHS").unwrap_or_default();
    let here = widths_here("the_lanes_run_here_or_are_not_required");
    let unmet: Vec<&str> = (required.split(',').map(str::trim))
        .filter(|r| WIDTHS.iter().any(|w| w.name() == *r && !here.contains(w)))
        .collect();
    assert!(
        unmet.is_empty(),
        "WARSIM_REQUIRE_PATHS asks for {unmet:?}: this CPU cannot run Beggar-my-neighbour's \
         lanes there (lanes: AVX-512 F, CD and BW; lanes-avx2: AVX2, BMI2 and POPCNT)"
    );
}
