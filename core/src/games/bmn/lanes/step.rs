//! The AVX2 step: one phase of 8 games at once, with no branch (see the module above for the
//! design), and the loop that steps a group, reports the games that end and refills their
//! lanes. The step is the C reference's `q_step` (`lanes_avx2.h` of issue 52's reference),
//! written afresh, with the deck's size and penalty count as parameters instead of 52 and 16.
//! It is compiled twice: in AVX2's VEX encoding ([`vex`]), and in EVEX ([`evex`]) where the CPU
//! has AVX-512 VL, whose 32 registers let the loop keep the whole group in them.

use std::arch::x86_64::*;

use super::{set_lanes, Games, Start};

/// The demand of an alternating phase ("no limit"): `BIG ^ d` is at least 64 for a demand
/// of 1 to 4, so shifts by it give 0, and 0 when alternating.
const BIG: i32 = 0x3FFF_FFFF;
/// `ctw`: cards in bits 0–16, tricks from bit 17, who `x` is (1: player 2) in bit 31.
pub(super) const TRICK: u32 = 1 << 17;
pub(super) const WHO: u32 = 1 << 31;
pub(super) const CARDS: u32 = TRICK - 1;
/// The most tricks after which a game leaves the lanes for the phase engine, which plays it
/// again from its deal with Brent's loop detection ([`trick_cap`]): a game this long has 2^17
/// cards of room (2,048 + 64 tricks of at most 52 cards).
const MAX_TRICK_CAP: u32 = 2048;

/// Tricks after which a game of `cards` cards leaves the lanes: 16 a card, at most
/// [`MAX_TRICK_CAP`]. Random 52-card deals end within about 500 tricks (the most of 10M
/// deals is 487), so 832 hands over almost only loops; on small decks, where loops are
/// common (1 deal in 130 of 28 cards with one demanding rank), a loop then costs the lanes
/// 16 tricks a card, not 2,048. Measured on one thread (AMD EPYC, Zen 5, busy), 1M deals of
/// `--ranks 7 --suits 4 --penalties 2,0,0,0`: 0.18 s of CPU with a cap of 2,048, 0.13 s with
/// this one, 0.17 s on the phase engine.
pub(super) fn trick_cap(cards: u32) -> u32 {
    (16 * cards).min(MAX_TRICK_CAP)
}
/// Steps between two checks of the trick cap.
pub(super) const CAP_EVERY: u32 = 64;

/// 8 games: masks of penalty cards read from the top (bit 63 the top card) for `x` (the
/// player to lay), `y` and the pile (`qr`: its last card at the deck's base bit), 4 games a
/// vector (games 0, 1, 4, 5 in `*l`, 2, 3, 6, 7 in `*h`, the order `vshufps` gives when it
/// narrows); in dwords, the demand queues (hands: the top card's in bits 31–30; the pile: its
/// last in bits 1–0), lengths, twice the penalty counts, the demand (`BIG`: alternating) and
/// the packed counts `ctw`.
#[derive(Clone, Copy)]
struct Group {
    h: Hot,
    c: Cold,
}

/// What each step's critical path reads: both hands' masks, both lengths and the demand,
/// kept in registers by the loop.
#[derive(Clone, Copy)]
struct Hot {
    xpl: __m256i,
    xph: __m256i,
    ypl: __m256i,
    yph: __m256i,
    xn: __m256i,
    yn: __m256i,
    d: __m256i,
}

/// The rest of a group, read and written once a step in memory: AVX2's 16 registers do not
/// hold the group's 15 vectors with the step's temporaries and constants, and left to
/// itself the compiler spilled more than this (the C reference's `avx2m` keeps the same
/// split). Measured on one thread (AMD EPYC, Zen 5, busy), 4M deals: 1.03 s of CPU so,
/// 1.11 s with the whole group in memory each step, 1.16 s left to the compiler; returning
/// the ends' three masks packed cost less than storing two of them here (1.04 s against
/// 1.09 s).
#[derive(Clone, Copy)]
struct Cold {
    qrl: __m256i,
    qrh: __m256i,
    xq: __m256i,
    yq: __m256i,
    qq: __m256i,
    xc: __m256i,
    yc: __m256i,
    ctw: __m256i,
}

/// The deck's numbers as vectors: cards, twice the penalty cards, `32 −` that (where the
/// pile's queue goes under a taker's beside the payer's), and the pile's base bit
/// (`64 − cards`, so that a pile goes under the taker shifted by the payer's length); and the
/// cards as a number, of which a refilled lane's second hand holds those the first does not.
#[derive(Clone, Copy)]
struct Shape {
    cards: __m256i,
    pens2: __m256i,
    qshift: __m256i,
    base: __m256i,
    cards_n: i32,
}

