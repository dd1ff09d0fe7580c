//! Where a chart's labels go, as pure functions of what is marked and how big each label is, so
//! that no two labels collide and no marked line runs through a label, whatever the data: the
//! marks of a histogram can sit a pixel apart (jitsu's median and mean), and a tick label can be
//! as wide as "1,000,000".

/// A box in pixels: `x0 ≤ x1`, `y0 ≤ y1`, y growing downwards.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rect {
    /// Left edge.
    pub x0: f64,
    /// Top edge.
    pub y0: f64,
    /// Right edge.
    pub x1: f64,
    /// Bottom edge.
    pub y1: f64,
}

impl Rect {
    /// Whether the two boxes share any interior point.
    pub fn overlaps(&self, o: &Rect) -> bool {
        self.x0 < o.x1 && o.x0 < self.x1 && self.y0 < o.y1 && o.y0 < self.y1
    }

    /// Whether the vertical line at `x` from `y0` to `y1` passes through the box.
    pub fn crossed_by(&self, x: f64, y0: f64, y1: f64) -> bool {
        self.x0 < x && x < self.x1 && y0.min(y1) < self.y1 && self.y0 < y0.max(y1)
    }

    /// The box grown by `d` on every side.
    pub fn grown(&self, d: f64) -> Rect {
        Rect {
            x0: self.x0 - d,
            y0: self.y0 - d,
            x1: self.x1 + d,
            y1: self.y1 + d,
        }
    }
}

/// A vertical mark to label: the line's x and the size of its label, in pixels.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Mark {
    /// Where the line stands (for a mark without a line, the edge its label ends at).
    pub x: f64,
    /// The label's width.
    pub width: f64,
    /// The label's height.
    pub height: f64,
    /// Whether a line is drawn: a value beyond the axis has its label at the edge, no line.
    pub line: bool,
}

/// Where a mark's label goes, and where its line (if any) stops.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Placed {
    /// The label's box.
    pub label: Rect,
    /// The top of the mark's line: the line runs from here down to the axis, beside its
    /// label, so it ends where the label starts and never passes through a label above.
    pub line_top: f64,
}

/// Space kept between a label and a line or another label.
pub const GAP: f64 = 4.0;

/// The labels of `marks` (in their order: earlier marks get the better places) inside `area`,
/// whose bottom is the axis. Each label sits beside its own line, touching it (right of it in
/// the left half of the area, left of it in the right half, the other side where that is taken),
/// in the highest row where it overlaps no other label; a line runs from its label's top down to
/// the axis, so it crosses no label. Lines closer together than their labels are wide stack
/// their labels in a staircase. A mark without a line has its label end at its x.
pub fn place_labels(marks: &[Mark], area: Rect) -> Vec<Placed> {
    let mut placed: Vec<(Mark, Placed)> = Vec::with_capacity(marks.len());
    let free = |m: &Mark, r: &Rect, placed: &[(Mark, Placed)]| {
        r.x0 >= area.x0 + GAP
            && r.x1 <= area.x1 - GAP
            && r.y1 <= area.y1
            && !placed.iter().any(|(o, p)| {
                let crossed = |by: &Mark, line_top: f64, label: &Rect| {
                    by.line && label.grown(GAP).crossed_by(by.x, line_top, area.y1)
                };
                p.label.grown(GAP).overlaps(r)
                    || crossed(o, p.line_top, r)
                    || crossed(m, r.y0, &p.label)
            })
    };
    for m in marks {
        let row_height = m.height + GAP;
        let rows = ((area.y1 - area.y0 - GAP) / row_height).floor().max(1.0) as usize;
        let at = |x0: f64, row: usize| Rect {
            x0,
            y0: area.y0 + GAP + row as f64 * row_height,
            x1: x0 + m.width,
            y1: area.y0 + GAP + row as f64 * row_height + m.height,
        };
        let right = m.x + GAP;
        let left = m.x - GAP - m.width;
        let sides = if !m.line {
            [left, left]
        } else if m.x < (area.x0 + area.x1) / 2.0 {
            [right, left]
        } else {
            [left, right]
        };
        // A label without a line may slide left from its edge, up to its own width, past a
        // line that stands near the edge.
        let slides = if m.line { 0 } else { (m.width / 8.0) as usize };
        let label = (0..rows)
            .flat_map(|row| {
                (0..=slides).flat_map(move |k| sides.map(|x0| at(x0 - 8.0 * k as f64, row)))
            })
            .find(|r| free(m, r, &placed))
            .unwrap_or_else(|| at(sides[0].clamp(area.x0, area.x1 - m.width), 0));
        let line_top = label.y0;
        placed.push((*m, Placed { label, line_top }));
    }
    placed.into_iter().map(|(_, p)| p).collect()
}

