//! Board images at every game's largest table (issue 21): render, PNG encode, both, and the PNG
//! bytes, for the busiest position of a seeded game. `cargo bench --bench render` prints one
//! markdown row per game (medians over `RENDER_BENCH_SAMPLES`, default 101); BENCHMARKS.md
//! records them. `RENDER_BENCH_ENCODERS=1` adds PNG settings compared on the same boards, with
//! the upload time at 1 MB/s (the slow case), for the encoder at the edge.
//!
//! Positions are seeded random play, the same in every run. Each depth was chosen as the
//! position with the largest PNG among those scanned every 10 options of the seeded game
//! (`RENDER_BENCH_SCAN=1` prints the scan, one render each); `RENDER_BENCH_DEPTH=n` measures
//! the position after n options instead, for a look at one the scan found slow.
//! `RENDER_BENCH_DUMP=dir` writes each measured board to `dir/<game>.png`.
//!
//! A second table (issue 38) renders the same boards with six long names in other scripts
//! (Japanese, Arabic, Devanagari, emoji, Hebrew, Korean, each 200 characters: cut with "…",
//! shaped, from the fallback faces) next to the short Latin names; a third times cutting one
//! name of 1,000 to 100,000 characters to a box (`text::fit`) and Gates' whole board with four
//! such names, which was quadratic in the name's length.

use std::hint::black_box;
use std::time::{Duration, Instant};

use croupier::engine::GameRng;
use croupier::engine::{AnyGame, GameKind, GameOptions, RenderCtx};
use croupier::i18n::Lang;
use croupier::render::quantize::quantize;
use croupier::service::{encode_indexed, encode_png, encode_rgb};
use image::codecs::png::{CompressionType, FilterType};
use image::RgbaImage;

struct Case {
    label: &'static str,
    kind: GameKind,
    seats: usize,
    options: &'static [(&'static str, &'static str)],
    lang: Lang,
    depth: usize,
}

const CASES: &[Case] = &[
    Case {
        label: "Vortex Crossing, 6 seats",
        kind: GameKind::Vortex,
        seats: 6,
        options: &[("mode", "crossing")],
        lang: Lang::En,
        depth: 690,
    },
    Case {
        label: "Portal, 4 seats",
        kind: GameKind::Portal,
        seats: 4,
        options: &[],
        lang: Lang::En,
        depth: 10,
    },
    Case {
        label: "Gates of Delirium, 4 seats, French",
        kind: GameKind::Gates,
        seats: 4,
        options: &[],
        lang: Lang::Fr,
        depth: 690,
    },
    Case {
        label: "Space Lab, 4 seats",
        kind: GameKind::SpaceLab,
        seats: 4,
        options: &[("objective_setup", "dealt")],
        lang: Lang::En,
        depth: 200,
    },
    Case {
        label: "Cortexcape, 4 seats",
        kind: GameKind::Cortexcape,
        seats: 4,
        options: &[],
        lang: Lang::En,
        depth: 210,
    },
];

const NAMES: [&str; 6] = ["Ann", "Bob", "Cleo", "Dan", "Eve", "Fay"];

fn setup(case: &Case) -> Box<dyn AnyGame> {
    let options: GameOptions = case
        .options
        .iter()
        .map(|(k, v)| ((*k).to_string(), (*v).to_string()))
        .collect();
    case.kind.setup(&options, case.seats, 42).expect("setup")
}

/// Plays `depth` seeded random options (fewer if the game ends first).
fn advance(game: &mut dyn AnyGame, rng: &mut GameRng, depth: usize) {
    for _ in 0..depth {
        let Some(p) = game.prompt() else { return };
        let pick = p.options[rng.gen_range(0..p.options.len())].clone();
        game.apply_notation(p.seat, &pick)
            .expect("listed option applies");
    }
}

fn ctx(case: &Case) -> RenderCtx {
    RenderCtx {
        lang: case.lang,
        names: NAMES[..case.seats].iter().map(|s| s.to_string()).collect(),
        stopped: false,
        number: None,
    }
}

fn median_of(samples: usize, mut f: impl FnMut()) -> Duration {
    for _ in 0..3 {
        f();
    }
    let mut times: Vec<Duration> = (0..samples)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed()
        })
        .collect();
    times.sort();
    times[times.len() / 2]
}

fn ms(d: Duration) -> String {
    format!("{:.2} ms", d.as_secs_f64() * 1e3)
}

