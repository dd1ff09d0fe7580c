//! Card-Jitsu's command-line face: `simulate jitsu`'s rule flags and `play jitsu`, the
//! interactive game ([`crate::face::jitsu_interactive`]).

use crate::face::jitsu_interactive::{self as interactive, PlayJitsu};
use crate::face::{GameCli, PlayIo, PlayReport};
pub use crate::games::jitsu::Jitsu;

impl GameCli for Jitsu {
    const ABOUT: &'static str = "Card-Jitsu with player 1 played by a strategy";
    const RULES: &'static str = "Rules: a card has an element (Fire, Water, Snow), a colour and \
        a value 2..12. Each round player 1 plays a card from a hand of five, the computer a \
        random card: Fire beats Snow, Snow beats Water, Water beats Fire; the same element: the \
        higher value wins; otherwise a tie. The round's winner keeps the card played. A player \
        wins the game with three kept cards of three different colours whose elements are all \
        the same or all different. More: docs/rules/jitsu.md (every rule point, with its \
        examples); to play: warsim play jitsu";
    const PLAY_ABOUT: &'static str = "Card-Jitsu against the computer: reads a hand position \
        1..5 per round from stdin; stderr says the game in words, a file or pipe on stdout gets \
        the seed's transcript exactly";
    const PLAY_HELP: Option<&'static str> = Some(interactive::HELP);
    const EXAMPLE: &'static [&'static str] = &["--strategy", "greedy"];
    const PLAY_EXAMPLE: &'static [&'static str] = &["--seed", "3"];
    const CHECKED_BY: Option<&'static str> = Some(
        "tests/cli/jitsu.rs checks play jitsu's transcripts round by round against the rules \
         written again independently; core/src/games/jitsu/'s unit tests check each round's \
         rule and the greedy choice",
    );
    type PlayArgs = PlayJitsu;

    /// The interactive game ([`interactive::play`]).
    fn play_command(args: &PlayJitsu, io: &mut PlayIo) -> anyhow::Result<PlayReport> {
        interactive::play(args, io)
    }
}
