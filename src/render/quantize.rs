//! A board reduced to at most 256 colours, for an indexed PNG: one byte per pixel instead of
//! three, so the file is about half the size and the deflate a third of the work (figures in
//! BENCHMARKS.md, issue 21). Boards are flat fills, lines and text; their few hundred "real"
//! colours are kept exactly and only anti-aliased edge pixels can move, to the nearest kept
//! colour.
//!
//! imageproc and image have no palette reduction (image's `ColorMap` needs a palette given);
//! colour_quant (NeuQuant) takes 60+ ms on a board and moves flat colours. This is a popularity
//! quantiser in two passes over runs of equal pixels, about 2-3 ms on a 1,400 × 900 board:
//!
//! 1. every exact colour is counted (boards hold a few thousand to some tens of thousands);
//! 2. if there are at most 256, the palette is exact and the image lossless. Otherwise colours
//!    covering at least [`PROMINENT`] pixels (fills, thick lines, text cores, seat colours) are
//!    kept exactly, most used first; the remaining (edge) colours are grouped in boxes of 5 bits
//!    per channel, and the other slots go, one by one, to the box the palette so far serves
//!    worst (its pixel count × the squared distance to its nearest slot), at its mean colour;
//! 3. each colour maps to its own slot if kept, else to the slot nearest its box's mean.
//!
//! Deterministic: the same image gives the same palette and bytes (leak twins stay identical).
//!
//! [`Census`] does the same for many images and one palette (the replay GIF's frames): each
//! image's colours are counted as it comes and the image is kept only as its runs until the
//! palette is chosen from all the counts.

use image::RgbaImage;

/// Colours covering at least this many pixels are kept exactly (a 6 × 6 patch): any seat
/// colour, fill or legend swatch is far larger, so no colour that carries meaning ever moves.
pub const PROMINENT: u32 = 36;
/// Slots reserved for edge colours even when many prominent colours exist.
const EDGE_SLOTS: usize = 48;

/// An image as palette indices, row by row.
pub struct Indexed {
    pub width: u32,
    pub height: u32,
    /// RGB triples, at most 256.
    pub palette: Vec<[u8; 3]>,
    pub indices: Vec<u8>,
    /// Whether every pixel kept its exact colour.
    pub exact: bool,
}

/// Reduces an opaque image to at most 256 colours (alpha is ignored).
pub fn quantize(img: &RgbaImage) -> Indexed {
    reduce(&[img], 256)
}

/// Reduces several opaque images to one palette of at most `colours` (2 to 256) colours, as
/// if they were one image: the frames of an animation, stacked top to bottom. The indices are
/// each image's in turn, `height` their heights' sum and `width` the first's (give them all
/// one width to read the result as an image).
pub fn quantize_all(imgs: &[RgbaImage], colours: usize) -> Indexed {
    let imgs: Vec<&RgbaImage> = imgs.iter().collect();
    reduce(&imgs, colours)
}

fn reduce(imgs: &[&RgbaImage], colours: usize) -> Indexed {
    let pixels: usize = imgs.iter().map(|img| img.as_raw().len() / 4).sum();
    let mut census = Census::new();
    let runs: Vec<Runs> = imgs.iter().map(|img| census.add(img)).collect();
    let palette = census.palette(colours);
    let mut indices = Vec::with_capacity(pixels);
    for r in &runs {
        palette.extend_indices(r, &mut indices);
    }
    Indexed {
        width: imgs.first().map_or(0, |img| img.width()),
        height: imgs.iter().map(|img| img.height()).sum(),
        palette: palette.colours,
        indices,
        exact: palette.exact,
    }
}

/// The colours of images given one at a time (the frames of an animation), counted for one
/// palette of them all, each image kept meanwhile as its runs of equal colour ([`Runs`]):
/// on a board a few times smaller than its pixels, and mapped to the palette without looking
/// a colour up again.
#[derive(Clone)]
pub struct Census {
    table: ColourTable,
    /// Each colour number's colour (`r | g << 8 | b << 16`) and pixel count.
    seen: Vec<u32>,
    counts: Vec<u32>,
}