/// Peak signal-to-noise ratio of the sent board against the render, in dB (over 40: no
/// visible difference; infinite: identical).
fn psnr(img: &RgbaImage, png: &[u8]) -> f64 {
    let sent = image::load_from_memory(png).expect("decodes").to_rgb8();
    let squared: u64 = img
        .pixels()
        .zip(sent.pixels())
        .map(|(a, b)| {
            (0..3)
                .map(|c| u64::from(a[c].abs_diff(b[c])).pow(2))
                .sum::<u64>()
        })
        .sum();
    let mse = squared as f64 / (3.0 * f64::from(img.width() * img.height()));
    10.0 * (255.0f64 * 255.0 / mse).log10()
}

fn encoders(label: &str, img: &RgbaImage, samples: usize) {
    let row = |name: &str, encode: &dyn Fn(&RgbaImage) -> Vec<u8>| {
        let png = encode(img);
        let t = median_of(samples, || {
            black_box(encode(black_box(img)));
        });
        // 1 MB/s: a byte costs a microsecond of upload.
        let upload = Duration::from_micros(png.len() as u64);
        println!(
            "| {label} | {name} | {} | {} KB | {} | {:.1} dB |",
            ms(t),
            png.len() / 1000,
            ms(t + upload),
            psnr(img, &png)
        );
    };
    let quantise = median_of(samples, || {
        black_box(quantize(black_box(img)));
    });
    println!(
        "| {label} | the 256-colour palette alone | {} | | | |",
        ms(quantise)
    );
    row("256 colours, level 1, no filter (the edge's)", &|i| {
        encode_png(i)
    });
    use png::DeflateCompression::{FdeflateUltraFast, Level};
    for (name, compression, filter) in [
        (
            "256 colours, level 2, no filter",
            Level(2),
            png::Filter::NoFilter,
        ),
        (
            "256 colours, level 3, no filter",
            Level(3),
            png::Filter::NoFilter,
        ),
        ("256 colours, level 1, Sub", Level(1), png::Filter::Sub),
        ("256 colours, level 1, Up", Level(1), png::Filter::Up),
        (
            "256 colours, fdeflate, no filter",
            FdeflateUltraFast,
            png::Filter::NoFilter,
        ),
        (
            "256 colours, fdeflate, Sub",
            FdeflateUltraFast,
            png::Filter::Sub,
        ),
        (
            "256 colours, fdeflate, Up",
            FdeflateUltraFast,
            png::Filter::Up,
        ),
        (
            "256 colours, fdeflate, adaptive",
            FdeflateUltraFast,
            png::Filter::Adaptive,
        ),
    ] {
        row(name, &|i| encode_indexed(i, compression, filter));
    }
    row("RGB, level 1, no filter (before)", &|i| {
        encode_rgb(i, CompressionType::Level(1), FilterType::NoFilter)
    });
    row("RGB, level 1, Up", &|i| {
        encode_rgb(i, CompressionType::Level(1), FilterType::Up)
    });
    row("RGB, level 6, no filter", &|i| {
        encode_rgb(i, CompressionType::Level(6), FilterType::NoFilter)
    });
}

fn scan(case: &Case) {
    let mut game = setup(case);
    let mut rng = GameRng::seed_from_u64(7);
    let ctx = ctx(case);
    let mut depth = 0;
    loop {
        let t = Instant::now();
        let img = game.render_public(&ctx);
        let render = t.elapsed();
        println!(
            "{} after {depth}: {} bytes, render {}",
            case.label,
            encode_png(&img).len(),
            ms(render)
        );
        if game.prompt().is_none() {
            break;
        }
        advance(game.as_mut(), &mut rng, 10);
        depth += 10;
    }
}

