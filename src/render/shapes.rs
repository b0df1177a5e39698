//! Anti-aliased shapes drawn from signed distance functions.
//!
//! Every shape is a function giving the signed distance (in pixels, negative inside) from a
//! pixel centre to its edge; the coverage of a pixel is `0.5 - distance`, clamped. That one
//! rule gives smooth discs, rings, thick lines, triangles and rounded boxes without
//! supersampling, and strokes come for free as `|distance| - width / 2`.

use std::ops::{Add, Sub};

use image::{Rgba, RgbaImage};

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
pub fn blend(img: &mut RgbaImage, x: i64, y: i64, colour: Rgba<u8>, coverage: f32) {
    if x < 0 || y < 0 || x >= i64::from(img.width()) || y >= i64::from(img.height()) {
        return;
    }
    // In bounds by the check above, so the casts are lossless.
    let px = img.get_pixel_mut(x as u32, y as u32);
    if coverage >= 1.0 && colour[3] == 255 {
        *px = colour;
        return;
    }
    let a = coverage.clamp(0.0, 1.0) * f32::from(colour[3]) / 255.0;
    if a <= 0.0 {
        return;
    }
    // Values stay within 0..=255, so adding 0.5 and truncating rounds.
    for c in 0..3 {
        let d = f32::from(px[c]);
        px[c] = (d + (f32::from(colour[c]) - d) * a + 0.5) as u8;
    }
    let da = f32::from(px[3]) / 255.0;
    px[3] = ((a + da * (1.0 - a)) * 255.0 + 0.5) as u8;
}

/// Fills a shape given by its signed distance function inside the box `min..max`.
pub fn fill_sdf(img: &mut RgbaImage, min: Pt, max: Pt, colour: Rgba<u8>, sdf: impl Fn(Pt) -> f32) {
    let x0 = (min.x - 1.0).floor().max(0.0) as i64;
    let y0 = (min.y - 1.0).floor().max(0.0) as i64;
    let x1 = ((max.x + 1.0).ceil() as i64).min(i64::from(img.width()));
    let y1 = ((max.y + 1.0).ceil() as i64).min(i64::from(img.height()));
    for y in y0..y1 {
        for x in x0..x1 {
            let d = sdf(Pt::new(x as f32 + 0.5, y as f32 + 0.5));
            let cov = 0.5 - d;
            if cov > 0.0 {
                blend(img, x, y, colour, cov);
            }
        }
    }
}

