//! Every mode of `search bmn` is bounded and says truly what it ran: `--max-hours` holds the
//! census and the sampling searches as it holds the climb (a census of 10^12 tries ran until
//! killed), options of another mode are refused naming both (they were dropped from the replay
//! line), and `--deals` is a bound for the census too.

use crate::util::{fails_within, s, Scratch};

#[test]
fn every_search_mode_keeps_max_hours_before_it_starts() {
    let dir = Scratch::new("search-bound");
    let out = dir.path("s");
    for (mode, unit) in [
        (&["--census"][..], "999,999,995,904 tries would take"),
        (
            &["--method", "sample"][..],
            "1,000,000,000,000 deals would take",
        ),
        (
            &["--method", "record"][..],
            "1,000,000,000,000 deals would take",
        ),
        (&["--loops"][..], "1,000,000,000,000 deals would take"),
    ] {
        let mut args = vec!["search", "bmn", "--deals", "1000000000000"];
        args.extend(mode);
        args.extend(["--max-hours", "0.0001", "--out", s(&out)]);
        let line = fails_within(30, 2, &args);
        assert!(
            line.contains(unit) && line.contains("--max-hours"),
            "{mode:?}: {line}"
        );
    }
    assert!(!out.exists());
}

#[test]
fn options_of_another_search_mode_are_refused_naming_both() {
    let dir = Scratch::new("search-modes");
    let out = dir.path("s");
    for (args, want) in [
        (
            &["--census", "--method", "record"][..],
            &["--census", "--method record"][..],
        ),
        (
            &["--census", "--method", "sample"][..],
            &["--census", "--method sample"][..],
        ),
        (
            &["--loops", "--method", "record"][..],
            &["--loops", "--method record"][..],
        ),
        (
            &["--loops", "--method", "climb"][..],
            &["--loops", "--method climb"][..],
        ),
        (
            &["--bases", "5", "--method", "climb"][..],
            &["--bases 5", "--method record"][..],
        ),
        (
            &["--bases", "5", "--method", "sample"][..],
            &["--bases 5", "--method record"][..],
        ),
        (&["--bases", "5", "--census"][..], &["--bases 5"][..]),
        (&["--bases", "5", "--loops"][..], &["--bases 5"][..]),
        // Sampling and joining (the default) play on every thread: walkers are the climb's.
        (
            &["--walkers", "64"][..],
            &["--walkers 64", "--method record", "--method climb"][..],
        ),
        (
            &["--walkers", "64", "--method", "sample"][..],
            &["--walkers 64", "--method sample", "--method climb"][..],
        ),
        (
            &["--census", "--deals", "1"][..],
            &["--deals 1 is less than one round", "--walkers 16", "65,536"][..],
        ),
    ] {
        let mut all = vec!["search", "bmn", "--out", s(&out)];
        all.extend(args);
        let line = fails_within(30, 2, &all);
        for w in want {
            assert!(line.contains(w), "{args:?}: want {w:?}: {line}");
        }
    }
    assert!(!out.exists());
}
