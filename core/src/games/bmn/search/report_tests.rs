//! Every mode's document keeps its fields in the order the committed search.json, census.json
//! and reaching.json files have them (the shared header first, the face's commands where the
//! face writes them), and a plan refuses what it cannot run in words that name settings.

use serde_json::Value;

use super::super::plan::{Method, Plan, Settings, DEFAULT_BASES};
use super::super::reaching::Walk;
use super::{Replays, SearchReport};
use crate::cancel::Cancel;
use crate::error::Piece;
use crate::games::bmn::{Bmn, BmnRules};

/// Commands that say what they play, as a face's would.
struct Said;

impl Replays for Said {
    fn deal(&self, deal: &str) -> String {
        format!("play {deal}")
    }
    fn cycle(&self, position: &str) -> String {
        format!("play, no cap, {position}")
    }
    fn search(&self, deals: u64, bases: usize, _: f64) -> String {
        format!("search {deals} {bases}")
    }
}

fn small() -> Bmn {
    Bmn::new(BmnRules::britannica(7, 2, [1, 2, 3, 4])).unwrap()
}

fn asked(deals: u64) -> Settings {
    Settings {
        deals: Some(deals),
        walkers: 2,
        keep: 3,
        // Only a record search takes other than the default (the plan refuses it elsewhere).
        bases: DEFAULT_BASES,
        ..Settings::default()
    }
}

fn run(game: &Bmn, settings: &Settings) -> Value {
    let plan = Plan::of(game, settings).unwrap();
    let report = plan.run(game, &Cancel::default(), &|_| {}, &Said);
    serde_json::to_value(&report).unwrap()
}

fn keys(v: &Value) -> Vec<&str> {
    v.as_object().unwrap().keys().map(String::as_str).collect()
}

const HEAD: [&str; 4] = ["game", "description", "rules", "seed"];

#[test]
fn a_climbs_document_keeps_its_order() {
    let climb = Settings {
        method: Method::Climb,
        ..asked(2000)
    };
    let v = run(&small(), &climb);
    let body = [
        "deals",
        "stopped",
        "replay",
        "walkers",
        "restart_after",
        "best",
        "loops_found",
        "loops",
        "capped",
        "elapsed_s",
        "deals_per_s",
        "threads",
    ];
    assert_eq!(keys(&v), [&HEAD[..], &body].concat());
    assert_eq!(v["replay"], "search 2000 0");
    let best = &v["best"][0];
    assert_eq!(keys(best).last(), Some(&"replay"));
    assert_eq!(
        best["replay"],
        format!("play {}", best["deal"].as_str().unwrap())
    );
}

#[test]
fn a_loop_searchs_document_keeps_its_order() {
    let v = run(
        &small(),
        &Settings {
            loops: true,
            ..asked(30_000)
        },
    );
    let body = [
        "tries",
        "stopped",
        "replay",
        "walkers",
        "max_tricks",
        "seeds",
        "cycles",
        "looped",
        "ended",
        "undecided",
        "elapsed_s",
        "tries_per_s",
        "threads",
    ];
    let head = ["game", "mode", "description", "rules", "seed"];
    assert_eq!(keys(&v), [&head[..], &body].concat());
    assert_eq!(v["mode"], "loops");
    let cycle = &v["cycles"][0];
    let position = cycle["position"].as_str().unwrap();
    assert_eq!(cycle["replay"], format!("play, no cap, {position}"));
}

#[test]
fn a_census_document_keeps_its_order() {
    let v = run(
        &small(),
        &Settings {
            census: true,
            from: Some("--J-/K-QQ-AAKJ-".into()),
            ..asked(8192)
        },
    );
    let body = [
        "walkers",
        "tries_per_round",
        "replay",
        "reached_from_a_deal",
        "balanced_either_leads",
        "balanced_player_1_leads",
        "cycles",
        "rounds",
        "tries",
        "looped",
        "ended",
        "undecided",
        "pool",
        "grown",
        "stopped",
        "elapsed_s",
        "threads",
    ];
    let head = ["game", "mode", "description", "rules", "seed", "from"];
    assert_eq!(keys(&v), [&head[..], &body].concat());
    assert_eq!(v["replay"], "search 8192 0");
}

