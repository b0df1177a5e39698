//! Atomic options (what a prompt lists) and the events they produce (spec 6.11, 10.2).

use serde::{Deserialize, Serialize};

use super::state::{Card, Cause, Ch, EndReason, Face, Floor};
use crate::engine::Seat;

/// A reward icon printed on a panel face (spec 3.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Icon {
    Subject,
    Cake,
    Card,
    Cube,
    Turret,
}

impl Icon {
    pub const ALL: [Icon; 5] = [
        Icon::Subject,
        Icon::Cake,
        Icon::Card,
        Icon::Cube,
        Icon::Turret,
    ];

    pub fn code(self) -> char {
        match self {
            Icon::Subject => 'S',
            Icon::Cake => 'C',
            Icon::Card => 'A',
            Icon::Cube => 'Q',
            Icon::Turret => 'T',
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Icon::Subject => "subject",
            Icon::Cake => "cake",
            Icon::Card => "card",
            Icon::Cube => "cube",
            Icon::Turret => "turret",
        }
    }

    pub fn from_name(s: &str) -> Option<Icon> {
        Icon::ALL.into_iter().find(|i| i.name() == s)
    }
}

/// One atomic decision, as listed by a prompt. Colours are seat indices.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    Discard(Card),
    Play(Card),
    Gun(Card),
    Burn(Ch),
    Trade(Card),
    Opera,
    Done,
    Portal(Ch),
    Move(Ch),
    Pass,
    Stop,
    Count(u8),
    To(Ch),
    ToFloor(Floor),
    Carry(Seat),
    CarryDone,
    BonusFloor(Floor),
    BonusCard,
    Activate(Floor),
    Subject(Floor),
    Cake(Floor),
    TakeCard,
    Cube(Ch),
    Turret(Ch),
    TurretStay,
    TurretFloor(Floor),
    Recycle(Floor),
    From(Ch),
    Colour(Seat),
    Kill(Ch),
    Flip(Ch),
    Pick(Card),
    Remove,
    RemoveTurret,
    RemoveCube,
    Vote(Seat),
    Abstain,
}

impl Action {
    /// The first word of the notation: decides which prompt an input is aimed at.
    pub fn verb(self) -> &'static str {
        match self {
            Action::Discard(_) => "discard",
            Action::Play(_) => "play",
            Action::Gun(_) => "gun",
            Action::Burn(_) => "burn",
            Action::Trade(_) => "trade",
            Action::Opera => "opera",
            Action::Done => "done",
            Action::Portal(_) => "portal",
            Action::Move(_) => "move",
            Action::Pass => "pass",
            Action::Stop => "stop",
            Action::Count(_) => "count",
            Action::To(_) | Action::ToFloor(_) => "to",
            Action::Carry(_) | Action::CarryDone => "carry",
            Action::BonusFloor(_) | Action::BonusCard => "bonus",
            Action::Activate(_) => "activate",
            Action::Subject(_) => "subject",
            Action::Cake(_) => "cake",
            Action::TakeCard => "card",
            Action::Cube(_) => "cube",
            Action::Turret(_) | Action::TurretStay | Action::TurretFloor(_) => "turret",
            Action::Recycle(_) => "recycle",
            Action::From(_) => "from",
            Action::Colour(_) => "colour",
            Action::Kill(_) => "kill",
            Action::Flip(_) => "flip",
            Action::Pick(_) => "pick",
            Action::Remove | Action::RemoveTurret | Action::RemoveCube => "remove",
            Action::Vote(_) => "vote",
            Action::Abstain => "abstain",
        }
    }
}

/// How a card left the hand at the Deploy step.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DeployMode {
    Action,
    Gun,
}

/// Why a subject died.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Death {
    Recycle,
    Turret,
    Card(Card),
    Finale,
}

/// Why nobody (or somebody special) won the majority.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Majority {
    Majority,
    Tie,
    Empty,
    CubeBlocked,
    ActiveWinsTie,
    Fewest,
}

/// Why a gain was lost.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LostReason {
    NoSupply,
    HandFull,
    DeckEmpty,
    NoRoom,
}

/// Why the Move step did nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SkipReason {
    NoLegalMove,
    Passed,
}

/// What happened, in the spec's names (6.11).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Ev {
    TurnStarted {
        seat: Seat,
        round: u16,
    },
    HandDiscarded {
        seat: Seat,
        card: Card,
    },
    CardDeployed {
        seat: Seat,
        card: Card,
        mode: DeployMode,
    },
    CardTraded {
        seat: Seat,
        card: Card,
    },
    CharacterChanged {
        card: Option<Card>,
    },
    NoEffect {
        card: Card,
    },
    CardTaken {
        seat: Seat,
        card: Card,
    },
    DeckTopRevealed {
        card: Option<Card>,
    },
    DeckReshuffled {
        count: u8,
    },
    CardGainLost {
        seat: Seat,
        reason: LostReason,
    },
    PortalsPlaced {
        a: Ch,
        b: Ch,
    },
    SubjectsMoved {
        owner: Seat,
        from: Ch,
        to: Ch,
        count: u8,
        carried: Vec<Seat>,
    },
    SubjectsDestroyed {
        chamber: Ch,
        owner: Seat,
        count: u8,
        cause: Death,
    },
    SubjectDelivered {
        owner: Seat,
        chamber: Ch,
        cause: Cause,
    },
    CakeDelivered {
        owner: Seat,
        chamber: Ch,
        cause: Cause,
    },
    CakeMoved {
        colour: Seat,
        from: Ch,
        to: Ch,
        cause: Card,
    },
    CakeIncinerated {
        colour: Seat,
        chamber: Ch,
        count: u8,
        cause: Option<Card>,
    },
    CakeReturned {
        colour: Seat,
        chamber: Ch,
        count: u8,
    },
    MoveSkipped {
        seat: Seat,
        reason: SkipReason,
    },
    BonusLost {
        seat: Seat,
    },
    Activated {
        seat: Seat,
        chamber: Ch,
    },
    MajorityResolved {
        chamber: Ch,
        counts: Vec<u8>,
        recipient: Option<Seat>,
        reason: Majority,
    },
    RewardLost {
        seat: Seat,
        icon: Icon,
        reason: LostReason,
    },
    TurretPlaced {
        to: Ch,
    },
    TurretMoved {
        from: Ch,
        to: Ch,
    },
    TurretStayed,
    TurretRemoved,
    CubePlaced {
        to: Ch,
    },
    CubeMoved {
        from: Ch,
        to: Ch,
    },
    CubeStayed,
    CubeRemoved,
    PanelFlipped {
        chamber: Ch,
        face: Vec<Icon>,
    },
    ChamberRecycled {
        from: Ch,
        to: Ch,
        floor: Floor,
    },
    ExtraActivationGranted,
    VoteCast {
        voter: Seat,
    },
    VotesRevealed {
        tally: Vec<u8>,
    },
    GameEnded {
        reason: EndReason,
        scores: Vec<i64>,
        winners: Vec<Seat>,
    },
}

/// An event and whether the engine chose for the player (a single-option prompt).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Event {
    pub ev: Ev,
    pub auto: bool,
}

/// A face and its icons, for views.
pub type FaceIcons = (Face, Vec<Icon>);
