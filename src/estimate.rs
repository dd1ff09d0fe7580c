//! How long a run or a sweep will take, estimated before its first game, and the bound
//! (`--max-hours`) it must keep.
//!
//! The estimate comes from a pilot ([`crate::sim::pilot`]): seconds per game on one thread,
//! times the games still to play, over the threads the run can keep busy. Where the rules give
//! the exact mean rounds ([`crate::games::Game::expected_rounds`]) the pilot only prices a
//! round, so a pilot that saw a few unusually short or long games of a heavy-tailed length
//! cannot mislead it. Elsewhere the pilot plays until it has seen the tail of the games'
//! lengths ([`crate::sim::pilot::Budget`]), and the estimate states the range that tail leaves
//! ([`Estimate::low`], [`Estimate::high`]). It is meant to be right within a factor of two:
//! the machine's load changes, and a tail rarer than the pilot's games is not seen.

use std::fmt;

use crate::sim::pilot::Measured;
use crate::stats::summary::{counted, grouped};

/// The default `--max-hours`: a run estimated at more than a quarter of a day is far more
/// often a typo (a digit too many in `--games`, a player count that makes every game last
/// millions of rounds) than a plan, and a plan says so with `--max-hours`.
pub const DEFAULT_MAX_HOURS: &str = "6";

/// Runs estimated longer than this (seconds) have their estimate shown before they start,
/// where progress is shown.
pub const LONG: f64 = 60.0;

/// `--max-hours`: the longest estimate a run or sweep may have, or no bound (`none`, `inf`).
/// Its hours are private, made only by [`MaxHours::new`] (or [`MaxHours::parse`], through it),
/// so no face holds a bound of NaN (which bounded nothing) or below 0 (which refused everything).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MaxHours(Option<f64>);

impl MaxHours {
    /// The bound of a run that asks for none: [`DEFAULT_MAX_HOURS`].
    pub const DEFAULT: MaxHours = MaxHours(Some(6.0));

    /// No bound.
    pub const NONE: MaxHours = MaxHours(None);

    /// A bound of `hours` (`None`, or infinite hours: no bound), which must be above 0.
    pub fn new(hours: Option<f64>) -> Result<MaxHours, String> {
        match hours {
            None => Ok(MaxHours::NONE),
            Some(h) if h > 0.0 => Ok(MaxHours(h.is_finite().then_some(h))),
            Some(_) => Err("expected hours above 0, such as 6 or 0.5, or none".into()),
        }
    }

    /// `6`, `0.5`, `none` or `inf`.
    pub fn parse(text: &str) -> Result<MaxHours, String> {
        match text {
            "none" | "inf" => Ok(MaxHours::NONE),
            // Text that is no number reads as NaN, which `new` refuses with the rest.
            _ => MaxHours::new(Some(text.parse::<f64>().unwrap_or(f64::NAN))),
        }
    }

    /// The bound in hours, or `None` for no bound.
    pub fn hours(self) -> Option<f64> {
        self.0
    }

    /// Whether a run estimated at `seconds` breaks the bound.
    pub fn refuses(self, seconds: f64) -> bool {
        self.0.is_some_and(|h| seconds > h * 3600.0)
    }
}

impl fmt::Display for MaxHours {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(h) => write!(f, "{h} h"),
            None => write!(f, "none"),
        }
    }
}

/// The longest a pilot of a run may take once the run is known to be long: a pilot plays the
/// run's own games, on one thread, so this is at most a thread's few seconds of a run of hours.
pub const PILOT_MOST: std::time::Duration = std::time::Duration::from_secs(3);

/// Seconds one more game takes on one thread, from a pilot: its time per round (over every
/// round it played, a game's tries under lower caps included) times the exact mean rounds (at
/// most the cap) where the rules give that mean, else times its mean rounds a game. The exact
/// mean of a capped game overstates its capped mean, never understates it.
pub fn seconds_per_game(pilot: &Measured, exact: Option<(f64, u64)>) -> f64 {
    let per_round = pilot.seconds_per_round();
    match (exact, per_round) {
        (Some((mean, cap)), Some(r)) => r * mean.min(cap as f64),
        (None, Some(r)) => r * pilot.rounds as f64 / pilot.games_timed().max(1) as f64,
        _ => pilot.seconds / pilot.games_timed().max(1) as f64,
    }
}

/// The threads `games` games can keep busy: no more than asked, than cores, or than games (the
/// engine's threads claim slow games one or a few at a time).
pub fn busy_threads(threads: usize, cores: usize, games: u64) -> usize {
    let games = usize::try_from(games).unwrap_or(usize::MAX);
    threads.min(cores).min(games).max(1)
}

