//! The hot loop: blocks of plain battles (two different cards, no war) on the hands' cursors,
//! one battle at a time with a branch-free choice of the winner or (`avx512`) 32 at a time; a
//! tie ends a block, and its war is fought on the cursors (`cursor_war`) or by the general
//! round.

use std::hint::select_unpredictable;

use rand::RngCore;

#[cfg(target_arch = "x86_64")]
use super::avx512;
use super::cursor_war::{cursor_war, Hands};
use super::position::Position;
use super::rules::{Pickup, WarRules, WonPile};
use super::step::{Probe, Stop, LOSER_FIRST, P1_FIRST, RANDOM_ORDER, WINNER_FIRST, WON_PILE};
use super::War;
use crate::games::cards::{Card, CoinFlips};
use crate::games::Outcome;

/// Blocks shorter than this are played battle by battle, each checked for the game's end:
/// setting up a block costs more than those checks.
const MIN_SCALAR_BLOCK: usize = 2;
/// Blocks shorter than this run on the scalar path even where a vector path exists: loading
/// and packing 32 lanes costs more than a few battles one by one.
const MIN_VECTOR_BLOCK: usize = 8;
/// Battles played one at a time, when a block would be too short, before blocks are tried
/// again.
const SCALAR_STRETCH: u64 = 8;

/// Which code plays the plain battles of a block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Path {
    /// One battle at a time (the reference, on every machine).
    Scalar,
    /// 32 battles per step with AVX-512 (x86-64 with F, BW, VL and VBMI2).
    Avx512,
    /// 32 games per core in AVX-512 lanes (`lanes`, x86-64 with F, BW, VL and DQ besides the
    /// block path's), for the rule sets the lanes play; the block path for the others.
    Lanes,
    /// The same lanes on AVX2 (`lanes-avx2`), for x86-64 CPUs without the AVX-512 features of
    /// the lanes and for those where they measured faster than the AVX-512 lanes (Zen 4,
    /// `lanes/measured.rs`), with the block path the CPU has (`avx512`, else `scalar`) for the
    /// rule sets the lanes do not play.
    LanesAvx2,
}

impl Path {
    /// The path called `name` (`scalar`, `avx512`, `lanes` or `lanes-avx2`, for tests and
    /// benchmarks; results are the same on every path), if War has one of that name.
    pub fn called(name: &str) -> Option<Path> {
        match name {
            "scalar" => Some(Path::Scalar),
            "avx512" => Some(Path::Avx512),
            "lanes" => Some(Path::Lanes),
            "lanes-avx2" => Some(Path::LanesAvx2),
            _ => None,
        }
    }

    /// This path if the CPU runs it, else the fastest one below it that it runs: the AVX2
    /// lanes stand in for the AVX-512 lanes, the scalar path for the block path.
    pub fn or_available(self) -> Path {
        #[cfg(target_arch = "x86_64")]
        {
            use super::lanes::{available, Engine};
            let block = avx512::available();
            if self == Path::Lanes && block && available(Engine::Avx512) {
                return Path::Lanes;
            }
            let lanes = matches!(self, Path::Lanes | Path::LanesAvx2);
            if lanes && (self == Path::LanesAvx2 || !block) && available(Engine::Avx2) {
                return Path::LanesAvx2;
            }
            if self != Path::Scalar && block {
                return Path::Avx512;
            }
        }
        Path::Scalar
    }

    /// The lane engine this path plays the lanes' rule sets on, if any.
    #[cfg(target_arch = "x86_64")]
    pub(super) fn lanes(self) -> Option<super::lanes::Engine> {
        use super::lanes::Engine;
        match self {
            Path::Lanes => Some(Engine::Avx512),
            Path::LanesAvx2 => Some(Engine::Avx2),
            Path::Scalar | Path::Avx512 => None,
        }
    }

    /// The path that plays the blocks of plain battles of the games the lanes do not play.
    pub(super) fn blocks(self) -> Path {
        match self {
            Path::Lanes => Path::Avx512,
            Path::LanesAvx2 => Path::Avx512.or_available(),
            path => path,
        }
    }

