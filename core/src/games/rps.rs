//! Rock-paper-scissors (docs/rules/rps.md), two players and N-player elimination.
//!
//! Shapes are numbered as in the seed: paper = 0, rock = 1, scissors = 2. For two players a and
//! b, `(b − a) mod 3` is 0 for a tie, 1 when a wins and 2 when b wins. For N players the seed
//! builds a table in advance mapping every throw vector to its winners: a throw is decisive when
//! exactly two shapes appear, and then the players of the winning shape win.
//!
//! [`WinnerTable`] is built for every player count 2..=N (3^2 + … + 3^N entries) up to
//! [`MAX_TABLE_PLAYERS`] = 12 players (about 800,000 entries, 6.4 MB); above that the winners
//! are computed directly from the throw, with the same result (tested against the table).

use rand::RngCore;
use serde::{Deserialize, Serialize};

use super::{cap_unless_default, check_max_rounds, Game, GameResult, Outcome};
use crate::error::setting;
use crate::error::UsageError;
use crate::usage;
use crate::usage_of;

/// The throw cap when `--max-rounds` is not given; a description names any other cap.
pub const DEFAULT_MAX_ROUNDS: u64 = 10_000_000;

/// A shape, numbered as in the seed: 0 paper, 1 rock, 2 scissors.
pub type Shape = u8;

/// Largest player count whose winner table is built.
pub const MAX_TABLE_PLAYERS: usize = 12;
/// Largest player count (winners are a 64-bit set).
pub const MAX_PLAYERS: usize = 64;

/// The seed's two-player rule: 0 tie, 1 player a wins, 2 player b wins.
#[inline]
pub fn duel(a: Shape, b: Shape) -> u8 {
    (b + 3 - a) % 3
}

/// The winners of one throw, as a bit set over the players, computed directly: empty unless
/// exactly two shapes appear.
pub fn winners_direct(throws: &[Shape]) -> u64 {
    let mut seen = [false; 3];
    throws.iter().for_each(|&s| seen[usize::from(s)] = true);
    // Decisive only when exactly one shape is missing; the other two are `a` and `b`.
    let (a, b) = match seen {
        [true, true, false] => (0, 1),
        [true, false, true] => (0, 2),
        [false, true, true] => (1, 2),
        _ => return 0,
    };
    // The winning shape is the one that beats the other by the two-player rule.
    let win = if duel(a, b) == 1 { a } else { b };
    throws
        .iter()
        .enumerate()
        .filter(|(_, &s)| s == win)
        .fold(0u64, |m, (i, _)| m | 1 << i)
}

/// The winners of every throw vector of n players, for each n in 2..=N: entry
/// `Σ throws[i]·3^i` of table n.
#[derive(Clone, Debug)]
pub struct WinnerTable {
    tables: Vec<Vec<u64>>,
}

impl WinnerTable {
    /// Tables for 2..=`players` players (`players` ≤ [`MAX_TABLE_PLAYERS`]).
    pub fn new(players: usize) -> Self {
        assert!(players <= MAX_TABLE_PLAYERS, "table too large");
        let mut tables = vec![Vec::new(); players + 1];
        let mut throws = Vec::with_capacity(players);
        for (n, table) in tables.iter_mut().enumerate().skip(2) {
            *table = (0..3usize.pow(n as u32))
                .map(|mut code| {
                    throws.clear();
                    for _ in 0..n {
                        throws.push((code % 3) as Shape);
                        code /= 3;
                    }
                    winners_direct(&throws)
                })
                .collect();
        }
        WinnerTable { tables }
    }

    /// The winners of throw vector `code` of `n` players.
    #[inline]
    pub fn winners(&self, n: usize, code: usize) -> u64 {
        self.tables[n][code]
    }
}

/// The rule settings of a rock-paper-scissors run, each declared once: the command line's
/// flags (their help is the doc comments), Python's keyword arguments and the JSON `rules`
/// object ([`Elimination::from_settings`] checks them).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
pub struct RpsSettings {
    /// Players at the start of an elimination.
    #[cfg_attr(feature = "clap", arg(long, value_name = "N", default_value_t = RpsSettings::default().players))]
    pub players: usize,
    /// Stop a game after this many throws (outcome `capped`).
    #[cfg_attr(feature = "clap", arg(long, value_name = "M", allow_negative_numbers = true,
        default_value_t = RpsSettings::default().max_rounds, value_parser = crate::settings::parse_rounds))]
    pub max_rounds: u64,
}

impl Default for RpsSettings {
    /// Three players.
    fn default() -> Self {
        RpsSettings {
            players: 3,
            max_rounds: DEFAULT_MAX_ROUNDS,
        }
    }
}