#[inline]
#[target_feature(enable = "avx2")]
fn widen_lo(x: __m256i) -> __m256i {
    _mm256_unpacklo_epi32(x, _mm256_setzero_si256())
}

#[inline]
#[target_feature(enable = "avx2")]
fn widen_hi(x: __m256i) -> __m256i {
    _mm256_unpackhi_epi32(x, _mm256_setzero_si256())
}

/// `m ? b : a` by qword masks.
#[inline]
#[target_feature(enable = "avx2")]
fn blendq(a: __m256i, b: __m256i, m: __m256i) -> __m256i {
    _mm256_castpd_si256(_mm256_blendv_pd(
        _mm256_castsi256_pd(a),
        _mm256_castsi256_pd(b),
        _mm256_castsi256_pd(m),
    ))
}

/// `m ? b : a` by dword masks.
#[inline]
#[target_feature(enable = "avx2")]
fn blendd(a: __m256i, b: __m256i, m: __m256i) -> __m256i {
    _mm256_castps_si256(_mm256_blendv_ps(
        _mm256_castsi256_ps(a),
        _mm256_castsi256_ps(b),
        _mm256_castsi256_ps(m),
    ))
}

/// The 8 masks' leading zeros, as `1074 −` the result: a mask holds nothing under bit 12 (a
/// hand has at most 52 cards), so `mask >> 12` is an integer under 2^52, exact as a double,
/// whose exponent is 1023 + its top bit; an empty mask gives 0. AVX2 has no lzcnt of lanes.
#[inline]
#[target_feature(enable = "avx2")]
fn exponents(lo: __m256i, hi: __m256i) -> __m256i {
    let magic = _mm256_set1_epi64x(0x4330_0000_0000_0000);
    let f = |x| {
        _mm256_castpd_ps(_mm256_sub_pd(
            _mm256_castsi256_pd(_mm256_or_si256(_mm256_srli_epi64::<12>(x), magic)),
            _mm256_castsi256_pd(magic),
        ))
    };
    _mm256_srli_epi32::<20>(_mm256_castps_si256(_mm256_shuffle_ps::<0xDD>(f(lo), f(hi))))
}

impl Shape {
    #[target_feature(enable = "avx2")]
    fn of(cards: u32, pens: u32) -> Shape {
        Shape {
            cards: _mm256_set1_epi32(cards as i32),
            pens2: _mm256_set1_epi32(2 * pens as i32),
            qshift: _mm256_set1_epi32(32 - 2 * pens as i32),
            base: _mm256_set1_epi64x(1 << (64 - cards)),
            cards_n: cards as i32,
        }
    }
}

/// The packed counts `ctw` past which a game has `trick_cap` tricks (`who` masked off).
#[target_feature(enable = "avx2")]
fn cap(trick_cap: u32) -> __m256i {
    _mm256_set1_epi32((trick_cap * TRICK) as i32 - 1)
}

impl Group {
    /// No game in any lane, every lane's next phase alternating.
    #[target_feature(enable = "avx2")]
    fn empty() -> Group {
        let z = _mm256_setzero_si256();
        Group {
            h: Hot {
                xpl: z,
                xph: z,
                ypl: z,
                yph: z,
                xn: z,
                yn: z,
                d: _mm256_set1_epi32(BIG),
            },
            c: Cold {
                qrl: z,
                qrh: z,
                xq: z,
                yq: z,
                qq: z,
                xc: z,
                yc: z,
                ctw: z,
            },
        }
    }

