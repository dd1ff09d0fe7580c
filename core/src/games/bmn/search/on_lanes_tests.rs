//! The searches in the lanes find what they find on the phase engine, field for field: the
//! climb (several seeds, walker counts and groups, a start deal given, a deck whose deals loop,
//! a capped game), the climb in batches of any sizes, and the census's rounds (with its growers,
//! on 1 thread and on 3).

use std::ops::ControlFlow;

use super::super::census::{census, CensusConfig};
use super::super::climb::{groups, Walk, Walker};
use super::super::insert::sixteen;
use super::super::loops::{CASELLA, MAX_TRICKS};
use super::super::report::walk_all;
use crate::cancel::Cancel;
use crate::games::bmn::backward::{fate, Fate};
use crate::games::bmn::{Bmn, BmnRules, Position};
use crate::games::engine_path::EnginePath;
use crate::games::Game;

/// The game of `rules` on the path `name`.
fn on(rules: &BmnRules, name: &str) -> Bmn {
    Bmn::new(rules.clone())
        .unwrap()
        .on_engine(&EnginePath::named(Some(name.to_string())))
}

/// The lanes' paths this CPU runs (AVX-512 and AVX2), each game checked to play on them.
fn lanes_games(rules: &BmnRules) -> Vec<Bmn> {
    let games: Vec<Bmn> = ["lanes", "lanes-avx2"]
        .iter()
        .map(|n| on(rules, n))
        .filter(|g| g.lanes().is_some())
        .collect();
    assert!(
        !games.is_empty() || !crate::games::bmn::lanes::available(),
        "this CPU has lanes, but the game plays none"
    );
    games
}

/// Each walker's finds, field for field.
fn finds(walks: &[Walk]) -> Vec<String> {
    walks
        .iter()
        .map(|w| {
            let Walk {
                best,
                loops,
                loops_found,
                capped,
            } = w;
            format!("{best:?} {loops:?} {loops_found} {capped}")
        })
        .collect()
}

/// `walkers` walkers of seed `seed` (from `from`, if given) playing `batches` on `game`, in
/// the groups `threads` threads take.
fn climb(
    game: &Bmn,
    (seed, walkers): (u64, u32),
    from: Option<&[u8]>,
    batches: &[u64],
    threads: usize,
) -> Vec<Walk> {
    let all = (0..walkers).map(|w| Walker::new(game, seed, w, 5, from.map(<[u8]>::to_vec)));
    let mut gs = groups(game, all, threads);
    for &n in batches {
        for g in &mut gs {
            walk_all(g, n, &|_| {});
        }
    }
    gs.into_iter().flatten().map(|w| w.out).collect()
}

/// The climb in the lanes equals the climb on the phase engine: the standard deck and a
/// 14-card deck whose deals often loop (so the lanes hand loops back), 1 to 40 walkers in
/// the groups of 1 to 3 threads (groups of up to 8 play in AVX2's lanes, larger ones in
/// AVX-512's where the CPU has them, 20 walkers in 16 lanes), from random deals and from a
/// deal given.
#[test]
fn the_climb_in_the_lanes_is_the_climb_on_the_phase_engine() {
    let mut looped = 0;
    for (ranks, suits, deals) in [(13, 4, 6_000), (7, 2, 20_000)] {
        let rules = BmnRules::britannica(ranks, suits, [1, 2, 3, 4]);
        let phase = on(&rules, "phase");
        let given = phase.deal_of(99, 3);
        for (seed, walkers, threads) in [(0, 1, 1), (5, 7, 2), (11, 19, 3), (13, 40, 2)] {
            for from in [None, Some(&given[..])] {
                let want = climb(&phase, (seed, walkers), from, &[deals], 1);
                looped += want.iter().map(|w| w.loops_found).sum::<u64>();
                for game in lanes_games(&rules) {
                    let got = climb(&game, (seed, walkers), from, &[deals], threads);
                    assert_eq!(finds(&got), finds(&want), "{ranks}x{suits} seed {seed}");
                }
            }
        }
    }
    assert!(
        looped > 0,
        "no deal looped: the lanes' hand-back is untested"
    );
}

/// A climb in the lanes in batches of any sizes (a search stopped and resumed, or sized
/// from the clock) plays the same deals as one played at once.
#[test]
fn the_climb_in_the_lanes_is_the_same_in_batches() {
    let rules = BmnRules::britannica(7, 2, [1, 2, 3, 4]);
    for game in lanes_games(&rules) {
        let once = climb(&game, (3, 9), None, &[30_000], 1);
        let batches = climb(&game, (3, 9), None, &[1, 4, 16, 9_979, 20_000], 1);
        assert_eq!(finds(&once), finds(&batches));
        assert!(once.iter().all(|w| !w.best.is_empty()));
    }
}

