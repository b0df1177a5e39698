//! Text with the embedded DejaVu Sans faces: measuring, wrapping, aligned drawing and an
//! optional halo (a dilated copy behind the glyphs, grown by imageproc's `grayscale_dilate`)
//! that keeps labels readable on any background.
//!
//! Glyphs are rasterised by ab_glyph once per face, size and quarter-pixel offset and kept
//! (per thread): a board draws the same few dozen glyphs hundreds of times. imageproc gap:
//! `draw_text_mut` rasterises every glyph anew, starts a line on a whole pixel and looks
//! kerning pairs up reversed, after the pair (DejaVu kerns "To" by 2.6 px at 18 px, "oT" not
//! at all); ARCHITECTURE.md has the measurements.

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::OnceLock;

use ab_glyph::{point, Font, FontRef, Glyph, GlyphId, PxScale, ScaleFont};
use image::{GrayImage, Rgba, RgbaImage};
use imageproc::morphology::{grayscale_dilate, Mask};

use super::shapes::{blend_coverage_row, Pt};

static REGULAR_TTF: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans.ttf");
static BOLD_TTF: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans-Bold.ttf");

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Weight {
    Regular,
    Bold,
}

/// The embedded face; `None` only if the embedded file were corrupt (a test checks it is not),
/// in which case text is skipped rather than crashing the bot.
pub fn font(weight: Weight) -> Option<&'static FontRef<'static>> {
    static REGULAR: OnceLock<Option<FontRef<'static>>> = OnceLock::new();
    static BOLD: OnceLock<Option<FontRef<'static>>> = OnceLock::new();
    let (cell, bytes) = match weight {
        Weight::Regular => (&REGULAR, REGULAR_TTF),
        Weight::Bold => (&BOLD, BOLD_TTF),
    };
    cell.get_or_init(|| FontRef::try_from_slice(bytes).ok())
        .as_ref()
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Align {
    Left,
    Centre,
    Right,
}

/// How a piece of text looks.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Style {
    pub weight: Weight,
    /// Pixel height of the em square.
    pub size: f32,
    pub colour: Rgba<u8>,
    /// A halo `(colour, radius in px)` drawn behind the glyphs.
    pub halo: Option<(Rgba<u8>, u32)>,
}

impl Style {
    pub const fn new(weight: Weight, size: f32, colour: Rgba<u8>) -> Style {
        Style {
            weight,
            size,
            colour,
            halo: None,
        }
    }
    pub const fn halo(mut self, colour: Rgba<u8>, radius: u32) -> Style {
        self.halo = Some((colour, radius));
        self
    }
    pub const fn colour(mut self, colour: Rgba<u8>) -> Style {
        self.colour = colour;
        self
    }
}

/// Glyphs positioned on a baseline at y = 0 starting at x = 0, and the advance width.
fn layout(weight: Weight, size: f32, text: &str) -> (Vec<Glyph>, f32) {
    let Some(font) = font(weight) else {
        return (Vec::new(), 0.0);
    };
    let scaled = font.as_scaled(PxScale::from(size));
    let mut glyphs = Vec::with_capacity(text.len());
    let mut x = 0.0f32;
    let mut prev = None;
    for ch in text.chars() {
        let id = scaled.glyph_id(ch);
        if let Some(p) = prev {
            x += scaled.kern(p, id);
        }
        glyphs.push(id.with_scale_and_position(size, point(x, 0.0)));
        x += scaled.h_advance(id);
        prev = Some(id);
    }
    (glyphs, x)
}

/// Advance width of `text` in pixels.
pub fn text_width(weight: Weight, size: f32, text: &str) -> f32 {
    layout(weight, size, text).1
}

/// Ascent above the baseline in pixels (for line placement).
pub fn ascent(weight: Weight, size: f32) -> f32 {
    font(weight).map_or(size * 0.76, |f| f.as_scaled(PxScale::from(size)).ascent())
}

/// Greedy word wrap to lines no wider than `max_width` (a single long word stays whole).
pub fn wrap(weight: Weight, size: f32, text: &str, max_width: f32) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        let candidate = if line.is_empty() {
            word.to_string()
        } else {
            format!("{line} {word}")
        };
        if !line.is_empty() && text_width(weight, size, &candidate) > max_width {
            lines.push(std::mem::replace(&mut line, word.to_string()));
        } else {
            line = candidate;
        }
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// Sub-pixel steps a glyph may be placed at, per pixel and axis (at most 1/8 px off).
const STEPS: f32 = 4.0;

/// Glyphs kept before the cache starts over (a board uses a few hundred).
const KEPT: usize = 4096;

#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct Key {
    weight: Weight,
    size: u32,
    glyph: GlyphId,
    dx: u8,
    dy: u8,
}

/// A glyph's coverage (0..=255) in a box offset from its pen's whole-pixel position.
struct Coverage {
    left: i64,
    top: i64,
    width: usize,
    data: Vec<u8>,
}

