//! The card `/stats user:` posts: a member's rating after each rated game (a line per game)
//! and how long they take to play a turn by the hour it began (a bar per hour). Pure: it draws
//! only the texts and figures it is given (already localized and counted).
//!
//! Sized like the result card: 640 pixels wide with large type, for a phone.

use image::RgbaImage;

use super::palette::{mix, INK, INK_DIM, PAPER, SEAT_COLOURS, WHITE};
use super::panel::fit;
use super::shapes::{fill_disc, fill_rect, polyline, rounded_rect, thick_line, Pt};
use super::text::{draw_text, text_width, wrap, Align, Style, Weight};

/// Everything the card shows, in the reader's language.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ProfileCard {
    /// "Ann on this server".
    pub title: String,
    /// "Rating after each rated game".
    pub rating_heading: String,
    /// One line per game, in the order of the legend.
    pub series: Vec<Series>,
    /// Shown in the chart's place when no game is rated yet.
    pub no_rating: String,
    /// "Median time to play, by the hour the turn began (Europe/Paris)".
    pub hours_heading: String,
    /// The median seconds of the turns begun in each hour (0 to 23), if any.
    pub hours: [Option<i64>; 24],
    /// The longest bar's value in words ("5 h 12 min"), written at its top.
    pub hours_top: String,
    /// Shown in the bars' place when no turn is timed yet.
    pub no_hours: String,
    /// "Median 2 h 05 min over 41 turns · fastest 18h-19h".
    pub footer: String,
}

/// A game's ratings in the order the games ended.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Series {
    pub name: String,
    pub points: Vec<f64>,
}

const WIDTH: u32 = 640;
const PAD: f32 = 24.0;
const TITLE: f32 = 30.0;
const HEADING: f32 = 22.0;
const BODY: f32 = 20.0;
const SMALL: f32 = 18.0;
const LINE: f32 = 1.3;
const CHART_H: f32 = 200.0;
const BARS_H: f32 = 150.0;
/// Room on the left of the rating chart for its scale.
const SCALE_W: f32 = 44.0;

fn inner() -> f32 {
    WIDTH as f32 - 2.0 * PAD
}

fn colour(i: usize) -> image::Rgba<u8> {
    SEAT_COLOURS[i % SEAT_COLOURS.len()]
}

/// The whole numbers the rating scale marks, from `lo` to `hi`: at most five, evenly spaced.
fn ticks(lo: f64, hi: f64) -> Vec<i64> {
    let span = (hi - lo).max(1.0);
    let step = [1, 2, 5, 10, 20, 50]
        .into_iter()
        .find(|s| span / f64::from(*s) <= 4.5)
        .unwrap_or(100);
    let first = (lo / f64::from(step)).ceil() as i64 * i64::from(step);
    (0..)
        .map(|k| first + k * i64::from(step))
        .take_while(|t| (*t as f64) <= hi)
        .collect()
}

/// Draws the card.
pub fn render_profile(card: &ProfileCard) -> RgbaImage {
    let footer = wrap(Weight::Regular, BODY, &card.footer, inner());
    let legend_rows = legend_rows(card);
    let rating_heading = wrap(Weight::Bold, HEADING, &card.rating_heading, inner());
    let hours_heading = wrap(Weight::Bold, HEADING, &card.hours_heading, inner());
    let height = PAD
        + TITLE * LINE
        + 12.0
        + rating_heading.len() as f32 * HEADING * LINE
        + CHART_H
        + 12.0
        + legend_rows.len() as f32 * BODY * LINE
        + 20.0
        + hours_heading.len() as f32 * HEADING * LINE
        + BARS_H
        + SMALL * LINE
        + 12.0
        + footer.len() as f32 * BODY * LINE
        + PAD;
    let mut img = RgbaImage::from_pixel(WIDTH, height.ceil() as u32, PAPER);
    fill_rect(&mut img, 0, 0, i64::from(WIDTH), 8, INK_DIM);

    let mut y = PAD;
    let title = Style::new(Weight::Bold, TITLE, INK);
    let title_text = fit(Weight::Bold, TITLE, &card.title, inner());
    draw_text(&mut img, &title, PAD, y, Align::Left, &title_text);
    y += TITLE * LINE + 12.0;

    let heading = Style::new(Weight::Bold, HEADING, INK);
    for line in &rating_heading {
        draw_text(&mut img, &heading, PAD, y, Align::Left, line);
        y += HEADING * LINE;
    }
    rating_chart(&mut img, card, y);
    y += CHART_H + 12.0;
    let body = Style::new(Weight::Regular, BODY, INK);
    for row in &legend_rows {
        let mut x = PAD;
        for (i, name) in row {
            fill_rect(&mut img, x as i64, (y + 8.0) as i64, 22, 6, colour(*i));
            draw_text(&mut img, &body, x + 30.0, y, Align::Left, name);
            x += 30.0 + text_width(Weight::Regular, BODY, name) + 24.0;
        }
        y += BODY * LINE;
    }
    y += 20.0;

    for line in &hours_heading {
        draw_text(&mut img, &heading, PAD, y, Align::Left, line);
        y += HEADING * LINE;
    }
    hour_bars(&mut img, card, y);
    y += BARS_H + SMALL * LINE + 12.0;

    let dim = Style::new(Weight::Regular, BODY, INK_DIM);
    for line in &footer {
        draw_text(&mut img, &dim, PAD, y, Align::Left, line);
        y += BODY * LINE;
    }
    img
}

