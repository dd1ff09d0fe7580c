//! `play jitsu`, the interactive game. Stdout is the seed document's transcript, byte for byte:
//! seven unlabelled lines a round (player 1's won cards, player 2's, the hand, the input, the
//! two cards played, the result 1, 2 or 0) and a line naming the winner. That format is fixed
//! by the seed and written for programs, so whatever helps a person play goes to stderr, beside
//! the prompts, with every card by name: a labelled view of the piles and the numbered hand
//! before each round, and after it a line saying who played what and who took the round. At a
//! terminal `crate::play` keeps the transcript off stdout (the labels say it all in words).

use std::collections::VecDeque;
use std::io::{BufRead, Read, Write};

use crate::face::{PlayIo, PlayReport};
use crate::games::jitsu::{list, Card, Jitsu, Match, Round, HAND};
use crate::games::{Game, Outcome};
use crate::usage;

/// The arguments of `play jitsu`.
#[derive(Clone, Debug, Default, clap::Args, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayJitsu {
    /// Seed of the cards dealt (same seed and inputs, same transcript).
    #[arg(long, value_name = "S", default_value_t = 0)]
    pub seed: u64,
}

/// What `play jitsu --help` says besides its one-line about: which stream carries what.
pub const HELP: &str = "Card-Jitsu against the computer: you are player 1 and choose a card \
    of your hand each round by its position, 1 to 5, read from stdin; the computer plays a \
    random card.\n\n\
    Stderr says the game in words, every card by name (Water 12 orange): before each prompt, \
    your won cards, the computer's and your numbered hand; after each round, who played what \
    and who took the round.\n\n\
    Stdout, when it is a file or a pipe, is the seed document's transcript, exactly, for \
    programs: seven unlabelled lines a round (the cards won by player 1, as [FB4,SG10], those \
    won by player 2, player 1's hand, the position entered, the card player 1 played, the \
    computer's card, the round's result 1, 2 or 0), then one line naming the winner. At a \
    terminal the transcript is left out (--trace shows it there too) and stdout names the \
    winner alone. Same seed and inputs, same transcript. If the input ends before the game \
    does, the game is abandoned: an error, exit status 2.\n\n\
    The transcript writes a card element, colour, value: WO12 is Water, Orange, 12. Elements: \
    F Fire, W Water, S Snow; colours: Y Yellow, O Orange, R Red, B Blue, G Green, P Purple; \
    values 2 to 12.";

/// Whitespace-separated tokens read lazily, so a terminal user gets each round's transcript
/// before typing the next move.
struct Tokens<'a> {
    input: &'a mut dyn BufRead,
    queue: VecDeque<String>,
    /// Blank lines read since the last token.
    blank: usize,
    /// Whether the last token was read from a line read for it: typed at a terminal, it shows
    /// there already, newline included. A token left over from an earlier line does not.
    fresh: bool,
}

/// Inputs in a row that give no hand position (blank lines, or tokens that are not 1..5)
/// after which `play jitsu` gives up: a person never types so many, a runaway program
/// (`yes | warsim play jitsu`) would otherwise be answered forever.
const MAX_REFUSED: usize = 1000;

/// The longest input line `play jitsu` reads, its newline included. A hand position takes one
/// character; without a bound, input with no newline (`< /dev/zero`) would fill memory.
const MAX_LINE: usize = 1024;

/// The longest token a rejection message shows: it names the input, it need not repeat it.
const SHOWN_TOKEN: usize = 20;

/// The elements' names, in the order of [`Card::element`].
const ELEMENT_NAMES: [&str; 3] = ["Fire", "Water", "Snow"];

/// The colours' names, in the order of [`Card::colour`] (the transcript's letters Y O R B G P).
const COLOUR_NAMES: [&str; 6] = ["yellow", "orange", "red", "blue", "green", "purple"];

/// A card by name, element, value and colour: `Water 12 orange` (the transcript's `WO12`).
fn named(c: Card) -> String {
    let element = ELEMENT_NAMES[usize::from(c.element())];
    let colour = COLOUR_NAMES[usize::from(c.colour())];
    format!("{element} {} {colour}", c.value())
}