/// An image as runs of equal colour in raster order: (colour number in its [`Census`], length).
#[derive(Clone)]
pub struct Runs {
    pub width: u32,
    pub height: u32,
    runs: Vec<(u32, u32)>,
}

impl Runs {
    /// Bytes held for the runs.
    pub fn bytes(&self) -> usize {
        self.runs.capacity() * std::mem::size_of::<(u32, u32)>()
    }

    /// The colour number of the pixel at the bottom left (the image must not be empty).
    pub fn bottom_left(&self) -> Option<u32> {
        let mut at = u64::from(self.width) * u64::from(self.height.checked_sub(1)?);
        for &(id, n) in &self.runs {
            if at < u64::from(n) {
                return Some(id);
            }
            at -= u64::from(n);
        }
        None
    }
}

/// How two images of the same width differ: pixels of another colour, and the area of the
/// rectangle around them (what a GIF frame drawn over the first would carry).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Difference {
    pub pixels: u64,
    pub area: u64,
}

impl Runs {
    /// How `other` differs from this image, both counted by the same [`Census`], the shorter
    /// of the two drawn on a taller canvas filled with colour number `fill` (as a GIF pads
    /// its frames); `None` when their widths differ. Walks both lists of runs once.
    pub fn difference(&self, other: &Runs, fill: u32) -> Option<Difference> {
        if self.width != other.width || self.width == 0 {
            return None;
        }
        let height = self.height.max(other.height);
        let pad = |r: &Runs| (fill, (height - r.height) * r.width);
        let (mut a, mut b) = (
            self.runs.iter().copied().chain([pad(self)]),
            other.runs.iter().copied().chain([pad(other)]),
        );
        let w = u64::from(self.width);
        let (mut ra, mut rb) = (a.next(), b.next());
        let (mut at, mut pixels) = (0u64, 0u64);
        let (mut left, mut right, mut top, mut bottom) = (u64::MAX, 0, u64::MAX, 0);
        while let (Some((ia, na)), Some((ib, nb))) = (ra, rb) {
            let n = na.min(nb);
            if n == 0 {
                // An empty padding run.
                ra = if na == 0 { a.next() } else { ra };
                rb = if nb == 0 { b.next() } else { rb };
                continue;
            }
            if ia != ib {
                let (first, last) = (at, at + u64::from(n) - 1);
                let (y0, y1) = (first / w, last / w);
                let (x0, x1) = if y0 == y1 {
                    (first % w, last % w)
                } else {
                    (0, w - 1)
                };
                pixels += u64::from(n);
                left = left.min(x0);
                right = right.max(x1);
                top = top.min(y0);
                bottom = bottom.max(y1);
            }
            at += u64::from(n);
            ra = if na == n {
                a.next()
            } else {
                Some((ia, na - n))
            };
            rb = if nb == n {
                b.next()
            } else {
                Some((ib, nb - n))
            };
        }
        let area = if pixels == 0 {
            0
        } else {
            (right + 1 - left) * (bottom + 1 - top)
        };
        Some(Difference { pixels, area })
    }
}

impl Default for Census {
    fn default() -> Self {
        Census::new()
    }
}

impl Census {
    pub fn new() -> Self {
        Census {
            table: ColourTable::with_capacity(4096),
            seen: Vec::new(),
            counts: Vec::new(),
        }
    }

    /// Counts an opaque image's colours (alpha is ignored) and returns it as runs.
    pub fn add(&mut self, img: &RgbaImage) -> Runs {
        let mut runs: Vec<(u32, u32)> = Vec::with_capacity(img.as_raw().len() / 32);
        for_each_run(img.as_raw(), |colour, run| {
            let id = self.number(colour);
            self.counts[id as usize] += run;
            runs.push((id, run));
        });
        Runs {
            width: img.width(),
            height: img.height(),
            runs,
        }
    }

    /// Counts an image already counted by `from` (as its runs there) and returns its runs here:
    /// the same as [`add`](Census::add) of the image itself.
    pub fn add_runs(&mut self, from: &Census, image: &Runs) -> Runs {
        let mut runs = Vec::with_capacity(image.runs.len());
        for &(id, run) in &image.runs {
            let colour = from.seen.get(id as usize).copied().unwrap_or(0xff_ffff);
            let id = self.number(colour);
            self.counts[id as usize] += run;
            runs.push((id, run));
        }
        Runs {
            width: image.width,
            height: image.height,
            runs,
        }
    }

