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
    /// Its size in pixels.
    fn size(&self) -> (u32, u32);

    /// Draws the chart on `root` and presents it.
    fn draw<DB: DrawingBackend>(&self, root: DrawingArea<DB, Shift>) -> Result<()>
    where
        DB::ErrorType: 'static;
}

/// Where a chart goes.
pub enum Sink<'a> {
    /// A file of a staged output set: PNG, or SVG (text as text, same look) when the path ends
    /// in `.svg`.
    File(&'a Path),
    /// An SVG document appended to a string, for a page that inlines its charts.
    Svg(&'a mut String),
}

/// What takes a chart once it is made: a [`Sink`] renders it; the chart tests record what it
/// draws instead.
pub trait Target {
    /// Draws `chart`.
    fn take(self, chart: &impl Chart) -> Result<()>;
}

impl Target for Sink<'_> {
    fn take(self, chart: &impl Chart) -> Result<()> {
        render(chart, self)
    }
}

/// Draws `chart` into `sink` at its size.
pub fn render(chart: &impl Chart, sink: Sink<'_>) -> Result<()> {
    register();
    let size = chart.size();
    match sink {
        Sink::File(path) if path.extension().is_some_and(|e| e == "svg") => {
            chart.draw(SVGBackend::new(path, size).into_drawing_area())
        }
        Sink::File(path) => {
            let backend = Glyphs::new(BitMapBackend::new(path, size), FONT)?;
            chart.draw(backend.into_drawing_area())
        }
        Sink::Svg(text) => chart.draw(SVGBackend::with_string(text, size).into_drawing_area()),
    }
}

/// The (width, height) in pixels of `text` at `size` px, as the charts draw it: what their
/// layouts ([`super::layout`]) measure labels with.
pub fn text_size(text: &str, size: f64) -> (f64, f64) {
    let (w, h) = super::glyphs::measure(FONT, text, size);
    (f64::from(w), f64::from(h))
}
