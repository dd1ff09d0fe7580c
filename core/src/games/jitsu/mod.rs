//! Card-Jitsu, Part 2 of its rules document (docs/rules/jitsu.md): player 1 holds a hand of
//! five distinct cards, the computer plays a uniformly random card each round.
//!
//! A card has an element (Fire, Water, Snow), a colour (Yellow, Orange, Red, Blue, Green,
//! Purple) and a value 2..12: 198 cards, written e.g. `FB9`. Different elements: Fire beats Snow,
//! Snow beats Water, Water beats Fire; the same element: the higher value wins; otherwise a tie.
//! The round's winner adds the card they played to their winning pile. A pile wins the game when
//! it holds three cards of three different colours whose elements are all the same or all
//! different; the game ends at once. Player 1's played card leaves the hand and a new random card
//! not already in the hand is appended at the end.

use rand::RngCore;
use serde::{Deserialize, Serialize};

use super::cards::bounded;
use super::{cap_unless_default, check_max_rounds, Game, GameResult, Outcome};
use crate::error::UsageError;
use crate::settings::setting_name;

/// The round cap when `--max-rounds` is not given; a description names any other cap.
pub const DEFAULT_MAX_ROUNDS: u64 = 100_000;

/// Number of distinct cards.
pub const CARDS: u8 = 198;
/// Cards in player 1's hand.
pub const HAND: usize = 5;
const ELEMENTS: [char; 3] = ['F', 'W', 'S'];
const COLOURS: [char; 6] = ['Y', 'O', 'R', 'B', 'G', 'P'];

/// A card, numbered 0..198 as (element·6 + colour)·11 + (value − 2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Card(pub u8);

impl Card {
    /// The card of element `e` (0 F, 1 W, 2 S), colour `c` (0..6 in YORBGP order), value `v`.
    pub fn new(e: u8, c: u8, v: u8) -> Card {
        Card((e * 6 + c) * 11 + (v - 2))
    }
    /// Element: 0 Fire, 1 Water, 2 Snow.
    pub fn element(self) -> u8 {
        self.0 / 66
    }
    /// Colour: 0..6 for Y, O, R, B, G, P.
    pub fn colour(self) -> u8 {
        self.0 / 11 % 6
    }
    /// Value 2..=12.
    pub fn value(self) -> u8 {
        self.0 % 11 + 2
    }
    /// Reads `FB9`-style text.
    pub fn parse(s: &str) -> Option<Card> {
        let mut ch = s.chars();
        let (e, c) = (ch.next()?, ch.next()?);
        let e = ELEMENTS.iter().position(|&x| x == e)? as u8;
        let c = COLOURS.iter().position(|&x| x == c)? as u8;
        let v: u8 = ch.as_str().parse().ok()?;
        (2..=12).contains(&v).then(|| Card::new(e, c, v))
    }
}

impl std::fmt::Display for Card {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (e, c) = (
            ELEMENTS[usize::from(self.element())],
            COLOURS[usize::from(self.colour())],
        );
        write!(f, "{e}{c}{}", self.value())
    }
}

/// The round's result: 1 player 1 won, 2 player 2 won, 0 tie.
pub fn round_winner(p1: Card, p2: Card) -> u8 {
    let (a, b) = (p1.element(), p2.element());
    if a != b {
        // Fire (0) beats Snow (2), Snow beats Water (1), Water beats Fire: a beats b when
        // b = a + 2 mod 3.
        return if (a + 2) % 3 == b { 1 } else { 2 };
    }
    match p1.value().cmp(&p2.value()) {
        std::cmp::Ordering::Greater => 1,
        std::cmp::Ordering::Less => 2,
        std::cmp::Ordering::Equal => 0,
    }
}

/// A winning pile, kept as the set of (element, colour) pairs it holds: values and repeated
/// cards never matter to the winning condition.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pile {
    /// Bit `element·6 + colour`.
    seen: u32,
    /// Cards added, in order, for display.
    len: u32,
}

impl Pile {
    /// Adds a won card.
    pub fn add(&mut self, c: Card) {
        self.seen |= 1 << (c.element() * 6 + c.colour());
        self.len += 1;
    }

    fn colours(self, e: u8) -> u32 {
        self.seen >> (e * 6) & 0b11_1111
    }

    /// Whether the pile holds three cards of three different colours whose elements are all
    /// the same or all different.
    pub fn wins(self) -> bool {
        if (0..3).any(|e| self.colours(e).count_ones() >= 3) {
            return true;
        }
        let (f, w, s) = (self.colours(0), self.colours(1), self.colours(2));
        (0..6).any(|cf| {
            f >> cf & 1 == 1
                && (0..6)
                    .any(|cw| cw != cf && w >> cw & 1 == 1 && (s & !(1 << cf) & !(1 << cw)) != 0)
        })
    }

