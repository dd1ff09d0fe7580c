//! The AVX-512 step (issue 62): one phase of 16 games at once, with no branch, and the loop that
//! steps them, reports the games that end and refills their lanes. The same phase as the AVX2
//! step ([`super::step`], after the C reference's `q_step`), on twice the games: every count,
//! demand queue and packed counter of the 16 games in the dword lanes of one 512-bit vector, and
//! each penalty mask in two vectors of 8 qwords (games 0, 1, 4, 5, 8, 9, 12, 13 in `*l`, the
//! others in `*h`, the order in which `vunpck{l,h}dq` widens dwords and `vshufps` narrows
//! qwords). What AVX-512 adds to the AVX2 step: `vplzcntq` finds each hand's first penalty card
//! (AVX2 converts to floats), mask registers choose the alternating or the paying phase's
//! numbers and the games that swap, take or pop (AVX2 shifts by counts past the width and
//! blends by vectors), and 32 registers hold a group's 15 vectors with the step's constants.
//! The C reference's `lanes.h` keeps 8 games a step (counts in 256-bit vectors beside 8 qword
//! masks); here a step plays 16, so the count work is shared by twice the games.

use std::arch::asm;
use std::arch::x86_64::*;

use super::step::{Ended, Report, CAP_EVERY, TRICK, WHO};
use super::{set_lanes, Games, Start};

/// Whether this CPU runs these lanes: AVX-512 F and CD (`vplzcntq`) for the step, BW for the
/// deal's byte swaps ([`deal8_wide`](super::deal::deal8_wide)), and what the AVX2 lanes need
/// ([`super::available`]).
pub(super) fn available() -> bool {
    super::available()
        && is_x86_feature_detected!("avx512f")
        && is_x86_feature_detected!("avx512cd")
        && is_x86_feature_detected!("avx512bw")
}

/// The games of a group, one a lane: penalty masks read from the top (bit 63 the top card) of
/// `x` (the player to lay), `y` and the pile (`qr`: its last card at the deck's base bit); in
/// dwords, the demand queues (hands: the top card's demand − 1 in bits 31–30; the pile: its
/// last in bits 1–0), lengths, twice the penalty counts, the demand of a paying phase, and the
/// packed counts `ctw` (cards in bits 0–16, tricks from bit 17, who `x` is in bit 31); and the
/// games whose next phase alternates (the first of a trick).
#[derive(Clone, Copy)]
struct Group {
    xpl: __m512i,
    xph: __m512i,
    ypl: __m512i,
    yph: __m512i,
    qrl: __m512i,
    qrh: __m512i,
    xn: __m512i,
    yn: __m512i,
    d: __m512i,
    xq: __m512i,
    yq: __m512i,
    qq: __m512i,
    xc: __m512i,
    yc: __m512i,
    ctw: __m512i,
    alt: __mmask16,
}

/// The deck's numbers as vectors: cards, twice the penalty cards, `32 −` that (where the
/// pile's queue goes under a taker's beside the payer's), and the pile's base bit
/// (`64 − cards`, so that a pile goes under the taker shifted by the payer's length); and the
/// cards as a number, of which a refilled lane's second hand holds those the first does not.
#[derive(Clone, Copy)]
struct Shape {
    cards: __m512i,
    pens2: __m512i,
    qshift: __m512i,
    base: __m512i,
    cards_n: i32,
}

/// How the games of a step ended: those that ended, those that ended with a player unable to
/// lay, and those where that player is `y`.
struct Ends {
    over: u16,
    out: u16,
    yout: u16,
}

#[inline]
#[target_feature(enable = "avx512f")]
fn widen_lo(x: __m512i) -> __m512i {
    _mm512_unpacklo_epi32(x, _mm512_setzero_si512())
}

#[inline]
#[target_feature(enable = "avx512f")]
fn widen_hi(x: __m512i) -> __m512i {
    _mm512_unpackhi_epi32(x, _mm512_setzero_si512())
}

