//! The summary of a run as rows of (statistic, value, 95% interval): one list that the Markdown
//! table (`--markdown`) and report.html both show, so they cannot disagree.

use crate::games::Unit;
use crate::games::{GameStats, Outcome};
use crate::model::report::{tail_verdict, Report, Timing};
use crate::stats::quantile::Bounds;
use crate::stats::summary::{counted, fixed, grouped, grouped_in, Distribution, Share};

/// One line of the summary table.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// What it is.
    pub name: String,
    /// Its value.
    pub value: String,
    /// Its 95% interval, where it has one.
    pub interval: String,
}

fn row(name: impl Into<String>, value: impl Into<String>, interval: impl Into<String>) -> Row {
    Row {
        name: name.into(),
        value: value.into(),
        interval: interval.into(),
    }
}

/// A share as `12.345%` and its interval as `12.100% to 12.600%`, as the terminal writes them.
fn share(s: &Share) -> (String, String) {
    (s.text(), s.interval_text())
}

/// An interval of rounds: `994.018 to 1,007.307`.
pub fn interval(lo: f64, hi: f64) -> String {
    format!("{} to {}", fixed(lo, 3), fixed(hi, 3))
}

/// The rows of the distribution `d` of lengths in `unit`, each name followed by `of` (its
/// population).
fn rounds_rows(d: &Distribution, unit: Unit, of: &str, exhaustive: bool) -> Vec<Row> {
    let ci = match d.ci95 {
        Some([lo, hi]) if !exhaustive => interval(lo, hi),
        _ => String::new(),
    };
    let mut out = vec![row(format!("mean {}{of}", unit.many), fixed(d.mean, 3), ci)];
    if let Some(sd) = d.sd {
        out.push(row(format!("sd{of}"), fixed(sd, 2), ""));
    }
    // Distribution-free intervals of the quantiles; a run of every deal has them exactly.
    let ci = |b: Option<&Bounds>| {
        b.filter(|_| !exhaustive)
            .map_or_else(String::new, Bounds::text)
    };
    out.push(row(
        format!("median{of}"),
        grouped(d.median),
        ci(d.median_ci95.as_ref()),
    ));
    out.push(row(format!("min{of}"), grouped(d.min), ""));
    out.push(row(format!("max{of}"), grouped(d.max), ""));
    for (k, v) in &d.quantiles {
        let b = d.quantiles_ci95.as_ref().and_then(|q| q.get(k));
        let v = v.as_u64().map_or_else(|| v.to_string(), grouped);
        out.push(row(format!("quantile {k}{of}"), v, ci(b)));
    }
    out
}

/// The rows of `r`'s summary, in the order the terminal shows them.
pub fn rows<S: GameStats>(r: &Report<S>, timing: &Timing) -> Vec<Row> {
    let info = r.info;
    let mut out = head_rows(r);
    out.extend(outcome_rows(r));
    for line in r.tally.stats.text(r.games()) {
        if let Some((k, v)) = line.split_once(char::is_whitespace) {
            out.push(row(k.trim(), v.trim(), ""));
        }
    }
    if let Some(c) = &r.cycles {
        out.push(row(
            "cycle length",
            format!(
                "mean {}, median {}, max {}",
                fixed(c.mean, 1),
                grouped(c.median),
                grouped(c.max)
            ),
            "",
        ));
    }
    if let (Some(_), Some(d)) = (r.leading_ended(), &r.rounds) {
        out.extend(rounds_rows(d, info.unit, " (all games)", info.exhaustive));
    }
    out.extend(tail_rows(r));
    if let Some(p) = &r.parity {
        let (value, interval) = share(&p.even);
        out.push(row("even length (games that end)", value, interval));
    }
    if let Some((rounds, i)) = r.tally.longest {
        out.push(row(
            "longest game",
            format!("game {i} ({})", info.unit.count(rounds)),
            "",
        ));
    }
    if let Some(t) = timing.threads {
        out.push(row("threads", t.to_string(), ""));
    }
    out.push(row("elapsed", format!("{:.2} s", timing.elapsed_s), ""));
    out
}

