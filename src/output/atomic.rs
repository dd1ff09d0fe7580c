//! All-or-nothing file writes: a temporary file in the same directory, flushed, synced and
//! renamed over the target, so a reader never sees half a file.

use std::fs::{self, File};
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

/// The temporary name for `path`: hidden, unique to this process, and keeping the extension
/// (plotters picks the image format from it).
fn temporary(path: &Path) -> PathBuf {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("out");
    path.with_file_name(format!(".{name}.{}.tmp.{name}", std::process::id()))
}

/// Writes `bytes` to `path` atomically.
pub fn write_bytes(path: &Path, bytes: &[u8]) -> Result<()> {
    write_with(path, |tmp| {
        let mut f = File::create(tmp)?;
        f.write_all(bytes)?;
        f.flush()?;
        f.sync_all()?;
        Ok(())
    })
}

/// Lets `fill` write a temporary file, then renames it to `path`; on failure the temporary
/// file is removed and `path` is untouched.
pub fn write_with(path: &Path, fill: impl FnOnce(&Path) -> Result<()>) -> Result<()> {
    let tmp = temporary(path);
    let result = fill(&tmp).and_then(|()| {
        File::open(&tmp)?.sync_all()?;
        fs::rename(&tmp, path)?;
        Ok(())
    });
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result.with_context(|| format!("cannot write {}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn failed_write_leaves_nothing() {
        let dir = std::env::temp_dir().join(format!("warsim-atomic-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let target = dir.join("x.csv");
        let err = write_with(&target, |tmp| {
            fs::write(tmp, b"half")?;
            anyhow::bail!("disk full")
        });
        assert!(err.is_err());
        assert_eq!(fs::read_dir(&dir).unwrap().count(), 0);
        write_bytes(&target, b"whole").unwrap();
        assert_eq!(fs::read(&target).unwrap(), b"whole");
        assert_eq!(fs::read_dir(&dir).unwrap().count(), 1);
        fs::remove_dir_all(&dir).unwrap();
    }
}
