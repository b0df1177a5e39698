//! The animated replay attached to a game's result (issue 24): boards sampled from the game,
//! scaled down, as one looping GIF. Pure: frames in, bytes out.
//!
//! Sizes are kept small on purpose: at most [`MAX_FRAMES`] frames (the first board, the last,
//! and turns evenly spaced between), each at most [`MAX_WIDTH`] pixels wide, and at most
//! [`MAX_BYTES`] in all (middle frames are left out until it fits), so a long game's GIF
//! stays small on a phone's data (`benches/replay.rs` prints time and size).
//!
//! How (issue 38 item 5, figures in BENCHMARKS.md):
//! - a board is scaled down by averaging the board pixels each frame pixel covers
//!   ([`frame_of`]; a flat colour stays exactly itself and a hard edge blurs over one frame
//!   pixel, not two as with image's triangle filter, which also took several times as long);
//! - every frame's colours are counted as it comes ([`Animation::push`], the boards' own
//!   [`Census`]) and the frame is kept only as its runs of equal colour, so the full-size
//!   board and the scaled frame are dropped at once: what stays is a few times smaller;
//! - one palette for the whole replay, chosen from all the frames' counts by the boards'
//!   quantiser (fills, lines and text cores exactly, edge colours to the nearest slot, no
//!   dithering);
//! - the first frame is written whole; each later one carries only the rectangle around the
//!   pixels that changed, drawn over the frame before (`DisposalMethod::Keep`), its unchanged
//!   pixels transparent unless their colour goes on a run (`changes`). A frame equal to the
//!   one before is one transparent pixel. Two threads compress half the frames each (a frame
//!   needs only itself and the one before), each holding two frames as palette indices;
//! - the frames are compressed by our own LZW (`lzw`: the greedy match `gif`'s weezl makes,
//!   a third of its time on these frames).
//!
//! The service renders the boards on one thread while another pushes them here
//! (`service::replay_frames`).

use gif::{DisposalMethod, Encoder, EncodingError, Frame, Repeat};
use image::RgbaImage;

use super::quantize::{Census, Runs};

/// Frames in a replay GIF at most.
pub const MAX_FRAMES: usize = 24;
/// Frame width at most, in pixels (boards are scaled down to it, never up).
pub const MAX_WIDTH: u32 = 400;
/// How long a frame shows, and the last one (the final position) before the loop restarts.
pub const FRAME_MS: u32 = 900;
pub const LAST_FRAME_MS: u32 = 3_000;
/// A replay GIF's size at most, in bytes ([`Animation::encode_within`]): a whole game in
/// 300 KB, however long (issue 38 item 5).
pub const MAX_BYTES: usize = 300 * 1024;
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

/// The height a board `w` × `h` takes once scaled to [`MAX_WIDTH`] wide (at least 1).
fn scaled_height(w: u32, h: u32) -> u32 {
    let nh = (u64::from(h) * u64::from(MAX_WIDTH)) / u64::from(w.max(1));
    u32::try_from(nh.max(1)).unwrap_or(1)
}

/// A board scaled down to at most [`MAX_WIDTH`] wide (kept as is when narrower): each frame
/// pixel is the average of the board's pixels it covers (an area average, weights in 256ths
/// that sum exactly to 256 on each axis, so a flat colour stays exactly itself).
///
/// Rows first: the board rows a frame row covers are summed, weighted, into one row of 16-bit
/// sums (255 × 256 at most: eight channels at a time), then each frame pixel sums the few
/// columns it covers. With the weights in 256ths, a pixel is within 1.25 levels of the exact
/// average (1.16 at worst on noise).
pub fn frame_of(board: &RgbaImage) -> RgbaImage {
    let (w, h) = board.dimensions();
    if w <= MAX_WIDTH || h == 0 {
        return board.clone();
    }
    let nh = scaled_height(w, h);
    let (xs, ys) = (Taps::new(w, MAX_WIDTH), Taps::new(h, nh));
    let src = board.as_raw();
    let row_len = w as usize * 4;
    let mut out = vec![0u8; MAX_WIDTH as usize * nh as usize * 4];
    // Room past the right edge for the last pixel's zero-weight taps.
    let mut acc = vec![0u16; row_len + xs.stride * 4];
    for (y, out_row) in out.chunks_exact_mut(MAX_WIDTH as usize * 4).enumerate() {
        let (first, weights) = ys.of(y);
        let rows = src[first * row_len..].chunks_exact(row_len);
        acc[..row_len].fill(0);
        for (&wy, row) in weights.iter().zip(rows) {
            for (a, &p) in acc.iter_mut().zip(row) {
                *a += u16::from(p) * wy;
            }
        }
        for (x, px) in out_row.chunks_exact_mut(4).enumerate() {
            let (first, weights) = xs.of(x);
            let cols = &acc[first * 4..(first + xs.stride) * 4];
            let mut sum = [1u32 << 15; 4];
            for (&wx, col) in weights.iter().zip(cols.chunks_exact(4)) {
                for (s, &c) in sum.iter_mut().zip(col) {
                    *s += u32::from(c) * u32::from(wx);
                }
            }
            for (p, s) in px.iter_mut().zip(sum) {
                *p = (s >> 16) as u8;
            }
        }
    }
    RgbaImage::from_raw(MAX_WIDTH, nh, out).unwrap_or_else(|| board.clone())
}

/// For each of the `to` output pixels along an axis of `from` source pixels (`to` ≤ `from`):
/// its first source pixel and the weights of the `stride` pixels from there, in 256ths
/// (zero past those it covers). The weights come from rounding the covered length at every
/// source edge, so each pixel's sum to 256 exactly.
struct Taps {
    first: Vec<usize>,
    weights: Vec<u16>,
    stride: usize,
}

