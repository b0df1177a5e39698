//! Cortexcape tests: the scenarios T1..T15 of spec section 12, one test per rule not covered
//! there, data-file validation, seeded random playouts and a parser property test.

use super::lab::{self, DataError, LabId};
use super::moves::{Action, Event, HindsightInfo};
use super::rules::RuleError;
use super::state::{Cortexcape, Piece, Place, Stage, Start};
use crate::engine::{AnyGame, Game, GameOptions, PlayError, Present, Reject, RenderCtx, Seat};
use crate::i18n::Lang;

// ---------------------------------------------------------------- scenario builder

const L1: &str = "t:4,9,16 r:13,17 y:2,8,15 g:1,7,12,19";
const G1: &str = "t:17,18,19 r:2,9 y:6,14,20 g:5,10,11,13";
const R1: &str = "t:2,10,17 r:7,14 y:3,13,16 g:8,9,12,18";
const B1: &str = "t:8,14,19 r:7,13 y:3,12,15 g:2,9,17,20";

fn new_game(lab: &str, seats: usize, first: usize, short: bool) -> Cortexcape {
    let mut o = GameOptions::new();
    o.insert("lab".into(), lab.into());
    o.insert("first".into(), format!("seat{first}"));
    o.insert("short".into(), short.to_string());
    Cortexcape::setup(&o, seats, 42).unwrap()
}

fn d(n: u8) -> Place {
    Place::Door(n)
}

fn x(n: u8) -> Place {
    Place::Exit(n)
}

fn corr(a: Place, b: Place) -> Start {
    Start::Corridor(a, b)
}

fn to_act(g: &Cortexcape) -> Seat {
    AnyGame::prompt(g).unwrap().seat
}

/// Plays a line for the seat that must act now; panics if refused.
fn play(g: &mut Cortexcape, line: &str) -> Vec<crate::engine::AppliedMove> {
    let seat = to_act(g);
    g.play_line(seat, line)
        .unwrap_or_else(|e| panic!("`{line}` refused: {e}"))
}

/// The options of the current prompt, as notation.
fn opts(g: &Cortexcape) -> Vec<String> {
    AnyGame::prompt(g).unwrap().options
}

fn kind(g: &Cortexcape) -> &'static str {
    AnyGame::prompt(g).unwrap().kind
}

fn strs(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| (*s).to_string()).collect()
}

/// Asserts that `line` is refused with `error` at `token` and changes nothing.
fn refused(g: &mut Cortexcape, line: &str, token: Option<usize>, error: RuleError) {
    let seat = to_act(g);
    let before = g.to_json();
    let e = g.play_line(seat, line).unwrap_err();
    match e {
        PlayError::Illegal {
            token: t, reason, ..
        } => {
            assert_eq!(
                (t, reason),
                (token, error.text()),
                "`{line}`: wanted {error:?} at {token:?}"
            );
        }
        other => panic!("`{line}`: wanted {error:?}, got {other:?}"),
    }
    assert_eq!(g.to_json(), before, "`{line}` changed the state");
}

fn parse_refused(g: &mut Cortexcape, line: &str) {
    let seat = to_act(g);
    let before = g.to_json();
    assert!(
        matches!(g.play_line(seat, line), Err(PlayError::Parse { .. })),
        "`{line}` should be a parse error"
    );
    assert_eq!(g.to_json(), before);
}

/// Applies a line on a copy and returns the running cost reached.
fn cost_of(g: &Cortexcape, line: &str) -> i64 {
    let mut c = g.clone();
    play(&mut c, line);
    c.running_cost()
}

/// The events of the last move of a line.
fn last_events(g: &mut Cortexcape, line: &str) -> Vec<Event> {
    let seat = to_act(g);
    let mut actions = Vec::new();
    for seg in line.split(';') {
        actions.extend(Game::parse(&*g, seat, seg.trim()).unwrap());
    }
    let mut events = Vec::new();
    for a in actions {
        events = g.apply(seat, &a).unwrap().events;
    }
    events
}

/// Sets the board from a canonical layout string (unnamed doors white), skipping Configure.
fn force_layout(g: &mut Cortexcape, layout: &str) {
    let mut board = [Some(Piece::White); 20];
    for group in layout.split_whitespace() {
        let (k, doors) = group.split_once(':').unwrap();
        let piece = Piece::from_code(k.chars().next().unwrap()).unwrap();
        for n in doors.split(',') {
            board[n.parse::<usize>().unwrap() - 1] = Some(piece);
        }
    }
    g.board = board;
    g.pool = [0; 5];
    g.targets.clear();
    g.prev_towers.clear();
    g.towers_moved = 0;
    g.stage = Stage::Configure;
}

/// A round-1 game on `lab` with `layout` confirmed; the setter is to act.
fn configured(lab: &str, layout: &str, short: bool) -> Cortexcape {
    let mut g = new_game(lab, 2, 1, short);
    play(&mut g, &format!("layout {layout}; done"));
    g
}

/// T1's position: L1 on Blue, setter played `exit x4; start 12-13; done`.
fn t1() -> Cortexcape {
    let mut g = configured("blue", L1, false);
    play(&mut g, "exit x4; start 12-13; done");
    g
}

fn count_pieces(g: &Cortexcape) -> [u8; 5] {
    let mut c = g.pool;
    for p in g.board.iter().flatten() {
        c[p.index()] += 1;
    }
    c
}

/// Number of (start, exit) challenges reaching `value` on the current layout.
fn challenges_at(g: &Cortexcape, value: i64) -> usize {
    let mut n = 0;
    for t in (1..=12u8).filter(|&t| g.exit_free(t)) {
        let tt = g.to_target(t);
        let starts: Vec<Start> = if g.short {
            (1..=12u8)
                .filter(|&k| k != t && g.exit_free(k))
                .map(Start::Exit)
                .collect()
        } else {
            g.lab_data()
                .corridors
                .iter()
                .map(|&(a, b)| corr(a, b))
                .collect()
        };
        n += starts
            .into_iter()
            .filter(|&s| g.start_cost(&tt, s).map(|c| c.0) == Some(value))
            .count();
    }
    n
}

// ---------------------------------------------------------------- T1..T15

#[test]
fn t1_basic_escape() {
    let mut g = new_game("blue", 2, 1, false);
    let moves = play(&mut g, "layout t:4,9,16 r:13,17 y:2,8,15 g:1,7,12,19; done");
    // 19 puts, then `done`; door 20 filled automatically by the 19th put.
    assert_eq!(moves.len(), 20);
    assert!(moves[..19].iter().all(|m| m.notation.starts_with("put ")));
    assert_eq!(moves[19].notation, "done");
    assert_eq!(
        g.layout_string(),
        "t:4,9,16 r:13,17 y:2,8,15 g:1,7,12,19 w:3,5,6,10,11,14,18,20"
    );
    play(&mut g, "exit x4; start 12-13; done");
    assert_eq!(opts(&g), strs(&["step 12", "step 13"]));
    assert_eq!(g.cheapest_for(corr(d(12), d(13)), 4).unwrap().0, 6);
    // Walking past the cone is legal too, with cost 7.
    assert_eq!(cost_of(&g, "path 12 13 18 19 20 15 10 5"), 7);
    let moves = play(&mut g, "path 13 18 19 20 15 10 5");
    assert_eq!(moves.len(), 8);
    assert_eq!(moves[7].notation, "step x4");
    assert_eq!(kind(&g), "confirm_path");
    assert_eq!(g.running_cost(), 6);
    assert_eq!(challenges_at(&g, 13), 48);
    let events = last_events(&mut g, "done");
    assert_eq!(g.scores, vec![6, 0]);
    assert_eq!(g.marbles[3], Some(Seat(0)));
    for n in [5, 10, 13, 15, 18, 19, 20] {
        assert_eq!(g.piece(n), None, "door {n}");
    }
    assert_eq!(g.pool, [4, 1, 1, 1, 0]);
    let hind = events.iter().find_map(|e| match e {
        Event::Hindsight(h) => Some(h.clone()),
        _ => None,
    });
    assert_eq!(
        hind,
        Some(HindsightInfo {
            cheapest: 6,
            cheapest_path: g.history[0].cheapest.clone().unwrap().1,
            matched: true,
            best: 13,
            best_start: corr(d(4), d(5)),
            best_exit: 1,
        })
    );
    assert_eq!(g.history[0].setter_best, Some((13, corr(d(4), d(5)), 1)));
    // The event order of spec P9.
    let names: Vec<&str> = events
        .iter()
        .map(|e| match e {
            Event::PathConfirmed { .. } => "path",
            Event::CylindersCollected { .. } => "collected",
            Event::ScoreAdded { .. } => "score",
            Event::MarblePlaced { .. } => "marble",
            Event::ConesRemoved => "cones",
            Event::Hindsight(_) => "hindsight",
            Event::RoundEnded { .. } => "end",
            Event::RoundStarted { .. } => "start",
            _ => "other",
        })
        .collect();
    assert_eq!(
        names,
        [
            "path",
            "collected",
            "score",
            "marble",
            "cones",
            "hindsight",
            "end",
            "start"
        ]
    );
}

