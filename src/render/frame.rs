//! One layout grammar for the five boards, written once: a **header** band on top (the game's
//! name and number, then whose turn it is or how the game ended, then every seat as a chip with
//! its colour, letter, name and score), the game's own **board** in the middle, and a **footer**
//! band with the legend. Each game draws only its board and says what goes in the bands
//! ([`Frame`]); [`compose`] puts them together.
//!
//! Sizes follow the board's width (`scale`: 1 at 1,400 px), so a board shrunk to a phone's 400 px
//! keeps the header's turn line and seat chips the largest text on it: whose turn, one's own
//! seat and score, found at a glance.

use image::{Rgba, RgbaImage};

use super::palette::{contrast, ink_on, mix, rgb, WHITE};
use super::panel::{legend_cells, token, LegendEntry};
use super::shapes::{fill_rect, rounded_rect, Pt};
use super::text::{draw_text, fit, text_width, wrap, Align, Style, Weight};
use super::zoom;

/// The bands' colours, the same for every game (dark boards and light ones alike).
pub const BAND: Rgba<u8> = rgb(0x1E2330);
/// Secondary text on the bands.
pub const BAND_DIM: Rgba<u8> = rgb(0xB8BDC9);
/// A chip's background on the header band.
const CHIP: Rgba<u8> = rgb(0x2C3342);
/// The gold of a winner's ribbon and frame.
pub const WINNER: Rgba<u8> = rgb(0xF2C14E);

/// A seat as the header shows it.
#[derive(Clone, Debug)]
pub struct SeatChip {
    pub name: String,
    pub colour: Rgba<u8>,
    pub letter: char,
    /// Its score or standing in a few characters ("24", "6/6", "3 ▲"), or empty.
    pub score: String,
    /// Its turn now: framed in its colour.
    pub turn: bool,
    /// Among the winners of a finished game: framed in gold.
    pub winner: bool,
}

/// What the header's status line says.
#[derive(Clone, Debug)]
pub enum Status {
    /// `seat` (an index into the chips) decides now; `text` says it ("Ada to play").
    Turn { seat: usize, text: String },
    /// Several seats or nobody in particular ("Waiting for 2 votes"), or a game stopped.
    Plain(String),
    /// The game is over. `headline`: who won ("Ada wins", "Draw"); `detail`: by how much and
    /// why, the tie-break by name ("14 to 16 · lowest score wins"); `colour`: the winner's.
    Over {
        headline: String,
        detail: String,
        colour: Option<Rgba<u8>>,
    },
}

/// What a game puts in the bands around its board.
pub struct Frame<'a> {
    /// The game's name and number ("Vortex #12"), then its variant or round ("Crossing · round
    /// 5 of 100"), drawn smaller.
    pub title: String,
    pub subtitle: String,
    pub status: Status,
    pub seats: Vec<SeatChip>,
    pub legend_title: String,
    pub legend: Vec<LegendEntry<'a>>,
}

/// Sizes at a board's width: 1 at 1,400 px, never under 0.75.
pub fn scale(width: u32) -> f32 {
    (width as f32 / 1400.0).max(0.75)
}

/// The header's rows at `scale`: title and status, then the seats.
struct HeaderRows {
    top: f32,
    detail: f32,
    seats: f32,
    pad: f32,
}

fn header_rows(frame: &Frame<'_>, width: u32) -> HeaderRows {
    let s = scale(width);
    let detail = match &frame.status {
        Status::Over { detail, .. } if !detail.is_empty() => 40.0 * s,
        _ => 0.0,
    };
    HeaderRows {
        top: 74.0 * s,
        detail,
        seats: if frame.seats.is_empty() {
            0.0
        } else {
            chip_rows(frame, width) as f32 * 62.0 * s
        },
        pad: 12.0 * s,
    }
}

/// A chip's least width at scale 1: its token, three or four letters of a name (the rest cut
/// with "…") and a score of three characters. Six chips fit one row of a 1,000 px board
/// (Vortex with six players); their type keeps its size.
const CHIP_MIN: f32 = 150.0;

