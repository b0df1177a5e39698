//! The Cortexcape board image (placeholder until the renderer lands).
use super::view::PublicView;
use crate::engine::RenderCtx;
use image::RgbaImage;

pub fn render_public(_view: &PublicView, _ctx: &RenderCtx) -> RgbaImage {
    RgbaImage::new(1400, 900)
}
