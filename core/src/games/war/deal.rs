//! Dealing: the shuffled deal, the R program's deal, and `--deal` read from the command line.

use rand::RngCore;

use super::position::Position;
use super::rules::{DealOrder, WarRules};
use super::War;
use crate::error::UsageError;
use crate::error::{setting, setting_alone};
use crate::games::cards::{bounded, shuffle, Card};
use crate::usage_of;

impl Position {
    /// Deals a new game from `rng`.
    pub(super) fn deal<R: RngCore + ?Sized>(&mut self, war: &War, rng: &mut R) {
        self.deal_hands(war, rng);
        if let Some(by) = war.rules.by {
            self.stats.group = Some(by.group(self.hands[0].iter(), war.rules.ranks));
        }
    }

    fn deal_hands<R: RngCore + ?Sized>(&mut self, war: &War, rng: &mut R) {
        self.reset();
        let n = war.deck.len();
        let half = n / 2;
        self.spare.clear();
        if let Some([p1, p2]) = &war.fixed_hands {
            // `--p1-cards`: both hands fixed as multisets, each in random order.
            for (p, cards) in [p1, p2].into_iter().enumerate() {
                self.spare.clear();
                self.spare.extend_from_slice(cards);
                shuffle(rng, &mut self.spare);
                self.hands[p].extend_bottom(&self.spare);
            }
            return;
        }
        match war.rules.deal {
            DealOrder::Even => {
                // One copy of every rank per two suits each: the deck's first half, in deck
                // order, is exactly that multiset.
                for p in 0..2 {
                    self.spare.clear();
                    self.spare.extend_from_slice(&war.deck[..half]);
                    shuffle(rng, &mut self.spare);
                    self.hands[p].extend_bottom(&self.spare);
                }
            }
            DealOrder::Shuffled => {
                self.spare.extend_from_slice(&war.deck);
                shuffle(rng, &mut self.spare);
                self.hands[0].extend_bottom(&self.spare[..half]);
                self.hands[1].extend_bottom(&self.spare[half..]);
            }
            DealOrder::Bryer => {
                let [p0, p1] = &mut self.hands;
                let (buf0, mut c0) = p0.split();
                let (buf1, mut c1) = p1.split();
                bryer_deal(
                    war,
                    rng,
                    &mut self.positions,
                    &mut self.taken,
                    |c| c0.push(buf0, c),
                    |c| c1.push(buf1, c),
                );
                p0.set_cursor(c0);
                p1.set_cursor(c1);
            }
        }
    }
}

/// The `bryer` deal, R's `sample(n, n/2)`: a partial Fisher–Yates over deck positions gives
/// player 1 a uniformly random ordered half (each card to `to_p1`, top first); player 2 keeps
/// the rest in deck order (to `to_p2`). `positions` and `taken` are scratch. Shared by
/// [`Position::deal`] and the lanes, which deal straight into their buffers with the same draws.
#[inline(always)]
pub(super) fn bryer_deal<R: RngCore + ?Sized>(
    war: &War,
    rng: &mut R,
    positions: &mut Vec<u16>,
    taken: &mut Vec<u64>,
    mut to_p1: impl FnMut(Card),
    mut to_p2: impl FnMut(Card),
) {
    let n = war.deck.len();
    positions.clear();
    positions.extend_from_slice(&war.positions);
    taken.clear();
    taken.resize(n.div_ceil(64), 0);
    for i in 0..n / 2 {
        let j = i + bounded(rng, (n - i) as u32) as usize;
        positions.swap(i, j);
        let k = usize::from(positions[i]);
        taken[k / 64] |= 1 << (k % 64);
        to_p1(war.deck[k]);
    }
    // Player 2: the positions not taken, ascending, read off the bit set.
    for (w, &bits) in taken.iter().enumerate() {
        let valid = if (w + 1) * 64 <= n {
            u64::MAX
        } else {
            (1 << (n % 64)) - 1
        };
        let mut free = !bits & valid;
        while free != 0 {
            to_p2(war.deck[w * 64 + free.trailing_zeros() as usize]);
            free &= free - 1;
        }
    }
}

/// Reads `--deal "A1 A2 .../B1 B2 ..."` (cards separated by spaces or commas, top card first)
/// and checks it against the rules: every card a rank in 1..R, no hand empty, no rank more
/// often than the deck holds it.
pub fn parse_deal(text: &str, rules: &WarRules) -> Result<[Vec<Card>; 2], UsageError> {
    let halves = text.split('/').count();
    if halves != 2 {
        return Err(usage_of![
            setting("deal", format!("{text:?}")),
            format!(": expected two hands separated by one '/', found {halves}"),
        ]);
    }
    Ok(parse_hands(text, rules)?.try_into().expect("two hands"))
}

/// Checks hands given to play ([`parse_hands`], or a caller of the library): no hand empty,
/// every card a rank in 1..R, and each rank at most as often as the deck holds it (a worked
/// example may deal a few of the deck's cards).
pub fn check_dealt<H: AsRef<[Card]>>(hands: &[H], rules: &WarRules) -> Result<(), UsageError> {
    let mut copies = vec![0u64; rules.ranks as usize + 1];
    for (p, hand) in hands.iter().enumerate() {
        let hand = hand.as_ref();
        if hand.is_empty() {
            return Err(usage_of![
                setting_alone("deal"),
                format!(": player {}'s hand is empty", p + 1)
            ]);
        }
        for (i, &c) in hand.iter().enumerate() {
            let Some(n) = copies.get_mut(usize::from(c)).filter(|_| c >= 1) else {
                return Err(usage_of![
                    setting_alone("deal"),
                    format!(
                        ": {c} (player {}, card {}) is not a rank in 1..{}",
                        p + 1,
                        i + 1,
                        rules.ranks
                    ),
                ]);
            };
            *n += 1;
        }
    }
    if let Some((rank, &n)) = copies
        .iter()
        .enumerate()
        .find(|(_, &n)| n > u64::from(rules.suits))
    {
        return Err(usage_of![
            setting_alone("deal"),
            format!(
                ": rank {rank} is dealt {n} times, but the deck of {} ranks × {} suits holds {} of \
                 it; the hands must be cards of that deck (",
                rules.ranks, rules.suits, rules.suits
            ),
            setting_alone("ranks"),
            ", ",
            setting_alone("suits"),
            ")",
        ]);
    }
    Ok(())
}

/// Reads any number of hands separated by '/' (`--players N`: N hands), each checked as
/// [`parse_deal`] checks two.
pub fn parse_hands(text: &str, rules: &WarRules) -> Result<Vec<Vec<Card>>, UsageError> {
    let halves: Vec<&str> = text.split('/').collect();
    let hand = |p: usize| -> Result<Vec<Card>, UsageError> {
        halves[p]
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|t| !t.is_empty())
            .enumerate()
            .map(|(i, t)| {
                t.parse::<Card>()
                    .ok()
                    .filter(|&c| c >= 1 && u32::from(c) <= rules.ranks)
                    .ok_or_else(|| {
                        usage_of![
                            setting_alone("deal"),
                            format!(
                                ": {t:?} (player {}, card {}) is not a rank in 1..{}",
                                p + 1,
                                i + 1,
                                rules.ranks
                            ),
                        ]
                    })
            })
            .collect::<Result<Vec<Card>, UsageError>>()
    };
    let hands: Vec<Vec<Card>> = (0..halves.len()).map(hand).collect::<Result<_, _>>()?;
    check_dealt(&hands, rules)?;
    Ok(hands)
}