impl Taps {
    fn new(from: u32, to: u32) -> Self {
        let (from, to) = (u64::from(from), u64::from(to.max(1)));
        // Positions in units of 1/`to` of a source pixel: output pixel o spans [o·from,
        // (o+1)·from), source pixel i spans [i·to, (i+1)·to).
        let span = |o: u64| (o * from / to, ((o + 1) * from - 1) / to);
        let stride = (0..to)
            .map(|o| span(o).1 - span(o).0 + 1)
            .max()
            .unwrap_or(1) as usize;
        let mut taps = Taps {
            first: Vec::with_capacity(to as usize),
            weights: vec![0; to as usize * stride],
            stride,
        };
        for o in 0..to {
            let (a, b) = (o * from, (o + 1) * from);
            let cum = |t: u64| ((t - a) * 256 + from / 2) / from;
            let (first, last) = span(o);
            for i in first..=last {
                let (lo, hi) = ((i * to).max(a), ((i + 1) * to).min(b));
                taps.weights[o as usize * stride + (i - first) as usize] =
                    (cum(hi) - cum(lo)) as u16;
            }
            taps.first.push(first as usize);
        }
        taps
    }

    /// Output pixel `o`'s first source pixel and its `stride` weights.
    fn of(&self, o: usize) -> (usize, &[u16]) {
        (
            self.first[o],
            &self.weights[o * self.stride..(o + 1) * self.stride],
        )
    }
}

/// A replay GIF made frame by frame: [`push`](Animation::push) each board in order, then
/// [`encode`](Animation::encode). Holds each frame as runs of equal colour, never a board.
#[derive(Default, Clone)]
pub struct Animation {
    census: Census,
    frames: Vec<Runs>,
}

impl Animation {
    pub fn new() -> Self {
        Animation::default()
    }

    /// Adds a board as the next frame, scaled down to at most [`MAX_WIDTH`] wide.
    pub fn push(&mut self, board: &RgbaImage) {
        let runs = if board.width() <= MAX_WIDTH {
            self.census.add(board)
        } else {
            self.census.add(&frame_of(board))
        };
        self.frames.push(runs);
    }

    /// Frames pushed so far.
    pub fn len(&self) -> usize {
        self.frames.len()
    }

    pub fn is_empty(&self) -> bool {
        self.frames.is_empty()
    }

    /// Bytes the frames are held in until the encode (their runs).
    pub fn held_bytes(&self) -> usize {
        self.frames.iter().map(Runs::bytes).sum()
    }

    /// The frames as a looping GIF: each shown [`FRAME_MS`], the last [`LAST_FRAME_MS`].
    /// Frames of different sizes take the largest width and height among them, so that no
    /// frame is cut (a finished board's header holds one more line, the result's detail): a
    /// smaller frame is drawn at the top left, the rest in the first frame's bottom-left
    /// colour (the footer band of a framed board).
    pub fn encode(mut self) -> Result<Vec<u8>, EncodingError> {
        if self.frames.is_empty() {
            self.push(&RgbaImage::from_pixel(1, 1, WHITE));
        }
        self.write().map(|(gif, _)| gif)
    }

    /// The GIF of [`encode`](Animation::encode) in at most `budget` bytes where frames can
    /// give way: when the whole is larger, frames between the first and the last are left
    /// out, evenly, until it fits (or only those two remain). A long game's replay shows
    /// fewer of its turns rather than blurred ones: every way to make a frame smaller was
    /// visibly lossy (BENCHMARKS.md). The frames kept are those numbered in `kept`.
    ///
    /// How many fit is forecast ([`Forecast`]) from the first frame and a few changes
    /// encoded alone, so that one encode is nearly always enough.
    pub fn encode_within(mut self, budget: usize) -> Result<Encoded, EncodingError> {
        if self.frames.is_empty() {
            self.push(&RgbaImage::from_pixel(1, 1, WHITE));
        }
        let all = self.frames.len();
        let every: Vec<usize> = (0..all).collect();
        if all <= 2 {
            let (bytes, _) = self.write()?;
            return Ok(Encoded {
                bytes,
                kept: every,
                encodes: 1,
            });
        }
        // The first frame and a few changes, measured, say what the whole would take.
        let mut probes = vec![0];
        probes.extend((0..PROBES).map(|k| 1 + k * (all - 1) / PROBES));
        probes.dedup();
        let (_, sizes) = self.write_frames(&probes)?;
        let mut forecast = Forecast::new(&self.frames, &probes, &sizes);
        // Each try keeps as many frames as the forecast lets fit a little under the budget;
        // a try of every frame that is over measures them all, and a try of fewer still over
        // (the forecast was low) tightens the aim by as much.
        let mut aim = budget - budget / 20;
        // Whether all fit is told by the changes measured (counting the changes between
        // every two frames would cost more than it saves).
        let changes: Vec<usize> = sizes.iter().skip(1).copied().collect();
        let mean = changes.iter().sum::<usize>() / changes.len().max(1);
        let mut kept = if forecast
            .whole
            .saturating_add((all - 1).saturating_mul(mean))
            <= budget
        {
            every.clone()
        } else {
            forecast.most_within(all, all - 1, aim)
        };
        let mut encodes = 0;
        let bytes = loop {
            let (bytes, sizes) = if kept.len() == all {
                self.write()?
            } else {
                self.thin(&kept).write()?
            };
            encodes += 1;
            if bytes.len() <= budget || kept.len() <= 2 || encodes == 5 {
                break bytes;
            }
            if kept.len() == all {
                forecast.measured(&every, &sizes);
            } else {
                let (expected, got) = (forecast.bytes(&kept).max(1), bytes.len());
                aim = usize::try_from(aim as u128 * expected as u128 / got as u128).unwrap_or(aim);
            }
            kept = forecast.most_within(all, kept.len() - 1, aim);
        };
        Ok(Encoded {
            bytes,
            kept,
            encodes,
        })
    }

