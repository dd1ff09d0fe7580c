//! Where the lanes lose: the rule sets a lane engine played slower than the path beside it on
//! a CPU family, as measured (issue 41). A run that names no path (`WARSIM_PATH` unset) plays
//! those on the path beside the lanes instead; results are the same on every path, only the
//! speed differs. Every other rule set the lanes play stays in the lanes, which measured
//! faster or even on every CPU timed (docs/speed.md, "Which path plays").
//!
//! The lanes' choice by features alone (AVX-512 lanes, else AVX2 lanes) is what was measured
//! fastest for every rule set on the Intel Xeon (Emerald Rapids) the lanes were tuned on
//! (`results/bench-xeon.txt`). On AMD's Zen 4 ([`Family::AmdZen4`]) the AVX2 lanes play every
//! rule set the lanes play faster than the AVX-512 lanes (issue 62: `bryer` 1.67M games/s
//! against 1.42M, classic 0.65M against 0.52M, one thread, quiet, on an EPYC of family 19h
//! model 11h; `results/path-choice-zen4.txt`): Zen 4 runs a 512-bit operation as two 256-bit
//! halves, so the AVX-512 lanes' 32 games a step gain no width over two AVX2 steps of 16 and
//! pay for their extra mask and permute work. There the lanes are the AVX2 lanes
//! ([`lanes_engine`]), with the AVX-512 block path beside them. On AMD's Zen 3 (family 19h, AVX2 and no AVX-512, [`Family::AmdZen3`]) one rule set differs:
//! `p1-first` with loop detection on a deck of 40 cards or more, whose long games (thousands
//! of rounds) the scalar path's branch-free blocks of plain battles play faster than the AVX2
//! lanes, whose every battle costs two scalar loads, two scalar stores and three image
//! compares. On 32 cards the two are even, and on `exact`'s small decks the lanes win. Zen 4's
//! AVX2 lanes lose the same rule set to the block paths beside them
//! (`results/path-choice-zen4.txt`).
//! `scripts/path-choice.sh` times these rule sets on each path this CPU runs
//! (`results/path-choice.txt`, made on a Zen 3 EPYC).

use std::sync::OnceLock;

use super::{order, Engine};
use crate::games::war::rules::WarRules;
use crate::games::war::step::P1_FIRST;

/// The CPU families the measurements name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::games::war) enum Family {
    /// AMD's Zen 3: family 19h, models 00h-0Fh (EPYC Milan, the one measured), 20h-2Fh and
    /// 40h-5Fh. Not Zen 4 (the same family, other models): unmeasured with its AVX-512 hidden,
    /// where it would run the AVX2 lanes, so it keeps the choice by features.
    AmdZen3,
    /// AMD's Zen 4: family 19h, models 10h-1Fh (EPYC Genoa, the one measured, and Bergamo),
    /// 60h-7Fh (Ryzen 7000, 8000) and A0h-AFh (EPYC Siena), with AVX-512 on 256-bit halves.
    AmdZen4,
    /// Any other, including CPUs no measurement names.
    Other,
}

impl Family {
    /// This CPU's family, read once (`cpuid` may trap to the hypervisor in a virtual machine,
    /// and every `War` asks).
    pub(in crate::games::war) fn here() -> Family {
        static HERE: OnceLock<Family> = OnceLock::new();
        *HERE.get_or_init(|| {
            use std::arch::x86_64::__cpuid;
            // SAFETY: `cpuid` exists on every x86-64 CPU, and leaves 0 and 1 on all of them.
            // (`__cpuid` is safe in newer Rust; the block is for the crate's minimum, 1.89.)
            #[allow(unused_unsafe)]
            let (vendor, signature) = unsafe { (__cpuid(0), __cpuid(1)) };
            let mut name = [0u8; 12];
            for (part, reg) in name.chunks_mut(4).zip([vendor.ebx, vendor.edx, vendor.ecx]) {
                part.copy_from_slice(&reg.to_le_bytes());
            }
            Family::of(&name == b"AuthenticAMD", signature.eax)
        })
    }

    /// The family of an AMD CPU (`amd`) or another with signature `eax` (`cpuid` leaf 1): its
    /// family is the base family plus the extended one where the base is Fh, its model then
    /// the extended model above the base model.
    fn of(amd: bool, eax: u32) -> Family {
        let base = (eax >> 8) & 0xf;
        let (family, model) = if base == 0xf {
            (
                base + ((eax >> 20) & 0xff),
                ((eax >> 12) & 0xf0) | ((eax >> 4) & 0xf),
            )
        } else {
            (base, (eax >> 4) & 0xf)
        };
        match (amd, family, model) {
            (true, 0x19, 0x00..=0x0f | 0x20..=0x2f | 0x40..=0x5f) => Family::AmdZen3,
            (true, 0x19, 0x10..=0x1f | 0x60..=0x7f | 0xa0..=0xaf) => Family::AmdZen4,
            _ => Family::Other,
        }
    }
}

