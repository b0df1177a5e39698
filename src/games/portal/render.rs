//! Public and private images (spec section 11), drawn only from the views. The public board is
//! the Lab across the whole width (its chambers as large as its floors allow), every team's
//! card under it, then what the table holds (who decides and what, the deck, the character, the
//! Turret and the Cube); the common frame (`render::frame`) adds the title, whose turn or the
//! result, a chip per team with its cake in the Lab, and the legend. Every chamber prints its
//! name; pieces carry colour letters (their names' initials in the board's language: B R Y G,
//! B R J V) and reward icons their codes (S C A Q T), so colour is never the only clue.

use image::{Rgba, RgbaImage};

use super::moves::Icon;
use super::state::{Card, Floor};
use super::view::{ChamberView, EndView, HandView, PrivateView, PublicView};
use crate::engine::{GameKind, RenderCtx, Seat};
use crate::i18n::Text;
use crate::render::frame::{self, Frame, SeatChip, Status};
use crate::render::palette::{self, ink_on, mix, rgb, ALERT, INK, INK_DIM, PAPER, WHITE};
use crate::render::panel::{fit, token, LegendEntry};
use crate::render::shapes::{
    arrow_head, dashed_polyline, fill_convex, fill_disc, fill_polygon, ring, rounded_rect,
    thick_line, Pt,
};
use crate::render::text::{draw_text, draw_text_centred, text_width, wrap, Align, Style, Weight};
use crate::render::zoom;

/// The board's width (and the composed image's): the Lab spans it.
pub const WIDTH: u32 = 1200;
/// The band over the Lab: which way the conveyor runs, the lifted panel.
const TOP_BAND: f32 = 46.0;
/// Room left of the Lab for the floors' names, and right of it.
const LAB_LEFT: f32 = 70.0;
const LAB_RIGHT: f32 = 20.0;
/// The widest chamber: a short Lab (at the start) stays a Lab, not a poster.
const MAX_HEX_W: f32 = 230.0;
/// The margin around the teams' cards and the table, and between the cards.
const MARGIN: f32 = 14.0;
const CARD_GAP: f32 = 12.0;

const BG: Rgba<u8> = rgb(0xE9ECEF);
const HEX_FILL: Rgba<u8> = rgb(0xFFFFFF);
const HEX_EDGE: Rgba<u8> = rgb(0x8A9099);
const NEW_EDGE: Rgba<u8> = rgb(0x1B9E4B);
const OLD_EDGE: Rgba<u8> = rgb(0xC0392B);
const PORTAL_A: Rgba<u8> = rgb(0x00A6D6);
const PORTAL_B: Rgba<u8> = rgb(0xF58A07);

fn seat_colour(name: &str) -> Rgba<u8> {
    palette::named(name).unwrap_or(INK_DIM)
}

/// A colour's letter in the board's language: the initial of its name there (French "jaune"
/// and "vert" give J and V, not the English Y and G; issue 38).
fn letter(ctx: &RenderCtx, name: &str) -> char {
    let local = Text::new(format!("render.colour.{name}")).render(ctx.lang);
    local
        .chars()
        .chain(name.chars())
        .find(|c| c.is_alphabetic())
        .and_then(|c| c.to_uppercase().next())
        .unwrap_or('?')
}

fn icon_colour(i: Icon) -> Rgba<u8> {
    match i {
        Icon::Subject => rgb(0x4A6FA5),
        Icon::Cake => rgb(0xD6457A),
        Icon::Card => rgb(0x7B4FA0),
        Icon::Cube => rgb(0xB0B7C3),
        Icon::Turret => rgb(0x2B2B2B),
    }
}

/// A reward icon: a rounded square with its code letter.
fn icon(img: &mut RgbaImage, c: Pt, size: f32, i: Icon) {
    let h = size / 2.0;
    let bg = icon_colour(i);
    rounded_rect(
        img,
        Pt::new(c.x - h, c.y - h),
        Pt::new(c.x + h, c.y + h),
        size * 0.25,
        bg,
        None,
    );
    let style = Style::new(Weight::Bold, size * 0.72, ink_on(bg));
    draw_text_centred(img, &style, c, &i.code().to_string());
}

/// A cake wedge with its colour letter.
fn wedge(img: &mut RgbaImage, c: Pt, size: f32, colour: Rgba<u8>, l: char) {
    let pts = [
        Pt::new(c.x - size * 0.6, c.y + size * 0.45),
        Pt::new(c.x + size * 0.6, c.y + size * 0.45),
        Pt::new(c.x, c.y - size * 0.6),
    ];
    fill_convex(img, &pts, ink_on(colour));
    let inner = [
        Pt::new(c.x - size * 0.45, c.y + size * 0.35),
        Pt::new(c.x + size * 0.45, c.y + size * 0.35),
        Pt::new(c.x, c.y - size * 0.42),
    ];
    fill_convex(img, &inner, colour);
    let style = Style::new(Weight::Bold, size * 0.5, ink_on(colour));
    draw_text_centred(img, &style, Pt::new(c.x, c.y + size * 0.08), &l.to_string());
}

fn portal_mark(img: &mut RgbaImage, c: Pt, r: f32) {
    ring(img, c, r, r * 0.3, PORTAL_A);
    ring(img, c, r * 0.55, r * 0.22, PORTAL_B);
}

fn turret_mark(img: &mut RgbaImage, c: Pt, r: f32) {
    fill_disc(img, c, r, WHITE);
    fill_disc(img, c, r * 0.85, rgb(0x2B2B2B));
    fill_disc(img, c, r * 0.35, rgb(0xFF3B30));
    draw_text_centred(
        img,
        &Style::new(Weight::Bold, r * 0.9, WHITE),
        Pt::new(c.x, c.y + r * 1.6),
        "T",
    );
}

fn cube_mark(img: &mut RgbaImage, c: Pt, r: f32) {
    rounded_rect(
        img,
        Pt::new(c.x - r, c.y - r),
        Pt::new(c.x + r, c.y + r),
        r * 0.3,
        rgb(0x9AA3AF),
        Some((INK, 2.0)),
    );
    fill_disc(img, c, r * 0.45, rgb(0xF06292));
    draw_text_centred(img, &Style::new(Weight::Bold, r * 0.7, WHITE), c, "Q");
}

fn glados_mark(img: &mut RgbaImage, c: Pt, r: f32) {
    fill_disc(img, c, r, INK);
    fill_disc(img, c, r * 0.7, rgb(0xFFD23F));
    fill_disc(img, c, r * 0.3, INK);
}

fn lock_mark(img: &mut RgbaImage, c: Pt, s: f32) {
    ring(img, Pt::new(c.x, c.y - s * 0.35), s * 0.35, s * 0.12, INK);
    rounded_rect(
        img,
        Pt::new(c.x - s * 0.5, c.y - s * 0.2),
        Pt::new(c.x + s * 0.5, c.y + s * 0.5),
        s * 0.1,
        INK,
        None,
    );
}

