//! All-or-nothing output sets that never destroy anything else.
//!
//! - `--out DIR` replaces DIR only when DIR is absent, empty, or itself a complete warsim output
//!   set of the same [`Kind`] (its [`MARKER`] file says which; sets written before markers are
//!   recognised by their files). Anything else, runs inside DIR included, is refused before any
//!   game is played, and DIR is checked again just before the commit.
//! - A run writes into a hidden staging directory beside DIR and commits with one atomic
//!   `renameat2(RENAME_EXCHANGE)`: a reader of `DIR/summary.json` finds the old set or the new
//!   one, never neither. The old set, now at the staging name, is removed after. Where the
//!   filesystem has no exchange, two renames run instead (old set aside, new set in), with a
//!   moment in which DIR is absent.
//! - A lock beside DIR (`flock` on `.DIR.warsim-lock`) refuses a second writer while the first
//!   runs; the kernel drops it when its holder dies, in whatever pid namespace or container.
//! - A run killed at any instant leaves at most hidden folders named after DIR, each holding
//!   the marker (or nothing); the next run into DIR removes them. SIGINT and SIGTERM are caught
//!   ([`install_cleanup`]) and clean up at once, and say whether the set was written.
//!
//! Here: the set and its signals; in `target`, what `--out` names and whether it may be
//! replaced; in `exchange`, the commit; in `lock`, the lock; in [`private`], this process's
//! own scratch folders (the Python package's runs without `out=`, its charts as bytes).

use std::ffi::CString;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Seek, Write};
use std::os::fd::AsRawFd;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
use std::path::{Component, Path, PathBuf};
use std::sync::Mutex;

use anyhow::{anyhow, Context, Result};

pub mod checkpoint;
mod exchange;
mod lock;
pub mod private;
mod target;

use crate::error::UsageError;
use crate::model::reader;
use crate::sim::engine::{Cancel, Cancelled};
use exchange::*;
use lock::Lock;
use target::*;

/// The files warsim writes into an output directory, besides [`MARKER`]. A directory holding
/// anything else is not replaced: it may be a user's own.
pub const OUTPUT_FILES: [&str; 36] = [
    "README.md",
    "report.html",
    "by.svg",
    "summary.json",
    "summary.csv",
    "histogram.csv",
    "histogram.png",
    "histogram.svg",
    "cycles.csv",
    "by.csv",
    "chain.json",
    "flawless.json",
    "by.png",
    "survival.png",
    "survival.svg",
    "quit.csv",
    "quit.png",
    "quit.svg",
    "places.png",
    "places.svg",
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
    "search.json",
    "best.txt",
    "reaching.json",
    "deals.txt",
    "census.json",
    "cycles.txt",
];

/// The hidden file in every output set (and every staging directory) naming the command that
/// wrote it.
pub const MARKER: &str = ".warsim-set";
/// How a marker starts; the kind's name follows.
const MARKER_HEAD: &str = "warsim output set: ";

/// The command that wrote a set. `--out` replaces only a set of the same kind, so a merge never
/// replaces a simulation, nor a simulation a sweep.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `simulate`.
    Simulate,
    /// `exact`.
    Exact,
    /// `merge`.
    Merge,
    /// `sweep`: a set with one run folder per rule set.
    Sweep,
    /// `compare`.
    Compare,
    /// `search`.
    Search,
    /// One rule set's folder inside a sweep's set: replaced only with its sweep.
    RuleSet,
}

impl Kind {
    const ALL: [Kind; 7] = [
        Kind::Simulate,
        Kind::Exact,
        Kind::Merge,
        Kind::Sweep,
        Kind::Compare,
        Kind::Search,
        Kind::RuleSet,
    ];

    /// The command's name, as the marker holds it.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Simulate => "simulate",
            Kind::Exact => "exact",
            Kind::Merge => "merge",
            Kind::Sweep => "sweep",
            Kind::Compare => "compare",
            Kind::Search => "search",
            Kind::RuleSet => "sweep-rule-set",
        }
    }

    /// What wrote a set of this kind, as messages say it.
    fn writer(self) -> String {
        match self {
            Kind::RuleSet => "a rule set of `warsim sweep`".into(),
            k => format!("`warsim {}`", k.name()),
        }
    }

    /// The files one of which every set of this kind holds, by which a set written before
    /// markers is known.
    fn main_files(self) -> &'static [&'static str] {
        match self {
            Kind::Sweep => &["sweep.json"],
            Kind::Compare => &["compare.json"],
            // `search --reaching` writes reaching.json instead, `search --census` census.json.
            Kind::Search => &["search.json", "reaching.json", "census.json"],
            Kind::Exact => &["summary.json", "chain.json", "flawless.json"],
            Kind::Simulate | Kind::Merge | Kind::RuleSet => &["summary.json"],
        }
    }

    fn marker(self) -> String {
        format!("{MARKER_HEAD}{}\n", self.name())
    }
}

