//! Snap's command-line face: `simulate snap`'s rule flags and `play snap`, which plays given
//! piles and answers as the seed document's I/O examples do.

use crate::face::{players_words, GameCli, LineSink, PlayIo, PlayReport};
pub use crate::games::snap::Snap;
use crate::games::snap::{play_deal, Deal, DEFAULT_MAX_ROUNDS};
use crate::games::{check_max_rounds, Game, GameResult, Outcome, Trace};

/// The arguments of `play snap`.
#[derive(Clone, Debug, clap::Args, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlaySnap {
    /// Each player's pile, top first: one card per character ("abba"), or with --numbers
    /// comma-separated integers ("1,2,2,1").
    #[arg(required = true, value_name = "PILE")]
    pub piles: Vec<String>,
    /// Piles are comma-separated integers.
    #[arg(long)]
    pub numbers: bool,
    /// Stop after this many turns (outcome `capped`); loops are detected exactly.
    #[arg(long, value_name = "M", allow_negative_numbers = true, default_value_t = DEFAULT_MAX_ROUNDS,
          value_parser = crate::settings::parse_turns)]
    pub max_rounds: u64,
}

impl Default for PlaySnap {
    /// No piles (the game refuses to play none), as integers no, the game's own cap.
    fn default() -> PlaySnap {
        PlaySnap {
            piles: Vec::new(),
            numbers: false,
            max_rounds: DEFAULT_MAX_ROUNDS,
        }
    }
}

impl GameCli for Snap {
    const ABOUT: &'static str = "Snap: a pair takes the common pile";
    const RULES: &'static str = "Rules: players in turn play their top card onto a common pile; \
        a card equal to the one it lands on takes the pile (under the taker's pile, the pair at \
        the very bottom), and every player then holding no card is out. A player with no card \
        who is not out rotates the common pile instead (bottom card to top). The game ends when \
        one player holds every card, in a stalemate (every card in the common pile and no \
        rotation makes a pair) or in a loop (a state seen before: it would repeat forever). \
        More: docs/rules/snap.md (every rule point, with its examples); to watch a game: \
        warsim play snap abba abca --trace";
    const PLAY_ABOUT: &'static str =
        "Snap: plays the given piles; prints the winner, or the players still in the game";
    const EXAMPLE: &'static [&'static str] = &["--faces", "3", "--copies", "2"];
    const PLAY_EXAMPLE: &'static [&'static str] = &["abba", "abca"];
    type PlayArgs = PlaySnap;

    /// Prints the 1-indexed winner, or the players still in the game, as the seed's I/O
    /// examples do; `--trace` prints the state after every turn.
    fn play_command(args: &PlaySnap, io: &mut PlayIo) -> anyhow::Result<PlayReport> {
        let max_rounds = check_max_rounds(args.max_rounds, "turn")?;
        let deal = Deal::parse(&args.piles, args.numbers)?;
        let mut sink = LineSink::new(&mut *io.out);
        let mut line = |l: String| sink.line(&l);
        let trace: Option<Trace> = if io.trace { Some(&mut line) } else { None };
        let (result, in_game) = play_deal(&deal, max_rounds, trace);
        sink.finish()?;
        let players: Vec<u32> = in_game.iter().map(|&p| p as u32 + 1).collect();
        let text: Vec<String> = players.iter().map(u32::to_string).collect();
        let note = ending_note(&result, &players_words(&players));
        let words = match result.outcome {
            Outcome::Player(_) => {
                format!("{} wins in turn {}", players_words(&players), result.rounds)
            }
            _ => note.clone(),
        };
        Ok(PlayReport::new(
            <Self as Game>::NAME,
            result.outcome.name(),
            result.rounds,
            players,
        )
        .with_cycle(result.cycle)
        .with_text(text.join(" "))
        .with_note(note)
        .with_words(words))
    }
}

/// How a game that nobody won ended, for `play snap`, whose answer (the players left) is the
/// same for a loop and a stalemate; empty for a win, which the answer says whole. `players`
/// are the players left in words ([`players_words`]).
fn ending_note(result: &GameResult, players: &str) -> String {
    match (result.outcome, result.cycle) {
        (Outcome::Loop, Some(c)) => format!(
            "loop: the state after turn {} repeats the state after turn {} (cycle of {} turns); \
             the game never ends, {players} still in",
            c.loop_from + c.cycle_len,
            c.loop_from,
            c.cycle_len
        ),
        (Outcome::Stalemate, _) => format!(
            "stalemate at turn {}: every card is in the common pile and no rotation makes a \
             pair; {players} still in",
            result.rounds
        ),
        (Outcome::Capped, _) => format!(
            "capped: undecided after {} turns (--max-rounds); {players} still in",
            result.rounds
        ),
        _ => String::new(),
    }
}
