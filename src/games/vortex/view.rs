//! What the table sees. Vortex has no hidden information (spec section 9): the public view
//! carries the whole position, drawing-ready, plus the last activity for the arrows.

use serde::Serialize;

use super::board::tower_letter;
use super::moves::Dir;
use super::state::{Colour, Ending, Mode, Router, TurnLog, Vortex};
use crate::engine::{RenderCtx, Seat};
use crate::i18n::Text;

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SideView {
    pub seat: Seat,
    pub colour: Colour,
    /// Start and goal towers (race modes) or the target tower (Solitaire).
    pub start: u8,
    pub goal: u8,
    pub goal_spaces: [u8; 6],
    pub start_spaces: [u8; 6],
    pub team: Option<u8>,
    /// Routers on the goal (race) or target (Solitaire) ring.
    pub in_goal: u8,
    pub finished: bool,
    pub minority_left: u8,
    /// Controllers riding on this side's routers (advanced).
    pub riding: u8,
    /// Towers this side has claimed (advanced).
    pub towers: Vec<u8>,
}

/// Everything a player may see, in drawing-ready form.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PublicView {
    pub mode: Mode,
    pub layout: String,
    /// Non-default options, `key=value`.
    pub options: Vec<String>,
    /// The puzzle code (Solitaire).
    pub seed: u64,
    pub board: Vec<Option<Router>>,
    pub claims: Vec<Option<Colour>>,
    pub sides: Vec<SideView>,
    /// The side index whose turn it is, and the seat that must decide now.
    pub turn_side: Option<usize>,
    pub to_act: Option<Seat>,
    pub prompt: Option<&'static str>,
    pub round: u32,
    pub max_rounds: u32,
    pub allowance: u8,
    pub used: u8,
    pub goal_count: u8,
    pub minority: bool,
    pub prev_turn: Option<TurnLog>,
    pub this_turn: TurnLog,
    pub last_moved: Vec<u8>,
    pub pantry: Vec<u8>,
    pub markers: Vec<u8>,
    /// The cats may not play this rotation (the inverse of the mouse's last one).
    pub banned: Option<(u8, Dir)>,
    pub mouse_rotations: u8,
    pub rotations: u32,
    pub ending: Option<Ending>,
    pub winners: Vec<Seat>,
}

impl Vortex {
    pub fn build_public(&self) -> PublicView {
        let sides = self
            .sides
            .iter()
            .enumerate()
            .map(|(i, s)| SideView {
                seat: s.seat,
                colour: s.colour,
                start: s.start,
                goal: s.goal,
                goal_spaces: s.goal_spaces,
                start_spaces: s.start_spaces,
                team: s.team,
                in_goal: self.in_goal(i),
                finished: s.finished,
                minority_left: s.minority_left,
                riding: u8::try_from(
                    self.board
                        .iter()
                        .flatten()
                        .filter(|r| r.colour == s.colour && r.ctrl)
                        .count(),
                )
                .unwrap_or(0),
                towers: (0..19u8)
                    .filter(|t| self.claims[usize::from(*t)] == Some(s.colour))
                    .collect(),
            })
            .collect();
        let ask = self.ask();
        let cm = self.catmouse.as_ref();
        PublicView {
            mode: self.mode,
            layout: self.layout.clone(),
            options: self.shown_options.clone(),
            seed: self.seed,
            board: self.board.clone(),
            claims: self.claims.clone(),
            sides,
            turn_side: ask.map(|_| self.current()),
            to_act: ask.map(|a| self.ask_seat(a)),
            prompt: ask.map(super::rules::Ask::kind),
            round: self.round(),
            max_rounds: self.rules.max_rounds,
            allowance: self.allowance,
            used: self.used,
            goal_count: self.rules.goal_count,
            minority: self.rules.minority,
            prev_turn: self.prev_turn.clone(),
            this_turn: self.this_turn.clone(),
            last_moved: self.last_moved.clone(),
            pantry: cm.map(|c| c.pantry.clone()).unwrap_or_default(),
            markers: cm.map(|c| c.markers.clone()).unwrap_or_default(),
            banned: cm
                .filter(|c| !c.mouse_to_move)
                .and_then(|c| c.last_mouse)
                .map(|(t, d)| (t, d.flip())),
            mouse_rotations: cm.map_or(0, |c| c.rotations),
            rotations: self.rotations,
            ending: self.ending.clone(),
            winners: self
                .outcome
                .as_ref()
                .map(|o| o.winners.clone())
                .unwrap_or_default(),
        }
    }
}

