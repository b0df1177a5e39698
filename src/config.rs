//! Configuration, read once at start-up from the environment (and `.env`).

use std::fmt;

use crate::secret::Token;
use crate::service::Timers;

/// Where the embedded default database lives.
pub const DEFAULT_DATABASE_URL: &str = "sqlite://data/croupier.db";

/// `Debug` is written by hand: the database URL may carry a password.
#[derive(Clone)]
pub struct Config {
    /// `DISCORD_TOKEN`: the bot token; `None` runs the local table instead.
    pub token: Option<Token>,
    /// `DATABASE_URL`: `sqlite://…` (default) or `postgres://…`.
    pub database_url: String,
    /// `DISCORD_DEV_GUILD`: register slash commands in this guild only (instant; for testing).
    pub dev_guild: Option<u64>,
    /// `DISCORD_API_BASE`: send REST calls to this base instead of Discord (a proxy, or the
    /// fake Discord of the tests); the gateway URL is then the one it returns.
    pub api_base: Option<String>,
    /// `DISCORD_APPLICATION_ID`: only used to print an invite link.
    pub application_id: Option<u64>,
    /// Reminders, digest, default clock and lost boards: `REMIND_AT_PERCENT`,
    /// `LAST_CALL_HOURS`, `MAX_REMINDERS`, `DIGEST_HOUR`, `DEFAULT_CLOCK_HOURS`,
    /// `BOARD_GRACE_SECS`.
    pub timers: Timers,
    /// `SCHEDULER_TICK_SECS`: how often due jobs are looked for (default 5; 0 runs no
    /// scheduler in this process).
    pub scheduler_tick_secs: u64,
    /// `COMMAND_COOLDOWNS`: per-member cooldowns of the commands that write (default on;
    /// `off` for a test harness that types faster than people).
    pub command_cooldowns: bool,
    /// `DISCORD_GLOBAL_LIMIT`: requests per second Discord allows the bot across routes
    /// (default 50; Discord grants some large bots more).
    pub global_limit: u32,
    /// `METRICS_ADDR`: where `/metrics` and `/healthz` are served (e.g. `0.0.0.0:9100`);
    /// unset: no listener, nothing recorded.
    pub metrics_addr: Option<std::net::SocketAddr>,
    /// `METRICS_TOKEN`: when set, `/metrics` and `/healthz` answer only requests that carry
    /// `Authorization: Bearer <token>` (`croupier healthcheck` sends it).
    pub metrics_token: Option<Token>,
    /// `DATABASE_POOL_SIZE`: connections the store keeps open at most (default: 4 for a
    /// SQLite file, 8 for PostgreSQL).
    pub pool_size: Option<u32>,
    /// `LOG_FORMAT=json`: one JSON object per log line (for a log collector); plain text
    /// otherwise.
    pub json_logs: bool,
}

impl Config {
    /// Reads `.env` if present (never overriding the real environment), then the variables.
    pub fn from_env() -> Config {
        let _ = dotenvy::dotenv();
        let token = secret("DISCORD_TOKEN").map(Token::new);
        let database_url =
            secret("DATABASE_URL").unwrap_or_else(|| DEFAULT_DATABASE_URL.to_string());
        Config {
            token,
            database_url,
            dev_guild: var_u64("DISCORD_DEV_GUILD"),
            api_base: std::env::var("DISCORD_API_BASE")
                .ok()
                .map(|u| u.trim().to_string())
                .filter(|u| !u.is_empty()),
            application_id: var_u64("DISCORD_APPLICATION_ID"),
            timers: timers_from_env(),
            scheduler_tick_secs: var_u64("SCHEDULER_TICK_SECS").unwrap_or(5),
            command_cooldowns: !matches!(
                std::env::var("COMMAND_COOLDOWNS")
                    .unwrap_or_default()
                    .trim()
                    .to_ascii_lowercase()
                    .as_str(),
                "off" | "0" | "false" | "no"
            ),
            global_limit: var_u64("DISCORD_GLOBAL_LIMIT")
                .and_then(|n| u32::try_from(n).ok())
                .filter(|n| *n > 0)
                .unwrap_or(crate::bot::DISCORD_GLOBAL_LIMIT),
            metrics_addr: metrics_addr(),
            metrics_token: secret("METRICS_TOKEN").map(Token::new),
            pool_size: var_u64("DATABASE_POOL_SIZE")
                .and_then(|n| u32::try_from(n.clamp(1, 100)).ok()),
            json_logs: std::env::var("LOG_FORMAT")
                .is_ok_and(|f| f.trim().eq_ignore_ascii_case("json")),
        }
    }
}

