//! The lanes' games: each lane's next game dealt and started ([`Games::refill`]), its
//! positions kept and compared for loop detection, and its end recorded where it loops or is
//! played again on today's path.

use super::*;
use crate::games::war::position::Position;

/// Where slot `k` of lane `lane` lies in `tortoise` ([`Games::tortoise`]): a deck's worth of
/// cards each, [`KEPT`] + 1 slots a lane.
fn slot(tortoise: &[Card], lane: usize, k: usize) -> Range<usize> {
    let n = tortoise.len() / (LANES * (KEPT + 1));
    let at = (lane * (KEPT + 1) + k) * n;
    at..at + n
}

/// Writes `hands` into a lane's buffers from `starts`; returns where they end (the tails).
fn put_hands(mem: &mut [u8], starts: [u32; 2], hands: [&[Card]; 2]) -> [u32; 2] {
    let mut tails = starts;
    for (tail, hand) in tails.iter_mut().zip(hands) {
        let at = *tail as usize;
        mem[at..at + hand.len()].copy_from_slice(hand);
        *tail += hand.len() as u32;
    }
    tails
}

/// Today's `bryer` deal from `rng` ([`bryer_deal`], with `hare`'s buffers), written straight
/// into a lane's buffers from `starts`; returns where the hands end (the tails).
#[inline(always)]
fn bryer_into(
    war: &War,
    rng: &mut GameRng,
    hare: &mut Position,
    mem: &mut [u8],
    starts: [u32; 2],
) -> [u32; 2] {
    let mut tails = starts;
    let (a_buf, b_buf) = mem.split_at_mut(starts[1] as usize);
    let [ta, tb] = &mut tails;
    let (to_p1, to_p2) = (
        |c| {
            a_buf[*ta as usize] = c;
            *ta += 1;
        },
        |c| {
            b_buf[(*tb - starts[1]) as usize] = c;
            *tb += 1;
        },
    );
    bryer_deal(war, rng, &mut hare.positions, &mut hare.taken, to_p1, to_p2);
    tails
}

/// A cheap image of a lane's position for loop detection: player 1's hand size and both top
/// cards. Equal positions have equal images; the full comparison decides.
fn image(len0: usize, top0: Card, top1: Card) -> u32 {
    len0 as u32 | u32::from(top0) << 16 | u32::from(top1) << 24
}