/// `vpsllvq` and `vpsllvd` as one instruction each (0 where a count is past the width). The
/// intrinsics are written as a shift and a select of the lanes whose count is under the
/// width, and the compiler kept the select where a count may be 64 or more (the pile's, the
/// queues', an alternating phase's): a compare and a masked or after the shift, on the chain
/// from one step to the next (as in the AVX2 lanes in EVEX, [`super::step::evex`]).
macro_rules! shift {
    ($name:ident, $op:literal) => {
        #[inline]
        #[target_feature(enable = "avx512f")]
        fn $name(a: __m512i, count: __m512i) -> __m512i {
            let r: __m512i;
            // SAFETY: one AVX-512 F shift of registers into a register (this function's
            // features).
            unsafe {
                asm!(
                    concat!($op, " {r:z}, {a:z}, {c:z}"),
                    r = lateout(zmm_reg) r,
                    a = in(zmm_reg) a,
                    c = in(zmm_reg) count,
                    options(pure, nomem, nostack, preserves_flags),
                )
            };
            r
        }
    };
}
shift!(sllv64, "vpsllvq");
shift!(sllv32, "vpsllvd");

/// `m ? a : b` in each qword, `m` all ones or all zeros there.
#[inline]
#[target_feature(enable = "avx512f")]
fn select(m: __m512i, a: __m512i, b: __m512i) -> __m512i {
    _mm512_ternarylogic_epi64::<0xCA>(m, a, b)
}

/// The 16 masks' leading zeros (64 for an empty one) in game order: the counts of `lo` and
/// `hi` fit their qwords' low dwords.
#[inline]
#[target_feature(enable = "avx512f,avx512cd")]
fn leading(lo: __m512i, hi: __m512i) -> __m512i {
    _mm512_castps_si512(_mm512_shuffle_ps::<0x88>(
        _mm512_castsi512_ps(_mm512_lzcnt_epi64(lo)),
        _mm512_castsi512_ps(_mm512_lzcnt_epi64(hi)),
    ))
}

