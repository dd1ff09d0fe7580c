//! The engine path a caller names, for tests and benchmarks that time or check one path (War's
//! `scalar`, `avx512`, `lanes`, `lanes-avx2`; Beggar-my-neighbour's `lanes`, `lanes-avx2`,
//! `phase`, `cards`): results are the same on every path, only the speed differs. The core reads
//! no environment: the front end (the command line, the Python module) passes the name it read
//! from `WARSIM_PATH` once, before it builds a game, and every game built afterwards plays on
//! that path where it can. Nothing named: each game plays on the fastest path this CPU runs.

use std::sync::OnceLock;

static NAMED: OnceLock<Option<String>> = OnceLock::new();

/// Names the path of every game built from now on (`None`: the fastest). The first call counts:
/// a run's games all play on one path.
pub fn name(path: Option<String>) {
    let _ = NAMED.set(path);
}

/// The path named, if any.
pub fn named() -> Option<&'static str> {
    NAMED.get().and_then(|p| p.as_deref())
}
