//! Reading a run folder back: its summary.json, checked against itself and against what the
//! rules derive, and its count files (`rows`), all through one handle on the folder
//! ([`Folder`]) so a folder committed anew meanwhile is read as one run. `merge`, `compare`,
//! `replay`, `play war --from` and Python read runs through [`load`].

use std::ops::Range;
use std::path::{Path, PathBuf};

use super::reader::{self, Folder};
use super::report::RunInfo;
use super::rows::{read_cycles, read_groups, read_histogram};
use super::summary::{every_deal, histogram_digest, PrecisionJson, Summary};
use crate::error::UsageError;
use crate::games::{Game, GameStats, Outcome};
use crate::sim::shard::Shard;
use crate::stats::histogram::Tally;
use crate::usage;
use warsim_core::error::setting;
use warsim_core::usage_of;

/// One run output read back.
#[derive(Debug)]
pub struct Part<G: Game> {
    /// Where it was read from.
    pub dir: PathBuf,
    /// The game its rules describe, built by the game's own option checks.
    pub game: G,
    /// Its run description.
    pub info: RunInfo,
    /// Its counts.
    pub tally: Tally<G::Stats>,
    /// Its `elapsed_s`.
    pub elapsed_s: f64,
    /// The program and version that wrote it (`provenance.program`), if it says.
    pub program: Option<String>,
    /// Its summary.json and histogram.csv as read, from the same set as everything above.
    pub summary_json: String,
    /// Its histogram.csv, LF line ends.
    pub histogram_csv: String,
}

/// The game of a run read back that a replay plays (`replay`, `play war --from`).
#[derive(Clone, Copy, Debug)]
pub struct Replaying {
    /// Its index in the run.
    pub index: u64,
    /// Whether game `index` is deal number `index` (a run of `exact`), not the game drawn from
    /// (seed, index).
    pub deal: bool,
    /// The rounds the run records for it, when it is the run's longest.
    pub said: Option<u64>,
}

impl<G: Game> Part<G> {
    /// The game a replay plays: `game`, or by default the run's longest, whose rounds the run
    /// records.
    pub fn replaying(&self, game: Option<u64>) -> Result<Replaying, UsageError> {
        let total = self.info.games_total;
        let longest = self.tally.longest;
        let index = game.or(longest.map(|(_, i)| i)).unwrap_or(0);
        if index >= total {
            return Err(usage_of![
                format!("{}: the run has {total} games; ", self.dir.display()),
                setting("game", index),
                " is not one",
            ]);
        }
        Ok(Replaying {
            index,
            deal: self
                .info
                .exact
                .as_ref()
                .is_some_and(|e| e.get("deals").is_some()),
            said: longest.filter(|_| game.is_none()).map(|(rounds, _)| rounds),
        })
    }
}

impl Replaying {
    /// Refuses a replay of the run's longest game that does not end after the rounds the run
    /// records: its summary was edited, or another warsim version dealt its games otherwise.
    pub fn check(&self, dir: &Path, rounds: u64) -> Result<(), UsageError> {
        match self.said {
            Some(said) if said != rounds => Err(usage!(
                "{}: its longest game, {}, ends after {rounds} rounds, the run says {said}: the \
                 summary was edited, or another warsim version wrote it",
                dir.display(),
                self.index
            )),
            _ => Ok(()),
        }
    }
}

/// The summary.json of `dir`, bounded and with every string checked ([`reader`]); a folder of
/// warsim's that holds no run of games is named for what it holds.
fn read_summary(dir: &Folder) -> Result<(String, serde_json::Value), UsageError> {
    if !dir.is_file("summary.json") {
        if let Some(what) = not_a_run(dir) {
            return Err(usage!("{} {what}", dir.path().display()));
        }
    }
    let text = dir.read_text("summary.json", reader::MAX_JSON_BYTES)?;
    let value = reader::parse_json(&text, dir.path(), "summary.json")?;
    Ok((text, value))
}

