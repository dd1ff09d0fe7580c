//! warsim-core: the rules of War and other small card and hand games ([`games`]), the parallel
//! engine that plays them ([`sim`]) and the exact tallies and statistics of what they did
//! ([`stats`]), with [`error`]'s usage error for a rule set that cannot be played, [`rng`]'s
//! generator of each game and [`cancel`]'s request to stop a long computation.
//!
//! It has no command line, reads and writes no file and prints nothing: the `warsim` crate is
//! the command (flags, output sets, charts, Python) over it, and the compiler keeps the two
//! apart. A game's randomness comes from [`rng::game_rng`]`(seed, i)` alone, so a run's
//! histogram is the same whatever the thread count or engine path.
#![warn(missing_docs)]
// Every unsafe block says why it is sound (issue 41); CI's clippy denies warnings.
#![warn(clippy::undocumented_unsafe_blocks)]

pub mod cancel;
pub mod error;
pub mod games;
pub mod rng;
pub mod settings;
pub mod sim;
pub mod stats;
