//! The command crate as a library: a simulation of deck War through the typed API, returned as
//! a value ([`warsim::api::Run`]) with nothing written or printed, then its mean rounds with the
//! 95% interval; written as the command line's output set only if a folder is given.
//!
//!     cargo run --release --example war_in_memory [-- OUT_DIR]

use warsim::api::{self, RunConfig, Session, Setup};
use warsim::config::Games;
use warsim::games::war::WarSettings;
use warsim::term::progress::When;

fn main() -> anyhow::Result<()> {
    let game = Setup::from_json("war", &serde_json::to_value(WarSettings::default())?)?;
    let config = RunConfig {
        games: Some(Games::new(100_000)?),
        out: std::env::args_os().nth(1).map(Into::into),
        progress: When::Never,
        ..RunConfig::default()
    };
    let (run, written) = api::simulate_into(&Session::command_line(), &game, &config)?;
    let rounds = run
        .rounds()
        .ok_or_else(|| anyhow::anyhow!("no game was played"))?;
    let [lo, hi] = rounds.ci95.unwrap_or([rounds.mean; 2]);
    println!(
        "{}: {} games, mean {:.3} rounds (95% interval {lo:.3} to {hi:.3})",
        run.info().description,
        run.games(),
        rounds.mean
    );
    if let Some(dir) = written {
        println!("written {}", dir.display());
    }
    Ok(())
}