    /// Puts `start` in lane `lane` (a game of `cards` cards): its hands and who leads, no pile
    /// (the first phase alternates, which clears it), no card laid.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn refill(&mut self, lane: usize, start: &Start, cards: i32) {
        let deal = &start.deal;
        let dm = _mm256_cmpeq_epi32(
            _mm256_set1_epi32(lane as i32),
            _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7),
        );
        let q = (lane & 1) | (lane >> 2) << 1;
        let qm = _mm256_cmpeq_epi64(_mm256_set1_epi64x(q as i64), _mm256_setr_epi64x(0, 1, 2, 3));
        let set = |v, x: u32| blendd(v, _mm256_set1_epi32(x as i32), dm);
        self.h.xn = set(self.h.xn, start.xn);
        self.h.yn = set(self.h.yn, cards as u32 - start.xn);
        self.c.xc = set(self.c.xc, deal.xc);
        self.c.yc = set(self.c.yc, deal.yc);
        self.c.xq = set(self.c.xq, deal.xq);
        self.c.yq = set(self.c.yq, deal.yq);
        self.h.d = set(self.h.d, BIG as u32);
        self.c.ctw = set(self.c.ctw, start.who);
        let setq = |v, x: u64| blendq(v, _mm256_set1_epi64x(x as i64), qm);
        if lane >> 1 & 1 == 0 {
            self.h.xpl = setq(self.h.xpl, deal.xp);
            self.h.ypl = setq(self.h.ypl, deal.yp);
        } else {
            self.h.xph = setq(self.h.xph, deal.xp);
            self.h.yph = setq(self.h.yph, deal.yp);
        }
    }
}

/// How a game in the lanes ended: cards laid, tricks and the winner (0 for player 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::games::bmn) struct Ended {
    pub cards: u32,
    pub tricks: u32,
    pub winner: u8,
}

impl Ended {
    /// The end of a game from its lane's packed counts `ctw` (cards, tricks, who `x` is), `out`
    /// (1: a player could not lay) and `yout` (1: that player is `y`): a player unable to lay
    /// loses (x, unless y is the one), and the pile taken by the other is the last trick.
    pub(super) fn of(ctw: u32, out: u32, yout: u32) -> Ended {
        Ended {
            cards: ctw & CARDS,
            tricks: (ctw >> 17 & 0x3FFF) + out,
            winner: ((ctw >> 31) ^ (out & !yout & 1)) as u8,
        }
    }
}

/// What the lanes hand back: a game that ended in them, or one that reached the trick cap
/// (its deal is replayed by the phase engine).
pub(in crate::games::bmn) enum Report {
    Ended(u64, Ended),
    Long(u64),
}

