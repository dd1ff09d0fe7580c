//! The lanes' work out of line: what a step leaves to scalar code (wars it did not decide,
//! coin words, the shuffled pickup, ends, caps, loop checkpoints, compaction).

use super::*;

/// What a step leaves to [`out_of_line`]: lanes whose tie began a war the step did not decide,
/// lanes that need a fresh coin word before their battle (which they play at the next step),
/// lanes whose war the step decided and whose cards the shuffled pickup now shuffles (player 1
/// won where `p1_wins`), lanes that may have ended, emptied a hand proper, reached the cap or
/// a checkpoint of loop detection or need compaction, and (`LOOPS`) lanes whose position may
/// equal one kept from their last checkpoints (its cheap image matches; the battle waits).
#[derive(Clone, Copy, Default)]
pub(super) struct Events {
    pub(super) war: u16,
    pub(super) coin: u16,
    pub(super) shuffle: u16,
    pub(super) p1_wins: u16,
    pub(super) check: u16,
    pub(super) probe: u16,
}

impl Events {
    pub(super) fn touched(self) -> u16 {
        self.war | self.coin | self.shuffle | self.check | self.probe
    }
}

/// A group's state as arrays: the AVX-512 engine's vectors stored for the per-lane work out
/// of line, and the AVX2 engine's group itself, which its step reads and writes.
#[derive(Default)]
pub(super) struct Arrays {
    pub(super) pa: [u32; 16],
    pub(super) pb: [u32; 16],
    pub(super) qa: [u32; 16],
    pub(super) qb: [u32; 16],
    pub(super) rounds: [u32; 16],
    pub(super) wars1: [u32; 16],
    pub(super) ha: [u32; 16],
    pub(super) hb: [u32; 16],
    pub(super) bits: [u64; 16],
    pub(super) left: [u32; 16],
    pub(super) due: [u32; 16],
    pub(super) kept: [[u32; 16]; KEPT],
    pub(super) live: u16,
    pub(super) skip: u16,
}
/// The per-lane work a step left, on group `g`'s arrays: wars, coin words, won piles, ends,
/// the cap, compaction and (`LOOPS`) loop detection; each ended game is recorded and its lane
/// refilled.
///
/// Loop detection is Brent's ([`crate::games::cycle::run_detecting`]) with [`KEPT`] saved
/// positions: each lane saves its position at checkpoints ([`FIRST_CHECKPOINT`], then
/// 2r + 1) and compares every later one with the last few saved, so the first full match
/// gives the cycle's length λ (the first return to a saved position in the cycle). Where
/// the loop begins (μ) is then found on today's path from the deal the lane kept
/// ([`Games::looped`]). A game that reaches the cap is played again on today's path, whose
/// search may look past the cap, so the lanes report exactly what it reports.
#[inline(never)]
#[allow(clippy::too_many_arguments)]
pub(super) fn out_of_line<const ORDER: u8, const LOOPS: bool>(
    war: &War,
    s: &mut WarScratch,
    mem: &mut [u8],
    games: &mut Games,
    g: usize,
    a: &mut Arrays,
    events: Events,
    record: &mut dyn FnMut(u64, &GameResult<WarGame>),
) {
    let max = war.rules.max_rounds;
    let mut lanes = events.touched();
    while lanes != 0 {
        let l = lanes.trailing_zeros() as usize;
        lanes &= lanes - 1;
        let lane = g * 16 + l;
        let bit = 1 << l;
        if events.coin & bit != 0 {
            // The flip's word; the battle waits for the next step.
            a.bits[l] = games.rng[lane].next_u64();
            a.left[l] = 64;
            continue;
        }
        if LOOPS && events.probe & bit != 0 {
            match games.returned(lane, mem, a) {
                Some(cycle_len) => games.looped(war, s, mem, lane, a, cycle_len, record),
                // Only an image matched: the lane plays its battle at the next step.
                None => a.skip |= bit,
            }
            continue;
        }
        if events.shuffle & bit != 0 {
            // As `cursor_war` shuffles the war's cards, just given to the winner.
            let tail = if events.p1_wins & bit != 0 {
                a.qa[l]
            } else {
                a.qb[l]
            } as usize;
            shuffle(&mut games.rng[lane], &mut mem[tail - 10..tail]);
        }
        let ended = if events.war & bit != 0 {
            let rng = &mut games.rng[lane];
            lane_war::<ORDER>(war, rng, mem, lane, a, &mut games.counted[lane])
        } else {
            None
        };
        match next::<LOOPS>(ended, a, l, max) {
            Next::Ended(ending) => {
                record(
                    games.index[lane],
                    &ending.result(max, counted(games, a, lane)),
                );
                games.refill(war, s, mem, lane, a, record);
                continue;
            }
            Next::Replayed => {
                games.replay(war, s, lane, record);
                games.refill(war, s, mem, lane, a, record);
                continue;
            }
            Next::Playing => {}
        }
        if LOOPS && checkpoint(war, s, mem, games, lane, a, record) {
            continue;
        }
        tidy_hands::<ORDER>(mem, &mut games.rng[lane], lane, a);
    }
}