/// The game, its rules, the games (and seed), then the rounds that lead: where some games do
/// not end, every figure of rounds names its population, and the games that end (the figure a
/// reader means, as the terminal gives it) lead.
fn head_rows<S: GameStats>(r: &Report<S>) -> Vec<Row> {
    let info = r.info;
    let mut out = vec![
        row("game", info.game.clone(), ""),
        row("rules", grouped_in(&info.description), ""),
        row(
            if info.exhaustive { "deals" } else { "games" },
            grouped(r.games()),
            "",
        ),
    ];
    if !info.exhaustive {
        out.push(row("seed", info.seed.to_string(), ""));
    }
    if let Some(f) = r.leading_ended() {
        out.push(row("games that end", grouped(f.n), ""));
        out.extend(rounds_rows(
            f,
            info.unit,
            " (games that end)",
            info.exhaustive,
        ));
    } else if let Some(d) = &r.rounds {
        let of = if r.unended().total() > 0 {
            " (all games)"
        } else {
            ""
        };
        out.extend(rounds_rows(d, info.unit, of, info.exhaustive));
    }
    out
}

/// A row per outcome: its share and interval.
fn outcome_rows<S: GameStats>(r: &Report<S>) -> Vec<Row> {
    (r.outcomes.iter())
        .map(|&(o, _)| {
            let (value, interval) = share(&r.share(o));
            let name = match o {
                Outcome::Loop => "loop (never ends)".to_string(),
                Outcome::Capped => "capped (stopped at the round cap)".to_string(),
                o => format!("outcome {}", o.name()),
            };
            row(name, value, interval)
        })
        .collect()
}

/// The fitted tail and whether it is exponential.
fn tail_rows<S: GameStats>(r: &Report<S>) -> Vec<Row> {
    let info = r.info;
    let Some(t) = &r.tail else {
        return Vec::new();
    };
    let mut out = vec![row(
        format!("tail (e-folding {})", info.unit.many),
        format!(
            "{} beyond {} ({} fitted)",
            fixed(t.e_folding_rounds, 1),
            info.unit.count(t.from),
            counted(t.games, "game")
        ),
        format!(
            "{} to {}",
            fixed(t.e_folding_ci95[0], 1),
            fixed(t.e_folding_ci95[1], 1)
        ),
    )];
    if let Some(verdict) = tail_verdict(t, info.exhaustive, info.unit) {
        out.push(row("tail: is it exponential?", verdict, ""));
    }
    out
}

/// `rows` as a Markdown table (GitHub's pipe tables), ready to paste into a post: the `|` of a
/// value escaped, line breaks folded.
pub fn markdown(rows: &[Row]) -> String {
    let cell = |s: &str| s.replace('|', "\\|").replace(['\n', '\r'], " ");
    let mut s = String::from("| statistic | value | 95% interval |\n| :--- | ---: | ---: |\n");
    for r in rows {
        s.push_str(&format!(
            "| {} | {} | {} |\n",
            cell(&r.name),
            cell(&r.value),
            cell(&r.interval)
        ));
    }
    s
}

/// The values of a JSON object as rows, an object's members one level down named
/// `key.member` (a chain solution's `outcomes.p1`), for outputs with no [`Report`].
pub fn json_rows(doc: &serde_json::Value) -> Vec<Row> {
    let text = |v: &serde_json::Value| v.as_str().map_or_else(|| v.to_string(), str::to_string);
    let mut out = Vec::new();
    if let serde_json::Value::Object(m) = doc {
        for (k, v) in m {
            match v {
                serde_json::Value::Object(inner) => {
                    for (k2, v2) in inner {
                        out.push(row(format!("{k}.{k2}"), text(v2), ""));
                    }
                }
                v => out.push(row(k.clone(), text(v), "")),
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markdown_has_a_header_a_rule_and_a_row_per_statistic_pipes_escaped() {
        let rows = [
            row("mean rounds", "2.250", "2.1 to 2.4"),
            row("rules", "a | b", ""),
        ];
        assert_eq!(
            markdown(&rows),
            "| statistic | value | 95% interval |\n| :--- | ---: | ---: |\n\
             | mean rounds | 2.250 | 2.1 to 2.4 |\n| rules | a \\| b |  |\n"
        );
    }
}