/// One phase in each of the 16 games, as the AVX2 step ([`super::step`]) plays 8: `T1`, one
/// past where the first penalty card falls (alternating: x lays at 0, 2, 4, …, y at 1, 3, …;
/// paying: x alone); `L`, where a player has no card to lay; `E = min(demand, L)` when paying.
/// A penalty card falls iff `T1 <= E`, and `min(T1, E)` cards are laid either way; then x and
/// y swap if x laid the penalty card or y took the pile.
#[inline]
#[target_feature(enable = "avx512f,avx512cd")]
fn step(g: &mut Group, k: &Shape) -> Ends {
    let one = _mm512_set1_epi32(1);
    let two = _mm512_set1_epi32(2);
    let c64 = _mm512_set1_epi32(64);
    let (alt, pay) = (g.alt, !g.alt);
    let (xn, yn, xc, yc, d) = (g.xn, g.yn, g.xc, g.yc, g.d);
    let (qr0l, qr0h, qq0) = (g.qrl, g.qrh, g.qq);
    let lzx = leading(g.xpl, g.xph);
    let lzy = leading(g.ypl, g.yph);
    let tx = _mm512_add_epi32(lzx, one);
    let tx1 = _mm512_mask_add_epi32(tx, alt, tx, lzx);
    let ty1 = _mm512_add_epi32(_mm512_add_epi32(lzy, lzy), two);
    let t1 = _mm512_mask_min_epu32(tx1, alt, tx1, ty1);
    let ylt = _mm512_mask_cmplt_epu32_mask(alt, ty1, tx1);
    let lx = _mm512_mask_add_epi32(xn, alt, xn, xn);
    let ly = _mm512_add_epi32(_mm512_add_epi32(yn, yn), one);
    let l = _mm512_mask_min_epu32(lx, alt, lx, ly);
    let yout = _mm512_mask_cmplt_epu32_mask(alt, ly, lx);
    let e = _mm512_mask_min_epu32(l, pay, l, d);
    let payable = _mm512_mask_cmple_epu32_mask(pay, d, l);
    let pen = _mm512_cmple_epu32_mask(t1, e);
    let n = _mm512_min_epu32(t1, e);
    let paid = payable & !pen;
    let out = !(pen | paid);
    // Cards laid: y lays every second card when alternating, none when paying.
    let cy = _mm512_maskz_srli_epi32::<1>(alt, n);
    let cx = _mm512_sub_epi32(n, cy);
    let xpl = sllv64(g.xpl, widen_lo(cx));
    let xph = sllv64(g.xph, widen_hi(cx));
    let ypl = sllv64(g.ypl, widen_lo(cy));
    let yph = sllv64(g.yph, widen_hi(cy));
    let xn1 = _mm512_sub_epi32(xn, cx);
    let yn1 = _mm512_sub_epi32(yn, cy);
    // sw: x laid the penalty card or y took the pile; the qword masks as vectors.
    let sw = (pen & !ylt) | paid;
    let swv = _mm512_maskz_mov_epi32(sw, _mm512_set1_epi32(-1));
    let (swl, swh) = (
        _mm512_unpacklo_epi32(swv, swv),
        _mm512_unpackhi_epi32(swv, swv),
    );
    let mut nxpl = select(swl, ypl, xpl);
    let nypl = select(swl, xpl, ypl);
    let mut nxph = select(swh, yph, xph);
    let nyph = select(swh, xph, yph);
    let mut nxq = _mm512_mask_blend_epi32(sw, g.xq, g.yq);
    let mut nyq = _mm512_mask_blend_epi32(sw, g.yq, g.xq);
    let mut xn2 = _mm512_mask_blend_epi32(sw, xn1, yn1);
    let yn2 = _mm512_mask_blend_epi32(sw, yn1, xn1);
    let mut xc2 = _mm512_mask_blend_epi32(sw, xc, yc);
    let mut yc2 = _mm512_mask_blend_epi32(sw, yc, xc);
    let mut ctw = _mm512_mask_xor_epi32(g.ctw, sw, g.ctw, _mm512_set1_epi32(WHO as i32));
    // The penalty card (now y's): its demand off y's queue, onto the pile's; the next phase
    // pays it (where no penalty card fell, the next phase alternates or the game is over).
    let dq = _mm512_srli_epi32::<30>(nyq);
    nyq = _mm512_mask_slli_epi32::<2>(nyq, pen, nyq);
    yc2 = _mm512_mask_sub_epi32(yc2, pen, yc2, two);
    g.d = _mm512_add_epi32(dq, one);
    // An alternating phase starts a new pile: the old one shifted out by 64.
    let kr = _mm512_mask_or_epi32(n, alt, n, c64);
    g.qrl = _mm512_or_si512(sllv64(qr0l, widen_lo(kr)), k.base);
    g.qrh = _mm512_or_si512(sllv64(qr0h, widen_hi(kr)), k.base);
    g.qq = _mm512_or_si512(_mm512_maskz_slli_epi32::<2>(pay, qq0), dq);
    ctw = _mm512_add_epi32(ctw, n);
    // A demand paid: the taker (now x) puts the pile, as it stood before this phase's plain
    // cards, under its hand (shifted past the width where nothing was paid: the qword masks
    // would need the swap's conversion) and leads the next, alternating, phase.
    let kp = _mm512_mask_or_epi32(xn, !paid, xn, c64);
    nxpl = _mm512_or_si512(nxpl, sllv64(qr0l, widen_lo(kp)));
    nxph = _mm512_or_si512(nxph, sllv64(qr0h, widen_hi(kp)));
    let kq = _mm512_add_epi32(xc, k.qshift);
    nxq = _mm512_mask_or_epi32(nxq, paid, nxq, sllv32(qq0, kq));
    xn2 = _mm512_mask_sub_epi32(xn2, paid, k.cards, yn2);
    xc2 = _mm512_mask_sub_epi32(xc2, paid, k.pens2, yc2);
    ctw = _mm512_mask_add_epi32(ctw, paid, ctw, _mm512_set1_epi32(TRICK as i32));
    g.alt = paid;
    (g.xpl, g.xph, g.ypl, g.yph) = (nxpl, nxph, nypl, nyph);
    (g.xq, g.yq, g.xn, g.yn, g.xc, g.yc, g.ctw) = (nxq, nyq, xn2, yn2, xc2, yc2, ctw);
    let gone = _mm512_mask_testn_epi32_mask(paid, yn2, yn2);
    Ends {
        over: out | gone,
        out,
        yout,
    }
}

