//! The Cortexcape board image (spec section 11): the 1000 × 860 lab on a lab-tinted
//! background, and under it a strip with the round (whose turn and what they do, the owner and
//! the setter, the challenge or the pieces in hand), every seat's walks and the last round.
//! The common frame (`render::frame`) adds the title, whose turn or the result, a chip per
//! seat with its total, and the legend. Drawn only from the public view; every label is
//! localized.

use std::ops::{Add, Sub};

use image::{Rgba, RgbaImage};

use super::state::{Piece, Place, Start};
use super::view::{Phase, PublicView, RoundRecap};
use crate::engine::{GameKind, RenderCtx, Seat};
use crate::i18n::Text;
use crate::render::frame::{self, Frame, SeatChip, Status};
use crate::render::layers::{Kept, Sparse};
use crate::render::palette::{self, ink_on, mix, rgb, rgba, ALERT, INK, INK_DIM, PAPER, WHITE};
use crate::render::panel::{self, chip, fit, token, LegendEntry, ScoreRow};
use crate::render::shapes::{
    arrow_head, cone, dashed_polyline, dashed_ring, dot_centres, fill_disc, polyline, ring,
    rounded_rect, thick_line, Pt,
};
use crate::render::text::{draw_text, draw_text_centred, text_width, wrap, Align, Style, Weight};
use crate::render::zoom;

/// The board's width, the lab's and the composed image's.
pub const WIDTH: u32 = 1000;
/// The lab's height: the spec's 1000 × 860 board, the exits' names inside it.
const LAB_H: u32 = 860;
const DOOR_R: f32 = 36.0;
const EXIT_HALF: f32 = 24.0;
/// The strip under the lab: its box's margin, its padding and its two columns (each half of
/// the board, so that a Zoom shows them whole, one under the other).
const STRIP_MARGIN: f32 = 12.0;
const STRIP_PAD: f32 = 16.0;
const LEFT_X: f32 = STRIP_MARGIN + STRIP_PAD;
const RIGHT_X: f32 = WIDTH as f32 / 2.0 + 10.0;
const COLUMN_W: f32 = WIDTH as f32 / 2.0 - STRIP_MARGIN - STRIP_PAD - 10.0;
const CORRIDOR: Rgba<u8> = rgb(0xC9CED6);
const CYL_WHITE: Rgba<u8> = rgb(0xF2F2F2);
const CYL_GREEN: Rgba<u8> = rgb(0x3DAA4A);
const CYL_YELLOW: Rgba<u8> = rgb(0xF2C230);
const CYL_RED: Rgba<u8> = rgb(0xD64541);
const TOWER: Rgba<u8> = rgb(0x111111);
const EXIT_CONE: Rgba<u8> = rgb(0xE0201B);
const DARK: Rgba<u8> = rgb(0x15171C);
/// Dots of the hindsight path: a cyan no seat or piece uses.
const CHEAPEST: Rgba<u8> = rgb(0x3EE0FF);

/// Pixel centre of grid cell (col, row): the spec's `80 + 140·n`.
fn grid(col: i32, row: i32) -> Pt {
    Pt::new(80.0 + 140.0 * col as f32, 80.0 + 140.0 * row as f32)
}

fn lab_colour(lab: &str) -> Rgba<u8> {
    match lab {
        "green" => rgb(0x2E9E5B),
        "red" => rgb(0xC8323C),
        "black" => rgb(0x2B2B2B),
        _ => rgb(0x2D6CDF),
    }
}

fn piece_colour(p: Piece) -> Rgba<u8> {
    match p {
        Piece::White => CYL_WHITE,
        Piece::Green => CYL_GREEN,
        Piece::Yellow => CYL_YELLOW,
        Piece::Red => CYL_RED,
        Piece::Tower => TOWER,
    }
}

/// Notation of a place: `7` or `x12`.
fn place_name(p: Place) -> String {
    match p {
        Place::Door(d) => d.to_string(),
        Place::Exit(x) => format!("x{x}"),
    }
}

/// Notation of a start: `12-13`, `6-x12` (door first) or `x4` in the short game.
fn start_name(s: Start) -> String {
    match s {
        Start::Exit(x) => format!("x{x}"),
        Start::Corridor(a, b) => {
            let (a, b) = match (a, b) {
                (Place::Exit(_), Place::Door(_)) => (b, a),
                (Place::Door(x), Place::Door(y)) if y < x => (b, a),
                _ => (a, b),
            };
            format!("{}-{}", place_name(a), place_name(b))
        }
    }
}

fn tr(ctx: &RenderCtx, key: &str) -> String {
    Text::new(format!("render.{key}")).render(ctx.lang)
}

fn trw(ctx: &RenderCtx, key: &str, args: &[(&str, String)]) -> String {
    let mut t = Text::new(format!("render.{key}"));
    for (k, v) in args {
        t = t.arg(k, v.clone());
    }
    t.render(ctx.lang)
}

/// Everything the drawing needs that is derived from the view once.
struct Board<'a> {
    view: &'a PublicView,
    ctx: &'a RenderCtx,
    bg: Rgba<u8>,
    seat_colours: Vec<Rgba<u8>>,
    letters: Vec<char>,
}

impl Board<'_> {
    fn place(&self, p: Place) -> Option<Pt> {
        match p {
            Place::Door(d) => {
                let &(c, r) = self.view.doors.get(usize::from(d).checked_sub(1)?)?;
                Some(grid(c, r))
            }
            Place::Exit(x) => {
                let e = self.view.exits.iter().find(|e| e.id == x)?;
                Some(grid(e.col, e.row))
            }
        }
    }

    fn start_point(&self, s: Start) -> Option<Pt> {
        match s {
            Start::Exit(x) => self.place(Place::Exit(x)),
            Start::Corridor(a, b) => Some(self.place(a)?.lerp(self.place(b)?, 0.5)),
        }
    }

    fn seat_colour(&self, s: Seat) -> Rgba<u8> {
        self.seat_colours.get(s.index()).copied().unwrap_or(INK_DIM)
    }

    fn letter(&self, s: Seat) -> char {
        self.letters.get(s.index()).copied().unwrap_or('?')
    }

    fn colour_name(&self, s: Seat) -> String {
        match self.view.seats.get(s.index()) {
            Some(sv) => tr(self.ctx, &format!("colour.{}", sv.colour)),
            None => String::new(),
        }
    }

    /// The walked line: from the start cone through the places, in pixels.
    fn route(&self, start: Option<Start>, path: &[Place]) -> Vec<Pt> {
        let mut pts: Vec<Pt> = start
            .and_then(|s| self.start_point(s))
            .into_iter()
            .collect();
        pts.extend(path.iter().filter_map(|p| self.place(*p)));
        pts
    }
}