    /// The animation of only the frames numbered in `kept`, counted afresh: its palette is
    /// theirs alone, as if only they had been pushed.
    fn thin(&self, kept: &[usize]) -> Animation {
        let mut census = Census::new();
        let frames = kept
            .iter()
            .filter_map(|&i| self.frames.get(i))
            .map(|f| census.add_runs(&self.census, f))
            .collect();
        Animation { census, frames }
    }

    /// The GIF of every frame, and the bytes each frame took (the first with the header).
    fn write(&self) -> Result<(Vec<u8>, Vec<usize>), EncodingError> {
        let all: Vec<usize> = (0..self.frames.len()).collect();
        self.write_frames(&all)
    }

    /// The frames numbered in `numbers` (ascending) as [`write`](Animation::write) writes
    /// them among all the others: the first whole, each other one as its change from the
    /// frame just before it, pushed or not. With every number, the GIF; with some, only the
    /// bytes each would take in it (a measure).
    fn write_frames(&self, numbers: &[usize]) -> Result<(Vec<u8>, Vec<usize>), EncodingError> {
        let mut census = self.census.clone();
        let (w, h) = self
            .frames
            .iter()
            .fold((1, 1), |(w, h), f| (w.max(f.width), h.max(f.height)));
        let too_big = |_| EncodingError::from(std::io::Error::other("a frame over 65,535 pixels"));
        let (gw, gh) = (
            u16::try_from(w).map_err(too_big)?,
            u16::try_from(h).map_err(too_big)?,
        );
        let fill = match self.frames.first().and_then(Runs::bottom_left) {
            Some(id) => id,
            None => census.number_of(WHITE),
        };
        // The padding is counted as drawn, so the palette is the padded frames'.
        for f in &self.frames {
            let pad = u64::from(w) * u64::from(h) - u64::from(f.width) * u64::from(f.height);
            census.count(fill, u32::try_from(pad).unwrap_or(u32::MAX));
        }
        let palette = census.palette(COLOURS);
        let clear = palette.colours.len() as u8;
        let mut colours: Vec<u8> = palette.colours.iter().flatten().copied().collect();
        // The transparent slot's colour is never shown.
        colours.extend_from_slice(&[255, 255, 255]);

        let size = w as usize * h as usize;
        let count = numbers.len();
        // A frame's palette indices on the whole canvas, padded below and to the right.
        let indices = |f: &Runs, now: &mut Vec<u8>, part: &mut Vec<u8>| {
            now.clear();
            if (f.width, f.height) == (w, h) {
                palette.extend_indices(f, now);
            } else {
                part.clear();
                palette.extend_indices(f, part);
                let pad = palette.slot(fill);
                let fw = f.width as usize;
                for y in 0..h as usize {
                    let row = part.get(y * fw..(y + 1) * fw).unwrap_or(&[]);
                    now.extend_from_slice(row);
                    now.resize((y + 1) * w as usize, pad);
                }
            }
        };
        // The frames numbered in `numbers`, compressed: each needs only itself and the one
        // before, so two threads take half each.
        let compress = |numbers: &[usize]| -> Vec<Frame<'static>> {
            let (mut before, mut now) = (Vec::with_capacity(size), Vec::with_capacity(size));
            let mut part = Vec::new();
            let mut dict = lzw::Dict::new();
            let mut last = None;
            let mut out = Vec::with_capacity(numbers.len());
            for &i in numbers {
                if i > 0 && last != Some(i - 1) {
                    indices(&self.frames[i - 1], &mut before, &mut part);
                }
                last = Some(i);
                indices(&self.frames[i], &mut now, &mut part);
                let frame = if i == 0 {
                    Frame {
                        width: gw,
                        height: gh,
                        buffer: lzw::encode(&now, &mut dict).into(),
                        ..Frame::default()
                    }
                } else {
                    let mut frame = changes(&before, &now, w as usize, clear, &mut dict);
                    frame.transparent = Some(clear);
                    frame
                };
                out.push(frame);
                std::mem::swap(&mut before, &mut now);
            }
            out
        };
        // The first frame is whole (the larger work), so the first half takes no more.
        let half = count / 2;
        let frames = if count < 4 {
            compress(numbers)
        } else {
            std::thread::scope(|scope| {
                let second = scope.spawn(|| compress(&numbers[half..]));
                let mut frames = compress(&numbers[..half]);
                // A panic there is a bug of ours: passed on as it was.
                match second.join() {
                    Ok(rest) => frames.extend(rest),
                    Err(panic) => std::panic::resume_unwind(panic),
                }
                frames
            })
        };

        let mut out = Vec::new();
        let mut encoder = Encoder::new(&mut out, gw, gh, &colours)?;
        encoder.set_repeat(Repeat::Infinite)?;
        let mut sizes = Vec::with_capacity(count);
        for (i, mut frame) in frames.into_iter().enumerate() {
            let ms = if i + 1 == count {
                LAST_FRAME_MS
            } else {
                FRAME_MS
            };
            frame.delay = (ms / 10) as u16;
            frame.dispose = DisposalMethod::Keep;
            let before_frame = if i == 0 { 0 } else { encoder.get_ref().len() };
            encoder.write_lzw_pre_encoded_frame(&frame)?;
            sizes.push(encoder.get_ref().len() - before_frame);
        }
        encoder.into_inner()?;
        Ok((out, sizes))
    }
}

