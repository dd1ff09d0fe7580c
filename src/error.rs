//! The one error type that means "the user asked for something that cannot be done" (exit 2).
//!
//! Everything else (I/O, a full disk) travels as an `anyhow::Error` with context and exits 1.
//! `main` tells the two apart with [`usage_in`]: a usage error raised here, or one the core
//! returned inside its own [`Error`](warsim_core::error::Error).

use warsim_core::error::Op;
pub use warsim_core::error::UsageError;
pub use warsim_core::usage;

/// Setting `name` as this command line's flag: `war_down` is `--war-down`.
pub fn flag(name: &str) -> String {
    format!("--{}", long(name))
}

/// Setting `name` (its serde name) as the command line spells it without the dashes, as the
/// outputs of a sweep name what varies: `war_down` is `war-down`. Every game's flags follow it
/// (`list::tests`, every option's long name is its setting's).
pub fn long(name: &str) -> String {
    name.replace('_', "-")
}

/// The setting whose flag is `--long` (`war-down` is `war_down`): [`long`] undone.
pub fn setting_of_long(long: &str) -> String {
    long.replace('-', "_")
}

/// `e` said of setting `name` (`--from` and what its reader found wrong): the setting, a space,
/// then `e`.
pub fn about(name: &'static str, e: UsageError) -> UsageError {
    let mut pieces = vec![warsim_core::error::setting_alone(name), " ".into()];
    pieces.extend(e.pieces().iter().cloned());
    UsageError::of(pieces)
}

/// Operation `op` on `game` as this command line's command: `exact war`, `simulate`.
pub fn command(op: Op, game: Option<&str>) -> String {
    warsim_core::error::op_words(op, game)
}

/// Operation `op` on `game` as Python's call of its function: `exact("war")`, `simulate()`.
pub fn function(op: Op, game: Option<&str>) -> String {
    match game {
        Some(g) => format!("{}({g:?})", op.name()),
        None => format!("{}()", op.name()),
    }
}

/// A usage error as the command line says it: each setting as its flag, with its value
/// (`--war-down 9: ...`), each operation as its command (`exact war: ...; use simulate`).
pub fn with_flags(e: &UsageError) -> String {
    let setting = |name: &str, value: Option<&str>| match value {
        Some(v) => format!("{} {v}", flag(name)),
        None => flag(name),
    };
    e.render(setting, command)
}

/// A usage error as Python says it: each setting as its keyword argument (`war_down=9: ...`),
/// each operation as its function (`exact("war"): ...; use simulate()`).
pub fn with_keywords(e: &UsageError) -> String {
    let setting = |name: &str, value: Option<&str>| match value {
        Some(v) => format!("{name}={v}"),
        None => name.to_string(),
    };
    e.render(setting, function)
}

/// The usage error `cause` is, whether this crate raised it or the core returned it inside its
/// [`Error`](warsim_core::error::Error).
pub fn usage_in<'a>(cause: &'a (dyn std::error::Error + 'static)) -> Option<&'a UsageError> {
    cause
        .downcast_ref::<UsageError>()
        .or_else(|| cause.downcast_ref::<warsim_core::error::Error>()?.usage())
}

/// Whether `e` is bad usage or bad input (exit status 2; Python's `ValueError`): a usage error
/// among its causes.
pub fn is_usage(e: &anyhow::Error) -> bool {
    e.chain().any(|cause| usage_in(cause).is_some())
}

/// An error and its causes on one line, as `{:#}` writes them, each usage error and
/// [`Failure`] among them said by `say` (a face's way of naming settings).
pub fn chain(e: &anyhow::Error, say: fn(&UsageError) -> String) -> String {
    let parts: Vec<String> = e
        .chain()
        .map(|cause| {
            let said = usage_in(cause).or_else(|| cause.downcast_ref::<Failure>().map(|f| &f.said));
            match said {
                Some(u) => say(u),
                None => cause.to_string(),
            }
        })
        .collect();
    parts.join(": ")
}

/// A failure that is not bad input (exit 1: a folder the system will not let warsim write)
/// whose message names a setting, so each face says it its own way (`--out DIR: cannot lock
/// it` here, `out=DIR: cannot lock it` in Python), with the system's error as its cause, which
/// Python raises as the matching `OSError` (`PermissionError`).
#[derive(Debug)]
pub struct Failure {
    said: UsageError,
    cause: Option<anyhow::Error>,
}

impl Failure {
    /// The failure `said`, caused by `cause` (the system's error, if any).
    pub fn error(said: UsageError, cause: impl Into<Option<anyhow::Error>>) -> anyhow::Error {
        let cause = cause.into();
        Failure { said, cause }.into()
    }
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&with_flags(&self.said))
    }
}

