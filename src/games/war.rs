//! Deck War (`deck-war.txt`): two players, a deck of ranks × suits, wars on ties.
//!
//! A round ("battle") is both players turning up their top card; the higher rank takes both.
//! On a tie the players fight a war: each lays `war_down` cards face down and turns up one more,
//! and the higher of those takes everything on the table; ties nest. How short players are
//! treated and in which order won cards go under the winner's hand are rule options
//! ([`ShortWar`], [`Pickup`]), because published simulators differ exactly there.
//!
//! The `bryer` preset reproduces the R program of the seed document, quirks included:
//! see [`Preset::Bryer`].

use std::fmt::Write as _;
use std::hint::select_unpredictable;

use rand::RngCore;
use serde::Serialize;

use super::cards::{bounded, shuffle, Card, CoinFlips, Cursor, HashPowers, Pile};
use super::{setting_name, Cycle, Game, GameResult, Outcome, WAR_DEPTHS};
use crate::error::UsageError;
use crate::sim::cycle::{run_detecting, Advance, Deterministic, Ending};
use crate::usage;

/// Largest deck we deal: hands are fixed-capacity ring buffers of this many cards at most.
pub const MAX_DECK: usize = 4096;
/// The round cap with loop detection on: a safety net only (cycles of 200,000+ rounds occur).
pub const DETECTING_MAX_ROUNDS: u64 = 10_000_000;
/// The round cap of the `classic` preset without loop detection.
pub const CLASSIC_MAX_ROUNDS: u64 = 100_000;
/// The R program's `max_games`.
pub const BRYER_MAX_ROUNDS: u64 = 2_000;

/// A named rule set; explicit options override its settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, clap::ValueEnum)]
#[serde(rename_all = "kebab-case")]
pub enum Preset {
    /// Shuffled hands, 3 down, `last-card`, `shuffled` pickup, cap 100,000 rounds.
    Classic,
    /// The R program of `deck-war.txt`: its deal, its short-war check, its pickup order and its
    /// cap of 2,000 rounds; no loop detection (the R program has none).
    Bryer,
}

/// What happens at a war to a player who has too few cards for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, clap::ValueEnum)]
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

/// Where won cards go.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, clap::ValueEnum)]
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
}

impl Pickup {
    /// Whether play after the deal draws no randomness, so a game can cycle forever.
    pub fn is_deterministic(self) -> bool {
        !matches!(self, Pickup::Shuffled | Pickup::WonPile)
    }
}

/// How the deck is split between the players.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum DealOrder {
    /// The whole deck shuffled; player 1 takes the first half, player 2 the second.
    Shuffled,
    /// R's `sample(52, 26)`: player 1 gets half the cards drawn at random in random order,
    /// player 2 the rest in the original deck order (1..R, 1..R, …).
    Bryer,
}

/// `--detect-loops`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum DetectLoops {
    /// On for deterministic rule sets, off otherwise (the `bryer` preset: off).
    Auto,
    /// Report a repeated state as outcome `loop` (deterministic pickups only).
    On,
    /// Play to the round cap.
    Off,
}

/// The rule options of `simulate war` and `play war`.
#[derive(Clone, Debug, Default, clap::Args)]
pub struct WarOptions {
    /// Rule preset; the options below override its settings.
    ///
    /// [default: classic]
    #[arg(long = "rules", value_enum)]
    pub preset: Option<Preset>,
    /// Number of ranks (cards are ranks 1..R; higher beats lower).
    #[arg(long, value_name = "R")]
    pub ranks: Option<u32>,
    /// Number of suits (copies of each rank).
    #[arg(long, value_name = "S")]
    pub suits: Option<u32>,
    /// Face-down cards per war.
    #[arg(long, value_name = "K")]
    pub war_down: Option<u32>,
    /// A player without enough cards for a war: loses, or plays their last card face up.
    #[arg(long, value_enum)]
    pub short_war: Option<ShortWar>,
    /// Order in which won cards go under the winner's hand.
    #[arg(long, value_enum)]
    pub pickup: Option<Pickup>,
    /// Report repeated states of deterministic rule sets as outcome `loop`.
    #[arg(long, value_enum)]
    pub detect_loops: Option<DetectLoops>,
    /// Stop an undecided game after this many rounds (outcome `capped`).
    #[arg(long, value_name = "M")]
    pub max_rounds: Option<u64>,
}

/// Every rule setting of a War run, preset expanded; serialised as the JSON `rules` object.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
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
    /// How the deck is dealt.
    pub deal: DealOrder,
    /// Whether repeated states end the game as `loop`.
    pub detect_loops: bool,
    /// Round cap (outcome `capped`).
    pub max_rounds: u64,
}

impl TryFrom<&WarOptions> for WarRules {
    type Error = UsageError;

    fn try_from(o: &WarOptions) -> Result<Self, UsageError> {
        let preset = o.preset.unwrap_or(Preset::Classic);
        let (short_war, pickup, deal) = match preset {
            Preset::Classic => (ShortWar::LastCard, Pickup::Shuffled, DealOrder::Shuffled),
            Preset::Bryer => (ShortWar::Bryer, Pickup::Bryer, DealOrder::Bryer),
        };
        let ranks = o.ranks.unwrap_or(13);
        let suits = o.suits.unwrap_or(4);
        let pickup = o.pickup.unwrap_or(pickup);
        if !(1..=255).contains(&ranks) {
            return Err(usage!("--ranks {ranks}: ranks must be between 1 and 255"));
        }
        if suits == 0 {
            return Err(usage!("--suits 0: a deck needs at least one suit"));
        }
        let deck = u64::from(ranks) * u64::from(suits);
        if deck % 2 == 1 || deck > MAX_DECK as u64 {
            return Err(usage!(
                "--ranks {ranks} --suits {suits}: a deck of {deck} cards cannot be dealt into two \
                 equal hands of at most {} cards",
                MAX_DECK / 2
            ));
        }
        let detect_loops = match (o.detect_loops.unwrap_or(DetectLoops::Auto), preset) {
            (DetectLoops::On, _) if !pickup.is_deterministic() => {
                return Err(usage!(
                    "--detect-loops on: pickup {:?} uses randomness, so a repeated state need \
                     not repeat forever; use a deterministic pickup or --detect-loops off",
                    setting_name(pickup)
                ));
            }
            (DetectLoops::On, _) => true,
            (DetectLoops::Off, _) | (DetectLoops::Auto, Preset::Bryer) => false,
            (DetectLoops::Auto, Preset::Classic) => pickup.is_deterministic(),
        };
        let max_rounds = match (o.max_rounds, preset) {
            (Some(0), _) => return Err(usage!("--max-rounds 0: a game needs at least one round")),
            (Some(m), _) => m,
            (None, Preset::Bryer) => BRYER_MAX_ROUNDS,
            (None, Preset::Classic) if detect_loops => DETECTING_MAX_ROUNDS,
            (None, Preset::Classic) => CLASSIC_MAX_ROUNDS,
        };
        Ok(WarRules {
            preset,
            ranks,
            suits,
            war_down: o.war_down.unwrap_or(3),
            short_war: o.short_war.unwrap_or(short_war),
            pickup,
            deal,
            detect_loops,
            max_rounds,
        })
    }
}

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
}

impl War {
    /// The game for a validated rule set.
    pub fn new(rules: WarRules) -> Self {
        let deck: Vec<Card> = (0..rules.suits)
            .flat_map(|_| 1..=rules.ranks as Card)
            .collect();
        Self::with_capacity(rules, deck)
    }

