//! The readable summary printed on the terminal.

use std::fmt::Write as _;

use crate::games::{GameStats, Outcome, Unit};
use crate::model::report::{tail_verdict, Report, RunInfo, Timing};
use crate::stats::quantile::Bounds;
use crate::stats::summary::{counted, fixed, grouped, grouped_in, pct, Distribution, QUANTILES};

/// The groups of a run that groups its games (`--by`), a row each: what the groups count, then
/// each group's games, mean rounds with its interval, median and outcome shares, so the
/// terminal shows what summary.json's `by` holds.
fn groups_table<S: GameStats>(r: &Report<S>) -> Vec<String> {
    if r.groups.is_empty() {
        return Vec::new();
    }
    let mut head = vec![
        format!("{:>5}", "group"),
        format!("{:>11}", "games"),
        format!(
            "{:>28}",
            format!("mean {} (95% interval)", r.info.unit.many)
        ),
        format!("{:>8}", "median"),
    ];
    head.extend(r.outcomes.iter().map(|(o, _)| format!("{:>9}", o.name())));
    // Each figure's population: the games that end lead where some never do, as above.
    let of = match r.leading_ended() {
        Some(_) => format!(
            "mean and median of each group's {} that end",
            games_word(r.info)
        ),
        None => "mean and median of each group's games".into(),
    };
    let mut lines = vec![
        format!(
            "by        {}: {of}; shares of all its games",
            r.info.grouping.as_deref().unwrap_or("group")
        ),
        format!("          {}", head.join(" ")),
    ];
    for g in &r.groups {
        let (mean, median) = match g.leading() {
            Some(d) => (
                match d.ci95 {
                    Some([lo, hi]) if !r.info.exhaustive => {
                        format!(
                            "{} ({} to {})",
                            fixed(d.mean, 2),
                            fixed(lo, 2),
                            fixed(hi, 2)
                        )
                    }
                    _ => fixed(d.mean, 2),
                },
                grouped(d.median),
            ),
            None => ("-".into(), "-".into()),
        };
        let mut row = vec![
            format!("{:>5}", g.group),
            format!("{:>11}", grouped(g.games)),
            format!("{mean:>28}"),
            format!("{median:>8}"),
        ];
        row.extend(
            r.outcomes
                .iter()
                .map(|&(o, _)| format!("{:>9}", percent_of(g.share(o).count, g.games))),
        );
        lines.push(format!("          {}", row.join(" ")));
    }
    lines
}

/// The `exact` object of a summary as text: numbers as numbers (whole ones with separators),
/// shares given as fractions (`"2329/5775"`) with their decimal, and a sentence (the method)
/// on a line of its own; never JSON.
fn exact_lines(exact: &serde_json::Map<String, serde_json::Value>) -> Vec<String> {
    use serde_json::Value;
    let mut parts = Vec::new();
    let mut sentences = Vec::new();
    for (k, v) in exact {
        match v {
            Value::Number(n) => parts.push(match n.as_u64() {
                Some(whole) => format!("{k} {}", grouped(whole)),
                None => format!("{k} {:.6}", n.as_f64().unwrap_or(f64::NAN)),
            }),
            Value::Object(shares) => {
                let shares: Vec<String> = shares
                    .iter()
                    .map(|(o, share)| match share {
                        Value::String(f) => match fraction_value(f) {
                            Some(x) => format!("{o} {f} = {x:.6}"),
                            None => format!("{o} {f}"),
                        },
                        Value::Number(x) => format!("{o} {:.6}", x.as_f64().unwrap_or(f64::NAN)),
                        other => format!("{o} {other}"),
                    })
                    .collect();
                parts.push(format!("{k}: {}", shares.join("  ")));
            }
            Value::String(text) => sentences.push(format!("{k}: {text}")),
            other => parts.push(format!("{k} {other}")),
        }
    }
    let mut lines = Vec::new();
    if !parts.is_empty() {
        lines.push(format!("exact     {}", parts.join("  ")));
    }
    lines.extend(sentences.into_iter().map(|t| format!("          {t}")));
    lines
}

/// The value of a fraction written `a/b`.
fn fraction_value(text: &str) -> Option<f64> {
    let (a, b) = text.split_once('/')?;
    Some(a.trim().parse::<f64>().ok()? / b.trim().parse::<f64>().ok()?)
}

/// What the rounds of all games are, where some games do not end.
fn all_games(unit: Unit) -> String {
    format!(
        "(all games: a game that loops counts the {} its loop was found, a capped game the cap)",
        unit.one
    )
}

