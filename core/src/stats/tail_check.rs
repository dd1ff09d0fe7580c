//! How well the geometric law of a fitted tail ([`TailFit`](super::tail::TailFit)) fits the
//! games it was fitted to: Pearson's χ² over bins equally likely under the fit, and the share
//! still going far out, observed beside fitted, so that a tail that is not exponential (War's
//! `p1-first` pickup, whose survival bends) is said to be so instead of read off a precise rate.

use serde::{Deserialize, Serialize};

/// Most bins of the χ² test; fewer when the tail is thin, so each bin expects 10 games.
const MAX_BINS: u64 = 20;
/// The level below which the tail is said not to be exponential.
pub const LEVEL: f64 = 0.01;

/// The check of a fitted tail.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct TailCheck {
    /// Pearson's χ² of the fitted games' excess rounds in bins about equally likely under the
    /// fit, each an even number of rounds wide.
    pub chi2: f64,
    /// Its degrees of freedom: the bins less two (their total, and the rate fitted).
    pub df: u32,
    /// The chance of a χ² at least `chi2` if the tail were geometric (an estimated rate makes
    /// it a little small).
    pub p: f64,
    /// Whether the geometric law holds at the 1% level (`p` ≥ 0.01).
    pub exponential: bool,
    /// Far out in the fitted games' rounds, where the fit is checked by eye: their 99th
    /// percentile, or a nearer one that leaves about ten games beyond it when fewer than 1,000
    /// were fitted.
    pub far_rounds: u64,
    /// The share of the fitted games still going after `far_rounds`.
    pub far_observed: f64,
    /// That share as the fit says.
    pub far_fitted: f64,
    /// The share of all the run's games still going after `far_rounds`, as histogram.csv and
    /// the survival chart count them: the games that end later, and every game that loops or
    /// was stopped at the cap ([`TailFit::among`](super::tail::TailFit::among)). `far_observed`
    /// is ten times larger where the fit starts at the 90th percentile; absent from summaries
    /// written before it was recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub far_all: Option<f64>,
    /// The share of the games that end (those the fit is to) still going after `far_rounds`:
    /// `far_all` less the games that never end, the grey curve of a survival chart with loops.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub far_ended: Option<f64>,
}

impl TailCheck {
    /// The check of the geometric law with ratio `q` (P(K > k) = q^k, k ≥ 1) against the
    /// excess rounds `counts` ((k, games), ascending, k ≥ 1) of the `from`-rounds threshold;
    /// `None` when the tail holds too few games for three bins.
    pub fn new(counts: &[(u64, u64)], q: f64, from: u64) -> Option<TailCheck> {
        let m: u64 = counts.iter().map(|c| c.1).sum();
        let bins = MAX_BINS.min(m / 10);
        if bins < 3 || !(q > 0.0 && q < 1.0) {
            return None;
        }
        // Upper edges (inclusive) of bins about equally likely under the fit, distinct and
        // rising; the last bin runs on without end. Each edge is even, so every bin holds as
        // many odd round counts as even ones: War's games end on an even round far more often
        // (its parity), which a bin of odd width would count against the fit.
        let mut edges: Vec<u64> = (1..bins)
            .map(|j| {
                ((1.0 - j as f64 / bins as f64).ln() / q.ln())
                    .ceil()
                    .max(1.0) as u64
            })
            .map(|k| k + k % 2)
            .collect();
        edges.dedup();
        let survive = |k: u64| q.powf(k as f64);
        let (mut chi2, mut lower, mut i) = (0.0, 0u64, 0usize);
        for upper in edges.iter().copied().map(Some).chain([None]) {
            let mut observed = 0u64;
            while i < counts.len() && upper.is_none_or(|u| counts[i].0 <= u) {
                observed += counts[i].1;
                i += 1;
            }
            let share = survive(lower) - upper.map_or(0.0, survive);
            let expected = m as f64 * share;
            chi2 += (observed as f64 - expected).powi(2) / expected;
            lower = upper.unwrap_or(lower);
        }
        let df = (edges.len() + 1).checked_sub(2).filter(|&d| d >= 1)? as u32;
        let p = gamma_q(f64::from(df) / 2.0, chi2 / 2.0);
        // Far out, with games still beyond to count: the 99th percentile, or nearer where
        // fewer than 1,000 games were fitted, so that about ten lie beyond it.
        let num = 100 - 1000u64.div_ceil(m).clamp(1, 50);
        let far = super::summary::nearest_rank(counts, num, 100);
        let beyond: u64 = counts.iter().filter(|c| c.0 > far).map(|c| c.1).sum();
        Some(TailCheck {
            chi2,
            df,
            p,
            exponential: p >= LEVEL,
            far_rounds: from + far,
            far_observed: beyond as f64 / m as f64,
            far_fitted: survive(far),
            far_all: None,
            far_ended: None,
        })
    }
}

