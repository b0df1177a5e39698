//! Bot strength and speed: seeded 2-player matches for every game, printed as win rates
//! (normal vs random, hard vs normal) and decision times (p50/p99 per level).
//!
//! `cargo bench --bench ai` (`AI_BENCH_GAMES=N` matches per pairing, default 40;
//! `AI_BENCH_ONLY=<game id>` plays one game only, `AI_BENCH_PAIRING=normal|hard` one pairing).
//! Games whose bot is not built yet play at random and are reported as such.

use std::time::{Duration, Instant};

use croupier::ai::{random_index, BotPlayer, Level, Method};
use croupier::engine::{GameKind, GameOptions};

#[derive(Clone, Copy, Debug, PartialEq)]
enum Player {
    Random,
    Bot(Level),
}

impl Player {
    fn name(self) -> &'static str {
        match self {
            Player::Random => "random",
            Player::Bot(l) => l.id(),
        }
    }
}

#[derive(Default)]
struct Tally {
    /// Wins of the first player of the pairing; a draw or shared first place counts half.
    score: f64,
    games: u32,
    times: Vec<Duration>,
    random_fallbacks: u32,
    decisions: u32,
}

/// Plays one game: `a` sits in seat `a_seat`, `b` in the other.
fn play(kind: GameKind, seed: u64, a: Player, b: Player, a_seat: usize, tally: &mut Tally) {
    let mut options = GameOptions::new();
    if kind == GameKind::Cortexcape {
        options.insert("short".into(), "true".into());
    }
    // e.g. AI_BENCH_VORTEX="mode=catmouse seating=host" (then seat 0 is the mouse).
    if kind == GameKind::Vortex {
        for kv in std::env::var("AI_BENCH_VORTEX")
            .unwrap_or_default()
            .split_whitespace()
        {
            if let Some((k, v)) = kv.split_once('=') {
                options.insert(k.into(), v.into());
            }
        }
    }
    let Ok(mut game) = kind.setup(&options, 2, seed) else {
        return;
    };
    let mut step = 0u64;
    while let Some(prompt) = game.prompt() {
        step += 1;
        let who = if prompt.seat.index() == a_seat { a } else { b };
        let decision_seed = seed.wrapping_mul(1_000_003).wrapping_add(step);
        let notation = match who {
            Player::Random => {
                let i = random_index(prompt.options.len(), decision_seed).unwrap_or(0);
                prompt.options[i].clone()
            }
            Player::Bot(level) => {
                let t = Instant::now();
                let Some(m) = game.bot_option(level, decision_seed) else {
                    return;
                };
                if who == a {
                    tally.times.push(t.elapsed());
                    tally.decisions += 1;
                    if m.method == Method::Random {
                        tally.random_fallbacks += 1;
                    }
                }
                m.notation
            }
        };
        if game.apply_notation(prompt.seat, &notation).is_err() || step > 100_000 {
            return;
        }
    }
    if let Some(o) = game.outcome() {
        tally.games += 1;
        let firsts = o.ranks.iter().filter(|&&r| r == 1).count();
        if o.ranks.get(a_seat) == Some(&1) {
            // Precision is irrelevant for counts this small.
            #[allow(clippy::cast_precision_loss)]
            let share = 1.0 / firsts as f64;
            tally.score += share;
        }
    }
}

fn percentile(times: &mut [Duration], p: f64) -> Duration {
    if times.is_empty() {
        return Duration::ZERO;
    }
    times.sort();
    #[allow(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        clippy::cast_precision_loss
    )]
    let i = ((times.len() - 1) as f64 * p).round() as usize;
    times[i]
}

