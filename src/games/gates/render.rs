//! The Gates of Delirium images (spec section 11): the public board (1600 × 1200) and the
//! private hand (1000 × 420). Drawn only from the views; every label is localized.

use image::{Rgba, RgbaImage};

use super::components::Effect;
use super::state::{GateState, Mode, Owner};
use super::view::{
    effect_text, scroll_effect_text, scroll_text, PlayedView, PrivateView, PublicView,
};
use crate::engine::{RenderCtx, Seat};
use crate::i18n::Text;
use crate::render::palette::{self, ink_on, mix, rgb, ALERT, INK, INK_DIM, PAPER, WHITE};
use crate::render::panel::{fit, fit_size, LegendEntry};
use crate::render::shapes::{fill_disc, fill_rect, ring, rounded_rect, Pt};
use crate::render::text::{draw_text, draw_text_centred, text_width, Align, Style, Weight};
use crate::render::zoom;

pub const WIDTH: u32 = 1280;
pub const HEIGHT: u32 = 920;
pub const HAND_W: u32 = 1000;
pub const HAND_H: u32 = 440;

const BG: Rgba<u8> = rgb(0x23212B);
const DARK: Rgba<u8> = rgb(0x15141A);
const NEUTRAL: Rgba<u8> = rgb(0x9A9A9A);
const HEADER_H: f32 = 80.0;
const BOARD_Y: f32 = 88.0;
const BOARD_H: f32 = 356.0;
const PLAYERS_Y: f32 = 452.0;
const LEGEND_Y: f32 = 852.0;
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

/// Room for the header's status line, between the mode badge and the decks.
const STATUS_W: f32 = 470.0;

