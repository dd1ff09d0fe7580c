//! War for 3 to 26 players (`--players N`), after kbWar and Brakebusk/WarSimulator, which both
//! play it; `--players 2` never comes here (it is the two-player engine, byte for byte).
//!
//! The rule points, each an extension of the two-player rule that gives that rule back for two
//! players (a test plays both engines on the same deals and checks it):
//!
//! - **Deal.** The deck is shuffled and cut into N blocks in player order, player 1's first:
//!   each player gets ⌊n/N⌋ cards, and when N does not divide the deck the first n mod N
//!   players get one card more (kbWar's round-robin deal gives the same hand sizes). With two
//!   players this is today's deal: player 1 the first half, player 2 the second.
//! - **Battle.** Every player still in the game turns their top card, in player order. The
//!   highest card takes every card laid. A tie for the highest is a war among the tied players
//!   only: each lays `--war-down` cards face down and turns one up, in player order, and the
//!   highest of those takes the whole table, the cards of the players who were not in the war
//!   included. Ties nest the same way; each level counts as one war in `wars`.
//! - **Short war.** `lose`: a tied player holding `--war-down` cards or fewer cannot fight; they
//!   lay every card they still hold on the table (it goes to the war's winner) and are out of
//!   the game. `last-card`: a tied player with no card left is out of the war (and, holding
//!   nothing, out of the game); the others lay what they can face down, keeping their last card
//!   to turn up. A player who cannot fight leaves the round (their laid cards stay on the
//!   table). If exactly one tied player can fight, they win the war without laying more. If
//!   none can, the round goes on among the players still in it whose last face-up card came at
//!   the deepest level (the highest of those cards takes the table, a tie among them is a war),
//!   as if the short players had never turned a card; when no player is left in the round at
//!   all, the game ends as a `draw` (each player's laid cards go back to them), as a war that
//!   both players cannot fight is a draw with two. `--short-war bryer` is refused.
//! - **Pickup** (the winner's new cards, under their hand): `shuffled`: in random order;
//!   `p1-first`: player 1's cards in the order laid, then player 2's, … then player N's;
//!   `winner-first`: the winner's, then every other player's in player order; `loser-first`:
//!   every other player's in player order, then the winner's; `table`: level by level, where a
//!   player's level is a face-up card and the cards they laid face down after it (a short
//!   player's last level holds whatever they laid), the cards of a level taken card by card
//!   across the players in player order; `won-pile`: onto the winner's won pile in `p1-first`
//!   order, shuffled into the hand when the hand runs out. `--won-pile kept` is the same game
//!   as cards put under the hand, as with two players. `--pickup bryer`, `--pickup kbwar` and
//!   `--won-pile reversed` (two-player orders) are refused.
//! - **Out and the end.** A player holding no card after a round is out; players who go out in
//!   the same round share that place in the elimination order (`play war` reports it; a run
//!   tallies each player's finishing place over the games won, [`super::places`]). The game
//!   ends when one player holds every card (outcome `pK`).
//! - **Loops.** With a pickup that draws no randomness the game is deterministic after the deal;
//!   Brent's detector ([`crate::games::cycle`]) finds the first repeated state (every hand in
//!   order; who is out follows from the hands), exactly as with two players.
//! - Refused for three or more players, with a usage error naming the option: `--rules bryer`,
//!   `--pickup bryer|kbwar`, `--won-pile reversed`, `--deal even|bryer`, `--p1-cards`,
//!   `--honor`, `--by`, `--quit-stats` (two-player rules), and `exact war` (with or without
//!   `--flawless`).
//!
//! A round plays on fixed buffers made once per worker (`Seats`), so no game allocates.

use std::fmt::Write as _;

use rand::RngCore;

use super::detect::NoRandomness;
use super::places::Places;
use super::rules::{Pickup, ShortWar, WarRules};
use super::stats::WarGame;
use super::trace::{self, Traced};
use super::War;
use crate::error::UsageError;
use crate::games::cards::{shuffle, Card, Pile};
use crate::games::cycle::{Deterministic, Ending, LoopDetector};
use crate::games::{GameResult, Outcome, Trace};

