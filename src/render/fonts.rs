//! The embedded faces and the layout of text DejaVu Sans alone cannot set: names in any script,
//! drawn as their owners wrote them (issue 38).
//!
//! - **Faces.** DejaVu Sans (regular and bold) first; then Noto Sans for the scripts DejaVu
//!   lacks (Devanagari, Bengali, Gurmukhi, Gujarati, Oriya, Tamil, Telugu, Kannada, Malayalam,
//!   Sinhala, Thai, Lao, Khmer, Myanmar, Ethiopic; Arabic too, which DejaVu draws small and only
//!   in part), WenQuanYi Micro Hei for Chinese, Japanese and Korean, and Noto Emoji (monochrome)
//!   for emoji. Each face is scaled so that its em is DejaVu's at the same size. A face with no
//!   bold of its own is drawn thickened in bold text (`Placed::thicken`).
//! - **Which face.** Per character, the first face of the chain that has a glyph for it:
//!   Arabic letters try Noto Sans Arabic first, pictographs (U+1F000 and up, or a character
//!   followed by the emoji selector U+FE0F) Noto Emoji first, everything else DejaVu first.
//!   Combining marks, joiners, selectors, skin tones and tags stay in the face of the character
//!   before them when it has them, and so does a space, so that a word or an emoji sequence is
//!   shaped as one run.
//! - **Order.** The Unicode bidirectional algorithm (`unicode-bidi`) on a left-to-right line
//!   (our texts are English or French around the names): runs of Arabic or Hebrew go right to
//!   left, each in its place.
//! - **Shapes.** Each run of one face and one direction is shaped by rustybuzz (HarfBuzz's
//!   algorithm): Arabic letters joined, Indic conjuncts and vowel signs placed, emoji sequences
//!   (ZWJ, skin tones, flags) made one glyph where the face has it, kerning.
//! - **No glyph anywhere.** The character's code point in small hex digits, on two rows: a
//!   readable stand-in, never the empty box of a missing glyph (glyph 0 is never drawn).
//!
//! Text DejaVu sets alone, left to right (every catalog string, every Latin, Greek or Cyrillic
//! name) keeps the old layout in `text.rs`, so those boards are unchanged pixel for pixel.

use std::sync::OnceLock;

use ab_glyph::{Font, FontRef, GlyphId, PxScale, ScaleFont};
use unicode_bidi::{Level, ParagraphBidiInfo};

use super::text::{Placed, Weight};

/// DejaVu Sans regular and bold, the faces of every board's own text.
pub const REGULAR: u8 = 0;
pub const BOLD: u8 = 1;
/// Faces with a bold twin at the next index.
const ARABIC: u8 = 2;
const DEVANAGARI: u8 = 4;
const THAI: u8 = 6;
/// Faces with no bold: from here to `EMOJI`.
const SINGLE: u8 = 8;
const CJK: u8 = 21;
const EMOJI: u8 = 22;

