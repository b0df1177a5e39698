//! The Gates of Delirium images (spec section 11): the public board (1280 wide, as tall as its
//! rows of player panels need, between the common header and footer of `render::frame`) and
//! the private hand (1000 × 440). Drawn only from the views; every label is localized.

use image::{Rgba, RgbaImage};

use super::components::Effect;
use super::state::{Ending, GateState, Mode, Owner};
use super::view::{
    effect_text, scroll_effect_text, scroll_text, PlayedView, PrivateView, PublicView,
};
use crate::engine::{RenderCtx, Seat};
use crate::i18n::Text;
use crate::render::frame::{self, Frame, SeatChip, Status};
use crate::render::palette::{self, ink_on, mix, rgb, ALERT, INK, INK_DIM, PAPER, WHITE};
use crate::render::panel::{fit, fit_size, LegendEntry};
use crate::render::shapes::{fill_disc, fill_rect, ring, rounded_rect, Pt};
use crate::render::text::{draw_text, draw_text_centred, text_width, Align, Style, Weight};
use crate::render::zoom;

pub const WIDTH: u32 = 1280;
pub const HAND_W: u32 = 1000;
pub const HAND_H: u32 = 440;

const BG: Rgba<u8> = rgb(0x23212B);
const DARK: Rgba<u8> = rgb(0x15141A);
const NEUTRAL: Rgba<u8> = rgb(0x9A9A9A);
/// The strip above the regions: the sanity disc's side, this turn's cards, the decks.
const STRIP_H: f32 = 64.0;
const BOARD_Y: f32 = 72.0;
const BOARD_H: f32 = 356.0;
const PLAYERS_Y: f32 = 436.0;
/// A player panel's height; panels go two to a row.
const PANEL_H: f32 = 190.0;
const PANEL_GAP: f32 = 10.0;
/// The zoom's cut of the strip: the disc's side and this turn's cards.
const STRIP_LEFT_W: f32 = 700.0;
const REGION_W: f32 = 156.0;
const RIGHT_X: f32 = 10.0 + 5.0 * (REGION_W + 4.0) + 4.0;

fn tr(ctx: &RenderCtx, key: &str) -> String {
    Text::new(format!("gates.render.{key}")).render(ctx.lang)
}

fn trn(ctx: &RenderCtx, key: &str, n: impl Into<crate::i18n::Arg>) -> String {
    Text::new(format!("gates.render.{key}"))
        .arg("n", n)
        .render(ctx.lang)
}

fn owner_colour(o: Owner) -> Rgba<u8> {
    match o {
        Owner::Neutral => NEUTRAL,
        other => palette::named(other.code()).unwrap_or(NEUTRAL),
    }
}

fn region_colour(tint: u32) -> Rgba<u8> {
    rgb(tint)
}

/// Names and letters of the seats.
struct Seats {
    names: Vec<String>,
    letters: Vec<char>,
}

impl Seats {
    fn new(ctx: &RenderCtx, n: usize) -> Seats {
        let names: Vec<String> = (0..n).map(|i| ctx.name(Seat::at(i))).collect();
        let letters = palette::seat_letters(&names);
        Seats { names, letters }
    }

    fn letter(&self, o: Owner) -> char {
        match o.seat() {
            Some(s) => self.letters.get(s.index()).copied().unwrap_or('?'),
            None => '·',
        }
    }
}

fn style(w: Weight, size: f32, c: Rgba<u8>) -> Style {
    Style::new(w, size, c)
}

/// Draws one line on whole pixels: the same glyph then rasterises the same way everywhere,
/// which keeps the PNG small.
fn dt(img: &mut RgbaImage, style: &Style, x: f32, y: f32, align: Align, text: &str) -> f32 {
    let w = text_width(style.weight, style.size, text);
    let left = match align {
        Align::Left => x,
        Align::Centre => x - w / 2.0,
        Align::Right => x - w,
    };
    draw_text(img, style, left.round(), y.round(), Align::Left, text)
}

/// A seat token: a disc with a contrasting outline and the seat's letter (flat, no gloss,
/// which keeps the PNG small).
fn token(img: &mut RgbaImage, c: Pt, r: f32, colour: Rgba<u8>, letter: char) {
    let ink = ink_on(colour);
    fill_disc(img, c, r + 2.0, ink);
    fill_disc(img, c, r, colour);
    draw_text_centred(
        img,
        &style(Weight::Bold, r * 1.15, ink),
        c,
        &letter.to_string(),
    );
}

/// A pawn: a seat token (disc + letter) or a grey neutral square.
fn pawn(img: &mut RgbaImage, c: Pt, r: f32, o: Owner, letter: char) {
    if o == Owner::Neutral {
        rounded_rect(
            img,
            Pt::new(c.x - r, c.y - r),
            Pt::new(c.x + r, c.y + r),
            3.0,
            NEUTRAL,
            Some((DARK, 2.0)),
        );
        draw_text_centred(img, &style(Weight::Bold, r * 1.1, DARK), c, "N");
    } else {
        token(img, c, r, owner_colour(o), letter);
    }
}

