//! `compare` returns a value and writes nothing; its `_into` sibling writes the value's own
//! texts, so a set holds what the value says.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::*;
use crate::cancel::Cancel;
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

/// The runs of Rock-paper-scissors with seeds 1 and 2, written into `dir`.
fn two_runs(session: &Session, dir: &Path) -> Vec<PathBuf> {
    let game = Setup::from_json("rps", &serde_json::json!({"players": 3, "max_rounds": 100}));
    let game = game.unwrap();
    (1..=2)
        .map(|seed| {
            let out = dir.join(format!("seed-{seed}"));
            let run = RunConfig {
                games: Some(500),
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
