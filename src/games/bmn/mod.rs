//! Beggar-my-neighbour, as the 1911 Encyclopaedia Britannica states it (and SPEC.md): two
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

use std::ops::ControlFlow;

use rand::RngCore;
use serde::{Deserialize, Serialize};

use super::arrange;
use super::cards::shuffle;
use super::PlayReport;
use super::{check_max_rounds, Cycle, Game, GameResult, GameStats, LineSink, Outcome, PlayIo};
use crate::error::UsageError;
use crate::stats::histogram::{add_to, Overflow};
use crate::usage;

/// Most cards in a deck (a hand is a ring of this many).
pub const MAX_CARDS: usize = 64;
/// The penalty ranks, lowest first: the top four ranks of the deck.
pub const PENALTY_NAMES: [char; 4] = ['J', 'Q', 'K', 'A'];
/// The default card cap, a safety net only: loops are detected exactly.
pub const DEFAULT_MAX_ROUNDS: u64 = 10_000_000;

const MASK: usize = MAX_CARDS - 1;

/// A hand: the demands of its cards, top first, in a fixed ring (no allocation while playing).
#[derive(Clone, Copy, Debug)]
pub struct Hand {
    buf: [u8; MAX_CARDS],
    head: usize,
    len: usize,
}

impl Hand {
    const EMPTY: Hand = Hand {
        buf: [0; MAX_CARDS],
        head: 0,
        len: 0,
    };

    /// The cards, top first.
    pub fn cards(&self) -> impl Iterator<Item = u8> + '_ {
        (0..self.len).map(move |i| self.buf[(self.head + i) & MASK])
    }

    fn set(&mut self, cards: &[u8]) {
        self.head = 0;
        self.len = cards.len();
        self.buf[..cards.len()].copy_from_slice(cards);
    }

    fn same(&self, other: &Hand) -> bool {
        self.len == other.len && self.cards().eq(other.cards())
    }
}

/// A position at the start of a trick: both hands and who leads (the pile is empty).
#[derive(Clone, Copy, Debug)]
pub struct Position {
    /// Player 1's and player 2's hands.
    pub hands: [Hand; 2],
    /// Who leads (0-based).
    pub leader: usize,
}

/// What one trick did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Trick {
    /// Cards laid.
    pub laid: u64,
    /// Who took the pile (0-based).
    pub taker: usize,
    /// The cards taken.
    pub taken: usize,
    /// The game's end, if the trick ended it (or the card cap was reached: `Capped`).
    pub ended: Option<Outcome>,
}

impl Position {
    /// The position of a deal, player 1 to lead.
    pub fn dealt(hand1: &[u8], hand2: &[u8]) -> Position {
        let mut p = Position {
            hands: [Hand::EMPTY; 2],
            leader: 0,
        };
        p.hands[0].set(hand1);
        p.hands[1].set(hand2);
        p
    }

    fn same(&self, other: &Position) -> bool {
        self.leader == other.leader
            && self.hands[0].same(&other.hands[0])
            && self.hands[1].same(&other.hands[1])
    }

