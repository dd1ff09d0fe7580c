//! `warsim games`: the games as the program lists them ([`crate::games::kind`]), for people and
//! for scripts (CI's interface check, the Python tests, the conformance suite), so that no
//! list of games is kept anywhere else.

use std::io::Write;

use anyhow::Result;
use clap::{Args, FromArgMatches};
use serde::Serialize;

use crate::error::UsageError;
use crate::games::kind::{self, WithGameType};
use crate::games::Game;
use crate::usage;

/// One game as `warsim games --json` lists it.
#[derive(Debug, Serialize)]
pub struct Listed {
    /// The name on the command line.
    pub name: &'static str,
    /// What `simulate` plays.
    pub about: &'static str,
    /// What `play` does.
    pub play: &'static str,
    /// A small rule set ([`Game::EXAMPLE`]).
    pub example: &'static [&'static str],
    /// Whether `exact` plays the example rule set (every deal once).
    pub exact: bool,
}

/// The game that rule options `args` of `simulate GAME` describe.
pub fn game_from_args<G: Game>(args: &[&str]) -> Result<G, UsageError> {
    let cmd = <G::Options as Args>::augment_args(clap::Command::new(G::NAME).no_binary_name(true));
    let matches = cmd.try_get_matches_from(args).map_err(|e| {
        usage!(
            "{} {args:?}: {}",
            G::NAME,
            crate::error::one_line(&e.render().to_string())
        )
    })?;
    let options =
        G::Options::from_arg_matches(&matches).map_err(|e| usage!("{} {args:?}: {e}", G::NAME))?;
    G::from_options(&options)
}

#[derive(Clone)]
struct List;

impl WithGameType for List {
    type Output = Result<Listed, UsageError>;

    fn with<G: Game>(self) -> Result<Listed, UsageError> {
        let example = game_from_args::<G>(G::EXAMPLE)?;
        Ok(Listed {
            name: G::NAME,
            about: G::ABOUT,
            play: G::PLAY_ABOUT,
            example: G::EXAMPLE,
            exact: example.deal_count().is_ok(),
        })
    }
}

/// Every game, in the order of the list.
pub fn games() -> Result<Vec<Listed>, UsageError> {
    kind::for_each(List).into_iter().collect()
}

/// `warsim games [--json]`: a name and a line a game, or the JSON array of [`Listed`].
pub fn run(json: bool) -> Result<()> {
    let games = games()?;
    if json {
        crate::output::stdout::print_json(&games)?;
    } else {
        let mut out = crate::output::stdout::out();
        let width = games.iter().map(|g| g.name.len()).max().unwrap_or(0);
        for g in &games {
            writeln!(out, "{:width$}  {}", g.name, g.about)?;
        }
        out.flush()?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_example_rule_set_is_valid() {
        let games = games().unwrap();
        assert_eq!(
            games.iter().map(|g| g.name).collect::<Vec<_>>(),
            kind::NAMES
        );
        assert!(games.iter().any(|g| g.exact), "some game has exact");
    }
}
