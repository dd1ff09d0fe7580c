//! Everything a run writes: the JSON and CSV summaries, the histogram, the chart, the terminal
//! summary, and (for `merge`) reading shard outputs back.

pub mod atomic;
pub mod csv;
pub mod plot;
pub mod progress;
pub mod report;
pub mod summary;
pub mod text;

use std::fs;
use std::io::{self, Write};
use std::path::Path;

use anyhow::{Context, Result};

use crate::games::GameStats;
use crate::merge::histogram_digest;
use crate::stats::histogram::Tally;
use report::{Report, RunInfo, Timing};

/// Writes `summary.json`, `summary.csv`, `histogram.csv`, `cycles.csv` (with loop detection)
/// and `histogram.png` into `dir`, each file atomically.
pub fn write_dir<S: GameStats>(
    dir: &Path,
    r: &Report<S>,
    timing: &Timing,
    histogram: &[u8],
) -> Result<()> {
    fs::create_dir_all(dir).with_context(|| format!("cannot create --out {}", dir.display()))?;
    let mut json = serde_json::to_vec_pretty(&r.summary(timing, histogram_digest(histogram)))?;
    json.push(b'\n');
    atomic::write_bytes(&dir.join("summary.json"), &json)?;
    atomic::write_bytes(&dir.join("summary.csv"), &csv::summary(r)?)?;
    atomic::write_bytes(&dir.join("histogram.csv"), histogram)?;
    if r.info.detects_loops {
        atomic::write_bytes(&dir.join("cycles.csv"), &csv::cycles(r)?)?;
    }
    plot::histogram(r, &dir.join("histogram.png"))
}

/// Creates `dir` and checks that a file can be written there, before any long work.
pub fn prepare_out(dir: &Path) -> Result<()> {
    fs::create_dir_all(dir).with_context(|| format!("cannot create --out {}", dir.display()))?;
    let probe = dir.join(format!(".warsim-probe-{}", std::process::id()));
    fs::write(&probe, b"").with_context(|| format!("cannot write into --out {}", dir.display()))?;
    fs::remove_file(&probe).with_context(|| format!("cannot write into --out {}", dir.display()))
}

/// The end of every run: the output set written into `out` (if any), then the summary on
/// stdout, as text or as one JSON object.
pub fn finish<S: GameStats>(
    info: &RunInfo,
    tally: &Tally<S>,
    timing: &Timing,
    out: Option<&Path>,
    json: bool,
) -> Result<()> {
    let report = Report::new(info, tally);
    let histogram = csv::histogram(&report)?;
    if let Some(dir) = out {
        write_dir(dir, &report, timing, &histogram)?;
    }
    let mut stdout = io::stdout().lock();
    if json {
        let summary = report.summary(timing, histogram_digest(&histogram));
        serde_json::to_writer_pretty(&mut stdout, &summary)?;
        writeln!(stdout)?;
    } else {
        write!(stdout, "{}", text::summary(&report, timing))?;
        if let Some(dir) = out {
            writeln!(
                stdout,
                "written   {}/{{summary.json,summary.csv,histogram.csv,histogram.png}}",
                dir.display()
            )?;
        }
    }
    stdout.flush()?;
    Ok(())
}
