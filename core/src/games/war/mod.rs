//! Deck War (docs/rules/war.md): two players, a deck of ranks × suits, wars on ties.
//!
//! A round ("battle") is both players turning up their top card; the higher rank takes both.
//! On a tie the players fight a war: each lays `war_down` cards face down and turns up one more,
//! and the higher of those takes everything on the table; ties nest. How short players are
//! treated and in which order won cards go under the winner's hand are rule options
//! ([`ShortWar`], [`Pickup`]), because published simulators differ exactly there.
//!
//! The `bryer` preset reproduces the R program of War's rules document (docs/rules/war.md),
//! quirks included:
//! see [`Preset::Bryer`].
//!
//! The module's parts: [`rules`] (settings, presets, the rule set), `resolve` (the settings
//! asked made the rule set, and back), [`stats`] (what War counts),
//! `position` (the state of a game and the general round), `deal`, `fast` (the hot loop:
//! blocks of plain battles), `avx512` (its vector path), `cursor_war` (wars in the hot loop),
//! `lanes` and `lane_deal` (many games per core in AVX-512 or AVX2 lanes, for the rule sets
//! they play), `detect` (loop detection), `trace` (`play war --trace`), `flawless` (the exact
//! probability that one player wins every battle) and `multi` (three to 26 players,
//! `--players N`, with its own engine and every N-player rule point in its docs).

#[cfg(target_arch = "x86_64")]
mod avx512;
mod cursor_war;
mod deal;
mod detect;
mod enumerate;
mod fast;
mod flawless;
#[cfg(target_arch = "x86_64")]
mod lane_deal;
#[cfg(target_arch = "x86_64")]
mod lanes;
mod markov;
pub mod multi;
pub mod places;
mod position;
pub mod quit;
mod resolve;
pub mod rules;
pub mod stats;
mod step;
pub mod trace;

use rand::RngCore;

use crate::cancel::{Cancel, Cancelled};
use crate::error::UsageError;
use crate::games::cards::Card;
use crate::games::cycle::{Deterministic, Ending, LoopDetector};
use crate::games::{cap_unless_default, Game, GameResult, Trace};
use crate::settings::setting_name;
use crate::stats::summary::grouped;

pub use deal::{check_dealt, parse_deal, parse_hands};
pub use detect::NoRandomness;
pub use rules::{
    By, DealOrder, DetectLoops, Pickup, Preset, Ranks, ShortWar, WarRules, WarSettings, WonPile,
    BRYER_MAX_ROUNDS, CLASSIC_MAX_ROUNDS, DETECTING_MAX_ROUNDS, MAX_DECK, MAX_PLAYERS,
};
pub use stats::{WarGame, WarStats, WAR_DEPTHS};

use crate::error::{setting, setting_alone, Op};
use crate::usage_of;
use enumerate::DealSpace;
pub use fast::Path;
pub use flawless::Flawless;
use multi::Seats;
use position::Position;
use step::Stop;

/// Deck War with one rule set: the [`Game`] the engine plays.
#[derive(Clone, Debug)]
pub struct War {
    rules: WarRules,
    /// The deck in its original order: ranks 1..R, repeated for each suit.
    deck: Vec<Card>,
    /// Cards in play: hands and tables are sized for all of them.
    capacity: usize,
    /// 0..n, the deck positions the `bryer` deal starts from.
    positions: Vec<u16>,
    /// With `--p1-cards`: player 1's cards and the rest of the deck.
    fixed_hands: Option<[Vec<Card>; 2]>,
    /// The distinct deals, where the rules allow `exact` to play each one.
    deals: Option<DealSpace>,
    /// Whether the hot loop plays blocks of plain battles ([`fast::plays_in_blocks`]); if not,
    /// the general round plays every round.
    blocks: bool,
    /// Whether the hot loop fights wars on the hands' cursors ([`cursor_war`]).
    cursor_wars: bool,
    /// Which code plays blocks of plain battles.
    path: Path,
    /// Whether a range of games is played in SIMD lanes ([`lanes`]): on [`Path::Lanes`] or
    /// [`Path::LanesAvx2`], for the rule sets [`lanes::supports`], where the CPU has the
    /// features.
    lanes: bool,
    /// Whether a trace names the cards (`K`) rather than writing their ranks (`12`)
    /// ([`War::with_card_names`]).
    card_names: bool,
}

