//! `play jitsu`: the transcript checked line by line against the rules of docs/rules/jitsu.md, with
//! the rules written again here, independently of core/src/games/jitsu/, and its labels on stderr
//! against the transcript.

use crate::util::{ok, warsim_input};

/// (element, colour, value) of a card such as `FB9`.
fn card(s: &str) -> (char, char, u32) {
    let mut ch = s.chars();
    let (e, c) = (ch.next().unwrap(), ch.next().unwrap());
    assert!("FWS".contains(e) && "YORBGP".contains(c), "{s}");
    let v: u32 = ch.as_str().parse().unwrap();
    assert!((2..=12).contains(&v), "{s}");
    (e, c, v)
}

fn list(line: &str) -> Vec<String> {
    let inner = line
        .strip_prefix('[')
        .and_then(|l| l.strip_suffix(']'))
        .unwrap_or_else(|| panic!("{line}"));
    inner
        .split(',')
        .filter(|s| !s.is_empty())
        .map(String::from)
        .collect()
}

/// Fire beats Snow, Snow beats Water, Water beats Fire; same element: higher value; else 0.
fn rule(a: &str, b: &str) -> u32 {
    let ((ea, _, va), (eb, _, vb)) = (card(a), card(b));
    let beats = |x, y| matches!((x, y), ('F', 'S') | ('S', 'W') | ('W', 'F'));
    if ea != eb {
        return if beats(ea, eb) { 1 } else { 2 };
    }
    match va.cmp(&vb) {
        std::cmp::Ordering::Greater => 1,
        std::cmp::Ordering::Less => 2,
        std::cmp::Ordering::Equal => 0,
    }
}

/// A card as the labels name it, from the transcript's code: `WO12` is `Water 12 orange`.
fn named(code: &str) -> String {
    let (e, c, v) = card(code);
    let element = match e {
        'F' => "Fire",
        'W' => "Water",
        _ => "Snow",
    };
    let colour = match c {
        'Y' => "yellow",
        'O' => "orange",
        'R' => "red",
        'B' => "blue",
        'G' => "green",
        _ => "purple",
    };
    format!("{element} {v} {colour}")
}

/// A transcript's list line (`[FB4,SG10]`) as the labels name it: `Fire 4 blue, Snow 10
/// green`, or `none`.
fn named_list(line: &str) -> String {
    let cards: Vec<String> = list(line).iter().map(|c| named(c)).collect();
    if cards.is_empty() {
        "none".into()
    } else {
        cards.join(", ")
    }
}

/// Three cards of three colours, elements all equal or all different.
fn has_set(pile: &[String]) -> bool {
    let cards: Vec<_> = pile.iter().map(|c| card(c)).collect();
    let n = cards.len();
    (0..n).any(|i| {
        (i + 1..n).any(|j| {
            (j + 1..n).any(|k| {
                let (a, b, c) = (cards[i], cards[j], cards[k]);
                let colours = a.1 != b.1 && b.1 != c.1 && a.1 != c.1;
                let same = a.0 == b.0 && b.0 == c.0;
                let diff = a.0 != b.0 && b.0 != c.0 && a.0 != c.0;
                colours && (same || diff)
            })
        })
    })
}

/// Checks a whole transcript; returns the number of rounds.
fn check(transcript: &str, inputs: &[usize]) -> usize {
    let lines: Vec<&str> = transcript.lines().collect();
    let mut won: [Vec<String>; 2] = [vec![], vec![]];
    let mut prev_hand: Option<(Vec<String>, usize)> = None;
    let mut round = 0;
    let mut i = 0;
    loop {
        assert_eq!(list(lines[i]), won[0], "round {round}: player 1's pile");
        assert_eq!(list(lines[i + 1]), won[1], "round {round}: player 2's pile");
        let hand = list(lines[i + 2]);
        assert_eq!(hand.len(), 5);
        let mut distinct = hand.clone();
        distinct.sort();
        distinct.dedup();
        assert_eq!(distinct.len(), 5, "duplicate in hand {hand:?}");
        if let Some((before, played)) = prev_hand.take() {
            let mut kept = before.clone();
            kept.remove(played);
            assert_eq!(
                &hand[..4],
                &kept[..],
                "the played card leaves, the rest keep their order"
            );
        }
        let choice: usize = lines[i + 3].parse().unwrap();
        assert_eq!(choice, inputs[round], "the echoed input");
        let (p1, p2) = (lines[i + 4], lines[i + 5]);
        assert_eq!(
            p1,
            hand[choice - 1],
            "player 1 plays hand position {choice}"
        );
        card(p2);
        let result: u32 = lines[i + 6].parse().unwrap();
        assert_eq!(result, rule(p1, p2), "{p1} v {p2}");
        if result > 0 {
            let w = result as usize - 1;
            won[w].push(if w == 0 { p1 } else { p2 }.to_string());
        }
        prev_hand = Some((hand, choice - 1));
        round += 1;
        i += 7;
        let winner = (0..2).find(|&p| has_set(&won[p]));
        match winner {
            Some(p) => {
                assert_eq!(lines[i], format!("player {} wins the game", p + 1));
                assert_eq!(lines.len(), i + 1, "nothing after the final line");
                return round;
            }
            None => assert!(i < lines.len(), "the game stopped without a winner"),
        }
    }
}