/// Cards by name, separated by commas; `none` for no card.
fn named_list(cards: &[Card]) -> String {
    if cards.is_empty() {
        return "none".into();
    }
    cards
        .iter()
        .map(|&c| named(c))
        .collect::<Vec<_>>()
        .join(", ")
}

impl Tokens<'_> {
    /// The next token, `None` at the end of the input; a line longer than [`MAX_LINE`] or
    /// input that is not UTF-8 is bad input.
    fn next(&mut self, round: u64) -> anyhow::Result<Option<String>> {
        self.fresh = false;
        while self.queue.is_empty() {
            let mut line = Vec::new();
            let mut bounded = (&mut *self.input).take(MAX_LINE as u64);
            if bounded.read_until(b'\n', &mut line)? == 0 {
                return Ok(None);
            }
            self.fresh = true;
            if line.len() == MAX_LINE && !line.ends_with(b"\n") {
                return Err(usage!(
                    "stdin, round {round}: an input line is longer than {MAX_LINE} bytes; \
                     enter a number from 1 to 5"
                )
                .into());
            }
            let Ok(line) = String::from_utf8(line) else {
                return Err(usage!("stdin, round {round}: the input is not UTF-8 text").into());
            };
            self.queue
                .extend(line.split_whitespace().map(str::to_string));
            self.blank = if self.queue.is_empty() {
                self.blank + 1
            } else {
                0
            };
            if self.blank >= MAX_REFUSED {
                return Err(usage!(
                    "stdin, round {round}: {MAX_REFUSED} blank lines in a row; enter a number \
                     from 1 to 5"
                )
                .into());
            }
        }
        Ok(self.queue.pop_front())
    }
}

/// `token` as a rejection message quotes it: at most [`SHOWN_TOKEN`] characters.
fn shown(token: &str) -> String {
    let (short, more) = cut(token);
    format!("{short:?}{more}")
}

/// `token` cut to at most [`SHOWN_TOKEN`] characters, and `…` if that cut it.
fn cut(token: &str) -> (&str, &'static str) {
    match token.char_indices().nth(SHOWN_TOKEN) {
        Some((end, _)) => (&token[..end], "…"),
        None => (token, ""),
    }
}

/// The labelled view of the three lines of the transcript a round starts with.
fn view(game: &Match) -> String {
    let hand: Vec<String> = (game.hand.0.iter().enumerate())
        .map(|(i, &c)| format!("{}: {}", i + 1, named(c)))
        .collect();
    format!(
        "your won cards: {}; the computer's won cards: {}; your hand: {}",
        named_list(&game.won[0]),
        named_list(&game.won[1]),
        hand.join(", ")
    )
}

/// The labelled line of a round's last three lines: the cards, why one beat the other, and
/// who took the round.
fn outcome(r: &Round) -> String {
    let name = |c: Card| ELEMENT_NAMES[usize::from(c.element())];
    let why = if r.p1.element() != r.p2.element() {
        let (w, l) = if r.result == 1 {
            (r.p1, r.p2)
        } else {
            (r.p2, r.p1)
        };
        format!("{} beats {}", name(w), name(l))
    } else if r.result == 0 {
        format!("both {}, both {}", name(r.p1), r.p1.value())
    } else {
        let (w, l) = if r.result == 1 {
            (r.p1, r.p2)
        } else {
            (r.p2, r.p1)
        };
        format!("both {}, {} beats {}", name(w), w.value(), l.value())
    };
    let taker = match r.result {
        1 => "you take the round",
        2 => "the computer takes the round",
        _ => "a tie: nobody takes the round",
    };
    format!(
        "you played {}, the computer {} ({why}): {taker}",
        named(r.p1),
        named(r.p2)
    )
}