/// Outlines a polygon with one thick segment per edge (round joins).
fn stroke_polygon(img: &mut RgbaImage, poly: &[Pt], width: f32, colour: Rgba<u8>) {
    for i in 0..poly.len() {
        thick_line(img, poly[i], poly[(i + 1) % poly.len()], width, colour);
    }
}

fn hex_points(c: Pt, r: f32) -> Vec<Pt> {
    (0..6)
        .map(|k| {
            let a = (-90.0 + 60.0 * k as f32).to_radians();
            Pt::new(c.x + r * a.cos(), c.y + r * a.sin())
        })
        .collect()
}

/// Hex geometry of spec 4.8, fitted to the board's width: the floors' longest span fills it,
/// centred, the chambers never wider than [`MAX_HEX_W`].
struct Geo {
    w: f32,
    h: f32,
    max_c: f32,
    left: f32,
    top: f32,
}

impl Geo {
    fn new(view: &PublicView) -> Geo {
        let cs = view.chambers.iter().map(|c| f32::from(c.c));
        let max_c = cs.clone().fold(0.0, f32::max);
        let min_c = cs.fold(f32::MAX, f32::min).min(max_c);
        let usable = WIDTH as f32 - LAB_LEFT - LAB_RIGHT;
        let span = (max_c - min_c) / 2.0 + 1.0;
        let w = (usable / span).min(MAX_HEX_W);
        let h = 2.0 * w / 3f32.sqrt();
        Geo {
            w,
            h,
            max_c,
            left: LAB_LEFT + (usable - span * w) / 2.0,
            top: TOP_BAND + 4.0,
        }
    }

    fn centre(&self, floor: Floor, c: u16) -> Pt {
        Pt::new(
            self.left + (self.max_c - f32::from(c)) * self.w / 2.0 + self.w / 2.0,
            self.top + self.h / 2.0 + floor.index() as f32 * 0.75 * self.h,
        )
    }

    /// The foot of the bottom floor.
    fn bottom(&self) -> f32 {
        self.top + 2.5 * self.h
    }

    /// The chambers' contents' scale: 1 for a chamber 160 px wide.
    fn k(&self) -> f32 {
        (self.w / 160.0).clamp(0.45, 1.25)
    }
}

fn t(ctx: &RenderCtx, text: Text) -> String {
    text.render_with(ctx.lang, &ctx.names)
}

fn team(view: &PublicView, s: Seat) -> Text {
    Text::new("portal.team").arg("seat", s).arg(
        "colour",
        Text::new(format!(
            "portal.colour.{}",
            view.seats.get(s.index()).map_or("blue", |x| x.colour)
        )),
    )
}

fn card_key(c: Card, part: &str) -> Text {
    Text::new(format!("portal.card.{}.{part}", c.slug()))
}

/// A chamber's ground: the hex, its hatching when locked, its edges and the ring of the last
/// choice. Every ground is drawn before the last move's arrow, and every chamber's contents
/// after it, so the arrow passes under pieces and counts and never hides them.
fn draw_chamber_ground(img: &mut RgbaImage, x: &ChamberView, c: Pt, geo: &Geo) {
    let r = geo.h / 2.0 - 2.0;
    let k = geo.k();
    let pts = hex_points(c, r);
    let fill = if x.locked {
        mix(HEX_FILL, rgb(0xB0B0B0), 0.35)
    } else {
        HEX_FILL
    };
    fill_polygon(img, &pts, fill);
    if x.locked {
        // Hatching: diagonal strokes, each cut to the hexagon inside its border.
        let inner = hex_points(c, r - 8.0 * k);
        for i in -5..=5 {
            let off = i as f32 * r * 0.22;
            let a = Pt::new(c.x + off - r * 0.6, c.y + r);
            let b = Pt::new(c.x + off + r * 0.6, c.y - r);
            if let Some((a, b)) = clip_to_convex(a, b, &inner) {
                thick_line(img, a, b, 1.5, mix(INK_DIM, WHITE, 0.45));
            }
        }
    }
    let width = edge_width(x, k);
    let edge = if x.old_edge {
        OLD_EDGE
    } else if x.new_edge {
        NEW_EDGE
    } else {
        HEX_EDGE
    };
    stroke_polygon(img, &pts, width, edge);
    if x.touched {
        let mut ring_pts = hex_points(c, r - 8.0 * k);
        ring_pts.push(ring_pts[0]);
        dashed_polyline(img, &ring_pts, 3.0, 9.0, 6.0, ALERT);
    }
}

/// The width of a chamber's edge line (wide when the edge is marked new or old).
fn edge_width(x: &ChamberView, k: f32) -> f32 {
    if x.old_edge || x.new_edge {
        5.0 * k.max(0.7)
    } else {
        2.0
    }
}