/// The public board image: the lab and its strip in the common frame.
pub fn render_public(view: &PublicView, ctx: &RenderCtx) -> RgbaImage {
    let b = board(view, ctx);
    let bare = draw_bare(&b);
    let frame = board_frame(&b);
    frame::compose(&bare, &frame)
}

/// The board without its frame: the kept ground, the lab's pieces and marks, the strip.
fn draw_bare(b: &Board<'_>) -> RgbaImage {
    let mut img = GROUNDS
        .get_or_make(Ground::of(b), |g| Sparse::of(&draw_ground(g), g.bg))
        .image();
    draw_board(&mut img, b);
    draw_strip(&mut img, b);
    img
}

fn board<'a>(view: &'a PublicView, ctx: &'a RenderCtx) -> Board<'a> {
    let lab = lab_colour(view.lab);
    let bg = mix(lab, DARK, 0.45);
    let names: Vec<String> = (0..view.seats.len())
        .map(|i| ctx.name(Seat::at(i)))
        .collect();
    Board {
        view,
        ctx,
        bg,
        seat_colours: view
            .seats
            .iter()
            .enumerate()
            .map(|(i, s)| {
                palette::named(s.colour)
                    .unwrap_or(palette::SEAT_COLOURS[i % palette::SEAT_COLOURS.len()])
            })
            .collect(),
        letters: palette::seat_letters(&names),
    }
}

/// What the board's ground depends on: its colour, its corridors in pixels and its height
/// (the lab's and the strip's). Nothing else of the view reaches [`draw_ground`].
#[derive(Clone, Debug, PartialEq)]
struct Ground {
    bg: Rgba<u8>,
    corridors: Vec<(Pt, Pt)>,
    height: u32,
}

impl Ground {
    fn of(b: &Board<'_>) -> Ground {
        Ground {
            bg: b.bg,
            corridors: b
                .view
                .corridors
                .iter()
                .filter_map(|(a, c)| Some((b.place(*a)?, b.place(*c)?)))
                .collect(),
            height: board_height(b),
        }
    }
}

/// Grounds of the last few labs: a game keeps its lab, so most boards copy theirs. Kept as
/// the runs that differ from the background (under 1 MB each), four at most.
static GROUNDS: Kept<Ground, Sparse> = Kept::new(4);

/// The first layer of a board, drawn first as before: the background and the corridors.
fn draw_ground(g: &Ground) -> RgbaImage {
    let mut img = crate::render::canvas(WIDTH, g.height, g.bg);
    for &(p, q) in &g.corridors {
        thick_line(&mut img, p, q, 14.0, CORRIDOR);
    }
    img
}

/// Everything on the board over its ground.
fn draw_board(img: &mut RgbaImage, b: &Board<'_>) {
    let v = b.view;
    if let Some(r) = shown_recap(v) {
        draw_recap_lines(img, b, r);
    }
    if !v.path.is_empty() {
        draw_path_line(img, b, b.route(v.start, &v.path), v.owner);
    }

    for e in &v.exits {
        draw_exit(img, b, e.id, grid(e.col, e.row), e.col, e.row, e.marble);
    }

    for (i, &(c, r)) in v.doors.iter().enumerate() {
        let door = u8::try_from(i + 1).unwrap_or(u8::MAX);
        draw_door(img, b, door, grid(c, r), v.pieces.get(i).copied().flatten());
    }

    // Rings on the doors already walked this round, in the owner's colour.
    let colour = b.seat_colour(v.owner);
    for p in &v.path {
        if let (Place::Door(_), Some(c)) = (p, b.place(*p)) {
            ring(img, c, DOOR_R + 7.0, 10.0, ink_on(colour));
            ring(img, c, DOOR_R + 7.0, 5.0, colour);
        }
    }

    // The owner's marble where the walk stands now.
    if let Some(c) = v.path.last().and_then(|p| b.place(*p)) {
        token(
            img,
            Pt::new(c.x + 30.0, c.y + 30.0),
            14.0,
            colour,
            b.letter(v.owner),
        );
    }

    // Door numbers last, so nothing hides what the notation names.
    for (i, &(c, r)) in v.doors.iter().enumerate() {
        door_badge(img, grid(c, r), &(i + 1).to_string());
    }

    if let Some(t) = v.target {
        if let Some(c) = b.place(Place::Exit(t)) {
            cone(img, c, 30.0, EXIT_CONE, WHITE, 2.5);
        }
    }
    if let Some(s) = v.start {
        if let Some(c) = b.start_point(s) {
            start_cone(img, c, 32.0);
        }
    }
}

/// The start cone: black, on a white disc ringed in the alert colour, so it stands out on
/// every lab, the black one too (issue 38).
fn start_cone(img: &mut RgbaImage, c: Pt, height: f32) {
    let r = height * 0.78;
    fill_disc(img, c, r + height * 0.14, ALERT);
    fill_disc(img, c, r, WHITE);
    cone(img, c, height, TOWER, WHITE, height / 16.0);
}

fn door_badge(img: &mut RgbaImage, centre: Pt, number: &str) {
    let style = Style::new(Weight::Bold, 22.0, INK);
    let w = text_width(Weight::Bold, 22.0, number) + 12.0;
    let c = Pt::new(centre.x - DOOR_R + 1.0, centre.y - DOOR_R + 1.0);
    let min = Pt::new(c.x - w / 2.0, c.y - 14.0);
    let max = Pt::new(c.x + w / 2.0, c.y + 14.0);
    rounded_rect(img, min, max, 7.0, WHITE, Some((INK, 2.0)));
    draw_text_centred(img, &style, c, number);
}

fn draw_door(img: &mut RgbaImage, b: &Board<'_>, door: u8, c: Pt, piece: Option<Piece>) {
    let v = b.view;
    if v.phase == Phase::Configure && v.towers_to_move.contains(&door) {
        ring(img, c, DOOR_R + 9.0, 9.0, ALERT);
    }
    match piece {
        None => {
            fill_disc(img, c, DOOR_R, b.bg);
            if v.refill.contains(&door) {
                fill_disc(img, c, DOOR_R, rgba(0xFFFFFF, 70));
                dashed_ring(img, c, DOOR_R - 2.0, 5.0, 12, WHITE);
            } else {
                dashed_ring(img, c, DOOR_R - 2.0, 4.0, 12, CORRIDOR);
            }
        }
        Some(Piece::Tower) => draw_tower(img, c, DOOR_R),
        Some(p) => draw_cylinder(img, c, DOOR_R, p, 34.0),
    }
}

