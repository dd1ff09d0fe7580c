//! Exact loop detection for games that are deterministic after the deal (Brent's algorithm).
//!
//! Brent's algorithm keeps one saved state and compares the running game with it after every
//! round, so it needs constant memory whatever the length of the cycle: five copies of the
//! state (the running game, Brent's saved state, the deal to search for μ from, and the two
//! marks where the current stride of that search began). It finds the *first* repetition
//! exactly: `loop_from` (μ) and `cycle_len` (λ) are
//! the smallest values with state(μ + λ) = state(μ). Equality is decided on full states (the
//! fingerprint a state keeps only makes unequal states fast to reject), so there are no false
//! positives.
//!
//! [`LoopDetector`] holds the five copies a game needs, made once per worker, and turns the
//! [`Ending`] into a [`GameResult`].

use std::ops::ControlFlow;

use super::{Cycle, GameResult, Outcome};

/// A game whose next state depends on its current state alone.
pub trait Deterministic {
    /// What a round needs besides the state (the rules, say), shared by all copies.
    type Context: ?Sized;
    /// Plays one round; returns the outcome if the game ended in it.
    fn step(&mut self, ctx: &Self::Context) -> Option<Outcome>;
    /// Plays `n` rounds, or fewer if the game ends (its outcome is then returned). A game can
    /// override this with its own loop, faster than `n` calls of `step`.
    fn run(&mut self, ctx: &Self::Context, n: u64) -> Option<Outcome> {
        (0..n).find_map(|_| self.step(ctx))
    }
    /// Whether the two states are equal (full comparison).
    fn same_state(&self, other: &Self) -> bool;
    /// Makes `self` a copy of `other` without allocating.
    fn copy_from(&mut self, other: &Self);
    /// Plays up to `n` rounds (n ≥ 1), stopping early when the game ends or the state equals
    /// `target`. A game can override this to compare cheaply inside its own loop.
    fn advance(&mut self, ctx: &Self::Context, n: u64, target: &Self) -> Advance {
        for played in 1..=n {
            if let Some(o) = self.step(ctx) {
                return Advance {
                    played,
                    ended: Some(o),
                    matched: false,
                };
            }
            if self.same_state(target) {
                return Advance {
                    played,
                    ended: None,
                    matched: true,
                };
            }
        }
        Advance {
            played: n,
            ended: None,
            matched: false,
        }
    }
    /// Called once on the running game when it has played `max_rounds` rounds, so it can keep
    /// its per-game tallies as they were at the cap (the detector may play on beyond it).
    fn mark_cap(&mut self) {}
}

/// What [`Deterministic::advance`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Advance {
    /// Rounds played.
    pub played: u64,
    /// The outcome, if the game ended in the last of them.
    pub ended: Option<Outcome>,
    /// Whether the state after the last of them equals the target.
    pub matched: bool,
}

/// How a game under loop detection ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// The game was decided in round `rounds`.
    Ended {
        /// The deciding round.
        rounds: u64,
        /// Its outcome.
        outcome: Outcome,
    },
    /// The state after `loop_from + cycle_len` rounds equals the state after `loop_from`.
    Loop(Cycle),
    /// Neither an ending nor a repetition within `max_rounds` rounds.
    Capped,
}

impl Ending {
    /// The result of a game that ended so under a cap of `max_rounds`, with the game's own
    /// statistics `stats`.
    pub fn result<S>(self, max_rounds: u64, stats: S) -> GameResult<S> {
        let (rounds, outcome, cycle) = match self {
            Ending::Ended { rounds, outcome } => (rounds, outcome, None),
            Ending::Loop(c) => (c.loop_from + c.cycle_len, Outcome::Loop, Some(c)),
            Ending::Capped => (max_rounds, Outcome::Capped, None),
        };
        GameResult {
            rounds,
            outcome,
            cycle,
            stats,
        }
    }
}

/// Rounds the search for μ plays at full speed between two full comparisons, once the tail
/// is longer than this.
const MU_STRIDE: u64 = 128;

/// A game under loop detection: the running game and Brent's extra copies, made once per
/// worker so that detection allocates nothing per game.
#[derive(Clone, Debug)]
pub struct LoopDetector<M> {
    /// The running game: set it up (deal) here, then [`LoopDetector::run`] it.
    pub hare: M,
    tortoise: M,
    initial: M,
    /// Where the search for μ's current stride began (tortoise, hare).
    marks: [M; 2],
}

