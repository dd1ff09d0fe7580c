//! Shotgun War's command-line face: `simulate shotgun`'s rule flags and `play shotgun`, which
//! adjudicates given moves as the seed document's test cases do.

use std::ops::ControlFlow;

use crate::face::{GameCli, LineSink, PlayIo, PlayReport};
pub use crate::games::shotgun::Shotgun;
use crate::games::shotgun::{adjudicate_traced, parse_moves, trace_line};
use crate::games::{Game, Outcome};

/// The arguments of `play shotgun`.
#[derive(Clone, Debug, Default, clap::Args, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayShotgun {
    /// The moves, player 1's then player 2's of each turn: "rg fr", "rgfr", "r g f r", …
    #[arg(required = true, value_name = "MOVES")]
    pub moves: Vec<String>,
}

impl GameCli for Shotgun {
    const ABOUT: &'static str = "Shotgun War between two random players";
    const RULES: &'static str = "Rules: each turn both players at once reload (r), guard (g) or \
        fire (f). A gun holds one shot; firing a loaded gun kills an opponent who is not \
        guarding; both killed in the same turn is a draw. More: docs/rules/shotgun.md (every \
        rule point, with its test cases); to adjudicate a game: warsim play shotgun 'rg fr'";
    const PLAY_ABOUT: &'static str = "Shotgun War: who wins the given moves; prints the winner \
        (1 or 2, the player who shot the other), 0 (both shot: a draw) or none (nobody shot)";
    const EXAMPLE: &'static [&'static str] = &["--mix", "1,2,3"];
    const PLAY_EXAMPLE: &'static [&'static str] = &["rg fr"];
    type PlayArgs = PlayShotgun;

    /// Prints `1`, `2` (the winner), `0` (both died) or `none` (JSON outcome `none`, rounds =
    /// all turns); at a terminal, a sentence saying the same.
    fn play_command(args: &PlayShotgun, io: &mut PlayIo) -> anyhow::Result<PlayReport> {
        if args.moves.is_empty() {
            return Err(
                crate::usage!("no moves: give each turn's, player 1's then player 2's").into(),
            );
        }
        let turns = parse_moves(&args.moves.join(" "))?;
        let trace = io.trace;
        let mut sink = LineSink::new(&mut *io.out);
        let result = adjudicate_traced(&turns, |t, m, after| {
            if trace {
                sink.line(&trace_line(t, m, after))
            } else {
                ControlFlow::Continue(())
            }
        });
        sink.finish()?;
        Ok(match result {
            Some((o, t)) => {
                let (text, words) = match o {
                    Outcome::Player(p) => (
                        (p + 1).to_string(),
                        format!(
                            "player {} wins in turn {t}, shooting player {}",
                            p + 1,
                            2 - p
                        ),
                    ),
                    _ => ("0".into(), format!("draw in turn {t}: both players shot")),
                };
                PlayReport::new(<Self as Game>::NAME, o.name(), t, o.two_players_left())
                    .with_text(text)
                    .with_words(words)
            }
            None => PlayReport::new(
                <Self as Game>::NAME,
                "none".into(),
                turns.len() as u64,
                vec![1, 2],
            )
            .with_text("none")
            .with_words(format!(
                "nobody shot in the {} given",
                crate::stats::summary::counted(turns.len() as u64, "turn")
            )),
        })
    }
}
