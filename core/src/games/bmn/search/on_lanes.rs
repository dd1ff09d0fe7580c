//! The searches' games in the SIMD lanes (issue 62, item 3): the climb's walkers and the
//! census's tries played 8 or 16 at a time, as `simulate bmn` plays its deals, with every
//! result the one-deal engines give, so a search finds the same on every path.
//!
//! **The climb.** A walker's next deal depends on its last game alone, so a group of walkers
//! fills the lanes with one game each; when a lane's game ends, its walker takes the result
//! and its next deal joins a queue that refills the next free lane. Each walker plays exactly
//! the deals [`Walker::walk`] plays it, in its order; only the order of walkers interleaves,
//! and no walker reads another. A game the lanes hand back (one past their trick cap: a loop,
//! or very rarely a long game) is played again on the phase engine, which reports the loop's
//! length and the card cap as the climb records them.
//!
//! **The census.** Tries of a round draw their positions from the pool as it stood when the
//! round began, never from another try's result, so a walker's tries are drawn first, then
//! played together: a try that ends in the lanes ended (its length is not used), and every
//! other try is judged by [`fate`] in try order, as before, so the cycles found, and the order
//! they are found in, are the same.

use std::collections::VecDeque;

use super::climb::{Walker, REPORT_EVERY};
use super::Report as Progress;
use crate::games::bmn::lanes::{Games, Lanes, Report, Start};
use crate::games::bmn::{Played, Position};
use crate::games::Outcome;

/// Tricks after which a census try leaves the lanes for [`fate`]'s loop detection, which
/// plays it again from its start: a looping try (about one in fourteen on the standard deck)
/// costs the lanes this many tricks before that, and a try that ends later costs the replay
/// its whole game. Of caps from 50 to 600 tricks, 150 to 200 gave the census the most tries
/// a second on a Zen 4 (under load: about a twelfth more than 400; 50 and 600 were slower
/// than either), so the cap sits at the top of that range.
///
/// [`fate`]: crate::games::bmn::backward::fate
pub(super) const CENSUS_TRICKS: u32 = 200;

/// A group of walkers playing in the lanes: the swap each made for the deal it is playing
/// (none: a new start), the deals each has left in this batch, and the walkers whose next deal
/// waits for a lane.
struct Climbers<'w, 'a> {
    lanes: Lanes,
    walkers: &'w mut [Walker<'a>],
    swaps: Vec<Option<(usize, usize)>>,
    left: Vec<u64>,
    ready: VecDeque<usize>,
    unreported: u64,
    progress: Progress<'w>,
}

impl Climbers<'_, '_> {
    /// Walker `w` makes its next deal and waits for a lane.
    fn ready_next(&mut self, w: usize) {
        self.swaps[w] = self.walkers[w].next_deal();
        self.ready.push_back(w);
    }

    /// Walker `w`'s game was `p`: it climbs on, and deals again if it has deals left.
    fn took(&mut self, w: usize, p: &Played) {
        self.walkers[w].take(p, self.swaps[w]);
        self.left[w] -= 1;
        self.unreported += 1;
        if self.unreported == REPORT_EVERY {
            (self.progress)(REPORT_EVERY);
            self.unreported = 0;
        }
        if self.left[w] > 0 {
            self.ready_next(w);
        }
    }
}

impl Games for Climbers<'_, '_> {
    fn next(&mut self) -> Option<(u64, Start)> {
        let w = self.ready.pop_front()?;
        Some((w as u64, self.lanes.deal(self.walkers[w].deck())))
    }

    fn report(&mut self, r: Report) {
        match r {
            Report::Ended(w, e) => {
                let p = Played {
                    cards: u64::from(e.cards),
                    tricks: u64::from(e.tricks),
                    outcome: Outcome::Player(e.winner),
                    cycle: None,
                };
                self.took(w as usize, &p);
            }
            Report::Long(w) => {
                let p = self.walkers[w as usize].replay();
                self.took(w as usize, &p);
            }
        }
    }
}

/// Plays `steps` more deals on each of `walkers` in `lanes` (see the module above).
pub(super) fn climb(lanes: Lanes, walkers: &mut [Walker], steps: u64, progress: Progress) {
    let n = walkers.len();
    let lanes = lanes.for_games(n);
    let mut group = Climbers {
        lanes,
        walkers,
        swaps: vec![None; n],
        left: vec![steps; n],
        ready: VecDeque::with_capacity(n),
        unreported: 0,
        progress,
    };
    if steps > 0 {
        (0..n).for_each(|w| group.ready_next(w));
    }
    lanes.play(&mut group);
    progress(group.unreported);
}

/// Census tries in the lanes: which of `positions` ended there.
struct Tries<'p> {
    lanes: Lanes,
    positions: &'p [Position],
    at: usize,
    ended: Vec<bool>,
}

impl Games for Tries<'_> {
    fn next(&mut self) -> Option<(u64, Start)> {
        while let Some(p) = self.positions.get(self.at) {
            self.at += 1;
            // A position the lanes do not start (an empty hand: a move may empty one) is
            // left to `fate`.
            if let Some(start) = self.lanes.position(p) {
                return Some((self.at as u64 - 1, start));
            }
        }
        None
    }

    fn report(&mut self, r: Report) {
        if let Report::Ended(i, _) = r {
            self.ended[i as usize] = true;
        }
    }
}

/// Which of `positions` end within [`CENSUS_TRICKS`] tricks,
/// played in `lanes`; the others may end later, loop or stay undecided.
pub(super) fn ended(lanes: Lanes, positions: &[Position]) -> Vec<bool> {
    let lanes = lanes.leaving_at(CENSUS_TRICKS);
    let mut tries = Tries {
        lanes,
        positions,
        at: 0,
        ended: vec![false; positions.len()],
    };
    lanes.play(&mut tries);
    tries.ended
}

#[cfg(test)]
#[path = "on_lanes_tests.rs"]
mod tests;