/// The step compiled for the target features `$features`: a macro, so that each encoding has
/// its own step with one caller, its loop, into which the compiler inlines it (a step shared by
/// two loops was left a call, as the generic loop's was; see [`vex::run`]). Its variable
/// shifts are the module's `sllv64`, `sllv32` and `srlv32` (AVX2's `vpsllvq`, `vpsllvd` and
/// `vpsrlvd`, which give 0 for a count past the width).
macro_rules! lanes_step {
    ($features:literal) => {
        /// One phase in each of the 8 games: `T1`, one past where the first penalty card falls
        /// (alternating: x lays at 0, 2, 4, …, y at 1, 3, …; paying: x alone); `L`, where a player has
        /// no card to lay; `E = min(demand, L)`. A penalty card falls iff `T1 <= E`, and `min(T1, E)`
        /// cards are laid either way; then x and y swap if x laid the penalty card or y took the pile.
        /// Returns the games that ended (bits 0–7), those that ended with a player unable to lay
        /// (bits 8–15), and those where that player is y (bits 16–23).
        #[inline]
        #[target_feature(enable = $features)]
        fn step(h: &mut Hot, c: &mut Cold, k: &Shape) -> u32 {
            let one = _mm256_set1_epi32(1);
            let two = _mm256_set1_epi32(2);
            let big = _mm256_set1_epi32(BIG);
            let c64 = _mm256_set1_epi32(64);
            let (xn, yn, xc, yc, d) = (h.xn, h.yn, c.xc, c.yc, h.d);
            // Alternating: z = 0, z1 = 1; paying: both at least 64 (a shift by them gives 0).
            let z = _mm256_xor_si256(d, big);
            let z1 = _mm256_or_si256(z, one);
            let lzx = _mm256_sub_epi32(_mm256_set1_epi32(1074), exponents(h.xpl, h.xph));
            let ey = exponents(h.ypl, h.yph);
            let (qr0l, qr0h, qq0) = (c.qrl, c.qrh, c.qq);
            let tx1 = _mm256_add_epi32(_mm256_add_epi32(lzx, srlv32(lzx, z)), one);
            let ty1 = _mm256_or_si256(
                _mm256_sub_epi32(_mm256_set1_epi32(2150), _mm256_add_epi32(ey, ey)),
                z,
            );
            let t1 = _mm256_min_epu32(tx1, ty1);
            let ylt = _mm256_cmpgt_epi32(tx1, ty1);
            let lx = _mm256_add_epi32(xn, srlv32(xn, z));
            let ly = _mm256_or_si256(_mm256_add_epi32(yn, yn), z1);
            let l = _mm256_min_epu32(lx, ly);
            let yout = _mm256_cmpgt_epi32(lx, ly);
            let e = _mm256_min_epu32(l, d);
            let dgtl = _mm256_cmpgt_epi32(d, l);
            let npen = _mm256_cmpgt_epi32(t1, e);
            let n = _mm256_min_epu32(t1, e);
            let paid = _mm256_andnot_si256(dgtl, npen);
            let out = _mm256_and_si256(npen, dgtl);
            // Cards laid: y lays every second card when alternating, none when paying.
            let cy = srlv32(n, z1);
            let cx = _mm256_sub_epi32(n, cy);
            let xpl = sllv64(h.xpl, widen_lo(cx));
            let xph = sllv64(h.xph, widen_hi(cx));
            let ypl = sllv64(h.ypl, widen_lo(cy));
            let yph = sllv64(h.yph, widen_hi(cy));
            let xn1 = _mm256_sub_epi32(xn, cx);
            let yn1 = _mm256_sub_epi32(yn, cy);
            // nsw: no swap (neither x laid the penalty card nor y took the pile).
            let nsw = _mm256_andnot_si256(paid, _mm256_or_si256(npen, ylt));
            let (nswl, nswh) = (
                _mm256_unpacklo_epi32(nsw, nsw),
                _mm256_unpackhi_epi32(nsw, nsw),
            );
            let mut nxpl = blendq(ypl, xpl, nswl);
            let nypl = blendq(xpl, ypl, nswl);
            let mut nxph = blendq(yph, xph, nswh);
            let nyph = blendq(xph, yph, nswh);
            let mut nxq = blendd(c.yq, c.xq, nsw);
            let mut nyq = blendd(c.xq, c.yq, nsw);
            let mut xn2 = blendd(yn1, xn1, nsw);
            let yn2 = blendd(xn1, yn1, nsw);
            let mut xc2 = blendd(yc, xc, nsw);
            let mut yc2 = blendd(xc, yc, nsw);
            let mut ctw = _mm256_xor_si256(
                c.ctw,
                _mm256_andnot_si256(nsw, _mm256_set1_epi32(WHO as i32)),
            );
            // The penalty card (now y's): its demand off y's queue, onto the pile's.
            let dq = _mm256_srli_epi32::<30>(nyq);
            let pen2 = _mm256_andnot_si256(npen, two);
            nyq = sllv32(nyq, pen2);
            yc2 = _mm256_sub_epi32(yc2, pen2);
            // An alternating phase starts a new pile: the old one shifted out by 64.
            let alt64 = _mm256_andnot_si256(z1, c64);
            let kr = _mm256_or_si256(n, alt64);
            c.qrl = _mm256_or_si256(sllv64(qr0l, widen_lo(kr)), k.base);
            c.qrh = _mm256_or_si256(sllv64(qr0h, widen_hi(kr)), k.base);
            c.qq = _mm256_or_si256(sllv32(qq0, _mm256_or_si256(two, alt64)), dq);
            ctw = _mm256_add_epi32(ctw, n);
            h.d = blendd(_mm256_add_epi32(dq, one), big, npen);
            // A demand paid: the taker (now x) puts the pile, as it stood before this phase's plain
            // cards, under its hand (the shifts give 0 where nothing was paid).
            let np64 = _mm256_andnot_si256(paid, c64);
            let kp = _mm256_or_si256(xn, np64);
            let kq = _mm256_or_si256(_mm256_add_epi32(xc, k.qshift), np64);
            nxpl = _mm256_or_si256(nxpl, sllv64(qr0l, widen_lo(kp)));
            nxph = _mm256_or_si256(nxph, sllv64(qr0h, widen_hi(kp)));
            nxq = _mm256_or_si256(nxq, sllv32(qq0, kq));
            xn2 = blendd(xn2, _mm256_sub_epi32(k.cards, yn2), paid);
            xc2 = blendd(xc2, _mm256_sub_epi32(k.pens2, yc2), paid);
            ctw = _mm256_add_epi32(ctw, _mm256_and_si256(paid, _mm256_set1_epi32(TRICK as i32)));
            *h = Hot {
                xpl: nxpl,
                xph: nxph,
                ypl: nypl,
                yph: nyph,
                xn: xn2,
                yn: yn2,
                d: h.d,
            };
            c.xq = nxq;
            c.yq = nyq;
            c.xc = xc2;
            c.yc = yc2;
            c.ctw = ctw;
            let gone = _mm256_and_si256(paid, _mm256_cmpeq_epi32(yn2, _mm256_setzero_si256()));
            let over = _mm256_or_si256(out, gone);
            let bits = |m| _mm256_movemask_ps(_mm256_castsi256_ps(m)) as u32;
            bits(over) | bits(out) << 8 | bits(yout) << 16
        }
    };
}