fn draw_cylinder(img: &mut RgbaImage, c: Pt, r: f32, p: Piece, text_size: f32) {
    let colour = piece_colour(p);
    // A light rim keeps a green disc apart from the Green Lab's background (and so on); the
    // white cylinder gets the grey rim of the spec instead.
    let rim = if p == Piece::White {
        rgb(0x7A7A7A)
    } else {
        rgb(0xEDEDED)
    };
    fill_disc(img, c, r, rim);
    fill_disc(img, c, r - 3.0, colour);
    let style = Style::new(Weight::Bold, text_size, ink_on(colour));
    draw_text_centred(img, &style, c, &p.value().to_string());
}

/// A black disc with a white battlement: three merlons on a wall.
fn draw_tower(img: &mut RgbaImage, c: Pt, r: f32) {
    fill_disc(img, c, r, rgb(0xD0D0D0));
    fill_disc(img, c, r - 3.0, TOWER);
    let u = r / 36.0;
    let wall_top = c.y - 4.0 * u;
    let min = Pt::new(c.x - 17.0 * u, wall_top);
    let max = Pt::new(c.x + 17.0 * u, c.y + 16.0 * u);
    rounded_rect(img, min, max, 2.0 * u, WHITE, None);
    for k in [-1.0f32, 0.0, 1.0] {
        let mx = c.x + k * 12.5 * u;
        rounded_rect(
            img,
            Pt::new(mx - 4.5 * u, wall_top - 9.0 * u),
            Pt::new(mx + 4.5 * u, wall_top + 1.0),
            1.5 * u,
            WHITE,
            None,
        );
    }
    // A door in the wall.
    rounded_rect(
        img,
        Pt::new(c.x - 4.0 * u, c.y + 5.0 * u),
        Pt::new(c.x + 4.0 * u, c.y + 16.0 * u + 1.0),
        4.0 * u,
        TOWER,
        None,
    );
}

fn draw_exit(
    img: &mut RgbaImage,
    b: &Board<'_>,
    id: u8,
    c: Pt,
    col: i32,
    row: i32,
    marble: Option<Seat>,
) {
    let e = Pt::new(EXIT_HALF, EXIT_HALF);
    let fill = if marble.is_some() {
        mix(b.bg, DARK, 0.5)
    } else {
        mix(b.bg, WHITE, 0.8)
    };
    rounded_rect(img, c.sub(e), c.add(e), 10.0, fill, Some((WHITE, 3.0)));
    if let Some(s) = marble {
        token(img, c, 16.0, b.seat_colour(s), b.letter(s));
    }
    // The id sits outside the square, away from the board, so a marble never hides it.
    let style = Style::new(Weight::Bold, 24.0, WHITE).halo(b.bg, 2);
    let name = format!("x{id}");
    let gap = EXIT_HALF + 6.0;
    if row == 0 {
        draw_text(img, &style, c.x, c.y - gap - 26.0, Align::Centre, &name);
    } else if row >= 5 {
        draw_text(img, &style, c.x, c.y + gap - 2.0, Align::Centre, &name);
    } else if col == 0 {
        draw_text(img, &style, c.x - gap, c.y - 14.0, Align::Right, &name);
    } else {
        draw_text(img, &style, c.x + gap, c.y - 14.0, Align::Left, &name);
    }
}

/// The thick path of the current escape, with arrows between the places.
fn draw_path_line(img: &mut RgbaImage, b: &Board<'_>, pts: Vec<Pt>, owner: Seat) {
    let colour = b.seat_colour(owner);
    let edge = ink_on(colour);
    polyline(img, &pts, 15.0, edge);
    polyline(img, &pts, 9.0, colour);
    for w in pts.windows(2) {
        let d = w[1].sub(w[0]);
        let len = d.len();
        if len < 1.0 {
            continue;
        }
        let mid = w[0].lerp(w[1], 0.5);
        let dir = d.unit();
        let tip = mid.add(dir.scale(11.0));
        arrow_head(img, tip.add(dir.scale(3.0)), dir, 26.0, edge);
        arrow_head(img, tip, dir, 20.0, colour);
    }
}

/// The last round: the walked path dashed, and with hindsight one cheapest path dotted.
fn draw_recap_lines(img: &mut RgbaImage, b: &Board<'_>, r: &RoundRecap) {
    let colour = b.seat_colour(r.owner);
    let edge = ink_on(colour);
    let walked = b.route(Some(r.start), &r.path);
    dashed_polyline(img, &walked, 13.0, 18.0, 10.0, edge);
    dashed_polyline(img, &walked, 8.0, 18.0, 10.0, colour);
    if let Some((_, cheapest)) = &r.cheapest {
        let pts = b.route(Some(r.start), cheapest);
        // Shifted sideways off the walked line, so both stay visible where they share doors.
        for w in pts.windows(2) {
            let d = w[1].sub(w[0]).unit();
            let side = Pt::new(-d.y, d.x).scale(9.0);
            for c in dot_centres(&[w[0].add(side), w[1].add(side)], 14.0) {
                fill_disc(img, c, 6.0, INK);
                fill_disc(img, c, 4.0, CHEAPEST);
            }
        }
    }
    if let Some(c) = b.start_point(r.start) {
        cone(img, c, 24.0, rgba(0x111111, 150), rgba(0xFFFFFF, 150), 2.0);
    }
}

// ---- the strip under the lab ------------------------------------------------------------

/// One column of the strip, laid top down. Without an image it only measures, so the strip's
/// height (and the board's) comes from the very code that draws it.
struct Column<'i> {
    img: Option<&'i mut RgbaImage>,
    x: f32,
    y: f32,
    w: f32,
}

