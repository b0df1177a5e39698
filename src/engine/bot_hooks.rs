//! What bot players (`src/ai`, a layer above) need of a game beyond its rules and views. Every
//! hook has a default, so a game without a bot of its own writes `impl BotHooks for G {}` and
//! is played at random by the bots.

use super::{GameRng, Present, Seat};

/// The bots' hooks into a game. Called on imagined states (never the live one), except
/// `imagine`, which builds them from one seat's views.
pub trait BotHooks: Present {
    /// A whole state consistent with what `seat` may see, its public and private views, with
    /// everything hidden from it (others' hands, deck order, the RNG) sampled from `rng`.
    /// `None`: this game has no bot player yet (bots then play at random).
    fn imagine(
        _public: &Self::PublicView,
        _private: Option<&Self::PrivateView>,
        _seat: Seat,
        _rng: &mut GameRng,
    ) -> Option<Self> {
        None
    }

    /// The game's own answer for the pending prompt, when it can compute a good one (exact
    /// search). `effort` 0 asks for a cheap answer (used in every playout step); larger values
    /// allow more work (the level's budget).
    fn expert_option(&self, _effort: u32, _rng: &mut GameRng) -> Option<Self::Action> {
        None
    }

    /// Who decides now, or `None` when the game is over. Playouts ask it at every step to play
    /// the expert's hint without listing every option; a game whose options are costly to
    /// list answers it directly.
    fn deciding_seat(&self) -> Option<Seat> {
        self.prompt().map(|p| p.seat)
    }

    /// A value in [0, 1] per seat for a position a playout stopped at.
    fn estimate(&self) -> Vec<f64> {
        estimate_from_scores(&self.scores(), Self::LOWER_SCORE_WINS)
    }
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
