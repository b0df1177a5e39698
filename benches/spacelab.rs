//! Space Lab engine and rendering speed (issue 7). `cargo bench --bench spacelab` prints the
//! figures; BENCHMARKS.md records them. Positions are reached by seeded random play (4 players,
//! default options, objectives dealt), so every run measures the same states.

use croupier::engine::GameRng;
use croupier::engine::{Game, GameKind, GameOptions, Present, RenderCtx, Seat};
use croupier::games::spacelab::SpaceLab;
use croupier::service::encode_png;
use divan::Bencher;

fn main() {
    divan::main();
}

fn options() -> GameOptions {
    let mut o = GameOptions::new();
    o.insert("objective_setup".into(), "dealt".into());
    o
}

/// A position after `depth` random options.
fn position(depth: usize) -> SpaceLab {
    let mut game = SpaceLab::setup(&options(), 4, 42).expect("setup");
    let mut rng = GameRng::seed_from_u64(7);
    for _ in 0..depth {
        let Some(p) = Game::prompt(&game) else { break };
        let pick = p.options[rng.gen_range(0..p.options.len())];
        game.apply(p.seat, &pick).expect("listed option applies");
    }
    game
}

const DEPTHS: [usize; 3] = [10, 60, 120];

#[divan::bench(args = DEPTHS)]
fn apply_one_option(b: Bencher, depth: usize) {
    let game = position(depth);
    let p = Game::prompt(&game).expect("prompt");
    let pick = p.options[0];
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
        let mut game = GameKind::SpaceLab
            .setup(&options(), 4, seed)
            .expect("setup");
        let mut rng = GameRng::seed_from_u64(seed);
        while let Some(p) = game.prompt() {
            let pick = p.options[rng.gen_range(0..p.options.len())].clone();
            game.apply_notation(p.seat, &pick).expect("applies");
        }
        game
    });
}

fn ctx() -> RenderCtx {
    RenderCtx {
        lang: croupier::i18n::Lang::En,
        names: vec!["Ann".into(), "Bob".into(), "Cleo".into(), "Dev".into()],
        stopped: false,
        number: None,
    }
}

#[divan::bench(sample_count = 20)]
fn render_and_encode_board(b: Bencher) {
    let game = position(120);
    let view = game.public_view();
    let png = encode_png(&<SpaceLab as Present>::render_public(&view, &ctx()));
    println!("board PNG size: {} bytes", png.len());
    b.bench_local(|| encode_png(&<SpaceLab as Present>::render_public(&view, &ctx())).len());
}

#[divan::bench(sample_count = 20)]
fn render_and_encode_private(b: Bencher) {
    let game = position(120);
    let seat = Game::prompt(&game).map_or(Seat(0), |p| p.seat);
    let view = game.private_view(seat).expect("private view");
    let png = encode_png(&<SpaceLab as Present>::render_private(&view, &ctx()));
    println!("hand PNG size: {} bytes", png.len());
    b.bench_local(|| encode_png(&<SpaceLab as Present>::render_private(&view, &ctx())).len());
}
