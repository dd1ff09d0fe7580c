//! How a game declares its settings: once, as the fields of its settings struct
//! ([`Game::Settings`](crate::games::Game::Settings)), each with its meaning (the doc comment),
//! its default (the struct's `Default`) and its checks (the game's `from_settings`, whose errors
//! name the setting, never a flag: [`crate::error`]). Every face reads that one declaration:
//! the command line derives its flags from it (the core's optional command-line feature,
//! `clap_values`), Python fills it from keyword arguments through serde ([`as_text`] reads the
//! settings written as text), and `warsim games --json`, `sweep`'s axes and the Python stubs
//! list what the command line derives.
//!
//! The readers of a setting's value as text live here too, so that every face reads `1e6` or
//! `1,000,000` alike.

pub mod choice;
#[cfg(feature = "clap")]
pub mod clap_values;

use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::{Map, Value};

/// A whole number ≥ 1 of `noun`, as `--games` reads it (`1000000`, `1_000_000`,
/// `1,000,000` or `1e6`; separators only between groups of three digits, so `1,5` is refused
/// rather than read as 15).
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

/// A round cap as the faces read it: a count of the game's unit (`rounds`, `turns`, `cards`).
pub fn parse_rounds(text: &str) -> Result<u64, String> {
    parse_count(text, "rounds")
}

/// A turn cap (Snap counts turns).
pub fn parse_turns(text: &str) -> Result<u64, String> {
    parse_count(text, "turns")
}

/// A card cap (Beggar-my-neighbour counts cards laid).
pub fn parse_cards(text: &str) -> Result<u64, String> {
    parse_count(text, "cards")
}

/// The name a rule setting has in the JSON `rules` object (and on the command line), such as
/// `last-card` for a variant `LastCard`: its serde name, so the two never disagree.
pub fn setting_name<T: Serialize>(setting: T) -> String {
    serde_json::to_value(setting)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_default()
}

/// The fields `value` serialises to, by name (a struct's every field, unset ones as null).
///
/// A game whose rules keep most of its settings as given (War's `war_down`, `short_war`) passes
/// those between its settings struct and its rule set by name ([`by_name`]), as Python passes
/// keyword arguments into the settings: a setting of the same name and the same JSON on both
/// sides is then declared in the two structs and copied field by field nowhere.
pub fn fields_of(value: &impl Serialize) -> Result<Map<String, Value>, serde_json::Error> {
    match serde_json::to_value(value)? {
        Value::Object(fields) => Ok(fields),
        other => Err(serde::ser::Error::custom(format!("{other} has no fields"))),
    }
}

/// [`fields_of`] without the fields left unset (null): the settings given, to lay over others.
pub fn set_fields_of(value: &impl Serialize) -> Result<Map<String, Value>, serde_json::Error> {
    let fields = fields_of(value)?;
    Ok(fields.into_iter().filter(|(_, v)| !v.is_null()).collect())
}

/// `T` read from `layers` of fields by name ([`fields_of`], [`set_fields_of`]), each layer's
/// over those of the layers before it.
pub fn by_name<T: DeserializeOwned>(
    layers: impl IntoIterator<Item = Map<String, Value>>,
) -> Result<T, serde_json::Error> {
    let mut fields = Map::new();
    layers.into_iter().for_each(|layer| fields.extend(layer));
    serde_json::from_value(Value::Object(fields))
}

/// The serde of an optional setting written as text (`13 13 13 13`, `1,2,3,0`): read from a
/// string (or a number, as its text) by the setting's own `FromStr`, written with its
/// `Display`. Python's keyword arguments reach a settings struct through it.
pub mod as_text {
    use std::fmt::Display;
    use std::str::FromStr;

    use serde::{Deserialize, Deserializer, Serializer};

    /// A setting's text as given: a string, or a number.
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Given {
        Text(String),
        Number(serde_json::Number),
    }

    /// Writes `Some(value)` as its text.
    pub fn serialize<S: Serializer, T: Display>(
        value: &Option<T>,
        s: S,
    ) -> Result<S::Ok, S::Error> {
        match value {
            Some(v) => s.serialize_some(&v.to_string()),
            None => s.serialize_none(),
        }
    }

    /// Reads the setting from its text.
    pub fn deserialize<'de, D, T>(d: D) -> Result<Option<T>, D::Error>
    where
        D: Deserializer<'de>,
        T: FromStr,
        T::Err: Display,
    {
        let text = match Option::<Given>::deserialize(d)? {
            None => return Ok(None),
            Some(Given::Text(t)) => t,
            Some(Given::Number(n)) => n.to_string(),
        };
        text.parse().map(Some).map_err(serde::de::Error::custom)
    }
}
