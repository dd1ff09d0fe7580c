//! `resume DIR` of a sweep that an interrupt stopped, or that was killed after a checkpoint:
//! the sweep its sweep.json's command asks made again, each rule set it held read back and
//! checked against that sweep (its whole runs kept, its run stopped part way played on from its
//! games, the rest played), and the sweep written into DIR. Game i of a rule set depends on
//! (seed, i) alone and a tally is integer counts, so the sweep is the one played in one go:
//! the same histograms, CSV files and charts, and sweep.json but for timing and provenance.
//! Everything is read and checked before the set is begun: a folder refused is left as it was.

use std::path::{Path, PathBuf};

use anyhow::Result;
use serde_json::Value;

use super::from_words;
use super::play::{Prepared, Start};
use super::value::SweepRun;
use crate::config::setup::WithGame;
use crate::config::RunConfig;
use crate::error::UsageError;
use crate::estimate::MaxHours;
use crate::export::sweep::Held;
use crate::games::Game;
use crate::model::report::Timing;
use crate::model::summary::Provenance;
use crate::model::{self, load::Part, reader};
use crate::run;
use crate::session::Session;
use crate::store::{checkpoint, Kind};
use crate::term::progress::{self, When};
use crate::usage;
use crate::value::Run;

/// Whether `resume DIR` goes on with a sweep: the newest checkpoint a killed run into `dir`
/// left, else `dir` itself, holds a sweep.json.
pub fn resumes_a_sweep(dir: &Path) -> bool {
    let from = checkpoint::latest(dir);
    from.as_deref().unwrap_or(dir).join("sweep.json").is_file()
}

/// `resume DIR` of a sweep: the stopped sweep in `dir`, or the newest checkpoint a killed
/// sweep into `dir` left beside it, played to its end and written into `dir`, with progress
/// as `progress` says and checkpoints every `minutes` (0: none); gives the sweep and `dir`.
/// Stopped again, it is written as far as it got, still stopped.
pub fn resume(
    session: &Session,
    dir: &Path,
    progress: When,
    minutes: f64,
) -> Result<(SweepRun, PathBuf)> {
    let from = checkpoint::latest(dir);
    let source = from.as_deref().unwrap_or(dir);
    let doc = reader::parse_json(
        &reader::read_text(source, "sweep.json", reader::MAX_SET_JSON_BYTES)?,
        source,
        "sweep.json",
    )?;
    let asked = asked_of(dir, &doc)?;
    let mut sweep =
        from_words(&asked).map_err(|e| edited(dir, &format!("its command is refused: {e}")))?;
    // The sweep's own options, but for where it goes and what `resume` was asked; it was
    // accepted within its bound when it began.
    sweep.run = RunConfig {
        out: Some(dir.to_path_buf()),
        progress,
        checkpoint_minutes: minutes,
        max_hours: MaxHours::NONE,
        ..sweep.run
    };
    let prepared = sweep.prepare()?;
    let held = held(dir, &doc, &prepared)?;
    let runs = read_rule_sets(session, &prepared, &held, (dir, from.as_deref()))?;
    if let Some(from) = &from {
        let line = format!(
            "resuming from the checkpoint that a killed sweep into {} left ({})",
            dir.display(),
            from.display()
        );
        progress::tell(progress, &line);
    }
    let elapsed_s = doc["elapsed_s"].as_f64().unwrap_or(0.0);
    // The set is begun (which removes what killed runs left beside `dir`, the checkpoint read
    // above among them), and the rule sets read kept again at once in its own.
    let set = session.begin(dir, Kind::Sweep, &[])?;
    let start = Start {
        runs,
        elapsed_s,
        asked,
    };
    let played = prepared.play(session, Some(&set), Some(start))?;
    played.write(set, sweep.run.svg)?;
    Ok((played, dir.to_path_buf()))
}

/// The command that asked the stopped sweep `doc` of `dir`; a sweep that holds every rule set
/// it was asked is refused: nothing to resume.
fn asked_of(dir: &Path, doc: &Value) -> Result<Vec<String>, UsageError> {
    if doc["stopped"] != true {
        return Err(usage!(
            "{}: this sweep holds every rule set it was asked; resume plays the rest of a sweep \
             that an interrupt stopped",
            dir.display()
        ));
    }
    let words = doc["asked"].as_array().and_then(|a| {
        a.iter()
            .map(|w| w.as_str().map(str::to_string))
            .collect::<Option<Vec<String>>>()
    });
    words.ok_or_else(|| edited(dir, "it names no command (`asked`)"))
}

/// The refusal of a sweep.json edited by hand, saying `why`.
fn edited(dir: &Path, why: &str) -> UsageError {
    usage!(
        "{}: sweep.json is no stopped sweep that warsim wrote ({why}); nothing resumed",
        dir.display()
    )
}

