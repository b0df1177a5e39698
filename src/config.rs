//! Configuration, read once at start-up from the environment (and `.env`).

use std::fmt;

/// The Discord bot token. Its `Debug` and `Display` never show it.
#[derive(Clone)]
pub struct Token(String);

impl Token {
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
        };
        assert!(!format!("{c:?}").contains("secret"));
    }
}
