//! The animated replay attached to a game's result (issue 24): boards sampled from the game,
//! scaled down, as one looping GIF. Pure: frames in, bytes out.
//!
//! Sizes are kept small on purpose: at most [`MAX_FRAMES`] frames (the first board, the last,
//! and turns evenly spaced between), each at most [`MAX_WIDTH`] pixels wide, so a long game's
//! GIF stays well under Discord's upload limit (`benches/replay.rs` prints time and size).
//!
//! The encode (issue 38 item 5) uses the boards' own quantiser ([`quantize_all`]) for one
//! global palette of all frames, instead of image's NeuQuant per frame, and each frame after
//! the first carries only the rectangle around the pixels that changed, kept on top of the
//! frame before (`DisposalMethod::Keep`), its unchanged pixels transparent so they compress
//! to nearly nothing. A frame equal to the one before is one transparent pixel.

use gif::{DisposalMethod, Encoder, EncodingError, Frame, Repeat};
use image::imageops::FilterType;
use image::RgbaImage;

use super::quantize::quantize_all;

/// Frames in a replay GIF at most.
pub const MAX_FRAMES: usize = 24;
/// Frame width at most, in pixels (boards are scaled down to it, never up).
pub const MAX_WIDTH: u32 = 480;
/// How long a frame shows, and the last one (the final position) before the loop restarts.
pub const FRAME_MS: u32 = 900;
pub const LAST_FRAME_MS: u32 = 3_000;
/// Colours of the palette: one slot of the GIF's 256 is left for the transparent index.
const COLOURS: usize = 255;

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
/// of different sizes are brought to the largest ([`same_size`]).
pub fn encode_gif(frames: &[RgbaImage]) -> Result<Vec<u8>, EncodingError> {
    let sized = same_size(frames);
    let (w, h) = sized.first().map_or((1, 1), RgbaImage::dimensions);
    let too_big = |_| EncodingError::from(std::io::Error::other("a frame over 65,535 pixels"));
    let (gw, gh) = (
        u16::try_from(w).map_err(too_big)?,
        u16::try_from(h).map_err(too_big)?,
    );
    let indexed = quantize_all(&sized, COLOURS);
    let clear = indexed.palette.len() as u8;
    let mut palette: Vec<u8> = indexed.palette.iter().flatten().copied().collect();
    // The transparent slot's colour is never shown.
    palette.extend_from_slice(&[255, 255, 255]);

    let mut out = Vec::new();
    let mut encoder = Encoder::new(&mut out, gw, gh, &palette)?;
    encoder.set_repeat(Repeat::Infinite)?;
    let size = (w * h).max(1) as usize;
    let mut previous: Option<&[u8]> = None;
    for (i, now) in indexed.indices.chunks_exact(size).enumerate() {
        let ms = if i + 1 == sized.len() {
            LAST_FRAME_MS
        } else {
            FRAME_MS
        };
        let mut frame = match previous {
            None => Frame {
                width: gw,
                height: gh,
                buffer: now.into(),
                ..Frame::default()
            },
            Some(before) => changes(before, now, w as usize, clear),
        };
        frame.delay = (ms / 10) as u16;
        frame.dispose = DisposalMethod::Keep;
        if previous.is_some() {
            frame.transparent = Some(clear);
        }
        encoder.write_frame(&frame)?;
        previous = Some(now);
    }
    encoder.into_inner()?;
    Ok(out)
}

/// The frames at one size, the largest width and height among them, so that no frame is cut
/// (a finished board's header holds one more line, the result's detail). A smaller frame is
/// drawn at the top left, the rest filled with the first frame's bottom-left colour (the
/// footer band of a framed board).
fn same_size(frames: &[RgbaImage]) -> Vec<RgbaImage> {
    let w = frames.iter().map(RgbaImage::width).max().unwrap_or(1);
    let h = frames.iter().map(RgbaImage::height).max().unwrap_or(1);
    let fill = frames
        .first()
        .filter(|f| f.width() > 0 && f.height() > 0)
        .map_or(image::Rgba([255, 255, 255, 255]), |f| {
            *f.get_pixel(0, f.height() - 1)
        });
    frames
        .iter()
        .map(|f| {
            if f.dimensions() == (w, h) {
                f.clone()
            } else {
                let mut canvas = super::canvas(w, h, fill);
                image::imageops::overlay(&mut canvas, f, 0, 0);
                canvas
            }
        })
        .collect()
}

