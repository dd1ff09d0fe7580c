//! A reader sees one run: a folder read while another process commits new runs into it reads
//! as one whole run each time, never one run's summary with another's histogram.

use std::collections::BTreeSet;
use std::sync::atomic::{AtomicBool, Ordering};

use warsim::games::shotgun::Shotgun;

use crate::util::*;

/// The games of a run, each run a different number, committed 100 times by another process
/// while this one loads the folder in a loop, as `warsim.load` and `merge` do.
#[test]
fn a_folder_read_while_runs_are_committed_reads_as_one_run_each_time() {
    let tmp = Scratch::new("polled");
    let out = tmp.path("o");
    let run = |k: u64| {
        let games = (1_000 + k).to_string();
        let seed = k.to_string();
        ok(&[
            "simulate",
            "shotgun",
            "--games",
            &games,
            "--seed",
            &seed,
            "--threads",
            "1",
            "--quiet",
            "--out",
            s(&out),
        ]);
    };
    run(0);
    let done = AtomicBool::new(false);
    let (loads, seen) = std::thread::scope(|scope| {
        scope.spawn(|| {
            (1..=100).for_each(run);
            done.store(true, Ordering::SeqCst);
        });
        let (mut loads, mut seen) = (0u64, BTreeSet::new());
        while !done.load(Ordering::SeqCst) {
            let part = warsim::model::load::load::<Shotgun>(&out)
                .unwrap_or_else(|e| panic!("load {loads}: {e}"));
            let summary = json(&part.summary_json);
            let counted: u64 = (part.histogram_csv.lines().skip(1))
                .map(|l| l.split(',').nth(1).unwrap().parse::<u64>().unwrap())
                .sum();
            assert_eq!(summary["games"], part.tally.games, "load {loads}");
            assert_eq!(counted, part.tally.games, "load {loads}");
            assert_eq!(summary["seed"], part.tally.games - 1_000, "load {loads}");
            seen.insert(part.tally.games);
            loads += 1;
        }
        (loads, seen)
    });
    eprintln!("{loads} loads, {} runs seen", seen.len());
    // The reader ran through many commits, so the test exercised what it claims to.
    assert!(
        seen.len() >= 10,
        "{loads} loads saw only {} runs",
        seen.len()
    );
}