    /// The path's name, for reports.
    pub fn name(self) -> &'static str {
        match self {
            Path::Scalar => "scalar",
            Path::Avx512 => "avx512",
            Path::Lanes => "lanes",
            Path::LanesAvx2 => "lanes-avx2",
        }
    }
}

/// Whether the hot loop's blocks play this rule set. Not: honor (a narrow loss removes a card),
/// a reversed won pile (turned over where the hot loop shuffles), kbWar's order (a plain
/// battle's cards go player 2's first, which no block path does) and `--quit-stats` (it looks
/// at every round); the general round plays those.
pub(super) fn plays_in_blocks(rules: &WarRules) -> bool {
    rules.honor.is_none()
        && rules.won_pile != Some(WonPile::Reversed)
        && rules.pickup != Pickup::Kbwar
        && !rules.quit_stats
}

impl Position {
    /// Plays rounds until the game is decided, `*rounds` reaches `max`, or (with a
    /// `probe`) the position may equal the probed one, counting them in `*rounds`. Same games
    /// as [`Position::round`], faster.
    #[inline(always)]
    pub(super) fn play_rounds<R: RngCore + ?Sized>(
        &mut self,
        war: &War,
        rng: &mut R,
        rounds: &mut u64,
        max: u64,
        probe: Option<Probe>,
    ) -> Stop {
        if !war.blocks {
            // The general round handles these rules ([`plays_in_blocks`]), and the probe is
            // checked after every round.
            return self.general_rounds(war, rng, rounds, max, probe);
        }
        match war.rules.pickup {
            Pickup::WinnerFirst | Pickup::Bryer => {
                self.plain_rounds::<R, WINNER_FIRST>(war, rng, rounds, max, probe)
            }
            Pickup::LoserFirst => self.plain_rounds::<R, LOSER_FIRST>(war, rng, rounds, max, probe),
            Pickup::P1First | Pickup::Table => {
                self.plain_rounds::<R, P1_FIRST>(war, rng, rounds, max, probe)
            }
            Pickup::Shuffled => self.plain_rounds::<R, RANDOM_ORDER>(war, rng, rounds, max, probe),
            Pickup::WonPile => self.plain_rounds::<R, WON_PILE>(war, rng, rounds, max, probe),
            Pickup::Kbwar => unreachable!("kbWar's order is played by the general round"),
        }
    }

    /// [`Position::play_rounds`] by the general round alone.
    fn general_rounds<R: RngCore + ?Sized>(
        &mut self,
        war: &War,
        rng: &mut R,
        rounds: &mut u64,
        max: u64,
        probe: Option<Probe>,
    ) -> Stop {
        while *rounds < max {
            *rounds += 1;
            if let Some(o) = self.round(war, rng) {
                return Stop::Ended(o);
            }
            if war.rules.quit_stats {
                // Where `--quit-stats` sees every undecided position ([`super::quit`]).
                let held = [self.holding(0), self.holding(1)];
                self.stats.quit.note(held);
            }
            if probe.is_some_and(|p| p == Probe::of(&self.hands)) {
                return Stop::Probe;
            }
        }
        Stop::Limit
    }

