//! `play GAME`: runs the game's `play` command and prints its [`PlayReport`] as text or as one
//! JSON object. A trace streams to stdout as the game makes it (as a JSON array of lines with
//! `--json`), so a replay of millions of rounds is never held in memory.
//!
//! A stdout that is a terminal has a person reading it, so without `--trace` it gets the
//! answer alone, in a sentence ([`PlayReport::words`]): not a seed document's bare answer
//! (`1 2`) nor an interactive game's machine transcript, which a file or a pipe still gets
//! byte for byte.

use std::io::{self, BufWriter, IsTerminal, Write};

use anyhow::Result;

use crate::face::PlayGame;
use crate::face::{PlayIo, PlayReport};

/// Plays `game` and prints what it found.
pub fn run(game: &PlayGame, json: bool, trace: bool) -> Result<()> {
    let mut out = BufWriter::new(crate::term::stdout::out());
    let stdin = io::stdin();
    let mut input = stdin.lock();
    let input_echoed = stdin.is_terminal();
    let mut prompt = io::stderr();
    // Ctrl-C ends the process: nothing is written that it could leave half done.
    let cancel = crate::cancel::Cancel::default();
    if !json {
        let person = io::stdout().is_terminal();
        let mut unread = io::sink();
        let report = game.play(&mut PlayIo {
            trace,
            names: true,
            out: if person && !trace {
                &mut unread
            } else {
                &mut out
            },
            input: &mut input,
            input_echoed,
            prompt: &mut prompt,
            cancel: &cancel,
        })?;
        let (text, note) = if person && !report.words.is_empty() {
            (&report.words, "")
        } else {
            (&report.text, report.note.as_str())
        };
        if !text.is_empty() {
            writeln!(out, "{text}")?;
        }
        out.flush()?;
        if !note.is_empty() {
            // A note is a courtesy: if stderr cannot take it, the answer on stdout still stands.
            let _ = writeln!(io::stderr(), "{note}");
        }
        return Ok(());
    }
    let report = if trace {
        write!(out, "{{\n  \"trace\": [")?;
        let mut lines = JsonLines::new(&mut out);
        let report = game.play(&mut PlayIo {
            trace,
            names: false,
            out: &mut lines,
            input: &mut input,
            input_echoed,
            prompt: &mut prompt,
            cancel: &cancel,
        })?;
        lines.finish()?;
        report
    } else {
        game.play(&mut PlayIo {
            trace,
            names: false,
            out: &mut io::sink(),
            input: &mut input,
            input_echoed,
            prompt: &mut prompt,
            cancel: &cancel,
        })?
    };
    write_json(&mut out, &report, trace)?;
    out.flush()?;
    Ok(())
}

/// The report as a pretty JSON object; after a streamed trace, its keys continue that object.
fn write_json(out: &mut impl Write, report: &PlayReport, after_trace: bool) -> Result<()> {
    let text = serde_json::to_string_pretty(report)?;
    if after_trace {
        // `{\n  "key": …` becomes `,\n  "key": …` after the trace array.
        writeln!(out, ",{}", &text[1..])?;
    } else {
        writeln!(out, "{text}")?;
    }
    Ok(())
}

/// Turns lines written to it into the elements of a JSON array of strings, written as they
/// complete.
struct JsonLines<W: Write> {
    out: W,
    partial: Vec<u8>,
    first: bool,
}

impl<W: Write> JsonLines<W> {
    fn new(out: W) -> Self {
        JsonLines {
            out,
            partial: Vec::new(),
            first: true,
        }
    }

    fn element(&mut self, line: &[u8]) -> io::Result<()> {
        let text = String::from_utf8_lossy(line);
        let sep = if self.first { "" } else { "," };
        self.first = false;
        write!(self.out, "{sep}\n    ")?;
        serde_json::to_writer(&mut self.out, &text)?;
        Ok(())
    }

    /// Writes a last unterminated line, if any, and closes the array.
    fn finish(mut self) -> io::Result<()> {
        if !self.partial.is_empty() {
            let line = std::mem::take(&mut self.partial);
            self.element(&line)?;
        }
        let close = if self.first { "]" } else { "\n  ]" };
        write!(self.out, "{close}")
    }
}

impl<W: Write> Write for JsonLines<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let mut rest = buf;
        while let Some(i) = rest.iter().position(|&b| b == b'\n') {
            if self.partial.is_empty() {
                self.element(&rest[..i])?;
            } else {
                self.partial.extend_from_slice(&rest[..i]);
                let line = std::mem::take(&mut self.partial);
                self.element(&line)?;
            }
            rest = &rest[i + 1..];
        }
        self.partial.extend_from_slice(rest);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_become_a_json_array_whatever_the_write_boundaries() {
        let mut buf = Vec::new();
        let mut lines = JsonLines::new(&mut buf);
        for piece in ["a \"q", "uoted\" line\nsec", "ond\n", "last"] {
            lines.write_all(piece.as_bytes()).unwrap();
        }
        lines.finish().unwrap();
        let text = format!("[{}", String::from_utf8(buf).unwrap());
        let v: Vec<String> = serde_json::from_str(&text).unwrap();
        assert_eq!(v, ["a \"quoted\" line", "second", "last"]);
        let mut empty = Vec::new();
        JsonLines::new(&mut empty).finish().unwrap();
        assert_eq!(empty, b"]");
    }

    #[test]
    fn report_keys_continue_the_traced_object() {
        let report = PlayReport::new("x", "p1".into(), 3, vec![1]);
        let mut buf = b"{\n  \"trace\": [".to_vec();
        JsonLines::new(&mut buf).finish().unwrap();
        write_json(&mut buf, &report, true).unwrap();
        let v: serde_json::Value = serde_json::from_slice(&buf).unwrap();
        assert_eq!(
            (v["trace"].clone(), v["rounds"].clone()),
            (serde_json::json!([]), 3.into())
        );
    }
}
