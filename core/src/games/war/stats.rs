//! What War counts besides rounds and outcomes: wars per game, the deepest war of each game, and
//! battles by war depth. Integers only, so shards merge exactly.

use serde::{Deserialize, Serialize};

use super::places::{PlaceTally, Places};
use super::quit::{QuitGame, QuitJson, QuitStats};
use super::rules::MAX_DECK;
use crate::games::GameStats;
use crate::stats::count::{add_to, Overflow};
use crate::stats::summary::Named;

/// War depths counted separately in [`WarGame::by_depth`]; deeper wars count in the last.
pub const WAR_DEPTHS: usize = 8;

/// What one game of War counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WarGame {
    /// Wars fought (each level of a nested war counted).
    pub wars: u32,
    /// Depth of the deepest war of the game (0 = none).
    pub deepest: u32,
    /// `by_depth[d − 1]`: battles of the game whose war reached depth d exactly (a single war
    /// is depth 1, a double war depth 2; the last entry counts depth ≥ [`WAR_DEPTHS`]).
    pub by_depth: [u32; WAR_DEPTHS],
    /// The game's group under `--by` (set when it is dealt).
    pub group: Option<u16>,
    /// Where each player finished (three players or more).
    pub places: Places,
    /// What `--quit-stats` tallies ([`super::quit`]).
    pub quit: QuitGame,
}

impl WarGame {
    /// Counts a battle whose war reached `depth` (0 = no war).
    pub fn note_battle(&mut self, depth: u32) {
        if depth > 0 {
            self.deepest = self.deepest.max(depth);
            self.by_depth[(depth as usize).min(WAR_DEPTHS) - 1] += 1;
        }
    }
}

/// War's statistics over many games.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WarStats {
    /// Wars fought over all games.
    pub wars: u64,
    /// `deepest[d]`: games whose deepest war had depth `d`.
    pub deepest: Vec<u64>,
    /// Battles per war depth over all games, as [`WarGame::by_depth`].
    pub by_depth: [u64; WAR_DEPTHS],
    /// Finishing places (three players or more).
    pub places: PlaceTally,
    /// The `--quit-stats` tally (empty without it).
    pub quit: QuitStats,
}

/// War's part of summary.json: the `wars` object.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Serialize, Deserialize)]
pub struct WarsJson {
    /// War statistics.
    pub wars: WarsObject,
    /// Player → finishing place → games won by someone (three players or more only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub places: Option<Named<Named<u64>>>,
    /// With `--quit-stats`: the "when can we quit?" tally.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub quit: Option<QuitJson>,
}

/// The `wars` object of summary.json.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Serialize, Deserialize)]
pub struct WarsObject {
    /// Wars per game.
    pub mean: f64,
    /// Wars over all games.
    pub total: u64,
    /// Depth → games whose deepest war had that depth.
    pub deepest: Named<u64>,
    /// Depth key ([`depth_key`]) → battles whose war reached that depth.
    pub battles_by_depth: Named<u64>,
    /// The same per game.
    pub battles_by_depth_per_game: Named<f64>,
}

/// The key of war depth index `d` (0-based) in `battles_by_depth`: "1", "2", …, and "8+" for
/// the last, which counts every deeper war too.
pub fn depth_key(d: usize) -> String {
    if d + 1 == WAR_DEPTHS {
        format!("{WAR_DEPTHS}+")
    } else {
        (d + 1).to_string()
    }
}

