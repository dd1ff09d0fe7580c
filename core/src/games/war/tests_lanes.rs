//! The SIMD lanes (issue 25) against the block path and the scalar reference: the same games
//! on every path for every rule set of the tests, and the lanes' 8-at-a-time deal against
//! today's.

use super::position::Position;
use super::tests::{all_rule_sets, bryer, rules_with, with};
use super::*;
use crate::games::cards::Card;
use crate::rng::game_rng;

/// Rule sets the lanes play (`lanes::supports`) beyond [`all_rule_sets`]': the `bryer` preset
/// and its variations in every setting the lanes accept, every pickup they play with and
/// without loop detection (small decks, where most games loop, and caps that bind before
/// or after a loop is seen among them), classic and squaaawk's rules with their deals, caps
/// that bind, and decks from 10 to 256 cards.
fn lane_rule_sets() -> Vec<WarRules> {
    let with = |f: fn(&mut WarSettings)| {
        rules_with(|o| {
            o.preset = Some(Preset::Bryer);
            f(o);
        })
    };
    let mut sets = vec![
        bryer(),
        with(|o| o.short_war = Some(ShortWar::Lose)),
        with(|o| o.deal = Some("shuffled".into())),
        with(|o| o.deal = Some("even".into())),
        with(|o| o.by = Some(By::P1Top)),
        with(|o| {
            o.deal = Some("shuffled".into());
            o.p1_cards = Some(Ranks(vec![13, 13, 12, 1]));
        }),
        with(|o| o.max_rounds = Some(60)),
        with(|o| o.max_rounds = Some(1)),
        with(|o| {
            o.ranks = Some(5);
            o.suits = Some(2);
        }),
        with(|o| {
            o.ranks = Some(3);
            o.suits = Some(8);
            o.short_war = Some(ShortWar::Lose);
        }),
        with(|o| o.suits = Some(8)),
        with(|o| {
            o.ranks = Some(64);
            o.suits = Some(4);
            o.max_rounds = Some(20_000);
        }),
        with(|o| o.war_down = Some(2)),
        rules_with(|o| {
            o.pickup = Some(Pickup::Bryer);
            o.short_war = Some(ShortWar::Lose);
            o.detect_loops = Some(DetectLoops::Off);
        }),
        // Classic and squaaawk's rules, with their deals and decks.
        rules_with(|_| {}),
        rules_with(|o| o.deal = Some("even".into())),
        rules_with(|o| o.p1_cards = Some(Ranks(vec![13, 13, 13, 13]))),
        rules_with(|o| o.by = Some(By::P1Top)),
        rules_with(|o| (o.ranks, o.suits) = (Some(3), Some(8))),
        rules_with(|o| (o.suits, o.max_rounds) = (Some(16), Some(20_000))),
        rules_with(|o| {
            (o.pickup, o.short_war) = (Some(Pickup::WonPile), Some(ShortWar::LastCard));
        }),
        rules_with(|o| {
            (o.pickup, o.short_war) = (Some(Pickup::WonPile), Some(ShortWar::LastCard));
            (o.suits, o.deal) = (Some(8), Some("even".into()));
        }),
        rules_with(|o| (o.pickup, o.ranks, o.suits) = (Some(Pickup::WonPile), Some(2), Some(5))),
    ];
    // Every deterministic pickup, with no loop detection and with it, under both short-war
    // rules.
    for pickup in [
        Pickup::P1First,
        Pickup::WinnerFirst,
        Pickup::LoserFirst,
        Pickup::Bryer,
    ] {
        for short in [ShortWar::Lose, ShortWar::LastCard] {
            sets.push(rules_with(|o| {
                (o.pickup, o.short_war) = (Some(pickup), Some(short));
                o.detect_loops = Some(DetectLoops::Off);
                o.max_rounds = Some(5000);
            }));
            sets.push(rules_with(|o| {
                (o.pickup, o.short_war) = (Some(pickup), Some(short));
                o.detect_loops = Some(DetectLoops::On);
            }));
            // Small decks: most games loop, some from the deal, some after the cap.
            for (ranks, suits, cap) in [(4, 2, 10_000_000), (5, 4, 10_000_000), (6, 4, 90)] {
                sets.push(rules_with(|o| {
                    (o.pickup, o.short_war) = (Some(pickup), Some(short));
                    (o.ranks, o.suits, o.max_rounds) = (Some(ranks), Some(suits), Some(cap));
                    o.detect_loops = Some(DetectLoops::On);
                }));
            }
        }
    }
    sets.push(rules_with(|o| {
        (o.pickup, o.by) = (Some(Pickup::P1First), Some(By::P1Top));
        o.detect_loops = Some(DetectLoops::On);
    }));
    sets.push(with(|o| o.detect_loops = Some(DetectLoops::On)));
    sets
}

