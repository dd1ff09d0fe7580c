//! War's command-line face: `simulate war`'s rule flags and `play war`, which replays a game of
//! a run (`--seed --game`, or `--from` a run folder) or plays given hands.

use crate::error::UsageError;
use crate::face::{choice, GameCli, IntoOptions, LineSink, PlayIo, PlayReport};
use crate::games::cards::Card;
pub use crate::games::war::War;
use crate::games::war::{
    multi, parse_deal, parse_hands, trace, By, DetectLoops, Pickup, Preset, Ranks, ShortWar,
    WarOptions, WarRules, WonPile,
};
use crate::games::{Game, Trace};
use crate::model::load::Replaying;
use crate::usage;

/// The rule flags of `simulate war` and `play war`.
#[derive(Clone, Debug, Default, PartialEq, Eq, clap::Args)]
pub struct WarFlags {
    /// Rule preset; the options below override its settings.
    ///
    /// [default: classic]
    #[arg(long = "rules", value_parser = choice::<Preset>())]
    pub preset: Option<Preset>,
    /// Number of ranks (cards are ranks 1..R; higher beats lower) [default: 13].
    #[arg(long, value_name = "R")]
    pub ranks: Option<u32>,
    /// Number of suits (copies of each rank) [default: 4].
    #[arg(long, value_name = "S")]
    pub suits: Option<u32>,
    /// Face-down cards per war [default: 3].
    #[arg(long, value_name = "K")]
    pub war_down: Option<u32>,
    /// A player without enough cards for a war: loses, or plays their last card face up
    /// [default: the preset's: last-card (classic), bryer (bryer)].
    #[arg(long, value_parser = choice::<ShortWar>())]
    pub short_war: Option<ShortWar>,
    /// Order in which won cards go under the winner's hand [default: the preset's: shuffled
    /// (classic), bryer (bryer)].
    #[arg(long, value_parser = choice::<Pickup>())]
    pub pickup: Option<Pickup>,
    /// Won cards go onto a won pile that becomes the hand when it runs out, played in the
    /// order won or turned over (with a deterministic --pickup, which orders each battle's
    /// cards onto it) [default: none: under the hand].
    #[arg(long, value_parser = choice::<WonPile>())]
    pub won_pile: Option<WonPile>,
    /// Report repeated states of deterministic rule sets as outcome `loop` [default: auto].
    #[arg(long, value_parser = choice::<DetectLoops>())]
    pub detect_loops: Option<DetectLoops>,
    /// Stop an undecided game after this many rounds (outcome `capped`) [default: 100000;
    /// 10000000 with loop detection; 2000 for bryer].
    #[arg(long, value_name = "M", allow_negative_numbers = true,
          value_parser = |t: &str| crate::face::parse_count(t, "rounds"))]
    pub max_rounds: Option<u64>,
    /// How the deck is dealt: shuffled (the preset's; bryer: R's deal), even (each player one
    /// copy of every rank per two suits, each hand shuffled); for `play war` also the hands
    /// themselves, "A1 A2 .../B1 B2 ...", ranks 1..R, top card first.
    #[arg(long, value_name = "DEAL", value_parser = parse_deal_option)]
    pub deal: Option<String>,
    /// Player 1 is dealt exactly these ranks (in random order), player 2 the rest of the deck:
    /// e.g. "13 13 13 13" (the four aces against the other 48 cards).
    #[arg(long, value_name = "RANKS", value_parser = parse_ranks)]
    pub p1_cards: Option<Ranks>,
    /// When the deciding face-up cards differ by K ranks or fewer, the losing card leaves the
    /// game (1: honorable War, 2: doubly honorable).
    #[arg(long, value_name = "K")]
    pub honor: Option<u32>,
    /// Also tally every statistic per group of games: p1-top groups by the number of cards of
    /// the highest rank player 1 is dealt.
    #[arg(long, value_parser = choice::<By>())]
    pub by: Option<By>,
    /// Number of players, 2 to 26 [default: 2]. With 3 or more, every player still in the game
    /// turns a card, the highest takes all, a tie for the highest is a war among the tied
    /// players only; docs/war.md, "War with more than two players", states every rule point.
    #[arg(long, value_name = "N")]
    pub players: Option<u32>,
    /// Also tally "when can we quit?": player 1's wins by the cards they hold after 10, 20,
    /// 50, 100, 200 and 400 rounds, and the most cards the loser ever held (summary key
    /// `quit`, quit.csv, quit.png). Plays every round by the general path: slower.
    #[arg(long)]
    pub quit_stats: bool,
}

flags_to_options!(WarFlags => WarOptions {
    preset, ranks, suits, war_down, short_war, pickup, won_pile, detect_loops, max_rounds, deal,
    p1_cards, honor, by, players, quit_stats,
});

/// `--deal`: a way of dealing, or (for `play war`) the hands themselves.
fn parse_deal_option(text: &str) -> Result<String, String> {
    if text.contains('/') || matches!(text, "shuffled" | "even" | "bryer") {
        Ok(text.to_string())
    } else {
        Err("expected shuffled or even (or, for play war, hands \"A1 A2 .../B1 B2 ...\")".into())
    }
}

/// `--p1-cards`: ranks separated by spaces or commas.
fn parse_ranks(text: &str) -> Result<Ranks, String> {
    text.parse()
}

