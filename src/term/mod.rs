//! The terminal: the readable summary of a run ([`text`]), progress while it plays
//! ([`progress`]: a bar, log lines or a count Python draws), and what a command prints on stdout
//! ([`stdout`]).

pub mod progress;
pub mod stdout;
pub mod text;
