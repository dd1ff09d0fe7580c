//! The conformance suite: every game that `warsim games --json` lists goes through the same
//! checks, on its own small example rule set ([`warsim::games::Game::EXAMPLE`]), with no code
//! for any one game. A new game passes them or its module says why not.

use std::path::Path;

use serde_json::Value;
use warsim::config::setup::{self, WithGameType};
use warsim::face::{self, GameCli, WithFace};
use warsim::games::{Game, GameStats};
use warsim::list::game_from_args;
use warsim::model::summary::Summary;

use crate::util::{fails, json, ok, read, s, without_run_details, Scratch};

/// A game as `warsim games --json` lists it.
struct Listed {
    name: String,
    example: Vec<String>,
    exact: bool,
}

fn games() -> Vec<Listed> {
    let v = json(&ok(&["games", "--json"]));
    let games: Vec<Listed> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|g| Listed {
            name: g["name"].as_str().unwrap().to_string(),
            example: g["example"]
                .as_array()
                .unwrap()
                .iter()
                .map(|a| a.as_str().unwrap().to_string())
                .collect(),
            exact: g["exact"].as_bool().unwrap(),
        })
        .collect();
    assert_eq!(
        games.iter().map(|g| g.name.as_str()).collect::<Vec<_>>(),
        setup::names(),
        "warsim games lists the games of face/mod.rs"
    );
    games
}

/// `simulate GAME EXAMPLE --games N --seed 5 EXTRA... --out DIR`.
fn simulate(g: &Listed, games: &str, extra: &[&str], out: &Path) {
    let mut args = vec!["simulate", g.name.as_str()];
    args.extend(g.example.iter().map(String::as_str));
    args.extend(["--games", games, "--seed", "5"]);
    args.extend(extra);
    args.extend(["--out", s(out)]);
    ok(&args);
}

#[test]
fn one_thread_and_two_give_the_same_bytes() {
    for g in games() {
        let dir = Scratch::new("conf-threads");
        let (one, two) = (dir.path("one"), dir.path("two"));
        simulate(&g, "9000", &["--threads", "1"], &one);
        simulate(&g, "9000", &["--threads", "2"], &two);
        for file in ["histogram.csv", "summary.csv"] {
            assert_eq!(read(&one, file), read(&two, file), "{}: {file}", g.name);
        }
        assert_eq!(
            without_run_details(json(&read(&one, "summary.json"))),
            without_run_details(json(&read(&two, "summary.json"))),
            "{}",
            g.name
        );
    }
}

#[test]
fn three_shards_merged_are_the_whole_run() {
    for g in games() {
        let dir = Scratch::new("conf-shards");
        let whole = dir.path("whole");
        simulate(&g, "5000", &[], &whole);
        let shards: Vec<_> = (0..3).map(|k| dir.path(&format!("s{k}"))).collect();
        for (k, shard) in shards.iter().enumerate() {
            simulate(&g, "5000", &["--shard", &format!("{k}/3")], shard);
        }
        let merged = dir.path("merged");
        let mut args = vec!["merge"];
        args.extend(shards.iter().map(|p| s(p)));
        args.extend(["--out", s(&merged)]);
        ok(&args);
        assert_eq!(
            read(&whole, "histogram.csv"),
            read(&merged, "histogram.csv"),
            "{}",
            g.name
        );
        // What merge writes, merge reads back.
        let again = dir.path("again");
        ok(&["merge", s(&merged), "--out", s(&again)]);
        assert_eq!(
            read(&merged, "histogram.csv"),
            read(&again, "histogram.csv")
        );
        let strip = |v: Value| {
            let mut v = without_run_details(v);
            v.as_object_mut().unwrap().remove("run");
            v
        };
        assert_eq!(
            strip(json(&read(&whole, "summary.json"))),
            strip(json(&read(&merged, "summary.json"))),
            "{}",
            g.name
        );
    }
}

#[test]
fn replaying_the_longest_game_reproduces_the_runs_maximum() {
    for g in games() {
        let dir = Scratch::new("conf-replay");
        let run = dir.path("run");
        simulate(&g, "3000", &[], &run);
        let summary = json(&read(&run, "summary.json"));
        let replayed = json(&ok(&["replay", s(&run), "--json"]));
        assert_eq!(replayed["rounds"], summary["longest_rounds"], "{}", g.name);
        assert_eq!(replayed["index"], summary["longest_game"], "{}", g.name);
    }
}

