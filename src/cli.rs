//! The command line: `simulate`, `merge` and `play`, and what each one runs.

use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Context, Result};
use clap::{Args, Parser, Subcommand};
use serde_json::json;

use crate::error::UsageError;
use crate::games::cards::Card;
use crate::games::jitsu::{self, Jitsu, JitsuOptions, JitsuRules};
use crate::games::rps::{self, Elimination, RpsOptions, RpsRules};
use crate::games::shotgun::{self, Shotgun, ShotgunOptions, ShotgunRules};
use crate::games::snap::{self, Snap, SnapOptions, SnapRules};
use crate::games::war::{War, WarOptions, WarRules};
use crate::games::{Game, GameResult, Outcome};
use crate::output::report::{Report, RunInfo, Timing};
use crate::output::{self, merge, progress};
use crate::sim::engine;
use crate::sim::rng::game_rng;
use crate::sim::shard::Shard;
use crate::usage;

/// Monte Carlo simulation and exact statistics for War and other small card and hand games.
#[derive(Debug, Parser)]
#[command(name = "warsim", version, propagate_version = true)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Play many random games and report the distribution of their rounds.
    Simulate {
        /// The game and its options.
        #[command(subcommand)]
        game: SimulateGame,
    },
    /// Add the outputs of the shards of one run (`simulate --shard K/N --out DIR`) exactly.
    Merge(MergeArgs),
    /// Play one game and show it.
    Play {
        /// The game and its options.
        #[command(subcommand)]
        game: PlayGame,
    },
}

/// `simulate GAME`.
#[derive(Debug, Subcommand)]
pub enum SimulateGame {
    /// Deck War (deck-war.txt).
    War {
        /// Rule options.
        #[command(flatten)]
        rules: WarOptions,
        /// Run options.
        #[command(flatten)]
        run: RunOptions,
    },
    /// The Snap variant (snap.txt) on random deals.
    Snap {
        /// Rule options.
        #[command(flatten)]
        rules: SnapOptions,
        /// Run options.
        #[command(flatten)]
        run: RunOptions,
    },
    /// Card-Jitsu (card-jitsu.txt) with player 1 played by a strategy.
    Jitsu {
        /// Rule options.
        #[command(flatten)]
        rules: JitsuOptions,
        /// Run options.
        #[command(flatten)]
        run: RunOptions,
    },
    /// Shotgun War (shotgun-war.txt) between two random players.
    Shotgun {
        /// Rule options.
        #[command(flatten)]
        rules: ShotgunOptions,
        /// Run options.
        #[command(flatten)]
        run: RunOptions,
    },
    /// N-player rock-paper-scissors elimination (rock-paper-scissors.txt).
    Rps {
        /// Rule options.
        #[command(flatten)]
        rules: RpsOptions,
        /// Run options.
        #[command(flatten)]
        run: RunOptions,
    },
}

/// `play GAME`.
#[derive(Debug, Subcommand)]
pub enum PlayGame {
    /// Deck War: replay game I of a run, or play a given deal.
    War(PlayWar),
    /// Snap: plays the given piles; prints the winner, or the players still in the game.
    Snap {
        /// Each player's pile, top card first: one card per character ("abba"), or with
        /// --numbers comma-separated integers ("1,2,2,1").
        #[arg(required = true, value_name = "PILE")]
        piles: Vec<String>,
        /// Piles are comma-separated integers.
        #[arg(long)]
        numbers: bool,
        /// Print the state after every turn.
        #[arg(long)]
        trace: bool,
        /// Print the result as one JSON object.
        #[arg(long)]
        json: bool,
        /// Stop after this many turns (outcome `capped`); loops are detected exactly.
        #[arg(long, value_name = "M", default_value_t = snap::DEFAULT_MAX_ROUNDS)]
        max_rounds: u64,
    },
    /// Card-Jitsu against the computer: reads a hand position 1..5 per round from stdin and
    /// prints the seed's transcript on stdout (prompts and messages on stderr).
    Jitsu {
        /// Seed of the cards dealt (same seed and inputs, same transcript).
        #[arg(long, value_name = "S", default_value_t = 0)]
        seed: u64,
    },
    /// Shotgun War: who dies first; prints 1, 2, 0 (both) or none.
    Shotgun {
        /// The moves, player 1's then player 2's of each turn: "rg fr", "rgfr", "r g f r", …
        #[arg(required = true, value_name = "MOVES")]
        moves: Vec<String>,
        /// Print the result as one JSON object.
        #[arg(long)]
        json: bool,
    },
    /// Rock-paper-scissors: the winners of one throw; prints their numbers or "tie".
    Rps {
        /// One throw per player: r, p or s.
        #[arg(required = true, num_args = 2.., value_name = "THROW")]
        throws: Vec<String>,
        /// Print the result as one JSON object.
        #[arg(long)]
        json: bool,
    },
}

