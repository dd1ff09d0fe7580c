//! Estimates that hold (issue 59, item 4): `--estimate` alone, the estimate in a log, and a
//! run that takes half again its `--max-hours` stopping itself where `resume` goes on.

use std::process::{Command, Stdio};

use super::util::{fails, json, log_lines, ok, read, s, within, without_run_details, Scratch};

/// `--estimate` prints the estimate and its verdict and exits 0 without playing the run or
/// writing anything, whatever the bound.
#[test]
fn estimate_alone_prints_and_writes_nothing() {
    let dir = Scratch::new("estimate");
    let out = dir.path("never");
    let run = |bound: &str| {
        let args = ["simulate", "war", "--games", "1e12", "--max-hours", bound];
        ok(&[&args[..], &["--estimate", "--out", s(&out)]].concat())
    };
    let over = run("6");
    let lines: Vec<&str> = over.lines().collect();
    assert_eq!(lines.len(), 2, "{over}");
    assert!(lines[0].starts_with("estimate: about "), "{over}");
    assert!(
        lines[0].contains("on ") && lines[0].contains("(pilot: "),
        "{over}"
    );
    assert_eq!(
        lines[1], "over the --max-hours bound of 6 h: the run would be refused",
        "{over}"
    );
    let within = run("none");
    assert!(
        within.ends_with("within the --max-hours bound of none\n"),
        "{within}"
    );
    assert!(!out.exists());
    // A sweep says it has no --estimate rather than ignore it.
    let e = fails(
        2,
        &[
            "sweep",
            "war",
            "--war-down",
            "1,2",
            "--estimate",
            "--out",
            s(&out),
        ],
    );
    assert!(e.contains("--estimate is simulate's"), "{e}");
    assert!(!out.exists());
}

/// The estimate of a run whose first game never ends is a floor, given after the pilot's
/// most time (3 s) rather than never.
#[test]
fn the_estimate_of_an_endless_game_is_a_floor() {
    let args = [
        "simulate",
        "war",
        "--ranks",
        "6",
        "--suits",
        "2",
        "--pickup",
        "p1-first",
        "--detect-loops",
        "off",
        "--max-rounds",
        "1e12",
        "--estimate",
    ];
    let done = within(60, &args);
    assert!(done.status.success());
    let said = String::from_utf8_lossy(&done.stdout);
    assert!(
        said.starts_with("estimate: at least ") && said.contains("still going after"),
        "{said}"
    );
}

/// The run of the overrun test: 2 threads, its `--out DIR` follows.
const RUN: [&str; 9] = [
    "simulate",
    "war",
    "--games",
    "200000",
    "--threads",
    "2",
    "--seed",
    "5",
    "--out",
];

/// A run that takes half again its bound stops itself (here at once: the test sets the time it
/// may take to 0 s, as hours of play would), writes what it finished, marked stopped, says
/// why, and resumes to the run played in one go.
#[test]
fn a_run_past_half_again_its_bound_stops_itself_and_resumes() {
    let dir = Scratch::new("overrun");
    let (whole, out) = (dir.path("whole"), dir.path("out"));
    ok(&[&RUN[..], &[s(&whole)]].concat());
    let done = Command::new(env!("CARGO_BIN_EXE_warsim"))
        .args(RUN)
        .args([s(&out), "--progress", "log"])
        .env("WARSIM_TEST_OVERRUN_S", "0")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(done.status.code(), Some(130));
    let err = String::from_utf8_lossy(&done.stderr);
    // Every line a log line, the last (the message of the stopped run) too.
    let lines = log_lines(&err);
    assert!(lines[0].starts_with("estimate: "), "{err}");
    assert!(
        lines.iter().any(|l| l
            .starts_with("stopping: the run has taken half again its --max-hours bound of 6 h")),
        "{err}"
    );
    assert!(
        lines.last().unwrap().starts_with(
            "stopped: the run took half again its --max-hours bound and stopped itself"
        ),
        "{err}"
    );
    let part = json(&read(&out, "summary.json"));
    assert_eq!(part["run"]["stopped"], true);
    assert!(part["games"].as_u64().unwrap() < 200_000);
    assert!(part["timing"]
        .as_str()
        .unwrap()
        .starts_with("the run stopped itself"));
    ok(&["resume", s(&out)]);
    assert_eq!(read(&out, "histogram.csv"), read(&whole, "histogram.csv"));
    assert_eq!(
        without_run_details(json(&read(&out, "summary.json"))),
        without_run_details(json(&read(&whole, "summary.json")))
    );
}

/// Under `--progress log` every line of a run stopped by SIGINT and of its resume has its time,
/// the signal handler's `stopping:` line, the final message and `replaced` on stderr, and the
/// `written` line on stdout (a Slurm log holds both) too.
#[test]
fn under_progress_log_every_line_of_a_stopped_and_resumed_run_has_its_time() {
    let dir = Scratch::new("log-times");
    let out = dir.path("run");
    let mut child = Command::new(env!("CARGO_BIN_EXE_warsim"))
        .args(super::moments::RUN)
        .args([s(&out), "--progress", "log"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let checkpointed = |o: &std::path::Path| !super::moments::staged(o).1.is_empty();
    assert!(super::moments::wait_for(&mut child, &out, &checkpointed));
    let _ = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status();
    let done = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&done.stderr);
    assert_eq!(done.status.code(), Some(130), "{err}");
    let lines = log_lines(&err);
    let stopping = "stopping: writing what is finished so far";
    assert!(lines.iter().any(|l| l.starts_with(stopping)), "{err}");
    let last = lines.last().unwrap();
    assert!(
        last.starts_with("interrupted: the run stopped after "),
        "{err}"
    );
    let written = |stdout: &[u8]| {
        let text = String::from_utf8_lossy(stdout).to_string();
        let line = text.lines().last().unwrap_or_default().to_string();
        assert!(log_lines(&line)[0].starts_with("written   "), "{text}");
    };
    written(&done.stdout);
    let resumed = Command::new(env!("CARGO_BIN_EXE_warsim"))
        .args(["resume", s(&out), "--progress", "log"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&resumed.stderr);
    assert!(resumed.status.success(), "{err}");
    let replaced = format!("replaced {}/ (simulate war, ", out.display());
    assert!(
        log_lines(&err).iter().any(|l| l.starts_with(&replaced)),
        "{err}"
    );
    written(&resumed.stdout);
}