/// What a folder of warsim's that holds no run of games holds, by its main file.
fn not_a_run(dir: &Folder) -> Option<String> {
    let d = dir.path().display();
    let search = |what: &str, list: &str| {
        format!(
            "holds {what}, no run of games: each line of its {list} is a deal, which bmn's \
             `play` replays"
        )
    };
    let kinds: [(&str, &dyn Fn() -> String); 7] = [
        ("sweep.json", &|| {
            format!("is a sweep; name one of its rule-set folders ({d}/NAME)")
        }),
        ("chain.json", &|| {
            "holds an exact Markov-chain answer (chain.json), no games".into()
        }),
        ("flawless.json", &|| {
            "holds the flawless game's probability (flawless.json), no games".into()
        }),
        ("compare.json", &|| {
            "holds a comparison of runs (compare.json), no games".into()
        }),
        ("search.json", &|| {
            let loops = dir
                .read_text("search.json", reader::MAX_SET_JSON_BYTES)
                .ok()
                .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
                .is_some_and(|v| v["mode"] == "loops");
            match loops {
                true => search("a search for cycles (search.json)", "best.txt"),
                false => search("a search for long deals (search.json)", "best.txt"),
            }
        }),
        ("reaching.json", &|| {
            search("the deals that enter a cycle (reaching.json)", "deals.txt")
        }),
        ("census.json", &|| {
            search("a census of cycles (census.json)", "deals.txt")
        }),
    ];
    kinds
        .iter()
        .find(|(file, _)| dir.is_file(file))
        .map(|(_, what)| what())
}

/// A CSV file of `dir`, bounded, with CRLF line ends read as the LF warsim writes (an editor's
/// or git's re-save changes no count, so the digest is taken of the text as warsim wrote it).
fn read_csv(dir: &Folder, name: &str) -> Result<String, UsageError> {
    let text = dir.read_text(name, reader::MAX_CSV_BYTES)?;
    Ok(match text.contains("\r\n") {
        true => text.replace("\r\n", "\n"),
        false => text,
    })
}

/// The game whose output `dir` holds, so the caller can read it as that game's.
pub fn game_of(dir: &Path) -> Result<String, UsageError> {
    match &read_summary(&Folder::open(dir))?.1["game"] {
        serde_json::Value::String(g) => Ok(g.clone()),
        _ => Err(usage!("{}: summary.json names no game", dir.display())),
    }
}

/// Most players any game has (outcome slots are indexed by a `u8` player number).
const MAX_PLAYERS: usize = 255;

/// Reads the output in `dir`, written by a run of game `G`, and checks it against itself and
/// against the game: the rules pass the game's own option checks, the players are the game's,
/// the histogram is the one the summary describes (digest), counts add up to the games and to
/// the slice of the run, rounds lie within the rules' cap, every sum is checked and every time
/// finite. Nothing is allocated on a file's word alone. `merge`, `compare`, `replay`, `play
/// --from` and Python read runs through it.
///
/// Every file comes through one handle on the folder ([`Folder`]), so what is read is one run
/// even while another process commits a new run at `dir`; a read that failed while that
/// happened (a file of the old set removed under it, its path briefly absent) starts again on
/// the new set.
pub fn load<G: Game>(dir: &Path) -> Result<Part<G>, UsageError> {
    let mut tries = 0;
    loop {
        let folder = Folder::open(dir);
        match load_from::<G>(&folder) {
            Err(_) if folder.moved() && tries < MAX_RELOADS => tries += 1,
            read => return read,
        }
    }
}

/// How often [`load`] starts again on a folder committed anew while it was read: each commit
/// is one exchange of directories, so only a writer committing faster than a run is read keeps
/// it from one consistent read.
const MAX_RELOADS: u32 = 20;

