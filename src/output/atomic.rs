//! All-or-nothing output sets. A run writes its files into a hidden staging directory beside
//! `--out` and then moves the whole set into place, so a reader finds the old set or the new
//! one, never a mix; a lock file beside `--out` refuses a second writer while the first runs.
//!
//! A run that dies (SIGKILL, power loss) leaves its staging directory and lock behind, hidden
//! and named after its process id; the next run into the same `--out` finds that process gone
//! and removes them. SIGINT and SIGTERM are caught ([`install_cleanup`]) and clean up at once.

use std::fs::{self, File};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use anyhow::{anyhow, Context, Result};

use crate::usage;

/// The files warsim writes into an output directory. A directory holding anything else is
/// not replaced: it may be a user's own.
pub const OUTPUT_FILES: [&str; 22] = [
    "README.md",
    "summary.json",
    "summary.csv",
    "histogram.csv",
    "histogram.png",
    "histogram.svg",
    "cycles.csv",
    "by.csv",
    "chain.json",
    "by.png",
    "survival.png",
    "survival.svg",
    "compare.json",
    "compare.csv",
    "compare.png",
    "compare.svg",
    "sweep.json",
    "sweep.csv",
    "sweep.png",
    "sweep.svg",
    "means.png",
    "means.svg",
];

/// Whether `dir` is a run's output set inside a sweep's: a summary.json and only files warsim
/// writes.
fn is_run_set(dir: &Path) -> bool {
    dir.join("summary.json").is_file()
        && fs::read_dir(dir).is_ok_and(|entries| {
            entries.flatten().all(|e| {
                e.file_type().is_ok_and(|f| f.is_file())
                    && OUTPUT_FILES.contains(&e.file_name().to_string_lossy().as_ref())
            })
        })
}

/// Free space the staging directory must accept before a run starts: a full disk is found
/// before the simulation, not after it.
const PROBE_BYTES: usize = 1 << 20;

/// Paths to remove if the process is interrupted: staging directories and locks.
static CLEANUP: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// Removes every registered staging directory and lock, then exits with 130 (the shell's code
/// for an interrupted command), when SIGINT or SIGTERM arrives. Holding the same lock as
/// [`OutputSet::commit`], it never interrupts a set halfway into place. Installed with the
/// first output set, so an interactive `play` keeps the default Ctrl-C.
fn install_cleanup() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    if EMBEDDED.load(std::sync::atomic::Ordering::Relaxed) {
        return;
    }
    ONCE.call_once(|| {
        let _ = ctrlc::set_handler(on_interrupt);
    });
}

/// Set when warsim runs inside another program (the Python package): the host keeps its own
/// SIGINT handling, and an interrupted run leaves its hidden staging directory for the next
/// run into the same directory to remove.
static EMBEDDED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Marks the process as a host that handles its own signals ([`EMBEDDED`]).
pub fn embedded() {
    EMBEDDED.store(true, std::sync::atomic::Ordering::Relaxed);
}

fn on_interrupt() {
    {
        let paths = CLEANUP.lock().unwrap_or_else(|e| e.into_inner());
        for p in paths.iter() {
            remove_own(p);
        }
        // `eprintln!` would panic on a full or closed stderr; exit status 130 says it anyway.
        let _ = writeln!(std::io::stderr(), "interrupted; nothing written");
        std::process::exit(130);
    }
}

/// Removes a staging directory, or a lock if this process holds it (a lock registered before
/// it was taken may be another run's).
fn remove_own(path: &Path) {
    if path.to_string_lossy().ends_with(LOCK_SUFFIX) {
        let ours =
            fs::read_to_string(path).is_ok_and(|s| s.trim() == std::process::id().to_string());
        if ours {
            let _ = fs::remove_file(path);
        }
    } else {
        let _ = fs::remove_dir_all(path).or_else(|_| fs::remove_file(path));
    }
}

/// The end of a lock file's name.
const LOCK_SUFFIX: &str = ".warsim-lock";

fn register(path: &Path) {
    CLEANUP
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .push(path.to_path_buf());
}

fn unregister(path: &Path) {
    CLEANUP
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .retain(|p| p != path);
}

/// Whether process `pid` is alive (Linux: its /proc entry exists).
fn alive(pid: u32) -> bool {
    Path::new(&format!("/proc/{pid}")).exists()
}

/// An output directory being written; dropped without [`OutputSet::commit`], it leaves the
/// old set as it was and removes its staging directory.
#[derive(Debug)]
pub struct OutputSet {
    root: Dir,
    lock: PathBuf,
}

/// A directory of a staged output set: the set's own, or one inside it ([`OutputSet::subdir`]).
#[derive(Debug)]
pub struct Dir {
    /// Where its files are written now.
    staging: PathBuf,
    /// Where they will be once the set is committed.
    target: PathBuf,
}

impl Dir {
    /// Where file `name` of the directory is written.
    pub fn path(&self, name: &str) -> PathBuf {
        self.staging.join(name)
    }

