//! Survival curves: the share of games still going after t rounds, log scale.

use super::*;
use crate::games::Unit;
use crate::model::report::tail_verdict;
use crate::stats::tail::TailFit;

/// Survival curves under `title` and `subtitle`, their legend below the plot (where it cannot
/// cover a curve's end), the x axis in the game's `unit`; with `fits`, each curve's fitted tail
/// is drawn too.
pub fn survival(
    title: &str,
    subtitle: &str,
    unit: Unit,
    lines: &[Line<'_>],
    fits: bool,
    target: impl Target,
) -> Result<()> {
    target.take(&Survival {
        title,
        subtitle,
        unit,
        lines,
        fits,
    })
}

/// A share on a log axis, as a percentage: 100%, 10%, 1%, 0.1%, …
pub(super) fn percent(v: f64) -> String {
    let p = 100.0 * v;
    let digits = (-p.log10().floor()).max(0.0) as usize;
    format!("{p:.digits$}%")
}

/// The fitted tail of `curve` as points (t, share still going), from its threshold to where it
/// leaves the chart (below `y_min` or beyond `x_end`). The fit is to the games that end, so the
/// share is of those games: P(rounds > t | the game ends) = S(from)·exp(−rate·(t − from)), with
/// S(from) the share of the ending games beyond the threshold. Where every game ends this is
/// the curve's own scale; where some loop or are capped it is the grey conditional curve's.
fn tail_line(curve: &Curve, t: &TailFit, y_min: f64, x_end: f64) -> Vec<(f64, f64)> {
    let ended = curve.games - curve.unended.total();
    let beyond = t.games as f64 / ended.max(1) as f64;
    let from = t.from as f64;
    let end = x_end.min(from + t.e_folding_rounds * (beyond / y_min).ln());
    (0..=100)
        .map(|k| from + (end - from) * f64::from(k) / 100.0)
        .map(|x| (x, beyond * (-t.rate * (x - from)).exp()))
        .collect()
}

/// P(rounds > t | the game ends), as [`Curve::survival`] steps: the survival of the games that
/// end alone, which levels off at zero where the whole curve levels off at the share that
/// never ends.
fn ended_survival(curve: &Curve) -> Vec<(u64, f64)> {
    let ended = curve.games - curve.unended.total();
    let n = ended.max(1) as f64;
    let mut left = ended;
    let mut out = vec![(0, 1.0)];
    for &(t, c) in &curve.ended {
        left -= c;
        out.push((t, left as f64 / n));
    }
    out
}

/// Where `curve` leaves a chart whose y axis ends at `y_min`: the first t its share falls
/// below the axis, or, for a curve that levels off above it (games that never end), the last
/// t it steps down at.
fn shown_until(curve: &Curve, y_min: f64) -> u64 {
    let steps = curve.survival();
    steps
        .iter()
        .find(|s| s.1 < y_min)
        .or(steps.last())
        .map_or(0, |s| s.0)
}

/// The x axis's end for `curves` over a y axis down to `y_min`: where the last of them leaves
/// the chart ([`shown_until`]), so every curve is drawn down to the axis's floor and the axis
/// runs no further than some curve goes.
pub(super) fn x_end<'a>(curves: impl Iterator<Item = &'a Curve>, y_min: f64) -> u64 {
    curves
        .map(|c| shown_until(c, y_min))
        .max()
        .unwrap_or(1)
        .max(1)
}

/// Step points of `steps` ((t, share after t)), cut at the chart's edges.
pub(super) fn step_points(steps: &[(u64, f64)], y_min: f64, x_end: f64) -> Vec<(f64, f64)> {
    let mut points = Vec::new();
    let mut prev = 1.0f64;
    for &(t, s) in steps {
        let t = (t as f64).min(x_end);
        points.push((t, prev.max(y_min)));
        points.push((t, s.max(y_min)));
        prev = s;
        // Below the axis the curve has left the chart: it ends at the axis.
        if s < y_min || t >= x_end {
            return points;
        }
    }
    points.push((x_end, prev));
    points
}

struct Survival<'a> {
    title: &'a str,
    subtitle: &'a str,
    unit: Unit,
    lines: &'a [Line<'a>],
    fits: bool,
}

