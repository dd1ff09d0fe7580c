//! `search bmn --loops`: the core's loop search (`warsim_core::games::bmn::search::loops`)
//! from its seed cycles (Casella's under the standard rules, or the cycle `--from` enters),
//! written as search.json and best.txt.

use anyhow::Result;
use serde::Serialize;

use super::{Listed, SearchConfig};
use crate::games::bmn::backward::{fate, Fate};
use crate::games::bmn::search::loops::{
    canonical, first_finds, standard, Cycle, LoopWalk, LoopWalker, CASELLA, MAX_TRICKS,
};
use crate::games::bmn::{Bmn, BmnRules, Position, DEFAULT_MAX_ROUNDS};
use crate::games::Game;
use crate::model::summary::Provenance;
use crate::stats::summary::{counted, grouped};
use crate::term::stdout::{self, Print};
use crate::usage;

/// search.json of a loop search.
#[derive(Debug, Serialize)]
struct LoopsJson<'a> {
    game: &'static str,
    mode: &'static str,
    description: String,
    rules: &'a BmnRules,
    seed: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    from: Option<&'a str>,
    tries: u64,
    stopped: bool,
    replay: String,
    walkers: u32,
    max_tricks: u64,
    seeds: Vec<Listed<Cycle>>,
    cycles: Vec<Listed<Cycle>>,
    looped: u64,
    ended: u64,
    undecided: u64,
    elapsed_s: f64,
    tries_per_s: f64,
    threads: usize,
    provenance: Provenance,
}

/// The cycle the position of `deal` enters, as a seed of the search.
pub(super) fn seed_of(game: &Bmn, deal: &str) -> Result<(Position, u64)> {
    let [a, b] = super::parse_from(game, deal, "search --loops")?;
    match fate(&Position::dealt(&a, &b), MAX_TRICKS) {
        Fate::Cycle(on, tricks) => Ok((on, tricks)),
        Fate::Ends(_) => Err(usage!(
            "search --loops: --from {deal:?}: this deal's game ends; give a deal that never ends \
             (its cycle seeds the search)"
        )
        .into()),
        Fate::Undecided => Err(usage!(
            "search --loops: --from {deal:?}: no cycle within {} tricks",
            grouped(MAX_TRICKS)
        )
        .into()),
    }
}

/// Refuses a card cap: a try is played up to [`MAX_TRICKS`] tricks, not to a number of cards,
/// and a cycle is found exactly, so the cap could only make the positions written replay as
/// capped games.
pub(super) fn check_cap(game: &Bmn) -> Result<()> {
    if game.max_rounds() != DEFAULT_MAX_ROUNDS {
        return Err(usage!(
            "search --loops: --max-rounds {}: a try is played up to {} tricks, whatever the \
             cards, and every cycle is found exactly; leave --max-rounds out",
            game.max_rounds(),
            grouped(MAX_TRICKS)
        )
        .into());
    }
    Ok(())
}

/// `search bmn --loops`: runs the walkers from the seed cycles, writes search.json and best.txt.
pub fn run(game: &Bmn, cfg: &SearchConfig) -> Result<()> {
    check_cap(game)?;
    let from = cfg.from.as_deref().or(standard(game).then_some(CASELLA));
    let seeds: Vec<(Position, u64)> = from
        .map(|d| seed_of(game, d))
        .transpose()?
        .into_iter()
        .collect();
    let prepared = super::drive::prepare(game, cfg)?;
    let mut walkers: Vec<LoopWalker> = (0..cfg.walkers)
        .map(|w| LoopWalker::new(game, cfg.seed, w, &seeds))
        .collect();
    let played = prepared.drive(cfg, &mut walkers, |w, n, p| w.walk(n, p));
    let tries = played.per_walker * u64::from(cfg.walkers);
    let elapsed_s = prepared.start.elapsed().as_secs_f64();
    let walks: Vec<LoopWalk> = walkers.into_iter().map(|w| w.out).collect();
    let listed = |c: Cycle| Listed {
        replay: super::replay::play_loop(game.rules(), &c.position),
        found: c,
    };
    let doc = LoopsJson {
        game: Bmn::NAME,
        mode: "loops",
        description: game.describe(),
        rules: game.rules(),
        seed: cfg.seed,
        from,
        tries,
        stopped: played.stopped,
        replay: super::replay::search(game.rules(), cfg, tries, elapsed_s / 3600.0),
        walkers: cfg.walkers,
        max_tricks: MAX_TRICKS,
        seeds: seeds
            .iter()
            .map(|(p, t)| listed(canonical(game, p, *t)))
            .collect(),
        cycles: first_finds(&walks).into_iter().map(listed).collect(),
        looped: walks.iter().map(|w| w.looped).sum(),
        ended: walks.iter().map(|w| w.ended).sum(),
        undecided: walks.iter().map(|w| w.undecided).sum(),
        elapsed_s,
        tries_per_s: tries as f64 / elapsed_s.max(1e-9),
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
        Print::Text | Print::Markdown => stdout::write_all(text(cfg, &doc).as_bytes())?,
    }
    super::stopped(played, "tries", cfg)
}

/// `cycle ID: T tricks, C cards`.
fn named(c: &Cycle) -> String {
    let (t, n) = (counted(c.tricks, "trick"), counted(c.cards, "card"));
    format!("cycle {}: {t}, {n}", c.id)
}

/// best.txt: each cycle's canonical position as a `play` command, seeds first.
fn best_txt(doc: &LoopsJson) -> String {
    let mut out = String::from(
        "# Each cycle's canonical position as a deal (the leader's hand first), seeds first; \
         each line replays one.\n",
    );
    for c in doc.seeds.iter().chain(&doc.cycles) {
        out.push_str(&format!("{}   # {}\n", c.replay, named(&c.found)));
    }
    out
}

/// What the terminal shows of a loop search.
fn text(cfg: &SearchConfig, doc: &LoopsJson) -> String {
    let mut text = format!(
        "search bmn --loops — {}\n{} tries by {} walkers, seed {}, {:.1} s ({} tries/s){}\n",
        doc.description,
        grouped(doc.tries),
        cfg.walkers,
        cfg.seed,
        doc.elapsed_s,
        grouped(doc.tries_per_s as u64),
        if doc.stopped { ", stopped" } else { "" }
    );
    for c in doc.seeds.iter() {
        text.push_str(&format!("seed      {}\n", named(&c.found)));
    }
    text.push_str(&format!(
        "tries     {} fell into a cycle, {} ended, {} undecided after {} tricks\n\
         found     {} new cycles\n",
        grouped(doc.looped),
        grouped(doc.ended),
        grouped(doc.undecided),
        grouped(MAX_TRICKS),
        doc.cycles.len()
    ));
    for c in doc.cycles.iter().take(10) {
        text.push_str(&format!(
            "cycle     {}: {}\n",
            &named(&c.found)[6..],
            c.replay
        ));
    }
    text.push_str(&super::closing(cfg, doc.stopped, &doc.replay));
    text
}
