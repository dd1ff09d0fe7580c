//! `sweep.png` of a sweep with more rule sets than one plot keeps apart: small multiples, a
//! panel per value of one setting, every panel on the same axes and styled alike, so a line's
//! colour and dashes mean the same in each and one legend serves them all.

use super::survival::{percent, step_points, x_end};
use super::*;
use crate::games::Unit;

/// The most lines one plot (or one panel) holds: 12 colours, and more lines than that on one
/// log axis cross too often to be followed.
pub const MAX_LINES: usize = 12;

/// How a sweep of axes of `lens` values (the first varying slowest) is split into panels: the
/// axis whose values make the panels, where one plot would hold more than [`MAX_LINES`]
/// lines. The first axis that leaves at most [`MAX_LINES`] lines a panel, at most 9 panels,
/// and lines a panel that [`LineStyle::sweep`] tells apart by colour and dash.
pub fn panel_axis(lens: &[usize]) -> Option<usize> {
    let n: usize = lens.iter().product();
    if n <= MAX_LINES || lens.len() < 2 {
        return None;
    }
    (0..lens.len()).find(|&a| {
        let rest = other_lens(lens, a);
        let per = n / lens[a].max(1);
        per <= MAX_LINES && lens[a] <= 9 && distinct(&LineStyle::sweep(&rest))
    })
}

/// Whether every style of `styles` differs from the others.
fn distinct(styles: &[LineStyle]) -> bool {
    let set: std::collections::HashSet<_> = styles.iter().collect();
    set.len() == styles.len()
}

/// `lens` without axis `a`.
fn other_lens(lens: &[usize], a: usize) -> Vec<usize> {
    let mut rest = lens.to_vec();
    rest.remove(a);
    rest
}

/// For rule set `i` of a sweep of axes `lens`, split on axis `a`: its panel, and its index
/// among the rule sets of that panel (the remaining axes in their order).
pub fn place(i: usize, lens: &[usize], a: usize) -> (usize, usize) {
    let mut rest = i;
    let mut digits = vec![0; lens.len()];
    for (k, &len) in lens.iter().enumerate().rev() {
        digits[k] = rest % len;
        rest /= len;
    }
    let within = digits
        .iter()
        .zip(lens)
        .enumerate()
        .filter(|&(k, _)| k != a)
        .fold(0, |acc, (_, (&d, &len))| acc * len + d);
    (digits[a], within)
}

/// One panel: its heading (the setting its rule sets share) and its lines.
pub struct Panel<'a> {
    /// `war-down 1`.
    pub heading: String,
    /// Its rule sets, labelled by the other settings and styled as in every panel.
    pub lines: Vec<Line<'a>>,
}

/// Small multiples of survival curves under `title` and `subtitle`, two panels a row, on one
/// x range and one y floor; the legend (the lines of the first panel, which every panel
/// repeats in style) below them.
pub fn panels(
    title: &str,
    subtitle: &str,
    unit: Unit,
    panels: &[Panel<'_>],
    target: impl Target,
) -> Result<()> {
    target.take(&Panels {
        title,
        subtitle,
        unit,
        panels,
    })
}

struct Panels<'a> {
    title: &'a str,
    subtitle: &'a str,
    unit: Unit,
    panels: &'a [Panel<'a>],
}

/// Each panel's height in px.
const PANEL_H: u32 = 360;

impl Panels<'_> {
    fn legend(&self) -> Vec<(String, LegendKey)> {
        self.panels.first().map_or_else(Vec::new, |p| {
            p.lines
                .iter()
                .map(|l| (l.label.clone(), LegendKey::Line(l.style)))
                .collect()
        })
    }

    fn rows(&self) -> u32 {
        self.panels.len().div_ceil(2) as u32
    }
}

