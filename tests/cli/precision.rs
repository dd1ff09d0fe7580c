//! Runs to a stated precision, the tail and parity statistics, survival charts, and `compare`.

use crate::util::{fails, json, ok, read, s, Scratch};

#[test]
fn a_run_to_a_precision_plays_the_same_games_on_any_thread_count_and_on_a_rerun() {
    let dir = Scratch::new("precision");
    let run = |threads: &str, name: &str| {
        let out = dir.path(name);
        let text = ok(&[
            "simulate",
            "war",
            "--precision",
            "0.5",
            "--threads",
            threads,
            "--out",
            s(&out),
            "--json",
        ]);
        (out, json(&text))
    };
    let (a, ja) = run("1", "a");
    let (b, jb) = run("2", "b");
    let (c, jc) = run("2", "c");
    assert_eq!(read(&a, "histogram.csv"), read(&b, "histogram.csv"));
    assert_eq!(read(&b, "histogram.csv"), read(&c, "histogram.csv"));
    for j in [&jb, &jc] {
        assert_eq!(j["games"], ja["games"]);
        assert_eq!(j["precision"], ja["precision"]);
    }
    let ci = &ja["rounds"]["ci95"];
    let half = (ci[1].as_f64().unwrap() - ci[0].as_f64().unwrap()) / 2.0;
    assert!(half <= 0.5, "half-width {half}");
    assert_eq!(ja["precision"]["reached"], true);
    assert_eq!(ja["precision"]["target"], 0.5);
    // It stopped at a checkpoint: 10,000 games, then 1/8 more (at least 16,384) each time.
    let games = ja["games"].as_u64().unwrap();
    let mut n = 10_000u64;
    while n < games {
        n += (n / 8).max(16_384);
    }
    assert_eq!(n, games);
}

#[test]
fn a_precision_out_of_reach_says_so_and_a_shard_is_refused() {
    let text = ok(&[
        "simulate",
        "shotgun",
        "--precision",
        "0.001",
        "--max-games",
        "30000",
        "--json",
    ]);
    let j = json(&text);
    assert_eq!(j["games"], 30_000);
    assert_eq!(j["precision"]["reached"], false);
    let line = fails(
        2,
        &["simulate", "war", "--precision", "1", "--shard", "0/2"],
    );
    assert!(line.contains("--shard"), "{line}");
    let line = fails(2, &["simulate", "war", "--precision=-1"]);
    assert!(line.contains("--precision"), "{line}");
}

#[test]
fn summaries_carry_the_tail_and_the_parity_and_a_survival_chart() {
    let dir = Scratch::new("tail");
    let out = dir.path("w");
    ok(&[
        "simulate",
        "war",
        "--war-down",
        "1",
        "--games",
        "20000",
        "--out",
        s(&out),
        "--svg",
    ]);
    let j = json(&read(&out, "summary.json"));
    let tail = &j["tail"];
    let rate = tail["rate"].as_f64().unwrap();
    assert!(rate > 0.0 && (tail["e_folding_rounds"].as_f64().unwrap() * rate - 1.0).abs() < 1e-9);
    // The threshold is the 90th percentile: between the 75th and the 95th.
    let q = |k: &str| j["rounds"]["quantiles"][k].as_u64().unwrap();
    let from = tail["from"].as_u64().unwrap();
    assert!(q("p75") <= from && from <= q("p95"), "{from}");
    // With one card down, even lengths are several times as common as odd ones.
    let even = j["parity"]["even"]["share"].as_f64().unwrap();
    assert!(even > 0.8, "{even}");
    for chart in ["survival.png", "survival.svg"] {
        assert!(
            std::fs::metadata(out.join(chart)).unwrap().len() > 5_000,
            "{chart}"
        );
    }
    let csv = read(&out, "summary.csv");
    let header = csv.lines().next().unwrap();
    assert!(
        header.contains("tail_rate") && header.contains("even_share"),
        "{header}"
    );
}

#[test]
fn compare_finds_no_distance_between_a_run_and_itself_and_one_between_rule_sets() {
    let dir = Scratch::new("compare");
    let a = dir.path("a");
    let b = dir.path("b");
    ok(&["simulate", "war", "--games", "5000", "--out", s(&a)]);
    ok(&[
        "simulate",
        "war",
        "--games",
        "5000",
        "--war-down",
        "1",
        "--out",
        s(&b),
    ]);
    let out = dir.path("cmp");
    // A run against itself is refused: a test can only find it equal.
    let line = fails(2, &["compare", s(&a), s(&a), s(&b), "--out", s(&out)]);
    assert!(line.contains("the same run"), "{line}");
    assert!(!out.exists());
    let c = dir.path("c");
    ok(&[
        "simulate",
        "war",
        "--games",
        "5000",
        "--seed",
        "1",
        "--out",
        s(&c),
    ]);
    let j = json(&ok(&[
        "compare",
        s(&a),
        s(&c),
        s(&b),
        "--out",
        s(&out),
        "--json",
    ]));
    let ks = j["ks"].as_array().unwrap();
    assert_eq!(ks.len(), 3);
    // The same rules, other deals: no distance worth the name.
    assert!(ks[0]["d"].as_f64().unwrap() < 0.05 && ks[0]["p"].as_f64().unwrap() > 1e-3);
    assert!(ks[1]["d"].as_f64().unwrap() > 0.1 && ks[1]["p"].as_f64().unwrap() < 1e-6);
    assert_eq!(read(&out, "compare.csv").lines().count(), 4);
    assert!(std::fs::metadata(out.join("compare.png")).unwrap().len() > 5_000);
    let line = fails(
        2,
        &[
            "compare",
            s(&a),
            s(&dir.path("none")),
            "--out",
            s(&dir.path("x")),
        ],
    );
    assert!(line.contains("none"), "{line}");
    assert!(!dir.path("x").exists());
}
