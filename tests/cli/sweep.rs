//! `sweep`: every rule set is exactly the `simulate` run with its settings; the sweep's own
//! files; bad lists refused before anything is written.

use crate::util::{fails, json, ok, read, s, without_run_details, Scratch};

#[test]
fn each_rule_set_is_the_simulate_run_with_its_settings() {
    let dir = Scratch::new("sweep");
    let out = dir.path("sw");
    let text = ok(&[
        "sweep",
        "war",
        "--war-down",
        "1,3",
        "--pickup",
        "shuffled,p1-first",
        "--games",
        "3000",
        "--seed",
        "9",
        "--threads",
        "2",
        "--out",
        s(&out),
    ]);
    assert!(text.contains("4 rule sets, 3,000 games each"), "{text}");
    let doc = json(&read(&out, "sweep.json"));
    assert_eq!(doc["varying"], serde_json::json!(["war-down", "pickup"]));
    let sets = doc["rule_sets"].as_array().unwrap();
    assert_eq!(sets.len(), 4);
    for (i, (down, pickup)) in [
        ("1", "shuffled"),
        ("1", "p1-first"),
        ("3", "shuffled"),
        ("3", "p1-first"),
    ]
    .into_iter()
    .enumerate()
    {
        let name = format!("war-down-{down}_pickup-{pickup}");
        assert_eq!(sets[i]["name"], name.as_str());
        assert_eq!(sets[i]["settings"]["pickup"], pickup);
        let alone = dir.path(&format!("alone-{i}"));
        ok(&[
            "simulate",
            "war",
            "--war-down",
            down,
            "--pickup",
            pickup,
            "--games",
            "3000",
            "--seed",
            "9",
            "--threads",
            "1",
            "--out",
            s(&alone),
        ]);
        let swept = out.join(&name);
        assert_eq!(
            read(&swept, "histogram.csv"),
            read(&alone, "histogram.csv"),
            "{name}"
        );
        let strip = |v: serde_json::Value| {
            let mut v = without_run_details(v);
            v.as_object_mut().unwrap().remove("histogram_digest");
            v
        };
        assert_eq!(
            strip(json(&read(&swept, "summary.json"))),
            strip(json(&read(&alone, "summary.json"))),
            "{name}"
        );
        assert_eq!(
            strip(sets[i]["summary"].clone()),
            strip(json(&read(&swept, "summary.json")))
        );
    }
    // sweep.csv: a header and a row per rule set, the union of their summary.csv columns.
    let csv = read(&out, "sweep.csv");
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines.len(), 5);
    assert!(
        lines[0].starts_with("rule_set,game,description,games,seed,group,rule_"),
        "{}",
        lines[0]
    );
    assert!(
        lines[0].contains("loop_share"),
        "loop columns of the p1-first runs kept"
    );
    assert!(lines[1].starts_with("war-down-1_pickup-shuffled,war,"));
    for chart in ["sweep.png", "means.png"] {
        let len = std::fs::metadata(out.join(chart)).unwrap().len();
        assert!(len > 10_000, "{chart}: {len} bytes");
    }
    assert!(!out.join("sweep.svg").exists());
}

#[test]
fn a_sweep_gives_the_same_histograms_on_any_thread_count_and_writes_svg() {
    let dir = Scratch::new("sweep-threads");
    let run = |threads: &str, name: &str| {
        let out = dir.path(name);
        ok(&[
            "sweep",
            "rps",
            "--players",
            "3,5",
            "--games",
            "20000",
            "--threads",
            threads,
            "--svg",
            "--json",
            "--out",
            s(&out),
        ]);
        out
    };
    let (a, b) = (run("1", "a"), run("2", "b"));
    for set in ["players-3", "players-5"] {
        assert_eq!(
            read(&a.join(set), "histogram.csv"),
            read(&b.join(set), "histogram.csv")
        );
    }
    for chart in ["sweep.svg", "means.svg"] {
        assert!(read(&a, chart).contains("<text"), "{chart} holds text");
    }
}

#[test]
fn bad_lists_are_refused_in_one_line_and_nothing_is_written() {
    let dir = Scratch::new("sweep-bad");
    let out = dir.path("o");
    let o = s(&out);
    for (args, want) in [
        (
            vec!["sweep", "war", "--pickup", "shuffled,sorted", "--out", o],
            "sorted",
        ),
        (vec!["sweep", "war", "--war-down", "1,3"], "--out"),
        (
            vec!["sweep", "war", "--shard", "0/2", "--out", o],
            "--shard",
        ),
        (vec!["sweep", "chess", "--out", o], "chess"),
        (
            vec!["sweep", "war", "--war-down", "all", "--out", o],
            "no fixed list",
        ),
        (vec!["sweep", "war", "--ranks", "0,13", "--out", o], "ranks"),
        (
            vec![
                "sweep",
                "war",
                "--pickup",
                "shuffled",
                "--detect-loops",
                "on,off",
                "--out",
                o,
            ],
            "detect-loops",
        ),
    ] {
        let line = fails(2, &args);
        assert!(line.contains(want), "{args:?}: {line}");
        assert!(!out.exists(), "{args:?} wrote {o}");
    }
}

#[test]
fn help_lists_the_game_options() {
    let text = ok(&["sweep", "war", "--help"]);
    assert!(
        text.contains("comma list") && text.contains("--pickup"),
        "{text}"
    );
}
