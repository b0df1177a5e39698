//! The public board image (spec section 11): the hexagonal board, 1000 px wide, with every
//! tower lettered and every space numbered, routers as shrunken triangles with a symbol
//! besides their colour, goal zones dashed, claims filled in the owner's colour, the last
//! turns' rotations as arrows; under it a strip with the step, the last turn and every side's
//! goal. The common frame (`render::frame`) adds the title, whose turn or the result, the
//! seats and the legend. Pure: builds an image only.

use image::{Rgba, RgbaImage};

use super::board::{geo, tower_letter};
use super::moves::{Dir, DrawReason, WinReason};
use super::state::{Colour, Ending, Mode, Router};
use super::view::{side_label, turn_line, PublicView};
use crate::engine::{GameKind, RenderCtx, Seat};
use crate::i18n::Text;
use crate::render::frame::{self, Frame, SeatChip, Status};
use crate::render::layers::Kept;
use crate::render::palette::{
    ink_on, mix, rgb, seat_letters, INK, INK_DIM, PAPER, SEAT_COLOURS, WHITE,
};
use crate::render::panel::{fit, LegendEntry};
use crate::render::shapes::{
    arrow_head, dashed_polyline, fill_convex, fill_disc, fill_polygon, polyline, ring,
    rounded_rect, stroke_convex, thick_line, Pt,
};
use crate::render::text::{draw_text, draw_text_centred, Align, Style, Weight};
use crate::render::zoom;

/// The board's width: the hexagon and its flags, no side panel (a phone shows it at 400 px).
pub const WIDTH: u32 = 1000;
/// The hexagon's part of the board; the strip of text follows it.
pub const HEX_H: u32 = 880;
const UNIT: f32 = 150.0;
/// Sizes of pieces and labels against the 140 px spacing they were drawn for.
const K: f32 = UNIT / 140.0;
const CX: f32 = 500.0;
const CY: f32 = 448.0;
const SQRT3: f32 = 1.732_050_8;
const BOARD: Rgba<u8> = rgb(0xE4DED0);
const BOARD_DOWN: Rgba<u8> = rgb(0xD2CAB8);
const EMPTY_NUM: Rgba<u8> = rgb(0x8A8578);
const PANTRY: Rgba<u8> = rgb(0xFFE08A);
/// This turn's rotations and moved routers, and the previous turn's: a violet pair that is
/// no side's colour (issue 38).
const THIS_TURN: Rgba<u8> = rgb(0xC0267E);
const LAST_TURN: Rgba<u8> = rgb(0x7E6BB0);
/// The strip under the hexagon: its margins, a text line, a row of sides.
const STRIP_PAD: f32 = 14.0;
const LINE_H: f32 = 32.0;
/// A goal's outline: the hexagon through its ring's outer corners, shrunk to run between the
/// routers (drawn at 0.8 of a space) and the ring's edge.
const GOAL_INSET: f32 = 0.965;

fn tr(ctx: &RenderCtx, t: Text) -> String {
    t.render_with(ctx.lang, &ctx.names)
}

fn key(k: &str) -> Text {
    Text::new(format!("vortex.render.{k}"))
}

fn fill_of(c: Colour) -> Rgba<u8> {
    geo()
        .palette
        .get(&c)
        .map_or(INK_DIM, |(fill, _)| rgb(*fill))
}

fn text_of(c: Colour) -> Rgba<u8> {
    geo().palette.get(&c).map_or(WHITE, |(_, text)| rgb(*text))
}

fn dark(c: Colour) -> Rgba<u8> {
    mix(fill_of(c), rgb(0x000000), 0.45)
}

/// Pixel position of a point given in doubled-x / sixfold-y units.
fn px(x2: i32, y6: i32) -> Pt {
    Pt::new(
        CX + UNIT * x2 as f32 / 2.0,
        CY + UNIT * y6 as f32 * SQRT3 / 6.0,
    )
}

fn tower_pt(t: u8) -> Pt {
    let d = &geo().towers[usize::from(t)];
    px(d.x2(), d.y6())
}

fn space_pt(s: u8) -> Pt {
    let d = geo().space(s);
    px(d.x2, d.y6)
}

/// The corners of a space's triangle, shrunk by `k` about its centroid.
fn triangle(s: u8, k: f32) -> [Pt; 3] {
    let c = space_pt(s);
    let up = geo().space(s).up;
    let r = UNIT / SQRT3 * k;
    let (a, b) = (UNIT / 2.0 * k, UNIT / (2.0 * SQRT3) * k);
    if up {
        [
            Pt::new(c.x, c.y - r),
            Pt::new(c.x + a, c.y + b),
            Pt::new(c.x - a, c.y + b),
        ]
    } else {
        [
            Pt::new(c.x, c.y + r),
            Pt::new(c.x - a, c.y - b),
            Pt::new(c.x + a, c.y - b),
        ]
    }
}

/// The hexagon through a tower's six lattice neighbours: the outline of its ring.
fn ring_hexagon(t: u8, scale: f32) -> Vec<Pt> {
    let c = tower_pt(t);
    (0..=6)
        .map(|k| {
            let a = std::f32::consts::PI / 3.0 * k as f32;
            Pt::new(c.x + UNIT * scale * a.cos(), c.y + UNIT * scale * a.sin())
        })
        .collect()
}

/// How much white lightens a colour's Solitaire target tint: black's is lighter than the
/// others, so that its grey stays well away from the grey router's.
fn tint_share(c: Colour, share: f32) -> f32 {
    if c == Colour::Black {
        share + 0.12
    } else {
        share
    }
}

