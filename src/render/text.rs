//! Text with the embedded faces (DejaVu Sans, and the fallbacks of [`super::fonts`] for the
//! scripts and emoji it lacks): measuring, fitting, wrapping, aligned drawing and an optional
//! halo (a dilated copy behind the glyphs, grown by imageproc's `grayscale_dilate`) that keeps
//! labels readable on any background.
//!
//! Glyphs are rasterised by ab_glyph once per face, size and quarter-pixel offset and kept
//! (per thread): a board draws the same few dozen glyphs hundreds of times. imageproc gap:
//! `draw_text_mut` rasterises every glyph anew, starts a line on a whole pixel and looks
//! kerning pairs up reversed, after the pair (DejaVu kerns "To" by 2.6 px at 18 px, "oT" not
//! at all); DECISIONS.md ("Board drawing") has the measurements.
//!
//! Fitting and wrapping measure each character about once (issue 38: cutting a name one
//! character at a time and measuring the rest anew was quadratic, seconds for a long name), and
//! no line is laid out past [`MOST_CHARS`] characters.

use std::cell::RefCell;
use std::collections::HashMap;

use ab_glyph::{point, Font, FontRef, GlyphId, PxScale, ScaleFont};
use image::{GrayImage, Rgba, RgbaImage};
use imageproc::morphology::{grayscale_dilate, Mask};

use super::fonts;
use super::shapes::{blend_coverage_row, Pt};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Weight {
    Regular,
    Bold,
}

/// The embedded DejaVu face; `None` only if the embedded file were corrupt (a test checks it is
/// not), in which case text is skipped rather than crashing the bot.
pub fn font(weight: Weight) -> Option<&'static FontRef<'static>> {
    fonts::face(dejavu(weight)).map(|f| &f.font)
}

fn dejavu(weight: Weight) -> u8 {
    match weight {
        Weight::Regular => fonts::REGULAR,
        Weight::Bold => fonts::BOLD,
    }
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

/// A glyph placed on a line.
#[derive(Clone, Copy, Debug)]
pub struct Placed {
    /// Index of its face ([`fonts::face`]).
    pub face: u8,
    /// Drawn thickened: bold text in a face with no bold.
    pub thicken: bool,
    /// ab_glyph's scale for the face.
    pub scale: f32,
    pub id: GlyphId,
    /// Pen position, baseline at y = 0.
    pub x: f32,
    pub y: f32,
    /// Byte index in the text of the character (cluster) it draws.
    pub cluster: usize,
    /// How far it moves the pen.
    pub advance: f32,
}

/// No line is laid out past this many characters (a board's widest line holds a few hundred):
/// a longer text is cut, so that a 100,000-character name costs what a line costs.
pub const MOST_CHARS: usize = 4096;

/// `text` cut at [`MOST_CHARS`] characters.
fn bounded(text: &str) -> &str {
    match text.char_indices().nth(MOST_CHARS) {
        Some((i, _)) => &text[..i],
        None => text,
    }
}

/// The words a line may break between: split at whitespace, except a no-break space (U+00A0,
/// U+202F), which holds its neighbours together ("R1\u{a0}:\u{a0}3" never breaks, issue 38).
fn words(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| c.is_whitespace() && c != '\u{a0}' && c != '\u{202f}')
        .filter(|w| !w.is_empty())
}

/// Whether DejaVu sets all of `text` alone, left to right (the plain layout below).
fn simple(weight: Weight, text: &str) -> bool {
    font(weight).is_none_or(|f| {
        text.chars()
            .all(|c| fonts::plain(c) && f.glyph_id(c).0 != 0)
    })
}

