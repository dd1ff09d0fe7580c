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
//! ([`loops`]); `--method sample` and `--method record` search by plain sampling and by
//! sampling then backward joining instead of climbing ([`record`]). Walkers draw only from their own generator and play a fixed
//! number of deals each, so the result depends on the seed, the deals and the walkers, never on
//! the threads. A search for a time (`--minutes`) plays batches of deals on every walker
//! until the time is up ([`drive`]): how many depends on the machine, and search.json says how
//! many (its `replay` is the command with `--deals` of that number, which plays the same
//! search again). An interrupted search (Ctrl-C, SIGTERM) stops after its batch and writes
//! what it found, marked `"stopped": true`, replayable the same way.

use std::path::PathBuf;

use anyhow::Result;
use serde::Serialize;

use crate::error::Interrupted;
use crate::estimate::MaxHours;
use crate::games::bmn::backward::{ancestors, Node};
use crate::games::bmn::{Bmn, Played};
use crate::games::cards::bounded;
use crate::games::{Game, Outcome};
use crate::model::summary::Provenance;
use crate::rng::{game_rng, GameRng};
use crate::stats::summary::{counted, grouped};
use crate::term::progress::{Progress, When};
use crate::term::stdout::{self, Print};
use crate::usage;

mod drive;
mod loops;
pub mod record;
pub(crate) mod replay;

pub(crate) use drive::check_minutes;
pub use drive::DEFAULT_DEALS;

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
    /// Play for this many minutes, in batches of deals on every walker ([`drive`]).
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
    /// How to look for long games (`--method`): the climb, plain sampling, or sampling and
    /// backward joining ([`record`]).
    pub method: record::Method,
    /// With `--method record`: the longest games sampled that are joined from.
    pub bases: usize,
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
    /// The command that plays it ([`replay::play`]), given to the deals listed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replay: Option<String>,
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
    /// Deals played: all asked for, or those the time allowed or an interrupt left.
    deals: u64,
    /// Whether an interrupt stopped the search before the deals or the time asked for.
    stopped: bool,
    /// The command that plays this search again (`--deals` of those played).
    replay: String,
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

    /// The next deal of the climb: after [`RESTART`] swaps with no longer game a new start
    /// (`None`), else two cards of different demands swapped (which `drive::check_deck`
    /// makes sure the deck has).
    fn next_deal(&mut self) -> Option<(usize, usize)> {
        let (deck, rng) = (&mut self.deck, &mut self.rng);
        if self.stale >= RESTART {
            match &self.from {
                Some(from) => deck.copy_from_slice(from),
                None => crate::games::cards::shuffle(rng, deck),
            }
            self.stale = 0;
            self.current = 0;
            return None;
        }
        let n = deck.len() as u32;
        let (i, j) = loop {
            let (i, j) = (bounded(rng, n) as usize, bounded(rng, n) as usize);
            if deck[i] != deck[j] {
                break (i, j);
            }
        };
        deck.swap(i, j);
        Some((i, j))
    }

    /// Plays `steps` more deals of the climb.
    fn walk(&mut self, steps: u64, progress: &Progress) {
        let (game, w, keep) = (self.game, self.w, self.keep);
        let found = |deck: &[u8], p: &Played, at: u64| Found {
            deal: game.show_deal(deck),
            cards: p.cards,
            tricks: p.tricks,
            cycle: p.cycle.map(|(c, t)| (c.cycle_len, t.cycle_len)),
            walker: w,
            at,
            ancestor_of: None,
            replay: None,
        };
        let (start, end) = (self.done, self.done + steps);
        // Progress counts this batch's deals (a batch may be smaller than a report).
        let mut reported = 0;
        while self.done < end {
            let swap = self.next_deal();
            let (deck, out) = (&mut self.deck, &mut self.out);
            let p = game.play_deck(deck, &mut self.s);
            self.done += 1;
            if (self.done - start).is_multiple_of(4096) {
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

/// Longest first; equal lengths by deal, so the order is the same however found.
fn sort(found: &mut [Found]) {
    found.sort_by(|a, b| b.cards.cmp(&a.cards).then_with(|| a.deal.cmp(&b.deal)));
}

/// The hands of `--from DEAL`, or `play bmn --deal`'s message about them, said of `--from`
/// by the search `what` (`search`, `search --loops`).
fn parse_from(game: &Bmn, deal: &str, what: &str) -> Result<[Vec<u8>; 2]> {
    game.parse_deal(deal)
        .map_err(|e| e.renamed("deal", "from").after(format!("{what}: ")).into())
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
    let deck = [a, b].concat();
    // Every restart of every walker plays the deal again: one that never ends would be
    // listed as a loop found at each (and the climb never leaves it).
    let p = game.play_deck(&deck, &mut game.scratch());
    match (p.outcome, p.cycle) {
        (Outcome::Loop, Some((cards, tricks))) => Err(usage!(
            "search: --from: this deal never ends (a {}-trick, {}-card cycle); search around \
             it with --loops --from, or walk to it with --reaching",
            tricks.cycle_len,
            cards.cycle_len
        )
        .into()),
        (Outcome::Capped, _) => Err(usage!(
            "search: --from: this deal's game reaches the cap of {} cards without ending; \
             raise --max-rounds",
            grouped(game.max_rounds())
        )
        .into()),
        _ => Ok(deck),
    }
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
        let Some(found) =
            (Node::new(&a, &b, 0).ok()).and_then(|start| ancestors(start, ANCESTOR_LIMIT).ok())
        else {
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
                    replay: None,
                });
            }
        }
    }
    out
}

