//! The state of a Space Lab game and its basic types (spec sections 3, 4 and 6.1).

use serde::{Deserialize, Serialize};

use crate::engine::{GameRng, Outcome, Seat};

/// One of the four agencies (card colours).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Agency {
    Red,
    Blue,
    Green,
    Gold,
}

impl Agency {
    pub const ALL: [Agency; 4] = [Agency::Red, Agency::Blue, Agency::Green, Agency::Gold];

    pub fn index(self) -> usize {
        self as usize
    }

    /// Notation and data id: `red`, `blue`, `green`, `gold`.
    pub fn id(self) -> &'static str {
        match self {
            Agency::Red => "red",
            Agency::Blue => "blue",
            Agency::Green => "green",
            Agency::Gold => "gold",
        }
    }

    pub fn from_id(s: &str) -> Option<Agency> {
        Agency::ALL.into_iter().find(|a| a.id() == s)
    }

    /// The letter drawn next to the colour (colour-blind safe).
    pub fn letter(self) -> &'static str {
        match self {
            Agency::Red => "R",
            Agency::Blue => "B",
            Agency::Green => "G",
            Agency::Gold => "Au",
        }
    }
}

/// A Lab card's specialty icon.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Specialty {
    Doctor,
    Pilot,
    Researcher,
    Technician,
}

impl Specialty {
    pub const ALL: [Specialty; 4] = [
        Specialty::Doctor,
        Specialty::Pilot,
        Specialty::Researcher,
        Specialty::Technician,
    ];

    pub fn index(self) -> usize {
        self as usize
    }

    pub fn id(self) -> &'static str {
        match self {
            Specialty::Doctor => "doctor",
            Specialty::Pilot => "pilot",
            Specialty::Researcher => "researcher",
            Specialty::Technician => "technician",
        }
    }

    pub fn from_id(s: &str) -> Option<Specialty> {
        Specialty::ALL.into_iter().find(|a| a.id() == s)
    }

    pub fn letter(self) -> &'static str {
        match self {
            Specialty::Doctor => "D",
            Specialty::Pilot => "P",
            Specialty::Researcher => "R",
            Specialty::Technician => "T",
        }
    }
}

/// A station row, read by END conditions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Row {
    Top,
    Middle,
    Bottom,
}

impl Row {
    pub fn from_id(s: &str) -> Option<Row> {
        match s {
            "top" => Some(Row::Top),
            "middle" => Some(Row::Middle),
            "bottom" => Some(Row::Bottom),
            _ => None,
        }
    }
}

/// Number of slots in a station and capsules per station.
pub const SLOTS: usize = 10;
pub const CAPSULES: usize = 3;
/// Lab cards and Project cards in the game (checked against the data file at load).
pub const LAB_CARDS: usize = 60;
pub const PROJECT_CARDS: usize = 24;

/// How the final round runs (spec Q3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FinalRound {
    OthersOnce,
    EqualTurns,
}

/// The options that change play (spec section 2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Opts {
    pub choose_objectives: bool,
    pub final_round: FinalRound,
    pub trigger_ends_turn: bool,
    pub validation_bonus: bool,
}

/// Where a Lab card or Project draw came from (event payloads).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Source {
    Top,
    Instant,
    Bottom,
    Bonus,
}

impl Source {
    pub fn id(self) -> &'static str {
        match self {
            Source::Top => "top",
            Source::Instant => "instant",
            Source::Bottom => "bottom",
            Source::Bonus => "bonus",
        }
    }
}

/// The pending decision (spec 6.3).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// P0: this seat arranges its dealt tiles.
    Arrange(Seat),
    /// P1.
    ChooseAction,
    /// P2.
    TakeRevealed,
    /// P3.
    TakeCentre,
    /// P4 (P4a when over 25 options and no filter yet).
    PlaceCard {
        filter: Option<Agency>,
    },
    /// P5.
    PlaceSlot {
        card: u8,
    },
    /// P6 (P6a when over 25 candidates and no filter yet).
    PlacePay {
        card: u8,
        slot: u8,
        paid: Vec<u8>,
        filter: Option<Agency>,
    },
    /// P7: the Project cards just drawn, in draw order.
    KeepProject {
        drawn: Vec<u8>,
        source: Source,
    },
    /// P8.
    Bonus,
    Over,
}

/// The placement being resolved (spec 6.4): the card, its slot and the next step.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Resolving {
    pub card: u8,
    pub slot: u8,
    /// 0 instant gain, 1 slot effect, 2..=4 validation of c1..c3, 5 end check, 6 done.
    pub step: u8,
}

/// The end trigger and the seats still to play (spec 6.5).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EndState {
    pub trigger: Seat,
    pub remaining: Vec<Seat>,
}

