//! `search bmn --method sample` and `--method record`: the command over the core's record
//! search ([`warsim_core::games::bmn::record`]): plain sampling of random deals, and sampling
//! followed by backward joining from the longest games sampled (or, with `--from DEAL`,
//! joining from that deal alone). Bounds the time, shows progress, writes search.json and
//! best.txt as the climb does.

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use anyhow::Result;
use serde::Serialize;

use super::{replay, Found, Listed, SearchConfig};
use crate::games::bmn::record::{self, How, Long, RecordConfig, Stage};
use crate::games::bmn::Bmn;
use crate::games::Game;
use crate::model::summary::Provenance;
use crate::stats::summary::{counted, grouped};
use crate::store::{Kind, OutputSet};
use crate::term::stdout::{self, Print};
use crate::usage;

/// How `search bmn` looks for long games.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Method {
    /// Walkers that swap two cards at a time (the climb), then backward play from the deals kept.
    #[default]
    Climb,
    /// Plain sampling: game i of the seed, as `simulate bmn` deals it, the longest kept.
    Sample,
    /// Sampling, then backward joining from the longest games sampled (`--bases` of them):
    /// every balanced position whose game joins one of them later.
    Record,
}

/// Bases joined by default: about 10 s of joining on two cores (joins of 2,000-card games
/// take about 8 ms each on one core).
pub const DEFAULT_BASES: usize = 4096;

/// The share of a search for a time (`--minutes`) that `--method record` samples; the joins
/// take the rest, and stop when the time is up.
const SAMPLE_SHARE: f64 = 0.95;

/// Positions one join expands at most: the walks from the published records expand about
/// 60,000, from random long deals fewer.
const MAX_POSITIONS: u64 = 1 << 26;

/// search.json of a sampling or record search.
#[derive(Debug, Serialize)]
struct RecordJson<'a> {
    game: &'static str,
    description: String,
    rules: &'a crate::games::bmn::BmnRules,
    method: Method,
    seed: u64,
    /// The deal joined from (`--from`), instead of sampled games.
    #[serde(skip_serializing_if = "Option::is_none")]
    from: Option<&'a str>,
    /// Deals sampled (games `0..deals` of the seed).
    deals: u64,
    /// Of them, deals that never end.
    loops_found: u64,
    /// Bases joined: the longest games sampled, longest first (or the deal of `--from`).
    bases: usize,
    /// Positions the joins expanded (backward play).
    positions: u64,
    /// Deals the joins played forward to check them: every deal a join reports is replayed,
    /// and kept only with the cards and tricks backward play counted.
    replayed: u64,
    /// Joins cut short by the bound on positions (their tree was not walked to its end).
    incomplete: usize,
    /// Deals played in all: sampled, and replayed by the joins.
    played: u64,
    /// Whether an interrupt stopped the search before the deals or the time asked for.
    stopped: bool,
    /// The command that plays this search again.
    replay: String,
    best: Vec<Listed<Found>>,
    elapsed_s: f64,
    /// Seconds spent sampling, and joining.
    sample_s: f64,
    join_s: f64,
    /// Deals sampled per second of sampling.
    deals_per_s: f64,
    threads: usize,
    provenance: Provenance,
}

/// Refuses what sampling and joining do not take.
fn check(game: &Bmn, cfg: &SearchConfig) -> Result<()> {
    super::drive::check_minutes(cfg.minutes)?;
    if cfg.loops {
        return Err(usage!(
            "search: --loops searches for cycles by its own walk; --method {} searches for long \
             games (drop one of them)",
            name(cfg.method)
        )
        .into());
    }
    if cfg.from.is_some() && cfg.method == Method::Sample {
        return Err(usage!(
            "search: --method sample plays random deals, not a given one; --from DEAL joins \
             from a deal with --method record"
        )
        .into());
    }
    if cfg.deals == Some(0) || cfg.keep == 0 {
        return Err(usage!(
            "search: --deals and --keep need at least 1 (they are {} and {})",
            cfg.deals.unwrap_or(1),
            cfg.keep
        )
        .into());
    }
    let deck = game.deck();
    if deck.iter().all(|&d| d == deck[0]) {
        return Err(usage!(
            "search: every card of this deck demands {}, so every deal is the same game; give \
             --penalties with two different demands",
            deck[0]
        )
        .into());
    }
    Ok(())
}

