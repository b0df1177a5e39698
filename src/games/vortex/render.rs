//! The public board image (spec section 11): 1400 × 900, the hexagonal board on the left with
//! every tower lettered and every space numbered, routers as shrunken triangles with a symbol
//! besides their colour, goal zones dashed, claims filled in the owner's colour, the last
//! turns' rotations as arrows; a legend panel on the right. Pure: builds an image only.

use image::{Rgba, RgbaImage};

use super::board::{geo, tower_letter};
use super::moves::Dir;
use super::state::{Colour, Ending, Mode, Router};
use super::view::{side_label, turn_line, PublicView};
use crate::engine::{RenderCtx, Seat};
use crate::i18n::Text;
use crate::render::layers::Kept;
use crate::render::palette::{ink_on, mix, rgb, ALERT, INK, INK_DIM, PAPER, WHITE};
use crate::render::panel::{fit, Icon};
use crate::render::shapes::{
    arrow_head, dashed_polyline, fill_convex, fill_disc, fill_polygon, polyline, ring,
    rounded_rect, stroke_convex, thick_line, Pt,
};
use crate::render::text::{draw_text, draw_text_centred, Align, Style, Weight};
use crate::render::zoom;

pub const WIDTH: u32 = 1400;
pub const HEIGHT: u32 = 900;
const UNIT: f32 = 140.0;
const CX: f32 = 450.0;
const CY: f32 = 450.0;
const SQRT3: f32 = 1.732_050_8;
const BOARD: Rgba<u8> = rgb(0xE4DED0);
const BOARD_DOWN: Rgba<u8> = rgb(0xD2CAB8);
const EMPTY_NUM: Rgba<u8> = rgb(0x8A8578);
const PANTRY: Rgba<u8> = rgb(0xFFE08A);
const PANEL_X: f32 = 905.0;
const PANEL_W: f32 = 480.0;

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
    let r = 38.0;
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
    polyline(img, &pts, 9.0, WHITE);
    polyline(img, &pts, 5.0, colour);
    let (tip, back) = match dir {
        Dir::Cw => (pts[16], pts[14]),
        Dir::Ccw => (pts[0], pts[2]),
    };
    arrow_head(
        img,
        tip + (tip - back).unit().scale(8.0),
        tip - back,
        14.0,
        colour,
    );
    if count > 1 {
        let at = Pt::new(c.x + 40.0, c.y - 44.0);
        fill_disc(img, at, 13.0, colour);
        draw_text_centred(
            img,
            &Style::new(Weight::Bold, 15.0, ink_on(colour)),
            at,
            &format!("×{count}"),
        );
    }
}

/// What the board's ground depends on: the mode, each side's goal tower and colour, the
/// pantry and its markers. Nothing else of the view reaches [`draw_ground`].
#[derive(Clone, Debug, PartialEq, Eq)]
struct Layout {
    mode: Mode,
    goals: Vec<(u8, Colour)>,
    pantry: Vec<u8>,
    markers: Vec<u8>,
}

impl Layout {
    fn of(v: &PublicView) -> Layout {
        Layout {
            mode: v.mode,
            goals: v.sides.iter().map(|s| (s.goal, s.colour)).collect(),
            pantry: v.pantry.clone(),
            markers: v.markers.clone(),
        }
    }
}

/// Grounds of the last few layouts: a game's boards share one (a table has one layout), so
/// most boards copy theirs. Four grounds of 5 MB each at most.
static GROUNDS: Kept<Layout, RgbaImage> = Kept::new(4);

