//! Shotgun War (docs/rules/shotgun.md): two players reload, guard or fire, every turn at once.
//!
//! A gun holds one shot. Reloading loads it (reloading a loaded gun does nothing). Firing a
//! loaded gun empties it and kills the opponent unless the opponent guards; firing an empty gun
//! does nothing and, like reloading, leaves the shooter unguarded. Both killed in the same turn
//! is a draw. The first death decides; later turns are ignored.

use std::ops::ControlFlow;

use rand::RngCore;
use serde::{Deserialize, Serialize};

use super::{cap_unless_default, check_max_rounds, Game, GameResult, Outcome};
use crate::error::setting;
use crate::error::UsageError;
use crate::usage;
use crate::usage_of;

/// The turn cap when `--max-rounds` is not given; a description names any other cap.
pub const DEFAULT_MAX_ROUNDS: u64 = 1_000_000;

/// One player's move in a turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Move {
    /// Load the gun.
    Reload,
    /// Be safe from a shot.
    Guard,
    /// Shoot, if loaded.
    Fire,
}

/// What happened in one turn to the two players, given whether their guns were loaded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Turn {
    /// Guns loaded after the turn.
    pub ammo: [bool; 2],
    /// Player `i` was shot.
    pub dead: [bool; 2],
}

/// Plays one turn: `moves` by players 1 and 2 with guns `ammo` loaded.
pub fn turn(ammo: [bool; 2], moves: [Move; 2]) -> Turn {
    let shoots = |p: usize| moves[p] == Move::Fire && ammo[p];
    let dead = [
        shoots(1) && moves[0] != Move::Guard,
        shoots(0) && moves[1] != Move::Guard,
    ];
    let after = |p: usize| match moves[p] {
        Move::Reload => true,
        Move::Fire => false,
        Move::Guard => ammo[p],
    };
    Turn {
        ammo: [after(0), after(1)],
        dead,
    }
}

/// The outcome of turns `moves` (player 1's then player 2's move of each turn): the first
/// death and its turn, or `None` if nobody dies.
pub fn adjudicate(moves: &[[Move; 2]]) -> Option<(Outcome, u64)> {
    adjudicate_traced(moves, |_, _, _| ControlFlow::Continue(()))
}

/// [`adjudicate`], calling `seen(turn, moves, after)` after each turn played; a `Break` from
/// it (the trace's reader has gone) stops the game there, undecided.
pub fn adjudicate_traced(
    moves: &[[Move; 2]],
    mut seen: impl FnMut(u64, [Move; 2], Turn) -> ControlFlow<()>,
) -> Option<(Outcome, u64)> {
    let mut ammo = [false; 2];
    for (i, &m) in moves.iter().enumerate() {
        let t = turn(ammo, m);
        if seen(i as u64 + 1, m, t).is_break() {
            return None;
        }
        let outcome = match t.dead {
            [true, true] => Some(Outcome::Draw),
            [false, true] => Some(Outcome::Player(0)),
            [true, false] => Some(Outcome::Player(1)),
            [false, false] => None,
        };
        if let Some(o) = outcome {
            return Some((o, i as u64 + 1));
        }
        ammo = t.ammo;
    }
    None
}

/// One line of `play shotgun --trace`: the turn, both moves, and what they did.
pub fn trace_line(turn: u64, moves: [Move; 2], t: Turn) -> String {
    let name = |m: Move| match m {
        Move::Reload => "reload",
        Move::Guard => "guard",
        Move::Fire => "fire",
    };
    let state = |p: usize| match (t.dead[p], t.ammo[p]) {
        (true, _) => "shot",
        (false, true) => "loaded",
        (false, false) => "empty",
    };
    format!(
        "{turn:>4}  p1 {:<6}  p2 {:<6}  -> p1 {}, p2 {}",
        name(moves[0]),
        name(moves[1]),
        state(0),
        state(1)
    )
}

/// Reads moves from the seed's input forms: the letters r, g, f in order, player 1's then
/// player 2's move of each turn; spaces, commas, `-`, brackets, parentheses and quotes ignored.
/// Errors name the first other character (1-based position in `text`) or an odd count.
pub fn parse_moves(text: &str) -> Result<Vec<[Move; 2]>, UsageError> {
    let mut flat = Vec::new();
    for (i, ch) in text.chars().enumerate() {
        match ch.to_ascii_lowercase() {
            'r' => flat.push(Move::Reload),
            'g' => flat.push(Move::Guard),
            'f' => flat.push(Move::Fire),
            c if c.is_whitespace() || ",-[]()'\"".contains(c) => {}
            _ => {
                return Err(usage!(
                    "moves {text:?}: character {ch:?} at position {} is not r, g or f",
                    i + 1
                ))
            }
        }
    }
    if flat.len() % 2 == 1 {
        return Err(usage!(
            "moves {text:?}: {} moves, an odd number (each turn needs a move of both players)",
            flat.len()
        ));
    }
    Ok(flat.chunks(2).map(|c| [c[0], c[1]]).collect())
}

