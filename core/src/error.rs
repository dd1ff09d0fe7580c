//! What the core's calls fail with ([`Error`]), and the error among them that means "the rules
//! or the input asked for something that cannot be done" ([`UsageError`]): the command crate
//! prints that one in one line and exits with status 2.
//!
//! A message names the settings it is about as settings ([`Piece::Setting`]: the name of the
//! settings struct's field and the value asked), and the operations it points to as operations
//! ([`Piece::Op`]: `exact` of War, `simulate`), never in the syntax of one front end: each face
//! renders them its own way ([`UsageError::render`]: `--war-down 9` and `exact war` on the
//! command line, `war_down=9` and `exact("war")` in Python), and no face parses another's text.

use std::fmt;

/// An operation of the library's API that a message points the user to: each face names it
/// its own way, the command line as its command (`exact war`, `use simulate`), Python as its
/// function (`exact("war")`, `use simulate()`), so the core names no command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Op {
    /// Plays random games of a rule set and estimates its statistics.
    Simulate,
    /// Plays every deal of a small deck, or solves its Markov chain: the exact answer.
    Exact,
    /// Plays one game, traced.
    Play,
    /// Searches a game's deals (Beggar-my-neighbour's longest games and cycles).
    Search,
}

impl Op {
    /// Its name, which the command line's command and Python's function share.
    pub fn name(self) -> &'static str {
        match self {
            Op::Simulate => "simulate",
            Op::Exact => "exact",
            Op::Play => "play",
            Op::Search => "search",
        }
    }

    /// The operation on game `game` (`exact` of `war`), for [`usage_of!`](crate::usage_of).
    pub fn of(self, game: &'static str) -> Piece {
        Piece::Op {
            op: self,
            game: Some(game),
        }
    }
}

/// One piece of a message: words, a setting with the value it was given, or an operation.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Piece {
    /// Words, as they are.
    Text(String),
    /// A setting, by its name (`war_down`), with the value asked where the message says it.
    Setting {
        /// The setting's name: its field in the game's settings struct.
        name: &'static str,
        /// The value, as the setting reads it (`9`, `shuffled`).
        value: Option<String>,
    },
    /// An operation of the API, on a game where the message names one.
    Op {
        /// Which operation.
        op: Op,
        /// The game's name ([`Game::NAME`](crate::games::Game::NAME)), if the message names it.
        game: Option<&'static str>,
    },
}

/// Setting `name` with the value `value` asked, for [`usage_of!`](crate::usage_of).
pub fn setting(name: &'static str, value: impl fmt::Display) -> Piece {
    Piece::Setting {
        name,
        value: Some(value.to_string()),
    }
}

/// Setting `name` itself (no value), for [`usage_of!`](crate::usage_of).
pub fn setting_alone(name: &'static str) -> Piece {
    Piece::Setting { name, value: None }
}

/// Operation `op` itself, on no game named (`use simulate`).
impl From<Op> for Piece {
    fn from(op: Op) -> Piece {
        Piece::Op { op, game: None }
    }
}

impl From<String> for Piece {
    fn from(text: String) -> Piece {
        Piece::Text(text)
    }
}

impl From<&str> for Piece {
    fn from(text: &str) -> Piece {
        Piece::Text(text.to_string())
    }
}

/// Bad usage or bad input, said in one line that names what is wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub struct UsageError {
    pieces: Vec<Piece>,
}

impl UsageError {
    /// A message of words alone.
    pub fn text(text: impl Into<String>) -> UsageError {
        UsageError {
            pieces: vec![Piece::Text(text.into())],
        }
    }

    /// A message of pieces, settings among them ([`usage_of!`](crate::usage_of) builds one).
    pub fn of(pieces: Vec<Piece>) -> UsageError {
        UsageError { pieces }
    }

    /// The same message after `text` (`search: ` before what the deal's reader said).
    pub fn after(mut self, text: impl Into<String>) -> UsageError {
        self.pieces.insert(0, Piece::Text(text.into()));
        self
    }

    /// The same message with setting `from` named `to` instead: a reader's message said of the
    /// setting that handed it its text (a search's `from` deal read as a `deal`).
    pub fn renamed(mut self, from: &str, to: &'static str) -> UsageError {
        for p in &mut self.pieces {
            if let Piece::Setting { name, .. } = p {
                if *name == from {
                    *name = to;
                }
            }
        }
        self
    }

    /// Its pieces, in order.
    pub fn pieces(&self) -> &[Piece] {
        &self.pieces
    }

