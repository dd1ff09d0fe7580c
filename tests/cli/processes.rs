//! Nothing lost across processes: locks held across pid namespaces, mount points refused up
//! front, an interrupt after the commit reported as such, a FIFO never waited on.

use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::nothing_lost::{readers, shotgun};
use crate::util::{fails, fails_within, listing, read, s, Scratch, LONG_RUN};

/// Runs `sh -c SCRIPT` with `$0` = the binary and `$1` = `arg`, as root in new namespaces;
/// `None` where this machine does not allow them (then the test says so and passes).
fn in_namespace(flags: &[&str], script: &str, arg: &Path) -> Option<Output> {
    let probe = Command::new("unshare").args(flags).arg("true").output();
    if !probe.is_ok_and(|o| o.status.success()) {
        eprintln!("unshare {flags:?} is not allowed here; not tested");
        return None;
    }
    let out = Command::new("unshare")
        .args(flags)
        .args(["sh", "-c", script, env!("CARGO_BIN_EXE_warsim"), s(arg)])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    Some(out)
}

#[test]
fn a_mount_point_is_refused_up_front() {
    let dir = Scratch::new("mount");
    let mnt = dir.path("mnt");
    std::fs::create_dir(&mnt).unwrap();
    let script = r#"mount -t tmpfs none "$1" && exec "$0" simulate shotgun --games 100 --out "$1""#;
    let Some(out) = in_namespace(&["-m"], script, &mnt) else {
        return;
    };
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("mount point"), "{err}");
}

#[test]
fn a_writer_in_another_pid_namespace_holds_the_lock() {
    let dir = Scratch::new("pidns");
    let out = dir.path("out");
    let flags = ["--pid", "--fork", "--kill-child"];
    if !Command::new("unshare")
        .args(flags)
        .arg("true")
        .status()
        .is_ok_and(|s| s.success())
    {
        eprintln!("unshare --pid is not allowed here; not tested");
        return;
    }
    let mut holder = Command::new("unshare")
        .args(flags)
        .arg(env!("CARGO_BIN_EXE_warsim"))
        .args(LONG_RUN)
        .arg(&out)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let lock = dir.path(".out.warsim-lock");
    let start = Instant::now();
    while !std::fs::read_to_string(&lock).is_ok_and(|t| t.ends_with('\n')) {
        assert!(start.elapsed() < Duration::from_secs(20), "no lock taken");
        std::thread::sleep(Duration::from_millis(20));
    }
    let line = fails(
        1,
        &["simulate", "shotgun", "--games", "10", "--out", s(&out)],
    );
    holder.kill().unwrap();
    holder.wait().unwrap();
    assert!(line.contains("another warsim run (process"), "{line}");
    assert!(line.contains("pid namespace"), "{line}");
    // Its holder gone (SIGKILL), the lock no longer blocks, and the leftovers go.
    std::thread::sleep(Duration::from_millis(200));
    shotgun(&out, None);
    assert_eq!(listing(&dir.0), ["out"]);
}

#[test]
fn interrupted_after_the_commit_the_message_says_the_set_was_written() {
    use std::io::Write;
    let dir = Scratch::new("late-sigint");
    let out = dir.path("out");
    // A full pipe as stdout: the run commits, then blocks printing its summary.
    let (reader, mut writer) = std::io::pipe().unwrap();
    let fill = vec![b'x'; 1 << 16];
    let flags = unsafe_nonblocking(&writer);
    while writer.write(&fill).is_ok() {}
    restore_blocking(&writer, flags);
    let child = Command::new(env!("CARGO_BIN_EXE_warsim"))
        .args(["simulate", "shotgun", "--games", "1000", "--out", s(&out)])
        .stdin(Stdio::null())
        .stdout(writer)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    let committed = || out.join("summary.json").exists() && !dir.path(".out.warsim-lock").exists();
    while !committed() {
        assert!(start.elapsed() < Duration::from_secs(20), "never committed");
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(200));
    let status = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let done = child.wait_with_output().unwrap();
    drop(reader);
    let err = String::from_utf8_lossy(&done.stderr);
    assert_eq!(done.status.code(), Some(130), "{err}");
    assert!(err.contains("was written in full"), "{err}");
    assert!(read(&out, "summary.json").contains("\"game\": \"shotgun\""));
}

/// Makes `w` non-blocking, returning its flags before.
fn unsafe_nonblocking(w: &std::io::PipeWriter) -> i32 {
    use std::os::fd::AsRawFd;
    // SAFETY: fcntl on a descriptor the caller owns; no memory is touched.
    unsafe {
        let flags = libc::fcntl(w.as_raw_fd(), libc::F_GETFL);
        libc::fcntl(w.as_raw_fd(), libc::F_SETFL, flags | libc::O_NONBLOCK);
        flags
    }
}

fn restore_blocking(w: &std::io::PipeWriter, flags: i32) {
    use std::os::fd::AsRawFd;
    // SAFETY: as in `unsafe_nonblocking`.
    unsafe {
        libc::fcntl(w.as_raw_fd(), libc::F_SETFL, flags);
    }
}

#[test]
fn a_fifo_in_a_run_folder_is_refused_without_blocking() {
    let dir = Scratch::new("fifo");
    let run = dir.path("run");
    std::fs::create_dir(&run).unwrap();
    let made = Command::new("mkfifo")
        .arg(run.join("summary.json"))
        .status()
        .unwrap();
    assert!(made.success());
    for args in readers(&run, &dir.path("m")) {
        let line = fails_within(5, 2, &args);
        assert!(line.contains("not a regular file"), "{line}");
    }
}