/// Chips per row: every seat in one row when each gets at least [`CHIP_MIN`] at scale 1.
fn chips_per_row(frame: &Frame<'_>, width: u32) -> usize {
    let s = scale(width);
    let fit = ((width as f32 - 24.0 * s) / (CHIP_MIN * s))
        .floor()
        .max(1.0) as usize;
    frame.seats.len().clamp(1, fit)
}

fn chip_rows(frame: &Frame<'_>, width: u32) -> usize {
    frame.seats.len().div_ceil(chips_per_row(frame, width))
}

/// The header's height for `frame` on a board `width` wide.
pub fn header_height(frame: &Frame<'_>, width: u32) -> u32 {
    let r = header_rows(frame, width);
    (r.top + r.detail + r.seats + r.pad).ceil() as u32
}

/// The height of the header's rows above the seat chips: the title, the turn or the result and
/// its detail line (a Zoom cuts the result from there).
pub fn status_height(frame: &Frame<'_>, width: u32) -> f32 {
    let r = header_rows(frame, width);
    r.top + r.detail
}

/// A Zoom part with the header's result (the right end of its rows above the chips, where the
/// status pill and the detail line are right-aligned), at most [`zoom::MAX_WIDTH`] wide.
pub fn zoom_status(frame: &Frame<'_>, width: u32, label: String) -> zoom::Region {
    let w = (zoom::MAX_WIDTH).min(width) as f32;
    zoom::Region::new(label, width as f32 - w, 0.0, w, status_height(frame, width))
}

/// A Zoom part with the whole header in pieces no wider than [`zoom::MAX_WIDTH`], one under
/// another: its first row (in two parts on a wider board: the title on the left, whose turn
/// or the result right-aligned on the right), the result's detail line (cut into pieces in its
/// reading order when it is wider than a part), then each row of chips in groups cut between two
/// chips, so that no name or score is cut (a lone chip wider than a part shows its two ends).
pub fn zoom_header(frame: &Frame<'_>, width: u32, label: String) -> zoom::Region {
    let (w, max) = (width as f32, zoom::MAX_WIDTH as f32);
    let s = scale(width);
    let rows = header_rows(frame, width);
    let pad = 18.0 * s;
    let mut part = if w <= max {
        zoom::Region::new(label, 0.0, 0.0, w, rows.top)
    } else {
        // The title where draw_header gives it room, then the pill.
        let pill_w = pill(frame, 50.0 * s, w * 0.55).map_or(0.0, |p| p.w);
        let title = (w - pill_w - pad).min(max);
        let status = (pill_w + pad * 2.0).min(max);
        zoom::Region::new(label, 0.0, 0.0, title, rows.top).below(w - status, 0.0, status, rows.top)
    };
    // The result's detail line, right-aligned: in as few pieces as it needs, cut between two
    // words, left to right, stopped short of the chips' top edge (its anti-aliased row would
    // show as a line).
    if let Status::Over { detail, .. } = &frame.status {
        if rows.detail > 0.0 {
            let size = 24.0 * s;
            let line = fit(Weight::Regular, size, detail, w - pad * 2.0);
            let from = (w - pad * 2.0 - text_width(Weight::Regular, size, &line)).max(0.0);
            let h = (rows.detail - 2.0 * s).floor();
            let spaces: Vec<f32> = line
                .char_indices()
                .filter(|&(_, c)| c == ' ')
                .map(|(i, _)| from + pad + text_width(Weight::Regular, size, &line[..i]))
                .collect();
            let mut x0 = from;
            while w - x0 > max {
                let cut = spaces
                    .iter()
                    .copied()
                    .rfind(|&x| x > x0 + 1.0 && x - x0 <= max)
                    .unwrap_or(x0 + max);
                part = part.below(x0, rows.top, cut - x0, h);
                x0 = cut;
            }
            part = part.below(x0, rows.top, w - x0, h);
        }
    }
    let per_row = chips_per_row(frame, width);
    let pad = 12.0 * s;
    let cell = (w - pad * 2.0) / per_row as f32;
    let fit = ((max - pad * 2.0) / cell).floor().max(1.0) as usize;
    let chips_top = status_height(frame, width);
    for (row, seats) in frame.seats.chunks(per_row).enumerate() {
        let y = chips_top + row as f32 * 62.0 * s;
        // As few groups as fit, as even as can be.
        let groups = seats.len().div_ceil(fit);
        let size = seats.len().div_ceil(groups);
        let mut first = 0;
        while first < seats.len() {
            let last = (first + size).min(seats.len());
            let x0 = if first == 0 {
                0.0
            } else {
                pad + first as f32 * cell
            };
            let x1 = if last == seats.len() {
                pad * 2.0 + last as f32 * cell
            } else {
                pad + last as f32 * cell
            };
            let (x1, h) = (x1.min(w), 62.0 * s);
            part = if x1 - x0 <= max {
                part.below(x0, y, x1 - x0, h)
            } else {
                // One chip wider than a phone's part (a single seat): its two ends side by
                // side, the token and name, then the score.
                let end = (max - 8.0) / 2.0;
                part.below(x0, y, end, h).and(x1 - end, y, end, h)
            };
            first = last;
        }
    }
    part
}