    /// Counts `n` more pixels of colour number `id` (padding drawn in a colour already seen).
    pub fn count(&mut self, id: u32, n: u32) {
        if let Some(c) = self.counts.get_mut(id as usize) {
            *c = c.saturating_add(n);
        }
    }

    /// How many different colours were seen.
    pub fn colours(&self) -> usize {
        self.seen.len()
    }

    /// The number of a colour (alpha is ignored), numbering it if it was not seen (with no
    /// pixel counted).
    pub fn number_of(&mut self, colour: image::Rgba<u8>) -> u32 {
        let [r, g, b, _] = colour.0;
        self.number(u32::from_le_bytes([r, g, b, 0]))
    }

    fn number(&mut self, colour: u32) -> u32 {
        let id = self.table.id_of(colour, self.seen.len() as u32);
        if id as usize == self.seen.len() {
            self.seen.push(colour);
            self.counts.push(0);
        }
        id
    }

    /// One palette of at most `colours` (2 to 256) for every pixel counted so far.
    pub fn palette(&self, colours: usize) -> Palette {
        let (seen, counts) = (&self.seen, &self.counts);
        let colours = colours.clamp(2, 256);
        // Most used first; ties by colour, so the order never depends on the table's layout
        // (nor on the order the colours were first seen in).
        let mut order: Vec<u32> = (0..seen.len() as u32).collect();
        order.sort_unstable_by(|&a, &b| {
            let (a, b) = (a as usize, b as usize);
            counts[b].cmp(&counts[a]).then(seen[a].cmp(&seen[b]))
        });

        let mut palette: Vec<u32> = Vec::with_capacity(colours);
        let mut slot_of = vec![0u8; seen.len()];
        let exact = seen.len() <= colours;
        if exact {
            for (slot, &id) in order.iter().enumerate() {
                palette.push(seen[id as usize]);
                slot_of[id as usize] = slot as u8;
            }
        } else {
            let kept_limit = colours.saturating_sub(EDGE_SLOTS).max(1);
            let kept = order
                .iter()
                .take(kept_limit)
                .take_while(|&&id| counts[id as usize] >= PROMINENT)
                .count();
            let mut boxes = vec![BoxStats::default(); 1 << 15];
            for (i, &id) in order.iter().enumerate() {
                let (colour, count) = (seen[id as usize], counts[id as usize]);
                if i < kept {
                    slot_of[id as usize] = i as u8;
                    palette.push(colour);
                } else {
                    boxes[box_of(colour)].add(colour, count);
                }
            }
            let used: Vec<usize> = (0..boxes.len()).filter(|&b| boxes[b].count > 0).collect();
            // Box means and distances as plain f32 columns, so the loops below run four boxes
            // at a time (every value is an integer under 2^24: exact in f32, the same on every
            // run).
            let column = |c: usize| -> Vec<f32> {
                used.iter()
                    .map(|&b| split(boxes[b].mean())[c] as f32)
                    .collect()
            };
            let means = [column(0), column(1), column(2)];
            let weight: Vec<f32> = used.iter().map(|&b| boxes[b].count as f32).collect();
            // Farthest-first by weight: each free slot goes to the box whose pixels the
            // palette so far serves worst (pixel count × squared distance to the nearest
            // slot), so edge colours between every pair of fills get a slot, not only the
            // most common pair's.
            let mut distance = vec![f32::MAX; used.len()];
            let mut nearest_slot = vec![0u32; used.len()];
            for (slot, &c) in palette.iter().enumerate() {
                serve(
                    slot as u32,
                    split(c),
                    &means,
                    &mut distance,
                    &mut nearest_slot,
                );
            }
            while palette.len() < colours {
                let mut worst = (0.0f32, usize::MAX);
                for (k, (w, d)) in weight.iter().zip(&distance).enumerate() {
                    let score = w * d.min(16_777_216.0);
                    if score > worst.0 {
                        worst = (score, k);
                    }
                }
                let k = worst.1;
                if k == usize::MAX {
                    break;
                }
                let colour = boxes[used[k]].mean();
                serve(
                    palette.len() as u32,
                    split(colour),
                    &means,
                    &mut distance,
                    &mut nearest_slot,
                );
                palette.push(colour);
            }
            let mut nearest_of_box = vec![0u8; boxes.len()];
            for (k, &b) in used.iter().enumerate() {
                nearest_of_box[b] = nearest_slot[k] as u8;
            }
            // The kept colours are a prefix of `order` (most used first).
            for &id in &order[kept..] {
                slot_of[id as usize] = nearest_of_box[box_of(seen[id as usize])];
            }
        }
        Palette {
            colours: palette
                .iter()
                .map(|&c| {
                    let [r, g, b] = split(c);
                    [r as u8, g as u8, b as u8]
                })
                .collect(),
            slot_of,
            exact,
        }
    }
}