impl Column<'_> {
    /// `h` pixels painted by `paint` from the column's left edge and current top.
    fn block(&mut self, h: f32, paint: impl FnOnce(&mut RgbaImage, f32, f32)) {
        if let Some(img) = self.img.as_deref_mut() {
            paint(img, self.x, self.y);
        }
        self.y += h;
    }

    /// `text` wrapped to the column less `indent`, a line every `line_h` pixels.
    fn wrapped(&mut self, style: &Style, text: &str, indent: f32, line_h: f32) {
        for l in wrap(style.weight, style.size, text, self.w - indent) {
            self.block(line_h, |img, x, y| {
                draw_text(img, style, x + indent, y, Align::Left, &l);
            });
        }
    }
}

/// The strip's two columns, drawn into `img` when given; returns the bottom of the taller.
/// The last round's recap goes under the column that keeps the strip shorter.
fn lay_strip(mut img: Option<&mut RgbaImage>, b: &Board<'_>) -> f32 {
    let top = LAB_H as f32 + STRIP_PAD;
    let (left, right) = {
        let mut l = column(None, LEFT_X);
        round_column(&mut l, b);
        let mut r = column(None, RIGHT_X);
        scores_column(&mut r, b);
        (l.y, r.y)
    };
    // The recap goes where the strip stays shorter.
    let recap_h = recap(column(None, LEFT_X), b) - top;
    let recap_left = (left + recap_h).max(right) <= left.max(right + recap_h);
    if let Some(img) = img.as_deref_mut() {
        let bottom = strip_bottom(b);
        rounded_rect(
            img,
            Pt::new(STRIP_MARGIN, LAB_H as f32),
            Pt::new(WIDTH as f32 - STRIP_MARGIN, bottom),
            12.0,
            PAPER,
            Some((mix(INK_DIM, PAPER, 0.5), 2.0)),
        );
        let mid = WIDTH as f32 / 2.0;
        thick_line(
            img,
            Pt::new(mid, top),
            Pt::new(mid, bottom - STRIP_PAD),
            2.0,
            mix(INK_DIM, PAPER, 0.6),
        );
    }
    let mut l = column(img.as_deref_mut(), LEFT_X);
    round_column(&mut l, b);
    let mut ends = [l.y, 0.0];
    if recap_left {
        ends[0] = recap(l, b);
    }
    let mut r = column(img, RIGHT_X);
    scores_column(&mut r, b);
    ends[1] = if recap_left { r.y } else { recap(r, b) };
    ends[0].max(ends[1])
}

/// A column of the strip from its top, at `x`.
fn column(img: Option<&mut RgbaImage>, x: f32) -> Column<'_> {
    Column {
        img,
        x,
        y: LAB_H as f32 + STRIP_PAD,
        w: COLUMN_W,
    }
}

/// The bottom of the strip's box.
fn strip_bottom(b: &Board<'_>) -> f32 {
    lay_strip(None, b) + STRIP_PAD
}

/// The board's height: the lab, then the strip.
fn board_height(b: &Board<'_>) -> u32 {
    (strip_bottom(b) + STRIP_MARGIN).ceil() as u32
}

fn draw_strip(img: &mut RgbaImage, b: &Board<'_>) {
    lay_strip(Some(img), b);
}

/// The round: its phase, who acts and what they do, the owner and the setter, then the
/// challenge (or the pieces in hand), the game's mode and its free exits.
fn round_column(col: &mut Column<'_>, b: &Board<'_>) {
    let v = b.view;
    let ctx = b.ctx;
    let phase_key = match v.phase {
        Phase::Configure => "cortexcape.phase_configure",
        Phase::Challenge => "cortexcape.phase_challenge",
        Phase::Escape => "cortexcape.phase_escape",
        Phase::Over => "cortexcape.phase_over",
    };
    col.wrapped(
        &Style::new(Weight::Bold, 22.0, INK),
        &tr(ctx, phase_key),
        0.0,
        32.0,
    );
    let body = Style::new(Weight::Regular, 19.0, INK);
    let actor = v.to_act.filter(|_| v.phase != Phase::Over);
    let lines = wrap(Weight::Regular, 19.0, &act_line(b), col.w - 34.0);
    col.block(24.0 * lines.len().max(1) as f32 + 6.0, |img, x, y| {
        let c = Pt::new(x + 13.0, y + 12.0);
        match actor {
            Some(s) => token(img, c, 12.0, b.seat_colour(s), b.letter(s)),
            None => draw_text_centred(img, &Style::new(Weight::Bold, 26.0, INK), c, "★"),
        }
        for (i, l) in lines.iter().enumerate() {
            draw_text(img, &body, x + 34.0, y + 24.0 * i as f32, Align::Left, l);
        }
    });
    if v.phase != Phase::Over {
        // The owner and the setter side by side, each after their token.
        let half = col.w / 2.0;
        col.block(32.0, |img, x, y| {
            for (k, (key, seat)) in [
                ("cortexcape.owner", v.owner),
                ("cortexcape.setter", v.setter),
            ]
            .into_iter()
            .enumerate()
            {
                let left = x + half * k as f32;
                let c = Pt::new(left + 12.0, y + 12.0);
                token(img, c, 11.0, b.seat_colour(seat), b.letter(seat));
                let text = trw(ctx, key, &[("name", ctx.name(seat))]);
                let text = fit(Weight::Regular, 19.0, &text, half - 40.0);
                draw_text(img, &body, left + 30.0, y, Align::Left, &text);
            }
        });
    }
    match v.phase {
        Phase::Configure => configure_info(col, b),
        Phase::Challenge | Phase::Escape => {
            if let Some(t) = v.target {
                let s = trw(ctx, "cortexcape.target", &[("exit", format!("x{t}"))]);
                col.wrapped(&body, &s, 0.0, 26.0);
            }
            if let Some(s) = v.start {
                let s = trw(ctx, "cortexcape.start", &[("start", start_name(s))]);
                col.wrapped(&body, &s, 0.0, 26.0);
            }
            if v.phase == Phase::Escape {
                let s = trw(
                    ctx,
                    "cortexcape.cost_so_far",
                    &[("cost", v.running_cost.to_string())],
                );
                col.wrapped(&Style::new(Weight::Bold, 20.0, INK), &s, 0.0, 28.0);
            }
        }
        Phase::Over => {}
    }
    let mode = tr(
        ctx,
        if v.short {
            "cortexcape.short"
        } else {
            "cortexcape.standard"
        },
    );
    let free = trw(
        ctx,
        "cortexcape.free_exits",
        &[("n", v.free_exits.to_string())],
    );
    col.y += 4.0;
    col.wrapped(
        &Style::new(Weight::Regular, 17.0, INK_DIM),
        &format!("{mode} · {free}"),
        0.0,
        24.0,
    );
}

