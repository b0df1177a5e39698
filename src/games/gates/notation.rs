//! Notation (spec section 10): printing atomic options and reading typed segments. Reading
//! only checks the words; whether the option is legal now is the rules' job, so a rejected
//! segment never changes anything.

use super::components::{data, CardId, Region};
use super::moves::{Action, Desperate, Source};
use super::rules::RuleError;
use super::state::{Mode, Owner};
use crate::engine::notation::{check_arity, digits, lowered, perr, verb_and_args};
use crate::engine::Reject;

/// Every form the parser understands.
pub const FORMS: &[&str] = &[
    "mode sane|insane",
    "play <card>",
    "discard <card>",
    "send <region>",
    "from <region>",
    "to <region>",
    "convert <region> <colour>",
    "with <region>",
    "take 1|2|3|4|deck",
    "open <region>",
    "despair swap|refresh|flip|score",
    "skip",
    "end",
];

const REGIONS: &str = "inn|sal|ark|kin|roc";
const COLOURS: &str = "red|blue|green|yellow|neutral";

/// The printed id of a card (`p07`).
pub fn card_str(c: CardId) -> String {
    data()
        .ok()
        .and_then(|d| d.cards.get(usize::from(c.0)))
        .map_or_else(|| format!("#{}", c.0), |def| def.id.clone())
}

/// Canonical notation of an atomic option.
pub fn notation(action: &Action) -> String {
    match *action {
        Action::Mode(m) => format!("mode {}", m.code()),
        Action::Play(c) => format!("play {}", card_str(c)),
        Action::Discard(c) => format!("discard {}", card_str(c)),
        Action::Send(r) => format!("send {}", r.code()),
        Action::From(r) => format!("from {}", r.code()),
        Action::To(r) => format!("to {}", r.code()),
        Action::Convert(r, o) => format!("convert {} {}", r.code(), o.code()),
        Action::With(r) => format!("with {}", r.code()),
        Action::Take(Source::Slot(k)) => format!("take {k}"),
        Action::Take(Source::Deck) => "take deck".into(),
        Action::Open(r) => format!("open {}", r.code()),
        Action::Despair(a) => format!("despair {}", a.code()),
        Action::Skip => "skip".into(),
        Action::End => "end".into(),
    }
}

/// `p07`, also `p7` and `P07`.
pub fn parse_card(s: &str) -> Option<CardId> {
    let s = s.to_ascii_lowercase();
    let mut chars = s.chars();
    let group = chars.next()?;
    if !matches!(group, 'p' | 'b' | 'r' | 'x') {
        return None;
    }
    let n: u8 = digits(chars.as_str(), 2)?;
    if !(1..=20).contains(&n) {
        return None;
    }
    data().ok()?.card_by_name(&format!("{group}{n:02}"))
}

/// Reads one segment. Token numbers are 1-based words of the segment.
pub fn parse(segment: &str) -> Result<Vec<Action>, Reject<RuleError>> {
    let text = lowered(segment);
    let (head, args) = verb_and_args(&text, FORMS)?;
    let arity = |n: usize, form: &str| check_arity(&args, n, form);
    let region = |i: usize, form: &'static str| -> Result<Region, Reject<RuleError>> {
        match Region::parse(args[i]) {
            Some(r) => Ok(r),
            None => perr(i + 2, args[i], &[form, REGIONS]),
        }
    };
    let action = match head {
        "mode" => {
            let form = "mode sane|insane";
            arity(1, form)?;
            match args[0] {
                "sane" => Action::Mode(Mode::Sane),
                "insane" => Action::Mode(Mode::Insane),
                other => return perr(2, other, &[form]),
            }
        }
        "play" | "discard" => {
            let form = if head == "play" {
                "play <card>"
            } else {
                "discard <card>"
            };
            arity(1, form)?;
            let Some(c) = parse_card(args[0]) else {
                return perr(2, args[0], &[form, "p01..p20 b01..b20 r01..r20 x01..x20"]);
            };
            if head == "play" {
                Action::Play(c)
            } else {
                Action::Discard(c)
            }
        }
        "send" => {
            arity(1, "send <region>")?;
            Action::Send(region(0, "send <region>")?)
        }
        "from" => {
            arity(1, "from <region>")?;
            Action::From(region(0, "from <region>")?)
        }
        "to" => {
            arity(1, "to <region>")?;
            Action::To(region(0, "to <region>")?)
        }
        "with" => {
            arity(1, "with <region>")?;
            Action::With(region(0, "with <region>")?)
        }
        "open" => {
            arity(1, "open <region>")?;
            Action::Open(region(0, "open <region>")?)
        }
        "convert" => {
            let form = "convert <region> <colour>";
            arity(2, form)?;
            let r = region(0, form)?;
            let Some(o) = Owner::parse(args[1]) else {
                return perr(3, args[1], &[form, COLOURS]);
            };
            Action::Convert(r, o)
        }
        "take" => {
            let form = "take 1|2|3|4|deck";
            arity(1, form)?;
            match args[0] {
                "deck" => Action::Take(Source::Deck),
                "1" | "2" | "3" | "4" => Action::Take(Source::Slot(args[0].parse().unwrap_or(1))),
                other => return perr(2, other, &[form]),
            }
        }
        "despair" => {
            let form = "despair swap|refresh|flip|score";
            arity(1, form)?;
            match Desperate::ALL.into_iter().find(|a| a.code() == args[0]) {
                Some(a) => Action::Despair(a),
                None => return perr(2, args[0], &[form]),
            }
        }
        "skip" => {
            arity(0, "skip")?;
            Action::Skip
        }
        "end" => {
            arity(0, "end")?;
            Action::End
        }
        other => return perr(1, other, FORMS),
    };
    Ok(vec![action])
}