/// The image under the pieces: paper, the board with its tints, checkerboard, outline, goal
/// rings and flags and pantry markers, and the panel's box. The routers drawn over it stay
/// inside the board hexagon (x < 871) and the towers' discs, badges and arrows within 60 px
/// of a tower (the rightmost is at x = 730), so the panel's box (from x = 900) can be drawn
/// before them: nothing drawn later overlaps it, as when it came after them (the tests check
/// both bounds and compare boards with the box drawn last).
fn draw_ground(l: &Layout) -> RgbaImage {
    let mut img = crate::render::canvas(WIDTH, HEIGHT, PAPER);
    draw_layout(&mut img, l);
    panel_box(&mut img);
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
    if l.mode.is_race() {
        for &(goal, colour) in &l.goals {
            let pts = ring_hexagon(goal, 1.0);
            dashed_polyline(img, &pts, 4.0, 18.0, 10.0, fill_of(colour));
            // A flag on the outer side of the goal ring: the symbol, so colour is not needed.
            let c = tower_pt(goal);
            let out = (c - Pt::new(CX, CY)).unit();
            let at = c + out.scale(UNIT * 1.08);
            fill_disc(img, at, 15.0, WHITE);
            ring(img, at, 15.0, 3.0, fill_of(colour));
            symbol(img, colour, at, 13.0, fill_of(colour));
        }
    }
    if l.mode == Mode::Solitaire {
        for &(goal, colour) in &l.goals {
            let pts = ring_hexagon(goal, 1.0);
            polyline(img, &pts, 4.0, fill_of(colour));
        }
    }
    // Pantry markers: three grey discs in the top margin above their towers.
    for t in &l.markers {
        let c = tower_pt(*t);
        let at = Pt::new(c.x, 40.0);
        fill_disc(img, at, 14.0, rgb(0x8E8E8E));
        ring(img, at, 14.0, 2.0, INK_DIM);
    }
}

/// The side panel's white box.
fn panel_box(img: &mut RgbaImage) {
    rounded_rect(
        img,
        Pt::new(PANEL_X - 5.0, 10.0),
        Pt::new(PANEL_X + PANEL_W, HEIGHT as f32 - 10.0),
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
                let style = Style::new(Weight::Bold, 19.0, EMPTY_NUM);
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
                fill_disc(img, c, 30.0, dark(owner));
                fill_disc(img, c, 27.0, fill_of(owner));
                draw_text_centred(
                    img,
                    &Style::new(Weight::Bold, 24.0, text_of(owner)),
                    Pt::new(c.x, c.y - 4.0),
                    &letter,
                );
                symbol(img, owner, Pt::new(c.x, c.y + 15.0), 9.0, text_of(owner));
            }
            None => {
                fill_disc(img, c, 30.0, INK);
                fill_disc(img, c, 27.0, WHITE);
                draw_text_centred(img, &Style::new(Weight::Bold, 26.0, INK), c, &letter);
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
                let at = Pt::new(tower_pt(t).x - 44.0, tower_pt(t).y);
                fill_disc(img, at, 13.0, fill_of(Colour::Red));
                draw_text_centred(
                    img,
                    &Style::new(Weight::Bold, 15.0, WHITE),
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
                Pt::new(c.x - 22.0, c.y + 30.0),
                Pt::new(c.x + 2.0, c.y + 54.0),
                8.0,
                WHITE,
            );
            thick_line(
                img,
                Pt::new(c.x - 22.0, c.y + 30.0),
                Pt::new(c.x + 2.0, c.y + 54.0),
                4.0,
                INK,
            );
        }
    }
    // Last activity: the previous turn in grey, this turn in orange.
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
            add(&p.steps, rgb(0x5A5A66));
        }
    }
    if solo {
        let n = v.this_turn.steps.len();
        add(&v.this_turn.steps[n.saturating_sub(1)..], ALERT);
    } else {
        add(&v.this_turn.steps, ALERT);
    }
    for (t, d, n, colour) in marks {
        turn_arrow(img, t, d, n, colour, false);
    }
}

fn draw_router(img: &mut RgbaImage, v: &PublicView, s: u8, r: Router, c: Pt, toward_base: f32) {
    if v.last_moved.contains(&s) {
        fill_polygon(img, &triangle(s, 0.9), ALERT);
    }
    fill_polygon(img, &triangle(s, 0.8), dark(r.colour));
    fill_polygon(img, &triangle(s, 0.74), fill_of(r.colour));
    let ink = text_of(r.colour);
    let catmouse = v.mode == Mode::Catmouse;
    if catmouse {
        let letter = if r.colour == Colour::Red { "M" } else { "C" };
        draw_text_centred(img, &Style::new(Weight::Bold, 30.0, ink), c, letter);
        let corner = Pt::new(c.x, c.y + toward_base * 28.0);
        draw_text_centred(
            img,
            &Style::new(Weight::Bold, 13.0, ink),
            corner,
            &s.to_string(),
        );
        return;
    }
    if r.ctrl {
        fill_disc(img, c, 18.0, dark(r.colour));
        fill_disc(img, c, 14.5, WHITE);
        draw_text_centred(img, &Style::new(Weight::Bold, 17.0, INK), c, &s.to_string());
    } else {
        draw_text_centred(img, &Style::new(Weight::Bold, 20.0, ink), c, &s.to_string());
    }
    symbol(
        img,
        r.colour,
        Pt::new(c.x, c.y + toward_base * 27.0),
        11.0,
        ink,
    );
}

