//! Anti-aliased shapes drawn from signed distance functions, and crisp fills by imageproc.
//!
//! Every anti-aliased shape is a function giving the signed distance (in pixels, negative
//! inside) from a pixel centre to its edge; the coverage of a pixel is `0.5 - distance`,
//! clamped. That one rule gives smooth discs, rings, thick lines, triangles and rounded boxes
//! without supersampling, and strokes come for free as `|distance| - width / 2`. The distance
//! also bounds how far the edge can be, so rows are walked in steps: runs it proves empty are
//! skipped, runs it proves covered are filled whole, and only pixels within half a pixel of an
//! edge are composited one by one. A convex shape's row is walked in from both ends, so its
//! covered middle (or a stroke's empty one) is a single run. The cost follows the outline and
//! the covered area, not the bounding box.
//!
//! imageproc has no anti-aliased fill at sub-pixel positions (its polygons and circles take
//! whole-pixel corners and centres) and fills rectangles pixel by pixel through its canvas
//! (DECISIONS.md, "Board drawing", has the measurements), so these fills are ours; crisp
//! polygons are imageproc's.

use std::ops::{Add, Sub};

use image::{Rgba, RgbaImage};
use imageproc::drawing::draw_line_segment_mut;
use imageproc::point::Point;

/// A point in image pixels (x right, y down).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pt {
    pub x: f32,
    pub y: f32,
}

impl Pt {
    pub const fn new(x: f32, y: f32) -> Pt {
        Pt { x, y }
    }
    pub fn scale(self, k: f32) -> Pt {
        Pt::new(self.x * k, self.y * k)
    }
    pub fn len(self) -> f32 {
        // Plain sqrt: hypot's overflow care is not needed at pixel scale and costs a lot here.
        (self.x * self.x + self.y * self.y).sqrt()
    }
    /// Unit vector in the same direction (zero stays zero).
    pub fn unit(self) -> Pt {
        let l = self.len();
        if l > f32::EPSILON {
            self.scale(1.0 / l)
        } else {
            Pt::new(0.0, 0.0)
        }
    }
    pub fn lerp(self, o: Pt, t: f32) -> Pt {
        self.add(o.sub(self).scale(t))
    }
}

impl Add for Pt {
    type Output = Pt;
    fn add(self, o: Pt) -> Pt {
        Pt::new(self.x + o.x, self.y + o.y)
    }
}

impl Sub for Pt {
    type Output = Pt;
    fn sub(self, o: Pt) -> Pt {
        Pt::new(self.x - o.x, self.y - o.y)
    }
}

/// Composites `colour` over the pixel with the given coverage (0..=1). Out of bounds is a no-op.
/// imageproc gap: its `Blend` canvas composites with image's `Pixel::blend`, which truncates
/// (colours drift a level, an opaque pixel's alpha drops to 254) and divides per channel.
pub fn blend(img: &mut RgbaImage, x: i64, y: i64, colour: Rgba<u8>, coverage: f32) {
    if x < 0 || y < 0 || x >= i64::from(img.width()) || y >= i64::from(img.height()) {
        return;
    }
    // In bounds by the check above, so the casts are lossless.
    blend_pixel(
        &mut img.get_pixel_mut(x as u32, y as u32).0,
        colour,
        coverage,
    );
}

/// [`blend`] on one pixel's bytes: the one place its arithmetic lives, so the row loops below
/// give the same bytes as a call per pixel.
#[inline]
fn blend_pixel(px: &mut [u8; 4], colour: Rgba<u8>, coverage: f32) {
    if coverage >= 1.0 && colour[3] == 255 {
        *px = colour.0;
        return;
    }
    let a = coverage.clamp(0.0, 1.0) * f32::from(colour[3]) / 255.0;
    if a > 0.0 {
        mix_pixel(px, colour, a);
    }
}

/// Composites `colour` over the pixel at alpha `a` (within 0..=1).
#[inline]
fn mix_pixel(px: &mut [u8; 4], colour: Rgba<u8>, a: f32) {
    // Values stay within 0..=255, so adding 0.5 and truncating rounds.
    for c in 0..3 {
        let d = f32::from(px[c]);
        px[c] = (d + (f32::from(colour[c]) - d) * a + 0.5) as u8;
    }
    // 255 / 255 is exactly 1: the division is only needed under a translucent pixel.
    let da = if px[3] == 255 {
        1.0
    } else {
        f32::from(px[3]) / 255.0
    };
    px[3] = ((a + da * (1.0 - a)) * 255.0 + 0.5) as u8;
}

/// [`blend_pixel`]'s alpha for an opaque colour at coverage `v / 255`, for every `v`, worked
/// out once (at compile time, with the same IEEE arithmetic): a coverage row over opaque
/// ink then divides nowhere.
static OPAQUE_ALPHA: [f32; 256] = {
    let mut table = [0.0f32; 256];
    let mut v = 0;
    while v < 256 {
        table[v] = (v as f32 / 255.0) * 255.0 / 255.0;
        v += 1;
    }
    table
};

/// The pixel at `x` of a row's bytes.
#[inline]
fn pixel_at(row: &mut [u8], x: usize) -> Option<&mut [u8; 4]> {
    row.get_mut(x * 4..x * 4 + 4)?.try_into().ok()
}

/// The bytes of row `y` (in bounds).
fn row_mut(img: &mut RgbaImage, y: i64) -> &mut [u8] {
    let stride = img.width() as usize * 4;
    let buf: &mut [u8] = img;
    &mut buf[y as usize * stride..(y as usize + 1) * stride]
}

