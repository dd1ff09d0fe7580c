//! What the terminal shows of a search (`search bmn`): what it was, what it found (the
//! longest deals, the cycles, the basin) with the commands that play them; the line of the
//! files it wrote is `export::search::print`'s.

use crate::games::bmn::search::climb::Found;
use crate::games::bmn::search::header::Listed;
use crate::games::bmn::search::loops::{Cycle, MAX_TRICKS};
use crate::games::bmn::search::plan::Method;
use crate::games::bmn::search::reaching::ReachingReport;
use crate::games::bmn::search::report::SearchReport;
use crate::games::bmn::search::report::{CensusReport, ClimbReport, LoopsReport, RecordReport};
use crate::stats::summary::{counted, grouped};

/// `3,580 cards, 500 tricks`, or a loop's `never ends: a 62-trick (440-card) cycle`.
pub fn length(f: &Found) -> String {
    match f.cycle {
        Some((cards, tricks)) => format!("never ends: a {tricks}-trick ({cards}-card) cycle"),
        None => format!(
            "{}, {}",
            counted(f.cards, "card"),
            counted(f.tricks, "trick")
        ),
    }
}

/// `cycle ID: T tricks, C cards`.
pub fn named(c: &Cycle) -> String {
    let (t, n) = (counted(c.tricks, "trick"), counted(c.cards, "card"));
    format!("cycle {}: {t}, {n}", c.id)
}

/// What the terminal shows of a search: what it was, what it found, and the command that
/// plays it again (after a search for a time, `timed`, or a stopped one); the line of what
/// it wrote is the writer's.
pub fn summary(report: &SearchReport, timed: bool) -> String {
    let (title, body) = match report {
        SearchReport::Climb(r) => (" --method climb".into(), climbed(r)),
        SearchReport::Loops(r) => (" --loops".into(), looped(r)),
        SearchReport::Census(r) => (" --census".into(), counted_cycles(r)),
        SearchReport::Record(r) => {
            let method = r.head.method.unwrap_or_default().name();
            (format!(" --method {method}"), sampled(r))
        }
        SearchReport::Reaching(r) => (" --reaching".into(), walked(r)),
    };
    let again = match report.replay() {
        Some(replay) if report.stopped() || timed => format!("again     {replay}\n"),
        _ => String::new(),
    };
    format!(
        "search bmn{title} — {}\n{body}{again}",
        report.head().description
    )
}

/// `1,000 deals by 16 walkers, seed 0, 0.1 s (10,000 deals/s)`, then `, stopped` if it was.
fn walkers_line(
    n: u64,
    unit: &str,
    walkers: u32,
    seed: Option<u64>,
    (elapsed_s, rate): (f64, f64),
    stopped: bool,
) -> String {
    format!(
        "{} {unit} by {walkers} walkers, seed {}, {elapsed_s:.1} s ({} {unit}/s){}\n",
        grouped(n),
        seed.unwrap_or(0),
        grouped(rate as u64),
        if stopped { ", stopped" } else { "" }
    )
}

/// The five longest games, a `longest` line each.
fn longest(best: &[Listed<Found>]) -> String {
    let line = |l: &Listed<Found>| format!("longest   {}: {}\n", length(&l.found), l.replay);
    best.iter().take(5).map(line).collect()
}

/// What a climb found.
fn climbed(r: &ClimbReport) -> String {
    let (walkers, seed, rate) = (r.walkers, r.head.seed, (r.elapsed_s, r.deals_per_s));
    let mut text = walkers_line(r.deals, "deals", walkers, seed, rate, r.stopped);
    text.push_str(&longest(&r.best));
    if r.capped > 0 {
        text.push_str(&format!(
            "capped    {} deals reached the cap of {} cards (not listed)\n",
            grouped(r.capped),
            grouped(r.head.rules.max_rounds)
        ));
    }
    text + &format!(
        "loops     {} found ({} distinct deals kept)\n",
        r.loops_found,
        r.loops.len()
    )
}

/// What a loop search found.
fn looped(r: &LoopsReport) -> String {
    let (walkers, seed, rate) = (r.walkers, r.head.seed, (r.elapsed_s, r.tries_per_s));
    let mut text = walkers_line(r.tries, "tries", walkers, seed, rate, r.stopped);
    for c in &r.seeds {
        text.push_str(&format!("seed      {}\n", named(&c.found)));
    }
    text.push_str(&format!(
        "tries     {} fell into a cycle, {} ended, {} undecided after {} tricks\n\
         found     {} new cycles\n",
        grouped(r.looped),
        grouped(r.ended),
        grouped(r.undecided),
        grouped(MAX_TRICKS),
        r.cycles.len()
    ));
    for c in r.cycles.iter().take(10) {
        text.push_str(&format!(
            "cycle     {}: {}\n",
            &named(&c.found)[6..],
            c.replay
        ));
    }
    text
}

/// What a census found.
fn counted_cycles(r: &CensusReport) -> String {
    let f = &r.census;
    let mut text = format!(
        "{} tries in {} rounds by {} walkers, seed {}, {:.1} s{}\n\
         cycles    {} ({} entered by a balanced deal); balanced deals {} (player 1 leads), {} (either)\n",
        grouped(f.tries),
        f.rounds,
        r.walkers,
        r.head.seed.unwrap_or(0),
        r.elapsed_s,
        if f.stopped { ", stopped" } else { "" },
        f.cycles.len(),
        r.reached_from_a_deal,
        r.balanced_player_1_leads,
        r.balanced_either_leads
    );
    for c in f.cycles.iter().take(20) {
        text.push_str(&format!(
            "cycle     {}; basin {}; deals {} / {}\n",
            &named(&c.cycle)[6..],
            grouped(c.basin_positions),
            c.balanced_player_1_leads,
            c.balanced_either_leads
        ));
    }
    text
}

/// What sampling (and joining) found.
fn sampled(r: &RecordReport) -> String {
    let mut text = format!(
        "{} deals sampled in {:.1} s ({} deals/s)",
        grouped(r.deals),
        r.sample_s,
        grouped(r.deals_per_s as u64),
    );
    if r.head.method == Some(Method::Record) {
        text.push_str(&format!(
            ", {} bases joined ({} positions, {} deals replayed) in {:.1} s",
            r.bases,
            grouped(r.positions),
            grouped(r.replayed),
            r.join_s
        ));
    }
    text.push_str(if r.stopped { ", stopped\n" } else { "\n" });
    text + &longest(&r.best)
}

/// What a walk backward found.
fn walked(r: &ReachingReport) -> String {
    format!(
        "cycle     {} tricks ({} cards), entered after {} tricks of {}\n\
         basin     {} positions ({} on the cycle, {} leading into it), at most {} tricks deep, \
         {:.3} s\n\
         balanced  {} deals with player 1 to lead; {} with either player to lead\n",
        r.cycle_tricks,
        grouped(r.cycle_cards),
        r.entered_after_tricks,
        r.deal,
        grouped(r.basin_positions),
        r.cycle_tricks,
        grouped(r.leading_in),
        r.depth,
        r.elapsed_s,
        r.balanced_player_1_leads,
        r.balanced_either_leads
    )
}
