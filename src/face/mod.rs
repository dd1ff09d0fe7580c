//! The games as the command line offers them: the one list of games ([`games!`], a line a
//! game), and each game's face, a file a game: its rule flags with their help (a clap struct
//! the face turns into the game's plain [`Game::Options`], which the game checks), its lines in
//! `warsim games` and its `play GAME` command ([`GameCli`]). The rules themselves
//! ([`crate::games`], the `warsim-core` crate) know nothing of flags. Adding a game is its
//! file here and its line in the list: the subcommands, `warsim games`, `merge`'s dispatch by
//! name, the conformance suite, the benches and CI take the games from the list.

pub mod jitsu_interactive;
mod play_io;

use std::fmt::Debug;
use std::marker::PhantomData;

use clap::builder::{PossibleValue, TypedValueParser};
use clap::Subcommand;

use crate::error::UsageError;
use crate::games::choice::Choice;
use crate::games::Game;
pub use play_io::{LineSink, PlayIo, PlayReport};

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
    /// Arguments of `play GAME` that play one game, for the conformance suite's smoke test
    /// (an interactive game reads `1` on every line of its input).
    const PLAY_EXAMPLE: &'static [&'static str];
    /// Where the example rule set's statistics are checked independently when the game gives
    /// no exact figure for it (no `exact`, `expected_rounds`, enumeration or Markov chain): the
    /// conformance suite fails for a game with neither.
    const CHECKED_BY: Option<&'static str> = None;
    /// The rule flags of `simulate GAME`, and the rule settings they ask for.
    type Flags: clap::Args + clap::FromArgMatches + Clone + Debug + IntoOptions<Self::Options>;
    /// The arguments of `play GAME`.
    type PlayArgs: clap::Args + clap::FromArgMatches + Debug;

    /// The game the flags describe, or a usage error naming the bad flag.
    fn from_flags(flags: &Self::Flags) -> Result<Self, UsageError> {
        Self::from_options(&flags.options())
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

/// A face's rule flags as the game's plain options ([`flags_to_options!`] writes it).
pub trait IntoOptions<O> {
    /// The rule settings the flags ask for.
    fn options(&self) -> O;
}

/// Copies a face's rule flags into the game's options field by field: the two structs hold the
/// same settings, the flags with their help and parsing, the options as plain data. Defined
/// before [`games!`] declares the faces' modules, so every face sees it.
macro_rules! flags_to_options {
    ($flags:ty => $options:ident { $($field:ident),+ $(,)? }) => {
        impl $crate::face::IntoOptions<$options> for $flags {
            fn options(&self) -> $options {
                $options { $($field: self.$field.clone()),+ }
            }
        }
    };
}

/// The value parser of a [`Choice`] flag: its values by name, each with the first paragraph of
/// its doc comment as help, as clap's `ValueEnum` derive would offer them.
#[derive(Clone, Copy, Debug)]
pub struct ChoiceParser<T>(PhantomData<T>);

/// A whole number ≥ 1 of `noun`, as `--games` reads it (`1000000`, `1_000_000`,
/// `1,000,000` or `1e6`; separators only between groups of three digits, so `1,5` is refused
/// rather than read as 15). Here, not in `cli`, so the faces' own flags (`--max-rounds`) read
/// with it without importing `cli`, which imports them.
pub fn parse_count(text: &str, noun: &str) -> Result<u64, String> {
    let expected = format!(
        "expected a whole number of {noun} of at least 1, such as 1000000, 1_000_000, \
         1,000,000 or 1e6"
    );
    let grouped = |sep: char| {
        let mut groups = text.split(sep);
        let head = groups.next().unwrap_or("");
        (1..=3).contains(&head.len())
            && !head.starts_with('0')
            && head.bytes().all(|b| b.is_ascii_digit())
            && groups.all(|g| g.len() == 3 && g.bytes().all(|b| b.is_ascii_digit()))
    };
    // `10.000` is ten thousand in much of Europe and ten here: a point only in `2.5e6`.
    if text.contains('.') && !text.contains(['e', 'E']) {
        return Err(format!(
            "'.' reads as a decimal point, and a number of {noun} is whole; {expected}"
        ));
    }
    for sep in [',', '_'] {
        if text.contains(sep) && !grouped(sep) {
            return Err(format!(
                "'{sep}' separates groups of three digits only; {expected}"
            ));
        }
    }
    let plain: String = text.chars().filter(|&c| c != '_' && c != ',').collect();
    let exact = plain.parse::<u64>().ok().or_else(|| {
        let x: f64 = plain.parse().ok()?;
        // Exactly representable whole numbers only (1e6 yes, 1.5e0 no).
        (x.fract() == 0.0 && (1.0..=9.0e15).contains(&x)).then_some(x as u64)
    });
    exact.filter(|&n| n >= 1).ok_or(expected)
}

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

/// Something to do with a game of any type: run a simulation of it, say.
pub trait WithGame {
    /// What it gives.
    type Output;
    /// Does it with `game`.
    fn with<G: GameCli>(self, game: G) -> Self::Output;
}

/// Something to do knowing only a game's type: read its outputs back, say.
pub trait WithGameType {
    /// What it gives.
    type Output;
    /// Does it for game type `G`.
    fn with<G: GameCli>(self) -> Self::Output;
}

/// Makes, from one list of games (each the module of its face and its type), every list the
/// program needs: the modules, [`names`], the
/// subcommands of `simulate` ([`SimulateGame`]) and `play` ([`PlayGame`]) with their help
/// from each game's [`GameCli::ABOUT`], [`GameCli::PLAY_ABOUT`] and [`GameCli::RULES`], and [`by_name`]
/// and [`for_each`]. The subcommand names are the games' [`Game::NAME`]s. The games after
/// `exact:` are those `exact` plays ([`ExactGame`]), so its help offers no game it refuses. A
/// game's line may carry attributes (`#[cfg(test)]`: the toy game of the tests).
macro_rules! games {
    ($($(#[$only:meta])* $module:ident: $game:ident,)+ ; exact: $($exact:ident,)+) => {
        $($(#[$only])* pub mod $module;)+
        $($(#[$only])* use $module::$game;)+

        /// The names of every game, in the order listed.
        // A push a game, not `vec![]`: a game's line may be compiled out (`#[cfg(test)]`).
        #[allow(clippy::vec_init_then_push)]
        pub fn names() -> Vec<&'static str> {
            let mut names = Vec::new();
            $($(#[$only])* names.push(<$game as Game>::NAME);)+
            names
        }

        /// `simulate GAME`: the game and its rule options.
        #[derive(Clone, Debug, Subcommand)]
        pub enum SimulateGame {
            $(
                #[command(name = <$game as Game>::NAME, about = <$game as GameCli>::ABOUT,
                          after_help = <$game as GameCli>::RULES,
                          next_help_heading = "Rule options")]
                #[allow(missing_docs)]
                $(#[$only])*
                $game(<$game as GameCli>::Flags),
            )+
        }

        impl SimulateGame {
            /// Builds the game from its options (a usage error names a bad one) and hands it
            /// to `task`.
            pub fn run<R, T: WithGame<Output = anyhow::Result<R>>>(
                &self,
                task: T,
            ) -> anyhow::Result<R> {
                match self {
                    $($(#[$only])* SimulateGame::$game(o) => task.with($game::from_flags(o)?),)+
                }
            }

            /// Sets the flags `matches` holds (a sweep's value of one flag, parsed alone),
            /// leaving every other flag as it is.
            pub fn update(&mut self, matches: &clap::ArgMatches) -> Result<(), clap::Error> {
                match self {
                    $($(#[$only])* SimulateGame::$game(f) => {
                        clap::FromArgMatches::update_from_arg_matches(f, matches)
                    })+
                }
            }
        }

        /// `exact GAME`: the game and its rule options, for the games `exact` plays.
        #[derive(Debug, Subcommand)]
        pub enum ExactGame {
            $(
                #[command(name = <$exact as Game>::NAME, about = <$exact as GameCli>::ABOUT,
                          after_help = <$exact as GameCli>::RULES,
                          next_help_heading = "Rule options")]
                #[allow(missing_docs)]
                $exact(<$exact as GameCli>::Flags),
            )+
        }

        impl ExactGame {
            /// Builds the game from its options (a usage error names a bad one) and hands it
            /// to `task`.
            pub fn run<R, T: WithGame<Output = anyhow::Result<R>>>(
                &self,
                task: T,
            ) -> anyhow::Result<R> {
                match self {
                    $(ExactGame::$exact(o) => task.with($exact::from_flags(o)?),)+
                }
            }
        }

        /// `play GAME`: the game and what to play.
        #[derive(Debug, Subcommand)]
        pub enum PlayGame {
            $(
                #[command(name = <$game as Game>::NAME, about = <$game as GameCli>::PLAY_ABOUT,
                          long_about = <$game as GameCli>::PLAY_HELP,
                          after_help = <$game as GameCli>::RULES)]
                #[allow(missing_docs)]
                $(#[$only])*
                $game(<$game as GameCli>::PlayArgs),
            )+
        }

        impl PlayGame {
            /// Plays the game, its trace (or transcript) going to `io` as it is made.
            pub fn play(&self, io: &mut PlayIo) -> anyhow::Result<PlayReport> {
                match self {
                    $($(#[$only])* PlayGame::$game(a) => $game::play_command(a, io),)+
                }
            }
        }

        /// Does `task` for the game called `name`, or `None` if no game has that name.
        pub fn by_name<T: WithGameType>(name: &str, task: T) -> Option<T::Output> {
            $(
                $(#[$only])*
                if name == <$game as Game>::NAME {
                    return Some(task.with::<$game>());
                }
            )+
            None
        }

        /// Does `task` for every game, in the order listed.
        #[allow(clippy::vec_init_then_push)]
        pub fn for_each<T: WithGameType + Clone>(task: T) -> Vec<T::Output> {
            let mut out = Vec::new();
            $($(#[$only])* out.push(task.clone().with::<$game>());)+
            out
        }
    };
}

games! {
    war: War,
    snap: Snap,
    shotgun: Shotgun,
    rps: Elimination,
    jitsu: Jitsu,
    bmn: Bmn,
    #[cfg(test)] toy: Toy,
    ;
    exact:
    War,
    Snap,
    Bmn,
}

/// `search GAME`: the games whose deals `search` explores (deterministic after the deal, with a
/// search written for them); Beggar-my-neighbour alone so far.
#[derive(Debug, Subcommand)]
pub enum SearchGame {
    /// Beggar-my-neighbour: the longest deals, and deals that never end.
    #[command(name = "bmn", next_help_heading = "Rule options")]
    Bmn(<Bmn as GameCli>::Flags),
}

impl SearchGame {
    /// The game its rule options describe, or a usage error naming the bad one.
    pub fn game(&self) -> Result<Bmn, crate::error::UsageError> {
        match self {
            SearchGame::Bmn(o) => Bmn::from_flags(o),
        }
    }
}

#[cfg(test)]
mod conformance;
#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone)]
    struct Name;
    impl WithGameType for Name {
        type Output = &'static str;
        fn with<G: GameCli>(self) -> &'static str {
            G::NAME
        }
    }

    #[test]
    fn every_listed_name_finds_its_game_once() {
        assert_eq!(for_each(Name), names());
        for name in names() {
            assert_eq!(by_name(name, Name), Some(name));
        }
        assert_eq!(by_name("chess", Name), None);
        let mut distinct = names();
        distinct.sort_unstable();
        distinct.dedup();
        assert_eq!(distinct.len(), names().len());
    }

    /// `exact --help` offers a game exactly when `exact` plays the game's example rule set.
    #[test]
    fn exact_offers_the_games_it_plays_and_no_other() {
        let cmd = <ExactGame as Subcommand>::augment_subcommands(clap::Command::new("exact"));
        let offered: Vec<&str> = cmd.get_subcommands().map(|c| c.get_name()).collect();
        let plays: Vec<&str> = crate::list::games()
            .unwrap()
            .into_iter()
            .filter(|g| g.exact)
            .map(|g| g.name)
            .collect();
        assert_eq!(offered, plays);
        assert_eq!(offered, ["war", "snap", "bmn"]);
    }

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