#[test]
fn t2_illegal_paths() {
    let mut g = t1();
    refused(&mut g, "path 13 14 9 10 5", Some(2), RuleError::DeadEnd);
    refused(&mut g, "path 13 18 19 14", Some(4), RuleError::NotAdjacent);
    refused(&mut g, "path 12 13 12", Some(3), RuleError::AlreadyVisited);
    refused(&mut g, "path 13 18 17", Some(3), RuleError::DeadEnd);
    refused(&mut g, "path 13 18 19 20 x7", Some(5), RuleError::WrongExit);
    refused(
        &mut g,
        "path 13 18 19 20 15 10 5 4",
        Some(8),
        RuleError::TowerDoor,
    );
    refused(&mut g, "path 7 12 13", Some(1), RuleError::NotAdjacent);
    refused(
        &mut g,
        "path 13 18 19 20 15 10 5 x4 x4",
        Some(9),
        RuleError::PathAlreadyComplete,
    );
    play(&mut g, "path 13 18 19 20 15");
    assert_eq!(g.running_cost(), 6);
    assert_eq!(opts(&g), strs(&["step 10"]));

    let mut g = t1();
    play(&mut g, "step 13; step 18");
    assert_eq!(opts(&g), strs(&["step 19"]));
}

#[test]
fn t3_setter_option_lists() {
    let mut g = configured("blue", L1, false);
    play(&mut g, "exit x4");
    let all: Vec<String> = (1..=20).map(|n| format!("from {n}")).collect();
    assert_eq!(opts(&g), all);
    let legal = g.legal_corridors(4);
    assert_eq!(legal.len(), 32);
    assert_eq!(g.lab_data().corridors.len(), 34);
    assert!(!legal.contains(&(d(4), x(3))));
    assert!(!legal.contains(&(d(16), x(10))));
    refused(&mut g, "start 4-9", None, RuleError::NotACorridor);
    refused(&mut g, "start 4-x3", None, RuleError::NoPathFromStart);
    let mut h = g.clone();
    play(&mut h, "from 4");
    assert_eq!(opts(&h), strs(&["start 3-4", "start 4-5"]));
    refused(&mut h, "start 4-9", None, RuleError::NotACorridor);
    refused(&mut h, "start 12-13", None, RuleError::CorridorNotAtDoor);
    let mut h = g.clone();
    play(&mut h, "from 9");
    assert_eq!(opts(&h), strs(&["start 8-9", "start 9-14"]));
    // Reversed ids are normalised; at P5 `start a-b` expands to `from a; start a-b`.
    assert_eq!(
        Game::parse(&g, Seat(1), "start 8-7"),
        Ok(vec![Action::From(7), Action::Start(corr(d(7), d(8)))])
    );
    assert_eq!(
        Game::parse(&g, Seat(1), "start x12-6"),
        Ok(vec![Action::From(6), Action::Start(corr(d(6), x(12)))])
    );
    let moves = play(&mut g, "start 8-7");
    assert_eq!(moves.len(), 2);
    assert_eq!(moves[1].notation, "start 7-8");
}

#[test]
fn t4_exit_behind_a_tower() {
    let mut g = configured("blue", L1, false);
    play(&mut g, "exit x10");
    assert_eq!(opts(&g), strs(&["from 16"]));
    play(&mut g, "from 16");
    assert_eq!(opts(&g), strs(&["start 16-x10"]));
    play(&mut g, "start 16-x10; done");
    assert_eq!(opts(&g), strs(&["step x10"]));
    refused(&mut g, "path 16", Some(1), RuleError::TowerDoor);
    let events = last_events(&mut g, "step x10; done");
    assert!(events.contains(&Event::CylindersCollected {
        doors: vec![],
        kinds: vec![]
    }));
    assert_eq!(g.scores, vec![0, 0]);
    // Next round: no refill, only the three tower moves.
    assert_eq!(kind(&g), "move_tower");
    play(&mut g, "tower 4 1");
    assert_eq!(kind(&g), "move_tower");
    play(&mut g, "tower 9 2");
    assert_eq!(kind(&g), "move_tower");
    play(&mut g, "tower 16 3");
    assert_eq!(kind(&g), "confirm_layout");
}

#[test]
fn t5_closed_exit() {
    let mut g = configured("blue", L1, false);
    g.marbles[0] = Some(Seat(1));
    refused(&mut g, "exit x1", None, RuleError::ExitClosed);
    assert!(!opts(&g).contains(&"exit x1".to_string()));
    assert_eq!(opts(&g).len(), 11);
    play(&mut g, "exit x11; start 1-x1; done");
    assert_eq!(opts(&g), strs(&["step 1"]));
    assert_eq!(g.cheapest_for(corr(d(1), x(1)), 11).unwrap().0, 1);
    refused(&mut g, "path x1 1 6 11", Some(1), RuleError::WrongExit);
    play(&mut g, "path 1 6 11");
    assert_eq!(kind(&g), "confirm_path");
    assert_eq!(g.running_cost(), 1);
}

