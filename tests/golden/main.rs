//! Golden images for the board renderers, after imageproc's `tests/regression.rs`: each render
//! is compared with a stored PNG within a small per-channel tolerance.
//!
//! - Regenerate every image with `CROUPIER_BLESS=1 cargo test --test golden`.
//! - A failing comparison writes `<name>.actual.png` next to the stored one, for a look.
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
    let png = encode_png(img);
    assert!(png.len() < 300_000, "{name}: PNG is {} bytes", png.len());
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
