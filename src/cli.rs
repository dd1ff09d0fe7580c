//! The command line's definitions: the commands `simulate`, `exact`, `sweep`, `search`,
//! `compare`, `merge`, `resume`, `replay`, `games`, `completions`, `manpage` and `play`, their
//! options, help and value parsers. What each command does is in [`crate::app`]. The games, their
//! subcommands and rule options come from [`crate::face`], so no game is defined here
//! (only named in examples); `sweep` takes its options as text and reads them against `simulate GAME`'s in
//! [`crate::sweep`].

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

use crate::config::{parse_precision, parse_seed, Bases, Games, Keep, RunConfig, Threads, Walkers};
use crate::estimate::{self, MaxHours};
use crate::face::{ExactGame, PlayGame, SearchGame, SimulateGame};
use crate::sim::shard::Shard;
use crate::term::progress;
use crate::term::stdout::Print;

/// Monte Carlo simulation and exact statistics for War and other small card and hand games.
#[derive(Debug, Parser)]
#[command(name = "warsim", version)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Play many random games and report the distribution of their rounds.
    #[command(after_help = "Examples:\n  warsim simulate war --out out/war\n  \
        warsim simulate war --rules bryer --games 1e7 --json\n  \
        warsim simulate war --pickup p1-first --war-down 1 --shard 0/8 --out shard0\n  \
        warsim simulate snap --players 3 --faces 13 --copies 3\n  \
        warsim simulate rps --players 10 --svg --out out/rps")]
    Simulate {
        /// Run options (they may follow the game's name).
        #[command(flatten)]
        run: RunOptions,
        /// The game and its rule options.
        #[command(subcommand)]
        game: SimulateGame,
    },
    /// Play every distinct deal of a small deck once: exact counts, shares and statistics.
    #[command(
        after_help = "Rule sets whose play after the deal uses no randomness (War: a \
        deterministic pickup) play every deal once; War with a random pickup is solved as a \
        Markov chain over its positions. Writes the files of simulate; summary.json's `exact` \
        holds the number of deals and every outcome's share as a fraction. Shotgun War and \
        rock-paper-scissors need no exact command: `simulate shotgun` and `simulate rps` print \
        their exact answers beside the estimates.\n\nExamples:\n  \
        warsim exact war --ranks 3 --suits 4 --pickup p1-first\n  \
        warsim exact war --ranks 4 --suits 4 --pickup winner-first --war-down 1 --out out/16"
    )]
    Exact {
        /// Output options (they may follow the game's name).
        #[command(flatten)]
        run: ExactOptions,
        /// The game and its rule options.
        #[command(subcommand)]
        game: ExactGame,
    },
    /// Run every combination of listed rule settings, each on the same games.
    #[command(
        after_help = "Every rule option of `simulate GAME` may take a comma list or `all` \
        (`;` between values that hold commas); the rule sets are their cartesian product, each run \
        as `simulate` would run it (same seed, same games). Writes sweep.json, sweep.csv, sweep.png \
        (how many games last longer than t rounds, per rule set), means.png and one output \
        directory per rule set. Options follow GAME; `warsim sweep GAME --help` lists them. \
        At most 1,000 rule sets (--max-rule-sets N allows more), each with a folder name of at \
        most 255 bytes; the whole sweep is estimated from pilots of every one of its rule sets and \
        held to --max-hours before the first game.\n\n\
        Examples:\n  warsim sweep war --war-down 1,3 --short-war all --pickup all --out out/rules\n  \
        warsim sweep rps --players 2,3,4,5,6 --games 1e5 --out out/rps\n  \
        warsim sweep shotgun --mix '1,1,1;2,1,1' --out out/mix",
        disable_help_flag = true,
        override_usage = "warsim sweep <GAME> [OPTIONS]...\n       warsim sweep [GAME] --help"
    )]
    Sweep {
        /// Print help; after GAME, that game's rule options and the run options.
        // clap's own flag would take `sweep war --help` as `sweep --help`, hiding the game's
        // options: this one leaves the choice to the command line's adapter (`app::run`).
        #[arg(short = 'h', long)]
        help: bool,
        /// The game.
        #[arg(value_name = "GAME", required_unless_present = "help")]
        game: Option<String>,
        /// Its options, and the run options of `simulate`.
        #[arg(
            trailing_var_arg = true,
            allow_hyphen_values = true,
            value_name = "OPTIONS"
        )]
        args: Vec<String>,
    },
    /// Search deals for the longest games and for games that never end (a seeded local search).
    #[command(
        after_help = "Each walker starts from a random deal drawn from (seed, walker) and swaps \
        two cards at a time, keeping a swap when the game is at least as long, and starts again \
        after 50,000 swaps without a longer game; deals that never end are recorded. Then backward \
        play: every balanced position whose game reaches a kept deal after some tricks is a \
        longer deal, and joins the list (search.json names it with `ancestor_of`). The result \
        depends on --seed, --deals and --walkers only, never on --threads (with --minutes, on \
        the deals the time allowed, which search.json records). Deals whose game reaches the \
        round cap are counted, never listed. Writes search.json (the longest deals, the loops, \
        deals/s) and best.txt (a `play` command per deal). Ctrl-C stops a search and writes \
        what it found (search.json says \"stopped\": true; exit status 130); a second Ctrl-C \
        stops at once, writing nothing.\n\n\
        Examples: warsim search bmn --deals 1e8 --out out/search\n  \
        warsim search bmn --minutes 10 --out out/search"
    )]
    Search {
        /// What to search and where to write it.
        #[command(flatten)]
        search: SearchOptions,
        /// The game and its rule options.
        #[command(subcommand)]
        game: SearchGame,
    },
    /// Overlay the survival curves of several runs; test every pair (two-sample KS, exact counts).
    #[command(after_help = "Example: warsim compare out/classic out/bryer --out out/cmp")]
    Compare {
        /// The run directories (`simulate --out`, `merge --out`, or a sweep's rule sets).
        #[arg(required = true, num_args = 2.., value_name = "DIR")]
        dirs: Vec<PathBuf>,
        /// Where to write compare.json, compare.csv, compare.png and report.html.
        #[arg(long, value_name = "DIR", required = true)]
        out: PathBuf,
        /// Print compare.json on stdout.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        #[allow(missing_docs)]
        svg: SvgArg,
    },
    /// Add the outputs of the shards of one run (`simulate --shard K/N --out DIR`) exactly.
    #[command(after_help = "Example: warsim merge shard0 shard1 shard2 --out merged")]
    Merge(MergeArgs),
    /// Play the rest of a run that an interrupt stopped, into its own folder.
    #[command(
        after_help = "A `simulate --out DIR` run stopped by Ctrl-C or SIGTERM writes the games it \
        finished, marked \"stopped\": true; resume plays the others (game i is (seed, i) alone) \
        and writes the whole run into DIR, the same histogram as a run in one go.\n\n\
        Example:\n  warsim resume out/war"
    )]
    Resume {
        /// The stopped run's directory.
        #[arg(value_name = "DIR")]
        dir: PathBuf,
        #[command(flatten)]
        #[allow(missing_docs)]
        progress: ProgressArg,
        #[command(flatten)]
        #[allow(missing_docs)]
        checkpoint: CheckpointArg,
    },
    /// Play one game of a run again, any game: by default its longest, which ends as the run
    /// says.
    #[command(
        after_help = "Examples:\n  warsim replay out/war\n  warsim replay out/snap --game 17 --json\n\
        For War round by round: warsim play war --from out/war --trace"
    )]
    Replay {
        /// The run's directory (`simulate --out`, `merge --out`, `exact --out`, a sweep's rule set).
        #[arg(value_name = "DIR")]
        dir: PathBuf,
        /// Index of the game in the run (0-based) [default: the run's longest].
        #[arg(long, value_name = "I")]
        game: Option<u64>,
        /// Print the result as one JSON object.
        #[arg(long)]
        json: bool,
    },
    /// List the games: a name and what it plays, a line each.
    #[command(
        after_help = "With --json: an array of {name, about, play, example, exact}: each \
        game's small example rule set and whether `exact` plays it."
    )]
    Games {
        /// Print the list as a JSON array.
        #[arg(long)]
        json: bool,
    },
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell) on stdout.
    #[command(after_help = "Example: warsim completions bash > /etc/bash_completion.d/warsim")]
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
    /// Print the manual page (roff) on stdout, or write every command's page into a folder.
    #[command(after_help = "The page of `warsim` refers to one page per command \
        (warsim-simulate(1), ...), and those to one per game (warsim-simulate-war(1), with every \
        rule option); --out-dir writes them all.\n\nExamples:\n  \
        warsim manpage > warsim.1 && man ./warsim.1\n  \
        warsim manpage --out-dir man/man1 && MANPATH=$PWD/man man warsim-simulate-war")]
    Manpage {
        /// Write warsim.1 and the page of every command and game (warsim-simulate-war.1, ...)
        /// into DIR, created if absent; pages already there are replaced.
        #[arg(long, value_name = "DIR")]
        out_dir: Option<PathBuf>,
    },
    /// Play one game and show it.
    #[command(
        after_help = "Examples:\n  warsim play war --seed 0 --game 83590 --trace\n  \
        warsim play war --from out/war --trace      (the longest game of that run)\n  \
        warsim play snap abba abca --trace\n  warsim play shotgun 'rg fr'\n  \
        warsim play rps r r s\n  warsim play jitsu --seed 3"
    )]
    Play {
        /// Output options (they may follow the game's name).
        #[command(flatten)]
        output: PlayOptions,
        /// The game and what to play.
        #[command(subcommand)]
        game: PlayGame,
    },
}

