//! Statistics that say what they mean: the tail verdict's share is of all games, as
//! histogram.csv counts them; the quantiles' intervals cover the true quantiles.

use crate::util::{json, ok, read, s, Scratch};

/// The share of all games in `dir` longer than `t` rounds, from histogram.csv alone: the games
/// that end after `t`, and every game that loops or was capped (still going at any t).
fn still_going(dir: &std::path::Path, t: u64) -> f64 {
    let text = read(dir, "histogram.csv");
    let mut lines = text.lines();
    let head: Vec<&str> = lines.next().unwrap().split(',').collect();
    let col = |name: &str| head.iter().position(|h| *h == name);
    let (mut games, mut going) = (0u64, 0u64);
    for line in lines {
        let cells: Vec<u64> = line.split(',').map(|c| c.parse().unwrap()).collect();
        let endless: u64 = ["loop", "capped"]
            .iter()
            .filter_map(|o| col(o).map(|i| cells[i]))
            .sum();
        games += cells[1];
        going += endless + if cells[0] > t { cells[1] - endless } else { 0 };
    }
    going as f64 / games as f64
}

/// The tail line's first share is the share of all games still going far out, which
/// histogram.csv gives (not the share of the fitted games, ten times larger); the terminal
/// prints it as summary.json records it, and a loop run names the games that end apart.
#[test]
fn the_tail_verdict_gives_the_share_of_all_games_as_the_histogram_does() {
    let scratch = Scratch::new("tail-share");
    for (name, extra) in [("classic", vec![]), ("loops", vec!["--pickup", "p1-first"])] {
        let dir = scratch.path(name);
        let mut args = vec!["simulate", "war", "--games", "20000", "--seed", "4"];
        args.extend(extra);
        args.extend(["--out", s(&dir)]);
        let text = ok(&args);
        let v = json(&read(&dir, "summary.json"));
        let check = &v["tail"]["check"];
        let far = check["far_rounds"].as_u64().unwrap();
        let all = check["far_all"].as_f64().unwrap();
        assert_eq!(all, still_going(&dir, far), "{name}");
        let observed = check["far_observed"].as_f64().unwrap();
        let line = text.lines().find(|l| l.contains("games still go")).unwrap();
        let shown = format!(
            "at {} rounds {:.3}% of all games still go",
            grouped(far),
            100.0 * all
        );
        assert!(line.contains(&shown), "{name}: {line} lacks {shown}");
        assert!(
            line.contains(&format!(
                "fitted (beyond {} rounds) {:.3}%",
                grouped(v["tail"]["from"].as_u64().unwrap()),
                100.0 * observed
            )),
            "{name}: {line}"
        );
        let report = read(&dir, "report.html");
        assert!(report.contains(&shown), "{name}: report.html lacks {shown}");
        if name == "loops" {
            let ended = check["far_ended"].as_f64().unwrap();
            assert!(all > 0.3 && ended < 0.01, "{check}");
            assert!(line.contains(&format!("{:.3}% of the games that end", 100.0 * ended)));
        } else {
            assert_eq!(check["far_ended"], check["far_all"]);
            // The fit starts at the 90th percentile: the fitted games' share is ten times.
            assert!((observed / all - 10.0).abs() < 0.5, "{check}");
        }
    }
}

fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Each quantile's 95% interval (median, p1 … p99.9), from 2,000 games of a War deck small
/// enough to know exactly (5 ranks × 2 suits, p1-first pickup: 113,400 deals, none loops),
/// covers the true quantile (nearest rank over every deal) in at least 93 of 100 seeds.
#[test]
fn quantile_intervals_cover_the_exact_quantiles() {
    let rules = ["--ranks", "5", "--suits", "2", "--pickup", "p1-first"];
    let mut args = vec!["exact", "war", "--json"];
    args.extend(rules);
    let exact = json(&ok(&args));
    assert_eq!(exact["outcomes"]["loop"], 0, "every deal ends");
    let truth = |k: &str| -> u64 {
        let r = &exact["rounds"];
        let v = if k == "median" {
            &r["median"]
        } else {
            &r["quantiles"][k]
        };
        v.as_u64().unwrap()
    };
    let keys = ["median", "p1", "p5", "p25", "p75", "p95", "p99", "p99.9"];
    let mut covered = [0u32; 8];
    let mut bounded = [0u32; 8];
    for seed in 0..100 {
        let seed = seed.to_string();
        let mut args = vec![
            "simulate", "war", "--games", "2000", "--seed", &seed, "--json",
        ];
        args.extend(rules);
        let v = json(&ok(&args));
        let r = &v["rounds"];
        for (i, k) in keys.iter().enumerate() {
            let b = if *k == "median" {
                &r["median_ci95"]
            } else {
                &r["quantiles_ci95"][k]
            };
            let end = |j: usize| b[j].as_u64();
            let (lo, hi) = (end(0).unwrap_or(0), end(1).unwrap_or(u64::MAX));
            bounded[i] += u32::from(end(0).is_some() && end(1).is_some());
            covered[i] += u32::from(lo <= truth(k) && truth(k) <= hi);
            // The estimate itself lies in its interval.
            let est = if *k == "median" {
                &r["median"]
            } else {
                &r["quantiles"][k]
            };
            let est = est.as_u64().unwrap();
            assert!(lo <= est && est <= hi, "seed {seed} {k}: {est} outside {b}");
        }
    }
    for (i, k) in keys.iter().enumerate() {
        assert!(
            covered[i] >= 93,
            "{k}: covered in {} of 100 runs",
            covered[i]
        );
    }
    // Of 2,000 games every quantile but p99.9 is bounded on both sides.
    assert!(bounded[..7].iter().all(|&b| b == 100), "{bounded:?}");
    assert_eq!(bounded[7], 0, "p99.9 of 2,000 games has no upper end");
}

/// `exact` says how many of how many deals never end, with the fraction in lowest terms only
/// where it says more: `0 of the 113,400 deals`, never `0/1`.
#[test]
fn exact_counts_its_deals_as_counts() {
    let text = ok(&[
        "exact", "war", "--ranks", "5", "--suits", "2", "--pickup", "p1-first",
    ]);
    let line = text.lines().find(|l| l.starts_with("loops ")).unwrap();
    assert_eq!(line, "loops     0 of the 113,400 deals never end (0.000%)");
}

/// One count is one text on one screen: a single capped game of 200,000 (as a share,
/// 0.00050%) reads the same in the outcomes line and the capped line.
#[test]
fn one_count_reads_the_same_everywhere() {
    let text = ok(&[
        "simulate",
        "war",
        "--games",
        "200000",
        "--max-rounds",
        "2600",
        "--seed",
        "1",
    ]);
    let capped = text.lines().find(|l| l.starts_with("capped ")).unwrap();
    let outcomes = text.lines().find(|l| l.starts_with("outcomes ")).unwrap();
    let share = capped.split(['(', ')']).nth(1).unwrap();
    assert_eq!(share, "0.00050%", "{capped}");
    assert!(outcomes.contains("capped 1 (0.00050%)"), "{outcomes}");
}

