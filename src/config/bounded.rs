//! Run and search options that no face can hold out of range: each is a type whose only ways
//! in are its setting's own reader (a flag's text, a JSON number's text) and [`new`], which
//! hands the number to that reader. A Rust caller who builds a `RunConfig` with
//! `Threads::new(u32::MAX)` is refused there, in the words the command line uses for
//! `--threads 4294967295`, instead of by a check somewhere downstream that every path must
//! remember to call (the typed API's `threads: Some(u32::MAX)` once ran away that way).
//!
//! [`new`]: Threads::new

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::json::number;
use crate::error::UsageError;
use crate::games::bmn::search::plan::{MAX_BASES, MAX_KEEP, MAX_WALKERS};
use crate::stats::summary::grouped;

/// The most worker threads a run takes.
pub const MAX_THREADS: u32 = 1024;

/// A whole number from `min` to `max`, read from `text`: the reader of every bounded count
/// but games, which are written with separators and exponents.
fn whole(text: &str, min: u64, max: u64) -> Result<u64, String> {
    text.parse::<u64>()
        .ok()
        .filter(|n| (min..=max).contains(n))
        .ok_or_else(|| format!("expected a whole number from {min} to {}", grouped(max)))
}

/// `games`, `max_games`: a whole number ≥ 1, written `1000000`, `1_000_000`, `1,000,000` or
/// `1e6`. Separators stand only between groups of three digits, so `1,5` (a decimal comma, or
/// a typo) is refused rather than read as 15.
fn read_games(text: &str) -> Result<u64, String> {
    crate::settings::parse_count(text, "games")
}

/// Defines a count held to its setting's bounds: the type, `new` (the number, refused as its
/// setting unless `read` takes its text), `get`, its reader as `FromStr` (a flag's
/// `value_parser`) and serde as a JSON number read by the same reader.
macro_rules! bounded {
    ($(#[$doc:meta])* $name:ident($inner:ty), $setting:literal, $read:expr) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub struct $name($inner);

        impl $name {
            #[doc = concat!("`n` as a ", $setting, ", refused in the words its flag's text would be.")]
            pub fn new(n: $inner) -> Result<$name, UsageError> {
                super::read_again($setting, n, |t: &str| t.parse::<$name>()).map(|()| $name(n))
            }

            /// The number.
            pub const fn get(self) -> $inner {
                self.0
            }
        }

        // Its JSON Schema is its number's (what Python's stubs make an `int` of).
        impl schemars::JsonSchema for $name {
            fn inline_schema() -> bool {
                true
            }

            fn schema_name() -> std::borrow::Cow<'static, str> {
                <$inner as schemars::JsonSchema>::schema_name()
            }

            fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
                <$inner as schemars::JsonSchema>::json_schema(generator)
            }
        }

        impl FromStr for $name {
            type Err = String;

            fn from_str(text: &str) -> Result<$name, String> {
                let read: fn(&str) -> Result<u64, String> = $read;
                // The reader's bound is within the inner type's, so the conversion holds.
                read(text).and_then(|n| {
                    <$inner>::try_from(n)
                        .map($name)
                        .map_err(|_| format!("{n} is too large"))
                })
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                self.0.fmt(f)
            }
        }

        impl Serialize for $name {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                self.0.serialize(s)
            }
        }

        impl<'de> Deserialize<'de> for $name {
            /// A JSON number read by the setting's reader; `null` is no value of this type
            /// (an `Option` of it, or the field's default, takes `null`).
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<$name, D::Error> {
                number(d, |t: &str| t.parse::<$name>())?
                    .ok_or_else(|| serde::de::Error::custom("expected a number"))
            }
        }
    };
}

bounded!(
    /// Worker threads of a run or a search: 1 to [`MAX_THREADS`].
    Threads(u32),
    "threads",
    |t| whole(t, 1, MAX_THREADS.into())
);

bounded!(
    /// Games of a run (`games`, `max_games`): at least 1.
    Games(u64),
    "games",
    read_games
);

bounded!(
    /// A search's independent walkers: 1 to [`MAX_WALKERS`].
    Walkers(u32),
    "walkers",
    |t| whole(t, 1, MAX_WALKERS.into())
);

bounded!(
    /// The longest deals a search keeps: 1 to [`MAX_KEEP`].
    Keep(usize),
    "keep",
    |t| whole(t, 1, MAX_KEEP.into())
);

bounded!(
    /// The longest games sampled that the record search joins from: 1 to [`MAX_BASES`].
    Bases(usize),
    "bases",
    |t| whole(t, 1, MAX_BASES.into())
);

impl Games {
    /// With `--precision`, the most games played without `--max-games`.
    pub const DEFAULT_MAX: Games = Games(100_000_000);
}

impl Walkers {
    /// The walkers of a search that names none.
    pub const DEFAULT: Walkers = Walkers(16);
}

impl Keep {
    /// The deals a search keeps unless asked.
    pub const DEFAULT: Keep = Keep(10);
}

impl Bases {
    /// The bases of a record search that names none.
    pub const DEFAULT: Bases = Bases(crate::games::bmn::search::plan::DEFAULT_BASES);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each type's bounds are its flag's: the ends taken, one past them refused in the
    /// setting's own words, and serde reads the same numbers.
    #[test]
    fn each_count_holds_its_bounds_whoever_makes_it() {
        assert_eq!(Threads::new(1).unwrap().get(), 1);
        assert_eq!(Threads::new(MAX_THREADS).unwrap().get(), MAX_THREADS);
        let e = Threads::new(MAX_THREADS + 1).unwrap_err().to_string();
        assert_eq!(e, "threads 1025: expected a whole number from 1 to 1,024");
        assert!(Threads::new(0).is_err());
        let e = Keep::new(usize::MAX).unwrap_err().to_string();
        assert!(
            e.starts_with("keep 18446744073709551615: expected a whole number from 1 to 10,000"),
            "{e}"
        );
        assert!(Bases::new(0).is_err() && Walkers::new(u32::MAX).is_err());
        assert_eq!(
            Bases::new(MAX_BASES as usize).unwrap().get(),
            MAX_BASES as usize
        );
        let e = Games::new(0).unwrap_err().to_string();
        assert!(
            e.starts_with("games 0: expected a whole number of games of at least 1"),
            "{e}"
        );
        assert_eq!("1e6".parse::<Games>().unwrap().get(), 1_000_000);
        let g: Games = serde_json::from_value(serde_json::json!(1e3)).unwrap();
        assert_eq!(g.get(), 1000);
        assert!(serde_json::from_value::<Threads>(serde_json::json!(0)).is_err());
        assert!(serde_json::from_value::<Keep>(serde_json::json!("10")).is_err());
        assert_eq!(
            serde_json::to_value(Keep::DEFAULT).unwrap(),
            serde_json::json!(10)
        );
    }
}
