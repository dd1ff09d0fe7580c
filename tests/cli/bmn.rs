//! Beggar-my-neighbour from the command line: a record replayed, a loop reported, any game of a
//! run played again, and `search` (deterministic whatever the threads, every deal it writes
//! replayable with `play`).

use crate::util::{fails, json, ok, read, Scratch};

#[test]
fn play_reports_cards_tricks_and_loops() {
    let r = json(&ok(&[
        "play",
        "bmn",
        "--deal",
        "-J------Q------AAA-----QQ-/K----JA-----------KQ-K-JJK",
        "--json",
    ]));
    assert_eq!(
        (r["rounds"].as_u64(), r["tricks"].as_u64()),
        (Some(7959), Some(1122))
    );
    assert_eq!(r["outcome"], "p2");
    // A given deal is named in the JSON as warsim writes it, whatever way it was written.
    let r = json(&ok(&[
        "play",
        "bmn",
        "--ranks",
        "5",
        "--suits",
        "2",
        "--deal",
        "2s Kh Q A J/3 K Q, A J",
        "--json",
    ]));
    assert_eq!(r["deal"], "-KQAJ/-KQAJ", "{r}");
    let text = ok(&[
        "play",
        "bmn",
        "--deal",
        "---K---Q-KQAJ-----AAJ--J--/----------Q----KQ-J-----KA",
    ]);
    assert!(
        text.contains("62 tricks") && text.contains("never ends"),
        "{text}"
    );
    let line = fails(2, &["play", "bmn", "--deal", "JQKA/----"]);
    assert!(line.contains("--deal"), "{line}");
}

/// Without --deal, `play bmn --seed S --game I` plays game I of `simulate bmn --seed S`: the
/// run's longest game has the run's longest length, every game of a small run adds up to the
/// run's summary, and the deal it prints plays the same game with --deal.
#[test]
fn play_without_a_deal_plays_the_game_of_a_run() {
    let run = json(&ok(&[
        "simulate", "bmn", "--games", "500", "--seed", "5", "--json",
    ]));
    let longest = run["longest_game"].as_u64().unwrap().to_string();
    let r = json(&ok(&[
        "play", "bmn", "--seed", "5", "--game", &longest, "--json",
    ]));
    assert_eq!(r["rounds"], run["longest_rounds"], "{r}");
    assert_eq!(
        (&r["seed"], r["index"].to_string()),
        (&5.into(), longest.clone())
    );
    let deal = r["deal"].as_str().unwrap();
    let again = json(&ok(&["play", "bmn", "--deal", deal, "--json"]));
    for k in ["outcome", "rounds", "tricks"] {
        assert_eq!(again[k], r[k], "{k}");
    }
    let text = ok(&["play", "bmn", "--seed", "5", "--game", &longest]);
    assert!(
        text.starts_with(&format!("bmn, game {} of seed 5: ", r["index"]))
            && text.contains(&format!("warsim play bmn --deal '{deal}'")),
        "{text}"
    );
    // Game 0 of seed 0 by default, the rule options passed on.
    let first = json(&ok(&["simulate", "bmn", "--games", "1", "--json"]));
    let r = json(&ok(&["play", "bmn", "--json"]));
    assert_eq!(
        (&r["rounds"], &r["index"]),
        (&first["rounds"]["max"], &0.into())
    );
    let small = ["--ranks", "7", "--suits", "2"];
    let run = json(&ok(&[
        &["simulate", "bmn", "--games", "30", "--seed", "9", "--json"][..],
        &small,
    ]
    .concat()));
    let (mut rounds, mut wins) = (0, 0);
    for i in 0..30 {
        let i = i.to_string();
        let r = json(&ok(&[
            &["play", "bmn", "--seed", "9", "--game", &i, "--json"][..],
            &small,
        ]
        .concat()));
        rounds += r["rounds"].as_u64().unwrap();
        wins += u64::from(r["outcome"] == "p1");
        let text = ok(&[&["play", "bmn", "--seed", "9", "--game", &i][..], &small].concat());
        assert!(
            text.contains("warsim play bmn --ranks 7 --suits 2 --deal '"),
            "{text}"
        );
    }
    assert_eq!(
        rounds as f64 / 30.0,
        run["rounds"]["mean"].as_f64().unwrap()
    );
    assert_eq!(wins, run["outcomes"]["p1"].as_u64().unwrap());
    let line = fails(2, &["play", "bmn", "--seed", "1", "--deal", "JQKA/----"]);
    assert!(line.contains("--seed") && line.contains("--deal"), "{line}");
}