/// The colour's symbol (spec section 3.2), drawn as a primitive so it never depends on fonts.
pub fn symbol(img: &mut RgbaImage, c: Colour, at: Pt, size: f32, ink: Rgba<u8>) {
    let h = size / 2.0;
    match c {
        Colour::Blue => fill_disc(img, at, h, ink),
        Colour::Green => fill_convex(
            img,
            &[
                Pt::new(at.x - h, at.y - h),
                Pt::new(at.x + h, at.y - h),
                Pt::new(at.x + h, at.y + h),
                Pt::new(at.x - h, at.y + h),
            ],
            ink,
        ),
        Colour::Orange => fill_convex(
            img,
            &[
                Pt::new(at.x, at.y - h * 1.1),
                Pt::new(at.x + h * 1.1, at.y + h * 0.9),
                Pt::new(at.x - h * 1.1, at.y + h * 0.9),
            ],
            ink,
        ),
        Colour::Yellow => fill_convex(
            img,
            &[
                Pt::new(at.x, at.y - h * 1.2),
                Pt::new(at.x + h * 1.2, at.y),
                Pt::new(at.x, at.y + h * 1.2),
                Pt::new(at.x - h * 1.2, at.y),
            ],
            ink,
        ),
        Colour::Black => {
            thick_line(
                img,
                Pt::new(at.x - h, at.y),
                Pt::new(at.x + h, at.y),
                size / 3.5,
                ink,
            );
            thick_line(
                img,
                Pt::new(at.x, at.y - h),
                Pt::new(at.x, at.y + h),
                size / 3.5,
                ink,
            );
        }
        Colour::Grey => ring(img, at, h * 0.8, size / 4.0, ink),
        Colour::Red => {
            draw_text_centred(img, &Style::new(Weight::Bold, size * 1.3, ink), at, "M");
        }
    }
}

/// A swatch: a small triangle in the colour with its symbol.
fn swatch(img: &mut RgbaImage, c: Colour, at: Pt, size: f32, catmouse: bool) {
    let t = [
        Pt::new(at.x, at.y - size * 0.6),
        Pt::new(at.x + size * 0.65, at.y + size * 0.5),
        Pt::new(at.x - size * 0.65, at.y + size * 0.5),
    ];
    stroke_convex(img, &t, 3.0, dark(c));
    fill_convex(img, &t, fill_of(c));
    let mark = Pt::new(at.x, at.y + size * 0.15);
    if catmouse && c == Colour::Black {
        draw_text_centred(
            img,
            &Style::new(Weight::Bold, size * 0.5, text_of(c)),
            mark,
            "C",
        );
    } else {
        symbol(img, c, mark, size * 0.32, text_of(c));
    }
}

/// A curved arrow around a tower disc: clockwise or not, in `colour`, with a count. `below`
/// puts it under the disc (the banned cat move) instead of over it (rotations played).
fn turn_arrow(img: &mut RgbaImage, t: u8, dir: Dir, count: usize, colour: Rgba<u8>, below: bool) {
    let c = tower_pt(t);
    let r = K * 38.0;
    // An arc over the top of the disc, from -125° to -25° (screen angles, y down), or the
    // same arc mirrored below it (55° to 155°).
    let (a0, a1) = if below {
        (55.0f32.to_radians(), 155.0f32.to_radians())
    } else {
        (-125.0f32.to_radians(), -25.0f32.to_radians())
    };
    let pts: Vec<Pt> = (0..=16)
        .map(|i| {
            let a = a0 + (a1 - a0) * i as f32 / 16.0;
            Pt::new(c.x + r * a.cos(), c.y + r * a.sin())
        })
        .collect();
    polyline(img, &pts, K * 9.0, WHITE);
    polyline(img, &pts, K * 5.0, colour);
    let (tip, back) = match dir {
        Dir::Cw => (pts[16], pts[14]),
        Dir::Ccw => (pts[0], pts[2]),
    };
    arrow_head(
        img,
        tip + (tip - back).unit().scale(K * 8.0),
        tip - back,
        K * 14.0,
        colour,
    );
    if count > 1 {
        let at = Pt::new(c.x + K * 40.0, c.y - K * 44.0);
        fill_disc(img, at, K * 13.0, colour);
        draw_text_centred(
            img,
            &Style::new(Weight::Bold, K * 15.0, ink_on(colour)),
            at,
            &format!("×{count}"),
        );
    }
}

/// What the board's ground depends on: the mode, each side's goal tower and colour, the
/// pantry and its markers, whether sides have a second line (minority tokens, controllers).
/// Nothing else of the view reaches [`draw_ground`].
#[derive(Clone, Debug, PartialEq, Eq)]
struct Layout {
    mode: Mode,
    goals: Vec<(u8, Colour)>,
    pantry: Vec<u8>,
    markers: Vec<u8>,
    second_line: bool,
}

impl Layout {
    fn of(v: &PublicView) -> Layout {
        Layout {
            mode: v.mode,
            goals: v.sides.iter().map(|s| (s.goal, s.colour)).collect(),
            pantry: v.pantry.clone(),
            markers: v.markers.clone(),
            second_line: v.mode.is_race() && (v.minority || v.mode == Mode::Advanced),
        }
    }

    /// Text lines over the sides: the step and the last turn (the puzzle's step alone).
    fn lines(&self) -> usize {
        if self.mode == Mode::Solitaire {
            1
        } else {
            2
        }
    }

    /// A row of two sides.
    fn row_h(&self) -> f32 {
        if self.second_line {
            LINE_H + 28.0
        } else {
            LINE_H + 4.0
        }
    }

    /// The strip under the hexagon, whole.
    fn strip_h(&self) -> u32 {
        let rows = self.goals.len().div_ceil(2);
        (STRIP_PAD * 2.0 + self.lines() as f32 * LINE_H + rows as f32 * self.row_h()).ceil() as u32
    }
}

/// Grounds of the last few layouts: a game's boards share one (a table has one layout), so
/// most boards copy theirs. Four grounds of 4 MB each at most.
static GROUNDS: Kept<Layout, RgbaImage> = Kept::new(4);

