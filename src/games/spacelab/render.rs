//! The Space Lab images (spec section 11). The public board, between the common header (name,
//! turn or result, seats with their scores) and footer (the legend) of `render::frame`: a
//! supply strip (Lab deck, discard, Recruitment Centre, reveal area, Project
//! deck, Validation piles) or the final score table, every station as a 7 × 3 grid around its
//! three capsules. The private image: one seat's hand drawn as full cards and
//! its Projects with their current value. Agencies are told apart by letter as well as colour,
//! specialties by a letter in a circle. Drawn only from the views; every label is localized.

use image::{Rgba, RgbaImage};

use super::cards::LabEffect;
use super::state::{Agency, LastTurn, Row};
use super::view::{
    bottom_short, card_name, effect_long, effect_short, project_name, scoring_text, CardView,
    FinalView, ObjectiveView, PrivateView, PublicView, StationView, TileView,
};
use crate::engine::{RenderCtx, Seat};
use crate::i18n::Text;
use crate::render::frame::{self, Frame, SeatChip, Status};
use crate::render::palette::{
    ink_on, mix, rgb, seat_letters, ALERT, INK, INK_DIM, PAPER, SEAT_COLOURS, WHITE,
};
use crate::render::panel::{fit, fit_size, token, LegendEntry};
use crate::render::shapes::{fill_convex, fill_disc, ring, rounded_rect, Pt};
use crate::render::text::{draw_text, draw_text_centred, text_width, wrap, Align, Style, Weight};
use crate::render::zoom::Region;

pub const WIDTH: u32 = 1328;
/// The board's top margin (the title and turn are the frame's).
const HEADER_H: f32 = 6.0;
const SUPPLY_H: f32 = 190.0;

/// The height of the band under the header: the supply, or once the game is over the final
/// table, grown to hold a row per seat (four rows do not fit the supply's height).
fn top_h(v: &PublicView) -> f32 {
    match &v.finals {
        Some(f) => SUPPLY_H.max(FINAL_ROW_Y + f.len() as f32 * FINAL_ROW_H + 8.0),
        None => SUPPLY_H,
    }
}

/// The final table's first row, below its column heads, and a row's height.
const FINAL_ROW_Y: f32 = 38.0;
const FINAL_ROW_H: f32 = 40.0;
const STATION_W: f32 = 650.0;
const STATION_H: f32 = 338.0;
const CELL_W: f32 = 88.0;
const CELL_H: f32 = 92.0;
const BG: Rgba<u8> = rgb(0x1F2433);
/// Secondary text on the dark background (the hand image is as dark as the board).
const HAND_DIM: Rgba<u8> = frame::BAND_DIM;

pub fn agency_colour(a: Agency) -> Rgba<u8> {
    match a {
        Agency::Red => rgb(0xD8433B),
        Agency::Blue => rgb(0x2F6FD6),
        Agency::Green => rgb(0x2E9E4F),
        Agency::Gold => rgb(0xD9A521),
    }
}

fn capsule_colour(name: &str) -> Rgba<u8> {
    match name {
        "yellow" => rgb(0xF3D54E),
        "violet" => rgb(0xA57FDB),
        "pink" => rgb(0xF09BC4),
        _ => rgb(0xCCCCCC),
    }
}

fn tr(ctx: &RenderCtx, key: &str) -> String {
    Text::new(format!("spacelab.img.{key}")).render(ctx.lang)
}

fn trw(ctx: &RenderCtx, key: &str, args: &[(&str, String)]) -> String {
    let mut t = Text::new(format!("spacelab.img.{key}"));
    for (k, v) in args {
        t = t.arg(k, v.clone());
    }
    t.render(ctx.lang)
}

fn text(img: &mut RgbaImage, weight: Weight, size: f32, colour: Rgba<u8>, x: f32, y: f32, s: &str) {
    draw_text(img, &Style::new(weight, size, colour), x, y, Align::Left, s);
}

fn text_c(
    img: &mut RgbaImage,
    weight: Weight,
    size: f32,
    colour: Rgba<u8>,
    x: f32,
    y: f32,
    s: &str,
) {
    draw_text(
        img,
        &Style::new(weight, size, colour),
        x,
        y,
        Align::Centre,
        s,
    );
}

fn rect(
    img: &mut RgbaImage,
    (x, y, w, h): (f32, f32, f32, f32),
    r: f32,
    fill: Rgba<u8>,
    line: Option<(Rgba<u8>, f32)>,
) {
    rounded_rect(img, Pt::new(x, y), Pt::new(x + w, y + h), r, fill, line);
}

/// A box in a capsule's colour with its id (`c1`...) in the corner: capsule cells and piles.
/// A tile dealt but not yet put on a capsule sits in a grey box marked `?`.
fn capsule_box(img: &mut RgbaImage, b: (f32, f32, f32, f32), r: f32, colour: &str, index: usize) {
    rect(img, b, r, capsule_colour(colour), Some((INK, 2.0)));
    let id = if colour == DEALT {
        "?".to_string()
    } else {
        format!("c{}", index + 1)
    };
    text(img, Weight::Bold, 14.0, INK, b.0 + 8.0, b.1 + 6.0, &id);
}

/// The "colour" of a capsule cell showing a dealt tile not yet arranged (grey, no capsule).
const DEALT: &str = "dealt";

/// A lightning bolt (the instant-gain mark), drawn as two triangles.
fn bolt(img: &mut RgbaImage, c: Pt, h: f32, colour: Rgba<u8>) {
    let s = h / 2.0;
    fill_convex(
        img,
        &[
            Pt::new(c.x + s * 0.35, c.y - s),
            Pt::new(c.x - s * 0.55, c.y + s * 0.15),
            Pt::new(c.x + s * 0.05, c.y + s * 0.15),
        ],
        colour,
    );
    fill_convex(
        img,
        &[
            Pt::new(c.x - s * 0.05, c.y - s * 0.15),
            Pt::new(c.x + s * 0.55, c.y - s * 0.15),
            Pt::new(c.x - s * 0.35, c.y + s),
        ],
        colour,
    );
}

/// A five-pointed star (bonus tile / drawn-this-turn mark): a pentagon and five spikes.
fn star(img: &mut RgbaImage, c: Pt, r: f32, colour: Rgba<u8>) {
    let pt = |k: f32, rad: f32| {
        let a = -std::f32::consts::FRAC_PI_2 + k * std::f32::consts::PI / 5.0;
        Pt::new(c.x + rad * a.cos(), c.y + rad * a.sin())
    };
    let inner = r * 0.42;
    let pent: Vec<Pt> = (0..5).map(|i| pt(2.0 * i as f32 + 1.0, inner)).collect();
    fill_convex(img, &pent, colour);
    for i in 0..5 {
        let k = 2.0 * i as f32;
        fill_convex(
            img,
            &[pt(k, r), pt(k + 1.0, inner), pt(k - 1.0, inner)],
            colour,
        );
    }
}

/// The specialty letter in a circle (so researcher `R` never reads as the red agency).
fn specialty_badge(img: &mut RgbaImage, c: Pt, r: f32, letter: &str) {
    fill_disc(img, c, r, WHITE);
    draw_text_centred(img, &Style::new(Weight::Bold, r * 1.2, INK), c, letter);
}

