//! A run stopped by SIGINT or SIGTERM keeps the games it finished, marked stopped, and
//! `warsim resume` plays the rest: the same histogram and summary (but for timing and
//! provenance) as the run played in one go; what is no stopped run is refused untouched.

use std::process::{Command, Stdio};
use std::time::Duration;

use super::util::{fails, json, ok, read, s, without_run_details, Scratch};

/// The run interrupted: 2 threads, no pilot (`--max-hours none`), its `--out DIR` follows.
const RUN: [&str; 11] = [
    "simulate",
    "war",
    "--games",
    "80000",
    "--threads",
    "2",
    "--seed",
    "3",
    "--max-hours",
    "none",
    "--out",
];

/// The run in `out`, stopped by `signal` after `pause`: whether it stopped with games kept.
fn interrupted(out: &std::path::Path, signal: &str, pause: Duration) -> bool {
    interrupted_run(&RUN, out, signal, pause)
}

/// The run `run` (its `--out DIR` follows) in `out`, stopped by `signal` after `pause`:
/// whether it stopped with games kept.
fn interrupted_run(run: &[&str], out: &std::path::Path, signal: &str, pause: Duration) -> bool {
    let child = Command::new(env!("CARGO_BIN_EXE_warsim"))
        .args(run)
        .arg(s(out))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(pause);
    let _ = Command::new("kill")
        .args([signal, &child.id().to_string()])
        .status();
    let done = child.wait_with_output().unwrap();
    let said = String::from_utf8_lossy(&done.stderr);
    match done.status.code() {
        // Done, or stopped after its set was written whole.
        Some(0) => false,
        Some(130) if said.contains("written in full") => false,
        Some(130) if said.contains("warsim resume") => {
            assert!(said.contains("every figure above is over those"), "{said}");
            true
        }
        // Stopped before a game was played (then nothing is written), or by the signal
        // before warsim's handler was in place.
        _ => {
            assert!(!out.exists(), "{signal} after {pause:?}: {said}");
            false
        }
    }
}

#[test]
fn a_run_stopped_at_any_moment_resumes_to_the_run_played_in_one_go() {
    let dir = Scratch::new("resume");
    let whole = dir.path("whole");
    ok(&[&RUN[..], &[s(&whole)]].concat());
    let want = without_run_details(json(&read(&whole, "summary.json")));
    let mut stopped = 0;
    for k in 0..40u64 {
        let signal = if k % 2 == 0 { "-INT" } else { "-TERM" };
        // Moments spread over the run, from before its first game to after its last.
        let pause = Duration::from_millis(20 + (k * 7919) % 400);
        let out = dir.path(&format!("r{k}"));
        if interrupted(&out, signal, pause) {
            stopped += 1;
            let part = json(&read(&out, "summary.json"));
            assert_eq!(part["run"]["stopped"], true);
            let games = part["games"].as_u64().unwrap();
            assert_eq!(part["run"]["end_game"].as_u64(), Some(games));
            ok(&["resume", s(&out)]);
        }
        if out.exists() {
            assert_eq!(read(&out, "histogram.csv"), read(&whole, "histogram.csv"));
            let got = without_run_details(json(&read(&out, "summary.json")));
            assert_eq!(got, want, "{signal} after {pause:?}");
        }
    }
    eprintln!("{stopped} of 40 runs stopped part way and resumed");
    assert!(stopped > 0, "no run was stopped part way");
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
    let mut stopped = false;
    for k in 0..20u64 {
        let _ = std::fs::remove_dir_all(&out);
        if interrupted(&out, "-INT", Duration::from_millis(60 + k * 30)) {
            stopped = true;
            break;
        }
    }
    assert!(stopped, "no run was stopped part way");
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

/// A run to a precision stopped by SIGINT or SIGTERM keeps its first games, short of the check
/// it played toward, and `resume` goes on deciding at the same checks: the run played in one go.
#[test]
fn a_run_to_a_precision_stopped_at_any_moment_resumes_to_the_run_played_in_one_go() {
    let run = [
        "simulate",
        "war",
        "--precision",
        "1",
        "--threads",
        "2",
        "--seed",
        "4",
        "--max-hours",
        "none",
        "--out",
    ];
    let dir = Scratch::new("resume-precision");
    let whole = dir.path("whole");
    ok(&[&run[..], &[s(&whole)]].concat());
    let want = without_run_details(json(&read(&whole, "summary.json")));
    let mut stopped = 0;
    for k in 0..10u64 {
        let signal = if k % 2 == 0 { "-INT" } else { "-TERM" };
        let pause = Duration::from_millis(40 + (k * 7919) % 600);
        let out = dir.path(&format!("p{k}"));
        if interrupted_run(&run, &out, signal, pause) {
            stopped += 1;
            let part = json(&read(&out, "summary.json"));
            assert_eq!(part["run"]["stopped"], true);
            assert_eq!(part["precision"]["reached"], false);
            ok(&["resume", s(&out)]);
        }
        if out.exists() {
            assert_eq!(read(&out, "histogram.csv"), read(&whole, "histogram.csv"));
            let got = without_run_details(json(&read(&out, "summary.json")));
            assert_eq!(got, want, "{signal} after {pause:?}");
        }
    }
    assert!(stopped > 0, "no run was stopped part way");
}
