//! The lock of one target: `flock` on `.NAME.warsim-lock` beside it, with its holder written in
//! when the file is warsim's.

use super::*;

/// The lock of one target: `flock` on `.NAME.warsim-lock` beside it. The kernel releases it
/// when the holder exits or dies, so a stale lock never blocks; any process that opens the
/// same file, in any pid namespace, sees it held.
#[derive(Debug)]
pub(super) struct Lock {
    pub(super) file: File,
    pub(super) path: PathBuf,
    /// The folder locked (resolved).
    pub(super) target: PathBuf,
    /// Whether the lock file is warsim's (then removed on release); a user's own file of that
    /// name is locked but never written or removed.
    pub(super) ours: bool,
}

/// How a lock file starts; the holder follows.
const LOCK_HEAD: &str = "warsim lock: ";

/// `--out DIR` (Python's `out=DIR`) that cannot be locked, for the system's reason `e`.
fn cannot_lock(t: &Target, e: io::Error) -> anyhow::Error {
    out_failed(t, ": cannot lock it", anyhow::Error::from(e))
}

impl Lock {
    pub(super) fn take(t: &Target) -> Result<Lock> {
        let path = t.sibling(LOCK);
        for _ in 0..5 {
            let open = |write: bool| {
                OpenOptions::new()
                    .read(true)
                    .write(write)
                    .create(write)
                    .truncate(false)
                    .mode(0o644)
                    .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
                    .open(&path)
            };
            let regular = |f: &File| f.metadata().is_ok_and(|m| m.is_file());
            let file = match open(true) {
                Ok(f) if regular(&f) => f,
                // Another user's lock file (a stale one, say): locking needs no write access.
                Err(e) if e.kind() == io::ErrorKind::PermissionDenied => match open(false) {
                    Ok(f) if regular(&f) => f,
                    _ => return Err(cannot_lock(t, e)),
                },
                // A folder, FIFO or symbolic link of that name is someone's: lock the parent
                // folder instead, which serialises the runs writing beside it.
                _ if fs::symlink_metadata(&path).is_ok_and(|m| !m.is_file()) => {
                    File::open(&t.parent).map_err(|e| cannot_lock(t, e))?
                }
                Ok(_) => continue,
                Err(e) => return Err(cannot_lock(t, e)),
            };
            // SAFETY: flock on a descriptor this function owns; it touches no memory.
            if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } != 0 {
                let e = io::Error::last_os_error();
                if e.raw_os_error() == Some(libc::EWOULDBLOCK) {
                    let said = format!(
                        ": another warsim run ({}) is writing it; wait for it or choose \
                         another directory",
                        holder(&file)
                    );
                    return Err(out_failed(t, said, None));
                }
                return Err(cannot_lock(t, e));
            }
            let meta = file.metadata()?;
            if !meta.is_file() {
                return Ok(Lock {
                    file,
                    path,
                    target: t.path(),
                    ours: false,
                });
            }
            // The file may have been removed by the holder between our open and our flock;
            // then the lock we hold is on a name no one else opens: take it again.
            let same = fs::symlink_metadata(&path)
                .is_ok_and(|m| m.ino() == meta.ino() && m.dev() == meta.dev());
            if !same {
                continue;
            }
            let mut lock = Lock {
                file,
                path,
                target: t.path(),
                ours: false,
            };
            lock.claim().map_err(|e| cannot_lock(t, e))?;
            return Ok(lock);
        }
        let said = format!(
            ": cannot take its lock {}; other runs keep replacing it",
            path.display()
        );
        Err(out_failed(t, said, None))
    }

    /// Writes this process as the holder, unless the file holds something else (a user's) or
    /// cannot be written (another user's).
    fn claim(&mut self) -> io::Result<()> {
        let writable = fs::OpenOptions::new().write(true).open(&self.path).is_ok();
        if !writable {
            return Ok(());
        }
        let mut text = String::new();
        (&self.file).take(4096).read_to_string(&mut text).ok();
        // A second name of some other file (a hard link) is not warsim's to write or remove.
        let linked = self.file.metadata()?.nlink() > 1;
        if linked || !(text.is_empty() || text.starts_with(LOCK_HEAD)) {
            return Ok(());
        }
        pending().locks.push(self.path.clone());
        self.ours = true;
        self.file.set_len(0)?;
        self.file.rewind()?;
        self.file.write_all(me().as_bytes())?;
        self.file.flush()
    }
}

impl Drop for Lock {
    fn drop(&mut self) {
        if self.ours {
            // Removed while held: a run waiting on the old file finds it gone and retries.
            let _ = fs::remove_file(&self.path);
            pending().locks.retain(|l| l != &self.path);
        }
    }
}

/// This process as a lock file names it: process id, host and pid namespace.
fn me() -> String {
    format!(
        "{LOCK_HEAD}process {} on {} in pid namespace {}\n",
        std::process::id(),
        hostname(),
        pid_namespace()
    )
}

fn hostname() -> String {
    fs::read_to_string("/proc/sys/kernel/hostname")
        .map(|h| h.trim().to_string())
        .unwrap_or_else(|_| "?".into())
}

fn pid_namespace() -> String {
    fs::read_link("/proc/self/ns/pid")
        .map(|p| p.display().to_string())
        .unwrap_or_else(|_| "?".into())
}

/// Who holds a lock, as far as its file says, in words.
pub(super) fn holder(file: &File) -> String {
    let mut text = String::new();
    let _ = file.take(4096).read_to_string(&mut text);
    let Some(rest) = text.strip_prefix(LOCK_HEAD) else {
        return "holder unknown".into();
    };
    let clean: String = rest.trim().chars().filter(|c| !c.is_control()).collect();
    let here = format!(" on {} in pid namespace {}", hostname(), pid_namespace());
    match clean.strip_suffix(&here) {
        Some(local) => local.to_string(),
        None => clean,
    }
}