/// The cost in a dark square corner badge.
fn cost_badge(img: &mut RgbaImage, x: f32, y: f32, s: f32, cost: u8) {
    rect(img, (x, y, s, s), 4.0, INK, None);
    draw_text_centred(
        img,
        &Style::new(Weight::Bold, s * 0.75, WHITE),
        Pt::new(x + s / 2.0, y + s / 2.0),
        &cost.to_string(),
    );
}

/// A small card (Centre, discard, reveal area): agency letter, cost, specialty, ⚡.
fn mini_card(img: &mut RgbaImage, x: f32, y: f32, c: &CardView) {
    let (w, h) = (44.0, 58.0);
    let fill = agency_colour(c.agency);
    rect(img, (x, y, w, h), 5.0, fill, Some((INK, 1.5)));
    cost_badge(img, x + 2.0, y + 2.0, 16.0, c.cost);
    let ink = ink_on(fill);
    text(
        img,
        Weight::Bold,
        13.0,
        ink,
        x + 21.0,
        y + 3.0,
        c.agency.letter(),
    );
    specialty_badge(img, Pt::new(x + 13.0, y + 42.0), 9.0, c.specialty.letter());
    if c.effect.instant() {
        bolt(img, Pt::new(x + 33.0, y + 42.0), 18.0, WHITE);
        bolt(img, Pt::new(x + 33.0, y + 42.0), 14.0, INK);
    } else {
        let s = effect_short(&c.effect).render(Default::default());
        let short = s
            .split(|ch: char| !ch.is_ascii_digit())
            .next()
            .unwrap_or("");
        text_c(img, Weight::Bold, 14.0, ink, x + 34.0, y + 34.0, short);
    }
}

/// A card in a station slot: id, cost, agency letter, specialty, and its short effect.
fn slot_card(img: &mut RgbaImage, x: f32, y: f32, c: &CardView, ctx: &RenderCtx) {
    let fill = agency_colour(c.agency);
    rect(img, (x, y, CELL_W, CELL_H), 8.0, fill, None);
    let ink = ink_on(fill);
    cost_badge(img, x + 4.0, y + 4.0, 20.0, c.cost);
    text(img, Weight::Bold, 14.0, ink, x + 28.0, y + 6.0, &c.id);
    specialty_badge(img, Pt::new(x + 15.0, y + 38.0), 10.0, c.specialty.letter());
    let label = effect_short(&c.effect).render(ctx.lang);
    let lines = wrap(Weight::Bold, 12.0, &label, CELL_W - 10.0);
    let mut ly = y + 52.0;
    if c.effect.instant() {
        fill_disc(img, Pt::new(x + 16.0, ly + 9.0), 10.0, WHITE);
        bolt(img, Pt::new(x + 16.0, ly + 9.0), 15.0, INK);
        text(img, Weight::Bold, 16.0, ink, x + 30.0, ly, &label);
    } else {
        for l in lines.iter().take(3) {
            text(img, Weight::Bold, 12.0, ink, x + 5.0, ly, l);
            ly += 13.5;
        }
    }
}

fn need_pips(img: &mut RgbaImage, x: f32, y: f32, o: &ObjectiveView) -> f32 {
    let mut cx = x;
    for (i, (a, n)) in o.need.iter().enumerate() {
        if i > 0 {
            text(img, Weight::Bold, 14.0, INK, cx, y - 8.0, "+");
            cx += 10.0;
        }
        for _ in 0..*n {
            fill_disc(img, Pt::new(cx + 6.0, y), 6.0, agency_colour(*a));
            ring(img, Pt::new(cx + 6.0, y), 6.0, 1.2, INK);
            cx += 13.0;
        }
        text(img, Weight::Bold, 14.0, INK, cx, y - 8.0, a.letter());
        cx += if a.letter().len() > 1 { 19.0 } else { 11.0 };
    }
    cx - x
}

/// A capsule cell: colour, objective with its requirement, bottom effect, Validation tile.
fn capsule_cell(
    img: &mut RgbaImage,
    (x, y): (f32, f32),
    colour: &str,
    index: usize,
    obj: Option<&ObjectiveView>,
    tile: Option<&TileView>,
    ctx: &RenderCtx,
) {
    capsule_box(img, (x, y, CELL_W, CELL_H), 20.0, colour, index);
    let Some(o) = obj else {
        text_c(
            img,
            Weight::Bold,
            30.0,
            INK_DIM,
            x + CELL_W / 2.0,
            y + 38.0,
            "?",
        );
        return;
    };
    text(img, Weight::Bold, 14.0, INK, x + 36.0, y + 6.0, &o.id);
    need_pips(img, x + 5.0, y + 30.0, o);
    specialty_badge(img, Pt::new(x + 15.0, y + 50.0), 10.0, o.specialty.letter());
    // The bottom effect beside the specialty badge, in two short lines when one would cut
    // it: it must stay readable once the bottom slot that hints it is filled.
    let eff = bottom_short(&o.effect).render(ctx.lang);
    let lines = two_lines(Weight::Bold, 11.0, &eff, CELL_W - 31.0);
    let top = if lines.len() > 1 { y + 38.0 } else { y + 44.0 };
    for (i, l) in lines.iter().enumerate() {
        text(
            img,
            Weight::Bold,
            11.0,
            INK,
            x + 28.0,
            top + 12.0 * i as f32,
            l,
        );
    }
    if let Some(t) = tile {
        // The tile sits at the foot of the capsule, leaving the bottom-effect line visible.
        rect(
            img,
            (x + 20.0, y + 66.0, CELL_W - 40.0, 23.0),
            6.0,
            WHITE,
            Some((INK, 2.0)),
        );
        text_c(
            img,
            Weight::Bold,
            17.0,
            INK,
            x + CELL_W / 2.0,
            y + 67.0,
            &format!("✓ {}", t.value),
        );
    }
}

/// `s` on one line if it fits `width`, else on two, broken at the last space or opening
/// bracket that lets the first line fit (each line cut with "…" only if it still does not).
fn two_lines(weight: Weight, size: f32, s: &str, width: f32) -> Vec<String> {
    if text_width(weight, size, s) <= width {
        return vec![s.to_string()];
    }
    // Every beginning's width from one pass (measuring each candidate anew was quadratic).
    let widths = crate::render::text::prefix_widths(weight, size, s, f32::INFINITY);
    let width_to = |end: usize| {
        widths
            .binary_search_by_key(&end, |&(e, _)| e)
            .map_or(0.0, |k| widths[k].1)
    };
    let mut breaks = s
        .char_indices()
        .filter(|&(i, c)| i > 0 && (c == ' ' || c == '('))
        .map(|(i, _)| i)
        .filter(|&i| width_to(s[..i].trim_end().len()) <= width);
    match breaks.next_back() {
        Some(i) => vec![
            s[..i].trim_end().to_string(),
            fit(weight, size, s[i..].trim_start(), width),
        ],
        None => vec![fit(weight, size, s, width)],
    }
}