/// `J↻ J↻ K↺ · end`: one turn as a short line.
pub fn turn_line(log: &TurnLog) -> String {
    let mut parts: Vec<String> = log
        .steps
        .iter()
        .map(|s| {
            format!(
                "{}{}{}",
                tower_letter(s.tower).to_ascii_uppercase(),
                s.dir.arrow(),
                if s.minority { "*" } else { "" }
            )
        })
        .collect();
    parts.extend(log.other.iter().cloned());
    parts.join(" ")
}

/// The ASCII board of spec section 10.3 (logs, table, snapshot tests).
pub fn ascii_board(board: &[Option<Router>], claims: &[Option<Colour>], mode: Mode) -> String {
    // Rows of the section 4.2 map: (indent, first space, count) and tower rows.
    const SPACE_ROWS: [(usize, u8, u8); 12] = [
        (16, 1, 3),
        (12, 4, 4),
        (12, 8, 4),
        (8, 12, 5),
        (8, 17, 5),
        (4, 22, 6),
        (4, 28, 6),
        (8, 34, 5),
        (8, 39, 5),
        (12, 44, 4),
        (12, 48, 4),
        (16, 52, 3),
    ];
    const TOWER_ROWS: [(usize, u8, u8); 5] =
        [(15, 0, 3), (11, 3, 4), (7, 7, 5), (11, 12, 4), (15, 16, 3)];
    let cell = |s: u8| -> String {
        match board[usize::from(s - 1)] {
            None => ". ".into(),
            Some(r) => {
                let c = if mode == Mode::Catmouse && r.colour == Colour::Black {
                    'c'
                } else {
                    r.colour.initial()
                };
                format!("{c}{}", if r.ctrl { '*' } else { ' ' })
            }
        }
    };
    let tower = |t: u8| -> String {
        let l = tower_letter(t).to_ascii_uppercase();
        match claims.get(usize::from(t)).copied().flatten() {
            Some(c) => format!("[{l}:{}]", c.initial()),
            None => format!("[{l}]"),
        }
    };
    let mut lines = Vec::new();
    let mut tower_row = 0;
    for (i, (indent, first, count)) in SPACE_ROWS.iter().enumerate() {
        let cells: Vec<String> = (*first..first + count).map(cell).collect();
        lines.push(format!("{}{}", " ".repeat(*indent), cells.join("      ")));
        // A tower row follows every second space row, from the second one.
        if matches!(i, 1 | 3 | 5 | 7 | 9) && tower_row < TOWER_ROWS.len() {
            let (ind, t0, n) = TOWER_ROWS[tower_row];
            let ts: Vec<String> = (t0..t0 + n).map(tower).collect();
            lines.push(format!("{}{}", " ".repeat(ind), ts.join("     ")));
            tower_row += 1;
        }
    }
    lines.join("\n")
}

fn colour_text(c: Colour) -> Text {
    Text::new(format!("vortex.colour.{}", c.key()))
}

/// The role of a side for texts: its colour, or mouse / cats / the Solitaire colour.
pub fn side_label(view: &PublicView, i: usize) -> Text {
    match view.mode {
        Mode::Catmouse if i == 0 => Text::new("vortex.role.mouse"),
        Mode::Catmouse => Text::new("vortex.role.cats"),
        Mode::Solitaire => Text::new("vortex.role.solo"),
        _ => colour_text(view.sides[i].colour),
    }
}

