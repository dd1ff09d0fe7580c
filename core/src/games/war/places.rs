//! Where each player finished, with three players or more (`--players N`): one game's places
//! and their tally over many games. Integers only, so shards merge exactly; a two-player run
//! tallies nothing here and its summary has no `places` key.

use crate::games::ShareChart;
use crate::stats::count::{add_to, Overflow};
use crate::stats::summary::{counted, Named, Share};

use super::rules::MAX_PLAYERS;

/// One won game's finishing places, `0[p]` for player p: 1 for the winner, and for a player
/// who went out, 1 + the number of players who went out later or won (players who went out in
/// the same round share a place). All zero for a game nobody won and for two players, whose
/// places the outcomes already tell.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Places(pub [u8; MAX_PLAYERS as usize]);

impl Places {
    /// The places of a game won by `winner` among `players` players, in which player `p` went
    /// out in round `out[i].1` for each `out[i] = (p, round)` (0-based players).
    pub fn of(players: usize, winner: usize, out: impl Iterator<Item = (u8, u64)> + Clone) -> Self {
        let mut places = Places::default();
        places.0[winner] = 1;
        for (p, round) in out.clone() {
            let later = out.clone().filter(|&(_, r)| r > round).count();
            places.0[usize::from(p)] = (2 + later) as u8;
        }
        debug_assert!(places.0[..players].iter().all(|&k| k >= 1));
        places
    }
}

/// Finishing places over many won games: `counts[p · players + k − 1]` games in which player
/// p + 1 finished in place k.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PlaceTally {
    players: usize,
    counts: Vec<u64>,
}

impl PlaceTally {
    /// Counts one game (nothing for a game with no places).
    #[inline]
    pub fn record(&mut self, g: &Places) {
        let players = g.0.iter().take_while(|&&k| k > 0).count();
        if players == 0 {
            return;
        }
        if self.players != players {
            self.players = players;
            self.counts = vec![0; players * players];
        }
        for (p, &k) in g.0[..players].iter().enumerate() {
            self.counts[p * players + usize::from(k) - 1] += 1;
        }
    }

    /// Adds `other`'s counts.
    pub fn merge(&mut self, other: &Self) -> Result<(), Overflow> {
        if other.players == 0 {
            return Ok(());
        }
        if self.players == 0 {
            *self = other.clone();
            return Ok(());
        }
        for (a, &b) in self.counts.iter_mut().zip(&other.counts) {
            add_to(a, b)?;
        }
        Ok(())
    }

    /// The summary's `places` object: player (`p1`…) → place (`1`…) → games.
    pub fn to_json(&self) -> Option<Named<Named<u64>>> {
        (self.players > 0).then(|| {
            Named(
                (0..self.players)
                    .map(|p| {
                        let row = &self.counts[p * self.players..(p + 1) * self.players];
                        let places = row
                            .iter()
                            .enumerate()
                            .map(|(k, &n)| ((k + 1).to_string(), n));
                        (format!("p{}", p + 1), Named(places.collect()))
                    })
                    .collect(),
            )
        })
    }

    /// Reads back what [`PlaceTally::to_json`] wrote, or says what is wrong.
    pub fn from_json(json: Option<Named<Named<u64>>>) -> Result<Self, String> {
        let Some(Named(rows)) = json else {
            return Ok(PlaceTally::default());
        };
        let players = rows.len();
        if !(3..=MAX_PLAYERS as usize).contains(&players) {
            return Err(format!(
                "places has {players} players, not 3 to {MAX_PLAYERS}"
            ));
        }
        let mut counts = Vec::with_capacity(players * players);
        for (p, (key, Named(row))) in rows.into_iter().enumerate() {
            let keys_ok = key == format!("p{}", p + 1)
                && row.len() == players
                && row
                    .iter()
                    .enumerate()
                    .all(|(k, (name, _))| *name == (k + 1).to_string());
            if !keys_ok {
                return Err(format!(
                    "places.{key} is not player {}'s places 1 to {players}",
                    p + 1
                ));
            }
            counts.extend(row.into_iter().map(|(_, n)| n));
        }
        Ok(PlaceTally { players, counts })
    }

    /// Columns of summary.csv: `place_pP_K` for each player P and place K (none for two
    /// players).
    pub fn csv(&self) -> Vec<(String, String)> {
        let mut cols = Vec::new();
        for p in 0..self.players {
            for k in 0..self.players {
                let n = self.counts[p * self.players + k];
                cols.push((format!("place_p{}_{}", p + 1, k + 1), n.to_string()));
            }
        }
        cols
    }

