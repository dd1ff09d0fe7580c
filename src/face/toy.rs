//! A dice duel, the toy game of the tests: added as docs/adding-a-game.md says a game is added,
//! with this one file and its line in the list of games (`#[cfg(test)]`, so only the tests
//! have it), its rules and its command-line face together. The tests below then play it
//! through every layer the real games go through: the list, the command line, the engine,
//! the output set and `play`.
//!
//! Rules: each round both players roll a die of `--sides` sides; the higher roll wins the game
//! and a tie rolls again. A game lasts sides/(sides-1) rounds on average, and each player wins
//! half the games.

use rand::RngCore;
use serde::{Deserialize, Serialize};

use crate::error::UsageError;
use crate::face::{GameCli, LineSink, PlayIo, PlayReport};
use crate::games::{check_max_rounds, Game, GameResult, Outcome};
use crate::usage;

/// The rule settings, each declared once: the flags of `simulate toy` (their help is the doc
/// comments) and the JSON `rules` object.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, clap::Args)]
#[serde(deny_unknown_fields)]
pub struct ToySettings {
    /// Sides of the die.
    #[arg(long, value_name = "N", default_value_t = ToySettings::default().sides)]
    pub sides: u32,
    /// Stop a game after this many rounds (outcome `capped`).
    #[arg(long, value_name = "M", allow_negative_numbers = true,
          default_value_t = ToySettings::default().max_rounds,
          value_parser = crate::settings::parse_rounds)]
    pub max_rounds: u64,
}

impl Default for ToySettings {
    /// A six-sided die.
    fn default() -> Self {
        ToySettings {
            sides: 6,
            max_rounds: 1_000,
        }
    }
}

/// The dice duel.
#[derive(Clone, Debug)]
pub struct Toy {
    rules: ToySettings,
}

impl Toy {
    /// One roll: uniform enough for a toy (the bias of a remainder of 64 bits is below 1e-17).
    fn roll<R: RngCore + ?Sized>(&self, rng: &mut R) -> u64 {
        rng.next_u64() % u64::from(self.rules.sides)
    }

    /// Plays one game, showing each round's rolls to `seen`.
    fn play_seen<R: RngCore + ?Sized>(
        &self,
        rng: &mut R,
        seen: &mut dyn FnMut(u64, [u64; 2]),
    ) -> GameResult {
        for round in 1..=self.rules.max_rounds {
            let rolls = [self.roll(rng), self.roll(rng)];
            seen(round, rolls);
            if rolls[0] != rolls[1] {
                let winner = u8::from(rolls[1] > rolls[0]);
                return GameResult::plain(round, Outcome::Player(winner));
            }
        }
        GameResult::plain(self.rules.max_rounds, Outcome::Capped)
    }
}

impl Game for Toy {
    const NAME: &'static str = "toy";
    type Settings = ToySettings;
    type Rules = ToySettings;
    type Stats = ();
    type Scratch = ();

    fn from_settings(o: &ToySettings) -> Result<Self, UsageError> {
        if o.sides < 2 {
            return Err(usage!("--sides {}: a die needs at least 2 sides", o.sides));
        }
        let max_rounds = check_max_rounds(o.max_rounds, "round")?;
        Ok(Toy {
            rules: ToySettings {
                sides: o.sides,
                max_rounds,
            },
        })
    }

    fn rules(&self) -> &ToySettings {
        &self.rules
    }

    fn settings_of(r: &ToySettings) -> ToySettings {
        r.clone()
    }

    fn scratch(&self) {}

    fn play<R: RngCore + ?Sized>(&self, rng: &mut R, _: &mut ()) -> GameResult {
        self.play_seen(rng, &mut |_, _| {})
    }

    fn players(&self) -> usize {
        2
    }

    fn describe(&self) -> String {
        format!(
            "a {}-sided die, cap {}",
            self.rules.sides, self.rules.max_rounds
        )
    }

    fn expected_rounds(&self) -> Option<f64> {
        let s = f64::from(self.rules.sides);
        Some(s / (s - 1.0))
    }

    fn max_rounds(&self) -> u64 {
        self.rules.max_rounds
    }
}

/// The arguments of `play toy`.
#[derive(Clone, Debug, Default, clap::Args, serde::Serialize, serde::Deserialize)]
pub struct PlayToy {
    /// Base seed of the run the game belongs to.
    #[arg(long, value_name = "S", default_value_t = 0)]
    pub seed: u64,
    /// Index of the game in the run.
    #[arg(long, value_name = "I", default_value_t = 0)]
    pub game: u64,
    #[command(flatten)]
    #[serde(flatten)]
    #[allow(missing_docs)]
    pub rules: ToySettings,
}

