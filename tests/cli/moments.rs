//! Runs stopped part way by a signal, for the tests of interrupted and killed runs (issue 59):
//! each waits for a state the run shows, a checkpoint of at least so many games beside its
//! folder, before it sends the signal, rather than for a time, so the signal lands part way
//! however loaded the machine is, at moments spread over the run's games.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use super::util::{json, ok, read, s, without_run_details, Scratch};

/// A run of 2 threads asking for a checkpoint every 30 ms (made every 50 ms or so: the segment
/// watch looks that often), no pilot (`--max-hours none`), its `--out DIR` follows. Its games
/// take about half a second on the lanes of 2026, so that a signal sent after a checkpoint
/// finds most runs still playing (150,000 games, a fifth of that, left too few checkpoints).
pub const RUN: [&str; 13] = [
    "simulate",
    "war",
    "--games",
    "600000",
    "--threads",
    "2",
    "--seed",
    "9",
    "--max-hours",
    "none",
    "--checkpoint-minutes",
    "0.0005",
    "--out",
];

/// A run to a precision, as [`RUN`]: its games decided by its checks.
pub const PRECISE: [&str; 13] = [
    "simulate",
    "war",
    "--precision",
    "0.75",
    "--threads",
    "2",
    "--seed",
    "4",
    "--max-hours",
    "none",
    "--checkpoint-minutes",
    "0.0005",
    "--out",
];

/// The folders beside `out` whose names begin with `.NAME.warsim-staging-`, and the
/// checkpoints in them.
pub fn staged(out: &Path) -> (Vec<PathBuf>, Vec<PathBuf>) {
    let head = format!(
        ".{}.warsim-staging-",
        out.file_name().unwrap().to_str().unwrap()
    );
    let stagings: Vec<PathBuf> = std::fs::read_dir(out.parent().unwrap())
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_str().unwrap().starts_with(&head))
        .map(|e| e.path())
        .collect();
    let checkpoints = stagings
        .iter()
        .flat_map(|d| std::fs::read_dir(d).into_iter().flatten().flatten())
        .filter(|e| e.file_name().to_str().unwrap().starts_with("checkpoint-"))
        .map(|e| e.path())
        .collect();
    (stagings, checkpoints)
}

/// The most games a checkpoint beside `out` holds (its folder is `checkpoint-END`), if any.
fn checkpointed(out: &Path) -> Option<u64> {
    let (_, checkpoints) = staged(out);
    checkpoints
        .iter()
        .filter_map(|c| {
            c.file_name()?
                .to_str()?
                .strip_prefix("checkpoint-")?
                .parse()
                .ok()
        })
        .max()
}

