//! The record search (issue 51, item 3): plain sampling of random deals, and backward joining,
//! which finds deals whose game joins a long game part-way and is longer.
//!
//! **Sampling** plays game `i` of a seed from `game_rng(seed, i)`, as `simulate bmn` does (in
//! the AVX2 lanes where they play this deck), and keeps the longest games that end. Deals are
//! played in fixed chunks of [`CHUNK`] indices and whole batches of chunks, and the kept games
//! are ordered by (cards, index), so the result depends on the seed and the deals played
//! alone, never on the threads.
//!
//! **Backward joining.** Every position has one successor (the position after its trick), so
//! the positions whose game reaches a given position form a tree rooted there. Take a long game
//! that ends, and the position before its last trick: every position of the game is in that
//! position's tree, on one path from the deal to the root, and so is every position whose game
//! joins this one later, hanging off that path (or off the deal itself: positions before it).
//! A balanced position of the tree (26 cards each, either player to lead: a position with
//! player 2 to lead is the deal with the seats swapped, whose game is the mirror image) is a
//! deal whose game plays the cards laid on its way to the root, then the last trick. Walking
//! the tree backward once ([`super::backward::Node::each_predecessor`], adding up each trick's
//! cards) therefore searches backward from every position along the game at once: a walk from
//! each position separately would walk the part of the tree below it again. The tree is finite
//! (no position repeats on the way to an end) but may be large, so the walk is bounded by the
//! positions it expands. Every deal it reports is played forward again, and kept only when its
//! game ends with exactly the cards and tricks the walk counted.
//!
//! The tree is the same for every deal whose game ends with the same last trick, so joining
//! again from a deal found by joining finds nothing new: the record search joins from several
//! sampled games (with different ends) instead, the longest first.
//!
//! No I/O here: the search's plan ([`super::search::report`]) bounds its time, and the
//! command (`search bmn --method sample`, `--method record`) shows progress and writes.

use std::ops::ControlFlow;

use rayon::prelude::*;

use super::backward::Node;
use super::{Bmn, Position};
use crate::cancel::Cancel;
use crate::games::{Game, Outcome};

/// Deals played as one piece of work: a fixed size, so threads never change which deals are
/// played together.
pub const CHUNK: u64 = 1 << 15;
/// Chunks played between two looks at the callback (and at the [`Cancel`]): about 0.15 s on
/// two threads in the lanes.
const BATCH_CHUNKS: u64 = 32;
/// Positions a join expands between two looks at the callback.
const JOIN_REPORT: u64 = 1 << 14;

/// A long game found: its deal (player 1's hand, then player 2's, top card first; player 1
/// leads) and its length.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Long {
    /// The deal, as [`Bmn::show_deal`] writes it.
    pub deck: Vec<u8>,
    /// Cards laid.
    pub cards: u64,
    /// Tricks.
    pub tricks: u64,
    /// Where the deal came from.
    pub how: How,
}

/// How a long game was found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum How {
    /// The deal a search was given to join from.
    Given,
    /// Game `index` of the seed's random deals.
    Sampled {
        /// The game's index: `game_rng(seed, index)` deals it.
        index: u64,
    },
    /// By backward joining from a base game: its game reaches the base game's position before
    /// trick `at_trick` (counted from 0, the deal's) and plays the rest of that game.
    Joined {
        /// The base game's deal.
        base: Vec<u8>,
        /// The base game's cards.
        base_cards: u64,
        /// The base game's position it reaches first (its trick index, from 0).
        at_trick: u64,
        /// Cards this game lays before it reaches that position.
        before: u64,
    },
}

/// Orders long games longest first, equal lengths by deal, so that any grouping of the work
/// keeps the same ones.
fn order(a: &Long, b: &Long) -> std::cmp::Ordering {
    b.cards.cmp(&a.cards).then_with(|| a.deck.cmp(&b.deck))
}

/// What to sample.
#[derive(Clone, Copy, Debug)]
pub struct SampleConfig {
    /// The seed: game `i` is dealt by `game_rng(seed, i)`.
    pub seed: u64,
    /// Deals to play at most: games `0..deals`.
    pub deals: u64,
    /// The longest games kept.
    pub keep: usize,
}

/// What sampling found.
#[derive(Clone, Debug, Default)]
pub struct Sampled {
    /// Deals played: games `0..deals`, a multiple of [`CHUNK`] unless all asked were played.
    pub deals: u64,
    /// Of them, games that never end.
    pub loops: u64,
    /// The longest games that end, longest first (equal lengths by index).
    pub best: Vec<Long>,
    /// Whether the callback or the [`Cancel`] stopped it before all the deals asked.
    pub stopped: bool,
}

