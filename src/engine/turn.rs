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

/// A forced option as the turn flow hands it to [`Game::apply_forced`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Forced<A> {
    /// The seat it is taken for (from [`Game::forced`]).
    pub seat: Seat,
    pub action: A,
    /// The seat whose option the chain of forced options follows; `None` when a setup plays
    /// on by itself ([`take_forced`] with no actor).
    pub actor: Option<Seat>,
}

/// Applies `action` for `seat`, then the forced options after it.
pub(crate) fn apply_then_forced<G: Game>(
    game: &mut G,
    seat: Seat,
    action: &G::Action,
) -> Result<Applied<G::Event>, G::Error> {
    let mut applied = game.apply_one(seat, action)?;
    take_forced(game, Some(seat), &mut applied);
    Ok(applied)
}

/// Takes every forced option in turn, adding its events, its barrier and its reveal to `applied`.
/// `actor` is the seat whose option came before (see [`Forced::actor`]); a setup that plays
/// on by itself calls this with `None`.
pub fn take_forced<G: Game>(game: &mut G, actor: Option<Seat>, applied: &mut Applied<G::Event>) {
    for _ in 0..MAX_FORCED {
        let Some((seat, action)) = game.forced() else {
            return;
        };
        // A forced option is legal now, so it applies; one the rules refuse is a bug of the
        // game's `forced`, and asking the seat is the safe way on.
        let step = game.apply_forced(&Forced {
            seat,
            action,
            actor,
        });
        debug_assert!(step.is_ok(), "forced option refused: {step:?}");
        let Ok(mut step) = step else {
            return;
        };
        applied.events.append(&mut step.events);
        applied.barrier |= step.barrier;
        applied.revealed |= step.revealed;
    }
}
