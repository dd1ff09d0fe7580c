//! `warsim games`: the games as the program lists them ([`crate::face`]), for people and
//! for scripts (CI's interface check, the Python tests, the conformance suite), so that no
//! list of games is kept anywhere else.

use std::io::Write;

use anyhow::Result;
use clap::{Args, FromArgMatches};
use serde::Serialize;

use crate::config::setup::{no_game, Setup};
use crate::error::UsageError;
use crate::face::{self, GameCli, WithFace};
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
    /// A small rule set ([`GameCli::EXAMPLE`]).
    pub example: &'static [&'static str],
    /// Whether `exact` plays the example rule set (every deal once).
    pub exact: bool,
    /// The rule options of `simulate GAME` (`sweep GAME` and the Python package take the same).
    pub options: Vec<OptionDoc>,
}

/// One rule option as `warsim games --json` lists it, for scripts and for the Python package's
/// keyword arguments, docstrings and type stubs.
#[derive(Debug, Serialize)]
pub struct OptionDoc {
    /// Its long name, without `--`.
    pub name: String,
    /// The name of its value (`K`, `RULES`), or `None` for a switch.
    pub value: Option<String>,
    /// Its help, in a line.
    pub help: String,
    /// Its default, where it has one of its own.
    pub default: Option<String>,
    /// The values it takes, where they are a list.
    pub choices: Vec<String>,
}

/// The rule options of game `G`, from the command line's own definition of them.
pub fn settings_of<G: GameCli>() -> Vec<OptionDoc> {
    let cmd = <G::Settings as Args>::augment_args(clap::Command::new(G::NAME));
    cmd.get_arguments()
        .filter_map(|a| {
            let name = a.get_long()?.to_string();
            let takes = a.get_action().takes_values();
            Some(OptionDoc {
                name,
                value: takes.then(|| {
                    a.get_value_names()
                        .and_then(|v| v.first())
                        .map_or_else(|| "VALUE".into(), |v| v.to_string())
                }),
                help: a
                    .get_help()
                    .map(|h| crate::error::one_line(&h.to_string()))
                    .unwrap_or_default(),
                default: a
                    .get_default_values()
                    .first()
                    .map(|d| d.to_string_lossy().into_owned()),
                choices: if takes {
                    a.get_possible_values()
                        .iter()
                        .map(|v| v.get_name().to_string())
                        .collect()
                } else {
                    Vec::new()
                },
            })
        })
        .collect()
}

/// The game that rule options `args` of `simulate GAME` describe, or the command line's
/// one-line message for the first bad one.
pub fn game_from_args<G: GameCli, A: AsRef<str>>(args: &[A]) -> Result<G, UsageError> {
    G::from_settings(&parse_args::<G::Settings, A>(G::NAME, args)?)
}

/// Arguments `args` (no program name) read as the clap arguments `T` of a command called
/// `name`, or the command line's one-line message for the first bad one: for a game's rule
/// options and its `play` arguments outside a whole command line.
pub fn parse_args<T: Args + FromArgMatches, A: AsRef<str>>(
    name: &'static str,
    args: &[A],
) -> Result<T, UsageError> {
    let cmd = T::augment_args(clap::Command::new(name).no_binary_name(true));
    let bad = |e: clap::Error| {
        let line = crate::error::one_line(&e.render().to_string());
        usage!("{}", line.trim_start_matches("error: "))
    };
    let matches = cmd
        .try_get_matches_from(args.iter().map(AsRef::as_ref))
        .map_err(bad)?;
    T::from_arg_matches(&matches).map_err(bad)
}

