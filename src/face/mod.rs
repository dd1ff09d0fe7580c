//! The games as the command line offers them: the one list of games ([`games!`], a line a
//! game), and each game's face, a module a game: its lines in `warsim games` and its `play GAME`
//! command ([`GameCli`]). A game's rule flags are its settings struct ([`Game::Settings`],
//! declared once in the core with each setting's help, default and parser), which clap derives
//! from; the game checks them. Adding a game is its module here and its line in the list: the
//! subcommands, `warsim games`, `merge`'s dispatch by name, the conformance suite, the benches
//! and CI take the games from the list.

pub mod jitsu_interactive;
mod play_io;

use std::fmt::Debug;

use clap::Subcommand;

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

    /// The game as War, for `exact GAME --flawless` (the exact chance that one player wins
    /// every battle, which War alone defines); `None` for every other game.
    fn flawless(&self) -> Option<&crate::games::war::War> {
        None
    }

    /// `play GAME`: plays the game the arguments describe, writing its trace (or an
    /// interactive game's transcript) to `io` as it is made.
    fn play_command(args: &Self::PlayArgs, io: &mut PlayIo) -> anyhow::Result<PlayReport>;
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
                $game(<$game as Game>::Settings),
            )+
        }

        impl SimulateGame {
            /// Builds the game from its options (a usage error names a bad one), on the
            /// engine path [`engine_path`] names, and hands it to `task`.
            pub fn run<R, T: WithGame<Output = anyhow::Result<R>>>(
                &self,
                task: T,
            ) -> anyhow::Result<R> {
                match self {
                    $($(#[$only])* SimulateGame::$game(o) => task.with($game::from_settings(o)?.on_engine(&engine_path())),)+
                }
            }

            /// Game `name` with its settings `settings` (a JSON object of some of the game's
            /// settings, the others at their defaults: what Python's keyword arguments become),
            /// read through serde ([`crate::config::settings::read`]): a game chosen by name
            /// with no command line built or parsed.
            pub fn from_json(
                name: &str,
                settings: &serde_json::Value,
            ) -> Result<SimulateGame, crate::error::UsageError> {
                $(
                    $(#[$only])*
                    if name == <$game as Game>::NAME {
                        return crate::config::settings::read(settings)
                            .map(SimulateGame::$game)
                            .map_err(|e| crate::usage!("{name}: {e}"));
                    }
                )+
                Err(no_game(name))
            }

            /// The game's name.
            pub fn name(&self) -> &'static str {
                match self {
                    $($(#[$only])* SimulateGame::$game(_) => <$game as Game>::NAME,)+
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
                $exact(<$exact as Game>::Settings),
            )+
        }

        impl From<ExactGame> for SimulateGame {
            fn from(game: ExactGame) -> SimulateGame {
                match game {
                    $(ExactGame::$exact(o) => SimulateGame::$exact(o),)+
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

pub mod bmn;
pub mod jitsu;
pub mod rps;
pub mod shotgun;
pub mod snap;
#[cfg(test)]
pub mod toy;
pub mod war;

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

/// The error of a game name no game has, listing the games.
pub fn no_game(name: &str) -> crate::error::UsageError {
    crate::usage!("no game {name:?}; the games are {}", names().join(", "))
}

/// `search GAME`: the games whose deals `search` explores (deterministic after the deal, with a
/// search written for them); Beggar-my-neighbour alone so far.
#[derive(Debug, Subcommand)]
pub enum SearchGame {
    /// Beggar-my-neighbour: the longest deals, and deals that never end.
    #[command(name = "bmn", next_help_heading = "Rule options")]
    Bmn(<Bmn as Game>::Settings),
}

impl SearchGame {
    /// Game `name` with its settings `settings` as JSON (what Python's keyword arguments
    /// become), for the games `search` explores.
    pub fn from_json(
        name: &str,
        settings: &serde_json::Value,
    ) -> Result<SearchGame, crate::error::UsageError> {
        if name != <Bmn as Game>::NAME {
            return Err(crate::usage!(
                "search {name:?}: search explores {} alone",
                <Bmn as Game>::NAME
            ));
        }
        crate::config::settings::read(settings)
            .map(SearchGame::Bmn)
            .map_err(|e| crate::usage!("{name}: {e}"))
    }

    /// The game its rule options describe, or a usage error naming the bad one.
    pub fn game(&self) -> Result<Bmn, crate::error::UsageError> {
        match self {
            SearchGame::Bmn(o) => Ok(Bmn::from_settings(o)?.on_engine(&engine_path())),
        }
    }
}

/// The engine path the environment variable `WARSIM_PATH` names (tests and benchmarks time or
/// check one path; results are the same on every path): the one place that reads it, since the
/// core reads no environment; each game built to be played is handed it
/// ([`Game::on_engine`]).
pub fn engine_path() -> crate::games::engine_path::EnginePath {
    crate::games::engine_path::EnginePath::named(std::env::var("WARSIM_PATH").ok())
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
}
