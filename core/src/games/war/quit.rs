//! "When can we quit?" (`--quit-stats`; math.stackexchange q. 1752876): how often player 1 wins
//! given the cards they hold after t rounds, and the most cards the eventual loser ever held.
//!
//! Integer counts only, so shards merge exactly. One game's part is [`QuitGame`], a small record
//! (a round counter, player 1's cards at each of [`CHECKPOINTS`], each player's most cards held
//! and the winner); any engine that plays War can fill it with [`QuitGame::start`] after the
//! deal, [`QuitGame::note`] after every round that leaves the game undecided, and
//! [`QuitGame::won`] at the end. Here that happens in `War::run_dealt` (start),
//! `Position::general_rounds` (note) and `Position::result` (the winner).
//!
//! Counting rules: a game counts at checkpoint t when it is undecided after its first t rounds;
//! a game decided in round t or earlier does not count at t. A capped game counts at every
//! checkpoint up to its cap, a looping game (loop detection) at every checkpoint up to the round
//! its repetition is found (`loop_from + cycle_len`), and neither is a win for player 1; a drawn
//! game counts at the checkpoints it got past and is no win either. The loser's maximum is kept
//! for games with a winner only: it is the most cards they held at the deal or between two
//! rounds (cards on the table during a war are nobody's).

use serde::{Deserialize, Serialize};

use super::rules::MAX_DECK;
use crate::games::{ShareChart, StatsTable};
use crate::stats::count::{add_to, Overflow};
use crate::stats::summary::{Named, Share};

/// The rounds after which player 1's cards are tallied. Classic War's median game lasts about
/// 200 rounds and its quartiles about 115 and 355 (README, "How long does a game of War
/// take?"), so these run from the opening (10, 20) through the quartiles to past the third one
/// (400); later checkpoints would leave too few games per card count for a useful share. All
/// are even: every round moves an odd number of cards (1, or 5 after a war with 3 down) unless
/// a short player lays fewer, so after an even number of rounds player 1 almost always holds
/// an even number of cards, and even checkpoints compare like with like.
pub const CHECKPOINTS: [u32; 6] = [10, 20, 50, 100, 200, 400];

/// [`QuitGame::at`] of a checkpoint the game did not get past undecided.
const NOT_REACHED: u16 = u16::MAX;

/// One game's part of the tally (see the module docs for where it is filled).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QuitGame {
    /// Whether the game is tallied (`--quit-stats`).
    pub on: bool,
    /// Cards in play at the deal.
    pub cards: u16,
    /// Rounds noted (saturating: only the checkpoints need it).
    pub rounds: u32,
    /// Player 1's cards after round `CHECKPOINTS[k]`, or `NOT_REACHED`.
    pub at: [u16; CHECKPOINTS.len()],
    /// The most cards each player held at the deal or after any round.
    pub max_held: [u16; 2],
    /// The winner (0 or 1), if the game was won.
    pub winner: Option<u8>,
}

impl Default for QuitGame {
    fn default() -> Self {
        QuitGame {
            on: false,
            cards: 0,
            rounds: 0,
            at: [NOT_REACHED; CHECKPOINTS.len()],
            max_held: [0; 2],
            winner: None,
        }
    }
}

impl QuitGame {
    /// Starts tallying a game just dealt, the players holding `held` cards.
    pub fn start(&mut self, held: [usize; 2]) {
        *self = QuitGame {
            on: true,
            cards: (held[0] + held[1]) as u16,
            max_held: held.map(|h| h as u16),
            ..QuitGame::default()
        };
    }

    /// Notes the position after a round that left the game undecided, the players holding
    /// `held` cards.
    #[inline]
    pub fn note(&mut self, held: [usize; 2]) {
        self.rounds = self.rounds.saturating_add(1);
        for (m, h) in self.max_held.iter_mut().zip(held) {
            *m = (*m).max(h as u16);
        }
        if let Some(k) = CHECKPOINTS.iter().position(|&t| t == self.rounds) {
            self.at[k] = held[0] as u16;
        }
    }

    /// Records that player `w` (0 or 1) won a tallied game (an untallied game's record stays
    /// the default, so results without `--quit-stats` compare as before).
    pub fn won(&mut self, w: u8) {
        if self.on {
            self.winner = Some(w);
        }
    }
}

