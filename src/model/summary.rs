//! summary.json: one serde type, written by every run and read back by `merge`, so the file
//! and the program can never disagree on a key.

use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};

use crate::sim::precision::{Stop, Target};
use crate::stats::histogram::Tally;
use crate::stats::summary::{fraction, Distribution, Named, Share};
use crate::stats::tail::TailFit;

/// The statistics of one group of games (`by`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct GroupJson {
    /// Games in the group.
    pub games: u64,
    /// Their rounds.
    pub rounds: Option<Distribution>,
    /// The rounds of the group's games that end, where some of the run's games do not (the
    /// figure the terminal's table and by.png give).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub finished_rounds: Option<Distribution>,
    /// Their outcomes.
    pub outcomes: Named<u64>,
    /// The share of each outcome, with its 95% interval.
    pub shares: Named<Share>,
    /// A player's fair share of the group's games: the games someone won, shared evenly
    /// ([`crate::model::report::Group::fair_share`]); absent from older summaries.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fair_share: Option<f64>,
}

/// How a run to a stated precision went.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct PrecisionJson {
    /// The half-width asked for (`--precision`).
    pub target: f64,
    /// Whether it was reached; if not, `max_games` ended the run.
    pub reached: bool,
    /// The half-width of the 95% interval of the mean rounds at the stop.
    pub half_width: Option<f64>,
    /// Games before the first check.
    pub min_games: u64,
    /// The bound on games.
    pub max_games: u64,
    /// The stopping rule, in words.
    pub rule: String,
}

impl PrecisionJson {
    /// The record of a run aimed at `target` that ended at `stop`.
    pub fn new(target: &Target, stop: &Stop) -> PrecisionJson {
        PrecisionJson {
            target: target.half_width,
            reached: stop.reached,
            half_width: stop.half_width,
            min_games: target.min_games,
            max_games: target.max_games,
            rule: "stopped at the first checkpoint (min_games, then 1/8 more each time, games in \
                   index order) where 1.96·sem of the mean rounds was at most the target, or at \
                   max_games"
                .into(),
        }
    }
}

/// The parity of the games' lengths.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Parity {
    /// Games of even length among the games that end, with the share's interval.
    pub even: Share,
}

/// The summary of a run; `J` is the game's own part ([`crate::games::GameStats::Json`]),
/// flattened into the object.
#[derive(Debug, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Summary<J> {
    /// Game name.
    pub game: String,
    /// One-line human description of the rules.
    pub description: String,
    /// Every rule setting (preset expanded).
    pub rules: Value,
    /// Games counted.
    pub games: u64,
    /// Base seed.
    pub seed: u64,
    /// Number of players.
    pub players: usize,
    /// Which games of which run this covers.
    pub run: RunSpan,
    /// Rounds over all games (`null` only for an empty run).
    pub rounds: Option<Distribution>,
    /// What `rounds` count, the game's word ([`crate::games::Unit`]): `rounds`, `cards`
    /// (Beggar-my-neighbour), `turns` (Snap); absent in older summaries.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unit: Option<String>,
    /// Games per outcome, in canonical order.
    pub outcomes: Named<u64>,
    /// Share of games per outcome, with its 95% interval.
    pub shares: Named<Share>,
    /// The lowest index of a game with the most rounds.
    pub longest_game: u64,
    /// Its rounds.
    pub longest_rounds: u64,
    /// The digest of histogram.csv ([`histogram_digest`]), so `merge` can tell
    /// that a histogram is the one this summary describes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub histogram_digest: Option<String>,
    /// The game's own statistics.
    #[serde(flatten)]
    pub stats: J,
    /// Loop statistics, for rule sets with loop detection.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub loops: Option<LoopStats>,
    /// Rounds of the games that ended with a result (not loop or capped): present where some
    /// games may not end (loops detected: `null` when none ended) or some were capped, so the
    /// figures a chart marks for the games that end are in the summary too.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub finished_rounds: Option<Option<Distribution>>,
    /// The exponential tail of the rounds of the games that end (loops and capped games left
    /// out), where 30 or more lie beyond its threshold.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tail: Option<TailFit>,
    /// How many of the games that end last an even number of rounds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parity: Option<Parity>,
    /// Exact values of the estimated statistics, where known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exact: Option<Value>,
    /// What the groups of `by` count (War `--by p1-top`: top-rank cards player 1 is dealt).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grouping: Option<String>,
    /// Every statistic per group: group → its games, rounds, outcomes and shares.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub by: Option<Named<GroupJson>>,
    /// For a run to a stated precision (`--precision`): the target and where it stopped.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub precision: Option<PrecisionJson>,
    /// Seconds the work took.
    pub elapsed_s: f64,
    /// Games per second.
    pub games_per_s: f64,
    /// Worker threads, when one process did the work.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub threads: Option<usize>,
    /// How `elapsed_s` was obtained, when it is not one process's wall time.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timing: Option<String>,
    /// Where the figures come from: program, version, command line and date.
    #[serde(default)]
    pub provenance: Option<Provenance>,
}