    /// [`Position::play_rounds`] for a pickup that puts a plain battle's two cards under the
    /// winner's hand in the order `ORDER` (a constant, so each order gets its own loop).
    ///
    /// Plain battles run in blocks on the hands' cursors (`Hands::scalar_run`,
    /// `Hands::vector_block`), or, where a block would be too short, a few battles one at a
    /// time, each checked for the game's end, until a block is long enough again. A tie ends a
    /// block and its war is fought on the cursors too ([`cursor_war`]) or, for the rules that
    /// one does not cover, by the general round ([`Position::tie_on_table`]). With the won
    /// pile, an empty hand is refilled first, as [`Position::draw`] does.
    #[inline(always)]
    pub(super) fn plain_rounds<R: RngCore + ?Sized, const ORDER: u8>(
        &mut self,
        war: &War,
        rng: &mut R,
        rounds: &mut u64,
        max: u64,
        probe: Option<Probe>,
    ) -> Stop {
        let mut done = *rounds;
        let stop = loop {
            let [p0, p1] = &mut self.hands;
            let (b0, c0) = p0.split();
            let (b1, c1) = p1.split();
            let mut h = Hands {
                bufs: [b0, b1],
                at: [c0, c1],
                won: self.won,
            };
            let mut coins = self.coins.clone();
            let mut tie = None;
            let stop = loop {
                if done >= max {
                    break Some(Stop::Limit);
                }
                if ORDER == WON_PILE {
                    h.refill_empty_hands(rng);
                }
                let left = max - done;
                let m = h.hand(0).min(h.hand(1)).min(left as usize);
                let blocks = war.path.blocks();
                let vector = blocks != Path::Scalar && probe.is_none();
                let run = if vector && m >= MIN_VECTOR_BLOCK {
                    h.vector_block::<R, ORDER>(blocks, &mut coins, rng, m)
                } else if m >= MIN_SCALAR_BLOCK {
                    let run = h.scalar_run::<R, ORDER, false>(&mut coins, rng, m as u64, probe);
                    h.after_block(run)
                } else {
                    let few = SCALAR_STRETCH.min(left);
                    h.scalar_run::<R, ORDER, true>(&mut coins, rng, few, probe)
                };
                done += run.played;
                match run.stop {
                    Run::Budget => continue,
                    Run::Ended(o) => break Some(Stop::Ended(o)),
                    Run::Probe => break Some(Stop::Probe),
                    Run::Tie => {}
                }
                // A tie comes next.
                done += 1;
                let card = h.at[0].pop(h.bufs[0]);
                h.at[1].pop(h.bufs[1]);
                if !war.cursor_wars {
                    tie = Some(card);
                    break None;
                }
                if let Some(o) = cursor_war(war, rng, &mut self.stats, &mut h, card) {
                    break Some(Stop::Ended(o));
                }
                if probe.is_some_and(|p| p.hits(h.at[0], h.bufs[0], h.at[1], h.bufs[1])) {
                    break Some(Stop::Probe);
                }
            };
            let Hands { at, won, .. } = h;
            p0.set_cursor(at[0]);
            p1.set_cursor(at[1]);
            self.won = won;
            self.coins = coins;
            match (stop, tie) {
                (Some(stop), _) => break stop,
                (None, Some(card)) => {
                    if let Some(stop) = self.tie_on_table(war, rng, card, probe) {
                        break stop;
                    }
                }
                (None, None) => unreachable!("a block stops with a result or a tie"),
            }
        };
        *rounds = done;
        stop
    }

    /// A tie of `card`s that the hot loop leaves to the general round ([`Position::battle`]),
    /// which fights its war with the cards on the table; the stop, if the game ends or
    /// reaches the probe's image there.
    #[inline(always)]
    fn tie_on_table<R: RngCore + ?Sized>(
        &mut self,
        war: &War,
        rng: &mut R,
        card: Card,
        probe: Option<Probe>,
    ) -> Option<Stop> {
        if let Some(o) = self.battle(war, rng, card, card) {
            return Some(Stop::Ended(o));
        }
        probe
            .is_some_and(|p| p == Probe::of(&self.hands))
            .then_some(Stop::Probe)
    }
}

