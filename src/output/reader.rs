//! Reading files that warsim did not necessarily write: a run folder named to `merge`,
//! `compare` or `play --from`, a marker or a lock file beside `--out`. Such a file may be
//! hand-edited, truncated, a FIFO, a device or gigabytes long; every read here is bounded and
//! every string checked before anything is printed, charted or allocated on its word.

use std::fs::{self, File, OpenOptions};
use std::io::Read;
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;

use serde_json::Value;

use crate::error::UsageError;
use crate::usage;

/// The most bytes of a summary.json read back (a War summary with every key is a few KB).
pub const MAX_JSON_BYTES: u64 = 4 << 20;
/// The most bytes of a set's main JSON file read to tell whether warsim wrote it (a sweep's
/// sweep.json holds every rule set's summary).
pub const MAX_SET_JSON_BYTES: u64 = 64 << 20;
/// The most bytes of a histogram.csv, by.csv or cycles.csv read back: one row per distinct
/// round count (a few bytes each), so millions of distinct lengths fit, while the histogram
/// built from it stays under a gigabyte.
pub const MAX_CSV_BYTES: u64 = 64 << 20;
/// The longest string a summary may hold (a description, a rule value, a command line: that
/// of a merge of a thousand shards with long paths is some hundreds of KB).
pub const MAX_STRING_BYTES: usize = 1 << 20;

/// The text of regular file `name` in `dir`, at most `limit` bytes, as UTF-8. A FIFO, a
/// device, a directory or a longer file is refused by name, without blocking or reading on.
pub fn read_text(dir: &Path, name: &str, limit: u64) -> Result<String, UsageError> {
    let path = dir.join(name);
    let d = dir.display();
    let meta = fs::metadata(&path)
        .map_err(|e| usage!("{d}: cannot read {name} ({e}); is it a warsim --out directory?"))?;
    if !meta.is_file() {
        return Err(usage!("{d}: {name} is not a regular file"));
    }
    if meta.len() > limit {
        return Err(usage!(
            "{d}: {name} holds {} bytes; a warsim file holds at most {limit}",
            meta.len()
        ));
    }
    // O_NONBLOCK: if the file was swapped for a FIFO since the check above, opening it does
    // not wait for a writer; the check after opening then refuses it.
    let file = OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(&path)
        .map_err(|e| usage!("{d}: cannot read {name} ({e})"))?;
    read_open(file, dir, name, limit)
}

/// Reads an open file, checking again that it is regular and within `limit`.
fn read_open(file: File, dir: &Path, name: &str, limit: u64) -> Result<String, UsageError> {
    let d = dir.display();
    let meta = file
        .metadata()
        .map_err(|e| usage!("{d}: cannot read {name} ({e})"))?;
    if !meta.is_file() {
        return Err(usage!("{d}: {name} is not a regular file"));
    }
    let mut bytes = Vec::new();
    file.take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| usage!("{d}: cannot read {name} ({e})"))?;
    if bytes.len() as u64 > limit {
        return Err(usage!(
            "{d}: {name} grew past {limit} bytes while it was read"
        ));
    }
    String::from_utf8(bytes).map_err(|_| usage!("{d}: {name} is not UTF-8 text"))
}

/// Parses `text` (file `name` of `dir`) as JSON whose every string is short and printable:
/// at most [`MAX_STRING_BYTES`], no control character (so no terminal escape, no line
/// break) anywhere, keys included.
pub fn parse_json(text: &str, dir: &Path, name: &str) -> Result<Value, UsageError> {
    let d = dir.display();
    let v: Value = serde_json::from_str(text).map_err(|e| usage!("{d}: {name}: {e}"))?;
    check_strings(&v).map_err(|what| usage!("{d}: {name}: {what}"))?;
    Ok(v)
}

/// Refuses a string that is too long or holds a control character, anywhere in `v`.
fn check_strings(v: &Value) -> Result<(), String> {
    let check = |s: &str| {
        if s.len() > MAX_STRING_BYTES {
            Err(format!(
                "a string of {} bytes (at most {MAX_STRING_BYTES})",
                s.len()
            ))
        } else if let Some(c) = s.chars().find(|c| c.is_control()) {
            Err(format!(
                "a string holds the control character U+{:04X}",
                c as u32
            ))
        } else {
            Ok(())
        }
    };
    match v {
        Value::String(s) => check(s),
        Value::Array(items) => items.iter().try_for_each(check_strings),
        Value::Object(map) => map.iter().try_for_each(|(k, v)| {
            check(k)?;
            check_strings(v)
        }),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("warsim-reader-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn a_fifo_a_directory_and_a_long_file_are_refused_without_blocking() {
        let dir = scratch("kinds");
        let fifo = std::ffi::CString::new(dir.join("summary.json").to_str().unwrap()).unwrap();
        // SAFETY: a NUL-terminated path that outlives the call.
        assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o600) }, 0);
        let e = read_text(&dir, "summary.json", 100)
            .unwrap_err()
            .to_string();
        assert!(e.contains("not a regular file"), "{e}");
        fs::create_dir(dir.join("histogram.csv")).unwrap();
        let e = read_text(&dir, "histogram.csv", 100)
            .unwrap_err()
            .to_string();
        assert!(e.contains("not a regular file"), "{e}");
        fs::write(dir.join("cycles.csv"), vec![b'1'; 101]).unwrap();
        let e = read_text(&dir, "cycles.csv", 100).unwrap_err().to_string();
        assert!(e.contains("101 bytes"), "{e}");
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn escapes_and_long_strings_are_refused_anywhere_in_the_json() {
        let dir = Path::new("d");
        for bad in [
            r#"{"game":"war\u001b[31m"}"#,
            r#"{"rules":{"a\nb":1}}"#,
            r#"{"x":["ok","\u009b"]}"#,
        ] {
            let e = parse_json(bad, dir, "summary.json")
                .unwrap_err()
                .to_string();
            assert!(e.contains("control character"), "{bad}: {e}");
        }
        let long = format!(
            r#"{{"description":"{}"}}"#,
            "x".repeat(MAX_STRING_BYTES + 1)
        );
        let e = parse_json(&long, dir, "summary.json")
            .unwrap_err()
            .to_string();
        assert!(e.contains("at most"), "{e}");
        assert!(parse_json(r#"{"game":"war","n":[1,2.5]}"#, dir, "s").is_ok());
    }
}