/// An empty slot: faint id and a hint of its effect.
fn empty_cell(img: &mut RgbaImage, x: f32, y: f32, id: &str, hint: &str) {
    rect(
        img,
        (x, y, CELL_W, CELL_H),
        8.0,
        BG,
        Some((rgb(0x5A6378), 2.0)),
    );
    text_c(
        img,
        Weight::Bold,
        20.0,
        rgb(0x8E97AB),
        x + CELL_W / 2.0,
        y + 22.0,
        id,
    );
    let lines = wrap(Weight::Regular, 13.0, hint, CELL_W - 10.0);
    for (i, l) in lines.iter().take(2).enumerate() {
        text_c(
            img,
            Weight::Regular,
            13.0,
            rgb(0xB5BDCC),
            x + CELL_W / 2.0,
            y + 56.0 + 15.0 * i as f32,
            l,
        );
    }
}

fn seat_name(ctx: &RenderCtx, s: Seat) -> String {
    ctx.name(s)
}

fn station(
    img: &mut RgbaImage,
    v: &PublicView,
    ctx: &RenderCtx,
    seat: Seat,
    st: &StationView,
    (x, y): (f32, f32),
    colours: (Rgba<u8>, char),
) {
    let active = v.to_act == Some(seat);
    let frame = if active { ALERT } else { rgb(0x3A4258) };
    rect(
        img,
        (x, y, STATION_W, STATION_H),
        12.0,
        BG,
        Some((frame, if active { 4.0 } else { 2.0 })),
    );
    // Title bar.
    token(img, Pt::new(x + 24.0, y + 24.0), 15.0, colours.0, colours.1);
    let validated = st.validated.iter().filter(|t| t.is_some()).count();
    let filled = st.slots.iter().filter(|c| c.is_some()).count();
    let mut info = vec![
        trw(ctx, "hand", &[("n", st.hand.to_string())]),
        trw(ctx, "projects", &[("n", st.projects.to_string())]),
        trw(ctx, "visible", &[("vp", st.visible.to_string())]),
        trw(ctx, "slots", &[("n", filled.to_string())]),
        trw(ctx, "objectives", &[("n", validated.to_string())]),
    ];
    if st.objectives.is_none() && !st.dealt.is_empty() {
        // Nothing validated yet: the count gives way to what the grey cells are.
        info.pop();
        info.push(tr(ctx, "to_arrange"));
    }
    if v.first == seat {
        info.push(tr(ctx, "first"));
    }
    // The figures to the right, the name in the room left: shrunk before it is ever cut.
    let info = info.join(" · ");
    let info_x = (x + STATION_W - 14.0 - text_width(Weight::Regular, 15.0, &info)).max(x + 210.0);
    draw_text(
        img,
        &Style::new(Weight::Regular, 15.0, rgb(0xDDE2EC)),
        info_x,
        y + 15.0,
        Align::Left,
        &info,
    );
    let room = info_x - 14.0 - (x + 46.0);
    let full = seat_name(ctx, seat);
    let size = fit_size(Weight::Bold, &[20.0, 18.0, 16.0], &full, room);
    let name = fit(Weight::Bold, size, &full, room);
    text(
        img,
        Weight::Bold,
        size,
        WHITE,
        x + 46.0,
        y + 12.0 + (20.0 - size) / 2.0,
        &name,
    );
    // Grid.
    let gx = x + 11.0;
    let gy = y + 48.0;
    let cell = |col: i32, row: i32| {
        (
            gx + col as f32 * (CELL_W + 2.0),
            gy + row as f32 * (CELL_H + 2.0),
        )
    };
    for (c, colour) in v.capsule_colours.iter().enumerate() {
        let (cx, cy) = cell(2 * i32::try_from(c).unwrap_or(0) + 1, 1);
        // Before they are arranged, the dealt tiles (face up, public) show in grey cells.
        let (obj, colour) = match &st.objectives {
            Some(o) => (o.get(c), colour.as_str()),
            None => (st.dealt.get(c), DEALT),
        };
        capsule_cell(
            img,
            (cx, cy),
            colour,
            c,
            obj,
            st.validated.get(c).and_then(Option::as_ref),
            ctx,
        );
    }
    for (i, g) in v.slots.iter().enumerate() {
        let (cx, cy) = cell(g.grid.0, g.grid.1);
        match st.slots.get(i).and_then(Option::as_ref) {
            Some(card) => slot_card(img, cx, cy, card, ctx),
            None => {
                let hint = match g.row {
                    Row::Top => String::new(),
                    Row::Middle => {
                        let caps: Vec<String> =
                            g.capsules.iter().map(|c| format!("c{}", c + 1)).collect();
                        if caps.len() > 1 {
                            caps.join("+")
                        } else {
                            String::new()
                        }
                    }
                    Row::Bottom => {
                        let obj = g
                            .capsules
                            .first()
                            .and_then(|&c| st.objectives.as_ref().and_then(|o| o.get(c)));
                        match obj {
                            Some(o) => format!(
                                "{}→{}",
                                o.specialty.letter(),
                                bottom_short(&o.effect).render(ctx.lang)
                            ),
                            None => String::new(),
                        }
                    }
                };
                empty_cell(img, cx, cy, &g.id, &hint);
            }
        }
    }
    if let Some(last) = v.last.as_ref().filter(|l| l.seat == seat) {
        last_marks(img, v, last, &cell);
    }
}

/// The latest turn's marks on its station: a ring around each card it placed and each
/// objective it validated (all three capsules once arranged), and in the grid's free top-left
/// corner what it took into the hand (agency and count) or that it passed.
fn last_marks(
    img: &mut RgbaImage,
    v: &PublicView,
    last: &LastTurn,
    cell: &dyn Fn(i32, i32) -> (f32, f32),
) {
    let ring = |img: &mut RgbaImage, (x, y): (f32, f32), r: f32| {
        rect(img, (x, y, CELL_W, CELL_H), r, CLEAR, Some((LAST, 4.0)));
    };
    for &i in &last.placed {
        if let Some(g) = v.slots.get(usize::from(i)) {
            ring(img, cell(g.grid.0, g.grid.1), 8.0);
        }
    }
    let capsules: Vec<usize> = if last.arranged {
        (0..v.capsule_colours.len()).collect()
    } else {
        last.validated.iter().map(|&c| usize::from(c)).collect()
    };
    for c in capsules {
        let col = 2 * i32::try_from(c).unwrap_or(0) + 1;
        ring(img, cell(col, 1), 20.0);
    }
    let (x, y) = cell(0, 0);
    let (x, y, w, h) = (x + 6.0, y + 8.0, CELL_W - 12.0, CELL_H - 16.0);
    if let Some((agency, n, _)) = last.took {
        let fill = agency_colour(agency);
        rect(img, (x, y, w, h), 10.0, fill, Some((LAST, 4.0)));
        let ink = ink_on(fill);
        text_c(
            img,
            Weight::Bold,
            30.0,
            ink,
            x + w / 2.0,
            y + 8.0,
            &format!("+{n}"),
        );
        text_c(
            img,
            Weight::Bold,
            18.0,
            ink,
            x + w / 2.0,
            y + 44.0,
            agency.letter(),
        );
    } else if last.passed {
        rect(img, (x, y, w, h), 10.0, BG, Some((LAST, 4.0)));
        text_c(img, Weight::Bold, 30.0, LAST, x + w / 2.0, y + 14.0, "–");
    }
}