/// The tally over many games.
///
/// Invariants: `reached[k][c] >= p1_won[k][c]`; `loser_max` counts each game with a winner once.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct QuitStats {
    /// Games tallied: every game of a `--quit-stats` run, none otherwise.
    pub games: u64,
    /// Cards in play at the deal (the deck; the same in every game of a run).
    pub cards: u16,
    /// `reached[k][c]`: games undecided after `CHECKPOINTS[k]` rounds with player 1 holding
    /// `c` cards.
    pub reached: [Vec<u64>; CHECKPOINTS.len()],
    /// `p1_won[k][c]`: those of them player 1 went on to win.
    pub p1_won: [Vec<u64>; CHECKPOINTS.len()],
    /// `loser_max[m]`: games with a winner whose loser held at most `m` cards, and `m` at some
    /// point.
    pub loser_max: Vec<u64>,
}

/// `v[i]`, growing `v` to hold it.
fn at(v: &mut Vec<u64>, i: usize) -> &mut u64 {
    if i >= v.len() {
        v.resize(i + 1, 0);
    }
    &mut v[i]
}

impl QuitStats {
    /// Counts one game (nothing unless it was tallied).
    #[inline]
    pub fn record(&mut self, g: &QuitGame) {
        if !g.on {
            return;
        }
        self.games += 1;
        self.cards = self.cards.max(g.cards);
        for (k, &c) in g.at.iter().enumerate() {
            if c == NOT_REACHED {
                break;
            }
            *at(&mut self.reached[k], c.into()) += 1;
            *at(&mut self.p1_won[k], c.into()) += u64::from(g.winner == Some(0));
        }
        if let Some(w) = g.winner {
            *at(&mut self.loser_max, g.max_held[1 - usize::from(w)].into()) += 1;
        }
    }

    /// Adds `other`'s counts.
    pub fn merge(&mut self, other: &Self) -> Result<(), Overflow> {
        add_to(&mut self.games, other.games)?;
        self.cards = self.cards.max(other.cards);
        let pairs = self.reached.iter_mut().zip(&other.reached);
        let won = self.p1_won.iter_mut().zip(&other.p1_won);
        for (a, b) in pairs
            .chain(won)
            .chain([(&mut self.loser_max, &other.loser_max)])
        {
            for (i, &n) in b.iter().enumerate() {
                add_to(at(a, i), n)?;
            }
        }
        Ok(())
    }

    /// The summary's `quit` object, or nothing for a run without `--quit-stats`.
    pub fn to_json(&self) -> Option<QuitJson> {
        (self.games > 0).then(|| QuitJson {
            games: self.games,
            cards: self.cards,
            after_rounds: Named(
                CHECKPOINTS
                    .iter()
                    .enumerate()
                    .map(|(k, t)| {
                        let row = |v: &Vec<u64>| {
                            Named(
                                (0..self.reached[k].len())
                                    .filter(|&c| self.reached[k][c] > 0)
                                    .map(|c| (c.to_string(), v.get(c).copied().unwrap_or(0)))
                                    .collect(),
                            )
                        };
                        let at = AfterRounds {
                            games: row(&self.reached[k]),
                            p1_won: row(&self.p1_won[k]),
                        };
                        (t.to_string(), at)
                    })
                    .collect(),
            ),
            loser_max_held: nonzero(&self.loser_max),
        })
    }