/// The longest games, as (cards, tricks, index): kept sorted by cards, then index.
#[derive(Clone, Debug, Default)]
struct Top {
    keep: usize,
    games: Vec<(u64, u64, u64)>,
    /// The cards of the last game kept at the last cut, once `keep` were kept.
    floor: Option<u64>,
    loops: u64,
}

impl Top {
    /// Adds a game; the list may hold up to twice `keep` before it is cut, so that adding is
    /// cheap on average.
    fn add(&mut self, cards: u64, tricks: u64, index: u64) {
        if self.games.len() >= 2 * self.keep {
            self.sort_cut();
        }
        // Indices only grow within a range, so a game no longer than the cut loses to it.
        if self.floor.is_some_and(|f| f >= cards) {
            return;
        }
        self.games.push((cards, tricks, index));
    }

    /// Sorted by cards (longest first), then index, and cut to `keep`.
    fn sort_cut(&mut self) {
        self.games
            .sort_unstable_by(|a, b| b.0.cmp(&a.0).then_with(|| a.2.cmp(&b.2)));
        self.games.truncate(self.keep);
        self.floor = (self.games.len() == self.keep).then(|| self.games[self.keep - 1].0);
    }

    /// Both tops in one: the same whatever the grouping (the order is total).
    fn merge(mut self, other: Top) -> Top {
        self.games.extend(other.games);
        self.loops += other.loops;
        self.sort_cut();
        self
    }
}

/// Plays games `range` of `seed` (in the lanes where they fit) and keeps the longest.
/// `floor`: the cards of the last game kept so far, if `keep` are kept: the range's indices
/// all come after theirs, so a game no longer loses to every one of them.
fn sample_range(
    game: &Bmn,
    seed: u64,
    range: std::ops::Range<u64>,
    keep: usize,
    floor: Option<u64>,
) -> Top {
    let mut top = Top {
        keep,
        floor,
        ..Top::default()
    };
    let mut s = game.scratch();
    game.play_range(seed, range, &mut s, &mut |i, r| match r.outcome {
        Outcome::Player(_) => top.add(r.rounds, u64::from(r.stats.tricks), i),
        Outcome::Loop => top.loops += 1,
        _ => {}
    });
    top
}

/// Plays games `0..cfg.deals` of `cfg.seed` on the current rayon pool and keeps the
/// `cfg.keep` longest that end. `progress` hears the deals played after each batch (about
/// `BATCH_CHUNKS` chunks) and may stop the run there, as may `cancel`; what was played is
/// then a whole number of chunks, `0..deals`, so the same run with `deals` of that number
/// finds the same games.
pub fn sample(
    game: &Bmn,
    cfg: &SampleConfig,
    cancel: &Cancel,
    progress: &mut dyn FnMut(u64) -> ControlFlow<()>,
) -> Sampled {
    let keep = cfg.keep.max(1);
    let mut top = Top {
        keep,
        ..Top::default()
    };
    let mut played = 0u64;
    let mut stopped = false;
    while played < cfg.deals {
        if cancel.is_set() {
            stopped = true;
            break;
        }
        let end = played.saturating_add(BATCH_CHUNKS * CHUNK).min(cfg.deals);
        let chunks = (end - played).div_ceil(CHUNK);
        let first = played;
        let floor = top.floor;
        let batch = (0..chunks)
            .into_par_iter()
            .map(|c| {
                let a = first + c * CHUNK;
                sample_range(game, cfg.seed, a..(a + CHUNK).min(end), keep, floor)
            })
            .reduce(
                || Top {
                    keep,
                    ..Top::default()
                },
                Top::merge,
            );
        top = top.merge(batch);
        played = end;
        if played < cfg.deals && progress(played).is_break() {
            stopped = true;
            break;
        }
    }
    let best = top
        .games
        .iter()
        .map(|&(cards, tricks, index)| Long {
            deck: game.deal_of(cfg.seed, index),
            cards,
            tricks,
            how: How::Sampled { index },
        })
        .collect();
    Sampled {
        deals: played,
        loops: top.loops,
        best,
        stopped,
    }
}

/// How far a join may walk.
#[derive(Clone, Copy, Debug)]
pub struct JoinConfig {
    /// Positions expanded at most (each one's predecessors found): the walk's work.
    pub max_positions: u64,
    /// The longest deals kept.
    pub keep: usize,
}