    /// Whether adding `c` would make the pile win.
    pub fn would_win_with(self, c: Card) -> bool {
        let mut p = self;
        p.add(c);
        p.wins()
    }
}

/// Player 1's hand: five distinct cards, the newest last.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hand(pub Vec<Card>);

/// A uniformly random card.
pub fn random_card<R: RngCore + ?Sized>(rng: &mut R) -> Card {
    Card(bounded(rng, u32::from(CARDS)) as u8)
}

impl Hand {
    /// Five distinct random cards.
    pub fn deal<R: RngCore + ?Sized>(rng: &mut R) -> Hand {
        let mut h = Hand(Vec::with_capacity(HAND));
        while h.0.len() < HAND {
            h.draw(rng);
        }
        h
    }

    /// Appends a random card not already in the hand (uniform over the others).
    pub fn draw<R: RngCore + ?Sized>(&mut self, rng: &mut R) {
        loop {
            let c = random_card(rng);
            if !self.0.contains(&c) {
                self.0.push(c);
                return;
            }
        }
    }

    /// Plays the card at 0-based position `i`: it leaves the hand, a new card is appended.
    pub fn play<R: RngCore + ?Sized>(&mut self, i: usize, rng: &mut R) -> Card {
        let c = self.0.remove(i);
        self.draw(rng);
        c
    }
}

/// One round's record, for the transcript.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Round {
    /// Player 1's card.
    pub p1: Card,
    /// The computer's card.
    pub p2: Card,
    /// 1, 2 or 0.
    pub result: u8,
}

/// A game in progress: hand, winning piles (as cards, for display, and as sets).
#[derive(Clone, Debug)]
pub struct Match {
    /// Player 1's hand.
    pub hand: Hand,
    /// Cards won by each player, in order.
    pub won: [Vec<Card>; 2],
    piles: [Pile; 2],
}

impl Match {
    /// A new game: player 1's hand dealt from `rng`.
    pub fn new<R: RngCore + ?Sized>(rng: &mut R) -> Match {
        Match {
            hand: Hand::deal(rng),
            won: [Vec::new(), Vec::new()],
            piles: [Pile::default(); 2],
        }
    }

    /// Plays hand position `i` (0-based) against a random card: the computer's card is drawn
    /// first, then player 1's replacement card. Returns the round, and the winner of the game
    /// (0 or 1) if it ended.
    pub fn round<R: RngCore + ?Sized>(&mut self, i: usize, rng: &mut R) -> (Round, Option<usize>) {
        let p2 = random_card(rng);
        let p1 = self.hand.play(i, rng);
        let result = round_winner(p1, p2);
        let mut ended = None;
        if result != 0 {
            let w = usize::from(result - 1);
            let card = if w == 0 { p1 } else { p2 };
            self.won[w].push(card);
            self.piles[w].add(card);
            if self.piles[w].wins() {
                ended = Some(w);
            }
        }
        (Round { p1, p2, result }, ended)
    }

    /// Player 1's winning pile as a set.
    pub fn pile(&self, p: usize) -> Pile {
        self.piles[p]
    }
}

/// Writes a list of cards as the seed's example does: `[FB4,SG10]`.
pub fn list(cards: &[Card]) -> String {
    let parts: Vec<String> = cards.iter().map(Card::to_string).collect();
    format!("[{}]", parts.join(","))
}

crate::choice! {
    /// How player 1 picks a card in `simulate jitsu`.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
    #[serde(rename_all = "kebab-case")]
    pub enum Strategy {
        /// A uniformly random hand position.
        Random,
        /// A card that would win the game if it wins the round, if any; otherwise the card most
        /// likely to win the round against a uniformly random card; ties go to a card whose
        /// (element, colour) is new to player 1's pile, then to the earliest hand position.
        Greedy,
    }
}

/// Number of the 198 cards that `c` beats.
pub fn beats(c: Card) -> u32 {
    // 66 cards of the element it beats, plus the same element's 6 colours × lower values.
    66 + 6 * u32::from(c.value() - 2)
}

impl Strategy {
    /// The hand position (0-based) to play.
    pub fn choose<R: RngCore + ?Sized>(self, m: &Match, rng: &mut R) -> usize {
        match self {
            Strategy::Random => bounded(rng, HAND as u32) as usize,
            Strategy::Greedy => {
                let pile = m.pile(0);
                let score = |c: Card| {
                    let new_pair = pile.seen >> (c.element() * 6 + c.colour()) & 1 == 0;
                    (pile.would_win_with(c), beats(c), new_pair)
                };
                let mut best = 0;
                for i in 1..HAND {
                    if score(m.hand.0[i]) > score(m.hand.0[best]) {
                        best = i;
                    }
                }
                best
            }
        }
    }
}

