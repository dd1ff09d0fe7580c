//! `by.png`: player 1's share of wins and the mean rounds per group of games.

use std::ops::Range;

use super::*;

/// A 95% interval from `lo` to `hi` at `x`: a vertical bar with caps, seen even where it is
/// shorter than the point's marker.
fn whisker(x: f64, lo: f64, hi: f64, colour: RGBColor) -> [PathElement<(f64, f64)>; 3] {
    let cap = 0.12;
    [
        [(x, lo), (x, hi)],
        [(x - cap, lo), (x + cap, lo)],
        [(x - cap, hi), (x + cap, hi)],
    ]
    .map(|p| PathElement::new(p, colour.stroke_width(2)))
}

/// One group of games for `by.png`: its number, player 1's share of wins, and mean rounds.
pub struct GroupPoint {
    /// The group's number.
    pub group: u16,
    /// Player 1's share of the group's games.
    pub p1: Share,
    /// A player's fair share of them: the games someone won, shared evenly.
    pub fair: f64,
    /// Mean rounds and its 95% interval.
    pub mean: Option<(f64, Option<[f64; 2]>)>,
}

/// `by.png`: player 1's win share and the mean rounds per group, against the group's number,
/// under the run's `title` and its `rules` (two runs with other rules must not look alike);
/// `population` names the games whose mean rounds are drawn.
pub fn by_group(
    title: &str,
    rules: &str,
    meaning: &str,
    population: &str,
    groups: &[GroupPoint],
    target: impl Target,
) -> Result<()> {
    target.take(&ByGroup {
        title,
        rules,
        meaning,
        population,
        groups,
    })
}

struct ByGroup<'a> {
    title: &'a str,
    rules: &'a str,
    meaning: &'a str,
    population: &'a str,
    groups: &'a [GroupPoint],
}

impl Chart for ByGroup<'_> {
    fn size(&self) -> (u32, u32) {
        SIZE
    }

    fn draw<DB: DrawingBackend>(&self, root: DrawingArea<DB, Shift>) -> Result<()>
    where
        DB::ErrorType: 'static,
    {
        let left = format!(
            "per number of {}, with 95% intervals; left: player 1's wins as a share of all the \
             group's games,",
            self.meaning
        );
        let right = format!(
            "dashed an even share of the games someone won (fair); right: the {}",
            self.population
        );
        let body = head(&root, self.title, &[self.rules, &left, &right])?;
        let (left, right) = body.split_horizontally(600);
        let last = self.groups.iter().map(|g| g.group).max().unwrap_or(0) as f64;
        let x = -0.5..last + 0.5;
        self.draw_wins(&left, x.clone())?;
        self.draw_means(&right, x)?;
        root.present()?;
        Ok(())
    }
}

impl ByGroup<'_> {
    /// The left panel: player 1's share of wins per group, against an even share.
    fn draw_wins<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
        x: Range<f64>,
    ) -> Result<()>
    where
        DB::ErrorType: 'static,
    {
        let blue = RGBColor(50, 90, 160);
        let mut chart = ChartBuilder::on(area)
            .margin(20)
            .x_label_area_size(50)
            .y_label_area_size(70)
            .build_cartesian_2d(x.clone(), 0f64..100.0)?;
        chart
            .configure_mesh()
            .light_line_style(TRANSPARENT)
            .x_desc(self.meaning)
            .y_desc("player 1 wins (% of all the group's games)")
            .x_label_formatter(&whole)
            .y_label_formatter(&tick)
            .label_style(("sans-serif", 14))
            .axis_desc_style(("sans-serif", 16))
            .draw()?;
        // Fair is an even share of the games someone won: 50% for two players only where every
        // game is won; where games loop (or are drawn) it is lower, group by group.
        for g in self.groups {
            let (gx, fair) = (f64::from(g.group), 100.0 * g.fair);
            chart.draw_series(DashedLineSeries::new(
                [(gx - 0.4, fair), (gx + 0.4, fair)],
                6,
                4,
                BLACK.mix(0.5).stroke_width(2),
            ))?;
        }
        for g in self.groups {
            let gx = f64::from(g.group);
            let [lo, hi] = g.p1.ci95.map(|v| 100.0 * v);
            chart.draw_series(whisker(gx, lo, hi, blue))?;
            chart.draw_series(std::iter::once(Circle::new(
                (gx, 100.0 * g.p1.share),
                4,
                blue.stroke_width(2),
            )))?;
        }
        Ok(())
    }

    /// The right panel: the mean rounds per group.
    fn draw_means<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
        x: Range<f64>,
    ) -> Result<()>
    where
        DB::ErrorType: 'static,
    {
        // The means' axis spans their intervals, with a margin, so an interval a few rounds
        // wide is seen; its ticks give the scale.
        let ends = self
            .groups
            .iter()
            .filter_map(|g| g.mean.map(|(m, ci)| ci.unwrap_or([m, m])));
        let (low, high) = ends.fold((f64::MAX, 0.0f64), |(a, b), [lo, hi]| {
            (a.min(lo), b.max(hi))
        });
        let margin = ((high - low) * 0.15).max(1.0);
        let (bottom, top) = if low <= high {
            ((low - margin).max(0.0), high + margin)
        } else {
            (0.0, 1.0)
        };
        let mut chart = ChartBuilder::on(area)
            .margin(20)
            .x_label_area_size(50)
            .y_label_area_size(70)
            .build_cartesian_2d(x, bottom..top)?;
        chart
            .configure_mesh()
            .light_line_style(TRANSPARENT)
            .x_desc(self.meaning)
            .y_desc(self.population)
            .x_label_formatter(&whole)
            .y_label_formatter(&tick)
            .label_style(("sans-serif", 14))
            .axis_desc_style(("sans-serif", 16))
            .draw()?;
        let red = RGBColor(200, 60, 40);
        for g in self.groups {
            let Some((m, ci)) = g.mean else { continue };
            let gx = f64::from(g.group);
            if let Some([lo, hi]) = ci {
                chart.draw_series(whisker(gx, lo, hi, red))?;
            }
            chart.draw_series(std::iter::once(Circle::new(
                (gx, m),
                4,
                red.stroke_width(2),
            )))?;
        }
        Ok(())
    }
}

/// A group's tick: a whole number, and no label between two groups.
fn whole(v: &f64) -> String {
    if v.fract() == 0.0 {
        format!("{v:.0}")
    } else {
        String::new()
    }
}

/// A value's tick: 100 or 1,250, not 100.0; a fraction keeps one decimal.
fn tick(v: &f64) -> String {
    if (v - v.round()).abs() < 1e-9 {
        fixed(*v, 0)
    } else {
        fixed(*v, 1)
    }
}
