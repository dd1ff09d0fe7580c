//! Folders of this process's own under the system's temporary folder, for files that are
//! read back and removed (the Python package's runs without `out=`, its charts as bytes).
//!
//! `/tmp` is shared: a name another user can guess lets them plant a symbolic link there and
//! have warsim write through it. So the folder's name holds 128 bits no one else can guess,
//! it is made with `mkdir` (which never follows a link and fails on any name that exists, so a
//! planted name is skipped, never reused), with mode 0700 (nobody else can list it, read it or
//! add to it), and only files inside it are written.

use std::fs::DirBuilder;
use std::hash::{BuildHasher, RandomState};
use std::io;
use std::os::unix::fs::DirBuilderExt;
use std::path::{Path, PathBuf};

/// A private folder, removed with everything in it when dropped.
#[derive(Debug)]
pub struct PrivateDir(PathBuf);

impl PrivateDir {
    /// Makes `$TMPDIR/PREFIX-<32 random hex digits>`.
    pub fn new(prefix: &str) -> io::Result<PrivateDir> {
        PrivateDir::new_in(&std::env::temp_dir(), prefix)
    }

    /// Makes `PARENT/PREFIX-<32 random hex digits>`.
    pub fn new_in(parent: &Path, prefix: &str) -> io::Result<PrivateDir> {
        for _ in 0..64 {
            let path = parent.join(format!(
                "{prefix}-{:016x}{:016x}",
                unguessable(),
                unguessable()
            ));
            match DirBuilder::new().mode(0o700).create(&path) {
                Ok(()) => return Ok(PrivateDir(path)),
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
                Err(e) => {
                    return Err(io::Error::new(
                        e.kind(),
                        format!("cannot make a private folder in {}: {e}", parent.display()),
                    ))
                }
            }
        }
        Err(io::Error::new(
            io::ErrorKind::AlreadyExists,
            format!(
                "cannot make a private folder in {}: every name tried exists",
                parent.display()
            ),
        ))
    }

    /// The folder.
    pub fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for PrivateDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// 64 bits no other process can predict: SipHash under keys the standard library draws from
/// the operating system's random source, of a number that differs at every call.
fn unguessable() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static CALLS: AtomicU64 = AtomicU64::new(0);
    RandomState::new().hash_one(CALLS.fetch_add(1, Ordering::Relaxed))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    /// A name planted in advance (a link to a victim's file, a folder) is never written through
    /// or reused; the folder is the caller's alone and gone once dropped.
    #[test]
    fn a_private_folder_is_unguessable_unshared_and_removed() {
        let parent = std::env::temp_dir().join(format!("warsim-private-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&parent);
        std::fs::create_dir_all(&parent).unwrap();
        let a = PrivateDir::new_in(&parent, "warsim-py").unwrap();
        let b = PrivateDir::new_in(&parent, "warsim-py").unwrap();
        assert_ne!(a.path(), b.path());
        let name = a.path().file_name().unwrap().to_str().unwrap().to_string();
        assert_eq!(name.len(), "warsim-py-".len() + 32, "{name}");
        let mode = std::fs::metadata(a.path()).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o700);
        std::fs::write(a.path().join("f"), "x").unwrap();
        let kept = a.path().to_path_buf();
        drop(a);
        assert!(!kept.exists());
        // mkdir on a planted link fails; new_in moves on to another name.
        let victim = parent.join("victim");
        std::fs::create_dir(&victim).unwrap();
        std::os::unix::fs::symlink(&victim, parent.join("planted")).unwrap();
        assert_eq!(
            DirBuilder::new()
                .create(parent.join("planted"))
                .unwrap_err()
                .kind(),
            io::ErrorKind::AlreadyExists
        );
        drop(b);
        std::fs::remove_dir_all(&parent).unwrap();
    }
}
