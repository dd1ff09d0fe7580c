//! Every bad input gets one clear line saying what is wrong and what to write instead; edge
//! cases of the run options; floats that survive a merge exactly.

use crate::util::{fails, json, ok, read, warsim, warsim_input, without_run_details, Scratch};

#[test]
fn clap_errors_keep_the_name_the_values_and_the_suggestion() {
    let line = fails(2, &["simulate", "war", "--pickup", "shuffle"]);
    assert!(line.contains("possible values: shuffled"), "{line}");
    assert!(
        line.contains("a similar value exists: 'shuffled'"),
        "{line}"
    );
    let line = fails(2, &["play", "snap"]);
    assert!(line.contains("<PILE>"), "{line}");
    let line = fails(2, &["play", "snap", "abc", "-V9"]);
    assert!(line.contains("'-V'"), "{line}");
    let line = fails(2, &["simulate", "war", "--seed", "-1"]);
    assert!(
        line.contains("whole number from 0 to 18446744073709551615"),
        "{line}"
    );
    let line = fails(2, &["simulate", "war", "--games", "1.5"]);
    assert!(line.contains("such as 1000000"), "{line}");
    assert!(fails(2, &["simulate", "war", "--games", "0"]).contains("at least 1"));
    // A negative cap names its option, as the other numbers do.
    for game in ["war", "bmn", "snap", "shotgun", "rps", "jitsu"] {
        let line = fails(2, &["simulate", game, "--max-rounds", "-1"]);
        assert!(
            line.contains("'-1' for '--max-rounds <M>'"),
            "{game}: {line}"
        );
    }
}

/// A game a command does not play is answered with the games it does play, read from the
/// command line's definition.
#[test]
fn an_unknown_game_or_command_lists_what_is_there() {
    let line = fails(2, &["exact", "shotgun"]);
    assert!(
        line.contains("`warsim exact` takes war, snap, bmn"),
        "{line}"
    );
    let line = fails(2, &["search", "war"]);
    assert!(line.contains("`warsim search` takes bmn"), "{line}");
    let line = fails(2, &["simulate", "--threads", "2", "chess"]);
    assert!(line.contains("`warsim simulate` takes war, snap"), "{line}");
    let line = fails(2, &["frobnicate"]);
    assert!(line.contains("`warsim` takes simulate, exact"), "{line}");
}

#[test]
fn games_may_be_written_with_an_exponent_or_separators() {
    for form in ["2e3", "2_000", "2,000", "2000"] {
        let v = json(&ok(&["simulate", "shotgun", "--games", form, "--json"]));
        assert_eq!(v["games"], 2000, "{form}");
    }
}

#[test]
fn a_path_with_a_newline_is_one_line() {
    let dir = Scratch::new("newline");
    let file = dir.path("f");
    std::fs::write(&file, "x").unwrap();
    let bad = format!("{}/a\nb", file.display());
    let line = fails(2, &["simulate", "war", "--games", "10", "--out", &bad]);
    assert!(line.contains("a\\nb"), "{line}");
}

#[test]
fn an_overflowing_mix_is_a_usage_error() {
    let line = fails(2, &["simulate", "shotgun", "--mix", "1e308,1e308,1e308"]);
    assert!(line.contains("--mix"), "{line}");
}

#[test]
fn the_last_slice_of_the_largest_run_plays_its_games() {
    let v = json(&ok(&[
        "simulate",
        "rps",
        "--games",
        "18446744073709551615",
        "--shard",
        "9223372036854775807/9223372036854775808",
        "--json",
    ]));
    let (first, end) = (
        v["run"]["first_game"].as_u64().unwrap(),
        v["run"]["end_game"].as_u64().unwrap(),
    );
    assert_eq!(end, u64::MAX);
    assert!(end > first);
    assert_eq!(v["games"].as_u64(), Some(end - first));
}

#[test]
fn a_run_that_would_take_days_is_refused_with_its_estimate() {
    let line = fails(2, &["simulate", "rps", "--players", "64"]);
    assert!(line.contains("6.205e10 per game"), "{line}");
}

#[test]
fn one_game_one_thread() {
    let text = ok(&["simulate", "rps", "--games", "1", "--threads", "1"]);
    assert!(text.contains("1 game, seed 0, 1 thread,"), "{text}");
    let v = json(&ok(&["simulate", "rps", "--games", "1", "--json"]));
    assert!(
        v["rounds"]["sd"].is_null() && v["rounds"]["ci95"].is_null(),
        "{v}"
    );
}