fn draw_header(img: &mut RgbaImage, v: &PublicView, ctx: &RenderCtx, seats: &Seats) {
    fill_rect(img, 0, 0, i64::from(WIDTH), HEADER_H as i64, DARK);
    let white = style(Weight::Bold, 23.0, WHITE);
    let dim = style(Weight::Regular, 16.0, rgb(0xCFCBD8));
    dt(
        img,
        &white,
        20.0,
        8.0,
        Align::Left,
        &trn(ctx, "round", v.round),
    );
    let first = Text::new("gates.render.first")
        .arg("name", seats.names[v.first.index()].clone())
        .render(ctx.lang);
    dt(
        img,
        &dim,
        20.0,
        46.0,
        Align::Left,
        &fit(Weight::Regular, 16.0, &first, 240.0),
    );
    mode_badge(img, ctx, Pt::new(350.0, HEADER_H / 2.0), v.mode);
    // Who decides, and the cards of this turn.
    let status = if let Some(e) = &v.ending {
        let names: Vec<String> = e
            .winners
            .iter()
            .map(|s| seats.names[s.index()].clone())
            .collect();
        let winner = Text::new("gates.render.winner")
            .arg("names", names.join(", "))
            .render(ctx.lang);
        let both = format!("{} — {winner}", tr(ctx, "ended"));
        // Long seat names: the winners matter more than "game over" (the final scores say it).
        if text_width(Weight::Bold, 23.0, &both) <= STATUS_W {
            both
        } else {
            winner
        }
    } else if let (Some(s), Some(k)) = (v.to_act, v.prompt_kind) {
        Text::new("gates.render.deciding")
            .arg("name", seats.names[s.index()].clone())
            .arg("kind", kind_text(ctx, k))
            .render(ctx.lang)
    } else {
        String::new()
    };
    if let Some(s) = v.to_act {
        token(
            img,
            Pt::new(520.0, 24.0),
            14.0,
            owner_colour(Owner::of(s)),
            seats.letters[s.index()],
        );
    }
    // Shrunk before it is ever cut, so a long winner line stays whole.
    let size = fit_size(Weight::Bold, &[23.0, 21.0, 19.0], &status, STATUS_W);
    dt(
        img,
        &style(Weight::Bold, size, WHITE),
        544.0,
        8.0 + (23.0 - size) / 2.0,
        Align::Left,
        &fit(Weight::Bold, size, &status, STATUS_W),
    );
    let mut cards: Vec<String> = v.played.iter().map(|p| played_str(ctx, p)).collect();
    if let Some(p) = &v.in_play {
        cards.push(format!("▶ {}", played_str(ctx, p)));
    }
    if !cards.is_empty() {
        let line = Text::new("gates.render.played")
            .arg("cards", cards.join(" · "))
            .render(ctx.lang);
        dt(
            img,
            &dim,
            510.0,
            46.0,
            Align::Left,
            &fit(Weight::Regular, 16.0, &line, 480.0),
        );
    }
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
    dt(img, &dim, right, 30.0, Align::Right, &discard);
    dt(
        img,
        &dim,
        right,
        56.0,
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
    rounded_rect(
        img,
        Pt::new(x, y),
        Pt::new(x + w, y + h),
        12.0,
        PAPER,
        Some((
            if active || winner { ALERT } else { colour },
            if active || winner { 6.0 } else { 3.0 },
        )),
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

/// The public board image.
pub fn render_public(v: &PublicView, ctx: &RenderCtx) -> RgbaImage {
    let mut img = crate::render::canvas(WIDTH, HEIGHT, BG);
    let seats = Seats::new(ctx, usize::from(v.seats));
    draw_header(&mut img, v, ctx, &seats);
    draw_regions(&mut img, v, ctx, &seats);
    draw_right(&mut img, v, ctx);
    let n = v.players.len();
    let cols = 2;
    let rows = n.div_ceil(cols).max(1);
    let pw = (WIDTH as f32 - 30.0) / 2.0;
    let ph = (LEGEND_Y - PLAYERS_Y - 10.0 * rows as f32) / rows as f32;
    for i in 0..n {
        let x = 10.0 + (i % cols) as f32 * (pw + 10.0);
        let y = PLAYERS_Y + (i / cols) as f32 * (ph + 10.0);
        draw_player(&mut img, v, ctx, &seats, i, x, y, pw, ph.min(196.0));
    }
    draw_legend(&mut img, v, ctx, &seats);
    img
}

fn draw_legend(img: &mut RgbaImage, v: &PublicView, ctx: &RenderCtx, seats: &Seats) {
    let mut entries: Vec<LegendEntry<'_>> = Vec::new();
    for i in 0..usize::from(v.seats) {
        let o = Owner::of(Seat::at(i));
        let letter = seats.letters[i];
        let label = format!(
            "{} ({})",
            seats.names[i],
            Text::new(format!("gates.colour.{}", o.code())).render(ctx.lang)
        );
        entries.push(LegendEntry::new(
            label,
            move |img: &mut RgbaImage, c: Pt| {
                token(img, c, 11.0, owner_colour(o), letter);
            },
        ));
    }
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
    // A compact strip: 5 columns, without the title row eating space.
    let x = 10.0;
    let w = WIDTH as f32 - 20.0;
    rounded_rect(
        img,
        Pt::new(x, LEGEND_Y),
        Pt::new(x + w, HEIGHT as f32 - 8.0),
        10.0,
        PAPER,
        Some((DARK, 2.0)),
    );
    let cols = 5;
    let cw = w / cols as f32;
    for (k, e) in entries.iter().enumerate() {
        let cx = x + 24.0 + (k % cols) as f32 * cw;
        let cy = LEGEND_Y + 18.0 + (k / cols) as f32 * 27.0;
        (e.icon)(img, Pt::new(cx, cy));
        dt(
            img,
            &style(Weight::Regular, 14.0, INK),
            cx + 20.0,
            cy - 10.0,
            Align::Left,
            &fit(Weight::Regular, 14.0, &e.label, cw - 50.0),
        );
    }
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
    fill_rect(&mut img, 0, 0, i64::from(HAND_W), 56, DARK);
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

/// The viewer's panel, the panel of the seat to play, the round and mode with the five regions
/// (folded in two rows of three and two), then the monstrosities, scrolls and gate pool.
pub fn zoom_regions(v: &PublicView, ctx: &RenderCtx, viewer: Option<Seat>) -> Vec<zoom::Region> {
    // A game stopped by a resignation or a cancel is nobody's turn.
    let to_act = v.to_act.filter(|_| !ctx.stopped);
    // The same panel grid as `render_public`.
    let n = v.players.len();
    let rows = n.div_ceil(2).max(1);
    let pw = (WIDTH as f32 - 30.0) / 2.0;
    let ph = (LEGEND_Y - PLAYERS_Y - 10.0 * rows as f32) / rows as f32;
    let panel = |s: Seat| {
        let i = s.index();
        let x = 10.0 + (i % 2) as f32 * (pw + 10.0);
        let y = PLAYERS_Y + (i / 2) as f32 * (ph + 10.0);
        let caption = ctx.zoom_caption(s, viewer, to_act);
        zoom::Region::new(caption, x - 4.0, y - 4.0, pw + 8.0, ph.min(196.0) + 8.0)
    };
    let mut parts = Vec::new();
    if let Some(me) = viewer.filter(|s| s.index() < n) {
        parts.push(panel(me));
    }
    if let Some(s) = to_act.filter(|&s| Some(s) != viewer && s.index() < n) {
        parts.push(panel(s));
    }
    let column = |k: f32| 10.0 + k * (REGION_W + 4.0);
    let (top, h) = (BOARD_Y - 4.0, BOARD_H + 8.0);
    parts.push(
        // The header's left end first: the round and whether the investigators are sane.
        zoom::Region::new(ctx.zoom_text("regions"), 0.0, 0.0, 450.0, HEADER_H)
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
    parts
}
