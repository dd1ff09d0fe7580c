//! `search bmn` over time: a search for a time that stops in about that time and replays, one
//! for a moment and one past its bound, an interrupted search that writes what it found, and
//! the census, the same on any threads with every deal replaying. (The loop, climb and
//! reaching searches' tests are bmn_search.rs's.)

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

use crate::bmn_search::{command_of, stable};
use crate::util::{fails, json, log_lines, ok, read, s, within, Scratch};

/// Items 7 and 8: a search for a time stops within about it, even with thousands of walkers;
/// its progress is the time elapsed of the time asked; and search.json's `replay` (`--deals`
/// of the deals played) plays the same search again.
#[test]
fn a_timed_search_stops_in_time_and_replays() {
    let dir = Scratch::new("search-timed");
    let out = dir.path("t");
    let args = [
        "search",
        "bmn",
        "--method",
        "climb",
        "--walkers",
        "4096",
        "--minutes",
        "0.01",
        "--progress",
        "log",
        "--out",
        s(&out),
    ];
    let run = within(20, &args);
    assert!(run.status.success());
    let err = String::from_utf8_lossy(&run.stderr);
    assert!(
        log_lines(&err).iter().all(|l| l.starts_with("progress: ")) && err.contains(" of 0:00:01 "),
        "{err}"
    );
    assert!(!err.contains("pilot"), "{err}");
    let first = stable(&out);
    assert_eq!(first["stopped"], false);
    let deals = first["deals"].as_u64().unwrap();
    assert!(deals > 0 && deals.is_multiple_of(4096), "{first}");
    let again = json(&read(&out, "search.json"))["replay"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(again.contains(&format!("--deals {deals} ")), "{again}");
    let args = command_of(&again);
    ok(&args.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(stable(&out), first);
}

/// Item 9: an interrupted search (SIGINT, as Ctrl-C sends) writes what it found, marked
/// `"stopped": true` with the deals it played, exits with status 130, and its `replay` plays
/// the same search again; a climb and a loop search alike (a sampling and joining search
/// stopped before it joins replays as the sampling it was: src/search/replay.rs's test).
#[test]
fn an_interrupted_search_writes_what_it_found() {
    let dir = Scratch::new("search-sigint");
    for (name, extra) in [
        ("climb", &["--method", "climb"][..]),
        ("loops", &["--loops"][..]),
    ] {
        let out = dir.path(name);
        let args = [
            &[
                "search",
                "bmn",
                "--ranks",
                "7",
                "--suits",
                "2",
                "--minutes",
                "10",
            ][..],
            extra,
            &["--progress", "log", "--out", s(&out)],
        ]
        .concat();
        let mut child = Command::new(env!("CARGO_BIN_EXE_warsim"))
            .args(&args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // The first progress line comes once the search may be stopped.
        let mut err = BufReader::new(child.stderr.take().unwrap());
        let mut first = String::new();
        err.read_line(&mut first).unwrap();
        assert!(log_lines(&first)[0].starts_with("progress: "), "{first}");
        std::thread::sleep(std::time::Duration::from_millis(300));
        let status = Command::new("kill")
            .args(["-INT", &child.id().to_string()])
            .status()
            .unwrap();
        assert!(status.success());
        let mut rest = String::new();
        std::io::Read::read_to_string(&mut err, &mut rest).unwrap();
        let done = crate::util::finish_within(child, 60, name);
        assert_eq!(done.status.code(), Some(130), "{name}: {rest}");
        assert!(rest.contains("stopped"), "{rest}");
        let stdout = String::from_utf8_lossy(&done.stdout);
        assert!(stdout.contains("written "), "{stdout}");
        let v = stable(&out);
        assert_eq!(v["stopped"], true, "{v}");
        let key = if name == "loops" { "tries" } else { "deals" };
        let played = v[key].as_u64().unwrap();
        assert!(played > 0, "{v}");
        let again = json(&read(&out, "search.json"))["replay"]
            .as_str()
            .unwrap()
            .to_string();
        assert!(again.contains(&format!("--deals {played} ")), "{again}");
        let args = command_of(&again);
        ok(&args.iter().map(String::as_str).collect::<Vec<_>>());
        let mut replayed = stable(&out);
        assert_eq!(replayed["stopped"], false);
        replayed["stopped"] = true.into();
        assert_eq!(replayed, v, "{name}");
    }
}

/// A search for less time than one deal takes still plays a deal a walker, so its replay line
/// runs; a search for more time than the bound is refused by its time, with no pilot.
#[test]
fn a_search_for_a_moment_replays_and_one_past_the_bound_is_refused_by_its_time() {
    let dir = Scratch::new("search-moment");
    let out = dir.path("m");
    let text = ok(&[
        "search",
        "bmn",
        "--method",
        "climb",
        "--minutes=0.0000001",
        "--progress",
        "never",
        "--out",
        s(&out),
    ]);
    let again = text
        .lines()
        .find_map(|l| l.strip_prefix("again     "))
        .unwrap();
    assert!(again.contains("--deals 16 --walkers 16"), "{again}");
    let line = fails(
        2,
        &[
            "search",
            "bmn",
            "--minutes",
            "600",
            "--out",
            s(&dir.path("x")),
        ],
    );
    assert!(
        line.contains("--minutes 600 is over the --max-hours bound") && !line.contains("pilot"),
        "{line}"
    );
    let line = fails(
        2,
        &["search", "bmn", "--deals", "0", "--out", s(&dir.path("x"))],
    );
    assert!(line.contains("whole number of deals"), "{line}");
}

/// `--census` from random positions of the 14-card deck: the same census on 1 thread and 2,
/// every cycle and every balanced deal written (cycles.txt, deals.txt) replaying as stated.
#[test]
fn a_census_is_the_same_on_any_threads_and_every_deal_replays() {
    let dir = Scratch::new("search-census");
    let run = |threads: &str, name: &str| {
        let out = dir.path(name);
        ok(&[
            "search",
            "bmn",
            "--census",
            "--ranks",
            "7",
            "--suits",
            "2",
            "--deals",
            "200000",
            "--walkers",
            "4",
            "--threads",
            threads,
            "--out",
            out.to_str().unwrap(),
        ]);
        let mut v = json(&read(&out, "census.json"));
        for k in ["elapsed_s", "threads", "provenance", "replay"] {
            v.as_object_mut().unwrap().remove(k);
        }
        (v, read(&out, "deals.txt"))
    };
    let (one, deals_one) = run("1", "one");
    let (two, deals_two) = run("2", "two");
    assert_eq!((&one, &deals_one), (&two, &deals_two));
    let cycles = one["cycles"].as_array().unwrap();
    assert!(!cycles.is_empty(), "14-card decks have cycles: {one}");
    let mut listed = 0;
    for c in cycles {
        for d in c["deals"].as_array().unwrap() {
            let deal = d["deal"].as_str().unwrap();
            let r = json(&ok(&[
                "play", "bmn", "--ranks", "7", "--suits", "2", "--deal", deal, "--json",
            ]));
            assert_eq!(r["outcome"], "loop", "{deal}");
            assert_eq!(r["cycle_tricks"], c["tricks"], "{deal}");
            assert_eq!(r["loop_from_tricks"], d["depth"], "{deal}");
            listed += 1;
        }
    }
    assert_eq!(
        listed,
        deals_one
            .lines()
            .filter(|l| l.starts_with("warsim"))
            .count()
    );
    // `exact bmn --ranks 7 --suits 2` plays every deal: 1,260 never end (docs/bmn.md), and
    // the census finds every one of them.
    assert_eq!(listed, 1260);
}