#[test]
fn t6_round_two_reconfiguration() {
    let mut g = t1();
    play(&mut g, "path 13 18 19 20 15 10 5; done");
    assert_eq!(to_act(&g), Seat(1));
    assert_eq!(g.prev_towers, vec![4, 9, 16]);
    let after_round_one = g.clone();

    assert_eq!(kind(&g), "place_cylinder");
    assert_eq!(
        opts(&g),
        strs(&["put 5 w", "put 5 g", "put 5 y", "put 5 r", "random"])
    );
    refused(&mut g, "put 5 t", None, RuleError::KindNotInPool);
    play(&mut g, "put 5 r");
    assert_eq!(
        opts(&g),
        strs(&["put 10 w", "put 10 g", "put 10 y", "random"])
    );
    play(&mut g, "put 10 g");
    assert_eq!(opts(&g), strs(&["put 13 w", "put 13 y", "random"]));
    play(&mut g, "put 13 w; put 15 w; put 18 w");
    let events = last_events(&mut g, "put 19 w");
    assert_eq!(
        events.last(),
        Some(&Event::CylinderPlaced {
            door: 20,
            kind: Piece::Yellow,
            auto: true
        })
    );
    assert_eq!(kind(&g), "move_tower");
    let o = opts(&g);
    assert_eq!(o.len(), 18);
    assert_eq!(o.last().unwrap(), "random");
    assert!(!o.contains(&"tower 4 9".to_string()) && !o.contains(&"tower 4 16".to_string()));
    let events = last_events(&mut g, "tower 4 13");
    assert_eq!(
        events,
        vec![Event::TowerMoved {
            from: 4,
            to: 13,
            displaced: Piece::White
        }]
    );
    refused(&mut g, "tower 9 13", None, RuleError::HoldsTower);
    refused(&mut g, "tower 9 4", None, RuleError::BlockedLastRound);
    refused(&mut g, "tower 16 11", None, RuleError::WrongDoor);
    assert_eq!(opts(&g).len(), 17);
    play(&mut g, "tower 9 14; tower 16 11");
    assert_eq!(kind(&g), "confirm_layout");
    play(&mut g, "done");
    let want = "t:11,13,14 r:5,17 y:2,8,20 g:1,7,10,12 w:3,4,6,9,15,16,18,19";
    assert_eq!(g.layout_string(), want);

    let mut h = after_round_one.clone();
    refused(
        &mut h,
        "layout r:1 g:10 y:20 t:4>13,9>14,16>11",
        None,
        RuleError::NotAnEmptiedDoor,
    );
    // Tower moves are checked in the order written.
    refused(
        &mut h,
        "layout r:5 g:10 y:20 t:9>5,4>9,16>11",
        None,
        RuleError::BlockedLastRound,
    );
    refused(
        &mut h,
        "layout r:5 g:10 y:20 t:9>5,4>5,16>11",
        None,
        RuleError::HoldsTower,
    );
    refused(
        &mut h,
        "layout r:5 g:10 y:20 t:9>5,1>6,16>11",
        None,
        RuleError::WrongDoor,
    );
    refused(
        &mut h,
        "layout r:5 g:10 y:20 t:4>13,9>14",
        None,
        RuleError::LayoutCountMismatch,
    );
    refused(
        &mut h,
        "layout r:5 g:10 y:20 t:4>13,4>14,16>11",
        None,
        RuleError::LayoutDoorTwice,
    );
    parse_refused(&mut h, "layout r:5 g:10 y:20 t:4,9,16");
    play(&mut h, "layout r:5 g:10 y:20 t:16>11,4>13,9>14; done");
    assert_eq!(h.layout_string(), want);
    assert_eq!(h, g);

    play(&mut g, "exit x9; start 12-13; done");
    assert_eq!(opts(&g), strs(&["step 12"]));
    refused(
        &mut g,
        "path 12 7 8 3 2 1 6 11",
        Some(5),
        RuleError::DeadEnd,
    );
    refused(&mut g, "path 12 7 8 9 14", Some(4), RuleError::DeadEnd);
    assert_eq!(g.cheapest_for(corr(d(12), d(13)), 9).unwrap().0, 13);
    assert_eq!(g.setter_best(), Some((13, corr(d(12), d(13)), 9)));
    play(&mut g, "path 12 7 8 3 4 5 10 15 20 19 18 17");
    assert_eq!(g.running_cost(), 13);
    play(&mut g, "done");
    assert_eq!(g.scores, vec![6, 13]);
    assert_eq!(g.history[1].cheapest.as_ref().unwrap().0, 13);
}

#[test]
fn t7_dead_end_filter_green() {
    let mut g = configured("green", G1, false);
    assert_eq!(g.setter_best(), Some((11, corr(d(6), x(12)), 7)));
    assert_eq!(
        g.cheapest_for(corr(d(19), d(20)), 12).unwrap().0,
        11,
        "tie listed in T7"
    );
    assert_eq!(g.cheapest_for(corr(d(20), x(7)), 12).unwrap().0, 11);
    play(&mut g, "exit x12; start 11-12; done");
    assert_eq!(opts(&g), strs(&["step 11", "step 12"]));
    assert_eq!(g.cheapest_for(corr(d(11), d(12)), 12).unwrap().0, 3);
    let mut h = g.clone();
    play(&mut h, "step 11");
    assert_eq!(opts(&h), strs(&["step 6", "step 12"]));
    assert_eq!(cost_of(&g, "path 11 6"), 3);
    assert_eq!(cost_of(&g, "path 12 11 6"), 3);
    assert_eq!(cost_of(&g, "path 12 13 8 7 2 1 6"), 6);
    assert_eq!(cost_of(&g, "path 11 12 13 8 7 2 1 6"), 7);
    refused(&mut g, "path 11 16", Some(2), RuleError::DeadEnd);
    refused(&mut g, "path 12 11 12", Some(3), RuleError::AlreadyVisited);
}

#[test]
fn t8_diagonals_red() {
    let mut g = configured("red", R1, false);
    assert_eq!(g.setter_best(), Some((10, corr(d(2), d(7)), 6)));
    assert_eq!(g.cheapest_for(corr(d(2), d(7)), 7).unwrap().0, 10);
    assert_eq!(g.cheapest_for(corr(d(2), d(7)), 8).unwrap().0, 10);
    let mut h = g.clone();
    play(&mut h, "exit x5");
    assert_eq!(opts(&h), strs(&["from 10"]));
    play(&mut h, "from 10");
    assert_eq!(opts(&h), strs(&["start 10-x5"]));
    play(&mut g, "exit x3; start 1-6; done");
    assert_eq!(opts(&g), strs(&["step 1", "step 6"]));
    assert_eq!(g.cheapest_for(corr(d(1), d(6)), 3).unwrap().0, 5);
    assert_eq!(cost_of(&g, "path 6 12 18 13 9 4"), 5);
    assert_eq!(cost_of(&g, "path 6 12 18 13 8 9 4"), 6);
    assert_eq!(cost_of(&g, "path 6 7 12 18 13 9 4"), 8);
    refused(&mut g, "path 6 12 13 9 4", Some(3), RuleError::NotAdjacent);
    refused(&mut g, "path 1 2 3 4", Some(2), RuleError::TowerDoor);
}

#[test]
fn t9_hub_black() {
    let mut g = configured("black", B1, false);
    assert_eq!(g.setter_best(), Some((10, corr(d(8), d(13)), 7)));
    assert_eq!(g.cheapest_for(corr(d(13), d(14)), 7).unwrap().0, 10);
    assert_eq!(g.cheapest_for(corr(d(13), d(19)), 7).unwrap().0, 10);
    play(&mut g, "exit x6; start 13-14; done");
    assert_eq!(opts(&g), strs(&["step 13"]));
    let mut h = g.clone();
    play(&mut h, "step 13");
    assert_eq!(opts(&h), strs(&["step 7", "step 12", "step 17"]));
    assert_eq!(g.cheapest_for(corr(d(13), d(14)), 6).unwrap().0, 9);
    assert_eq!(cost_of(&g, "path 13 17 16 11 6 1 2 3 4 5 10 15"), 9);
    assert_eq!(cost_of(&g, "path 13 12 11 6 1 2 3 9 15"), 11);
    assert_eq!(cost_of(&g, "path 13 7 2 3 4 5 10 15"), 11);
    refused(&mut g, "path 13 19 20 15", Some(2), RuleError::TowerDoor);
    refused(&mut g, "path 14 15", Some(1), RuleError::TowerDoor);
}

