//! A sweep stopped by SIGINT or SIGTERM writes the rule sets it finished and the one it was
//! playing as far as it got, marked stopped; one killed by SIGKILL leaves them in its staging
//! folder; either way `warsim resume` plays the rest, and the sweep is the one played in one go
//! (issue 59). Each moment is taken after something the sweep has visibly done (its staging
//! folder made, a rule set kept, a checkpoint saved), not after a fixed sleep, so it lands part
//! way on a loaded machine too.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use super::util::{fails, json, listing, ok, read, s, without_run_details, Scratch};

/// The sweep interrupted: three rule sets of War on 2 threads, no pilot (`--max-hours none`),
/// a checkpoint every 60 ms; its `--out DIR` follows.
const SWEEP: [&str; 16] = [
    "sweep",
    "war",
    "--war-down",
    "1,2,3",
    "--games",
    "30000",
    "--threads",
    "2",
    "--seed",
    "5",
    "--max-hours",
    "none",
    "--checkpoint-minutes",
    "0.001",
    "--quiet",
    "--out",
];

/// The rule sets' folders.
const SETS: [&str; 3] = ["war-down-1", "war-down-2", "war-down-3"];

fn start(out: &Path) -> Child {
    Command::new(env!("CARGO_BIN_EXE_warsim"))
        .args(SWEEP)
        .arg(s(out))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// The staging folders beside `out`.
fn stagings(out: &Path) -> Vec<PathBuf> {
    let head = format!(
        ".{}.warsim-staging-",
        out.file_name().unwrap().to_str().unwrap()
    );
    let found = std::fs::read_dir(out.parent().unwrap()).unwrap().flatten();
    found
        .filter(|e| e.file_name().to_str().unwrap().starts_with(&head))
        .map(|e| e.path())
        .collect()
}

/// Whether a staging folder beside `out` holds `name` (a file, or a folder `name*`).
fn staged(out: &Path, name: &str) -> bool {
    stagings(out).iter().any(|d| {
        let inside = std::fs::read_dir(d).into_iter().flatten().flatten();
        inside
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .any(|n| n.starts_with(name))
    })
}

/// What moment `k` of 20 waits for before its signal: a checkpoint saved (the first rule set
/// begun), the first rule set kept, or the second; then `k`'s own few milliseconds.
fn moment(k: u64) -> (&'static str, Duration) {
    let after = ["checkpoint-", "war-down-1", "checkpoint-", "war-down-2"][(k % 4) as usize];
    (after, Duration::from_millis(k * 7 % 40))
}

/// Sends `signal` to `child` at `moment` of its sweep into `out`: whether it was still
/// running when the moment came.
fn signal_at(
    child: &mut Child,
    out: &Path,
    signal: &str,
    (after, extra): (&str, Duration),
) -> bool {
    let begun = Instant::now();
    while !staged(out, after) || stagings(out).is_empty() {
        if child.try_wait().unwrap().is_some() {
            return false;
        }
        assert!(
            begun.elapsed() < Duration::from_secs(60),
            "no {after:?} in 60 s"
        );
        std::thread::sleep(Duration::from_millis(2));
    }
    std::thread::sleep(extra);
    let _ = Command::new("kill")
        .args([signal, &child.id().to_string()])
        .status();
    true
}

/// The sweep played in one go into `out`.
fn whole(out: &Path) {
    ok(&[&SWEEP[..], &[s(out)]].concat());
}

/// Requires `got` to be the sweep `want` played in one go: every rule set's counts, CSV
/// files and charts byte for byte, sweep.csv and the sweep's charts, sweep.json and every
/// summary but for timing and provenance.
fn same_sweep(got: &Path, want: &Path) {
    for set in SETS {
        for file in [
            "histogram.csv",
            "summary.csv",
            "histogram.png",
            "survival.png",
        ] {
            let (g, w) = (got.join(set).join(file), want.join(set).join(file));
            assert!(
                std::fs::read(&g).unwrap() == std::fs::read(&w).unwrap(),
                "{set}/{file}"
            );
        }
        let summary = |d: &Path| without_run_details(json(&read(&d.join(set), "summary.json")));
        assert_eq!(summary(got), summary(want), "{set}/summary.json");
    }
    for file in ["sweep.csv", "sweep.png", "means.png"] {
        let same =
            std::fs::read(got.join(file)).unwrap() == std::fs::read(want.join(file)).unwrap();
        assert!(same, "{file}");
    }
    let doc = |d: &Path| {
        let mut v = without_run_details(json(&read(d, "sweep.json")));
        for set in v["rule_sets"].as_array_mut().unwrap() {
            set["summary"] = without_run_details(set["summary"].take());
        }
        v
    };
    assert_eq!(doc(got), doc(want));
    assert_eq!(listing(got), listing(want));
    assert!(
        stagings(got).is_empty(),
        "nothing left beside {}",
        got.display()
    );
}

/// Stops 20 sweeps with `signal` at 20 moments, resumes each that stopped part way and
/// requires the sweep played in one go; gives how many stopped part way. Four run at a time:
/// each waits for its own moment, and a sweep's time is mostly its files' syncs.
fn stopped_and_resumed(signal: &str) -> usize {
    let dir = Scratch::new("sweep-resume");
    let want = dir.path("whole");
    whole(&want);
    let (dir, want) = (&dir, &want);
    let part_way: usize = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..4)
            .map(|w| {
                scope.spawn(move || {
                    let mine = (w..20).step_by(4);
                    mine.filter(|&k| at_moment(&dir.path(&format!("s{k}")), want, signal, k))
                        .count()
                })
            })
            .collect();
        workers.into_iter().map(|w| w.join().unwrap()).sum()
    });
    eprintln!("{signal}: {part_way} of 20 sweeps stopped part way and resumed");
    part_way
}