#[test]
fn a_sampling_and_joining_document_keeps_its_order() {
    let v = run(
        &small(),
        &Settings {
            method: Method::Record,
            bases: 4,
            ..asked(50_000)
        },
    );
    let body = [
        "deals",
        "loops_found",
        "bases",
        "positions",
        "replayed",
        "incomplete",
        "played",
        "stopped",
        "replay",
        "best",
        "elapsed_s",
        "sample_s",
        "join_s",
        "deals_per_s",
        "threads",
    ];
    let head = ["game", "description", "rules", "method", "seed"];
    assert_eq!(keys(&v), [&head[..], &body].concat());
    assert_eq!(v["method"], "record");
    assert_eq!(v["replay"], format!("search 50000 {}", v["bases"]));
}

#[test]
fn a_walks_document_keeps_its_order() {
    let game = small();
    let walk = Walk::of(&game, "--J-/K-QQ-AAKJ-", 1 << 20, None).unwrap();
    let report = SearchReport::Reaching(walk.run(&game, &mut |_| {}, &Said).unwrap());
    let v = serde_json::to_value(&report).unwrap();
    let body = [
        "deal",
        "cycle_tricks",
        "cycle_cards",
        "entered_after_tricks",
        "basin_positions",
        "leading_in",
        "depth",
        "per_depth",
        "balanced_player_1_leads",
        "balanced_either_leads",
        "deals",
        "max_positions",
        "peak_positions_held",
        "elapsed_s",
    ];
    assert_eq!(keys(&v), [&HEAD[..3], &body].concat());
    let deal = &v["deals"][0];
    let written = deal["deal"].as_str().unwrap();
    assert_eq!(deal["replay"], format!("play, no cap, {written}"));
}

/// The settings a refusal names, with their values.
fn named(e: &crate::error::UsageError) -> Vec<(&str, Option<&str>)> {
    (e.pieces().iter())
        .filter_map(|p| match p {
            Piece::Setting { name, value } => Some((*name, value.as_deref())),
            _ => None,
        })
        .collect()
}

#[test]
fn a_plan_refuses_in_words_that_name_settings() {
    let game = small();
    let none = Settings {
        walkers: 0,
        method: Method::Climb,
        ..asked(100)
    };
    let e = Plan::of(&game, &none).unwrap_err();
    let said = [
        ("deals", Some("100")),
        ("walkers", Some("0")),
        ("keep", Some("3")),
    ];
    assert_eq!(named(&e), said);
    assert_eq!(
        e.to_string(),
        "search: deals 100 walkers 0 keep 3: need at least one walker, one deal per walker and \
         one deal kept"
    );
    let timeless = Settings {
        minutes: Some(0.0),
        method: Method::Sample,
        ..asked(100)
    };
    let e = Plan::of(&game, &timeless).unwrap_err();
    assert_eq!(named(&e), [("minutes", Some("0"))]);
    let from_a_loop = Settings {
        from: Some("A-J--Q-/A-KQKJ-".into()),
        method: Method::Climb,
        ..asked(100)
    };
    let e = Plan::of(&game, &from_a_loop).unwrap_err();
    assert!(named(&e).contains(&("reaching", None)), "{e}");
    // The default, sampling and joining, joins from a deal whose game ends.
    let e = Plan::of(
        &game,
        &Settings {
            method: Method::default(),
            ..from_a_loop
        },
    )
    .unwrap_err();
    assert!(named(&e).contains(&("loops", None)), "{e}");
    let e = Walk::of(&game, "--J-/K-QQ-AAKJ-", 10, None)
        .unwrap()
        .run(&game, &mut |_| {}, &Said)
        .unwrap_err();
    assert!(named(&e).contains(&("max_positions", None)), "{e}");
}
