//! Vortex tests: the geometry regenerated from the axial model (spec 4.7), data validation,
//! one test per rule R1-R33 of spec section 7 and per scenario T1-T15 of section 12, seeded
//! random playouts over every mode and player count with the invariants of the issue, and a
//! parser property test.
use crate::engine::GameRng;

use super::board::{self, data, tower_index, DataError};
use super::moves::{Action, Dir, DrawReason, EndReason, Event, Moved, WinReason};
use super::rules::RuleError;
use super::state::{Colour, Ending, Mode, Router, Vortex, UNSOLVED_RANK};
use super::view::ascii_board;
use crate::engine::{AnyGame, Game, GameOptions, PlayError, Present, RenderCtx, Seat};
use crate::i18n::Lang;

// ---------------------------------------------------------------- scenario builder

fn options(spec: &str) -> GameOptions {
    let mut o = GameOptions::new();
    o.insert("seating".into(), "host".into());
    for kv in spec.split_whitespace() {
        let (k, v) = kv.split_once('=').unwrap();
        o.insert(k.into(), v.into());
    }
    o
}

fn new_game(opts: &str, seats: usize) -> Vortex {
    Vortex::setup(&options(opts), seats, 7).unwrap()
}

fn t(name: &str) -> u8 {
    tower_index(name).unwrap()
}

/// Builds a position from the spec's section 10.4 tokens on top of a fresh game.
fn pos(opts: &str, seats: usize, position: &str) -> Vortex {
    let mut g = new_game(opts, seats);
    g.board = vec![None; 54];
    g.claims = vec![None; 19];
    let mut to = None;
    let mut used = 0;
    let mut allowance = 4;
    for tok in position.split_whitespace() {
        let (k, v) = tok.split_once('=').unwrap();
        match k {
            "to" => to = Some(v.to_string()),
            "used" => used = v.parse().unwrap(),
            "allowance" => allowance = v.parse().unwrap(),
            "rotations" => g.rotations = v.parse().unwrap(),
            "own" => {
                for pair in v.split(',') {
                    let (tw, c) = pair.split_once(':').unwrap();
                    g.claims[usize::from(t(tw))] = Some(Colour::from_key(c).unwrap());
                }
            }
            "minority" => {
                for pair in v.split(',') {
                    let (c, n) = pair.split_once(':').unwrap();
                    let i = g.side_of(Colour::from_key(c).unwrap()).unwrap();
                    g.sides[i].minority_left = n.parse().unwrap();
                }
            }
            "finished" => {
                for c in v.split(',').filter(|s| !s.is_empty()) {
                    let i = g.side_of(Colour::from_key(c).unwrap()).unwrap();
                    g.sides[i].finished = true;
                }
            }
            "last" => {
                let cm = g.catmouse.as_mut().unwrap();
                cm.last_mouse = v
                    .split_once(':')
                    .map(|(tw, d)| (t(tw), if d == "cw" { Dir::Cw } else { Dir::Ccw }));
            }
            _ => {
                let colour = match k {
                    "mouse" => Colour::Red,
                    "cats" => Colour::Black,
                    c => Colour::from_key(c).unwrap(),
                };
                for s in v.split(',') {
                    let (n, ctrl) = match s.strip_suffix('*') {
                        Some(n) => (n, true),
                        None => (s, false),
                    };
                    let n: u8 = n.parse().unwrap();
                    assert!(g.cell(n).is_none(), "space {n} used twice");
                    *g.cell_mut(n) = Some(Router { colour, ctrl });
                }
            }
        }
    }
    match g.mode {
        Mode::Crossing | Mode::Advanced => {
            if let Some(c) = to {
                let i = g.side_of(Colour::from_key(&c).unwrap()).unwrap();
                let n = u32::try_from(g.sides.len()).unwrap();
                g.turn_index = 4 * n + u32::try_from(i).unwrap();
                g.this_turn.side = i;
            }
            g.used = used;
            g.allowance = allowance;
        }
        Mode::Catmouse => {
            let m = (1..=54).find(|s| g.cell(*s).is_some_and(|r| r.colour == Colour::Red));
            let cm = g.catmouse.as_mut().unwrap();
            cm.mouse_to_move = to.as_deref() != Some("cats");
            cm.visited = m.into_iter().collect();
            g.turn_index = 10 + u32::from(!cm.mouse_to_move);
        }
        Mode::Solitaire => {}
    }
    g
}

fn seat_now(g: &Vortex) -> Seat {
    Game::prompt(g).unwrap().seat
}

fn opts(g: &Vortex) -> Vec<String> {
    AnyGame::prompt(g).unwrap().options
}

fn kind(g: &Vortex) -> &'static str {
    Game::prompt(g).unwrap().kind
}

fn strs(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| (*s).to_string()).collect()
}

/// Applies one option for the deciding seat and returns its events.
fn play(g: &mut Vortex, line: &str) -> Vec<Event> {
    let seat = seat_now(g);
    let actions = Game::parse(&*g, seat, line).unwrap_or_else(|e| panic!("{line}: {e:?}"));
    let mut ev = Vec::new();
    for a in actions {
        ev.extend(
            g.apply(seat, &a)
                .unwrap_or_else(|e| panic!("`{line}` refused: {e:?}"))
                .events,
        );
    }
    ev
}

/// Asserts the option is refused with `error` and nothing changed.
fn refused(g: &mut Vortex, line: &str, error: RuleError) {
    let seat = seat_now(g);
    let before = g.to_json();
    let e = g.play_line(seat, line).unwrap_err();
    match e {
        PlayError::Illegal { reason, .. } => {
            assert_eq!(reason, error.text(), "`{line}`: wanted {error:?}");
        }
        other => panic!("`{line}`: wanted {error:?}, got {other:?}"),
    }
    assert_eq!(g.to_json(), before, "`{line}` changed the state");
}

fn spaces(g: &Vortex, c: &str) -> Vec<u8> {
    g.spaces_of(Colour::from_key(c).unwrap())
}

fn ctrl_spaces(g: &Vortex, c: &str) -> Vec<u8> {
    let c = Colour::from_key(c).unwrap();
    (1..=54)
        .filter(|s| g.cell(*s).is_some_and(|r| r.colour == c && r.ctrl))
        .collect()
}

fn sorted(mut v: Vec<u8>) -> Vec<u8> {
    v.sort_unstable();
    v
}

fn seat_of(g: &Vortex, c: &str) -> Seat {
    g.sides[g.side_of(Colour::from_key(c).unwrap()).unwrap()].seat
}

fn won(ev: &[Event]) -> Option<(Vec<Seat>, WinReason)> {
    ev.iter().find_map(|e| match e {
        Event::GameWon { seats, reason } => Some((seats.clone(), *reason)),
        _ => None,
    })
}

// ---------------------------------------------------------------- geometry (spec 4.7)

/// The axial model of spec 4.1, computed from scratch.
struct Model {
    towers: Vec<(i32, i32)>,
    /// (x2, y6) of each space in reading order.
    spaces: Vec<(i32, i32)>,
    rings: Vec<[u8; 6]>,
}

fn model() -> Model {
    let mut towers: Vec<(i32, i32)> = Vec::new();
    for r in -2..=2i32 {
        for q in -2..=2i32 {
            if q.abs().max(r.abs()).max((q + r).abs()) <= 2 {
                towers.push((q, r));
            }
        }
    }
    towers.sort_by_key(|&(q, r)| (3 * r, 2 * q + r));
    let off = [(0, -2), (1, -1), (1, 1), (0, 2), (-1, 1), (-1, -1)];
    let mut spaces: Vec<(i32, i32)> = Vec::new();
    for &(q, r) in &towers {
        for (dx, dy) in off {
            let p = (2 * q + r + dx, 3 * r + dy);
            if !spaces.contains(&p) {
                spaces.push(p);
            }
        }
    }
    spaces.sort_by_key(|&(x, y)| (y, x));
    let rings = towers
        .iter()
        .map(|&(q, r)| {
            off.map(|(dx, dy)| {
                let p = (2 * q + r + dx, 3 * r + dy);
                u8::try_from(spaces.iter().position(|s| *s == p).unwrap() + 1).unwrap()
            })
        })
        .collect();
    Model {
        towers,
        spaces,
        rings,
    }
}

#[test]
fn geometry_file_equals_the_axial_model() {
    let d = data().unwrap();
    let m = model();
    assert_eq!(m.spaces.len(), 54);
    assert_eq!(d.towers.len(), 19);
    for (i, tw) in d.towers.iter().enumerate() {
        assert_eq!((tw.q, tw.r), m.towers[i], "tower {i}");
        assert_eq!(tw.ring, m.rings[i], "ring of tower {i}");
    }
    for (i, s) in d.spaces.iter().enumerate() {
        let id = u8::try_from(i + 1).unwrap();
        let (x2, y6) = m.spaces[i];
        assert_eq!((s.x2, s.y6), (x2, y6), "space {id}");
        // Apex: up for odd ring positions (NE, S... no: NE, S, NW are odd), down for even.
        let (tw, k) = m
            .rings
            .iter()
            .enumerate()
            .find_map(|(t, r)| r.iter().position(|x| *x == id).map(|k| (t, k)))
            .unwrap();
        assert_eq!(s.up, k % 2 == 1, "apex of {id} (tower {tw})");
        let towers: Vec<u8> = (0..19u8)
            .filter(|t| m.rings[usize::from(*t)].contains(&id))
            .collect();
        assert_eq!(s.towers, towers, "towers of {id}");
        // Edge neighbours: centroids 1/sqrt(3) apart, i.e. 3·dx2² + dy6² = 4.
        let mut edges: Vec<u8> = (0..54)
            .filter(|j| {
                let (a, b) = m.spaces[*j];
                3 * (a - x2).pow(2) + (b - y6).pow(2) == 4
            })
            .map(|j| u8::try_from(j + 1).unwrap())
            .collect();
        edges.sort_unstable();
        assert_eq!(s.edges, edges, "edges of {id}");
    }
}

