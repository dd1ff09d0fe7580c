//! Drawing any chart into a file: PNG through the glyph-correct bitmap backend, or SVG.
//!
//! Text is drawn with DejaVu Sans embedded in the binary (assets/), so a chart renders the same
//! on a machine with no fonts installed.

use std::path::Path;
use std::sync::Once;

use anyhow::Result;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::{register_font, FontStyle};

use super::glyphs::Glyphs;

static FONT: &[u8] = include_bytes!("../../assets/DejaVuSans.ttf");
static REGISTER: Once = Once::new();

fn register() {
    REGISTER.call_once(|| {
        // The font is compiled in and known to parse; a failure would only lose the text.
        let _ = register_font("sans-serif", FontStyle::Normal, FONT);
    });
}

/// A chart that can be drawn on any plotters backend.
pub trait Chart {
    /// Draws the chart on `root` and presents it.
    fn draw<DB: DrawingBackend>(&self, root: DrawingArea<DB, Shift>) -> Result<()>
    where
        DB::ErrorType: 'static;
}

/// Draws `chart` into `path` (a file of a staged output set) at `size` pixels: PNG, or SVG
/// (text as text, same look) when the path ends in `.svg`.
pub fn render(chart: &impl Chart, path: &Path, size: (u32, u32)) -> Result<()> {
    register();
    if path.extension().is_some_and(|e| e == "svg") {
        chart.draw(SVGBackend::new(path, size).into_drawing_area())
    } else {
        let backend = Glyphs::new(BitMapBackend::new(path, size), FONT)?;
        chart.draw(backend.into_drawing_area())
    }
}
