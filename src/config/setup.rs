//! The registry of games: the one list of games ([`games_list!`]) and what the typed API makes
//! of it, with no command line in sight: [`Setup`], a game and its settings as plain data (what
//! `api::simulate` takes, Python's keyword arguments become, and serde reads and writes), the
//! visitors [`WithGame`] and [`WithGameType`] bound by the core's [`Game`] alone, and
//! [`by_name`], [`for_each`] and [`names`]. The command line's face of the same list (its
//! subcommands, help lines and `play`) is made from it in `crate::face`, which converts its
//! subcommands into a [`Setup`] at the edge.

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::error::UsageError;
use crate::games::Game;

/// The one list of games, each the path of its module (under `crate`) and its type, handed to
/// macro `$then`, which makes one of the lists the program needs from it: [`Setup`] and its
/// dispatch here, the command line's subcommands in `crate::face`. The games after `exact:` are
/// those `exact` plays, so its help offers no game it refuses. A game's line may carry
/// attributes (`#[cfg(test)]`: the toy game of the tests, whose command-line face and game are
/// one file of `crate::face`).
macro_rules! games_list {
    ($then:ident) => {
        $then! {
            games::war: War,
            games::snap: Snap,
            games::shotgun: Shotgun,
            games::rps: Elimination,
            games::jitsu: Jitsu,
            games::bmn: Bmn,
            #[cfg(test)] face::toy: Toy,
            ;
            exact:
            War,
            Snap,
            Bmn,
        }
    };
}
pub(crate) use games_list;

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

