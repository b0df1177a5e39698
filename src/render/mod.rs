//! Shared drawing helpers for every game's board image. Pure: in-memory images only; PNG
//! encoding happens at the edge (`service::encode_png`).
//!
//! - [`shapes`]: anti-aliased discs, rings, dashed and dotted lines, arrows, cones, boxes and
//!   rectangles (our stepped distance fill and row fills, where imageproc has no equivalent or
//!   measured slower); crisp polygons (imageproc);
//! - [`text`]: the embedded DejaVu Sans faces, measuring, wrapping, halos (imageproc's
//!   `grayscale_dilate`); glyph coverage kept per face, size and quarter-pixel offset;
//! - [`palette`]: colour-blind-safe seat colours, contrast, seat letters;
//! - [`panel`]: seat tokens, legend box, score table, pool chips;
//! - [`quantize`]: the board reduced to a 256-colour palette for the PNG at the edge;
//! - [`result`]: the result card of a finished game;
//! - [`zoom`]: the parts of a board a phone player needs, cut at full size and stacked.

pub mod anim;
pub mod palette;
pub mod panel;
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
