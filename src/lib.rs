//! warsim: Monte Carlo simulation and exact statistics for War and other small card and hand
//! games.
//!
//! The library holds the rules ([`games`]), the parallel engine ([`sim`]), the exact tallies
//! and statistics ([`stats`]), the output formats ([`output`]) and `merge` ([`merge`]); the
//! binary is a thin layer over [`cli`] and [`play`]. Only `cli`, `play`, `merge` and `output`
//! touch files, stdin, stdout or stderr.
#![warn(missing_docs)]

pub mod cli;
pub mod compare;
pub mod config;
pub mod error;
pub mod estimate;
pub mod exact;
pub mod games;
pub mod list;
pub mod merge;
pub mod output;
pub mod play;
#[cfg(feature = "python")]
pub mod python;
pub mod replay;
pub mod run;
pub mod sim;
pub mod stats;
pub mod sweep;
