//! Click to board: the real bot in-process against the fake Discord on loopback. Each sample is
//! one button click pushed over the gateway until the bot's answer is in the fake (the board
//! edited in place or the next board posted). Prints p50/p99 on SQLite and on PostgreSQL
//! (TEST_DATABASE_URL, else a fresh database on postgres://postgres@127.0.0.1:5432; skipped with
//! a note when unreachable). Run with `cargo bench --bench discord`.

#[path = "../tests/support/fake_discord/mod.rs"]
mod fake_discord;

use std::time::{Duration, Instant};

use croupier::bot::{run_with_service, BotConfig};
use croupier::config::Token;
use croupier::service::Service;
use croupier::store::Store;
use fake_discord::*;
use serde_json::Value;

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
        .execute(format!("CREATE DATABASE {name}").as_str())
        .await
        .map_err(|e| e.to_string())?;
    let store = Store::connect(&format!("{LOCAL_PG}/{name}"))
        .await
        .map_err(|e| e.to_string())?;
    let cleanup: Cleanup = Box::pin(async move {
        let _ = admin
            .execute(format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)").as_str())
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
    let (tx, rx) = tokio::sync::oneshot::channel::<()>();
    let config = BotConfig {
        token: Token::new(TOKEN),
        database_url: String::new(),
        dev_guild: Some(GUILD_ID),
        api_base: Some(fake.api_base()),
        shards: None,
        tick: None,
    };
    let bot = tokio::spawn(run_with_service(config, Service::new(store), async {
        rx.await.ok();
    }));
    fake.wait_until("the bot's commands", |st| {
        (!st.commands.is_empty()).then_some(())
    })
    .await;
    let mut samples = Vec::with_capacity(CLICKS);
    while samples.len() < CLICKS {
        let (thread, mut board) = start_game(&fake).await;
        while let Some(next) = click_first(&fake, thread, &board, &mut samples).await {
            board = next;
            if samples.len() >= CLICKS {
                break;
            }
        }
    }
    let v = fake.violations();
    assert!(v.is_empty(), "the fake saw violations: {v:#?}");
    let _ = tx.send(());
    let _ = bot.await;
    samples
}

fn custom_ids(components: &[Value]) -> Vec<String> {
    components
        .iter()
        .flat_map(|row| row["components"].as_array().cloned().unwrap_or_default())
        .filter_map(|c| c["custom_id"].as_str().map(str::to_string))
        .collect()
}

fn is_board(m: &Message) -> bool {
    m.attachments.iter().any(|a| a.filename == "board.png")
}

fn mentioned(m: &Message) -> Option<u64> {
    let at = m.content.rfind("<@")?;
    let rest = &m.content[at + 2..];
    rest[..rest.find('>')?].parse().ok()
}

/// `/play`, Bob joins, Alice starts; the thread and its first board.
async fn start_game(fake: &FakeDiscord) -> (u64, Message) {
    let cmd = fake
        .push(Push::command(
            "play",
            vec![
                opt::string("game", "cortexcape"),
                opt::string("options", "short=true"),
            ],
        ))
        .await;
    fake.wait_for_callback(cmd.id).await;
    let lobby = fake
        .wait_until("the thread", |st| {
            let m = st.message(st.interactions.get(&cmd.id)?.original?)?;
            st.channels
                .values()
                .any(|c| c.from_message == Some(m.id))
                .then(|| m.clone())
        })
        .await;
    let thread = fake
        .threads()
        .into_iter()
        .find(|t| t.from_message == Some(lobby.id))
        .map(|t| t.id)
        .expect("thread");
    let ids = custom_ids(&lobby.components);
    for (user, action) in [(BOB, ":join"), (ALICE, ":start")] {
        let id = ids
            .iter()
            .find(|i| i.ends_with(action))
            .expect("lobby button");
        let p = fake.push(Push::button(lobby.id, id).by(user)).await;
        fake.wait_for_callback(p.id).await;
    }
    let board = fake
        .wait_until("the first board", |st| {
            st.messages
                .iter()
                .find(|m| m.channel_id == thread && is_board(m))
                .cloned()
        })
        .await;
    (thread, board)
}

/// One timed click on the first option; the next board, or None at the end of the game.
async fn click_first(
    fake: &FakeDiscord,
    thread: u64,
    board: &Message,
    samples: &mut Vec<Duration>,
) -> Option<Message> {
    let user = mentioned(board)?;
    let old = custom_ids(&board.components);
    let id = old
        .iter()
        .find(|i| i.starts_with("g:") || i.starts_with("s:"))?;
    let push = if id.starts_with("s:") {
        let value = board
            .components
            .iter()
            .flat_map(|r| r["components"].as_array().cloned().unwrap_or_default())
            .find(|c| c["custom_id"] == id.as_str())
            .and_then(|c| c["options"][0]["value"].as_str().map(str::to_string))?;
        Push::select(board.id, id, &[value.as_str()])
    } else {
        Push::button(board.id, id)
    };
    let t = Instant::now();
    fake.push(push.by(user).in_channel(thread)).await;
    let next = fake
        .wait_until("the board after a click", |st| {
            let m = st.message(board.id)?;
            let now = custom_ids(&m.components);
            if !now.is_empty() && now != old {
                return Some(m.clone());
            }
            if now.is_empty() {
                return st
                    .messages
                    .iter()
                    .rev()
                    .find(|n| n.channel_id == thread && n.id > board.id && is_board(n))
                    .cloned();
            }
            None
        })
        .await;
    samples.push(t.elapsed());
    Some(next)
}
