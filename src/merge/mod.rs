//! `warsim merge`: reads shard outputs back and adds them exactly.
//!
//! A shard's `summary.json` records the run it belongs to (game, rules, seed, total games) and
//! the game indices it covers; its `histogram.csv` and `cycles.csv` hold the exact counts. Merge
//! checks that the shards belong to one run, are disjoint and cover it whole before it adds
//! anything, so a missing, duplicated or foreign shard is refused by name.

use std::ops::Range;
use std::path::{Path, PathBuf};

use crate::error::UsageError;
use crate::games::{Game, GameStats, Outcome};
use crate::output::reader::{self, Folder};
use crate::output::report::{RunInfo, Timing};
use crate::output::summary::{histogram_digest, Summary};
use crate::sim::shard::Shard;
use crate::stats::histogram::Tally;
use crate::usage;
use rows::{read_cycles, read_groups, read_histogram};

mod rows;

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
            return Err(usage!(
                "{}: the run has {total} games; --game {index} is not one",
                self.dir.display()
            ));
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
            "holds {what}, no run of games: each line of its {list} replays one with \
             `warsim play bmn --deal`"
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

/// Most groups a run read back may have: a game's group is a `u16` ([`GameStats::group`]), so
/// every run warsim writes (War's `--by p1-top` has one group more than the suits, up to
/// thousands) is read back.
const MAX_GROUPS: usize = 1 << 16;

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

