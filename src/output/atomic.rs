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

use std::ffi::CString;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Seek, Write};
use std::os::fd::AsRawFd;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

use anyhow::{anyhow, Context, Result};

use super::reader;
use crate::error::UsageError;
use crate::usage;

/// The files warsim writes into an output directory, besides [`MARKER`]. A directory holding
/// anything else is not replaced: it may be a user's own.
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
    /// One rule set's folder inside a sweep's set: replaced only with its sweep.
    RuleSet,
}

impl Kind {
    const ALL: [Kind; 6] = [
        Kind::Simulate,
        Kind::Exact,
        Kind::Merge,
        Kind::Sweep,
        Kind::Compare,
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
            Kind::Exact => &["summary.json", "chain.json"],
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
}

static PENDING: Mutex<Pending> = Mutex::new(Pending {
    dirs: Vec::new(),
    created: Vec::new(),
    locks: Vec::new(),
    committed: Vec::new(),
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
    if EMBEDDED.load(Ordering::Relaxed) {
        return;
    }
    ONCE.call_once(|| {
        let _ = ctrlc::set_handler(on_interrupt);
    });
}

/// Set when warsim runs inside another program (the Python package): the host keeps its own
/// SIGINT handling, and an interrupted run leaves its hidden staging directory for the next
/// run into the same directory to remove.
static EMBEDDED: AtomicBool = AtomicBool::new(false);

/// Marks the process as a host that handles its own signals ([`EMBEDDED`]).
pub fn embedded() {
    EMBEDDED.store(true, Ordering::Relaxed);
}

fn on_interrupt() {
    let p = pending();
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

    /// Writes `value` as JSON file `name` of the directory ([`super::stdout::pretty_json`]).
    pub fn write_json<T: serde::Serialize + ?Sized>(&self, name: &str, value: &T) -> Result<()> {
        self.write(name, &super::stdout::pretty_json(value)?)
    }

    /// Where the directory will be.
    pub fn target(&self) -> &Path {
        &self.target
    }
}

/// `--out` taken apart: the folder it names, its parent (absolute, symbolic links resolved)
/// and its last component.
struct Target {
    /// As the user will read it in messages.
    shown: PathBuf,
    parent: PathBuf,
    name: String,
}

impl Target {
    /// Spells out `--out`: `DIR/.` is DIR, `a/../b` is b; the root and names that no rename
    /// can use are refused. `created` receives the parent folders made on the way.
    fn resolve(out: &Path, created: &mut Vec<PathBuf>) -> Result<Target> {
        let given = out.display();
        if out.as_os_str().is_empty() {
            return Err(usage!("--out is empty; name a directory").into());
        }
        // `./a//b/` is `a/b`: `.` components and repeated or trailing slashes say nothing.
        let tidy: PathBuf = out
            .components()
            .filter(|c| !matches!(c, Component::CurDir))
            .collect();
        let plain = tidy
            .components()
            .all(|c| matches!(c, Component::Normal(_) | Component::RootDir));
        let (parent, name, shown) = if let (true, Some(name)) = (plain, tidy.file_name()) {
            let parent = match tidy.parent() {
                Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
                _ => PathBuf::from("."),
            };
            make_parents(&parent, created)
                .with_context(|| format!("--out {given}: cannot create {}", parent.display()))?;
            let real = fs::canonicalize(&parent)
                .with_context(|| format!("--out {given}: cannot resolve {}", parent.display()))?;
            // A file on the way cannot be created as a folder: an I/O failure (exit 1), named.
            if !real.is_dir() {
                return Err(anyhow!(
                    "--out {given}: cannot create it: {} is a file, not a folder",
                    parent.display()
                ));
            }
            (real, name.to_os_string(), tidy.clone())
        } else {
            // `.` or `..` inside: the folder it names must exist to say which one it is.
            let real = fs::canonicalize(out).map_err(|e| {
                usage!("--out {given}: cannot tell which folder this is ({e}); spell it out")
            })?;
            let (Some(parent), Some(name)) = (real.parent(), real.file_name()) else {
                return Err(usage!("--out {given} is the root folder; name a folder in it").into());
            };
            (parent.to_path_buf(), name.to_os_string(), real.clone())
        };
        let name = name
            .into_string()
            .map_err(|_| usage!("--out {given}: the folder name is not UTF-8"))?;
        if name.len() > NAME_ROOM {
            return Err(usage!(
                "--out {given}: the folder name is {} bytes; at most {NAME_ROOM} leave room for \
                 its staging folder",
                name.len()
            )
            .into());
        }
        let full = parent.join(&name).as_os_str().len() + 64;
        if full > libc::PATH_MAX as usize {
            return Err(usage!("--out {given}: the path is too long for this system").into());
        }
        // Replacing the working folder (or one around it) would leave the shell that started
        // warsim in a deleted folder.
        let here = std::env::current_dir().ok();
        if here.is_some_and(|h| h.starts_with(parent.join(&name))) {
            return Err(usage!(
                "--out {given} is the current folder or holds it; name it from outside"
            )
            .into());
        }
        Ok(Target {
            shown,
            parent,
            name,
        })
    }

    fn path(&self) -> PathBuf {
        self.parent.join(&self.name)
    }

    fn sibling(&self, what: &str) -> PathBuf {
        self.parent.join(format!(".{}{what}", self.name))
    }
}

/// Creates `dir` and its missing ancestors one at a time, recording each one made.
fn make_parents(dir: &Path, created: &mut Vec<PathBuf>) -> io::Result<()> {
    let mut missing = Vec::new();
    let mut d = dir;
    while fs::symlink_metadata(d).is_err() {
        missing.push(d.to_path_buf());
        match d.parent() {
            Some(p) if !p.as_os_str().is_empty() => d = p,
            _ => break,
        }
    }
    for d in missing.into_iter().rev() {
        // Registered before it exists: a signal between the two finds nothing to remove.
        pending().created.push(d.clone());
        match fs::create_dir(&d) {
            Ok(()) => created.push(d),
            // Another run made it meanwhile (a sibling --out): it is theirs, not to remove.
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists && d.is_dir() => {
                pending().created.retain(|c| c != &d);
            }
            Err(e) => {
                pending().created.retain(|c| c != &d);
                return Err(e);
            }
        }
    }
    Ok(())
}

impl OutputSet {
    /// Takes the lock of `out`, checks that `out` may be replaced by a set of `kind` and is
    /// none of `inputs` (nor inside one, nor holding one), removes what killed runs left, and
    /// makes the staging directory (proving it can hold a megabyte).
    pub fn begin(out: &Path, kind: Kind, inputs: &[PathBuf]) -> Result<OutputSet> {
        install_cleanup();
        let mut created = Vec::new();
        let result = Self::begin_in(out, kind, inputs, &mut created);
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
    ) -> Result<OutputSet> {
        let t = Target::resolve(out, created)?;
        let target = t.path();
        check_inputs(&target, &t.shown, inputs)?;
        let lock = Lock::take(&t)?;
        check_target(&target, &t.shown, kind)?;
        remove_leftovers(&t);
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
        };
        fs::create_dir(&set.root.staging)
            .with_context(|| format!("cannot write beside --out {}", t.shown.display()))?;
        set.root
            .write(MARKER, kind.marker().as_bytes())
            .and_then(|()| set.probe())
            .with_context(|| format!("cannot write into --out {}", t.shown.display()))?;
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

    /// A new directory `name` inside the set.
    pub fn subdir(&self, name: &str) -> Result<Dir> {
        let dir = Dir {
            staging: self.root.staging.join(name),
            target: self.root.target.join(name),
        };
        fs::create_dir(&dir.staging)
            .with_context(|| format!("cannot write {}", dir.target.display()))?;
        dir.write(MARKER, Kind::RuleSet.marker().as_bytes())?;
        Ok(dir)
    }

    /// Puts the whole set in place: checks the target once more, then exchanges it with the
    /// staging directory in one step and removes the old set.
    pub fn commit(mut self) -> Result<()> {
        let shown = self.root.target.clone();
        let target = self.lock.as_ref().expect("held until drop").target.clone();
        sync_tree(&self.root.staging)
            .with_context(|| format!("cannot write {}", shown.display()))?;
        let old = {
            let mut p = pending();
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
                    return Err(UsageError(said).into());
                }
            }
            p.committed.push(shown.clone());
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
        pending().dirs.retain(|d| d != staging);
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

/// Refuses an `out` that is one of `inputs`, lies inside one, or holds one: writing it would
/// replace or change a run being read.
fn check_inputs(target: &Path, shown: &Path, inputs: &[PathBuf]) -> Result<(), UsageError> {
    for input in inputs {
        let Ok(real) = fs::canonicalize(input) else {
            continue; // reading it will say what is wrong
        };
        let how = if real == target {
            "is"
        } else if target.starts_with(&real) {
            "is inside"
        } else if real.starts_with(target) {
            "holds"
        } else {
            continue;
        };
        return Err(usage!(
            "--out {} {how} {}, which this command reads; write elsewhere",
            shown.display(),
            input.display()
        ));
    }
    Ok(())
}

/// Refuses a target that is not absent, empty or a complete set of `kind`: a file, a
/// symbolic link, a mount point, a set of another kind, or a folder holding anything warsim
/// does not write there (other runs included).
fn check_target(target: &Path, shown: &Path, kind: Kind) -> Result<(), UsageError> {
    let s = shown.display();
    let Ok(meta) = fs::symlink_metadata(target) else {
        return Ok(());
    };
    if meta.file_type().is_symlink() {
        return Err(usage!(
            "--out {s} is a symbolic link; name the folder it points to, or a new one"
        ));
    }
    if !meta.is_dir() {
        return Err(usage!("--out {s} exists and is not a directory"));
    }
    if is_mount_point(target, &meta) {
        return Err(usage!(
            "--out {s} is a mount point, which cannot be replaced by a rename; name a folder \
             inside it"
        ));
    }
    let entries = listing(target).map_err(|e| usage!("--out {s}: cannot read it ({e})"))?;
    if entries.is_empty() {
        return Ok(());
    }
    let marked = marker_kind(target);
    let has_marker = entries.iter().any(|(n, _)| n == MARKER);
    if !has_marker && !written_by_warsim(target, kind) {
        let all: Vec<String> = entries.iter().map(shown_entry).collect();
        return Err(held(s, &all));
    }
    match marked {
        Some(k) if k != kind => {
            return Err(usage!(
                "--out {s} holds the output of {}; `warsim {}` replaces only its own kind of \
                 output: name a new or empty directory",
                k.writer(),
                kind.name()
            ))
        }
        None if has_marker => {
            return Err(usage!(
                "--out {s}: its {MARKER} is not a warsim marker; name a new or empty directory"
            ))
        }
        _ => {}
    }
    if !entries
        .iter()
        .any(|(n, _)| kind.main_files().contains(&n.as_str()))
    {
        let all: Vec<String> = entries.iter().map(shown_entry).collect();
        return Err(held(s, &all));
    }
    let rule_sets = if kind == Kind::Sweep {
        sweep_folders(target)
    } else {
        Vec::new()
    };
    let theirs: Vec<String> = entries
        .iter()
        .filter(|(name, is_dir)| {
            let ours = if *is_dir {
                rule_sets.contains(name) && is_rule_set(&target.join(name))
            } else {
                name == MARKER || OUTPUT_FILES.contains(&name.as_str())
            };
            !ours
        })
        .map(shown_entry)
        .collect();
    if theirs.is_empty() {
        Ok(())
    } else {
        Err(held(s, &theirs))
    }
}

/// An entry as a message lists it: a folder with a slash.
fn shown_entry((name, is_dir): &(String, bool)) -> String {
    if *is_dir {
        format!("{name}/")
    } else {
        name.clone()
    }
}

fn held(s: std::path::Display, names: &[String]) -> UsageError {
    const SHOWN: usize = 5;
    let mut list = names
        .iter()
        .take(SHOWN)
        .cloned()
        .collect::<Vec<_>>()
        .join(", ");
    if names.len() > SHOWN {
        list.push_str(&format!(" and {} more", names.len() - SHOWN));
    }
    usage!(
        "--out {s} holds what warsim did not write there ({list}); warsim replaces only an \
         empty folder or its own output of the same kind: name a new or empty directory"
    )
}

/// Whether a set without a marker (written before markers) is warsim's: one of its kind's main
/// files is JSON whose `provenance.program` names warsim. File names alone prove nothing: a
/// user's folder may hold a README.md and a summary.json of its own.
fn written_by_warsim(dir: &Path, kind: Kind) -> bool {
    kind.main_files().iter().any(|name| {
        reader::read_text(dir, name, reader::MAX_SET_JSON_BYTES)
            .and_then(|text| reader::parse_json(&text, dir, name))
            .is_ok_and(|v| {
                v["provenance"]["program"]
                    .as_str()
                    .is_some_and(|p| p.starts_with("warsim "))
            })
    })
}

/// Whether `dir` holds only what warsim writes into a set or its staging folder (its marker as
/// a regular file, the probe, output files, and rule-set folders of output files): what a
/// killed run leaves, nothing of a user's.
fn only_warsim_files(dir: &Path) -> bool {
    let regular = |p: &Path| fs::symlink_metadata(p).is_ok_and(|m| m.file_type().is_file());
    listing(dir).is_ok_and(|entries| {
        entries.iter().all(|(name, is_dir)| {
            let path = dir.join(name);
            if *is_dir {
                listing(&path).is_ok_and(|inner| {
                    inner.iter().all(|(n, d)| {
                        let known = n == MARKER || OUTPUT_FILES.contains(&n.as_str());
                        !d && known && regular(&path.join(n))
                    })
                })
            } else {
                (name == MARKER || name == ".probe" || OUTPUT_FILES.contains(&name.as_str()))
                    && regular(&path)
            }
        })
    })
}

/// The entries of `dir`, sorted: (name, is a real directory).
fn listing(dir: &Path) -> io::Result<Vec<(String, bool)>> {
    let mut v = Vec::new();
    for entry in fs::read_dir(dir)? {
        let entry = entry?;
        let is_dir = entry.file_type().is_ok_and(|t| t.is_dir());
        v.push((entry.file_name().to_string_lossy().into_owned(), is_dir));
    }
    v.sort();
    Ok(v)
}

/// The rule-set folders a sweep's sweep.json names.
fn sweep_folders(dir: &Path) -> Vec<String> {
    let Ok(text) = reader::read_text(dir, "sweep.json", reader::MAX_SET_JSON_BYTES) else {
        return Vec::new();
    };
    let Ok(v) = reader::parse_json(&text, dir, "sweep.json") else {
        return Vec::new();
    };
    v["rule_sets"]
        .as_array()
        .map(|sets| {
            sets.iter()
                .filter_map(|s| s["name"].as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

/// Whether `dir` is one rule set's folder of a sweep: a summary.json, only files warsim writes
/// there, and a rule set's marker or none (a folder with another marker is a run someone put
/// there).
fn is_rule_set(dir: &Path) -> bool {
    let marker_ok = marker_kind(dir).map_or(!dir.join(MARKER).exists(), |k| k == Kind::RuleSet);
    marker_ok
        && listing(dir).is_ok_and(|entries| {
            entries.iter().any(|(n, _)| n == "summary.json")
                && entries
                    .iter()
                    .all(|(n, d)| !d && (n == MARKER || OUTPUT_FILES.contains(&n.as_str())))
        })
}

/// Whether `dir` is a mount point: on another device than its parent, or listed as one in
/// /proc/self/mountinfo (a bind mount stays on its device).
fn is_mount_point(dir: &Path, meta: &fs::Metadata) -> bool {
    let parent_dev = dir
        .parent()
        .and_then(|p| fs::metadata(p).ok())
        .map(|m| m.dev());
    if parent_dev.is_some_and(|d| d != meta.dev()) {
        return true;
    }
    let Ok(info) = fs::read_to_string("/proc/self/mountinfo") else {
        return false;
    };
    let Some(dir) = dir.to_str() else {
        return false;
    };
    info.lines()
        .filter_map(|l| l.split(' ').nth(4))
        .any(|m| unescape_mount(m) == dir)
}

/// mountinfo writes a space, tab, newline and backslash in a path as `\040`, `\011`, `\012`
/// and `\134`.
fn unescape_mount(m: &str) -> String {
    m.replace("\\040", " ")
        .replace("\\011", "\t")
        .replace("\\012", "\n")
        .replace("\\134", "\\")
}

/// fsyncs every file and folder of `dir`, so that what the exchange puts in place is on disk.
fn sync_tree(dir: &Path) -> io::Result<()> {
    for entry in fs::read_dir(dir)? {
        let entry = entry?;
        if entry.file_type()?.is_dir() {
            sync_tree(&entry.path())?;
        } else {
            File::open(entry.path())?.sync_all()?;
        }
    }
    File::open(dir)?.sync_all()
}

fn c_path(p: &Path) -> io::Result<CString> {
    CString::new(p.as_os_str().as_bytes()).map_err(|_| io::ErrorKind::InvalidInput.into())
}

/// `renameat2(from, to, flags)`.
fn renameat2(from: &Path, to: &Path, flags: libc::c_uint) -> io::Result<()> {
    let (a, b) = (c_path(from)?, c_path(to)?);
    // SAFETY: `a` and `b` are NUL-terminated strings that outlive the call, which only reads
    // them; AT_FDCWD makes relative paths relative to the working directory, as `fs::rename`.
    let r = unsafe {
        libc::renameat2(
            libc::AT_FDCWD,
            a.as_ptr(),
            libc::AT_FDCWD,
            b.as_ptr(),
            flags,
        )
    };
    if r == 0 {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}

/// Puts `staging` at `target` and returns where the old set went (to be removed), if there
/// was one: an atomic exchange, or where the filesystem has none, [`rename_aside`].
fn exchange_or_rename(staging: &Path, target: &Path) -> io::Result<Option<PathBuf>> {
    if fs::symlink_metadata(target).is_err() {
        match renameat2(staging, target, libc::RENAME_NOREPLACE) {
            Ok(()) => return Ok(None),
            Err(e) if unsupported(&e) => {
                fs::rename(staging, target)?;
                return Ok(None);
            }
            Err(e) => return Err(e),
        }
    }
    match renameat2(staging, target, libc::RENAME_EXCHANGE) {
        Ok(()) => Ok(Some(staging.to_path_buf())),
        Err(e) if unsupported(&e) => rename_aside(staging, target).map(Some),
        Err(e) => Err(e),
    }
}

/// Undoes [`exchange_or_rename`]: the old set (at `old`) back at `target`, the new one back at
/// `staging`.
fn swap_back(staging: &Path, target: &Path, old: &Path) -> io::Result<()> {
    if old == staging {
        renameat2(staging, target, libc::RENAME_EXCHANGE)
    } else {
        fs::rename(target, staging)?;
        fs::rename(old, target)
    }
}

/// Whether `renameat2` failed for want of support (old kernel, or a filesystem such as some
/// network ones without the flag), not for a reason a plain rename would also meet.
fn unsupported(e: &io::Error) -> bool {
    matches!(
        e.raw_os_error(),
        Some(libc::EINVAL | libc::ENOSYS | libc::EOPNOTSUPP)
    )
}

/// The fallback where no exchange exists: the old set aside under a marked name, the new one
/// in, the old one returned for removal. Between the two renames `target` is absent; if the
/// second fails, the old set goes back.
fn rename_aside(staging: &Path, target: &Path) -> io::Result<PathBuf> {
    let name = staging
        .file_name()
        .and_then(|n| n.to_str())
        .and_then(|n| n.split_once(STAGING))
        .map(|(head, tail)| format!("{head}{ASIDE}{tail}"))
        .ok_or(io::ErrorKind::InvalidInput)?;
    let aside = staging.with_file_name(name);
    pending().dirs.push(aside.clone());
    fs::rename(target, &aside)?;
    if let Err(e) = fs::rename(staging, target) {
        let _ = fs::rename(&aside, target);
        return Err(e);
    }
    Ok(aside)
}

/// Removes the staging and set-aside folders of runs that died: hidden folders named after
/// the target with a process id and a time, holding a warsim marker and nothing but what
/// warsim writes, or nothing at all (a run killed before its marker; a removal cut short
/// removes the marker last, [`remove_staging`]). The caller holds the lock, so no live run
/// owns them; anything else of such a name is a user's and stays.
fn remove_leftovers(t: &Target) {
    let Ok(entries) = fs::read_dir(&t.parent) else {
        return;
    };
    let heads = [
        format!(".{}{STAGING}", t.name),
        format!(".{}{ASIDE}", t.name),
    ];
    let mut removed = 0;
    for entry in entries.flatten() {
        let file = entry.file_name().to_string_lossy().into_owned();
        let Some(tail) = heads.iter().find_map(|h| file.strip_prefix(h.as_str())) else {
            continue;
        };
        let stamped = tail
            .split_once('-')
            .is_some_and(|(a, b)| digits(a) && digits(b));
        let path = entry.path();
        let is_dir = entry.file_type().is_ok_and(|f| f.is_dir());
        let empty = || fs::read_dir(&path).is_ok_and(|mut d| d.next().is_none());
        let marked = || marker_kind(&path).is_some() && only_warsim_files(&path);
        let ours = stamped && is_dir && (empty() || marked());
        if ours && remove_marked(&path).is_ok() {
            removed += 1;
        }
    }
    if removed > 0 {
        let _ = writeln!(
            io::stderr(),
            "note: removed {removed} folder(s) left beside {} by a warsim run that was killed",
            t.shown.display()
        );
    }
}

fn digits(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

/// The lock of one target: `flock` on `.NAME.warsim-lock` beside it. The kernel releases it
/// when the holder exits or dies, so a stale lock never blocks; any process that opens the
/// same file, in any pid namespace, sees it held.
#[derive(Debug)]
struct Lock {
    file: File,
    path: PathBuf,
    /// The folder locked (resolved).
    target: PathBuf,
    /// Whether the lock file is warsim's (then removed on release); a user's own file of that
    /// name is locked but never written or removed.
    ours: bool,
}

/// How a lock file starts; the holder follows.
const LOCK_HEAD: &str = "warsim lock: ";

impl Lock {
    fn take(t: &Target) -> Result<Lock> {
        let path = t.sibling(LOCK);
        let s = t.shown.display();
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
                    _ => return Err(anyhow!(e).context(format!("cannot lock --out {s}"))),
                },
                // A folder, FIFO or symbolic link of that name is someone's: lock the parent
                // folder instead, which serialises the runs writing beside it.
                _ if fs::symlink_metadata(&path).is_ok_and(|m| !m.is_file()) => {
                    File::open(&t.parent).with_context(|| format!("cannot lock --out {s}"))?
                }
                Ok(_) => continue,
                Err(e) => return Err(anyhow!(e).context(format!("cannot lock --out {s}"))),
            };
            // SAFETY: flock on a descriptor this function owns; it touches no memory.
            if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } != 0 {
                let e = io::Error::last_os_error();
                if e.raw_os_error() == Some(libc::EWOULDBLOCK) {
                    return Err(anyhow!(
                        "--out {s}: another warsim run ({}) is writing it; wait for it or \
                         choose another directory",
                        holder(&file)
                    ));
                }
                return Err(anyhow!(e).context(format!("cannot lock --out {s}")));
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
            lock.claim()
                .with_context(|| format!("cannot lock --out {s}"))?;
            return Ok(lock);
        }
        Err(anyhow!(
            "--out {s}: cannot take its lock {}; other runs keep replacing it",
            path.display()
        ))
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
fn holder(file: &File) -> String {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("warsim-atomic-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn names(dir: &Path) -> Vec<String> {
        listing(dir).unwrap().into_iter().map(|e| e.0).collect()
    }

    fn begin(out: &Path) -> Result<OutputSet> {
        OutputSet::begin(out, Kind::Simulate, &[])
    }

    #[test]
    fn a_set_replaces_the_old_one_whole_or_not_at_all() {
        let dir = scratch("whole");
        let out = dir.join("out");
        let set = begin(&out).unwrap();
        set.dir().write("summary.json", b"1").unwrap();
        set.dir().write("cycles.csv", b"old").unwrap();
        set.commit().unwrap();
        assert_eq!(names(&out), [MARKER, "cycles.csv", "summary.json"]);
        // A new set without cycles.csv: the stale file does not survive.
        let set = begin(&out).unwrap();
        set.dir().write("summary.json", b"2").unwrap();
        set.commit().unwrap();
        assert_eq!(names(&out), [MARKER, "summary.json"]);
        assert_eq!(fs::read(out.join("summary.json")).unwrap(), b"2");
        // A set abandoned halfway leaves the old one untouched and nothing else.
        let set = begin(&out).unwrap();
        set.dir().write("summary.json", b"3").unwrap();
        drop(set);
        assert_eq!(fs::read(out.join("summary.json")).unwrap(), b"2");
        assert_eq!(names(&dir), ["out"]);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_second_writer_is_refused_and_a_dead_ones_leftovers_are_removed() {
        let dir = scratch("lock");
        let out = dir.join("out");
        let first = begin(&out).unwrap();
        let e = begin(&out).unwrap_err().to_string();
        assert!(e.contains("another warsim run (process"), "{e}");
        drop(first);
        // What a killed run leaves: a stale lock file, a staging folder with its marker, an
        // old set moved aside, an empty staging folder (killed before its marker).
        fs::write(
            dir.join(".out.warsim-lock"),
            "warsim lock: process 4000000000\n",
        )
        .unwrap();
        for leftover in [".out.warsim-staging-4000000000-1", ".out.warsim-old-4-2"] {
            fs::create_dir(dir.join(leftover)).unwrap();
            fs::write(dir.join(leftover).join(MARKER), Kind::Merge.marker()).unwrap();
        }
        fs::create_dir(dir.join(".out.warsim-staging-5-3")).unwrap();
        let set = begin(&out).unwrap();
        set.dir().write("summary.json", b"x").unwrap();
        set.commit().unwrap();
        assert_eq!(names(&dir), ["out"]);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_file_put_in_the_target_during_the_exchange_goes_back_with_the_old_set() {
        let dir = scratch("race");
        let (target, staging) = (dir.join("out"), dir.join(".out.warsim-staging-1-2"));
        for (d, text) in [(&target, "old"), (&staging, "new")] {
            fs::create_dir(d).unwrap();
            fs::write(d.join(MARKER), Kind::Simulate.marker()).unwrap();
            fs::write(d.join("summary.json"), text).unwrap();
        }
        // What commit does after its last check: a user's file arrived in between.
        fs::write(target.join("thesis.tex"), "mine").unwrap();
        let old = exchange_or_rename(&staging, &target).unwrap().unwrap();
        assert!(check_target(&old, &target, Kind::Simulate).is_err());
        swap_back(&staging, &target, &old).unwrap();
        assert_eq!(
            fs::read_to_string(target.join("thesis.tex")).unwrap(),
            "mine"
        );
        assert_eq!(
            fs::read_to_string(staging.join("summary.json")).unwrap(),
            "new"
        );
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_users_files_with_warsims_names_are_never_removed() {
        let dir = scratch("names");
        let out = dir.join("out");
        // A folder named like a leftover, holding a marker and a user's work.
        let marked = dir.join(".out.warsim-staging-7-8");
        fs::create_dir_all(marked.join("mywork")).unwrap();
        fs::write(marked.join(MARKER), Kind::Simulate.marker()).unwrap();
        fs::write(marked.join("mywork/thesis.tex"), "mine").unwrap();
        // A second name of a user's file, where the lock goes.
        fs::write(dir.join("digits.txt"), "12345").unwrap();
        fs::hard_link(dir.join("digits.txt"), dir.join(".out.warsim-lock")).unwrap();
        let set = begin(&out).unwrap();
        set.dir().write("summary.json", b"x").unwrap();
        set.commit().unwrap();
        assert!(marked.join("mywork/thesis.tex").exists());
        assert_eq!(fs::read_to_string(dir.join("digits.txt")).unwrap(), "12345");
        fs::remove_file(dir.join(".out.warsim-lock")).unwrap();
        let mine = [
            ".out.warsim-staging-12-34",                // no marker, not empty
            ".out.warsim-staging-notes",                // not a pid and time
            ".out.warsim-old-1-2.txt",                  // a file
            ".out.warsim-staging-x.warsim-staging-1-2", // another target's
        ];
        for name in &mine[..2] {
            fs::create_dir(dir.join(name)).unwrap();
            fs::write(dir.join(name).join("keep.txt"), "mine").unwrap();
        }
        fs::write(dir.join(mine[2]), "mine").unwrap();
        fs::create_dir(dir.join(mine[3])).unwrap();
        fs::write(dir.join(".out.warsim-lock"), "my own notes").unwrap();
        let set = begin(&out).unwrap();
        set.dir().write("summary.json", b"x").unwrap();
        set.commit().unwrap();
        for name in mine {
            assert!(dir.join(name).exists(), "{name} removed");
        }
        assert_eq!(
            fs::read_to_string(dir.join(".out.warsim-lock")).unwrap(),
            "my own notes"
        );
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn only_an_empty_folder_or_a_set_of_the_same_kind_is_replaced() {
        let dir = scratch("kinds");
        let out = dir.join("out");
        fs::create_dir(&out).unwrap();
        fs::write(out.join("notes.txt"), "mine").unwrap();
        let e = begin(&out).unwrap_err().to_string();
        assert!(e.contains("notes.txt"), "{e}");
        fs::remove_file(out.join("notes.txt")).unwrap();
        // A folder holding a run.
        let run = out.join("run");
        let set = begin(&run).unwrap();
        set.dir().write("summary.json", b"x").unwrap();
        set.commit().unwrap();
        let e = begin(&out).unwrap_err().to_string();
        assert!(e.contains("run/"), "{e}");
        assert!(run.join("summary.json").exists());
        // A set of another kind.
        let e = OutputSet::begin(&run, Kind::Merge, &[])
            .unwrap_err()
            .to_string();
        assert!(e.contains("`warsim simulate`"), "{e}");
        // Without a marker, warsim's file names alone are a user's folder: refused.
        fs::remove_file(run.join(MARKER)).unwrap();
        fs::write(run.join("README.md"), "# my notes").unwrap();
        let e = OutputSet::begin(&run, Kind::Merge, &[]).unwrap_err();
        assert!(e.to_string().contains("README.md"), "{e}");
        // A set written before markers, recognised by the program its summary names.
        let old = r#"{"game":"war","provenance":{"program":"warsim 0.0.9"}}"#;
        fs::write(run.join("summary.json"), old).unwrap();
        let set = OutputSet::begin(&run, Kind::Merge, &[]).unwrap();
        set.dir().write("summary.json", b"y").unwrap();
        set.commit().unwrap();
        assert_eq!(marker_kind(&run), Some(Kind::Merge));
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_sweep_replaces_its_rule_sets_but_not_a_run_put_beside_them() {
        let dir = scratch("sweep");
        let out = dir.join("res");
        let sweep = |names: &[&str]| -> Result<()> {
            let set = OutputSet::begin(&out, Kind::Sweep, &[])?;
            let list: Vec<String> = names
                .iter()
                .map(|n| format!(r#"{{"name":"{n}"}}"#))
                .collect();
            let json = format!(r#"{{"rule_sets":[{}]}}"#, list.join(","));
            set.dir().write("sweep.json", json.as_bytes()).unwrap();
            for n in names {
                set.subdir(n).unwrap().write("summary.json", b"{}").unwrap();
            }
            set.commit()
        };
        sweep(&["a", "b"]).unwrap();
        sweep(&["a"]).unwrap();
        assert_eq!(names(&out), [MARKER, "a", "sweep.json"]);
        let mine = begin(&out.join("mine")).unwrap();
        mine.dir().write("summary.json", b"{}").unwrap();
        mine.commit().unwrap();
        let e = sweep(&["a"]).unwrap_err().to_string();
        assert!(e.contains("mine/"), "{e}");
        assert!(out.join("mine/summary.json").exists());
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn an_input_is_never_the_output_nor_inside_it_nor_around_it() {
        let dir = scratch("inputs");
        let input = dir.join("runs/a");
        fs::create_dir_all(&input).unwrap();
        for (out, how) in [
            (input.clone(), "is"),
            (input.join("sub"), "is inside"),
            (dir.join("runs"), "holds"),
            (input.join("."), "is"),
        ] {
            let e = OutputSet::begin(&out, Kind::Merge, std::slice::from_ref(&input)).unwrap_err();
            assert!(e.to_string().contains(&format!(" {how} ")), "{e}");
        }
        assert_eq!(names(&dir), ["runs"]);
        assert_eq!(names(&input), Vec::<String>::new());
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn dots_are_spelled_out_and_bad_names_refused_before_anything_is_made() {
        let dir = scratch("dots");
        let out = dir.join("out");
        fs::create_dir(&out).unwrap();
        let set = begin(&out.join(".")).unwrap();
        assert_eq!(set.dir().target(), fs::canonicalize(&out).unwrap());
        set.dir().write("summary.json", b"x").unwrap();
        set.commit().unwrap();
        assert!(out.join("summary.json").exists());
        let e = begin(Path::new("/")).unwrap_err().to_string();
        assert!(e.contains("root"), "{e}");
        let long = dir.join("new/deeper").join("x".repeat(NAME_ROOM + 1));
        let e = begin(&long).unwrap_err().to_string();
        assert!(e.contains("folder name is"), "{e}");
        // A run that does not commit leaves none of the parent folders it made.
        let set = begin(&dir.join("p/q/r/out")).unwrap();
        assert!(dir.join("p/q/r").is_dir());
        drop(set);
        assert_eq!(names(&dir), ["out"]);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_reader_polling_mid_commit_always_finds_a_set() {
        let dir = scratch("poll");
        let out = dir.join("out");
        let commit = |n: u32| {
            let set = begin(&out).unwrap();
            set.dir()
                .write("summary.json", n.to_string().as_bytes())
                .unwrap();
            set.commit().unwrap();
        };
        commit(0);
        let stop = std::sync::Arc::new(AtomicBool::new(false));
        let poll = {
            let (stop, file) = (stop.clone(), out.join("summary.json"));
            std::thread::spawn(move || {
                let (mut polls, mut misses) = (0u64, 0u64);
                while !stop.load(Ordering::Relaxed) {
                    polls += 1;
                    if fs::read(&file).map_or(true, |b| b.is_empty()) {
                        misses += 1;
                    }
                }
                (polls, misses)
            })
        };
        for n in 1..=120 {
            commit(n);
        }
        stop.store(true, Ordering::Relaxed);
        let (polls, misses) = poll.join().unwrap();
        assert!(polls > 120, "the reader polled {polls} times");
        assert_eq!(misses, 0, "{misses} of {polls} polls found no summary.json");
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_rename_fallback_puts_the_new_set_in_and_keeps_the_old_on_failure() {
        let dir = scratch("fallback");
        let (target, staging) = (dir.join("out"), dir.join(".out.warsim-staging-1-2"));
        fs::create_dir(&target).unwrap();
        fs::write(target.join("summary.json"), "old").unwrap();
        fs::create_dir(&staging).unwrap();
        fs::write(staging.join("summary.json"), "new").unwrap();
        let aside = rename_aside(&staging, &target).unwrap();
        assert_eq!(aside, dir.join(".out.warsim-old-1-2"));
        assert_eq!(
            fs::read_to_string(target.join("summary.json")).unwrap(),
            "new"
        );
        assert_eq!(
            fs::read_to_string(aside.join("summary.json")).unwrap(),
            "old"
        );
        // A staging folder that is gone: the old set goes back in place.
        fs::remove_dir_all(&aside).unwrap();
        assert!(rename_aside(&staging, &target).is_err());
        assert_eq!(
            fs::read_to_string(target.join("summary.json")).unwrap(),
            "new"
        );
        fs::remove_dir_all(&dir).unwrap();
    }
}