/// The state of an N-player game between rounds, and the buffers a round needs: every buffer
/// is sized for the whole deck when the worker starts.
#[derive(Clone, Debug)]
pub(super) struct Seats {
    /// Each player's cards, top first; with [`Pickup::WonPile`] the last `won[p]` of them are
    /// the won pile (as in the two-player position).
    hands: Vec<Pile>,
    won: Vec<usize>,
    /// Players still in the game, bit p for player p (N ≤ 26 fits).
    alive: u32,
    /// Cards each player laid this round, in play order.
    table: Vec<Vec<Card>>,
    /// Where each of a player's face-up cards of this round is in `table[p]`.
    ups: Vec<Vec<u32>>,
    /// The players of the current level of the round, and the next level's.
    contest: Vec<u8>,
    next: Vec<u8>,
    /// Players in the order they went out; `out_rounds[i]` is the round `out[i]` went out in.
    out: Vec<u8>,
    out_rounds: Vec<u64>,
    /// Rounds played, for `out_rounds`.
    rounds: u64,
    /// Scratch for shuffles and the deal.
    spare: Vec<Card>,
    /// Who took the last round and the wars it had (for the trace).
    taker: Option<u8>,
    depth: u32,
    stats: WarGame,
    at_cap: WarGame,
}

impl Seats {
    /// Buffers for `players` players and `capacity` cards in play.
    pub(super) fn new(players: usize, capacity: usize) -> Self {
        fn vecs<T>(players: usize, n: usize) -> Vec<Vec<T>> {
            (0..players).map(|_| Vec::with_capacity(n)).collect()
        }
        Seats {
            hands: (0..players)
                .map(|_| Pile::with_capacity(capacity))
                .collect(),
            won: vec![0; players],
            alive: 0,
            table: vecs(players, capacity),
            ups: vecs(players, capacity),
            contest: Vec::with_capacity(players),
            next: Vec::with_capacity(players),
            out: Vec::with_capacity(players),
            out_rounds: Vec::with_capacity(players),
            rounds: 0,
            spare: Vec::with_capacity(capacity),
            taker: None,
            depth: 0,
            stats: WarGame::default(),
            at_cap: WarGame::default(),
        }
    }

    fn players(&self) -> usize {
        self.hands.len()
    }

    fn reset(&mut self) {
        self.hands.iter_mut().for_each(Pile::clear);
        self.won.iter_mut().for_each(|w| *w = 0);
        self.out.clear();
        self.out_rounds.clear();
        self.rounds = 0;
        self.taker = None;
        self.stats = WarGame::default();
        self.at_cap = WarGame::default();
    }

    /// Deals a shuffled deck in blocks, player 1's first; the first n mod N players get one
    /// card more.
    pub(super) fn deal<R: RngCore + ?Sized>(&mut self, war: &War, rng: &mut R) {
        self.reset();
        self.spare.clear();
        self.spare.extend_from_slice(&war.deck);
        shuffle(rng, &mut self.spare);
        let (n, players) = (self.spare.len(), self.players());
        let mut at = 0;
        for p in 0..players {
            let len = n / players + usize::from(p < n % players);
            self.hands[p].extend_bottom(&self.spare[at..at + len]);
            at += len;
        }
        self.alive = (1u32 << players) - 1;
    }

    /// Gives each player the hand given (top card first); a player given none is out.
    pub(super) fn set_hands(&mut self, hands: &[Vec<Card>]) {
        self.reset();
        self.alive = 0;
        for (p, cards) in hands.iter().enumerate() {
            self.hands[p].extend_bottom(cards);
            if !cards.is_empty() {
                self.alive |= 1 << p;
            }
        }
    }

    /// Cards player `p` holds (hand and won pile).
    fn holding(&self, p: usize) -> usize {
        self.hands[p].len()
    }