    /// Plays one trick, laying at most `budget` cards (the rest of the card cap: reaching it
    /// ends the game as `Capped`).
    ///
    /// Written as its two phases (players alternating until a penalty card, then a payer
    /// paying a demand) with the player to lay and the other as locals swapped in registers:
    /// indexing the hands by a turn number put a load of the hand's address on every card's
    /// dependency chain.
    #[inline]
    pub fn trick(&mut self, budget: u64) -> Trick {
        let budget = usize::try_from(budget).unwrap_or(usize::MAX);
        let leader = self.leader;
        let [h0, h1] = &mut self.hands;
        let (a, b) = if leader == 0 { (h0, h1) } else { (h1, h0) };
        let mut x = Side::new(a, leader);
        let mut y = Side::new(b, leader ^ 1);
        let mut pile = [0u8; MAX_CARDS];
        let mut laid = 0usize;
        // Until a penalty card, the players alternate.
        let mut owed = loop {
            if x.len == 0 || laid == budget {
                break 0;
            }
            let c = x.pop();
            pile[laid & MASK] = c;
            laid += 1;
            std::mem::swap(&mut x, &mut y);
            if c > 0 {
                break c;
            }
        };
        // x pays what y's card demands; a penalty card laid while paying turns the demand.
        let won = owed > 0
            && 'paying: loop {
                let mut left = owed;
                while left > 0 {
                    if x.len == 0 || laid == budget {
                        break 'paying false;
                    }
                    let c = x.pop();
                    pile[laid & MASK] = c;
                    laid += 1;
                    if c > 0 {
                        owed = c;
                        std::mem::swap(&mut x, &mut y);
                        continue 'paying;
                    }
                    left -= 1;
                }
                break true;
            };
        // The trick ended: a demand paid (`won`), a player with no card to lay, or the cap.
        let capped = !won && x.len > 0;
        let taker = y.who;
        if !capped {
            y.take(&pile[..laid]);
        }
        let out_of_cards = x.len == 0;
        let (xw, yw) = (x.who, y.who);
        let (xs, ys) = (x.end(), y.end());
        self.hands[xw].head = xs.0;
        self.hands[xw].len = xs.1;
        self.hands[yw].head = ys.0;
        self.hands[yw].len = ys.1;
        if capped {
            return Trick {
                laid: laid as u64,
                taker,
                taken: 0,
                ended: Some(Outcome::Capped),
            };
        }
        self.leader = taker;
        Trick {
            laid: laid as u64,
            taker,
            taken: laid,
            ended: out_of_cards.then_some(Outcome::Player(taker as u8)),
        }
    }
}

/// A hand while a trick is played: its cards, and its head and length as locals.
struct Side<'a> {
    buf: &'a mut [u8; MAX_CARDS],
    head: usize,
    len: usize,
    who: usize,
}

impl<'a> Side<'a> {
    fn new(hand: &'a mut Hand, who: usize) -> Self {
        Side {
            head: hand.head,
            len: hand.len,
            buf: &mut hand.buf,
            who,
        }
    }

    #[inline(always)]
    fn pop(&mut self) -> u8 {
        let c = self.buf[self.head];
        self.head = (self.head + 1) & MASK;
        self.len -= 1;
        c
    }

    /// Puts `pile` under the hand, first card first (a loop: piles are short, and a copy of
    /// a length known only here is a call).
    #[inline(always)]
    fn take(&mut self, pile: &[u8]) {
        let at = self.head + self.len;
        for (i, &c) in pile.iter().enumerate() {
            self.buf[(at + i) & MASK] = c;
        }
        self.len += pile.len();
    }

    fn end(self) -> (usize, usize) {
        (self.head, self.len)
    }
}

/// How a game ended, in cards and tricks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Played {
    /// Cards laid (a loop: up to the second time the repeated position stands).
    pub cards: u64,
    /// Tricks (piles taken), counted the same way.
    pub tricks: u64,
    /// The outcome.
    pub outcome: Outcome,
    /// A loop's start and length in cards, and its start and length in tricks.
    pub cycle: Option<(Cycle, Cycle)>,
}

/// One worker's positions: the game, Brent's saved copy, and the deal (to find where a loop
/// starts).
#[derive(Clone, Debug)]
pub struct BmnScratch {
    deck: Vec<u8>,
    counts: Vec<u32>,
    game: Position,
    saved: Position,
    start: Position,
}

