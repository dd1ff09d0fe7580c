//! `--shard K/N`: the K-th of N contiguous slices of the game indices `0..games`.

use std::ops::Range;
use std::str::FromStr;

/// One slice of a run, parsed from `K/N` or made by [`Shard::new`], with 0 ≤ K < N: its
/// fields are private, so no slice outside the run (or of zero slices) exists.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// This slice's number, from 0.
    index: u64,
    /// How many slices the run is cut into.
    count: u64,
}

impl Shard {
    /// The whole run as one slice.
    pub const WHOLE: Shard = Shard { index: 0, count: 1 };

    /// Slice `index` of `count`, or why there is no such slice.
    pub fn new(index: u64, count: u64) -> Result<Shard, String> {
        if count == 0 || index >= count {
            return Err(format!("'{index}/{count}' needs 0 ≤ K < N"));
        }
        Ok(Shard { index, count })
    }

    /// This slice's number, from 0.
    pub fn index(self) -> u64 {
        self.index
    }

    /// How many slices the run is cut into.
    pub fn count(self) -> u64 {
        self.count
    }

    /// The game indices of this slice of a run of `games` games. The slices of 0..N tile
    /// `0..games` exactly, in order, with sizes differing by at most one.
    pub fn range(self, games: u64) -> Range<u64> {
        self.range_start(self.index, games)..self.range_start(self.index + 1, games)
    }

    /// The first game of slice `k` of this cut (`k` = `count`: the end of the run).
    pub fn range_start(self, k: u64, games: u64) -> u64 {
        (u128::from(k.min(self.count)) * u128::from(games) / u128::from(self.count)) as u64
    }
}

impl FromStr for Shard {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        let (k, n) = s
            .split_once('/')
            .ok_or_else(|| format!("'{s}' is not of the form K/N (e.g. 0/8)"))?;
        let k: u64 = k
            .trim()
            .parse()
            .map_err(|_| format!("K in '{s}' is not a number"))?;
        let n: u64 = n
            .trim()
            .parse()
            .map_err(|_| format!("N in '{s}' is not a number"))?;
        Shard::new(k, n).map_err(|_| format!("'{s}' needs 0 ≤ K < N"))
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_tile_the_run() {
        for games in [1u64, 2, 7, 1000, 1001] {
            for count in 1..=9u64 {
                let mut next = 0;
                for index in 0..count {
                    let r = Shard { index, count }.range(games);
                    assert_eq!(r.start, next);
                    assert!(r.end - r.start <= games / count + 1);
                    next = r.end;
                }
                assert_eq!(next, games);
            }
        }
    }

    #[test]
    fn parses_and_rejects() {
        assert_eq!("2/3".parse::<Shard>(), Ok(Shard { index: 2, count: 3 }));
        for bad in ["3/3", "0/0", "x/2", "1", "-1/2", "1/2/3"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
    }
}
