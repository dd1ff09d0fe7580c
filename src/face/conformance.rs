//! The library-level conformance suite (after OpenSpiel's `RandomSimTest`): every game of the
//! list, the tests' toy game among them, on its example rule set, through the `Game` and
//! `GameCli` contracts alone. A game is the same from its generator; its rounds stay within
//! its cap and its winners within its players; `play_range` plays exactly the games `play`
//! plays; its rules read back give the same game; `play GAME` plays a game; and a game with no
//! exact figure for its example says where it is checked instead. `tests/cli/conformance.rs`
//! checks the same games through the binary (threads, shards, replay, merge).

use std::collections::BTreeMap;

use clap::Parser;

use super::{for_each, GameCli, PlayIo, WithFace};
use crate::cli::{Cli, Command};
use crate::games::{from_rules, Outcome, Result1};
use crate::list::game_from_args;
use crate::rng::game_rng;

/// Games of each check.
const GAMES: u64 = 300;

/// What one game failed, or nothing.
#[derive(Clone)]
struct Conforms;

impl WithFace for Conforms {
    type Output = Result<&'static str, String>;

    fn with<G: GameCli>(self) -> Result<&'static str, String> {
        let name = G::NAME;
        let game = game_from_args::<G, _>(G::EXAMPLE).map_err(|e| format!("{name}: {e}"))?;
        let mut s = game.scratch();
        let played: Vec<Result1<G>> = (0..GAMES)
            .map(|i| game.play(&mut game_rng(5, i), &mut s))
            .collect();
        for (i, r) in played.iter().enumerate() {
            let again = game.play(&mut game_rng(5, i as u64), &mut s);
            if &again != r {
                return Err(format!("{name}: game {i} differs when played again"));
            }
            if r.rounds > game.max_rounds() {
                return Err(format!(
                    "{name}: game {i} ran {} rounds, past the cap",
                    r.rounds
                ));
            }
            if let Outcome::Player(p) = r.outcome {
                if usize::from(p) >= game.players() {
                    return Err(format!(
                        "{name}: game {i} won by player {p} of {}",
                        game.players()
                    ));
                }
            }
        }
        let mut ranged = BTreeMap::new();
        game.play_range(5, 0..GAMES, &mut s, &mut |i, r| {
            ranged.insert(i, *r);
        });
        if ranged.into_values().collect::<Vec<_>>() != played {
            return Err(format!(
                "{name}: play_range differs from playing game by game"
            ));
        }
        let rules = serde_json::to_value(game.rules()).map_err(|e| e.to_string())?;
        let back: G = from_rules(&rules).map_err(|e| format!("{name}: rules read back: {e}"))?;
        if back.rules() != game.rules() || back.describe() != game.describe() {
            return Err(format!("{name}: its rules read back give another game"));
        }
        let exact = game.exact().is_some()
            || game.expected_rounds().is_some()
            || game.deal_count().is_ok()
            || game.solve_chain(&Default::default()).is_some();
        if !exact && G::CHECKED_BY.is_none() {
            return Err(format!(
                "{name}: no exact figure for its example and no CHECKED_BY saying how it is \
                 checked"
            ));
        }
        play_smoke::<G>()?;
        Ok(name)
    }
}

/// `play GAME` with the game's [`GameCli::PLAY_EXAMPLE`] plays one game to an outcome.
fn play_smoke<G: GameCli>() -> Result<(), String> {
    let name = G::NAME;
    let argv = [&["warsim", "play", name], G::PLAY_EXAMPLE].concat();
    let cli = Cli::try_parse_from(&argv).map_err(|e| format!("{name}: {argv:?}: {e}"))?;
    let Command::Play { game, .. } = cli.command else {
        return Err(format!("{name}: {argv:?} is not play"));
    };
    let (mut out, mut prompt) = (Vec::new(), Vec::new());
    let mut input: &[u8] = &b"1\n".repeat(1000);
    let report = game
        .play(&mut PlayIo {
            names: false,
            trace: true,
            out: &mut out,
            input: &mut input,
            input_echoed: false,
            prompt: &mut prompt,
            cancel: &Default::default(),
        })
        .map_err(|e| format!("{name}: {argv:?}: {e}"))?;
    if report.game != name || report.outcome.is_empty() || out.is_empty() {
        return Err(format!("{name}: {argv:?} played no game: {report:?}"));
    }
    Ok(())
}

#[test]
fn every_game_conforms_on_its_example() {
    let results = for_each(Conforms);
    let failed: Vec<&String> = results.iter().filter_map(|r| r.as_ref().err()).collect();
    assert!(failed.is_empty(), "{failed:#?}");
    let names: Vec<&str> = results.into_iter().flatten().collect();
    assert!(
        names.contains(&"toy"),
        "the toy game is in the suite: {names:?}"
    );
}

/// Every game of the list has its rules written out in docs/rules/GAME.md, which its `--help`
/// points to (the toy, listed for the tests alone, has none).
#[test]
fn every_listed_game_has_its_rules_page() {
    let rules = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/rules");
    let missing: Vec<&str> = (crate::config::setup::names().into_iter())
        .filter(|&g| g != "toy" && !rules.join(format!("{g}.md")).is_file())
        .collect();
    assert!(missing.is_empty(), "no docs/rules/GAME.md for {missing:?}");
}
