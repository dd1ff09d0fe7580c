//! The list of games. Adding a game is writing its module (a type implementing [`Game`]) and
//! one line in each list below: a variant of [`SimulateGame`] and of [`PlayGame`] (with its
//! help text), and an arm in [`SimulateGame::run`], [`PlayGame::play`] and [`by_name`]. Nothing
//! else in the program names a game.

use clap::Subcommand;

use super::jitsu::Jitsu;
use super::rps::Elimination;
use super::shotgun::Shotgun;
use super::snap::Snap;
use super::war::War;
use super::{Game, PlayIo, PlayReport};

/// The names of every game, for messages.
pub const NAMES: [&str; 5] = [
    War::NAME,
    Snap::NAME,
    Shotgun::NAME,
    Elimination::NAME,
    Jitsu::NAME,
];

/// Something to do with a game of any type: run a simulation of it, say.
pub trait WithGame {
    /// What it gives.
    type Output;
    /// Does it with `game`.
    fn with<G: Game>(self, game: G) -> Self::Output;
}

/// Something to do knowing only a game's type: read its outputs back, say.
pub trait WithGameType {
    /// What it gives.
    type Output;
    /// Does it for game type `G`.
    fn with<G: Game>(self) -> Self::Output;
}

/// `simulate GAME`: the game and its rule options.
#[derive(Debug, Subcommand)]
pub enum SimulateGame {
    /// Deck War (deck-war.txt).
    War(<War as Game>::Options),
    /// The Snap variant (snap.txt) on random deals.
    Snap(<Snap as Game>::Options),
    /// Shotgun War (shotgun-war.txt) between two random players.
    Shotgun(<Shotgun as Game>::Options),
    /// N-player rock-paper-scissors elimination (rock-paper-scissors.txt).
    Rps(<Elimination as Game>::Options),
    /// Card-Jitsu (card-jitsu.txt) with player 1 played by a strategy.
    Jitsu(<Jitsu as Game>::Options),
}

impl SimulateGame {
    /// Builds the game from its options (a usage error names a bad one) and hands it to `task`.
    pub fn run<R, T: WithGame<Output = anyhow::Result<R>>>(&self, task: T) -> anyhow::Result<R> {
        match self {
            SimulateGame::War(o) => task.with(War::from_options(o)?),
            SimulateGame::Snap(o) => task.with(Snap::from_options(o)?),
            SimulateGame::Shotgun(o) => task.with(Shotgun::from_options(o)?),
            SimulateGame::Rps(o) => task.with(Elimination::from_options(o)?),
            SimulateGame::Jitsu(o) => task.with(Jitsu::from_options(o)?),
        }
    }
}

/// `play GAME`: the game and what to play.
#[derive(Debug, Subcommand)]
pub enum PlayGame {
    /// Deck War: replay game I of a run, or play a given deal.
    War(<War as Game>::PlayArgs),
    /// Snap: plays the given piles; prints the winner, or the players still in the game.
    Snap(<Snap as Game>::PlayArgs),
    /// Shotgun War: who dies first; prints 1, 2, 0 (both) or none.
    Shotgun(<Shotgun as Game>::PlayArgs),
    /// Rock-paper-scissors: the winners of one throw; prints their numbers or "tie".
    Rps(<Elimination as Game>::PlayArgs),
    /// Card-Jitsu against the computer: reads a hand position 1..5 per round from stdin and
    /// prints the seed's transcript on stdout (prompts and messages on stderr).
    Jitsu(<Jitsu as Game>::PlayArgs),
}

impl PlayGame {
    /// Plays the game, its trace (or transcript) going to `io` as it is made.
    pub fn play(&self, io: &mut PlayIo) -> anyhow::Result<PlayReport> {
        match self {
            PlayGame::War(a) => War::play_command(a, io),
            PlayGame::Snap(a) => Snap::play_command(a, io),
            PlayGame::Shotgun(a) => Shotgun::play_command(a, io),
            PlayGame::Rps(a) => Elimination::play_command(a, io),
            PlayGame::Jitsu(a) => Jitsu::play_command(a, io),
        }
    }
}

/// Does `task` for the game called `name`, or `None` if no game has that name.
pub fn by_name<T: WithGameType>(name: &str, task: T) -> Option<T::Output> {
    Some(match name {
        n if n == War::NAME => task.with::<War>(),
        n if n == Snap::NAME => task.with::<Snap>(),
        n if n == Shotgun::NAME => task.with::<Shotgun>(),
        n if n == Elimination::NAME => task.with::<Elimination>(),
        n if n == Jitsu::NAME => task.with::<Jitsu>(),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Name;
    impl WithGameType for Name {
        type Output = &'static str;
        fn with<G: Game>(self) -> &'static str {
            G::NAME
        }
    }

    #[test]
    fn every_listed_name_finds_its_game() {
        for name in NAMES {
            assert_eq!(by_name(name, Name), Some(name));
        }
        assert_eq!(by_name("chess", Name), None);
    }
}