#[test]
fn t10_short_game() {
    let mut g = configured("blue", L1, true);
    // All exits free: 45 legal pairs, x3 and x10 never offered.
    let pairs: usize = (1..=12u8).map(|t| g.legal_partners(t).len()).sum();
    assert_eq!(pairs, 90);
    let exits = opts(&g);
    assert_eq!(exits.len(), 10);
    assert!(!exits.contains(&"exit x3".into()) && !exits.contains(&"exit x10".into()));
    assert_eq!(g.setter_best(), Some((13, Start::Exit(4), 1)));
    assert_eq!(challenges_at(&g, 13), 24);
    play(&mut g, "exit x7");
    refused(&mut g, "start x7", None, RuleError::SameExit);
    refused(&mut g, "start x3", None, RuleError::NoPathFromStart);
    play(&mut g, "start x1; done");
    assert_eq!(opts(&g), strs(&["step 1"]));
    assert_eq!(g.cheapest_for(Start::Exit(1), 7).unwrap().0, 11);
    assert_eq!(g.cheapest_for(Start::Exit(7), 1).unwrap().0, 11);
    refused(&mut g, "path 1 6 11 12", Some(2), RuleError::DeadEnd);
    refused(&mut g, "path 2 3 8", Some(1), RuleError::NotAdjacent);
    play(&mut g, "path 1 2 3 8 7 12 13 18 19 20");
    assert_eq!(kind(&g), "confirm_path");
    assert_eq!(g.running_cost(), 11);
    play(&mut g, "done");
    assert_eq!(g.marbles[0], Some(Seat(0)));
    assert_eq!(g.marbles[6], Some(Seat(0)));
    assert_eq!(g.marbles_left, vec![4, 6]);
    play(&mut g, "random; done");
    let exits = opts(&g);
    assert!(!exits.contains(&"exit x1".into()) && !exits.contains(&"exit x7".into()));
    refused(&mut g, "exit x1", None, RuleError::ExitClosed);
}

#[test]
fn t11_short_game_guard() {
    let mut g = new_game("blue", 2, 1, true);
    g.round = 6;
    for (i, m) in g.marbles.iter_mut().enumerate() {
        *m = if i == 0 || i == 6 {
            None
        } else {
            Some(Seat(0))
        };
    }
    let mut bad = g.clone();
    force_layout(&mut bad, "t:2,6,14 r:13,17 y:8,15,16 g:1,7,12,19");
    assert_eq!(kind(&bad), "confirm_layout");
    assert_eq!(opts(&bad), strs(&["reset"]));
    refused(&mut bad, "done", None, RuleError::NoLegalChallenge);

    force_layout(&mut g, "t:2,9,14 r:13,17 y:6,8,15 g:1,7,12,19");
    assert_eq!(opts(&g), strs(&["done", "reset"]));
    play(&mut g, "done");
    assert_eq!(opts(&g), strs(&["exit x1", "exit x7"]));
    play(&mut g, "exit x7; start x1");
    assert_eq!(g.cheapest_for(Start::Exit(1), 7).unwrap().0, 7);
}

#[test]
fn t12_three_players_rotation_end_and_tie() {
    let mut g = new_game("green", 3, 2, false);
    let mut owners = Vec::new();
    let mut setters = Vec::new();
    for round in 1..=12u32 {
        assert_eq!(g.round, round);
        owners.push(g.owner().0);
        setters.push(g.setter().0);
        play(&mut g, "random; done");
        // The cheapest challenge: the exit's own corridor, path = the exit alone.
        let exit = opts(&g)[0].clone();
        let k: u8 = exit.trim_start_matches("exit x").parse().unwrap();
        let door = g.data().exit_door(k).unwrap();
        play(&mut g, &format!("{exit}; start {door}-x{k}; done"));
        play(&mut g, &format!("step x{k}"));
        if round == 12 {
            let mut tie = g.clone();
            tie.scores = vec![14, 14, 16];
            play(&mut tie, "done");
            let o = Game::outcome(&tie).unwrap();
            assert_eq!(o.winners, vec![Seat(0), Seat(1)]);
            assert_eq!(o.ranks, vec![1, 1, 3]);
            assert!(!o.draw);
            let mut all = g.clone();
            all.scores = vec![14, 14, 14];
            play(&mut all, "done");
            assert!(Game::outcome(&all).unwrap().draw);
            // A line that ends the game drops what follows instead of refusing the last move.
            let mut trailing = g.clone();
            let moves = play(&mut trailing, "done; done");
            assert_eq!(moves.len(), 1);
            assert!(Game::outcome(&trailing).is_some());
        }
        play(&mut g, "done");
    }
    assert_eq!(owners, [1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0]);
    assert_eq!(setters, [2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1]);
    assert!(Game::prompt(&g).is_none());
    assert!(g.marbles.iter().all(Option::is_some));
    for s in 0..3u8 {
        assert_eq!(g.marbles.iter().filter(|m| **m == Some(Seat(s))).count(), 4);
    }
    assert_eq!(g.marbles_left, vec![0, 0, 0]);
}

#[test]
fn t13_layout_notation() {
    let g0 = new_game("blue", 2, 1, false);
    let l1 = "t:4,9,16 r:13,17 y:2,8,15 g:1,7,12,19 w:3,5,6,10,11,14,18,20";
    let mut g = g0.clone();
    let moves = play(&mut g, &format!("layout {L1}"));
    assert_eq!(moves.len(), 19);
    assert_eq!(g.layout_string(), l1);
    let mut h = g0.clone();
    play(&mut h, &format!("layout {L1} w:3,5,6,10,11,14,18,20"));
    assert_eq!(h, g);
    let mut g = g0.clone();
    refused(
        &mut g,
        "layout t:4,9 r:13,17 y:2,8,15 g:1,7,12,19",
        None,
        RuleError::LayoutCountMismatch,
    );
    refused(
        &mut g,
        "layout t:4,9,16 r:4,17 y:2,8,15 g:1,7,12,19",
        None,
        RuleError::LayoutDoorTwice,
    );
    parse_refused(&mut g, "layout t:4,9,16 r:13,17 y:2,8,15 g:1,7,12,21");
    refused(
        &mut g,
        &format!("put 1 g; layout {L1}"),
        None,
        RuleError::LayoutNotAtStart,
    );
    refused(&mut g, "put 2 g", None, RuleError::WrongDoor);
    // Round 2 forms: tower moves written from>to; the round-1 form is a parse error there.
    parse_refused(&mut g, "layout t:4>5");
}

#[test]
fn t14_four_player_short_game() {
    let mut g = new_game("red", 4, 3, true);
    let mut owners = Vec::new();
    let mut setters = Vec::new();
    for round in 1..=4u32 {
        owners.push(g.owner().0);
        setters.push(g.setter().0);
        play(&mut g, "random");
        while opts(&g) == strs(&["reset"]) {
            play(&mut g, "reset; random");
        }
        play(&mut g, "done");
        let exit = opts(&g)[0].clone();
        play(&mut g, &exit);
        let start = opts(&g)[0].clone();
        play(&mut g, &format!("{start}; done"));
        while kind(&g) == "step" {
            let s = opts(&g)[0].clone();
            play(&mut g, &s);
        }
        if round == 4 {
            let mut draw = g.clone();
            let c = draw.running_cost();
            draw.scores = vec![5, 5, 5, 5];
            let o = usize::from(draw.owner().0);
            draw.scores[o] -= c;
            play(&mut draw, "done");
            let o = Game::outcome(&draw).unwrap();
            assert!(o.draw && o.winners.is_empty());
            let mut win = g.clone();
            win.scores = vec![5, 2, 5, 9];
            let o = usize::from(win.owner().0);
            win.scores[o] -= c;
            play(&mut win, "done");
            assert_eq!(Game::outcome(&win).unwrap().winners, vec![Seat(1)]);
        }
        play(&mut g, "done");
    }
    assert_eq!(owners, [2, 3, 0, 1]);
    assert_eq!(setters, [3, 0, 1, 2]);
    assert!(Game::prompt(&g).is_none());
    assert_eq!(g.marbles.iter().filter(|m| m.is_some()).count(), 8);
    assert_eq!(g.marbles_left, vec![1, 1, 1, 1]);
    for s in 0..4u8 {
        assert_eq!(g.marbles.iter().filter(|m| **m == Some(Seat(s))).count(), 2);
    }
}

