//! Beggar-my-neighbour, as the 1911 Encyclopaedia Britannica states it (and docs/rules/bmn.md): two
//! players; J, Q, K and A are penalty cards demanding 1, 2, 3 and 4 cards. A player laying a
//! penalty card while paying a demand stops paying and passes a new demand back; a demand paid
//! with no penalty card gives the whole pile to the player who laid the last penalty card,
//! under their hand in the order laid (the first card laid goes under first), and they lead the
//! next trick. Player 1 (the first hand of the deal) leads the first trick. The game ends as
//! soon as one player holds every card; a player who must play and has no card loses, the other
//! taking the pile.
//!
//! Counts, as the published records count them: `rounds` are the **cards** laid, and the
//! game's own statistic is **tricks**, the piles taken (the last one included, also when it is
//! taken because the other player has no card to lay).
//!
//! Play after the deal is deterministic, so a position that repeats repeats forever: a game is
//! checked for a repeated position at the start of a trick (both hands and who leads) with
//! Brent's algorithm, exactly, and reports where the loop starts and its length in cards
//! (`loop_from`, `cycle_len`) and in tricks. Only a card's demand matters to play, so hands are
//! kept and compared as demands (0 for a card that demands nothing).
//!
//! Two engines play a deal and report the same game: `play` lays a card at a time (the
//! reference, and `play bmn`'s trace), `phase` a phase at a time, with far fewer steps (the
//! speed of each: docs/bmn.md), for every deck it holds (the standard one included):
//! `simulate`, `exact` and `search bmn` use it wherever it fits ([`Bmn::engine`]). `simulate`
//! plays its games 8 or 16 at a time in SIMD lanes (`lanes`, issues 52 and 62) where the CPU
//! and the deck allow, the same phases without a branch, and gives each game's deal to the
//! phase engine when it runs long enough to be a loop; the searches' climb and census play
//! their deals and positions in the same lanes (`search/on_lanes.rs`).

pub mod backward;
pub mod camicia;
#[cfg(target_arch = "x86_64")]
mod lanes;
mod notation;
mod phase;
mod play;
pub mod record;
pub mod search;

use std::ops::ControlFlow;

use rand::RngCore;
use serde::{Deserialize, Serialize};

use super::arrange;
use super::cards::shuffle;
use super::{check_max_rounds, Game, GameResult, GameStats};
use crate::error::setting;
use crate::error::UsageError;
use crate::stats::count::{add_to, Overflow};
use crate::usage_of;
use play::play_from;
pub use play::{BmnScratch, Hand, Played, Position, Trick};

/// Most cards in a deck (a hand is a ring of this many).
pub const MAX_CARDS: usize = 64;
/// The penalty ranks, lowest first: the top four ranks of the deck.
pub const PENALTY_NAMES: [char; 4] = ['J', 'Q', 'K', 'A'];
/// The default card cap, a safety net only: loops are detected exactly.
pub const DEFAULT_MAX_ROUNDS: u64 = 10_000_000;

crate::choice! {
    /// A named rule set of `--rules`; explicit options override its settings.
    #[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
    #[serde(rename_all = "kebab-case")]
    pub enum BmnPreset {
        /// The 1911 Britannica's game: 52 cards, J, Q, K, A demand 1, 2, 3, 4.
        Britannica,
        /// The Italian Camicia: 40 cards, the ace, two and three demand 1, 2, 3 (warsim's J, Q, K;
        /// docs/rules/bmn.md); deals written in its digit notation.
        Camicia,
    }
}

impl Default for BmnPreset {
    /// The 1911 Britannica's game.
    fn default() -> Self {
        BmnPreset::Britannica
    }
}

impl BmnPreset {
    /// Ranks, suits and penalties of the preset.
    fn deck(self) -> (usize, usize, Penalties) {
        match self {
            BmnPreset::Britannica => (13, 4, Penalties([1, 2, 3, 4])),
            BmnPreset::Camicia => (camicia::RANKS, camicia::SUITS, camicia::PENALTIES),
        }
    }

    fn is_britannica(&self) -> bool {
        *self == BmnPreset::Britannica
    }
}

