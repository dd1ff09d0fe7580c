//! A search run ([`Plan::run`]) and what it reports: one document a mode, each opening with
//! the same [`Header`] and serialized as search.json (census.json, reaching.json) holds it.
//!
//! The core names no command, so the commands that play again what a search found (each deal
//! listed, and the search itself) are written by the face that runs it, through [`Replays`]:
//! the command line's are `warsim play bmn --deal '…'` lines.

use std::cell::Cell;
use std::ops::ControlFlow;
use std::time::Instant;

use serde::Serialize;

use super::census::{census, Census, CensusConfig};
use super::climb::{self, Found, Walker, RESTART};
use super::construct::{family_verdict, FamilyVerdict};
use super::header::{Header, Listed, Replays};
use super::insert::sixteen;
use super::loops::{canonical, first_finds, standard, Cycle, LoopWalk, LoopWalker, MAX_TRICKS};
use super::plan::{Mode, Plan, Seeds, ROUND_TRIES};
use super::reaching::ReachingReport;
use super::{play_in_batches, Report};
use crate::cancel::Cancel;
use crate::games::bmn::record::{self, How, Long, RecordConfig, Stage};
use crate::games::bmn::Bmn;

/// Positions a census's basin walk may hold: the 52-card basins known hold a few thousand.
const CENSUS_POSITIONS: u64 = 1 << 20;

/// Positions one join expands at most: the walks from the published records expand about
/// 60,000, from random long deals fewer.
const JOIN_POSITIONS: u64 = 1 << 26;

/// The share of a search for a time that sampling takes before joining (the joins take the
/// rest, and stop when the time is up).
const SAMPLE_SHARE: f64 = 0.95;

/// What a search reports, one document a mode.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Serialize)]
#[serde(untagged)]
pub enum SearchReport {
    /// The record climb.
    Climb(ClimbReport),
    /// The loop search.
    Loops(LoopsReport),
    /// The census of cycles.
    Census(CensusReport),
    /// Sampling, or sampling then joining.
    Record(RecordReport),
    /// A walk backward from a cycle.
    Reaching(ReachingReport),
}

impl SearchReport {
    /// What the document opens with.
    pub fn head(&self) -> &Header {
        match self {
            SearchReport::Climb(r) => &r.head,
            SearchReport::Loops(r) => &r.head,
            SearchReport::Census(r) => &r.head,
            SearchReport::Record(r) => &r.head,
            SearchReport::Reaching(r) => &r.head,
        }
    }

    /// Whether the cancel stopped the search before the deals or the time asked for.
    pub fn stopped(&self) -> bool {
        match self {
            SearchReport::Climb(r) => r.stopped,
            SearchReport::Loops(r) => r.stopped,
            SearchReport::Census(r) => r.census.stopped,
            SearchReport::Record(r) => r.stopped,
            SearchReport::Reaching(_) => false,
        }
    }

    /// The command that plays the search again (a walk backward has none: it is its deal's).
    pub fn replay(&self) -> Option<&str> {
        match self {
            SearchReport::Climb(r) => Some(&r.replay),
            SearchReport::Loops(r) => Some(&r.replay),
            SearchReport::Census(r) => Some(&r.replay),
            SearchReport::Record(r) => Some(&r.replay),
            SearchReport::Reaching(_) => None,
        }
    }
}

/// search.json of a record climb.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Serialize)]
#[non_exhaustive]
pub struct ClimbReport {
    /// The game, the rules, the seed and the deal started from.
    #[serde(flatten)]
    pub head: Header,
    /// Deals played.
    pub deals: u64,
    /// Whether the cancel stopped it before the deals or the time asked for.
    pub stopped: bool,
    /// The command that plays this search again.
    pub replay: String,
    /// Walkers.
    pub walkers: u32,
    /// Swaps without a longer game before a walker starts again.
    pub restart_after: u64,
    /// The longest deals, longest first.
    pub best: Vec<Listed<Found>>,
    /// Deals that never end, all counted.
    pub loops_found: u64,
    /// Deals that never end, the first kept of each.
    pub loops: Vec<Listed<Found>>,
    /// Deals whose game reached the round cap: neither ended nor seen to loop, so never listed.
    pub capped: u64,
    /// Seconds the search took.
    pub elapsed_s: f64,
    /// Deals played a second.
    pub deals_per_s: f64,
    /// Threads it played on.
    pub threads: usize,
}