/// Legend columns on a band `width` wide: one per 330 px at scale 1.
fn legend_columns(width: u32) -> usize {
    let s = scale(width);
    ((width as f32 - 24.0 * s) / (330.0 * s)).floor().max(1.0) as usize
}

/// The footer's height (0 without a legend).
pub fn footer_height(frame: &Frame<'_>, width: u32) -> u32 {
    if frame.legend.is_empty() {
        return 0;
    }
    let s = scale(width);
    let (_, rows) = legend_cells(&frame.legend, legend_columns(width));
    (s * (12.0 * 2.0 + 28.0 + 34.0 * rows as f32)).ceil() as u32
}

/// Where the board sits in the composed image: its top-left corner.
pub fn board_offset(frame: &Frame<'_>, width: u32) -> (u32, u32) {
    (0, header_height(frame, width))
}

/// The header, the board and the footer, one under the other, as wide as the board.
pub fn compose(board: &RgbaImage, frame: &Frame<'_>) -> RgbaImage {
    let width = board.width();
    let (head, foot) = (header_height(frame, width), footer_height(frame, width));
    let mut out = super::canvas(width, head + board.height() + foot, BAND);
    // Row by row: the board's bytes are the composed image's bytes, in one copy.
    let row = width as usize * 4;
    let at = head as usize * row;
    out.as_mut()[at..at + board.as_raw().len()].copy_from_slice(board.as_raw());
    draw_header(&mut out, frame);
    if foot > 0 {
        draw_footer(&mut out, frame, head + board.height());
    }
    out
}

/// Draws the header band at the top of `img`.
pub fn draw_header(img: &mut RgbaImage, frame: &Frame<'_>) {
    let width = img.width();
    let s = scale(width);
    let rows = header_rows(frame, width);
    let w = width as f32;
    let pad = 18.0 * s;
    // The status goes right, at most half the width; the title takes what is left.
    let status_w = draw_status(img, frame, Pt::new(w - pad, 12.0 * s), 50.0 * s, w * 0.55);
    let title_style = Style::new(Weight::Bold, 34.0 * s, WHITE);
    let sub_style = Style::new(Weight::Regular, 22.0 * s, BAND_DIM);
    let room = (w - status_w - pad * 3.0).max(80.0 * s);
    let title = fit(Weight::Bold, 34.0 * s, &frame.title, room);
    let tw = draw_text(img, &title_style, pad, 18.0 * s, Align::Left, &title);
    if !frame.subtitle.is_empty() {
        let left = room - tw - 14.0 * s;
        if left > 60.0 * s {
            let sub = fit(Weight::Regular, 22.0 * s, &frame.subtitle, left);
            draw_text(
                img,
                &sub_style,
                pad + tw + 14.0 * s,
                28.0 * s,
                Align::Left,
                &sub,
            );
        }
    }
    let mut y = rows.top;
    if let Status::Over { detail, .. } = &frame.status {
        if rows.detail > 0.0 {
            let style = Style::new(Weight::Regular, 24.0 * s, WHITE);
            let line = fit(Weight::Regular, 24.0 * s, detail, w - pad * 2.0);
            draw_text(img, &style, w - pad, y + 2.0 * s, Align::Right, &line);
            y += rows.detail;
        }
    }
    draw_chips(img, frame, y);
}