/// The frame that turns `before` into `now` (palette indices of frames `width` wide) when
/// drawn over it: the bounding box of the changed pixels, the unchanged ones in it `clear`
/// (transparent). No change at all is one clear pixel at the top left.
fn changes<'a>(before: &[u8], now: &[u8], width: usize, clear: u8) -> Frame<'a> {
    let (mut left, mut right, mut top, mut bottom) = (usize::MAX, 0, usize::MAX, 0);
    for (y, (b, n)) in before
        .chunks_exact(width)
        .zip(now.chunks_exact(width))
        .enumerate()
    {
        let Some(first) = b.iter().zip(n).position(|(p, q)| p != q) else {
            continue;
        };
        let last = width - 1 - b.iter().zip(n).rev().position(|(p, q)| p != q).unwrap_or(0);
        left = left.min(first);
        right = right.max(last);
        top = top.min(y);
        bottom = y;
    }
    if top == usize::MAX {
        return Frame {
            width: 1,
            height: 1,
            buffer: vec![clear].into(),
            ..Frame::default()
        };
    }
    let mut buffer = Vec::with_capacity((right + 1 - left) * (bottom + 1 - top));
    for y in top..=bottom {
        let row = y * width;
        let (b, n) = (
            &before[row + left..=row + right],
            &now[row + left..=row + right],
        );
        buffer.extend(
            b.iter()
                .zip(n)
                .map(|(p, q)| if p == q { clear } else { *q }),
        );
    }
    Frame {
        left: left as u16,
        top: top as u16,
        width: (right + 1 - left) as u16,
        height: (bottom + 1 - top) as u16,
        buffer: buffer.into(),
        ..Frame::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Rgba;

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

    /// Frames as the replay makes them: a flat board with a smooth band (thousands of edge
    /// colours, so the palette is not exact), pieces that move, a frame equal to the one
    /// before, a one-pixel change in each far corner, and a frame of another size.
    fn replay_like_frames() -> Vec<RgbaImage> {
        let (w, h) = (240, 160);
        let mut board = RgbaImage::from_pixel(w, h, Rgba([246, 242, 230, 255]));
        for y in 100..160 {
            for x in 0..w {
                board.put_pixel(x, y, Rgba([x as u8, (y * 3) as u8, 255 - x as u8, 255]));
            }
        }
        let piece = |img: &mut RgbaImage, x0: u32, y0: u32, c: [u8; 3]| {
            for y in y0..y0 + 12 {
                for x in x0..x0 + 12 {
                    img.put_pixel(x, y, Rgba([c[0], c[1], c[2], 255]));
                }
            }
        };
        let mut frames = Vec::new();
        let mut now = board.clone();
        piece(&mut now, 10, 10, [213, 94, 0]);
        frames.push(now.clone());
        piece(&mut now, 60, 30, [0, 114, 178]);
        frames.push(now.clone());
        frames.push(now.clone());
        now.put_pixel(w - 1, h - 1, Rgba([0, 0, 0, 255]));
        frames.push(now.clone());
        now.put_pixel(0, 0, Rgba([0, 0, 0, 255]));
        frames.push(now.clone());
        let mut moved = board.clone();
        piece(&mut moved, 180, 80, [213, 94, 0]);
        frames.push(image::imageops::crop_imm(&moved, 0, 0, 200, 150).to_image());
        frames
    }

    fn decode(gif: &[u8]) -> Vec<image::Frame> {
        use image::AnimationDecoder;
        image::codecs::gif::GifDecoder::new(std::io::Cursor::new(gif))
            .expect("decodes")
            .into_frames()
            .collect_frames()
            .expect("frames")
    }

    /// Each decoded frame, composited over the ones before, is its frame through the one
    /// palette pixel for pixel, and that is the frame itself within the palette's error
    /// (fills and pieces exactly).
    #[test]
    fn every_frame_decodes_to_its_board_through_one_palette() {
        let frames = replay_like_frames();
        let gif = encode_gif(&frames).expect("encode");
        let decoded = decode(&gif);
        assert_eq!(decoded.len(), frames.len());
        let sized = same_size(&frames);
        let q = quantize_all(&sized, COLOURS);
        assert!(!q.exact, "the band makes the palette lossy");
        let (w, h) = sized[0].dimensions();
        for (i, (d, want)) in decoded
            .iter()
            .zip(q.indices.chunks_exact((w * h) as usize))
            .enumerate()
        {
            let (n, den) = d.delay().numer_denom_ms();
            let ms = if i + 1 == frames.len() {
                LAST_FRAME_MS
            } else {
                FRAME_MS
            };
            assert_eq!(n / den.max(1), ms, "frame {i}'s delay");
            let got = d.buffer();
            assert_eq!(got.dimensions(), (w, h));
            let mut worst = 0;
            for (x, y, p) in got.enumerate_pixels() {
                let c = q.palette[want[(y * w + x) as usize] as usize];
                assert_eq!(p.0, [c[0], c[1], c[2], 255], "frame {i} at {x},{y}");
                let o = sized[i].get_pixel(x, y).0;
                worst = worst.max((0..3).map(|k| o[k].abs_diff(c[k])).max().unwrap_or(0));
            }
            assert!(worst <= 24, "frame {i}: a colour moved by {worst}");
            assert_eq!(
                got.get_pixel(15, 15).0,
                sized[i].get_pixel(15, 15).0,
                "a piece, exactly"
            );
            assert_eq!(
                got.get_pixel(100, 5).0,
                [246, 242, 230, 255],
                "the fill, exactly"
            );
        }
        // The smaller last frame is drawn at the top left, on the first frame's bottom-left
        // colour.
        assert_eq!(
            decoded[5].buffer().get_pixel(220, 155).0,
            decoded[0].buffer().get_pixel(0, 159).0
        );
        assert_eq!(decoded[5].buffer().get_pixel(185, 85).0, [213, 94, 0, 255]);
    }

    /// A taller frame (a finished board's header has one more line) is not cut: every frame
    /// takes the largest size.
    #[test]
    fn a_taller_last_frame_is_kept_whole() {
        let band = Rgba([30, 35, 48, 255]);
        let first = RgbaImage::from_pixel(40, 30, band);
        let mut last = RgbaImage::from_pixel(40, 36, band);
        last.put_pixel(20, 35, Rgba([250, 10, 10, 255]));
        let sized = same_size(&[first, last]);
        assert!(sized.iter().all(|f| f.dimensions() == (40, 36)));
        assert_eq!(*sized[0].get_pixel(20, 35), band, "filled with the band");
        assert_eq!(*sized[1].get_pixel(20, 35), Rgba([250, 10, 10, 255]));
        let decoded = decode(&encode_gif(&sized).expect("encode"));
        assert_eq!(decoded[1].buffer().dimensions(), (40, 36));
    }

    /// After the first, a frame carries only the rectangle around what changed: an unchanged
    /// frame is one pixel, a one-pixel change in a corner a one-pixel frame there.
    #[test]
    fn frames_after_the_first_carry_only_what_changed() {
        let frames = replay_like_frames();
        let gif = encode_gif(&frames).expect("encode");
        let mut options = gif::DecodeOptions::new();
        options.set_color_output(gif::ColorOutput::Indexed);
        let mut decoder = options
            .read_info(std::io::Cursor::new(&gif))
            .expect("header");
        let mut rects = Vec::new();
        while let Some(f) = decoder.read_next_frame().expect("frame") {
            rects.push((f.left, f.top, f.width, f.height, f.transparent.is_some()));
        }
        assert_eq!(
            rects,
            vec![
                (0, 0, 240, 160, false),
                (60, 30, 12, 12, true),
                (0, 0, 1, 1, true),
                (239, 159, 1, 1, true),
                (0, 0, 1, 1, true),
                (0, 0, 240, 160, true),
            ]
        );
    }
}
