//! Each game's command-line face: its rule flags with their help, its lines in `warsim games`
//! and the `play GAME` command, one file a game. The rules themselves ([`crate::games`], the
//! `warsim-core` crate) know nothing of flags: a face turns its flags into the game's plain
//! [`Game::Options`] and the game checks them.

pub mod bmn;
pub mod jitsu;
pub mod jitsu_interactive;
mod play_io;
pub mod rps;
pub mod shotgun;
pub mod snap;
pub mod war;

pub use play_io::{LineSink, PlayIo, PlayReport};

use std::fmt::Debug;
use std::marker::PhantomData;

use clap::builder::{PossibleValue, TypedValueParser};

use crate::error::UsageError;
use crate::games::choice::Choice;
use crate::games::Game;

/// A game as the command line offers it.
pub trait GameCli: Game {
    /// What `simulate GAME` plays, in a line (its help and `warsim games`).
    const ABOUT: &'static str;
    /// What `play GAME` does, in a line.
    const PLAY_ABOUT: &'static str;
    /// What `play GAME --help` says instead of [`GameCli::PLAY_ABOUT`], where a line is too
    /// short (`-h` keeps the line).
    const PLAY_HELP: Option<&'static str> = None;
    /// The rules in a paragraph and where to read more (docs/rules/GAME.md, which states every
    /// rule point of the document the game was specified from with its worked examples), shown
    /// under the help of `simulate`, `exact` and `play GAME`.
    const RULES: &'static str;
    /// A small rule set (rule flags of `simulate GAME`) that the conformance suite plays:
    /// quick to simulate, and small enough for `exact` where the game has it.
    const EXAMPLE: &'static [&'static str];
    /// The rule flags of `simulate GAME`.
    type Flags: clap::Args + clap::FromArgMatches + Clone + Debug;
    /// The arguments of `play GAME`.
    type PlayArgs: clap::Args + clap::FromArgMatches + Debug;

    /// The rule settings the flags ask for.
    fn options(flags: &Self::Flags) -> Self::Options;

    /// The game the flags describe, or a usage error naming the bad flag.
    fn from_flags(flags: &Self::Flags) -> Result<Self, UsageError> {
        Self::from_options(&Self::options(flags))
    }

    /// The game as War, for `exact GAME --flawless` (the exact chance that one player wins
    /// every battle, which War alone defines); `None` for every other game.
    fn flawless(&self) -> Option<&crate::games::war::War> {
        None
    }

    /// `play GAME`: plays the game the arguments describe, writing its trace (or an
    /// interactive game's transcript) to `io` as it is made.
    fn play_command(args: &Self::PlayArgs, io: &mut PlayIo) -> anyhow::Result<PlayReport>;
}

/// Copies a face's rule flags into the game's options field by field: the two structs hold the
/// same settings, the flags with their help and parsing, the options as plain data.
macro_rules! flags_to_options {
    ($flags:ty => $options:ident { $($field:ident),+ $(,)? }) => {
        impl From<&$flags> for $options {
            fn from(f: &$flags) -> $options {
                $options { $($field: f.$field.clone()),+ }
            }
        }
    };
}
pub(crate) use flags_to_options;

/// The value parser of a [`Choice`] flag: its values by name, each with the first paragraph of
/// its doc comment as help, as clap's `ValueEnum` derive would offer them.
#[derive(Clone, Copy, Debug)]
pub struct ChoiceParser<T>(PhantomData<T>);

/// The parser of a flag of setting `T`.
pub fn choice<T: Choice>() -> ChoiceParser<T> {
    ChoiceParser(PhantomData)
}

/// A doc comment as clap shows a value's help: its first paragraph, the lines trimmed and
/// joined by spaces, without a final period.
fn help_line(doc: &str) -> String {
    let first: Vec<&str> = doc
        .lines()
        .map(str::trim)
        .skip_while(|l| l.is_empty())
        .take_while(|l| !l.is_empty())
        .collect();
    let line = first.join(" ");
    match line.strip_suffix('.') {
        Some(cut) if !line.ends_with("..") => cut.to_string(),
        _ => line,
    }
}

impl<T: Choice> TypedValueParser for ChoiceParser<T> {
    type Value = T;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<T, clap::Error> {
        let names: Vec<String> = T::ALL.iter().map(|v| v.name()).collect();
        let parser = clap::builder::PossibleValuesParser::new(
            names.iter().map(|n| PossibleValue::new(n.clone())),
        );
        let name = parser.parse_ref(cmd, arg, value)?;
        Ok(T::ALL[names
            .iter()
            .position(|n| *n == name)
            .expect("a listed name")])
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(T::ALL.iter().map(|v| {
            PossibleValue::new(v.name()).help(help_line(v.doc()))
        })))
    }
}

#[cfg(test)]
mod tests {
    use super::help_line;

    #[test]
    fn a_values_help_is_its_first_paragraph_on_one_line() {
        assert_eq!(
            help_line(" Slow, with care.\n And more.\n\n Later.\n"),
            "Slow, with care. And more"
        );
        assert_eq!(help_line(" Wait...\n"), "Wait...");
        assert_eq!(help_line(""), "");
    }
}
