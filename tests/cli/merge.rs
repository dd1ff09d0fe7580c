//! `merge` trusts nothing: tampered, foreign and inconsistent shards are refused with exit 2
//! and one line naming the shard, never a panic; `--out` may not be an input.

use std::path::{Path, PathBuf};

use warsim::model::summary::histogram_digest;

use crate::util::{fails, ok, read, s, warsim, Scratch};

/// Three shards of a War run with loop detection (cycles.csv too), and one shotgun shard.
struct Shards {
    dir: Scratch,
    war: Vec<PathBuf>,
    other: PathBuf,
}

fn shards(name: &str) -> Shards {
    let dir = Scratch::new(name);
    let war = (0..3)
        .map(|k| {
            let out = dir.path(&format!("w{k}"));
            ok(&[
                "simulate",
                "war",
                "--pickup",
                "p1-first",
                "--games",
                "600",
                "--seed",
                "1",
                "--shard",
                &format!("{k}/3"),
                "--out",
                s(&out),
            ]);
            out
        })
        .collect();
    let other = dir.path("other");
    ok(&[
        "simulate",
        "war",
        "--pickup",
        "p1-first",
        "--games",
        "600",
        "--seed",
        "2",
        "--shard",
        "2/3",
        "--out",
        s(&other),
    ]);
    Shards { dir, war, other }
}

/// A copy of shard `from` in a new directory `name`.
fn copy(sh: &Shards, from: &Path, name: &str) -> PathBuf {
    let to = sh.dir.path(name);
    std::fs::create_dir_all(&to).unwrap();
    for f in std::fs::read_dir(from).unwrap() {
        let f = f.unwrap().path();
        std::fs::copy(&f, to.join(f.file_name().unwrap())).unwrap();
    }
    to
}

fn edit_json(dir: &Path, f: impl FnOnce(&mut serde_json::Value)) {
    let mut v: serde_json::Value = serde_json::from_str(&read(dir, "summary.json")).unwrap();
    f(&mut v);
    std::fs::write(dir.join("summary.json"), serde_json::to_string(&v).unwrap()).unwrap();
}

/// Writes `text` as the histogram and records its digest, as a careful forger would: the
/// checks behind the digest must catch what it does not.
fn forge_histogram(dir: &Path, text: &str) {
    std::fs::write(dir.join("histogram.csv"), text).unwrap();
    edit_json(dir, |v| {
        v["histogram_digest"] = histogram_digest(text.as_bytes()).into()
    });
}

/// Merging the first two good shards with `bad` must fail naming `bad` and saying `want`.
fn refused(sh: &Shards, bad: &Path, want: &str) {
    let out = sh.dir.path("merged");
    let line = fails(
        2,
        &[
            "merge",
            s(&sh.war[0]),
            s(&sh.war[1]),
            s(bad),
            "--out",
            s(&out),
        ],
    );
    assert!(
        line.contains(s(bad)) || line.contains("is foreign"),
        "{line}"
    );
    assert!(line.contains(want), "want {want:?}: {line}");
    assert!(!out.exists(), "a refused merge wrote {}", out.display());
}

#[test]
fn tampered_summaries_are_refused() {
    let sh = shards("tamper-summary");
    let c = &sh.war[2];
    let case = |name: &str, f: &dyn Fn(&mut serde_json::Value), want: &str| {
        let bad = copy(&sh, c, name);
        edit_json(&bad, |v| f(v));
        refused(&sh, &bad, want);
    };
    case(
        "players-huge",
        &|v| v["players"] = serde_json::json!(1e12),
        "players",
    );
    case(
        "players-huge-int",
        &|v| v["players"] = 1_000_000_000_000u64.into(),
        "players",
    );
    case("players-3", &|v| v["players"] = 3.into(), "players");
    case(
        "depth-key",
        &|v| v["wars"]["deepest"]["100000000000"] = 1.into(),
        "not a depth",
    );
    case("games", &|v| v["games"] = 201.into(), "games");
    case("range", &|v| v["run"]["end_game"] = 700.into(), "games");
    case("shard", &|v| v["run"]["shard"] = "1/3".into(), "shard 1/3");
    case("longest", &|v| v["longest_game"] = 3.into(), "longest game");
    case("outcome", &|v| v["outcomes"]["p1"] = 0.into(), "outcome p1");
    case(
        "no-digest",
        &|v| {
            v.as_object_mut().unwrap().remove("histogram_digest");
        },
        "digest",
    );
    case("not-json", &|v| *v = "x".into(), "summary.json");
}