    /// Player `p` lays their next `n` cards; with a won pile, an empty hand is first refilled
    /// from it, shuffled.
    fn lay<R: RngCore + ?Sized>(&mut self, war: &War, p: usize, n: usize, rng: &mut R) {
        if war.rules.pickup == Pickup::WonPile {
            for _ in 0..n {
                if self.hands[p].len() == self.won[p] {
                    self.hands[p].shuffle(rng);
                    self.won[p] = 0;
                }
                let c = self.hands[p].pop_top();
                self.table[p].push(c);
            }
        } else {
            self.hands[p].take_into(n, &mut self.table[p]);
        }
    }

    /// Player `p` turns a card face up.
    fn lay_up<R: RngCore + ?Sized>(&mut self, war: &War, p: usize, rng: &mut R) {
        self.ups[p].push(self.table[p].len() as u32);
        self.lay(war, p, 1, rng);
    }

    fn give(&mut self, war: &War, p: usize, cards: &[Card]) {
        self.hands[p].extend_bottom(cards);
        if war.rules.pickup == Pickup::WonPile {
            self.won[p] += cards.len();
        }
    }

    /// Plays one round (a battle and its wars); returns the outcome if it ended the game.
    pub(super) fn round<R: RngCore + ?Sized>(&mut self, war: &War, rng: &mut R) -> Option<Outcome> {
        self.rounds += 1;
        self.taker = None;
        self.turn_up(war, rng);
        let k = war.rules.war_down as usize;
        let mut depth = 0;
        // Players still in the round: those who turned a card and have not left a war short.
        let mut standing = self.alive;
        let winner = loop {
            self.keep_highest();
            if self.contest.len() == 1 {
                break usize::from(self.contest[0]);
            }
            depth += 1;
            self.stats.wars += 1;
            self.leave_short(war, rng, k, &mut standing);
            if self.contest.len() == 1 {
                break usize::from(self.contest[0]);
            }
            if self.contest.is_empty() {
                if standing == 0 {
                    return Some(self.draw_mid_war(depth));
                }
                self.contest_deepest(standing);
                continue;
            }
            self.lay_war(war, rng, k);
        };
        self.stats.note_battle(depth);
        self.depth = depth;
        self.collect(war, rng, winner, depth);
        self.taker = Some(winner as u8);
        self.end_round()
    }

    /// Clears the table, and every player still in the game turns their top card: they are
    /// the round's first contest.
    #[inline(always)]
    fn turn_up<R: RngCore + ?Sized>(&mut self, war: &War, rng: &mut R) {
        self.contest.clear();
        for p in 0..self.players() {
            self.table[p].clear();
            self.ups[p].clear();
            if self.alive & (1 << p) != 0 {
                self.contest.push(p as u8);
                self.lay_up(war, p, rng);
            }
        }
    }

    /// Keeps in the contest only the players whose last face-up card is the highest.
    #[inline(always)]
    fn keep_highest(&mut self) {
        let up = |s: &Self, p: u8| s.table[p as usize][*s.ups[p as usize].last().unwrap() as usize];
        let best = self.contest.iter().map(|&p| up(self, p)).max().unwrap();
        let mut contest = std::mem::take(&mut self.contest);
        contest.retain(|&p| up(self, p) == best);
        self.contest = contest;
    }

    /// A war among the contest's players: those who cannot fight it (the short-war rule, `k`
    /// cards down) leave the round, putting any cards they hold (`lose`) on the table, and
    /// leave `standing`; the others are the next contest.
    #[inline(always)]
    fn leave_short<R: RngCore + ?Sized>(
        &mut self,
        war: &War,
        rng: &mut R,
        k: usize,
        standing: &mut u32,
    ) {
        let fights = |h: usize| match war.rules.short_war {
            ShortWar::Lose => h > k,
            ShortWar::LastCard => h > 0,
            ShortWar::Bryer => unreachable!("short_war bryer is refused for N players"),
        };
        self.next.clear();
        for i in 0..self.contest.len() {
            let p = self.contest[i];
            if fights(self.holding(usize::from(p))) {
                self.next.push(p);
            }
        }
        for i in 0..self.contest.len() {
            let p = usize::from(self.contest[i]);
            if !self.next.contains(&(p as u8)) {
                *standing &= !(1 << p);
                let held = self.holding(p);
                self.lay(war, p, held, rng);
            }
        }
        std::mem::swap(&mut self.contest, &mut self.next);
    }

