//! The state of a Cortexcape game and its basic types.

use serde::{Deserialize, Serialize};

use super::lab::LabId;
use crate::engine::{GameRng, Outcome, Seat};

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

/// Number of doors, exits and places (doors first, then exits) in every lab.
pub const DOORS: usize = 20;
pub const EXITS: usize = 12;
pub const PLACES: usize = DOORS + EXITS;

impl Piece {
    /// Index in the pool order w g y r t.
    pub fn index(self) -> usize {
        match self {
            Piece::White => 0,
            Piece::Green => 1,
            Piece::Yellow => 2,
            Piece::Red => 3,
            Piece::Tower => 4,
        }
    }

    pub fn from_code(c: char) -> Option<Piece> {
        Piece::ALL.into_iter().find(|p| p.code() == c)
    }
}

impl Place {
    /// Dense index: doors 0..20, exits 20..32. Out-of-range ids map past the end, so
    /// lookups with `get` fail instead of aliasing another place.
    pub fn idx(self) -> usize {
        match self {
            Place::Door(d) => usize::from(d).wrapping_sub(1).min(PLACES),
            Place::Exit(x) => (DOORS + usize::from(x)).wrapping_sub(1).min(PLACES),
        }
    }

    pub fn from_idx(i: usize) -> Place {
        // Indices come from our own tables (< 32), so the casts cannot truncate.
        if i < DOORS {
            Place::Door(u8::try_from(i + 1).unwrap_or(0))
        } else {
            Place::Exit(u8::try_from(i + 1 - DOORS).unwrap_or(0))
        }
    }

    pub fn is_exit(self) -> bool {
        matches!(self, Place::Exit(_))
    }

    /// Notation: `13` for a door, `x4` for an exit.
    pub fn notation(self) -> String {
        match self {
            Place::Door(d) => d.to_string(),
            Place::Exit(x) => format!("x{x}"),
        }
    }
}

impl Start {
    /// Notation: `12-13`, `6-x12` or `x1`.
    pub fn notation(self) -> String {
        match self {
            Start::Corridor(a, b) => format!("{}-{}", a.notation(), b.notation()),
            Start::Exit(x) => format!("x{x}"),
        }
    }
}

/// Canonical corridor id: the lower place first (doors before exits).
pub fn canonical(a: Place, b: Place) -> (Place, Place) {
    if a <= b {
        (a, b)
    } else {
        (b, a)
    }
}

/// Where the round stands. Configure and Escape derive their sub-prompt from the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stage {
    /// P1, P2, P3: the owner fills doors, moves towers, confirms.
    Configure,
    ChooseExit,
    ChooseStartDoor,
    ChooseStartCorridor(u8),
    ChooseStartExit,
    ConfirmChallenge,
    /// P8, P9: the owner walks.
    Escape,
    Over,
}

/// One finished round, kept for the score table and the recap.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundRecord {
    pub round: u32,
    pub owner: Seat,
    pub setter: Seat,
    pub start: Start,
    pub target: u8,
    pub path: Vec<Place>,
    pub cost: i64,
    /// With hindsight: cheapest cost and one cheapest path.
    pub cheapest: Option<(i64, Vec<Place>)>,
    /// With hindsight: the setter's strongest challenge (value, start, exit).
    pub setter_best: Option<(i64, Start, u8)>,
}

/// The whole game state. Plain data; serialized as is.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cortexcape {
    pub(crate) lab: LabId,
    pub(crate) short: bool,
    pub(crate) hindsight: bool,
    pub(crate) seats: u8,
    /// Owner of round 1.
    pub(crate) first: Seat,
    pub(crate) rng: GameRng,
    pub(crate) round: u32,
    pub(crate) total_rounds: u32,
    /// The piece on door i+1.
    pub(crate) board: [Option<Piece>; DOORS],
    /// What the owner holds, in the order w g y r t.
    pub(crate) pool: [u8; 5],
    /// Doors to fill this Configure step (all in round 1, the emptied ones later), ascending.
    pub(crate) targets: Vec<u8>,
    /// Doors blocked last round, ascending (none in round 1).
    pub(crate) prev_towers: Vec<u8>,
    /// How many of `prev_towers` have moved this Configure step.
    pub(crate) towers_moved: usize,
    /// False until the owner's first decision of this Configure step (for `layout`).
    pub(crate) touched: bool,
    /// Board and pool when this Configure step began (for `reset`).
    pub(crate) snap_board: [Option<Piece>; DOORS],
    pub(crate) snap_pool: [u8; 5],
    /// The seat whose marble closes exit i+1.
    pub(crate) marbles: [Option<Seat>; EXITS],
    pub(crate) marbles_left: Vec<u8>,
    pub(crate) stage: Stage,
    pub(crate) target: Option<u8>,
    pub(crate) start: Option<Start>,
    pub(crate) path: Vec<Place>,
    pub(crate) scores: Vec<i64>,
    pub(crate) history: Vec<RoundRecord>,
    pub(crate) outcome: Option<Outcome>,
    /// What setup placed by itself (a pool of one kind; never with the shipped counts), for
    /// the first board's log (issue 25); dropped by the first option played.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) setup_log: Vec<super::moves::Event>,
}

impl Cortexcape {
    fn seat_at(&self, offset: u32) -> Seat {
        let n = u32::from(self.seats.max(1));
        let s = (u32::from(self.first.0) + offset) % n;
        Seat::at(s)
    }

    /// The owner of the current round.
    pub fn owner(&self) -> Seat {
        self.seat_at(self.round.saturating_sub(1))
    }

    /// The owner's left neighbour.
    pub fn setter(&self) -> Seat {
        self.seat_at(self.round)
    }

    pub fn piece(&self, door: u8) -> Option<Piece> {
        self.board
            .get(usize::from(door).wrapping_sub(1))
            .copied()
            .flatten()
    }

    pub fn is_tower(&self, door: u8) -> bool {
        self.piece(door) == Some(Piece::Tower)
    }

    pub fn exit_free(&self, x: u8) -> bool {
        matches!(self.marbles.get(usize::from(x).wrapping_sub(1)), Some(None))
    }

    /// Canonical layout string: groups `t r y g w`, then `e:` for empty doors.
    pub fn layout_string(&self) -> String {
        layout_string(&self.board)
    }
}

/// Canonical layout string of a board (spec section 10).
pub fn layout_string(board: &[Option<Piece>]) -> String {
    let order = [
        (Some(Piece::Tower), "t"),
        (Some(Piece::Red), "r"),
        (Some(Piece::Yellow), "y"),
        (Some(Piece::Green), "g"),
        (Some(Piece::White), "w"),
        (None, "e"),
    ];
    let mut groups = Vec::new();
    for (piece, code) in order {
        let doors: Vec<String> = board
            .iter()
            .enumerate()
            .filter(|(_, p)| **p == piece)
            .map(|(i, _)| (i + 1).to_string())
            .collect();
        if !doors.is_empty() {
            groups.push(format!("{code}:{}", doors.join(",")));
        }
    }
    groups.join(" ")
}
