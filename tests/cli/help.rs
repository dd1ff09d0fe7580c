//! What a newcomer reads: help with the options a command takes (and only those), grouped;
//! the manual pages; the text of `exact`, `play` and `compare`.

use crate::util::{fails, ok, read, s, warsim, Scratch};

#[test]
fn bare_warsim_shows_the_usage_and_the_commands() {
    for (args, listed) in [
        (
            &[][..],
            &["Usage: warsim", "simulate", "exact", "manpage"][..],
        ),
        (
            &["simulate"][..],
            &["Usage: warsim simulate", "war", "jitsu"][..],
        ),
    ] {
        let out = warsim(args);
        assert_eq!(out.status.code(), Some(2), "warsim {args:?}");
        assert!(out.stdout.is_empty(), "warsim {args:?}: nothing on stdout");
        let err = String::from_utf8_lossy(&out.stderr);
        for word in listed {
            assert!(err.contains(word), "warsim {args:?} lacks {word:?}: {err}");
        }
    }
}

#[test]
fn sweep_game_help_lists_the_games_rule_options() {
    for args in [
        &["sweep", "war", "--help"][..],
        &["sweep", "war", "-h"],
        &["sweep", "--help", "war"],
    ] {
        let help = ok(args);
        for option in ["--war-down", "--pickup", "--games", "comma list"] {
            assert!(help.contains(option), "{args:?} lacks {option}: {help}");
        }
    }
    let help = ok(&["sweep", "rps", "--help"]);
    assert!(
        help.contains("--players") && !help.contains("--war-down"),
        "{help}"
    );
    let own = ok(&["sweep", "--help"]);
    assert!(
        own.contains("Usage: warsim sweep <GAME>") && !own.contains("Face-down cards"),
        "{own}"
    );
    assert!(fails(2, &["sweep"]).contains("<GAME>"));
}

/// The text under `heading:` up to the next blank line that is followed by another heading.
fn section<'a>(help: &'a str, heading: &str) -> &'a str {
    let start = help
        .find(&format!("\n{heading}:\n"))
        .unwrap_or_else(|| panic!("no {heading:?} in {help}"));
    let rest = &help[start + heading.len() + 3..];
    &rest[..rest.find("\n\n").unwrap_or(rest.len())]
}

#[test]
fn simulate_help_groups_rule_and_run_options_and_cites_readable_rules() {
    let help = ok(&["simulate", "war", "-h"]);
    let rules = section(&help, "Rule options");
    let run = section(&help, "Run options");
    for option in ["--war-down", "--pickup", "--short-war", "--max-rounds"] {
        assert!(
            rules.contains(option) && !run.contains(option),
            "{option}: {help}"
        );
    }
    for option in ["--games", "--seed", "--out", "--shard"] {
        assert!(
            run.contains(option) && !rules.contains(option),
            "{option}: {help}"
        );
    }
    assert!(
        help.contains("Rules: two players") && help.contains("docs/rules/war.md"),
        "{help}"
    );
    for game in ["war", "snap", "shotgun", "rps", "jitsu"] {
        for args in [["simulate", game, "--help"], ["play", game, "--help"]] {
            let help = ok(&args);
            assert!(
                !help.contains(".txt"),
                "{args:?} names a file the user lacks: {help}"
            );
            assert!(
                help.contains("Rules: ") && help.contains(&format!("docs/rules/{game}.md")),
                "{args:?}"
            );
        }
    }
    assert!(!ok(&["games"]).contains(".txt"));
}

#[test]
fn exact_offers_only_what_it_does() {
    let help = ok(&["exact", "--help"]);
    for absent in [
        "--games",
        "--precision",
        "--shard",
        "--seed",
        "--max-games",
        "shotgun  ",
        "jitsu  ",
    ] {
        assert!(
            !help.contains(absent),
            "exact --help offers {absent:?}: {help}"
        );
    }
    for present in ["--threads", "--out", "--json", "war ", "snap "] {
        assert!(
            help.contains(present),
            "exact --help lacks {present:?}: {help}"
        );
    }
    let war = ok(&["exact", "war", "-h"]);
    assert!(
        section(&war, "Rule options").contains("--pickup") && !war.contains("--seed"),
        "{war}"
    );
    for game in ["shotgun", "rps", "jitsu"] {
        assert!(fails(2, &["exact", game]).contains(game));
    }
    for option in ["--seed", "--games", "--max-games", "--precision", "--shard"] {
        let line = fails(
            2,
            &[
                "exact", "war", "--ranks", "2", "--suits", "2", "--pickup", "p1-first", option, "1",
            ],
        );
        assert!(line.contains(option), "{line}");
    }
}

/// Roff as text: `\-` is a plain hyphen.
fn roff_text(page: &str) -> String {
    page.replace("\\-", "-")
}