/// One worker's buffers: the running game and the four more copies of it that Brent's
/// detector keeps ([`LoopDetector`]), and the buffers of `exact`'s deals.
#[derive(Clone, Debug)]
pub struct WarScratch {
    detector: LoopDetector<Position>,
    /// With three players or more, their game (and its copies) instead.
    multi: Option<LoopDetector<Seats>>,
    /// `exact`: the deal being played and the rank counts its unranking uses.
    deal: Vec<Card>,
    counts: Vec<u32>,
    /// The lanes' hand buffers (empty unless the game plays in lanes).
    lanes: Vec<u8>,
}

/// Rounds a game played for `play` runs between two looks at its cancel ([`War::play_traced`]):
/// some milliseconds.
const CANCEL_ROUNDS: u64 = 1 << 20;

impl War {
    /// The game for `rules`, or an error naming the setting no game can have: the same checks
    /// as the options of the command line ([`checked`](super::checked)).
    pub fn new(rules: WarRules) -> Result<Self, UsageError> {
        super::checked(rules)
    }

    /// The game for rules that passed those checks.
    fn build(rules: WarRules) -> Self {
        let deck: Vec<Card> = (0..rules.suits)
            .flat_map(|_| 1..=rules.ranks as Card)
            .collect();
        Self::with_deck(rules, deck)
    }

    /// The hands of distinct deal number `i` (`exact`'s game `i`), where the rules enumerate
    /// their deals: player 1's, then player 2's, top card first.
    pub fn deal_hands(&self, i: u64) -> Option<[Vec<Card>; 2]> {
        let space = self.deals.as_ref()?;
        let mut s = self.scratch();
        let half = space.deal(u128::from(i), &mut s.counts, &mut s.deal);
        Some([s.deal[..half].to_vec(), s.deal[half..].to_vec()])
    }

    fn with_deck(rules: WarRules, deck: Vec<Card>) -> Self {
        let capacity = deck.len().max(2);
        let fixed_hands = rules.p1_cards.as_ref().map(|p1| {
            // The rest of the deck: every card of the deck not matched by one of player 1's.
            let mut rest = deck.clone();
            for c in p1 {
                if let Some(i) = rest.iter().position(|x| x == c) {
                    rest.remove(i);
                }
            }
            [p1.clone(), rest]
        });
        let rest = fixed_hands.as_ref().map(|h| h[1].as_slice());
        // `exact` enumerates two-player deals only.
        let deals = DealSpace::of(&rules, &deck, rest)
            .ok()
            .filter(|_| rules.players == 2);
        War {
            blocks: fast::plays_in_blocks(&rules),
            cursor_wars: cursor_war::fights_on_cursors(&rules),
            path: Path::Scalar,
            lanes: false,
            card_names: false,
            rules,
            positions: (0..deck.len() as u16).collect(),
            deck,
            capacity,
            fixed_hands,
            deals,
        }
        .on_path(Self::fastest_lanes())
        .off_slower_lanes()
    }

    /// The lane path measured fastest on this CPU's family (`lanes::preferred_engine`), which
    /// a run that names none starts from; [`War::on_path`] falls back from it where the CPU
    /// lacks it.
    fn fastest_lanes() -> Path {
        #[cfg(target_arch = "x86_64")]
        if lanes::preferred_engine() == lanes::Engine::Avx2 {
            return Path::LanesAvx2;
        }
        Path::Lanes
    }

    /// Plays these rules on the path beside the lanes where the lanes measured slower on this
    /// CPU's family (`lanes::measured_slower`): the fastest path, where the caller named none.
    fn off_slower_lanes(self) -> Self {
        #[cfg(target_arch = "x86_64")]
        if let Some(engine) = self.lane_engine() {
            let lanes = !lanes::measured_slower(engine, &self.rules, self.deck.len());
            return War { lanes, ..self };
        }
        self
    }

    /// The same game on path `path` instead of the one detected for this CPU (for benchmarks
    /// and tests: every path plays the same games). A path this CPU lacks, or lanes for rules
    /// they do not play, fall back to the fastest path that can play them.
    pub fn on_path(mut self, path: Path) -> Self {
        self.path = path.or_available();
        #[cfg(target_arch = "x86_64")]
        {
            self.lanes =
                self.path.lanes().is_some() && lanes::supports(&self.rules, self.deck.len());
        }
        self
    }

    /// The lanes' hand buffers, made once per worker; none where the game is not played in
    /// lanes.
    fn lane_buffers(&self) -> Vec<u8> {
        #[cfg(target_arch = "x86_64")]
        if self.lanes {
            return vec![0; lanes::BYTES];
        }
        Vec::new()
    }

    /// The path that plays this game's simulations: a lane path only where the lanes play
    /// its rules, else the block path beside it.
    pub fn path(&self) -> Path {
        if self.lanes {
            self.path
        } else {
            self.path.blocks()
        }
    }

