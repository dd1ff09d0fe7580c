//! An answer computed rather than played (`exact`'s Markov chain, `exact war --flawless`) and
//! its files: its JSON document as the scripts read it, and for a person a report.html and a
//! README.md that state it as the other runs' do (what ran, the answer in readable numbers, the
//! method), never a dump of the JSON; and its lines on the terminal.

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::Path;

use anyhow::Result;
use serde_json::Value;

use super::html::Page;
use super::readme::MARKER_LINE;
use crate::model::summary::Provenance;
use crate::stats::summary::grouped_in;
use crate::store::OutputSet;
use crate::term::progress::{self, When};
use crate::term::stdout::{self, Print};

/// A computed answer: the JSON document written as `file`, its figures as rows, and the lines
/// the terminal shows under its description.
#[derive(Clone, Debug)]
pub struct Solved {
    /// The document (game, description, ..., method, provenance).
    pub doc: Value,
    /// Its file name (`chain.json`, `flawless.json`).
    pub file: &'static str,
    /// The answer's figures, (what, value), as a reader reads them.
    pub rows: Vec<(String, String)>,
    /// What the terminal prints of it under its game and description.
    pub lines: Vec<String>,
}

impl Solved {
    fn text(&self, key: &str) -> String {
        grouped_in(self.doc[key].as_str().unwrap_or(""))
    }

    fn provenance(&self) -> Option<Provenance> {
        serde_json::from_value(self.doc["provenance"].clone()).ok()
    }

    /// The rows as the Markdown table of `--markdown`: a figure and its value (an answer
    /// computed, not sampled, has no interval column).
    pub fn markdown(&self) -> String {
        let cell = |s: &str| s.replace('|', "\\|").replace(['\n', '\r'], " ");
        let mut s = String::from("| figure | value |\n| :--- | ---: |\n");
        for (what, value) in &self.rows {
            s.push_str(&format!("| {} | {} |\n", cell(what), cell(value)));
        }
        s
    }

    /// report.html: what ran, the answer, the method.
    pub fn page(&self) -> String {
        let title = format!("{} — {}", self.text("game"), self.text("description"));
        let mut page = Page::new(&title);
        page.heading("What ran");
        if let Some(p) = self.provenance() {
            page.paragraph(&format!("{}, {}", p.program, p.date));
            page.code(&p.command);
        }
        page.heading("The answer");
        let rows: Vec<Vec<String>> = (self.rows.iter())
            .map(|(what, value)| vec![what.clone(), value.clone()])
            .collect();
        page.table(&["figure", "value"], &rows);
        page.heading("Method");
        page.paragraph(&self.text("method"));
        page.paragraph(&format!(
            "Every figure is in {} at full precision; no game was played, so no figure has an \
             interval.",
            self.file
        ));
        page.finish(&title)
    }

    /// README.md: what ran, the answer, and the files.
    pub fn readme(&self) -> String {
        let mut t = String::new();
        let game = self.text("game");
        let _ = writeln!(
            t,
            "# warsim output: {game}\n\n{}\n",
            self.text("description")
        );
        if let Some(p) = self.provenance() {
            let _ = writeln!(
                t,
                "Written by {} on {} with:\n\n    {}\n",
                p.program, p.date, p.command
            );
        }
        let _ = writeln!(t, "| | value |\n| --- | --- |");
        for (what, value) in &self.rows {
            let _ = writeln!(t, "| {what} | {value} |");
        }
        let _ = writeln!(t, "\nMethod: {}\n", self.text("method"));
        let _ = writeln!(t, "| file | what it holds |\n| --- | --- |");
        let _ = writeln!(
            t,
            "| `{}` | the answer at full precision, the rules and the command that made it |",
            self.file
        );
        let _ = writeln!(
            t,
            "| `report.html` | one self-contained page with what ran, the answer and the method |"
        );
        let _ = writeln!(t, "| `README.md` | this file |");
        let _ = writeln!(t, "| `{}` | {MARKER_LINE} |", crate::store::MARKER);
        t
    }

    /// Writes the document, report.html and README.md into `set` and commits it.
    pub fn write(&self, set: OutputSet) -> Result<()> {
        set.dir().write_json(self.file, &self.doc)?;
        set.dir().write("report.html", self.page().as_bytes())?;
        set.dir().write("README.md", self.readme().as_bytes())?;
        set.commit()
    }

    /// The line the terminal prints once the set is written into `out`.
    pub fn written(&self, out: &Path) -> String {
        format!(
            "written   {}/ ({}, report.html, README.md)",
            out.display(),
            self.file
        )
    }

    /// Prints the answer as `print` asks: JSON, Markdown, or its game and description, its
    /// lines, then the folder `written` where its set was written (a log line where progress
    /// goes to a log, [`progress::stamped`]).
    pub fn print(&self, print: Print, written: Option<(&Path, When)>) -> Result<()> {
        match print {
            Print::Nothing => {}
            Print::Json => stdout::print_json(&self.doc)?,
            Print::Markdown => stdout::write_all(self.markdown().as_bytes())?,
            Print::Text => {
                let mut out = stdout::out();
                let game = self.doc["game"].as_str().unwrap_or("");
                writeln!(out, "{game} — {}", self.text("description"))?;
                for line in &self.lines {
                    writeln!(out, "{line}")?;
                }
                if let Some((dir, when)) = written {
                    writeln!(out, "{}", progress::stamped(when, &self.written(dir)))?;
                }
                out.flush()?;
            }
        }
        Ok(())
    }
}
