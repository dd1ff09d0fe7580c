//! The hot loop: plain battles (two different cards, no war) on local copies of the hands'
//! cursors, with a branch-free choice of the winner; a tie hands over to the general round.

use std::hint::select_unpredictable;

use rand::RngCore;

use super::detect::Probe;
use super::position::Position;
use super::rules::Pickup;
use super::War;
use crate::games::cards::Card;
use crate::games::Outcome;

/// Why the hot loop stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Stop {
    /// The game was decided.
    Ended(Outcome),
    /// The requested number of rounds was played.
    Limit,
    /// The position may equal the probed one (its cheap image matches).
    Probe,
}

/// Orders of a plain battle's two cards under the winner's hand (`plain_rounds`' `ORDER`).
const WINNER_FIRST: u8 = 0;
const LOSER_FIRST: u8 = 1;
const P1_FIRST: u8 = 2;
const RANDOM_ORDER: u8 = 3;

impl Position {
    /// Plays rounds until the game is decided, `*rounds` reaches `max`, or (with a
    /// `probe`) the position may equal the probed one, counting them in `*rounds`. Same games
    /// as [`Position::round`], faster.
    #[inline(always)]
    pub(super) fn play_rounds<R: RngCore + ?Sized>(
        &mut self,
        war: &War,
        rng: &mut R,
        rounds: &mut u64,
        max: u64,
        probe: Option<Probe>,
    ) -> Stop {
        if war.rules.honor.is_some() {
            // A narrow loss removes a card: the general round handles it, and the probe is
            // checked after every round.
            return self.general_rounds(war, rng, rounds, max, probe);
        }
        match war.rules.pickup {
            Pickup::WinnerFirst | Pickup::Bryer => {
                self.plain_rounds::<R, WINNER_FIRST>(war, rng, rounds, max, probe)
            }
            Pickup::LoserFirst => self.plain_rounds::<R, LOSER_FIRST>(war, rng, rounds, max, probe),
            Pickup::P1First | Pickup::Table => {
                self.plain_rounds::<R, P1_FIRST>(war, rng, rounds, max, probe)
            }
            Pickup::Shuffled => self.plain_rounds::<R, RANDOM_ORDER>(war, rng, rounds, max, probe),
            // Draws may refill a hand from its won pile: always the general path (and never
            // under loop detection, as the pile's shuffles are random).
            Pickup::WonPile => self.general_rounds(war, rng, rounds, max, probe),
        }
    }

    /// [`Position::play_rounds`] by the general round alone.
    fn general_rounds<R: RngCore + ?Sized>(
        &mut self,
        war: &War,
        rng: &mut R,
        rounds: &mut u64,
        max: u64,
        probe: Option<Probe>,
    ) -> Stop {
        while *rounds < max {
            *rounds += 1;
            if let Some(o) = self.round(war, rng) {
                return Stop::Ended(o);
            }
            if probe.is_some_and(|p| p == Probe::of(&self.hands)) {
                return Stop::Probe;
            }
        }
        Stop::Limit
    }

    /// [`Position::play_rounds`] for a pickup that puts a plain battle's two cards under the
    /// winner's hand in the order `ORDER` (a constant, so each order gets its own loop).
    ///
    /// The common round, two different cards and no war, runs on local copies of the hands'
    /// cursors; a tie hands them back and goes through [`Position::battle`].
    #[inline(always)]
    pub(super) fn plain_rounds<R: RngCore + ?Sized, const ORDER: u8>(
        &mut self,
        war: &War,
        rng: &mut R,
        rounds: &mut u64,
        max: u64,
        probe: Option<Probe>,
    ) -> Stop {
        let mut done = *rounds;
        let ended = loop {
            let [p0, p1] = &mut self.hands;
            let (b0, mut c0) = p0.split();
            let (b1, mut c1) = p1.split();
            let mut coins = self.coins.clone();
            let mut tie = None;
            let mut ended = None;
            let mut hit = false;
            while done < max {
                done += 1;
                let a = c0.pop(b0);
                let b = c1.pop(b1);
                if a == b {
                    tie = Some(a);
                    break;
                }
                // Who wins a battle is a coin toss to the branch predictor: select, don't branch.
                let w1 = b > a;
                let (cw, cl) = select_unpredictable(w1, (b, a), (a, b));
                let (first, second) = match ORDER {
                    WINNER_FIRST => (cw, cl),
                    LOSER_FIRST => (cl, cw),
                    P1_FIRST => (a, b),
                    _ => select_unpredictable(coins.flip(rng), (cw, cl), (cl, cw)),
                };
                let mut cursor = select_unpredictable(w1, c1, c0);
                let buf: &mut [Card] = select_unpredictable(w1, &mut *b1, &mut *b0);
                cursor.push(buf, first);
                cursor.push(buf, second);
                c0 = select_unpredictable(w1, c0, cursor);
                c1 = select_unpredictable(w1, cursor, c1);
                if select_unpredictable(w1, c0, c1).is_empty() {
                    ended = Some(Outcome::Player(u8::from(w1)));
                    break;
                }
                if let Some(p) = probe {
                    if p.hits(c0, b0, c1, b1) {
                        hit = true;
                        break;
                    }
                }
            }
            p0.set_cursor(c0);
            p1.set_cursor(c1);
            self.coins = coins;
            match (ended, tie) {
                (Some(o), _) => break Stop::Ended(o),
                (None, Some(card)) => {
                    if let Some(o) = self.battle(war, rng, card, card) {
                        break Stop::Ended(o);
                    }
                    if probe.is_some_and(|p| p == Probe::of(&self.hands)) {
                        break Stop::Probe;
                    }
                }
                (None, None) if hit => break Stop::Probe,
                (None, None) => break Stop::Limit,
            }
        };
        *rounds = done;
        ended
    }
}
