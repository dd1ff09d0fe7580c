//! Nothing lost: `--out` never destroys what it should not, runs are never written onto their
//! own inputs, locks hold across pid namespaces, and a run folder read back (merge, compare,
//! play --from) is trusted for nothing. Each test is one way a clumsy user or an attacker
//! could lose data or hang warsim.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use warsim::face::GameCli;
use warsim::games::war::War;

use crate::util::{fails, fails_within, json, listing, ok, read, s, Scratch};

/// A small run of shotgun War into `out`, shard `shard` of 3,000 games if given.
pub(crate) fn shotgun(out: &Path, shard: Option<&str>) {
    let mut args = vec!["simulate", "shotgun", "--games", "3000", "--seed", "4"];
    if let Some(k) = shard {
        args.extend(["--shard", k]);
    }
    args.extend(["--out", s(out)]);
    ok(&args);
}

/// The commands that read War run `run` back: `merge` (into `merged`) and `play war --from`.
pub(crate) fn readers<'a>(run: &'a Path, merged: &'a Path) -> [Vec<&'a str>; 2] {
    [
        vec!["merge", s(run), "--out", s(merged)],
        vec!["play", "war", "--from", s(run)],
    ]
}

/// A sweep of two shotgun rule sets into `out`.
pub(crate) fn small_sweep(out: &Path) {
    ok(&[
        "sweep",
        "shotgun",
        "--mix",
        "1,1,1;2,1,1",
        "--games",
        "300",
        "--out",
        s(out),
    ]);
}

/// Edits `dir`/summary.json with `edit`.
fn edit_summary(dir: &Path, edit: impl FnOnce(&mut serde_json::Value)) {
    let mut v = json(&read(dir, "summary.json"));
    edit(&mut v);
    std::fs::write(dir.join("summary.json"), v.to_string()).unwrap();
}

#[test]
fn merge_into_the_folder_holding_its_shards_is_refused_and_deletes_nothing() {
    let dir = Scratch::new("merge-into-parent");
    let out = dir.path("out");
    let (s0, s1) = (out.join("s0"), out.join("s1"));
    shotgun(&s0, Some("0/2"));
    shotgun(&s1, Some("1/2"));
    let line = fails(2, &["merge", s(&s0), s(&s1), "--out", s(&out)]);
    assert!(line.contains("holds"), "{line}");
    assert_eq!(listing(&out), ["s0", "s1"]);
    assert!(s0.join("summary.json").exists() && s1.join("summary.json").exists());
}

#[test]
fn simulate_into_a_folder_of_runs_is_refused_before_any_game() {
    let dir = Scratch::new("folder-of-runs");
    let results = dir.path("results");
    shotgun(&results.join("classic"), None);
    shotgun(&results.join("bryer"), None);
    let started = Instant::now();
    let line = fails(
        2,
        &[
            "simulate",
            "shotgun",
            "--games",
            "1e9",
            "--out",
            s(&results),
        ],
    );
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "a game was played"
    );
    assert!(
        line.contains("bryer/") && line.contains("classic/"),
        "{line}"
    );
    assert_eq!(listing(&results), ["bryer", "classic"]);
    assert_eq!(listing(&dir.0), ["results"], "nothing written beside it");
}

#[test]
fn compare_never_writes_over_or_around_what_it_compares() {
    let dir = Scratch::new("compare-onto");
    let r = dir.path("r");
    let (a, b) = (r.join("a"), r.join("b"));
    shotgun(&a, None);
    ok(&[
        "simulate",
        "shotgun",
        "--mix",
        "2,1,1",
        "--games",
        "3000",
        "--out",
        s(&b),
    ]);
    for (out, how) in [(&r, "holds"), (&a, "is"), (&a.join("cmp"), "is inside")] {
        let line = fails(2, &["compare", s(&a), s(&b), "--out", s(out)]);
        assert!(line.contains(&format!(" {how} ")), "{line}");
    }
    assert_eq!(listing(&r), ["a", "b"]);
    assert!(!a.join("cmp").exists());
}

