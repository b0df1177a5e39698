//! Notation (spec section 10): printing atomic options and reading typed segments, macros
//! included. Reading is two steps: parse the words (parse errors), then resolve macros
//! against the state (rule errors), so a rejected line never changes anything.

use super::moves::Action;
use super::rules::{Ask, RuleError};
use super::state::{canonical, Cortexcape, Piece, Place, Stage, Start};
use crate::engine::notation::{check_arity, digits, perr, rule, verb_and_args};
use crate::engine::{Game, Reject, Seat};

/// Every form the parser understands.
pub const FORMS: &[&str] = &[
    "put <door> <kind>",
    "tower <from> <to>",
    "random",
    "done",
    "reset",
    "exit x<k>",
    "from <door>",
    "start <place>-<place>",
    "start x<k>",
    "step <place>",
    "layout <kind>:<door>,<door>… t:<from>><to>,…",
    "layout random",
    "path <place> <place>…",
];

/// Canonical notation of an atomic option.
pub fn notation(action: &Action) -> String {
    match *action {
        Action::Put { door, kind } => format!("put {door} {}", kind.code()),
        Action::Tower { from, to } => format!("tower {from} {to}"),
        Action::Random => "random".into(),
        Action::Done => "done".into(),
        Action::Reset => "reset".into(),
        Action::Exit(x) => format!("exit x{x}"),
        Action::From(d) => format!("from {d}"),
        Action::Start(s) => format!("start {}", s.notation()),
        Action::Step(p) => format!("step {}", p.notation()),
    }
}

/// `7` or `d7`, 1..=20.
pub fn parse_door(s: &str) -> Option<u8> {
    let n: u8 = digits(s.strip_prefix('d').unwrap_or(s), 3)?;
    (1..=20).contains(&n).then_some(n)
}

/// `x4`, 1..=12.
pub fn parse_exit(s: &str) -> Option<u8> {
    let n: u8 = digits(s.strip_prefix('x')?, 3)?;
    (1..=12).contains(&n).then_some(n)
}

pub fn parse_place(s: &str) -> Option<Place> {
    if s.starts_with('x') {
        parse_exit(s).map(Place::Exit)
    } else {
        parse_door(s).map(Place::Door)
    }
}

/// `a-b` in either order, normalised to the canonical id.
pub fn parse_corridor(s: &str) -> Option<(Place, Place)> {
    let (a, b) = s.split_once('-')?;
    Some(canonical(parse_place(a)?, parse_place(b)?))
}

fn kind(s: &str) -> Option<Piece> {
    let mut c = s.chars();
    match (c.next(), c.next()) {
        (Some(ch), None) => Piece::from_code(ch),
        _ => None,
    }
}

/// One group of a `layout` line.
enum Group {
    Kind(Piece, Vec<u8>),
    Moves(Vec<(u8, u8)>),
}

