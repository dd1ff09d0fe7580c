//! Rule settings with a fixed list of values (`--pickup shuffled`, `--short-war last-card`):
//! each value with its name (its serde name, as the JSON `rules` object writes it) and its
//! meaning, so that the command crate can offer, check and explain them without the rules
//! knowing about a command line.

use serde::Serialize;

/// A rule setting with a fixed list of values; [`choice!`](crate::choice) implements it.
pub trait Choice: Copy + Serialize + Send + Sync + 'static {
    /// Every value, in the order they are offered.
    const ALL: &'static [Self];

    /// What the value means: its doc comment as written, one line per line.
    fn doc(self) -> &'static str;

    /// Its name in the JSON `rules` object and on the command line (`last-card`).
    fn name(self) -> String {
        super::setting_name(self)
    }
}

/// Declares a fieldless enum of rule settings and implements [`Choice`] for it from the same
/// text: the variants' doc comments are their meanings.
#[macro_export]
macro_rules! choice {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident {
            $( $(#[doc = $doc:literal])* $variant:ident, )+
        }
    ) => {
        $(#[$meta])*
        $vis enum $name {
            $( $(#[doc = $doc])* $variant, )+
        }

        impl $crate::settings::choice::Choice for $name {
            const ALL: &'static [Self] = &[$(Self::$variant),+];

            fn doc(self) -> &'static str {
                match self {
                    $(Self::$variant => concat!($($doc, "\n"),*),)+
                }
            }
        }

        /// Its name, as the command line and the JSON `rules` object write it (a flag's
        /// default is shown so).
        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(&$crate::settings::choice::Choice::name(*self))
            }
        }
    };
}

#[cfg(test)]
mod tests {
    use super::Choice;
    use serde::{Deserialize, Serialize};

    crate::choice! {
        /// A test setting.
        #[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
        #[serde(rename_all = "kebab-case")]
        enum Speed {
            /// Slow, with care.
            ///
            /// And more.
            SlowAndSure,
            Fast,
        }
    }

    #[test]
    fn every_value_has_its_serde_name_and_its_doc() {
        assert_eq!(Speed::ALL, [Speed::SlowAndSure, Speed::Fast]);
        assert_eq!(Speed::SlowAndSure.name(), "slow-and-sure");
        assert_eq!(
            Speed::SlowAndSure.doc(),
            " Slow, with care.\n\n And more.\n"
        );
        assert_eq!(Speed::Fast.doc(), "");
    }
}
