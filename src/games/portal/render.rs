//! Public and private images (spec section 11).

use image::RgbaImage;

use super::view::{PrivateView, PublicView};
use crate::engine::RenderCtx;

pub fn render_public(_view: &PublicView, _ctx: &RenderCtx) -> RgbaImage {
    RgbaImage::new(1600, 1000)
}

pub fn render_private(_view: &PrivateView, _ctx: &RenderCtx) -> RgbaImage {
    RgbaImage::new(900, 400)
}