/// Reads one segment typed by `seat`. Token numbers are 1-based words of the segment, except
/// for `path`, whose tokens are its places (token 1 = the first place).
pub fn parse(
    game: &Cortexcape,
    seat: Seat,
    segment: &str,
) -> Result<Vec<Action>, Reject<RuleError>> {
    let (head, args) = verb_and_args(segment, FORMS)?;
    // Fixed-arity options: check the word count, then read each argument.
    let arity = |n: usize, form: &str| check_arity(&args, n, form);
    match head {
        "put" => {
            let form = "put <door> <kind>";
            arity(2, form)?;
            let Some(door) = parse_door(args[0]) else {
                return perr(2, args[0], &[form]);
            };
            let Some(kind) = kind(args[1]) else {
                return perr(3, args[1], &["w", "g", "y", "r", "t"]);
            };
            Ok(vec![Action::Put { door, kind }])
        }
        "tower" => {
            let form = "tower <from> <to>";
            arity(2, form)?;
            let Some(from) = parse_door(args[0]) else {
                return perr(2, args[0], &[form]);
            };
            let Some(to) = parse_door(args[1]) else {
                return perr(3, args[1], &[form]);
            };
            Ok(vec![Action::Tower { from, to }])
        }
        "random" => {
            arity(0, "random")?;
            Ok(vec![Action::Random])
        }
        "done" => {
            arity(0, "done")?;
            Ok(vec![Action::Done])
        }
        "reset" => {
            arity(0, "reset")?;
            Ok(vec![Action::Reset])
        }
        "exit" => {
            arity(1, "exit x<k>")?;
            match parse_exit(args[0]) {
                Some(x) => Ok(vec![Action::Exit(x)]),
                None => perr(2, args[0], &["exit x<k>"]),
            }
        }
        "from" => {
            arity(1, "from <door>")?;
            match parse_door(args[0]) {
                Some(d) => Ok(vec![Action::From(d)]),
                None => perr(2, args[0], &["from <door>"]),
            }
        }
        "step" => {
            arity(1, "step <place>")?;
            match parse_place(args[0]) {
                Some(p) => Ok(vec![Action::Step(p)]),
                None => perr(2, args[0], &["step <place>"]),
            }
        }
        "start" => {
            let forms = ["start <place>-<place>", "start x<k>"];
            arity(1, "start <place>-<place>")?;
            let arg = args[0];
            if arg.contains('-') {
                let Some((a, b)) = parse_corridor(arg) else {
                    return perr(2, arg, &forms);
                };
                start_corridor(game, seat, a, b)
            } else {
                match parse_exit(arg) {
                    Some(x) => Ok(vec![Action::Start(Start::Exit(x))]),
                    None => perr(2, arg, &forms),
                }
            }
        }
        "path" => {
            if args.is_empty() {
                return perr(2, "", &["path <place> <place>…"]);
            }
            let mut places = Vec::with_capacity(args.len());
            for (j, w) in args.iter().enumerate() {
                match parse_place(w) {
                    Some(p) => places.push(p),
                    None => return perr(j + 1, w, &["path <place> <place>…"]),
                }
            }
            path(game, seat, &places)
        }
        "layout" => {
            if args == ["random"] {
                return Ok(vec![Action::Random]);
            }
            let groups = parse_groups(game, &args)?;
            layout(game, seat, &groups)
        }
        _ => perr(1, head, FORMS),
    }
}

/// The seat that must decide now, if any.
fn to_act(game: &Cortexcape) -> Option<Seat> {
    game.ask().map(|a| game.ask_seat(a))
}

/// `start a-b`: at P5 it expands to `from <first door>; start a-b` after the start checks.
fn start_corridor(
    game: &Cortexcape,
    seat: Seat,
    a: Place,
    b: Place,
) -> Result<Vec<Action>, Reject<RuleError>> {
    let action = Action::Start(Start::Corridor(a, b));
    if game.ask() != Some(Ask::ChooseStartDoor) {
        return Ok(vec![action]);
    }
    if to_act(game) != Some(seat) {
        return rule(RuleError::NotYourTurn);
    }
    game.check_corridor(a, b).or_else(rule)?;
    let Place::Door(d) = a else {
        return rule(RuleError::NotACorridor);
    };
    Ok(vec![Action::From(d), action])
}

/// `path …`: one step per place, checked on a copy so the first failing place is named;
/// the target exit is added when the last place is its door.
fn path(game: &Cortexcape, seat: Seat, places: &[Place]) -> Result<Vec<Action>, Reject<RuleError>> {
    if to_act(game) != Some(seat) {
        return rule(RuleError::NotYourTurn);
    }
    let mut work = game.clone();
    let mut out = Vec::with_capacity(places.len() + 1);
    for (j, &q) in places.iter().enumerate() {
        let a = Action::Step(q);
        Game::apply(&mut work, seat, &a).map_err(|error| Reject::Rule {
            token: Some(j + 1),
            error,
        })?;
        out.push(a);
    }
    if let (Some(&Place::Door(d)), Some(x)) = (places.last(), work.target) {
        if work.data().exit_door(x) == Some(d) && work.ask() == Some(Ask::Step) {
            let a = Action::Step(Place::Exit(x));
            Game::apply(&mut work, seat, &a).map_err(|error| Reject::Rule {
                token: Some(places.len() + 1),
                error,
            })?;
            out.push(a);
        }
    }
    Ok(out)
}