/// Plays games `range` of `seed` with `War::play_range` (in lanes where `war` plays them), as
/// a list by game index; each game must be reported exactly once.
fn played_range(war: &War, seed: u64, range: std::ops::Range<u64>) -> Vec<GameResult<WarGame>> {
    let mut got = vec![None; (range.end - range.start) as usize];
    let start = range.start;
    war.play_range(seed, range, &mut war.scratch(), &mut |i, r| {
        let slot = &mut got[(i - start) as usize];
        assert!(slot.is_none(), "game {i} reported twice");
        *slot = Some(*r);
    });
    got.into_iter()
        .map(|r| r.expect("every game reported"))
        .collect()
}

/// Issue 25: the lanes, AVX-512 and AVX2, play exactly the games of the block path and of the
/// scalar reference, game by game (rounds, outcome, wars, depths, group), for every rule set
/// of the tests: the ones [`lanes::supports`] play in lanes (each pickup's order among them),
/// every other one falls back to the path beside the lanes. Where the CPU has no lanes, all
/// runs are the paths it has.
#[test]
fn the_lanes_play_the_block_paths_and_the_scalar_references_games() {
    let mut sets = lane_rule_sets();
    sets.extend(all_rule_sets());
    for won_pile in [WonPile::Kept, WonPile::Reversed] {
        sets.push(rules_with(|o| {
            o.preset = Some(Preset::Bryer);
            o.won_pile = Some(won_pile);
        }));
    }
    sets.push(rules_with(|o| {
        o.preset = Some(Preset::Bryer);
        o.quit_stats = true;
    }));
    let mut pickups_in_lanes = std::collections::BTreeSet::new();
    for rules in sets {
        let block = War::new(rules.clone()).unwrap().on_path(Path::Avx512);
        let scalar = War::new(rules.clone()).unwrap().on_path(Path::Scalar);
        let (mut s1, mut s2) = (block.scratch(), scalar.scratch());
        let in_lanes = lanes::supports(&rules, scalar.deck.len());
        if in_lanes {
            pickups_in_lanes.insert(format!("{:?}", rules.pickup));
        }
        let range = if in_lanes { 1000..3000 } else { 0..50 };
        let want: Vec<_> = range
            .clone()
            .map(|i| scalar.play(&mut game_rng(8, i), &mut s2))
            .collect();
        for (i, want) in range.clone().zip(&want) {
            assert_eq!(
                &block.play(&mut game_rng(8, i), &mut s1),
                want,
                "{rules:?} game {i}"
            );
        }
        for path in [Path::Lanes, Path::LanesAvx2] {
            let lanes = War::new(rules.clone()).unwrap().on_path(path);
            if path.or_available() == path {
                assert_eq!(lanes.path() == path, in_lanes, "{rules:?}");
            }
            let got = played_range(&lanes, 8, range.clone());
            for ((r, want), i) in got.iter().zip(&want).zip(range.clone()) {
                assert_eq!(r, want, "{rules:?} game {i} on {}", lanes.path().name());
            }
        }
    }
    assert_eq!(
        pickups_in_lanes.into_iter().collect::<Vec<_>>(),
        [
            "Bryer",
            "LoserFirst",
            "P1First",
            "Shuffled",
            "WinnerFirst",
            "WonPile"
        ],
        "every pickup the lanes play is tested in lanes"
    );
}

