//! War's command-line face: `simulate war`'s rule flags and `play war`, which replays a game of
//! a run (`--seed --game`, or `--from` a run folder) or plays given hands.

use crate::error::about;
use crate::error::UsageError;
use crate::face::{GameCli, LineSink, PlayIo, PlayReport};
use crate::games::cards::Card;
pub use crate::games::war::War;
use crate::games::war::{multi, parse_deal, parse_hands, trace, WarRules, WarSettings};
use crate::games::{Game, GameResult, Trace};
use crate::model::load::Replaying;
use warsim_core::error::{setting, setting_alone};
use warsim_core::usage_of;

/// The arguments of `play war`.
#[derive(Clone, Debug, Default, clap::Args, serde::Serialize, serde::Deserialize)]
pub struct PlayWar {
    /// Rule options (as for `simulate war`).
    #[command(flatten)]
    #[serde(flatten)]
    pub rules: WarSettings,
    /// Base seed of the run the game belongs to [default: 0].
    #[arg(long, value_name = "S", conflicts_with = "from")]
    pub seed: Option<u64>,
    /// Index of the game in the run (0-based) [default: 0, or with --from the run's longest].
    /// To play given hands instead, pass them as --deal "A1 A2 .../B1 B2 ...".
    #[arg(long, value_name = "I")]
    pub game: Option<u64>,
    /// Replay a game of the run written in DIR: its seed and every rule setting come from
    /// DIR/summary.json (e.g. `play war --from out/war --trace` replays its longest game).
    #[arg(long, value_name = "DIR")]
    pub from: Option<std::path::PathBuf>,
}

/// What a `--from DIR` replay plays: the seed, the rules, which game
/// ([`crate::model::load::Replaying`]), and for a run of `exact` (whose game i is deal number i, not
/// a random deal) that deal's hands. The run is read back and checked as `merge` reads it, so
/// a replay never starts from rules or indices the run could not have.
type FromRun = (u64, WarRules, Replaying, Option<[Vec<Card>; 2]>);

fn from_run(dir: &std::path::Path, game: Option<u64>) -> Result<FromRun, UsageError> {
    let part = crate::model::load::load::<War>(dir).map_err(|e| about("from", e))?;
    let replaying = part.replaying(game).map_err(|e| about("from", e))?;
    let hands = replaying
        .deal
        .then(|| part.game.deal_hands(replaying.index))
        .flatten();
    Ok((part.info.seed, part.game.rules().clone(), replaying, hands))
}

/// How many cards given hands hold, where they are not the whole deck dealt evenly: ` (5 of
/// the deck's 52 cards: 3 and 2)`, so that a title naming the deck (`13×4 cards`) does not
/// pass for the game's; empty for the whole deck in equal hands.
fn dealt_text(hands: &str, rules: &WarRules) -> Result<String, UsageError> {
    let sizes: Vec<usize> = parse_hands(hands, rules)?.iter().map(Vec::len).collect();
    let dealt: usize = sizes.iter().sum();
    let deck = u64::from(rules.ranks) * u64::from(rules.suits);
    let even = sizes.iter().all(|&n| n == sizes[0]);
    let each = if even {
        format!("{} each", sizes[0])
    } else {
        let shown: Vec<String> = sizes.iter().map(usize::to_string).collect();
        let (last, rest) = shown.split_last().expect("two hands or more");
        format!("{} and {last}", rest.join(", "))
    };
    Ok(match (dealt as u64 == deck, even) {
        (true, true) => String::new(),
        (true, false) => format!(" ({dealt} cards: {each})"),
        _ => format!(" ({dealt} of the deck's {deck} cards: {each})"),
    })
}

/// Which game `play war` played and under which rules, as its text output's first line says
/// it, so that a replay printed or saved says what it replays (`--json` has the same as keys:
/// `index`, `seed`, `rules`); given hands are `(hands, dealt_text)`.
fn played_text(
    given_hands: Option<(&str, String)>,
    r: &Replaying,
    seed: u64,
    from: Option<&std::path::Path>,
    rules: &str,
) -> String {
    let which = if let Some((hands, dealt)) = given_hands {
        format!("the hands {hands}{dealt}")
    } else if r.deal {
        format!("deal number {} of every deal", r.index)
    } else {
        format!("game {} of seed {seed}", r.index)
    };
    match from {
        Some(dir) => {
            let longest = if r.said.is_some() {
                ", its longest"
            } else {
                ""
            };
            format!(
                "war, {which} (the run in {}{longest}): {rules}",
                dir.display()
            )
        }
        None => format!("war, {which}: {rules}"),
    }
}

