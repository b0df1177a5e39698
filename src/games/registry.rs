//! The list of games: what each [`GameKind`] is. Adding a game = a folder under `games/`, its
//! variant in `engine::GameKind`, and one line in `games!` below.
//!
//! The engine names kinds but knows no game; this registry, one layer up, gives `GameKind` its
//! per-game methods (`setup`, `load`, `option_specs`, `seat_range`: inherent methods may be
//! written anywhere in the crate, so callers still write `GameKind::load(..)`), and lets a layer
//! above (the bots) reach the concrete game behind a `dyn AnyGame` through [`visit`].

use serde::Deserialize;

use crate::engine::{
    load_state, AnyGame, BotHooks, Game, GameKind, GameOptions, LoadError, OptionSpec, Present,
    SetupError,
};

/// Work done on a game with its concrete type known (`ai` plays bots this way). Rust has no
/// generic closures, so this is a trait with one generic method.
pub trait GameVisitor {
    type Out;
    fn visit<G: Game + Present + BotHooks>(self, game: &G) -> Self::Out;
}

macro_rules! games {
    ($($variant:ident => $ty:ty;)+) => {
        // Each line's type declares the kind it is listed under.
        $(const _: () = assert!(matches!(<$ty as Game>::KIND, GameKind::$variant));)+

        impl GameKind {
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

        /// Runs `visitor` on the concrete game behind `game`. `None` only if a game's
        /// `kind()` were not its type's (impossible for the games listed here).
        pub fn visit<V: GameVisitor>(game: &dyn AnyGame, visitor: V) -> Option<V::Out> {
            match game.kind() {
                $(GameKind::$variant => game
                    .as_any()
                    .downcast_ref::<$ty>()
                    .map(|g| visitor.visit(g)),)+
            }
        }
    };
}

games! {
    Cortexcape => super::cortexcape::Cortexcape;
    Portal => super::portal::Portal;
    Vortex => super::vortex::Vortex;
    Gates => super::gates::Gates;
    SpaceLab => super::spacelab::SpaceLab;
}

impl GameKind {
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
    fn seat_count_is_checked_before_setup() {
        let err = GameKind::Cortexcape
            .setup(&GameOptions::new(), 5, 1)
            .unwrap_err();
        assert!(matches!(err, SetupError::SeatCount { found: 5, .. }));
    }

    /// Every kind is listed, and `visit` reaches the game behind each (what the bots rely on).
    #[test]
    fn every_kind_sets_up_and_is_visited_as_itself() {
        struct KindOf;
        impl GameVisitor for KindOf {
            type Out = GameKind;
            fn visit<G: Game + Present + BotHooks>(self, _game: &G) -> GameKind {
                G::KIND
            }
        }
        for &kind in GameKind::ALL {
            let (min, _) = kind.seat_range();
            let game = kind.setup(&GameOptions::new(), min, 7).unwrap();
            assert_eq!(visit(game.as_ref(), KindOf), Some(kind));
        }
    }
}