#[test]
fn histograms_that_are_not_the_summarys_are_refused() {
    let sh = shards("tamper-histogram");
    let c = &sh.war[2];
    let text = read(c, "histogram.csv");
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    // Unsigned edits: the digest says the file is not the one described.
    let inflate = {
        let mut l = lines.clone();
        let mut f: Vec<u64> = l[1].split(',').map(|x| x.parse().unwrap()).collect();
        f[1] += 1;
        f[2] += 1;
        l[1] = f.iter().map(u64::to_string).collect::<Vec<_>>().join(",");
        l.join("\n") + "\n"
    };
    let bad = copy(&sh, c, "inflated");
    std::fs::write(bad.join("histogram.csv"), &inflate).unwrap();
    refused(&sh, &bad, "digest");
    let bad = copy(&sh, c, "other-seed");
    std::fs::copy(sh.other.join("histogram.csv"), bad.join("histogram.csv")).unwrap();
    refused(&sh, &bad, "digest");
    // Signed edits: the consistency checks behind the digest.
    let bad = copy(&sh, c, "inflated-signed");
    forge_histogram(&bad, &inflate);
    refused(&sh, &bad, "counts");
    let bad = copy(&sh, c, "header-only");
    forge_histogram(&bad, &(lines[0].clone() + "\n"));
    refused(&sh, &bad, "counts 0 games");
    let bad = copy(&sh, c, "duplicated");
    let mut dup = lines.clone();
    dup.insert(2, lines[1].clone());
    forge_histogram(&bad, &(dup.join("\n") + "\n"));
    refused(&sh, &bad, "repeated");
    let bad = copy(&sh, c, "wrapping");
    let header_cols = lines[0].split(',').count();
    let mut wrap = vec![
        "11".to_string(),
        "1".into(),
        u64::MAX.to_string(),
        "2".into(),
    ];
    wrap.resize(header_cols, "0".into());
    lines.push(wrap.join(","));
    forge_histogram(&bad, &(lines.join("\n") + "\n"));
    refused(&sh, &bad, "");
    let bad = copy(&sh, c, "beyond-cap");
    let mut far = vec!["20000000".to_string(), "1".into(), "1".into()];
    far.resize(header_cols, "0".into());
    forge_histogram(&bad, &(text.clone() + &far.join(",") + "\n"));
    refused(&sh, &bad, "beyond the cap");
    let bad = copy(&sh, c, "cycles");
    std::fs::write(bad.join("cycles.csv"), "cycle_len,count\n5,1\n").unwrap();
    refused(&sh, &bad, "looping games");
    // A shotgun histogram under a War summary: other outcome columns, other digest.
    let snap = sh.dir.path("shotgun");
    ok(&["simulate", "shotgun", "--games", "200", "--out", s(&snap)]);
    let bad = copy(&sh, c, "shotgun-histogram");
    forge_histogram(&bad, &read(&snap, "histogram.csv"));
    refused(&sh, &bad, "");
    // The three good shards still merge.
    ok(&[
        "merge",
        s(&sh.war[0]),
        s(&sh.war[1]),
        s(c),
        "--out",
        s(&sh.dir.path("good")),
    ]);
}