    fn with_capacity(rules: WarRules, deck: Vec<Card>) -> Self {
        let capacity = deck.len().max(2);
        War {
            rules,
            positions: (0..deck.len() as u16).collect(),
            deck,
            capacity,
        }
    }

    /// The rule set.
    pub fn rules(&self) -> &WarRules {
        &self.rules
    }

    /// Plays a given deal (top card first) to its end, with no randomness unless the pickup
    /// uses some. With `trace`, receives one line per round.
    ///
    /// Errors if a card's rank is outside 1..R or a hand is empty.
    pub fn play_deal<R: RngCore + ?Sized>(
        rules: WarRules,
        hands: [&[Card]; 2],
        rng: &mut R,
        trace: Option<&mut dyn FnMut(String)>,
    ) -> Result<GameResult, UsageError> {
        for (p, hand) in hands.iter().enumerate() {
            if hand.is_empty() {
                return Err(usage!("--deal: player {}'s hand is empty", p + 1));
            }
            if let Some(c) = hand.iter().find(|&&c| c == 0 || u32::from(c) > rules.ranks) {
                return Err(usage!(
                    "--deal: card {c} of player {} is not a rank in 1..{}",
                    p + 1,
                    rules.ranks
                ));
            }
        }
        let all: Vec<Card> = hands.concat();
        let war = War::with_capacity(rules, all);
        let mut s = war.scratch();
        s.hare.set_hands(hands);
        Ok(war.run(rng, &mut s, trace))
    }

    /// Plays game `rng` with an optional per-round trace (the `play war` command).
    pub fn play_traced<R: RngCore + ?Sized>(
        &self,
        rng: &mut R,
        trace: Option<&mut dyn FnMut(String)>,
    ) -> GameResult {
        let mut s = self.scratch();
        s.hare.deal(self, rng);
        self.run(rng, &mut s, trace)
    }

    fn run<R: RngCore + ?Sized>(
        &self,
        rng: &mut R,
        s: &mut WarScratch,
        trace: Option<&mut dyn FnMut(String)>,
    ) -> GameResult {
        match trace {
            None => self.run_dealt(rng, s),
            Some(sink) => self.run_traced(rng, s, sink),
        }
    }

    /// Plays a dealt game (in `s.hare`) to its end.
    fn run_dealt<R: RngCore + ?Sized>(&self, rng: &mut R, s: &mut WarScratch) -> GameResult {
        let max = self.rules.max_rounds;
        if self.rules.detect_loops {
            s.initial.copy_from(&s.hare);
            let ending = run_detecting(self, &mut s.hare, &mut s.tortoise, &s.initial, max);
            return s.hare.result(ending, max);
        }
        let mut rounds = 0;
        if let Stop::Ended(outcome) = s.hare.play_rounds(self, rng, &mut rounds, max, None) {
            return s.hare.result(Ending::Ended { rounds, outcome }, max);
        }
        s.hare.mark_cap();
        s.hare.result(Ending::Capped, max)
    }

    /// As [`War::run_dealt`], one traced line per round, then the loop found (if any) on the
    /// same game replayed with detection.
    fn run_traced<R: RngCore + ?Sized>(
        &self,
        rng: &mut R,
        s: &mut WarScratch,
        sink: &mut dyn FnMut(String),
    ) -> GameResult {
        let max = self.rules.max_rounds;
        s.initial.copy_from(&s.hare);
        let result = if self.rules.detect_loops {
            let mut replay = self.scratch();
            replay.hare.copy_from(&s.initial);
            self.run_dealt(rng, &mut replay)
        } else {
            GameResult::plain(0, Outcome::Capped)
        };
        // Trace exactly the rounds the result counts (all of them without detection).
        let shown = if self.rules.detect_loops {
            result.rounds
        } else {
            max
        };
        sink(format!(
            "deal     p1 [{}]  p2 [{}]",
            cards_text(s.hare.hands[0].iter()),
            cards_text(s.hare.hands[1].iter())
        ));
        for round in 1..=shown {
            let ended = s.hare.round(self, rng);
            sink(s.hare.trace_line(round, ended));
            if let Some(outcome) = ended {
                if !self.rules.detect_loops {
                    return s.hare.result(
                        Ending::Ended {
                            rounds: round,
                            outcome,
                        },
                        max,
                    );
                }
            }
        }
        if self.rules.detect_loops {
            if let Some(c) = result.cycle {
                sink(format!(
                    "loop: the state after round {} is the state after round {} (cycle of {} rounds)",
                    c.loop_from + c.cycle_len,
                    c.loop_from,
                    c.cycle_len
                ));
            }
            return result;
        }
        s.hare.mark_cap();
        s.hare.result(Ending::Capped, max)
    }
}

fn cards_text(cards: impl Iterator<Item = Card>) -> String {
    cards.map(|c| c.to_string()).collect::<Vec<_>>().join(" ")
}

impl Game for War {
    type Scratch = WarScratch;

    fn scratch(&self) -> WarScratch {
        WarScratch {
            hare: Position::new(self.capacity),
            tortoise: Position::new(self.capacity),
            initial: Position::new(self.capacity),
        }
    }

    fn play<R: RngCore + ?Sized>(&self, rng: &mut R, s: &mut WarScratch) -> GameResult {
        s.hare.deal(self, rng);
        self.run_dealt(rng, s)
    }

    fn players(&self) -> usize {
        2
    }

    fn name(&self) -> &'static str {
        "war"
    }

    fn describe(&self) -> String {
        let r = &self.rules;
        format!(
            "{}: {}×{} cards, {} down, short war {}, pickup {}, {}",
            setting_name(r.preset),
            r.ranks,
            r.suits,
            r.war_down,
            setting_name(r.short_war),
            setting_name(r.pickup),
            if r.detect_loops {
                "loops detected".to_string()
            } else {
                format!("cap {}", r.max_rounds)
            }
        )
    }

    fn rules_json(&self) -> serde_json::Value {
        serde_json::to_value(&self.rules).unwrap_or_default()
    }

    fn counts_wars(&self) -> bool {
        true
    }

    fn detects_loops(&self) -> bool {
        self.rules.detect_loops
    }
}

/// One worker's buffers: the running game, and Brent's two extra copies.
#[derive(Clone, Debug)]
pub struct WarScratch {
    hare: Position,
    tortoise: Position,
    initial: Position,
}

/// The state of one game between rounds, plus the buffers a round needs.
#[derive(Clone, Debug)]
struct Position {
    hands: [Pile; 2],
    /// Won piles, used by [`Pickup::WonPile`] only.
    won: [Pile; 2],
    /// Cards each player laid this round, in play order.
    table: [Vec<Card>; 2],
    /// Where each war level after the first starts in `table`, per player.
    levels: Vec<[usize; 2]>,
    /// Scratch for shuffles.
    spare: Vec<Card>,
    /// Scratch for the `bryer` deal: deck positions, and which ones player 1 drew (a bit set).
    positions: Vec<u16>,
    taken: Vec<u64>,
    coins: CoinFlips,
    wars: u32,
    deepest: u32,
    /// Battles per war depth, as [`GameResult::war_depths`].
    by_depth: [u32; WAR_DEPTHS],
    /// (`wars`, `deepest`, `by_depth`) when the round cap was reached.
    at_cap: (u32, u32, [u32; WAR_DEPTHS]),
}

