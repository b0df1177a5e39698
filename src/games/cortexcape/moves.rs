//! Atomic options (what a prompt lists) and the events they produce.

use serde::{Deserialize, Serialize};

use super::state::{Piece, Place, Start};
use crate::engine::Seat;

/// One atomic decision, as listed by a prompt.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// P1: `put <door> <kind>`.
    Put { door: u8, kind: Piece },
    /// P2: `tower <from> <to>`.
    Tower { from: u8, to: u8 },
    /// P1, P2: finish the Configure step at random.
    Random,
    /// P3, P7, P9.
    Done,
    /// P3.
    Reset,
    /// P4: `exit x<k>`.
    Exit(u8),
    /// P5: `from <door>`.
    From(u8),
    /// P6 (corridor) and P6s (exit).
    Start(Start),
    /// P8: `step <place>`.
    Step(Place),
}

/// The recap of the engine's answers after a round (R24).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HindsightInfo {
    pub cheapest: i64,
    pub cheapest_path: Vec<Place>,
    pub matched: bool,
    pub best: i64,
    pub best_start: Start,
    pub best_exit: u8,
}

/// What happened, in the spec's names.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Event {
    CylinderPlaced {
        door: u8,
        kind: Piece,
        /// Filled by the engine because only one kind was left.
        auto: bool,
    },
    TowerMoved {
        from: u8,
        to: u8,
        displaced: Piece,
    },
    LayoutReset,
    LayoutConfirmed {
        layout: String,
    },
    ExitChosen {
        exit: u8,
    },
    StartChosen {
        start: Start,
    },
    ChallengeConfirmed,
    Stepped {
        place: Place,
        running_cost: i64,
    },
    PathConfirmed {
        places: Vec<Place>,
        cost: i64,
    },
    CylindersCollected {
        doors: Vec<u8>,
        kinds: Vec<Piece>,
    },
    ScoreAdded {
        seat: Seat,
        points: i64,
        total: i64,
    },
    MarblePlaced {
        exit: u8,
        seat: Seat,
    },
    ConesRemoved,
    Hindsight(HindsightInfo),
    RoundEnded {
        round: u32,
    },
    RoundStarted {
        round: u32,
        owner: Seat,
        setter: Seat,
    },
    GameEnded {
        scores: Vec<i64>,
        winners: Vec<Seat>,
    },
}