/// What a join found.
#[derive(Clone, Debug)]
pub struct Joined {
    /// The base game's cards and tricks.
    pub base_cards: u64,
    /// The base game's tricks.
    pub base_tricks: u64,
    /// Positions expanded.
    pub positions: u64,
    /// Balanced positions met (the base's own deal and the positions of its game included).
    pub balanced: u64,
    /// Deals whose game is longer than the base's, longest first, each replayed forward to
    /// exactly its cards and tricks.
    pub longer: Vec<Long>,
    /// Deals played forward to check them.
    pub replayed: u64,
    /// Deals whose replay did not match the walk (none unless backward play is wrong; they are
    /// not kept).
    pub mismatched: u64,
    /// Whether the walk expanded every position of the tree (no bound, no stop).
    pub complete: bool,
    /// Whether the callback or the [`Cancel`] stopped it.
    pub stopped: bool,
}

/// Why a deal cannot be joined.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JoinError {
    /// The base game does not end (a loop, or the card cap): it has no last trick.
    NoEnd(Outcome),
    /// Its deal holds more cards than backward play holds.
    TooBig,
}

/// One position of the walk: the position, the cards and tricks its game lays to the end, and
/// the base game's position it reaches first (a trick index), `on_path` when it is that
/// position.
#[derive(Clone, Copy)]
struct Entry {
    node: Node,
    cards: u64,
    tricks: u64,
    joins: u32,
    on_path: bool,
}

/// Walks backward from the position before the last trick of the game of `deck` (player 1
/// leads), at most `cfg.max_positions` positions, and returns the deals whose game reaches
/// the base game's positions and so is longer than it, each played forward again to check
/// its cards and tricks. `progress` hears the positions expanded every `JOIN_REPORT` and may
/// stop the walk, as may `cancel`.
pub fn join(
    game: &Bmn,
    deck: &[u8],
    cfg: &JoinConfig,
    cancel: &Cancel,
    progress: &mut dyn FnMut(u64) -> ControlFlow<()>,
) -> Result<Joined, JoinError> {
    let base = Base::of(game, deck)?;
    let walked = walk(&base, cfg, cancel, progress);
    let (longer, replayed, mismatched) = replay_found(game, deck, &base, walked.found);
    Ok(Joined {
        base_cards: base.cards,
        base_tricks: base.tricks,
        positions: walked.positions,
        balanced: walked.balanced,
        longer,
        replayed,
        mismatched,
        complete: walked.complete,
        stopped: walked.stopped,
    })
}

/// The base game of a join: its cards and tricks, its position before each trick, and the
/// cards laid before each.
struct Base {
    cards: u64,
    tricks: u64,
    path: Vec<Node>,
    before: Vec<u64>,
}

impl Base {
    /// The game of `deck` (player 1 leads), if it ends and backward play holds its deal.
    fn of(game: &Bmn, deck: &[u8]) -> Result<Base, JoinError> {
        let half = deck.len() / 2;
        let base = game.play_deck(deck, &mut game.scratch());
        if !matches!(base.outcome, Outcome::Player(_)) {
            return Err(JoinError::NoEnd(base.outcome));
        }
        let mut p = Position::fitted(&deck[..half], &deck[half..], 0);
        let mut path = Vec::with_capacity(base.tricks as usize);
        let mut before = Vec::with_capacity(base.tricks as usize);
        let mut cards = 0u64;
        for _ in 0..base.tricks {
            let a: Vec<u8> = p.hands[0].cards().collect();
            let b: Vec<u8> = p.hands[1].cards().collect();
            path.push(Node::new(&a, &b, p.leader).map_err(|_| JoinError::TooBig)?);
            before.push(cards);
            cards += p.trick(u64::MAX).laid;
        }
        debug_assert_eq!(cards, base.cards);
        Ok(Base {
            cards: base.cards,
            tricks: base.tricks,
            path,
            before,
        })
    }
}

/// What the backward walk met: the balanced positions kept (each with its deal, the leader's
/// hand first), longest first, and the walk's counts.
struct Walked {
    found: Vec<(Entry, Vec<u8>)>,
    positions: u64,
    balanced: u64,
    complete: bool,
    stopped: bool,
}