/// How much of each rule set the stopped sweep `doc` of `dir` holds, after checking that it is
/// the sweep `prepared` (which its command makes): the same game, settings, seed and games,
/// and the same rule sets in the same folders; and that it holds the first rule sets whole,
/// then at most one part way, and none after.
fn held(dir: &Path, doc: &Value, prepared: &Prepared<'_>) -> Result<Vec<Held>, UsageError> {
    let sweep = prepared.sweep;
    let varying: Vec<String> = sweep
        .axes
        .iter()
        .map(|a| crate::error::long(&a.0))
        .collect();
    let same = doc["game"] == sweep.game.as_str()
        && doc["varying"] == serde_json::json!(varying)
        && doc["seed"] == sweep.run.seed
        && doc["games"]
            == serde_json::json!(sweep.run.precision.is_none().then(|| sweep.per_set()));
    let sets = doc["rule_sets"]
        .as_array()
        .filter(|s| same && s.len() == sweep.rule_sets.len());
    let sets = sets.ok_or_else(|| edited(dir, "it is not the sweep its command asks"))?;
    let mut held = Vec::with_capacity(sets.len());
    for (i, (set, name)) in sets.iter().zip(&prepared.names).enumerate() {
        let (rule_set, _) = &sweep.rule_sets[i];
        let settings: serde_json::Map<String, Value> = (rule_set.settings.iter())
            .map(|(k, v)| (k.clone(), Value::String(v.clone())))
            .collect();
        let h = serde_json::from_value::<Held>(set["held"].clone()).ok();
        let ok = set["name"] == name.as_str() && set["settings"] == Value::Object(settings);
        let after = held.last().copied().unwrap_or(Held::Whole);
        let order = after == Held::Whole || h == Some(Held::Missing);
        match h.filter(|_| ok && order) {
            Some(h) => held.push(h),
            None => return Err(edited(dir, &format!("rule set {} ({name})", i + 1))),
        }
    }
    Ok(held)
}

/// The runs of the rule sets that `held` says the stopped sweep holds, each read back and
/// checked against its rule set's plan: a whole one from its folder in `dir` (or in the
/// staging folder that holds the checkpoint `from`), one part way from its folder in `dir` (or
/// from the checkpoint).
fn read_rule_sets(
    session: &Session,
    prepared: &Prepared<'_>,
    held: &[Held],
    (dir, from): (&Path, Option<&Path>),
) -> Result<Vec<Option<Run>>> {
    let base = from.and_then(Path::parent).unwrap_or(dir);
    let sweep = prepared.sweep;
    let each = sweep.rule_sets.iter().zip(&prepared.names).zip(held);
    each.map(|(((_, g), name), &h)| {
        let folder = match (h, from) {
            (Held::Missing, _) => return Ok(None),
            (Held::Partial, Some(checkpoint)) => checkpoint.to_path_buf(),
            _ => base.join(name),
        };
        if !folder.is_dir() {
            let why = format!("it says it holds rule set {name}, whose folder is missing");
            return Err(edited(dir, &why).into());
        }
        let read = ReadBack {
            dir: &folder,
            whole: h == Held::Whole,
            run: &sweep.run,
            made: session.provenance(),
        };
        g.run(read).map(Some)
    })
    .collect()
}

/// A rule set's run as a stopped sweep holds it, read back from `dir` and checked against the
/// rule set's plan: the same rules, seed, players and games, its first games, whole or not as
/// `whole` says.
struct ReadBack<'a> {
    dir: &'a Path,
    whole: bool,
    run: &'a RunConfig,
    /// Its provenance as written again.
    made: Provenance,
}

impl WithGame for ReadBack<'_> {
    type Output = Result<Run>;

    fn with<G: Game>(self, game: G) -> Result<Run> {
        let plan = run::plan(&game, self.run)?;
        let part: Part<G> = model::load::load(self.dir)?;
        let info = &part.info;
        let games = match (self.run.precision, &info.precision) {
            (None, None) => info.games_total == plan.games_total,
            (Some(h), Some(p)) => p.target == h && p.min_games == plan.games_total,
            _ => false,
        };
        let fits = games
            && info.rules == plan.rules
            && info.seed == plan.seed
            && info.players == plan.players
            && info.shard.is_none()
            && info.range.start == plan.range.start
            && info.stopped() != self.whole;
        if !fits {
            let d = self.dir.display();
            let what = if self.whole { "whole" } else { "part way" };
            return Err(usage!(
                "{d}: this run is not its rule set's run {what}, as the sweep's sweep.json says \
                 (edited by hand?); nothing resumed"
            )
            .into());
        }
        let said: Value = serde_json::from_str(&part.summary_json)?;
        let timing = Timing {
            elapsed_s: part.elapsed_s,
            threads: said["threads"].as_u64().map(|t| t as usize),
            note: None,
        };
        Run::new(part.info, part.tally, timing, self.made)
    }
}