/// Plays `s.start` to its end with loop detection, at most `max_rounds` cards; every trick is
/// also handed to `each` (the trace).
fn play_from(
    s: &mut BmnScratch,
    max_rounds: u64,
    each: &mut dyn FnMut(&Position, &Trick, u64) -> ControlFlow<()>,
) -> Played {
    s.game = s.start;
    s.saved = s.start;
    let (mut cards, mut tricks) = (0u64, 0u64);
    let (mut power, mut lam) = (1u64, 0u64);
    loop {
        let t = s.game.trick(max_rounds - cards);
        cards += t.laid;
        tricks += 1;
        if each(&s.game, &t, cards).is_break() {
            return Played {
                cards,
                tricks,
                outcome: Outcome::Capped,
                cycle: None,
            };
        }
        if let Some(outcome) = t.ended {
            let tricks = if outcome == Outcome::Capped {
                tricks - 1
            } else {
                tricks
            };
            return Played {
                cards,
                tricks,
                outcome,
                cycle: None,
            };
        }
        lam += 1;
        if s.game.same(&s.saved) {
            return cycle_of(s, lam);
        }
        if lam == power {
            s.saved = s.game;
            power *= 2;
            lam = 0;
        }
    }
}

/// The loop of the game from `s.start`, whose cycle is `lam` tricks long: where it starts
/// (Brent's second phase, two positions `lam` tricks apart walked together), in cards and
/// tricks.
fn cycle_of(s: &mut BmnScratch, lam: u64) -> Played {
    let mut ahead = s.start;
    let mut ahead_cards = 0;
    for _ in 0..lam {
        ahead_cards += ahead.trick(u64::MAX).laid;
    }
    let mut behind = s.start;
    let (mut from_cards, mut from_tricks) = (0u64, 0u64);
    while !behind.same(&ahead) {
        from_cards += behind.trick(u64::MAX).laid;
        ahead_cards += ahead.trick(u64::MAX).laid;
        from_tricks += 1;
    }
    let cycle_cards = ahead_cards - from_cards;
    Played {
        cards: from_cards + cycle_cards,
        tricks: from_tricks + lam,
        outcome: Outcome::Loop,
        cycle: Some((
            Cycle {
                loop_from: from_cards,
                cycle_len: cycle_cards,
            },
            Cycle {
                loop_from: from_tricks,
                cycle_len: lam,
            },
        )),
    }
}

/// The options of `simulate bmn` (and `exact bmn`).
#[derive(Clone, Debug, clap::Args)]
pub struct BmnOptions {
    /// Ranks in the deck; the top four are J, Q, K and A.
    #[arg(long, value_name = "R", default_value_t = 13)]
    pub ranks: usize,
    /// Cards of each rank.
    #[arg(long, value_name = "S", default_value_t = 4)]
    pub suits: usize,
    /// The cards J, Q, K and A demand, in that order (0: the rank demands nothing).
    #[arg(long, value_name = "J,Q,K,A", default_value = "1,2,3,4", value_parser = parse_penalties)]
    pub penalties: Penalties,
    /// Stop a game after this many cards (outcome `capped`); loops are detected exactly.
    #[arg(long, value_name = "M", default_value_t = DEFAULT_MAX_ROUNDS)]
    pub max_rounds: u64,
}

/// What J, Q, K and A demand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Penalties(pub [u8; 4]);

fn parse_penalties(text: &str) -> Result<Penalties, String> {
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

impl std::fmt::Display for Penalties {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let [j, q, k, a] = self.0;
        write!(f, "{j},{q},{k},{a}")
    }
}

/// The rules of a `simulate bmn` run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BmnRules {
    /// Ranks in the deck.
    pub ranks: usize,
    /// Cards of each rank.
    pub suits: usize,
    /// What J, Q, K and A demand.
    pub penalties: Penalties,
    /// Card cap.
    pub max_rounds: u64,
}

impl TryFrom<&BmnOptions> for BmnRules {
    type Error = UsageError;