/// The latest turn's mark (rings and the taken cards' badge): white on the dark board.
const LAST: Rgba<u8> = WHITE;
/// A fill that draws nothing (outline-only boxes).
const CLEAR: Rgba<u8> = Rgba([0, 0, 0, 0]);

/// What the latest turn did, in words, for the header ("Last: …"); empty before the first.
fn last_line(v: &PublicView, ctx: &RenderCtx) -> String {
    let Some(last) = &v.last else {
        return String::new();
    };
    let name = ctx.name(last.seat);
    let mut parts = Vec::new();
    if let Some((agency, n, centre)) = last.took {
        let key = if centre {
            "last_recruited"
        } else {
            "last_took"
        };
        parts.push(trw(
            ctx,
            key,
            &[
                ("name", name.clone()),
                ("agency", agency.letter().to_string()),
                ("n", n.to_string()),
            ],
        ));
    }
    if !last.placed.is_empty() {
        let station = v.stations.get(last.seat.index());
        let list: Vec<String> = last
            .placed
            .iter()
            .map(|&i| {
                let i = usize::from(i);
                let slot = v.slots.get(i).map_or("?", |g| g.id.as_str());
                let card = station
                    .and_then(|st| st.slots.get(i)?.as_ref())
                    .map_or("?", |c| c.id.as_str());
                format!("{card} → {slot}")
            })
            .collect();
        parts.push(trw(
            ctx,
            "last_placed",
            &[("name", name.clone()), ("list", list.join(", "))],
        ));
    }
    if !last.validated.is_empty() {
        let list: Vec<String> = last
            .validated
            .iter()
            .map(|c| format!("c{}", c + 1))
            .collect();
        parts.push(trw(ctx, "last_validated", &[("list", list.join(", "))]));
    }
    if last.passed {
        parts.push(trw(ctx, "last_passed", &[("name", name.clone())]));
    }
    if last.arranged {
        parts.push(trw(ctx, "last_arranged", &[("name", name.clone())]));
    }
    if parts.is_empty() {
        // An action chosen and nothing shown yet (cards revealed, nothing taken so far).
        return String::new();
    }
    parts.join(" · ")
}

fn pile(img: &mut RgbaImage, x: f32, y: f32, colour: &str, index: usize, tiles: &[TileView]) {
    capsule_box(img, (x, y, 94.0, 92.0), 10.0, colour, index);
    match tiles.first() {
        Some(t) => {
            text_c(
                img,
                Weight::Bold,
                34.0,
                INK,
                x + 40.0,
                y + 22.0,
                &t.value.to_string(),
            );
            if t.bonus {
                star(img, Pt::new(x + 74.0, y + 40.0), 12.0, INK);
            }
            let rest: Vec<String> = tiles[1..].iter().map(|t| t.value.to_string()).collect();
            text_c(
                img,
                Weight::Regular,
                15.0,
                INK,
                x + 47.0,
                y + 66.0,
                &rest.join(" "),
            );
        }
        None => text_c(img, Weight::Bold, 24.0, INK, x + 47.0, y + 30.0, "-"),
    }
}

fn box_label(img: &mut RgbaImage, x: f32, y: f32, s: &str) {
    text(img, Weight::Bold, 15.0, rgb(0xDDE2EC), x, y, s);
}

fn supply(img: &mut RgbaImage, v: &PublicView, ctx: &RenderCtx, y: f32) {
    let frame = Some((rgb(0x3A4258), 2.0));
    rect(
        img,
        (10.0, y, WIDTH as f32 - 20.0, SUPPLY_H - 8.0),
        12.0,
        BG,
        frame,
    );
    let top = y + 8.0;
    let dim = Some((rgb(0x5A6378), 1.5));
    // Lab deck and discard, side by side.
    let deck_label = fit(Weight::Bold, 15.0, &tr(ctx, "lab_deck"), 74.0);
    box_label(img, 22.0, top, &deck_label);
    rect(
        img,
        (22.0, top + 24.0, 64.0, 80.0),
        8.0,
        rgb(0x4B5572),
        Some((WHITE, 2.0)),
    );
    let deck = v.lab_deck.to_string();
    text_c(img, Weight::Bold, 26.0, WHITE, 54.0, top + 48.0, &deck);
    box_label(img, 100.0, top, &tr(ctx, "discard"));
    match v.discard.last() {
        Some(c) => mini_card(img, 100.0, top + 24.0, c),
        None => rect(img, (100.0, top + 24.0, 44.0, 58.0), 5.0, BG, dim),
    }
    let count = format!("×{}", v.discard.len());
    text(img, Weight::Bold, 18.0, WHITE, 100.0, top + 88.0, &count);
    // Recruitment Centre: four columns of up to 8 mini-cards.
    let cx0 = 176.0;
    box_label(img, cx0, top, &tr(ctx, "centre"));
    for (i, a) in Agency::ALL.iter().enumerate() {
        let col_x = cx0 + i as f32 * 156.0;
        let cards = v.centre.get(i).map_or(&[][..], Vec::as_slice);
        let fill = agency_colour(*a);
        rect(img, (col_x, top + 24.0, 150.0, 24.0), 6.0, fill, None);
        let head = if cards.len() > 6 {
            format!("{} ×{} (+{})", a.letter(), cards.len(), cards.len() - 6)
        } else {
            format!("{} ×{}", a.letter(), cards.len())
        };
        text(
            img,
            Weight::Bold,
            15.0,
            ink_on(fill),
            col_x + 8.0,
            top + 27.0,
            &head,
        );
        for (k, c) in cards.iter().enumerate().take(6) {
            let (r, q) = (k / 3, k % 3);
            mini_card(
                img,
                col_x + q as f32 * 47.0,
                top + 52.0 + r as f32 * 61.0,
                c,
            );
        }
    }
    // Reveal area and Project deck.
    let rx = cx0 + 4.0 * 156.0 + 4.0;
    box_label(img, rx, top, &tr(ctx, "revealed"));
    let edge = if v.revealed.is_empty() {
        rgb(0x5A6378)
    } else {
        ALERT
    };
    rect(
        img,
        (rx, top + 24.0, 156.0, 70.0),
        6.0,
        BG,
        Some((edge, 2.0)),
    );
    for (k, c) in v.revealed.iter().enumerate() {
        mini_card(img, rx + 6.0 + k as f32 * 49.0, top + 30.0, c);
    }
    box_label(img, rx, top + 104.0, &tr(ctx, "project_deck"));
    rect(
        img,
        (rx + 90.0, top + 100.0, 64.0, 72.0),
        8.0,
        rgb(0x6B4E8F),
        Some((WHITE, 2.0)),
    );
    let pd = v.project_deck.to_string();
    text_c(img, Weight::Bold, 26.0, WHITE, rx + 122.0, top + 120.0, &pd);
    // Validation piles, one row.
    let px = rx + 166.0;
    box_label(img, px, top, &tr(ctx, "piles"));
    for (i, colour) in v.capsule_colours.iter().enumerate() {
        let tiles = v.piles.get(i).map_or(&[][..], Vec::as_slice);
        pile(img, px + i as f32 * 100.0, top + 24.0, colour, i, tiles);
    }
}

