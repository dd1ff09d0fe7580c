//! Running the built binary in a scratch directory of its own.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

/// A directory removed when dropped.
pub struct Scratch(pub PathBuf);

impl Scratch {
    pub fn new(name: &str) -> Scratch {
        static N: AtomicUsize = AtomicUsize::new(0);
        let dir = std::env::temp_dir().join(format!(
            "warsim-test-{}-{name}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::SeqCst)
        ));
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }

    pub fn path(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A run long enough to be interrupted or to hold its lock for a while (minutes on one
/// thread; never refused by the run-time guard): its `--out DIR` follows.
pub const LONG_RUN: [&str; 9] = [
    "simulate",
    "war",
    "--games",
    "2000000000",
    "--threads",
    "1",
    "--max-hours",
    "none",
    "--out",
];

/// A path as a command-line argument.
pub fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Runs `warsim ARGS` with no stdin.
pub fn warsim(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_warsim"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("the binary runs")
}

/// Starts `warsim ARGS` with `stdin`, its stdout and stderr piped.
fn spawn(args: &[&str], stdin: Stdio) -> Child {
    Command::new(env!("CARGO_BIN_EXE_warsim"))
        .args(args)
        .stdin(stdin)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs")
}

/// Runs `warsim ARGS` with a stdout pipe whose reader is gone before anything is written
/// (`warsim ... | true`): every write meets a broken pipe.
pub fn with_reader_gone(args: &[&str]) -> Output {
    let mut child = spawn(args, Stdio::null());
    drop(child.stdout.take());
    child.wait_with_output().unwrap()
}

/// Runs and requires success; returns stdout.
pub fn ok(args: &[&str]) -> String {
    let out = warsim(args);
    assert!(
        out.status.success(),
        "warsim {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// Runs and requires exit `code` with exactly one line on stderr; returns that line.
pub fn fails(code: i32, args: &[&str]) -> String {
    one_line_failure(warsim(args), code, args)
}

/// Requires `out` (of `warsim ARGS`) to have exit `code`, one line on stderr and nothing on
/// stdout; returns that line.
fn one_line_failure(out: Output, code: i32, args: &[&str]) -> String {
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    assert_eq!(out.status.code(), Some(code), "warsim {args:?}: {err}");
    assert_eq!(
        err.trim_end().lines().count(),
        1,
        "warsim {args:?}: stderr {err:?}"
    );
    assert!(out.stdout.is_empty(), "warsim {args:?} printed on stdout");
    err
}

pub fn read(dir: &Path, name: &str) -> String {
    std::fs::read_to_string(dir.join(name))
        .unwrap_or_else(|e| panic!("{}/{name}: {e}", dir.display()))
}

pub fn json(text: &str) -> serde_json::Value {
    serde_json::from_str(text).expect("valid JSON")
}

/// Runs `warsim ARGS` with `input` on stdin.
pub fn warsim_input(args: &[&str], input: &str) -> Output {
    use std::io::Write;
    let mut child = spawn(args, Stdio::piped());
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

/// A summary without what depends on the process that wrote it (timings, command, date), so
/// two runs of the same games compare equal.
pub fn without_run_details(mut v: serde_json::Value) -> serde_json::Value {
    for k in [
        "elapsed_s",
        "games_per_s",
        "threads",
        "timing",
        "provenance",
    ] {
        v.as_object_mut().unwrap().remove(k);
    }
    v
}

/// Waits for `child`, killing it (and failing the test) if it runs past `secs` seconds: a
/// run that should stop at once must not leave the test running for hours.
pub fn finish_within(mut child: Child, secs: u64, what: &str) -> Output {
    let start = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed().as_secs() >= secs {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{what} still running after {secs} s");
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    child.wait_with_output().unwrap()
}

/// Runs `warsim ARGS` (no stdin), which must finish within `secs` seconds.
pub fn within(secs: u64, args: &[&str]) -> Output {
    let child = spawn(args, Stdio::null());
    finish_within(child, secs, &format!("warsim {args:?}"))
}

/// As [`fails`], but the run must end within `secs` seconds ([`within`]).
pub fn fails_within(secs: u64, code: i32, args: &[&str]) -> String {
    one_line_failure(within(secs, args), code, args)
}

/// The entries of `dir`, sorted.
pub fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// `exact war` over every deal of a 6-card deck (p1-first, so deals replay without randomness)
/// into `out`.
pub fn small_exact(out: &Path) {
    ok(&[
        "exact",
        "war",
        "--ranks",
        "3",
        "--suits",
        "2",
        "--pickup",
        "p1-first",
        "--out",
        s(out),
    ]);
}

/// The lines of a `--progress log` stderr, each checked to start with the time of day in UTC
/// (`2026-12-07T14:03:12Z `) and given without it.
pub fn log_lines(err: &str) -> Vec<&str> {
    err.lines()
        .map(|l| {
            let (time, rest) = l.split_at_checked(21).unwrap_or(("", l));
            let b = time.as_bytes();
            let digits = [0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18];
            let stamped = b.len() == 21
                && digits.iter().all(|&i| b[i].is_ascii_digit())
                && &time[4..5] == "-"
                && &time[10..11] == "T"
                && &time[19..21] == "Z ";
            assert!(stamped, "a log line without its time: {l:?}");
            rest
        })
        .collect()
}