/// One chamber's contents: name, edge tags, face icons, pieces and tokens.
fn draw_chamber(
    img: &mut RgbaImage,
    view: &PublicView,
    x: &ChamberView,
    c: Pt,
    geo: &Geo,
    ctx: &RenderCtx,
) {
    let r = geo.h / 2.0 - 2.0;
    let k = geo.k();
    let width = edge_width(x, k);
    // Name.
    let name_style = Style::new(Weight::Bold, 24.0 * k, INK);
    draw_text(img, &name_style, c.x, c.y - r * 0.78, Align::Centre, &x.id);
    // Edge tags, sized to their word ("NEW", "VIEUX"), at the flat sides' top; the face icons
    // keep to the room between them (the words say what the border colours say, for readers
    // who cannot tell green from red).
    let tag_size = 13.0 * k.max(0.8);
    let tag_style = Style::new(Weight::Bold, tag_size, WHITE);
    let inside = geo.w * 0.5 - width - 1.0;
    let (mut room_left, mut room_right) = (c.x - inside, c.x + inside);
    let tag_y = c.y - r * 0.5;
    if x.new_edge {
        let label = t(ctx, Text::new("portal.render.new_tag"));
        let w = text_width(Weight::Bold, tag_size, &label) + 8.0;
        let left = c.x - inside;
        rounded_rect(
            img,
            Pt::new(left, tag_y - 2.0),
            Pt::new(left + w, tag_y + tag_size * 1.3),
            4.0,
            NEW_EDGE,
            None,
        );
        draw_text(img, &tag_style, left + 4.0, tag_y, Align::Left, &label);
        room_left = left + w + 3.0;
    }
    if x.old_edge {
        let label = t(ctx, Text::new("portal.render.old_tag"));
        let w = text_width(Weight::Bold, tag_size, &label) + 8.0;
        let right = c.x + inside;
        rounded_rect(
            img,
            Pt::new(right - w, tag_y - 2.0),
            Pt::new(right, tag_y + tag_size * 1.3),
            4.0,
            OLD_EDGE,
            None,
        );
        draw_text(img, &tag_style, right - 4.0, tag_y, Align::Right, &label);
        room_right = right - w - 3.0;
    }
    // Face icons: centred in the hex, or in the room the tags leave, smaller if they must be.
    let n = x.icons.len() as f32;
    let row = |size: f32| n * size + (n - 1.0).max(0.0) * 4.0;
    let mut isz = 24.0 * k;
    let mut left = c.x - row(isz) / 2.0;
    if left < room_left || left + row(isz) > room_right {
        let room = room_right - room_left;
        isz = isz.min((room - (n - 1.0).max(0.0) * 4.0) / n.max(1.0));
        left = (room_left + room_right) / 2.0 - row(isz) / 2.0;
    }
    let y_icons = c.y - r * 0.38;
    for (i, ic) in x.icons.iter().enumerate() {
        let cx = left + isz / 2.0 + i as f32 * (isz + 4.0);
        icon(img, Pt::new(cx, y_icons), isz, *ic);
    }
    if let Some(back) = &x.back {
        let small = Style::new(Weight::Regular, 12.0 * k.max(0.8), INK_DIM);
        let codes: String = back
            .iter()
            .map(|i| i.code())
            .collect::<Vec<_>>()
            .iter()
            .map(|ch| ch.to_string())
            .collect::<Vec<_>>()
            .join(" ");
        draw_text(
            img,
            &small,
            c.x,
            y_icons + isz * 0.55,
            Align::Centre,
            &format!("↺ {codes}"),
        );
    }
    // Pieces: pawns on one row, wedges on the next, each with its count.
    let pawns: Vec<(usize, u8)> = x
        .subjects
        .iter()
        .copied()
        .enumerate()
        .filter(|(_, n)| *n > 0)
        .collect();
    let cakes: Vec<(usize, u8)> = x
        .cake
        .iter()
        .copied()
        .enumerate()
        .filter(|(_, n)| *n > 0)
        .collect();
    for (row, items, is_cake) in [(0.0, &pawns, false), (1.0, &cakes, true)] {
        // Raised a little so the cake row keeps clear of the tokens at the foot.
        let y = c.y + r * 0.12 - 5.0 * k + row * 32.0 * k;
        let m = items.len() as f32;
        // Four seats' pieces keep inside the border: the first token's left half and the last
        // count's width must fit too.
        let cell = (50.0 * k).min((2.0 * inside - 4.0 - 38.0 * k) / (m - 1.0).max(1.0));
        // Smaller where four seats' pieces share a narrow chamber, so counts never touch the
        // next piece.
        let f = (cell / (46.0 * k)).min(1.0);
        for (j, &(s, cnt)) in items.iter().enumerate() {
            let cx = c.x + (j as f32 - (m - 1.0) / 2.0) * cell - 9.0 * k * f;
            let name = view.seats.get(s).map_or("blue", |v| v.colour);
            let col = seat_colour(name);
            if is_cake {
                wedge(img, Pt::new(cx, y), 27.0 * k * f, col, letter(ctx, name));
            } else {
                token(img, Pt::new(cx, y), 12.5 * k * f, col, letter(ctx, name));
            }
            draw_text(
                img,
                &Style::new(Weight::Bold, 19.0 * k * f, INK),
                cx + 15.0 * k * f,
                y - 10.5 * k * f,
                Align::Left,
                &format!("{cnt}"),
            );
        }
    }
    // Tokens along the bottom.
    let mut marks: Vec<fn(&mut RgbaImage, Pt, f32)> = Vec::new();
    if x.portal {
        marks.push(portal_mark);
    }
    if x.turret {
        marks.push(turret_mark);
    }
    if x.cube {
        marks.push(cube_mark);
    }
    if x.glados {
        marks.push(glados_mark);
    }
    // The lock sits with the pieces at the foot, clear of the edge tags at the top.
    if x.locked {
        marks.push(lock_token);
    }
    let m = marks.len() as f32;
    for (j, f) in marks.iter().enumerate() {
        let cx = c.x + (j as f32 - (m - 1.0) / 2.0) * 30.0 * k;
        f(img, Pt::new(cx, c.y + r * 0.7), 11.0 * k);
    }
}

/// The lock as a bottom mark (`r` the marks' radius).
fn lock_token(img: &mut RgbaImage, c: Pt, r: f32) {
    lock_mark(img, c, r * 1.6);
}

/// The part of segment `a`-`b` inside the convex polygon `poly` (Cyrus-Beck), if any.
fn clip_to_convex(a: Pt, b: Pt, poly: &[Pt]) -> Option<(Pt, Pt)> {
    let d = b - a;
    let (mut t0, mut t1) = (0.0f32, 1.0f32);
    // Orientation: the polygon's signed area says which side of each edge is inside.
    let area: f32 = (0..poly.len())
        .map(|i| {
            let (p, q) = (poly[i], poly[(i + 1) % poly.len()]);
            p.x * q.y - q.x * p.y
        })
        .sum();
    let sign = if area >= 0.0 { 1.0 } else { -1.0 };
    for i in 0..poly.len() {
        let (p, q) = (poly[i], poly[(i + 1) % poly.len()]);
        let e = q - p;
        // Inside when cross(e, x - p) * sign >= 0.
        let num = sign * (e.x * (a.y - p.y) - e.y * (a.x - p.x));
        let den = sign * (e.x * d.y - e.y * d.x);
        if den.abs() < 1e-6 {
            if num < 0.0 {
                return None;
            }
        } else {
            let t = -num / den;
            if den > 0.0 {
                t0 = t0.max(t);
            } else {
                t1 = t1.min(t);
            }
        }
    }
    (t0 < t1).then(|| (a + d.scale(t0), a + d.scale(t1)))
}

/// The public board image: the Lab, the teams and the table in the common frame.
pub fn render_public(view: &PublicView, ctx: &RenderCtx) -> RgbaImage {
    let l = Layout::of(view, ctx);
    let mut img = crate::render::canvas(WIDTH, l.height, BG);
    draw_lab(&mut img, view, ctx, &l.geo);
    for i in 0..view.seats.len() {
        draw_card(&mut img, view, ctx, &l, i);
    }
    draw_table(&mut img, &l);
    frame::compose(&img, &board_frame(view, ctx))
}

/// A line of the table under the cards: its style, its text and the height it takes.
type TableLine = (Style, String, f32);

/// Where the board's parts go, from the view (the Zoom cuts along the same lines).
struct Layout {
    geo: Geo,
    /// The teams' cards: their top, size, and how many lines the stats and the hands take.
    cards_y: f32,
    card_w: f32,
    card_h: f32,
    stat_lines: Vec<String>,
    hands: Vec<Vec<String>>,
    /// The table: its top, and its two columns (who decides and what, the pieces; the deck
    /// and the character).
    table_y: f32,
    left: Vec<TableLine>,
    right: Vec<TableLine>,
    height: u32,
}

/// The table's columns: each half of the board, so a Zoom shows them whole.
const TABLE_COL_W: f32 = WIDTH as f32 / 2.0 - MARGIN - 16.0;
const TABLE_RIGHT_X: f32 = WIDTH as f32 / 2.0 + 16.0;