    /// The lane engine that plays this game's ranges, if the lanes play it.
    #[cfg(target_arch = "x86_64")]
    fn lane_engine(&self) -> Option<lanes::Engine> {
        self.path.lanes().filter(|_| self.lanes)
    }

    /// The same game, its trace writing the cards by name (`2` … `10`, `J`, `Q`, `K`, `A`)
    /// where the deck has a standard deck's 13 ranks and `on`, for a person to read; else by
    /// rank (`1` … `13`), as `--deal` and JSON write them.
    pub fn with_card_names(self, on: bool) -> War {
        War {
            card_names: on,
            ..self
        }
    }

    /// Plays a given deal (top card first) to its end, with no randomness unless the pickup uses
    /// some; rules and hands are checked first ([`War::new`], [`check_dealt`]). With
    /// `trace`, receives one line per round, the cards by name if `names`
    /// ([`War::with_card_names`]).
    pub fn play_deal<R: RngCore + ?Sized>(
        rules: WarRules,
        hands: [&[Card]; 2],
        rng: &mut R,
        (trace, names): (Option<Trace>, bool),
        cancel: &Cancel,
    ) -> crate::error::Result<GameResult<WarGame>> {
        let rules = War::new(rules)?.rules;
        check_dealt(&hands, &rules)?;
        let war = War::with_deck(rules, hands.concat()).with_card_names(names);
        let mut s = war.scratch();
        if let Some(d) = &mut s.multi {
            d.hare.set_hands(&hands.map(<[Card]>::to_vec));
            return Ok(war.run_multi(rng, d, trace));
        }
        s.detector.hare.set_hands(hands);
        Ok(war.run(rng, &mut s, trace, cancel)?)
    }

    /// Plays game `rng` with an optional per-round trace (the `play war` command). A set
    /// `cancel` stops a game played without loop detection ([`Cancelled`]): its cap may be
    /// far off (a caller of the library, or Python, waiting on it would wait for hours).
    pub fn play_traced<R: RngCore + ?Sized>(
        &self,
        rng: &mut R,
        trace: Option<Trace>,
        cancel: &Cancel,
    ) -> Result<GameResult<WarGame>, Cancelled> {
        let mut s = self.scratch();
        if let Some(d) = &mut s.multi {
            d.hare.deal(self, rng);
            return Ok(self.run_multi(rng, d, trace));
        }
        s.detector.hare.deal(self, rng);
        self.run(rng, &mut s, trace, cancel)
    }

    fn run<R: RngCore + ?Sized>(
        &self,
        rng: &mut R,
        s: &mut WarScratch,
        trace: Option<Trace>,
        cancel: &Cancel,
    ) -> Result<GameResult<WarGame>, Cancelled> {
        let result = match trace {
            None => self.run_dealt(rng, s, Some(cancel)),
            Some(sink) => trace::traced(self, rng, &mut s.detector, sink)
                .unwrap_or_else(|| self.run_dealt(rng, s, Some(cancel))),
        };
        match cancel.is_set() {
            true => Err(Cancelled),
            false => Ok(result),
        }
    }

    /// Writes the cards of distinct deal number `i` into `s.deal`, player 1's hand first, and
    /// returns the size of that hand; `None` where the rules have no enumeration.
    fn deal_cards(&self, i: u64, s: &mut WarScratch) -> Option<usize> {
        let space = self.deals.as_ref()?;
        Some(space.deal(u128::from(i), &mut s.counts, &mut s.deal))
    }

    /// Sets `hare` to a game dealt `hands`, its group (`--by`) taken from player 1's, as
    /// [`Position::deal`] leaves it.
    fn set_dealt(&self, hands: [&[Card]; 2], hare: &mut Position) {
        hare.set_hands(hands);
        if let Some(by) = self.rules.by {
            hare.stats.group = Some(by.group(hands[0].iter().copied(), self.rules.ranks));
        }
    }

    /// Plays a dealt game (in the detector's `hare`) to its end. With a `cancel`, a game
    /// played without loop detection is played [`CANCEL_ROUNDS`] at a time and ends early once
    /// it is set: its result is then no game's, and the caller reports the cancel instead.
    fn run_dealt<R: RngCore + ?Sized>(
        &self,
        rng: &mut R,
        s: &mut WarScratch,
        cancel: Option<&Cancel>,
    ) -> GameResult<WarGame> {
        let max = self.rules.max_rounds;
        if self.rules.quit_stats {
            let hare = &s.detector.hare;
            let held = [hare.holding(0), hare.holding(1)];
            s.detector.hare.stats.quit.start(held);
        }
        if self.rules.detect_loops {
            let ending = s.detector.run(self, max);
            return s.detector.hare.result(ending, max);
        }
        let hare = &mut s.detector.hare;
        let mut rounds = 0u64;
        loop {
            let until = match cancel {
                Some(_) => rounds.saturating_add(CANCEL_ROUNDS).min(max),
                None => max,
            };
            if let Stop::Ended(outcome) = hare.play_rounds(self, rng, &mut rounds, until, None) {
                return hare.result(Ending::Ended { rounds, outcome }, max);
            }
            if rounds >= max || cancel.is_some_and(Cancel::is_set) {
                break;
            }
        }
        hare.mark_cap();
        hare.result(Ending::Capped, max)
    }
}

