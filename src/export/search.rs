//! A search's set (`search bmn`): its document, the core's report with the command's
//! provenance beside it (search.json, census.json or reaching.json), and its text files of a
//! `play` command a line, each with what it plays (best.txt, cycles.txt, deals.txt), written
//! and committed; then its summary printed. An interrupted search's set is complete, and the
//! command then exits as an interrupted one does (status 130).

use std::path::Path;

use anyhow::Result;
use serde::Serialize;

use crate::error::Interrupted;
use crate::games::bmn::search::climb::Found;
use crate::games::bmn::search::header::{Listed, Replays};
use crate::games::bmn::search::reaching::ReachingReport;
use crate::games::bmn::search::report::{CensusReport, SearchReport};
use crate::model::summary::Provenance;
use crate::session::Session;
use crate::stats::summary::grouped;
use crate::store::Kind;
use crate::term::search::{length, named, summary};
use crate::term::stdout::{self, Print};

/// A search's document as written (search.json, census.json, reaching.json): the core's report,
/// then the command that made it.
#[derive(Serialize, schemars::JsonSchema)]
pub(crate) struct Document<'a> {
    #[serde(flatten)]
    report: &'a SearchReport,
    provenance: Provenance,
}

/// Where a search writes and what it prints.
pub struct Shown<'a> {
    /// The folder (`--out`).
    pub out: &'a Path,
    /// What is printed when done.
    pub print: Print,
    /// Whether it was a search for a time (`--minutes`): its summary then says the command
    /// that plays it again, as a stopped one's does.
    pub timed: bool,
}

/// Begins the set of a search at `shown.out` under `session`, plays the search (`search`, which may refuse,
/// writing nothing), writes the document it reports and its text files (`say` writes their
/// commands), commits the set and prints the summary; then an error if the search was
/// interrupted, its set complete all the same.
pub fn into_set(
    session: &Session,
    shown: &Shown,
    say: &dyn Replays,
    search: impl FnOnce() -> Result<SearchReport>,
) -> Result<()> {
    let set = session.begin(shown.out, Kind::Search, &[])?;
    let report = &search()?;
    let doc = Document {
        report,
        provenance: session.provenance(),
    };
    let (json, files) = files(report, say);
    let dir = set.dir();
    dir.write_json(json, &doc)?;
    for (name, text) in &files {
        dir.write(name, text.as_bytes())?;
    }
    set.commit()?;
    let written: Vec<&str> = std::iter::once(json)
        .chain(files.iter().map(|f| f.0))
        .collect();
    match shown.print {
        Print::Json => stdout::print_json(&doc)?,
        Print::Nothing => {}
        Print::Text | Print::Markdown => stdout::write_all(
            summary(report, shown.out, shown.timed, &written.join(", ")).as_bytes(),
        )?,
    }
    match stopped_after(report) {
        Some(after) => Err(Interrupted(format!(
            "interrupted: the search stopped after {after} and wrote what it found into {}/ \
             ({json} says \"stopped\": true)",
            shown.out.display()
        ))
        .into()),
        None => Ok(()),
    }
}

/// What an interrupted search had played (`1,000 deals`), or `None`: it was not interrupted.
fn stopped_after(report: &SearchReport) -> Option<String> {
    report.stopped().then(|| match report {
        SearchReport::Climb(r) => format!("{} deals", grouped(r.deals)),
        SearchReport::Loops(r) => format!("{} tries", grouped(r.tries)),
        SearchReport::Census(r) => format!("{} tries", grouped(r.census.tries)),
        SearchReport::Record(r) => format!("{} deals and {} bases", grouped(r.deals), r.bases),
        SearchReport::Reaching(_) => String::new(),
    })
}

/// A text file of commands: `header`, then each command with what it plays after a `#`.
fn listing(header: &str, lines: impl IntoIterator<Item = (String, String)>) -> String {
    let mut out = header.to_string();
    for (command, note) in lines {
        out.push_str(&format!("{command}   # {note}\n"));
    }
    out
}

/// The deals of `found` as best.txt lists them.
fn lengths<'a>(found: impl Iterator<Item = &'a Listed<Found>>) -> Vec<(String, String)> {
    found
        .map(|l| (l.replay.clone(), length(&l.found)))
        .collect()
}

/// The document's name and the text files of `report`, each with its content.
fn files(report: &SearchReport, say: &dyn Replays) -> (&'static str, Vec<(&'static str, String)>) {
    let best = |text| ("search.json", vec![("best.txt", text)]);
    match report {
        SearchReport::Climb(r) => best(listing(
            "# The longest deals found, then the deals that never end; each line replays one.\n",
            lengths(r.best.iter().chain(&r.loops)),
        )),
        SearchReport::Record(r) => best(listing(
            "# The longest deals found; each line replays one.\n",
            lengths(r.best.iter()),
        )),
        SearchReport::Loops(r) => best(listing(
            "# Each cycle's canonical position as a deal (the leader's hand first), seeds first; \
             each line replays one.\n",
            (r.seeds.iter().chain(&r.cycles)).map(|c| (c.replay.clone(), named(&c.found))),
        )),
        SearchReport::Census(r) => ("census.json", census_files(r, say)),
        SearchReport::Reaching(r) => ("reaching.json", vec![("deals.txt", reaching_deals(r))]),
    }
}

/// cycles.txt (a `play` command per cycle, its canonical position, with its counts) and
/// deals.txt (one per balanced deal of every cycle, with the cycle and the depth).
fn census_files(r: &CensusReport, say: &dyn Replays) -> Vec<(&'static str, String)> {
    let cycles = (r.census.cycles.iter()).map(|c| {
        let note = format!(
            "{}; basin {} positions, {} deep; balanced deals {} (player 1 leads), {} (either)",
            named(&c.cycle),
            grouped(c.basin_positions),
            c.per_depth.len() - 1,
            c.balanced_player_1_leads,
            c.balanced_either_leads
        );
        (say.cycle(&c.cycle.position), note)
    });
    let deals = (r.census.cycles.iter()).flat_map(|c| {
        c.deals.iter().map(|d| {
            let mirror = if d.leader == 2 { " (mirror)" } else { "" };
            let note = format!("cycle {}{mirror} after {} tricks", c.cycle.id, d.depth);
            (say.cycle(&d.deal), note)
        })
    });
    vec![
        (
            "cycles.txt",
            listing(
                "# Each cycle's canonical position (the leader's hand first); each line replays \
                 one.\n",
                cycles,
            ),
        ),
        (
            "deals.txt",
            listing(
                "# Every balanced deal found entering a cycle (player 2 to lead: seats swapped, \
                 so it enters the cycle's mirror image); each line replays one.\n",
                deals,
            ),
        ),
    ]
}

/// deals.txt of a walk: one `play bmn` command per balanced deal, player 1's first.
fn reaching_deals(r: &ReachingReport) -> String {
    let header = format!(
        "# The balanced deals whose game enters the {}-trick ({}-card) cycle of {}.\n\
         # Player 1 to lead: {}; with player 2 to lead too: {} (a position with player 2 to \
         lead is written seats swapped, player 2's hand first: its game is the mirror image).\n",
        r.cycle_tricks, r.cycle_cards, r.deal, r.balanced_player_1_leads, r.balanced_either_leads
    );
    let lines = r.deals.iter().map(|d| {
        let whose = match d.found.leader {
            1 => "the cycle",
            _ => "its mirror image (player 2 led, seats swapped)",
        };
        let note = format!("on {whose} after {} tricks", d.found.depth);
        (d.replay.clone(), note)
    });
    listing(&header, lines)
}