    fn try_from(o: &BmnOptions) -> Result<Self, UsageError> {
        let cards = o.ranks.saturating_mul(o.suits);
        if o.ranks < 4 || o.suits == 0 || cards > MAX_CARDS || cards % 2 == 1 {
            return Err(usage!(
                "--ranks {} --suits {}: need at least 4 ranks (the top four are J, Q, K, A), \
                 and an even number of cards, at most {MAX_CARDS}",
                o.ranks,
                o.suits
            ));
        }
        Ok(BmnRules {
            ranks: o.ranks,
            suits: o.suits,
            penalties: o.penalties,
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
}

impl Bmn {
    /// The game for validated rules.
    pub fn new(rules: BmnRules) -> Self {
        let plain = rules.ranks - 4;
        let deck: Vec<u8> = (0..rules.suits)
            .flat_map(|_| std::iter::repeat_n(0, plain).chain(rules.penalties.0.iter().copied()))
            .collect();
        let counts = arrange::counts(deck.iter().copied(), 9);
        Bmn {
            rules,
            deck,
            counts,
        }
    }

    /// The deck as demands, in rank order: what a deal arranges.
    pub fn deck(&self) -> &[u8] {
        &self.deck
    }

    /// Plays the deal `deck` (its first half player 1's hand, top card first) to its end.
    pub fn play_deck(&self, deck: &[u8], s: &mut BmnScratch) -> Played {
        let half = deck.len() / 2;
        s.start = Position::dealt(&deck[..half], &deck[half..]);
        play_from(s, self.rules.max_rounds, &mut |_, _, _| {
            ControlFlow::Continue(())
        })
    }

    /// The deal `deck` as `play bmn --deal` reads it: `HAND1/HAND2`.
    pub fn show_deal(&self, deck: &[u8]) -> String {
        let half = deck.len() / 2;
        format!(
            "{}/{}",
            self.show(deck[..half].iter().copied()),
            self.show(deck[half..].iter().copied())
        )
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

    /// How a hand is written: `-` for a card that demands nothing, else the letter of the
    /// lowest penalty rank with that demand.
    fn show(&self, cards: impl Iterator<Item = u8>) -> String {
        cards
            .map(|c| {
                self.rules
                    .penalties
                    .0
                    .iter()
                    .position(|&d| d == c && c > 0)
                    .map_or('-', |i| PENALTY_NAMES[i])
            })
            .collect()
    }

    /// Reads a deal `HAND1/HAND2`, top card first: `-` (or `.`, a digit, `T`, `X`, `10`) for a
    /// card that is not J, Q, K or A; J, Q, K, A; spaces and commas ignored, and a suit letter
    /// (s, h, d, c) or symbol after a card. The deal must hold this deck's cards.
    pub fn parse_deal(&self, text: &str) -> Result<[Vec<u8>; 2], UsageError> {
        let Some((a, b)) = text.split_once('/') else {
            return Err(usage!(
                "--deal {text:?}: expected HAND1/HAND2, top card first, e.g. '--J-/Q---'"
            ));
        };
        let hand = |h: &str, n: usize| -> Result<Vec<u8>, UsageError> {
            let mut out = Vec::new();
            let mut chars = h.chars().peekable();
            while let Some(c) = chars.next() {
                let demand = match c.to_ascii_uppercase() {
                    ' ' | ',' => continue,
                    '-' | '.' | 'T' | 'X' | '2'..='9' => 0,
                    '1' if chars.peek() == Some(&'0') => {
                        chars.next();
                        0
                    }
                    r @ ('J' | 'Q' | 'K' | 'A') => {
                        let i = PENALTY_NAMES.iter().position(|&p| p == r).unwrap_or(0);
                        self.rules.penalties.0[i]
                    }
                    _ => {
                        return Err(usage!(
                            "--deal: hand {n} has {c:?}, which is no card: write - for a card \
                             that is not J, Q, K or A"
                        ))
                    }
                };
                out.push(demand);
                if let Some(&s) = chars.peek() {
                    if "sShHdDcC♠♥♦♣".contains(s) {
                        chars.next();
                    }
                }
            }
            Ok(out)
        };
        let hands = [hand(a, 1)?, hand(b, 2)?];
        let mut dealt = arrange::counts(hands.iter().flatten().copied(), 9);
        dealt.resize(self.counts.len(), 0);
        if dealt != self.counts {
            let name = |d: usize| {
                if d == 0 {
                    "plain cards".to_string()
                } else {
                    format!("cards demanding {d}")
                }
            };
            let d = (0..dealt.len())
                .find(|&d| dealt[d] != self.counts[d])
                .unwrap_or(0);
            return Err(usage!(
                "--deal: the hands hold {} {}, the deck ({} ranks × {} suits) {}",
                dealt[d],
                name(d),
                self.rules.ranks,
                self.rules.suits,
                self.counts[d]
            ));
        }
        Ok(hands)
    }
}

/// The rule options of `rules` that differ from the defaults, as command-line text
/// (`--ranks 10 --penalties 1,2,3,0`), so that a deal found under them replays under them.
pub fn rule_args(rules: &BmnRules) -> String {
    let mut out = Vec::new();
    if rules.ranks != 13 {
        out.push(format!("--ranks {}", rules.ranks));
    }
    if rules.suits != 4 {
        out.push(format!("--suits {}", rules.suits));
    }
    if rules.penalties != Penalties([1, 2, 3, 4]) {
        out.push(format!("--penalties {}", rules.penalties));
    }
    if rules.max_rounds != DEFAULT_MAX_ROUNDS {
        out.push(format!("--max-rounds {}", rules.max_rounds));
    }
    out.join(" ")
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
#[derive(Debug, Serialize, Deserialize)]
pub struct TricksJson {
    /// Trick statistics.
    pub tricks: TricksObject,
}

/// The `tricks` object of summary.json.
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
        // Every game takes at least one trick, and none more than the total.
        if t.total < games || t.max > t.total || (games > 0 && t.max == 0) {
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

/// The arguments of `play bmn`.
#[derive(Clone, Debug, clap::Args)]
pub struct PlayBmn {
    /// The hands, HAND1/HAND2, top card first: - for a card that is not J, Q, K or A (full
    /// card names also read: 10, 7s, Kh ...). Player 1 leads.
    #[arg(long, value_name = "HAND1/HAND2", allow_hyphen_values = true)]
    pub deal: String,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub rules: BmnOptions,
}

impl Game for Bmn {
    const NAME: &'static str = "bmn";
    const ABOUT: &'static str = "Beggar-my-neighbour (1911 Britannica rules) on random deals";
    const RULES: &'static str = "Rules: two players lay cards in turn onto a pile. J, Q, K and \
        A demand 1, 2, 3 and 4 cards from the other player; a penalty card laid while paying \
        passes a new demand back. A demand paid with no penalty card gives the whole pile to the \
        player who laid the last penalty card, under their hand in the order laid, and they lead \
        the next trick. The game ends when one player holds every card; a player who must play \
        and has no card loses. More: README.md, section \"Beggar-my-neighbour\"; to watch a \
        game: warsim play bmn --deal 'HAND1/HAND2' --trace";
    const PLAY_ABOUT: &'static str =
        "Beggar-my-neighbour: plays the given deal; prints the winner, cards and tricks, or the loop";
    const EXAMPLE: &'static [&'static str] = &["--ranks", "6", "--suits", "2"];
    type Options = BmnOptions;
    type Rules = BmnRules;
    type Stats = BmnStats;
    type Scratch = BmnScratch;
    type PlayArgs = PlayBmn;

    fn from_options(o: &BmnOptions) -> Result<Self, UsageError> {
        Ok(Bmn::new(BmnRules::try_from(o)?))
    }

    fn rules(&self) -> &BmnRules {
        &self.rules
    }

    fn options_of(r: &BmnRules) -> BmnOptions {
        BmnOptions {
            ranks: r.ranks,
            suits: r.suits,
            penalties: r.penalties,
            max_rounds: r.max_rounds,
        }
    }

    fn scratch(&self) -> BmnScratch {
        let empty = Position::dealt(&[], &[]);
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
        arrange::arrangements(&self.counts).ok_or_else(|| {
            usage!(
                "exact bmn: a deck of {} cards has more than 10^38 deals; use simulate",
                self.deck.len()
            )
        })
    }

    fn play_deal_number(&self, i: u64, s: &mut BmnScratch) -> Option<GameResult<BmnGame>> {
        s.counts.clone_from(&self.counts);
        let mut deck = std::mem::take(&mut s.deck);
        deck.clear();
        arrange::unrank(u128::from(i), &mut s.counts, &mut deck);
        s.deck = deck;
        Some(self.result(s))
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
        format!(
            "{} ranks × {} suits, J Q K A demand {j} {q} {k} {a}, loops detected{}",
            r.ranks,
            r.suits,
            super::cap_unless_default(r.max_rounds, DEFAULT_MAX_ROUNDS)
        )
    }

    fn detects_loops(&self) -> bool {
        true
    }

    /// Prints the winner with the cards and tricks, or the loop; `--trace` prints one line per
    /// trick: who took how many cards, and both hands after it.
    fn play_command(args: &PlayBmn, io: &mut PlayIo) -> anyhow::Result<PlayReport> {
        let game = Bmn::from_options(&args.rules)?;
        let [a, b] = game.parse_deal(&args.deal)?;
        let mut s = game.scratch();
        s.start = Position::dealt(&a, &b);
        let mut sink = LineSink::new(&mut *io.out);
        let trace = io.trace;
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
                game.show(p.hands[0].cards()),
                game.show(p.hands[1].cards()),
            ))
        };
        let played = play_from(&mut s, game.rules.max_rounds, &mut line);
        sink.finish()?;
        let players = match played.outcome {
            Outcome::Player(p) => vec![u32::from(p) + 1],
            _ => vec![1, 2],
        };
        let mut report = PlayReport::new(
            Self::NAME,
            played.outcome.name(),
            played.cards,
            players.clone(),
        )
        .with_cycle(played.cycle.map(|c| c.0));
        report.extra.insert("tricks".into(), played.tricks.into());
        if let Some((_, tricks)) = played.cycle {
            report
                .extra
                .insert("cycle_tricks".into(), tricks.cycle_len.into());
            report
                .extra
                .insert("loop_from_tricks".into(), tricks.loop_from.into());
        }
        let text = match (played.outcome, played.cycle) {
            (Outcome::Loop, Some((cards, tricks))) => format!(
                "loop: the position before trick {} comes back {} tricks ({} cards) later; \
                 it never ends",
                tricks.loop_from + 1,
                tricks.cycle_len,
                cards.cycle_len
            ),
            (Outcome::Player(p), _) => format!(
                "player {} wins after {} cards, {} tricks",
                p + 1,
                played.cards,
                played.tricks
            ),
            _ => format!(
                "capped after {} cards, {} tricks",
                played.cards, played.tricks
            ),
        };
        Ok(report.with_text(text))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn standard() -> Bmn {
        Bmn::new(BmnRules {
            ranks: 13,
            suits: 4,
            penalties: Penalties([1, 2, 3, 4]),
            max_rounds: DEFAULT_MAX_ROUNDS,
        })
    }

    fn play(game: &Bmn, deal: &str) -> Played {
        let [a, b] = game.parse_deal(deal).unwrap();
        let mut s = game.scratch();
        s.start = Position::dealt(&a, &b);
        play_from(&mut s, game.rules.max_rounds, &mut |_, _, _| {
            ControlFlow::Continue(())
        })
    }

    /// The published longest games (Richard Mann's list of records, as replayed by public
    /// simulators): cards laid and tricks, every one.
    const RECORDS: [(&str, &str, u64, u64); 9] = [
        (
            "Paulhus 1999",
            "------------KAQ----J------/-JQQK---K----JK--QA-A-JA--",
            4791,
            670,
        ),
        (
            "Kleber 1999",
            "---JQ---K-A----A-J-K---QK-/-J-----------AJQA----K---Q",
            5790,
            805,
        ),
        (
            "Collins 2006",
            "A-QK------Q----KA-----J---/-JAK----A--Q----J---QJ--K-",
            6913,
            960,
        ),
        (
            "Mann and Wu 2007",
            "K-KK----K-A-----JAA--Q--J-/---Q---Q-J-----J------AQ--",
            7157,
            1007,
        ),
        (
            "Nessler 2012",
            "----Q------A--K--A-A--QJK-/-Q--J--J---QK---K----JA---",
            7207,
            1015,
        ),
        (
            "Anderson 2013",
            "--A-Q--J--J---Q--AJ-K---K-/-J-------Q------A--A--QKK-",
            7225,
            1016,
        ),
        (
            "Rucklidge 2014",
            "-J------Q------AAA-----QQ-/K----JA-----------KQ-K-JJK",
            7959,
            1122,
        ),
        (
            "Nessler 2021",
            "----K---A--Q-A--JJA------J/-----KK---------A-JK-Q-Q-Q",
            7972,
            1106,
        ),
        (
            "Nessler 2022",
            "---AJ--Q---------QAKQJJ-QK/-----A----KJ-K--------A---",
            8344,
            1164,
        ),
    ];

    #[test]
    fn every_published_record_replays_with_its_cards_and_tricks() {
        let game = standard();
        for (who, deal, cards, tricks) in RECORDS {
            let p = play(&game, deal);
            assert_eq!(
                (p.cards, p.tricks, p.cycle.is_some()),
                (cards, tricks, false),
                "{who}"
            );
        }
    }

    /// Casella et al. 2024 (arXiv 2403.13855): this deal never ends; its cycle is 62 tricks.
    #[test]
    fn casellas_deal_loops_with_its_62_trick_cycle() {
        let p = play(
            &standard(),
            "---K---Q-KQAJ-----AAJ--J--/----------Q----KQ-J-----KA",
        );
        assert_eq!(p.outcome, Outcome::Loop);
        let (cards, tricks) = p.cycle.unwrap();
        assert_eq!(tricks.cycle_len, 62);
        assert_eq!(p.cards, cards.loop_from + cards.cycle_len);
        assert_eq!(p.tricks, tricks.loop_from + tricks.cycle_len);
    }

    /// The 40-card variant without aces that beggarmypython's README shows looping "after 197
    /// turns and 37 tricks" (J, Q, K demand 1, 2, 3; aces nothing).
    #[test]
    fn the_forty_card_game_without_aces_loops_where_published() {
        let game = Bmn::new(BmnRules {
            ranks: 10,
            suits: 4,
            penalties: Penalties([1, 2, 3, 0]),
            max_rounds: DEFAULT_MAX_ROUNDS,
        });
        let p = play(&game, "--Q------QJ----JK---/---Q---J-Q-KJ--K-K--");
        assert_eq!((p.outcome, p.cards, p.tricks), (Outcome::Loop, 197, 37));
    }

    fn small() -> Bmn {
        Bmn::new(BmnRules {
            ranks: 4,
            suits: 1,
            penalties: Penalties([1, 2, 3, 4]),
            max_rounds: DEFAULT_MAX_ROUNDS,
        })
    }

    #[test]
    fn a_demand_paid_with_plain_cards_gives_the_pile_to_its_claimant_in_the_order_laid() {
        // p1 lays J, p2 pays one plain card: p1 takes J then -, under its hand, and leads.
        let mut p = Position::dealt(&[1, 0, 2, 3, 4], &[0, 4, 3, 2, 1]);
        let t = p.trick(u64::MAX);
        assert_eq!((t.laid, t.taker, t.taken, t.ended), (2, 0, 2, None));
        assert_eq!(
            p.hands[0].cards().collect::<Vec<_>>(),
            vec![0, 2, 3, 4, 1, 0]
        );
        assert_eq!(p.leader, 0);
    }

    #[test]
    fn a_penalty_card_laid_while_paying_passes_a_new_demand_back() {
        // p1: Q; p2 pays with a plain card, then a J; p1 owes one and pays plain: p2 takes all.
        let mut p = Position::dealt(&[2, 0, 0], &[0, 1, 0]);
        let t = p.trick(u64::MAX);
        assert_eq!((t.laid, t.taker, t.taken), (4, 1, 4));
        assert_eq!(p.hands[1].cards().collect::<Vec<_>>(), vec![0, 2, 0, 1, 0]);
        assert_eq!(p.leader, 1);
    }

    #[test]
    fn without_a_demand_the_players_alternate_and_a_player_with_no_card_loses() {
        // Only plain cards: 1, 2, 1, 2, ... then p1 has none and p2 takes the pile and wins.
        let mut p = Position::dealt(&[0, 0], &[0, 0]);
        let t = p.trick(u64::MAX);
        assert_eq!((t.laid, t.taker, t.ended), (4, 1, Some(Outcome::Player(1))));
    }

    #[test]
    fn the_game_ends_when_the_taker_holds_every_card() {
        // p1 lays A, p2 pays with its last cards: p1 takes them and holds all.
        let mut p = Position::dealt(&[4], &[0, 0, 0, 0]);
        let t = p.trick(u64::MAX);
        assert_eq!((t.laid, t.taker, t.ended), (5, 0, Some(Outcome::Player(0))));
        // Paying runs out of cards halfway: the claimant takes the pile and wins.
        let mut p = Position::dealt(&[4], &[0, 0]);
        let t = p.trick(u64::MAX);
        assert_eq!((t.laid, t.taker, t.ended), (3, 0, Some(Outcome::Player(0))));
    }

    #[test]
    fn the_card_cap_ends_a_game_as_capped_at_the_cap() {
        let game = Bmn::new(BmnRules {
            max_rounds: 100,
            ..standard().rules
        });
        let p = play(
            &game,
            "-J------Q------AAA-----QQ-/K----JA-----------KQ-K-JJK",
        );
        assert_eq!((p.outcome, p.cards), (Outcome::Capped, 100));
    }

    #[test]
    fn deals_read_in_the_communitys_notation_and_full_card_names() {
        let game = small();
        assert_eq!(game.parse_deal("JQ/KA").unwrap(), [vec![1, 2], vec![3, 4]]);
        assert_eq!(
            game.parse_deal("Js, qh/K♠ A").unwrap(),
            [vec![1, 2], vec![3, 4]]
        );
        let e = game.parse_deal("JQ/KK").unwrap_err();
        assert!(
            e.0.contains("cards demanding 3") || e.0.contains("cards demanding 4"),
            "{}",
            e.0
        );
        assert!(game
            .parse_deal("JQKA")
            .unwrap_err()
            .0
            .contains("HAND1/HAND2"));
        let e = game.parse_deal("JQ/KZ").unwrap_err();
        assert!(e.0.contains("hand 2") && e.0.contains("'Z'"), "{}", e.0);
        let big = standard();
        let deal = "10 9 8 7 6 5 4 3 2 J Q K A - - - - - - - - - - - - -/Q K A J --------------------------";
        assert!(big.parse_deal(deal).is_err(), "13 + 4 plain cards, not 36");
    }

    #[test]
    fn exact_deals_of_a_small_deck_each_once() {
        let game = Bmn::new(BmnRules {
            ranks: 5,
            suits: 2,
            penalties: Penalties([1, 2, 3, 4]),
            max_rounds: DEFAULT_MAX_ROUNDS,
        });
        // 10 cards: 2 plain, 2 of each penalty rank: 10! / 2!^5.
        assert_eq!(game.deal_count().unwrap(), 113_400);
        let mut s = game.scratch();
        let mut seen = std::collections::HashSet::new();
        for i in [0u64, 1, 56_700, 113_399] {
            game.play_deal_number(i, &mut s).unwrap();
            assert!(seen.insert(s.deck.clone()));
            assert_eq!(s.deck.len(), 10);
        }
    }
}
