//! Notation (spec section 10): printing atomic options and reading typed segments. Reading is
//! two steps: parse the words (parse errors), then resolve the options against a copy of the
//! state (aliases, the move shorthand, auto-applied prompts of spec 6.13 rule 3, rule errors),
//! so a rejected line never changes anything.

use super::moves::Action;
use super::rules::{Log, RuleError};
use super::state::{Card, Ch, Floor, Portal, Step};
use crate::engine::notation::{check_arity, perr, plain_number, rule, verb_and_args};
use crate::engine::{Game, Reject, Seat};

/// Every form the parser understands.
pub const FORMS: &[&str] = &[
    "discard <card>",
    "play <card>",
    "gun <card>",
    "burn <chamber>",
    "trade <card>",
    "opera",
    "done",
    "portal <chamber>",
    "move <chamber>",
    "move <chamber> <n> <chamber>",
    "pass",
    "stop",
    "count <n>",
    "to <chamber>",
    "to <floor>",
    "carry <colour>",
    "carry done",
    "bonus <floor>",
    "bonus card",
    "activate <floor>",
    "subject <floor>",
    "cake <floor>",
    "card",
    "cube <chamber>",
    "turret <chamber>",
    "turret stay",
    "turret <floor>",
    "recycle <floor>",
    "from <chamber>",
    "<colour>",
    "kill <chamber>",
    "flip <chamber>",
    "pick <card>",
    "remove",
    "remove turret",
    "remove cube",
    "vote <colour>",
    "abstain",
];

impl Portal {
    /// The colour name of a seat.
    pub fn colour_name(&self, s: Seat) -> &'static str {
        const NAMES: [&str; 4] = ["blue", "red", "yellow", "green"];
        self.seats
            .get(s.index())
            .and_then(|x| NAMES.get(usize::from(x.colour)))
            .copied()
            .unwrap_or("?")
    }

    fn seat_of_colour(&self, name: &str) -> Option<Seat> {
        self.seat_ids().find(|&s| self.colour_name(s) == name)
    }
}

/// Canonical notation of an atomic option.
pub fn notation(game: &Portal, action: &Action) -> String {
    let col = |s: Seat| game.colour_name(s);
    match *action {
        Action::Discard(c) => format!("discard {}", c.slug()),
        Action::Play(c) => format!("play {}", c.slug()),
        Action::Gun(c) => format!("gun {}", c.slug()),
        Action::Burn(ch) => format!("burn {ch}"),
        Action::Trade(c) => format!("trade {}", c.slug()),
        Action::Opera => "opera".into(),
        Action::Done => "done".into(),
        Action::Portal(ch) => format!("portal {ch}"),
        Action::Move(ch) => format!("move {ch}"),
        Action::Pass => "pass".into(),
        Action::Stop => "stop".into(),
        Action::Count(n) => format!("count {n}"),
        Action::To(ch) => format!("to {ch}"),
        Action::ToFloor(f) => format!("to {}", f.name()),
        Action::Carry(s) => format!("carry {}", col(s)),
        Action::CarryDone => "carry done".into(),
        Action::BonusFloor(f) => format!("bonus {}", f.name()),
        Action::BonusCard => "bonus card".into(),
        Action::Activate(f) => format!("activate {}", f.name()),
        Action::Subject(f) => format!("subject {}", f.name()),
        Action::Cake(f) => format!("cake {}", f.name()),
        Action::TakeCard => "card".into(),
        Action::Cube(ch) => format!("cube {ch}"),
        Action::Turret(ch) => format!("turret {ch}"),
        Action::TurretStay => "turret stay".into(),
        Action::TurretFloor(f) => format!("turret {}", f.name()),
        Action::Recycle(f) => format!("recycle {}", f.name()),
        Action::From(ch) => format!("from {ch}"),
        Action::Colour(s) => col(s).into(),
        Action::Kill(ch) => format!("kill {ch}"),
        Action::Flip(ch) => format!("flip {ch}"),
        Action::Pick(c) => format!("pick {}", c.slug()),
        Action::Remove => "remove".into(),
        Action::RemoveTurret => "remove turret".into(),
        Action::RemoveCube => "remove cube".into(),
        Action::Vote(s) => format!("vote {}", col(s)),
        Action::Abstain => "abstain".into(),
    }
}