/// Who acts and what they do ("Ann (white) walks to the exit"), or at the end who won.
fn act_line(b: &Board<'_>) -> String {
    let v = b.view;
    match (v.phase, v.to_act) {
        (Phase::Over, _) | (_, None) => over_line(b),
        (phase, Some(seat)) => {
            let key = match phase {
                Phase::Challenge => "cortexcape.act_challenge",
                Phase::Escape => "cortexcape.act_escape",
                _ if !v.refill.is_empty() => "cortexcape.act_refill",
                _ if !v.towers_to_move.is_empty() => "cortexcape.act_towers",
                _ if v.pool.iter().any(|&(_, n)| n > 0) => "cortexcape.act_configure",
                _ => "cortexcape.act_check",
            };
            trw(
                b.ctx,
                key,
                &[("name", b.ctx.name(seat)), ("colour", b.colour_name(seat))],
            )
        }
    }
}

/// "Winner: Ann with 14" or "Draw: everyone has 14", from the totals (lowest wins).
fn over_line(b: &Board<'_>) -> String {
    let v = b.view;
    let Some(best) = v.seats.iter().map(|s| s.score).min() else {
        return String::new();
    };
    let winners: Vec<String> = lowest(v).into_iter().map(|s| b.ctx.name(s)).collect();
    let key = if winners.len() == v.seats.len() && v.seats.len() > 1 {
        "cortexcape.draw"
    } else if winners.len() > 1 {
        "cortexcape.winners"
    } else {
        "cortexcape.winner"
    };
    trw(
        b.ctx,
        key,
        &[("names", winners.join(", ")), ("score", best.to_string())],
    )
}

/// The seats with the lowest total, in seat order.
fn lowest(v: &PublicView) -> Vec<Seat> {
    let best = v.seats.iter().map(|s| s.score).min();
    v.seats
        .iter()
        .enumerate()
        .filter(|(_, s)| Some(s.score) == best)
        .map(|(i, _)| Seat::at(i))
        .collect()
}

/// The Configure step: the pieces still in hand, the towers to move, the doors to refill.
fn configure_info(col: &mut Column<'_>, b: &Board<'_>) {
    let v = b.view;
    let ctx = b.ctx;
    let line = Style::new(Weight::Regular, 19.0, INK);
    if v.pool.iter().any(|&(_, n)| n > 0) {
        let w = col.w;
        col.block(42.0, |img, x, y| {
            let label = tr(ctx, "cortexcape.in_hand");
            let bold = Style::new(Weight::Bold, 19.0, INK);
            let lw = draw_text(img, &bold, x, y + 6.0, Align::Left, &label);
            let mut cx = x + lw + 28.0;
            for &(p, n) in v.pool.iter().filter(|&&(_, n)| n > 0) {
                if cx > x + w - 40.0 {
                    break;
                }
                let c = Pt::new(cx, y + 17.0);
                if p == Piece::Tower {
                    draw_tower(img, c, 16.0);
                    let style = Style::new(Weight::Bold, 20.0, INK);
                    let count = format!("×{n}");
                    cx +=
                        40.0 + draw_text(img, &style, c.x + 20.0, c.y - 11.0, Align::Left, &count);
                } else {
                    let value = p.value().to_string();
                    cx += chip(img, c, piece_colour(p), &value, &format!("×{n}"));
                }
            }
        });
    }
    let list = |doors: &[u8]| {
        doors
            .iter()
            .map(u8::to_string)
            .collect::<Vec<_>>()
            .join(", ")
    };
    if !v.towers_to_move.is_empty() {
        let s = trw(
            ctx,
            "cortexcape.towers_to_move",
            &[("doors", list(&v.towers_to_move))],
        );
        col.block(0.0, |img, x, y| {
            ring(img, Pt::new(x + 10.0, y + 12.0), 8.0, 4.0, ALERT);
        });
        col.wrapped(&line, &s, 28.0, 26.0);
    }
    if !v.refill.is_empty() {
        let s = trw(ctx, "cortexcape.to_refill", &[("doors", list(&v.refill))]);
        col.block(0.0, |img, x, y| {
            dashed_ring(img, Pt::new(x + 10.0, y + 12.0), 8.0, 3.0, 6, INK);
        });
        col.wrapped(&line, &s, 28.0, 26.0);
    }
}

/// Every seat's walks: its rounds' costs and its total (lowest wins), the seat to act or the
/// winners framed.
fn scores_column(col: &mut Column<'_>, b: &Board<'_>) {
    let v = b.view;
    let ctx = b.ctx;
    let winners = lowest(v);
    let rows: Vec<ScoreRow> = v
        .seats
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let seat = Seat::at(i);
            let detail = if s.costs.is_empty() {
                tr(ctx, "cortexcape.rounds_none")
            } else {
                s.costs
                    .iter()
                    .map(|(r, c)| round_cost(ctx, *r, *c))
                    .collect::<Vec<_>>()
                    .join(" · ")
            };
            ScoreRow {
                colour: b.seat_colour(seat),
                letter: b.letter(seat),
                name: ctx.name(seat),
                total: s.score,
                detail,
                highlight: match v.phase {
                    Phase::Over => winners.contains(&seat),
                    _ => v.to_act == Some(seat),
                },
            }
        })
        .collect();
    let w = col.w;
    let heads = (tr(ctx, "cortexcape.scores"), tr(ctx, "total"));
    col.block(score_table_height(&rows, w), |img, x, y| {
        panel::score_table(img, x, y, w, (&heads.0, &heads.1), &rows);
    });
}

/// The height [`panel::score_table`] takes for `rows` in a column `w` wide: its head, then each
/// row with its wrapped details (a test holds the two together).
fn score_table_height(rows: &[ScoreRow], w: f32) -> f32 {
    26.0 + rows
        .iter()
        .map(|r| {
            let lines = if r.detail.is_empty() {
                0
            } else {
                wrap(Weight::Regular, 15.0, &r.detail, w - 120.0).len()
            };
            38.0 + 18.0 * lines as f32
        })
        .sum::<f32>()
}

