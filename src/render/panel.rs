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
    fill_disc(img, Pt::new(c.x - r * 0.5, c.y - r * 0.5), r * 0.22, gloss);
    let style = Style::new(Weight::Bold, r * 1.15, ink);
    draw_text_centred(img, &style, c, &letter.to_string());
}

/// A legend icon painter: draws the symbol centred on the given point.
pub type Icon<'a> = Box<dyn Fn(&mut RgbaImage, Pt) + 'a>;

pub struct LegendEntry<'a> {
    pub icon: Icon<'a>,
    pub label: String,
    /// Takes a whole row, with `icon_width` pixels for the icon (a row of samples).
    pub wide: Option<f32>,
}

impl<'a> LegendEntry<'a> {
    pub fn new(label: String, icon: impl Fn(&mut RgbaImage, Pt) + 'a) -> LegendEntry<'a> {
        LegendEntry {
            icon: Box::new(icon),
            label,
            wide: None,
        }
    }
    /// A full-row entry whose icon is `icon_width` wide (the icon gets the icon's centre).
    pub fn wide(label: String, icon_width: f32, icon: impl Fn(&mut RgbaImage, Pt) + 'a) -> Self {
        LegendEntry {
            icon: Box::new(icon),
            label,
            wide: Some(icon_width),
        }
    }
}

/// Row and column of each entry: wide entries start a new row and fill it.
pub(super) fn legend_cells(
    entries: &[LegendEntry<'_>],
    columns: usize,
) -> (Vec<(usize, usize)>, usize) {
    let mut cells = Vec::with_capacity(entries.len());
    let (mut row, mut col) = (0usize, 0usize);
    for e in entries {
        if e.wide.is_some() {
            if col != 0 {
                row += 1;
            }
            cells.push((row, 0));
            row += 1;
            col = 0;
        } else {
            cells.push((row, col));
            col += 1;
            if col == columns {
                col = 0;
                row += 1;
            }
        }
    }
    (cells, if col == 0 { row } else { row + 1 })
}

/// Height of one legend row.
pub const ROW_H: f32 = 32.0;

/// The height `legend` will take for these entries.
pub fn legend_height(entries: &[LegendEntry<'_>], columns: usize) -> f32 {
    let (_, rows) = legend_cells(entries, columns.max(1));
    12.0 * 2.0 + 26.0 + ROW_H * rows as f32
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
    let row_h = ROW_H;
    let pad = 12.0;
    let title_h = 26.0;
    let (cells, rows) = legend_cells(entries, columns);
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
    for (e, &(row, col)) in entries.iter().zip(&cells) {
        let left = x + pad + col as f32 * col_w;
        let cy = y + pad + title_h + row as f32 * row_h + row_h / 2.0;
        let (icon_w, avail) = match e.wide {
            Some(iw) => (iw, w - pad * 2.0 - iw - 10.0),
            None => (32.0, col_w - 42.0),
        };
        (e.icon)(img, Pt::new(left + icon_w / 2.0, cy));
        let label = fit(Weight::Regular, 16.0, &e.label, avail);
        draw_text(
            img,
            &label_style,
            left + icon_w + 8.0,
            cy - 9.0,
            Align::Left,
            &label,
        );
    }
    h
}

/// The first of `sizes` (largest first) at which `text` fits `max_width`, else the last: a
/// label shrinks before [`fit`] ever cuts it.
pub fn fit_size(weight: Weight, sizes: &[f32], text: &str, max_width: f32) -> f32 {
    sizes
        .iter()
        .copied()
        .find(|&s| text_width(weight, s, text) <= max_width)
        .or(sizes.last().copied())
        .unwrap_or(14.0)
}

pub use super::text::fit;

/// One line of a score table.
pub struct ScoreRow {
    pub colour: Rgba<u8>,
    pub letter: char,
    pub name: String,
    pub total: i64,
    /// Smaller text under the name (per-round details).
    pub detail: String,
    /// Drawn framed (the seat to act, or the winners).
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
            // A frame, not a tint: a tint of a white or black seat would not show.
            rounded_rect(
                img,
                Pt::new(x, cy),
                Pt::new(x + w, cy + h),
                8.0,
                WHITE,
                Some((INK, 2.0)),
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
        let dot = |img: &mut RgbaImage, c: Pt| fill_disc(img, c, 8.0, INK);
        let mut entries: Vec<LegendEntry> = (0..5)
            .map(|i| LegendEntry::new(format!("item {i}"), dot))
            .collect();
        let h = legend(&mut img, 0.0, 0.0, 300.0, "Legend", 2, &entries);
        assert_eq!(h, 12.0 * 2.0 + 26.0 + ROW_H * 3.0);
        // A wide entry after one odd item closes that row and takes its own.
        entries.truncate(1);
        entries.push(LegendEntry::wide("wide".into(), 100.0, dot));
        entries.push(LegendEntry::new("last".into(), dot));
        let (cells, rows) = legend_cells(&entries, 2);
        assert_eq!(cells, vec![(0, 0), (1, 0), (2, 0)]);
        assert_eq!(rows, 3);
        assert_eq!(legend_height(&entries, 2), 12.0 * 2.0 + 26.0 + ROW_H * 3.0);
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
