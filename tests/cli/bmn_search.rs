//! `search bmn --loops` and `search bmn --from`: the same cycles whatever the threads, every
//! cycle written replaying under `play bmn` as the loop it names, and a clear refusal of a deal
//! the search cannot start from.

use crate::util::{fails, json, ok, read, Scratch};

const CASELLA: &str = "---K---Q-KQAJ-----AAJ--J--/----------Q----KQ-J-----KA";

/// search.json without what depends on the machine.
fn stable(out: &std::path::Path) -> serde_json::Value {
    let mut v = json(&read(out, "search.json"));
    for k in [
        "elapsed_s",
        "tries_per_s",
        "deals_per_s",
        "threads",
        "provenance",
    ] {
        v.as_object_mut().unwrap().remove(k);
    }
    v
}

#[test]
fn a_loop_search_finds_the_same_cycles_on_any_threads_and_each_replays() {
    let dir = Scratch::new("search-loops");
    let run = |threads: &str, name: &str| {
        let out = dir.path(name);
        ok(&[
            "search",
            "bmn",
            "--loops",
            "--ranks",
            "7",
            "--suits",
            "2",
            "--deals",
            "60000",
            "--walkers",
            "3",
            "--threads",
            threads,
            "--out",
            out.to_str().unwrap(),
        ]);
        (stable(&out), read(&out, "best.txt"))
    };
    let (one, best_one) = run("1", "one");
    let (two, best_two) = run("2", "two");
    assert_eq!(one, two);
    assert_eq!(best_one, best_two);
    let cycles = one["cycles"].as_array().unwrap();
    assert!(!cycles.is_empty(), "14-card decks have cycles: {one}");
    assert_eq!(
        one["looped"].as_u64().unwrap()
            + one["ended"].as_u64().unwrap()
            + one["undecided"].as_u64().unwrap(),
        60000
    );
    let mut ids = std::collections::HashSet::new();
    for c in cycles {
        assert!(ids.insert(c["id"].as_str().unwrap()), "listed twice: {c}");
        let deal = c["position"].as_str().unwrap();
        let r = json(&ok(&[
            "play", "bmn", "--ranks", "7", "--suits", "2", "--deal", deal, "--json",
        ]));
        assert_eq!(r["outcome"], "loop", "{deal}");
        // The canonical position is on the cycle, so the game loops from its start.
        assert_eq!(r["loop_from"], 0, "{deal}");
        assert_eq!(r["cycle_tricks"], c["tricks"], "{deal}");
        assert_eq!(r["cycle_len"], c["cards"], "{deal}");
        assert!(best_one.contains(deal), "{best_one}");
    }
}

#[test]
fn the_standard_loop_search_starts_from_casellas_cycle() {
    let dir = Scratch::new("search-casella");
    let out = dir.path("s");
    ok(&[
        "search",
        "bmn",
        "--loops",
        "--deals",
        "2000",
        "--walkers",
        "2",
        "--out",
        out.to_str().unwrap(),
    ]);
    let v = stable(&out);
    assert_eq!(v["from"], CASELLA);
    assert_eq!(v["seeds"][0]["tricks"], 62);
    assert_eq!(v["seeds"][0]["cards"], 440);
    assert!(
        v["looped"].as_u64().unwrap() > 0,
        "changed positions fall back: {v}"
    );
}

#[test]
fn a_climb_from_a_deal_starts_there() {
    let dir = Scratch::new("search-from");
    let out = dir.path("s");
    let paulhus = "------------KAQ----J------/-JQQK---K----JK--QA-A-JA--";
    ok(&[
        "search",
        "bmn",
        "--from",
        paulhus,
        "--deals",
        "200",
        "--walkers",
        "2",
        "--out",
        out.to_str().unwrap(),
    ]);
    let v = stable(&out);
    assert_eq!(v["from"], paulhus);
    // Paulhus's deal is every walker's first: at least as long as it is kept.
    assert!(v["best"][0]["cards"].as_u64().unwrap() >= 4791, "{v}");
}