/// `compare` refuses runs whose lengths are different quantities (Beggar-my-neighbour's cards
/// against War's rounds; War on two decks) in one line naming both, and records what it
/// compares: each run's game, rules, seed and game indices, every pair's raw and Holm-adjusted
/// p, how many pairs were tested, and which pairs played the same deals.
#[test]
fn compare_knows_what_it_compares() {
    let dir = Scratch::new("compare-what");
    let run = |name: &str, extra: &[&str]| {
        let out = dir.path(name);
        let mut args = vec!["simulate"];
        args.extend(extra);
        args.extend(["--games", "2000", "--quiet", "--out", s(&out)]);
        ok(&args);
        out
    };
    let war = run("war", &["war"]);
    let bmn = run("bmn", &["bmn"]);
    let small = run("small", &["war", "--ranks", "8"]);
    let down1 = run("down1", &["war", "--war-down", "1"]);
    let seed1 = run("seed1", &["war", "--seed", "1"]);
    let out = dir.path("cmp");
    for other in [&bmn, &small] {
        let line = crate::util::fails(2, &["compare", s(&war), s(other), "--out", s(&out)]);
        assert_eq!(line.lines().count(), 1, "{line}");
        assert!(line.contains(s(&war)) && line.contains(s(other)), "{line}");
        assert!(
            line.contains("not the same game on the same deck"),
            "{line}"
        );
        assert!(!out.exists());
    }
    let args = ["compare", s(&war), s(&down1), s(&seed1), "--out", s(&out)];
    let text = ok(&args);
    let v = json(&read(&out, "compare.json"));
    assert_eq!(v["pairs_tested"], 3);
    for (r, seed) in v["runs"].as_array().unwrap().iter().zip([0, 0, 1]) {
        assert_eq!(r["game"], "war");
        assert_eq!(r["seed"], seed);
        assert_eq!(
            (r["first_game"].as_u64(), r["end_game"].as_u64()),
            (Some(0), Some(2000))
        );
        assert_eq!(r["rules"]["ranks"], 13);
    }
    let ks = v["ks"].as_array().unwrap();
    let raw: Vec<f64> = ks.iter().map(|p| p["p"].as_f64().unwrap()).collect();
    for (p, r) in ks.iter().zip(&raw) {
        let holm = p["p_holm"].as_f64().unwrap();
        assert!(holm >= *r && holm <= (3.0 * r).min(1.0) + 1e-12, "{p}");
    }
    // war and down1 played the same 2,000 deals (seed 0); seed1 shares none with either.
    let shared: Vec<u64> = ks
        .iter()
        .map(|p| p["shared_deals"].as_u64().unwrap())
        .collect();
    assert_eq!(shared, [2000, 0, 0]);
    assert!(text.contains("pairs     3 tested"), "{text}");
    let first = text.lines().find(|l| l.starts_with("KS 1 vs 2")).unwrap();
    assert!(
        first.contains("Holm p") && first.contains("2,000 deals in common"),
        "{first}"
    );
    assert!(text
        .lines()
        .filter(|l| l.starts_with("run "))
        .all(|l| l.contains("war — ")));
    assert!(read(&out, "report.html").contains("Holm"));
    // The same seed split among three players deals other hands: no deals in common, no pairing.
    let three = run("three", &["war", "--players", "3"]);
    let out3 = dir.path("cmp3");
    let text = ok(&["compare", s(&war), s(&three), "--out", s(&out3)]);
    let pair = &json(&read(&out3, "compare.json"))["ks"][0];
    assert_eq!(pair["shared_deals"], 0, "{pair}");
    assert!(pair["paired"].is_null(), "{pair}");
    assert!(
        !text.contains("in common") && !text.contains("paired over"),
        "{text}"
    );
}

/// Two rule sets of one sweep played the same deals: compare re-plays both in lockstep, and
/// the mean of the per-deal differences is exactly the difference of the runs' means (their
/// integer sums from histogram.csv), with an interval narrower than two independent samples'.
#[test]
fn compare_pairs_the_rule_sets_of_a_sweep_deal_by_deal() {
    let dir = Scratch::new("compare-paired");
    let sw = dir.path("sw");
    ok(&[
        "sweep",
        "war",
        "--war-down",
        "1,3",
        "--games",
        "2000",
        "--quiet",
        "--out",
        s(&sw),
    ]);
    let (a, b) = (sw.join("war-down-1"), sw.join("war-down-3"));
    let out = dir.path("cmp");
    let text = ok(&["compare", s(&a), s(&b), "--out", s(&out)]);
    let v = json(&read(&out, "compare.json"));
    let q = &v["ks"][0]["paired"];
    let sum = |d: &std::path::Path| -> (u64, u64) {
        read(d, "histogram.csv")
            .lines()
            .skip(1)
            .fold((0, 0), |(s, n), l| {
                let c: Vec<u64> = l.split(',').take(2).map(|x| x.parse().unwrap()).collect();
                (s + c[0] * c[1], n + c[1])
            })
    };
    let ((sa, n), (sb, _)) = (sum(&a), sum(&b));
    let want = (sa as i128 - sb as i128) as f64 / n as f64;
    assert_eq!(q["mean_difference"].as_f64().unwrap(), want, "{q}");
    let ci = q["ci95"].as_array().unwrap();
    let half = (ci[1].as_f64().unwrap() - ci[0].as_f64().unwrap()) / 2.0;
    assert!(half < q["unpaired_half_width"].as_f64().unwrap(), "{q}");
    let longer =
        q["a_longer"]["count"].as_u64().unwrap() + q["b_longer"]["count"].as_u64().unwrap();
    assert!(longer <= n);
    assert!(text.contains("paired over games 0..2000"), "{text}");
}
