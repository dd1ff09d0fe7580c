//! A run stopped by SIGINT or SIGTERM keeps the games it finished, marked stopped, and
//! `warsim resume` plays the rest: the same histogram and summary (but for timing and
//! provenance) as the run played in one go; what is no stopped run is refused untouched.

use super::moments::{at_every_moment, stop_at, Ended, Moment, PRECISE, RUN};
use super::util::{fails, json, ok, read, s, Scratch};

#[test]
fn a_run_stopped_by_sigint_at_any_moment_resumes_to_the_run_played_in_one_go() {
    at_every_moment(&RUN, "resume-int", "-INT", 20);
}

#[test]
fn a_run_stopped_by_sigterm_at_any_moment_resumes_to_the_run_played_in_one_go() {
    at_every_moment(&RUN, "resume-term", "-TERM", 20);
}

/// A run to a precision stopped by SIGINT or SIGTERM keeps its first games, short of the check
/// it played toward, and `resume` goes on deciding at the same checks: the run played in one go.
#[test]
fn a_run_to_a_precision_stopped_by_sigint_at_any_moment_resumes_to_the_run_played_in_one_go() {
    at_every_moment(&PRECISE, "resume-precision-int", "-INT", 20);
}

#[test]
fn a_run_to_a_precision_stopped_by_sigterm_at_any_moment_resumes_to_the_run_played_in_one_go() {
    at_every_moment(&PRECISE, "resume-precision-term", "-TERM", 20);
}

#[test]
fn resume_refuses_what_is_no_stopped_run_and_changes_nothing() {
    let dir = Scratch::new("resume-refused");
    let done = dir.path("done");
    ok(&[
        "simulate",
        "shotgun",
        "--games",
        "2000",
        "--quiet",
        "--out",
        s(&done),
    ]);
    let before = read(&done, "summary.json");
    let line = fails(2, &["resume", s(&done)]);
    assert!(line.contains("holds every game it was asked"), "{line}");
    assert_eq!(read(&done, "summary.json"), before);
    // A stopped run edited by hand to claim games past its slice.
    let mut v = json(&before);
    v["run"]["stopped"] = true.into();
    v["run"]["end_game"] = 2001.into();
    std::fs::write(done.join("summary.json"), v.to_string()).unwrap();
    let line = fails(2, &["resume", s(&done)]);
    assert!(line.contains("summary.json"), "{line}");
    // A sweep played whole (nothing to resume), exact's folder, a run to a precision (which
    // holds every game it decided to play), and no folder at all: each refused, each left as
    // it was.
    let sweep = dir.path("sweep");
    crate::nothing_lost::small_sweep(&sweep);
    let exact = dir.path("exact");
    crate::util::small_exact(&exact);
    let precise = dir.path("precise");
    let args = [
        "simulate",
        "shotgun",
        "--precision",
        "1",
        "--quiet",
        "--out",
    ];
    ok(&[&args[..], &[s(&precise)]].concat());
    for (folder, says) in [
        (&sweep, "holds every rule set it was asked"),
        (&exact, "holds every game it was asked"),
        (&precise, "holds every game it was asked"),
    ] {
        let before = crate::util::listing(folder);
        let summary = std::fs::read(folder.join("summary.json")).ok();
        let line = fails(2, &["resume", s(folder)]);
        assert!(line.contains(says), "{}: {line}", folder.display());
        assert_eq!(crate::util::listing(folder), before);
        assert_eq!(std::fs::read(folder.join("summary.json")).ok(), summary);
    }
    let none = dir.path("none");
    let line = fails(2, &["resume", s(&none)]);
    assert!(line.contains("nothing to resume"), "{line}");
    assert!(!none.exists());
}

/// A stopped run whose counts were edited by hand no longer adds up to its summary: refused,
/// and left as it was.
#[test]
fn resume_refuses_a_stopped_run_whose_counts_were_edited() {
    let dir = Scratch::new("resume-edited");
    let out = dir.path("run");
    // After a checkpoint of a third of its games: the signal finds the run part way.
    let moment = Moment {
        games: 50_000,
        pause: std::time::Duration::ZERO,
    };
    assert_eq!(stop_at(&RUN, &out, "-INT", moment), Ended::Stopped);
    let histogram = read(&out, "histogram.csv");
    let mut lines: Vec<String> = histogram.lines().map(String::from).collect();
    let last = lines.len() - 1;
    lines[last] = match lines[last].rsplit_once(',') {
        Some((head, n)) => format!("{head},{}", n.parse::<u64>().unwrap() + 1),
        None => panic!("{histogram}"),
    };
    let edited = lines.join("\n") + "\n";
    std::fs::write(out.join("histogram.csv"), &edited).unwrap();
    let summary = read(&out, "summary.json");
    let line = fails(2, &["resume", s(&out)]);
    assert!(line.contains("histogram.csv"), "{line}");
    assert_eq!(read(&out, "histogram.csv"), edited);
    assert_eq!(read(&out, "summary.json"), summary);
}
