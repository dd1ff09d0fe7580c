//! Stopping a long computation from outside it: a run of the engine, or War's flawless-game
//! count, looks at a shared flag between pieces of work.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// A request to stop a run, shared with whoever may ask (the Python package, when Ctrl-C
/// reaches the interpreter). The engine looks at it before each claim of games, so a run stops
/// within about the engine's claim time (`sim::engine::CLAIM_TIME`) of the request (or one game, when a game takes longer), with an
/// error ([`Cancelled`]) and no tally.
#[derive(Clone, Debug, Default)]
pub struct Cancel(Arc<AtomicBool>);

impl Cancel {
    /// Asks the runs watching this to stop.
    pub fn set(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// Whether a stop was asked for.
    pub fn is_set(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

/// The error of a run stopped by its [`Cancel`].
#[derive(Debug, thiserror::Error)]
#[error("cancelled")]
pub struct Cancelled;
