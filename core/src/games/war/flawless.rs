//! The flawless game, exactly: the probability that one player wins each of the first n/2
//! battles of a shuffled n-card deal without a tie, so that the other player's hand is empty
//! after exactly n/2 rounds. No war is fought and no card goes back into play before the end,
//! so the short-war, pickup, war-down and honor rules never come into it: the probability is
//! the deal's alone.
//!
//! Counting: battle i pairs card i of hand 1 with card i of hand 2. Call a perfect matching of
//! the n (distinct) cards *clean* when no pair holds two cards of one rank, and let M count the
//! clean matchings. Each gives (n/2)! deals player 1 wins flawlessly (its pairs in any order,
//! the higher card of each to player 1) and as many for player 2, and every flawless deal comes
//! from one matching, so under a uniform shuffle of the n! orders
//!
//! ```text
//! P = 2 · M · (n/2)! / n!
//! ```
//!
//! M comes from a dynamic program over the ranks from the highest down, whose state is the
//! number of higher cards still waiting for a lower partner ("open"). At a rank of s cards, k of
//! them take open partners, in C(s, k) · open!/(open − k)! ways, and the other s − k open; M is
//! the count with nothing open after the lowest rank. Every count is a big integer (52 cards
//! need 115 bits, larger decks far more), so the fraction is exact for any deck.

use num_bigint::BigUint;
use num_integer::Integer;
use num_traits::{One, ToPrimitive, Zero};

use super::{DealOrder, War};
use crate::cancel::{Cancel, Cancelled};
use crate::error::{setting, setting_alone, Op, Result};
use crate::games::Game;
use crate::usage_of;

impl War {
    /// The flawless game of this rule set's deck: only a shuffled deal of the whole deck into
    /// two equal hands has the probability computed here.
    /// A set `cancel` stops the computation (seconds long for the largest decks) between two
    /// of its steps.
    pub fn flawless(&self, cancel: &Cancel) -> Result<Flawless> {
        let r = &self.rules;
        if r.players > 2 {
            return Err(crate::error::Error::from(usage_of![
                Op::Exact.of(War::NAME),
                " ",
                setting_alone("flawless"),
                ": ",
                setting("players", r.players),
                " is simulated only; the flawless game is computed for two players",
            ]));
        }
        if r.deal != DealOrder::Shuffled || r.p1_cards.is_some() {
            return Err(usage_of![
                Op::Exact.of(War::NAME),
                " ",
                setting_alone("flawless"),
                ": computed for a shuffled deal of the whole deck (no ",
                setting_alone("deal"),
                ", ",
                setting_alone("p1_cards"),
                " or ",
                setting("rules", "bryer"),
                ")",
            ]
            .into());
        }
        Flawless::of_until(r.ranks, r.suits, cancel)?.ok_or_else(|| {
            usage_of![
                Op::Exact.of(War::NAME),
                " ",
                setting_alone("flawless"),
                format!(
                    ": a deck of {} cards has no two equal hands; use an even deck",
                    r.ranks * r.suits
                ),
            ]
            .into()
        })
    }
}

/// The exact probability of the flawless game for one deck.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Flawless {
    /// Ranks in the deck.
    pub ranks: u32,
    /// Copies of each rank.
    pub suits: u32,
    /// M: perfect matchings of the deck's cards with no pair inside one rank.
    pub matchings: BigUint,
    /// P's numerator, in lowest terms.
    pub numerator: BigUint,
    /// P's denominator, in lowest terms.
    pub denominator: BigUint,
}

impl Flawless {
    /// The flawless game of a `ranks` × `suits` deck, dealt into two hands of half the cards
    /// each; `None` for an odd deck, which has no two equal hands.
    #[cfg(test)]
    pub fn of(ranks: u32, suits: u32) -> Option<Flawless> {
        Flawless::of_until(ranks, suits, &Cancel::default()).expect("never cancelled")
    }