/// The kind a marker file in `dir` names; `None` without a readable, well-formed marker.
fn marker_kind(dir: &Path) -> Option<Kind> {
    let regular = fs::symlink_metadata(dir.join(MARKER))
        .ok()?
        .file_type()
        .is_file();
    let text = regular.then(|| reader::read_text(dir, MARKER, 256).ok())??;
    let name = text.strip_prefix(MARKER_HEAD)?.trim_end_matches('\n');
    Kind::ALL.into_iter().find(|k| k.name() == name)
}

/// Free space the staging directory must accept before a run starts: a full disk is found
/// before the simulation, not after it.
const PROBE_BYTES: usize = 1 << 20;

/// The longest folder name `--out` may end in: its staging directory's name adds this much.
const NAME_ROOM: usize = 255 - ".".len() - STAGING.len() - 42;
/// What a staging directory's name holds after `.NAME`.
const STAGING: &str = ".warsim-staging-";
/// What a set moved aside by the rename fallback is called after `.NAME`.
const ASIDE: &str = ".warsim-old-";
/// What the lock file is called after `.NAME`.
const LOCK: &str = ".warsim-lock";

/// What a signal must clean up, and whether a set was already committed.
struct Pending {
    /// Staging and set-aside directories of this process.
    dirs: Vec<PathBuf>,
    /// Parent folders this process created for `--out`, outermost first.
    created: Vec<PathBuf>,
    /// Lock files this process created (it removes them while it holds them).
    locks: Vec<PathBuf>,
    /// Sets committed by this process.
    committed: Vec<PathBuf>,
    /// The stop of a run that writes what it has when interrupted ([`stop_on_interrupt`]).
    stop: Option<Cancel>,
}

static PENDING: Mutex<Pending> = Mutex::new(Pending {
    dirs: Vec::new(),
    created: Vec::new(),
    locks: Vec::new(),
    committed: Vec::new(),
    stop: None,
});

fn pending() -> std::sync::MutexGuard<'static, Pending> {
    PENDING.lock().unwrap_or_else(|e| e.into_inner())
}

/// Cleans up what [`PENDING`] lists, then exits with 130 (the shell's code for an interrupted
/// command), when SIGINT or SIGTERM arrives. It takes the same lock as [`OutputSet::commit`],
/// so it never interrupts an exchange halfway. Installed with the first output set, so an
/// interactive `play` keeps the default Ctrl-C.
fn install_cleanup() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let _ = ctrlc::set_handler(on_interrupt);
    });
}

/// Makes the first SIGINT or SIGTERM from now on set `cancel` instead of ending the process:
/// a search stops, writes what it found and commits its set; a second signal cleans up and
/// exits as before, writing nothing. The set's commit (or its drop) ends this.
pub fn stop_on_interrupt(cancel: &Cancel) {
    pending().stop = Some(cancel.clone());
}

/// Starts a message on a line of its own at a terminal: a progress bar's line, which the
/// terminal's `^C` has already half overwritten, is cleared, so no tail of it (`eft` of `3 s
/// left`) stays after a shorter message.
fn fresh_line(err: &mut io::Stderr) {
    if std::io::IsTerminal::is_terminal(&*err) {
        let _ = write!(err, "\r\x1b[2K");
    }
}

fn on_interrupt() {
    let mut p = pending();
    fresh_line(&mut io::stderr());
    if let Some(stop) = p.stop.take().filter(|s| !s.is_set()) {
        stop.set();
        p.stop = Some(stop);
        let _ = writeln!(
            io::stderr(),
            "stopping: writing what is finished so far (interrupt again to stop at once, \
             writing nothing)"
        );
        return;
    }
    for dir in &p.dirs {
        remove_staging(dir);
    }
    for lock in &p.locks {
        let _ = fs::remove_file(lock);
    }
    for dir in p.created.iter().rev() {
        let _ = fs::remove_dir(dir);
    }
    // `eprintln!` would panic on a full or closed stderr; exit status 130 says it anyway.
    let mut err = io::stderr();
    if p.committed.is_empty() {
        let _ = writeln!(err, "interrupted; nothing written");
    } else {
        let dirs: Vec<String> = p
            .committed
            .iter()
            .map(|d| d.display().to_string())
            .collect();
        let _ = writeln!(
            err,
            "interrupted after {} was written in full; its summary was not printed",
            dirs.join(", ")
        );
    }
    std::process::exit(130);
}