fn mode_badge(img: &mut RgbaImage, ctx: &RenderCtx, c: Pt, mode: Option<Mode>) {
    let (label, fill, ink) = match mode {
        Some(Mode::Sane) => (tr(ctx, "sane"), WHITE, INK),
        Some(Mode::Insane) => (tr(ctx, "insane"), rgb(0x4B1B3F), WHITE),
        None => (tr(ctx, "unset"), rgb(0x55535E), WHITE),
    };
    let w = text_width(Weight::Bold, 28.0, &label).max(120.0) + 36.0;
    rounded_rect(
        img,
        Pt::new(c.x - w / 2.0, c.y - 30.0),
        Pt::new(c.x + w / 2.0, c.y + 30.0),
        30.0,
        fill,
        Some((ALERT, 3.0)),
    );
    draw_text_centred(img, &style(Weight::Bold, 28.0, ink), c, &label);
}

fn kind_text(ctx: &RenderCtx, kind: &str) -> String {
    Text::new(format!("gates.kind.{kind}")).render(ctx.lang)
}

fn played_str(ctx: &RenderCtx, p: &PlayedView) -> String {
    format!("{} {}", p.id, effect_text(p.effect).render(ctx.lang))
}

/// The strip above the regions (the title, round and turn are the frame's): the sanity disc's
/// side, the cards of this turn (the last move) and the decks.
fn draw_strip(img: &mut RgbaImage, v: &PublicView, ctx: &RenderCtx) {
    mode_badge(img, ctx, Pt::new(110.0, STRIP_H / 2.0 + 2.0), v.mode);
    let mut cards: Vec<String> = v.played.iter().map(|p| played_str(ctx, p)).collect();
    if let Some(p) = &v.in_play {
        cards.push(format!("▶ {}", played_str(ctx, p)));
    }
    if !cards.is_empty() {
        let line = Text::new("gates.render.played")
            .arg("cards", cards.join(" · "))
            .render(ctx.lang);
        let room = STRIP_LEFT_W - 230.0;
        let size = fit_size(Weight::Bold, &[22.0, 20.0, 18.0, 16.0], &line, room);
        dt(
            img,
            &style(Weight::Bold, size, WHITE),
            220.0,
            STRIP_H / 2.0 + 2.0 - size * 0.6,
            Align::Left,
            &fit(Weight::Bold, size, &line, room),
        );
    }
    let dim = style(Weight::Regular, 16.0, rgb(0xCFCBD8));
    let right = WIDTH as f32 - 20.0;
    dt(
        img,
        &dim,
        right,
        4.0,
        Align::Right,
        &trn(ctx, "deck", v.deck),
    );
    let discard = match v.discard.last() {
        Some(top) => format!(
            "{} ({})",
            trn(ctx, "discard", v.discard.len()),
            Text::new("gates.render.top")
                .arg("card", top.clone())
                .render(ctx.lang)
        ),
        None => trn(ctx, "discard", 0usize),
    };
    dt(img, &dim, right, 24.0, Align::Right, &discard);
    dt(
        img,
        &dim,
        right,
        44.0,
        Align::Right,
        &trn(ctx, "supply", v.despair_supply),
    );
}

fn draw_regions(img: &mut RgbaImage, v: &PublicView, ctx: &RenderCtx, seats: &Seats) {
    let w = REGION_W;
    for (i, r) in v.regions.iter().enumerate() {
        let x = 10.0 + i as f32 * (w + 4.0);
        let tint = mix(region_colour(r.tint), PAPER, 0.55);
        let outline = if r.scored { (ALERT, 6.0) } else { (DARK, 2.0) };
        rounded_rect(
            img,
            Pt::new(x, BOARD_Y),
            Pt::new(x + w, BOARD_Y + BOARD_H),
            12.0,
            tint,
            Some(outline),
        );
        // Name band in the full tint.
        let band = region_colour(r.tint);
        rounded_rect(
            img,
            Pt::new(x + 6.0, BOARD_Y + 6.0),
            Pt::new(x + w - 6.0, BOARD_Y + 60.0),
            8.0,
            band,
            None,
        );
        let ink = ink_on(band);
        dt(
            img,
            &style(Weight::Bold, 19.0, ink),
            x + w / 2.0,
            BOARD_Y + 10.0,
            Align::Centre,
            r.region.name(),
        );
        dt(
            img,
            &style(Weight::Regular, 14.0, ink),
            x + w / 2.0,
            BOARD_Y + 38.0,
            Align::Centre,
            &format!(
                "{} · {}",
                r.region.code(),
                trn(ctx, "gate_size", r.gate_size)
            ),
        );
        // Rank values.
        let vy = BOARD_Y + 70.0;
        rounded_rect(
            img,
            Pt::new(x + 8.0, vy),
            Pt::new(x + w - 8.0, vy + 34.0),
            8.0,
            WHITE,
            None,
        );

        let values = format!("{} · {} · {}", r.values[0], r.values[1], r.values[2]);
        dt(
            img,
            &style(Weight::Bold, 18.0, INK),
            x + w / 2.0,
            vy + 7.0,
            Align::Centre,
            &values,
        );
        // Pawn stacks.
        let mut py = BOARD_Y + 116.0;
        for o in Owner::ALL {
            let in_game = match o.seat() {
                Some(s) => s.0 < v.seats,
                None => v.duel,
            };
            if !in_game {
                continue;
            }
            let n = r.counts[o.index()];
            let c = Pt::new(x + 34.0, py + 24.0);
            if n == 0 {
                // Nobody of this colour here: a blank row keeps the colours in place.
                py += 50.0;
                continue;
            }
            pawn(img, c, 16.0, o, seats.letter(o));
            let colour = INK;
            dt(
                img,
                &style(Weight::Bold, 21.0, colour),
                x + 58.0,
                py + 8.0,
                Align::Left,
                &format!("× {n}"),
            );
            py += 50.0;
        }
    }
}

