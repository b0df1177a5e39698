//! Click to board: the real bot in-process against the fake Discord on loopback. Each sample is
//! one button click pushed over the gateway until the bot's answer is in the fake (the board
//! edited in place or the next board posted). Prints p50/p99 on SQLite and on PostgreSQL
//! (TEST_DATABASE_URL, else a fresh database on postgres://postgres@127.0.0.1:5432; skipped with
//! a note when unreachable). Run with `cargo bench --bench discord`.

#[path = "../tests/support/fake_discord/mod.rs"]
mod fake_discord;

#[path = "../tests/support/bot_play.rs"]
mod bot_play;

#[allow(unused_macros)]
#[path = "../tests/support/store_db.rs"]
mod store_db;

use std::time::{Duration, Instant};

use bot_play::*;
use croupier::service::Service;
use croupier::store::Store;
use fake_discord::*;

const CLICKS: usize = 200;
const LOCAL_PG: &str = "postgres://postgres@127.0.0.1:5432";

fn main() {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("tokio runtime");
    rt.block_on(async {
        let dir = tempfile::tempdir().expect("temp dir");
        let url = format!("sqlite://{}/bench.db", dir.path().display());
        let store = Store::connect(&url).await.expect("sqlite");
        report("sqlite", &run(store).await);
        match postgres().await {
            Ok((store, cleanup)) => {
                report("postgres", &run(store).await);
                if let Some(c) = cleanup {
                    c.await;
                }
            }
            Err(why) => println!("postgres: skipped ({why})"),
        }
    });
}

type Cleanup = std::pin::Pin<Box<dyn std::future::Future<Output = ()>>>;

/// TEST_DATABASE_URL as is, or a database of our own on the local server (dropped afterwards).
async fn postgres() -> Result<(Store, Option<Cleanup>), String> {
    if let Ok(url) = std::env::var("TEST_DATABASE_URL") {
        if !url.is_empty() {
            return Ok((Store::connect(&url).await.map_err(|e| e.to_string())?, None));
        }
    }
    use sqlx::Executor;
    let admin = sqlx::PgPool::connect(&format!("{LOCAL_PG}/postgres"))
        .await
        .map_err(|e| format!("{LOCAL_PG} unreachable: {e}"))?;
    let name = format!("croupier_bench_{}", std::process::id());
    admin
        // Our own name (a process id), not input.
        .execute(sqlx::AssertSqlSafe(format!("CREATE DATABASE {name}")))
        .await
        .map_err(|e| e.to_string())?;
    let store = Store::connect(&format!("{LOCAL_PG}/{name}"))
        .await
        .map_err(|e| e.to_string())?;
    let cleanup: Cleanup = Box::pin(async move {
        let _ = admin
            .execute(sqlx::AssertSqlSafe(format!(
                "DROP DATABASE IF EXISTS {name} WITH (FORCE)"
            )))
            .await;
    });
    Ok((store, Some(cleanup)))
}

fn report(backend: &str, samples: &[Duration]) {
    let mut s = samples.to_vec();
    s.sort();
    let at = |q: f64| {
        let i = ((s.len() as f64 - 1.0) * q).round() as usize;
        s.get(i).copied().unwrap_or_default()
    };
    println!(
        "{backend}: click -> board over {} clicks: p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms",
        s.len(),
        at(0.5).as_secs_f64() * 1e3,
        at(0.99).as_secs_f64() * 1e3,
        at(1.0).as_secs_f64() * 1e3,
    );
}

/// Plays short 2-player games by clicking the first option of each board until CLICKS samples.
async fn run(store: Store) -> Vec<Duration> {
    let fake = FakeDiscord::start().await;
    let bot = Bot::start(&fake, Service::new(store)).await;
    let mut samples = Vec::with_capacity(CLICKS);
    while samples.len() < CLICKS {
        let (_, thread) = start_game(&fake).await;
        let mut board = latest_board_after(&fake, thread, 0).await;
        // A board with a decision on it, until the game ends.
        while samples.len() < CLICKS
            && custom_ids(&board.components)
                .iter()
                .any(|i| i.starts_with("g:") || i.starts_with("s:"))
        {
            let t = Instant::now();
            click_first(&fake, &board).await;
            board = board_after(&fake, &board).await;
            samples.push(t.elapsed());
        }
    }
    let v = fake.violations();
    assert!(v.is_empty(), "the fake saw violations: {v:#?}");
    bot.stop().await;
    samples
}
