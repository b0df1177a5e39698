//! Public and private images (spec section 11), drawn only from the views. Every chamber
//! prints its name; pieces carry colour letters (their names' initials in the board's
//! language: B R Y G, B R J V) and reward icons their codes (S C A Q T), so colour is never
//! the only clue.

use image::{Rgba, RgbaImage};

use super::moves::Icon;
use super::state::{Card, Floor};
use super::view::{ChamberView, HandView, PrivateView, PublicView};
use crate::engine::{RenderCtx, Seat};
use crate::i18n::Text;
use crate::render::palette::{self, ink_on, mix, rgb, ALERT, INK, INK_DIM, PAPER, WHITE};
use crate::render::panel::{fit, legend, token, LegendEntry};
use crate::render::shapes::{
    arrow_head, dashed_polyline, fill_convex, fill_disc, fill_polygon, fill_rect, ring,
    rounded_rect, thick_line, Pt,
};
use crate::render::text::{draw_text, draw_text_centred, text_width, wrap, Align, Style, Weight};
use crate::render::zoom;

pub const WIDTH: u32 = 1600;
pub const HEIGHT: u32 = 890;
const LAB_W: f32 = 1150.0;
const LAB_LEFT: f32 = 70.0;
const LAB_TOP: f32 = 120.0;
const LAB_BOTTOM: f32 = 690.0;
/// The top of the end-of-game banner, at the Lab's foot.
const BANNER_TOP: f32 = 590.0;
const SIDE_X: f32 = 1165.0;
const LEGEND_TOP: f32 = 730.0;

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

/// Hex geometry of spec 4.8, fitted to the Lab area.
struct Geo {
    w: f32,
    h: f32,
    max_c: f32,
    top: f32,
}

impl Geo {
    fn new(view: &PublicView) -> Geo {
        let cs = view.chambers.iter().map(|c| f32::from(c.c));
        let max_c = cs.clone().fold(0.0, f32::max);
        let min_c = cs.fold(f32::MAX, f32::min).min(max_c);
        let usable = LAB_W - LAB_LEFT - 20.0;
        let by_width = usable / ((max_c - min_c) / 2.0 + 1.0);
        // Once over, the result banner takes the Lab's foot: the floors keep clear of it.
        let bottom = if view.end.is_some() {
            BANNER_TOP - 10.0
        } else {
            LAB_BOTTOM
        };
        let by_height = (bottom - LAB_TOP) / 2.5 * 3f32.sqrt() / 2.0;
        let w = by_width.min(by_height).min(200.0);
        let h = 2.0 * w / 3f32.sqrt();
        let top = LAB_TOP + ((bottom - LAB_TOP) - 2.5 * h) / 2.0;
        Geo { w, h, max_c, top }
    }

