//! `search bmn --loops`: a search for cycles, positions whose play returns to them forever.
//!
//! Random deals almost never loop (one known 52-card cycle in the whole history of the
//! problem; 250 million random positions played here gave none), so the search does not draw
//! positions at random. It starts from positions on cycles it knows (Casella et al.'s for the
//! standard deck, or the cycle `--from DEAL` enters), changes each a little (one to three
//! moves: two cards swapped, or one card moved to another place, in
//! either hand) and plays the result forward with Brent's algorithm: a position that ends in a
//! cycle not seen before joins the walker's pool, so the search spreads from every cycle it
//! finds, as Andorno et al.'s "adaptive insertion" grows cycles from known ones.
//!
//! A cycle is named by its canonical position: of all the positions on it, each written with
//! the leader's hand first (so the two players' names do not matter), the least; its id is a
//! hash of that position. Walkers draw only from their own generators and grow only their own
//! pools, so the cycles found depend on the seed, the tries and the walkers, never on the
//! threads.

use std::collections::HashSet;

use anyhow::Result;
use serde::Serialize;

use super::SearchConfig;
use crate::games::bmn::backward::{fate, Fate};
use crate::games::bmn::{Bmn, BmnRules, Position, DEFAULT_MAX_ROUNDS};
use crate::games::cards::{bounded, shuffle};
use crate::games::Game;
use crate::model::summary::Provenance;
use crate::rng::{game_rng, GameRng};
use crate::stats::summary::{counted, grouped};
use crate::term::progress::Progress;
use crate::term::stdout::{self, Print};
use crate::usage;

/// Casella et al.'s never-ending deal (arXiv 2403.13855, 2024): the seed of the search under
/// the standard rules.
pub const CASELLA: &str = "---K---Q-KQAJ-----AAJ--J--/----------Q----KQ-J-----KA";

/// Tricks a changed position is played for before it counts as undecided: random positions
/// end within about 1,200 tricks, and the cycles known are 62 tricks (52 cards) or shorter.
pub const MAX_TRICKS: u64 = 1 << 16;

/// A cycle, as search.json lists it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CycleFound {
    /// A hash of the canonical position: 16 hexadecimal digits.
    pub id: String,
    /// Tricks in one turn of the cycle.
    pub tricks: u64,
    /// Cards laid in one turn.
    pub cards: u64,
    /// The canonical position as a deal (`play bmn --deal` replays it: the leader's hand first).
    pub position: String,
    /// The walker that found it, and after how many of its tries; `None` for a seed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub walker: Option<u32>,
    /// The walker's tries when it found it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub at: Option<u64>,
    /// The command that plays the position ([`super::replay::play_loop`]).
    pub replay: String,
}

/// A position written with the leader's hand first, a separator, then the other hand: equal
/// for two positions that differ only in the players' names.
fn key(p: &Position) -> Vec<u8> {
    let mut k: Vec<u8> = p.hands[p.leader].cards().collect();
    k.push(u8::MAX);
    k.extend(p.hands[p.leader ^ 1].cards());
    k
}