/// The last round under a rule: what it cost, and with hindsight the cheapest walk and the
/// setter's strongest challenge. Returns the column's new bottom.
fn recap(mut col: Column<'_>, b: &Board<'_>) -> f32 {
    let ctx = b.ctx;
    let Some(r) = &b.view.last_round else {
        return col.y;
    };
    let w = col.w;
    col.y += 6.0;
    col.block(10.0, |img, x, y| {
        rounded_rect(
            img,
            Pt::new(x, y),
            Pt::new(x + w, y + 2.0),
            1.0,
            mix(INK_DIM, PAPER, 0.5),
            None,
        );
    });
    let head = trw(
        ctx,
        "cortexcape.last_round",
        &[
            ("k", r.round.to_string()),
            ("name", ctx.name(r.owner)),
            ("cost", r.cost.to_string()),
        ],
    );
    // Wrapped, not cut: the cost at the end of the line is the point of it.
    col.wrapped(&Style::new(Weight::Bold, 19.0, INK), &head, 0.0, 26.0);
    let line = Style::new(Weight::Regular, 18.0, INK);
    if let Some((c, _)) = &r.cheapest {
        let s = trw(ctx, "cortexcape.cheapest", &[("cost", c.to_string())]);
        col.wrapped(&line, &s, 0.0, 24.0);
    }
    if let Some((c, start, exit)) = &r.setter_best {
        let s = trw(
            ctx,
            "cortexcape.setter_best",
            &[
                ("cost", c.to_string()),
                ("start", start_name(*start)),
                ("exit", format!("x{exit}")),
            ],
        );
        col.wrapped(&line, &s, 0.0, 24.0);
    }
    col.y
}

/// The last round is drawn on the board until the next challenge starts (and at the end).
fn shown_recap(v: &PublicView) -> Option<&RoundRecap> {
    match v.phase {
        Phase::Configure | Phase::Over => v.last_round.as_ref(),
        Phase::Challenge | Phase::Escape => None,
    }
}

/// "R4: 3": what a seat paid in a round it owned, as its score line and the legend show it;
/// its spaces do not break ("R4 : 3" in French stays on one line, issue 38).
fn round_cost(ctx: &RenderCtx, round: impl ToString, cost: impl ToString) -> String {
    trw(
        ctx,
        "cortexcape.round_cost",
        &[("round", round.to_string()), ("cost", cost.to_string())],
    )
    .replace(' ', "\u{a0}")
}

/// The key to what the board shows now, in the frame's footer; its icons fit the footer's
/// tiles.
fn legend_entries<'a>(b: &'a Board<'a>) -> Vec<LegendEntry<'a>> {
    let v = b.view;
    let ctx = b.ctx;
    let mut out = vec![LegendEntry::wide(
        tr(ctx, "cortexcape.legend_points"),
        112.0,
        |img, c| {
            for (i, p) in [Piece::White, Piece::Green, Piece::Yellow, Piece::Red]
                .into_iter()
                .enumerate()
            {
                draw_cylinder(
                    img,
                    Pt::new(c.x - 31.5 + 21.0 * i as f32, c.y),
                    10.0,
                    p,
                    13.0,
                );
            }
        },
    )];
    // Only what the board shows now.
    let towers = v.pieces.contains(&Some(Piece::Tower))
        || v.pool.iter().any(|&(p, n)| p == Piece::Tower && n > 0);
    if towers {
        out.push(LegendEntry::new(
            tr(ctx, "cortexcape.legend_tower"),
            |img, c| draw_tower(img, c, 11.0),
        ));
    }
    if v.start.is_some() || shown_recap(v).is_some() {
        out.push(LegendEntry::new(
            tr(ctx, "cortexcape.legend_start"),
            |img, c| start_cone(img, c, 13.0),
        ));
    }
    if v.target.is_some() {
        out.push(LegendEntry::new(
            tr(ctx, "cortexcape.legend_exit"),
            |img, c| cone(img, c, 18.0, EXIT_CONE, WHITE, 1.5),
        ));
    }
    if v.phase == Phase::Configure && !v.towers_to_move.is_empty() {
        out.push(LegendEntry::new(
            tr(ctx, "cortexcape.legend_move"),
            |img, c| {
                ring(img, c, 10.0, 4.0, ALERT);
                fill_disc(img, c, 7.0, TOWER);
            },
        ));
    }
    let empty = |d: &u8| {
        v.pieces
            .get(usize::from(*d).wrapping_sub(1))
            .is_some_and(Option::is_none)
    };
    if v.refill.iter().any(empty) {
        out.push(LegendEntry::new(
            tr(ctx, "cortexcape.legend_refill"),
            move |img, c| {
                fill_disc(img, c, 11.0, b.bg);
                dashed_ring(img, c, 10.0, 2.5, 8, WHITE);
            },
        ));
    }
    let other_empty = v
        .pieces
        .iter()
        .enumerate()
        .any(|(i, p)| p.is_none() && !v.refill.iter().any(|&d| usize::from(d) == i + 1));
    if other_empty {
        out.push(LegendEntry::new(
            tr(ctx, "cortexcape.legend_empty"),
            move |img, c| {
                fill_disc(img, c, 11.0, b.bg);
                dashed_ring(img, c, 10.0, 2.5, 8, CORRIDOR);
            },
        ));
    }
    let owner = b.seat_colour(v.owner);
    if !v.path.is_empty() {
        out.push(LegendEntry::new(
            tr(ctx, "cortexcape.legend_path"),
            move |img, c| {
                let a = Pt::new(c.x - 8.0, c.y);
                let z = Pt::new(c.x + 8.0, c.y);
                fill_disc(img, c, 11.0, b.bg);
                thick_line(img, a, z, 7.0, ink_on(owner));
                thick_line(img, a, z, 4.0, owner);
            },
        ));
    }
    if let Some(r) = shown_recap(v) {
        let colour = b.seat_colour(r.owner);
        out.push(LegendEntry::new(
            tr(ctx, "cortexcape.legend_last_path"),
            move |img, c| {
                let pts = [Pt::new(c.x - 9.0, c.y), Pt::new(c.x + 9.0, c.y)];
                fill_disc(img, c, 11.0, b.bg);
                dashed_polyline(img, &pts, 7.0, 6.0, 4.0, ink_on(colour));
                dashed_polyline(img, &pts, 4.0, 6.0, 4.0, colour);
            },
        ));
        if r.cheapest.is_some() {
            out.push(LegendEntry::new(
                tr(ctx, "cortexcape.legend_cheapest"),
                move |img, c| {
                    fill_disc(img, c, 11.0, b.bg);
                    for k in [-6.5f32, 0.0, 6.5] {
                        fill_disc(img, Pt::new(c.x + k, c.y), 3.5, INK);
                        fill_disc(img, Pt::new(c.x + k, c.y), 2.3, CHEAPEST);
                    }
                },
            ));
        }
    }
    if v.seats.iter().any(|s| !s.costs.is_empty()) {
        let short = trw(ctx, "cortexcape.round_short", &[("round", "4".into())]);
        out.push(LegendEntry::new(
            tr(ctx, "cortexcape.legend_round_cost"),
            move |img, c| {
                let style = Style::new(Weight::Bold, 12.0, INK_DIM);
                draw_text_centred(img, &style, c, &short);
            },
        ));
    }
    out
}

