//! Every distinct deal of a small deck, numbered, for `exact war`: a deal is an arrangement of
//! a multiset of ranks (the shuffled deal: the whole deck, player 1 taking the first half), or
//! a pair of arrangements (an even deal, or `--p1-cards`: each hand's multiset fixed). Distinct
//! arrangements are equally likely under a uniform shuffle, so counting each once gives exact
//! shares.

use super::rules::{DealOrder, WarRules};
use super::War;
use crate::error::setting;
use crate::error::{Op, UsageError};
use crate::games::arrange::{self, arrangements, unrank};
use crate::games::cards::Card;
use crate::games::Game;
use crate::settings::setting_name;
use crate::usage_of;

/// The most cards a hand's multiset may hold here: 34! is the largest factorial in a u128.
const MAX_CARDS: usize = 34;

/// The deals of a rule set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DealSpace {
    /// Arrangements of the whole deck (rank counts); player 1 takes the first half.
    Whole(Vec<u32>),
    /// Independent arrangements of player 1's and player 2's multisets.
    Split([Vec<u32>; 2]),
}

/// Copies of each rank among `cards` (index = rank; index 0 holds no card).
fn counts(cards: impl Iterator<Item = Card>, ranks: u32) -> Vec<u32> {
    arrange::counts(cards, ranks as Card)
}

impl DealSpace {
    /// The deals of `rules` (whose deck is `deck`), or why they cannot be enumerated.
    pub fn of(
        rules: &WarRules,
        deck: &[Card],
        p2_rest: Option<&[Card]>,
    ) -> Result<DealSpace, UsageError> {
        if !rules.pickup.is_deterministic() {
            return Err(usage_of![
                Op::Exact.of(War::NAME),
                format!(
                    ": pickup {} draws randomness after the deal, so one deal has many games; \
                     exact enumeration needs a deterministic pickup (p1-first, winner-first, \
                     loser-first, table, bryer); estimate this one with ",
                    setting_name(rules.pickup)
                ),
                Op::Simulate,
            ]);
        }
        let space = match (&rules.p1_cards, rules.deal) {
            (Some(p1), _) => DealSpace::Split([
                counts(p1.iter().copied(), rules.ranks),
                counts(p2_rest.unwrap_or(&[]).iter().copied(), rules.ranks),
            ]),
            (None, DealOrder::Shuffled) => {
                DealSpace::Whole(counts(deck.iter().copied(), rules.ranks))
            }
            (None, DealOrder::Even) => {
                let half = counts(deck[..deck.len() / 2].iter().copied(), rules.ranks);
                DealSpace::Split([half.clone(), half])
            }
            (None, DealOrder::Bryer) => {
                return Err(usage_of![
                    Op::Exact.of(War::NAME),
                    ": the bryer deal gives player 2 the rest in deck order, which is not an \
                     arrangement of the deck; use ",
                    setting("deal", "shuffled"),
                ])
            }
        };
        if deck.len() > MAX_CARDS {
            return Err(usage_of![
                Op::Exact.of(War::NAME),
                format!(
                    ": a deck of {} cards has far too many deals to play every one; use ",
                    deck.len()
                ),
                Op::Simulate,
            ]);
        }
        Ok(space)
    }

    /// How many deals there are.
    pub fn count(&self) -> Option<u128> {
        match self {
            DealSpace::Whole(c) => arrangements(c),
            DealSpace::Split([a, b]) => arrangements(a)?.checked_mul(arrangements(b)?),
        }
    }

    /// Writes deal number `i` into `out` (player 1's cards, then player 2's) and returns how
    /// many are player 1's; `c` is scratch.
    pub fn deal(&self, i: u128, c: &mut Vec<u32>, out: &mut Vec<Card>) -> usize {
        out.clear();
        match self {
            DealSpace::Whole(counts) => {
                c.clone_from(counts);
                unrank(i, c, out);
                out.len() / 2
            }
            DealSpace::Split([a, b]) => {
                let nb = arrangements(b).unwrap_or(1);
                c.clone_from(a);
                unrank(i / nb, c, out);
                let half = out.len();
                c.clone_from(b);
                unrank(i % nb, c, out);
                half
            }
        }
    }
}
