//! Load: many games at once and a steady stream of clicks through the fake Discord, with the
//! real bot in-process on SQLite (and PostgreSQL with TEST_DATABASE_URL). Prints click-to-board
//! p50/p99, errors, memory (RSS) and CPU time. The fake runs in the same process, so memory
//! and CPU include it (it keeps no request log and no file bytes here).
//!
//! `cargo bench --bench load` (release, CARGO_TARGET_DIR=/work/bench-target). Size by env:
//! LOAD_GAMES (1000), LOAD_RATE clicks per second (50), LOAD_SECS (180); a smoke run:
//! `LOAD_GAMES=20 LOAD_SECS=5 cargo bench --bench load`. `LOAD_SQLITE=0` runs PostgreSQL alone.

#[path = "../tests/support/fake_discord/mod.rs"]
mod fake_discord;

#[path = "../tests/support/bot_play.rs"]
mod bot_play;

#[allow(unused_macros)]
#[path = "../tests/support/store_db.rs"]
mod store_db;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use bot_play::*;
use croupier::service::Service;
use croupier::store::Store;
use fake_discord::*;

fn env_or(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn main() {
    // The bot's warnings and errors (a click it could not serve says why); RUST_LOG for more.
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn")),
        )
        .with_writer(std::io::stderr)
        .init();
    let games = env_or("LOAD_GAMES", 1000) as usize;
    let rate = env_or("LOAD_RATE", 50).max(1);
    let secs = env_or("LOAD_SECS", 180);
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("tokio runtime");
    rt.block_on(async {
        let dir = tempfile::tempdir().expect("temp dir");
        let url = format!("sqlite://{}/load.db", dir.path().display());
        // LOAD_SQLITE=0: PostgreSQL alone (a saturated SQLite run leaves work behind).
        if env_or("LOAD_SQLITE", 1) != 0 {
            run("sqlite", &url, games, rate, secs).await;
        }
        match std::env::var("TEST_DATABASE_URL") {
            Ok(url) if !url.is_empty() => run("postgres", &url, games, rate, secs).await,
            _ => println!("postgres: skipped (TEST_DATABASE_URL is not set)"),
        }
    });
}

/// One game's latest board, and whether a click on it is on its way.
struct Table {
    board: Message,
    busy: bool,
}

