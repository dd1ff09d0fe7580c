//! Exact tallies and the statistics computed from them.

pub mod count;
pub mod game;
pub mod histogram;
pub mod quantile;
pub mod summary;
pub mod tail;
pub mod tail_check;
pub mod words;