impl std::error::Error for Failure {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.cause
            .as_ref()
            .map(|c| c.as_ref() as &(dyn std::error::Error + 'static))
    }
}

/// An error message as one printable line: a line break as `\n`, any other control character
/// (a terminal escape in a file name, say) as `\u{..}`, so no message can move the cursor,
/// recolour the terminal or span two lines.
pub fn printable(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '\n' => "\\n".to_string(),
            c if c.is_control() => c.escape_unicode().to_string(),
            c => c.to_string(),
        })
        .collect()
}

/// clap's message on one line: the error, then what it lists (the missing argument, the
/// possible values, a suggestion), without the usage and help hints that follow.
pub fn one_line(text: &str) -> String {
    let mut out = String::new();
    for line in text.lines().map(str::trim) {
        if line.starts_with("Usage:") || line.starts_with("For more information") {
            break;
        }
        if line.is_empty() {
            continue;
        }
        if !out.is_empty() {
            out.push_str(if out.ends_with(':') { " " } else { "; " });
        }
        out.push_str(line);
    }
    if out.is_empty() {
        "error: bad usage; see --help".to_string()
    } else {
        out
    }
}

#[cfg(test)]
mod tests {
    use super::{one_line, printable, with_flags, with_keywords};
    use warsim_core::error::{setting, setting_alone, Op};
    use warsim_core::usage_of;

    #[test]
    fn settings_read_as_flags_here_and_as_keywords_in_python() {
        let e = usage_of![setting("war_down", 9), ": see ", setting_alone("p1_cards")];
        assert_eq!(with_flags(&e), "--war-down 9: see --p1-cards");
        assert_eq!(with_keywords(&e), "war_down=9: see p1_cards");
    }

    #[test]
    fn operations_read_as_commands_here_and_as_functions_in_python() {
        let e = usage_of![
            Op::Exact.of("war"),
            " ",
            setting("pickup", "shuffled"),
            ": too large; use ",
            Op::Simulate,
            " (hands are for `",
            Op::Play.of("war"),
            "`)",
        ];
        assert_eq!(
            with_flags(&e),
            "exact war --pickup shuffled: too large; use simulate (hands are for `play war`)"
        );
        assert_eq!(
            with_keywords(&e),
            "exact(\"war\") pickup=shuffled: too large; use simulate() (hands are for \
             `play(\"war\")`)"
        );
    }

    #[test]
    fn messages_print_as_one_line_without_escapes() {
        assert_eq!(printable("a\nb\u{1b}[31mc\rd"), "a\\nb\\u{1b}[31mc\\u{d}d");
    }

    #[test]
    fn clap_messages_keep_what_they_list() {
        let missing = "error: the following required arguments were not provided:\n  <PILE>...\n\nUsage: warsim play snap <PILE>...\n\nFor more information, try '--help'.\n";
        assert_eq!(
            one_line(missing),
            "error: the following required arguments were not provided: <PILE>..."
        );
        let value = "error: invalid value 'shuffle' for '--pickup <PICKUP>'\n  [possible values: shuffled, p1-first]\n\n  tip: a similar value exists: 'shuffled'\n\nFor more information, try '--help'.\n";
        assert_eq!(one_line(value), "error: invalid value 'shuffle' for '--pickup <PICKUP>'; [possible values: shuffled, p1-first]; tip: a similar value exists: 'shuffled'");
    }
}

/// A run stopped by an interrupt (Ctrl-C, SIGTERM) after it wrote what it had, as a search
/// does: `main` prints the message as it is (it is no error of the user's or of warsim's) and
/// exits with status 130, as the shell does for an interrupted command.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct Interrupted(pub String);
