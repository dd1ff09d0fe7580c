//! Beggar-my-neighbour's command-line face: `simulate bmn`'s rule flags and `play bmn`, one
//! game, of given hands (`--deal`) or of a random deal drawn as `simulate bmn` draws game I of
//! seed S (`--seed S --game I`), so any game of a run can be watched trick by trick; a random
//! deal is printed as `--deal` reads it, to be played again or shared.

use std::ops::ControlFlow;

use crate::face::{GameCli, LineSink, PlayIo, PlayReport};
pub use crate::games::bmn::Bmn;
use crate::games::bmn::{changed_settings, BmnRules, BmnSettings, Position, Trick};
use crate::games::{Game, Outcome};
use crate::stats::summary::{counted, grouped};

impl GameCli for Bmn {
    const ABOUT: &'static str = "Beggar-my-neighbour (1911 Britannica rules)";
    const RULES: &'static str = "Rules: two players lay cards in turn onto a pile. J, Q, K and \
        A demand 1, 2, 3 and 4 cards from the other player; a penalty card laid while paying \
        passes a new demand back. A demand paid with no penalty card gives the whole pile to the \
        player who laid the last penalty card, under their hand in the order laid, and they lead \
        the next trick. The game ends when one player holds every card; a player who must play \
        and has no card loses. More: docs/rules/bmn.md (every rule point) and docs/bmn.md; to \
        watch a game: warsim play bmn --deal 'HAND1/HAND2' --trace, or game I of a run: warsim play \
        bmn --seed S --game I --trace";
    const PLAY_ABOUT: &'static str = "Beggar-my-neighbour: plays the given deal, or game I of a \
        seed's run (--seed S --game I); prints the winner, cards and tricks, or the loop";
    const EXAMPLE: &'static [&'static str] = &["--ranks", "6", "--suits", "2"];
    const PLAY_EXAMPLE: &'static [&'static str] = &["--seed", "1", "--game", "2"];
    type PlayArgs = PlayBmn;

    /// Plays given hands, or game I of seed S as `simulate` deals it.
    fn play_command(args: &PlayBmn, io: &mut PlayIo) -> anyhow::Result<PlayReport> {
        play(args, io)
    }
}

/// The arguments of `play bmn`.
#[derive(Clone, Debug, Default, clap::Args, serde::Serialize, serde::Deserialize)]
pub struct PlayBmn {
    /// The hands, HAND1/HAND2, top card first: - for a card that is not J, Q, K or A (full
    /// card names also read: 10, 7s, Kh ...). Or the digit notation of Camicia's players: one
    /// digit per card, the card's demand (0: none), player 1's half then player 2's, no
    /// separator (under --rules camicia also each hand's digits joined by /, hands of any
    /// sizes). Player 1 leads. Without it, a random deal: game I of seed S (--seed, --game), as
    /// simulate bmn --seed S deals it.
    #[arg(long, value_name = "HAND1/HAND2", allow_hyphen_values = true)]
    pub deal: Option<String>,
    /// Without --deal: the base seed of the run the game belongs to [default: 0].
    #[arg(long, value_name = "S", conflicts_with = "deal")]
    pub seed: Option<u64>,
    /// Without --deal: the index of the game in the run (0-based) [default: 0]; `simulate bmn
    /// --json` names its longest as `longest_game`.
    #[arg(long, value_name = "I", conflicts_with = "deal")]
    pub game: Option<u64>,
    #[command(flatten)]
    #[serde(flatten)]
    #[allow(missing_docs)]
    pub rules: BmnSettings,
}

