//! The tail of a distribution of rounds, its parity, and the two-sample Kolmogorov–Smirnov
//! test, all from exact (rounds, games) counts.

use serde::{Deserialize, Serialize};

use super::summary::{nearest_rank, Share};
use super::tail_check::TailCheck;

/// Games the tail fit needs beyond its threshold before it says anything.
const MIN_TAIL_GAMES: u64 = 30;

/// An exponential (geometric) tail fitted to the games longer than the 90th percentile.
///
/// Beyond `from` rounds the share of games still going falls as exp(−rate·(t − from)). The
/// excess k = rounds − `from` of each of the `games` games longer than `from` is taken as
/// geometric, P(k) = (1 − q)·q^(k − 1) for k ≥ 1, whose maximum-likelihood estimate is
/// q = 1 − 1/mean(k); rate = −ln q. The interval maps mean(k) ± 1.96·sem through that
/// (monotone) formula. A geometric tail is memoryless, so the fit does not depend on where
/// beyond the bulk the threshold lies; the 90th percentile leaves 10% of the games to fit.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct TailFit {
    /// The threshold: the 90th percentile (nearest rank) of the games fitted.
    pub from: u64,
    /// Games longer than `from`.
    pub games: u64,
    /// Decay rate per round.
    pub rate: f64,
    /// Its 95% interval.
    pub rate_ci95: [f64; 2],
    /// Rounds over which the share still going falls by a factor e (1/rate).
    pub e_folding_rounds: f64,
    /// Its 95% interval.
    pub e_folding_ci95: [f64; 2],
    /// How well the geometric law fits those games ([`TailCheck`]); absent from summaries
    /// written before it was checked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub check: Option<TailCheck>,
}

impl TailFit {
    /// The fit to `counts` ((rounds, games), ascending), or `None` when fewer than 30 games lie
    /// beyond the 90th percentile or they show no spread to fit.
    pub fn from_counts(counts: &[(u64, u64)]) -> Option<TailFit> {
        let from = nearest_rank(counts, 9, 10);
        let excess: Vec<(u64, u64)> = (counts.iter())
            .filter(|c| c.0 > from)
            .map(|&(t, c)| (t - from, c))
            .collect();
        let (mut m, mut s1, mut s2) = (0u64, 0u128, 0u128);
        for &(k, c) in &excess {
            let k = u128::from(k);
            m += c;
            s1 += k * u128::from(c);
            s2 += k * k * u128::from(c);
        }
        if m < MIN_TAIL_GAMES {
            return None;
        }
        let mf = m as f64;
        let mean = s1 as f64 / mf;
        let var = ((s2 as f64) - (s1 as f64) * mean) / (mf - 1.0);
        let sem = var.max(0.0).sqrt() / mf.sqrt();
        // rate(mean k) = −ln(1 − 1/mean): infinite at mean 1 (every game one round past).
        let rate = |mean: f64| -(1.0 - 1.0 / mean).ln();
        if mean <= 1.0 {
            return None;
        }
        let lo_mean = (mean - 1.96 * sem).max(1.0 + 1e-12);
        let hi_mean = mean + 1.96 * sem;
        let r = rate(mean);
        let ci = [rate(hi_mean), rate(lo_mean)];
        Some(TailFit {
            from,
            games: m,
            rate: r,
            rate_ci95: ci,
            e_folding_rounds: 1.0 / r,
            e_folding_ci95: [1.0 / ci[1], 1.0 / ci[0]],
            check: TailCheck::new(&excess, 1.0 - 1.0 / mean, from),
        })
    }
}

impl TailFit {
    /// The fit placed among the run's games: `ended` holds the counts it was fitted to (the
    /// games that end) and `unended` the games that do not (loops, games stopped at the cap),
    /// which are still going after any number of rounds. Records in the check how many of all
    /// games and of the games that end are still going where it looks far out, so that no
    /// reader takes the share of the fitted games (a tenth of the games that end) for theirs.
    pub fn among(mut self, ended: &[(u64, u64)], unended: u64) -> TailFit {
        if let Some(c) = self.check.as_mut() {
            let n: u64 = ended.iter().map(|c| c.1).sum();
            let beyond: u64 = (ended.iter())
                .filter(|e| e.0 > c.far_rounds)
                .map(|e| e.1)
                .sum();
            c.far_ended = Some(beyond as f64 / n.max(1) as f64);
            c.far_all = Some((beyond + unended) as f64 / (n + unended).max(1) as f64);
        }
        self
    }
}

/// The share of games of even length, with its interval.
pub fn even_share(counts: &[(u64, u64)]) -> Option<Share> {
    let n: u64 = counts.iter().map(|c| c.1).sum();
    let even: u64 = counts.iter().filter(|c| c.0 % 2 == 0).map(|c| c.1).sum();
    (n > 0).then(|| Share::new(even, n))
}

