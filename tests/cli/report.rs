//! report.html, --markdown, --svg without --out, and the README's list of files (issue 29).

use crate::util::{fails, json, listing, ok, read, s, Scratch};
use std::path::Path;
use warsim::stats::summary::fixed;

/// No `src=` or `href=` of `page` names a network address.
fn assert_nothing_remote(page: &str) {
    let lower = page.to_ascii_lowercase();
    for attr in ["src=", "href=", "url("] {
        for (at, _) in lower.match_indices(attr) {
            let value = lower[at + attr.len()..].trim_start_matches(['"', '\'', ' ']);
            assert!(
                !value.starts_with("http:")
                    && !value.starts_with("https:")
                    && !value.starts_with("//"),
                "a remote {attr} at {at}: {}",
                &page[at..(at + 80).min(page.len())]
            );
        }
    }
    assert!(!lower.contains("<script"), "no script");
    assert!(!lower.contains("<link"), "no linked stylesheet");
}

/// The files `README.md` of `dir` lists, in its table.
fn listed(dir: &Path) -> Vec<String> {
    read(dir, "README.md")
        .lines()
        .filter_map(|l| l.strip_prefix("| `"))
        .filter_map(|l| l.split('`').next())
        .map(str::to_string)
        .collect()
}

/// The README of `dir` lists exactly the files in it.
fn assert_readme_lists_what_is_there(dir: &Path) {
    let mut there: Vec<String> = listing(dir)
        .into_iter()
        .filter(|f| (!f.starts_with('.') || f == ".warsim-set") && dir.join(f).is_file())
        .collect();
    let mut named = listed(dir);
    there.sort();
    named.sort();
    assert_eq!(named, there, "{}", dir.display());
}

#[test]
fn a_runs_readme_lists_every_file_it_wrote_and_no_other() {
    let dir = Scratch::new("readme-list");
    for (name, args) in [
        ("plain", &["simulate", "war", "--games", "300"][..]),
        (
            "all",
            &[
                "simulate", "war", "--pickup", "p1-first", "--by", "p1-top", "--svg", "--games",
                "300",
            ][..],
        ),
        (
            "rps",
            &["simulate", "rps", "--players", "3", "--games", "100"][..],
        ),
    ] {
        let out = dir.path(name);
        let mut argv = args.to_vec();
        argv.extend(["--out", s(&out)]);
        ok(&argv);
        assert_readme_lists_what_is_there(&out);
    }
    let all = listed(&dir.path("all"));
    for f in [
        "survival.png",
        "survival.svg",
        "by.png",
        "by.svg",
        "by.csv",
        "cycles.csv",
        "report.html",
    ] {
        assert!(all.contains(&f.to_string()), "{f} in {all:?}");
    }
}

#[test]
fn report_html_holds_what_ran_the_summary_and_every_chart_inline() {
    let dir = Scratch::new("report");
    // A hostile folder name: it is in the command line the page shows.
    let out = dir.path("run<b>&\"x'");
    ok(&[
        "simulate",
        "war",
        "--pickup",
        "p1-first",
        "--by",
        "p1-top",
        "--games",
        "2000",
        "--out",
        s(&out),
    ]);
    let page = read(&out, "report.html");
    let summary = json(&read(&out, "summary.json"));
    assert!(page.starts_with("<!DOCTYPE html>"));
    // Histogram, survival and by: three inline charts.
    assert_eq!(page.matches("<svg").count(), 3, "three charts");
    assert!(!page.contains("<?xml"));
    let mean = summary["rounds"]["mean"].as_f64().unwrap();
    let [lo, hi] = [0, 1].map(|i| summary["rounds"]["ci95"][i].as_f64().unwrap());
    // Numbers read as the terminal prints them: 1,908.222.
    let shown = |x: f64| fixed(x, 3);
    assert!(page.contains(&shown(mean)), "the mean {}", shown(mean));
    assert!(
        page.contains(&format!("{} to {}", shown(lo), shown(hi))),
        "its interval"
    );
    for what in [
        "What ran",
        "<td>pickup</td><td>p1-first</td>",
        "<td>war down</td><td class=\"n\">3</td>",
        "<td>max rounds</td><td class=\"n\">10,000,000</td>",
        "mean rounds (games that end)",
        "loop (never ends)",
        "cycle length",
        "tail (e-folding rounds)",
        "even length",
        "Groups: per number of",
        summary["provenance"]["program"].as_str().unwrap(),
        summary["description"].as_str().unwrap(),
    ] {
        assert!(page.contains(what), "{what:?} missing");
    }
    // Settings that are not set are left out, not shown as null; keys read as words.
    assert!(
        !page.contains("null") && !page.contains("war_down"),
        "readable rules"
    );
    assert!(!page.contains("run<b>"), "the folder name is escaped");
    assert!(page.contains("run&lt;b&gt;&amp;"), "and shown");
    assert_nothing_remote(&page);
}