struct Panel<'a> {
    img: &'a mut RgbaImage,
    y: f32,
}

impl Panel<'_> {
    fn line(&mut self, style: &Style, text: &str) {
        let t = fit(style.weight, style.size, text, PANEL_W - 24.0);
        draw_text(self.img, style, PANEL_X + 12.0, self.y, Align::Left, &t);
        self.y += style.size * 1.35;
    }
}

/// The panel's text and marks (its box is part of the ground).
fn draw_panel(img: &mut RgbaImage, v: &PublicView, ctx: &RenderCtx) {
    let title = Style::new(Weight::Bold, 28.0, INK);
    let body = Style::new(Weight::Regular, 18.0, INK);
    let bold = Style::new(Weight::Bold, 18.0, INK);
    let dim = Style::new(Weight::Regular, 16.0, INK_DIM);
    let mode = tr(ctx, Text::new(format!("vortex.mode.{}", v.mode.key())));
    let mut p = Panel { img, y: 24.0 };
    p.line(&title, &format!("Vortex · {mode}"));
    if !v.options.is_empty() {
        p.line(&dim, &v.options.join(" · "));
    }
    p.y += 4.0;
    // Game over banner, or whose turn.
    match &v.ending {
        Some(end) => {
            let text = match end {
                Ending::Won { .. } => {
                    let names: Vec<String> = v.winners.iter().map(|s| ctx.name(*s)).collect();
                    tr(ctx, key("winner").arg("names", names.join(" + ")))
                }
                Ending::Drawn(_) => tr(ctx, key("draw")),
            };
            let y = p.y;
            rounded_rect(
                p.img,
                Pt::new(PANEL_X + 6.0, y - 4.0),
                Pt::new(PANEL_X + PANEL_W - 12.0, y + 38.0),
                8.0,
                ALERT,
                None,
            );
            let t = fit(Weight::Bold, 22.0, &text, PANEL_W - 40.0);
            draw_text(
                p.img,
                &Style::new(Weight::Bold, 22.0, INK),
                PANEL_X + 18.0,
                y + 2.0,
                Align::Left,
                &t,
            );
            p.y += 48.0;
        }
        None => {
            if let (Some(seat), Some(side)) = (v.to_act, v.turn_side) {
                let colour = v.sides[side].colour;
                let y = p.y;
                swatch(
                    p.img,
                    colour,
                    Pt::new(PANEL_X + 28.0, y + 14.0),
                    30.0,
                    v.mode == Mode::Catmouse,
                );
                let who = tr(
                    ctx,
                    key("to_move")
                        .arg("name", ctx.name(seat))
                        .arg("role", side_label(v, side)),
                );
                let t = fit(Weight::Bold, 22.0, &who, PANEL_W - 80.0);
                draw_text(
                    p.img,
                    &Style::new(Weight::Bold, 22.0, INK),
                    PANEL_X + 52.0,
                    y,
                    Align::Left,
                    &t,
                );
                p.y += 32.0;
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
                p.line(&body, &tr(ctx, step));
            }
        }
    }
    let round = match v.mode {
        Mode::Solitaire => key("rotations").arg("n", i64::from(v.rotations)),
        // A game drawn on the limit has counted one round past it: it ended after the last.
        _ if v.max_rounds > 0 => key("round_of")
            .arg("n", i64::from(v.round.min(v.max_rounds)))
            .arg("of", i64::from(v.max_rounds)),
        _ => key("round").arg("n", i64::from(v.round)),
    };
    p.line(&body, &tr(ctx, round));
    p.y += 8.0;
    // One row per side.
    for (i, s) in v.sides.iter().enumerate() {
        let y = p.y;
        swatch(
            p.img,
            s.colour,
            Pt::new(PANEL_X + 28.0, y + 14.0),
            28.0,
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
        let t = fit(Weight::Bold, 18.0, &head, PANEL_W - 70.0);
        draw_text(p.img, &bold, PANEL_X + 52.0, y, Align::Left, &t);
        p.y += 24.0;
        if v.mode.is_race() && (v.minority || v.mode == Mode::Advanced) {
            let mut x = PANEL_X + 52.0;
            if v.minority {
                let label = tr(ctx, key("minority"));
                x += draw_text(p.img, &dim, x, p.y, Align::Left, &label) + 10.0;
                for k in 0..2u8 {
                    let at = Pt::new(x + 8.0, p.y + 9.0);
                    if k < s.minority_left {
                        fill_disc(p.img, at, 7.0, fill_of(s.colour));
                        ring(p.img, at, 7.0, 2.0, dark(s.colour));
                    } else {
                        ring(p.img, at, 6.0, 2.0, INK_DIM);
                    }
                    x += 20.0;
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
                let t = fit(Weight::Regular, 16.0, &text, PANEL_X + PANEL_W - x - 10.0);
                draw_text(p.img, &dim, x, p.y, Align::Left, &t);
            }
            p.y += 22.0;
        }
        p.y += 6.0;
    }
    // The last completed turn as a line.
    if let Some(prev) = &v.prev_turn {
        if let Some(side) = v.sides.get(prev.side) {
            let line = turn_line(prev);
            if !line.is_empty() && v.mode != Mode::Solitaire {
                p.y += 4.0;
                let text = tr(
                    ctx,
                    key("last_turn")
                        .arg("name", ctx.name(side.seat))
                        .arg("line", line),
                );
                p.line(&body, &text);
            }
        }
    }
    if v.mode == Mode::Solitaire {
        p.line(
            &body,
            &tr(ctx, key("puzzle").arg("code", v.seed.to_string())),
        );
    }
    draw_legend(p.img, v, ctx);
}

/// The key to the marks, at the bottom of the panel.
fn draw_legend(img: &mut RgbaImage, v: &PublicView, ctx: &RenderCtx) {
    let dim = Style::new(Weight::Regular, 16.0, INK);
    let mut rows: Vec<(Icon<'_>, String)> = Vec::new();
    match v.mode {
        Mode::Crossing | Mode::Advanced => {
            rows.push((
                Box::new(|img: &mut RgbaImage, at: Pt| {
                    let pts = [Pt::new(at.x - 18.0, at.y), Pt::new(at.x + 18.0, at.y)];
                    dashed_polyline(img, &pts, 4.0, 8.0, 5.0, INK_DIM);
                }),
                tr(ctx, key("legend_goal")),
            ));
            if v.mode == Mode::Advanced {
                rows.push((
                    Box::new(|img: &mut RgbaImage, at: Pt| {
                        fill_disc(img, at, 12.0, INK);
                        fill_disc(img, at, 9.0, WHITE);
                    }),
                    tr(ctx, key("legend_controller")),
                ));
                rows.push((
                    Box::new(|img: &mut RgbaImage, at: Pt| {
                        fill_disc(img, at, 12.0, fill_of(Colour::Blue));
                    }),
                    tr(ctx, key("legend_claim")),
                ));
            }
        }
        Mode::Catmouse => {
            rows.push((
                Box::new(|img: &mut RgbaImage, at: Pt| {
                    fill_convex(
                        img,
                        &[
                            Pt::new(at.x - 14.0, at.y - 10.0),
                            Pt::new(at.x + 14.0, at.y - 10.0),
                            Pt::new(at.x, at.y + 12.0),
                        ],
                        PANTRY,
                    );
                }),
                tr(ctx, key("legend_pantry")),
            ));
            rows.push((
                Box::new(|img: &mut RgbaImage, at: Pt| {
                    fill_disc(img, at, 11.0, fill_of(Colour::Red));
                    draw_text_centred(img, &Style::new(Weight::Bold, 13.0, WHITE), at, "2");
                }),
                tr(ctx, key("legend_closed")),
            ));
            rows.push((
                Box::new(|img: &mut RgbaImage, at: Pt| {
                    let red = fill_of(Colour::Red);
                    thick_line(
                        img,
                        Pt::new(at.x - 14.0, at.y),
                        Pt::new(at.x + 10.0, at.y),
                        4.0,
                        red,
                    );
                    arrow_head(img, Pt::new(at.x + 16.0, at.y), Pt::new(1.0, 0.0), 9.0, red);
                    thick_line(
                        img,
                        Pt::new(at.x - 6.0, at.y - 9.0),
                        Pt::new(at.x + 6.0, at.y + 9.0),
                        3.0,
                        INK,
                    );
                }),
                tr(ctx, key("legend_banned")),
            ));
        }
        Mode::Solitaire => {
            rows.push((
                Box::new(|img: &mut RgbaImage, at: Pt| {
                    ring(img, at, 10.0, 4.0, INK_DIM);
                }),
                tr(ctx, key("legend_target")),
            ));
        }
    }
    rows.push((
        Box::new(|img: &mut RgbaImage, at: Pt| {
            let pts: Vec<Pt> = (0..=8)
                .map(|i| {
                    let a = (-160.0 + 14.0 * i as f32).to_radians();
                    Pt::new(at.x + 13.0 * a.cos(), at.y + 6.0 + 13.0 * a.sin())
                })
                .collect();
            polyline(img, &pts, 4.0, ALERT);
            arrow_head(img, pts[8], pts[8] - pts[6], 9.0, ALERT);
        }),
        tr(ctx, key("legend_arrows")),
    ));
    let top = HEIGHT as f32 - 24.0 - 30.0 * rows.len() as f32;
    for (i, (icon, label)) in rows.iter().enumerate() {
        let y = top + 30.0 * i as f32;
        icon(img, Pt::new(PANEL_X + 30.0, y + 10.0));
        let t = fit(Weight::Regular, 16.0, label, PANEL_W - 80.0);
        draw_text(img, &dim, PANEL_X + 56.0, y, Align::Left, &t);
    }
}

/// The public board image.
pub fn render_public(view: &PublicView, ctx: &RenderCtx) -> RgbaImage {
    let mut img = (*GROUNDS.get_or_make(Layout::of(view), draw_ground)).clone();
    draw_board(&mut img, view);
    draw_panel(&mut img, view, ctx);
    // Snap every colour channel to 16 levels: anti-aliased edges keep their look, but the many
    // near-identical shades they leave compress far better (PNG stays well under 300 KB).
    crate::render::snap_to_16_levels(&mut img);
    img
}

// ---- zoom (phones) ----------------------------------------------------------------------

/// The side panel (whose turn, every team's goal and last move), then the board in two halves
/// that overlap by half a tower's spacing, so every router and space is whole in one of them.
pub fn zoom_regions(
    _view: &PublicView,
    ctx: &RenderCtx,
    _viewer: Option<Seat>,
) -> Vec<zoom::Region> {
    ctx.zoom_panel_and_halves(
        (PANEL_X - 5.0, WIDTH as f32),
        2.0 * CX,
        HEIGHT as f32,
        UNIT / 2.0,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::GameRng;
    use crate::engine::{Game, GameOptions};
    use crate::games::vortex::state::Vortex;
    use crate::i18n::Lang;

    #[test]
    fn pieces_and_marks_stay_left_of_the_panel_box() {
        let box_left = PANEL_X - 5.0 - 1.0;
        for t in 0..19u8 {
            assert!(tower_pt(t).x + 60.0 < box_left, "tower {t}");
        }
        for s in 1..=54u8 {
            for p in triangle(s, 1.0) {
                assert!(p.x < 871.0 && p.x < box_left, "space {s}");
            }
        }
    }

    /// The board as it was drawn before grounds were kept: paper, layout, pieces, then the
    /// panel's box and text.
    fn drawn_in_one_go(v: &PublicView, ctx: &RenderCtx) -> RgbaImage {
        let mut img = crate::render::canvas(WIDTH, HEIGHT, PAPER);
        draw_layout(&mut img, &Layout::of(v));
        draw_board(&mut img, v);
        panel_box(&mut img);
        draw_panel(&mut img, v, ctx);
        crate::render::snap_to_16_levels(&mut img);
        img
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