/// Glyphs positioned on a baseline at y = 0 starting at x = 0, and the advance width. Text
/// DejaVu sets alone goes glyph by glyph with its kerning, as it always has; the rest is
/// shaped ([`fonts::shape`]: fallback faces, right to left, joined and combined).
fn layout(weight: Weight, size: f32, text: &str) -> (Vec<Placed>, f32) {
    let text = bounded(text);
    let Some(font) = font(weight) else {
        return (Vec::new(), 0.0);
    };
    if !simple(weight, text) {
        return fonts::shape(weight, size, text);
    }
    let scaled = font.as_scaled(PxScale::from(size));
    let mut glyphs = Vec::with_capacity(text.len());
    let mut x = 0.0f32;
    let mut prev = None;
    for (i, ch) in text.char_indices() {
        let id = scaled.glyph_id(ch);
        let start = x;
        if let Some(p) = prev {
            x += scaled.kern(p, id);
        }
        glyphs.push(Placed {
            face: dejavu(weight),
            thicken: false,
            scale: size,
            id,
            x,
            y: 0.0,
            cluster: i,
            advance: 0.0,
        });
        x += scaled.h_advance(id);
        if let Some(g) = glyphs.last_mut() {
            g.advance = x - start;
        }
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

/// A pen running along a line: the advance so far and the last glyph (for kerning). Adding
/// characters one by one gives exactly the width [`layout`] gives the whole string (the same
/// additions in the same order), so fitting and wrapping measure each character once.
struct Pen<'f> {
    font: Option<ab_glyph::PxScaleFont<&'f FontRef<'static>>>,
    x: f32,
    prev: Option<GlyphId>,
}

impl Pen<'static> {
    fn new(weight: Weight, size: f32) -> Pen<'static> {
        Pen {
            font: font(weight).map(|f| f.as_scaled(PxScale::from(size))),
            x: 0.0,
            prev: None,
        }
    }
}

impl Pen<'_> {
    /// The advance after `ch`.
    fn push(&mut self, ch: char) -> f32 {
        if let Some(scaled) = &self.font {
            let id = scaled.glyph_id(ch);
            if let Some(p) = self.prev {
                self.x += scaled.kern(p, id);
            }
            self.x += scaled.h_advance(id);
            self.prev = Some(id);
        }
        self.x
    }
    fn push_str(&mut self, s: &str) -> f32 {
        s.chars().for_each(|c| {
            self.push(c);
        });
        self.x
    }
    fn clear(&mut self) {
        self.x = 0.0;
        self.prev = None;
    }
}

/// Pen positions after each character of `text` (byte index after the character, advance),
/// stopping at the first beyond `limit`: what [`fit`] needs, in one pass however long the text.
pub fn prefix_widths(weight: Weight, size: f32, text: &str, limit: f32) -> Vec<(usize, f32)> {
    if !simple(weight, text) {
        return shaped_prefix_widths(weight, size, text, limit);
    }
    let mut pen = Pen::new(weight, size);
    let mut out = Vec::new();
    for (i, ch) in text.char_indices() {
        let x = pen.push(ch);
        out.push((i + ch.len_utf8(), x));
        if x > limit {
            break;
        }
    }
    out
}

/// The ellipsis that ends a cut text.
pub const ELLIPSIS: char = '…';

/// `text` if it fits `max_width`, else its longest beginning that fits with "…" after it
/// (only "…", or nothing, when even that is too wide). Linear in the part that fits: a
/// 100,000-character name costs what a line of it costs.
pub fn fit(weight: Weight, size: f32, text: &str, max_width: f32) -> String {
    if !simple(weight, text) {
        return fit_shaped(weight, size, text, max_width);
    }
    // Kerning never gives back two ems, so nothing past this can fit again.
    let limit = max_width + 2.0 * size;
    let widths = prefix_widths(weight, size, text, limit);
    if widths
        .last()
        .is_none_or(|&(end, w)| end == text.len() && w <= max_width)
    {
        return text.to_string();
    }
    // The longest beginning, shortest text first cut off, that fits with the ellipsis; the
    // pen after the beginning goes on with the ellipsis as a whole layout would.
    for k in (0..widths.len()).rev() {
        let (end, head) = if k == 0 {
            (0, "")
        } else {
            (widths[k - 1].0, &text[..widths[k - 1].0])
        };
        let mut pen = Pen::new(weight, size);
        if let (Some(scaled), Some(last)) = (&pen.font, head.chars().next_back()) {
            pen.prev = Some(scaled.glyph_id(last));
        }
        pen.x = if k == 0 { 0.0 } else { widths[k - 1].1 };
        if pen.push(ELLIPSIS) <= max_width {
            return format!("{}{ELLIPSIS}", &text[..end]);
        }
    }
    String::new()
}

/// A word up to this many lines wide stays whole on a line of its own, as it always has (a
/// card's hint a little wider than its cell); a longer one (a long name) is cut.
const LONG_WORD: f32 = 2.0;

