//! Golden outputs: every case of tests/golden/cases.txt, recorded by scripts/golden.sh from an
//! earlier build, must come out the same. Histogram and cycle files are compared byte for byte,
//! summary.json value by value (a later build may add keys, never change or drop one), and
//! `play` output exactly (text) or value by value (JSON).

use std::path::{Path, PathBuf};

use serde_json::Value;

use std::process::{Command, Stdio};

use crate::util::{json, Scratch};

fn golden() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden")
}

/// `(name, args)` for every case.
fn cases() -> Vec<(String, Vec<String>)> {
    let text = std::fs::read_to_string(golden().join("cases.txt")).unwrap();
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let mut words = l.split_whitespace().map(String::from);
            let name = words.next().unwrap();
            (name, words.collect())
        })
        .collect()
}

/// Every value of `want` is in `got` at the same place: objects may gain keys, nothing else
/// may differ. Returns the first difference as a path.
fn contains(got: &Value, want: &Value, at: &str) -> Result<(), String> {
    match (got, want) {
        (Value::Object(g), Value::Object(w)) => w.iter().try_for_each(|(k, wv)| match g.get(k) {
            Some(gv) => contains(gv, wv, &format!("{at}.{k}")),
            None => Err(format!("{at}.{k} is missing")),
        }),
        _ if got == want => Ok(()),
        _ => Err(format!("{at}: got {got}, golden {want}")),
    }
}

fn read(path: &Path) -> Option<String> {
    std::fs::read_to_string(path).ok()
}

/// Runs `warsim ARGS` (on War's path `path`, `WARSIM_PATH`, if given) and requires success.
fn run(args: &[&str], path: Option<&str>) -> String {
    let mut command = Command::new(env!("CARGO_BIN_EXE_warsim"));
    command.args(args).stdin(Stdio::null());
    if let Some(path) = path {
        command.env("WARSIM_PATH", path);
    }
    let out = command.output().expect("the binary runs");
    assert!(
        out.status.success(),
        "warsim {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// The differences between `cases` run now and their golden outputs.
fn differences(cases: &[(String, Vec<String>)], path: Option<&str>) -> Vec<String> {
    let scratch = Scratch::new("golden");
    let mut failures = Vec::new();
    for (name, args) in cases {
        let dir = golden().join(name);
        let mut args: Vec<&str> = args.iter().map(String::as_str).collect();
        if args[0] == "play" {
            let got = run(&args, path);
            let want = read(&dir.join("stdout")).unwrap();
            let same = if args.contains(&"--json") {
                contains(&json(&got), &json(&want), name)
            } else if got == want {
                Ok(())
            } else {
                Err(format!("{name}: stdout differs from the golden"))
            };
            failures.extend(same.err());
            continue;
        }
        let out = scratch.path(name);
        args.extend(["--out", out.to_str().unwrap()]);
        run(&args, path);
        for file in ["histogram.csv", "cycles.csv"] {
            let want = read(&dir.join(file));
            if want.is_some() && read(&out.join(file)) != want {
                failures.push(format!("{name}: {file} differs from the golden"));
            }
        }
        let got = json(&read(&out.join("summary.json")).unwrap());
        let want = json(&read(&dir.join("summary.json")).unwrap());
        failures.extend(contains(&got, &want, name).err());
    }
    failures
}

#[test]
fn every_golden_case_is_unchanged() {
    let all = cases();
    assert!(all.len() >= 30, "only {} golden cases", all.len());
    let failures = differences(&all, None);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The War cases again on each other path: the scalar reference, the AVX-512 block path and
/// the AVX2 lanes (the run above takes the path this CPU runs fastest, the AVX-512 lanes where
/// they exist; a path the CPU lacks falls back to one it has).
#[test]
fn every_war_golden_case_is_unchanged_on_every_path() {
    let war: Vec<_> = cases().into_iter().filter(|(_, a)| a[1] == "war").collect();
    assert!(war.len() >= 20, "only {} War golden cases", war.len());
    let failures: Vec<_> = ["scalar", "avx512", "lanes-avx2"]
        .into_iter()
        .flat_map(|path| {
            differences(&war, Some(path))
                .into_iter()
                .map(move |f| format!("[{path}] {f}"))
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The `simulate bmn` cases again on each other path: the AVX2 lanes, the phase engine and the
/// card-by-card reference (the run above takes the AVX-512 lanes where the CPU has them, else
/// the AVX2 lanes; a path the CPU lacks falls back to one it has).
#[test]
fn every_bmn_golden_case_is_unchanged_on_every_path() {
    let bmn: Vec<_> = (cases().into_iter())
        .filter(|(_, a)| a[0] == "simulate" && a[1] == "bmn")
        .collect();
    assert!(
        bmn.len() >= 2,
        "only {} simulate bmn golden cases",
        bmn.len()
    );
    let failures: Vec<_> = ["lanes-avx2", "phase", "cards"]
        .into_iter()
        .flat_map(|path| {
            differences(&bmn, Some(path))
                .into_iter()
                .map(move |f| format!("[{path}] {f}"))
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_golden_comparison_can_fail() {
    let want = serde_json::json!({"rounds": {"mean": 1.5}, "games": 3});
    assert!(contains(
        &serde_json::json!({"rounds": {"mean": 1.5, "sd": 1}, "games": 3}),
        &want,
        ""
    )
    .is_ok());
    assert!(contains(
        &serde_json::json!({"rounds": {"mean": 1.5000001}, "games": 3}),
        &want,
        ""
    )
    .is_err());
    assert!(contains(&serde_json::json!({"rounds": {"mean": 1.5}}), &want, "").is_err());
}