/// Every embedded face, by index. Sizes in DECISIONS.md ("Fonts: names in any script").
static FILES: [&[u8]; 23] = [
    include_bytes!("../../assets/fonts/DejaVuSans.ttf"),
    include_bytes!("../../assets/fonts/DejaVuSans-Bold.ttf"),
    include_bytes!("../../assets/fonts/NotoSansArabic-Regular.ttf"),
    include_bytes!("../../assets/fonts/NotoSansArabic-Bold.ttf"),
    include_bytes!("../../assets/fonts/NotoSansDevanagari-Regular.ttf"),
    include_bytes!("../../assets/fonts/NotoSansDevanagari-Bold.ttf"),
    include_bytes!("../../assets/fonts/NotoSansThai-Regular.ttf"),
    include_bytes!("../../assets/fonts/NotoSansThai-Bold.ttf"),
    include_bytes!("../../assets/fonts/NotoSansBengali-Regular.ttf"),
    include_bytes!("../../assets/fonts/NotoSansGurmukhi-Regular.ttf"),
    include_bytes!("../../assets/fonts/NotoSansGujarati-Regular.ttf"),
    include_bytes!("../../assets/fonts/NotoSansOriya-Regular.ttf"),
    include_bytes!("../../assets/fonts/NotoSansTamil-Regular.ttf"),
    include_bytes!("../../assets/fonts/NotoSansTelugu-Regular.ttf"),
    include_bytes!("../../assets/fonts/NotoSansKannada-Regular.ttf"),
    include_bytes!("../../assets/fonts/NotoSansMalayalam-Regular.ttf"),
    include_bytes!("../../assets/fonts/NotoSansSinhala-Regular.ttf"),
    include_bytes!("../../assets/fonts/NotoSansLao-Regular.ttf"),
    include_bytes!("../../assets/fonts/NotoSansKhmer-Regular.ttf"),
    include_bytes!("../../assets/fonts/NotoSansMyanmar-Regular.ttf"),
    include_bytes!("../../assets/fonts/NotoSansEthiopic-Regular.ttf"),
    include_bytes!("../../assets/fonts/WenQuanYiMicroHei.ttf"),
    include_bytes!("../../assets/fonts/NotoEmoji-Regular.ttf"),
];

/// One embedded face, read for drawing (ab_glyph) and for shaping (rustybuzz).
pub struct Face {
    pub font: FontRef<'static>,
    shaper: rustybuzz::Face<'static>,
    /// Font units per em.
    units_per_em: f32,
    /// ab_glyph's unit of scale: ascent minus descent, in font units.
    height: f32,
}

/// The face at `index`; `None` only if an embedded file were corrupt (a test checks none is),
/// in which case its characters get the stand-in.
pub fn face(index: u8) -> Option<&'static Face> {
    static FACES: OnceLock<Vec<Option<Face>>> = OnceLock::new();
    FACES
        .get_or_init(|| {
            FILES
                .iter()
                .map(|bytes| {
                    let font = FontRef::try_from_slice(bytes).ok()?;
                    let shaper = rustybuzz::Face::from_slice(bytes, 0)?;
                    Some(Face {
                        units_per_em: shaper.units_per_em() as f32,
                        height: font.height_unscaled(),
                        font,
                        shaper,
                    })
                })
                .collect()
        })
        .get(usize::from(index))?
        .as_ref()
}

/// How many faces are embedded (for the test that loads them all).
pub fn face_count() -> u8 {
    FILES.len() as u8
}

impl Face {
    fn has(&self, c: char) -> bool {
        self.font.glyph_id(c).0 != 0
    }
}

/// Whether DejaVu sets `c` alone, left to right, with no shaping: Latin, Greek, Cyrillic,
/// Armenian, punctuation, arrows and symbols. Everything else (right-to-left and complex
/// scripts, joiners, bidi controls, emoji selectors, pictographs) goes through [`shape`].
pub fn plain(c: char) -> bool {
    matches!(u32::from(c),
        0..=0x058F | 0x1E00..=0x1FFF | 0x2010..=0x2027 | 0x2030..=0x205E | 0x2070..=0x2BFF)
}

/// Kept with the character before it (in its face when that face has it).
pub fn attached(c: char) -> bool {
    matches!(u32::from(c),
        0x0300..=0x036F | 0x1AB0..=0x1AFF | 0x1DC0..=0x1DFF | 0x200C..=0x200D | 0x20D0..=0x20FF
            | 0xFE00..=0xFE0F | 0xFE20..=0xFE2F | 0x1F3FB..=0x1F3FF | 0xE0020..=0xE007F
            | 0xE0100..=0xE01EF)
}

