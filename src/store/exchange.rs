//! Putting a staged set in place: `renameat2(RENAME_EXCHANGE)` (a reader finds the old set or
//! the new one, never neither), the two-rename fallback where the filesystem has no exchange,
//! and undoing either when the old set turns out to hold something that is not warsim's.

use super::*;

/// fsyncs every file and folder of `dir`, so that what the exchange puts in place is on disk.
pub(super) fn sync_tree(dir: &Path) -> io::Result<()> {
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
pub(super) fn exchange_or_rename(staging: &Path, target: &Path) -> io::Result<Option<PathBuf>> {
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
pub(super) fn swap_back(staging: &Path, target: &Path, old: &Path) -> io::Result<()> {
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

#[cfg(test)]
mod tests {
    use super::super::tests::scratch;
    use super::*;

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