    /// places.png: each player's share of finishing in each place, over the games someone won
    /// (place 1: the player won), with 95% intervals; none for two players.
    pub fn chart(&self) -> Option<ShareChart> {
        let n = self.players;
        let series: Vec<(String, Vec<(u64, Share)>)> = (0..n)
            .map(|p| {
                let row = &self.counts[p * n..(p + 1) * n];
                let games: u64 = row.iter().sum();
                let points = row.iter().enumerate();
                let points = points.map(|(k, &c)| (k as u64 + 1, Share::new(c, games.max(1))));
                (format!("player {}", p + 1), points.collect())
            })
            .collect();
        let games: u64 = self.counts[..n.min(self.counts.len())].iter().sum();
        (n > 0).then(|| ShareChart {
            stem: "places",
            caption: "Who wins and where each player finishes: each player's share of each \
                      place, with 95% intervals",
            what: format!(
                "each player's finishing places over the {} someone won (place 1: won; 95% \
                 Wilson intervals; dashed: 1 in {n}, where no seat is favoured)",
                counted(games, "game")
            ),
            x_desc: "finishing place (1 = won; players out in the same round share a place)",
            y_desc: "share of the player's games (%)",
            even: 1.0 / n as f64,
            series,
        })
    }

    /// The terminal line: each player's mean finishing place over the won games.
    pub fn text(&self) -> Option<String> {
        (self.players > 0).then(|| {
            let means: Vec<String> = (0..self.players)
                .map(|p| {
                    let row = &self.counts[p * self.players..(p + 1) * self.players];
                    let games: u64 = row.iter().sum();
                    let sum: u64 = row
                        .iter()
                        .enumerate()
                        .map(|(k, &n)| (k as u64 + 1) * n)
                        .sum();
                    format!("p{} {:.3}", p + 1, sum as f64 / games.max(1) as f64)
                })
                .collect();
            format!(
                "places    mean finishing place of games won  {}",
                means.join("  ")
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_places_chart_has_a_series_per_player_and_a_point_per_place() {
        let mut t = PlaceTally::default();
        assert!(
            t.chart().is_none(),
            "two players (nothing tallied): no chart"
        );
        // Three players: player 2 wins twice, player 3 once.
        for (winner, out) in [
            (1, [(0u8, 5u64), (2, 9)]),
            (1, [(0, 9), (2, 5)]),
            (2, [(0, 3), (1, 7)]),
        ] {
            t.record(&Places::of(3, winner, out.into_iter()));
        }
        let c = t.chart().unwrap();
        assert_eq!((c.stem, c.series.len(), c.even), ("places", 3, 1.0 / 3.0));
        let p2: Vec<(u64, u64)> = c.series[1].1.iter().map(|(k, s)| (*k, s.count)).collect();
        // Player 2 went out last in player 3's win: second.
        assert_eq!(p2, [(1, 2), (2, 1), (3, 0)]);
        assert!(c.what.contains("3 games someone won"), "{}", c.what);
    }

    #[test]
    fn places_share_a_round_and_tallies_merge_and_read_back() {
        // Four players: player 2 out in round 5, players 1 and 4 together in round 9; 3 wins.
        let g = Places::of(4, 2, [(1, 5), (0, 9), (3, 9)].into_iter());
        assert_eq!(g.0[..4], [2, 4, 1, 2]);
        let h = Places::of(4, 0, [(1, 1), (2, 2), (3, 3)].into_iter());
        assert_eq!(h.0[..4], [1, 4, 3, 2]);
        let mut whole = PlaceTally::default();
        [g, h, Places::default()]
            .iter()
            .for_each(|x| whole.record(x));
        let (mut a, mut b) = (PlaceTally::default(), PlaceTally::default());
        a.record(&g);
        b.record(&h);
        b.record(&Places::default());
        a.merge(&b).unwrap();
        assert_eq!(a, whole);
        let text = serde_json::to_string(&whole.to_json()).unwrap();
        assert!(
            text.starts_with(r#"{"p1":{"1":1,"2":1,"3":0,"4":0}"#),
            "{text}"
        );
        let back = PlaceTally::from_json(serde_json::from_str(&text).unwrap()).unwrap();
        assert_eq!(back, whole);
        assert_eq!(PlaceTally::from_json(None).unwrap(), PlaceTally::default());
        let bad = text.replace("\"p2\"", "\"p9\"");
        let e = PlaceTally::from_json(serde_json::from_str(&bad).unwrap()).unwrap_err();
        assert!(e.contains("p9"), "{e}");
        assert_eq!(
            whole.text().unwrap(),
            "places    mean finishing place of games won  p1 1.500  p2 4.000  p3 2.000  p4 2.000"
        );
        assert_eq!(whole.csv().len(), 16);
    }
}