#[test]
fn a_sweep_never_replaces_a_run_put_inside_it() {
    let dir = Scratch::new("sweep-mine");
    let res = dir.path("res");
    let sweep = ["sweep", "shotgun", "--mix", "1,1,1;2,1,1", "--games", "500"];
    ok(&[&sweep[..], &["--out", s(&res)]].concat());
    // The same sweep again replaces it: it is a complete sweep.
    ok(&[&sweep[..], &["--out", s(&res)]].concat());
    // warsim writes no run inside it (tests/cli/output.rs); a run moved in by hand stays.
    shotgun(&dir.path("mine"), None);
    std::fs::rename(dir.path("mine"), res.join("mine")).unwrap();
    let line = fails(2, &[&sweep[..], &["--out", s(&res)]].concat());
    assert!(line.contains("mine/"), "{line}");
    assert!(res.join("mine/summary.json").exists());
}

#[test]
fn a_set_of_another_kind_is_not_replaced() {
    let dir = Scratch::new("kind");
    let (s0, out) = (dir.path("s0"), dir.path("out"));
    shotgun(&s0, None);
    shotgun(&out, None);
    let before = read(&out, "summary.json");
    let line = fails(2, &["merge", s(&s0), "--out", s(&out)]);
    assert!(line.contains("`warsim simulate`"), "{line}");
    assert_eq!(read(&out, "summary.json"), before);
    assert_eq!(read(&out, ".warsim-set"), "warsim output set: simulate\n");
}

#[test]
fn a_failed_run_leaves_no_parent_folder_it_made() {
    let dir = Scratch::new("parents");
    let out = dir.path("new/deeper/out");
    fails(2, &["merge", s(&dir.path("nothing")), "--out", s(&out)]);
    assert_eq!(listing(&dir.0), Vec::<String>::new());
}

#[test]
fn out_spelled_with_dots_is_the_folder_it_names() {
    let dir = Scratch::new("dots");
    let out = dir.path("out");
    std::fs::create_dir(&out).unwrap();
    let dotted = format!("{}/.", s(&out));
    ok(&["simulate", "shotgun", "--games", "100", "--out", &dotted]);
    assert!(out.join("summary.json").exists());
    assert_eq!(listing(&dir.0), ["out"]);
    let long = dir.path(&"x".repeat(250));
    let line = fails(
        2,
        &["simulate", "shotgun", "--games", "100", "--out", s(&long)],
    );
    assert!(line.contains("folder name is 250 bytes"), "{line}");
}

#[test]
fn rules_read_back_pass_the_games_own_checks() {
    let dir = Scratch::new("rules-back");
    let run = dir.path("run");
    ok(&["simulate", "war", "--games", "300", "--out", s(&run)]);
    edit_summary(&run, |v| v["rules"]["ranks"] = 999.into());
    for args in readers(&run, &dir.path("m")) {
        let line = fails(2, &args);
        assert!(line.contains("rules") && line.contains("999"), "{line}");
    }
    edit_summary(&run, |v| {
        v["rules"]["ranks"] = 13.into();
        v["players"] = 3.into();
    });
    let line = fails(2, &["merge", s(&run), "--out", s(&dir.path("m"))]);
    assert!(line.contains("3 players"), "{line}");
    edit_summary(&run, |v| {
        v["players"] = 2.into();
        v["description"] = "\u{1b}[2Jgotcha".into();
    });
    let line = fails(2, &["merge", s(&run), "--out", s(&dir.path("m"))]);
    assert!(line.contains("control character U+001B"), "{line}");
    assert!(!line.contains('\u{1b}'));
}

