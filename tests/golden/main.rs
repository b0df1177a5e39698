//! Golden images for the board renderers, after imageproc's `tests/regression.rs`: each render
//! is compared with a stored PNG within a small per-channel tolerance.
//!
//! - Regenerate every image with `CROUPIER_BLESS=1 cargo test --test golden`.
//! - A failing comparison writes `<name>.actual.png` next to the stored one, for a look.
//! - The stored images are the exact renders (RGB PNG); each check also encodes the board as
//!   players get it (`encode_png`: 256 colours) and holds it to the size budget and to the
//!   palette's promise (every colour covering a patch exact, edge pixels close).
//!   `CROUPIER_GOLDEN_SENT=dir` writes those PNGs to `dir` (names collide across games: run one
//!   game's module at a time) and prints their size and fidelity.
//!
//! One module per game (`<game>.rs` here); its images live in `<game>/`. Views are built by
//! hand where the game allows it, so a rules change does not move the pictures.

use std::path::PathBuf;

use croupier::service::encode_png;
use image::RgbaImage;

/// Largest per-channel difference still counted as equal (rounding, not drawing changes).
const TOLERANCE: u8 = 3;

mod cortexcape;
mod gates;
mod portal;
mod spacelab;
mod vortex;

fn golden_dir(game: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(game)
}

