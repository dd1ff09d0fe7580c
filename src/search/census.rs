//! `search bmn --census`: the core's census of cycles (`warsim_core::games::bmn::search::census`)
//! from the seed cycle (Casella's under the standard rules, the cycle of `--from`, or random
//! positions), in rounds until `--deals` tries or `--minutes`; writes census.json, cycles.txt
//! and deals.txt (a `play` command per cycle and per balanced deal).

use std::ops::ControlFlow;
use std::time::Instant;

use anyhow::Result;
use serde::Serialize;

use super::{Listed, SearchConfig};
use crate::games::bmn::search::census::{census, Census, CensusConfig, Counted, ROUND_TRIES};
use crate::games::bmn::search::construct::{family_verdict, FamilyVerdict};
use crate::games::bmn::search::insert::sixteen;
use crate::games::bmn::search::loops::{standard, CASELLA};
use crate::games::bmn::{Bmn, BmnRules, Position};
use crate::games::Game;
use crate::model::summary::Provenance;
use crate::stats::summary::{counted, grouped};
use crate::store::{Kind, OutputSet};
use crate::term::stdout::{self, Print};

/// Positions a basin walk may hold: the 52-card basins known hold a few thousand.
const MAX_POSITIONS: u64 = 1 << 20;

/// census.json.
#[derive(Serialize)]
struct CensusJson<'a> {
    game: &'static str,
    mode: &'static str,
    description: String,
    rules: &'a BmnRules,
    seed: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    from: Option<&'a str>,
    walkers: u32,
    tries_per_round: u64,
    replay: String,
    /// Cycles with a balanced deal entering them (or their mirror image).
    reached_from_a_deal: usize,
    /// Balanced deals entering a cycle or its mirror, summed over the cycles.
    balanced_either_leads: usize,
    balanced_player_1_leads: usize,
    #[serde(flatten)]
    census: &'a Census,
    /// The exact construction over the pieces of the family of the first cycle, if it is of
    /// the known 52-card family.
    #[serde(skip_serializing_if = "Option::is_none")]
    construction: Option<FamilyVerdict>,
    elapsed_s: f64,
    threads: usize,
    provenance: Provenance,
}

/// `search bmn --census`: plays the rounds, writes census.json, cycles.txt and deals.txt.
pub fn run(game: &Bmn, cfg: &SearchConfig) -> Result<()> {
    super::loops::check_cap(game)?;
    super::check_minutes(cfg.minutes)?;
    let from = cfg.from.as_deref().or(standard(game).then_some(CASELLA));
    let seeds: Vec<_> = from
        .map(|d| super::loops::seed_of(game, d))
        .transpose()?
        .into_iter()
        .collect();
    let per_round = u64::from(cfg.walkers) * ROUND_TRIES;
    let rounds = match (cfg.deals, cfg.minutes) {
        (Some(d), _) => (d / per_round).max(1),
        (None, Some(_)) => u64::MAX,
        (None, None) => (super::DEFAULT_DEALS / per_round).max(1),
    };
    let set = OutputSet::begin(&cfg.out, Kind::Search, &[], None)?;
    let threads = crate::run::threads_or_cores(cfg.threads);
    let (found, elapsed_s) = play_rounds(game, cfg, &seeds, rounds, threads)?;
    let reached: Vec<&Counted> = found
        .cycles
        .iter()
        .filter(|c| !c.deals.is_empty())
        .collect();
    let doc = CensusJson {
        game: Bmn::NAME,
        mode: "census",
        description: game.describe(),
        rules: game.rules(),
        seed: cfg.seed,
        from,
        walkers: cfg.walkers,
        tries_per_round: ROUND_TRIES,
        replay: super::replay::search(game.rules(), cfg, found.tries, elapsed_s / 3600.0),
        reached_from_a_deal: reached.len(),
        balanced_either_leads: found.cycles.iter().map(|c| c.balanced_either_leads).sum(),
        balanced_player_1_leads: found.cycles.iter().map(|c| c.balanced_player_1_leads).sum(),
        census: &found,
        construction: seeds
            .first()
            .and_then(|(on, t)| family_verdict(game, on, *t)),
        elapsed_s,
        threads,
        provenance: Provenance::of(None),
    };
    let dir = set.dir();
    dir.write_json("census.json", &doc)?;
    dir.write("cycles.txt", cycles_txt(game, &found).as_bytes())?;
    dir.write("deals.txt", deals_txt(game, &found).as_bytes())?;
    set.commit()?;
    match cfg.print {
        Print::Json => stdout::print_json(&doc)?,
        Print::Nothing => {}
        Print::Text | Print::Markdown => stdout::write_all(text(cfg, &doc).as_bytes())?,
    }
    let played = super::drive::Played {
        per_walker: found.tries / u64::from(cfg.walkers),
        stopped: found.stopped,
    };
    super::stopped(played, "tries", cfg)
}