#[test]
fn counts_that_overflow_and_times_that_are_not_times_are_refused() {
    let dir = Scratch::new("overflow");
    let (a, b) = (dir.path("a"), dir.path("b"));
    for (d, k) in [(&a, "0/2"), (&b, "1/2")] {
        ok(&[
            "simulate",
            "war",
            "--games",
            "600",
            "--shard",
            k,
            "--out",
            s(d),
        ]);
        edit_summary(d, |v| forged(v, u64::MAX, None));
    }
    let line = fails(2, &["merge", s(&a), s(&b), "--out", s(&dir.path("m"))]);
    assert!(line.contains("overflow"), "{line}");
    for d in [&a, &b] {
        edit_summary(d, |v| forged(v, 10, Some(-1e308)));
    }
    let line = fails(2, &["merge", s(&a), s(&b), "--out", s(&dir.path("m"))]);
    assert!(line.contains("elapsed_s"), "{line}");
    for d in [&a, &b] {
        edit_summary(d, |v| forged(v, 10, Some(1.7e308)));
    }
    let line = fails(2, &["merge", s(&a), s(&b), "--out", s(&dir.path("m"))]);
    assert!(line.contains("elapsed_s"), "{line}");
}

/// Summary `v` given `wars` wars in all (and `elapsed` seconds) as a careful forger gives
/// them, the figures made from them (the mean, the battles by depth, the rate) to match:
/// merge's own checks of a shard against itself would otherwise refuse it before these sums
/// are tried.
fn forged(v: &mut serde_json::Value, wars: u64, elapsed: Option<f64>) {
    let games = v["games"].as_u64().unwrap() as f64;
    v["wars"]["total"] = wars.into();
    v["wars"]["mean"] = (wars as f64 / games).into();
    v["wars"]["battles_by_depth"] = serde_json::json!({ "1": wars });
    v["wars"]["battles_by_depth_per_game"] = serde_json::json!({ "1": wars as f64 / games });
    if let Some(e) = elapsed {
        v["elapsed_s"] = e.into();
        v["games_per_s"] = (if e > 0.0 { games / e } else { 0.0 }).into();
    }
}

#[test]
fn a_shard_of_a_trillion_says_what_is_missing_at_once() {
    let dir = Scratch::new("trillion");
    for (n, want) in [
        (
            "1000000000000",
            "shards 1..1000000000000 of 1000000000000 (games 1..1000000000000)",
        ),
        (
            "100000000",
            "shards 1..100000000 of 100000000 (games 1..100000000)",
        ),
    ] {
        let shard = dir.path(&format!("s-{n}"));
        let k = format!("0/{n}");
        ok(&[
            "simulate",
            "shotgun",
            "--games",
            n,
            "--shard",
            &k,
            "--out",
            s(&shard),
        ]);
        let start = Instant::now();
        let line = fails_within(10, 2, &["merge", s(&shard), "--out", s(&dir.path("m"))]);
        assert!(start.elapsed() < Duration::from_secs(2), "{n}: slow");
        assert!(line.contains(want), "{line}");
    }
}

#[test]
fn sigint_while_files_are_written_leaves_nothing_behind() {
    let dir = Scratch::new("sigint-mid-write");
    for (i, pause) in [40u64, 90, 150, 220, 300, 400].into_iter().enumerate() {
        let out = dir.path(&format!("sw{i}"));
        let child = Command::new(env!("CARGO_BIN_EXE_warsim"))
            .args(["sweep", "shotgun", "--mix", "1,1,1;2,1,1;1,2,1;1,1,2;3,1,1"])
            .args(["--games", "2000", "--svg", "--out", s(&out)])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(pause));
        let _ = Command::new("kill")
            .args(["-INT", &child.id().to_string()])
            .status();
        let done = child.wait_with_output().unwrap();
        let left: Vec<String> = listing(&dir.0)
            .into_iter()
            .filter(|n| n.starts_with('.'))
            .collect();
        assert_eq!(left, Vec::<String>::new(), "after {pause} ms: {done:?}");
    }
}

