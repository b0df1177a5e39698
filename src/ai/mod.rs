//! Bot players: choose among the engine's legal options from what one seat may see. Pure.
//!
//! The method is information-set Monte Carlo tree search (single observer, after Cowling,
//! Powley and Whitehouse 2012): every iteration imagines one whole game consistent with the
//! seat's public and private views ([`BotHooks::imagine`]: hidden cards of others, deck order and
//! the RNG are sampled), walks one shared tree of decisions keyed by option, plays out with the
//! game's cheap expert moves where it has them (else at random) and scores the end with the
//! game's estimate. A game may also answer a prompt exactly ([`BotHooks::expert_option`]), which
//! replaces the search there (Cortexcape's path and challenge are exact searches).
//!
//! Honesty by construction: [`choose`] takes views, never the state; the one thing it learns
//! from the live game is the list of legal options, which the deciding seat sees anyway.

pub mod analysis;
mod search;

#[cfg(test)]
mod tests;
use crate::engine::GameRng;
use serde::Serialize;

pub use crate::engine::estimate_from_scores;
use crate::engine::{AnyGame, BotHooks, Game, Present, Seat};
use crate::games::GameVisitor;
pub use search::{Budget, RootStat, Searchable};

/// How hard a bot thinks (stored with a game, so the word itself lives below the store);
/// what each level spends is said here.
pub use crate::model::Level;

impl Level {
    /// Search budget: tree iterations, and the effort a game's expert may spend (e.g. layouts
    /// tried by Cortexcape's local search).
    pub fn budget(self) -> Budget {
        match self {
            Level::Easy => Budget {
                iterations: 40,
                effort: 8,
                playout_depth: 60,
            },
            Level::Normal => Budget {
                iterations: 300,
                effort: 120,
                playout_depth: 120,
            },
            Level::Hard => Budget {
                iterations: 1200,
                effort: 600,
                playout_depth: 200,
            },
        }
    }

    /// Chance that an easy bot plays a plain random option: keeps it beatable for beginners.
    fn blunder_rate(self) -> f64 {
        match self {
            Level::Easy => 0.25,
            Level::Normal | Level::Hard => 0.0,
        }
    }
}

/// How a bot arrived at its option (for logs, tests and benchmarks; never shown as advice).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Method {
    /// The game's own exact answer for this prompt.
    Expert,
    /// Tree search over imagined games.
    Search,
    /// A random legal option: the game has no bot yet, or an easy bot's deliberate slip.
    Random,
}

/// A bot's decision: an index into the legal options it was given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Choice {
    pub index: usize,
    pub method: Method,
}

/// Chooses one of `legal` (the pending prompt's options, for `seat`) from the views only.
/// `None` when `legal` is empty.
pub fn choose<G: BotHooks>(
    public: &G::PublicView,
    private: Option<&G::PrivateView>,
    seat: Seat,
    legal: &[G::Action],
    level: Level,
    seed: u64,
) -> Option<Choice> {
    if legal.is_empty() {
        return None;
    }
    let mut rng = GameRng::seed_from_u64(seed);
    let random = |rng: &mut GameRng| Choice {
        index: rng.gen_range(0..legal.len()),
        method: Method::Random,
    };
    if legal.len() == 1 {
        return Some(Choice {
            index: 0,
            method: Method::Expert,
        });
    }
    if rng.gen_bool(level.blunder_rate()) {
        return Some(random(&mut rng));
    }
    let budget = level.budget();
    // One imagined game to ask the expert; the search imagines a fresh one per iteration.
    let Some(probe) = G::imagine(public, private, seat, &mut rng) else {
        return Some(random(&mut rng));
    };
    if let Some(action) = probe.expert_option(budget.effort, &mut rng) {
        if let Some(index) = legal.iter().position(|a| *a == action) {
            return Some(Choice {
                index,
                method: Method::Expert,
            });
        }
    }
    let imagine = |rng: &mut GameRng| G::imagine(public, private, seat, rng);
    let index = search::best_root_option(imagine, seat, legal, budget, &mut rng)
        .unwrap_or_else(|| rng.gen_range(0..legal.len()));
    Some(Choice {
        index,
        method: Method::Search,
    })
}

/// A bot's decision for the pending prompt.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BotMove {
    pub seat: Seat,
    /// Canonical notation of the chosen option.
    pub notation: String,
    pub method: Method,
}

/// A bot plays a game: any game behind a `dyn AnyGame` (reached through the games registry),
/// or a concrete one.
pub trait BotPlayer {
    /// A bot's option for the pending prompt, chosen from the deciding seat's views only.
    fn bot_option(&self, level: Level, seed: u64) -> Option<BotMove>;
}

impl<G: BotHooks> BotPlayer for G {
    fn bot_option(&self, level: Level, seed: u64) -> Option<BotMove> {
        let prompt = Game::prompt(self)?;
        // The bot gets the views of the deciding seat and its options, never the state.
        let public = self.public_view();
        let private = self.private_view(prompt.seat);
        let choice = choose::<G>(
            &public,
            private.as_ref(),
            prompt.seat,
            &prompt.options,
            level,
            seed,
        )?;
        let action = prompt.options.get(choice.index)?;
        Some(BotMove {
            seat: prompt.seat,
            notation: self.notation(action),
            method: choice.method,
        })
    }
}

impl BotPlayer for dyn AnyGame {
    fn bot_option(&self, level: Level, seed: u64) -> Option<BotMove> {
        struct Play {
            level: Level,
            seed: u64,
        }
        impl GameVisitor for Play {
            type Out = Option<BotMove>;
            fn visit<G: Game + Present + BotHooks>(self, game: &G) -> Option<BotMove> {
                game.bot_option(self.level, self.seed)
            }
        }
        crate::games::visit(self, Play { level, seed }).flatten()
    }
}

/// A random legal option, seeded: the timeout policy's fallback and the benchmarks' opponent.
pub fn random_index(len: usize, seed: u64) -> Option<usize> {
    (len > 0).then(|| GameRng::seed_from_u64(seed).gen_range(0..len))
}
