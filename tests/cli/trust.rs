//! What warsim checks before it trusts a number, a deal or a folder, plays a game that may
//! never end, or reads back what it wrote: each case a way a clumsy user or an attacker got a
//! wrong answer, a hang or a lost run before (issue 37).

use std::time::Instant;

use crate::util::{fails, fails_within, json, ok, read, s, Scratch};

/// War whose first games never end: player 1's cards first under the winner's, on a deck
/// small enough that most games repeat a position, with no loop detection.
const ENDLESS: &str = "--ranks 6 --suits 2 --pickup p1-first --detect-loops off";

/// A command line's words.
fn words(line: &str) -> Vec<&str> {
    line.split_whitespace().collect()
}

#[test]
fn counts_take_separators_between_groups_of_three_only() {
    for args in [
        &["simulate", "war", "--games", "1,5"][..],
        &["simulate", "war", "--games", "1,5e3"],
        &["simulate", "war", "--games", "0,001"],
        &["simulate", "war", "--precision", "1", "--max-games", "1,5"],
        &["search", "bmn", "--deals", "1,5", "--out", "x"],
    ] {
        let line = fails(2, args);
        assert!(line.contains("groups of three"), "{args:?}: {line}");
    }
    // A European thousands point is no decimal point here: refused, not read as 10.
    let line = fails(2, &["simulate", "war", "--games", "10.000"]);
    assert!(line.contains("decimal point"), "{line}");
    let v = json(&ok(&["simulate", "shotgun", "--games", "1,000", "--json"]));
    assert_eq!(v["games"], 1000);
}

#[test]
fn a_negative_count_names_its_option() {
    for (args, option) in [
        (&["simulate", "war", "--games", "-1"][..], "--games"),
        (
            &["simulate", "war", "--precision", "1", "--max-games", "-5"],
            "--max-games",
        ),
        (&["search", "bmn", "--deals", "-1", "--out", "x"], "--deals"),
    ] {
        let line = fails(2, args);
        assert!(
            line.contains(option) && line.contains("whole number"),
            "{line}"
        );
    }
}

/// Whatever warsim writes, warsim reads back: a run with hundreds of `--by` groups.
#[test]
fn a_run_with_hundreds_of_groups_is_read_back() {
    let dir = Scratch::new("groups");
    let run = dir.path("run");
    // 4,000 cards of two ranks: player 1's share of the top rank spreads over about 90 counts.
    let args = "simulate war --ranks 2 --suits 2000 --max-rounds 1000 --by p1-top --games 1000";
    let args: Vec<&str> = args.split(' ').chain(["--out", s(&run)]).collect();
    ok(&args);
    let groups = json(&read(&run, "summary.json"))["by"]
        .as_object()
        .unwrap()
        .len();
    assert!(groups > 64, "{groups} groups");
    ok(&["replay", s(&run)]);
    let merged = dir.path("merged");
    ok(&["merge", s(&run), "--out", s(&merged)]);
    assert_eq!(read(&merged, "by.csv"), read(&run, "by.csv"));
}

/// The Markov chain answers the uncapped game and plays no games: a cap, a grouping or quit
/// statistics are refused, not dropped.
#[test]
fn the_markov_chain_refuses_what_it_cannot_honour() {
    let base = ["exact", "war", "--ranks", "3", "--suits", "2"];
    for (extra, want) in [
        (&["--max-rounds", "2"][..], "cap of 2 rounds"),
        (&["--by", "p1-top"], "--by"),
        (&["--quit-stats"], "--quit-stats"),
    ] {
        let args: Vec<&str> = base.iter().chain(extra).copied().collect();
        let line = fails(2, &args);
        assert!(line.contains(want) && line.contains("simulate"), "{line}");
    }
    let v = json(&ok(&[&base[..], &["--json"]].concat()));
    assert!(v["mean_rounds"].as_f64().is_some(), "{v}");
}

#[test]
fn a_deal_holds_only_cards_of_the_deck() {
    let line = fails(2, &["play", "war", "--deal", "13 13 13 1/13 13 2"]);
    assert!(line.contains("rank 13 is dealt 5 times"), "{line}");
    let many = vec!["1"; 1200].join(" ");
    let deal = format!("{many}/2");
    let line = fails(
        2,
        &[
            "play", "war", "--ranks", "2", "--suits", "1", "--deal", &deal,
        ],
    );
    assert!(line.contains("rank 1 is dealt 1200 times"), "{line}");
    // A few cards of the deck, as the seed's worked examples deal them, still play.
    ok(&["play", "war", "--deal", "7 1 1/7 4 4"]);
}

