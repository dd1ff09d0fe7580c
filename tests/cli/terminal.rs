//! What a person sees with stdout on a terminal (a pseudo-terminal here): `play` answers in a
//! sentence, an interactive game keeps its machine transcript off the screen, and the same
//! commands to a pipe still write the seed documents' exact forms.

use std::io::Read;
use std::os::fd::{FromRawFd, OwnedFd};
use std::process::{Command, Output, Stdio};

use crate::util::ok;

/// A pseudo-terminal: its controlling side (read what the program wrote) and the terminal
/// side (the program's stdout).
fn pty() -> (std::fs::File, OwnedFd) {
    // SAFETY: posix_openpt, grantpt, unlockpt and ptsname_r are called as POSIX specifies,
    // each result checked; every descriptor opened is owned once.
    unsafe {
        let master = libc::posix_openpt(libc::O_RDWR | libc::O_NOCTTY);
        assert!(master >= 0, "posix_openpt");
        assert_eq!(libc::grantpt(master), 0);
        assert_eq!(libc::unlockpt(master), 0);
        let mut name = [0 as libc::c_char; 128];
        assert_eq!(libc::ptsname_r(master, name.as_mut_ptr(), name.len()), 0);
        let slave = libc::open(name.as_ptr(), libc::O_RDWR | libc::O_NOCTTY);
        assert!(slave >= 0, "open the terminal side");
        (
            std::fs::File::from_raw_fd(master),
            OwnedFd::from_raw_fd(slave),
        )
    }
}

/// Runs `warsim ARGS` with `input` on stdin and stdout on a terminal; returns the output with
/// stdout as the terminal showed it (its `\r\n` as `\n`).
pub fn at_terminal(args: &[&str], input: &str) -> Output {
    use std::io::Write;
    let (mut master, slave) = pty();
    let mut child = Command::new(env!("CARGO_BIN_EXE_warsim"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::from(slave))
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let mut out = child.wait_with_output().unwrap();
    // The terminal side is closed now (the child held the only copy): the controlling side
    // reads what was written, then fails with EIO.
    let mut shown = Vec::new();
    let mut buf = [0u8; 4096];
    while let Ok(n @ 1..) = master.read(&mut buf) {
        shown.extend_from_slice(&buf[..n]);
    }
    out.stdout = String::from_utf8(shown)
        .unwrap()
        .replace("\r\n", "\n")
        .into_bytes();
    out
}

/// Stdout as a terminal showed it, after a success.
fn shown(args: &[&str]) -> String {
    let out = at_terminal(args, "");
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn a_seed_documents_bare_answer_is_a_sentence_at_a_terminal() {
    for (args, bare, sentence) in [
        (
            &["play", "snap", "abba", "abca"][..],
            "2",
            "player 2 wins in turn 13",
        ),
        (
            &["play", "snap", "123", "321"],
            "1 2",
            "stalemate at turn 18: every card is in the common pile and no rotation makes a \
             pair; players 1 and 2 still in",
        ),
        (
            &["play", "rps", "r", "r", "s"],
            "1 2",
            "players 1 and 2 win: rock beats scissors",
        ),
        (
            &["play", "rps", "s", "p", "p"],
            "1",
            "player 1 wins: scissors beat paper",
        ),
        (
            &["play", "rps", "r", "p", "s"],
            "draw",
            "draw: no decision (one shape thrown, or all three)",
        ),
        (
            &["play", "shotgun", "rg fr"],
            "1",
            "player 1 wins in turn 2, shooting player 2",
        ),
        (
            &["play", "shotgun", "rr ff"],
            "0",
            "draw in turn 2: both players shot",
        ),
        (
            &["play", "shotgun", "rg gr"],
            "none",
            "nobody shot in the 2 turns given",
        ),
    ] {
        assert_eq!(shown(args), format!("{sentence}\n"), "{args:?}");
        assert_eq!(ok(args), format!("{bare}\n"), "{args:?} to a pipe");
    }
}

/// `play war` prints the same sentence anywhere: it has no seed document's bare form.
#[test]
fn war_says_the_same_at_a_terminal_and_in_a_pipe() {
    let args = ["play", "war", "--seed", "1"];
    assert_eq!(shown(&args), ok(&args));
}

/// At a terminal, `play jitsu` keeps its transcript off the screen and says the game in words
/// on stderr; `--trace` shows the transcript there too.
#[test]
fn jitsu_keeps_its_transcript_off_a_terminal() {
    let moves = "3 1 5 2 4\n".repeat(6);
    let out = at_terminal(&["play", "jitsu", "--seed", "18"], &moves);
    assert!(out.status.success());
    let words = String::from_utf8(out.stderr).unwrap();
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "player 1 wins the game\n"
    );
    for line in [
        "your won cards: none; the computer's won cards: none; your hand: 1: Snow 11 blue, \
         2: Water 9 red, 3: Water 5 yellow, 4: Fire 7 green, 5: Snow 10 yellow",
        "you played Water 5 yellow, the computer Fire 3 orange (Water beats Fire): you take \
         the round",
    ] {
        assert!(words.contains(line), "{line:?} not in\n{words}");
    }
    let traced = at_terminal(&["play", "jitsu", "--seed", "18", "--trace"], &moves);
    let transcript = include_str!("jitsu_seed18.txt");
    assert_eq!(String::from_utf8(traced.stdout).unwrap(), transcript);
}

/// Ctrl-C during a run with its progress bar on a terminal: the message starts on a cleared
/// line, so no tail of the bar (`eft` of `left`) is left beside it.
#[test]
fn an_interrupt_clears_the_progress_line_before_its_message() {
    let dir = crate::util::Scratch::new("pty-interrupt");
    let out = dir.path("out");
    let (mut master, slave) = pty();
    let mut child = Command::new(env!("CARGO_BIN_EXE_warsim"))
        .args(crate::util::LONG_RUN)
        .arg(&out)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::from(slave))
        .spawn()
        .unwrap();
    let reader = std::thread::spawn(move || {
        let mut shown = Vec::new();
        let mut buf = [0u8; 4096];
        while let Ok(n @ 1..) = master.read(&mut buf) {
            shown.extend_from_slice(&buf[..n]);
        }
        String::from_utf8_lossy(&shown).into_owned()
    });
    // The bar is drawn once the games have begun: give it a second.
    std::thread::sleep(std::time::Duration::from_millis(1500));
    let killed = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let status = child.wait().unwrap();
    let shown = reader.join().unwrap();
    assert_eq!(status.code(), Some(130), "{shown:?}");
    assert!(shown.contains(" games"), "no progress bar drawn: {shown:?}");
    // The run had played games: it writes them, marked stopped, and says so on a clean line.
    let last = shown.rsplit("\r\x1b[2K").next().unwrap();
    assert!(
        last.starts_with("interrupted: the run stopped after ") && last.ends_with("\r\n"),
        "{shown:?}"
    );
    let summary = crate::util::json(&crate::util::read(&out, "summary.json"));
    assert_eq!(summary["run"]["stopped"], true);
}