/// The backward walk, depth first, from the base game's position before its last trick:
/// every predecessor of every position met, each knowing whether it is the base game's own
/// position (`on_path`) and so which of those it reaches first; stopped by the bound, the
/// cancel or `progress`.
fn walk(
    base: &Base,
    cfg: &JoinConfig,
    cancel: &Cancel,
    progress: &mut dyn FnMut(u64) -> ControlFlow<()>,
) -> Walked {
    let last = base.path.len() - 1;
    let mut stack = vec![Entry {
        node: base.path[last],
        cards: base.cards - base.before[last],
        tricks: 1,
        joins: last as u32,
        on_path: true,
    }];
    let mut found: Vec<(Entry, Vec<u8>)> = Vec::new();
    let (mut positions, mut balanced) = (0u64, 0u64);
    let mut stopped = false;
    while let Some(e) = stack.pop() {
        if positions >= cfg.max_positions {
            stack.push(e);
            break;
        }
        positions += 1;
        if positions.is_multiple_of(JOIN_REPORT)
            && (cancel.is_set() || progress(positions).is_break())
        {
            stopped = true;
            break;
        }
        if e.node.balanced() {
            balanced += 1;
            keep_found(&mut found, e, base.cards, cfg.keep.max(1));
        }
        let prev = (e.on_path && e.joins > 0).then(|| base.path[e.joins as usize - 1]);
        e.node.each_predecessor(&mut |q, laid| {
            let on_path = prev == Some(q);
            stack.push(Entry {
                node: q,
                cards: e.cards + laid as u64,
                tricks: e.tricks + 1,
                joins: if on_path { e.joins - 1 } else { e.joins },
                on_path,
            });
        });
    }
    Walked {
        found,
        positions,
        balanced,
        complete: stack.is_empty() && !stopped,
        stopped,
    }
}

/// Keeps balanced position `e` among the `keep` longest found, longest first (then by deal),
/// where its game is longer than the base's (`base_cards`) and its deal is not kept already.
fn keep_found(found: &mut Vec<(Entry, Vec<u8>)>, e: Entry, base_cards: u64, keep: usize) {
    let kept_enough = found.len() >= keep && found.last().is_some_and(|f| f.0.cards >= e.cards);
    if e.cards <= base_cards || kept_enough {
        return;
    }
    let deal = e.node.leader_first();
    if !found.iter().any(|f| f.1 == deal) {
        found.push((e, deal));
        found.sort_by(|a, b| b.0.cards.cmp(&a.0.cards).then_with(|| a.1.cmp(&b.1)));
        found.truncate(keep);
    }
}

/// Plays each deal `found` forward again and keeps, as [`Long`]s joined from `deck`, longest
/// first, those whose game is what the walk said; with the deals replayed and those that did
/// not match.
fn replay_found(
    game: &Bmn,
    deck: &[u8],
    base: &Base,
    found: Vec<(Entry, Vec<u8>)>,
) -> (Vec<Long>, u64, u64) {
    let mut s = game.scratch();
    let (mut replayed, mut mismatched) = (0u64, 0u64);
    let mut longer = Vec::new();
    for (e, deal) in found {
        let p = game.play_deck(&deal, &mut s);
        replayed += 1;
        if !matches!(p.outcome, Outcome::Player(_)) || p.cards != e.cards || p.tricks != e.tricks {
            mismatched += 1;
            continue;
        }
        let at = e.joins as usize;
        longer.push(Long {
            deck: deal,
            cards: e.cards,
            tricks: e.tricks,
            how: How::Joined {
                base: deck.to_vec(),
                base_cards: base.cards,
                at_trick: at as u64,
                before: e.cards - (base.cards - base.before[at]),
            },
        });
    }
    longer.sort_by(order);
    (longer, replayed, mismatched)
}

/// What the record search does: sample, then join from the longest games sampled.
#[derive(Clone, Copy, Debug)]
pub struct RecordConfig {
    /// The seed of the deals sampled.
    pub seed: u64,
    /// Deals sampled at most (games `0..deals`).
    pub deals: u64,
    /// The longest games sampled that become bases of a join, longest first (0: none, plain
    /// sampling).
    pub bases: usize,
    /// Positions each join expands at most.
    pub max_positions: u64,
    /// The longest games kept in the result.
    pub keep: usize,
}

/// Where the record search stands, for progress and for stopping it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// Sampling: deals played so far.
    Sampling(u64),
    /// Joining: bases joined so far, of those to join.
    Joining(usize, usize),
}