/// What a run or a sweep is expected to take, and what the figure rests on.
#[derive(Clone, Debug, PartialEq)]
pub struct Estimate {
    /// Wall time, seconds.
    pub seconds: f64,
    /// The shortest wall time the pilot's games leave likely (their mean rounds two standard
    /// errors lower), seconds.
    pub low: f64,
    /// The longest (two standard errors higher; unbounded when a game was left open).
    pub high: f64,
    /// The threads it assumes.
    pub threads: usize,
    /// The pilot (of a sweep: of all its sampled rule sets together).
    pub pilot: Measured,
    /// What else it rests on.
    pub basis: Basis,
}

/// Besides the pilot, what an estimate rests on.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Basis {
    /// The pilot's time per game alone.
    PerGame,
    /// The pilot's time per deal of a search (`search bmn`), which plays deals, not games.
    PerDeal,
    /// The rules' exact mean rounds per game, capped at `--max-rounds`.
    ExactMean {
        /// Mean rounds.
        mean: f64,
        /// The cap.
        cap: u64,
    },
    /// A sweep: pilots of `sampled` of its `of` rule sets, spread evenly over the list.
    RuleSets {
        /// Rule sets piloted.
        sampled: usize,
        /// Rule sets in the sweep.
        of: u64,
    },
}

impl Estimate {
    /// A run of `games` games (a pilot's among them) on `threads` busy threads.
    pub fn run(pilot: Measured, exact: Option<(f64, u64)>, games: u64, threads: usize) -> Self {
        let rest = games.saturating_sub(pilot.games);
        let per_game = seconds_per_game(&pilot, exact);
        let at = |scale: f64| pilot.seconds + scale * per_game * rest as f64 / threads as f64;
        // The exact mean has no spread; a game left open has no upper bound.
        let spread = if exact.is_some() {
            0.0
        } else {
            2.0 * pilot.spread
        };
        Estimate {
            seconds: at(1.0),
            low: at((1.0 - spread).max(0.0)),
            high: match pilot.open {
                Some(_) => f64::INFINITY,
                None => at(1.0 + spread),
            },
            threads,
            pilot,
            basis: match exact {
                Some((mean, cap)) => Basis::ExactMean { mean, cap },
                None => Basis::PerGame,
            },
        }
    }

    /// A sweep of `of` rule sets from the estimates of an even sample of them, plus `per_set`
    /// seconds each for the files it writes.
    pub fn sweep(sample: &[Estimate], of: u64, per_set: f64) -> Self {
        let n = sample.len().max(1) as f64;
        let mean = sample.iter().map(|e| e.seconds).sum::<f64>() / n;
        let mean_of = |f: fn(&Estimate) -> f64| sample.iter().map(f).sum::<f64>() / n;
        let pilot = sample.iter().fold(Measured::default(), |a, e| Measured {
            games: a.games + e.pilot.games,
            rounds: a.rounds.saturating_add(e.pilot.rounds),
            played: a.played.saturating_add(e.pilot.played),
            spread: a.spread.max(e.pilot.spread),
            seconds: a.seconds + e.pilot.seconds,
            open: a.open.or(e.pilot.open),
        });
        Estimate {
            seconds: (mean + per_set) * of as f64,
            low: (mean_of(|e| e.low) + per_set) * of as f64,
            high: (mean_of(|e| e.high) + per_set) * of as f64,
            threads: sample.iter().map(|e| e.threads).max().unwrap_or(1),
            pilot,
            basis: Basis::RuleSets {
                sampled: sample.len(),
                of,
            },
        }
    }
}

/// `about 17 h on 2 threads (pilot: 1 game in 1.24 s; exact mean 6.205e10 per game, capped at
/// 10,000,000 rounds)`.
impl fmt::Display for Estimate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let p = &self.pilot;
        // A game the pilot left open has not ended: its time is a floor, not an estimate.
        write!(
            f,
            "{} {}{} on {} (pilot: ",
            if p.open.is_some() {
                "at least"
            } else {
                "about"
            },
            about(self.seconds),
            self.range(),
            if self.threads == 1 {
                "1 thread".to_string()
            } else {
                format!("{} threads", self.threads)
            }
        )?;
        if let Basis::RuleSets { sampled, of } = self.basis {
            write!(
                f,
                "{} of {}, ",
                grouped(sampled as u64),
                counted(of, "rule set")
            )?;
        }
        let noun = match self.basis {
            Basis::PerDeal => "deal",
            _ => "game",
        };
        write!(f, "{}", counted(p.games, noun))?;
        if let Some((index, rounds)) = p.open {
            write!(
                f,
                " and game {index} still going after {} rounds",
                grouped(rounds)
            )?;
        }
        write!(f, " in {:.2} s", p.seconds)?;
        if let Basis::ExactMean { mean, cap } = self.basis {
            write!(
                f,
                "; exact mean {mean:.3e} per game, capped at {} rounds",
                grouped(cap)
            )?;
        }
        write!(f, ")")
    }
}