    /// Writes `bytes` as file `name` of the directory.
    pub fn write(&self, name: &str, bytes: &[u8]) -> Result<()> {
        let path = self.path(name);
        let write = || -> std::io::Result<()> {
            let mut f = File::create(&path)?;
            f.write_all(bytes)?;
            f.sync_all()
        };
        write().with_context(|| format!("cannot write {}", self.target.join(name).display()))
    }

    /// Where the directory will be.
    pub fn target(&self) -> &Path {
        &self.target
    }
}

impl OutputSet {
    /// Takes the lock of `target`, checks that it is new, empty or a former warsim output, and
    /// makes the staging directory (proving it can hold a megabyte).
    pub fn begin(target: &Path) -> Result<OutputSet> {
        let name = target
            .file_name()
            .and_then(|n| n.to_str())
            .filter(|n| !n.is_empty() && *n != "." && *n != "..")
            .ok_or_else(|| usage!("--out {}: name a directory", target.display()))?;
        let parent = match target.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        fs::create_dir_all(&parent).with_context(|| {
            format!(
                "--out {}: cannot create {}",
                target.display(),
                parent.display()
            )
        })?;
        let lock = parent.join(format!(".{name}.warsim-lock"));
        // What this run may leave behind is registered before it exists, so a signal at any
        // instant cleans it up (a lock only if it holds this process's id).
        install_cleanup();
        register(&lock);
        take_lock(&lock, target)?;
        let set = OutputSet {
            root: Dir {
                target: target.to_path_buf(),
                staging: parent.join(format!(".{name}.warsim-staging-{}", std::process::id())),
            },
            lock,
        };
        set.check_target()?;
        remove_leftovers(&parent, name);
        register(&set.root.staging);
        fs::create_dir(&set.root.staging)
            .with_context(|| format!("cannot write beside --out {}", target.display()))?;
        set.probe()
            .with_context(|| format!("cannot write into --out {}", target.display()))?;
        Ok(set)
    }

    /// Refuses a target that is a file, or a directory holding files warsim does not write
    /// (directories of such files, a sweep's rule sets, are warsim's).
    fn check_target(&self) -> Result<()> {
        let t = &self.root.target;
        let Ok(meta) = fs::symlink_metadata(t) else {
            return Ok(());
        };
        if !meta.is_dir() {
            return Err(usage!("--out {} exists and is not a directory", t.display()).into());
        }
        let mut foreign = Vec::new();
        for entry in fs::read_dir(t).with_context(|| format!("cannot read {}", t.display()))? {
            let entry = entry?;
            let name = entry.file_name().to_string_lossy().into_owned();
            let kind = entry.file_type();
            let ours = if kind.as_ref().is_ok_and(|f| f.is_dir()) {
                !OUTPUT_FILES.contains(&name.as_str()) && is_run_set(&entry.path())
            } else {
                kind.is_ok_and(|f| f.is_file()) && OUTPUT_FILES.contains(&name.as_str())
            };
            if !ours {
                foreign.push(name);
            }
        }
        if !foreign.is_empty() {
            foreign.sort();
            return Err(usage!(
                "--out {} holds files warsim does not write ({}); name a new or empty directory",
                t.display(),
                foreign.join(", ")
            )
            .into());
        }
        Ok(())
    }

    fn probe(&self) -> Result<()> {
        let path = self.root.staging.join(".probe");
        let mut f = File::create(&path)?;
        f.write_all(&vec![0u8; PROBE_BYTES])?;
        f.sync_all()?;
        fs::remove_file(&path)?;
        Ok(())
    }

    /// The set's directory.
    pub fn dir(&self) -> &Dir {
        &self.root
    }

    /// A new directory `name` inside the set.
    pub fn subdir(&self, name: &str) -> Result<Dir> {
        let dir = Dir {
            staging: self.root.staging.join(name),
            target: self.root.target.join(name),
        };
        fs::create_dir(&dir.staging)
            .with_context(|| format!("cannot write {}", dir.target.display()))?;
        Ok(dir)
    }

    /// Moves the whole set into place: the old set (if any) aside, the new one in, the old one
    /// removed.
    pub fn commit(self) -> Result<()> {
        let guard = CLEANUP.lock().unwrap_or_else(|e| e.into_inner());
        let result = self.swap();
        drop(guard);
        result
            .with_context(|| format!("cannot move the output into {}", self.root.target.display()))
    }

    fn swap(&self) -> Result<()> {
        let Dir { staging, target } = &self.root;
        for entry in fs::read_dir(staging)? {
            File::open(entry?.path())?.sync_all()?;
        }
        let old = staging.with_extension("old");
        if target.exists() {
            fs::rename(target, &old)?;
        }
        if let Err(e) = fs::rename(staging, target) {
            let _ = fs::rename(&old, target);
            return Err(e.into());
        }
        let _ = fs::remove_dir_all(&old);
        if let Some(parent) = target.parent().filter(|p| !p.as_os_str().is_empty()) {
            let _ = File::open(parent).and_then(|d| d.sync_all());
        }
        Ok(())
    }
}