#[test]
fn transcript_follows_the_rules_line_by_line() {
    let inputs: Vec<usize> = (0..200).map(|k| k * 7 % 5 + 1).collect();
    // Invalid entries between valid ones are refused on stderr and never reach the transcript.
    let mut script = String::new();
    for (k, n) in inputs.iter().enumerate() {
        if k % 3 == 0 {
            script.push_str("x 0 6\n");
        }
        script.push_str(&format!("{n}\n"));
    }
    let mut rounds_seen = vec![];
    for seed in 0..20 {
        let out = warsim_input(&["play", "jitsu", "--seed", &seed.to_string()], &script);
        assert!(out.status.success());
        let transcript = String::from_utf8(out.stdout).unwrap();
        rounds_seen.push(check(&transcript, &inputs));
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.contains("\"x\" is not a hand position"), "{err}");
        check_labels(&transcript, &err);
    }
    assert!(rounds_seen.iter().all(|&r| r >= 3));
}

/// The stderr labels of a transcript: a view before each round's prompt and a line after it,
/// each saying what the round's unlabelled stdout lines say.
fn check_labels(transcript: &str, labels: &str) {
    let lines: Vec<&str> = transcript.lines().collect();
    let views: Vec<&str> = labels
        .lines()
        .filter(|l| l.starts_with("your won cards: "))
        .collect();
    let played: Vec<&str> = labels
        .lines()
        .filter(|l| l.starts_with("you played "))
        .collect();
    assert_eq!(
        (views.len(), played.len()),
        (lines.len() / 7, lines.len() / 7)
    );
    for (k, round) in lines.chunks(7).take(views.len()).enumerate() {
        let hand: Vec<String> = (list(round[2]).iter().enumerate())
            .map(|(i, c)| format!("{}: {}", i + 1, named(c)))
            .collect();
        let view = format!(
            "your won cards: {}; the computer's won cards: {}; your hand: {}",
            named_list(round[0]),
            named_list(round[1]),
            hand.join(", ")
        );
        assert_eq!(views[k], view, "round {}", k + 1);
        let taker = ["a tie: nobody takes", "you take", "the computer takes"];
        let (head, tail) = played[k].split_once(" (").unwrap();
        assert_eq!(
            head,
            format!(
                "you played {}, the computer {}",
                named(round[4]),
                named(round[5])
            )
        );
        let result: usize = round[6].parse().unwrap();
        assert!(
            tail.ends_with(&format!("): {} the round", taker[result])),
            "{tail}"
        );
    }
}

/// Stdout, a pipe here, is the seed's transcript byte for byte, as a build before the labels
/// wrote it (jitsu_seed18.txt, with a refused input on the way); stderr labels every round of
/// it with the cards by name, and --help says which stream is which.
/// (tests/cli/terminal.rs: a terminal gets the labels alone.)
#[test]
fn stdout_is_the_transcript_and_stderr_labels_it() {
    let out = warsim_input(
        &["play", "jitsu", "--seed", "18"],
        "x\n3 1 5 2 4\n9 3 1 5 2 4\n3 1 5 2 4\n",
    );
    assert!(out.status.success());
    let transcript = String::from_utf8(out.stdout).unwrap();
    assert_eq!(transcript, include_str!("jitsu_seed18.txt"));
    let labels = String::from_utf8(out.stderr).unwrap();
    check_labels(&transcript, &labels);
    for line in [
        "your won cards: none; the computer's won cards: none; your hand: 1: Snow 11 blue, \
         2: Water 9 red, 3: Water 5 yellow, 4: Fire 7 green, 5: Snow 10 yellow",
        "round 1, your card (1-5): x",
        "\"x\" is not a hand position; enter a number from 1 to 5",
        "round 1, your card (1-5): 3",
        "you played Water 5 yellow, the computer Fire 3 orange (Water beats Fire): you take \
         the round",
        "you played Fire 7 green, the computer Fire 7 yellow (both Fire, both 7): a tie: nobody \
         takes the round",
        "you win the game: ",
    ] {
        assert!(labels.contains(line), "{line:?} not in\n{labels}");
    }
    let help = ok(&["play", "jitsu", "--help"]);
    assert!(
        help.contains("the seed document's transcript, exactly")
            && help.contains("Stderr says the game in words")
            && help.contains("At a terminal the transcript is left out"),
        "{help}"
    );
}

#[test]
fn same_seed_and_inputs_same_transcript_and_closed_input_abandons_the_game() {
    let a = warsim_input(
        &["play", "jitsu", "--seed", "9"],
        "1 2 3 4 5 1 2 3 4 5 1 2 3 4 5 1 2 3 4 5 1 2 3 4 5",
    );
    let b = warsim_input(
        &["play", "jitsu", "--seed", "9"],
        "1 2 3 4 5 1 2 3 4 5 1 2 3 4 5 1 2 3 4 5 1 2 3 4 5",
    );
    assert_eq!(a.stdout, b.stdout);
    // Ctrl-D at a terminal ends the input as this does: the game is abandoned, exit 2.
    let short = warsim_input(&["play", "jitsu", "--seed", "9"], "1\n");
    assert_eq!(short.status.code(), Some(2));
    let err = String::from_utf8(short.stderr).unwrap();
    assert!(
        err.ends_with(
            "\nerror: stdin, round 2: the input ended before the game did; game abandoned\n"
        ),
        "{err}"
    );
    assert_eq!(
        String::from_utf8(short.stdout).unwrap().lines().count(),
        7 + 3
    );
}

#[test]
fn simulate_jitsu_strategies() {
    let v: serde_json::Value = serde_json::from_str(&ok(&[
        "simulate",
        "jitsu",
        "--strategy",
        "greedy",
        "--games",
        "20000",
        "--json",
    ]))
    .unwrap();
    assert_eq!(v["rules"]["strategy"], "greedy");
    assert!(v["shares"]["p1"]["share"].as_f64().unwrap() > 0.6);
}