    /// The flawless game of a `ranks` × `suits` deck, dealt into two hands of half the cards
    /// each (`None` for an odd deck, which has no two equal hands), stopped between two steps
    /// once `cancel` is set.
    pub fn of_until(
        ranks: u32,
        suits: u32,
        cancel: &Cancel,
    ) -> Result<Option<Flawless>, Cancelled> {
        let cards = u64::from(ranks) * u64::from(suits);
        if cards % 2 == 1 || cards == 0 {
            return Ok(None);
        }
        let matchings = clean_matchings(ranks, suits, cancel)?;
        // 2 · M · (n/2)! / n! = 2 · M / ((n/2 + 1) · … · n).
        let numerator = &matchings * 2u32;
        let denominator = (cards / 2 + 1..=cards).fold(BigUint::one(), |d, j| d * j);
        if cancel.is_set() {
            return Err(Cancelled);
        }
        let g = numerator.gcd(&denominator);
        Ok(Some(Flawless {
            ranks,
            suits,
            matchings,
            numerator: numerator / &g,
            denominator: denominator / &g,
        }))
    }

    /// Cards in the deck.
    pub fn cards(&self) -> u64 {
        u64::from(self.ranks) * u64::from(self.suits)
    }

    /// Battles (and rounds) a flawless game lasts: half the deck.
    pub fn battles(&self) -> u64 {
        self.cards() / 2
    }

    /// log10 of the probability (−∞ when it is 0: a deck of one rank always ties).
    pub fn log10(&self) -> f64 {
        log10(&self.numerator) - log10(&self.denominator)
    }

    /// The probability as a float, where one holds it (0 below about 1e-308).
    pub fn probability(&self) -> f64 {
        ratio(&self.numerator, &self.denominator)
    }

    /// "1 in X": the denominator over the numerator (∞ when the probability is 0).
    pub fn one_in(&self) -> f64 {
        ratio(&self.denominator, &self.numerator)
    }

    /// `numerator/denominator`.
    pub fn fraction(&self) -> String {
        format!("{}/{}", self.numerator, self.denominator)
    }
}

/// M: perfect matchings of `ranks` × `suits` distinct cards in which no pair holds two cards of
/// one rank (the module docs give the recurrence).
fn clean_matchings(ranks: u32, suits: u32, cancel: &Cancel) -> Result<BigUint, Cancelled> {
    let s = suits as usize;
    let cards = ranks as usize * s;
    // ways[open]: ways to pair the ranks seen so far leaving `open` of their cards unpaired.
    let mut ways = vec![BigUint::zero(); cards + 1];
    ways[0] = BigUint::one();
    let choose: Vec<u64> = (0..=s).map(|k| binomial(s, k)).collect();
    for _ in 0..ranks {
        let mut next = vec![BigUint::zero(); cards + 1];
        for (open, w) in ways.iter().enumerate().filter(|(_, w)| !w.is_zero()) {
            if cancel.is_set() {
                return Err(Cancelled);
            }
            // k of this rank's cards take k of the open cards, in order: open·(open−1)···.
            let mut partners = BigUint::one();
            for k in 0..=s.min(open) {
                next[open - k + (s - k)] += w * &partners * choose[k];
                partners *= (open - k) as u64;
            }
        }
        ways = next;
    }
    Ok(ways.swap_remove(0))
}

/// C(n, k) for the small n of a rank's copies.
fn binomial(n: usize, k: usize) -> u64 {
    (0..k).fold(1u64, |c, i| c * (n - i) as u64 / (i as u64 + 1))
}

/// a/b as a float: a plain division while both are floats, else through their logarithms.
fn ratio(a: &BigUint, b: &BigUint) -> f64 {
    match (a.to_f64(), b.to_f64()) {
        (Some(x), Some(y)) if x.is_finite() && y.is_finite() => x / y,
        _ => 10f64.powf(log10(a) - log10(b)),
    }
}

