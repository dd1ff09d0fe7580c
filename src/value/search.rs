//! [`Searched`]: what `search` returns, the core's report of a search (or of a walk backward
//! from a cycle, `--reaching`) with what was asked, the command that made it, and the text
//! files that list what it found as commands that play each (made once, with the face's
//! [`Replays`]). Its consumers write it as an output set ([`Searched::write`]), print it
//! ([`Searched::print`]) or hand it to Python; none computes it again.

use std::path::Path;

use anyhow::Result;

use crate::config::search::{ReachingConfig, SearchConfig};
use crate::export::search::{self, Document, Files};
use crate::games::bmn::search::header::Replays;
use crate::games::bmn::search::report::SearchReport;
use crate::model::pretty_json;
use crate::model::summary::Provenance;
use crate::store::OutputSet;
use crate::term::stdout::Print;

/// What a search was asked.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub enum Asked {
    /// A search for long games or for cycles (`search bmn`).
    Search(SearchConfig),
    /// A walk backward from a cycle (`search bmn --reaching`).
    Reaching(ReachingConfig),
}

/// A search done, in memory: nothing of it is written or printed until a consumer asks.
#[derive(Debug)]
pub struct Searched {
    report: SearchReport,
    asked: Asked,
    provenance: Provenance,
    files: Files,
}

impl Searched {
    /// The search `asked` that reported `report`, made by `made`; `say` writes the commands
    /// of its text files.
    pub(crate) fn new(
        report: SearchReport,
        asked: Asked,
        say: &dyn Replays,
        made: Provenance,
    ) -> Searched {
        let files = search::files(&report, say);
        Searched {
            report,
            asked,
            provenance: made,
            files,
        }
    }

    /// The core's report: what the search found, how long it took, and whether an interrupt
    /// stopped it ([`SearchReport::stopped`]).
    pub fn report(&self) -> &SearchReport {
        &self.report
    }

    /// What it was asked.
    pub fn asked(&self) -> &Asked {
        &self.asked
    }

    /// Its document's name: search.json, census.json or reaching.json.
    pub fn document_name(&self) -> &'static str {
        self.files.0
    }

    /// Its document's text, as the output set holds it.
    pub fn json(&self) -> Result<String> {
        Ok(String::from_utf8(pretty_json(&self.document())?)?)
    }

    /// Writes its set into `set` (its document and its text files) and commits it.
    pub fn write(&self, set: OutputSet) -> Result<()> {
        search::write(set, &self.document(), &self.files)
    }

    /// Prints it on stdout as `print` says, naming the folder `written` where its set went.
    pub fn print(&self, print: Print, written: Option<&Path>) -> Result<()> {
        let timed = match &self.asked {
            Asked::Search(cfg) => cfg.minutes.is_some(),
            Asked::Reaching(_) => false,
        };
        search::print(&self.document(), &self.files, timed, print, written)
    }

    /// The error of a search an interrupt stopped, its set written into `written` all the
    /// same (the command line's exit status 130); `Ok` for one that did what it was asked.
    pub fn interrupted(&self, written: &Path) -> Result<()> {
        search::interrupted(&self.report, self.files.0, written)
    }

    fn document(&self) -> Document<'_> {
        Document {
            report: &self.report,
            provenance: self.provenance.clone(),
        }
    }
}
