//! Running many games: the parallel engine, pilots and shards (each game's generator is
//! [`crate::rng`]'s).

pub mod engine;
pub mod pilot;
pub mod precision;
pub mod shard;