impl Coverage {
    fn height(&self) -> usize {
        self.data.len().checked_div(self.width).unwrap_or(0)
    }
    /// Each row of coverage with its offset from the box's top.
    fn rows(&self) -> impl Iterator<Item = (i64, &[u8])> {
        self.data
            .chunks_exact(self.width.max(1))
            .enumerate()
            .map(|(y, row)| (y as i64, row))
    }
}

thread_local! {
    static GLYPHS: RefCell<HashMap<Key, Coverage>> = RefCell::new(HashMap::new());
}

/// Runs `f` on the coverage of `glyph` with its pen at `key`'s sub-pixel offset.
fn with_coverage<R>(font: &FontRef<'static>, key: Key, f: impl FnOnce(&Coverage) -> R) -> R {
    GLYPHS.with(|cell| {
        let mut cache = cell.borrow_mut();
        if !cache.contains_key(&key) {
            if cache.len() >= KEPT {
                cache.clear();
            }
            let at = point(f32::from(key.dx) / STEPS, f32::from(key.dy) / STEPS);
            let glyph = key
                .glyph
                .with_scale_and_position(f32::from_bits(key.size), at);
            let coverage = match font.outline_glyph(glyph) {
                Some(outlined) => {
                    let b = outlined.px_bounds();
                    let width = b.width() as usize;
                    let mut data = vec![0u8; width * b.height() as usize];
                    outlined.draw(|x, y, c| {
                        // Coverage is within 0..=1, so the cast rounds into 0..=255.
                        data[y as usize * width + x as usize] =
                            (c.clamp(0.0, 1.0) * 255.0 + 0.5) as u8;
                    });
                    Coverage {
                        left: b.min.x as i64,
                        top: b.min.y as i64,
                        width,
                        data,
                    }
                }
                None => Coverage {
                    left: 0,
                    top: 0,
                    width: 0,
                    data: Vec::new(),
                },
            };
            cache.insert(key, coverage);
        }
        f(&cache[&key])
    })
}

/// Where each glyph of a line goes: its pen's whole pixel and its cache key.
fn place(weight: Weight, size: f32, text: &str, origin: Pt) -> Vec<(i64, i64, Key)> {
    let (glyphs, _) = layout(weight, size, text);
    let split = |v: f32| {
        let steps = (v * STEPS).round();
        let whole = (steps / STEPS).floor();
        // Within 0..STEPS by construction.
        (whole as i64, (steps - whole * STEPS) as u8)
    };
    glyphs
        .into_iter()
        .map(|g| {
            let (x, dx) = split(origin.x + g.position.x);
            let (y, dy) = split(origin.y + g.position.y);
            let key = Key {
                weight,
                size: size.to_bits(),
                glyph: g.id,
                dx,
                dy,
            };
            (x, y, key)
        })
        .collect()
}

/// Draws a line's glyphs with the baseline starting at `origin`, halo first if any.
fn draw_glyphs(img: &mut RgbaImage, style: &Style, text: &str, origin: Pt) {
    let Some(font) = font(style.weight) else {
        return;
    };
    let placed = place(style.weight, style.size, text, origin);
    if let Some((colour, r)) = style.halo {
        halo(img, font, &placed, colour, r);
    }
    for &(x, y, key) in &placed {
        with_coverage(font, key, |c| {
            for (cy, row) in c.rows() {
                blend_coverage_row(img, x + c.left, y + c.top + cy, row, style.colour);
            }
        });
    }
}

/// Paints the glyphs grown by `r` pixels (a square dilation of their coverage) in `colour`.
fn halo(
    img: &mut RgbaImage,
    font: &FontRef<'static>,
    placed: &[(i64, i64, Key)],
    colour: Rgba<u8>,
    r: u32,
) {
    let boxes: Vec<(i64, i64, i64, i64)> = placed
        .iter()
        .map(|&(x, y, key)| {
            with_coverage(font, key, |c| {
                let (l, t) = (x + c.left, y + c.top);
                (l, t, l + c.width as i64, t + c.height() as i64)
            })
        })
        .filter(|b| b.2 > b.0)
        .collect();
    let Some(x0) = boxes.iter().map(|b| b.0).min() else {
        return;
    };
    let pad = i64::from(r.min(255));
    let (x0, y0) = (x0 - pad, boxes.iter().map(|b| b.1).min().unwrap_or(0) - pad);
    let x1 = boxes.iter().map(|b| b.2).max().unwrap_or(x0) + pad;
    let y1 = boxes.iter().map(|b| b.3).max().unwrap_or(y0) + pad;
    let mut mask = GrayImage::new((x1 - x0) as u32, (y1 - y0) as u32);
    let stride = (x1 - x0) as usize;
    let cells: &mut [u8] = &mut mask;
    for &(x, y, key) in placed {
        with_coverage(font, key, |c| {
            // Within the mask, whose box holds every glyph's.
            let mx = (x + c.left - x0) as usize;
            for (cy, row) in c.rows() {
                let at = (y + c.top + cy - y0) as usize * stride + mx;
                for (m, &v) in cells[at..at + row.len()].iter_mut().zip(row) {
                    *m = m.saturating_add(v);
                }
            }
        });
    }
    let grown = grayscale_dilate(&mask, &Mask::square(r.min(255) as u8));
    // A colour through a coverage mask: imageproc has no such fill.
    for (my, row) in grown.as_raw().chunks_exact(stride).enumerate() {
        blend_coverage_row(img, x0, y0 + my as i64, row, colour);
    }
}