#[test]
fn t15_random_fill_and_barrier() {
    let mut g = new_game("black", 3, 1, false);
    play(&mut g, "put 1 g");
    let moves = play(&mut g, "random");
    assert!(moves[0].barrier);
    assert_eq!(count_pieces(&g), [8, 4, 3, 2, 3]);
    assert!(g.board.iter().all(Option::is_some));
    assert_eq!(g.piece(1), Some(Piece::Green));
    assert_eq!(kind(&g), "confirm_layout");
    let layout = g.layout_string();
    let moves = play(&mut g, "reset");
    assert!(!moves[0].barrier);
    assert!(g.board.iter().all(Option::is_none));
    assert_eq!(g.pool, [8, 4, 3, 2, 3]);
    assert_eq!(
        AnyGame::prompt(&g).unwrap().text.key,
        "cortexcape.prompt.place_cylinder"
    );
    assert_eq!(opts(&g)[0], "put 1 w");
    // Same seed, same decisions: the same random layout.
    let mut again = new_game("black", 3, 1, false);
    play(&mut again, "put 1 g; random");
    assert_eq!(again.layout_string(), layout);
    // `done` is a barrier too.
    let moves = play(&mut again, "done");
    assert!(moves[0].barrier);
}

// ---------------------------------------------------------------- rules not covered above

#[test]
fn r2_round_one_any_arrangement_can_be_confirmed() {
    // Towers around exit doors cut most of the lab off; the standard game still accepts it.
    let g = configured("blue", "t:1,2,5 r:13,17 y:3,8,15 g:4,7,12,19", false);
    assert_eq!(kind(&g), "choose_exit");
    assert_eq!(opts(&g).len(), 12);
    // Exits x1, x2, x4 are shut: only their own corridor is a legal start (R9).
    assert_eq!(g.legal_corridors(1), vec![(d(1), x(1))]);
}

#[test]
fn r3_refill_only_the_emptied_doors() {
    let mut g = t1();
    play(&mut g, "path 13 18 19 20 15 10 5; done");
    assert_eq!(g.targets, vec![5, 10, 13, 15, 18, 19, 20]);
    assert_eq!(AnyGame::prompt(&g).unwrap().text.args[0].0, "door");
    assert_eq!(opts(&g)[0], "put 5 w");
    refused(&mut g, "put 1 w", None, RuleError::WrongDoor);
    let view = g.public_view();
    assert_eq!(view.refill, vec![5, 10, 13, 15, 18, 19, 20]);
    assert_eq!(view.towers_to_move, vec![4, 9, 16]);
}

#[test]
fn r4_each_tower_moves_once_to_a_fresh_door() {
    let mut g = t1();
    play(&mut g, "path 13 18 19 20 15 10 5; done");
    play(&mut g, "random");
    let towers: Vec<u8> = (1..=20).filter(|&n| g.is_tower(n)).collect();
    assert_eq!(towers.len(), 3);
    assert!(towers.iter().all(|t| ![4, 9, 16].contains(t)));
    assert_eq!(count_pieces(&g), [8, 4, 3, 2, 3]);
}

#[test]
fn r5_tower_end_of_start_forces_the_other_end() {
    let mut g = configured("blue", L1, false);
    play(&mut g, "exit x1; start 3-4; done");
    assert_eq!(opts(&g), strs(&["step 3"]));
}

#[test]
fn r6_r9_every_free_exit_is_offered_in_the_standard_game() {
    let g = configured("blue", L1, false);
    let all: Vec<String> = (1..=12).map(|k| format!("exit x{k}")).collect();
    assert_eq!(opts(&g), all);
    for k in 1..=12u8 {
        let door = g.data().exit_door(k).unwrap();
        assert!(g.legal_corridors(k).contains(&(d(door), x(k))));
    }
}

#[test]
fn r7_r8_start_must_exist_and_leave_a_path() {
    let mut g = configured("blue", L1, false);
    play(&mut g, "exit x4; from 3");
    refused(&mut g, "start 3-9", None, RuleError::NotACorridor);
    play(&mut g, "start 2-3");
    assert_eq!(g.start, Some(corr(d(2), d(3))));
    // Exit-to-exit is never a corridor.
    let mut h = configured("blue", L1, false);
    play(&mut h, "exit x4");
    refused(&mut h, "start x1-x2", None, RuleError::NotACorridor);
}

#[test]
fn r10_r11_check_order_adjacency_first() {
    let mut g = t1();
    // 4 is a tower and not adjacent to 13: adjacency is checked first.
    play(&mut g, "step 13");
    refused(&mut g, "step 4", None, RuleError::NotAdjacent);
    refused(&mut g, "step x4", None, RuleError::NotAdjacent);
    refused(&mut g, "step 13", None, RuleError::NotAdjacent);
    play(&mut g, "step 18");
    refused(&mut g, "step 13", None, RuleError::AlreadyVisited);
    refused(&mut g, "done", None, RuleError::WrongPrompt);
}

#[test]
fn r12_r13_r14_cost_collection_and_score() {
    let mut g = t1();
    play(&mut g, "path 12 13 18 19 20 15 10 5");
    let events = last_events(&mut g, "done");
    assert!(events.contains(&Event::CylindersCollected {
        doors: vec![12, 13, 18, 19, 20, 15, 10, 5],
        kinds: vec![
            Piece::Green,
            Piece::Red,
            Piece::White,
            Piece::Green,
            Piece::White,
            Piece::Yellow,
            Piece::White,
            Piece::White
        ],
    }));
    assert!(events.contains(&Event::ScoreAdded {
        seat: Seat(0),
        points: 7,
        total: 7
    }));
    assert_eq!(g.scores, vec![7, 0]);
    assert_eq!(g.pool, [4, 2, 1, 1, 0]);
    assert_eq!(count_pieces(&g), [8, 4, 3, 2, 3]);
}

#[test]
fn r16_r17_short_start_on_a_tower_door_is_refused() {
    let mut g = configured("blue", L1, true);
    refused(&mut g, "exit x3", None, RuleError::NoLegalPartner);
    play(&mut g, "exit x1");
    assert!(!opts(&g).contains(&"start x10".to_string()));
    refused(&mut g, "start x10", None, RuleError::NoPathFromStart);
    refused(&mut g, "start 1-2", None, RuleError::WrongPrompt);
}

#[test]
fn r23_no_cost_before_confirm_and_r24_hindsight_off() {
    let mut o = GameOptions::new();
    o.insert("first".into(), "seat1".into());
    o.insert("hindsight".into(), "off".into());
    let mut g = Cortexcape::setup(&o, 2, 1).unwrap();
    play(&mut g, &format!("layout {L1}; done"));
    play(&mut g, "exit x4; start 12-13; done");
    let view = g.public_view();
    assert_eq!(view.last_round, None);
    assert!(!g.hindsight);
    let events = last_events(&mut g, "path 13 18 19 20 15 10 5; done");
    assert!(!events.iter().any(|e| matches!(e, Event::Hindsight(_))));
    let recap = g.public_view().last_round.unwrap();
    assert_eq!(
        (recap.cost, recap.cheapest, recap.setter_best),
        (6, None, None)
    );
}

#[test]
fn r25_layout_is_public_while_built() {
    let mut g = new_game("blue", 2, 1, false);
    play(&mut g, "put 1 r");
    let v = g.public_view();
    assert_eq!(v.pieces[0], Some(Piece::Red));
    assert_eq!(v.pool[3], (Piece::Red, 1));
    assert_eq!(v.refill.len(), 19);
}

#[test]
fn r26_round_one_has_no_tower_moves() {
    let mut g = new_game("blue", 2, 1, false);
    let moves = play(&mut g, "random");
    assert!(moves.iter().all(|m| m.notation == "random"));
    assert_eq!(kind(&g), "confirm_layout");
    assert!(g.prev_towers.is_empty());
}

#[test]
fn r27_no_pass_or_resign() {
    let mut g = new_game("blue", 2, 1, false);
    parse_refused(&mut g, "pass");
    parse_refused(&mut g, "resign");
}