fn draw_right(img: &mut RgbaImage, v: &PublicView, ctx: &RenderCtx) {
    let x = RIGHT_X;
    let w = WIDTH as f32 - x - 10.0;
    rounded_rect(
        img,
        Pt::new(x, BOARD_Y),
        Pt::new(x + w, BOARD_Y + BOARD_H),
        12.0,
        PAPER,
        Some((DARK, 2.0)),
    );
    let head = style(Weight::Bold, 20.0, INK);
    let body = style(Weight::Regular, 15.0, INK);
    let mut y = BOARD_Y + 8.0;
    dt(
        img,
        &head,
        x + 14.0,
        y,
        Align::Left,
        &tr(ctx, "monstrosities"),
    );
    if !v.discs.is_empty() {
        // What the orange ring on the first disc means.
        dt(
            img,
            &body,
            x + w - 14.0,
            y + 2.0,
            Align::Right,
            &tr(ctx, "disc_next"),
        );
    }
    y += 26.0;
    for (i, (val, icon)) in v.discs.iter().enumerate() {
        let c = Pt::new(x + 36.0 + i as f32 * 56.0, y + 24.0);
        fill_disc(img, c, 22.0, rgb(0x5B2A4E));
        ring(img, c, 22.0, 3.0, if i == 0 { ALERT } else { DARK });
        draw_text_centred(img, &style(Weight::Bold, 22.0, WHITE), c, &val.to_string());
        if *icon {
            draw_text_centred(
                img,
                &style(Weight::Bold, 18.0, ALERT),
                Pt::new(c.x + 22.0, c.y - 22.0),
                "★",
            );
        }
    }
    if v.discs.is_empty() {
        dt(img, &body, x + 14.0, y + 14.0, Align::Left, "—");
    }
    y += 52.0;
    dt(img, &head, x + 14.0, y, Align::Left, &tr(ctx, "scrolls"));
    y += 24.0;
    for (i, s) in v.scrolls.iter().enumerate() {
        let top = y + i as f32 * 38.0;
        let (fill, line1, line2) = match s {
            Some(sc) => (
                rgb(0xF3E2B3),
                scroll_text(*sc).render(ctx.lang),
                scroll_effect_text(*sc).render(ctx.lang),
            ),
            None => (rgb(0x6B6577), tr(ctx, "face_down"), String::new()),
        };
        rounded_rect(
            img,
            Pt::new(x + 14.0, top),
            Pt::new(x + w - 14.0, top + 34.0),
            6.0,
            fill,
            Some((DARK, 1.5)),
        );
        let ink = ink_on(fill);
        dt(
            img,
            &style(Weight::Bold, 16.0, ink),
            x + 24.0,
            top + 2.0,
            Align::Left,
            &format!("{}. {}", i + 1, line1),
        );
        if !line2.is_empty() {
            dt(
                img,
                &style(Weight::Regular, 14.0, ink),
                x + 24.0,
                top + 18.0,
                Align::Left,
                &fit(Weight::Regular, 14.0, &line2, w - 60.0),
            );
        }
    }
    y += 3.0 * 38.0 + 2.0;
    dt(img, &head, x + 14.0, y, Align::Left, &tr(ctx, "pool"));
    dt(
        img,
        &body,
        x + w - 14.0,
        y + 2.0,
        Align::Right,
        &trn(ctx, "gate_deck", v.gate_deck),
    );
    y += 24.0;
    let cw = (w - 28.0 - 3.0 * 8.0) / 4.0;
    for (i, slot) in v.pool.iter().enumerate() {
        let cx = x + 14.0 + i as f32 * (cw + 8.0);
        match slot {
            Some(r) => {
                let tint = v
                    .regions
                    .get(r.index())
                    .map_or(PAPER, |rv| region_colour(rv.tint));
                rounded_rect(
                    img,
                    Pt::new(cx, y),
                    Pt::new(cx + cw, y + 72.0),
                    8.0,
                    tint,
                    Some((DARK, 2.0)),
                );
                let ink = ink_on(tint);
                dt(
                    img,
                    &style(Weight::Bold, 22.0, ink),
                    cx + cw / 2.0,
                    y + 6.0,
                    Align::Centre,
                    &(i + 1).to_string(),
                );
                dt(
                    img,
                    &style(Weight::Bold, 15.0, ink),
                    cx + cw / 2.0,
                    y + 36.0,
                    Align::Centre,
                    r.code(),
                );
                // The region's full name is on its board panel.
            }
            None => {
                rounded_rect(
                    img,
                    Pt::new(cx, y),
                    Pt::new(cx + cw, y + 72.0),
                    8.0,
                    PAPER,
                    Some((INK_DIM, 2.0)),
                );
                dt(
                    img,
                    &style(Weight::Bold, 22.0, INK_DIM),
                    cx + cw / 2.0,
                    y + 6.0,
                    Align::Centre,
                    &(i + 1).to_string(),
                );
            }
        }
    }
    y += 78.0;
    let c = v.costs;
    let costs = Text::new("gates.render.costs")
        .arg("swap", c[0])
        .arg("refresh", c[1])
        .arg("flip", c[2])
        .arg("score", c[3])
        .render(ctx.lang);
    dt(
        img,
        &style(Weight::Regular, 14.0, INK),
        x + 14.0,
        y,
        Align::Left,
        &fit(Weight::Regular, 14.0, &costs, w - 28.0),
    );
}

