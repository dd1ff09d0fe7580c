//! Which folder `--out` names and whether a set may replace it: the name spelled out, parents
//! made (and recorded, so a failed run removes them), inputs never written onto, into or
//! around, and the folder's contents checked against what warsim writes there; and the
//! leftovers of killed runs told apart from a user's files.

use super::*;
use std::ffi::OsString;
use warsim_core::error::{setting, setting_alone};
use warsim_core::usage_of;

use crate::error::Failure;

/// `--out` taken apart: the folder it names, its parent (absolute, symbolic links resolved)
/// and its last component.
pub(super) struct Target {
    /// As the user will read it in messages.
    pub(super) shown: PathBuf,
    pub(super) parent: PathBuf,
    pub(super) name: String,
}

impl Target {
    /// Spells out `--out`: `DIR/.` is DIR, `a/../b` is b; the root and names that no rename
    /// can use are refused. `created` receives the parent folders made on the way.
    pub(super) fn resolve(out: &Path, created: &mut Vec<PathBuf>) -> Result<Target> {
        if out.as_os_str().is_empty() {
            return Err(usage_of![setting_alone("out"), " is empty; name a directory"].into());
        }
        let (parent, name, shown) = locate(out, created)?;
        let name = checked_name(out, &parent, name)?;
        Ok(Target {
            shown,
            parent,
            name,
        })
    }

    pub(super) fn path(&self) -> PathBuf {
        self.parent.join(&self.name)
    }

    pub(super) fn sibling(&self, what: &str) -> PathBuf {
        self.parent.join(format!(".{}{what}", self.name))
    }
}

/// Where `out` is: its parent folder (made if missing, symbolic links resolved), its last
/// component, and the path as messages show it. `created` receives the parent folders made.
fn locate(out: &Path, created: &mut Vec<PathBuf>) -> Result<(PathBuf, OsString, PathBuf)> {
    let given = out.display();
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
        // A file on the way cannot hold a folder: the path given is wrong, a usage error
        // (exit 2) that names the file.
        let on_a_file = || {
            out_error(
                &given,
                format!(
                    ": cannot create it: {} or a folder above it is a file, not a \
                 folder",
                    parent.display()
                ),
            )
        };
        match make_parents(&parent, created) {
            Err(e) if e.raw_os_error() == Some(libc::ENOTDIR) => return Err(on_a_file().into()),
            made => made.map_err(|e| {
                let said = format!(": cannot create {}", parent.display());
                Failure::error(out_error(&given, said), anyhow::Error::from(e))
            })?,
        }
        let real = fs::canonicalize(&parent).map_err(|e| {
            let said = format!(": cannot resolve {}", parent.display());
            Failure::error(out_error(&given, said), anyhow::Error::from(e))
        })?;
        if !real.is_dir() {
            return Err(on_a_file().into());
        }
        (real, name.to_os_string(), tidy.clone())
    } else {
        // `.` or `..` inside: the folder it names must exist to say which one it is.
        let real = fs::canonicalize(out).map_err(|e| {
            out_error(
                &given,
                format!(": cannot tell which folder this is ({e}); spell it out"),
            )
        })?;
        let (Some(parent), Some(name)) = (real.parent(), real.file_name()) else {
            return Err(out_error(&given, " is the root folder; name a folder in it").into());
        };
        (parent.to_path_buf(), name.to_os_string(), real.clone())
    };
    Ok((parent, name, shown))
}