/// The image under the pieces: paper, the board with its tints, checkerboard, outline, goal
/// rings and flags and pantry markers, and the strip's box. The routers drawn over it stay
/// inside the board hexagon and the towers' discs, badges and arrows within 62 px of a tower,
/// above the strip (the tests check both bounds and compare boards with the box drawn last).
fn draw_ground(l: &Layout) -> RgbaImage {
    let mut img = crate::render::canvas(WIDTH, HEX_H + l.strip_h(), PAPER);
    draw_layout(&mut img, l);
    strip_box(&mut img);
    img
}

/// The board under the pieces: tints, checkerboard, outline, goal rings, flags, markers.
fn draw_layout(img: &mut RgbaImage, l: &Layout) {
    let g = geo();
    // The hexagon outline of side 3: corners (±3, 0), (±1.5, ±2.598).
    let hex: Vec<Pt> = (0..6)
        .map(|k| {
            let a = std::f32::consts::PI / 3.0 * k as f32;
            Pt::new(CX + 3.0 * UNIT * a.cos(), CY + 3.0 * UNIT * a.sin())
        })
        .collect();
    fill_convex(img, &hex, BOARD);
    // Tints: the pantry (Cat & Mouse) and the Solitaire target rings.
    for s in &l.pantry {
        fill_polygon(img, &triangle(*s, 1.0), PANTRY);
    }
    if l.mode == Mode::Solitaire {
        for &(goal, colour) in &l.goals {
            for s in g.ring(goal) {
                fill_convex(
                    img,
                    &triangle(*s, 1.0),
                    mix(fill_of(colour), WHITE, tint_share(colour, 0.72)),
                );
            }
        }
    }
    // Empty spaces as a two-tone checkerboard (down triangles darker) instead of grid lines.
    for s in (1..=54u8).filter(|s| !g.space(*s).up) {
        if l.pantry.contains(&s) {
            continue;
        }
        let shade = if l.mode == Mode::Solitaire {
            l.goals
                .iter()
                .find(|(goal, _)| g.ring(*goal).contains(&s))
                .map_or(BOARD_DOWN, |&(_, colour)| {
                    mix(fill_of(colour), WHITE, tint_share(colour, 0.62))
                })
        } else {
            BOARD_DOWN
        };
        fill_polygon(img, &triangle(s, 1.0), shade);
    }
    // Black's target tint is a grey, like the grey router (and grey's own target): a lighter
    // ground and three black dots in each of its spaces tell it apart (issue 25). Routers
    // cover the dots, so they show on the free spaces only.
    if l.mode == Mode::Solitaire {
        for &(goal, _) in l.goals.iter().filter(|(_, c)| *c == Colour::Black) {
            for s in g.ring(goal) {
                for dot in triangle(*s, 0.6) {
                    fill_disc(img, dot, 5.0, fill_of(Colour::Black));
                }
            }
        }
    }
    let mut closed = hex.clone();
    closed.push(hex[0]);
    polyline(img, &closed, 3.0, INK_DIM);
    // Goal zones of the race modes, dashed (start zones are where the routers stand at
    // setup, so they are not outlined: fewer lines keep the board readable).
    // Each goal's outline runs inside its own ring (between the routers and the ring's edge),
    // so two goal zones that share an edge show two dashed lines side by side, each in its
    // colour, instead of one over the other (six players, issue 38).
    if l.mode.is_race() {
        for &(goal, colour) in &l.goals {
            let pts = ring_hexagon(goal, GOAL_INSET);
            dashed_polyline(img, &pts, 4.0, 18.0, 10.0, fill_of(colour));
            // A flag on the outer side of the goal ring: the symbol, so colour is not needed.
            let c = tower_pt(goal);
            let out = (c - Pt::new(CX, CY)).unit();
            let at = c + out.scale(UNIT * 1.08);
            fill_disc(img, at, K * 15.0, WHITE);
            ring(img, at, K * 15.0, K * 3.0, fill_of(colour));
            symbol(img, colour, at, K * 13.0, fill_of(colour));
        }
    }
    if l.mode == Mode::Solitaire {
        for &(goal, colour) in &l.goals {
            let pts = ring_hexagon(goal, GOAL_INSET);
            if colour == Colour::Black {
                // Black's outline would read as the board's own edge: a black band with a
                // white core, named in the legend (issue 38).
                polyline(img, &pts, 10.0, fill_of(Colour::Black));
                polyline(img, &pts, 3.0, WHITE);
            } else {
                polyline(img, &pts, 4.0, fill_of(colour));
            }
        }
    }
    // Pantry markers: three grey discs in the top margin above their towers.
    for t in &l.markers {
        let c = tower_pt(*t);
        let at = Pt::new(c.x, 34.0);
        fill_disc(img, at, 14.0, rgb(0x8E8E8E));
        ring(img, at, 14.0, 2.0, INK_DIM);
    }
}

/// The strip's white box, under the hexagon.
fn strip_box(img: &mut RgbaImage) {
    rounded_rect(
        img,
        Pt::new(10.0, HEX_H as f32),
        Pt::new(WIDTH as f32 - 10.0, img.height() as f32 - 10.0),
        12.0,
        WHITE,
        Some((mix(INK_DIM, WHITE, 0.5), 2.0)),
    );
}

