//! Camicia (Straccia camicia, cavacamisa), the Italian 40-card Beggar-my-neighbour: its preset's
//! settings and its community's digit notation of a deal.
//!
//! The deck is the Italian one of 40 cards, ten ranks in four suits; the ace, the two and the
//! three demand 1, 2 and 3 cards, the other 28 nothing (Paulhus 1999: "a 40 card deck with 12
//! court cards (4 each of values 1, 2, and 3)"); play is Beggar-my-neighbour's. Only demands
//! matter to play, so warsim plays it as its 40-card deck whose J, Q, K demand 1, 2, 3 and A
//! nothing (`--ranks 10 --penalties 1,2,3,0`): the same twelve cards by demand.
//!
//! The digit notation writes each card as its demand, top card first, player 1's twenty then
//! player 2's, with no separator: `0130023302200030010000000010000000000021`. It is how the
//! published searches of Camicia list their deals (drago-96/cavacamisa, N1k06/cudacamicia).
//! A position of a game under way has hands of any sizes, which digits alone cannot tell apart, so
//! under the preset warsim also reads and writes the two hands' digits joined by `/`
//! (`0130/02330...`): `play bmn --deal` replays every position a search writes.

use super::Penalties;

/// The preset's deck: ranks, suits and what J, Q, K and A demand.
pub const RANKS: usize = 10;
/// Cards of each rank.
pub const SUITS: usize = 4;
/// The ace, two and three demand 1, 2 and 3: in warsim's deck J, Q and K; its A demands nothing.
pub const PENALTIES: Penalties = Penalties([1, 2, 3, 0]);

/// Reads a deal in the digit notation: `None` when `text` is not in it (it holds a character
/// other than a digit or a space, or, unless `halves`, a `/`), else both hands or what is
/// wrong with it. With `halves`, `DIGITS/DIGITS` gives each hand its own digits (a position
/// whose hands differ in size); without a `/`, player 1 holds the first half. `counts[d]` is
/// how many cards of the deck demand `d`: every digit must be one of them, and there must be
/// one digit per card.
pub fn read_digits(
    text: &str,
    counts: &[u32],
    halves: bool,
) -> Option<Result<[Vec<u8>; 2], String>> {
    let read = |t: &str| -> Option<Vec<u8>> {
        t.chars()
            .filter(|c| *c != ' ')
            .map(|c| c.to_digit(10).map(|d| d as u8))
            .collect()
    };
    let cards: usize = counts.iter().map(|&c| c as usize).sum();
    let (digits, split) = match text.split_once('/') {
        Some((a, b)) if halves => {
            let a = read(a)?;
            let split = a.len();
            ([a, read(b)?].concat(), split)
        }
        Some(_) => return None,
        None => (read(text)?, cards / 2),
    };
    if digits.len() != cards {
        return Some(Err(format!(
            "the digit notation has one digit per card (its demand), player 1's half first: \
             this deck needs {cards} digits, not {}",
            digits.len()
        )));
    }
    if let Some((i, &d)) = digits
        .iter()
        .enumerate()
        .find(|&(_, &d)| counts.get(usize::from(d)).is_none_or(|&n| n == 0))
    {
        let demands: Vec<String> = (0..counts.len())
            .filter(|&d| counts[d] > 0)
            .map(|d| d.to_string())
            .collect();
        return Some(Err(format!(
            "digit {} ({d}) is a card demanding {d}, and this deck's cards demand {}",
            i + 1,
            demands.join(", ")
        )));
    }
    // Each demand as often as the deck holds it: fifty-two 4s are no deal of any deck.
    let mut dealt = vec![0u32; counts.len()];
    for &d in &digits {
        dealt[usize::from(d)] += 1;
    }
    if let Some(d) = differing_demand(&dealt, counts) {
        return Some(Err(format!(
            "the digits hold {} cards demanding {d}, and this deck has {}",
            dealt[d], counts[d]
        )));
    }
    let (a, b) = digits.split_at(split);
    Some(Ok([a.to_vec(), b.to_vec()]))
}

/// The demand whose cards a deal holds (`dealt[d]`) otherwise than the deck does (`deck[d]`,
/// 0 past its end), or `None` when every count agrees. A demand held too often comes first: it
/// says most (fifty-two 4s are 52 cards demanding 4, not "no plain card"); else the first short.
pub(super) fn differing_demand(dealt: &[u32], deck: &[u32]) -> Option<usize> {
    let has = |d: usize| deck.get(d).copied().unwrap_or(0);
    (0..dealt.len())
        .find(|&d| dealt[d] > has(d))
        .or_else(|| (0..dealt.len()).find(|&d| dealt[d] != has(d)))
}

/// Cards written in the digit notation: each card's demand.
pub fn digits(cards: impl Iterator<Item = u8>) -> String {
    cards.map(|d| char::from(b'0' + d)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 28 cards demand nothing, four each demand 1, 2 and 3.
    const COUNTS: [u32; 4] = [28, 4, 4, 4];

    #[test]
    fn the_communitys_example_reads_as_each_cards_demand_player_1s_half_first() {
        let [a, b] = read_digits("0130023302200030010000000010000000000021", &COUNTS, false)
            .unwrap()
            .unwrap();
        assert_eq!(
            a,
            [0, 1, 3, 0, 0, 2, 3, 3, 0, 2, 2, 0, 0, 0, 3, 0, 0, 1, 0, 0]
        );
        assert_eq!(
            b,
            [0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 1]
        );
        assert_eq!(
            digits(a.into_iter().chain(b)),
            "0130023302200030010000000010000000000021"
        );
    }

    #[test]
    fn a_wrong_length_or_digit_says_what_is_wrong_and_other_notations_pass_by() {
        let e = read_digits("013", &COUNTS, false).unwrap().unwrap_err();
        assert!(e.contains("needs 40 digits, not 3"), "{e}");
        let four = "0430023302200030010000000010000000000021";
        let e = read_digits(four, &COUNTS, false).unwrap().unwrap_err();
        assert!(
            e.contains("digit 2 (4)") && e.contains("demand 0, 1, 2, 3"),
            "{e}"
        );
        let zeros = "0".repeat(40);
        let e = read_digits(&zeros, &COUNTS, false).unwrap().unwrap_err();
        assert!(
            e.contains("40 cards demanding 0, and this deck has 28"),
            "{e}"
        );
        let e = read_digits(&"3".repeat(40), &COUNTS, false)
            .unwrap()
            .unwrap_err();
        assert!(
            e.contains("40 cards demanding 3, and this deck has 4"),
            "{e}"
        );
        assert!(read_digits("--J-/Q---", &COUNTS, false).is_none());
        assert!(read_digits("2345/6789", &COUNTS, false).is_none());
        assert!(read_digits("--J-/Q---", &COUNTS, true).is_none());
    }

    /// Under the preset a position's hands, of any sizes, read back from `DIGITS/DIGITS`.
    #[test]
    fn two_hands_joined_by_a_slash_keep_their_sizes() {
        let text = "0130023302200030010000000/010000000000021";
        let [a, b] = read_digits(text, &COUNTS, true).unwrap().unwrap();
        assert_eq!((a.len(), b.len()), (25, 15));
        assert_eq!(
            format!("{}/{}", digits(a.into_iter()), digits(b.into_iter())),
            text
        );
        let e = read_digits("013/0", &COUNTS, true).unwrap().unwrap_err();
        assert!(e.contains("needs 40 digits, not 4"), "{e}");
    }
}
