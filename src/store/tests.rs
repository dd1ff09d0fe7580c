//! Tests of output sets: commits, refusals, leftovers and interruptions.

use super::*;
use std::sync::atomic::{AtomicBool, Ordering};

pub(super) fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("warsim-atomic-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

fn names(dir: &Path) -> Vec<String> {
    listing(dir).unwrap().into_iter().map(|e| e.0).collect()
}

fn begin(out: &Path) -> Result<OutputSet> {
    OutputSet::begin(out, Kind::Simulate, &[], None)
}

#[test]
fn a_set_replaces_the_old_one_whole_or_not_at_all() {
    let dir = scratch("whole");
    let out = dir.join("out");
    let set = begin(&out).unwrap();
    set.dir().write("summary.json", b"1").unwrap();
    set.dir().write("cycles.csv", b"old").unwrap();
    set.commit().unwrap();
    assert_eq!(names(&out), [MARKER, "cycles.csv", "summary.json"]);
    // A new set without cycles.csv: the stale file does not survive.
    let set = begin(&out).unwrap();
    set.dir().write("summary.json", b"2").unwrap();
    set.commit().unwrap();
    assert_eq!(names(&out), [MARKER, "summary.json"]);
    assert_eq!(fs::read(out.join("summary.json")).unwrap(), b"2");
    // A set abandoned halfway leaves the old one untouched and nothing else.
    let set = begin(&out).unwrap();
    set.dir().write("summary.json", b"3").unwrap();
    drop(set);
    assert_eq!(fs::read(out.join("summary.json")).unwrap(), b"2");
    assert_eq!(names(&dir), ["out"]);
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_second_writer_is_refused_and_a_dead_ones_leftovers_are_removed() {
    let dir = scratch("lock");
    let out = dir.join("out");
    let first = begin(&out).unwrap();
    let e = begin(&out).unwrap_err().to_string();
    assert!(e.contains("another warsim run (process"), "{e}");
    drop(first);
    // What a killed run leaves: a stale lock file, a staging folder with its marker, an
    // old set moved aside, an empty staging folder (killed before its marker).
    fs::write(
        dir.join(".out.warsim-lock"),
        "warsim lock: process 4000000000\n",
    )
    .unwrap();
    for leftover in [".out.warsim-staging-4000000000-1", ".out.warsim-old-4-2"] {
        fs::create_dir(dir.join(leftover)).unwrap();
        fs::write(dir.join(leftover).join(MARKER), Kind::Merge.marker()).unwrap();
    }
    fs::create_dir(dir.join(".out.warsim-staging-5-3")).unwrap();
    // As a host begins: the command line's note on stderr (tests/cli/output.rs checks it)
    // would reach the terminal of `cargo test`, which captures only print! and eprint!.
    let host = Cancel::default();
    let set = OutputSet::begin(&out, Kind::Simulate, &[], Some(&host)).unwrap();
    set.dir().write("summary.json", b"x").unwrap();
    set.commit().unwrap();
    assert_eq!(names(&dir), ["out"]);
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_users_files_with_warsims_names_are_never_removed() {
    let dir = scratch("names");
    let out = dir.join("out");
    // A folder named like a leftover, holding a marker and a user's work.
    let marked = dir.join(".out.warsim-staging-7-8");
    fs::create_dir_all(marked.join("mywork")).unwrap();
    fs::write(marked.join(MARKER), Kind::Simulate.marker()).unwrap();
    fs::write(marked.join("mywork/thesis.tex"), "mine").unwrap();
    // A second name of a user's file, where the lock goes.
    fs::write(dir.join("digits.txt"), "12345").unwrap();
    fs::hard_link(dir.join("digits.txt"), dir.join(".out.warsim-lock")).unwrap();
    let set = begin(&out).unwrap();
    set.dir().write("summary.json", b"x").unwrap();
    set.commit().unwrap();
    assert!(marked.join("mywork/thesis.tex").exists());
    assert_eq!(fs::read_to_string(dir.join("digits.txt")).unwrap(), "12345");
    fs::remove_file(dir.join(".out.warsim-lock")).unwrap();
    let mine = [
        ".out.warsim-staging-12-34",                // no marker, not empty
        ".out.warsim-staging-notes",                // not a pid and time
        ".out.warsim-old-1-2.txt",                  // a file
        ".out.warsim-staging-x.warsim-staging-1-2", // another target's
    ];
    for name in &mine[..2] {
        fs::create_dir(dir.join(name)).unwrap();
        fs::write(dir.join(name).join("keep.txt"), "mine").unwrap();
    }
    fs::write(dir.join(mine[2]), "mine").unwrap();
    fs::create_dir(dir.join(mine[3])).unwrap();
    fs::write(dir.join(".out.warsim-lock"), "my own notes").unwrap();
    let set = begin(&out).unwrap();
    set.dir().write("summary.json", b"x").unwrap();
    set.commit().unwrap();
    for name in mine {
        assert!(dir.join(name).exists(), "{name} removed");
    }
    assert_eq!(
        fs::read_to_string(dir.join(".out.warsim-lock")).unwrap(),
        "my own notes"
    );
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn only_an_empty_folder_or_a_set_of_the_same_kind_is_replaced() {
    let dir = scratch("kinds");
    let out = dir.join("out");
    fs::create_dir(&out).unwrap();
    fs::write(out.join("notes.txt"), "mine").unwrap();
    let e = begin(&out).unwrap_err().to_string();
    assert!(e.contains("notes.txt"), "{e}");
    fs::remove_file(out.join("notes.txt")).unwrap();
    // A folder holding a run.
    let run = out.join("run");
    let set = begin(&run).unwrap();
    set.dir().write("summary.json", b"x").unwrap();
    set.commit().unwrap();
    let e = begin(&out).unwrap_err().to_string();
    assert!(e.contains("run/"), "{e}");
    assert!(run.join("summary.json").exists());
    // A set of another kind.
    let e = OutputSet::begin(&run, Kind::Merge, &[], None)
        .unwrap_err()
        .to_string();
    assert!(e.contains("`warsim simulate`"), "{e}");
    // Without a marker, warsim's file names alone are a user's folder: refused.
    fs::remove_file(run.join(MARKER)).unwrap();
    fs::write(run.join("README.md"), "# my notes").unwrap();
    let e = OutputSet::begin(&run, Kind::Merge, &[], None).unwrap_err();
    assert!(e.to_string().contains("README.md"), "{e}");
    // A set written before markers, recognised by the program its summary names.
    let old = r#"{"game":"war","provenance":{"program":"warsim 0.0.9"}}"#;
    fs::write(run.join("summary.json"), old).unwrap();
    let set = OutputSet::begin(&run, Kind::Merge, &[], None).unwrap();
    set.dir().write("summary.json", b"y").unwrap();
    set.commit().unwrap();
    assert_eq!(marker_kind(&run), Some(Kind::Merge));
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_sweep_replaces_its_rule_sets_but_not_a_run_put_beside_them() {
    let dir = scratch("sweep");
    let out = dir.join("res");
    let sweep = |names: &[&str]| -> Result<()> {
        let set = OutputSet::begin(&out, Kind::Sweep, &[], None)?;
        let list: Vec<String> = names
            .iter()
            .map(|n| format!(r#"{{"name":"{n}"}}"#))
            .collect();
        let json = format!(r#"{{"rule_sets":[{}]}}"#, list.join(","));
        set.dir().write("sweep.json", json.as_bytes()).unwrap();
        for n in names {
            set.subdir(n).unwrap().write("summary.json", b"{}").unwrap();
        }
        set.commit()
    };
    sweep(&["a", "b"]).unwrap();
    sweep(&["a"]).unwrap();
    assert_eq!(names(&out), [MARKER, "a", "sweep.json"]);
    // No set is begun inside another; a run moved in by hand is kept.
    let inside = begin(&out.join("mine")).unwrap_err().to_string();
    assert!(inside.contains("is inside"), "{inside}");
    let mine = begin(&dir.join("mine")).unwrap();
    mine.dir().write("summary.json", b"{}").unwrap();
    mine.commit().unwrap();
    fs::rename(dir.join("mine"), out.join("mine")).unwrap();
    let e = sweep(&["a"]).unwrap_err().to_string();
    assert!(e.contains("mine/"), "{e}");
    assert!(out.join("mine/summary.json").exists());
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_input_is_never_the_output_nor_inside_it_nor_around_it() {
    let dir = scratch("inputs");
    let input = dir.join("runs/a");
    fs::create_dir_all(&input).unwrap();
    for (out, how) in [
        (input.clone(), "is"),
        (input.join("sub"), "is inside"),
        (dir.join("runs"), "holds"),
        (input.join("."), "is"),
    ] {
        let e =
            OutputSet::begin(&out, Kind::Merge, std::slice::from_ref(&input), None).unwrap_err();
        assert!(e.to_string().contains(&format!(" {how} ")), "{e}");
    }
    assert_eq!(names(&dir), ["runs"]);
    assert_eq!(names(&input), Vec::<String>::new());
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn dots_are_spelled_out_and_bad_names_refused_before_anything_is_made() {
    let dir = scratch("dots");
    let out = dir.join("out");
    fs::create_dir(&out).unwrap();
    let set = begin(&out.join(".")).unwrap();
    assert_eq!(set.dir().target(), fs::canonicalize(&out).unwrap());
    set.dir().write("summary.json", b"x").unwrap();
    set.commit().unwrap();
    assert!(out.join("summary.json").exists());
    let e = begin(Path::new("/")).unwrap_err().to_string();
    assert!(e.contains("root"), "{e}");
    let long = dir.join("new/deeper").join("x".repeat(NAME_ROOM + 1));
    let e = begin(&long).unwrap_err().to_string();
    assert!(e.contains("folder name is"), "{e}");
    // A run that does not commit leaves none of the parent folders it made.
    let set = begin(&dir.join("p/q/r/out")).unwrap();
    assert!(dir.join("p/q/r").is_dir());
    drop(set);
    assert_eq!(names(&dir), ["out"]);
    fs::remove_dir_all(&dir).unwrap();
}

/// A host's call cancelled before its commit leaves the old set whole; one cancelled
/// after it has written its set.
#[test]
fn a_cancelled_host_call_never_commits() {
    let dir = scratch("cancel");
    let out = dir.join("out");
    let set = begin(&out).unwrap();
    set.dir().write("summary.json", b"old").unwrap();
    set.commit().unwrap();
    let cancel = Cancel::default();
    let set = OutputSet::begin(&out, Kind::Simulate, &[], Some(&cancel)).unwrap();
    set.dir().write("summary.json", b"new").unwrap();
    cancel.set();
    let e = set.commit().unwrap_err();
    assert!(e.downcast_ref::<Cancelled>().is_some(), "{e}");
    assert_eq!(fs::read(out.join("summary.json")).unwrap(), b"old");
    assert_eq!(names(&dir), ["out"]);
    // A set begun without a host's cancel commits as always.
    let set = begin(&out).unwrap();
    set.dir().write("summary.json", b"next").unwrap();
    set.commit().unwrap();
    assert_eq!(fs::read(out.join("summary.json")).unwrap(), b"next");
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_reader_polling_mid_commit_always_finds_a_set() {
    let dir = scratch("poll");
    let out = dir.join("out");
    let commit = |n: u32| {
        let set = begin(&out).unwrap();
        set.dir()
            .write("summary.json", n.to_string().as_bytes())
            .unwrap();
        set.commit().unwrap();
    };
    commit(0);
    let stop = std::sync::Arc::new(AtomicBool::new(false));
    let poll = {
        let (stop, file) = (stop.clone(), out.join("summary.json"));
        std::thread::spawn(move || {
            let (mut polls, mut misses) = (0u64, 0u64);
            while !stop.load(Ordering::Relaxed) {
                polls += 1;
                if fs::read(&file).map_or(true, |b| b.is_empty()) {
                    misses += 1;
                }
            }
            (polls, misses)
        })
    };
    for n in 1..=120 {
        commit(n);
    }
    stop.store(true, Ordering::Relaxed);
    let (polls, misses) = poll.join().unwrap();
    assert!(polls > 120, "the reader polled {polls} times");
    assert_eq!(misses, 0, "{misses} of {polls} polls found no summary.json");
    fs::remove_dir_all(&dir).unwrap();
}
