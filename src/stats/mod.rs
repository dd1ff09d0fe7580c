//! Exact tallies and the statistics computed from them.

pub mod histogram;
pub mod summary;
pub mod tail;
