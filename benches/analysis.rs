//! "Where did I lose?" (issue 41, item 5): the time one player's analysis of a finished game
//! takes, per game, at the default budget (`AnalysisBudget::default()`), split into its three
//! steps: the replay to the seat's decisions, the searches, and the answer drawn (boards
//! rendered, scaled and encoded). Figures in BENCHMARKS.md ("Post-game analysis").
//!
//! `cargo bench --bench analysis` (`ANALYSIS_BENCH_GAMES=N` games per kind, default 3).
//! Each game is a seeded 2-seat game (the smallest table of 2 or more) played to its end by
//! the normal bot for seat 0 and the easy one for the other seats, so that it has mistakes
//! to find; seat 0 is analysed.

use std::time::{Duration, Instant};

use croupier::ai::analysis::AnalysisBudget;
use croupier::ai::{BotPlayer, Level};
use croupier::engine::{GameId, GameKind, GameOptions, RenderCtx, Seat};
use croupier::i18n::Lang;
use croupier::service::{analysis_positions, present_analysis, weigh_analysis};

fn options(kind: GameKind) -> GameOptions {
    let mut o = GameOptions::new();
    if kind == GameKind::Cortexcape {
        o.insert("short".into(), "true".into());
    }
    if kind == GameKind::Portal {
        o.insert("hands".into(), "hidden".into());
    }
    o
}

fn main() {
    let games: u64 = std::env::var("ANALYSIS_BENCH_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3);
    let budget = AnalysisBudget::default();
    println!(
        "budget: {} iterations per search, at most {} decisions",
        budget.search.iterations, budget.decisions
    );
    println!("game        | moves | choices | weighed | shown | replay | search | answer | total (mean, max)");
    for &kind in GameKind::ALL {
        let seats = kind.seat_range().0.max(2);
        let mut totals = Vec::new();
        for seed in 0..games {
            let start = kind
                .setup(&options(kind), seats, 100 + seed)
                .expect("setup");
            let mut game = start.clone_box();
            let mut log: Vec<(Seat, String)> = Vec::new();
            while let Some(p) = game.prompt() {
                let level = if p.seat == Seat(0) {
                    Level::Normal
                } else {
                    Level::Easy
                };
                let m = game
                    .bot_option(level, seed * 1_000 + log.len() as u64)
                    .expect("a bot option");
                game.apply_notation(m.seat, &m.notation).expect("applies");
                log.push((m.seat, m.notation));
            }
            let ctx = RenderCtx {
                lang: Lang::En,
                names: (0..seats).map(|i| format!("Player {}", i + 1)).collect(),
                stopped: false,
                number: Some(1),
            };
            let id = GameId(i64::try_from(seed).unwrap_or(0) + 1);
            let t0 = Instant::now();
            let (decisions, positions) =
                analysis_positions(start.as_ref(), &log, Seat(0), budget.decisions)
                    .expect("replays");
            let t1 = Instant::now();
            let weighed = weigh_analysis(id, Seat(0), &positions, decisions, &budget);
            let t2 = Instant::now();
            let post = present_analysis(&weighed, &positions, Seat(0), &ctx, id);
            let t3 = Instant::now();
            let total = t3 - t0;
            totals.push(total);
            let bytes: usize = post.boards.iter().map(|(png, _)| png.len()).sum();
            println!(
                "{:<11} | {:>5} | {:>7} | {:>7} | {:>5} | {:>6} | {:>6} | {:>6} | (seed {seed}: {} kB of boards)",
                kind.id(),
                log.len(),
                decisions,
                weighed.weighed,
                weighed.shown.len(),
                ms(t1 - t0),
                ms(t2 - t1),
                ms(t3 - t2),
                bytes / 1024,
            );
        }
        let mean =
            totals.iter().sum::<Duration>() / u32::try_from(totals.len().max(1)).unwrap_or(1);
        let max = totals.iter().max().copied().unwrap_or_default();
        println!(
            "{:<11} | total per analysis: mean {}, max {}",
            kind.id(),
            ms(mean),
            ms(max)
        );
    }
}

fn ms(d: Duration) -> String {
    format!("{} ms", d.as_millis())
}
