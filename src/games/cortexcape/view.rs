//! What the table sees. Cortexcape has no hidden information, so the public view carries the
//! whole game except the engine's own answers (cheapest costs), which appear only in the
//! recap of a finished round when hindsight is on (spec section 9).

use serde::Serialize;

use super::state::{Piece, Place, Start};
use crate::engine::Seat;

/// Where the game stands, for the side panel and the prompt line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// The owner places cylinders and moves towers.
    Configure,
    /// The setter picks the exit and the start.
    Challenge,
    /// The owner walks a path.
    Escape,
    Over,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ExitView {
    /// 1..=12, shown as `x<id>`.
    pub id: u8,
    /// Grid position one step outside the doors (col 0..=6, row 0..=5).
    pub col: i32,
    pub row: i32,
    /// The rim door its corridor joins.
    pub door: u8,
    /// The seat whose marble closes it.
    pub marble: Option<Seat>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SeatView {
    /// Marble colour name: `white`, `black`, `blue`, `red`.
    pub colour: &'static str,
    pub score: i64,
    /// (round, cost) for every finished round this seat owned.
    pub costs: Vec<(u32, i64)>,
    pub marbles_left: u8,
}

/// The recap of the last finished round.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RoundRecap {
    pub round: u32,
    pub owner: Seat,
    pub setter: Seat,
    pub start: Start,
    pub target: u8,
    pub path: Vec<Place>,
    pub cost: i64,
    /// With hindsight: the cheapest cost and one cheapest path for that challenge.
    pub cheapest: Option<(i64, Vec<Place>)>,
    /// With hindsight: the setter's strongest challenge on that layout (value, start, exit).
    pub setter_best: Option<(i64, Start, u8)>,
}

/// Everything a player may see, in drawing-ready form.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PublicView {
    /// `blue`, `green`, `red` or `black`.
    pub lab: &'static str,
    /// Door i+1 at grid (col, row), col 1..=5, row 1..=4.
    pub doors: Vec<(i32, i32)>,
    pub exits: Vec<ExitView>,
    /// Every corridor of the lab, door-door and door-exit.
    pub corridors: Vec<(Place, Place)>,
    /// The piece on door i+1; `None` while the door waits for a refill.
    pub pieces: Vec<Option<Piece>>,
    pub round: u32,
    pub total_rounds: u32,
    pub short: bool,
    pub hindsight: bool,
    pub phase: Phase,
    /// The seat that must decide now; `None` when the game is over.
    pub to_act: Option<Seat>,
    pub owner: Seat,
    pub setter: Seat,
    /// What the owner still holds during Configure, in the order w g y r t, with counts.
    pub pool: Vec<(Piece, u8)>,
    /// Doors blocked last round that must be freed this Configure step (empty when done).
    pub towers_to_move: Vec<u8>,
    /// Doors emptied last round still waiting for a piece.
    pub refill: Vec<u8>,
    pub target: Option<u8>,
    pub start: Option<Start>,
    /// The places walked so far this round (during Escape and at ConfirmPath).
    pub path: Vec<Place>,
    pub running_cost: i64,
    pub last_round: Option<RoundRecap>,
    pub seats: Vec<SeatView>,
    pub free_exits: usize,
}
