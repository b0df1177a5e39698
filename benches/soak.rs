//! Soak: many stored games with clocks through a simulated week of the scheduler. Nobody
//! plays: every turn runs through its reminders to its deadline, and the game's policy acts
//! (policies rotate: skip, which falls back to a random move in Cortexcape, bot, and open,
//! which stops that game's clock). Time is a `ManualClock` moved in steps; at each step the
//! scheduler runs batches until nothing is due. Prints jobs per second, the process's CPU time
//! and peak memory. Figures go to BENCHMARKS.md.
//!
//! Settings (environment): `SOAK_GAMES` (10000), `SOAK_DAYS` (7), `SOAK_STEP_MINUTES` (10),
//! `SOAK_DATABASE_URL` (default: SQLite in a temporary folder; a `postgres://` URL gets a
//! scratch schema, dropped afterwards).
//!
//! Full size takes a while on a small machine (every timeout renders and encodes a board, as
//! the bot must post it); a quick look: `SOAK_GAMES=200 SOAK_DAYS=2 cargo test --bench soak`.

use std::sync::Arc;
use std::time::Instant;

use croupier::clock::{ManualClock, DAY, HOUR, MINUTE};
use croupier::engine::{GameKind, GameOptions};
use croupier::service::{Notice, Service};
use croupier::store::{GameStatus, NewGame, NewSeat, Store, TimeoutPolicy};

/// 2026-11-02 00:00 UTC, a Monday.
const T0: i64 = 1_793_577_600;

fn env(name: &str, default: i64) -> i64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(default)
}

/// Process CPU seconds (user + system) from /proc; 0 where there is no /proc.
fn cpu_secs() -> f64 {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return 0.0;
    };
    // Fields after the command name (which may hold spaces) start after the last ')'.
    let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |i: usize| {
        fields
            .get(i)
            .and_then(|f| f.parse::<f64>().ok())
            .unwrap_or(0.0)
    };
    // utime and stime are fields 14 and 15 of the line, 12 and 13 after the name and state.
    (ticks(11) + ticks(12)) / 100.0
}

/// (resident now, peak resident) in MiB from /proc.
fn memory_mib() -> (f64, f64) {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let kib = |key: &str| {
        status
            .lines()
            .find(|l| l.starts_with(key))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|v| v.parse::<f64>().ok())
            .unwrap_or(0.0)
    };
    (kib("VmRSS:") / 1024.0, kib("VmHWM:") / 1024.0)
}

fn main() {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    rt.block_on(run());
}

