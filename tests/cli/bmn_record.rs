//! `search bmn --method sample` and `--method record`: the same on any threads, every deal
//! written replaying as stated, the replay command playing the same search again, joining from
//! a record, and a clear refusal of what these methods do not take.

use crate::bmn_search::{command_of, every_play_line_replays};
use crate::util::{fails, json, ok, read, s, Scratch};

/// search.json without what depends on the machine or names the folder.
fn stable(out: &std::path::Path) -> serde_json::Value {
    let mut v = json(&read(out, "search.json"));
    for k in [
        "elapsed_s",
        "sample_s",
        "join_s",
        "deals_per_s",
        "threads",
        "provenance",
        "replay",
    ] {
        v.as_object_mut().unwrap().remove(k);
    }
    v
}

#[test]
fn sampling_and_the_record_search_are_the_same_on_any_threads_and_replay() {
    let dir = Scratch::new("search-record");
    let deck = ["--ranks", "6", "--suits", "4"];
    for method in ["sample", "record"] {
        // Only a record search joins: sampling refuses `--bases`.
        let bases: &[&str] = match method {
            "record" => &["--bases", "20"],
            _ => &[],
        };
        let run = |threads: &str| {
            let out = dir.path(&format!("{method}-{threads}"));
            let shown = ok(&[
                &["search", "bmn", "--method", method][..],
                &deck,
                bases,
                &["--deals", "100000", "--threads", threads, "--out", s(&out)],
            ]
            .concat());
            (out, shown)
        };
        let (one, shown) = run("1");
        let (two, _) = run("2");
        assert_eq!(stable(&one), stable(&two), "{method}");
        assert!(every_play_line_replays(&shown) >= 5, "{shown}");
        assert!(every_play_line_replays(&read(&one, "best.txt")) >= 5);
        let v = stable(&one);
        assert_eq!(v["deals"], 100000);
        assert_eq!(v["method"], method);
        if method == "record" {
            assert_eq!(v["bases"], 20);
            assert!(
                v["best"][0]["ancestor_of"].is_string(),
                "joining gains: {v}"
            );
            assert_eq!(
                v["played"].as_u64().unwrap(),
                100000 + v["replayed"].as_u64().unwrap()
            );
        }
        // search.json's replay command plays the same search again.
        let line = json(&read(&one, "search.json"))["replay"]
            .as_str()
            .unwrap()
            .to_string();
        let again = dir.path(&format!("{method}-again"));
        let mut args = command_of(&line);
        let at = args.iter().position(|a| a == "--out").unwrap();
        args[at + 1] = s(&again).to_string();
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        ok(&args);
        assert_eq!(stable(&again), v, "{line}");
    }
}

#[test]
fn joining_from_collins_finds_a_7544_card_deal() {
    let dir = Scratch::new("search-record-from");
    let out = dir.path("collins");
    ok(&[
        "search",
        "bmn",
        "--method",
        "record",
        "--from",
        "A-QK------Q----KA-----J---/-JAK----A--Q----J---QJ--K-",
        "--keep",
        "3",
        "--out",
        s(&out),
    ]);
    let v = stable(&out);
    assert_eq!(v["best"][0]["cards"], 7544);
    assert_eq!(
        v["best"][0]["deal"],
        "--J--Q--A---KQ-A-----AQJQ-/--K---------------JJAK--K-"
    );
    assert_eq!(every_play_line_replays(&read(&out, "best.txt")), 3);
}

#[test]
fn sampling_and_joining_refuse_what_they_do_not_take() {
    let dir = Scratch::new("search-record-refuse");
    let out = dir.path("x");
    let err = fails(
        2,
        &[
            "search",
            "bmn",
            "--method",
            "sample",
            "--from",
            "A-QK------Q----KA-----J---/-JAK----A--Q----J---QJ--K-",
            "--out",
            s(&out),
        ],
    );
    assert!(err.contains("--method record"), "{err}");
    let err = fails(
        2,
        &[
            "search",
            "bmn",
            "--method",
            "record",
            "--loops",
            "--out",
            s(&out),
        ],
    );
    assert!(err.contains("--loops"), "{err}");
    let err = fails(
        2,
        &[
            "search",
            "bmn",
            "--method",
            "record",
            "--from",
            "---K---Q-KQAJ-----AAJ--J--/----------Q----KQ-J-----KA",
            "--out",
            s(&out),
        ],
    );
    assert!(err.contains("does not end"), "{err}");
    assert!(!out.exists());
}