/// What becomes of a lane's game after its work out of line.
enum Next {
    /// It ended: by the war fought there, a hand emptied, or (without loop detection) the cap.
    Ended(Ending),
    /// It reached the cap with loop detection: it is played again on today's path, whose
    /// search may look past the cap, so the lanes report exactly what that path reports.
    Replayed,
    /// It plays on.
    Playing,
}

/// What becomes of lane `l`'s game, given the outcome of a war fought out of line (`ended`)
/// and the cap `max`.
#[inline(always)]
fn next<const LOOPS: bool>(ended: Option<Outcome>, a: &Arrays, l: usize, max: u64) -> Next {
    let rounds = u64::from(a.rounds[l]);
    let outcome = match ended {
        Some(outcome) => outcome,
        None if a.pa[l] == a.qa[l] => Outcome::Player(1),
        None if a.pb[l] == a.qb[l] => Outcome::Player(0),
        None if rounds >= max && LOOPS => return Next::Replayed,
        None if rounds >= max => return Next::Ended(Ending::Capped),
        None => return Next::Playing,
    };
    Next::Ended(Ending::Ended { rounds, outcome })
}

/// What lane `lane`'s game counted: out of line, and its one-level wars, which the step counts
/// apart.
#[inline(always)]
fn counted(games: &Games, a: &Arrays, lane: usize) -> WarGame {
    let mut stats = games.counted[lane];
    let wars1 = a.wars1[lane % 16];
    stats.wars += wars1;
    stats.by_depth[0] += wars1;
    if wars1 > 0 {
        stats.deepest = stats.deepest.max(1);
    }
    stats
}

/// At a checkpoint of loop detection (the lane's rounds reached its `due`), compares lane
/// `lane`'s position with those kept, as the next step will not, then keeps it and sets the
/// next checkpoint (2r + 1, within the cap); `true` where the game looped, was recorded and
/// the lane refilled.
#[inline(always)]
fn checkpoint(
    war: &War,
    s: &mut WarScratch,
    mem: &mut [u8],
    games: &mut Games,
    lane: usize,
    a: &mut Arrays,
    record: &mut dyn FnMut(u64, &GameResult<WarGame>),
) -> bool {
    let l = lane % 16;
    let rounds = u64::from(a.rounds[l]);
    if rounds < u64::from(a.due[l]) {
        return false;
    }
    if let Some(cycle_len) = games.returned(lane, mem, a) {
        games.looped(war, s, mem, lane, a, cycle_len, record);
        return true;
    }
    games.save(lane, mem, a);
    a.due[l] = (2 * rounds + 1).min(war.rules.max_rounds) as u32;
    false
}

/// Readies lane `lane`'s hands for the next step: with the won pile (`WON_PILE`), an empty
/// hand takes its won pile, shuffled by `rng`, player 1's first, where the other paths do it
/// (before the next card is drawn); a tail past its buffer's [`limit`] is compacted to the
/// buffer's start.
#[inline(always)]
fn tidy_hands<const ORDER: u8>(mem: &mut [u8], rng: &mut GameRng, lane: usize, a: &mut Arrays) {
    let l = lane % 16;
    let hands = [
        (0, &mut a.pa[l], &mut a.ha[l], &mut a.qa[l]),
        (1, &mut a.pb[l], &mut a.hb[l], &mut a.qb[l]),
    ];
    for (p, head, hand_end, tail) in hands {
        let start = base(lane, p);
        if ORDER == WON_PILE && *head == *hand_end {
            let buf = &mut mem[start as usize..(start + HAND) as usize];
            let pile = Cursor::span((*head - start) as usize, (*tail - start) as usize);
            pile.shuffle(buf, rng);
            *hand_end = *tail;
        }
        if *tail > limit(lane, p) {
            mem.copy_within(*head as usize..*tail as usize, start as usize);
            let moved = *head - start;
            *tail -= moved;
            if ORDER == WON_PILE {
                // Kept for the won pile only (stale, and possibly below `moved`, else).
                *hand_end -= moved;
            }
            *head = start;
        }
    }
}

