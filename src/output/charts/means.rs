//! `means.png`: a sweep's mean rounds per rule set, with the shares that loop or are capped.

use super::*;

/// `means.png`: mean rounds per rule set, against the varying option's value when a single
/// numeric option varies (`numeric` names it), else one row per rule set.
pub fn means(
    title: &str,
    curves: &[(String, &Curve)],
    numeric: Option<&str>,
    target: impl Target,
) -> Result<()> {
    match numeric {
        Some(option) => target.take(&MeansByValue {
            title,
            curves,
            option,
        }),
        None => target.take(&MeansByRuleSet { title, curves }),
    }
}

struct MeansByRuleSet<'a> {
    title: &'a str,
    curves: &'a [(String, &'a Curve)],
}

impl Chart for MeansByRuleSet<'_> {
    fn size(&self) -> (u32, u32) {
        SIZE
    }

    fn draw<DB: DrawingBackend>(&self, root: DrawingArea<DB, Shift>) -> Result<()>
    where
        DB::ErrorType: 'static,
    {
        let any_endless = self.curves.iter().any(|c| c.1.unended.total() > 0);
        let body = head(
            &root,
            self.title,
            if any_endless {
                &[
                    "left: mean rounds of the games that end (95% interval)",
                    "right: the share of all games that loop (red) and that were stopped at the \
                     round cap (grey)",
                ]
            } else {
                &["mean rounds (95% interval)"]
            },
        )?;
        let n = self.curves.len() as i32;
        let labels: Vec<String> = self.curves.iter().map(|c| c.0.clone()).collect();
        // Rule set i on row n − 1 − i: the first at the top. A segmented range holds its end.
        let row = |i: usize| SegmentValue::CenterOf(n - 1 - i as i32);
        let label_of = |v: &SegmentValue<i32>| match v {
            SegmentValue::CenterOf(k) if (0..n).contains(k) => labels[(n - 1 - k) as usize].clone(),
            _ => String::new(),
        };
        let longest = labels.iter().map(|l| l.chars().count()).max().unwrap_or(0) as u32;
        let label_width = (longest * 8 + 20).min(520);
        let (left, right) = if any_endless {
            body.split_horizontally(label_width + (1200 - label_width) * 3 / 5)
        } else {
            (body.clone(), body.clone())
        };
        let top = self
            .curves
            .iter()
            .filter_map(|c| c.1.mean.map(|(m, ci)| ci.map_or(m, |c| c[1])))
            .fold(1.0f64, f64::max)
            * 1.08;
        let mut chart = ChartBuilder::on(&left)
            .margin(20)
            .x_label_area_size(50)
            .y_label_area_size(label_width)
            .build_cartesian_2d(0f64..top, (0..n - 1).into_segmented())?;
        chart
            .configure_mesh()
            .disable_y_mesh()
            .light_line_style(TRANSPARENT)
            .y_labels(self.curves.len())
            .y_label_formatter(&label_of)
            .x_label_formatter(&|v| grouped(v.round().max(0.0) as u64))
            .x_desc(if any_endless {
                "mean rounds of the games that end"
            } else {
                "mean rounds"
            })
            .label_style(("sans-serif", 13))
            .axis_desc_style(("sans-serif", 16))
            .draw()?;
        let blue = RGBColor(50, 90, 160);
        for (i, (_, c)) in self.curves.iter().enumerate() {
            let Some((m, ci)) = c.mean else { continue };
            if let Some([lo, hi]) = ci {
                chart.draw_series(std::iter::once(PathElement::new(
                    [(lo, row(i)), (hi, row(i))],
                    blue.stroke_width(2),
                )))?;
            }
            chart.draw_series(std::iter::once(Circle::new((m, row(i)), 4, blue.filled())))?;
            if let Some(e) = c.exact {
                chart.draw_series(std::iter::once(Cross::new(
                    (e, row(i)),
                    6,
                    RGBColor(200, 30, 30).stroke_width(2),
                )))?;
            }
        }
        if any_endless {
            let mut chart = ChartBuilder::on(&right)
                .margin(20)
                .x_label_area_size(50)
                .y_label_area_size(10)
                .build_cartesian_2d(0f64..100.0, (0..n - 1).into_segmented())?;
            chart
                .configure_mesh()
                .disable_y_mesh()
                .light_line_style(TRANSPARENT)
                .y_label_formatter(&|_| String::new())
                .x_label_formatter(&|v| format!("{v:.0}"))
                .x_desc("loop (red), capped (grey), % of games")
                .label_style(("sans-serif", 13))
                .axis_desc_style(("sans-serif", 16))
                .draw()?;
            let red = RGBColor(200, 60, 40);
            let grey = RGBColor(120, 120, 120);
            for (i, (_, c)) in self.curves.iter().enumerate() {
                // The loops' bar, then the capped games' bar after it: apart, never summed
                // into one "never ends".
                let (l, k) = (c.looping(), c.capped());
                for (from, share, colour) in [(0.0, &l, red), (l.share, &k, grey)] {
                    if share.count == 0 {
                        continue;
                    }
                    chart.draw_series(std::iter::once(PathElement::new(
                        [
                            (100.0 * from, row(i)),
                            (100.0 * (from + share.share), row(i)),
                        ],
                        colour.mix(0.45).stroke_width(12),
                    )))?;
                }
                for (share, colour) in [(&l, red), (&k, grey)] {
                    if share.count > 0 {
                        chart.draw_series(std::iter::once(PathElement::new(
                            [
                                (100.0 * share.ci95[0], row(i)),
                                (100.0 * share.ci95[1], row(i)),
                            ],
                            colour.stroke_width(2),
                        )))?;
                    }
                }
            }
        }
        root.present()?;
        Ok(())
    }
}