/// [`load`] through one opened folder: the summary read and checked against the rules, then
/// the counts read and checked against the summary.
fn load_from<G: Game>(folder: &Folder) -> Result<Part<G>, UsageError> {
    let (summary_json, v) = read_typed::<G>(folder)?;
    let (game, info, every_deal) = check_against_rules::<G>(folder.path(), &v)?;
    let histogram_csv = read_described_histogram(folder, &v)?;
    let elapsed_s = v.elapsed_s;
    let program = v.provenance.as_ref().map(|p| p.program.clone());
    let counts = Counts {
        folder,
        game: &game,
        info: &info,
        every_deal,
    };
    let tally = counts.read(&histogram_csv, v)?;
    Ok(Part {
        dir: folder.path().to_path_buf(),
        game,
        info,
        tally,
        elapsed_s,
        program,
        summary_json,
        histogram_csv,
    })
}

/// The summary.json of `folder` as read, and typed as a run of `G`'s.
fn read_typed<G: Game>(folder: &Folder) -> Result<(String, GameSummary<G>), UsageError> {
    let d = folder.path().display();
    let (summary_json, value) = read_summary(folder)?;
    if value["game"] != G::NAME {
        return Err(usage!(
            "{d}: a run of {}, not of {}",
            value["game"],
            G::NAME
        ));
    }
    let v = serde_json::from_value(value).map_err(|e| usage!("{d}: summary.json: {e}"))?;
    Ok((summary_json, v))
}

/// The summary.json of a run of `G`.
type GameSummary<G> = Summary<<<G as Game>::Stats as GameStats>::Json>;

/// The game that summary `v` of `dir` describes, built by the game's own option checks, and
/// the run as the summary describes it, checked against those rules; and whether the run
/// says it played every deal once.
fn check_against_rules<G: Game>(
    dir: &Path,
    v: &GameSummary<G>,
) -> Result<(G, RunInfo, bool), UsageError> {
    let d = dir.display();
    // A run read back may be played on (`resume`, `compare`'s shared deals): on the path named.
    let game = crate::games::from_rules::<G>(&v.rules)
        .map_err(|e| usage!("{d}: summary.json rules: {e}"))?
        .on_engine(&crate::config::setup::engine_path());
    if v.players != game.players() || !(1..=MAX_PLAYERS).contains(&v.players) {
        return Err(usage!(
            "{d}: summary.json says {} players; its rules have {}",
            v.players,
            game.players()
        ));
    }
    if !(v.elapsed_s.is_finite() && v.elapsed_s >= 0.0) {
        return Err(usage!(
            "{d}: summary.json: elapsed_s {} is not a time",
            v.elapsed_s
        ));
    }
    let (range, shard) = span(dir, v)?;
    let every_deal = v.exact.as_ref().is_some_and(|e| e.get("deals").is_some());
    derived(&game, v, every_deal).map_err(|what| usage!("{d}: summary.json {what}"))?;
    let info = RunInfo {
        game: v.game.clone(),
        description: v.description.clone(),
        unit: G::UNIT,
        rules: v.rules.clone(),
        seed: v.seed,
        players: v.players,
        games_total: v.run.games_total,
        range,
        shard,
        detects_loops: game.detects_loops(),
        exact: v.exact.clone(),
        precision: v.precision.clone(),
        grouping: v.grouping.clone(),
        exhaustive: false,
        // A run read back says what played it; what is written from it (a merge) was not
        // played by one engine.
        engine: None,
    };
    Ok((game, info, every_deal))
}