impl Game for War {
    const NAME: &'static str = "war";
    type Settings = WarSettings;
    type Rules = WarRules;
    type Stats = WarStats;
    type Scratch = WarScratch;

    fn from_settings(o: &WarSettings) -> Result<Self, UsageError> {
        if let Some(hands) = o.deal.as_deref().filter(|d| d.contains('/')) {
            return Err(usage_of![
                setting("deal", format!("{hands:?}")),
                ": given hands are for `",
                Op::Play.of(Self::NAME),
                "`; ",
                Op::Simulate,
                " deals shuffled or even",
            ]);
        }
        Ok(War::build(WarRules::try_from(o)?))
    }

    fn rules(&self) -> &WarRules {
        &self.rules
    }

    fn settings_of(rules: &WarRules) -> WarSettings {
        rules.options()
    }

    fn scratch(&self) -> WarScratch {
        WarScratch {
            detector: LoopDetector::new(Position::new(self.capacity)),
            multi: (self.rules.players > 2)
                .then(|| LoopDetector::new(Seats::new(self.rules.players as usize, self.capacity))),
            deal: Vec::with_capacity(self.capacity),
            counts: Vec::with_capacity(self.rules.ranks as usize),
            lanes: self.lane_buffers(),
        }
    }

    fn play<R: RngCore + ?Sized>(&self, rng: &mut R, s: &mut WarScratch) -> GameResult<WarGame> {
        if let Some(d) = &mut s.multi {
            d.hare.deal(self, rng);
            return self.run_multi(rng, d, None);
        }
        s.detector.hare.deal(self, rng);
        self.run_dealt(rng, s, None)
    }

    /// In lanes where [`War::path`] says so; otherwise one game at a time.
    fn play_range(
        &self,
        seed: u64,
        range: std::ops::Range<u64>,
        s: &mut WarScratch,
        record: &mut dyn FnMut(u64, &GameResult<WarGame>),
    ) {
        #[cfg(target_arch = "x86_64")]
        if let Some(engine) = self.lane_engine() {
            let seed = lanes::Source::Seed(seed);
            // SAFETY: the engine is that of a lane path, which `Path::or_available` keeps only
            // where `lanes::available(engine)` found every feature `play_range` enables.
            unsafe { lanes::play_range(self, engine, seed, range, s, record) };
            return;
        }
        crate::games::each_game(self, seed, range, s, record);
    }

    fn players(&self) -> usize {
        self.rules.players as usize
    }

    fn max_rounds(&self) -> u64 {
        self.rules.max_rounds
    }

    fn deal_count(&self) -> Result<u128, UsageError> {
        if self.rules.players > 2 {
            return Err(usage_of![
                Op::Exact.of(Self::NAME),
                ": ",
                setting("players", self.rules.players),
                " is simulated only; ",
                Op::Exact,
                " enumerates two-player deals",
            ]);
        }
        let rest = self.fixed_hands.as_ref().map(|h| h[1].as_slice());
        let space = DealSpace::of(&self.rules, &self.deck, rest)?;
        space
            .count()
            .ok_or_else(|| crate::games::too_many_deals(Self::NAME, self.deck.len()))
    }

    /// The chain answers the uncapped game over every deal and plays no games, so a cap, a
    /// grouping or quit statistics cannot be honoured there: they are refused, not dropped.
    fn solve_chain(
        &self,
        cancel: &crate::cancel::Cancel,
    ) -> Option<crate::error::Result<crate::games::ChainSolution>> {
        (self.rules.pickup == Pickup::Shuffled && self.rules.players == 2).then(|| {
            let r = &self.rules;
            let why = "the Markov chain that answers a shuffled pickup plays no games";
            if r.max_rounds != CLASSIC_MAX_ROUNDS {
                return Err(usage_of![
                    Op::Exact.of(Self::NAME),
                    format!(
                        ": a cap of {} rounds: {why} and answers the game without a cap; leave ",
                        grouped(r.max_rounds)
                    ),
                    setting_alone("max_rounds"),
                    format!(
                        " at its default of {} (and no bryer preset), or use ",
                        grouped(CLASSIC_MAX_ROUNDS)
                    ),
                    Op::Simulate,
                ]
                .into());
            }
            for (set, option) in [(r.by.is_some(), "by"), (r.quit_stats, "quit_stats")] {
                if set {
                    return Err(usage_of![
                        Op::Exact.of(Self::NAME),
                        ": ",
                        setting_alone(option),
                        format!(": {why}; use "),
                        Op::Simulate,
                    ]
                    .into());
                }
            }
            markov::solve(self, cancel)
        })
    }

