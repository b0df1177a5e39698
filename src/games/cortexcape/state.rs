//! The state of a Cortexcape game and its basic types.

use serde::{Deserialize, Serialize};

/// A piece on a door.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Piece {
    White,
    Green,
    Yellow,
    Red,
    Tower,
}

impl Piece {
    /// Pool and notation order: w g y r t.
    pub const ALL: [Piece; 5] = [
        Piece::White,
        Piece::Green,
        Piece::Yellow,
        Piece::Red,
        Piece::Tower,
    ];

    pub fn code(self) -> char {
        match self {
            Piece::White => 'w',
            Piece::Green => 'g',
            Piece::Yellow => 'y',
            Piece::Red => 'r',
            Piece::Tower => 't',
        }
    }

    /// Points collected when a path passes it (towers cannot be passed).
    pub fn value(self) -> i64 {
        match self {
            Piece::White | Piece::Tower => 0,
            Piece::Green => 1,
            Piece::Yellow => 2,
            Piece::Red => 3,
        }
    }
}

/// A door (1..=20) or an exit (1..=12).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Place {
    Door(u8),
    Exit(u8),
}

/// Where the start cone stands: on a corridor (standard game) or on an exit (short game).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Start {
    Corridor(Place, Place),
    Exit(u8),
}
