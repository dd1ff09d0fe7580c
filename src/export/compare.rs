//! What `compare` writes and prints of the runs it read: compare.json, compare.csv, the
//! survival chart of every run (compare.png), report.html, and the lines on the terminal.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::Result;
use serde::Serialize;

use super::html::Page;
use crate::charts;
use crate::charts::render::Sink;
use crate::games::Unit;
use crate::model::report::Curve;
use crate::model::summary::Provenance;
use crate::stats::summary::{counted, fixed, grouped, grouped_in, pct, Share};
use crate::stats::tail_check::normal_two_sided;
use crate::store::Dir;
use crate::term::stdout::Print;

/// One run read back, as a comparison shows it.
pub struct Run {
    /// Its folder.
    pub dir: PathBuf,
    /// Its game.
    pub game: String,
    /// Its rules, described.
    pub description: String,
    /// Every rule setting, as its summary.json records them.
    pub rules: serde_json::Value,
    /// Its base seed.
    pub seed: u64,
    /// The game indices it covers.
    pub span: std::ops::Range<u64>,
    /// Whether it played every deal once (`exact`): its games are numbered deals, not drawn
    /// from the seed, and are not re-played for a paired analysis.
    pub exhaustive: bool,
    /// Its games.
    pub games: u64,
    /// The mean rounds of all its games.
    pub mean: Option<f64>,
    /// What its rounds count.
    pub unit: Unit,
    /// (rounds, games) over all games.
    pub counts: Vec<(u64, u64)>,
    /// Its survival curve.
    pub curve: Curve,
}

impl Run {
    /// Its label on the chart and in the tables: the game, its rules and its seed (two runs
    /// of one rule set differ in their seeds alone).
    pub fn label(&self) -> String {
        format!(
            "{} — {} (seed {})",
            self.game,
            grouped_in(&self.description),
            self.seed
        )
    }
}

/// The unit the runs share (`compare` refuses runs that count different things): the
/// chart's axis names it.
fn shared_unit(runs: &[Run]) -> Unit {
    runs.first().map_or(Unit::ROUNDS, |r| r.unit)
}

/// compare.json.
#[derive(Serialize, schemars::JsonSchema)]
pub struct CompareJson {
    /// The runs, in the order given.
    pub runs: Vec<RunJson>,
    /// How many pairs were tested: the number of tests Holm's adjustment accounts for.
    pub pairs_tested: usize,
    /// Every pair of runs: their indices in `runs`, D, p and Holm's adjusted p.
    pub ks: Vec<PairJson>,
    /// What compared them, when, and how it was called.
    pub provenance: Provenance,
}

/// A run of compare.json.
#[derive(Serialize, schemars::JsonSchema)]
pub struct RunJson {
    /// Its folder.
    pub dir: String,
    /// Its game.
    pub game: String,
    /// Its rules, described.
    pub description: String,
    /// Every rule setting.
    pub rules: serde_json::Value,
    /// What its rounds count.
    pub unit: String,
    /// Its base seed.
    pub seed: u64,
    /// The first game index it covers.
    pub first_game: u64,
    /// One past the last.
    pub end_game: u64,
    /// Its games.
    pub games: u64,
    /// The mean rounds of all its games.
    pub mean: Option<f64>,
}

/// A pair of runs of compare.json, tested.
#[derive(Serialize, schemars::JsonSchema)]
pub struct PairJson {
    /// The first run's index in `runs`.
    pub a: usize,
    /// The second run's.
    pub b: usize,
    /// The KS statistic D.
    pub d: f64,
    /// Its p-value, for this pair alone.
    pub p: f64,
    /// Holm's step-down adjustment of `p` over all `pairs_tested` pairs: the p-value to read
    /// when any pair's difference would be reported.
    pub p_holm: f64,
    /// How many deals both runs played (one game and deck, the same seed, game indices in
    /// common: a sweep's rule sets share all of theirs): where any, the two samples are not
    /// independent, as the KS test assumes.
    pub shared_deals: u64,
    /// Where the runs share deals: both re-played over them, deal by deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub paired: Option<PairedJson>,
}

