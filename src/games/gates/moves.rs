//! Atomic options (what a prompt lists) and the events they produce (spec sections 6 and 6.10).

use serde::{Deserialize, Serialize};

use super::components::{CardId, Effect, Region, Scroll};
use super::state::{EndReason, FinalScore, Mode, Owner};
use crate::engine::Seat;

/// Where a gate card is taken from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Source {
    /// Pool slot 1..=4.
    Slot(u8),
    Deck,
}

/// The four desperate actions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Desperate {
    Swap,
    Refresh,
    Flip,
    Score,
}

impl Desperate {
    pub const ALL: [Desperate; 4] = [
        Desperate::Swap,
        Desperate::Refresh,
        Desperate::Flip,
        Desperate::Score,
    ];

    pub fn code(self) -> &'static str {
        match self {
            Desperate::Swap => "swap",
            Desperate::Refresh => "refresh",
            Desperate::Flip => "flip",
            Desperate::Score => "score",
        }
    }
}

/// One atomic decision, as listed by a prompt.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    Mode(Mode),
    Play(CardId),
    Discard(CardId),
    Send(Region),
    From(Region),
    To(Region),
    Convert(Region, Owner),
    With(Region),
    Take(Source),
    Open(Region),
    Despair(Desperate),
    Skip,
    End,
}

/// Why points were scored during play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PointsReason {
    Disc,
    Despair,
}

/// One line of a region scoring: owner, investigators, dense rank (1-3, 0 = none), points.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RankEntry {
    pub owner: Owner,
    pub count: u8,
    pub rank: u8,
    pub points: i64,
}

/// What happened. Every event is public: the ids of drawn cards are never in an event, only
/// in the drawing seat's private view.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Event {
    /// The events that follow come from the only legal option, applied by the engine.
    Auto {
        seat: Seat,
        notation: String,
    },
    RoundStarted {
        round: u32,
        first: Seat,
    },
    ModeChosen {
        seat: Seat,
        mode: Mode,
    },
    TurnStarted {
        seat: Seat,
    },
    CardPlayed {
        seat: Seat,
        card: CardId,
        half: Mode,
        effect: Effect,
    },
    DespairGained {
        seat: Seat,
        wanted: u8,
        got: u8,
    },
    DespairSpent {
        seat: Seat,
        action: Desperate,
        cost: u8,
    },
    SanityFlipped {
        seat: Seat,
        mode: Mode,
    },
    PointsScored {
        seat: Seat,
        points: i64,
        reason: PointsReason,
    },
    /// A neutral converted while the converter's supply is empty leaves the board, and
    /// nothing takes its place (`neutral_convert = remove`).
    NeutralRemoved {
        seat: Seat,
        region: Region,
    },
    ArtifactCollected {
        seat: Seat,
        card: CardId,
        artifact: Effect,
    },
    InvestigatorSent {
        seat: Seat,
        region: Region,
    },
    InvestigatorMoved {
        seat: Seat,
        from: Region,
        to: Region,
    },
    SendSkipped {
        seat: Seat,
        left: u8,
    },
    BuildSkipped {
        seat: Seat,
    },
    Converted {
        seat: Seat,
        region: Region,
        victim: Owner,
        /// `None` for a replacement from supply; the other region for a swap.
        swap_with: Option<Region>,
    },
    ConvertFizzled {
        seat: Seat,
    },
    GateCardTaken {
        seat: Seat,
        source: Source,
        region: Region,
    },
    PoolRefilled {
        slot: u8,
        region: Region,
    },
    PoolSlotEmpty {
        slot: u8,
    },
    PoolRefreshed {
        pool: [Option<Region>; 4],
    },
    SectionPlaced {
        seat: Seat,
        region: Region,
        cards: u8,
        size: u8,
        new_gate: bool,
    },
    SectionLost {
        seat: Seat,
    },
    GateCompleted {
        seat: Seat,
        region: Region,
    },
    GateOpened {
        seat: Seat,
        region: Region,
        disc: u8,
    },
    ScrollRevealed {
        slot: u8,
        scroll: Scroll,
    },
    RegionScored {
        region: Region,
        entries: Vec<RankEntry>,
    },
    InvestigatorsReturned {
        region: Region,
        counts: Vec<(Owner, u8)>,
    },
    NeutralsRemoved {
        region: Region,
        count: u8,
    },
    GateLeftUnopened {
        seat: Seat,
        region: Region,
    },
    CardsDrawn {
        seat: Seat,
        count: u8,
    },
    CardDiscarded {
        seat: Seat,
        card: CardId,
    },
    CardToDiscard {
        seat: Seat,
        card: CardId,
    },
    DeckReshuffled {
        count: u8,
    },
    TurnEnded {
        seat: Seat,
    },
    RoundEnded {
        round: u32,
    },
    GameEnded {
        reason: EndReason,
    },
    FinalScores {
        scores: Vec<FinalScore>,
        winners: Vec<Seat>,
    },
}

impl Event {
    /// Whether this event reveals randomness or hidden information to anyone: a card of a
    /// hand shown (played, discarded), cards drawn (even only to the drawer), a deck
    /// reshuffled, a gate card or pool card turned up from the deck, a scroll turned, the end
    /// (every hand and the last scrolls are known then). Merely ending a turn, sending or
    /// moving investigators, choosing a mode: no.
    pub fn reveals(&self) -> bool {
        match self {
            Event::CardPlayed { .. }
            | Event::CardDiscarded { .. }
            | Event::GateCardTaken { .. }
            | Event::PoolRefilled { .. }
            | Event::PoolRefreshed { .. }
            | Event::ScrollRevealed { .. }
            | Event::DeckReshuffled { .. }
            | Event::GameEnded { .. }
            | Event::FinalScores { .. } => true,
            Event::CardsDrawn { count, .. } => *count > 0,
            _ => false,
        }
    }
}