/// `search bmn`: runs the walkers, writes search.json and best.txt into `cfg.out`.
pub fn run(game: &Bmn, cfg: &SearchConfig) -> Result<()> {
    if cfg.method != record::Method::Climb {
        return record::run(game, cfg);
    }
    if cfg.loops {
        return loops::run(game, cfg);
    }
    let from = cfg
        .from
        .as_deref()
        .map(|d| from_deal(game, d))
        .transpose()?;
    let prepared = drive::prepare(game, cfg)?;
    let mut walkers: Vec<Walker> = (0..cfg.walkers)
        .map(|w| Walker::new(game, cfg.seed, w, cfg.keep, from.clone()))
        .collect();
    let played = prepared.drive(cfg, &mut walkers, |w, n, p| w.walk(n, p));
    let deals = played.per_walker * u64::from(cfg.walkers);
    let walks: Vec<Walk> = walkers.into_iter().map(|w| w.out).collect();
    let elapsed_s = prepared.start.elapsed().as_secs_f64();
    let rules = game.rules();
    let listed = |mut f: Found| {
        f.replay = Some(replay::play(rules, &f.deal));
        f
    };
    let doc = SearchJson {
        game: Bmn::NAME,
        description: game.describe(),
        rules,
        seed: cfg.seed,
        from: cfg.from.as_deref(),
        deals,
        stopped: played.stopped,
        replay: replay::search(rules, cfg, deals, elapsed_s / 3600.0),
        walkers: cfg.walkers,
        restart_after: RESTART,
        best: best_of(game, cfg, &walks).into_iter().map(listed).collect(),
        loops_found: walks.iter().map(|w| w.loops_found).sum(),
        loops: loops_of(&walks).into_iter().map(listed).collect(),
        capped: walks.iter().map(|w| w.capped).sum(),
        elapsed_s,
        deals_per_s: deals as f64 / elapsed_s.max(1e-9),
        threads: prepared.threads,
        provenance: Provenance::now(),
    };
    let dir = prepared.set.dir();
    dir.write_json("search.json", &doc)?;
    dir.write("best.txt", best_txt(&doc).as_bytes())?;
    prepared.set.commit()?;
    match cfg.print {
        Print::Json => stdout::print_json(&doc)?,
        Print::Nothing => {}
        Print::Text | Print::Markdown => stdout::write_all(text(game, cfg, &doc).as_bytes())?,
    }
    stopped(played, "deals", cfg)
}

/// After a search's output is written: an interrupted search says so, and exits as an
/// interrupted command does (status 130), its output complete.
fn stopped(played: drive::Played, noun: &str, cfg: &SearchConfig) -> Result<()> {
    if !played.stopped {
        return Ok(());
    }
    Err(Interrupted(format!(
        "interrupted: the search stopped after {} {noun} and wrote what it found into {}/ \
         (search.json says \"stopped\": true)",
        grouped(played.per_walker * u64::from(cfg.walkers)),
        cfg.out.display()
    ))
    .into())
}

