//! How the statistics' numbers are written, the same in every output: shares as percentages that
//! never read as none, counts with thousands separators, fractions in lowest terms. Its own
//! module, so that the summary and the quantiles' messages both write numbers without importing
//! each other.

/// A share as every output writes it ([`percent`] with three decimals), so one count reads
/// the same wherever it is printed: `1 of 200,000` is `0.00050%` in every line.
pub fn pct(share: f64) -> String {
    percent(share, 3)
}

/// `share` (0..=1) as a percentage with `decimals` decimals, or, for a share too close to 0% or
/// 100% for them to show two significant digits of its distance from it, with two: one game in
/// ten million is `0.000010%`, never `0.00%`, which a reader takes for none; one in 200,000 is
/// `0.00050%`, never `0.001%`, twice as many; and all games but four of ten million
/// `99.999960%`, never `100.000%`.
pub fn percent(share: f64, decimals: usize) -> String {
    let p = 100.0 * share;
    let two_digits = 10f64.powi(1 - decimals as i32);
    // The distance from the nearest end (0% or 100%) a share must keep in view.
    let gap = p.min(100.0 - p);
    if gap <= 0.0 || gap >= two_digits || !p.is_finite() {
        return format!("{p:.decimals$}%");
    }
    // (Less a hair, so that a gap of 0.001 that floating point holds as 0.000999… is one.)
    let digits = (-gap.log10() - 1e-9).ceil() as usize + 1;
    format!("{p:.digits$}%")
}

/// Thousands separators, for titles and labels.
pub fn grouped(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, ch) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

/// `x` with `decimals` decimals and thousands separators in its whole part (`1,908.222`), so a
/// mean reads like the counts beside it.
pub fn fixed(x: f64, decimals: usize) -> String {
    let text = format!("{:.decimals$}", x.abs());
    if !x.is_finite() {
        return format!("{x}");
    }
    let (whole, rest) = text.split_at(text.find('.').unwrap_or(text.len()));
    let sign = if x < 0.0 && text.bytes().any(|b| matches!(b, b'1'..=b'9')) {
        "-"
    } else {
        ""
    };
    match whole.parse::<u64>() {
        Ok(w) => format!("{sign}{}{rest}", grouped(w)),
        Err(_) => format!("{x:.decimals$}"),
    }
}

/// `text` with thousands separators in every whole number of five digits or more (`cap
/// 10000000` becomes `cap 10,000,000`), for the terminal: a game's description is also a value
/// of summary.json, which keeps the form runs were recorded with. Digits that belong to a
/// decimal (`0.16667`) or touch a letter or another separator are left as they are.
pub fn grouped_in(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len() + 8);
    let mut i = 0;
    while i < bytes.len() {
        if !bytes[i].is_ascii_digit() {
            let ch = text[i..].chars().next().unwrap_or_default();
            out.push(ch);
            i += ch.len_utf8().max(1);
            continue;
        }
        let end = bytes[i..]
            .iter()
            .position(|b| !b.is_ascii_digit())
            .map_or(bytes.len(), |k| i + k);
        let at = |k: Option<usize>| k.and_then(|k| bytes.get(k)).copied();
        // A letter or `_` touching the digits, or `.`/`,` between them and another digit.
        let glued = |next: Option<u8>, beyond: Option<u8>| match next {
            Some(b'.' | b',') => beyond.is_some_and(|b| b.is_ascii_digit()),
            Some(b) => b.is_ascii_alphabetic() || b == b'_',
            None => false,
        };
        let standalone = !glued(at(i.checked_sub(1)), at(i.checked_sub(2)))
            && !glued(at(Some(end)), at(Some(end + 1)));
        match text[i..end].parse::<u64>() {
            Ok(n) if standalone && end - i >= 5 => out.push_str(&grouped(n)),
            _ => out.push_str(&text[i..end]),
        }
        i = end;
    }
    out
}

/// `n` and a noun, grouped and in the right number: `1 game`, `2,000 games`.
pub fn counted(n: u64, noun: &str) -> String {
    let s = if n == 1 { "" } else { "s" };
    format!("{} {noun}{s}", grouped(n))
}

/// `k/n` in lowest terms.
pub fn fraction(k: u64, n: u64) -> String {
    let (mut a, mut b) = (k, n);
    while b != 0 {
        (a, b) = (b, a % b);
    }
    let g = a.max(1);
    format!("{}/{}", k / g, n / g)
}
