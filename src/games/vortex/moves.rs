//! Atomic options (what a prompt lists) and the events they produce (spec sections 6 and 10).

use serde::{Deserialize, Serialize};

use super::state::Colour;
use crate::engine::Seat;

/// A rotation direction, as seen on the image.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Dir {
    Cw,
    Ccw,
}

impl Dir {
    pub fn code(self) -> &'static str {
        match self {
            Dir::Cw => "cw",
            Dir::Ccw => "ccw",
        }
    }

    pub fn flip(self) -> Dir {
        match self {
            Dir::Cw => Dir::Ccw,
            Dir::Ccw => Dir::Cw,
        }
    }

    /// The arrow shown in channel lines.
    pub fn arrow(self) -> &'static str {
        match self {
            Dir::Cw => "↻",
            Dir::Ccw => "↺",
        }
    }
}

/// One atomic decision. Towers are 0-18 (`a`-`s`), spaces 1-54.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// `rot <t> <dir>`: one step of one tower.
    Rot { tower: u8, dir: Dir },
    /// `min <t> <dir>`: a rotation paid with a minority controller.
    Min { tower: u8, dir: Dir },
    /// `claim <t> <s>`: the controller riding on s goes on top of t.
    Claim { tower: u8, from: u8 },
    /// `ctrl <s1> <s2>`: a controller moves along own routers.
    Ctrl { from: u8, to: u8 },
    /// `recall <t> <s>`: the controller on t comes back onto s; costs the whole turn.
    Recall { tower: u8, to: u8 },
    /// `place <s>`: where a captured controller goes.
    Place(u8),
    /// `end`: pass the rest of the turn.
    End,
}

/// Why a turn ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EndReason {
    Passed,
    AllowanceUsed,
    NoMoreActions,
    Recall,
    CatMoved,
    CatsMoved,
}

impl EndReason {
    pub fn code(self) -> &'static str {
        match self {
            EndReason::Passed => "passed",
            EndReason::AllowanceUsed => "allowance_used",
            EndReason::NoMoreActions => "no_more_actions",
            EndReason::Recall => "recall",
            EndReason::CatMoved => "cat_moved",
            EndReason::CatsMoved => "cats_moved",
        }
    }
}

/// Why the game was won.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WinReason {
    Goal,
    Pantry,
    Trapped,
    Solved,
}

/// Why the game was drawn (or, in Solitaire, given up).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DrawReason {
    RoundLimit,
    Deadlock,
    RotationLimit,
}

/// One piece carried by a rotation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Moved {
    pub from: u8,
    pub to: u8,
    pub colour: Colour,
    pub ctrl: bool,
}

/// What happened, in the spec's names (section 6.6).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Event {
    TurnStarted {
        seat: Seat,
        allowance: u8,
    },
    Rotated {
        seat: Seat,
        tower: u8,
        dir: Dir,
        minority: bool,
        moves: Vec<Moved>,
    },
    MinoritySpent {
        seat: Seat,
        left: u8,
    },
    Claimed {
        seat: Seat,
        tower: u8,
        from: u8,
        captured_from: Option<Seat>,
    },
    ControllerPlaced {
        owner: Seat,
        space: u8,
        chosen_by: Seat,
    },
    ControllerMoved {
        seat: Seat,
        from: u8,
        to: u8,
    },
    Recalled {
        seat: Seat,
        tower: u8,
        to: u8,
    },
    PlayerFinished {
        seat: Seat,
    },
    TurnEnded {
        seat: Seat,
        reason: EndReason,
    },
    TurnSkipped {
        seat: Seat,
    },
    MouseReachedPantry {
        space: u8,
    },
    MouseTrapped {
        space: u8,
    },
    PuzzleSolved {
        rotations: u32,
    },
    GameWon {
        seats: Vec<Seat>,
        reason: WinReason,
    },
    GameDrawn {
        reason: DrawReason,
    },
}