/// Options every simulation takes.
#[derive(Debug, Args)]
#[command(next_help_heading = "Run options")]
pub struct RunOptions {
    /// Number of games in the whole run [default: 1000000]; with --precision, the games
    /// played before the first check [default: 10000].
    #[arg(long, global = true, value_name = "N", allow_negative_numbers = true,
          value_parser = str::parse::<Games>)]
    pub games: Option<Games>,
    /// Play until the 95% interval of the mean rounds is at most ±H, deciding only at fixed
    /// game counts (the minimum, then 1/8 more each time), so the games played do not depend
    /// on the threads.
    #[arg(long, global = true, value_name = "H", allow_negative_numbers = true,
          value_parser = parse_precision)]
    pub precision: Option<f64>,
    /// With --precision: play at most M games (the summary says whether H was reached).
    #[arg(long, global = true, value_name = "M", default_value_t = Games::DEFAULT_MAX,
          allow_negative_numbers = true, value_parser = str::parse::<Games>)]
    pub max_games: Games,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub seed: SeedArg,
    /// Where the run writes and what it shows.
    #[command(flatten)]
    pub output: RunOutput,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub max_hours: MaxHoursArg,
    /// Play only the K-th of N contiguous slices of the games (0 ≤ K < N); see `merge`.
    #[arg(long, global = true, value_name = "K/N")]
    pub shard: Option<Shard>,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub checkpoint: CheckpointArg,
    /// Print the run's time estimate (and the range its pilot leaves) and exit without
    /// running it or writing anything, whatever --max-hours.
    #[arg(long, global = true)]
    pub estimate: bool,
}

