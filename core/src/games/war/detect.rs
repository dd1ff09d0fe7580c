//! Loop detection for War's deterministic pickups: [`Position`] as a
//! [`Deterministic`] game whose hot loop compares a cheap image of the target position.

use rand::RngCore;

use super::position::Position;
use super::step::{Probe, Stop};
use super::War;
use crate::games::cycle::{Advance, Deterministic};
use crate::games::Outcome;

/// Stands in for a generator where the rules draw no randomness (deterministic pickups).
pub struct NoRandomness;

impl RngCore for NoRandomness {
    fn next_u32(&mut self) -> u32 {
        unreachable!("a deterministic War rule set drew a random number")
    }
    fn next_u64(&mut self) -> u64 {
        unreachable!("a deterministic War rule set drew a random number")
    }
    fn fill_bytes(&mut self, _: &mut [u8]) {
        unreachable!("a deterministic War rule set drew a random number")
    }
}

impl Deterministic for Position {
    type Context = War;

    #[inline]
    fn step(&mut self, war: &War) -> Option<Outcome> {
        match self.play_rounds(war, &mut NoRandomness, &mut 0, 1, None) {
            Stop::Ended(o) => Some(o),
            Stop::Limit | Stop::Probe => None,
        }
    }

    #[inline]
    fn run(&mut self, war: &War, n: u64) -> Option<Outcome> {
        match self.play_rounds(war, &mut NoRandomness, &mut 0, n, None) {
            Stop::Ended(o) => Some(o),
            Stop::Limit | Stop::Probe => None,
        }
    }

    /// Runs the hot loop with the target's image as a probe, so that the full comparison
    /// happens only when the cheap image matches.
    fn advance(&mut self, war: &War, n: u64, target: &Self) -> Advance {
        let probe = Probe::of(&target.hands);
        let mut played = 0;
        loop {
            match self.play_rounds(war, &mut NoRandomness, &mut played, n, Some(probe)) {
                Stop::Ended(o) => {
                    return Advance {
                        played,
                        ended: Some(o),
                        matched: false,
                    }
                }
                Stop::Limit => {
                    return Advance {
                        played,
                        ended: None,
                        matched: false,
                    }
                }
                Stop::Probe if self.same_state(target) => {
                    return Advance {
                        played,
                        ended: None,
                        matched: true,
                    }
                }
                Stop::Probe if played == n => {
                    return Advance {
                        played,
                        ended: None,
                        matched: false,
                    }
                }
                Stop::Probe => {}
            }
        }
    }

    #[inline]
    fn same_state(&self, other: &Self) -> bool {
        // With a won pile, where it begins is part of the state (it is turned over or kept
        // apart when the hand runs out); every other rule set has none, `won` = [0, 0].
        self.won == other.won
            && self.hands[0].same_sequence(&other.hands[0])
            && self.hands[1].same_sequence(&other.hands[1])
    }

    fn copy_from(&mut self, other: &Self) {
        for p in 0..2 {
            self.hands[p].copy_from(&other.hands[p]);
        }
        self.won = other.won;
        // `at_cap` stays: it belongs to the running game, which Brent's search re-copies.
        self.stats = other.stats;
        self.coins = other.coins.clone();
    }

    fn mark_cap(&mut self) {
        self.at_cap = self.stats;
    }
}