fn gate_label(g: &super::state::Gate, ctx: &RenderCtx, size: u8) -> (String, bool) {
    match g.state {
        GateState::Opened { disc } => (format!("{} ({disc})", g.region.code()), true),
        GateState::Unopened => (
            format!(
                "{} {}/{} {}",
                g.region.code(),
                g.cards,
                size,
                tr(ctx, "unopened")
            ),
            false,
        ),
        _ => (format!("{} {}/{}", g.region.code(), g.cards, size), false),
    }
}

#[allow(clippy::too_many_arguments)]
fn draw_player(
    img: &mut RgbaImage,
    v: &PublicView,
    ctx: &RenderCtx,
    seats: &Seats,
    i: usize,
    x: f32,
    y: f32,
    w: f32,
    h: f32,
) {
    let seat = Seat::at(i);
    let p = &v.players[i];
    let o = Owner::of(seat);
    let colour = owner_colour(o);
    let active = v.to_act == Some(seat);
    let winner = v.ending.as_ref().is_some_and(|e| e.winners.contains(&seat));
    // The header's colours: gold for a winner, orange for the seat to play.
    let edge = if winner {
        (frame::WINNER, 6.0)
    } else if active {
        (ALERT, 6.0)
    } else {
        (colour, 3.0)
    };
    rounded_rect(
        img,
        Pt::new(x, y),
        Pt::new(x + w, y + h),
        12.0,
        PAPER,
        Some(edge),
    );
    fill_rect(
        img,
        (x + 8.0) as i64,
        (y + 8.0) as i64,
        10,
        (h - 16.0) as i64,
        colour,
    );
    token(
        img,
        Pt::new(x + 44.0, y + 30.0),
        18.0,
        colour,
        seats.letters[i],
    );
    let name = fit(Weight::Bold, 21.0, &seats.names[i], w - 380.0);
    dt(
        img,
        &style(Weight::Bold, 21.0, INK),
        x + 70.0,
        y + 14.0,
        Align::Left,
        &name,
    );
    let total = match &v.ending {
        Some(e) => e.scores[i].total,
        None => p.score,
    };
    dt(
        img,
        &style(Weight::Bold, 25.0, INK),
        x + w - 14.0,
        y + 10.0,
        Align::Right,
        &trn(ctx, "score", total),
    );
    let stats = format!(
        "{}  ·  {}  ·  {}  ·  {}",
        trn(ctx, "despair", p.despair),
        trn(ctx, "on_board", p.supply),
        trn(ctx, "hand", p.hand_size),
        trn(ctx, "turns", p.turns_started)
    );
    dt(
        img,
        &style(Weight::Regular, 15.0, INK),
        x + 30.0,
        y + 46.0,
        Align::Left,
        &stats,
    );
    // Page strip 1-20.
    let sy = y + 72.0;
    dt(
        img,
        &style(Weight::Bold, 14.0, INK),
        x + 30.0,
        sy + 4.0,
        Align::Left,
        &tr(ctx, "pages"),
    );
    let bx = x + 90.0;
    let bw = ((w - 110.0) / 20.0).min(34.0);
    for n in 1..=20u8 {
        let cx = bx + f32::from(n - 1) * bw;
        let held = p.pages.contains(&n);
        if held {
            fill_rect(img, cx as i64, sy as i64, (bw - 3.0) as i64, 26, colour);
        }
        let ink = if held {
            ink_on(colour)
        } else {
            mix(INK_DIM, WHITE, 0.3)
        };
        let centre = Pt::new(cx + (bw - 3.0) / 2.0, sy + 13.0);
        if held || n == 1 || n == 20 {
            draw_text_centred(
                img,
                &style(if held { Weight::Bold } else { Weight::Regular }, 14.0, ink),
                centre,
                &n.to_string(),
            );
        } else {
            // Pages nobody holds: a dot, numbered every fifth page.
            fill_rect(img, centre.x as i64 - 1, centre.y as i64 - 1, 3, 3, ink);
        }
        let run = held && (p.pages.contains(&(n + 1)) || (n > 1 && p.pages.contains(&(n - 1))));
        if run {
            fill_rect(
                img,
                cx as i64,
                (sy + 29.0) as i64,
                (bw - 3.0) as i64,
                4,
                INK,
            );
        }
    }
    let q = p.fragments;
    let sets = q.iter().copied().min().unwrap_or(0);
    let bp = Text::new("gates.render.blueprints")
        .arg("nw", q[0])
        .arg("ne", q[1])
        .arg("sw", q[2])
        .arg("se", q[3])
        .arg("sets", sets)
        .render(ctx.lang);
    let runes = Text::new("gates.render.runes")
        .arg("n", p.runes)
        .arg("pts", p.rune_points)
        .render(ctx.lang);
    dt(
        img,
        &style(Weight::Regular, 15.0, INK),
        x + 30.0,
        sy + 38.0,
        Align::Left,
        &format!("{bp}   ·   {runes}"),
    );
    // Gates.
    let gy = sy + 64.0;
    dt(
        img,
        &style(Weight::Bold, 14.0, INK),
        x + 30.0,
        gy + 4.0,
        Align::Left,
        &tr(ctx, "gates"),
    );
    if p.gates.is_empty() {
        dt(
            img,
            &style(Weight::Regular, 14.0, INK_DIM),
            x + 90.0,
            gy + 4.0,
            Align::Left,
            &tr(ctx, "no_gates"),
        );
    }
    let mut gx = x + 90.0;
    let mut gyy = gy;
    for g in &p.gates {
        let size = v.regions.get(g.region.index()).map_or(5, |r| r.gate_size);
        let tint = v
            .regions
            .get(g.region.index())
            .map_or(PAPER, |r| region_colour(r.tint));
        let (label, opened) = gate_label(g, ctx, size);
        let lw = text_width(Weight::Bold, 14.0, &label) + 18.0;
        if gx + lw > x + w - 10.0 {
            gx = x + 90.0;
            gyy += 30.0;
            if gyy > y + h - if v.ending.is_some() { 56.0 } else { 30.0 } {
                break;
            }
        }
        let fill = if opened { mix(tint, DARK, 0.45) } else { tint };
        rounded_rect(
            img,
            Pt::new(gx, gyy),
            Pt::new(gx + lw, gyy + 26.0),
            4.0,
            fill,
            (g.state == GateState::Unopened).then_some((ALERT, 3.0)),
        );
        if !opened && size > 0 {
            // Progress underline.
            let frac = f32::from(g.cards) / f32::from(size);
            fill_rect(
                img,
                (gx + 3.0) as i64,
                (gyy + 21.0) as i64,
                ((lw - 6.0) * frac) as i64,
                3,
                INK,
            );
        }
        dt(
            img,
            &style(Weight::Bold, 14.0, ink_on(fill)),
            gx + 9.0,
            gyy + 4.0,
            Align::Left,
            &label,
        );
        gx += lw + 8.0;
    }
    // Final breakdown.
    if let Some(e) = &v.ending {
        let f = &e.scores[i];
        let line = Text::new("gates.render.final_line")
            .arg("in_game", f.in_game)
            .arg("board", f.investigators)
            .arg("scrolls", f.artisan + f.recruiter + f.keeper)
            .arg("runes", f.runes)
            .arg("pages", f.pages)
            .arg("blueprints", f.blueprints)
            .arg("total", f.total)
            .render(ctx.lang);
        dt(
            img,
            &style(Weight::Regular, 13.0, INK),
            x + 30.0,
            y + h - 22.0,
            Align::Left,
            &fit(Weight::Regular, 13.0, &line, w - 44.0),
        );
    }
}