/// Starts `warsim ARGS`, stderr piped (a stopped run's message is read from it).
pub fn start(args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_warsim"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Waits until `ready` holds of `out` or the run ends; whether it still runs.
pub fn wait_for(child: &mut Child, out: &Path, ready: &dyn Fn(&Path) -> bool) -> bool {
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(120) {
        if child.try_wait().unwrap().is_some() {
            return false;
        }
        if ready(out) {
            return true;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    panic!("the run neither ended nor reached what the test waits for in 120 s");
}

/// Where a run is stopped: once a checkpoint holds at least `games` games, `pause` later.
#[derive(Clone, Copy, Debug)]
pub struct Moment {
    pub games: u64,
    pub pause: Duration,
}

impl Moment {
    /// The `k`th of `n` moments of a run of `games` games in all: after checkpoints of 0 to
    /// 80% of the games, each with a pause of 0 to 24 ms, so the signal comes right after a
    /// checkpoint or between two (later, the games the threads already hold may be the last).
    pub fn of(k: u64, n: u64, games: u64) -> Moment {
        Moment {
            games: games * 8 * k / (10 * n),
            pause: Duration::from_millis(k * 7 % 25),
        }
    }
}

/// How a run ended that a signal was sent to.
#[derive(Debug, PartialEq, Eq)]
pub enum Ended {
    /// It had played every game: its set is written whole.
    Whole,
    /// It wrote the games it finished, marked stopped (SIGINT, SIGTERM).
    Stopped,
    /// It wrote nothing: killed, or stopped before a game was played.
    Nothing,
}

/// Runs `run` (its `--out DIR` follows, and it writes checkpoints) into `out` and sends it
/// `signal` (`-INT`, `-TERM`, `-KILL`) at `moment`: how it ended, its stopped message checked.
pub fn stop_at(run: &[&str], out: &Path, signal: &str, moment: Moment) -> Ended {
    let mut child = start(&[run, &[s(out)]].concat());
    let ready = |o: &Path| checkpointed(o).is_some_and(|g| g >= moment.games);
    let running = wait_for(&mut child, out, &ready);
    std::thread::sleep(moment.pause);
    let _ = Command::new("kill")
        .args([signal, &child.id().to_string()])
        .status();
    let done = child.wait_with_output().unwrap();
    let said = String::from_utf8_lossy(&done.stderr);
    let whole = out.join("summary.json").exists()
        && json(&read(out, "summary.json"))["run"]["stopped"] != true;
    match done.status.code() {
        // Done, or stopped after its set was written whole.
        Some(0) => Ended::Whole,
        Some(130) if said.contains("written in full") => Ended::Whole,
        Some(130) if said.contains("warsim resume") => {
            assert!(said.contains("every figure above is over those"), "{said}");
            Ended::Stopped
        }
        // Killed: written whole just before, or nothing. (SIGINT and SIGTERM, sent after a
        // checkpoint, find warsim's handler in place: they never end it so.)
        None if whole => Ended::Whole,
        None => {
            assert_eq!(signal, "-KILL", "at {moment:?}: {said}");
            assert!(
                running,
                "{signal} at {moment:?}: the run ended first, yet nothing"
            );
            assert!(!out.exists(), "{signal} at {moment:?}: a set half written");
            Ended::Nothing
        }
        code => panic!("{signal} at {moment:?}: exit {code:?}: {said}"),
    }
}

/// Runs `run` into `out`, stopped by `signal` at `moment`, then resumed when it was stopped
/// part way or killed: the same histogram and summary (but for timing and provenance) as the
/// run in `whole`, played in one go, and nothing left beside `out`. Whether it was resumed.
pub fn stopped_and_resumed(
    run: &[&str],
    (out, whole): (&Path, &Path),
    signal: &str,
    moment: Moment,
) -> bool {
    let ended = stop_at(run, out, signal, moment);
    let resumed = ended != Ended::Whole;
    if ended == Ended::Stopped {
        let part = json(&read(out, "summary.json"));
        assert_eq!(part["run"]["stopped"], true);
        let games = part["games"].as_u64().unwrap();
        assert_eq!(part["run"]["end_game"].as_u64(), Some(games));
        assert!(games >= moment.games, "{games} games at {moment:?}");
    }
    if resumed {
        ok(&["resume", s(out), "--checkpoint-minutes", "0"]);
    }
    assert_eq!(read(out, "histogram.csv"), read(whole, "histogram.csv"));
    let want = without_run_details(json(&read(whole, "summary.json")));
    let got = without_run_details(json(&read(out, "summary.json")));
    assert_eq!(got, want, "{signal} at {moment:?}");
    assert_eq!(
        staged(out),
        (vec![], vec![]),
        "left beside {}",
        out.display()
    );
    resumed
}

/// `run` played in one go, then stopped by `signal` at `n` moments spread over its games
/// ([`Moment::of`]) and resumed: each time the run played in one go. Most of the `n` must
/// have been stopped part way (a moment late in the run may find it done).
pub fn at_every_moment(run: &[&str], name: &str, signal: &str, n: u64) {
    let dir = Scratch::new(name);
    let whole = dir.path("whole");
    ok(&[run, &[s(&whole)]].concat());
    let games = json(&read(&whole, "summary.json"))["games"]
        .as_u64()
        .unwrap();
    let mut resumed = 0;
    for k in 0..n {
        let out = dir.path(&format!("k{k}"));
        if stopped_and_resumed(run, (&out, &whole), signal, Moment::of(k, n, games)) {
            resumed += 1;
        }
        let listed = super::util::listing(&out);
        assert!(
            !listed.iter().any(|name| name.starts_with("checkpoint")),
            "{listed:?}"
        );
    }
    eprintln!("{signal}: {resumed} of {n} runs stopped part way and resumed");
    assert!(
        resumed >= n / 2,
        "{signal}: {resumed} of {n} runs stopped part way"
    );
}
