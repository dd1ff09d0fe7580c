//! The Snap variant of its rules document (docs/rules/snap.md): N players, no choices, only
//! the algorithm.
//!
//! Players in turn play their top card onto a common pile. A player with no cards (who is not
//! out) rotates the common pile instead: its bottom card goes to the top. A card equal to the
//! card it lands on takes the whole common pile: it goes under the taker's pile bottom card
//! first (so the pair ends at the very bottom), every player then holding no card is out, and
//! the taker plays next. The game ends when one player holds every card (outcome `p<k>`), when
//! all cards are in the common pile and a rotation makes no pair (`stalemate`), or at the first
//! repeated state (`loop`): every pile, the common pile, whose turn it is, and who is out.
//!
//! A turn is one card played or one rotation; the take is part of the turn that made the pair.

use std::ops::ControlFlow;

use rand::RngCore;
use serde::{Deserialize, Serialize};

use super::arrange;
use super::cards::{shuffle, Card, Pile};
use super::cycle::{Deterministic, LoopDetector};
use super::{check_max_rounds, Game, GameResult, Outcome, Trace};
use crate::error::setting;
use crate::error::UsageError;
use crate::usage;
use crate::usage_of;

/// Most players (the out set is a 64-bit mask).
pub const MAX_PLAYERS: usize = 64;
/// Most cards in a game.
pub const MAX_CARDS: usize = 1 << 16;
/// The default turn cap, a safety net only: loop detection ends every endless game.
pub const DEFAULT_MAX_ROUNDS: u64 = 10_000_000;

/// The state of a game between turns.
#[derive(Clone, Debug)]
pub struct Table {
    /// Each player's pile, top first.
    pub piles: Vec<Pile>,
    /// The common pile, bottom first (its last card is the face-up top).
    pub common: Pile,
    /// Whose turn it is (0-based).
    pub turn: usize,
    /// Players out of the game, as a bit set.
    pub out: u64,
}

impl Table {
    /// An empty table for `players` players and `cards` cards.
    pub fn new(players: usize, cards: usize) -> Self {
        Table {
            piles: (0..players).map(|_| Pile::with_capacity(cards)).collect(),
            common: Pile::with_capacity(cards),
            turn: 0,
            out: 0,
        }
    }

    /// Sets the piles (top first) and starts a game at player 1's turn.
    pub fn set<'a>(&mut self, piles: impl IntoIterator<Item = &'a [Card]>) {
        for (pile, cards) in self.piles.iter_mut().zip(piles) {
            pile.clear();
            pile.extend_bottom(cards);
        }
        self.common.clear();
        self.turn = 0;
        self.out = 0;
    }

    /// Players still in the game, 0-based.
    pub fn in_game(&self) -> Vec<usize> {
        (0..self.piles.len())
            .filter(|&p| self.out >> p & 1 == 0)
            .collect()
    }

    /// Plays one turn; returns the outcome if the game ended in it.
    pub fn step(&mut self) -> Option<Outcome> {
        let p = self.turn;
        // A player with no card who is not out rotates: the common pile is not empty then
        // (they played their last card after the last take, which would otherwise have put
        // them out).
        let rotated = self.piles[p].is_empty();
        let card = if rotated {
            self.common.pop_top()
        } else {
            self.piles[p].pop_top()
        };
        let pair = self.common.last() == Some(card);
        self.common.push_bottom(card);
        if pair {
            while !self.common.is_empty() {
                let c = self.common.pop_top();
                self.piles[p].push_bottom(c);
            }
            for (q, pile) in self.piles.iter().enumerate() {
                if pile.is_empty() {
                    self.out |= 1 << q;
                }
            }
            let everyone = u64::MAX >> (64 - self.piles.len());
            if self.out == everyone & !(1 << p) {
                return Some(Outcome::Player(p as u8));
            }
            return None; // the taker plays next
        }
        if rotated && self.piles.iter().all(Pile::is_empty) {
            return Some(Outcome::Stalemate);
        }
        let n = self.piles.len();
        let mut q = (p + 1) % n;
        while self.out >> q & 1 == 1 {
            q = (q + 1) % n;
        }
        self.turn = q;
        None
    }
}

impl Deterministic for Table {
    type Context = ();

    #[inline]
    fn step(&mut self, _: &()) -> Option<Outcome> {
        Table::step(self)
    }

