//! The progress bar: on stderr, only when stderr is a terminal, advanced once per chunk.

use std::io::IsTerminal;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};

use crate::stats::summary::grouped;

/// A progress bar over `games` games, hidden unless stderr is a terminal.
pub fn bar(games: u64) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(games), ProgressDrawTarget::stderr());
    let style = ProgressStyle::with_template(
        "{elapsed_precise} [{wide_bar}] {human_pos}/{human_len} games ({rate} games/s, eta {eta})",
    )
    .unwrap_or_else(|_| ProgressStyle::default_bar())
    .with_key("rate", |s: &ProgressState, w: &mut dyn std::fmt::Write| {
        let _ = write!(w, "{}", grouped(s.per_sec() as u64));
    });
    bar.set_style(style);
    bar
}
