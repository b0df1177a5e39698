//! The search on tiny games whose best moves are known, and the level/estimate helpers.

use super::search::{best_root_option, value_from_ranks, Searchable};
use super::*;
use crate::engine::{rng_from_seed, GameRng};

/// Nim: take 1 to 3 stones; whoever takes the last stone wins. Leaving a multiple of 4 wins.
#[derive(Clone, Debug)]
struct Nim {
    stones: u32,
    to_move: u8,
    winner: Option<u8>,
}

impl Searchable for Nim {
    type Action = u32;

    fn to_move(&self) -> Option<(Seat, Vec<u32>)> {
        if self.winner.is_some() {
            return None;
        }
        Some((Seat(self.to_move), (1..=self.stones.min(3)).collect()))
    }

    fn play(&mut self, _seat: Seat, take: &u32) -> bool {
        if *take == 0 || *take > self.stones.min(3) {
            return false;
        }
        self.stones -= take;
        if self.stones == 0 {
            self.winner = Some(self.to_move);
        }
        self.to_move = 1 - self.to_move;
        true
    }

    fn value(&self) -> Vec<f64> {
        match self.winner {
            Some(0) => vec![1.0, 0.0],
            Some(_) => vec![0.0, 1.0],
            None => vec![0.5, 0.5],
        }
    }

    fn hint(&self, _rng: &mut GameRng) -> Option<u32> {
        None
    }
}

fn nim_best(stones: u32, budget: Budget, seed: u64) -> u32 {
    let game = Nim {
        stones,
        to_move: 0,
        winner: None,
    };
    let legal: Vec<u32> = (1..=stones.min(3)).collect();
    let mut rng = rng_from_seed(seed);
    let i = best_root_option(|_| Some(game.clone()), Seat(0), &legal, budget, &mut rng)
        .expect("a searchable game");
    legal[i]
}

#[test]
fn search_finds_the_winning_nim_move() {
    // Deeper piles need a bigger budget: random playouts blur long forced lines.
    for (level, cases) in [
        (Level::Normal, [(5, 1), (6, 2), (7, 3)]),
        (Level::Hard, [(9, 1), (10, 2), (11, 3)]),
    ] {
        for (stones, take) in cases {
            for seed in 0..3 {
                let best = nim_best(stones, level.budget(), seed);
                assert_eq!(best, take, "{stones} stones, {level:?}, seed {seed}");
            }
        }
    }
}

/// A hidden coin: seat 0 must guess its side; only one side pays. The imagined games differ
/// in the hidden coin, so the search must average over them: with a 3:1 prior for heads it
/// guesses heads.
#[derive(Clone, Debug)]
struct Coin {
    heads: bool,
    guess: Option<bool>,
}

impl Searchable for Coin {
    type Action = bool;

    fn to_move(&self) -> Option<(Seat, Vec<bool>)> {
        self.guess.is_none().then(|| (Seat(0), vec![true, false]))
    }

    fn play(&mut self, _seat: Seat, guess: &bool) -> bool {
        self.guess = Some(*guess);
        true
    }

    fn value(&self) -> Vec<f64> {
        vec![if self.guess == Some(self.heads) {
            1.0
        } else {
            0.0
        }]
    }

    fn hint(&self, _rng: &mut GameRng) -> Option<bool> {
        None
    }
}

#[test]
fn search_averages_over_imagined_hidden_information() {
    let mut rng = rng_from_seed(7);
    let imagine = |rng: &mut GameRng| {
        Some(Coin {
            heads: rng.gen_range(0..4) != 0,
            guess: None,
        })
    };
    let legal = [true, false];
    let i = best_root_option(imagine, Seat(0), &legal, Level::Normal.budget(), &mut rng);
    assert_eq!(i, Some(0), "heads is three times as likely");
}

#[test]
fn root_options_are_the_real_ones_only() {
    // The imagined game offers 1..=3 but the real prompt lists only 2: the answer is 2.
    let game = Nim {
        stones: 9,
        to_move: 0,
        winner: None,
    };
    let mut rng = rng_from_seed(1);
    let i = best_root_option(
        |_| Some(game.clone()),
        Seat(0),
        &[2],
        Level::Easy.budget(),
        &mut rng,
    );
    assert_eq!(i, Some(0));
}

#[test]
fn no_imagined_game_means_no_search_answer() {
    let mut rng = rng_from_seed(1);
    let none = |_: &mut GameRng| -> Option<Nim> { None };
    assert_eq!(
        best_root_option(none, Seat(0), &[1, 2], Level::Easy.budget(), &mut rng),
        None
    );
}

#[test]
fn values_from_ranks_share_tied_places() {
    assert_eq!(value_from_ranks(&[1, 2]), vec![1.0, 0.0]);
    assert_eq!(value_from_ranks(&[1, 1]), vec![0.5, 0.5]);
    assert_eq!(value_from_ranks(&[2, 1, 2]), vec![0.25, 1.0, 0.25]);
}

#[test]
fn estimates_follow_the_scoring_direction() {
    let low = estimate_from_scores(&[3, 9], true);
    assert!(low[0] > low[1]);
    let high = estimate_from_scores(&[3, 9], false);
    assert!(high[1] > high[0]);
    let tied = estimate_from_scores(&[5, 5], false);
    assert!((tied[0] - tied[1]).abs() < 1e-9);
    let solo = estimate_from_scores(&[4], false);
    assert!(solo[0] > 0.5 && solo[0] < 1.0);
}

#[test]
fn levels_parse_and_grow() {
    for level in Level::ALL {
        assert_eq!(Level::parse(level.id()), Some(level));
    }
    assert_eq!(Level::parse(" HARD "), Some(Level::Hard));
    assert_eq!(Level::parse("expert"), None);
    let (e, n, h) = (
        Level::Easy.budget(),
        Level::Normal.budget(),
        Level::Hard.budget(),
    );
    assert!(e.iterations < n.iterations && n.iterations < h.iterations);
    assert!(e.effort < n.effort && n.effort < h.effort);
}

#[test]
fn random_index_is_seeded_and_in_range() {
    assert_eq!(random_index(0, 1), None);
    for seed in 0..50 {
        let i = random_index(5, seed).unwrap();
        assert!(i < 5);
        assert_eq!(random_index(5, seed), Some(i));
    }
}