/// The palette a [`Census`] chose, and each counted colour's slot in it.
pub struct Palette {
    /// RGB triples, at most 256.
    pub colours: Vec<[u8; 3]>,
    slot_of: Vec<u8>,
    /// Whether every colour counted has its own slot.
    pub exact: bool,
}

impl Palette {
    /// The slot of colour number `id` of the census.
    pub fn slot(&self, id: u32) -> u8 {
        self.slot_of.get(id as usize).copied().unwrap_or(0)
    }

    /// Appends the image's pixels as palette slots to `out`, row by row.
    pub fn extend_indices(&self, image: &Runs, out: &mut Vec<u8>) {
        for &(id, run) in &image.runs {
            out.extend(std::iter::repeat_n(self.slot(id), run as usize));
        }
    }
}

/// Calls `f(colour, length)` for each run of equal pixels in raster order; boards are mostly
/// long runs, so the per-colour work is done a few hundred thousand times, not a million.
/// A colour is `r | g << 8 | b << 16`, read as one little-endian word with alpha masked off.
///
/// Pixels are compared as whole words, alpha included (a change of alpha alone only splits a
/// run: the colour's count is the same), four at a time while a run goes on, so the scan
/// costs about a quarter of a read per pixel on a board's long runs.
fn for_each_run(pixels: &[u8], mut f: impl FnMut(u32, u32)) {
    const RGB: u32 = 0x00FF_FFFF;
    const SPLAT: u128 = 0x0000_0001_0000_0001_0000_0001_0000_0001;
    let word =
        |i: usize| u32::from_le_bytes([pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3]]);
    let len = pixels.len() / 4 * 4;
    if len == 0 {
        return;
    }
    let mut current = word(0);
    let mut four = u128::from(current) * SPLAT;
    let mut run = 0u32;
    let mut i = 0;
    while i < len {
        if let Some(chunk) = pixels.get(i..i + 16) {
            let mut bytes = [0u8; 16];
            bytes.copy_from_slice(chunk);
            if u128::from_le_bytes(bytes) == four {
                run += 4;
                i += 16;
                continue;
            }
        }
        let colour = word(i);
        if colour == current {
            run += 1;
        } else {
            f(current & RGB, run);
            current = colour;
            four = u128::from(current) * SPLAT;
            run = 1;
        }
        i += 4;
    }
    f(current & RGB, run);
}

fn split(c: u32) -> [i32; 3] {
    [
        c as i32 & 255,
        (c >> 8) as i32 & 255,
        (c >> 16) as i32 & 255,
    ]
}

/// The 5-bit-per-channel box of a colour.
fn box_of(c: u32) -> usize {
    (((c >> 3) & 31) << 10 | ((c >> 11) & 31) << 5 | ((c >> 19) & 31)) as usize
}

/// Offers palette slot `slot` (colour `c`) to every box: a box takes it if it is nearer than
/// its nearest so far (squared distance, green weighted most and red least, as the eye does).
fn serve(slot: u32, c: [i32; 3], means: &[Vec<f32>; 3], distance: &mut [f32], nearest: &mut [u32]) {
    let [cr, cg, cb] = c.map(|v| v as f32);
    let columns = means[0].iter().zip(&means[1]).zip(&means[2]);
    for (((r, g), b), (d, n)) in columns.zip(distance.iter_mut().zip(nearest.iter_mut())) {
        let (dr, dg, db) = (r - cr, g - cg, b - cb);
        let new = 2.0 * dr * dr + 4.0 * dg * dg + 3.0 * db * db;
        let better = new < *d;
        *d = if better { new } else { *d };
        *n = if better { slot } else { *n };
    }
}