/// The bytes a GIF of some of the frames would take, forecast from a few of them measured: a
/// frame after the first carries the pixels that changed since the frame before it, and a
/// few such changes, encoded, say how many bytes a changed pixel costs on these boards (it hardly depends
/// on how far apart the frames are: 0.40-0.41 for Vortex at one to four frames apart, 0.35-0.47
/// for Portal, 0.50-0.54 for Cortexcape). Changed pixels are counted from the frames' runs,
/// each pair once, with no encode.
struct Forecast<'a> {
    frames: &'a [Runs],
    fill: u32,
    /// The first frame with the GIF's header and palette: what a whole frame costs at most.
    whole: usize,
    per_pixel: f64,
    pixels: std::collections::HashMap<(usize, usize), Option<u64>>,
}

/// Bytes of a frame's own header and its compressor's start, beside its pixels.
const FRAME_OVERHEAD: usize = 32;
/// Changes between frames measured to forecast a replay's bytes (each one frame's encode).
const PROBES: usize = 4;

impl<'a> Forecast<'a> {
    /// From the bytes `sizes` that the frames numbered in `numbers` took in a GIF of all of
    /// them (frame 0 among them: a whole frame).
    fn new(frames: &'a [Runs], numbers: &[usize], sizes: &[usize]) -> Self {
        let mut forecast = Forecast {
            frames,
            fill: frames.first().and_then(Runs::bottom_left).unwrap_or(0),
            whole: 0,
            per_pixel: 1.0,
            pixels: Default::default(),
        };
        forecast.measured(numbers, sizes);
        forecast
    }

    /// Takes the costs from `sizes`, the bytes of the frames numbered in `numbers`.
    fn measured(&mut self, numbers: &[usize], sizes: &[usize]) {
        let (mut bytes, mut pixels) = (0usize, 0u64);
        for (&i, &size) in numbers.iter().zip(sizes) {
            if i == 0 {
                self.whole = size;
            } else if let Some(changed) = self.changed(i - 1, i) {
                bytes += size.saturating_sub(FRAME_OVERHEAD);
                pixels += changed;
            }
        }
        if pixels > 0 {
            self.per_pixel = bytes as f64 / pixels as f64;
        }
    }

    /// Pixels that change from frame `a` to frame `b` (`None`: not comparable, taken whole).
    fn changed(&mut self, a: usize, b: usize) -> Option<u64> {
        let (frames, fill) = (self.frames, self.fill);
        *self.pixels.entry((a, b)).or_insert_with(|| {
            let d = frames.get(a)?.difference(frames.get(b)?, fill)?;
            Some(d.pixels)
        })
    }

    /// The forecast bytes of the GIF of the frames numbered in `kept`.
    fn bytes(&mut self, kept: &[usize]) -> usize {
        let mut total = self.whole;
        for w in kept.windows(2) {
            let frame = match self.changed(w[0], w[1]) {
                Some(px) => (px as f64 * self.per_pixel) as usize + FRAME_OVERHEAD,
                None => self.whole,
            };
            total += frame.min(self.whole);
        }
        total
    }

    /// The most frames, sampled evenly from `all` and at most `max` (at least 2), whose GIF
    /// is forecast within `aim` bytes (the first and the last when none is): a binary search,
    /// as fewer frames nearly always take fewer bytes (frames further apart can change less,
    /// as in Cortexcape, where every other frame shows the same phase of a round).
    fn most_within(&mut self, all: usize, max: usize, aim: usize) -> Vec<usize> {
        let sample = |n: usize| sample_steps(all - 1, n);
        let (mut fits, mut over) = (2, max.max(2) + 1);
        while over - fits > 1 {
            let mid = (fits + over) / 2;
            if self.bytes(&sample(mid)) <= aim {
                fits = mid;
            } else {
                over = mid;
            }
        }
        sample(fits)
    }
}

/// A GIF and which of the frames pushed it shows, by their order.
pub struct Encoded {
    pub bytes: Vec<u8>,
    pub kept: Vec<usize>,
    /// How many times frames were encoded in full (the probe of a few not counted): 1 when
    /// the forecast was right (the benchmark prints it).
    pub encodes: usize,
}

const WHITE: image::Rgba<u8> = image::Rgba([255, 255, 255, 255]);

/// The frames as a looping GIF (see [`Animation::encode`]), each scaled down to at most
/// [`MAX_WIDTH`] wide first.
pub fn encode_gif(frames: &[RgbaImage]) -> Result<Vec<u8>, EncodingError> {
    let mut anim = Animation::new();
    for f in frames {
        anim.push(f);
    }
    anim.encode()
}

/// The frame that turns `before` into `now` (palette indices of frames `width` wide) when
/// drawn over it: the bounding box of the changed pixels. An unchanged pixel in it is `clear`
/// (transparent), unless the pixel written just before it has its colour: then it is written
/// in that colour, which shows the same and keeps a run going for the compressor. No change
/// at all is one clear pixel at the top left.
fn changes<'a>(
    before: &[u8],
    now: &[u8],
    width: usize,
    clear: u8,
    dict: &mut lzw::Dict,
) -> Frame<'a> {
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
            buffer: lzw::encode(&[clear], dict).into(),
            ..Frame::default()
        };
    }
    let mut buffer = Vec::with_capacity((right + 1 - left) * (bottom + 1 - top));
    let mut last = clear;
    for y in top..=bottom {
        let row = y * width;
        let (b, n) = (
            &before[row + left..=row + right],
            &now[row + left..=row + right],
        );
        for (&p, &q) in b.iter().zip(n) {
            last = if p != q || q == last { q } else { clear };
            buffer.push(last);
        }
    }
    Frame {
        left: left as u16,
        top: top as u16,
        width: (right + 1 - left) as u16,
        height: (bottom + 1 - top) as u16,
        buffer: lzw::encode(&buffer, dict).into(),
        ..Frame::default()
    }
}

