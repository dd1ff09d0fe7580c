//! The `warsim` binary: parse, run, and map errors to exit codes (0 ok, 1 failure, 2 bad usage,
//! 130 interrupted).

use std::io::{self, IsTerminal, Write};
use std::process::ExitCode;
#[cfg(target_os = "linux")]
use std::sync::atomic::{AtomicBool, Ordering};

use clap::error::{ContextKind, ContextValue, ErrorKind};
use clap::{CommandFactory, Parser};
use warsim::app::run;
use warsim::cli::Cli;
use warsim::error::{one_line, printable, Interrupted};

fn main() -> ExitCode {
    if let Err(e) = stdout_open() {
        return exit(Err(e));
    }
    match Cli::try_parse() {
        Ok(cli) => exit(run(cli)),
        Err(e) => clap_exit(e),
    }
}

/// The exit status of a result, with its error on one line of stderr.
fn exit(result: anyhow::Result<()>) -> ExitCode {
    let Err(e) = result else {
        return ExitCode::SUCCESS;
    };
    if is_broken_pipe(&e) {
        return ExitCode::SUCCESS;
    }
    // A run that wrote what it had when interrupted: its message is no error.
    if let Some(i) = e.downcast_ref::<Interrupted>() {
        let _ = writeln!(io::stderr(), "{}", printable(&i.0));
        return ExitCode::from(130);
    }
    let code = if warsim::error::is_usage(&e) { 2 } else { 1 };
    // One printable line, whatever the error holds (a path may hold a line break or a
    // terminal escape). If stderr cannot take it, the exit status is all that is left to say it.
    let line = printable(&warsim::error::chain(&e, warsim::error::with_flags));
    let _ = writeln!(io::stderr(), "error: {line}");
    ExitCode::from(code)
}

/// Help and version print in full; a missing command prints the help that lists the commands
/// (on stderr, exit 2); every other usage error becomes its first line (exit 2).
fn clap_exit(e: clap::Error) -> ExitCode {
    match e.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
            // Rendered, then written with its errors seen: `print` would drop them.
            let styled = e.render();
            let text = if io::stdout().is_terminal() {
                styled.ansi().to_string()
            } else {
                styled.to_string()
            };
            exit(warsim::term::stdout::write_all(text.as_bytes()))
        }
        // `warsim` or `warsim simulate` alone: a newcomer's first try, so it gets the usage and
        // the list of commands (or games) to choose from, on stderr since nothing was done.
        ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand | ErrorKind::MissingSubcommand => {
            let _ = write!(io::stderr(), "{}", e.render());
            ExitCode::from(2)
        }
        _ => {
            let mut line = one_line(&e.render().to_string());
            if let Some(ContextValue::String(bad)) = e.get(ContextKind::InvalidSubcommand) {
                line.push_str(&offered(bad));
            }
            if let Some(ContextValue::String(bad)) = e.get(ContextKind::InvalidArg) {
                line.push_str(&not_exact(bad));
            }
            let _ = writeln!(io::stderr(), "{line}");
            ExitCode::from(2)
        }
    }
}

/// What the command before an unknown word takes instead (`warsim exact shotgun`: exact
/// plays war, snap and bmn), read from the command-line definition, so it lists no game by
/// hand.
fn offered(bad: &str) -> String {
    let words: Vec<String> = std::env::args()
        .skip(1)
        .take_while(|a| a != bad)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let (mut command, mut path) = (Cli::command(), vec!["warsim"]);
    // A word that names no subcommand is an option's value (`--threads 2`).
    for w in &words {
        if let Some(sub) = command.find_subcommand(w) {
            command = sub.clone();
            path.push(w);
        }
    }
    let names: Vec<&str> = (command.get_subcommands())
        .map(|c| c.get_name())
        .filter(|&n| n != "help")
        .collect();
    format!("; `{}` takes {}", path.join(" "), names.join(", "))
}

/// Why `exact GAME` refuses a run option of `simulate GAME` (`--games`, `--seed`, …): it plays
/// every deal once, so there is nothing to count or seed; empty for any other command or
/// argument. Read from the command-line definition, so it names no option by hand.
fn not_exact(bad: &str) -> String {
    let mut args = std::env::args().skip(1);
    let cli = Cli::command();
    let (Some(exact), Some(simulate)) = (
        cli.find_subcommand("exact"),
        cli.find_subcommand("simulate"),
    ) else {
        return String::new();
    };
    if args.next().as_deref() != Some("exact") {
        return String::new();
    }
    let game = (args.find(|a| exact.find_subcommand(a).is_some())).unwrap_or_else(|| "GAME".into());
    let flag = bad.split('=').next().unwrap_or(bad).trim_start_matches('-');
    // Run options belong to `simulate`, rule options to `simulate GAME`.
    let takes = |c: &clap::Command| c.get_arguments().any(|a| a.get_long() == Some(flag));
    let takes = takes(simulate) || simulate.find_subcommand(&game).is_some_and(takes);
    if !takes {
        return String::new();
    }
    format!(
        "; `exact` plays every deal of the deck once, so it takes no --{flag} (`warsim simulate \
         {game} --{flag} ...` plays random deals)"
    )
}

/// Whether file descriptor 1 was closed when the process started (`warsim ... >&-`).
///
/// By the time `main` runs, it no longer shows: std's runtime opens /dev/null on any of 0, 1
/// and 2 found closed (so no file warsim opens can take those numbers), and the output would
/// vanish with exit status 0. So it is seen before that, by a function the loader runs ahead
/// of the runtime (an ELF `.init_array` entry). Stdin and stderr need nothing more: reading
/// /dev/null ends the input, and the exit status still tells what stderr cannot.
#[cfg(target_os = "linux")]
static STDOUT_CLOSED: AtomicBool = AtomicBool::new(false);

#[cfg(target_os = "linux")]
#[used]
#[link_section = ".init_array"]
static SEE_STDOUT: extern "C" fn() = see_stdout;

#[cfg(target_os = "linux")]
extern "C" fn see_stdout() {
    // SAFETY: F_GETFD only reads the flags of a descriptor; any number may be asked about.
    let closed = unsafe { libc::fcntl(libc::STDOUT_FILENO, libc::F_GETFD) } == -1;
    STDOUT_CLOSED.store(closed, Ordering::Relaxed);
}

/// A closed stdout is an error (exit 1), before anything is done that it should have shown.
fn stdout_open() -> anyhow::Result<()> {
    #[cfg(target_os = "linux")]
    if STDOUT_CLOSED.load(Ordering::Relaxed) {
        anyhow::bail!("standard output is closed; send it somewhere, such as a file or /dev/null");
    }
    Ok(())
}

/// A closed stdout (`warsim ... | head`) is not a failure, whether the text or the JSON
/// writer met it (serde_json wraps the I/O error in its own).
fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        let kind = c
            .downcast_ref::<io::Error>()
            .map(io::Error::kind)
            .or_else(|| c.downcast_ref::<serde_json::Error>()?.io_error_kind());
        kind == Some(io::ErrorKind::BrokenPipe)
    })
}