/// The arguments of `play war`.
#[derive(Clone, Debug, clap::Args)]
pub struct PlayWar {
    /// Rule options (as for `simulate war`).
    #[command(flatten)]
    pub rules: WarFlags,
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
    let part = crate::model::load::load::<War>(dir).map_err(|e| usage!("--from {e}"))?;
    let replaying = part.replaying(game).map_err(|e| usage!("--from {e}"))?;
    let hands = replaying
        .deal
        .then(|| part.game.deal_hands(replaying.index))
        .flatten();
    Ok((part.info.seed, part.game.rules().clone(), replaying, hands))
}

/// Which game `play war` played and under which rules, as its text output's first line says
/// it, so that a replay printed or saved says what it replays (`--json` has the same as keys:
/// `index`, `seed`, `rules`).
fn played_text(
    given_hands: Option<&str>,
    r: &Replaying,
    seed: u64,
    from: Option<&std::path::Path>,
    rules: &str,
) -> String {
    let which = if let Some(hands) = given_hands {
        format!("the hands {hands}")
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
    type Flags = WarFlags;
    type PlayArgs = PlayWar;

    fn flawless(&self) -> Option<&War> {
        Some(self)
    }

    /// Replays game I of a run (`--seed S --game I` with the run's rule options), or plays a
    /// given `--deal`; prints who won in which round, or the loop.
    fn play_command(args: &PlayWar, io: &mut PlayIo) -> anyhow::Result<PlayReport> {
        let hands = args.rules.deal.as_deref().filter(|d| d.contains('/'));
        if hands.is_some() && (args.game.is_some() || args.from.is_some()) {
            return Err(usage!(
                "--deal with hands plays those hands; --game and --from choose a game of a run \
                 instead: give one or the other"
            )
            .into());
        }
        if args.rules.quit_stats {
            return Err(usage!(
                "--quit-stats tallies the games of a run; play war plays one game: use simulate \
                 war --quit-stats"
            )
            .into());
        }
        let (seed, rules, replaying, dealt) = match &args.from {
            Some(dir) => {
                if args.rules != WarFlags::default() {
                    return Err(usage!(
                        "--from {} takes every rule setting from that run; drop the rule options",
                        dir.display()
                    )
                    .into());
                }
                from_run(dir, args.game)?
            }
            None => (
                args.seed.unwrap_or(0),
                WarRules::try_from(&args.rules.options())?,
                Replaying {
                    index: args.game.unwrap_or(0),
                    deal: false,
                    said: None,
                },
                None,
            ),
        };
        let index = replaying.index;
        let rules_json = serde_json::to_value(&rules)?;
        let played = played_text(
            hands,
            &replaying,
            seed,
            args.from.as_deref(),
            &War::new(rules.clone())?.describe(),
        );
        let mut rng = io.game_rng(seed, index);
        let (trace, cancel) = (io.trace, io.cancel);
        let mut sink = LineSink::new(&mut *io.out);
        let mut line = |l: String| sink.line(&l);
        let tracer: Option<Trace> = if trace { Some(&mut line) } else { None };
        // With three players or more, also the order the players went out in.
        let (result, left, eliminated) = if rules.players > 2 {
            let given = hands.map(|h| parse_hands(h, &rules)).transpose()?;
            let g = multi::play(rules, given.as_deref(), &mut rng, tracer)?;
            (g.result, g.left, Some(g.eliminated))
        } else {
            let result = match (hands, dealt) {
                (Some(deal), _) => {
                    let hands = parse_deal(deal, &rules)?;
                    War::play_deal(rules, [&hands[0], &hands[1]], &mut rng, tracer, cancel)?
                }
                (None, Some(h)) => War::play_deal(rules, [&h[0], &h[1]], &mut rng, tracer, cancel)?,
                (None, None) => War::new(rules)?.play_traced(&mut rng, tracer, cancel)?,
            };
            (result, result.outcome.two_players_left(), None)
        };
        sink.finish()?;
        if let Some(dir) = &args.from {
            replaying
                .check(dir, result.rounds)
                .map_err(|e| usage!("--from {e}"))?;
        }
        let out_text = eliminated.as_ref().map_or(String::new(), |out| {
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
        let (o, stats) = (result.outcome, result.stats);
        let mut report = PlayReport::new(Self::NAME, o.name(), result.rounds, left)
            .with_cycle(result.cycle)
            .with_text(format!(
                "{played}\n{} ({}, deepest {}){out_text}",
                trace::ending_text(&result),
                crate::stats::summary::counted(u64::from(stats.wars), "war"),
                stats.deepest
            ));
        let extra = &mut report.extra;
        extra.insert("rules".into(), rules_json);
        extra.insert("seed".into(), seed.into());
        extra.insert("index".into(), hands.is_none().then_some(index).into());
        extra.insert("wars".into(), stats.wars.into());
        extra.insert("deepest_war".into(), stats.deepest.into());
        if let Some(out) = eliminated {
            let out: Vec<serde_json::Value> = (out.into_iter())
                .map(|(p, round)| serde_json::json!({"player": p, "round": round}))
                .collect();
            extra.insert("eliminated".into(), out.into());
        }
        Ok(report)
    }
}