/// [`load`] through one opened folder.
fn load_from<G: Game>(folder: &Folder) -> Result<Part<G>, UsageError> {
    let dir = folder.path();
    let d = dir.display();
    let (summary_json, value) = read_summary(folder)?;
    if value["game"] != G::NAME {
        return Err(usage!(
            "{d}: a run of {}, not of {}",
            value["game"],
            G::NAME
        ));
    }
    let v: Summary<<G::Stats as GameStats>::Json> =
        serde_json::from_value(value).map_err(|e| usage!("{d}: summary.json: {e}"))?;
    let game = crate::games::from_rules::<G>(&v.rules)
        .map_err(|e| usage!("{d}: summary.json rules: {e}"))?;
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
        None => None,
        Some(s) => {
            let shard = s
                .parse::<Shard>()
                .map_err(|e| usage!("{d}: run.shard {e}"))?;
            if shard.range(v.run.games_total) != range {
                return Err(usage!(
                    "{d}: shard {shard} of {} games is not games {}..{}",
                    v.run.games_total,
                    range.start,
                    range.end
                ));
            }
            Some(shard)
        }
    };
    let every_deal = v.exact.as_ref().is_some_and(|e| e.get("deals").is_some());
    derived(&game, &v, every_deal).map_err(|what| usage!("{d}: summary.json {what}"))?;
    let info = RunInfo {
        game: v.game,
        description: v.description,
        unit: G::UNIT,
        rules: v.rules,
        seed: v.seed,
        players: v.players,
        games_total: v.run.games_total,
        range,
        shard,
        detects_loops: game.detects_loops(),
        exact: v.exact,
        precision: v.precision,
        grouping: v.grouping,
        exhaustive: false,
        // A run read back says what played it; what is written from it (a merge) was not
        // played by one engine.
        engine: None,
    };
    let histogram_csv = read_csv(folder, "histogram.csv")?;
    let text = &histogram_csv;
    let digest = histogram_digest(text.as_bytes());
    if v.histogram_digest.as_deref() != Some(digest.as_str()) {
        return Err(usage!(
            "{d}: histogram.csv is not the histogram summary.json describes (its digest is {digest}, \
             summary.json records {})",
            v.histogram_digest.as_deref().unwrap_or("none")
        ));
    }
    // Rounds are at least 1 and at most the rules' cap, where the rules have one.
    let cap = info.rules.get("max_rounds").and_then(|m| m.as_u64());
    let mut tally = Tally::<G::Stats>::new(info.players);
    read_histogram(text, &mut tally, cap, dir)?;
    possible(&tally, &game, cap).map_err(|what| usage!("{d}: histogram.csv {what}"))?;
    let games = v.games;
    if tally.games != games || info.range.end - info.range.start != games {
        return Err(usage!(
            "{d}: the histogram counts {} games, summary.json says {games} over games {}..{}",
            tally.games,
            info.range.start,
            info.range.end
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
    tally.stats = <G::Stats as GameStats>::from_json(v.stats, games)
        .map_err(|e| usage!("{d}: summary.json: {e}"))?;
    let whole = info.shard.is_none() && info.range == (0..info.games_total);
    if every_deal {
        every_deal_holds(&game, &info, &tally, whole)
            .map_err(|what| usage!("{d}: summary.json claims every deal, but {what}"))?;
    }
    if let Some(p) = &info.precision {
        precision_holds(p, &tally, whole)
            .map_err(|what| usage!("{d}: summary.json precision: {what}"))?;
    }
    if info.detects_loops {
        read_cycles(&read_csv(folder, "cycles.csv")?, &mut tally, cap, dir)?;
    }
    if let Some(by) = &v.by {
        read_groups(
            &read_csv(folder, "by.csv")?,
            &mut tally,
            by,
            (cap, game.groups()),
            dir,
        )?;
    }
    if games > 0 {
        let max = tally.rounds.rows().last().map_or(0, |(r, _)| r);
        if v.longest_rounds != max || !info.range.contains(&v.longest_game) {
            return Err(usage!(
                "{d}: longest game {} of {} rounds: the histogram's longest has {max} rounds \
                 and the shard holds games {}..{}",
                v.longest_game,
                v.longest_rounds,
                info.range.start,
                info.range.end
            ));
        }
        tally.longest = Some((v.longest_rounds, v.longest_game));
    }
    Ok(Part {
        dir: dir.to_path_buf(),
        game,
        info,
        tally,
        elapsed_s: v.elapsed_s,
        program: v.provenance.map(|p| p.program),
        summary_json,
        histogram_csv,
    })
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
    let deals = game.deal_count().map_err(|e| e.0)?;
    if !whole || info.seed != 0 || u128::from(info.games_total) != deals {
        return Err(format!(
            "it holds games {}..{} of {} with seed {}; every deal of its rules is games 0..{deals} \
             of seed 0",
            info.range.start, info.range.end, info.games_total, info.seed
        ));
    }
    if info.exact.as_ref() != Some(&crate::exact::every_deal(tally)) {
        return Err("its exact object is not what its counts give (was it edited?)".into());
    }
    Ok(())
}

/// A run to a precision is whole, stopped at one of its checkpoints where the half-width its
/// games give met the target (or at `max_games`), and says so in the rule's own words.
fn precision_holds<S: GameStats>(
    p: &crate::output::summary::PrecisionJson,
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
    if *p != crate::output::summary::PrecisionJson::new(&target, &stop) || !checkpoint || !stopped {
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

/// Reads the outputs in `dirs` one at a time, checks that they are the disjoint shards of one
/// run covering it whole, and adds them. Memory grows with the histogram, not with the number
/// of shards: each shard's tally is added and dropped as soon as it is read.
pub fn merge<G: Game>(dirs: &[PathBuf]) -> Result<(RunInfo, Tally<G::Stats>, Timing), UsageError> {
    let (first_dir, rest) = dirs
        .split_first()
        .ok_or_else(|| usage!("merge needs at least one directory"))?;
    let first = load::<G>(first_dir)?;
    same_program(&first)?;
    let base = first.info.clone();
    let mut spans = vec![(base.range.clone(), first.dir)];
    let mut elapsed = first.elapsed_s;
    let mut tally = first.tally;
    for dir in rest {
        let game = game_of(dir)?;
        if game != base.game {
            return Err(usage!(
                "{} is foreign: game {game} (expected {}), as in {}",
                dir.display(),
                base.game,
                first_dir.display()
            ));
        }
        let p = load::<G>(dir)?;
        same_program(&p)?;
        let i = &p.info;
        let what = if i.rules != base.rules {
            Some(format!("rules {} (expected {})", i.rules, base.rules))
        } else if i.players != base.players {
            Some(format!("{} players (expected {})", i.players, base.players))
        } else if i.seed != base.seed {
            Some(format!("seed {} (expected {})", i.seed, base.seed))
        } else if i.games_total != base.games_total {
            Some(format!(
                "a run of {} games (expected {})",
                i.games_total, base.games_total
            ))
        } else {
            None
        };
        if let Some(what) = what {
            return Err(usage!(
                "{} is foreign: {what}, as in {}",
                p.dir.display(),
                first_dir.display()
            ));
        }
        spans.push((p.info.range.clone(), p.dir));
        elapsed += p.elapsed_s;
        tally = tally
            .merge(p.tally)
            .map_err(|e| usage!("{}: {e} when added to the shards before it", dir.display()))?;
    }
    if !elapsed.is_finite() {
        return Err(usage!(
            "the shards' elapsed_s add up to more than a number holds"
        ));
    }
    spans.sort_by_key(|(r, _)| (r.start, r.end));
    let mut next = 0u64;
    let mut gaps = Vec::new();
    for (k, (r, dir)) in spans.iter().enumerate() {
        if r.start < next {
            return Err(usage!(
                "{} duplicates games {}..{} of {}",
                dir.display(),
                r.start,
                next.min(r.end),
                spans[k - 1].1.display()
            ));
        }
        if r.start > next {
            gaps.push(next..r.start);
        }
        next = r.end;
    }
    if next < base.games_total {
        gaps.push(next..base.games_total);
    }
    if !gaps.is_empty() {
        return Err(missing(&base, &gaps));
    }
    let count = spans.len();
    let info = RunInfo {
        range: 0..base.games_total,
        shard: None,
        ..base
    };
    let timing = Timing {
        elapsed_s: elapsed,
        threads: None,
        note: Some(format!(
            "elapsed_s is the sum of the {count} shards' elapsed_s (compute time, not wall time); \
             games_per_s = games / that sum"
        )),
    };
    Ok((info, tally, timing))
}

/// Refuses a shard written by another program or another version of warsim: its games may
/// have been played by other rules or drawn otherwise, and adding them would be silent.
fn same_program<G: Game>(p: &Part<G>) -> Result<(), UsageError> {
    let this = crate::output::summary::Provenance::program();
    match &p.program {
        Some(program) if *program == this => Ok(()),
        said => Err(usage!(
            "{}: summary.json provenance.program is {}, not {this}: merge adds only shards of \
             this program and version, whose games are played alike; run the shard again with \
             this warsim",
            p.dir.display(),
            said.as_deref()
                .map_or("missing".into(), |s| format!("{s:?}"))
        )),
    }
}

/// The error for games that no shard covers: each gap as its shards (when the run was
/// sharded) and its games, a few gaps named and the rest counted. Arithmetic on the gaps'
/// ends only, so a run of 10^12 shards answers at once.
fn missing(base: &RunInfo, gaps: &[Range<u64>]) -> UsageError {
    const NAMED: usize = 4;
    let total = base.games_total;
    let mut said: Vec<String> = gaps
        .iter()
        .take(NAMED)
        .map(
            |g| match base.shard.map(|s| shards_within(total, s.count(), g)) {
                Some(Some(k)) if k.end - k.start == 1 => {
                    format!(
                        "shard {}/{} (games {}..{})",
                        k.start,
                        base.shard.map_or(1, |s| s.count()),
                        g.start,
                        g.end
                    )
                }
                Some(Some(k)) => format!(
                    "shards {}..{} of {} (games {}..{})",
                    k.start,
                    k.end,
                    base.shard.map_or(1, |s| s.count()),
                    g.start,
                    g.end
                ),
                _ => format!("games {}..{}", g.start, g.end),
            },
        )
        .collect();
    if gaps.len() > NAMED {
        said.push(format!("and {} more gaps", gaps.len() - NAMED));
    }
    usage!("missing: {}; no directory covers them", said.join(", "))
}

/// The shards `k` of a run of `total` games cut into `n` whose games make up `games` exactly,
/// or `None` if the gap does not fall on shard boundaries.
fn shards_within(total: u64, n: u64, games: &Range<u64>) -> Option<Range<u64>> {
    let first = Shard::new(0, n).ok().filter(|_| total > 0)?;
    let cut = |k: u64| first.range_start(k, total);
    // The first shard starting at or after a game: k = ceil(game·n / total), then exact.
    let first_at = |game: u64| -> u64 {
        let mut k = (u128::from(game) * u128::from(n)).div_ceil(u128::from(total)) as u64;
        while k > 0 && cut(k - 1) >= game {
            k -= 1;
        }
        while k < n && cut(k) < game {
            k += 1;
        }
        k
    };
    let (lo, hi) = (first_at(games.start), first_at(games.end));
    (lo < hi && cut(lo) == games.start && cut(hi) == games.end).then_some(lo..hi)
}