/// The pieces and marks over the ground: routers, towers, badges, arrows.
fn draw_board(img: &mut RgbaImage, v: &PublicView) {
    let g = geo();
    // Routers.
    for s in 1..=54u8 {
        let cell = v.board[usize::from(s - 1)];
        let c = space_pt(s);
        let up = g.space(s).up;
        let toward_base = if up { 1.0 } else { -1.0 };
        match cell {
            None => {
                let style = Style::new(Weight::Bold, K * 19.0, EMPTY_NUM);
                draw_text_centred(img, &style, c, &s.to_string());
            }
            Some(r) => draw_router(img, v, s, r, c, toward_base),
        }
    }
    // Towers.
    for t in 0..19u8 {
        let c = tower_pt(t);
        let letter = tower_letter(t).to_ascii_uppercase().to_string();
        match v.claims[usize::from(t)] {
            Some(owner) => {
                fill_disc(img, c, K * 30.0, dark(owner));
                fill_disc(img, c, K * 27.0, fill_of(owner));
                draw_text_centred(
                    img,
                    &Style::new(Weight::Bold, K * 24.0, text_of(owner)),
                    Pt::new(c.x, c.y - K * 4.0),
                    &letter,
                );
                symbol(
                    img,
                    owner,
                    Pt::new(c.x, c.y + K * 15.0),
                    K * 9.0,
                    text_of(owner),
                );
            }
            None => {
                fill_disc(img, c, K * 30.0, INK);
                fill_disc(img, c, K * 27.0, WHITE);
                draw_text_centred(img, &Style::new(Weight::Bold, K * 26.0, INK), c, &letter);
            }
        }
    }
    // Cat & Mouse: towers closed to the mouse get a red badge with the cat count.
    if v.mode == Mode::Catmouse {
        for t in 0..19u8 {
            let cats = g
                .ring(t)
                .iter()
                .filter(|s| {
                    v.board[usize::from(**s - 1)].is_some_and(|r| r.colour == Colour::Black)
                })
                .count();
            if cats >= 2 {
                let at = Pt::new(tower_pt(t).x - K * 44.0, tower_pt(t).y);
                fill_disc(img, at, K * 13.0, fill_of(Colour::Red));
                draw_text_centred(
                    img,
                    &Style::new(Weight::Bold, K * 15.0, WHITE),
                    at,
                    &cats.to_string(),
                );
            }
        }
        if let Some((t, d)) = v.banned {
            let red = fill_of(Colour::Red);
            turn_arrow(img, t, d, 1, red, true);
            // Crossed out: the cats may not play it.
            let c = tower_pt(t);
            thick_line(
                img,
                Pt::new(c.x - K * 22.0, c.y + K * 30.0),
                Pt::new(c.x + K * 2.0, c.y + K * 54.0),
                K * 8.0,
                WHITE,
            );
            thick_line(
                img,
                Pt::new(c.x - K * 22.0, c.y + K * 30.0),
                Pt::new(c.x + K * 2.0, c.y + K * 54.0),
                K * 4.0,
                INK,
            );
        }
    }
    // Last activity: the previous turn in violet, this turn in magenta.
    let mut marks: Vec<(u8, Dir, usize, Rgba<u8>)> = Vec::new();
    let mut add = |steps: &[super::state::Step], colour: Rgba<u8>| {
        let mut seen: Vec<(u8, Dir, usize)> = Vec::new();
        for s in steps {
            match seen
                .iter_mut()
                .find(|(t, d, _)| *t == s.tower && *d == s.dir)
            {
                Some(e) => e.2 += 1,
                None => seen.push((s.tower, s.dir, 1)),
            }
        }
        for (t, d, n) in seen {
            marks.push((t, d, n, colour));
        }
    };
    let solo = v.mode == Mode::Solitaire;
    if !solo && v.this_turn.steps.is_empty() {
        if let Some(p) = &v.prev_turn {
            add(&p.steps, LAST_TURN);
        }
    }
    if solo {
        let n = v.this_turn.steps.len();
        add(&v.this_turn.steps[n.saturating_sub(1)..], THIS_TURN);
    } else {
        add(&v.this_turn.steps, THIS_TURN);
    }
    for (t, d, n, colour) in marks {
        turn_arrow(img, t, d, n, colour, false);
    }
}

fn draw_router(img: &mut RgbaImage, v: &PublicView, s: u8, r: Router, c: Pt, toward_base: f32) {
    if v.last_moved.contains(&s) {
        fill_polygon(img, &triangle(s, 0.9), THIS_TURN);
    }
    fill_polygon(img, &triangle(s, 0.8), dark(r.colour));
    fill_polygon(img, &triangle(s, 0.74), fill_of(r.colour));
    let ink = text_of(r.colour);
    let catmouse = v.mode == Mode::Catmouse;
    if catmouse {
        let letter = if r.colour == Colour::Red { "M" } else { "C" };
        draw_text_centred(img, &Style::new(Weight::Bold, K * 30.0, ink), c, letter);
        let corner = Pt::new(c.x, c.y + toward_base * K * 28.0);
        draw_text_centred(
            img,
            &Style::new(Weight::Bold, K * 13.0, ink),
            corner,
            &s.to_string(),
        );
        return;
    }
    if r.ctrl {
        fill_disc(img, c, K * 18.0, dark(r.colour));
        fill_disc(img, c, K * 14.5, WHITE);
        draw_text_centred(
            img,
            &Style::new(Weight::Bold, K * 17.0, INK),
            c,
            &s.to_string(),
        );
    } else {
        draw_text_centred(
            img,
            &Style::new(Weight::Bold, K * 20.0, ink),
            c,
            &s.to_string(),
        );
    }
    symbol(
        img,
        r.colour,
        Pt::new(c.x, c.y + toward_base * K * 27.0),
        K * 11.0,
        ink,
    );
}

/// The strip's text: lines from the top, then sides in two columns.
struct Strip<'a> {
    img: &'a mut RgbaImage,
    y: f32,
}

impl Strip<'_> {
    fn line(&mut self, style: &Style, text: &str) {
        let t = fit(style.weight, style.size, text, WIDTH as f32 - 60.0);
        draw_text(self.img, style, 30.0, self.y, Align::Left, &t);
        self.y += LINE_H;
    }
}

