//! The list of games: one line each in [`games!`] below. Adding a game is writing its module
//! (a type implementing [`Game`] and [`GameCli`]) and its line here; the command line's
//! subcommands, `warsim games`, `merge`'s dispatch by name, the conformance suite, the benches
//! and CI all take the games from this list.

use clap::Subcommand;

use crate::face::GameCli;
use crate::face::{PlayIo, PlayReport};
use crate::games::bmn::Bmn;
use crate::games::jitsu::Jitsu;
use crate::games::rps::Elimination;
use crate::games::shotgun::Shotgun;
use crate::games::snap::Snap;
use crate::games::war::War;
use crate::games::Game;

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

/// Makes, from one list of game types, every list the program needs: [`NAMES`], the
/// subcommands of `simulate` ([`SimulateGame`]) and `play` ([`PlayGame`]) with their help
/// from each game's [`GameCli::ABOUT`], [`GameCli::PLAY_ABOUT`] and [`GameCli::RULES`], and [`by_name`]
/// and [`for_each`]. The subcommand names are the games' [`Game::NAME`]s. The games after
/// `exact:` are those `exact` plays ([`ExactGame`]), so its help offers no game it refuses.
macro_rules! games {
    ($($game:ident,)+ ; exact: $($exact:ident,)+) => {
        /// The names of every game, in the order listed.
        pub const NAMES: &[&str] = &[$(<$game as Game>::NAME),+];

        /// `simulate GAME`: the game and its rule options.
        #[derive(Debug, Subcommand)]
        pub enum SimulateGame {
            $(
                #[command(name = <$game as Game>::NAME, about = <$game as GameCli>::ABOUT,
                          after_help = <$game as GameCli>::RULES,
                          next_help_heading = "Rule options")]
                #[allow(missing_docs)]
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
                    $(SimulateGame::$game(o) => task.with($game::from_flags(o)?),)+
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
                $game(<$game as GameCli>::PlayArgs),
            )+
        }

        impl PlayGame {
            /// Plays the game, its trace (or transcript) going to `io` as it is made.
            pub fn play(&self, io: &mut PlayIo) -> anyhow::Result<PlayReport> {
                match self {
                    $(PlayGame::$game(a) => $game::play_command(a, io),)+
                }
            }
        }

        /// Does `task` for the game called `name`, or `None` if no game has that name.
        pub fn by_name<T: WithGameType>(name: &str, task: T) -> Option<T::Output> {
            $(
                if name == <$game as Game>::NAME {
                    return Some(task.with::<$game>());
                }
            )+
            None
        }

        /// Does `task` for every game, in the order listed.
        pub fn for_each<T: WithGameType + Clone>(task: T) -> Vec<T::Output> {
            vec![$(task.clone().with::<$game>()),+]
        }
    };
}

games! {
    War,
    Snap,
    Shotgun,
    Elimination,
    Jitsu,
    Bmn,
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
        assert_eq!(for_each(Name), NAMES);
        for name in NAMES {
            assert_eq!(by_name(name, Name), Some(*name));
        }
        assert_eq!(by_name("chess", Name), None);
        let mut distinct = NAMES.to_vec();
        distinct.sort_unstable();
        distinct.dedup();
        assert_eq!(distinct.len(), NAMES.len());
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