/// The sweep into `out` stopped by `signal` at moment `k`, resumed if it stopped part way, and
/// required to be the sweep `want` played in one go; whether it stopped part way.
fn at_moment(out: &Path, want: &Path, signal: &str, k: u64) -> bool {
    let mut child = start(out);
    let running = signal_at(&mut child, out, signal, moment(k));
    let done = child.wait_with_output().unwrap();
    let said = String::from_utf8_lossy(&done.stderr).into_owned();
    let code = done.status.code();
    let mut part_way = false;
    if signal == "-KILL" {
        if out.exists() {
            assert!(stagings(out).is_empty());
        } else if staged(out, "checkpoint-") {
            part_way = true;
            ok(&["resume", s(out), "--checkpoint-minutes", "0.001"]);
        } else {
            let line = fails(2, &["resume", s(out)]);
            assert!(line.contains("nothing to resume"), "{line}");
            return false;
        }
    } else if code == Some(130) && said.contains("the sweep stopped") {
        part_way = true;
        let doc = json(&read(out, "sweep.json"));
        assert_eq!(doc["stopped"], true, "{said}");
        assert!(doc["asked"].is_array(), "{doc}");
        let resume = format!("warsim resume {}", s(out));
        assert!(said.contains(&resume), "{said}");
        ok(&["resume", s(out)]);
    } else if said.contains("nothing written") {
        // Stopped before its first game ended.
        assert!(code == Some(130) && !out.exists(), "{said}");
        assert!(stagings(out).is_empty(), "{said}");
        return false;
    } else {
        // Done before the signal, or stopped after the set was written whole.
        let whole = code == Some(0) || said.contains("written in full");
        assert!(!running || whole, "{said}");
    }
    same_sweep(out, want);
    part_way
}

#[test]
fn a_sweep_stopped_by_sigint_at_20_moments_resumes_to_the_sweep_played_in_one_go() {
    assert!(stopped_and_resumed("-INT") >= 10, "too few landed part way");
}

#[test]
fn a_sweep_stopped_by_sigterm_at_20_moments_resumes_to_the_sweep_played_in_one_go() {
    assert!(
        stopped_and_resumed("-TERM") >= 10,
        "too few landed part way"
    );
}

#[test]
fn a_sweep_killed_at_20_moments_resumes_from_its_checkpoint_to_the_sweep_played_in_one_go() {
    assert!(
        stopped_and_resumed("-KILL") >= 10,
        "too few landed part way"
    );
}