/// The games a summary says it covers, and its shard, which must cut exactly those games.
fn span<J>(dir: &Path, v: &Summary<J>) -> Result<(Range<u64>, Option<Shard>), UsageError> {
    let d = dir.display();
    let range = v.run.first_game..v.run.end_game;
    if range.start > range.end || range.end > v.run.games_total {
        return Err(usage!(
            "{d}: summary.json covers games {}..{} of a run of {}",
            range.start,
            range.end,
            v.run.games_total
        ));
    }
    let shard = match &v.run.shard {
        Some(s) => Some(
            s.parse::<Shard>()
                .map_err(|e| usage!("{d}: run.shard {e}"))?,
        ),
        None => None,
    };
    let planned = shard.map_or(0..v.run.games_total, |s| s.range(v.run.games_total));
    // A stopped run holds the first games of its slice; any other, all of them (a run with
    // no shard may hold any games: an older merge of a part of a run).
    let holds = match (v.run.stopped, shard) {
        (true, _) => range.start == planned.start && range.end < planned.end,
        (false, Some(_)) => range == planned,
        (false, None) => true,
    };
    if !holds {
        let slice = shard.map_or_else(|| "run".to_string(), |s| format!("shard {s}"));
        let is = match v.run.stopped {
            true => "says it stopped, so holds some of its first games, not",
            false => "is not",
        };
        return Err(usage!(
            "{d}: {slice} of {} games {is} games {}..{}",
            v.run.games_total,
            range.start,
            range.end
        ));
    }
    Ok((range, shard))
}

/// The histogram.csv of `folder`, which must be the one summary `v` describes (its digest).
fn read_described_histogram<J>(folder: &Folder, v: &Summary<J>) -> Result<String, UsageError> {
    let histogram_csv = read_csv(folder, "histogram.csv")?;
    let digest = histogram_digest(histogram_csv.as_bytes());
    if v.histogram_digest.as_deref() != Some(digest.as_str()) {
        return Err(usage!(
            "{}: histogram.csv is not the histogram summary.json describes (its digest is {digest}, \
             summary.json records {})",
            folder.path().display(),
            v.histogram_digest.as_deref().unwrap_or("none")
        ));
    }
    Ok(histogram_csv)
}

/// What the counts of a run folder are read against: the game its rules describe and the run
/// its summary describes.
struct Counts<'a, G: Game> {
    folder: &'a Folder,
    game: &'a G,
    info: &'a RunInfo,
    every_deal: bool,
}

impl<G: Game> Counts<'_, G> {
    /// The tally of histogram.csv (`text`), then of cycles.csv and by.csv where the run has
    /// them, each checked against summary `v` and the rules.
    fn read(&self, text: &str, v: GameSummary<G>) -> Result<Tally<G::Stats>, UsageError> {
        let (dir, info) = (self.folder.path(), self.info);
        let d = dir.display();
        // Rounds are at least 1 and at most the rules' cap, where the rules have one.
        let cap = info.rules.get("max_rounds").and_then(|m| m.as_u64());
        let mut tally = Tally::<G::Stats>::new(info.players);
        read_histogram(text, &mut tally, cap, dir)?;
        possible(&tally, self.game, cap).map_err(|what| usage!("{d}: histogram.csv {what}"))?;
        self.games_agree(&tally, &v)?;
        // The game's reader names the field (`wars.total is 1, but ...`).
        tally.stats = <G::Stats as GameStats>::from_json(v.stats, v.games)
            .map_err(|e| usage!("{d}: summary.json {e}"))?;
        let whole = info.shard.is_none() && info.range == (0..info.games_total);
        if self.every_deal {
            every_deal_holds(self.game, info, &tally, whole)
                .map_err(|what| usage!("{d}: summary.json claims every deal, but {what}"))?;
        }
        if let Some(p) = &info.precision {
            let stopped = info.shard.is_none() && info.range.start == 0 && info.stopped();
            let holds = match stopped {
                true => stopped_precision_holds(p, &tally, info.games_total),
                false => precision_holds(p, &tally, whole),
            };
            holds.map_err(|what| usage!("{d}: summary.json precision: {what}"))?;
        }
        if info.detects_loops {
            read_cycles(&read_csv(self.folder, "cycles.csv")?, &mut tally, cap, dir)?;
        }
        if let Some(by) = &v.by {
            let groups = (cap, self.game.groups());
            read_groups(
                &read_csv(self.folder, "by.csv")?,
                &mut tally,
                by,
                groups,
                dir,
            )?;
        }
        if v.games > 0 {
            tally.longest = Some(self.longest(&tally, v.longest_rounds, v.longest_game)?);
        }
        Ok(tally)
    }

    /// The histogram's games are the summary's, in all and per outcome, and the slice's.
    fn games_agree(&self, tally: &Tally<G::Stats>, v: &GameSummary<G>) -> Result<(), UsageError> {
        let (d, range) = (self.folder.path().display(), &self.info.range);
        let games = v.games;
        if tally.games != games || range.end - range.start != games {
            return Err(usage!(
                "{d}: the histogram counts {} games, summary.json says {games} over games {}..{}",
                tally.games,
                range.start,
                range.end
            ));
        }
        for (o, n) in tally.outcomes() {
            let said = v.outcomes.get(&o.name()).copied().unwrap_or(0);
            if said != n {
                return Err(usage!(
                    "{d}: the histogram counts {n} games of outcome {}, summary.json {said}",
                    o.name()
                ));
            }
        }
        Ok(())
    }

    /// The longest game the summary names (`rounds`, `game`): the histogram's longest, and
    /// within the slice.
    fn longest(
        &self,
        tally: &Tally<G::Stats>,
        rounds: u64,
        game: u64,
    ) -> Result<(u64, u64), UsageError> {
        let range = &self.info.range;
        let max = tally.rounds.rows().last().map_or(0, |(r, _)| r);
        if rounds != max || !range.contains(&game) {
            return Err(usage!(
                "{}: longest game {game} of {rounds} rounds: the histogram's longest has {max} \
                 rounds and the shard holds games {}..{}",
                self.folder.path().display(),
                range.start,
                range.end
            ));
        }
        Ok((rounds, game))
    }
}