    /// Reads back what [`QuitStats::to_json`] wrote for a run of `games` games.
    pub fn from_json(json: Option<QuitJson>, games: u64) -> Result<Self, String> {
        let Some(q) = json else {
            return Ok(QuitStats::default());
        };
        if q.games != games {
            return Err(format!("quit.games is {}, the summary {games}", q.games));
        }
        if usize::from(q.cards) > MAX_DECK {
            return Err(format!("quit.cards is {}, more than a deck holds", q.cards));
        }
        let mut stats = QuitStats {
            games,
            cards: q.cards,
            ..QuitStats::default()
        };
        for (key, at) in q.after_rounds.0 {
            let k = CHECKPOINTS
                .iter()
                .position(|t| t.to_string() == key)
                .ok_or_else(|| format!("quit.after_rounds has an unknown key {key:?}"))?;
            read_counts(&at.games, &mut stats.reached[k], "games")?;
            read_counts(&at.p1_won, &mut stats.p1_won[k], "p1_won")?;
            let over =
                |c: usize| stats.p1_won[k][c] > stats.reached[k].get(c).copied().unwrap_or(0);
            if (0..stats.p1_won[k].len()).any(over) {
                return Err(format!("quit.after_rounds.{key}: p1_won exceeds games"));
            }
            let reached: u64 = stats.reached[k].iter().sum();
            if reached > games {
                return Err(format!(
                    "quit.after_rounds.{key} counts more games than the run"
                ));
            }
        }
        read_counts(&q.loser_max_held, &mut stats.loser_max, "loser_max_held")?;
        let won = stats
            .loser_max
            .iter()
            .try_fold(0u64, |a, &n| a.checked_add(n));
        if won.is_none_or(|n| n > games) {
            return Err("quit.loser_max_held counts more games than the run".into());
        }
        Ok(stats)
    }

    /// Player 1's wins and games at checkpoint `k`, per card count held (0..), for the chart
    /// and the CSV.
    pub fn row(&self, k: usize) -> impl Iterator<Item = (usize, u64, u64)> + '_ {
        self.reached[k]
            .iter()
            .enumerate()
            .filter(|(_, &n)| n > 0)
            .map(move |(c, &n)| (c, self.p1_won[k].get(c).copied().unwrap_or(0), n))
    }

    /// Games with a winner whose loser held more than `k` cards at some point.
    pub fn loser_above(&self, k: usize) -> u64 {
        self.loser_max.iter().skip(k + 1).sum()
    }

    /// Games with a winner.
    pub fn won_games(&self) -> u64 {
        self.loser_max.iter().sum()
    }

    /// Player 1's wins over the games undecided after `CHECKPOINTS[k]` rounds in which player 1
    /// held more than half the cards.
    fn ahead(&self, k: usize) -> Option<Share> {
        let half = usize::from(self.cards) / 2;
        let (won, n) = self
            .row(k)
            .filter(|&(c, _, _)| c > half)
            .fold((0, 0), |(w, n), (_, k, m)| (w + k, n + m));
        (n > 0).then(|| Share::new(won, n))
    }

    /// Columns of summary.csv: per checkpoint, the games still undecided and those player 1
    /// won; fixed names, so the rows of any two runs with the tally stack.
    pub fn csv(&self) -> Vec<(String, String)> {
        if self.games == 0 {
            return Vec::new();
        }
        let mut cols = Vec::new();
        for (k, t) in CHECKPOINTS.iter().enumerate() {
            let (won, n) = self.row(k).fold((0, 0), |(w, n), (_, k, m)| (w + k, n + m));
            cols.push((format!("quit_after_{t}_games"), n.to_string()));
            cols.push((format!("quit_after_{t}_p1_won"), won.to_string()));
        }
        cols.push(("quit_won_games".into(), self.won_games().to_string()));
        cols
    }

    /// The terminal summary's lines: player 1's wins when ahead at each checkpoint, and how
    /// often the loser had been well ahead.
    pub fn text(&self) -> Vec<String> {
        if self.games == 0 {
            return Vec::new();
        }
        let pct = |s: &Share| format!("{:.1}%", 100.0 * s.share);
        let ahead: Vec<String> = (0..CHECKPOINTS.len())
            .filter_map(|k| Some(format!("{}: {}", CHECKPOINTS[k], pct(&self.ahead(k)?))))
            .collect();
        let mut lines = vec![format!(
            "quit      player 1 ahead (more than half the cards) after t rounds wins  {}",
            ahead.join("  ")
        )];
        let won = self.won_games();
        if won > 0 {
            let cards = usize::from(self.cards);
            let above = |k: usize| pct(&Share::new(self.loser_above(k), won));
            lines.push(format!(
                "quit      the loser once held more than {} cards in {} of won games, more than \
                 {} in {}",
                cards / 2,
                above(cards / 2),
                cards * 3 / 4,
                above(cards * 3 / 4)
            ));
        }
        lines
    }

    /// quit.csv: one long table of both tallies with their shares and 95% Wilson intervals.
    /// `p1_wins_after` rows: of the `games` undecided after `rounds` rounds with player 1
    /// holding `cards` cards, `count` player 1 went on to win. `loser_held_more_than` rows: of
    /// the `games` with a winner, `count` whose loser once held more than `cards` cards.
    pub fn table(&self) -> Option<StatsTable> {
        if self.games == 0 {
            return None;
        }
        let mut rows = Vec::new();
        let mut push = |what: &str, rounds: String, cards: usize, count: u64, n: u64| {
            let s = Share::new(count, n);
            rows.push(vec![
                what.to_string(),
                rounds,
                cards.to_string(),
                n.to_string(),
                count.to_string(),
                s.share.to_string(),
                s.ci95[0].to_string(),
                s.ci95[1].to_string(),
            ]);
        };
        for (k, t) in CHECKPOINTS.iter().enumerate() {
            for (c, won, n) in self.row(k) {
                push("p1_wins_after", t.to_string(), c, won, n);
            }
        }
        let won = self.won_games();
        if won > 0 {
            for k in 0..self.loser_max.len() {
                push(
                    "loser_held_more_than",
                    String::new(),
                    k,
                    self.loser_above(k),
                    won,
                );
            }
        }
        Some(StatsTable {
            file: "quit.csv",
            header: vec![
                "statistic",
                "rounds",
                "cards",
                "games",
                "count",
                "share",
                "ci95_lo",
                "ci95_hi",
            ],
            rows,
        })
    }

    /// quit.png: player 1's share of wins against the cards held after t rounds, one line per
    /// checkpoint. Card counts held in fewer than `MIN_CHART_GAMES` games are left out: their
    /// intervals span most of the chart and hide the rest.
    pub fn chart(&self) -> Option<ShareChart> {
        if self.games == 0 {
            return None;
        }
        let series = CHECKPOINTS
            .iter()
            .enumerate()
            .map(|(k, t)| {
                let points: Vec<(u64, Share)> = self
                    .row(k)
                    .filter(|&(_, _, n)| n >= MIN_CHART_GAMES)
                    .map(|(c, won, n)| (c as u64, Share::new(won, n)))
                    .collect();
                let games: u64 = self.row(k).map(|r| r.2).sum();
                (
                    format!(
                        "after {t} rounds ({} games still going)",
                        crate::stats::summary::grouped(games)
                    ),
                    points,
                )
            })
            .filter(|(_, points)| !points.is_empty())
            .collect();
        Some(ShareChart {
            stem: "quit",
            caption: "When can we quit? Player 1's share of wins against the cards held after t \
                      rounds, with 95% intervals",
            what: format!(
                "player 1's share of wins by the cards held after t rounds (95% Wilson \
                 intervals; card counts seen in fewer than {MIN_CHART_GAMES} games left out)"
            ),
            x_desc: "cards player 1 holds after t rounds",
            y_desc: "player 1 wins (%)",
            even: 0.5,
            series,
        })
    }
}

