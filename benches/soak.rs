//! Soak: many stored games with clocks through a simulated week of the scheduler, run by one or
//! more scheduler processes on one database. Nobody plays: every turn runs through its
//! reminders to its deadline, and the game's policy acts (policies rotate: skip, which falls
//! back to a random move in Cortexcape, bot, and open, which stops that game's clock).
//!
//! The bench sets the database up (games stored as if started, then planned by the start-up
//! re-planning every process runs), then starts `SOAK_PROCESSES` copies of itself as worker
//! processes, each with its own connection pool and a scheduler as `croupier serve` runs it
//! (`Service::run_due_jobs_timed`, `SCHEDULER_CONCURRENCY` jobs at once). Time is a
//! `ManualClock` in each worker, moved in steps by this process: at each step every worker
//! runs batches until it claims nothing more, and reports what it did, when each job finished
//! (real time since the step began: a job's lateness, as if all of the step's jobs fell due at
//! its start), its resident memory and CPU time. Two workers on PostgreSQL are two `serve`
//! processes: their schedulers share the jobs through the claim, whatever shards they run.
//!
//! Every timer fires once: the jobs claimed equal the boards posted + seats opened +
//! reminders sent (each job did exactly one thing), no job is claimed a second time (a lease
//! that ran out), and nothing due is left at the end.
//!
//! Settings (environment): `SOAK_GAMES` (10000), `SOAK_DAYS` (7), `SOAK_STEP_MINUTES` (10),
//! `SOAK_SPREAD_MINUTES` (0: every game starts at the same second, the worst bursts; else
//! start times spread evenly over that many minutes), `SOAK_PROCESSES` (1),
//! `SCHEDULER_CONCURRENCY` (8), `SOAK_BATCH` (500), `SOAK_DATABASE_URL` (default: SQLite in a
//! temporary folder; a `postgres://` URL gets a scratch schema, dropped afterwards).
//!
//! Full size takes a while on a small machine (every timeout renders and encodes a board, as
//! the bot must post it); a quick look: `SOAK_GAMES=200 SOAK_DAYS=2 cargo test --bench soak`.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::Arc;
use std::time::Instant;

use croupier::clock::{ManualClock, DAY, HOUR, MINUTE};
use croupier::engine::{GameKind, GameOptions};
use croupier::service::{Notice, Service, Timers};
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
    match std::env::var("SOAK_WORKER") {
        Ok(name) => rt.block_on(worker(name)),
        Err(_) => rt.block_on(run()),
    }
}

/// What a worker did in one step (one line on its stdout).
#[derive(Default)]
struct Step {
    claimed: usize,
    boards: usize,
    places: usize,
    dms: usize,
    archives: usize,
    failed: usize,
    /// Jobs claimed a second time (their first lease ran out).
    reclaimed: usize,
    rss_mib: f64,
    peak_mib: f64,
    cpu: f64,
    /// Milliseconds from the step's start to each job's end.
    late_ms: Vec<u64>,
}

impl Step {
    fn line(&self) -> String {
        let late: Vec<String> = self.late_ms.iter().map(u64::to_string).collect();
        format!(
            "done {} {} {} {} {} {} {} {:.1} {:.1} {:.2} {}",
            self.claimed,
            self.boards,
            self.places,
            self.dms,
            self.archives,
            self.failed,
            self.reclaimed,
            self.rss_mib,
            self.peak_mib,
            self.cpu,
            late.join(",")
        )
    }

    fn parse(line: &str) -> Step {
        let f: Vec<&str> = line.trim_end().split(' ').collect();
        assert_eq!(f.first(), Some(&"done"), "worker said {line:?}");
        let n = |i: usize| f[i].parse::<usize>().expect("count");
        let x = |i: usize| f[i].parse::<f64>().expect("figure");
        Step {
            claimed: n(1),
            boards: n(2),
            places: n(3),
            dms: n(4),
            archives: n(5),
            failed: n(6),
            reclaimed: n(7),
            rss_mib: x(8),
            peak_mib: x(9),
            cpu: x(10),
            late_ms: f
                .get(11)
                .filter(|s| !s.is_empty())
                .map(|s| s.split(',').map(|v| v.parse().expect("ms")).collect())
                .unwrap_or_default(),
        }
    }
}

