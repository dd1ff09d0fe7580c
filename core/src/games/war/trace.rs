//! `play war --trace`: one line per round, as the round is played.

use std::fmt::Write as _;
use std::ops::ControlFlow;

use rand::RngCore;

use super::detect::NoRandomness;
use super::position::Position;
use super::stats::WarGame;
use super::War;
use crate::games::cards::Card;
use crate::games::cycle::{Deterministic, Ending, LoopDetector};
use crate::games::{GameResult, Outcome, Trace};

/// Cards as rank numbers separated by spaces.
pub fn cards_text(cards: impl Iterator<Item = Card>) -> String {
    cards.map(|c| c.to_string()).collect::<Vec<_>>().join(" ")
}

/// The names of a standard deck's 13 ranks, rank 1 first.
const RANK_NAMES: [&str; 13] = [
    "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A",
];

impl War {
    /// Card `c` as this game's trace writes it: its name where asked and the deck has 13
    /// ranks ([`War::with_card_names`]), else its rank.
    pub(super) fn card_text(&self, c: Card) -> String {
        match RANK_NAMES.get(usize::from(c).wrapping_sub(1)) {
            Some(name) if self.card_names && self.rules.ranks == 13 => (*name).to_string(),
            _ => c.to_string(),
        }
    }

    /// What a trace's deal line adds where it names the cards: the ranks that a deal given
    /// to play is written in, since `2` names rank 1.
    pub(super) fn names_note(&self) -> &'static str {
        if self.card_names && self.rules.ranks == 13 {
            "   (cards by name, 2 to A; a deal given to play is written in ranks, 1 to 13)"
        } else {
            ""
        }
    }

    /// Cards as this game's trace writes them ([`War::card_text`]), separated by spaces.
    pub(super) fn trace_cards(&self, cards: impl Iterator<Item = Card>) -> String {
        (cards.map(|c| self.card_text(c)))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// How a game ended, in words.
pub fn ending_text(result: &GameResult<WarGame>) -> String {
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

/// A game position `play war --trace` plays round by round: two players' [`Position`] and the
/// N-player game's `Seats`, so that one traced loop ([`traced`]) serves both.
pub(super) trait Traced: Deterministic<Context = War> + Clone {
    /// Plays one round; the outcome if it decided the game.
    fn play_round<R: RngCore + ?Sized>(&mut self, war: &War, rng: &mut R) -> Option<Outcome>;
    /// The trace line of the round just played.
    fn round_line(&self, war: &War, round: u64, ended: Option<Outcome>) -> String;
    /// The game's result once it has ended as `ending`.
    fn game_result(&self, ending: Ending, max_rounds: u64) -> GameResult<WarGame>;
    /// The trace's first line: the hands dealt.
    fn deal_line(&self, war: &War) -> String;
}

impl Traced for Position {
    fn play_round<R: RngCore + ?Sized>(&mut self, war: &War, rng: &mut R) -> Option<Outcome> {
        self.round(war, rng)
    }

    fn round_line(&self, war: &War, round: u64, ended: Option<Outcome>) -> String {
        self.trace_line(war, round, ended)
    }

    fn game_result(&self, ending: Ending, max_rounds: u64) -> GameResult<WarGame> {
        self.result(ending, max_rounds)
    }

    fn deal_line(&self, war: &War) -> String {
        format!(
            "deal     p1 [{}]  p2 [{}]{}",
            war.trace_cards(self.hands[0].iter()),
            war.trace_cards(self.hands[1].iter()),
            war.names_note()
        )
    }
}

/// Plays the game dealt into `d.hare` with one traced line per round: the rounds the result
/// counts (with loop detection, the game is adjudicated first and then replayed up to its
/// repetition, and the hare left where the result counts). `None` when the deal's line finds
/// the reader gone: the caller plays the game untraced.
///
/// A trace that breaks later stops it: a game adjudicated first keeps its result, any other
/// ends as `capped` where it is, and the caller reports the write error.
pub(super) fn traced<P: Traced, R: RngCore + ?Sized>(
    war: &War,
    rng: &mut R,
    d: &mut LoopDetector<P>,
    sink: Trace,
) -> Option<GameResult<WarGame>> {
    let max = war.rules.max_rounds;
    if sink(d.hare.deal_line(war)).is_break() {
        return None;
    }
    if war.rules.detect_loops {
        let ending = d.run(war, max);
        let result = d.hare.game_result(ending, max);
        let mut flow = ControlFlow::Continue(());
        let replayed = d.replay(result.rounds, |p, round| {
            let ended = p.play_round(war, &mut NoRandomness);
            flow = sink(p.round_line(war, round, ended));
            flow
        });
        // Brent's search may have played past the cap: the hare ends where the result counts.
        d.hare.copy_from(&replayed);
        if let (Some(c), ControlFlow::Continue(())) = (result.cycle, flow) {
            // The last line: a failed write is kept by the sink for the caller.
            _ = sink(format!(
                "loop: the state after round {} is the state after round {} (cycle of {} rounds)",
                c.loop_from + c.cycle_len,
                c.loop_from,
                c.cycle_len
            ));
        }
        return Some(result);
    }
    let p = &mut d.hare;
    for round in 1..=max {
        let ended = p.play_round(war, rng);
        let flow = sink(p.round_line(war, round, ended));
        if let Some(outcome) = ended {
            return Some(p.game_result(
                Ending::Ended {
                    rounds: round,
                    outcome,
                },
                max,
            ));
        }
        if flow.is_break() {
            break;
        }
    }
    p.mark_cap();
    Some(p.game_result(Ending::Capped, max))
}

impl Position {
    /// One line of `play war --trace` for the round just played (general path).
    pub(super) fn trace_line(&self, war: &War, round: u64, ended: Option<Outcome>) -> String {
        let mut line = format!("{round:>6}  ");
        for p in 0..2 {
            let _ = write!(line, "p{}:", p + 1);
            for level in 0..=self.levels.len() {
                let [s, e] = self.level_span(&self.table, p, level);
                let cards = &self.table[p][s..e];
                if let Some((up, down)) = cards.split_first() {
                    let _ = write!(line, " {}", war.card_text(*up));
                    if !down.is_empty() {
                        let _ = write!(line, " ({})", war.trace_cards(down.iter().copied()));
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
                let lost = war.card_text(lost.copied().unwrap_or(0));
                let _ = write!(line, "({lost} leaves the game)  ");
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
