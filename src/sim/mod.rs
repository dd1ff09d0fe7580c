//! Running many games: per-game generators, the parallel engine, shards and loop detection.

pub mod cycle;
pub mod engine;
pub mod rng;
pub mod shard;