/// The status pill as drawn: its fill, its text (cut to its room), the seat's token and its
/// width, for a pill `h` high and at most `most` wide; `None` when there is nothing to say.
struct Pill {
    fill: Rgba<u8>,
    text: String,
    letter: Option<(Rgba<u8>, char)>,
    icon: f32,
    w: f32,
}

fn pill(frame: &Frame<'_>, h: f32, most: f32) -> Option<Pill> {
    let s = h / 50.0;
    let size = 30.0 * s;
    let (fill, text, letter) = match &frame.status {
        Status::Turn { seat, text } => match frame.seats.get(*seat) {
            Some(c) => (c.colour, text.clone(), Some((c.colour, c.letter))),
            None => (CHIP, text.clone(), None),
        },
        Status::Plain(text) => (CHIP, text.clone(), None),
        Status::Over {
            headline, colour, ..
        } => (colour.unwrap_or(WINNER), format!("★ {headline}"), None),
    };
    if text.is_empty() {
        return None;
    }
    let icon = if letter.is_some() { h * 0.8 } else { 0.0 };
    let room = most - icon - 36.0 * s;
    let text = fit(Weight::Bold, size, &text, room.max(40.0 * s));
    let w = text_width(Weight::Bold, size, &text) + icon + 36.0 * s;
    Some(Pill {
        fill,
        text,
        letter,
        icon,
        w,
    })
}

/// The status pill, right-aligned at `right`; returns its width.
fn draw_status(img: &mut RgbaImage, frame: &Frame<'_>, right: Pt, h: f32, most: f32) -> f32 {
    let Some(Pill {
        fill,
        text,
        letter,
        icon,
        w: pill_w,
    }) = pill(frame, h, most)
    else {
        return 0.0;
    };
    let s = h / 50.0;
    let size = 30.0 * s;
    let ink = ink_on(fill);
    let min = Pt::new(right.x - pill_w, right.y);
    rounded_rect(
        img,
        min,
        Pt::new(right.x, right.y + h),
        h / 2.0,
        fill,
        Some((mix(fill, WHITE, 0.45), 2.0 * s)),
    );
    if let Some((colour, letter)) = letter {
        token(
            img,
            Pt::new(min.x + 18.0 * s + icon / 2.0 - 6.0 * s, right.y + h / 2.0),
            h * 0.3,
            colour,
            letter,
        );
    }
    draw_text(
        img,
        &Style::new(Weight::Bold, size, ink),
        min.x + 18.0 * s + icon,
        right.y + (h - size * 1.16) / 2.0,
        Align::Left,
        &text,
    );
    pill_w
}

/// The seats' chips from `y` down, evenly spread.
fn draw_chips(img: &mut RgbaImage, frame: &Frame<'_>, y: f32) {
    let width = img.width();
    let s = scale(width);
    let per_row = chips_per_row(frame, width);
    let pad = 12.0 * s;
    let cell = (width as f32 - pad * 2.0) / per_row as f32;
    let h = 54.0 * s;
    for (i, chip) in frame.seats.iter().enumerate() {
        let (row, col) = (i / per_row, i % per_row);
        let x = pad + col as f32 * cell + 4.0 * s;
        let top = y + row as f32 * 62.0 * s;
        let w = cell - 8.0 * s;
        draw_chip(img, chip, Pt::new(x, top), w, h, s);
    }
}

