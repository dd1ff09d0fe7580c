//! What every search's document opens with ([`Header`]), how it lists what it found
//! ([`Listed`]), and how the face that runs it writes the commands that play a find again
//! ([`Replays`]). A leaf of its own, so each mode's report ([`reaching`](super::reaching), the
//! others in [`report`](super::report)) uses them without importing the module that runs the
//! modes.

use serde::Serialize;

use super::plan::Method;
use crate::games::bmn::{Bmn, BmnRules};
use crate::games::Game;

/// How the face that runs a search writes the commands that play again what it found.
pub trait Replays {
    /// The command that plays `deal` under the search's rules, its card cap included.
    fn deal(&self, deal: &str) -> String;
    /// The command that plays `position` (on a cycle, or a deal entering one) under the
    /// search's rules without a card cap: its loop is found exactly whatever the cap, while a
    /// cap given to the search may be too short to play up to the loop's second turn.
    fn cycle(&self, position: &str) -> String;
    /// The command that plays the search again: `deals` of them (the tries, or the deals
    /// sampled), `bases` joined, after a search of `hours`.
    fn search(&self, deals: u64, bases: usize, hours: f64) -> String;
}

/// What every search's document opens with: the game, the search, its rules and its seed.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Clone, Debug, Serialize)]
pub struct Header {
    /// The game's name.
    pub game: &'static str,
    /// The search for cycles, if it is one: `loops` or `census`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mode: Option<&'static str>,
    /// The rules in words.
    pub description: String,
    /// The rules.
    pub rules: BmnRules,
    /// How sampling looked for long games.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub method: Option<Method>,
    /// The base seed (a walk backward draws nothing).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// The deal the search started from.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
}

impl Header {
    /// The header of a search of `game`, no more said.
    pub fn of(game: &Bmn) -> Header {
        Header {
            game: Bmn::NAME,
            mode: None,
            description: game.describe(),
            rules: game.rules().clone(),
            method: None,
            seed: None,
            from: None,
        }
    }
}

/// A deal or cycle as a document lists it: what was found, and the command that plays it.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Clone, Debug, Serialize)]
pub struct Listed<T> {
    /// What was found.
    #[serde(flatten)]
    pub found: T,
    /// The command that plays it ([`Replays`]).
    pub replay: String,
}