/// Why the hot loop stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stop {
    /// The game was decided.
    Ended(Outcome),
    /// The requested number of rounds was played.
    Limit,
    /// The position may equal the probed one (its cheap image matches).
    Probe,
}

/// A cheap image of a position: player 1's hand size and both hands' top and bottom cards.
/// Equal positions have equal images; unequal ones rarely do (then a full comparison decides),
/// so loop detection costs a few compares per round and no hashing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Probe {
    len0: usize,
    ends: [Card; 4],
}

impl Probe {
    /// The image of two non-empty hands.
    fn of(hands: &[Pile; 2]) -> Probe {
        let end = |p: &Pile| [p.get(0), p.last().unwrap_or(0)];
        let ([t0, b0], [t1, b1]) = (end(&hands[0]), end(&hands[1]));
        Probe {
            len0: hands[0].len(),
            ends: [t0, b0, t1, b1],
        }
    }

    /// Whether hands held as cursors over buffers have this image.
    #[inline(always)]
    fn hits(self, c0: Cursor, b0: &[Card], c1: Cursor, b1: &[Card]) -> bool {
        c0.len() == self.len0
            && c0.top(b0) == self.ends[0]
            && c1.top(b1) == self.ends[2]
            && c0.bottom(b0) == self.ends[1]
            && c1.bottom(b1) == self.ends[3]
    }
}

/// Orders of a plain battle's two cards under the winner's hand (`plain_rounds`' `ORDER`).
const WINNER_FIRST: u8 = 0;
const LOSER_FIRST: u8 = 1;
const P1_FIRST: u8 = 2;
const RANDOM_ORDER: u8 = 3;

/// Stands in for a generator where the rules draw no randomness (deterministic pickups).
struct NoRandomness;

impl RngCore for NoRandomness {
    fn next_u32(&mut self) -> u32 {
        unreachable!("a deterministic War rule set drew a random number")
    }
    fn next_u64(&mut self) -> u64 {
        unreachable!("a deterministic War rule set drew a random number")
    }
    fn fill_bytes(&mut self, _: &mut [u8]) {
        unreachable!("a deterministic War rule set drew a random number")
    }
}

impl Deterministic for Position {
    type Context = War;

    #[inline]
    fn step(&mut self, war: &War) -> Option<Outcome> {
        match self.play_rounds(war, &mut NoRandomness, &mut 0, 1, None) {
            Stop::Ended(o) => Some(o),
            Stop::Limit | Stop::Probe => None,
        }
    }

    /// Runs the hot loop with the target's image as a probe, so that the full comparison
    /// happens only when the cheap image matches.
    fn advance(&mut self, war: &War, n: u64, target: &Self) -> Advance {
        let probe = Probe::of(&target.hands);
        let mut played = 0;
        loop {
            match self.play_rounds(war, &mut NoRandomness, &mut played, n, Some(probe)) {
                Stop::Ended(o) => {
                    return Advance {
                        played,
                        ended: Some(o),
                        matched: false,
                    }
                }
                Stop::Limit => {
                    return Advance {
                        played,
                        ended: None,
                        matched: false,
                    }
                }
                Stop::Probe if self.same_state(target) => {
                    return Advance {
                        played,
                        ended: None,
                        matched: true,
                    }
                }
                Stop::Probe if played == n => {
                    return Advance {
                        played,
                        ended: None,
                        matched: false,
                    }
                }
                Stop::Probe => {}
            }
        }
    }

    #[inline]
    fn same_state(&self, other: &Self) -> bool {
        self.hands[0].same_sequence(&other.hands[0]) && self.hands[1].same_sequence(&other.hands[1])
    }

    fn copy_from(&mut self, other: &Self) {
        for p in 0..2 {
            self.hands[p].copy_from(&other.hands[p]);
            self.won[p].copy_from(&other.won[p]);
        }
        // `at_cap` stays: it belongs to the running game, which Brent's search re-copies.
        self.wars = other.wars;
        self.deepest = other.deepest;
        self.by_depth = other.by_depth;
        self.coins = other.coins.clone();
    }

    fn mark_cap(&mut self) {
        self.at_cap = (self.wars, self.deepest, self.by_depth);
    }
}

impl Position {
    fn new(capacity: usize) -> Self {
        Position {
            hands: [Pile::with_capacity(capacity), Pile::with_capacity(capacity)],
            won: [Pile::with_capacity(capacity), Pile::with_capacity(capacity)],
            table: [Vec::with_capacity(capacity), Vec::with_capacity(capacity)],
            levels: Vec::with_capacity(capacity),
            spare: Vec::with_capacity(capacity),
            positions: Vec::with_capacity(capacity),
            taken: Vec::with_capacity(capacity),
            coins: CoinFlips::default(),
            wars: 0,
            deepest: 0,
            by_depth: [0; WAR_DEPTHS],
            at_cap: (0, 0, [0; WAR_DEPTHS]),
        }
    }

    fn reset(&mut self) {
        for p in 0..2 {
            self.hands[p].clear();
            self.won[p].clear();
        }
        self.coins.reset();
        self.wars = 0;
        self.deepest = 0;
        self.by_depth = [0; WAR_DEPTHS];
        self.at_cap = (0, 0, [0; WAR_DEPTHS]);
    }

    fn set_hands(&mut self, hands: [&[Card]; 2]) {
        self.reset();
        for (pile, cards) in self.hands.iter_mut().zip(hands) {
            cards.iter().for_each(|&c| pile.push_bottom(c));
        }
    }

    /// Deals a new game from `rng`.
    fn deal<R: RngCore + ?Sized>(&mut self, war: &War, rng: &mut R) {
        self.reset();
        let n = war.deck.len();
        let half = n / 2;
        let hp = HashPowers::none();
        self.spare.clear();
        match war.rules.deal {
            DealOrder::Shuffled => {
                self.spare.extend_from_slice(&war.deck);
                shuffle(rng, &mut self.spare);
                self.hands[0].extend_bottom::<false>(&self.spare[..half], hp);
                self.hands[1].extend_bottom::<false>(&self.spare[half..], hp);
            }
            DealOrder::Bryer => {
                // `sample(n, n/2)`: a partial Fisher–Yates over deck positions gives player 1
                // a uniformly random ordered half; player 2 keeps the rest in deck order.
                self.positions.clear();
                self.positions.extend_from_slice(&war.positions);
                self.taken.clear();
                self.taken.resize(n.div_ceil(64), 0);
                let (buf0, mut c0) = self.hands[0].split();
                for i in 0..half {
                    let j = i + bounded(rng, (n - i) as u32) as usize;
                    self.positions.swap(i, j);
                    let k = usize::from(self.positions[i]);
                    self.taken[k / 64] |= 1 << (k % 64);
                    c0.push::<false>(buf0, war.deck[k], hp);
                }
                self.hands[0].set_cursor(c0);
                // Player 2: the positions not taken, ascending, read off the bit set.
                let (buf1, mut c1) = self.hands[1].split();
                for (w, &bits) in self.taken.iter().enumerate() {
                    let valid = if (w + 1) * 64 <= n {
                        u64::MAX
                    } else {
                        (1 << (n % 64)) - 1
                    };
                    let mut free = !bits & valid;
                    while free != 0 {
                        c1.push::<false>(
                            buf1,
                            war.deck[w * 64 + free.trailing_zeros() as usize],
                            hp,
                        );
                        free &= free - 1;
                    }
                }
                self.hands[1].set_cursor(c1);
            }
        }
    }