/// The exact answer for two random players with move probabilities `mix` (reload, guard,
/// fire), from the rules as a Markov chain over the two guns' states: [P(p1 wins), P(p2 wins),
/// P(draw), expected turns]. Absorption probabilities and expected turns solve (I − Q)x = b over
/// the four transient states, by Gaussian elimination with partial pivoting.
pub fn exact(mix: [f64; 3]) -> [f64; 4] {
    let moves = [Move::Reload, Move::Guard, Move::Fire];
    let state = |a: [bool; 2]| usize::from(a[0]) * 2 + usize::from(a[1]);
    // Unknowns x[s] for the 4 transient states; solve (I − Q) x = b for each quantity.
    let mut q = [[0f64; 4]; 4];
    let mut b = [[0f64; 4]; 4]; // b[s] = [p1, p2, draw, 1 (a turn)]
    for s in 0..4 {
        let ammo = [s >= 2, s % 2 == 1];
        b[s][3] = 1.0;
        for (i, &m0) in moves.iter().enumerate() {
            for (j, &m1) in moves.iter().enumerate() {
                let p = mix[i] * mix[j];
                let t = turn(ammo, [m0, m1]);
                match t.dead {
                    [true, true] => b[s][2] += p,
                    [false, true] => b[s][0] += p,
                    [true, false] => b[s][1] += p,
                    [false, false] => q[s][state(t.ammo)] += p,
                }
            }
        }
    }
    let mut out = [0f64; 4];
    for k in 0..4 {
        // Gaussian elimination on the 4×4 system.
        let mut a = [[0f64; 5]; 4];
        for r in 0..4 {
            for c in 0..4 {
                a[r][c] = f64::from(u8::from(r == c)) - q[r][c];
            }
            a[r][4] = b[r][k];
        }
        for col in 0..4 {
            let piv = (col..4)
                .max_by(|&x, &y| a[x][col].abs().total_cmp(&a[y][col].abs()))
                .unwrap_or(col);
            a.swap(col, piv);
            let pivot = a[col];
            for (r, row) in a.iter_mut().enumerate() {
                if r != col {
                    let f = row[col] / pivot[col];
                    row.iter_mut()
                        .zip(&pivot)
                        .skip(col)
                        .for_each(|(x, y)| *x -= f * y);
                }
            }
        }
        out[k] = a[0][4] / a[0][0];
    }
    out
}

/// The rule settings of a Shotgun War run as asked, each declared once: the command line's
/// flags (their help is the doc comments) and Python's keyword arguments
/// ([`ShotgunRules::try_from`] checks them).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
pub struct ShotgunSettings {
    /// Probabilities of reload, guard and fire for both random players (normalised).
    #[cfg_attr(feature = "clap", arg(long, value_name = "R,G,F", default_value_t = ShotgunSettings::default().mix))]
    pub mix: String,
    /// Stop a game after this many turns (outcome `capped`).
    #[cfg_attr(feature = "clap", arg(long, value_name = "M", allow_negative_numbers = true,
        default_value_t = ShotgunSettings::default().max_rounds, value_parser = crate::settings::parse_rounds))]
    pub max_rounds: u64,
}

impl Default for ShotgunSettings {
    /// Each move equally likely.
    fn default() -> Self {
        ShotgunSettings {
            mix: "1,1,1".into(),
            max_rounds: DEFAULT_MAX_ROUNDS,
        }
    }
}

/// The rules of a `simulate shotgun` run (the JSON `rules` object).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ShotgunRules {
    /// Normalised probabilities of reload, guard, fire.
    pub mix: [f64; 3],
    /// Turn cap.
    pub max_rounds: u64,
}

impl TryFrom<&ShotgunSettings> for ShotgunRules {
    type Error = UsageError;

