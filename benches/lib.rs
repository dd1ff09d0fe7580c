//! Nothing: the package exists for its bench, `games.rs` (`cargo bench -p warsim-bench`).
