//! Statistics computed once, from exact counts: nothing here is accumulated in floating point
//! across games, so a statistic cannot depend on the order in which parts of a run were merged.

use serde::de::{Deserializer, MapAccess, Visitor};
use serde::ser::{SerializeMap, Serializer};
use serde::{Deserialize, Serialize};

use super::quantile::{self, Bounds};
// How numbers are written lives in `words`, which the quantiles use too; the summary's callers
// find it here beside the figures it writes.
pub use super::words::{counted, fixed, fraction, grouped, grouped_in, pct, percent};

/// The quantiles reported besides the median, as (JSON key, numerator, denominator).
pub const QUANTILES: [(&str, u64, u64); 7] = [
    ("p1", 1, 100),
    ("p5", 5, 100),
    ("p25", 25, 100),
    ("p75", 75, 100),
    ("p95", 95, 100),
    ("p99", 99, 100),
    ("p99.9", 999, 1000),
];

/// Summary statistics of a distribution of whole numbers given as (value, count) pairs.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Distribution {
    /// Number of observations.
    pub n: u64,
    /// Arithmetic mean.
    pub mean: f64,
    /// Standard deviation, denominator n − 1 (`None` for a single observation, which has no
    /// spread to estimate).
    pub sd: Option<f64>,
    /// Standard error of the mean, sd / √n.
    pub sem: Option<f64>,
    /// 95% interval of the mean, mean ± 1.96·sem.
    pub ci95: Option<[f64; 2]>,
    /// Nearest-rank median.
    pub median: u64,
    /// Smallest value.
    pub min: u64,
    /// Largest value.
    pub max: u64,
    /// Nearest-rank quantiles keyed as in [`QUANTILES`].
    pub quantiles: serde_json::Map<String, serde_json::Value>,
    /// The median's distribution-free 95% interval ([`quantile::interval`]); absent from
    /// summaries written before it was computed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub median_ci95: Option<Bounds>,
    /// Each quantile's, keyed as `quantiles`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub quantiles_ci95: Option<Named<Bounds>>,
}

/// The nearest-rank quantile `num/den` of `counts` (ascending values): the smallest value whose
/// cumulative count reaches `num/den · n`, as R's `quantile(type = 1)`. Exact integer arithmetic.
pub fn nearest_rank(counts: &[(u64, u64)], num: u64, den: u64) -> u64 {
    let n: u64 = counts.iter().map(|c| c.1).sum();
    let target = u128::from(num) * u128::from(n);
    let mut cum = 0u128;
    for &(v, c) in counts {
        cum += u128::from(c);
        if cum * u128::from(den) >= target {
            return v;
        }
    }
    counts.last().map_or(0, |c| c.0)
}

impl Distribution {
    /// The statistics of `counts`: (value, count) pairs in ascending value order, counts > 0.
    /// Returns `None` for an empty distribution.
    ///
    /// The sums Σc·v and Σc·v² are exact (u128); the variance is formed as
    /// (n·Σv² − (Σv)²) / (n(n − 1)) in integers before the one division in floating point.
    pub fn from_counts(counts: &[(u64, u64)]) -> Option<Distribution> {
        let n: u64 = counts.iter().map(|c| c.1).sum();
        if n == 0 {
            return None;
        }
        let (mut s1, mut s2) = (0u128, 0u128);
        for &(v, c) in counts {
            let (v, c) = (u128::from(v), u128::from(c));
            s1 += v * c;
            s2 += v * v * c;
        }
        let nn = u128::from(n);
        let mean = s1 as f64 / n as f64;
        let sd = (n >= 2).then(|| {
            let var = match nn.checked_mul(s2) {
                Some(ns2) => (ns2 - s1 * s1) as f64 / (n as f64 * (n - 1) as f64),
                None => (s2 as f64 - s1 as f64 * mean) / (n - 1) as f64,
            };
            var.max(0.0).sqrt()
        });
        let sem = sd.map(|sd| sd / (n as f64).sqrt());
        let quantiles = QUANTILES
            .iter()
            .map(|&(k, num, den)| (k.to_string(), nearest_rank(counts, num, den).into()))
            .collect();
        let intervals = QUANTILES
            .iter()
            .map(|&(k, num, den)| (k.to_string(), quantile::interval(counts, num, den)))
            .collect();
        Some(Distribution {
            n,
            mean,
            sd,
            sem,
            ci95: sem.map(|sem| [mean - 1.96 * sem, mean + 1.96 * sem]),
            median: nearest_rank(counts, 1, 2),
            min: counts[0].0,
            max: counts[counts.len() - 1].0,
            quantiles,
            median_ci95: Some(quantile::interval(counts, 1, 2)),
            quantiles_ci95: Some(Named(intervals)),
        })
    }
}