/// The step of the turn in words ("action 2 of 4"), when someone is to decide.
fn step_text(v: &PublicView, ctx: &RenderCtx) -> Option<String> {
    v.to_act?;
    let step = match v.mode {
        Mode::Crossing | Mode::Advanced => {
            if v.prompt == Some("place") {
                key("placing")
            } else if v.allowance < 4 {
                key("opening")
                    .arg("n", i64::from(v.used) + 1)
                    .arg("of", i64::from(v.allowance))
            } else {
                key("action")
                    .arg("n", (i64::from(v.used) + 1).min(4))
                    .arg("of", i64::from(v.allowance))
            }
        }
        Mode::Catmouse => {
            if v.prompt == Some("mouse") {
                key("mouse_rotations").arg("n", i64::from(v.mouse_rotations))
            } else {
                key("cats_move")
            }
        }
        Mode::Solitaire => key("solo_step"),
    };
    Some(tr(ctx, step))
}

/// The strip under the hexagon (its box is part of the ground): the turn's step and the last
/// turn, then one cell per side with its goal and tokens.
fn draw_strip(img: &mut RgbaImage, v: &PublicView, ctx: &RenderCtx) {
    let layout = Layout::of(v);
    let body = Style::new(Weight::Regular, 22.0, INK);
    let bold = Style::new(Weight::Bold, 22.0, INK);
    let dim = Style::new(Weight::Regular, 18.0, INK_DIM);
    let top = HEX_H as f32 + STRIP_PAD;
    let mut p = Strip { img, y: top };
    let over = v.ending.is_some() || ctx.stopped;
    if v.mode == Mode::Solitaire {
        let mut parts = Vec::new();
        if !over {
            parts.extend(step_text(v, ctx));
        }
        parts.push(tr(ctx, key("puzzle").arg("code", v.seed.to_string())));
        p.line(&body, &parts.join(" · "));
    } else {
        if let Some(step) = step_text(v, ctx).filter(|_| !over) {
            p.line(&bold, &step);
        } else {
            p.y += LINE_H;
        }
        // The turn that ended the game is the last one; before, the one played before now.
        let last_log = if v.ending.is_some() && !v.this_turn.steps.is_empty() {
            Some(&v.this_turn)
        } else {
            v.prev_turn.as_ref()
        };
        let last = last_log.and_then(|prev| {
            let side = v.sides.get(prev.side)?;
            let line = turn_line(prev);
            (!line.is_empty()).then(|| {
                tr(
                    ctx,
                    key("last_turn")
                        .arg("name", ctx.name(side.seat))
                        .arg("line", line),
                )
            })
        });
        match last {
            Some(text) => p.line(&body, &text),
            None => p.y += LINE_H,
        }
    }
    let sides_top = top + layout.lines() as f32 * LINE_H;
    let col_w = (WIDTH as f32 - 40.0) / 2.0;
    for (i, s) in v.sides.iter().enumerate() {
        let x = 20.0 + (i % 2) as f32 * col_w;
        let y = sides_top + (i / 2) as f32 * layout.row_h();
        swatch(
            p.img,
            s.colour,
            Pt::new(x + 24.0, y + 14.0),
            30.0,
            v.mode == Mode::Catmouse,
        );
        let head = match v.mode {
            Mode::Solitaire => tr(
                ctx,
                key("solo_row")
                    .arg(
                        "colour",
                        Text::new(format!("vortex.colour.{}", s.colour.key())),
                    )
                    .arg(
                        "tower",
                        tower_letter(s.goal).to_ascii_uppercase().to_string(),
                    )
                    .arg("k", i64::from(s.in_goal)),
            ),
            Mode::Catmouse => format!("{} · {}", ctx.name(s.seat), tr(ctx, side_label(v, i))),
            _ => {
                let team = s
                    .team
                    .map(|t| format!(" [{}]", tr(ctx, key("team").arg("n", i64::from(t) + 1))))
                    .unwrap_or_default();
                let tick = if s.finished { " ✓" } else { "" };
                format!(
                    "{}{team} · {}{tick}",
                    ctx.name(s.seat),
                    tr(
                        ctx,
                        key("in_goal")
                            .arg("k", i64::from(s.in_goal))
                            .arg("need", i64::from(v.goal_count))
                            .arg(
                                "tower",
                                tower_letter(s.goal).to_ascii_uppercase().to_string()
                            )
                    )
                )
            }
        };
        let t = fit(Weight::Bold, 22.0, &head, col_w - 70.0);
        draw_text(p.img, &bold, x + 50.0, y, Align::Left, &t);
        if layout.second_line {
            let y = y + LINE_H - 2.0;
            let mut x = x + 50.0;
            let right = x - 50.0 + col_w - 10.0;
            if v.minority {
                let label = tr(ctx, key("minority"));
                x += draw_text(p.img, &dim, x, y, Align::Left, &label) + 10.0;
                for k in 0..2u8 {
                    let at = Pt::new(x + 8.0, y + 10.0);
                    if k < s.minority_left {
                        fill_disc(p.img, at, 8.0, fill_of(s.colour));
                        ring(p.img, at, 8.0, 2.0, dark(s.colour));
                    } else {
                        ring(p.img, at, 7.0, 2.0, INK_DIM);
                    }
                    x += 22.0;
                }
                x += 12.0;
            }
            if v.mode == Mode::Advanced {
                let towers: Vec<String> = s
                    .towers
                    .iter()
                    .map(|t| tower_letter(*t).to_ascii_uppercase().to_string())
                    .collect();
                let text = tr(
                    ctx,
                    key("controllers").arg("riding", i64::from(s.riding)).arg(
                        "towers",
                        if towers.is_empty() {
                            "-".to_string()
                        } else {
                            towers.join(" ")
                        },
                    ),
                );
                let t = fit(Weight::Regular, 18.0, &text, (right - x).max(20.0));
                draw_text(p.img, &dim, x, y, Align::Left, &t);
            }
        }
    }
}

