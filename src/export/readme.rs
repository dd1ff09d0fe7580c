//! The `README.md` an output directory carries, so a folder copied into a paper's supplement
//! says what ran, when, and what each file holds.

use std::fmt::Write as _;

use crate::games::Unit;
use crate::model::summary::Summary;
use crate::stats::summary::{counted, fixed, grouped, grouped_in, pct, Distribution};
use crate::store::MARKER;

/// What each file a run can write holds, in the order listed. The README lists the files the
/// run wrote, each with its line here (a test checks every file a run writes has one).
const FILES: [(&str, &str); 18] = [
    (
        "summary.json",
        "every statistic of the run, and the rules and command that made it",
    ),
    (
        "summary.csv",
        "the scalar statistics and the rule settings as one table row",
    ),
    (
        "histogram.csv",
        "games per round count, split by outcome: the exact counts every statistic comes from",
    ),
    ("cycles.csv", "looping games per cycle length"),
    (
        "by.csv",
        "each group's histogram (`--by`): games per round count and outcome",
    ),
    (
        "histogram.png",
        "the distribution of rounds with min, median, mean and max marked",
    ),
    ("histogram.svg", "the same chart as SVG"),
    (
        "survival.png",
        "the share of games still going after t rounds, log scale, with the fitted tail",
    ),
    ("survival.svg", "the same chart as SVG"),
    (
        "by.png",
        "player 1's share of wins and the mean rounds per group (`--by`)",
    ),
    ("by.svg", "the same chart as SVG"),
    (
        "quit.csv",
        "War `--quit-stats`: player 1's wins by the cards held after t rounds, and how often \
         the loser once held more than k cards, with shares and 95% intervals",
    ),
    (
        "quit.png",
        "War `--quit-stats`: player 1's share of wins against the cards held after t rounds",
    ),
    ("quit.svg", "the same chart as SVG"),
    (
        "places.png",
        "War with three players or more: who wins and where each player finishes, each \
         player's share of each place with 95% intervals",
    ),
    ("places.svg", "the same chart as SVG"),
    (
        "report.html",
        "one self-contained page with what ran, the summary and every chart; open it in a browser",
    ),
    ("README.md", "this file"),
];

/// What a line of [`FILES`] says in the game's `unit`: its rounds are the game's cards or
/// turns where it counts those.
fn in_unit(what: &str, unit: Unit) -> String {
    what.replace("rounds", unit.many)
        .replace("round count", &format!("{} count", unit.one))
}

/// The README of a set holding `files`, of a game whose rounds count `unit`.
pub fn readme<J>(s: &Summary<J>, unit: Unit, files: &[&str]) -> String {
    let mut t = String::new();
    let _ = writeln!(
        t,
        "# warsim output: {}\n\n{}\n",
        s.game,
        grouped_in(&s.description)
    );
    if let Some(p) = &s.provenance {
        let _ = writeln!(
            t,
            "Written by {} on {} with:\n\n    {}\n",
            p.program, p.date, p.command
        );
    }
    let _ = write!(t, "{}, seed {}", counted(s.games, "game"), s.seed);
    if let Some(shard) = &s.run.shard {
        let _ = write!(
            t,
            ", shard {shard} (games {}..{})",
            s.run.first_game, s.run.end_game
        );
    }
    // Where some games never end, the games that end lead, named, as on the terminal.
    let ended = (s.finished_rounds.as_ref())
        .and_then(Option::as_ref)
        .filter(|f| f.n > 0 && f.n < s.games);
    let mut many = unit.many.chars();
    let capital: String = (many.next().map(|c| c.to_ascii_uppercase()))
        .into_iter()
        .chain(many)
        .collect();
    match (ended, &s.rounds) {
        (Some(f), Some(d)) => {
            let _ = write!(
                t,
                ". {capital} of the {} that end ({}): {}; of all games, {} (a game that loops \
                 counts the {} its loop was found, a capped game the cap)",
                counted(f.n, "game"),
                pct(f.n as f64 / s.games as f64),
                figures(f),
                figures(d),
                unit.one
            );
        }
        (_, Some(d)) => {
            let _ = write!(t, ". {capital} per game: {}", figures(d));
        }
        _ => {}
    }
    let _ = writeln!(t, ".\n\n| file | what it holds |\n| --- | --- |");
    for (name, what) in FILES.iter().filter(|(n, _)| files.contains(n)) {
        let _ = writeln!(t, "| `{name}` | {} |", in_unit(what, unit));
    }
    let _ = writeln!(t, "| `{MARKER}` | {MARKER_LINE} |");
    let _ = writeln!(
        t,
        "\nStatistics are computed from the exact counts in histogram.csv; the same command gives \
         the same histogram on any number of threads or machines."
    );
    t
}

/// The mean with its interval, the median, min and max of `d`, as a sentence's clause.
fn figures(d: &Distribution) -> String {
    let ci = d.ci95.map_or_else(String::new, |[lo, hi]| {
        format!(" (95% interval {} to {})", fixed(lo, 3), fixed(hi, 3))
    });
    format!(
        "mean {}{ci}, median {}, min {}, max {}",
        fixed(d.mean, 3),
        grouped(d.median),
        grouped(d.min),
        grouped(d.max)
    )
}

/// What the hidden marker file of every set is for, as the set's README says it.
pub const MARKER_LINE: &str = "hidden: marks this folder as a warsim output set and names the \
     command that wrote it; a later run replaces the folder only when the marker names the same \
     kind of command, and a folder without it (or holding files of its own) is never replaced";

#[cfg(test)]
mod tests {
    use super::{in_unit, FILES};
    use crate::games::Unit;
    use crate::store::OUTPUT_FILES;

    #[test]
    fn a_files_line_says_the_games_unit() {
        let histogram = FILES.iter().find(|f| f.0 == "histogram.csv").unwrap().1;
        assert_eq!(
            in_unit(histogram, Unit::CARDS),
            "games per card count, split by outcome: the exact counts every statistic comes from"
        );
        assert_eq!(in_unit(histogram, Unit::ROUNDS), histogram);
        let survival = FILES.iter().find(|f| f.0 == "survival.png").unwrap().1;
        assert!(in_unit(survival, Unit::TURNS).contains("after t turns"));
    }

    #[test]
    fn every_file_a_run_writes_has_a_line() {
        // The files of a run's set (not of a sweep, a comparison, a chain or the flawless game).
        let other = |f: &&str| {
            [
                "compare.",
                "sweep.",
                "means.",
                "chain.json",
                "flawless.json",
                "search.json",
                "best.txt",
                "reaching.json",
                "deals.txt",
                "census.json",
                "cycles.txt",
            ]
            .iter()
            .any(|p| f.starts_with(p))
        };
        for f in OUTPUT_FILES.iter().filter(|f| !other(f)) {
            assert!(FILES.iter().any(|(n, _)| n == f), "{f} has no line");
        }
    }
}
