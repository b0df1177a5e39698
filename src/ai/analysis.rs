//! "Where did I lose?" (issue 41, item 5): a finished game's decisions of one seat, each
//! weighed by the bots' search from that seat's views at the time, and the largest drops its
//! own choices caused. Pure, like the rest of `ai`.
//!
//! The measure: at a decision, the search first finds the option the bot would have taken (the
//! game's expert answer where it has one, else the most visited root option). Then one more
//! search, over those two options only (the seat's and the bot's), gives each its mean value
//! for the seat in one shared tree: the seat's chance with the bot's option is its estimated
//! chance *before* the decision, its chance with its own option the chance *after*. The drop
//! is the difference, never below zero. Dice, cards drawn and the other seats' options come
//! after the option in every imagined game alike, so they move both values and not the
//! difference: only the seat's own choice is measured. Values are the search's own: 1 for
//! sole first place, 0 for sole last, shares of first place in between (with two seats, the
//! chance of winning).
//!
//! Honesty by construction, as for the bots: [`assess`] takes the seat's public and private
//! views, its legal options and the option it took, never the state.

use super::search::{self, Budget};
use crate::engine::{AnyGame, BotHooks, Game, GameRng, Present, Seat};
use crate::games::GameVisitor;

/// What one analysis may spend: the search per decision, and how many of the seat's
/// decisions are weighed at most (spread evenly over the game when it took more).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AnalysisBudget {
    pub search: Budget,
    pub decisions: usize,
}

impl Default for AnalysisBudget {
    /// Between the easy and the normal bot per decision (200 tree iterations, each of two
    /// searches), over at most 16 decisions: 1.4 to 6.5 s per analysis in the dev profile on a
    /// loaded machine, figures per game in BENCHMARKS.md (issue 41 item 5).
    fn default() -> AnalysisBudget {
        AnalysisBudget {
            search: Budget {
                iterations: 200,
                effort: 60,
                playout_depth: 100,
            },
            decisions: 16,
        }
    }
}

/// A drop smaller than this (in value points, 0 to 1) is within the search's noise at the
/// default budget (the weaker option of a duel gets some 60 of its 200 iterations: a mean
/// known to about 0.07): it is not called a mistake.
pub const MIN_DROP: f64 = 0.10;

/// Decisions shown at most.
pub const SHOWN: usize = 3;

/// One decision weighed.
#[derive(Clone, Debug, PartialEq)]
pub struct Assessment {
    /// The option the seat took, and the bot's, as canonical notation.
    pub played: String,
    pub best: String,
    /// The seat's value with the bot's option (before the decision) and with its own (after).
    pub best_value: f64,
    pub played_value: f64,
    /// Options the seat had.
    pub options: usize,
}

impl Assessment {
    /// What the seat's own choice cost it, in value points (0 when it took the bot's option,
    /// or one the search found as good).
    pub fn drop(&self) -> f64 {
        if self.played == self.best {
            return 0.0;
        }
        (self.best_value - self.played_value).max(0.0)
    }
}

/// Weighs the decision of `seat` among `legal` (it took `played`, an index into `legal`) from
/// its views only. `None` when there was no choice (one option) or no imagined game could be
/// built (a game without a bot of its own).
pub fn assess<G: BotHooks>(
    public: &G::PublicView,
    private: Option<&G::PrivateView>,
    seat: Seat,
    legal: &[G::Action],
    played: usize,
    budget: Budget,
    seed: u64,
) -> Option<(usize, f64, f64)> {
    if legal.len() < 2 || played >= legal.len() {
        return None;
    }
    let mut rng = GameRng::seed_from_u64(seed);
    let imagine = |rng: &mut GameRng| G::imagine(public, private, seat, rng);
    let probe = G::imagine(public, private, seat, &mut rng)?;
    let expert = probe
        .expert_option(budget.effort, &mut rng)
        .and_then(|a| legal.iter().position(|o| *o == a));
    let best = match expert {
        Some(i) => i,
        None => {
            let stats = search::root_stats(imagine, seat, legal, budget, &mut rng)?;
            most_visited(&stats)?
        }
    };
    // The duel: the seat's option and the bot's in one tree, so their values compare.
    let duel: Vec<G::Action> = if best == played {
        vec![legal[played].clone()]
    } else {
        vec![legal[best].clone(), legal[played].clone()]
    };
    let stats = search::root_stats(imagine, seat, &duel, budget, &mut rng)?;
    let best_value = stats.first()?.mean;
    let played_value = stats.last()?.mean;
    Some((best, best_value, played_value))
}