/// The two-sided p-value of a standard normal statistic `z`: P(|Z| ≥ |z|), which is the chance
/// that a χ² of one degree of freedom exceeds z².
pub fn normal_two_sided(z: f64) -> f64 {
    gamma_q(0.5, z * z / 2.0)
}

/// ln Γ(x) for x > 0 (Lanczos, g = 7, 9 terms: 15 digits).
fn ln_gamma(x: f64) -> f64 {
    const C: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    let x = x - 1.0;
    let t = x + 7.5;
    let sum = (1..9).fold(C[0], |s, i| s + C[i] / (x + i as f64));
    0.5 * (2.0 * std::f64::consts::PI).ln() + (x + 0.5) * t.ln() - t + sum.ln()
}

/// Q(a, x), the regularised upper incomplete gamma function: the chance that a χ² of 2a
/// degrees of freedom exceeds 2x. A series below a + 1, a continued fraction above
/// (Numerical Recipes, §6.2), each to 1e-15.
fn gamma_q(a: f64, x: f64) -> f64 {
    if x <= 0.0 {
        return 1.0;
    }
    let front = (a * x.ln() - x - ln_gamma(a)).exp();
    if x < a + 1.0 {
        let (mut term, mut sum, mut n) = (1.0 / a, 1.0 / a, a);
        while term.abs() > sum.abs() * 1e-15 {
            n += 1.0;
            term *= x / n;
            sum += term;
        }
        return (1.0 - sum * front).max(0.0);
    }
    // Lentz's method for the continued fraction.
    let tiny = 1e-300;
    let mut b = x + 1.0 - a;
    let (mut c, mut d) = (1.0 / tiny, 1.0 / b);
    let mut h = d;
    for i in 1..10_000 {
        let an = -(i as f64) * (i as f64 - a);
        b += 2.0;
        d = an * d + b;
        d = if d.abs() < tiny { tiny } else { d };
        c = b + an / c;
        c = if c.abs() < tiny { tiny } else { c };
        d = 1.0 / d;
        let delta = d * c;
        h *= delta;
        if (delta - 1.0).abs() < 1e-15 {
            break;
        }
    }
    front * h
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Tabulated χ² tail probabilities (any statistics table): df 1 at 3.841 is 0.05, df 10 at
    /// 23.209 is 0.01, df 18 at 18 is 0.4557; and Γ(5) = 24.
    #[test]
    fn chi_square_tails_match_tables() {
        assert!((ln_gamma(5.0) - 24f64.ln()).abs() < 1e-12);
        assert!((ln_gamma(0.5) - std::f64::consts::PI.sqrt().ln()).abs() < 1e-12);
        for (df, x, p) in [
            (1.0, 3.841_459, 0.05),
            (10.0, 23.209_25, 0.01),
            (18.0, 18.0, 0.455_70),
        ] {
            let q = gamma_q(df / 2.0, x / 2.0);
            assert!((q - p).abs() < 1e-4, "df {df} x {x}: {q}");
        }
        assert_eq!(gamma_q(2.0, 0.0), 1.0);
        assert!((normal_two_sided(1.959_964) - 0.05).abs() < 1e-6);
        assert!(gamma_q(9.0, 5_000.0) < 1e-300);
    }

    /// Exact geometric counts pass; the same games with a tail ten times too heavy far out
    /// (a mixture of two rates) fail, and the far share says by how much.
    #[test]
    fn a_geometric_tail_holds_and_a_bent_one_does_not() {
        let q = 0.99;
        let counts = |mix: f64| -> Vec<(u64, u64)> {
            (1..3_000u64)
                .map(|k| {
                    let p = |q: f64| (1.0 - q) * q.powi(k as i32 - 1);
                    (
                        k,
                        (1e6 * ((1.0 - mix) * p(q) + mix * p(0.999))).round() as u64,
                    )
                })
                .filter(|c| c.1 > 0)
                .collect()
        };
        let plain = TailCheck::new(&counts(0.0), q, 100).unwrap();
        assert!(plain.exponential && plain.p > 0.5, "{plain:?}");
        assert!(
            (plain.far_observed / plain.far_fitted - 1.0).abs() < 0.05,
            "{plain:?}"
        );
        assert_eq!(plain.df, 18);
        let bent = counts(0.05);
        let m: u64 = bent.iter().map(|c| c.1).sum();
        let mean = bent.iter().map(|c| c.0 * c.1).sum::<u64>() as f64 / m as f64;
        let bent = TailCheck::new(&bent, 1.0 - 1.0 / mean, 100).unwrap();
        assert!(!bent.exponential && bent.p < 1e-10, "{bent:?}");
        assert!(bent.far_observed > 2.0 * bent.far_fitted, "{bent:?}");
        assert!(TailCheck::new(&[(1, 20)], q, 0).is_none());
    }
}
