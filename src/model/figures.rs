//! A run folder's summary.json checked against itself: every figure it derives from its counts
//! (the rounds' mean and quantiles, the shares, the loop and tail statistics, the groups', and
//! the game's own means such as `wars.mean` from `wars.total`) made again, by the very code that
//! wrote it ([`Report::summary`]), from what [`load`](super::load::load) read, and compared
//! with what the file says. `load` checks the counts themselves (the histogram's digest and
//! games, the outcomes, the longest game); this catches a figure edited on its own, which
//! `merge` would otherwise add up (a `wars.total` of 1 in one shard) or carry into the
//! merged run.

use serde_json::Value;

use super::load::Part;
use super::report::{Report, Timing};
use super::summary::Provenance;
use crate::error::UsageError;
use crate::games::Game;
use crate::usage;

/// Refuses `part` when a figure of its summary.json is not what its counts and totals give,
/// naming the folder and the field (`wars.mean`, `shares.p1.share`).
pub fn agree<G: Game>(part: &Part<G>) -> Result<(), UsageError> {
    let d = part.dir.display();
    let mut said: Value =
        serde_json::from_str(&part.summary_json).map_err(|e| usage!("{d}: summary.json: {e}"))?;
    let timing = Timing {
        elapsed_s: part.elapsed_s,
        threads: said["threads"]
            .as_u64()
            .and_then(|t| usize::try_from(t).ok()),
        note: said["timing"].as_str().map(String::from),
    };
    let report = Report::new(&part.info, &part.tally);
    let made = report.summary(
        &timing,
        part.histogram_csv.as_bytes(),
        Provenance::of(Some(&[])),
    );
    let mut made = serde_json::to_value(made).map_err(|e| usage!("{d}: summary.json: {e}"))?;
    // Where the run comes from is the file's word, which nothing else derives.
    for v in [&mut said, &mut made] {
        if let Some(o) = v.as_object_mut() {
            o.remove("provenance");
        }
    }
    match difference(String::new(), &said, &made) {
        None => Ok(()),
        Some(Diff { field, said, made }) => Err(usage!(
            "{d}: summary.json {field} is {said}, but the shard's counts and totals give {made} \
             (was it edited?)"
        )),
    }
}

/// A field where the file and the figures made again differ, with each one's value.
struct Diff {
    field: String,
    said: String,
    made: String,
}

/// The first field under `path` where `said` (the file) and `made` (made again) differ;
/// numbers compare by value, so `17` and `17.0` agree.
fn difference(path: String, said: &Value, made: &Value) -> Option<Diff> {
    let at = |key: &str| match path.is_empty() {
        true => key.to_string(),
        false => format!("{path}.{key}"),
    };
    match (said, made) {
        (Value::Object(s), Value::Object(m)) => {
            let missing = Value::Null;
            m.iter()
                .map(|(k, mv)| (k, s.get(k).unwrap_or(&missing), mv))
                .chain(
                    s.iter()
                        .filter(|(k, _)| !m.contains_key(*k))
                        .map(|(k, sv)| (k, sv, &missing)),
                )
                .find_map(|(k, sv, mv)| difference(at(k), sv, mv))
        }
        (Value::Array(s), Value::Array(m)) if s.len() == m.len() => s
            .iter()
            .zip(m)
            .enumerate()
            .find_map(|(i, (sv, mv))| difference(at(&i.to_string()), sv, mv)),
        (Value::Number(s), Value::Number(m)) if same_number(s, m) => None,
        _ if said == made => None,
        _ => Some(Diff {
            field: path,
            said: said.to_string(),
            made: made.to_string(),
        }),
    }
}

/// Whether two JSON numbers are the same value: as integers where both are, else as floats.
fn same_number(a: &serde_json::Number, b: &serde_json::Number) -> bool {
    match (a.as_i128(), b.as_i128()) {
        (Some(x), Some(y)) => x == y,
        _ => a.as_f64() == b.as_f64(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_first_field_that_differs_is_named_with_both_values() {
        let file = json!({"wars": {"mean": 17.0, "total": 1}, "shares": [1, 2.5]});
        let d = difference(String::new(), &file, &file).map(|d| d.field);
        assert_eq!(d, None);
        let same = json!({"wars": {"mean": 17, "total": 1}, "shares": [1.0, 2.5]});
        assert!(difference(String::new(), &file, &same).is_none());
        let made = json!({"wars": {"mean": 5e-5, "total": 1}, "shares": [1, 2.5]});
        let d = difference(String::new(), &file, &made).unwrap();
        assert_eq!(
            (d.field.as_str(), d.said.as_str(), d.made.as_str()),
            ("wars.mean", "17.0", "0.00005")
        );
        let made = json!({"wars": {"mean": 17.0, "total": 1}, "shares": [1, 3]});
        assert_eq!(
            difference(String::new(), &file, &made).unwrap().field,
            "shares.1"
        );
        // A key the file adds, or leaves out, is a difference too.
        let extra = json!({"wars": {"mean": 17.0, "total": 1, "x": 0}, "shares": [1, 2.5]});
        let d = difference(String::new(), &extra, &file).unwrap();
        assert_eq!((d.field.as_str(), d.made.as_str()), ("wars.x", "null"));
        let d = difference(String::new(), &file, &extra).unwrap();
        assert_eq!((d.field.as_str(), d.said.as_str()), ("wars.x", "null"));
    }
}