/// The box of seat `i`'s panel on the board: two panels to a row.
fn panel_box(i: usize) -> (f32, f32, f32, f32) {
    let pw = (WIDTH as f32 - 30.0) / 2.0;
    let x = 10.0 + (i % 2) as f32 * (pw + PANEL_GAP);
    let y = PLAYERS_Y + (i / 2) as f32 * (PANEL_H + PANEL_GAP);
    (x, y, pw, PANEL_H)
}

/// The board's height: as many rows of panels as the players need, and no empty band.
fn board_height(players: usize) -> u32 {
    let rows = players.div_ceil(2).max(1) as f32;
    (PLAYERS_Y + rows * (PANEL_H + PANEL_GAP)).ceil() as u32
}

/// The public board image: the board between the common header and footer.
pub fn render_public(v: &PublicView, ctx: &RenderCtx) -> RgbaImage {
    let n = v.players.len();
    let mut img = crate::render::canvas(WIDTH, board_height(n), BG);
    let seats = Seats::new(ctx, usize::from(v.seats));
    draw_strip(&mut img, v, ctx);
    draw_regions(&mut img, v, ctx, &seats);
    draw_right(&mut img, v, ctx);
    for i in 0..n {
        let (x, y, w, h) = panel_box(i);
        draw_player(&mut img, v, ctx, &seats, i, x, y, w, h);
    }
    frame::compose(&img, &board_frame(v, ctx, &seats))
}

/// The game's name, with its number when it has one.
fn title(ctx: &RenderCtx) -> String {
    match ctx.number {
        Some(n) => Text::new("gates.render.title_number")
            .arg("n", n)
            .render(ctx.lang),
        None => tr(ctx, "title"),
    }
}