fn parse_groups(game: &Cortexcape, args: &[&str]) -> Result<Vec<Group>, Reject<RuleError>> {
    let kind_form = "<kind>:<door>,<door>…";
    let move_form = "t:<from>><to>,<from>><to>…";
    let forms: &[&str] = if game.round == 1 {
        &[kind_form]
    } else {
        &[kind_form, move_form]
    };
    if args.is_empty() {
        return perr(2, "", forms);
    }
    let mut groups = Vec::with_capacity(args.len());
    for (i, w) in args.iter().enumerate() {
        let token = i + 2;
        let Some((k, items)) = w.split_once(':') else {
            return perr(token, w, forms);
        };
        let Some(piece) = kind(k) else {
            return perr(token, w, forms);
        };
        if items.is_empty() {
            return perr(token, w, forms);
        }
        if piece == Piece::Tower && game.round > 1 {
            let mut moves = Vec::new();
            for item in items.split(',') {
                let pair = item
                    .split_once('>')
                    .and_then(|(a, b)| Some((parse_door(a)?, parse_door(b)?)));
                match pair {
                    Some(p) => moves.push(p),
                    None => return perr(token, item, &[move_form]),
                }
            }
            groups.push(Group::Moves(moves));
        } else {
            let mut doors = Vec::new();
            for item in items.split(',') {
                match parse_door(item) {
                    Some(d) => doors.push(d),
                    None => return perr(token, item, &[kind_form]),
                }
            }
            groups.push(Group::Kind(piece, doors));
        }
    }
    Ok(groups)
}

/// `layout …`: the checks of spec section 10 in order, then the expansion into the `put`
/// decisions the prompts will ask (auto-filled doors skipped) and the `tower` decisions.
fn layout(
    game: &Cortexcape,
    seat: Seat,
    groups: &[Group],
) -> Result<Vec<Action>, Reject<RuleError>> {
    if to_act(game) != Some(seat) {
        return rule(RuleError::NotYourTurn);
    }
    if game.stage != Stage::Configure || game.touched {
        return rule(RuleError::LayoutNotAtStart);
    }
    let mut named: Vec<(u8, Piece)> = Vec::new();
    let mut moves: Vec<(u8, u8)> = Vec::new();
    for g in groups {
        match g {
            Group::Kind(k, doors) => named.extend(doors.iter().map(|&d| (d, *k))),
            Group::Moves(m) => moves.extend(m.iter().copied()),
        }
    }
    let mut seen = [false; 21];
    for &(d, _) in &named {
        if std::mem::replace(&mut seen[usize::from(d)], true) {
            return rule(RuleError::LayoutDoorTwice);
        }
    }
    let mut seen_from = [false; 21];
    for &(f, _) in &moves {
        if std::mem::replace(&mut seen_from[usize::from(f)], true) {
            return rule(RuleError::LayoutDoorTwice);
        }
    }
    if named.iter().any(|(d, _)| !game.targets.contains(d)) {
        return rule(RuleError::NotAnEmptiedDoor);
    }
    let kind_of = |d: u8| {
        named
            .iter()
            .find(|(n, _)| *n == d)
            .map_or(Piece::White, |&(_, k)| k)
    };
    let mut counts = [0u8; 5];
    for &d in &game.targets {
        counts[kind_of(d).index()] += 1;
    }
    if counts != game.snap_pool || moves.len() != game.prev_towers.len() {
        return rule(RuleError::LayoutCountMismatch);
    }
    // Tower moves in the order written, with the P2 errors. Once they pass, the prompts'
    // ascending order below applies them without error (legality does not depend on order).
    let mut towers = game.prev_towers.clone();
    for &(from, to) in &moves {
        if !game.prev_towers.contains(&from) {
            return rule(RuleError::WrongDoor);
        }
        if towers.contains(&to) {
            return rule(RuleError::HoldsTower);
        }
        if game.prev_towers.contains(&to) {
            return rule(RuleError::BlockedLastRound);
        }
        towers.retain(|&t| t != from);
        towers.push(to);
    }
    let mut work = game.clone();
    let mut out = Vec::new();
    while let Some(ask) = work.ask() {
        let action = match ask {
            Ask::PlaceCylinder(d) => Action::Put {
                door: d,
                kind: kind_of(d),
            },
            Ask::MoveTower(f) => match moves.iter().find(|(from, _)| *from == f) {
                Some(&(from, to)) => Action::Tower { from, to },
                None => return rule(RuleError::LayoutCountMismatch),
            },
            _ => break,
        };
        Game::apply(&mut work, seat, &action).or_else(rule)?;
        out.push(action);
    }
    Ok(out)
}