fn finals(
    img: &mut RgbaImage,
    v: &PublicView,
    ctx: &RenderCtx,
    y: f32,
    seats: &[(Rgba<u8>, char)],
) {
    rect(
        img,
        (10.0, y, WIDTH as f32 - 20.0, top_h(v) - 8.0),
        12.0,
        PAPER,
        Some((INK, 2.0)),
    );
    let Some(f) = &v.finals else { return };
    text(
        img,
        Weight::Bold,
        18.0,
        INK_DIM,
        60.0,
        y + 10.0,
        &tr(ctx, "score_head"),
    );
    text(
        img,
        Weight::Bold,
        18.0,
        INK_DIM,
        WIDTH as f32 - 40.0 - 80.0,
        y + 10.0,
        &tr(ctx, "score_total"),
    );
    // By rank (the header says who won and why); a shared place keeps the seats' order.
    let mut order: Vec<usize> = (0..f.len()).collect();
    order.sort_by_key(|&i| (f[i].rank, i));
    for (row, &i) in order.iter().enumerate() {
        let r = &f[i];
        let ry = y + FINAL_ROW_Y + row as f32 * FINAL_ROW_H;
        if r.rank == 1 {
            rect(
                img,
                (20.0, ry - 3.0, WIDTH as f32 - 40.0, 37.0),
                8.0,
                WHITE,
                Some((INK, 2.0)),
            );
        }
        let (colour, letter) = seats.get(i).copied().unwrap_or((WHITE, '?'));
        token(img, Pt::new(42.0, ry + 17.0), 14.0, colour, letter);
        let seat = Seat::at(i);
        let name = fit(
            Weight::Bold,
            20.0,
            &format!("{}. {}", r.rank, ctx.name(seat)),
            260.0,
        );
        text(img, Weight::Bold, 20.0, INK, 64.0, ry + 6.0, &name);
        // Projects by their name in the board's language (the code where a name is missing).
        let list: Vec<String> = r
            .projects
            .iter()
            .map(|(c, n)| {
                let key = format!("spacelab.project_name.{c}");
                let name = if crate::i18n::has_key(&key) {
                    crate::i18n::tr(ctx.lang, &key)
                } else {
                    c.clone()
                };
                format!("{name} ×{n}")
            })
            .collect();
        let detail = trw(
            ctx,
            "score_detail",
            &[
                ("lab", r.breakdown.lab_end.to_string()),
                ("bottom", r.breakdown.bottom_end.to_string()),
                ("validation", r.breakdown.validation.to_string()),
                ("projects", r.breakdown.projects.to_string()),
                (
                    "list",
                    if list.is_empty() {
                        "-".into()
                    } else {
                        list.join(", ")
                    },
                ),
                ("count", r.project_count.to_string()),
            ],
        );
        // Up to two lines in the row (four named Projects do not fit one).
        let lines = wrap(Weight::Regular, 14.0, &detail, WIDTH as f32 - 480.0);
        let top = if lines.len() > 1 { ry + 1.0 } else { ry + 9.0 };
        for (k, line) in lines.iter().take(2).enumerate() {
            let line = if k == 1 && lines.len() > 2 {
                fit(
                    Weight::Regular,
                    14.0,
                    &format!("{line} {}", lines[2..].join(" ")),
                    WIDTH as f32 - 480.0,
                )
            } else {
                line.clone()
            };
            text(
                img,
                Weight::Regular,
                14.0,
                INK,
                340.0,
                top + k as f32 * 18.0,
                &line,
            );
        }
        draw_text(
            img,
            &Style::new(Weight::Bold, 26.0, INK),
            WIDTH as f32 - 50.0,
            ry + 3.0,
            Align::Right,
            &r.total.to_string(),
        );
    }
}

/// The footer's legend: agency colours with letters, specialty badge, ⚡, ★, slot rules, the
/// cards' short effects and the stations' short words.
///
/// At the end the card codes give way to the final table (a board stays within 1600 × 1200).
fn legend<'a>(ctx: &RenderCtx, over: bool) -> Vec<LegendEntry<'a>> {
    let mut entries: Vec<LegendEntry<'a>> = Agency::ALL
        .into_iter()
        .map(|a| {
            let label = Text::new(format!("spacelab.agency.{}", a.id())).render(ctx.lang);
            LegendEntry::new(label, move |img: &mut RgbaImage, c: Pt| {
                rect(
                    img,
                    (c.x - 14.0, c.y - 11.0, 28.0, 22.0),
                    4.0,
                    agency_colour(a),
                    None,
                );
                text_c(
                    img,
                    Weight::Bold,
                    14.0,
                    ink_on(agency_colour(a)),
                    c.x,
                    c.y - 9.0,
                    a.letter(),
                );
            })
        })
        .collect();
    entries.push(LegendEntry::new(tr(ctx, "legend_specialty"), |img, c| {
        specialty_badge(img, c, 11.0, "R");
    }));
    entries.push(LegendEntry::new(tr(ctx, "legend_instant"), |img, c| {
        fill_disc(img, c, 11.0, INK);
        bolt(img, c, 16.0, WHITE);
    }));
    entries.push(LegendEntry::new(tr(ctx, "legend_bonus"), |img, c| {
        star(img, c, 11.0, INK);
    }));
    entries.push(LegendEntry::new(tr(ctx, "legend_last"), |img, c| {
        rect(
            img,
            (c.x - 13.0, c.y - 11.0, 26.0, 22.0),
            5.0,
            agency_colour(Agency::Blue),
            Some((LAST, 3.0)),
        );
    }));
    if !over {
        entries.push(LegendEntry::wide(
            tr(ctx, "legend_codes"),
            40.0,
            |img, c| {
                draw_text_centred(img, &Style::new(Weight::Bold, 12.0, INK), c, "+1L");
            },
        ));
    }
    entries
}

/// What the header and footer say around the board.
fn board_frame<'a>(v: &PublicView, ctx: &RenderCtx, seats: &[(Rgba<u8>, char)]) -> Frame<'a> {
    let to_act = v.to_act.filter(|_| !ctx.stopped);
    let mut subtitle = trw(ctx, "turn", &[("turn", v.turn_no.to_string())]);
    if let (Some(still), Some(_)) = (&v.final_round, to_act) {
        let names: Vec<String> = still.iter().map(|&s| ctx.name(s)).collect();
        let line = trw(ctx, "final_round", &[("seats", names.join(", "))]);
        subtitle = format!("{subtitle} · {line}");
    }
    let last = last_line(v, ctx);
    if !last.is_empty() {
        subtitle = format!("{subtitle} · {last}");
    }
    let status = match (&v.finals, to_act) {
        (Some(f), _) => final_status(f, ctx, seats),
        (None, Some(s)) => Status::Turn {
            seat: s.index(),
            text: format!("{} {}", ctx.name(s), tr(ctx, "to_play")),
        },
        (None, None) => Status::Plain(tr(ctx, "game_over")),
    };
    let chips = v
        .stations
        .iter()
        .enumerate()
        .map(|(i, st)| {
            let fin = v.finals.as_ref().and_then(|f| f.get(i));
            let (colour, letter) = seats.get(i).copied().unwrap_or((WHITE, '?'));
            SeatChip {
                name: ctx.name(Seat::at(i)),
                colour,
                letter,
                score: fin.map_or(st.visible, |f| f.total).to_string(),
                turn: to_act == Some(Seat::at(i)),
                winner: fin.is_some_and(|f| f.rank == 1),
            }
        })
        .collect();
    let title = match ctx.number {
        Some(n) => trw(ctx, "title_number", &[("n", n.to_string())]),
        None => tr(ctx, "title"),
    };
    Frame {
        title,
        subtitle,
        status,
        seats: chips,
        legend_title: tr(ctx, "legend"),
        legend: legend(ctx, v.finals.is_some()),
    }
}