/// search.json of a loop search.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Serialize)]
#[non_exhaustive]
pub struct LoopsReport {
    /// The game, the rules, the seed and the deal whose cycle seeded it.
    #[serde(flatten)]
    pub head: Header,
    /// Tries played.
    pub tries: u64,
    /// Whether the cancel stopped it.
    pub stopped: bool,
    /// The command that plays this search again.
    pub replay: String,
    /// Walkers.
    pub walkers: u32,
    /// Tricks a try is played for before it counts as undecided.
    pub max_tricks: u64,
    /// The cycles it started from.
    pub seeds: Vec<Listed<Cycle>>,
    /// The cycles found, the first find of each.
    pub cycles: Vec<Listed<Cycle>>,
    /// Tries that fell into a cycle.
    pub looped: u64,
    /// Tries whose game ended.
    pub ended: u64,
    /// Tries neither ended nor seen to loop.
    pub undecided: u64,
    /// Seconds the search took.
    pub elapsed_s: f64,
    /// Tries played a second.
    pub tries_per_s: f64,
    /// Threads it played on.
    pub threads: usize,
}

/// census.json.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Serialize)]
#[non_exhaustive]
pub struct CensusReport {
    /// The game, the rules, the seed and the deal whose cycle seeded it.
    #[serde(flatten)]
    pub head: Header,
    /// Walkers a round.
    pub walkers: u32,
    /// Tries a walker plays a round.
    pub tries_per_round: u64,
    /// The command that plays this census again.
    pub replay: String,
    /// Cycles with a balanced deal entering them (or their mirror image).
    pub reached_from_a_deal: usize,
    /// Balanced deals entering a cycle or its mirror, summed over the cycles.
    pub balanced_either_leads: usize,
    /// Balanced deals with player 1 to lead, summed over the cycles.
    pub balanced_player_1_leads: usize,
    /// What the census found.
    #[serde(flatten)]
    pub census: Census,
    /// The exact construction over the pieces of the family of the first cycle, if it is of
    /// the known 52-card family.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub construction: Option<FamilyVerdict>,
    /// Seconds the rounds took.
    pub elapsed_s: f64,
    /// Threads it played on.
    pub threads: usize,
}

/// search.json of sampling, or of sampling then joining.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Serialize)]
#[non_exhaustive]
pub struct RecordReport {
    /// The game, the rules, the method, the seed and the deal joined from.
    #[serde(flatten)]
    pub head: Header,
    /// Deals sampled (games `0..deals` of the seed).
    pub deals: u64,
    /// Of them, deals that never end.
    pub loops_found: u64,
    /// Bases joined: the longest games sampled, longest first (or the deal joined from).
    pub bases: usize,
    /// Positions the joins expanded (backward play).
    pub positions: u64,
    /// Deals the joins played forward to check them: every deal a join reports is replayed,
    /// and kept only with the cards and tricks backward play counted.
    pub replayed: u64,
    /// Joins cut short by the bound on positions (their tree was not walked to its end).
    pub incomplete: usize,
    /// Deals played in all: sampled, and replayed by the joins.
    pub played: u64,
    /// Whether the cancel stopped the search before the deals or the time asked for.
    pub stopped: bool,
    /// The command that plays this search again.
    pub replay: String,
    /// The longest deals, longest first.
    pub best: Vec<Listed<Found>>,
    /// Seconds the search took.
    pub elapsed_s: f64,
    /// Seconds spent sampling.
    pub sample_s: f64,
    /// Seconds spent joining.
    pub join_s: f64,
    /// Deals sampled per second of sampling.
    pub deals_per_s: f64,
    /// Threads it played on.
    pub threads: usize,
}

/// What a search runs with: the game, the cancel that stops it, where its progress goes and
/// how its face writes its commands.
struct Run<'a> {
    game: &'a Bmn,
    stop: &'a Cancel,
    progress: Report<'a>,
    say: &'a dyn Replays,
}

impl Plan {
    /// Runs the search on the current rayon pool until its deals are played, its time is up
    /// or `stop` is set; `progress` hears the steps played ([`Plan::total`] in all).
    pub fn run(
        &self,
        game: &Bmn,
        stop: &Cancel,
        progress: Report,
        say: &dyn Replays,
    ) -> SearchReport {
        let run = Run {
            game,
            stop,
            progress,
            say,
        };
        let head = Header {
            seed: Some(self.settings.seed),
            from: self.from.clone(),
            ..Header::of(game)
        };
        match &self.mode {
            Mode::Climb { steps, from } => {
                SearchReport::Climb(self.climb(&run, head, *steps, from.as_deref()))
            }
            Mode::Loops { steps, seeds } => {
                let head = Header {
                    mode: Some("loops"),
                    ..head
                };
                SearchReport::Loops(self.loops(&run, head, *steps, seeds))
            }
            Mode::Census { rounds, seeds } => {
                let head = Header {
                    mode: Some("census"),
                    ..head
                };
                SearchReport::Census(self.census(&run, head, *rounds, seeds))
            }
            Mode::Record { deals, bases, from } => {
                let head = Header {
                    method: Some(self.settings.method),
                    from: self.settings.from.clone(),
                    ..head
                };
                let sampling = (*deals, *bases, from.as_deref());
                SearchReport::Record(self.record(&run, head, sampling))
            }
        }
    }

