//! The games as the command line offers them: the subcommands made from the one list of games
//! (`games_list!` in [`crate::config::setup`], the registry), and each game's face, a module a
//! game: its lines in `warsim games` and its `play GAME` command ([`GameCli`]). A game's rule
//! flags are its settings struct ([`Game::Settings`], declared once in the core with each
//! setting's help, default and parser), which clap derives from; the game checks them. A
//! subcommand becomes the typed API's [`Setup`] at the edge (`From<SimulateGame> for Setup`).
//! Adding a game is its module here and its line in the list: the subcommands, `warsim games`,
//! `merge`'s dispatch by name, the conformance suite, the benches and CI take the games from
//! the list.

pub mod jitsu_interactive;
mod play_io;

use std::fmt::Debug;

use clap::Subcommand;

use crate::config::setup::{games_list, no_game, SearchSetup, Setup};
use crate::games::Game;
pub use play_io::{players_words, LineSink, PlayIo, PlayReport};

/// A game as the command line offers it.
pub trait GameCli:
    Game<Settings: clap::Args + clap::FromArgMatches + Clone + Debug> + 'static
{
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
    /// The arguments of `play GAME`: clap's for the command line, serde's (from their
    /// defaults) for the Python package.
    type PlayArgs: clap::Args
        + clap::FromArgMatches
        + Debug
        + Default
        + serde::Serialize
        + serde::de::DeserializeOwned;

    /// `play GAME`: plays the game the arguments describe, writing its trace (or an
    /// interactive game's transcript) to `io` as it is made.
    fn play_command(args: &Self::PlayArgs, io: &mut PlayIo) -> anyhow::Result<PlayReport>;
}

/// Something to do with a game's command-line face: list it, say (`warsim games`).
pub trait WithFace {
    /// What it gives.
    type Output;
    /// Does it for game type `G`.
    fn with<G: GameCli>(self) -> Self::Output;
}

/// Makes, from the one list of games ([`games_list!`]), the command line's lists: the
/// subcommands of `simulate` ([`SimulateGame`]), `exact` ([`ExactGame`]) and `play`
/// ([`PlayGame`]) with their help from each game's [`GameCli::ABOUT`], [`GameCli::PLAY_ABOUT`]
/// and [`GameCli::RULES`], their conversion into the typed API's [`Setup`], and [`by_name`] and
/// [`for_each`] over the faces. The subcommand names are the games' [`Game::NAME`]s.
macro_rules! faces {
    ($($(#[$only:meta])* $($path:ident)::+ : $game:ident,)+ ; exact: $($exact:ident,)+) => {
        $($(#[$only])* use crate::$($path)::+::$game;)+

        /// `simulate GAME`: the game and its rule options.
        #[derive(Clone, Debug, Subcommand)]
        pub enum SimulateGame {
            $(
                #[command(name = <$game as Game>::NAME, about = <$game as GameCli>::ABOUT,
                          after_help = <$game as GameCli>::RULES,
                          next_help_heading = "Rule options")]
                #[allow(missing_docs)]
                $(#[$only])*
                $game(<$game as Game>::Settings),
            )+
        }

        impl From<SimulateGame> for Setup {
            fn from(game: SimulateGame) -> Setup {
                match game {
                    $($(#[$only])* SimulateGame::$game(o) => Setup::$game(o),)+
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
                $exact(<$exact as Game>::Settings),
            )+
        }

        impl From<ExactGame> for Setup {
            fn from(game: ExactGame) -> Setup {
                match game {
                    $(ExactGame::$exact(o) => Setup::$exact(o),)+
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
            /// Game `name`'s `play` arguments `args` (a JSON object of its arguments struct,
            /// every field given: what Python's arguments become), read through serde.
            pub fn from_json(
                name: &str,
                args: &serde_json::Value,
            ) -> Result<PlayGame, crate::error::UsageError> {
                $(
                    $(#[$only])*
                    if name == <$game as Game>::NAME {
                        return crate::config::settings::read(args)
                            .map(PlayGame::$game)
                            .map_err(|e| crate::usage!("play {name}: {e}"));
                    }
                )+
                Err(no_game(name))
            }

            /// Plays the game, its trace (or transcript) going to `io` as it is made.
            pub fn play(&self, io: &mut PlayIo) -> anyhow::Result<PlayReport> {
                match self {
                    $($(#[$only])* PlayGame::$game(a) => $game::play_command(a, io),)+
                }
            }
        }

        /// Does `task` for the face of the game called `name`, or `None` if no game has that
        /// name.
        pub fn by_name<T: WithFace>(name: &str, task: T) -> Option<T::Output> {
            $(
                $(#[$only])*
                if name == <$game as Game>::NAME {
                    return Some(task.with::<$game>());
                }
            )+
            None
        }

        /// Does `task` for every game's face, in the order listed.
        #[allow(clippy::vec_init_then_push)]
        pub fn for_each<T: WithFace + Clone>(task: T) -> Vec<T::Output> {
            let mut out = Vec::new();
            $($(#[$only])* out.push(task.clone().with::<$game>());)+
            out
        }
    };
}

pub mod bmn;
pub mod jitsu;
pub mod rps;
pub mod shotgun;
pub mod snap;
#[cfg(test)]
pub mod toy;
pub mod war;

games_list!(faces);

/// `search GAME`: the games whose deals `search` explores (deterministic after the deal, with a
/// search written for them); Beggar-my-neighbour alone so far.
#[derive(Debug, Subcommand)]
pub enum SearchGame {
    /// Beggar-my-neighbour: the longest deals, and deals that never end.
    #[command(name = "bmn", next_help_heading = "Rule options")]
    Bmn(<Bmn as Game>::Settings),
}

impl From<SearchGame> for SearchSetup {
    fn from(game: SearchGame) -> SearchSetup {
        match game {
            SearchGame::Bmn(o) => SearchSetup::Bmn(o),
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
    impl WithFace for Name {
        type Output = &'static str;
        fn with<G: GameCli>(self) -> &'static str {
            G::NAME
        }
    }

    /// Every game of the registry has its face, found by its name, in the registry's order.
    #[test]
    fn every_listed_game_has_its_face() {
        let names = crate::config::setup::names();
        assert_eq!(for_each(Name), names);
        for name in names {
            assert_eq!(by_name(name, Name), Some(name));
        }
        assert_eq!(by_name("chess", Name), None);
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
}