/// GIF's LZW compression (variable codes of up to 12 bits, least significant bit first, a
/// clear code when the 4,096 codes are used up): the same greedy longest match as `weezl`,
/// which `gif` uses, and the same bytes (a test checks; weezl 0.1.12 forgets a code's 17th
/// successor, so on more varied data ours is a little shorter), faster on frames: a run of
/// one value (a transparent area, a fill) is taken in steps of the longest run of that value
/// the dictionary holds, not value by value.
mod lzw {
    /// Codes are at most 12 bits.
    const MAX_CODES: u16 = 4096;
    /// The hash table's size: four times the codes, so a probe rarely meets another key.
    const SLOTS: usize = 16_384;
    const EMPTY: u32 = u32::MAX;

    /// The dictionary, kept between frames for its memory (cleared for each).
    pub(super) struct Dict {
        /// (string's code << 8 | next value) to the longer string's code.
        keys: Vec<u32>,
        codes: Vec<u16>,
        /// For each value v, the codes of v·v, v·v·v, … that the dictionary holds.
        runs: Vec<Vec<u16>>,
    }

    impl Dict {
        pub(super) fn new() -> Self {
            Dict {
                keys: vec![EMPTY; SLOTS],
                codes: vec![0; SLOTS],
                runs: vec![Vec::new(); 256],
            }
        }

        fn clear(&mut self) {
            self.keys.fill(EMPTY);
            for r in &mut self.runs {
                r.clear();
            }
        }

        fn slot(&self, key: u32) -> usize {
            let mut i = (key.wrapping_mul(0x9E37_79B1) >> 18) as usize & (SLOTS - 1);
            while self.keys[i] != key && self.keys[i] != EMPTY {
                i = (i + 1) & (SLOTS - 1);
            }
            i
        }

        fn get(&self, code: u16, value: u8) -> Option<u16> {
            let key = u32::from(code) << 8 | u32::from(value);
            let i = self.slot(key);
            (self.keys[i] == key).then(|| self.codes[i])
        }

        fn insert(&mut self, code: u16, value: u8, new: u16) {
            let key = u32::from(code) << 8 | u32::from(value);
            let i = self.slot(key);
            self.keys[i] = key;
            self.codes[i] = new;
        }

        /// The code of `value` repeated `n` times (1 ≤ n ≤ the longest held).
        fn run(&self, value: u8, n: usize) -> u16 {
            if n <= 1 {
                u16::from(value)
            } else {
                self.runs[usize::from(value)][n - 2]
            }
        }

        /// The longest run of `value` the dictionary holds a code for.
        fn longest(&self, value: u8) -> usize {
            self.runs[usize::from(value)].len() + 1
        }
    }

    /// The writer's state: codes out as bits, the next free code and the code width.
    struct Out<'a> {
        bytes: Vec<u8>,
        acc: u32,
        len: u32,
        width: u32,
        next: u16,
        min: u8,
        dict: &'a mut Dict,
    }

    impl Out<'_> {
        fn put(&mut self, code: u16) {
            self.acc |= u32::from(code) << self.len;
            self.len += self.width;
            while self.len >= 8 {
                self.bytes.push(self.acc as u8);
                self.acc >>= 8;
                self.len -= 8;
            }
        }

        fn clear_code(&self) -> u16 {
            1 << self.min
        }

        /// Writes `code` (the longest match) and adds it followed by `value` as the next code,
        /// or clears the dictionary when it is full. Returns whether it was added.
        fn emit(&mut self, code: u16, value: u8) -> bool {
            self.put(code);
            if self.next < MAX_CODES {
                self.dict.insert(code, value, self.next);
                if u32::from(self.next) >= 1 << self.width && self.width < 12 {
                    self.width += 1;
                }
                self.next += 1;
                true
            } else {
                self.put(self.clear_code());
                self.dict.clear();
                self.width = u32::from(self.min) + 1;
                self.next = self.clear_code() + 2;
                false
            }
        }
    }

    /// The image data as the GIF block wants it: the minimum code size (from the largest
    /// value, as `gif` chooses it), then the codes.
    pub(super) fn encode(data: &[u8], dict: &mut Dict) -> Vec<u8> {
        let largest = data.iter().copied().max().unwrap_or(0);
        let min = (u32::from(largest) + 1)
            .max(4)
            .next_power_of_two()
            .trailing_zeros() as u8;
        dict.clear();
        let mut out = Out {
            bytes: vec![min],
            acc: 0,
            len: 0,
            width: u32::from(min) + 1,
            next: (1 << min) + 2,
            min,
            dict,
        };
        out.put(out.clear_code());
        let Some((&first, mut rest)) = data.split_first() else {
            out.put(out.clear_code() + 1);
            return finish(out);
        };
        // The string matched so far: its code, and while it is one value repeated, that
        // value and how many times.
        let mut code = u16::from(first);
        let mut run = Some((first, 1usize));
        while let Some(&value) = rest.first() {
            if let Some((v, n)) = run.filter(|&(v, _)| v == value) {
                // A run of `v`: take as many as the dictionary's runs allow at each step.
                let mut left = rest.iter().take_while(|&&x| x == v).count();
                rest = &rest[left..];
                let mut n = n;
                loop {
                    let longest = out.dict.longest(v);
                    if n + left <= longest {
                        n += left;
                        break;
                    }
                    left -= longest - n;
                    let held = out.dict.run(v, longest);
                    if out.emit(held, v) {
                        out.dict.runs[usize::from(v)].push(out.next - 1);
                    }
                    n = 1;
                    left -= 1;
                }
                code = out.dict.run(v, n);
                run = Some((v, n));
                continue;
            }
            rest = &rest[1..];
            match out.dict.get(code, value) {
                Some(longer) => {
                    code = longer;
                    run = None;
                }
                None => {
                    out.emit(code, value);
                    code = u16::from(value);
                    run = Some((value, 1));
                }
            }
        }
        out.put(code);
        if out.next < MAX_CODES && u32::from(out.next) >= 1 << out.width && out.width < 12 {
            out.width += 1;
        }
        out.put(out.clear_code() + 1);
        finish(out)
    }

    fn finish(out: Out<'_>) -> Vec<u8> {
        let mut bytes = out.bytes;
        if out.len > 0 {
            bytes.push(out.acc as u8);
        }
        bytes
    }
}