/// A stopped sweep's files say what they hold: sweep.json `stopped`, each rule set `held`
/// (whole, partial or missing), a partial rule set's summary `stopped` too, and no chart.
#[test]
fn a_stopped_sweep_says_which_rule_sets_it_holds() {
    let dir = Scratch::new("sweep-stopped");
    let out = stopped_part_way(&dir, "s");
    let doc = json(&read(&out, "sweep.json"));
    let held: Vec<&str> = (doc["rule_sets"].as_array().unwrap().iter())
        .map(|r| r["held"].as_str().unwrap())
        .collect();
    let whole = held.iter().take_while(|h| **h == "whole").count();
    assert!(
        held[whole..].iter().skip(1).all(|h| *h == "missing"),
        "{held:?}"
    );
    for (set, h) in SETS.iter().zip(&held) {
        let folder = out.join(set);
        match *h {
            "missing" => assert!(!folder.exists(), "{set}"),
            h => {
                let summary = json(&read(&folder, "summary.json"));
                assert_eq!(summary["run"]["stopped"] == true, h == "partial", "{set}");
            }
        }
    }
    assert!(!out.join("sweep.png").exists() && !out.join("report.html").exists());
}

/// A second signal stops the sweep at once and writes nothing, nothing left beside it.
#[test]
fn a_second_signal_writes_nothing() {
    let dir = Scratch::new("sweep-twice");
    for k in 0..3 {
        let out = dir.path(&format!("s{k}"));
        let mut child = start(&out);
        if !signal_at(&mut child, &out, "-INT", ("war-down-1", Duration::ZERO)) {
            continue;
        }
        let _ = Command::new("kill")
            .args(["-INT", &child.id().to_string()])
            .status();
        let done = child.wait_with_output().unwrap();
        let said = String::from_utf8_lossy(&done.stderr);
        if said.contains("nothing written") {
            assert_eq!(done.status.code(), Some(130));
            assert!(!out.exists() && stagings(&out).is_empty(), "{said}");
        }
    }
}

/// A stopped sweep into `dir`/`name`, retried until a signal lands part way.
fn stopped_part_way(dir: &Scratch, name: &str) -> PathBuf {
    let out = dir.path(name);
    for k in 0..20 {
        let _ = std::fs::remove_dir_all(&out);
        let mut child = start(&out);
        signal_at(
            &mut child,
            &out,
            "-INT",
            ("war-down-1", Duration::from_millis(k)),
        );
        let done = child.wait_with_output().unwrap();
        if String::from_utf8_lossy(&done.stderr).contains("the sweep stopped") {
            return out;
        }
    }
    panic!("no sweep stopped part way in 20 tries");
}

/// A stopped sweep edited by hand (a kept rule set's counts, or sweep.json) is refused with a
/// clear line naming what is wrong, and nothing changes; a sweep played whole has nothing to
/// resume.
#[test]
fn a_sweep_edited_by_hand_or_whole_is_refused_and_left_as_it_was() {
    let dir = Scratch::new("sweep-edited");
    let out = stopped_part_way(&dir, "s");
    let before = |d: &Path| (listing(d), read(d, "sweep.json"));
    // A rule set's histogram with one game more.
    let first = out.join(SETS[0]);
    let histogram = read(&first, "histogram.csv");
    let (head, last) = histogram.trim_end().rsplit_once('\n').unwrap();
    let (cells, n) = last.rsplit_once(',').unwrap();
    let edited = format!("{head}\n{cells},{}\n", n.parse::<u64>().unwrap() + 1);
    std::fs::write(first.join("histogram.csv"), &edited).unwrap();
    let was = before(&out);
    let line = fails(2, &["resume", s(&out)]);
    assert!(line.contains("histogram.csv"), "{line}");
    assert_eq!(before(&out), was);
    assert_eq!(read(&first, "histogram.csv"), edited);
    std::fs::write(first.join("histogram.csv"), &histogram).unwrap();
    // sweep.json that says a missing rule set is whole, or names another seed.
    let text = read(&out, "sweep.json");
    for (at, value) in [("/rule_sets/2/held", "\"whole\""), ("/seed", "6")] {
        let mut v = json(&text);
        *v.pointer_mut(at).unwrap() = json(value);
        std::fs::write(out.join("sweep.json"), v.to_string()).unwrap();
        let was = before(&out);
        let line = fails(2, &["resume", s(&out)]);
        assert!(
            line.contains("sweep.json") || line.contains("summary.json"),
            "{at}: {line}"
        );
        assert_eq!(before(&out), was);
    }
    std::fs::write(out.join("sweep.json"), &text).unwrap();
    ok(&["resume", s(&out)]);
    let was = before(&out);
    let line = fails(2, &["resume", s(&out)]);
    assert!(line.contains("holds every rule set it was asked"), "{line}");
    assert_eq!(before(&out), was);
}
