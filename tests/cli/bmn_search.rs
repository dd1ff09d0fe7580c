//! `search bmn --loops`, `--from` and `--reaching`: the same cycles whatever the threads, every
//! replay line written (best.txt, deals.txt, search.json, the terminal) running as written and
//! playing what it states, and a clear refusal of what a search cannot do. (Searches for a
//! time, interrupted searches and the census: bmn_search_time.rs.)

use crate::util::{fails, json, ok, read, s, Scratch};

const CASELLA: &str = "---K---Q-KQAJ-----AAJ--J--/----------Q----KQ-J-----KA";

/// search.json without what depends on the machine, or names the folder (`replay`).
pub fn stable(out: &std::path::Path) -> serde_json::Value {
    let mut v = json(&read(out, "search.json"));
    for k in [
        "elapsed_s",
        "tries_per_s",
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
fn a_loop_search_finds_the_same_cycles_on_any_threads_and_each_replays() {
    let dir = Scratch::new("search-loops");
    let run = |threads: &str, name: &str| {
        let out = dir.path(name);
        ok(&[
            "search",
            "bmn",
            "--loops",
            "--ranks",
            "7",
            "--suits",
            "2",
            "--deals",
            "60000",
            "--walkers",
            "3",
            "--threads",
            threads,
            "--out",
            out.to_str().unwrap(),
        ]);
        (stable(&out), read(&out, "best.txt"))
    };
    let (one, best_one) = run("1", "one");
    let (two, best_two) = run("2", "two");
    assert_eq!(one, two);
    assert_eq!(best_one, best_two);
    let cycles = one["cycles"].as_array().unwrap();
    assert!(!cycles.is_empty(), "14-card decks have cycles: {one}");
    assert_eq!(
        one["looped"].as_u64().unwrap()
            + one["ended"].as_u64().unwrap()
            + one["undecided"].as_u64().unwrap(),
        60000
    );
    let mut ids = std::collections::HashSet::new();
    for c in cycles {
        assert!(ids.insert(c["id"].as_str().unwrap()), "listed twice: {c}");
        let deal = c["position"].as_str().unwrap();
        let r = json(&ok(&[
            "play", "bmn", "--ranks", "7", "--suits", "2", "--deal", deal, "--json",
        ]));
        assert_eq!(r["outcome"], "loop", "{deal}");
        // The canonical position is on the cycle, so the game loops from its start.
        assert_eq!(r["loop_from"], 0, "{deal}");
        assert_eq!(r["cycle_tricks"], c["tricks"], "{deal}");
        assert_eq!(r["cycle_len"], c["cards"], "{deal}");
        assert!(best_one.contains(deal), "{best_one}");
    }
}

#[test]
fn the_standard_loop_search_starts_from_casellas_cycle() {
    let dir = Scratch::new("search-casella");
    let out = dir.path("s");
    ok(&[
        "search",
        "bmn",
        "--loops",
        "--deals",
        "2000",
        "--walkers",
        "2",
        "--out",
        out.to_str().unwrap(),
    ]);
    let v = stable(&out);
    assert_eq!(v["from"], CASELLA);
    assert_eq!(v["seeds"][0]["tricks"], 62);
    assert_eq!(v["seeds"][0]["cards"], 440);
    assert!(
        v["looped"].as_u64().unwrap() > 0,
        "changed positions fall back: {v}"
    );
}

#[test]
fn a_climb_from_a_deal_starts_there() {
    let dir = Scratch::new("search-from");
    let out = dir.path("s");
    let paulhus = "------------KAQ----J------/-JQQK---K----JK--QA-A-JA--";
    ok(&[
        "search",
        "bmn",
        "--method",
        "climb",
        "--from",
        paulhus,
        "--deals",
        "200",
        "--walkers",
        "2",
        "--out",
        out.to_str().unwrap(),
    ]);
    let v = stable(&out);
    assert_eq!(v["from"], paulhus);
    // Paulhus's deal is every walker's first: at least as long as it is kept.
    assert!(v["best"][0]["cards"].as_u64().unwrap() >= 4791, "{v}");
}

#[test]
fn a_search_refuses_a_deal_it_cannot_start_from() {
    let dir = Scratch::new("search-from-bad");
    let out = dir.path("s");
    let out = out.to_str().unwrap();
    let line = fails(2, &["search", "bmn", "--from", "JQKA-/---", "--out", out]);
    assert!(line.contains("--from"), "{line}");
    let line = fails(
        2,
        &[
            "search",
            "bmn",
            "--from",
            &format!("{}/{}", "-".repeat(26), "JJJJQQQQKKKKAAAA----------"),
            "--loops",
            "--out",
            out,
        ],
    );
    assert!(line.contains("--from") && line.contains("ends"), "{line}");
    let uneven = "---K---Q-KQAJ-----AAJ--J--Q/----------Q----K-J-----KA";
    let line = fails(2, &["search", "bmn", "--from", uneven, "--out", out]);
    assert!(line.contains("27 and 25"), "{line}");
    assert!(!std::path::Path::new(out).exists(), "nothing written");
}

/// Backward play from Mann and Wu's 2007 record deal (7,157 cards) finds Anderson's 2013
/// record (7,225 cards), a deal whose game reaches theirs after some tricks.
#[test]
fn backward_play_from_a_record_finds_a_longer_one() {
    let dir = Scratch::new("search-backward");
    let out = dir.path("s");
    let mann_wu = "K-KK----K-A-----JAA--Q--J-/---Q---Q-J-----J------AQ--";
    let anderson = "--A-Q--J--J---Q--AJ-K---K-/-J-------Q------A--A--QKK-";
    ok(&[
        "search",
        "bmn",
        "--method",
        "climb",
        "--from",
        mann_wu,
        "--deals",
        "1",
        "--walkers",
        "1",
        "--keep",
        "100",
        "--out",
        out.to_str().unwrap(),
    ]);
    let v = stable(&out);
    let best = v["best"].as_array().unwrap();
    let found = best
        .iter()
        .find(|f| f["deal"] == anderson)
        .unwrap_or_else(|| panic!("Anderson's deal among {v}"));
    assert_eq!(
        (found["cards"].as_u64(), found["tricks"].as_u64()),
        (Some(7225), Some(1016))
    );
    assert_eq!(found["ancestor_of"], mann_wu);
    // Every deal found by backward play is longer than the deal it reaches, and replays so.
    for f in best.iter().filter(|f| f["ancestor_of"].is_string()) {
        let deal = f["deal"].as_str().unwrap();
        let r = json(&ok(&["play", "bmn", "--deal", deal, "--json"]));
        assert_eq!(r["rounds"], f["cards"], "{deal}");
        assert!(f["cards"].as_u64() > Some(7157), "{f}");
    }
}

/// `--reaching` refuses, in one line with exit status 2 and nothing written, a deal whose game
/// ends, an option of the other searches (`--max-hours` too), and a basin larger than
/// `--max-positions`.
#[test]
fn reaching_refuses_what_it_cannot_walk() {
    let dir = Scratch::new("search-reaching-bad");
    let out = dir.path("r");
    let out = out.to_str().unwrap();
    let ends = format!("--reaching={}/JJJJQQQQKKKKAAAA----------", "-".repeat(26));
    let line = fails(2, &["search", "bmn", &ends, "--out", out]);
    assert!(line.contains("ends after 13 tricks"), "{line}");
    let casella = format!("--reaching={CASELLA}");
    let line = fails(
        2,
        &["search", "bmn", &casella, "--deals", "5", "--out", out],
    );
    assert!(line.contains("--deals"), "{line}");
    let line = fails(
        2,
        &[
            "search",
            "bmn",
            &casella,
            "--max-positions",
            "100",
            "--out",
            out,
        ],
    );
    assert!(line.contains("--max-positions"), "{line}");
    // It makes no estimate, so --max-hours has nothing to bound: refused, not ignored.
    let line = fails(
        2,
        &["search", "bmn", &casella, "--max-hours", "3", "--out", out],
    );
    assert!(line.contains("--max-hours"), "{line}");
    assert!(!std::path::Path::new(out).exists(), "nothing written");
}

/// The arguments after `warsim` of the command in `line` (from `warsim ` to the end or to a
/// `   #` comment), split as a POSIX shell splits them: the lines warsim writes quote with
/// single quotes only.
pub fn command_of(line: &str) -> Vec<String> {
    let at = line
        .find("warsim ")
        .unwrap_or_else(|| panic!("no command: {line}"));
    let command = line[at + "warsim ".len()..].split("   #").next().unwrap();
    let (mut args, mut arg, mut quoted, mut any) = (Vec::new(), String::new(), false, false);
    for c in command.chars() {
        match c {
            '\'' => (quoted, any) = (!quoted, true),
            ' ' if !quoted => {
                if any {
                    args.push(std::mem::take(&mut arg));
                }
                any = false;
            }
            c => (arg.push(c), any = true).1,
        }
    }
    assert!(!quoted, "an unclosed quote: {line}");
    if any {
        args.push(arg);
    }
    args
}

/// The number written just before `unit` in `text` (`57 cards`, `24-trick`, `2,901 cards`).
fn count(text: &str, unit: &str) -> u64 {
    let at = text
        .find(unit)
        .unwrap_or_else(|| panic!("no {unit} in {text}"));
    let head = text[..at].trim_end_matches([' ', '-']);
    let digits: String = head
        .chars()
        .rev()
        .take_while(|c| c.is_ascii_digit() || *c == ',')
        .filter(char::is_ascii_digit)
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect();
    digits
        .parse()
        .unwrap_or_else(|_| panic!("no count of {unit} in {text}"))
}

/// Runs the `play` command of a replay line as written (with `--json`) and checks that it plays
/// what `stated` says: `N cards, T tricks`; a cycle of `T tricks, C cards` (`never ends: a
/// T-trick (C-card) cycle`, or a cycle's position, on it from the start); or a loop entered
/// `after D tricks`.
fn plays_as_stated(line: &str, stated: &str) {
    let args = command_of(line);
    assert_eq!(args[..2], ["play", "bmn"], "{line}");
    let mut run: Vec<&str> = args.iter().map(String::as_str).collect();
    run.push("--json");
    let r = json(&ok(&run));
    if let Some((_, depth)) = stated.split_once("after ") {
        assert_eq!(r["outcome"], "loop", "{line}");
        assert_eq!(r["loop_from_tricks"], count(depth, "trick"), "{line}");
    } else if stated.contains("cycle") {
        assert_eq!(r["outcome"], "loop", "{line}");
        assert_eq!(r["cycle_tricks"], count(stated, "trick"), "{line}");
        assert_eq!(r["cycle_len"], count(stated, "card"), "{line}");
        if !stated.contains("never ends") {
            assert_eq!(r["loop_from"], 0, "a cycle's position is on it: {line}");
        }
    } else {
        assert_ne!(r["outcome"], "loop", "{line}");
        assert_eq!(r["rounds"], count(stated, "card"), "{line}");
        assert_eq!(r["tricks"], count(stated, "trick"), "{line}");
    }
}

/// Every line of `text` holding a `warsim play` command runs as written and plays what the
/// line states (its comment after `#`, or its head before the command); returns how many.
pub fn every_play_line_replays(text: &str) -> usize {
    let lines: Vec<&str> = text.lines().filter(|l| l.contains("warsim play")).collect();
    for line in &lines {
        let stated = match line.split_once("   # ") {
            Some((_, comment)) => comment,
            None => &line[..line.find("warsim").unwrap()],
        };
        plays_as_stated(line, stated);
    }
    lines.len()
}

/// Item 10: every replay line of every search output pastes and runs as written, deck options
/// and all: best.txt, deals.txt, the terminal's lines and search.json's `replay` commands.
#[test]
fn every_replay_line_of_every_search_runs_as_written() {
    let dir = Scratch::new("search-replay-lines");
    let deck = ["--ranks", "7", "--suits", "2"];
    let record = dir.path("record");
    let shown = ok(&[
        &["search", "bmn", "--method", "climb"][..],
        &deck,
        &["--deals", "40000", "--walkers", "4", "--out", s(&record)],
    ]
    .concat());
    assert!(every_play_line_replays(&shown) >= 5, "{shown}");
    assert!(every_play_line_replays(&read(&record, "best.txt")) >= 5);
    let v = json(&read(&record, "search.json"));
    for f in v["best"]
        .as_array()
        .unwrap()
        .iter()
        .chain(v["loops"].as_array().unwrap())
    {
        let stated = match f["cycle"].as_array() {
            Some(c) => format!("never ends: a {}-trick ({}-card) cycle", c[1], c[0]),
            None => format!("{} cards, {} tricks", f["cards"], f["tricks"]),
        };
        plays_as_stated(f["replay"].as_str().unwrap(), &stated);
    }
    let loops = dir.path("loops");
    let shown = ok(&[
        &["search", "bmn", "--loops"][..],
        &deck,
        &["--deals", "60000", "--walkers", "3", "--out", s(&loops)],
    ]
    .concat());
    assert!(every_play_line_replays(&shown) > 0, "{shown}");
    assert!(every_play_line_replays(&read(&loops, "best.txt")) > 0);
    for c in json(&read(&loops, "search.json"))["cycles"]
        .as_array()
        .unwrap()
    {
        let stated = format!("cycle: {} tricks, {} cards", c["tricks"], c["cards"]);
        plays_as_stated(c["replay"].as_str().unwrap(), &stated);
    }
    let reaching = dir.path("reaching");
    ok(&[
        &["search", "bmn", "--reaching", "--J-/K-QQ-AAKJ-"][..],
        &deck,
        &["--out", s(&reaching)],
    ]
    .concat());
    assert_eq!(every_play_line_replays(&read(&reaching, "deals.txt")), 84);
}

/// Items 1 and 5: `--reaching` writes the deal it was given with its own hands (4 and 10
/// cards here, not cut in half), and the same command replaces the folder it wrote.
#[test]
fn reaching_writes_its_deal_as_given_and_reruns_into_its_folder() {
    let dir = Scratch::new("search-reaching-again");
    let out = dir.path("r");
    let args = [
        "search",
        "bmn",
        "--ranks",
        "7",
        "--suits",
        "2",
        "--reaching",
        "--J-/K-QQ-AAKJ-",
        "--out",
        s(&out),
    ];
    let shown = ok(&args);
    assert!(shown.contains("of --J-/K-QQ-AAKJ-\n"), "{shown}");
    let v = json(&read(&out, "reaching.json"));
    assert_eq!(v["deal"], "--J-/K-QQ-AAKJ-");
    assert!(read(&out, "deals.txt").contains("cycle of --J-/K-QQ-AAKJ-."));
    ok(&args);
    assert_eq!(
        json(&read(&out, "reaching.json"))["deal"],
        "--J-/K-QQ-AAKJ-"
    );
}

/// Item 2: `--max-rounds` counts cards everywhere. `--reaching` plays its deal up to that many
/// cards (a cap below the 162-card cycle's second turn is refused, one above it walks), and
/// writes loop lines that replay as loops; `--loops`, whose tries are played to a number of
/// tricks, refuses a cap.
#[test]
fn the_card_cap_counts_cards_or_is_refused() {
    let dir = Scratch::new("search-cap");
    let out = dir.path("r");
    let reaching = |cap: &'static str| {
        vec![
            "search",
            "bmn",
            "--ranks",
            "7",
            "--suits",
            "2",
            "--max-rounds",
            cap,
            "--reaching",
            "--J-/K-QQ-AAKJ-",
            "--out",
            s(&out),
        ]
    };
    let line = fails(2, &reaching("200"));
    assert!(
        line.contains("within 200 cards") && line.contains("--max-rounds"),
        "{line}"
    );
    ok(&reaching("2000"));
    assert_eq!(every_play_line_replays(&read(&out, "deals.txt")), 84);
    let line = fails(
        2,
        &[
            "search",
            "bmn",
            "--loops",
            "--max-rounds",
            "2000",
            "--out",
            s(&out),
        ],
    );
    assert!(
        line.contains("--max-rounds") && line.contains("tricks"),
        "{line}"
    );
    // A record search's lines carry the cap, under which each game ended as stated.
    let capped = dir.path("capped");
    ok(&[
        "search",
        "bmn",
        "--method",
        "climb",
        "--max-rounds",
        "300",
        "--deals",
        "2000",
        "--walkers",
        "2",
        "--out",
        s(&capped),
    ]);
    let best = read(&capped, "best.txt");
    assert!(best.contains("--max-rounds 300 --deal"), "{best}");
    assert!(every_play_line_replays(&best) > 0);
}

/// Item 3: under `--rules camicia` every cycle's position is written as `play bmn --deal`
/// reads it, hands of different sizes as each hand's digits joined by `/`, and replays.
#[test]
fn camicia_loop_positions_replay() {
    let dir = Scratch::new("search-camicia");
    let out = dir.path("c");
    ok(&[
        "search",
        "bmn",
        "--rules",
        "camicia",
        "--ranks",
        "7",
        "--suits",
        "2",
        "--loops",
        "--deals",
        "100000",
        "--walkers",
        "4",
        "--out",
        s(&out),
    ]);
    let v = json(&read(&out, "search.json"));
    let cycles = v["cycles"].as_array().unwrap();
    assert!(!cycles.is_empty(), "{v}");
    assert!(
        cycles
            .iter()
            .any(|c| c["position"].as_str().unwrap().contains('/')),
        "some position has hands of different sizes: {v}"
    );
    assert_eq!(
        every_play_line_replays(&read(&out, "best.txt")),
        cycles.len()
    );
}

/// Items 4 and 6: a climb from a deal that never ends is refused (it would list the same loop
/// at every restart), and so is a join from it (the default search: it has no last trick),
/// each pointing to `--loops`; a deck whose cards all demand the same is refused by every
/// search (no two cards to swap), naming `--penalties`, while its games still play.
#[test]
fn a_search_refuses_a_loop_to_climb_from_and_a_deck_of_one_demand() {
    let dir = Scratch::new("search-refusals");
    let out = dir.path("s");
    let climb = ["search", "bmn", "--method", "climb"];
    let line = fails(
        2,
        &[&climb[..], &["--from", CASELLA, "--out", s(&out)]].concat(),
    );
    assert!(
        line.contains("never ends") && line.contains("--loops"),
        "{line}"
    );
    let line = fails(2, &["search", "bmn", "--from", CASELLA, "--out", s(&out)]);
    assert!(
        line.contains("does not end") && line.contains("--loops --from"),
        "{line}"
    );
    for (search, deck) in [
        (&climb[..], &["--penalties", "0,0,0,0"][..]),
        (
            &["search", "bmn"],
            &["--ranks", "4", "--penalties", "2,2,2,2", "--loops"],
        ),
    ] {
        let args = [search, deck, &["--out", s(&out)]].concat();
        let line = fails(2, &args);
        assert!(
            line.contains("--penalties") && line.contains("--ranks"),
            "{line}"
        );
    }
    let line = fails(
        2,
        &["search", "bmn", "--penalties", "0,0,0,0", "--out", s(&out)],
    );
    assert!(
        line.contains("--penalties") && line.contains("same game"),
        "{line}"
    );
    assert!(!out.exists(), "nothing written");
    let v = json(&ok(&[
        "simulate",
        "bmn",
        "--penalties",
        "0,0,0,0",
        "--games",
        "100",
        "--json",
        "--out",
        s(&dir.path("sim")),
    ]));
    assert_eq!(v["games"], 100, "{v}");
}