impl Hands<'_> {
    /// Cards in player `p`'s hand proper (not on the won pile).
    #[inline(always)]
    fn hand(&self, p: usize) -> usize {
        self.at[p].len() - self.won[p]
    }

    /// Shuffles the won pile of each player whose hand is empty into it (player 1 first).
    #[inline(always)]
    fn refill_empty_hands<R: RngCore + ?Sized>(&mut self, rng: &mut R) {
        for p in 0..2 {
            if self.hand(p) == 0 {
                self.at[p].shuffle(self.bufs[p], rng);
                self.won[p] = 0;
            }
        }
    }

    /// Plays up to `m` plain battles on the vector path, `m` at most the cards in either hand
    /// (won piles aside): the cards drawn are then each hand's first `m` whoever wins, and no
    /// hand can run out before the last battle. Stops before a tie.
    #[inline(always)]
    fn vector_block<R: RngCore + ?Sized, const ORDER: u8>(
        &mut self,
        path: Path,
        coins: &mut CoinFlips,
        rng: &mut R,
        m: usize,
    ) -> Played {
        let played = match path {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: the block path is `Path::Avx512` only on that path or `Path::Lanes`, which
            // `Path::or_available` keeps only where it found every feature `avx512::block` is
            // compiled for.
            Path::Avx512 => unsafe { avx512::block::<R, ORDER>(self, coins, rng, m) },
            _ => unreachable!("no vector block on the {} path", path.name()),
        };
        self.after_block(Played {
            played: played as u64,
            stop: if played < m { Run::Tie } else { Run::Budget },
        })
    }

    /// A block's result once it played every battle it could: only its last battle can have
    /// emptied a hand, its loser's.
    #[inline(always)]
    fn after_block(&self, run: Played) -> Played {
        let stop = match run.stop {
            Run::Budget => match (0..2).find(|&p| self.at[p].is_empty()) {
                Some(p) => Run::Ended(Outcome::Player(1 - p as u8)),
                None => Run::Budget,
            },
            stop => stop,
        };
        Played { stop, ..run }
    }

    /// Plays up to `budget` plain battles one at a time, stopping before a tie, after one that
    /// reaches the probe's image, or (with `CHECKS`) after the battle that ends the game: the
    /// reference every vector path must equal. Without `CHECKS` it is a block (`budget` at
    /// most the cards in either hand), so no hand can run out or need a refill on the way.
    #[inline(always)]
    fn scalar_run<R: RngCore + ?Sized, const ORDER: u8, const CHECKS: bool>(
        &mut self,
        coins: &mut CoinFlips,
        rng: &mut R,
        budget: u64,
        probe: Option<Probe>,
    ) -> Played {
        let [b0, b1] = &mut self.bufs;
        let [mut c0, mut c1] = self.at;
        let mut won = self.won;
        let mut played = 0;
        let stop = loop {
            if played == budget {
                break Run::Budget;
            }
            if CHECKS && ORDER == WON_PILE {
                // An empty hand takes its won pile, player 1's first, as `Position::round`
                // draws.
                if c0.len() == won[0] {
                    c0.shuffle(b0, rng);
                    won[0] = 0;
                }
                if c1.len() == won[1] {
                    c1.shuffle(b1, rng);
                    won[1] = 0;
                }
            }
            let (a, b) = (c0.top(b0), c1.top(b1));
            if a == b {
                break Run::Tie;
            }
            c0.skip(1);
            c1.skip(1);
            played += 1;
            // Who wins a battle is a coin toss to the branch predictor: select, don't branch.
            let w1 = b > a;
            let (cw, cl) = select_unpredictable(w1, (b, a), (a, b));
            let (first, second) = match ORDER {
                WINNER_FIRST => (cw, cl),
                LOSER_FIRST => (cl, cw),
                P1_FIRST | WON_PILE => (a, b),
                _ => select_unpredictable(coins.flip(rng), (cw, cl), (cl, cw)),
            };
            let mut cursor = select_unpredictable(w1, c1, c0);
            let buf: &mut [Card] = select_unpredictable(w1, &mut **b1, &mut **b0);
            cursor.push(buf, first);
            cursor.push(buf, second);
            c0 = select_unpredictable(w1, c0, cursor);
            c1 = select_unpredictable(w1, cursor, c1);
            if ORDER == WON_PILE {
                won[usize::from(w1)] += 2;
            }
            if CHECKS && select_unpredictable(w1, c0, c1).is_empty() {
                break Run::Ended(Outcome::Player(u8::from(w1)));
            }
            if probe.is_some_and(|p| p.hits(c0, b0, c1, b1)) {
                break Run::Probe;
            }
        };
        self.at = [c0, c1];
        self.won = won;
        Played { played, stop }
    }
}

/// What a run of plain battles did.
struct Played {
    played: u64,
    stop: Run,
}

/// Why a run of plain battles stopped.
enum Run {
    /// A tie comes next (not played).
    Tie,
    /// The last battle decided the game.
    Ended(Outcome),
    /// The last battle reached the probe's image.
    Probe,
    /// It played all it was allowed to.
    Budget,
}