#[test]
fn warsims_file_names_alone_do_not_make_a_users_folder_replaceable() {
    let dir = Scratch::new("names-alone");
    let proj = dir.path("proj");
    std::fs::create_dir(&proj).unwrap();
    std::fs::write(proj.join("README.md"), "# notes\n").unwrap();
    std::fs::write(proj.join("summary.json"), "{\"budget\": 1}\n").unwrap();
    let line = fails(
        2,
        &["simulate", "shotgun", "--games", "100", "--out", s(&proj)],
    );
    assert!(line.contains("README.md"), "{line}");
    assert_eq!(read(&proj, "summary.json"), "{\"budget\": 1}\n");
}

#[test]
fn a_sweeps_rule_set_folder_is_replaced_only_with_its_sweep() {
    let dir = Scratch::new("rule-set");
    let sw = dir.path("sw");
    small_sweep(&sw);
    let line = fails(
        2,
        &[
            "simulate",
            "shotgun",
            "--games",
            "300",
            "--out",
            s(&sw.join("mix-1-1-1")),
        ],
    );
    assert!(
        line.contains(&format!(
            "is inside {}, which holds the output of `warsim sweep`",
            s(&sw)
        )),
        "{line}"
    );
    small_sweep(&sw);
}

#[test]
fn group_counts_must_add_up_without_overflow() {
    let dir = Scratch::new("groups");
    let run = dir.path("b");
    ok(&[
        "simulate",
        "war",
        "--games",
        "1000",
        "--by",
        "p1-top",
        "--out",
        s(&run),
    ]);
    let h: u64 = 1 << 63;
    let by = format!(
        "group,rounds,count,p1,p2\n0,5,{h},{h},0\n1,5,{},{},0\n",
        h + 1000,
        h + 1000
    );
    std::fs::write(run.join("by.csv"), by).unwrap();
    edit_summary(&run, |v| {
        let g = v["by"]["0"].clone();
        let mut a = g.clone();
        a["games"] = h.into();
        let mut b = g;
        b["games"] = (h + 1000).into();
        v["by"] = serde_json::json!({ "0": a, "1": b });
    });
    let line = fails(2, &["merge", s(&run), "--out", s(&dir.path("m"))]);
    assert!(line.contains("by.csv"), "{line}");
}

#[test]
fn a_line_too_long_for_any_warsim_file_is_refused_before_it_is_parsed() {
    let dir = Scratch::new("long-line");
    let (a, b) = (dir.path("a"), dir.path("b"));
    ok(&[
        "simulate",
        "shotgun",
        "--games",
        "600",
        "--shard",
        "0/2",
        "--out",
        s(&a),
    ]);
    ok(&[
        "simulate",
        "shotgun",
        "--games",
        "600",
        "--shard",
        "1/2",
        "--out",
        s(&b),
    ]);
    let row = format!(
        "rounds,count,p1,p2,draw\n1,1,1,0,0{}\n",
        ",".repeat(1 << 20)
    );
    std::fs::write(a.join("histogram.csv"), row).unwrap();
    let line = fails(2, &["merge", s(&a), s(&b), "--out", s(&dir.path("m"))]);
    assert!(line.contains("histogram.csv"), "{line}");
}

#[test]
fn what_warsim_writes_it_reads_back_tabs_in_names_and_exact_runs_included() {
    let dir = Scratch::new("reads-back");
    let tabbed = dir.path("t\tab");
    ok(&["simulate", "war", "--games", "300", "--out", s(&tabbed)]);
    assert!(read(&tabbed, "summary.json").contains("$'"));
    let replay = json(&ok(&["replay", s(&tabbed), "--json"]));
    let v = json(&read(&tabbed, "summary.json"));
    assert_eq!(replay["rounds"], v["longest_rounds"]);
    // An exact run's game i is deal i: play --from and replay play that deal.
    let ex = dir.path("ex");
    ok(&[&["exact", "war"], War::EXAMPLE, &["--out", s(&ex)]].concat());
    let v = json(&read(&ex, "summary.json"));
    let played = json(&ok(&["play", "war", "--from", s(&ex), "--json"]));
    assert_eq!(played["rounds"], v["longest_rounds"]);
    let replayed = json(&ok(&["replay", s(&ex), "--json"]));
    assert_eq!(replayed["rounds"], v["longest_rounds"]);
}

