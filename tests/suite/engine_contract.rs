//! The engine contract, checked the same way for every registered game through the type-erased
//! face the service uses: seeded random playouts where every listed option applies, games end,
//! states round-trip through JSON, refused input changes nothing, and replay from seed + moves
//! equals the live state.

use croupier::engine::GameRng;
use croupier::engine::{AnyGame, GameKind, GameOptions, Seat};

/// Every combination of option values when there are few (at most 256 sets); otherwise the
/// defaults plus each non-default value of each option on its own, so a game with many
/// options (Vortex has 23) is still covered option by option without a combinatorial blow-up.
fn option_sets(kind: GameKind) -> Vec<GameOptions> {
    let specs = kind.option_specs();
    let product = specs
        .iter()
        .try_fold(1usize, |acc, s| acc.checked_mul(s.values.len()));
    if product.is_some_and(|p| p <= 256) {
        let mut sets = vec![GameOptions::new()];
        for spec in &specs {
            let mut next = Vec::new();
            for set in &sets {
                for v in &spec.values {
                    let mut s = set.clone();
                    s.insert(spec.key.to_string(), (*v).to_string());
                    next.push(s);
                }
            }
            sets = next;
        }
        return sets;
    }
    let mut sets = vec![GameOptions::new()];
    for spec in &specs {
        for v in spec.values.iter().filter(|v| **v != spec.default) {
            let mut s = GameOptions::new();
            s.insert(spec.key.to_string(), (*v).to_string());
            sets.push(s);
        }
    }
    sets
}

/// A finished game (or an open-ended one stopped, see [`open_ended`]) and its log of
/// (seat, option).
type Played = (Box<dyn AnyGame>, Vec<(Seat, String)>);

/// Vortex Solitaire ends only when solved or when its player resigns (issue 25 removed its
/// rotation limit), and random rotations seldom solve it: its playouts stop after
/// [`OPEN_ENDED_STEPS`] options, every other game must end.
fn open_ended(game: &dyn AnyGame) -> bool {
    game.kind() == GameKind::Vortex && game.public_view_json()["mode"] == "solitaire"
}

const OPEN_ENDED_STEPS: usize = 2_000;

fn playout(kind: GameKind, options: &GameOptions, seats: usize, seed: u64) -> Option<Played> {
    let mut game = kind.setup(options, seats, seed).ok()?;
    let mut rng = GameRng::seed_from_u64(seed ^ 0x5eed);
    let mut log = Vec::new();
    for step in 0..20_000 {
        if step == OPEN_ENDED_STEPS && open_ended(&*game) {
            return Some((game, log));
        }
        let Some(prompt) = game.prompt() else {
            assert!(game.outcome().is_some(), "{kind}: no prompt but no outcome");
            return Some((game, log));
        };
        assert!(game.outcome().is_none(), "{kind}: prompt while over");
        assert!(
            !prompt.options.is_empty(),
            "{kind}: empty prompt {}",
            prompt.kind
        );
        // `/move` tags an autocompleted option with ` #v<version>`; no option may hold a `#`.
        for o in &prompt.options {
            assert!(!o.contains('#'), "{kind}: option `{o}` holds a '#'");
        }
        let pick = prompt.options[rng.gen_range(0..prompt.options.len())].clone();
        let before = game.to_json();
        // A seat that is not asked is refused and nothing changes.
        if game.seat_count() > 1 {
            let other = Seat((prompt.seat.0 + 1) % u8::try_from(game.seat_count()).unwrap());
            assert!(game.play_line(other, &pick).is_err());
            assert_eq!(game.to_json(), before);
        }
        let moved = game
            .apply_notation(prompt.seat, &pick)
            .unwrap_or_else(|e| panic!("{kind}: listed option `{pick}` refused: {e}"));
        assert_eq!(moved.notation, pick, "{kind}: canonical notation changed");
        log.push((prompt.seat, pick));
    }
    panic!("{kind}: game did not end in 20000 options (seed {seed})");
}

#[test]
fn random_playouts_keep_the_contract() {
    for &kind in GameKind::ALL {
        let (min, max) = kind.seat_range();
        let mut played = 0;
        for (i, options) in option_sets(kind).iter().enumerate() {
            for seats in min..=max {
                let seed = (i as u64) * 1000 + seats as u64;
                let Some((game, log)) = playout(kind, options, seats, seed) else {
                    continue;
                };
                played += 1;
                if let Some(outcome) = game.outcome() {
                    assert_eq!(outcome.scores, game.scores(), "{kind}: outcome scores");
                    assert_eq!(outcome.ranks.len(), seats);
                } else {
                    assert!(open_ended(&*game), "{kind}: stopped before its end");
                }
                // JSON round trip.
                let json = game.to_json();
                let back = GameKind::load(&json).unwrap();
                assert_eq!(back.to_json(), json, "{kind}: JSON round trip");
                // Replay from seed + moves equals the live state.
                let mut replay = kind.setup(options, seats, seed).unwrap();
                for (seat, n) in &log {
                    replay.apply_notation(*seat, n).unwrap();
                }
                assert_eq!(replay.to_json(), json, "{kind}: replay diverged");
            }
        }
        assert!(played > 0, "{kind}: no playout ran");
    }
}

#[test]
fn garbage_input_is_refused_without_change() {
    let junk = [
        "",
        ";",
        "  ",
        "put",
        "xyzzy 1 2",
        "done done",
        "🙂",
        "put 99 q",
        "step x99",
        "\u{0}",
        "layout t:",
        "path",
    ];
    for &kind in GameKind::ALL {
        let (min, _) = kind.seat_range();
        let mut game = kind.setup(&GameOptions::new(), min, 7).unwrap();
        let seat = game.prompt().unwrap().seat;
        let before = game.to_json();
        for j in junk {
            assert!(game.play_line(seat, j).is_err(), "{kind}: `{j}` accepted");
            assert_eq!(game.to_json(), before, "{kind}: `{j}` changed the state");
        }
    }
}
