//! Atomic options (what a prompt lists) and the events they produce (spec 6.3 and 6.8).
//! Events carry private payloads (drawn ids, codes) for the seat concerned; their public text
//! (`event_text`) never shows them.

use serde::{Deserialize, Serialize};

use super::state::{Agency, Breakdown, Opts, Source};
use crate::engine::Seat;

/// The validation bonus choice.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BonusKind {
    Lab,
    Project,
}

/// One atomic decision. Card, slot and tile numbers are data-file indices.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// P0: tiles for c1 c2 c3.
    Arrange([u8; 3]),
    Reveal,
    Recruit,
    Place,
    /// P2 and P3.
    Take(Agency),
    /// P4.
    Card(u8),
    /// P5.
    Slot(u8),
    /// P6.
    Pay(u8),
    /// P4: finish the Place action.
    End,
    /// P7: a Project kind.
    Keep(u8),
    /// P8.
    Bonus(BonusKind),
    /// P4a / P6a.
    From(Agency),
}

/// Why the game ended early or a seat passed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EndReason {
    TenCards,
    ThreeObjectives,
}

/// What happened, in the spec's names.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Event {
    /// Setup: how many play, who starts and the options that change play.
    GameStarted {
        seats: u8,
        first: Seat,
        options: Opts,
    },
    /// Setup: the three objective tiles dealt face up to each seat, in seat order.
    ObjectivesDealt {
        tiles: Vec<[u8; 3]>,
    },
    ObjectivesArranged {
        seat: Seat,
        tiles: [u8; 3],
    },
    TurnStarted {
        seat: Seat,
        turn_no: u32,
        hand: usize,
        projects: usize,
        forced_place: bool,
    },
    ActionChosen {
        seat: Seat,
        action: Action,
        auto: bool,
    },
    /// Another option the engine applied because it was the only one.
    Auto {
        seat: Seat,
        action: Action,
    },
    LabsRevealed {
        ids: Vec<u8>,
    },
    LabsTaken {
        seat: Seat,
        agency: Agency,
        ids: Vec<u8>,
    },
    CentreAdded {
        ids: Vec<u8>,
    },
    Recruited {
        seat: Seat,
        agency: Agency,
        ids: Vec<u8>,
    },
    LabPlaced {
        seat: Seat,
        card: u8,
        slot: u8,
    },
    LabPaid {
        seat: Seat,
        ids: Vec<u8>,
    },
    /// Private: `ids`.
    LabsDrawn {
        seat: Seat,
        source: Source,
        ids: Vec<u8>,
    },
    /// Private: `kinds`.
    ProjectsDrawn {
        seat: Seat,
        source: Source,
        kinds: Vec<u8>,
    },
    /// Private: `kind`.
    ProjectKept {
        seat: Seat,
        kind: u8,
    },
    /// Private: `kinds`.
    ProjectsReturned {
        seat: Seat,
        kinds: Vec<u8>,
    },
    BottomEffect {
        seat: Seat,
        capsule: u8,
        /// For `recruit_own_agency`: the ids taken (public, they were face up).
        taken: Vec<u8>,
        effect: String,
    },
    BottomBonusArmed {
        seat: Seat,
        capsule: u8,
    },
    ObjectiveValidated {
        seat: Seat,
        capsule: u8,
        objective: u8,
        tile: u8,
        value: i64,
        bonus: bool,
    },
    /// Private: the card drawn.
    ValidationBonus {
        seat: Seat,
        kind: BonusKind,
        card: u8,
    },
    LabDeckReshuffled {
        count: usize,
    },
    EndTriggered {
        seat: Seat,
        reasons: Vec<EndReason>,
        still_to_play: Vec<Seat>,
    },
    TurnPassed {
        seat: Seat,
    },
    PlaceEnded {
        seat: Seat,
        placed: u8,
    },
    GameOver {
        scores: Vec<Breakdown>,
        ranks: Vec<u8>,
        stall: bool,
    },
}
