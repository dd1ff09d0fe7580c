//! Progress of a run, advanced as each thread finishes a claim of games (about every 40 ms, or
//! every game when games are slower; `crate::sim::engine`): a bar on stderr when stderr is a
//! terminal, plain lines for a log file when asked (`--progress log`, as a Slurm task's log
//! wants), or nothing.

use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};

use crate::stats::summary::grouped;

/// When to show progress (`--progress`; its command-line values are in `cli.rs`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum When {
    /// A bar when stderr is a terminal, nothing otherwise.
    #[default]
    Auto,
    /// A plain line on stderr at the start, every ten seconds and at the end, terminal or not
    /// (for log files: a Slurm task's log, nohup.out).
    Log,
    /// Nothing.
    Never,
}

impl When {
    /// Whether progress is shown at all.
    pub fn shows(self) -> bool {
        match self {
            When::Auto => std::io::stderr().is_terminal(),
            When::Log => true,
            When::Never => false,
        }
    }
}

/// Writes `line` on stderr where progress is shown (`when`), and nowhere else: a script that
/// asked for no progress gets no chatter either. In a log it starts with the time ([`logged`]).
pub fn note(when: When, line: &str) {
    if when.shows() {
        tell(when, line);
    }
}

/// Writes `line` on stderr, whatever `when` (a message that must be seen: why a run stopped),
/// as a log line in a log.
pub fn tell(when: When, line: &str) {
    match when {
        When::Log => logged(line),
        _ => {
            let _ = writeln!(std::io::stderr().lock(), "{line}");
        }
    }
}

/// Writes `line` on stderr as a log line ([`stamped`]).
fn logged(line: &str) {
    let _ = writeln!(std::io::stderr().lock(), "{}", stamped(When::Log, line));
}

/// `line` as a log line where progress goes to a log (`when`: `--progress log`): after the
/// time of day in UTC, ISO 8601 (`2026-12-07T14:03:12Z progress: ...`), which is what a Slurm
/// log is searched by; elsewhere as it is. Lines written elsewhere than by [`tell`] use it
/// too: the `written` line on stdout (a Slurm log holds stdout with stderr), the message of a
/// stopped run.
pub fn stamped(when: When, line: &str) -> String {
    if when != When::Log {
        return line.to_string();
    }
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    format!("{} {line}", crate::model::summary::iso_date(now))
}

/// Seconds between two progress lines of [`When::Log`].
const LOG_EVERY: Duration = Duration::from_secs(10);

/// The progress of one run over a known number of games.
pub enum Progress {
    /// An indicatif bar on the terminal.
    Bar(ProgressBar),
    /// Lines on stderr.
    Log(LogLines),
    /// Over a time asked for rather than a number of things ([`Progress::timed`]).
    Timed(Box<Timed>),
    /// Counted for a host that shows it itself ([`Show::Host`]).
    Host(Arc<Shared>),
    /// Nothing shown.
    Hidden,
}

/// Progress counted for a host that shows it itself (Python: a line in a notebook or a
/// terminal, drawn between its checks for Ctrl-C), read by the host while the run plays.
#[derive(Debug, Default)]
pub struct Shared {
    /// Things done so far.
    pub done: AtomicU64,
    /// Things in all (0 until a run starts).
    pub total: AtomicU64,
}

/// Where a progress goes: shown by warsim as `When` says (the command line), or counted for a
/// host that shows it itself (the Python package's session, [`crate::session::Session`]).
#[derive(Clone, Debug)]
pub enum Show {
    /// warsim's own bar or log lines, as `--progress` says.
    Own(When),
    /// Counted into the host's [`Shared`].
    Host(Arc<Shared>),
}

/// Progress counted for `shared`, over `total` things.
fn hosted(shared: &Arc<Shared>, total: u64) -> Progress {
    shared.done.store(0, Ordering::Relaxed);
    shared.total.store(total, Ordering::Relaxed);
    Progress::Host(shared.clone())
}

impl Progress {
    /// Progress over `games` games, shown as `show` says.
    pub fn new(games: u64, show: &Show) -> Progress {
        Progress::after(games, show, Duration::ZERO)
    }