#[test]
fn sweep_compare_merge_and_exact_write_report_html() {
    let dir = Scratch::new("report-sets");
    let sw = dir.path("sweep");
    ok(&[
        "simulate",
        "war",
        "--games",
        "200",
        "--out",
        s(&dir.path("a")),
    ]);
    ok(&[
        "sweep",
        "war",
        "--war-down",
        "1,2",
        "--pickup",
        "shuffled,p1-first",
        "--games",
        "200",
        "--out",
        s(&sw),
    ]);
    let page = read(&sw, "report.html");
    for label in [
        "war-down 1, pickup shuffled",
        "war-down 2, pickup p1-first",
        "<a href=\"war-down-2_pickup-p1-first/report.html\">",
        "median rounds of the games that end",
    ] {
        assert!(page.contains(label), "{label}");
    }
    // Every rule set's row links its own report, which is there.
    for link in page.split("<a href=\"").skip(1) {
        let target = &link[..link.find('"').unwrap()];
        assert!(sw.join(target).is_file(), "{target} is linked and missing");
    }
    assert_eq!(page.matches("<a href=").count(), 4, "a link per rule set");
    assert_eq!(page.matches("<svg").count(), 2, "sweep and means");
    assert_nothing_remote(&page);
    assert!(sw.join("war-down-1_pickup-shuffled/report.html").is_file());
    let cmp = dir.path("cmp");
    ok(&[
        "compare",
        s(&dir.path("a")),
        s(&sw.join("war-down-1_pickup-p1-first")),
        "--out",
        s(&cmp),
    ]);
    let page = read(&cmp, "report.html");
    assert_eq!(page.matches("<svg").count(), 1);
    assert!(page.contains("1 vs 2") && page.contains("pickup p1-first"));
    assert_nothing_remote(&page);
    for (kind, args) in [
        (
            "shard",
            vec!["simulate", "rps", "--games", "100", "--shard", "0/1"],
        ),
        (
            "exact",
            vec![
                "exact", "war", "--ranks", "3", "--suits", "2", "--pickup", "p1-first",
            ],
        ),
    ] {
        let out = dir.path(kind);
        let mut argv = args.clone();
        argv.extend(["--out", s(&out)]);
        ok(&argv);
        assert!(read(&out, "report.html").contains("<svg"), "{kind}");
    }
    // A chain solution (shuffled pickup) has no histogram: its page is its values.
    let chain = dir.path("chain");
    let solve = [
        "exact",
        "war",
        "--ranks",
        "3",
        "--suits",
        "2",
        "--out",
        s(&chain),
    ];
    ok(&solve);
    // A page a person reads: the answer in words and readable numbers, not the JSON's keys;
    // a README and a written line as every run's.
    let page = read(&chain, "report.html");
    assert!(
        page.contains("expected rounds (no round cap)") && page.contains("3.691666666667"),
        "{page}"
    );
    assert!(
        !page.contains("p1_cards") && !page.contains("mean_rounds"),
        "{page}"
    );
    let readme = read(&chain, "README.md");
    assert!(
        readme.contains("no round cap") && !readme.contains("cap 100,000"),
        "{readme}"
    );
    let again = ok(&solve);
    assert!(
        again.contains("written   ") && again.contains("(chain.json, report.html, README.md)"),
        "{again}"
    );
    let merged = dir.path("merged");
    let table = ok(&[
        "merge",
        s(&dir.path("shard")),
        "--out",
        s(&merged),
        "--markdown",
    ]);
    assert!(
        table.starts_with("| statistic | value | 95% interval |\n")
            && table.contains("| games | 100 |"),
        "{table}"
    );
    assert_nothing_remote(&read(&merged, "report.html"));
    assert_readme_lists_what_is_there(&merged);
}

#[test]
fn markdown_prints_the_summary_as_a_table_and_nothing_else() {
    let out = ok(&[
        "simulate",
        "rps",
        "--players",
        "3",
        "--games",
        "1000",
        "--markdown",
    ]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "| statistic | value | 95% interval |");
    assert_eq!(lines[1], "| :--- | ---: | ---: |");
    assert!(
        lines
            .iter()
            .all(|l| l.starts_with("| ") && l.ends_with(" |")),
        "{out}"
    );
    let v = json(&ok(&[
        "simulate",
        "rps",
        "--players",
        "3",
        "--games",
        "1000",
        "--json",
    ]));
    let mean = v["rounds"]["mean"].as_f64().unwrap();
    let [lo, hi] = [0, 1].map(|i| v["rounds"]["ci95"][i].as_f64().unwrap());
    let row = format!("| mean rounds | {mean:.3} | {lo:.3} to {hi:.3} |");
    assert!(lines.contains(&row.as_str()), "{row} in {out}");
    assert!(out.contains("| outcome p1 |"));
    let line = fails(2, &["simulate", "rps", "--markdown", "--json"]);
    assert!(
        line.contains("--markdown") || line.contains("--json"),
        "{line}"
    );
    let exact = ok(&["exact", "war", "--ranks", "3", "--suits", "2", "--markdown"]);
    assert!(
        exact.starts_with("| figure | value |") && exact.contains("| deals, equally likely |"),
        "{exact}"
    );
}