/// The fewest games a card count needs to be drawn in quit.png.
const MIN_CHART_GAMES: u64 = 30;

/// The nonzero entries of `v`, keyed by index.
fn nonzero(v: &[u64]) -> Named<u64> {
    Named(
        v.iter()
            .enumerate()
            .filter(|(_, &n)| n > 0)
            .map(|(i, &n)| (i.to_string(), n))
            .collect(),
    )
}

/// Reads counts keyed by card count into `v`; a key must be a card count the rules allow, so a
/// file cannot make us allocate more than a deck's worth.
fn read_counts(named: &Named<u64>, v: &mut Vec<u64>, what: &str) -> Result<(), String> {
    for (key, n) in &named.0 {
        let c = key
            .parse::<usize>()
            .ok()
            .filter(|&c| c <= MAX_DECK)
            .ok_or_else(|| format!("quit: {what} has a key {key:?} that is not a card count"))?;
        if c >= v.len() {
            v.resize(c + 1, 0);
        }
        v[c] = *n;
    }
    Ok(())
}

/// The summary's `quit` object.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct QuitJson {
    /// Games tallied (all games of the run).
    pub games: u64,
    /// Cards in play at the deal.
    pub cards: u16,
    /// Checkpoint t (rounds) → the games undecided after t rounds, by player 1's cards.
    pub after_rounds: Named<AfterRounds>,
    /// The loser's most cards held → games with a winner (the share of games whose loser ever
    /// held more than k cards is the sum over keys above k, over the sum of all).
    pub loser_max_held: Named<u64>,
}