#[derive(Clone, Default)]
struct BoxStats {
    count: u64,
    sum: [u64; 3],
}

impl BoxStats {
    fn add(&mut self, colour: u32, count: u32) {
        let n = u64::from(count);
        self.count += n;
        for (s, v) in self.sum.iter_mut().zip(split(colour)) {
            *s += v as u64 * n;
        }
    }

    fn mean(&self) -> u32 {
        let [r, g, b] = self.sum.map(|s| ((s + self.count / 2) / self.count) as u32);
        r | g << 8 | b << 16
    }
}

/// An empty slot of the table (no 24-bit colour has it).
const EMPTY: u32 = u32::MAX;

/// Open-addressing map from a 24-bit colour to its number in first-seen order: std's SipHash
/// map cost more than the whole quantiser.
#[derive(Clone)]
struct ColourTable {
    keys: Vec<u32>,
    ids: Vec<u32>,
    len: usize,
}

impl ColourTable {
    fn with_capacity(capacity: usize) -> Self {
        let size = capacity.next_power_of_two();
        ColourTable {
            keys: vec![EMPTY; size],
            ids: vec![0; size],
            len: 0,
        }
    }

    fn slot(&self, colour: u32) -> usize {
        let mask = self.keys.len() - 1;
        let mut i = (colour.wrapping_mul(0x9E37_79B1) >> 8) as usize & mask;
        while self.keys[i] != colour && self.keys[i] != EMPTY {
            i = (i + 1) & mask;
        }
        i
    }

    /// The colour's number; a colour not seen yet gets `next`.
    fn id_of(&mut self, colour: u32, next: u32) -> u32 {
        let i = self.slot(colour);
        if self.keys[i] != EMPTY {
            return self.ids[i];
        }
        self.keys[i] = colour;
        self.ids[i] = next;
        self.len += 1;
        if self.len * 2 > self.keys.len() {
            self.grow();
        }
        next
    }

