//! Board layers drawn once and copied: the part of a board image that depends only on its
//! layout (a few fields of the view, the key), kept for the next board of the same layout.
//!
//! A board redraws its ground every time although most boards of a game share it: Vortex's
//! hexagon, checkerboard, goal rings and panel were about a third of its render. The ground is
//! drawn by a function of the key alone (never of the rest of the view), so a copy is byte for
//! byte what a fresh draw would give, and rendering stays a pure function of the view. Shared
//! between threads (boards render on tokio's blocking threads); a handful of keys are kept,
//! the least recently used dropped first, so memory stays bounded (a 1400 × 900 ground is 5 MB).

use std::sync::{Arc, Mutex, PoisonError};

use image::{Rgba, RgbaImage};

/// At most `bound` values, each with the key it was made from.
pub struct Kept<K, V> {
    slots: Mutex<Vec<(K, Arc<V>)>>,
    bound: usize,
}

impl<K: PartialEq, V> Kept<K, V> {
    pub const fn new(bound: usize) -> Kept<K, V> {
        Kept {
            slots: Mutex::new(Vec::new()),
            bound,
        }
    }

    /// The value made for `key`, making it with `make` (which must depend on the key only)
    /// the first time or after it was dropped.
    pub fn get_or_make(&self, key: K, make: impl FnOnce(&K) -> V) -> Arc<V> {
        if let Some(kept) = self.get(&key) {
            return kept;
        }
        let made = Arc::new(make(&key));
        if self.bound > 0 {
            let mut slots = self.slots.lock().unwrap_or_else(PoisonError::into_inner);
            // Another thread may have made the same key meanwhile: the same value, keep one.
            if !slots.iter().any(|(k, _)| *k == key) {
                if slots.len() >= self.bound {
                    slots.remove(0);
                }
                slots.push((key, Arc::clone(&made)));
            }
        }
        made
    }

    /// The kept value for `key`, now the most recently used.
    fn get(&self, key: &K) -> Option<Arc<V>> {
        let mut slots = self.slots.lock().unwrap_or_else(PoisonError::into_inner);
        let i = slots.iter().position(|(k, _)| k == key)?;
        let slot = slots.remove(i);
        let kept = Arc::clone(&slot.1);
        slots.push(slot);
        Some(kept)
    }

    /// How many values are kept (for tests).
    pub fn len(&self) -> usize {
        self.slots
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// An image kept as its background colour and the runs of pixels that differ from it: for a
/// ground that is mostly one flat colour (Cortexcape's lab: a name and the corridors, a
/// seventh of its pixels), filling the background and copying the runs writes the same
/// bytes as copying the whole image, and reads a seventh of them (a whole 5 MB copy took
/// longer than the corridors it saved).
pub struct Sparse {
    width: u32,
    height: u32,
    bg: Rgba<u8>,
    /// Byte offset in the image and length of each run; their bytes follow one another in
    /// `bytes`.
    runs: Vec<(usize, usize)>,
    bytes: Vec<u8>,
}

/// Runs of differing pixels closer than this are kept as one (the background between them
/// copied as is): fewer, longer copies.
const GAP: usize = 8;

impl Sparse {
    pub fn of(img: &RgbaImage, bg: Rgba<u8>) -> Sparse {
        let raw: &[u8] = img;
        let mut runs: Vec<(usize, usize)> = Vec::new();
        let mut bytes = Vec::new();
        let mut open: Option<(usize, usize)> = None; // first and last differing pixel
        for (i, px) in raw.chunks_exact(4).enumerate() {
            if px == bg.0 {
                continue;
            }
            open = match open {
                Some((first, last)) if i - last <= GAP => Some((first, i)),
                Some((first, last)) => {
                    runs.push((first * 4, (last + 1 - first) * 4));
                    Some((i, i))
                }
                None => Some((i, i)),
            };
        }
        if let Some((first, last)) = open {
            runs.push((first * 4, (last + 1 - first) * 4));
        }
        for &(at, len) in &runs {
            bytes.extend_from_slice(&raw[at..at + len]);
        }
        Sparse {
            width: img.width(),
            height: img.height(),
            bg,
            runs,
            bytes,
        }
    }

    /// The image again, byte for byte.
    pub fn image(&self) -> RgbaImage {
        let mut img = crate::render::canvas(self.width, self.height, self.bg);
        let buf: &mut [u8] = &mut img;
        let mut from = 0;
        for &(at, len) in &self.runs {
            buf[at..at + len].copy_from_slice(&self.bytes[from..from + len]);
            from += len;
        }
        img
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn draw(k: &u8) -> RgbaImage {
        RgbaImage::from_pixel(2, 2, image::Rgba([*k, 0, 0, 255]))
    }

    #[test]
    fn keeps_what_was_made_and_at_most_its_bound() {
        let kept: Kept<u8, RgbaImage> = Kept::new(2);
        let mut draws = 0;
        for k in [1u8, 2, 1, 3, 1, 2] {
            let img = kept.get_or_make(k, |k| {
                draws += 1;
                draw(k)
            });
            assert_eq!(*img, draw(&k));
            assert!(kept.len() <= 2);
        }
        // 1, 2 drawn; 1 kept; 3 drawn (2 dropped: 1 was used later); 1 kept; 2 drawn again.
        assert_eq!(draws, 4);
        let none: Kept<u8, RgbaImage> = Kept::new(0);
        assert_eq!(*none.get_or_make(5, draw), draw(&5));
        assert!(none.is_empty());
    }

    #[test]
    fn a_sparse_image_gives_back_its_bytes() {
        let bg = Rgba([40, 70, 140, 255]);
        let mut img = RgbaImage::from_pixel(37, 23, bg);
        assert_eq!(Sparse::of(&img, bg).image(), img);
        // Lone pixels, runs, short and long gaps, the first and last pixels, a near-bg one.
        for (x, y) in [
            (0, 0),
            (5, 0),
            (9, 0),
            (30, 0),
            (36, 4),
            (0, 5),
            (12, 12),
            (36, 22),
        ] {
            img.put_pixel(x, y, Rgba([200, 10, 10, 255]));
        }
        for x in 3..33 {
            img.put_pixel(x, 17, Rgba([x as u8, 1, 2, 255]));
        }
        img.put_pixel(20, 20, Rgba([40, 70, 140, 254]));
        let sparse = Sparse::of(&img, bg);
        assert_eq!(sparse.image(), img);
        assert!(sparse.bytes.len() < img.as_raw().len() / 2);
    }
}
