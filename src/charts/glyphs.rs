//! Text on bitmap charts, laid out glyph by glyph with each glyph's own bearing.
//!
//! plotters 0.3.7 draws ab_glyph text at the pen position without the glyph's left side bearing
//! (`rect.min.x` is dropped in its `FontDataInternal::draw`), so letters with a large bearing
//! crowd their left neighbour and the others drift apart: "shor t war", "270 .62". [`Glyphs`]
//! wraps a bitmap backend and draws text itself with ab_glyph (the rasterizer plotters already
//! uses, on the same embedded font): every glyph at its pen position plus its bearing, with
//! kerning. Everything else goes to the wrapped backend unchanged.

use ab_glyph::{point, Font, FontRef, PxScale, ScaleFont};
use plotters_backend::text_anchor::{HPos, VPos};
use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingBackend, DrawingErrorKind,
};

/// A backend whose text is laid out correctly; see the module's documentation.
pub struct Glyphs<'f, B> {
    inner: B,
    font: FontRef<'f>,
}

impl<'f, B: DrawingBackend> Glyphs<'f, B> {
    /// Wraps `inner`, drawing text in `font` (a TrueType file's bytes).
    pub fn new(inner: B, font: &'f [u8]) -> Result<Self, ab_glyph::InvalidFont> {
        Ok(Glyphs {
            inner,
            font: FontRef::try_from_slice(font)?,
        })
    }

    /// Lays out `text` at `size` px in this backend's font; see [`layout`].
    fn layout(&self, text: &str, size: f64, pixel: impl FnMut(usize, i32, i32, f32)) -> (i32, i32) {
        layout(&self.font, text, size, pixel)
    }
}

/// The (width, height) in pixels of `text` at `size` px in `font` (a TrueType file's bytes) as
/// [`Glyphs`] draws it: what chart layouts measure their labels with.
pub fn measure(font: &[u8], text: &str, size: f64) -> (i32, i32) {
    match FontRef::try_from_slice(font) {
        Ok(f) => layout(&f, text, size, |_, _, _, _| {}),
        Err(_) => (0, 0),
    }
}

/// Calls `pixel(glyph, x, y, coverage)` for every pixel of `text` at `size` px (`glyph`
/// counts the characters), with the origin at the left end of the line's top (the ascent),
/// and returns the line's (width, height).
fn layout(
    font: &FontRef<'_>,
    text: &str,
    size: f64,
    mut pixel: impl FnMut(usize, i32, i32, f32),
) -> (i32, i32) {
    let scale = PxScale::from(size as f32);
    let font = font.as_scaled(scale);
    let mut caret = 0.0f32;
    let mut prev = None;
    for (i, c) in text.chars().enumerate() {
        let id = font.glyph_id(c);
        if let Some(p) = prev {
            caret += font.kern(p, id);
        }
        prev = Some(id);
        let glyph = id.with_scale_and_position(scale, point(caret, font.ascent()));
        if let Some(outline) = font.outline_glyph(glyph) {
            let at = outline.px_bounds().min;
            outline.draw(|x, y, cov| pixel(i, at.x as i32 + x as i32, at.y as i32 + y as i32, cov));
        }
        caret += font.h_advance(id);
    }
    (
        caret.ceil() as i32,
        (font.ascent() - font.descent()).ceil() as i32,
    )
}