/// `t10`, `m9`, `b12`: a floor letter and a number without leading zero.
pub fn parse_chamber(s: &str) -> Option<Ch> {
    let mut chars = s.chars();
    let f = Floor::from_letter(chars.next()?)?;
    Some(Ch::new(f, plain_number(chars.as_str(), 4)?))
}

/// A chamber or a floor name.
#[derive(Clone, Copy)]
enum Place {
    Ch(Ch),
    Floor(Floor),
}

fn place(s: &str) -> Option<Place> {
    Floor::from_name(s)
        .map(Place::Floor)
        .or_else(|| parse_chamber(s).map(Place::Ch))
}

/// A floor-targeting option given as a chamber id: the edge chamber of that floor.
fn edge_alias(game: &Portal, p: Place, old: bool, make: fn(Floor) -> Action) -> Action {
    match p {
        Place::Floor(f) => make(f),
        Place::Ch(ch) => {
            let edge = if old {
                game.old_edge(ch.f)
            } else {
                game.new_edge(ch.f)
            };
            if edge == Some(ch) {
                make(ch.f)
            } else {
                // Kept as a chamber so that resolution reports the right error.
                Action::To(ch)
            }
        }
    }
}

/// Reads words into intended options, with the word index of each (for macro errors).
fn read(
    game: &Portal,
    head: &str,
    args: &[&str],
) -> Result<Vec<(Action, usize)>, Reject<RuleError>> {
    let card = |form: &'static str| -> Result<Card, Reject<RuleError>> {
        check_arity(args, 1, form)?;
        match Card::from_slug(args[0]) {
            Some(c) => Ok(c),
            None => perr(2, args[0], &[form]),
        }
    };
    let chamber = |form: &'static str| -> Result<Ch, Reject<RuleError>> {
        check_arity(args, 1, form)?;
        match parse_chamber(args[0]) {
            Some(c) => Ok(c),
            None => perr(2, args[0], &[form]),
        }
    };
    let floor_or_ch = |form: &'static str| -> Result<Place, Reject<RuleError>> {
        check_arity(args, 1, form)?;
        match place(args[0]) {
            Some(p) => Ok(p),
            None => perr(2, args[0], &[form]),
        }
    };
    let colour = |w: &str, token: usize, form: &'static str| -> Result<Seat, Reject<RuleError>> {
        match game.seat_of_colour(w) {
            Some(s) => Ok(s),
            None => perr(token, w, &[form]),
        }
    };
    let one = |a: Action| Ok(vec![(a, 1)]);
    match head {
        "discard" => one(Action::Discard(card("discard <card>")?)),
        "play" => one(Action::Play(card("play <card>")?)),
        "gun" => one(Action::Gun(card("gun <card>")?)),
        "trade" => one(Action::Trade(card("trade <card>")?)),
        "pick" => one(Action::Pick(card("pick <card>")?)),
        "burn" => one(Action::Burn(chamber("burn <chamber>")?)),
        "portal" => one(Action::Portal(chamber("portal <chamber>")?)),
        "kill" => one(Action::Kill(chamber("kill <chamber>")?)),
        "flip" => one(Action::Flip(chamber("flip <chamber>")?)),
        "from" => one(Action::From(chamber("from <chamber>")?)),
        "cube" => one(Action::Cube(chamber("cube <chamber>")?)),
        "opera" | "done" | "pass" | "stop" | "abstain" | "card" => {
            let form = FORMS
                .iter()
                .find(|f| **f == head)
                .copied()
                .unwrap_or("done");
            check_arity(args, 0, form)?;
            one(match head {
                "opera" => Action::Opera,
                "done" => Action::Done,
                "pass" => Action::Pass,
                "stop" => Action::Stop,
                "abstain" => Action::Abstain,
                _ => Action::TakeCard,
            })
        }
        "remove" => match args {
            [] => one(Action::Remove),
            ["turret"] => one(Action::RemoveTurret),
            ["cube"] => one(Action::RemoveCube),
            _ => perr(2, args[0], &["remove", "remove turret", "remove cube"]),
        },
        "move" => {
            let form = "move <chamber> <n> <chamber>";
            match args.len() {
                1 => one(Action::Move(chamber("move <chamber>")?)),
                3 => {
                    let Some(a) = parse_chamber(args[0]) else {
                        return perr(2, args[0], &[form]);
                    };
                    let n = args[1]
                        .parse::<u8>()
                        .ok()
                        .filter(|n| (1..=8).contains(n) && !args[1].starts_with('0'));
                    let Some(n) = n else {
                        return perr(3, args[1], &[form]);
                    };
                    let Some(b) = parse_chamber(args[2]) else {
                        return perr(4, args[2], &[form]);
                    };
                    Ok(vec![
                        (Action::Move(a), 2),
                        (Action::Count(n), 3),
                        (Action::To(b), 4),
                    ])
                }
                0 => perr(2, "", &["move <chamber>", form]),
                _ => perr(3, args[1], &["move <chamber>", form]),
            }
        }
        "count" => {
            check_arity(args, 1, "count <n>")?;
            match args[0].parse::<u8>() {
                Ok(n) if (1..=8).contains(&n) && !args[0].starts_with('0') => one(Action::Count(n)),
                _ => perr(2, args[0], &["count <n>"]),
            }
        }
        "to" => match floor_or_ch("to <chamber> | to <floor>")? {
            Place::Ch(c) => one(Action::To(c)),
            Place::Floor(f) => one(Action::ToFloor(f)),
        },
        "carry" => {
            check_arity(args, 1, "carry <colour> | carry done")?;
            if args[0] == "done" {
                one(Action::CarryDone)
            } else {
                one(Action::Carry(colour(args[0], 2, "carry <colour>")?))
            }
        }
        "vote" => {
            check_arity(args, 1, "vote <colour>")?;
            one(Action::Vote(colour(args[0], 2, "vote <colour>")?))
        }
        "bonus" => {
            check_arity(args, 1, "bonus <floor> | bonus card")?;
            if args[0] == "card" {
                one(Action::BonusCard)
            } else {
                let p = floor_or_ch("bonus <floor>")?;
                one(edge_alias(game, p, false, Action::BonusFloor))
            }
        }
        "activate" => {
            let p = floor_or_ch("activate <floor>")?;
            if let Place::Ch(ch) = p {
                if !game.exists(ch) {
                    return rule(RuleError::NoSuchChamber);
                }
                if game.old_edge(ch.f) != Some(ch) {
                    return rule(RuleError::NotOldEdge);
                }
            }
            one(edge_alias(game, p, true, Action::Activate))
        }
        "subject" => one(edge_alias(
            game,
            floor_or_ch("subject <floor>")?,
            false,
            Action::Subject,
        )),
        "cake" => one(edge_alias(
            game,
            floor_or_ch("cake <floor>")?,
            false,
            Action::Cake,
        )),
        "recycle" => match floor_or_ch("recycle <floor>")? {
            Place::Floor(f) => one(Action::Recycle(f)),
            Place::Ch(_) => perr(2, args[0], &["recycle <floor>"]),
        },
        "turret" => {
            check_arity(args, 1, "turret <chamber> | turret stay | turret <floor>")?;
            if args[0] == "stay" {
                return one(Action::TurretStay);
            }
            match place(args[0]) {
                Some(Place::Floor(f)) => match game.turret {
                    Some(_) => game.new_edge(f).map_or_else(
                        || perr(2, args[0], &["turret <chamber>"]),
                        |c| one(Action::Turret(c)),
                    ),
                    None => one(Action::TurretFloor(f)),
                },
                Some(Place::Ch(c)) => {
                    if game.turret.is_none() && game.new_edge(c.f) == Some(c) {
                        one(Action::TurretFloor(c.f))
                    } else {
                        one(Action::Turret(c))
                    }
                }
                None => perr(
                    2,
                    args[0],
                    &["turret <chamber> | turret stay | turret <floor>"],
                ),
            }
        }
        w => {
            if args.is_empty() {
                if let Some(s) = game.seat_of_colour(w) {
                    return one(Action::Colour(s));
                }
            }
            perr(1, w, FORMS)
        }
    }
}