/// `--checkpoint-minutes`, defined once for `simulate` and `resume`.
#[derive(Debug, Args)]
pub struct CheckpointArg {
    /// With --out: write a checkpoint of the finished games every M minutes (0: none), from
    /// which `warsim resume DIR` goes on after a SIGKILL or a power loss.
    #[arg(long, global = true, value_name = "M", value_parser = crate::config::parse_minutes,
          default_value_t = crate::config::DEFAULT_CHECKPOINT_MINUTES)]
    pub checkpoint_minutes: f64,
}

/// `--seed`, defined once for every command that draws random deals.
#[derive(Debug, Args)]
pub struct SeedArg {
    /// Base seed: game i (a search's walker i) draws its randomness from (seed, i) alone.
    #[arg(long, global = true, value_name = "S", default_value_t = 0,
          allow_hyphen_values = true, value_parser = parse_seed)]
    pub seed: u64,
}

/// `--threads`, defined once for every command that plays games.
#[derive(Debug, Args)]
pub struct ThreadsArg {
    /// Worker threads [default: all cores]. Results do not depend on it.
    #[arg(long, global = true, value_name = "T",
          allow_negative_numbers = true, value_parser = str::parse::<Threads>)]
    pub threads: Option<Threads>,
}

/// `--max-hours`, defined once for runs, sweeps and searches.
#[derive(Debug, Args)]
pub struct MaxHoursArg {
    /// Refuse a run, sweep or search estimated to take more than H hours; `none` (or `inf`)
    /// lifts the bound. The estimate comes before anything is written, from a pilot: the run's
    /// first games (a search's first deals), played on one thread for about 25 ms (they count
    /// in the run: nothing is played twice), times the games to play (with --precision:
    /// --max-games), over the threads the run can use; a sweep's from pilots of each of its
    /// rule sets. A game that never ends is refused once its time alone breaks the bound. A
    /// run's pilot plays on (up to 3 s) until the tail of its games' lengths is seen, so
    /// estimates of one run agree within a factor of 2; it is shown before a run of over a
    /// minute where progress is shown, and always in a log (--progress log). A run that
    /// takes half again the bound stops itself and writes what it finished (see resume).
    #[arg(long, global = true, value_name = "H", default_value = estimate::DEFAULT_MAX_HOURS,
          allow_negative_numbers = true, value_parser = MaxHours::parse)]
    pub max_hours: MaxHours,
}

