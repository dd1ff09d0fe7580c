//! War's rule settings, presets and the rule set, each setting declared once as asked
//! ([`WarSettings`]) and once as played ([`WarRules`]); `resolve.rs` turns the one into the other.

use crate::error::Op;
use crate::usage_of;
use serde::{Deserialize, Serialize};

#[cfg(feature = "clap")]
use crate::settings::clap_values::choice;

use crate::error::UsageError;
use crate::games::cards::Card;
use crate::games::Game;
use crate::settings::setting_name;

/// Largest deck we deal: hands are fixed-capacity ring buffers of this many cards at most.
pub const MAX_DECK: usize = 4096;
/// The round cap with loop detection on: a safety net only (cycles of 200,000+ rounds occur).
pub const DETECTING_MAX_ROUNDS: u64 = 10_000_000;
/// The round cap of the `classic` preset without loop detection.
pub const CLASSIC_MAX_ROUNDS: u64 = 100_000;
/// The R program's `max_games`.
pub const BRYER_MAX_ROUNDS: u64 = 2_000;
/// Most players `--players` takes: kbWar's limit of 26 (two cards each from one deck).
pub const MAX_PLAYERS: u32 = 26;

crate::choice! {
    /// A named rule set; explicit options override its settings.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
    #[serde(rename_all = "kebab-case")]
    pub enum Preset {
        /// Shuffled hands, 3 down, `last-card`, `shuffled` pickup, cap 100,000 rounds.
        Classic,
        /// The R program of deck War's rules document (docs/rules/war.md; docs/war.md, "The
        /// `bryer` preset against the seed document"): its deal,
        /// its short-war check, its pickup order and its cap of 2,000 rounds; no loop detection
        /// (the R program has none).
        Bryer,
    }
}

crate::choice! {
    /// What happens at a war to a player who has too few cards for it.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
    #[serde(rename_all = "kebab-case")]
    pub enum ShortWar {
        /// A player who cannot lay `war_down` cards plus a face-up card loses the game; if both
        /// cannot, the game is a draw.
        Lose,
        /// A short player lays what they can face down and turns their last card face up; a player
        /// with no card left at all loses (both: draw).
        LastCard,
        /// The R program's check: as `lose`, but player 1 is checked first, so when both are short
        /// player 1 loses.
        Bryer,
    }
}

crate::choice! {
    /// Where won cards go.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
    #[serde(rename_all = "kebab-case")]
    pub enum Pickup {
        /// Under the winner's hand in random order.
        Shuffled,
        /// Under the winner's hand: player 1's cards in play order, then player 2's.
        P1First,
        /// The winner's cards first (in play order), then the loser's.
        WinnerFirst,
        /// The loser's cards first (in play order), then the winner's.
        LoserFirst,
        /// In the order laid on the table, alternating card by card, player 1 first (within each
        /// war level; a short player's missing cards are skipped).
        Table,
        /// Onto the winner's separate won pile, which is shuffled and becomes the hand when the
        /// hand runs out.
        WonPile,
        /// The R program's order: the deciding battle's winner card, then its loser card, then each
        /// war level from the innermost out, player 1's cards then player 2's.
        Bryer,
        /// kbWar's fixed order (its published runs of July 2015): the cards as kbWar lays them
        /// (each level's face-up cards, player 1's then player 2's, then the face-down cards laid
        /// after them, player 1's then player 2's), taken from the bottom, so the last card laid
        /// goes under the hand first; a plain battle gives player 2's card, then player 1's.
        Kbwar,
    }
}

crate::choice! {
    /// `--won-pile`: where a deterministic pickup puts won cards. Not given, they go straight under
    /// the winner's hand; given, onto a won pile of the winner's own, which becomes the hand when
    /// the hand runs out (`--pickup won-pile` is the shuffled one). Every count of a player's cards
    /// (a short war's, the game's end) includes their won pile.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
    #[serde(rename_all = "kebab-case")]
    pub enum WonPile {
        /// Played in the order won: the same game as cards put straight under the hand (a test
        /// plays it beside a model that keeps the pile apart), offered because peers describe
        /// their rules so.
        Kept,
        /// Turned over when it becomes the hand, so the card won last is played first
        /// (sambecker/rustwar's unshuffled game, whose won pile is a stack).
        Reversed,
    }
}

