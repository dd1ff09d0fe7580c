//! `search bmn`: a seeded, parallel local search over deals for the longest finite games and
//! for games that never end.
//!
//! Each of `--walkers` walkers starts from a random deal drawn from (seed, walker) and climbs:
//! it swaps two cards of different demands, plays the new deal, and keeps the swap when the
//! game is at least as long (equal lengths let it cross plateaus); after `RESTART` swaps with no
//! longer game it starts again from a new random deal. A deal that never ends is recorded and
//! the swap undone; a deal whose game reaches the round cap is counted and undone too (it did not
//! end, so it has no length). Walkers draw only from their own generator and play a fixed number of deals
//! each, so the result depends on the seed, the deals and the walkers, never on the threads.

use std::path::PathBuf;
use std::time::Instant;

use anyhow::Result;
use rayon::prelude::*;
use serde::Serialize;

use crate::estimate::{Estimate, MaxHours};
use crate::games::bmn::{Bmn, Played};
use crate::games::cards::bounded;
use crate::games::{Game, Outcome};
use crate::output::atomic::{Kind, OutputSet};
use crate::output::progress::{Progress, When};
use crate::output::stdout::{self, Print};
use crate::output::summary::Provenance;
use crate::sim::pilot::Measured;
use crate::sim::rng::game_rng;
use crate::stats::summary::grouped;
use crate::usage;

/// Swaps without a longer game before a walker starts again from a new deal.
pub const RESTART: u64 = 50_000;
/// Loops kept in search.json (every one found is counted).
const MAX_LOOPS: usize = 1000;

/// What `search` is asked to do.
#[derive(Clone, Debug)]
pub struct SearchConfig {
    /// Deals played in all (split evenly among the walkers).
    pub deals: u64,
    /// Independent walkers.
    pub walkers: u32,
    /// Base seed: walker w draws from (seed, w).
    pub seed: u64,
    /// Worker threads (`None`: every core).
    pub threads: Option<u32>,
    /// The longest deals kept.
    pub keep: usize,
    /// Where search.json and best.txt go.
    pub out: PathBuf,
    /// What is printed when done.
    pub print: Print,
    /// How progress is shown.
    pub progress: When,
    /// The bound on the estimated time (`--max-hours`).
    pub max_hours: MaxHours,
}

/// A deal found, as search.json lists it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Found {
    /// `HAND1/HAND2`, top card first, for `play bmn --deal`.
    pub deal: String,
    /// Cards laid (a loop: up to the position's return).
    pub cards: u64,
    /// Tricks.
    pub tricks: u64,
    /// A loop's length in cards and in tricks.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cycle: Option<(u64, u64)>,
    /// The walker that found it, and after how many of its deals.
    pub walker: u32,
    /// The walker's deals played when it found it.
    pub at: u64,
}

/// What one walker found.
#[derive(Debug, Default)]
struct Walk {
    best: Vec<Found>,
    loops: Vec<Found>,
    loops_found: u64,
    capped: u64,
}

/// search.json.
#[derive(Debug, Serialize)]
struct SearchJson<'a> {
    game: &'static str,
    description: String,
    rules: &'a crate::games::bmn::BmnRules,
    seed: u64,
    deals: u64,
    walkers: u32,
    restart_after: u64,
    best: Vec<Found>,
    loops_found: u64,
    loops: Vec<Found>,
    /// Deals whose game reached the round cap: neither ended nor seen to loop, so never listed.
    capped: u64,
    elapsed_s: f64,
    deals_per_s: f64,
    threads: usize,
    provenance: Provenance,
}