/// Blends `colour` through a run of coverage bytes (255 = covered) onto row `y` from `x`,
/// clipped to the image: a glyph's or a halo's row, with [`blend`]'s arithmetic per pixel.
/// A loop over the row's slice: [`blend`] called per pixel, bounds-checked, dividing three
/// times, was 11-15% of a Vortex or Cortexcape render-and-encode profile (perf).
pub fn blend_coverage_row(img: &mut RgbaImage, x: i64, y: i64, coverage: &[u8], colour: Rgba<u8>) {
    if y < 0 || y >= i64::from(img.height()) {
        return;
    }
    let width = i64::from(img.width());
    let (x0, x1) = (x.max(0), (x + coverage.len() as i64).min(width));
    if x0 >= x1 {
        return;
    }
    let row = row_mut(img, y);
    let pixels = row[x0 as usize * 4..x1 as usize * 4].chunks_exact_mut(4);
    let opaque = colour[3] == 255;
    for (px, &v) in pixels.zip(&coverage[(x0 - x) as usize..]) {
        let Ok(px) = <&mut [u8; 4]>::try_from(px) else {
            continue;
        };
        match v {
            0 => {}
            255 if opaque => *px = colour.0,
            _ if opaque => mix_pixel(px, colour, OPAQUE_ALPHA[usize::from(v)]),
            _ => blend_pixel(px, colour, f32::from(v) / 255.0),
        }
    }
}

/// Fills a shape given by its signed distance function; the box `min..max` bounds the shape.
/// The function must be 1-Lipschitz (an exact or a lower-bound distance), as all of ours are.
/// imageproc gap: no anti-aliased fill with sub-pixel geometry.
pub fn fill_sdf(img: &mut RgbaImage, min: Pt, max: Pt, colour: Rgba<u8>, sdf: impl Fn(Pt) -> f32) {
    rows(img, min, max, colour, 1.0, false, whole_row, |p| {
        (sdf(p), false)
    });
}

/// [`fill_sdf`] for a convex shape: each row's fully covered pixels form one run, found by
/// walking in from both ends of the row and filled whole.
fn fill_convex_sdf(
    img: &mut RgbaImage,
    min: Pt,
    max: Pt,
    colour: Rgba<u8>,
    sdf: impl Fn(Pt) -> f32,
) {
    rows(img, min, max, colour, 1.0, true, whole_row, |p| {
        let d = sdf(p);
        (d, d <= -0.5)
    });
}

/// A stroke of `width` centred on the edge of a convex shape: the pixels it leaves inside
/// form one run per row, walked round like [`fill_convex_sdf`]'s and skipped whole.
fn stroke_convex_sdf(
    img: &mut RgbaImage,
    min: Pt,
    max: Pt,
    width: f32,
    colour: Rgba<u8>,
    sdf: impl Fn(Pt) -> f32,
) {
    let e = Pt::new(width / 2.0, width / 2.0);
    rows(
        img,
        min.sub(e),
        max.add(e),
        colour,
        1.0,
        false,
        whole_row,
        |p| {
            let d = sdf(p);
            (d.abs() - width / 2.0, d <= -width / 2.0 - 0.5)
        },
    );
}

/// Draws a shape bounded by the box `min..max` row by row. `shape` gives a pixel centre's
/// coverage distance (coverage `0.5 - distance`; it changes by at most `lipschitz` a pixel)
/// and whether the pixel is in the shape's middle: a set that meets each row in one run, all
/// fully covered (`fill_middle`) or all empty. Each row is walked in from both ends to its
/// middle, stepping over pixels the distance proves alike; the middle is then one run.
/// `span` may narrow a row (given its centre's y) to the x range its coverage can reach.
#[allow(clippy::too_many_arguments)]
fn rows(
    img: &mut RgbaImage,
    min: Pt,
    max: Pt,
    colour: Rgba<u8>,
    lipschitz: f32,
    fill_middle: bool,
    span: impl Fn(f32) -> Option<(f32, f32)>,
    shape: impl Fn(Pt) -> (f32, bool),
) {
    // A pixel centre half a pixel or more outside the box is at least that far from the shape.
    let y0 = min.y.floor().max(0.0) as i64;
    let y1 = (max.y.ceil() as i64).min(i64::from(img.height()));
    let width = i64::from(img.width());
    for y in y0..y1 {
        let Some((lo, hi)) = span(y as f32 + 0.5) else {
            continue;
        };
        let x0 = min.x.max(lo).floor().max(0.0) as i64;
        let x1 = (max.x.min(hi).ceil() as i64).min(width);
        let at = |x: i64| Pt::new(x as f32 + 0.5, y as f32 + 0.5);
        let row = row_mut(img, y);
        let mut x = x0;
        'left: while x < x1 {
            let ahead: [(f32, bool); AHEAD] = std::array::from_fn(|k| shape(at(x + k as i64)));
            for (d, middle) in ahead {
                if middle {
                    break 'left;
                }
                let n = reach(d, lipschitz).min(x1 - x);
                paint(row, x, n, d, colour);
                x += n;
                if n > 1 || x >= x1 {
                    continue 'left;
                }
            }
        }
        if x >= x1 {
            continue;
        }
        let first = x;
        let mut x = x1 - 1;
        'right: while x > first {
            let ahead: [(f32, bool); AHEAD] = std::array::from_fn(|k| shape(at(x - k as i64)));
            for (d, middle) in ahead {
                if middle {
                    break 'right;
                }
                let n = reach(d, lipschitz).min(x - first);
                paint(row, x + 1 - n, n, d, colour);
                x -= n;
                if n > 1 || x <= first {
                    continue 'right;
                }
            }
        }
        if fill_middle {
            fill_run(row, first, x + 1 - first, colour);
        }
    }
}

/// Pixels of a row whose shape values [`rows`] works out together, ahead of its walk: they do
/// not depend on each other, so the processor overlaps them, where one at a time each waited
/// for the last (the next pixel depends on the step the last distance allows). They are used
/// while the steps are single pixels, as on an edge; a longer step starts a new batch.
const AHEAD: usize = 4;

/// Any row, whole: for shapes that do not narrow their rows.
fn whole_row(_: f32) -> Option<(f32, f32)> {
    Some((f32::NEG_INFINITY, f32::INFINITY))
}

/// How many pixels, from one at coverage distance `d` on, surely share its fate: empty
/// (0.5 or more out) or fully covered (0.5 or more in); a pixel on the edge stands alone.
fn reach(d: f32, lipschitz: f32) -> i64 {
    // A NaN distance casts to 0: one pixel, painted as empty.
    if d.is_nan() || d >= 0.5 {
        ((d - 0.5) / lipschitz) as i64 + 1
    } else if d <= -0.5 {
        ((-0.5 - d) / lipschitz) as i64 + 1
    } else {
        1
    }
}