/// The result in the header: who won, by how much, and whether the tie-break (more Project
/// cards, then a shared place) decided it.
fn final_status(f: &[FinalView], ctx: &RenderCtx, seats: &[(Rgba<u8>, char)]) -> Status {
    let winners: Vec<usize> = (0..f.len()).filter(|&i| f[i].rank == 1).collect();
    let names: Vec<String> = winners.iter().map(|&i| ctx.name(Seat::at(i))).collect();
    let headline = if names.len() == 1 {
        trw(ctx, "wins", &[("name", names.join(""))])
    } else {
        trw(ctx, "shared_win", &[("names", names.join(", "))])
    };
    let Some(best) = winners.first().map(|&i| &f[i]) else {
        return Status::Plain(tr(ctx, "game_over"));
    };
    let runner = (0..f.len())
        .filter(|&i| f[i].rank != 1)
        .map(|i| &f[i])
        .max_by_key(|r| (r.total, r.project_count));
    let tied = trw(ctx, "tied", &[("n", best.total.to_string())]);
    let mut detail = match runner {
        Some(r) if r.total < best.total => trw(
            ctx,
            "lead",
            &[
                ("best", best.total.to_string()),
                ("next", r.total.to_string()),
            ],
        ),
        Some(r) => format!(
            "{tied} · {}",
            trw(
                ctx,
                "tiebreak_projects",
                &[
                    ("a", best.project_count.to_string()),
                    ("b", r.project_count.to_string()),
                ],
            )
        ),
        None => tied,
    };
    if winners.len() > 1 {
        let shared = trw(ctx, "shared_tie", &[("n", best.project_count.to_string())]);
        detail = format!("{detail} · {shared}");
    }
    Status::Over {
        headline,
        detail,
        colour: (winners.len() == 1)
            .then(|| seats.get(winners[0]).map(|s| s.0))
            .flatten(),
    }
}

/// The seats' colours and letters.
fn seat_marks(v: &PublicView, ctx: &RenderCtx) -> Vec<(Rgba<u8>, char)> {
    let n = v.stations.len();
    let letters = seat_letters(&(0..n).map(|i| ctx.name(Seat::at(i))).collect::<Vec<_>>());
    (0..n)
        .map(|i| {
            (
                SEAT_COLOURS[i % SEAT_COLOURS.len()],
                letters.get(i).copied().unwrap_or('?'),
            )
        })
        .collect()
}

/// The header's status line for `v` (tests read what it says).
#[cfg(test)]
pub(super) fn header_status(v: &PublicView, ctx: &RenderCtx) -> Status {
    board_frame(v, ctx, &seat_marks(v, ctx)).status
}

/// The public board image: the board between the common header and footer.
pub fn render_public(v: &PublicView, ctx: &RenderCtx) -> RgbaImage {
    let n = v.stations.len();
    let seats = seat_marks(v, ctx);
    let rows = if n <= 2 { 1 } else { 2 };
    let stations_y = HEADER_H + top_h(v);
    let height = (stations_y + rows as f32 * (STATION_H + 8.0)).ceil() as u32;
    let mut img = crate::render::canvas(WIDTH, height, BG);
    if v.finals.is_some() {
        finals(&mut img, v, ctx, HEADER_H, &seats);
    } else {
        supply(&mut img, v, ctx, HEADER_H);
    }
    for (i, st) in v.stations.iter().enumerate() {
        let x = 10.0 + (i % 2) as f32 * (STATION_W + 8.0);
        let y = stations_y + (i / 2) as f32 * (STATION_H + 8.0);
        let seat = Seat::at(i);
        station(&mut img, v, ctx, seat, st, (x, y), seats[i]);
    }
    frame::compose(&img, &board_frame(v, ctx, &seats))
}

// ---- private image ----------------------------------------------------------------------

const PRIV_W: u32 = 1200;
const CARD_W: f32 = 186.0;
const CARD_H: f32 = 150.0;

fn hand_card(
    img: &mut RgbaImage,
    x: f32,
    y: f32,
    c: &CardView,
    affordable: bool,
    drawn: bool,
    ctx: &RenderCtx,
) {
    let fill = agency_colour(c.agency);
    let paper = mix(fill, WHITE, 0.78);
    rect(
        img,
        (x, y, CARD_W, CARD_H),
        10.0,
        paper,
        Some((
            if drawn { ALERT } else { fill },
            if drawn { 5.0 } else { 3.0 },
        )),
    );
    rect(img, (x + 3.0, y + 3.0, CARD_W - 6.0, 30.0), 8.0, fill, None);
    cost_badge(img, x + 6.0, y + 6.0, 24.0, c.cost);
    let ink = ink_on(fill);
    text(img, Weight::Bold, 18.0, ink, x + 36.0, y + 8.0, &c.id);
    text(
        img,
        Weight::Bold,
        16.0,
        ink,
        x + CARD_W - 34.0,
        y + 9.0,
        c.agency.letter(),
    );
    specialty_badge(img, Pt::new(x + 18.0, y + 50.0), 12.0, c.specialty.letter());
    let spec = Text::new(format!("spacelab.specialty.{}", c.specialty.id())).render(ctx.lang);
    let room = if c.effect.instant() {
        CARD_W - 66.0
    } else {
        CARD_W - 40.0
    };
    // The name on its own line (a size smaller before it is ever cut), the specialty under it.
    let name = card_name(c, ctx.lang);
    let size = if text_width(Weight::Bold, 14.0, &name) <= room {
        14.0
    } else {
        12.0
    };
    let name = fit(Weight::Bold, size, &name, room);
    text(img, Weight::Bold, size, INK, x + 34.0, y + 38.0, &name);
    let spec = fit(Weight::Regular, 12.0, &spec, room);
    text(
        img,
        Weight::Regular,
        12.0,
        INK_DIM,
        x + 34.0,
        y + 55.0,
        &spec,
    );
    let long = effect_long(&c.effect).render(ctx.lang);
    let mut ly = y + 72.0;
    if c.effect.instant() {
        fill_disc(img, Pt::new(x + CARD_W - 18.0, y + 50.0), 11.0, INK);
        bolt(img, Pt::new(x + CARD_W - 18.0, y + 50.0), 16.0, WHITE);
    }
    for l in wrap(Weight::Regular, 14.0, &long, CARD_W - 14.0)
        .iter()
        .take(3)
    {
        text(img, Weight::Regular, 14.0, INK, x + 7.0, ly, l);
        ly += 17.0;
    }
    let mut fx = x + 8.0;
    if affordable {
        let label = format!("✓ {}", tr(ctx, "affordable"));
        let w = text_width(Weight::Bold, 13.0, &label) + 12.0;
        rect(
            img,
            (fx, y + CARD_H - 26.0, w, 20.0),
            6.0,
            rgb(0x1E7B3A),
            None,
        );
        text(
            img,
            Weight::Bold,
            13.0,
            WHITE,
            fx + 6.0,
            y + CARD_H - 24.0,
            &label,
        );
        fx += w + 6.0;
    }
    if drawn {
        star(img, Pt::new(fx + 9.0, y + CARD_H - 16.0), 9.0, ALERT);
        text(
            img,
            Weight::Bold,
            13.0,
            INK,
            fx + 20.0,
            y + CARD_H - 24.0,
            &tr(ctx, "drawn"),
        );
    }
    let _ = LabEffect::Flat { vp: 0 };
}