#[test]
fn max_games_bounds_every_game_played() {
    let v = json(&ok(&[
        "simulate",
        "war",
        "--precision",
        "1",
        "--max-games",
        "1",
        "--json",
    ]));
    assert_eq!(v["games"], 1);
    assert_eq!(v["precision"]["max_games"], 1);
    let line = fails(
        2,
        &[
            "simulate",
            "war",
            "--precision",
            "1",
            "--games",
            "20",
            "--max-games",
            "10",
        ],
    );
    assert!(line.contains("--max-games 10"), "{line}");
}

/// Every rate is games over the time that played them: the pilot's games count, so does its
/// time. (A run of about half a second on one thread; the bound is loose, for a loaded
/// machine: before, a short run's rate was 6 to 134 times too high.)
#[test]
fn a_rate_counts_the_pilots_time_with_its_games() {
    let start = Instant::now();
    let v = json(&ok(&[
        "simulate",
        "war",
        "--games",
        "200000",
        "--threads",
        "1",
        "--json",
    ]));
    let wall = start.elapsed().as_secs_f64();
    let rate = v["games_per_s"].as_f64().unwrap();
    let games = v["games"].as_f64().unwrap();
    assert!(
        rate <= 1.5 * games / wall,
        "games_per_s {rate}, games over wall time {}",
        games / wall
    );
    let short = json(&ok(&["simulate", "war", "--games", "5000", "--json"]));
    let elapsed = short["elapsed_s"].as_f64().unwrap();
    assert!(
        (short["games_per_s"].as_f64().unwrap() * elapsed - 5000.0).abs() < 1.0,
        "{short}"
    );
}

/// Slow games (30-player rps, milliseconds each) are shared by the threads a few at a time:
/// the run's elapsed_s is the process's wall time less its start and files, its rate games over
/// that time, the pilot's included. (Bounds loose for a loaded machine; before, every game of
/// a run under 4,096 games was played by one thread.)
#[test]
fn a_run_of_slow_games_is_timed_as_the_process_is() {
    let dir = Scratch::new("slow-rate");
    let out = dir.path("rps");
    let start = Instant::now();
    ok(&[
        "simulate",
        "rps",
        "--players",
        "30",
        "--games",
        "100",
        "--progress",
        "log",
        "--out",
        s(&out),
    ]);
    let wall = start.elapsed().as_secs_f64();
    let v = json(&read(&out, "summary.json"));
    let (rate, elapsed) = (
        v["games_per_s"].as_f64().unwrap(),
        v["elapsed_s"].as_f64().unwrap(),
    );
    assert!((rate * elapsed - 100.0).abs() < 0.01, "{v}");
    assert!(
        elapsed <= wall && elapsed >= wall / 3.0,
        "elapsed_s {elapsed}, wall time {wall}"
    );
}

/// A first game that never ends (p1-first without loop detection, a cap of 10^12 rounds) is
/// refused by `--max-hours` from the time it has taken, within seconds, not played for ever.
#[test]
fn a_first_game_that_never_ends_is_refused_not_played() {
    let line = format!("simulate war {ENDLESS} --max-rounds 1000000000000");
    let args = words(&line);
    let line = fails_within(60, 2, &args);
    assert!(
        line.contains("still going after") && line.contains("--max-hours"),
        "{line}"
    );
    // A sweep in which only some rule sets are endless, past the first eight.
    let sweep = format!(
        "sweep war {} --war-down 1,2,3,4,5 --detect-loops on,off --max-rounds 1000000000000 \
         --games 100000 --out",
        &ENDLESS[..ENDLESS.len() - " --detect-loops off".len()]
    );
    let dir = Scratch::new("endless-sweep");
    let out = dir.path("sweep");
    let mut args = words(&sweep);
    args.push(s(&out));
    let line = fails_within(120, 2, &args);
    assert!(line.contains("still going after"), "{line}");
    assert!(!out.exists());
}

#[test]
fn a_search_lists_no_capped_deal_and_is_bounded() {
    let dir = Scratch::new("search-capped");
    let out = dir.path("s");
    ok(&[
        "search",
        "bmn",
        "--method",
        "climb",
        "--max-rounds",
        "100",
        "--deals",
        "2000",
        "--walkers",
        "2",
        "--out",
        s(&out),
    ]);
    let v = json(&read(&out, "search.json"));
    assert!(v["capped"].as_u64().unwrap() > 0, "{v}");
    let best = v["best"].as_array().unwrap();
    assert!(!best.is_empty());
    for f in best {
        let deal = f["deal"].as_str().unwrap();
        let played = json(&ok(&[
            "play",
            "bmn",
            "--max-rounds",
            "100",
            "--deal",
            deal,
            "--json",
        ]));
        assert_ne!(played["outcome"], "capped", "a capped deal listed: {f}");
    }
    let line = fails_within(
        30,
        2,
        &[
            "search",
            "bmn",
            "--deals",
            "18446744073709551615",
            "--out",
            s(&dir.path("huge")),
        ],
    );
    assert!(line.contains("--max-hours"), "{line}");
}