/// The rule settings of a Card-Jitsu run, each declared once: the command line's flags (their
/// help is the doc comments), Python's keyword arguments and the JSON `rules` object
/// ([`Jitsu::from_settings`] checks them).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
pub struct JitsuSettings {
    /// How player 1 plays.
    #[cfg_attr(feature = "clap", arg(long, value_parser = crate::settings::clap_values::choice::<Strategy>(),
        default_value_t = JitsuSettings::default().strategy))]
    pub strategy: Strategy,
    /// Stop a game after this many rounds (outcome `capped`).
    #[cfg_attr(feature = "clap", arg(long, value_name = "M", allow_negative_numbers = true,
        default_value_t = JitsuSettings::default().max_rounds, value_parser = crate::settings::parse_rounds))]
    pub max_rounds: u64,
}

impl Default for JitsuSettings {
    /// Player 1 plays at random.
    fn default() -> Self {
        JitsuSettings {
            strategy: Strategy::Random,
            max_rounds: DEFAULT_MAX_ROUNDS,
        }
    }
}

impl JitsuSettings {
    /// The settings if a game can have them, or an error naming the one it cannot.
    fn check(o: &JitsuSettings) -> Result<Self, UsageError> {
        Ok(JitsuSettings {
            strategy: o.strategy,
            max_rounds: check_max_rounds(o.max_rounds, "round")?,
        })
    }
}

/// Automatic play: the [`Game`] of `simulate jitsu`.
#[derive(Clone, Debug)]
pub struct Jitsu {
    rules: JitsuSettings,
}

impl Jitsu {
    /// The game for `rules`, or an error naming the setting no game can have: the same checks
    /// as the options of the command line ([`checked`](super::checked)).
    pub fn new(rules: JitsuSettings) -> Result<Self, UsageError> {
        super::checked(rules)
    }

    /// The game for rules that passed those checks.
    fn build(rules: JitsuSettings) -> Self {
        Jitsu { rules }
    }
}

impl Game for Jitsu {
    const NAME: &'static str = "jitsu";
    type Settings = JitsuSettings;
    type Rules = JitsuSettings;
    type Stats = ();
    type Scratch = ();

    fn from_settings(o: &JitsuSettings) -> Result<Self, UsageError> {
        Ok(Jitsu::build(JitsuSettings::check(o)?))
    }

    fn rules(&self) -> &JitsuSettings {
        &self.rules
    }

    fn settings_of(r: &JitsuSettings) -> JitsuSettings {
        r.clone()
    }

    fn scratch(&self) {}

    fn play<R: RngCore + ?Sized>(&self, rng: &mut R, _: &mut ()) -> GameResult {
        let mut m = Match::new(rng);
        for round in 1..=self.rules.max_rounds {
            let i = self.rules.strategy.choose(&m, rng);
            if let (_, Some(w)) = m.round(i, rng) {
                return GameResult::plain(round, Outcome::Player(w as u8));
            }
        }
        GameResult::plain(self.rules.max_rounds, Outcome::Capped)
    }

    fn players(&self) -> usize {
        2
    }

    fn max_rounds(&self) -> u64 {
        self.rules.max_rounds
    }