/// The two-sample Kolmogorov–Smirnov statistic of two distributions given as exact counts,
/// and its asymptotic p-value.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Ks {
    /// The largest distance between the two empirical distribution functions.
    pub d: f64,
    /// The probability of a distance at least `d` between two samples of these sizes from one
    /// continuous distribution (Kolmogorov's limit with Stephens' correction). Round counts
    /// are whole numbers with many ties, which makes the test conservative: the true p-value
    /// is at most this.
    pub p: f64,
}

impl Ks {
    /// The test of `a` against `b` ((value, count), ascending), or `None` if either is empty.
    ///
    /// D is exact: the largest |Fa(t) − Fb(t)| over the values t of either sample, formed as
    /// |ca·nb − cb·na| in integers and divided once by na·nb.
    pub fn new(a: &[(u64, u64)], b: &[(u64, u64)]) -> Option<Ks> {
        let na: u64 = a.iter().map(|c| c.1).sum();
        let nb: u64 = b.iter().map(|c| c.1).sum();
        if na == 0 || nb == 0 {
            return None;
        }
        let (mut i, mut j) = (0, 0);
        let (mut ca, mut cb) = (0u128, 0u128);
        let mut best = 0u128;
        while i < a.len() || j < b.len() {
            let t = match (a.get(i), b.get(j)) {
                (Some(x), Some(y)) => x.0.min(y.0),
                (Some(x), None) => x.0,
                (None, Some(y)) => y.0,
                (None, None) => break,
            };
            while i < a.len() && a[i].0 == t {
                ca += u128::from(a[i].1);
                i += 1;
            }
            while j < b.len() && b[j].0 == t {
                cb += u128::from(b[j].1);
                j += 1;
            }
            best = best.max((ca * u128::from(nb)).abs_diff(cb * u128::from(na)));
        }
        let d = best as f64 / (na as f64 * nb as f64);
        let ne = (na as f64 * nb as f64) / (na as f64 + nb as f64);
        let root = ne.sqrt();
        Some(Ks {
            d,
            p: kolmogorov_q((root + 0.12 + 0.11 / root) * d),
        })
    }
}

/// Holm's step-down adjustment of the p-values `p` of several tests: the k-th smallest is
/// multiplied by (m − k + 1) for m tests, each kept at least its predecessor's and at most 1.
/// Rejecting where the adjusted value is below α keeps the chance of any false rejection at
/// most α, whatever the dependence between the tests (Holm, 1979).
pub fn holm(p: &[f64]) -> Vec<f64> {
    let m = p.len();
    let mut order: Vec<usize> = (0..m).collect();
    order.sort_by(|&a, &b| p[a].total_cmp(&p[b]));
    let mut out = vec![0.0; m];
    let mut running = 0.0f64;
    for (k, &i) in order.iter().enumerate() {
        running = running.max(((m - k) as f64 * p[i]).min(1.0));
        out[i] = running;
    }
    out
}