/// FNV-1a, 64 bits: a stable hash (the id must not change between builds or machines).
fn fnv(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The cycle through `on`, `tricks` tricks long: its canonical position, id and cards.
pub fn canonical(game: &Bmn, on: &Position, tricks: u64) -> CycleFound {
    let mut p = *on;
    let mut best = (key(&p), p);
    let mut cards = 0;
    for _ in 0..tricks {
        cards += p.trick(u64::MAX).laid;
        let k = key(&p);
        if k < best.0 {
            best = (k, p);
        }
    }
    let position = game.show_position(&best.1);
    CycleFound {
        id: format!("{:016x}", fnv(&best.0)),
        tricks,
        cards,
        replay: super::replay::play_loop(game.rules(), &position),
        position,
        walker: None,
        at: None,
    }
}

/// Adds the key of every position of the cycle through `on`, `tricks` tricks long, to `known`.
fn learn(known: &mut HashSet<Vec<u8>>, on: &Position, tricks: u64) {
    let mut p = *on;
    for _ in 0..tricks {
        known.insert(key(&p));
        p.trick(u64::MAX);
    }
}

/// What one walker found, and how its tries ended.
#[derive(Debug, Default)]
pub struct LoopWalk {
    /// Cycles new to this walker, in the order found.
    pub found: Vec<CycleFound>,
    /// Tries that ended in a cycle (a known one or a new one).
    pub looped: u64,
    /// Tries whose game ended.
    pub ended: u64,
    /// Tries neither ended nor seen to loop within [`MAX_TRICKS`].
    pub undecided: u64,
}

/// One walker of the loop search: its generator, its pool of positions on cycles (the seeds'
/// and its own finds'), and what it found.
pub struct LoopWalker<'a> {
    game: &'a Bmn,
    w: u32,
    rng: GameRng,
    pool: Vec<(Position, u64)>,
    /// Every position of every cycle the walker knows, as [`key`] writes it: a try that falls
    /// into a known cycle is told by one lookup, without walking the cycle to name it.
    known: HashSet<Vec<u8>>,
    cards: Vec<u8>,
    done: u64,
    /// What it found so far.
    pub out: LoopWalk,
}

impl<'a> LoopWalker<'a> {
    /// Walker `w` of a search with base `seed`, starting from the cycles `seeds` (positions
    /// on them and their lengths in tricks); with none, from random positions.
    pub fn new(game: &'a Bmn, seed: u64, w: u32, seeds: &[(Position, u64)]) -> Self {
        let mut known = HashSet::new();
        for (p, t) in seeds {
            learn(&mut known, p, *t);
        }
        LoopWalker {
            game,
            w,
            rng: game_rng(seed, u64::from(w)),
            pool: seeds.to_vec(),
            known,
            cards: Vec::with_capacity(game.deck().len()),
            done: 0,
            out: LoopWalk::default(),
        }
    }

    /// The position of the next try: a position on a cycle of the pool, a random number of
    /// tricks along it, changed by one to three moves; with an empty pool, a random position.
    fn next_position(&mut self) -> Position {
        let rng = &mut self.rng;
        let cards = &mut self.cards;
        let n = self.game.deck().len();
        if self.pool.is_empty() {
            cards.clear();
            cards.extend_from_slice(self.game.deck());
            shuffle(rng, cards);
            let split = 1 + bounded(rng, n as u32 - 1) as usize;
            let mut p = Position::dealt(&cards[..split], &cards[split..]);
            p.leader = bounded(rng, 2) as usize;
            return p;
        }
        let (mut p, tricks) = self.pool[bounded(rng, self.pool.len() as u32) as usize];
        for _ in 0..bounded(rng, tricks as u32) {
            p.trick(u64::MAX);
        }
        cards.clear();
        cards.extend(p.hands[0].cards());
        let mut split = cards.len();
        cards.extend(p.hands[1].cards());
        for _ in 0..=bounded(rng, 3) {
            let i = bounded(rng, n as u32) as usize;
            if bounded(rng, 2) == 0 {
                let j = bounded(rng, n as u32) as usize;
                cards.swap(i, j);
            } else {
                // Moves card i to place j of the sequence of both hands; the split moves
                // with it when the card leaves one hand for the other.
                let c = cards.remove(i);
                let j = bounded(rng, n as u32) as usize;
                cards.insert(j, c);
                match (i < split, j < split) {
                    (true, false) => split -= 1,
                    (false, true) => split += 1,
                    _ => {}
                }
            }
        }
        let split = split.clamp(1, n - 1);
        let leader = p.leader;
        let mut p = Position::dealt(&cards[..split], &cards[split..]);
        p.leader = leader;
        p
    }

