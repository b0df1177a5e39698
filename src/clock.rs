//! The wall clock and fresh seeds, for the edges (store, table, bot). The pure core never reads
//! either: times come in as arguments and randomness from the seeded RNG in each game state.

use std::hash::{BuildHasher, Hasher};
use std::time::{SystemTime, UNIX_EPOCH};

/// Seconds since the Unix epoch (0 if the clock is before it).
pub fn unix_now() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX))
}

/// A fresh game seed: the standard library's randomly keyed hasher over the clock and a salt
/// (e.g. an interaction id). Only the seed is drawn here; a game's randomness is the ChaCha RNG
/// seeded with it.
pub fn fresh_seed(salt: u64) -> u64 {
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u64(salt);
    h.write_u128(
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos()),
    );
    h.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_differ_and_time_moves_forward() {
        assert_ne!(fresh_seed(1), fresh_seed(1));
        assert!(unix_now() > 1_700_000_000);
    }
}