/// Drawn as nothing when no face has it (format and bidi controls, selectors, tags).
fn ignorable(c: char) -> bool {
    matches!(u32::from(c),
        0x00AD | 0x034F | 0x061C | 0x115F..=0x1160 | 0x17B4..=0x17B5 | 0x180B..=0x180F
            | 0x200B..=0x200F | 0x202A..=0x202E | 0x2060..=0x206F | 0x3164 | 0xFE00..=0xFE0F
            | 0xFEFF | 0xFFA0 | 0xFFF0..=0xFFF8 | 0x1BCA0..=0x1BCA3 | 0x1D173..=0x1D17A
            | 0xE0000..=0xE0FFF)
}

fn arabic(c: char) -> bool {
    matches!(u32::from(c),
        0x0600..=0x06FF | 0x0750..=0x077F | 0x0870..=0x08FF | 0xFB50..=0xFDFF | 0xFE70..=0xFEFF)
}

fn pictograph(c: char) -> bool {
    u32::from(c) >= 0x1F000 && u32::from(c) <= 0x1FAFF
}

/// What a character is drawn with.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Pick {
    Face(u8),
    /// No face has it: its code point in small digits.
    StandIn,
    /// No face has it and it shows nothing anyway.
    Nothing,
}

/// The faces tried for `c`, best first.
fn chain(c: char, emoji_asked: bool, bold: u8) -> impl Iterator<Item = u8> {
    let first = if emoji_asked || pictograph(c) {
        Some(EMOJI)
    } else if arabic(c) {
        Some(ARABIC + bold)
    } else {
        None
    };
    first.into_iter().chain(
        [REGULAR + bold, DEVANAGARI + bold, THAI + bold]
            .into_iter()
            .chain(SINGLE..CJK)
            .chain([CJK, EMOJI]),
    )
}

fn pick(c: char, next: Option<char>, before: Option<Pick>, bold: u8) -> Pick {
    if let Some(Pick::Face(f)) = before {
        if (attached(c) || c == ' ') && face(f).is_some_and(|x| x.has(c)) {
            return Pick::Face(f);
        }
        // A selector or joiner the face lacks still belongs to its run (the shaper hides it).
        if ignorable(c) && attached(c) {
            return Pick::Face(f);
        }
    }
    let emoji_asked = next == Some('\u{FE0F}');
    chain(c, emoji_asked, bold)
        .find(|&f| face(f).is_some_and(|x| x.has(c)))
        .map_or(
            if ignorable(c) {
                Pick::Nothing
            } else {
                Pick::StandIn
            },
            Pick::Face,
        )
}

