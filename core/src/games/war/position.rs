//! The state of one game between rounds and the general round: battles, wars, short players,
//! and where won cards go.

use rand::RngCore;

use super::rules::{Pickup, WonPile};
use super::stats::WarGame;
use super::War;
use crate::games::cards::{shuffle, Card, CoinFlips, Pile};
use crate::games::cycle::Ending;
use crate::games::{GameResult, Outcome};

/// The state of one game between rounds, plus the buffers a round needs.
#[derive(Clone, Debug)]
pub(super) struct Position {
    /// Each player's cards, top first. With [`Pickup::WonPile`], the last `won[p]` of them
    /// are the won pile: one ring holds both, so a refill shuffles in place and moves nothing.
    pub(super) hands: [Pile; 2],
    /// How many cards at the bottom of `hands[p]` are player `p`'s won pile (0 for every other
    /// pickup).
    pub(super) won: [usize; 2],
    /// Cards each player laid this round, in play order.
    pub(super) table: [Vec<Card>; 2],
    /// Where each war level after the first starts in `table`, per player.
    pub(super) levels: Vec<[usize; 2]>,
    /// Scratch for shuffles.
    pub(super) spare: Vec<Card>,
    /// Scratch for the `bryer` deal: deck positions, and which ones player 1 drew (a bit set).
    pub(super) positions: Vec<u16>,
    pub(super) taken: Vec<u64>,
    pub(super) coins: CoinFlips,
    /// Cards that left the game (`--honor`).
    pub(super) removed: u32,
    /// Whether the last round's losing face-up card left the game (for the trace).
    pub(super) honored: bool,
    /// What the game has counted so far.
    pub(super) stats: WarGame,
    /// `stats` when the round cap was reached.
    pub(super) at_cap: WarGame,
}

impl Position {
    /// Buffers for `capacity` cards in play. Each hand's ring holds twice that, so a war fought
    /// on cursors ([`super::cursor_war`]) can leave the laid cards where they are.
    pub(super) fn new(capacity: usize) -> Self {
        Position {
            hands: [0; 2].map(|_| Pile::with_capacity(2 * capacity)),
            won: [0; 2],
            table: [Vec::with_capacity(capacity), Vec::with_capacity(capacity)],
            levels: Vec::with_capacity(capacity),
            spare: Vec::with_capacity(capacity),
            positions: Vec::with_capacity(capacity),
            taken: Vec::with_capacity(capacity),
            coins: CoinFlips::default(),
            removed: 0,
            honored: false,
            stats: WarGame::default(),
            at_cap: WarGame::default(),
        }
    }

    pub(super) fn reset(&mut self) {
        for p in 0..2 {
            self.hands[p].clear();
        }
        self.won = [0; 2];
        self.coins.reset();
        self.removed = 0;
        self.stats = WarGame::default();
        self.at_cap = WarGame::default();
    }

    pub(super) fn set_hands(&mut self, hands: [&[Card]; 2]) {
        self.reset();
        for (pile, cards) in self.hands.iter_mut().zip(hands) {
            cards.iter().for_each(|&c| pile.push_bottom(c));
        }
    }

    /// Cards player `p` holds (hand and won pile).
    #[inline(always)]
    pub(super) fn holding(&self, p: usize) -> usize {
        self.hands[p].len()
    }

    /// Cards in player `p`'s hand proper (not on the won pile).
    #[inline(always)]
    pub(super) fn hand_len(&self, p: usize) -> usize {
        self.hands[p].len() - self.won[p]
    }

    /// Player `p`'s next card; with a won pile, an empty hand is first refilled from it.
    #[inline(always)]
    pub(super) fn draw<R: RngCore + ?Sized>(&mut self, war: &War, p: usize, rng: &mut R) -> Card {
        if self.hand_len(p) == 0 {
            self.refill(war, p, rng);
        }
        self.hands[p].pop_top()
    }