/// Options every simulation takes.
#[derive(Debug, Args)]
pub struct RunOptions {
    /// Number of games in the whole run.
    #[arg(long, value_name = "N", default_value_t = 1_000_000,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub games: u64,
    /// Base seed: game i draws its randomness from (seed, i) alone.
    #[arg(long, value_name = "S", default_value_t = 0)]
    pub seed: u64,
    /// Worker threads [default: all cores]. Results do not depend on it.
    #[arg(long, value_name = "T", value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub threads: Option<u32>,
    /// Write summary.json, summary.csv, histogram.csv and histogram.png into DIR.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Print the summary as one JSON object on stdout.
    #[arg(long)]
    pub json: bool,
    /// Play only the K-th of N contiguous slices of the games (0 ≤ K < N); see `merge`.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<Shard>,
}

/// `merge DIR... --out DIR`.
#[derive(Debug, Args)]
pub struct MergeArgs {
    /// The shard output directories.
    #[arg(required = true, value_name = "DIR")]
    pub dirs: Vec<PathBuf>,
    /// Where to write the merged output.
    #[arg(long, value_name = "DIR", required = true)]
    pub out: PathBuf,
    /// Print the merged summary as one JSON object on stdout.
    #[arg(long)]
    pub json: bool,
}

/// `play war`.
#[derive(Debug, Args)]
pub struct PlayWar {
    /// Rule options (as for `simulate war`).
    #[command(flatten)]
    pub rules: WarOptions,
    /// Base seed of the run the game belongs to.
    #[arg(long, value_name = "S", default_value_t = 0)]
    pub seed: u64,
    /// Index of the game in the run (0-based).
    #[arg(long, value_name = "I", conflicts_with = "deal")]
    pub game: Option<u64>,
    /// Play this deal instead: "A1 A2 .../B1 B2 ...", ranks 1..R, top card first.
    #[arg(long, value_name = "DEAL")]
    pub deal: Option<String>,
    /// Print every round.
    #[arg(long)]
    pub trace: bool,
    /// Print the result as one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// Runs a parsed command line.
pub fn run(cli: Cli) -> Result<()> {
    match cli.command {
        Command::Simulate { game } => match game {
            SimulateGame::War { rules, run } => {
                simulate(&War::new(WarRules::try_from(&rules)?), &run)
            }
            SimulateGame::Snap { rules, run } => {
                simulate(&Snap::new(SnapRules::try_from(&rules)?), &run)
            }
            SimulateGame::Jitsu { rules, run } => {
                simulate(&Jitsu::new(JitsuRules::try_from(&rules)?), &run)
            }
            SimulateGame::Shotgun { rules, run } => {
                simulate(&Shotgun::new(ShotgunRules::try_from(&rules)?), &run)
            }
            SimulateGame::Rps { rules, run } => {
                simulate(&Elimination::new(RpsRules::try_from(&rules)?), &run)
            }
        },
        Command::Merge(args) => merge_dirs(&args),
        Command::Play { game } => match game {
            PlayGame::War(args) => play_war(&args),
            PlayGame::Snap {
                piles,
                numbers,
                trace,
                json,
                max_rounds,
            } => play_snap(&piles, numbers, trace, json, max_rounds),
            PlayGame::Jitsu { seed } => play_jitsu(seed),
            PlayGame::Shotgun { moves, json } => play_shotgun(&moves.join(" "), json),
            PlayGame::Rps { throws, json } => play_rps(&throws, json),
        },
    }
}

/// Creates `dir` and checks that a file can be written there, before any long work.
fn prepare_out(dir: &Path) -> Result<()> {
    std::fs::create_dir_all(dir)
        .with_context(|| format!("cannot create --out {}", dir.display()))?;
    let probe = dir.join(format!(".warsim-probe-{}", std::process::id()));
    std::fs::write(&probe, b"")
        .with_context(|| format!("cannot write into --out {}", dir.display()))?;
    std::fs::remove_file(&probe)
        .with_context(|| format!("cannot write into --out {}", dir.display()))
}

fn print_summary(report: &Report, timing: &Timing, json: bool, out: Option<&Path>) -> Result<()> {
    let mut stdout = io::stdout().lock();
    if json {
        serde_json::to_writer_pretty(&mut stdout, &report.to_json(timing))?;
        writeln!(stdout)?;
    } else {
        write!(stdout, "{}", output::text(report, timing))?;
        if let Some(dir) = out {
            writeln!(
                stdout,
                "written   {}/{{summary.json,summary.csv,histogram.csv,histogram.png}}",
                dir.display()
            )?;
        }
    }
    stdout.flush()?;
    Ok(())
}

/// `simulate`: any game, on the engine.
pub fn simulate<G: Game>(game: &G, opts: &RunOptions) -> Result<()> {
    let shard = opts.shard.unwrap_or(Shard::WHOLE);
    let info = RunInfo::new(game, opts.seed, opts.games, shard);
    if info.range.is_empty() {
        return Err(usage!(
            "--shard {shard}: this slice of {} games holds no game; use at most {} shards",
            opts.games,
            opts.games
        )
        .into());
    }
    let threads = match opts.threads {
        Some(t) => t as usize,
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    if let Some(dir) = &opts.out {
        prepare_out(dir)?;
    }
    let bar = progress::bar(info.range.end - info.range.start);
    let start = Instant::now();
    let tally = engine::simulate(game, opts.seed, info.range.clone(), threads, &|n| {
        bar.inc(n)
    })?;
    let timing = Timing {
        elapsed_s: start.elapsed().as_secs_f64(),
        threads: Some(threads),
        note: None,
    };
    bar.finish_and_clear();
    let report = Report::new(&info, &tally);
    if let Some(dir) = &opts.out {
        output::write_dir(dir, &report, &timing)?;
    }
    print_summary(&report, &timing, opts.json, opts.out.as_deref())
}

fn merge_dirs(args: &MergeArgs) -> Result<()> {
    let (info, tally, timing) = merge::merge(&args.dirs)?;
    prepare_out(&args.out)?;
    let report = Report::new(&info, &tally);
    output::write_dir(&args.out, &report, &timing)?;
    print_summary(&report, &timing, args.json, Some(&args.out))
}

/// Parses `--deal "A1 A2 .../B1 B2 ..."` (cards separated by spaces or commas).
pub fn parse_deal(text: &str) -> Result<[Vec<Card>; 2], UsageError> {
    let halves: Vec<&str> = text.split('/').collect();
    if halves.len() != 2 {
        return Err(usage!(
            "--deal {text:?}: expected two hands separated by one '/', found {}",
            halves.len()
        ));
    }
    let hand = |p: usize| -> Result<Vec<Card>, UsageError> {
        halves[p]
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|t| !t.is_empty())
            .enumerate()
            .map(|(i, t)| {
                t.parse::<Card>().map_err(|_| {
                    usage!(
                        "--deal: {t:?} (player {}, card {}) is not a rank number",
                        p + 1,
                        i + 1
                    )
                })
            })
            .collect()
    };
    Ok([hand(0)?, hand(1)?])
}

/// The JSON `players` of a result: the winner alone, or both players.
fn players_left(o: Outcome) -> Vec<u32> {
    match o {
        Outcome::Player(p) => vec![u32::from(p) + 1],
        _ => vec![1, 2],
    }
}

fn play_war(a: &PlayWar) -> Result<()> {
    let rules = WarRules::try_from(&a.rules)?;
    let index = a.game.unwrap_or(0);
    let mut rng = game_rng(a.seed, index);
    let mut stdout = BufWriter::new(io::stdout().lock());
    let mut trace_lines: Vec<String> = Vec::new();
    let mut io_error: Option<io::Error> = None;
    let mut sink = |line: String| {
        if a.json {
            trace_lines.push(line);
        } else if io_error.is_none() {
            if let Err(e) = writeln!(stdout, "{line}") {
                io_error = Some(e);
            }
        }
    };
    let trace: Option<&mut dyn FnMut(String)> = if a.trace { Some(&mut sink) } else { None };
    let rules_json = serde_json::to_value(&rules)?;
    let result: GameResult = match &a.deal {
        Some(deal) => {
            let hands = parse_deal(deal)?;
            War::play_deal(rules, [&hands[0], &hands[1]], &mut rng, trace)?
        }
        None => War::new(rules).play_traced(&mut rng, trace),
    };
    if let Some(e) = io_error {
        return Err(e.into());
    }
    if a.json {
        let mut v = json!({
            "game": "war",
            "rules": rules_json,
            "seed": a.seed,
            "index": if a.deal.is_some() { None } else { Some(index) },
            "outcome": result.outcome.name(),
            "rounds": result.rounds,
            "players": players_left(result.outcome),
            "wars": result.wars,
            "deepest_war": result.deepest_war,
        });
        if let Some(c) = result.cycle {
            v["loop_from"] = json!(c.loop_from);
            v["cycle_len"] = json!(c.cycle_len);
        }
        if a.trace {
            v["trace"] = json!(trace_lines);
        }
        serde_json::to_writer_pretty(&mut stdout, &v)?;
        writeln!(stdout)?;
    } else {
        let what = match (result.outcome, result.cycle) {
            (Outcome::Player(p), _) => format!("player {} wins in round {}", p + 1, result.rounds),
            (Outcome::Loop, Some(c)) => format!(
                "loop: the state after round {} repeats the state after round {} (cycle of {} rounds); the game never ends",
                c.loop_from + c.cycle_len,
                c.loop_from,
                c.cycle_len
            ),
            (Outcome::Draw, _) => format!("draw in round {}", result.rounds),
            _ => format!("capped: undecided after {} rounds", result.rounds),
        };
        writeln!(
            stdout,
            "{what} ({} wars, deepest {})",
            result.wars, result.deepest_war
        )?;
    }
    stdout.flush()?;
    Ok(())
}

/// Prints a `play` result: `text` as a line, or `value` as one JSON object.
fn print_play(json: bool, text: &str, value: &serde_json::Value) -> Result<()> {
    let mut stdout = io::stdout().lock();
    if json {
        serde_json::to_writer_pretty(&mut stdout, value)?;
        writeln!(stdout)?;
    } else {
        writeln!(stdout, "{text}")?;
    }
    stdout.flush()?;
    Ok(())
}

fn play_snap(
    piles: &[String],
    numbers: bool,
    trace: bool,
    json: bool,
    max_rounds: u64,
) -> Result<()> {
    if max_rounds == 0 {
        return Err(usage!("--max-rounds 0: a game needs at least one turn").into());
    }
    let deal = snap::Deal::parse(piles, numbers)?;
    let mut lines = Vec::new();
    let mut sink = |l: String| lines.push(l);
    let (result, in_game) = snap::play_deal(
        &deal,
        max_rounds,
        if trace { Some(&mut sink) } else { None },
    );
    let players: Vec<u32> = in_game.iter().map(|&p| p as u32 + 1).collect();
    let text = players
        .iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join(" ");
    let mut v = json!({ "game": "snap", "outcome": result.outcome.name(), "rounds": result.rounds, "players": players });
    if let Some(c) = result.cycle {
        v["loop_from"] = json!(c.loop_from);
        v["cycle_len"] = json!(c.cycle_len);
    }
    if trace {
        if json {
            v["trace"] = json!(lines);
        } else {
            let mut out = io::stdout().lock();
            for l in &lines {
                writeln!(out, "{l}")?;
            }
        }
    }
    print_play(json, &text, &v)
}

/// Whitespace-separated tokens read lazily from stdin, so a terminal user gets each round's
/// transcript before typing the next move.
struct Tokens<R> {
    input: R,
    queue: std::collections::VecDeque<String>,
}

impl<R: io::BufRead> Tokens<R> {
    fn next(&mut self) -> io::Result<Option<String>> {
        while self.queue.is_empty() {
            let mut line = String::new();
            if self.input.read_line(&mut line)? == 0 {
                return Ok(None);
            }
            self.queue
                .extend(line.split_whitespace().map(str::to_string));
        }
        Ok(self.queue.pop_front())
    }
}

fn play_jitsu(seed: u64) -> Result<()> {
    let mut rng = game_rng(seed, 0);
    let mut game = jitsu::Match::new(&mut rng);
    let mut input = Tokens {
        input: io::stdin().lock(),
        queue: Default::default(),
    };
    let mut out = io::stdout().lock();
    let mut err = io::stderr();
    for round in 1u64.. {
        writeln!(out, "{}", jitsu::list(&game.won[0]))?;
        writeln!(out, "{}", jitsu::list(&game.won[1]))?;
        writeln!(out, "{}", jitsu::list(&game.hand.0))?;
        out.flush()?;
        let choice = loop {
            write!(err, "round {round}, your card (1-5): ")?;
            err.flush()?;
            let Some(token) = input.next()? else {
                writeln!(err)?;
                writeln!(
                    err,
                    "input ended in round {round} before the game did; game abandoned"
                )?;
                return Ok(());
            };
            match token.parse::<usize>() {
                Ok(k) if (1..=jitsu::HAND).contains(&k) => break k,
                _ => writeln!(
                    err,
                    "{token:?} is not a hand position; enter a number from 1 to 5"
                )?,
            }
        };
        let (r, ended) = game.round(choice - 1, &mut rng);
        writeln!(out, "{choice}\n{}\n{}\n{}", r.p1, r.p2, r.result)?;
        if let Some(w) = ended {
            writeln!(out, "player {} wins the game", w + 1)?;
            break;
        }
    }
    out.flush()?;
    Ok(())
}

fn play_shotgun(moves: &str, json: bool) -> Result<()> {
    let turns = shotgun::parse_moves(moves)?;
    let (text, outcome, rounds, players) = match shotgun::adjudicate(&turns) {
        Some((o, t)) => {
            let text = match o {
                Outcome::Player(p) => (p + 1).to_string(),
                _ => "0".to_string(),
            };
            (text, o.name(), t, players_left(o))
        }
        None => (
            "none".to_string(),
            "none".to_string(),
            turns.len() as u64,
            vec![1, 2],
        ),
    };
    let v = json!({ "game": "shotgun", "outcome": outcome, "rounds": rounds, "players": players });
    print_play(json, &text, &v)
}

fn play_rps(throws: &[String], json: bool) -> Result<()> {
    if throws.len() > rps::MAX_PLAYERS {
        return Err(usage!(
            "{} throws: at most {} players",
            throws.len(),
            rps::MAX_PLAYERS
        )
        .into());
    }
    let shapes = throws
        .iter()
        .enumerate()
        .map(|(i, t)| rps::parse_shape(t, i + 1))
        .collect::<Result<Vec<_>, _>>()?;
    let winners = rps::winners_direct(&shapes);
    let numbers: Vec<u32> = (0..shapes.len() as u32)
        .filter(|&i| winners >> i & 1 == 1)
        .map(|i| i + 1)
        .collect();
    let (text, outcome, players) = match numbers.len() {
        0 => (
            "tie".to_string(),
            "draw".to_string(),
            (1..=shapes.len() as u32).collect(),
        ),
        1 => (numbers[0].to_string(), format!("p{}", numbers[0]), numbers),
        _ => {
            let text = numbers
                .iter()
                .map(u32::to_string)
                .collect::<Vec<_>>()
                .join(" ");
            (text, "winners".to_string(), numbers)
        }
    };
    let v = json!({ "game": "rps", "outcome": outcome, "rounds": 1, "players": players });
    print_play(json, &text, &v)
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn cli_definition_is_valid() {
        Cli::command().debug_assert();
    }

    #[test]
    fn deal_parsing_names_the_bad_card() {
        assert_eq!(parse_deal("3 1,2/4").unwrap(), [vec![3, 1, 2], vec![4]]);
        let e = parse_deal("3 x/4").unwrap_err().to_string();
        assert!(e.contains("player 1, card 2"), "{e}");
        assert!(parse_deal("3 1").is_err());
        assert!(parse_deal("3/1/2").is_err());
    }
}