/// Asks for round `round`'s card until a hand position is read. Input that ends first (Ctrl-D
/// at a terminal) abandons the game: a usage error, since the game was given too few moves to
/// finish, as is [`MAX_REFUSED`] inputs in a row that are no hand position.
fn ask(
    input: &mut Tokens<'_>,
    prompt: &mut dyn Write,
    echoed: bool,
    round: u64,
) -> anyhow::Result<usize> {
    for _ in 0..MAX_REFUSED {
        write!(prompt, "round {round}, your card (1-5): ")?;
        prompt.flush()?;
        let next = input.next(round);
        // The prompt's line ends with what was read, as typed at a terminal; a message
        // starts on a line of its own, not after the prompt.
        match &next {
            Ok(Some(token)) if !(echoed && input.fresh) => {
                let (short, more) = cut(token);
                writeln!(prompt, "{short}{more}")?
            }
            Ok(Some(_)) => {}
            _ => writeln!(prompt)?,
        }
        let Some(token) = next? else {
            return Err(usage!(
                "stdin, round {round}: the input ended before the game did; game abandoned"
            )
            .into());
        };
        match token.parse::<usize>() {
            Ok(k) if (1..=HAND).contains(&k) => return Ok(k),
            _ => writeln!(
                prompt,
                "{} is not a hand position; enter a number from 1 to 5",
                shown(&token)
            )?,
        }
    }
    Err(usage!(
        "stdin, round {round}: {MAX_REFUSED} inputs in a row were not a hand position; enter a \
         number from 1 to 5"
    )
    .into())
}

/// The interactive game: the seed's transcript (seven lines a round) to `io.out`; to
/// `io.prompt` the labels, a prompt per round and a message per rejected input. When the
/// input ends before the game does, the game is abandoned: a usage error, after the rounds
/// played.
pub fn play(args: &PlayJitsu, io: &mut PlayIo) -> anyhow::Result<PlayReport> {
    let mut rng = io.game_rng(args.seed, 0);
    let mut game = Match::new(&mut rng);
    let mut input = Tokens {
        input: &mut *io.input,
        queue: VecDeque::new(),
        blank: 0,
        fresh: false,
    };
    let out = &mut *io.out;
    writeln!(
        io.prompt,
        "you are player 1, the computer player 2: each round, pick a card of your hand by its \
         number; Fire beats Snow, Snow beats Water, Water beats Fire, and the higher number \
         wins between cards of one element; win three cards of three colours whose elements \
         are all the same or all different"
    )?;
    for round in 1u64.. {
        writeln!(out, "{}", list(&game.won[0]))?;
        writeln!(out, "{}", list(&game.won[1]))?;
        writeln!(out, "{}", list(&game.hand.0))?;
        // The player sees the hand before being asked; a reader gone ends the game here.
        out.flush()?;
        writeln!(io.prompt, "{}", view(&game))?;
        let choice = ask(&mut input, &mut *io.prompt, io.input_echoed, round)?;
        let (r, ended) = game.round(choice - 1, &mut rng);
        for line in [
            choice.to_string(),
            r.p1.to_string(),
            r.p2.to_string(),
            r.result.to_string(),
        ] {
            writeln!(out, "{line}")?;
        }
        writeln!(io.prompt, "{}", outcome(&r))?;
        if let Some(w) = ended {
            let who = if w == 0 {
                "you win"
            } else {
                "the computer wins"
            };
            writeln!(
                io.prompt,
                "{who} the game: {} holds a winning set",
                named_list(&game.won[w])
            )?;
            let winner = Outcome::Player(w as u8);
            return Ok(
                PlayReport::new(Jitsu::NAME, winner.name(), round, vec![w as u32 + 1])
                    .with_text(format!("player {} wins the game", w + 1)),
            );
        }
    }
    unreachable!("the rounds are unbounded")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(s: &str) -> Card {
        Card::parse(s).unwrap_or_else(|| panic!("{s} is no card"))
    }

    #[test]
    fn a_rounds_label_says_why_it_went_as_it_did() {
        let round = |p1, p2, result| Round {
            p1: c(p1),
            p2: c(p2),
            result,
        };
        assert_eq!(
            outcome(&round("WR12", "FB3", 1)),
            "you played Water 12 red, the computer Fire 3 blue (Water beats Fire): you take the \
             round"
        );
        assert_eq!(
            outcome(&round("WR3", "WB11", 2)),
            "you played Water 3 red, the computer Water 11 blue (both Water, 11 beats 3): the \
             computer takes the round"
        );
        assert_eq!(
            outcome(&round("SY7", "SG7", 0)),
            "you played Snow 7 yellow, the computer Snow 7 green (both Snow, both 7): a tie: \
             nobody takes the round"
        );
    }
}