/// The subtitle: the mode, the round (or the puzzle's rotations) and options that differ.
fn subtitle(v: &PublicView, ctx: &RenderCtx) -> String {
    let mode = tr(ctx, Text::new(format!("vortex.mode.{}", v.mode.key())));
    let round = match v.mode {
        Mode::Solitaire => key("rotations").arg("n", i64::from(v.rotations)),
        // A game drawn on the limit has counted one round past it: it ended after the last.
        _ if v.max_rounds > 0 => key("round_of")
            .arg("n", i64::from(v.round.min(v.max_rounds)))
            .arg("of", i64::from(v.max_rounds)),
        _ => key("round").arg("n", i64::from(v.round)),
    };
    let mut parts = vec![mode, tr(ctx, round)];
    parts.extend(v.options.iter().cloned());
    parts.join(" · ")
}

/// How the game ended: who won, by how much and why (the rule that decided it).
fn ending_status(v: &PublicView, end: &Ending, ctx: &RenderCtx) -> Status {
    // Routers in goal: the winners' (the fewest among them) and the best of the others'.
    let in_goal = |won: bool, sides: &[usize]| -> Vec<i64> {
        v.sides
            .iter()
            .enumerate()
            .filter(|(i, _)| sides.contains(i) == won)
            .map(|(_, s)| i64::from(s.in_goal))
            .collect()
    };
    match end {
        Ending::Won { sides, reason } => {
            let mut seats: Vec<Seat> = sides
                .iter()
                .filter_map(|i| v.sides.get(*i).map(|s| s.seat))
                .collect();
            seats.dedup();
            let names: Vec<String> = seats.iter().map(|s| ctx.name(*s)).collect();
            let headline = tr(
                ctx,
                key("wins")
                    .arg("names", names.join(" + "))
                    .arg("n", names.len() as i64),
            );
            let detail = match reason {
                WinReason::Goal => key("by_goal")
                    .arg("won", in_goal(true, sides).into_iter().min().unwrap_or(0))
                    .arg("lost", in_goal(false, sides).into_iter().max().unwrap_or(0))
                    .arg("need", i64::from(v.goal_count)),
                WinReason::Pantry => key("by_pantry").arg("round", i64::from(v.round)),
                WinReason::Trapped => key("by_trapped").arg("round", i64::from(v.round)),
                WinReason::Solved => key("by_solved").arg("n", i64::from(v.rotations)),
            };
            Status::Over {
                headline,
                detail: tr(ctx, detail),
                colour: sides
                    .first()
                    .and_then(|i| v.sides.get(*i))
                    .map(|s| fill_of(s.colour)),
            }
        }
        Ending::Drawn(reason) => {
            let detail = match reason {
                DrawReason::RoundLimit if v.mode.is_race() => {
                    let mut best = in_goal(false, &[]);
                    best.sort_unstable_by(|a, b| b.cmp(a));
                    key("draw_round_limit_race")
                        .arg("a", best.first().copied().unwrap_or(0))
                        .arg("b", best.get(1).copied().unwrap_or(0))
                        .arg("need", i64::from(v.goal_count))
                        .arg("max", i64::from(v.max_rounds))
                }
                DrawReason::RoundLimit => {
                    key("draw_round_limit").arg("max", i64::from(v.max_rounds))
                }
                DrawReason::Deadlock => key("draw_deadlock"),
                DrawReason::RotationLimit => {
                    key("draw_rotation_limit").arg("n", i64::from(v.rotations))
                }
            };
            Status::Over {
                headline: tr(ctx, key("draw")),
                detail: tr(ctx, detail),
                colour: None,
            }
        }
    }
}

/// The header and footer of the common frame: title, whose turn or the result, one chip per
/// side (Solitaire: the one player, with the routers home), the legend.
fn frame_of(v: &PublicView, ctx: &RenderCtx) -> Frame<'static> {
    let letters = seat_letters(&ctx.names);
    let letter = |seat: Seat| letters.get(seat.index()).copied().unwrap_or('?');
    let over = v.ending.is_some();
    let seats = if v.mode == Mode::Solitaire {
        let home: i64 = v.sides.iter().map(|s| i64::from(s.in_goal)).sum();
        let seat = v.sides.first().map_or(Seat(0), |s| s.seat);
        vec![SeatChip {
            name: ctx.name(seat),
            colour: SEAT_COLOURS[0],
            letter: letter(seat),
            score: format!("{home}/{}", 6 * v.sides.len()),
            turn: !over && !ctx.stopped && v.to_act.is_some(),
            winner: over && v.winners.contains(&seat),
        }]
    } else {
        v.sides
            .iter()
            .enumerate()
            .map(|(i, s)| SeatChip {
                name: ctx.name(s.seat),
                colour: fill_of(s.colour),
                letter: letter(s.seat),
                score: if v.mode.is_race() {
                    let tick = if s.finished { "✓" } else { "" };
                    format!("{}/{}{tick}", s.in_goal, v.goal_count)
                } else {
                    String::new()
                },
                turn: !over && !ctx.stopped && v.turn_side == Some(i) && v.to_act.is_some(),
                winner: over && v.winners.contains(&s.seat),
            })
            .collect()
    };
    let status = match (&v.ending, v.to_act, v.turn_side) {
        (Some(end), _, _) => ending_status(v, end, ctx),
        (None, Some(seat), Some(side)) if !ctx.stopped => Status::Turn {
            seat: if v.mode == Mode::Solitaire { 0 } else { side },
            text: tr(
                ctx,
                key("to_move")
                    .arg("name", ctx.name(seat))
                    .arg("role", side_label(v, side)),
            ),
        },
        _ => Status::Plain(String::new()),
    };
    let name = GameKind::Vortex.display_name();
    Frame {
        title: ctx
            .number
            .map_or_else(|| name.to_string(), |n| format!("{name} #{n}")),
        subtitle: subtitle(v, ctx),
        status,
        seats,
        legend_title: tr(ctx, Text::new("render.legend")),
        legend: legend(v, ctx),
    }
}