/// Refuses what a summary says that its rules decide otherwise: the description, whether loops
/// are detected, the grouping and the exact values are derived from the rules, so a shard
/// whose text was edited (a description holding markup, say) is named, not carried into the
/// merged run.
fn derived<G: Game>(
    game: &G,
    v: &Summary<<G::Stats as GameStats>::Json>,
    every_deal: bool,
) -> Result<(), String> {
    let mut description = game.describe();
    if every_deal {
        description.push_str(", every deal");
    }
    if v.description != description {
        return Err(format!(
            "description {:?} is not what its rules describe ({description:?}); was it edited?",
            v.description
        ));
    }
    if v.loops.is_some() != game.detects_loops() {
        return Err(format!(
            "{} loop statistics, but its rules {} loops",
            if v.loops.is_some() { "has" } else { "lacks" },
            if game.detects_loops() {
                "detect"
            } else {
                "do not detect"
            }
        ));
    }
    if v.grouping != game.grouping() {
        let said = |g: Option<String>| g.map_or("none".to_string(), |g| format!("{g:?}"));
        return Err(format!(
            "grouping {} is not its rules' ({})",
            said(v.grouping.clone()),
            said(game.grouping())
        ));
    }
    let exact = game.exact();
    let same = match (&v.exact, &exact) {
        (Some(read), Some(made)) => crate::games::same_values(read, made),
        (None, None) => true,
        _ => false,
    };
    if !every_deal && !same {
        return Err("exact values are not its rules' (was it edited?)".into());
    }
    Ok(())
}

/// A run that says it played every deal once must be the whole run of seed 0 over exactly the
/// rules' distinct deals, and its `exact` object what its counts give.
fn every_deal_holds<G: Game>(
    game: &G,
    info: &RunInfo,
    tally: &Tally<G::Stats>,
    whole: bool,
) -> Result<(), String> {
    let deals = game
        .deal_count()
        .map_err(|e| crate::error::with_flags(&e))?;
    if !whole || info.seed != 0 || u128::from(info.games_total) != deals {
        return Err(format!(
            "it holds games {}..{} of {} with seed {}; every deal of its rules is games 0..{deals} \
             of seed 0",
            info.range.start, info.range.end, info.games_total, info.seed
        ));
    }
    if info.exact.as_ref() != Some(&every_deal(tally)) {
        return Err("its exact object is not what its counts give (was it edited?)".into());
    }
    Ok(())
}