impl Layout {
    fn of(view: &PublicView, ctx: &RenderCtx) -> Layout {
        let geo = Geo::new(view);
        let n = view.seats.len().max(1) as f32;
        let card_w = (WIDTH as f32 - 2.0 * MARGIN - (n - 1.0) * CARD_GAP) / n;
        let inner = card_w - 28.0;
        // The subjects and the cake supply on one line when every card has room for it.
        let stats: Vec<(String, String)> = view
            .seats
            .iter()
            .map(|s| {
                let lab = t(
                    ctx,
                    Text::new("portal.render.lab")
                        .arg("lab", s.lab)
                        .arg("supply", u32::from(s.supply)),
                );
                let cs = t(
                    ctx,
                    Text::new("portal.render.cake_supply").arg("n", u32::from(s.cake_supply)),
                );
                (lab, cs)
            })
            .collect();
        let one_line = stats
            .iter()
            .all(|(a, b)| text_width(Weight::Regular, 16.0, &format!("{a} · {b}")) <= inner);
        let stat_lines: Vec<String> = stats
            .into_iter()
            .map(|(a, b)| {
                if one_line {
                    format!("{a} · {b}")
                } else {
                    format!("{a}\n{b}")
                }
            })
            .collect();
        let hands: Vec<Vec<String>> = view
            .seats
            .iter()
            .map(|s| {
                let mut lines = wrap(Weight::Regular, 15.0, &unbroken(&hand_text(ctx, s)), inner);
                if lines.len() > 2 {
                    let rest = lines[1..].join(" ");
                    lines.truncate(1);
                    lines.push(fit(Weight::Regular, 15.0, &rest, inner));
                }
                lines
            })
            .collect();
        let hand_lines = hands.iter().map(Vec::len).max().unwrap_or(1).max(1);
        let cards_y = geo.bottom() + 16.0;
        let card_h =
            46.0 + if one_line { 22.0 } else { 44.0 } + 28.0 + 19.0 * hand_lines as f32 + 10.0;
        let table_y = cards_y + card_h + 14.0;
        let (left, right) = table_lines(view, ctx);
        let column_h = |c: &[TableLine]| c.iter().map(|l| l.2).sum::<f32>();
        let bottom = table_y + column_h(&left).max(column_h(&right)) + 14.0;
        Layout {
            geo,
            cards_y,
            card_w,
            card_h,
            stat_lines,
            hands,
            table_y,
            left,
            right,
            height: bottom.ceil() as u32,
        }
    }

    /// Team `i`'s card: left, top, width, height.
    fn card(&self, i: usize) -> [f32; 4] {
        let x = MARGIN + i as f32 * (self.card_w + CARD_GAP);
        [x, self.cards_y, self.card_w, self.card_h]
    }
}

/// `text` with the space French puts before ":", ";", "?" and "!" made a no-break space, so
/// that no wrapped line starts with one (as Cortexcape's score lines, issue 38).
fn unbroken(text: &str) -> String {
    [":", ";", "?", "!"].iter().fold(text.to_string(), |t, p| {
        t.replace(&format!(" {p}"), &format!("\u{a0}{p}"))
    })
}

/// A team's hand as the table sees it: open cards by name (★ fresh), or only how many; a tick
/// once it has voted (not for whom).
fn hand_text(ctx: &RenderCtx, s: &super::view::SeatView) -> String {
    let hand = match &s.hand {
        HandView::Open(cards) => {
            let names: Vec<String> = cards
                .iter()
                .map(|(c, f)| {
                    format!(
                        "{}{}",
                        t(ctx, card_key(*c, "name")),
                        if *f { "★" } else { "" }
                    )
                })
                .collect();
            t(
                ctx,
                Text::new("portal.render.hand").arg(
                    "hand",
                    if names.is_empty() {
                        "–".to_string()
                    } else {
                        names.join(", ")
                    },
                ),
            )
        }
        HandView::Hidden { size, fresh } => t(
            ctx,
            Text::new("portal.render.hand_hidden")
                .arg("size", u32::from(*size))
                .arg("fresh", u32::from(*fresh)),
        ),
    };
    if s.voted {
        format!("{hand} ✔")
    } else {
        hand
    }
}

/// The table's two columns. Left: who decides and what (at the end, who won and how it
/// ended), the rewards to collect, the last move, the discard pile and where the Turret and the
/// Cube are. Right: the deck's top card and the character, each with its text.
fn table_lines(view: &PublicView, ctx: &RenderCtx) -> (Vec<TableLine>, Vec<TableLine>) {
    let w = TABLE_COL_W;
    let push = |out: &mut Vec<TableLine>, style: Style, text: &str, line_h: f32| {
        for l in wrap(style.weight, style.size, &unbroken(text), w) {
            out.push((style, l, line_h));
        }
    };
    let bold = Style::new(Weight::Bold, 20.0, INK);
    let reg = Style::new(Weight::Regular, 17.0, INK);
    let dim = Style::new(Weight::Regular, 16.0, INK_DIM);
    let head = Style::new(Weight::Bold, 18.0, INK);
    let mut left = Vec::new();
    match (&view.end, view.to_act) {
        (Some(end), _) => {
            let winners: Vec<Text> = end.winners.iter().map(|&s| team(view, s)).collect();
            let line = t(
                ctx,
                Text::new("portal.render.winners")
                    .arg("count", winners.len() as i64)
                    .arg("winners", winners),
            );
            push(&mut left, Style::new(Weight::Bold, 22.0, INK), &line, 30.0);
            push(&mut left, reg, &t(ctx, end.reason.clone()), 23.0);
        }
        (None, Some(s)) if !ctx.stopped => {
            let line = match &view.prompt_text {
                Some(p) => t(
                    ctx,
                    Text::new("portal.render.waiting_prompt")
                        .arg("team", team(view, s))
                        .arg("prompt", t(ctx, p.clone())),
                ),
                None => t(
                    ctx,
                    Text::new("portal.render.waiting").arg("team", team(view, s)),
                ),
            };
            push(&mut left, bold, &line, 26.0);
        }
        _ => {}
    }
    if !view.pending.is_empty() {
        let codes: Vec<String> = view.pending.iter().map(|i| i.code().to_string()).collect();
        let line = t(
            ctx,
            Text::new("portal.render.pending").arg("icons", codes.join(" ")),
        );
        push(
            &mut left,
            Style::new(Weight::Bold, 18.0, ALERT),
            &line,
            24.0,
        );
    }
    if let Some((from, to)) = &view.last_move {
        let line = t(
            ctx,
            Text::new("portal.render.last_move")
                .arg("from", from.as_str())
                .arg("to", to.as_str()),
        );
        push(&mut left, reg, &line, 23.0);
    }
    let off = t(ctx, Text::new("portal.render.off_lab"));
    let at = |o: &Option<String>| o.clone().unwrap_or_else(|| off.clone());
    let pieces = format!(
        "{} · {} · {}",
        t(
            ctx,
            Text::new("portal.render.discard").arg("n", view.discard.len())
        ),
        t(
            ctx,
            Text::new("portal.render.turret_at").arg("at", at(&view.turret))
        ),
        t(
            ctx,
            Text::new("portal.render.cube_at").arg("at", at(&view.cube))
        ),
    );
    push(&mut left, reg, &pieces, 23.0);
    let mut right = Vec::new();
    let deck = match view.deck_top {
        Some(c) => t(
            ctx,
            Text::new("portal.render.deck")
                .arg("n", u32::from(view.deck_size))
                .arg("card", card_key(c, "name")),
        ),
        None => t(ctx, Text::new("portal.render.deck_none")),
    };
    push(&mut right, head, &deck, 24.0);
    if let Some(c) = view.deck_top {
        push(&mut right, dim, &t(ctx, card_key(c, "aperture")), 21.0);
    }
    if let Some(last) = right.last_mut() {
        last.2 += 6.0;
    }
    let character = if !view.characters_on {
        t(ctx, Text::new("portal.render.characters_off"))
    } else {
        match view.character {
            Some(c) => t(
                ctx,
                Text::new("portal.render.character").arg("card", card_key(c, "name")),
            ),
            None => t(ctx, Text::new("portal.render.character_none")),
        }
    };
    push(&mut right, head, &character, 24.0);
    if let (Some(c), true) = (view.character, view.characters_on) {
        push(&mut right, dim, &t(ctx, card_key(c, "character")), 21.0);
    }
    (left, right)
}