impl Survival<'_> {
    /// The fitted tails drawn, with the curve each belongs to.
    fn fitted(&self) -> impl Iterator<Item = (&Curve, &TailFit)> {
        self.lines
            .iter()
            .filter(|_| self.fits)
            .filter_map(|l| Some((l.curve, l.curve.tail.as_ref()?)))
    }

    /// The legend's entries: every curve, then every fitted tail (and, for a curve with games
    /// that never end, the survival of its games that end, on which its tail is fitted).
    fn legend(&self) -> Vec<(String, LegendKey)> {
        let mut entries: Vec<(String, LegendKey)> = self
            .lines
            .iter()
            .map(|l| (l.label.clone(), LegendKey::Line(l.style)))
            .collect();
        for (c, t) in self.fitted() {
            let of = if c.unended.total() > 0 {
                entries.push((
                    format!(
                        "the games that end only: share of them still going after t {}",
                        self.unit.many
                    ),
                    LegendKey::Ended,
                ));
                " of the games that end"
            } else {
                ""
            };
            // A run of every deal has no interval, and no chance to test: its fit is shown
            // beside the deals far out alone.
            let exhaustive = c.mean.is_some_and(|(_, ci)| ci.is_none());
            entries.push((
                format!(
                    "fitted tail{of} beyond {}: e-folding {} {} ({}–{})",
                    self.unit.count(t.from),
                    fixed(t.e_folding_rounds, 1),
                    self.unit.many,
                    fixed(t.e_folding_ci95[0], 1),
                    fixed(t.e_folding_ci95[1], 1)
                ),
                LegendKey::Fit,
            ));
            if let Some(verdict) = tail_verdict(t, exhaustive, self.unit) {
                entries.extend(notes(&verdict, SIZE.0));
            }
        }
        entries
    }
}