/// Adapts an option to the prompt it meets: `to <floor>` where a chamber is asked names that
/// floor's new edge, and a new-edge chamber where a floor is asked names the floor.
fn adapt(game: &Portal, step: &Step, a: Action) -> Action {
    let wants_floor = matches!(step, Step::Deliver { .. } | Step::CarolineTo { .. })
        || (matches!(step, Step::OperaTurret) && game.turret.is_none());
    match a {
        Action::To(ch) if wants_floor && game.new_edge(ch.f) == Some(ch) => Action::ToFloor(ch.f),
        Action::ToFloor(f) if !wants_floor => game.new_edge(f).map_or(a, Action::To),
        _ => a,
    }
}

/// Reads one segment typed by `seat` and resolves it against a copy of the state.
pub fn parse(game: &Portal, seat: Seat, segment: &str) -> Result<Vec<Action>, Reject<RuleError>> {
    let (verb, args) = verb_and_args(segment, FORMS)?;
    let intended = read(game, verb, &args)?;
    let macro_ = intended.len() > 1;
    let mut work = game.clone();
    let mut out = Vec::new();
    for (a, token) in intended {
        let fail = |error: RuleError| Reject::Rule {
            token: macro_.then_some(token),
            error,
        };
        let Some(step) = work.current().cloned() else {
            out.push(a);
            break;
        };
        let a = adapt(&work, &step, a);
        let verb_fits = step.verbs().contains(&a.verb())
            || (matches!(a, Action::Colour(_)) && step.verbs().contains(&"colour"));
        let mine = work.step_seat(&step) == seat;
        if mine && verb_fits {
            Game::apply(&mut work, seat, &a).map_err(fail)?;
            out.push(a);
            continue;
        }
        // Spec 6.13 rule 3: a prompt the engine answered for this seat.
        let auto = work
            .autos
            .iter()
            .rev()
            .find(|r| r.seat == seat && (r.step.verbs().contains(&a.verb())));
        if let Some(rec) = auto {
            if rec.action == a {
                if mine {
                    continue;
                }
                // Another seat's turn: the engine answers "not your turn".
                out.push(a);
                break;
            }
            let err = rec
                .errs
                .iter()
                .find(|(o, _)| *o == a)
                .map_or(rec.default_err, |(_, e)| *e);
            return Err(fail(err));
        }
        if !mine {
            // The engine answers "not your turn" with the seat it waits for.
            out.push(a);
            break;
        }
        return Err(fail(
            if step == Step::HandLimit && Step::Deploy.verbs().contains(&a.verb()) {
                RuleError::MustDiscard
            } else {
                RuleError::NotThisPrompt
            },
        ));
    }
    Ok(out)
}

/// Applies a whole line on a copy (tests and tools): every segment must apply.
pub fn play_line(
    game: &mut Portal,
    seat: Seat,
    line: &str,
) -> Result<Log, (usize, Reject<RuleError>)> {
    let mut work = game.clone();
    let mut log = Log::default();
    for (i, seg) in line
        .split(';')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .enumerate()
    {
        let actions = parse(&work, seat, &seg.to_ascii_lowercase()).map_err(|e| (i + 1, e))?;
        for a in actions {
            let applied = Game::apply(&mut work, seat, &a)
                .map_err(|error| (i + 1, Reject::Rule { token: None, error }))?;
            log.events.extend(applied.events);
        }
    }
    *game = work;
    Ok(log)
}