/// The Lab: the conveyor's direction and the lifted panel over it, the floors' names, the
/// chambers' grounds, the last move's arrow, then every chamber's contents.
fn draw_lab(img: &mut RgbaImage, view: &PublicView, ctx: &RenderCtx, geo: &Geo) {
    let band = Style::new(Weight::Bold, 20.0, INK_DIM);
    let y = (TOP_BAND - 24.0) / 2.0;
    draw_text(
        img,
        &band,
        LAB_LEFT,
        y,
        Align::Left,
        &t(ctx, Text::new("portal.render.conveyor")),
    );
    draw_text(
        img,
        &band,
        WIDTH as f32 - LAB_RIGHT,
        y,
        Align::Right,
        &t(ctx, Text::new("portal.render.old_edge")),
    );
    if let Some(l) = &view.lifted {
        // The lifted panel, between the two edges' names: its id and its face.
        let label = t(
            ctx,
            Text::new("portal.render.lifted").arg("id", l.id.clone()),
        );
        let style = Style::new(Weight::Bold, 20.0, OLD_EDGE);
        let size = 28.0;
        let icons_w = l.icons.len() as f32 * (size + 4.0);
        let lw = text_width(Weight::Bold, 20.0, &label);
        let x = (WIDTH as f32 - lw - 12.0 - icons_w) / 2.0;
        draw_text(img, &style, x, y, Align::Left, &label);
        for (i, ic) in l.icons.iter().enumerate() {
            let cx = x + lw + 12.0 + size / 2.0 + i as f32 * (size + 4.0);
            icon(img, Pt::new(cx, TOP_BAND / 2.0), size, *ic);
        }
    }
    // Floor labels, in the room left of the floor's first chamber (smaller when a long
    // floor leaves little: "milieu" beside seven chambers).
    for f in Floor::ALL {
        let y = geo.top + geo.h / 2.0 + f.index() as f32 * 0.75 * geo.h - 12.0;
        let first = view
            .chambers
            .iter()
            .filter(|x| x.floor == f)
            .map(|x| geo.centre(x.floor, x.c).x - geo.w / 2.0)
            .fold(WIDTH as f32, f32::min);
        let room = first - 12.0 - 6.0;
        let label = t(ctx, Text::new(format!("portal.floor.{}", f.name())));
        let size =
            (22.0 * room / text_width(Weight::Bold, 22.0, &label).max(1.0)).clamp(12.0, 22.0);
        let label = fit(Weight::Bold, size, &label, room.max(20.0));
        let fl = Style::new(Weight::Bold, size, INK);
        draw_text(img, &fl, 12.0, y + (22.0 - size) / 2.0, Align::Left, &label);
    }
    for x in &view.chambers {
        draw_chamber_ground(img, x, geo.centre(x.floor, x.c), geo);
    }
    if let Some((a, b)) = &view.last_move {
        let find = |id: &str| {
            view.chambers
                .iter()
                .find(|c| c.id == *id)
                .map(|c| geo.centre(c.floor, c.c))
        };
        if let (Some(pa), Some(pb)) = (find(a), find(b)) {
            // Thick enough to be seen on a phone, where the board is a third of its size.
            let k = geo.k().max(0.8);
            let dir = (pb - pa).unit();
            let from = pa + dir.scale(geo.w * 0.22);
            let to = pb - dir.scale(geo.w * 0.22);
            thick_line(img, from, to - dir.scale(10.0 * k), 9.0 * k, WHITE);
            thick_line(img, from, to - dir.scale(10.0 * k), 6.0 * k, ALERT);
            arrow_head(img, to, dir, 28.0 * k, ALERT);
        }
    }
    for x in &view.chambers {
        draw_chamber(img, view, x, geo.centre(x.floor, x.c), geo, ctx);
    }
}

/// Team `i`'s card: its token and name, its cake in the Lab (the score), its subjects and
/// supplies, its incinerator and its hand; framed when it decides now (in a vote, the voter,
/// not the team whose turn it is; issue 38).
fn draw_card(img: &mut RgbaImage, view: &PublicView, ctx: &RenderCtx, l: &Layout, i: usize) {
    let Some(s) = view.seats.get(i) else { return };
    let seat = Seat::at(i);
    let [x, y, w, h] = l.card(i);
    let active = view.to_act == Some(seat) && view.end.is_none() && !ctx.stopped;
    let winner = view.end.as_ref().is_some_and(|e| e.winners.contains(&seat));
    let edge = if winner {
        (frame::WINNER, 5.0)
    } else if active {
        (ALERT, 5.0)
    } else {
        (mix(INK_DIM, WHITE, 0.6), 2.0)
    };
    rounded_rect(
        img,
        Pt::new(x, y),
        Pt::new(x + w, y + h),
        10.0,
        WHITE,
        Some(edge),
    );
    let col = seat_colour(s.colour);
    let l_char = letter(ctx, s.colour);
    token(img, Pt::new(x + 24.0, y + 24.0), 14.0, col, l_char);
    // The score: cake in the Lab, a wedge and its count at the right.
    let score = s.cake.to_string();
    let sw = text_width(Weight::Bold, 30.0, &score);
    draw_text(
        img,
        &Style::new(Weight::Bold, 30.0, INK),
        x + w - 14.0,
        y + 6.0,
        Align::Right,
        &score,
    );
    wedge(img, Pt::new(x + w - 30.0 - sw, y + 26.0), 26.0, col, l_char);
    let name = fit(
        Weight::Bold,
        19.0,
        &t(ctx, team(view, seat)),
        w - 100.0 - sw,
    );
    draw_text(
        img,
        &Style::new(Weight::Bold, 19.0, INK),
        x + 46.0,
        y + 12.0,
        Align::Left,
        &name,
    );
    let dim = Style::new(Weight::Regular, 16.0, INK_DIM);
    let mut ly = y + 46.0;
    for line in l.stat_lines.get(i).map_or("", String::as_str).split('\n') {
        draw_text(img, &dim, x + 14.0, ly, Align::Left, line);
        ly += 22.0;
    }
    // The incinerator: its count and a bar of 8.
    let inc = t(
        ctx,
        Text::new("portal.render.incinerated").arg("n", u32::from(s.incinerated)),
    );
    let iw = draw_text(img, &dim, x + 14.0, ly + 2.0, Align::Left, &inc);
    let (bx, bw) = (x + 26.0 + iw, (w - 40.0 - iw).min(120.0));
    rounded_rect(
        img,
        Pt::new(bx, ly + 5.0),
        Pt::new(bx + bw, ly + 19.0),
        4.0,
        mix(INK_DIM, WHITE, 0.8),
        None,
    );
    let filled = bw * f32::from(s.incinerated.min(8)) / 8.0;
    if filled > 0.0 {
        rounded_rect(
            img,
            Pt::new(bx, ly + 5.0),
            Pt::new(bx + filled, ly + 19.0),
            4.0,
            OLD_EDGE,
            None,
        );
    }
    ly += 28.0;
    let hand = Style::new(Weight::Regular, 15.0, INK);
    for line in l.hands.get(i).into_iter().flatten() {
        draw_text(img, &hand, x + 14.0, ly, Align::Left, line);
        ly += 19.0;
    }
}