// ---- the frame ----------------------------------------------------------------------------

fn key(k: &str) -> Text {
    Text::new(format!("cortexcape.render.{k}"))
}

/// The header and footer of the common frame: the game's name and number, the round and the
/// lab, whose turn and what they do or how the game ended, a chip per seat with its total, and
/// the legend.
fn board_frame<'a>(b: &'a Board<'a>) -> Frame<'a> {
    let v = b.view;
    let ctx = b.ctx;
    let over = v.phase == Phase::Over;
    let to_act = v.to_act.filter(|_| !over && !ctx.stopped);
    let winners = if over { winners(v) } else { Vec::new() };
    let seats = (0..v.seats.len())
        .map(|i| {
            let seat = Seat::at(i);
            SeatChip {
                name: ctx.name(seat),
                colour: b.seat_colour(seat),
                letter: b.letter(seat),
                score: v.seats[i].score.to_string(),
                turn: to_act == Some(seat),
                winner: winners.contains(&seat),
            }
        })
        .collect();
    let status = match to_act {
        _ if over => ending_status(b),
        Some(seat) => {
            let k = match v.phase {
                Phase::Configure => "turn_configure",
                Phase::Challenge => "turn_challenge",
                _ => "turn_escape",
            };
            Status::Turn {
                seat: seat.index(),
                text: key(k).arg("name", ctx.name(seat)).render(ctx.lang),
            }
        }
        None => Status::Plain(String::new()),
    };
    let name = GameKind::Cortexcape.display_name();
    let round = trw(
        ctx,
        "cortexcape.round",
        &[
            ("k", v.round.to_string()),
            ("n", v.total_rounds.to_string()),
        ],
    );
    let lab = tr(ctx, &format!("cortexcape.lab_{}", v.lab));
    Frame {
        title: ctx
            .number
            .map_or_else(|| name.to_string(), |n| format!("{name} #{n}")),
        subtitle: format!("{round} · {lab}"),
        status,
        seats,
        legend_title: tr(ctx, "legend"),
        legend: legend_entries(b),
    }
}

/// The winners of a finished game: the lowest total, shared by a tie; nobody when every seat
/// ties (a draw, spec section 8).
fn winners(v: &PublicView) -> Vec<Seat> {
    let low = lowest(v);
    if low.len() == v.seats.len() && low.len() > 1 {
        Vec::new()
    } else {
        low
    }
}

/// How the game ended: who won, by how much (their total to the next one's), and why (the
/// lowest total wins; no rule breaks a tie: tied seats share the win, all tied is a draw).
fn ending_status(b: &Board<'_>) -> Status {
    let v = b.view;
    let ctx = b.ctx;
    let t = |text: Text| text.render(ctx.lang);
    let Some(best) = v.seats.iter().map(|s| s.score).min() else {
        return Status::Plain(tr(ctx, "cortexcape.phase_over"));
    };
    let winners = winners(v);
    if winners.is_empty() {
        return Status::Over {
            headline: t(key("draw")),
            detail: format!(
                "{} · {}",
                t(key("margin_all").arg("best", best)),
                t(key("rule_draw"))
            ),
            colour: None,
        };
    }
    let next = v
        .seats
        .iter()
        .enumerate()
        .filter(|(i, _)| !winners.contains(&Seat::at(*i)))
        .map(|(_, s)| s.score)
        .min()
        .unwrap_or(best);
    let names: Vec<String> = winners.iter().map(|s| ctx.name(*s)).collect();
    let headline = t(key("wins")
        .arg("names", names.join(", "))
        .arg("n", names.len()));
    let (margin, rule) = if winners.len() == 1 {
        (
            key("margin_one").arg("best", best).arg("next", next),
            key("rule_lowest"),
        )
    } else {
        (
            key("margin_tied").arg("best", best).arg("next", next),
            key("rule_shared"),
        )
    };
    Status::Over {
        headline,
        detail: format!("{} · {}", t(margin), t(rule)),
        colour: (winners.len() == 1).then(|| b.seat_colour(winners[0])),
    }
}

// ---- zoom (phones) ----------------------------------------------------------------------

