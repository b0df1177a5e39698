//! The animated replay attached to a game's result (issue 24): for a whole seeded game of each
//! kind at its largest table, the time to build the GIF as the result does
//! (`service::replay_gif`: replaying the log and rendering the sampled boards on the calling
//! thread while a second one scales and counts them, then the encode) and its size; then the
//! same work in its parts on one thread, with the CPU time they took in all, which a loaded
//! machine does not inflate as it does the wall clock. `cargo bench --bench replay` prints one
//! markdown row per game (medians over `REPLAY_BENCH_SAMPLES`, default 5); BENCHMARKS.md
//! records them. For comparison on the same run and the same boards,
//! the scaling and encode before issue 38 item 5 (image's triangle filter, then image's GIF
//! encoder with a NeuQuant palette per whole frame). "runs held" is what the animation keeps
//! of its frames until the encode (the boards themselves are dropped as they come).
//! `REPLAY_BENCH_DUMP=dir` writes each GIF to `dir/<game>.gif` and some of its frames, as the
//! decoder composites them, to `dir/<game>-<frame>.png`.

use std::time::{Duration, Instant};

use croupier::engine::GameRng;
use croupier::engine::{AnyGame, GameKind, GameOptions, RenderCtx, Seat};
use croupier::i18n::Lang;
use croupier::render::anim::{sample_steps, Animation, MAX_BYTES, MAX_FRAMES, MAX_WIDTH};
use croupier::service::replay_gif;
use image::codecs::gif::{GifEncoder, Repeat};
use image::imageops::FilterType;
use image::{AnimationDecoder, Delay, Frame, RgbaImage};

/// Each game at its largest table: label, game, seats, options as `key=value`.
const CASES: &[(&str, GameKind, usize, &str)] = &[
    (
        "Vortex Crossing, 6 seats",
        GameKind::Vortex,
        6,
        "mode=crossing",
    ),
    ("Portal, 4 seats", GameKind::Portal, 4, ""),
    ("Gates of Delirium, 4 seats", GameKind::Gates, 4, ""),
    ("Space Lab, 4 seats", GameKind::SpaceLab, 4, ""),
    ("Cortexcape, 4 seats", GameKind::Cortexcape, 4, ""),
];

const NAMES: [&str; 6] = ["Ann", "Bob", "Cleo", "Dan", "Eve", "Fay"];

fn start(kind: GameKind, seats: usize, options: &str) -> Box<dyn AnyGame> {
    let options: GameOptions = options
        .split_whitespace()
        .filter_map(|kv| kv.split_once('='))
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    kind.setup(&options, seats, 42).expect("setup")
}

/// A whole seeded random game (at most `limit` options): its log, and where each turn ends.
fn play(mut game: Box<dyn AnyGame>, limit: usize) -> (Vec<(Seat, String)>, Vec<usize>) {
    let mut rng = GameRng::seed_from_u64(7);
    let mut log: Vec<(Seat, String)> = Vec::new();
    let mut ends: Vec<usize> = Vec::new();
    for _ in 0..limit {
        let Some(p) = game.prompt() else { break };
        let pick = p.options[rng.gen_range(0..p.options.len())].clone();
        game.apply_notation(p.seat, &pick)
            .expect("listed option applies");
        if log.last().is_some_and(|(s, _)| *s == p.seat) {
            if let Some(e) = ends.last_mut() {
                *e = log.len() + 1;
            }
        } else {
            ends.push(log.len() + 1);
        }
        log.push((p.seat, pick));
    }
    (log, ends)
}