/// Where a chip `w` wide puts its parts, from its left edge: the token's centre, the name's
/// start, and the room the name leaves between the score (`score_w` wide) and the right edge.
/// A chip narrower than 220 px at scale 1 (five or six in a row) draws them closer together,
/// at the same sizes, so that its name keeps more letters before its "…".
fn chip_parts(w: f32, s: f32, score_w: f32) -> ChipParts {
    // The token's radius is 16 px at scale 1: a narrow chip keeps the name 6 px past it, and
    // narrows its margins.
    let (token_x, name_x, right, gap) = if w < 220.0 * s {
        (22.0 * s, 44.0 * s, 10.0 * s, 10.0 * s)
    } else {
        (28.0 * s, 52.0 * s, 14.0 * s, 14.0 * s)
    };
    ChipParts {
        token_x,
        name_x,
        right,
        name_room: w - name_x - right - score_w - gap,
    }
}

struct ChipParts {
    token_x: f32,
    name_x: f32,
    right: f32,
    name_room: f32,
}

/// A seat colour as a frame on the band: lightened when it would not stand out from the chip
/// (a black seat's turn).
fn edge_on_band(colour: Rgba<u8>) -> Rgba<u8> {
    if contrast(colour, CHIP) < 1.5 {
        mix(colour, WHITE, 0.55)
    } else {
        colour
    }
}

/// One seat's chip at `at`, `w` × `h`: token, name, score.
fn draw_chip(img: &mut RgbaImage, chip: &SeatChip, at: Pt, w: f32, h: f32, s: f32) {
    let (x, top) = (at.x, at.y);
    let edge = if chip.winner {
        Some((WINNER, 4.0 * s))
    } else if chip.turn {
        Some((edge_on_band(chip.colour), 4.0 * s))
    } else {
        None
    };
    rounded_rect(
        img,
        Pt::new(x, top),
        Pt::new(x + w, top + h),
        12.0 * s,
        CHIP,
        edge,
    );
    let score_size = 30.0 * s;
    let score_w = text_width(Weight::Bold, score_size, &chip.score);
    let parts = chip_parts(w, s, score_w);
    token(
        img,
        Pt::new(x + parts.token_x, top + h / 2.0),
        16.0 * s,
        chip.colour,
        chip.letter,
    );
    if !chip.score.is_empty() {
        draw_text(
            img,
            &Style::new(Weight::Bold, score_size, WHITE),
            x + w - parts.right,
            top + (h - score_size * 1.16) / 2.0,
            Align::Right,
            &chip.score,
        );
    }
    let name_size = 24.0 * s;
    let name = fit(
        Weight::Bold,
        name_size,
        &chip.name,
        parts.name_room.max(10.0),
    );
    draw_text(
        img,
        &Style::new(Weight::Bold, name_size, WHITE),
        x + parts.name_x,
        top + (h - name_size * 1.16) / 2.0,
        Align::Left,
        &name,
    );
}