/// A worker process: a scheduler on its own pool, stepping when told (`step <t>`).
async fn worker(name: String) {
    let url = std::env::var("SOAK_WORKER_URL").expect("SOAK_WORKER_URL");
    let batch = u32::try_from(env("SOAK_BATCH", 500)).unwrap_or(500);
    let store = Store::connect(&url).await.expect("store");
    let clock = ManualClock::new(T0);
    let timers = Timers {
        scheduler_concurrency: usize::try_from(env(
            "SCHEDULER_CONCURRENCY",
            croupier::service::DEFAULT_SCHEDULER_CONCURRENCY as i64,
        ))
        .unwrap_or(8),
        ..Timers::default()
    };
    let svc = Service::new(store.clone())
        .with_clock(Arc::new(clock.clone()))
        .with_timers(timers);
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    for line in stdin.lock().lines() {
        let line = line.expect("stdin");
        let Some(t) = line.strip_prefix("step ") else {
            break;
        };
        clock.set(t.trim().parse().expect("time"));
        let started = Instant::now();
        let cpu0 = cpu_secs();
        let mut step = Step::default();
        loop {
            let run = svc
                .clocks()
                .run_due_jobs_timed(&name, batch)
                .await
                .expect("scheduler");
            step.claimed += run.claimed;
            for done in &run.finished {
                step.late_ms.push(
                    u64::try_from(done.at.duration_since(started).as_millis()).unwrap_or(u64::MAX),
                );
                step.failed += usize::from(!done.ok);
                step.reclaimed += usize::from(done.attempts > 1);
            }
            for notice in &run.notices {
                match notice {
                    Notice::Board(_) => step.boards += 1,
                    Notice::Place { .. } | Notice::Call { .. } | Notice::LobbyClosed { .. } => {
                        step.places += 1
                    }
                    Notice::Dm { .. } | Notice::Private { .. } => step.dms += 1,
                    // A thread archived a grace after its game ended.
                    Notice::Archive { .. } => step.archives += 1,
                }
            }
            if run.claimed < batch as usize {
                break;
            }
        }
        (step.rss_mib, step.peak_mib) = memory_mib();
        step.cpu = cpu_secs() - cpu0;
        writeln!(out, "{}", step.line()).expect("stdout");
        out.flush().expect("stdout");
    }
    store.close().await;
}

struct Worker {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

fn percentile(sorted: &[u64], p: f64) -> u64 {
    if sorted.is_empty() {
        return 0;
    }
    #[allow(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        clippy::cast_precision_loss
    )]
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

