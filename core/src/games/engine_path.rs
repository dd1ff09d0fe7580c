//! The engine path a caller names, for tests and benchmarks that time or check one path (War's
//! `scalar`, `avx512`, `lanes`, `lanes-avx2`; Beggar-my-neighbour's `lanes`, `lanes-avx2`,
//! `phase`, `cards`): results are the same on every path, only the speed differs. The core reads
//! no environment and keeps no process-wide choice: a caller hands the path to the game it built
//! ([`Game::on_engine`](crate::games::Game::on_engine)); the command line reads it from
//! `WARSIM_PATH`. Nothing named: each game plays on the fastest path this CPU runs.

/// A path named for a game's engine, or none (the fastest this CPU runs).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EnginePath(Option<String>);

impl EnginePath {
    /// The fastest path this CPU runs, for each game.
    pub fn fastest() -> EnginePath {
        EnginePath(None)
    }

    /// The path called `name` (`None`: the fastest). A name a game has no path of leaves that
    /// game on its fastest path: every path plays the same games.
    pub fn named(name: Option<String>) -> EnginePath {
        EnginePath(name)
    }

    /// The name, if one was given.
    pub fn name(&self) -> Option<&str> {
        self.0.as_deref()
    }
}
