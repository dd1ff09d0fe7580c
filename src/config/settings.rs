//! A game's settings read from JSON (the typed API's `Setup::from_json`, Python's keyword
//! arguments), in the caller's words: the settings left out take their defaults, a whole float
//! (`1e3`, Python's `13.0`) is the whole number it is, and a value refused is named with its
//! setting and said without Rust's types (`ranks: expected a whole number, got the string
//! "13"`, where serde said `invalid type: string "13", expected u32`).

use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::{Map, Value};

/// Settings `T` from `given` (an object of some of its settings), or what is wrong, naming the
/// setting.
pub fn read<T: Default + Serialize + DeserializeOwned>(given: &Value) -> Result<T, String> {
    let Value::Object(given) = given else {
        return Err(format!(
            "expected the settings as a map, got {}",
            shown(given)
        ));
    };
    let defaults = match serde_json::to_value(T::default()) {
        Ok(Value::Object(d)) => d,
        _ => Map::new(),
    };
    let with = |keys: &mut dyn Iterator<Item = (&String, &Value)>| {
        let mut all = defaults.clone();
        for (k, v) in keys {
            all.insert(k.clone(), whole(v));
        }
        serde_json::from_value::<T>(Value::Object(all))
    };
    match with(&mut given.iter()) {
        Ok(t) => Ok(t),
        // The setting to blame: the first that fails alone over the defaults.
        Err(e) => match given
            .iter()
            .find(|kv| with(&mut std::iter::once(*kv)).is_err())
        {
            Some((k, v)) => {
                let alone = with(&mut std::iter::once((k, v)))
                    .err()
                    .map(|e| e.to_string());
                Err(format!("{k}: {}", in_words(&alone.unwrap_or_default())))
            }
            None => Err(in_words(&e.to_string())),
        },
    }
}

/// `v` with every whole float (`13.0`, `1e3`) as the integer it is, in lists and maps too, so
/// a whole-number setting reads it as the flag reads `1e3`; a setting of floats reads an
/// integer as well.
pub(crate) fn whole(v: &Value) -> Value {
    match v {
        Value::Number(n) if n.is_f64() => match n.as_f64() {
            Some(x) if x.fract() == 0.0 && x.abs() < 9.0e15 => Value::from(x as i64),
            _ => v.clone(),
        },
        Value::Array(a) => Value::Array(a.iter().map(whole).collect()),
        Value::Object(o) => Value::Object(o.iter().map(|(k, v)| (k.clone(), whole(v))).collect()),
        _ => v.clone(),
    }
}

/// serde's message `e` in the caller's words: `invalid type: string "13", expected u32` as
/// `expected a whole number from 0 to 4,294,967,295, got the string "13"`. A message of
/// another form (an unknown setting, a setting's own reader) is as it was.
pub(crate) fn in_words(e: &str) -> String {
    let rest = e
        .strip_prefix("invalid type: ")
        .or_else(|| e.strip_prefix("invalid value: "));
    let Some((got, expected)) = rest.and_then(|r| r.rsplit_once(", expected ")) else {
        return e.to_string();
    };
    // serde's names of what it was given: `string "13"`, `integer `-1``, `floating point
    // `1.5``, `boolean `true``, `map`, `sequence`, `null`.
    let tick = |s: &str| s.trim_matches('`').to_string();
    let got = match got.split_once(' ') {
        Some(("string", s)) => format!("the string {s}"),
        Some(("integer" | "boolean", v)) => tick(v),
        Some(("floating", v)) => tick(v.trim_start_matches("point ")),
        _ => match got {
            "map" => "a map".to_string(),
            "sequence" => "a list".to_string(),
            "unit value" => "null".to_string(),
            other => other.to_string(),
        },
    };
    let expected = match expected {
        "u8" => "a whole number from 0 to 255".to_string(),
        "u16" => "a whole number from 0 to 65,535".to_string(),
        "u32" => "a whole number from 0 to 4,294,967,295".to_string(),
        "u64" | "usize" => "a whole number from 0 to 18,446,744,073,709,551,615".to_string(),
        "i8" | "i16" | "i32" | "i64" | "isize" => "a whole number".to_string(),
        "f32" | "f64" => "a number".to_string(),
        "a boolean" => "true or false".to_string(),
        other => other.to_string(),
    };
    format!("expected {expected}, got {got}")
}

/// A value as a message shows it: `the string "13"`, `1.5`, `true`, `a map`, `a list`.
fn shown(v: &Value) -> String {
    match v {
        Value::String(s) => format!("the string {}", Value::String(s.clone())),
        Value::Object(_) => "a map".into(),
        Value::Array(_) => "a list".into(),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::bmn::BmnSettings;
    use crate::games::war::WarSettings;
    use serde_json::json;

    #[test]
    fn settings_left_out_take_their_defaults_and_whole_floats_are_whole() {
        let s: BmnSettings = read(&json!({})).unwrap();
        assert_eq!(s, BmnSettings::default());
        let s: BmnSettings = read(&json!({"ranks": 13.0, "suits": 2, "max_rounds": 1e6})).unwrap();
        assert_eq!(
            (s.ranks, s.suits, s.max_rounds),
            (Some(13), Some(2), 1_000_000)
        );
        let s: WarSettings = read(&json!({})).unwrap();
        assert_eq!(
            serde_json::to_value(s).unwrap(),
            serde_json::to_value(WarSettings::default()).unwrap()
        );
    }

    #[test]
    fn a_refused_value_is_named_with_its_setting_in_the_callers_words() {
        let e = read::<BmnSettings>(&json!({"suits": 4, "ranks": "13"})).unwrap_err();
        assert_eq!(
            e,
            "ranks: expected a whole number from 0 to 18,446,744,073,709,551,615, got the \
             string \"13\""
        );
        let e = read::<BmnSettings>(&json!({"ranks": {"a": 1}})).unwrap_err();
        assert!(
            e.starts_with("ranks: expected a whole number") && e.ends_with("got a map"),
            "{e}"
        );
        let e = read::<BmnSettings>(&json!({"ranks": 13.5})).unwrap_err();
        assert!(e.starts_with("ranks: ") && e.ends_with("got 13.5"), "{e}");
        let e = read::<BmnSettings>(&json!({"max_rounds": -1})).unwrap_err();
        assert!(e.starts_with("max_rounds: expected a whole number"), "{e}");
        for e in [e, read::<BmnSettings>(&json!({"ranks": true})).unwrap_err()] {
            assert!(
                !e.contains("u32") && !e.contains("usize") && !e.contains("u64"),
                "{e}"
            );
        }
        let e = read::<BmnSettings>(&json!({"rank": 13})).unwrap_err();
        assert!(e.starts_with("rank: unknown field"), "{e}");
        assert!(read::<BmnSettings>(&json!([13]))
            .unwrap_err()
            .contains("got a list"));
    }
}
