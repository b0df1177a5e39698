//! Running croupier for others: the metrics in Prometheus' text format and the health check,
//! both served on `METRICS_ADDR` (off by default), and the client of `croupier healthcheck`.
//!
//! Series are recorded through the `metrics` facade where things happen (the service counts
//! moves and times renders, the bot times acknowledgements and counts Discord requests, the
//! store counts its errors); with no recorder installed (no `METRICS_ADDR`) each call is a
//! no-op. [`install`] puts `metrics-exporter-prometheus`' recorder in place once per process;
//! its text is served here by a small HTTP/1 answer on a tokio listener: two `GET` paths, one
//! request per connection, no keep-alive, nothing else to configure or secure.
//!
//! The names, their labels and what they mean are listed once, in [`SERIES`] (README shows a
//! scrape).

use std::future::Future;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// Games running now, by game (set from the database at each scrape: all processes' games).
pub const GAMES_LIVE: &str = "croupier_games_live";
/// Atomic options stored (players, bots and timeouts), by game. `rate()` of it: moves per second.
pub const MOVES: &str = "croupier_moves_total";
/// From an interaction's arrival to Discord accepting its acknowledgement, by `kind`
/// (`click`, `command`).
pub const ACK_SECONDS: &str = "croupier_interaction_ack_seconds";
/// From a click's arrival to its new board out (the click that played a move).
pub const CLICK_TO_BOARD_SECONDS: &str = "croupier_click_to_board_seconds";
/// Drawing a board or a hand (`what`: `board`, `hand`).
pub const RENDER_SECONDS: &str = "croupier_render_seconds";
/// Encoding a drawn image to PNG.
pub const ENCODE_SECONDS: &str = "croupier_encode_seconds";
/// Requests to Discord's REST API by route class and answer (`2xx`, the HTTP status, or
/// `network`); every attempt counts, retries included.
pub const DISCORD_REQUESTS: &str = "croupier_discord_requests_total";
/// Times serenity's rate limiter held a request back: a 429 met, or a bucket known to be
/// empty (`global`: Discord's global limit, else a route's).
pub const DISCORD_RATE_LIMITED: &str = "croupier_discord_rate_limited_total";
/// Jobs due now that no scheduler holds yet (all processes; set at each scrape).
pub const SCHEDULER_DUE: &str = "croupier_scheduler_due_jobs";
/// Jobs waiting in the database, due or not (set at each scrape).
pub const SCHEDULER_PLANNED: &str = "croupier_scheduler_planned_jobs";
/// How late a job finished after it was due, by `kind` (seconds of the scheduler's clock).
pub const JOB_LATENESS_SECONDS: &str = "croupier_job_lateness_seconds";
/// Jobs run by this process, by `kind` and `result` (`done`, `failed`).
pub const JOBS: &str = "croupier_jobs_total";
/// Errors the database answered (or a lost connection), by `kind` (`unavailable`, `other`).
pub const STORE_ERRORS: &str = "croupier_store_errors_total";
/// Gateway shards of this process connected now, and started.
pub const GATEWAY_CONNECTED: &str = "croupier_gateway_shards_connected";
pub const GATEWAY_SHARDS: &str = "croupier_gateway_shards";

/// Every series: name, type and what it means (the `# HELP` lines and README's table).
pub const SERIES: [(&str, Kind, &str); 16] = [
    (
        GAMES_LIVE,
        Kind::Gauge,
        "games running now, by game (all processes)",
    ),
    (
        MOVES,
        Kind::Counter,
        "atomic options stored, by game; rate() is moves per second",
    ),
    (
        ACK_SECONDS,
        Kind::Histogram,
        "interaction arrival to Discord accepting its acknowledgement, by kind",
    ),
    (
        CLICK_TO_BOARD_SECONDS,
        Kind::Histogram,
        "a move's click arrival to its new board out",
    ),
    (
        RENDER_SECONDS,
        Kind::Histogram,
        "drawing a board or a hand, by what",
    ),
    (
        ENCODE_SECONDS,
        Kind::Histogram,
        "encoding a drawn image to PNG",
    ),
    (
        DISCORD_REQUESTS,
        Kind::Counter,
        "Discord REST attempts by route class and status (429 counted)",
    ),
    (
        DISCORD_RATE_LIMITED,
        Kind::Counter,
        "requests serenity's rate limiter held back (a 429 met or a bucket empty)",
    ),
    (
        SCHEDULER_DUE,
        Kind::Gauge,
        "jobs due now that no scheduler holds yet (all processes)",
    ),
    (
        SCHEDULER_PLANNED,
        Kind::Gauge,
        "jobs waiting in the database, due or not",
    ),
    (
        JOB_LATENESS_SECONDS,
        Kind::Histogram,
        "seconds a job finished after it was due, by kind",
    ),
    (
        JOBS,
        Kind::Counter,
        "jobs run by this process, by kind and result",
    ),
    (STORE_ERRORS, Kind::Counter, "database errors, by kind"),
    (
        GATEWAY_CONNECTED,
        Kind::Gauge,
        "gateway shards of this process connected now",
    ),
    (
        GATEWAY_SHARDS,
        Kind::Gauge,
        "gateway shards this process started",
    ),
    (
        "croupier_up",
        Kind::Gauge,
        "1 while the process serves metrics",
    ),
];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Counter,
    Gauge,
    Histogram,
}