/// The lanes in AVX2's VEX encoding: 16 vector registers, so the cold part of a group stays in
/// memory ([`Cold`]), and a call a game out of the loop ([`vex::events`]).
pub(super) mod vex {
    use super::*;
    use std::arch::x86_64::{
        _mm256_sllv_epi32 as sllv32, _mm256_sllv_epi64 as sllv64, _mm256_srlv_epi32 as srlv32,
    };
    lanes_step!("avx2,bmi2,popcnt");

    /// Plays every game `games` starts in 8 lanes, reporting each back to it; a game still
    /// playing after `trick_cap` tricks is handed back as long. One function for every kind of
    /// games (`dyn`, not generic), so that the compiler inlines the step into its one loop: made
    /// for three kinds, it left the step a call, and `simulate bmn` on these lanes measured about
    /// a sixth slower. (The AVX-512 lanes are generic instead: their refill is inlined, with the
    /// games' `next`.)
    #[target_feature(enable = "avx2,bmi2,popcnt")]
    pub(in super::super) fn run(games: &mut dyn Games, cards: u32, pens: u32, trick_cap: u32) {
        let (k, cap) = (Shape::of(cards, pens), cap(trick_cap));
        let mut g = Group::empty();
        let mut ids = [0u64; 8];
        let mut live = refill(&mut g, &mut ids, 0, 0xFF, games, &k);
        let Group {
            h: mut hot,
            c: mut cold,
        } = g;
        let mut steps = 0u32;
        while live != 0 {
            // `black_box`: the cold part stays in memory (see `Cold`).
            let r = step(&mut hot, std::hint::black_box(&mut cold), &k);
            let over = r & live;
            steps = steps.wrapping_add(1);
            let long = if steps.is_multiple_of(CAP_EVERY) {
                let t = _mm256_andnot_si256(_mm256_set1_epi32(WHO as i32), cold.ctw);
                let past = _mm256_cmpgt_epi32(t, cap);
                live & !over & _mm256_movemask_ps(_mm256_castsi256_ps(past)) as u32
            } else {
                0
            };
            if over | long != 0 {
                let mut g = Group { h: hot, c: cold };
                live = events(&mut g, &mut ids, live, r, long, games, &k);
                (hot, cold) = (g.h, g.c);
            }
        }
    }

    /// Out of line, about once a game: reports the games of `r` that ended and the `long` ones,
    /// and refills their lanes; returns the lanes still playing.
    #[allow(clippy::too_many_arguments)]
    #[inline(never)]
    #[target_feature(enable = "avx2,bmi2,popcnt")]
    fn events(
        g: &mut Group,
        ids: &mut [u64; 8],
        live: u32,
        r: u32,
        long: u32,
        games: &mut dyn Games,
        k: &Shape,
    ) -> u32 {
        let over = r & live & 0xFF;
        let mut ctw = [0u32; 8];
        // SAFETY: `ctw` holds 8 u32s, 32 bytes.
        unsafe { _mm256_storeu_si256(ctw.as_mut_ptr().cast(), g.c.ctw) };
        for l in set_lanes(over) {
            let (out, yout) = (r >> (8 + l) & 1, r >> (16 + l) & 1);
            games.report(Report::Ended(ids[l], Ended::of(ctw[l], out, yout)));
        }
        for l in set_lanes(long) {
            games.report(Report::Long(ids[l]));
        }
        refill(g, ids, live & !(over | long), over | long, games, k)
    }

    /// Puts the next games of `games` into the lanes `free`; returns the lanes then playing
    /// (`live` and those refilled).
    #[target_feature(enable = "avx2,bmi2,popcnt")]
    fn refill(
        g: &mut Group,
        ids: &mut [u64; 8],
        mut live: u32,
        free: u32,
        games: &mut dyn Games,
        k: &Shape,
    ) -> u32 {
        for l in set_lanes(free) {
            if let Some((id, start)) = games.next() {
                ids[l] = id;
                g.refill(l, &start, k.cards_n);
                live |= 1 << l;
            }
        }
        live
    }
}