/// The paired analysis of two runs over the deals both played (games `first_game..end_game`):
/// each deal's length under the first run's rules less its length under the second's.
#[derive(Serialize, schemars::JsonSchema)]
pub struct PairedJson {
    /// The first game index re-played.
    pub first_game: u64,
    /// One past the last.
    pub end_game: u64,
    /// The mean of the per-deal differences (a − b): over all the runs' games, exactly the
    /// difference of their means, formed from integer sums.
    pub mean_difference: f64,
    /// Its 95% interval, mean ± 1.96·sd/√n of the differences.
    pub ci95: Option<[f64; 2]>,
    /// The half-width the same difference would have from two independent samples of these
    /// sizes and spreads, √(se_a² + se_b²)·1.96: how much the shared deals narrow it.
    pub unpaired_half_width: Option<f64>,
    /// The deals on which the first run's game is longer, with the share's interval.
    pub a_longer: Share,
    /// Those on which the second's is.
    pub b_longer: Share,
    /// The paired test's p-value: mean difference over its standard error, two-sided normal.
    pub p: Option<f64>,
}

impl PairedJson {
    /// The analysis of lengths `a` and `b` of games `first..end`, deal by deal.
    pub fn new(first: u64, end: u64, a: &[u64], b: &[u64]) -> PairedJson {
        let n = a.len().min(b.len()) as u64;
        let (mut sd, mut sd2) = (0i128, 0i128);
        let (mut longer_a, mut longer_b) = (0u64, 0u64);
        for (&x, &y) in a.iter().zip(b) {
            let d = i128::from(x) - i128::from(y);
            sd += d;
            sd2 += d * d;
            longer_a += u64::from(x > y);
            longer_b += u64::from(y > x);
        }
        let nf = n.max(1) as f64;
        let mean = sd as f64 / nf;
        // Exact integers before the one division, as Distribution's variance.
        let var = |s1: i128, s2: i128| {
            (n >= 2).then(|| (n as i128 * s2 - s1 * s1) as f64 / (nf * (nf - 1.0)))
        };
        let se = var(sd, sd2).map(|v| (v.max(0.0) / nf).sqrt());
        let sums = |v: &[u64]| {
            (v.iter()).fold((0i128, 0i128), |(s1, s2), &x| {
                (s1 + i128::from(x), s2 + i128::from(x) * i128::from(x))
            })
        };
        let ((a1, a2), (b1, b2)) = (sums(a), sums(b));
        let unpaired = var(a1, a2)
            .zip(var(b1, b2))
            .map(|(va, vb)| 1.96 * ((va + vb) / nf).sqrt());
        PairedJson {
            first_game: first,
            end_game: end,
            mean_difference: mean,
            ci95: se.map(|se| [mean - 1.96 * se, mean + 1.96 * se]),
            unpaired_half_width: unpaired,
            a_longer: Share::new(longer_a, n.max(1)),
            b_longer: Share::new(longer_b, n.max(1)),
            p: se
                .filter(|&se| se > 0.0)
                .map(|se| normal_two_sided(mean / se)),
        }
    }
}

/// Writes compare.json (`doc`), compare.csv, compare.png (and compare.svg with `svg`) and
/// report.html of `runs` into `dir`.
pub fn write(dir: &Dir, doc: &CompareJson, runs: &[Run], svg: bool) -> Result<()> {
    dir.write_json("compare.json", doc)?;
    dir.write("compare.csv", &pairs_csv(doc)?)?;
    let labels: Vec<(String, &Curve)> = runs
        .iter()
        .enumerate()
        .map(|(i, r)| (format!("{}: {}", i + 1, r.label()), &r.curve))
        .collect();
    let lines = charts::Line::each(&labels);
    let title = format!("{} runs compared", runs.len());
    let unit = shared_unit(runs);
    let what = format!(
        "share of games still going after t {} (a game that never ends never stops)",
        unit.many
    );
    let what = what.as_str();
    charts::survival(
        &title,
        what,
        unit,
        &lines,
        false,
        Sink::File(&dir.path("compare.png")),
    )?;
    if svg {
        charts::survival(
            &title,
            what,
            unit,
            &lines,
            false,
            Sink::File(&dir.path("compare.svg")),
        )?;
    }
    let mut chart = String::new();
    charts::survival(&title, what, unit, &lines, false, Sink::Svg(&mut chart))?;
    dir.write("report.html", page(&title, doc, runs, &chart).as_bytes())
}