/// A share k/n with its 95% Wilson score interval, which stays inside [0, 1] and is honest
/// when k is 0 or n (where mean ± 1.96·se would claim no uncertainty at all).
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Share {
    /// Number of games with the property.
    pub count: u64,
    /// count / n.
    pub share: f64,
    /// 95% Wilson interval of the share.
    pub ci95: [f64; 2],
}

impl Share {
    /// The share `k` of `n` (n > 0).
    pub fn new(k: u64, n: u64) -> Share {
        let (kf, nf) = (k as f64, n as f64);
        let p = kf / nf;
        let z = 1.96f64;
        let denom = 1.0 + z * z / nf;
        let centre = (p + z * z / (2.0 * nf)) / denom;
        let half = z * (p * (1.0 - p) / nf + z * z / (4.0 * nf * nf)).sqrt() / denom;
        Share {
            count: k,
            share: p,
            ci95: [(centre - half).max(0.0), (centre + half).min(1.0)],
        }
    }

    /// The count and its share as tables show them: `43,850 (43.850%)`.
    pub fn text(&self) -> String {
        format!("{} ({})", grouped(self.count), pct(self.share))
    }

    /// Its interval as every output writes it: `43.124% to 44.499%`.
    pub fn interval_text(&self) -> String {
        format!("{} to {}", pct(self.ci95[0]), pct(self.ci95[1]))
    }
}

/// Values by name, in a fixed order: a JSON object whose keys keep that order.
#[derive(Clone, Debug, PartialEq)]
pub struct Named<T>(pub Vec<(String, T)>);

/// Its schema is a map's, as it serializes: names to values.
#[cfg(feature = "schema")]
impl<T: schemars::JsonSchema> schemars::JsonSchema for Named<T> {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        <std::collections::BTreeMap<String, T>>::schema_name()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        <std::collections::BTreeMap<String, T>>::json_schema(generator)
    }

    fn inline_schema() -> bool {
        true
    }
}

impl<T: Serialize> Serialize for Named<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            m.serialize_entry(k, v)?;
        }
        m.end()
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Named<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<T>(std::marker::PhantomData<T>);
        impl<'de, T: Deserialize<'de>> Visitor<'de> for V<T> {
            type Value = Named<T>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Named<T>, A::Error> {
                let mut out = Vec::new();
                while let Some(entry) = map.next_entry::<String, T>()? {
                    out.push(entry);
                }
                Ok(Named(out))
            }
        }
        d.deserialize_map(V(std::marker::PhantomData))
    }
}

