//! The typed API called from Rust with values no other face takes: each is refused as the
//! command line refuses its flag (found by an attack: `threads: Some(u32::MAX)` ran away,
//! `keep: usize::MAX` was held as asked, a `max_hours` of NaN bounded nothing).

use std::path::PathBuf;
use std::sync::Arc;

use warsim::api::{self, RunConfig, SearchConfig, SearchGame, Session, Setup};
use warsim::cancel::Cancel;
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
    let rps = serde_json::to_value(warsim::games::rps::RpsSettings::default()).unwrap();
    let game = Setup::from_json("rps", &rps).unwrap();
    let dir = out("run");
    let quiet = RunConfig {
        out: Some(dir.clone()),
        print: Print::Nothing,
        progress: When::Never,
        games: Some(100),
        ..RunConfig::default()
    };
    for (run, want) in [
        (
            RunConfig {
                threads: Some(u32::MAX),
                ..quiet.clone()
            },
            "threads 4294967295: expected a whole number from 1 to 1024",
        ),
        (
            RunConfig {
                threads: Some(0),
                ..quiet.clone()
            },
            "threads 0",
        ),
        (
            RunConfig {
                games: Some(0),
                ..quiet.clone()
            },
            "games 0: expected a whole number of games of at least 1",
        ),
        (
            RunConfig {
                precision: Some(f64::NAN),
                ..quiet.clone()
            },
            "precision NaN",
        ),
    ] {
        refused(api::simulate(&session(), &game, &run).unwrap_err(), want);
        refused(
            api::exact(&session(), &game, &run, false).unwrap_err(),
            want,
        );
    }
    // What the command line's `exact` has no flag for is refused, not ignored.
    let seeded = RunConfig {
        seed: 5,
        games: None,
        ..quiet.clone()
    };
    let e = api::exact(&session(), &game, &seeded, false).unwrap_err();
    refused(e, "exact rps: seed does not apply");
    assert!(!dir.exists());
    // A bound of NaN, or below 0, cannot be made.
    for h in [f64::NAN, -1.0, 0.0] {
        assert!(MaxHours::new(Some(h)).is_err(), "{h}");
    }
}

#[test]
fn search_options_past_the_command_lines_bounds_are_refused() {
    let bmn = serde_json::to_value(warsim::games::bmn::BmnSettings::default()).unwrap();
    let game = SearchGame::from_json("bmn", &bmn).unwrap();
    let dir = out("search");
    let quiet = SearchConfig {
        out: dir.clone(),
        print: Print::Nothing,
        progress: When::Never,
        deals: Some(100),
        ..SearchConfig::default()
    };
    for (config, want) in [
        (
            SearchConfig {
                threads: Some(u32::MAX),
                ..quiet.clone()
            },
            "threads 4294967295",
        ),
        (
            SearchConfig {
                keep: usize::MAX,
                ..quiet.clone()
            },
            "keep 18446744073709551615: expected a whole number from 1 to 10,000",
        ),
        (
            SearchConfig {
                walkers: u32::MAX,
                ..quiet.clone()
            },
            "walkers 4294967295",
        ),
    ] {
        refused(api::search(&session(), &game, &config).unwrap_err(), want);
    }
    assert!(!dir.exists());
}

/// Settings from JSON in the caller's words: the missing take their defaults (a missing field
/// failed), a whole float is whole (`{"games": 1e3}` was refused as "a decimal point" by a
/// message offering 1e6), and a refusal names the setting with no Rust type in it.
#[test]
fn settings_from_json_take_defaults_whole_floats_and_name_the_setting() {
    for name in warsim::face::names() {
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
    assert_eq!(run.games, Some(1000));
}