/// Paints `n` pixels of a row from `x` that share the fate of a pixel at coverage distance `d`.
fn paint(row: &mut [u8], x: i64, n: i64, d: f32, colour: Rgba<u8>) {
    if d <= -0.5 {
        fill_run(row, x, n, colour);
    } else if d < 0.5 {
        if let Some(px) = pixel_at(row, x as usize) {
            blend_pixel(px, colour, 0.5 - d);
        }
    }
}

/// Fills `n` pixels of a row's bytes from `x` (in bounds), blending a translucent colour.
/// imageproc gap: `draw_filled_rect_mut` goes pixel by pixel through its canvas (it was 9% of
/// a Space Lab render filling these runs); slice stores make a covered area cheap.
fn fill_run(row: &mut [u8], x: i64, n: i64, colour: Rgba<u8>) {
    let span = &mut row[x as usize * 4..(x + n) as usize * 4];
    if colour[3] < 255 {
        for px in span.chunks_exact_mut(4) {
            if let Ok(px) = px.try_into() {
                blend_pixel(px, colour, 1.0);
            }
        }
        return;
    }
    set_run(span, colour);
}

/// Writes `colour` over every pixel of a run of bytes, as is (no blending), four pixels a
/// store: most runs are short (a shape's row, a glyph-sized tile), where the memcpy calls
/// of copy-by-doubling cost more than the pixels.
fn set_run(span: &mut [u8], colour: Rgba<u8>) {
    let mut quad = [0u8; 16];
    for px in quad.chunks_exact_mut(4) {
        px.copy_from_slice(&colour.0);
    }
    let mut chunks = span.chunks_exact_mut(16);
    for chunk in &mut chunks {
        chunk.copy_from_slice(&quad);
    }
    let rest = chunks.into_remainder();
    let k = rest.len();
    rest.copy_from_slice(&quad[..k]);
}

/// Fills an axis-aligned rectangle (no anti-aliasing: use it for panels and backgrounds),
/// clipped to the image; a translucent colour is blended.
/// imageproc gap: `draw_filled_rect_mut` goes pixel by pixel through its canvas (a side
/// panel is 450,000 pixels) and its `Blend` canvas truncates; these are row slice fills.
pub fn fill_rect(img: &mut RgbaImage, x: i64, y: i64, w: i64, h: i64, colour: Rgba<u8>) {
    let x0 = x.max(0);
    let x1 = (x + w).min(i64::from(img.width()));
    if x0 >= x1 {
        return;
    }
    for y in y.max(0)..(y + h).min(i64::from(img.height())) {
        fill_run(row_mut(img, y), x0, x1 - x0, colour);
    }
}

/// Fills a polygon without anti-aliasing, corners rounded to the nearest pixel centre (edges
/// included): the pixels of imageproc's `draw_polygon_mut`. For large tiles whose soft edges
/// would only add PNG bytes, such as a checkerboard.
pub fn fill_polygon(img: &mut RgbaImage, poly: &[Pt], colour: Rgba<u8>) {
    let mut corners: Vec<Point<i32>> = poly
        .iter()
        .map(|p| Point::new((p.x - 0.5).round() as i32, (p.y - 0.5).round() as i32))
        .collect();
    corners.dedup();
    if corners.len() > 1 && corners.first() == corners.last() {
        corners.pop();
    }
    let Some(&first) = corners.first() else {
        return;
    };
    if corners.len() > 1 {
        corners.push(first);
    }
    polygon_spans(img, &corners, colour);
    for e in corners.windows(2) {
        let (a, b) = (
            (e[0].x as f32, e[0].y as f32),
            (e[1].x as f32, e[1].y as f32),
        );
        draw_line_segment_mut(img, a, b, colour);
    }
}

/// The inside of a closed polygon (last corner = first), row by row, by the scan-line rule of
/// imageproc's `draw_polygon_mut` (same crossings, same rounding) but written as row slices.
/// imageproc gap: its fill goes pixel by pixel through its canvas, which was 8% of a Vortex
/// board (render and encode); its edges are still drawn by its `draw_line_segment_mut`.
fn polygon_spans(img: &mut RgbaImage, closed: &[Point<i32>], colour: Rgba<u8>) {
    let (width, height) = (img.width() as i32, img.height() as i32);
    if width == 0 || height == 0 {
        return;
    }
    let y_min = closed.iter().map(|p| p.y).min().unwrap_or(0);
    let y_max = closed.iter().map(|p| p.y).max().unwrap_or(0);
    let (y_min, y_max) = (y_min.clamp(0, height - 1), y_max.clamp(0, height - 1));
    let mut crossings = Vec::new();
    for y in y_min..=y_max {
        for e in closed.windows(2) {
            let (p0, p1) = (e[0], e[1]);
            if !(p0.y <= y && p1.y >= y || p1.y <= y && p0.y >= y) {
                continue;
            }
            if p0.y == p1.y {
                crossings.extend([p0.x, p1.x]);
            } else if p0.y == y || p1.y == y {
                if p1.y > y {
                    crossings.push(p0.x);
                }
                if p0.y > y {
                    crossings.push(p1.x);
                }
            } else {
                let fraction = (y - p0.y) as f32 / (p1.y - p0.y) as f32;
                crossings.push((p0.x as f32 + fraction * (p1.x - p0.x) as f32).round() as i32);
            }
        }
        crossings.sort_unstable();
        let row = row_mut(img, i64::from(y));
        for pair in crossings.chunks_exact(2) {
            let (from, to) = (pair[0].min(width), pair[1].min(width - 1));
            if from < width && to >= 0 {
                let (from, to) = (from.max(0) as usize, to.max(0) as usize);
                if from <= to {
                    set_run(&mut row[from * 4..(to + 1) * 4], colour);
                }
            }
        }
        crossings.clear();
    }
}

fn dist_to_segment(p: Pt, a: Pt, b: Pt) -> f32 {
    let ab = b.sub(a);
    let l2 = ab.x * ab.x + ab.y * ab.y;
    let t = if l2 > f32::EPSILON {
        ((p.x - a.x) * ab.x + (p.y - a.y) * ab.y) / l2
    } else {
        0.0
    };
    p.sub(a.lerp(b, t.clamp(0.0, 1.0))).len()
}

