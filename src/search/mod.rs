//! `search bmn`: a seeded, parallel local search over deals for the longest finite games and
//! for games that never end.
//!
//! Each of `--walkers` walkers starts from a random deal drawn from (seed, walker) and climbs:
//! it swaps two cards of different demands, plays the new deal, and keeps the swap when the
//! game is at least as long (equal lengths let it cross plateaus); after `RESTART` swaps with no
//! longer game it starts again from a new random deal. A deal that never ends is recorded and
//! the swap undone; a deal whose game reaches the round cap is counted and undone too (it did
//! not end, so it has no length). When the walkers are done, backward play extends the longest
//! deals kept: a balanced position whose game reaches one of them after some tricks is a deal
//! whose game is longer by those tricks ([`longer_ancestors`]). `--from DEAL` starts every
//! climb from one deal instead of random ones; `--loops` searches for cycles instead
//! ([`loops`]). Walkers draw only from their own generator and play a fixed
//! number of deals each, so the result depends on the seed, the deals and the walkers, never on
//! the threads. A search for a time (`--minutes`) plays whole batches of deals on every walker
//! until the time is up: how many depends on the machine, and search.json says how many, so
//! `--deals` of that number plays the same search again.

use std::path::PathBuf;
use std::time::Instant;

use anyhow::Result;
use rayon::prelude::*;
use serde::Serialize;

use crate::estimate::{Estimate, MaxHours};
use crate::games::bmn::backward::{ancestors, Node};
use crate::games::bmn::{Bmn, Played};
use crate::games::cards::bounded;
use crate::games::{Game, Outcome};
use crate::output::atomic::{Kind, OutputSet};
use crate::output::progress::{Progress, When};
use crate::output::stdout::{self, Print};
use crate::output::summary::Provenance;
use crate::rng::{game_rng, GameRng};
use crate::sim::pilot::Measured;
use crate::stats::summary::grouped;
use crate::usage;

mod loops;

/// Swaps without a longer game before a walker starts again from a new deal.
pub const RESTART: u64 = 50_000;
/// Loops kept in search.json (every one found is counted).
const MAX_LOOPS: usize = 1000;

/// What `search` is asked to do.
#[derive(Clone, Debug)]
pub struct SearchConfig {
    /// Deals played in all (split evenly among the walkers); `None`: [`DEFAULT_DEALS`], or
    /// with `minutes` as many as the time allows.
    pub deals: Option<u64>,
    /// Play for this many minutes, in whole batches of [`BATCH`] deals per walker.
    pub minutes: Option<f64>,
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
    /// Search for cycles instead of long games (`--loops`).
    pub loops: bool,
    /// The deal to search around (`--from`): every walker's climb starts from it, or (with
    /// `--loops`) the cycle it enters is the seed.
    pub from: Option<String>,
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
    /// For a deal found by backward play: the deal found by the walker whose game it reaches
    /// (its game is that game with tricks before it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ancestor_of: Option<String>,
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
    /// The deal every climb started from (`--from`).
    #[serde(skip_serializing_if = "Option::is_none")]
    from: Option<&'a str>,
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

/// One walker: its generator, its deal, the climb's state and what it found. [`Walker::walk`]
/// plays on from where it stopped, so a search played in batches (`--minutes`) plays the same
/// deals as one played at once.
struct Walker<'a> {
    game: &'a Bmn,
    w: u32,
    keep: usize,
    rng: GameRng,
    s: <Bmn as Game>::Scratch,
    deck: Vec<u8>,
    /// The deal every climb starts from (`--from`), or none: a random deal.
    from: Option<Vec<u8>>,
    current: u64,
    stale: u64,
    done: u64,
    out: Walk,
}