#[test]
fn options_are_validated() {
    let mut o = GameOptions::new();
    o.insert("first".into(), "seat3".into());
    assert!(matches!(
        Cortexcape::setup(&o, 2, 1),
        Err(crate::engine::SetupError::BadValue { .. })
    ));
    assert!(Cortexcape::setup(&o, 3, 1).is_ok());
    o.insert("lab".into(), "purple".into());
    assert!(Cortexcape::setup(&o, 3, 1).is_err());
    let mut o = GameOptions::new();
    o.insert("players".into(), "2".into());
    assert!(Cortexcape::setup(&o, 2, 1).is_err());
    let g = Cortexcape::setup(&GameOptions::new(), 4, 9).unwrap();
    assert_eq!(
        (g.lab, g.short, g.hindsight, g.total_rounds),
        (LabId::Blue, false, true, 12)
    );
    // Random first owner comes from the seed.
    let a = Cortexcape::setup(&GameOptions::new(), 4, 9).unwrap();
    assert_eq!(a.first, g.first);
}

#[test]
fn wrong_prompt_and_not_your_turn() {
    let mut g = configured("blue", L1, false);
    refused(&mut g, "reset", None, RuleError::WrongPrompt);
    refused(&mut g, "put 1 w", None, RuleError::WrongPrompt);
    // A macro typed by a seat that does not act now.
    assert_eq!(
        Game::parse(&g, Seat(0), &format!("layout {L1}")),
        Err(Reject::Rule {
            token: None,
            error: RuleError::NotYourTurn
        })
    );
    assert_eq!(
        g.apply(Seat(0), &Action::Exit(1)),
        Err(RuleError::NotYourTurn)
    );
    // The owner's line may not run into the setter's turn.
    let mut h = new_game("blue", 2, 1, false);
    let err = h
        .play_line(Seat(0), &format!("layout {L1}; done; exit x4"))
        .unwrap_err();
    assert_eq!(
        err,
        PlayError::NotYourTurn {
            waiting_for: Seat(1)
        }
    );
}

#[test]
fn parse_accepts_door_prefix_and_reports_tokens() {
    let g = t1();
    assert_eq!(
        Game::parse(&g, Seat(0), "step d13"),
        Ok(vec![Action::Step(d(13))])
    );
    assert!(matches!(
        Game::parse(&g, Seat(0), "step 21"),
        Err(Reject::Parse(e)) if e.token == 2 && e.found == "21"
    ));
    assert!(matches!(
        Game::parse(&g, Seat(0), "path 13 x13"),
        Err(Reject::Parse(e)) if e.token == 2
    ));
    assert!(matches!(
        Game::parse(&g, Seat(0), "put 1"),
        Err(Reject::Parse(e)) if e.token == 3
    ));
}

#[test]
fn text_summary_and_event_texts_are_localized() {
    let mut g = t1();
    play(&mut g, "path 13 18 19 20 15 10 5; done");
    let ctx = RenderCtx {
        lang: Lang::En,
        names: vec!["Ann".into(), "Bob".into()],
        stopped: false,
        number: None,
    };
    let s = <Cortexcape as Present>::public_summary(&g.public_view(), &ctx);
    let first = s.lines().next().unwrap();
    assert_eq!(
        first,
        "Blue Lab | t:4,9,16 r:17 y:2,8 g:1,7,12 w:3,6,11,14 e:5,10,13,15,18,19,20 | closed x4 (Ann) | no cones"
    );
    assert!(s.contains("Ann (white) 6, Bob (black) 0"), "{s}");
    assert!(
        s.contains("cheapest 6; strongest challenge 13 (start 4-5, exit x1)"),
        "{s}"
    );
    let fr = <Cortexcape as Present>::public_summary(
        &g.public_view(),
        &RenderCtx {
            lang: Lang::Fr,
            names: ctx.names.clone(),
            stopped: false,
            number: None,
        },
    );
    assert!(fr.contains("fermées x4 (Ann)"), "{fr}");
    // Every event, prompt and error key exists in both catalogs.
    let t = g.event_text(&Event::ScoreAdded {
        seat: Seat(1),
        points: 2,
        total: 9,
    });
    assert_eq!(
        t.render_with(Lang::En, &ctx.names),
        "Bob takes 2 points, 9 in total."
    );
    let one = g.event_text(&Event::ScoreAdded {
        seat: Seat(1),
        points: 1,
        total: 8,
    });
    assert_eq!(
        one.render_with(Lang::En, &ctx.names),
        "Bob takes 1 point, 8 in total."
    );
    assert_eq!(
        one.render_with(Lang::Fr, &ctx.names),
        "Bob prend 1 point, 8 au total."
    );
    for e in ALL_ERRORS {
        let key = e.text().key;
        assert_ne!(crate::i18n::lookup(Lang::En, &key), key);
        assert_ne!(crate::i18n::lookup(Lang::Fr, &key), key);
    }
}

const ALL_ERRORS: [RuleError; 23] = [
    RuleError::WrongPrompt,
    RuleError::NotYourTurn,
    RuleError::WrongDoor,
    RuleError::KindNotInPool,
    RuleError::HoldsTower,
    RuleError::BlockedLastRound,
    RuleError::NoLegalChallenge,
    RuleError::LayoutNotAtStart,
    RuleError::LayoutDoorTwice,
    RuleError::NotAnEmptiedDoor,
    RuleError::LayoutCountMismatch,
    RuleError::ExitClosed,
    RuleError::NoLegalPartner,
    RuleError::NotACorridor,
    RuleError::NoPathFromStart,
    RuleError::CorridorNotAtDoor,
    RuleError::SameExit,
    RuleError::NotAdjacent,
    RuleError::WrongExit,
    RuleError::TowerDoor,
    RuleError::AlreadyVisited,
    RuleError::DeadEnd,
    RuleError::PathAlreadyComplete,
];

// ---------------------------------------------------------------- data file

#[test]
fn shipped_data_file_passes_and_matches_the_spec() {
    let data = lab::load(lab::SOURCE).unwrap();
    let sizes: Vec<usize> = LabId::ALL
        .iter()
        .map(|&l| data.lab(l).corridors.len())
        .collect();
    assert_eq!(sizes, vec![34, 36, 39, 44]);
    assert!(LabId::ALL.iter().all(|&l| !data.lab(l).official));
    assert_eq!(data.counts, [8, 4, 3, 2, 3]);
    assert_eq!(data.per_seat, [6, 4, 3]);
    assert_eq!(data.lab(LabId::Black).neighbours(12).len(), 6, "D13 hub");
}

fn mutated(from: &str, to: &str) -> Result<lab::Data, DataError> {
    assert!(lab::SOURCE.contains(from), "{from}");
    lab::load(&lab::SOURCE.replacen(from, to, 1))
}

#[test]
fn broken_data_files_are_refused_clearly() {
    assert_eq!(
        mutated("[1, 1], [2, 1], ", "[2, 1], ").unwrap_err(),
        DataError::DoorCount(19)
    );
    assert_eq!(
        mutated("  { id = 12, col = 0, row = 2, door = 6 },\n", "").unwrap_err(),
        DataError::ExitCount(11)
    );
    assert_eq!(
        mutated(
            "corridors = [\"1-2\", \"1-6\", \"2-3\"",
            "corridors = [\"1-2\", \"2-1\", \"1-6\", \"2-3\""
        )
        .unwrap_err(),
        DataError::Duplicate {
            lab: "blue",
            corridor: "2-1".into()
        }
    );
    assert_eq!(
        mutated(
            "\"1-2\", \"1-6\", \"2-3\", \"3-4\", \"3-8\"",
            "\"1-2\", \"1-6\", \"2-3\", \"3-4\", \"3-10\""
        )
        .unwrap_err(),
        DataError::NotNeighbours {
            lab: "blue",
            corridor: "3-10".into()
        }
    );
    // Door 3 of Blue keeps only its corridor to door 4.
    assert_eq!(
        mutated("\"2-3\", \"3-4\", \"3-8\", ", "\"3-4\", ").unwrap_err(),
        DataError::Degree {
            lab: "blue",
            door: 3,
            degree: 1
        }
    );
    assert!(mutated("schema = 1", "schema = 2").is_err());
    assert!(matches!(
        mutated(
            "code = \"r\"\nname = \"red\"\ncount = 2",
            "code = \"r\"\nname = \"red\"\ncount = 3"
        ),
        Err(DataError::Pieces(_))
    ));
    assert!(matches!(
        mutated("[lab.red]", "[lab.pink]"),
        Err(DataError::MissingLab("red"))
    ));
    assert!(matches!(
        mutated("door = 17 }", "door = 16 }"),
        Err(DataError::ExitPlace(9))
    ));
    assert!(matches!(
        mutated("schema = 1", "schema = \"x\""),
        Err(DataError::Toml(_))
    ));
}

