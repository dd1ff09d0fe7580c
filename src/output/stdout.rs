//! Where a command's stdout goes: the process's stdout, or (for the Python package, which runs
//! the commands in-process) a buffer the caller takes back. One switch for every command, so
//! no command has a second way of producing its output.

use std::io::{self, Write};
use std::sync::Mutex;

use anyhow::Context;

/// The captured output, while a capture is on.
static CAPTURE: Mutex<Option<Vec<u8>>> = Mutex::new(None);

/// A command's stdout.
pub enum Out {
    /// The process's stdout.
    Std(io::StdoutLock<'static>),
    /// The capture buffer.
    Captured(Vec<u8>),
}

/// The stdout a command writes to now; write, then drop it (a capture is kept on drop).
pub fn out() -> Out {
    let taken = CAPTURE
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .as_mut()
        .map(std::mem::take);
    match taken {
        Some(buf) => Out::Captured(buf),
        None => Out::Std(io::stdout().lock()),
    }
}

/// Writes `bytes` whole to the command's stdout and flushes: for text rendered before it is
/// written (help, shell completions, the manual page) by libraries that would panic on a
/// write error.
pub fn write_all(bytes: &[u8]) -> anyhow::Result<()> {
    let mut o = out();
    o.write_all(bytes)
        .and_then(|()| o.flush())
        .context("cannot write to stdout")
}

impl Write for Out {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Out::Std(s) => s.write(buf),
            Out::Captured(v) => v.write(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            Out::Std(s) => s.flush(),
            Out::Captured(_) => Ok(()),
        }
    }
}

impl Drop for Out {
    fn drop(&mut self) {
        if let Out::Captured(buf) = self {
            let mut c = CAPTURE.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(kept) = c.as_mut() {
                kept.append(buf);
            }
        }
    }
}

/// `value` as warsim writes JSON everywhere (files and stdout): pretty, then a line break.
pub fn pretty_json<T: serde::Serialize + ?Sized>(value: &T) -> serde_json::Result<Vec<u8>> {
    let mut bytes = serde_json::to_vec_pretty(value)?;
    bytes.push(b'\n');
    Ok(bytes)
}

/// Prints `value` on the command's stdout as [`pretty_json`].
pub fn print_json<T: serde::Serialize + ?Sized>(value: &T) -> anyhow::Result<()> {
    let mut out = out();
    out.write_all(&pretty_json(value)?)?;
    out.flush()?;
    Ok(())
}

/// Runs `f` with stdout captured, and returns what it wrote with its result. Captures do not
/// nest: the caller (one Python call at a time, under a lock) runs one command at a time.
pub fn capture<T>(f: impl FnOnce() -> T) -> (T, Vec<u8>) {
    *CAPTURE.lock().unwrap_or_else(|e| e.into_inner()) = Some(Vec::new());
    let result = f();
    let text = CAPTURE
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .take()
        .unwrap_or_default();
    (result, text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn captured_output_comes_back_whole() {
        let ((), text) = capture(|| {
            writeln!(out(), "one").unwrap();
            let mut o = out();
            write!(o, "two").unwrap();
        });
        assert_eq!(text, b"one\ntwo");
    }
}