#[test]
fn every_manual_page_referred_to_is_generated() {
    let dir = Scratch::new("man");
    let man1 = dir.path("man1");
    assert_eq!(ok(&["manpage", "--out-dir", s(&man1)]), "");
    let pages: Vec<String> = std::fs::read_dir(&man1)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    let mut referred = std::collections::BTreeSet::new();
    let stdout_page = roff_text(&ok(&["manpage"]));
    for page in pages
        .iter()
        .map(|p| roff_text(&read(&man1, p)))
        .chain([stdout_page])
    {
        // A reference is `warsim-NAME(1)`.
        for (i, _) in page.match_indices("(1)") {
            let start = page[..i]
                .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
                .map_or(0, |k| k + 1);
            referred.insert(format!("{}.1", &page[start..i]));
        }
    }
    assert!(
        referred.contains("warsim-simulate-war.1") && referred.len() > 20,
        "{referred:?}"
    );
    for name in &referred {
        assert!(
            pages.contains(name),
            "{name} is referred to but not generated; pages {pages:?}"
        );
    }
    let war = roff_text(&read(&man1, "warsim-simulate-war.1"));
    for option in ["--war-down", "--pickup", "--games", "Rules: two players"] {
        assert!(war.contains(option), "warsim-simulate-war.1 lacks {option}");
    }
    assert!(roff_text(&read(&man1, "warsim-exact-war.1")).contains("--war-down"));
    assert!(!pages.iter().any(|p| p.contains("help")), "{pages:?}");
}

#[test]
fn play_war_says_which_game_seed_and_rules_it_played() {
    let text = ok(&[
        "play",
        "war",
        "--seed",
        "5",
        "--game",
        "299999",
        "--war-down",
        "2",
    ]);
    let first = text.lines().next().unwrap();
    assert!(first.starts_with("war, game 299999 of seed 5: "), "{text}");
    assert!(
        first.contains("2 down") && first.contains("pickup shuffled"),
        "{text}"
    );
    let dir = Scratch::new("play-from");
    let run = dir.path("run");
    ok(&[
        "simulate",
        "war",
        "--games",
        "50",
        "--seed",
        "7",
        "--pickup",
        "p1-first",
        "--out",
        s(&run),
    ]);
    let longest = crate::util::json(&read(&run, "summary.json"))["longest_game"]
        .as_u64()
        .unwrap();
    let text = ok(&["play", "war", "--from", s(&run)]);
    let want = format!(
        "war, game {longest} of seed 7 (the run in {}, its longest): ",
        run.display()
    );
    assert!(
        text.starts_with(&want) && text.contains("pickup p1-first"),
        "{want}\n{text}"
    );
    let text = ok(&["play", "war", "--from", s(&run), "--game", "3"]);
    assert!(
        text.starts_with(&format!(
            "war, game 3 of seed 7 (the run in {}): ",
            run.display()
        )),
        "{text}"
    );
}

#[test]
fn play_snap_tells_a_loop_from_a_stalemate() {
    for (piles, answer, note) in [
        (
            &["bdad", "acbc", "abba"][..],
            "1 3",
            "loop: the state after turn 62 repeats the state after turn 14 (cycle of 48 turns)",
        ),
        (&["abba", "acab"][..], "1 2", "stalemate at turn 71"),
        (&["abba", "abca"][..], "2", ""),
    ] {
        let mut args = vec!["play", "snap"];
        args.extend_from_slice(piles);
        let out = warsim(&args);
        assert!(out.status.success());
        // stdout stays the seed's answer; the note says how the game ended.
        assert_eq!(String::from_utf8_lossy(&out.stdout), format!("{answer}\n"));
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.is_empty(), note.is_empty(), "{piles:?}: {err}");
        assert!(err.contains(note), "{piles:?}: {err}");
    }
    let json = warsim(&["play", "snap", "abba", "acab", "--json"]);
    assert!(json.stderr.is_empty(), "--json notes nothing");
}

#[test]
fn exact_output_reads_as_exact() {
    let text = ok(&[
        "exact", "war", "--ranks", "3", "--suits", "4", "--pickup", "p1-first",
    ]);
    for absent in ["95% interval", "{", "\"", "games/s"] {
        assert!(
            !text.contains(absent),
            "exact text shows {absent:?}: {text}"
        );
    }
    for present in [
        "every one of 34,650 distinct deals",
        "deals 34,650",
        "p1 2329/5775 = 0.403290",
        "loop 41/1050 = 0.039048",
        "1,353 of the 34,650 deals never end (41/1050, 3.905%)",
        "fitted to 3,054 deals",
        "longest   deal number 4483 (44 rounds)",
    ] {
        assert!(
            text.contains(present),
            "exact text lacks {present:?}: {text}"
        );
    }
    let chain = crate::util::json(&ok(&[
        "exact", "war", "--ranks", "3", "--suits", "2", "--json",
    ]));
    let method = chain["method"].as_str().unwrap();
    assert!(
        method.contains("Gauss-Seidel") && !method.contains("  "),
        "{method}"
    );
}

