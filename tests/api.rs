//! The typed API called from Rust with values no other face takes: each is refused as the
//! command line refuses its flag (found by an attack: `threads: Some(u32::MAX)` ran away,
//! `keep: usize::MAX` was held as asked, a `max_hours` of NaN bounded nothing).

use std::path::PathBuf;
use std::sync::Arc;

use warsim::api::{self, RunConfig, SearchConfig, Session, Setup};
use warsim::cancel::Cancel;
use warsim::config::{Bases, Games, Keep, Threads, Walkers};
use warsim::estimate::MaxHours;
use warsim::term::progress::When;
use warsim::term::stdout::Print;

fn session() -> Session {
    Session::hosted(Cancel::default(), vec!["api".into()], Arc::default())
}

/// A folder of this test's own that no call may write.
fn out(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("warsim-api-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn refused(e: anyhow::Error, want: &str) {
    assert!(warsim::error::is_usage(&e), "not a usage error: {e:#}");
    assert!(e.to_string().contains(want), "want {want:?}: {e}");
}

#[test]
fn run_options_past_the_command_lines_bounds_are_refused() {
    // The counts cannot be made out of range: each is refused where it is made, in the words
    // the command line uses for its flag.
    for (made, want) in [
        (
            Threads::new(u32::MAX).map(drop),
            "threads 4294967295: expected a whole number from 1 to 1,024",
        ),
        (Threads::new(0).map(drop), "threads 0"),
        (
            Games::new(0).map(drop),
            "games 0: expected a whole number of games of at least 1",
        ),
    ] {
        let e = made.unwrap_err().to_string();
        assert!(e.starts_with(want), "want {want:?}: {e}");
    }
    let rps = serde_json::to_value(warsim::games::rps::RpsSettings::default()).unwrap();
    let game = Setup::from_json("rps", &rps).unwrap();
    let dir = out("run");
    let quiet = RunConfig {
        out: Some(dir.clone()),
        print: Print::Nothing,
        progress: When::Never,
        games: Some(Games::new(100).unwrap()),
        ..RunConfig::default()
    };
    // A precision, a float, is held as given and refused before anything is played.
    let run = RunConfig {
        precision: Some(f64::NAN),
        ..quiet.clone()
    };
    refused(
        api::simulate(&session(), &game, &run).unwrap_err(),
        "precision NaN",
    );
    refused(
        api::exact(&session(), &game, &run, false).unwrap_err(),
        "precision NaN",
    );
    // What the command line's `exact` has no flag for is refused, not ignored.
    let seeded = RunConfig {
        seed: 5,
        games: None,
        ..quiet.clone()
    };
    let e = api::exact(&session(), &game, &seeded, false).unwrap_err();
    refused(e, "exact rps: seed does not apply");
    for (run, name) in [
        (
            RunConfig {
                shard: "0/2".parse().ok(),
                games: None,
                ..quiet.clone()
            },
            "shard",
        ),
        (
            RunConfig {
                max_games: Games::new(5).unwrap(),
                games: None,
                ..quiet.clone()
            },
            "max_games",
        ),
        (
            RunConfig {
                games: Some(Games::new(9).unwrap()),
                ..quiet.clone()
            },
            "games",
        ),
    ] {
        let e = api::exact(&session(), &game, &run, false).unwrap_err();
        refused(e, &format!("exact rps: {name} does not apply"));
    }
    assert!(!dir.exists());
    // A bound of NaN, or below 0, cannot be made.
    for h in [f64::NAN, -1.0, 0.0] {
        assert!(MaxHours::new(Some(h)).is_err(), "{h}");
    }
}

#[test]
fn search_options_past_the_command_lines_bounds_cannot_be_made() {
    let keep = Keep::new(usize::MAX).unwrap_err().to_string();
    assert!(
        keep.starts_with("keep 18446744073709551615: expected a whole number from 1 to 10,000"),
        "{keep}"
    );
    let walkers = Walkers::new(u32::MAX).unwrap_err().to_string();
    assert!(walkers.starts_with("walkers 4294967295"), "{walkers}");
    let bases = Bases::new(0).unwrap_err().to_string();
    assert!(bases.starts_with("bases 0"), "{bases}");
    // From JSON, the Python package's way in, the same bounds in the same words.
    let e = serde_json::from_value::<SearchConfig>(serde_json::json!({"keep": 10001}));
    let e = e.unwrap_err().to_string();
    assert!(
        e.contains("expected a whole number from 1 to 10,000"),
        "{e}"
    );
}

/// Settings from JSON in the caller's words: the missing take their defaults (a missing field
/// failed), a whole float is whole (`{"games": 1e3}` was refused as "a decimal point" by a
/// message offering 1e6), and a refusal names the setting with no Rust type in it.
#[test]
fn settings_from_json_take_defaults_whole_floats_and_name_the_setting() {
    for name in warsim::config::setup::names() {
        assert!(
            Setup::from_json(name, &serde_json::json!({})).is_ok(),
            "{name}"
        );
    }
    let game = Setup::from_json("bmn", &serde_json::json!({"ranks": 7.0, "suits": 2})).unwrap();
    let bmn = Setup::from_json("bmn", &serde_json::json!({"ranks": 7, "suits": 2})).unwrap();
    assert_eq!(format!("{game:?}"), format!("{bmn:?}"));
    let e = Setup::from_json("bmn", &serde_json::json!({"ranks": "13"})).unwrap_err();
    let e = e.to_string();
    assert!(
        e.starts_with("bmn: ranks: expected a whole number")
            && e.ends_with("got the string \"13\""),
        "{e}"
    );
    let run: RunConfig = serde_json::from_value(serde_json::json!({"games": 1e3})).unwrap();
    assert_eq!(run.games.map(Games::get), Some(1000));
}

/// The description of a run read back from `dir`'s summary.json.
fn read_back(dir: &std::path::Path) -> warsim::model::report::RunInfo {
    warsim::model::load::load::<warsim::games::war::War>(dir)
        .unwrap()
        .info
}

/// `held`, the description a run held in memory, is what its summary.json says: every field
/// read back equal, and the engine, which a run read back leaves unsaid (a merge of it was
/// played by no one engine), in summary.json's provenance.
fn reaches_its_summary(held: &warsim::model::report::RunInfo, dir: &std::path::Path, kind: &str) {
    let said = warsim::model::report::RunInfo {
        engine: None,
        ..held.clone()
    };
    assert_eq!(read_back(dir), said, "{kind}");
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("summary.json")).unwrap()).unwrap();
    let engine = summary["provenance"]["engine"].as_str().map(str::to_string);
    assert_eq!(engine, held.engine, "{kind}: provenance.engine");
}