impl RpsSettings {
    /// The settings if a game can have them, or an error naming the one it cannot.
    fn check(o: &RpsSettings) -> Result<Self, UsageError> {
        if !(2..=MAX_PLAYERS).contains(&o.players) {
            return Err(usage_of![
                setting("players", o.players),
                format!(": need 2 to {MAX_PLAYERS} players"),
            ]);
        }
        Ok(RpsSettings {
            players: o.players,
            max_rounds: check_max_rounds(o.max_rounds, "throw")?,
        })
    }
}

/// N-player elimination: the [`Game`] of `simulate rps`.
#[derive(Clone, Debug)]
pub struct Elimination {
    rules: RpsSettings,
    table: Option<WinnerTable>,
}

/// 3^40 < 2^64: one 64-bit draw below it gives 40 exactly uniform throws.
const TRITS_PER_DRAW: u32 = 40;
const THREE_POW_40: u64 = 12_157_665_459_056_928_801;

/// Uniform throws, 40 per generator call, with no bias (rejection on the 64-bit draw).
struct Throws {
    word: u64,
    left: u32,
}

impl Throws {
    #[inline]
    fn next<R: RngCore + ?Sized>(&mut self, rng: &mut R) -> Shape {
        if self.left == 0 {
            // Lemire's method for a uniform value below 3^40.
            let mut m = u128::from(rng.next_u64()) * u128::from(THREE_POW_40);
            if (m as u64) < THREE_POW_40 {
                let threshold = THREE_POW_40.wrapping_neg() % THREE_POW_40;
                while (m as u64) < threshold {
                    m = u128::from(rng.next_u64()) * u128::from(THREE_POW_40);
                }
            }
            self.word = (m >> 64) as u64;
            self.left = TRITS_PER_DRAW;
        }
        let s = (self.word % 3) as Shape;
        self.word /= 3;
        self.left -= 1;
        s
    }
}

impl Elimination {
    /// The game for `rules`, or an error naming the setting no game can have: the same checks
    /// as the options of the command line ([`checked`](super::checked)).
    pub fn new(rules: RpsSettings) -> Result<Self, UsageError> {
        super::checked(rules)
    }

    /// The game for rules that passed those checks.
    fn build(rules: RpsSettings) -> Self {
        let table = (rules.players <= MAX_TABLE_PLAYERS).then(|| WinnerTable::new(rules.players));
        Elimination { rules, table }
    }
}

impl Game for Elimination {
    const NAME: &'static str = "rps";
    type Settings = RpsSettings;
    type Rules = RpsSettings;
    type Stats = ();
    /// The players still in, by original number, and the current throw.
    type Scratch = (Vec<u8>, Vec<Shape>);

    fn from_settings(o: &RpsSettings) -> Result<Self, UsageError> {
        Ok(Elimination::build(RpsSettings::check(o)?))
    }

    fn rules(&self) -> &RpsSettings {
        &self.rules
    }

    fn settings_of(r: &RpsSettings) -> RpsSettings {
        r.clone()
    }

    fn scratch(&self) -> Self::Scratch {
        (
            Vec::with_capacity(self.rules.players),
            Vec::with_capacity(self.rules.players),
        )
    }

    fn play<R: RngCore + ?Sized>(&self, rng: &mut R, s: &mut Self::Scratch) -> GameResult {
        let (alive, throw) = s;
        alive.clear();
        alive.extend(0..self.rules.players as u8);
        let mut throws = Throws { word: 0, left: 0 };
        for round in 1..=self.rules.max_rounds {
            let n = alive.len();
            throw.clear();
            throw.extend((0..n).map(|_| throws.next(rng)));
            let winners = match &self.table {
                Some(t) => {
                    let code = throw
                        .iter()
                        .rev()
                        .fold(0usize, |c, &x| c * 3 + usize::from(x));
                    t.winners(n, code)
                }
                None => winners_direct(throw),
            };
            if winners != 0 {
                let mut i = 0;
                alive.retain(|_| {
                    let keep = winners >> i & 1 == 1;
                    i += 1;
                    keep
                });
                if alive.len() == 1 {
                    return GameResult::plain(round, Outcome::Player(alive[0]));
                }
            }
        }
        GameResult::plain(self.rules.max_rounds, Outcome::Capped)
    }

    fn players(&self) -> usize {
        self.rules.players
    }

    fn describe(&self) -> String {
        format!(
            "{}-player elimination, uniform throws{}",
            self.rules.players,
            cap_unless_default(self.rules.max_rounds, DEFAULT_MAX_ROUNDS)
        )
    }

    fn expected_rounds(&self) -> Option<f64> {
        Some(expected_rounds(self.rules.players)[self.rules.players])
    }

    fn max_rounds(&self) -> u64 {
        self.rules.max_rounds
    }

