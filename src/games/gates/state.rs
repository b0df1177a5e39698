//! The whole game state (spec sections 4 and 6.2). Plain data: serializable, cloneable.

use serde::{Deserialize, Serialize};

use super::components::{CardId, Region, Scroll};
use crate::engine::{GameRng, Outcome, Seat};

/// The sanity disc, and the half a card is played on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    Sane,
    Insane,
}

impl Mode {
    pub fn flipped(self) -> Mode {
        match self {
            Mode::Sane => Mode::Insane,
            Mode::Insane => Mode::Sane,
        }
    }

    pub fn code(self) -> &'static str {
        match self {
            Mode::Sane => "sane",
            Mode::Insane => "insane",
        }
    }
}

/// Who owns an investigator: a seat colour or the neutrals (2 players).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Owner {
    Red,
    Blue,
    Green,
    Yellow,
    Neutral,
}

impl Owner {
    pub const ALL: [Owner; 5] = [
        Owner::Red,
        Owner::Blue,
        Owner::Green,
        Owner::Yellow,
        Owner::Neutral,
    ];

    pub fn index(self) -> usize {
        self as usize
    }

    pub fn of(seat: Seat) -> Owner {
        Owner::ALL[seat.index().min(3)]
    }

    pub fn seat(self) -> Option<Seat> {
        (self != Owner::Neutral).then_some(Seat(self as u8))
    }

    pub fn code(self) -> &'static str {
        match self {
            Owner::Red => "red",
            Owner::Blue => "blue",
            Owner::Green => "green",
            Owner::Yellow => "yellow",
            Owner::Neutral => "neutral",
        }
    }

    pub fn parse(s: &str) -> Option<Owner> {
        Owner::ALL.into_iter().find(|o| o.code() == s)
    }
}

/// Where a gate stands (spec section 4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GateState {
    Building,
    /// Full, waiting to open within the current build step.
    Complete,
    Opened {
        disc: u8,
    },
    /// Complete but never opened (no monstrosity left, RB FAQ).
    Unopened,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Gate {
    pub region: Region,
    pub cards: u8,
    pub state: GateState,
}

/// One seat's area.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Player {
    /// Hidden: private to this seat.
    pub hand: Vec<CardId>,
    /// Hidden: the cards this seat drew last (private view only).
    pub last_drawn: Vec<CardId>,
    /// Cards filed in the journal (artifact halves), in filing order.
    pub filed: Vec<CardId>,
    pub gates: Vec<Gate>,
    pub despair: u8,
    pub supply: u8,
    pub score: i64,
    pub turns_started: u32,
}

/// Where the active player stands inside the card being resolved (spec section 6.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Step {
    Idle,
    Send { left: u8, bonus: bool },
    SendMoveTo { from: Region, left: u8, bonus: bool },
    Convert,
    ConvertSwap { region: Region, victim: Owner },
    Build { left: u8, bonus: bool },
    ChooseOpen,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TurnState {
    pub cards_played: u8,
    /// Cards finished this turn with the half they were played on (public).
    pub played: Vec<(CardId, Mode)>,
    pub in_play: Option<(CardId, Mode)>,
    pub step: Step,
    pub swap_discards_left: u8,
    /// Indexes into the active player's gates, in completion order.
    pub pending: Vec<usize>,
}

impl TurnState {
    pub fn new() -> TurnState {
        TurnState {
            cards_played: 0,
            played: Vec::new(),
            in_play: None,
            step: Step::Idle,
            swap_discards_left: 0,
            pending: Vec::new(),
        }
    }
}

impl Default for TurnState {
    fn default() -> Self {
        TurnState::new()
    }
}

/// A scroll slot on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScrollSlot {
    /// Hidden while face down.
    pub scroll: Scroll,
    pub revealed: bool,
}

/// Why the game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EndReason {
    LastMonstrosity,
    NoGateCards,
    RoundLimit,
}

impl EndReason {
    pub fn code(self) -> &'static str {
        match self {
            EndReason::LastMonstrosity => "last_monstrosity",
            EndReason::NoGateCards => "no_gate_cards",
            EndReason::RoundLimit => "round_limit",
        }
    }
}