    /// As [`Progress::new`], for a run whose first games (a pilot's) took `before`: its rate
    /// counts their time with them, so the bar never opens at millions of games a second.
    pub fn after(games: u64, show: &Show, before: Duration) -> Progress {
        Progress::of(games, show, before, "games")
    }

    /// Progress over `total` things of another kind than games (`deals`, for `search`).
    pub fn counting(total: u64, show: &Show, noun: &'static str) -> Progress {
        Progress::of(total, show, Duration::ZERO, noun)
    }

    /// Progress over `seconds` asked for (`search --minutes`): the bar (or a log line) shows
    /// the time elapsed of those seconds, with the things done so far and their rate, since
    /// how many the time allows is not known until it is up (so a host, which counts things of
    /// a known total, is shown nothing).
    pub fn timed(seconds: f64, show: &Show, noun: &'static str) -> Progress {
        let Show::Own(when) = *show else {
            return Progress::Hidden;
        };
        let bar = match when {
            When::Auto if std::io::stderr().is_terminal() => Some(timed_bar(seconds)),
            When::Log => None,
            _ => return Progress::Hidden,
        };
        let timed = Timed {
            bar,
            seconds,
            noun,
            done: AtomicU64::new(0),
            start: Instant::now(),
            last: Mutex::new(Instant::now()),
        };
        if timed.bar.is_none() {
            timed.line(false);
        }
        Progress::Timed(Box::new(timed))
    }

    /// Progress over work of unequal parts (a sweep's rule sets): `total` nanoseconds of the
    /// estimate, each part's games weighed by their estimated cost
    /// ([`Slot`](crate::run::Slot)), so the time left follows the cost, not the count of games
    /// (a sweep whose last rule sets are its slowest). The bar shows the share done.
    /// A host is shown nothing: its count is of games, not of nanoseconds.
    pub fn costed(total: u64, show: &Show) -> Progress {
        match *show {
            Show::Host(_) => Progress::Hidden,
            Show::Own(When::Auto) if std::io::stderr().is_terminal() => {
                Progress::Bar(costed_bar(total))
            }
            Show::Own(When::Log) => {
                Progress::Log(LogLines::start(total, Duration::ZERO, COST_NOUN))
            }
            Show::Own(_) => Progress::Hidden,
        }
    }

    fn of(total: u64, show: &Show, before: Duration, noun: &'static str) -> Progress {
        match *show {
            Show::Host(ref shared) => hosted(shared, total),
            Show::Own(When::Auto) if std::io::stderr().is_terminal() => {
                Progress::Bar(bar(total, noun).with_elapsed(before))
            }
            Show::Own(When::Log) => Progress::Log(LogLines::start(total, before, noun)),
            Show::Own(_) => Progress::Hidden,
        }
    }

    /// `n` more games played.
    pub fn inc(&self, n: u64) {
        match self {
            Progress::Bar(b) => b.inc(n),
            Progress::Log(l) => l.inc(n),
            Progress::Timed(t) => t.inc(n),
            Progress::Host(h) => {
                h.done.fetch_add(n, Ordering::Relaxed);
            }
            Progress::Hidden => {}
        }
    }

    /// The run will now play `games` games in all (a run to a precision learns its length as
    /// it goes).
    pub fn set_total(&self, games: u64) {
        match self {
            Progress::Bar(b) => b.set_length(games),
            Progress::Log(l) => l.games.store(games, Ordering::Relaxed),
            Progress::Host(h) => h.total.store(games, Ordering::Relaxed),
            Progress::Timed(_) | Progress::Hidden => {}
        }
    }

    /// The run is over: the bar is cleared; a log gets its last line.
    pub fn finish(&self) {
        match self {
            Progress::Bar(b) => b.finish_and_clear(),
            Progress::Log(l) => l.line(true),
            Progress::Timed(t) => match &t.bar {
                Some(b) => b.finish_and_clear(),
                None => t.line(true),
            },
            Progress::Host(_) | Progress::Hidden => {}
        }
    }
}

/// What a costed progress counts ([`Progress::costed`]).
const COST_NOUN: &str = "ns of estimated work";

