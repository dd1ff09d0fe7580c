//! `exact`: every deal once; bad input refused in one line.

use crate::util::{fails, json, ok, read, s, Scratch};

#[test]
fn exact_war_counts_deals_and_writes_the_files_of_simulate() {
    let dir = Scratch::new("exact");
    let out = dir.path("e");
    let j = json(&ok(&[
        "exact",
        "war",
        "--ranks",
        "3",
        "--suits",
        "4",
        "--pickup",
        "p1-first",
        "--out",
        s(&out),
        "--json",
    ]));
    assert_eq!(j["games"], 34_650);
    assert_eq!(j["exact"]["deals"], 34_650);
    let outcomes = j["outcomes"].as_object().unwrap();
    let total: u64 = outcomes.values().map(|v| v.as_u64().unwrap()).sum();
    assert_eq!(total, 34_650);
    // Every share also as a fraction in lowest terms, k/n = count/deals.
    for (name, f) in j["exact"]["fractions"].as_object().unwrap() {
        let (k, n) = f.as_str().unwrap().split_once('/').unwrap();
        let (k, n): (f64, f64) = (k.parse().unwrap(), n.parse().unwrap());
        assert!(
            (k / n - outcomes[name].as_f64().unwrap() / 34_650.0).abs() < 1e-12,
            "{name}"
        );
    }
    for f in [
        "summary.json",
        "summary.csv",
        "histogram.csv",
        "cycles.csv",
        "histogram.png",
    ] {
        assert!(out.join(f).exists(), "{f}");
    }
    assert_eq!(json(&read(&out, "summary.json"))["outcomes"], j["outcomes"]);
}

#[test]
fn exact_war_with_the_shuffled_pickup_solves_the_chain() {
    let dir = Scratch::new("chain");
    let out = dir.path("c");
    let j = json(&ok(&[
        "exact",
        "war",
        "--ranks",
        "2",
        "--suits",
        "2",
        "--json",
        "--out",
        s(&out),
    ]));
    assert_eq!(j["deals"], 6);
    assert!((j["mean_rounds"].as_f64().unwrap() - 8.0 / 3.0).abs() < 1e-12);
    assert!((j["outcomes"]["draw"].as_f64().unwrap() - 2.0 / 3.0).abs() < 1e-12);
    assert_eq!(json(&read(&out, "chain.json"))["states"], j["states"]);
}

#[test]
fn exact_refuses_what_it_cannot_enumerate() {
    for (args, want) in [
        (vec!["exact", "war"], "use simulate"),
        (
            vec![
                "exact", "war", "--ranks", "2", "--suits", "2", "--pickup", "won-pile",
            ],
            "pickup won-pile",
        ),
        (vec!["exact", "war", "--pickup", "p1-first"], "use simulate"),
        (
            vec![
                "exact", "war", "--ranks", "8", "--suits", "4", "--pickup", "p1-first",
            ],
            "distinct deals",
        ),
        (
            vec![
                "exact", "war", "--ranks", "2", "--suits", "2", "--pickup", "p1-first", "--games",
                "5",
            ],
            "--games",
        ),
        (
            vec![
                "exact", "war", "--rules", "bryer", "--ranks", "2", "--suits", "2",
            ],
            "bryer",
        ),
        (vec!["exact", "snap"], "simulate"),
    ] {
        let line = fails(2, &args);
        assert!(line.contains(want), "{args:?}: {line}");
    }
}

#[test]
fn exact_war_flawless_gives_the_fraction_for_any_deck() {
    // 8 cards: 60 clean matchings, 2·60·4!/8! = 1/14 (flawless.rs counts it deal by deal too).
    let j = json(&ok(&[
        "exact",
        "war",
        "--flawless",
        "--ranks",
        "4",
        "--suits",
        "2",
        "--json",
    ]));
    assert_eq!(j["probability"], "1/14");
    assert_eq!(j["matchings"], "60");
    assert_eq!(j["battles"], 4);
    // 52 cards: the published 1 in 159,620,172; text, JSON and files agree.
    let dir = Scratch::new("flawless");
    let out = dir.path("f");
    let text = ok(&["exact", "war", "--flawless", "--out", s(&out)]);
    assert!(text.contains("1 in 159,620,171.7"), "{text}");
    let file = json(&read(&out, "flawless.json"));
    assert_eq!(file["one_in"].as_f64().unwrap().round(), 159_620_172.0);
    assert!(text.contains(file["probability"].as_str().unwrap()));
    assert!(out.join("report.html").exists());
}

#[test]
fn exact_flawless_refuses_what_it_does_not_compute() {
    for (args, says) in [
        (
            &["war", "--rules", "bryer"][..],
            "shuffled deal of the whole deck",
        ),
        (
            &["war", "--deal", "even"][..],
            "shuffled deal of the whole deck",
        ),
        (&["snap"][..], "--flawless is War's"),
        (&["war", "--threads", "2"][..], "cannot be used with"),
    ] {
        let mut full = vec!["exact"];
        full.extend_from_slice(args);
        full.push("--flawless");
        let err = fails(2, &full);
        assert!(err.contains(says), "{full:?}: {err}");
    }
}

/// A Markov-chain answer plays no game, so no cap: chain.json says so in its description and
/// in its rules (`max_rounds` null), not a cap of 100,000 beside "no round cap".
#[test]
fn a_chain_answer_names_no_round_cap() {
    let v = json(&ok(&[
        "exact", "war", "--ranks", "3", "--suits", "2", "--json",
    ]));
    assert!(
        v["description"].as_str().unwrap().contains("no round cap"),
        "{v}"
    );
    assert_eq!(v["rules"]["max_rounds"], serde_json::Value::Null);
}