/// The longest deals of all the walkers, then the longer ones backward play finds, `--keep`
/// of them.
fn best_of(game: &Bmn, cfg: &SearchConfig, walks: &[Walk]) -> Vec<Found> {
    let mut best: Vec<Found> = walks.iter().flat_map(|w| w.best.clone()).collect();
    sort(&mut best);
    best.dedup_by(|a, b| a.deal == b.deal);
    best.truncate(cfg.keep);
    let ancestors = longer_ancestors(game, &best);
    best.extend(ancestors);
    sort(&mut best);
    best.dedup_by(|a, b| a.deal == b.deal);
    best.truncate(cfg.keep);
    best
}

/// The deals that never end of all the walkers, [`MAX_LOOPS`] of them.
fn loops_of(walks: &[Walk]) -> Vec<Found> {
    let mut loops: Vec<Found> = walks.iter().flat_map(|w| w.loops.clone()).collect();
    sort(&mut loops);
    loops.dedup_by(|a, b| a.deal == b.deal);
    loops.truncate(MAX_LOOPS);
    loops
}

/// best.txt: a `play` command for each deal listed, the longest first, then those that never
/// end, each with the deck's options so that it runs as written.
fn best_txt(doc: &SearchJson) -> String {
    let mut out = String::from(
        "# The longest deals found, then the deals that never end; each line replays one.\n",
    );
    for f in doc.best.iter().chain(&doc.loops) {
        let what = match f.cycle {
            Some((cards, tricks)) => format!("never ends: a {tricks}-trick ({cards}-card) cycle"),
            None => format!(
                "{}, {}",
                counted(f.cards, "card"),
                counted(f.tricks, "trick")
            ),
        };
        let line = f.replay.as_deref().unwrap_or_default();
        out.push_str(&format!("{line}   # {what}\n"));
    }
    out
}

/// What the terminal shows of a search.
fn text(game: &Bmn, cfg: &SearchConfig, doc: &SearchJson) -> String {
    let mut text = format!(
        "search bmn — {}\n{} deals by {} walkers, seed {}, {:.1} s ({} deals/s){}\n",
        doc.description,
        grouped(doc.deals),
        cfg.walkers,
        cfg.seed,
        doc.elapsed_s,
        grouped(doc.deals_per_s as u64),
        if doc.stopped { ", stopped" } else { "" }
    );
    for f in doc.best.iter().take(5) {
        text.push_str(&format!(
            "longest   {}, {}: {}\n",
            counted(f.cards, "card"),
            counted(f.tricks, "trick"),
            f.replay.as_deref().unwrap_or_default()
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
        "loops     {} found ({} distinct deals kept)\n",
        doc.loops_found,
        doc.loops.len()
    ));
    text.push_str(&closing(cfg, doc.stopped, &doc.replay));
    text
}

/// The last lines of a record or loop search's summary: the command that plays it again,
/// where the deals played were not asked for (a timed or a stopped search), and what was
/// written.
fn closing(cfg: &SearchConfig, stopped: bool, replay: &str) -> String {
    let again = match stopped || cfg.minutes.is_some() {
        true => format!("again     {replay}\n"),
        false => String::new(),
    };
    format!(
        "{again}written   {}/ (search.json, best.txt)\n",
        cfg.out.display()
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::bmn::BmnRules;

    /// A walker plays the same deals in batches of any sizes as at once: the batches a search
    /// is played in (sized from the clock) never change what it finds.
    #[test]
    fn a_walker_is_the_same_in_batches() {
        let game = Bmn::new(BmnRules::britannica(7, 2, [1, 2, 3, 4])).unwrap();
        let progress = Progress::new(0, When::Never);
        let mut once = Walker::new(&game, 5, 1, 10, None);
        once.walk(30_000, &progress);
        // Progress hears of each deal once, however the batches cross its reports.
        let counted = std::sync::Arc::new(crate::term::progress::Shared::default());
        crate::term::progress::count_for_host(counted.clone());
        let progress = Progress::new(30_000, When::Never);
        let mut batches = Walker::new(&game, 5, 1, 10, None);
        for n in [1, 4, 16, 9_979, 20_000] {
            batches.walk(n, &progress);
        }
        let done = counted.done.load(std::sync::atomic::Ordering::Relaxed);
        assert_eq!(done, 30_000);
        assert_eq!(once.out.best, batches.out.best);
        assert_eq!(once.out.loops, batches.out.loops);
        assert_eq!(
            (once.out.loops_found, once.out.capped, once.deck.clone()),
            (
                batches.out.loops_found,
                batches.out.capped,
                batches.deck.clone()
            )
        );
        assert!(!once.out.best.is_empty());
    }
}
