//! What the table sees. Cortexcape has no hidden information, so the public view carries the
//! whole game except the engine's own answers (cheapest costs), which appear only in the
//! recap of a finished round when hindsight is on (spec section 9).

use serde::Serialize;

use super::state::{Piece, Place, Stage, Start};
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

/// The recap of the last finished round: the round's record itself (all of it is public).
pub use super::state::RoundRecord as RoundRecap;

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
    /// The exact step within the phase (which challenge choice is pending): lets a bot rebuild
    /// the game from this view.
    pub step: Stage,
    /// The seat that must decide now; `None` when the game is over.
    pub to_act: Option<Seat>,
    pub owner: Seat,
    pub setter: Seat,
    /// What the owner still holds during Configure, in the order w g y r t, with counts.
    pub pool: Vec<(Piece, u8)>,
    /// Doors blocked last round that must be freed this Configure step (empty when done).
    pub towers_to_move: Vec<u8>,
    /// Doors a tower stood on at the end of last round (towers may not go back there).
    pub blocked_last_round: Vec<u8>,
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

use super::state::{layout_string, Cortexcape};
use crate::engine::RenderCtx;
use crate::i18n::Text;

impl Cortexcape {
    /// The public view (everything is public; hindsight values only in the recap).
    pub fn build_public(&self) -> PublicView {
        let data = self.data();
        let lab = self.lab_data();
        let configuring = self.stage == Stage::Configure;
        let exits = data
            .exits
            .iter()
            .map(|e| ExitView {
                id: e.id,
                col: e.col,
                row: e.row,
                door: e.door,
                marble: self
                    .marbles
                    .get(usize::from(e.id).wrapping_sub(1))
                    .copied()
                    .flatten(),
            })
            .collect();
        let seats = (0..usize::from(self.seats))
            .map(|i| {
                let seat = Seat::at(i);
                SeatView {
                    colour: data.colours.get(i).map_or("", String::as_str),
                    score: self.scores.get(i).copied().unwrap_or(0),
                    costs: self
                        .history
                        .iter()
                        .filter(|r| r.owner == seat)
                        .map(|r| (r.round, r.cost))
                        .collect(),
                    marbles_left: self.marbles_left.get(i).copied().unwrap_or(0),
                }
            })
            .collect();
        PublicView {
            lab: self.lab.key(),
            doors: data.doors.clone(),
            exits,
            corridors: lab.corridors.clone(),
            pieces: self.board.to_vec(),
            round: self.round,
            total_rounds: self.total_rounds,
            short: self.short,
            hindsight: self.hindsight,
            phase: match self.stage {
                Stage::Configure => Phase::Configure,
                Stage::Escape => Phase::Escape,
                Stage::Over => Phase::Over,
                _ => Phase::Challenge,
            },
            step: self.stage,
            to_act: self.ask().map(|a| self.ask_seat(a)),
            owner: self.owner(),
            setter: self.setter(),
            pool: Piece::ALL
                .into_iter()
                .filter(|k| self.pool[k.index()] > 0)
                .map(|k| (k, self.pool[k.index()]))
                .collect(),
            towers_to_move: if configuring {
                self.prev_towers
                    .get(self.towers_moved..)
                    .map(<[u8]>::to_vec)
                    .unwrap_or_default()
            } else {
                Vec::new()
            },
            blocked_last_round: self.prev_towers.clone(),
            refill: if configuring {
                self.empty_targets()
            } else {
                Vec::new()
            },
            target: self.target,
            start: self.start,
            path: self.path.clone(),
            running_cost: self.running_cost(),
            last_round: self.history.last().cloned(),
            seats,
            free_exits: self.marbles.iter().filter(|m| m.is_none()).count(),
        }
    }
}

fn seat_text(seat: Seat) -> Text {
    Text::new("core.raw").arg("s", seat)
}

fn path_string(path: &[Place]) -> String {
    path.iter()
        .map(|p| p.notation())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The text log line plus whose turn and the scores (spec section 11), localized.
pub fn public_summary(view: &PublicView, ctx: &RenderCtx) -> String {
    let r = |t: Text| t.render_with(ctx.lang, &ctx.names);
    let closed: Vec<Text> = view
        .exits
        .iter()
        .filter_map(|e| {
            e.marble.map(|s| {
                Text::new("cortexcape.summary.closed_exit")
                    .arg("exit", format!("x{}", e.id))
                    .arg("seat", s)
            })
        })
        .collect();
    let closed = if closed.is_empty() {
        Text::new("cortexcape.summary.none_closed")
    } else {
        Text::new("cortexcape.summary.closed").arg("exits", closed)
    };
    let cones = match (view.start, view.target) {
        (Some(s), Some(x)) => Text::new("cortexcape.summary.cones")
            .arg("start", s.notation())
            .arg("exit", format!("x{x}")),
        (None, Some(x)) => Text::new("cortexcape.summary.exit_only").arg("exit", format!("x{x}")),
        _ => Text::new("cortexcape.summary.no_cones"),
    };
    let mut lines = vec![format!(
        "{} | {} | {} | {}",
        r(Text::new(format!("cortexcape.lab.{}", view.lab))),
        layout_string(&view.pieces),
        r(closed),
        r(cones)
    )];
    let mode = if view.short {
        Text::new("cortexcape.summary.short")
    } else {
        Text::new("cortexcape.summary.standard")
    };
    let phase = Text::new(match view.phase {
        Phase::Configure => "cortexcape.phase.configure",
        Phase::Challenge => "cortexcape.phase.challenge",
        Phase::Escape => "cortexcape.phase.escape",
        Phase::Over => "cortexcape.phase.over",
    });
    let turn = match view.to_act {
        Some(seat) => Text::new("cortexcape.summary.turn")
            .arg("round", view.round)
            .arg("total", view.total_rounds)
            .arg("mode", mode)
            .arg("seat", seat)
            .arg("phase", phase)
            .arg("owner", view.owner)
            .arg("setter", view.setter),
        None => Text::new("cortexcape.summary.over")
            .arg("total", view.total_rounds)
            .arg("mode", mode),
    };
    lines.push(r(turn));
    if !view.path.is_empty() {
        lines.push(r(Text::new("cortexcape.summary.path")
            .arg("path", path_string(&view.path))
            .arg("cost", view.running_cost)));
    }
    let scores: Vec<Text> = view
        .seats
        .iter()
        .enumerate()
        .map(|(i, s)| {
            Text::new("cortexcape.summary.seat_score")
                .arg("seat", seat_text(Seat::at(i)))
                .arg(
                    "colour",
                    Text::new(format!("cortexcape.colour.{}", s.colour)),
                )
                .arg("score", s.score)
        })
        .collect();
    lines.push(r(
        Text::new("cortexcape.summary.scores").arg("scores", scores)
    ));
    if let Some(last) = &view.last_round {
        let mut t = Text::new("cortexcape.summary.last_round")
            .arg("round", last.round)
            .arg("seat", last.owner)
            .arg("path", path_string(&last.path))
            .arg("cost", last.cost);
        if let (Some((c, _)), Some((b, s, x))) = (&last.cheapest, &last.setter_best) {
            t = Text::new("cortexcape.summary.last_round_hindsight")
                .arg("round", last.round)
                .arg("seat", last.owner)
                .arg("path", path_string(&last.path))
                .arg("cost", last.cost)
                .arg("cheapest", *c)
                .arg("best", *b)
                .arg("start", s.notation())
                .arg("exit", format!("x{x}"));
        }
        lines.push(r(t));
    }
    lines.join("\n")
}