async fn run() {
    let games = env("SOAK_GAMES", 10_000);
    let days = env("SOAK_DAYS", 7);
    let step = env("SOAK_STEP_MINUTES", 10) * MINUTE;
    let spread = env("SOAK_SPREAD_MINUTES", 0) * MINUTE;
    let processes = usize::try_from(env("SOAK_PROCESSES", 1).max(1)).unwrap_or(1);
    let concurrency = env("SCHEDULER_CONCURRENCY", 8);
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
    assert!(
        processes == 1 || pg.is_some(),
        "several scheduler processes need PostgreSQL (SOAK_DATABASE_URL=postgres://…)"
    );
    let store = Store::connect(&url).await.expect("store");
    let svc = Service::new(store.clone());

    // Set-up: games stored straight away (as if started earlier), 8 writers at once, then
    // planned by the start-up re-planning at their start time: one start time a step over the
    // spread (all at `T0` without one).
    let starts = (spread / step).clamp(1, games.max(1));
    let (mut stored, mut planned) = (std::time::Duration::ZERO, std::time::Duration::ZERO);
    let mut next = 0;
    for k in 0..starts {
        let until = games * (k + 1) / starts;
        let started = Instant::now();
        let writers = 8;
        let mut tasks = Vec::new();
        for w in 0..writers {
            let store = store.clone();
            tasks.push(tokio::spawn(async move {
                let mut i = next + w;
                while i < until {
                    store.create_game(&new_game(i)).await.expect("game");
                    i += writers;
                }
            }));
        }
        for t in tasks {
            t.await.expect("writer");
        }
        next = until;
        stored += started.elapsed();
        let planning = Instant::now();
        let at = T0 + k * step;
        while svc.clocks().replan(at).await.expect("replan") > 0 {}
        planned += planning.elapsed();
    }
    let jobs_at_start = store.job_count().await.expect("count");
    eprintln!(
        "set-up: {games} games stored in {:.1} s, planned in {:.1} s ({jobs_at_start} jobs)",
        stored.as_secs_f64(),
        planned.as_secs_f64()
    );

    let exe = std::env::current_exe().expect("own path");
    let mut workers: Vec<Worker> = (0..processes)
        .map(|i| {
            let mut child = Command::new(&exe)
                .env("SOAK_WORKER", format!("soak-{i}"))
                .env("SOAK_WORKER_URL", &url)
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .spawn()
                .expect("worker process");
            let stdin = child.stdin.take().expect("stdin");
            let stdout = BufReader::new(child.stdout.take().expect("stdout"));
            Worker {
                child,
                stdin,
                stdout,
            }
        })
        .collect();

    let wall = Instant::now();
    let mut total = Step::default();
    let (mut steps, mut slowest) = (0usize, 0u64);
    // The step with the most timeouts: timeouts, jobs, p50, p99 and last (ms), its time.
    let mut worst = (0usize, 0usize, 0u64, 0u64, 0u64, 0i64);
    let mut all_late: Vec<u64> = Vec::new();
    let mut rss: Vec<Vec<f64>> = vec![Vec::new(); processes];
    let mut peak = vec![0f64; processes];
    let mut cpu = vec![0f64; processes];
    let mut t = T0;
    while t < T0 + days * DAY {
        t += step;
        for w in &mut workers {
            writeln!(w.stdin, "step {t}").expect("to worker");
            w.stdin.flush().expect("to worker");
        }
        let mut late: Vec<u64> = Vec::new();
        let (mut claimed, mut timeouts) = (0, 0);
        for (i, w) in workers.iter_mut().enumerate() {
            let mut line = String::new();
            w.stdout.read_line(&mut line).expect("from worker");
            let s = Step::parse(&line);
            claimed += s.claimed;
            timeouts += s.boards;
            total.claimed += s.claimed;
            total.boards += s.boards;
            total.places += s.places;
            total.dms += s.dms;
            total.archives += s.archives;
            total.failed += s.failed;
            total.reclaimed += s.reclaimed;
            rss[i].push(s.rss_mib);
            peak[i] = peak[i].max(s.peak_mib);
            cpu[i] += s.cpu;
            late.extend(s.late_ms);
        }
        late.sort_unstable();
        let last = late.last().copied().unwrap_or(0);
        slowest = slowest.max(last);
        // The worst burst: the most timeouts (each renders a board), then the most jobs.
        if (timeouts, claimed) > (worst.0, worst.1) {
            worst = (
                timeouts,
                claimed,
                percentile(&late, 0.5),
                percentile(&late, 0.99),
                last,
                t,
            );
        }
        all_late.extend(late);
        steps += 1;
        // A line a simulated day, so a long run that is stopped still says how far it got.
        if (t - T0) % DAY == 0 {
            let rss_now: Vec<String> = rss
                .iter()
                .map(|r| format!("{:.0}", r.last().copied().unwrap_or(0.0)))
                .collect();
            eprintln!(
                "day {}: {:.0} s, {} jobs, {} timeouts, {} seats opened, {} reminders, {} failed, {} claimed twice; busiest step so far {} timeouts, p99 {:.1} s, last {:.1} s; resident MiB per worker {}",
                (t - T0) / DAY,
                wall.elapsed().as_secs_f64(),
                total.claimed,
                total.boards,
                total.places,
                total.dms,
                total.failed,
                total.reclaimed,
                worst.0,
                worst.3 as f64 / 1000.0,
                worst.4 as f64 / 1000.0,
                rss_now.join(" / ")
            );
        }
    }
    let secs = wall.elapsed().as_secs_f64();
    for mut w in workers {
        drop(w.stdin);
        w.child.wait().expect("worker exit");
    }
    all_late.sort_unstable();
    let backend = if pg.is_some() { "PostgreSQL" } else { "SQLite" };
    println!(
        "soak on {backend}: {games} games (starts spread over {} min), {days} simulated days in {steps} steps of {} min; {processes} scheduler process(es), {concurrency} jobs at once each",
        spread / MINUTE,
        step / MINUTE
    );
    println!(
        "set-up: stored in {:.1} s, planned in {:.1} s ({jobs_at_start} jobs)",
        stored.as_secs_f64(),
        planned.as_secs_f64()
    );
    println!(
        "scheduler: {} jobs in {secs:.1} s = {:.0} jobs/s; {} timeouts played (board posts), {} seats opened, {} reminders, {} threads archived; {} failed, {} claimed twice",
        total.claimed,
        total.claimed as f64 / secs.max(1e-9),
        total.boards,
        total.places,
        total.dms,
        total.archives,
        total.failed,
        total.reclaimed,
    );
    let acted = total.boards + total.places + total.dms + total.archives;
    println!(
        "every timer once: {} jobs claimed, {acted} did one thing each{}",
        total.claimed,
        if acted == total.claimed && total.reclaimed == 0 && total.failed == 0 {
            " (equal; none claimed twice, none failed)"
        } else {
            " (NOT EQUAL: see the counts above)"
        }
    );
    println!(
        "lateness (end of a job after its step began): p50 {} ms, p99 {} ms, worst {} ms over all jobs",
        percentile(&all_late, 0.5),
        percentile(&all_late, 0.99),
        slowest
    );
    println!(
        "worst burst: {} timeouts ({} jobs) in the step ending {} h after the start: p50 {:.1} s, p99 {:.1} s, last {:.1} s",
        worst.0,
        worst.1,
        (worst.5 - T0) / HOUR,
        worst.2 as f64 / 1000.0,
        worst.3 as f64 / 1000.0,
        worst.4 as f64 / 1000.0
    );
    for (i, r) in rss.iter().enumerate() {
        let at = |frac: f64| {
            #[allow(
                clippy::cast_possible_truncation,
                clippy::cast_sign_loss,
                clippy::cast_precision_loss
            )]
            let j = ((r.len() as f64 - 1.0) * frac) as usize;
            r.get(j).copied().unwrap_or(0.0)
        };
        println!(
            "worker {i}: CPU {:.1} s ({:.0}% of one core); resident memory after 1/7 {:.0} MiB, 1/2 {:.0} MiB, end {:.0} MiB; peak {:.0} MiB",
            cpu[i],
            100.0 * cpu[i] / secs.max(1e-9),
            at(1.0 / 7.0),
            at(0.5),
            at(1.0),
            peak[i]
        );
    }
    let (own_rss, own_peak) = memory_mib();
    println!("this process (set-up): {own_rss:.0} MiB now, {own_peak:.0} MiB peak");
    println!(
        "jobs left: {} ({} due and not run)",
        store.job_count().await.expect("count"),
        store.job_queue(t).await.expect("queue").0
    );
    store.close().await;
    if let Some((base, schema)) = pg {
        raw(&base, &format!("DROP SCHEMA {schema} CASCADE")).await;
    }
}

/// Game `i` of the soak: Cortexcape for two, clocks of 12 h, 24 h and 3 days in turn, the
/// three timeout policies in turn.
fn new_game(i: i64) -> NewGame {
    let kind = GameKind::Cortexcape;
    let clocks = [12 * HOUR, DAY, 3 * DAY];
    let policies = [TimeoutPolicy::Skip, TimeoutPolicy::Bot, TimeoutPolicy::Open];
    let seed = u64::try_from(i).unwrap_or(0);
    let state = kind
        .setup(&GameOptions::new(), 2, seed)
        .expect("setup")
        .to_json();
    let n = usize::try_from(i).unwrap_or(0);
    NewGame {
        kind,
        options: Default::default(),
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
        lang: Some(croupier::i18n::Lang::En),
        now: T0,
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
