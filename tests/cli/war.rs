//! `simulate war`, `merge` and `play war`.

use crate::util::{fails, json, ok, read, s, without_run_details, Scratch};

#[test]
fn same_histogram_for_any_thread_count_and_sharding() {
    let dir = Scratch::new("determinism");
    let base = ["simulate", "war", "--games", "300000", "--seed", "5"];
    let run = |name: &str, extra: &[&str]| {
        let out = dir.path(name);
        let mut args = base.to_vec();
        args.extend_from_slice(extra);
        args.extend_from_slice(&["--out", s(&out)]);
        ok(&args);
        out
    };
    let t1 = run("t1", &["--threads", "1"]);
    let t2 = run("t2", &["--threads", "2"]);
    let shards: Vec<_> = (0..3)
        .map(|k| {
            run(
                &format!("s{k}"),
                &["--shard", &format!("{k}/3"), "--threads", "2"],
            )
        })
        .collect();
    let merged = dir.path("merged");
    ok(&[
        "merge",
        s(&shards[2]),
        s(&shards[0]),
        s(&shards[1]),
        "--out",
        s(&merged),
    ]);
    let h1 = read(&t1, "histogram.csv");
    assert!(h1.lines().count() > 100);
    assert_eq!(h1, read(&t2, "histogram.csv"));
    assert_eq!(h1, read(&merged, "histogram.csv"));
    // Every statistic but the timings agrees too.
    let strip = without_run_details;
    let whole = strip(json(&read(&t1, "summary.json")));
    assert_eq!(whole, strip(json(&read(&t2, "summary.json"))));
    assert_eq!(whole, strip(json(&read(&merged, "summary.json"))));
    assert_eq!(whole["games"], 300_000);
    // Another seed, another histogram.
    let other = dir.path("seed6");
    ok(&[
        "simulate",
        "war",
        "--games",
        "300000",
        "--seed",
        "6",
        "--out",
        s(&other),
    ]);
    assert_ne!(h1, read(&other, "histogram.csv"));
}

#[test]
fn json_summary_has_the_contract_keys_and_consistent_counts() {
    let v = json(&ok(&[
        "simulate", "war", "--rules", "bryer", "--games", "20000", "--json",
    ]));
    for k in [
        "game",
        "rules",
        "games",
        "seed",
        "rounds",
        "outcomes",
        "longest_game",
        "elapsed_s",
        "games_per_s",
        "wars",
    ] {
        assert!(v.get(k).is_some(), "no {k}");
    }
    assert_eq!(v["rules"]["pickup"], "bryer");
    assert_eq!(v["rules"]["max_rounds"], 2000);
    let r = &v["rounds"];
    for k in [
        "mean",
        "sd",
        "sem",
        "ci95",
        "median",
        "min",
        "max",
        "quantiles",
    ] {
        assert!(r.get(k).is_some(), "no rounds.{k}");
    }
    let total: u64 = v["outcomes"]
        .as_object()
        .unwrap()
        .values()
        .map(|n| n.as_u64().unwrap())
        .sum();
    assert_eq!(total, 20_000);
    let deepest: u64 = v["wars"]["deepest"]
        .as_object()
        .unwrap()
        .values()
        .map(|n| n.as_u64().unwrap())
        .sum();
    assert_eq!(deepest, 20_000);
    let (mean, sem) = (r["mean"].as_f64().unwrap(), r["sem"].as_f64().unwrap());
    assert!((r["ci95"][0].as_f64().unwrap() - (mean - 1.96 * sem)).abs() < 1e-9);
}

#[test]
fn the_longest_game_replays_with_play_war() {
    let v = json(&ok(&[
        "simulate", "war", "--games", "5000", "--seed", "3", "--json",
    ]));
    let index = v["longest_game"].as_u64().unwrap().to_string();
    let p = json(&ok(&[
        "play", "war", "--seed", "3", "--game", &index, "--json",
    ]));
    assert_eq!(p["rounds"], v["rounds"]["max"]);
    let trace = ok(&["play", "war", "--seed", "3", "--game", &index, "--trace"]);
    // The deal line, one line per round, the line naming the game played, the result line.
    assert_eq!(
        trace.lines().count() as u64,
        v["rounds"]["max"].as_u64().unwrap() + 3
    );
}