/// One seat's final score, part by part (spec section 8).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FinalScore {
    pub in_game: i64,
    pub investigators: i64,
    pub artisan: i64,
    pub recruiter: i64,
    pub keeper: i64,
    pub runes: i64,
    pub pages: i64,
    pub blueprints: i64,
    pub total: i64,
    pub despair: u8,
    pub turns_started: u32,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ending {
    pub reason: EndReason,
    pub scores: Vec<FinalScore>,
    pub winners: Vec<Seat>,
}

/// Table options (spec section 2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Opts {
    pub score3_cost: u8,
    /// `scroll_ties = all`.
    pub scroll_ties_all: bool,
    /// `final_tiebreak = fewer_turns`.
    pub fewer_turns: bool,
    pub round_limit: u32,
    pub confirm_end: bool,
    /// `filing = always`: a card showing an artifact goes to the journal whichever half was
    /// played (the rulebook, issue 25), with the card halves of `action_cards.toml`;
    /// `played_half`: only when its artifact half is played (spec Q2), with the halves the
    /// game had before (`old_sane`/`old_insane`). States stored before issue 25 lack the
    /// field and read `played_half`, so they replay as they were played.
    #[serde(default, skip_serializing_if = "is_false")]
    pub file_always: bool,
    /// `neutral_convert = remove`: a neutral converted while your supply is empty simply
    /// leaves the board (the rulebook's two-player page, issue 25); `swap`: it is swapped
    /// like a rival (HOUSE, spec R14 and Q33). Old states lack the field: `swap`.
    #[serde(default, skip_serializing_if = "is_false")]
    pub neutral_remove: bool,
}

#[allow(
    clippy::trivially_copy_pass_by_ref,
    reason = "serde's skip_serializing_if signature"
)]
fn is_false(b: &bool) -> bool {
    !*b
}

impl Default for Opts {
    fn default() -> Self {
        Opts {
            score3_cost: 5,
            scroll_ties_all: true,
            fewer_turns: true,
            round_limit: 60,
            confirm_end: false,
            file_always: true,
            neutral_remove: true,
        }
    }
}

/// Number of owner slots on the board: four seat colours and the neutrals.
pub const OWNERS: usize = 5;

/// The game.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Gates {
    pub seats: u8,
    pub duel: bool,
    pub opts: Opts,
    pub rng: GameRng,
    pub round: u32,
    /// Holder of the sanity disc this round.
    pub first: Seat,
    pub active: Seat,
    /// `None` until the first player chose the mode of the round.
    pub mode: Option<Mode>,
    /// Hidden order; index 0 is the top.
    pub deck: Vec<CardId>,
    /// Face up; the last card is the top.
    pub discard: Vec<CardId>,
    /// Hidden order; index 0 is the top.
    pub gate_deck: Vec<Region>,
    pub pool: [Option<Region>; 4],
    /// Monstrosity discs still in the stack, top first.
    pub discs: Vec<u8>,
    pub scrolls: Vec<ScrollSlot>,
    /// Scrolls left out of the game (hidden).
    pub out_scrolls: Vec<Scroll>,
    pub despair_supply: u8,
    /// Investigators per region (display order) per owner (red blue green yellow neutral).
    pub board: [[u8; OWNERS]; 5],
    pub players: Vec<Player>,
    pub turn: TurnState,
    /// The region scored by the last opening, for the highlight.
    pub last_scored: Vec<Region>,
    pub ending: Option<Ending>,
    pub outcome: Option<Outcome>,
}

impl Gates {
    pub fn player(&self, seat: Seat) -> &Player {
        &self.players[seat.index()]
    }

    pub fn player_mut(&mut self, seat: Seat) -> &mut Player {
        &mut self.players[seat.index()]
    }

    pub fn count(&self, region: Region, owner: Owner) -> u8 {
        self.board[region.index()][owner.index()]
    }

    pub fn seat_ids(&self) -> impl Iterator<Item = Seat> {
        (0..self.seats).map(Seat)
    }

    pub fn revealed(&self, scroll: Scroll) -> bool {
        self.scrolls
            .iter()
            .any(|s| s.revealed && s.scroll == scroll)
    }

    pub fn on_board(&self, seat: Seat) -> u8 {
        let o = Owner::of(seat).index();
        self.board.iter().map(|r| r[o]).sum()
    }
}