async fn run() {
    let games = env("SOAK_GAMES", 10_000);
    let days = env("SOAK_DAYS", 7);
    let step = env("SOAK_STEP_MINUTES", 10) * MINUTE;
    let dir = tempfile::tempdir().expect("temp dir");
    let (url, pg) = match std::env::var("SOAK_DATABASE_URL") {
        Ok(base) if base.starts_with("postgres") => {
            let schema = format!("croupier_soak_{}", std::process::id());
            raw(&base, &format!("CREATE SCHEMA {schema}")).await;
            let sep = if base.contains('?') { '&' } else { '?' };
            (
                format!("{base}{sep}options[search_path]={schema}"),
                Some((base, schema)),
            )
        }
        _ => (format!("sqlite://{}/soak.db", dir.path().display()), None),
    };
    let store = Store::connect(&url).await.expect("store");
    let clock = ManualClock::new(T0);
    let svc = Service::new(store.clone()).with_clock(Arc::new(clock.clone()));

    // Set-up: games stored straight away (as if started earlier), then planned by the
    // start-up re-planning every process runs.
    let started = Instant::now();
    let kind = GameKind::Cortexcape;
    let clocks = [12 * HOUR, DAY, 3 * DAY];
    let policies = [TimeoutPolicy::Skip, TimeoutPolicy::Bot, TimeoutPolicy::Open];
    for i in 0..games {
        let seed = u64::try_from(i).unwrap_or(0);
        let state = kind
            .setup(&GameOptions::new(), 2, seed)
            .expect("setup")
            .to_json();
        let n = usize::try_from(i).unwrap_or(0);
        store
            .create_game(&NewGame {
                kind: kind.id().into(),
                options_json: "{}".into(),
                seed: i,
                state,
                status: GameStatus::Active,
                guild: Some(1 + i % 50),
                channel: Some(1000 + i),
                thread: Some(100_000 + i),
                host: Some(2 * i + 1),
                seats: (0..2)
                    .map(|s| NewSeat {
                        user: Some(2 * i + 1 + s),
                        name: format!("p{}", 2 * i + 1 + s),
                        is_bot: false,
                    })
                    .collect(),
                clock_secs: Some(clocks[n % 3]),
                policy: policies[(n / 3) % 3],
                lang: Some("en".into()),
                now: T0,
            })
            .await
            .expect("game");
    }
    let stored = started.elapsed();
    let planning = Instant::now();
    loop {
        let n = svc.replan(T0).await.expect("replan");
        if n == 0 {
            break;
        }
    }
    let planned = planning.elapsed();
    let jobs_at_start = store.job_count().await.expect("count");

    let cpu0 = cpu_secs();
    let wall = Instant::now();
    let (mut claimed, mut boards, mut places, mut dms, mut steps) = (0usize, 0, 0, 0, 0);
    let mut slowest_step = std::time::Duration::ZERO;
    let mut t = T0;
    while t < T0 + days * DAY {
        t += step;
        clock.set(t);
        let step_started = Instant::now();
        loop {
            let (n, notices) = svc.run_due_jobs_counted("soak", 500).await.expect("jobs");
            claimed += n;
            for notice in &notices {
                match notice {
                    Notice::Board(_) => boards += 1,
                    Notice::Place { .. } | Notice::LobbyClosed { .. } => places += 1,
                    Notice::Dm { .. } | Notice::Private { .. } => dms += 1,
                    // A thread archived a grace after its game ended: no figure of the soak.
                    Notice::Archive { .. } => {}
                }
            }
            if n < 500 {
                break;
            }
        }
        slowest_step = slowest_step.max(step_started.elapsed());
        steps += 1;
    }
    let secs = wall.elapsed().as_secs_f64();
    let cpu = cpu_secs() - cpu0;
    let (rss, peak) = memory_mib();
    let backend = if pg.is_some() { "PostgreSQL" } else { "SQLite" };
    println!(
        "soak on {backend}: {games} games, {days} simulated days in {steps} steps of {} min",
        step / MINUTE
    );
    println!(
        "set-up: stored in {:.1} s, planned in {:.1} s ({jobs_at_start} jobs)",
        stored.as_secs_f64(),
        planned.as_secs_f64()
    );
    println!(
        "scheduler: {claimed} jobs in {secs:.1} s = {:.0} jobs/s; {boards} timeouts played (board posts), {places} seats opened, {dms} reminders",
        claimed as f64 / secs.max(1e-9)
    );
    println!(
        "process CPU {cpu:.1} s ({:.0}% of one core); slowest step {:.2} s; memory {rss:.0} MiB now, {peak:.0} MiB peak",
        100.0 * cpu / secs.max(1e-9),
        slowest_step.as_secs_f64()
    );
    println!("jobs left: {}", store.job_count().await.expect("count"));
    store.close().await;
    if let Some((base, schema)) = pg {
        raw(&base, &format!("DROP SCHEMA {schema} CASCADE")).await;
    }
}

async fn raw(url: &str, sql: &str) {
    sqlx::any::install_default_drivers();
    let pool = sqlx::AnyPool::connect(url).await.expect("connect");
    // The bench's own SQL (its scratch schema), not input.
    sqlx::raw_sql(sqlx::AssertSqlSafe(sql.to_string()))
        .execute(&pool)
        .await
        .expect("sql");
    pool.close().await;
}