fn main() {
    let samples = std::env::var("RENDER_BENCH_SAMPLES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(101usize);
    // `cargo test --benches` runs this binary with `--bench` missing: build it, measure nothing.
    if !std::env::args().any(|a| a == "--bench") {
        return;
    }
    let only = std::env::var("RENDER_BENCH_ONLY").ok();
    let cases = CASES
        .iter()
        .filter(|c| only.as_deref().is_none_or(|o| c.kind.id() == o));
    if std::env::var_os("RENDER_BENCH_SCAN").is_some() {
        cases.for_each(scan);
        return;
    }
    println!("| board | render | encode | render + encode | PNG |");
    println!("|---|---|---|---|---|");
    let mut boards = Vec::new();
    let depth = std::env::var("RENDER_BENCH_DEPTH")
        .ok()
        .and_then(|s| s.parse().ok());
    for case in cases {
        let depth = depth.unwrap_or(case.depth);
        let mut game = setup(case);
        advance(game.as_mut(), &mut GameRng::seed_from_u64(7), depth);
        let ctx = ctx(case);
        let img = game.render_public(&ctx);
        let bytes = encode_png(&img).len();
        let render = median_of(samples, || {
            black_box(game.render_public(black_box(&ctx)));
        });
        let encode = median_of(samples, || {
            black_box(encode_png(black_box(&img)));
        });
        let both = median_of(samples, || {
            black_box(encode_png(&game.render_public(black_box(&ctx))));
        });
        println!(
            "| {} (after {}) | {} | {} | {} | {} KB |",
            case.label,
            depth,
            ms(render),
            ms(encode),
            ms(both),
            bytes / 1000
        );
        // `RENDER_BENCH_DUMP=dir` keeps each board as a PNG, to look at or to try encoders on.
        if let Some(dir) = std::env::var_os("RENDER_BENCH_DUMP") {
            let path = std::path::Path::new(&dir).join(format!("{}.png", case.kind.id()));
            std::fs::write(&path, encode_png(&img))
                .expect("RENDER_BENCH_DUMP is a writable folder");
        }
        boards.push((case.label, img));
    }
    names_table(samples, only.as_deref(), depth);
    if std::env::var_os("RENDER_BENCH_ENCODERS").is_some() {
        println!();
        println!(
            "| board | PNG settings | encode | bytes | encode + upload at 1 MB/s | fidelity |"
        );
        println!("|---|---|---|---|---|---|");
        for (label, img) in &boards {
            encoders(label, img, samples.min(21));
        }
    }
}

/// Long names in other scripts: each of [`SCRIPTS`] repeated to `chars` characters.
const SCRIPTS: [&str; 6] = [
    "山田花子 ",
    "محمد علي ",
    "अर्जुन शर्मा ",
    "Zoë 🦊✨👍🏽 ",
    "דוד כהן ",
    "김민준 ",
];

fn long_names(seats: usize, chars: usize) -> Vec<String> {
    SCRIPTS[..seats]
        .iter()
        .map(|s| s.chars().cycle().take(chars).collect())
        .collect()
}

fn names_table(samples: usize, only: Option<&str>, depth: Option<usize>) {
    use croupier::render::text::{fit, Weight};
    println!();
    println!(
        "| board | render, short Latin names | render, six 200-character names in other scripts |"
    );
    println!("|---|---|---|");
    for case in CASES
        .iter()
        .filter(|c| only.is_none_or(|o| c.kind.id() == o))
    {
        let mut game = setup(case);
        advance(
            game.as_mut(),
            &mut GameRng::seed_from_u64(7),
            depth.unwrap_or(case.depth),
        );
        let latin = ctx(case);
        let scripts = RenderCtx {
            lang: case.lang,
            names: long_names(case.seats, 200),
            stopped: false,
            number: None,
        };
        let a = median_of(samples, || {
            black_box(game.render_public(black_box(&latin)));
        });
        let b = median_of(samples, || {
            black_box(game.render_public(black_box(&scripts)));
        });
        println!("| {} | {} | {} |", case.label, ms(a), ms(b));
    }
    println!();
    println!("| one name cut to 300 px (`fit`) | 1,000 chars | 10,000 chars | 100,000 chars |");
    println!("|---|---|---|---|");
    for (label, unit) in [
        ("Latin", "Maximilien "),
        ("Japanese", "山田花子 "),
        ("Arabic", "محمد علي "),
    ] {
        let cells: Vec<String> = [1_000usize, 10_000, 100_000]
            .iter()
            .map(|&n| {
                let name: String = unit.chars().cycle().take(n).collect();
                let t = median_of(samples.min(21), || {
                    black_box(fit(Weight::Bold, 20.0, black_box(&name), 300.0));
                });
                format!("{:.3} ms", t.as_secs_f64() * 1e3)
            })
            .collect();
        println!("| {label} | {} |", cells.join(" | "));
    }
    println!();
    println!("| Gates board, 4 Latin names of | 1,000 chars | 2,000 chars | 4,000 chars | 10,000 chars |");
    println!("|---|---|---|---|---|");
    let gates = &CASES[2];
    let mut game = setup(gates);
    advance(game.as_mut(), &mut GameRng::seed_from_u64(7), gates.depth);
    let cells: Vec<String> = [1_000usize, 2_000, 4_000, 10_000]
        .iter()
        .map(|&n| {
            let ctx = RenderCtx {
                lang: gates.lang,
                names: (0..4)
                    .map(|i| format!("{i}Maximilien ").chars().cycle().take(n).collect())
                    .collect(),
                stopped: false,
                number: None,
            };
            ms(median_of(samples.min(21), || {
                black_box(game.render_public(black_box(&ctx)));
            }))
        })
        .collect();
    println!("| render | {} |", cells.join(" | "));
}