/// The most visited option (ties: the better mean, then the first).
fn most_visited(stats: &[search::RootStat]) -> Option<usize> {
    stats
        .iter()
        .enumerate()
        .filter(|(_, s)| s.visits > 0)
        .max_by(|(i, a), (j, b)| {
            a.visits
                .cmp(&b.visits)
                .then_with(|| a.mean.total_cmp(&b.mean))
                .then_with(|| j.cmp(i))
        })
        .map(|(i, _)| i)
}

/// [`assess`] for any game: the decision pending in `game` must be `seat`'s, and `played` one
/// of its options' notation. The state gives only what the seat sees anyway: its two views,
/// its options and their notation.
pub fn assess_any(
    game: &dyn AnyGame,
    seat: Seat,
    played: &str,
    budget: Budget,
    seed: u64,
) -> Option<Assessment> {
    struct Weigh<'a> {
        seat: Seat,
        played: &'a str,
        budget: Budget,
        seed: u64,
    }
    impl GameVisitor for Weigh<'_> {
        type Out = Option<Assessment>;
        fn visit<G: Game + Present + BotHooks>(self, game: &G) -> Option<Assessment> {
            let prompt = Game::prompt(game).filter(|p| p.seat == self.seat)?;
            let played = prompt
                .options
                .iter()
                .position(|a| game.notation(a) == self.played)?;
            let public = game.public_view();
            let private = game.private_view(self.seat);
            let (best, best_value, played_value) = assess::<G>(
                &public,
                private.as_ref(),
                self.seat,
                &prompt.options,
                played,
                self.budget,
                self.seed,
            )?;
            Some(Assessment {
                played: game.notation(&prompt.options[played]),
                best: game.notation(&prompt.options[best]),
                best_value,
                played_value,
                options: prompt.options.len(),
            })
        }
    }
    let weigh = Weigh {
        seat,
        played,
        budget,
        seed,
    };
    crate::games::visit(game, weigh).flatten()
}

/// Which of `count` decisions to weigh when at most `most` may be: all of them, or `most`
/// spread evenly from the first to the last.
pub fn spread(count: usize, most: usize) -> Vec<usize> {
    if count <= most {
        return (0..count).collect();
    }
    match most {
        0 => Vec::new(),
        1 => vec![count - 1],
        _ => (0..most).map(|k| k * (count - 1) / (most - 1)).collect(),
    }
}

/// The decisions to show: the `most` largest drops of at least `min`, in the game's order.
/// A drop that is not a number counts as none.
pub fn largest_drops(drops: &[f64], most: usize, min: f64) -> Vec<usize> {
    let mut kept: Vec<usize> = (0..drops.len())
        .filter(|&i| drops[i].is_finite() && drops[i] >= min)
        .collect();
    // Largest first; an earlier decision first among equals.
    kept.sort_by(|&a, &b| drops[b].total_cmp(&drops[a]).then(a.cmp(&b)));
    kept.truncate(most);
    kept.sort_unstable();
    kept
}