impl Preset {
    /// The settings the preset stands for, where the settings asked leave them out (merged by
    /// [`WarRules::try_from`]): its short-war check, its pickup and its deal, and War's 3
    /// cards down. The deck's size, the cap and loop detection have defaults that depend on
    /// other settings, resolved there.
    pub fn settings(self) -> WarSettings {
        let (short_war, pickup, deal) = match self {
            Preset::Classic => (ShortWar::LastCard, Pickup::Shuffled, DealOrder::Shuffled),
            Preset::Bryer => (ShortWar::Bryer, Pickup::Bryer, DealOrder::Bryer),
        };
        WarSettings {
            war_down: Some(3),
            short_war: Some(short_war),
            pickup: Some(pickup),
            deal: Some(setting_name(deal)),
            ..WarSettings::default()
        }
    }
}

impl Pickup {
    /// Whether play after the deal draws no randomness, so a game can cycle forever.
    pub fn is_deterministic(self) -> bool {
        !matches!(self, Pickup::Shuffled | Pickup::WonPile)
    }
}

/// How the deck is split between the players.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DealOrder {
    /// The whole deck shuffled; player 1 takes the first half, player 2 the second.
    Shuffled,
    /// R's `sample(52, 26)`: player 1 gets half the cards drawn at random in random order,
    /// player 2 the rest in the original deck order (1..R, 1..R, …).
    Bryer,
    /// Each player one copy of every rank per two suits, each hand shuffled.
    Even,
}

crate::choice! {
    /// `--by`: a grouping of the games by what a player is dealt, each group with its own tallies.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
    #[serde(rename_all = "kebab-case")]
    pub enum By {
        /// The number of cards of the highest rank player 1 is dealt (0..suits).
        P1Top,
    }
}

impl By {
    /// What the groups count, for labels.
    pub fn meaning(self) -> &'static str {
        match self {
            By::P1Top => "top-rank cards player 1 is dealt",
        }
    }

    /// The group of a game whose player 1 was dealt `hand`, with `ranks` ranks.
    #[inline]
    pub fn group(self, hand: impl Iterator<Item = Card>, ranks: u32) -> u16 {
        match self {
            By::P1Top => hand.filter(|&c| u32::from(c) == ranks).count() as u16,
        }
    }
}

/// A list of ranks (`--p1-cards`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Ranks(pub Vec<Card>);

impl std::fmt::Display for Ranks {
    /// The ranks separated by spaces, as `FromStr` reads them.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let ranks: Vec<String> = self.0.iter().map(u8::to_string).collect();
        f.write_str(&ranks.join(" "))
    }
}

impl std::str::FromStr for Ranks {
    type Err = String;

    /// Ranks separated by spaces or commas.
    fn from_str(text: &str) -> Result<Ranks, String> {
        let cards: Vec<Card> = text
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|t| !t.is_empty())
            .map(|t| {
                t.parse::<Card>()
                    .map_err(|_| format!("{t:?} is not a rank number"))
            })
            .collect::<Result<_, _>>()?;
        if cards.is_empty() {
            return Err("player 1 needs at least one card".into());
        }
        Ok(Ranks(cards))
    }
}

crate::choice! {
    /// `--detect-loops`.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
    #[serde(rename_all = "kebab-case")]
    pub enum DetectLoops {
        /// On for deterministic rule sets, off otherwise (the `bryer` preset: off).
        Auto,
        /// Report a repeated state as outcome `loop` (deterministic pickups only).
        On,
        /// Play to the round cap.
        Off,
    }
}