/// `--progress`, defined once for every command that shows it.
#[derive(Debug, Args)]
pub struct ProgressArg {
    /// Progress: a bar when stderr is a terminal (auto), plain lines every 10 s for a log
    /// file (log), or none.
    #[arg(long, global = true, value_name = "WHEN", value_enum, default_value_t)]
    pub progress: progress::When,
}

/// `--svg`, defined once for every command that draws charts.
#[derive(Debug, Args)]
pub struct SvgArg {
    /// With --out, also write every chart as SVG (same look, text as text).
    #[arg(long, global = true)]
    pub svg: bool,
}

/// Where a run (`simulate`, `exact`) writes, on how many threads it plays, and what it shows:
/// defined once for both.
#[derive(Debug, Args)]
pub struct RunOutput {
    #[command(flatten)]
    #[allow(missing_docs)]
    pub threads: ThreadsArg,
    /// Write the run's files into DIR: summary.json, summary.csv, histogram.csv, the charts
    /// (histogram.png, survival.png, by.png with --by), cycles.csv with loop detection, by.csv
    /// with --by, report.html (one page with everything) and README.md (the list of them);
    /// `exact` also chain.json for a rule set solved as a Markov chain.
    #[arg(long, global = true, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// What is printed and drawn, and how progress is shown.
    #[command(flatten)]
    pub show: ShowFlags,
}

/// What a command prints on stdout when it is done: defined once for `simulate`, `exact` and
/// `merge`.
#[derive(Debug, Args)]
pub struct PrintFlags {
    /// Print the summary as one JSON object on stdout.
    #[arg(long, global = true)]
    pub json: bool,
    /// Print nothing on stdout: the files written into --out are the result (for scripts).
    #[arg(
        long,
        short = 'q',
        global = true,
        conflicts_with_all = ["json", "markdown"]
    )]
    pub quiet: bool,
    /// Print the summary as a Markdown table on stdout (for a post or an issue).
    #[arg(long, global = true, conflicts_with = "json")]
    pub markdown: bool,
}