    fn centre(&self, floor: Floor, c: u16) -> Pt {
        Pt::new(
            LAB_LEFT + (self.max_c - f32::from(c)) * self.w / 2.0 + self.w / 2.0,
            self.top + self.h / 2.0 + floor.index() as f32 * 0.75 * self.h,
        )
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
    let k = (geo.w / 160.0).clamp(0.45, 1.25);
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
    let k = (geo.w / 160.0).clamp(0.45, 1.25);
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
    let count_style = Style::new(Weight::Bold, 17.0 * k, INK);
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
        let y = c.y + r * 0.12 - 5.0 * k + row * 30.0 * k;
        let m = items.len() as f32;
        // Four seats' pieces keep inside the border: the first token's left half and the last
        // count's width must fit too.
        let cell = (46.0 * k).min((2.0 * inside - 4.0 - 34.0 * k) / (m - 1.0).max(1.0));
        for (j, &(s, cnt)) in items.iter().enumerate() {
            let cx = c.x + (j as f32 - (m - 1.0) / 2.0) * cell - 8.0 * k;
            let name = view.seats.get(s).map_or("blue", |v| v.colour);
            let col = seat_colour(name);
            if is_cake {
                wedge(img, Pt::new(cx, y), 24.0 * k, col, letter(ctx, name));
            } else {
                token(img, Pt::new(cx, y), 11.0 * k, col, letter(ctx, name));
            }
            draw_text(
                img,
                &count_style,
                cx + 13.0 * k,
                y - 9.0 * k,
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
        f(img, Pt::new(cx, c.y + r * 0.68), 11.0 * k);
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

fn side_line(img: &mut RgbaImage, y: &mut f32, style: &Style, text: &str, width: f32) {
    for line in wrap(style.weight, style.size, text, width) {
        draw_text(img, style, SIDE_X, *y, Align::Left, &line);
        *y += style.size * 1.25;
    }
}

/// The public board image.
pub fn render_public(view: &PublicView, ctx: &RenderCtx) -> RgbaImage {
    let mut img = crate::render::canvas(WIDTH, HEIGHT, BG);
    let geo = Geo::new(view);
    // Header over the Lab.
    let h1 = Style::new(Weight::Bold, 30.0, INK);
    let title = t(
        ctx,
        Text::new("portal.render.title").arg("round", u32::from(view.round)),
    );
    draw_text(&mut img, &h1, 20.0, 16.0, Align::Left, &title);
    let sub = Style::new(Weight::Bold, 20.0, INK_DIM);
    draw_text(
        &mut img,
        &sub,
        LAB_LEFT,
        70.0,
        Align::Left,
        &t(ctx, Text::new("portal.render.conveyor")),
    );
    draw_text(
        &mut img,
        &sub,
        LAB_W - 20.0,
        70.0,
        Align::Right,
        &t(ctx, Text::new("portal.render.old_edge")),
    );
    // Floor labels, in the room left of the floor's first chamber (smaller when a long
    // floor leaves little: "milieu" beside seven chambers).
    for f in Floor::ALL {
        let y = geo.top + geo.h / 2.0 + f.index() as f32 * 0.75 * geo.h - 12.0;
        let first = view
            .chambers
            .iter()
            .filter(|x| x.floor == f)
            .map(|x| geo.centre(x.floor, x.c).x - geo.w / 2.0)
            .fold(LAB_W, f32::min);
        let room = first - 12.0 - 6.0;
        let label = t(ctx, Text::new(format!("portal.floor.{}", f.name())));
        let size =
            (20.0 * room / text_width(Weight::Bold, 20.0, &label).max(1.0)).clamp(12.0, 20.0);
        let label = fit(Weight::Bold, size, &label, room.max(20.0));
        let fl = Style::new(Weight::Bold, size, INK);
        draw_text(
            &mut img,
            &fl,
            12.0,
            y + (20.0 - size) / 2.0,
            Align::Left,
            &label,
        );
    }
    for x in &view.chambers {
        draw_chamber_ground(&mut img, x, geo.centre(x.floor, x.c), &geo);
    }
    if let Some((a, b)) = &view.last_move {
        let find = |id: &str| {
            view.chambers
                .iter()
                .find(|c| c.id == *id)
                .map(|c| geo.centre(c.floor, c.c))
        };
        if let (Some(pa), Some(pb)) = (find(a), find(b)) {
            let dir = (pb - pa).unit();
            let from = pa + dir.scale(geo.w * 0.25);
            let to = pb - dir.scale(geo.w * 0.25);
            thick_line(&mut img, from, to, 5.0, ALERT);
            arrow_head(&mut img, to, dir, 18.0, ALERT);
        }
    }
    for x in &view.chambers {
        let c = geo.centre(x.floor, x.c);
        draw_chamber(&mut img, view, x, c, &geo, ctx);
    }
    if let Some(l) = &view.lifted {
        let c = Pt::new(LAB_W - 110.0, 60.0);
        let label = t(
            ctx,
            Text::new("portal.render.lifted").arg("id", l.id.clone()),
        );
        draw_text(
            &mut img,
            &Style::new(Weight::Bold, 18.0, OLD_EDGE),
            c.x - 120.0,
            8.0,
            Align::Left,
            &label,
        );
        for (i, ic) in l.icons.iter().enumerate() {
            icon(
                &mut img,
                Pt::new(c.x - 100.0 + i as f32 * 30.0, c.y + 2.0),
                26.0,
                *ic,
            );
        }
    }
    draw_legend(&mut img, ctx);
    draw_side(&mut img, view, ctx);
    if let Some(end) = &view.end {
        let w: Vec<Text> = end.winners.iter().map(|&s| team(view, s)).collect();
        let line1 = t(
            ctx,
            Text::new("portal.render.winners")
                .arg("count", w.len() as i64)
                .arg("winners", w),
        );
        let tb = match end.tiebreak {
            0 => "portal.render.tiebreak_cake",
            1 => "portal.render.tiebreak_subjects",
            _ => "portal.render.tiebreak_shared",
        };
        let line2 = format!("{} · {}", t(ctx, end.reason.clone()), t(ctx, Text::new(tb)));
        rounded_rect(
            &mut img,
            Pt::new(60.0, BANNER_TOP),
            Pt::new(1110.0, LAB_BOTTOM),
            14.0,
            INK,
            Some((ALERT, 4.0)),
        );
        draw_text(
            &mut img,
            &Style::new(Weight::Bold, 32.0, WHITE),
            585.0,
            600.0,
            Align::Centre,
            &fit(Weight::Bold, 32.0, &line1, 1000.0),
        );
        draw_text(
            &mut img,
            &Style::new(Weight::Regular, 20.0, WHITE),
            585.0,
            646.0,
            Align::Centre,
            &fit(Weight::Regular, 20.0, &line2, 1000.0),
        );
    }
    img
}

fn draw_legend(img: &mut RgbaImage, ctx: &RenderCtx) {
    let l = |k: &str| t(ctx, Text::new(format!("portal.render.legend_{k}")));
    let mut entries: Vec<LegendEntry<'_>> = Vec::new();
    for (k, i) in [
        ("subject", Icon::Subject),
        ("cake", Icon::Cake),
        ("card", Icon::Card),
        ("cube", Icon::Cube),
        ("turret", Icon::Turret),
    ] {
        entries.push(LegendEntry::new(l(k), move |img, c| icon(img, c, 24.0, i)));
    }
    entries.push(LegendEntry::new(l("pawn"), |img, c| {
        token(img, c, 11.0, seat_colour("blue"), 'B')
    }));
    entries.push(LegendEntry::new(l("wedge"), |img, c| {
        wedge(img, c, 24.0, seat_colour("red"), 'R')
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
    for (key, colour) in [("new", NEW_EDGE), ("old", OLD_EDGE)] {
        entries.push(LegendEntry::new(l(key), move |img, c| {
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
    legend(img, 20.0, LEGEND_TOP, 1120.0, &l("title"), 6, &entries);
}

fn draw_side(img: &mut RgbaImage, view: &PublicView, ctx: &RenderCtx) {
    fill_rect(img, 1150, 0, 450, i64::from(HEIGHT), PAPER);
    let width = 420.0;
    let mut y = 16.0;
    let bold = Style::new(Weight::Bold, 22.0, INK);
    let reg = Style::new(Weight::Regular, 17.0, INK);
    let dim = Style::new(Weight::Regular, 16.0, INK_DIM);
    if view.end.is_none() {
        side_line(
            img,
            &mut y,
            &bold,
            &t(
                ctx,
                Text::new("portal.render.turn").arg("team", team(view, view.active)),
            ),
            width,
        );
        if let Some(s) = view.to_act {
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
            side_line(img, &mut y, &reg, &line, width);
        }
    }
    y += 6.0;
    for (i, s) in view.seats.iter().enumerate() {
        let seat = Seat::at(i);
        let top = y;
        // Framed: the team that decides now (in a vote, the voter, not the team whose turn
        // it is; issue 38).
        let active = view.to_act == Some(seat) && view.end.is_none() && !ctx.stopped;
        rounded_rect(
            img,
            Pt::new(SIDE_X - 8.0, top),
            Pt::new(SIDE_X + width, top + 96.0),
            10.0,
            WHITE,
            Some((
                if active {
                    ALERT
                } else {
                    mix(INK_DIM, WHITE, 0.6)
                },
                if active { 4.0 } else { 2.0 },
            )),
        );
        let col = seat_colour(s.colour);
        token(
            img,
            Pt::new(SIDE_X + 18.0, top + 24.0),
            14.0,
            col,
            letter(ctx, s.colour),
        );
        let name = fit(Weight::Bold, 19.0, &t(ctx, team(view, seat)), 250.0);
        draw_text(
            img,
            &Style::new(Weight::Bold, 19.0, INK),
            SIDE_X + 40.0,
            top + 10.0,
            Align::Left,
            &name,
        );
        // The score: cake in the Lab.
        wedge(
            img,
            Pt::new(SIDE_X + width - 70.0, top + 26.0),
            26.0,
            col,
            letter(ctx, s.colour),
        );
        draw_text(
            img,
            &Style::new(Weight::Bold, 30.0, INK),
            SIDE_X + width - 50.0,
            top + 8.0,
            Align::Left,
            &s.cake.to_string(),
        );
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
        draw_text(
            img,
            &dim,
            SIDE_X + 4.0,
            top + 42.0,
            Align::Left,
            &format!("{lab} · {cs}"),
        );
        // Incinerator bar.
        let inc = t(
            ctx,
            Text::new("portal.render.incinerated").arg("n", u32::from(s.incinerated)),
        );
        draw_text(img, &dim, SIDE_X + 4.0, top + 68.0, Align::Left, &inc);
        let bx = SIDE_X + 120.0;
        rounded_rect(
            img,
            Pt::new(bx, top + 70.0),
            Pt::new(bx + 96.0, top + 86.0),
            4.0,
            mix(INK_DIM, WHITE, 0.8),
            None,
        );
        let fillw = 96.0 * f32::from(s.incinerated.min(8)) / 8.0;
        if fillw > 0.0 {
            rounded_rect(
                img,
                Pt::new(bx, top + 70.0),
                Pt::new(bx + fillw, top + 86.0),
                4.0,
                OLD_EDGE,
                None,
            );
        }
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
        let hand = if s.voted { format!("{hand} ✔") } else { hand };
        draw_text(
            img,
            &Style::new(Weight::Regular, 15.0, INK),
            SIDE_X + 226.0,
            top + 68.0,
            Align::Left,
            &fit(Weight::Regular, 15.0, &hand, 190.0),
        );
        y = top + 104.0;
    }
    y += 4.0;
    let deck = match view.deck_top {
        Some(c) => t(
            ctx,
            Text::new("portal.render.deck")
                .arg("n", u32::from(view.deck_size))
                .arg("card", card_key(c, "name")),
        ),
        None => t(ctx, Text::new("portal.render.deck_none")),
    };
    side_line(
        img,
        &mut y,
        &Style::new(Weight::Bold, 18.0, INK),
        &deck,
        width,
    );
    if let Some(c) = view.deck_top {
        side_line(img, &mut y, &dim, &t(ctx, card_key(c, "aperture")), width);
    }
    y += 4.0;
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
    side_line(
        img,
        &mut y,
        &Style::new(Weight::Bold, 18.0, INK),
        &character,
        width,
    );
    if let (Some(c), true) = (view.character, view.characters_on) {
        side_line(img, &mut y, &dim, &t(ctx, card_key(c, "character")), width);
    }
    y += 4.0;
    let off = t(ctx, Text::new("portal.render.off_lab"));
    let where_ = |o: &Option<String>| o.clone().unwrap_or_else(|| off.clone());
    let line = format!(
        "{} · {} · {}",
        t(
            ctx,
            Text::new("portal.render.discard").arg("n", view.discard.len())
        ),
        t(
            ctx,
            Text::new("portal.render.turret_at").arg("at", where_(&view.turret))
        ),
        t(
            ctx,
            Text::new("portal.render.cube_at").arg("at", where_(&view.cube))
        ),
    );
    side_line(img, &mut y, &reg, &line, width);
    if !view.pending.is_empty() {
        let codes: Vec<String> = view.pending.iter().map(|i| i.code().to_string()).collect();
        side_line(
            img,
            &mut y,
            &Style::new(Weight::Bold, 18.0, ALERT),
            &t(
                ctx,
                Text::new("portal.render.pending").arg("icons", codes.join(" ")),
            ),
            width,
        );
    }
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

/// The side panel (whose turn, every team's Lab and cake, the deck and character), then the
/// Lab in two halves that overlap by one chamber, so every chamber is whole in one of them.
pub fn zoom_regions(
    view: &PublicView,
    ctx: &RenderCtx,
    _viewer: Option<Seat>,
) -> Vec<zoom::Region> {
    let geo = Geo::new(view);
    let xs = view.chambers.iter().map(|x| geo.centre(x.floor, x.c).x);
    let (left, right) = xs.fold((f32::MAX, 0.0f32), |(l, r), x| (l.min(x), r.max(x)));
    let (left, right) = if left <= right {
        (left - geo.w / 2.0, right + geo.w / 2.0)
    } else {
        (LAB_LEFT, LAB_W)
    };
    // Halves meet at the Lab's middle; each reaches one chamber's width past it. The title is
    // on the left; the right half starts at its "old edge" label.
    const RIGHT_TOP: f32 = 60.0;
    let middle = (left + right) / 2.0;
    let bottom = LEGEND_TOP - 10.0;
    let status = ctx.zoom_text("status");
    vec![
        zoom::Region::new(status, LAB_W, 0.0, WIDTH as f32 - LAB_W, bottom),
        zoom::Region::new(
            ctx.zoom_text("board_left"),
            0.0,
            0.0,
            middle + geo.w / 2.0,
            bottom,
        ),
        zoom::Region::new(
            ctx.zoom_text("board_right"),
            middle - geo.w / 2.0,
            RIGHT_TOP,
            LAB_W - (middle - geo.w / 2.0),
            bottom - RIGHT_TOP,
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::Lang;

    /// Pieces carry their colour's initial in the board's language (issue 38).
    #[test]
    fn colour_letters_follow_the_language() {
        let ctx = |lang| RenderCtx {
            lang,
            names: Vec::new(),
            stopped: false,
            number: None,
        };
        let letters = |lang| {
            ["blue", "red", "yellow", "green"]
                .map(|c| letter(&ctx(lang), c))
                .iter()
                .collect::<String>()
        };
        assert_eq!(letters(Lang::En), "BRYG");
        assert_eq!(letters(Lang::Fr), "BRJV");
    }
}