/// The rule settings of a War run as asked, each declared once: the command line's flags (their
/// help is the doc comments) and Python's keyword arguments. Each `None` takes its preset's
/// ([`WarRules::try_from`] checks them).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
pub struct WarSettings {
    /// Rule preset; the options below override its settings.
    ///
    /// [default: classic]
    #[cfg_attr(feature = "clap", arg(long = "rules", value_parser = choice::<Preset>()))]
    #[serde(rename = "rules")]
    pub preset: Option<Preset>,
    /// Number of ranks (cards are ranks 1..R; higher beats lower) [default: 13].
    #[cfg_attr(feature = "clap", arg(long, value_name = "R"))]
    pub ranks: Option<u32>,
    /// Number of suits (copies of each rank) [default: 4].
    #[cfg_attr(feature = "clap", arg(long, value_name = "S"))]
    pub suits: Option<u32>,
    /// Face-down cards per war [default: 3].
    #[cfg_attr(feature = "clap", arg(long, value_name = "K"))]
    pub war_down: Option<u32>,
    /// A player without enough cards for a war: loses, or plays their last card face up
    /// [default: the preset's: last-card (classic), bryer (bryer)].
    #[cfg_attr(feature = "clap", arg(long, value_parser = choice::<ShortWar>()))]
    pub short_war: Option<ShortWar>,
    /// Order in which won cards go under the winner's hand [default: the preset's: shuffled
    /// (classic), bryer (bryer)].
    #[cfg_attr(feature = "clap", arg(long, value_parser = choice::<Pickup>()))]
    pub pickup: Option<Pickup>,
    /// Won cards go onto a won pile that becomes the hand when it runs out, played in the
    /// order won or turned over (with a deterministic --pickup, which orders each battle's
    /// cards onto it) [default: none: under the hand].
    #[cfg_attr(feature = "clap", arg(long, value_parser = choice::<WonPile>()))]
    pub won_pile: Option<WonPile>,
    /// Report repeated states of deterministic rule sets as outcome `loop` [default: auto].
    #[cfg_attr(feature = "clap", arg(long, value_parser = choice::<DetectLoops>()))]
    pub detect_loops: Option<DetectLoops>,
    /// Stop an undecided game after this many rounds (outcome `capped`) [default: 100000;
    /// 10000000 with loop detection; 2000 for bryer].
    #[cfg_attr(feature = "clap", arg(long, value_name = "M", allow_negative_numbers = true,
        value_parser = crate::settings::parse_rounds))]
    pub max_rounds: Option<u64>,
    /// How the deck is dealt: shuffled (the preset's; bryer: R's deal), even (each player one
    /// copy of every rank per two suits, each hand shuffled); for `play war` also the hands
    /// themselves, "A1 A2 .../B1 B2 ...", ranks 1..R, top card first.
    #[cfg_attr(feature = "clap", arg(long, value_name = "DEAL", value_parser = parse_deal_setting))]
    pub deal: Option<String>,
    /// Player 1 is dealt exactly these ranks (in random order), player 2 the rest of the deck:
    /// e.g. "13 13 13 13" (the four aces against the other 48 cards).
    #[cfg_attr(feature = "clap", arg(long, value_name = "RANKS", value_parser = str::parse::<Ranks>))]
    #[serde(with = "crate::settings::as_text")]
    pub p1_cards: Option<Ranks>,
    /// When the deciding face-up cards differ by K ranks or fewer, the losing card leaves the
    /// game (1: honorable War, 2: doubly honorable).
    #[cfg_attr(feature = "clap", arg(long, value_name = "K"))]
    pub honor: Option<u32>,
    /// Also tally every statistic per group of games: p1-top groups by the number of cards of
    /// the highest rank player 1 is dealt.
    #[cfg_attr(feature = "clap", arg(long, value_parser = choice::<By>()))]
    pub by: Option<By>,
    /// Number of players, 2 to 26 [default: 2]. With 3 or more, every player still in the game
    /// turns a card, the highest takes all, a tie for the highest is a war among the tied
    /// players only; docs/war.md, "War with more than two players", states every rule point.
    #[cfg_attr(feature = "clap", arg(long, value_name = "N"))]
    pub players: Option<u32>,
    /// Also tally "when can we quit?": player 1's wins by the cards they hold after 10, 20,
    /// 50, 100, 200 and 400 rounds, and the most cards the loser ever held (summary key
    /// `quit`, quit.csv, quit.png). Plays every round by the general path: slower.
    #[cfg_attr(feature = "clap", arg(long))]
    pub quit_stats: bool,
}