impl WarStats {
    /// Refuses a total of wars that the battles by depth cannot give: a battle whose war
    /// reached depth d fought d wars, so the total is the sum of d times the battles of depth
    /// d, where the last count (depth [`WAR_DEPTHS`] or more) adds at least [`WAR_DEPTHS`]
    /// and at most the deepest war of any game for each of its battles. A summary read back
    /// (a shard `merge` adds up) thus cannot carry an edited total with its mean made to
    /// match.
    fn total_agrees(&self) -> Result<(), String> {
        let last = WAR_DEPTHS - 1;
        let shallow: u128 = (0..last)
            .map(|d| (d as u128 + 1) * u128::from(self.by_depth[d]))
            .sum();
        let deep = u128::from(self.by_depth[last]);
        let deepest = self.deepest.iter().rposition(|&n| n > 0).unwrap_or(0);
        let least = shallow + WAR_DEPTHS as u128 * deep;
        let most = shallow + deepest.max(WAR_DEPTHS) as u128 * deep;
        let total = u128::from(self.wars);
        if (least..=most).contains(&total) {
            return Ok(());
        }
        let gives = match least == most {
            true => least.to_string(),
            false => format!("from {least} to {most}"),
        };
        Err(format!(
            "wars.total is {total}, but wars.battles_by_depth gives {gives} (a battle whose \
             war reached depth d fought d wars)"
        ))
    }
}

impl GameStats for WarStats {
    type PerGame = WarGame;
    type Json = WarsJson;

    #[inline]
    fn record(&mut self, g: &WarGame) {
        self.wars += u64::from(g.wars);
        let d = g.deepest as usize;
        if d >= self.deepest.len() {
            self.deepest.resize(d + 1, 0);
        }
        self.deepest[d] += 1;
        for (t, &n) in self.by_depth.iter_mut().zip(&g.by_depth) {
            *t += u64::from(n);
        }
        self.places.record(&g.places);
        self.quit.record(&g.quit);
    }

    fn merge(&mut self, other: &Self) -> Result<(), Overflow> {
        add_to(&mut self.wars, other.wars)?;
        if other.deepest.len() > self.deepest.len() {
            self.deepest.resize(other.deepest.len(), 0);
        }
        for (a, &b) in self.deepest.iter_mut().zip(&other.deepest) {
            add_to(a, b)?;
        }
        for (a, &b) in self.by_depth.iter_mut().zip(&other.by_depth) {
            add_to(a, b)?;
        }
        self.places.merge(&other.places)?;
        self.quit.merge(&other.quit)
    }

    fn to_json(&self, games: u64) -> WarsJson {
        let per = |n: u64| n as f64 / games.max(1) as f64;
        let by_depth: Vec<(String, u64)> = (0..WAR_DEPTHS)
            .filter(|&d| self.by_depth[d] > 0)
            .map(|d| (depth_key(d), self.by_depth[d]))
            .collect();
        WarsJson {
            wars: WarsObject {
                mean: per(self.wars),
                total: self.wars,
                deepest: Named(
                    self.deepest
                        .iter()
                        .enumerate()
                        .filter(|(_, &n)| n > 0)
                        .map(|(d, &n)| (d.to_string(), n))
                        .collect(),
                ),
                battles_by_depth_per_game: Named(
                    by_depth.iter().map(|(k, n)| (k.clone(), per(*n))).collect(),
                ),
                battles_by_depth: Named(by_depth),
            },
            places: self.places.to_json(),
            quit: self.quit.to_json(),
        }
    }

    fn from_json(json: WarsJson, games: u64) -> Result<Self, String> {
        let w = json.wars;
        let mut stats = WarStats {
            wars: w.total,
            places: PlaceTally::from_json(json.places)?,
            quit: QuitStats::from_json(json.quit, games)?,
            ..WarStats::default()
        };
        let mut counted = 0u64;
        for (key, n) in w.deepest.0 {
            // A war is at most as deep as the cards allow: bound the table by the rules, not
            // by what the file claims.
            let depth = key
                .parse::<usize>()
                .ok()
                .filter(|&d| d <= MAX_DECK / 2)
                .ok_or_else(|| format!("wars.deepest has a key {key:?} that is not a depth"))?;
            if depth >= stats.deepest.len() {
                stats.deepest.resize(depth + 1, 0);
            }
            stats.deepest[depth] = n;
            counted = counted
                .checked_add(n)
                .ok_or("wars.deepest counts overflow")?;
        }
        if counted != games {
            return Err(format!(
                "wars.deepest counts {counted} games, the summary {games}"
            ));
        }
        for (key, n) in w.battles_by_depth.0 {
            let d = (0..WAR_DEPTHS)
                .find(|&d| depth_key(d) == key)
                .ok_or_else(|| format!("wars.battles_by_depth has an unknown key {key:?}"))?;
            stats.by_depth[d] = n;
        }
        stats.total_agrees()?;
        Ok(stats)
    }