#[test]
fn shares_counts_and_adjacency() {
    let d = data().unwrap();
    let mut by_count = [0usize; 4];
    for s in &d.spaces {
        by_count[s.towers.len()] += 1;
        let outline = s.edges.len() == 2;
        assert!(s.edges.len() == 3 || outline);
    }
    assert_eq!(by_count[1..], [18, 12, 24]);
    assert_eq!(d.spaces.iter().filter(|s| s.edges.len() == 2).count(), 18);
    let mut pairs = 0;
    for a in 0..19u8 {
        for b in 0..19u8 {
            if a == b {
                continue;
            }
            let shared = d.ring(a).iter().filter(|s| d.ring(b).contains(s)).count();
            let (qa, ra) = (d.towers[usize::from(a)].q, d.towers[usize::from(a)].r);
            let (qb, rb) = (d.towers[usize::from(b)].q, d.towers[usize::from(b)].r);
            let (dq, dr) = (qa - qb, ra - rb);
            let lattice_dist = dq.abs().max(dr.abs()).max((dq + dr).abs());
            if lattice_dist == 1 {
                assert_eq!(shared, 2, "{a} {b}");
                pairs += 1;
            } else {
                assert_eq!(shared, 0, "{a} {b}");
            }
            assert_eq!(d.adjacent(a, b), lattice_dist == 1);
        }
    }
    assert_eq!(pairs / 2, 42);
    // Corner towers are pairwise non-adjacent; each corner ring has two 3-tower spaces.
    let corners = ["a", "c", "h", "l", "q", "s"].map(t);
    for a in corners {
        for b in corners {
            assert!(!d.adjacent(a, b));
        }
        let three = d
            .ring(a)
            .iter()
            .filter(|s| d.space(**s).towers.len() == 3)
            .count();
        assert_eq!(three, 2);
    }
}

/// Breadth-first distance in one-piece moves (edge steps) on an empty board.
fn distances(from: u8) -> Vec<u32> {
    let d = data().unwrap();
    let mut dist = vec![u32::MAX; 55];
    dist[usize::from(from)] = 0;
    let mut queue = vec![from];
    let mut i = 0;
    while i < queue.len() {
        let s = queue[i];
        i += 1;
        for e in &d.space(s).edges {
            if dist[usize::from(*e)] == u32::MAX {
                dist[usize::from(*e)] = dist[usize::from(s)] + 1;
                queue.push(*e);
            }
        }
    }
    dist
}

#[test]
fn diameter_is_11_and_pantry_is_10_from_53() {
    let max = (1..=54u8)
        .map(|s| *distances(s)[1..].iter().max().unwrap())
        .max()
        .unwrap();
    assert_eq!(max, 11);
    let from53 = distances(53);
    assert_eq!((1..=7).map(|s| from53[s]).min(), Some(10));
}

#[test]
fn rotations_are_permutations_of_one_ring() {
    let mut g = pos("mode=solitaire solo_colours=6", 1, "");
    // Fill every space with a distinct pattern: colours by space id.
    for s in 1..=54u8 {
        *g.cell_mut(s) = Some(Router {
            colour: Colour::ALL[usize::from(s) % 6],
            ctrl: s % 5 == 0,
        });
    }
    let start = g.board.clone();
    for tw in 0..19u8 {
        let mut a = g.clone();
        play(&mut a, &format!("rot {} cw", board::tower_letter(tw)));
        // Only the ring changed.
        let ring = data().unwrap().ring(tw);
        for s in 1..=54u8 {
            if !ring.contains(&s) {
                assert_eq!(a.cell(s), g.cell(s));
            }
        }
        play(&mut a, &format!("rot {} ccw", board::tower_letter(tw)));
        assert_eq!(a.board, start, "cw then ccw of {tw}");
        for _ in 0..6 {
            play(&mut a, &format!("rot {} cw", board::tower_letter(tw)));
        }
        assert_eq!(a.board, start, "6 × cw of {tw}");
    }
}

#[test]
fn rot_j_cw_cycle() {
    let mut g = pos("mode=solitaire solo_colours=2", 1, "blue=19,25,31,36,30,24");
    let ev = play(&mut g, "rot j cw");
    let Event::Rotated { moves, .. } = &ev[0] else {
        panic!("{ev:?}")
    };
    let pairs: Vec<(u8, u8)> = moves.iter().map(|m| (m.from, m.to)).collect();
    assert_eq!(
        pairs,
        vec![(19, 25), (25, 31), (31, 36), (36, 30), (30, 24), (24, 19)]
    );
}

// ---------------------------------------------------------------- data validation

#[test]
fn shipped_data_loads_and_layouts_are_house() {
    let d = data().unwrap();
    assert!(!d.layouts_official);
    assert!(board::BOARD_SOURCE.contains("official = true"));
    assert_eq!(d.crossing.len(), 5);
    for l in &d.crossing {
        for s in &l.slots {
            // Goals are point-opposite the start; controllers are the 3-tower start spaces.
            let st = &d.towers[usize::from(s.start)];
            let go = &d.towers[usize::from(s.goal)];
            assert_eq!((st.q, st.r), (-go.q, -go.r), "{}", l.id);
            for c in &s.controllers {
                assert_eq!(d.space(*c).towers.len(), 3);
            }
        }
    }
}

#[test]
fn broken_data_files_give_clear_errors() {
    let b = board::BOARD_SOURCE;
    let l = board::LAYOUTS_SOURCE;
    let bad_toml = board::load_board("schema = ").unwrap_err();
    assert!(matches!(bad_toml, DataError::Toml { .. }));
    let schema = b.replacen("schema = 1", "schema = 2", 1);
    assert_eq!(
        board::load_board(&schema).unwrap_err(),
        DataError::Schema("board.toml")
    );
    let ring = b.replacen("ring = [1, 5, 9, 13, 8, 4]", "ring = [1, 5, 9, 13, 8]", 1);
    assert!(matches!(
        board::load_board(&ring).unwrap_err(),
        DataError::Ring { tower: 'a', .. }
    ));
    let edge = b.replacen("edges = [4, 5]", "edges = [4, 6]", 1);
    assert!(matches!(
        board::load_board(&edge).unwrap_err(),
        DataError::Space { .. }
    ));
    let colour = l.replacen(
        "colour = \"blue\",   start = \"h\"",
        "colour = \"pink\",   start = \"h\"",
        1,
    );
    let e = board::load_all(b, &colour).unwrap_err();
    assert!(e.to_string().contains("pink"), "{e}");
    let ctrl = l.replacen("controllers = [23, 29]", "controllers = [23, 30]", 1);
    assert!(matches!(
        board::load_all(b, &ctrl).unwrap_err(),
        DataError::Layout(_)
    ));
    let overlap = l.replacen("2 = [\"a\", \"s\"]", "2 = [\"a\", \"b\"]", 1);
    let e = board::load_all(b, &overlap).unwrap_err();
    assert!(e.to_string().contains("overlap"), "{e}");
    let pantry = l.replacen("pantry = [1, 2, 3, 4, 5, 6, 7]", "pantry = [1, 2, 3]", 1);
    assert!(board::load_all(b, &pantry).is_err());
}

// ---------------------------------------------------------------- setup

#[test]
fn setup_seat_counts_and_modes() {
    for (mode, ok) in [
        ("crossing", [false, true, true, true, true, true]),
        ("advanced", [false, true, true, true, true, true]),
        ("catmouse", [true, true, false, false, false, false]),
        ("solitaire", [true, false, false, false, false, false]),
        ("auto", [true, true, true, true, true, true]),
    ] {
        for (i, want) in ok.iter().enumerate() {
            let r = Vortex::setup(&options(&format!("mode={mode}")), i + 1, 1);
            assert_eq!(r.is_ok(), *want, "{mode} with {} seats", i + 1);
        }
    }
    assert_eq!(new_game("", 1).mode, Mode::Solitaire);
    assert_eq!(new_game("", 3).mode, Mode::Crossing);
    // Teams: on needs 4 or 6; auto turns them on there.
    assert!(Vortex::setup(&options("teams=on"), 3, 1).is_err());
    assert!(new_game("", 4).rules.teams);
    assert!(!new_game("teams=off", 6).rules.teams);
    assert!(Vortex::setup(&options("layout=crossing-3"), 2, 1).is_err());
    assert!(Vortex::setup(&options("bogus=1"), 2, 1).is_err());
}

#[test]
fn setup_crossing_places_routers_on_start_rings() {
    for n in 2..=6 {
        for mode in ["crossing", "advanced"] {
            let g = new_game(&format!("mode={mode}"), n);
            let d = data().unwrap();
            for s in &g.sides {
                assert_eq!(
                    sorted(g.spaces_of(s.colour)),
                    sorted(d.ring(s.start).to_vec())
                );
                let ctrls = g
                    .spaces_of(s.colour)
                    .iter()
                    .filter(|x| g.cell(**x).unwrap().ctrl)
                    .count();
                assert_eq!(ctrls, if mode == "advanced" { 2 } else { 0 });
                assert_eq!(s.minority_left, if mode == "advanced" { 2 } else { 0 });
            }
        }
    }
    let g = new_game("mode=advanced controllers=1", 2);
    assert_eq!(ctrl_spaces(&g, "blue"), vec![23]);
    // Teams pair seats 1+2, 3+4, 5+6 in turn order.
    let g = new_game("", 6);
    let teams: Vec<Option<u8>> = g.sides.iter().map(|s| s.team).collect();
    assert_eq!(
        teams,
        vec![Some(0), Some(0), Some(1), Some(1), Some(2), Some(2)]
    );
}

#[test]
fn seating_random_shuffles_with_the_seed() {
    let orders: Vec<Vec<Seat>> = (0..20)
        .map(|seed| {
            let g = Vortex::setup(&GameOptions::new(), 4, seed).unwrap();
            g.sides.iter().map(|s| s.seat).collect()
        })
        .collect();
    assert!(orders.iter().any(|o| *o != orders[0]));
    let again: Vec<Seat> = Vortex::setup(&GameOptions::new(), 4, 3)
        .unwrap()
        .sides
        .iter()
        .map(|s| s.seat)
        .collect();
    assert_eq!(again, orders[3]);
}

