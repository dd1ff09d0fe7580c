//! Checkpoints (issue 59, item 2): a run killed by SIGKILL after a checkpoint resumes from it
//! to the run played in one go; one killed before any is refused by `resume`, clearly.

use super::moments::{at_every_moment, staged, start, wait_for, PRECISE, RUN};
use super::util::{fails, json, read, s, Scratch};

#[test]
fn a_run_killed_after_a_checkpoint_resumes_to_the_run_played_in_one_go() {
    at_every_moment(&RUN, "checkpoint", "-KILL", 20);
}

/// A run to a precision saves checkpoints as a run of a fixed number of games does, each the
/// stopped run it makes on its way to its next check; killed, it resumes deciding at the same
/// checks: the run played in one go.
#[test]
fn a_run_to_a_precision_killed_after_a_checkpoint_resumes_to_the_run_played_in_one_go() {
    at_every_moment(&PRECISE, "checkpoint-precision", "-KILL", 20);
}

/// A checkpoint edited by hand (its summary claiming games past its counts) is refused
/// clearly, and nothing is changed: neither it nor DIR.
#[test]
fn a_checkpoint_edited_by_hand_is_refused() {
    let dir = Scratch::new("checkpoint-edited");
    let out = dir.path("k");
    let mut child = start(&[&RUN[..], &[s(&out)]].concat());
    let running = wait_for(&mut child, &out, &|o| !staged(o).1.is_empty());
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
    let running = wait_for(&mut child, &out, &|o| !staged(o).0.is_empty());
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