    fn try_from(o: &ShotgunSettings) -> Result<Self, UsageError> {
        let parts: Vec<&str> = o.mix.split(',').collect();
        let bad = || {
            usage_of![
                setting("mix", format!("{:?}", o.mix)),
                ": expected three non-negative numbers R,G,F",
            ]
        };
        if parts.len() != 3 {
            return Err(bad());
        }
        let mut w = [0f64; 3];
        for (x, p) in w.iter_mut().zip(&parts) {
            *x = p.trim().parse().map_err(|_| bad())?;
            if !x.is_finite() || *x < 0.0 {
                return Err(bad());
            }
        }
        if w[0] == 0.0 || w[2] == 0.0 {
            return Err(usage_of![
                setting("mix", format!("{:?}", o.mix)),
                ": with no reloads or no fire nobody can ever die; give R and F above 0",
            ]);
        }
        let total: f64 = w.iter().sum();
        if !total.is_finite() {
            return Err(usage_of![
                setting("mix", format!("{:?}", o.mix)),
                ": the weights add up to more than a number can hold; use smaller ones (only \
                 their ratios matter)",
            ]);
        }
        Ok(ShotgunRules {
            mix: w.map(|x| x / total),
            max_rounds: check_max_rounds(o.max_rounds, "turn")?,
        })
    }
}

/// Two random players: the [`Game`] of `simulate shotgun`.
#[derive(Clone, Debug)]
pub struct Shotgun {
    rules: ShotgunRules,
    /// A move is drawn as a 32-bit number `x`: reload if `x < cut[0]`, guard if `x < cut[1]`,
    /// fire otherwise.
    cut: [u64; 2],
}

impl Shotgun {
    /// The game for `rules`, or an error naming the setting no game can have: the same checks
    /// as the options of the command line ([`checked`](super::checked)).
    pub fn new(rules: ShotgunRules) -> Result<Self, UsageError> {
        super::checked(rules)
    }

    /// The game for rules that passed those checks.
    fn build(rules: ShotgunRules) -> Self {
        let scale = (1u64 << 32) as f64;
        let c0 = (rules.mix[0] * scale).round() as u64;
        let c1 = ((rules.mix[0] + rules.mix[1]) * scale).round() as u64;
        Shotgun {
            rules,
            cut: [c0, c1],
        }
    }

    #[inline]
    fn draw(&self, x: u32) -> Move {
        let x = u64::from(x);
        if x < self.cut[0] {
            Move::Reload
        } else if x < self.cut[1] {
            Move::Guard
        } else {
            Move::Fire
        }
    }
}

impl Game for Shotgun {
    const NAME: &'static str = "shotgun";
    type Settings = ShotgunSettings;
    type Rules = ShotgunRules;
    type Stats = ();
    type Scratch = ();

    fn from_settings(o: &ShotgunSettings) -> Result<Self, UsageError> {
        Ok(Shotgun::build(ShotgunRules::try_from(o)?))
    }

    fn rules(&self) -> &ShotgunRules {
        &self.rules
    }

    fn settings_of(r: &ShotgunRules) -> ShotgunSettings {
        ShotgunSettings {
            mix: r.mix.map(|x| x.to_string()).join(","),
            max_rounds: r.max_rounds,
        }
    }

    fn scratch(&self) {}

    fn play<R: RngCore + ?Sized>(&self, rng: &mut R, _: &mut ()) -> GameResult {
        let mut ammo = [false; 2];
        for t in 1..=self.rules.max_rounds {
            let x = rng.next_u64();
            let moves = [self.draw(x as u32), self.draw((x >> 32) as u32)];
            let r = turn(ammo, moves);
            let outcome = match r.dead {
                [true, true] => Outcome::Draw,
                [false, true] => Outcome::Player(0),
                [true, false] => Outcome::Player(1),
                [false, false] => {
                    ammo = r.ammo;
                    continue;
                }
            };
            return GameResult::plain(t, outcome);
        }
        GameResult::plain(self.rules.max_rounds, Outcome::Capped)
    }

    fn players(&self) -> usize {
        2
    }

    fn describe(&self) -> String {
        let [r, g, f] = self.rules.mix;
        format!(
            "random players, reload {r:.4} guard {g:.4} fire {f:.4}{}",
            cap_unless_default(self.rules.max_rounds, DEFAULT_MAX_ROUNDS)
        )
    }

    fn expected_rounds(&self) -> Option<f64> {
        Some(exact(self.rules.mix)[3])
    }

    fn max_rounds(&self) -> u64 {
        self.rules.max_rounds
    }