#[test]
fn solitaire_setup_property() {
    for seed in 1..=1000u64 {
        let n = 2 + usize::try_from(seed % 5).unwrap();
        let o = options(&format!("mode=solitaire solo_colours={n}"));
        let g = Vortex::setup(&o, 1, seed).unwrap();
        let placed = g.board.iter().flatten().count();
        assert_eq!(placed, 6 * n);
        for s in &g.sides {
            assert_eq!(g.spaces_of(s.colour).len(), 6);
        }
        assert!(!g.solved(), "seed {seed} starts solved");
    }
    // Scrambled puzzles are k turns from solved and never solved at the start.
    for seed in 1..=50u64 {
        let o = options("mode=solitaire solo_scramble=5 solo_targets=close");
        let g = Vortex::setup(&o, 1, seed).unwrap();
        assert!(!g.solved());
        assert_eq!(g.board.iter().flatten().count(), 18);
    }
}

// ---------------------------------------------------------------- scenarios T1-T15

const T1: &str = "to=blue used=0 allowance=4 blue=19,24*,1*,2,3,4 orange=31,51*,52*,53,54,48";

#[test]
fn t01_rotation_mechanics_and_riding_controllers() {
    let mut g = pos("mode=advanced", 2, T1);
    let start = g.board.clone();
    let ev = play(&mut g, "rot j cw");
    let blue = Colour::Blue;
    assert_eq!(
        ev,
        vec![Event::Rotated {
            seat: seat_of(&g, "blue"),
            tower: t("j"),
            dir: Dir::Cw,
            minority: false,
            moves: vec![
                Moved {
                    from: 19,
                    to: 25,
                    colour: blue,
                    ctrl: false
                },
                Moved {
                    from: 31,
                    to: 36,
                    colour: Colour::Orange,
                    ctrl: false
                },
                Moved {
                    from: 24,
                    to: 19,
                    colour: blue,
                    ctrl: true
                },
            ],
        }]
    );
    assert_eq!(sorted(spaces(&g, "blue")), vec![1, 2, 3, 4, 19, 25]);
    assert_eq!(ctrl_spaces(&g, "blue"), vec![1, 19]);
    assert_eq!(sorted(spaces(&g, "orange")), vec![36, 48, 51, 52, 53, 54]);
    assert_eq!((g.used, seat_now(&g)), (1, seat_of(&g, "blue")));
    play(&mut g, "rot j ccw");
    assert_eq!(g.board, start);
    assert_eq!(g.used, 2);
}

#[test]
fn t02_opening_sequence_and_passing() {
    let mut g = new_game("", 2);
    assert_eq!(sorted(spaces(&g, "blue")), vec![17, 22, 23, 28, 29, 34]);
    assert_eq!(sorted(spaces(&g, "orange")), vec![21, 26, 27, 32, 33, 38]);
    assert_eq!(
        opts(&g),
        strs(&[
            "rot d cw",
            "rot d ccw",
            "rot h cw",
            "rot h ccw",
            "rot i cw",
            "rot i ccw",
            "rot m cw",
            "rot m ccw"
        ])
    );
    refused(&mut g, "end", RuleError::MustActFirst);
    let ev = play(&mut g, "rot i cw");
    assert_eq!(sorted(spaces(&g, "blue")), vec![17, 18, 22, 23, 28, 34]);
    assert!(ev.contains(&Event::TurnEnded {
        seat: Seat(0),
        reason: EndReason::AllowanceUsed
    }));
    assert!(ev.contains(&Event::TurnStarted {
        seat: Seat(1),
        allowance: 2
    }));
    play(&mut g, "rot k ccw");
    assert_eq!(sorted(spaces(&g, "orange")), vec![20, 21, 26, 27, 33, 38]);
    assert!(opts(&g).contains(&"end".to_string()));
    let ev = play(&mut g, "end");
    assert_eq!(
        ev[0],
        Event::TurnEnded {
            seat: Seat(1),
            reason: EndReason::Passed
        }
    );
    assert_eq!(g.allowance, 3);
    assert_eq!(opts(&g).len(), 10);
    let towers: Vec<String> = opts(&g).iter().map(|o| o[4..5].to_string()).collect();
    assert_eq!(
        towers,
        strs(&["d", "d", "e", "e", "h", "h", "i", "i", "m", "m"])
    );
    // With confirm_end, the first action leaves only `end`.
    let mut c = new_game("confirm_end=on", 2);
    play(&mut c, "rot i cw");
    assert_eq!(opts(&c), strs(&["end"]));
    assert_eq!(kind(&c), "action");
}

/// Allowances by turn for a seat count, with every turn ending by `end` or its allowance.
fn allowances(seats: usize, turns: usize) -> Vec<u8> {
    let mut g = new_game("empty_rotation=on", seats);
    let mut out = Vec::new();
    for _ in 0..turns {
        out.push(g.allowance);
        let first = opts(&g)[0].clone();
        play(&mut g, &first);
        if g.used > 0 && Game::prompt(&g).is_some() && g.used < g.allowance {
            play(&mut g, "end");
        }
    }
    out
}

#[test]
fn t02_allowance_tables() {
    assert_eq!(allowances(2, 5), vec![1, 2, 3, 4, 4]);
    assert_eq!(allowances(3, 6), vec![1, 2, 3, 4, 4, 4]);
    assert_eq!(allowances(6, 8), vec![1, 2, 3, 4, 4, 4, 4, 4]);
}

const T3A: &str = "blue=19,25,1,2,3,4 orange=31,51,52,53,54,48 green=30,36,12,17,22,28";

#[test]
fn t03_half_against_no_minority() {
    for c in ["blue", "orange", "green"] {
        let mut g = pos("", 3, &format!("to={c} {T3A}"));
        refused(&mut g, "rot j cw", RuleError::Outnumbered);
        let mut g = pos("rotate_rule=no_minority", 3, &format!("to={c} {T3A}"));
        if c == "orange" {
            refused(&mut g, "rot j cw", RuleError::Outnumbered);
        } else {
            play(&mut g, "rot j cw");
        }
    }
    // 3 against 3 at I: both may turn it under both rules.
    let p = "blue=18,24,30,1,2,3 orange=23,29,35,51,52,53";
    for rule in ["half", "no_minority"] {
        for c in ["blue", "orange"] {
            let mut g = pos(&format!("rotate_rule={rule}"), 2, &format!("to={c} {p}"));
            play(&mut g, "rot i cw");
        }
    }
    let mut g = pos("", 2, &format!("to=blue {p}"));
    refused(&mut g, "rot k cw", RuleError::NoRouterAtTower);
    let mut g = pos("empty_rotation=on", 2, &format!("to=blue {p}"));
    let before = g.board.clone();
    play(&mut g, "rot k cw");
    assert_eq!((g.board == before, g.used), (true, 1));
}

#[test]
fn t04_winning_mid_turn() {
    let mut g = pos(
        "",
        2,
        "to=blue used=1 allowance=4 blue=20,26,27,32,33,38 orange=11,1,2,3,4,5",
    );
    let ev = play(&mut g, "rot g ccw");
    assert_eq!(sorted(spaces(&g, "blue")), vec![21, 26, 27, 32, 33, 38]);
    assert_eq!(sorted(spaces(&g, "orange")), vec![1, 2, 3, 4, 5, 15]);
    assert_eq!(won(&ev), Some((vec![seat_of(&g, "blue")], WinReason::Goal)));
    assert!(Game::prompt(&g).is_none());
    assert_eq!(g.outcome.as_ref().unwrap().winners, vec![Seat(0)]);
}

#[test]
fn t05_opponent_completes_your_goal() {
    let mut g = pos(
        "",
        2,
        "to=orange used=0 allowance=4 blue=20,26,27,32,33,38 orange=11,15,16,1,2,3",
    );
    let ev = play(&mut g, "rot g ccw");
    assert_eq!(sorted(spaces(&g, "orange")), vec![1, 2, 3, 11, 15, 20]);
    assert_eq!(won(&ev), Some((vec![seat_of(&g, "blue")], WinReason::Goal)));
}

const T6: &str = "to=blue used=0 allowance=4 blue=5,6,9,10,13,15 orange=1,2,3,4,7,14";

#[test]
fn t06_blocked_seat_is_skipped() {
    let mut g = pos("", 2, T6);
    let ti = g.turn_index;
    play(&mut g, "rot g cw");
    assert_eq!(g.cell(11).map(|r| r.colour), Some(Colour::Blue));
    play(&mut g, "rot g ccw");
    let ev = play(&mut g, "end");
    assert!(ev.contains(&Event::TurnSkipped { seat: Seat(1) }));
    assert_eq!(g.turn_index, ti + 2);
    assert_eq!((seat_now(&g), g.allowance), (Seat(0), 4));
    // With minority controllers orange is not skipped and may only spend them.
    let mut g = pos("minority=on", 2, T6);
    play(&mut g, "rot g cw");
    play(&mut g, "rot g ccw");
    play(&mut g, "end");
    assert_eq!(seat_now(&g), Seat(1));
    let want: Vec<String> = ["a", "b", "c", "e", "f"]
        .iter()
        .flat_map(|x| [format!("min {x} cw"), format!("min {x} ccw")])
        .collect();
    assert_eq!(opts(&g), want);
}