fn main() {
    let samples: usize = std::env::var("REPLAY_BENCH_SAMPLES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(5);
    let dump = std::env::var("REPLAY_BENCH_DUMP").ok();
    println!(
        "Animated replay GIF: whole seeded game, {MAX_FRAMES} frames at most, {MAX_WIDTH} px wide, {} KB at most, \
         median of {samples}",
        MAX_BYTES / 1024
    );
    println!(
        "| game | options | turns | frames | total (`replay_gif`) | CPU time (one thread) | bytes \
         | replay + render | scale + count | encode (encodes) | runs held | scale before \
         | encode before | bytes before |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
    for &(label, kind, seats, options) in CASES {
        let (log, ends) = play(start(kind, seats, options), 5_000);
        let ctx = RenderCtx {
            lang: Lang::En,
            names: NAMES[..seats].iter().map(|s| s.to_string()).collect(),
            stopped: false,
            number: None,
        };
        let mut t = Times::default();
        let (mut gif, mut old) = (Vec::new(), Vec::new());
        let (mut frames, mut sampled, mut held, mut every, mut encodes) = (0, 0, 0, 0, 0);
        for _ in 0..samples.max(1) {
            // The whole, as the result's replay is built.
            let clock = Instant::now();
            gif = replay_gif(start(kind, seats, options), &log, &ends, &ctx).expect("a GIF");
            t.total.push(clock.elapsed());
            // The same work in its parts, and the old scaling and encode of the same boards.
            let mut game = start(kind, seats, options);
            let mut anim = Animation::new();
            let (mut render, mut push, mut scale) =
                (Duration::ZERO, Duration::ZERO, Duration::ZERO);
            // The CPU time of the same work done on this one thread.
            let mut cpu = Duration::ZERO;
            let mut scaled: Vec<RgbaImage> = Vec::new();
            let mut played = 0;
            for step in sample_steps(ends.len(), MAX_FRAMES) {
                let (clock, on_cpu) = (Instant::now(), cpu_time());
                let upto = if step == 0 { 0 } else { ends[step - 1] };
                for (seat, n) in &log[played..upto] {
                    game.apply_notation(*seat, n).expect("replays");
                }
                played = upto;
                let board = game.render_public(&ctx);
                render += clock.elapsed();
                let clock = Instant::now();
                anim.push(&board);
                push += clock.elapsed();
                cpu += cpu_time().saturating_sub(on_cpu);
                let clock = Instant::now();
                scaled.push(scale_before(&board));
                scale += clock.elapsed();
            }
            sampled = anim.len();
            held = anim.held_bytes();
            // The size without the budget, outside the times.
            every = anim.clone().encode().expect("a GIF").len();
            let (clock, on_cpu) = (Instant::now(), cpu_time());
            let again = anim.encode_within(MAX_BYTES).expect("a GIF");
            frames = again.kept.len();
            encodes = again.encodes;
            let again = again.bytes;
            t.encode.push(clock.elapsed());
            t.cpu.push(cpu + cpu_time().saturating_sub(on_cpu));
            assert_eq!(again, gif, "the parts make the same GIF");
            t.render.push(render);
            t.push.push(push);
            t.scale_before.push(scale);
            let clock = Instant::now();
            old = encode_before(&scaled);
            t.encode_before.push(clock.elapsed());
        }
        println!(
            "| {} | {} | {} | {} of {} | {:.0} ms | {:.0} ms | {} KB ({} KB) | {:.0} ms | {:.0} ms \
             | {:.0} ms ({}) | {} KB | {:.0} ms | {:.0} ms | {} KB |",
            label,
            log.len(),
            ends.len(),
            frames,
            sampled,
            ms(&mut t.total),
            ms(&mut t.cpu),
            gif.len() / 1024,
            every / 1024,
            ms(&mut t.render),
            ms(&mut t.push),
            ms(&mut t.encode),
            encodes,
            held / 1024,
            ms(&mut t.scale_before),
            ms(&mut t.encode_before),
            old.len() / 1024,
        );
        if let Some(dir) = &dump {
            let _ = std::fs::create_dir_all(dir);
            let _ = std::fs::write(format!("{dir}/{}.gif", kind.id()), &gif);
            let decoded = image::codecs::gif::GifDecoder::new(std::io::Cursor::new(&gif))
                .expect("decodes")
                .into_frames()
                .collect_frames()
                .expect("frames");
            assert_eq!(decoded.len(), frames, "every frame decodes");
            let n = decoded.len();
            for i in [0, 1, n / 2, n.saturating_sub(1)] {
                if let Some(f) = decoded.get(i) {
                    let _ = f.buffer().save(format!("{dir}/{}-{i:02}.png", kind.id()));
                }
            }
        }
    }
}

/// The time this thread has run on a CPU (Linux: `/proc/thread-self/schedstat`, nanoseconds),
/// which a loaded machine does not inflate as it does the wall clock; zero elsewhere.
fn cpu_time() -> Duration {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse().ok())
        .map_or(Duration::ZERO, Duration::from_nanos)
}

#[derive(Default)]
struct Times {
    total: Vec<Duration>,
    cpu: Vec<Duration>,
    render: Vec<Duration>,
    push: Vec<Duration>,
    encode: Vec<Duration>,
    scale_before: Vec<Duration>,
    encode_before: Vec<Duration>,
}

/// The scaling before issue 38 item 5, for comparison: image's triangle filter to
/// [`MAX_WIDTH`] wide.
fn scale_before(board: &RgbaImage) -> RgbaImage {
    let (w, h) = board.dimensions();
    if w <= MAX_WIDTH {
        return board.clone();
    }
    let nh =
        u32::try_from((u64::from(h) * u64::from(MAX_WIDTH) / u64::from(w)).max(1)).unwrap_or(1);
    image::imageops::resize(board, MAX_WIDTH, nh, FilterType::Triangle)
}

/// The median of some durations, in milliseconds.
fn ms(times: &mut [Duration]) -> f64 {
    times.sort();
    times[times.len() / 2].as_secs_f64() * 1e3
}

/// The encode before issue 38 item 5, for comparison: image's GIF encoder, a NeuQuant palette
/// (sampling step 20) per whole frame.
fn encode_before(frames: &[RgbaImage]) -> Vec<u8> {
    let mut out = Vec::new();
    {
        let mut encoder = GifEncoder::new_with_speed(&mut out, 20);
        encoder.set_repeat(Repeat::Infinite).expect("repeat");
        for (i, f) in frames.iter().enumerate() {
            let ms = if i + 1 == frames.len() { 3_000 } else { 900 };
            encoder
                .encode_frame(Frame::from_parts(
                    f.clone(),
                    0,
                    0,
                    Delay::from_numer_denom_ms(ms, 1),
                ))
                .expect("frame");
        }
    }
    out
}