fn name(m: Method) -> &'static str {
    match m {
        Method::Climb => "climb",
        Method::Sample => "sample",
        Method::Record => "record",
    }
}

/// `search bmn --method sample|record`: plan, search, document, write and print.
pub(super) fn run(game: &Bmn, cfg: &SearchConfig) -> Result<()> {
    check(game, cfg)?;
    let from = match &cfg.from {
        Some(d) => Some(joinable(game, d)?),
        None => None,
    };
    let deals = match (from.is_some(), cfg.deals, cfg.minutes) {
        (true, _, _) => 0,
        (false, Some(d), _) => d,
        (false, None, Some(_)) => u64::MAX,
        (false, None, None) => super::DEFAULT_DEALS,
    };
    let bases = if cfg.method == Method::Sample {
        0
    } else {
        cfg.bases
    };
    let set = OutputSet::begin(&cfg.out, Kind::Search, &[], None)?;
    let threads = crate::run::threads_or_cores(cfg.threads);
    let searched = search(game, cfg, from.as_deref(), deals, bases, threads)?;
    let doc = document(game, cfg, &searched, threads);
    let dir = set.dir();
    dir.write_json("search.json", &doc)?;
    dir.write("best.txt", best_txt(&doc).as_bytes())?;
    set.commit()?;
    match cfg.print {
        Print::Json => stdout::print_json(&doc)?,
        Print::Nothing => {}
        Print::Text | Print::Markdown => stdout::write_all(text(cfg, &doc).as_bytes())?,
    }
    if searched.found.stopped {
        return Err(crate::error::Interrupted(format!(
            "interrupted: the search stopped after {} deals and {} bases and wrote what it found \
             into {}/ (search.json says \"stopped\": true)",
            grouped(doc.deals),
            doc.bases,
            cfg.out.display()
        ))
        .into());
    }
    Ok(())
}

/// What the search found, and how long its sampling and its whole took.
struct Searched {
    found: record::Record,
    from: bool,
    elapsed_s: f64,
    sample_s: f64,
}

/// Samples `deals` deals (none with a deal `from` to join from) and joins from `bases` of the
/// longest, on `threads` threads, with progress, within `--minutes`, until an interrupt.
fn search(
    game: &Bmn,
    cfg: &SearchConfig,
    from: Option<&[u8]>,
    deals: u64,
    bases: usize,
    threads: usize,
) -> Result<Searched> {
    let stop = super::drive::interrupt_stop();
    let pool = super::drive::pool_of(threads)?;
    let progress = super::drive::progress_of(cfg, deals, "deals");
    let start = Instant::now();
    let share = if bases == 0 { 1.0 } else { SAMPLE_SHARE };
    let sample_until = cfg.minutes.map(|m| m * 60.0 * share);
    let until = cfg.minutes.map(|m| m * 60.0);
    let shown = AtomicU64::new(0);
    let sampled_at = std::sync::Mutex::new(None);
    let mut each = |stage: Stage| {
        let elapsed = start.elapsed().as_secs_f64();
        let deadline = match stage {
            Stage::Sampling(n) => {
                progress.inc(n - shown.swap(n, Ordering::Relaxed));
                sample_until
            }
            Stage::Joining(..) => until,
        };
        match stop.is_set() || deadline.is_some_and(|d| elapsed >= d) {
            true => ControlFlow::Break(()),
            false => ControlFlow::Continue(()),
        }
    };
    let rc = RecordConfig {
        seed: cfg.seed,
        deals,
        bases,
        max_positions: MAX_POSITIONS,
        keep: cfg.keep,
    };
    let found = pool.install(|| match from {
        Some(deck) => record::record_from(game, deck, &rc, &stop, &mut each),
        None => record::record(game, &rc, &stop, &mut |s| {
            if let Stage::Joining(..) = s {
                sampled_at.lock().unwrap().get_or_insert(start.elapsed());
            }
            each(s)
        }),
    });
    progress.finish();
    let elapsed_s = start.elapsed().as_secs_f64();
    let sample_s = sampled_at
        .into_inner()
        .unwrap()
        .map_or(elapsed_s, |d| d.as_secs_f64());
    let sample_s = if bases == 0 || from.is_some() {
        elapsed_s.min(sample_s)
    } else {
        sample_s
    };
    Ok(Searched {
        found,
        from: from.is_some(),
        elapsed_s,
        sample_s,
    })
}