/// A figure of a shard's summary edited on its own, every count still agreeing, is refused
/// naming the file and the field: each figure the summary derives is made again from the
/// shard's histogram, cycles and totals (a `wars.total` of 1 was added up as if true).
#[test]
fn figures_that_disagree_with_the_shards_own_counts_are_refused() {
    let sh = shards("figures");
    let c = &sh.war[2];
    type Edit = fn(&mut serde_json::Value);
    let cases: [(&str, Edit, &str); 9] = [
        (
            "wars-total",
            |v| v["wars"]["total"] = 1.into(),
            "wars.total is 1",
        ),
        // The total and its mean edited together: the battles by depth give the total.
        (
            "wars-total-and-mean",
            |v| {
                let games = v["games"].as_f64().unwrap();
                v["wars"]["total"] = 1.into();
                v["wars"]["mean"] = (1.0 / games).into();
            },
            "wars.total is 1, but wars.battles_by_depth gives",
        ),
        (
            "wars-mean",
            |v| v["wars"]["mean"] = 1.5.into(),
            "wars.mean is 1.5",
        ),
        (
            "per-game",
            |v| v["wars"]["battles_by_depth_per_game"]["1"] = 0.into(),
            "wars.battles_by_depth_per_game.1",
        ),
        (
            "rounds-mean",
            |v| v["rounds"]["mean"] = 9.into(),
            "rounds.mean",
        ),
        (
            "quantile",
            |v| v["rounds"]["quantiles"]["p99"] = 1.into(),
            "rounds.quantiles.p99",
        ),
        (
            "share",
            |v| v["shares"]["p1"]["share"] = 0.9.into(),
            "shares.p1.share",
        ),
        ("loops", |v| v["loops"]["count"] = 0.into(), "loops.count"),
        ("added", |v| v["wars"]["note"] = "x".into(), "wars.note"),
    ];
    for (name, edit, want) in cases {
        let bad = copy(&sh, c, name);
        edit_json(&bad, edit);
        refused(&sh, &bad, &format!("summary.json {want}"));
    }
    // The shard as written, numbers re-spelled (17 for 17.0) and keys reordered, merges.
    let same = copy(&sh, c, "respelled");
    let text = read(&same, "summary.json");
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    std::fs::write(
        same.join("summary.json"),
        serde_json::to_string(&v).unwrap(),
    )
    .unwrap();
    let out = sh.dir.path("respelled-merged");
    ok(&[
        "merge",
        s(&sh.war[0]),
        s(&sh.war[1]),
        s(&same),
        "--out",
        s(&out),
    ]);
    // Beggar-my-neighbour's tricks, whose mean is the total's over the games.
    let bmn: Vec<PathBuf> = (0..2)
        .map(|k| {
            let out = sh.dir.path(&format!("bmn{k}"));
            let shard = format!("{k}/2");
            ok(&[
                "simulate",
                "bmn",
                "--games",
                "200",
                "--shard",
                &shard,
                "--out",
                s(&out),
            ]);
            out
        })
        .collect();
    edit_json(&bmn[1], |v| v["tricks"]["total"] = 7000.into());
    let out = sh.dir.path("bmn-merged");
    let line = fails(2, &["merge", s(&bmn[0]), s(&bmn[1]), "--out", s(&out)]);
    assert!(
        line.contains(s(&bmn[1])) && line.contains("summary.json tricks.mean"),
        "{line}"
    );
    assert!(!out.exists());
}

/// `text` (a histogram.csv) with one game of the first row that `from` won moved to outcome
/// `to` (its column added where absent), and the summary's outcome counts to match: a forger
/// who keeps every count consistent.
fn move_a_game(dir: &Path, from: &str, to: &str) {
    let text = read(dir, "histogram.csv");
    let mut rows: Vec<Vec<String>> = text
        .lines()
        .map(|l| l.split(',').map(String::from).collect())
        .collect();
    if !rows[0].iter().any(|c| c == to) {
        for (i, row) in rows.iter_mut().enumerate() {
            row.push(if i == 0 { to.into() } else { "0".into() });
        }
    }
    let col = |name: &str| rows[0].iter().position(|c| c == name).unwrap();
    let (f, t) = (col(from), col(to));
    let row = rows
        .iter_mut()
        .skip(1)
        .find(|r| r[f] != "0")
        .expect("a game won by `from`");
    row[f] = (row[f].parse::<u64>().unwrap() - 1).to_string();
    row[t] = (row[t].parse::<u64>().unwrap() + 1).to_string();
    let forged: String = rows.iter().map(|r| r.join(",") + "\n").collect();
    forge_histogram(dir, &forged);
    edit_json(dir, |v| {
        let n = |v: &serde_json::Value| v.as_u64().unwrap_or(0);
        v["outcomes"][from] = (n(&v["outcomes"][from]) - 1).into();
        v["outcomes"][to] = (n(&v["outcomes"][to]) + 1).into();
    });
}

