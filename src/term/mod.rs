//! The terminal: the readable summary of a run ([`text`]) and of a search ([`search`]),
//! progress while it plays ([`progress`]: a bar, log lines or a count Python draws), and what a
//! command prints on stdout ([`stdout`]).

pub mod progress;
pub mod search;
pub mod stdout;
pub mod text;