/// Q(λ) = P(K > λ) for Kolmogorov's distribution: 2 Σ (−1)^(j−1) exp(−2j²λ²), or for small λ
/// (where that series converges slowly) 1 − √(2π)/λ Σ exp(−(2j − 1)²π²/(8λ²)).
fn kolmogorov_q(lambda: f64) -> f64 {
    if lambda <= 0.0 {
        return 1.0;
    }
    let q = if lambda < 1.18 {
        let pi2 = std::f64::consts::PI * std::f64::consts::PI;
        let s: f64 = (1..=20)
            .map(|j| {
                let k = (2 * j - 1) as f64;
                (-k * k * pi2 / (8.0 * lambda * lambda)).exp()
            })
            .sum();
        1.0 - (2.0 * std::f64::consts::PI).sqrt() / lambda * s
    } else {
        2.0 * (1..=100)
            .map(|j| {
                let j = j as f64;
                let sign = if j as u64 % 2 == 1 { 1.0 } else { -1.0 };
                sign * (-2.0 * j * j * lambda * lambda).exp()
            })
            .sum::<f64>()
    };
    q.clamp(0.0, 1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Counts with a known geometric tail: P(rounds = t) = (1 − q)·q^(t − 1), t ≥ 1, scaled
    /// to `n` games and rounded.
    fn geometric(q: f64, n: f64, max: u64) -> Vec<(u64, u64)> {
        (1..=max)
            .map(|t| (t, (n * (1.0 - q) * q.powi(t as i32 - 1)).round() as u64))
            .filter(|c| c.1 > 0)
            .collect()
    }

    #[test]
    fn a_geometric_tail_is_fitted_at_its_rate() {
        for q in [0.9, 0.99, 0.995] {
            let counts = geometric(q, 1e10, 20_000);
            let fit = TailFit::from_counts(&counts).unwrap();
            let rate = -q.ln();
            assert!(
                (fit.rate - rate).abs() / rate < 1e-3,
                "q {q}: {fit:?} vs {rate}"
            );
            assert!(
                fit.rate_ci95[0] < rate && rate < fit.rate_ci95[1],
                "q {q}: {fit:?}"
            );
            assert!((fit.e_folding_rounds * fit.rate - 1.0).abs() < 1e-12);
            // The threshold is the 90th percentile: q^from ≈ 0.1.
            assert!(
                (q.powi(fit.from as i32) - 0.1).abs() < 0.1 * (1.0 - q) + 1e-3,
                "{fit:?}"
            );
        }
    }

    /// Far out, the fitted games' share is about ten times the share of all games (the fit
    /// starts at the 90th percentile); games that never end are still going.
    #[test]
    fn far_shares_are_of_all_games_and_of_the_games_that_end() {
        let counts = geometric(0.99, 1e6, 5_000);
        let n: u64 = counts.iter().map(|c| c.1).sum();
        let fit = TailFit::from_counts(&counts).unwrap().among(&counts, 0);
        let c = fit.check.unwrap();
        let beyond: u64 = counts
            .iter()
            .filter(|e| e.0 > c.far_rounds)
            .map(|e| e.1)
            .sum();
        assert_eq!(c.far_all, Some(beyond as f64 / n as f64));
        assert_eq!(c.far_ended, c.far_all);
        assert!((c.far_observed * fit.games as f64 - beyond as f64).abs() < 1e-6);
        assert!(
            (c.far_observed / c.far_all.unwrap() - 10.0).abs() < 0.1,
            "{c:?}"
        );
        let with_loops = TailFit::from_counts(&counts).unwrap().among(&counts, n);
        let c = with_loops.check.unwrap();
        assert_eq!(c.far_all, Some((beyond + n) as f64 / (2 * n) as f64));
        assert_eq!(c.far_ended, Some(beyond as f64 / n as f64));
    }

    #[test]
    fn a_tail_too_thin_to_fit_says_nothing() {
        assert_eq!(TailFit::from_counts(&[(3, 100), (4, 5)]), None);
        assert_eq!(TailFit::from_counts(&[]), None);
    }

    #[test]
    fn parity_counts_even_lengths() {
        let s = even_share(&[(2, 3), (3, 1), (4, 4)]).unwrap();
        assert_eq!((s.count, s.share), (7, 7.0 / 8.0));
        assert_eq!(even_share(&[]), None);
    }

    #[test]
    fn ks_by_hand() {
        // Fa = 1/3, 2/3, 1, 1 and Fb = 0, 1/3, 2/3, 1 at 1..4: D = 1/3.
        let a = [(1, 1), (2, 1), (3, 1)];
        let b = [(2, 1), (3, 1), (4, 1)];
        let ks = Ks::new(&a, &b).unwrap();
        assert!((ks.d - 1.0 / 3.0).abs() < 1e-15);
        // Counts, not samples: the same distribution ten times over is still D = 1/3.
        let a10: Vec<(u64, u64)> = a.iter().map(|&(v, c)| (v, 10 * c)).collect();
        assert!((Ks::new(&a10, &b).unwrap().d - 1.0 / 3.0).abs() < 1e-15);
        // Disjoint samples: D = 1, and for 1,000 games each no doubt is left.
        let far = Ks::new(&[(1, 1000)], &[(5, 1000)]).unwrap();
        assert_eq!(far.d, 1.0);
        assert!(far.p < 1e-100);
        // Identical: D = 0, p = 1.
        let same = Ks::new(&a10, &a10).unwrap();
        assert_eq!((same.d, same.p), (0.0, 1.0));
    }

    /// As R's `p.adjust(c(0.01, 0.04, 0.03, 0.005), "holm")`: 0.03 0.06 0.06 0.02.
    #[test]
    fn holm_matches_r() {
        let adjusted = holm(&[0.01, 0.04, 0.03, 0.005]);
        for (got, want) in adjusted.iter().zip([0.03, 0.06, 0.06, 0.02]) {
            assert!((got - want).abs() < 1e-12, "{adjusted:?}");
        }
        assert_eq!(holm(&[0.5, 0.9]), vec![1.0, 1.0]);
        assert!(holm(&[]).is_empty());
    }

    #[test]
    fn kolmogorov_tail_matches_tabulated_values() {
        // Critical values of Kolmogorov's distribution: P(K > 1.3581) = 0.05,
        // P(K > 1.6276) = 0.01, P(K > 1.2239) = 0.10; and both series agree where they meet.
        for (lambda, p) in [
            (1.3581, 0.05),
            (1.6276, 0.01),
            (1.2239, 0.10),
            (0.8276, 0.5),
        ] {
            assert!(
                (kolmogorov_q(lambda) - p).abs() < 2e-4,
                "{lambda}: {}",
                kolmogorov_q(lambda)
            );
        }
        let (below, above) = (kolmogorov_q(1.18 - 1e-12), kolmogorov_q(1.18 + 1e-12));
        assert!((below - above).abs() < 1e-9);
    }
}
