//! Reading files that warsim did not necessarily write: a run folder named to `merge`,
//! `compare` or `play --from`, a marker or a lock file beside `--out`. Such a file may be
//! hand-edited, truncated, a FIFO, a device or gigabytes long; every read here is bounded and
//! every string checked before anything is printed, charted or allocated on its word.

use std::ffi::CString;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Read};
use std::os::fd::{AsRawFd, FromRawFd};
use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

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

/// The text of regular file `name` in `dir`, at most `limit` bytes, as UTF-8 ([`Folder`]).
pub fn read_text(dir: &Path, name: &str, limit: u64) -> Result<String, UsageError> {
    Folder::open(dir).read_text(name, limit)
}

/// A folder opened once, whose files are read through its handle (`openat`): every file read
/// comes from the one directory opened, even while another process commits a new output set
/// at its path. A commit exchanges whole directories ([`crate::store`]), so the
/// handle keeps the set it opened, and a file of it removed since reads as missing, never as
/// the new set's; [`Folder::moved`] tells the reader to start again.
pub struct Folder {
    path: PathBuf,
    /// The directory, or why it could not be opened (said when a file is read).
    dir: io::Result<File>,
}

impl Folder {
    /// Opens `path` (following a symbolic link, as a path given by a user may be).
    pub fn open(path: &Path) -> Folder {
        let dir = OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_DIRECTORY)
            .open(path);
        Folder {
            path: path.to_path_buf(),
            dir,
        }
    }

    /// The path it was opened at.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Whether `name` is a regular file of the folder.
    pub fn is_file(&self, name: &str) -> bool {
        self.open_file(name)
            .and_then(|f| f.metadata())
            .is_ok_and(|m| m.is_file())
    }

    /// Whether the path now names another directory than the one opened, none though one was
    /// opened, or one though none could be: a set was committed there while it was read. A
    /// path that named nothing and still names nothing has not moved, so a missing folder is
    /// said to be missing at once, not read again.
    pub fn moved(&self) -> bool {
        match (&self.dir, fs::metadata(&self.path)) {
            (Ok(dir), Ok(now)) => dir
                .metadata()
                .is_ok_and(|m| (m.dev(), m.ino()) != (now.dev(), now.ino())),
            (Ok(_), Err(_)) | (Err(_), Ok(_)) => true,
            (Err(_), Err(_)) => false,
        }
    }

    /// `name` opened for reading through the folder's handle. O_NONBLOCK: a FIFO does not wait
    /// for a writer; [`read_open`] then refuses it as no regular file.
    fn open_file(&self, name: &str) -> io::Result<File> {
        let dir = self
            .dir
            .as_ref()
            .map_err(|e| io::Error::new(e.kind(), e.to_string()))?;
        let name =
            CString::new(name).map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e))?;
        // SAFETY: a NUL-terminated name that outlives the call, and a directory descriptor
        // that `dir` keeps open through it.
        let fd = unsafe {
            libc::openat(
                dir.as_raw_fd(),
                name.as_ptr(),
                libc::O_RDONLY | libc::O_NONBLOCK | libc::O_CLOEXEC,
            )
        };
        if fd < 0 {
            return Err(io::Error::last_os_error());
        }
        // SAFETY: `fd` was just opened and is owned by nothing else.
        Ok(unsafe { File::from_raw_fd(fd) })
    }

    /// The text of regular file `name`, at most `limit` bytes, as UTF-8. A FIFO, a device, a
    /// directory or a longer file is refused by name, without blocking or reading on.
    pub fn read_text(&self, name: &str, limit: u64) -> Result<String, UsageError> {
        let d = self.path.display();
        let file = self.open_file(name).map_err(|e| {
            usage!("{d}: cannot read {name} ({e}); is it a folder that warsim wrote?")
        })?;
        read_open(file, &self.path, name, limit)
    }
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
    if meta.len() > limit {
        return Err(usage!(
            "{d}: {name} holds {} bytes; a warsim file holds at most {limit}",
            meta.len()
        ));
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
    if bytes.starts_with(&[0xFF, 0xFE]) || bytes.starts_with(&[0xFE, 0xFF]) {
        return Err(usage!(
            "{d}: {name} is UTF-16 text (it starts with a UTF-16 byte-order mark); warsim reads \
             UTF-8: save it as UTF-8"
        ));
    }
    let text = String::from_utf8(bytes).map_err(|_| usage!("{d}: {name} is not UTF-8 text"))?;
    // An editor's UTF-8 byte-order mark says nothing a reader needs: dropped, not refused.
    Ok(match text.strip_prefix('\u{FEFF}') {
        Some(rest) => rest.to_string(),
        None => text,
    })
}

