//! `warsim.Run`: a run read back from its folder by the one reader ([`model::load::load`]), whose
//! charts are drawn by the same code as the command line's files ([`RunChart::draw`]).

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use anyhow::{Context, Result};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::charts::render::Sink;
use crate::charts::RunChart;
use crate::face::{self, GameCli, WithGameType};
use crate::games::Game;
use crate::model::report::Report;
use crate::model::{self, load::Part};
use crate::store::private::PrivateDir;

/// What a run read back gives Python, whatever its game.
trait Loaded: Send {
    /// Chart `name` as PNG or SVG bytes (`ext`).
    fn chart(&self, name: &str, ext: &str) -> Result<Vec<u8>>;
    /// The names of its charts.
    fn charts(&self) -> Vec<&'static str>;
    /// Its summary.json and histogram.csv as read, with everything else of the same set.
    fn texts(&self) -> (String, String);
}

impl<G: Game> Loaded for Part<G> {
    fn chart(&self, name: &str, ext: &str) -> Result<Vec<u8>> {
        let r = Report::new(&self.info, &self.tally);
        let charts = RunChart::of(&r);
        let Some(chart) = charts.into_iter().find(|c| c.stem() == name) else {
            anyhow::bail!(
                "chart={name:?}: this run's charts are {}",
                self.charts().join(", ")
            );
        };
        rendered(ext, |path| chart.draw(&r, Sink::File(path)))
    }

    fn charts(&self) -> Vec<&'static str> {
        let r = Report::new(&self.info, &self.tally);
        RunChart::of(&r).into_iter().map(RunChart::stem).collect()
    }

    fn texts(&self) -> (String, String) {
        (self.summary_json.clone(), self.histogram_csv.clone())
    }
}

/// What `draw` writes into a file named `chart.ext`, as bytes: the chart code draws into
/// files, and the file is the command line's to the byte. The file lies in a private folder
/// of its own ([`PrivateDir`]): a name in the shared temporary folder that another user could
/// guess would let them plant a link there and have the chart written through it.
fn rendered(ext: &str, draw: impl FnOnce(&Path) -> Result<()>) -> Result<Vec<u8>> {
    let dir = PrivateDir::new("warsim-chart")?;
    let path = dir.path().join(format!("chart.{ext}"));
    draw(&path).and_then(|()| {
        std::fs::read(&path).with_context(|| format!("cannot read {}", path.display()))
    })
}

/// Reads the run in `dir` as game `G`'s.
struct Load<'a>(&'a Path);

impl WithGameType for Load<'_> {
    type Output = Result<Box<dyn Loaded>>;

    fn with<G: GameCli>(self) -> Result<Box<dyn Loaded>> {
        Ok(Box::new(model::load::load::<G>(self.0)?))
    }
}

/// A run of warsim: its summary.json and histogram.csv as written, and its charts.
#[pyclass(frozen, module = "warsim._warsim")]
pub struct Run {
    loaded: Mutex<Box<dyn Loaded>>,
    summary_json: String,
    histogram_csv: String,
    out: Option<PathBuf>,
}

impl Run {
    /// Reads the run in `dir`; `keep` says whether `dir` stays (the user's `out=`).
    pub fn read(dir: &Path, keep: bool) -> Result<Run> {
        let game = model::load::game_of(dir)?;
        let loaded = face::by_name(&game, Load(dir))
            .unwrap_or_else(|| Err(anyhow::anyhow!("{}: no game {game:?}", dir.display())))?;
        let (summary_json, histogram_csv) = loaded.texts();
        Ok(Run {
            loaded: Mutex::new(loaded),
            summary_json,
            histogram_csv,
            out: keep.then(|| dir.to_path_buf()),
        })
    }

    fn chart(&self, name: &str, ext: &str) -> PyResult<Vec<u8>> {
        let loaded = self.loaded.lock().unwrap_or_else(|e| e.into_inner());
        loaded
            .chart(name, ext)
            .map_err(|e| PyValueError::new_err(format!("{e:#}")))
    }
}

#[pymethods]
impl Run {
    /// summary.json's text, as the command line writes it.
    #[getter]
    fn summary_json(&self) -> &str {
        &self.summary_json
    }

    /// histogram.csv's text, as the command line writes it.
    #[getter]
    fn histogram_csv(&self) -> &str {
        &self.histogram_csv
    }

    /// The folder the run was written into (`out=`), or None.
    #[getter]
    fn out(&self) -> Option<PathBuf> {
        self.out.clone()
    }

    /// The names of the run's charts: "histogram", "survival", "by" with groups, and a game's own
    /// (War `--quit-stats`: "quit").
    #[getter]
    fn charts(&self) -> Vec<&'static str> {
        self.loaded
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .charts()
    }

    /// Chart `chart` as PNG bytes, drawn as the command line draws histogram.png.
    #[pyo3(signature = (chart = "histogram"))]
    fn to_png<'py>(&self, py: Python<'py>, chart: &str) -> PyResult<Bound<'py, PyBytes>> {
        let bytes = py.detach(|| self.chart(chart, "png"))?;
        Ok(PyBytes::new(py, &bytes))
    }

    /// Chart `chart` as SVG text, drawn as the command line draws histogram.svg.
    #[pyo3(signature = (chart = "histogram"))]
    fn to_svg(&self, py: Python<'_>, chart: &str) -> PyResult<String> {
        let bytes = py.detach(|| self.chart(chart, "svg"))?;
        String::from_utf8(bytes).map_err(|e| PyValueError::new_err(e.to_string()))
    }
}