impl Estimate {
    /// ` (12 h to 16 h)`, where the pilot's games leave a range wider than the figure's
    /// rounding; empty otherwise.
    fn range(&self) -> String {
        let (low, high) = (about(self.low), about(self.high));
        if self.high.is_finite() && (low != about(self.seconds) || high != about(self.seconds)) {
            format!(" ({low} to {high})")
        } else {
            String::new()
        }
    }
}

/// A duration in the unit that suits it: `40 s`, `12 min`, `17 h`, `9 days`, `380,000 years`.
pub fn about(seconds: f64) -> String {
    const YEAR: f64 = 365.25 * 86400.0;
    match seconds {
        s if s < 9.95 => format!("{s:.1} s"),
        s if s < 90.0 => format!("{s:.0} s"),
        s if s < 90.0 * 60.0 => format!("{:.0} min", s / 60.0),
        s if s < 48.0 * 3600.0 => format!("{:.0} h", s / 3600.0),
        s if s < 2.0 * YEAR => format!("{:.0} days", s / 86400.0),
        s if s < 1e6 * YEAR => format!("{} years", grouped((s / YEAR) as u64)),
        s => format!("{:.1e} years", s / YEAR),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_bound_is_the_flags_default() {
        assert_eq!(MaxHours::parse(DEFAULT_MAX_HOURS), Ok(MaxHours::DEFAULT));
    }

    fn measured(games: u64, rounds: u64, seconds: f64) -> Measured {
        Measured {
            games,
            rounds,
            played: rounds,
            spread: 0.0,
            seconds,
            open: None,
        }
    }

    #[test]
    fn max_hours_reads_hours_none_and_inf() {
        assert_eq!(MaxHours::parse("6"), Ok(MaxHours(Some(6.0))));
        assert_eq!(MaxHours::parse("0.5"), Ok(MaxHours(Some(0.5))));
        assert_eq!(MaxHours::parse("none"), Ok(MaxHours(None)));
        assert_eq!(MaxHours::parse("inf"), Ok(MaxHours(None)));
        for bad in ["0", "-1", "NaN", "six", ""] {
            assert!(MaxHours::parse(bad).is_err(), "{bad}");
        }
        assert!(MaxHours(Some(1.0)).refuses(3600.5));
        assert!(!MaxHours(Some(1.0)).refuses(3600.0));
        assert!(!MaxHours(None).refuses(f64::INFINITY));
        // The typed API's bound is made by `new`, which refuses what `parse` refuses.
        for bad in [f64::NAN, -1.0, 0.0, f64::NEG_INFINITY] {
            assert!(MaxHours::new(Some(bad)).is_err(), "{bad}");
        }
        assert_eq!(MaxHours::new(Some(f64::INFINITY)), Ok(MaxHours::NONE));
        assert_eq!(MaxHours::new(None), Ok(MaxHours::NONE));
    }

    #[test]
    fn per_game_cost_from_the_pilot_or_from_the_exact_mean() {
        // 100 games of 3 rounds each in 0.03 s: 0.1 ms a round, 0.3 ms a game.
        let p = measured(100, 300, 0.03);
        assert!((seconds_per_game(&p, None) - 3e-4).abs() < 1e-12);
        // The rules say 50 rounds a game on average: 5 ms a game, whatever the pilot saw.
        assert!((seconds_per_game(&p, Some((50.0, 1000))) - 5e-3).abs() < 1e-12);
        // A cap below the mean bounds every game.
        assert!((seconds_per_game(&p, Some((6.2e10, 10))) - 1e-3).abs() < 1e-12);
    }

    #[test]
    fn threads_are_bounded_by_cores_and_by_games() {
        assert_eq!(busy_threads(8, 2, u64::MAX), 2);
        assert_eq!(busy_threads(1, 2, 1_000_000), 1);
        assert_eq!(busy_threads(2, 2, 1), 1);
        assert_eq!(busy_threads(2, 2, 2), 2);
        assert_eq!(busy_threads(2, 2, 0), 1);
    }

    /// The figures of issue 24: rps with 64 players, capped at 10^7 rounds a game, 1.4 s a
    /// game; 100,000 games on 2 threads.
    #[test]
    fn rps_64_players_100000_games() {
        let pilot = measured(1, 10_000_000, 1.4);
        let e = Estimate::run(pilot, Some((6.205e10, 10_000_000)), 100_000, 2);
        assert!((e.seconds - (1.4 + 1.4 * 99_999.0 / 2.0)).abs() < 1e-6);
        assert_eq!(
            e.to_string(),
            "about 19 h on 2 threads (pilot: 1 game in 1.40 s; exact mean 6.205e10 per game, \
             capped at 10,000,000 rounds)"
        );
        assert!(MaxHours(Some(6.0)).refuses(e.seconds));
    }

    /// A game the pilot left open costs at least the time spent on it, and is named.
    #[test]
    fn a_game_left_open_counts_as_one_game_of_at_least_its_time() {
        let p = Measured {
            open: Some((0, 4_194_304)),
            ..measured(0, 4_194_304, 2.0)
        };
        let e = Estimate::run(p, None, 1_000_000, 2);
        assert!(
            (e.seconds - (2.0 + 2.0 * 1_000_000.0 / 2.0)).abs() < 1e-6,
            "{}",
            e.seconds
        );
        assert_eq!(
            e.to_string(),
            "at least 12 days on 2 threads (pilot: 0 games and game 0 still going after 4,194,304 \
             rounds in 2.00 s)"
        );
    }

    /// The spread of the pilot's game lengths gives the range (two standard errors each way);
    /// a game tried under lower caps is priced by the rounds played, not as extra games.
    #[test]
    fn the_pilots_spread_gives_the_range_and_its_tries_are_rounds() {
        let p = Measured {
            spread: 0.05,
            ..measured(1000, 100_000, 1.0)
        };
        let e = Estimate::run(p, None, 36_000_000, 1);
        assert!((e.seconds - 36_000.0).abs() < 1e-6, "{}", e.seconds);
        assert!((e.low - (1.0 + 0.9 * 35_999.0)).abs() < 1e-6);
        assert!((e.high - (1.0 + 1.1 * 35_999.0)).abs() < 1e-6);
        assert_eq!(
            e.to_string(),
            "about 10 h (9 h to 11 h) on 1 thread (pilot: 1,000 games in 1.00 s)"
        );
        // Half the time went on tries under caps that a game outlasted: a round costs half.
        let tried = Measured {
            played: 200_000,
            ..p
        };
        assert!((seconds_per_game(&tried, None) - 0.0005).abs() < 1e-12);
        // The exact mean has no spread.
        let exact = Estimate::run(p, Some((100.0, 1000)), 36_000_000, 1);
        assert_eq!((exact.low, exact.high), (exact.seconds, exact.seconds));
    }

    #[test]
    fn a_pilot_that_played_the_whole_run_is_the_estimate() {
        let p = measured(1000, 5000, 0.004);
        let e = Estimate::run(p, None, 1000, 2);
        assert_eq!(e.seconds, 0.004);
        assert_eq!(
            e.to_string(),
            "about 0.0 s on 2 threads (pilot: 1,000 games in 0.00 s)"
        );
    }

    #[test]
    fn every_game_of_u64_max_is_counted() {
        let e = Estimate::run(measured(20_000, 6_000_000, 0.025), None, u64::MAX, 2);
        assert!(e.seconds > 1e13, "{}", e.seconds);
        assert!(e.to_string().starts_with("about 365,"), "{e}");
    }

    #[test]
    fn a_sweep_scales_its_sample_to_every_rule_set() {
        let one = |seconds| Estimate {
            seconds,
            low: seconds,
            high: seconds,
            threads: 2,
            pilot: measured(10, 20, 0.01),
            basis: Basis::PerGame,
        };
        let e = Estimate::sweep(&[one(1.0), one(3.0)], 10_000, 0.01);
        assert!((e.seconds - 2.01 * 10_000.0).abs() < 1e-6);
        assert_eq!(
            e.to_string(),
            "about 6 h on 2 threads (pilot: 2 of 10,000 rule sets, 20 games in 0.02 s)"
        );
    }

    #[test]
    fn durations_read_in_a_fitting_unit() {
        let cases = [
            (0.04, "0.0 s"),
            (4.0, "4.0 s"),
            (40.0, "40 s"),
            (720.0, "12 min"),
            (61_200.0, "17 h"),
            (9.0 * 86400.0, "9 days"),
            (1.2e13, "380,257 years"),
            (1e20, "3.2e12 years"),
        ];
        for (s, text) in cases {
            assert_eq!(about(s), text, "{s}");
        }
    }
}