/// Where a summary comes from, so a folder copied into a paper's supplement explains itself.
#[derive(Clone, Debug, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Provenance {
    /// `warsim` and its version.
    pub program: String,
    /// The command line that wrote it (`warsim` and its arguments, quoted for a POSIX shell).
    pub command: String,
    /// When it was written (UTC, ISO 8601).
    pub date: String,
    /// The engine path that played the games (War: `lanes`, `avx512`, `lanes-avx2` or
    /// `scalar`; Beggar-my-neighbour: `lanes`, `lanes-avx2`, `phase` or `cards`), where the
    /// game has several; absent from a merge, whose shards may differ.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub engine: Option<String>,
}

impl Provenance {
    /// `warsim` and this build's version, as `program` records it.
    pub fn program() -> String {
        format!("warsim {}", env!("CARGO_PKG_VERSION"))
    }

    /// Now, recording the command line `called` (after `warsim`): a host's call records the
    /// command that does what the call did, so a run made from Python says how to make it
    /// again, not the interpreter's own command line; `None` records this process's own.
    pub fn of(called: Option<&[String]>) -> Provenance {
        let secs = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        let args = called_words(called);
        Provenance {
            program: Self::program(),
            // `warsim` for the program's own path, which says nothing on another machine.
            command: capped(
                std::iter::once("warsim".to_string())
                    .chain(args.iter().map(|a| shell_quote(a)))
                    .collect::<Vec<_>>()
                    .join(" "),
            ),
            date: iso_date(secs),
            engine: None,
        }
    }
}

/// The words of the command line `called` (after `warsim`), or of this process's own.
pub fn called_words(called: Option<&[String]>) -> Vec<String> {
    called.map_or_else(
        || {
            std::env::args_os()
                .skip(1)
                .map(|a| a.to_string_lossy().into_owned())
                .collect()
        },
        <[String]>::to_vec,
    )
}

/// The most bytes of a command line a summary records: a merge of thousands of shards names
/// them all, and a reader refuses strings past a bound.
const MAX_COMMAND_BYTES: usize = 64 << 10;

/// `command`, cut at [`MAX_COMMAND_BYTES`] with a note of what was left out.
fn capped(command: String) -> String {
    if command.len() <= MAX_COMMAND_BYTES {
        return command;
    }
    let mut end = MAX_COMMAND_BYTES;
    while !command.is_char_boundary(end) {
        end -= 1;
    }
    format!("{} … ({} more bytes)", &command[..end], command.len() - end)
}