    fn same_state(&self, other: &Self) -> bool {
        self.turn == other.turn
            && self.out == other.out
            && self.common.same_sequence(&other.common)
            && self
                .piles
                .iter()
                .zip(&other.piles)
                .all(|(a, b)| a.same_sequence(b))
    }

    fn copy_from(&mut self, other: &Self) {
        for (a, b) in self.piles.iter_mut().zip(&other.piles) {
            a.copy_from(b);
        }
        self.common.copy_from(&other.common);
        self.turn = other.turn;
        self.out = other.out;
    }
}

/// Piles read from the command line, with the symbols their card numbers stand for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Deal {
    /// Each player's pile, top first, as card numbers 1..K.
    pub piles: Vec<Vec<Card>>,
    /// `symbols[c − 1]` is how card `c` is written.
    pub symbols: Vec<String>,
    /// Whether cards are integers (written comma-separated).
    pub numbers: bool,
}

impl Deal {
    /// Reads piles: each a string of non-whitespace characters, one card each, or with
    /// `numbers` a comma-separated list of integers. Errors name the bad pile.
    pub fn parse(piles: &[String], numbers: bool) -> Result<Deal, UsageError> {
        if piles.len() < 2 {
            return Err(usage!("snap needs at least two piles, got {}", piles.len()));
        }
        if piles.len() > MAX_PLAYERS {
            return Err(usage!(
                "{} piles: at most {MAX_PLAYERS} players",
                piles.len()
            ));
        }
        let mut symbols: Vec<String> = Vec::new();
        let mut out = Vec::with_capacity(piles.len());
        for (i, text) in piles.iter().enumerate() {
            let tokens: Vec<String> = if numbers {
                text.split(',')
                    .map(|t| {
                        let t = t.trim();
                        match t.parse::<u64>() {
                            // The number names the card: `01` and `1` are one card, `0` is `0`.
                            Ok(n) => Ok(n.to_string()),
                            Err(_) => Err(usage!(
                                "pile {} ({text:?}): {t:?} is not a whole number",
                                i + 1
                            )),
                        }
                    })
                    .collect::<Result<_, _>>()?
            } else {
                text.chars()
                    .filter(|c| !c.is_whitespace())
                    .map(String::from)
                    .collect()
            };
            if tokens.is_empty() || (numbers && text.trim().is_empty()) {
                return Err(usage!(
                    "pile {} is empty; every player starts with cards",
                    i + 1
                ));
            }
            let mut pile = Vec::with_capacity(tokens.len());
            for t in tokens {
                let id = match symbols.iter().position(|s| *s == t) {
                    Some(k) => k,
                    None => {
                        if symbols.len() == usize::from(Card::MAX) {
                            return Err(usage!("more than {} different cards", Card::MAX));
                        }
                        symbols.push(t);
                        symbols.len() - 1
                    }
                };
                pile.push(id as Card + 1);
            }
            out.push(pile);
        }
        let len = out[0].len();
        if let Some(i) = out.iter().position(|p| p.len() != len) {
            return Err(usage!(
                "pile {} has {} cards, pile 1 has {len}; every player starts with the same number",
                i + 1,
                out[i].len()
            ));
        }
        if out.len() * len > MAX_CARDS {
            return Err(usage!("{} cards: at most {MAX_CARDS}", out.len() * len));
        }
        Ok(Deal {
            piles: out,
            symbols,
            numbers,
        })
    }

    /// How a sequence of cards is written.
    pub fn show(&self, cards: impl Iterator<Item = Card>) -> String {
        let parts: Vec<&str> = cards
            .map(|c| self.symbols[usize::from(c) - 1].as_str())
            .collect();
        if self.numbers {
            parts.join(",")
        } else {
            parts.concat()
        }
    }

    /// Total cards.
    pub fn cards(&self) -> usize {
        self.piles.iter().map(Vec::len).sum()
    }
}