impl Group {
    /// Puts `start` in lane `lane` (a game of `cards` cards): its hands and who leads an
    /// alternating phase (which clears the pile), no card laid.
    #[inline]
    #[target_feature(enable = "avx512f")]
    fn refill(&mut self, lane: usize, start: &Start, cards: i32) {
        let deal = &start.deal;
        let m = 1u16 << lane;
        self.xn = _mm512_mask_set1_epi32(self.xn, m, start.xn as i32);
        self.yn = _mm512_mask_set1_epi32(self.yn, m, cards - start.xn as i32);
        self.xc = _mm512_mask_set1_epi32(self.xc, m, deal.xc as i32);
        self.yc = _mm512_mask_set1_epi32(self.yc, m, deal.yc as i32);
        self.xq = _mm512_mask_set1_epi32(self.xq, m, deal.xq as i32);
        self.yq = _mm512_mask_set1_epi32(self.yq, m, deal.yq as i32);
        self.ctw = _mm512_mask_set1_epi32(self.ctw, m, start.who as i32);
        self.alt |= m;
        let q = 1u8 << ((lane >> 2) * 2 + (lane & 1));
        let (xp, yp) = (deal.xp as i64, deal.yp as i64);
        if lane & 2 == 0 {
            self.xpl = _mm512_mask_set1_epi64(self.xpl, q, xp);
            self.ypl = _mm512_mask_set1_epi64(self.ypl, q, yp);
        } else {
            self.xph = _mm512_mask_set1_epi64(self.xph, q, xp);
            self.yph = _mm512_mask_set1_epi64(self.yph, q, yp);
        }
    }
}

/// Plays every game `games` starts in 16 lanes, reporting each back to it; a game still
/// playing after `trick_cap` tricks is handed back as long.
#[target_feature(enable = "avx512f,avx512cd,avx2,bmi2,popcnt")]
pub(super) fn run<G: Games>(games: &mut G, cards: u32, pens: u32, trick_cap: u32) {
    let cap = _mm512_set1_epi32((trick_cap * TRICK) as i32 - 1);
    let k = Shape {
        cards: _mm512_set1_epi32(cards as i32),
        pens2: _mm512_set1_epi32(2 * pens as i32),
        qshift: _mm512_set1_epi32(32 - 2 * pens as i32),
        base: _mm512_set1_epi64(1 << (64 - cards)),
        cards_n: cards as i32,
    };
    let z = _mm512_setzero_si512();
    let mut g = Group {
        xpl: z,
        xph: z,
        ypl: z,
        yph: z,
        qrl: z,
        qrh: z,
        xn: z,
        yn: z,
        d: z,
        xq: z,
        yq: z,
        qq: z,
        xc: z,
        yc: z,
        ctw: z,
        alt: 0,
    };
    let mut ids = [0u64; 16];
    let mut ended = Pending::default();
    // Lanes to fill before the next step: every lane at first, then those whose game ended.
    // One place fills them, so that the compiler inlines the refill into the loop and keeps
    // the group in registers (a call there stores and reloads its 15 vectors every game).
    let (mut live, mut free) = (0u16, u16::MAX);
    let mut steps = 0u32;
    loop {
        loop {
            live = refill(&mut g, &mut ids, live, free, games, &k);
            free &= !live;
            // A caller may have a next game only once it hears of an end (a climb's
            // walker), so a lane left without one is offered again after a report.
            if (free == 0 || ended.n == 0) && !ended.full() {
                break;
            }
            ended.report(games);
        }
        if live == 0 {
            break;
        }
        // The steps until a game ends, a loop of their own: with the refill's calls in the
        // same loop the compiler kept more of the group in memory.
        let (ends, over, long) = loop {
            let ends = step(&mut g, &k);
            let over = ends.over & live;
            steps = steps.wrapping_add(1);
            let long = if steps.is_multiple_of(CAP_EVERY) {
                let t = _mm512_andnot_si512(_mm512_set1_epi32(WHO as i32), g.ctw);
                live & !over & _mm512_cmpgt_epu32_mask(t, cap)
            } else {
                0
            };
            if over | long != 0 {
                break (ends, over, long);
            }
        };
        let mut ctw = [0u32; 16];
        // SAFETY: `ctw` holds 16 u32s, 64 bytes.
        unsafe { _mm512_storeu_si512(ctw.as_mut_ptr().cast(), g.ctw) };
        let how = |m: u16| u32::from(m);
        ended.note(
            &ids,
            &ctw,
            how(over),
            how(ends.out),
            how(ends.yout),
            how(long),
        );
        free = over | long;
        live &= !free;
    }
    ended.report(games);
}