    /// Plays `steps` steps on every one of `walkers` (or of a group of them) in batches, as
    /// many as the time allows, until `r.stop` is set; the steps each walker played, whether
    /// the cancel stopped them, and when they began.
    fn walk<W: Send>(
        &self,
        r: &Run,
        steps: u64,
        walkers: &mut [W],
        walk: impl Fn(&mut W, u64, Report) + Sync,
    ) -> (u64, bool, Instant) {
        let start = Instant::now();
        let seconds = self.settings.minutes.map(|m| m * 60.0);
        let played = play_in_batches(steps, seconds, start, r.stop, walkers, |w, n| {
            walk(w, n, r.progress)
        });
        (played.per_walker, played.stopped, start)
    }

    /// The climb of `steps` deals a walker (or as many as the time allows), every climb from
    /// the deck `from` or a random deal; then backward play from the longest deals kept.
    fn climb(&self, r: &Run, head: Header, steps: u64, from: Option<&[u8]>) -> ClimbReport {
        let s = &self.settings;
        let walkers = (0..s.walkers)
            .map(|w| Walker::new(r.game, s.seed, w, s.keep, from.map(<[u8]>::to_vec)));
        let mut groups = climb::groups(r.game, walkers, rayon::current_num_threads());
        let (per_walker, stopped, start) =
            self.walk(r, steps, &mut groups, |g, n, p| walk_all(g, n, p));
        let deals = per_walker * u64::from(s.walkers);
        let walks: Vec<climb::Walk> = groups.into_iter().flatten().map(|w| w.out).collect();
        let found = climb::merge(r.game, s.keep, &walks);
        let elapsed_s = start.elapsed().as_secs_f64();
        let listed = |f: Found| Listed {
            replay: r.say.deal(&f.deal),
            found: f,
        };
        ClimbReport {
            head,
            deals,
            stopped,
            replay: r.say.search(deals, 0, elapsed_s / 3600.0),
            walkers: s.walkers,
            restart_after: RESTART,
            best: found.best.into_iter().map(listed).collect(),
            loops_found: found.loops_found,
            loops: found.loops.into_iter().map(listed).collect(),
            capped: found.capped,
            elapsed_s,
            deals_per_s: deals as f64 / elapsed_s.max(1e-9),
            threads: rayon::current_num_threads(),
        }
    }

    /// The loop search of `steps` tries a walker (or as many as the time allows) from the
    /// cycles through `seeds`.
    fn loops(&self, r: &Run, head: Header, steps: u64, seeds: &Seeds) -> LoopsReport {
        let s = &self.settings;
        let mut walkers: Vec<LoopWalker> = (0..s.walkers)
            .map(|w| LoopWalker::new(r.game, s.seed, w, seeds))
            .collect();
        let (per_walker, stopped, start) = self.walk(r, steps, &mut walkers, LoopWalker::walk);
        let tries = per_walker * u64::from(s.walkers);
        let elapsed_s = start.elapsed().as_secs_f64();
        let walks: Vec<LoopWalk> = walkers.into_iter().map(|w| w.out).collect();
        let listed = |c: Cycle| Listed {
            replay: r.say.cycle(&c.position),
            found: c,
        };
        LoopsReport {
            head,
            tries,
            stopped,
            replay: r.say.search(tries, 0, elapsed_s / 3600.0),
            walkers: s.walkers,
            max_tricks: MAX_TRICKS,
            seeds: (seeds.iter())
                .map(|(p, t)| listed(canonical(r.game, p, *t)))
                .collect(),
            cycles: first_finds(&walks).into_iter().map(listed).collect(),
            looped: walks.iter().map(|w| w.looped).sum(),
            ended: walks.iter().map(|w| w.ended).sum(),
            undecided: walks.iter().map(|w| w.undecided).sum(),
            elapsed_s,
            tries_per_s: tries as f64 / elapsed_s.max(1e-9),
            threads: rayon::current_num_threads(),
        }
    }