/// The key to the marks, in the frame's footer.
fn legend(v: &PublicView, ctx: &RenderCtx) -> Vec<LegendEntry<'static>> {
    let mut rows = Vec::new();
    match v.mode {
        Mode::Crossing | Mode::Advanced => {
            rows.push(LegendEntry::new(
                tr(ctx, key("legend_goal")),
                |img: &mut RgbaImage, at: Pt| {
                    let pts = [Pt::new(at.x - 12.0, at.y), Pt::new(at.x + 12.0, at.y)];
                    dashed_polyline(img, &pts, 4.0, 7.0, 4.0, INK_DIM);
                },
            ));
            if v.mode == Mode::Advanced {
                rows.push(LegendEntry::new(
                    tr(ctx, key("legend_controller")),
                    |img: &mut RgbaImage, at: Pt| {
                        fill_disc(img, at, 10.0, INK);
                        fill_disc(img, at, 7.5, WHITE);
                    },
                ));
                rows.push(LegendEntry::new(
                    tr(ctx, key("legend_claim")),
                    |img: &mut RgbaImage, at: Pt| {
                        fill_disc(img, at, 10.0, fill_of(Colour::Blue));
                    },
                ));
            }
        }
        Mode::Catmouse => {
            rows.push(LegendEntry::new(
                tr(ctx, key("legend_pantry")),
                |img: &mut RgbaImage, at: Pt| {
                    fill_convex(
                        img,
                        &[
                            Pt::new(at.x - 11.0, at.y - 8.0),
                            Pt::new(at.x + 11.0, at.y - 8.0),
                            Pt::new(at.x, at.y + 10.0),
                        ],
                        PANTRY,
                    );
                },
            ));
            rows.push(LegendEntry::new(
                tr(ctx, key("legend_closed")),
                |img: &mut RgbaImage, at: Pt| {
                    fill_disc(img, at, 10.0, fill_of(Colour::Red));
                    draw_text_centred(img, &Style::new(Weight::Bold, 13.0, WHITE), at, "2");
                },
            ));
            rows.push(LegendEntry::new(
                tr(ctx, key("legend_banned")),
                |img: &mut RgbaImage, at: Pt| {
                    let red = fill_of(Colour::Red);
                    thick_line(
                        img,
                        Pt::new(at.x - 11.0, at.y),
                        Pt::new(at.x + 6.0, at.y),
                        4.0,
                        red,
                    );
                    arrow_head(img, Pt::new(at.x + 12.0, at.y), Pt::new(1.0, 0.0), 8.0, red);
                    thick_line(
                        img,
                        Pt::new(at.x - 5.0, at.y - 8.0),
                        Pt::new(at.x + 5.0, at.y + 8.0),
                        3.0,
                        INK,
                    );
                },
            ));
        }
        Mode::Solitaire => {
            rows.push(LegendEntry::new(
                tr(ctx, key("legend_target")),
                |img: &mut RgbaImage, at: Pt| {
                    ring(img, at, 9.0, 4.0, INK_DIM);
                },
            ));
            if v.sides.iter().any(|s| s.colour == Colour::Black) {
                rows.push(LegendEntry::new(
                    tr(ctx, key("legend_black_target")),
                    |img: &mut RgbaImage, at: Pt| {
                        ring(img, at, 9.0, 6.0, fill_of(Colour::Black));
                        ring(img, at, 9.0, 2.0, WHITE);
                    },
                ));
            }
        }
    }
    rows.push(LegendEntry::new(
        tr(ctx, key("legend_arrows")),
        |img: &mut RgbaImage, at: Pt| {
            for (colour, dy) in [(LAST_TURN, -5.0), (THIS_TURN, 6.0)] {
                let pts: Vec<Pt> = (0..=8)
                    .map(|i| {
                        let a = (-160.0 + 14.0 * i as f32).to_radians();
                        Pt::new(at.x - 2.0 + 9.0 * a.cos(), at.y + dy + 4.0 + 9.0 * a.sin())
                    })
                    .collect();
                polyline(img, &pts, 3.0, colour);
                arrow_head(img, pts[8], pts[8] - pts[6], 6.0, colour);
            }
        },
    ));
    rows
}

/// The board without its frame: the kept ground, the pieces and the strip, snapped to 16
/// levels.
fn draw_bare(view: &PublicView, ctx: &RenderCtx) -> RgbaImage {
    let mut img = (*GROUNDS.get_or_make(Layout::of(view), draw_ground)).clone();
    draw_board(&mut img, view);
    draw_strip(&mut img, view, ctx);
    // Snap every colour channel to 16 levels: anti-aliased edges keep their look, but the many
    // near-identical shades they leave compress far better (PNG stays well under 300 KB).
    crate::render::snap_to_16_levels(&mut img);
    img
}

/// The public board image: the board in the common frame.
pub fn render_public(view: &PublicView, ctx: &RenderCtx) -> RgbaImage {
    frame::compose(&draw_bare(view, ctx), &frame_of(view, ctx))
}

// ---- zoom (phones) ----------------------------------------------------------------------