    fn exact(&self) -> Option<serde_json::Value> {
        let [p1, p2, draw, mean] = exact(self.rules.mix);
        Some(serde_json::json!({ "p1": p1, "p2": p2, "draw": draw, "mean_rounds": mean }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::engine;

    fn outcome(s: &str) -> Option<Outcome> {
        adjudicate(&parse_moves(s).unwrap()).map(|r| r.0)
    }

    #[test]
    fn seed_case_rg_fr_p1_shoots_a_reloading_p2() {
        assert_eq!(outcome("rg fr"), Some(Outcome::Player(0)));
    }

    #[test]
    fn seed_case_rg_ff_only_p1_had_ammo() {
        assert_eq!(outcome("rg ff"), Some(Outcome::Player(0)));
    }

    #[test]
    fn seed_case_rr_ff_both_shot() {
        assert_eq!(outcome("rr ff"), Some(Outcome::Draw));
    }

    #[test]
    fn seed_case_rr_ff_rr_fg_later_turns_ignored() {
        assert_eq!(outcome("rr ff rr fg"), Some(Outcome::Draw));
    }

    #[test]
    fn seed_case_rr_fg_rf_p2_shoots_a_reloading_p1() {
        assert_eq!(outcome("rr fg rf"), Some(Outcome::Player(1)));
    }

    #[test]
    fn seed_case_rf_gg_rr_fg_rr_fr_ammo_holds_one_shot() {
        assert_eq!(
            adjudicate(&parse_moves("rf gg rr fg rr fr").unwrap()),
            Some((Outcome::Player(0), 6))
        );
    }

    #[test]
    fn seed_case_rr_gf_fr_rf_gg_rg_ff_first_death_decides() {
        assert_eq!(
            adjudicate(&parse_moves("rr gf fr rf gg rg ff").unwrap()),
            Some((Outcome::Player(0), 3))
        );
    }

    #[test]
    fn every_input_form_of_the_seed_is_the_same_game() {
        let want = parse_moves("rg fr").unwrap();
        for form in [
            "r g f r",
            "rgfr",
            "rg-fr",
            r#"[("r","g"),("f","r")]"#,
            "RG,FR",
        ] {
            assert_eq!(parse_moves(form).unwrap(), want, "{form}");
        }
        assert_eq!(outcome("rg gr"), None);
    }

    #[test]
    fn bad_input_names_its_position() {
        let e = parse_moves("rg fx").unwrap_err().to_string();
        assert!(e.contains("position 5"), "{e}");
        assert!(parse_moves("rg f").unwrap_err().to_string().contains("odd"));
    }

    fn check_against_exact(mix: &str, seed: u64) {
        let rules = ShotgunRules::try_from(&ShotgunSettings {
            mix: mix.into(),
            max_rounds: 1_000_000,
        })
        .unwrap();
        let want = exact(rules.mix);
        let game = Shotgun::new(rules).unwrap();
        let n = 1_000_000u64;
        let tally = engine::simulate(&game, seed, 0..n, 2, &|_| {}, &Default::default()).unwrap();
        let totals = tally.rounds.outcome_totals();
        for (k, &slot) in [0usize, 1, 2].iter().enumerate() {
            let p = want[k];
            let got = totals[slot] as f64 / n as f64;
            let se = (p * (1.0 - p) / n as f64).sqrt();
            assert!(
                (got - p).abs() < 4.0 * se,
                "{mix}: outcome {k}: {got} vs exact {p} (se {se})"
            );
        }
        let counts: Vec<(u64, u64)> = tally.rounds.counts_where(|_| true).collect();
        let d = crate::stats::summary::Distribution::from_counts(&counts).unwrap();
        assert!(
            (d.mean - want[3]).abs() < 4.0 * d.sem.unwrap(),
            "{mix}: mean {} vs exact {}",
            d.mean,
            want[3]
        );
    }

    #[test]
    fn simulation_matches_the_markov_chain_uniform() {
        check_against_exact("1,1,1", 1);
    }

    #[test]
    fn simulation_matches_the_markov_chain_half_quarter_quarter() {
        check_against_exact("0.5,0.25,0.25", 2);
    }

    #[test]
    fn mix_without_reload_or_fire_is_refused() {
        for mix in [
            "0,1,1",
            "1,1,0",
            "1,1",
            "a,b,c",
            "-1,1,1",
            "1e308,1e308,1e308",
        ] {
            let o = ShotgunSettings {
                mix: mix.into(),
                max_rounds: 10,
            };
            assert!(ShotgunRules::try_from(&o).is_err(), "{mix}");
        }
    }
}
