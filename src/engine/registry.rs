//! The list of games. Adding a game = a folder under `games/` + one line in `games!` below.

use serde::{Deserialize, Serialize};
use std::fmt;

use super::any::{load_state, AnyGame, LoadError};
use super::game::{Game, GameOptions, OptionSpec, SetupError};

macro_rules! games {
    ($($variant:ident => $ty:ty, $id:literal, $name:literal;)+) => {
        /// Every game croupier hosts.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
        #[serde(rename_all = "snake_case")]
        pub enum GameKind {
            $($variant,)+
        }

        impl GameKind {
            pub const ALL: &'static [GameKind] = &[$(GameKind::$variant,)+];

            /// Stable id used in storage, notation of commands and custom ids.
            pub fn id(self) -> &'static str {
                match self { $(GameKind::$variant => $id,)+ }
            }

            /// The game's name (a proper noun: the same in every language).
            pub fn display_name(self) -> &'static str {
                match self { $(GameKind::$variant => $name,)+ }
            }

            pub fn option_specs(self) -> Vec<OptionSpec> {
                match self { $(GameKind::$variant => <$ty>::option_specs(),)+ }
            }

            pub fn seat_range(self) -> (usize, usize) {
                match self { $(GameKind::$variant => (<$ty>::MIN_SEATS, <$ty>::MAX_SEATS),)+ }
            }

            pub fn setup(
                self,
                options: &GameOptions,
                seats: usize,
                seed: u64,
            ) -> Result<Box<dyn AnyGame>, SetupError> {
                let (min, max) = self.seat_range();
                if seats < min || seats > max {
                    return Err(SetupError::SeatCount { kind: self, min, max, found: seats });
                }
                match self {
                    $(GameKind::$variant => Ok(Box::new(<$ty>::setup(options, seats, seed)?)),)+
                }
            }

            fn load_json(self, json: &str) -> Result<Box<dyn AnyGame>, LoadError> {
                match self { $(GameKind::$variant => load_state::<$ty>(json),)+ }
            }
        }
    };
}

games! {
    Cortexcape => crate::games::cortexcape::Cortexcape, "cortexcape", "Cortexcape";
    Portal => crate::games::portal::Portal, "portal", "Portal";
    Vortex => crate::games::vortex::Vortex, "vortex", "Vortex";
    Gates => crate::games::gates::Gates, "gates", "Gates of Delirium";
    SpaceLab => crate::games::spacelab::SpaceLab, "spacelab", "Space Lab";
}

impl GameKind {
    /// Reads a game id or name, case-insensitively.
    pub fn parse(s: &str) -> Option<GameKind> {
        let s = s.trim().to_ascii_lowercase();
        GameKind::ALL
            .iter()
            .copied()
            .find(|k| k.id() == s || k.display_name().to_ascii_lowercase() == s)
    }

    /// Loads a state stored by [`AnyGame::to_json`].
    pub fn load(json: &str) -> Result<Box<dyn AnyGame>, LoadError> {
        #[derive(Deserialize)]
        struct Head {
            kind: String,
        }
        let head: Head =
            serde_json::from_str(json).map_err(|e| LoadError::Corrupt(e.to_string()))?;
        let kind = GameKind::parse(&head.kind).ok_or(LoadError::UnknownKind(head.kind))?;
        kind.load_json(json)
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
    fn corrupt_and_unknown_states_are_clear_errors() {
        assert!(matches!(
            GameKind::load("not json"),
            Err(LoadError::Corrupt(_))
        ));
        assert_eq!(
            GameKind::load(r#"{"kind":"chess","schema":1,"state":{}}"#).unwrap_err(),
            LoadError::UnknownKind("chess".into())
        );
        assert!(matches!(
            GameKind::load(r#"{"kind":"cortexcape","schema":999,"state":{}}"#),
            Err(LoadError::Schema { found: 999, .. })
        ));
        assert!(matches!(
            GameKind::load(r#"{"kind":"cortexcape","schema":1,"state":{"x":1}}"#),
            Err(LoadError::Corrupt(_))
        ));
    }

    #[test]
    fn kinds_parse_by_id_and_name() {
        assert_eq!(GameKind::parse("Cortexcape"), Some(GameKind::Cortexcape));
        assert_eq!(GameKind::parse("nope"), None);
    }

    #[test]
    fn seat_count_is_checked_before_setup() {
        let err = GameKind::Cortexcape
            .setup(&GameOptions::new(), 5, 1)
            .unwrap_err();
        assert!(matches!(err, SetupError::SeatCount { found: 5, .. }));
    }
}