#[test]
fn disconnected_lab_is_refused() {
    // Blue's inner ring 7-8-9-14-13-12 cut off from the outer ring: replace both spokes by
    // chords inside each ring so every door keeps 2 corridors.
    let src = lab::SOURCE.replacen(
        "corridors = [\"1-2\", \"1-6\", \"2-3\", \"3-4\", \"3-8\", \"4-5\", \"5-10\", \"6-11\", \"7-8\", \"7-12\", \"8-9\", \"9-14\", \"10-15\", \"11-16\", \"12-13\", \"13-14\", \"13-18\", \"15-20\", \"16-17\", \"17-18\", \"18-19\", \"19-20\"]",
        "corridors = [\"1-2\", \"1-6\", \"2-3\", \"3-4\", \"4-5\", \"5-10\", \"6-11\", \"7-8\", \"7-12\", \"8-9\", \"9-14\", \"10-15\", \"11-16\", \"12-13\", \"13-14\", \"15-20\", \"16-17\", \"17-18\", \"18-19\", \"19-20\"]",
        1,
    );
    assert_ne!(src, lab::SOURCE);
    assert_eq!(
        lab::load(&src).unwrap_err(),
        DataError::Disconnected {
            lab: "blue",
            place: "7".into()
        }
    );
}

// ---------------------------------------------------------------- playouts and properties

mod playouts {
    use super::*;
    use crate::engine::GameRng;

    /// Plays one game choosing uniformly among listed options (sometimes `random`), checking
    /// the invariants after every step. Returns the number of options applied.
    fn playout(lab: &str, seats: usize, short: bool, seed: u64) -> usize {
        let mut o = GameOptions::new();
        o.insert("lab".into(), lab.into());
        o.insert("short".into(), short.to_string());
        let mut g = Cortexcape::setup(&o, seats, seed).unwrap();
        let mut rng = GameRng::seed_from_u64(seed);
        let junk = [
            "step x12",
            "tower 1 2",
            "exit x1",
            "done",
            "reset",
            "put 20 t",
            "from 1",
        ];
        for step in 0..2000 {
            assert_eq!(count_pieces(&g), [8, 4, 3, 2, 3], "20 pieces");
            // R1: only the doors waiting for a refill are empty.
            for n in 1..=20u8 {
                if g.piece(n).is_none() {
                    assert!(
                        matches!(g.stage, Stage::Configure | Stage::Over) && g.targets.contains(&n),
                        "door {n} empty outside a refill"
                    );
                }
            }
            let Some(p) = Game::prompt(&g) else {
                assert!(Game::outcome(&g).is_some());
                let closed = g.marbles.iter().filter(|m| m.is_some()).count();
                let want = if !short || seats < 4 { 12 } else { 8 };
                assert_eq!(closed, want);
                for s in 0..seats {
                    let sum: i64 = g
                        .history
                        .iter()
                        .filter(|r| r.owner.index() == s)
                        .map(|r| r.cost)
                        .sum();
                    assert_eq!(g.scores[s], sum);
                }
                assert_eq!(g.history.len(), g.total_rounds as usize);
                let json = serde_json::to_string(&g).unwrap();
                assert_eq!(serde_json::from_str::<Cortexcape>(&json).unwrap(), g);
                return step;
            };
            assert!(Game::outcome(&g).is_none());
            assert!(!p.options.is_empty());
            for a in &p.options {
                let n = g.notation(a);
                assert_eq!(Game::parse(&g, p.seat, &n), Ok(vec![*a]), "{n}");
            }
            // A refused option changes nothing (the derived equality covers every field).
            if step % 4 == 0 {
                let j = junk[rng.gen_range(0..junk.len())];
                let mut c = g.clone();
                if c.play_line(p.seat, j).is_err() {
                    assert_eq!(c, g, "`{j}` refused but changed the state");
                }
            }
            if step % 64 == 0 {
                let json = serde_json::to_string(&g).unwrap();
                let back: Cortexcape = serde_json::from_str(&json).unwrap();
                assert_eq!(back, g);
            }
            let a = if p.options.contains(&Action::Random) && rng.gen_bool(0.5) {
                Action::Random
            } else {
                p.options[rng.gen_range(0..p.options.len())]
            };
            let applied = g
                .apply(p.seat, &a)
                .unwrap_or_else(|e| panic!("listed {a:?} refused: {e}"));
            // Only the random fill reveals anything (randomness); `done` hands the turn on
            // (a barrier an agreed take-back may cross) and reveals nothing.
            assert_eq!(applied.revealed, a == Action::Random, "{a:?}");
            if matches!(a, Action::Done | Action::Random) {
                assert!(applied.barrier, "{a:?} is a barrier");
            }
        }
        panic!("game did not end (seed {seed})");
    }

    /// 84 seeds x 4 labs x 3 seat counts x 2 variants = 2016 games.
    const SEEDS: u64 = 84;

    #[test]
    fn seeded_random_playouts_keep_every_invariant() {
        let mut games = 0;
        for seed in 0..SEEDS {
            for lab in ["blue", "green", "red", "black"] {
                for seats in 2..=4 {
                    for short in [false, true] {
                        playout(lab, seats, short, seed * 31 + seats as u64);
                        games += 1;
                    }
                }
            }
        }
        assert_eq!(games, SEEDS * 24);
    }
}

mod properties {
    use super::*;
    use proptest::prelude::*;

    fn positions() -> Vec<Cortexcape> {
        let start = new_game("red", 3, 1, false);
        let p4 = configured("blue", L1, false);
        let mut p5 = p4.clone();
        play(&mut p5, "exit x4");
        let p8 = t1();
        let mut r2 = t1();
        play(&mut r2, "path 13 18 19 20 15 10 5; done");
        let mut short = configured("green", G1, true);
        play(&mut short, "exit x7");
        vec![start, p4, p5, p8, r2, short]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]
        #[test]
        fn random_input_never_panics_nor_changes_state(
            input in "(put|tower|random|done|reset|exit|from|start|step|path|layout|[a-z]{1,4})?( [dx]?[0-9]{0,2}(-x?[0-9]{1,2})?| [wgyrt]:[0-9,>]{0,12}| [a-z0-9]{1,3}){0,6}(;.{0,10})?",
            noise in "\\PC{0,20}",
        ) {
            for g in positions() {
                let seat = to_act(&g);
                for line in [input.as_str(), noise.as_str()] {
                    let _ = Game::parse(&g, seat, line);
                    let mut c = g.clone();
                    if c.play_line(seat, line).is_err() {
                        prop_assert_eq!(&c, &g);
                    }
                }
            }
        }
    }
}

// ---------------------------------------------------------------- replay fixtures

const REPLAYS: &[(&str, &str)] = &[
    (
        "t1_t6_blue",
        include_str!("../../../tests/replays/cortexcape/t1_t6_blue.txt"),
    ),
    (
        "short_red_3p",
        include_str!("../../../tests/replays/cortexcape/short_red_3p.txt"),
    ),
];

