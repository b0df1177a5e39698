//! Running the bot for others (issue 26), end to end through the fake Discord: the metrics
//! scraped from `METRICS_ADDR` after a game was played (the counters moved), and `/healthz`
//! answering 200 only while the gateway is connected and the database answers.
//!
//! The metrics recorder is one per process: the tests of this file share it, so a test counts
//! the change of a series over its own actions, on series the other test does not touch.

#[path = "support/fake_discord/mod.rs"]
mod fake_discord;

#[path = "support/bot_play.rs"]
mod bot_play;

#[allow(unused_macros)]
#[path = "support/store_db.rs"]
mod store_db;

use std::net::SocketAddr;
use std::time::Duration;

use bot_play::*;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// A loopback address with a free port (bound, read and let go).
fn free_addr() -> SocketAddr {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("a free port");
    listener.local_addr().expect("its address")
}

/// The bot on a fresh SQLite file, serving metrics and health on `addr`.
async fn bot_serving(addr: SocketAddr) -> World {
    World::sqlite()
        .tick(None)
        .config(move |config| config.metrics_addr = Some(addr))
        .start()
        .await
}

/// `GET path` on `addr`: (status code, body).
async fn get(addr: SocketAddr, path: &str) -> (u16, String) {
    let mut stream = tokio::net::TcpStream::connect(addr)
        .await
        .expect("the metrics listener");
    let request = format!("GET {path} HTTP/1.1\r\nhost: test\r\n\r\n");
    stream.write_all(request.as_bytes()).await.expect("request");
    let mut answer = String::new();
    stream.read_to_string(&mut answer).await.expect("answer");
    let (head, body) = answer.split_once("\r\n\r\n").expect("an HTTP answer");
    let status = head
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .expect("a status");
    assert!(
        head.to_ascii_lowercase()
            .contains(&format!("content-length: {}", body.len())),
        "{head}"
    );
    (status, body.to_string())
}

/// The sum of the samples of `name` whose labels include every `labels` pair, in a scrape.
fn value(scrape: &str, name: &str, labels: &[(&str, &str)]) -> f64 {
    scrape
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| {
            let (series, v) = l.rsplit_once(' ')?;
            let (n, rest) = series.split_once('{').unwrap_or((series, ""));
            (n == name
                && labels
                    .iter()
                    .all(|(k, val)| rest.contains(&format!("{k}=\"{val}\""))))
            .then(|| v.parse::<f64>().ok())
            .flatten()
        })
        .sum()
}

