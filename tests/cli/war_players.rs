//! `--players N` on `simulate war`, `play war` and `sweep war`.

use crate::util::{fails, json, ok, read, s, without_run_details, Scratch};

/// `--players 2` is today's game: the same files, byte for byte (timings and provenance
/// aside), and the same `play` output.
#[test]
fn players_2_is_the_two_player_game_byte_for_byte() {
    let dir = Scratch::new("players2");
    for rules in [
        &["--pickup", "shuffled"][..],
        &["--pickup", "table", "--war-down", "1"],
        &["--rules", "bryer"],
    ] {
        let run = |name: &str, extra: &[&str]| {
            let out = dir.path(name);
            let mut args = vec!["simulate", "war", "--games", "3000", "--seed", "4"];
            args.extend_from_slice(rules);
            args.extend_from_slice(extra);
            args.extend_from_slice(&["--out", s(&out)]);
            ok(&args);
            out
        };
        let (a, b) = (run("a", &[]), run("b", &["--players", "2"]));
        assert_eq!(read(&a, "histogram.csv"), read(&b, "histogram.csv"));
        let (ja, jb) = (
            json(&read(&a, "summary.json")),
            json(&read(&b, "summary.json")),
        );
        assert!(ja["rules"].get("players").is_none(), "{}", ja["rules"]);
        assert_eq!(without_run_details(ja), without_run_details(jb));
        std::fs::remove_dir_all(&a).unwrap();
        std::fs::remove_dir_all(&b).unwrap();
        let play = |extra: &[&str]| {
            let mut args = vec!["play", "war", "--seed", "3", "--game", "7", "--trace"];
            args.extend_from_slice(rules);
            args.extend_from_slice(extra);
            ok(&args)
        };
        assert_eq!(play(&[]), play(&["--players", "2"]));
    }
}

#[test]
fn n_player_runs_name_every_player_and_replay_their_games() {
    let dir = Scratch::new("players4");
    let out = dir.path("p4");
    ok(&[
        "simulate",
        "war",
        "--players",
        "4",
        "--games",
        "2000",
        "--seed",
        "2",
        "--out",
        s(&out),
    ]);
    let v = json(&read(&out, "summary.json"));
    assert_eq!(v["rules"]["players"], 4);
    let outcomes = v["outcomes"].as_object().unwrap();
    let won: u64 = (1..=4)
        .map(|k| outcomes[&format!("p{k}")].as_u64().unwrap())
        .sum();
    assert!(won > 1900, "{outcomes:?}");
    assert!(read(&out, "histogram.csv").starts_with("rounds,count,p1,p2,p3,p4"));
    // Every won game gives each player one place, the winner place 1.
    let places = v["places"].as_object().unwrap();
    for k in 1..=4 {
        let row = places[&format!("p{k}")].as_object().unwrap();
        assert_eq!(row.values().map(|n| n.as_u64().unwrap()).sum::<u64>(), won);
        assert_eq!(row["1"], outcomes[&format!("p{k}")]);
    }
    assert!(read(&out, "summary.csv").contains("place_p4_4"));
    // Shards merge into the unsharded run, places included.
    let shards: Vec<_> = (0..2)
        .map(|k| {
            let dir = dir.path(&format!("s{k}"));
            ok(&[
                "simulate",
                "war",
                "--players",
                "4",
                "--games",
                "2000",
                "--seed",
                "2",
                "--shard",
                &format!("{k}/2"),
                "--out",
                s(&dir),
            ]);
            dir
        })
        .collect();
    let merged = dir.path("merged");
    ok(&["merge", s(&shards[1]), s(&shards[0]), "--out", s(&merged)]);
    assert_eq!(
        without_run_details(json(&read(&merged, "summary.json"))),
        without_run_details(v.clone())
    );
    // The longest game replays from the run, with its elimination order.
    let replay = json(&ok(&["play", "war", "--from", s(&out), "--json"]));
    assert_eq!(replay["rounds"], v["rounds"]["max"]);
    let eliminated = replay["eliminated"].as_array().unwrap();
    assert_eq!(eliminated.len(), 3, "{replay}");
}

#[test]
fn play_war_takes_one_hand_per_player() {
    let text = ok(&[
        "play",
        "war",
        "--players",
        "3",
        "--ranks",
        "4",
        "--suits",
        "2",
        "--pickup",
        "p1-first",
        "--deal",
        "1 3/4 2/4 1",
    ]);
    assert!(text.contains("player 2 wins in round 4"), "{text}");
    assert!(
        text.contains("out in order: p3 (round 1), p1 (round 4)"),
        "{text}"
    );
    let e = fails(2, &["play", "war", "--players", "3", "--deal", "1 3/4 2"]);
    assert!(e.contains("2 hands but --players is 3"), "{e}");
    let e = fails(2, &["simulate", "war", "--players", "3", "--honor", "1"]);
    assert!(e.contains("--honor"), "{e}");
    let e = fails(
        2,
        &[
            "exact",
            "war",
            "--players",
            "3",
            "--ranks",
            "3",
            "--suits",
            "2",
        ],
    );
    assert!(e.contains("--players 3"), "{e}");
    let e = fails(2, &["exact", "war", "--players", "3", "--flawless"]);
    assert!(e.contains("--players 3"), "{e}");
}

#[test]
fn a_war_of_three_or_more_players_charts_who_wins_and_the_places() {
    let dir = Scratch::new("places-chart");
    let four = dir.path("four");
    ok(&[
        "simulate",
        "war",
        "--players",
        "4",
        "--games",
        "500",
        "--out",
        four.to_str().unwrap(),
    ]);
    assert!(four.join("places.png").is_file());
    assert!(read(&four, "README.md").contains("`places.png`"));
    assert!(read(&four, "report.html").contains("Who wins and where each player finishes"));
    let two = dir.path("two");
    ok(&[
        "simulate",
        "war",
        "--games",
        "500",
        "--out",
        two.to_str().unwrap(),
    ]);
    assert!(!two.join("places.png").exists());
}
