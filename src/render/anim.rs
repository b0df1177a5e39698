//! The animated replay attached to a game's result (issue 24): boards sampled from the game,
//! scaled down, as one looping GIF through the `image` crate. Pure: frames in, bytes out.
//!
//! Sizes are kept small on purpose: at most [`MAX_FRAMES`] frames (the first board, the last,
//! and turns evenly spaced between), each at most [`MAX_WIDTH`] pixels wide, so a long game's
//! GIF stays well under Discord's upload limit and its encode under a few seconds
//! (`benches/replay.rs` prints both).

use image::codecs::gif::{GifEncoder, Repeat};
use image::imageops::FilterType;
use image::{Delay, Frame, RgbaImage};

/// Frames in a replay GIF at most.
pub const MAX_FRAMES: usize = 24;
/// Frame width at most, in pixels (boards are scaled down to it, never up).
pub const MAX_WIDTH: u32 = 480;
/// How long a frame shows, and the last one (the final position) before the loop restarts.
pub const FRAME_MS: u32 = 900;
pub const LAST_FRAME_MS: u32 = 3_000;
/// NeuQuant's sampling step for each frame's palette (1 best, 30 fastest): boards are flat
/// colours, where a coarse sample loses nothing visible.
const SPEED: i32 = 20;

/// Which steps of a game of `steps` turns make the frames: 0 (the board as set up) and
/// `steps` (the end) always, the rest evenly spaced, at most `max` in all, ascending.
pub fn sample_steps(steps: usize, max: usize) -> Vec<usize> {
    let max = max.max(2);
    if steps < max {
        return (0..=steps).collect();
    }
    let mut out: Vec<usize> = (0..max)
        .map(|i| (i * steps + (max - 1) / 2) / (max - 1))
        .collect();
    out.dedup();
    out
}

/// A board scaled down to at most [`MAX_WIDTH`] wide (kept as is when narrower).
pub fn frame_of(board: &RgbaImage) -> RgbaImage {
    let (w, h) = board.dimensions();
    if w <= MAX_WIDTH || w == 0 {
        return board.clone();
    }
    let nh = ((u64::from(h) * u64::from(MAX_WIDTH)) / u64::from(w)).max(1);
    let nh = u32::try_from(nh).unwrap_or(1);
    image::imageops::resize(board, MAX_WIDTH, nh, FilterType::Triangle)
}

/// The frames as a looping GIF: each shown [`FRAME_MS`], the last [`LAST_FRAME_MS`]. Frames
/// of other sizes than the first are drawn at the top left of a frame of the first's size.
pub fn encode_gif(frames: &[RgbaImage]) -> Result<Vec<u8>, image::ImageError> {
    let mut out = Vec::new();
    {
        let mut encoder = GifEncoder::new_with_speed(&mut out, SPEED);
        encoder.set_repeat(Repeat::Infinite)?;
        let (w, h) = frames.first().map_or((1, 1), RgbaImage::dimensions);
        for (i, f) in frames.iter().enumerate() {
            let ms = if i + 1 == frames.len() {
                LAST_FRAME_MS
            } else {
                FRAME_MS
            };
            let img = if f.dimensions() == (w, h) {
                f.clone()
            } else {
                let mut canvas = RgbaImage::from_pixel(w, h, image::Rgba([255, 255, 255, 255]));
                image::imageops::overlay(&mut canvas, f, 0, 0);
                canvas
            };
            encoder.encode_frame(Frame::from_parts(
                img,
                0,
                0,
                Delay::from_numer_denom_ms(ms, 1),
            ))?;
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_sample_the_start_the_end_and_evenly_between() {
        assert_eq!(sample_steps(0, 24), vec![0]);
        assert_eq!(sample_steps(3, 24), vec![0, 1, 2, 3]);
        let s = sample_steps(100, 5);
        assert_eq!(s, vec![0, 25, 50, 75, 100]);
        let s = sample_steps(1000, 24);
        assert_eq!(s.len(), 24);
        assert_eq!((s[0], s[23]), (0, 1000));
        assert!(s.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn a_gif_has_every_frame_and_loops() {
        let a = RgbaImage::from_pixel(900, 600, image::Rgba([10, 120, 200, 255]));
        let b = RgbaImage::from_pixel(900, 600, image::Rgba([240, 200, 20, 255]));
        let frames: Vec<RgbaImage> = [&a, &b, &a].iter().map(|f| frame_of(f)).collect();
        assert_eq!(frames[0].dimensions(), (MAX_WIDTH, 320));
        let gif = encode_gif(&frames).expect("encode");
        assert!(gif.starts_with(b"GIF89a"), "a GIF");
        // The loop extension (NETSCAPE2.0) is written.
        assert!(gif.windows(11).any(|w| w == b"NETSCAPE2.0"));
        use image::AnimationDecoder;
        let decoded = image::codecs::gif::GifDecoder::new(std::io::Cursor::new(&gif))
            .expect("decodes")
            .into_frames()
            .collect_frames()
            .expect("frames");
        assert_eq!(decoded.len(), 3);
        let (n, d) = decoded[2].delay().numer_denom_ms();
        assert_eq!(n / d.max(1), LAST_FRAME_MS);
        // Flat colours come back as they went in.
        let px = decoded[1].buffer().get_pixel(10, 10).0;
        assert!(px[0].abs_diff(240) < 8 && px[2].abs_diff(20) < 8, "{px:?}");
    }
}