/// A disc of radius `r`, anti-aliased.
/// imageproc gap: `draw_filled_circle_mut` takes a whole-pixel centre and radius, no anti-aliasing.
///
/// A row's edges are where a circle meets it, so they are worked out (one square root each
/// for the circles `r + 0.5` and `r - 0.5`) instead of walked to: only the pixels within a
/// pixel of those crossings are measured, each with the distance [`fill_convex_sdf`] would
/// give it, the run between them is filled and the rest is left, as the walk leaves it (the
/// walk and this agree on every pixel: where rounding could tip one's fate, its coverage is
/// within 1e-5 of 0 or 1, and anything within 1/510 blends to the same bytes). Discs are
/// most of the shapes on a board (tokens, towers, doors, chips), and the walk's steps were
/// their cost.
pub fn fill_disc(img: &mut RgbaImage, c: Pt, r: f32, colour: Rgba<u8>) {
    let e = Pt::new(r, r);
    let (min, max) = (c.sub(e), c.add(e));
    // The same box as the walk: a pixel centre half a pixel or more outside it is empty.
    let y0 = min.y.floor().max(0.0) as i64;
    let y1 = (max.y.ceil() as i64).min(i64::from(img.height()));
    let bx0 = min.x.floor().max(0.0) as i64;
    let bx1 = (max.x.ceil() as i64).min(i64::from(img.width()));
    if bx0 >= bx1 {
        return;
    }
    let (outer, inner) = (r + 0.5, r - 0.5);
    for y in y0..y1 {
        let dy = y as f32 + 0.5 - c.y;
        let out2 = outer * outer - dy * dy;
        if out2 <= 0.0 {
            // Every pixel centre of the row is `outer` or more from the centre: empty.
            continue;
        }
        // Pixels whose centres are a pixel or more beyond the crossings of `outer` are empty.
        let half = out2.sqrt();
        let lo = ((c.x - half - 1.0).floor() as i64).max(bx0);
        let hi = ((c.x + half + 1.0).ceil() as i64).min(bx1);
        if lo >= hi {
            continue;
        }
        // Pixels whose centres are a pixel or more inside the crossings of `inner` are covered.
        let in2 = inner * inner - dy * dy;
        let (mut fa, mut fb) = (hi, hi);
        if inner > 0.0 && in2 > 0.0 {
            let h = in2.sqrt();
            let (a, b) = (
                (c.x - h + 1.0).ceil() as i64,
                (c.x + h - 1.0).floor() as i64,
            );
            if a < b {
                (fa, fb) = (a.clamp(lo, hi), b.clamp(lo, hi));
            }
        }
        let row = row_mut(img, y);
        let yc = y as f32 + 0.5;
        let mut edge = |x: i64| {
            let d = Pt::new(x as f32 + 0.5, yc).sub(c).len() - r;
            paint(row, x, 1, d, colour);
        };
        (lo..fa).for_each(&mut edge);
        (fb.max(fa)..hi).for_each(&mut edge);
        if fa < fb {
            fill_run(row, fa, fb - fa, colour);
        }
    }
}

/// A circle outline of radius `r` (centre of the stroke) and stroke `width`.
/// imageproc gap: `draw_hollow_circle_mut` is one pixel wide, whole pixels, not anti-aliased.
pub fn ring(img: &mut RgbaImage, c: Pt, r: f32, width: f32, colour: Rgba<u8>) {
    let e = Pt::new(r, r);
    stroke_convex_sdf(img, c.sub(e), c.add(e), width, colour, |p| {
        p.sub(c).len() - r
    });
}

/// A ring broken into `dashes` equal dashes (half the circumference is drawn).
/// imageproc gap: no dashed or thick circles.
pub fn dashed_ring(img: &mut RgbaImage, c: Pt, r: f32, width: f32, dashes: u32, colour: Rgba<u8>) {
    let period = std::f32::consts::TAU * r / dashes.max(1) as f32;
    let dash = period / 2.0;
    let e = Pt::new(r + width, r + width);
    let lipschitz = dashed_ring_lipschitz(r, width, period);
    // A thousandth of a radian of arc, and a hundredth of a pixel for the roundings.
    let slack = (r.abs() + 1.0) * 1e-3 + 0.01;
    rows(
        img,
        c.sub(e),
        c.add(e),
        colour,
        lipschitz,
        false,
        whole_row,
        |p| {
            let v = p.sub(c);
            let len = v.len();
            let radial = (len - r).abs() - width / 2.0;
            // Off the stroke the pixel is empty whatever the dashes (and `radial`, a lower
            // bound of the distance, steps as safely): the angle (atan2, with the remainder a
            // twentieth of a Cortexcape render-and-encode profile) is only needed on the stroke.
            // Inside the ring that is the hole, one run per row, skipped whole (the walk
            // used to step across it).
            if radial >= 0.5 {
                return (radial, len < r);
            }
            // Most of the stroke is deep in a dash or a gap, where a rough angle settles the
            // pixel: the distance along the arc moves at most one pixel a pixel of arc, so the
            // rough one is within `slack` of the exact one (the angle's error times r, and
            // then some). Only the pixels it leaves open take atan2 (half a Cortexcape
            // dashed ring's time); every pixel gets the bytes the exact distance gives.
            if let Some(rough) = rough_angle(v.y, v.x) {
                let along = along_arc((rough + std::f32::consts::PI) * r, period, dash, true);
                if along + slack < radial {
                    // The radial distance is the larger: it is the distance, exactly.
                    return (radial, false);
                }
                if along - slack >= 0.5 {
                    // In a gap: empty, and at least that far from a dash.
                    return (along - slack, false);
                }
                if along + slack <= -0.5 && radial <= -0.5 {
                    // Inside a dash and the stroke: covered, and at least that far in.
                    return (along + slack, false);
                }
            }
            // Arc length from angle 0, then the distance along the arc to the nearest dash.
            let s = (v.y.atan2(v.x) + std::f32::consts::PI) * r;
            (radial.max(along_arc(s, period, dash, false)), false)
        },
    );
}