    /// The census of `rounds` rounds (or as many as the time allows) from the cycles through
    /// `seeds`.
    fn census(&self, r: &Run, head: Header, rounds: u64, seeds: &Seeds) -> CensusReport {
        let s = &self.settings;
        let per_round = u64::from(s.walkers) * ROUND_TRIES;
        let c = CensusConfig {
            seed: s.seed,
            walkers: s.walkers,
            tries: ROUND_TRIES,
            rounds,
            max_positions: CENSUS_POSITIONS,
            grow_from: match standard(r.game) {
                true => sixteen(),
                false => Vec::new(),
            },
        };
        let start = Instant::now();
        let mut each = |_| {
            (r.progress)(per_round);
            match s.minutes {
                Some(m) if start.elapsed().as_secs_f64() >= m * 60.0 => ControlFlow::Break(()),
                _ => ControlFlow::Continue(()),
            }
        };
        let found = census(r.game, &c, seeds, r.stop, &mut each);
        let elapsed_s = start.elapsed().as_secs_f64();
        let cycles = &found.cycles;
        CensusReport {
            head,
            walkers: s.walkers,
            tries_per_round: ROUND_TRIES,
            replay: r.say.search(found.tries, 0, elapsed_s / 3600.0),
            reached_from_a_deal: cycles.iter().filter(|c| !c.deals.is_empty()).count(),
            balanced_either_leads: cycles.iter().map(|c| c.balanced_either_leads).sum(),
            balanced_player_1_leads: cycles.iter().map(|c| c.balanced_player_1_leads).sum(),
            construction: (seeds.first()).and_then(|(on, t)| family_verdict(r.game, on, *t)),
            census: found,
            elapsed_s,
            threads: rayon::current_num_threads(),
        }
    }

    /// Samples `deals` deals and joins from the `bases` longest, or joins from the deck
    /// `from` alone; a search for a time samples for [`SAMPLE_SHARE`] of it.
    fn record(
        &self,
        r: &Run,
        head: Header,
        (deals, bases, from): (u64, usize, Option<&[u8]>),
    ) -> RecordReport {
        let s = &self.settings;
        let start = Instant::now();
        let share = if bases == 0 { 1.0 } else { SAMPLE_SHARE };
        let until = s.minutes.map(|m| m * 60.0);
        let sample_until = until.map(|t| t * share);
        let (shown, sampled_at) = (Cell::new(0), Cell::new(None));
        let mut each = |stage: Stage| {
            let elapsed = start.elapsed().as_secs_f64();
            let deadline = match stage {
                Stage::Sampling(n) => {
                    (r.progress)(n - shown.replace(n));
                    sample_until
                }
                Stage::Joining(..) => {
                    sampled_at.set(sampled_at.get().or(Some(elapsed)));
                    until
                }
            };
            match r.stop.is_set() || deadline.is_some_and(|d| elapsed >= d) {
                true => ControlFlow::Break(()),
                false => ControlFlow::Continue(()),
            }
        };
        let rc = RecordConfig {
            seed: s.seed,
            deals,
            bases,
            max_positions: JOIN_POSITIONS,
            keep: s.keep,
        };
        let found = match from {
            Some(deck) => record::record_from(r.game, deck, &rc, r.stop, &mut each),
            None => record::record(r.game, &rc, r.stop, &mut each),
        };
        let elapsed_s = start.elapsed().as_secs_f64();
        let sample_s = sampled_at.get().unwrap_or(elapsed_s);
        let sampled = found.sampled.deals;
        RecordReport {
            head,
            deals: sampled,
            loops_found: found.sampled.loops,
            bases: found.joined,
            positions: found.positions,
            replayed: found.replayed,
            incomplete: found.incomplete,
            played: sampled + found.replayed,
            stopped: found.stopped,
            replay: r.say.search(sampled, found.joined, elapsed_s / 3600.0),
            best: found.best.iter().map(|l| long(r.game, l, r.say)).collect(),
            elapsed_s,
            sample_s: if from.is_some() { 0.0 } else { sample_s },
            join_s: if from.is_some() {
                elapsed_s
            } else {
                elapsed_s - sample_s
            },
            deals_per_s: sampled as f64 / sample_s.max(1e-9),
            threads: rayon::current_num_threads(),
        }
    }
}

/// A long game as search.json lists it: a joined deal names the deal it joins (`ancestor_of`),
/// a sampled one its game index (`at`).
fn long(game: &Bmn, l: &Long, say: &dyn Replays) -> Listed<Found> {
    let deal = game.show_deal(&l.deck);
    let (at, ancestor_of) = match &l.how {
        How::Sampled { index } => (*index, None),
        How::Given => (0, None),
        How::Joined { base, before, .. } => (*before, Some(game.show_deal(base))),
    };
    Listed {
        replay: say.deal(&deal),
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

#[cfg(test)]
#[path = "report_tests.rs"]
mod tests;

/// Plays `steps` more deals on each of `walkers` (walkers of one game), reporting them to
/// `progress`: together in the game's lanes where it plays on them (each lane a walker's game,
/// refilled with that walker's next deal when it ends, so every walker plays the deals
/// [`Walker::walk`](climb::Walker::walk) plays it, in the same order), else one walker after another.
pub(super) fn walk_all(walkers: &mut [climb::Walker], steps: u64, progress: Report) {
    #[cfg(target_arch = "x86_64")]
    if let Some(lanes) = walkers.first().and_then(|w| w.game().lanes()) {
        return super::on_lanes::climb(lanes, walkers, steps, progress);
    }
    for w in walkers {
        w.walk(steps, progress);
    }
}