/// The rule settings of a Beggar-my-neighbour run as asked, each declared once: the command
/// line's flags (their help is the doc comments) and Python's keyword arguments. Each `None`
/// takes its preset's ([`BmnRules::try_from`] checks them).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
pub struct BmnSettings {
    /// Rule preset: britannica (52 cards, J Q K A demand 1 2 3 4) or camicia (the Italian
    /// 40-card game: ace, two, three demand 1, 2, 3; deals in its digit notation, each card's
    /// demand); the options below override its settings [default: britannica].
    #[cfg_attr(feature = "clap", arg(long = "rules",
        value_parser = crate::settings::clap_values::choice::<BmnPreset>()))]
    #[serde(rename = "rules")]
    pub preset: Option<BmnPreset>,
    /// Ranks in the deck; the top four are J, Q, K and A [default: 13; camicia: 10].
    #[cfg_attr(feature = "clap", arg(long, value_name = "R"))]
    pub ranks: Option<usize>,
    /// Cards of each rank [default: 4].
    #[cfg_attr(feature = "clap", arg(long, value_name = "S"))]
    pub suits: Option<usize>,
    /// The cards J, Q, K and A demand, in that order (0: the rank demands nothing)
    /// [default: 1,2,3,4; camicia: 1,2,3,0].
    #[cfg_attr(feature = "clap", arg(long, value_name = "J,Q,K,A", value_parser = str::parse::<Penalties>))]
    #[serde(with = "crate::settings::as_text")]
    pub penalties: Option<Penalties>,
    /// Stop a game after this many cards (outcome `capped`); loops are detected exactly.
    #[cfg_attr(feature = "clap", arg(long, value_name = "M", allow_negative_numbers = true,
        default_value_t = BmnSettings::default().max_rounds, value_parser = crate::settings::parse_cards))]
    pub max_rounds: u64,
}

impl Default for BmnSettings {
    /// The Britannica game.
    fn default() -> Self {
        BmnSettings {
            preset: None,
            ranks: None,
            suits: None,
            penalties: None,
            max_rounds: DEFAULT_MAX_ROUNDS,
        }
    }
}

/// What J, Q, K and A demand.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Penalties(pub [u8; 4]);

impl std::str::FromStr for Penalties {
    type Err = String;

    /// Four demands from 0 to 9, for J, Q, K and A: `1,2,3,4`.
    fn from_str(text: &str) -> Result<Penalties, String> {
        let parts: Vec<&str> = text.split(',').map(str::trim).collect();
        let values: Vec<u8> = parts
            .iter()
            .filter_map(|p| p.parse::<u8>().ok().filter(|&v| v <= 9))
            .collect();
        match <[u8; 4]>::try_from(values) {
            Ok(v) if parts.len() == 4 => Ok(Penalties(v)),
            _ => Err("expected four demands from 0 to 9, for J, Q, K and A: 1,2,3,4".into()),
        }
    }
}

impl std::fmt::Display for Penalties {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let [j, q, k, a] = self.0;
        write!(f, "{j},{q},{k},{a}")
    }
}

/// The rules of a `simulate bmn` run.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BmnRules {
    /// The preset the settings started from (absent from the JSON for britannica, as before
    /// presets).
    #[serde(default, skip_serializing_if = "BmnPreset::is_britannica")]
    pub preset: BmnPreset,
    /// Ranks in the deck.
    pub ranks: usize,
    /// Cards of each rank.
    pub suits: usize,
    /// What J, Q, K and A demand.
    pub penalties: Penalties,
    /// Card cap.
    pub max_rounds: u64,
}

impl TryFrom<&BmnSettings> for BmnRules {
    type Error = UsageError;

    fn try_from(o: &BmnSettings) -> Result<Self, UsageError> {
        let preset = o.preset.unwrap_or_default();
        let (ranks, suits, penalties) = preset.deck();
        let (ranks, suits) = (o.ranks.unwrap_or(ranks), o.suits.unwrap_or(suits));
        let cards = ranks.saturating_mul(suits);
        if ranks < 4 || suits == 0 || cards > MAX_CARDS || cards % 2 == 1 {
            return Err(usage_of![
                setting("ranks", ranks),
                " ",
                setting("suits", suits),
                format!(
                    ": need at least 4 ranks (the top four are J, Q, K, A), and an even number \
                     of cards, at most {MAX_CARDS}"
                ),
            ]);
        }
        let penalties = o.penalties.unwrap_or(penalties);
        if penalties.0.iter().any(|&d| d > 9) {
            return Err(usage_of![
                setting("penalties", penalties),
                ": expected four demands from 0 to 9, for J, Q, K and A",
            ]);
        }
        Ok(BmnRules {
            preset,
            ranks,
            suits,
            penalties,
            max_rounds: check_max_rounds(o.max_rounds, "card")?,
        })
    }
}