/// `deal`: a way of dealing, or (for `play` of War) the hands themselves. The error names the
/// operation as an operation ([`Op`]), which a value parser's message says as words.
pub fn parse_deal_setting(text: &str) -> Result<String, UsageError> {
    if text.contains('/') || matches!(text, "shuffled" | "even" | "bryer") {
        Ok(text.to_string())
    } else {
        Err(usage_of![
            "expected shuffled or even (or, for ",
            Op::Play.of(super::War::NAME),
            ", hands \"A1 A2 .../B1 B2 ...\")",
        ])
    }
}

/// Every rule setting of a War run, preset expanded; serialised as the JSON `rules` object.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WarRules {
    /// The preset the settings started from.
    pub preset: Preset,
    /// Number of ranks.
    pub ranks: u32,
    /// Copies of each rank.
    pub suits: u32,
    /// Face-down cards per war.
    pub war_down: u32,
    /// Treatment of a player short of cards at a war.
    pub short_war: ShortWar,
    /// Order of won cards.
    pub pickup: Pickup,
    /// A won pile of a deterministic pickup (absent from the JSON of runs without one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub won_pile: Option<WonPile>,
    /// How the deck is dealt.
    pub deal: DealOrder,
    /// Whether repeated states end the game as `loop`.
    pub detect_loops: bool,
    /// Round cap (outcome `capped`).
    pub max_rounds: u64,
    /// The ranks player 1 is dealt, ascending (player 2 gets the rest), if fixed.
    #[serde(default)]
    pub p1_cards: Option<Vec<Card>>,
    /// A losing face-up card within this many ranks of the winner leaves the game.
    #[serde(default)]
    pub honor: Option<u32>,
    /// The grouping of the games' statistics, if any.
    #[serde(default)]
    pub by: Option<By>,
    /// Number of players. Left out of the JSON `rules` object when 2, so that every two-player
    /// summary reads as it did before `--players` existed.
    #[serde(default = "two_players", skip_serializing_if = "is_two_players")]
    pub players: u32,
    /// Whether the "when can we quit?" tally is kept (`--quit-stats`); absent from the JSON
    /// when off, so the rules of every other run read as before.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub quit_stats: bool,
}

fn two_players() -> u32 {
    2
}

fn is_two_players(players: &u32) -> bool {
    *players == 2
}

impl WarRules {
    /// Whether won cards go onto a won pile of their own, shuffled or turned over when it
    /// becomes the hand, rather than straight under the hand. A pile kept in the order won is
    /// played as cards under the hand, which is the same game (a test plays it beside a model
    /// with the pile apart), and a loop is then a repeat of the cards alone.
    #[inline(always)]
    pub(super) fn keeps_won_pile(&self) -> bool {
        self.pickup == Pickup::WonPile || self.won_pile == Some(WonPile::Reversed)
    }

    /// How many cards each player lays face down at the next level of a war, holding `held`
    /// cards; or, when a short player ends the game there, `Err` of the winner (`None`: a
    /// draw). The general round and the hot loop's wars both ask here.
    #[inline(always)]
    pub(super) fn face_down(&self, held: [usize; 2]) -> Result<[usize; 2], Option<usize>> {
        let k = self.war_down as usize;
        match self.short_war {
            ShortWar::Lose | ShortWar::Bryer => match [held[0] <= k, held[1] <= k] {
                [false, false] => Ok([k, k]),
                // `bryer` checks player 1 first, so both short is player 1's loss.
                [true, true] if self.short_war == ShortWar::Lose => Err(None),
                [true, _] => Err(Some(1)),
                _ => Err(Some(0)),
            },
            ShortWar::LastCard => match held {
                [0, 0] => Err(None),
                [0, _] => Err(Some(1)),
                [_, 0] => Err(Some(0)),
                [h0, h1] => Ok([k.min(h0 - 1), k.min(h1 - 1)]),
            },
        }
    }
}
