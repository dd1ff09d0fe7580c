//! Output sets are atomic: a reader sees the old set or the new one, never a mix; interrupted,
//! killed and concurrent writers leave nothing half-written.

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::util::{fails, json, listing, ok, read, s, Scratch, LONG_RUN};

/// A run long enough to be interrupted, writing into `out`.
fn long_run(out: &Path) -> Child {
    Command::new(env!("CARGO_BIN_EXE_warsim"))
        .args(LONG_RUN)
        .arg(out)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Waits until `child`'s lock beside `out` exists (its simulation has begun).
fn wait_for_lock(out: &Path) {
    let lock = out.with_file_name(format!(
        ".{}.warsim-lock",
        out.file_name().unwrap().to_string_lossy()
    ));
    let start = Instant::now();
    while !lock.exists() {
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "the run never took its lock"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn signal(child: &Child, sig: &str) {
    let status = Command::new("kill")
        .args([sig, &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
}

/// A good set from a short run, to see that it survives.
fn old_set(out: &Path) -> String {
    ok(&["simulate", "war", "--games", "1000", "--out", s(out)]);
    read(out, "summary.json")
}

/// What `out` holds after a run into it was interrupted: the old set whole (the signal came
/// before the first game), or the new run's finished games, a whole set marked stopped.
fn old_or_stopped(out: &Path, before: &str, sig: &str) {
    let now = read(out, "summary.json");
    if now != before {
        let v = json(&now);
        assert_eq!(v["run"]["stopped"], true, "{sig}: {now}");
        assert_eq!(v["run"]["end_game"], v["games"], "{sig}: {now}");
    }
}

#[test]
fn sigint_and_sigterm_leave_a_whole_set_and_nothing_else() {
    for sig in ["-INT", "-TERM"] {
        let dir = Scratch::new("sigint");
        let out = dir.path("out");
        let before = old_set(&out);
        let child = long_run(&out);
        wait_for_lock(&out);
        signal(&child, sig);
        let done = child.wait_with_output().unwrap();
        let said = String::from_utf8_lossy(&done.stderr);
        assert_eq!(done.status.code(), Some(130), "{sig}: {said}");
        assert_eq!(listing(&dir.0), ["out"], "{sig}: leftovers beside --out");
        old_or_stopped(&out, &before, sig);
    }
}

#[test]
fn a_killed_run_leaves_the_old_set_and_the_next_run_cleans_up() {
    let dir = Scratch::new("sigkill");
    let out = dir.path("out");
    let before = old_set(&out);
    let mut child = long_run(&out);
    wait_for_lock(&out);
    signal(&child, "-KILL");
    child.wait().unwrap();
    assert_eq!(read(&out, "summary.json"), before, "the old set is whole");
    assert!(
        listing(&dir.0).len() > 1,
        "SIGKILL cannot be caught: its lock stays"
    );
    ok(&["simulate", "war", "--games", "500", "--out", s(&out)]);
    assert_eq!(listing(&dir.0), ["out"]);
    assert_ne!(read(&out, "summary.json"), before);
}

#[test]
fn a_second_writer_is_refused_while_the_first_runs() {
    let dir = Scratch::new("concurrent");
    let out = dir.path("out");
    let before = old_set(&out);
    let mut child = long_run(&out);
    wait_for_lock(&out);
    let line = fails(1, &["simulate", "war", "--games", "10", "--out", s(&out)]);
    assert!(line.contains("another warsim run"), "{line}");
    signal(&child, "-INT");
    child.wait().unwrap();
    old_or_stopped(&out, &before, "-INT");
}

#[test]
fn a_new_set_replaces_every_file_of_the_old_one() {
    let dir = Scratch::new("stale");
    let out = dir.path("out");
    ok(&[
        "simulate",
        "war",
        "--pickup",
        "p1-first",
        "--games",
        "200",
        "--out",
        s(&out),
    ]);
    assert!(out.join("cycles.csv").exists());
    ok(&["simulate", "war", "--games", "200", "--out", s(&out)]);
    assert_eq!(
        listing(&out),
        [
            ".warsim-set",
            "README.md",
            "histogram.csv",
            "histogram.png",
            "report.html",
            "summary.csv",
            "summary.json",
            "survival.png"
        ]
    );
}

#[test]
fn a_directory_that_is_not_an_output_set_is_never_replaced() {
    let dir = Scratch::new("foreign");
    let out = dir.path("out");
    let before = old_set(&out);
    // A directory where the chart goes, and a user's file: refused before any work.
    std::fs::remove_file(out.join("histogram.png")).unwrap();
    std::fs::create_dir(out.join("histogram.png")).unwrap();
    let line = fails(2, &["simulate", "war", "--games", "10", "--out", s(&out)]);
    assert!(line.contains("histogram.png"), "{line}");
    assert_eq!(read(&out, "summary.json"), before);
    let mine = dir.path("mine");
    std::fs::create_dir(&mine).unwrap();
    std::fs::write(mine.join("notes.txt"), "keep").unwrap();
    let line = fails(2, &["simulate", "war", "--games", "10", "--out", s(&mine)]);
    assert!(line.contains("notes.txt"), "{line}");
    assert_eq!(listing(&mine), ["notes.txt"]);
}

#[test]
fn svg_charts_are_written_beside_the_png_and_well_formed() {
    let dir = Scratch::new("svg");
    let out = dir.path("out");
    ok(&[
        "simulate",
        "rps",
        "--games",
        "500",
        "--svg",
        "--out",
        s(&out),
    ]);
    let svg = read(&out, "histogram.svg");
    assert!(
        svg.contains("<text") && svg.contains("mean"),
        "text is text"
    );
    let parsed = Command::new("python3")
        .args([
            "-c",
            "import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])",
        ])
        .arg(out.join("histogram.svg"))
        .status()
        .expect("python3 runs");
    assert!(parsed.success(), "histogram.svg is not well-formed XML");
    assert!(std::fs::metadata(out.join("histogram.png")).unwrap().len() > 1000);
}

/// A run replacing an earlier set says, on stderr, what that set held; a first run says
/// nothing.
#[test]
fn a_replaced_set_is_named() {
    let dir = Scratch::new("replaced");
    let out = dir.path("out");
    let run = |args: &[&str]| {
        let mut all = args.to_vec();
        all.extend(["--quiet", "--out", s(&out)]);
        let o = crate::util::warsim(&all);
        assert!(o.status.success(), "{args:?}");
        String::from_utf8(o.stderr).unwrap()
    };
    assert_eq!(run(&["simulate", "war", "--games", "30000"]), "");
    assert_eq!(
        run(&["simulate", "snap", "--games", "100"]),
        format!("replaced {}/ (simulate war, 30,000 games)\n", s(&out))
    );
    assert_eq!(
        run(&["simulate", "snap", "--games", "100"]),
        format!("replaced {}/ (simulate snap, 100 games)\n", s(&out))
    );
}

/// `--out` inside an output set is refused before anything is made there: the set would hold
/// a folder warsim did not write, and refuse every later run into it.
#[test]
fn out_inside_a_set_is_refused() {
    let dir = Scratch::new("inside");
    let set = dir.path("set");
    let run = [
        "simulate",
        "rps",
        "--games",
        "100",
        "--quiet",
        "--out",
        s(&set),
    ];
    ok(&run);
    let before = listing(&set);
    let inner = set.join("more/inner");
    let line = fails(
        2,
        &["simulate", "rps", "--games", "100", "--out", s(&inner)],
    );
    assert_eq!(
        line.trim_end(),
        format!(
            "error: --out {} is inside {}, which holds the output of `warsim simulate`; name a \
             folder outside it",
            s(&inner),
            s(&set)
        )
    );
    assert_eq!(listing(&set), before);
    ok(&run);
}

/// A run into `--out` removes what killed runs left beside it and says so on stderr, for the
/// person at the command line (a host is not told; the store's own test begins as one, so
/// `cargo test` prints no such note).
#[test]
fn the_next_run_says_what_killed_runs_left() {
    let dir = Scratch::new("leftovers-note");
    let out = dir.path("out");
    for name in [".out.warsim-staging-4000000000-1", ".out.warsim-old-4-2"] {
        std::fs::create_dir(dir.path(name)).unwrap();
        std::fs::write(
            dir.path(name).join(".warsim-set"),
            "warsim output set: simulate\n",
        )
        .unwrap();
    }
    let args = [
        "simulate",
        "war",
        "--games",
        "100",
        "--quiet",
        "--out",
        s(&out),
    ];
    let o = crate::util::warsim(&args);
    assert!(o.status.success());
    assert_eq!(
        String::from_utf8(o.stderr).unwrap(),
        format!(
            "note: removed 2 folder(s) left beside {} by a warsim run that was killed\n",
            s(&out)
        )
    );
    assert_eq!(listing(&dir.0), ["out"]);
}
