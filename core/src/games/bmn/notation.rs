//! How a deal of Beggar-my-neighbour is written and read: `HAND1/HAND2` with `-` for a card
//! that demands nothing and J, Q, K, A for the penalty cards, or under the camicia preset the
//! digit notation ([`camicia`](super::camicia)); the deal read is checked to be the game's deck.

use super::{camicia, Bmn, BmnPreset, Position, PENALTY_NAMES};
use crate::error::UsageError;
use crate::error::{setting, setting_alone};
use crate::usage_of;

impl Bmn {
    /// Whether `hands` hold this game's deck: as many cards of each demand, or which differs.
    pub(super) fn holds_deck(&self, hands: &[Vec<u8>; 2]) -> Result<(), UsageError> {
        let mut dealt = [0u32; 10];
        for &c in hands.iter().flatten() {
            match dealt.get_mut(usize::from(c)) {
                Some(n) => *n += 1,
                None => {
                    return Err(usage_of![
                        setting_alone("deal"),
                        format!(": a card demanding {c}; demands run 0 to 9"),
                    ])
                }
            }
        }
        let Some(d) = camicia::differing_demand(&dealt, &self.counts) else {
            return Ok(());
        };
        let name = |d: usize| match d {
            0 => "plain cards".to_string(),
            d => format!("cards demanding {d}"),
        };
        Err(usage_of![
            setting_alone("deal"),
            format!(
                ": the hands hold {} {}, the deck ({} ranks × {} suits) {}",
                dealt[d],
                name(d),
                self.rules.ranks,
                self.rules.suits,
                self.counts.get(d).copied().unwrap_or(0)
            ),
        ])
    }

    /// The deal `deck` as `play bmn --deal` reads it: `HAND1/HAND2`, or under the camicia
    /// preset its digit notation.
    pub fn show_deal(&self, deck: &[u8]) -> String {
        let half = deck.len() / 2;
        self.show_hands(&deck[..half], &deck[half..])
    }

    /// Two hands as `play bmn --deal` reads them back, each with its own cards whatever their
    /// sizes: `HAND1/HAND2`; under the camicia preset the digit notation when the hands are
    /// equal, else each hand's digits joined by `/` (which only that preset reads as digits).
    pub fn show_hands(&self, a: &[u8], b: &[u8]) -> String {
        let (a, b) = (a.iter().copied(), b.iter().copied());
        if self.rules.preset == BmnPreset::Camicia && a.len() == b.len() {
            return camicia::digits(a.chain(b));
        }
        format!("{}/{}", self.show(a), self.show(b))
    }

    /// A position as a deal `play bmn --deal` replays: the leader's hand first, so that the
    /// deal (player 1 leads) plays the position's game, the players' names swapped if player 2
    /// leads.
    pub fn show_position(&self, p: &Position) -> String {
        let [a, b] = [&p.hands[p.leader], &p.hands[p.leader ^ 1]];
        let (a, b): (Vec<u8>, Vec<u8>) = (a.cards().collect(), b.cards().collect());
        self.show_hands(&a, &b)
    }

    /// How a hand is written: `-` for a card that demands nothing, else the letter of the
    /// lowest penalty rank with that demand; under the camicia preset, each card's demand.
    pub fn show(&self, cards: impl Iterator<Item = u8>) -> String {
        if self.rules.preset == BmnPreset::Camicia {
            return camicia::digits(cards);
        }
        cards
            .map(|c| {
                self.rules
                    .penalties
                    .0
                    .iter()
                    .position(|&d| d == c && c > 0)
                    .map_or('-', |i| PENALTY_NAMES[i])
            })
            .collect()
    }

    /// Reads a deal `HAND1/HAND2`, top card first: `-` (or `.`, a digit, `T`, `X`, `10`) for a
    /// card that is not J, Q, K or A; J, Q, K, A; spaces and commas ignored, and a suit letter
    /// (s, h, d, c) or symbol after a card. Or the digit notation ([`camicia`]): each card's
    /// demand, player 1's half first, no `/`; under the camicia preset also `DIGITS/DIGITS`,
    /// hands of any sizes (what [`Bmn::show_hands`] writes). The deal must hold this deck's
    /// cards.
    pub fn parse_deal(&self, text: &str) -> Result<[Vec<u8>; 2], UsageError> {
        let halves = self.rules.preset == BmnPreset::Camicia;
        if let Some(read) = camicia::read_digits(text, &self.counts, halves) {
            return read
                .map_err(|e| usage_of![setting("deal", format!("{text:?}")), format!(": {e}")]);
        }
        let Some((a, b)) = text.split_once('/') else {
            return Err(usage_of![
                setting("deal", format!("{text:?}")),
                ": expected HAND1/HAND2, top card first, e.g. '--J-/Q---', or one digit per card \
                 (its demand), player 1's half first",
            ]);
        };
        let hand = |h: &str, n: usize| -> Result<Vec<u8>, UsageError> {
            let mut out = Vec::new();
            let mut chars = h.chars().peekable();
            while let Some(c) = chars.next() {
                let demand = match c.to_ascii_uppercase() {
                    ' ' | ',' => continue,
                    '-' | '.' | 'T' | 'X' | '2'..='9' => 0,
                    '1' if chars.peek() == Some(&'0') => {
                        chars.next();
                        0
                    }
                    r @ ('J' | 'Q' | 'K' | 'A') => {
                        let i = PENALTY_NAMES.iter().position(|&p| p == r).unwrap_or(0);
                        self.rules.penalties.0[i]
                    }
                    _ => {
                        return Err(usage_of![
                            setting_alone("deal"),
                            format!(
                                ": hand {n} has {c:?}, which is no card: write - for a card that \
                                 is not J, Q, K or A"
                            ),
                        ])
                    }
                };
                out.push(demand);
                if let Some(&s) = chars.peek() {
                    if "sShHdDcC♠♥♦♣".contains(s) {
                        chars.next();
                    }
                }
            }
            Ok(out)
        };
        let hands = [hand(a, 1)?, hand(b, 2)?];
        self.holds_deck(&hands)?;
        Ok(hands)
    }
}