impl Drop for OutputSet {
    fn drop(&mut self) {
        remove_own(&self.root.staging);
        remove_own(&self.lock);
        unregister(&self.root.staging);
        unregister(&self.lock);
    }
}

/// Creates the lock file holding this process's id, or refuses while its owner lives; a dead
/// owner's lock is taken over. The id is written to a private file first and hard-linked into
/// place, so a lock never exists without its owner's id.
fn take_lock(lock: &Path, target: &Path) -> Result<()> {
    let pid = std::process::id();
    let mine = PathBuf::from(format!("{}.{pid}", lock.display()));
    register(&mine);
    fs::write(&mine, pid.to_string())
        .with_context(|| format!("cannot lock --out {}", target.display()))?;
    let result = (|| {
        for _ in 0..3 {
            match fs::hard_link(&mine, lock) {
                Ok(()) => return Ok(()),
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                    let owner = fs::read_to_string(lock)
                        .ok()
                        .and_then(|s| s.trim().parse::<u32>().ok());
                    match owner {
                        Some(pid) if alive(pid) => {
                            return Err(anyhow!(
                                "--out {}: another warsim run (process {pid}) is writing it; \
                                 wait for it or choose another directory",
                                target.display()
                            ))
                        }
                        _ => {
                            let _ = fs::remove_file(lock);
                        }
                    }
                }
                Err(e) => {
                    return Err(
                        anyhow!(e).context(format!("cannot lock --out {}", target.display()))
                    )
                }
            }
        }
        Err(anyhow!(
            "--out {}: cannot take its lock {}; if no warsim is running, remove it",
            target.display(),
            lock.display()
        ))
    })();
    let _ = fs::remove_file(&mine);
    unregister(&mine);
    result
}

/// Removes the staging and set-aside directories of runs that died (the caller holds the lock,
/// so no live run owns them).
fn remove_leftovers(parent: &Path, name: &str) {
    let staging = format!(".{name}.warsim-staging-");
    let private_lock = format!(".{name}{LOCK_SUFFIX}.");
    let Ok(entries) = fs::read_dir(parent) else {
        return;
    };
    for entry in entries.flatten() {
        let file = entry.file_name().to_string_lossy().into_owned();
        if file.starts_with(&staging) || file.starts_with(&private_lock) {
            let _ = fs::remove_dir_all(entry.path()).or_else(|_| fs::remove_file(entry.path()));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("warsim-atomic-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn listing(dir: &Path) -> Vec<String> {
        let mut v: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }

    #[test]
    fn a_set_replaces_the_old_one_whole_or_not_at_all() {
        let dir = scratch("whole");
        let out = dir.join("out");
        let set = OutputSet::begin(&out).unwrap();
        set.dir().write("summary.json", b"1").unwrap();
        set.dir().write("cycles.csv", b"old").unwrap();
        set.commit().unwrap();
        assert_eq!(listing(&out), ["cycles.csv", "summary.json"]);
        // A new set without cycles.csv: the stale file does not survive.
        let set = OutputSet::begin(&out).unwrap();
        set.dir().write("summary.json", b"2").unwrap();
        set.commit().unwrap();
        assert_eq!(listing(&out), ["summary.json"]);
        assert_eq!(fs::read(out.join("summary.json")).unwrap(), b"2");
        // A set abandoned halfway leaves the old one untouched and nothing else.
        let set = OutputSet::begin(&out).unwrap();
        set.dir().write("summary.json", b"3").unwrap();
        drop(set);
        assert_eq!(fs::read(out.join("summary.json")).unwrap(), b"2");
        assert_eq!(listing(&dir), ["out"]);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_second_writer_is_refused_and_a_dead_ones_leftovers_are_removed() {
        let dir = scratch("lock");
        let out = dir.join("out");
        let first = OutputSet::begin(&out).unwrap();
        let e = OutputSet::begin(&out).unwrap_err().to_string();
        assert!(e.contains("another warsim run"), "{e}");
        drop(first);
        // A lock and staging directory of a process that no longer exists.
        fs::write(dir.join(".out.warsim-lock"), "4000000000").unwrap();
        fs::create_dir(dir.join(".out.warsim-staging-4000000000")).unwrap();
        let set = OutputSet::begin(&out).unwrap();
        set.dir().write("summary.json", b"x").unwrap();
        set.commit().unwrap();
        assert_eq!(listing(&dir), ["out"]);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_directory_of_other_files_is_not_replaced() {
        let dir = scratch("foreign");
        fs::write(dir.join("notes.txt"), "mine").unwrap();
        let e = OutputSet::begin(&dir).unwrap_err().to_string();
        assert!(e.contains("notes.txt"), "{e}");
        assert!(dir.join("notes.txt").exists());
        fs::remove_dir_all(&dir).unwrap();
    }
}