fn main() {
    let games: u64 = std::env::var("AI_BENCH_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(40);
    println!("bot matches, 2 players, {games} games per pairing (seats alternate)");
    println!(
        "{:<18} {:<16} {:>9} {:>10} {:>10} {:>10}",
        "game", "pairing", "win rate", "p50", "p99", "note"
    );
    // AI_BENCH_ONLY=vortex plays one game; AI_BENCH_SEAT=0 or 1 keeps the first player there.
    let only = std::env::var("AI_BENCH_ONLY").ok();
    let pairing = std::env::var("AI_BENCH_PAIRING").ok();
    let fixed_seat: Option<usize> = std::env::var("AI_BENCH_SEAT")
        .ok()
        .and_then(|v| v.parse().ok());
    for &kind in GameKind::ALL {
        if kind.seat_range().0 > 2 || kind.seat_range().1 < 2 {
            continue;
        }
        if only.as_deref().is_some_and(|id| id != kind.id()) {
            continue;
        }
        for (a, b) in [
            (Player::Bot(Level::Normal), Player::Random),
            (Player::Bot(Level::Hard), Player::Bot(Level::Normal)),
        ] {
            // AI_BENCH_PAIRING=hard (or normal) plays only the pairing led by that level.
            if pairing.as_deref().is_some_and(|p| p != a.name()) {
                continue;
            }
            let mut tally = Tally::default();
            for g in 0..games {
                let a_seat = fixed_seat.unwrap_or(usize::from(g % 2 == 1));
                play(kind, 1000 + g, a, b, a_seat, &mut tally);
            }
            let note = if tally.random_fallbacks == tally.decisions && tally.decisions > 0 {
                "no bot yet"
            } else {
                ""
            };
            #[allow(clippy::cast_precision_loss)]
            let rate = 100.0 * tally.score / f64::from(tally.games.max(1));
            let p50 = percentile(&mut tally.times, 0.5);
            let p99 = percentile(&mut tally.times, 0.99);
            println!(
                "{:<18} {:<16} {:>8.1}% {:>10.2?} {:>10.2?} {:>10}",
                kind.display_name(),
                format!("{} vs {}", a.name(), b.name()),
                rate,
                p50,
                p99,
                note
            );
        }
    }
    if only.as_deref().is_none_or(|id| id == "vortex") && pairing.is_none() {
        solitaire(games);
    }
}

/// Vortex Solitaire (one seat): how often a bot solves the default puzzle within the rotation
/// limit, and in how many rotations (fewer is better), against random rotations.
fn solitaire(games: u64) {
    let mut options = GameOptions::new();
    options.insert("mode".into(), "solitaire".into());
    for who in [Player::Random, Player::Bot(Level::Normal)] {
        let (mut solved, mut rotations, mut times) = (0u32, 0i64, Vec::new());
        for g in 0..games.min(10) {
            let Ok(mut game) = GameKind::Vortex.setup(&options, 1, 2000 + g) else {
                return;
            };
            let mut step = 0u64;
            while let Some(prompt) = game.prompt() {
                // Solitaire has no rotation limit since issue 25: a player who has not solved
                // it after the old limit's 1,000 rotations gives up (counts as unsolved).
                if step == 1_000 {
                    break;
                }
                step += 1;
                let seed = g.wrapping_mul(1_000_003).wrapping_add(step);
                let notation = match who {
                    Player::Random => {
                        let i = random_index(prompt.options.len(), seed).unwrap_or(0);
                        prompt.options[i].clone()
                    }
                    Player::Bot(level) => {
                        let t = Instant::now();
                        let Some(m) = game.bot_option(level, seed) else {
                            break;
                        };
                        times.push(t.elapsed());
                        m.notation
                    }
                };
                if game.apply_notation(prompt.seat, &notation).is_err() {
                    break;
                }
            }
            if let Some(o) = game.outcome().filter(|o| !o.winners.is_empty()) {
                solved += 1;
                rotations += o.scores[0];
            }
        }
        // Small counts: precision is irrelevant.
        #[allow(clippy::cast_precision_loss)]
        let mean = rotations as f64 / f64::from(solved.max(1));
        println!(
            "{:<18} {:<16} solved {:>2}/{:<2} mean rotations {:>6.1} p99 {:>10.2?}",
            "Vortex solitaire",
            who.name(),
            solved,
            games.min(10),
            mean,
            percentile(&mut times, 0.99)
        );
    }
}
