//! The charts of a run ([`RunChart`]): which a run has, their file names and captions, and
//! drawing each from the run's [`Report`], so the files, report.html and Python list the same.

use anyhow::{Context, Result};

use super::render;
use crate::games::{GameStats, Outcome, Unit};
use crate::model::report::Report;
use crate::stats::summary::{counted, grouped_in};

/// The charts of a run: every run has a histogram and a survival chart, a run with groups a
/// chart of them too.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunChart {
    /// histogram.png: the distribution of rounds with its marks.
    Histogram,
    /// survival.png: the share of games still going after t rounds.
    Survival,
    /// by.png: the groups of a `--by` run.
    By,
    /// A chart of the game's own statistics ([`GameStats::chart`]), named by the game.
    Game {
        /// Its file name without the extension.
        stem: &'static str,
        /// Its caption.
        caption: &'static str,
    },
}

impl RunChart {
    /// The charts of `r`.
    pub fn of<S: GameStats>(r: &Report<S>) -> Vec<RunChart> {
        let mut charts = vec![RunChart::Histogram, RunChart::Survival];
        if !r.groups.is_empty() {
            charts.push(RunChart::By);
        }
        for c in r.tally.stats.charts() {
            charts.push(RunChart::Game {
                stem: c.stem,
                caption: c.caption,
            });
        }
        charts
    }

    /// Its file name without the extension.
    pub fn stem(self) -> &'static str {
        match self {
            RunChart::Histogram => "histogram",
            RunChart::Survival => "survival",
            RunChart::By => "by",
            RunChart::Game { stem, .. } => stem,
        }
    }

    /// What it shows, as report.html captions it, in the game's `unit`.
    pub fn caption(self, unit: Unit) -> String {
        let many = unit.many;
        match self {
            RunChart::Histogram => {
                format!("The distribution of {many}, with min, median, mean and max")
            }
            RunChart::Survival => {
                format!("The share of games still going after t {many} (log scale)")
            }
            RunChart::By => format!("Per group: player 1's share of wins and the mean {many}"),
            RunChart::Game { caption, .. } => caption.to_string(),
        }
    }

    /// Draws the chart of `r` into `sink`.
    pub fn draw<S: GameStats>(self, r: &Report<S>, sink: impl render::Target) -> Result<()> {
        let title = format!("{} — {}", r.info.game, counted(r.games(), "game"));
        match self {
            RunChart::Histogram => super::histogram::histogram(r, sink),
            RunChart::By => {
                let points: Vec<super::GroupPoint> = r
                    .groups
                    .iter()
                    .map(|g| super::GroupPoint {
                        group: g.group,
                        p1: g.share(Outcome::Player(0)),
                        fair: g.fair_share(r.tally.players),
                        mean: g.leading().map(|d| (d.mean, d.ci95)),
                    })
                    .collect();
                let meaning = r.info.grouping.as_deref().unwrap_or("group");
                let population = match r.leading_ended() {
                    Some(_) => format!("mean {} of the games that end", r.info.unit.many),
                    None => format!("mean {}", r.info.unit.many),
                };
                let rules = &grouped_in(&r.info.description);
                super::by_group(&title, rules, meaning, &population, &points, sink)
            }
            RunChart::Game { stem, .. } => {
                let chart = r.tally.stats.charts().into_iter().find(|c| c.stem == stem);
                let chart = chart.context("the game's statistics have no such chart")?;
                super::shares(&title, &grouped_in(&r.info.description), &chart, sink)
            }
            RunChart::Survival => {
                let curve = r.curve();
                let subtitle = format!(
                    "{}: share of games still going after t {}",
                    grouped_in(&r.info.description),
                    r.info.unit.many
                );
                let lines = super::Line::each(&[(counted(r.games(), "game"), &curve)]);
                super::survival(&title, &subtitle, r.info.unit, &lines, true, sink)
            }
        }
    }
}