    fn grow(&mut self) {
        let old = std::mem::replace(self, ColourTable::with_capacity(self.keys.len() * 2));
        for (&k, &id) in old.keys.iter().zip(&old.ids) {
            if k != EMPTY {
                let i = self.slot(k);
                self.keys[i] = k;
                self.ids[i] = id;
                self.len += 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Rgba;

    fn colour_at(q: &Indexed, x: u32, y: u32) -> [u8; 3] {
        q.palette[q.indices[(y * q.width + x) as usize] as usize]
    }

    #[test]
    fn few_colours_are_kept_exactly() {
        let mut img = RgbaImage::from_pixel(40, 30, Rgba([250, 248, 240, 255]));
        for x in 0..40 {
            img.put_pixel(x, 10, Rgba([x as u8 * 3, 20, 200, 255]));
        }
        let q = quantize(&img);
        assert!(q.exact);
        for (x, y, p) in img.enumerate_pixels() {
            assert_eq!(colour_at(&q, x, y), [p[0], p[1], p[2]], "at {x},{y}");
        }
    }

    /// A small seat-coloured patch among thousands of edge colours keeps its colour exactly;
    /// edge colours move by little.
    #[test]
    fn prominent_colours_stay_exact_among_many_edge_colours() {
        let mut img = RgbaImage::from_pixel(256, 256, Rgba([255, 255, 255, 255]));
        for y in 0..256u32 {
            for x in 0..128u32 {
                // A smooth gradient: 32,768 distinct colours, one pixel each.
                img.put_pixel(x, y, Rgba([x as u8 * 2, y as u8, 128 - x as u8 / 2, 255]));
            }
        }
        let seat = Rgba([213, 94, 0, 255]);
        for y in 200..207 {
            for x in 200..206 {
                img.put_pixel(x, y, seat);
            }
        }
        let q = quantize(&img);
        assert!(!q.exact);
        assert!(q.palette.len() <= 256);
        assert_eq!(colour_at(&q, 203, 203), [213, 94, 0]);
        assert_eq!(colour_at(&q, 250, 10), [255, 255, 255]);
        let worst = img
            .enumerate_pixels()
            .map(|(x, y, p)| {
                let c = colour_at(&q, x, y);
                (0..3).map(|i| p[i].abs_diff(c[i])).max().unwrap_or(0)
            })
            .max()
            .unwrap_or(0);
        assert!(worst <= 24, "an edge colour moved by {worst}");
    }

    /// The four-at-a-time scan sees the same runs as a pixel-by-pixel one (merging runs
    /// that differ only in alpha), on every alignment of run starts and lengths.
    #[test]
    fn the_run_scan_matches_a_pixel_by_pixel_scan() {
        let mut pixels = Vec::new();
        let mut state = 12345u32;
        for _ in 0..3000 {
            state = state.wrapping_mul(1_103_515_245).wrapping_add(12345);
            let colour = (state >> 8) % 5;
            let alpha = if state.is_multiple_of(7) { 128 } else { 255 };
            let run = 1 + (state >> 20) % 11;
            for _ in 0..run {
                pixels.extend_from_slice(&[colour as u8 * 40, 7, 9, alpha]);
            }
        }
        let mut fast: Vec<(u32, u32)> = Vec::new();
        for_each_run(&pixels, |c, n| match fast.last_mut() {
            Some(last) if last.0 == c => last.1 += n,
            _ => fast.push((c, n)),
        });
        let mut slow: Vec<(u32, u32)> = Vec::new();
        for p in pixels.chunks_exact(4) {
            let c = u32::from_le_bytes([p[0], p[1], p[2], 0]);
            match slow.last_mut() {
                Some(last) if last.0 == c => last.1 += 1,
                _ => slow.push((c, 1)),
            }
        }
        assert_eq!(fast, slow);
    }

    #[test]
    fn the_same_image_gives_the_same_bytes() {
        let mut img = RgbaImage::from_pixel(64, 64, Rgba([10, 20, 30, 255]));
        for i in 0..64u32 {
            img.put_pixel(i, (i * 7) % 64, Rgba([i as u8 * 4, 255 - i as u8, 7, 255]));
            img.put_pixel((i * 3) % 64, i, Rgba([1, i as u8, i as u8 * 2, 255]));
        }
        let (a, b) = (quantize(&img), quantize(&img));
        assert_eq!(a.palette, b.palette);
        assert_eq!(a.indices, b.indices);
    }

    /// Two images' difference, counted from their runs: the changed pixels and the rectangle
    /// around them, the shorter image padded with the fill colour; nothing for equal ones.
    #[test]
    fn a_difference_counts_changed_pixels_and_their_rectangle() {
        let white = Rgba([255, 255, 255, 255]);
        let base = RgbaImage::from_pixel(10, 6, white);
        let mut moved = base.clone();
        // Two pixels changed on row 1, one on row 4 (a run across the end of row 3 too).
        moved.put_pixel(2, 1, Rgba([0, 0, 0, 255]));
        moved.put_pixel(7, 1, Rgba([0, 0, 0, 255]));
        moved.put_pixel(9, 3, Rgba([9, 9, 9, 255]));
        moved.put_pixel(0, 4, Rgba([9, 9, 9, 255]));
        let mut census = Census::new();
        let (a, b) = (census.add(&base), census.add(&moved));
        let fill = census.number_of(white);
        assert_eq!(
            a.difference(&b, fill),
            Some(Difference {
                pixels: 4,
                area: 10 * 4
            })
        );
        assert_eq!(a.difference(&a, fill), Some(Difference::default()));
        // A taller image over the same one padded with white: only its extra rows that are
        // not white differ.
        let mut taller = RgbaImage::from_pixel(10, 8, white);
        taller.put_pixel(3, 7, Rgba([0, 0, 0, 255]));
        let t = census.add(&taller);
        assert_eq!(
            a.difference(&t, fill),
            Some(Difference { pixels: 1, area: 1 })
        );
        assert_eq!(t.difference(&a, fill), a.difference(&t, fill));
        // Another width cannot be compared.
        let narrow = census.add(&RgbaImage::from_pixel(9, 6, white));
        assert_eq!(a.difference(&narrow, fill), None);
    }
}