#[test]
fn t07_minority_controllers() {
    let p = "to=blue used=0 allowance=4 blue=19,1,2,3,4,7 orange=25,31,36,51,52,53 minority=blue:2,orange:2";
    let mut g = pos("minority=on", 2, p);
    refused(&mut g, "rot j cw", RuleError::Outnumbered);
    let o = opts(&g);
    assert!(o.contains(&"min j cw".into()) && o.contains(&"min j ccw".into()));
    assert!(!o
        .iter()
        .any(|x| x.starts_with("min e") || x.starts_with("min k")));
    refused(&mut g, "min e cw", RuleError::MinorityNotNeeded);
    refused(&mut g, "min k cw", RuleError::NoRouterAtTower);
    let ev = play(&mut g, "min j cw");
    assert_eq!(
        ev[0],
        Event::MinoritySpent {
            seat: Seat(0),
            left: 1
        }
    );
    assert!(matches!(ev[1], Event::Rotated { minority: true, .. }));
    assert_eq!(g.cell(25).unwrap().colour, Colour::Blue);
    assert_eq!(sorted(spaces(&g, "orange")), vec![30, 31, 36, 51, 52, 53]);
    assert_eq!((g.sides[0].minority_left, g.used), (1, 1));
    play(&mut g, "min j ccw");
    assert_eq!((g.sides[0].minority_left, g.used), (0, 2));
    assert_eq!(sorted(spaces(&g, "blue")), vec![1, 2, 3, 4, 7, 19]);
    refused(&mut g, "min j cw", RuleError::NoMinorityControllerLeft);
    let mut off = pos("", 2, p);
    refused(&mut off, "min j cw", RuleError::MinorityOff);
}

#[test]
fn t08_claiming_and_the_lock() {
    let a = "to=blue blue=19*,25,1*,2,3,4 orange=31,51*,52*,53,54,48 green=36,12*,17*,22,28,34";
    let mut g = pos("mode=advanced", 3, a);
    refused(&mut g, "claim j 19", RuleError::NoMajority);
    let mut g = pos("mode=advanced claim_majority=plurality", 3, a);
    play(&mut g, "claim j 19");
    let b = "to=blue blue=19*,25,1*,2,3,30 orange=31,51*,52*,53,54,48 green=36,12*,17*,22,28,34";
    let mut g = pos("mode=advanced", 3, b);
    let ev = play(&mut g, "claim j 19");
    assert_eq!(
        ev,
        vec![Event::Claimed {
            seat: Seat(0),
            tower: t("j"),
            from: 19,
            captured_from: None
        }]
    );
    assert_eq!(g.claims[usize::from(t("j"))], Some(Colour::Blue));
    assert_eq!((ctrl_spaces(&g, "blue"), g.used), (vec![1], 1));
    let c = "own=j:blue blue=19,1,2,3,4,8* orange=25,31,36,51*,52*,53";
    let mut g = pos("mode=advanced", 2, &format!("to=orange {c}"));
    refused(&mut g, "rot j cw", RuleError::TowerClaimed);
    play(&mut g, "min j cw");
    let mut g = pos("mode=advanced", 2, &format!("to=blue {c}"));
    refused(&mut g, "rot j cw", RuleError::Outnumbered);
    let mut g = pos(
        "mode=advanced owner_rotate=free",
        2,
        &format!("to=blue {c}"),
    );
    play(&mut g, "rot j cw");
}

const T9: &str =
    "to=orange used=0 allowance=4 own=j:blue blue=19,1,2,3,4,8* orange=25*,31,36,51*,52,53";

#[test]
fn t09_capture_and_placement() {
    let mut g = pos("mode=advanced", 2, T9);
    let ev = play(&mut g, "claim j 25");
    assert_eq!(
        ev,
        vec![Event::Claimed {
            seat: Seat(1),
            tower: t("j"),
            from: 25,
            captured_from: Some(Seat(0))
        }]
    );
    assert_eq!((kind(&g), seat_now(&g)), ("place", Seat(1)));
    assert_eq!(
        opts(&g),
        strs(&["place 1", "place 2", "place 3", "place 4", "place 19"])
    );
    refused(&mut g, "rot k cw", RuleError::PlaceFirst);
    refused(&mut g, "place 8", RuleError::NotAPlacementSpace);
    let ev = play(&mut g, "place 3");
    assert_eq!(
        ev,
        vec![Event::ControllerPlaced {
            owner: Seat(0),
            space: 3,
            chosen_by: Seat(1)
        }]
    );
    assert_eq!(ctrl_spaces(&g, "blue"), vec![3, 8]);
    assert_eq!(g.claims[usize::from(t("j"))], Some(Colour::Orange));
    assert_eq!((g.used, kind(&g), seat_now(&g)), (1, "action", Seat(1)));
    // The victim places: same options, and that choice is an undo barrier.
    let mut g = pos("mode=advanced capture_place=victim", 2, T9);
    let claim = g
        .apply(
            Seat(1),
            &Action::Claim {
                tower: t("j"),
                from: 25,
            },
        )
        .unwrap();
    assert!(!claim.barrier);
    assert_eq!((kind(&g), seat_now(&g)), ("place", Seat(0)));
    assert_eq!(opts(&g).len(), 5);
    let placed = g.apply(Seat(0), &Action::Place(3)).unwrap();
    assert!(placed.barrier);
    assert_eq!((kind(&g), seat_now(&g)), ("action", Seat(1)));
}

#[test]
fn t10_controller_moves() {
    let p = "to=blue used=0 allowance=4 blue=24*,18,13,9,31,50* orange=1*,2*,3,4,7,16";
    let mut g = pos("mode=advanced", 2, p);
    let ctrl: Vec<String> = opts(&g)
        .into_iter()
        .filter(|o| o.starts_with("ctrl"))
        .collect();
    assert_eq!(ctrl, strs(&["ctrl 24 9", "ctrl 24 13", "ctrl 24 18"]));
    refused(&mut g, "ctrl 24 31", RuleError::NotConnected);
    refused(&mut g, "ctrl 24 50", RuleError::DestinationHasController);
    refused(&mut g, "ctrl 24 1", RuleError::NotYourRouter);
    refused(&mut g, "ctrl 18 9", RuleError::NoControllerThere);
    let ev = play(&mut g, "ctrl 24 9");
    assert_eq!(
        ev,
        vec![Event::ControllerMoved {
            seat: Seat(0),
            from: 24,
            to: 9
        }]
    );
    assert_eq!((ctrl_spaces(&g, "blue"), g.used), (vec![9, 50], 1));
    let g = pos("mode=advanced ctrl_link=tower", 2, p);
    assert!(opts(&g).contains(&"ctrl 24 31".to_string()));
}

const T11: &str = "to=blue used=0 own=j:blue blue=24*,13,18,9,40,41 orange=1*,2*,3,4,7,16";

#[test]
fn t11_recall_costs_the_whole_turn() {
    let mut g = pos("mode=advanced", 2, &format!("allowance=4 {T11}"));
    let rec: Vec<String> = opts(&g)
        .into_iter()
        .filter(|o| o.starts_with("recall"))
        .collect();
    assert_eq!(
        rec,
        strs(&[
            "recall j 9",
            "recall j 13",
            "recall j 18",
            "recall j 40",
            "recall j 41"
        ])
    );
    let mut r = g.clone();
    let ev = play(&mut r, "recall j 13");
    assert_eq!(ctrl_spaces(&r, "blue"), vec![13, 24]);
    assert_eq!(r.claims[usize::from(t("j"))], None);
    assert_eq!(
        &ev[..2],
        &[
            Event::Recalled {
                seat: Seat(0),
                tower: t("j"),
                to: 13
            },
            Event::TurnEnded {
                seat: Seat(0),
                reason: EndReason::Recall
            }
        ]
    );
    assert_eq!(seat_now(&r), Seat(1));
    play(&mut g, "rot i cw");
    assert!(!opts(&g).iter().any(|o| o.starts_with("recall")));
    refused(&mut g, "recall j 9", RuleError::RecallNeedsFullTurn);
    let g = pos("mode=advanced", 2, &format!("allowance=3 {T11}"));
    assert!(!opts(&g).iter().any(|o| o.starts_with("recall")));
    let g = pos(
        "mode=advanced recall_to=tower",
        2,
        &format!("allowance=4 {T11}"),
    );
    assert!(!opts(&g).iter().any(|o| o.starts_with("recall")));
}

#[test]
fn t12_team_finish() {
    let a = "to=blue used=0 allowance=4 blue=41,42,46,47,51,54 green=3,6,7,10,11,15 orange=17,22,23,28,29,34 yellow=21,26,27,32,33,38";
    let mut g = pos("", 4, a);
    let ev = play(&mut g, "rot r cw");
    assert_eq!(sorted(spaces(&g, "blue")), vec![42, 46, 47, 50, 51, 54]);
    assert!(ev.contains(&Event::PlayerFinished { seat: Seat(0) }));
    assert_eq!(won(&ev), None);
    assert_eq!((seat_now(&g), g.used), (Seat(0), 1));
    assert!(opts(&g).contains(&"end".to_string()));
    let b = "to=green used=0 allowance=4 finished=blue blue=37,42,46,50,51,54 green=39,44,45,48,49,52 orange=12,17,18,22,23,28 yellow=21,26,27,32,33,38";
    let mut g = pos("", 4, b);
    let ev = play(&mut g, "rot m ccw");
    assert_eq!(sorted(spaces(&g, "green")), vec![40, 44, 45, 48, 49, 52]);
    assert_eq!(won(&ev), Some((vec![Seat(0), Seat(1)], WinReason::Goal)));
    let mut g = pos("team_finish=together", 4, b);
    let ev = play(&mut g, "rot m ccw");
    assert_eq!(won(&ev), None);
    assert!(Game::prompt(&g).is_some());
}

