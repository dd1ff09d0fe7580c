//! warsim: Monte Carlo simulation and exact statistics for War and other small card and hand
//! games.
//!
//! The library holds the rules ([`games`]), the parallel engine ([`sim`]), the exact tallies
//! and statistics ([`stats`]) and the output formats ([`output`]); the binary is a thin layer
//! over [`cli`]. Only `cli` and `output` touch files, stdout or stderr.
#![warn(missing_docs)]

pub mod cli;
pub mod error;
pub mod games;
pub mod output;
pub mod sim;
pub mod stats;
