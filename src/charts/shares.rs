//! A game's own share chart ([`ShareChart`], e.g. War's quit.png).

use super::*;
use crate::games::ShareChart;

/// A chart of a game's own shares ([`ShareChart`], e.g. War's quit.png) under the run's `title`
/// and its `rules`: each series a line through its points with each point's 95% interval as a
/// bar, the legend below the plot.
pub fn shares(title: &str, rules: &str, chart: &ShareChart, target: impl Target) -> Result<()> {
    target.take(&Shares {
        title,
        rules,
        chart,
    })
}

/// The top of the y axis in percent: the highest interval (or the even share) with room
/// above, in steps of 10, up to 100; so four players' places near 25% are not squeezed into a
/// quarter of the chart.
fn y_top(c: &ShareChart) -> f64 {
    let highest = c
        .series
        .iter()
        .flat_map(|(_, p)| p.iter().map(|q| q.1.ci95[1]))
        .fold(c.even, f64::max);
    ((100.0 * highest * 1.25 / 10.0).ceil() * 10.0).clamp(10.0, 100.0)
}

struct Shares<'a> {
    title: &'a str,
    rules: &'a str,
    chart: &'a ShareChart,
}

impl Shares<'_> {
    fn legend(&self) -> Vec<(String, LegendKey)> {
        self.chart
            .series
            .iter()
            .enumerate()
            .map(|(i, (label, _))| (label.clone(), LegendKey::Line(LineStyle::nth(i))))
            .collect()
    }
}

impl Chart for Shares<'_> {
    /// Taller by the legend below the plot.
    fn size(&self) -> (u32, u32) {
        (SIZE.0, SIZE.1 + legend_height(&self.legend(), SIZE.0))
    }

    fn draw<DB: DrawingBackend>(&self, root: DrawingArea<DB, Shift>) -> Result<()>
    where
        DB::ErrorType: 'static,
    {
        let c = self.chart;
        let body = head(&root, self.title, &[self.rules, &c.what])?;
        let entries = self.legend();
        let (width, height) = body.dim_in_pixel();
        let (plot, below) = body.split_vertically(height - legend_height(&entries, width));
        let xs = c.series.iter().flat_map(|(_, p)| p.iter().map(|q| q.0));
        let (lo, hi) = xs.fold((u64::MAX, 0), |(lo, hi), x| (lo.min(x), hi.max(x)));
        let (lo, hi) = if lo > hi { (0, 1) } else { (lo, hi) };
        let x = lo as f64 - 0.5..hi as f64 + 0.5;
        let y_area = y_label_area(text_size("100", 15.0).0, text_size(c.y_desc, 17.0).1);
        let mut chart = ChartBuilder::on(&plot)
            .margin(20)
            .x_label_area_size(50)
            .y_label_area_size(y_area)
            .build_cartesian_2d(x.clone(), 0f64..y_top(c))?;
        let whole = |v: &f64| {
            if v.fract() == 0.0 {
                format!("{v:.0}")
            } else {
                String::new()
            }
        };
        chart
            .configure_mesh()
            .light_line_style(TRANSPARENT)
            .x_desc(c.x_desc)
            .y_desc(c.y_desc)
            .x_label_formatter(&whole)
            .y_label_formatter(&|v| format!("{v:.0}"))
            .label_style(("sans-serif", 15))
            .axis_desc_style(("sans-serif", 17))
            .draw()?;
        let even = 100.0 * c.even;
        chart.draw_series(DashedLineSeries::new(
            [(x.start, even), (x.end, even)],
            6,
            4,
            BLACK.mix(0.3).stroke_width(1),
        ))?;
        for (i, (_, points)) in c.series.iter().enumerate() {
            let style = LineStyle::nth(i);
            let colour = style.colour();
            // Each series a little apart from the others, so that bars at one x do not hide
            // each other.
            let shift = (i as f64 - (c.series.len() as f64 - 1.0) / 2.0) * 0.08;
            let at = |x: u64| x as f64 + shift;
            for (x, s) in points {
                chart.draw_series(std::iter::once(PathElement::new(
                    [(at(*x), 100.0 * s.ci95[0]), (at(*x), 100.0 * s.ci95[1])],
                    colour.mix(0.6).stroke_width(1),
                )))?;
            }
            let line = points.iter().map(|(x, s)| (at(*x), 100.0 * s.share));
            let stroke = colour.stroke_width(2);
            match DASHES[style.dash % DASHES.len()] {
                (0, _) => chart.draw_series(LineSeries::new(line, stroke))?,
                (dash, gap) => chart.draw_series(DashedLineSeries::new(line, dash, gap, stroke))?,
            };
            chart.draw_series(
                points
                    .iter()
                    .map(|(x, s)| Circle::new((at(*x), 100.0 * s.share), 3, colour.filled())),
            )?;
        }
        draw_legend(&below, &entries)?;
        root.present()?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::summary::Share;

    fn chart(even: f64, shares: &[(u64, u64)]) -> ShareChart {
        let points = shares.iter().map(|&(k, n)| (k, Share::new(k, n))).collect();
        ShareChart {
            stem: "places",
            caption: "",
            what: String::new(),
            x_desc: "",
            y_desc: "",
            even,
            series: vec![("player 1".into(), points)],
        }
    }

    #[test]
    fn the_y_axis_fits_the_shares_in_steps_of_ten() {
        // Four players' places near 25%: the axis ends at 40%, not 100%.
        assert_eq!(y_top(&chart(0.25, &[(250, 1000), (260, 1000)])), 40.0);
        // Shares up to 90% (player 1's wins with most of the cards): the whole 100%.
        assert_eq!(y_top(&chart(0.5, &[(900, 1000)])), 100.0);
    }
}