/// Under a card cap the lanes do not fit (they need 2^17 cards of room), the climb plays on
/// the phase engine whatever path is named, and reports the capped games as before.
#[test]
fn a_capped_climb_is_the_same_on_every_path() {
    let mut rules = BmnRules::britannica(7, 2, [1, 2, 3, 4]);
    rules.max_rounds = 60;
    let phase = on(&rules, "phase");
    let want = climb(&phase, (2, 5), None, &[5_000], 1);
    assert!(
        want.iter().map(|w| w.capped).sum::<u64>() > 0,
        "nothing capped"
    );
    for name in ["lanes", "lanes-avx2"] {
        let game = on(&rules, name);
        assert!(game.lanes().is_none(), "{name} plays a cap under 2^17");
        assert_eq!(
            finds(&climb(&game, (2, 5), None, &[5_000], 2)),
            finds(&want)
        );
    }
}

/// `rounds` census rounds of 16 walkers of `tries` from `seeds` on `game`, on `threads`
/// threads, with insertion's growers from 16 cards when `grow` (as the standard deck's census
/// of the command line).
fn census_of(
    game: &Bmn,
    seeds: &[(Position, u64)],
    (tries, rounds): (u64, u64),
    grow: bool,
    threads: usize,
) -> String {
    let cfg = CensusConfig {
        seed: 4,
        walkers: 16,
        tries,
        rounds,
        max_positions: 1 << 16,
        grow_from: if grow { sixteen() } else { Vec::new() },
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    let c = pool.install(|| {
        census(game, &cfg, seeds, &Cancel::default(), &mut |_| {
            ControlFlow::Continue(())
        })
    });
    assert!(c.ended > 0 && c.looped > 0, "{c:?}");
    assert_eq!(c.grown.iter().any(|&n| n > 0), grow, "{c:?}");
    format!("{c:?}")
}

/// The census in the lanes equals the census on the phase engine and on the card engine,
/// field for field, on 1 thread and on 3: from Casella's cycle on the standard deck, with
/// insertion's growers and without, and from random positions on a 14-card deck.
#[test]
fn the_census_in_the_lanes_is_the_census_on_the_phase_engine() {
    let standard = BmnRules::britannica(13, 4, [1, 2, 3, 4]);
    let phase = on(&standard, "phase");
    let [a, b] = phase.parse_deal(CASELLA).unwrap();
    let Fate::Cycle(on_cycle, tricks) = fate(&Position::dealt(&a, &b).unwrap(), MAX_TRICKS) else {
        panic!("Casella's deal loops");
    };
    let seeds = [(on_cycle, tricks)];
    for grow in [false, true] {
        let want = census_of(&phase, &seeds, (1_500, 3), grow, 1);
        assert_eq!(census_of(&phase, &seeds, (1_500, 3), grow, 3), want);
        // The card engine judges every try card by card, as the census did before the lanes.
        let cards = on(&standard, "cards");
        assert_eq!(census_of(&cards, &seeds, (1_500, 3), grow, 3), want);
        for game in lanes_games(&standard) {
            assert_eq!(census_of(&game, &seeds, (1_500, 3), grow, 1), want);
            assert_eq!(census_of(&game, &seeds, (1_500, 3), grow, 3), want);
        }
    }
    let small = BmnRules::britannica(7, 2, [1, 2, 3, 4]);
    let want = census_of(&on(&small, "phase"), &[], (700, 3), false, 1);
    for game in lanes_games(&small) {
        assert_eq!(census_of(&game, &[], (700, 3), false, 3), want);
    }
}

/// The census's tries are judged a phase at a time ([`Bmn::fate`]) with exactly the card
/// engine's answer ([`fate`]): the same end, or the same cycle length and position on it, for
/// positions near Casella's cycle (most end, some loop, some have a hand of one card) and
/// random positions of a 14-card deck, either player to lead.
#[test]
fn a_phase_fate_is_the_card_fate() {
    use crate::games::bmn::phase;
    use crate::rng::game_rng;
    let standard = on(&BmnRules::britannica(13, 4, [1, 2, 3, 4]), "phase");
    let [a, b] = standard.parse_deal(CASELLA).unwrap();
    let Fate::Cycle(casella, _) = fate(&Position::dealt(&a, &b).unwrap(), MAX_TRICKS) else {
        panic!("Casella's deal loops");
    };
    let small = on(&BmnRules::britannica(7, 2, [1, 2, 3, 4]), "phase");
    let (mut cards, mut loops, mut ends) = (Vec::new(), 0, 0);
    let mut rng = game_rng(8, 0);
    for i in 0..40_000u32 {
        let p = match i % 2 {
            0 => super::super::loops::perturb(&casella, &mut rng, &mut cards),
            _ => super::super::census::random_position(small.deck(), &mut rng, &mut cards),
        };
        let (want, got) = (fate(&p, MAX_TRICKS), phase::fate(&p, MAX_TRICKS));
        let same = match (&want, &got) {
            (Fate::Ends(a), Fate::Ends(b)) => a == b,
            (Fate::Cycle(a, n), Fate::Cycle(b, m)) => a.same(b) && n == m,
            (Fate::Undecided, Fate::Undecided) => true,
            _ => false,
        };
        assert!(same, "{p:?}: {want:?} against {got:?}");
        loops += u32::from(matches!(want, Fate::Cycle(..)));
        ends += u32::from(matches!(want, Fate::Ends(_)));
    }
    assert!(loops > 100 && ends > 100, "{loops} loops, {ends} ends");
}