/// What the record search found.
#[derive(Clone, Debug)]
pub struct Record {
    /// What sampling found (its `best`: the bases, longest first).
    pub sampled: Sampled,
    /// Bases joined (the first of `sampled.best`), whole batches unless all were.
    pub joined: usize,
    /// Positions the joins expanded.
    pub positions: u64,
    /// Deals the joins played forward to check them.
    pub replayed: u64,
    /// Deals whose replay did not match backward play (none unless it is wrong; not kept).
    pub mismatched: u64,
    /// Joins the position bound cut short.
    pub incomplete: usize,
    /// The longest games found, sampled or joined, longest first (distinct deals).
    pub best: Vec<Long>,
    /// Whether the [`Cancel`] stopped it (the callback's stops are the time's: they show in
    /// the deals sampled and the bases joined).
    pub stopped: bool,
}

/// Bases joined between two looks at the callback (in parallel).
const JOIN_BATCH: usize = 32;

/// Samples `cfg.deals` deals keeping the `cfg.bases` longest games that end, then joins from
/// each of them, the longest first, on the current rayon pool. `progress` hears of each batch
/// of either and may stop the stage it is in: a stop while sampling goes on to the joins (so a
/// search for a time gives sampling its share of the time), a stop while joining ends the
/// search; `cancel` stops both (no base is joined once it is set). The result depends on the deals sampled and the bases joined
/// alone (each a whole number of batches when stopped), never on the threads.
pub fn record(
    game: &Bmn,
    cfg: &RecordConfig,
    cancel: &Cancel,
    progress: &mut dyn FnMut(Stage) -> ControlFlow<()>,
) -> Record {
    let sampled = sample(
        game,
        &SampleConfig {
            seed: cfg.seed,
            deals: cfg.deals,
            keep: cfg.bases.max(cfg.keep),
        },
        cancel,
        &mut |n| progress(Stage::Sampling(n)),
    );
    let jc = JoinConfig {
        max_positions: cfg.max_positions,
        keep: cfg.keep,
    };
    let mut best: Vec<Long> = sampled.best.iter().take(cfg.keep).cloned().collect();
    let (mut positions, mut replayed, mut mismatched, mut incomplete) = (0, 0, 0, 0);
    let mut joined = 0;
    let bases = &sampled.best[..cfg.bases.min(sampled.best.len())];
    while joined < bases.len() && !cancel.is_set() {
        let end = (joined + JOIN_BATCH).min(bases.len());
        let results: Vec<Joined> = bases[joined..end]
            .par_iter()
            .filter_map(|b| {
                join(game, &b.deck, &jc, &Cancel::default(), &mut |_| {
                    ControlFlow::Continue(())
                })
                .ok()
            })
            .collect();
        for j in results {
            positions += j.positions;
            replayed += j.replayed;
            mismatched += j.mismatched;
            incomplete += usize::from(!j.complete);
            best.extend(j.longer);
        }
        best.sort_by(order);
        best.dedup_by(|a, b| a.deck == b.deck);
        best.truncate(cfg.keep.max(1));
        joined = end;
        if joined < bases.len() && progress(Stage::Joining(joined, bases.len())).is_break() {
            break;
        }
    }
    Record {
        sampled,
        joined,
        positions,
        replayed,
        mismatched,
        incomplete,
        best,
        stopped: cancel.is_set(),
    }
}

/// The record search from one deal (a record, say) instead of sampled games: joins from it
/// alone; its result lists the deal itself and the longer deals found. `progress` hears
/// `Stage::Joining(0, 1)` every so many positions and may stop the walk, as may `cancel`.
pub fn record_from(
    game: &Bmn,
    deck: &[u8],
    cfg: &RecordConfig,
    cancel: &Cancel,
    progress: &mut dyn FnMut(Stage) -> ControlFlow<()>,
) -> Record {
    let jc = JoinConfig {
        max_positions: cfg.max_positions,
        keep: cfg.keep,
    };
    let j = join(game, deck, &jc, cancel, &mut |_| {
        progress(Stage::Joining(0, 1))
    });
    let mut rec = Record {
        sampled: Sampled::default(),
        joined: 0,
        positions: 0,
        replayed: 0,
        mismatched: 0,
        incomplete: 0,
        best: Vec::new(),
        stopped: cancel.is_set(),
    };
    if let Ok(j) = j {
        rec.joined = 1;
        rec.positions = j.positions;
        rec.replayed = j.replayed;
        rec.mismatched = j.mismatched;
        rec.incomplete = usize::from(!j.complete);
        rec.best = j.longer;
        rec.best.push(Long {
            deck: deck.to_vec(),
            cards: j.base_cards,
            tricks: j.base_tricks,
            how: How::Given,
        });
        rec.best.sort_by(order);
        rec.best.truncate(cfg.keep.max(1));
    }
    rec
}

#[cfg(test)]
#[path = "record_tests.rs"]
mod tests;