/// `arg` as a POSIX shell reads it back; one holding a control character (a tab, a line
/// break, an escape) as bash's `$'...'` with the character escaped, so the command line stays
/// one printable line that warsim's reader accepts.
pub(crate) fn shell_quote(arg: &str) -> String {
    let plain = !arg.is_empty()
        && arg
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=:,+@%".contains(c));
    if plain {
        arg.to_string()
    } else if arg.chars().any(char::is_control) {
        let escaped: String = arg
            .chars()
            .map(|c| match c {
                '\\' => "\\\\".to_string(),
                '\'' => "\\'".to_string(),
                c if c.is_control() => format!("\\u{:04x}", c as u32),
                c => c.to_string(),
            })
            .collect();
        format!("$'{escaped}'")
    } else {
        format!("'{}'", arg.replace('\'', "'\\''"))
    }
}

/// Seconds since 1970 as `YYYY-MM-DDTHH:MM:SSZ` (proleptic Gregorian calendar, UTC): the date
/// of provenance and the time of each `--progress log` line.
pub fn iso_date(secs: u64) -> String {
    let (days, rem) = ((secs / 86_400) as i64, secs % 86_400);
    // Howard Hinnant's civil_from_days.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

/// The `exact` object of a run of every deal: the deals and each outcome's share as a
/// fraction, made from the tally alone (so `merge` can check one read back against its counts).
pub fn every_deal<S: crate::games::GameStats>(tally: &Tally<S>) -> Value {
    let n = tally.games;
    let fractions: Map<String, Value> = tally
        .outcomes()
        .into_iter()
        .filter(|&(_, k)| k > 0)
        .map(|(o, k)| (o.name(), Value::String(fraction(k, n))))
        .collect();
    json!({
        "deals": n,
        "fractions": fractions,
        "method": "every distinct deal played once; distinct deals are equally likely under \
                   a uniform shuffle, so counts over deals are exact probabilities",
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_and_quoting() {
        assert_eq!(iso_date(0), "1970-01-01T00:00:00Z");
        assert_eq!(iso_date(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(iso_date(1_795_431_600), "2026-11-23T11:00:00Z");
        assert_eq!(iso_date(1_796_652_192), "2026-12-07T14:03:12Z");
        assert_eq!(iso_date(4_107_542_399), "2100-02-28T23:59:59Z");
        assert_eq!(shell_quote("--games"), "--games");
        assert_eq!(shell_quote("a b"), "'a b'");
        assert_eq!(shell_quote("it's"), "'it'\\''s'");
        let long = "x".repeat(MAX_COMMAND_BYTES + 10);
        assert_eq!(
            capped(long).len(),
            MAX_COMMAND_BYTES + " … (10 more bytes)".len()
        );
        assert_eq!(shell_quote("a\tb'\\"), "$'a\\u0009b\\'\\\\'");
    }
}

/// The digest summary.json records for its histogram.csv: 64-bit FNV-1a of the file's bytes.
/// It catches a histogram that is not the one the summary was written with (edited, swapped,
/// truncated); it is no defence against a forger, who could also rewrite the summary.
pub fn histogram_digest(bytes: &[u8]) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h = (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("fnv1a64:{h:016x}")
}

/// The game indices an output covers, and the run they belong to.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct RunSpan {
    /// Games in the whole run (all shards).
    pub games_total: u64,
    /// First game index covered.
    pub first_game: u64,
    /// One past the last game index covered.
    pub end_game: u64,
    /// `K/N`, or `null` for a whole run (or a complete merge).
    pub shard: Option<String>,
    /// Whether the run was stopped (an interrupt) before it played all the games it was asked:
    /// it holds games `first_game..end_game`, the first of its slice, and every figure is over
    /// those games; absent for a run that played them all.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub stopped: bool,
}

/// The `loops` object.
#[derive(Debug, Serialize, Deserialize, schemars::JsonSchema)]
pub struct LoopStats {
    /// Looping games.
    pub count: u64,
    /// Their share.
    pub share: f64,
    /// Its 95% Wilson interval.
    pub ci95: [f64; 2],
    /// Their cycle lengths.
    pub cycle_len: Option<Distribution>,
}