/// Compares `img` with `tests/golden/<game>/<name>.png` (or writes it when blessing).
pub fn check(game: &str, name: &str, img: &RgbaImage) {
    let dir = golden_dir(game);
    let path = dir.join(format!("{name}.png"));
    check_as_sent(name, img);
    let png = encode_exact(img);
    if std::env::var_os("CROUPIER_BLESS").is_some() {
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(&path, &png).unwrap();
        return;
    }
    let expected = image::open(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (bless with CROUPIER_BLESS=1)", path.display()))
        .to_rgba8();
    let actual_path = dir.join(format!("{name}.actual.png"));
    if expected.dimensions() != img.dimensions() {
        std::fs::write(&actual_path, &png).unwrap();
        panic!(
            "{name}: size {:?}, expected {:?}",
            img.dimensions(),
            expected.dimensions()
        );
    }
    let mut worst = 0u8;
    let mut count = 0usize;
    let mut first = None;
    for (x, y, a) in img.enumerate_pixels() {
        let e = expected.get_pixel(x, y);
        let d = (0..4).map(|c| a[c].abs_diff(e[c])).max().unwrap_or(0);
        if d > TOLERANCE {
            count += 1;
            first.get_or_insert((x, y, *a, *e));
        }
        worst = worst.max(d);
    }
    if count > 0 {
        std::fs::write(&actual_path, &png).unwrap();
        panic!(
            "{name}: {count} pixels differ (worst by {worst}); first {first:?}; see {}",
            actual_path.display()
        );
    }
    let _ = std::fs::remove_file(&actual_path);
}

/// A Zoom answer cut from `board` (the parts stacked under their captions).
pub fn zoom(board: &RgbaImage, regions: &[croupier::render::zoom::Region]) -> RgbaImage {
    croupier::render::zoom::compose(board, regions)
        .expect("parts inside the board")
        .0
}

/// The lossless RGB PNG the golden files are stored as.
fn encode_exact(img: &RgbaImage) -> Vec<u8> {
    use image::codecs::png::{CompressionType, FilterType};
    croupier::service::encode_rgb(img, CompressionType::Level(1), FilterType::NoFilter)
}

/// Colours covering this many pixels (a 10 × 10 patch) must reach players unchanged: fills,
/// seat colours, text. The quantiser keeps up to 208 colours exactly, most used first; our
/// boards have 40 to 200 colours this common.
const EXACT_FROM: u32 = 100;

/// The board as players get it: under 200 KB, every colour covering [`EXACT_FROM`] pixels or
/// more unchanged, and the image as a whole faithful (PSNR over 40 dB, where 30 is visible).
fn check_as_sent(name: &str, img: &RgbaImage) {
    let png = encode_png(img);
    assert!(png.len() <= 200_000, "{name}: PNG is {} bytes", png.len());
    let sent = image::load_from_memory(&png)
        .expect("our PNG decodes")
        .to_rgb8();
    let mut counts = std::collections::HashMap::<[u8; 3], u32>::new();
    for p in img.pixels() {
        *counts.entry([p[0], p[1], p[2]]).or_default() += 1;
    }
    let mut squared = 0u64;
    for ((x, y, p), q) in img.enumerate_pixels().zip(sent.pixels()) {
        let exact = [p[0], p[1], p[2]];
        if counts[&exact] >= EXACT_FROM {
            assert_eq!(q.0, exact, "{name}: a kept colour moved at {x},{y}");
        }
        squared += (0..3)
            .map(|c| u64::from(p[c].abs_diff(q[c])).pow(2))
            .sum::<u64>();
    }
    let mse = squared as f64 / (3.0 * f64::from(img.width() * img.height()));
    let psnr = if mse == 0.0 {
        f64::INFINITY
    } else {
        10.0 * (255.0f64 * 255.0 / mse).log10()
    };
    if let Some(dir) = std::env::var_os("CROUPIER_GOLDEN_SENT") {
        // For a look at what players get: CROUPIER_GOLDEN_SENT=dir writes each sent PNG there.
        eprintln!("{name}: {} bytes, {psnr:.1} dB", png.len());
        let _ = std::fs::write(PathBuf::from(dir).join(format!("{name}.png")), &png);
    }
    assert!(
        psnr > 40.0,
        "{name}: the 256-colour board is {psnr:.1} dB from the render"
    );
}

/// Every game's Zoom parts, at every table size and through a game, for every viewer: each
/// part lies inside the board and is narrow enough to show whole, and the viewer's own area
/// (for games that draw one per seat) comes first. Layouts do not depend on the language.
#[test]
fn zoom_parts_fit_every_game_at_every_table() {
    use croupier::engine::{GameKind, GameOptions, GameRng};
    for &kind in GameKind::ALL {
        let (min, max) = kind.seat_range();
        let mut sets = vec![GameOptions::new()];
        for spec in kind.option_specs() {
            for v in spec.values.iter().filter(|v| **v != spec.default) {
                let mut s = GameOptions::new();
                s.insert(spec.key.to_string(), (*v).to_string());
                sets.push(s);
            }
        }
        for (k, options) in sets.iter().enumerate() {
            // Every table size through a game with the default options; each other option
            // at setup, at the largest table that takes it.
            let sizes: Vec<usize> = if k == 0 {
                (min..=max).collect()
            } else {
                (min..=max).rev().collect()
            };
            let steps = if k == 0 { 60 } else { 0 };
            for seats in sizes {
                let Ok(mut game) = kind.setup(options, seats, 5) else {
                    continue;
                };
                let mut rng = GameRng::seed_from_u64(5);
                for step in 0..=steps {
                    if step % 30 == 0 || game.prompt().is_none() {
                        let at = format!("{} {options:?} {seats} seats, step {step}", kind.id());
                        zoom_fits(game.as_ref(), seats, step == 0, &at);
                    }
                    let Some(p) = game.prompt() else { break };
                    let pick = p.options[rng.gen_range(0..p.options.len())].clone();
                    game.apply_notation(p.seat, &pick).unwrap();
                }
                if k > 0 {
                    break;
                }
            }
        }
    }
}

/// One position's Zoom parts for a spectator and each seat; `render`: also compose them.
fn zoom_fits(game: &dyn croupier::engine::AnyGame, seats: usize, render: bool, at: &str) {
    use croupier::engine::{GameKind, RenderCtx, Seat};
    use croupier::render::zoom::{MAX_PARTS, MAX_WIDTH};
    let names = ["Ann", "Bob", "Cleo", "Dev", "Eve", "Finn"];
    let ctx = RenderCtx {
        lang: croupier::i18n::Lang::En,
        names: names[..seats].iter().map(|s| (*s).to_string()).collect(),
        stopped: false,
        number: None,
    };
    let board = game.render_public(&ctx);
    let viewers = std::iter::once(None).chain((0..seats).map(|i| Some(Seat(i as u8))));
    for viewer in viewers {
        let regions = game.zoom_regions(&ctx, viewer);
        let n = regions.len();
        assert!(n > 0 && n <= MAX_PARTS, "{at}, {viewer:?}: {n} parts");
        for r in &regions {
            let misfit = r.misfit(board.width(), board.height());
            assert_eq!(misfit, None, "{at}, {viewer:?}");
        }
        if let (Some(me), GameKind::SpaceLab | GameKind::Gates) = (viewer, game.kind()) {
            // The viewer's own area first; at the end the header (who won) goes before it.
            let first = &regions[0].label;
            let over = game.outcome().is_some() && *first == ctx.zoom_text("status");
            assert!(
                first.starts_with(&ctx.name(me)) || over,
                "{at}, {viewer:?}: {first}"
            );
        }
        if render && viewer.is_none_or(|s| s.index() == 0) {
            let (img, labels) = game.render_zoom(&ctx, viewer).expect("a zoom");
            assert!(img.width() <= MAX_WIDTH, "{at}, {viewer:?}");
            assert_eq!(labels.len(), n, "{at}, {viewer:?}");
        }
    }
}

/// Names in the scripts players write them in (issue 38): Japanese, Arabic, Devanagari, emoji
/// with a skin tone and a character no face has (its stand-in), Hebrew, Korean. Six seats'
/// worth; a game seats the first of them.
const SCRIPT_NAMES: [&str; 6] = [
    "山田 花子",
    "محمد علي",
    "अर्जुन शर्मा",
    "Zoë 🦊✨👍🏽\u{E123}",
    "דוד כהן",
    "김민준",
];

/// Every game's board, one hand (where the game has hands) and the result card, with
/// [`SCRIPT_NAMES`] at its largest table, some turns in: each name drawn in its script,
/// joined and right to left where it is written so, never as empty boxes.
#[test]
fn names_in_every_script() {
    use croupier::engine::{GameKind, GameOptions, GameRng, RenderCtx, Seat};
    for &kind in GameKind::ALL {
        let (_, max) = kind.seat_range();
        let seats = max.min(SCRIPT_NAMES.len());
        let names: Vec<String> = SCRIPT_NAMES[..seats]
            .iter()
            .map(|s| (*s).to_string())
            .collect();
        let ctx = RenderCtx {
            lang: croupier::i18n::Lang::En,
            names: names.clone(),
            stopped: false,
            number: None,
        };
        let mut game = kind.setup(&GameOptions::new(), seats, 7).expect("setup");
        let mut rng = GameRng::seed_from_u64(7);
        for _ in 0..12 {
            let Some(p) = game.prompt() else { break };
            let pick = p.options[rng.gen_range(0..p.options.len())].clone();
            game.apply_notation(p.seat, &pick).unwrap();
        }
        check(kind.id(), "scripts", &game.render_public(&ctx));
        if let Some(hand) = game.render_private(Seat(1), &ctx) {
            check(kind.id(), "scripts_hand", &hand);
        }
        assert!(croupier::engine::play_out(game.as_mut(), 7, 200_000));
        let ending = croupier::service::Ending {
            turns: 57,
            secs: 3 * 86_400 + 5 * 3_600,
            resigned: None,
            casual: false,
        };
        let card = croupier::service::result_image(
            game.as_ref(),
            croupier::engine::GameId(12),
            &names,
            &ending,
            croupier::i18n::Lang::En,
        );
        check(kind.id(), "scripts_result", &card);
    }
}