/// The table under the cards, in its two columns.
fn draw_table(img: &mut RgbaImage, l: &Layout) {
    for (x, lines) in [(MARGIN + 4.0, &l.left), (TABLE_RIGHT_X, &l.right)] {
        let mut y = l.table_y;
        for (style, text, h) in lines {
            draw_text(img, style, x, y, Align::Left, text);
            y += h;
        }
    }
}

// ---- the frame ----------------------------------------------------------------------------

fn key(k: &str) -> Text {
    Text::new(format!("portal.render.{k}"))
}

/// The header and footer of the common frame: the game's name and number, the round, whose
/// turn (or the voter's, or the team collecting its rewards) or the result, a chip per team
/// with its cake in the Lab, and the legend.
fn board_frame(view: &PublicView, ctx: &RenderCtx) -> Frame<'static> {
    let over = view.end.is_some();
    let to_act = view.to_act.filter(|_| !over && !ctx.stopped);
    let winners: &[Seat] = view.end.as_ref().map_or(&[], |e| &e.winners);
    let seats = view
        .seats
        .iter()
        .enumerate()
        .map(|(i, s)| SeatChip {
            name: ctx.name(Seat::at(i)),
            colour: seat_colour(s.colour),
            letter: letter(ctx, s.colour),
            score: s.cake.to_string(),
            turn: to_act == Some(Seat::at(i)),
            winner: winners.contains(&Seat::at(i)),
        })
        .collect();
    let status = match (&view.end, to_act) {
        (Some(end), _) => ending_status(view, end, ctx),
        (None, Some(s)) => {
            let k = if s == view.active { "turn" } else { "waiting" };
            Status::Turn {
                seat: s.index(),
                text: t(ctx, key(k).arg("team", team(view, s))),
            }
        }
        (None, None) => Status::Plain(String::new()),
    };
    let mut subtitle = vec![t(
        ctx,
        if view.max_rounds > 0 {
            key("round_of")
                .arg("round", u32::from(view.round))
                .arg("max", u32::from(view.max_rounds))
        } else {
            key("round").arg("round", u32::from(view.round))
        },
    )];
    // Someone else decides during the active team's turn (a vote, a reward): whose turn it is.
    if to_act.is_some_and(|s| s != view.active) {
        subtitle.push(t(ctx, key("turn").arg("team", team(view, view.active))));
    }
    let name = GameKind::Portal.display_name();
    Frame {
        title: ctx
            .number
            .map_or_else(|| name.to_string(), |n| format!("{name} #{n}")),
        subtitle: subtitle.join(" · "),
        status,
        seats,
        legend_title: t(ctx, key("legend_title")),
        legend: legend(ctx),
    }
}

/// How the game ended: who won, by how much and why (spec 8.3: the most cake in the Lab, then
/// the most subjects there, then a shared win or the other teams' vote).
fn ending_status(view: &PublicView, end: &EndView, ctx: &RenderCtx) -> Status {
    let names: Vec<String> = end.winners.iter().map(|&s| ctx.name(s)).collect();
    let headline = t(
        ctx,
        key("wins")
            .arg("names", names.join(", "))
            .arg("n", names.len()),
    );
    let of = |s: Seat| view.seats.get(s.index());
    let best = end.winners.first().and_then(|&s| of(s));
    let others: Vec<&super::view::SeatView> = view
        .seats
        .iter()
        .enumerate()
        .filter(|(i, _)| !end.winners.contains(&Seat::at(*i)))
        .map(|(_, s)| s)
        .collect();
    let Some(best) = best else {
        return Status::Over {
            headline,
            detail: String::new(),
            colour: None,
        };
    };
    let next_cake = others.iter().map(|s| s.cake).max();
    // The runner-up on subjects: among those level on cake with the winners.
    let next_subjects = others
        .iter()
        .filter(|s| s.cake == best.cake)
        .map(|s| s.lab)
        .max();
    let (margin, rule) = match (end.tiebreak, next_cake, next_subjects) {
        (0, Some(next), _) => (
            key("margin_cake").arg("best", best.cake).arg("next", next),
            "rule_cake",
        ),
        (1, _, Some(next)) => (
            key("margin_subjects")
                .arg("cake", best.cake)
                .arg("best", best.lab)
                .arg("next", next),
            "rule_subjects",
        ),
        _ => (
            key("margin_tied")
                .arg("cake", best.cake)
                .arg("subjects", best.lab),
            if end.winners.len() == 1 {
                "rule_vote"
            } else {
                "rule_shared"
            },
        ),
    };
    Status::Over {
        headline,
        detail: format!("{} · {}", t(ctx, margin), t(ctx, key(rule))),
        colour: (end.winners.len() == 1).then(|| seat_colour(best.colour)),
    }
}