/// How fast a dashed ring's distance can change per pixel: the distance along the arc grows
/// r / ρ per pixel at radius ρ; it only wins over the radial distance within a quarter period
/// of the stroke, so that bounds ρ from below.
fn dashed_ring_lipschitz(r: f32, width: f32, period: f32) -> f32 {
    let inner = r - width / 2.0 - period / 4.0;
    if inner > 0.0 {
        (r / inner).max(1.0)
    } else {
        f32::INFINITY
    }
}

/// The signed distance along a dashed ring's arc from arc length `s` to the nearest dash
/// (dashes `dash` long every `period`, starting at 0): negative inside a dash. `rough` takes
/// a plain remainder (within a few millionths of a pixel), else it is the exact one.
#[inline]
fn along_arc(s: f32, period: f32, dash: f32, rough: bool) -> f32 {
    let t = if rough {
        // floor without the library call (x86-64's baseline has no rounding instruction).
        let q = s / period;
        let mut n = q as i32 as f32;
        if n > q {
            n -= 1.0;
        }
        s - n * period
    } else {
        rem_exact(s, period)
    };
    if t < dash {
        -t.min(dash - t)
    } else {
        (t - dash).min(period - t)
    }
}

/// atan2 within 1e-5 radians, without the library call (a polynomial for atan on 0..=1 and
/// the octant's symmetries); `None` at the origin. Only used where an error of 1e-3 radians
/// would change nothing (the test holds it to 1e-4).
#[inline]
fn rough_angle(y: f32, x: f32) -> Option<f32> {
    use std::f32::consts::{FRAC_PI_2, PI};
    let (ax, ay) = (x.abs(), y.abs());
    let (lo, hi) = if ax < ay { (ax, ay) } else { (ay, ax) };
    if hi <= 0.0 || hi.is_nan() {
        return None;
    }
    let a = lo / hi;
    let q = a * a;
    let poly = ((((-0.011_721_2 * q + 0.052_653_32) * q - 0.116_432_87) * q + 0.193_543_46) * q
        - 0.332_623_47)
        * q
        + 0.999_977_26;
    let mut t = poly * a;
    if ay > ax {
        t = FRAC_PI_2 - t;
    }
    if x < 0.0 {
        t = PI - t;
    }
    Some(if y < 0.0 { -t } else { t })
}

/// `s.rem_euclid(period)` for `s >= 0` and `period > 0`, bit for bit, without the call to
/// the software `fmodf` it makes (a remainder is exact, and so is this: `n · period` and
/// `s - n · period` need at most 30 significant bits for the few periods of a ring, which
/// an f64 holds, and the result is an f32 value); anything else goes to `rem_euclid`.
fn rem_exact(s: f32, period: f32) -> f32 {
    let few_periods = s >= 0.0 && period > 0.0 && s < 64.0 * period && s.is_finite();
    if !few_periods {
        return s.rem_euclid(period);
    }
    let (x, y) = (f64::from(s), f64::from(period));
    let mut n = (x / y).floor();
    let mut t = x - n * y;
    // The quotient is rounded: put it right if it was one off.
    if t < 0.0 {
        n -= 1.0;
        t = x - n * y;
    } else if t >= y {
        n += 1.0;
        t = x - n * y;
    }
    t as f32
}

/// A straight stroke with round caps.
/// imageproc gap: its line segments are one pixel wide (Bresenham or Wu), without caps.
pub fn thick_line(img: &mut RgbaImage, a: Pt, b: Pt, width: f32, colour: Rgba<u8>) {
    let h = width / 2.0;
    let min = Pt::new(a.x.min(b.x) - h, a.y.min(b.y) - h);
    let max = Pt::new(a.x.max(b.x) + h, a.y.max(b.y) + h);
    // A row reaches the points of the segment within `reach` of it vertically, widened by
    // `reach`: a slanted line's rows start next to it, not at the edge of its box.
    let reach = h + 0.5;
    let span = |yc: f32| {
        let (t0, t1) = if (b.y - a.y).abs() > f32::EPSILON {
            let ta = (yc - reach - a.y) / (b.y - a.y);
            let tb = (yc + reach - a.y) / (b.y - a.y);
            (ta.min(tb).max(0.0), ta.max(tb).min(1.0))
        } else {
            (0.0, 1.0)
        };
        let (xa, xb) = (a.x + (b.x - a.x) * t0, a.x + (b.x - a.x) * t1);
        (t0 <= t1).then(|| (xa.min(xb) - reach, xa.max(xb) + reach))
    };
    rows(img, min, max, colour, 1.0, true, span, |p| {
        let d = dist_to_segment(p, a, b) - h;
        (d, d <= -0.5)
    });
}

/// A polyline with round joins.
/// imageproc gap: no thick polylines or joins.
pub fn polyline(img: &mut RgbaImage, pts: &[Pt], width: f32, colour: Rgba<u8>) {
    for w in pts.windows(2) {
        thick_line(img, w[0], w[1], width, colour);
    }
}

/// Splits a polyline into dashes of `on` pixels every `on + off` pixels, the pattern running
/// on across corners (a dash over a corner comes out as two pieces that meet there, which
/// round caps join). Each dash is a two-point segment.
pub fn dash_pieces(pts: &[Pt], on: f32, off: f32) -> Vec<Vec<Pt>> {
    let on = on.max(0.5);
    let period = on + off.max(0.0);
    let mut out = Vec::new();
    let mut walked = 0.0f32;
    for w in pts.windows(2) {
        let (a, b) = (w[0], w[1]);
        let len = (b - a).len();
        if len <= f32::EPSILON {
            continue;
        }
        let (l0, l1) = (walked, walked + len);
        // Dash k covers [k·period, k·period + on] of the whole line; clip each to this segment.
        let first = (l0 / period).floor() as i64;
        let last = (l1 / period).ceil() as i64;
        for k in first..=last {
            let d0 = (k as f32 * period).max(l0);
            let d1 = (k as f32 * period + on).min(l1);
            if d1 - d0 > 1e-3 {
                out.push(vec![a.lerp(b, (d0 - l0) / len), a.lerp(b, (d1 - l0) / len)]);
            }
        }
        walked = l1;
    }
    out
}