#[test]
fn t13_cat_and_mouse_turn_flow() {
    let g = new_game("mode=catmouse", 2);
    assert_eq!(opts(&g), strs(&["rot r cw", "rot r ccw"]));
    assert_eq!(kind(&g), "mouse");
    let mut g = pos(
        "mode=catmouse",
        2,
        "to=mouse mouse=18 cats=8,9,10,11 last=none",
    );
    assert_eq!(
        opts(&g),
        strs(&[
            "rot d cw",
            "rot d ccw",
            "rot e cw",
            "rot e ccw",
            "rot i cw",
            "rot i ccw"
        ])
    );
    play(&mut g, "rot i cw");
    assert_eq!(g.cell(24).unwrap().colour, Colour::Red);
    assert_eq!(
        opts(&g),
        strs(&[
            "rot e cw",
            "rot e ccw",
            "rot i cw",
            "rot j cw",
            "rot j ccw",
            "end"
        ])
    );
    refused(&mut g, "rot i ccw", RuleError::RepeatedPosition);
    let ev = play(&mut g, "rot e ccw");
    assert_eq!(g.cell(19).unwrap().colour, Colour::Red);
    assert_eq!(g.cell(13).unwrap().colour, Colour::Black);
    assert!(ev.contains(&Event::TurnEnded {
        seat: Seat(0),
        reason: EndReason::CatMoved
    }));
    assert_eq!(kind(&g), "cats");
    let mut want = Vec::new();
    for x in ["a", "b", "c", "d", "f", "g"] {
        want.push(format!("rot {x} cw"));
        want.push(format!("rot {x} ccw"));
        if x == "d" {
            want.push("rot e ccw".into());
        }
    }
    assert_eq!(opts(&g), want);
    refused(&mut g, "rot e cw", RuleError::UndoesMouseMove);
    refused(&mut g, "end", RuleError::MustActFirst);
}

#[test]
fn cat_and_mouse_alone_plays_both_sides() {
    let mut g = new_game("mode=catmouse", 1);
    assert_eq!((g.sides[0].seat, g.sides[1].seat), (Seat(0), Seat(0)));
    play(&mut g, "rot r cw");
    play(&mut g, "end");
    assert_eq!((kind(&g), seat_now(&g)), ("cats", Seat(0)));
    let mut g = pos(
        "mode=catmouse",
        1,
        "to=cats mouse=22 cats=17,35,52,54 last=h:cw",
    );
    play(&mut g, "rot m ccw");
    let o = g.outcome.clone().unwrap();
    assert_eq!((o.scores, o.winners, o.draw), (vec![0], vec![], false));
}

#[test]
fn t14_cat_and_mouse_endings() {
    let mut g = pos("mode=catmouse", 2, "to=mouse mouse=9 cats=13,15,20,30");
    let ev = play(&mut g, "rot a ccw");
    assert_eq!(g.cell(5).unwrap().colour, Colour::Red);
    assert!(ev.contains(&Event::MouseReachedPantry { space: 5 }));
    assert_eq!(won(&ev), Some((vec![Seat(0)], WinReason::Pantry)));
    assert!(!ev.iter().any(|e| matches!(e, Event::TurnEnded { .. })));
    let mut g = pos(
        "mode=catmouse",
        2,
        "to=cats mouse=22 cats=17,35,52,54 last=h:cw",
    );
    assert!(!opts(&g).contains(&"rot h ccw".to_string()));
    let ev = play(&mut g, "rot m ccw");
    assert_eq!(g.cell(29).unwrap().colour, Colour::Black);
    assert!(ev.contains(&Event::MouseTrapped { space: 22 }));
    assert_eq!(won(&ev), Some((vec![Seat(1)], WinReason::Trapped)));
}

const T15: &str = "blue=18,19,23,24,29,35 orange=20,26,31,32,36,37 rotations=0";

#[test]
fn t15_solitaire() {
    let o = "mode=solitaire solo_colours=2 solo_targets=close";
    let mut g = pos(o, 1, T15);
    assert_eq!(opts(&g).len(), 38);
    let ev = play(&mut g, "rot j ccw");
    assert_eq!(sorted(spaces(&g, "blue")), vec![18, 23, 24, 29, 30, 35]);
    assert_eq!(sorted(spaces(&g, "orange")), vec![20, 25, 26, 31, 32, 37]);
    assert!(ev.contains(&Event::PuzzleSolved { rotations: 1 }));
    assert_eq!(g.outcome.as_ref().unwrap().scores, vec![1]);
    let mut g = pos(o, 1, T15);
    for _ in 0..5 {
        play(&mut g, "rot j cw");
    }
    assert_eq!(g.outcome.as_ref().unwrap().scores, vec![5]);
    // Undo is by replay (ARCHITECTURE.md): undone rotations leave the log, so they never count.
    let mut g = pos(o, 1, T15);
    let a = g
        .apply(
            Seat(0),
            &Action::Rot {
                tower: t("j"),
                dir: Dir::Cw,
            },
        )
        .unwrap();
    assert!(!a.barrier, "solo_undo=on: no barrier");
    let mut off = pos(&format!("{o} solo_undo=off"), 1, T15);
    let b = off
        .apply(
            Seat(0),
            &Action::Rot {
                tower: t("j"),
                dir: Dir::Cw,
            },
        )
        .unwrap();
    assert!(b.barrier);
}

// ---------------------------------------------------------------- rules R1-R33

#[test]
fn r01_one_router_per_space_and_controllers_ride_own_colour() {
    let mut g = pos("mode=advanced", 2, T1);
    for _ in 0..4 {
        play(&mut g, "rot j cw");
    }
    assert_eq!(seat_now(&g), Seat(1));
    assert_eq!(g.board.iter().flatten().count(), 12);
    assert!(g
        .board
        .iter()
        .flatten()
        .filter(|r| r.ctrl)
        .all(|r| r.colour != Colour::Red));
}

#[test]
fn r02_routers_on_shared_spaces_count_at_every_tower() {
    // Blue on 19 counts at E, F and J.
    let g = pos("", 2, "to=blue blue=19,1,2,3,4,5 orange=48,49,50,51,52,53");
    let o = opts(&g);
    for x in ["e", "f", "j"] {
        assert!(o.contains(&format!("rot {x} cw")), "{x}");
    }
}

#[test]
fn r03_actions_may_undo_each_other() {
    let mut g = pos("", 2, "to=blue blue=19,1,2,3,4,5 orange=48,49,50,51,52,53");
    let before = g.board.clone();
    play(&mut g, "rot e cw");
    assert_ne!(g.board, before);
    play(&mut g, "rot e ccw");
    assert_eq!((g.board == before, g.used), (true, 2));
    play(&mut g, "rot e cw");
    play(&mut g, "rot e cw");
    assert_eq!((g.used, seat_now(&g)), (0, Seat(1)));
}

#[test]
fn r04_rotation_carries_everything_but_claims() {
    let mut g = pos("mode=advanced", 2, &format!("own=j:orange {T1}"));
    play(&mut g, "rot i cw");
    assert_eq!(g.claims[usize::from(t("j"))], Some(Colour::Orange));
    assert!(
        g.cell(30).unwrap().ctrl,
        "the riding controller moved from 24 to 30"
    );
}

#[test]
fn r05_half_rule_ties_are_legal() {
    let mut g = pos(
        "",
        2,
        "to=orange blue=18,24,1,2,3,4 orange=23,29,51,52,53,54",
    );
    play(&mut g, "rot i cw");
}

#[test]
fn r06_no_minority_differs_only_with_three_colours() {
    t03_half_against_no_minority();
}

#[test]
fn r07_empty_tower_never_rotatable_unless_empty_rotation() {
    let mut g = pos(
        "empty_rotation=on",
        2,
        "to=blue blue=19,1,2,3,4,5 orange=25,31,48,49,50,51",
    );
    // K holds only orange: still not turnable for blue.
    refused(&mut g, "rot k cw", RuleError::NoRouterAtTower);
    play(&mut g, "rot h cw");
}

#[test]
fn r08_claimed_tower_locked_owner_needs_majority() {
    t08_claiming_and_the_lock();
}

#[test]
fn r09_minority_only_where_normal_is_illegal_both_in_one_turn() {
    t07_minority_controllers();
}

#[test]
fn r10_allowance_depends_on_turn_index_only() {
    t02_allowance_tables();
}

#[test]
fn r11_turn_ends_when_only_end_is_left() {
    // Blue's only turnable tower is G; after one turn of it another is possible again, so
    // build a case where after one action nothing is legal: blue alone at C with a 1:1 tie
    // that the rotation breaks.
    let mut g = pos(
        "",
        2,
        "to=blue used=0 allowance=4 blue=3,40,41,45,49,53 orange=7,42,46,50,54,51",
    );
    // Blue turns C: 3 -> 7's place; orange 7 -> 11. Then blue on 7 (C) ties nothing.
    let before = g.turn_index;
    while g.turn_index == before && Game::prompt(&g).is_some() {
        let first = opts(&g)[0].clone();
        play(&mut g, &first);
    }
    // The turn ended without `end` being chosen whenever only `end` was left.
    assert!(g.turn_index > before);
}

#[test]
fn r12_deadlock_is_a_draw() {
    // Each seat's only tower is locked by the other's claim, and nobody has a riding
    // controller, a minority rotation or a 4-action turn for a recall: both are skipped.
    let mut d = pos(
        "mode=advanced minority=off",
        2,
        "to=blue used=0 allowance=4 own=a:orange,b:blue blue=1 orange=2",
    );
    // In the opening turns (fewer than 4 actions) recalls are impossible too.
    d.turn_index = 0;
    let mut ev = Vec::new();
    d.start_turn(&mut ev);
    assert_eq!(
        ev,
        vec![
            Event::TurnSkipped { seat: Seat(0) },
            Event::TurnSkipped { seat: Seat(1) },
            Event::GameDrawn {
                reason: DrawReason::Deadlock
            }
        ]
    );
    assert_eq!(d.ending, Some(Ending::Drawn(DrawReason::Deadlock)));
    assert!(d.outcome.as_ref().unwrap().draw);
    assert!(Game::prompt(&d).is_none());
}

#[test]
fn r13_claims_moves_and_minority_cost_one_action() {
    let b = "to=blue blue=19*,25,1*,4,3,30 orange=31,51*,52*,53,54,48 green=36,12*,17*,22,28,34";
    let mut g = pos("mode=advanced", 3, b);
    play(&mut g, "claim j 19");
    assert_eq!(g.used, 1);
    play(&mut g, "ctrl 1 4");
    assert_eq!(g.used, 2);
}

