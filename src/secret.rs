//! A secret read from the environment (the Discord token, the metrics token): below every
//! layer that holds one, so none of them names the configuration to carry it.

use std::fmt;

/// A token (Discord's, the metrics scraper's). Its `Debug` and `Display` never show it.
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
