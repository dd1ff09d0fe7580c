//! `play` and `simulate` for shotgun and rps.

use crate::util::{fails, json, ok};

#[test]
fn play_shotgun_prints_the_first_death() {
    for (moves, want) in [
        ("rg fr", "1"),
        ("rr ff", "0"),
        ("rr fg rf", "2"),
        ("rg gr", "none"),
    ] {
        assert_eq!(ok(&["play", "shotgun", moves]).trim(), want, "{moves}");
    }
    // Several arguments are joined.
    assert_eq!(ok(&["play", "shotgun", "r", "g", "f", "r"]).trim(), "1");
    let v = json(&ok(&["play", "shotgun", "rf gg rr fg rr fr", "--json"]));
    assert_eq!(
        (v["outcome"].as_str(), v["rounds"].as_u64()),
        (Some("p1"), Some(6))
    );
    let none = json(&ok(&["play", "shotgun", "rg gr", "--json"]));
    assert_eq!(
        (none["outcome"].as_str(), none["rounds"].as_u64()),
        (Some("none"), Some(2))
    );
}

#[test]
fn play_shotgun_bad_moves_name_the_position() {
    assert!(fails(2, &["play", "shotgun", "rg fx"]).contains("position 5"));
    assert!(fails(2, &["play", "shotgun", "rgf"]).contains("odd"));
}

#[test]
fn play_rps_prints_winners_or_draw_as_json_names_it() {
    assert_eq!(ok(&["play", "rps", "r", "r", "s"]).trim(), "1 2");
    assert_eq!(ok(&["play", "rps", "r", "p", "s"]).trim(), "draw");
    let v = json(&ok(&["play", "rps", "r", "p", "s", "--json"]));
    assert_eq!(v["outcome"], "draw");
    assert_eq!(ok(&["play", "rps", "p", "r"]).trim(), "1");
    let v = json(&ok(&["play", "rps", "s", "p", "p", "--json"]));
    assert_eq!(
        (v["outcome"].as_str(), v["players"].clone()),
        (Some("p1"), serde_json::json!([1]))
    );
    let w = json(&ok(&["play", "rps", "r", "r", "s", "--json"]));
    assert_eq!(w["outcome"], "winners");
    assert!(fails(2, &["play", "rps", "r", "x"]).contains("player 2"));
}

#[test]
fn simulate_reports_the_exact_answer_beside_the_estimate() {
    let v = json(&ok(&[
        "simulate",
        "rps",
        "--players",
        "5",
        "--games",
        "20000",
        "--json",
    ]));
    let exact = v["exact"]["mean_rounds"].as_f64().unwrap();
    assert!((exact - 4.485714285714286).abs() < 1e-12);
    let v = json(&ok(&["simulate", "shotgun", "--games", "20000", "--json"]));
    assert!((v["exact"]["draw"].as_f64().unwrap() - 0.156626506).abs() < 1e-6);
    assert!(fails(2, &["simulate", "shotgun", "--mix", "0,1,1"]).contains("--mix"));
    assert!(fails(2, &["simulate", "rps", "--players", "1"]).contains("--players"));
}

#[test]
fn play_snap_prints_the_seeds_answers() {
    for (piles, want) in [
        (&["abca", "abba"][..], "1"),
        (&["abba", "abca"][..], "2"),
        (&["abba", "acab"][..], "1 2"),
        (&["bdad", "acbc", "abba"][..], "1 3"),
        (&["fizz", "buzz"][..], "2"),
    ] {
        let mut args = vec!["play", "snap"];
        args.extend_from_slice(piles);
        assert_eq!(ok(&args).trim(), want, "{piles:?}");
    }
    let v = json(&ok(&["play", "snap", "bdad", "acbc", "abba", "--json"]));
    assert_eq!(
        (v["outcome"].as_str(), v["rounds"].as_u64()),
        (Some("loop"), Some(62))
    );
    assert_eq!(
        (v["loop_from"].as_u64(), v["cycle_len"].as_u64()),
        (Some(14), Some(48))
    );
    let n = ok(&["play", "snap", "--numbers", "1,2,2,1", "1,2,3,1"]);
    assert_eq!(n.trim(), "2");
    let trace = ok(&["play", "snap", "bdad", "acbc", "abba", "--trace"]);
    assert!(
        trace.contains("// loop: the state after turn 14"),
        "{trace}"
    );
}

#[test]
fn snap_bad_input_is_one_line_exit_2() {
    assert!(fails(2, &["play", "snap", "abc"]).contains("two piles"));
    assert!(fails(2, &["play", "snap", "abc", "ab"]).contains("same number"));
    assert!(fails(2, &["play", "snap", "abc", ""]).contains("empty"));
    assert!(fails(2, &["simulate", "snap", "--players", "3"]).contains("evenly"));
}

#[test]
fn loop_detecting_runs_merge_exactly() {
    let dir = crate::util::Scratch::new("merge-loops");
    for (name, game) in [
        (
            "snap",
            &[
                "simulate",
                "snap",
                "--players",
                "3",
                "--faces",
                "4",
                "--copies",
                "3",
            ][..],
        ),
        ("war", &["simulate", "war", "--pickup", "p1-first"][..]),
    ] {
        let run = |out: &str, extra: &[&str]| {
            let path = dir.path(&format!("{name}-{out}"));
            let mut args = game.to_vec();
            args.extend_from_slice(&[
                "--games",
                "4000",
                "--seed",
                "2",
                "--out",
                path.to_str().unwrap(),
            ]);
            args.extend_from_slice(extra);
            ok(&args);
            path
        };
        let whole = run("whole", &[]);
        let parts: Vec<_> = (0..3)
            .map(|k| run(&format!("s{k}"), &["--shard", &format!("{k}/3")]))
            .collect();
        let merged = dir.path(&format!("{name}-merged"));
        let mut args = vec!["merge"];
        args.extend(parts.iter().map(|p| p.to_str().unwrap()));
        args.extend_from_slice(&["--out", merged.to_str().unwrap()]);
        ok(&args);
        for f in ["histogram.csv", "cycles.csv", "summary.csv"] {
            assert_eq!(
                crate::util::read(&whole, f),
                crate::util::read(&merged, f),
                "{name} {f}"
            );
        }
    }
}
