//! Exact integer tallies of a run: round counts per outcome, the game's own statistics, cycle
//! lengths, the longest game. Merging two tallies adds counts, so the result never depends on
//! how a run was split.

use std::collections::BTreeMap;

use crate::stats::count::{add_to, Overflow};
use crate::stats::game::{GameResult, GameStats, Outcome};

/// Round counts below this are kept in a dense table; rarer, longer games in a sorted map. This
/// bounds a chunk's table (≤ 65,536 × slots counts) even when a cap of 10,000,000 rounds is hit.
const DENSE_LIMIT: u64 = 1 << 16;

/// Games per (round count, outcome).
///
/// Invariant: every stored row has at least one nonzero count.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoundHistogram {
    slots: usize,
    /// `dense[r * slots + s]`: games of `r` rounds with outcome slot `s`, for `r < DENSE_LIMIT`.
    dense: Vec<u64>,
    sparse: BTreeMap<u64, Vec<u64>>,
}

impl RoundHistogram {
    /// An empty histogram with `slots` outcome columns.
    pub fn new(slots: usize) -> Self {
        RoundHistogram {
            slots,
            dense: Vec::new(),
            sparse: BTreeMap::new(),
        }
    }

    /// The outcome columns.
    pub fn slots(&self) -> usize {
        self.slots
    }

    /// Adds `count` games of `rounds` rounds with outcome slot `slot`.
    #[inline]
    pub fn add(&mut self, rounds: u64, slot: usize, count: u64) {
        if rounds < DENSE_LIMIT {
            let i = rounds as usize * self.slots + slot;
            if i >= self.dense.len() {
                self.dense.resize((rounds as usize + 1) * self.slots, 0);
            }
            self.dense[i] += count;
        } else {
            let slots = self.slots;
            self.sparse.entry(rounds).or_insert_with(|| vec![0; slots])[slot] += count;
        }
    }

    /// Adds every count of `other` (same number of slots).
    pub fn merge(&mut self, other: &RoundHistogram) -> Result<(), Overflow> {
        assert_eq!(
            self.slots, other.slots,
            "merging histograms of different games"
        );
        if other.dense.len() > self.dense.len() {
            self.dense.resize(other.dense.len(), 0);
        }
        for (a, &b) in self.dense.iter_mut().zip(&other.dense) {
            add_to(a, b)?;
        }
        for (&r, counts) in &other.sparse {
            let row = self
                .sparse
                .entry(r)
                .or_insert_with(|| vec![0; counts.len()]);
            for (a, &b) in row.iter_mut().zip(counts) {
                add_to(a, b)?;
            }
        }
        Ok(())
    }

    /// The round counts that occurred, ascending, each with its counts per outcome slot.
    pub fn rows(&self) -> impl Iterator<Item = (u64, &[u64])> + '_ {
        let dense = self
            .dense
            .chunks(self.slots.max(1))
            .enumerate()
            .map(|(r, c)| (r as u64, c));
        let sparse = self.sparse.iter().map(|(&r, c)| (r, c.as_slice()));
        dense
            .chain(sparse)
            .filter(|(_, c)| c.iter().any(|&n| n > 0))
    }

    /// (round count, games) over the outcome slots `keep` selects, ascending, zero rows skipped.
    pub fn counts_where<'a>(
        &'a self,
        keep: impl Fn(usize) -> bool + 'a,
    ) -> impl Iterator<Item = (u64, u64)> + 'a {
        self.rows()
            .map(move |(r, c)| {
                let n = c
                    .iter()
                    .enumerate()
                    .filter(|(s, _)| keep(*s))
                    .map(|(_, n)| n)
                    .sum();
                (r, n)
            })
            .filter(|&(_, n)| n > 0)
    }

    /// Total games per outcome slot.
    pub fn outcome_totals(&self) -> Vec<u64> {
        let mut t = vec![0u64; self.slots];
        for (_, c) in self.rows() {
            t.iter_mut().zip(c).for_each(|(a, b)| *a += b);
        }
        t
    }
}

/// Everything a run counts, all of it integers; `S` is what the game counts of its own.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tally<S = ()> {
    /// Number of players (fixes the outcome slots).
    pub players: usize,
    /// Games counted.
    pub games: u64,
    /// Games per (rounds, outcome).
    pub rounds: RoundHistogram,
    /// The game's own statistics.
    pub stats: S,
    /// Looping games per cycle length.
    pub cycles: BTreeMap<u64, u64>,
    /// The most rounds any game took, and the lowest index of a game that took them.
    pub longest: Option<(u64, u64)>,
    /// Games per (rounds, outcome) in each group, for a game that groups its games
    /// ([`GameStats::group`]); empty otherwise.
    pub groups: Vec<RoundHistogram>,
}

impl<S: GameStats> Tally<S> {
    /// Nothing counted yet, for a game of `players` players.
    pub fn new(players: usize) -> Self {
        Tally {
            players,
            games: 0,
            rounds: RoundHistogram::new(players + 4),
            stats: S::default(),
            cycles: BTreeMap::new(),
            longest: None,
            groups: Vec::new(),
        }
    }

    /// The histogram of group `g`, made when first needed.
    pub fn group_mut(&mut self, g: usize) -> &mut RoundHistogram {
        if g >= self.groups.len() {
            let slots = self.players + 4;
            self.groups
                .resize_with(g + 1, || RoundHistogram::new(slots));
        }
        &mut self.groups[g]
    }