/// The GIF checks, shared with the service's replay tests (whole games of every kind).
#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::render::quantize::quantize_all;
    use image::Rgba;

    /// The reference for what the GIF shows: the frames at one size, the largest width and
    /// height among them, a smaller one at the top left on the first frame's bottom-left
    /// colour, done on whole images (not as the encoder does it, on runs).
    pub(crate) fn same_size(frames: &[RgbaImage]) -> Vec<RgbaImage> {
        let w = frames.iter().map(RgbaImage::width).max().unwrap_or(1);
        let h = frames.iter().map(RgbaImage::height).max().unwrap_or(1);
        let fill = frames
            .first()
            .filter(|f| f.width() > 0 && f.height() > 0)
            .map_or(WHITE, |f| *f.get_pixel(0, f.height() - 1));
        frames
            .iter()
            .map(|f| {
                let mut canvas = crate::render::canvas(w, h, fill);
                image::imageops::overlay(&mut canvas, f, 0, 0);
                canvas
            })
            .collect()
    }

    /// Decodes a GIF and checks that every frame, as the decoder composes it over the ones
    /// before, is the frame through one palette chosen for all of them (`quantize_all` of
    /// the frames brought to one size), pixel for pixel, and that this palette moves colours
    /// no more than the quantiser does: only rare edge colours move at all far (no channel by
    /// more than 96, at most one pixel in 500 by more than 32; on whole games' boards the
    /// worst seen is 72, and over 97 % of pixels move by 8 at most). Returns the decoded
    /// frames.
    pub(crate) fn check_decodes_to(gif: &[u8], frames: &[RgbaImage]) -> Vec<image::Frame> {
        let decoded = decode(gif);
        assert_eq!(decoded.len(), frames.len(), "every frame decodes");
        let sized = same_size(frames);
        let q = quantize_all(&sized, COLOURS);
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
            assert_eq!(got.dimensions(), (w, h), "frame {i}'s size");
            let (mut worst, mut far) = (0, 0);
            for (x, y, p) in got.enumerate_pixels() {
                let c = q.palette[want[(y * w + x) as usize] as usize];
                assert_eq!(p.0, [c[0], c[1], c[2], 255], "frame {i} at {x},{y}");
                let o = sized[i].get_pixel(x, y).0;
                let moved = (0..3).map(|k| o[k].abs_diff(c[k])).max().unwrap_or(0);
                worst = worst.max(moved);
                far += usize::from(moved > 32);
            }
            assert!(worst <= 96, "frame {i}: a colour moved by {worst}");
            // 1 pixel in 500: Portal's full-width Lab (many small coloured pieces) moves
            // 228 of 206,000 by more than 32 at frame 4 of the seeded game; 1 in 1,000 held
            // for the other four games.
            assert!(
                far * 500 <= (w * h) as usize,
                "frame {i}: {far} colours moved far"
            );
        }
        decoded
    }

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
        assert_eq!(frames[0].dimensions(), (MAX_WIDTH, MAX_WIDTH * 2 / 3));
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

    /// Over its byte budget, a GIF leaves out frames between the first and the last, evenly,
    /// until it fits, and shows exactly those kept; within it, every frame stays.
    #[test]
    fn a_gif_over_its_budget_leaves_out_middle_frames() {
        // Twelve frames of noise in sixteen colours: hardly compressible, each a new field.
        let mut seed: u32 = 7;
        let frames: Vec<RgbaImage> = (0..12)
            .map(|_| {
                RgbaImage::from_fn(120, 90, |_, _| {
                    seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
                    let c = (seed >> 28) as u8;
                    Rgba([c * 16, 255 - c * 16, c * 8, 255])
                })
            })
            .collect();
        let animation = |frames: &[RgbaImage]| {
            let mut a = Animation::new();
            frames.iter().for_each(|f| a.push(f));
            a
        };
        let whole = animation(&frames)
            .encode_within(usize::MAX)
            .expect("encode");
        assert_eq!(whole.kept, (0..12).collect::<Vec<_>>());
        assert_eq!(whole.bytes, animation(&frames).encode().expect("encode"));

        let budget = whole.bytes.len() / 2;
        let thin = animation(&frames).encode_within(budget).expect("encode");
        assert!(
            thin.bytes.len() <= budget,
            "{} > {budget}",
            thin.bytes.len()
        );
        assert!(
            thin.kept.len() < 12 && thin.kept.len() >= 2,
            "{:?}",
            thin.kept
        );
        assert_eq!((thin.kept[0], thin.kept.last()), (0, Some(&11)));
        // Forecast from the first frame and a few changes: one encode.
        assert_eq!(thin.encodes, 1, "{:?}", thin.kept);
        assert!(thin.kept.windows(2).all(|w| w[0] < w[1]));
        let kept: Vec<RgbaImage> = thin.kept.iter().map(|&i| frames[i].clone()).collect();
        check_decodes_to(&thin.bytes, &kept);

        // A budget nothing meets keeps the first and the last.
        let least = animation(&frames).encode_within(1).expect("encode");
        assert_eq!(least.kept, vec![0, 11]);
    }

    /// A GIF's frames as written: palette indices, rectangles, transparency.
    fn indexed(gif: &[u8]) -> gif::Decoder<std::io::Cursor<&[u8]>> {
        let mut options = gif::DecodeOptions::new();
        options.set_color_output(gif::ColorOutput::Indexed);
        options
            .read_info(std::io::Cursor::new(gif))
            .expect("a GIF header")
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
        let q = quantize_all(&same_size(&frames), COLOURS);
        assert!(!q.exact, "the band makes the palette lossy");
        let decoded = check_decodes_to(&gif, &frames);
        for (d, f) in decoded.iter().zip(&frames) {
            let got = d.buffer();
            assert_eq!(got.get_pixel(15, 15).0, f.get_pixel(15, 15).0, "a piece");
            assert_eq!(got.get_pixel(100, 5).0, [246, 242, 230, 255], "the fill");
        }
        // The smaller last frame is drawn at the top left, on the first frame's bottom-left
        // colour.
        assert_eq!(
            decoded[5].buffer().get_pixel(220, 155).0,
            decoded[0].buffer().get_pixel(0, 159).0
        );
        assert_eq!(decoded[5].buffer().get_pixel(185, 85).0, [213, 94, 0, 255]);
    }

    /// The check above fails when a frame loses what changed: the same GIF with frame 3's
    /// region (a pixel in the far corner) written as one transparent pixel is caught.
    #[test]
    #[should_panic(expected = "frame 3 at 239,159")]
    fn a_dropped_change_is_caught() {
        let frames = replay_like_frames();
        let gif = encode_gif(&frames).expect("encode");
        let mut decoder = indexed(&gif);
        let palette = decoder.global_palette().expect("a palette").to_vec();
        let (w, h) = (decoder.width(), decoder.height());
        let mut out = Vec::new();
        {
            let mut encoder = Encoder::new(&mut out, w, h, &palette).expect("encoder");
            let mut i = 0;
            while let Some(f) = decoder.read_next_frame().expect("frame") {
                let mut f = f.clone();
                if i == 3 {
                    assert_eq!((f.left, f.top, f.width, f.height), (239, 159, 1, 1));
                    f.left = 0;
                    f.top = 0;
                    f.buffer = vec![f.transparent.expect("transparent")].into();
                }
                encoder.write_frame(&f).expect("written");
                i += 1;
            }
        }
        check_decodes_to(&out, &frames);
    }

    /// Our LZW decodes back (by gif's decoder) and writes the same bytes as `weezl` (through
    /// `gif`), on random values of every alphabet size, runs of every length, runs among
    /// noise, and data long enough to fill the dictionary many times over.
    #[test]
    fn our_lzw_decodes_back_and_writes_what_weezl_writes() {
        let mut state = 7u32;
        let mut next = move || {
            state = state.wrapping_mul(1_103_515_245).wrapping_add(12345);
            state >> 8
        };
        let mut cases: Vec<Vec<u8>> = vec![vec![0], vec![255], vec![9; 5000]];
        for alphabet in [2u32, 3, 16, 17, 200, 256] {
            cases.push((0..20_000).map(|_| (next() % alphabet) as u8).collect());
        }
        for (max_run, noise) in [2u32, 7, 40, 300, 5000]
            .iter()
            .flat_map(|&r| [(r, false), (r, true)])
        {
            let mut data = Vec::new();
            while data.len() < 200_000 {
                let v = (next() % 6) as u8 * 40;
                let n = 1 + next() % max_run;
                data.extend(std::iter::repeat_n(v, n as usize));
                if noise && next() % 3 == 0 {
                    data.push((next() % 256) as u8);
                }
            }
            data.truncate(data.len() / 500 * 500);
            cases.push(data);
        }
        // A transparent frame with pieces: runs of 255 broken by short runs of colours.
        let mut frame = vec![255u8; 480 * 400];
        for k in 0..3000 {
            let at = (next() as usize * 7 + k) % (frame.len() - 20);
            let v = (next() % 40) as u8;
            frame[at..at + 1 + (next() % 15) as usize].fill(v);
        }
        cases.push(frame);
        let mut dict = lzw::Dict::new();
        for (i, data) in cases.iter().enumerate() {
            let mut f = Frame {
                buffer: data.as_slice().into(),
                ..Frame::default()
            };
            f.make_lzw_pre_encoded();
            let ours = lzw::encode(data, &mut dict);
            // Decoded back by gif's decoder (weezl), as an image 500 wide (or one row).
            let width = data.len().min(500);
            let height = data.len() / width;
            assert_eq!(width * height, data.len());
            let (width, height) = (width as u16, height as u16);
            let mut gif = Vec::new();
            {
                let palette: Vec<u8> = (0..=255u8).flat_map(|v| [v, v, v]).collect();
                let mut e = Encoder::new(&mut gif, width, height, &palette).expect("encoder");
                let frame = Frame {
                    width,
                    height,
                    buffer: ours.as_slice().into(),
                    ..Frame::default()
                };
                e.write_lzw_pre_encoded_frame(&frame).expect("frame");
            }
            let mut decoder = indexed(&gif);
            let back = decoder
                .read_next_frame()
                .expect("decodes")
                .expect("a frame");
            assert!(
                back.buffer.as_ref() == data.as_slice(),
                "case {i} decodes back"
            );
            // weezl forgets a code's 17th successor (its node grows from a short list to a
            // table without the new entry), so on more than 16 values ours may be shorter.
            let mut seen = [false; 256];
            data.iter().for_each(|&v| seen[usize::from(v)] = true);
            if seen.iter().filter(|&&s| s).count() <= 16 {
                assert!(ours == f.buffer.as_ref(), "case {i}: not weezl's bytes");
            } else {
                assert!(
                    ours.len() <= f.buffer.len(),
                    "case {i}: longer than weezl's"
                );
            }
        }
    }

    /// A taller frame (a finished board's header has one more line) is not cut: every frame
    /// takes the largest size, the shorter ones filled with the first one's bottom band.
    #[test]
    fn a_taller_last_frame_is_kept_whole() {
        let band = Rgba([30, 35, 48, 255]);
        let first = RgbaImage::from_pixel(40, 30, band);
        let mut last = RgbaImage::from_pixel(40, 36, band);
        last.put_pixel(20, 35, Rgba([250, 10, 10, 255]));
        let frames = [first, last];
        let decoded = check_decodes_to(&encode_gif(&frames).expect("encode"), &frames);
        assert_eq!(decoded[0].buffer().dimensions(), (40, 36));
        assert_eq!(*decoded[0].buffer().get_pixel(20, 35), band, "the band");
        assert_eq!(
            *decoded[1].buffer().get_pixel(20, 35),
            Rgba([250, 10, 10, 255])
        );
    }

    /// Scaling down averages what each pixel covers: flat colours stay exact, a hard edge
    /// becomes one blended column at most, the size follows the width, narrow boards stay.
    #[test]
    fn scaling_averages_and_keeps_flat_colours() {
        let (a, b) = (Rgba([10, 120, 200, 255]), Rgba([240, 200, 20, 255]));
        let mut board = RgbaImage::from_pixel(1328, 1176, a);
        for y in 0..1176 {
            for x in 664..1328 {
                board.put_pixel(x, y, b);
            }
        }
        let f = frame_of(&board);
        // 1328 / 400 = 3.32: the edge at 664 falls between frame columns 199 and 200.
        assert_eq!(MAX_WIDTH, 400, "the figures below are for 400");
        assert_eq!(f.dimensions(), (400, 354));
        assert_eq!(*f.get_pixel(0, 0), a);
        assert_eq!(*f.get_pixel(199, 353), a);
        assert_eq!(*f.get_pixel(201, 200), b);
        assert_eq!(*f.get_pixel(399, 353), b);
        // Column 200 covers source 664.0 to 667.32: all b.
        let blended = (0..400)
            .filter(|&x| ![a, b].contains(f.get_pixel(x, 100)))
            .count();
        assert!(blended <= 1, "{blended} blended columns");
        // A one-pixel line of a colour is averaged in, not lost or kept whole.
        let mut line = RgbaImage::from_pixel(800, 10, Rgba([0, 0, 0, 255]));
        for y in 0..10 {
            line.put_pixel(2, y, Rgba([255, 255, 255, 255]));
        }
        let f = frame_of(&line);
        assert_eq!(f.dimensions(), (400, 5));
        assert_eq!(f.get_pixel(1, 2).0, [128, 128, 128, 255]);
        assert_eq!(f.get_pixel(0, 2).0, [0, 0, 0, 255]);
        let narrow = RgbaImage::from_pixel(300, 900, a);
        assert_eq!(frame_of(&narrow), narrow);
    }

    /// On noise (the worst case for rounding), every frame pixel is within 1.25 levels of the
    /// exact area average of the board pixels it covers.
    #[test]
    fn scaling_is_the_area_average_within_a_level_and_a_quarter() {
        let (w, h) = (1328u32, 300u32);
        let mut state = 1u32;
        let board = RgbaImage::from_fn(w, h, |_, _| {
            state = state.wrapping_mul(1_103_515_245).wrapping_add(12345);
            let [a, b, c, _] = state.to_le_bytes();
            Rgba([a, b, c, 255])
        });
        let f = frame_of(&board);
        let (fw, fh) = f.dimensions();
        let (sx, sy) = (f64::from(w) / f64::from(fw), f64::from(h) / f64::from(fh));
        let cover = |o: u32, s: f64, i: u32| {
            let (a, b) = (f64::from(o) * s, f64::from(o + 1) * s);
            (b.min(f64::from(i + 1)) - a.max(f64::from(i))).max(0.0)
        };
        let mut worst = 0.0f64;
        for (x, y, p) in f.enumerate_pixels() {
            for c in 0..3 {
                let mut sum = 0.0;
                for j in (f64::from(y) * sy) as u32..((f64::from(y + 1) * sy).ceil() as u32).min(h)
                {
                    for i in
                        (f64::from(x) * sx) as u32..((f64::from(x + 1) * sx).ceil() as u32).min(w)
                    {
                        let k = cover(x, sx, i) * cover(y, sy, j);
                        sum += k * f64::from(board.get_pixel(i, j)[c]);
                    }
                }
                worst = worst.max((sum / (sx * sy) - f64::from(p[c])).abs());
            }
        }
        assert!(worst <= 1.25, "a pixel {worst} levels from the average");
    }

    #[test]
    fn the_weights_of_every_pixel_sum_to_256() {
        for (from, to) in [
            (1328, 400),
            (1328, 480),
            (481, 480),
            (960, 480),
            (1000, 7),
            (1176, 425),
        ] {
            let t = Taps::new(from, to);
            assert_eq!(t.first.len(), to as usize);
            for o in 0..to as usize {
                let (first, weights) = t.of(o);
                assert_eq!(weights.iter().map(|&w| u32::from(w)).sum::<u32>(), 256);
                let used = weights.iter().rposition(|&w| w > 0).unwrap_or(0);
                assert!(first + used < from as usize, "{from} to {to}: pixel {o}");
            }
            assert_eq!(t.of(0).0, 0);
        }
    }

    /// After the first, a frame carries only the rectangle around what changed: an unchanged
    /// frame is one pixel, a one-pixel change in a corner a one-pixel frame there.
    #[test]
    fn frames_after_the_first_carry_only_what_changed() {
        let frames = replay_like_frames();
        let gif = encode_gif(&frames).expect("encode");
        let mut decoder = indexed(&gif);
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