/// The rounds of distribution `d` as the summary's leading lines: `of` names its games when
/// they are not all the games.
fn rounds_block(d: &Distribution, exhaustive: bool, unit: Unit, of: &str) -> String {
    let head = format!("{:<10}{of}", unit.many);
    let mut s = String::new();
    let _ = match (d.sem, d.ci95, d.sd) {
        (_, _, Some(sd)) if exhaustive => writeln!(
            s,
            "{head}mean {} (exact: over every deal), sd {}",
            fixed(d.mean, 4),
            fixed(sd, 2)
        ),
        (Some(sem), Some(ci), Some(sd)) => writeln!(
            s,
            "{head}mean {} ± {} (95% interval {} to {}), sd {}",
            fixed(d.mean, 3),
            fixed(1.96 * sem, 3),
            fixed(ci[0], 3),
            fixed(ci[1], 3),
            fixed(sd, 2)
        ),
        _ => writeln!(
            s,
            "{head}{} (one game: no spread or interval to estimate)",
            fixed(d.mean, 0)
        ),
    };
    // A run of every deal has its quantiles exactly: no interval.
    let ci = |b: Option<&Bounds>| match b {
        Some(b) if !exhaustive => format!(" ({})", b.text()),
        _ => String::new(),
    };
    let median_ci = match d.median_ci95.as_ref() {
        Some(b) if !exhaustive => format!(" (95% interval {})", b.text()),
        _ => String::new(),
    };
    let _ = writeln!(
        s,
        "          min {}  median {}{median_ci}  max {}",
        grouped(d.min),
        grouped(d.median),
        grouped(d.max)
    );
    let q: Vec<String> = (d.quantiles.iter())
        .map(|(k, v)| {
            let b = d.quantiles_ci95.as_ref().and_then(|q| q.get(k));
            let v = v.as_u64().map_or_else(|| v.to_string(), grouped);
            format!("{k} {v}{}", ci(b))
        })
        .collect();
    // With intervals, the quantiles below the median on one line and those above on the next.
    let below = QUANTILES.iter().filter(|q| 2 * q.1 < q.2).count();
    let split = if median_ci.is_empty() {
        q.len()
    } else {
        below.min(q.len())
    };
    for part in [&q[..split], &q[split..]] {
        if !part.is_empty() {
            let _ = writeln!(s, "          {}", part.join("  "));
        }
    }
    s
}

/// What a run's games are called: every distinct deal once (`exact`), or games.
fn games_word(info: &RunInfo) -> &'static str {
    if info.exhaustive {
        "deals"
    } else {
        "games"
    }
}

fn percent_of(n: u64, of: u64) -> String {
    pct(n as f64 / of.max(1) as f64)
}

/// The summary of `r` as lines of text, a section at a time.
pub fn summary<S: GameStats>(r: &Report<S>, timing: &Timing) -> String {
    let mut s = String::new();
    heading(&mut s, r, timing);
    lead_rounds(&mut s, r);
    precision(&mut s, r.info);
    outcomes(&mut s, r);
    for line in r.tally.stats.text(r.games()) {
        let _ = writeln!(s, "{line}");
    }
    for line in groups_table(r) {
        let _ = writeln!(s, "{line}");
    }
    loops(&mut s, r);
    all_games_after(&mut s, r);
    tail(&mut s, r);
    closing(&mut s, r);
    s
}

/// The game and its rules, then what ran: games or deals, seed, shard, threads and speed.
fn heading<S: GameStats>(s: &mut String, r: &Report<S>, timing: &Timing) {
    let info = r.info;
    let games = r.games();
    let _ = writeln!(s, "{} — {}", info.game, grouped_in(&info.description));
    let rate = games as f64 / timing.elapsed_s.max(1e-9);
    if info.exhaustive {
        let _ = write!(s, "every one of {} distinct deals, once", grouped(games));
    } else {
        let _ = write!(s, "{}, seed {}", counted(games, "game"), info.seed);
    }
    if let Some(sh) = info.shard {
        let _ = write!(
            s,
            ", shard {sh} (games {}..{})",
            info.range.start, info.range.end
        );
    }
    if let Some(t) = timing.threads {
        let _ = write!(s, ", {}", counted(t as u64, "thread"));
    }
    let _ = writeln!(
        s,
        ", {:.2} s ({} {}/s)",
        timing.elapsed_s,
        grouped(rate as u64),
        games_word(info)
    );
}

/// The rounds that lead the summary: of the games that end where some never do (the figure a
/// reader means, as sweeps and charts give it; all games follow further down), else of all.
fn lead_rounds<S: GameStats>(s: &mut String, r: &Report<S>) {
    let info = r.info;
    let unit = if info.exhaustive { "deal" } else { "game" };
    if let Some(f) = r.leading_ended() {
        let of = format!(
            "the {} that end ({}): ",
            counted(f.n, unit),
            percent_of(f.n, r.games())
        );
        s.push_str(&rounds_block(f, info.exhaustive, info.unit, &of));
    } else if let Some(d) = &r.rounds {
        s.push_str(&rounds_block(d, info.exhaustive, info.unit, ""));
        if r.unended().total() > 0 {
            let _ = writeln!(s, "          {}", all_games(info.unit));
        }
    }
}