/// Histogram bounds for every `_seconds` series: a millisecond (a render) to half an hour (a
/// job late after an outage).
const BUCKETS: [f64; 19] = [
    0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0,
    120.0, 300.0, 600.0, 1800.0,
];

static HANDLE: OnceLock<PrometheusHandle> = OnceLock::new();

/// Installs the Prometheus recorder as this process's `metrics` recorder (once; later calls
/// return the same handle). Until this runs, every recording is a no-op.
pub fn install() -> PrometheusHandle {
    HANDLE
        .get_or_init(|| {
            let builder = PrometheusBuilder::new()
                .set_buckets_for_metric(Matcher::Suffix("_seconds".into()), &BUCKETS)
                .unwrap_or_else(|_| PrometheusBuilder::new());
            let recorder = builder.build_recorder();
            let handle = recorder.handle();
            if metrics::set_global_recorder(recorder).is_err() {
                tracing::warn!("another metrics recorder is installed; this one records nothing");
            }
            for (name, kind, help) in SERIES {
                match kind {
                    Kind::Counter => metrics::describe_counter!(name, help),
                    Kind::Gauge => metrics::describe_gauge!(name, help),
                    Kind::Histogram => metrics::describe_histogram!(name, help),
                }
            }
            metrics::gauge!("croupier_up").set(1.0);
            handle
        })
        .clone()
}

/// Whether this process records metrics (`install` ran).
pub fn enabled() -> bool {
    HANDLE.get().is_some()
}

/// An answer of the health check: `Err` carries the one-line reason.
pub type Health = Result<(), String>;

/// A future the listener awaits at each request (boxed: the bot's checks borrow nothing).
pub type Probe<T> = Arc<dyn Fn() -> Pin<Box<dyn Future<Output = T> + Send>> + Send + Sync>;

/// What the listener answers from: the recorder, the health check, the gauges to set from
/// the database just before a scrape, and the bearer token requests must carry, if any.
#[derive(Clone)]
pub struct Endpoints {
    pub handle: PrometheusHandle,
    pub health: Probe<Health>,
    pub refresh: Probe<()>,
    /// `METRICS_TOKEN`: `None` serves anyone who reaches the address.
    pub token: Option<Arc<str>>,
}

/// A health verdict and the database's gauges are reused this long: a scraper and a load
/// balancer polling every second (or someone hammering the port) cost the database one
/// query per period, not one per request.
pub const CACHE_FOR: Duration = Duration::from_secs(2);
/// Connections answered at once; more are closed straight away (a monitor needs one or two).
pub const MAX_CONNECTIONS: usize = 16;
/// A request head larger than this is refused (our two paths need a few dozen bytes).
const MAX_HEAD: usize = 8 * 1024;
/// A client gets this long to send its request head, and the answer this long to go out.
const IO_WAIT: Duration = Duration::from_secs(5);
/// The health check waits this long for the database.
pub const STORE_WAIT: Duration = Duration::from_secs(3);

/// Binds `addr` for [`serve`].
pub async fn bind(addr: SocketAddr) -> std::io::Result<TcpListener> {
    TcpListener::bind(addr).await
}