#[test]
fn search_is_the_same_on_any_thread_count_and_its_deals_replay() {
    let dir = Scratch::new("search");
    let run = |threads: &str, name: &str| {
        let out = dir.path(name);
        let args = [
            "search",
            "bmn",
            "--method",
            "climb",
            "--ranks",
            "7",
            "--suits",
            "2",
            "--deals",
            "40000",
            "--walkers",
            "4",
            "--threads",
            threads,
            "--out",
        ];
        ok(&[&args[..], &[out.to_str().unwrap(), "--json"]].concat());
        let mut v = json(&read(&out, "search.json"));
        for k in [
            "elapsed_s",
            "deals_per_s",
            "threads",
            "provenance",
            "replay",
        ] {
            v.as_object_mut().unwrap().remove(k);
        }
        (v, read(&out, "best.txt"))
    };
    let (one, best_one) = run("1", "one");
    let (two, best_two) = run("2", "two");
    assert_eq!(one, two);
    assert_eq!(best_one, best_two);
    assert!(
        one["loops_found"].as_u64().unwrap() > 0,
        "14-card decks loop (1 deal in 6006)"
    );
    for found in one["best"]
        .as_array()
        .unwrap()
        .iter()
        .chain(one["loops"].as_array().unwrap())
    {
        let deal = found["deal"].as_str().unwrap();
        let r = json(&ok(&[
            "play", "bmn", "--ranks", "7", "--suits", "2", "--deal", deal, "--json",
        ]));
        assert_eq!(r["rounds"], found["cards"], "{deal}");
        assert_eq!(r["tricks"], found["tricks"], "{deal}");
        if let Some(c) = found["cycle"].as_array() {
            assert_eq!(
                (&r["cycle_len"], &r["cycle_tricks"]),
                (&c[0], &c[1]),
                "{deal}"
            );
        }
    }
    for line in best_one.lines().filter(|l| l.starts_with("warsim")) {
        assert!(line.contains("--ranks 7 --suits 2 --deal"), "{line}");
    }
}

#[test]
fn search_refuses_what_it_cannot_do() {
    let dir = Scratch::new("search-bad");
    let out = dir.path("s");
    let out = out.to_str().unwrap();
    let line = fails(2, &["search", "bmn", "--deals", "10"]);
    assert!(line.contains("--out"), "{line}");
    let line = fails(
        2,
        &[
            "search",
            "bmn",
            "--method",
            "climb",
            "--deals",
            "3",
            "--walkers",
            "4",
            "--out",
            out,
        ],
    );
    assert!(line.contains("--walkers 4"), "{line}");
    let line = fails(
        2,
        &[
            "search",
            "bmn",
            "--method",
            "climb",
            "--walkers",
            "0",
            "--out",
            out,
        ],
    );
    assert!(line.contains("--walkers"), "{line}");
    let help = ok(&["search", "bmn", "--help"]);
    let (rules, search) = help.split_once("Search options:").expect("a heading");
    assert!(
        rules.contains("Rule options:") && rules.contains("--penalties"),
        "{help}"
    );
    assert!(
        search.contains("--walkers") && !search.contains("--penalties"),
        "{help}"
    );
}

#[test]
fn bmn_counts_cards_and_snap_turns_everywhere_they_say_how_long() {
    let dir = Scratch::new("units");
    for (game, unit, one) in [("bmn", "cards", "card"), ("snap", "turns", "turn")] {
        let out = dir.path(game);
        let text = ok(&[
            "simulate",
            game,
            "--games",
            "300",
            "--out",
            out.to_str().unwrap(),
        ]);
        assert!(text.contains(&format!("\n{unit:<10}mean ")), "{text}");
        assert!(!text.contains("rounds"), "{text}");
        let summary = json(&read(&out, "summary.json"));
        // `rounds` stays (scripts read it); `unit` says what it counts.
        assert_eq!(summary["unit"], unit, "{summary}");
        assert!(summary["rounds"]["mean"].is_f64(), "{summary}");
        let readme = read(&out, "README.md");
        assert!(
            readme.contains(&format!("games per {one} count")),
            "{readme}"
        );
        assert!(!readme.contains("rounds"), "{readme}");
        let report = read(&out, "report.html");
        assert!(
            report.contains(&format!("{unit} per game")),
            "report.html of {game}"
        );
        let replay = ok(&["replay", out.to_str().unwrap(), "--game", "0"]);
        assert!(replay.trim_end().ends_with(unit), "{replay}");
        let replay = json(&ok(&["replay", out.to_str().unwrap(), "--json"]));
        assert_eq!(replay["unit"], unit, "{replay}");
    }
    let out = dir.path("war");
    ok(&[
        "simulate",
        "war",
        "--games",
        "100",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(json(&read(&out, "summary.json"))["unit"], "rounds");
}
