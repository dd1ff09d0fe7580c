//! warsim: Monte Carlo simulation and exact statistics for War and other small card and hand
//! games.
//!
//! The library holds the rules ([`games`], listed once in [`games::kind`]), the parallel engine
//! ([`sim`]), the exact tallies and statistics ([`stats`]), the output formats and the output
//! sets ([`output`]), and the commands: [`cli`] defines the command line, [`config`] is what a
//! run is asked as plain data, [`app`] dispatches to [`run`], [`exact`], [`sweep`], [`merge`]
//! (which also reads any run folder back), [`compare`], [`replay`], [`play`] and [`list`]
//! (`warsim games`). The binary is `main.rs` over [`app`]. Only the commands and `output` touch
//! files, stdin, stdout or stderr.
#![warn(missing_docs)]

pub mod app;
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
pub mod search;
pub mod sim;
pub mod stats;
pub mod sweep;