/// The legend's entries (series index, name) in rows that fit the width.
fn legend_rows(card: &ProfileCard) -> Vec<Vec<(usize, String)>> {
    let mut rows: Vec<Vec<(usize, String)>> = Vec::new();
    let mut width = 0.0;
    for (i, s) in card.series.iter().enumerate() {
        let name = fit(Weight::Regular, BODY, &s.name, inner() - 30.0);
        let w = 30.0 + text_width(Weight::Regular, BODY, &name) + 24.0;
        match rows.last_mut() {
            Some(row) if width + w <= inner() => {
                row.push((i, name));
                width += w;
            }
            _ => {
                rows.push(vec![(i, name)]);
                width = w;
            }
        }
    }
    rows
}

/// A panel `h` high at `top`, the full inner width.
fn panel(img: &mut RgbaImage, top: f32, h: f32) {
    rounded_rect(
        img,
        Pt::new(PAD, top),
        Pt::new(PAD + inner(), top + h),
        10.0,
        mix(PAPER, WHITE, 0.6),
        Some((mix(INK_DIM, WHITE, 0.6), 1.5)),
    );
}

/// A sentence centred in a panel that has nothing to show.
fn empty(img: &mut RgbaImage, top: f32, h: f32, text: &str) {
    let lines = wrap(Weight::Regular, BODY, text, inner() - 40.0);
    let style = Style::new(Weight::Regular, BODY, INK_DIM);
    let mut y = top + h / 2.0 - lines.len() as f32 * BODY * LINE / 2.0;
    for line in &lines {
        draw_text(img, &style, PAD + inner() / 2.0, y, Align::Centre, line);
        y += BODY * LINE;
    }
}

fn rating_chart(img: &mut RgbaImage, card: &ProfileCard, top: f32) {
    panel(img, top, CHART_H);
    let points = card.series.iter().flat_map(|s| s.points.iter().copied());
    let (lo, hi) = points.fold((f64::MAX, f64::MIN), |(lo, hi), p| (lo.min(p), hi.max(p)));
    let longest = card
        .series
        .iter()
        .map(|s| s.points.len())
        .max()
        .unwrap_or(0);
    if longest == 0 || !lo.is_finite() || !hi.is_finite() {
        empty(img, top, CHART_H, &card.no_rating);
        return;
    }
    // A little room above and below, and at least a few points of scale.
    let (lo, hi) = ((lo - 1.0).floor(), (hi + 1.0).ceil());
    let (left, right) = (PAD + SCALE_W, PAD + inner() - 16.0);
    let (upper, lower) = (top + 14.0, top + CHART_H - 14.0);
    let y_of = |v: f64| lower - ((v - lo) / (hi - lo)) as f32 * (lower - upper);
    // Games are spaced evenly by their order; a single game sits in the middle.
    let x_of = |k: usize| {
        if longest < 2 {
            (left + right) / 2.0
        } else {
            left + (right - left) * k as f32 / (longest - 1) as f32
        }
    };
    let scale = Style::new(Weight::Regular, SMALL, INK_DIM);
    let grid = mix(INK_DIM, WHITE, 0.75);
    for t in ticks(lo, hi) {
        let y = y_of(t as f64);
        thick_line(img, Pt::new(left, y), Pt::new(right, y), 1.0, grid);
        let label = t.to_string();
        draw_text(
            img,
            &scale,
            left - 8.0,
            y - SMALL * 0.6,
            Align::Right,
            &label,
        );
    }
    for (i, s) in card.series.iter().enumerate() {
        let pts: Vec<Pt> = s
            .points
            .iter()
            .enumerate()
            .map(|(k, v)| Pt::new(x_of(k), y_of(*v)))
            .collect();
        if pts.len() > 1 {
            polyline(img, &pts, 3.0, colour(i));
        }
        // Every game is a dot while they are few; then only the last one.
        let dots = if pts.len() <= 30 {
            &pts[..]
        } else {
            &pts[pts.len() - 1..]
        };
        for p in dots {
            fill_disc(img, *p, 4.5, colour(i));
        }
    }
}