/// A secret from `NAME`, or else from the file `NAME_FILE` names (Docker and compose secrets,
/// Kubernetes mounts), trimmed; `None` when neither is set or both are empty. A `NAME_FILE`
/// that cannot be read is reported (by path, never by content) and ignored.
fn secret(name: &str) -> Option<String> {
    let direct = std::env::var(name)
        .ok()
        .map(|v| v.trim().to_string())
        .filter(|v| !v.is_empty());
    direct.or_else(|| {
        let path = std::env::var(format!("{name}_FILE")).ok()?;
        let path = path.trim();
        if path.is_empty() {
            return None;
        }
        match std::fs::read_to_string(path) {
            Ok(text) => Some(text.trim().to_string()).filter(|v| !v.is_empty()),
            Err(e) => {
                eprintln!("croupier: {name}_FILE={path} cannot be read ({e}); ignored");
                None
            }
        }
    })
}

/// `METRICS_ADDR`, if set: a socket address (`127.0.0.1:9100`, `[::]:9100`); anything else
/// is ignored with a warning.
pub fn metrics_addr() -> Option<std::net::SocketAddr> {
    var_parsed("METRICS_ADDR", "an address like 0.0.0.0:9100")
}

impl fmt::Debug for Config {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Config")
            .field("token", &self.token)
            .field(
                "database_url",
                &crate::store::redact_url(&self.database_url),
            )
            .field("dev_guild", &self.dev_guild)
            .field("api_base", &self.api_base)
            .field("application_id", &self.application_id)
            .field("timers", &self.timers)
            .field("scheduler_tick_secs", &self.scheduler_tick_secs)
            .field("command_cooldowns", &self.command_cooldowns)
            .field("global_limit", &self.global_limit)
            .field("metrics_addr", &self.metrics_addr)
            .field("metrics_token", &self.metrics_token)
            .field("pool_size", &self.pool_size)
            .field("json_logs", &self.json_logs)
            .finish()
    }
}

fn timers_from_env() -> Timers {
    let mut t = Timers::default();
    let hour = 3600_i64;
    if let Some(p) = var_u64("REMIND_AT_PERCENT") {
        t.remind_pct = u8::try_from(p.min(100)).unwrap_or(50);
    }
    if let Some(h) = var_u64("LAST_CALL_HOURS") {
        t.last_call_secs = i64::try_from(h).unwrap_or(2).saturating_mul(hour);
    }
    if let Some(n) = var_u64("MAX_REMINDERS") {
        t.max_reminders = u8::try_from(n.min(10)).unwrap_or(2);
    }
    if let Some(h) = var_u64("DIGEST_HOUR") {
        t.digest_minute = u16::try_from(h.min(23) * 60).unwrap_or(9 * 60);
    }
    if let Some(s) = var_u64("BOARD_GRACE_SECS") {
        t.board_grace_secs = s;
    }
    if let Some(h) = var_u64("LOBBY_IDLE_HOURS").filter(|h| *h > 0) {
        // At most a year: no arithmetic near the limits of a timestamp.
        t.lobby_idle_secs = i64::try_from(h.min(24 * 365)).unwrap_or(24) * hour;
    }
    if let Some(h) = var_u64("ARCHIVE_GRACE_HOURS") {
        // 0 archives a finished game's thread at once; at most 30 days.
        t.archive_grace_secs = i64::try_from(h.min(24 * 30)).unwrap_or(24) * hour;
    }
    if let Some(n) = var_u64("MAX_LOBBIES_PER_MEMBER").filter(|n| *n > 0) {
        t.lobbies_per_member = u32::try_from(n).unwrap_or(u32::MAX);
    }
    if let Some(n) = var_u64("MAX_LOBBIES_PER_CHANNEL").filter(|n| *n > 0) {
        t.lobbies_per_channel = u32::try_from(n).unwrap_or(u32::MAX);
    }
    if let Some(n) = var_u64("MAX_GAMES_PER_MEMBER").filter(|n| *n > 0) {
        t.games_per_member = u32::try_from(n).unwrap_or(u32::MAX);
    }
    if let Some(n) = var_u64("MAX_GAMES_PER_CHANNEL").filter(|n| *n > 0) {
        t.games_per_channel = u32::try_from(n).unwrap_or(u32::MAX);
    }
    if let Some(n) = var_u64("MAX_THREADS_PER_SERVER") {
        // 0: every game is played in its channel.
        t.threads_per_server = u32::try_from(n).unwrap_or(u32::MAX);
    }
    if let Some(d) = var_u64("IDLE_ARCHIVE_DAYS").filter(|d| *d > 0) {
        // At most a year: no arithmetic near the limits of a timestamp.
        t.idle_archive_secs = i64::try_from(d.min(365)).unwrap_or(7) * 24 * hour;
    }
    if let Some(n) = var_u64("SCHEDULER_CONCURRENCY").filter(|n| *n > 0) {
        // More than a few hundred at once only queues on the database's connections.
        t.scheduler_concurrency = usize::try_from(n.min(256)).unwrap_or(1);
    }
    if let Some(h) = var_u64("DEFAULT_CLOCK_HOURS").filter(|h| *h > 0) {
        // Within the longest clock a turn may have.
        let secs = i64::try_from(h).unwrap_or(24).saturating_mul(hour);
        t.default_clock_secs = secs.min(crate::clock::MAX_TURN_SECS);
    }
    t
}