/// A polyline in dashes of `on` pixels every `on + off`.
/// imageproc gap: no dashed lines.
pub fn dashed_polyline(
    img: &mut RgbaImage,
    pts: &[Pt],
    width: f32,
    on: f32,
    off: f32,
    colour: Rgba<u8>,
) {
    for piece in dash_pieces(pts, on, off) {
        polyline(img, &piece, width, colour);
    }
}

/// Dots of radius `r` every `spacing` pixels along a polyline (the centres, for callers that
/// want to outline them).
pub fn dot_centres(pts: &[Pt], spacing: f32) -> Vec<Pt> {
    let spacing = spacing.max(1.0);
    let mut out = Vec::new();
    let mut next = 0.0f32;
    let mut walked = 0.0f32;
    for w in pts.windows(2) {
        let len = w[1].sub(w[0]).len();
        while next <= walked + len {
            let t = if len > f32::EPSILON {
                (next - walked) / len
            } else {
                0.0
            };
            out.push(w[0].lerp(w[1], t));
            next += spacing;
        }
        walked += len;
    }
    out
}

/// Each edge of a convex polygon as a corner and its outward unit normal, for [`convex_sdf`].
fn edge_normals(poly: &[Pt]) -> Vec<(Pt, Pt)> {
    let clockwise = winding_clockwise(poly);
    (0..poly.len())
        .map(|i| {
            let a = poly[i];
            let e = poly[(i + 1) % poly.len()].sub(a).unit();
            // Outward normal for the winding in y-down coordinates.
            let n = if clockwise {
                Pt::new(e.y, -e.x)
            } else {
                Pt::new(-e.y, e.x)
            };
            (a, n)
        })
        .collect()
}

/// Signed distance to a convex polygon: the largest of its edges' half-plane distances, exact
/// along edges (what anti-aliasing needs), shorter near corners, and 1-Lipschitz.
fn convex_sdf(p: Pt, edges: &[(Pt, Pt)]) -> f32 {
    edges.iter().fold(f32::NEG_INFINITY, |d, (a, n)| {
        d.max((p.x - a.x) * n.x + (p.y - a.y) * n.y)
    })
}

fn winding_clockwise(poly: &[Pt]) -> bool {
    let mut area = 0.0;
    for i in 0..poly.len() {
        let a = poly[i];
        let b = poly[(i + 1) % poly.len()];
        area += a.x * b.y - b.x * a.y;
    }
    // Positive shoelace area means clockwise on screen (y points down).
    area > 0.0
}

fn bounds(poly: &[Pt]) -> (Pt, Pt) {
    let mut min = Pt::new(f32::MAX, f32::MAX);
    let mut max = Pt::new(f32::MIN, f32::MIN);
    for p in poly {
        min = Pt::new(min.x.min(p.x), min.y.min(p.y));
        max = Pt::new(max.x.max(p.x), max.y.max(p.y));
    }
    (min, max)
}

/// Fills a convex polygon (three or more points), anti-aliased.
/// imageproc gap: `draw_antialiased_polygon_mut` rounds corners to whole pixels and only
/// smooths its edges with one-pixel Wu lines (worst error 208/255 against true coverage).
pub fn fill_convex(img: &mut RgbaImage, poly: &[Pt], colour: Rgba<u8>) {
    if poly.len() < 3 {
        return;
    }
    let edges = edge_normals(poly);
    let (min, max) = bounds(poly);
    fill_convex_sdf(img, min, max, colour, |p| convex_sdf(p, &edges));
}

/// Outlines a convex polygon with a stroke centred on its edges.
/// imageproc gap: `draw_hollow_polygon_mut` is one pixel wide and not anti-aliased.
pub fn stroke_convex(img: &mut RgbaImage, poly: &[Pt], width: f32, colour: Rgba<u8>) {
    if poly.len() < 3 {
        return;
    }
    let edges = edge_normals(poly);
    let (min, max) = bounds(poly);
    stroke_convex_sdf(img, min, max, width, colour, |p| convex_sdf(p, &edges));
}

/// The three corners of an upward isosceles triangle of the given height, centred on `c`.
pub fn triangle_up(c: Pt, height: f32) -> [Pt; 3] {
    let half = height * 0.6;
    [
        Pt::new(c.x, c.y - height * 0.55),
        Pt::new(c.x + half, c.y + height * 0.45),
        Pt::new(c.x - half, c.y + height * 0.45),
    ]
}

/// A filled triangle with an outline drawn outside the fill (so the fill keeps its size).
/// imageproc gap: as [`fill_convex`] and [`stroke_convex`].
pub fn cone(img: &mut RgbaImage, c: Pt, height: f32, fill: Rgba<u8>, outline: Rgba<u8>, w: f32) {
    let t = triangle_up(c, height);
    stroke_convex(img, &t, w * 2.0, outline);
    fill_convex(img, &t, fill);
}

/// An arrow head with its tip at `tip`, pointing along `dir`.
/// imageproc gap: as [`fill_convex`].
pub fn arrow_head(img: &mut RgbaImage, tip: Pt, dir: Pt, size: f32, colour: Rgba<u8>) {
    let d = dir.unit();
    let n = Pt::new(-d.y, d.x);
    let back = tip.sub(d.scale(size));
    let poly = [
        tip,
        back.add(n.scale(size * 0.6)),
        back.sub(n.scale(size * 0.6)),
    ];
    fill_convex(img, &poly, colour);
}

fn rounded_rect_sdf(p: Pt, min: Pt, max: Pt, r: f32) -> f32 {
    let c = min.lerp(max, 0.5);
    let half = Pt::new((max.x - min.x) / 2.0 - r, (max.y - min.y) / 2.0 - r);
    let q = Pt::new((p.x - c.x).abs() - half.x, (p.y - c.y).abs() - half.y);
    let outside = Pt::new(q.x.max(0.0), q.y.max(0.0)).len();
    outside + q.x.max(q.y).min(0.0) - r
}