/// Every field of a run's description that the run held in memory reaches its summary.json,
/// from every kind of run: a plain run, a run to a precision, each shard of a run, their merge,
/// and each rule set of a sweep. A field added to the description that one path drops or
/// rebuilds (as `--precision` once rebuilt it, losing a new field) fails here, since what is
/// read back differs from what the run held.
#[test]
fn a_runs_description_reaches_its_summary_from_every_kind_of_run() {
    let dir = out("described");
    let s = session();
    let war = |down: u32| Setup::from_json("war", &serde_json::json!({"war_down": down})).unwrap();
    let simulate = |name: &str, run: RunConfig| {
        let run = RunConfig {
            seed: 11,
            out: Some(dir.join(name)),
            print: Print::Nothing,
            progress: When::Never,
            ..run
        };
        let (held, written) = api::simulate_into(&s, &war(2), &run).unwrap();
        reaches_its_summary(held.info(), &written.unwrap(), name);
        held
    };
    let games = |n: u64| RunConfig {
        games: Some(Games::new(n).unwrap()),
        ..RunConfig::default()
    };
    simulate("plain", games(3_000));
    let precise = simulate(
        "precision",
        RunConfig {
            precision: Some(8.0),
            max_games: Games::new(200_000).unwrap(),
            ..games(2_000)
        },
    );
    assert!(precise.info().precision.is_some());
    let shards: Vec<PathBuf> = (0..3)
        .map(|i| {
            let name = format!("shard{i}");
            let shard = warsim::sim::shard::Shard::new(i, 3).unwrap();
            let held = simulate(
                &name,
                RunConfig {
                    shard: Some(shard),
                    ..games(3_000)
                },
            );
            assert!(held.info().shard.is_some(), "{name}");
            dir.join(name)
        })
        .collect();
    let merge = api::Merge {
        dirs: shards,
        out: Some(dir.join("merged")),
        svg: false,
    };
    let (merged, written) = api::merge_into(&s, &merge).unwrap();
    reaches_its_summary(merged.info(), &written.unwrap(), "merge");
    // A sweep's rule sets against the same runs made alone: each set's description read back
    // is what a run of its rules held.
    let sweep = dir.join("sweep");
    let status = std::process::Command::new(env!("CARGO_BIN_EXE_warsim"))
        .args([
            "sweep",
            "war",
            "--war-down",
            "1,2",
            "--games",
            "3000",
            "--seed",
            "11",
        ])
        .args(["--quiet", "--out"])
        .arg(&sweep)
        .status()
        .unwrap();
    assert!(status.success());
    for down in [1, 2] {
        let run = RunConfig {
            games: Some(Games::new(3_000).unwrap()),
            seed: 11,
            print: Print::Nothing,
            progress: When::Never,
            ..RunConfig::default()
        };
        let held = api::simulate(&s, &war(down), &run).unwrap();
        let set = std::fs::read_dir(&sweep)
            .unwrap()
            .map(|e| e.unwrap().path())
            .find(|p| p.is_dir() && p.to_string_lossy().contains(&format!("war-down-{down}")))
            .unwrap();
        reaches_its_summary(held.info(), &set, &format!("sweep set war-down {down}"));
    }
    let _ = std::fs::remove_dir_all(&dir);
}