/// The key to the board's marks, in the frame's footer.
fn legend(ctx: &RenderCtx) -> Vec<LegendEntry<'static>> {
    let l = |k: &str| t(ctx, key(&format!("legend_{k}")));
    let mut entries: Vec<LegendEntry<'static>> = Vec::new();
    for (k, i) in [
        ("subject", Icon::Subject),
        ("cake", Icon::Cake),
        ("card", Icon::Card),
        ("cube", Icon::Cube),
        ("turret", Icon::Turret),
    ] {
        entries.push(LegendEntry::new(l(k), move |img, c| icon(img, c, 24.0, i)));
    }
    let (b, r) = (letter(ctx, "blue"), letter(ctx, "red"));
    entries.push(LegendEntry::new(l("pawn"), move |img, c| {
        token(img, c, 11.0, seat_colour("blue"), b)
    }));
    entries.push(LegendEntry::new(l("wedge"), move |img, c| {
        wedge(img, c, 24.0, seat_colour("red"), r)
    }));
    entries.push(LegendEntry::new(l("portal"), |img, c| {
        portal_mark(img, c, 11.0)
    }));
    entries.push(LegendEntry::new(l("turret_piece"), |img, c| {
        turret_mark(img, Pt::new(c.x, c.y - 5.0), 10.0)
    }));
    entries.push(LegendEntry::new(l("cube_piece"), |img, c| {
        cube_mark(img, c, 11.0)
    }));
    entries.push(LegendEntry::new(l("glados"), |img, c| {
        glados_mark(img, c, 11.0)
    }));
    for (k, colour) in [("new", NEW_EDGE), ("old", OLD_EDGE)] {
        entries.push(LegendEntry::new(l(k), move |img, c| {
            let half = Pt::new(14.0, 10.0);
            rounded_rect(img, c - half, c + half, 4.0, WHITE, Some((colour, 4.0)));
        }));
    }
    entries.push(LegendEntry::new(l("locked"), |img, c| {
        lock_mark(img, c, 18.0)
    }));
    // The marks of the last decision, drawn as on the board.
    entries.push(LegendEntry::new(l("touched"), |img, c| {
        let mut ring = hex_points(c, 13.0);
        ring.push(ring[0]);
        dashed_polyline(img, &ring, 2.5, 6.0, 4.0, ALERT);
    }));
    entries.push(LegendEntry::new(l("last_move"), |img, c| {
        let (tail, tip) = (Pt::new(c.x - 14.0, c.y), Pt::new(c.x + 15.0, c.y));
        thick_line(img, tail, tip - Pt::new(9.0, 0.0), 4.0, ALERT);
        arrow_head(img, tip, Pt::new(1.0, 0.0), 12.0, ALERT);
    }));
    entries
}

/// The private image: the seat's cards, both sides side by side.
pub fn render_private(view: &PrivateView, ctx: &RenderCtx) -> RgbaImage {
    let rows = view.hand.len().max(1);
    let height = 90 + 170 * u32::try_from(rows).unwrap_or(1) + 60;
    let mut img = crate::render::canvas(900, height, PAPER);
    let col = seat_colour(view.colour);
    token(
        &mut img,
        Pt::new(30.0, 34.0),
        16.0,
        col,
        letter(ctx, view.colour),
    );
    let who = Text::new("portal.team").arg("seat", view.seat).arg(
        "colour",
        Text::new(format!("portal.colour.{}", view.colour)),
    );
    let title = t(
        ctx,
        Text::new("portal.render.private_title").arg("team", who),
    );
    draw_text(
        &mut img,
        &Style::new(Weight::Bold, 26.0, INK),
        56.0,
        18.0,
        Align::Left,
        &title,
    );
    if view.hand.is_empty() {
        draw_text(
            &mut img,
            &Style::new(Weight::Regular, 20.0, INK_DIM),
            30.0,
            100.0,
            Align::Left,
            &t(ctx, Text::new("portal.render.no_cards")),
        );
    }
    let body = Style::new(Weight::Regular, 17.0, INK);
    for (i, h) in view.hand.iter().enumerate() {
        let top = 80.0 + i as f32 * 170.0;
        for (side, (label, part, bg)) in [
            ("portal.render.aperture", "aperture", rgb(0xDCE9F7)),
            ("portal.render.character_side", "character", rgb(0xF7E6D6)),
        ]
        .into_iter()
        .enumerate()
        {
            let x = 20.0 + side as f32 * 435.0;
            rounded_rect(
                &mut img,
                Pt::new(x, top),
                Pt::new(x + 425.0, top + 158.0),
                12.0,
                bg,
                Some((
                    if h.fresh { ALERT } else { INK_DIM },
                    if h.fresh { 4.0 } else { 2.0 },
                )),
            );
            let name = t(ctx, card_key(h.card, "name"));
            let head = format!(
                "{}{} · {}",
                if h.fresh { "★ " } else { "" },
                name,
                t(ctx, Text::new(label))
            );
            draw_text(
                &mut img,
                &Style::new(Weight::Bold, 20.0, INK),
                x + 14.0,
                top + 12.0,
                Align::Left,
                &fit(Weight::Bold, 20.0, &head, 400.0),
            );
            let mut y = top + 46.0;
            for line in wrap(
                Weight::Regular,
                17.0,
                &t(ctx, card_key(h.card, part)),
                395.0,
            )
            .into_iter()
            .take(5)
            {
                draw_text(&mut img, &body, x + 14.0, y, Align::Left, &line);
                y += 21.0;
            }
        }
    }
    let mut y = height as f32 - 48.0;
    if let Some(v) = view.vote {
        let vote = match v {
            Some(s) => Text::new("portal.team")
                .arg("seat", s)
                .arg("colour", Text::raw("")),
            None => Text::new("portal.render.abstained"),
        };
        draw_text(
            &mut img,
            &body,
            20.0,
            y,
            Align::Left,
            &t(ctx, Text::new("portal.render.your_vote").arg("vote", vote)),
        );
        y -= 24.0;
    }
    if view.hand.iter().any(|h| h.fresh) {
        draw_text(
            &mut img,
            &Style::new(Weight::Regular, 15.0, INK_DIM),
            20.0,
            y + 24.0,
            Align::Left,
            &format!("★ {}", t(ctx, Text::new("portal.render.fresh"))),
        );
    }
    img
}

// ---- zoom (phones) ----------------------------------------------------------------------

