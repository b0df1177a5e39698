//! Shared drawing helpers for every game's board image. Pure: in-memory images only; PNG
//! encoding happens at the edge (`service::encode_png`).
//!
//! - [`shapes`]: anti-aliased discs, rings, dashed and dotted lines, arrows, cones, boxes and
//!   rectangles (our stepped distance fill and row fills, where imageproc has no equivalent or
//!   measured slower); crisp polygons (imageproc);
//! - [`text`]: measuring, fitting (linear, cut with "…"), wrapping, halos (imageproc's
//!   `grayscale_dilate`); glyph coverage kept per face, size and quarter-pixel offset;
//! - [`fonts`]: the embedded faces (DejaVu Sans, Noto Sans per script, WenQuanYi Micro Hei,
//!   Noto Emoji), the face of each character, right-to-left runs and shaping (rustybuzz);
//! - [`palette`]: colour-blind-safe seat colours, contrast, seat letters;
//! - [`frame`]: the header (name and number, turn or result, seats) and footer (legend) every
//!   board sits between;
//! - [`panel`]: seat tokens, legend box, score table, pool chips;
//! - [`quantize`]: the board reduced to a 256-colour palette for the PNG at the edge;
//! - [`result`]: the result card of a finished game;
//! - [`zoom`]: the parts of a board a phone player needs, cut at full size and stacked;
//! - [`layers`]: a board's layout-only layers, drawn once per layout and copied.

pub mod anim;
pub mod fonts;
pub mod frame;
pub mod layers;
pub mod palette;
pub mod panel;
pub mod profile;
pub mod quantize;
pub mod result;
pub mod shapes;
pub mod text;
pub mod zoom;

pub use shapes::Pt;

/// A `width` × `height` image filled with `colour`: the pixel copied by doubling, without
/// `RgbaImage::from_pixel`'s zeroing pass before its fill (a board is 5 MB written once, not
/// twice).
pub fn canvas(width: u32, height: u32, colour: image::Rgba<u8>) -> image::RgbaImage {
    let pixels = width as usize * height as usize;
    let raw = colour.0.repeat(pixels);
    image::RgbaImage::from_raw(width, height, raw)
        .unwrap_or_else(|| image::RgbaImage::from_pixel(width, height, colour))
}

/// Rounds every colour channel of the image to a multiple of 16 as `(b + 8) & !15` saturating
/// would (255 gives 240), alpha untouched: Vortex's snap to 16 levels, whose anti-aliased
/// edges then compress far better. Sixteen bytes a step, each with its lane's constants.
pub fn snap_to_16_levels(img: &mut image::RgbaImage) {
    const ADD: [u8; 16] = [8, 8, 8, 0, 8, 8, 8, 0, 8, 8, 8, 0, 8, 8, 8, 0];
    const KEEP: [u8; 16] = [
        0xF0, 0xF0, 0xF0, 0xFF, 0xF0, 0xF0, 0xF0, 0xFF, 0xF0, 0xF0, 0xF0, 0xFF, 0xF0, 0xF0, 0xF0,
        0xFF,
    ];
    // Hidden from the optimiser, which otherwise sees the alpha lanes do nothing and goes byte
    // by byte; as unknown lanes the step is one saturating add and one and on a vector (half
    // the time of the 64-bit word loop this replaces, measured on a 1400 × 900 image).
    let (add, keep) = (std::hint::black_box(ADD), std::hint::black_box(KEEP));
    let buf: &mut [u8] = img;
    let mut chunks = buf.chunks_exact_mut(16);
    for chunk in &mut chunks {
        for ((b, a), k) in chunk.iter_mut().zip(add).zip(keep) {
            *b = b.saturating_add(a) & k;
        }
    }
    // Whole pixels are left (16 bytes is four of them), so the lanes still line up.
    for ((b, a), k) in chunks.into_remainder().iter_mut().zip(add).zip(keep) {
        *b = b.saturating_add(a) & k;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snap_rounds_colours_to_sixteen_levels_and_keeps_alpha() {
        // Every byte value in every lane, and a pixel count that leaves a remainder.
        let raw: Vec<u8> = (0..=255u8).flat_map(|b| [b, b, b, b]).collect();
        let mut img = image::RgbaImage::from_raw(256, 1, raw.clone()).expect("256 pixels");
        snap_to_16_levels(&mut img);
        for (i, (&got, &was)) in img.as_raw().iter().zip(&raw).enumerate() {
            let want = if i % 4 == 3 {
                was
            } else {
                was.saturating_add(8) & !15
            };
            assert_eq!(got, want, "byte {i}");
        }
        let mut odd = image::RgbaImage::from_pixel(5, 1, image::Rgba([249, 7, 8, 100]));
        snap_to_16_levels(&mut odd);
        assert!(odd.pixels().all(|p| p.0 == [240, 0, 16, 100]));
    }
}