/// One walker's climb of `steps` deals.
fn walk(game: &Bmn, seed: u64, w: u32, steps: u64, keep: usize, progress: &Progress) -> Walk {
    let mut rng = game_rng(seed, u64::from(w));
    let mut s = game.scratch();
    let mut deck = game.deck().to_vec();
    let n = deck.len() as u32;
    let mut out = Walk::default();
    let found = |deck: &[u8], p: &Played, at: u64| Found {
        deal: game.show_deal(deck),
        cards: p.cards,
        tricks: p.tricks,
        cycle: p.cycle.map(|(c, t)| (c.cycle_len, t.cycle_len)),
        walker: w,
        at,
    };
    let mut current = 0u64;
    let mut stale = RESTART;
    let mut done = 0u64;
    while done < steps {
        let swap = if stale >= RESTART {
            crate::games::cards::shuffle(&mut rng, &mut deck);
            stale = 0;
            current = 0;
            None
        } else {
            let (i, j) = loop {
                let (i, j) = (bounded(&mut rng, n) as usize, bounded(&mut rng, n) as usize);
                if deck[i] != deck[j] {
                    break (i, j);
                }
            };
            deck.swap(i, j);
            Some((i, j))
        };
        let p = game.play_deck(&deck, &mut s);
        done += 1;
        if done.is_multiple_of(4096) {
            progress.inc(4096);
        }
        // A capped game has no length to compare (it did not end), and is no loop found.
        if matches!(p.outcome, Outcome::Loop | Outcome::Capped) {
            if p.outcome == Outcome::Capped {
                out.capped += 1;
            } else {
                out.loops_found += 1;
                if out.loops.len() < MAX_LOOPS {
                    out.loops.push(found(&deck, &p, done));
                }
            }
            if let Some((i, j)) = swap {
                deck.swap(i, j);
            } else {
                stale = RESTART;
            }
            continue;
        }
        let longer = swap.is_none() || p.cards > current;
        if longer {
            if swap.is_some() {
                stale = 0;
            }
            current = p.cards;
            let kept =
                out.best.len() >= keep && out.best.last().is_some_and(|b| p.cards <= b.cards);
            let f = found(&deck, &p, done);
            if !kept && !out.best.iter().any(|b| b.deal == f.deal) {
                out.best.push(f);
                sort(&mut out.best);
                out.best.truncate(keep);
            }
        } else {
            if p.cards < current {
                if let Some((i, j)) = swap {
                    deck.swap(i, j);
                }
            }
            stale += 1;
        }
    }
    progress.inc(done % 4096);
    out
}

/// What the search will take: deals played on one thread for a pilot's time (shuffled deals
/// from a generator of the pilot's own, so the search's deals are untouched), times the deals
/// to play over the walkers the threads keep busy.
fn estimate(game: &Bmn, cfg: &SearchConfig, deals: u64, threads: usize) -> Estimate {
    let mut rng = game_rng(cfg.seed ^ PILOT_SALT, u64::MAX);
    let mut s = game.scratch();
    let mut deck = game.deck().to_vec();
    let (mut played, mut rounds) = (0u64, 0u64);
    let start = Instant::now();
    while played < deals && start.elapsed() < crate::sim::pilot::BUDGET {
        crate::games::cards::shuffle(&mut rng, &mut deck);
        rounds = rounds.saturating_add(game.play_deck(&deck, &mut s).tricks);
        played += 1;
    }
    let pilot = Measured {
        games: played,
        rounds,
        seconds: start.elapsed().as_secs_f64(),
        open: None,
    };
    let busy = threads.min(cfg.walkers as usize).max(1);
    // The pilot's deals are not the search's: all of them are still to play.
    let e = Estimate::run(pilot, None, deals.saturating_add(played), busy);
    Estimate {
        seconds: e.seconds - pilot.seconds,
        ..e
    }
}

/// Mixed into the seed of the search's pilot, so its deals are none of the walkers'.
const PILOT_SALT: u64 = 0x5EA2_C4E5_7171_0700;

/// Longest first; equal lengths by deal, so the order is the same however found.
fn sort(found: &mut [Found]) {
    found.sort_by(|a, b| b.cards.cmp(&a.cards).then_with(|| a.deal.cmp(&b.deal)));
}

