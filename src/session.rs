//! Who a call of the API ([`crate::api`]) works for, stated once and passed down rather than
//! kept in globals: what stops it, the command line its files record, who answers SIGINT and
//! SIGTERM, and where its progress goes. The command line has one session a process
//! ([`Session::command_line`]); the Python package one a call ([`Session::hosted`]).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::Result;

use crate::cancel::Cancel;
use crate::model::summary::Provenance;
use crate::store::{Kind, OutputSet};
use crate::term::progress::{Shared, Show, When};

/// Who answers SIGINT and SIGTERM while a call runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Signals {
    /// warsim itself: its handler removes what is staged, says what was written and exits
    /// (130); a search's first interrupt stops it and writes what it found.
    Own,
    /// The program warsim runs in (the Python package): it keeps its own handler and sets the
    /// session's cancel, after which no output set of the call commits.
    Host,
}

/// What a call stops on, records, and shows, and who handles its signals.
#[derive(Clone, Debug)]
pub struct Session {
    cancel: Cancel,
    /// The command line (after `warsim`) the call's files record; `None`: this process's own.
    command: Option<Vec<String>>,
    signals: Signals,
    /// The host's count of the call's progress, which it draws itself.
    progress: Option<Arc<Shared>>,
}

impl Session {
    /// The command line's: never cancelled (an interrupt ends the process, after warsim's
    /// handler has cleaned up), recording the process's own arguments, progress as each
    /// command's `--progress` says.
    pub fn command_line() -> Session {
        Session {
            cancel: Cancel::default(),
            command: None,
            signals: Signals::Own,
            progress: None,
        }
    }

    /// A host's call (Python): stopped by `cancel`, recording `command` (the command line
    /// that does what the call does) in what it writes, with its progress counted into
    /// `progress` for the host to draw.
    pub fn hosted(cancel: Cancel, command: Vec<String>, progress: Arc<Shared>) -> Session {
        Session {
            cancel,
            command: Some(command),
            signals: Signals::Host,
            progress: Some(progress),
        }
    }

    /// What stops the call's work.
    pub fn cancel(&self) -> &Cancel {
        &self.cancel
    }

    /// What stops a search that writes what it found when interrupted: on the command line, a
    /// stop that the first SIGINT or SIGTERM sets (the search's set then commits, marked
    /// stopped; a second signal ends the process, writing nothing); in a host, the call's
    /// cancel, after which its set does not commit.
    pub fn search_stop(&self) -> Cancel {
        match self.signals {
            Signals::Own => {
                let stop = Cancel::default();
                crate::store::stop_on_interrupt(&stop);
                stop
            }
            Signals::Host => self.cancel.clone(),
        }
    }

    /// Who answers the call's signals.
    pub fn signals(&self) -> Signals {
        self.signals
    }

    /// The provenance of what the call writes now.
    pub fn provenance(&self) -> Provenance {
        Provenance::of(self.command.as_deref())
    }

    /// The command line (after `warsim`) the call's files record, as its words: what a
    /// stopped sweep records so that `warsim resume` can make it again.
    pub fn words(&self) -> Vec<String> {
        crate::model::summary::called_words(self.command.as_deref())
    }

    /// Where a progress of the call goes, `when` being what its options ask of warsim's own.
    pub fn show(&self, when: When) -> Show {
        match &self.progress {
            Some(shared) => Show::Host(shared.clone()),
            None => Show::Own(when),
        }
    }

    /// Begins an output set of `kind` in `out` ([`OutputSet::begin`]) under the session's
    /// signal handling: a host's set commits only while the call is not cancelled.
    pub fn begin(&self, out: &Path, kind: Kind, inputs: &[PathBuf]) -> Result<OutputSet> {
        let host = (self.signals == Signals::Host).then_some(&self.cancel);
        OutputSet::begin(out, kind, inputs, host)
    }
}
