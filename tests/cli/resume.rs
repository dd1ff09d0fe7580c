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
    let child = Command::new(env!("CARGO_BIN_EXE_warsim"))
        .args(RUN)
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
    // Another command's folder, and no folder at all.
    let sweep = dir.path("sweep");
    crate::nothing_lost::small_sweep(&sweep);
    fails(2, &["resume", s(&sweep)]);
    fails(2, &["resume", s(&dir.path("none"))]);
}
