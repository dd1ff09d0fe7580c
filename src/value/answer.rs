//! [`Answer`]: what `exact` returns, the run of every deal played once, or an answer solved
//! without playing.

use std::path::Path;

use anyhow::Result;

use super::Run;
pub use crate::export::answer::Solved;
use crate::store::OutputSet;
use crate::term::progress::When;
use crate::term::stdout::Print;

/// What `exact` found.
#[derive(Debug)]
#[non_exhaustive]
pub enum Answer {
    /// Every deal played once: a run whose every statistic is exact.
    Run(Run),
    /// An answer computed, not played: a Markov chain's solution (chain.json) or War's
    /// flawless game (flawless.json).
    Solved(Solved),
}

impl Answer {
    /// Writes the answer's output set into `set` (a run's charts also as SVG with `svg`) and
    /// commits it.
    pub fn write(&self, set: OutputSet, svg: bool) -> Result<()> {
        match self {
            Answer::Run(run) => run.write(set, svg),
            Answer::Solved(solved) => solved.write(set),
        }
    }

    /// Prints the answer on stdout as `print` says, naming the folder `written` where its set
    /// went (a log line when progress goes to a log, `when`).
    pub fn print(&self, print: Print, written: Option<&Path>, when: When) -> Result<()> {
        match self {
            Answer::Run(run) => run.print(print, written, when),
            Answer::Solved(solved) => solved.print(print, written.map(|dir| (dir, when))),
        }
    }
}