/// The whole-text layout for text [`plain`] does not cover: glyphs on a baseline at y = 0
/// from x = 0, and the advance width. `size` is the em size DejaVu gets at that pixel size.
pub fn shape(weight: Weight, size: f32, text: &str) -> (Vec<Placed>, f32) {
    let bold = u8::from(weight == Weight::Bold);
    let Some(dejavu) = face(REGULAR + bold) else {
        return (Vec::new(), 0.0);
    };
    // Pixels per em: DejaVu at `size` (ab_glyph scales its ascent-to-descent to `size`).
    let em = size * dejavu.units_per_em / dejavu.height;
    // The pick of each character, by its byte index.
    let mut picks: Vec<(usize, Pick)> = Vec::with_capacity(text.len());
    let mut chars = text.char_indices().peekable();
    let mut before = None;
    while let Some((i, c)) = chars.next() {
        let p = pick(c, chars.peek().map(|&(_, n)| n), before, bold);
        picks.push((i, p));
        before = Some(p);
    }
    let pick_at = |i: usize| {
        picks
            .binary_search_by_key(&i, |&(at, _)| at)
            .map_or(Pick::Nothing, |k| picks[k].1)
    };

    let runs: Vec<(std::ops::Range<usize>, bool)> = {
        let bidi = ParagraphBidiInfo::new(text, Some(Level::ltr()));
        if bidi.has_rtl() {
            let (levels, runs) = bidi.visual_runs(0..text.len());
            runs.into_iter()
                .map(|r| {
                    let rtl = levels.get(r.start).is_some_and(|l| l.is_rtl());
                    (r, rtl)
                })
                .collect()
        } else {
            vec![(0..text.len(), false)]
        }
    };

    let mut out = Vec::with_capacity(text.len());
    let mut pen = 0.0f32;
    for (run, rtl) in runs {
        // The run cut where the pick changes (each stand-in alone), in logical order.
        let mut pieces: Vec<(std::ops::Range<usize>, Pick)> = Vec::new();
        for (i, c) in text[run.clone()].char_indices() {
            let at = run.start + i;
            let p = pick_at(at);
            let end = at + c.len_utf8();
            match pieces.last_mut() {
                Some((r, q)) if *q == p && p != Pick::StandIn => r.end = end,
                _ => pieces.push((at..end, p)),
            }
        }
        if rtl {
            pieces.reverse();
        }
        for (range, p) in pieces {
            match p {
                Pick::Nothing => {}
                Pick::StandIn => {
                    let c = text[range.clone()].chars().next().unwrap_or('?');
                    pen += stand_in(weight, size, c, range.start, pen, &mut out);
                }
                Pick::Face(f) => {
                    let Some(fc) = face(f) else { continue };
                    let mut buffer = rustybuzz::UnicodeBuffer::new();
                    buffer.push_str(&text[range.clone()]);
                    buffer.set_direction(if rtl {
                        rustybuzz::Direction::RightToLeft
                    } else {
                        rustybuzz::Direction::LeftToRight
                    });
                    buffer.guess_segment_properties();
                    let shaped = rustybuzz::shape(&fc.shaper, &[], buffer);
                    let k = em / fc.units_per_em;
                    let scale = k * fc.height;
                    let thicken = bold == 1 && (SINGLE..EMOJI).contains(&f);
                    for (info, pos) in shaped.glyph_infos().iter().zip(shaped.glyph_positions()) {
                        let advance = pos.x_advance as f32 * k;
                        out.push(Placed {
                            face: f,
                            thicken,
                            scale,
                            id: GlyphId(u16::try_from(info.glyph_id).unwrap_or(0)),
                            x: pen + pos.x_offset as f32 * k,
                            y: -(pos.y_offset as f32) * k,
                            cluster: range.start + info.cluster as usize,
                            advance,
                        });
                        pen += advance;
                    }
                }
            }
        }
    }
    (out, pen)
}

/// Places the stand-in for `c` (its code point in hex on two rows, in DejaVu at under half the
/// size, about as tall as a capital) at `x`; returns its advance.
fn stand_in(
    weight: Weight,
    size: f32,
    c: char,
    cluster: usize,
    x: f32,
    out: &mut Vec<Placed>,
) -> f32 {
    let index = if weight == Weight::Bold {
        BOLD
    } else {
        REGULAR
    };
    let Some(dejavu) = face(index) else {
        return 0.0;
    };
    let small = size * 0.42;
    let scaled = dejavu.font.as_scaled(PxScale::from(small));
    let digits = format!("{:04X}", u32::from(c));
    let (top, bottom) = digits.split_at(digits.len() / 2);
    let row_width = |s: &str| {
        s.chars()
            .map(|d| scaled.h_advance(scaled.glyph_id(d)))
            .sum::<f32>()
    };
    let pad = size * 0.1;
    let wide = row_width(top).max(row_width(bottom));
    for (row, baseline) in [(top, -(small * 0.73 + size * 0.1)), (bottom, 0.0)] {
        let mut dx = x + pad + (wide - row_width(row)) / 2.0;
        for d in row.chars() {
            let id = scaled.glyph_id(d);
            out.push(Placed {
                face: index,
                thicken: false,
                scale: small,
                id,
                x: dx,
                y: baseline,
                cluster,
                advance: 0.0,
            });
            dx += scaled.h_advance(id);
        }
    }
    // The advance goes on the last digit, so the cluster's advances add up to the stand-in's.
    let advance = wide + 2.0 * pad;
    if let Some(last) = out.last_mut() {
        last.advance = advance;
    }
    advance
}
