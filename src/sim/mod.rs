//! Running many games: per-game generators, the parallel engine, pilots and shards.

pub mod engine;
pub mod pilot;
pub mod precision;
pub mod rng;
pub mod shard;