    /// Nobody could fight the war: the round goes on among the players still `standing` whose
    /// last face-up card came at the deepest level, as if the short players had never turned a
    /// card.
    #[inline(always)]
    fn contest_deepest(&mut self, standing: u32) {
        let players = self.players();
        let deepest = (0..players)
            .filter(|&p| standing & (1 << p) != 0)
            .map(|p| self.ups[p].len())
            .max()
            .unwrap_or(0);
        self.contest
            .extend((0..players as u8).filter(|&p| {
                standing & (1 << p) != 0 && self.ups[usize::from(p)].len() == deepest
            }));
    }

    /// Each player of the contest lays `k` cards face down (keeping at least one) and turns
    /// one up.
    #[inline(always)]
    fn lay_war<R: RngCore + ?Sized>(&mut self, war: &War, rng: &mut R, k: usize) {
        for i in 0..self.contest.len() {
            let p = usize::from(self.contest[i]);
            let down = k.min(self.holding(p) - 1);
            self.lay(war, p, down, rng);
            self.lay_up(war, p, rng);
        }
    }

    /// After the round's cards are collected: a player holding none is out (this round's
    /// players out share a place); the game's outcome once one player is left.
    #[inline(always)]
    fn end_round(&mut self) -> Option<Outcome> {
        let players = self.players();
        for p in 0..players {
            if self.alive & (1 << p) != 0 && self.holding(p) == 0 {
                self.alive &= !(1 << p);
                self.out.push(p as u8);
                self.out_rounds.push(self.rounds);
            }
        }
        if self.alive.count_ones() != 1 {
            return None;
        }
        let winner = self.alive.trailing_zeros() as usize;
        // Two players' places are their outcome (and the two-player engine tallies none).
        if players > 2 {
            let out = self
                .out
                .iter()
                .copied()
                .zip(self.out_rounds.iter().copied());
            self.stats.places = Places::of(players, winner, out);
        }
        Some(Outcome::Player(winner as u8))
    }

    /// Ends the game as a draw: no player of a war can fight it. Every laid card goes back to
    /// the player who laid it, so the final position still holds the whole deck.
    fn draw_mid_war(&mut self, depth: u32) -> Outcome {
        self.stats.note_battle(depth);
        self.depth = depth;
        for p in 0..self.players() {
            let cards = std::mem::take(&mut self.table[p]);
            self.hands[p].extend_bottom(&cards);
            self.table[p] = cards;
        }
        Outcome::Draw
    }

    /// Puts the whole table under winner `w`'s hand in the pickup's order.
    fn collect<R: RngCore + ?Sized>(&mut self, war: &War, rng: &mut R, w: usize, depth: u32) {
        let table = std::mem::take(&mut self.table);
        let players = self.players();
        match war.rules.pickup {
            Pickup::P1First | Pickup::WonPile => {
                table.iter().for_each(|cards| self.give(war, w, cards));
            }
            Pickup::WinnerFirst => {
                self.give(war, w, &table[w]);
                (0..players)
                    .filter(|&p| p != w)
                    .for_each(|p| self.give(war, w, &table[p]));
            }
            Pickup::LoserFirst => {
                (0..players)
                    .filter(|&p| p != w)
                    .for_each(|p| self.give(war, w, &table[p]));
                self.give(war, w, &table[w]);
            }
            Pickup::Table => {
                // Level g of player p: from their g-th face-up card to their next one.
                let span = |p: usize, g: usize| -> &[Card] {
                    let ups = &self.ups[p];
                    match ups.get(g) {
                        Some(&s) => {
                            let e = ups.get(g + 1).map_or(table[p].len(), |&e| e as usize);
                            &table[p][s as usize..e]
                        }
                        None => &[],
                    }
                };
                let mut spare = std::mem::take(&mut self.spare);
                spare.clear();
                for g in 0..=depth as usize {
                    let longest = (0..players).map(|p| span(p, g).len()).max().unwrap_or(0);
                    for i in 0..longest {
                        spare.extend((0..players).filter_map(|p| span(p, g).get(i)));
                    }
                }
                self.give(war, w, &spare);
                self.spare = spare;
            }
            Pickup::Shuffled => {
                let mut spare = std::mem::take(&mut self.spare);
                spare.clear();
                spare.extend(table.iter().flatten());
                shuffle(rng, &mut spare);
                self.give(war, w, &spare);
                self.spare = spare;
            }
            Pickup::Bryer | Pickup::Kbwar => {
                unreachable!("pickup bryer and kbwar are refused for N players")
            }
        }
        self.table = table;
    }

