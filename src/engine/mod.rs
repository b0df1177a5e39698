//! The engine contract (rules, presentation, bot hooks) and the type-erased game. Pure: no
//! I/O, no Discord, no SQL. A leaf: it knows no game, no bot and no layer above it (the list of
//! games is `games/registry.rs`; `tests/suite/tidy.rs` checks the direction).

mod any;
mod bot_hooks;
mod game;
mod kind;
pub mod notation;
pub mod rng;
mod turn;
mod words;

pub use crate::ids::{BySeat, GameId, Seat, Version};
pub(crate) use any::load_state;
pub use any::{play_out, AnyGame, AppliedMove, LoadError, PlayError, PromptInfo};
pub use bot_hooks::{estimate_from_scores, BotHooks};
pub use game::{
    resolve_options, Applied, Game, GameOptions, LineKeeps, OptionSpec, Outcome, ParseError,
    Present, Prompt, Reject, RenderCtx, ResultDetails, Reveal, RuleErrorText, ScorePart, Secrecy,
    SetupError,
};
pub use kind::GameKind;
pub use rng::{rng_from_seed, GameRng};
pub use turn::{take_forced, Forced};
pub use words::{option_phrase, option_words};