/// Beggar-my-neighbour on random deals: the [`Game`] of `simulate bmn`.
#[derive(Clone, Debug)]
pub struct Bmn {
    rules: BmnRules,
    /// The deck as demands, in rank order.
    deck: Vec<u8>,
    /// Cards of each demand, for `exact bmn`.
    counts: Vec<u32>,
    /// Which engine plays the deals.
    engine: Engine,
}

/// The engine that plays a rule set's deals; both give the same game for every deal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Engine {
    /// Many games at a time in SIMD lanes, a phase of each per step (`lanes`): `simulate`'s
    /// games, where the CPU has the lanes' features (AVX-512 F, CD and BW for 16 games a step,
    /// `lanes`; else AVX2 and BMI2 for 8, `lanes-avx2`) and the deck and cap fit the lanes
    /// (`lanes::fits`), unless the caller names another path (`engine_path`; the command
    /// line reads `WARSIM_PATH`); the searches' climb and census play in them too, and the
    /// phase engine plays single deals (`exact`, the record search's joins, the games the
    /// lanes hand over).
    Lanes(Width),
    /// A phase at a time ([`phase`]): every deck it holds ([`phase::fits`]).
    Phase,
    /// A card at a time ([`play`]): the reference, for the other decks, or when the
    /// caller names `cards` (to time or check the reference).
    Cards,
}

/// Which vector instructions play the lanes: AVX-512, 16 games a step (`lanes/avx512.rs`), or
/// AVX2, 8 games a step (`lanes/step.rs`). Both give every game the phase engine's result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Width {
    Avx512,
    Avx2,
}

impl Width {
    /// The path's name in summary.json's provenance and `WARSIM_PATH`, as War's lanes are
    /// named: `lanes` on AVX-512, `lanes-avx2`.
    fn name(self) -> &'static str {
        match self {
            Width::Avx512 => "lanes",
            Width::Avx2 => "lanes-avx2",
        }
    }
}

impl Engine {
    fn name(self) -> &'static str {
        match self {
            Engine::Lanes(w) => w.name(),
            Engine::Phase => "phase",
            Engine::Cards => "cards",
        }
    }
}

impl BmnRules {
    /// The Britannica rules on a deck of `ranks` ranks × `suits` suits whose J, Q, K and A
    /// demand `penalties`, with the default card cap: the rule sets of the tests and searches.
    pub fn britannica(ranks: usize, suits: usize, penalties: [u8; 4]) -> BmnRules {
        BmnRules {
            preset: BmnPreset::Britannica,
            ranks,
            suits,
            penalties: Penalties(penalties),
            max_rounds: DEFAULT_MAX_ROUNDS,
        }
    }
}

impl Bmn {
    /// The game for `rules`, or an error naming the setting no game can have: the same checks
    /// as the options of the command line ([`checked`](super::checked)).
    pub fn new(rules: BmnRules) -> Result<Self, UsageError> {
        super::checked(rules)
    }

    /// The game for rules that passed those checks, on the fastest engine for its deck.
    fn build(rules: BmnRules) -> Self {
        Bmn::build_on(rules, None)
    }

    /// The game for rules that passed those checks, on the engine called `named` where it
    /// can play the deck (`cards` always can; `phase`, `lanes-avx2` where the deck fits).
    fn build_on(rules: BmnRules, named: Option<&str>) -> Self {
        let plain = rules.ranks - 4;
        let deck: Vec<u8> = (0..rules.suits)
            .flat_map(|_| std::iter::repeat_n(0, plain).chain(rules.penalties.0.iter().copied()))
            .collect();
        let counts = arrange::counts(deck.iter().copied(), 9);
        let engine = match named {
            Some("cards") => Engine::Cards,
            _ if !phase::fits(&deck) => Engine::Cards,
            Some("phase") => Engine::Phase,
            name => lanes_for(name, &deck, rules.max_rounds).map_or(Engine::Phase, Engine::Lanes),
        };
        Bmn {
            rules,
            deck,
            counts,
            engine,
        }
    }