/// How many ended games wait to be reported at most: the lanes note a game that ends and play
/// on with their group in registers, and report the games noted together, out of line, when
/// this many less 16 (a step's worth) wait, when a lane is left without a game (a caller may
/// have its next game only once it hears of an end: a climb's walker), or when the lanes are
/// done: a report is a call, and every call stores the group's 15 vectors and loads them
/// again. Measured on a Zen 4 (under
/// load, alternating): about a tenth more deals a second than a call a game. The AVX2 lanes in
/// EVEX share it ([`super::step::evex`]); in VEX they keep their call a game
/// ([`super::step::vex`]): with the refill inlined into their loop they measured slower, their
/// 16 registers already short of their group.)
const PENDING: usize = 64;

/// Games that ended (or left the lanes at the trick cap), not yet reported: each one's index,
/// packed counts (`ctw`: cards, tricks, who `x` is) and how it ended.
pub(super) struct Pending {
    n: usize,
    id: [u64; PENDING],
    ctw: [u32; PENDING],
    /// Bit 0: a player could not lay; bit 1: that player is `y`; bit 2: it left at the cap.
    how: [u8; PENDING],
}

impl Default for Pending {
    fn default() -> Pending {
        Pending {
            n: 0,
            id: [0; PENDING],
            ctw: [0; PENDING],
            how: [0; PENDING],
        }
    }
}

impl Pending {
    /// Notes the games of lanes `over` (ended: `out` where a player could not lay, `yout`
    /// where that player is `y`) and `long` (at the cap), from each lane's index `ids` and
    /// counts `ctw`. At most 16 lanes: the caller reports when [`Pending::full`].
    #[inline]
    pub(super) fn note(
        &mut self,
        ids: &[u64],
        ctw: &[u32],
        over: u32,
        out: u32,
        yout: u32,
        long: u32,
    ) {
        for l in set_lanes(over | long) {
            let i = self.n.min(PENDING - 1);
            self.id[i] = ids[l];
            self.ctw[i] = ctw[l];
            let bit = |m: u32, b: u8| if m >> l & 1 == 1 { b } else { 0 };
            self.how[i] = bit(out, 1) | bit(yout, 2) | bit(long, 4);
            self.n += 1;
        }
    }

    /// Whether fewer places are left than a step of 16 lanes may fill.
    pub(super) fn full(&self) -> bool {
        self.n > PENDING - 16
    }

    /// Whether no game waits.
    pub(super) fn is_empty(&self) -> bool {
        self.n == 0
    }

    /// Reports every game noted to `games`, in the order noted, and empties the list.
    #[inline(never)]
    pub(super) fn report<G: Games>(&mut self, games: &mut G) {
        for i in 0..self.n.min(PENDING) {
            let (v, how) = (self.ctw[i], u32::from(self.how[i]));
            if how & 4 != 0 {
                games.report(Report::Long(self.id[i]));
                continue;
            }
            let (out, yout) = (how & 1, how >> 1 & 1);
            games.report(Report::Ended(self.id[i], Ended::of(v, out, yout)));
        }
        self.n = 0;
    }
}

/// Puts the next games of `games` into the lanes `free`; returns the lanes then playing
/// (`live` and those refilled).
#[inline]
#[target_feature(enable = "avx512f,avx2,bmi2,popcnt")]
fn refill<G: Games>(
    g: &mut Group,
    ids: &mut [u64; 16],
    mut live: u16,
    free: u16,
    games: &mut G,
    k: &Shape,
) -> u16 {
    for l in set_lanes(u32::from(free)) {
        if let Some((id, start)) = games.next() {
            ids[l] = id;
            g.refill(l, &start, k.cards_n);
            live |= 1 << l;
        }
    }
    live
}
