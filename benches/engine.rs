//! Engine and rendering speed. `cargo bench` prints the figures; BENCHMARKS.md records them.
//!
//! Positions are reached by seeded random play, so every run measures the same states.

use croupier::engine::GameRng;
use croupier::engine::{AnyGame, Game, GameKind, GameOptions, Present, RenderCtx};
use croupier::games::cortexcape::Cortexcape;
use croupier::service::encode_png;
use divan::Bencher;

fn main() {
    divan::main();
}

/// A Cortexcape position after `depth` random options (standard game, 3 players).
fn position(depth: usize, lab: &str) -> Cortexcape {
    let mut options = GameOptions::new();
    options.insert("lab".into(), lab.into());
    let mut game = Cortexcape::setup(&options, 3, 42).expect("setup");
    let mut rng = GameRng::seed_from_u64(7);
    for _ in 0..depth {
        let Some(p) = Game::prompt(&game) else { break };
        let pick = p.options[rng.gen_range(0..p.options.len())];
        game.apply(p.seat, &pick).expect("listed option applies");
    }
    game
}

const DEPTHS: [usize; 4] = [5, 40, 90, 200];

/// One atomic option through the engine (`Game::apply`), on a fresh copy each time.
#[divan::bench(args = DEPTHS)]
fn apply_one_option(b: Bencher, depth: usize) {
    let game = position(depth, "black");
    let p = Game::prompt(&game).expect("prompt");
    let pick = p.options[0];
    b.with_inputs(|| game.clone())
        .bench_local_refs(|g| g.apply(p.seat, &pick).expect("applies"));
}

/// One typed option through the type-erased face (parse, turn check, copy, apply, commit).
#[divan::bench(args = DEPTHS)]
fn play_line_one_option(b: Bencher, depth: usize) {
    let game: Box<dyn AnyGame> = Box::new(position(depth, "black"));
    let p = game.prompt().expect("prompt");
    let pick = p.options[0].clone();
    b.with_inputs(|| game.clone())
        .bench_local_refs(|g| g.play_line(p.seat, &pick).expect("applies"));
}

/// Listing the legal options of the current prompt.
#[divan::bench(args = DEPTHS)]
fn list_options(b: Bencher, depth: usize) {
    let game = position(depth, "black");
    b.bench_local(|| Game::prompt(divan::black_box(&game)));
}

/// A whole random game, 3 players, standard, Black lab.
#[divan::bench(sample_count = 20)]
fn full_random_game(b: Bencher) {
    let mut seed = 0u64;
    b.bench_local(|| {
        seed += 1;
        let mut game = GameKind::Cortexcape
            .setup(&GameOptions::new(), 3, seed)
            .expect("setup");
        let mut rng = GameRng::seed_from_u64(seed);
        while let Some(p) = game.prompt() {
            let pick = p.options[rng.gen_range(0..p.options.len())].clone();
            game.apply_notation(p.seat, &pick).expect("applies");
        }
        game
    });
}

/// Rendering the board and encoding it as PNG (what every turn post costs).
#[divan::bench(sample_count = 20)]
fn render_and_encode_board(b: Bencher) {
    let game = position(90, "black");
    let ctx = RenderCtx {
        lang: croupier::i18n::Lang::En,
        names: vec!["Ann".into(), "Bob".into(), "Cleo".into()],
        stopped: false,
        number: None,
    };
    let view = game.public_view();
    let png = encode_png(&<Cortexcape as Present>::render_public(&view, &ctx));
    println!("board PNG size: {} bytes", png.len());
    b.bench_local(|| encode_png(&<Cortexcape as Present>::render_public(&view, &ctx)).len());
}

/// Rendering alone (no encoding).
#[divan::bench(sample_count = 20)]
fn render_board_only(b: Bencher) {
    let game = position(90, "black");
    let ctx = RenderCtx::default();
    let view = game.public_view();
    b.bench_local(|| <Cortexcape as Present>::render_public(&view, &ctx));
}

