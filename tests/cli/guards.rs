//! Guards (issue 24): a run or sweep estimated beyond `--max-hours` is refused before anything
//! is written, with its estimate and the option that overrides it; a sweep holds at most
//! `--max-rule-sets` rule sets, each with a folder name a file system takes; the pilot behind
//! the estimate changes no result.
//!
//! The refusals rest on estimates far beyond the bound of 6 hours (rps with 64 players: about
//! 20 hours on 2 threads at 1.4 s a game; War with 2^64 − 1 games: thousands of years), and
//! every refusal must come within seconds, so a machine much faster than this one fails the
//! test instead of running it for hours.

use crate::util::{fails_within, json, listing, ok, s, warsim, without_run_details, Scratch};

/// rps with 64 players, `games` games on 2 threads into `--out`: refused, nothing written.
fn rps_64_refused(games: &str) {
    let dir = Scratch::new("guard-rps");
    let out = dir.path("o");
    let line = fails_within(
        20,
        2,
        &[
            "simulate",
            "rps",
            "--players",
            "64",
            "--games",
            games,
            "--threads",
            "2",
            "--out",
            s(&out),
        ],
    );
    assert!(
        line.contains("would take about") || line.contains("would take at least"),
        "{line}"
    );
    // The first game is still going when its time at the exact mean proves the bound broken.
    assert!(line.contains(" on 2 threads (pilot: "), "{line}");
    assert!(line.contains("6.205e10 per game"), "{line}");
    assert!(line.contains("--max-hours"), "{line}");
    assert!(listing(&dir.0).is_empty(), "{:?}", listing(&dir.0));
}

#[test]
fn rps_64_players_100000_games_is_refused_with_its_estimate() {
    rps_64_refused("100000");
}

#[test]
fn rps_64_players_100001_games_is_refused_likewise() {
    rps_64_refused("100001");
}

#[test]
fn war_with_2_to_the_64_minus_1_games_is_refused_within_seconds() {
    let line = fails_within(
        10,
        2,
        &["simulate", "war", "--games", "18446744073709551615"],
    );
    assert!(
        line.contains("18,446,744,073,709,551,615 games would take about")
            && line.contains("years"),
        "{line}"
    );
    assert!(line.contains("--max-hours none"), "{line}");
}

#[test]
fn with_precision_the_estimate_counts_max_games() {
    let line = fails_within(
        20,
        2,
        &["simulate", "rps", "--players", "64", "--precision", "0.5"],
    );
    assert!(
        line.contains("up to 100,000,000 games (--max-games) would take"),
        "{line}"
    );
}

#[test]
fn max_hours_lets_a_run_through_or_holds_it_back() {
    let run = ["simulate", "rps", "--players", "3", "--games", "20000"];
    let line = fails_within(10, 2, &[&run[..], &["--max-hours", "1e-9"]].concat());
    assert!(
        line.contains("over the --max-hours bound of 0.000000001 h"),
        "{line}"
    );
    for bound in ["none", "inf", "1000"] {
        let text = ok(&[&run[..], &["--max-hours", bound]].concat());
        assert!(text.contains("20,000 games"), "{bound}: {text}");
    }
    for bad in ["0", "-2", "soon"] {
        let arg = format!("--max-hours={bad}");
        let line = fails_within(10, 2, &[&run[..], &[arg.as_str()]].concat());
        assert!(line.contains("--max-hours"), "{line}");
    }
}

/// The pilot's games are the run's first games: with a pilot (the default bound) and without
/// one (`--max-hours none`, progress hidden) every result is the same, for a slice, a whole
/// run and a run to a precision.
#[test]
fn the_pilot_changes_no_result() {
    let cases: [&[&str]; 3] = [
        &["simulate", "war", "--games", "60000", "--seed", "4"],
        &[
            "simulate", "war", "--games", "90000", "--shard", "1/3", "--seed", "2",
        ],
        &[
            "simulate",
            "shotgun",
            "--precision",
            "0.05",
            "--games",
            "2000",
        ],
    ];
    for args in cases {
        let with = json(&ok(&[args, &["--json"]].concat()));
        let without = json(&ok(&[args, &["--json", "--max-hours", "none"]].concat()));
        assert_eq!(
            without_run_details(with),
            without_run_details(without),
            "{args:?}"
        );
    }
}

#[test]
fn a_run_without_progress_says_nothing_on_stderr() {
    let out = warsim(&["simulate", "war", "--games", "1000"]);
    assert!(out.status.success());
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// `--max-rounds 1,2,…,n`: n rule sets of War.
fn max_rounds_list(n: u32) -> String {
    (1..=n).map(|i| i.to_string()).collect::<Vec<_>>().join(",")
}

#[test]
fn a_sweep_of_10000_rule_sets_is_refused_before_any_folder() {
    let dir = Scratch::new("guard-sweep");
    let out = dir.path("o");
    let list = max_rounds_list(10_000);
    let line = fails_within(
        20,
        2,
        &["sweep", "war", "--max-rounds", &list, "--out", s(&out)],
    );
    assert!(
        line.contains("10,000 rule sets, more than 1,000") && line.contains("--max-rule-sets N"),
        "{line}"
    );
    assert!(listing(&dir.0).is_empty(), "{:?}", listing(&dir.0));
}

#[test]
fn a_sweep_over_the_bound_is_refused_with_its_estimate() {
    let dir = Scratch::new("guard-sweep-long");
    let out = dir.path("o");
    let list = max_rounds_list(10_000);
    let line = fails_within(
        30,
        2,
        &[
            "sweep",
            "war",
            "--max-rounds",
            &list,
            "--max-rule-sets",
            "10000",
            "--games",
            "1e9",
            "--out",
            s(&out),
        ],
    );
    assert!(
        line.contains("sweep war: 10,000 rule sets would take about")
            && line.contains(" of 10,000 rule sets,")
            && line.contains("--max-hours"),
        "{line}"
    );
    assert!(listing(&dir.0).is_empty(), "{:?}", listing(&dir.0));
}

#[test]
fn max_rule_sets_moves_the_cap() {
    let dir = Scratch::new("guard-sets");
    let out = dir.path("o");
    let sweep = ["sweep", "war", "--war-down", "1,2,3", "--games", "50"];
    let line = fails_within(
        10,
        2,
        &[&sweep[..], &["--max-rule-sets", "2", "--out", s(&out)]].concat(),
    );
    assert!(line.contains("3 rule sets, more than 2"), "{line}");
    assert!(listing(&dir.0).is_empty());
    let text = ok(&[&sweep[..], &["--max-rule-sets=3", "--out", s(&out)]].concat());
    assert!(text.contains("3 rule sets"), "{text}");
}

#[test]
fn a_sweep_folder_name_over_255_bytes_is_refused_before_any_game() {
    let dir = Scratch::new("guard-name");
    let out = dir.path("o");
    let long = format!("1,1,1;{},1,1", "1".repeat(300));
    let line = fails_within(
        10,
        2,
        &["sweep", "shotgun", "--mix", &long, "--out", s(&out)],
    );
    assert!(
        line.contains("rule set 2 of 2 (mix 111") && line.contains("308 bytes long, over the 255"),
        "{line}"
    );
    assert!(listing(&dir.0).is_empty(), "{:?}", listing(&dir.0));
}