/// A numeric id from the environment; empty or unreadable is `None` (with a warning).
fn var_u64(name: &str) -> Option<u64> {
    var_parsed(name, "a number")
}

/// A variable read as a `T`; empty or unreadable is `None` (with a warning saying it is not
/// `what`).
fn var_parsed<T: std::str::FromStr>(name: &str, what: &str) -> Option<T> {
    let v = std::env::var(name).ok()?;
    let v = v.trim();
    if v.is_empty() {
        return None;
    }
    match v.parse() {
        Ok(n) => Some(n),
        Err(_) => {
            tracing::warn!("{name} is not {what}; ignoring it");
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(token: Option<Token>, database_url: &str) -> Config {
        Config {
            token,
            database_url: database_url.into(),
            dev_guild: None,
            api_base: None,
            application_id: None,
            timers: Timers::default(),
            scheduler_tick_secs: 5,
            command_cooldowns: true,
            global_limit: 50,
            metrics_addr: None,
            metrics_token: Some(Token::new("scrape-secret")),
            pool_size: None,
            json_logs: false,
        }
    }

    #[test]
    fn secrets_come_from_the_variable_or_else_its_file() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("token");
        std::fs::write(&file, "  from-a-file\n").unwrap();
        // Variable names of this test alone: tests run in parallel threads of one process.
        std::env::set_var("CROUPIER_TEST_SECRET_FILE", &file);
        assert_eq!(
            secret("CROUPIER_TEST_SECRET").as_deref(),
            Some("from-a-file")
        );
        std::env::set_var("CROUPIER_TEST_SECRET", " direct ");
        assert_eq!(secret("CROUPIER_TEST_SECRET").as_deref(), Some("direct"));
        std::env::set_var("CROUPIER_TEST_SECRET", "");
        std::env::set_var("CROUPIER_TEST_SECRET_FILE", dir.path().join("missing"));
        assert_eq!(secret("CROUPIER_TEST_SECRET"), None);
        std::env::remove_var("CROUPIER_TEST_SECRET");
        std::env::remove_var("CROUPIER_TEST_SECRET_FILE");
    }

    #[test]
    fn token_never_prints() {
        let t = Token::new("secret-abc");
        assert_eq!(format!("{t:?} {t}"), "[redacted] [redacted]");
        let c = config(Some(t), "sqlite::memory:");
        assert!(!format!("{c:?}").contains("secret"), "{c:?}");
    }

    #[test]
    fn database_passwords_never_print() {
        for url in [
            "postgres://bot:hunter2@db.example/croupier",
            "postgres://db.example/croupier?user=bot&password=hunter2",
        ] {
            let c = config(None, url);
            let shown = format!("{c:?} {c:#?}");
            assert!(!shown.contains("hunter2"), "{shown}");
            assert!(shown.contains("db.example"), "{shown}");
        }
    }
}