/// Plays `deal` to its end; returns the result and the players still in the game at the end
/// (0-based; the winner alone when there is one). With `trace`, one line per turn in the spirit
/// of the seed's tables (turn, piles, common pile, TAKES / OUT marks, and the earlier turn a
/// loop returns to).
///
/// The game is adjudicated with loop detection, then replayed for exactly the turns counted:
/// Brent's search may run past the end of a capped game, the replay stops where it ends.
/// A trace that breaks stops the trace and the replay: the players returned are then those of
/// the turn it stopped at.
pub fn play_deal(
    deal: &Deal,
    max_rounds: u64,
    mut trace: Option<Trace>,
) -> (GameResult, Vec<usize>) {
    let players = deal.piles.len();
    let mut table = Table::new(players, deal.cards());
    table.set(deal.piles.iter().map(Vec::as_slice));
    let mut detector = LoopDetector::new(table);
    let line = |t: &Table, turn: u64| {
        let piles: Vec<String> = t
            .piles
            .iter()
            .map(|p| {
                if p.is_empty() {
                    "-".into()
                } else {
                    deal.show(p.iter())
                }
            })
            .collect();
        format!(
            "{turn:>6}  {}  | {}",
            piles.join(" "),
            deal.show(t.common.iter())
        )
    };
    if let Some(sink) = trace.as_mut() {
        if sink(line(&detector.hare, 0)).is_break() {
            trace = None;
        }
    }
    let result = detector.run(&(), max_rounds).result(max_rounds, ());
    let end = detector.replay(result.rounds, |t, turn| {
        let (player, rotated, before_out) = (t.turn, t.piles[t.turn].is_empty(), t.out);
        t.step();
        let Some(sink) = trace.as_mut() else {
            return ControlFlow::Continue(());
        };
        let mut l = line(t, turn);
        if rotated {
            l.push_str("   (rotated)");
        }
        // After a take the common pile is empty; after any other turn it is not.
        if t.common.is_empty() {
            let newly = t.out & !before_out;
            let outs: Vec<String> = (0..players)
                .filter(|&q| newly >> q & 1 == 1)
                .map(|q| format!("p{} OUT", q + 1))
                .collect();
            l.push_str(&format!("   p{} TAKES", player + 1));
            if !outs.is_empty() {
                l.push_str(&format!(", {}", outs.join(", ")));
            }
        }
        if let Some(c) = result.cycle.filter(|c| c.loop_from + c.cycle_len == turn) {
            l.push_str(&format!("   // loop: the state after turn {}", c.loop_from));
        }
        sink(l)
    });
    (result, end.in_game())
}

/// The rule settings of a Snap run, each declared once: the command line's flags (their help
/// is the doc comments), Python's keyword arguments and the JSON `rules` object
/// ([`Snap::from_settings`] checks them).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
pub struct SnapSettings {
    /// Players.
    #[cfg_attr(feature = "clap", arg(long, value_name = "P", default_value_t = SnapSettings::default().players))]
    pub players: usize,
    /// Different card faces.
    #[cfg_attr(feature = "clap", arg(long, value_name = "F", default_value_t = SnapSettings::default().faces))]
    pub faces: usize,
    /// Copies of each face (the deck has F×C cards, dealt evenly).
    #[cfg_attr(feature = "clap", arg(long, value_name = "C", default_value_t = SnapSettings::default().copies))]
    pub copies: usize,
    /// Stop a game after this many turns (outcome `capped`); loops are detected exactly.
    #[cfg_attr(feature = "clap", arg(long, value_name = "M", allow_negative_numbers = true,
        default_value_t = SnapSettings::default().max_rounds, value_parser = crate::settings::parse_turns))]
    pub max_rounds: u64,
}

impl Default for SnapSettings {
    /// Two players and a deck of 13 faces × 4 copies.
    fn default() -> Self {
        SnapSettings {
            players: 2,
            faces: 13,
            copies: 4,
            max_rounds: DEFAULT_MAX_ROUNDS,
        }
    }
}

impl SnapSettings {
    /// The settings if a game can have them, or an error naming the one it cannot.
    fn check(o: &SnapSettings) -> Result<Self, UsageError> {
        if !(2..=MAX_PLAYERS).contains(&o.players) {
            return Err(usage_of![
                setting("players", o.players),
                format!(": need 2 to {MAX_PLAYERS} players"),
            ]);
        }
        if !(1..=usize::from(Card::MAX)).contains(&o.faces) || o.copies == 0 {
            return Err(usage_of![
                setting("faces", o.faces),
                " ",
                setting("copies", o.copies),
                ": need 1 to 255 faces and at least one copy",
            ]);
        }
        let cards = o.faces.saturating_mul(o.copies);
        if !cards.is_multiple_of(o.players) || cards > MAX_CARDS {
            return Err(usage_of![
                setting("faces", o.faces),
                " ",
                setting("copies", o.copies),
                format!(
                    ": {cards} cards cannot be dealt evenly to {} players (at most {MAX_CARDS} cards)",
                    o.players
                ),
            ]);
        }
        Ok(SnapSettings {
            players: o.players,
            faces: o.faces,
            copies: o.copies,
            max_rounds: check_max_rounds(o.max_rounds, "turn")?,
        })
    }
}