    /// Plays `tries` more tries.
    pub fn walk(&mut self, tries: u64, progress: &Progress) {
        // Progress counts this batch's tries (a batch may be smaller than a report).
        let mut reported = 0;
        for k in 1..=tries {
            let p = self.next_position();
            self.done += 1;
            if k.is_multiple_of(1024) {
                progress.inc(1024);
                reported += 1024;
            }
            match fate(&p, MAX_TRICKS) {
                Fate::Ends(_) => self.out.ended += 1,
                Fate::Undecided => self.out.undecided += 1,
                Fate::Cycle(on, tricks) => {
                    self.out.looped += 1;
                    if !self.known.contains(&key(&on)) {
                        learn(&mut self.known, &on, tricks);
                        let mut c = canonical(self.game, &on, tricks);
                        c.walker = Some(self.w);
                        c.at = Some(self.done);
                        self.out.found.push(c);
                        self.pool.push((on, tricks));
                    }
                }
            }
        }
        progress.inc(tries - reported);
    }
}

/// search.json of a loop search.
#[derive(Debug, Serialize)]
struct LoopsJson<'a> {
    game: &'static str,
    mode: &'static str,
    description: String,
    rules: &'a BmnRules,
    seed: u64,
    /// The deal whose cycle seeded the search (`--from`, or Casella's).
    #[serde(skip_serializing_if = "Option::is_none")]
    from: Option<&'a str>,
    /// Tries played: all asked for, or those the time allowed or an interrupt left.
    tries: u64,
    /// Whether an interrupt stopped the search before the tries or the time asked for.
    stopped: bool,
    /// The command that plays this search again (`--deals` of the tries played).
    replay: String,
    walkers: u32,
    max_tricks: u64,
    /// The cycles the search started from.
    seeds: Vec<CycleFound>,
    /// Every cycle found that is not a seed, first found first.
    cycles: Vec<CycleFound>,
    /// Tries that ended in a cycle, a seed's or a new one.
    looped: u64,
    ended: u64,
    undecided: u64,
    elapsed_s: f64,
    tries_per_s: f64,
    threads: usize,
    provenance: Provenance,
}

