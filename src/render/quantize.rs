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
    let pixels = img.as_raw();
    let mut counts = ColourTable::with_capacity(4096);
    for_each_run(pixels, |colour, run| counts.add(colour, run));

    let mut colours: Vec<(u32, u32)> = counts.entries().collect();
    // Most used first; ties by colour, so the order never depends on the table's layout.
    colours.sort_unstable_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));

    let mut palette: Vec<u32> = Vec::with_capacity(256);
    let exact = colours.len() <= 256;
    if exact {
        for (i, &(colour, _)) in colours.iter().enumerate() {
            palette.push(colour);
            counts.set(colour, i as u32);
        }
    } else {
        let kept_limit = 256 - EDGE_SLOTS;
        let kept = colours
            .iter()
            .take(kept_limit)
            .take_while(|(_, count)| *count >= PROMINENT)
            .count();
        let mut boxes = vec![BoxStats::default(); 1 << 15];
        for (i, &(colour, count)) in colours.iter().enumerate() {
            if i < kept {
                counts.set(colour, i as u32);
                palette.push(colour);
            } else {
                boxes[box_of(colour)].add(colour, count);
            }
        }
        let used: Vec<usize> = (0..boxes.len()).filter(|&b| boxes[b].count > 0).collect();
        let means: Vec<[i32; 3]> = used.iter().map(|&b| split(boxes[b].mean())).collect();
        // Farthest-first by weight: each free slot goes to the box whose pixels the palette so
        // far serves worst (pixel count × squared distance to the nearest slot), so edge
        // colours between every pair of fills get a slot, not only the most common pair's.
        let mut distance = vec![i64::MAX; used.len()];
        let mut nearest_slot = vec![0u8; used.len()];
        let mut serve = |slot: usize, colour: [i32; 3], distance: &mut [i64]| {
            for (k, mean) in means.iter().enumerate() {
                let d = weighted_distance(colour, *mean);
                if d < distance[k] {
                    distance[k] = d;
                    nearest_slot[k] = slot as u8;
                }
            }
        };
        for (slot, &c) in palette.iter().enumerate() {
            serve(slot, split(c), &mut distance);
        }
        while palette.len() < 256 {
            let worst = (0..used.len())
                .map(|k| (boxes[used[k]].count as i64).saturating_mul(distance[k].min(1 << 24)))
                .enumerate()
                .max_by(|a, b| a.1.cmp(&b.1).then(b.0.cmp(&a.0)));
            let Some((k, _)) = worst.filter(|(_, score)| *score > 0) else {
                break;
            };
            serve(palette.len(), means[k], &mut distance);
            palette.push(boxes[used[k]].mean());
        }
        let mut nearest_of_box = vec![0u8; boxes.len()];
        for (k, &b) in used.iter().enumerate() {
            nearest_of_box[b] = nearest_slot[k];
        }
        // The kept colours are a prefix of `colours` (most used first).
        for &(colour, _) in &colours[kept..] {
            counts.set(colour, u32::from(nearest_of_box[box_of(colour)]));
        }
    }

    let mut indices = Vec::with_capacity(pixels.len() / 4);
    for_each_run(pixels, |colour, run| {
        let index = counts.get(colour) as u8;
        indices.extend(std::iter::repeat_n(index, run as usize));
    });
    Indexed {
        width: img.width(),
        height: img.height(),
        palette: palette
            .iter()
            .map(|&c| {
                let [r, g, b] = split(c);
                [r as u8, g as u8, b as u8]
            })
            .collect(),
        indices,
        exact,
    }
}

/// Calls `f(colour, length)` for each run of equal pixels in raster order; boards are mostly
/// long runs, so the per-colour work is done a few hundred thousand times, not a million.
fn for_each_run(pixels: &[u8], mut f: impl FnMut(u32, u32)) {
    let mut iter = pixels
        .chunks_exact(4)
        .map(|p| u32::from(p[0]) << 16 | u32::from(p[1]) << 8 | u32::from(p[2]));
    let Some(mut current) = iter.next() else {
        return;
    };
    let mut run = 1u32;
    for colour in iter {
        if colour == current {
            run += 1;
        } else {
            f(current, run);
            current = colour;
            run = 1;
        }
    }
    f(current, run);
}

fn split(c: u32) -> [i32; 3] {
    [
        (c >> 16) as i32 & 255,
        (c >> 8) as i32 & 255,
        c as i32 & 255,
    ]
}

/// The 5-bit-per-channel box of a colour.
fn box_of(c: u32) -> usize {
    (((c >> 19) & 31) << 10 | ((c >> 11) & 31) << 5 | ((c >> 3) & 31)) as usize
}

/// Squared distance between colours, green weighted most and red least, as the eye does.
fn weighted_distance(a: [i32; 3], b: [i32; 3]) -> i64 {
    let (dr, dg, db) = (a[0] - b[0], a[1] - b[1], a[2] - b[2]);
    i64::from(2 * dr * dr + 4 * dg * dg + 3 * db * db)
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
        r << 16 | g << 8 | b
    }
}

/// An empty slot of the table (no 24-bit colour has it).
const EMPTY: u32 = u32::MAX;

/// Open-addressing map from a 24-bit colour to a count, then to its palette index: std's
/// SipHash map cost more than the whole quantiser.
struct ColourTable {
    keys: Vec<u32>,
    values: Vec<u32>,
    len: usize,
}

impl ColourTable {
    fn with_capacity(capacity: usize) -> Self {
        let size = capacity.next_power_of_two();
        ColourTable {
            keys: vec![EMPTY; size],
            values: vec![0; size],
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

    fn add(&mut self, colour: u32, n: u32) {
        let i = self.slot(colour);
        if self.keys[i] == EMPTY {
            self.keys[i] = colour;
            self.len += 1;
            if self.len * 2 > self.keys.len() {
                self.grow();
                let i = self.slot(colour);
                self.values[i] += n;
                return;
            }
        }
        self.values[i] += n;
    }

    fn grow(&mut self) {
        let old = std::mem::replace(self, ColourTable::with_capacity(self.keys.len() * 2));
        for (k, v) in old.entries() {
            let i = self.slot(k);
            self.keys[i] = k;
            self.values[i] = v;
            self.len += 1;
        }
    }

    fn entries(&self) -> impl Iterator<Item = (u32, u32)> + '_ {
        self.keys
            .iter()
            .zip(&self.values)
            .filter(|(k, _)| **k != EMPTY)
            .map(|(k, v)| (*k, *v))
    }

    /// Every colour asked for was added in the first pass.
    fn get(&self, colour: u32) -> u32 {
        self.values[self.slot(colour)]
    }

    fn set(&mut self, colour: u32, value: u32) {
        let i = self.slot(colour);
        self.values[i] = value;
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
}