#[test]
fn summary_csv_has_unique_self_explaining_columns() {
    let dir = Scratch::new("csv");
    let out = dir.path("o");
    ok(&[
        "simulate",
        "war",
        "--pickup",
        "p1-first",
        "--games",
        "300",
        "--out",
        out.to_str().unwrap(),
    ]);
    let text = read(&out, "summary.csv");
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let mut unique = header.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), header.len(), "{header:?}");
    for col in [
        "rounds_p1",
        "rounds_p99.9",
        "outcome_p1",
        "outcome_loop",
        "rule_pickup",
        "rule_war_down",
    ] {
        assert!(header.contains(&col), "{col} missing: {header:?}");
    }
    assert_eq!(lines.count(), 1);
}

#[test]
fn jitsu_input_that_is_not_text_is_bad_input() {
    let out = {
        use std::io::Write;
        use std::process::{Command, Stdio};
        let mut child = Command::new(env!("CARGO_BIN_EXE_warsim"))
            .args(["play", "jitsu"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(b"1\n\xff\xfe\n")
            .unwrap();
        child.wait_with_output().unwrap()
    };
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    let last = err.lines().last().unwrap();
    assert!(last.starts_with("error: stdin, round 2"), "{err}");
}

#[test]
fn snap_numbers_keep_card_zero() {
    let text = ok(&["play", "snap", "--numbers", "--trace", "0,1,00", "1,0,1"]);
    assert!(text.lines().next().unwrap().contains("0,1,0"), "{text}");
}

#[test]
fn traces_stream_as_a_json_array_for_every_game_that_has_one() {
    for args in [
        &[
            "play", "war", "--seed", "1", "--game", "3", "--trace", "--json",
        ][..],
        &["play", "snap", "abba", "acab", "--trace", "--json"],
        &["play", "shotgun", "rg fr", "--trace", "--json"],
        &["play", "rps", "r", "s", "--trace", "--json"],
    ] {
        let v = json(&ok(args));
        let trace = v["trace"].as_array().unwrap();
        assert!(!trace.is_empty(), "{args:?}");
        assert!(v["rounds"].as_u64().unwrap() >= 1, "{args:?}");
    }
    let v = json(&ok(&[
        "play", "war", "--seed", "1", "--game", "3", "--trace", "--json",
    ]));
    let rounds = v["rounds"].as_u64().unwrap() as usize;
    assert_eq!(
        v["trace"].as_array().unwrap().len(),
        rounds + 1,
        "the deal, then one line a round"
    );
}

#[test]
fn merged_floats_equal_the_direct_run_for_every_game() {
    let dir = Scratch::new("floats");
    let strip = without_run_details;
    let runs: [&[&str]; 7] = [
        &["war", "--rules", "bryer"],
        &["snap", "--players", "3", "--faces", "5", "--copies", "3"],
        &["shotgun", "--mix", "1,2,3"],
        &["shotgun", "--mix", "0.1,0.7,0.2"],
        &["shotgun", "--mix", "3,1,7"],
        &["rps", "--players", "7"],
        &["jitsu", "--strategy", "greedy"],
    ];
    for (i, game) in runs.iter().enumerate() {
        let run = |name: &str, extra: &[&str]| {
            let out = dir.path(&format!("{i}-{name}"));
            let mut args = vec!["simulate"];
            args.extend_from_slice(game);
            args.extend_from_slice(&[
                "--games",
                "900",
                "--seed",
                "4",
                "--out",
                out.to_str().unwrap(),
            ]);
            args.extend_from_slice(extra);
            ok(&args);
            out
        };
        let whole = run("whole", &[]);
        let parts: Vec<_> = (0..3)
            .map(|k| run(&format!("s{k}"), &["--shard", &format!("{k}/3")]))
            .collect();
        let merged = dir.path(&format!("{i}-merged"));
        let mut args = vec!["merge"];
        args.extend(parts.iter().map(|p| p.to_str().unwrap()));
        args.extend_from_slice(&["--out", merged.to_str().unwrap()]);
        ok(&args);
        assert_eq!(
            strip(json(&read(&whole, "summary.json"))),
            strip(json(&read(&merged, "summary.json"))),
            "{game:?}"
        );
    }
}

/// A deterministic generator for the fuzzed arguments (xorshift64*).
fn next(state: &mut u64, n: usize) -> usize {
    *state ^= *state >> 12;
    *state ^= *state << 25;
    *state ^= *state >> 27;
    (state.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize % n
}

#[test]
fn fuzzed_play_arguments_succeed_or_fail_in_one_line() {
    let alphabet: Vec<char> = "rpsgf abc0129,/-()[]'\"\\x\u{e9}\n\t".chars().collect();
    let mut state = 0x1234_5678_9ABC_DEF1u64;
    let word = |state: &mut u64| -> String {
        let len = next(state, 9);
        (0..len)
            .map(|_| alphabet[next(state, alphabet.len())])
            .collect()
    };
    for k in 0..160 {
        let (w1, w2, w3) = (word(&mut state), word(&mut state), word(&mut state));
        let args: Vec<String> = match k % 5 {
            0 => vec!["play".into(), "snap".into(), w1, w2],
            1 => vec!["play".into(), "snap".into(), "--numbers".into(), w1, w2, w3],
            2 => vec!["play".into(), "shotgun".into(), w1, w2],
            3 => vec!["play".into(), "rps".into(), w1, w2, w3],
            _ => vec![
                "play".into(),
                "war".into(),
                "--deal".into(),
                format!("{w1}/{w2}"),
            ],
        };
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = warsim(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        match out.status.code() {
            Some(0) => assert!(!out.stdout.is_empty(), "{args:?} printed nothing"),
            Some(2) => assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}"),
            other => panic!("{args:?}: exit {other:?}: {err}"),
        }
    }
    // And stdin for jitsu: random bytes end the game or are refused, never a panic.
    for k in 0..20 {
        let input: String = (0..40)
            .map(|_| alphabet[next(&mut state, alphabet.len())])
            .collect();
        let out = warsim_input(&["play", "jitsu", "--seed", &k.to_string()], &input);
        assert!(matches!(out.status.code(), Some(0) | Some(2)), "{input:?}");
    }
}

#[test]
fn completions_and_manual_page_are_generated() {
    let bash = ok(&["completions", "bash"]);
    assert!(
        bash.contains("simulate") && bash.contains("--pickup"),
        "bash completion"
    );
    let man = ok(&["manpage"]);
    assert!(
        man.contains(".TH warsim") && man.contains("simulate"),
        "manual page"
    );
    let help = ok(&["simulate", "--help"]);
    assert!(
        help.contains("Examples:") && help.contains("[default: 1000000]"),
        "{help}"
    );
}

#[test]
fn progress_is_quiet_off_a_terminal_and_lines_when_asked() {
    let quiet = crate::util::warsim(&["simulate", "shotgun", "--games", "5000"]);
    assert!(quiet.status.success());
    assert!(quiet.stderr.is_empty(), "auto progress wrote to a pipe");
    let logged = crate::util::warsim(&[
        "simulate",
        "shotgun",
        "--games",
        "5000",
        "--progress",
        "log",
    ]);
    assert!(logged.status.success());
    let err = String::from_utf8(logged.stderr).unwrap();
    let lines = crate::util::log_lines(&err);
    // A log states the run's estimate whatever its length, then its progress.
    assert!(lines[0].starts_with("estimate: about "), "{err}");
    assert_eq!(lines[1], "progress: 0 of 5,000 games (0.0%)", "{err}");
    let last = lines.last().unwrap();
    assert!(
        last.starts_with("progress: 5,000 of 5,000 games (100.0%), ")
            && last.contains(" done in 0:00:"),
        "{err}"
    );
}

#[test]
fn a_reader_that_stops_early_is_not_a_failure() {
    for format in [&["--json"][..], &[][..]] {
        let mut args = vec!["simulate", "war", "--games", "300000", "--threads", "1"];
        args.extend(format);
        // The reader is gone before the summary is written (`warsim ... | true`).
        let done = crate::util::with_reader_gone(&args);
        assert_eq!(
            done.status.code(),
            Some(0),
            "{format:?}: {}",
            String::from_utf8_lossy(&done.stderr)
        );
        assert!(
            done.stderr.is_empty(),
            "{format:?}: {}",
            String::from_utf8_lossy(&done.stderr)
        );
    }
}

#[test]
fn summary_csv_has_the_same_columns_for_every_rule_set_of_a_game() {
    let dir = Scratch::new("csv-columns");
    let header = |args: &[&str], name: &str| {
        let out = dir.path(name);
        let mut all = args.to_vec();
        all.extend(["--games", "300", "--out", out.to_str().unwrap()]);
        ok(&all);
        read(&out, "summary.csv")
            .lines()
            .next()
            .unwrap()
            .to_string()
    };
    let classic = header(&["simulate", "war"], "classic");
    for (i, rules) in [
        &["simulate", "war", "--rules", "bryer"][..],
        &["simulate", "war", "--pickup", "p1-first", "--war-down", "1"],
        &[
            "simulate", "war", "--ranks", "3", "--suits", "2", "--pickup", "table",
        ],
    ]
    .into_iter()
    .enumerate()
    {
        assert_eq!(header(rules, &format!("r{i}")), classic, "{rules:?}");
    }
    assert_eq!(
        header(&["simulate", "shotgun"], "s1"),
        header(&["simulate", "shotgun", "--mix", "1,1,3"], "s2")
    );
}

#[test]
fn quiet_prints_nothing_and_needs_out() {
    let dir = Scratch::new("quiet");
    let out = dir.path("run");
    let o = out.to_str().unwrap();
    assert_eq!(
        ok(&["simulate", "shotgun", "--games", "500", "--out", o, "--quiet"]),
        ""
    );
    assert_eq!(json(&read(&out, "summary.json"))["games"], 500);
    let sweep = dir.path("sweep");
    let args = [
        "sweep",
        "rps",
        "--players",
        "2,3",
        "--games",
        "200",
        "-q",
        "--out",
    ];
    assert_eq!(ok(&[&args[..], &[sweep.to_str().unwrap()]].concat()), "");
    assert!(sweep.join("sweep.json").exists());
    let line = fails(2, &["simulate", "shotgun", "--games", "5", "--quiet"]);
    assert!(
        line.contains("--quiet prints nothing") && line.contains("add --out DIR"),
        "{line}"
    );
    let line = fails(2, &["simulate", "shotgun", "--quiet", "--json", "--out", o]);
    assert!(line.contains("--json"), "{line}");
}

/// A run option of `simulate` given to `exact` says why exact has none; another unknown option
/// gets clap's line alone.
#[test]
fn exact_says_why_it_takes_no_games() {
    let line = fails(2, &["exact", "war", "--games", "10"]);
    assert_eq!(
        line.trim_end(),
        "error: unexpected argument '--games' found; `exact` plays every deal of the deck once, \
         so it takes no --games (`warsim simulate war --games ...` plays random deals)"
    );
    assert!(fails(2, &["exact", "--seed", "3", "snap"]).contains("`warsim simulate snap --seed"));
    let other = fails(2, &["exact", "war", "--bogus"]);
    assert_eq!(
        other.trim_end(),
        "error: unexpected argument '--bogus' found"
    );
    assert!(!fails(2, &["simulate", "war", "--bogus"]).contains("exact"));
}

/// `exact --help` offers its games without saying they are played on random deals.
#[test]
fn exact_help_does_not_speak_of_random_deals() {
    let help = ok(&["exact", "--help"]);
    assert!(help.contains("snap") && help.contains("bmn"), "{help}");
    assert!(!help.contains("random deals"), "{help}");
}

/// A bad `--reaching` deal is blamed on --reaching, not on --deal.
#[test]
fn a_bad_reaching_deal_names_reaching() {
    let dir = Scratch::new("reaching-name");
    let out = dir.path("out");
    let line = fails(
        2,
        &[
            "search",
            "bmn",
            "--reaching",
            "JQKA",
            "--out",
            crate::util::s(&out),
        ],
    );
    assert!(
        line.starts_with("error: --reaching \"JQKA\": expected HAND1/HAND2"),
        "{line}"
    );
    assert!(!line.contains("--deal"), "{line}");
}

/// `play shotgun --help` says it prints the winner, as it does.
#[test]
fn play_shotgun_help_says_it_prints_the_winner() {
    let help = ok(&["play", "shotgun", "--help"]);
    assert!(
        help.starts_with("Shotgun War: who wins the given moves; prints the winner"),
        "{help}"
    );
    assert!(!help.contains("dies first"), "{help}");
    assert_eq!(ok(&["play", "shotgun", "rg fr"]), "1\n");
}