fn bar(total: u64, noun: &str) -> ProgressBar {
    bar_of(
        total,
        &format!(
            "{{elapsed_precise}} [{{wide_bar}}] {{human_pos}}/{{human_len}} {noun} ({{rate}} \
             {noun}/s, eta {{left}})"
        ),
    )
}

/// A bar over `total` nanoseconds of estimated work: the share done and the time left.
fn costed_bar(total: u64) -> ProgressBar {
    bar_of(
        total,
        "{elapsed_precise} [{wide_bar}] {percent}% of the estimated work (eta {left})",
    )
}

/// A bar over `total` with `template`, its rate and time left taken from its start.
fn bar_of(total: u64, template: &str) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
    let style = ProgressStyle::with_template(template)
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        // Games over the time that played them, from the start: indicatif's own rate and eta
        // weigh the last few updates, which a pilot's games (counted at once) or a claim of up to
        // 4,096 games finishing together throw off by orders of magnitude.
        .with_key("rate", |s: &ProgressState, w: &mut dyn std::fmt::Write| {
            let _ = write!(w, "{}", grouped(average(s) as u64));
        })
        .with_key("left", |s: &ProgressState, w: &mut dyn std::fmt::Write| {
            let rate = average(s);
            let left = s.len().unwrap_or(0).saturating_sub(s.pos());
            let _ = match rate > 0.0 {
                true => write!(w, "{}", clock(left as f64 / rate)),
                false => write!(w, "-"),
            };
        });
    bar.set_style(style);
    bar
}

/// Games per second since the bar's start (its elapsed time includes a pilot's).
fn average(s: &ProgressState) -> f64 {
    let secs = s.elapsed().as_secs_f64();
    if secs > 0.0 {
        s.pos() as f64 / secs
    } else {
        0.0
    }
}

/// Progress as plain lines: games done, share, rate and time left.
pub struct LogLines {
    noun: &'static str,
    games: AtomicU64,
    done: AtomicU64,
    start: Instant,
    /// When the last line was written (workers race for it; one writes).
    last: Mutex<Instant>,
}

impl LogLines {
    fn start(games: u64, before: Duration, noun: &'static str) -> LogLines {
        let now = Instant::now();
        let lines = LogLines {
            noun,
            games: AtomicU64::new(games),
            done: AtomicU64::new(0),
            start: now.checked_sub(before).unwrap_or(now),
            last: Mutex::new(Instant::now()),
        };
        lines.line(false);
        lines
    }

    fn inc(&self, n: u64) {
        self.done.fetch_add(n, Ordering::Relaxed);
        let due = match self.last.try_lock() {
            Ok(mut last) if last.elapsed() >= LOG_EVERY => {
                *last = Instant::now();
                true
            }
            _ => false,
        };
        if due {
            self.line(false);
        }
    }

    fn line(&self, end: bool) {
        let done = self.done.load(Ordering::Relaxed);
        logged(&self.text(done, self.start.elapsed(), end));
    }

    /// One line: `progress: 1,200,000 of 2,000,000 games (60.0%), 1,234,567 games/s, 0:00:04 left`.
    fn text(&self, done: u64, elapsed: Duration, end: bool) -> String {
        let secs = elapsed.as_secs_f64();
        let games = self.games.load(Ordering::Relaxed);
        let share = 100.0 * done as f64 / games.max(1) as f64;
        let head = format!(
            "progress: {} of {} {} ({share:.1}%)",
            grouped(done),
            grouped(games),
            self.noun
        );
        if done == 0 || secs <= 0.0 {
            return head;
        }
        let rate = done as f64 / secs;
        let tail = if end {
            format!("done in {}", clock(secs))
        } else {
            format!("{} left", clock((games - done.min(games)) as f64 / rate))
        };
        format!("{head}, {} {}/s, {tail}", grouped(rate as u64), self.noun)
    }
}

/// A bar over the milliseconds of `seconds`, its message the things done and their rate.
fn timed_bar(seconds: f64) -> ProgressBar {
    let total = (seconds * 1000.0) as u64;
    let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
    let style = ProgressStyle::with_template(&format!(
        "{{elapsed_precise}} of {} [{{wide_bar}}] {{msg}}",
        clock(seconds)
    ))
    .unwrap_or_else(|_| ProgressStyle::default_bar());
    bar.set_style(style);
    bar
}