#[test]
fn messages_name_the_real_problem_and_print_no_escapes() {
    let dir = Scratch::new("messages");
    let shot = dir.path("shot");
    shotgun(&shot, None);
    let line = fails(2, &["play", "war", "--from", s(&shot)]);
    assert!(line.contains("a run of \"shotgun\", not of war"), "{line}");
    let sw = dir.path("sw");
    small_sweep(&sw);
    let line = fails(2, &["merge", s(&sw), "--out", s(&dir.path("m"))]);
    assert!(
        line.contains("is a sweep; name one of its rule-set folders"),
        "{line}"
    );
    let hold = dir.path("hold");
    std::fs::create_dir(&hold).unwrap();
    std::fs::write(hold.join("evil\u{1b}[31mRED"), "").unwrap();
    let line = fails(
        2,
        &["simulate", "shotgun", "--games", "100", "--out", s(&hold)],
    );
    assert!(
        !line.contains('\u{1b}') && line.contains("\\u{1b}"),
        "{line:?}"
    );
}

/// A folder of a search holds no run of games: `replay`, `merge` and `play --from` say what it
/// holds (a search for long deals, for cycles, or the deals that enter a cycle) and where its
/// replayable lines are.
#[test]
fn a_search_folder_is_named_for_what_it_holds() {
    let dir = Scratch::new("search-kinds");
    for (file, text, said) in [
        (
            "search.json",
            r#"{"game":"bmn"}"#,
            "a search for long deals (search.json)",
        ),
        (
            "search.json",
            r#"{"game":"bmn","mode":"loops"}"#,
            "a search for cycles",
        ),
        (
            "reaching.json",
            r#"{"game":"bmn"}"#,
            "the deals that enter a cycle",
        ),
    ] {
        let d = dir.path(said.split(' ').nth(3).unwrap());
        std::fs::create_dir(&d).unwrap();
        std::fs::write(d.join(file), text).unwrap();
        for args in [
            vec!["replay", s(&d)],
            vec!["merge", s(&d), "--out", s(&dir.path("m"))],
            vec!["play", "war", "--from", s(&d)],
        ] {
            let line = fails(2, &args);
            assert!(
                line.contains(said) && line.contains("no run of games"),
                "{args:?}: {line}"
            );
        }
    }
}

#[test]
fn the_current_folder_is_never_replaced_and_dot_slash_names_a_new_one() {
    let dir = Scratch::new("cwd");
    let here = dir.path("here");
    std::fs::create_dir(&here).unwrap();
    let run = |out: &str| {
        Command::new(env!("CARGO_BIN_EXE_warsim"))
            .args(["simulate", "shotgun", "--games", "100", "--out", out])
            .current_dir(&here)
            .stdin(Stdio::null())
            .output()
            .unwrap()
    };
    let refused = run(".");
    assert_eq!(refused.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("current folder"));
    assert!(run("./fresh//").status.success());
    assert!(here.join("fresh/summary.json").exists());
}

#[test]
fn a_by_csv_that_makes_up_groups_is_refused_before_they_cost_memory() {
    let dir = Scratch::new("group-bomb");
    let run = dir.path("b");
    ok(&[
        "simulate",
        "war",
        "--games",
        "2000",
        "--by",
        "p1-top",
        "--out",
        s(&run),
    ]);
    let mut by = String::from("group,rounds,count,p1,p2,draw\n");
    for g in 0..65_536 {
        by.push_str(&format!("{g},65535,1,1,0,0\n"));
    }
    std::fs::write(run.join("by.csv"), by).unwrap();
    let line = fails_within(10, 2, &["replay", s(&run)]);
    // Refused at the first group its rules cannot make, or summary.json does not list.
    assert!(
        line.contains("by.csv line")
            && (line.contains("its rules make groups")
                || line.contains("groups summary.json lists")),
        "{line}"
    );
}