impl<M: Deterministic + Clone> LoopDetector<M> {
    /// Five copies of `state` (see the fields), whose buffers fix the capacity of every later
    /// game.
    pub fn new(state: M) -> Self {
        LoopDetector {
            tortoise: state.clone(),
            initial: state.clone(),
            marks: [state.clone(), state.clone()],
            hare: state,
        }
    }

    /// Plays the game set up in `hare` to its end, its first repeated state or the cap (see
    /// [`run_detecting`]).
    pub fn run(&mut self, ctx: &M::Context, max_rounds: u64) -> Ending {
        self.initial.copy_from(&self.hare);
        run_detecting(
            ctx,
            &mut self.hare,
            &mut self.tortoise,
            &self.initial,
            &mut self.marks,
            max_rounds,
        )
    }

    /// Replays the last game from its start for `rounds` rounds, calling
    /// `play_round(state, round)` to play (and show) each, and returns the state it reached:
    /// a trace of exactly what the result counts (Brent's search may have run past the end of
    /// a capped game). A `Break` from `play_round` (the trace's reader has gone) stops the
    /// replay where it is.
    pub fn replay(
        &self,
        rounds: u64,
        mut play_round: impl FnMut(&mut M, u64) -> ControlFlow<()>,
    ) -> M {
        let mut replay = self.initial.clone();
        for round in 1..=rounds {
            if play_round(&mut replay, round).is_break() {
                break;
            }
        }
        replay
    }

    /// The loop of the game set up in `hare`, whose states are known to repeat every
    /// `cycle_len` rounds from some round on (see [`locate`]).
    pub fn locate(&mut self, ctx: &M::Context, cycle_len: u64, max_rounds: u64) -> Ending {
        self.initial.copy_from(&self.hare);
        locate(
            ctx,
            &mut self.hare,
            &mut self.tortoise,
            &self.initial,
            &mut self.marks,
            cycle_len,
            max_rounds,
        )
    }

    /// The state the last game started from.
    pub fn initial(&self) -> &M {
        &self.initial
    }
}

/// Plays `hare` (which must equal `initial`) to its end, its first repeated state or the cap.
///
/// `max_rounds` bounds the rounds of the game, not the detector's work: a repetition at round
/// μ + λ ≤ `max_rounds` is reported as a loop even though Brent's search may step up to about
/// 3(μ + λ) rounds to see it, and the search for μ replays up to μ + λ more rounds.
///
/// After a [`Ending::Loop`], `hare` holds the state after exactly μ + λ rounds played from
/// `initial`, so its per-game tallies cover the counted rounds only.
pub fn run_detecting<M: Deterministic>(
    ctx: &M::Context,
    hare: &mut M,
    tortoise: &mut M,
    initial: &M,
    marks: &mut [M; 2],
    max_rounds: u64,
) -> Ending {
    // Brent: the tortoise waits at rounds 2^k − 1; the hare runs up to 2^k rounds past it.
    // A repetition (μ, λ) is seen by round 2·max(μ + 1, λ) − 1 + λ ≤ 3(μ + λ) + 1.
    let limit = max_rounds.saturating_mul(3).saturating_add(2);
    tortoise.copy_from(hare);
    let (mut power, mut lam, mut steps) = (1u64, 0u64, 0u64);
    let cycle_len = loop {
        // Up to the next checkpoint, the cap (so the game is marked exactly there) or the limit.
        let mut budget = (power - lam).min(limit - steps);
        if steps < max_rounds {
            budget = budget.min(max_rounds - steps);
        }
        let a = hare.advance(ctx, budget, tortoise);
        steps += a.played;
        lam += a.played;
        if steps == max_rounds {
            hare.mark_cap();
        }
        if let Some(outcome) = a.ended {
            return if steps <= max_rounds {
                Ending::Ended {
                    rounds: steps,
                    outcome,
                }
            } else {
                Ending::Capped
            };
        }
        if a.matched {
            break lam;
        }
        if steps >= limit {
            return Ending::Capped;
        }
        if lam == power {
            tortoise.copy_from(hare);
            power *= 2;
            lam = 0;
        }
    };
    locate(ctx, hare, tortoise, initial, marks, cycle_len, max_rounds)
}

