//! warsim: Monte Carlo simulation and exact statistics for War and other small card and hand
//! games.
//!
//! The rules, the parallel engine and the exact tallies are the `warsim-core` crate, re-exported
//! here as [`games`], [`sim`], [`stats`], [`rng`] and [`cancel`]; it has no command line and no
//! files. This crate is the command over it: [`config`] is what a run is asked as plain data,
//! the registry of games among it (`config::setup`: the one list of games and the typed API's
//! [`api::Setup`], knowing no clap); [`face`] holds each game's command-line face (its rule
//! flags, help and `play` command) and the subcommands made from the list, [`cli`] defines the
//! command line, [`estimate`] foresees a run's time before it starts,
//! [`error`] holds the one-line rendering of every error (a usage error exits with status 2).
//! [`api`] is every command as a typed function over a [`session`] (what stops a call, the
//! command its files record, who handles its signals, where its progress goes); [`app`] adapts
//! the command line to it, and `python` the Python package. The API runs
//! `simulate` in [`run`], `exact` in [`exact`], `sweep` in [`sweep`], `merge` in [`merge`],
//! `compare` in [`compare`], `replay` in [`replay`],
//! `play` in [`play`], `search` in [`search`] (with `--reaching` in [`reaching`]); `games` is
//! [`list`]; `completions` and `manpage` are generated from [`cli`] in [`app`] itself. What the
//! commands make flows one way: `simulate`, `merge`, `exact`, `compare` and `search` return
//! [`value`]s (a run, an answer, a comparison, a search's report), which the faces write and
//! print; [`model`] is the run (its description,
//! statistics, summary.json and the one reader of a run folder), [`export`] writes its files,
//! one per format, [`charts`] draws them, [`store`] commits them as one all-or-nothing set,
//! and [`term`] prints the summary and the progress. `python` (feature `python`) is the Python
//! extension module over the same commands. The binary is
//! `main.rs` over [`app`]. Only the commands, `store`, `export` and `term` touch files, stdin,
//! stdout or stderr.
#![warn(missing_docs)]
// Every unsafe block says why it is sound (issue 41); CI's clippy denies warnings.
#![warn(clippy::undocumented_unsafe_blocks)]

pub mod api;
pub mod app;
pub mod charts;
pub mod cli;
pub mod compare;
pub mod config;
pub mod error;
pub mod estimate;
pub mod exact;
pub mod export;
pub mod face;
pub mod list;
pub mod merge;
pub mod model;
pub mod play;
#[cfg(feature = "python")]
pub mod python;
pub mod reaching;
pub mod replay;
pub mod run;
pub mod search;
pub mod session;
pub mod store;
pub mod sweep;
pub mod term;
pub mod value;

pub use warsim_core::{cancel, games, rng, settings, sim, stats, usage};

#[cfg(test)]
mod tests {
    /// docs/layout.md, the map of the source, names every top-level module of this crate (as
    /// `src/NAME/` or `src/NAME.rs`), so a module moved or added is placed there too.
    #[test]
    fn the_layout_names_every_module() {
        let layout = include_str!("../docs/layout.md");
        let source = include_str!("lib.rs");
        let modules = source.lines().filter_map(|l| {
            let l = l.trim_start_matches("pub ");
            l.strip_prefix("mod ")?.strip_suffix(';')
        });
        for m in modules {
            let named = layout.contains(&format!("`src/{m}/`"))
                || layout.contains(&format!("`src/{m}.rs`"));
            assert!(named, "docs/layout.md does not name src/{m}");
        }
    }

    /// The module list above names every module declared here.
    #[test]
    fn the_crate_docs_name_every_module() {
        let source = include_str!("lib.rs");
        let docs: String = source
            .lines()
            .filter_map(|l| l.strip_prefix("//!"))
            .collect();
        let modules = source
            .lines()
            .filter_map(|l| l.strip_prefix("pub mod ")?.strip_suffix(';'));
        for m in modules {
            let named = docs.contains(&format!("[`{m}`]")) || docs.contains(&format!("`{m}`"));
            assert!(named, "src/lib.rs's docs do not name module {m}");
        }
    }
}