/// A deterministic seed per decision, from what anyone may know of it: the game's number,
/// the seat and the decision's place in the log. Never the game's own seed, which would carry
/// its hidden cards into the search.
pub fn decision_seed(game: i64, seat: Seat, index: usize) -> u64 {
    // SplitMix64's finaliser over the three, so nearby decisions get unrelated seeds.
    let mut z = u64::from_ne_bytes(game.to_ne_bytes())
        ^ (u64::from(seat.0) << 56)
        ^ (index as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::GameKind;
    use crate::engine::GameOptions;

    #[test]
    fn the_largest_drops_are_kept_in_the_games_order() {
        let drops = [0.01, 0.30, 0.11, 0.50, 0.20, 0.0];
        assert_eq!(largest_drops(&drops, 3, MIN_DROP), vec![1, 3, 4]);
        assert_eq!(largest_drops(&drops, 2, MIN_DROP), vec![1, 3]);
        assert_eq!(largest_drops(&drops, 9, MIN_DROP), vec![1, 2, 3, 4]);
    }

    #[test]
    fn small_drops_and_non_numbers_are_no_mistakes() {
        assert!(largest_drops(&[0.0, 0.05, 0.099], 3, MIN_DROP).is_empty());
        assert!(largest_drops(&[], 3, MIN_DROP).is_empty());
        assert_eq!(
            largest_drops(&[f64::NAN, 0.2, f64::INFINITY], 3, MIN_DROP),
            vec![1]
        );
        // Exactly the threshold counts.
        assert_eq!(largest_drops(&[MIN_DROP], 3, MIN_DROP), vec![0]);
    }

    #[test]
    fn equal_drops_keep_the_earlier_decision() {
        assert_eq!(
            largest_drops(&[0.2, 0.2, 0.2, 0.2], 2, MIN_DROP),
            vec![0, 1]
        );
    }

    #[test]
    fn a_drop_is_never_below_zero_and_none_for_the_bots_own_option() {
        let a = |played: &str, best: &str, bv: f64, pv: f64| Assessment {
            played: played.into(),
            best: best.into(),
            best_value: bv,
            played_value: pv,
            options: 2,
        };
        assert!((a("x", "y", 0.6, 0.4).drop() - 0.2).abs() < 1e-12);
        assert!(a("x", "y", 0.4, 0.6).drop().abs() < f64::EPSILON);
        assert!(a("x", "x", 0.9, 0.1).drop().abs() < f64::EPSILON);
    }

    #[test]
    fn decisions_are_spread_over_the_game() {
        assert_eq!(spread(3, 5), vec![0, 1, 2]);
        assert_eq!(spread(10, 4), vec![0, 3, 6, 9]);
        assert_eq!(spread(10, 1), vec![9]);
        assert!(spread(10, 0).is_empty());
        let s = spread(1000, 24);
        assert_eq!(s.len(), 24);
        assert!(s.windows(2).all(|w| w[0] < w[1]));
        assert_eq!((s[0], s[23]), (0, 999));
    }

    #[test]
    fn seeds_differ_by_decision_and_repeat_for_the_same_one() {
        let a = decision_seed(7, Seat(0), 3);
        assert_eq!(a, decision_seed(7, Seat(0), 3));
        assert_ne!(a, decision_seed(7, Seat(0), 4));
        assert_ne!(a, decision_seed(7, Seat(1), 3));
        assert_ne!(a, decision_seed(8, Seat(0), 3));
    }

    /// On a real position of every game: the same decision weighed twice gives the same
    /// figures, both values are in [0, 1], and the bot's own option costs nothing.
    #[test]
    fn every_game_weighs_a_decision_the_same_way_twice() {
        let budget = Budget {
            iterations: 40,
            effort: 8,
            playout_depth: 40,
        };
        for &kind in GameKind::ALL {
            let seats = kind.seat_range().0.max(2);
            let mut game = kind.setup(&GameOptions::new(), seats, 11).expect("setup");
            // A few options in, to a decision with a choice.
            let mut rng = GameRng::seed_from_u64(2);
            let mut weighed = None;
            for _ in 0..60 {
                let p = game.prompt().expect("a running game");
                if p.options.len() > 1 {
                    let played = p.options[p.options.len() - 1].clone();
                    let first = assess_any(game.as_ref(), p.seat, &played, budget, 5);
                    let again = assess_any(game.as_ref(), p.seat, &played, budget, 5);
                    assert_eq!(first, again, "{kind:?}");
                    weighed = first;
                    if weighed.is_some() {
                        break;
                    }
                }
                let pick = p.options[rng.gen_range(0..p.options.len())].clone();
                game.apply_notation(p.seat, &pick).expect("applies");
            }
            let a = weighed.unwrap_or_else(|| panic!("{kind:?}: no decision weighed"));
            for v in [a.best_value, a.played_value] {
                assert!((0.0..=1.0).contains(&v), "{kind:?}: {a:?}");
            }
            assert!(a.drop() >= 0.0);
            let p = game.prompt().expect("a prompt");
            let own = assess_any(game.as_ref(), p.seat, &a.best, budget, 5).expect("weighed");
            assert!(own.drop().abs() < f64::EPSILON, "{kind:?}: {own:?}");
            // Not the seat asked: nothing to weigh.
            let other = Seat::at((p.seat.index() + 1) % seats);
            assert_eq!(assess_any(game.as_ref(), other, &a.best, budget, 5), None);
        }
    }
}
