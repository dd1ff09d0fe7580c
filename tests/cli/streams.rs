//! Standard streams that go away or fill up: a reader that quits, a full disk, a closed stdout,
//! endless input. Each ends with the documented exit status and one line, never a panic.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::thread;

use crate::util::finish_within;

/// Ten piles of 170 cards whose Snap game lasts 4,635,489 turns: its trace runs for many
/// seconds when nobody stops it.
const LONG_SNAP: &str = include_str!("long_snap_deal.txt");

fn warsim() -> Command {
    Command::new(env!("CARGO_BIN_EXE_warsim"))
}

#[test]
fn a_trace_stops_when_its_reader_goes_away() {
    for json in [false, true] {
        let mut cmd = warsim();
        cmd.args(["play", "snap", "--trace"])
            .args(LONG_SNAP.split_whitespace());
        if json {
            cmd.arg("--json");
        }
        let mut child = cmd
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut first = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut first)
            .unwrap();
        assert!(!first.is_empty());
        // The reader is dropped here, as `head -1` quits.
        let done = finish_within(child, 5, "a trace whose reader went away");
        let err = String::from_utf8_lossy(&done.stderr);
        assert_eq!(
            (done.status.code(), err.as_ref()),
            (Some(0), ""),
            "json {json}"
        );
    }
}

/// What writes a whole rendered text at once: help, version, completions, the manual page.
const RENDERED: &[&[&str]] = &[
    &["completions", "bash"],
    &["completions", "zsh"],
    &["manpage"],
    &["sweep", "war", "--help"],
    &["--help"],
    &["--version"],
    &["play", "snap", "--help"],
];

#[test]
fn rendered_text_on_a_full_disk_is_one_error_line_not_a_panic() {
    for args in RENDERED {
        let full = std::fs::File::options()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let out = warsim().args(*args).stdout(full).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert_eq!(
            err, "error: cannot write to stdout: No space left on device (os error 28)\n",
            "{args:?}"
        );
    }
}

#[test]
fn rendered_text_into_a_closed_pipe_exits_0() {
    for args in RENDERED {
        let out = crate::util::with_reader_gone(args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!((out.status.code(), err.as_ref()), (Some(0), ""), "{args:?}");
    }
}

/// Runs `warsim ARGS` through `sh` with the redirections `redirect` (such as `>&-`).
fn with_redirect(redirect: &str, args: &str) -> std::process::Output {
    Command::new("sh")
        .arg("-c")
        .arg(format!("exec \"$0\" {args} {redirect}"))
        .arg(env!("CARGO_BIN_EXE_warsim"))
        .output()
        .unwrap()
}

#[test]
fn a_closed_stdout_is_an_error_not_a_silent_success() {
    let out = with_redirect(">&-", "simulate shotgun --games 10");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("error: standard output is closed"), "{err}");
    // With stderr closed as well, the exit status still says it.
    let out = with_redirect(">&- 2>&-", "simulate shotgun --games 10");
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn a_closed_stdin_or_stderr_changes_nothing_else() {
    let out = with_redirect("<&- 2>&-", "simulate shotgun --games 10");
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stdout).contains("10 games"));
    // No input at all: the game is abandoned in round 1, as any input ending early (exit 2).
    let out = with_redirect("<&-", "play jitsu");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("round 1: the input ended"));
}

#[test]
fn endless_jitsu_input_is_refused_at_once() {
    let zero = std::fs::File::open("/dev/zero").unwrap();
    let child = warsim()
        .args(["play", "jitsu"])
        .stdin(zero)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let done = finish_within(child, 5, "play jitsu < /dev/zero");
    let err = String::from_utf8_lossy(&done.stderr);
    assert_eq!(done.status.code(), Some(2), "{err}");
    // Round 1's labels and prompt, and the message: no input.
    assert!(err.len() < 600, "{err}");
    assert!(
        err.ends_with(
            "round 1: an input line is longer than 1024 bytes; enter a number from 1 to 5\n"
        ),
        "{err}"
    );
}

/// Runs `play jitsu` with `input` written from a thread of its own, which may meet a closed
/// pipe once warsim has refused the input.
fn jitsu_with(input: Vec<u8>) -> std::process::Output {
    let mut child = warsim()
        .args(["play", "jitsu"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = thread::spawn(move || {
        // Refused input closes the pipe under the writer: that error is expected.
        let _ = stdin.write_all(&input);
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    out
}

#[test]
fn a_ten_megabyte_jitsu_line_is_refused_and_never_echoed() {
    let mut line = vec![b'7'; 10_000_000];
    line.push(b'\n');
    let out = jitsu_with(line);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.len() < 600, "{} bytes on stderr", err.len());
    assert!(err.contains("round 1: an input line is longer than 1024 bytes"));
    assert!(!String::from_utf8_lossy(&out.stdout).contains("7777"));
}

#[test]
fn a_long_rejected_jitsu_token_is_quoted_short() {
    let mut input = vec![b'x'; 1000];
    input.push(b'\n');
    let out = jitsu_with(input);
    let err = String::from_utf8_lossy(&out.stderr);
    // Refused, then the input ends: the game is abandoned (exit 2).
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains(&format!("\"{}\"… is not a hand position", "x".repeat(20))),
        "{err}"
    );
    assert!(err.len() < 800, "{err}");
}

#[test]
fn endless_refused_jitsu_input_gives_up() {
    for input in ["9\n", "\n"] {
        let text = input.repeat(5000);
        let out = crate::util::warsim_input(&["play", "jitsu"], &text);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{input:?}");
        assert!(
            err.trim_end().ends_with("enter a number from 1 to 5"),
            "{input:?}"
        );
        assert!(err.lines().last().unwrap().contains("1000"), "{input:?}");
    }
}
