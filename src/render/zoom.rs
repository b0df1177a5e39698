//! The Zoom answer for phones: the parts of a board that matter to one player, cut from the
//! board at full size and stacked one under another, each under a caption.
//!
//! A board is 1,300-1,600 pixels wide; a phone in portrait shows it about 400 pixels wide, a
//! third of its size, where no label can be read. Each game names its parts (a seat's area, the
//! shared supply, the map's halves) at most [`MAX_WIDTH`] pixels wide, so the stack a phone
//! shows at 400 pixels keeps at least 57 % of the board's size: 14-pixel labels stay about
//! 8 pixels high, readable, where the whole board gives them 4.

use image::{imageops, Rgba, RgbaImage};

use super::palette::{ink_on, luminance, mix};
use super::shapes::fill_rect;
use super::text::{draw_text, Align, Style, Weight};

/// The widest part a game may name.
pub const MAX_WIDTH: u32 = 700;
/// At most this many parts in one answer (a phone scrolls; more would bury the first).
pub const MAX_PARTS: usize = 4;

const CAPTION_H: u32 = 30;
const GAP: u32 = 10;

/// A part of a board: one or more rectangles of the board image (in its pixels) under one
/// caption, laid in rows: side by side, top-aligned, then the next row below. Pieces let a
/// game put together what a phone wants at once but the board keeps apart (Space Lab's decks
/// beside its piles), or fold a wide strip in two (Gates' five regions).
#[derive(Clone, Debug, PartialEq)]
pub struct Region {
    pub label: String,
    pub rows: Vec<Vec<[f32; 4]>>,
}

impl Region {
    pub fn new(label: impl Into<String>, x: f32, y: f32, w: f32, h: f32) -> Region {
        Region {
            label: label.into(),
            rows: vec![vec![[x, y, w, h]]],
        }
    }

    /// The region with one more rectangle to the right of the last row's.
    pub fn and(mut self, x: f32, y: f32, w: f32, h: f32) -> Region {
        if let Some(row) = self.rows.last_mut() {
            row.push([x, y, w, h]);
        }
        self
    }

    /// Why this region would not show whole on a `width` × `height` board: a piece outside
    /// the board, or a row wider than [`MAX_WIDTH`] (the zoom would cut it).
    pub fn misfit(&self, width: u32, height: u32) -> Option<String> {
        let (w, h) = (width as f32, height as f32);
        for row in &self.rows {
            for &[x, y, pw, ph] in row {
                if x < 0.0
                    || y < 0.0
                    || x + pw > w + 0.5
                    || y + ph > h + 0.5
                    || pw < 1.0
                    || ph < 1.0
                {
                    return Some(format!(
                        "{}: piece {x},{y} {pw}x{ph} outside {width}x{height}",
                        self.label
                    ));
                }
            }
            let row_w: f32 =
                row.iter().map(|p| p[2]).sum::<f32>() + (row.len() - 1) as f32 * PIECE_GAP as f32;
            if row_w.round() as u32 > MAX_WIDTH {
                return Some(format!("{}: a row {row_w} pixels wide", self.label));
            }
        }
        None
    }

    /// The region with a new row starting with this rectangle.
    pub fn below(mut self, x: f32, y: f32, w: f32, h: f32) -> Region {
        self.rows.push(vec![[x, y, w, h]]);
        self
    }
}

/// A rectangle in whole pixels, clipped to a `width` × `height` image (`None` if nothing of it
/// is inside).
fn pixels([x, y, w, h]: [f32; 4], width: u32, height: u32) -> Option<(u32, u32, u32, u32)> {
    let clamp = |v: f32, max: u32| (v.round().max(0.0) as u32).min(max);
    let (x0, y0) = (clamp(x, width), clamp(y, height));
    let (x1, y1) = (clamp(x + w, width), clamp(y + h, height));
    (x1 > x0 && y1 > y0).then_some((x0, y0, x1 - x0, y1 - y0))
}

type Piece = (u32, u32, u32, u32);

