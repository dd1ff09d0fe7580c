//! The commands a search writes so that what it found can be run again: each one, pasted into
//! a shell as written (best.txt, deals.txt, search.json, the terminal), plays the deal under
//! the search's rules (its deck options included), or plays the search again.

use super::{Method, SearchConfig};
use crate::face::bmn::rule_flags;
use crate::games::bmn::search::header::Replays;
use crate::games::bmn::{BmnRules, DEFAULT_MAX_ROUNDS};
use crate::model::summary::shell_quote;

/// The command line's [`Replays`]: `warsim play bmn` and `warsim search bmn` lines under the
/// search's rules, the search's from its flags (none for `--reaching`, which has no replay).
pub(crate) struct Say<'a> {
    rules: &'a BmnRules,
    cfg: Option<&'a SearchConfig>,
}

impl<'a> Say<'a> {
    /// The commands of a search of `cfg` (or of a walk: `None`) under `rules`.
    pub(crate) fn new(rules: &'a BmnRules, cfg: Option<&'a SearchConfig>) -> Self {
        Say { rules, cfg }
    }
}

impl Replays for Say<'_> {
    /// `warsim play bmn --ranks 7 --suits 2 --deal 'Q-KJ-A-/Q-K-AJ-'`.
    fn deal(&self, deal: &str) -> String {
        let options = match rule_flags(self.rules) {
            o if o.is_empty() => o,
            o => format!(" {o}"),
        };
        format!("warsim play bmn{options} --deal {}", quoted(deal))
    }

    fn cycle(&self, position: &str) -> String {
        let rules = BmnRules {
            max_rounds: DEFAULT_MAX_ROUNDS,
            ..self.rules.clone()
        };
        Say::new(&rules, None).deal(position)
    }

    /// The same seed, walkers, deals kept and starting deal, with `deals` deals (those it
    /// played, when the time or an interrupt ended it); a sampling or joining search the deal
    /// of `--from` joined from, or the `deals` sampled and (joining) the `bases` joined. A
    /// search for long games names its `--method` always, so the line plays the same search
    /// whatever the default is. A search that took an hour or more lifts the bound on the
    /// estimate, which may exceed it.
    fn search(&self, deals: u64, bases: usize, hours: f64) -> String {
        let Some(cfg) = self.cfg else {
            return String::new();
        };
        let mut line = match rule_flags(self.rules) {
            o if o.is_empty() => "warsim search bmn".to_string(),
            o => format!("warsim search bmn {o}"),
        };
        let from = cfg
            .from
            .as_deref()
            .map(|f| format!(" --from {}", quoted(f)));
        // A record search stopped before its first join only sampled: its replay is that
        // sampling (`--bases 1` would join a base and find other deals).
        let method = match (cfg.method.unwrap_or_default(), bases, &cfg.from) {
            (Method::Record, 0, None) => Method::Sample,
            (m, ..) => m,
        };
        if method != Method::Climb && !cfg.census && !cfg.loops {
            line.push_str(&format!(" --method {}", method.name()));
            match from {
                Some(from) => line.push_str(&from),
                None => line.push_str(&format!(" --deals {deals} --seed {}", cfg.seed)),
            }
            if method == Method::Record && cfg.from.is_none() {
                line.push_str(&format!(" --bases {}", bases.max(1)));
            }
        } else {
            line.push_str(match (cfg.census, cfg.loops) {
                (true, _) => " --census",
                (false, true) => " --loops",
                _ => " --method climb",
            });
            line.push_str(&from.unwrap_or_default());
            line.push_str(&format!(
                " --deals {deals} --walkers {} --seed {}",
                cfg.walkers, cfg.seed
            ));
        }
        if !cfg.loops && !cfg.census {
            line.push_str(&format!(" --keep {}", cfg.keep));
        }
        let bound = if hours >= 1.0 {
            " --max-hours none"
        } else {
            ""
        };
        let out = shell_quote(&cfg.out.to_string_lossy());
        format!("{line}{bound} --out {out}")
    }
}

/// A deal in single quotes, always (a deal holds no quote): `--deal '--J-/K-QQ-AAKJ-'` reads
/// at a glance as one argument.
fn quoted(deal: &str) -> String {
    if deal.contains('\'') {
        shell_quote(deal)
    } else {
        format!("'{deal}'")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::bmn::search::header::Replays;

    /// A record search stopped while it sampled (no base joined) replays as the sampling it
    /// was: `--bases 1` would join a base and find deals the stopped search did not.
    #[test]
    fn a_record_search_stopped_before_joining_replays_its_sampling() {
        let rules = crate::games::bmn::BmnRules::britannica(13, 4, [1, 2, 3, 4]);
        let cfg = SearchConfig {
            method: Some(Method::Record),
            out: "o".into(),
            ..SearchConfig::default()
        };
        let say = Say::new(&rules, Some(&cfg));
        let line = say.search(5000, 0, 0.0);
        assert!(
            line.contains("--method sample --deals 5000 --seed 0") && !line.contains("--bases"),
            "{line}"
        );
        let line = say.search(5000, 64, 0.0);
        assert!(
            line.contains("--method record --deals 5000 --seed 0 --bases 64"),
            "{line}"
        );
    }
}