/// One checkpoint of [`QuitJson::after_rounds`].
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AfterRounds {
    /// Player 1's cards → games undecided after t rounds.
    pub games: Named<u64>,
    /// Player 1's cards → those games player 1 went on to win (same keys).
    pub p1_won: Named<u64>,
}

#[cfg(test)]
mod tests {
    use super::super::position::Position;
    use super::super::tests::{all_rule_sets, rules_with};
    use super::super::{parse_deal, Pickup, War, WarRules, WarSettings};
    use super::*;
    use crate::games::{Game, Outcome};
    use crate::rng::game_rng;

    fn quit(rules: WarRules) -> War {
        War::new(WarRules {
            quit_stats: true,
            ..rules
        })
        .unwrap()
    }

    /// Plays given hands with `--quit-stats` (p1-first pickup, one suit).
    fn hand_made(ranks: u32, deal: &str) -> crate::games::GameResult<super::super::WarGame> {
        let rules = rules_with(|o: &mut WarSettings| {
            o.ranks = Some(ranks);
            o.suits = Some(1);
            o.pickup = Some(Pickup::P1First);
            o.quit_stats = true;
        });
        let hands = parse_deal(deal, &rules).unwrap();
        War::play_deal(
            rules,
            [&hands[0], &hands[1]],
            &mut NoRng,
            (None, false),
            &Default::default(),
        )
        .unwrap()
    }

    use super::super::NoRandomness as NoRng;

    #[test]
    fn a_looping_game_counts_at_the_checkpoints_it_passes_and_has_no_loser() {
        // 1 6 2 / 5 3 4 alternates [2 | 4], [3 | 3] and repeats its deal after round 12
        // (`play war --trace`): after round 10 player 1 holds 3 cards.
        let g = hand_made(6, "1 6 2/5 3 4");
        assert_eq!((g.outcome, g.rounds), (Outcome::Loop, 12));
        let q = g.stats.quit;
        assert_eq!(q.at[0], 3);
        assert!(q.at[1..].iter().all(|&c| c == NOT_REACHED));
        assert_eq!((q.max_held, q.winner), ([3, 4], None));
        let mut t = QuitStats::default();
        t.record(&q);
        assert_eq!(t.games, 1);
        assert_eq!(t.reached[0], vec![0, 0, 0, 1]);
        assert_eq!(t.p1_won[0], vec![0, 0, 0, 0]);
        assert!(t.reached[1].is_empty() && t.loser_max.is_empty());
    }

    #[test]
    fn a_won_game_counts_its_losers_most_cards() {
        // 4 3 / 2 1: player 1 wins both battles; after round 1 the hands are [3 | 1].
        let g = hand_made(4, "4 3/2 1");
        assert_eq!((g.outcome, g.rounds), (Outcome::Player(0), 2));
        let q = g.stats.quit;
        assert_eq!((q.rounds, q.max_held, q.winner), (1, [3, 2], Some(0)));
        // 1 4 / 2 3: the hands go [1 | 3], [2 | 2], [3 | 1] and player 1 wins round 4: the
        // loser, player 2, held 3 cards at most.
        let g = hand_made(4, "1 4/2 3");
        assert_eq!((g.outcome, g.rounds), (Outcome::Player(0), 4));
        assert_eq!(
            (g.stats.quit.max_held, g.stats.quit.winner),
            ([3, 3], Some(0))
        );
        let mut t = QuitStats::default();
        t.record(&q);
        t.record(&g.stats.quit);
        assert_eq!(t.loser_max, vec![0, 0, 1, 1]);
        assert_eq!(
            (t.loser_above(1), t.loser_above(2), t.won_games()),
            (2, 1, 2)
        );
    }

