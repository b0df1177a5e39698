//! Colours: a colour-blind-safe seat palette (Okabe & Ito), named marble colours, contrast
//! helpers, and the letters that tell seats apart without colour.

use image::Rgba;

pub const fn rgb(hex: u32) -> Rgba<u8> {
    Rgba([(hex >> 16) as u8, (hex >> 8) as u8, hex as u8, 255])
}

/// With alpha: for translucent overlays.
pub const fn rgba(hex: u32, alpha: u8) -> Rgba<u8> {
    Rgba([(hex >> 16) as u8, (hex >> 8) as u8, hex as u8, alpha])
}

pub const BLACK: Rgba<u8> = rgb(0x000000);
pub const WHITE: Rgba<u8> = rgb(0xFFFFFF);
/// Near-black ink for text on light backgrounds.
pub const INK: Rgba<u8> = rgb(0x1B1B1F);
/// Secondary text on light backgrounds.
pub const INK_DIM: Rgba<u8> = rgb(0x55565C);
/// Light paper for side panels.
pub const PAPER: Rgba<u8> = rgb(0xF5F2EA);
/// Highlight for "act on this" marks (the orange of the Cortexcape spec).
pub const ALERT: Rgba<u8> = rgb(0xF28C28);

/// Seat colours for games without colours of their own, in seat order. Okabe & Ito's palette
/// stays distinct under the common colour-vision deficiencies; letters back it up.
pub const SEAT_COLOURS: [Rgba<u8>; 6] = [
    rgb(0x0072B2), // blue
    rgb(0xE69F00), // orange
    rgb(0x009E73), // bluish green
    rgb(0xCC79A7), // reddish purple
    rgb(0xF0E442), // yellow
    rgb(0x56B4E9), // sky blue
];

/// The colour a game names (marbles, pawns), picked to stay distinct for colour-blind players.
pub fn named(name: &str) -> Option<Rgba<u8>> {
    Some(match name {
        "white" => rgb(0xF4F4F4),
        "black" => rgb(0x1E1E1E),
        "blue" => rgb(0x0072B2),
        "red" => rgb(0xDC3220),
        "green" => rgb(0x009E73),
        "yellow" => rgb(0xF0E442),
        "orange" => rgb(0xE69F00),
        "purple" => rgb(0xCC79A7),
        _ => return None,
    })
}

fn linear(c: u8) -> f32 {
    let s = f32::from(c) / 255.0;
    if s <= 0.040_45 {
        s / 12.92
    } else {
        ((s + 0.055) / 1.055).powf(2.4)
    }
}

/// WCAG relative luminance, 0 (black) to 1 (white).
pub fn luminance(c: Rgba<u8>) -> f32 {
    0.2126 * linear(c[0]) + 0.7152 * linear(c[1]) + 0.0722 * linear(c[2])
}

/// WCAG contrast ratio, 1 to 21.
pub fn contrast(a: Rgba<u8>, b: Rgba<u8>) -> f32 {
    let (la, lb) = (luminance(a), luminance(b));
    (la.max(lb) + 0.05) / (la.min(lb) + 0.05)
}

/// Black or white, whichever reads better on `bg`.
pub fn ink_on(bg: Rgba<u8>) -> Rgba<u8> {
    if contrast(bg, INK) >= contrast(bg, WHITE) {
        INK
    } else {
        WHITE
    }
}

/// Mixes `a` toward `b` by `t` (0 = a, 1 = b); alpha stays opaque.
pub fn mix(a: Rgba<u8>, b: Rgba<u8>, t: f32) -> Rgba<u8> {
    let t = t.clamp(0.0, 1.0);
    let m = |x: u8, y: u8| (f32::from(x) + (f32::from(y) - f32::from(x)) * t).round() as u8;
    Rgba([m(a[0], b[0]), m(a[1], b[1]), m(a[2], b[2]), 255])
}

/// One letter per seat, shown on its tokens: the first letter of each name when those are all
/// different, else A, B, C... (two players called Ann and Alex must not share a letter).
pub fn seat_letters(names: &[String]) -> Vec<char> {
    let initials: Vec<Option<char>> = names
        .iter()
        .map(|n| {
            n.chars()
                .find(|c| c.is_alphanumeric())
                .and_then(|c| c.to_uppercase().next())
        })
        .collect();
    let unique = initials
        .iter()
        .enumerate()
        .all(|(i, c)| c.is_some() && !initials[..i].contains(c));
    if unique {
        initials.into_iter().flatten().collect()
    } else {
        (0..names.len())
            .map(|i| char::from(b'A' + (i % 26) as u8))
            .collect()
    }
}