/// An output directory being written; dropped without [`OutputSet::commit`], it leaves the
/// old set as it was, removes its staging directory and the parent folders it made.
#[derive(Debug)]
pub struct OutputSet {
    root: Dir,
    kind: Kind,
    /// Parent folders made for `--out` (outermost first), kept only if the set is committed.
    created: Vec<PathBuf>,
    lock: Option<Lock>,
    /// The host's cancel ([`OutputSet::begin`]): once set, the set is not committed.
    cancel: Option<Cancel>,
    /// What the set it replaces held, as the line saying so names it ([`described`]).
    replacing: Option<String>,
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
        let write = || -> io::Result<()> {
            let mut f = File::create(&path)?;
            f.write_all(bytes)?;
            f.sync_all()
        };
        write().with_context(|| format!("cannot write {}", self.target.join(name).display()))
    }

    /// Writes `value` as JSON file `name` of the directory ([`crate::model::pretty_json`]).
    pub fn write_json<T: serde::Serialize + ?Sized>(&self, name: &str, value: &T) -> Result<()> {
        self.write(name, &crate::model::pretty_json(value)?)
    }

    /// Where the directory will be.
    pub fn target(&self) -> &Path {
        &self.target
    }
}

impl OutputSet {
    /// Takes the lock of `out`, checks that `out` may be replaced by a set of `kind` and is
    /// none of `inputs` (nor inside one, nor holding one), removes what killed runs left, and
    /// makes the staging directory (proving it can hold a megabyte).
    ///
    /// `host` says who answers SIGINT and SIGTERM. `None`: warsim itself (the command line),
    /// whose handler ([`install_cleanup`]) removes what is staged and exits. `Some(cancel)`: the
    /// program warsim runs in (the Python package), which keeps its own handler and sets
    /// `cancel` instead; the set then commits only while `cancel` is unset, so a call
    /// interrupted after its games were played leaves the old set where it was rather than
    /// replace it while its caller is told it was stopped (the check and the exchange happen
    /// under one lock: a set is committed before the cancel, and the caller can say so, or
    /// never). An interrupted host leaves the hidden staging directory for the next run into
    /// the same directory to remove.
    pub fn begin(
        out: &Path,
        kind: Kind,
        inputs: &[PathBuf],
        host: Option<&Cancel>,
    ) -> Result<OutputSet> {
        if host.is_none() {
            install_cleanup();
        }
        let mut created = Vec::new();
        let result = Self::begin_in(out, kind, inputs, &mut created, host).map(|mut set| {
            set.cancel = host.cloned();
            set
        });
        if result.is_err() {
            remove_created(&created);
        }
        result
    }