/// Plays the deal of `args` (given, or game I of seed S); prints the winner with the cards and
/// tricks, or the loop, after the deal played when it was drawn; `--trace` streams the deal,
/// then one line per trick: who took how many cards, and both hands after it.
fn play(args: &PlayBmn, io: &mut PlayIo) -> anyhow::Result<PlayReport> {
    let game = Bmn::from_settings(&args.rules)?;
    let (hands, drawn) = dealt(&game, args)?;
    let mut sink = LineSink::new(&mut *io.out);
    let trace = io.trace;
    // The trace opens with the deal, as War's does: each trick's line shows the hands after it.
    // A write that fails here fails the trick lines after it too, which stops the game, and
    // `finish` reports it.
    if trace {
        let _ = sink.line(&format!(
            "deal     {}",
            game.show_hands(&hands[0], &hands[1])
        ));
    }
    let mut n = 0u64;
    let mut line = |p: &Position, t: &Trick, cards: u64| {
        n += 1;
        if !trace {
            return ControlFlow::Continue(());
        }
        sink.line(&format!(
            "trick {n:>5}  card {cards:>6}  p{} takes {:>2}  {}/{}",
            t.taker + 1,
            t.taken,
            game.show(p.hands()[0].cards()),
            game.show(p.hands()[1].cards()),
        ))
    };
    let played = game.play_hands(&hands, &mut line)?;
    sink.finish()?;
    let players = match played.outcome {
        Outcome::Player(p) => vec![u32::from(p) + 1],
        _ => vec![1, 2],
    };
    let mut report = PlayReport::new(
        Bmn::NAME,
        played.outcome.name(),
        played.cards,
        players.clone(),
    )
    .with_cycle(played.cycle.map(|c| c.0));
    let extra = &mut report.extra;
    extra.insert("tricks".into(), played.tricks.into());
    if let Some((_, tricks)) = played.cycle {
        extra.insert("cycle_tricks".into(), tricks.cycle_len.into());
        extra.insert("loop_from_tricks".into(), tricks.loop_from.into());
    }
    let ending = ending(&played);
    let Some((seed, index, deal)) = drawn else {
        // The deal as warsim writes it (a given one may have been written otherwise).
        extra.insert("deal".into(), game.show_hands(&hands[0], &hands[1]).into());
        return Ok(report.with_text(ending));
    };
    extra.insert("seed".into(), seed.into());
    extra.insert("index".into(), index.into());
    extra.insert("deal".into(), deal.clone().into());
    let options = match rule_flags(game.rules()) {
        o if o.is_empty() => o,
        o => format!(" {o}"),
    };
    Ok(report.with_text(format!(
        "bmn, game {index} of seed {seed}: {}\n\
         deal {deal} (warsim play bmn{options} --deal '{deal}' plays it again)\n{ending}",
        game.describe()
    )))
}

/// A drawn deal: the seed, the game's index and the deal as `--deal` reads it.
type Drawn = (u64, u64, String);

/// The hands `args` ask for: given (`--deal`), or drawn as game I of seed S.
fn dealt(game: &Bmn, args: &PlayBmn) -> anyhow::Result<([Vec<u8>; 2], Option<Drawn>)> {
    if let Some(deal) = &args.deal {
        if args.seed.is_some() || args.game.is_some() {
            return Err(warsim_core::usage_of![
                warsim_core::error::setting_alone("deal"),
                " plays the hands given; ",
                warsim_core::error::setting_alone("seed"),
                " and ",
                warsim_core::error::setting_alone("game"),
                " choose a drawn deal instead: give one or the other",
            ]
            .into());
        }
        return Ok((game.parse_deal(deal)?, None));
    }
    let (seed, index) = (args.seed.unwrap_or(0), args.game.unwrap_or(0));
    let deck = game.deal_of(seed, index);
    let half = deck.len() / 2;
    let shown = game.show_deal(&deck);
    Ok((
        [deck[..half].to_vec(), deck[half..].to_vec()],
        Some((seed, index, shown)),
    ))
}

/// The settings of `rules` that differ from the defaults as this command line's flags
/// (`--ranks 10 --penalties 1,2,3,0`), so that a deal found under them replays under them.
pub fn rule_flags(rules: &BmnRules) -> String {
    let flags: Vec<String> = changed_settings(rules)
        .iter()
        .map(|(name, value)| format!("{} {value}", crate::error::flag(name)))
        .collect();
    flags.join(" ")
}

/// The line that says how the game ended: the loop, the winner, or the cap.
fn ending(played: &crate::games::bmn::Played) -> String {
    match (played.outcome, played.cycle) {
        (Outcome::Loop, Some((cards, tricks))) => format!(
            "loop: the position before trick {} comes back {} ({}) later; it never ends",
            grouped(tricks.loop_from + 1),
            counted(tricks.cycle_len, "trick"),
            counted(cards.cycle_len, "card")
        ),
        (Outcome::Player(p), _) => format!(
            "player {} wins after {}, {}",
            p + 1,
            counted(played.cards, "card"),
            counted(played.tricks, "trick")
        ),
        _ => format!(
            "capped after {}, {}",
            counted(played.cards, "card"),
            counted(played.tricks, "trick")
        ),
    }
}