/// A short text summary of the public view (alt text, the table's `board`).
pub fn public_summary(view: &PublicView, ctx: &RenderCtx) -> String {
    let r = |t: Text| t.render_with(ctx.lang, &ctx.names);
    let mode = r(Text::new(format!("vortex.mode.{}", view.mode.key())));
    let mut lines = vec![format!(
        "Vortex · {mode}{}",
        if view.options.is_empty() {
            String::new()
        } else {
            format!(" · {}", view.options.join(" "))
        }
    )];
    match (&view.ending, view.to_act, view.turn_side) {
        (Some(Ending::Won { .. }), _, _) => {
            let w: Vec<Text> = view
                .winners
                .iter()
                .map(|s| Text::new("core.raw").arg("s", *s))
                .collect();
            lines.push(r(Text::new("vortex.summary.won")
                .arg("count", w.len() as i64)
                .arg("seats", w)));
        }
        (Some(Ending::Drawn(_)), _, _) => lines.push(r(Text::new("vortex.summary.drawn"))),
        (None, Some(seat), Some(side)) => {
            let step = match view.mode {
                Mode::Crossing | Mode::Advanced => Text::new("vortex.summary.actions")
                    .arg("n", i64::from(view.used))
                    .arg("of", i64::from(view.allowance)),
                Mode::Catmouse => Text::new("vortex.summary.mouse_rotations")
                    .arg("n", i64::from(view.mouse_rotations)),
                Mode::Solitaire => {
                    Text::new("vortex.summary.rotations").arg("n", i64::from(view.rotations))
                }
            };
            lines.push(r(Text::new("vortex.summary.turn")
                .arg("round", i64::from(view.round))
                .arg("seat", seat)
                .arg("role", side_label(view, side))
                .arg("step", step)));
        }
        _ => {}
    }
    for (i, s) in view.sides.iter().enumerate() {
        let line = match view.mode {
            Mode::Crossing | Mode::Advanced => {
                let mut t = Text::new("vortex.summary.seat")
                    .arg("seat", s.seat)
                    .arg("colour", colour_text(s.colour))
                    .arg(
                        "goal",
                        tower_letter(s.goal).to_ascii_uppercase().to_string(),
                    )
                    .arg("k", i64::from(s.in_goal))
                    .arg("need", i64::from(view.goal_count));
                if view.minority {
                    t = Text::new("vortex.summary.with_minority")
                        .arg("base", t)
                        .arg("left", i64::from(s.minority_left));
                }
                if !s.towers.is_empty() {
                    let ts: Vec<String> = s
                        .towers
                        .iter()
                        .map(|x| tower_letter(*x).to_ascii_uppercase().to_string())
                        .collect();
                    t = Text::new("vortex.summary.with_towers")
                        .arg("base", t)
                        .arg("towers", ts.join(" "));
                }
                t
            }
            Mode::Catmouse => Text::new("vortex.summary.role")
                .arg("seat", s.seat)
                .arg("role", side_label(view, i)),
            Mode::Solitaire => Text::new("vortex.summary.solo_colour")
                .arg("colour", colour_text(s.colour))
                .arg(
                    "tower",
                    tower_letter(s.goal).to_ascii_uppercase().to_string(),
                )
                .arg("k", i64::from(s.in_goal)),
        };
        lines.push(r(line));
    }
    if let Some(prev) = &view.prev_turn {
        if !prev.steps.is_empty() || !prev.other.is_empty() {
            if let Some(side) = view.sides.get(prev.side) {
                lines.push(format!(
                    "{}: {}",
                    r(Text::new("core.raw").arg("s", side.seat)),
                    turn_line(prev)
                ));
            }
        }
    }
    if view.mode == Mode::Solitaire {
        lines.push(r(
            Text::new("vortex.summary.puzzle").arg("code", view.seed.to_string())
        ));
    }
    lines.push(ascii_board(&view.board, &view.claims, view.mode));
    lines.join("\n")
}
