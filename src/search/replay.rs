//! The commands a search writes so that what it found can be run again: each one, pasted into
//! a shell as written (best.txt, deals.txt, search.json, the terminal), plays the deal under
//! the search's rules (its deck options included), or plays the search again.

use super::SearchConfig;
use crate::face::bmn::rule_flags;
use crate::games::bmn::{BmnRules, DEFAULT_MAX_ROUNDS};
use crate::model::summary::shell_quote;

/// `warsim play bmn --ranks 7 --suits 2 --deal 'Q-KJ-A-/Q-K-AJ-'`: plays `deal` under `rules`.
pub(crate) fn play(rules: &BmnRules, deal: &str) -> String {
    let options = match rule_flags(rules) {
        o if o.is_empty() => o,
        o => format!(" {o}"),
    };
    format!("warsim play bmn{options} --deal {}", quoted(deal))
}

/// As [`play`], without a card cap: for a deal that never ends, whose loop `play` finds
/// exactly whatever the cap, while a cap given to the search (to bound its forward play) may
/// be too short to play up to the loop's second turn.
pub(crate) fn play_loop(rules: &BmnRules, deal: &str) -> String {
    play(
        &BmnRules {
            max_rounds: DEFAULT_MAX_ROUNDS,
            ..rules.clone()
        },
        deal,
    )
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

/// The command that plays the search of `cfg` again with `deals` deals (those it played, when
/// the time or an interrupt ended it): the same seed, walkers, deals kept and starting deal;
/// a search that took an hour or more lifts the bound on the estimate, which may exceed it.
pub(crate) fn search(rules: &BmnRules, cfg: &SearchConfig, deals: u64, hours: f64) -> String {
    let mut line = search_under(rules);
    if cfg.census {
        line.push_str(" --census");
    } else if cfg.loops {
        line.push_str(" --loops");
    }
    if let Some(from) = &cfg.from {
        line.push_str(&format!(" --from {}", quoted(from)));
    }
    line.push_str(&format!(
        " --deals {deals} --walkers {} --seed {}",
        cfg.walkers, cfg.seed
    ));
    if !cfg.loops && !cfg.census {
        line.push_str(&format!(" --keep {}", cfg.keep));
    }
    line + &bound_and_out(cfg, hours)
}

/// The command that plays the search `--method` (sampling, or sampling then joining) of `cfg`
/// again, as [`search`] writes the climb's: the deal of `--from` joined from, or the `deals`
/// sampled and (joining) the `bases` joined; the deals kept.
pub(crate) fn method_search(
    rules: &BmnRules,
    cfg: &SearchConfig,
    method: &str,
    (deals, bases): (u64, Option<usize>),
    hours: f64,
) -> String {
    let mut line = search_under(rules);
    line.push_str(&format!(" --method {method}"));
    match &cfg.from {
        Some(from) => line.push_str(&format!(" --from {}", quoted(from))),
        None => line.push_str(&format!(" --deals {deals} --seed {}", cfg.seed)),
    }
    if let Some(bases) = bases {
        line.push_str(&format!(" --bases {bases}"));
    }
    line.push_str(&format!(" --keep {}", cfg.keep));
    line + &bound_and_out(cfg, hours)
}

/// `warsim search bmn` with the rule flags of `rules`: how every search's command begins.
fn search_under(rules: &BmnRules) -> String {
    match rule_flags(rules) {
        o if o.is_empty() => "warsim search bmn".to_string(),
        o => format!("warsim search bmn {o}"),
    }
}

/// How every search's command ends: `--max-hours none` after a search of an hour or more
/// (its estimate may exceed the bound), and its `--out`.
fn bound_and_out(cfg: &SearchConfig, hours: f64) -> String {
    let bound = if hours >= 1.0 {
        " --max-hours none"
    } else {
        ""
    };
    format!("{bound} --out {}", shell_quote(&cfg.out.to_string_lossy()))
}
