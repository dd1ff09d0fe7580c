//! Drawing any chart into a file: PNG through the glyph-correct bitmap backend, or SVG.
//!
//! Text is drawn with DejaVu Sans embedded in the binary (assets/), so a chart renders the same
//! on a machine with no fonts installed.

use std::path::Path;
use std::sync::Once;

use anyhow::{Context, Result};
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
    /// A PNG file's bytes, the same as [`Sink::File`] writes, appended to a buffer: a run held
    /// in memory (Python's) draws its charts without a file.
    Png(&'a mut Vec<u8>),
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
            std::fs::write(path, svg(chart, size)?)
                .with_context(|| format!("cannot write {}", path.display()))
        }
        Sink::File(path) => std::fs::write(path, png(chart, size)?)
            .with_context(|| format!("cannot write {}", path.display())),
        Sink::Svg(out) => {
            out.push_str(&svg(chart, size)?);
            Ok(())
        }
        Sink::Png(out) => {
            out.extend(png(chart, size)?);
            Ok(())
        }
    }
}

/// `chart` as a PNG file's bytes.
fn png(chart: &impl Chart, size: (u32, u32)) -> Result<Vec<u8>> {
    let mut pixels = vec![0u8; size.0 as usize * size.1 as usize * 3];
    let backend = Glyphs::new(BitMapBackend::with_buffer(&mut pixels, size), FONT)?;
    chart.draw(backend.into_drawing_area())?;
    encode_png(&pixels, size)
}

/// RGB pixels as a PNG file's bytes, encoded as plotters' own file backend encoded it (through
/// the `image` crate, with its defaults: fast compression, adaptive filters), so every PNG is
/// byte for byte what it was; the `png` crate alone is a fraction of `image` to build.
fn encode_png(rgb: &[u8], (w, h): (u32, u32)) -> Result<Vec<u8>> {
    let mut bytes = Vec::new();
    let mut encoder = png::Encoder::new(&mut bytes, w, h);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_compression(png::Compression::Fast);
    encoder.set_filter(png::FilterType::Sub);
    encoder.set_adaptive_filter(png::AdaptiveFilterType::Adaptive);
    let mut writer = encoder.write_header()?;
    writer.write_image_data(rgb)?;
    writer.finish()?;
    Ok(bytes)
}

/// `chart` as an SVG document, its text set as the PNG's ([`svg_text`]).
fn svg(chart: &impl Chart, size: (u32, u32)) -> Result<String> {
    let mut text = String::new();
    chart.draw(SVGBackend::with_string(&mut text, size).into_drawing_area())?;
    Ok(svg_text(&text))
}

/// How much smaller than asked plotters writes an SVG's text (its `font-size` is the size
/// divided by this).
const SVG_FONT_SHRINK: f64 = 1.24;

/// `svg` with its text at the size the PNG draws and the layouts measure, in DejaVu Sans where
/// the viewer has it (else Verdana, of nearly the same widths, else its sans-serif): plotters
/// writes a smaller size in the viewer's own sans-serif, so the SVG did not look like the PNG.
fn svg_text(svg: &str) -> String {
    const SIZE: &str = "font-size=\"";
    let svg = svg.replace(
        "font-family=\"sans-serif\"",
        "font-family=\"DejaVu Sans, Verdana, sans-serif\"",
    );
    let mut out = String::with_capacity(svg.len());
    let mut rest = svg.as_str();
    while let Some(at) = rest.find(SIZE) {
        let (before, after) = rest.split_at(at + SIZE.len());
        out.push_str(before);
        let end = after.find('"').unwrap_or(after.len());
        match after[..end].parse::<f64>() {
            Ok(v) => out.push_str(&format!("{:.2}", v * SVG_FONT_SHRINK)),
            Err(_) => out.push_str(&after[..end]),
        }
        rest = &after[end..];
    }
    out.push_str(rest);
    out
}

/// The (width, height) in pixels of `text` at `size` px, as the charts draw it: what their
/// layouts ([`super::layout`]) measure labels with.
pub fn text_size(text: &str, size: f64) -> (f64, f64) {
    let (w, h) = super::glyphs::measure(FONT, text, size);
    (f64::from(w), f64::from(h))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn svg_text_is_set_at_the_pngs_size_and_font() {
        let svg = r#"<text font-family="sans-serif" font-size="12.096774193548388">2,000</text>"#;
        assert_eq!(
            svg_text(svg),
            r#"<text font-family="DejaVu Sans, Verdana, sans-serif" font-size="15.00">2,000</text>"#
        );
    }
}
