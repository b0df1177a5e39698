//! Bot players: choose among the engine's legal options from what one seat may see. Pure.
//!
//! The method is information-set Monte Carlo tree search (single observer, after Cowling,
//! Powley and Whitehouse 2012): every iteration imagines one whole game consistent with the
//! seat's public and private views ([`Game::imagine`]: hidden cards of others, deck order and
//! the RNG are sampled), walks one shared tree of decisions keyed by option, plays out with the
//! game's cheap expert moves where it has them (else at random) and scores the end with the
//! game's estimate. A game may also answer a prompt exactly ([`Game::expert_option`]), which
//! replaces the search there (Cortexcape's path and challenge are exact searches).
//!
//! Honesty by construction: [`choose`] takes views, never the state; the one thing it learns
//! from the live game is the list of legal options, which the deciding seat sees anyway.

mod search;

#[cfg(test)]
mod tests;
use crate::engine::GameRng;
use serde::{Deserialize, Serialize};

use crate::engine::{Game, Seat};
pub use search::{Budget, Searchable};

/// How hard a bot thinks. Budgets are counted in playouts, not seconds, so a bot plays the
/// same way on a slow and a fast machine (and tests are repeatable).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Level {
    Easy,
    #[default]
    Normal,
    Hard,
}

impl Level {
    pub const ALL: [Level; 3] = [Level::Easy, Level::Normal, Level::Hard];

    pub fn id(self) -> &'static str {
        match self {
            Level::Easy => "easy",
            Level::Normal => "normal",
            Level::Hard => "hard",
        }
    }

    pub fn parse(s: &str) -> Option<Level> {
        let s = s.trim().to_ascii_lowercase();
        Level::ALL.into_iter().find(|l| l.id() == s)
    }

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
pub fn choose<G: Game>(
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

/// The default estimate of a position that is not over: each seat's share of first place by
/// the running scores (1 for a clear lead, 0 for last), plus a small margin term so the search
/// prefers bigger leads. With one seat (solitaire), a score mapped into (0, 1).
pub fn estimate_from_scores(scores: &[i64], lower_is_better: bool) -> Vec<f64> {
    let signed: Vec<f64> = scores
        .iter()
        .map(|&s| {
            // Scores are small integers; the conversion is exact.
            #[allow(clippy::cast_precision_loss)]
            let v = s as f64;
            if lower_is_better {
                -v
            } else {
                v
            }
        })
        .collect();
    let n = signed.len();
    if n == 1 {
        let v = signed[0];
        return vec![1.0 / (1.0 + (-v / 10.0).exp())];
    }
    let max = signed.iter().copied().fold(f64::MIN, f64::max);
    let min = signed.iter().copied().fold(f64::MAX, f64::min);
    let spread = (max - min).max(1.0);
    signed
        .iter()
        .map(|&v| {
            let ahead = signed.iter().filter(|&&o| o > v).count();
            let tied = signed.iter().filter(|&&o| o == v).count();
            // Shared places split the difference: two tied leaders of two get 0.5 each.
            #[allow(clippy::cast_precision_loss)]
            let rank = (ahead as f64 + (tied as f64 - 1.0) / 2.0) / (n as f64 - 1.0);
            0.9 * (1.0 - rank) + 0.1 * (v - min) / spread
        })
        .collect()
}

/// A random legal option, seeded: the timeout policy's fallback and the benchmarks' opponent.
pub fn random_index(len: usize, seed: u64) -> Option<usize> {
    (len > 0).then(|| GameRng::seed_from_u64(seed).gen_range(0..len))
}
