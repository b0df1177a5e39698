//! The integration suite in one binary: every file here is a module, so the test support
//! (the fake Discord, the bot harness, the database kit) is compiled and linked once instead
//! of once per file (CI time on two cores, see BENCHMARKS.md "CI"). `tests/ops.rs` stays a
//! binary of its own: it reads process-wide metrics, which other tests would move, and
//! `tests/golden` is the image suite. Run one file's tests with `cargo test --test suite
//! fair_play::`.

#[path = "../support/fake_discord/mod.rs"]
mod fake_discord;

#[path = "../support/bot_play.rs"]
mod bot_play;

#[macro_use]
#[path = "../support/store_db.rs"]
mod store_db;

mod analysis;
mod backup;
mod bad_input;
mod crash;
mod e2e_bot;
mod engine_contract;
mod fair_play;
mod fake_discord_selftest;
mod faults;
mod game_life;
mod gateway;
mod leaks;
mod learn;
mod permissions;
mod preferences;
mod ratings_replays;
mod rules_pages;
mod service;
mod service_clock;
mod service_lobby;
mod store;
mod store_clocks;
mod store_lobby;
mod table;
mod tidy;
mod upgrades;