impl PrintFlags {
    /// What is printed when the command is done.
    pub fn print(&self) -> Print {
        Print::of(self.json, self.markdown, self.quiet)
    }
}

/// What a run (`simulate`, `exact`) prints on stdout, whether it draws SVG too, and how it
/// shows progress: defined once for both.
#[derive(Debug, Args)]
pub struct ShowFlags {
    #[command(flatten)]
    #[allow(missing_docs)]
    pub print: PrintFlags,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub svg: SvgArg,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub progress: ProgressArg,
}

/// Options of `search`.
#[derive(Debug, Args)]
#[command(next_help_heading = "Search options")]
pub struct SearchOptions {
    /// Deals played in all, split evenly among the walkers [default: 10000000, or with
    /// --minutes as many as the time allows].
    #[arg(long, global = true, value_name = "N", allow_negative_numbers = true,
          value_parser = parse_deals)]
    pub deals: Option<u64>,
    /// Search for M minutes (with --deals too, whichever comes first), stopping within about a
    /// quarter of a second of the time. The deals played depend on the machine; search.json
    /// records them, and its `replay` command (--deals of that number) plays the same search
    /// again.
    #[arg(long, global = true, value_name = "M", allow_negative_numbers = true)]
    pub minutes: Option<f64>,
    /// Independent walkers of --method climb, --loops and --census (the result depends on
    /// them, not on the threads); sampling and joining play on every thread instead.
    #[arg(long, global = true, value_name = "W", default_value_t = Walkers::DEFAULT,
          allow_negative_numbers = true, value_parser = str::parse::<Walkers>)]
    pub walkers: Walkers,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub seed: SeedArg,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub threads: ThreadsArg,
    /// The longest deals kept.
    #[arg(long, global = true, value_name = "K", default_value_t = Keep::DEFAULT,
          allow_negative_numbers = true, value_parser = str::parse::<Keep>)]
    pub keep: Keep,
    /// Where to write search.json and best.txt, or with --reaching reaching.json and deals.txt
    /// (required).
    #[arg(long, global = true, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Print search.json on stdout.
    #[arg(long, global = true)]
    pub json: bool,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub progress: ProgressArg,
    /// Instead of searching: walk backward from the cycle that this deal's game enters (a deal
    /// that never ends, as play bmn --deal reads it) to every position whose game enters it, and
    /// write the balanced deals among them (deals.txt, reaching.json). --minutes bounds its time
    /// (it makes no estimate for --max-hours to bound).
    #[arg(long, global = true, value_name = "DEAL", allow_hyphen_values = true,
          conflicts_with_all = ["deals", "walkers", "seed", "keep", "max_hours", "loops", "from", "census"])]
    pub reaching: Option<String>,
    /// With --reaching: the most positions held at once (about 70 bytes each); a basin that
    /// needs more stops with an error.
    #[arg(long, global = true, value_name = "N", requires = "reaching",
          default_value_t = crate::reaching::DEFAULT_MAX_POSITIONS,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub max_positions: u64,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub max_hours: MaxHoursArg,
    /// Search for cycles (games that never end) instead of long games: positions on known
    /// cycles (Casella's 62-trick cycle for the standard deck, or the cycle of --from), each
    /// changed by one to three moves and played forward; every new cycle found joins the
    /// walker's starting points. --deals counts the tries.
    #[arg(long, global = true)]
    pub loops: bool,
    /// The census of cycles instead: a pool search over every cycle found and its basin (each
    /// position changed by one to three moves, tries in fixed rounds), every new cycle walked
    /// backward to its balanced deals; writes census.json, cycles.txt, deals.txt. --deals
    /// bounds the tries: whole rounds of 4096 tries a walker, as many as fit (at least one).
    #[arg(long, global = true, conflicts_with_all = ["loops", "keep"])]
    pub census: bool,
    /// Search around this deal, HAND1/HAND2 as `play bmn --deal` reads it: every climb starts
    /// from it (equal hands); with --loops, the cycle it enters is where the search starts.
    #[arg(
        long,
        global = true,
        value_name = "HAND1/HAND2",
        allow_hyphen_values = true
    )]
    pub from: Option<String>,
    /// How to look for long games: `record` (sampling, then backward joining from the --bases
    /// longest games sampled, or from --from DEAL: every balanced position whose game joins
    /// them later; the default, which finds the longest games), `sample` (plain random deals,
    /// game i of the seed as simulate deals it, the longest kept) or `climb` (the walkers'
    /// swaps). docs/bmn.md compares them. --loops and --census take none [default: record].
    #[arg(long, global = true, value_name = "METHOD", value_enum)]
    pub method: Option<crate::search::Method>,
    /// With --method record: the longest games sampled to join from, longest first.
    #[arg(long, global = true, value_name = "B", default_value_t = Bases::DEFAULT,
          value_parser = str::parse::<Bases>)]
    pub bases: Bases,
}