/// Plays `rounds` rounds of the census from `seeds` (or the rounds `--minutes` allows) on
/// `threads` threads, with progress, until an interrupt; its result and the seconds it took.
fn play_rounds(
    game: &Bmn,
    cfg: &SearchConfig,
    seeds: &[(Position, u64)],
    rounds: u64,
    threads: usize,
) -> Result<(Census, f64)> {
    let per_round = u64::from(cfg.walkers) * ROUND_TRIES;
    let stop = super::drive::interrupt_stop();
    let pool = super::drive::pool_of(threads)?;
    let progress = super::drive::progress_of(cfg, rounds.saturating_mul(per_round), "tries");
    let c = CensusConfig {
        seed: cfg.seed,
        walkers: cfg.walkers,
        tries: ROUND_TRIES,
        rounds,
        max_positions: MAX_POSITIONS,
        grow_from: match standard(game) {
            true => sixteen(),
            false => Vec::new(),
        },
    };
    let start = Instant::now();
    let mut each = |_| {
        progress.inc(per_round);
        match cfg.minutes {
            Some(m) if start.elapsed().as_secs_f64() >= m * 60.0 => ControlFlow::Break(()),
            _ => ControlFlow::Continue(()),
        }
    };
    let found = pool.install(|| census(game, &c, seeds, &stop, &mut each));
    progress.finish();
    Ok((found, start.elapsed().as_secs_f64()))
}

/// cycles.txt: a `play` command per cycle (its canonical position), with its counts.
fn cycles_txt(game: &Bmn, found: &Census) -> String {
    let mut out = String::from(
        "# Each cycle's canonical position (the leader's hand first); each line replays one.\n",
    );
    for c in &found.cycles {
        let l = Listed {
            replay: super::replay::play_loop(game.rules(), &c.cycle.position),
            found: c,
        };
        out.push_str(&format!(
            "{}   # cycle {}: {}, {}; basin {} positions, {} deep; balanced deals {} (player 1 leads), {} (either)\n",
            l.replay,
            c.cycle.id,
            counted(c.cycle.tricks, "trick"),
            counted(c.cycle.cards, "card"),
            grouped(c.basin_positions),
            c.per_depth.len() - 1,
            c.balanced_player_1_leads,
            c.balanced_either_leads
        ));
    }
    out
}

/// deals.txt: a `play` command per balanced deal of every cycle, with the cycle and depth.
fn deals_txt(game: &Bmn, found: &Census) -> String {
    let mut out = String::from(
        "# Every balanced deal found entering a cycle (player 2 to lead: seats swapped, so it \
         enters the cycle's mirror image); each line replays one.\n",
    );
    for c in &found.cycles {
        for d in &c.deals {
            let mirror = if d.leader == 2 { " (mirror)" } else { "" };
            out.push_str(&format!(
                "{}   # cycle {}{mirror} after {} tricks\n",
                super::replay::play_loop(game.rules(), &d.deal),
                c.cycle.id,
                d.depth
            ));
        }
    }
    out
}

/// What the terminal shows of a census.
fn text(cfg: &SearchConfig, doc: &CensusJson) -> String {
    let f = doc.census;
    let mut text = format!(
        "search bmn --census — {}\n{} tries in {} rounds by {} walkers, seed {}, {:.1} s{}\n\
         cycles    {} ({} entered by a balanced deal); balanced deals {} (player 1 leads), {} (either)\n",
        doc.description,
        grouped(f.tries),
        f.rounds,
        cfg.walkers,
        cfg.seed,
        doc.elapsed_s,
        if f.stopped { ", stopped" } else { "" },
        f.cycles.len(),
        doc.reached_from_a_deal,
        doc.balanced_player_1_leads,
        doc.balanced_either_leads
    );
    for c in f.cycles.iter().take(20) {
        text.push_str(&format!(
            "cycle     {}: {}, {}; basin {}; deals {} / {}\n",
            c.cycle.id,
            counted(c.cycle.tricks, "trick"),
            counted(c.cycle.cards, "card"),
            grouped(c.basin_positions),
            c.balanced_player_1_leads,
            c.balanced_either_leads
        ));
    }
    if cfg.minutes.is_some() || f.stopped {
        text.push_str(&format!("again     {}\n", doc.replay));
    }
    text.push_str(&format!(
        "written   {}/ (census.json, cycles.txt, deals.txt)\n",
        cfg.out.display()
    ));
    text
}
