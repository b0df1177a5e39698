//! Side-panel pieces shared by every game: seat tokens, a legend box and a score table.

use image::{Rgba, RgbaImage};

use super::palette::{ink_on, mix, INK, INK_DIM, WHITE};
use super::shapes::{fill_disc, ring, rounded_rect, Pt};
use super::text::{draw_text, draw_text_centred, text_width, wrap, Align, Style, Weight};

/// A seat's token: a glossy disc in the seat colour, an outline that contrasts with it, and
/// the seat's letter so that colour is never the only clue.
pub fn token(img: &mut RgbaImage, c: Pt, r: f32, colour: Rgba<u8>, letter: char) {
    let ink = ink_on(colour);
    fill_disc(img, c, r + 2.0, ink);
    fill_disc(img, c, r, colour);
    // A soft highlight toward the top-left reads as a glass marble.
    let gloss = Rgba([255, 255, 255, 70]);
    fill_disc(img, Pt::new(c.x - r * 0.35, c.y - r * 0.4), r * 0.35, gloss);
    let style = Style::new(Weight::Bold, r * 1.15, ink);
    draw_text_centred(img, &style, c, &letter.to_string());
}

/// A legend icon painter: draws the symbol centred on the given point.
pub type Icon<'a> = Box<dyn Fn(&mut RgbaImage, Pt) + 'a>;

pub struct LegendEntry<'a> {
    pub icon: Icon<'a>,
    pub label: String,
}