impl GameCli for War {
    const ABOUT: &'static str = "Deck War: the higher card takes the battle; a tie starts a war";
    const RULES: &'static str = "Rules: two players each turn up their top card; the higher \
        rank takes both, under its hand in the order --pickup says. Equal ranks start a war: each \
        lays --war-down cards face down and one face up, and the higher face-up card takes every \
        card laid (another tie: another war). A player who runs out of cards loses. --players N \
        (3 to 26): everyone still in turns a card, and a tie for the highest is a war among the \
        tied players only. Every rule point, with the worked examples of the rules document War \
        was specified from: docs/rules/war.md; the presets, each option and what it changes, \
        the bryer preset against its R program, more than two players: docs/war.md. To watch \
        the rules at work: warsim play war --ranks 4 --suits 1 --pickup p1-first \
        --deal \"1 3/4 2\" --trace";
    const PLAY_ABOUT: &'static str = "Deck War: replay game I of a run, or play a given deal";
    const EXAMPLE: &'static [&'static str] =
        &["--ranks", "3", "--suits", "4", "--pickup", "p1-first"];
    const PLAY_EXAMPLE: &'static [&'static str] = &[];
    type PlayArgs = PlayWar;

    /// Replays game I of a run (`--seed S --game I` with the run's rule options), or plays a
    /// given `--deal`; prints who won in which round, or the loop.
    fn play_command(args: &PlayWar, io: &mut PlayIo) -> anyhow::Result<PlayReport> {
        let hands = args.rules.deal.as_deref().filter(|d| d.contains('/'));
        let chosen = choose(args, hands)?;
        let rules_json = serde_json::to_value(&chosen.rules)?;
        let given = hands
            .map(|h| Ok::<_, UsageError>((h, dealt_text(h, &chosen.rules)?)))
            .transpose()?;
        let played = played_text(
            given,
            &chosen.replaying,
            chosen.seed,
            args.from.as_deref(),
            &War::new(chosen.rules.clone())?.describe(),
        );
        let (seed, index) = (chosen.seed, chosen.replaying.index);
        let mut rng = io.game_rng(seed, index);
        let (trace, names, cancel) = (io.trace, io.names, io.cancel);
        let mut sink = LineSink::new(&mut *io.out);
        let mut line = |l: String| sink.line(&l);
        let tracer: Option<Trace> = if trace { Some(&mut line) } else { None };
        let game = play_chosen(
            chosen.rules,
            hands,
            chosen.dealt,
            &mut rng,
            (tracer, names),
            cancel,
        )?;
        sink.finish()?;
        if let Some(dir) = &args.from {
            (chosen.replaying)
                .check(dir, game.result.rounds)
                .map_err(|e| about("from", e))?;
        }
        let mut report = report_of(&game, &played);
        let extra = &mut report.extra;
        extra.insert("rules".into(), rules_json);
        extra.insert("seed".into(), seed.into());
        extra.insert("index".into(), hands.is_none().then_some(index).into());
        Ok(report)
    }
}

/// The game `play war` plays: its seed, rules, which game of the run, and the hands of a
/// run's deal read back (`--from` an exact run).
struct Chosen {
    seed: u64,
    rules: WarRules,
    replaying: Replaying,
    dealt: Option<[Vec<Card>; 2]>,
}

/// The game `args` ask for, after refusing the combinations that ask for two (given hands and
/// a game of a run, rules with `--from`) or for a tally of many (`--quit-stats`).
fn choose(args: &PlayWar, hands: Option<&str>) -> anyhow::Result<Chosen> {
    if hands.is_some() && (args.game.is_some() || args.from.is_some()) {
        return Err(usage_of![
            setting_alone("deal"),
            " with hands plays those hands; ",
            setting_alone("game"),
            " and ",
            setting_alone("from"),
            " choose a game of a run instead: give one or the other",
        ]
        .into());
    }
    if args.seed.is_some() && args.from.is_some() {
        return Err(usage_of![
            setting_alone("seed"),
            " with ",
            setting_alone("from"),
            ": the run read from it has its own seed; give one or the other",
        ]
        .into());
    }
    if args.rules.quit_stats {
        return Err(usage_of![
            setting_alone("quit_stats"),
            " tallies the games of a run; play war plays one game: use simulate war ",
            setting_alone("quit_stats"),
        ]
        .into());
    }
    let Some(dir) = &args.from else {
        return Ok(Chosen {
            seed: args.seed.unwrap_or(0),
            rules: WarRules::try_from(&args.rules)?,
            replaying: Replaying {
                index: args.game.unwrap_or(0),
                deal: false,
                said: None,
            },
            dealt: None,
        });
    };
    if args.rules != WarSettings::default() {
        return Err(usage_of![
            setting("from", dir.display()),
            " takes every rule setting from that run; drop the rule options",
        ]
        .into());
    }
    let (seed, rules, replaying, dealt) = from_run(dir, args.game)?;
    Ok(Chosen {
        seed,
        rules,
        replaying,
        dealt,
    })
}

