//! `warsim.Run`: a run held in memory, as the API returned it ([`crate::api::Run`]) or as read
//! back from its folder by the API's [`load`](crate::api::load), whose charts are drawn, when
//! asked, by the same code as the command line's files.

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use anyhow::Result;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::value::Loaded;

/// A run of warsim: its summary.json and histogram.csv as the command line writes them, and its
/// charts.
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
        let out = keep.then(|| dir.to_path_buf());
        Ok(Run::held(crate::api::load(dir)?, out))
    }

    /// The run `run`, written into `out` or nowhere.
    pub fn of(run: crate::api::Run, out: Option<PathBuf>) -> Run {
        Run::held(Box::new(run), out)
    }

    fn held(loaded: Box<dyn Loaded>, out: Option<PathBuf>) -> Run {
        let (summary_json, histogram_csv) = loaded.texts();
        Run {
            loaded: Mutex::new(loaded),
            summary_json,
            histogram_csv,
            out,
        }
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

    /// summary.csv's text, as the command line writes it: the run's row, then one per group.
    #[getter]
    fn summary_csv(&self) -> PyResult<String> {
        let loaded = self.loaded.lock().unwrap_or_else(|e| e.into_inner());
        loaded.summary_csv().map_err(super::to_python)
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