    fn describe(&self) -> String {
        format!(
            "player 1 {}, computer random{}",
            setting_name(self.rules.strategy),
            cap_unless_default(self.rules.max_rounds, DEFAULT_MAX_ROUNDS)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::game_rng;

    fn c(s: &str) -> Card {
        Card::parse(s).unwrap_or_else(|| panic!("{s} is no card"))
    }

    #[test]
    fn cards_round_trip_and_number_198() {
        for i in 0..CARDS {
            let k = Card(i);
            assert_eq!(Card::parse(&k.to_string()), Some(k));
        }
        assert_eq!(c("FB9").to_string(), "FB9");
        assert_eq!(c("SG10").value(), 10);
        assert_eq!(Card::parse("IY6"), None); // the example's typo is no card
        assert_eq!(Card::parse("FB13"), None);
        assert_eq!(Card::parse("FB1"), None);
    }

    #[test]
    fn round_rule_on_every_element_pair_and_value_case() {
        // Different elements decide whatever the values.
        for (a, b, want) in [
            ("F", "S", 1),
            ("S", "W", 1),
            ("W", "F", 1),
            ("S", "F", 2),
            ("W", "S", 2),
            ("F", "W", 2),
        ] {
            for (va, vb) in [(2, 12), (12, 2), (7, 7)] {
                assert_eq!(
                    round_winner(c(&format!("{a}Y{va}")), c(&format!("{b}R{vb}"))),
                    want,
                    "{a}{va} v {b}{vb}"
                );
            }
        }
        // The same element: the higher value, or a tie (colours do not matter).
        for e in ["F", "W", "S"] {
            assert_eq!(round_winner(c(&format!("{e}Y9")), c(&format!("{e}P4"))), 1);
            assert_eq!(round_winner(c(&format!("{e}Y4")), c(&format!("{e}P9"))), 2);
            assert_eq!(round_winner(c(&format!("{e}Y7")), c(&format!("{e}P7"))), 0);
        }
        // The seed's example rounds: FB4 v SY6 → 1, WY7 v WB8 → 2, SG10 v WG10 → 1, WG7 v WY4 → 1,
        // WR2 v WG2 → 0, and the last round (SR9, as the hand holds SP9: SP9) v WO10 → 1.
        assert_eq!(round_winner(c("FB4"), c("SY6")), 1);
        assert_eq!(round_winner(c("WY7"), c("WB8")), 2);
        assert_eq!(round_winner(c("SG10"), c("WG10")), 1);
        assert_eq!(round_winner(c("WG7"), c("WY4")), 1);
        assert_eq!(round_winner(c("WR2"), c("WG2")), 0);
        assert_eq!(round_winner(c("SP9"), c("WO10")), 1);
    }

    fn pile(cards: &[&str]) -> Pile {
        let mut p = Pile::default();
        cards.iter().for_each(|s| p.add(c(s)));
        p
    }

    #[test]
    fn winning_sets() {
        // The seed's final pile: FB4, SG10, WG7, SP9 — FB4, WG7, SP9 are all different elements
        // and colours.
        assert!(pile(&["FB4", "SG10", "WG7", "SP9"]).wins());
        assert!(!pile(&["FB4", "SG10", "WG7"]).wins());
        // Same element, three colours.
        assert!(pile(&["FY2", "FO3", "FR4"]).wins());
        // Same element, but a colour repeats: no set however many copies.
        assert!(!pile(&["FY2", "FY3", "FR4", "FR12", "FY2"]).wins());
        // All elements different but two share a colour: the same-colour trap.
        assert!(!pile(&["FY2", "WY3", "SR4"]).wins());
        assert!(!pile(&["FY2", "WY3", "SY4"]).wins());
        // Repeated cards do not make a set alone.
        assert!(!pile(&["FY2", "FY2", "FY2"]).wins());
        // Mixed: two Fire colours, a Water and a Snow of those colours only — no set...
        assert!(!pile(&["FY2", "FO2", "WY2", "SO2"]).wins());
        // ...until a third colour appears anywhere that completes one.
        assert!(pile(&["FY2", "FO2", "WY2", "SO2", "SR5"]).wins());
    }

    #[test]
    fn hand_never_holds_a_duplicate_over_100000_rounds() {
        let mut rng = game_rng(1, 0);
        let mut m = Match::new(&mut rng);
        for round in 0..100_000 {
            let i = bounded(&mut rng, 5) as usize;
            m.round(i, &mut rng);
            let mut h = m.hand.0.clone();
            assert_eq!(h.len(), HAND);
            h.sort_by_key(|c| c.0);
            h.dedup();
            assert_eq!(h.len(), HAND, "duplicate in hand at round {round}");
        }
    }

    #[test]
    fn played_card_leaves_and_the_new_one_is_appended() {
        let mut rng = game_rng(2, 0);
        let mut m = Match::new(&mut rng);
        let before = m.hand.0.clone();
        let (r, _) = m.round(1, &mut rng);
        assert_eq!(r.p1, before[1]);
        let mut rest = before.clone();
        rest.remove(1);
        assert_eq!(&m.hand.0[..4], &rest[..]);
    }

    #[test]
    fn greedy_takes_a_game_winning_card_then_the_strongest() {
        let mut m = Match::new(&mut game_rng(3, 0));
        m.hand = Hand(vec![c("FY2"), c("WR12"), c("SB5"), c("FG12"), c("SO3")]);
        // No card completes a set: the strongest, WR12 and FG12 (each beats 126 of 198 cards);
        // the tie goes to the earlier hand position.
        assert_eq!(beats(c("WR12")), 126);
        assert_eq!(Strategy::Greedy.choose(&m, &mut game_rng(0, 0)), 1);
        // With Fire-Yellow and Snow-Orange won, any Water card of a third colour wins the game,
        // so the weak WR2 beats the strong FG12.
        m.piles[0] = pile(&["FY9", "SO9"]);
        m.hand = Hand(vec![c("FY12"), c("WR2"), c("SB5"), c("FG12"), c("SO3")]);
        assert_eq!(Strategy::Greedy.choose(&m, &mut game_rng(0, 0)), 1);
    }
}