#[test]
fn r14_cannot_claim_own_tower_or_without_controller_there() {
    let mut g = pos("mode=advanced", 2, &format!("own=j:blue {T1}"));
    refused(&mut g, "claim j 24", RuleError::AlreadyYourTower);
    let mut g = pos("mode=advanced", 2, T1);
    refused(&mut g, "claim j 19", RuleError::NoControllerThere);
    refused(&mut g, "claim e 1", RuleError::NoControllerThere);
    // `claim j` resolves to the one riding controller at J.
    let mut g = pos("mode=advanced", 2, T1);
    play(&mut g, "claim j");
    assert_eq!(g.claims[usize::from(t("j"))], Some(Colour::Blue));
}

#[test]
fn r15_capture_places_on_victim_router() {
    t09_capture_and_placement();
}

#[test]
fn r16_controller_moves_only_through_own_routers() {
    t10_controller_moves();
}

#[test]
fn r17_recall_unclaims() {
    t11_recall_costs_the_whole_turn();
}

#[test]
fn r18_claims_change_no_counts() {
    // Orange owns J but blue has 3 of 4 there: blue still cannot rotate (claimed), and the
    // counts let blue capture it.
    let mut g = pos(
        "mode=advanced",
        2,
        "to=blue own=j:orange blue=19*,25,31,1,2,3 orange=36,51*,52*,53,54,48",
    );
    refused(&mut g, "rot j cw", RuleError::TowerClaimed);
    play(&mut g, "claim j 19");
    assert_eq!(kind(&g), "place");
}

#[test]
fn r19_r20_completion_checked_after_every_rotation() {
    t04_winning_mid_turn();
    t05_opponent_completes_your_goal();
}

#[test]
fn r20_shared_win_when_mover_not_complete() {
    // Orange's rotation at G completes blue; give orange no completion: blue alone wins.
    let mut g = pos(
        "goal_count=1",
        2,
        "to=orange blue=20,1,2,3,4,5 orange=11,15,16,48,49,50",
    );
    let ev = play(&mut g, "rot g ccw");
    assert_eq!(won(&ev), Some((vec![Seat(0)], WinReason::Goal)));
}

#[test]
fn r21_r22_team_latch_and_together() {
    t12_team_finish();
}

#[test]
fn r23_pooled_counts_make_team_sides() {
    // Blue 1 + green 1 against orange 2 at J: pooled, blue may turn (2 of 4).
    let p = "to=blue blue=19,1,2,3,4,5 green=25,6,7,10,11,15 orange=31,36,48,49,50,51 yellow=52,53,54,44,45,40";
    let mut g = pos("", 4, p);
    refused(&mut g, "rot j cw", RuleError::Outnumbered);
    let mut g = pos("team_counts=pooled", 4, p);
    play(&mut g, "rot j cw");
    // A team-mate's claim is not a lock.
    let mut g = pos(
        "mode=advanced team_counts=pooled",
        4,
        &format!("own=j:green {p}"),
    );
    play(&mut g, "rot j cw");
    let mut g = pos("mode=advanced", 4, &format!("own=j:green {p}"));
    refused(&mut g, "rot j cw", RuleError::TowerClaimed);
}

#[test]
fn r24_mouse_needs_the_tower_and_at_most_one_cat() {
    let mut g = pos("mode=catmouse", 2, "to=mouse mouse=18 cats=8,13,23,24");
    refused(&mut g, "rot j cw", RuleError::MouseNotAtTower);
    refused(&mut g, "rot d cw", RuleError::TooManyCats);
    let mut c = pos(
        "mode=catmouse",
        2,
        "to=cats mouse=18 cats=8,13,23,24 last=none",
    );
    refused(&mut c, "rot s cw", RuleError::NoCatAtTower);
}

#[test]
fn r25_mouse_turn_ends_on_cat_move_or_end() {
    t13_cat_and_mouse_turn_flow();
}

#[test]
fn r26_cats_one_rotation_not_the_inverse() {
    let mut g = pos(
        "mode=catmouse",
        2,
        "to=cats mouse=53 cats=8,9,10,11 last=a:cw",
    );
    refused(&mut g, "rot a ccw", RuleError::UndoesMouseMove);
    let ev = play(&mut g, "rot a cw");
    assert!(ev.contains(&Event::TurnEnded {
        seat: Seat(1),
        reason: EndReason::CatsMoved
    }));
    assert_eq!(kind(&g), "mouse");
}

#[test]
fn r27_r28_pantry_before_trap() {
    t14_cat_and_mouse_endings();
}

#[test]
fn r29_round_limit_draws() {
    let mut g = new_game("mode=catmouse max_rounds=10", 2);
    let mut rng = GameRng::seed_from_u64(5);
    while Game::prompt(&g).is_some() {
        let o = opts(&g);
        let pick = o[rng.gen_range(0..o.len())].clone();
        play(&mut g, &pick);
    }
    assert!(g.turn_index <= 20);
    let mut g = new_game("max_rounds=10", 2);
    while Game::prompt(&g).is_some() {
        let o = opts(&g);
        let pick = o[rng.gen_range(0..o.len())].clone();
        play(&mut g, &pick);
    }
    if g.ending == Some(Ending::Drawn(DrawReason::RoundLimit)) {
        assert_eq!(g.turn_index, 20);
        assert!(g.outcome.as_ref().unwrap().draw);
    }
}

#[test]
fn r30_r31_r32_solitaire_any_tower_solved_score() {
    t15_solitaire();
    let g = new_game("mode=solitaire solo_colours=6", 1);
    assert_eq!(opts(&g).len(), 38);
}

/// Issue 25, item 5: Solitaire has no rotation limit (old: a HOUSE end after 1,000 rotations,
/// reported as rank 1, above any solve); a game stored under the limit keeps it on replay,
/// and its unsolved result ranks below every solve.
#[test]
fn issue25_solitaire_has_no_rotation_limit_and_unsolved_ranks_below_solves() {
    let o = "mode=solitaire solo_colours=2 solo_targets=close";
    let wander = |g: &mut Vortex, pairs: usize| {
        for _ in 0..pairs {
            play(g, "rot j cw");
            play(g, "rot j ccw");
        }
    };
    // New: 1,200 rotations and the puzzle is still open; solving it then is a rank-1 solve.
    let mut g = pos(o, 1, T15);
    assert!(!g.rules.solo_limit);
    wander(&mut g, 600);
    assert_eq!(g.rotations, 1200);
    assert!(g.ending.is_none() && Game::prompt(&g).is_some());
    play(&mut g, "rot j ccw");
    let solved = Game::outcome(&g).unwrap();
    assert_eq!((&solved.scores, &solved.ranks), (&vec![1201], &vec![1]));
    assert_eq!(solved.winners, vec![Seat(0)]);
    // Old: the same rotations end the game at 1,000, unsolved.
    let mut old = pos(o, 1, T15);
    old.rules.solo_limit = true;
    wander(&mut old, 500);
    assert_eq!(old.ending, Some(Ending::Drawn(DrawReason::RotationLimit)));
    // It was stored as rank 1 (kept, so the game replays to the same bytes) ...
    assert_eq!(old.outcome.as_ref().unwrap().ranks, vec![1]);
    // ... and now reads as what it is: unsolved, below every solve, with its rotations.
    let unsolved = Game::outcome(&old).unwrap();
    assert_eq!(unsolved.ranks, vec![UNSOLVED_RANK]);
    assert!(unsolved.ranks[0] > solved.ranks[0]);
    assert_eq!(unsolved.scores, vec![1000]);
    assert!(unsolved.winners.is_empty() && !unsolved.draw);
    assert_eq!(Game::scores(&old), vec![1000]);
    // A state stored before issue 25 has no `solo_limit` field: it reads as limited, and a
    // replay from seed today takes the limit back from it.
    let stored = new_game("mode=solitaire", 1)
        .to_json()
        .replace(",\"solo_limit\":false", "");
    assert!(!stored.contains("solo_limit"));
    let loaded = crate::engine::GameKind::load(&stored).unwrap();
    assert_eq!(
        loaded.to_json(),
        stored,
        "an old state round-trips unchanged"
    );
    let mut replayed = new_game("mode=solitaire", 1);
    replayed.keep_rules_of_json(&stored);
    assert!(replayed.rules.solo_limit);
    assert_eq!(replayed.to_json(), stored);
}

#[test]
fn r33_resign_is_engine_level() {
    // Resigning is handled by the service (it ends the game for everyone); the game itself
    // only has to keep a consistent outcome shape for every seat count.
    for n in 2..=6 {
        let g = new_game("", n);
        assert_eq!(Game::scores(&g).len(), n);
    }
}

// ---------------------------------------------------------------- notation

#[test]
fn notation_aliases_case_and_compound_lines() {
    let mut g = new_game("", 2);
    let r = g.play_line(Seat(0), "ROTATE  I   CW");
    assert_eq!(r.unwrap()[0].notation, "rot i cw");
    // Orange, allowance 2: a line with a trailing `end` after the turn ended by itself.
    let mut g2 = g.clone();
    let moves = g2.play_line(Seat(1), "rot k ccw; rot k ccw; end").unwrap();
    assert_eq!(moves.len(), 2);
    assert_eq!(seat_now(&g2), Seat(0));
    // Anything else after the turn ended refuses the whole line.
    let before = g.to_json();
    let e = g
        .play_line(Seat(1), "rot k ccw; rot k ccw; rot k ccw")
        .unwrap_err();
    assert!(
        matches!(e, PlayError::Illegal { ref reason, .. } if *reason == RuleError::NoActionsLeft.text()),
        "{e:?}"
    );
    assert_eq!(g.to_json(), before);
    let moves = g.play_line(Seat(1), "rotate k ccw; pass").unwrap();
    assert_eq!(moves[1].notation, "end");
}

#[test]
fn parse_errors_name_the_forms() {
    let g = new_game("", 2);
    for bad in [
        "rot",
        "rot z cw",
        "rot j up",
        "claim j 55",
        "ctrl 1",
        "place 0",
        "place 07",
        "fly j",
    ] {
        let e = Game::parse(&g, Seat(0), bad).unwrap_err();
        assert!(matches!(e, crate::engine::Reject::Parse(_)), "{bad}: {e:?}");
    }
}

