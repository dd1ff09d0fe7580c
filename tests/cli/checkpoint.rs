//! Checkpoints (issue 59, item 2): a run killed by SIGKILL after a checkpoint resumes from it
//! to the run played in one go; one killed before any is refused by `resume`, clearly.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use super::util::{fails, json, ok, read, s, without_run_details, Scratch};

/// The run killed: 2 threads, a checkpoint every 60 ms, its `--out DIR` follows.
const RUN: [&str; 13] = [
    "simulate",
    "war",
    "--games",
    "600000",
    "--threads",
    "2",
    "--seed",
    "9",
    "--max-hours",
    "none",
    "--checkpoint-minutes",
    "0.001",
    "--out",
];

fn start(args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_warsim"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap()
}

/// The folders beside `out` whose names begin with `.NAME.warsim-staging-`, and the
/// checkpoints in them.
fn staged(out: &Path) -> (Vec<PathBuf>, Vec<PathBuf>) {
    let head = format!(
        ".{}.warsim-staging-",
        out.file_name().unwrap().to_str().unwrap()
    );
    let stagings: Vec<PathBuf> = std::fs::read_dir(out.parent().unwrap())
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_str().unwrap().starts_with(&head))
        .map(|e| e.path())
        .collect();
    let checkpoints = stagings
        .iter()
        .flat_map(|d| std::fs::read_dir(d).into_iter().flatten().flatten())
        .filter(|e| e.file_name().to_str().unwrap().starts_with("checkpoint-"))
        .map(|e| e.path())
        .collect();
    (stagings, checkpoints)
}

/// Waits until `ready` holds of `out` or the run ends; whether it still runs.
fn wait_for(child: &mut Child, out: &Path, ready: fn(&Path) -> bool) -> bool {
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(60) {
        if child.try_wait().unwrap().is_some() {
            return false;
        }
        if ready(out) {
            return true;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    panic!("the run neither ended nor reached what the test waits for in 60 s");
}

#[test]
fn a_run_killed_after_a_checkpoint_resumes_to_the_run_played_in_one_go() {
    let dir = Scratch::new("checkpoint");
    let whole = dir.path("whole");
    ok(&[&RUN[..], &[s(&whole)]].concat());
    let want = without_run_details(json(&read(&whole, "summary.json")));
    let mut resumed = 0;
    for k in 0..6u64 {
        let out = dir.path(&format!("k{k}"));
        let mut child = start(&[&RUN[..], &[s(&out)]].concat());
        // Killed at a moment after its first checkpoint, a different one each time.
        let running = wait_for(&mut child, &out, |o| !staged(o).1.is_empty());
        std::thread::sleep(Duration::from_millis(k * 37 % 150));
        let _ = child.kill();
        let _ = child.wait();
        if running && !out.exists() {
            ok(&["resume", s(&out), "--checkpoint-minutes", "0.001"]);
            resumed += 1;
        }
        assert_eq!(read(&out, "histogram.csv"), read(&whole, "histogram.csv"));
        let got = without_run_details(json(&read(&out, "summary.json")));
        assert_eq!(got, want, "killed run {k}");
        // Nothing is left beside the folder: the checkpoints went with the killed staging.
        assert_eq!(staged(&out), (vec![], vec![]));
        let listed: Vec<String> = std::fs::read_dir(&out)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        assert!(
            !listed.iter().any(|n| n.starts_with("checkpoint")),
            "{listed:?}"
        );
    }
    assert!(resumed > 0, "no run was killed while it ran");
}

/// A checkpoint edited by hand (its summary claiming games past its counts) is refused
/// clearly, and nothing is changed: neither it nor DIR.
#[test]
fn a_checkpoint_edited_by_hand_is_refused() {
    let dir = Scratch::new("checkpoint-edited");
    let out = dir.path("k");
    let mut child = start(&[&RUN[..], &[s(&out)]].concat());
    let running = wait_for(&mut child, &out, |o| !staged(o).1.is_empty());
    let _ = child.kill();
    let _ = child.wait();
    assert!(running, "the run ended before the test could kill it");
    let checkpoint = staged(&out).1.pop().unwrap();
    let mut v = json(&read(&checkpoint, "summary.json"));
    let end = v["run"]["end_game"].as_u64().unwrap();
    v["run"]["end_game"] = (end + 1).into();
    let edited = v.to_string();
    std::fs::write(checkpoint.join("summary.json"), &edited).unwrap();
    let e = fails(2, &["resume", s(&out)]);
    assert!(e.contains("summary.json"), "{e}");
    assert!(!out.exists());
    assert_eq!(read(&checkpoint, "summary.json"), edited);
}

/// A run killed before any checkpoint (here: it writes none) leaves nothing to resume:
/// `resume` says so, exit 2, and changes nothing.
#[test]
fn a_run_killed_before_any_checkpoint_is_refused_clearly() {
    let dir = Scratch::new("no-checkpoint");
    let out = dir.path("k");
    let mut args = RUN.to_vec();
    args[11] = "0";
    let mut child = start(&[&args[..], &[s(&out)]].concat());
    let running = wait_for(&mut child, &out, |o| !staged(o).0.is_empty());
    let _ = child.kill();
    let _ = child.wait();
    assert!(running, "the run ended before the test could kill it");
    let before = staged(&out);
    assert!(before.1.is_empty());
    let e = fails(2, &["resume", s(&out)]);
    assert!(
        e.contains("nothing to resume") && e.contains("no checkpoint beside it"),
        "{e}"
    );
    assert!(!out.exists());
    assert_eq!(staged(&out), before);
}