    /// The deal of game `index` of a run of base `seed`, as [`Game::play`] deals it: the deck
    /// shuffled by `game_rng(seed, index)` (what `play bmn --seed --game` and the record
    /// search's sampled games are).
    pub fn deal_of(&self, seed: u64, index: u64) -> Vec<u8> {
        let mut deck = self.deck.clone();
        shuffle(&mut crate::rng::game_rng(seed, index), &mut deck);
        deck
    }

    /// The deck as demands, in rank order: what a deal arranges.
    pub fn deck(&self) -> &[u8] {
        &self.deck
    }

    /// Plays the deal `deck` (its first half player 1's hand, top card first) to its end.
    /// `deck` must be an arrangement of [`Bmn::deck`], as every deal of the engine and of the
    /// searches' swaps is: this hot path does not check it, so it is crate-private (the
    /// searches live in `search/`; a deal from elsewhere goes through [`Bmn::parse_deal`] and
    /// [`Bmn::play_hands`], which check it).
    pub(crate) fn play_deck(&self, deck: &[u8], s: &mut BmnScratch) -> Played {
        let half = deck.len() / 2;
        if self.engine != Engine::Cards {
            return phase::play(&deck[..half], &deck[half..], self.rules.max_rounds);
        }
        s.start = Position::fitted(&deck[..half], &deck[half..], 0);
        play_from(s, self.rules.max_rounds, &mut |_, _, _| {
            ControlFlow::Continue(())
        })
    }

    /// The lanes that play this game's deals where its engine is the lanes ([`Engine`]): the
    /// searches play their deals and positions through them; none on the phase or card
    /// engine (a path named so, a deck or cap the lanes do not fit, a CPU without them).
    #[cfg(target_arch = "x86_64")]
    fn lanes(&self) -> Option<lanes::Lanes> {
        match self.engine {
            Engine::Lanes(width) => lanes::Lanes::new(width, &self.deck),
            _ => None,
        }
    }

    /// Where the game from `p` leads within `max_tricks` tricks ([`backward::fate`]'s
    /// answer): a phase at a time, unless the game plays card by card (the path `cards`, or
    /// a deck the phase engine does not hold).
    pub(crate) fn fate(&self, p: &Position, max_tricks: u64) -> backward::Fate {
        match self.engine {
            Engine::Cards => backward::fate(p, max_tricks),
            _ => phase::fate(p, max_tricks),
        }
    }

    /// The position `tricks` tricks after `p` (on a cycle: no trick of it ends the game), a
    /// phase at a time unless the game plays card by card, as [`Bmn::fate`] chooses.
    pub(crate) fn after(&self, p: &Position, tricks: u64) -> Position {
        match self.engine {
            Engine::Cards => p.after(tricks),
            _ => phase::after(p, tricks),
        }
    }

    /// Plays `hands` card by card (the reference engine), calling `each` after every trick
    /// with the position, the trick and the cards laid so far; a `Break` from it (the trace's
    /// reader has gone) stops the game there (`play bmn --trace`). The hands must hold this
    /// game's deck, each card as often as the deck has it, or nothing is played.
    pub fn play_hands(
        &self,
        hands: &[Vec<u8>; 2],
        each: &mut dyn FnMut(&Position, &Trick, u64) -> ControlFlow<()>,
    ) -> Result<Played, UsageError> {
        self.holds_deck(hands)?;
        let mut s = self.scratch();
        s.start = Position::fitted(&hands[0], &hands[1], 0);
        Ok(play_from(&mut s, self.rules.max_rounds, each))
    }

    fn result(&self, s: &mut BmnScratch) -> GameResult<BmnGame> {
        let deck = std::mem::take(&mut s.deck);
        let p = self.play_deck(&deck, s);
        s.deck = deck;
        GameResult {
            rounds: p.cards,
            outcome: p.outcome,
            cycle: p.cycle.map(|c| c.0),
            stats: BmnGame {
                tricks: p.tricks as u32,
            },
        }
    }
}