impl<'a> Walker<'a> {
    fn new(game: &'a Bmn, seed: u64, w: u32, keep: usize, from: Option<Vec<u8>>) -> Walker<'a> {
        Walker {
            game,
            w,
            keep,
            rng: game_rng(seed, u64::from(w)),
            s: game.scratch(),
            deck: game.deck().to_vec(),
            from,
            current: 0,
            stale: RESTART,
            done: 0,
            out: Walk::default(),
        }
    }

    /// Plays `steps` more deals of the climb.
    fn walk(&mut self, steps: u64, progress: &Progress) {
        let (game, w, keep) = (self.game, self.w, self.keep);
        let n = self.deck.len() as u32;
        let found = |deck: &[u8], p: &Played, at: u64| Found {
            deal: game.show_deal(deck),
            cards: p.cards,
            tricks: p.tricks,
            cycle: p.cycle.map(|(c, t)| (c.cycle_len, t.cycle_len)),
            walker: w,
            at,
            ancestor_of: None,
        };
        let (deck, out, rng) = (&mut self.deck, &mut self.out, &mut self.rng);
        let end = self.done + steps;
        let mut reported = 0;
        while self.done < end {
            let swap = if self.stale >= RESTART {
                match &self.from {
                    Some(from) => deck.copy_from_slice(from),
                    None => crate::games::cards::shuffle(rng, deck),
                }
                self.stale = 0;
                self.current = 0;
                None
            } else {
                let (i, j) = loop {
                    let (i, j) = (bounded(rng, n) as usize, bounded(rng, n) as usize);
                    if deck[i] != deck[j] {
                        break (i, j);
                    }
                };
                deck.swap(i, j);
                Some((i, j))
            };
            let p = game.play_deck(deck, &mut self.s);
            self.done += 1;
            if self.done.is_multiple_of(4096) {
                progress.inc(4096);
                reported += 4096;
            }
            // A capped game has no length to compare (it did not end), and is no loop found.
            if matches!(p.outcome, Outcome::Loop | Outcome::Capped) {
                if p.outcome == Outcome::Capped {
                    out.capped += 1;
                } else {
                    out.loops_found += 1;
                    if out.loops.len() < MAX_LOOPS {
                        out.loops.push(found(deck, &p, self.done));
                    }
                }
                if let Some((i, j)) = swap {
                    deck.swap(i, j);
                } else {
                    self.stale = RESTART;
                }
                continue;
            }
            let longer = swap.is_none() || p.cards > self.current;
            if longer {
                if swap.is_some() {
                    self.stale = 0;
                }
                self.current = p.cards;
                let kept =
                    out.best.len() >= keep && out.best.last().is_some_and(|b| p.cards <= b.cards);
                let f = found(deck, &p, self.done);
                if !kept && !out.best.iter().any(|b| b.deal == f.deal) {
                    out.best.push(f);
                    sort(&mut out.best);
                    out.best.truncate(keep);
                }
            } else {
                if p.cards < self.current {
                    if let Some((i, j)) = swap {
                        deck.swap(i, j);
                    }
                }
                self.stale += 1;
            }
        }
        progress.inc(steps - reported);
    }
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

/// Deals a search without `--deals` or `--minutes` plays.
pub const DEFAULT_DEALS: u64 = 10_000_000;

/// Deals each walker plays between two looks at the clock of a search with `--minutes`: about
/// a second of two cores' work with 16 walkers.
const BATCH: u64 = 1 << 16;

/// What a search is asked to play, for messages: `10,000,000 deals`, `10 minutes`.
fn planned(cfg: &SearchConfig, asked: u64) -> String {
    match (cfg.deals, cfg.minutes) {
        (Some(_), Some(m)) => format!("{} deals or {m} minutes", grouped(asked)),
        (None, Some(m)) => format!("{m} minutes"),
        _ => format!("{} deals", grouped(asked)),
    }
}

/// Longest first; equal lengths by deal, so the order is the same however found.
fn sort(found: &mut [Found]) {
    found.sort_by(|a, b| b.cards.cmp(&a.cards).then_with(|| a.deal.cmp(&b.deal)));
}

/// A search ready to play: its output set begun, its walkers' share of the deals, the
/// threads and the progress shown.
pub(crate) struct Prepared {
    set: OutputSet,
    steps: u64,
    threads: usize,
    pool: rayon::ThreadPool,
    progress: Progress,
    start: Instant,
}

/// Refuses a `--minutes` that is no time: every search (`--reaching` too) is bounded by it.
pub(crate) fn check_minutes(minutes: Option<f64>) -> Result<()> {
    match minutes.filter(|m| !(m.is_finite() && *m > 0.0)) {
        Some(m) => {
            Err(usage!("search: --minutes {m}: expected minutes above 0, such as 10").into())
        }
        None => Ok(()),
    }
}

/// Checks `cfg`, begins the output set, estimates the search and holds it to `--max-hours`.
fn prepare(game: &Bmn, cfg: &SearchConfig) -> Result<Prepared> {
    let asked = match (cfg.deals, cfg.minutes) {
        (Some(d), _) => d,
        (None, Some(_)) => u64::MAX,
        (None, None) => DEFAULT_DEALS,
    };
    if cfg.walkers == 0 || asked < u64::from(cfg.walkers) || cfg.keep == 0 {
        return Err(usage!(
            "search: --deals {asked} --walkers {} --keep {}: need at least one walker, one deal \
             per walker and one deal kept",
            cfg.walkers,
            cfg.keep
        )
        .into());
    }
    check_minutes(cfg.minutes)?;
    let set = OutputSet::begin(&cfg.out, Kind::Search, &[])?;
    let steps = asked / u64::from(cfg.walkers);
    let threads = crate::run::threads_or_cores(cfg.threads);
    let e = estimate(game, cfg, steps * u64::from(cfg.walkers), threads);
    // A search for a time is bounded by it; one for a number of deals by its estimate.
    let seconds = cfg.minutes.map_or(e.seconds, |m| e.seconds.min(m * 60.0));
    let e = Estimate { seconds, ..e };
    crate::run::check_bound(
        &format!("search bmn: {}", planned(cfg, asked)),
        &e,
        cfg.max_hours,
    )?;
    if e.seconds > crate::estimate::LONG {
        crate::output::progress::note(cfg.progress, &format!("estimate: {e}"));
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()?;
    let per_deal = e.seconds / (steps as f64 * f64::from(cfg.walkers)).max(1.0);
    let expected = match cfg.minutes {
        Some(m) => ((m * 60.0 / per_deal.max(1e-12)) as u64).min(steps * u64::from(cfg.walkers)),
        None => steps * u64::from(cfg.walkers),
    };
    let noun = if cfg.loops { "tries" } else { "deals" };
    Ok(Prepared {
        set,
        steps,
        threads,
        pool,
        progress: Progress::counting(expected, cfg.progress, noun),
        start: Instant::now(),
    })
}

impl Prepared {
    /// Plays every walker's share: at once, or with `--minutes` in batches of [`BATCH`] until
    /// the time is up. Every walker plays the same number in each batch, so the deals played
    /// are a multiple of the walkers and the result is the one `--deals` of that number gives.
    /// Returns the deals each walker played.
    fn drive<W: Send>(
        &self,
        cfg: &SearchConfig,
        walkers: &mut [W],
        walk: impl Fn(&mut W, u64, &Progress) + Sync,
    ) -> u64 {
        let mut played = 0u64;
        while played < self.steps {
            let batch = match cfg.minutes {
                Some(_) => BATCH.min(self.steps - played),
                None => self.steps,
            };
            self.pool.install(|| {
                walkers
                    .par_iter_mut()
                    .for_each(|w| walk(w, batch, &self.progress))
            });
            played += batch;
            if cfg
                .minutes
                .is_some_and(|m| self.start.elapsed().as_secs_f64() >= m * 60.0)
            {
                break;
            }
        }
        self.progress.finish();
        played
    }
}

/// The hands of `--from DEAL`, or `play bmn --deal`'s message about them, said of `--from`
/// by the search `what` (`search`, `search --loops`).
fn parse_from(game: &Bmn, deal: &str, what: &str) -> Result<[Vec<u8>; 2]> {
    game.parse_deal(deal)
        .map_err(|e| usage!("{what}: --from: {}", e.0.trim_start_matches("--deal: ")).into())
}

/// The deal of `--from` as a deck (player 1's hand, then player 2's): a climb changes two
/// of its cards at a time, so the hands must be equal, as in every deal the search plays.
fn from_deal(game: &Bmn, deal: &str) -> Result<Vec<u8>> {
    let [a, b] = parse_from(game, deal, "search")?;
    if a.len() != b.len() {
        return Err(usage!(
            "search: --from: the hands hold {} and {} cards; a deal to climb from gives each \
             player half the deck (--loops takes any position)",
            a.len(),
            b.len()
        )
        .into());
    }
    Ok([a, b].concat())
}

/// Positions a backward walk from one deal may hold at once (about 70 bytes each): the walks
/// from the published records hold at most a few hundred.
const ANCESTOR_LIMIT: u64 = 1 << 20;

/// The deals whose game reaches one of `best`'s deals after some tricks and so is longer: the
/// balanced positions among its predecessors, theirs and so on (backward play), each written
/// with its leader's hand first and played again to count it. Backward play from Mann and
/// Wu's 2007 record deal finds Anderson's 2013 record this way.
fn longer_ancestors(game: &Bmn, best: &[Found]) -> Vec<Found> {
    let mut s = game.scratch();
    let mut out = Vec::new();
    for f in best {
        let Ok([a, b]) = game.parse_deal(&f.deal) else {
            continue;
        };
        // A walk that outgrows its bound finds nothing: the search keeps what it has.
        let Ok(found) = ancestors(Node::new(&a, &b, 0), ANCESTOR_LIMIT) else {
            continue;
        };
        for n in found {
            let deck = n.node.leader_first();
            let p = game.play_deck(&deck, &mut s);
            if matches!(p.outcome, Outcome::Player(_)) && p.cards > f.cards {
                out.push(Found {
                    deal: game.show_deal(&deck),
                    cards: p.cards,
                    tricks: p.tricks,
                    cycle: None,
                    walker: f.walker,
                    at: f.at,
                    ancestor_of: Some(f.deal.clone()),
                });
            }
        }
    }
    out
}

/// The first line of best.txt: what it lists, and the rule options its `play` lines need.
fn replay_header(game: &Bmn, what: &str) -> String {
    let options = crate::games::bmn::rule_args(game.rules());
    format!(
        "# {what}; each line replays one{}.\n",
        if options.is_empty() {
            String::new()
        } else {
            format!(" (with {options})")
        }
    )
}

/// `search bmn`: runs the walkers, writes search.json and best.txt into `cfg.out`.
pub fn run(game: &Bmn, cfg: &SearchConfig) -> Result<()> {
    if cfg.loops {
        return loops::run(game, cfg);
    }
    let from = cfg
        .from
        .as_deref()
        .map(|d| from_deal(game, d))
        .transpose()?;
    let prepared = prepare(game, cfg)?;
    let mut walkers: Vec<Walker> = (0..cfg.walkers)
        .map(|w| Walker::new(game, cfg.seed, w, cfg.keep, from.clone()))
        .collect();
    let played = prepared.drive(cfg, &mut walkers, |w, n, p| w.walk(n, p));
    let Prepared {
        set,
        threads,
        start,
        ..
    } = prepared;
    let deals = played * u64::from(cfg.walkers);
    let walks: Vec<Walk> = walkers.into_iter().map(|w| w.out).collect();
    let elapsed_s = start.elapsed().as_secs_f64();
    let mut best: Vec<Found> = walks.iter().flat_map(|w| w.best.clone()).collect();
    sort(&mut best);
    best.dedup_by(|a, b| a.deal == b.deal);
    best.truncate(cfg.keep);
    let ancestors = longer_ancestors(game, &best);
    best.extend(ancestors);
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
        from: cfg.from.as_deref(),
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
    let mut best_txt = replay_header(
        game,
        "The longest deals found, then the deals that never end",
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
