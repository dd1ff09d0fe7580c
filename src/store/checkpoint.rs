//! Checkpoints of a long run, kept in its output set's staging folder: the games finished so
//! far as a stopped run's data files (`summary.json`, `histogram.csv`, ...: what `resume`
//! reads), in a folder `checkpoint-END` that appears whole or not at all (written under
//! another name, synced, then renamed). A SIGKILL or a power loss leaves the staging folder
//! beside `--out DIR`; `warsim resume DIR` finds its newest checkpoint ([`latest`]) and plays
//! on from there. The set's commit never carries one: it removes them first ([`clear`]). A
//! sweep's checkpoint is its sweep.json as a stopped sweep's, with the data files of the rule
//! set being played beside it (numbered by the sweep's count of checkpoints, not by a game).

use std::fs::{self, File};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use super::{Dir, STAGING};

/// How a checkpoint's files are put: each file's name and bytes, to the one given.
pub type Files<'a> = &'a dyn Fn(&mut dyn FnMut(&str, &[u8]) -> Result<()>) -> Result<()>;

/// A checkpoint's folder name: this, then its end game zero-padded (names sort as ends).
const PREFIX: &str = "checkpoint-";

/// The folder a checkpoint is written in before its rename.
const WRITING: &str = "checkpoint.writing";

/// The folder an old checkpoint is moved to before it is removed, so that a removal cut short
/// (SIGKILL) leaves no half checkpoint under a checkpoint's name.
const OLD: &str = "checkpoint.old";

/// Writes the data files `files` puts of a stopped run of the first games of its slice, up to
/// game `end` (a sweep's: its `end`th checkpoint), as the checkpoint of the set staged in
/// `dir`, then removes the checkpoints before it. (The run puts its own files: the store knows
/// no run.)
pub fn save(dir: &Dir, end: u64, files: Files<'_>) -> Result<()> {
    let fresh = dir.path(WRITING);
    let _ = fs::remove_dir_all(&fresh);
    fs::create_dir(&fresh)?;
    files(&mut |name: &str, bytes: &[u8]| {
        let mut f = File::create(fresh.join(name))?;
        f.write_all(bytes)?;
        Ok(f.sync_all()?)
    })?;
    File::open(&fresh)?.sync_all()?;
    let name = format!("{PREFIX}{end:020}");
    fs::rename(&fresh, dir.path(&name))
        .with_context(|| format!("cannot write a checkpoint beside {}", dir.target.display()))?;
    File::open(&dir.staging)?.sync_all()?;
    for old in checkpoints(&dir.staging)? {
        if old.file_name().is_some_and(|n| n != name.as_str()) {
            let doomed = dir.path(OLD);
            let _ = fs::remove_dir_all(&doomed);
            fs::rename(&old, &doomed)?;
            fs::remove_dir_all(&doomed)?;
        }
    }
    Ok(())
}

/// Removes every checkpoint (and one half written) from the set staged in `dir`.
pub(super) fn clear(dir: &Dir) -> Result<()> {
    let _ = fs::remove_dir_all(dir.path(WRITING));
    let _ = fs::remove_dir_all(dir.path(OLD));
    for old in checkpoints(&dir.staging)? {
        fs::remove_dir_all(&old)?;
    }
    Ok(())
}

/// The checkpoint folders in `staging`.
fn checkpoints(staging: &Path) -> io::Result<Vec<PathBuf>> {
    let mut found = Vec::new();
    for entry in fs::read_dir(staging)? {
        let entry = entry?;
        let name = entry.file_name().to_string_lossy().into_owned();
        let end = name.strip_prefix(PREFIX);
        if end.is_some_and(super::target::digits) && entry.file_type()?.is_dir() {
            found.push(entry.path());
        }
    }
    found.sort();
    Ok(found)
}

/// The newest checkpoint that a killed run into `out` left in its staging folder (of each
/// staging folder its last by name, which two stand in only while the older is removed; of
/// those, the one written last), if any.
pub fn latest(out: &Path) -> Option<PathBuf> {
    let name = out.file_name()?.to_string_lossy().into_owned();
    let parent = match out.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let head = format!(".{name}{STAGING}");
    let stagings = fs::read_dir(parent).ok()?.flatten().filter(|e| {
        let file = e.file_name().to_string_lossy().into_owned();
        file.starts_with(&head) && e.file_type().is_ok_and(|t| t.is_dir())
    });
    let found = stagings.filter_map(|s| checkpoints(&s.path()).ok()?.pop());
    found.max_by_key(|c| {
        let when = fs::metadata(c).and_then(|m| m.modified()).ok();
        (when, c.file_name().map(|n| n.to_os_string()))
    })
}