#[test]
fn play_war_reports_a_loop_with_its_cycle() {
    let p = json(&ok(&[
        "play", "war", "--pickup", "p1-first", "--seed", "3", "--game", "0", "--json",
    ]));
    assert_eq!(p["outcome"], "loop");
    assert_eq!(
        (p["loop_from"].as_u64(), p["cycle_len"].as_u64()),
        (Some(482), Some(2080))
    );
    assert_eq!(p["rounds"], 482 + 2080);
    assert_eq!(p["players"], serde_json::json!([1, 2]));
    let d = json(&ok(&[
        "play", "war", "--ranks", "4", "--suits", "1", "--pickup", "p1-first", "--deal", "1 3/4 2",
        "--json",
    ]));
    assert_eq!(
        (d["outcome"].as_str(), d["rounds"].as_u64()),
        (Some("loop"), Some(6))
    );
}

#[test]
fn bad_input_exits_2_with_one_line_and_writes_nothing() {
    let dir = Scratch::new("bad");
    let out = dir.path("out");
    let cases: &[&[&str]] = &[
        &["simulate", "chess"],
        &["simulate", "war", "--rules", "house"],
        &["simulate", "war", "--games", "0"],
        &["simulate", "war", "--games", "-5"],
        &["simulate", "war", "--games", "many"],
        &["simulate", "war", "--seed", "-1"],
        &["simulate", "war", "--threads", "0"],
        &["simulate", "war", "--shard", "3/3"],
        &["simulate", "war", "--shard", "1"],
        &["simulate", "war", "--games", "2", "--shard", "0/3"],
        &["simulate", "war", "--ranks", "13", "--suits", "3"],
        &["simulate", "war", "--ranks", "0"],
        &["simulate", "war", "--suits", "0"],
        &["simulate", "war", "--max-rounds", "0"],
        &[
            "simulate",
            "war",
            "--detect-loops",
            "on",
            "--pickup",
            "shuffled",
        ],
        &["simulate", "war", "--pickup", "sorted"],
        &["simulate", "war", "--won-pile", "reversed"],
        &[
            "simulate",
            "war",
            "--pickup",
            "won-pile",
            "--won-pile",
            "kept",
        ],
        &["simulate", "war", "--won-pile", "upside-down"],
        &["play", "war", "--quit-stats"],
        &["play", "war", "--deal", "1 2 x/3 4"],
        &["play", "war", "--deal", "1 2 14/3 4"],
        &["play", "war", "--deal", "1 2 3"],
        &["play", "war", "--deal", "/3 4"],
        &["merge", "--out", "x"],
    ];
    for args in cases {
        let mut full = args.to_vec();
        if args[0] == "simulate" {
            full.extend_from_slice(&["--out", s(&out)]);
            if !args.contains(&"--games") {
                full.extend_from_slice(&["--games", "10"]);
            }
        }
        let line = fails(2, &full);
        assert!(line.starts_with("error:"), "{full:?}: {line}");
        assert!(!out.exists(), "{full:?} wrote {}", out.display());
    }
}

#[test]
fn out_writes_every_file_and_no_temporary() {
    let dir = Scratch::new("files");
    let out = dir.path("o");
    ok(&[
        "simulate",
        "war",
        "--pickup",
        "p1-first",
        "--games",
        "3000",
        "--out",
        s(&out),
    ]);
    let mut names: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            ".warsim-set",
            "README.md",
            "cycles.csv",
            "histogram.csv",
            "histogram.png",
            "report.html",
            "summary.csv",
            "summary.json",
            "survival.png"
        ]
    );
    let png = std::fs::read(out.join("histogram.png")).unwrap();
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    let v = json(&read(&out, "summary.json"));
    assert!(v["loops"]["share"].as_f64().unwrap() > 0.0);
    assert!(v["finished_rounds"]["mean"].as_f64().is_some());
    let cycles = read(&out, "cycles.csv");
    let looped: u64 = cycles
        .lines()
        .skip(1)
        .map(|l| l.split(',').nth(1).unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(looped, v["outcomes"]["loop"].as_u64().unwrap());
}