/// The folder name `name` of `out` (in `parent`) if a set can take it: UTF-8, with room for its
/// staging folder beside it, a path the system takes, and not the working folder or one
/// around it.
fn checked_name(out: &Path, parent: &Path, name: OsString) -> Result<String> {
    let given = out.display();
    let name = name
        .into_string()
        .map_err(|_| out_error(&given, ": the folder name is not UTF-8"))?;
    if name.len() > NAME_ROOM {
        return Err(out_error(
            &given,
            format!(
                ": the folder name is {} bytes; at most {NAME_ROOM} leave room for \
                 its staging folder",
                name.len()
            ),
        )
        .into());
    }
    let full = parent.join(&name).as_os_str().len() + 64;
    if full > libc::PATH_MAX as usize {
        return Err(out_error(&given, ": the path is too long for this system").into());
    }
    // Replacing the working folder (or one around it) would leave the shell that started
    // warsim in a deleted folder.
    let here = std::env::current_dir().ok();
    if here.is_some_and(|h| h.starts_with(parent.join(&name))) {
        return Err(out_error(
            &given,
            " is the current folder or holds it; name it from outside",
        )
        .into());
    }
    Ok(name)
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

/// Refuses an `out` inside an output set (`--out out/war/more` beside out/war's files): the
/// set would hold a folder warsim did not write there, and refuse the next run into it.
pub(super) fn check_not_inside_a_set(t: &Target) -> Result<(), UsageError> {
    let Some(up) = (t.parent.ancestors()).position(|d| d.join(MARKER).exists()) else {
        return Ok(());
    };
    let set = t.parent.ancestors().nth(up).unwrap_or(&t.parent);
    // As the user named it (`out/war`), where `--out` spells it out that far.
    let shown = (t.shown.parent())
        .and_then(|p| p.ancestors().nth(up))
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(set);
    let what = marker_kind(set).map_or("a warsim output set".to_string(), |k| {
        format!("the output of {}", k.writer())
    });
    Err(out_error(
        &t.shown.display(),
        format!(
            " is inside {}, which holds {what}; name a folder outside it",
            shown.display()
        ),
    ))
}

/// What the set in `dir` holds, as `replaced out/ (simulate war, 30,000 games)` names it: the
/// command that wrote it, its game and how many games (an `exact` set's deals); `None` for no
/// set (an empty or absent folder).
pub(super) fn described(dir: &Path, kind: Kind) -> Option<String> {
    let kind = marker_kind(dir).unwrap_or(kind);
    let file = (kind.main_files().iter()).find(|f| dir.join(f).is_file())?;
    let mut words = kind.name().to_string();
    let text = reader::read_text(dir, file, 1 << 24).ok();
    let doc: Option<serde_json::Value> = text.and_then(|t| serde_json::from_str(&t).ok());
    let field = |k: &str| doc.as_ref().and_then(|d| d.get(k).cloned());
    if let Some(serde_json::Value::String(game)) = field("game") {
        words.push_str(&format!(" {game}"));
    }
    if let Some(n) = field("games").and_then(|n| n.as_u64()) {
        let unit = if kind == Kind::Exact { "deal" } else { "game" };
        words.push_str(&format!(", {}", crate::stats::summary::counted(n, unit)));
        if kind == Kind::Sweep {
            words.push_str(" a rule set");
        }
    }
    Some(words)
}

/// Refuses an `out` that is one of `inputs`, lies inside one, or holds one: writing it would
/// replace or change a run being read.
pub(super) fn check_inputs(
    target: &Path,
    shown: &Path,
    inputs: &[PathBuf],
) -> Result<(), UsageError> {
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
        return Err(out_error(
            &shown.display(),
            format!(
                " {how} {}, which this command reads; write elsewhere",
                input.display()
            ),
        ));
    }
    Ok(())
}