#[test]
fn parser_property_random_strings_never_panic_or_change_anything() {
    let mut rng = GameRng::seed_from_u64(99);
    let alphabet: Vec<char> = "rotminclaimctrlrecallplaceendabcjs 0123456789;cwccw*-é🙂\t"
        .chars()
        .collect();
    let mut games = vec![
        new_game("", 2),
        new_game("mode=advanced", 3),
        new_game("mode=catmouse", 2),
        new_game("mode=solitaire", 1),
    ];
    for g in &mut games {
        let before = g.to_json();
        for _ in 0..1500 {
            let len = rng.gen_range(0..24);
            let s: String = (0..len)
                .map(|_| alphabet[rng.gen_range(0..alphabet.len())])
                .collect();
            let seat = seat_now(g);
            let mut c = g.clone();
            let r = c.play_line(seat, &s);
            if r.is_err() {
                assert_eq!(c.to_json(), before, "`{s}` changed the state");
            }
        }
        assert_eq!(g.to_json(), before);
    }
}

#[test]
fn ascii_board_snapshot() {
    let g = new_game("mode=advanced", 2);
    let a = ascii_board(&g.board, &g.claims, g.mode);
    let lines: Vec<&str> = a.lines().collect();
    assert_eq!(lines.len(), 17);
    assert_eq!(lines[2].trim(), "[A]     [B]     [C]");
    assert!(lines[7].contains("b*"));
    assert_eq!(a.matches('b').count(), 6);
    assert_eq!(a.matches('o').count(), 6);
}

// ---------------------------------------------------------------- playouts

/// The invariants of the issue, checked after every step.
fn check_invariants(g: &Vortex, counts: &[(Colour, usize)]) {
    for (c, n) in counts {
        assert_eq!(g.spaces_of(*c).len(), *n, "{c:?} lost a router");
    }
    assert_eq!(g.board.len(), 54);
    for r in g.board.iter().flatten() {
        if r.ctrl {
            assert_eq!(g.mode, Mode::Advanced);
        }
    }
    if g.mode == Mode::Advanced && g.pending.is_none() {
        for s in &g.sides {
            let riding = g
                .board
                .iter()
                .flatten()
                .filter(|r| r.colour == s.colour && r.ctrl)
                .count();
            let on_towers = g.claims.iter().filter(|c| **c == Some(s.colour)).count();
            assert_eq!(riding + on_towers, usize::from(g.rules.controllers));
        }
    }
    if g.ending.is_none() {
        match g.mode {
            Mode::Crossing | Mode::Advanced => {
                if g.pending.is_none() {
                    let want = u8::try_from((g.turn_index + 1).min(4)).unwrap();
                    assert_eq!(g.allowance, want, "allowance");
                    assert!(g.used < g.allowance || g.rules.confirm_end);
                }
                if !g.rules.teams {
                    for i in 0..g.sides.len() {
                        assert!(g.in_goal(i) < g.rules.goal_count, "a goal is complete");
                    }
                }
            }
            Mode::Catmouse => {
                let m = g.spaces_of(Colour::Red)[0];
                assert!(!(1..=7).contains(&m), "mouse in the pantry");
            }
            Mode::Solitaire => assert!(!g.solved()),
        }
    }
}

/// One seeded random game: every listed option applies (and re-parses to itself), options
/// of other seats and garbage are refused without change; returns the log.
fn playout(opts_str: &str, seats: usize, seed: u64) -> usize {
    let o = options(&opts_str.replace("seating=host", ""));
    let mut g = Vortex::setup(&o, seats, seed).unwrap();
    let counts: Vec<(Colour, usize)> = Colour::ALL
        .iter()
        .map(|c| (*c, g.spaces_of(*c).len()))
        .collect();
    let mut rng = GameRng::seed_from_u64(seed);
    let mut log: Vec<(Seat, Action)> = Vec::new();
    for step in 0..6000 {
        let Some(p) = Game::prompt(&g) else {
            assert!(g.outcome.is_some());
            break;
        };
        // Solitaire ends only when solved or resigned (issue 25): random turns stop here.
        if g.mode == Mode::Solitaire && step == 1500 {
            break;
        }
        assert!(step < 5999, "{opts_str} {seats} seed {seed}: no end");
        assert!(!p.options.is_empty());
        if step % 7 == 0 {
            for o in &p.options {
                let n = Game::notation(&g, o);
                assert_eq!(Game::parse(&g, p.seat, &n).unwrap(), vec![*o], "{n}");
            }
            // Options from another prompt kind are refused.
            let before = g.to_json();
            for foreign in ["place 1", "recall a 1", "ctrl 1 2", "min a cw"] {
                let f = Game::parse(&g, p.seat, foreign).unwrap();
                if !p.options.contains(&f[0]) {
                    assert!(g.clone().apply(p.seat, &f[0]).is_err(), "{foreign}");
                }
            }
            for junk in ["rot", "xyzzy", "rot t cw", "place 99", ";;"] {
                assert!(g.play_line(p.seat, junk).is_err());
            }
            if seats > 1 {
                let other = Seat((p.seat.0 + 1) % u8::try_from(seats).unwrap());
                let n = Game::notation(&g, &p.options[0]);
                assert!(g.play_line(other, &n).is_err());
            }
            assert_eq!(g.to_json(), before);
        }
        let pick = p.options[rng.gen_range(0..p.options.len())];
        let before = g.board.clone();
        let applied = g.apply(p.seat, &pick).unwrap();
        // Nothing is hidden or random after setup: no step reveals anything, and a turn's
        // end is a barrier that an agreed take-back may cross.
        assert!(!applied.revealed, "{opts_str}: {pick:?} revealed");
        if applied
            .events
            .iter()
            .any(|e| matches!(e, Event::TurnEnded { .. }))
        {
            assert!(applied.barrier, "{opts_str}: {pick:?} ended a turn");
        }
        // A rotation permutes exactly the six spaces of its tower.
        if let Action::Rot { tower, .. } | Action::Min { tower, .. } = pick {
            let ring = data().unwrap().ring(tower);
            for s in 1..=54u8 {
                if !ring.contains(&s) {
                    assert_eq!(g.board[usize::from(s - 1)], before[usize::from(s - 1)]);
                }
            }
            assert!(applied
                .events
                .iter()
                .any(|e| matches!(e, Event::Rotated { tower: tw, .. } if *tw == tower)));
        }
        log.push((p.seat, pick));
        check_invariants(&g, &counts);
    }
    // Replay gives the same state.
    let mut r = Vortex::setup(&o, seats, seed).unwrap();
    for (s, a) in &log {
        r.apply(*s, a).unwrap();
    }
    assert_eq!(r.to_json(), g.to_json());
    log.len()
}

#[test]
fn random_playouts_every_mode_and_count() {
    let mut games = 0;
    let mut seed = 0;
    let race = [
        "max_rounds=10",
        "max_rounds=10 rotate_rule=no_minority minority=on",
        "max_rounds=10 empty_rotation=on goal_count=2 confirm_end=on",
        "max_rounds=10 goal_count=1",
    ];
    let adv = [
        "mode=advanced max_rounds=10",
        "mode=advanced max_rounds=10 claim_majority=plurality capture_place=victim ctrl_link=tower",
        "mode=advanced max_rounds=10 owner_rotate=free recall_to=tower controllers=1 goal_count=3",
    ];
    for o in race.iter().chain(adv.iter()) {
        for n in 2..=6 {
            for _ in 0..40 {
                seed += 1;
                playout(o, n, seed);
                games += 1;
            }
        }
    }
    for o in [
        "mode=crossing max_rounds=10 team_counts=pooled team_finish=together goal_count=2",
        "mode=advanced max_rounds=10 team_counts=pooled goal_count=2",
    ] {
        for n in [4, 6] {
            for _ in 0..40 {
                seed += 1;
                playout(o, n, seed);
                games += 1;
            }
        }
    }
    for o in [
        "mode=catmouse max_rounds=20",
        "mode=catmouse cats=5 max_rounds=20",
    ] {
        for _ in 0..200 {
            seed += 1;
            playout(o, 2, seed);
            games += 1;
        }
    }
    for o in [
        "mode=solitaire solo_colours=2 solo_scramble=5",
        "mode=solitaire solo_colours=6 solo_targets=close",
    ] {
        for _ in 0..20 {
            seed += 1;
            playout(o, 1, seed);
            games += 1;
        }
    }
    assert!(games >= 2000, "{games}");
}

// ---------------------------------------------------------------- views and images

#[test]
fn views_texts_and_image_sizes() {
    let ctx = RenderCtx {
        lang: Lang::En,
        names: vec!["Ann".into(), "Bob".into(), "Cy".into()],
        stopped: false,
        number: None,
    };
    for (o, n) in [
        ("", 2),
        ("mode=advanced", 3),
        ("mode=catmouse", 2),
        ("mode=solitaire", 1),
    ] {
        let mut g = new_game(o, n);
        let mut rng = GameRng::seed_from_u64(3);
        for _ in 0..30 {
            let Some(p) = Game::prompt(&g) else { break };
            for lang in [Lang::En, Lang::Fr] {
                let s = p.text.render_with(lang, &ctx.names);
                assert!(!s.starts_with("vortex.") && !s.contains('{'), "prompt: {s}");
            }
            let pick = p.options[rng.gen_range(0..p.options.len())];
            let ev = g.apply(p.seat, &pick).unwrap().events;
            for e in ev {
                for lang in [Lang::En, Lang::Fr] {
                    let s = g.event_text(&e).render_with(lang, &ctx.names);
                    assert!(!s.contains("vortex."), "missing text: {s}");
                    assert!(!s.contains('{'), "unfilled: {s}");
                }
            }
        }
        let v = g.public_view();
        let sum = <Vortex as Present>::public_summary(&v, &ctx);
        assert!(!sum.contains("vortex."), "{sum}");
        let img = <Vortex as Present>::render_public(&v, &ctx);
        // 1000 px wide in the common frame, taller than wide: a phone's shape.
        assert_eq!(img.width(), 1000);
        assert!(
            (1000..1500).contains(&img.height()),
            "{o}: {} px high",
            img.height()
        );
    }
}