impl Chart for Survival<'_> {
    /// Taller by the legend below the plot.
    fn size(&self) -> (u32, u32) {
        (SIZE.0, SIZE.1 + legend_height(&self.legend(), SIZE.0))
    }

    fn draw<DB: DrawingBackend>(&self, root: DrawingArea<DB, Shift>) -> Result<()>
    where
        DB::ErrorType: 'static,
    {
        let body = head(&root, self.title, &[self.subtitle])?;
        let entries = self.legend();
        let (width, height) = body.dim_in_pixel();
        let (plot, below) = body.split_vertically(height - legend_height(&entries, width));
        let games = self.lines.iter().map(|l| l.curve.games).max().unwrap_or(1);
        let y_min = (1.0 / games as f64).max(1e-5);
        let x_end = x_end(self.lines.iter().map(|l| l.curve), y_min) as f64;
        let y_desc = format!("share of games longer than t {}", self.unit.many);
        let y_area = y_label_area(
            text_size(&percent(y_min), 15.0).0,
            text_size(&y_desc, 17.0).1,
        );
        let mut chart = ChartBuilder::on(&plot)
            .margin(20)
            .x_label_area_size(50)
            .y_label_area_size(y_area)
            .build_cartesian_2d(0f64..x_end, (y_min..1.0).log_scale())?;
        chart
            .configure_mesh()
            .light_line_style(TRANSPARENT)
            .x_desc(format!("{} t", self.unit.many))
            .y_desc(y_desc)
            .label_style(("sans-serif", 15))
            .axis_desc_style(("sans-serif", 17))
            .x_label_formatter(&|v| grouped(v.round().max(0.0) as u64))
            .y_label_formatter(&|v| percent(*v))
            .draw()?;
        for line in self.lines {
            let points = step_points(&line.curve.survival(), y_min, x_end);
            let stroke = line.style.colour().stroke_width(2);
            match DASHES[line.style.dash % DASHES.len()] {
                (0, _) => chart.draw_series(LineSeries::new(points, stroke))?,
                (dash, gap) => {
                    chart.draw_series(DashedLineSeries::new(points, dash, gap, stroke))?
                }
            };
        }
        for (curve, t) in self.fitted() {
            if curve.unended.total() > 0 {
                let points = step_points(&ended_survival(curve), y_min, x_end);
                chart.draw_series(LineSeries::new(points, BLACK.mix(0.45).stroke_width(1)))?;
            }
            let style = BLACK.mix(0.8).stroke_width(2);
            chart.draw_series(DashedLineSeries::new(
                tail_line(curve, t, y_min, x_end),
                10,
                6,
                style,
            ))?;
        }
        draw_legend(&below, &entries)?;
        root.present()?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::report::Unended;

    #[test]
    fn a_looping_runs_fitted_tail_starts_on_the_curve_of_the_games_that_end() {
        // 1,000 games end, one at each of 1..=1000 rounds; 700 more loop.
        let ended: Vec<(u64, u64)> = (1..=1000).map(|t| (t, 1)).collect();
        let tail = TailFit::from_counts(&ended).unwrap();
        assert_eq!((tail.from, tail.games), (900, 100));
        let unended = Unended {
            looping: 700,
            capped: 0,
        };
        let c = Curve::new(ended, unended, Some(tail.clone()), None);
        // At its threshold the fit stands at the share of the games that end beyond it
        // (100 of 1,000), where their own curve is, not at 100 of all 1,700 games.
        let line = tail_line(&c, &tail, 1e-5, 2000.0);
        assert_eq!(line[0], (900.0, 0.1));
        assert!(ended_survival(&c).contains(&(900, 0.1)));
        assert!(c.survival().contains(&(900, 800.0 / 1700.0)));
        // Every game ends: the two scales are one.
        let all: Vec<(u64, u64)> = (1..=1000).map(|t| (t, 1)).collect();
        let c = Curve::new(all, Unended::default(), Some(tail.clone()), None);
        assert_eq!(tail_line(&c, &tail, 1e-5, 2000.0)[0], (900.0, 0.1));
        assert_eq!(ended_survival(&c), c.survival());
    }

    #[test]
    fn loops_and_capped_games_are_told_apart() {
        let u = Unended {
            looping: 2,
            capped: 3,
        };
        assert_eq!(
            u.describe(1000),
            "2 games loop forever (0.200%), 3 games stopped at the round cap (0.300%)"
        );
        let c = Curve::new(vec![(5, 995)], u, None, None);
        assert_eq!(
            (c.looping().count, c.capped().count, c.unended.total()),
            (2, 3, 5)
        );
        assert_eq!(Unended::default().describe(10), "");
    }

    #[test]
    fn the_x_axis_ends_where_the_last_curve_leaves_the_chart() {
        // 100,000 games: one at each of 1..=100,000 rounds except the last 10, which run to
        // 200,000; y floor 1e-5, one game in 100,000.
        let mut long: Vec<(u64, u64)> = (1..=99_990).map(|t| (t, 1)).collect();
        long.push((200_000, 10));
        let long = Curve::new(long, Unended::default(), None, None);
        // A short curve of 10 games, and one whose 3 games in 4 loop forever after round 50.
        let short = Curve::new(vec![(5, 5), (9, 5)], Unended::default(), None, None);
        let looping = Curve::new(
            vec![(50, 1)],
            Unended {
                looping: 3,
                capped: 0,
            },
            None,
            None,
        );
        let y_min = 1e-5;
        // The long curve drops below the floor only at its last game, 200,000 rounds: the
        // axis runs there, not to a 99.9th percentile where it would be cut at 1e-4.
        assert_eq!(shown_until(&long, y_min), 200_000);
        assert_eq!(shown_until(&short, y_min), 9);
        // A curve that levels off at 75% is shown to its last step.
        assert_eq!(shown_until(&looping, y_min), 50);
        assert_eq!(x_end([&short, &looping].into_iter(), y_min), 50);
        assert_eq!(x_end([&short, &long].into_iter(), y_min), 200_000);
        // A floor of 50%: the long curve leaves the chart where it falls under it (after
        // 50,001 rounds, 49,999 of its 100,000 games still go).
        assert_eq!(shown_until(&long, 0.5), 50_001);
    }

    #[test]
    fn log_axis_labels_are_percentages() {
        let got: Vec<String> = [1.0, 0.1, 0.01, 1e-3, 1e-5].map(percent).to_vec();
        assert_eq!(got, ["100%", "10%", "1%", "0.1%", "0.001%"]);
    }

    #[test]
    fn survival_steps_down_to_the_share_that_never_ends() {
        // 2 games of 3 rounds, 1 of 5, 1 that never ends.
        let c = Curve::new(
            vec![(3, 2), (5, 1)],
            Unended {
                looping: 1,
                capped: 0,
            },
            None,
            None,
        );
        assert_eq!(c.games, 4);
        assert_eq!(c.survival(), [(0, 1.0), (3, 0.5), (5, 0.25)]);
        assert_eq!(c.looping().count, 1);
        let (m, _) = c.mean.unwrap();
        assert!((m - 11.0 / 3.0).abs() < 1e-12);
    }
}