impl Chart for Panels<'_> {
    fn size(&self) -> (u32, u32) {
        let legend = legend_height(&self.legend(), SIZE.0);
        (SIZE.0, 70 + self.rows() * PANEL_H + legend)
    }

    fn draw<DB: DrawingBackend>(&self, root: DrawingArea<DB, Shift>) -> Result<()>
    where
        DB::ErrorType: 'static,
    {
        let body = head(&root, self.title, &[self.subtitle])?;
        let entries = self.legend();
        let (width, height) = body.dim_in_pixel();
        let (grid, below) = body.split_vertically(height - legend_height(&entries, width));
        let curves = || {
            self.panels
                .iter()
                .flat_map(|p| p.lines.iter().map(|l| l.curve))
        };
        let games = curves().map(|c| c.games).max().unwrap_or(1);
        let y_min = (1.0 / games as f64).max(1e-5);
        let x_end = x_end(curves(), y_min) as f64;
        let cols = if self.panels.len() > 1 { 2 } else { 1 };
        let cells = grid.split_evenly((self.rows() as usize, cols));
        let y_desc = format!("longer than t {}", self.unit.many);
        for (panel, cell) in self.panels.iter().zip(&cells) {
            let (top, plot) = cell.split_vertically(28);
            top.draw(&Text::new(
                panel.heading.clone(),
                (70, 6),
                ("sans-serif", 18).into_font().color(&BLACK),
            ))?;
            let mut chart = ChartBuilder::on(&plot)
                .margin(10)
                .margin_right(34)
                .x_label_area_size(40)
                .y_label_area_size(y_label_area(
                    text_size(&percent(y_min), 13.0).0,
                    text_size(&y_desc, 14.0).1,
                ))
                .build_cartesian_2d(0f64..x_end, (y_min..1.0).log_scale())?;
            chart
                .configure_mesh()
                .light_line_style(TRANSPARENT)
                .x_desc(format!("{} t", self.unit.many))
                .y_desc(&y_desc)
                .label_style(("sans-serif", 13))
                .axis_desc_style(("sans-serif", 14))
                .x_label_formatter(&|v| grouped(v.round().max(0.0) as u64))
                .y_label_formatter(&|v| percent(*v))
                .draw()?;
            for line in &panel.lines {
                let points = step_points(&line.curve.survival(), y_min, x_end);
                let stroke = line.style.colour().stroke_width(2);
                match DASHES[line.style.dash % DASHES.len()] {
                    (0, _) => chart.draw_series(LineSeries::new(points, stroke))?,
                    (dash, gap) => {
                        chart.draw_series(DashedLineSeries::new(points, dash, gap, stroke))?
                    }
                };
            }
        }
        draw_legend(&below, &entries)?;
        root.present()?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sweep_of_32_rule_sets_is_four_panels_of_eight_told_apart() {
        // --war-down 1,2,3,4 --short-war lose,last-card --pickup 4 values: a panel per
        // war-down, each 8 lines in 8 colours, the dashes saying the short war (2 patterns),
        // whichever order the settings come in.
        let lens = [4, 2, 4];
        assert_eq!(panel_axis(&lens), Some(0));
        for rest in [other_lens(&lens, 0), vec![4, 2]] {
            let styles = LineStyle::sweep(&rest);
            assert_eq!(styles.len(), 8);
            assert!(distinct(&styles));
            let colours: std::collections::HashSet<_> = styles.iter().map(|s| s.colour).collect();
            assert_eq!(colours.len(), 8, "a colour per line: {styles:?}");
            let dashes: std::collections::HashSet<_> = styles.iter().map(|s| s.dash).collect();
            assert_eq!(dashes.len(), 2, "dashes for the short war: {styles:?}");
            let short_war = |i: usize| if rest[0] == 2 { i / 4 } else { i % 2 };
            for (i, a) in styles.iter().enumerate() {
                for (j, b) in styles.iter().enumerate() {
                    assert_eq!(short_war(i) == short_war(j), a.dash == b.dash, "{i} {j}");
                }
            }
        }
        // Rule set 13 is digits (1, 1, 1): war-down 2, short-war last-card, pickup
        // winner-first; in panel 1 (war-down 2) it is line 1·4 + 1 = 5, and split on pickup,
        // panel 1, line 1·2 + 1 = 3.
        assert_eq!(place(13, &lens, 0), (1, 5));
        assert_eq!(place(13, &lens, 2), (1, 3));
        // Up to 12 lines: one plot, no panels; one axis of 30 values cannot be split.
        assert_eq!(panel_axis(&[6, 2]), None);
        assert_eq!(panel_axis(&[30]), None);
        // 24 of 6 × 4: panels by the first axis leave 4 lines each.
        assert_eq!(panel_axis(&[6, 4]), Some(0));
    }
}