/// The cycle the position of `deal` enters, as a seed of the search.
fn seed_of(game: &Bmn, deal: &str) -> Result<(Position, u64)> {
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
fn check_cap(game: &Bmn) -> Result<()> {
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
    let standard = game.rules().ranks == 13
        && game.rules().suits == 4
        && game.rules().penalties.0 == [1, 2, 3, 4];
    let from = cfg.from.as_deref().or(standard.then_some(CASELLA));
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
    // The first find of each cycle, in the order (walker, try): the same whatever the threads.
    let mut cycles: Vec<CycleFound> = Vec::new();
    for c in walks.iter().flat_map(|w| &w.found) {
        if !cycles.iter().any(|k| k.id == c.id) {
            cycles.push(c.clone());
        }
    }
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
        seeds: seeds.iter().map(|(p, t)| canonical(game, p, *t)).collect(),
        cycles,
        looped: walks.iter().map(|w| w.looped).sum(),
        ended: walks.iter().map(|w| w.ended).sum(),
        undecided: walks.iter().map(|w| w.undecided).sum(),
        elapsed_s,
        tries_per_s: tries as f64 / elapsed_s.max(1e-9),
        threads: prepared.threads,
        provenance: Provenance::now(),
    };
    let dir = prepared.set.dir();
    dir.write_json("search.json", &doc)?;
    let mut best_txt = String::from(
        "# Each cycle's canonical position as a deal (the leader's hand first), seeds first; \
         each line replays one.\n",
    );
    for c in doc.seeds.iter().chain(&doc.cycles) {
        best_txt.push_str(&format!(
            "{}   # cycle {}: {}, {}\n",
            c.replay,
            c.id,
            counted(c.tricks, "trick"),
            counted(c.cards, "card")
        ));
    }
    dir.write("best.txt", best_txt.as_bytes())?;
    prepared.set.commit()?;
    match cfg.print {
        Print::Json => stdout::print_json(&doc)?,
        Print::Nothing => {}
        Print::Text | Print::Markdown => stdout::write_all(text(cfg, &doc).as_bytes())?,
    }
    super::stopped(played, "tries", cfg)
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
        text.push_str(&format!(
            "seed      cycle {}: {}, {}\n",
            c.id,
            counted(c.tricks, "trick"),
            counted(c.cards, "card")
        ));
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
            "cycle     {}: {}, {}: {}\n",
            c.id,
            counted(c.tricks, "trick"),
            counted(c.cards, "card"),
            c.replay
        ));
    }
    text.push_str(&super::closing(cfg, doc.stopped, &doc.replay));
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::term::progress::When;

    fn standard() -> Bmn {
        Bmn::new(BmnRules::britannica(13, 4, [1, 2, 3, 4])).unwrap()
    }

    fn position(game: &Bmn, deal: &str) -> Position {
        let [a, b] = game.parse_deal(deal).unwrap();
        Position::dealt(&a, &b)
    }

    /// Casella's deal enters a 62-trick cycle (the paper's count); every position on it has
    /// the same canonical name, and so has each with the players' names swapped.
    #[test]
    fn casellas_cycle_has_one_name_from_every_position_on_it() {
        let game = standard();
        let Fate::Cycle(on, tricks) = fate(&position(&game, CASELLA), MAX_TRICKS) else {
            panic!("Casella's deal must loop");
        };
        assert_eq!(tricks, 62);
        let name = canonical(&game, &on, tricks);
        let mut p = on;
        for _ in 0..tricks {
            p.trick(u64::MAX);
            assert_eq!(canonical(&game, &p, tricks), name);
            let mut swapped = p;
            swapped.hands.swap(0, 1);
            swapped.leader ^= 1;
            assert_eq!(canonical(&game, &swapped, tricks), name);
        }
        // The canonical position replays into the same cycle as a deal.
        let again = position(&game, &name.position);
        let Fate::Cycle(on2, t2) = fate(&again, MAX_TRICKS) else {
            panic!("the canonical position must loop");
        };
        assert_eq!(canonical(&game, &on2, t2), name);
    }

    /// A deal that ends is no cycle, and a cap too small to see either is undecided.
    #[test]
    fn an_ending_game_ends_and_a_short_cap_is_undecided() {
        let game = standard();
        let ends = position(
            &game,
            &format!("{}/{}", "-".repeat(26), "JJJJQQQQKKKKAAAA----------"),
        );
        assert!(matches!(fate(&ends, MAX_TRICKS), Fate::Ends(_)));
        assert!(matches!(
            fate(&position(&game, CASELLA), 3),
            Fate::Undecided
        ));
    }

    /// Walkers with the same seed find the same cycles, batch by batch or at once.
    #[test]
    fn a_walker_is_the_same_in_batches() {
        let game = standard();
        let Fate::Cycle(on, tricks) = fate(&position(&game, CASELLA), MAX_TRICKS) else {
            panic!("Casella's deal must loop");
        };
        let progress = Progress::new(0, When::Never);
        let mut once = LoopWalker::new(&game, 7, 3, &[(on, tricks)]);
        once.walk(1_100, &progress);
        // Progress hears of each try once, though the second batch crosses a report.
        let counted = std::sync::Arc::new(crate::term::progress::Shared::default());
        crate::term::progress::count_for_host(counted.clone());
        let progress = Progress::new(1_100, When::Never);
        let mut twice = LoopWalker::new(&game, 7, 3, &[(on, tricks)]);
        twice.walk(1_000, &progress);
        twice.walk(100, &progress);
        let done = counted.done.load(std::sync::atomic::Ordering::Relaxed);
        assert_eq!(done, 1_100);
        assert_eq!(once.out.found, twice.out.found);
        assert_eq!(
            (once.out.looped, once.out.ended, once.out.undecided),
            (twice.out.looped, twice.out.ended, twice.out.undecided)
        );
        assert_eq!(once.out.looped + once.out.ended + once.out.undecided, 1_100);
        assert!(
            once.out.looped > 0,
            "some changed positions fall back into the cycle"
        );
    }
}