impl<T> Named<T> {
    /// The value named `key`.
    pub fn get(&self, key: &str) -> Option<&T> {
        self.0.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fractions_in_lowest_terms() {
        assert_eq!(fraction(6, 8), "3/4");
        assert_eq!(fraction(0, 8), "0/1");
        assert_eq!(fraction(7, 7), "1/1");
        assert_eq!(fraction(34_650, 369_600), "3/32");
    }

    #[test]
    fn decimals_get_separators_in_their_whole_part() {
        assert_eq!(fixed(1908.2221, 3), "1,908.222");
        assert_eq!(fixed(176.0, 2), "176.00");
        assert_eq!(fixed(1234567.0, 0), "1,234,567");
        assert_eq!(fixed(-0.0001, 2), "0.00");
        assert_eq!(fixed(-12345.5, 1), "-12,345.5");
    }

    #[test]
    fn shares_near_none_or_all_keep_two_significant_digits() {
        assert_eq!(percent(0.18696, 3), "18.696%");
        assert_eq!(percent(0.0, 2), "0.00%");
        assert_eq!(percent(4e-7, 2), "0.000040%");
        assert_eq!(percent(1e-6, 3), "0.00010%");
        assert_eq!(percent(0.00004, 2), "0.0040%");
        assert_eq!(percent(0.00005, 2), "0.0050%");
        assert_eq!(percent(0.0001, 2), "0.010%");
        assert_eq!(percent(0.001, 2), "0.10%");
        assert_eq!(percent(1.0, 2), "100.00%");
        assert_eq!(percent(0.9999996, 3), "99.999960%");
        assert_eq!(percent(0.99999, 3), "99.9990%");
        assert_eq!(percent(0.9999, 3), "99.990%");
        // One count, one text: 1 game in 200,000.
        assert_eq!(pct(1.0 / 200_000.0), "0.00050%");
        assert_eq!(Share::new(1, 200_000).text(), "1 (0.00050%)");
    }

    #[test]
    fn numbers_in_text_get_separators() {
        assert_eq!(
            grouped_in("2 players, 13 faces × 4 copies, loops detected, cap 10000000, every deal"),
            "2 players, 13 faces × 4 copies, loops detected, cap 10,000,000, every deal"
        );
        assert_eq!(
            grouped_in("cap 40 and 2000 and 12345"),
            "cap 40 and 2000 and 12,345"
        );
        for kept in [
            "reload 0.16667",
            "x12345",
            "12345b",
            "1,234567",
            "123456.5",
            "v_100000",
            "12,345",
        ] {
            assert_eq!(grouped_in(kept), kept);
        }
        assert_eq!(
            grouped_in("99999999999999999999999"),
            "99999999999999999999999"
        );
    }

    #[test]
    fn matches_hand_computed_values() {
        // Values 1, 2, 2, 3, 10.
        let d = Distribution::from_counts(&[(1, 1), (2, 2), (3, 1), (10, 1)]).unwrap();
        assert_eq!(d.n, 5);
        assert_eq!(d.mean, 3.6);
        // Σ(v − 3.6)² = 6.76 + 2.56 + 2.56 + 0.36 + 40.96 = 53.2; / 4 = 13.3.
        let (sd, sem) = (d.sd.unwrap(), d.sem.unwrap());
        assert!((sd - 13.3f64.sqrt()).abs() < 1e-12);
        assert!((sem - sd / 5f64.sqrt()).abs() < 1e-15);
        assert_eq!((d.min, d.median, d.max), (1, 2, 10));
        // R: quantile(c(1,2,2,3,10), c(.01,.25,.75,.999), type = 1) gives 1 2 3 10.
        assert_eq!(d.quantiles["p1"], 1);
        assert_eq!(d.quantiles["p25"], 2);
        assert_eq!(d.quantiles["p75"], 3);
        assert_eq!(d.quantiles["p99.9"], 10);
    }

    #[test]
    fn nearest_rank_is_exact_at_the_boundary() {
        // 1,000 values 1..=1000, one each: p99.9 = 999 exactly (cumulative 999 reaches 999).
        let counts: Vec<(u64, u64)> = (1..=1000).map(|v| (v, 1)).collect();
        assert_eq!(nearest_rank(&counts, 999, 1000), 999);
        assert_eq!(nearest_rank(&counts, 1, 2), 500);
        // Even n: R's type-1 median is the lower middle value.
        assert_eq!(nearest_rank(&[(4, 1), (9, 1)], 1, 2), 4);
    }

    #[test]
    fn single_value_has_zero_spread_and_a_single_game_none() {
        let d = Distribution::from_counts(&[(7, 3)]).unwrap();
        assert_eq!((d.mean, d.sd, d.median), (7.0, Some(0.0), 7));
        let one = Distribution::from_counts(&[(7, 1)]).unwrap();
        assert_eq!((one.sd, one.sem, one.ci95), (None, None, None));
        assert!(Distribution::from_counts(&[]).is_none());
    }

    #[test]
    fn groups_thousands() {
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(999), "999");
        assert_eq!(grouped(1000), "1,000");
        assert_eq!(grouped(10_000_000), "10,000,000");
        assert_eq!(counted(1, "thread"), "1 thread");
        assert_eq!(counted(1000, "game"), "1,000 games");
    }

    #[test]
    fn wilson_interval_contains_the_share_and_is_positive_at_zero() {
        let s = Share::new(0, 1000);
        assert_eq!(s.ci95[0], 0.0);
        assert!(s.ci95[1] > 0.003 && s.ci95[1] < 0.004, "{:?}", s.ci95);
        let s = Share::new(500, 1000);
        assert!((s.ci95[0] - 0.469).abs() < 1e-3 && (s.ci95[1] - 0.531).abs() < 1e-3);
    }
}