/// What the header and footer say around the board.
fn board_frame<'a>(v: &PublicView, ctx: &RenderCtx, seats: &Seats) -> Frame<'a> {
    let first = Text::new("gates.render.first")
        .arg("name", seats.names[v.first.index()].clone())
        .render(ctx.lang);
    let to_act = v.to_act.filter(|_| !ctx.stopped && v.ending.is_none());
    let status = match (&v.ending, to_act, v.prompt_kind) {
        (Some(e), _, _) => ending_status(v, e, ctx, seats),
        (None, Some(s), Some(k)) => Status::Turn {
            seat: s.index(),
            text: Text::new("gates.render.deciding")
                .arg("name", seats.names[s.index()].clone())
                .arg("kind", kind_text(ctx, k))
                .render(ctx.lang),
        },
        _ if ctx.stopped => Status::Plain(tr(ctx, "ended")),
        _ => Status::Plain(String::new()),
    };
    let winners: &[Seat] = v.ending.as_ref().map_or(&[], |e| &e.winners);
    let chips = (0..v.players.len())
        .map(|i| SeatChip {
            name: seats.names[i].clone(),
            colour: owner_colour(Owner::of(Seat::at(i))),
            letter: seats.letters[i],
            score: match &v.ending {
                Some(e) => e.scores[i].total,
                None => v.players[i].score,
            }
            .to_string(),
            turn: to_act == Some(Seat::at(i)),
            winner: winners.contains(&Seat::at(i)),
        })
        .collect();
    Frame {
        title: title(ctx),
        subtitle: format!("{} · {first}", trn(ctx, "round", v.round)),
        status,
        seats: chips,
        legend_title: tr(ctx, "legend"),
        legend: legend(v, ctx),
    }
}

/// The header's status line for `v` (tests read what it says).
#[cfg(test)]
pub(super) fn header_status(v: &PublicView, ctx: &RenderCtx) -> Status {
    board_frame(v, ctx, &Seats::new(ctx, usize::from(v.seats))).status
}

/// The result in the header: who won, by how much, and which rule decided a tie (spec section
/// 8: points, then despair tokens left, then fewer turns started or a shared win).
fn ending_status(v: &PublicView, e: &Ending, ctx: &RenderCtx, seats: &Seats) -> Status {
    let names: Vec<String> = e
        .winners
        .iter()
        .map(|s| seats.names[s.index()].clone())
        .collect();
    let headline = if names.len() == 1 {
        Text::new("gates.render.wins")
            .arg("name", names.join(""))
            .render(ctx.lang)
    } else {
        Text::new("gates.render.shared_win")
            .arg("names", names.join(", "))
            .render(ctx.lang)
    };
    let Some(best) = e.winners.first().and_then(|s| e.scores.get(s.index())) else {
        return Status::Over {
            headline,
            detail: String::new(),
            colour: None,
        };
    };
    // The best of the others: the runner-up, whom the winner beat by points or by a tie-break.
    let runner = e
        .scores
        .iter()
        .enumerate()
        .filter(|(i, _)| !e.winners.contains(&Seat::at(*i)))
        .map(|(_, f)| f)
        .max_by_key(|f| (f.total, f.despair, -i64::from(f.turns_started)));
    let shared = tr(
        ctx,
        if v.options.fewer_turns {
            "shared_all_equal"
        } else {
            "shared_by_option"
        },
    );
    let tied = trn(ctx, "tied", best.total);
    let detail = match runner {
        Some(r) if r.total < best.total => format!(
            "{} · {}",
            Text::new("gates.render.lead")
                .arg("best", best.total)
                .arg("next", r.total)
                .render(ctx.lang),
            tr(ctx, "most_points")
        ),
        Some(r) => {
            let (rule, a, b) = if r.despair < best.despair {
                ("tiebreak_despair", best.despair.into(), r.despair.into())
            } else {
                ("tiebreak_turns", best.turns_started, r.turns_started)
            };
            let rule = Text::new(format!("gates.render.{rule}"))
                .arg("a", a)
                .arg("b", b)
                .render(ctx.lang);
            format!("{tied} · {rule}")
        }
        // Everyone won: a shared win after every tie-break.
        None => format!("{tied} · {shared}"),
    };
    // Several winners but not everyone: they tied on every rule that applies.
    let detail = if e.winners.len() > 1 && runner.is_some() {
        format!("{detail} · {shared}")
    } else {
        detail
    };
    let colour = (e.winners.len() == 1).then(|| owner_colour(Owner::of(e.winners[0])));
    Status::Over {
        headline,
        detail,
        colour,
    }
}