/// Fills an axis-aligned rectangle (no anti-aliasing: use it for panels and backgrounds).
pub fn fill_rect(img: &mut RgbaImage, x: i64, y: i64, w: i64, h: i64, colour: Rgba<u8>) {
    let x0 = x.max(0);
    let y0 = y.max(0);
    let x1 = (x + w).min(i64::from(img.width()));
    let y1 = (y + h).min(i64::from(img.height()));
    if x0 >= x1 || y0 >= y1 {
        return;
    }
    if colour[3] == 255 {
        // Opaque: overwrite whole row slices (the panel background is a third of the image).
        let w = img.width() as usize * 4;
        let buf: &mut [u8] = img;
        for yy in y0..y1 {
            let row = yy as usize * w;
            let span = &mut buf[row + x0 as usize * 4..row + x1 as usize * 4];
            for px in span.chunks_exact_mut(4) {
                px.copy_from_slice(&colour.0);
            }
        }
        return;
    }
    for yy in y0..y1 {
        for xx in x0..x1 {
            blend(img, xx, yy, colour, 1.0);
        }
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

pub fn fill_disc(img: &mut RgbaImage, c: Pt, r: f32, colour: Rgba<u8>) {
    let e = Pt::new(r, r);
    fill_sdf(img, c.sub(e), c.add(e), colour, |p| p.sub(c).len() - r);
}

/// A circle outline of radius `r` (centre of the stroke) and stroke `width`.
pub fn ring(img: &mut RgbaImage, c: Pt, r: f32, width: f32, colour: Rgba<u8>) {
    let e = Pt::new(r + width, r + width);
    fill_sdf(img, c.sub(e), c.add(e), colour, |p| {
        (p.sub(c).len() - r).abs() - width / 2.0
    });
}

/// A ring broken into `dashes` equal dashes (half the circumference is drawn).
pub fn dashed_ring(img: &mut RgbaImage, c: Pt, r: f32, width: f32, dashes: u32, colour: Rgba<u8>) {
    let period = std::f32::consts::TAU * r / dashes.max(1) as f32;
    let dash = period / 2.0;
    let e = Pt::new(r + width, r + width);
    fill_sdf(img, c.sub(e), c.add(e), colour, |p| {
        let v = p.sub(c);
        let radial = (v.len() - r).abs() - width / 2.0;
        // Arc length from angle 0, then the distance along the arc to the nearest dash.
        let s = (v.y.atan2(v.x) + std::f32::consts::PI) * r;
        let t = s.rem_euclid(period);
        let along = if t < dash {
            -t.min(dash - t)
        } else {
            (t - dash).min(period - t)
        };
        radial.max(along)
    });
}

/// A straight stroke with round caps.
pub fn thick_line(img: &mut RgbaImage, a: Pt, b: Pt, width: f32, colour: Rgba<u8>) {
    let h = width / 2.0;
    let min = Pt::new(a.x.min(b.x) - h, a.y.min(b.y) - h);
    let max = Pt::new(a.x.max(b.x) + h, a.y.max(b.y) + h);
    fill_sdf(img, min, max, colour, |p| dist_to_segment(p, a, b) - h);
}

/// A polyline with round joins.
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

/// Signed distance to a convex polygon given in either winding (approximate at corners,
/// exact along edges, which is what anti-aliasing needs).
fn convex_sdf(p: Pt, poly: &[Pt], clockwise: bool) -> f32 {
    let mut d = f32::NEG_INFINITY;
    for i in 0..poly.len() {
        let a = poly[i];
        let b = poly[(i + 1) % poly.len()];
        let e = b.sub(a).unit();
        // Outward normal for the given winding in y-down coordinates.
        let n = if clockwise {
            Pt::new(e.y, -e.x)
        } else {
            Pt::new(-e.y, e.x)
        };
        d = d.max((p.x - a.x) * n.x + (p.y - a.y) * n.y);
    }
    d
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

/// Fills a convex polygon (three or more points).
pub fn fill_convex(img: &mut RgbaImage, poly: &[Pt], colour: Rgba<u8>) {
    if poly.len() < 3 {
        return;
    }
    let cw = winding_clockwise(poly);
    let (min, max) = bounds(poly);
    fill_sdf(img, min, max, colour, |p| convex_sdf(p, poly, cw));
}

/// Outlines a convex polygon with a stroke centred on its edges.
pub fn stroke_convex(img: &mut RgbaImage, poly: &[Pt], width: f32, colour: Rgba<u8>) {
    if poly.len() < 3 {
        return;
    }
    let cw = winding_clockwise(poly);
    let (min, max) = bounds(poly);
    let e = Pt::new(width, width);
    fill_sdf(img, min.sub(e), max.add(e), colour, |p| {
        convex_sdf(p, poly, cw).abs() - width / 2.0
    });
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
pub fn cone(img: &mut RgbaImage, c: Pt, height: f32, fill: Rgba<u8>, outline: Rgba<u8>, w: f32) {
    let t = triangle_up(c, height);
    stroke_convex(img, &t, w * 2.0, outline);
    fill_convex(img, &t, fill);
}

/// An arrow head with its tip at `tip`, pointing along `dir`.
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
    fill_sdf(img, min, max, fill, |p| rounded_rect_sdf(p, min, max, r));
    if let Some((colour, w)) = outline {
        let inset = Pt::new(w / 2.0, w / 2.0);
        let (a, b) = (min.add(inset), max.sub(inset));
        let r2 = (r - w / 2.0).max(0.0);
        fill_sdf(img, min, max, colour, |p| {
            rounded_rect_sdf(p, a, b, r2).abs() - w / 2.0
        });
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
