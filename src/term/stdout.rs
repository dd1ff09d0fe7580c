//! A command's stdout: what it prints when it is done ([`Print`]), and JSON printed as the
//! files hold it ([`pretty_json`]).

use std::io::{self, Write};

use anyhow::Context;

use crate::model::pretty_json;

/// What a command prints on stdout when it is done.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Print {
    /// The readable summary.
    #[default]
    Text,
    /// The summary as one JSON object (`--json`).
    Json,
    /// The summary as a Markdown table (`--markdown`), for a post or an issue.
    Markdown,
    /// Nothing: the files written are the result (`--quiet`, and the Python package).
    Nothing,
}

impl Print {
    /// `--json`, `--markdown` and `--quiet` (which the command line lets one at most be
    /// given) as a [`Print`].
    pub fn of(json: bool, markdown: bool, quiet: bool) -> Print {
        if json {
            Print::Json
        } else if markdown {
            Print::Markdown
        } else if quiet {
            Print::Nothing
        } else {
            Print::Text
        }
    }
}

/// The process's stdout, for a command's output.
pub fn out() -> io::StdoutLock<'static> {
    io::stdout().lock()
}

/// Writes `bytes` whole to stdout and flushes: for text rendered before it is written (help,
/// shell completions, the manual page) by libraries that would panic on a write error.
pub fn write_all(bytes: &[u8]) -> anyhow::Result<()> {
    let mut o = out();
    o.write_all(bytes)
        .and_then(|()| o.flush())
        .context("cannot write to stdout")
}

/// Prints `value` on stdout as [`pretty_json`].
pub fn print_json<T: serde::Serialize + ?Sized>(value: &T) -> anyhow::Result<()> {
    let mut out = out();
    out.write_all(&pretty_json(value)?)?;
    out.flush()?;
    Ok(())
}