    /// Counts game number `index`.
    #[inline]
    pub fn record(&mut self, index: u64, r: &GameResult<S::PerGame>) {
        self.games += 1;
        self.rounds.add(r.rounds, r.outcome.slot(self.players), 1);
        self.stats.record(&r.stats);
        if let Some(g) = S::group(&r.stats) {
            let slot = r.outcome.slot(self.players);
            self.group_mut(usize::from(g)).add(r.rounds, slot, 1);
        }
        if let Some(c) = r.cycle {
            *self.cycles.entry(c.cycle_len).or_insert(0) += 1;
        }
        self.note_longest(r.rounds, index);
    }

    /// Keeps (max rounds, lowest index) given one more candidate.
    pub fn note_longest(&mut self, rounds: u64, index: u64) {
        self.longest = match self.longest {
            Some((r, i)) if r > rounds || (r == rounds && i <= index) => Some((r, i)),
            _ => Some((rounds, index)),
        };
    }

    /// Adds `other` into `self`. Associative and commutative, so any split of a run into
    /// chunks, threads or shards gives the same tally.
    pub fn merge(mut self, other: Tally<S>) -> Result<Tally<S>, Overflow> {
        add_to(&mut self.games, other.games)?;
        self.rounds.merge(&other.rounds)?;
        self.stats.merge(&other.stats)?;
        for (g, h) in other.groups.iter().enumerate() {
            self.group_mut(g).merge(h)?;
        }
        for (len, n) in other.cycles {
            add_to(self.cycles.entry(len).or_insert(0), n)?;
        }
        if let Some((r, i)) = other.longest {
            self.note_longest(r, i);
        }
        Ok(self)
    }

    /// Outcome slots in their canonical order, with their totals.
    pub fn outcomes(&self) -> Vec<(Outcome, u64)> {
        self.rounds
            .outcome_totals()
            .into_iter()
            .enumerate()
            .map(|(s, n)| (Outcome::from_slot(s, self.players), n))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::game::Cycle;

    /// Game statistics for the tests: a sum and a maximum.
    #[derive(Clone, Debug, Default, PartialEq)]
    struct SumMax(u64, u64);

    impl GameStats for SumMax {
        type PerGame = u64;
        type Json = (u64, u64);
        fn record(&mut self, g: &u64) {
            self.0 += g;
            self.1 = self.1.max(*g);
        }
        fn merge(&mut self, o: &Self) -> Result<(), Overflow> {
            add_to(&mut self.0, o.0)?;
            self.1 = self.1.max(o.1);
            Ok(())
        }
        fn to_json(&self, _: u64) -> (u64, u64) {
            (self.0, self.1)
        }
        fn from_json(j: (u64, u64), _: u64) -> Result<Self, String> {
            Ok(SumMax(j.0, j.1))
        }
        fn csv(&self, _: u64) -> Vec<(String, String)> {
            vec![]
        }
        fn text(&self, _: u64) -> Vec<String> {
            vec![]
        }
    }

    fn result(rounds: u64, outcome: Outcome, stat: u64) -> GameResult<u64> {
        GameResult {
            rounds,
            outcome,
            cycle: (outcome == Outcome::Loop).then_some(Cycle {
                loop_from: 1,
                cycle_len: rounds - 1,
            }),
            stats: stat,
        }
    }

    fn sample(i: u64) -> GameResult<u64> {
        let outcome = [
            Outcome::Player(0),
            Outcome::Player(1),
            Outcome::Loop,
            Outcome::Capped,
        ][(i % 4) as usize];
        // Includes round counts past the dense table.
        let rounds = if i.is_multiple_of(7) {
            DENSE_LIMIT + i
        } else {
            2 + i % 13
        };
        result(rounds, outcome, i % 5)
    }

    #[test]
    fn merge_is_associative_and_equals_one_pass() {
        let mut whole = Tally::<SumMax>::new(2);
        (0..300).for_each(|i| whole.record(i, &sample(i)));
        let part = |r: std::ops::Range<u64>| {
            let mut t = Tally::<SumMax>::new(2);
            r.for_each(|i| t.record(i, &sample(i)));
            t
        };
        let (a, b, c) = (part(0..100), part(100..200), part(200..300));
        let m = |x: Tally<SumMax>, y| x.merge(y).unwrap();
        let left = m(m(a.clone(), b.clone()), c.clone());
        let right = m(a, m(b, c));
        let reordered = m(m(part(200..300), part(0..100)), part(100..200));
        assert_eq!(left, whole);
        assert_eq!(right, whole);
        assert_eq!(reordered, whole);
        assert_eq!(whole.games, 300);
        assert_eq!(whole.stats, SumMax((0..300).map(|i| i % 5).sum(), 4));
    }

    #[test]
    fn longest_keeps_the_lowest_index_of_the_maximum() {
        let mut t = Tally::<SumMax>::new(2);
        t.record(9, &result(50, Outcome::Player(0), 0));
        t.record(3, &result(50, Outcome::Player(1), 0));
        t.record(4, &result(20, Outcome::Player(1), 0));
        assert_eq!(t.longest, Some((50, 3)));
    }

    #[test]
    fn rows_are_ascending_and_skip_empty_round_counts() {
        let mut h = RoundHistogram::new(3);
        h.add(DENSE_LIMIT + 5, 2, 1);
        h.add(7, 0, 2);
        h.add(3, 1, 1);
        let rows: Vec<(u64, Vec<u64>)> = h.rows().map(|(r, c)| (r, c.to_vec())).collect();
        assert_eq!(
            rows,
            vec![
                (3, vec![0, 1, 0]),
                (7, vec![2, 0, 0]),
                (DENSE_LIMIT + 5, vec![0, 0, 1])
            ]
        );
        assert_eq!(h.counts_where(|s| s == 0).collect::<Vec<_>>(), vec![(7, 2)]);
    }
}