#[test]
fn sibling_runs_under_a_new_parent_both_succeed() {
    let dir = Scratch::new("siblings");
    for i in 0..8 {
        let parent = dir.path(&format!("p{i}/x"));
        let spawn = |name: &str| {
            Command::new(env!("CARGO_BIN_EXE_warsim"))
                .args(["simulate", "shotgun", "--games", "300", "--threads", "1"])
                .arg("--out")
                .arg(parent.join(name))
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        };
        let (a, b) = (spawn("a"), spawn("b"));
        for child in [a, b] {
            let done = child.wait_with_output().unwrap();
            assert!(
                done.status.success(),
                "{}",
                String::from_utf8_lossy(&done.stderr)
            );
        }
    }
}

#[test]
fn leftover_names_without_a_marker_keep_a_users_files() {
    let dir = Scratch::new("leftover-names");
    let out = dir.path("o");
    let theirs = dir.path(".o.warsim-old-3-4");
    std::fs::create_dir(&theirs).unwrap();
    std::fs::write(theirs.join("README.md"), "my chapter").unwrap();
    shotgun(&out, None);
    assert_eq!(read(&theirs, "README.md"), "my chapter");
}

#[test]
fn a_replay_that_does_not_end_as_the_run_says_is_refused() {
    let dir = Scratch::new("edited-longest");
    let run = dir.path("run");
    ok(&["simulate", "war", "--games", "500", "--out", s(&run)]);
    let longest = json(&read(&run, "summary.json"))["longest_game"]
        .as_u64()
        .unwrap();
    // Another game of the run, claimed as the longest: its index is in range, its rounds differ.
    let other = if longest == 0 { 1 } else { 0 };
    edit_summary(&run, |v| v["longest_game"] = other.into());
    for args in [
        vec!["replay", s(&run)],
        vec!["play", "war", "--from", s(&run)],
    ] {
        let line = fails(2, &args);
        assert!(line.contains("the run says"), "{line}");
    }
}

#[test]
fn a_set_written_before_stdout_failed_says_so() {
    let dir = Scratch::new("stdout-full");
    let out = dir.path("o");
    let done = Command::new(env!("CARGO_BIN_EXE_warsim"))
        .args(["simulate", "shotgun", "--games", "300", "--out", s(&out)])
        .stdin(Stdio::null())
        .stdout(std::fs::File::create("/dev/full").unwrap())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&done.stderr);
    assert_eq!(done.status.code(), Some(1), "{err}");
    assert!(
        err.contains("was written in full; cannot print its summary"),
        "{err}"
    );
    assert!(out.join("summary.json").exists());
}

#[test]
fn an_out_below_a_file_is_a_usage_error_that_says_which_file() {
    let dir = Scratch::new("below-file");
    std::fs::write(dir.path("f"), "mine").unwrap();
    for out in ["f/x", "f/x/y"] {
        let line = fails(
            2,
            &[
                "simulate",
                "shotgun",
                "--games",
                "10",
                "--out",
                s(&dir.path(out)),
            ],
        );
        assert!(line.contains("is a file, not a folder"), "{line}");
    }
    assert_eq!(read(&dir.0, "f"), "mine");
}

#[test]
fn folders_of_other_outputs_are_named_for_what_they_are() {
    let dir = Scratch::new("other-outputs");
    let chain = dir.path("chain");
    ok(&[
        "exact",
        "war",
        "--ranks",
        "2",
        "--suits",
        "2",
        "--out",
        s(&chain),
    ]);
    let line = fails(2, &["replay", s(&chain)]);
    assert!(line.contains("exact Markov-chain answer"), "{line}");
}
