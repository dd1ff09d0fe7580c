//! [`Comparison`]: what `compare` returns, the runs it read (each folder's game, rules, seed,
//! games and survival curve) and the statistics computed over them (every pair's KS test with
//! Holm's adjustment, and the paired analysis of runs that played the same deals). Its
//! consumers write it as an output set ([`Comparison::write`]), print it
//! ([`Comparison::print`]) or hand it to Python; none computes it again.

use std::path::Path;

use anyhow::Result;

use crate::export::compare::{self, CompareJson};
use crate::model::pretty_json;
use crate::store::OutputSet;
use crate::term::stdout::Print;

/// The runs of a `compare` and their tests, in memory: nothing of it is written or printed
/// until a consumer asks.
pub struct Comparison {
    doc: CompareJson,
    runs: Vec<compare::Run>,
}

impl std::fmt::Debug for Comparison {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Comparison")
            .field("runs", &self.doc.runs.len())
            .field("pairs_tested", &self.doc.pairs_tested)
            .finish_non_exhaustive()
    }
}

impl Comparison {
    /// The comparison `doc` of the runs `runs` (in its order).
    pub(crate) fn new(doc: CompareJson, runs: Vec<compare::Run>) -> Comparison {
        Comparison { doc, runs }
    }

    /// What compare.json holds: each run as read, every pair tested, and the provenance.
    pub fn document(&self) -> &CompareJson {
        &self.doc
    }

    /// compare.json's text, as the output set holds it.
    pub fn json(&self) -> Result<String> {
        Ok(String::from_utf8(pretty_json(&self.doc)?)?)
    }

    /// compare.csv's text (a row per pair), as the output set holds it.
    pub fn csv(&self) -> Result<String> {
        Ok(String::from_utf8(compare::pairs_csv(&self.doc)?)?)
    }

    /// Writes the comparison's set into `set` (compare.json, compare.csv, the chart, also as
    /// SVG with `svg`, and report.html) and commits it.
    pub fn write(&self, set: OutputSet, svg: bool) -> Result<()> {
        compare::write(set.dir(), &self.doc, &self.runs, svg)?;
        set.commit()
    }

    /// Prints the comparison on stdout as `print` says, naming the folder `written` where its
    /// set went.
    pub fn print(&self, print: Print, written: Option<&Path>) -> Result<()> {
        compare::print(&self.doc, written, print)
    }
}
