//! The core as a library: 100,000 games of deck War (the classic rules) played in memory on two
//! threads, and their mean rounds with its 95% interval, from the exact histogram.
//!
//!     cargo run --release -p warsim-core --example war_mean

use warsim_core::cancel::Cancel;
use warsim_core::games::war::{War, WarSettings};
use warsim_core::games::Game;
use warsim_core::sim::engine;
use warsim_core::stats::summary::Distribution;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let war = War::from_settings(&WarSettings::default())?;
    let games = 100_000;
    let tally = engine::simulate(&war, 0, 0..games, 2, &|_| {}, &Cancel::default())?;
    let counts: Vec<(u64, u64)> = tally.rounds.counts_where(|_| true).collect();
    let rounds = Distribution::from_counts(&counts).ok_or("no game was played")?;
    let [lo, hi] = rounds.ci95.ok_or("one game has no interval")?;
    println!(
        "{}: {} games, mean {:.3} rounds (95% interval {lo:.3} to {hi:.3})",
        war.describe(),
        rounds.n,
        rounds.mean
    );
    Ok(())
}