/// Where the game stands first: the header (whose turn or who won, every seat's total), then
/// the strip's two columns (the round, the scores and the last round). Then the
/// lab in two halves that overlap by half a corridor, so every door is whole in one of them.
/// All in the composed image's pixels: the board sits under the header.
pub fn zoom_regions(
    view: &PublicView,
    ctx: &RenderCtx,
    _viewer: Option<Seat>,
) -> Vec<zoom::Region> {
    let b = board(view, ctx);
    let frame = board_frame(&b);
    let head = frame::header_height(&frame, WIDTH) as f32;
    let half = WIDTH as f32 / 2.0;
    let (lab, strip_h) = (LAB_H as f32, strip_bottom(&b) - LAB_H as f32);
    let status = frame::zoom_header(&frame, WIDTH, ctx.zoom_text("status"))
        .below(0.0, head + lab, half, strip_h)
        .below(half, head + lab, half, strip_h);
    let overlap = 70.0;
    vec![
        status,
        zoom::Region::new(ctx.zoom_text("board_left"), 0.0, head, half + overlap, lab),
        zoom::Region::new(
            ctx.zoom_text("board_right"),
            half - overlap,
            head,
            half + overlap,
            lab,
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Game, GameOptions, GameRng};
    use crate::games::cortexcape::Cortexcape;
    use crate::i18n::Lang;

    fn ctx(lang: Lang) -> RenderCtx {
        RenderCtx {
            lang,
            names: ["Ann", "Bob", "Cleo", "Dan"].map(String::from).to_vec(),
            stopped: false,
            number: None,
        }
    }

    #[test]
    fn starts_are_named_door_first() {
        let s = Start::Corridor(Place::Exit(12), Place::Door(6));
        assert_eq!(start_name(s), "6-x12");
        let s = Start::Corridor(Place::Door(13), Place::Door(12));
        assert_eq!(start_name(s), "12-13");
        assert_eq!(start_name(Start::Exit(4)), "x4");
    }

    #[test]
    fn boards_on_a_kept_ground_are_the_boards_drawn_afresh() {
        for (lab, seats, lang) in [
            ("blue", 4, Lang::En),
            ("red", 3, Lang::Fr),
            ("green", 2, Lang::En),
        ] {
            let ctx = ctx(lang);
            let mut o = GameOptions::new();
            o.insert("lab".into(), lab.into());
            let mut g = Cortexcape::setup(&o, seats, 3).expect("setup");
            let mut rng = GameRng::seed_from_u64(8);
            for step in 0..400 {
                if step % 40 == 0 {
                    let v = g.build_public();
                    let b = board(&v, &ctx);
                    let mut fresh = draw_ground(&Ground::of(&b));
                    draw_board(&mut fresh, &b);
                    draw_strip(&mut fresh, &b);
                    let fresh = frame::compose(&fresh, &board_frame(&b));
                    // Twice: the first may draw the ground, the second copies it.
                    for _ in 0..2 {
                        assert!(render_public(&v, &ctx) == fresh, "{lab}, after {step}");
                    }
                }
                let Some(p) = Game::prompt(&g) else { break };
                let pick = p.options[rng.gen_range(0..p.options.len())];
                g.apply(p.seat, &pick).expect("listed option applies");
            }
        }
        assert!(GROUNDS.len() <= 4);
    }

    #[test]
    fn grid_matches_the_spec_pixels() {
        // Spec 4.1: D1 at (220, 220) and x5 at (920, 360) in the 1000 × 860 board area.
        assert_eq!(grid(1, 1), Pt::new(220.0, 220.0));
        assert_eq!(grid(6, 2), Pt::new(920.0, 360.0));
    }

    /// The strip measures the score table as `panel::score_table` draws it, long details
    /// (wrapped) and none alike.
    #[test]
    fn the_score_table_is_as_tall_as_drawn() {
        let row = |detail: &str| ScoreRow {
            colour: WHITE,
            letter: 'A',
            name: "Ann".into(),
            total: 3,
            detail: detail.into(),
            highlight: false,
        };
        let long = ["R1: 7"; 14].join(" · ");
        let rows = [row(""), row("R2: 3"), row(&long)];
        let mut img = RgbaImage::new(COLUMN_W as u32, 600);
        let drawn = panel::score_table(&mut img, 0.0, 0.0, COLUMN_W, ("a", "b"), &rows);
        assert_eq!(score_table_height(&rows, COLUMN_W), drawn);
        assert!(drawn > 26.0 + 3.0 * 38.0 + 18.0 * 2.0);
    }

    /// A finished four-player game's view with these totals.
    fn over_with(scores: [i64; 4]) -> PublicView {
        let g = Cortexcape::setup(&GameOptions::new(), 4, 3).expect("setup");
        let mut v = g.build_public();
        v.phase = Phase::Over;
        v.to_act = None;
        for (s, score) in v.seats.iter_mut().zip(scores) {
            s.score = score;
        }
        v
    }

    fn result(scores: [i64; 4], lang: Lang) -> (String, String, Vec<bool>) {
        let v = over_with(scores);
        let ctx = ctx(lang);
        let b = board(&v, &ctx);
        let f = board_frame(&b);
        let Status::Over {
            headline, detail, ..
        } = f.status
        else {
            panic!("not over: {:?}", f.status);
        };
        (headline, detail, f.seats.iter().map(|c| c.winner).collect())
    }

    /// Issue 38: the final board says who won, by how much and why, the rule by name; a tie
    /// shares the win (no rule breaks it) and an all-round tie is a draw.
    #[test]
    fn the_end_says_who_won_by_how_much_and_why() {
        let (h, d, w) = result([16, 14, 19, 22], Lang::En);
        assert_eq!(h, "Bob wins");
        assert_eq!(d, "14 to 16 points · the lowest total wins");
        assert_eq!(w, [false, true, false, false]);
        let (h, d, w) = result([14, 14, 19, 15], Lang::En);
        assert_eq!(h, "Ann, Bob win");
        assert_eq!(
            d,
            "14 points each, then 15 · the lowest total wins; a tie is not broken, so they share the win"
        );
        assert_eq!(w, [true, true, false, false]);
        let (h, d, w) = result([9, 9, 9, 9], Lang::En);
        assert_eq!((h.as_str(), w), ("Draw", vec![false; 4]));
        assert!(d.starts_with("everyone has 9 points · "), "{d}");
        let (h, d, _) = result([16, 14, 19, 22], Lang::Fr);
        assert_eq!(h, "Bob gagne");
        assert_eq!(d, "14 contre 16 points · le total le plus bas gagne");
        let (h, _, _) = result([14, 14, 19, 15], Lang::Fr);
        assert_eq!(h, "Ann, Bob gagnent");
    }

    /// The header shows whose turn it is and what they do; the board has no side panel and
    /// its strip grows with what it says.
    #[test]
    fn the_header_names_the_seat_to_act() {
        let g = Cortexcape::setup(&GameOptions::new(), 3, 3).expect("setup");
        let v = g.build_public();
        let ctx = ctx(Lang::En);
        let b = board(&v, &ctx);
        let seat = v.to_act.expect("someone arranges the lab");
        match board_frame(&b).status {
            Status::Turn { seat: s, text } => {
                assert_eq!(s, seat.index());
                assert_eq!(text, format!("{} sets up the lab", ctx.name(seat)));
            }
            other => panic!("{other:?}"),
        }
        let img = render_public(&v, &ctx);
        assert_eq!(img.width(), WIDTH);
        assert_eq!(
            img.height(),
            frame::header_height(&board_frame(&b), WIDTH)
                + board_height(&b)
                + frame::footer_height(&board_frame(&b), WIDTH)
        );
        assert!(board_height(&b) > LAB_H);
        // Stopped (a resignation): nobody's turn.
        let stopped = RenderCtx {
            stopped: true,
            ..ctx.clone()
        };
        let b = board(&v, &stopped);
        assert!(matches!(board_frame(&b).status, Status::Plain(_)));
        assert!(board_frame(&b).seats.iter().all(|c| !c.turn));
    }
}