/// What the rules decide is derived from them: a shard claiming an outcome its rules cannot
/// produce, a description of other words (markup included), another program or version, is
/// refused by name, not added.
#[test]
fn shards_claiming_what_their_rules_cannot_are_refused() {
    let sh = shards("impossible");
    let c = &sh.war[2];
    // Games capped far below the cap (loop detection's cap is millions of rounds).
    let bad = copy(&sh, c, "capped-early");
    move_a_game(&bad, "p1", "capped");
    refused(&sh, &bad, "capped at");
    let bad = copy(&sh, c, "script");
    edit_json(&bad, |v| {
        v["description"] = "<script>alert(1)</script> ![x](http://example.com/x.png)".into()
    });
    refused(&sh, &bad, "description");
    let bad = copy(&sh, c, "no-loops");
    edit_json(&bad, |v| {
        v.as_object_mut().unwrap().remove("loops");
    });
    refused(&sh, &bad, "loop statistics");
    for (name, program) in [
        ("old", Some("warsim 0.0.1")),
        ("other", Some("wargame 0.1.0")),
        ("none", None),
    ] {
        let bad = copy(&sh, c, name);
        edit_json(&bad, |v| match program {
            Some(p) => v["provenance"]["program"] = p.into(),
            None => {
                v.as_object_mut().unwrap().remove("provenance");
            }
        });
        refused(&sh, &bad, "provenance.program");
    }
    // Loops in a run without loop detection (the shuffled pickup).
    let plain: Vec<PathBuf> = (0..2)
        .map(|k| {
            let out = sh.dir.path(&format!("plain{k}"));
            ok(&[
                "simulate",
                "war",
                "--games",
                "400",
                "--shard",
                &format!("{k}/2"),
                "--out",
                s(&out),
            ]);
            out
        })
        .collect();
    move_a_game(&plain[1], "p1", "loop");
    let out = sh.dir.path("plain-merged");
    let line = fails(2, &["merge", s(&plain[0]), s(&plain[1]), "--out", s(&out)]);
    assert!(line.contains("detect no loops"), "{line}");
    assert!(!out.exists());
}

/// What only a run of every deal, or of a precision, may say is checked against its counts:
/// an `exact` object or a `precision` block is never carried into a merge on a shard's word.
#[test]
fn claims_of_every_deal_or_a_precision_are_checked_against_the_counts() {
    let sh = shards("exact-claims");
    let exact = sh.dir.path("exact");
    crate::util::small_exact(&exact);
    let merged = |dirs: &[&Path], name: &str| {
        let out = sh.dir.path(name);
        let mut args = vec!["merge"];
        args.extend(dirs.iter().map(|d| s(d)));
        args.extend(["--out", s(&out)]);
        (crate::util::warsim(&args), out)
    };
    let (r, _) = merged(&[&exact], "exact-ok");
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    for (name, edit) in [
        (
            "fraction",
            &(|v: &mut serde_json::Value| v["exact"]["fractions"]["p1"] = "29/30".into())
                as &dyn Fn(&mut serde_json::Value),
        ),
        ("deals", &|v| v["exact"]["deals"] = 5.into()),
        ("method", &|v| {
            v["exact"]["method"] = "<script>alert(1)</script>".into()
        }),
    ] {
        let bad = copy(&sh, &exact, name);
        edit_json(&bad, edit);
        let (r, out) = merged(&[&bad], &format!("{name}-m"));
        let err = String::from_utf8_lossy(&r.stderr);
        assert_eq!(r.status.code(), Some(2), "{name}: {err}");
        assert!(err.contains("claims every deal"), "{name}: {err}");
        assert!(!out.exists());
    }
    // A sampled shard passing itself off as every deal.
    let bad = copy(&sh, &sh.war[2], "sampled-as-exact");
    edit_json(&bad, |v| {
        v["exact"] = serde_json::json!({"deals": 7, "fractions": {"p1": "1/1"}, "method": "x"});
        let d = v["description"].as_str().unwrap().to_string();
        v["description"] = format!("{d}, every deal").into();
    });
    refused(&sh, &bad, "claims every deal");
    // A precision block in a shard (a run to a precision cannot be split).
    let bad = copy(&sh, &sh.war[2], "precision");
    edit_json(&bad, |v| {
        v["precision"] = serde_json::json!({"target": 1e-9, "reached": true, "half_width": 1e-10,
            "min_games": 1, "max_games": 5, "rule": "<script>"});
    });
    refused(&sh, &bad, "precision");
    // A whole run to a precision merges as it is; its block edited does not.
    let p = sh.dir.path("prec");
    ok(&["simulate", "shotgun", "--precision", "0.5", "--out", s(&p)]);
    let (r, _) = merged(&[&p], "prec-ok");
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    edit_json(&p, |v| v["precision"]["half_width"] = 1e-10.into());
    let (r, _) = merged(&[&p], "prec-bad");
    assert!(String::from_utf8_lossy(&r.stderr).contains("precision"));
    assert_eq!(r.status.code(), Some(2));
}