/// Progress over a time asked for: a bar of the seconds elapsed of those asked, or lines.
pub struct Timed {
    /// The bar on a terminal; `None`: lines for a log.
    bar: Option<ProgressBar>,
    seconds: f64,
    noun: &'static str,
    done: AtomicU64,
    start: Instant,
    /// When the bar or a line was last brought up to date (workers race for it; one does).
    last: Mutex<Instant>,
}

impl Timed {
    fn inc(&self, n: u64) {
        self.done.fetch_add(n, Ordering::Relaxed);
        let every = match self.bar {
            Some(_) => Duration::from_millis(100),
            None => LOG_EVERY,
        };
        let due = match self.last.try_lock() {
            Ok(mut last) if last.elapsed() >= every => {
                *last = Instant::now();
                true
            }
            _ => false,
        };
        if !due {
            return;
        }
        match &self.bar {
            Some(b) => {
                let elapsed = self.start.elapsed();
                b.set_position((elapsed.as_millis() as u64).min(b.length().unwrap_or(0)));
                b.set_message(self.counts(elapsed));
            }
            None => self.line(false),
        }
    }

    /// `1,234,567 deals (123,456 deals/s)`.
    fn counts(&self, elapsed: Duration) -> String {
        let done = self.done.load(Ordering::Relaxed);
        let rate = done as f64 / elapsed.as_secs_f64().max(1e-9);
        format!(
            "{} {} ({} {}/s)",
            grouped(done),
            self.noun,
            grouped(rate as u64),
            self.noun
        )
    }

    fn line(&self, end: bool) {
        logged(&self.text(self.start.elapsed(), end));
    }

    /// One line: `progress: 0:00:12 of 0:01:00 (20.0%), 1,234,567 deals (102,880 deals/s)`.
    fn text(&self, elapsed: Duration, end: bool) -> String {
        let secs = elapsed.as_secs_f64();
        if end {
            return format!(
                "progress: done in {}, {}",
                clock(secs),
                self.counts(elapsed)
            );
        }
        let share = (100.0 * secs / self.seconds.max(1e-9)).min(100.0);
        format!(
            "progress: {} of {} ({share:.1}%), {}",
            clock(secs),
            clock(self.seconds),
            self.counts(elapsed)
        )
    }
}

/// `h:mm:ss`.
fn clock(secs: f64) -> String {
    let s = secs.round() as u64;
    format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn log_lines_say_done_share_rate_and_time_left() {
        let l = LogLines {
            noun: "games",
            games: AtomicU64::new(2_000_000),
            done: AtomicU64::new(0),
            start: Instant::now(),
            last: Mutex::new(Instant::now()),
        };
        assert_eq!(
            l.text(0, Duration::ZERO, false),
            "progress: 0 of 2,000,000 games (0.0%)"
        );
        assert_eq!(
            l.text(1_200_000, Duration::from_secs(4), false),
            "progress: 1,200,000 of 2,000,000 games (60.0%), 300,000 games/s, 0:00:03 left"
        );
        assert_eq!(
            l.text(2_000_000, Duration::from_secs(3725), true),
            "progress: 2,000,000 of 2,000,000 games (100.0%), 536 games/s, done in 1:02:05"
        );
    }

    /// A search for a time shows the time elapsed of the time asked, not a count of deals
    /// toward an unknown total.
    #[test]
    fn timed_lines_say_elapsed_of_asked_and_the_deals_played() {
        let t = Timed {
            bar: None,
            seconds: 60.0,
            noun: "deals",
            done: AtomicU64::new(1_234_560),
            start: Instant::now(),
            last: Mutex::new(Instant::now()),
        };
        assert_eq!(
            t.text(Duration::from_secs(12), false),
            "progress: 0:00:12 of 0:01:00 (20.0%), 1,234,560 deals (102,880 deals/s)"
        );
        assert_eq!(
            t.text(Duration::from_secs(60), true),
            "progress: done in 0:01:00, 1,234,560 deals (20,576 deals/s)"
        );
    }
}
