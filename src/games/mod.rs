//! The games: each one a file with its rules, its deal, its adjudication and its tests.
//!
//! Every game implements [`Game`]; the engine ([`crate::sim::engine`]) plays any of them in
//! parallel without knowing which it is.

pub mod cards;
pub mod jitsu;
pub mod rps;
pub mod shotgun;
pub mod snap;
pub mod war;

use rand::RngCore;

/// The rules of one game: deal, then play to the end, with no I/O.
pub trait Game: Sync {
    /// Reusable buffers, one per worker, so the hot loop never allocates.
    type Scratch: Send;

    /// Fresh buffers for one worker.
    fn scratch(&self) -> Self::Scratch;

    /// Plays one whole game, drawing all randomness from `rng`.
    fn play<R: RngCore + ?Sized>(&self, rng: &mut R, s: &mut Self::Scratch) -> GameResult;

    /// Number of players, which fixes the outcome names `p1`…`pN`.
    fn players(&self) -> usize;

    /// The game's name on the command line and in the JSON summary.
    fn name(&self) -> &'static str;

    /// A short human description of the rule set, for chart titles and terminal summaries.
    fn describe(&self) -> String;

    /// Every rule setting in use (preset expanded), for the JSON `rules` object.
    fn rules_json(&self) -> serde_json::Value;

    /// Whether the game reports War's per-game war statistics.
    fn counts_wars(&self) -> bool {
        false
    }

    /// Exact values of the statistics the simulation estimates, where the rules allow an exact
    /// computation (reported as JSON key `exact`, beside the estimates).
    fn exact(&self) -> Option<serde_json::Value> {
        None
    }

    /// Whether loop detection is on, so that loop statistics are reported.
    fn detects_loops(&self) -> bool {
        false
    }
}

/// The name a rule setting has in the JSON `rules` object (and on the command line), such as
/// `last-card` for [`war::ShortWar::LastCard`]: its serde name, so the two never disagree.
pub fn setting_name<T: serde::Serialize>(setting: T) -> String {
    serde_json::to_value(setting)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_default()
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// The player with this 0-based index won.
    Player(u8),
    /// Nobody won (e.g. both players ran out in the same war).
    Draw,
    /// No move can change the game any more (Snap).
    Stalemate,
    /// A state repeated, so the game would go on forever.
    Loop,
    /// The game reached its round cap undecided.
    Capped,
}

impl Outcome {
    /// The outcome's name in JSON and CSV: `p1`…`pN`, `draw`, `stalemate`, `loop`, `capped`.
    pub fn name(self) -> String {
        match self {
            Outcome::Player(p) => format!("p{}", u32::from(p) + 1),
            Outcome::Draw => "draw".into(),
            Outcome::Stalemate => "stalemate".into(),
            Outcome::Loop => "loop".into(),
            Outcome::Capped => "capped".into(),
        }
    }

    /// The outcome's index in a table of `players + 4` slots: players first, then draw,
    /// stalemate, loop, capped.
    #[inline]
    pub fn slot(self, players: usize) -> usize {
        match self {
            Outcome::Player(p) => usize::from(p),
            Outcome::Draw => players,
            Outcome::Stalemate => players + 1,
            Outcome::Loop => players + 2,
            Outcome::Capped => players + 3,
        }
    }

    /// The inverse of [`Outcome::slot`].
    pub fn from_slot(slot: usize, players: usize) -> Outcome {
        match slot.checked_sub(players) {
            None => Outcome::Player(slot as u8),
            Some(0) => Outcome::Draw,
            Some(1) => Outcome::Stalemate,
            Some(2) => Outcome::Loop,
            _ => Outcome::Capped,
        }
    }

    /// The inverse of [`Outcome::name`], for a game of `players` players.
    pub fn parse(name: &str, players: usize) -> Option<Outcome> {
        match name {
            "draw" => Some(Outcome::Draw),
            "stalemate" => Some(Outcome::Stalemate),
            "loop" => Some(Outcome::Loop),
            "capped" => Some(Outcome::Capped),
            _ => {
                let k: usize = name.strip_prefix('p')?.parse().ok()?;
                (1..=players)
                    .contains(&k)
                    .then(|| Outcome::Player((k - 1) as u8))
            }
        }
    }
}

/// A repeated state: the state after `loop_from + cycle_len` rounds equals the one after
/// `loop_from` rounds, and no earlier pair of states is equal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cycle {
    /// Rounds played before the state that repeats (0 = the initial state).
    pub loop_from: u64,
    /// Rounds between the two equal states.
    pub cycle_len: u64,
}

/// War depths counted separately in [`GameResult::war_depths`]; deeper wars count in the last.
pub const WAR_DEPTHS: usize = 8;

/// What one game reports to the statistics.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameResult {
    /// Rounds played, the deciding one included; a capped game counts the cap, a loop counts
    /// `loop_from + cycle_len`.
    pub rounds: u64,
    /// How the game ended.
    pub outcome: Outcome,
    /// Wars fought (each level of a nested war counted), for War.
    pub wars: u32,
    /// Depth of the deepest war of the game (0 = none), for War.
    pub deepest_war: u32,
    /// `war_depths[d − 1]`: battles of the game whose war reached depth d exactly (a single
    /// war is depth 1, a double war depth 2; the last entry counts depth ≥ WAR_DEPTHS).
    pub war_depths: [u32; WAR_DEPTHS],
    /// The cycle, for an outcome [`Outcome::Loop`].
    pub cycle: Option<Cycle>,
}

impl GameResult {
    /// A result with no war or cycle details.
    pub fn plain(rounds: u64, outcome: Outcome) -> Self {
        GameResult {
            rounds,
            outcome,
            wars: 0,
            deepest_war: 0,
            war_depths: [0; WAR_DEPTHS],
            cycle: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outcome_names_and_slots_round_trip() {
        let all = [
            Outcome::Player(0),
            Outcome::Player(2),
            Outcome::Draw,
            Outcome::Stalemate,
            Outcome::Loop,
            Outcome::Capped,
        ];
        for o in all {
            assert_eq!(Outcome::parse(&o.name(), 3), Some(o));
            assert_eq!(Outcome::from_slot(o.slot(3), 3), o);
        }
        assert_eq!(Outcome::Player(2).name(), "p3");
        assert_eq!(Outcome::parse("p4", 3), None);
        assert_eq!(Outcome::parse("p0", 3), None);
        assert_eq!(Outcome::parse("winner", 3), None);
    }
}