/// The same 8 lanes of 256 bits where the CPU has AVX-512 F, VL and BW (Zen 4, Intel since
/// Skylake-SP), as `gcc -march=native` compiles the C reference's AVX2 lanes there: EVEX gives
/// 32 vector registers, which hold the whole group with the step's constants, mask registers
/// for the compares and blends, and three-input logic; the deal is AVX-512's too
/// ([`super::Lanes::dealer`]). With the group in registers the loop is the AVX-512 lanes'
/// ([`super::avx512::run`]): generic, so the games' `next` is inlined into the refill, which is
/// inlined into the loop, and the ends are reported in batches ([`Pending`]), not a call a game.
pub(super) mod evex {
    use super::super::avx512::Pending;
    use super::*;
    use std::arch::asm;

    /// `vpsllvq`, `vpsllvd` and `vpsrlvd` as one instruction each, in any of the 32
    /// registers. The intrinsics are written as a shift and selects of the lanes whose count
    /// is under the width, and given mask registers the compiler kept those: a compare and a
    /// masked operation after the shifts whose count may be 64 or more (the pile's, the
    /// queues', an alternating phase's), on the chain from one step to the next. The C
    /// reference's builtins are the instructions.
    macro_rules! shift {
        ($name:ident, $op:literal) => {
            #[inline]
            #[target_feature(enable = "avx512f,avx512vl")]
            fn $name(a: __m256i, count: __m256i) -> __m256i {
                let r: __m256i;
                // SAFETY: one AVX2 shift of registers into a register; this CPU has AVX-512 VL,
                // which encodes it for the upper 16 (this function's features).
                unsafe {
                    asm!(
                        concat!($op, " {r:y}, {a:y}, {c:y}"),
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
    shift!(srlv32, "vpsrlvd");
    lanes_step!("avx2,avx512f,avx512vl,avx512bw,bmi2,popcnt");

    /// Plays every game `games` starts in 8 lanes, reporting each back to it; a game still
    /// playing after `trick_cap` tricks is handed back as long.
    #[target_feature(enable = "avx2,avx512f,avx512vl,avx512bw,bmi2,popcnt")]
    pub(in super::super) fn run<G: Games>(games: &mut G, cards: u32, pens: u32, trick_cap: u32) {
        let (k, cap) = (Shape::of(cards, pens), cap(trick_cap));
        let mut g = Group::empty();
        let mut ids = [0u64; 8];
        let mut ended = Pending::default();
        // Lanes to fill before the next step: every lane at first, then those whose game
        // ended (one place fills them, as in the AVX-512 lanes).
        let (mut live, mut free) = (0u32, 0xFFu32);
        let mut steps = 0u32;
        loop {
            if free != 0 {
                loop {
                    live = refill(&mut g, &mut ids, live, free, games, &k);
                    free &= !live;
                    // A lane left without a game is offered one again after a report (a
                    // climb's walker has its next game only once it hears of an end).
                    if (free == 0 || ended.is_empty()) && !ended.full() {
                        break;
                    }
                    ended.report(games);
                }
                free = 0;
                if live == 0 {
                    break;
                }
            }
            let r = step(&mut g.h, &mut g.c, &k);
            let over = r & live;
            steps = steps.wrapping_add(1);
            let long = if steps.is_multiple_of(CAP_EVERY) {
                let t = _mm256_andnot_si256(_mm256_set1_epi32(WHO as i32), g.c.ctw);
                let past = _mm256_cmpgt_epi32(t, cap);
                live & !over & _mm256_movemask_ps(_mm256_castsi256_ps(past)) as u32
            } else {
                0
            };
            if over | long != 0 {
                let mut ctw = [0u32; 8];
                // SAFETY: `ctw` holds 8 u32s, 32 bytes.
                unsafe { _mm256_storeu_si256(ctw.as_mut_ptr().cast(), g.c.ctw) };
                ended.note(&ids, &ctw, over, r >> 8, r >> 16, long);
                free = over | long;
                live &= !free;
            }
        }
        ended.report(games);
    }

    /// Puts the next games of `games` into the lanes `free`; returns the lanes then playing
    /// (`live` and those refilled).
    #[inline]
    #[target_feature(enable = "avx2,avx512f,avx512vl,avx512bw,bmi2,popcnt")]
    fn refill<G: Games>(
        g: &mut Group,
        ids: &mut [u64; 8],
        mut live: u32,
        free: u32,
        games: &mut G,
        k: &Shape,
    ) -> u32 {
        for l in set_lanes(free) {
            if let Some((id, start)) = games.next() {
                ids[l] = id;
                g.refill(l, &start, k.cards_n);
                live |= 1 << l;
            }
        }
        live
    }
}