#[test]
fn compare_prints_p_values_readably() {
    let dir = Scratch::new("compare-p");
    let (a, b, c, out) = (dir.path("a"), dir.path("b"), dir.path("c"), dir.path("out"));
    ok(&["simulate", "war", "--games", "3000", "--out", s(&a)]);
    ok(&[
        "simulate",
        "war",
        "--games",
        "3000",
        "--seed",
        "1",
        "--out",
        s(&b),
    ]);
    ok(&[
        "simulate",
        "war",
        "--games",
        "3000",
        "--pickup",
        "p1-first",
        "--war-down",
        "1",
        "--out",
        s(&c),
    ]);
    let text = ok(&["compare", s(&a), s(&b), s(&c), "--out", s(&out)]);
    let ks: Vec<&str> = text.lines().filter(|l| l.starts_with("KS ")).collect();
    assert_eq!(ks.len(), 3, "{text}");
    // Two runs of the same rules: a plain decimal; rules far apart: a bound, not `0.000e0`.
    assert!(
        ks[0].starts_with("KS 1 vs 2") && ks[0].contains("p = 0."),
        "{text}"
    );
    assert!(
        ks[1].starts_with("KS 1 vs 3") && ks[1].contains("  p < 1e-300  Holm p < 1e-300"),
        "{text}"
    );
    assert!(
        !text.contains("e0") && text.contains("(3,000 games"),
        "{text}"
    );
}

#[test]
fn terminal_numbers_have_thousands_separators_and_summary_json_keeps_its_form() {
    let dir = Scratch::new("separators");
    let out = dir.path("snap");
    let text = ok(&["simulate", "snap", "--games", "2000", "--out", s(&out)]);
    assert!(
        text.starts_with("snap — 2 players, 13 faces × 4 copies, loops detected, cap 10,000,000\n"),
        "{text}"
    );
    assert!(text.contains("2,000 games, seed 0"), "{text}");
    let summary = crate::util::json(&read(&out, "summary.json"));
    assert!(
        summary["description"]
            .as_str()
            .unwrap()
            .ends_with("cap 10000000"),
        "{summary}"
    );
    // What the charts, report.html and README.md say of the rules is grouped as the terminal
    // says it; Snap counts turns.
    let readme = read(&out, "README.md");
    assert!(readme.contains("cap 10,000,000"), "{readme}");
    assert!(readme.contains("Turns per game: mean 150.822"), "{readme}");
    assert!(!readme.contains("cap 10000000"), "{readme}");
    let report = read(&out, "report.html");
    assert!(!report.contains("cap 10000000"), "report.html");
    let long = ok(&[
        "simulate",
        "war",
        "--games",
        "300",
        "--pickup",
        "p1-first",
        "--war-down",
        "1",
    ]);
    let extremes = long
        .lines()
        .find(|l| l.trim_start().starts_with("min "))
        .unwrap();
    let max: &str = extremes.rsplit(' ').next().unwrap();
    assert!(
        max.contains(','),
        "a maximum of more than 9,999 rounds is grouped: {long}"
    );
}

#[test]
fn by_p1_top_prints_its_groups_on_the_terminal() {
    let args = [
        "simulate", "war", "--by", "p1-top", "--games", "5000", "--seed", "2",
    ];
    let text = ok(&args);
    let v = crate::util::json(&ok(&[&args[..], &["--json"]].concat()));
    let by = v["by"].as_object().unwrap();
    assert_eq!(by.len(), 5, "{v}");
    let at = text
        .find(
            "\nby        top-rank cards player 1 is dealt: mean and median of each group's games; \
             shares of all its games\n",
        )
        .unwrap_or_else(|| panic!("{text}"));
    let rows: Vec<Vec<&str>> = text[at..]
        .lines()
        .skip(3)
        .take(by.len())
        .map(|l| l.split_whitespace().collect())
        .collect();
    for (row, (group, g)) in rows.iter().zip(by) {
        let games = g["games"].as_u64().unwrap();
        let mean = g["rounds"]["mean"].as_f64().unwrap();
        let p1 = g["shares"]["p1"]["share"].as_f64().unwrap();
        assert_eq!(row[0], group.as_str(), "{text}");
        assert_eq!(
            row[1].replace(',', "").parse::<u64>().unwrap(),
            games,
            "{text}"
        );
        assert_eq!(row[2], format!("{mean:.2}"), "{text}");
        assert_eq!(
            *row.iter().rev().nth(1).unwrap(),
            format!("{:.3}%", 100.0 * p1),
            "{text}"
        );
    }
}
