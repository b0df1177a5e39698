//! The result card posted when a game ends: who won and how, every seat's rank and score with
//! the game's own breakdown, the number of turns and the game's length. Pure: it draws only
//! the texts it is given (already localized), so the same card serves every game.
//!
//! Sized for a phone: 640 pixels wide with large type, so shown about 400 pixels wide the
//! smallest text (the breakdowns) is still about 12 pixels high.

use image::{Rgba, RgbaImage};

use super::palette::{mix, seat_letters, INK, INK_DIM, PAPER, SEAT_COLOURS, WHITE};
use super::panel::{fit, token};
use super::shapes::{fill_rect, rounded_rect, Pt};
use super::text::{draw_text, text_width, wrap, Align, Style, Weight};

/// Everything a result card shows, in the reader's language.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ResultCard {
    /// "Cortexcape #12".
    pub title: String,
    /// "Ann wins", "A draw".
    pub headline: String,
    /// How the game ended, if the game says.
    pub how: Option<String>,
    /// Column headings: player, score.
    pub headers: (String, String),
    /// In rank order.
    pub rows: Vec<ResultRow>,
    /// "18 turns · 2 d 3 h".
    pub footer: String,
}

/// One seat on the card.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ResultRow {
    /// The seat (its colour and letter).
    pub seat: usize,
    pub rank: u8,
    pub name: String,
    pub total: i64,
    /// The breakdown of the total ("round 1 7 · round 3 5"), or empty.
    pub detail: String,
    /// A winner: drawn framed.
    pub winner: bool,
}

const WIDTH: u32 = 640;
const PAD: f32 = 24.0;
const TITLE: f32 = 30.0;
const HEADLINE: f32 = 28.0;
const BODY: f32 = 20.0;
const NAME: f32 = 24.0;
const TOTAL: f32 = 30.0;
const LINE: f32 = 1.3;

fn inner() -> f32 {
    WIDTH as f32 - 2.0 * PAD
}

/// Separates the parts of a breakdown; lines break between parts, not inside one.
pub const PART_SEPARATOR: &str = " · ";