/// A piece without the plain rows at its foot (a side panel shorter than the board), keeping a
/// margin of [`PIECE_GAP`]: a phone scrolls past nothing.
fn trim_bottom(board: &RgbaImage, (x, y, w, h): Piece) -> Piece {
    let plain = |row: u32| {
        let first = board.get_pixel(x, row);
        (x..x + w).all(|c| board.get_pixel(c, row) == first)
    };
    let used = (y..y + h)
        .rev()
        .find(|&row| !plain(row))
        .map_or(0, |row| row + 1 - y);
    (x, y, w, (used + PIECE_GAP).min(h))
}

/// A row's width (cut to [`MAX_WIDTH`]) and height.
fn row_size(row: &[Piece]) -> (u32, u32) {
    let w: u32 = row.iter().map(|p| p.2 + PIECE_GAP).sum::<u32>() - PIECE_GAP;
    let h = row.iter().map(|p| p.3).max().unwrap_or(0);
    (w.min(MAX_WIDTH), h)
}

/// A part's width and height: its rows one under another.
fn part_size(rows: &[Vec<Piece>]) -> (u32, u32) {
    let w = rows.iter().map(|r| row_size(r).0).max().unwrap_or(0);
    let h: u32 = rows.iter().map(|r| row_size(r).1 + PIECE_GAP).sum::<u32>() - PIECE_GAP;
    (w, h)
}

const PIECE_GAP: u32 = 8;

