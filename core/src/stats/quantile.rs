//! Distribution-free 95% intervals for quantiles, from exact counts: a pair of order statistics
//! whose ranks a binomial count brackets (Hahn and Meeker, *Statistical Intervals*, §5.2).
//!
//! Of n games, the number B at or below the true p quantile is Binomial(n, p) (for whole
//! numbers with ties, at least as spread towards covering), so the l-th and u-th smallest values
//! cover it unless B < l or B ≥ u. The ranks are chosen so that each of those has at most a
//! 2.5% chance under Binomial(n, p), computed exactly (no normal approximation): the interval
//! covers the quantile at least 95% of the time whatever the distribution, and more where the
//! values tie, as rounds do.

use serde::{Deserialize, Serialize};

use super::words::grouped;

/// The chance each end may miss.
const TAIL: f64 = 0.025;

/// A 95% interval of a quantile: the values at two ranks. An end is `None` where no rank
/// qualifies: too few games lie beyond the quantile to bound it on that side at 95% (p99.9 of
/// 2,000 games has no upper end).
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Bounds(pub [Option<u64>; 2]);

impl Bounds {
    /// The interval as the terminal and tables write it: `203 to 205`; with one end unknown
    /// `up to 33` or `4,400 or more`; with neither `none (too few games)`.
    pub fn text(&self) -> String {
        match self.0 {
            [Some(lo), Some(hi)] => format!("{} to {}", grouped(lo), grouped(hi)),
            [None, Some(hi)] => format!("up to {}", grouped(hi)),
            [Some(lo), None] => format!("{} or more", grouped(lo)),
            [None, None] => "none (too few games)".into(),
        }
    }
}

/// The 1-based ranks (l, u) of the interval of the `num/den` quantile of `n` values: l the
/// largest rank with P(B ≤ l − 1) ≤ 2.5%, u the smallest with P(B ≥ u) ≤ 2.5%, for
/// B ~ Binomial(n, num/den); `None` for a rank outside 1..=n.
///
/// The binomial probabilities are summed term by term over the mode ± (10 sd + 20), beyond
/// which they are below e⁻⁵⁰ of the mode's: each term from its neighbour by the exact ratio
/// of consecutive terms, and the sum normalised by the window's total, so no factorial (and no
/// rounding of one) enters. The work grows as √n: 32,000 terms for ten million games.
pub fn ranks(n: u64, num: u64, den: u64) -> (Option<u64>, Option<u64>) {
    if n == 0 || num == 0 || num >= den {
        return (None, None);
    }
    let p = num as f64 / den as f64;
    let nf = n as f64;
    let sd = (nf * p * (1.0 - p)).sqrt();
    let mode = (((nf + 1.0) * p).floor() as u64).min(n);
    let reach = (10.0 * sd).ceil() as u64 + 20;
    let (lo, hi) = (
        mode.saturating_sub(reach),
        mode.saturating_add(reach).min(n),
    );
    let odds = p / (1.0 - p);
    let mut pmf = vec![0.0f64; (hi - lo + 1) as usize];
    let at = |k: u64| (k - lo) as usize;
    pmf[at(mode)] = 1.0;
    for k in (lo..mode).rev() {
        // P(k) = P(k + 1) · (k + 1) / ((n − k) · odds)
        pmf[at(k)] = pmf[at(k + 1)] * (k + 1) as f64 / ((n - k) as f64 * odds);
    }
    for k in mode + 1..=hi {
        // P(k) = P(k − 1) · (n − k + 1) · odds / k
        pmf[at(k)] = pmf[at(k - 1)] * (n - k + 1) as f64 * odds / k as f64;
    }
    let total: f64 = pmf.iter().sum();
    let (mut below, mut l, mut u) = (0.0, None, None);
    for k in lo..=hi {
        // `below` is P(B ≤ k − 1) here.
        if k >= 1 && below <= TAIL * total {
            l = Some(k);
        }
        below += pmf[at(k)];
        if u.is_none() && total - below <= TAIL * total {
            u = Some(k + 1);
        }
    }
    (l, u.filter(|&u| u <= n))
}

/// The value of rank `r` (1-based) in `counts` ((value, count), ascending).
fn at_rank(counts: &[(u64, u64)], r: u64) -> Option<u64> {
    let mut cum = 0u64;
    counts.iter().find_map(|&(v, c)| {
        cum += c;
        (cum >= r).then_some(v)
    })
}