/// log10 of a big integer (−∞ for 0): its top 64 bits as a float, scaled by the bits below.
fn log10(x: &BigUint) -> f64 {
    let bits = x.bits();
    let shift = bits.saturating_sub(64);
    let top = (x >> shift).to_f64().unwrap_or(f64::INFINITY);
    top.log10() + shift as f64 * std::f64::consts::LOG10_2
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Flawless deals counted one by one: every distinct order of the deck's ranks (each
    /// standing for `suits!^ranks` orders of the distinct cards), split into two halves, is
    /// flawless when one half beats the other card by card.
    fn brute_force(ranks: u32, suits: u32) -> (u64, u64) {
        let mut counts = vec![suits; ranks as usize];
        let n = (ranks * suits) as usize;
        let mut deal = Vec::with_capacity(n);
        let (mut flawless, mut orders) = (0u64, 0u64);
        fn walk(counts: &mut [u32], deal: &mut Vec<u32>, n: usize, hits: &mut u64, all: &mut u64) {
            if deal.len() == n {
                let (a, b) = deal.split_at(n / 2);
                let pairs = || a.iter().zip(b);
                *all += 1;
                *hits += u64::from(pairs().all(|(x, y)| x > y) || pairs().all(|(x, y)| x < y));
                return;
            }
            for r in 0..counts.len() {
                if counts[r] > 0 {
                    counts[r] -= 1;
                    deal.push(r as u32);
                    walk(counts, deal, n, hits, all);
                    deal.pop();
                    counts[r] += 1;
                }
            }
        }
        walk(&mut counts, &mut deal, n, &mut flawless, &mut orders);
        (flawless, orders)
    }

    /// The dynamic program agrees with a count over every deal of each small deck.
    #[test]
    fn agrees_with_every_deal_of_small_decks() {
        for (ranks, suits) in [
            (2, 1),
            (4, 1),
            (2, 2),
            (3, 2),
            (4, 2),
            (5, 2),
            (2, 4),
            (3, 4),
        ] {
            let (hits, orders) = brute_force(ranks, suits);
            let f = Flawless::of(ranks, suits).unwrap();
            // hits/orders in lowest terms is the same fraction.
            assert_eq!(
                &f.numerator * orders,
                &f.denominator * hits,
                "{ranks}×{suits}: {hits}/{orders} against {}",
                f.fraction()
            );
            assert!(hits > 0, "{ranks}×{suits} has flawless deals");
        }
    }

    /// 52 cards: 1 in 159,620,172 as published (the figure rounds 159,620,171.7).
    #[test]
    fn the_standard_deck_is_one_in_159_620_172() {
        let f = Flawless::of(13, 4).unwrap();
        assert_eq!(f.battles(), 26);
        assert_eq!(f.one_in().round(), 159_620_172.0);
        // The fraction is in lowest terms and reproduces the float.
        assert!(f.numerator.gcd(&f.denominator).is_one());
        let ratio = f.numerator.to_f64().unwrap() / f.denominator.to_f64().unwrap();
        assert!((ratio / f.probability() - 1.0).abs() < 1e-12);
    }

    /// Decks with nothing to count: one rank always ties; an odd deck has no equal hands.
    #[test]
    fn decks_without_flawless_games() {
        assert!(Flawless::of(1, 4).unwrap().numerator.is_zero());
        assert_eq!(Flawless::of(1, 4).unwrap().one_in(), f64::INFINITY);
        assert_eq!(Flawless::of(3, 3), None);
    }

    /// The largest deck warsim deals still gives an exact fraction and a finite logarithm.
    #[test]
    fn large_decks_stay_exact() {
        let f = Flawless::of(255, 16).unwrap();
        assert!(f.log10().is_finite() && f.log10() < -300.0);
        assert!(f.numerator.gcd(&f.denominator).is_one());
    }
}