    fn begin_in(
        out: &Path,
        kind: Kind,
        inputs: &[PathBuf],
        created: &mut Vec<PathBuf>,
        host: Option<&Cancel>,
    ) -> Result<OutputSet> {
        let t = Target::resolve(out, created)?;
        let target = t.path();
        check_inputs(&target, &t.shown, inputs)?;
        check_not_inside_a_set(&t)?;
        let lock = Lock::take(&t)?;
        check_target(&target, &t.shown, kind)?;
        let replacing = described(&target, kind);
        let removed = remove_leftovers(&t);
        // The command line says what it removed, on stderr, as it says what it replaced; a
        // host (Python), whose own stderr does not see ours, is not told.
        if removed > 0 && host.is_none() {
            let _ = writeln!(
                io::stderr(),
                "note: removed {removed} folder(s) left beside {} by a warsim run that was killed",
                t.shown.display()
            );
        }
        let staging = t.sibling(&format!("{STAGING}{}-{}", std::process::id(), nanos()));
        pending().dirs.push(staging.clone());
        let mut set = OutputSet {
            root: Dir {
                staging,
                target: t.shown.clone(),
            },
            kind,
            created: std::mem::take(created),
            lock: Some(lock),
            cancel: None,
            replacing,
        };
        fs::create_dir(&set.root.staging)
            .map_err(|e| out_failed(&t, ": cannot write beside it", anyhow::Error::from(e)))?;
        set.root
            .write(MARKER, kind.marker().as_bytes())
            .and_then(|()| set.probe())
            .map_err(|e| out_failed(&t, ": cannot write into it", e))?;
        set.created.shrink_to_fit();
        Ok(set)
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

    /// Directory `name` inside the set, made unless this set made it before (a sweep keeps a
    /// rule set's data files there as it goes, and writes the rest of its files at the end).
    pub fn subdir(&self, name: &str) -> Result<Dir> {
        let dir = Dir {
            staging: self.root.staging.join(name),
            target: self.root.target.join(name),
        };
        let made = fs::symlink_metadata(&dir.staging).is_ok_and(|m| m.is_dir());
        if !made {
            fs::create_dir(&dir.staging)
                .with_context(|| format!("cannot write {}", dir.target.display()))?;
        }
        dir.write(MARKER, Kind::RuleSet.marker().as_bytes())?;
        Ok(dir)
    }

    /// Puts the whole set in place: checks the target once more, then exchanges it with the
    /// staging directory in one step and removes the old set.
    pub fn commit(mut self) -> Result<()> {
        let shown = self.root.target.clone();
        let target = self.lock.as_ref().expect("held until drop").target.clone();
        // A long run's checkpoints live in its staging folder; the set committed carries none.
        checkpoint::clear(&self.root)?;
        sync_tree(&self.root.staging)
            .with_context(|| format!("cannot write {}", shown.display()))?;
        let old = {
            let mut p = pending();
            if self.cancel.as_ref().is_some_and(Cancel::is_set) {
                return Err(Cancelled.into());
            }
            check_target(&target, &shown, self.kind)
                .map_err(|e| anyhow!("{e:#} (it changed while the run played; nothing written)"))?;
            let old = exchange_or_rename(&self.root.staging, &target)
                .with_context(|| format!("cannot move the output into {}", shown.display()))?;
            // Something written into the target between the check and the exchange is now
            // in the old set: put the old set back rather than delete it.
            if let Some(old) = &old {
                if let Err(e) = check_target(old, &shown, self.kind) {
                    let mut said =
                        format!("{e} (it changed while the run played; nothing written)");
                    if let Err(b) = swap_back(&self.root.staging, &target, old) {
                        said.push_str(&format!("; cannot put the old set back: {b}"));
                    }
                    return Err(UsageError::text(said).into());
                }
            }
            p.committed.push(shown.clone());
            p.stop = None;
            p.created.retain(|c| !self.created.contains(c));
            if let Some(old) = &old {
                p.dirs.push(old.clone());
            }
            old
        };
        self.created.clear();
        if let Some(old) = old {
            let _ = remove_marked(&old);
            pending().dirs.retain(|d| d != &old);
            // The command line says what it replaced (another game's run, say), on stderr:
            // stdout is the run's answer. A host (Python) was told by its own `out=`.
            if let (None, Some(what)) = (&self.cancel, &self.replacing) {
                let _ = writeln!(io::stderr(), "replaced {}/ ({what})", shown.display());
            }
        }
        if let Some(parent) = target.parent() {
            let _ = File::open(parent).and_then(|d| d.sync_all());
        }
        Ok(())
    }
}

/// Removes a staging (or set-aside) folder that another thread may still be writing into:
/// renamed first under a set-aside name, so that no file can be made in it by its path any
/// more, then removed; if removing fails, the next run into the target finds it by that name.
fn remove_staging(dir: &Path) {
    if fs::symlink_metadata(dir).is_err() {
        return;
    }
    let doomed = dir
        .file_name()
        .and_then(|n| n.to_str())
        .and_then(|n| n.split_once(STAGING).or_else(|| n.split_once(ASIDE)))
        .map(|(head, _)| {
            dir.with_file_name(format!("{head}{ASIDE}{}-{}", std::process::id(), nanos()))
        });
    let gone = match doomed {
        Some(d) if fs::rename(dir, &d).is_ok() => d,
        _ => dir.to_path_buf(),
    };
    for _ in 0..3 {
        if remove_marked(&gone).is_ok() || fs::symlink_metadata(&gone).is_err() {
            return;
        }
    }
}

/// Removes a staged or set-aside folder with its marker last, so that a removal cut short
/// (SIGKILL) leaves a folder the next run still recognises as warsim's.
fn remove_marked(dir: &Path) -> io::Result<()> {
    for entry in fs::read_dir(dir)? {
        let entry = entry?;
        if entry.file_name() == MARKER {
            continue;
        }
        if entry.file_type()?.is_dir() {
            fs::remove_dir_all(entry.path())?;
        } else {
            fs::remove_file(entry.path())?;
        }
    }
    let _ = fs::remove_file(dir.join(MARKER));
    fs::remove_dir(dir)
}

impl Drop for OutputSet {
    fn drop(&mut self) {
        let staging = &self.root.staging;
        remove_staging(staging);
        let mut p = pending();
        p.dirs.retain(|d| d != staging);
        p.stop = None;
        drop(p);
        drop(self.lock.take());
        remove_created(&self.created);
    }
}

/// Removes the parent folders a failed run made (innermost first; a folder that holds
/// anything now stays).
fn remove_created(created: &[PathBuf]) {
    for dir in created.iter().rev() {
        let _ = fs::remove_dir(dir);
    }
    pending().created.retain(|c| !created.contains(c));
}

/// A number that differs between two runs of the same process id (in two pid namespaces, or
/// after a reboot), for staging names.
fn nanos() -> u128 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos())
}

#[cfg(test)]
mod tests;
