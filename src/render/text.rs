//! Text with the embedded DejaVu Sans faces: measuring, wrapping, aligned drawing and an
//! optional halo (a dilated copy behind the glyphs) that keeps labels readable on any
//! background.

use std::sync::OnceLock;

use ab_glyph::{point, Font, FontRef, Glyph, PxScale, ScaleFont};
use image::{Rgba, RgbaImage};

use super::shapes::{blend, Pt};

static REGULAR_TTF: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans.ttf");
static BOLD_TTF: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans-Bold.ttf");

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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

/// A coverage mask of rasterized text, placed at `(x0, y0)` in image pixels.
struct Mask {
    x0: i64,
    y0: i64,
    w: usize,
    h: usize,
    data: Vec<f32>,
}

fn rasterize(glyphs: Vec<Glyph>, weight: Weight, origin: Pt, pad: usize) -> Option<Mask> {
    let font = font(weight)?;
    let outlined: Vec<_> = glyphs
        .into_iter()
        .filter_map(|mut g| {
            g.position = point(g.position.x + origin.x, g.position.y + origin.y);
            font.outline_glyph(g)
        })
        .collect();
    let first = outlined.first()?.px_bounds();
    let (mut minx, mut miny, mut maxx, mut maxy) =
        (first.min.x, first.min.y, first.max.x, first.max.y);
    for g in &outlined {
        let b = g.px_bounds();
        minx = minx.min(b.min.x);
        miny = miny.min(b.min.y);
        maxx = maxx.max(b.max.x);
        maxy = maxy.max(b.max.y);
    }
    let p = pad as i64;
    let x0 = minx.floor() as i64 - p;
    let y0 = miny.floor() as i64 - p;
    let w = (maxx.ceil() as i64 - x0 + p).max(1) as usize;
    let h = (maxy.ceil() as i64 - y0 + p).max(1) as usize;
    let mut data = vec![0.0f32; w * h];
    for g in &outlined {
        let b = g.px_bounds();
        let gx = b.min.x as i64 - x0;
        let gy = b.min.y as i64 - y0;
        g.draw(|x, y, c| {
            let px = gx + i64::from(x);
            let py = gy + i64::from(y);
            if px >= 0 && py >= 0 && (px as usize) < w && (py as usize) < h {
                let i = py as usize * w + px as usize;
                data[i] = (data[i] + c).min(1.0);
            }
        });
    }
    Some(Mask { x0, y0, w, h, data })
}

/// Square dilation by `r` pixels, done as two separable max passes (cheap for small radii).
fn dilate(mask: &Mask, r: usize) -> Vec<f32> {
    let (w, h) = (mask.w, mask.h);
    let mut tmp = vec![0.0f32; w * h];
    for y in 0..h {
        for x in 0..w {
            let lo = x.saturating_sub(r);
            let hi = (x + r).min(w - 1);
            let row = &mask.data[y * w + lo..=y * w + hi];
            tmp[y * w + x] = row.iter().copied().fold(0.0, f32::max);
        }
    }
    let mut out = vec![0.0f32; w * h];
    for y in 0..h {
        let lo = y.saturating_sub(r);
        let hi = (y + r).min(h - 1);
        for x in 0..w {
            out[y * w + x] = (lo..=hi).map(|yy| tmp[yy * w + x]).fold(0.0, f32::max);
        }
    }
    out
}

fn paint(img: &mut RgbaImage, mask: &Mask, data: &[f32], colour: Rgba<u8>) {
    for y in 0..mask.h {
        for x in 0..mask.w {
            let c = data[y * mask.w + x];
            if c > 0.0 {
                blend(img, mask.x0 + x as i64, mask.y0 + y as i64, colour, c);
            }
        }
    }
}

fn draw_glyphs(img: &mut RgbaImage, style: &Style, glyphs: Vec<Glyph>, origin: Pt) {
    let r = style.halo.map_or(0, |(_, r)| r as usize);
    let Some(mask) = rasterize(glyphs, style.weight, origin, r) else {
        return;
    };
    if let Some((halo, _)) = style.halo {
        let d = dilate(&mask, r);
        paint(img, &mask, &d, halo);
    }
    paint(img, &mask, &mask.data, style.colour);
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
    let (glyphs, width) = layout(style.weight, style.size, text);
    let left = match align {
        Align::Left => x,
        Align::Centre => x - width / 2.0,
        Align::Right => x - width,
    };
    let baseline = y + ascent(style.weight, style.size);
    draw_glyphs(img, style, glyphs, Pt::new(left, baseline));
    width
}

/// Draws one line whose inked pixels are centred on `c`: the right way to put a number in a
/// disc, whatever the glyphs' ascent and descent.
pub fn draw_text_centred(img: &mut RgbaImage, style: &Style, c: Pt, text: &str) {
    let Some(font) = font(style.weight) else {
        return;
    };
    let (glyphs, _) = layout(style.weight, style.size, text);
    let mut bounds: Option<(f32, f32, f32, f32)> = None;
    for g in &glyphs {
        if let Some(o) = font.outline_glyph(g.clone()) {
            let b = o.px_bounds();
            bounds = Some(match bounds {
                None => (b.min.x, b.min.y, b.max.x, b.max.y),
                Some((a, b0, c0, d)) => (
                    a.min(b.min.x),
                    b0.min(b.min.y),
                    c0.max(b.max.x),
                    d.max(b.max.y),
                ),
            });
        }
    }
    let Some((x0, y0, x1, y1)) = bounds else {
        return;
    };
    let origin = Pt::new(c.x - (x0 + x1) / 2.0, c.y - (y0 + y1) / 2.0);
    draw_glyphs(img, style, glyphs, origin);
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