/// The options of `exact`: those of `simulate` that apply when every deal is played once (no
/// number of games, seed, precision or shard: the deals are all of them, in a fixed order).
#[derive(Debug, Args)]
#[command(next_help_heading = "Run options")]
pub struct ExactOptions {
    /// Where the run writes and what it shows.
    #[command(flatten)]
    pub output: RunOutput,
    /// War: instead of playing every deal, the exact probability that one player wins each of
    /// the first deck/2 battles without a tie (the flawless game), for any deck; with --out,
    /// flawless.json.
    #[arg(long, global = true, conflicts_with_all = ["threads", "svg"])]
    pub flawless: bool,
}

/// An exact run as [`RunConfig`]: what `exact` does not take is left at [`RunConfig::default`]'s
/// (`exact` bounds itself by [`crate::exact::MAX_DEALS`], not by a time estimate).
impl From<&ExactOptions> for RunConfig {
    fn from(o: &ExactOptions) -> RunConfig {
        RunConfig::from(&o.output)
    }
}

/// Where a run writes and what it shows, as [`RunConfig`]: the rest at [`RunConfig::default`]'s.
impl From<&RunOutput> for RunConfig {
    fn from(o: &RunOutput) -> RunConfig {
        RunConfig {
            threads: o.threads.threads,
            out: o.out.clone(),
            print: o.show.print.print(),
            svg: o.show.svg.svg,
            progress: o.show.progress.progress,
            ..RunConfig::default()
        }
    }
}

/// `--progress auto|log|never`: the command line's names for [`progress::When`], with their
/// help (the type itself names no command-line library).
impl clap::ValueEnum for progress::When {
    fn value_variants<'a>() -> &'a [Self] {
        &[
            progress::When::Auto,
            progress::When::Log,
            progress::When::Never,
        ]
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        use clap::builder::PossibleValue;
        Some(match self {
            progress::When::Auto => PossibleValue::new("auto")
                .help("A bar when stderr is a terminal, nothing otherwise"),
            progress::When::Log => PossibleValue::new("log").help(
                "A plain line on stderr at the start, every ten seconds and at the end, \
                 terminal or not (for log files: a Slurm task's log, nohup.out)",
            ),
            progress::When::Never => PossibleValue::new("never").help("Nothing"),
        })
    }
}

impl From<&RunOptions> for RunConfig {
    fn from(o: &RunOptions) -> RunConfig {
        RunConfig {
            games: o.games,
            precision: o.precision,
            max_games: o.max_games,
            seed: o.seed.seed,
            max_hours: o.max_hours.max_hours,
            shard: o.shard,
            checkpoint_minutes: o.checkpoint.checkpoint_minutes,
            ..RunConfig::from(&o.output)
        }
    }
}

