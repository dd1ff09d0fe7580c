//! `compare` and `search` return values and write nothing; their `_into` siblings write the
//! value's own texts, so a set holds what the value says.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::*;
use crate::cancel::Cancel;
use crate::search::Method;
use crate::store::private::PrivateDir;
use crate::term::progress::When;
use crate::term::stdout::Print;

fn hosted(command: &[&str]) -> Session {
    let words = command.iter().map(|w| w.to_string()).collect();
    Session::hosted(Cancel::default(), words, Arc::default())
}

/// The names in `dir`, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

fn read(dir: &Path, name: &str) -> String {
    std::fs::read_to_string(dir.join(name)).unwrap()
}

/// A document without what differs between two runs of one search: its times and its
/// provenance.
fn without_times(json: &str) -> serde_json::Value {
    let mut doc: serde_json::Value = serde_json::from_str(json).unwrap();
    let object = doc.as_object_mut().unwrap();
    for key in ["elapsed_s", "deals_per_s", "tries_per_s", "provenance"] {
        object.remove(key);
    }
    doc
}

/// The runs of Rock-paper-scissors with seeds 1 and 2, written into `dir`.
fn two_runs(session: &Session, dir: &Path) -> Vec<PathBuf> {
    let game = Setup::from_json("rps", &serde_json::json!({"players": 3, "max_rounds": 100}));
    let game = game.unwrap();
    (1..=2)
        .map(|seed| {
            let out = dir.join(format!("seed-{seed}"));
            let run = RunConfig {
                games: Some(crate::config::Games::new(500).unwrap()),
                seed,
                out: Some(out.clone()),
                print: Print::Nothing,
                progress: When::Never,
                ..RunConfig::default()
            };
            simulate_into(session, &game, &run).unwrap();
            out
        })
        .collect()
}

/// `compare` reads and tests without writing; `compare_into` writes the value's compare.json
/// and compare.csv, and the same runs give the same tests either way. Fewer than two runs
/// are refused before a folder is made.
#[test]
fn a_comparison_is_a_value_that_its_set_writes() {
    let dir = PrivateDir::new("warsim-api").unwrap();
    let session = hosted(&["compare"]);
    let runs = two_runs(&session, dir.path());
    let before = names(dir.path());
    let compared = compare(&session, &runs).unwrap();
    assert_eq!(names(dir.path()), before);
    assert_eq!(compared.document().pairs_tested, 1);
    let out = dir.path().join("cmp");
    let c = Compare {
        dirs: runs.clone(),
        out: out.clone(),
        svg: false,
    };
    let written = compare_into(&session, &c).unwrap();
    assert_eq!(written.json().unwrap(), read(&out, "compare.json"));
    assert_eq!(written.csv().unwrap(), read(&out, "compare.csv"));
    assert_eq!(compared.csv().unwrap(), written.csv().unwrap());
    let one = Compare {
        dirs: runs[..1].to_vec(),
        out: dir.path().join("one"),
        svg: false,
    };
    let e = compare_into(&session, &one).unwrap_err();
    assert!(crate::error::is_usage(&e), "{e:#}");
    assert!(!one.out.exists());
}

/// Beggar-my-neighbour on a 14-card deck (ranks 7, suits 2).
fn small_bmn() -> SearchSetup {
    let mut settings = serde_json::to_value(crate::games::bmn::BmnSettings::default()).unwrap();
    settings["ranks"] = 7.into();
    settings["suits"] = 2.into();
    SearchSetup::from_json("bmn", &settings).unwrap()
}

/// `search` and `reaching` find without writing; their `_into` siblings write the value's
/// document, and a search of one seed finds the same deals either way.
#[test]
fn a_search_is_a_value_that_its_set_writes() {
    let dir = PrivateDir::new("warsim-api").unwrap();
    let session = hosted(&["search", "bmn"]);
    let bmn = small_bmn();
    let config = SearchConfig {
        deals: Some(4_000),
        walkers: crate::config::Walkers::new(2).unwrap(),
        seed: 2,
        threads: Some(crate::config::Threads::new(1).unwrap()),
        method: Some(Method::Climb),
        out: dir.path().join("climb"),
        print: Print::Nothing,
        progress: When::Never,
        ..SearchConfig::default()
    };
    let found = search(&session, &bmn, &config).unwrap();
    assert!(names(dir.path()).is_empty());
    assert!(!found.report().stopped());
    let written = search_into(&session, &bmn, &config).unwrap();
    assert_eq!(written.document_name(), "search.json");
    let file = read(&config.out, "search.json");
    assert_eq!(written.json().unwrap(), file);
    assert_eq!(without_times(&found.json().unwrap()), without_times(&file));
    assert!(read(&config.out, "best.txt").contains("warsim play bmn --ranks 7 --suits 2"));
    let walk = ReachingConfig {
        deal: "--J-/K-QQ-AAKJ-".into(),
        out: dir.path().join("basin"),
        progress: When::Never,
        ..ReachingConfig::default()
    };
    let basin = reaching(&session, &bmn, &walk).unwrap();
    assert!(!walk.out.exists());
    let crate::games::bmn::search::report::SearchReport::Reaching(r) = basin.report() else {
        panic!("{:?}", basin.report().head());
    };
    assert_eq!(r.deals.len(), 84);
    let written = reaching_into(&session, &bmn, &walk).unwrap();
    assert_eq!(written.json().unwrap(), read(&walk.out, "reaching.json"));
    assert_eq!(
        without_times(&basin.json().unwrap()),
        without_times(&written.json().unwrap())
    );
}

/// Every game's `play` at its default arguments (no piles, no throws: what no command
/// line can ask, since clap requires them) is a usage error or a game, never a panic.
#[test]
fn every_play_at_its_defaults_answers_or_refuses() {
    for name in setup::names() {
        let game = Play::from_json(name, &default_play(name)).unwrap();
        let mut out = Vec::new();
        let mut io = PlayIo {
            trace: false,
            names: false,
            out: &mut out,
            input: &mut std::io::empty(),
            input_echoed: false,
            prompt: &mut std::io::sink(),
            cancel: &Cancel::default(),
        };
        if let Err(e) = play(&game, &mut io) {
            assert!(crate::error::is_usage(&e), "{name}: {e:#}");
        }
    }
}

/// The JSON of game `name`'s `play` arguments at their defaults.
fn default_play(name: &str) -> serde_json::Value {
    struct Of;
    impl crate::face::WithFace for Of {
        type Output = serde_json::Value;
        fn with<G: crate::face::GameCli>(self) -> serde_json::Value {
            serde_json::to_value(G::PlayArgs::default()).unwrap()
        }
    }
    crate::face::by_name(name, Of).unwrap()
}
