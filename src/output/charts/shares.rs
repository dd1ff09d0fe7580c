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
            .build_cartesian_2d(x.clone(), 0f64..100.0)?;
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
            .label_style(("sans-serif", 15))
            .axis_desc_style(("sans-serif", 17))
            .draw()?;
        chart.draw_series(DashedLineSeries::new(
            [(x.start, 50.0), (x.end, 50.0)],
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