/// The last health verdict and the last refresh of the gauges, with when they were taken.
#[derive(Default)]
struct Cache {
    health: tokio::sync::Mutex<Option<(tokio::time::Instant, Health)>>,
    refreshed: tokio::sync::Mutex<Option<tokio::time::Instant>>,
}

impl Cache {
    /// The health verdict, asked of the probe at most once per [`CACHE_FOR`] (requests that
    /// arrive meanwhile wait for the one probe and share its answer).
    async fn health(&self, endpoints: &Endpoints) -> Health {
        let mut last = self.health.lock().await;
        match &*last {
            Some((at, verdict)) if at.elapsed() < CACHE_FOR => verdict.clone(),
            _ => {
                let verdict = (endpoints.health)().await;
                *last = Some((tokio::time::Instant::now(), verdict.clone()));
                verdict
            }
        }
    }

    /// Sets the gauges from the database, at most once per [`CACHE_FOR`].
    async fn refresh(&self, endpoints: &Endpoints) {
        let mut last = self.refreshed.lock().await;
        if last.is_none_or(|at| at.elapsed() >= CACHE_FOR) {
            (endpoints.refresh)().await;
            *last = Some(tokio::time::Instant::now());
        }
    }
}

/// Answers `GET /metrics` and `GET /healthz` on `listener` until the task is dropped.
pub async fn serve(listener: TcpListener, endpoints: Endpoints) {
    let cache = Arc::new(Cache::default());
    let open = Arc::new(tokio::sync::Semaphore::new(MAX_CONNECTIONS));
    loop {
        let (stream, _) = match listener.accept().await {
            Ok(s) => s,
            Err(e) => {
                // Out of file descriptors and the like: wait rather than spin.
                tracing::warn!(error = %e, "the metrics listener could not accept");
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
        };
        // Past the cap the connection is dropped unanswered: cheaper than any answer.
        let Ok(permit) = Arc::clone(&open).try_acquire_owned() else {
            drop(stream);
            continue;
        };
        let endpoints = endpoints.clone();
        let cache = Arc::clone(&cache);
        tokio::spawn(async move {
            if let Err(e) = answer(stream, &endpoints, &cache).await {
                tracing::debug!(error = %e, "a metrics request failed");
            }
            drop(permit);
        });
    }
}

async fn answer(
    mut stream: TcpStream,
    endpoints: &Endpoints,
    cache: &Cache,
) -> std::io::Result<()> {
    let head = match tokio::time::timeout(IO_WAIT, read_head(&mut stream)).await {
        Ok(head) => head?,
        Err(_) => return Ok(()),
    };
    let mut route = route(&head);
    if !matches!(route, Route::Bad) && !authorized(&head, endpoints.token.as_deref()) {
        route = Route::Unauthorized;
    }
    let (status, content_type, body) = match route {
        Route::Metrics => {
            cache.refresh(endpoints).await;
            endpoints.handle.run_upkeep();
            (
                "200 OK",
                "text/plain; version=0.0.4; charset=utf-8",
                endpoints.handle.render(),
            )
        }
        Route::Unauthorized => (
            "401 Unauthorized\r\nwww-authenticate: Bearer",
            "text/plain; charset=utf-8",
            "a bearer token is required (METRICS_TOKEN)\n".to_string(),
        ),
        Route::Health => match cache.health(endpoints).await {
            Ok(()) => ("200 OK", "text/plain; charset=utf-8", "ok\n".to_string()),
            Err(reason) => (
                "503 Service Unavailable",
                "text/plain; charset=utf-8",
                format!("{}\n", one_line(&reason)),
            ),
        },
        Route::NotFound => (
            "404 Not Found",
            "text/plain; charset=utf-8",
            "GET /metrics or /healthz\n".to_string(),
        ),
        Route::BadMethod => (
            "405 Method Not Allowed",
            "text/plain; charset=utf-8",
            "only GET\n".to_string(),
        ),
        Route::Bad => (
            "400 Bad Request",
            "text/plain; charset=utf-8",
            "bad request\n".to_string(),
        ),
    };
    let response = format!(
        "HTTP/1.1 {status}\r\ncontent-type: {content_type}\r\ncontent-length: {}\r\n\
         cache-control: no-store\r\nconnection: close\r\n\r\n{body}",
        body.len()
    );
    tokio::time::timeout(IO_WAIT, async {
        stream.write_all(response.as_bytes()).await?;
        stream.shutdown().await
    })
    .await
    .unwrap_or(Ok(()))
}

/// The request head, up to its blank line (or whatever came before the peer stopped).
async fn read_head(stream: &mut TcpStream) -> std::io::Result<Vec<u8>> {
    let mut head = Vec::with_capacity(256);
    let mut buf = [0u8; 1024];
    while !head.windows(4).any(|w| w == b"\r\n\r\n") && head.len() <= MAX_HEAD {
        let n = stream.read(&mut buf).await?;
        if n == 0 {
            break;
        }
        head.extend_from_slice(&buf[..n]);
    }
    Ok(head)
}

#[derive(Debug, PartialEq, Eq)]
enum Route {
    Metrics,
    Health,
    NotFound,
    BadMethod,
    Bad,
    Unauthorized,
}

/// Whether the request head carries `Authorization: Bearer <token>` when a token is set
/// (compared in time independent of where the first difference is).
fn authorized(head: &[u8], token: Option<&str>) -> bool {
    let Some(token) = token else {
        return true;
    };
    let text = String::from_utf8_lossy(head);
    text.lines().skip(1).any(|line| {
        let Some((name, value)) = line.split_once(':') else {
            return false;
        };
        let value = value.trim();
        let given = value
            .get(..7)
            .filter(|scheme| scheme.eq_ignore_ascii_case("bearer "))
            .map(|_| value[7..].trim());
        name.trim().eq_ignore_ascii_case("authorization")
            && given.is_some_and(|given| same_secret(given.as_bytes(), token.as_bytes()))
    })
}

/// Equality whose time does not tell how much of a guess was right.
fn same_secret(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

fn route(head: &[u8]) -> Route {
    if head.len() > MAX_HEAD {
        return Route::Bad;
    }
    let Some(line) = head
        .split(|b| *b == b'\n')
        .next()
        .and_then(|l| std::str::from_utf8(l).ok())
    else {
        return Route::Bad;
    };
    let mut parts = line.trim_end().split(' ');
    let (Some(method), Some(target), Some(version)) = (parts.next(), parts.next(), parts.next())
    else {
        return Route::Bad;
    };
    if !version.starts_with("HTTP/1.") {
        return Route::Bad;
    }
    let path = target.split('?').next().unwrap_or_default();
    match (method, path) {
        ("GET", "/metrics") => Route::Metrics,
        ("GET", "/healthz") => Route::Health,
        ("GET", _) => Route::NotFound,
        _ => Route::BadMethod,
    }
}

/// A reason on one line, of bounded length (it goes into a status body and a log).
fn one_line(reason: &str) -> String {
    let line: String = reason
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .take(200)
        .collect();
    line.trim().to_string()
}

/// `croupier healthcheck`: asks `GET /healthz` of the process listening on `addr` (an
/// unspecified address such as `0.0.0.0` is asked on loopback), with the bearer `token` when
/// the process requires one. `Ok` with the body on a 200; otherwise `Err` with the status
/// line and reason.
pub async fn check(addr: SocketAddr, token: Option<&str>) -> Result<String, String> {
    let addr = match addr.ip() {
        ip if ip.is_unspecified() => {
            let local: std::net::IpAddr = if ip.is_ipv4() {
                std::net::Ipv4Addr::LOCALHOST.into()
            } else {
                std::net::Ipv6Addr::LOCALHOST.into()
            };
            SocketAddr::new(local, addr.port())
        }
        _ => addr,
    };
    let auth = token
        .map(|t| format!("authorization: Bearer {t}\r\n"))
        .unwrap_or_default();
    let request =
        format!("GET /healthz HTTP/1.1\r\nhost: localhost\r\n{auth}connection: close\r\n\r\n");
    let ask = async {
        let mut stream = TcpStream::connect(addr).await?;
        stream.write_all(request.as_bytes()).await?;
        let mut answer = Vec::new();
        stream.read_to_end(&mut answer).await?;
        Ok::<_, std::io::Error>(answer)
    };
    let answer = match tokio::time::timeout(IO_WAIT, ask).await {
        Ok(Ok(a)) => a,
        Ok(Err(e)) => return Err(format!("no answer from {addr}: {e}")),
        Err(_) => return Err(format!("no answer from {addr} within {IO_WAIT:?}")),
    };
    let text = String::from_utf8_lossy(&answer);
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status = head.lines().next().unwrap_or_default().trim();
    if status.split(' ').nth(1) == Some("200") {
        Ok(body.trim().to_string())
    } else {
        Err(format!("{status}: {}", body.trim()))
    }
}

/// Route class of a Discord call, named by what our code was doing (see `bot::retry`): a small,
/// fixed set of label values.
pub fn route_class(what: &str) -> &'static str {
    let verb = what.split(' ').next().unwrap_or_default();
    match verb {
        "acknowledge" => "interaction_callback",
        "answer" | "show" => "interaction_edit",
        "post" | "send" | "announce" => "message_create",
        "update" | "retire" | "link" | "edit" => "message_edit",
        "open" if what.starts_with("open a DM") => "dm_open",
        "open" => "thread_create",
        "unarchive" | "archive" => "thread_edit",
        "add" => "thread_member",
        _ => "other",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_two_get_paths_are_served() {
        assert_eq!(route(b"GET /metrics HTTP/1.1\r\n\r\n"), Route::Metrics);
        assert_eq!(route(b"GET /healthz?x=1 HTTP/1.0\r\n\r\n"), Route::Health);
        assert_eq!(route(b"GET / HTTP/1.1\r\n\r\n"), Route::NotFound);
        assert_eq!(route(b"POST /metrics HTTP/1.1\r\n\r\n"), Route::BadMethod);
        assert_eq!(route(b"GET /metrics\r\n\r\n"), Route::Bad);
        assert_eq!(route(&[0xff, 0xfe, b'\n']), Route::Bad);
        assert_eq!(route(&vec![b'a'; MAX_HEAD + 1]), Route::Bad);
    }

    #[test]
    fn a_token_is_asked_only_when_one_is_set() {
        let head = |auth: &str| format!("GET /metrics HTTP/1.1\r\nhost: x\r\n{auth}\r\n");
        assert!(authorized(head("").as_bytes(), None));
        assert!(!authorized(head("").as_bytes(), Some("s3cret")));
        for ok in [
            "authorization: Bearer s3cret\r\n",
            "AUTHORIZATION:bearer  s3cret \r\n",
        ] {
            assert!(authorized(head(ok).as_bytes(), Some("s3cret")), "{ok}");
        }
        for bad in [
            "authorization: Bearer s3cre\r\n",
            "authorization: Bearer s3cret2\r\n",
            "authorization: Basic s3cret\r\n",
            "x-authorization: Bearer s3cret\r\n",
            "authorization: Bearer\r\n",
        ] {
            assert!(!authorized(head(bad).as_bytes(), Some("s3cret")), "{bad}");
        }
        // The request line itself is not a header.
        let sneaky = "GET /metrics?authorization:Bearer%20s3cret HTTP/1.1\r\n\r\n";
        assert!(!authorized(sneaky.as_bytes(), Some("s3cret")));
    }

    #[test]
    fn a_reason_stays_on_one_short_line() {
        assert_eq!(one_line("a\nb\r\n"), "a b");
        assert_eq!(one_line(&"x".repeat(500)).len(), 200);
    }

    #[test]
    fn every_call_of_the_bot_has_a_route_class() {
        for what in [
            "acknowledge a click",
            "acknowledge a command",
            "add a follower",
            "add a player to a thread",
            "announce a new thread",
            "answer a command",
            "link a rematch",
            "open a DM",
            "open a new thread",
            "post a board",
            "post a rematch",
            "post a result",
            "retire an old board",
            "send a DM",
            "unarchive a thread",
            "update a lobby",
        ] {
            assert_ne!(route_class(what), "other", "{what}");
        }
        assert_eq!(route_class("something new"), "other");
        assert_eq!(route_class("open a DM"), "dm_open");
    }

    #[test]
    fn every_series_is_described_once() {
        let mut names: Vec<&str> = SERIES.iter().map(|s| s.0).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), SERIES.len());
        for (name, kind, _) in SERIES {
            assert!(name.starts_with("croupier_"), "{name}");
            assert_eq!(
                kind == Kind::Histogram,
                name.ends_with("_seconds"),
                "{name}: histograms and only they are in seconds"
            );
            assert_eq!(kind == Kind::Counter, name.ends_with("_total"), "{name}");
        }
    }
}