/// The parts of `board` stacked top to bottom under their captions, on the board's own
/// background (its top-left pixel), with the captions of the parts kept. A part wider than
/// [`MAX_WIDTH`] is cut to it and only the first [`MAX_PARTS`] parts are kept; `None` when no
/// part lies inside the board.
pub fn compose(board: &RgbaImage, regions: &[Region]) -> Option<(RgbaImage, Vec<String>)> {
    let parts: Vec<(&Region, Vec<Vec<Piece>>)> = regions
        .iter()
        .map(|r| {
            let rows: Vec<Vec<Piece>> = r
                .rows
                .iter()
                .map(|row| {
                    row.iter()
                        .filter_map(|&p| pixels(p, board.width(), board.height()))
                        .map(|p| trim_bottom(board, p))
                        .collect::<Vec<_>>()
                })
                .filter(|row| !row.is_empty())
                .collect();
            (r, rows)
        })
        .filter(|(_, rows)| !rows.is_empty())
        .take(MAX_PARTS)
        .collect();
    if parts.is_empty() {
        return None;
    }
    let width = parts.iter().map(|(_, p)| part_size(p).0).max().unwrap_or(1);
    let height: u32 = parts
        .iter()
        .map(|(_, p)| CAPTION_H + part_size(p).1 + GAP)
        .sum::<u32>()
        - GAP;
    let bg = *board.get_pixel(0, 0);
    let bg = Rgba([bg[0], bg[1], bg[2], 255]);
    let mut out = RgbaImage::from_pixel(width, height, bg);
    // The caption band stands apart from the board's own headings: a shade off the background.
    let band = if luminance(bg) > 0.5 {
        mix(bg, Rgba([0, 0, 0, 255]), 0.12)
    } else {
        mix(bg, Rgba([255, 255, 255, 255]), 0.14)
    };
    let style = Style::new(Weight::Bold, 17.0, ink_on(band));
    let mut y = 0;
    let mut labels = Vec::with_capacity(parts.len());
    for (region, rows) in parts {
        fill_rect(
            &mut out,
            0,
            i64::from(y),
            i64::from(width),
            i64::from(CAPTION_H),
            band,
        );
        draw_text(
            &mut out,
            &style,
            10.0,
            y as f32 + 6.0,
            Align::Left,
            &region.label,
        );
        y += CAPTION_H;
        for row in &rows {
            let mut x = 0;
            for &(x0, y0, w, h) in row {
                let w = w.min(width.saturating_sub(x));
                if w == 0 {
                    break;
                }
                let crop = imageops::crop_imm(board, x0, y0, w, h).to_image();
                imageops::replace(&mut out, &crop, i64::from(x), i64::from(y));
                x += w + PIECE_GAP;
            }
            y += row_size(row).1 + PIECE_GAP;
        }
        y += GAP - PIECE_GAP;
        labels.push(region.label.clone());
    }
    Some((out, labels))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board() -> RgbaImage {
        RgbaImage::from_fn(1400, 900, |x, y| {
            Rgba([(x % 256) as u8, (y % 256) as u8, 7, 255])
        })
    }

    #[test]
    fn parts_are_stacked_at_full_size_under_their_captions() {
        let b = board();
        let (img, labels) = compose(
            &b,
            &[
                Region::new("one", 100.0, 50.0, 300.0, 200.0),
                Region::new("two", 700.0, 400.0, 500.0, 100.0),
            ],
        )
        .expect("two parts");
        assert_eq!(labels, ["one", "two"]);
        assert_eq!(img.width(), 500);
        assert_eq!(img.height(), CAPTION_H + 200 + GAP + CAPTION_H + 100);
        // The first part's top-left pixel is the board's (100, 50), unscaled.
        assert_eq!(img.get_pixel(0, CAPTION_H), b.get_pixel(100, 50));
        let second = CAPTION_H + 200 + GAP + CAPTION_H;
        assert_eq!(img.get_pixel(499, second + 99), b.get_pixel(1199, 499));
    }

    #[test]
    fn parts_are_clipped_to_the_board_and_to_the_phone_width() {
        let b = board();
        let (img, _) = compose(&b, &[Region::new("wide", 1000.0, 800.0, 900.0, 300.0)]).unwrap();
        // Clipped to the board (400 × 100), then to nothing more.
        assert_eq!((img.width(), img.height()), (400, CAPTION_H + 100));
        let (img, _) = compose(&b, &[Region::new("wide", 0.0, 0.0, 1400.0, 10.0)]).unwrap();
        assert_eq!(img.width(), MAX_WIDTH);
        assert!(compose(&b, &[Region::new("out", 1500.0, 0.0, 10.0, 10.0)]).is_none());
        assert!(compose(&b, &[]).is_none());
    }

    #[test]
    fn pieces_of_a_part_sit_side_by_side() {
        let b = board();
        let part = Region::new("two pieces", 0.0, 0.0, 100.0, 50.0).and(600.0, 300.0, 200.0, 80.0);
        let (img, _) = compose(&b, &[part]).unwrap();
        assert_eq!(
            (img.width(), img.height()),
            (100 + PIECE_GAP + 200, CAPTION_H + 80)
        );
        assert_eq!(
            img.get_pixel(100 + PIECE_GAP, CAPTION_H),
            b.get_pixel(600, 300)
        );
    }

    #[test]
    fn rows_of_a_part_sit_one_under_another() {
        let b = board();
        let part = Region::new("folded", 0.0, 0.0, 500.0, 40.0).below(500.0, 0.0, 300.0, 40.0);
        let (img, _) = compose(&b, &[part]).unwrap();
        assert_eq!(
            (img.width(), img.height()),
            (500, CAPTION_H + 40 + PIECE_GAP + 40)
        );
        assert_eq!(
            img.get_pixel(0, CAPTION_H + 40 + PIECE_GAP),
            b.get_pixel(500, 0)
        );
    }

    #[test]
    fn plain_rows_at_a_piece_foot_are_left_out() {
        let mut b = RgbaImage::from_pixel(300, 300, Rgba([9, 9, 9, 255]));
        b.put_pixel(50, 99, Rgba([200, 0, 0, 255]));
        let (img, _) = compose(&b, &[Region::new("side", 0.0, 0.0, 300.0, 300.0)]).unwrap();
        assert_eq!(img.height(), CAPTION_H + 100 + PIECE_GAP);
    }

    #[test]
    fn at_most_four_parts() {
        let b = board();
        let five: Vec<Region> = (0..5)
            .map(|i| Region::new(format!("{i}"), 0.0, 0.0, 100.0, 10.0))
            .collect();
        let (img, labels) = compose(&b, &five).unwrap();
        assert_eq!(labels.len(), 4);
        assert_eq!(img.height(), 4 * (CAPTION_H + 10) + 3 * GAP);
    }
}
