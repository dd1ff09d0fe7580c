//! Where the core meets clap, behind the `clap` feature (the command crate turns it on): the
//! value parser of a [`Choice`] setting, so that a settings struct derives its flags with
//! `#[cfg_attr(feature = "clap", ...)]` and states each setting once. Without the feature the
//! core names no clap.

use std::marker::PhantomData;

use clap::builder::{PossibleValue, TypedValueParser};

use crate::settings::choice::Choice;

/// The value parser of a [`Choice`] flag: its values by name, each with the first paragraph of
/// its doc comment as help, as clap's `ValueEnum` derive would offer them.
#[derive(Clone, Copy, Debug)]
pub struct ChoiceParser<T>(PhantomData<T>);

/// The parser of a flag of setting `T`.
pub fn choice<T: Choice>() -> ChoiceParser<T> {
    ChoiceParser(PhantomData)
}

/// A doc comment as clap shows a value's help: its first paragraph, the lines trimmed and
/// joined by spaces, without a final period.
fn help_line(doc: &str) -> String {
    let first: Vec<&str> = doc
        .lines()
        .map(str::trim)
        .skip_while(|l| l.is_empty())
        .take_while(|l| !l.is_empty())
        .collect();
    let line = first.join(" ");
    match line.strip_suffix('.') {
        Some(cut) if !line.ends_with("..") => cut.to_string(),
        _ => line,
    }
}

impl<T: Choice> TypedValueParser for ChoiceParser<T> {
    type Value = T;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<T, clap::Error> {
        let names: Vec<String> = T::ALL.iter().map(|v| v.name()).collect();
        let parser = clap::builder::PossibleValuesParser::new(
            names.iter().map(|n| PossibleValue::new(n.clone())),
        );
        let name = parser.parse_ref(cmd, arg, value)?;
        // PossibleValuesParser gives back one of `names`.
        let at = names.iter().position(|n| *n == name).unwrap_or(0);
        Ok(T::ALL[at])
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(T::ALL.iter().map(|v| {
            PossibleValue::new(v.name()).help(help_line(v.doc()))
        })))
    }
}

#[cfg(test)]
mod tests {
    use super::help_line;

    #[test]
    fn a_values_help_is_its_first_paragraph_on_one_line() {
        assert_eq!(
            help_line(" Slow, with care.\n And more.\n\n Later.\n"),
            "Slow, with care. And more"
        );
        assert_eq!(help_line(" Wait...\n"), "Wait...");
        assert_eq!(help_line(""), "");
    }
}