fn hour_bars(img: &mut RgbaImage, card: &ProfileCard, top: f32) {
    panel(img, top, BARS_H);
    let most = card.hours.iter().flatten().copied().max().unwrap_or(0);
    let small = Style::new(Weight::Regular, SMALL, INK_DIM);
    let slot = (inner() - 24.0) / 24.0;
    let (base, room) = (top + BARS_H - 10.0, BARS_H - 20.0 - SMALL * LINE);
    for hour in [0usize, 6, 12, 18] {
        let x = PAD + 12.0 + slot * hour as f32;
        draw_text(
            img,
            &small,
            x,
            top + BARS_H + 4.0,
            Align::Left,
            &format!("{hour}h"),
        );
    }
    if most <= 0 {
        empty(img, top, BARS_H, &card.no_hours);
        return;
    }
    let bar = mix(INK_DIM, WHITE, 0.2);
    // The longest bar's value, written once (over the first of equal bars).
    let mut top_written = false;
    for (hour, median) in card.hours.iter().enumerate() {
        let Some(m) = median else { continue };
        let h = (room * *m as f32 / most as f32).max(3.0);
        let x = PAD + 12.0 + slot * hour as f32 + 2.0;
        fill_rect(
            img,
            x as i64,
            (base - h) as i64,
            (slot - 4.0) as i64,
            h as i64,
            bar,
        );
        if *m == most && !top_written {
            top_written = true;
            let at = (x + slot / 2.0).clamp(PAD + 60.0, PAD + inner() - 60.0);
            let y = base - h - SMALL * LINE;
            draw_text(img, &small, at, y, Align::Centre, &card.hours_top);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn card() -> ProfileCard {
        let mut hours = [None; 24];
        hours[9] = Some(600);
        hours[20] = Some(7200);
        ProfileCard {
            title: "Ann on this server".into(),
            rating_heading: "Rating after each rated game".into(),
            series: vec![
                Series {
                    name: "Vortex".into(),
                    points: vec![25.0, 27.6, 26.1, 29.0],
                },
                Series {
                    name: "Gates of Delirium".into(),
                    points: vec![25.0, 22.4],
                },
            ],
            no_rating: "No rated game yet".into(),
            hours_heading: "Median time to play, by the hour the turn began (UTC)".into(),
            hours,
            hours_top: "2 h".into(),
            no_hours: "No timed turn yet".into(),
            footer: "Median 12 min over 9 turns".into(),
        }
    }

    #[test]
    fn the_scale_marks_a_few_whole_numbers() {
        assert_eq!(ticks(21.0, 30.0), vec![22, 24, 26, 28, 30]);
        assert_eq!(ticks(24.0, 26.0), vec![24, 25, 26]);
        assert_eq!(ticks(0.0, 100.0), vec![0, 50, 100]);
    }

    /// The lines and bars are drawn where the figures say: a card with the series' colours
    /// in it, a taller bar at 20h than at 9h, and an empty card that shows neither.
    #[test]
    fn lines_and_bars_follow_the_figures() {
        let img = render_profile(&card());
        assert_eq!(img.width(), WIDTH);
        let has = |img: &RgbaImage, c: image::Rgba<u8>| img.pixels().any(|p| *p == c);
        assert!(has(&img, colour(0)) && has(&img, colour(1)));
        let blank = render_profile(&ProfileCard {
            series: Vec::new(),
            hours: [None; 24],
            ..card()
        });
        assert!(!has(&blank, colour(0)) && !has(&blank, colour(1)));
        // Bar heights: count the bar colour's pixels in each hour's column.
        let bar = mix(INK_DIM, WHITE, 0.2);
        let column = |img: &RgbaImage, hour: usize| {
            let slot = (inner() - 24.0) / 24.0;
            let x = (PAD + 12.0 + slot * hour as f32 + slot / 2.0) as u32;
            (0..img.height())
                .filter(|y| *img.get_pixel(x, *y) == bar)
                .count()
        };
        assert!(
            column(&img, 20) > 3 * column(&img, 9),
            "{} {}",
            column(&img, 20),
            column(&img, 9)
        );
        assert!(column(&img, 9) >= 3);
        assert_eq!(column(&img, 3), 0);
        assert_eq!(column(&blank, 20), 0);
    }
}
