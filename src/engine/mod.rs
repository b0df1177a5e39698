//! The engine contract and the type-erased registry. Pure: no I/O, no Discord, no SQL.

mod any;
mod game;
mod ids;
mod registry;
pub mod rng;
mod words;

pub use any::{play_out, AnyGame, AppliedMove, BotMove, LoadError, PlayError, PromptInfo};
pub use game::{
    resolve_options, Applied, Game, GameOptions, LineKeeps, OptionSpec, Outcome, ParseError,
    Prompt, Reject, RenderCtx, ResultDetails, RuleErrorText, ScorePart, SetupError,
};
pub use ids::{BySeat, GameId, Seat, Version};
pub use registry::GameKind;
pub use rng::{rng_from_seed, GameRng};
pub use words::{option_phrase, option_words};