    /// Cards player `p` holds (hand and won pile).
    #[inline(always)]
    fn holding(&self, p: usize) -> usize {
        self.hands[p].len() + self.won[p].len()
    }

    /// Player `p`'s next card; with a won pile, an empty hand is first refilled from it.
    #[inline(always)]
    fn draw<R: RngCore + ?Sized>(&mut self, p: usize, rng: &mut R) -> Card {
        if self.hands[p].is_empty() {
            self.refill(p, rng);
        }
        self.hands[p].pop_top()
    }

    /// Shuffles player `p`'s won pile into their empty hand.
    fn refill<R: RngCore + ?Sized>(&mut self, p: usize, rng: &mut R) {
        self.spare.clear();
        self.spare.extend(self.won[p].iter());
        self.won[p].clear();
        shuffle(rng, &mut self.spare);
        for &c in &self.spare {
            self.hands[p].push_bottom(c);
        }
    }

    /// Gives card `c` to player `p`: under the hand, or onto the won pile.
    #[inline(always)]
    fn gain(&mut self, war: &War, p: usize, c: Card) {
        if war.rules.pickup == Pickup::WonPile {
            self.won[p].push_bottom(c);
        } else {
            self.hands[p].push_bottom(c);
        }
    }

    /// Gives `cards` to player `p` in order: under the hand, or onto the won pile.
    #[inline(always)]
    fn give(&mut self, war: &War, p: usize, cards: &[Card]) {
        let pile = if war.rules.pickup == Pickup::WonPile {
            &mut self.won[p]
        } else {
            &mut self.hands[p]
        };
        pile.extend_bottom::<false>(cards, HashPowers::none());
    }

    /// Player `p` lays their next `n` cards on the table (the caller checked they have them).
    #[inline(always)]
    fn lay<R: RngCore + ?Sized>(&mut self, war: &War, p: usize, n: usize, rng: &mut R) {
        if war.rules.pickup == Pickup::WonPile {
            for _ in 0..n {
                let c = self.draw(p, rng);
                self.table[p].push(c);
            }
        } else {
            self.hands[p].take_into::<false>(n, &mut self.table[p], HashPowers::none());
        }
    }

    /// Plays one round by the general path, which leaves the round's cards in `table` (for a
    /// trace); returns the outcome if it decided the game.
    #[inline(always)]
    fn round<R: RngCore + ?Sized>(&mut self, war: &War, rng: &mut R) -> Option<Outcome> {
        let a = self.draw(0, rng);
        let b = self.draw(1, rng);
        self.battle(war, rng, a, b)
    }

    /// Plays rounds until the game is decided, `*rounds` reaches `max`, or (with a
    /// `probe`) the position may equal the probed one, counting them in `*rounds`. Same games
    /// as [`Position::round`], faster.
    #[inline(always)]
    fn play_rounds<R: RngCore + ?Sized>(
        &mut self,
        war: &War,
        rng: &mut R,
        rounds: &mut u64,
        max: u64,
        probe: Option<Probe>,
    ) -> Stop {
        match war.rules.pickup {
            Pickup::WinnerFirst | Pickup::Bryer => {
                self.plain_rounds::<R, WINNER_FIRST>(war, rng, rounds, max, probe)
            }
            Pickup::LoserFirst => self.plain_rounds::<R, LOSER_FIRST>(war, rng, rounds, max, probe),
            Pickup::P1First | Pickup::Table => {
                self.plain_rounds::<R, P1_FIRST>(war, rng, rounds, max, probe)
            }
            Pickup::Shuffled => self.plain_rounds::<R, RANDOM_ORDER>(war, rng, rounds, max, probe),
            Pickup::WonPile => {
                // Draws may refill a hand from its won pile: always the general path (and never
                // under loop detection, as the pile's shuffles are random).
                while *rounds < max {
                    *rounds += 1;
                    if let Some(o) = self.round(war, rng) {
                        return Stop::Ended(o);
                    }
                }
                Stop::Limit
            }
        }
    }

    /// [`Position::play_rounds`] for a pickup that puts a plain battle's two cards under the
    /// winner's hand in the order `ORDER` (a constant, so each order gets its own loop).
    ///
    /// The common round, two different cards and no war, runs on local copies of the hands'
    /// cursors; a tie hands them back and goes through [`Position::battle`].
    #[inline(always)]
    fn plain_rounds<R: RngCore + ?Sized, const ORDER: u8>(
        &mut self,
        war: &War,
        rng: &mut R,
        rounds: &mut u64,
        max: u64,
        probe: Option<Probe>,
    ) -> Stop {
        let hp = HashPowers::none();
        let mut done = *rounds;
        let ended = loop {
            let [p0, p1] = &mut self.hands;
            let (b0, mut c0) = p0.split();
            let (b1, mut c1) = p1.split();
            let mut coins = self.coins.clone();
            let mut tie = None;
            let mut ended = None;
            let mut hit = false;
            while done < max {
                done += 1;
                let a = c0.pop::<false>(b0, hp);
                let b = c1.pop::<false>(b1, hp);
                if a == b {
                    tie = Some(a);
                    break;
                }
                // Who wins a battle is a coin toss to the branch predictor: select, don't branch.
                let w1 = b > a;
                let (cw, cl) = select_unpredictable(w1, (b, a), (a, b));
                let (first, second) = match ORDER {
                    WINNER_FIRST => (cw, cl),
                    LOSER_FIRST => (cl, cw),
                    P1_FIRST => (a, b),
                    _ => select_unpredictable(coins.flip(rng), (cw, cl), (cl, cw)),
                };
                let mut cursor = select_unpredictable(w1, c1, c0);
                let buf: &mut [Card] = select_unpredictable(w1, &mut *b1, &mut *b0);
                cursor.push::<false>(buf, first, hp);
                cursor.push::<false>(buf, second, hp);
                c0 = select_unpredictable(w1, c0, cursor);
                c1 = select_unpredictable(w1, cursor, c1);
                if select_unpredictable(w1, c0, c1).is_empty() {
                    ended = Some(Outcome::Player(u8::from(w1)));
                    break;
                }
                if let Some(p) = probe {
                    if p.hits(c0, b0, c1, b1) {
                        hit = true;
                        break;
                    }
                }
            }
            p0.set_cursor(c0);
            p1.set_cursor(c1);
            self.coins = coins;
            match (ended, tie) {
                (Some(o), _) => break Stop::Ended(o),
                (None, Some(card)) => {
                    if let Some(o) = self.battle(war, rng, card, card) {
                        break Stop::Ended(o);
                    }
                    if probe.is_some_and(|p| p == Probe::of(&self.hands)) {
                        break Stop::Probe;
                    }
                }
                (None, None) if hit => break Stop::Probe,
                (None, None) => break Stop::Limit,
            }
        };
        *rounds = done;
        ended
    }