/// The footer's legend: the board's symbols (the seats are the header's chips).
fn legend<'a>(v: &PublicView, ctx: &RenderCtx) -> Vec<LegendEntry<'a>> {
    let mut entries: Vec<LegendEntry<'a>> = Vec::new();
    if v.duel {
        entries.push(LegendEntry::new(
            tr(ctx, "legend_neutral"),
            |img: &mut RgbaImage, c: Pt| {
                pawn(img, c, 10.0, Owner::Neutral, 'N');
            },
        ));
    }
    entries.push(LegendEntry::new(
        tr(ctx, "ranks"),
        |img: &mut RgbaImage, c: Pt| {
            rounded_rect(
                img,
                Pt::new(c.x - 10.0, c.y - 8.0),
                Pt::new(c.x + 10.0, c.y + 8.0),
                3.0,
                WHITE,
                Some((INK_DIM, 1.0)),
            );
        },
    ));
    entries.push(LegendEntry::new(
        tr(ctx, "legend_scroll"),
        |img: &mut RgbaImage, c: Pt| {
            draw_text_centred(img, &style(Weight::Bold, 18.0, ALERT), c, "★");
        },
    ));
    entries.push(LegendEntry::new(
        tr(ctx, "legend_despair"),
        |img: &mut RgbaImage, c: Pt| {
            draw_text_centred(img, &style(Weight::Bold, 18.0, INK), c, "◆");
        },
    ));
    entries.push(LegendEntry::new(
        tr(ctx, "legend_scored"),
        |img: &mut RgbaImage, c: Pt| {
            rounded_rect(
                img,
                Pt::new(c.x - 10.0, c.y - 8.0),
                Pt::new(c.x + 10.0, c.y + 8.0),
                3.0,
                PAPER,
                Some((ALERT, 4.0)),
            );
        },
    ));
    entries.push(LegendEntry::new(
        tr(ctx, "legend_pages"),
        |img: &mut RgbaImage, c: Pt| {
            rounded_rect(
                img,
                Pt::new(c.x - 9.0, c.y - 9.0),
                Pt::new(c.x + 9.0, c.y + 7.0),
                3.0,
                INK_DIM,
                None,
            );
            fill_rect(img, (c.x - 9.0) as i64, (c.y + 9.0) as i64, 18, 3, INK);
        },
    ));
    if v.players.iter().any(|p| {
        p.gates
            .iter()
            .any(|g| matches!(g.state, GateState::Opened { .. }))
    }) {
        entries.push(LegendEntry::new(
            tr(ctx, "legend_opened"),
            |img: &mut RgbaImage, c: Pt| {
                let fill = mix(rgb(0x8A7FB0), DARK, 0.45);
                rounded_rect(
                    img,
                    Pt::new(c.x - 17.0, c.y - 10.0),
                    Pt::new(c.x + 15.0, c.y + 10.0),
                    4.0,
                    fill,
                    None,
                );
                draw_text_centred(
                    img,
                    &style(Weight::Bold, 12.0, ink_on(fill)),
                    Pt::new(c.x - 1.0, c.y),
                    "(12)",
                );
            },
        ));
    }
    entries
}

/// One half of a hand card in the box `(x, y, w, h)`; `bright` when it matches the disc.
fn draw_half(
    img: &mut RgbaImage,
    ctx: &RenderCtx,
    (x, y, w, h): (f32, f32, f32, f32),
    e: Effect,
    mode: Mode,
    bright: bool,
) {
    let (fill, border) = match mode {
        Mode::Sane => (rgb(0xFBF8F0), WHITE),
        Mode::Insane => (rgb(0x3B2440), DARK),
    };
    let fill = if bright {
        fill
    } else {
        mix(fill, rgb(0x808080), 0.55)
    };
    rounded_rect(
        img,
        Pt::new(x, y),
        Pt::new(x + w, y + h),
        8.0,
        fill,
        Some((border, 4.0)),
    );
    let ink = ink_on(fill);
    let tag = tr(
        ctx,
        if mode == Mode::Sane {
            "sane_half"
        } else {
            "insane_half"
        },
    );
    dt(
        img,
        &style(Weight::Regular, 14.0, ink),
        x + 10.0,
        y + 6.0,
        Align::Left,
        &tag,
    );
    let label = effect_text(e).render(ctx.lang);
    let size = if text_width(Weight::Bold, 20.0, &label) > w - 16.0 {
        16.0
    } else {
        20.0
    };
    dt(
        img,
        &style(Weight::Bold, size, ink),
        x + w / 2.0,
        y + h / 2.0 - 4.0,
        Align::Centre,
        &label,
    );
    if e.is_artifact() {
        draw_text_centred(
            img,
            &style(Weight::Bold, 18.0, ALERT),
            Pt::new(x + w - 16.0, y + 14.0),
            "★",
        );
    }
}

