//! The exporters: one file per format a run or a command writes. A run's set ([`run`]: its
//! files written and committed, then its summary printed), CSV ([`csv`]), the summary table
//! that `--markdown` and report.html share ([`table`]), report.html ([`html`]), README.md
//! ([`readme`]), an answer computed rather than played ([`answer`]), a sweep's own files
//! ([`sweep`]), a comparison's ([`compare`]) and a search's ([`search`]). Each reads the [`crate::model`], draws with
//! [`crate::charts`] and writes into a [`crate::store`] set.

pub mod answer;
pub mod compare;
pub mod csv;
pub mod html;
pub mod readme;
pub mod run;
#[cfg(test)]
mod schema_tests;
pub mod search;
pub mod sweep;
pub mod table;