/// Scrapes until `ok` holds of the figures against `before` (the bot records some figures just
/// after the fake sees their effect), at most ten seconds; returns the last scrape.
async fn scrape_until(addr: SocketAddr, ok: impl Fn(&str) -> bool) -> String {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    loop {
        let (status, body) = get(addr, "/metrics").await;
        assert_eq!(status, 200, "{body}");
        if ok(&body) || tokio::time::Instant::now() > deadline {
            return body;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Asks `/healthz` until it answers `want`, at most `secs` seconds; returns the body.
async fn health_until(addr: SocketAddr, want: u16, secs: u64) -> String {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(secs);
    loop {
        let (status, body) = get(addr, "/healthz").await;
        if status == want {
            return body;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "/healthz still answers {status} {body:?}, not {want}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_scrape_after_a_game_played_shows_the_counters_moved() {
    let addr = free_addr();
    let (fake, _service, bot, _db) = bot_serving(addr).await.parts();
    let before = scrape_until(addr, |s| s.contains("croupier_up 1")).await;
    let moves = |s: &str| value(s, "croupier_moves_total", &[("game", "cortexcape")]);
    let to_board = |s: &str| value(s, "croupier_click_to_board_seconds_count", &[]);
    let clicks = |s: &str| {
        value(
            s,
            "croupier_interaction_ack_seconds_count",
            &[("kind", "click")],
        )
    };
    let posts = |s: &str| {
        value(
            s,
            "croupier_discord_requests_total",
            &[("route", "message_create"), ("status", "2xx")],
        )
    };
    let callbacks = |s: &str| {
        value(
            s,
            "croupier_discord_requests_total",
            &[("route", "interaction_callback"), ("status", "2xx")],
        )
    };
    let boards = |s: &str| value(s, "croupier_render_seconds_count", &[("what", "board")]);
    let encodes = |s: &str| value(s, "croupier_encode_seconds_count", &[]);

    // A lobby (a command), Bob joins and Alice starts (two clicks), then three moves.
    let (game, thread) = start_game(&fake).await;
    let mut board = latest_board_after(&fake, thread, 0).await;
    for _ in 0..3 {
        click_first(&fake, &board).await;
        board = board_after(&fake, &board).await;
    }
    // (The gauges read from the database are reused for `ops::CACHE_FOR`: wait for them too.)
    let after = scrape_until(addr, |s| {
        moves(s) - moves(&before) >= 3.0
            && to_board(s) - to_board(&before) >= 3.0
            && value(s, "croupier_games_live", &[("game", "cortexcape")]) == 1.0
    })
    .await;
    // README's sample scrape: `cargo test --test ops a_scrape -- --nocapture`.
    println!("{after}");
    assert_eq!(moves(&after) - moves(&before), 3.0, "{after}");
    assert_eq!(to_board(&after) - to_board(&before), 3.0, "{after}");
    assert!(clicks(&after) - clicks(&before) >= 5.0, "{after}");
    assert!(
        value(
            &after,
            "croupier_interaction_ack_seconds_count",
            &[("kind", "command")]
        ) >= 1.0,
        "{after}"
    );
    // The first board is a new message (the lobby is the command's answer); every interaction
    // was acknowledged.
    assert!(posts(&after) - posts(&before) >= 1.0, "{after}");
    assert!(callbacks(&after) - callbacks(&before) >= 6.0, "{after}");
    assert!(boards(&after) - boards(&before) >= 4.0, "{after}");
    assert!(encodes(&after) - encodes(&before) >= 4.0, "{after}");
    // Read from the database at the scrape: this bot's one game runs.
    assert_eq!(
        value(&after, "croupier_games_live", &[("game", "cortexcape")]),
        1.0,
        "game {game:?}: {after}"
    );
    assert_eq!(
        value(&after, "croupier_games_live", &[("game", "portal")]),
        0.0
    );
    assert_eq!(value(&after, "croupier_gateway_shards_connected", &[]), 1.0);
    // The turn's deadline and reminders are planned, none due.
    assert!(value(&after, "croupier_scheduler_planned_jobs", &[]) >= 1.0);
    assert_eq!(value(&after, "croupier_scheduler_due_jobs", &[]), 0.0);
    // Every series says what it is, and histograms have buckets.
    assert!(after.contains("# HELP croupier_moves_total "), "{after}");
    assert!(after.contains("# TYPE croupier_click_to_board_seconds histogram"));
    assert!(after.contains("croupier_click_to_board_seconds_bucket{le=\"0.1\"}"));
    // Other paths and methods are refused, the listener stays up.
    assert_eq!(get(addr, "/").await.0, 404);
    assert_eq!(get(addr, "/metrics").await.0, 200);
    finish(&fake).await;
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn healthz_answers_200_only_while_the_gateway_is_connected_and_the_store_answers() {
    let addr = free_addr();
    let (fake, service, bot, _db) = bot_serving(addr).await.parts();
    assert_eq!(health_until(addr, 200, 20).await, "ok\n");
    assert_eq!(croupier::ops::check(addr, None).await, Ok("ok".to_string()));

    // The network cut, and Discord's gateway out of reach: unhealthy, with the reason. A cut
    // without a close frame reads as a quiet socket: serenity finds out when its next
    // heartbeat fails to go out, within one heartbeat interval (41.25 s).
    fake.hold_gateway();
    fake.drop_gateway();
    let reason = health_until(addr, 503, 90).await;
    assert!(reason.contains("gateway is not connected"), "{reason:?}");
    assert_eq!(reason.lines().count(), 1, "{reason:?}");
    let checked = croupier::ops::check(addr, None).await;
    assert!(
        checked
            .as_ref()
            .is_err_and(|e| e.contains("503") && e.contains("gateway")),
        "{checked:?}"
    );
    // Back (the session resumed): healthy again.
    fake.release_gateway();
    assert_eq!(health_until(addr, 200, 60).await, "ok\n");

    // The database gone: unhealthy, though the gateway is up.
    service.store().close().await;
    let reason = health_until(addr, 503, 20).await;
    assert!(reason.contains("database"), "{reason:?}");
    bot.stop().await;
}

#[tokio::test]
async fn the_healthcheck_of_a_process_that_serves_nothing_fails() {
    let addr = free_addr();
    let checked = croupier::ops::check(addr, None).await;
    assert!(
        checked.as_ref().is_err_and(|e| e.contains("no answer")),
        "{checked:?}"
    );
}

/// Issue 37: with `METRICS_TOKEN` both paths answer only a request that carries the bearer
/// token (`croupier healthcheck` sends it), and past [`croupier::ops::MAX_CONNECTIONS`] open
/// connections a new one is closed unanswered, until some close.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_metrics_token_and_a_connection_cap_guard_the_port() {
    let addr = free_addr();
    let world = World::sqlite()
        .tick(None)
        .config(move |config| {
            config.metrics_addr = Some(addr);
            config.metrics_token = Some(croupier::secret::Token::new("scrape-me"));
        })
        .start()
        .await;
    let (_fake, _service, bot, _db) = world.parts();
    // The answer to a scrape; empty when the connection was closed (or reset) unanswered.
    let ask = |auth: &'static str| async move {
        let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
        let request = format!("GET /metrics HTTP/1.1\r\nhost: test\r\n{auth}\r\n");
        let mut answer = String::new();
        if stream.write_all(request.as_bytes()).await.is_ok() {
            let _ = stream.read_to_string(&mut answer).await;
        }
        answer
    };
    let refused = ask("").await;
    assert!(refused.starts_with("HTTP/1.1 401"), "{refused}");
    assert!(refused.contains("www-authenticate: Bearer"), "{refused}");
    assert!(!refused.contains("croupier_up"), "{refused}");
    assert!(ask("authorization: Bearer wrong\r\n")
        .await
        .starts_with("HTTP/1.1 401"));
    let served = ask("authorization: Bearer scrape-me\r\n").await;
    assert!(
        served.starts_with("HTTP/1.1 200") && served.contains("croupier_up 1"),
        "{served}"
    );
    let unhealthy_without = croupier::ops::check(addr, None).await;
    assert!(
        unhealthy_without.as_ref().is_err_and(|e| e.contains("401")),
        "{unhealthy_without:?}"
    );
    // The health check with the token: healthy once the gateway is up.
    let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
    while croupier::ops::check(addr, Some("scrape-me")).await != Ok("ok".to_string()) {
        assert!(tokio::time::Instant::now() < deadline, "never healthy");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }

    // Connections that send nothing hold every place; the next is closed unanswered.
    let mut idle = Vec::new();
    for _ in 0..croupier::ops::MAX_CONNECTIONS {
        idle.push(tokio::net::TcpStream::connect(addr).await.unwrap());
    }
    // (Give the listener the time to accept them all before the extra one.)
    let mut shut_out = false;
    for _ in 0..100 {
        let answer = ask("authorization: Bearer scrape-me\r\n").await;
        if answer.is_empty() {
            shut_out = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(shut_out, "a connection past the cap was answered");
    drop(idle);
    let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
    loop {
        let answer = ask("authorization: Bearer scrape-me\r\n").await;
        if answer.starts_with("HTTP/1.1 200") {
            break;
        }
        assert!(tokio::time::Instant::now() < deadline, "never served again");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    bot.stop().await;
}

/// Issue 37: `compose.yaml` (README, "Docker") names only variables the bot reads, and its
/// secrets exist. A YAML parser is not among our dependencies and this machine has no Docker
/// daemon: the check reads the file's plain block structure (no tabs, two-space steps), which
/// is all the file uses.
#[test]
fn compose_names_only_what_the_bot_reads() {
    let root = env!("CARGO_MANIFEST_DIR");
    let compose = std::fs::read_to_string(format!("{root}/compose.yaml")).unwrap();
    assert!(!compose.contains('\t'), "tabs in compose.yaml");
    let sources: String = ["src/config.rs", "src/main.rs", "src/bot/mod.rs"]
        .iter()
        .map(|f| std::fs::read_to_string(format!("{root}/{f}")).unwrap())
        .collect();
    let lines: Vec<&str> = compose.lines().collect();
    let block = |start: &str, indent: usize| -> Vec<String> {
        let at = lines
            .iter()
            .position(|l| l.trim_end() == start)
            .unwrap_or_else(|| panic!("no `{start}` in compose.yaml"));
        lines[at + 1..]
            .iter()
            .take_while(|l| l.trim().is_empty() || l.len() - l.trim_start().len() >= indent)
            .filter(|l| l.len() - l.trim_start().len() == indent && !l.trim().is_empty())
            .map(|l| l.trim().to_string())
            .collect()
    };
    let bot = block("  bot:", 4);
    assert!(bot.iter().any(|k| k == "environment:"), "{bot:?}");
    let env: Vec<String> = lines
        .iter()
        .skip_while(|l| l.trim_end() != "  bot:")
        .skip_while(|l| l.trim_end() != "    environment:")
        .skip(1)
        .take_while(|l| l.starts_with("      "))
        .map(|l| l.trim().split(':').next().unwrap().to_string())
        .collect();
    assert!(env.len() >= 5, "{env:?}");
    for name in &env {
        // `NAME_FILE` is read through `secret("NAME")`; RUST_LOG by the log filter itself.
        let read = name == "RUST_LOG"
            || sources.contains(&format!("\"{name}\""))
            || name
                .strip_suffix("_FILE")
                .is_some_and(|base| sources.contains(&format!("secret(\"{base}\")")));
        assert!(read, "compose.yaml sets {name}, which the bot never reads");
    }
    let defined = block("secrets:", 2);
    for used in ["discord_token", "database_url", "db_password"] {
        assert!(
            defined.contains(&format!("{used}:")),
            "secret {used} not defined"
        );
    }
}