/// PNG encoding alone, with the settings the service uses.
#[divan::bench(sample_count = 20)]
fn encode_board_only(b: Bencher) {
    let game = position(90, "black");
    let img = <Cortexcape as Present>::render_public(&game.public_view(), &RenderCtx::default());
    b.bench_local(|| encode_png(&img).len());
}

/// The same measures for every other game, on positions reached by seeded random options:
/// apply, list options, a whole random game, render + encode of the board and of a hand.
macro_rules! game_benches {
    ($module:ident, $game:ty, $seats:expr, $depths:expr) => {
        mod $module {
            use super::*;

            fn position(depth: usize) -> $game {
                let mut game = <$game>::setup(&GameOptions::new(), $seats, 42).expect("setup");
                let mut rng = GameRng::seed_from_u64(7);
                for _ in 0..depth {
                    let Some(p) = Game::prompt(&game) else { break };
                    let pick = p.options[rng.gen_range(0..p.options.len())].clone();
                    game.apply(p.seat, &pick).expect("listed option applies");
                }
                game
            }

            const DEPTHS: [usize; 3] = $depths;

            #[divan::bench(args = DEPTHS)]
            fn apply_one_option(b: Bencher, depth: usize) {
                let game = position(depth);
                let p = Game::prompt(&game).expect("prompt");
                let pick = p.options[0].clone();
                b.with_inputs(|| game.clone())
                    .bench_local_refs(|g| g.apply(p.seat, &pick).expect("applies"));
            }

            #[divan::bench(args = DEPTHS)]
            fn list_options(b: Bencher, depth: usize) {
                let game = position(depth);
                b.bench_local(|| Game::prompt(divan::black_box(&game)));
            }

            #[divan::bench(sample_count = 20)]
            fn full_random_game(b: Bencher) {
                let mut seed = 0u64;
                b.bench_local(|| {
                    seed += 1;
                    let mut game =
                        <$game>::setup(&GameOptions::new(), $seats, seed).expect("setup");
                    let mut rng = GameRng::seed_from_u64(seed);
                    while let Some(p) = Game::prompt(&game) {
                        let pick = p.options[rng.gen_range(0..p.options.len())].clone();
                        game.apply(p.seat, &pick).expect("applies");
                    }
                    game
                });
            }

            #[divan::bench(sample_count = 20)]
            fn render_and_encode_board(b: Bencher) {
                let game = position(DEPTHS[2]);
                let ctx = RenderCtx {
                    lang: croupier::i18n::Lang::En,
                    names: ["Ann", "Bob", "Cleo", "Dan", "Eve", "Fay"][..$seats]
                        .iter()
                        .map(|s| s.to_string())
                        .collect(),
                    stopped: false,
                    number: None,
                };
                let view = game.public_view();
                let png = encode_png(&<$game as Present>::render_public(&view, &ctx));
                println!(
                    "{} board PNG size: {} bytes",
                    stringify!($module),
                    png.len()
                );
                b.bench_local(|| encode_png(&<$game as Present>::render_public(&view, &ctx)).len());
            }

            #[divan::bench(sample_count = 20)]
            fn render_and_encode_hand(b: Bencher) {
                let game = position(DEPTHS[2]);
                let ctx = RenderCtx::default();
                let seat = Game::prompt(&game).map_or(croupier::engine::Seat(0), |p| p.seat);
                // Vortex has no hidden hand: nothing to measure there.
                let Some(view) = game.private_view(seat) else {
                    return;
                };
                b.bench_local(|| {
                    encode_png(&<$game as Present>::render_private(&view, &ctx)).len()
                });
            }
        }
    };
}

game_benches!(gates, croupier::games::gates::Gates, 4, [5, 150, 400]);
game_benches!(portal, croupier::games::portal::Portal, 4, [5, 100, 250]);
game_benches!(vortex, croupier::games::vortex::Vortex, 4, [5, 60, 150]);