    /// Makes player `p`'s won pile their empty hand: shuffled (`--pickup won-pile`) or turned
    /// over (`--won-pile reversed`). With the hand empty, the won pile is the whole ring.
    pub(super) fn refill<R: RngCore + ?Sized>(&mut self, war: &War, p: usize, rng: &mut R) {
        debug_assert_eq!(self.hand_len(p), 0);
        if war.rules.won_pile == Some(WonPile::Reversed) {
            self.hands[p].reverse();
        } else {
            self.hands[p].shuffle(rng);
        }
        self.won[p] = 0;
    }

    /// Gives card `c` to player `p`: under the hand, or onto the won pile.
    #[inline(always)]
    pub(super) fn gain(&mut self, war: &War, p: usize, c: Card) {
        self.hands[p].push_bottom(c);
        self.won[p] += usize::from(war.rules.keeps_won_pile());
    }

    /// Gives `cards` to player `p` in order: under the hand, or onto the won pile.
    #[inline(always)]
    pub(super) fn give(&mut self, war: &War, p: usize, cards: &[Card]) {
        self.hands[p].extend_bottom(cards);
        if war.rules.keeps_won_pile() {
            self.won[p] += cards.len();
        }
    }

    /// Player `p` lays their next `n` cards on the table (the caller checked they have them).
    #[inline(always)]
    pub(super) fn lay<R: RngCore + ?Sized>(&mut self, war: &War, p: usize, n: usize, rng: &mut R) {
        if war.rules.keeps_won_pile() {
            for _ in 0..n {
                let c = self.draw(war, p, rng);
                self.table[p].push(c);
            }
        } else {
            self.hands[p].take_into(n, &mut self.table[p]);
        }
    }

    /// Plays one round by the general path, which leaves the round's cards in `table` (for a
    /// trace); returns the outcome if it decided the game.
    #[inline(always)]
    pub(super) fn round<R: RngCore + ?Sized>(&mut self, war: &War, rng: &mut R) -> Option<Outcome> {
        let a = self.draw(war, 0, rng);
        let b = self.draw(war, 1, rng);
        self.battle(war, rng, a, b)
    }

    /// The general round: a battle whose cards go on the table, with any wars it starts.
    #[inline(never)]
    pub(super) fn battle<R: RngCore + ?Sized>(
        &mut self,
        war: &War,
        rng: &mut R,
        mut a: Card,
        mut b: Card,
    ) -> Option<Outcome> {
        self.table[0].clear();
        self.table[1].clear();
        self.levels.clear();
        self.honored = false;
        self.table[0].push(a);
        self.table[1].push(b);
        let mut depth = 0;
        while a == b {
            depth += 1;
            self.stats.wars += 1;
            let [d0, d1] = match war.rules.face_down([self.holding(0), self.holding(1)]) {
                Ok(down) => down,
                Err(winner) => return Some(self.end_mid_war(winner, depth)),
            };
            self.lay(war, 0, d0 + 1, rng);
            self.lay(war, 1, d1 + 1, rng);
            let (n0, n1) = (self.table[0].len(), self.table[1].len());
            self.levels.push([n0 - 1, n1 - 1]);
            (a, b) = (self.table[0][n0 - 1], self.table[1][n1 - 1]);
        }
        self.stats.note_battle(depth);
        let w = usize::from(b > a);
        // Honorable War: a face-up card that loses narrowly leaves the game.
        let honored = war
            .rules
            .honor
            .is_some_and(|k| u32::from(a.abs_diff(b)) <= k);
        self.removed += u32::from(honored);
        self.honored = honored;
        self.collect(war, rng, w, honored);
        (self.holding(1 - w) == 0).then_some(Outcome::Player(w as u8))
    }

    /// Ends the game in the middle of a war; the table goes to the winner (back to its owners
    /// on a draw), so the final position still holds every card.
    pub(super) fn end_mid_war(&mut self, winner: Option<usize>, depth: u32) -> Outcome {
        self.stats.note_battle(depth);
        for p in 0..2 {
            let to = winner.unwrap_or(p);
            let cards = std::mem::take(&mut self.table[p]);
            self.hands[to].extend_bottom(&cards);
            self.table[p] = cards;
        }
        match winner {
            Some(w) => Outcome::Player(w as u8),
            None => Outcome::Draw,
        }
    }