/// One player's cards and station.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Player {
    /// Lab cards in hand, in the order received.
    pub hand: Vec<u8>,
    /// Project cards kept (card indices).
    pub projects: Vec<u8>,
    /// Slot order t1 t2 t3 m0 m1 m2 m3 b1 b2 b3 (the data file's order).
    pub station: [Option<u8>; SLOTS],
    /// The 3 tiles dealt face up, in deal order.
    pub dealt: [u8; CAPSULES],
    /// Tiles on c1 c2 c3 once arranged.
    pub objectives: Option<[u8; CAPSULES]>,
    /// The Validation tile taken by each capsule.
    pub validated: [Option<u8>; CAPSULES],
    pub placed_this_action: u8,
    /// Lab cards drawn face down this turn (private highlight).
    pub drawn: Vec<u8>,
    /// Project codes last put back under the deck (private memory aid).
    pub returned: Vec<u8>,
}

impl Player {
    pub fn filled(&self) -> usize {
        self.station.iter().filter(|s| s.is_some()).count()
    }

    pub fn validated_count(&self) -> usize {
        self.validated.iter().filter(|v| v.is_some()).count()
    }
}

/// The final score of one seat, by part (spec section 8).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Breakdown {
    pub lab_end: i64,
    pub bottom_end: i64,
    pub validation: i64,
    pub projects: i64,
}

impl Breakdown {
    pub fn total(&self) -> i64 {
        self.lab_end + self.bottom_end + self.validation + self.projects
    }

    pub fn visible(&self) -> i64 {
        self.lab_end + self.bottom_end + self.validation
    }
}

/// What a turn did in public, for the board to show (issue 38: a phone player finds the last
/// move at a glance). Filled from the turn's events as they happen.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LastTurn {
    pub seat: Seat,
    /// Lab cards taken into the hand: their agency, how many, and whether from the Centre
    /// (Recruit) or from the revealed cards (Reveal).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub took: Option<(Agency, u8, bool)>,
    /// Slots filled, in order (the data file's slot indices; the cards stay in them).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub placed: Vec<u8>,
    /// Capsules whose objective was validated.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub validated: Vec<u8>,
    /// The seat had no legal action.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub passed: bool,
    /// The seat put its objective tiles on its capsules.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub arranged: bool,
}

impl LastTurn {
    /// Whether the turn did anything the board shows yet (an action just chosen has not).
    pub fn shows(&self) -> bool {
        self.took.is_some()
            || !self.placed.is_empty()
            || !self.validated.is_empty()
            || self.passed
            || self.arranged
    }

    pub(crate) fn new(seat: Seat) -> Self {
        LastTurn {
            seat,
            took: None,
            placed: Vec::new(),
            validated: Vec::new(),
            passed: false,
            arranged: false,
        }
    }
}

/// The whole game state. Plain data; serialized as is. Card, tile and project numbers are
/// indices into the data file's tables.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SpaceLab {
    pub(crate) opts: Opts,
    pub(crate) n: u8,
    pub(crate) first: Seat,
    pub(crate) current: Seat,
    pub(crate) turn_no: u32,
    pub(crate) rng: GameRng,
    /// Index 0 = top, face down.
    pub(crate) lab_deck: Vec<u8>,
    pub(crate) lab_discard: Vec<u8>,
    /// By agency, in arrival order.
    pub(crate) centre: [Vec<u8>; 4],
    pub(crate) revealed: Vec<u8>,
    /// Index 0 = top; returned cards go to the end.
    pub(crate) project_deck: Vec<u8>,
    /// Validation piles of c1 c2 c3, index 0 = top tile.
    pub(crate) piles: [Vec<u8>; CAPSULES],
    pub(crate) players: Vec<Player>,
    pub(crate) phase: Phase,
    pub(crate) resolving: Option<Resolving>,
    pub(crate) end: Option<EndState>,
    pub(crate) consecutive_passes: u8,
    /// Options the engine applied by itself since the acting seat's last decision, so a typed
    /// line may repeat them (spec section 10).
    pub(crate) last_auto: Vec<(Seat, super::moves::Action)>,
    pub(crate) final_scores: Option<Vec<Breakdown>>,
    pub(crate) outcome: Option<Outcome>,
    /// What setup's automatic steps did (with `objective_setup = dealt`, the first turn's
    /// Reveal), for the first board's log; dropped by the first option played.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) setup_log: Vec<super::moves::Event>,
    /// What the latest two turns did in public, the older first: the board marks the latest
    /// that shows something, so the turn before stays marked until the new one does.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) last: Vec<LastTurn>,
    /// Whether the game keeps `last`: games set up since issue 38 do; a game stored before
    /// keeps its snapshots as they were, byte for byte (`Game::keep_rules_of`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub(crate) records_last: bool,
}