/// The lanes that play this deck under this card cap on this CPU, if any: those `named`
/// (`lanes-avx2` forces AVX2 on a CPU with AVX-512, to time or check it), else the widest
/// this CPU runs.
fn lanes_for(named: Option<&str>, deck: &[u8], max_rounds: u64) -> Option<Width> {
    #[cfg(target_arch = "x86_64")]
    if lanes::fits(deck, max_rounds) {
        let widths = match named {
            Some(name) if name == Width::Avx2.name() => &[Width::Avx2][..],
            _ => &[Width::Avx512, Width::Avx2],
        };
        return widths.iter().copied().find(|w| w.available());
    }
    let _ = (named, deck, max_rounds);
    None
}

/// The settings of `rules` that differ from the defaults, each with its value, in the order
/// the settings are declared: what a face writes so that a deal found under these rules replays
/// under them (the command line as `--ranks 10 --penalties 1,2,3,0`).
pub fn changed_settings(rules: &BmnRules) -> Vec<(&'static str, String)> {
    let mut out = Vec::new();
    let (ranks, suits, penalties) = rules.preset.deck();
    if !rules.preset.is_britannica() {
        out.push(("rules", crate::settings::setting_name(rules.preset)));
    }
    if rules.ranks != ranks {
        out.push(("ranks", rules.ranks.to_string()));
    }
    if rules.suits != suits {
        out.push(("suits", rules.suits.to_string()));
    }
    if rules.penalties != penalties {
        out.push(("penalties", rules.penalties.to_string()));
    }
    if rules.max_rounds != DEFAULT_MAX_ROUNDS {
        out.push(("max_rounds", rules.max_rounds.to_string()));
    }
    out
}

/// What one game of BMN counts besides cards.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BmnGame {
    /// Tricks (piles taken).
    pub tricks: u32,
}

/// BMN's statistics over many games.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BmnStats {
    /// Tricks over all games.
    pub tricks: u64,
    /// The most tricks of a game.
    pub most: u64,
}

/// BMN's part of summary.json: the `tricks` object.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Serialize, Deserialize)]
pub struct TricksJson {
    /// Trick statistics.
    pub tricks: TricksObject,
}

/// The `tricks` object of summary.json.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TricksObject {
    /// Tricks per game.
    pub mean: f64,
    /// Tricks over all games.
    pub total: u64,
    /// The most tricks of a game.
    pub max: u64,
}

impl GameStats for BmnStats {
    type PerGame = BmnGame;
    type Json = TricksJson;

    #[inline]
    fn record(&mut self, g: &BmnGame) {
        self.tricks += u64::from(g.tricks);
        self.most = self.most.max(u64::from(g.tricks));
    }

    fn merge(&mut self, other: &Self) -> Result<(), Overflow> {
        add_to(&mut self.tricks, other.tricks)?;
        self.most = self.most.max(other.most);
        Ok(())
    }

    fn to_json(&self, games: u64) -> TricksJson {
        TricksJson {
            tricks: TricksObject {
                mean: self.tricks as f64 / games.max(1) as f64,
                total: self.tricks,
                max: self.most,
            },
        }
    }

    fn from_json(json: TricksJson, games: u64) -> Result<Self, String> {
        let t = json.tricks;
        // The most tricks of a game lie between the total's share per game and the total; a
        // game capped before its first trick (a cap of a few cards) takes none, so the total
        // may be below the games.
        if t.max > t.total || t.total > t.max.saturating_mul(games) {
            return Err(format!(
                "tricks: total {} and max {} cannot be those of {games} games",
                t.total, t.max
            ));
        }
        Ok(BmnStats {
            tricks: t.total,
            most: t.max,
        })
    }

    fn csv(&self, games: u64) -> Vec<(String, String)> {
        vec![
            (
                "tricks_mean".into(),
                (self.tricks as f64 / games.max(1) as f64).to_string(),
            ),
            ("tricks_max".into(), self.most.to_string()),
        ]
    }

    fn text(&self, games: u64) -> Vec<String> {
        vec![format!(
            "tricks    mean {:.3} per game, at most {}",
            self.tricks as f64 / games.max(1) as f64,
            self.most
        )]
    }
}

impl Game for Bmn {
    const NAME: &'static str = "bmn";
    const UNIT: super::Unit = super::Unit::CARDS;
    type Settings = BmnSettings;
    type Rules = BmnRules;
    type Stats = BmnStats;
    type Scratch = BmnScratch;