#[test]
fn merge_refuses_missing_duplicated_and_foreign_shards() {
    let dir = Scratch::new("merge");
    // One shard directory: `simulate GAME --games N --seed S` plus `extra`.
    let run = |name: &str, game: &str, games: &str, seed: &str, extra: &[&str]| {
        let out = dir.path(name);
        let mut args = vec![
            "simulate",
            game,
            "--games",
            games,
            "--seed",
            seed,
            "--out",
            s(&out),
        ];
        args.extend_from_slice(extra);
        ok(&args);
        out
    };
    let shard = |name: &str, k: &str| run(name, "war", "3000", "1", &["--shard", k]);
    let a = shard("a", "0/3");
    let b = shard("b", "1/3");
    let c = shard("c", "2/3");
    let other_seed = run("seed2", "war", "3000", "2", &["--shard", "2/3"]);
    let other_rules = run(
        "bryer",
        "war",
        "3000",
        "1",
        &["--shard", "2/3", "--rules", "bryer"],
    );
    let other_total = run("total", "war", "3003", "1", &["--shard", "2/3"]);
    let other_game = run("shotgun", "shotgun", "3000", "1", &["--shard", "2/3"]);
    let empty = dir.path("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let out = dir.path("merged");
    let refuse = |dirs: &[&std::path::Path], want: &str| {
        let mut args: Vec<&str> = vec!["merge"];
        args.extend(dirs.iter().map(|d| s(d)));
        args.extend_from_slice(&["--out", s(&out)]);
        let line = fails(2, &args);
        assert!(line.contains(want), "{dirs:?}: {line}");
        assert!(!out.exists());
    };
    refuse(&[&a, &c], "missing: shard 1/3 (games 1000..2000)");
    refuse(&[&a, &b, &c, &b], "duplicates");
    refuse(&[&a, &b, &other_seed], "seed 2");
    refuse(&[&a, &b, &other_rules], "rules");
    refuse(&[&a, &b, &other_game], "game shotgun");
    refuse(&[&a, &b, &other_total], "3003");
    refuse(&[&a, &b, &empty], "summary.json");
    ok(&["merge", s(&a), s(&b), s(&c), "--out", s(&out)]);
}

#[test]
fn help_is_complete_and_exits_0() {
    let help = ok(&["simulate", "war", "--help"]);
    for flag in [
        "--rules",
        "--ranks",
        "--suits",
        "--war-down",
        "--short-war",
        "--pickup",
        "--detect-loops",
        "--max-rounds",
        "--shard",
        "--threads",
    ] {
        assert!(help.contains(flag), "help lacks {flag}");
    }
}

#[test]
fn play_from_a_run_replays_its_longest_game_with_its_rules() {
    let dir = Scratch::new("from");
    let run = dir.path("run");
    let v = json(&ok(&[
        "simulate",
        "war",
        "--pickup",
        "p1-first",
        "--war-down",
        "1",
        "--games",
        "3000",
        "--seed",
        "7",
        "--json",
        "--out",
        s(&run),
    ]));
    let p = json(&ok(&["play", "war", "--from", s(&run), "--json"]));
    assert_eq!(p["index"], v["longest_game"]);
    assert_eq!(p["rounds"], v["longest_rounds"]);
    assert_eq!(p["rules"], v["rules"]);
    assert_eq!(p["seed"], 7);
    // Any other game of the run, as the run's options give it.
    let a = json(&ok(&[
        "play",
        "war",
        "--from",
        s(&run),
        "--game",
        "5",
        "--json",
    ]));
    let b = json(&ok(&[
        "play",
        "war",
        "--pickup",
        "p1-first",
        "--war-down",
        "1",
        "--seed",
        "7",
        "--game",
        "5",
        "--json",
    ]));
    assert_eq!(a, b);
    // Rule options beside --from would be ignored: refused.
    assert!(fails(2, &["play", "war", "--from", s(&run), "--pickup", "table"]).contains("--from"));
    assert!(fails(2, &["play", "war", "--from", s(&run), "--game", "3000"]).contains("3000"));
    assert!(fails(2, &["play", "war", "--from", s(&dir.path("none"))]).contains("summary.json"));
}

#[test]
fn summaries_say_where_they_come_from() {
    let v = json(&ok(&[
        "simulate", "war", "--games", "100", "--seed", "3", "--json",
    ]));
    let p = &v["provenance"];
    assert!(p["program"].as_str().unwrap().starts_with("warsim "));
    assert!(p["command"]
        .as_str()
        .unwrap()
        .ends_with("simulate war --games 100 --seed 3 --json"));
    assert!(p["date"].as_str().unwrap().ends_with('Z'));
}

#[test]
fn grouped_shards_merge_to_the_unsharded_groups_byte_for_byte() {
    let dir = Scratch::new("by");
    let run = |extra: &[&str], name: &str| {
        let out = dir.path(name);
        let mut args = vec![
            "simulate", "war", "--by", "p1-top", "--games", "30000", "--seed", "3",
        ];
        args.extend(extra);
        args.extend(["--out", s(&out)]);
        ok(&args);
        out
    };
    let whole = run(&[], "whole");
    let a = run(&["--shard", "0/2"], "a");
    let b = run(&["--shard", "1/2", "--threads", "1"], "b");
    let merged = dir.path("merged");
    ok(&["merge", s(&a), s(&b), "--out", s(&merged)]);
    assert_eq!(read(&whole, "by.csv"), read(&merged, "by.csv"));
    assert_eq!(
        read(&whole, "histogram.csv"),
        read(&merged, "histogram.csv")
    );
    let j = json(&read(&merged, "summary.json"));
    let groups = j["by"].as_object().unwrap();
    assert_eq!(groups.keys().collect::<Vec<_>>(), ["0", "1", "2", "3", "4"]);
    let total: u64 = groups.values().map(|g| g["games"].as_u64().unwrap()).sum();
    assert_eq!(total, 30_000);
    // summary.csv: the row of all games, then one per group.
    assert_eq!(read(&merged, "summary.csv").lines().count(), 1 + 1 + 5);
    assert!(std::fs::metadata(merged.join("by.png")).unwrap().len() > 5_000);
    // A shard whose by.csv was edited is refused.
    let text = read(&a, "by.csv").replacen("\n0,", "\n1,", 1);
    std::fs::write(a.join("by.csv"), text).unwrap();
    let line = fails(2, &["merge", s(&a), s(&b), "--out", s(&dir.path("bad"))]);
    assert!(line.contains("by.csv"), "{line}");
}

#[test]
fn deal_options_are_checked_and_named() {
    for (args, want) in [
        (vec!["simulate", "war", "--p1-cards", "13 14"], "14"),
        (
            vec!["simulate", "war", "--p1-cards", "5 5 5 5 5"],
            "rank 5 appears 5 times",
        ),
        (
            vec!["simulate", "war", "--deal", "even", "--suits", "3"],
            "even",
        ),
        (vec!["simulate", "war", "--deal", "1 2/3 4"], "play war"),
        (vec!["simulate", "war", "--deal", "sorted"], "--deal"),
        (vec!["simulate", "war", "--honor", "0"], "--honor 0"),
        (
            vec!["simulate", "war", "--p1-cards", "13", "--deal", "even"],
            "--p1-cards",
        ),
        (
            vec!["play", "war", "--deal", "1 2/3 4", "--game", "3"],
            "--game",
        ),
    ] {
        let line = fails(2, &args);
        assert!(line.contains(want), "{args:?}: {line}");
    }
    let text = ok(&[
        "play",
        "war",
        "--deal",
        "3 1/2 4",
        "--honor",
        "1",
        "--pickup",
        "winner-first",
        "--trace",
    ]);
    // Rank 2, the card named 3, leaves the game.
    assert!(text.contains("(3 leaves the game)"), "{text}");
}

/// `--quit-stats`: two shards merged are the unsharded run (the `quit` counts, quit.csv and
/// summary.csv byte for byte), and a run without it has no trace of it.
#[test]
fn quit_stats_shards_merge_into_the_whole_run() {
    let dir = Scratch::new("quit-merge");
    let run = |name: &str, extra: &[&str]| {
        let out = dir.path(name);
        let mut args = vec![
            "simulate",
            "war",
            "--quit-stats",
            "--games",
            "3000",
            "--seed",
            "4",
        ];
        args.extend(extra);
        args.extend(["--out", s(&out)]);
        ok(&args);
        out
    };
    let whole = run("whole", &[]);
    let a = run("a", &["--shard", "0/2"]);
    let b = run("b", &["--shard", "1/2"]);
    let merged = dir.path("merged");
    ok(&["merge", s(&a), s(&b), "--out", s(&merged)]);
    let summary = |d| json(&read(d, "summary.json"));
    assert_eq!(summary(&merged)["quit"], summary(&whole)["quit"]);
    assert_eq!(summary(&whole)["quit"]["games"], 3000);
    assert_eq!(read(&merged, "quit.csv"), read(&whole, "quit.csv"));
    assert!(read(&whole, "quit.csv").starts_with("statistic,rounds,cards,games,count,"));
    assert!(dir.path("whole").join("quit.png").exists());
    let csv = |d| read(d, "summary.csv");
    let cols = |t: String| t.lines().next().unwrap().to_string();
    assert!(cols(csv(&whole)).contains("quit_after_400_p1_won"));
    let plain = dir.path("plain");
    ok(&["simulate", "war", "--games", "300", "--out", s(&plain)]);
    assert!(summary(&plain).get("quit").is_none());
    assert!(summary(&plain)["rules"].get("quit_stats").is_none());
    assert!(!cols(csv(&plain)).contains("quit") && !plain.join("quit.csv").exists());
}

/// The terminal names quit.csv only where it was written: in the `written` line's list with
/// `--out`, and nowhere without it (the quit lines say no file name).
#[test]
fn the_terminal_names_quit_csv_only_when_it_is_written() {
    let dir = Scratch::new("quit-terminal");
    let args = ["simulate", "war", "--quit-stats", "--games", "500"];
    let alone = ok(&args);
    assert!(alone.contains("quit      the loser once held"), "{alone}");
    assert!(!alone.contains("quit.csv"), "{alone}");
    let out = dir.path("run");
    let with_out = ok(&[&args[..], &["--out", s(&out)]].concat());
    let written = with_out.lines().find(|l| l.starts_with("written")).unwrap();
    assert!(
        written.contains("histogram.csv, quit.csv, charts"),
        "{written}"
    );
    assert!(out.join("quit.csv").exists());
    let plain = ok(&[
        "simulate",
        "war",
        "--games",
        "50",
        "--out",
        s(&dir.path("plain")),
    ]);
    assert!(!plain.contains("quit.csv"), "{plain}");
}

/// Given hands that are not the whole deck in equal halves say so in the title, beside the
/// deck they are drawn from; the whole deck dealt evenly adds nothing. The result line says
/// the wars in words.
#[test]
fn given_hands_are_titled_with_what_they_hold() {
    let part = ok(&["play", "war", "--deal", "1 2 3/4 5"]);
    assert_eq!(
        part,
        "war, the hands 1 2 3/4 5 (5 of the deck's 52 cards: 3 and 2): classic: 13×4 cards, 3 \
         down, short war last-card, pickup shuffled, cap 100,000\n\
         player 2 wins in round 5, with no war\n"
    );
    let whole = ok(&[
        "play",
        "war",
        "--ranks",
        "3",
        "--suits",
        "2",
        "--war-down",
        "1",
        "--pickup",
        "p1-first",
        "--deal",
        "3 1 2/3 2 1",
    ]);
    assert!(whole.starts_with("war, the hands 3 1 2/3 2 1: "), "{whole}");
    assert!(
        whole.contains(", with 1 war (never two in a row)"),
        "{whole}"
    );
    let uneven = ok(&[
        "play", "war", "--ranks", "2", "--suits", "2", "--deal", "2 1 1/2",
    ]);
    assert!(
        uneven.starts_with("war, the hands 2 1 1/2 (4 cards: 3 and 1): "),
        "{uneven}"
    );
}

/// A trace names a standard deck's cards (2 … 10, J, Q, K, A) for a person, and says that a
/// deal given to play is written in ranks; `--json` keeps the ranks, and so does a deck of
/// other ranks, which has no names.
#[test]
fn a_trace_names_the_cards_and_json_keeps_the_ranks() {
    let args = [
        "play",
        "war",
        "--honor",
        "1",
        "--pickup",
        "winner-first",
        "--deal",
    ];
    let deal = "7,1,1,1,5,9/7,4,4,4,6,10";
    let text = ok(&[&args[..], &[deal, "--trace"]].concat());
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[..3],
        [
            "deal     p1 [8 2 2 2 6 10]  p2 [8 5 5 5 7 J]   (cards by name, 2 to A; a deal \
             given to play is written in ranks, 1 to 13)",
            "     1  p1: 8 (2 2 2) 6  p2: 8 (5 5 5) 7  war×1  -> p2 takes 9  (6 leaves the \
             game)  [1 | 10]",
            "     2  p1: 10  p2: J  -> p2 takes 1  (10 leaves the game)  game over: p2",
        ]
    );
    let v = json(&ok(&[&args[..], &[deal, "--trace", "--json"]].concat()));
    assert_eq!(
        v["trace"][0],
        "deal     p1 [7 1 1 1 5 9]  p2 [7 4 4 4 6 10]"
    );
    let small = ok(&[
        "play", "war", "--ranks", "5", "--deal", "1 2/3 4", "--trace",
    ]);
    assert!(
        small.starts_with("deal     p1 [1 2]  p2 [3 4]\n"),
        "{small}"
    );
}