    /// Puts the table under the hand of winner `w` in the pickup's order; `honored`: the
    /// loser's deciding card leaves the game instead (it stays on the table, for the trace).
    pub(super) fn collect<R: RngCore + ?Sized>(
        &mut self,
        war: &War,
        rng: &mut R,
        w: usize,
        honored: bool,
    ) {
        let l = 1 - w;
        let mut table = std::mem::take(&mut self.table);
        let gone = if honored { table[l].pop() } else { None };
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
            Pickup::Kbwar => self.collect_kbwar(war, w, &table),
            Pickup::Table => self.collect_table(war, w, &table),
            Pickup::Bryer => self.collect_bryer(war, w, &table, honored),
            Pickup::Shuffled if self.levels.is_empty() && honored => {
                self.gain(war, w, table[w][0]);
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
        table[l].extend(gone);
        self.table = table;
    }

    /// kbWar's order: its middle pile as laid (per level the face-up cards, then the face-down
    /// cards laid after them, player 1's before player 2's), which winner `w` takes from the
    /// bottom.
    #[inline(always)]
    fn collect_kbwar(&mut self, war: &War, w: usize, table: &[Vec<Card>; 2]) {
        let mut pile = std::mem::take(&mut self.spare);
        pile.clear();
        for level in 0..=self.levels.len() {
            let spans = [0, 1].map(|p| self.level_span(table, p, level));
            for (p, &[s, e]) in spans.iter().enumerate() {
                pile.extend_from_slice(&table[p][s..e.min(s + 1)]);
            }
            for (p, &[s, e]) in spans.iter().enumerate() {
                pile.extend_from_slice(&table[p][(s + 1).min(e)..e]);
            }
        }
        for &c in pile.iter().rev() {
            self.gain(war, w, c);
        }
        self.spare = pile;
    }

    /// The `table` order: level by level, the cards of a level alternating card by card,
    /// player 1's first (a short player's missing cards skipped).
    #[inline(always)]
    fn collect_table(&mut self, war: &War, w: usize, table: &[Vec<Card>; 2]) {
        for level in 0..=self.levels.len() {
            let [s0, e0] = self.level_span(table, 0, level);
            let [s1, e1] = self.level_span(table, 1, level);
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

    /// The R program's order: winner `w`'s then the loser's deciding card (the loser's gone
    /// where `honored`), then the set-aside cards of each war level from the innermost out,
    /// player 1's then player 2's.
    #[inline(always)]
    fn collect_bryer(&mut self, war: &War, w: usize, table: &[Vec<Card>; 2], honored: bool) {
        let last = |p: usize| table[p][table[p].len() - 1];
        if honored {
            self.give(war, w, &[last(w)]);
        } else {
            self.give(war, w, &[last(w), last(1 - w)]);
        }
        for level in (0..self.levels.len()).rev() {
            for p in 0..2 {
                let [s, e] = self.level_span(table, p, level);
                self.give(war, w, &table[p][s..e]);
            }
        }
    }

    /// The span `[start, end)` of `table[p]` laid at war level `level` (0 = the first battle;
    /// the last level is the deciding battle's single card).
    pub(super) fn level_span(&self, table: &[Vec<Card>; 2], p: usize, level: usize) -> [usize; 2] {
        let start = if level == 0 {
            0
        } else {
            self.levels[level - 1][p]
        };
        let end = self.levels.get(level).map_or(table[p].len(), |l| l[p]);
        [start, end]
    }

    /// The game's result once it has ended as `ending`: a capped game counts what it had
    /// counted at the cap (the loop detector may play on beyond it).
    pub(super) fn result(&self, ending: Ending, max_rounds: u64) -> GameResult<WarGame> {
        let mut stats = match ending {
            Ending::Capped => self.at_cap,
            _ => self.stats,
        };
        if let Ending::Ended {
            outcome: Outcome::Player(w),
            ..
        } = ending
        {
            stats.quit.won(w);
        }
        ending.result(max_rounds, stats)
    }
}