/// search.json of a search.
fn document<'a>(
    game: &'a Bmn,
    cfg: &'a SearchConfig,
    searched: &Searched,
    threads: usize,
) -> RecordJson<'a> {
    let (found, elapsed_s, sample_s) = (&searched.found, searched.elapsed_s, searched.sample_s);
    let rules = game.rules();
    RecordJson {
        game: Bmn::NAME,
        description: game.describe(),
        rules,
        method: cfg.method,
        seed: cfg.seed,
        from: cfg.from.as_deref(),
        deals: found.sampled.deals,
        loops_found: found.sampled.loops,
        bases: found.joined,
        positions: found.positions,
        replayed: found.replayed,
        incomplete: found.incomplete,
        played: found.sampled.deals + found.replayed,
        stopped: found.stopped,
        replay: replay::method_search(
            rules,
            cfg,
            name(cfg.method),
            (
                found.sampled.deals,
                (cfg.method == Method::Record && cfg.from.is_none()).then_some(found.joined.max(1)),
            ),
            elapsed_s / 3600.0,
        ),
        best: found.best.iter().map(|l| listed(game, l)).collect(),
        elapsed_s,
        sample_s: if searched.from { 0.0 } else { sample_s },
        join_s: if searched.from {
            elapsed_s
        } else {
            elapsed_s - sample_s
        },
        deals_per_s: found.sampled.deals as f64 / sample_s.max(1e-9),
        threads,
        provenance: Provenance::of(None),
    }
}

/// The deal of `--from` as a deck, refused unless its hands are equal and its game ends (a
/// join walks back from the position before its last trick).
fn joinable(game: &Bmn, deal: &str) -> Result<Vec<u8>> {
    let (hands, p) = super::played_from(
        game,
        deal,
        "a deal to join from gives each player half the deck",
    )?;
    if !matches!(p.outcome, crate::games::Outcome::Player(_)) {
        return Err(usage!(
            "search: --from: this deal's game does not end (it loops or reaches the card cap), \
             so it has no last trick to join; search around it with --loops --from"
        )
        .into());
    }
    Ok(hands.concat())
}

/// A long game as search.json lists it: a joined deal names the deal it joins (`ancestor_of`),
/// a sampled one its game index (`at`).
fn listed(game: &Bmn, l: &Long) -> Listed<Found> {
    let deal = game.show_deal(&l.deck);
    let (at, ancestor_of) = match &l.how {
        How::Sampled { index } => (*index, None),
        How::Given => (0, None),
        How::Joined { base, before, .. } => (*before, Some(game.show_deal(base))),
    };
    Listed {
        replay: replay::play(game.rules(), &deal),
        found: Found {
            deal,
            cards: l.cards,
            tricks: l.tricks,
            cycle: None,
            walker: 0,
            at,
            ancestor_of,
        },
    }
}

/// best.txt: a `play` command per deal, the longest first.
fn best_txt(doc: &RecordJson) -> String {
    let mut out = String::from("# The longest deals found; each line replays one.\n");
    for f in &doc.best {
        out.push_str(&format!(
            "{}   # {}, {}\n",
            f.replay,
            counted(f.found.cards, "card"),
            counted(f.found.tricks, "trick")
        ));
    }
    out
}

/// What the terminal shows.
fn text(cfg: &SearchConfig, doc: &RecordJson) -> String {
    let mut text = format!(
        "search bmn --method {} — {}\n{} deals sampled in {:.1} s ({} deals/s)",
        name(doc.method),
        doc.description,
        grouped(doc.deals),
        doc.sample_s,
        grouped(doc.deals_per_s as u64),
    );
    if doc.method == Method::Record {
        text.push_str(&format!(
            ", {} bases joined ({} positions, {} deals replayed) in {:.1} s",
            doc.bases,
            grouped(doc.positions),
            grouped(doc.replayed),
            doc.join_s
        ));
    }
    text.push_str(if doc.stopped { ", stopped\n" } else { "\n" });
    for f in doc.best.iter().take(5) {
        text.push_str(&format!(
            "longest   {}, {}: {}\n",
            counted(f.found.cards, "card"),
            counted(f.found.tricks, "trick"),
            f.replay
        ));
    }
    if doc.stopped || cfg.minutes.is_some() {
        text.push_str(&format!("again     {}\n", doc.replay));
    }
    text.push_str(&format!(
        "written   {}/ (search.json, best.txt)\n",
        cfg.out.display()
    ));
    text
}
