//! Notation (spec section 10): printing atomic options and reading typed segments. Reading is
//! two steps: parse the words (parse errors name the expected forms), then resolve the
//! shorthand `claim <t>` against the state (rule errors). Nothing changes on a refusal.

use super::board::{geo_ring, tower_index, tower_letter};
use super::moves::{Action, Dir};
use super::rules::{Ask, RuleError};
use super::state::Vortex;
use crate::engine::notation::{check_arity, perr, plain_number, rule, verb_and_args};
use crate::engine::{Reject, Seat};

/// Every form the parser understands.
pub const FORMS: &[&str] = &[
    "rot <tower> cw|ccw",
    "min <tower> cw|ccw",
    "claim <tower> <space>",
    "claim <tower>",
    "ctrl <space> <space>",
    "recall <tower> <space>",
    "place <space>",
    "end",
];

/// Canonical notation of an atomic option.
pub fn notation(action: &Action) -> String {
    match *action {
        Action::Rot { tower, dir } => format!("rot {} {}", tower_letter(tower), dir.code()),
        Action::Min { tower, dir } => format!("min {} {}", tower_letter(tower), dir.code()),
        Action::Claim { tower, from } => format!("claim {} {from}", tower_letter(tower)),
        Action::Ctrl { from, to } => format!("ctrl {from} {to}"),
        Action::Recall { tower, to } => format!("recall {} {to}", tower_letter(tower)),
        Action::Place(s) => format!("place {s}"),
        Action::End => "end".into(),
    }
}

/// A space id 1-54, decimal without leading zeros.
pub fn parse_space(s: &str) -> Option<u8> {
    plain_number(s, 2).filter(|n| (1..=54).contains(n))
}

fn parse_dir(s: &str) -> Option<Dir> {
    match s {
        "cw" => Some(Dir::Cw),
        "ccw" => Some(Dir::Ccw),
        _ => None,
    }
}

/// Reads the words of one segment into an option, without looking at the state.
fn read(verb: &str, args: &[&str]) -> Result<Option<Action>, Reject<RuleError>> {
    let head = match verb {
        "rotate" => "rot",
        "minority" => "min",
        "move" => "ctrl",
        "pass" | "done" => "end",
        h => h,
    };
    let arity = |n: usize, form: &str| check_arity(args, n, form);
    let tower = |i: usize, form: &str| match tower_index(args[i]) {
        Some(t) => Ok(t),
        None => perr(i + 2, args[i], &[form]),
    };
    let space = |i: usize, form: &str| match parse_space(args[i]) {
        Some(s) => Ok(s),
        None => perr(i + 2, args[i], &[form]),
    };
    match head {
        "rot" | "min" => {
            let form = if head == "rot" {
                "rot <tower> cw|ccw"
            } else {
                "min <tower> cw|ccw"
            };
            arity(2, form)?;
            let t = tower(0, form)?;
            let Some(dir) = parse_dir(args[1]) else {
                return perr(3, args[1], &["cw", "ccw"]);
            };
            Ok(Some(if head == "rot" {
                Action::Rot { tower: t, dir }
            } else {
                Action::Min { tower: t, dir }
            }))
        }
        "claim" => {
            if args.len() == 1 {
                tower(0, "claim <tower> <space>")?;
                // Resolved against the state by the caller.
                return Ok(None);
            }
            arity(2, "claim <tower> <space>")?;
            let t = tower(0, "claim <tower> <space>")?;
            let s = space(1, "claim <tower> <space>")?;
            Ok(Some(Action::Claim { tower: t, from: s }))
        }
        "ctrl" => {
            arity(2, "ctrl <space> <space>")?;
            let a = space(0, "ctrl <space> <space>")?;
            let b = space(1, "ctrl <space> <space>")?;
            Ok(Some(Action::Ctrl { from: a, to: b }))
        }
        "recall" => {
            arity(2, "recall <tower> <space>")?;
            let t = tower(0, "recall <tower> <space>")?;
            let s = space(1, "recall <tower> <space>")?;
            Ok(Some(Action::Recall { tower: t, to: s }))
        }
        "place" => {
            arity(1, "place <space>")?;
            Ok(Some(Action::Place(space(0, "place <space>")?)))
        }
        "end" => {
            arity(0, "end")?;
            Ok(Some(Action::End))
        }
        _ => perr(1, verb, FORMS),
    }
}

/// Reads one segment typed by `seat` (already lower-cased by the engine).
pub fn parse(game: &Vortex, seat: Seat, segment: &str) -> Result<Vec<Action>, Reject<RuleError>> {
    let (verb, args) = verb_and_args(segment, FORMS)?;
    let read = read(verb, &args)?;
    // A typed line never reaches into the next seat's turn (spec section 6.5): after a turn
    // that ended by itself, one trailing `end` is dropped and anything else is refused.
    let asked = game.ask().map(|a| game.ask_seat(a));
    if game.auto_ended == Some(seat) && asked != Some(seat) {
        return match read {
            Some(Action::End) => Ok(Vec::new()),
            _ => rule(RuleError::NoActionsLeft),
        };
    }
    match read {
        Some(a) => Ok(vec![a]),
        None => {
            // `claim j`: the one controller of the seat at that tower.
            let t = args.first().and_then(|w| tower_index(w)).unwrap_or(0);
            let Some(Ask::Action(side)) = game.ask() else {
                return rule(RuleError::NotInThisMode);
            };
            let me = game.sides[side].colour;
            let riding: Vec<u8> = geo_ring(t)
                .iter()
                .copied()
                .filter(|s| game.cell(*s).is_some_and(|r| r.colour == me && r.ctrl))
                .collect();
            match riding.as_slice() {
                [one] => Ok(vec![Action::Claim {
                    tower: t,
                    from: *one,
                }]),
                [] => rule(RuleError::NoControllerThere),
                _ => perr(3, "", &["claim <tower> <space>"]),
            }
        }
    }
}