    fn play_deal_number(&self, i: u64, s: &mut WarScratch) -> Option<GameResult<WarGame>> {
        let half = self.deal_cards(i, s)?;
        let (p1, p2) = s.deal.split_at(half);
        self.set_dealt([p1, p2], &mut s.detector.hare);
        Some(self.run_dealt(&mut NoRandomness, s, None))
    }

    /// In lanes where [`War::path`] says so; otherwise one deal at a time.
    fn play_deal_range(
        &self,
        range: std::ops::Range<u64>,
        s: &mut WarScratch,
        record: &mut dyn FnMut(u64, &GameResult<WarGame>),
    ) -> Result<(), u64> {
        #[cfg(target_arch = "x86_64")]
        if let Some(engine) = self.lane_engine().filter(|_| self.deals.is_some()) {
            // SAFETY: as in `play_range`.
            unsafe { lanes::play_range(self, engine, lanes::Source::Deals, range, s, record) };
            return Ok(());
        }
        crate::games::each_deal(self, range, s, record)
    }

    /// On the path named: played there wherever it can, even where the lanes measured slower.
    fn on_engine(self, path: &crate::games::engine_path::EnginePath) -> Self {
        match path.name().and_then(Path::called) {
            Some(named) => self.on_path(named),
            None => self,
        }
    }

    /// The path's name; `general rounds` where the rules keep the hot loop's blocks off
    /// (honor, kbWar's order, a reversed won pile, `--quit-stats`, more than two players).
    fn engine(&self) -> Option<String> {
        let path = self.path().name();
        Some(if self.blocks && self.rules.players == 2 {
            path.to_string()
        } else {
            format!("{path}, general rounds")
        })
    }

    /// Names the preset only when its settings are unchanged; otherwise the settings alone
    /// (the deal too), so a label never claims `classic` for a run that was not.
    fn describe(&self) -> String {
        let r = &self.rules;
        let settings = format!(
            "{}×{} cards, {} down, short war {}, pickup {}, {}",
            r.ranks,
            r.suits,
            r.war_down,
            setting_name(r.short_war),
            match r.won_pile {
                Some(w) => format!(
                    "{} onto a {} won pile",
                    setting_name(r.pickup),
                    setting_name(w)
                ),
                None => setting_name(r.pickup),
            },
            if r.detect_loops {
                format!(
                    "loops detected{}",
                    cap_unless_default(r.max_rounds, rules::DETECTING_MAX_ROUNDS)
                )
            } else {
                format!("cap {}", grouped(r.max_rounds))
            }
        );
        let preset = WarRules::try_from(&WarSettings {
            preset: Some(r.preset),
            ..WarSettings::default()
        });
        if preset.is_ok_and(|p| p == *r) {
            return format!("{}: {settings}", setting_name(r.preset));
        }
        let mut text = match &r.p1_cards {
            Some(cards) => format!(
                "{settings}, player 1 dealt {}",
                trace::cards_text(cards.iter().copied())
            ),
            None => format!("{settings}, deal {}", setting_name(r.deal)),
        };
        if let Some(k) = r.honor {
            text.push_str(&format!(", honor {k}"));
        }
        if let Some(by) = r.by {
            text.push_str(&format!(", by {}", setting_name(by)));
        }
        if r.players > 2 {
            text = format!("{} players, {text}", r.players);
        }
        text
    }

    fn detects_loops(&self) -> bool {
        self.rules.detect_loops
    }

    fn grouping(&self) -> Option<String> {
        self.rules.by.map(|b| b.meaning().to_string())
    }

    /// `--by p1-top`: player 1 is dealt 0 to `suits` cards of the highest rank.
    fn groups(&self) -> u64 {
        self.rules.by.map_or(0, |_| u64::from(self.rules.suits) + 1)
    }
}

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_deals;
#[cfg(all(test, target_arch = "x86_64"))]
mod tests_lanes;
#[cfg(test)]
mod tests_multi;