impl GameCli for Toy {
    const ABOUT: &'static str = "A dice duel: the toy game of the tests";
    const PLAY_ABOUT: &'static str = "A dice duel: replays game I of a run";
    const RULES: &'static str = "Rules: both players roll a die; the higher roll wins, a tie \
        rolls again.";
    const EXAMPLE: &'static [&'static str] = &["--sides", "4"];
    const PLAY_EXAMPLE: &'static [&'static str] = &["--seed", "9"];
    type PlayArgs = PlayToy;

    fn play_command(args: &PlayToy, io: &mut PlayIo) -> anyhow::Result<PlayReport> {
        let game = Toy::from_settings(&args.rules)?;
        let mut rng = io.game_rng(args.seed, args.game);
        let trace = io.trace;
        let mut sink = LineSink::new(&mut *io.out);
        let result = game.play_seen(&mut rng, &mut |round, [a, b]| {
            if trace {
                let _ = sink.line(&format!("{round:>4}  p1 {}  p2 {}", a + 1, b + 1));
            }
        });
        sink.finish()?;
        let text = format!("{} after {} rounds", result.outcome.name(), result.rounds);
        Ok(PlayReport::new(
            Toy::NAME,
            result.outcome.name(),
            result.rounds,
            result.outcome.two_players_left(),
        )
        .with_text(text))
    }
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::*;
    use crate::cli::Cli;
    use crate::sim::engine::{self, Cancel};

    fn cli(args: &[&str]) -> Cli {
        Cli::try_parse_from([&["warsim"], args].concat()).unwrap()
    }

    /// `warsim games` lists the toy with its flags and example, and `exact` does not offer it.
    #[test]
    fn the_toy_is_listed_with_its_flags() {
        let listed = crate::list::games().unwrap();
        let toy = listed.iter().find(|g| g.name == "toy").expect("toy listed");
        assert_eq!(toy.about, Toy::ABOUT);
        assert!(!toy.exact);
        let flags: Vec<&str> = toy.options.iter().map(|o| o.name.as_str()).collect();
        assert_eq!(flags, ["sides", "max-rounds"]);
        assert!(crate::config::setup::names().contains(&"toy"));
        let bad = Cli::try_parse_from(["warsim", "exact", "toy"]);
        assert!(bad.is_err(), "exact offers the toy");
    }

    /// `simulate toy` writes an output set whose summary reads back as the toy's rules, and the
    /// mean of 20,000 games is within 4 standard errors of sides/(sides-1).
    #[test]
    fn simulate_toy_writes_a_run_that_reads_back() {
        let dir = std::env::temp_dir().join(format!("warsim-toy-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let out = dir.to_str().unwrap();
        crate::app::run(cli(&[
            "simulate",
            "toy",
            "--sides",
            "4",
            "--games",
            "20000",
            "--threads",
            "2",
            "--quiet",
            "--out",
            out,
        ]))
        .unwrap();
        let part = crate::model::load::load::<Toy>(&dir).unwrap();
        assert_eq!(
            part.game.rules(),
            &ToySettings {
                sides: 4,
                max_rounds: 1_000
            }
        );
        let summary: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join("summary.json")).unwrap())
                .unwrap();
        assert_eq!(summary["games"], 20_000);
        let mean = summary["rounds"]["mean"].as_f64().unwrap();
        // Rounds are geometric with p = 3/4: variance (1-p)/p² = 4/9.
        let se = (4.0f64 / 9.0 / 20_000.0).sqrt();
        assert!((mean - 4.0 / 3.0).abs() < 4.0 * se, "mean {mean}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// One thread and two play the same games, and `play toy` replays game I of the run.
    #[test]
    fn the_engine_and_play_agree_on_every_game() {
        let toy = Toy::from_settings(&ToySettings::default()).unwrap();
        let one = engine::simulate(&toy, 9, 0..5_000, 1, &|_| {}, &Cancel::default()).unwrap();
        let two = engine::simulate(&toy, 9, 0..5_000, 2, &|_| {}, &Cancel::default()).unwrap();
        assert_eq!(one, two);
        let crate::cli::Command::Play { game, .. } =
            cli(&["play", "toy", "--seed", "9", "--game", "3", "--trace"]).command
        else {
            panic!("not play");
        };
        let (mut out, mut prompt) = (Vec::new(), Vec::new());
        let report = game
            .play(&mut PlayIo {
                names: false,
                trace: true,
                out: &mut out,
                input: &mut std::io::empty(),
                input_echoed: false,
                prompt: &mut prompt,
                cancel: &Default::default(),
            })
            .unwrap();
        let again = toy.play(&mut crate::rng::game_rng(9, 3), &mut ());
        assert_eq!(report.rounds, again.rounds);
        assert_eq!(report.outcome, again.outcome.name());
        assert_eq!(
            String::from_utf8(out).unwrap().lines().count() as u64,
            again.rounds
        );
    }
}