/// Issue 25: `deal8` and `deal8_avx2` deal exactly the hands `Position::deal` deals, 8 games
/// at once, and leave each game's generator where that deal leaves it (the shuffled pickup
/// draws on from there), for both deals they play and decks of 2 to 64 cards.
/// Issue 62: every path this CPU runs plays the scalar reference's game, field for field, for
/// each of a million games of `bryer` and of classic (200 in a debug build), from seed 3.
#[test]
fn every_path_plays_the_scalar_references_games_for_a_million_games() {
    let games: u64 = if cfg!(debug_assertions) {
        200
    } else {
        1_000_000
    };
    let classic = rules_with(|_| {});
    for rules in [bryer(), classic] {
        let scalar = War::new(rules.clone()).unwrap().on_path(Path::Scalar);
        let want = played_range(&scalar, 3, 0..games);
        let paths = [Path::Avx512, Path::Lanes, Path::LanesAvx2];
        for path in paths.into_iter().filter(|p| p.or_available() == *p) {
            let war = War::new(rules.clone()).unwrap().on_path(path);
            let got = played_range(&war, 3, 0..games);
            if let Some(i) = (0..want.len()).find(|&i| got[i] != want[i]) {
                panic!(
                    "{:?} on {}: game {i} is {:?}, the scalar reference's {:?}",
                    rules.preset,
                    war.path().name(),
                    got[i],
                    want[i]
                );
            }
        }
    }
}

#[test]
fn deal8_deals_todays_hands_and_leaves_todays_generators() {
    let deals: [(lanes::Engine, lane_deal::DealAhead); 2] = [
        (lanes::Engine::Avx512, lane_deal::deal8),
        (lanes::Engine::Avx2, lane_deal::deal8_avx2),
    ];
    for (engine, deal8) in deals {
        if lanes::available(engine) {
            deals_todays_hands(engine, deal8);
        }
    }
    if lane_deal::vbmi2_available() {
        deals_todays_hands(lanes::Engine::Avx512, lane_deal::deal8_vbmi2);
    }
}

/// [`deal8_deals_todays_hands_and_leaves_todays_generators`] on one engine's deal.
fn deals_todays_hands(engine: lanes::Engine, deal8: lane_deal::DealAhead) {
    use rand::RngCore;
    for deal in ["shuffled", "bryer"] {
        for (ranks, suits) in [(13, 4), (1, 2), (5, 2), (16, 4), (3, 6)] {
            let war = with(|o| {
                (o.ranks, o.suits) = (Some(ranks), Some(suits));
                o.deal = Some(deal.into());
            });
            let n = war.deck.len();
            let mut dealt = 0;
            for first in (0..2000).step_by(lane_deal::AHEAD) {
                let mut p1 = [[0; 64]; lane_deal::AHEAD];
                let mut p2 = p1;
                let mut rngs = std::array::from_fn(|_| game_rng(0, 0));
                // SAFETY: `lanes::available(engine)` found every feature `deal8` enables.
                if !unsafe { deal8(&war, 3, first, &mut p1, &mut p2, &mut rngs) } {
                    continue;
                }
                for (g, rng) in rngs.iter_mut().enumerate() {
                    let mut want = game_rng(3, first + g as u64);
                    let mut p = Position::new(war.capacity);
                    p.deal(&war, &mut want);
                    let hands: Vec<Vec<Card>> =
                        p.hands.iter().map(|h| h.iter().collect()).collect();
                    let what = format!("{engine:?} {deal} {ranks}x{suits}");
                    assert_eq!(hands[0], &p1[g][..n / 2], "{what} game {first}+{g}");
                    assert_eq!(hands[1], &p2[g][..n - n / 2], "{what}");
                    assert_eq!(rng.next_u64(), want.next_u64(), "{what}");
                    dealt += 1;
                }
            }
            assert!(
                dealt > 1900,
                "{engine:?} {deal} {ranks}x{suits}: {dealt} games dealt by deal8"
            );
        }
    }
}