/// The precision asked of a run to a precision, and whether it was reached.
fn precision(s: &mut String, info: &RunInfo) {
    let Some(p) = &info.precision else {
        return;
    };
    let got = p
        .half_width
        .map_or_else(|| "none".into(), |h| format!("±{h:.4}"));
    let _ = if p.reached {
        writeln!(s, "precision ±{} asked, {got} reached", p.target)
    } else {
        writeln!(
            s,
            "precision ±{} asked, NOT reached: {got} when --max-games {} ended the run",
            p.target,
            grouped(p.max_games)
        )
    };
}

/// Every outcome's games and share, and the games stopped at the round cap.
fn outcomes<S: GameStats>(s: &mut String, r: &Report<S>) {
    let games = r.games();
    let outs: Vec<String> = r
        .outcomes
        .iter()
        .map(|&(o, n)| format!("{} {} ({})", o.name(), grouped(n), percent_of(n, games)))
        .collect();
    let _ = writeln!(s, "outcomes  {}", outs.join("  "));
    let capped = r.share(Outcome::Capped);
    if capped.count > 0 {
        let _ = writeln!(
            s,
            "capped    {} stopped at the round cap ({}): they did not end, nor are they loops",
            grouped(capped.count),
            pct(capped.share)
        );
    }
}

/// The games that never end and their cycles, where the rules detect loops.
fn loops<S: GameStats>(s: &mut String, r: &Report<S>) {
    let info = r.info;
    if !info.detects_loops {
        return;
    }
    let l = r.share(Outcome::Loop);
    let _ = if info.exhaustive {
        // Of every deal, the exact share: `0 of the 90 deals`, the fraction in lowest terms
        // only where it says more than the counts (`41/1050`).
        let fraction = crate::stats::summary::fraction(l.count, r.games());
        let exact = match l.count {
            0 => String::new(),
            k if fraction == format!("{k}/{}", r.games()) => String::new(),
            _ => format!("{fraction}, "),
        };
        writeln!(
            s,
            "loops     {} of the {} deals never end ({exact}{})",
            grouped(l.count),
            grouped(r.games()),
            pct(l.share)
        )
    } else {
        writeln!(
            s,
            "loops     {} never end ({}, 95% interval {})",
            grouped(l.count),
            pct(l.share),
            l.interval_text()
        )
    };
    if let Some(c) = &r.cycles {
        let _ = writeln!(
            s,
            "          cycle length mean {}, median {}, max {}",
            fixed(c.mean, 1),
            grouped(c.median),
            grouped(c.max)
        );
    }
}

/// The rounds of all games, after the games that end led.
fn all_games_after<S: GameStats>(s: &mut String, r: &Report<S>) {
    let (Some(_), Some(d)) = (r.leading_ended(), &r.rounds) else {
        return;
    };
    let info = r.info;
    let ci = match d.ci95 {
        Some([lo, hi]) if !info.exhaustive => {
            format!(" (95% interval {} to {})", fixed(lo, 3), fixed(hi, 3))
        }
        _ => String::new(),
    };
    let _ = writeln!(
        s,
        "all games mean {}{ci}, median {}, max {}: a game that loops counts the {} its \
         loop was found, a capped game the cap",
        fixed(d.mean, 3),
        grouped(d.median),
        grouped(d.max),
        info.unit.one
    );
}

/// The fitted tail and whether it is exponential.
fn tail<S: GameStats>(s: &mut String, r: &Report<S>) {
    let Some(t) = &r.tail else {
        return;
    };
    let info = r.info;
    let _ = if info.exhaustive {
        // Every deal is in the fit: there is no sample whose chance an interval would show.
        writeln!(
            s,
            "tail      beyond {} (p90) the share still going falls by e every {} {} \
             (fitted to {} deals)",
            info.unit.count(t.from),
            fixed(t.e_folding_rounds, 1),
            info.unit.many,
            grouped(t.games)
        )
    } else {
        writeln!(
            s,
            "tail      beyond {} (p90) the share still going falls by e every {} {} \
             (95% interval {} to {}; {} games fitted)",
            info.unit.count(t.from),
            fixed(t.e_folding_rounds, 1),
            info.unit.many,
            fixed(t.e_folding_ci95[0], 1),
            fixed(t.e_folding_ci95[1], 1),
            grouped(t.games)
        )
    };
    if let Some(verdict) = tail_verdict(t, info.exhaustive, info.unit) {
        let _ = writeln!(s, "          {verdict}");
    }
}

/// Parity, the exact values the rules give, and the longest game.
fn closing<S: GameStats>(s: &mut String, r: &Report<S>) {
    let info = r.info;
    if let Some(p) = &r.parity {
        let _ = writeln!(
            s,
            "parity    {} of the {} that end last an even number of {}",
            pct(p.even.share),
            games_word(info),
            info.unit.many
        );
    }
    if let Some(serde_json::Value::Object(exact)) = &info.exact {
        for line in exact_lines(exact) {
            let _ = writeln!(s, "{line}");
        }
    }
    if let Some((rounds, i)) = r.tally.longest {
        let which = if info.exhaustive {
            "deal number"
        } else {
            "game"
        };
        let _ = writeln!(s, "longest   {which} {i} ({})", info.unit.count(rounds));
    }
}