/// Fights the war a step left in lane `lane` (its hands' top cards tie) with the hot loop's
/// [`cursor_war`] on the lane's buffers, seen as rings it never wraps (their tails stay below
/// LIMIT + 12, and a war adds at most the deck), and the lane's generator; returns the outcome
/// if it decided the game.
pub(super) fn lane_war<const ORDER: u8>(
    war: &War,
    rng: &mut GameRng,
    mem: &mut [u8],
    lane: usize,
    a: &mut Arrays,
    counted: &mut WarGame,
) -> Option<Outcome> {
    let l = lane % 16;
    if ORDER == BRYER {
        if let Some(ended) = bryer_war(mem, l, a, counted) {
            return ended;
        }
    }
    let start = base(lane, 0);
    let (b0, b1) = mem[start as usize..(start + 2 * HAND) as usize].split_at_mut(HAND as usize);
    let heads = [&mut a.pa[l], &mut a.pb[l]];
    let tails = [&mut a.qa[l], &mut a.qb[l]];
    let ends = [&mut a.ha[l], &mut a.hb[l]];
    let starts = [start, start + HAND];
    let at = |p: usize| {
        Cursor::span(
            (*heads[p] - starts[p]) as usize,
            (*tails[p] - starts[p]) as usize,
        )
    };
    let won = if ORDER == WON_PILE {
        [
            (*tails[0] - *ends[0]) as usize,
            (*tails[1] - *ends[1]) as usize,
        ]
    } else {
        [0; 2]
    };
    let mut h = Hands {
        bufs: [b0, b1],
        at: [at(0), at(1)],
        won,
    };
    let card = h.at[0].pop(h.bufs[0]);
    h.at[1].pop(h.bufs[1]);
    let outcome = cursor_war(war, rng, counted, &mut h, card);
    let [head0, head1] = heads;
    let [tail0, tail1] = tails;
    let [end0, end1] = ends;
    for (p, (head, tail, end)) in [(head0, tail0, end0), (head1, tail1, end1)]
        .into_iter()
        .enumerate()
    {
        let cursor = h.at[p];
        debug_assert!(cursor.len() <= MAX_CARDS, "a lane's hand outgrew the deck");
        *head = starts[p] + cursor.head_index(HAND as usize) as u32;
        *tail = *head + cursor.len() as u32;
        *end = *tail - h.won[p] as u32;
    }
    outcome
}

/// The `bryer` pickup's war (3 down) in lane `l`, as the C prototype fights it: levels read
/// straight from the lane's linear buffers and the table written under the winner's hand in
/// one pass, where [`cursor_war`] fights every rule set's wars on rings (6-7% of a `bryer`
/// run's time, measured with perf). The same cards in the same order: the deciding cards,
/// winner's first, then each level's 4 cards from the innermost out, player 1's then player
/// 2's. `None`, with nothing changed, where a hand runs short mid-war: `cursor_war` then ends
/// the game as `Position::end_mid_war` does.
#[inline(always)]
fn bryer_war(
    mem: &mut [u8],
    l: usize,
    a: &mut Arrays,
    counted: &mut WarGame,
) -> Option<Option<Outcome>> {
    // The heads are at the tied cards; each level lays 3 down and turns 1.
    let (ha, hb) = (a.pa[l] as usize, a.pb[l] as usize);
    let held = [
        (a.qa[l] - a.pa[l] - 1) as usize,
        (a.qb[l] - a.pb[l] - 1) as usize,
    ];
    let mut d = 0;
    let (x, y) = loop {
        if held[0] - d <= 3 || held[1] - d <= 3 {
            return None;
        }
        d += 4;
        let (x, y) = (mem[ha + d], mem[hb + d]);
        if x != y {
            break (x, y);
        }
    };
    let w = usize::from(y > x);
    let tail = if w == 0 { &mut a.qa[l] } else { &mut a.qb[l] };
    let t = *tail as usize;
    // The winner's laid cards lie below its tail, the loser's in the other buffer.
    let dst = &mut mem[t..t + 2 + 2 * d];
    (dst[0], dst[1]) = if w == 0 { (x, y) } else { (y, x) };
    *tail += 2 + 2 * d as u32;
    for (i, k) in (0..d).step_by(4).rev().enumerate() {
        mem.copy_within(ha + k..ha + k + 4, t + 2 + 8 * i);
        mem.copy_within(hb + k..hb + k + 4, t + 6 + 8 * i);
    }
    a.pa[l] += d as u32 + 1;
    a.pb[l] += d as u32 + 1;
    // Kept for the won pile only; set as `lane_war` sets it.
    (a.ha[l], a.hb[l]) = (a.qa[l], a.qb[l]);
    let depth = d as u32 / 4;
    counted.wars += depth;
    counted.note_battle(depth);
    let loser_empty = if w == 0 {
        a.pb[l] == a.qb[l]
    } else {
        a.pa[l] == a.qa[l]
    };
    Some(loser_empty.then_some(Outcome::Player(w as u8)))
}