/// One game played: its result, the players left, and with three players or more the order
/// they went out in.
struct PlayedWar {
    result: GameResult<crate::games::war::WarGame>,
    left: Vec<u32>,
    eliminated: Option<Vec<(u32, u64)>>,
}

/// Plays the chosen game: given `hands`, a run's `dealt` hands, or the deal `rng` draws; its
/// trace, if any, names the cards if asked.
fn play_chosen(
    rules: WarRules,
    hands: Option<&str>,
    dealt: Option<[Vec<Card>; 2]>,
    rng: &mut crate::rng::GameRng,
    tracer: (Option<Trace>, bool),
    cancel: &crate::cancel::Cancel,
) -> anyhow::Result<PlayedWar> {
    if rules.players > 2 {
        let given = hands.map(|h| parse_hands(h, &rules)).transpose()?;
        let g = multi::play(rules, given.as_deref(), rng, tracer)?;
        return Ok(PlayedWar {
            result: g.result,
            left: g.left,
            eliminated: Some(g.eliminated),
        });
    }
    let result = match (hands, dealt) {
        (Some(deal), _) => {
            let hands = parse_deal(deal, &rules)?;
            War::play_deal(rules, [&hands[0], &hands[1]], rng, tracer, cancel)?
        }
        (None, Some(h)) => War::play_deal(rules, [&h[0], &h[1]], rng, tracer, cancel)?,
        (None, None) => {
            (War::new(rules)?.with_card_names(tracer.1)).play_traced(rng, tracer.0, cancel)?
        }
    };
    Ok(PlayedWar {
        result,
        left: result.outcome.two_players_left(),
        eliminated: None,
    })
}

/// A game's wars in words: `with no war`, `with 18 wars (never two in a row)`, `with 2 wars
/// (up to 2 in a row)`: `deepest` is the most wars one battle needed.
fn wars_text(wars: u32, deepest: u32) -> String {
    let in_a_row = match deepest {
        0 => return "with no war".into(),
        1 => "never two in a row".to_string(),
        d => format!("up to {d} in a row"),
    };
    format!(
        "with {} ({in_a_row})",
        crate::stats::summary::counted(u64::from(wars), "war")
    )
}

/// The report of a game played: its line (`played`, then the ending, the wars and, with three
/// players or more, the order they went out in) and its JSON keys.
fn report_of(game: &PlayedWar, played: &str) -> PlayReport {
    let out_text = game.eliminated.as_ref().map_or(String::new(), |out| {
        let order: Vec<String> = (out.iter())
            .map(|(p, round)| format!("p{p} (round {round})"))
            .collect();
        let order = if order.is_empty() {
            "none".to_string()
        } else {
            order.join(", ")
        };
        format!("; out in order: {order}")
    });
    let result = &game.result;
    let (o, stats) = (result.outcome, result.stats);
    let mut report = PlayReport::new(War::NAME, o.name(), result.rounds, game.left.clone())
        .with_cycle(result.cycle)
        .with_text(format!(
            "{played}\n{}, {}{out_text}",
            trace::ending_text(result),
            wars_text(stats.wars, stats.deepest)
        ));
    let extra = &mut report.extra;
    extra.insert("wars".into(), stats.wars.into());
    extra.insert("deepest_war".into(), stats.deepest.into());
    if let Some(out) = &game.eliminated {
        let out: Vec<serde_json::Value> = (out.iter())
            .map(|(p, round)| serde_json::json!({"player": p, "round": round}))
            .collect();
        extra.insert("eliminated".into(), out.into());
    }
    report
}