/// The private image of one seat: hand, Projects, projected score, objectives.
pub fn render_private(v: &PrivateView, ctx: &RenderCtx) -> RgbaImage {
    let per_row = 6usize;
    let shown = v.hand.len().min(18);
    let hand_rows = shown.div_ceil(per_row).max(1);
    let proj_rows = v.projects.len().max(1);
    let height =
        (60.0 + hand_rows as f32 * (CARD_H + 10.0) + 56.0 + proj_rows as f32 * 44.0 + 70.0 + 20.0)
            .min(800.0)
            .ceil() as u32;
    let mut img = crate::render::canvas(PRIV_W, height, BG);
    let name = ctx.name(v.seat);
    text(
        &mut img,
        Weight::Bold,
        22.0,
        WHITE,
        16.0,
        14.0,
        &format!("{} · {} ({})", name, tr(ctx, "your_hand"), v.hand.len()),
    );
    let proj = trw(
        ctx,
        "projected",
        &[
            ("visible", v.visible.to_string()),
            ("projected", v.projected.to_string()),
        ],
    );
    draw_text(
        &mut img,
        &Style::new(Weight::Bold, 18.0, WHITE),
        PRIV_W as f32 - 16.0,
        18.0,
        Align::Right,
        &proj,
    );
    let y0 = 52.0;
    if v.hand.is_empty() {
        text(
            &mut img,
            Weight::Regular,
            18.0,
            HAND_DIM,
            16.0,
            y0 + 20.0,
            &tr(ctx, "empty_hand"),
        );
    }
    for (i, h) in v.hand.iter().take(shown).enumerate() {
        let (r, c) = (i / per_row, i % per_row);
        hand_card(
            &mut img,
            12.0 + c as f32 * (CARD_W + 10.0),
            y0 + r as f32 * (CARD_H + 10.0),
            &h.card,
            h.affordable,
            h.drawn,
            ctx,
        );
    }
    if v.hand.len() > shown {
        let rest: Vec<&str> = v.hand[shown..].iter().map(|h| h.card.id.as_str()).collect();
        let line = fit(
            Weight::Bold,
            15.0,
            &format!("+ {}", rest.join(" ")),
            PRIV_W as f32 - 30.0,
        );
        text(
            &mut img,
            Weight::Bold,
            15.0,
            WHITE,
            16.0,
            y0 + hand_rows as f32 * (CARD_H + 10.0) - 4.0,
            &line,
        );
    }
    let mut y = y0 + hand_rows as f32 * (CARD_H + 10.0) + 14.0;
    text(
        &mut img,
        Weight::Bold,
        20.0,
        WHITE,
        16.0,
        y,
        &tr(ctx, "your_projects"),
    );
    y += 30.0;
    if v.projects.is_empty() {
        text(
            &mut img,
            Weight::Regular,
            16.0,
            HAND_DIM,
            16.0,
            y,
            &tr(ctx, "no_projects"),
        );
        y += 44.0;
    }
    for p in &v.projects {
        if y > height as f32 - 80.0 {
            break;
        }
        rect(
            &mut img,
            (12.0, y, PRIV_W as f32 - 24.0, 38.0),
            8.0,
            WHITE,
            Some((rgb(0x6B4E8F), 2.0)),
        );
        text(
            &mut img,
            Weight::Bold,
            16.0,
            INK,
            22.0,
            y + 9.0,
            &format!("{} ({})", project_name(p, ctx.lang), p.code),
        );
        let held = trw(
            ctx,
            "held",
            &[
                ("n", p.held.to_string()),
                ("copies", p.copies.to_string()),
                ("vp", p.value.to_string()),
            ],
        );
        text(
            &mut img,
            Weight::Bold,
            16.0,
            rgb(0x6B4E8F),
            300.0,
            y + 9.0,
            &held,
        );
        let sc = fit(
            Weight::Regular,
            14.0,
            &scoring_text(&p.scoring).render(ctx.lang),
            640.0,
        );
        text(&mut img, Weight::Regular, 14.0, INK, 540.0, y + 11.0, &sc);
        y += 44.0;
    }
    // Objectives and the last returned Projects.
    let mut ox = 16.0;
    let oy = height as f32 - 64.0;
    text(
        &mut img,
        Weight::Bold,
        16.0,
        WHITE,
        ox,
        oy,
        &tr(ctx, "objectives_title"),
    );
    for (i, o) in v.objectives.iter().enumerate() {
        let x = ox + 150.0 + i as f32 * 250.0;
        text(
            &mut img,
            Weight::Bold,
            15.0,
            WHITE,
            x,
            oy,
            &format!("c{} {}", i + 1, o.id),
        );
        // The pips' letters are dark ink: on a light pill, as on the board's capsules.
        rect(
            &mut img,
            (x + 60.0, oy - 2.0, 120.0, 22.0),
            11.0,
            PAPER,
            None,
        );
        need_pips(&mut img, x + 66.0, oy + 9.0, o);
        let eff = fit(
            Weight::Regular,
            13.0,
            &format!(
                "{}→{}",
                o.specialty.letter(),
                bottom_short(&o.effect).render(ctx.lang)
            ),
            240.0,
        );
        text(
            &mut img,
            Weight::Regular,
            13.0,
            HAND_DIM,
            x,
            oy + 22.0,
            &eff,
        );
    }
    ox += 0.0;
    if !v.returned.is_empty() {
        let line = trw(ctx, "returned", &[("list", v.returned.join(" "))]);
        text(
            &mut img,
            Weight::Regular,
            14.0,
            HAND_DIM,
            ox,
            oy + 42.0,
            &line,
        );
    }
    img
}

// ---- zoom (phones) ----------------------------------------------------------------------