/// Draws the legend band with its top at `y`.
fn draw_footer(img: &mut RgbaImage, frame: &Frame<'_>, y: u32) {
    let width = img.width();
    let s = scale(width);
    let w = width as f32;
    let pad = 12.0 * s;
    let top = y as f32;
    // A hairline between the board and the band.
    fill_rect(
        img,
        0,
        i64::from(y),
        i64::from(width),
        (2.0 * s).ceil() as i64,
        mix(BAND, WHITE, 0.2),
    );
    let title = Style::new(Weight::Bold, 20.0 * s, BAND_DIM);
    draw_text(
        img,
        &title,
        pad + 6.0 * s,
        top + pad,
        Align::Left,
        &frame.legend_title,
    );
    let columns = legend_columns(width);
    let (cells, _) = legend_cells(&frame.legend, columns);
    let col_w = (w - pad * 2.0) / columns as f32;
    let size = 19.0 * s;
    let label = Style::new(Weight::Regular, size, WHITE);
    // Icons are drawn at scale 1 on a light tile, as the games drew them in their panels.
    let tile = 30.0 * s;
    for (e, &(row, col)) in frame.legend.iter().zip(&cells) {
        let left = pad + col as f32 * col_w + 6.0 * s;
        let cy = top + pad + 28.0 * s + row as f32 * 34.0 * s + 17.0 * s;
        let icon_w = e.wide.map_or(tile, |iw| iw * s.min(1.0));
        rounded_rect(
            img,
            Pt::new(left, cy - tile / 2.0),
            Pt::new(left + icon_w, cy + tile / 2.0),
            6.0 * s,
            rgb(0xEDEAE2),
            None,
        );
        (e.icon)(img, Pt::new(left + icon_w / 2.0, cy));
        let avail = match e.wide {
            Some(_) => w - pad * 2.0 - icon_w - 20.0 * s,
            None => col_w - icon_w - 20.0 * s,
        };
        let lines = wrap(Weight::Regular, size, &e.label, avail);
        let text = lines.first().cloned().unwrap_or_default();
        let text = if lines.len() > 1 {
            fit(Weight::Regular, size, &e.label, avail)
        } else {
            text
        };
        draw_text(
            img,
            &label,
            left + icon_w + 10.0 * s,
            cy - size * 0.6,
            Align::Left,
            &text,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::palette::SEAT_COLOURS;
    use crate::render::shapes::fill_disc;

    fn sample(status: Status, seats: usize) -> Frame<'static> {
        let names = ["Ada", "Bruno", "Chloé", "Dmitri", "Émilie", "Farah"];
        Frame {
            title: "Vortex #12".into(),
            subtitle: "Crossing · round 5 of 100".into(),
            status,
            seats: (0..seats)
                .map(|i| SeatChip {
                    name: names[i].into(),
                    colour: SEAT_COLOURS[i],
                    letter: names[i].chars().next().unwrap_or('?'),
                    score: format!("{}", i * 3),
                    turn: i == 1,
                    winner: false,
                })
                .collect(),
            legend_title: "Legend".into(),
            legend: vec![LegendEntry::new("a piece".into(), |img, c| {
                fill_disc(img, c, 9.0, SEAT_COLOURS[0]);
            })],
        }
    }

    /// The board is copied whole under the header, and the bands grow with the seats.
    #[test]
    fn the_board_sits_between_the_bands() {
        let board = RgbaImage::from_pixel(1400, 300, Rgba([10, 200, 30, 255]));
        let frame = sample(
            Status::Turn {
                seat: 1,
                text: "Bruno to play".into(),
            },
            2,
        );
        let out = compose(&board, &frame);
        let (head, foot) = (header_height(&frame, 1400), footer_height(&frame, 1400));
        assert_eq!(out.height(), head + 300 + foot);
        assert_eq!(board_offset(&frame, 1400), (0, head));
        for y in [head, head + 150, head + 299] {
            assert_eq!(*out.get_pixel(700, y), Rgba([10, 200, 30, 255]));
        }
        assert!(foot > 0);
        let six = sample(Status::Plain(String::new()), 6);
        assert_eq!(
            chip_rows(&six, 1400),
            1,
            "six seats in one row on a desktop board"
        );
        assert_eq!(chip_rows(&six, 600), 2);
        assert!(header_height(&six, 600) > header_height(&frame, 600));
    }

    /// The header's Zoom part shows every chip whole, in pieces a phone shows whole.
    #[test]
    fn the_header_zooms_in_pieces_that_cut_no_chip() {
        for width in [1000u32, 1200, 1280, 1600] {
            for seats in 1..=6 {
                let frame = sample(Status::Plain(String::new()), seats);
                let part = zoom_header(&frame, width, "status".into());
                let height = header_height(&frame, width);
                assert_eq!(
                    part.misfit(width, height),
                    None,
                    "{width} px, {seats} seats"
                );
                let pieces: Vec<[f32; 4]> = part.rows.iter().flatten().copied().collect();
                let s = scale(width);
                let per_row = chips_per_row(&frame, width);
                let cell = (width as f32 - 24.0 * s) / per_row as f32;
                for i in 0..seats {
                    let (row, col) = (i / per_row, i % per_row);
                    let x = 12.0 * s + col as f32 * cell;
                    let y = status_height(&frame, width) + row as f32 * 62.0 * s + 1.0;
                    let shows = |from: f32, to: f32| {
                        pieces.iter().any(|&[px, py, pw, ph]| {
                            px <= from + 0.5 && to <= px + pw + 0.5 && py <= y && y < py + ph
                        })
                    };
                    // Whole, or its two ends (the name's start and the score) in one row.
                    let ends = 300.0 * s.min(1.0);
                    let whole = shows(x, x + cell)
                        || (shows(x, x + ends) && shows(x + cell - ends, x + cell));
                    assert!(whole, "{width} px, {seats} seats: chip {i} is cut");
                }
            }
            // A result's long detail line: cut between words into pieces a phone shows whole,
            // one after the other from its first word to the band's right end.
            let detail = "14 points each, then 16 · the lowest total wins; a tie is not broken, so they share the win".to_string();
            let over = sample(
                Status::Over {
                    headline: "Ann, Bob win".into(),
                    detail,
                    colour: None,
                },
                3,
            );
            let part = zoom_header(&over, width, "status".into());
            assert_eq!(part.misfit(width, header_height(&over, width)), None);
            let top = header_rows(&over, width).top;
            let pieces: Vec<[f32; 4]> = part
                .rows
                .iter()
                .flatten()
                .filter(|p| p[1] == top)
                .copied()
                .collect();
            assert!(!pieces.is_empty());
            for pair in pieces.windows(2) {
                assert!(
                    (pair[0][0] + pair[0][2] - pair[1][0]).abs() < 0.01,
                    "{pieces:?}"
                );
            }
            let last = pieces[pieces.len() - 1];
            assert!((last[0] + last[2] - width as f32).abs() < 0.01);
        }
    }

    /// Six seats in one row on a 1,000 px board (Vortex with six players; they took two rows
    /// before), their names and scores at the sizes of a roomier chip, a short name whole.
    #[test]
    fn six_chips_fit_one_row_of_a_thousand_pixels() {
        let six = sample(Status::Plain(String::new()), 6);
        assert_eq!(chip_rows(&six, 1000), 1);
        assert_eq!(
            header_height(&six, 1000),
            header_height(&sample(Status::Plain(String::new()), 2), 1000)
        );
        let s = scale(1000);
        let w = (1000.0 - 24.0 * s) / 6.0 - 8.0 * s;
        let score = text_width(Weight::Bold, 30.0 * s, "6/6");
        let room = chip_parts(w, s, score).name_room;
        assert!(
            room >= text_width(Weight::Bold, 24.0 * s, "Dmitri"),
            "{room}"
        );
        // A chip as wide as before keeps its spacing to the pixel.
        let wide = chip_parts(300.0, 1.0, 40.0);
        assert_eq!(
            (wide.token_x, wide.name_x, wide.name_room),
            (28.0, 52.0, 300.0 - 80.0 - 40.0)
        );
        // Drawn: the sixth seat's token stands in the first row of chips.
        let mut long = sample(Status::Plain(String::new()), 6);
        long.seats[5].name = "Maximilien-Alexandre de la Tour".into();
        let out = compose(&RgbaImage::from_pixel(1000, 100, WHITE), &long);
        let top = header_rows(&long, 1000).top as u32;
        let sixth = |y0: u32, y1: u32| {
            (y0..y1)
                .flat_map(|y| (0..1000).map(move |x| (x, y)))
                .filter(|&(x, y)| *out.get_pixel(x, y) == SEAT_COLOURS[5])
                .count()
        };
        assert!(sixth(top, top + (54.0 * s) as u32) > 100);
        assert_eq!(sixth(top + (54.0 * s) as u32, out.height()), 0);
    }
}