impl Games {
    /// Puts the next game of the range into lane `lane` (dealt by today's deal code from its
    /// own generator, which the lane keeps for the rest of the game, or `exact`'s deal of that
    /// number), or marks the lane idle when none is left. A deal the lanes cannot start (an
    /// empty hand) is played on today's path at once.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn refill(
        &mut self,
        war: &War,
        s: &mut WarScratch,
        mem: &mut [u8],
        lane: usize,
        a: &mut Arrays,
        record: &mut dyn FnMut(u64, &GameResult<WarGame>),
    ) {
        if let Source::Seed(seed) = self.src {
            self.deal_ahead(war, seed);
        }
        if self.start_ahead(war, mem, lane, a) {
            return;
        }
        while self.next < self.end {
            let i = self.next;
            self.next += 1;
            let started = match self.src {
                Source::Seed(seed) => self.start_seeded(war, s, mem, lane, a, seed, i, record),
                Source::Deals => self.start_numbered(war, s, mem, lane, a, i, record),
            };
            if started {
                return;
            }
        }
        // Idle: a hand of one card each, never played (the lane is not live).
        let (l, starts) = (lane % 16, [base(lane, 0), base(lane, 1)]);
        [a.pa[l], a.pb[l], a.qa[l], a.qb[l]] = [starts[0], starts[1], starts[0] + 1, starts[1] + 1];
        a.live &= !(1 << l);
    }

    /// Deals the next [`AHEAD`] games of the run at once ([`Ahead::deal`]),
    /// where none dealt ahead is left and the deal allows it: the `bryer` and `shuffled` deals
    /// of a deck of at most 64 cards without `--p1-cards`, with [`AHEAD`] games left. Where
    /// the engine's deal refuses the batch (a draw it would have to redraw), the games are
    /// dealt one at a time instead.
    #[inline(always)]
    fn deal_ahead(&mut self, war: &War, seed: u64) {
        let ahead = &mut self.ahead;
        if !(matches!(war.rules.deal, DealOrder::Bryer | DealOrder::Shuffled)
            && war.fixed_hands.is_none()
            && war.deck.len() <= 64
            && ahead.at == AHEAD
            && self.end - self.next >= AHEAD as u64)
        {
            return;
        }
        let first = self.next;
        // SAFETY: `deal` is the engine's, whose features `play_range`'s caller checked.
        if unsafe {
            (ahead.deal)(
                war,
                seed,
                first,
                &mut ahead.p1,
                &mut ahead.p2,
                &mut ahead.rng,
            )
        } {
            ahead.index = std::array::from_fn(|g| first + g as u64);
            ahead.at = 0;
            self.next += AHEAD as u64;
        }
    }

    /// Starts the next game dealt ahead in lane `lane`, with its generator after the deal;
    /// `false` where none is left.
    #[inline(always)]
    fn start_ahead(&mut self, war: &War, mem: &mut [u8], lane: usize, a: &mut Arrays) -> bool {
        if self.ahead.at >= AHEAD {
            return false;
        }
        let g = self.ahead.at;
        self.ahead.at += 1;
        let n = war.deck.len();
        let starts = [base(lane, 0), base(lane, 1)];
        // Whole rows of 64 bytes, a copy of fixed size (no call to `memcpy`): the bytes past
        // a hand's tail in its buffer (of `HAND` bytes) are not cards.
        for (start, row) in starts
            .into_iter()
            .zip([&self.ahead.p1[g], &self.ahead.p2[g]])
        {
            mem[start as usize..start as usize + 64].copy_from_slice(row);
        }
        let tails = [starts[0] + (n / 2) as u32, starts[1] + (n - n / 2) as u32];
        self.rng[lane] = self.ahead.rng[g].clone();
        self.start(war, lane, self.ahead.index[g], starts, tails, a, mem);
        true
    }

    /// Starts game `i` of the run with base `seed` in lane `lane`, dealt by today's deal from
    /// its own generator (the `bryer` deal straight into the lane's buffers), which the lane
    /// keeps for the rest of the game. A deal with an empty hand (rare) is played to its end on
    /// today's path and recorded instead: `false`.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn start_seeded(
        &mut self,
        war: &War,
        s: &mut WarScratch,
        mem: &mut [u8],
        lane: usize,
        a: &mut Arrays,
        seed: u64,
        i: u64,
        record: &mut dyn FnMut(u64, &GameResult<WarGame>),
    ) -> bool {
        let mut rng = game_rng(seed, i);
        let starts = [base(lane, 0), base(lane, 1)];
        let hare = &mut s.detector.hare;
        let tails = if war.rules.deal == DealOrder::Bryer && war.fixed_hands.is_none() {
            bryer_into(war, &mut rng, hare, mem, starts)
        } else {
            hare.deal(war, &mut rng);
            if hare.hands.iter().any(|h| h.is_empty()) {
                record(i, &war.run_dealt(&mut rng, s, None));
                return false;
            }
            let mut tails = starts;
            for (p, hand) in hare.hands.iter().enumerate() {
                for c in hand.iter() {
                    mem[tails[p] as usize] = c;
                    tails[p] += 1;
                }
            }
            tails
        };
        self.rng[lane] = rng;
        self.start(war, lane, i, starts, tails, a, mem);
        true
    }

    /// Starts distinct deal number `i` (`exact`) in lane `lane`. A deal with an empty hand
    /// (rare) is dealt again, played to its end on today's path and recorded instead: `false`.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn start_numbered(
        &mut self,
        war: &War,
        s: &mut WarScratch,
        mem: &mut [u8],
        lane: usize,
        a: &mut Arrays,
        i: u64,
        record: &mut dyn FnMut(u64, &GameResult<WarGame>),
    ) -> bool {
        let half = war.deal_cards(i, s).expect("the caller checked");
        let (p1, p2) = s.deal.split_at(half);
        if p1.is_empty() || p2.is_empty() {
            record(i, &war.play_deal_number(i, s).expect("the caller checked"));
            return false;
        }
        let starts = [base(lane, 0), base(lane, 1)];
        let tails = put_hands(mem, starts, [p1, p2]);
        self.start(war, lane, i, starts, tails, a, mem);
        true
    }

    /// Starts game `i`, dealt into lane `lane`'s buffers from `heads` to `tails`; its group
    /// (`--by`) is taken from player 1's hand there, as `Position::deal` takes it.
    #[allow(clippy::too_many_arguments)]
    fn start(
        &mut self,
        war: &War,
        lane: usize,
        i: u64,
        heads: [u32; 2],
        tails: [u32; 2],
        a: &mut Arrays,
        mem: &[u8],
    ) {
        let l = lane % 16;
        let group = war.rules.by.map(|by| {
            let hand = &mem[heads[0] as usize..tails[0] as usize];
            by.group(hand.iter().copied(), war.rules.ranks)
        });
        self.index[lane] = i;
        self.counted[lane] = WarGame {
            group,
            ..WarGame::default()
        };
        [a.pa[l], a.pb[l], a.qa[l], a.qb[l]] = [heads[0], heads[1], tails[0], tails[1]];
        a.rounds[l] = 0;
        a.wars1[l] = 0;
        // No won pile yet, and no coin bits (`CoinFlips::reset`).
        [a.ha[l], a.hb[l]] = tails;
        a.left[l] = 0;
        a.live |= 1 << l;
        a.due[l] = war.rules.max_rounds as u32;
        if war.rules.detect_loops {
            for kept in &mut a.kept {
                kept[l] = NO_IMAGE;
            }
            self.slot[lane] = 0;
            self.save(lane, mem, a);
            // The deal, to play again from when the game loops (`looped`).
            let (from, to) = (
                slot(&self.tortoise, lane, 0),
                slot(&self.tortoise, lane, KEPT),
            );
            self.tortoise.copy_within(from, to.start);
            self.dealt[lane] = (tails[0] - heads[0]) as usize;
            a.due[l] = a.due[l].min(FIRST_CHECKPOINT);
        }
    }

    /// Saves lane `lane`'s position (a tortoise of Brent's) and its image in the slot of the
    /// oldest kept; the lane skips comparing at its next step, being there.
    pub(super) fn save(&mut self, lane: usize, mem: &[u8], a: &mut Arrays) {
        let l = lane % 16;
        let k = self.slot[lane];
        self.slot[lane] = (k + 1) % KEPT;
        let (head, tail) = ([a.pa[l], a.pb[l]], [a.qa[l], a.qb[l]]);
        let len0 = (tail[0] - head[0]) as usize;
        let saved = self.kept_mut(lane, k);
        saved[..len0].copy_from_slice(&mem[head[0] as usize..tail[0] as usize]);
        saved[len0..].copy_from_slice(&mem[head[1] as usize..tail[1] as usize]);
        self.since[lane][k] = a.rounds[l];
        a.kept[k][l] = image(len0, mem[head[0] as usize], mem[head[1] as usize]);
        a.skip |= 1 << l;
    }

    /// Lane `lane`'s kept position `k`.
    fn kept_mut(&mut self, lane: usize, k: usize) -> &mut [Card] {
        let at = slot(&self.tortoise, lane, k);
        &mut self.tortoise[at]
    }

    /// The rounds since the checkpoint whose kept position lane `lane`'s position is, if one
    /// is: then the game's cycle length, this being the first time the lane has returned to
    /// it (every round is compared with every kept position).
    pub(super) fn returned(&self, lane: usize, mem: &[u8], a: &Arrays) -> Option<u64> {
        let l = lane % 16;
        let (hand0, hand1) = (
            &mem[a.pa[l] as usize..a.qa[l] as usize],
            &mem[a.pb[l] as usize..a.qb[l] as usize],
        );
        let img = image(hand0.len(), hand0[0], hand1[0]);
        (0..KEPT).find_map(|k| {
            let (saved0, saved1) =
                self.tortoise[slot(&self.tortoise, lane, k)].split_at(hand0.len());
            (a.kept[k][l] == img && hand0 == saved0 && hand1 == saved1)
                .then(|| u64::from(a.rounds[l] - self.since[lane][k]))
        })
    }

    /// Records the game in lane `lane`, whose positions repeat every `cycle_len` rounds: where
    /// its loop begins is found on today's path, from the game's deal kept in the lane
    /// ([`locate`](crate::games::cycle::LoopDetector::locate)), as are its statistics.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn looped(
        &mut self,
        war: &War,
        s: &mut WarScratch,
        mem: &mut [u8],
        lane: usize,
        a: &mut Arrays,
        cycle_len: u64,
        record: &mut dyn FnMut(u64, &GameResult<WarGame>),
    ) {
        let i = self.index[lane];
        let max = war.rules.max_rounds;
        let deal = self.tortoise[slot(&self.tortoise, lane, KEPT)].split_at(self.dealt[lane]);
        war.set_dealt([deal.0, deal.1], &mut s.detector.hare);
        let ending = s.detector.locate(war, cycle_len, max);
        record(i, &s.detector.hare.result(ending, max));
        self.refill(war, s, mem, lane, a, record);
    }

    /// Plays the game in lane `lane` again on today's path, and records it.
    pub(super) fn replay(
        &self,
        war: &War,
        s: &mut WarScratch,
        lane: usize,
        record: &mut dyn FnMut(u64, &GameResult<WarGame>),
    ) {
        let i = self.index[lane];
        let result = match self.src {
            Source::Seed(seed) => Game::play(war, &mut game_rng(seed, i), s),
            Source::Deals => war.play_deal_number(i, s).expect("the caller checked"),
        };
        record(i, &result);
    }
}