/// The lines of a row's breakdown, wrapped to the space beside the token and the total:
/// whole parts per line ("projects 12" never splits), a part too long alone wrapped by words.
fn detail_lines(row: &ResultRow) -> Vec<String> {
    let max = inner() - 160.0;
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for part in row.detail.split(PART_SEPARATOR).filter(|p| !p.is_empty()) {
        let joined = if line.is_empty() {
            part.to_string()
        } else {
            format!("{line}{PART_SEPARATOR}{part}")
        };
        if text_width(Weight::Regular, BODY, &joined) <= max {
            line = joined;
            continue;
        }
        if !line.is_empty() {
            lines.push(std::mem::take(&mut line));
        }
        if text_width(Weight::Regular, BODY, part) <= max {
            line = part.to_string();
        } else {
            lines.extend(wrap(Weight::Regular, BODY, part, max));
        }
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

fn row_height(row: &ResultRow) -> f32 {
    48.0 + detail_lines(row).len() as f32 * BODY * LINE
}

/// Draws the card.
pub fn render_result(card: &ResultCard) -> RgbaImage {
    let how = card
        .how
        .as_deref()
        .map(|h| wrap(Weight::Regular, BODY, h, inner()))
        .unwrap_or_default();
    let footer = wrap(Weight::Regular, BODY, &card.footer, inner());
    let table_h: f32 = 34.0 + card.rows.iter().map(|r| row_height(r) + 8.0).sum::<f32>();
    let height = PAD
        + TITLE * LINE
        + HEADLINE * LINE
        + how.len() as f32 * BODY * LINE
        + 16.0
        + table_h
        + 12.0
        + footer.len() as f32 * BODY * LINE
        + PAD;
    let mut img = RgbaImage::from_pixel(WIDTH, height.ceil().max(1.0) as u32, PAPER);
    // A band in the winner's colour (or neutral for a draw) along the top.
    let band = card
        .rows
        .iter()
        .find(|r| r.winner)
        .map_or(INK_DIM, |r| seat_colour(r.seat));
    fill_rect(&mut img, 0, 0, i64::from(WIDTH), 8, band);

    let mut y = PAD;
    let title = Style::new(Weight::Bold, TITLE, INK);
    draw_text(
        &mut img,
        &title,
        PAD,
        y,
        Align::Left,
        &fit(Weight::Bold, TITLE, &card.title, inner()),
    );
    y += TITLE * LINE;
    let headline = Style::new(Weight::Bold, HEADLINE, INK);
    draw_text(
        &mut img,
        &headline,
        PAD,
        y,
        Align::Left,
        &fit(Weight::Bold, HEADLINE, &card.headline, inner()),
    );
    y += HEADLINE * LINE;
    let body = Style::new(Weight::Regular, BODY, INK_DIM);
    for line in &how {
        draw_text(&mut img, &body, PAD, y, Align::Left, line);
        y += BODY * LINE;
    }
    y += 16.0;

    // The table: rank and name with the breakdown under it, total on the right.
    let head = Style::new(Weight::Bold, BODY, INK_DIM);
    draw_text(&mut img, &head, PAD + 56.0, y, Align::Left, &card.headers.0);
    draw_text(
        &mut img,
        &head,
        PAD + inner() - 12.0,
        y,
        Align::Right,
        &card.headers.1,
    );
    y += 34.0;
    let names: Vec<String> = {
        let mut by_seat =
            vec![String::new(); card.rows.iter().map(|r| r.seat + 1).max().unwrap_or(0)];
        for r in &card.rows {
            by_seat[r.seat] = r.name.clone();
        }
        by_seat
    };
    let letters = seat_letters(&names);
    let name_style = Style::new(Weight::Bold, NAME, INK);
    let detail_style = Style::new(Weight::Regular, BODY, INK_DIM);
    let total_style = Style::new(Weight::Bold, TOTAL, INK);
    for row in &card.rows {
        let h = row_height(row);
        let (fill, outline) = if row.winner {
            (WHITE, Some((INK, 3.0)))
        } else {
            (
                mix(PAPER, WHITE, 0.6),
                Some((mix(INK_DIM, WHITE, 0.6), 1.5)),
            )
        };
        rounded_rect(
            &mut img,
            Pt::new(PAD, y),
            Pt::new(PAD + inner(), y + h),
            10.0,
            fill,
            outline,
        );
        let letter = letters.get(row.seat).copied().unwrap_or('?');
        token(
            &mut img,
            Pt::new(PAD + 28.0, y + 24.0),
            16.0,
            seat_colour(row.seat),
            letter,
        );
        let name = format!("{}. {}", row.rank, row.name);
        let name = fit(Weight::Bold, NAME, &name, inner() - 170.0);
        draw_text(
            &mut img,
            &name_style,
            PAD + 56.0,
            y + 10.0,
            Align::Left,
            &name,
        );
        for (i, line) in detail_lines(row).iter().enumerate() {
            draw_text(
                &mut img,
                &detail_style,
                PAD + 56.0,
                y + 44.0 + i as f32 * BODY * LINE,
                Align::Left,
                line,
            );
        }
        draw_text(
            &mut img,
            &total_style,
            PAD + inner() - 12.0,
            y + 8.0,
            Align::Right,
            &row.total.to_string(),
        );
        y += h + 8.0;
    }
    y += 12.0;
    for line in &footer {
        draw_text(&mut img, &body, PAD, y, Align::Left, line);
        y += BODY * LINE;
    }
    img
}

fn seat_colour(seat: usize) -> Rgba<u8> {
    SEAT_COLOURS[seat % SEAT_COLOURS.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn card(rows: usize, detail: &str) -> ResultCard {
        ResultCard {
            title: "Game #1".into(),
            headline: "Ann wins".into(),
            how: Some("It ended.".into()),
            headers: ("Player".into(), "Score".into()),
            rows: (0..rows)
                .map(|i| ResultRow {
                    seat: i,
                    rank: u8::try_from(i + 1).unwrap_or(1),
                    name: format!("P{i}"),
                    total: 10 - i as i64,
                    detail: detail.into(),
                    winner: i == 0,
                })
                .collect(),
            footer: "3 turns".into(),
        }
    }

    #[test]
    fn the_card_grows_with_its_rows_and_their_breakdowns() {
        let two = render_result(&card(2, ""));
        let four = render_result(&card(4, ""));
        let long = render_result(&card(4, &"part 3 · ".repeat(30)));
        // Parts stay whole on their line.
        let row = &card(1, &"label 12 · ".repeat(12)).rows[0];
        let lines = detail_lines(row);
        assert!(lines.len() > 1, "{lines:?}");
        assert!(lines.iter().all(|l| l.starts_with("label 12")), "{lines:?}");
        assert_eq!(two.width(), WIDTH);
        assert!(four.height() > two.height());
        assert!(long.height() > four.height());
        // The winner's colour runs along the top.
        assert_eq!(*two.get_pixel(5, 2), SEAT_COLOURS[0]);
    }
}