async fn run(backend: &str, url: &str, games: usize, rate: u64, secs: u64) {
    let store = Store::connect(url).await.expect("store");
    let fake = Arc::new(FakeDiscord::start().await);
    fake.lean();
    let rss_before = rss_kib();
    // Eight openers at once, all Alice, in one channel: no lobby limit applies here.
    let timers = croupier::service::Timers {
        lobbies_per_member: u32::MAX,
        lobbies_per_channel: u32::MAX,
        games_per_member: u32::MAX,
        games_per_channel: u32::MAX,
        threads_per_server: u32::MAX,
        ..Default::default()
    };
    let bot = Bot::start(&fake, Service::new(store).with_timers(timers)).await;

    // Open and start every game through interactions, a few at a time.
    let setup = Instant::now();
    let tables: Arc<Mutex<Vec<Table>>> = Arc::default();
    let next = Arc::new(AtomicUsize::new(0));
    let mut openers = Vec::new();
    for _ in 0..8 {
        let (fake, tables, next) = (Arc::clone(&fake), Arc::clone(&tables), Arc::clone(&next));
        openers.push(tokio::spawn(async move {
            while next.fetch_add(1, Ordering::Relaxed) < games {
                let (_, thread) = start_game(&fake).await;
                let board = latest_board_after(&fake, thread, 0).await;
                tables.lock().unwrap().push(Table { board, busy: false });
            }
        }));
    }
    for o in openers {
        if o.await.is_err() {
            // Say what the fake holds for every thread that has no board, then stop.
            for t in fake.threads() {
                let msgs = fake.messages(t.id);
                if msgs.iter().any(is_board) {
                    continue;
                }
                eprintln!(
                    "thread {} (from lobby {:?}) has no board:",
                    t.id, t.from_message
                );
                for m in msgs {
                    eprintln!(
                        "  {} by {} deleted={} files={:?} text={:?}",
                        m.id,
                        m.author_id,
                        m.deleted,
                        m.attachments
                            .iter()
                            .map(|a| &a.filename)
                            .collect::<Vec<_>>(),
                        m.content.chars().take(120).collect::<String>()
                    );
                }
                if let Some(lobby) = t.from_message.and_then(|id| fake.message(id)) {
                    eprintln!("  lobby: {:?}", lobby.content);
                    // What the clicks on the lobby were told (an error is a follow-up).
                    let answers = fake
                        .wait_until("the lobby's clicks", |st| {
                            Some(
                                st.interactions
                                    .values()
                                    .filter(|i| i.message_id == Some(lobby.id))
                                    .map(|i| {
                                        let told: Vec<String> = i
                                            .followups
                                            .iter()
                                            .filter_map(|f| st.message(*f))
                                            .map(|m| m.content.clone())
                                            .collect();
                                        (i.id, i.callback.as_ref().map(|c| c.kind), told)
                                    })
                                    .collect::<Vec<_>>(),
                            )
                        })
                        .await;
                    for (id, kind, told) in answers {
                        eprintln!("  click {id}: callback {kind:?}, follow-ups {told:?}");
                    }
                }
            }
            panic!("a game could not be started");
        }
    }
    let setup_time = setup.elapsed();

    // Clicks at a steady rate, each on a game with no click on its way.
    let (cpu_before, wall) = (cpu_secs(), Instant::now());
    let (counted_before, exempt_before) = fake.request_counts();
    let limited_before = fake.rate_limited();
    let latencies: Arc<Mutex<Vec<Duration>>> = Arc::default();
    let errors = Arc::new(AtomicUsize::new(0));
    let skipped = Arc::new(AtomicUsize::new(0));
    let mut ticker = tokio::time::interval(Duration::from_secs_f64(1.0 / rate as f64));
    ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Burst);
    let mut clicks = Vec::new();
    let mut pick = 0usize;
    let until = Instant::now() + Duration::from_secs(secs);
    while Instant::now() < until {
        ticker.tick().await;
        let chosen = {
            let mut t = tables.lock().unwrap();
            let n = t.len();
            (0..n)
                .map(|k| (pick + k) % n)
                .find(|&i| !t[i].busy && !t[i].board.components.is_empty())
                .map(|i| {
                    t[i].busy = true;
                    pick = i + 1;
                    (i, t[i].board.clone())
                })
        };
        let Some((i, board)) = chosen else {
            skipped.fetch_add(1, Ordering::Relaxed);
            continue;
        };
        let (fake, tables, latencies, errors) = (
            Arc::clone(&fake),
            Arc::clone(&tables),
            Arc::clone(&latencies),
            Arc::clone(&errors),
        );
        clicks.push(tokio::spawn(async move {
            let start = Instant::now();
            let p = click_first(&fake, &board).await;
            let next = board_after(&fake, &board).await;
            latencies.lock().unwrap().push(start.elapsed());
            if !fake.followups(p.id).is_empty() {
                errors.fetch_add(1, Ordering::Relaxed);
            }
            let mut t = tables.lock().unwrap();
            t[i] = Table {
                board: next,
                busy: false,
            };
        }));
    }
    let sent = clicks.len();
    for c in clicks {
        if c.await.is_err() {
            // A click that got no board within the fake's wait limit.
            errors.fetch_add(1, Ordering::Relaxed);
        }
    }
    let elapsed = wall.elapsed().as_secs_f64();
    let (counted, exempt) = fake.request_counts();
    let per_click = |n: u64| n as f64 / sent.max(1) as f64;
    let cpu = cpu_secs() - cpu_before;
    let violations = fake.violations().len();
    let mut lat = latencies.lock().unwrap().clone();
    lat.sort();
    let at = |q: f64| {
        let i = ((lat.len() as f64 - 1.0) * q).round() as usize;
        lat.get(i).copied().unwrap_or_default()
    };
    println!(
        "{backend}: {games} games started in {:.1} s; {sent} clicks in {elapsed:.0} s ({:.1}/s, \
         {} skipped: no idle game): click to board p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms; \
         errors {} (+{violations} fake Discord violations); RSS {} MiB (before the bot {} MiB); \
         CPU {:.1} s ({:.0}% of one core); REST calls per click: {:.2} counted toward the \
         global limit, {:.2} exempt (interaction answers); 429s from the fake's limits: {} \
         during the clicks, {} in all",
        setup_time.as_secs_f64(),
        sent as f64 / elapsed,
        skipped.load(Ordering::Relaxed),
        at(0.5).as_secs_f64() * 1e3,
        at(0.99).as_secs_f64() * 1e3,
        lat.last().copied().unwrap_or_default().as_secs_f64() * 1e3,
        errors.load(Ordering::Relaxed),
        rss_kib() / 1024,
        rss_before / 1024,
        cpu,
        100.0 * cpu / elapsed,
        per_click(counted - counted_before),
        per_click(exempt - exempt_before),
        fake.rate_limited() - limited_before,
        fake.rate_limited(),
    );
    let by = fake.rate_limited_by();
    if !by.is_empty() {
        println!("{backend}: 429s by limit: {by:?}");
    }
    bot.stop().await;
}

/// Resident memory of this process, from /proc/self/status (KiB).
fn rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
        })
        .unwrap_or(0)
}

/// User + system CPU time of this process, from /proc/self/stat (USER_HZ is 100 on Linux).
fn cpu_secs() -> f64 {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return 0.0;
    };
    // Fields after the command name (which may hold spaces) start at field 3.
    let after = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
    let fields: Vec<&str> = after.split_whitespace().collect();
    let ticks = |i: usize| {
        fields
            .get(i)
            .and_then(|f| f.parse::<u64>().ok())
            .unwrap_or(0)
    };
    // utime and stime are fields 14 and 15, i.e. 11 and 12 after the name.
    (ticks(11) + ticks(12)) as f64 / 100.0
}
