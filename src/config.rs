//! Configuration, read once at start-up from the environment (and `.env`).

use std::fmt;

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
        }
    }
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
        };
        assert!(!format!("{c:?}").contains("secret"));
    }
}