#[test]
fn every_rule_error_has_texts() {
    use RuleError::*;
    for e in [
        NoRouterAtTower,
        Outnumbered,
        TowerClaimed,
        MinorityOff,
        NoMinorityControllerLeft,
        MinorityNotNeeded,
        NoControllerThere,
        NoMajority,
        AlreadyYourTower,
        NotYourRouter,
        DestinationHasController,
        NotConnected,
        NotYourTower,
        RecallNeedsFullTurn,
        MustActFirst,
        NoActionsLeft,
        NotInThisMode,
        TooManyCats,
        MouseNotAtTower,
        RepeatedPosition,
        NoCatAtTower,
        UndoesMouseMove,
        NotAPlacementSpace,
        PlaceFirst,
        NothingToPlace,
        NotAtThatTower,
    ] {
        for lang in [Lang::En, Lang::Fr] {
            let s = e.text().render(lang);
            assert!(!s.starts_with("vortex."), "{e:?} {s}");
        }
    }
}

// ---------------------------------------------------------------- bot players (issue 9)

mod bot {
    use crate::engine::GameRng;

    use super::super::ai::distance;
    use super::{new_game, play, pos, seat_now};
    use crate::ai::{BotPlayer, Level, Method};
    use crate::engine::{rng_from_seed, AnyGame, BotHooks, Game, Present, Seat};

    use super::super::state::Vortex;

    /// One game per mode, with the settings people play most.
    fn games() -> Vec<Vortex> {
        vec![
            new_game("", 2),
            new_game("mode=advanced", 2),
            new_game("teams=on", 4),
            new_game("mode=catmouse", 2),
            new_game("mode=catmouse cats=5", 2),
            new_game("mode=solitaire", 1),
        ]
    }

    /// Walks a random game and calls `check` at every prompt.
    fn random_walk(mut g: Vortex, seed: u64, steps: usize, mut check: impl FnMut(&Vortex)) {
        let mut rng = GameRng::seed_from_u64(seed);
        for _ in 0..steps {
            let Some(p) = Game::prompt(&g) else {
                return;
            };
            check(&g);
            let a = p.options[rng.gen_range(0..p.options.len())];
            g.apply(p.seat, &a).unwrap();
        }
    }

    fn imagined(g: &Vortex, seed: u64) -> Vortex {
        let seat = seat_now(g);
        Vortex::imagine(&g.public_view(), None, seat, &mut rng_from_seed(seed))
            .expect("a running game can be rebuilt")
    }

    /// The rebuilt game shows the same public view, asks the same seat the same question
    /// with the same options, and nothing is private in Vortex.
    fn assert_rebuilt(g: &Vortex) {
        let i = imagined(g, 1);
        assert_eq!(i.public_view(), g.public_view());
        assert_eq!(Game::prompt(&i), Game::prompt(g));
        assert_eq!(i.private_view(seat_now(g)), g.private_view(seat_now(g)));
        if let (Some(a), Some(b)) = (&i.catmouse, &g.catmouse) {
            if b.mouse_to_move {
                assert_eq!(a.visited, b.visited);
            }
        }
    }

    #[test]
    fn distances_follow_the_board() {
        assert_eq!(distance(19, 19), 0);
        assert_eq!(distance(19, 25), 1);
        // Spec 4.5: 10 rotations from 53 to the nearest pantry space, 11 at most anywhere.
        assert_eq!((1..=7).map(|p| distance(53, p)).min(), Some(10));
        let far = (1..=54u8)
            .flat_map(|a| (1..=54u8).map(move |b| distance(a, b)))
            .max();
        assert_eq!(far, Some(11));
    }

    #[test]
    fn imagine_rebuilds_every_mode_from_the_public_view() {
        for (n, g) in games().into_iter().enumerate() {
            let mut checked = 0;
            random_walk(g, 40 + n as u64, 150, |g| {
                assert_rebuilt(g);
                checked += 1;
            });
            assert!(checked > 20);
        }
        // A captured controller waiting for its place (spec T9), both placement rules.
        for extra in ["", " capture_place=victim"] {
            let mut g = pos(
                &format!("mode=advanced{extra}"),
                2,
                "to=orange used=0 allowance=4 own=j:blue blue=19,1,2,3,4,8* orange=25*,31,36,51*,52,53",
            );
            play(&mut g, "claim j 25");
            assert_eq!(Game::prompt(&g).unwrap().kind, "place");
            assert_rebuilt(&g);
        }
        // The mouse in the middle of a free run (spec T13): it may not go back to 18.
        let mut g = pos("mode=catmouse", 2, "to=mouse mouse=18 cats=8,9,10,11");
        play(&mut g, "rot i cw");
        assert_rebuilt(&g);
        assert_eq!(imagined(&g, 3).catmouse.unwrap().visited, vec![18, 24]);
    }

    /// The bot's options are always listed ones, for the seat asked, over seeded games.
    #[test]
    fn the_bot_plays_legal_options_in_every_mode() {
        for (n, mut g) in games().into_iter().enumerate() {
            for k in 0..6u64 {
                let Some(p) = AnyGame::prompt(&g) else {
                    break;
                };
                let m = g.bot_option(Level::Easy, 100 * n as u64 + k).unwrap();
                assert!(p.options.contains(&m.notation), "{} not listed", m.notation);
                assert_eq!(m.seat, p.seat);
                g.apply_notation(m.seat, &m.notation).unwrap();
            }
        }
    }

    /// Honesty: nothing is hidden in Vortex but the RNG and bookkeeping the views do not show;
    /// changing them changes nothing the bot chooses.
    #[test]
    fn the_bot_ignores_what_it_cannot_see() {
        for (n, g) in games().into_iter().enumerate() {
            let mut g = g;
            let mut rng = GameRng::seed_from_u64(n as u64);
            for _ in 0..7 {
                let p = Game::prompt(&g).unwrap();
                let a = p.options[rng.gen_range(0..p.options.len())];
                g.apply(p.seat, &a).unwrap();
            }
            let mut other = g.clone();
            other.rng = rng_from_seed(12_345);
            other.auto_ended = None;
            assert_eq!(other.public_view(), g.public_view());
            let a = g.bot_option(Level::Easy, 9);
            let b = other.bot_option(Level::Easy, 9);
            assert_eq!(a, b);
        }
    }

    fn bot_line(g: &Vortex) -> String {
        let m = g.bot_option(Level::Normal, 5).unwrap();
        assert_eq!(m.method, Method::Expert);
        m.notation
    }

    /// The bot takes a win it is offered, in every mode and role.
    #[test]
    fn the_bot_takes_an_immediate_win() {
        // Crossing, 2 players: blue finishes on the L ring with one turn of G (16 to 21, 21
        // to 26); the other direction and every other tower leave it short.
        let g = pos(
            "",
            2,
            "to=blue used=1 allowance=4 blue=16,21,27,32,33,38 orange=1,2,3,4,5,6",
        );
        assert_eq!(bot_line(&g), "rot g cw");
        // The mouse runs into the pantry; the cats close the trap (spec T14).
        let g = pos("mode=catmouse", 2, "to=mouse mouse=9 cats=13,15,20,30");
        assert_eq!(bot_line(&g), "rot a ccw");
        let g = pos(
            "mode=catmouse",
            2,
            "to=cats mouse=22 cats=17,35,52,54 last=h:cw",
        );
        // Both `rot m ccw` (35 to 29) and `rot i cw` (the same cat) put a second cat on H.
        let mut after = g.clone();
        play(&mut after, &bot_line(&g));
        assert_eq!(after.outcome.unwrap().winners, vec![Seat(1)]);
        // Solitaire one rotation from solved (spec T15).
        let g = pos(
            "mode=solitaire solo_colours=2 solo_targets=close",
            1,
            super::T15,
        );
        assert_eq!(bot_line(&g), "rot j ccw");
    }
}

/// Issue 25, item 4: setup starts the first turn (race modes, Cat & Mouse); its "turn
/// started" now reaches the first board's log (old: dropped). Solitaire has no turns. The
/// first option drops it from the state.
#[test]
fn issue25_setup_reports_the_first_turn_start() {
    let mut g = new_game("", 3);
    assert_eq!(
        Game::setup_events(&g),
        vec![Event::TurnStarted {
            seat: g.sides[0].seat,
            allowance: 1
        }]
    );
    let p = Game::prompt(&g).unwrap();
    g.apply(p.seat, &p.options[0]).unwrap();
    assert!(Game::setup_events(&g).is_empty());
    let g = new_game("mode=catmouse", 2);
    assert!(matches!(
        Game::setup_events(&g)[..],
        [Event::TurnStarted { allowance: 0, .. }]
    ));
    assert!(Game::setup_events(&new_game("mode=solitaire", 1)).is_empty());
}

#[test]
fn a_capture_with_one_space_left_is_placed_in_the_same_step() {
    // T9 with one free blue router: nobody is asked where the controller goes.
    let p = "to=orange used=0 allowance=4 own=j:blue blue=19,8* orange=25*,31,36,51*,52,53";
    for (rules, chooser) in [
        ("mode=advanced", Seat(1)),
        ("mode=advanced capture_place=victim", Seat(0)),
    ] {
        let mut g = pos(rules, 2, p);
        let (tower, from) = (t("j"), 25);
        let claim = g.apply(Seat(1), &Action::Claim { tower, from }).unwrap();
        assert_eq!(
            claim.events,
            vec![
                Event::Claimed {
                    seat: Seat(1),
                    tower,
                    from,
                    captured_from: Some(Seat(0))
                },
                Event::ControllerPlaced {
                    owner: Seat(0),
                    space: 19,
                    chosen_by: chooser
                },
            ]
        );
        // Nobody chose the place: no undo barrier, even where the victim places.
        assert!(!claim.barrier, "{rules}");
        assert_eq!((g.used, kind(&g), seat_now(&g)), (1, "action", Seat(1)));
    }
}