impl<B: DrawingBackend> DrawingBackend for Glyphs<'_, B> {
    type ErrorType = B::ErrorType;

    fn get_size(&self) -> (u32, u32) {
        self.inner.get_size()
    }

    fn ensure_prepared(&mut self) -> Result<(), DrawingErrorKind<B::ErrorType>> {
        self.inner.ensure_prepared()
    }

    fn present(&mut self) -> Result<(), DrawingErrorKind<B::ErrorType>> {
        self.inner.present()
    }

    fn draw_pixel(
        &mut self,
        point: BackendCoord,
        color: BackendColor,
    ) -> Result<(), DrawingErrorKind<B::ErrorType>> {
        self.inner.draw_pixel(point, color)
    }

    fn draw_line<S: BackendStyle>(
        &mut self,
        from: BackendCoord,
        to: BackendCoord,
        style: &S,
    ) -> Result<(), DrawingErrorKind<B::ErrorType>> {
        self.inner.draw_line(from, to, style)
    }

    fn draw_rect<S: BackendStyle>(
        &mut self,
        upper_left: BackendCoord,
        bottom_right: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<B::ErrorType>> {
        self.inner.draw_rect(upper_left, bottom_right, style, fill)
    }

    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Result<(), DrawingErrorKind<B::ErrorType>> {
        self.inner.draw_path(path, style)
    }

    fn draw_circle<S: BackendStyle>(
        &mut self,
        center: BackendCoord,
        radius: u32,
        style: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<B::ErrorType>> {
        self.inner.draw_circle(center, radius, style, fill)
    }

    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        style: &S,
    ) -> Result<(), DrawingErrorKind<B::ErrorType>> {
        self.inner.fill_polygon(vert, style)
    }

    fn blit_bitmap(
        &mut self,
        pos: BackendCoord,
        (iw, ih): (u32, u32),
        src: &[u8],
    ) -> Result<(), DrawingErrorKind<B::ErrorType>> {
        self.inner.blit_bitmap(pos, (iw, ih), src)
    }

    fn estimate_text_size<S: BackendTextStyle>(
        &self,
        text: &str,
        style: &S,
    ) -> Result<(u32, u32), DrawingErrorKind<B::ErrorType>> {
        let (w, h) = self.layout(text, style.size(), |_, _, _, _| {});
        Ok((w as u32, h as u32))
    }

    fn draw_text<S: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &S,
        pos: BackendCoord,
    ) -> Result<(), DrawingErrorKind<B::ErrorType>> {
        let color = style.color();
        if color.alpha == 0.0 {
            return Ok(());
        }
        let mut pixels = Vec::new();
        let (w, h) = self.layout(text, style.size(), |_, x, y, cov| pixels.push((x, y, cov)));
        // The anchor is a point of the unrotated line's box; rotation turns the line about it.
        let dx = match style.anchor().h_pos {
            HPos::Left => 0,
            HPos::Center => -w / 2,
            HPos::Right => -w,
        };
        let dy = match style.anchor().v_pos {
            VPos::Top => 0,
            VPos::Center => -h / 2,
            VPos::Bottom => -h,
        };
        let turn = style.transform();
        let (width, height) = self.get_size();
        for (x, y, cov) in pixels {
            let (x, y) = turn.transform(x + dx, y + dy);
            let (x, y) = (pos.0 + x, pos.1 + y);
            if x >= 0 && y >= 0 && x < width as i32 && y < height as i32 && cov > 0.0 {
                let c = BackendColor {
                    alpha: color.alpha * f64::from(cov.min(1.0)),
                    rgb: color.rgb,
                };
                self.inner.draw_pixel((x, y), c)?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use plotters::backend::BitMapBackend;

    /// The leftmost and rightmost ink column of each glyph of `text` at `size` px.
    fn ink(g: &Glyphs<'_, BitMapBackend<'_>>, text: &str, size: f64) -> Vec<(i32, i32)> {
        let mut ext = vec![(i32::MAX, i32::MIN); text.chars().count()];
        g.layout(text, size, |i, x, _, cov| {
            if cov > 0.5 {
                ext[i] = (ext[i].0.min(x), ext[i].1.max(x));
            }
        });
        ext
    }

    #[test]
    fn glyphs_stand_where_the_font_puts_them() {
        let font: &[u8] = include_bytes!("../../assets/DejaVuSans.ttf");
        let mut buf = vec![0u8; 16 * 16 * 3];
        let g = Glyphs::new(BitMapBackend::with_buffer(&mut buf, (16, 16)), font).unwrap();
        let size = 100.0;
        let f = g.font.as_scaled(PxScale::from(size as f32));
        // The pairs that plotters' own layout spaced visibly wrong ("shor t", "270 .62", "5 0").
        for pair in ["rt", "70", ".6", "50", "ar", "ou"] {
            let [a, b] = [0, 1].map(|i| f.glyph_id(pair.chars().nth(i).unwrap()));
            let pen = f.h_advance(a) + f.kern(a, b);
            let [first, second] = ink(&g, pair, size)[..] else {
                unreachable!()
            };
            let alone = ink(&g, &pair[1..], size)[0];
            // The second glyph's ink is its ink alone moved by the pen advance: its bearing kept.
            assert!(
                (second.0 - (alone.0 + pen.round() as i32)).abs() <= 1,
                "{pair}: second glyph at {second:?}, alone {alone:?}, pen {pen}"
            );
            assert!(first.1 < second.1, "{pair}: glyphs in order");
            // And the bearing is real ink offset at this size (plotters drew it at 0).
            assert!(alone.0 >= 0, "{pair}: no ink left of the pen");
        }
        let h = f.h_side_bearing(f.glyph_id('t'));
        assert!(
            h > 1.0,
            "t's bearing, {h}, is more than a pixel at {size} px"
        );
        assert!((ink(&g, "t", size)[0].0 - h.round() as i32).abs() <= 1);
    }

    #[test]
    fn a_line_measures_its_advance_and_font_height() {
        let font: &[u8] = include_bytes!("../../assets/DejaVuSans.ttf");
        let mut buf = vec![0u8; 16 * 16 * 3];
        let g = Glyphs::new(BitMapBackend::with_buffer(&mut buf, (16, 16)), font).unwrap();
        let f = g.font.as_scaled(PxScale::from(20.0));
        let adv: f32 = "mean".chars().map(|c| f.h_advance(f.glyph_id(c))).sum();
        let (w, h) = g.layout("mean", 20.0, |_, _, _, _| {});
        assert!((w as f32 - adv).abs() <= 1.0, "{w} vs {adv}");
        assert_eq!(h, (f.ascent() - f.descent()).ceil() as i32);
    }
}