/// Prints the comparison as `print` says, naming the folder `written` where its set went.
pub fn print(doc: &CompareJson, written: Option<&Path>, print: Print) -> Result<()> {
    if print == Print::Json {
        crate::term::stdout::print_json(doc)?;
    } else if print == Print::Text {
        let mut stdout = crate::term::stdout::out();
        for (i, r) in doc.runs.iter().enumerate() {
            let mean = r.mean.map_or_else(|| "-".into(), |m| fixed(m, 3));
            writeln!(
                stdout,
                "run {}   {}  ({}, seed {}, mean {mean} {}): {} — {}",
                i + 1,
                r.dir,
                counted(r.games, "game"),
                r.seed,
                r.unit,
                r.game,
                grouped_in(&r.description)
            )?;
        }
        writeln!(
            stdout,
            "pairs     {} tested (two-sample KS); Holm's p adjusts each for all of them",
            grouped(doc.pairs_tested as u64)
        )?;
        for p in &doc.ks {
            writeln!(
                stdout,
                "KS {} vs {}  D = {:.5}  {}  Holm {}{}",
                p.a + 1,
                p.b + 1,
                p.d,
                p_value(p.p),
                p_value(p.p_holm),
                shared_note(p)
            )?;
            if let Some(q) = &p.paired {
                writeln!(
                    stdout,
                    "          {}",
                    paired_text(p, q, &doc.runs[p.a].unit)
                )?;
            }
        }
        if let Some(out) = written {
            writeln!(
                stdout,
                "written   {}/ (compare.json, compare.csv, compare.png, report.html)",
                out.display()
            )?;
        }
        stdout.flush()?;
    }
    Ok(())
}

/// What a pair of runs that played the same deals must be read with.
fn shared_note(p: &PairJson) -> String {
    match p.shared_deals {
        0 => String::new(),
        n => format!(
            "  ({} in common: same seed, shared game indices; the test assumes independent \
             samples)",
            counted(n, "deal")
        ),
    }
}

/// A count of deals with its share and interval: `1,352 (67.600%, 95% interval 65.517% to
/// 69.616%)`.
fn deals(s: &Share) -> String {
    format!(
        "{} ({}, 95% interval {})",
        grouped(s.count),
        pct(s.share),
        s.interval_text()
    )
}

/// The paired analysis of pair `p` in words: the mean difference deal by deal with its
/// interval beside the unpaired one, which run's game is longer how often, and the test.
fn paired_text(p: &PairJson, q: &PairedJson, unit: &str) -> String {
    let (a, b) = (p.a + 1, p.b + 1);
    let ci = match (q.ci95, q.unpaired_half_width) {
        (Some([lo, hi]), Some(u)) => format!(
            " (95% interval {} to {}, ±{}; from independent samples it would be ±{}, {:.2}× as \
             wide)",
            fixed(lo, 3),
            fixed(hi, 3),
            fixed((hi - lo) / 2.0, 3),
            fixed(u, 3),
            u / ((hi - lo) / 2.0).max(f64::MIN_POSITIVE)
        ),
        _ => String::new(),
    };
    format!(
        "paired over games {}..{} (the same deals, re-played): run {a} − run {b} = {} {unit} per \
         deal{ci}; run {a} longer on {}, run {b} on {}; paired {}",
        q.first_game,
        q.end_game,
        fixed(q.mean_difference, 3),
        deals(&q.a_longer),
        deals(&q.b_longer),
        q.p.map_or_else(|| "test: none (no spread)".into(), p_value)
    )
}

