//! Newtypes shared by every layer, below all of them (the engine's games and the i18n's texts
//! both name seats). Discord ids and SQL rows are converted at the edges.

use serde::{Deserialize, Serialize};
use std::fmt;

/// A seat at the table, 0-based. Seat 0 is "seat 1" for people.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Seat(pub u8);

impl Seat {
    /// The seat at 0-based `index`. Tables hold at most a handful of seats, so an index past
    /// `u8::MAX` is a bug; it saturates (an out-of-range seat every lookup refuses) rather than
    /// wrapping onto a real seat.
    pub fn at(index: impl TryInto<u8>) -> Seat {
        index.try_into().map_or(Seat(u8::MAX), Seat)
    }
    /// The seat at `index`, `None` past `u8::MAX` (for indices read from outside: SQL, files).
    pub fn try_at(index: impl TryInto<u8>) -> Option<Seat> {
        index.try_into().ok().map(Seat)
    }
    /// Every seat of a table of `n`, in order.
    pub fn all(n: usize) -> impl Iterator<Item = Seat> {
        (0..n).map(Seat::at)
    }
    pub fn index(self) -> usize {
        usize::from(self.0)
    }
    /// The seat after this one around a table of `n` (its left neighbour).
    pub fn next(self, n: usize) -> Seat {
        let n = u8::try_from(n.max(1)).unwrap_or(u8::MAX);
        Seat((self.0 + 1) % n)
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "seat {}", u16::from(self.0) + 1)
    }
}

/// A stored game. Assigned by the store.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct GameId(pub i64);

impl fmt::Display for GameId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// How many changes a stored game has seen; every write checks it (optimistic concurrency).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Version(pub u32);

impl Version {
    pub fn next(self) -> Version {
        Version(self.0 + 1)
    }
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// One value per seat, indexed by [`Seat`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct BySeat<T>(pub Vec<T>);

impl<T> BySeat<T> {
    pub fn from_fn(n: usize, f: impl FnMut(usize) -> T) -> Self {
        BySeat((0..n).map(f).collect())
    }
    pub fn len(&self) -> usize {
        self.0.len()
    }
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
    pub fn iter(&self) -> impl Iterator<Item = (Seat, &T)> {
        self.0.iter().enumerate().map(|(i, v)| (Seat::at(i), v))
    }
}

impl<T> std::ops::Index<Seat> for BySeat<T> {
    type Output = T;
    fn index(&self, seat: Seat) -> &T {
        &self.0[seat.index()]
    }
}

impl<T> std::ops::IndexMut<Seat> for BySeat<T> {
    fn index_mut(&mut self, seat: Seat) -> &mut T {
        &mut self.0[seat.index()]
    }
}