    /// The general round: a battle whose cards go on the table, with any wars it starts.
    #[inline(never)]
    fn battle<R: RngCore + ?Sized>(
        &mut self,
        war: &War,
        rng: &mut R,
        mut a: Card,
        mut b: Card,
    ) -> Option<Outcome> {
        let k = war.rules.war_down as usize;
        self.table[0].clear();
        self.table[1].clear();
        self.levels.clear();
        self.table[0].push(a);
        self.table[1].push(b);
        let mut depth = 0;
        while a == b {
            depth += 1;
            self.wars += 1;
            let (h0, h1) = (self.holding(0), self.holding(1));
            let (d0, d1) = match war.rules.short_war {
                ShortWar::Lose | ShortWar::Bryer => {
                    let (short0, short1) = (h0 < k + 1, h1 < k + 1);
                    if short0 || short1 {
                        let winner = match (short0, short1, war.rules.short_war) {
                            (true, true, ShortWar::Lose) => None,
                            (true, _, _) => Some(1),
                            _ => Some(0),
                        };
                        return Some(self.end_mid_war(winner, depth));
                    }
                    (k, k)
                }
                ShortWar::LastCard => {
                    if h0 == 0 || h1 == 0 {
                        let winner = match (h0, h1) {
                            (0, 0) => None,
                            (0, _) => Some(1),
                            _ => Some(0),
                        };
                        return Some(self.end_mid_war(winner, depth));
                    }
                    (k.min(h0 - 1), k.min(h1 - 1))
                }
            };
            self.lay(war, 0, d0 + 1, rng);
            self.lay(war, 1, d1 + 1, rng);
            let (n0, n1) = (self.table[0].len(), self.table[1].len());
            self.levels.push([n0 - 1, n1 - 1]);
            (a, b) = (self.table[0][n0 - 1], self.table[1][n1 - 1]);
        }
        self.note_war(depth);
        let w = usize::from(b > a);
        self.collect(war, rng, w);
        (self.holding(1 - w) == 0).then_some(Outcome::Player(w as u8))
    }

    /// Counts a battle whose war reached `depth` (0 = no war).
    fn note_war(&mut self, depth: u32) {
        if depth > 0 {
            self.deepest = self.deepest.max(depth);
            self.by_depth[(depth as usize).min(WAR_DEPTHS) - 1] += 1;
        }
    }

    /// Ends the game in the middle of a war; the table goes to the winner (back to its owners
    /// on a draw), so the final position still holds every card.
    fn end_mid_war(&mut self, winner: Option<usize>, depth: u32) -> Outcome {
        self.note_war(depth);
        for p in 0..2 {
            let to = winner.unwrap_or(p);
            for i in 0..self.table[p].len() {
                let c = self.table[p][i];
                self.hands[to].push_bottom(c);
            }
        }
        match winner {
            Some(w) => Outcome::Player(w as u8),
            None => Outcome::Draw,
        }
    }

    /// Puts the table under the hand of winner `w` in the pickup's order.
    fn collect<R: RngCore + ?Sized>(&mut self, war: &War, rng: &mut R, w: usize) {
        let l = 1 - w;
        let table = std::mem::take(&mut self.table);
        match war.rules.pickup {
            Pickup::P1First | Pickup::WonPile => {
                self.give(war, w, &table[0]);
                self.give(war, w, &table[1]);
            }
            Pickup::WinnerFirst => {
                self.give(war, w, &table[w]);
                self.give(war, w, &table[l]);
            }
            Pickup::LoserFirst => {
                self.give(war, w, &table[l]);
                self.give(war, w, &table[w]);
            }
            Pickup::Table => {
                for level in 0..=self.levels.len() {
                    let [s0, e0] = self.level_span(&table, 0, level);
                    let [s1, e1] = self.level_span(&table, 1, level);
                    for i in 0..(e0 - s0).max(e1 - s1) {
                        if s0 + i < e0 {
                            self.gain(war, w, table[0][s0 + i]);
                        }
                        if s1 + i < e1 {
                            self.gain(war, w, table[1][s1 + i]);
                        }
                    }
                }
            }
            Pickup::Bryer => {
                // The R program: winner's then loser's deciding card, then the set-aside cards
                // of each war level from the innermost out, player 1's then player 2's.
                let last = |p: usize| table[p][table[p].len() - 1];
                self.give(war, w, &[last(w), last(l)]);
                for level in (0..self.levels.len()).rev() {
                    for p in 0..2 {
                        let [s, e] = self.level_span(&table, p, level);
                        self.give(war, w, &table[p][s..e]);
                    }
                }
            }
            Pickup::Shuffled if self.levels.is_empty() => {
                // Two cards: the same coin flip as the fast path in `round`, so a traced replay
                // (which always comes here) draws exactly what the simulation drew.
                let (cw, cl) = (table[w][0], table[l][0]);
                let (first, second) = if self.coins.flip(rng) {
                    (cw, cl)
                } else {
                    (cl, cw)
                };
                self.gain(war, w, first);
                self.gain(war, w, second);
            }
            Pickup::Shuffled => {
                self.spare.clear();
                self.spare.extend(table.iter().flatten());
                shuffle(rng, &mut self.spare);
                let spare = std::mem::take(&mut self.spare);
                self.give(war, w, &spare);
                self.spare = spare;
            }
        }
        self.table = table;
    }

    /// The span `[start, end)` of `table[p]` laid at war level `level` (0 = the first battle;
    /// the last level is the deciding battle's single card).
    fn level_span(&self, table: &[Vec<Card>; 2], p: usize, level: usize) -> [usize; 2] {
        let start = if level == 0 {
            0
        } else {
            self.levels[level - 1][p]
        };
        let end = self.levels.get(level).map_or(table[p].len(), |l| l[p]);
        [start, end]
    }

    /// The game's result once it has ended as `ending`.
    fn result(&self, ending: Ending, max_rounds: u64) -> GameResult {
        let now = (self.wars, self.deepest, self.by_depth);
        let (rounds, outcome, cycle, (wars, deepest, war_depths)) = match ending {
            Ending::Ended { rounds, outcome } => (rounds, outcome, None, now),
            Ending::Loop(c) => (c.loop_from + c.cycle_len, Outcome::Loop, Some(c), now),
            Ending::Capped => (max_rounds, Outcome::Capped, None::<Cycle>, self.at_cap),
        };
        GameResult {
            rounds,
            outcome,
            wars,
            deepest_war: deepest,
            war_depths,
            cycle,
        }
    }