#[test]
fn a_search_refuses_a_deal_it_cannot_start_from() {
    let dir = Scratch::new("search-from-bad");
    let out = dir.path("s");
    let out = out.to_str().unwrap();
    let line = fails(2, &["search", "bmn", "--from", "JQKA-/---", "--out", out]);
    assert!(line.contains("--from"), "{line}");
    let line = fails(
        2,
        &[
            "search",
            "bmn",
            "--from",
            &format!("{}/{}", "-".repeat(26), "JJJJQQQQKKKKAAAA----------"),
            "--loops",
            "--out",
            out,
        ],
    );
    assert!(line.contains("--from") && line.contains("ends"), "{line}");
    let uneven = "---K---Q-KQAJ-----AAJ--J--Q/----------Q----K-J-----KA";
    let line = fails(2, &["search", "bmn", "--from", uneven, "--out", out]);
    assert!(line.contains("27 and 25"), "{line}");
    assert!(!std::path::Path::new(out).exists(), "nothing written");
}

/// Backward play from Mann and Wu's 2007 record deal (7,157 cards) finds Anderson's 2013
/// record (7,225 cards), a deal whose game reaches theirs after some tricks.
#[test]
fn backward_play_from_a_record_finds_a_longer_one() {
    let dir = Scratch::new("search-backward");
    let out = dir.path("s");
    let mann_wu = "K-KK----K-A-----JAA--Q--J-/---Q---Q-J-----J------AQ--";
    let anderson = "--A-Q--J--J---Q--AJ-K---K-/-J-------Q------A--A--QKK-";
    ok(&[
        "search",
        "bmn",
        "--from",
        mann_wu,
        "--deals",
        "1",
        "--walkers",
        "1",
        "--keep",
        "100",
        "--out",
        out.to_str().unwrap(),
    ]);
    let v = stable(&out);
    let best = v["best"].as_array().unwrap();
    let found = best
        .iter()
        .find(|f| f["deal"] == anderson)
        .unwrap_or_else(|| panic!("Anderson's deal among {v}"));
    assert_eq!(
        (found["cards"].as_u64(), found["tricks"].as_u64()),
        (Some(7225), Some(1016))
    );
    assert_eq!(found["ancestor_of"], mann_wu);
    // Every deal found by backward play is longer than the deal it reaches, and replays so.
    for f in best.iter().filter(|f| f["ancestor_of"].is_string()) {
        let deal = f["deal"].as_str().unwrap();
        let r = json(&ok(&["play", "bmn", "--deal", deal, "--json"]));
        assert_eq!(r["rounds"], f["cards"], "{deal}");
        assert!(f["cards"].as_u64() > Some(7157), "{f}");
    }
}

/// `--reaching` refuses, in one line with exit status 2 and nothing written, a deal whose game
/// ends, an option of the other searches, and a basin larger than `--max-positions`.
#[test]
fn reaching_refuses_what_it_cannot_walk() {
    let dir = Scratch::new("search-reaching-bad");
    let out = dir.path("r");
    let out = out.to_str().unwrap();
    let ends = format!("--reaching={}/JJJJQQQQKKKKAAAA----------", "-".repeat(26));
    let line = fails(2, &["search", "bmn", &ends, "--out", out]);
    assert!(line.contains("ends after 13 tricks"), "{line}");
    let casella = format!("--reaching={CASELLA}");
    let line = fails(
        2,
        &["search", "bmn", &casella, "--deals", "5", "--out", out],
    );
    assert!(line.contains("--deals"), "{line}");
    let line = fails(
        2,
        &[
            "search",
            "bmn",
            &casella,
            "--max-positions",
            "100",
            "--out",
            out,
        ],
    );
    assert!(line.contains("--max-positions"), "{line}");
    assert!(!std::path::Path::new(out).exists(), "nothing written");
}