/// A run to a precision is whole, stopped at one of its checkpoints where the half-width its
/// games give met the target (or at `max_games`), and says so in the rule's own words.
fn precision_holds<S: GameStats>(
    p: &PrecisionJson,
    tally: &Tally<S>,
    whole: bool,
) -> Result<(), String> {
    use crate::sim::precision::{half_width, Stop, Target};
    if !whole {
        return Err(
            "a shard cannot be a run to a precision, which decides from all its games".into(),
        );
    }
    if !(p.target.is_finite() && p.target > 0.0) || p.min_games > p.max_games {
        return Err(format!(
            "target {} with games {}..{}",
            p.target, p.min_games, p.max_games
        ));
    }
    let target = Target {
        half_width: p.target,
        min_games: p.min_games,
        max_games: p.max_games,
    };
    let h = half_width(tally);
    let stop = Stop {
        games: tally.games,
        reached: h.is_some_and(|h| h <= p.target),
        half_width: h,
    };
    let checkpoint = target.checkpoints().any(|c| c == tally.games);
    let stopped = stop.reached || tally.games == p.max_games;
    if *p != PrecisionJson::new(&target, &stop) || !checkpoint || !stopped {
        return Err(format!(
            "it says {:?} at ±{:?}; its {} games give ±{:?} (was it edited?)",
            if p.reached { "reached" } else { "not reached" },
            p.half_width,
            tally.games,
            h
        ));
    }
    Ok(())
}

/// A run to a precision stopped by an interrupt holds its first games, past the checkpoint
/// before `toward` (where it went on) and short of `toward` (the checkpoint it played toward,
/// its planned games), and says so: the target not reached, the half-width its games give.
fn stopped_precision_holds<S: GameStats>(
    p: &PrecisionJson,
    tally: &Tally<S>,
    toward: u64,
) -> Result<(), String> {
    use crate::sim::precision::{half_width, Stop, Target};
    let target = Target {
        half_width: p.target,
        min_games: p.min_games,
        max_games: p.max_games,
    };
    let before = target.checkpoints().take_while(|&c| c < toward).last();
    let planned = target.checkpoints().any(|c| c == toward);
    let stop = Stop {
        games: tally.games,
        reached: false,
        half_width: half_width(tally),
    };
    let inside = (before.unwrap_or(0)..toward).contains(&tally.games);
    if !(p.target.is_finite() && p.target > 0.0 && planned && inside) {
        return Err(format!(
            "a stopped run of {} games toward {toward} is no run to ±{} from {}..{} games",
            tally.games, p.target, p.min_games, p.max_games
        ));
    }
    if *p != PrecisionJson::new(&target, &stop) {
        return Err(format!(
            "it says ±{:?}; its {} games give ±{:?} (was it edited?)",
            p.half_width, tally.games, stop.half_width
        ));
    }
    Ok(())
}

/// Refuses outcomes the rules cannot produce: loops in a run without loop detection, and games
/// capped at any round count but the cap.
fn possible<S: GameStats>(
    tally: &Tally<S>,
    game: &impl Game,
    cap: Option<u64>,
) -> Result<(), String> {
    let players = tally.players;
    let rows_of = |o: Outcome| {
        let slot = o.slot(players);
        tally
            .rounds
            .counts_where(move |s| s == slot)
            .filter(|&(_, n)| n > 0)
    };
    if !game.detects_loops() {
        if let Some((rounds, n)) = rows_of(Outcome::Loop).next() {
            return Err(format!(
                "counts {n} looping games at {rounds} rounds, but its rules detect no loops"
            ));
        }
    }
    if let Some((rounds, n)) = rows_of(Outcome::Capped).find(|&(r, _)| Some(r) != cap) {
        return Err(format!(
            "counts {n} games capped at {rounds} rounds, but its rules cap games at {}",
            cap.map_or("no round count".to_string(), |c| c.to_string())
        ));
    }
    Ok(())
}