    fn exact(&self) -> Option<serde_json::Value> {
        let mean = expected_rounds(self.rules.players)[self.rules.players];
        Some(
            serde_json::json!({ "mean_rounds": mean, "p_each_player": 1.0 / self.rules.players as f64 }),
        )
    }
}

/// Reads `r`, `p` or `s` (any case) as a shape.
pub fn parse_shape(t: &str, position: usize) -> Result<Shape, UsageError> {
    match t.to_ascii_lowercase().as_str() {
        "p" | "paper" => Ok(0),
        "r" | "rock" => Ok(1),
        "s" | "scissors" => Ok(2),
        _ => Err(usage!("throw {t:?} of player {position} is not r, p or s")),
    }
}

/// Exact expected throws to eliminate down to one winner from n players, for n = 0..=max:
/// E\[1\] = 0, and for n ≥ 2 with p_k = 3·C(n, k)/3^n the chance that exactly k players win,
/// E\[n\] = (1 + Σ_{k=1}^{n−1} p_k E\[k\]) / (1 − p_0), p_0 = 1 − Σ p_k.
pub fn expected_rounds(max: usize) -> Vec<f64> {
    let mut e = vec![0.0; max + 1];
    for n in 2..=max {
        let total = 3f64.powi(n as i32);
        let mut binom = 1f64; // C(n, 0)
        let (mut decisive, mut acc) = (0.0, 1.0);
        for (k, e_k) in e.iter().enumerate().take(n).skip(1) {
            binom = binom * (n - k + 1) as f64 / k as f64;
            let p = 3.0 * binom / total;
            decisive += p;
            acc += p * e_k;
        }
        e[n] = acc / decisive;
    }
    e
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::engine;
    use crate::stats::summary::Distribution;

    #[test]
    fn duel_follows_the_seeds_table_3() {
        // Rows a (player), columns b (computer): (b − a) mod 3.
        let table = [[0, 1, 2], [2, 0, 1], [1, 2, 0]];
        for a in 0..3 {
            for b in 0..3 {
                assert_eq!(duel(a, b), table[usize::from(a)][usize::from(b)]);
            }
        }
        // Table 1: paper beats rock, rock beats scissors, scissors beat paper.
        assert_eq!(duel(0, 1), 1);
        assert_eq!(duel(1, 2), 1);
        assert_eq!(duel(2, 0), 1);
    }

    #[test]
    fn table_matches_direct_computation_for_every_throw_up_to_6_players() {
        let t = WinnerTable::new(6);
        for n in 2..=6usize {
            for code in 0..3usize.pow(n as u32) {
                let throws: Vec<Shape> = (0..n)
                    .map(|i| (code / 3usize.pow(i as u32) % 3) as Shape)
                    .collect();
                // Direct: pairwise duels — a player wins iff they beat someone and lose to nobody.
                let beats = |i: usize| throws.iter().any(|&o| duel(throws[i], o) == 1);
                let loses = |i: usize| throws.iter().any(|&o| duel(throws[i], o) == 2);
                let direct = (0..n)
                    .filter(|&i| beats(i) && !loses(i))
                    .fold(0u64, |m, i| m | 1 << i);
                assert_eq!(t.winners(n, code), direct, "{throws:?}");
            }
        }
        // r r s: players 1 and 2 win.
        assert_eq!(winners_direct(&[1, 1, 2]), 0b011);
        assert_eq!(winners_direct(&[0, 1, 2]), 0);
        assert_eq!(winners_direct(&[2, 2, 2]), 0);
    }

    #[test]
    fn mean_elimination_rounds_match_the_recurrence() {
        let exact = expected_rounds(8);
        assert_eq!(exact[2], 1.5); // two players: decisive with probability 2/3
        for (n, seed) in [(2usize, 1u64), (3, 2), (5, 3), (8, 4)] {
            let game = Elimination::new(RpsSettings {
                players: n,
                max_rounds: 10_000_000,
            })
            .unwrap();
            let tally =
                engine::simulate(&game, seed, 0..200_000, 2, &|_| {}, &Default::default()).unwrap();
            let counts: Vec<(u64, u64)> = tally.rounds.counts_where(|_| true).collect();
            let d = Distribution::from_counts(&counts).unwrap();
            assert!(
                (d.mean - exact[n]).abs() < 4.0 * d.sem.unwrap(),
                "n = {n}: {} vs {}",
                d.mean,
                exact[n]
            );
        }
    }

    #[test]
    fn throws_are_uniform() {
        let mut rng = crate::rng::game_rng(0, 0);
        let mut t = Throws { word: 0, left: 0 };
        let mut c = [0u32; 3];
        for _ in 0..300_000 {
            c[usize::from(t.next(&mut rng))] += 1;
        }
        // 100,000 expected each, sd ≈ 258.
        assert!(c.iter().all(|&x| (98_700..101_300).contains(&x)), "{c:?}");
    }
}