    fn from_settings(o: &BmnSettings) -> Result<Self, UsageError> {
        Ok(Bmn::build(BmnRules::try_from(o)?))
    }

    fn rules(&self) -> &BmnRules {
        &self.rules
    }

    fn settings_of(r: &BmnRules) -> BmnSettings {
        BmnSettings {
            preset: Some(r.preset),
            ranks: Some(r.ranks),
            suits: Some(r.suits),
            penalties: Some(r.penalties),
            max_rounds: r.max_rounds,
        }
    }

    fn scratch(&self) -> BmnScratch {
        let empty = Position::fitted(&[], &[], 0);
        BmnScratch {
            deck: self.deck.clone(),
            counts: Vec::with_capacity(self.counts.len()),
            game: empty,
            saved: empty,
            start: empty,
        }
    }

    fn play<R: RngCore + ?Sized>(&self, rng: &mut R, s: &mut BmnScratch) -> GameResult<BmnGame> {
        s.deck.copy_from_slice(&self.deck);
        shuffle(rng, &mut s.deck);
        self.result(s)
    }

    /// BMN draws nothing after the deal: every arrangement of the deck's demands, the first
    /// half to player 1.
    fn deal_count(&self) -> Result<u128, UsageError> {
        arrange::arrangements(&self.counts)
            .ok_or_else(|| crate::games::too_many_deals(Self::NAME, self.deck.len()))
    }

    fn play_deal_number(&self, i: u64, s: &mut BmnScratch) -> Option<GameResult<BmnGame>> {
        s.counts.clone_from(&self.counts);
        let mut deck = std::mem::take(&mut s.deck);
        deck.clear();
        arrange::unrank(u128::from(i), &mut s.counts, &mut deck);
        s.deck = deck;
        Some(self.result(s))
    }

    /// In the lanes where they play this rule set ([`Bmn::engine`]), else one at a time.
    fn play_range(
        &self,
        seed: u64,
        range: std::ops::Range<u64>,
        s: &mut BmnScratch,
        record: &mut dyn FnMut(u64, &GameResult<BmnGame>),
    ) {
        #[cfg(target_arch = "x86_64")]
        if let Engine::Lanes(width) = self.engine {
            return lanes::play_range(self, width, seed, range, s, record);
        }
        super::each_game(self, seed, range, s, record);
    }

    fn players(&self) -> usize {
        2
    }

    fn max_rounds(&self) -> u64 {
        self.rules.max_rounds
    }

    fn describe(&self) -> String {
        let r = &self.rules;
        let [j, q, k, a] = r.penalties.0;
        let text = format!(
            "{} ranks × {} suits, J Q K A demand {j} {q} {k} {a}, loops detected{}",
            r.ranks,
            r.suits,
            super::cap_unless_default(r.max_rounds, DEFAULT_MAX_ROUNDS)
        );
        // The preset is named only when its deck is unchanged, as War's are.
        match r.preset {
            BmnPreset::Camicia if r.preset.deck() == (r.ranks, r.suits, r.penalties) => {
                format!("camicia: {text}")
            }
            _ => text,
        }
    }

    fn detects_loops(&self) -> bool {
        true
    }

    /// `lanes`, `lanes-avx2`, `phase` or `cards` (the reference): the speed differs, never the
    /// games.
    fn engine(&self) -> Option<String> {
        Some(self.engine.name().to_string())
    }

    /// On the engine named, where it can play the deck.
    fn on_engine(self, path: &crate::games::engine_path::EnginePath) -> Self {
        match path.name() {
            Some(name) => Bmn::build_on(self.rules, Some(name)),
            None => self,
        }
    }

    /// `phase` or `cards`: `exact` plays its deals one at a time, since the lanes measured
    /// slower there (each deal is unranked one at a time, and small decks' games are a few
    /// phases long): `exact bmn --ranks 8 --suits 2` took 7.32 s of CPU in the lanes against
    /// 6.63 s on the phase engine (one thread, AMD EPYC, Zen 5, busy).
    fn exact_engine(&self) -> Option<String> {
        let engine = match self.engine {
            Engine::Lanes(_) => Engine::Phase,
            e => e,
        };
        Some(engine.name().to_string())
    }
}

#[cfg(test)]
mod tests;
#[cfg(all(test, target_arch = "x86_64"))]
mod tests_lanes;
