//! Rock-paper-scissors' command-line face: `simulate rps`'s rule flags and `play rps`, which
//! names the winners of one throw as the seed document's examples do.

use crate::face::{players_words, GameCli, PlayIo, PlayReport};
pub use crate::games::rps::Elimination;
use crate::games::rps::{parse_shape, winners_direct, Shape, MAX_PLAYERS};
use crate::games::Game;
use crate::usage;

/// The arguments of `play rps`.
#[derive(Clone, Debug, Default, clap::Args, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayRps {
    /// One throw per player: r, p or s.
    #[arg(required = true, num_args = 2.., value_name = "THROW")]
    pub throws: Vec<String>,
}

impl GameCli for Elimination {
    const ABOUT: &'static str = "N-player rock-paper-scissors elimination";
    const RULES: &'static str = "Rules: every remaining player throws rock, paper or scissors \
        at random; a throw in which exactly two shapes appear removes the players who threw the \
        losing one (rock beats scissors, scissors beats paper, paper beats rock); any other throw \
        is thrown again. The last player left wins. More: docs/rules/rps.md (every \
        rule point, with its examples); one throw: warsim play rps r r s";
    const PLAY_ABOUT: &'static str =
        "Rock-paper-scissors: the winners of one throw; prints their numbers or \"draw\"";
    const EXAMPLE: &'static [&'static str] = &["--players", "4"];
    const PLAY_EXAMPLE: &'static [&'static str] = &["r", "r", "s"];
    type PlayArgs = PlayRps;

    /// Prints the winners' numbers (`1 2` for `r r s`) or `tie`; JSON outcome `p<k>` for one
    /// winner, `winners` for several, `draw` for no decision (players: everyone).
    fn play_command(args: &PlayRps, io: &mut PlayIo) -> anyhow::Result<PlayReport> {
        let throws = &args.throws;
        if throws.len() < 2 {
            return Err(usage!("{} throws: a throw needs at least 2 players", throws.len()).into());
        }
        if throws.len() > MAX_PLAYERS {
            return Err(usage!("{} throws: at most {MAX_PLAYERS} players", throws.len()).into());
        }
        let shapes = throws
            .iter()
            .enumerate()
            .map(|(i, t)| parse_shape(t, i + 1))
            .collect::<Result<Vec<_>, _>>()?;
        if io.trace {
            let names: Vec<String> = (shapes.iter().enumerate())
                .map(|(i, &s)| format!("p{} {}", i + 1, SHAPE_NAMES[usize::from(s)]))
                .collect();
            writeln!(io.out, "   1  {}", names.join("  "))?;
        }
        let winners = winners_direct(&shapes);
        let numbers: Vec<u32> = (0..shapes.len() as u32)
            .filter(|&i| winners >> i & 1 == 1)
            .map(|i| i + 1)
            .collect();
        let text = match numbers.len() {
            0 => "draw".to_string(),
            _ => numbers
                .iter()
                .map(u32::to_string)
                .collect::<Vec<_>>()
                .join(" "),
        };
        let words = words(&shapes, &numbers);
        let (outcome, players) = match numbers.len() {
            0 => ("draw".to_string(), (1..=shapes.len() as u32).collect()),
            1 => (format!("p{}", numbers[0]), numbers),
            _ => ("winners".to_string(), numbers),
        };
        Ok(PlayReport::new(<Self as Game>::NAME, outcome, 1, players)
            .with_text(text)
            .with_words(words))
    }
}

/// The shapes' names, in the order of [`Shape`]'s numbers (the seed's: paper 0, rock 1,
/// scissors 2).
const SHAPE_NAMES: [&str; 3] = ["paper", "rock", "scissors"];

/// A throw's answer in a sentence: `players 1 and 2 win: rock beats scissors`, or a draw.
fn words(shapes: &[Shape], winners: &[u32]) -> String {
    let Some(&first) = winners.first() else {
        return "draw: no decision (one shape thrown, or all three)".into();
    };
    let won = shapes[first as usize - 1];
    let lost = (shapes.iter()).find(|&&s| s != won).copied().unwrap_or(won);
    let verb = if won == 2 { "beat" } else { "beats" };
    let win = if winners.len() == 1 { "wins" } else { "win" };
    format!(
        "{} {win}: {} {verb} {}",
        players_words(winners),
        SHAPE_NAMES[usize::from(won)],
        SHAPE_NAMES[usize::from(lost)]
    )
}