/// Random deals: the [`Game`] of `simulate snap`.
#[derive(Clone, Debug)]
pub struct Snap {
    rules: SnapSettings,
    deck: Vec<Card>,
    /// Copies of each face in the deck, for `exact snap`.
    counts: Vec<u32>,
}

impl Snap {
    /// The game for `rules`, or an error naming the setting no game can have: the same checks
    /// as the options of the command line ([`checked`](super::checked)).
    pub fn new(rules: SnapSettings) -> Result<Self, UsageError> {
        super::checked(rules)
    }

    /// The game for rules that passed those checks.
    fn build(rules: SnapSettings) -> Self {
        let deck: Vec<Card> = (0..rules.copies)
            .flat_map(|_| 1..=rules.faces as Card)
            .collect();
        let counts = arrange::counts(deck.iter().copied(), rules.faces as Card);
        Snap {
            rules,
            deck,
            counts,
        }
    }

    /// Plays the game whose piles are `s.deck` dealt in order, a pile a player.
    fn play_dealt(&self, s: &mut SnapScratch) -> GameResult {
        let per = s.deck.len() / self.rules.players;
        s.detector.hare.set(s.deck.chunks(per));
        let max = self.rules.max_rounds;
        s.detector.run(&(), max).result(max, ())
    }
}

/// One worker's tables (the game and Brent's two copies) and deck buffers.
#[derive(Debug)]
pub struct SnapScratch {
    detector: LoopDetector<Table>,
    deck: Vec<Card>,
    counts: Vec<u32>,
}

impl Game for Snap {
    const NAME: &'static str = "snap";
    const UNIT: super::Unit = super::Unit::TURNS;
    type Settings = SnapSettings;
    type Rules = SnapSettings;
    type Stats = ();
    type Scratch = SnapScratch;

    fn from_settings(o: &SnapSettings) -> Result<Self, UsageError> {
        Ok(Snap::build(SnapSettings::check(o)?))
    }

    fn rules(&self) -> &SnapSettings {
        &self.rules
    }

    fn settings_of(r: &SnapSettings) -> SnapSettings {
        r.clone()
    }

    fn scratch(&self) -> SnapScratch {
        let n = self.deck.len();
        SnapScratch {
            detector: LoopDetector::new(Table::new(self.rules.players, n)),
            deck: Vec::with_capacity(n),
            counts: Vec::with_capacity(self.counts.len()),
        }
    }

    fn play<R: RngCore + ?Sized>(&self, rng: &mut R, s: &mut SnapScratch) -> GameResult {
        s.deck.clear();
        s.deck.extend_from_slice(&self.deck);
        shuffle(rng, &mut s.deck);
        self.play_dealt(s)
    }

    /// Snap draws nothing after the deal: every arrangement of the deck, dealt in order.
    fn deal_count(&self) -> Result<u128, UsageError> {
        arrange::arrangements(&self.counts)
            .ok_or_else(|| crate::games::too_many_deals(Self::NAME, self.deck.len()))
    }

    fn play_deal_number(&self, i: u64, s: &mut SnapScratch) -> Option<GameResult> {
        s.counts.clone_from(&self.counts);
        s.deck.clear();
        arrange::unrank(u128::from(i), &mut s.counts, &mut s.deck);
        Some(self.play_dealt(s))
    }

    fn players(&self) -> usize {
        self.rules.players
    }

    fn max_rounds(&self) -> u64 {
        self.rules.max_rounds
    }

    fn describe(&self) -> String {
        let r = &self.rules;
        format!(
            "{} players, {} faces × {} copies, loops detected, cap {}",
            r.players, r.faces, r.copies, r.max_rounds
        )
    }

    fn detects_loops(&self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests;
