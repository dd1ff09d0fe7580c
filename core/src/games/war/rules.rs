//! War's rule options, presets and the validated rule set.

use crate::error::{setting, setting_alone};
use crate::usage_of;
use serde::{Deserialize, Serialize};

#[cfg(feature = "clap")]
use crate::settings::clap_values::choice;

use crate::error::UsageError;
use crate::games::cards::Card;
use crate::games::check_max_rounds;
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

/// `deal`: a way of dealing, or (for `play war`) the hands themselves.
pub fn parse_deal_setting(text: &str) -> Result<String, String> {
    if text.contains('/') || matches!(text, "shuffled" | "even" | "bryer") {
        Ok(text.to_string())
    } else {
        Err("expected shuffled or even (or, for play war, hands \"A1 A2 .../B1 B2 ...\")".into())
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

impl TryFrom<&WarSettings> for WarRules {
    type Error = UsageError;

    fn try_from(o: &WarSettings) -> Result<Self, UsageError> {
        let preset = o.preset.unwrap_or(Preset::Classic);
        let (short_war, pickup, deal) = match preset {
            Preset::Classic => (ShortWar::LastCard, Pickup::Shuffled, DealOrder::Shuffled),
            Preset::Bryer => (ShortWar::Bryer, Pickup::Bryer, DealOrder::Bryer),
        };
        let (ranks, suits) = deck_of(o)?;
        let pickup = o.pickup.unwrap_or(pickup);
        let deal = deal_of(o, deal, suits)?;
        let deck = u64::from(ranks) * u64::from(suits);
        let p1_cards = o
            .p1_cards
            .as_ref()
            .map(|cards| check_p1_cards(&cards.0, ranks, suits, deal))
            .transpose()?;
        let players = o.players.unwrap_or(2);
        if !(2..=MAX_PLAYERS).contains(&players) {
            return Err(usage_of![
                setting("players", players),
                format!(": War takes 2 to {MAX_PLAYERS} players"),
            ]);
        }
        if players > 2 {
            check_multi(o, players, deck)?;
        } else if deck > MAX_DECK as u64 || (deck % 2 == 1 && p1_cards.is_none()) {
            return Err(usage_of![
                setting("ranks", ranks),
                " ",
                setting("suits", suits),
                format!(
                    ": a deck of {deck} cards cannot be dealt into two equal hands of at most {} \
                     cards",
                    MAX_DECK / 2
                ),
            ]);
        }
        if o.honor == Some(0) {
            return Err(usage_of![
                setting("honor", 0),
                ": a card can only lose by 1 rank or more; use ",
                setting("honor", "1"),
                " or more",
            ]);
        }
        if let Some(won) = o.won_pile.filter(|_| !pickup.is_deterministic()) {
            return Err(usage_of![
                setting("won_pile", won),
                format!(
                    ": a won pile orders the cards of a deterministic pickup; pickup {pickup} \
                     draws at random ("
                ),
                setting("pickup", Pickup::WonPile),
                " is the shuffled won pile)",
            ]);
        }
        let (detect_loops, max_rounds) = cap_of(o, preset, pickup)?;
        Ok(WarRules {
            preset,
            ranks,
            suits,
            war_down: o.war_down.unwrap_or(3),
            short_war: o.short_war.unwrap_or(short_war),
            pickup,
            won_pile: o.won_pile,
            deal,
            detect_loops,
            max_rounds,
            p1_cards,
            honor: o.honor,
            by: o.by,
            players,
            quit_stats: o.quit_stats,
        })
    }
}

/// How the deck is dealt: as asked by name, else as the preset deals (given hands, which
/// `play war` plays, deal as the preset does too); an even deal needs an even number of suits.
fn deal_of(o: &WarSettings, preset: DealOrder, suits: u32) -> Result<DealOrder, UsageError> {
    let deal = match o.deal.as_deref() {
        Some("shuffled") => DealOrder::Shuffled,
        Some("even") => DealOrder::Even,
        Some("bryer") => DealOrder::Bryer,
        None => preset,
        Some(hands) if hands.contains('/') => preset,
        // The command line's parser refuses any other text; settings read as JSON (the typed
        // API, Python) are checked here, or a typo would deal as the preset does, silently.
        Some(other) => {
            return Err(usage_of![
                setting("deal", format!("{other:?}")),
                ": ",
                parse_deal_setting(other).err().unwrap_or_default(),
            ])
        }
    };
    if deal == DealOrder::Even && suits % 2 == 1 {
        return Err(usage_of![
            setting("deal", "even"),
            " ",
            setting("suits", suits),
            ": an even deal gives each player one copy of every rank per two suits, so the \
             suits must be even",
        ]);
    }
    Ok(deal)
}

/// The deck's ranks and suits asked (13 × 4 unless given), if a deck can have them.
fn deck_of(o: &WarSettings) -> Result<(u32, u32), UsageError> {
    let ranks = o.ranks.unwrap_or(13);
    let suits = o.suits.unwrap_or(4);
    if !(1..=255).contains(&ranks) {
        return Err(usage_of![
            setting("ranks", ranks),
            ": ranks must be between 1 and 255"
        ]);
    }
    if suits == 0 {
        return Err(usage_of![
            setting("suits", 0),
            ": a deck needs at least one suit"
        ]);
    }
    Ok((ranks, suits))
}

/// Whether loops are detected and the round cap, from the settings or the preset's defaults;
/// loop detection is refused for a pickup that draws at random.
fn cap_of(o: &WarSettings, preset: Preset, pickup: Pickup) -> Result<(bool, u64), UsageError> {
    let detect_loops = match (o.detect_loops.unwrap_or(DetectLoops::Auto), preset) {
        (DetectLoops::On, _) if !pickup.is_deterministic() => {
            return Err(usage_of![
                setting("detect_loops", "on"),
                format!(
                    ": pickup {:?} uses randomness, so a repeated state need not repeat \
                     forever; use a deterministic pickup or ",
                    pickup.to_string()
                ),
                setting("detect_loops", "off"),
            ]);
        }
        (DetectLoops::On, _) => true,
        (DetectLoops::Off, _) | (DetectLoops::Auto, Preset::Bryer) => false,
        (DetectLoops::Auto, Preset::Classic) => pickup.is_deterministic(),
    };
    let max_rounds = match (o.max_rounds, preset) {
        (Some(m), _) => check_max_rounds(m, "round")?,
        (None, Preset::Bryer) => BRYER_MAX_ROUNDS,
        (None, Preset::Classic) if detect_loops => DETECTING_MAX_ROUNDS,
        (None, Preset::Classic) => CLASSIC_MAX_ROUNDS,
    };
    Ok((detect_loops, max_rounds))
}

/// Refuses, for 3 or more players, the options that have no N-player reading (each named, so
/// the user knows what to drop) and a deck too small or too large to deal to everyone.
fn check_multi(o: &WarSettings, players: u32, deck: u64) -> Result<(), UsageError> {
    let refused = [
        (
            o.preset == Some(Preset::Bryer),
            setting("rules", "bryer"),
            " (the R program's two-player game)",
        ),
        (
            o.short_war == Some(ShortWar::Bryer),
            setting("short_war", "bryer"),
            "",
        ),
        (
            o.pickup == Some(Pickup::Bryer),
            setting("pickup", "bryer"),
            "",
        ),
        (
            o.pickup == Some(Pickup::Kbwar),
            setting("pickup", "kbwar"),
            "",
        ),
        (
            o.won_pile == Some(WonPile::Reversed),
            setting("won_pile", "reversed"),
            "",
        ),
        (
            matches!(o.deal.as_deref(), Some("even" | "bryer")),
            setting("deal", "even or bryer"),
            " (shuffled only)",
        ),
        (o.p1_cards.is_some(), setting_alone("p1_cards"), ""),
        (o.honor.is_some(), setting_alone("honor"), ""),
        (o.by.is_some(), setting_alone("by"), ""),
        (
            o.quit_stats,
            setting_alone("quit_stats"),
            " (player 1 against player 2)",
        ),
    ];
    if let Some((_, option, note)) = refused.into_iter().find(|(given, ..)| *given) {
        return Err(usage_of![
            setting("players", players),
            ": ",
            option,
            format!("{note} is a two-player rule; drop it or use "),
            setting("players", 2),
        ]);
    }
    if deck < u64::from(players) || deck > MAX_DECK as u64 {
        return Err(usage_of![
            setting("players", players),
            format!(
                ": a deck of {deck} cards cannot give each player at least one card within \
                 {MAX_DECK} cards"
            ),
        ]);
    }
    Ok(())
}

/// Checks `p1_cards` against the deck and returns the ranks ascending.
fn check_p1_cards(
    cards: &[Card],
    ranks: u32,
    suits: u32,
    deal: DealOrder,
) -> Result<Vec<Card>, UsageError> {
    if deal != DealOrder::Shuffled {
        return Err(usage_of![
            setting_alone("p1_cards"),
            " deals both hands itself; it cannot be combined with ",
            setting("deal", setting_name(deal)),
        ]);
    }
    let mut sorted = cards.to_vec();
    sorted.sort_unstable();
    for (i, &c) in cards.iter().enumerate() {
        if c == 0 || u32::from(c) > ranks {
            return Err(usage_of![
                setting_alone("p1_cards"),
                format!(": card {} ({c}) is not a rank in 1..{ranks}", i + 1),
            ]);
        }
        let copies = sorted.iter().filter(|&&x| x == c).count();
        if copies as u32 > suits {
            return Err(usage_of![
                setting_alone("p1_cards"),
                format!(": rank {c} appears {copies} times, but the deck holds {suits} of it"),
            ]);
        }
    }
    if sorted.len() as u64 >= u64::from(ranks) * u64::from(suits) {
        return Err(usage_of![
            setting_alone("p1_cards"),
            format!(
                ": {} cards leave player 2 none of the {}-card deck",
                sorted.len(),
                ranks * suits
            ),
        ]);
    }
    Ok(sorted)
}

impl WarRules {
    /// The options that give these rules: every setting explicit.
    pub fn options(&self) -> WarSettings {
        WarSettings {
            preset: Some(self.preset),
            ranks: Some(self.ranks),
            suits: Some(self.suits),
            war_down: Some(self.war_down),
            short_war: Some(self.short_war),
            pickup: Some(self.pickup),
            won_pile: self.won_pile,
            detect_loops: Some(if self.detect_loops {
                DetectLoops::On
            } else {
                DetectLoops::Off
            }),
            max_rounds: Some(self.max_rounds),
            deal: Some(setting_name(self.deal)),
            p1_cards: self.p1_cards.clone().map(Ranks),
            honor: self.honor,
            by: self.by,
            players: (self.players != 2).then_some(self.players),
            quit_stats: self.quit_stats,
        }
    }

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