/// Draws a legend box of entries in `columns` columns inside `(x, y, w)`; returns its height.
pub fn legend(
    img: &mut RgbaImage,
    x: f32,
    y: f32,
    w: f32,
    title: &str,
    columns: usize,
    entries: &[LegendEntry<'_>],
) -> f32 {
    let columns = columns.max(1);
    let row_h = 34.0;
    let pad = 12.0;
    let title_h = 28.0;
    let rows = entries.len().div_ceil(columns);
    let h = pad * 2.0 + title_h + row_h * rows as f32;
    rounded_rect(
        img,
        Pt::new(x, y),
        Pt::new(x + w, y + h),
        10.0,
        WHITE,
        Some((mix(INK_DIM, WHITE, 0.5), 2.0)),
    );
    let title_style = Style::new(Weight::Bold, 18.0, INK);
    draw_text(img, &title_style, x + pad, y + pad, Align::Left, title);
    let col_w = (w - pad * 2.0) / columns as f32;
    let label_style = Style::new(Weight::Regular, 16.0, INK);
    for (i, e) in entries.iter().enumerate() {
        let col = (i % columns) as f32;
        let row = (i / columns) as f32;
        let cx = x + pad + col * col_w + 16.0;
        let cy = y + pad + title_h + row * row_h + row_h / 2.0;
        (e.icon)(img, Pt::new(cx, cy));
        let label = fit(Weight::Regular, 16.0, &e.label, col_w - 40.0);
        draw_text(img, &label_style, cx + 24.0, cy - 9.0, Align::Left, &label);
    }
    h
}

/// Shortens `text` with an ellipsis until it fits `max_width`.
pub fn fit(weight: Weight, size: f32, text: &str, max_width: f32) -> String {
    if text_width(weight, size, text) <= max_width {
        return text.to_string();
    }
    let mut chars: Vec<char> = text.chars().collect();
    while !chars.is_empty() {
        chars.pop();
        let s: String = chars.iter().collect::<String>() + "…";
        if text_width(weight, size, &s) <= max_width {
            return s;
        }
    }
    String::new()
}

/// One line of a score table.
pub struct ScoreRow {
    pub colour: Rgba<u8>,
    pub letter: char,
    pub name: String,
    pub total: i64,
    /// Smaller text under the name (per-round details).
    pub detail: String,
    /// Drawn with a tinted background (the seat to act, or the winner).
    pub highlight: bool,
}

/// Draws a score table: token, name and details, total right-aligned. Returns its height.
pub fn score_table(
    img: &mut RgbaImage,
    x: f32,
    y: f32,
    w: f32,
    headers: (&str, &str),
    rows: &[ScoreRow],
) -> f32 {
    let head = Style::new(Weight::Bold, 16.0, INK_DIM);
    draw_text(img, &head, x + 44.0, y, Align::Left, headers.0);
    draw_text(img, &head, x + w - 8.0, y, Align::Right, headers.1);
    let mut cy = y + 26.0;
    let name_style = Style::new(Weight::Bold, 20.0, INK);
    let detail_style = Style::new(Weight::Regular, 15.0, INK_DIM);
    let total_style = Style::new(Weight::Bold, 26.0, INK);
    for row in rows {
        let details = if row.detail.is_empty() {
            Vec::new()
        } else {
            wrap(Weight::Regular, 15.0, &row.detail, w - 120.0)
        };
        let h = 34.0 + 18.0 * details.len() as f32;
        if row.highlight {
            rounded_rect(
                img,
                Pt::new(x, cy),
                Pt::new(x + w, cy + h),
                8.0,
                mix(row.colour, WHITE, 0.75),
                None,
            );
        }
        token(
            img,
            Pt::new(x + 20.0, cy + 17.0),
            13.0,
            row.colour,
            row.letter,
        );
        let name = fit(Weight::Bold, 20.0, &row.name, w - 130.0);
        draw_text(img, &name_style, x + 44.0, cy + 6.0, Align::Left, &name);
        for (i, line) in details.iter().enumerate() {
            draw_text(
                img,
                &detail_style,
                x + 44.0,
                cy + 32.0 + 18.0 * i as f32,
                Align::Left,
                line,
            );
        }
        draw_text(
            img,
            &total_style,
            x + w - 8.0,
            cy + 4.0,
            Align::Right,
            &row.total.to_string(),
        );
        cy += h + 4.0;
    }
    cy - y
}

/// A small coloured chip with a count beside it (a pool of pieces); returns the width used.
pub fn chip(img: &mut RgbaImage, c: Pt, colour: Rgba<u8>, label: &str, count: &str) -> f32 {
    fill_disc(img, c, 15.0, colour);
    ring(img, c, 15.0, 2.0, mix(INK_DIM, WHITE, 0.2));
    if !label.is_empty() {
        draw_text_centred(
            img,
            &Style::new(Weight::Bold, 16.0, ink_on(colour)),
            c,
            label,
        );
    }
    let style = Style::new(Weight::Bold, 20.0, INK);
    let w = draw_text(img, &style, c.x + 20.0, c.y - 11.0, Align::Left, count);
    40.0 + w
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fit_keeps_short_text_and_cuts_long_text() {
        assert_eq!(fit(Weight::Regular, 16.0, "Ann", 200.0), "Ann");
        let cut = fit(
            Weight::Regular,
            16.0,
            "A very long display name indeed",
            80.0,
        );
        assert!(cut.ends_with('…'), "{cut}");
        assert!(text_width(Weight::Regular, 16.0, &cut) <= 80.0);
        assert_eq!(fit(Weight::Regular, 16.0, "Ann", 1.0), "");
    }

    #[test]
    fn legend_height_counts_rows() {
        let mut img = RgbaImage::new(300, 300);
        let entries: Vec<LegendEntry> = (0..5)
            .map(|i| LegendEntry {
                icon: Box::new(|img: &mut RgbaImage, c: Pt| fill_disc(img, c, 8.0, INK)),
                label: format!("item {i}"),
            })
            .collect();
        let h = legend(&mut img, 0.0, 0.0, 300.0, "Legend", 2, &entries);
        assert_eq!(h, 12.0 * 2.0 + 28.0 + 34.0 * 3.0);
    }

    #[test]
    fn token_draws_its_letter_in_contrasting_ink() {
        let mut img = RgbaImage::from_pixel(60, 60, Rgba([128, 128, 128, 255]));
        let black = Rgba([30, 30, 30, 255]);
        token(&mut img, Pt::new(30.0, 30.0), 20.0, black, 'B');
        // The letter is white on a black marble: white pixels well inside the outline.
        let inside_white = img
            .enumerate_pixels()
            .filter(|(x, y, p)| (*x as f32 - 30.0).hypot(*y as f32 - 30.0) < 12.0 && **p == WHITE)
            .count();
        assert!(inside_white > 20, "{inside_white}");
    }
}