#[test]
fn a_replay_of_an_exact_run_names_the_deal_it_plays() {
    let dir = Scratch::new("exact-replay");
    let run = dir.path("e");
    crate::util::small_exact(&run);
    let text = ok(&["replay", s(&run)]);
    assert!(
        text.contains("deal number") && !text.contains("of seed"),
        "{text}"
    );
    let v = json(&ok(&["replay", s(&run), "--json"]));
    assert_eq!(v["deal"], true);
}

#[test]
fn a_search_folder_is_named_for_what_it_is() {
    let dir = Scratch::new("search-folder");
    let out = dir.path("s");
    ok(&[
        "search",
        "bmn",
        "--method",
        "climb",
        "--deals",
        "200",
        "--walkers",
        "2",
        "--out",
        s(&out),
    ]);
    for args in [
        vec!["replay", s(&out)],
        vec!["merge", s(&out), "--out", s(&dir.path("m"))],
        vec!["play", "war", "--from", s(&out)],
    ] {
        let line = fails(2, &args);
        assert!(
            line.contains("holds a search") && !line.contains("is it a warsim"),
            "{line}"
        );
    }
}

/// A shard an editor saved with a byte-order mark and CRLF line ends is read as it is; a key
/// given twice is refused, not half-read.
#[test]
fn a_shard_re_saved_by_an_editor_is_read_and_a_doubled_key_refused() {
    let dir = Scratch::new("bom");
    let run = dir.path("run");
    ok(&["simulate", "shotgun", "--games", "300", "--out", s(&run)]);
    let text = read(&run, "summary.json");
    let crlf = format!("\u{FEFF}{}", text.replace('\n', "\r\n"));
    std::fs::write(run.join("summary.json"), crlf).unwrap();
    ok(&["merge", s(&run), "--out", s(&dir.path("m"))]);
    let doubled = text.replacen("{", "{\n  \"games\": 7,", 1);
    std::fs::write(run.join("summary.json"), doubled).unwrap();
    let line = fails(2, &["merge", s(&run), "--out", s(&dir.path("m2"))]);
    assert!(line.contains("\"games\" appears twice"), "{line}");
}

#[test]
fn a_runs_readme_says_what_its_hidden_marker_is() {
    let dir = Scratch::new("marker-readme");
    let run = dir.path("run");
    ok(&["simulate", "shotgun", "--games", "10", "--out", s(&run)]);
    let text = read(&run, "README.md");
    assert!(
        text.contains("`.warsim-set`") && text.contains("hidden"),
        "{text}"
    );
}

/// `exact --flawless --out` refuses a folder of the user's own files before it computes.
#[test]
fn a_flawless_run_checks_its_folder_first() {
    let dir = Scratch::new("flawless-out");
    std::fs::write(dir.path("thesis.tex"), "mine").unwrap();
    let started = Instant::now();
    let line = fails(
        2,
        &[
            "exact",
            "war",
            "--flawless",
            "--ranks",
            "16",
            "--suits",
            "256",
            "--out",
            s(&dir.0),
        ],
    );
    assert!(line.contains("thesis.tex"), "{line}");
    assert!(
        started.elapsed().as_secs() < 5,
        "refused after {:?}",
        started.elapsed()
    );
}

/// In a sticky shared folder, a set another user wrote cannot be replaced: said before the
/// first game, not after the last. Played as user `nobody` (setpriv), on a copy of the binary
/// that user can run.
#[test]
fn another_users_set_in_a_sticky_folder_is_refused_before_any_game() {
    use std::os::unix::fs::PermissionsExt;
    let dir = Scratch::new("sticky");
    std::fs::set_permissions(&dir.0, std::fs::Permissions::from_mode(0o1777)).unwrap();
    let run = dir.path("run");
    ok(&["simulate", "shotgun", "--games", "10", "--out", s(&run)]);
    let bin = dir.path("warsim");
    std::fs::copy(env!("CARGO_BIN_EXE_warsim"), &bin).unwrap();
    std::fs::set_permissions(&bin, std::fs::Permissions::from_mode(0o755)).unwrap();
    let as_nobody = |out: &std::path::Path| {
        std::process::Command::new("setpriv")
            .args(["--reuid=65534", "--regid=65534", "--clear-groups", s(&bin)])
            .args([
                "simulate",
                "war",
                "--games",
                "100000000",
                "--max-hours",
                "none",
                "--out",
            ])
            .arg(out)
            .stdin(std::process::Stdio::null())
            .output()
            .expect("setpriv runs")
    };
    let started = Instant::now();
    let r = as_nobody(&run);
    let err = String::from_utf8_lossy(&r.stderr);
    assert_eq!(r.status.code(), Some(2), "{err}");
    assert!(err.contains("belongs to user 0"), "{err}");
    assert!(
        started.elapsed().as_secs() < 10,
        "refused after {:?}",
        started.elapsed()
    );
    assert!(run.join("summary.json").exists());
    // The user's own new folder there is fine.
    let r = std::process::Command::new("setpriv")
        .args(["--reuid=65534", "--regid=65534", "--clear-groups", s(&bin)])
        .args([
            "simulate",
            "shotgun",
            "--games",
            "10",
            "--quiet",
            "--out",
            s(&dir.path("mine")),
        ])
        .output()
        .unwrap();
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
}