/// A rounded box: `fill`, then an optional outline `(colour, width)` inside its edge.
/// imageproc gap: no rounded rectangles.
pub fn rounded_rect(
    img: &mut RgbaImage,
    min: Pt,
    max: Pt,
    radius: f32,
    fill: Rgba<u8>,
    outline: Option<(Rgba<u8>, f32)>,
) {
    let r = radius
        .min((max.x - min.x) / 2.0)
        .min((max.y - min.y) / 2.0)
        .max(0.0);
    fill_convex_sdf(img, min, max, fill, |p| rounded_rect_sdf(p, min, max, r));
    if let Some((colour, w)) = outline {
        let inset = Pt::new(w / 2.0, w / 2.0);
        let (a, b) = (min.add(inset), max.sub(inset));
        let r2 = (r - w / 2.0).max(0.0);
        stroke_convex_sdf(img, a, b, w, colour, |p| rounded_rect_sdf(p, a, b, r2));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const RED: Rgba<u8> = Rgba([255, 0, 0, 255]);

    fn blank() -> RgbaImage {
        RgbaImage::from_pixel(40, 40, Rgba([0, 0, 0, 255]))
    }

    #[test]
    fn disc_covers_its_centre_and_not_its_corner() {
        let mut img = blank();
        fill_disc(&mut img, Pt::new(20.3, 20.0), 10.0, RED);
        assert_eq!(*img.get_pixel(20, 20), RED);
        assert_eq!(*img.get_pixel(2, 2), Rgba([0, 0, 0, 255]));
        // The edge is blended, neither black nor full red.
        let edge = img.get_pixel(30, 20)[0];
        assert!(edge > 0 && edge < 255, "edge {edge}");
    }

    #[test]
    fn ring_leaves_its_middle_alone() {
        let mut img = blank();
        ring(&mut img, Pt::new(20.0, 20.0), 12.0, 3.0, RED);
        assert_eq!(*img.get_pixel(20, 20), Rgba([0, 0, 0, 255]));
        assert_eq!(*img.get_pixel(32, 20), RED);
    }

    #[test]
    fn triangle_is_filled_in_either_winding() {
        for poly in [
            [Pt::new(5.0, 35.0), Pt::new(35.0, 35.0), Pt::new(20.0, 5.0)],
            [Pt::new(20.0, 5.0), Pt::new(35.0, 35.0), Pt::new(5.0, 35.0)],
        ] {
            let mut img = blank();
            fill_convex(&mut img, &poly, RED);
            assert_eq!(*img.get_pixel(20, 25), RED);
            assert_eq!(*img.get_pixel(6, 8), Rgba([0, 0, 0, 255]));
        }
    }

    #[test]
    fn dashes_alternate_along_corners() {
        let pts = [Pt::new(0.0, 0.0), Pt::new(10.0, 0.0), Pt::new(10.0, 10.0)];
        let pieces = dash_pieces(&pts, 4.0, 2.0);
        // 20 px of line: on 0-4, 6-10, 12-16, 18-20 (the pattern runs on past the corner).
        assert_eq!(pieces.len(), 4);
        assert_eq!(pieces[0], vec![Pt::new(0.0, 0.0), Pt::new(4.0, 0.0)]);
        assert_eq!(pieces[1].first(), Some(&Pt::new(6.0, 0.0)));
        assert_eq!(pieces[1].last(), Some(&Pt::new(10.0, 0.0)));
        assert_eq!(pieces[2], vec![Pt::new(10.0, 2.0), Pt::new(10.0, 6.0)]);
        assert_eq!(pieces[3], vec![Pt::new(10.0, 8.0), Pt::new(10.0, 10.0)]);
    }

    #[test]
    fn a_dash_over_a_corner_meets_itself_there() {
        let pts = [
            Pt::new(0.0, 0.0),
            Pt::new(10.0, 0.0),
            Pt::new(10.0, 0.0),
            Pt::new(10.0, 10.0),
        ];
        let pieces = dash_pieces(&pts, 6.0, 2.0);
        assert_eq!(
            pieces,
            vec![
                vec![Pt::new(0.0, 0.0), Pt::new(6.0, 0.0)],
                vec![Pt::new(8.0, 0.0), Pt::new(10.0, 0.0)],
                vec![Pt::new(10.0, 0.0), Pt::new(10.0, 4.0)],
                vec![Pt::new(10.0, 6.0), Pt::new(10.0, 10.0)],
            ]
        );
    }

    #[test]
    fn dots_are_evenly_spaced() {
        let pts = [Pt::new(0.0, 0.0), Pt::new(10.0, 0.0)];
        let dots = dot_centres(&pts, 5.0);
        assert_eq!(
            dots,
            vec![Pt::new(0.0, 0.0), Pt::new(5.0, 0.0), Pt::new(10.0, 0.0)]
        );
    }

    #[test]
    fn coverage_rows_blend_as_single_pixels_do() {
        let colours = [RED, Rgba([10, 200, 90, 255]), Rgba([30, 60, 250, 140])];
        let grounds = [
            Rgba([0, 0, 0, 255]),
            Rgba([228, 222, 208, 255]),
            Rgba([9, 99, 199, 70]),
        ];
        let coverage: Vec<u8> = (0..=255).collect();
        for colour in colours {
            for ground in grounds {
                let mut rows = RgbaImage::from_pixel(256, 1, ground);
                blend_coverage_row(&mut rows, 0, 0, &coverage, colour);
                let mut single = RgbaImage::from_pixel(256, 1, ground);
                for (x, &v) in coverage.iter().enumerate() {
                    if v > 0 {
                        blend(&mut single, x as i64, 0, colour, f32::from(v) / 255.0);
                    }
                }
                assert_eq!(rows, single, "{colour:?} over {ground:?}");
            }
        }
    }

    #[test]
    fn exact_remainder_is_rem_euclid_bit_for_bit() {
        let mut rng = 0x2545_f491_4f6c_dd1du64;
        let mut next = || {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            rng
        };
        for _ in 0..200_000 {
            let r = 2.0 + (next() % 4000) as f32 / 100.0;
            let period = std::f32::consts::TAU * r / (1 + next() % 24) as f32;
            let s = (f32::from_bits((next() % (1 << 23)) as u32 | 0x3f80_0000) - 1.0)
                * std::f32::consts::TAU
                * r;
            for s in [
                s,
                0.0,
                period,
                2.0 * period,
                s.next_up(),
                period.next_down(),
            ] {
                assert_eq!(
                    rem_exact(s, period).to_bits(),
                    s.rem_euclid(period).to_bits(),
                    "{s} % {period}"
                );
            }
        }
    }

    #[test]
    fn discs_are_the_walked_discs() {
        // The row-crossing disc against the walk it replaced, on many centres and radii.
        let colours = [RED, Rgba([30, 60, 250, 140])];
        let mut k = 0u32;
        for r10 in (5..400).step_by(7) {
            let r = r10 as f32 / 10.0;
            for (fx, fy) in [
                (0.0, 0.0),
                (0.25, 0.5),
                (0.37, 0.91),
                (0.5, 0.5),
                (0.99, 0.13),
            ] {
                k += 1;
                let c = Pt::new(45.0 + fx, 44.0 + fy);
                let colour = colours[k as usize % 2];
                let mut fast = RgbaImage::from_pixel(90, 90, Rgba([228, 222, 208, 255]));
                let mut walked = fast.clone();
                fill_disc(&mut fast, c, r, colour);
                let e = Pt::new(r, r);
                fill_convex_sdf(&mut walked, c.sub(e), c.add(e), colour, |p| {
                    p.sub(c).len() - r
                });
                assert!(fast == walked, "r {r} at {c:?}");
            }
        }
        // Clipped at the image's edges.
        for c in [
            Pt::new(-3.3, 5.2),
            Pt::new(88.6, 89.1),
            Pt::new(20.0, -10.4),
        ] {
            let mut fast = RgbaImage::from_pixel(90, 90, Rgba([0, 0, 0, 255]));
            let mut walked = fast.clone();
            fill_disc(&mut fast, c, 14.2, RED);
            let e = Pt::new(14.2, 14.2);
            fill_convex_sdf(&mut walked, c.sub(e), c.add(e), RED, |p| {
                p.sub(c).len() - 14.2
            });
            assert!(fast == walked, "at {c:?}");
        }
    }

    #[test]
    fn dashed_rings_are_the_walked_rings() {
        // As drawn before the hole was skipped and the remainder made exact.
        fn walked(img: &mut RgbaImage, c: Pt, r: f32, width: f32, dashes: u32, colour: Rgba<u8>) {
            let period = std::f32::consts::TAU * r / dashes.max(1) as f32;
            let dash = period / 2.0;
            let e = Pt::new(r + width, r + width);
            rows(
                img,
                c.sub(e),
                c.add(e),
                colour,
                dashed_ring_lipschitz(r, width, period),
                false,
                whole_row,
                |p| {
                    let v = p.sub(c);
                    let radial = (v.len() - r).abs() - width / 2.0;
                    if radial >= 0.5 {
                        return (radial, false);
                    }
                    let s = (v.y.atan2(v.x) + std::f32::consts::PI) * r;
                    let t = s.rem_euclid(period);
                    let along = if t < dash {
                        -t.min(dash - t)
                    } else {
                        (t - dash).min(period - t)
                    };
                    (radial.max(along), false)
                },
            );
        }
        let translucent = Rgba([250, 250, 250, 120]);
        let mut k = 0;
        for (r, width, dashes) in [
            (34.0, 4.0, 12),
            (34.0, 5.0, 12),
            (8.0, 3.0, 6),
            (12.0, 3.0, 8),
            (20.5, 2.5, 7),
            (3.0, 4.0, 5),
        ] {
            for (fx, fy) in [(0.0, 0.0), (0.3, 0.7), (0.5, 0.5), (0.5, 0.0), (0.11, 0.83)] {
                k += 1;
                let colour = if k % 3 == 0 { translucent } else { RED };
                let c = Pt::new(45.0 + fx, 44.0 + fy);
                let mut fast = RgbaImage::from_pixel(90, 90, Rgba([40, 70, 140, 255]));
                let mut old = fast.clone();
                dashed_ring(&mut fast, c, r, width, dashes, colour);
                walked(&mut old, c, r, width, dashes, colour);
                assert!(fast == old, "r {r} w {width} at {c:?}");
            }
        }
    }

    #[test]
    fn rough_angle_is_within_a_ten_thousandth_of_atan2() {
        let mut worst = 0.0f64;
        for i in -300..=300 {
            for j in -300..=300 {
                let (y, x) = (i as f32 * 0.37 + 0.5, j as f32 * 0.41 - 0.5);
                let rough = rough_angle(y, x).expect("not the origin");
                worst = worst.max((f64::from(rough) - f64::from(y).atan2(f64::from(x))).abs());
            }
        }
        for (y, x) in [
            (0.0, 1.0),
            (0.0, -1.0),
            (-0.0, -1.0),
            (1.0, 0.0),
            (-1.0, 0.0),
            (1.0, 1.0),
        ] {
            let rough = f64::from(rough_angle(y, x).expect("not the origin"));
            let exact = f64::from(y).atan2(f64::from(x));
            // -0 at -1 is -π to atan2 and π here: the same point of the ring.
            let e = (rough - exact).abs();
            worst = worst.max(e.min((e - std::f64::consts::TAU).abs()));
        }
        assert!(worst < 1e-4, "worst {worst}");
        assert_eq!(rough_angle(0.0, 0.0), None);
    }

    #[test]
    fn rect_is_clipped_to_the_image() {
        let mut img = blank();
        fill_rect(&mut img, 30, -5, 100, 10, RED);
        assert_eq!(*img.get_pixel(39, 0), RED);
        assert_eq!(*img.get_pixel(30, 4), RED);
        assert_eq!(*img.get_pixel(29, 4), Rgba([0, 0, 0, 255]));
        assert_eq!(*img.get_pixel(30, 5), Rgba([0, 0, 0, 255]));
        fill_rect(&mut img, 50, 50, 10, 10, RED);
        fill_rect(&mut img, 5, 5, 10, 10, Rgba([255, 0, 0, 128]));
        assert_eq!(img.get_pixel(6, 6)[0], 128);
    }

    #[test]
    fn out_of_bounds_drawing_is_ignored() {
        let mut img = blank();
        fill_disc(&mut img, Pt::new(-50.0, -50.0), 10.0, RED);
        thick_line(&mut img, Pt::new(-10.0, 5.0), Pt::new(100.0, 5.0), 3.0, RED);
        assert_eq!(*img.get_pixel(20, 5), RED);
        assert_eq!(*img.get_pixel(20, 20), Rgba([0, 0, 0, 255]));
    }
}