/// The [`Setup`] of game `name` that its rule options `args` of `simulate GAME` describe, or
/// the command line's one-line message for the first bad one: a game chosen by name and flags
/// outside a whole command line (the chart tests), converted at the edge as `simulate`'s is.
pub fn setup_from_args<A: AsRef<str>>(name: &str, args: &[A]) -> Result<Setup, UsageError> {
    struct Parse<'a, A>(&'a [A]);
    impl<A: AsRef<str>> WithFace for Parse<'_, A> {
        type Output = Result<serde_json::Value, UsageError>;
        fn with<G: GameCli>(self) -> Result<serde_json::Value, UsageError> {
            let settings = parse_args::<G::Settings, A>(G::NAME, self.0)?;
            serde_json::to_value(settings).map_err(|e| usage!("{}: {e}", G::NAME))
        }
    }
    let settings = face::by_name(name, Parse(args)).unwrap_or_else(|| Err(no_game(name)))?;
    Setup::from_json(name, &settings)
}

#[derive(Clone)]
struct List;

impl WithFace for List {
    type Output = Result<Listed, UsageError>;

    fn with<G: GameCli>(self) -> Result<Listed, UsageError> {
        let example = game_from_args::<G, _>(G::EXAMPLE)
            .map_err(|e| usage!("{} {:?}: {e}", G::NAME, G::EXAMPLE))?;
        Ok(Listed {
            name: G::NAME,
            about: G::ABOUT,
            play: G::PLAY_ABOUT,
            example: G::EXAMPLE,
            exact: example.deal_count().is_ok(),
            options: settings_of::<G>(),
        })
    }
}

/// Every game, in the order of the list.
pub fn games() -> Result<Vec<Listed>, UsageError> {
    face::for_each(List).into_iter().collect()
}

/// What `warsim games [--json]` prints: a name and a line a game, or the JSON array of
/// [`Listed`].
pub fn text(json: bool) -> Result<Vec<u8>> {
    let games = games()?;
    if json {
        return Ok(crate::model::pretty_json(&games)?);
    }
    let mut out = Vec::new();
    let width = games.iter().map(|g| g.name.len()).max().unwrap_or(0);
    for g in &games {
        writeln!(out, "{:width$}  {}", g.name, g.about)?;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_example_rule_set_is_valid() {
        let games = games().unwrap();
        assert_eq!(
            games.iter().map(|g| g.name).collect::<Vec<_>>(),
            crate::config::setup::names()
        );
        assert!(games.iter().any(|g| g.exact), "some game has exact");
    }

    /// Every game's flags are its settings' names spelled with dashes, so a sweep's axes (and
    /// an error's flag) can be named by the settings and spelled as the command line does
    /// ([`crate::error::long`]).
    #[test]
    fn every_flag_is_its_settings_name() {
        #[derive(Clone)]
        struct Names;
        impl WithFace for Names {
            type Output = (Vec<String>, Vec<String>);
            fn with<G: GameCli>(self) -> (Vec<String>, Vec<String>) {
                let settings = serde_json::to_value(G::Settings::default()).unwrap();
                let mut named: Vec<String> = (settings.as_object().unwrap().keys())
                    .map(|k| crate::error::long(k))
                    .collect();
                let mut flags: Vec<String> =
                    settings_of::<G>().into_iter().map(|o| o.name).collect();
                named.sort_unstable();
                flags.sort_unstable();
                (named, flags)
            }
        }
        for (named, flags) in face::for_each(Names) {
            assert_eq!(named, flags);
        }
    }

    #[test]
    fn options_are_listed_as_the_command_line_defines_them() {
        let war = settings_of::<crate::games::war::War>();
        let down = war.iter().find(|o| o.name == "war-down").unwrap();
        assert_eq!(down.value.as_deref(), Some("K"));
        assert!(!down.help.is_empty());
        let pickup = war.iter().find(|o| o.name == "pickup").unwrap();
        assert!(pickup.choices.iter().any(|c| c == "p1-first"), "{pickup:?}");
        assert!(
            war.iter().all(|o| o.name != "games"),
            "run options are not rule options"
        );
        let err = game_from_args::<crate::games::war::War, _>(&["--war-down", "x"])
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("--war-down") && !err.starts_with("error"),
            "{err}"
        );
    }
}