/// The rate depends on the engine path, so the summary names it; a merge, whose shards may
/// have been played on other machines, names none.
#[test]
fn the_summary_names_the_engine_that_played_it() {
    let dir = Scratch::new("engine");
    let run = |env: Option<&str>, out: &str| {
        let mut c = std::process::Command::new(env!("CARGO_BIN_EXE_warsim"));
        if let Some(path) = env {
            c.env("WARSIM_PATH", path);
        }
        let o = c
            .args([
                "simulate", "war", "--games", "3000", "--shard", "0/1", "--out",
            ])
            .arg(dir.path(out))
            .output()
            .unwrap();
        assert!(o.status.success());
        json(&read(&dir.path(out), "summary.json"))["provenance"]["engine"].clone()
    };
    let detected = run(None, "a");
    assert!(
        ["lanes", "avx512", "lanes-avx2", "scalar"].contains(&detected.as_str().unwrap()),
        "{detected}"
    );
    assert_eq!(run(Some("scalar"), "b"), "scalar");
    ok(&["merge", s(&dir.path("b")), "--out", s(&dir.path("m"))]);
    assert!(json(&read(&dir.path("m"), "summary.json"))["provenance"]
        .get("engine")
        .is_none());
}

/// A sweep stops piloting at the rule set whose estimate, with those before it, breaks the
/// bound: 24 rule sets whose first games never end are refused in about the time one of them
/// needs to prove the bound broken, not after piloting all 24 (which took 17 s for 12).
#[test]
fn a_sweep_of_endless_rule_sets_is_refused_after_the_first() {
    let dir = Scratch::new("sweep-bound");
    // Caps and a bound such that one rule set's two games break the bound even where a game
    // plays to its cap within the pilot: this Zen 3 plays the endless game at some 400M rounds
    // a second, so a cap of 250M and a bound of 3.6 s let two rule sets be piloted.
    let caps: Vec<String> = (1..=24).map(|k| (1_000_000_000 + k).to_string()).collect();
    let caps = caps.join(",");
    let out = dir.path("sw");
    let line = format!(
        "sweep war {ENDLESS} --max-rounds {caps} --games 2 --max-hours 0.0001 --progress never"
    );
    let mut args = words(&line);
    args.extend(["--out", s(&out)]);
    let started = Instant::now();
    let line = fails_within(60, 2, &args);
    // The first rule set's game is left open ("at least") or, on a machine fast enough to play
    // it to its cap within the pilot, measured: either way it alone is piloted.
    assert!(
        line.contains("--max-hours") && line.contains("pilot: 1 of 24 rule sets"),
        "{line}"
    );
    assert!(
        started.elapsed().as_secs() < 20,
        "refused after {:?}",
        started.elapsed()
    );
    assert!(!out.exists());
}

/// A pilot times games, not the building of the rules it caps them with: rps with 12 players
/// builds its exact distribution in about 50 ms, which counted as the first game's time made a
/// sweep of 1,000,000 games (4 s) an estimated 25 h, refused by the default bound.
#[test]
fn a_pilot_does_not_time_the_building_of_its_rules() {
    let dir = Scratch::new("pilot-build");
    let out = dir.path("sw");
    let args = [
        "sweep",
        "rps",
        "--players",
        "12",
        "--games",
        "1000000",
        "--max-hours",
        "0.0000001",
        "--out",
        s(&out),
    ];
    // A pilot's thread preempted through its whole budget on a loaded machine prices its first
    // game at that budget (hours for a million games): noise that a try now and then shows,
    // where the building, counted, shows on every try. So up to three tries, one in seconds
    // (or minutes: not hours) enough.
    let mut said = Vec::new();
    for _ in 0..3 {
        let line = fails_within(60, 2, &args);
        let estimate = line.split("would take ").nth(1).unwrap_or_default();
        let central: Vec<&str> = estimate.split_whitespace().take(3).collect();
        if central.first() == Some(&"about") && matches!(central.get(2), Some(&("s" | "min"))) {
            return;
        }
        said.push(line);
    }
    panic!("an estimate in hours every time: {said:?}");
}