/// Issue 25: `exact war` plays its deals through the lanes (`War::play_deal_range`): every
/// deal of small decks, under each deterministic pickup the lanes play with loop detection
/// (most of these games loop or end in a few rounds), a fixed hand and `--by`, as the
/// scalar reference plays deal by deal; on both lane engines.
#[test]
fn the_lanes_play_every_deal_of_exact_as_the_scalar_reference_does() {
    let sets = [
        rules_with(|o| (o.pickup, o.ranks, o.suits) = (Some(Pickup::P1First), Some(4), Some(2))),
        rules_with(|o| {
            (o.pickup, o.ranks, o.suits) = (Some(Pickup::WinnerFirst), Some(5), Some(2));
            o.short_war = Some(ShortWar::Lose);
        }),
        rules_with(|o| {
            (o.pickup, o.ranks, o.suits) = (Some(Pickup::LoserFirst), Some(3), Some(4));
            o.by = Some(By::P1Top);
        }),
        rules_with(|o| {
            (o.pickup, o.ranks, o.suits) = (Some(Pickup::Bryer), Some(4), Some(3));
            o.short_war = Some(ShortWar::Lose);
        }),
        rules_with(|o| {
            (o.pickup, o.ranks, o.suits) = (Some(Pickup::P1First), Some(4), Some(2));
            o.p1_cards = Some(Ranks(vec![1, 2, 3, 4]));
        }),
    ];
    for (rules, path) in sets
        .iter()
        .flat_map(|r| [(r, Path::Lanes), (r, Path::LanesAvx2)])
    {
        let lanes = War::new(rules.clone()).unwrap().on_path(path);
        if path.or_available() == path {
            assert_eq!(lanes.path(), path, "{rules:?}");
        }
        let scalar = War::new(rules.clone()).unwrap().on_path(Path::Scalar);
        let n = scalar.deal_count().expect("enumerable") as u64;
        let mut got = vec![None; n as usize];
        lanes
            .play_deal_range(0..n, &mut lanes.scratch(), &mut |i, r| {
                let slot = &mut got[i as usize];
                assert!(slot.is_none(), "deal {i} reported twice");
                *slot = Some(*r);
            })
            .expect("every deal plays");
        let mut s = scalar.scratch();
        for (i, r) in got.into_iter().enumerate() {
            let want = scalar.play_deal_number(i as u64, &mut s);
            assert_eq!(r, want, "{rules:?} deal {i} on {}", path.name());
        }
    }
}

/// The paths the tests above compare that this CPU cannot run are named on stderr (`cargo test
/// -- --nocapture`), since there those tests compare the paths it has; and the run fails where
/// `WARSIM_REQUIRE_PATHS` (a comma list of path names, as summary.json's provenance names
/// them) asks for one of them. `.ci/run` requires the AVX2 lanes, which every x86-64 CI
/// machine of this project has had, and the AVX-512 lanes and block path, which its CPU (AMD
/// EPYC with AVX-512) has, so a machine without them fails instead of comparing the scalar path
/// with itself.
#[test]
fn every_path_compared_runs_here_or_is_named() {
    let all = [Path::Avx512, Path::Lanes, Path::LanesAvx2];
    let missing: Vec<&str> = (all.iter())
        .filter(|p| p.or_available() != **p)
        .map(|p| p.name())
        .collect();
    if !missing.is_empty() {
        eprintln!(
            "paths not compared on this CPU (it cannot run them): {}",
            missing.join(", ")
        );
    }
    let required = std::env::var("WARSIM_REQUIRE_PATHS").unwrap_or_default();
    let unmet: Vec<&str> = (required.split(','))
        .map(str::trim)
        .filter(|r| !r.is_empty())
        .filter(|r| missing.contains(r) || !all.iter().any(|p| p.name() == *r))
        .collect();
    assert!(
        unmet.is_empty(),
        "WARSIM_REQUIRE_PATHS asks for {unmet:?}: this CPU cannot run them (or no path is named \
         so; the paths: avx512, lanes, lanes-avx2)"
    );
}