/// Runs a replay file: options, seats, seed, typed lines per seat (1-based), expectations.
fn run_replay(name: &str, text: &str) {
    let mut options = GameOptions::new();
    let (mut seats, mut seed) = (2usize, 0u64);
    let mut game: Option<Cortexcape> = None;
    for (n, raw) in text.lines().enumerate() {
        let line = raw.trim();
        let at = format!("{name}:{}", n + 1);
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if let Some(kv) = line.strip_prefix("option ") {
            let (k, v) = kv.split_once('=').unwrap();
            options.insert(k.into(), v.into());
            continue;
        }
        if let Some(v) = line.strip_prefix("seats ") {
            seats = v.parse().unwrap();
            continue;
        }
        if let Some(v) = line.strip_prefix("seed ") {
            seed = v.parse().unwrap();
            continue;
        }
        let g = game.get_or_insert_with(|| Cortexcape::setup(&options, seats, seed).unwrap());
        if let Some(e) = line.strip_prefix("expect ") {
            let (what, rest) = e.split_once(' ').unwrap_or((e, ""));
            match what {
                "scores" => {
                    let want: Vec<i64> = rest.split(' ').map(|s| s.parse().unwrap()).collect();
                    assert_eq!(g.scores, want, "{at}");
                }
                "layout" => assert_eq!(g.layout_string(), rest, "{at}"),
                "prompt" => assert_eq!(kind(g), rest, "{at}"),
                "winners" => {
                    let want: Vec<Seat> = rest
                        .split(',')
                        .map(|s| Seat(s.parse::<u8>().unwrap() - 1))
                        .collect();
                    assert_eq!(Game::outcome(g).unwrap().winners, want, "{at}");
                }
                "over" => assert!(Game::prompt(g).is_none(), "{at}"),
                other => panic!("{at}: unknown expectation {other}"),
            }
            continue;
        }
        let (seat, typed) = line.split_once(':').unwrap();
        let seat = Seat(seat.trim().parse::<u8>().unwrap() - 1);
        if let Err(e) = g.play_line(seat, typed.trim()) {
            panic!("{at}: `{typed}` refused: {e}");
        }
    }
}

#[test]
fn replay_fixtures_play_back() {
    for (name, text) in REPLAYS {
        run_replay(name, text);
    }
}

// ---------------------------------------------------------------- the bot (src/ai)

mod bot {
    use super::*;
    use crate::ai::{BotPlayer, Level, Method};
    use crate::engine::rng_from_seed;

    /// Plays a game where every seat takes a seeded random option, calling `each` before
    /// every decision.
    fn random_game(
        lab: &str,
        seats: usize,
        short: bool,
        seed: u64,
        mut each: impl FnMut(&Cortexcape),
    ) {
        let mut g = new_game(lab, seats, 1, short);
        let mut rng = rng_from_seed(seed);
        while let Some(p) = Game::prompt(&g) {
            each(&g);
            // `reset` only when nothing else is listed (a short-game layout left no challenge).
            let mut choices: Vec<&Action> =
                p.options.iter().filter(|a| **a != Action::Reset).collect();
            if choices.is_empty() {
                choices = p.options.iter().collect();
            }
            let a = *choices[rng.gen_range(0..choices.len())];
            g.apply(p.seat, &a).unwrap();
        }
    }

    #[test]
    fn a_game_rebuilt_from_its_public_view_asks_the_same_thing() {
        let mut rng = rng_from_seed(3);
        for (lab, seats, short) in [("blue", 2, false), ("red", 3, true), ("black", 4, true)] {
            random_game(lab, seats, short, 11, |g| {
                let view = g.public_view();
                let rebuilt = Cortexcape::from_view(&view, &mut rng).expect("a running game");
                assert_eq!(Game::prompt(&rebuilt), Game::prompt(g), "{lab}");
                assert_eq!(rebuilt.public_view(), view, "{lab}");
            });
        }
    }

    /// The escape expert walks, step by step, a path as cheap as the engine's cheapest.
    #[test]
    fn the_walk_is_a_cheapest_path() {
        let mut walks = 0;
        random_game("green", 2, false, 5, |g| {
            if g.stage == Stage::Escape && g.path.is_empty() {
                let (start, x) = (g.start.unwrap(), g.target.unwrap());
                let (cheapest, _) = g.cheapest_for(start, x).unwrap();
                let mut w = g.clone();
                let mut rng = rng_from_seed(1);
                while w.stage == Stage::Escape {
                    let a = w.expert(0, &mut rng).expect("an answer at every step");
                    w.apply(w.owner(), &a).unwrap();
                }
                assert_eq!(w.history.last().unwrap().cost, cheapest);
                walks += 1;
            }
        });
        assert!(walks >= 12, "every round was walked");
    }

    /// The setter's expert builds the strongest challenge there is.
    #[test]
    fn the_challenge_is_the_strongest() {
        let mut challenges = 0;
        random_game("red", 3, false, 8, |g| {
            if g.stage == Stage::ChooseExit {
                let (best, _, _) = g.setter_best().unwrap();
                let mut w = g.clone();
                let mut rng = rng_from_seed(2);
                while w.stage != Stage::Escape {
                    let a = w.expert(0, &mut rng).unwrap();
                    w.apply(w.setter(), &a).unwrap();
                }
                let (cost, _) = w.cheapest_for(w.start.unwrap(), w.target.unwrap()).unwrap();
                assert_eq!(cost, best);
                challenges += 1;
            }
        });
        assert!(challenges >= 12);
    }

    /// The layout search beats typical random layouts: the setter's best challenge on the
    /// searched layout costs no more than on most random ones.
    #[test]
    fn the_layout_search_makes_the_lab_cheaper() {
        let base = new_game("blue", 2, 1, false);
        let owner = base.owner();
        let finish = |effort: u32, seed: u64| {
            let mut g = base.clone();
            let mut rng = rng_from_seed(seed);
            while g.stage == Stage::Configure {
                let a = match g.expert(effort, &mut rng) {
                    Some(a) => a,
                    None => Action::Random,
                };
                g.apply(owner, &a).unwrap();
            }
            g.setter_best().unwrap().0
        };
        let searched = finish(Level::Normal.budget().effort, 1);
        let random: Vec<i64> = (0..40).map(|s| finish(0, s)).collect();
        let worse = random.iter().filter(|&&c| c >= searched).count();
        assert!(
            worse >= 36,
            "searched layout costs {searched}; random ones {random:?}"
        );
    }

    /// The bot decides from the public view only: the RNG is the one thing hidden in a
    /// Cortexcape game, and changing it changes nothing the bot chooses.
    #[test]
    fn the_bot_ignores_what_it_cannot_see() {
        let mut checked = 0;
        random_game("blue", 2, true, 21, |g| {
            let mut other = g.clone();
            other.rng = rng_from_seed(999);
            assert_ne!(other.to_json(), g.to_json());
            let a = g.bot_option(Level::Easy, 4);
            let b = other.bot_option(Level::Easy, 4);
            assert_eq!(a, b);
            checked += 1;
        });
        assert!(checked > 50);
    }

    #[test]
    fn bot_options_are_listed_and_mostly_expert() {
        let mut g = new_game("black", 2, 1, true);
        let mut n = 0;
        while let Some(p) = AnyGame::prompt(&g) {
            let m = g.bot_option(Level::Normal, n).expect("an option");
            assert!(p.options.contains(&m.notation), "{} not listed", m.notation);
            assert_eq!(m.seat, p.seat);
            assert_ne!(m.method, Method::Random, "normal bots do not guess");
            g.apply_notation(m.seat, &m.notation).unwrap();
            n += 1;
        }
        assert!(Game::outcome(&g).is_some());
    }
}
