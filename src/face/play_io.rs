//! What a game's `play` command reads and writes: its input and output streams ([`PlayIo`]),
//! a trace writer that stops the game when nobody reads any more ([`LineSink`]), and what it
//! found ([`PlayReport`]), which `crate::play` prints as text or JSON.

use std::io::{self, BufRead, Write};
use std::ops::ControlFlow;

use serde::Serialize;

use crate::games::Cycle;

/// What `play GAME` found: printed as text or as one JSON object by [`crate::play`].
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PlayReport {
    /// The game's name.
    pub game: &'static str,
    /// An outcome name ([`Outcome::name`]), or a game's own (`none`, `winners`).
    pub outcome: String,
    /// Rounds played.
    pub rounds: u64,
    /// The 1-indexed players still in the game, or the winner alone.
    pub players: Vec<u32>,
    /// For a loop: the round after which the repeated state first stood.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub loop_from: Option<u64>,
    /// For a loop: rounds between the two equal states.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cycle_len: Option<u64>,
    /// The game's own keys (rules, seed, statistics of the game).
    #[serde(flatten)]
    pub extra: serde_json::Map<String, serde_json::Value>,
    /// What the plain-text output prints after the trace (nothing if empty).
    #[serde(skip)]
    pub text: String,
    /// What the plain-text output says on stderr beside `text`, where stdout's form is fixed
    /// (Snap's answers are the seed's: a loop and a stalemate print alike there).
    #[serde(skip)]
    pub note: String,
    /// What a person reads at a terminal instead of `text` and `note`, where `text` is a seed
    /// document's bare answer for programs (`1 2`): the same answer in a sentence. Empty:
    /// `text` reads well as it is.
    #[serde(skip)]
    pub words: String,
}

impl PlayReport {
    /// A report of `game` with no cycle and no extra keys.
    pub fn new(game: &'static str, outcome: String, rounds: u64, players: Vec<u32>) -> Self {
        PlayReport {
            game,
            outcome,
            rounds,
            players,
            loop_from: None,
            cycle_len: None,
            extra: serde_json::Map::new(),
            text: String::new(),
            note: String::new(),
            words: String::new(),
        }
    }

    /// Sets the loop keys from `cycle`.
    pub fn with_cycle(mut self, cycle: Option<Cycle>) -> Self {
        self.loop_from = cycle.map(|c| c.loop_from);
        self.cycle_len = cycle.map(|c| c.cycle_len);
        self
    }

    /// Sets the plain-text line.
    pub fn with_text(mut self, text: impl Into<String>) -> Self {
        self.text = text.into();
        self
    }

    /// Sets the sentence a person reads at a terminal.
    pub fn with_words(mut self, words: impl Into<String>) -> Self {
        self.words = words.into();
        self
    }

    /// Sets the plain-text note for stderr.
    pub fn with_note(mut self, note: impl Into<String>) -> Self {
        self.note = note.into();
        self
    }
}

/// Players in words: `player 2`, `players 1 and 3`, `players 1, 2 and 4`.
pub fn players_words(players: &[u32]) -> String {
    let shown: Vec<String> = players.iter().map(u32::to_string).collect();
    match shown.split_last() {
        None => "no player".into(),
        Some((one, [])) => format!("player {one}"),
        Some((last, rest)) => format!("players {} and {last}", rest.join(", ")),
    }
}

/// What a `play` command reads and writes, so the games stay free of the process's I/O.
pub struct PlayIo<'a> {
    /// Whether `--trace` asked for a trace.
    pub trace: bool,
    /// Whether a trace names the cards (`K`, for the text a person reads) rather than writing
    /// their compact codes (`12`, for `--json`, Python and files).
    pub names: bool,
    /// Where trace lines (or an interactive game's transcript) go, one line at a time, as
    /// they are made: a trace of millions of rounds is never held in memory.
    pub out: &'a mut dyn Write,
    /// Input of an interactive game.
    pub input: &'a mut dyn BufRead,
    /// Whether the input shows as it is typed (stdin is a terminal, which echoes it); if not,
    /// an interactive game writes what it read after its prompt, so the prompts read as a
    /// dialogue in a log.
    pub input_echoed: bool,
    /// Prompts and messages of an interactive game (stderr).
    pub prompt: &'a mut dyn Write,
    /// Set to stop the game (Python's Ctrl-C): a game with a far cap stops at once
    /// ([`Cancelled`](crate::cancel::Cancelled)).
    pub cancel: &'a crate::cancel::Cancel,
}

impl PlayIo<'_> {
    /// The generator the engine gives game `index` of a run with base `seed`: a replay draws
    /// exactly what that game of the run drew, and only the simulation layer knows how the
    /// generator is derived.
    pub fn game_rng(&self, seed: u64, index: u64) -> crate::rng::GameRng {
        crate::rng::game_rng(seed, index)
    }
}

/// Writes trace lines to a `play` command's output, keeping the first write error so the
/// rules, which cannot fail, need not handle it: they only learn, from
/// [`ControlFlow::Break`], that nobody reads the trace any more and stop playing (a trace of
/// millions of rounds piped into `head` must not run on for seconds after `head` quits).
pub struct LineSink<'a> {
    out: &'a mut dyn Write,
    error: Option<io::Error>,
}

impl<'a> LineSink<'a> {
    /// A sink writing to `out`.
    pub fn new(out: &'a mut dyn Write) -> Self {
        LineSink { out, error: None }
    }

    /// Writes one line; `Break` once a write has failed (and nothing is written after that).
    pub fn line(&mut self, line: &str) -> ControlFlow<()> {
        if self.error.is_none() {
            if let Err(e) = writeln!(self.out, "{line}") {
                self.error = Some(e);
            }
        }
        if self.error.is_some() {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    }

    /// The first write error, if any. A game stopped by a `Break` returns a result that is not
    /// its end, so its caller asks this first and reports the error instead.
    pub fn finish(self) -> io::Result<()> {
        self.error.map_or(Ok(()), Err)
    }
}
