//! Searches over Beggar-my-neighbour's deals and positions, as a library: the record climb
//! ([`climb`]), the loop search ([`loops`]), the census of cycles ([`census`]), the balanced
//! deals of a cycle's basin ([`reaching`]), and sampling then joining
//! ([`crate::games::bmn::record`]). What a search is asked is checked into a [`plan::Plan`],
//! which runs its mode and returns the document it reports ([`report`]; a walk backward is
//! [`reaching::Walk`]).
//!
//! Each is pure: it takes plain settings, a [`Cancel`] to stop it and a progress callback, and
//! returns result structs. Files, the terminal and the command line's words are the command
//! crate's (`warsim search bmn`), so Python and other callers can run the same searches.
//!
//! Every search is played by walkers that draw only from their own generators, in batches
//! ([`play_in_batches`]): a walker plays on from where it stopped, so the batches (sized from
//! the clock by the caller) never change what it finds, and the result depends on the seed,
//! the steps and the walkers, never on the threads.

use std::time::Instant;

use rayon::prelude::*;

use crate::cancel::Cancel;

pub mod census;
pub mod climb;
pub mod construct;
pub mod header;
pub mod insert;
pub mod loops;
#[cfg(target_arch = "x86_64")]
mod on_lanes;
pub mod plan;
pub mod reaching;
pub mod report;
#[cfg(test)]
mod tests;

/// Progress as a search reports it: the number of steps (deals, tries) just played, from any
/// thread, so a shared counter or bar can add them up.
pub type Report<'a> = &'a (dyn Fn(u64) + Sync);

/// How a search's play ended: the steps each walker played, and whether its [`Cancel`]
/// stopped it before the steps or the time asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Played {
    /// Steps each walker played (the same for every walker).
    pub per_walker: u64,
    /// Whether the cancel stopped it.
    pub stopped: bool,
}

/// Seconds one batch is sized to take: how late a search for a time may stop, and how long a
/// cancelled one takes to stop.
pub const BATCH_SECONDS: f64 = 0.25;

/// How much larger than the last one a batch may be: a rate measured over a few steps is
/// rough, so the batches grow from one step per walker by at most this factor.
const BATCH_GROWTH: u64 = 4;

/// Plays `steps` steps on every walker (in the current rayon pool) in batches until they are
/// played, `seconds` since `start` have passed, or `stop` is set. Every walker plays the same
/// number in each batch, so the steps played are the same on every walker and the result is
/// the one a search of that many steps gives. The first batch (one step a walker) is played
/// however short the time and whatever the cancel: a search of nothing has nothing to replay.
pub fn play_in_batches<W: Send>(
    steps: u64,
    seconds: Option<f64>,
    start: Instant,
    stop: &Cancel,
    walkers: &mut [W],
    walk: impl Fn(&mut W, u64) + Sync,
) -> Played {
    let (mut played, mut batch) = (0u64, 1u64);
    let stopped = loop {
        let elapsed = start.elapsed().as_secs_f64();
        if played >= steps || (played > 0 && seconds.is_some_and(|d| elapsed >= d)) {
            break false;
        }
        if played > 0 && stop.is_set() {
            break true;
        }
        let n = batch.min(steps - played);
        let began = Instant::now();
        walkers.par_iter_mut().for_each(|w| walk(w, n));
        played += n;
        // The next batch: about BATCH_SECONDS at the rate just measured, no longer than the
        // time left.
        let rate = n as f64 / began.elapsed().as_secs_f64().max(1e-9);
        let left = seconds.map_or(BATCH_SECONDS, |d| {
            (d - start.elapsed().as_secs_f64()).min(BATCH_SECONDS)
        });
        batch = ((rate * left) as u64).clamp(1, n.saturating_mul(BATCH_GROWTH));
    };
    Played {
        per_walker: played,
        stopped,
    }
}

/// FNV-1a, 64 bits: a stable hash (an id must not change between builds or machines).
pub fn fnv(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}
