//! Configuration, read once at start-up from the environment (and `.env`).

use std::fmt;

use crate::service::Timers;

/// The Discord bot token. Its `Debug` and `Display` never show it.
#[derive(Clone)]
pub struct Token(String);

impl Token {
    /// Wraps a token read from elsewhere than the environment (tests, a secrets file).
    pub fn new(token: impl Into<String>) -> Token {
        Token(token.into())
    }

    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("[redacted]")
    }
}

impl fmt::Display for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("[redacted]")
    }
}

/// Where the embedded default database lives.
pub const DEFAULT_DATABASE_URL: &str = "sqlite://data/croupier.db";

#[derive(Clone, Debug)]
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
}

impl Config {
    /// Reads `.env` if present (never overriding the real environment), then the variables.
    pub fn from_env() -> Config {
        let _ = dotenvy::dotenv();
        let token = std::env::var("DISCORD_TOKEN")
            .ok()
            .map(|t| t.trim().to_string())
            .filter(|t| !t.is_empty())
            .map(Token);
        let database_url = std::env::var("DATABASE_URL")
            .ok()
            .filter(|u| !u.trim().is_empty())
            .unwrap_or_else(|| DEFAULT_DATABASE_URL.to_string());
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
        }
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
    if let Some(h) = var_u64("DEFAULT_CLOCK_HOURS").filter(|h| *h > 0) {
        t.default_clock_secs = i64::try_from(h).unwrap_or(24).saturating_mul(hour);
    }
    t
}

/// A numeric id from the environment; empty or unreadable is `None` (with a warning).
fn var_u64(name: &str) -> Option<u64> {
    let v = std::env::var(name).ok()?;
    let v = v.trim();
    if v.is_empty() {
        return None;
    }
    match v.parse() {
        Ok(n) => Some(n),
        Err(_) => {
            tracing::warn!("{name} is not a number; ignoring it");
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn token_never_prints() {
        let t = Token("secret-abc".into());
        assert_eq!(format!("{t:?} {t}"), "[redacted] [redacted]");
        let c = Config {
            token: Some(t),
            database_url: "sqlite::memory:".into(),
            dev_guild: None,
            api_base: None,
            application_id: None,
            timers: Timers::default(),
            scheduler_tick_secs: 5,
        };
        assert!(!format!("{c:?}").contains("secret"));
    }
}