#[test]
fn svg_without_out_is_a_usage_error() {
    for args in [
        &["simulate", "rps", "--games", "10", "--svg"][..],
        &["exact", "war", "--ranks", "3", "--suits", "2", "--svg"][..],
    ] {
        let line = fails(2, args);
        assert!(line.contains("--svg") && line.contains("--out"), "{line}");
    }
}

#[test]
fn capped_and_looping_games_are_told_apart_on_the_terminal_and_in_a_sweep() {
    let text = ok(&[
        "simulate",
        "war",
        "--rules",
        "bryer",
        "--max-rounds",
        "300",
        "--games",
        "500",
    ]);
    let capped = text
        .lines()
        .find(|l| l.starts_with("capped "))
        .unwrap_or("");
    assert!(capped.contains("stopped at the round cap"), "{text}");
    let dir = Scratch::new("sweep-unended");
    let out = ok(&[
        "sweep",
        "war",
        "--pickup",
        "p1-first,shuffled",
        "--max-rounds",
        "300",
        "--games",
        "300",
        "--out",
        s(&dir.path("sw")),
    ]);
    let p1 = out.lines().find(|l| l.contains("pickup p1-first")).unwrap();
    assert!(p1.contains("loop forever"), "{p1}");
    let shuffled = out.lines().find(|l| l.contains("pickup shuffled")).unwrap();
    assert!(
        shuffled.contains("stopped at the round cap") && !shuffled.contains("loop"),
        "{shuffled}"
    );
}

/// Where some games never end, the terminal leads with the games that end, named, and gives
/// all games further down; where every game ends, it leads with all games as before.
#[test]
fn the_rounds_a_reader_means_lead_and_are_named() {
    let text = ok(&["simulate", "war", "--pickup", "p1-first", "--games", "2000"]);
    let lead = text.lines().find(|l| l.starts_with("rounds ")).unwrap();
    assert!(
        lead.contains("games that end (") && lead.contains("mean"),
        "{text}"
    );
    let all = text.lines().find(|l| l.starts_with("all games ")).unwrap();
    assert!(all.contains("a game that loops counts the round"), "{text}");
    let text = ok(&["simulate", "war", "--games", "2000"]);
    let lead = text.lines().find(|l| l.starts_with("rounds ")).unwrap();
    assert!(lead.starts_with("rounds    mean"), "{text}");
    // No block of all games (the tail verdict names all games' share far out).
    assert!(!text.lines().any(|l| l.starts_with("all games ")), "{text}");
}

/// report.html writes a share's interval as the terminal does: no loop in 2,000 games still
/// has an upper bound above 0%, and a sweep's rule set that does not look for loops writes —.
#[test]
fn a_share_of_none_keeps_its_upper_bound_and_loops_not_looked_for_are_a_dash() {
    let dir = Scratch::new("zero-share");
    let out = dir.path("bmn");
    ok(&[
        "simulate",
        "bmn",
        "--games",
        "2000",
        "--quiet",
        "--out",
        s(&out),
    ]);
    let page = read(&out, "report.html");
    assert!(page.contains("0.000% to 0.19"), "{page}");
    let sw = dir.path("sw");
    ok(&[
        "sweep",
        "war",
        "--pickup",
        "p1-first,shuffled",
        "--games",
        "300",
        "--quiet",
        "--out",
        s(&sw),
    ]);
    let page = read(&sw, "report.html");
    assert!(page.contains("<td>—</td>"), "{page}");
}

/// `sweep --markdown` prints the rule sets side by side, as report.html's table.
#[test]
fn a_sweep_prints_its_rule_sets_as_markdown() {
    let dir = Scratch::new("sweep-md");
    let out = ok(&[
        "sweep",
        "war",
        "--pickup",
        "shuffled,p1-first",
        "--games",
        "300",
        "--markdown",
        "--out",
        s(&dir.path("sw")),
    ]);
    let lines: Vec<&str> = out.lines().collect();
    assert!(
        lines[0].starts_with("| rule set | its report | games |"),
        "{out}"
    );
    assert_eq!(lines.len(), 4, "{out}");
    assert!(
        lines[2].contains("pickup shuffled") && lines[2].contains("| — |"),
        "{out}"
    );
}
