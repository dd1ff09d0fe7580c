//! The `README.md` an output directory carries, so a folder copied into a paper's supplement
//! says what ran, when, and what each file holds.

use std::fmt::Write as _;

use super::summary::Summary;
use crate::stats::summary::grouped;

/// What each file of a set holds, in the order listed.
const FILES: [(&str, &str); 7] = [
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
        "histogram.png",
        "the distribution of rounds with min, median, mean and max marked",
    ),
    ("histogram.svg", "the same chart as SVG"),
    ("README.md", "this file"),
];

/// The README of a set holding `files`.
pub fn readme<J>(s: &Summary<J>, files: &[&str]) -> String {
    let mut t = String::new();
    let _ = writeln!(t, "# warsim output: {}\n\n{}\n", s.game, s.description);
    if let Some(p) = &s.provenance {
        let _ = writeln!(
            t,
            "Written by {} on {} with:\n\n    {}\n",
            p.program, p.date, p.command
        );
    }
    let _ = write!(t, "{} games, seed {}", grouped(s.games), s.seed);
    if let Some(shard) = &s.run.shard {
        let _ = write!(
            t,
            ", shard {shard} (games {}..{})",
            s.run.first_game, s.run.end_game
        );
    }
    if let Some(d) = &s.rounds {
        let _ = write!(t, ". Rounds per game: mean {:.3}", d.mean);
        if let Some([lo, hi]) = d.ci95 {
            let _ = write!(t, " (95% interval {lo:.3} to {hi:.3})");
        }
        let _ = write!(t, ", median {}, min {}, max {}", d.median, d.min, d.max);
    }
    let _ = writeln!(t, ".\n\n| file | what it holds |\n| --- | --- |");
    for (name, what) in FILES.iter().filter(|(n, _)| files.contains(n)) {
        let _ = writeln!(t, "| `{name}` | {what} |");
    }
    let _ = writeln!(
        t,
        "\nStatistics are computed from the exact counts in histogram.csv; the same command gives \
         the same histogram on any number of threads or machines."
    );
    t
}
