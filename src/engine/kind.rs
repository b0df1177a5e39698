//! The kinds of game croupier hosts: a plain enum the engine may name (a game's `KIND`, its
//! errors), with each kind's stable id and name. What each kind *is* (its rules type, setup
//! and loading) lives above the engine, in `games/registry.rs`, so the engine knows no game.

use serde::{Deserialize, Serialize};
use std::fmt;

/// Every game croupier hosts. Adding one = a variant here + its line in `games!`
/// (`games/registry.rs`), whose matches fail to compile until both agree.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GameKind {
    Cortexcape,
    Portal,
    Vortex,
    Gates,
    SpaceLab,
}

impl GameKind {
    pub const ALL: &'static [GameKind] = &[
        GameKind::Cortexcape,
        GameKind::Portal,
        GameKind::Vortex,
        GameKind::Gates,
        GameKind::SpaceLab,
    ];

    /// Stable id used in storage, notation of commands and custom ids.
    pub fn id(self) -> &'static str {
        match self {
            GameKind::Cortexcape => "cortexcape",
            GameKind::Portal => "portal",
            GameKind::Vortex => "vortex",
            GameKind::Gates => "gates",
            GameKind::SpaceLab => "spacelab",
        }
    }

    /// The game's name (a proper noun: the same in every language).
    pub fn display_name(self) -> &'static str {
        match self {
            GameKind::Cortexcape => "Cortexcape",
            GameKind::Portal => "Portal",
            GameKind::Vortex => "Vortex",
            GameKind::Gates => "Gates of Delirium",
            GameKind::SpaceLab => "Space Lab",
        }
    }

    /// Reads a game id or name, case-insensitively.
    pub fn parse(s: &str) -> Option<GameKind> {
        let s = s.trim().to_ascii_lowercase();
        GameKind::ALL
            .iter()
            .copied()
            .find(|k| k.id() == s || k.display_name().to_ascii_lowercase() == s)
    }
}

impl fmt::Display for GameKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.display_name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_parse_by_id_and_name() {
        assert_eq!(GameKind::parse("Cortexcape"), Some(GameKind::Cortexcape));
        assert_eq!(GameKind::parse("nope"), None);
    }
}