/// Greedy word wrap to lines no wider than `max_width`; a word over [`LONG_WORD`] lines long
/// is cut with "…" ([`fit`]) to one line. Each character is measured once or twice, so a long text (a long
/// name in a status line) costs linear time.
pub fn wrap(weight: Weight, size: f32, text: &str, max_width: f32) -> Vec<String> {
    if !simple(weight, text) {
        return wrap_shaped(weight, size, text, max_width);
    }
    let mut lines = Vec::new();
    let mut line = String::new();
    // The pen at the end of `line`, and one for a word alone.
    let mut pen = Pen::new(weight, size);
    let mut alone = Pen::new(weight, size);
    for word in words(text) {
        alone.clear();
        if alone.push_str(word) > max_width * LONG_WORD {
            // Never wider than a line: cut, on a line of its own.
            if !line.is_empty() {
                lines.push(std::mem::take(&mut line));
            }
            lines.push(fit(weight, size, word, max_width));
            pen.clear();
            continue;
        }
        if line.is_empty() {
            line.push_str(word);
            pen.clear();
            pen.push_str(word);
            continue;
        }
        // The candidate "line word" measured from the line's pen: the same sum as a layout
        // of the whole candidate.
        let mut candidate = Pen {
            font: pen.font,
            x: pen.x,
            prev: pen.prev,
        };
        candidate.push(' ');
        if candidate.push_str(word) > max_width {
            lines.push(std::mem::replace(&mut line, word.to_string()));
            pen.clear();
            pen.push_str(word);
        } else {
            line.push(' ');
            line.push_str(word);
            pen = candidate;
        }
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// Where shaped text may be cut: not before a mark, joiner, selector or skin tone, nor after a
/// joiner (an emoji sequence or a letter with its accents stays whole).
fn cut_points(text: &str) -> Vec<usize> {
    let mut out = vec![0];
    let mut prev = None;
    for (i, c) in text.char_indices() {
        if i > 0 && !fonts::attached(c) && prev != Some('\u{200D}') {
            out.push(i);
        }
        prev = Some(c);
    }
    out.push(text.len());
    out.dedup();
    out
}

/// The width of each beginning of shaped text, from one layout: the advances of the glyphs of
/// the characters before each byte index (`widths[i]` for `text[..i]`, logical order whatever
/// the direction).
fn widths_before(weight: Weight, size: f32, text: &str) -> Vec<f32> {
    let (glyphs, _) = layout(weight, size, text);
    let mut at = vec![0.0f32; text.len() + 1];
    for g in glyphs {
        if let Some(a) = at.get_mut(g.cluster + 1) {
            *a += g.advance;
        }
    }
    let mut sum = 0.0;
    for a in &mut at {
        sum += *a;
        *a = sum;
    }
    at
}

/// [`prefix_widths`] for shaped text (the widths one layout gives each beginning).
fn shaped_prefix_widths(weight: Weight, size: f32, text: &str, limit: f32) -> Vec<(usize, f32)> {
    let text = bounded(text);
    let before = widths_before(weight, size, text);
    let mut out = Vec::new();
    for (i, c) in text.char_indices() {
        let end = i + c.len_utf8();
        let w = before.get(end).copied().unwrap_or(0.0);
        out.push((end, w));
        if w > limit {
            break;
        }
    }
    out
}

/// [`fit`] for shaped text: the beginnings' widths from one layout, then the cut checked by a
/// layout of its own (shaping may change a letter's form at the cut), stepping back if needed.
fn fit_shaped(weight: Weight, size: f32, text: &str, max_width: f32) -> String {
    // Nothing past this can fit: every character that shows is wider than a fifth of an em
    // (bar a few marks on each).
    let most = ((max_width.max(0.0) / (size * 0.2)) as usize)
        .saturating_mul(4)
        .saturating_add(16)
        .min(MOST_CHARS);
    let head = match text.char_indices().nth(most) {
        Some((i, _)) => &text[..i],
        None => text,
    };
    if head.len() == text.len() && text_width(weight, size, text) <= max_width {
        return text.to_string();
    }
    let before = widths_before(weight, size, head);
    let ellipsis = text_width(weight, size, "…");
    for &cut in cut_points(head).iter().rev() {
        if cut == text.len() {
            continue;
        }
        if before.get(cut).copied().unwrap_or(0.0) + ellipsis > max_width {
            continue;
        }
        let candidate = format!("{}{ELLIPSIS}", head[..cut].trim_end());
        if text_width(weight, size, &candidate) <= max_width {
            return candidate;
        }
    }
    String::new()
}

/// [`wrap`] for shaped text: each word measured alone, a space between (linear too).
fn wrap_shaped(weight: Weight, size: f32, text: &str, max_width: f32) -> Vec<String> {
    let space = text_width(weight, size, " ");
    let mut lines = Vec::new();
    let mut line = String::new();
    let mut line_w = 0.0;
    for word in words(text) {
        let w = text_width(weight, size, word);
        if w > max_width * LONG_WORD {
            if !line.is_empty() {
                lines.push(std::mem::take(&mut line));
            }
            lines.push(fit(weight, size, word, max_width));
            continue;
        }
        if line.is_empty() {
            line.push_str(word);
            line_w = w;
        } else if line_w + space + w > max_width {
            lines.push(std::mem::replace(&mut line, word.to_string()));
            line_w = w;
        } else {
            line.push(' ');
            line.push_str(word);
            line_w += space + w;
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
    face: u8,
    thicken: bool,
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
fn with_coverage<R>(key: Key, f: impl FnOnce(&Coverage) -> R) -> R {
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
            let outlined = fonts::face(key.face).and_then(|face| face.font.outline_glyph(glyph));
            let coverage = match outlined {
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
            let coverage = if key.thicken {
                thickened(coverage, f32::from_bits(key.size))
            } else {
                coverage
            };
            cache.insert(key, coverage);
        }
        f(&cache[&key])
    })
}

/// Coverage smeared a pixel or two to the right: bold for a face with no bold of its own.
fn thickened(c: Coverage, size: f32) -> Coverage {
    let extra = if size < 28.0 { 1 } else { 2 };
    let height = c.height();
    if c.width == 0 {
        return c;
    }
    let width = c.width + extra;
    let mut data = vec![0u8; width * height];
    for (y, row) in c.data.chunks_exact(c.width).enumerate() {
        let out = &mut data[y * width..(y + 1) * width];
        for (x, &v) in row.iter().enumerate() {
            for o in &mut out[x..=x + extra] {
                *o = (*o).max(v);
            }
        }
    }
    Coverage {
        left: c.left,
        top: c.top,
        width,
        data,
    }
}

/// Where each glyph of a line goes: its pen's whole pixel and its cache key. Glyph 0 (a face's
/// empty box for a missing character) is never drawn.
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
        .filter(|g| g.id.0 != 0)
        .map(|g| {
            let (x, dx) = split(origin.x + g.x);
            let (y, dy) = split(origin.y + g.y);
            let key = Key {
                face: g.face,
                thicken: g.thicken,
                size: g.scale.to_bits(),
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
    let placed = place(style.weight, style.size, text, origin);
    if let Some((colour, r)) = style.halo {
        halo(img, &placed, colour, r);
    }
    for &(x, y, key) in &placed {
        with_coverage(key, |c| {
            for (cy, row) in c.rows() {
                blend_coverage_row(img, x + c.left, y + c.top + cy, row, style.colour);
            }
        });
    }
}

/// Paints the glyphs grown by `r` pixels (a square dilation of their coverage) in `colour`.
fn halo(img: &mut RgbaImage, placed: &[(i64, i64, Key)], colour: Rgba<u8>, r: u32) {
    let boxes: Vec<(i64, i64, i64, i64)> = placed
        .iter()
        .map(|&(x, y, key)| {
            with_coverage(key, |c| {
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
        with_coverage(key, |c| {
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
    let mut bounds: Option<(i64, i64, i64, i64)> = None;
    for (x, y, key) in place(style.weight, style.size, text, Pt::new(0.0, 0.0)) {
        with_coverage(key, |g| {
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
    fn wrap_never_breaks_at_a_no_break_space() {
        let item = "R1\u{a0}:\u{a0}3";
        let text = [item; 6].join(" · ");
        let w = text_width(Weight::Regular, 15.0, &text) / 2.5;
        let lines = wrap(Weight::Regular, 15.0, &text, w);
        assert!(lines.len() > 1);
        for l in &lines {
            assert_eq!(
                l.matches(item).count(),
                l.matches("R1").count(),
                "{lines:?}"
            );
        }
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

    /// The cut as it was made before: one character off the end at a time, the whole
    /// candidate measured each time (quadratic, kept here as the reference).
    fn fit_by_popping(weight: Weight, size: f32, text: &str, max_width: f32) -> String {
        if text_width(weight, size, text) <= max_width {
            return text.to_string();
        }
        let mut chars: Vec<char> = text.chars().collect();
        while !chars.is_empty() {
            chars.pop();
            let s: String = chars.iter().collect::<String>() + "…";
            if text_width(weight, size, &s) <= max_width {
                return s;
            }
        }
        String::new()
    }

    #[test]
    fn fit_cuts_where_the_old_cut_did() {
        for text in [
            "Ann",
            "To To To",
            "A very long display name indeed",
            "WAVY Tokyo",
            "",
        ] {
            for max in [0.0, 5.0, 12.0, 30.0, 47.5, 80.0, 140.0, 400.0] {
                for weight in [Weight::Regular, Weight::Bold] {
                    assert_eq!(
                        fit(weight, 16.0, text, max),
                        fit_by_popping(weight, 16.0, text, max),
                        "{text:?} in {max}"
                    );
                }
            }
        }
    }

    #[test]
    fn a_huge_name_is_cut_with_an_ellipsis() {
        let name = "Zoë".repeat(100_000 / 3 + 1);
        let cut = fit(Weight::Bold, 20.0, &name, 200.0);
        assert!(cut.ends_with(ELLIPSIS), "{cut}");
        assert!(cut.chars().count() < 40, "{cut}");
        assert!(text_width(Weight::Bold, 20.0, &cut) <= 200.0);
        // One word as long: wrapped, it is cut on a line of its own, never drawn whole.
        let text = format!("{name} wins the game");
        let lines = wrap(Weight::Regular, 20.0, &text, 300.0);
        assert_eq!(lines.len(), 2, "{lines:?}");
        assert!(lines[0].ends_with(ELLIPSIS));
        assert_eq!(lines[1], "wins the game");
        assert!(lines
            .iter()
            .all(|l| text_width(Weight::Regular, 20.0, l) <= 300.0));
    }

    #[test]
    fn wrap_gives_the_lines_whole_measures_would() {
        let text = "To be or not to be, that is the question: whether 'tis nobler in the mind";
        for max in [80.0, 100.0, 150.0, 233.0, 500.0] {
            let lines = wrap(Weight::Regular, 17.0, text, max);
            assert_eq!(lines.join(" "), text);
            for pair in lines.windows(2) {
                let longer = format!("{} {}", pair[0], pair[1].split(' ').next().unwrap());
                assert!(
                    text_width(Weight::Regular, 17.0, &longer) > max,
                    "{lines:?}"
                );
                assert!(text_width(Weight::Regular, 17.0, &pair[0]) <= max);
            }
        }
    }

    #[test]
    fn every_embedded_face_loads() {
        for i in 0..fonts::face_count() {
            assert!(fonts::face(i).is_some(), "face {i}");
        }
    }

    /// Ink of `text` drawn black on white.
    fn drawn(weight: Weight, text: &str) -> RgbaImage {
        let mut img = RgbaImage::from_pixel(360, 50, WHITE);
        draw_text(
            &mut img,
            &Style::new(weight, 22.0, BLACK),
            4.0,
            8.0,
            Align::Left,
            text,
        );
        img
    }

    #[test]
    fn names_in_other_scripts_draw_their_own_glyphs() {
        // Two Japanese names of one length were the same row of boxes.
        assert_ne!(
            drawn(Weight::Bold, "山田花子"),
            drawn(Weight::Bold, "川田花子")
        );
        assert_ne!(
            drawn(Weight::Regular, "김민준"),
            drawn(Weight::Regular, "김민수")
        );
        assert_ne!(
            drawn(Weight::Regular, "अर्जुन"),
            drawn(Weight::Regular, "अर्चना")
        );
        for text in [
            "山田 花子",
            "محمد علي",
            "अर्जुन शर्मा",
            "דוד כהן",
            "김민준",
            "สมชาย",
            "தமிழ்",
            "Zoë 🦊✨👍🏽",
            "👨‍👩‍👧 ❤️",
        ] {
            for weight in [Weight::Regular, Weight::Bold] {
                let (glyphs, width) = layout(weight, 20.0, text);
                assert!(width > 10.0, "{text}");
                assert!(
                    glyphs.iter().all(|g| g.id.0 != 0),
                    "{text}: a missing glyph"
                );
                assert!(drawn(weight, text).pixels().any(|p| p[0] < 100), "{text}");
            }
        }
        // Bold text in a face with no bold is thickened: more ink.
        let ink = |img: RgbaImage| img.pixels().filter(|p| p[0] < 128).count();
        assert!(ink(drawn(Weight::Bold, "山田花子")) > ink(drawn(Weight::Regular, "山田花子")));
    }

    #[test]
    fn arabic_is_joined_and_runs_right_to_left() {
        let word = "محمد";
        let (glyphs, _) = layout(Weight::Regular, 20.0, word);
        // Right to left: the first letter (cluster 0) is drawn rightmost.
        let first = glyphs.iter().find(|g| g.cluster == 0).unwrap();
        assert!(glyphs.iter().all(|g| g.x <= first.x), "{glyphs:?}");
        // Joined: a letter inside the word takes another form than alone.
        let alone: Vec<GlyphId> = word
            .chars()
            .map(|c| layout(Weight::Regular, 20.0, &c.to_string()).0[0].id)
            .collect();
        let mut joined: Vec<GlyphId> = glyphs.iter().map(|g| g.id).collect();
        joined.reverse();
        assert_ne!(joined, alone);
        // In a left-to-right line, an Arabic name keeps its place and its own order.
        let (line, _) = layout(Weight::Regular, 20.0, "Ann محمد wins");
        let x_of = |i: usize| {
            line.iter()
                .filter(|g| g.cluster <= i)
                .max_by_key(|g| g.cluster)
                .unwrap()
                .x
        };
        let (m, w) = ("Ann ".len(), "Ann محمد ".len());
        assert!(x_of(0) < x_of(m) && x_of(m) < x_of(w));
        assert!(x_of(m) > x_of(m + "محم".len()));
    }

    #[test]
    fn a_character_no_face_has_gets_its_code_as_a_stand_in() {
        let (glyphs, width) = layout(Weight::Regular, 20.0, "\u{E123}");
        let digits = font(Weight::Regular)
            .map(|f| ["E", "1", "2", "3"].map(|d| f.glyph_id(d.chars().next().unwrap())));
        assert_eq!(
            Some(
                glyphs
                    .iter()
                    .map(|g| g.id)
                    .collect::<Vec<_>>()
                    .try_into()
                    .unwrap()
            ),
            digits
        );
        assert!(width > 8.0);
        assert_ne!(
            drawn(Weight::Regular, "a\u{E123}"),
            drawn(Weight::Regular, "a\u{E124}")
        );
        // Joiners and selectors with no glyph are drawn as nothing.
        assert_eq!(text_width(Weight::Regular, 20.0, "\u{2066}"), 0.0);
    }

    #[test]
    fn huge_names_in_other_scripts_are_cut_too() {
        for unit in ["山", "ح", "क्ष", "🦊"] {
            let name = unit.repeat(100_000);
            let cut = fit(Weight::Bold, 20.0, &name, 200.0);
            assert!(cut.ends_with(ELLIPSIS), "{cut}");
            assert!(text_width(Weight::Bold, 20.0, &cut) <= 200.0, "{cut}");
            assert!(cut.chars().count() > 3, "{cut}");
            let lines = wrap(Weight::Regular, 20.0, &format!("{name} wins"), 300.0);
            assert_eq!(lines.len(), 2);
            assert!(lines[0].ends_with(ELLIPSIS));
            // Drawing one whole is bounded too.
            assert!(text_width(Weight::Regular, 20.0, &name) > 0.0);
        }
        // A cut never splits a letter from its accent or an emoji sequence.
        let cut = fit(Weight::Regular, 20.0, &"👍🏽".repeat(50), 100.0);
        assert!(!cut.trim_end_matches(ELLIPSIS).ends_with('👍'), "{cut}");
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
