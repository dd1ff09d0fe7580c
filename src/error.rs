//! The one error type that means "the user asked for something that cannot be done" (exit 2).
//!
//! Everything else (I/O, a full disk) travels as an `anyhow::Error` with context and exits 1.
//! `main` tells the two apart by downcasting.

/// Bad usage or bad input: exit status 2, one line on stderr, nothing written.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct UsageError(pub String);

/// Builds a [`UsageError`] from `format!` arguments.
#[macro_export]
macro_rules! usage {
    ($($arg:tt)*) => { $crate::error::UsageError(format!($($arg)*)) };
}
