//! The turn flow: an option, then the options the rules take by themselves ([`Game::forced`]),
//! all one step. Every path that applies an option goes through [`Game::apply`], which calls
//! [`apply_then_forced`]: a typed line or a button (`AnyGame`), a replay of the move log, the
//! bots' search and the games' own macros, so a forced option is taken the same way
//! everywhere and is never stored as a move of its own.

use super::game::{Applied, Game};
use super::Seat;

/// More forced options in a row than any game takes: a game whose `forced` never ends stops
/// here rather than hanging its table.
const MAX_FORCED: usize = 10_000;

/// Applies `action` for `seat`, then [`take_forced`].
pub(crate) fn apply_then_forced<G: Game>(
    game: &mut G,
    seat: Seat,
    action: &G::Action,
) -> Result<Applied<G::Event>, G::Error> {
    let mut applied = game.apply_one(seat, action)?;
    take_forced(game, &mut applied);
    Ok(applied)
}

/// Takes every forced option in turn, adding its events (marked by [`Game::mark_forced`])
/// and its barrier to `applied`. Also for a setup that plays on by itself.
pub fn take_forced<G: Game>(game: &mut G, applied: &mut Applied<G::Event>) {
    for _ in 0..MAX_FORCED {
        let Some((seat, action)) = game.forced() else {
            return;
        };
        // A forced option is one of the prompt's legal options, so it applies; one the rules
        // refuse is a bug of the game's `forced`, and asking the seat is the safe way on.
        let step = game.apply_one(seat, &action);
        debug_assert!(step.is_ok(), "forced option {action:?} refused: {step:?}");
        let Ok(mut step) = step else {
            return;
        };
        G::mark_forced(&mut step.events);
        applied.events.append(&mut step.events);
        applied.barrier |= step.barrier;
    }
}