    /// The game's result once it has ended as `ending` (a capped game counts what it had
    /// counted at the cap).
    pub(super) fn result(&self, ending: Ending, max_rounds: u64) -> GameResult<WarGame> {
        let stats = match ending {
            Ending::Capped => self.at_cap,
            _ => self.stats,
        };
        ending.result(max_rounds, stats)
    }

    /// Every player's cards, top first (hand then won pile).
    #[cfg(test)]
    pub(super) fn hands(&self) -> Vec<Vec<Card>> {
        self.hands.iter().map(|h| h.iter().collect()).collect()
    }

    /// What the game has counted so far.
    #[cfg(test)]
    pub(super) fn stats(&self) -> WarGame {
        self.stats
    }

    /// The 1-indexed players in the order they went out, each with the round they went out in.
    pub(super) fn eliminated(&self) -> Vec<(u32, u64)> {
        self.out
            .iter()
            .zip(&self.out_rounds)
            .map(|(&p, &r)| (u32::from(p) + 1, r))
            .collect()
    }

    /// One line of `play war --trace` for the round just played: each player's cards, level by
    /// level (a face-up card, then the cards laid face down after it in brackets).
    fn trace_line(&self, war: &War, round: u64, ended: Option<Outcome>) -> String {
        let mut line = format!("{round:>6}  ");
        for p in 0..self.players() {
            if self.table[p].is_empty() {
                continue;
            }
            let _ = write!(line, "p{}:", p + 1);
            let ups = &self.ups[p];
            for (g, &s) in ups.iter().enumerate() {
                let e = ups.get(g + 1).map_or(self.table[p].len(), |&e| e as usize);
                let (up, down) = self.table[p][s as usize..e].split_first().unwrap();
                let _ = write!(line, " {}", war.card_text(*up));
                if !down.is_empty() {
                    let _ = write!(line, " ({})", war.trace_cards(down.iter().copied()));
                }
            }
            line.push_str("  ");
        }
        if self.depth > 0 {
            let _ = write!(line, "war×{}  ", self.depth);
        }
        if let Some(w) = self.taker {
            let taken: usize = self.table.iter().map(Vec::len).sum();
            let _ = write!(line, "-> p{} takes {taken}  ", w + 1);
        }
        match ended {
            Some(o) => {
                let _ = write!(line, "game over: {}", o.name());
            }
            None => {
                let held: Vec<String> = (0..self.players())
                    .map(|p| self.holding(p).to_string())
                    .collect();
                let _ = write!(line, "[{}]", held.join(" | "));
            }
        }
        line
    }
}

impl Deterministic for Seats {
    type Context = War;

    fn step(&mut self, war: &War) -> Option<Outcome> {
        self.round(war, &mut NoRandomness)
    }

    fn same_state(&self, other: &Self) -> bool {
        self.hands
            .iter()
            .zip(&other.hands)
            .all(|(a, b)| a.same_sequence(b))
    }

    fn copy_from(&mut self, other: &Self) {
        for (a, b) in self.hands.iter_mut().zip(&other.hands) {
            a.copy_from(b);
        }
        self.won.copy_from_slice(&other.won);
        self.alive = other.alive;
        self.out.clear();
        self.out.extend_from_slice(&other.out);
        self.out_rounds.clear();
        self.out_rounds.extend_from_slice(&other.out_rounds);
        self.rounds = other.rounds;
        // `at_cap` stays: it belongs to the running game, which Brent's search re-copies.
        self.stats = other.stats;
    }