    /// The message with each setting written by `name` (given the setting's name and its value,
    /// if the message states it) and each operation by `op` (given the operation and its game,
    /// if the message names one): a face's own way of naming its settings and its operations.
    pub fn render(
        &self,
        name: impl Fn(&str, Option<&str>) -> String,
        op: impl Fn(Op, Option<&str>) -> String,
    ) -> String {
        self.pieces
            .iter()
            .map(|p| match p {
                Piece::Text(t) => t.clone(),
                Piece::Setting { name: n, value } => name(n, value.as_deref()),
                Piece::Op { op: o, game } => op(*o, *game),
            })
            .collect()
    }
}

/// An operation by its name and game, as words (`exact war`, `simulate`): how a reader with
/// no face of its own (the core's Display, a value parser's message) names it.
pub fn op_words(op: Op, game: Option<&str>) -> String {
    match game {
        Some(g) => format!("{} {g}", op.name()),
        None => op.name().to_string(),
    }
}

/// The message with each setting as its name and value (`war_down 9`) and each operation as
/// words ([`op_words`]): how the core's own tests and a reader with no face see it. The faces
/// render their own way.
impl fmt::Display for UsageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let setting = |n: &str, v: Option<&str>| match v {
            Some(v) => format!("{n} {v}"),
            None => n.to_string(),
        };
        f.write_str(&self.render(setting, op_words))
    }
}

/// Every way a call of the core can fail, so a library user matches on kinds, not on text, and
/// the core names no error crate of its own choosing in its signatures. More kinds may come:
/// match with a wildcard arm.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The rules or the input ask for something that cannot be done: the caller's to mend.
    #[error(transparent)]
    Usage(#[from] UsageError),
    /// The caller's [`Cancel`](crate::cancel::Cancel) stopped the work before it ended.
    #[error(transparent)]
    Cancelled(#[from] crate::cancel::Cancelled),
    /// Counts that would pass 64 bits (only hand-edited tallies claim that many).
    #[error(transparent)]
    Overflow(#[from] crate::stats::count::Overflow),
    /// Game `index` of an enumeration is not a deal the rules can play (a bug, not an input).
    #[error("{game}: game {index} cannot be played")]
    Unplayable {
        /// The game's name ([`Game::NAME`](crate::games::Game::NAME)).
        game: &'static str,
        /// The game's index in its run.
        index: u64,
    },
    /// The worker threads could not be started (the system refused them).
    #[error("cannot start the worker threads: {0}")]
    Threads(#[from] rayon::ThreadPoolBuildError),
}

/// A result of the core: [`Error`] unless another error is named.
pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    /// The usage error this is, if it is one: what a face renders in its own words.
    pub fn usage(&self) -> Option<&UsageError> {
        match self {
            Error::Usage(u) => Some(u),
            _ => None,
        }
    }
}

/// Builds a [`UsageError`] of words alone from `format!` arguments.
#[macro_export]
macro_rules! usage {
    ($($arg:tt)*) => { $crate::error::UsageError::text(format!($($arg)*)) };
}

/// Builds a [`UsageError`] from pieces: [`setting`]`(name, value)`, [`setting_alone`]`(name)`,
/// operations ([`Op::of`]`(game)`, or an [`Op`] alone), and words (`&str` or `String`), in
/// order.
#[macro_export]
macro_rules! usage_of {
    ($($piece:expr),+ $(,)?) => {
        $crate::error::UsageError::of(vec![$($crate::error::Piece::from($piece)),+])
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_face_names_the_settings_its_own_way() {
        // The command line's flags are tested where they are written (src/error.rs).
        let e = crate::usage_of![
            setting("war_down", 9),
            ": too many; see ",
            setting_alone("short_war")
        ];
        let upper = e.render(
            |n, v| v.map_or(n.to_uppercase(), |v| format!("{}<{v}>", n.to_uppercase())),
            op_words,
        );
        assert_eq!(upper, "WAR_DOWN<9>: too many; see SHORT_WAR");
        let python = e.render(
            |n, v| v.map_or(n.to_string(), |v| format!("{n}={v}")),
            op_words,
        );
        assert_eq!(python, "war_down=9: too many; see short_war");
        assert_eq!(e.to_string(), "war_down 9: too many; see short_war");
        assert_eq!(crate::usage!("plain {}", 1).to_string(), "plain 1");
    }

    #[test]
    fn each_face_names_the_operations_its_own_way() {
        let e = crate::usage_of![
            Op::Exact.of("war"),
            ": ",
            setting("players", 3),
            " is simulated only; use ",
            Op::Simulate,
            " or ",
            Op::Play.of("war"),
        ];
        assert_eq!(
            e.to_string(),
            "exact war: players 3 is simulated only; use simulate or play war"
        );
        let upper = e.render(
            |n, _| n.to_uppercase(),
            |o, g| format!("{}<{}>", o.name().to_uppercase(), g.unwrap_or("")),
        );
        assert_eq!(
            upper,
            "EXACT<war>: PLAYERS is simulated only; use SIMULATE<> or PLAY<war>"
        );
    }
}
