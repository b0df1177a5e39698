//! croupier: a Discord bot that hosts turn-based board games.
//!
//! The code map and the invariants are in `ARCHITECTURE.md`. In short: `engine` and `games`
//! (with `render`, `rules` and `i18n`) are pure; `store` is the only module that knows SQL;
//! `service` joins them behind plain commands and outputs; `table` is the terminal front end;
//! `ops` serves metrics and the health check to whoever runs the bot.

pub mod ai;
pub mod bot;
pub mod clock;
pub mod config;
pub mod engine;
pub mod games;
pub mod i18n;
pub mod ids;
pub mod model;
pub mod ops;
pub mod render;
pub mod rules;
pub mod secret;
pub mod service;
pub mod store;
pub mod table;
