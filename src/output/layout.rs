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
    /// Where the line stands.
    pub x: f64,
    /// The label's width.
    pub width: f64,
    /// The label's height.
    pub height: f64,
}

/// Space kept between a label and a line or another label.
const GAP: f64 = 4.0;

/// The boxes of the labels of `marks` (in their order: earlier marks get the better places),
/// inside `area`, whose vertical lines run its full height. Each label goes beside its own
/// line, on the side with room, in the highest row where it touches no other label and no
/// line; a label that fits nowhere beside its line (lines closer together than labels are
/// wide) goes in the highest free place anywhere, which its colour ties to its line. Labels
/// that cannot fit at all (an area smaller than a label) stay at the area's top left.
pub fn place_labels(marks: &[Mark], area: Rect) -> Vec<Rect> {
    let mut placed: Vec<Rect> = Vec::with_capacity(marks.len());
    let free = |r: &Rect, placed: &[Rect]| {
        r.x0 >= area.x0 + GAP
            && r.x1 <= area.x1 - GAP
            && r.y1 <= area.y1
            && !placed.iter().any(|p| p.grown(GAP).overlaps(r))
            && !marks
                .iter()
                .any(|m| r.grown(GAP).crossed_by(m.x, area.y0, area.y1))
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
        // Right of the line first in the left half of the area, left of it in the right half.
        let right = m.x + GAP + 1.0;
        let left = m.x - GAP - 1.0 - m.width;
        let sides = if m.x < (area.x0 + area.x1) / 2.0 {
            [right, left]
        } else {
            [left, right]
        };
        let beside = (0..rows)
            .flat_map(|row| sides.map(|x0| at(x0, row)))
            .find(|r| free(r, &placed));
        let anywhere = || {
            let steps = ((area.x1 - area.x0) / 8.0).ceil() as usize;
            (0..rows)
                .flat_map(|row| (0..=steps).map(move |k| (row, k)))
                .map(|(row, k)| at(area.x0 + GAP + k as f64 * 8.0, row))
                .find(|r| free(r, &placed))
        };
        placed.push(
            beside
                .or_else(anywhere)
                .unwrap_or_else(|| at(area.x0 + GAP, 0)),
        );
    }
    placed
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

    fn assert_clear(marks: &[Mark], boxes: &[Rect]) {
        for (i, a) in boxes.iter().enumerate() {
            assert!(
                a.x0 >= AREA.x0 && a.x1 <= AREA.x1 && a.y0 >= AREA.y0 && a.y1 <= AREA.y1,
                "box {i} {a:?} leaves the area"
            );
            for b in &boxes[i + 1..] {
                assert!(!a.overlaps(b), "{a:?} overlaps {b:?}");
            }
            for m in marks {
                assert!(
                    !a.crossed_by(m.x, AREA.y0, AREA.y1),
                    "line at {} crosses box {i} {a:?}",
                    m.x
                );
            }
        }
    }

    fn mark(x: f64, width: f64) -> Mark {
        Mark {
            x,
            width,
            height: 18.0,
        }
    }

    #[test]
    fn labels_far_apart_sit_beside_their_lines_in_the_top_row() {
        let marks = [mark(200.0, 60.0), mark(900.0, 80.0)];
        let b = place_labels(&marks, AREA);
        assert_clear(&marks, &b);
        assert_eq!(b[0].x0, 205.0, "right of a line in the left half");
        assert_eq!(b[1].x1, 895.0, "left of a line in the right half");
        assert_eq!((b[0].y0, b[1].y0), (104.0, 104.0));
    }

    #[test]
    fn close_lines_stack_their_labels_or_move_them_clear() {
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
        // p1-first: min 6 with the median's line just right of it ("mi|6").
        let marks = [mark(150.0, 50.0), mark(170.0, 90.0), mark(172.0, 90.0)];
        let b = place_labels(&marks, AREA);
        assert_clear(&marks, &b);
    }

    #[test]
    fn the_y_label_area_holds_the_widest_tick_and_the_title() {
        // "1,000,000" at 15 px is about 70 px: 90 px with a 17 px title overlapped.
        let w = y_label_area(70.0, 20.0);
        assert!(f64::from(w) >= 70.0 + 20.0 + 14.0, "{w}");
        assert!(y_label_area(20.0, 20.0) < w);
    }
}