/// Where the game stands first (the header in two halves, the step and last turn, the sides
/// in their two columns), then the board in two halves that overlap by half a tower's
/// spacing, so every router and space is whole in one of them. All below the header.
pub fn zoom_regions(
    view: &PublicView,
    ctx: &RenderCtx,
    _viewer: Option<Seat>,
) -> Vec<zoom::Region> {
    let head = frame::header_height(&frame_of(view, ctx), WIDTH) as f32;
    let layout = Layout::of(view);
    let (w, half) = (WIDTH as f32, WIDTH as f32 / 2.0);
    let strip = head + HEX_H as f32;
    let lines = STRIP_PAD + layout.lines() as f32 * LINE_H;
    let sides = layout.strip_h() as f32 - lines;
    let status = zoom::Region::new(ctx.zoom_text("status"), 0.0, 0.0, half, head)
        .below(half, 0.0, half, head)
        .below(0.0, strip, zoom::MAX_WIDTH as f32, lines)
        .below(0.0, strip + lines, half, sides)
        .below(half, strip + lines, half, sides);
    let overlap = UNIT / 2.0;
    vec![
        status,
        zoom::Region::new(
            ctx.zoom_text("board_left"),
            0.0,
            head,
            half + overlap,
            HEX_H as f32,
        ),
        zoom::Region::new(
            ctx.zoom_text("board_right"),
            half - overlap,
            head,
            w - half + overlap,
            HEX_H as f32,
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::GameRng;
    use crate::engine::{Game, GameOptions};
    use crate::games::vortex::state::Vortex;
    use crate::i18n::Lang;

    #[test]
    fn pieces_and_marks_stay_above_the_strip_and_inside_the_board() {
        for t in 0..19u8 {
            let c = tower_pt(t);
            assert!(c.y + K * 62.0 < HEX_H as f32, "tower {t}");
            assert!(
                c.x - K * 62.0 > 0.0 && c.x + K * 62.0 < WIDTH as f32,
                "tower {t}"
            );
        }
        for s in 1..=54u8 {
            for p in triangle(s, 1.0) {
                assert!(
                    p.y < HEX_H as f32 && p.x > 0.0 && p.x < WIDTH as f32,
                    "space {s}"
                );
            }
        }
    }

    /// Two goal zones that share an edge (six players) draw two lines side by side, never
    /// one over the other (issue 38): every outline keeps 6 px from every other one.
    #[test]
    fn goal_outlines_of_neighbouring_zones_do_not_overlap() {
        let g = game_of("mode=crossing", 6);
        let v = g.build_public();
        let outlines: Vec<Vec<Pt>> = v
            .sides
            .iter()
            .map(|s| {
                let pts = ring_hexagon(s.goal, GOAL_INSET);
                pts.windows(2)
                    .flat_map(|w| {
                        (0..=20).map(move |i| w[0] + (w[1] - w[0]).scale(i as f32 / 20.0))
                    })
                    .collect()
            })
            .collect();
        let mut closest = f32::MAX;
        for (i, a) in outlines.iter().enumerate() {
            for b in &outlines[i + 1..] {
                for p in a {
                    for q in b {
                        closest = closest.min((*p - *q).len());
                    }
                }
            }
        }
        assert!(closest > 6.0, "two goal outlines {closest} px apart");
    }

    /// The turn arrows are no side's colour (issue 38): neither of them is near a seat colour,
    /// for a red-green deficient eye too.
    #[test]
    fn turn_arrows_are_no_sides_colour() {
        use crate::render::palette::{seen_distance, Deficiency};
        for c in Colour::ALL {
            for arrow in [THIS_TURN, LAST_TURN] {
                for d in [Deficiency::None, Deficiency::Deutan, Deficiency::Protan] {
                    let dist = seen_distance(arrow, fill_of(c), d);
                    assert!(dist > 0.15, "{c:?} against {arrow:?} ({d:?}): {dist}");
                }
            }
        }
    }

    fn game_of(opts: &str, seats: usize) -> Vortex {
        let mut o = GameOptions::new();
        for kv in opts.split_whitespace() {
            let (k, v) = kv.split_once('=').expect("key=value");
            o.insert(k.into(), v.into());
        }
        Vortex::setup(&o, seats, 11).expect("setup")
    }

    /// The board as it was drawn before grounds were kept: paper, layout, pieces, then the
    /// strip's box and text, in the frame.
    fn drawn_in_one_go(v: &PublicView, ctx: &RenderCtx) -> RgbaImage {
        let mut img = crate::render::canvas(WIDTH, HEX_H + Layout::of(v).strip_h(), PAPER);
        draw_layout(&mut img, &Layout::of(v));
        draw_board(&mut img, v);
        strip_box(&mut img);
        draw_strip(&mut img, v, ctx);
        crate::render::snap_to_16_levels(&mut img);
        frame::compose(&img, &frame_of(v, ctx))
    }

    #[test]
    fn boards_on_a_kept_ground_are_the_boards_drawn_in_one_go() {
        let ctx = RenderCtx {
            lang: Lang::En,
            names: ["Ann", "Bob", "Cleo", "Dan", "Eve", "Fay"]
                .map(String::from)
                .to_vec(),
            stopped: false,
            number: None,
        };
        for (opts, seats) in [
            ("mode=crossing", 6),
            ("mode=crossing", 3),
            ("mode=advanced", 4),
            ("mode=catmouse", 2),
            ("mode=solitaire", 1),
        ] {
            let mut o = GameOptions::new();
            for kv in opts.split_whitespace() {
                let (k, v) = kv.split_once('=').expect("key=value");
                o.insert(k.into(), v.into());
            }
            let mut g = Vortex::setup(&o, seats, 11).expect("setup");
            let mut rng = GameRng::seed_from_u64(5);
            for step in 0..300 {
                if step % 30 == 0 {
                    let v = g.build_public();
                    // Twice: the first may draw the ground, the second copies it.
                    for _ in 0..2 {
                        assert!(
                            render_public(&v, &ctx) == drawn_in_one_go(&v, &ctx),
                            "{opts}, {seats} seats, after {step}"
                        );
                    }
                }
                let Some(p) = Game::prompt(&g) else { break };
                let pick = p.options[rng.gen_range(0..p.options.len())];
                g.apply(p.seat, &pick).expect("listed option applies");
            }
        }
        assert!(GROUNDS.len() <= 4);
    }
}