    fn csv(&self, games: u64) -> Vec<(String, String)> {
        let mut cols = vec![(
            "wars_mean".to_string(),
            (self.wars as f64 / games.max(1) as f64).to_string(),
        )];
        // Fixed columns, so rows of any two runs stack: depths 0 to WAR_DEPTHS − 1, then the
        // games whose deepest war went deeper (the JSON has every depth).
        for d in 0..=WAR_DEPTHS {
            let (key, n): (String, u64) = if d < WAR_DEPTHS {
                (d.to_string(), self.deepest.get(d).copied().unwrap_or(0))
            } else {
                (
                    format!("{WAR_DEPTHS}+"),
                    self.deepest.iter().skip(WAR_DEPTHS).sum(),
                )
            };
            cols.push((format!("deepest_war_{key}"), n.to_string()));
        }
        for (d, n) in self.by_depth.iter().enumerate() {
            cols.push((format!("battles_war_depth_{}", depth_key(d)), n.to_string()));
        }
        cols.extend(self.places.csv());
        cols.extend(self.quit.csv());
        cols
    }

    #[inline(always)]
    fn group(game: &WarGame) -> Option<u16> {
        game.group
    }

    fn text(&self, games: u64) -> Vec<String> {
        let deep: Vec<String> = self
            .deepest
            .iter()
            .enumerate()
            .filter(|(_, &n)| n > 0)
            .map(|(d, &n)| format!("{d}: {}", crate::stats::summary::grouped(n)))
            .collect();
        let mut lines = vec![format!(
            "wars      {:.4} per game; deepest war per game  {}",
            self.wars as f64 / games.max(1) as f64,
            deep.join("  ")
        )];
        lines.extend(self.places.text());
        lines.extend(self.quit.text());
        lines
    }

    fn table(&self) -> Option<crate::games::StatsTable> {
        self.quit.table()
    }

    fn charts(&self) -> Vec<crate::games::ShareChart> {
        self.places
            .chart()
            .into_iter()
            .chain(self.quit.chart())
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(wars: u32, depths: &[u32]) -> WarGame {
        let mut g = WarGame {
            wars,
            ..WarGame::default()
        };
        depths.iter().for_each(|&d| g.note_battle(d));
        g
    }

    #[test]
    fn records_merge_and_read_back_exactly() {
        let games = [
            game(0, &[]),
            game(3, &[1, 2]),
            game(10, &[10]),
            game(1, &[1]),
        ];
        let mut whole = WarStats::default();
        games.iter().for_each(|g| whole.record(g));
        let (mut a, mut b) = (WarStats::default(), WarStats::default());
        games[..1].iter().for_each(|g| a.record(g));
        games[1..].iter().for_each(|g| b.record(g));
        a.merge(&b).unwrap();
        assert_eq!(a, whole);
        assert_eq!(whole.deepest, vec![1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 1]);
        assert_eq!(whole.by_depth, [2, 1, 0, 0, 0, 0, 0, 1]);
        let text = serde_json::to_string(&whole.to_json(4)).unwrap();
        let back = WarStats::from_json(serde_json::from_str(&text).unwrap(), 4).unwrap();
        assert_eq!(back, whole);
        let e = WarStats::from_json(serde_json::from_str(&text).unwrap(), 5).unwrap_err();
        assert!(e.contains("counts 4 games"), "{e}");
    }

    #[test]
    fn an_absurd_depth_is_refused_not_allocated() {
        let json = r#"{"wars": {"mean": 0, "total": 0, "deepest": {"100000000000": 1},
            "battles_by_depth": {}, "battles_by_depth_per_game": {}}}"#;
        let e = WarStats::from_json(serde_json::from_str(json).unwrap(), 1).unwrap_err();
        assert!(e.contains("not a depth"), "{e}");
    }
}