    /// One line of `play war --trace` for the round just played (general path).
    fn trace_line(&self, round: u64, ended: Option<Outcome>) -> String {
        let mut line = format!("{round:>6}  ");
        for p in 0..2 {
            let _ = write!(line, "p{}:", p + 1);
            for level in 0..=self.levels.len() {
                let [s, e] = self.level_span(&self.table, p, level);
                let cards = &self.table[p][s..e];
                if let Some((up, down)) = cards.split_first() {
                    let _ = write!(line, " {up}");
                    if !down.is_empty() {
                        let _ = write!(line, " ({})", cards_text(down.iter().copied()));
                    }
                }
            }
            line.push_str("  ");
        }
        let depth = self.levels.len();
        if depth > 0 {
            let _ = write!(line, "war×{depth}  ");
        }
        let (a, b) = (self.table[0].last(), self.table[1].last());
        if a != b {
            let taken = self.table[0].len() + self.table[1].len();
            let _ = write!(line, "-> p{} takes {taken}  ", if b > a { 2 } else { 1 });
        }
        match ended {
            Some(o) => {
                let _ = write!(line, "game over: {}", o.name());
            }
            None => {
                let _ = write!(line, "[{} | {}]", self.holding(0), self.holding(1));
            }
        }
        line
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::rng::game_rng;

    fn rules_with(f: impl FnOnce(&mut WarOptions)) -> WarRules {
        let mut o = WarOptions::default();
        f(&mut o);
        WarRules::try_from(&o).expect("valid rules")
    }

    fn bryer() -> WarRules {
        rules_with(|o| o.preset = Some(Preset::Bryer))
    }

    fn at(war: &War, h0: &[Card], h1: &[Card]) -> Position {
        let mut p = Position::new(war.capacity);
        p.set_hands([h0, h1]);
        p
    }

    fn hands(p: &Position) -> [Vec<Card>; 2] {
        [p.hands[0].iter().collect(), p.hands[1].iter().collect()]
    }

    /// One round of a deterministic rule set.
    fn round(war: &War, p: &mut Position) -> Option<Outcome> {
        p.round(war, &mut NoRandomness)
    }

    // --- The R program of deck-war.txt, point by point (`check_cards`, `play_war`). ---

    #[test]
    fn bryer_battle_winner_puts_own_card_then_losers() {
        // R: p1 <- c(p1[-1], p1[1], p2[1]) when p1[1] > p2[1].
        let war = War::new(bryer());
        let mut p = at(&war, &[9, 1, 2], &[4, 3, 5]);
        assert_eq!(round(&war, &mut p), None);
        assert_eq!(hands(&p), [vec![1, 2, 9, 4], vec![3, 5]]);
        // R: p2 <- c(p2[-1], p2[1], p1[1]) when p2[1] > p1[1].
        assert_eq!(round(&war, &mut p), None);
        assert_eq!(hands(&p), [vec![2, 9, 4], vec![5, 3, 1]]);
    }

    #[test]
    fn bryer_war_cards_follow_the_deciding_pair_player_1_first() {
        // Tie on 7: winners_cards = c(p1[1:4], p2[1:4]); the recursion on p1[5:], p2[5:] puts
        // 9 then 4 under player 1, then the set-aside 7 1 2 3 and 7 4 5 6.
        let war = War::new(bryer());
        let mut p = at(&war, &[7, 1, 2, 3, 9, 8], &[7, 4, 5, 6, 4, 2]);
        assert_eq!(round(&war, &mut p), None);
        assert_eq!(hands(&p), [vec![8, 9, 4, 7, 1, 2, 3, 7, 4, 5, 6], vec![2]]);
        assert_eq!((p.wars, p.deepest), (1, 1));
    }

    #[test]
    fn bryer_nested_war_puts_the_inner_war_first() {
        // Ties on 7, then on 5; player 2 wins the third battle 3 v 6.
        let war = War::new(bryer());
        let p1 = [7, 1, 1, 1, 5, 2, 2, 2, 3, 9];
        let p2 = [7, 4, 4, 4, 5, 8, 8, 8, 6, 10];
        let mut p = at(&war, &p1, &p2);
        assert_eq!(round(&war, &mut p), None);
        let want_p2 = [10, 6, 3, 5, 2, 2, 2, 5, 8, 8, 8, 7, 1, 1, 1, 7, 4, 4, 4];
        assert_eq!(hands(&p), [vec![9], want_p2.to_vec()]);
        assert_eq!((p.wars, p.deepest), (2, 2));
    }

    #[test]
    fn bryer_short_player_counted_from_the_tied_card_loses_player_1_first() {
        let war = War::new(bryer());
        // R: length(p1) < 5 with the tied card counted: 4 cards lose...
        let mut p = at(&war, &[6, 1, 1, 1], &[6, 2, 2, 2, 2, 2]);
        assert_eq!(round(&war, &mut p), Some(Outcome::Player(1)));
        let mut p = at(&war, &[6, 2, 2, 2, 2, 2], &[6, 1, 1, 1]);
        assert_eq!(round(&war, &mut p), Some(Outcome::Player(0)));
        // ...5 cards fight: 3 beats 2 and player 2 has nothing left.
        let mut p = at(&war, &[6, 1, 1, 1, 3], &[6, 2, 2, 2, 2]);
        assert_eq!(round(&war, &mut p), Some(Outcome::Player(0)));
        // Both short: R checks player 1 first, so player 1 loses (no draw).
        let mut p = at(&war, &[6, 1], &[6, 2, 2]);
        assert_eq!(round(&war, &mut p), Some(Outcome::Player(1)));
        // `lose` without the quirk: both short is a draw.
        let lose = War::new(rules_with(|o| o.short_war = Some(ShortWar::Lose)));
        let mut p = at(&lose, &[6, 1], &[6, 2, 2]);
        assert_eq!(round(&lose, &mut p), Some(Outcome::Draw));
    }

    #[test]
    fn bryer_nested_war_counts_from_the_current_face_up_card() {
        // Second tie on 5: player 1 holds 5 2 2 from the face-up card (3 < 5) and loses.
        let war = War::new(bryer());
        let mut p = at(&war, &[7, 1, 1, 1, 5, 2, 2], &[7, 4, 4, 4, 5, 8, 8, 8, 8]);
        assert_eq!(round(&war, &mut p), Some(Outcome::Player(1)));
        assert_eq!((p.wars, p.deepest), (2, 2));
    }

    #[test]
    fn bryer_rounds_count_the_deciding_round_and_cap_at_2000() {
        // R reports games = 0 for a game decided in its first round; we report rounds = 1.
        let r = War::play_deal(bryer(), [&[2], &[1]], &mut NoRandomness, None).unwrap();
        assert_eq!((r.rounds, r.outcome), (1, Outcome::Player(0)));
        // A deal that cycles (with p1-first pickup; the preset keeps detection off): R stops
        // after 2000 counted rounds and calls it a draw; we report `capped` at 2000.
        let rules = WarRules {
            pickup: Pickup::P1First,
            ..bryer()
        };
        let r = War::play_deal(rules, [&[1, 3], &[4, 2]], &mut NoRandomness, None).unwrap();
        assert_eq!((r.rounds, r.outcome), (2000, Outcome::Capped));
    }

    #[test]
    fn bryer_deal_gives_player_2_the_rest_in_deck_order() {
        let war = War::new(bryer());
        let mut s = war.scratch();
        for i in 0..50 {
            s.hare.deal(&war, &mut game_rng(9, i));
            let [h0, h1] = hands(&s.hare);
            assert_eq!((h0.len(), h1.len()), (26, 26));
            // Player 2's cards, read as deck positions, are increasing: rank sequence 1..13
            // restarts only when the rank drops.
            let mut all = [h0.clone(), h1.clone()].concat();
            all.sort_unstable();
            let mut deck = war.deck.clone();
            deck.sort_unstable();
            assert_eq!(all, deck);
            let suit_changes = h1.windows(2).filter(|w| w[1] <= w[0]).count();
            assert!(suit_changes <= 3, "player 2 is not in deck order: {h1:?}");
        }
    }

    #[test]
    fn bryer_preset_expands_to_the_r_program_settings() {
        let r = bryer();
        assert_eq!(
            (
                r.war_down,
                r.short_war,
                r.pickup,
                r.deal,
                r.detect_loops,
                r.max_rounds
            ),
            (
                3,
                ShortWar::Bryer,
                Pickup::Bryer,
                DealOrder::Bryer,
                false,
                2000
            )
        );
        let v = serde_json::to_value(&r).unwrap();
        assert_eq!(v["pickup"], "bryer");
        assert_eq!(v["deal"], "bryer");
        let c = rules_with(|_| {});
        assert_eq!(
            (
                c.war_down,
                c.short_war,
                c.pickup,
                c.deal,
                c.detect_loops,
                c.max_rounds
            ),
            (
                3,
                ShortWar::LastCard,
                Pickup::Shuffled,
                DealOrder::Shuffled,
                false,
                100_000
            )
        );
    }

    // --- Every rule option on hand-built deals. ---

    fn with(f: impl FnOnce(&mut WarOptions)) -> War {
        War::new(rules_with(f))
    }

    /// The war of `bryer_nested_war_puts_the_inner_war_first` under each deterministic pickup.
    #[test]
    fn each_pickup_order_after_a_double_war() {
        let p1 = [7, 1, 1, 1, 5, 2, 2, 2, 3, 9];
        let p2 = [7, 4, 4, 4, 5, 8, 8, 8, 6, 10];
        let cases: [(Pickup, &[Card]); 4] = [
            (
                Pickup::P1First,
                &[7, 1, 1, 1, 5, 2, 2, 2, 3, 7, 4, 4, 4, 5, 8, 8, 8, 6],
            ),
            (
                Pickup::WinnerFirst,
                &[7, 4, 4, 4, 5, 8, 8, 8, 6, 7, 1, 1, 1, 5, 2, 2, 2, 3],
            ),
            (
                Pickup::LoserFirst,
                &[7, 1, 1, 1, 5, 2, 2, 2, 3, 7, 4, 4, 4, 5, 8, 8, 8, 6],
            ),
            (
                Pickup::Table,
                &[7, 7, 1, 4, 1, 4, 1, 4, 5, 5, 2, 8, 2, 8, 2, 8, 3, 6],
            ),
        ];
        for (pickup, won) in cases {
            let war = with(|o| o.pickup = Some(pickup));
            let mut p = at(&war, &p1, &p2);
            assert_eq!(round(&war, &mut p), None);
            let want = [&[10][..], won].concat();
            assert_eq!(hands(&p), [vec![9], want], "{pickup:?}");
        }
    }

    #[test]
    fn plain_battle_pickup_orders() {
        for (pickup, want) in [
            (Pickup::P1First, vec![2, 3, 9]),
            (Pickup::Table, vec![2, 3, 9]),
            (Pickup::WinnerFirst, vec![2, 9, 3]),
            (Pickup::Bryer, vec![2, 9, 3]),
            (Pickup::LoserFirst, vec![2, 3, 9]),
        ] {
            let war = with(|o| o.pickup = Some(pickup));
            let mut p = at(&war, &[3, 1], &[9, 2]);
            round(&war, &mut p);
            assert_eq!(hands(&p)[1], want, "{pickup:?}");
        }
    }

    #[test]
    fn shuffled_pickup_returns_both_orders() {
        let war = with(|o| o.pickup = Some(Pickup::Shuffled));
        let mut seen = std::collections::HashSet::new();
        for i in 0..64 {
            let mut p = at(&war, &[3, 1], &[9, 2]);
            p.round(&war, &mut game_rng(1, i));
            seen.insert(hands(&p)[1].clone());
        }
        assert_eq!(seen.len(), 2, "{seen:?}");
    }

    #[test]
    fn won_pile_is_played_only_when_the_hand_runs_out() {
        let war = with(|o| o.pickup = Some(Pickup::WonPile));
        let mut p = at(&war, &[5, 1], &[3, 2]);
        let mut rng = game_rng(0, 0);
        assert_eq!(p.round(&war, &mut rng), None);
        // Player 1 won 5 and 3 onto the won pile; the hand still holds 1.
        assert_eq!(hands(&p), [vec![1], vec![2]]);
        assert_eq!(p.won[0].len(), 2);
        assert_eq!(p.round(&war, &mut rng), None);
        // 1 lost to 2; player 1's hand is empty, its won pile becomes the hand next round.
        assert_eq!(
            (p.hands[0].len(), p.won[0].len(), p.won[1].len()),
            (0, 2, 2)
        );
        assert_eq!(p.round(&war, &mut rng), None);
        assert_eq!(p.holding(0) + p.holding(1), 4);
    }

    #[test]
    fn war_down_zero_and_one() {
        // 0 down: the next card is face up at once.
        let war = with(|o| {
            o.war_down = Some(0);
            o.pickup = Some(Pickup::P1First)
        });
        let mut p = at(&war, &[4, 6, 1], &[4, 2, 3]);
        assert_eq!(round(&war, &mut p), None);
        assert_eq!(hands(&p), [vec![1, 4, 6, 4, 2], vec![3]]);
        // 1 down.
        let war = with(|o| {
            o.war_down = Some(1);
            o.pickup = Some(Pickup::P1First)
        });
        let mut p = at(&war, &[4, 6, 9, 1], &[4, 2, 3, 5]);
        assert_eq!(round(&war, &mut p), None);
        assert_eq!(hands(&p), [vec![1, 4, 6, 9, 4, 2, 3], vec![5]]);
    }

    #[test]
    fn short_war_lose_at_depths_1_2_3() {
        let war = with(|o| {
            o.short_war = Some(ShortWar::Lose);
            o.pickup = Some(Pickup::P1First)
        });
        // Depth 1: player 2 holds 3 cards after the tie, needs 4.
        let mut p = at(&war, &[5, 1, 1, 1, 1], &[5, 2, 2, 2]);
        assert_eq!(round(&war, &mut p), Some(Outcome::Player(0)));
        assert_eq!(p.deepest, 1);
        // Depth 2: after one war of 3 down and a tied 6, player 1 holds 2 cards.
        let mut p = at(&war, &[5, 1, 1, 1, 6, 9, 9], &[5, 2, 2, 2, 6, 3, 3, 3, 3]);
        assert_eq!(round(&war, &mut p), Some(Outcome::Player(1)));
        assert_eq!((p.wars, p.deepest), (2, 2));
        // Depth 3: both run short together: draw.
        let a = [5, 1, 1, 1, 6, 1, 1, 1, 7, 1];
        let b = [5, 2, 2, 2, 6, 2, 2, 2, 7, 2];
        let mut p = at(&war, &a, &b);
        assert_eq!(round(&war, &mut p), Some(Outcome::Draw));
        assert_eq!((p.wars, p.deepest), (3, 3));
        assert_eq!(
            p.holding(0) + p.holding(1),
            20,
            "a draw returns the table to its owners"
        );
    }

    #[test]
    fn short_war_last_card_at_depths_1_2_3() {
        let war = with(|o| {
            o.short_war = Some(ShortWar::LastCard);
            o.pickup = Some(Pickup::P1First)
        });
        // Depth 1: player 2 has 2 cards after the tie: lays 1 down, turns up its last (9).
        let mut p = at(&war, &[5, 1, 1, 1, 4, 8], &[5, 2, 9]);
        assert_eq!(round(&war, &mut p), None);
        assert_eq!(hands(&p)[1], vec![5, 1, 1, 1, 4, 5, 2, 9]);
        assert_eq!(hands(&p)[0], vec![8]);
        // Depth 2: tie again on the short player's last card: it has none left and loses.
        let mut p = at(&war, &[5, 1, 1, 1, 4, 8], &[5, 2, 2, 4]);
        assert_eq!(round(&war, &mut p), Some(Outcome::Player(0)));
        assert_eq!((p.wars, p.deepest), (2, 2));
        // Depth 3: a full war, then both short (1 down, last card up), a third tie, and both
        // have nothing left: draw.
        let mut p = at(&war, &[5, 1, 1, 1, 6, 2, 7], &[5, 3, 3, 3, 6, 4, 7]);
        assert_eq!(round(&war, &mut p), Some(Outcome::Draw));
        assert_eq!((p.wars, p.deepest), (3, 3));
        // A war that exhausts both players but is decided by their last cards.
        let mut p = at(&war, &[5, 1, 4], &[5, 2, 3]);
        assert_eq!(round(&war, &mut p), Some(Outcome::Player(0)));
        assert_eq!(hands(&p), [vec![5, 1, 4, 5, 2, 3], vec![]]);
    }

    // --- Loop detection: exact against a brute-force replay that stores every state. ---

    type State = (Vec<Card>, Vec<Card>);

    /// Plays a deterministic game, remembering every state; stops at the first repeat.
    fn brute_force(war: &War, h0: &[Card], h1: &[Card]) -> GameResult {
        let mut p = at(war, h0, h1);
        let mut seen: std::collections::HashMap<State, u64> = Default::default();
        seen.insert((h0.to_vec(), h1.to_vec()), 0);
        for round_no in 1.. {
            if let Some(o) = round(war, &mut p) {
                return GameResult::plain(round_no, o);
            }
            let [a, b] = hands(&p);
            if let Some(&first) = seen.get(&(a.clone(), b.clone())) {
                let cycle = Cycle {
                    loop_from: first,
                    cycle_len: round_no - first,
                };
                return GameResult {
                    cycle: Some(cycle),
                    ..GameResult::plain(round_no, Outcome::Loop)
                };
            }
            seen.insert((a, b), round_no);
        }
        unreachable!()
    }

    fn permutations(n: usize) -> Vec<Vec<Card>> {
        let mut out = vec![];
        let mut v: Vec<Card> = (1..=n as Card).collect();
        fn heap(k: usize, v: &mut Vec<Card>, out: &mut Vec<Vec<Card>>) {
            if k <= 1 {
                out.push(v.clone());
                return;
            }
            for i in 0..k {
                heap(k - 1, v, out);
                let j = if k.is_multiple_of(2) { i } else { 0 };
                v.swap(j, k - 1);
            }
        }
        heap(n, &mut v, &mut out);
        out
    }

    #[test]
    fn loops_agree_with_brute_force_on_every_small_deal() {
        for n in [4u32, 6, 8] {
            for pickup in [Pickup::WinnerFirst, Pickup::LoserFirst, Pickup::P1First] {
                let rules = rules_with(|o| {
                    o.ranks = Some(n);
                    o.suits = Some(1);
                    o.pickup = Some(pickup);
                });
                assert!(rules.detect_loops);
                let mut loops = 0;
                for deal in permutations(n as usize) {
                    let (h0, h1) = deal.split_at(n as usize / 2);
                    let got =
                        War::play_deal(rules.clone(), [h0, h1], &mut NoRandomness, None).unwrap();
                    let want = brute_force(&War::new(rules.clone()), h0, h1);
                    assert_eq!(
                        (got.rounds, got.outcome, got.cycle),
                        (want.rounds, want.outcome, want.cycle),
                        "{deal:?}"
                    );
                    loops += usize::from(got.outcome == Outcome::Loop);
                }
                if pickup == Pickup::P1First {
                    assert!(
                        loops > 0,
                        "n = {n}: no deal loops, the check would be vacuous"
                    );
                }
            }
        }
    }

    #[test]
    fn looping_state_repeats_after_loop_from_plus_cycle_len() {
        let war = with(|o| o.pickup = Some(Pickup::P1First));
        let mut s = war.scratch();
        let mut found = 0;
        for i in 0..400 {
            let r = war.play(&mut game_rng(3, i), &mut s);
            let Some(c) = r.cycle else { continue };
            found += 1;
            let mut p = Position::new(war.capacity);
            p.deal(&war, &mut game_rng(3, i));
            for _ in 0..c.loop_from {
                round(&war, &mut p);
            }
            let at_mu = hands(&p);
            for _ in 0..c.cycle_len {
                assert_eq!(round(&war, &mut p), None);
            }
            assert_eq!(hands(&p), at_mu);
        }
        assert!(found > 0, "no looping game among 400 p1-first deals");
    }

    // --- Properties over random games of every rule set. ---

    fn all_rule_sets() -> Vec<WarRules> {
        let mut out = vec![bryer()];
        for war_down in [0, 1, 3] {
            for short in [ShortWar::Lose, ShortWar::LastCard] {
                for pickup in [
                    Pickup::Shuffled,
                    Pickup::P1First,
                    Pickup::WinnerFirst,
                    Pickup::LoserFirst,
                    Pickup::Table,
                    Pickup::WonPile,
                ] {
                    out.push(rules_with(|o| {
                        o.war_down = Some(war_down);
                        o.short_war = Some(short);
                        o.pickup = Some(pickup);
                        o.max_rounds = Some(3000);
                    }));
                }
            }
        }
        out
    }

    #[test]
    fn cards_are_conserved_after_every_round_under_every_rule_set() {
        for rules in all_rule_sets() {
            let war = War::new(rules);
            for i in 0..20 {
                let mut rng = game_rng(11, i);
                let mut p = Position::new(war.capacity);
                p.deal(&war, &mut rng);
                for _ in 0..3000 {
                    let ended = p.round(&war, &mut rng);
                    assert_eq!(p.holding(0) + p.holding(1), 52, "{:?}", war.rules);
                    let mut all: Vec<Card> = (0..2)
                        .flat_map(|q| p.hands[q].iter().chain(p.won[q].iter()).collect::<Vec<_>>())
                        .collect();
                    all.sort_unstable();
                    let mut deck = war.deck.clone();
                    deck.sort_unstable();
                    assert_eq!(all, deck);
                    if ended.is_some() {
                        break;
                    }
                }
            }
        }
    }

    #[test]
    fn traced_replay_is_the_simulated_game_under_every_rule_set() {
        for rules in all_rule_sets() {
            let war = War::new(rules);
            let mut s = war.scratch();
            for i in 0..30 {
                let simulated = war.play(&mut game_rng(4, i), &mut s);
                let mut lines = 0u64;
                let mut sink = |_: String| lines += 1;
                let traced = war.play_traced(&mut game_rng(4, i), Some(&mut sink));
                assert_eq!(simulated, traced, "{:?} game {i}", war.rules);
                assert!(lines > simulated.rounds.min(war.rules.max_rounds));
            }
        }
    }

    /// Regression pins: (seed, index) → the game's result. A change here changes every
    /// published figure; make it only on purpose and say so.
    #[test]
    fn value_stability() {
        // Every pinned game's wars are single wars (deepest 1), so all of them are depth 1.
        let singles = |wars| {
            let mut d = [0; WAR_DEPTHS];
            d[0] = wars;
            d
        };
        let won = |rounds, p, wars, deepest_war| GameResult {
            wars,
            deepest_war,
            war_depths: singles(wars),
            ..GameResult::plain(rounds, Outcome::Player(p))
        };
        let p1_first = rules_with(|o| o.pickup = Some(Pickup::P1First));
        let looped = GameResult {
            wars: 9,
            deepest_war: 1,
            war_depths: singles(9),
            cycle: Some(Cycle {
                loop_from: 482,
                cycle_len: 2080,
            }),
            ..GameResult::plain(2562, Outcome::Loop)
        };
        let pins = [
            (rules_with(|_| {}), 0, 0, won(86, 0, 4, 1)),
            (rules_with(|_| {}), 5, 299_999, won(148, 0, 8, 1)),
            (bryer(), 0, 0, won(116, 0, 13, 1)),
            (bryer(), 1, 12_345, won(160, 1, 9, 1)),
            (p1_first, 3, 0, looped),
        ];
        for (rules, seed, index, want) in pins {
            let war = War::new(rules);
            assert_eq!(
                war.play(&mut game_rng(seed, index), &mut war.scratch()),
                want
            );
        }
    }
}