    /// The tally of a game, worked out independently: the game replayed round by round on the
    /// general path, each position looked at.
    fn replayed(war: &War, seed: u64, i: u64, rounds: u64, outcome: Outcome) -> QuitGame {
        let mut rng = game_rng(seed, i);
        let mut p = Position::new(52);
        p.deal(war, &mut rng);
        let mut q = QuitGame {
            on: true,
            cards: 52,
            max_held: [p.holding(0) as u16, p.holding(1) as u16],
            ..QuitGame::default()
        };
        for round in 1..=rounds {
            if p.round(war, &mut rng).is_some() {
                break;
            }
            q.rounds = round as u32;
            q.max_held[0] = q.max_held[0].max(p.holding(0) as u16);
            q.max_held[1] = q.max_held[1].max(p.holding(1) as u16);
            if let Some(k) = CHECKPOINTS.iter().position(|&t| u64::from(t) == round) {
                q.at[k] = p.holding(0) as u16;
            }
        }
        if let Outcome::Player(w) = outcome {
            q.winner = Some(w);
        }
        q
    }

    #[test]
    fn every_rule_set_plays_the_same_games_and_tallies_each_position() {
        for mut rules in all_rule_sets() {
            // Short caps too, so that capped games count at the checkpoints below the cap.
            for cap in [rules.max_rounds, 150] {
                rules.max_rounds = cap;
                let (plain, tallied) = (War::new(rules.clone()).unwrap(), quit(rules.clone()));
                let (mut s, mut t) = (plain.scratch(), tallied.scratch());
                for i in 0..15 {
                    let a = plain.play(&mut game_rng(6, i), &mut s);
                    let b = tallied.play(&mut game_rng(6, i), &mut t);
                    let what = format!("{:?} game {i}", rules);
                    assert_eq!(
                        (a.rounds, a.outcome, a.cycle),
                        (b.rounds, b.outcome, b.cycle)
                    );
                    assert_eq!(a.stats.wars, b.stats.wars, "{what}");
                    assert_eq!(a.stats.by_depth, b.stats.by_depth, "{what}");
                    let want = replayed(&tallied, 6, i, b.rounds, b.outcome);
                    assert_eq!(b.stats.quit, want, "{what}");
                    assert!(!a.stats.quit.on);
                }
            }
        }
    }

    #[test]
    fn shards_merge_into_the_whole_and_read_back_exactly() {
        let war = quit(rules_with(|_| {}));
        let mut s = war.scratch();
        let games: Vec<QuitGame> = (0..400)
            .map(|i| war.play(&mut game_rng(2, i), &mut s).stats.quit)
            .collect();
        let mut whole = QuitStats::default();
        games.iter().for_each(|g| whole.record(g));
        let (mut a, mut b) = (QuitStats::default(), QuitStats::default());
        games[..123].iter().for_each(|g| a.record(g));
        games[123..].iter().for_each(|g| b.record(g));
        a.merge(&b).unwrap();
        assert_eq!(a, whole);
        assert_eq!(whole.games, 400);
        assert_eq!(
            whole.reached[0].iter().sum::<u64>(),
            400,
            "no game ends by round 10"
        );
        assert_eq!(whole.won_games(), 400, "classic games of 400 all end");
        let text = serde_json::to_string(&whole.to_json()).unwrap();
        let back = QuitStats::from_json(serde_json::from_str(&text).unwrap(), 400).unwrap();
        assert_eq!(back, whole);
        let e = QuitStats::from_json(serde_json::from_str(&text).unwrap(), 401).unwrap_err();
        assert!(e.contains("quit.games is 400"), "{e}");
        assert_eq!(QuitStats::default().to_json().map(|_| ()), None);
    }

    #[test]
    fn a_file_claiming_impossible_counts_is_refused() {
        let json = |games: &str, won: &str, loser: &str| -> QuitJson {
            serde_json::from_str(&format!(
                r#"{{"games": 3, "cards": 52, "after_rounds": {{"10": {{"games": {games}, "p1_won": {won}}}}},
                    "loser_max_held": {loser}}}"#
            ))
            .unwrap()
        };
        let read = |j| QuitStats::from_json(Some(j), 3).unwrap_err();
        assert!(read(json(r#"{"26": 1}"#, r#"{"26": 2}"#, "{}")).contains("p1_won exceeds"));
        assert!(read(json(r#"{"26": 4}"#, "{}", "{}")).contains("more games"));
        assert!(read(json("{}", "{}", r#"{"9999999": 1}"#)).contains("not a card count"));
        assert!(read(json("{}", "{}", r#"{"30": 4}"#)).contains("more games"));
    }
}