/// `search bmn`: runs the walkers, writes search.json and best.txt into `cfg.out`.
pub fn run(game: &Bmn, cfg: &SearchConfig) -> Result<()> {
    if cfg.walkers == 0 || cfg.deals < u64::from(cfg.walkers) || cfg.keep == 0 {
        return Err(usage!(
            "search: --deals {} --walkers {} --keep {}: need at least one walker, one deal per \
             walker and one deal kept",
            cfg.deals,
            cfg.walkers,
            cfg.keep
        )
        .into());
    }
    let set = OutputSet::begin(&cfg.out, Kind::Search, &[])?;
    let steps = cfg.deals / u64::from(cfg.walkers);
    let deals = steps * u64::from(cfg.walkers);
    let threads = crate::run::threads_or_cores(cfg.threads);
    let e = estimate(game, cfg, deals, threads);
    crate::run::check_bound(
        &format!("search bmn: {} deals", grouped(deals)),
        &e,
        cfg.max_hours,
    )?;
    if e.seconds > crate::estimate::LONG {
        crate::output::progress::note(cfg.progress, &format!("estimate: {e}"));
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()?;
    let progress = Progress::new(deals, cfg.progress);
    let start = Instant::now();
    let walks: Vec<Walk> = pool.install(|| {
        (0..cfg.walkers)
            .into_par_iter()
            .map(|w| walk(game, cfg.seed, w, steps, cfg.keep, &progress))
            .collect()
    });
    progress.finish();
    let elapsed_s = start.elapsed().as_secs_f64();
    let mut best: Vec<Found> = walks.iter().flat_map(|w| w.best.clone()).collect();
    sort(&mut best);
    best.dedup_by(|a, b| a.deal == b.deal);
    best.truncate(cfg.keep);
    let mut loops: Vec<Found> = walks.iter().flat_map(|w| w.loops.clone()).collect();
    sort(&mut loops);
    loops.dedup_by(|a, b| a.deal == b.deal);
    loops.truncate(MAX_LOOPS);
    let doc = SearchJson {
        game: Bmn::NAME,
        description: game.describe(),
        rules: game.rules(),
        seed: cfg.seed,
        deals,
        walkers: cfg.walkers,
        restart_after: RESTART,
        best,
        loops_found: walks.iter().map(|w| w.loops_found).sum(),
        loops,
        capped: walks.iter().map(|w| w.capped).sum(),
        elapsed_s,
        deals_per_s: deals as f64 / elapsed_s.max(1e-9),
        threads,
        provenance: Provenance::now(),
    };
    let dir = set.dir();
    dir.write_json("search.json", &doc)?;
    let play = |f: &Found| {
        let what = match f.cycle {
            Some((cards, tricks)) => format!("never ends: a {tricks}-trick ({cards}-card) cycle"),
            None => format!("{} cards, {} tricks", f.cards, f.tricks),
        };
        format!("warsim play bmn --deal '{}'   # {what}\n", f.deal)
    };
    let options = crate::games::bmn::rule_args(game.rules());
    let mut best_txt = format!(
        "# The longest deals found, then the deals that never end; each line replays one{}.\n",
        if options.is_empty() {
            String::new()
        } else {
            format!(" (with {options})")
        }
    );
    doc.best
        .iter()
        .chain(&doc.loops)
        .for_each(|f| best_txt.push_str(&play(f)));
    dir.write("best.txt", best_txt.as_bytes())?;
    set.commit()?;
    match cfg.print {
        Print::Json => stdout::print_json(&doc)?,
        Print::Nothing => {}
        Print::Text | Print::Markdown => {
            let mut text = format!(
                "search bmn — {}\n{} deals by {} walkers, seed {}, {:.1} s ({} deals/s)\n",
                doc.description,
                grouped(deals),
                cfg.walkers,
                cfg.seed,
                elapsed_s,
                grouped(doc.deals_per_s as u64)
            );
            for f in doc.best.iter().take(5) {
                text.push_str(&format!(
                    "longest   {} cards, {} tricks: {}\n",
                    grouped(f.cards),
                    f.tricks,
                    f.deal
                ));
            }
            if doc.capped > 0 {
                text.push_str(&format!(
                    "capped    {} deals reached the cap of {} cards (not listed)\n",
                    grouped(doc.capped),
                    grouped(game.max_rounds())
                ));
            }
            text.push_str(&format!(
                "loops     {} found ({} distinct deals kept)\nwritten   {}/ (search.json, best.txt)\n",
                doc.loops_found,
                doc.loops.len(),
                cfg.out.display()
            ));
            stdout::write_all(text.as_bytes())?;
        }
    }
    Ok(())
}