/// Reads a summary.json as game `G`'s typed summary and writes it again.
#[derive(Clone)]
struct RoundTrip(String);

impl WithGameType for RoundTrip {
    type Output = String;
    fn with<G: Game>(self) -> String {
        let typed: Summary<<G::Stats as GameStats>::Json> =
            serde_json::from_str(&self.0).expect("a summary of its game");
        let mut text = serde_json::to_string_pretty(&typed).unwrap();
        text.push('\n');
        text
    }
}

#[test]
fn summary_json_read_back_and_written_again_is_byte_identical() {
    for g in games() {
        let dir = Scratch::new("conf-json");
        let run = dir.path("run");
        simulate(&g, "2000", &[], &run);
        let text = read(&run, "summary.json");
        let again = setup::by_name(&g.name, RoundTrip(text.clone())).unwrap();
        assert_eq!(again, text, "{}", g.name);
    }
}

#[test]
fn bad_input_is_one_line_and_exit_2() {
    for g in games() {
        let dir = Scratch::new("conf-bad");
        let file = dir.path("a-file");
        std::fs::write(&file, "mine").unwrap();
        let name = g.name.as_str();
        for args in [
            vec!["simulate", name, "--games", "0"],
            vec!["simulate", name, "--max-rounds", "0"],
            vec!["simulate", name, "--no-such-option", "1"],
            vec!["simulate", name, "--games", "10", "--out", s(&file)],
        ] {
            fails(2, &args);
        }
        assert_eq!(std::fs::read_to_string(&file).unwrap(), "mine", "{name}");
    }
}

/// The rules and the description of a game built from rule options.
#[derive(Clone)]
struct Described(Vec<String>);

impl WithFace for Described {
    type Output = (Value, String);
    fn with<G: GameCli>(self) -> (Value, String) {
        let game = game_from_args::<G, _>(&self.0).expect("valid options");
        (serde_json::to_value(game.rules()).unwrap(), game.describe())
    }
}

#[test]
fn describe_and_rules_agree() {
    for g in games() {
        // The defaults, the example, and each with another round cap: two rule sets read
        // alike exactly when their rules are the same.
        let mut sets = vec![Vec::new(), g.example.clone()];
        for base in sets.clone() {
            let mut capped = base;
            capped.extend(["--max-rounds".to_string(), "977".to_string()]);
            sets.push(capped);
        }
        let described: Vec<(Value, String)> = sets
            .iter()
            .map(|a| face::by_name(&g.name, Described(a.clone())).unwrap())
            .collect();
        for (i, a) in described.iter().enumerate() {
            for b in &described[i + 1..] {
                assert_eq!(
                    a.0 == b.0,
                    a.1 == b.1,
                    "{}: rules {} / {}, described {:?} / {:?}",
                    g.name,
                    a.0,
                    b.0,
                    a.1,
                    b.1
                );
            }
        }
    }
}

/// Whether `mean` lies within 4 standard errors `sem` of `exact`.
fn within_4_se(mean: f64, sem: f64, exact: f64) -> bool {
    (mean - exact).abs() <= 4.0 * sem
}

#[test]
fn exact_answers_agree_with_a_long_simulation() {
    for g in games() {
        let mut args = vec!["simulate", g.name.as_str()];
        args.extend(g.example.iter().map(String::as_str));
        args.extend(["--games", "200000", "--seed", "9", "--json"]);
        let sim = json(&ok(&args));
        let (mean, sem) = (
            sim["rounds"]["mean"].as_f64().unwrap(),
            sim["rounds"]["sem"].as_f64().unwrap(),
        );
        let mut checked = false;
        if let Some(exact) = sim["exact"]["mean_rounds"].as_f64() {
            assert!(
                within_4_se(mean, sem, exact),
                "{}: {mean} ± {sem} vs {exact}",
                g.name
            );
            checked = true;
        }
        if g.exact {
            let mut args = vec!["exact", g.name.as_str()];
            args.extend(g.example.iter().map(String::as_str));
            args.push("--json");
            let exact = json(&ok(&args))["rounds"]["mean"].as_f64().unwrap();
            assert!(
                within_4_se(mean, sem, exact),
                "{}: {mean} ± {sem} vs {exact}",
                g.name
            );
            checked = true;
        }
        if !checked {
            eprintln!("{}: no exact figure to check against", g.name);
        }
    }
}