/// The width of a left label area that holds tick labels `widest` pixels wide and, beyond them,
/// an axis title `title_height` pixels high turned on its side, with room between them: plotters
/// puts the tick labels against the axis and the title at the area's far edge, so a fixed width
/// lets a wide tick label ("1,000,000") run into the title.
pub fn y_label_area(widest: f64, title_height: f64) -> u32 {
    // Tick marks and their gap (plotters: 5 px ticks, label offset), the title and a margin.
    (widest + 14.0 + title_height + 12.0).ceil() as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    const AREA: Rect = Rect {
        x0: 100.0,
        y0: 100.0,
        x1: 1100.0,
        y1: 600.0,
    };

    /// Every label inside the area, touching its own line, clear of every other label, and
    /// crossed by no line (each running from its label's top to the axis).
    fn assert_clear(marks: &[Mark], placed: &[Placed]) {
        for (i, (m, p)) in marks.iter().zip(placed).enumerate() {
            let a = p.label;
            assert!(
                a.x0 >= AREA.x0 && a.x1 <= AREA.x1 && a.y0 >= AREA.y0 && a.y1 <= AREA.y1,
                "box {i} {a:?} leaves the area"
            );
            assert!(
                (a.x0 - m.x - GAP).abs() < 1e-9 || (m.x - a.x1 - GAP).abs() < 1e-9,
                "label {i} {a:?} is not beside its line at {}",
                m.x
            );
            assert_eq!(p.line_top, a.y0, "line {i} stops at its label");
            for (j, (o, q)) in marks.iter().zip(placed).enumerate() {
                if i == j {
                    continue;
                }
                assert!(!a.overlaps(&q.label), "{a:?} overlaps {:?}", q.label);
                assert!(
                    !(o.line && a.crossed_by(o.x, q.line_top, AREA.y1)),
                    "line {j} at {} crosses box {i} {a:?}",
                    o.x
                );
            }
        }
    }

    fn mark(x: f64, width: f64) -> Mark {
        Mark {
            x,
            width,
            height: 18.0,
            line: true,
        }
    }

    #[test]
    fn labels_far_apart_sit_beside_their_lines_in_the_top_row() {
        let marks = [mark(200.0, 60.0), mark(900.0, 80.0)];
        let b = place_labels(&marks, AREA);
        assert_clear(&marks, &b);
        assert_eq!(b[0].label.x0, 204.0, "right of a line in the left half");
        assert_eq!(b[1].label.x1, 896.0, "left of a line in the right half");
        assert_eq!((b[0].label.y0, b[1].label.y0), (104.0, 104.0));
    }

    #[test]
    fn close_lines_stack_their_labels_beside_them() {
        // Jitsu: median 5 and mean 5.78 a few pixels apart; min and max close too.
        for gap in [0.0, 1.0, 3.0, 10.0, 40.0, 90.0] {
            let marks = [
                mark(300.0, 60.0),
                mark(300.0 + gap, 90.0),
                mark(300.0 + 2.0 * gap, 100.0),
                mark(1090.0, 70.0),
            ];
            let b = place_labels(&marks, AREA);
            assert_clear(&marks, &b);
        }
    }

    #[test]
    fn a_label_is_never_cut_by_another_line_min_reads_min() {
        // p1-first: min 6 with the median's line just right of it ("mi|6"); kbwar: min 4
        // and the mean close by.
        let marks = [mark(150.0, 50.0), mark(170.0, 90.0), mark(172.0, 90.0)];
        let b = place_labels(&marks, AREA);
        assert_clear(&marks, &b);
    }

    #[test]
    fn a_value_beyond_the_axis_is_labelled_at_the_edge_without_a_line() {
        let edge = Mark {
            line: false,
            ..mark(AREA.x1 - GAP, 150.0)
        };
        let marks = [mark(150.0, 50.0), mark(1000.0, 90.0), edge];
        let b = place_labels(&marks, AREA);
        assert_clear(&marks[..2], &b[..2]);
        // The line at 1000 stands where the edge label would end: it slides left of it.
        let edge = b[2].label;
        assert!(
            edge.x0 >= 1000.0 + GAP || edge.x1 <= 1000.0 - GAP,
            "{edge:?}"
        );
        assert!(b[..2].iter().all(|p| !p.label.overlaps(&edge)));
        let far = [mark(150.0, 50.0), marks[2]];
        let b = place_labels(&far, AREA);
        assert_eq!(
            b[1].label.x1,
            AREA.x1 - 2.0 * GAP,
            "at the edge where it is free"
        );
    }

    #[test]
    fn the_y_label_area_holds_the_widest_tick_and_the_title() {
        // "1,000,000" at 15 px is about 70 px: 90 px with a 17 px title overlapped.
        let w = y_label_area(70.0, 20.0);
        assert!(f64::from(w) >= 70.0 + 20.0 + 14.0, "{w}");
        assert!(y_label_area(20.0, 20.0) < w);
    }
}
