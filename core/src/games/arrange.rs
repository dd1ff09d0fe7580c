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
///
/// The arrangements that begin with value `r` number `T·c[r]/m`, where T counts those of the
/// `m` cards left: one product and one division a candidate, not a count from scratch (which
/// made unranking most of `exact war`'s time), in u64 where T·m fits (every deal `exact`
/// plays).
pub fn unrank(i: u128, c: &mut [u32], out: &mut Vec<Card>) {
    let n: u32 = c.iter().sum();
    let total = arrangements(c);
    match total.and_then(|t| u64::try_from(t).ok()) {
        Some(t) if t.checked_mul(u64::from(n)).is_some() => unrank_u64(i as u64, t, n, c, out),
        _ => unrank_u128(i, total, n, c, out),
    }
    for &card in out.iter().rev().take(n as usize) {
        c[usize::from(card)] += 1;
    }
}

/// [`unrank`] of `n` cards with `total` arrangements, T·m computed in u64; leaves `c` empty.
/// `T·c[r]` is a multiple of m, so it is divided exactly by a shift and a product with the
/// inverse of m's odd part modulo 2^64, not by a division a candidate.
fn unrank_u64(mut i: u64, mut total: u64, n: u32, c: &mut [u32], out: &mut Vec<Card>) {
    for m in (1..=u64::from(n)).rev() {
        let shift = m.trailing_zeros();
        let odd = m >> shift;
        // Newton's iteration doubles the correct low bits: 3 (odd·odd ≡ 1 mod 8), then 6,
        // 12, 24, 48, 96.
        let inverse = (0..5).fold(odd, |x: u64, _| {
            x.wrapping_mul(2u64.wrapping_sub(odd.wrapping_mul(x)))
        });
        for (r, count) in c.iter_mut().enumerate() {
            let k = ((total * u64::from(*count)) >> shift).wrapping_mul(inverse);
            if i < k {
                out.push(r as Card);
                *count -= 1;
                total = k;
                break;
            }
            i -= k;
        }
    }
}

/// [`unrank`] past u64: a count that overflows u128 (`None`) is taken from scratch.
fn unrank_u128(mut i: u128, mut total: Option<u128>, n: u32, c: &mut [u32], out: &mut Vec<Card>) {
    for m in (1..=n).rev() {
        for r in 0..c.len() {
            if c[r] == 0 {
                continue;
            }
            let k = match total.and_then(|t| t.checked_mul(u128::from(c[r]))) {
                Some(product) => product / u128::from(m),
                None => {
                    c[r] -= 1;
                    let k = arrangements(c);
                    c[r] += 1;
                    k.unwrap_or(u128::MAX)
                }
            };
            if i < k {
                out.push(r as Card);
                c[r] -= 1;
                total = Some(k).filter(|&k| k != u128::MAX);
                break;
            }
            i -= k;
        }
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
    fn both_widths_unrank_alike_and_counts_past_u128_still_unrank() {
        let counts = vec![2, 3, 0, 1, 2];
        let total = arrangements(&counts).unwrap();
        for i in 0..total {
            let (mut narrow, mut wide) = (Vec::new(), Vec::new());
            unrank_u64(i as u64, total as u64, 8, &mut counts.clone(), &mut narrow);
            unrank_u128(i, Some(total), 8, &mut counts.clone(), &mut wide);
            assert_eq!(narrow, wide, "arrangement {i}");
        }
        // 52!/(4!)^13 is past u128: the first arrangement is the sorted deck, and a late one
        // is still an arrangement of the deck.
        let mut c = vec![4; 13];
        let sorted: Vec<Card> = (0..13).flat_map(|r| [r; 4]).collect();
        for (i, want_sorted) in [(0, true), (10u128.pow(36), false)] {
            let mut out = Vec::new();
            unrank(i, &mut c, &mut out);
            assert_eq!(c, [4; 13], "scratch restored");
            assert_eq!(out == sorted, want_sorted);
            out.sort();
            assert_eq!(out, sorted);
        }
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