/// Where the game stands first: the header (whose turn or who won, every team's cake) and the
/// table's two columns (who decides and what, the last move, the deck and the
/// character). Then the Lab in two halves that overlap by a chamber, so every chamber is whole
/// in one of them, and the teams' cards, the viewer's first, two to a row where they fit. All
/// in the composed image's pixels: the board sits under the header.
pub fn zoom_regions(view: &PublicView, ctx: &RenderCtx, viewer: Option<Seat>) -> Vec<zoom::Region> {
    let l = Layout::of(view, ctx);
    let frame = board_frame(view, ctx);
    let head = frame::header_height(&frame, WIDTH) as f32;
    let (width, half) = (WIDTH as f32, WIDTH as f32 / 2.0);
    let max = zoom::MAX_WIDTH as f32;
    let (table_top, table_h) = (head + l.table_y - 6.0, l.height as f32 - l.table_y + 6.0);
    let status = frame::zoom_header(&frame, WIDTH, ctx.zoom_text("status"))
        .below(0.0, table_top, half, table_h)
        .below(half, table_top, half, table_h);
    // The Lab's halves meet at its middle; each reaches one chamber's width past it, the
    // left one from the floors' names when that stays narrow enough.
    let geo = &l.geo;
    let xs = view.chambers.iter().map(|x| geo.centre(x.floor, x.c).x);
    let (left, right) = xs.fold((f32::MAX, 0.0f32), |(a, b), x| (a.min(x), b.max(x)));
    let middle = if left <= right {
        (left + right) / 2.0
    } else {
        half
    };
    let lab_h = geo.bottom() + 8.0;
    let left_end = (middle + geo.w / 2.0).min(width);
    let left_start = (left_end - max).max(0.0);
    let right_start = (middle - geo.w / 2.0).max(0.0);
    let mut parts = vec![
        status,
        zoom::Region::new(
            ctx.zoom_text("board_left"),
            left_start,
            head,
            left_end - left_start,
            lab_h,
        ),
        zoom::Region::new(
            ctx.zoom_text("board_right"),
            right_start,
            head,
            (width - right_start).min(max),
            lab_h,
        ),
    ];
    let n = view.seats.len();
    let mut order: Vec<usize> = (0..n).collect();
    if let Some(me) = viewer.filter(|s| s.index() < n) {
        order.retain(|&i| i != me.index());
        order.insert(0, me.index());
    }
    // Each card with 4 px around it; pieces in a row stand 8 px apart.
    let per_row = ((max + 8.0) / (l.card_w + 16.0)).floor().max(1.0) as usize;
    let mut cards: Option<zoom::Region> = None;
    for (k, &i) in order.iter().enumerate() {
        let [x, y, w, h] = l.card(i);
        let piece = (x - 4.0, head + y - 4.0, w + 8.0, h + 8.0);
        cards = Some(match cards {
            None => zoom::Region::new(
                t(ctx, key("zoom_teams")),
                piece.0,
                piece.1,
                piece.2,
                piece.3,
            ),
            Some(r) if k % per_row == 0 => r.below(piece.0, piece.1, piece.2, piece.3),
            Some(r) => r.and(piece.0, piece.1, piece.2, piece.3),
        });
    }
    parts.extend(cards);
    parts
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Game, GameOptions, Present};
    use crate::games::portal::Portal;
    use crate::i18n::Lang;

    fn ctx(lang: Lang) -> RenderCtx {
        RenderCtx {
            lang,
            names: ["Ann", "Bob", "Cleo", "Dev"].map(String::from).to_vec(),
            stopped: false,
            number: None,
        }
    }

    fn setup(seats: usize) -> PublicView {
        let g = <Portal as Game>::setup(&GameOptions::new(), seats, 7).expect("setup");
        <Portal as Present>::public_view(&g)
    }

    /// Pieces carry their colour's initial in the board's language (issue 38).
    #[test]
    fn colour_letters_follow_the_language() {
        let letters = |lang| {
            ["blue", "red", "yellow", "green"]
                .map(|c| letter(&ctx(lang), c))
                .iter()
                .collect::<String>()
        };
        assert_eq!(letters(Lang::En), "BRYG");
        assert_eq!(letters(Lang::Fr), "BRJV");
    }

    /// Issue 38: the Lab uses the board's width (its chambers as wide as the longest floor
    /// allows, or as wide as a chamber gets), and the board is the Lab, the cards and the table
    /// with no empty band.
    #[test]
    fn the_lab_spans_the_board() {
        for seats in 2..=4 {
            let v = setup(seats);
            let geo = Geo::new(&v);
            let (mut left, mut right) = (f32::MAX, 0.0f32);
            for x in &v.chambers {
                let c = geo.centre(x.floor, x.c);
                left = left.min(c.x - geo.w / 2.0);
                right = right.max(c.x + geo.w / 2.0);
            }
            let usable = WIDTH as f32 - LAB_LEFT - LAB_RIGHT;
            assert!(left >= LAB_LEFT - 0.5 && right <= WIDTH as f32 - LAB_RIGHT + 0.5);
            assert!(
                right - left >= usable - 1.0 || geo.w == MAX_HEX_W,
                "{seats} seats: the Lab takes {left}..{right}"
            );
            let l = Layout::of(&v, &ctx(Lang::En));
            assert!(l.cards_y < geo.bottom() + 20.0);
            assert!(l.table_y < l.cards_y + l.card_h + 20.0);
            let c = l.card(seats - 1);
            assert!((c[0] + c[2] - (WIDTH as f32 - MARGIN)).abs() < 0.5);
        }
    }

    fn over(end: EndView, cake: [u32; 3], lab: [u32; 3]) -> (String, String) {
        let mut v = setup(3);
        for (i, s) in v.seats.iter_mut().enumerate() {
            s.cake = cake[i];
            s.lab = lab[i];
        }
        v.to_act = None;
        v.end = Some(end);
        let f = board_frame(&v, &ctx(Lang::En));
        let Status::Over {
            headline, detail, ..
        } = f.status
        else {
            panic!("not over: {:?}", f.status);
        };
        assert!(f.seats.iter().all(|c| !c.turn));
        (headline, detail)
    }

    fn end(winners: &[u8], tiebreak: u8) -> EndView {
        EndView {
            reason: Text::raw("over"),
            winners: winners.iter().map(|&s| Seat(s)).collect(),
            tiebreak,
        }
    }

    /// Issue 38: the final board says who won, by how much and why, the rule by name.
    #[test]
    fn the_end_says_who_won_by_how_much_and_why() {
        assert_eq!(
            over(end(&[0], 0), [3, 2, 1], [4, 6, 2]),
            (
                "Ann wins".into(),
                "3 to 2 in cake · the most cake in the Lab wins".into()
            )
        );
        assert_eq!(
            over(end(&[1], 1), [3, 3, 1], [1, 4, 6]).1,
            "3 each in cake, then 4 to 1 in subjects · a tie on cake goes to the most subjects in the Lab"
        );
        let (h, d) = over(end(&[0, 1], 2), [3, 3, 1], [4, 4, 2]);
        assert_eq!(h, "Ann, Bob win");
        assert_eq!(
            d,
            "3 in cake and 4 subjects each · still tied after subjects, so the win is shared"
        );
        assert_eq!(
            over(end(&[2], 2), [1, 1, 1], [1, 1, 1]).1,
            "1 in cake and 1 subject each · still tied after subjects, so the other teams voted"
        );
    }

    /// In a vote the voter decides: its chip is framed and the pill names it, while the
    /// subtitle says whose turn it is (issue 38: the vote board frames the voter).
    #[test]
    fn the_voter_is_framed_not_the_team_whose_turn_it_is() {
        let mut v = setup(3);
        v.active = Seat(0);
        v.to_act = Some(Seat(2));
        let f = board_frame(&v, &ctx(Lang::En));
        let framed: Vec<bool> = f.seats.iter().map(|c| c.turn).collect();
        assert_eq!(framed, [false, false, true]);
        match &f.status {
            Status::Turn { seat, text } => {
                assert_eq!((*seat, text.as_str()), (2, "Waiting for Cleo (yellow)"));
            }
            other => panic!("{other:?}"),
        }
        assert!(f.subtitle.ends_with("Ann (blue) to play"), "{}", f.subtitle);
    }
}