/// Makes [`Setup`], [`names`], [`by_name`] and [`for_each`] from the list of games.
macro_rules! setup {
    ($($(#[$only:meta])* $($path:ident)::+ : $game:ident,)+ ; exact: $($exact:ident,)+) => {
        $($(#[$only])* use crate::$($path)::+::$game;)+

        /// A game and its settings ([`Game::Settings`]), as plain data: what the typed API
        /// plays. As JSON it is the settings' object with the game's name under `game`
        /// (`{"game": "war", "war_down": 3, ...}`).
        #[derive(Clone, Debug)]
        pub enum Setup {
            $(
                #[allow(missing_docs)]
                $(#[$only])*
                $game(<$game as Game>::Settings),
            )+
        }

        impl Setup {
            /// Builds the game from its settings (a usage error names a bad one), on the
            /// engine path [`engine_path`] names, and hands it to `task`.
            pub fn run<R, T: WithGame<Output = anyhow::Result<R>>>(
                &self,
                task: T,
            ) -> anyhow::Result<R> {
                match self {
                    $($(#[$only])* Setup::$game(o) => task.with($game::from_settings(o)?.on_engine(&engine_path())),)+
                }
            }

            /// Game `name` with its settings `settings` (a JSON object of some of the game's
            /// settings, the others at their defaults: what Python's keyword arguments become),
            /// read through serde ([`crate::config::settings::read`]).
            pub fn from_json(
                name: &str,
                settings: &serde_json::Value,
            ) -> Result<Setup, UsageError> {
                $(
                    $(#[$only])*
                    if name == <$game as Game>::NAME {
                        return crate::config::settings::read(settings)
                            .map(Setup::$game)
                            .map_err(|e| crate::usage!("{name}: {e}"));
                    }
                )+
                Err(no_game(name))
            }

            /// The game's name.
            pub fn name(&self) -> &'static str {
                match self {
                    $($(#[$only])* Setup::$game(_) => <$game as Game>::NAME,)+
                }
            }

            /// The settings as their JSON object (every setting given).
            pub fn settings_json(&self) -> serde_json::Result<serde_json::Value> {
                match self {
                    $($(#[$only])* Setup::$game(o) => serde_json::to_value(o),)+
                }
            }
        }

        /// The names of every game, in the order listed.
        // A push a game, not `vec![]`: a game's line may be compiled out (`#[cfg(test)]`).
        #[allow(clippy::vec_init_then_push)]
        pub fn names() -> Vec<&'static str> {
            let mut names = Vec::new();
            $($(#[$only])* names.push(<$game as Game>::NAME);)+
            names
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

games_list!(setup);

impl Setup {
    /// The settings with `values` set on them (each a setting's name, as serde names it, and
    /// its value as JSON), read through serde as [`Setup::from_json`] reads them: a sweep's
    /// rule set from its shared settings and its values.
    pub fn with(&self, values: &[(String, serde_json::Value)]) -> Result<Setup, UsageError> {
        let mut object = match self.settings_json() {
            Ok(serde_json::Value::Object(o)) => o,
            _ => serde_json::Map::new(),
        };
        for (name, value) in values {
            object.insert(name.clone(), value.clone());
        }
        Setup::from_json(self.name(), &serde_json::Value::Object(object))
    }
}

impl Serialize for Setup {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut object = serde_json::Map::new();
        object.insert("game".into(), self.name().into());
        match self.settings_json().map_err(serde::ser::Error::custom)? {
            serde_json::Value::Object(o) => object.extend(o),
            other => return Err(serde::ser::Error::custom(format!("settings {other}"))),
        }
        object.serialize(s)
    }
}

impl<'de> Deserialize<'de> for Setup {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Setup, D::Error> {
        let mut object = serde_json::Map::<String, serde_json::Value>::deserialize(d)?;
        let name = match object.remove("game") {
            Some(serde_json::Value::String(name)) => name,
            Some(other) => {
                return Err(D::Error::custom(format!(
                    "game: expected a name, got {other}"
                )))
            }
            None => return Err(D::Error::missing_field("game")),
        };
        Setup::from_json(&name, &serde_json::Value::Object(object)).map_err(D::Error::custom)
    }
}

/// A game `search` explores and its settings, as plain data: the games deterministic after
/// the deal with a search written for them, Beggar-my-neighbour alone so far (the command
/// line's `search GAME` converts into it at the edge).
#[derive(Clone, Debug)]
pub enum SearchSetup {
    /// Beggar-my-neighbour: the longest deals, and deals that never end.
    Bmn(<Bmn as Game>::Settings),
}

impl SearchSetup {
    /// Game `name` with its settings `settings` as JSON (what Python's keyword arguments
    /// become), for the games `search` explores.
    pub fn from_json(name: &str, settings: &serde_json::Value) -> Result<SearchSetup, UsageError> {
        if name != <Bmn as Game>::NAME {
            return Err(crate::usage!(
                "search {name:?}: search explores {} alone",
                <Bmn as Game>::NAME
            ));
        }
        crate::config::settings::read(settings)
            .map(SearchSetup::Bmn)
            .map_err(|e| crate::usage!("{name}: {e}"))
    }

    /// The game its settings describe, or a usage error naming the bad one.
    pub fn game(&self) -> Result<Bmn, UsageError> {
        match self {
            SearchSetup::Bmn(o) => Ok(Bmn::from_settings(o)?.on_engine(&engine_path())),
        }
    }
}

/// The error of a game name no game has, listing the games.
pub fn no_game(name: &str) -> UsageError {
    crate::usage!("no game {name:?}; the games are {}", names().join(", "))
}

/// The engine path the environment variable `WARSIM_PATH` names (tests and benchmarks time or
/// check one path; results are the same on every path): the one place that reads it, since the
/// core reads no environment; each game built to be played is handed it
/// ([`Game::on_engine`]).
pub fn engine_path() -> crate::games::engine_path::EnginePath {
    crate::games::engine_path::EnginePath::named(std::env::var("WARSIM_PATH").ok())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[derive(Clone)]
    struct Name;
    impl WithGameType for Name {
        type Output = &'static str;
        fn with<G: Game>(self) -> &'static str {
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

    /// A setup is its settings' object with the game's name, and reads back as itself; a
    /// setting left out takes its default.
    #[test]
    fn a_setup_goes_through_serde_tagged_by_its_game() {
        let war = Setup::from_json("war", &json!({"war_down": 1})).unwrap();
        let value = serde_json::to_value(&war).unwrap();
        assert_eq!(value["game"], "war");
        assert_eq!(value["war_down"], 1);
        let back: Setup = serde_json::from_value(value.clone()).unwrap();
        assert_eq!(serde_json::to_value(&back).unwrap(), value);
        let short: Setup = serde_json::from_value(json!({"game": "war", "war_down": 1})).unwrap();
        assert_eq!(serde_json::to_value(&short).unwrap(), value);
        let e = serde_json::from_value::<Setup>(json!({"game": "chess"})).unwrap_err();
        assert!(e.to_string().contains("no game \"chess\""), "{e}");
        let e = serde_json::from_value::<Setup>(json!({"war_down": 1})).unwrap_err();
        assert!(e.to_string().contains("missing field `game`"), "{e}");
        let e = serde_json::from_value::<Setup>(json!({"game": "war", "war_down": "x"}));
        assert!(e.unwrap_err().to_string().starts_with("war: war_down: "));
    }

    #[test]
    fn values_set_on_a_setup_are_read_as_its_settings() {
        let war = Setup::from_json("war", &json!({"war_down": 1})).unwrap();
        let set = war.with(&[("ranks".into(), json!(5))]).unwrap();
        let value = serde_json::to_value(&set).unwrap();
        assert_eq!(
            (&value["war_down"], &value["ranks"]),
            (&json!(1), &json!(5))
        );
        let e = war.with(&[("war_dwn".into(), json!(1))]).unwrap_err();
        assert!(e.to_string().contains("war_dwn"), "{e}");
    }
}
