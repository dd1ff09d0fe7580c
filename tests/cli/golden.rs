//! Golden outputs: every case of tests/golden/cases.txt, recorded by scripts/golden.sh from an
//! earlier build, must come out the same. Histogram and cycle files are compared byte for byte,
//! summary.json value by value (a later build may add keys, never change or drop one), and
//! `play` output exactly (text) or value by value (JSON).

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::util::{json, ok, Scratch};

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

#[test]
fn every_golden_case_is_unchanged() {
    let all = cases();
    assert!(all.len() >= 30, "only {} golden cases", all.len());
    let scratch = Scratch::new("golden");
    let mut failures = Vec::new();
    for (name, args) in &all {
        let dir = golden().join(name);
        let mut args: Vec<&str> = args.iter().map(String::as_str).collect();
        if args[0] == "play" {
            let got = ok(&args);
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
        ok(&args);
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