/// Parses `text` (file `name` of `dir`) as JSON whose every object names each key once (a
/// second value for a key would silently replace the first) and whose every string is short
/// and printable: at most [`MAX_STRING_BYTES`], no control character (so no terminal escape,
/// no line break) anywhere, keys included.
pub fn parse_json(text: &str, dir: &Path, name: &str) -> Result<Value, UsageError> {
    let d = dir.display();
    let Strict(v) = serde_json::from_str(text).map_err(|e| usage!("{d}: {name}: {e}"))?;
    check_strings(&v).map_err(|what| usage!("{d}: {name}: {what}"))?;
    Ok(v)
}

/// A JSON value read with every object's keys distinct.
struct Strict(Value);

impl<'de> serde::Deserialize<'de> for Strict {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(StrictVisitor).map(Strict)
    }
}

/// Builds a [`Value`] as serde_json's own visitor does, but refuses a key given twice.
struct StrictVisitor;

impl<'de> serde::de::Visitor<'de> for StrictVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_bool<E>(self, b: bool) -> Result<Value, E> {
        Ok(Value::Bool(b))
    }
    fn visit_i64<E>(self, n: i64) -> Result<Value, E> {
        Ok(n.into())
    }
    fn visit_u64<E>(self, n: u64) -> Result<Value, E> {
        Ok(n.into())
    }
    fn visit_f64<E>(self, x: f64) -> Result<Value, E> {
        Ok(x.into())
    }
    fn visit_str<E>(self, s: &str) -> Result<Value, E> {
        Ok(Value::String(s.to_owned()))
    }
    fn visit_string<E>(self, s: String) -> Result<Value, E> {
        Ok(Value::String(s))
    }
    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(Strict(v)) = seq.next_element()? {
            items.push(v);
        }
        Ok(Value::Array(items))
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut object = serde_json::Map::new();
        while let Some(key) = map.next_key::<String>()? {
            if object.contains_key(&key) {
                return Err(serde::de::Error::custom(format!(
                    "the key {key:?} appears twice in one object"
                )));
            }
            let Strict(v) = map.next_value()?;
            object.insert(key, v);
        }
        Ok(Value::Object(object))
    }
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

    /// A key given twice would let the second value replace the first without a word.
    #[test]
    fn a_key_given_twice_is_refused_at_any_depth() {
        let dir = Path::new("d");
        for bad in [
            r#"{"games":1,"games":2}"#,
            r#"{"run":{"a":1,"b":[{"x":1,"x":1}]}}"#,
        ] {
            let e = parse_json(bad, dir, "summary.json")
                .unwrap_err()
                .to_string();
            assert!(e.contains("appears twice"), "{bad}: {e}");
        }
        let v = parse_json(
            r#"{"a":{"x":1},"b":{"x":2.5},"c":[null,true,"s",-3]}"#,
            dir,
            "s",
        );
        assert_eq!(
            v.unwrap(),
            serde_json::json!({"a":{"x":1},"b":{"x":2.5},"c":[null,true,"s",-3]})
        );
    }

    /// What an editor on another system saves: a UTF-8 byte-order mark and CRLF line ends are
    /// read; UTF-16 is named.
    #[test]
    fn a_byte_order_mark_and_crlf_are_read_and_utf16_is_named() {
        let dir = scratch("bom");
        fs::write(
            dir.join("summary.json"),
            b"\xEF\xBB\xBF{\r\n\"game\": \"war\"\r\n}\r\n",
        )
        .unwrap();
        let text = read_text(&dir, "summary.json", 100).unwrap();
        assert_eq!(
            parse_json(&text, &dir, "summary.json").unwrap()["game"],
            "war"
        );
        fs::write(dir.join("summary.json"), b"\xFF\xFE{\x00}\x00").unwrap();
        let e = read_text(&dir, "summary.json", 100)
            .unwrap_err()
            .to_string();
        assert!(e.contains("UTF-16"), "{e}");
        fs::remove_dir_all(&dir).unwrap();
    }
}
