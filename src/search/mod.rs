//! `search bmn`: the command's face over the searches of `warsim_core::games::bmn::search`
//! (the record climb, `--loops`, `--census`) and of `warsim_core::games::bmn::record`
//! (`--method sample` and `--method record`, [`record`]): its flags checked, progress shown, the output
//! folder written (search.json, best.txt). A search for a time (`--minutes`) plays batches of
//! deals on every walker until the time is up ([`drive`]): how many depends on the machine,
//! and search.json says how many (its `replay` is the command with `--deals` of that number,
//! which plays the same search again). An interrupted search (Ctrl-C, SIGTERM) stops after its
//! batch and writes what it found, marked `"stopped": true`, replayable the same way.

use std::path::PathBuf;

use anyhow::Result;
use serde::Serialize;

use crate::error::Interrupted;
use crate::estimate::MaxHours;
use crate::games::bmn::search::climb::{self, Found, Walker, RESTART};
use crate::games::bmn::{Bmn, Played};
use crate::games::{Game, Outcome};
use crate::model::summary::Provenance;
use crate::stats::summary::{counted, grouped};
use crate::term::progress::When;
use crate::term::stdout::{self, Print};
use crate::usage;

mod census;
mod drive;
mod loops;
pub mod record;
pub(crate) mod replay;

pub(crate) use drive::check_minutes;
pub use drive::DEFAULT_DEALS;

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
    /// The census of cycles instead (`--census`): [`census`].
    pub census: bool,
}

/// A deal or cycle as search.json lists it: what the core found, and the command that plays it.
#[derive(Debug, Serialize)]
pub(crate) struct Listed<T> {
    #[serde(flatten)]
    pub(crate) found: T,
    pub(crate) replay: String,
}

/// search.json.
#[derive(Debug, Serialize)]
struct SearchJson<'a> {
    game: &'static str,
    description: String,
    rules: &'a crate::games::bmn::BmnRules,
    seed: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    from: Option<&'a str>,
    deals: u64,
    stopped: bool,
    replay: String,
    walkers: u32,
    restart_after: u64,
    best: Vec<Listed<Found>>,
    loops_found: u64,
    loops: Vec<Listed<Found>>,
    /// Deals whose game reached the round cap: neither ended nor seen to loop, so never listed.
    capped: u64,
    elapsed_s: f64,
    deals_per_s: f64,
    threads: usize,
    provenance: Provenance,
}

/// The hands of `--from DEAL`, or `play bmn --deal`'s message about them, said of `--from`
/// by the search `what` (`search`, `search --loops`).
fn parse_from(game: &Bmn, deal: &str, what: &str) -> Result<[Vec<u8>; 2]> {
    game.parse_deal(deal)
        .map_err(|e| e.renamed("deal", "from").after(format!("{what}: ")).into())
}

/// The hands of `--from DEAL`, which must be equal (`purpose` says why, after the sizes),
/// and the game they play: what a climb and a join start from.
fn played_from(game: &Bmn, deal: &str, purpose: &str) -> Result<([Vec<u8>; 2], Played)> {
    let [a, b] = parse_from(game, deal, "search")?;
    if a.len() != b.len() {
        return Err(usage!(
            "search: --from: the hands hold {} and {} cards; {purpose}",
            a.len(),
            b.len()
        )
        .into());
    }
    let hands = [a, b];
    let p = game.play_hands(&hands, &mut |_, _, _| std::ops::ControlFlow::Continue(()))?;
    Ok((hands, p))
}

/// The deal of `--from` as a deck: a climb swaps two of its cards at a time, so the hands
/// must be equal; and one that never ends would be listed again at every restart.
fn from_deal(game: &Bmn, deal: &str) -> Result<Vec<u8>> {
    let (hands, p) = played_from(
        game,
        deal,
        "a deal to climb from gives each player half the deck (--loops takes any position)",
    )?;
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
        _ => Ok(hands.concat()),
    }
}

/// `search bmn`: runs the walkers, writes search.json and best.txt into `cfg.out`.
pub fn run(game: &Bmn, cfg: &SearchConfig) -> Result<()> {
    if cfg.census {
        return census::run(game, cfg);
    }
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
    let walks: Vec<climb::Walk> = walkers.into_iter().map(|w| w.out).collect();
    let found = climb::merge(game, cfg.keep, &walks);
    let elapsed_s = prepared.start.elapsed().as_secs_f64();
    let rules = game.rules();
    let listed = |f: Found| Listed {
        replay: replay::play(rules, &f.deal),
        found: f,
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
        best: found.best.into_iter().map(listed).collect(),
        loops_found: found.loops_found,
        loops: found.loops.into_iter().map(listed).collect(),
        capped: found.capped,
        elapsed_s,
        deals_per_s: deals as f64 / elapsed_s.max(1e-9),
        threads: prepared.threads,
        provenance: Provenance::of(None),
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

/// best.txt: a `play` command for each deal listed, the longest first, then those that never
/// end, each with the deck's options so that it runs as written.
fn best_txt(doc: &SearchJson) -> String {
    let mut out = String::from(
        "# The longest deals found, then the deals that never end; each line replays one.\n",
    );
    for l in doc.best.iter().chain(&doc.loops) {
        let f = &l.found;
        let what = match f.cycle {
            Some((cards, tricks)) => format!("never ends: a {tricks}-trick ({cards}-card) cycle"),
            None => format!(
                "{}, {}",
                counted(f.cards, "card"),
                counted(f.tricks, "trick")
            ),
        };
        out.push_str(&format!("{}   # {what}\n", l.replay));
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
    for l in doc.best.iter().take(5) {
        let (c, t) = (
            counted(l.found.cards, "card"),
            counted(l.found.tricks, "trick"),
        );
        text.push_str(&format!("longest   {c}, {t}: {}\n", l.replay));
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

/// The last lines of a search's summary: the command that plays it again, where the deals
/// played were not asked for (a timed or a stopped search), and what was written.
fn closing(cfg: &SearchConfig, stopped: bool, replay: &str) -> String {
    let again = match stopped || cfg.minutes.is_some() {
        true => format!("again     {replay}\n"),
        false => String::new(),
    };
    let out = cfg.out.display();
    format!("{again}written   {out}/ (search.json, best.txt)\n")
}