/// The private hand image: each card split in its sane (top) and insane (bottom) halves.
pub fn render_private(v: &PrivateView, ctx: &RenderCtx) -> RgbaImage {
    let mut img = crate::render::canvas(HAND_W, HAND_H, BG);
    let names: Vec<String> = (0..4).map(|i| ctx.name(Seat(i))).collect();
    let name = names.get(v.seat.index()).cloned().unwrap_or_default();
    let head = Text::new("gates.render.your_hand")
        .arg("name", name)
        .render(ctx.lang);
    let colour = owner_colour(Owner::of(v.seat));
    fill_rect(&mut img, 0, 0, i64::from(HAND_W), 56, frame::BAND);
    fill_rect(&mut img, 0, 0, 12, 56, colour);
    dt(
        &mut img,
        &style(Weight::Bold, 24.0, WHITE),
        24.0,
        14.0,
        Align::Left,
        &fit(Weight::Bold, 24.0, &head, 480.0),
    );
    dt(
        &mut img,
        &style(Weight::Bold, 22.0, WHITE),
        560.0,
        16.0,
        Align::Left,
        &trn(ctx, "despair", v.despair),
    );
    let mode_label = match v.mode {
        Some(Mode::Sane) => tr(ctx, "sane"),
        Some(Mode::Insane) => tr(ctx, "insane"),
        None => tr(ctx, "unset"),
    };
    dt(
        &mut img,
        &style(Weight::Bold, 22.0, ALERT),
        HAND_W as f32 - 20.0,
        16.0,
        Align::Right,
        &mode_label,
    );
    let n = v.hand.len().max(1);
    let gap = 10.0;
    let cw = ((HAND_W as f32 - 20.0 - gap * (n as f32 - 1.0)) / n as f32).min(190.0);
    for (i, c) in v.hand.iter().enumerate() {
        let x = 10.0 + i as f32 * (cw + gap);
        let y = 70.0;
        dt(
            &mut img,
            &style(Weight::Bold, 24.0, WHITE),
            x + cw / 2.0,
            y,
            Align::Centre,
            &c.id,
        );
        if c.new {
            dt(
                &mut img,
                &style(Weight::Regular, 14.0, ALERT),
                x + cw / 2.0,
                y + 30.0,
                Align::Centre,
                &tr(ctx, "new_card"),
            );
        }
        let sane_bright = v.mode != Some(Mode::Insane);
        let insane_bright = v.mode != Some(Mode::Sane);
        draw_half(
            &mut img,
            ctx,
            (x, y + 50.0, cw, 100.0),
            c.sane,
            Mode::Sane,
            sane_bright,
        );
        draw_half(
            &mut img,
            ctx,
            (x, y + 156.0, cw, 100.0),
            c.insane,
            Mode::Insane,
            insane_bright,
        );
    }
    let oy = 340.0;
    // The ★ on a card half says "artifact": say so once, beside the options' heading.
    let artifacts = v
        .hand
        .iter()
        .any(|c| c.sane.is_artifact() || c.insane.is_artifact());
    if artifacts {
        dt(
            &mut img,
            &style(Weight::Regular, 15.0, rgb(0xCFCBD8)),
            HAND_W as f32 - 20.0,
            oy + 2.0,
            Align::Right,
            &tr(ctx, "artifact_note"),
        );
    }
    if v.options.is_empty() {
        dt(
            &mut img,
            &style(Weight::Regular, 18.0, rgb(0xCFCBD8)),
            20.0,
            oy + 20.0,
            Align::Left,
            &tr(ctx, if v.over { "ended" } else { "not_your_turn" }),
        );
    } else {
        dt(
            &mut img,
            &style(Weight::Bold, 18.0, WHITE),
            20.0,
            oy,
            Align::Left,
            &tr(ctx, "your_options"),
        );
        let mut line = String::new();
        let mut ly = oy + 26.0;
        for o in &v.options {
            let candidate = if line.is_empty() {
                o.clone()
            } else {
                format!("{line}  ·  {o}")
            };
            if text_width(Weight::Regular, 17.0, &candidate) > HAND_W as f32 - 40.0 {
                dt(
                    &mut img,
                    &style(Weight::Regular, 17.0, rgb(0xE8E4F0)),
                    20.0,
                    ly,
                    Align::Left,
                    &line,
                );
                ly += 24.0;
                line = o.clone();
            } else {
                line = candidate;
            }
        }
        if !line.is_empty() && ly < HAND_H as f32 - 20.0 {
            dt(
                &mut img,
                &style(Weight::Regular, 17.0, rgb(0xE8E4F0)),
                20.0,
                ly,
                Align::Left,
                &line,
            );
        }
    }
    img
}

// ---- zoom (phones) ----------------------------------------------------------------------

/// At the end the header's result first; the viewer's panel, the panel of the seat to play, the regions under the strip's left end (the disc's side and this
/// turn's cards) folded in two rows of three and two, then the monstrosities, scrolls and gate
/// pool. Everything is in the composed image's pixels: the board sits under the header.
pub fn zoom_regions(v: &PublicView, ctx: &RenderCtx, viewer: Option<Seat>) -> Vec<zoom::Region> {
    // A game stopped by a resignation or a cancel is nobody's turn.
    let to_act = v.to_act.filter(|_| !ctx.stopped);
    let seats = Seats::new(ctx, usize::from(v.seats));
    let frame = board_frame(v, ctx, &seats);
    let off = frame::board_offset(&frame, WIDTH).1 as f32;
    let n = v.players.len();
    let panel = |s: Seat| {
        let (x, y, w, h) = panel_box(s.index());
        let caption = ctx.zoom_caption(s, viewer, to_act);
        zoom::Region::new(caption, x - 4.0, off + y - 4.0, w + 8.0, h + 8.0)
    };
    let mut parts = Vec::new();
    if let Some(me) = viewer.filter(|s| s.index() < n) {
        parts.push(panel(me));
    }
    if let Some(s) = to_act.filter(|&s| Some(s) != viewer && s.index() < n) {
        parts.push(panel(s));
    }
    let column = |k: f32| 10.0 + k * (REGION_W + 4.0);
    let (top, h) = (off + BOARD_Y - 4.0, BOARD_H + 8.0);
    parts.push(
        zoom::Region::new(ctx.zoom_text("regions"), 0.0, off, STRIP_LEFT_W, STRIP_H)
            .below(column(0.0) - 4.0, top, column(3.0) - 6.0, h)
            .below(column(3.0) - 4.0, top, column(5.0) - column(3.0) + 4.0, h),
    );
    parts.push(zoom::Region::new(
        ctx.zoom_text("table"),
        RIGHT_X - 4.0,
        top,
        WIDTH as f32 - RIGHT_X,
        h,
    ));
    // At the end the header's right end, where it says who won, by how much and why, goes
    // first (its seat chips are the panels' scores again).
    if v.ending.is_some() {
        parts.insert(
            0,
            frame::zoom_status(&frame, WIDTH, ctx.zoom_text("status")),
        );
        parts.truncate(zoom::MAX_PARTS);
    }
    parts
}
