//! Running many games: per-game generators, the parallel engine and shards.

pub mod engine;
pub mod precision;
pub mod rng;
pub mod shard;