    fn mark_cap(&mut self) {
        self.at_cap = self.stats;
    }
}

impl War {
    /// Plays the N-player game dealt into `d.hare` to its end, its first repeated state (with
    /// loop detection) or the cap; with `trace`, one line per round counted.
    pub(super) fn run_multi<R: RngCore + ?Sized>(
        &self,
        rng: &mut R,
        d: &mut LoopDetector<Seats>,
        trace: Option<Trace>,
    ) -> GameResult<WarGame> {
        let max = self.rules.max_rounds;
        let Some(sink) = trace else {
            if self.rules.detect_loops {
                let ending = d.run(self, max);
                return d.hare.result(ending, max);
            }
            let hare = &mut d.hare;
            for round in 1..=max {
                if let Some(outcome) = hare.round(self, rng) {
                    return hare.result(
                        Ending::Ended {
                            rounds: round,
                            outcome,
                        },
                        max,
                    );
                }
            }
            hare.mark_cap();
            return hare.result(Ending::Capped, max);
        };
        trace::traced(self, rng, d, sink).unwrap_or_else(|| self.run_multi(rng, d, None))
    }
}

impl Traced for Seats {
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
        let hands: Vec<String> = (0..self.players())
            .map(|p| format!("p{} [{}]", p + 1, war.trace_cards(self.hands[p].iter())))
            .collect();
        format!("deal     {}{}", hands.join("  "), war.names_note())
    }
}

/// What `play war` reports of an N-player game besides its result: the players still in the
/// game and the elimination order (player, round).
pub struct Played {
    /// The game's result.
    pub result: GameResult<WarGame>,
    /// The 1-indexed players still in the game (the winner alone when one won).
    pub left: Vec<u32>,
    /// Each player out, 1-indexed, with the round they went out in.
    pub eliminated: Vec<(u32, u64)>,
}

/// Plays one N-player game for `play war`: the given hands, or game `rng`'s deal; a trace
/// names the cards if `names` ([`War::with_card_names`]).
pub fn play<R: RngCore + ?Sized>(
    rules: WarRules,
    hands: Option<&[Vec<Card>]>,
    rng: &mut R,
    (trace, names): (Option<Trace>, bool),
) -> Result<Played, UsageError> {
    let war = War::new(rules)?;
    let war = match hands {
        Some(h) => {
            check_hands(h, &war.rules)?;
            War::with_deck(war.rules, h.concat())
        }
        None => war,
    }
    .with_card_names(names);
    let players = war.rules.players as usize;
    let mut d = LoopDetector::new(Seats::new(players, war.capacity));
    match hands {
        Some(h) => d.hare.set_hands(h),
        None => d.hare.deal(&war, rng),
    }
    let result = war.run_multi(rng, &mut d, trace);
    // Brent's search may have played past the cap: report the rounds the result counts.
    let eliminated: Vec<(u32, u64)> = (d.hare.eliminated().into_iter())
        .filter(|&(_, round)| round <= result.rounds)
        .collect();
    let left = match result.outcome {
        Outcome::Player(p) => vec![u32::from(p) + 1],
        _ => (1..=players as u32)
            .filter(|p| eliminated.iter().all(|(q, _)| q != p))
            .collect(),
    };
    Ok(Played {
        result,
        left,
        eliminated,
    })
}

/// Checks that `--deal` gave one hand per player, each of the deck's cards
/// ([`check_dealt`](super::deal::check_dealt)).
pub fn check_hands(hands: &[Vec<Card>], rules: &WarRules) -> Result<(), UsageError> {
    if hands.len() != rules.players as usize {
        return Err(crate::usage_of![
            crate::error::setting_alone("deal"),
            format!(" gives {} hands but ", hands.len()),
            crate::error::setting_alone("players"),
            format!(" is {}; give one hand per player", rules.players),
        ]);
    }
    super::deal::check_dealt(hands, rules)
}