/// Whether `engine` measured slower on `family` than the path beside it for these rules (the
/// scalar path beside the AVX2 lanes, the AVX-512 block path beside the AVX-512 lanes).
pub(in crate::games::war) fn lanes_lose(
    family: Family,
    engine: Engine,
    rules: &WarRules,
    cards: usize,
) -> bool {
    let order = order(rules.pickup, rules.war_down, rules.detect_loops);
    match (family, engine) {
        (Family::AmdZen3 | Family::AmdZen4, Engine::Avx2) => order == Some(P1_FIRST) && cards >= 40,
        (Family::AmdZen3 | Family::AmdZen4 | Family::Other, _) => false,
    }
}

/// The lanes a run that names no path plays on `family`, where the CPU runs them (else the
/// path falls back: `Path::or_available`): the AVX2 lanes on Zen 4, measured faster there
/// than the AVX-512 lanes (above), the AVX-512 lanes elsewhere.
pub(in crate::games::war) fn lanes_engine(family: Family) -> Engine {
    match family {
        Family::AmdZen4 => Engine::Avx2,
        Family::AmdZen3 | Family::Other => Engine::Avx512,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::war::rules::{DetectLoops, Pickup};
    use crate::games::war::tests::{bryer, rules_with};
    use crate::games::war::{Path, War};

    #[test]
    fn only_long_p1_first_games_with_loops_leave_the_avx2_lanes_on_zen() {
        let p1_first = rules_with(|o| {
            o.pickup = Some(Pickup::P1First);
            o.detect_loops = Some(DetectLoops::On);
        });
        for zen in [Family::AmdZen3, Family::AmdZen4] {
            assert!(lanes_lose(zen, Engine::Avx2, &p1_first, 52));
            assert!(lanes_lose(zen, Engine::Avx2, &p1_first, 40));
            assert!(!lanes_lose(zen, Engine::Avx2, &p1_first, 32));
            assert!(!lanes_lose(zen, Engine::Avx512, &p1_first, 52));
            assert!(!lanes_lose(zen, Engine::Avx2, &bryer(), 52));
        }
        assert!(!lanes_lose(Family::Other, Engine::Avx2, &p1_first, 52));
        // The run's path follows the table on this CPU.
        let war = War::new(p1_first.clone()).unwrap();
        if let Some(engine) = war.path.lanes() {
            let slower = lanes_lose(Family::here(), engine, &p1_first, 52);
            assert_eq!(war.path() == war.path.blocks(), slower);
        }
    }

    /// A run that names no path plays the lanes measured fastest on its CPU's family: the AVX2
    /// lanes on Zen 4, the AVX-512 lanes elsewhere, where the CPU runs them.
    #[test]
    fn a_run_naming_no_path_plays_the_lanes_measured_fastest_on_its_family() {
        assert_eq!(lanes_engine(Family::AmdZen4), Engine::Avx2);
        assert_eq!(lanes_engine(Family::AmdZen3), Engine::Avx512);
        assert_eq!(lanes_engine(Family::Other), Engine::Avx512);
        let path = match lanes_engine(Family::here()) {
            Engine::Avx2 => Path::LanesAvx2,
            Engine::Avx512 => Path::Lanes,
        };
        let war = War::new(bryer()).unwrap();
        assert_eq!(war.path(), path.or_available());
        // Beside the AVX2 lanes, the rule sets they do not play take the block path the CPU
        // has: on an AVX-512 CPU, the AVX-512 blocks.
        let honor = rules_with(|o| o.honor = Some(1));
        let beside = War::new(honor).unwrap().on_path(Path::LanesAvx2);
        assert_eq!(beside.path(), Path::Avx512.or_available());
    }

    #[test]
    fn zen_3_is_told_from_zen_4_and_from_intel_by_the_cpuid_signature() {
        // Family Fh + extended Ah = 19h; model = extended model (bits 16-19) above base model.
        let amd = |ext_model: u32, model: u32| 0xa << 20 | ext_model << 16 | 0xf << 8 | model << 4;
        assert_eq!(
            Family::of(true, amd(0, 1)),
            Family::AmdZen3,
            "EPYC Milan, measured"
        );
        assert_eq!(
            Family::of(true, amd(2, 1)),
            Family::AmdZen3,
            "Ryzen 5000 (Vermeer)"
        );
        assert_eq!(Family::of(true, amd(5, 0)), Family::AmdZen3, "Cezanne");
        assert_eq!(
            Family::of(true, amd(1, 1)),
            Family::AmdZen4,
            "EPYC Genoa, Zen 4, measured"
        );
        assert_eq!(
            Family::of(true, amd(6, 1)),
            Family::AmdZen4,
            "Raphael, Zen 4"
        );
        assert_eq!(
            Family::of(true, amd(7, 4)),
            Family::AmdZen4,
            "Phoenix, Zen 4"
        );
        assert_eq!(
            Family::of(true, amd(0xa, 0)),
            Family::AmdZen4,
            "Bergamo/Siena"
        );
        assert_eq!(Family::of(false, amd(1, 1)), Family::Other, "not AMD");
        assert_eq!(Family::of(false, amd(0, 1)), Family::Other, "not AMD");
        // Family 17h (Zen 2): base Fh + extended 8h.
        assert_eq!(
            Family::of(true, 0x8 << 20 | 0xf << 8 | 1 << 4),
            Family::Other
        );
        // Intel family 6 (no extended family): model from the base bits alone here.
        assert_eq!(Family::of(false, 0x6 << 8 | 0xf << 4), Family::Other);
    }
}
