//! `play war --trace`: one line per round, as the round is played.

use std::fmt::Write as _;
use std::ops::ControlFlow;

use rand::RngCore;

use super::detect::NoRandomness;
use super::position::Position;
use super::stats::WarGame;
use super::{War, WarScratch};
use crate::games::cards::Card;
use crate::games::cycle::{Deterministic, Ending};
use crate::games::{GameResult, Outcome, Trace};

/// Cards as rank numbers separated by spaces.
pub(super) fn cards_text(cards: impl Iterator<Item = Card>) -> String {
    cards.map(|c| c.to_string()).collect::<Vec<_>>().join(" ")
}

/// How a game ended, in words.
pub(super) fn ending_text(result: &GameResult<WarGame>) -> String {
    match (result.outcome, result.cycle) {
        (Outcome::Player(p), _) => format!("player {} wins in round {}", p + 1, result.rounds),
        (Outcome::Loop, Some(c)) => format!(
            "loop: the state after round {} repeats the state after round {} (cycle of {} rounds); the game never ends",
            c.loop_from + c.cycle_len,
            c.loop_from,
            c.cycle_len
        ),
        (Outcome::Draw, _) => format!("draw in round {}", result.rounds),
        _ => format!("capped: undecided after {} rounds", result.rounds),
    }
}

impl War {
    /// As `run_dealt`, one traced line per round: the rounds the result counts (with loop
    /// detection, the game is adjudicated first and then replayed up to its repetition).
    ///
    /// A trace that breaks (its reader has gone) stops it: a game adjudicated first keeps its
    /// result, any other ends as `capped` where it is, and the caller reports the write error.
    pub(super) fn run_traced<R: RngCore + ?Sized>(
        &self,
        rng: &mut R,
        s: &mut WarScratch,
        sink: Trace,
    ) -> GameResult<WarGame> {
        let max = self.rules.max_rounds;
        let hands = &s.detector.hare.hands;
        let dealt = sink(format!(
            "deal     p1 [{}]  p2 [{}]",
            cards_text(hands[0].iter()),
            cards_text(hands[1].iter())
        ));
        if dealt.is_break() {
            return self.run_dealt(rng, s);
        }
        if self.rules.detect_loops {
            let ending = s.detector.run(self, max);
            let result = s.detector.hare.result(ending, max);
            let mut flow = ControlFlow::Continue(());
            s.detector.replay(result.rounds, |p, round| {
                let ended = p.round(self, &mut NoRandomness);
                flow = sink(p.trace_line(round, ended));
                flow
            });
            if let (Some(c), ControlFlow::Continue(())) = (result.cycle, flow) {
                // The last line: a failed write is kept by the sink for the caller.
                _ = sink(format!(
                    "loop: the state after round {} is the state after round {} (cycle of {} rounds)",
                    c.loop_from + c.cycle_len,
                    c.loop_from,
                    c.cycle_len
                ));
            }
            return result;
        }
        let p = &mut s.detector.hare;
        for round in 1..=max {
            let ended = p.round(self, rng);
            let flow = sink(p.trace_line(round, ended));
            if let Some(outcome) = ended {
                return p.result(
                    Ending::Ended {
                        rounds: round,
                        outcome,
                    },
                    max,
                );
            }
            if flow.is_break() {
                break;
            }
        }
        p.mark_cap();
        p.result(Ending::Capped, max)
    }
}

impl Position {
    /// One line of `play war --trace` for the round just played (general path).
    pub(super) fn trace_line(&self, round: u64, ended: Option<Outcome>) -> String {
        let mut line = format!("{round:>6}  ");
        for p in 0..2 {
            let _ = write!(line, "p{}:", p + 1);
            for level in 0..=self.levels.len() {
                let [s, e] = self.level_span(&self.table, p, level);
                let cards = &self.table[p][s..e];
                if let Some((up, down)) = cards.split_first() {
                    let _ = write!(line, " {up}");
                    if !down.is_empty() {
                        let _ = write!(line, " ({})", cards_text(down.iter().copied()));
                    }
                }
            }
            line.push_str("  ");
        }
        let depth = self.levels.len();
        if depth > 0 {
            let _ = write!(line, "war×{depth}  ");
        }
        let (a, b) = (self.table[0].last(), self.table[1].last());
        if a != b {
            let taken = self.table[0].len() + self.table[1].len() - usize::from(self.honored);
            let _ = write!(line, "-> p{} takes {taken}  ", if b > a { 2 } else { 1 });
            if self.honored {
                let lost = if b > a { a } else { b };
                let _ = write!(line, "({} leaves the game)  ", lost.copied().unwrap_or(0));
            }
        }
        match ended {
            Some(o) => {
                let _ = write!(line, "game over: {}", o.name());
            }
            None => {
                let _ = write!(line, "[{} | {}]", self.holding(0), self.holding(1));
            }
        }
        line
    }
}