/// Refuses a target that is not absent, empty or a complete set of `kind`: a file, a
/// symbolic link, a mount point, a set of another kind, or a folder holding anything warsim
/// does not write there (other runs included).
pub(super) fn check_target(target: &Path, shown: &Path, kind: Kind) -> Result<(), UsageError> {
    let s = shown.display();
    let Ok(meta) = fs::symlink_metadata(target) else {
        return Ok(());
    };
    if meta.file_type().is_symlink() {
        return Err(out_error(
            &s,
            " is a symbolic link; name the folder it points to, or a new one",
        ));
    }
    if !meta.is_dir() {
        return Err(out_error(&s, " exists and is not a directory"));
    }
    if is_mount_point(target, &meta) {
        return Err(out_error(
            &s,
            " is a mount point, which cannot be replaced by a rename; name a folder \
             inside it",
        ));
    }
    check_owner(target, &meta, shown)?;
    let entries = listing(target).map_err(|e| out_error(&s, format!(": cannot read it ({e})")))?;
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
            return Err(out_error(
                &s,
                format!(
                    " holds the output of {}; `warsim {}` replaces only its own kind of \
                     output: name a new or empty directory",
                    k.writer(),
                    kind.name()
                ),
            ))
        }
        None if has_marker => {
            return Err(out_error(
                &s,
                format!(": its {MARKER} is not a warsim marker; name a new or empty directory"),
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
    let theirs = not_ours(target, kind, &entries);
    if theirs.is_empty() {
        Ok(())
    } else {
        Err(held(s, &theirs))
    }
}

/// The entries of the set of `kind` in `target` that warsim did not write there, as messages
/// show them: anything but its marker, its files, and (a sweep's) its rule-set folders.
fn not_ours(target: &Path, kind: Kind, entries: &[(String, bool)]) -> Vec<String> {
    let rule_sets = if kind == Kind::Sweep {
        sweep_folders(target)
    } else {
        Vec::new()
    };
    entries
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
        .collect()
}

/// Refuses a folder this user could not replace at the commit, so that the run is refused
/// before its first game rather than after its last: moving a folder needs write access to it
/// (its `..` entry changes), and in a sticky folder (as `/tmp` is) the folder's owner or the
/// owner of the folder around it.
fn check_owner(target: &Path, meta: &fs::Metadata, shown: &Path) -> Result<(), UsageError> {
    let s = shown.display();
    // SAFETY: geteuid has no preconditions and cannot fail.
    let euid = unsafe { libc::geteuid() };
    if euid == 0 {
        return Ok(());
    }
    let around = target.parent().and_then(|p| fs::metadata(p).ok());
    if let Some(p) = around {
        if p.mode() & libc::S_ISVTX != 0 && meta.uid() != euid && p.uid() != euid {
            return Err(out_error(
                &s,
                format!(
                    " belongs to user {} in a folder where only an entry's owner may replace \
                 it (the sticky bit, as in /tmp); name a folder of your own",
                    meta.uid()
                ),
            ));
        }
    }
    let path = CString::new(target.as_os_str().as_bytes())
        .map_err(|_| out_error(&s, ": the path holds a NUL byte"))?;
    // SAFETY: a NUL-terminated path that outlives the call; faccessat only reads it.
    let writable = unsafe {
        libc::faccessat(
            libc::AT_FDCWD,
            path.as_ptr(),
            libc::W_OK | libc::X_OK,
            libc::AT_EACCESS,
        )
    } == 0;
    if !writable {
        return Err(out_error(
            &s,
            format!(
                " belongs to user {} and this user may not write into it, so cannot replace \
             it; name a folder of your own",
                meta.uid()
            ),
        ));
    }
    Ok(())
}

/// An entry as a message lists it: a folder with a slash.
fn shown_entry((name, is_dir): &(String, bool)) -> String {
    if *is_dir {
        format!("{name}/")
    } else {
        name.clone()
    }
}

pub(super) fn held(s: std::path::Display, names: &[String]) -> UsageError {
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
    out_error(
        &s,
        format!(
            " holds what warsim did not write there ({list}); warsim replaces only an \
         empty folder or its own output of the same kind: name a new or empty directory"
        ),
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
pub(super) fn listing(dir: &Path) -> io::Result<Vec<(String, bool)>> {
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

/// Removes the staging and set-aside folders of runs that died: hidden folders named after
/// the target with a process id and a time, holding a warsim marker and nothing but what
/// warsim writes, or nothing at all (a run killed before its marker; a removal cut short
/// removes the marker last, [`remove_staging`]). The caller holds the lock, so no live run
/// owns them; anything else of such a name is a user's and stays. Returns how many it removed.
pub(super) fn remove_leftovers(t: &Target) -> usize {
    let Ok(entries) = fs::read_dir(&t.parent) else {
        return 0;
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
    removed
}

pub(super) fn digits(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

/// An error about `--out` (the setting `out`) `shown`: the setting, then `rest`.
/// Target `t` and `rest`, failed for the system's reason `cause`: not bad input, yet said of
/// `--out` (Python's `out=`) as a face says it.
pub(super) fn out_failed(
    t: &Target,
    rest: impl Into<warsim_core::error::Piece>,
    cause: impl Into<Option<anyhow::Error>>,
) -> anyhow::Error {
    Failure::error(out_error(&t.shown.display(), rest), cause)
}

fn out_error(
    shown: &dyn std::fmt::Display,
    rest: impl Into<warsim_core::error::Piece>,
) -> UsageError {
    usage_of![setting("out", shown), rest.into()]
}