/// A p-value as a reader takes it in: plain decimals down to 0.001, then powers of ten
/// (`p = 3.2e-12`), and below what a double holds a bound, not the `0` it rounded to.
fn p_value(p: f64) -> String {
    if p >= 0.01 {
        format!("p = {p:.3}")
    } else if p >= 0.001 {
        format!("p = {p:.4}")
    } else if p >= 1e-300 {
        format!("p = {p:.1e}")
    } else {
        "p < 1e-300".into()
    }
}

/// report.html: what ran, the runs side by side, every pair's test and the chart.
fn page(title: &str, doc: &CompareJson, runs: &[Run], chart: &str) -> String {
    let mut page = Page::new(title);
    page.heading("What ran");
    page.paragraph(&format!(
        "{}, {}",
        doc.provenance.program, doc.provenance.date
    ));
    page.code(&doc.provenance.command);
    page.heading("Runs");
    let rows: Vec<Vec<String>> = runs
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let c = &r.curve;
            vec![
                (i + 1).to_string(),
                r.dir.display().to_string(),
                r.label(),
                r.seed.to_string(),
                grouped(r.games),
                r.mean.map_or_else(String::new, |m| fixed(m, 3)),
                c.mean_text(),
                c.looping().text(),
                c.capped().text(),
            ]
        })
        .collect();
    page.table(
        &[
            "run",
            "folder",
            "game — rules",
            "seed",
            "games",
            "mean rounds (all games)",
            "mean rounds of the games that end (95% interval)",
            "loop",
            "capped",
        ],
        &rows,
    );
    page.heading("Kolmogorov–Smirnov tests, every pair");
    page.paragraph(&format!(
        "{} tested; Holm's p adjusts each pair's p for all of them (read it when reporting any \
         difference among the runs).",
        counted(doc.pairs_tested as u64, "pair")
    ));
    let rows: Vec<Vec<String>> = doc
        .ks
        .iter()
        .map(|p| {
            vec![
                format!("{} vs {}", p.a + 1, p.b + 1),
                format!("{:.5}", p.d),
                format!("{:.3e}", p.p),
                format!("{:.3e}", p.p_holm),
                match &p.paired {
                    Some(q) => paired_text(p, q, &doc.runs[p.a].unit),
                    None => shared_note(p).trim().to_string(),
                },
            ]
        })
        .collect();
    page.table(&["pair", "D", "p", "Holm's p", "note"], &rows);
    page.heading("Chart");
    page.chart("The runs' survival curves", chart);
    page.finish(title)
}

/// compare.csv: one row per pair of runs.
pub(crate) fn pairs_csv(doc: &CompareJson) -> Result<Vec<u8>> {
    let mut wtr = csv::Writer::from_writer(Vec::new());
    wtr.write_record([
        "run_a",
        "run_b",
        "games_a",
        "games_b",
        "ks_d",
        "ks_p",
        "ks_p_holm",
        "shared_deals",
    ])?;
    for p in &doc.ks {
        let (a, b) = (&doc.runs[p.a], &doc.runs[p.b]);
        wtr.write_record([
            a.dir.clone(),
            b.dir.clone(),
            a.games.to_string(),
            b.games.to_string(),
            p.d.to_string(),
            p.p.to_string(),
            p.p_holm.to_string(),
            p.shared_deals.to_string(),
        ])?;
    }
    Ok(wtr.into_inner().map_err(|e| e.into_error())?)
}

#[cfg(test)]
mod tests {
    use super::p_value;

    #[test]
    fn p_values_read_as_numbers() {
        assert_eq!(p_value(0.699), "p = 0.699");
        assert_eq!(p_value(1.0), "p = 1.000");
        assert_eq!(p_value(0.0123), "p = 0.012");
        assert_eq!(p_value(0.00123), "p = 0.0012");
        assert_eq!(p_value(3.2e-12), "p = 3.2e-12");
        assert_eq!(p_value(0.0), "p < 1e-300");
        assert_eq!(p_value(1e-310), "p < 1e-300");
    }
}