/// The viewer's station, the station to play, the Recruitment Centre, then the decks, Projects
/// and validation piles (the supply's two ends side by side). Once the game is over the
/// header's result goes first, then the stations (the result card explains the scores). In the
/// composed image's pixels: the board sits under the header.
pub fn zoom_regions(v: &PublicView, ctx: &RenderCtx, viewer: Option<Seat>) -> Vec<Region> {
    // A game stopped by a resignation or a cancel is nobody's turn.
    let to_act = v.to_act.filter(|_| !ctx.stopped);
    let frame = board_frame(v, ctx, &seat_marks(v, ctx));
    let off = frame::board_offset(&frame, WIDTH).1 as f32;
    let station = |s: Seat| {
        let i = s.index();
        let x = 10.0 + (i % 2) as f32 * (STATION_W + 8.0);
        let y = off + HEADER_H + top_h(v) + (i / 2) as f32 * (STATION_H + 8.0);
        Region::new(
            ctx.zoom_caption(s, viewer, to_act),
            x - 4.0,
            y - 4.0,
            STATION_W + 8.0,
            STATION_H + 8.0,
        )
    };
    let mut parts = Vec::new();
    let seats = Seat::all(v.stations.len());
    if let Some(me) = viewer.filter(|s| s.index() < v.stations.len()) {
        parts.push(station(me));
    }
    if let Some(s) = to_act.filter(|&s| Some(s) != viewer) {
        parts.push(station(s));
    }
    if v.finals.is_some() {
        parts.insert(
            0,
            frame::zoom_status(&frame, WIDTH, ctx.zoom_text("status")),
        );
        parts.extend(
            seats
                .filter(|&s| Some(s) != viewer && Some(s) != to_act)
                .map(station),
        );
        parts.truncate(crate::render::zoom::MAX_PARTS);
        return parts;
    }
    // The supply's columns (see `supply`): decks and discard in the first 162 pixels, the
    // Centre from 176, the revealed cards, Project deck and piles from 804 to the right edge.
    let (top, h) = (off + HEADER_H, top_h(v));
    parts.push(Region::new(tr(ctx, "centre"), 170.0, top, 628.0, h));
    parts.push(Region::new(ctx.zoom_text("piles"), 0.0, top, 162.0, h).and(
        800.0,
        top,
        WIDTH as f32 - 800.0,
        h,
    ));
    parts
}

#[cfg(test)]
mod last_move {
    use super::*;
    use crate::engine::{AnyGame, GameKind, GameOptions, GameRng};
    use crate::games::spacelab::SpaceLab;
    use crate::i18n::Lang;

    fn public(g: &dyn AnyGame) -> PublicView {
        let lab = g.as_any().downcast_ref::<SpaceLab>().expect("Space Lab");
        lab.build_public()
    }

    /// The top-left pixel inside cell (`col`, `row`) of station `i` on the composed board,
    /// two pixels in from its left edge, halfway down (on a ring, in its middle).
    fn ring_pixel(
        img: &RgbaImage,
        v: &PublicView,
        ctx: &RenderCtx,
        i: usize,
        col: i32,
        row: i32,
    ) -> Rgba<u8> {
        let off = frame::board_offset(&board_frame(v, ctx, &seat_marks(v, ctx)), WIDTH).1 as f32;
        let x = 10.0 + (i % 2) as f32 * (STATION_W + 8.0) + 11.0;
        let y = off + HEADER_H + top_h(v) + (i / 2) as f32 * (STATION_H + 8.0) + 48.0;
        let (cx, cy) = (
            x + col as f32 * (CELL_W + 2.0),
            y + row as f32 * (CELL_H + 2.0),
        );
        *img.get_pixel((cx + 2.0) as u32, (cy + CELL_H / 2.0) as u32)
    }

    /// Through whole seeded games: every card a seat puts in a slot and every objective it
    /// validates is in the board's last move, ringed on its station and named in the header,
    /// cards taken are counted by agency, and an action just chosen keeps the turn before
    /// marked.
    #[test]
    fn the_last_move_is_ringed_and_said() {
        let mut rendered = 0;
        for seed in [3, 8] {
            let mut g = GameKind::SpaceLab
                .setup(&GameOptions::new(), 3, seed)
                .expect("setup");
            let ctx = RenderCtx {
                lang: Lang::En,
                names: vec!["Ada".into(), "Bruno".into(), "Chloé".into()],
                stopped: false,
                number: None,
            };
            let mut rng = GameRng::seed_from_u64(seed);
            let mut before = public(g.as_ref());
            while let Some(p) = g.prompt() {
                let pick = p.options[rng.gen_range(0..p.options.len())].clone();
                g.apply_notation(p.seat, &pick).expect("applies");
                let v = public(g.as_ref());
                let s = p.seat.index();
                let (st0, st1) = (&before.stations[s], &v.stations[s]);
                let filled: Vec<u8> = (0..st1.slots.len())
                    .filter(|&i| st0.slots[i].is_none() && st1.slots[i].is_some())
                    .map(|i| i as u8)
                    .collect();
                let validated: Vec<u8> = (0..st1.validated.len())
                    .filter(|&c| st0.validated[c].is_none() && st1.validated[c].is_some())
                    .map(|c| c as u8)
                    .collect();
                let last = v.last.clone();
                // The seat's own record (a turn the engine then started by itself for the
                // next seat may be the one shown, if it did something).
                let lab = g.as_any().downcast_ref::<SpaceLab>().expect("Space Lab");
                let own = lab.last.iter().rev().find(|l| l.seat == p.seat);
                if !filled.is_empty() || !validated.is_empty() {
                    let l = own.expect("a record of the turn");
                    assert!(filled.iter().all(|i| l.placed.contains(i)), "{pick}: {l:?}");
                    assert!(validated.iter().all(|c| l.validated.contains(c)), "{pick}");
                    let shown = last.as_ref().expect("a last move");
                    assert!(shown.seat == p.seat || shown == lab.last.last().expect("latest"));
                }
                if let Some(a) = pick.strip_prefix("take ") {
                    let l = own.expect("a record of the turn");
                    let (agency, n, _) = l.took.expect("cards taken");
                    assert_eq!(agency.id(), a);
                    assert_eq!(usize::from(n), st1.hand - st0.hand, "{pick}");
                }
                if ["reveal", "recruit", "place"].contains(&pick.as_str()) {
                    let still = last.as_ref().is_some_and(|l| {
                        l.seat != p.seat || !l.placed.is_empty() || l.took.is_some()
                    });
                    assert!(
                        before.last.is_none() || still,
                        "{pick}: the turn before stays"
                    );
                }
                let line = board_frame(&v, &ctx, &seat_marks(&v, &ctx)).subtitle;
                match &last {
                    Some(l) if l.shows() => {
                        assert!(
                            line.contains(&format!("Last: {}", ctx.name(l.seat))),
                            "{line}"
                        )
                    }
                    _ => assert!(!line.contains("Last:"), "{line}"),
                }
                if let Some(l) = last
                    .as_ref()
                    .filter(|l| !l.placed.is_empty() && rendered < 8)
                {
                    if before.last.as_ref() != Some(l) {
                        rendered += 1;
                        let img = render_public(&v, &ctx);
                        let st = &v.stations[l.seat.index()];
                        for &i in &l.placed {
                            let g = &v.slots[usize::from(i)];
                            let card = st.slots[usize::from(i)].as_ref().expect("placed");
                            assert!(line.contains(&format!("{} → {}", card.id, g.id)), "{line}");
                            let px = ring_pixel(&img, &v, &ctx, l.seat.index(), g.grid.0, g.grid.1);
                            assert_eq!(px, LAST, "slot {} of seat {}", g.id, l.seat.index());
                        }
                    }
                }
                before = v;
            }
        }
        assert!(rendered >= 4, "placements looked at: {rendered}");
    }
}
