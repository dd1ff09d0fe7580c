//! The error that means "the rules or the input asked for something that cannot be done": the
//! command crate prints it in one line and exits with status 2.

/// Bad usage or bad input, said in one line that names what is wrong.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct UsageError(pub String);

/// Builds a [`UsageError`] from `format!` arguments.
#[macro_export]
macro_rules! usage {
    ($($arg:tt)*) => { $crate::error::UsageError(format!($($arg)*)) };
}