/// Draws one line with its top (the ascent line) at `y`; `x` is the left edge, centre or right
/// edge by `align`. Returns the advance width.
pub fn draw_text(
    img: &mut RgbaImage,
    style: &Style,
    x: f32,
    y: f32,
    align: Align,
    text: &str,
) -> f32 {
    let width = text_width(style.weight, style.size, text);
    let left = match align {
        Align::Left => x,
        Align::Centre => x - width / 2.0,
        Align::Right => x - width,
    };
    let baseline = y + ascent(style.weight, style.size);
    draw_glyphs(img, style, text, Pt::new(left, baseline));
    width
}

/// Draws one line whose inked pixels are centred on `c`: the right way to put a number in a
/// disc, whatever the glyphs' ascent and descent.
pub fn draw_text_centred(img: &mut RgbaImage, style: &Style, c: Pt, text: &str) {
    let Some(font) = font(style.weight) else {
        return;
    };
    let mut bounds: Option<(i64, i64, i64, i64)> = None;
    for (x, y, key) in place(style.weight, style.size, text, Pt::new(0.0, 0.0)) {
        with_coverage(font, key, |g| {
            if g.width > 0 {
                let (l, t) = (x + g.left, y + g.top);
                let (r, b) = (l + g.width as i64, t + g.height() as i64);
                bounds = Some(bounds.map_or((l, t, r, b), |(a, b0, c0, d)| {
                    (a.min(l), b0.min(t), c0.max(r), d.max(b))
                }));
            }
        });
    }
    let Some((x0, y0, x1, y1)) = bounds else {
        return;
    };
    // The glyphs were placed on a baseline at y = 0 from x = 0.
    let origin = Pt::new(c.x - (x0 + x1) as f32 / 2.0, c.y - (y0 + y1) as f32 / 2.0);
    draw_glyphs(img, style, text, origin);
}

#[cfg(test)]
mod tests {
    use super::*;

    const BLACK: Rgba<u8> = Rgba([0, 0, 0, 255]);
    const WHITE: Rgba<u8> = Rgba([255, 255, 255, 255]);

    #[test]
    fn both_embedded_faces_load() {
        assert!(font(Weight::Regular).is_some());
        assert!(font(Weight::Bold).is_some());
    }

    #[test]
    fn widths_grow_with_text_and_weight() {
        let one = text_width(Weight::Regular, 20.0, "8");
        let two = text_width(Weight::Regular, 20.0, "88");
        assert!(one > 8.0 && one < 16.0, "{one}");
        assert!((two - 2.0 * one).abs() < 0.01);
        assert!(
            text_width(Weight::Bold, 20.0, "Round") > text_width(Weight::Regular, 20.0, "Round")
        );
        assert_eq!(text_width(Weight::Bold, 20.0, ""), 0.0);
    }

    #[test]
    fn wrap_breaks_between_words() {
        let w = text_width(Weight::Regular, 20.0, "alpha beta");
        let lines = wrap(Weight::Regular, 20.0, "alpha beta gamma", w + 1.0);
        assert_eq!(lines, vec!["alpha beta".to_string(), "gamma".to_string()]);
        assert_eq!(
            wrap(Weight::Regular, 20.0, "  ", 100.0),
            Vec::<String>::new()
        );
    }

    #[test]
    fn french_accents_have_glyphs() {
        let f = font(Weight::Regular).unwrap();
        for ch in "éèàçùôÉ—×".chars() {
            assert_ne!(f.glyph_id(ch).0, 0, "no glyph for {ch}");
        }
    }

    #[test]
    fn centred_text_inks_around_the_point() {
        let mut img = RgbaImage::from_pixel(60, 60, WHITE);
        draw_text_centred(
            &mut img,
            &Style::new(Weight::Bold, 30.0, BLACK),
            Pt::new(30.0, 30.0),
            "8",
        );
        let inked: Vec<(u32, u32)> = img
            .enumerate_pixels()
            .filter(|(_, _, p)| p[0] < 128)
            .map(|(x, y, _)| (x, y))
            .collect();
        let n = inked.len() as f32;
        let cx = inked.iter().map(|p| p.0 as f32).sum::<f32>() / n;
        let cy = inked.iter().map(|p| p.1 as f32).sum::<f32>() / n;
        assert!(
            (cx - 29.5).abs() < 1.5 && (cy - 29.5).abs() < 1.5,
            "{cx},{cy}"
        );
    }

    #[test]
    fn halo_paints_around_the_glyphs() {
        let style = Style::new(Weight::Bold, 20.0, BLACK).halo(Rgba([255, 0, 0, 255]), 2);
        let mut img = RgbaImage::from_pixel(80, 40, WHITE);
        draw_text(&mut img, &style, 10.0, 10.0, Align::Left, "I");
        assert!(img.pixels().any(|p| *p == Rgba([255, 0, 0, 255])));
        assert!(img.pixels().any(|p| *p == BLACK));
    }
}