/// The loop of a game whose states repeat every `cycle_len` (λ) rounds from some round on:
/// finds μ by replaying from `initial`, and leaves in `hare` the state after exactly μ + λ
/// rounds (its tallies cover the counted rounds only). Brent's search ([`run_detecting`])
/// finds λ; so do the War lanes, many games at once, which then call this for μ.
// Inlined, as it was when it was part of `run_detecting`: left a call, the block and scalar
// paths ran p1-first's loop detection about 10% slower (1 thread, 100,000 games, both paths).
#[inline(always)]
pub fn locate<M: Deterministic>(
    ctx: &M::Context,
    hare: &mut M,
    tortoise: &mut M,
    initial: &M,
    marks: &mut [M; 2],
    cycle_len: u64,
    max_rounds: u64,
) -> Ending {
    // μ, the first t with state(t) = state(t + λ): start both from the initial state, the hare
    // λ rounds ahead, and step together. Once equal they stay equal, so past the first
    // MU_STRIDE rounds both run whole strides at full speed (the game cannot end: it reaches
    // the cycle) until a stride ends equal; that stride is replayed from its saved start.
    tortoise.copy_from(initial);
    hare.copy_from(initial);
    hare.run(ctx, cycle_len);
    let mut loop_from = 0;
    while !hare.same_state(tortoise) {
        if loop_from < MU_STRIDE {
            // A short tail is cheapest stepped.
            tortoise.step(ctx);
            hare.step(ctx);
            loop_from += 1;
            continue;
        }
        // A caller's wrong λ would never meet: no loop begins later than Brent's search
        // looks (`run_detecting`'s limit), so past that this is a bug, not a long game.
        assert!(
            loop_from <= max_rounds.saturating_mul(3).saturating_add(2),
            "no repetition every {cycle_len} rounds by round {loop_from}"
        );
        marks[0].copy_from(tortoise);
        marks[1].copy_from(hare);
        tortoise.run(ctx, MU_STRIDE);
        hare.run(ctx, MU_STRIDE);
        if !hare.same_state(tortoise) {
            loop_from += MU_STRIDE;
            continue;
        }
        tortoise.copy_from(&marks[0]);
        hare.copy_from(&marks[1]);
        while !hare.same_state(tortoise) {
            tortoise.step(ctx);
            hare.step(ctx);
            loop_from += 1;
        }
    }
    if loop_from + cycle_len > max_rounds {
        Ending::Capped
    } else {
        Ending::Loop(Cycle {
            loop_from,
            cycle_len,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A walk on 0..n that follows a fixed successor table, ending at `n` if it reaches it.
    #[derive(Clone)]
    struct Walk<'a> {
        next: &'a [usize],
        at: usize,
        capped_at: Option<usize>,
    }

    impl Deterministic for Walk<'_> {
        type Context = ();
        fn step(&mut self, _: &()) -> Option<Outcome> {
            self.at = self.next[self.at];
            (self.at == self.next.len()).then_some(Outcome::Player(0))
        }
        fn same_state(&self, other: &Self) -> bool {
            self.at == other.at
        }
        fn copy_from(&mut self, other: &Self) {
            self.at = other.at;
        }
        fn mark_cap(&mut self) {
            self.capped_at = Some(self.at);
        }
    }

    /// A state that counts how often it is cloned, and loops between two values.
    struct Counted<'a> {
        clones: &'a std::cell::Cell<u32>,
        at: bool,
    }

    impl Clone for Counted<'_> {
        fn clone(&self) -> Self {
            self.clones.set(self.clones.get() + 1);
            Counted {
                clones: self.clones,
                at: self.at,
            }
        }
    }

    impl Deterministic for Counted<'_> {
        type Context = ();
        fn step(&mut self, _: &()) -> Option<Outcome> {
            self.at = !self.at;
            None
        }
        fn same_state(&self, other: &Self) -> bool {
            self.at == other.at
        }
        fn copy_from(&mut self, other: &Self) {
            self.at = other.at;
        }
        fn mark_cap(&mut self) {}
    }

    /// What the module docs say: five copies of the state, made once, none per game.
    #[test]
    fn the_detector_keeps_five_copies_of_the_state() {
        let clones = std::cell::Cell::new(0);
        let mut d = LoopDetector::new(Counted {
            clones: &clones,
            at: false,
        });
        assert_eq!(clones.get(), 4, "the state given and four clones");
        for _ in 0..3 {
            let got = d.run(&(), 100);
            assert!(
                matches!(
                    got,
                    Ending::Loop(Cycle {
                        loop_from: 0,
                        cycle_len: 2
                    })
                ),
                "{got:?}"
            );
        }
        assert_eq!(clones.get(), 4, "no copy per game");
    }

    /// Runs the detector on a new game from `start`: the ending, and the hare where it stopped.
    fn detect<'a>(start: &Walk<'a>, max_rounds: u64) -> (Ending, Walk<'a>) {
        let (mut hare, mut tortoise) = (start.clone(), start.clone());
        let mut marks = [start.clone(), start.clone()];
        let got = run_detecting(&(), &mut hare, &mut tortoise, start, &mut marks, max_rounds);
        (got, hare)
    }

    /// The reference: remember every state, stop at the first one seen twice.
    fn brute_force(next: &[usize], max_rounds: u64) -> Ending {
        let mut seen = vec![None; next.len()];
        let mut at = 0;
        seen[0] = Some(0u64);
        for round in 1..=max_rounds {
            at = next[at];
            if at == next.len() {
                return Ending::Ended {
                    rounds: round,
                    outcome: Outcome::Player(0),
                };
            }
            if let Some(first) = seen[at] {
                return Ending::Loop(Cycle {
                    loop_from: first,
                    cycle_len: round - first,
                });
            }
            seen[at] = Some(round);
        }
        Ending::Capped
    }

    #[test]
    fn agrees_with_brute_force_on_every_small_successor_table() {
        // Every function from 0..4 to 0..=4 (4 = the game ends): 5^4 tables, several caps.
        for code in 0..5usize.pow(4) {
            let next: Vec<usize> = (0..4).map(|i| code / 5usize.pow(i) % 5).collect();
            for max_rounds in [1, 2, 3, 4, 5, 10] {
                assert_eq!(
                    detect(&walk(&next), max_rounds).0,
                    brute_force(&next, max_rounds),
                    "{next:?} cap {max_rounds}"
                );
            }
        }
    }

    /// The successor table of a tail of `tail` states into a cycle of `cycle`.
    fn lasso(tail: usize, cycle: usize) -> Vec<usize> {
        let n = tail + cycle;
        (0..n)
            .map(|i| if i + 1 < n { i + 1 } else { tail })
            .collect()
    }

    /// A walk from state 0 of `next`.
    fn walk(next: &[usize]) -> Walk<'_> {
        Walk {
            next,
            at: 0,
            capped_at: None,
        }
    }

    /// A wrong cycle length from a caller (the War lanes find λ themselves) stops with a
    /// panic naming it, past the rounds any loop could begin by, instead of searching forever.
    #[test]
    #[should_panic(expected = "no repetition every 6 rounds")]
    fn a_wrong_cycle_length_is_a_bug_reported_not_a_search_forever() {
        let next = lasso(40, 7);
        let start = walk(&next);
        let (mut hare, mut tortoise) = (start.clone(), start.clone());
        let mut marks = [start.clone(), start.clone()];
        locate(&(), &mut hare, &mut tortoise, &start, &mut marks, 6, 100);
    }

    #[test]
    fn finds_every_tail_up_to_300_into_short_and_long_cycles() {
        // Tails the search steps, then strides and replays.
        for cycle in [1usize, 7, 500] {
            for tail in 0..300usize {
                let next = lasso(tail, cycle);
                let (got, hare) = detect(&walk(&next), 10_000_000);
                let want = Cycle {
                    loop_from: tail as u64,
                    cycle_len: cycle as u64,
                };
                assert_eq!(got, Ending::Loop(want), "tail {tail}, cycle {cycle}");
                assert_eq!(hare.at, tail, "hare ends at the state after μ + λ rounds");
            }
        }
    }

    #[test]
    fn finds_long_cycles_after_long_tails() {
        // A tail of 1,000 states into a cycle of 150,000.
        let (tail, cycle) = (1_000usize, 150_000usize);
        let next = lasso(tail, cycle);
        let start = walk(&next);
        let (got, hare) = detect(&start, 10_000_000);
        let want = Cycle {
            loop_from: tail as u64,
            cycle_len: cycle as u64,
        };
        assert_eq!(got, Ending::Loop(want));
        assert_eq!(hare.at, tail, "hare ends at the state after μ + λ rounds");
        // One round short of the repetition is a cap, not a loop.
        let (got, hare) = detect(&start, (tail + cycle - 1) as u64);
        assert_eq!(got, Ending::Capped);
        assert_eq!(hare.capped_at, Some(tail + cycle - 1));
    }
}