/// Options of every `play` command.
#[derive(Debug, Args)]
pub struct PlayOptions {
    /// Print the result as one JSON object (with --trace, its lines as a "trace" array).
    #[arg(long, global = true)]
    pub json: bool,
    /// Print every round (turn) as it is played.
    #[arg(long, global = true)]
    pub trace: bool,
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
    #[command(flatten)]
    #[allow(missing_docs)]
    pub print: PrintFlags,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub svg: SvgArg,
}

/// `search --deals`, written as `--games` is.
fn parse_deals(text: &str) -> Result<u64, String> {
    crate::settings::parse_count(text, "deals")
}

/// The run options of `command` (`simulate`, `exact` or `sweep`) that a caller of the typed API
/// gives as fields of [`RunConfig`](crate::config::RunConfig)'s JSON (the Python package's
/// keyword arguments): the fields themselves, in their order, as `RunConfig`'s JSON Schema
/// lists them (what is printed and how progress shows, which it skips, are each front end's),
/// but for those the command refuses ([`crate::exact::REFUSED`], [`crate::sweep::REFUSED`]);
/// each with as `default` the field's default as JSON, as `schema` the JSON Schema of its
/// values, and the help of the command line's flag of that name, where its text is written.
pub fn run_options(command: &str) -> Result<Vec<RunOption>, crate::error::UsageError> {
    let (named, refused) = match command {
        "sweep" => ("simulate", crate::sweep::REFUSED),
        "exact" => (command, crate::exact::REFUSED),
        "simulate" => (command, &[][..]),
        _ => {
            return Err(crate::usage!(
                "no run options for {command:?}: simulate, exact or sweep"
            ))
        }
    };
    let defaults = serde_json::to_value(crate::config::RunConfig::default())
        .map_err(|e| crate::usage!("run options: {e}"))?;
    let mut cli = <Cli as clap::CommandFactory>::command();
    cli.build();
    let cmd = cli
        .find_subcommand(named)
        .ok_or_else(|| crate::usage!("no command {named}"))?;
    let help = |name: &str| {
        let flag = name.replace('_', "-");
        (cmd.get_arguments())
            .find(|a| a.get_long() == Some(flag.as_str()))
            .and_then(|a| a.get_help())
            .map(|h| crate::error::one_line(&h.to_string()))
            .unwrap_or_default()
    };
    Ok(field_schemas::<crate::config::RunConfig>()
        .into_iter()
        .filter(|(name, _)| !refused.contains(&name.as_str()))
        .map(|(name, schema)| RunOption {
            help: help(&name),
            default: defaults.get(&name).cloned().unwrap_or_default(),
            schema,
            name,
        })
        .collect())
}

/// The JSON Schema of each field of `T`'s JSON as a caller gives it (its subschemas inlined),
/// by field name.
pub(crate) fn field_schemas<T: schemars::JsonSchema>() -> serde_json::Map<String, serde_json::Value>
{
    let mut settings = schemars::generate::SchemaSettings::draft2020_12().for_deserialize();
    settings.inline_subschemas = true;
    let root = settings.into_generator().into_root_schema_for::<T>();
    match serde_json::to_value(&root) {
        Ok(serde_json::Value::Object(mut o)) => match o.remove("properties") {
            Some(serde_json::Value::Object(fields)) => fields,
            _ => serde_json::Map::new(),
        },
        _ => serde_json::Map::new(),
    }
}

/// One run option as [`run_options`] lists it.
#[derive(Debug, serde::Serialize)]
pub struct RunOption {
    /// Its field of `RunConfig` (the Python keyword).
    pub name: String,
    /// The JSON Schema of its values, from its field's type: what a stub makes its type.
    pub schema: serde_json::Value,
    /// Its help, in a line.
    pub help: String,
    /// Its default, as JSON.
    pub default: serde_json::Value,
}

#[cfg(test)]
#[path = "cli_tests.rs"]
mod tests;