struct MeansByValue<'a> {
    title: &'a str,
    curves: &'a [(String, &'a Curve)],
    option: &'a str,
}

impl Chart for MeansByValue<'_> {
    fn size(&self) -> (u32, u32) {
        SIZE
    }

    fn draw<DB: DrawingBackend>(&self, root: DrawingArea<DB, Shift>) -> Result<()>
    where
        DB::ErrorType: 'static,
    {
        let what = format!("mean rounds against --{} (95% interval)", self.option);
        let body = head(&root, self.title, &[&what])?;
        let exact: Vec<(f64, f64)> = self
            .curves
            .iter()
            .filter_map(|(l, c)| Some((l.rsplit(' ').next()?.parse().ok()?, c.exact?)))
            .collect();
        let mut entries = vec![(
            "simulated mean, 95% interval".to_string(),
            LegendKey::Mean(BLUE_MEAN),
        )];
        if !exact.is_empty() {
            entries.push(("exact".into(), LegendKey::Exact(RED_EXACT)));
        }
        let (width, height) = body.dim_in_pixel();
        let (body, below) = body.split_vertically(height - legend_height(&entries, width));
        // Labels are `OPTION VALUE`.
        let points: Vec<(f64, &Curve)> = self
            .curves
            .iter()
            .filter_map(|(l, c)| Some((l.rsplit(' ').next()?.parse().ok()?, *c)))
            .collect();
        let (x0, x1) = points
            .iter()
            .fold((f64::MAX, f64::MIN), |(a, b), p| (a.min(p.0), b.max(p.0)));
        let pad = ((x1 - x0) * 0.05).max(0.5);
        let top = points
            .iter()
            .filter_map(|p| {
                p.1.mean
                    .map(|(m, ci)| ci.map_or(m, |c| c[1]).max(p.1.exact.unwrap_or(0.0)))
            })
            .fold(1.0f64, f64::max)
            * 1.08;
        let mut chart = ChartBuilder::on(&body)
            .margin(20)
            .x_label_area_size(50)
            .y_label_area_size(y_label_area(
                text_size(&format!("{top:.0}"), 15.0).0,
                text_size("mean rounds", 17.0).1,
            ))
            .build_cartesian_2d((x0 - pad)..(x1 + pad), 0f64..top)?;
        chart
            .configure_mesh()
            .light_line_style(TRANSPARENT)
            .x_desc(self.option)
            .y_desc("mean rounds")
            .x_label_formatter(&|v| {
                if v.fract() == 0.0 {
                    format!("{v:.0}")
                } else {
                    format!("{v}")
                }
            })
            .label_style(("sans-serif", 15))
            .axis_desc_style(("sans-serif", 17))
            .draw()?;
        if !exact.is_empty() {
            chart.draw_series(LineSeries::new(exact, RED_EXACT.stroke_width(2)))?;
        }
        let blue = BLUE_MEAN;
        for &(x, c) in &points {
            if let Some((_, Some([lo, hi]))) = c.mean {
                chart.draw_series(std::iter::once(PathElement::new(
                    [(x, lo), (x, hi)],
                    blue.stroke_width(2),
                )))?;
            }
        }
        chart.draw_series(
            points
                .iter()
                .filter_map(|&(x, c)| Some(Circle::new((x, c.mean?.0), 5, blue.filled()))),
        )?;
        draw_legend(&below, &entries)?;
        root.present()?;
        Ok(())
    }
}