/// The 95% interval of the `num/den` quantile of `counts` ((value, count), ascending).
pub fn interval(counts: &[(u64, u64)], num: u64, den: u64) -> Bounds {
    let n: u64 = counts.iter().map(|c| c.1).sum();
    let (l, u) = ranks(n, num, den);
    Bounds([
        l.and_then(|r| at_rank(counts, r)),
        u.and_then(|r| at_rank(counts, r)),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// P(B ≤ k) for B ~ Binomial(n, p), summed from binomial coefficients, for small n.
    fn cdf(n: u64, p: f64, k: i64) -> f64 {
        let mut c = 1.0f64;
        let mut sum = 0.0;
        for j in 0..=n {
            if j as i64 > k {
                break;
            }
            sum += c * p.powi(j as i32) * (1.0 - p).powi((n - j) as i32);
            c = c * (n - j) as f64 / (j + 1) as f64;
        }
        sum
    }

    /// Conover's table (Practical Nonparametric Statistics, table A3): the median of 20 values
    /// is bracketed by the 6th and 15th (coverage 95.86%); of 100 by the 40th and 61st.
    #[test]
    fn median_ranks_match_the_tables() {
        assert_eq!(ranks(20, 1, 2), (Some(6), Some(15)));
        assert_eq!(ranks(100, 1, 2), (Some(40), Some(61)));
    }

    /// Every rank is the extreme one its rule allows, checked against the binomial summed
    /// directly, for small n and every quantile the summary prints.
    #[test]
    fn ranks_are_the_extreme_ones_with_at_most_2_5_percent_each_side() {
        for n in [1u64, 2, 5, 10, 37, 100, 250] {
            for (num, den) in [
                (1, 100),
                (5, 100),
                (1, 4),
                (1, 2),
                (3, 4),
                (99, 100),
                (999, 1000),
            ] {
                let p = num as f64 / den as f64;
                let (l, u) = ranks(n, num, den);
                let slack = 1e-12;
                match l {
                    Some(l) => {
                        assert!(cdf(n, p, l as i64 - 1) <= TAIL + slack, "n {n} p {p}");
                        assert!(l == n || cdf(n, p, l as i64) > TAIL - slack, "n {n} p {p}");
                    }
                    None => assert!(cdf(n, p, 0) > TAIL - slack, "n {n} p {p}"),
                }
                match u {
                    Some(u) => {
                        assert!(1.0 - cdf(n, p, u as i64 - 1) <= TAIL + slack, "n {n} p {p}");
                        assert!(u == 1 || 1.0 - cdf(n, p, u as i64 - 2) > TAIL - slack);
                    }
                    None => assert!(1.0 - cdf(n, p, n as i64 - 1) > TAIL - slack, "n {n} p {p}"),
                }
            }
        }
    }

    /// For large n the ranks sit about 1.96 sd either side of n·p.
    #[test]
    fn large_samples_bracket_n_p_by_two_sd() {
        let n = 10_000_000u64;
        let (l, u) = ranks(n, 1, 2);
        let (l, u) = (l.unwrap() as f64, u.unwrap() as f64);
        let sd = (n as f64 * 0.25).sqrt();
        assert!(((5e6 - l) / sd - 1.96).abs() < 0.01, "{l}");
        assert!(((u - 5e6) / sd - 1.96).abs() < 0.01, "{u}");
    }

    #[test]
    fn intervals_read_the_values_at_the_ranks() {
        // 20 values 1..=20: the median's interval is [6, 15].
        let counts: Vec<(u64, u64)> = (1..=20).map(|v| (v, 1)).collect();
        assert_eq!(interval(&counts, 1, 2), Bounds([Some(6), Some(15)]));
        // Ties: ten 3s and ten 7s, ranks 6 and 15 fall on 3 and 7.
        assert_eq!(
            interval(&[(3, 10), (7, 10)], 1, 2),
            Bounds([Some(3), Some(7)])
        );
        // Too few values for p99.9: no upper end, and none at all for one value.
        assert_eq!(interval(&counts, 999, 1000).0[1], None);
        assert_eq!(interval(&[(4, 1)], 1, 2), Bounds([None, None]));
        assert_eq!(interval(&[], 1, 2), Bounds([None, None]));
        assert_eq!(Bounds([Some(1058), Some(1075)]).text(), "1,058 to 1,075");
        assert_eq!(Bounds([Some(4400), None]).text(), "4,400 or more");
    }
}
