//! Arrangements of a multiset of cards: how many distinct orders a deck has, and the i-th of
//! them in lexicographic order, so that `exact` can number every distinct deal and play deal
//! number i without listing the others. Distinct arrangements are equally likely under a
//! uniform shuffle.

use super::cards::Card;

/// Copies of each card value 0..=`max` among `cards`.
pub fn counts(cards: impl Iterator<Item = Card>, max: Card) -> Vec<u32> {
    let mut c = vec![0; usize::from(max) + 1];
    for card in cards {
        c[usize::from(card)] += 1;
    }
    c
}

/// n! / Π cᵢ!: the distinct arrangements of a multiset with counts `c` (`None` past u128).
pub fn arrangements(c: &[u32]) -> Option<u128> {
    let mut n = 0u32;
    let mut out = 1u128;
    // Built up as a product of binomials C(n, k), each exact in u128 when the total fits.
    for &k in c {
        for j in 1..=k {
            n += 1;
            out = out.checked_mul(u128::from(n))? / u128::from(j);
        }
    }
    Some(out)
}

/// Appends arrangement number `i` (lexicographic, 0-based) of the multiset `c` (`c[v]`
/// copies of card value `v`) to `out`; `c` is used as scratch and restored.
pub fn unrank(mut i: u128, c: &mut [u32], out: &mut Vec<Card>) {
    let n: u32 = c.iter().sum();
    for _ in 0..n {
        for r in 0..c.len() {
            if c[r] == 0 {
                continue;
            }
            c[r] -= 1;
            let k = arrangements(c).unwrap_or(u128::MAX);
            if i < k {
                out.push(r as Card);
                break;
            }
            i -= k;
            c[r] += 1;
        }
    }
    for &card in out.iter().rev().take(n as usize) {
        c[usize::from(card)] += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arrangements_of_a_multiset() {
        assert_eq!(arrangements(&[2, 2]), Some(6));
        assert_eq!(arrangements(&[4, 4, 4]), Some(34_650));
        assert_eq!(arrangements(&[2; 6]), Some(7_484_400));
        // 52!/(4!)^13 ≈ 9.2e49 is past u128.
        assert_eq!(arrangements(&[4; 13]), None);
        assert_eq!(arrangements(&[0, 0]), Some(1));
    }

    #[test]
    fn unranking_lists_every_arrangement_once_in_order() {
        let mut c = vec![2, 1, 2];
        let n = arrangements(&c).unwrap();
        let mut all = Vec::new();
        for i in 0..n {
            let mut out = Vec::new();
            unrank(i, &mut c, &mut out);
            all.push(out);
        }
        assert_eq!(c, [2, 1, 2], "scratch restored");
        let mut sorted = all.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted, all, "distinct and ascending");
        assert_eq!(all.len(), 30);
        assert_eq!(all[0], [0, 0, 1, 2, 2]);
        assert_eq!(all[29], [2, 2, 1, 0, 0]);
    }
}
