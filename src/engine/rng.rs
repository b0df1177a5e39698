//! The randomness every game keeps in its state, with draws we own.
//!
//! A stored game is rebuilt from its seed and its options, so a draw that changes with a crate
//! upgrade changes every stored game. The generator is ChaCha8 (rand_chacha: its raw output and
//! its serialized form are part of that crate's semver contract), and the way raw output becomes
//! a number in a range, a coin toss or a shuffle is written here, bit for bit as rand 0.8 did it
//! when our games were first stored. rand 0.9 changed those algorithms; by owning them we keep
//! every stored game, bot and seeded test drawing as before, whatever rand does next.
//! `tests/suite/upgrades.rs` proves it against games stored by the rand 0.8 release.

use std::ops::{Range, RangeInclusive};

use rand_chacha::rand_core::{Rng as _, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

/// Seeded, portable, serializable (as `{seed, stream, word_pos}`, rand_chacha's stable form).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct GameRng(ChaCha8Rng);

pub fn rng_from_seed(seed: u64) -> GameRng {
    GameRng::seed_from_u64(seed)
}

impl GameRng {
    /// The seed expansion of `rand_core` (PCG32 words into ChaCha's 32-byte key), unchanged
    /// since rand_core 0.5.
    pub fn seed_from_u64(seed: u64) -> GameRng {
        GameRng(ChaCha8Rng::seed_from_u64(seed))
    }

    pub fn next_u32(&mut self) -> u32 {
        self.0.next_u32()
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// A number in `range` (`a..b` or `a..=b`; integers, or `f64` for `a..b`). Panics on an
    /// empty range, as slicing out of bounds would: callers draw from ranges they know.
    pub fn gen_range<T, R: DrawRange<T>>(&mut self, range: R) -> T {
        range.draw(self)
    }

    /// True with probability `p` (0 to 1). rand 0.8's Bernoulli: `p` scaled to 2^64.
    pub fn gen_bool(&mut self, p: f64) -> bool {
        assert!(
            (0.0..=1.0).contains(&p),
            "gen_bool: {p} is not a probability"
        );
        if p == 1.0 {
            return true;
        }
        let p_int = (p * 2.0 * (1u64 << 63) as f64) as u64;
        self.next_u64() < p_int
    }

    /// A float in [0, 1) with 53 random bits.
    pub fn unit_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// An index below `len`, drawn as rand 0.8's `gen_index` (32-bit when it fits).
    fn index(&mut self, len: usize) -> usize {
        if len <= u32::MAX as usize {
            self.gen_range(0..len as u32) as usize
        } else {
            self.gen_range(0..len)
        }
    }
}

/// A range a number can be drawn from.
pub trait DrawRange<T> {
    fn draw(self, rng: &mut GameRng) -> T;
}

/// Integers: Lemire's widening multiply with rand 0.8's rejection zone, on the same word size
/// (`$large`) rand 0.8 used for each type, so each draw consumes the same raw output.
macro_rules! draw_int {
    ($ty:ty, $unsigned:ty, $large:ty, $wide:ty, $next:ident) => {
        impl DrawRange<$ty> for RangeInclusive<$ty> {
            fn draw(self, rng: &mut GameRng) -> $ty {
                let (low, high) = self.into_inner();
                assert!(low <= high, "gen_range: empty range {low}..={high}");
                let range = high.wrapping_sub(low).wrapping_add(1) as $unsigned as $large;
                if range == 0 {
                    // The whole type: any value will do.
                    return rng.$next() as $ty;
                }
                let zone = if <$unsigned>::MAX <= u16::MAX as $unsigned {
                    let max = <$large>::MAX;
                    max - (max - range + 1) % range
                } else {
                    (range << range.leading_zeros()).wrapping_sub(1)
                };
                loop {
                    let v = rng.$next() as $large;
                    let product = <$wide>::from(v) * <$wide>::from(range);
                    let (hi, lo) = ((product >> <$large>::BITS) as $large, product as $large);
                    if lo <= zone {
                        return low.wrapping_add(hi as $ty);
                    }
                }
            }
        }

        impl DrawRange<$ty> for Range<$ty> {
            fn draw(self, rng: &mut GameRng) -> $ty {
                assert!(
                    self.start < self.end,
                    "gen_range: empty range {}..{}",
                    self.start,
                    self.end
                );
                (self.start..=self.end - 1).draw(rng)
            }
        }
    };
}

draw_int!(u8, u8, u32, u64, next_u32);
draw_int!(u16, u16, u32, u64, next_u32);
draw_int!(u32, u32, u32, u64, next_u32);
draw_int!(i32, u32, u32, u64, next_u32);
draw_int!(u64, u64, u64, u128, next_u64);
draw_int!(i64, u64, u64, u128, next_u64);
// rand 0.8 drew `usize` on the platform word; our targets are 64-bit.
draw_int!(usize, usize, u64, u128, next_u64);

impl DrawRange<f64> for Range<f64> {
    /// rand 0.8's `UniformFloat::sample_single`: 52 bits as a float in [1, 2), shifted to
    /// [0, 1), scaled; on the rare rounding up to `end`, the scale shrinks by one ulp.
    fn draw(self, rng: &mut GameRng) -> f64 {
        let (low, high) = (self.start, self.end);
        assert!(low < high, "gen_range: empty range {low}..{high}");
        let mut scale = high - low;
        assert!(scale.is_finite(), "gen_range: range overflow");
        loop {
            let one_two = f64::from_bits((rng.next_u64() >> 12) | (1023u64 << 52));
            let value = (one_two - 1.0) * scale + low;
            if value < high {
                return value;
            }
            scale = f64::from_bits(scale.to_bits() - 1);
        }
    }
}

/// Shuffling and picking from slices, as rand 0.8's `SliceRandom` did.
pub trait SliceDraw {
    type Item;
    /// Fisher-Yates from the back.
    fn shuffle(&mut self, rng: &mut GameRng);
    fn choose(&self, rng: &mut GameRng) -> Option<&Self::Item>;
}

impl<T> SliceDraw for [T] {
    type Item = T;

    fn shuffle(&mut self, rng: &mut GameRng) {
        for i in (1..self.len()).rev() {
            self.swap(i, rng.index(i + 1));
        }
    }

    fn choose(&self, rng: &mut GameRng) -> Option<&T> {
        if self.is_empty() {
            None
        } else {
            Some(&self[rng.index(self.len())])
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Values rand 0.8.8 with rand_chacha 0.3.1 drew from `ChaCha8Rng::seed_from_u64(7)`, the
    /// same calls in the same order (recorded before the upgrade).
    #[test]
    fn draws_as_rand_08_did() {
        let mut rng = rng_from_seed(7);
        let mut got = Vec::new();
        for n in [2u32, 3, 6, 19, 1000, u32::MAX] {
            got.push(u64::from(rng.gen_range(0..n)));
        }
        got.push(rng.gen_range(0..19u8).into());
        got.push(rng.gen_range(0..=5usize) as u64);
        got.push(rng.gen_range(-3..3i32) as u64);
        got.push(u64::from(rng.gen_bool(0.3)));
        got.push(rng.gen_range(-2.0..2.0f64).to_bits());
        got.push(rng.unit_f64().to_bits());
        let mut deck: Vec<u64> = (0..10).collect();
        deck.shuffle(&mut rng);
        got.extend(deck);
        got.push(*[10u64, 20, 30].choose(&mut rng).unwrap());
        assert_eq!(got, RAND_08_DRAWS.to_vec());
    }

    const RAND_08_DRAWS: &[u64] = &[
        0,
        0,
        1,
        3,
        270,
        3024842936,
        0,
        0,
        0,
        0,
        13833561787866317460,
        4605824942517792225,
        2,
        0,
        5,
        1,
        4,
        6,
        7,
        8,
        9,
        3,
        20,
    ];

    #[test]
    fn serializes_as_rand_chacha_did() {
        let mut rng = rng_from_seed(1);
        rng.next_u32();
        let json = serde_json::to_string(&rng).unwrap();
        assert!(json.starts_with("{\"seed\":["), "{json}");
        assert!(json.ends_with(",\"stream\":0,\"word_pos\":1}"), "{json}");
        let back: GameRng = serde_json::from_str(&json).unwrap();
        assert_eq!(back, rng);
    }
}