/// Groups the rules cannot make (player 1 dealt 300 of a 4-suit deck's top rank) are refused;
/// CRLF line ends (a re-save) change no count and are read.
#[test]
fn groups_beyond_the_rules_are_refused_and_crlf_is_read() {
    let sh = shards("groups-crlf");
    let run = sh.dir.path("by");
    ok(&[
        "simulate",
        "war",
        "--by",
        "p1-top",
        "--games",
        "2000",
        "--out",
        s(&run),
    ]);
    let bad = copy(&sh, &run, "group-300");
    let by = read(&bad, "by.csv");
    let last = by.lines().last().unwrap().to_string();
    let g = last.split(',').next().unwrap().to_string();
    let forged = by.replace(&format!("\n{g},"), "\n300,");
    std::fs::write(bad.join("by.csv"), forged).unwrap();
    edit_json(&bad, |v| {
        let by = v["by"].as_object_mut().unwrap();
        let group = by.remove(&g).unwrap();
        by.insert("300".into(), group);
    });
    let out = sh.dir.path("g-m");
    let line = fails(2, &["merge", s(&bad), "--out", s(&out)]);
    assert!(line.contains("groups 0..5 only"), "{line}");
    let crlf = copy(&sh, &sh.war[2], "crlf");
    for f in ["histogram.csv", "cycles.csv", "summary.json"] {
        let text = read(&crlf, f).replace('\n', "\r\n");
        std::fs::write(crlf.join(f), text).unwrap();
    }
    ok(&[
        "merge",
        s(&sh.war[0]),
        s(&sh.war[1]),
        s(&crlf),
        "--out",
        s(&sh.dir.path("c-m")),
    ]);
}

#[test]
fn merge_refuses_to_write_over_an_input() {
    let sh = shards("out-is-input");
    let before = read(&sh.war[0], "summary.json");
    let line = fails(
        2,
        &[
            "merge",
            s(&sh.war[0]),
            s(&sh.war[1]),
            s(&sh.war[2]),
            "--out",
            s(&sh.war[0]),
        ],
    );
    assert!(line.contains("which this command reads"), "{line}");
    assert_eq!(read(&sh.war[0], "summary.json"), before);
}

/// A small deterministic generator for the mutations (xorshift64*).
struct Mutator(u64);

impl Mutator {
    fn next(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize % n.max(1)
    }

    /// One byte changed, deleted or inserted, or a digit run replaced by an extreme number.
    fn mutate(&mut self, text: &str) -> String {
        let mut b = text.as_bytes().to_vec();
        let i = self.next(b.len());
        match self.next(4) {
            0 => b[i] = b"0123456789,-.e\n\"{}x "[self.next(20)],
            1 => {
                b.remove(i);
            }
            2 => b.insert(i, b"9,\n-"[self.next(4)]),
            _ => {
                let big = ["18446744073709551615", "1e300", "-1", "4294967296", "0"][self.next(5)];
                let end = (i..b.len())
                    .find(|&j| !b[j].is_ascii_digit())
                    .unwrap_or(b.len());
                b.splice(i..end, big.bytes());
            }
        }
        String::from_utf8_lossy(&b).into_owned()
    }
}

#[test]
fn mutated_shards_never_panic_and_fail_in_one_line() {
    let sh = shards("fuzz");
    let c = &sh.war[2];
    let mut m = Mutator(0x9E37_79B9_7F4A_7C15);
    let (mut accepted, mut refused) = (0, 0);
    for k in 0..240 {
        let bad = copy(&sh, c, &format!("m{k}"));
        let file = ["summary.json", "histogram.csv", "cycles.csv"][k % 3];
        let text = m.mutate(&read(c, file));
        if file == "histogram.csv" && k % 2 == 0 {
            forge_histogram(&bad, &text); // reach the checks behind the digest
        } else {
            std::fs::write(bad.join(file), &text).unwrap();
        }
        let out = sh.dir.path(&format!("o{k}"));
        let r = warsim(&[
            "merge",
            s(&sh.war[0]),
            s(&sh.war[1]),
            s(&bad),
            "--out",
            s(&out),
        ]);
        let err = String::from_utf8_lossy(&r.stderr);
        match r.status.code() {
            Some(0) => accepted += 1,
            Some(2) => {
                refused += 1;
                assert_eq!(
                    err.trim_end().lines().count(),
                    1,
                    "{file} mutation {k}: {err}"
                );
                assert!(!out.exists());
            }
            other => panic!("{file} mutation {k}: exit {other:?}: {err}"),
        }
        std::fs::remove_dir_all(&bad).unwrap();
    }
    assert!(
        refused > 150,
        "only {refused} of 240 mutations refused ({accepted} accepted)"
    );
}