/// Colour seen with a red-green deficiency (Machado et al. 2009, full severity), for tests
/// that the palettes stay apart.
pub fn simulate(c: Rgba<u8>, deficiency: Deficiency) -> [f32; 3] {
    let m: [[f32; 3]; 3] = match deficiency {
        Deficiency::None => [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]],
        Deficiency::Protan => [
            [0.152_286, 1.052_583, -0.204_868],
            [0.114_503, 0.786_281, 0.099_216],
            [-0.003_882, -0.048_116, 1.051_998],
        ],
        Deficiency::Deutan => [
            [0.367_322, 0.860_646, -0.227_968],
            [0.280_085, 0.672_501, 0.047_413],
            [-0.011_820, 0.042_940, 0.968_881],
        ],
        Deficiency::Tritan => [
            [1.255_528, -0.076_749, -0.178_779],
            [-0.078_411, 0.930_809, 0.147_602],
            [0.004_733, 0.691_367, 0.303_900],
        ],
    };
    let v = [linear(c[0]), linear(c[1]), linear(c[2])];
    let mut out = [0.0; 3];
    for (i, row) in m.iter().enumerate() {
        out[i] = (row[0] * v[0] + row[1] * v[1] + row[2] * v[2]).clamp(0.0, 1.0);
    }
    out
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Deficiency {
    None,
    Protan,
    Deutan,
    Tritan,
}

/// Distance between two colours as a viewer with `deficiency` sees them (gamma-encoded RGB,
/// roughly perceptual, 0 to about 1.7).
pub fn seen_distance(a: Rgba<u8>, b: Rgba<u8>, deficiency: Deficiency) -> f32 {
    let enc = |v: f32| v.powf(1.0 / 2.2);
    let (x, y) = (simulate(a, deficiency), simulate(b, deficiency));
    (0..3)
        .map(|i| (enc(x[i]) - enc(y[i])).powi(2))
        .sum::<f32>()
        .sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;

    const ALL: [Deficiency; 4] = [
        Deficiency::None,
        Deficiency::Protan,
        Deficiency::Deutan,
        Deficiency::Tritan,
    ];

    fn min_distance(colours: &[Rgba<u8>], d: Deficiency) -> f32 {
        let mut min = f32::MAX;
        for i in 0..colours.len() {
            for j in i + 1..colours.len() {
                min = min.min(seen_distance(colours[i], colours[j], d));
            }
        }
        min
    }

    #[test]
    fn seat_colours_stay_apart_for_colour_blind_viewers() {
        for d in ALL {
            // Tritanopia (rare) brings blue and bluish green closest; letters carry it.
            let floor = if d == Deficiency::Tritan { 0.1 } else { 0.15 };
            let m = min_distance(&SEAT_COLOURS, d);
            assert!(m > floor, "{d:?}: closest pair only {m}");
        }
    }

    #[test]
    fn marble_colours_stay_apart_for_colour_blind_viewers() {
        let marbles: Vec<_> = ["white", "black", "blue", "red"]
            .iter()
            .map(|n| named(n).unwrap())
            .collect();
        for d in ALL {
            let m = min_distance(&marbles, d);
            assert!(m > 0.3, "{d:?}: closest pair only {m}");
        }
    }

    #[test]
    fn a_grey_palette_would_fail_the_check() {
        let greys = [rgb(0x808080), rgb(0x858585)];
        assert!(min_distance(&greys, Deficiency::None) < 0.1);
    }

    #[test]
    fn letters_are_readable_on_every_seat_colour() {
        let marbles = ["white", "black", "blue", "red"].map(|n| named(n).unwrap());
        for c in SEAT_COLOURS.iter().chain(marbles.iter()) {
            assert!(contrast(*c, ink_on(*c)) >= 4.5, "{c:?}");
        }
    }

    #[test]
    fn contrast_extremes() {
        assert!((contrast(BLACK, WHITE) - 21.0).abs() < 0.01);
        assert!((contrast(WHITE, WHITE) - 1.0).abs() < 0.001);
        assert_eq!(ink_on(WHITE), INK);
        assert_eq!(ink_on(BLACK), WHITE);
    }

    #[test]
    fn seat_letters_use_initials_when_distinct() {
        let names = vec!["zoé".to_string(), "Bob".to_string(), "#chloé".to_string()];
        assert_eq!(seat_letters(&names), vec!['Z', 'B', 'C']);
        let names = vec!["Éva".to_string(), "yann".to_string()];
        assert_eq!(seat_letters(&names), vec!['É', 'Y']);
    }

    #[test]
    fn seat_letters_fall_back_when_initials_clash_or_are_missing() {
        let clash = vec!["Ann".to_string(), "Alex".to_string(), "Bob".to_string()];
        assert_eq!(seat_letters(&clash), vec!['A', 'B', 'C']);
        let missing = vec!["Zed".to_string(), "!!".to_string()];
        assert_eq!(seat_letters(&missing), vec!['A', 'B']);
    }

    #[test]
    fn every_letter_differs_for_six_seats() {
        let names: Vec<String> = (0..6).map(|_| "Sam".to_string()).collect();
        let letters = seat_letters(&names);
        for i in 0..6 {
            for j in i + 1..6 {
                assert_ne!(letters[i], letters[j]);
            }
        }
    }

    #[test]
    fn named_colours() {
        assert_eq!(named("blue"), Some(SEAT_COLOURS[0]));
        assert_eq!(named("mauve"), None);
    }
}
