//! What a search (`search bmn`, and `--reaching`) writes and prints of its report
//! ([`crate::value::Searched`]): its document, the core's report with the command's provenance
//! beside it (search.json, census.json or reaching.json), and its text files of a `play`
//! command a line, each with what it plays (best.txt, cycles.txt, deals.txt), written and
//! committed; its summary printed; and, for an interrupted search, whose set is complete, the
//! error the command then exits with (status 130).

use std::path::Path;

use anyhow::Result;
use serde::Serialize;

use crate::error::Interrupted;
use crate::games::bmn::search::climb::Found;
use crate::games::bmn::search::header::{Listed, Replays};
use crate::games::bmn::search::reaching::ReachingReport;
use crate::games::bmn::search::report::{CensusReport, SearchReport};
use crate::model::summary::Provenance;
use crate::stats::summary::grouped;
use crate::store::OutputSet;
use crate::term::search::{length, named, summary};
use crate::term::stdout::{self, Print};

/// A search's document as written (search.json, census.json, reaching.json): the core's report,
/// then the command that made it.
#[derive(Serialize, schemars::JsonSchema)]
pub(crate) struct Document<'a> {
    #[serde(flatten)]
    pub(crate) report: &'a SearchReport,
    pub(crate) provenance: Provenance,
}

/// A search's files: its document's name (search.json, census.json, reaching.json) and its
/// text files, each with its content.
pub(crate) type Files = (&'static str, Vec<(&'static str, String)>);

/// Writes the document `doc` as `files` name it, then its text files, into `set`, and commits
/// it.
pub(crate) fn write(set: OutputSet, doc: &Document, files: &Files) -> Result<()> {
    let (json, texts) = files;
    let dir = set.dir();
    dir.write_json(json, doc)?;
    for (name, text) in texts {
        dir.write(name, text.as_bytes())?;
    }
    set.commit()
}

/// Prints the search `doc` as `print` says: its JSON, or its summary (the command that plays
/// it again after a search for a time, `timed`, or a stopped one) naming the folder `written`
/// where its `files` went.
pub(crate) fn print(
    doc: &Document,
    files: &Files,
    timed: bool,
    print: Print,
    written: Option<&Path>,
) -> Result<()> {
    match print {
        Print::Json => stdout::print_json(doc),
        Print::Nothing => Ok(()),
        Print::Text | Print::Markdown => {
            let mut text = summary(doc.report, timed);
            if let Some(out) = written {
                let (json, texts) = files;
                let names: Vec<&str> = std::iter::once(*json)
                    .chain(texts.iter().map(|f| f.0))
                    .collect();
                text.push_str(&format!(
                    "written   {}/ ({})\n",
                    out.display(),
                    names.join(", ")
                ));
            }
            stdout::write_all(text.as_bytes())
        }
    }
}

/// The error of a search `report` that an interrupt stopped, whose set (its document `json`)
/// went into `written`; `Ok` for one that played what it was asked.
pub(crate) fn interrupted(report: &SearchReport, json: &str, written: &Path) -> Result<()> {
    match stopped_after(report) {
        Some(after) => Err(Interrupted(format!(
            "interrupted: the search stopped after {after} and wrote what it found into {}/ \
             ({json} says \"stopped\": true)",
            written.display()
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

/// The document's name and the text files of `report`, each with its content (`say` writes
/// their commands).
pub(crate) fn files(report: &SearchReport, say: &dyn Replays) -> Files {
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
