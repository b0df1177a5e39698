//! Notation (spec section 10): printing atomic options and reading typed segments. Lenient
//! ids (`red7` for `red07`, `o4` for `o04`); output is always canonical. An option the engine
//! already applied by itself may be typed again and is then skipped.

use super::cards::Data;
use super::moves::{Action, BonusKind};
use super::rules::RuleError;
use super::state::{Agency, SpaceLab};
use crate::engine::notation::{check_arity, perr, verb_and_args};
use crate::engine::{Reject, Seat};

/// Every form the parser understands.
pub const FORMS: &[&str] = &[
    "arrange <obj> <obj> <obj>",
    "reveal",
    "recruit",
    "place",
    "take <agency>",
    "card <lab>",
    "slot <slot>",
    "pay <lab>",
    "end",
    "keep <project>",
    "bonus lab",
    "bonus project",
    "from <agency>",
];

/// Canonical notation of an atomic option.
pub fn notation(d: &Data, action: &Action) -> String {
    match *action {
        Action::Arrange(t) => format!(
            "arrange {} {} {}",
            d.objective_id(t[0]),
            d.objective_id(t[1]),
            d.objective_id(t[2])
        ),
        Action::Reveal => "reveal".into(),
        Action::Recruit => "recruit".into(),
        Action::Place => "place".into(),
        Action::Take(a) => format!("take {}", a.id()),
        Action::Card(c) => format!("card {}", d.lab_id(c)),
        Action::Slot(s) => format!("slot {}", d.slot_id(s)),
        Action::Pay(c) => format!("pay {}", d.lab_id(c)),
        Action::End => "end".into(),
        Action::Keep(k) => format!("keep {}", d.kind_code(k)),
        Action::Bonus(BonusKind::Lab) => "bonus lab".into(),
        Action::Bonus(BonusKind::Project) => "bonus project".into(),
        Action::From(a) => format!("from {}", a.id()),
    }
}

/// Reads the words of one segment into one option (no state checks).
pub fn parse_words(d: &Data, segment: &str) -> Result<Action, Reject<RuleError>> {
    let (head, args) = verb_and_args(segment, FORMS)?;
    let arity = |n: usize, form: &str| check_arity(&args, n, form);
    let agency = |form: &'static str| -> Result<Agency, Reject<RuleError>> {
        arity(1, form)?;
        Agency::from_id(args[0])
            .map_or_else(|| perr(2, args[0], &["red", "blue", "green", "gold"]), Ok)
    };
    let lab = |form: &'static str| -> Result<u8, Reject<RuleError>> {
        arity(1, form)?;
        d.find_lab(args[0]).map_or_else(
            || perr(2, args[0], &[form, "e.g. red07, blu13, grn4, gld15"]),
            Ok,
        )
    };
    match head {
        "arrange" => {
            let form = "arrange <obj> <obj> <obj>";
            arity(3, form)?;
            let mut t = [0u8; 3];
            for (i, w) in args.iter().enumerate() {
                match d.find_objective(w) {
                    Some(o) => t[i] = o,
                    None => return perr(i + 2, w, &[form, "o01 … o12"]),
                }
            }
            Ok(Action::Arrange(t))
        }
        "reveal" => arity(0, "reveal").map(|()| Action::Reveal),
        "recruit" => arity(0, "recruit").map(|()| Action::Recruit),
        "place" => arity(0, "place").map(|()| Action::Place),
        "end" => arity(0, "end").map(|()| Action::End),
        "take" => agency("take <agency>").map(Action::Take),
        "from" => agency("from <agency>").map(Action::From),
        "card" => lab("card <lab>").map(Action::Card),
        "pay" => lab("pay <lab>").map(Action::Pay),
        "slot" => {
            let form = "slot <slot>";
            arity(1, form)?;
            match d.find_slot(args[0]) {
                Some(s) => Ok(Action::Slot(s)),
                None => perr(2, args[0], &[form, "t1 t2 t3 m0 m1 m2 m3 b1 b2 b3"]),
            }
        }
        "keep" => {
            let form = "keep <project>";
            arity(1, form)?;
            match d.find_kind(args[0]) {
                Some(k) => Ok(Action::Keep(k)),
                None => {
                    let codes: Vec<&str> = d.kinds.iter().map(|k| k.code.as_str()).collect();
                    perr(2, args[0], &codes)
                }
            }
        }
        "bonus" => {
            arity(1, "bonus lab | bonus project")?;
            match args[0] {
                "lab" => Ok(Action::Bonus(BonusKind::Lab)),
                "project" => Ok(Action::Bonus(BonusKind::Project)),
                w => perr(2, w, &["lab", "project"]),
            }
        }
        _ => perr(1, head, FORMS),
    }
}

/// Reads one segment typed by `seat`. An option that is not legal now but was just applied
/// automatically for this seat is accepted and skipped (spec section 10).
pub fn parse(game: &SpaceLab, seat: Seat, segment: &str) -> Result<Vec<Action>, Reject<RuleError>> {
    let action = parse_words(game.data(), segment)?;
    let acting = game.to_act() == Some(seat);
    if acting && game.check(&action).is_ok() {
        return Ok(vec![action]);
    }
    // A seat whose turn just ended may still type its trailing automatic options, unless
    // the option is one the seat now asked could choose (then it is that seat's, not ours).
    let listed = !acting && game.options().contains(&action);
    if !listed && game.last_auto.contains(&(seat, action)) {
        return Ok(Vec::new());
    }
    Ok(vec![action])
}
