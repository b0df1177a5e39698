//! Gates of Delirium tests: the scenarios S1..S15 of spec section 12, one test per rule of
//! section 7, data-file validation, seeded random playouts with the invariants, a leak test
//! and a parser property test.

use super::components::{self, CardId, Region, Scroll};
use super::moves::{Action, Desperate, Event, PointsReason, RankEntry, Source};
use super::rules::{self, rank_region, RuleError};
use super::state::{EndReason, Gate, GateState, Gates, Mode, Owner, ScrollSlot, TurnState};
use crate::engine::{AnyGame, BotHooks, Game, GameOptions, PlayError, Present, Seat};
use crate::i18n::Lang;

// ---------------------------------------------------------------- scenario builder

const RED: Seat = Seat(0);
const BLUE: Seat = Seat(1);
const GREEN: Seat = Seat(2);
const YELLOW: Seat = Seat(3);

/// The rules issue 25 made the defaults (the rulebook's): every artifact card filed, a
/// neutral converted with an empty supply removed.
const TODAY: [(&str, &str); 2] = [("filing", "always"), ("neutral_convert", "remove")];

/// Options for a scenario. The spec's scenarios S1-S15 and rules R1-R40 were written with the
/// spec's card halves, filing (Q2) and neutral swap (R14): they keep those rules unless
/// `pairs` says otherwise (`TODAY`); the issue-25 tests and most playouts use today's.
fn options(pairs: &[(&str, &str)]) -> GameOptions {
    let mut o = GameOptions::new();
    o.insert("first_player".into(), "1".into());
    o.insert("filing".into(), "played_half".into());
    o.insert("neutral_convert".into(), "swap".into());
    for (k, v) in pairs {
        o.insert((*k).into(), (*v).into());
    }
    o
}

fn new(seats: usize, pairs: &[(&str, &str)]) -> Gates {
    Gates::setup(&options(pairs), seats, 42).unwrap()
}

fn c(id: &str) -> CardId {
    components::data().unwrap().card_by_name(id).unwrap()
}

fn r(code: &str) -> Region {
    Region::parse(code).unwrap()
}

fn regions(codes: &[&str]) -> Vec<Region> {
    codes.iter().map(|s| r(s)).collect()
}

/// `seat` starts a turn in `mode` with nothing played.
fn at_turn(g: &mut Gates, seat: Seat, mode: Mode) {
    g.first = seat;
    g.active = seat;
    g.mode = Some(mode);
    g.turn = TurnState::new();
}

fn remove_everywhere(g: &mut Gates, card: CardId) {
    g.deck.retain(|&x| x != card);
    g.discard.retain(|&x| x != card);
    for p in &mut g.players {
        p.hand.retain(|&x| x != card);
        p.filed.retain(|&x| x != card);
    }
}

/// Gives `seat` exactly these cards; its old hand goes to the bottom of the deck.
fn give(g: &mut Gates, seat: Seat, ids: &[&str]) {
    let want: Vec<CardId> = ids.iter().map(|s| c(s)).collect();
    for &w in &want {
        remove_everywhere(g, w);
    }
    let old = std::mem::replace(&mut g.player_mut(seat).hand, want);
    g.deck.extend(old);
}

/// Puts these cards on top of the action deck, in order.
fn deck_top(g: &mut Gates, ids: &[&str]) {
    let want: Vec<CardId> = ids.iter().map(|s| c(s)).collect();
    for &w in &want {
        remove_everywhere(g, w);
    }
    let rest = std::mem::take(&mut g.deck);
    g.deck = want;
    g.deck.extend(rest);
}

/// Pool and gate-deck top; the rest of the 90 cards (minus those in gates) follow in order.
fn gates_setup(g: &mut Gates, pool: [&str; 4], top: &[&str]) {
    let mut left: Vec<i32> = components::data()
        .unwrap()
        .regions
        .iter()
        .map(|x| i32::from(x.deck_count))
        .collect();
    for p in &g.players {
        for gate in &p.gates {
            left[gate.region.index()] -= i32::from(gate.cards);
        }
    }
    for (i, s) in pool.iter().enumerate() {
        g.pool[i] = Region::parse(s);
        if let Some(x) = g.pool[i] {
            left[x.index()] -= 1;
        }
    }
    g.gate_deck = regions(top);
    for x in &g.gate_deck {
        left[x.index()] -= 1;
    }
    for reg in Region::ALL {
        for _ in 0..left[reg.index()].max(0) {
            g.gate_deck.push(reg);
        }
    }
}

/// Exactly this gate deck (nothing else).
fn gate_deck_exact(g: &mut Gates, pool: [&str; 4], deck: &[&str]) {
    for (i, s) in pool.iter().enumerate() {
        g.pool[i] = Region::parse(s);
    }
    g.gate_deck = regions(deck);
}

fn building(g: &mut Gates, seat: Seat, region: &str, cards: u8) {
    g.player_mut(seat).gates.push(Gate {
        region: r(region),
        cards,
        state: GateState::Building,
    });
}

/// Sets investigators and recomputes every seat's supply (10 minus those on the board).
fn put(g: &mut Gates, region: &str, owner: Owner, n: u8) {
    g.board[r(region).index()][owner.index()] = n;
    fix_supplies(g);
}

fn fix_supplies(g: &mut Gates) {
    for s in g.seat_ids() {
        let on = g.on_board(s);
        g.player_mut(s).supply = 10 - on;
    }
}

fn set_despair(g: &mut Gates, seat: Seat, n: u8) {
    g.player_mut(seat).despair = n;
    let held: u8 = g.players.iter().map(|p| p.despair).sum();
    g.despair_supply = 24 - held;
}

fn scrolls(g: &mut Gates, slots: &[(Scroll, bool)]) {
    g.scrolls = slots
        .iter()
        .map(|&(scroll, revealed)| ScrollSlot { scroll, revealed })
        .collect();
    g.out_scrolls = Scroll::ALL
        .into_iter()
        .filter(|s| !slots.iter().any(|(x, _)| x == s))
        .collect();
}

fn parse1(g: &Gates, seg: &str) -> Action {
    let v = Game::parse(g, g.active, seg).unwrap_or_else(|e| panic!("`{seg}`: {e:?}"));
    assert_eq!(v.len(), 1);
    v[0]
}

/// Plays a `;` line for the active seat; returns every event.
fn run(g: &mut Gates, line: &str) -> Vec<Event> {
    let mut all = Vec::new();
    for seg in line.split(';').map(str::trim).filter(|s| !s.is_empty()) {
        let a = parse1(g, seg);
        let seat = g.active;
        let applied = Game::apply(g, seat, &a).unwrap_or_else(|e| panic!("`{seg}` refused: {e:?}"));
        all.extend(applied.events);
    }
    all
}

/// `seg` is refused with `err` and nothing changes.
fn refuse(g: &mut Gates, seat: Seat, seg: &str, err: RuleError) {
    let a = parse1(g, seg);
    let before = AnyGame::to_json(g);
    assert_eq!(Game::apply(g, seat, &a).unwrap_err(), err, "`{seg}`");
    assert_eq!(AnyGame::to_json(g), before, "`{seg}` changed the state");
}

fn opts(g: &Gates) -> Vec<String> {
    AnyGame::prompt(g).map(|p| p.options).unwrap_or_default()
}

fn kind(g: &Gates) -> &'static str {
    AnyGame::prompt(g).map_or("none", |p| p.kind)
}

fn strs(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| (*s).to_string()).collect()
}

fn sorted(mut v: Vec<String>) -> Vec<String> {
    v.sort();
    v
}

fn count(g: &Gates, region: &str, o: Owner) -> u8 {
    g.count(r(region), o)
}

fn has(ev: &[Event], want: &Event) -> bool {
    ev.contains(want)
}

// ---------------------------------------------------------------- invariants

/// The conservation laws and shape rules of the issue, checked after every step.
fn invariants(g: &Gates) {
    // 80 action cards, each exactly once.
    let mut seen = [0u8; 80];
    let mut mark = |c: CardId| seen[usize::from(c.0)] += 1;
    g.deck.iter().copied().for_each(&mut mark);
    g.discard.iter().copied().for_each(&mut mark);
    for p in &g.players {
        p.hand.iter().copied().for_each(&mut mark);
        p.filed.iter().copied().for_each(&mut mark);
    }
    // An artifact is filed as soon as it is played; it is in play too until its bonus ends.
    if let Some((x, _)) = g.turn.in_play {
        if !g.players.iter().any(|p| p.filed.contains(&x)) {
            mark(x);
        }
    }
    assert!(seen.iter().all(|&n| n == 1), "action cards: {seen:?}");
    // 90 gate cards.
    let in_gates: usize = g
        .players
        .iter()
        .flat_map(|p| p.gates.iter())
        .map(|x| usize::from(x.cards))
        .sum();
    let pool = g.pool.iter().flatten().count();
    assert_eq!(in_gates + pool + g.gate_deck.len(), 90, "gate cards");
    // 24 despair tokens.
    let held: u32 = g.players.iter().map(|p| u32::from(p.despair)).sum();
    assert_eq!(held + u32::from(g.despair_supply), 24, "despair");
    // 10 investigators per seat; at most 9 neutrals, only in 2p.
    for s in g.seat_ids() {
        assert_eq!(
            u32::from(g.player(s).supply) + u32::from(g.on_board(s)),
            10,
            "investigators of {s}"
        );
    }
    let neutrals: u32 = g.board.iter().map(|x| u32::from(x[4])).sum();
    assert!(neutrals <= if g.duel { 9 } else { 0 });
    for o in usize::from(g.seats)..4 {
        assert!(g.board.iter().all(|x| x[o] == 0), "ghost colour {o}");
    }
    // One building gate per region per seat; sizes respected.
    for p in &g.players {
        for reg in Region::ALL {
            let n = p
                .gates
                .iter()
                .filter(|x| x.region == reg && x.state == GateState::Building)
                .count();
            assert!(n <= 1, "two {reg:?} gates under construction");
        }
        for x in &p.gates {
            let size = components::data().unwrap().region(x.region).gate_size;
            assert!(x.cards >= 1 && x.cards <= size);
            assert_eq!(x.state == GateState::Building, x.cards < size);
        }
    }
    assert_eq!(g.discs.len() + opened(g), if g.duel { 4 } else { 6 });
}

fn opened(g: &Gates) -> usize {
    g.players
        .iter()
        .flat_map(|p| p.gates.iter())
        .filter(|x| matches!(x.state, GateState::Opened { .. }))
        .count()
}

/// Final totals computed without the engine's scoring code.
fn independent_totals(g: &Gates) -> Vec<i64> {
    let data = components::data().unwrap();
    let n = g.players.len();
    let mine = |i: usize| -> i64 { g.board.iter().map(|x| i64::from(x[i])).sum() };
    let lead = |counts: Vec<i64>, s: Scroll| -> Vec<i64> {
        if !g.scrolls.iter().any(|x| x.revealed && x.scroll == s) {
            return vec![0; n];
        }
        let best = *counts.iter().max().unwrap();
        let ties = counts.iter().filter(|&&x| x == best).count();
        counts
            .iter()
            .map(|&x| {
                if best > 0 && x == best && (ties == 1 || g.opts.scroll_ties_all) {
                    5
                } else {
                    0
                }
            })
            .collect()
    };
    let pages = |i: usize| -> Vec<u8> {
        g.players[i]
            .filed
            .iter()
            .filter_map(|&x| match data.card(x).sane {
                components::Effect::Page { page } => Some(page),
                _ => None,
            })
            .collect()
    };
    let art = lead(
        g.players
            .iter()
            .map(|p| {
                p.gates
                    .iter()
                    .filter(|x| !matches!(x.state, GateState::Opened { .. }))
                    .count() as i64
            })
            .collect(),
        Scroll::Artisan,
    );
    let rec = lead((0..n).map(mine).collect(), Scroll::Recruiter);
    let kee = lead(
        (0..n).map(|i| pages(i).len() as i64).collect(),
        Scroll::Keeper,
    );
    (0..n)
        .map(|i| {
            let p = &g.players[i];
            let runes = p
                .filed
                .iter()
                .filter(|&&x| data.card(x).insane == components::Effect::Rune)
                .count();
            let rune_pts = [0, 1, 2, 4, 8][runes % 5] + 16 * (runes / 5) as i64;
            let pg = pages(i);
            let page_pts: i64 = pg
                .iter()
                .map(|&x| {
                    if pg.contains(&(x + 1)) || (x > 1 && pg.contains(&(x - 1))) {
                        4
                    } else {
                        2
                    }
                })
                .sum();
            let mut q = [0i64; 4];
            for &x in &p.filed {
                if let components::Effect::Blueprint { quadrant } = data.card(x).sane {
                    q[quadrant.index()] += 1;
                }
            }
            let sets = *q.iter().min().unwrap();
            let bp = 12 * sets + 2 * (q.iter().sum::<i64>() - 4 * sets);
            p.score + mine(i) + art[i] + rec[i] + kee[i] + rune_pts + page_pts + bp
        })
        .collect()
}

// ---------------------------------------------------------------- data

#[test]
fn data_files_match_the_spec_totals() {
    let d = components::data().unwrap();
    assert_eq!(d.cards.len(), 80);
    let count = |f: &dyn Fn(&components::CardDef) -> bool| d.cards.iter().filter(|x| f(x)).count();
    use components::Effect as E;
    assert_eq!(count(&|x| matches!(x.sane, E::Page { .. })), 20);
    assert_eq!(count(&|x| matches!(x.sane, E::Blueprint { .. })), 20);
    let send = |i: u8, de: u8| {
        count(&|x| {
            x.sane
                == E::Send {
                    investigators: i,
                    despair: de,
                }
        })
    };
    assert_eq!((send(1, 1), send(2, 1), send(1, 2)), (16, 12, 12));
    let build = |s: u8, de: u8| {
        count(&|x| {
            x.insane
                == E::Build {
                    sections: s,
                    despair: de,
                }
        })
    };
    assert_eq!(count(&|x| x.insane == E::Rune), 20);
    assert_eq!(count(&|x| x.insane == E::Convert), 16);
    assert_eq!((build(1, 1), build(2, 1), build(1, 2)), (18, 14, 12));
    // Derived figures of spec 3.2.
    let inv: u32 = d
        .cards
        .iter()
        .filter_map(|x| match x.sane {
            E::Send { investigators, .. } => Some(u32::from(investigators)),
            _ => None,
        })
        .sum();
    let sections: u32 = d
        .cards
        .iter()
        .filter_map(|x| match x.insane {
            E::Build { sections, .. } => Some(u32::from(sections)),
            _ => None,
        })
        .sum();
    assert_eq!((inv, sections), (52, 58));
    let gate_total: u32 = d.regions.iter().map(|x| u32::from(x.deck_count)).sum();
    assert_eq!(gate_total, 90);
    assert_eq!(
        d.regions.iter().map(|x| x.gate_size).collect::<Vec<_>>(),
        vec![7, 6, 6, 5, 5]
    );
    assert_eq!(
        d.discs.iter().map(|x| x.value).collect::<Vec<_>>(),
        vec![10, 11, 12, 13, 14, 15]
    );
    for src in components::SOURCES {
        assert!(src.contains("official = false"));
    }
}

fn broken(i: usize, from: &str, to: &str) -> components::DataError {
    let mut src = components::SOURCES;
    let changed = src[i].replacen(from, to, 1);
    assert_ne!(changed, src[i], "`{from}` not found");
    src[i] = &changed;
    components::load_from(src).unwrap_err()
}

#[test]
fn broken_data_files_are_refused_clearly() {
    let e = broken(0, "id = \"p02\"", "id = \"p99\"");
    assert!(e.to_string().contains("expected `p02`"), "{e}");
    let e = broken(
        0,
        "insane = { kind = \"rune\" }",
        "insane = { kind = \"convert\" }",
    );
    assert!(e.to_string().contains("rune"), "{e}");
    let e = broken(
        0,
        "sane = { kind = \"page\", page = 1 }",
        "sane = { kind = \"rune\" }",
    );
    assert!(e.to_string().contains("p01"), "{e}");
    let e = broken(1, "deck_count = 22", "deck_count = 21");
    assert!(e.to_string().contains("90 gate cards"), "{e}");
    let e = broken(1, "tint = \"#5f8f5f\"", "tint = \"green\"");
    assert!(e.to_string().contains("tint"), "{e}");
    let e = broken(2, "value = 11", "value = 9");
    assert!(e.to_string().contains("increasing"), "{e}");
    let e = broken(3, "id = \"relic\"", "id = \"relics\"");
    assert!(e.to_string().contains("relics"), "{e}");
    let e = broken(4, "swap = 2", "swap = 1");
    assert!(e.to_string().contains("at least 2"), "{e}");
    let e = broken(4, "hand_size = 5", "hand_size = x");
    assert!(e.to_string().contains("rules.toml"), "{e}");
}

// ---------------------------------------------------------------- setup

#[test]
fn setup_follows_section_5() {
    for seats in 2..=4 {
        let g = new(seats, &[]);
        assert_eq!(g.duel, seats == 2);
        assert_eq!(g.first, RED);
        assert_eq!(g.discs.len(), if seats == 2 { 4 } else { 6 });
        assert_eq!(g.scrolls.len(), if seats == 2 { 2 } else { 3 });
        assert!(g.scrolls.iter().all(|s| !s.revealed));
        assert_eq!(g.deck.len(), 80 - 5 * seats);
        assert!(g.pool.iter().all(Option::is_some));
        assert_eq!(g.gate_deck.len(), 86);
        assert_eq!(kind(&g), "choose_mode");
        assert_eq!(opts(&g), strs(&["mode sane", "mode insane"]));
        let neutrals: Vec<u8> = g.board.iter().map(|x| x[4]).collect();
        if seats == 2 {
            assert_eq!(neutrals, vec![3, 2, 2, 1, 1]);
        } else {
            assert_eq!(neutrals, vec![0; 5]);
        }
        invariants(&g);
    }
    // The same seed gives the same game; `random` draws a seat.
    let a = Gates::setup(&GameOptions::new(), 4, 9).unwrap();
    let b = Gates::setup(&GameOptions::new(), 4, 9).unwrap();
    assert_eq!(AnyGame::to_json(&a), AnyGame::to_json(&b));
    let firsts: std::collections::BTreeSet<u8> = (0..40)
        .map(|s| Gates::setup(&GameOptions::new(), 4, s).unwrap().first.0)
        .collect();
    assert_eq!(firsts.len(), 4);
}

#[test]
fn options_are_validated() {
    let bad = |k: &str, v: &str, seats: usize| {
        let mut o = GameOptions::new();
        o.insert(k.into(), v.into());
        Gates::setup(&o, seats, 1).unwrap_err()
    };
    assert!(bad("first_player", "3", 2)
        .to_string()
        .contains("first_player"));
    assert!(bad("round_limit", "0", 3).to_string().contains("1-200"));
    assert!(bad("round_limit", "201", 3).to_string().contains("1-200"));
    assert!(bad("score3_cost", "7", 3)
        .to_string()
        .contains("score3_cost"));
    assert!(bad("colour", "red", 3).to_string().contains("colour"));
    let g = new(3, &[("round_limit", "7"), ("score3_cost", "4")]);
    assert_eq!((g.opts.round_limit, g.cost(Desperate::Score)), (7, 4));
    assert!(Gates::setup(&GameOptions::new(), 5, 1).is_err());
}

// ---------------------------------------------------------------- scenarios (spec 12)

fn s1() -> Gates {
    let mut g = new(4, &[]);
    g.round = 5;
    at_turn(&mut g, RED, Mode::Sane);
    give(&mut g, RED, &["r01", "p01", "b07", "x05", "r04"]);
    set_despair(&mut g, RED, 4);
    g.players[0].score = 12;
    put(&mut g, "inn", Owner::Red, 2);
    put(&mut g, "ark", Owner::Red, 1);
    put(&mut g, "kin", Owner::Red, 1);
    put(&mut g, "kin", Owner::Blue, 2);
    put(&mut g, "kin", Owner::Green, 1);
    building(&mut g, RED, "kin", 4);
    gates_setup(&mut g, ["sal", "kin", "inn", "ark"], &["roc", "sal", "inn"]);
    scrolls(
        &mut g,
        &[
            (Scroll::Keeper, false),
            (Scroll::DarkHours, false),
            (Scroll::Relic, false),
        ],
    );
    invariants(&g);
    g
}

#[test]
fn s1_rulebook_sane_turn() {
    let mut g = s1();
    assert_eq!(g.player(RED).supply, 6);
    let ev = run(&mut g, "play r01");
    assert!(has(
        &ev,
        &Event::DespairGained {
            seat: RED,
            wanted: 1,
            got: 1
        }
    ));
    assert_eq!((g.player(RED).despair, g.despair_supply), (5, 19));
    run(&mut g, "send kin");
    assert_eq!(
        [Owner::Red, Owner::Blue, Owner::Green].map(|o| count(&g, "kin", o)),
        [2, 2, 1]
    );
    run(&mut g, "despair flip");
    assert_eq!((g.player(RED).despair, g.mode), (1, Some(Mode::Insane)));
    let ev = run(&mut g, "play p01");
    assert!(matches!(
        ev[0],
        Event::CardPlayed {
            half: Mode::Insane,
            ..
        }
    ));
    assert_eq!(g.player(RED).despair, 2);
    let ev = run(&mut g, "take 2");
    let expected_tail = [
        Event::GateOpened {
            seat: RED,
            region: Region::Kin,
            disc: 10,
        },
        Event::PointsScored {
            seat: RED,
            points: 10,
            reason: PointsReason::Disc,
        },
        Event::ScrollRevealed {
            slot: 1,
            scroll: Scroll::Keeper,
        },
        Event::RegionScored {
            region: Region::Kin,
            entries: vec![
                RankEntry {
                    owner: Owner::Red,
                    count: 2,
                    rank: 1,
                    points: 8,
                },
                RankEntry {
                    owner: Owner::Blue,
                    count: 2,
                    rank: 1,
                    points: 8,
                },
                RankEntry {
                    owner: Owner::Green,
                    count: 1,
                    rank: 2,
                    points: 5,
                },
            ],
        },
    ];
    for e in &expected_tail {
        assert!(has(&ev, e), "missing {e:?} in {ev:?}");
    }
    assert!(has(
        &ev,
        &Event::PoolRefilled {
            slot: 2,
            region: Region::Roc
        }
    ));
    assert_eq!(g.player(RED).score, 30);
    assert_eq!(g.player(BLUE).score, 8);
    assert_eq!(g.player(GREEN).score, 5);
    assert_eq!(g.player(RED).supply, 7);
    assert_eq!((g.player(BLUE).supply, g.player(GREEN).supply), (10, 10));
    assert_eq!(g.board[Region::Kin.index()], [0; 5]);
    // p01 and r01 in the discard pile; page 1 not collected.
    assert_eq!(g.discard, vec![c("r01"), c("p01")]);
    assert!(g.player(RED).pages().is_empty());
    assert_eq!(kind(&g), "end_turn");
    assert_eq!(opts(&g), strs(&["end", "despair swap"]));
    run(&mut g, "end");
    assert_eq!(g.player(RED).hand.len(), 5);
    assert_eq!(
        g.pool,
        [
            Some(r("sal")),
            Some(r("roc")),
            Some(r("inn")),
            Some(r("ark"))
        ]
    );
    assert_eq!(g.discs, vec![11, 12, 13, 14, 15]);
    assert_eq!(g.player(RED).gates[0].state, GateState::Opened { disc: 10 });
    assert_eq!(
        (count(&g, "inn", Owner::Red), count(&g, "ark", Owner::Red)),
        (2, 1)
    );
    assert_eq!((g.active, g.mode), (BLUE, Some(Mode::Insane)));
    invariants(&g);
}

#[test]
fn s2_rulebook_insane_turn() {
    let mut g = new(4, &[]);
    at_turn(&mut g, RED, Mode::Insane);
    give(&mut g, RED, &["p01", "p02", "r05", "x03", "b16"]);
    set_despair(&mut g, RED, 4);
    building(&mut g, RED, "sal", 2);
    deck_top(&mut g, &["x09", "b10", "x11", "r12"]);
    gate_deck_exact(
        &mut g,
        ["sal", "inn", "ark", "roc"],
        &[
            "kin", "sal", "inn", "sal", "kin", "roc", "ark", "inn", "inn",
        ],
    );
    let ev = run(&mut g, "despair swap");
    assert!(has(
        &ev,
        &Event::DespairSpent {
            seat: RED,
            action: Desperate::Swap,
            cost: 2
        }
    ));
    assert!(has(
        &ev,
        &Event::CardsDrawn {
            seat: RED,
            count: 2
        }
    ));
    assert_eq!(g.player(RED).last_drawn, vec![c("x09"), c("b10")]);
    assert_eq!(kind(&g), "swap_discard");
    run(&mut g, "discard r05");
    assert_eq!(kind(&g), "swap_discard");
    run(&mut g, "discard b10");
    assert_eq!(
        g.player(RED).hand,
        ["p01", "p02", "x03", "b16", "x09"].map(c).to_vec()
    );
    assert_eq!(g.discard, vec![c("r05"), c("b10")]);
    run(&mut g, "play p01");
    assert_eq!(g.player(RED).despair, 3);
    run(&mut g, "take 1");
    assert_eq!(g.player(RED).gates[0].cards, 3);
    assert_eq!(g.pool[0], Some(Region::Kin));
    assert_eq!(
        g.gate_deck,
        regions(&["sal", "inn", "sal", "kin", "roc", "ark", "inn", "inn"])
    );
    run(&mut g, "despair refresh");
    assert_eq!(g.player(RED).despair, 0);
    assert_eq!(
        g.pool,
        [
            Some(r("sal")),
            Some(r("inn")),
            Some(r("sal")),
            Some(r("kin"))
        ]
    );
    assert_eq!(
        g.gate_deck,
        regions(&["roc", "ark", "inn", "inn", "kin", "inn", "ark", "roc"])
    );
    run(&mut g, "play p02");
    assert_eq!(g.player(RED).despair, 1);
    run(&mut g, "take 1");
    assert_eq!(g.pool[0], Some(Region::Roc));
    let ev = run(&mut g, "take 3");
    assert_eq!(g.player(RED).gates[0].cards, 5);
    // EndTurn applied automatically: 1 despair buys nothing.
    assert!(has(
        &ev,
        &Event::Auto {
            seat: RED,
            notation: "end".into()
        }
    ));
    assert_eq!(
        g.player(RED).hand,
        ["x03", "b16", "x09", "x11", "r12"].map(c).to_vec()
    );
    assert_eq!(
        g.pool,
        [
            Some(r("roc")),
            Some(r("inn")),
            Some(r("ark")),
            Some(r("kin"))
        ]
    );
    assert_eq!(
        g.gate_deck,
        regions(&["inn", "inn", "kin", "inn", "ark", "roc"])
    );
    assert_eq!(g.discard, ["r05", "b10", "p01", "p02"].map(c).to_vec());
    assert_eq!(g.active, BLUE);
}

#[test]
fn s3_rulebook_final_scoring_example() {
    let mut g = new(3, &[]);
    let filed = [
        "r01", "r02", "r03", "r04", "r05", "r06", "p04", "p05", "p11", "p17", "b01", "b02", "b06",
        "b11", "b16",
    ];
    for f in filed {
        remove_everywhere(&mut g, c(f));
        g.players[0].filed.push(c(f));
    }
    g.players[0].score = 41;
    put(&mut g, "inn", Owner::Red, 3);
    scrolls(
        &mut g,
        &[
            (Scroll::Mandate, true),
            (Scroll::Cartographer, true),
            (Scroll::Relic, true),
        ],
    );
    let f = &rules::final_scores(&g)[0];
    assert_eq!(
        (f.runes, f.pages, f.blueprints, f.investigators, f.total),
        (17, 12, 14, 3, 87)
    );
    assert_eq!(independent_totals(&g)[0], 87);
}

#[test]
fn s4_region_scoring_dense_ranks() {
    let mut g = new(4, &[]);
    g.discs = vec![11, 12, 13, 14, 15];
    g.players[0].gates.push(Gate {
        region: Region::Kin,
        cards: 5,
        state: GateState::Opened { disc: 10 },
    });
    scrolls(
        &mut g,
        &[
            (Scroll::Keeper, true),
            (Scroll::Mandate, false),
            (Scroll::Relic, false),
        ],
    );
    at_turn(&mut g, YELLOW, Mode::Insane);
    give(&mut g, YELLOW, &["p01", "x01", "x02", "x03", "x04"]);
    building(&mut g, YELLOW, "inn", 6);
    put(&mut g, "inn", Owner::Red, 3);
    put(&mut g, "inn", Owner::Blue, 3);
    put(&mut g, "inn", Owner::Green, 2);
    put(&mut g, "inn", Owner::Yellow, 1);
    gates_setup(&mut g, ["inn", "sal", "sal", "ark"], &[]);
    invariants(&g);
    let supplies: Vec<u8> = g.players.iter().map(|p| p.supply).collect();
    let ev = run(&mut g, "play p01; take 1");
    assert!(has(
        &ev,
        &Event::GateOpened {
            seat: YELLOW,
            region: Region::Inn,
            disc: 11
        }
    ));
    assert!(!ev.iter().any(|e| matches!(e, Event::ScrollRevealed { .. })));
    let scores: Vec<i64> = g.players.iter().map(|p| p.score).collect();
    assert_eq!(scores, vec![10, 10, 7, 16]);
    let gained: Vec<u8> = g
        .players
        .iter()
        .zip(&supplies)
        .map(|(p, s)| p.supply - s)
        .collect();
    assert_eq!(gained, vec![3, 3, 2, 1]);
    assert_eq!(g.board[0], [0; 5]);
    invariants(&g);
    // Pure checks.
    let pts = |counts: [u8; 5], v: [i64; 3]| -> Vec<i64> {
        let e = rank_region(&counts, v);
        (0..4)
            .map(|i| {
                e.iter()
                    .find(|x| x.owner.index() == i)
                    .map_or(0, |x| x.points)
            })
            .collect()
    };
    assert_eq!(pts([2, 1, 1, 0, 0], [9, 6, 4]), vec![9, 6, 6, 0]);
    assert_eq!(pts([4, 3, 2, 1, 0], [8, 5, 3]), vec![8, 5, 3, 0]);
}

#[test]
fn s5_two_player_neutrals() {
    let mut g = new(2, &[]);
    assert_eq!(g.discs, vec![12, 13, 14, 15]);
    scrolls(
        &mut g,
        &[(Scroll::Artisan, false), (Scroll::Mandate, false)],
    );
    at_turn(&mut g, BLUE, Mode::Insane);
    give(&mut g, BLUE, &["p01", "x01", "x02", "x03", "x04"]);
    building(&mut g, BLUE, "inn", 6);
    put(&mut g, "inn", Owner::Red, 3);
    put(&mut g, "inn", Owner::Blue, 1);
    gates_setup(&mut g, ["inn", "sal", "sal", "ark"], &[]);
    let supplies = (g.player(RED).supply, g.player(BLUE).supply);
    let ev = run(&mut g, "play p01; take 1");
    assert!(has(
        &ev,
        &Event::GateOpened {
            seat: BLUE,
            region: Region::Inn,
            disc: 12
        }
    ));
    assert!(has(
        &ev,
        &Event::ScrollRevealed {
            slot: 1,
            scroll: Scroll::Artisan
        }
    ));
    assert!(has(
        &ev,
        &Event::RegionScored {
            region: Region::Inn,
            entries: vec![
                RankEntry {
                    owner: Owner::Red,
                    count: 3,
                    rank: 1,
                    points: 10
                },
                RankEntry {
                    owner: Owner::Blue,
                    count: 1,
                    rank: 2,
                    points: 7
                },
                RankEntry {
                    owner: Owner::Neutral,
                    count: 3,
                    rank: 1,
                    points: 0
                },
            ],
        }
    ));
    assert!(has(
        &ev,
        &Event::NeutralsRemoved {
            region: Region::Inn,
            count: 3
        }
    ));
    assert_eq!((g.player(RED).score, g.player(BLUE).score), (10, 19));
    assert_eq!(
        (g.player(RED).supply, g.player(BLUE).supply),
        (supplies.0 + 3, supplies.1 + 1)
    );
    let e = rank_region(&[1, 0, 0, 0, 2], [9, 6, 4]);
    assert_eq!(
        e[0],
        RankEntry {
            owner: Owner::Red,
            count: 1,
            rank: 2,
            points: 6
        }
    );
    invariants(&g);
}

fn s6() -> Gates {
    let mut g = new(3, &[]);
    g.discs = vec![15];
    // Five gates were opened by others.
    for (seat, region, disc) in [
        (1, "kin", 10),
        (1, "roc", 11),
        (2, "kin", 12),
        (2, "roc", 13),
        (1, "sal", 14),
    ] {
        let size = components::data().unwrap().region(r(region)).gate_size;
        g.players[seat].gates.push(Gate {
            region: r(region),
            cards: size,
            state: GateState::Opened { disc },
        });
    }
    scrolls(
        &mut g,
        &[
            (Scroll::Mandate, true),
            (Scroll::Cartographer, true),
            (Scroll::Relic, true),
        ],
    );
    at_turn(&mut g, RED, Mode::Insane);
    give(&mut g, RED, &["p07", "x01", "x02", "x03", "x04"]);
    building(&mut g, RED, "kin", 4);
    building(&mut g, RED, "roc", 4);
    gates_setup(&mut g, ["kin", "roc", "sal", "ark"], &["inn", "inn"]);
    invariants(&g);
    g
}

#[test]
fn s6_two_gates_one_monstrosity_ends_mid_turn() {
    let mut g = s6();
    run(&mut g, "play p07");
    assert_eq!(g.player(RED).despair, 1);
    run(&mut g, "take 1");
    assert_eq!(g.pool[0], Some(Region::Inn));
    run(&mut g, "take 2");
    assert_eq!(g.pool[1], Some(Region::Inn));
    assert_eq!(kind(&g), "choose_open");
    assert_eq!(opts(&g), strs(&["open kin", "open roc"]));
    refuse(&mut g, RED, "despair flip", RuleError::DespairNotNow);
    refuse(&mut g, RED, "open inn", RuleError::NotPending);
    let ev = run(&mut g, "open roc");
    assert!(has(
        &ev,
        &Event::GateOpened {
            seat: RED,
            region: Region::Roc,
            disc: 15
        }
    ));
    assert!(has(
        &ev,
        &Event::GateLeftUnopened {
            seat: RED,
            region: Region::Kin
        }
    ));
    assert!(has(
        &ev,
        &Event::GameEnded {
            reason: EndReason::LastMonstrosity
        }
    ));
    assert!(matches!(ev.last(), Some(Event::FinalScores { .. })));
    assert_eq!(g.player(RED).gates[0].state, GateState::Unopened);
    assert_eq!(g.player(RED).incomplete_gates(), 1);
    assert!(AnyGame::prompt(&g).is_none());
    assert_eq!(g.player(RED).hand.len(), 4);
    refuse(&mut g, RED, "end", RuleError::GameOver);
    invariants(&g);
}

#[test]
fn s7_spend_despair_gained_by_the_same_action() {
    let mut g = new(4, &[]);
    at_turn(&mut g, RED, Mode::Insane);
    give(&mut g, RED, &["p04", "x01", "x02", "x03", "x04"]);
    set_despair(&mut g, RED, 1);
    gate_deck_exact(
        &mut g,
        ["inn", "sal", "ark", "roc"],
        &["kin", "kin", "inn", "sal", "roc"],
    );
    run(&mut g, "play p04");
    assert_eq!(g.player(RED).despair, 3);
    assert_eq!(
        opts(&g),
        strs(&[
            "take 1",
            "take 2",
            "take 3",
            "take 4",
            "take deck",
            "despair swap",
            "despair refresh"
        ])
    );
    run(&mut g, "despair refresh");
    assert_eq!(g.player(RED).despair, 0);
    assert_eq!(
        g.pool,
        [
            Some(r("kin")),
            Some(r("kin")),
            Some(r("inn")),
            Some(r("sal"))
        ]
    );
    assert_eq!(g.gate_deck, regions(&["roc", "inn", "sal", "ark", "roc"]));
    let ev = run(&mut g, "take 1");
    assert!(has(
        &ev,
        &Event::SectionPlaced {
            seat: RED,
            region: Region::Kin,
            cards: 1,
            size: 5,
            new_gate: true
        }
    ));
    assert_eq!(
        g.pool,
        [
            Some(r("roc")),
            Some(r("kin")),
            Some(r("inn")),
            Some(r("sal"))
        ]
    );
    assert_eq!(kind(&g), "play_card");
    assert!(!opts(&g).iter().any(|o| o.starts_with("despair")));
}

fn s8_board(supply_two: bool) -> Gates {
    let mut g = new(3, &[]);
    at_turn(&mut g, RED, Mode::Insane);
    give(&mut g, RED, &["p05", "x01", "x02", "x03", "x04"]);
    put(&mut g, "inn", Owner::Red, if supply_two { 2 } else { 4 });
    put(&mut g, "sal", Owner::Red, 3);
    put(&mut g, "ark", Owner::Red, 3);
    put(&mut g, "kin", Owner::Blue, 2);
    put(&mut g, "sal", Owner::Blue, 1);
    put(&mut g, "ark", Owner::Green, 2);
    g
}

#[test]
fn s8_convert() {
    // (a) empty supply: a swap.
    let mut g = s8_board(false);
    run(&mut g, "play p05");
    assert_eq!(kind(&g), "convert_target");
    assert_eq!(
        sorted(opts(&g)),
        sorted(strs(&[
            "convert kin blue",
            "convert sal blue",
            "convert ark green"
        ]))
    );
    refuse(&mut g, RED, "convert inn red", RuleError::OwnInvestigator);
    refuse(&mut g, RED, "convert roc blue", RuleError::NoTargetThere);
    refuse(&mut g, RED, "convert kin yellow", RuleError::NoSuchColour);
    run(&mut g, "convert kin blue");
    assert_eq!(opts(&g), strs(&["with inn", "with sal", "with ark"]));
    refuse(&mut g, RED, "with kin", RuleError::SameRegion);
    let ev = run(&mut g, "with sal");
    assert!(has(
        &ev,
        &Event::Converted {
            seat: RED,
            region: Region::Kin,
            victim: Owner::Blue,
            swap_with: Some(Region::Sal)
        }
    ));
    assert_eq!(
        (count(&g, "kin", Owner::Blue), count(&g, "kin", Owner::Red)),
        (1, 1)
    );
    assert_eq!(
        (count(&g, "sal", Owner::Red), count(&g, "sal", Owner::Blue)),
        (2, 2)
    );
    assert_eq!((g.player(RED).supply, g.player(BLUE).supply), (0, 7));
    invariants(&g);
    // (b) supply 2: a replacement.
    let mut g = s8_board(true);
    run(&mut g, "play p05; convert kin blue");
    assert_eq!(
        (count(&g, "kin", Owner::Blue), count(&g, "kin", Owner::Red)),
        (1, 1)
    );
    assert_eq!((g.player(RED).supply, g.player(BLUE).supply), (1, 8));
    assert_eq!(kind(&g), "play_card");
    invariants(&g);
    // (c) 2p: a neutral leaves the game.
    let mut g = new(2, &[]);
    at_turn(&mut g, RED, Mode::Insane);
    give(&mut g, RED, &["p05", "x01", "x02", "x03", "x04"]);
    put(&mut g, "inn", Owner::Red, 9);
    assert_eq!(count(&g, "kin", Owner::Neutral), 1);
    run(&mut g, "play p05; convert kin neutral");
    assert_eq!(
        (
            count(&g, "kin", Owner::Neutral),
            count(&g, "kin", Owner::Red)
        ),
        (0, 1)
    );
    assert_eq!(g.player(RED).supply, 0);
    invariants(&g);
    // (d) nobody to convert.
    let mut g = new(3, &[]);
    at_turn(&mut g, RED, Mode::Insane);
    give(&mut g, RED, &["p05", "x01", "x02", "x03", "x04"]);
    let ev = run(&mut g, "play p05");
    assert!(has(&ev, &Event::ConvertFizzled { seat: RED }));
    assert_eq!(g.discard, vec![c("p05")]);
    assert_eq!((kind(&g), g.turn.cards_played), ("play_card", 1));
}

#[test]
fn s9_send_with_an_empty_supply() {
    let mut g = new(3, &[]);
    at_turn(&mut g, RED, Mode::Sane);
    give(&mut g, RED, &["r02", "x01", "x02", "x03", "x04"]);
    put(&mut g, "inn", Owner::Red, 5);
    put(&mut g, "sal", Owner::Red, 5);
    run(&mut g, "play r02");
    assert_eq!(g.player(RED).despair, 1);
    assert_eq!(kind(&g), "send_move_from");
    assert_eq!(opts(&g), strs(&["from inn", "from sal", "skip"]));
    refuse(&mut g, RED, "send kin", RuleError::SupplyEmpty);
    refuse(&mut g, RED, "from ark", RuleError::NoInvestigatorThere);
    run(&mut g, "from inn");
    refuse(&mut g, RED, "to inn", RuleError::SameRegion);
    run(&mut g, "to kin");
    assert_eq!(
        (count(&g, "inn", Owner::Red), count(&g, "kin", Owner::Red)),
        (4, 1)
    );
    assert_eq!(kind(&g), "send_move_from");
    let ev = run(&mut g, "skip");
    assert!(has(&ev, &Event::SendSkipped { seat: RED, left: 1 }));
    assert_eq!(g.discard, vec![c("r02")]);
    invariants(&g);
}

#[test]
fn s10_despair_supply_cap() {
    let mut g = new(4, &[]);
    at_turn(&mut g, RED, Mode::Sane);
    give(&mut g, RED, &["x02", "x01", "x03", "x04", "x05"]);
    give(&mut g, BLUE, &["x06", "x07", "x08", "x09", "x11"]);
    set_despair(&mut g, BLUE, 18);
    set_despair(&mut g, RED, 5);
    assert_eq!(g.despair_supply, 1);
    let ev = run(&mut g, "play x02");
    assert!(has(
        &ev,
        &Event::DespairGained {
            seat: RED,
            wanted: 2,
            got: 1
        }
    ));
    assert_eq!((g.player(RED).despair, g.despair_supply), (6, 0));
    let mut spent = g.clone();
    run(&mut spent, "despair swap");
    assert_eq!((spent.player(RED).despair, spent.despair_supply), (4, 2));
    // Without the swap, blue's Send 1 +1 gains nothing.
    run(&mut g, "send inn; play x01; send inn; end");
    assert_eq!(g.active, BLUE);
    let ev = run(&mut g, "play x11");
    assert!(has(
        &ev,
        &Event::DespairGained {
            seat: BLUE,
            wanted: 1,
            got: 0
        }
    ));
    invariants(&g);
}

#[test]
fn s11_a_flip_lasts_the_round_and_the_disc_rotates() {
    let mut g = new(3, &[]);
    g.round = 4;
    g.first = GREEN;
    g.active = GREEN;
    g.mode = None;
    give(&mut g, GREEN, &["r01", "r03", "x01", "x02", "x03"]);
    set_despair(&mut g, GREEN, 4);
    run(&mut g, "mode sane");
    let ev = run(&mut g, "play r01; send ark; despair flip; play r03");
    assert!(has(
        &ev,
        &Event::ArtifactCollected {
            seat: GREEN,
            card: c("r03"),
            artifact: components::Effect::Rune
        }
    ));
    assert!(has(
        &ev,
        &Event::Auto {
            seat: GREEN,
            notation: "end".into()
        }
    ));
    assert_eq!(g.player(GREEN).filed, vec![c("r03")]);
    assert_eq!((g.active, g.mode), (RED, Some(Mode::Insane)));
    give(&mut g, RED, &["x04", "x05", "x06", "x07", "x08"]);
    let ev = run(&mut g, "play x04");
    assert!(matches!(
        ev[0],
        Event::CardPlayed {
            half: Mode::Insane,
            ..
        }
    ));
    run(&mut g, "take 1; play x08; take 1");
    assert_eq!(kind(&g), "end_turn");
    run(&mut g, "end");
    assert_eq!(g.active, BLUE);
    give(&mut g, BLUE, &["x10", "x12", "x14", "x16", "x18"]);
    let ev = run(&mut g, "play x10; take 1; take 1; play x12; take 1; end");
    assert!(has(&ev, &Event::RoundEnded { round: 4 }));
    assert!(has(
        &ev,
        &Event::RoundStarted {
            round: 5,
            first: RED
        }
    ));
    assert_eq!((g.round, g.first, kind(&g)), (5, RED, "choose_mode"));
    assert_eq!(AnyGame::prompt(&g).unwrap().seat, RED);
}

fn s12() -> Gates {
    let mut g = new(3, &[]);
    g.players[0].score = 50;
    g.players[1].score = 40;
    g.players[2].score = 55;
    for (seat, pages) in [
        (0, vec![1, 9, 15, 20]),
        (1, vec![2, 3, 12, 18]),
        (2, vec![6, 7]),
    ] {
        for p in pages {
            let id = format!("p{p:02}");
            remove_everywhere(&mut g, c(&id));
            g.players[seat].filed.push(c(&id));
        }
    }
    put(&mut g, "inn", Owner::Red, 5);
    put(&mut g, "sal", Owner::Blue, 3);
    put(&mut g, "ark", Owner::Green, 5);
    for (s, d) in [(RED, 3), (BLUE, 0), (GREEN, 3)] {
        set_despair(&mut g, s, d);
    }
    g.players[0].turns_started = 10;
    g.players[1].turns_started = 10;
    g.players[2].turns_started = 9;
    scrolls(
        &mut g,
        &[
            (Scroll::Keeper, true),
            (Scroll::Recruiter, true),
            (Scroll::DarkHours, true),
        ],
    );
    g
}

#[test]
fn s12_end_scrolls_and_tie_breaks() {
    let g = s12();
    let f = rules::final_scores(&g);
    assert_eq!(
        f.iter().map(|x| x.total).collect::<Vec<_>>(),
        vec![73, 60, 73]
    );
    assert_eq!(independent_totals(&g), vec![73, 60, 73]);
    assert_eq!(rules::winners(&f, true), vec![GREEN]);
    assert_eq!(rules::winners(&f, false), vec![RED, GREEN]);
    let mut none = s12();
    none.opts.scroll_ties_all = false;
    let f = rules::final_scores(&none);
    assert_eq!(
        f.iter().map(|x| x.total).collect::<Vec<_>>(),
        vec![63, 55, 68]
    );
    assert_eq!(rules::winners(&f, true), vec![GREEN]);
    assert_eq!(independent_totals(&none), vec![63, 55, 68]);
}

#[test]
fn s13_reshuffle_at_the_end_of_turn_draw() {
    let mut g = new(3, &[]);
    at_turn(&mut g, RED, Mode::Sane);
    give(&mut g, RED, &["x05", "x06", "x07"]);
    g.turn.cards_played = 2;
    // Everything else out of the way: into green's journal (not part of this scenario).
    let keep = ["x14", "x01", "x02", "x03"].map(c);
    let rest: Vec<CardId> = g.deck.drain(..).filter(|x| !keep.contains(x)).collect();
    g.players[2].filed.extend(rest);
    g.deck = vec![c("x14")];
    g.discard = ["x01", "x02", "x03"].map(c).to_vec();
    for p in &mut g.players {
        p.hand.retain(|x| !keep.contains(x));
    }
    let ev = run(&mut g, "end");
    assert!(has(&ev, &Event::DeckReshuffled { count: 3 }));
    assert!(has(
        &ev,
        &Event::CardsDrawn {
            seat: RED,
            count: 2
        }
    ));
    assert_eq!(g.player(RED).hand.len(), 5);
    assert_eq!(g.player(RED).hand[3], c("x14"));
    assert_eq!((g.deck.len(), g.discard.len()), (2, 0));
    // Edge: nothing left to draw.
    let mut g2 = new(3, &[]);
    at_turn(&mut g2, RED, Mode::Sane);
    give(&mut g2, RED, &["x05", "x06", "x07"]);
    g2.turn.cards_played = 2;
    let all: Vec<CardId> = g2.deck.drain(..).collect();
    g2.players[2].filed.extend(all);
    let ev = run(&mut g2, "end");
    assert!(has(
        &ev,
        &Event::CardsDrawn {
            seat: RED,
            count: 0
        }
    ));
    assert_eq!(g2.player(RED).hand.len(), 3);
}

#[test]
fn s14_scroll_effects() {
    // (a) Dark Hours.
    let mut g = new(3, &[]);
    at_turn(&mut g, RED, Mode::Sane);
    scrolls(
        &mut g,
        &[
            (Scroll::DarkHours, true),
            (Scroll::Keeper, false),
            (Scroll::Relic, false),
        ],
    );
    set_despair(&mut g, RED, 3);
    let o = opts(&g);
    assert!(o.contains(&"despair swap".into()) && o.contains(&"despair refresh".into()));
    assert!(o.contains(&"despair flip".into()) && !o.contains(&"despair score".into()));
    let ev = run(&mut g, "despair flip");
    assert!(has(
        &ev,
        &Event::DespairSpent {
            seat: RED,
            action: Desperate::Flip,
            cost: 3
        }
    ));
    // (b) Builder's Mandate.
    let mut g = new(3, &[]);
    at_turn(&mut g, RED, Mode::Sane);
    scrolls(
        &mut g,
        &[
            (Scroll::Mandate, true),
            (Scroll::Keeper, false),
            (Scroll::Relic, false),
        ],
    );
    give(&mut g, RED, &["p12", "x01", "x02", "x03", "x04"]);
    gates_setup(&mut g, ["kin", "sal", "ark", "roc"], &["inn"]);
    run(&mut g, "play p12");
    assert_eq!(g.player(RED).pages(), vec![12]);
    assert_eq!(kind(&g), "take_gate_card");
    assert_eq!(
        opts(&g),
        strs(&["take 1", "take 2", "take 3", "take 4", "take deck", "skip"])
    );
    let ev = run(&mut g, "take deck");
    assert!(has(
        &ev,
        &Event::GateCardTaken {
            seat: RED,
            source: Source::Deck,
            region: Region::Inn
        }
    ));
    assert_eq!(g.player(RED).gates[0].region, Region::Inn);
    assert_eq!(g.player(RED).despair, 0);
    invariants(&g);
    // (c) Call of the Relic.
    let mut g = new(3, &[]);
    at_turn(&mut g, RED, Mode::Insane);
    scrolls(
        &mut g,
        &[
            (Scroll::Relic, true),
            (Scroll::Keeper, false),
            (Scroll::Mandate, false),
        ],
    );
    give(&mut g, RED, &["r03", "x01", "x02", "x03", "x04"]);
    run(&mut g, "play r03");
    assert_eq!(g.player(RED).runes(), 1);
    assert_eq!(
        opts(&g),
        strs(&["send inn", "send sal", "send ark", "send kin", "send roc", "skip"])
    );
    run(&mut g, "send sal");
    assert_eq!(
        (count(&g, "sal", Owner::Red), g.player(RED).despair),
        (1, 0)
    );
    invariants(&g);
}

#[test]
fn s15_build_two_completes_then_starts_a_new_gate() {
    let mut g = new(3, &[]);
    g.discs = vec![12, 13, 14, 15];
    g.players[1].gates.push(Gate {
        region: Region::Ark,
        cards: 6,
        state: GateState::Opened { disc: 10 },
    });
    g.players[2].gates.push(Gate {
        region: Region::Sal,
        cards: 6,
        state: GateState::Opened { disc: 11 },
    });
    scrolls(
        &mut g,
        &[
            (Scroll::Keeper, true),
            (Scroll::Mandate, false),
            (Scroll::Relic, false),
        ],
    );
    at_turn(&mut g, RED, Mode::Insane);
    give(&mut g, RED, &["p02", "x01", "x02", "x03", "x04"]);
    building(&mut g, RED, "kin", 4);
    gates_setup(&mut g, ["kin", "kin", "sal", "inn"], &["ark", "roc"]);
    run(&mut g, "play p02");
    let ev = run(&mut g, "take 1");
    assert!(has(
        &ev,
        &Event::GateCompleted {
            seat: RED,
            region: Region::Kin
        }
    ));
    assert!(!ev.iter().any(|e| matches!(e, Event::GateOpened { .. })));
    assert_eq!(g.pool[0], Some(Region::Ark));
    let ev = run(&mut g, "take 2");
    assert!(has(
        &ev,
        &Event::SectionPlaced {
            seat: RED,
            region: Region::Kin,
            cards: 1,
            size: 5,
            new_gate: true
        }
    ));
    assert!(has(
        &ev,
        &Event::GateOpened {
            seat: RED,
            region: Region::Kin,
            disc: 12
        }
    ));
    assert!(has(
        &ev,
        &Event::ScrollRevealed {
            slot: 2,
            scroll: Scroll::Mandate
        }
    ));
    assert_eq!(g.player(RED).score, 12);
    assert_eq!(
        g.player(RED).gates,
        vec![
            Gate {
                region: Region::Kin,
                cards: 5,
                state: GateState::Opened { disc: 12 }
            },
            Gate {
                region: Region::Kin,
                cards: 1,
                state: GateState::Building
            },
        ]
    );
    assert_eq!(
        g.pool,
        [
            Some(r("ark")),
            Some(r("roc")),
            Some(r("sal")),
            Some(r("inn"))
        ]
    );
    invariants(&g);
}

// ---------------------------------------------------------------- rules (spec 7)

#[test]
fn r1_first_player_chooses_either_mode_every_round() {
    let mut g = new(2, &[]);
    run(&mut g, "mode insane");
    assert_eq!(g.mode, Some(Mode::Insane));
    let mut g = new(2, &[]);
    refuse(&mut g, RED, "play x01", RuleError::ModeFirst);
    refuse(&mut g, BLUE, "mode sane", RuleError::NotYourTurn);
    run(&mut g, "mode sane");
    assert_eq!(g.mode, Some(Mode::Sane));
}

#[test]
fn r2_turn_order_and_two_turns_in_a_row_in_2p() {
    let mut g = new(2, &[]);
    run(&mut g, "mode sane");
    let play2 = |g: &mut Gates| {
        for _ in 0..2 {
            let o = opts(g);
            run(g, &o[0]);
            while !matches!(kind(g), "play_card" | "end_turn" | "choose_mode") {
                let o = opts(g);
                run(g, &o[0]);
            }
        }
        if kind(g) == "end_turn" {
            run(g, "end");
        }
    };
    play2(&mut g);
    assert_eq!(g.active, BLUE);
    play2(&mut g);
    // Round 2: blue was last, red is first; then blue again: blue plays last then... red first.
    assert_eq!((g.round, g.first, kind(&g)), (2, BLUE, "choose_mode"));
    run(&mut g, "mode sane");
    play2(&mut g);
    assert_eq!(g.active, RED);
}

#[test]
fn r3_flip_can_happen_twice_and_resets_next_round() {
    let mut g = new(3, &[]);
    at_turn(&mut g, RED, Mode::Sane);
    set_despair(&mut g, RED, 8);
    run(&mut g, "despair flip; despair flip");
    assert_eq!(g.mode, Some(Mode::Sane));
    assert_eq!(g.player(RED).despair, 0);
}

#[test]
fn r4_the_half_is_fixed_when_played() {
    let mut g = new(3, &[]);
    at_turn(&mut g, RED, Mode::Insane);
    give(&mut g, RED, &["p02", "x01", "x02", "x03", "x04"]);
    set_despair(&mut g, RED, 3);
    run(&mut g, "play p02; take 1");
    // Despair 4 now: flip between the two takes; the card stays a build.
    run(&mut g, "despair flip");
    assert_eq!(g.mode, Some(Mode::Sane));
    assert_eq!(kind(&g), "take_gate_card");
    run(&mut g, "take 1");
    assert_eq!(g.player(RED).pages(), Vec::<u8>::new());
    let ev = run(&mut g, "play x01");
    assert!(matches!(
        ev[0],
        Event::CardPlayed {
            half: Mode::Sane,
            ..
        }
    ));
}

#[test]
fn r5_exactly_two_cards_then_draw() {
    let mut g = new(3, &[]);
    at_turn(&mut g, RED, Mode::Sane);
    give(&mut g, RED, &["x01", "x03", "x05", "x07", "x09"]);
    refuse(&mut g, RED, "end", RuleError::MustPlayTwo);
    run(&mut g, "play x01; send inn");
    refuse(&mut g, RED, "end", RuleError::MustPlayTwo);
    run(&mut g, "play x05; send inn");
    assert_eq!(kind(&g), "end_turn");
    refuse(&mut g, RED, "play x07", RuleError::WrongPrompt);
}

#[test]
fn r6_halves_are_mandatory_and_impossible_halves_still_count() {
    let mut g = new(3, &[]);
    at_turn(&mut g, RED, Mode::Insane);
    give(&mut g, RED, &["p02", "x01", "x02", "x03", "x04"]);
    run(&mut g, "play p02");
    refuse(&mut g, RED, "skip", RuleError::CannotSkip);
    // No gate card anywhere: the build is lost, the card counts as played.
    let mut g = new(3, &[]);
    at_turn(&mut g, RED, Mode::Insane);
    give(&mut g, RED, &["p02", "x01", "x02", "x03", "x04"]);
    g.pool = [None; 4];
    let all: Vec<Region> = g.gate_deck.drain(..).collect();
    let _ = all;
    let ev = run(&mut g, "play p02");
    assert_eq!(
        ev.iter()
            .filter(|e| matches!(e, Event::SectionLost { .. }))
            .count(),
        2
    );
    assert_eq!(
        (g.turn.cards_played, g.discard.clone()),
        (1, vec![c("p02")])
    );
}

#[test]
fn r7_desperate_actions_only_on_own_turn_repeatable() {
    let mut g = new(3, &[]);
    at_turn(&mut g, RED, Mode::Sane);
    set_despair(&mut g, RED, 10);
    set_despair(&mut g, BLUE, 10);
    refuse(&mut g, BLUE, "despair score", RuleError::NotYourTurn);
    run(&mut g, "despair score; despair score");
    assert_eq!((g.player(RED).score, g.player(RED).despair), (6, 0));
    let mut g = new(3, &[]);
    set_despair(&mut g, RED, 10);
    refuse(&mut g, RED, "despair score", RuleError::DespairNotNow);
}

#[test]
fn r8_despair_is_gained_before_placements() {
    // See s7 for the build; a send likewise.
    let mut g = new(3, &[]);
    at_turn(&mut g, RED, Mode::Sane);
    give(&mut g, RED, &["x02", "x01", "x03", "x04", "x05"]);
    run(&mut g, "play x02");
    assert_eq!(g.player(RED).despair, 2);
    assert!(opts(&g).contains(&"despair swap".to_string()));
}

#[test]
fn r9_supply_cap_and_return() {
    let mut g = new(3, &[]);
    at_turn(&mut g, RED, Mode::Sane);
    set_despair(&mut g, BLUE, 24);
    give(&mut g, RED, &["x02", "x01", "x03", "x04", "x05"]);
    let ev = run(&mut g, "play x02");
    assert!(has(
        &ev,
        &Event::DespairGained {
            seat: RED,
            wanted: 2,
            got: 0
        }
    ));
    invariants(&g);
}

#[test]
fn r10_send_two_to_different_regions() {
    let mut g = new(3, &[]);
    at_turn(&mut g, RED, Mode::Sane);
    give(&mut g, RED, &["x03", "x01", "x02", "x04", "x05"]);
    run(&mut g, "play x03; send inn; send roc");
    assert_eq!(
        (count(&g, "inn", Owner::Red), count(&g, "roc", Owner::Red)),
        (1, 1)
    );
}

#[test]
fn r11_must_place_from_supply_when_possible() {
    let mut g = new(3, &[]);
    at_turn(&mut g, RED, Mode::Sane);
    give(&mut g, RED, &["x03", "x01", "x02", "x04", "x05"]);
    run(&mut g, "play x03");
    refuse(&mut g, RED, "from inn", RuleError::SupplyNotEmpty);
    refuse(&mut g, RED, "skip", RuleError::CannotSkip);
}

#[test]
fn r12_neutrals_are_never_moved_by_a_send() {
    let mut g = new(2, &[]);
    at_turn(&mut g, RED, Mode::Sane);
    give(&mut g, RED, &["x03", "x01", "x02", "x04", "x05"]);
    put(&mut g, "inn", Owner::Red, 10);
    run(&mut g, "play x03");
    assert_eq!(opts(&g)[..2], strs(&["from inn", "skip"])[..]);
    run(&mut g, "from inn; to sal");
    assert_eq!(count(&g, "sal", Owner::Neutral), 2);
}

#[test]
fn r13_convert_from_supply_returns_the_rival() {
    let mut g = s8_board(true);
    run(&mut g, "play p05; convert ark green");
    assert_eq!(g.player(GREEN).supply, 9);
    assert_eq!(count(&g, "ark", Owner::Red), 4);
}

#[test]
fn r14_convert_swap_needs_another_region() {
    let mut g = new(3, &[]);
    at_turn(&mut g, RED, Mode::Insane);
    give(&mut g, RED, &["p05", "x01", "x02", "x03", "x04"]);
    put(&mut g, "kin", Owner::Red, 10);
    put(&mut g, "kin", Owner::Blue, 1);
    put(&mut g, "sal", Owner::Blue, 1);
    put(&mut g, "ark", Owner::Green, 1);
    run(&mut g, "play p05");
    // Red has nobody outside Kingsport: the Kingsport blue cannot be swapped.
    refuse(&mut g, RED, "convert kin blue", RuleError::NothingToSwap);
    assert_eq!(
        opts(&g)[..2],
        strs(&["convert sal blue", "convert ark green"])[..]
    );
}

#[test]
fn r15_convert_is_mandatory_and_fizzles_without_target() {
    let mut g = s8_board(true);
    run(&mut g, "play p05");
    refuse(&mut g, RED, "skip", RuleError::CannotSkip);
    refuse(&mut g, RED, "play x01", RuleError::WrongPrompt);
}

#[test]
fn r16_r17_gate_cards_join_by_region() {
    let mut g = new(3, &[]);
    at_turn(&mut g, RED, Mode::Insane);
    give(&mut g, RED, &["p02", "x01", "x02", "x03", "x04"]);
    building(&mut g, RED, "sal", 1);
    gates_setup(&mut g, ["sal", "inn", "ark", "roc"], &["kin"]);
    run(&mut g, "play p02; take 1; take 2");
    let gates: Vec<(Region, u8)> = g
        .player(RED)
        .gates
        .iter()
        .map(|x| (x.region, x.cards))
        .collect();
    assert_eq!(gates, vec![(Region::Sal, 2), (Region::Inn, 1)]);
}

#[test]
fn r18_r19_refill_and_empty_slots() {
    let mut g = new(3, &[]);
    at_turn(&mut g, RED, Mode::Insane);
    give(&mut g, RED, &["p02", "x01", "x02", "x03", "x04"]);
    // Put the rest of the gate cards in blue's opened gates.
    let mut g_deck = std::mem::take(&mut g.gate_deck);
    g_deck.truncate(0);
    g.players[1].gates.push(Gate {
        region: Region::Inn,
        cards: 7,
        state: GateState::Opened { disc: 10 },
    });
    gate_deck_exact(&mut g, ["sal", "inn", "ark", "roc"], &["kin"]);
    let ev = run(&mut g, "play p02; take 1");
    assert!(has(
        &ev,
        &Event::PoolRefilled {
            slot: 1,
            region: Region::Kin
        }
    ));
    let ev = run(&mut g, "take 2");
    assert!(has(&ev, &Event::PoolSlotEmpty { slot: 2 }));
    assert_eq!(g.pool[1], None);
    refuse(&mut g, RED, "despair refresh", RuleError::NotEnoughDespair);
}

#[test]
fn r20_openings_wait_for_the_second_card() {
    let mut g = s6();
    g.discs = vec![14, 15];
    run(&mut g, "play p07; take 1");
    assert_eq!(g.player(RED).gates[0].state, GateState::Complete);
    let ev = run(&mut g, "take 2");
    let opened: Vec<u8> = ev
        .iter()
        .filter_map(|e| match e {
            Event::GateOpened { disc, .. } => Some(*disc),
            _ => None,
        })
        .collect();
    assert_eq!(opened, vec![14, 15]);
    assert!(g.outcome.is_some());
}

#[test]
fn r21_same_region_gates_open_again() {
    let mut g = s6();
    g.discs = vec![14, 15];
    g.players[0].gates[1].cards = 1;
    run(&mut g, "play p07; take 1; take 3");
    assert!(matches!(
        g.player(RED).gates[0].state,
        GateState::Opened { .. }
    ));
    // Blue already opened a kin gate earlier (s6), red opens another one.
    assert!(matches!(
        g.player(BLUE).gates[0],
        Gate {
            region: Region::Kin,
            state: GateState::Opened { .. },
            ..
        }
    ));
}

#[test]
fn r22_incomplete_gates_count_unopened() {
    let mut g = s6();
    run(&mut g, "play p07; take 1; take 2; open kin");
    assert_eq!(g.player(RED).incomplete_gates(), 1);
    assert_eq!(g.player(RED).gates[1].state, GateState::Unopened);
}

#[test]
fn r23_opened_gates_keep_their_cards() {
    let mut g = s1();
    run(&mut g, "play r01; send kin; despair flip; play p01; take 2");
    assert_eq!(g.player(RED).gates[0].cards, 5);
    invariants(&g);
}

#[test]
fn r24_choose_open_only_when_discs_run_short() {
    let mut g = s6();
    g.discs = vec![14, 15];
    let ev = run(&mut g, "play p07; take 1; take 2");
    assert!(!ev.iter().any(|e| matches!(e, Event::Auto { .. })));
    assert_ne!(kind(&g), "choose_open");
}

#[test]
fn r25_r26_dense_ranks_and_neutrals() {
    let e = rank_region(&[3, 3, 2, 1, 0], [10, 7, 5]);
    assert_eq!(
        e.iter().map(|x| x.points).collect::<Vec<_>>(),
        vec![10, 10, 7, 5]
    );
    let e = rank_region(&[1, 1, 1, 0, 5], [10, 7, 5]);
    assert_eq!(
        e.iter().map(|x| (x.rank, x.points)).collect::<Vec<_>>(),
        vec![(2, 7), (2, 7), (2, 7), (1, 0)]
    );
    let e = rank_region(&[4, 3, 2, 1, 0], [8, 5, 3]);
    assert_eq!(
        e[3],
        RankEntry {
            owner: Owner::Yellow,
            count: 1,
            rank: 0,
            points: 0
        }
    );
}

#[test]
fn r27_opener_scores_disc_with_nobody_there() {
    let mut g = s1();
    put(&mut g, "kin", Owner::Red, 0);
    put(&mut g, "kin", Owner::Blue, 0);
    put(&mut g, "kin", Owner::Green, 0);
    let ev = run(&mut g, "play r01; send inn; despair flip; play p01; take 2");
    assert!(has(
        &ev,
        &Event::RegionScored {
            region: Region::Kin,
            entries: vec![]
        }
    ));
    assert_eq!(g.player(RED).score, 22);
}

#[test]
fn the_scored_town_is_highlighted_for_one_option_only() {
    let mut g = s1();
    run(&mut g, "play r01; send kin; despair flip; play p01; take 2");
    let v = g.public_view();
    let lit: Vec<Region> = v
        .regions
        .iter()
        .filter(|x| x.scored)
        .map(|x| x.region)
        .collect();
    assert_eq!(lit, vec![Region::Kin]);
    run(&mut g, "end");
    assert!(g.public_view().regions.iter().all(|x| !x.scored));
}

#[test]
fn r28_scrolls_reveal_in_slot_order_and_apply_at_once() {
    let mut g = s1();
    run(&mut g, "play r01; send kin; despair flip; play p01; take 2");
    assert!(g.scrolls[0].revealed && !g.scrolls[1].revealed);
}

#[test]
fn r29_bonus_builds_can_open_a_gate() {
    let mut g = new(3, &[]);
    at_turn(&mut g, RED, Mode::Sane);
    scrolls(
        &mut g,
        &[
            (Scroll::Mandate, true),
            (Scroll::Keeper, false),
            (Scroll::Relic, false),
        ],
    );
    give(&mut g, RED, &["p12", "x01", "x02", "x03", "x04"]);
    building(&mut g, RED, "kin", 4);
    gates_setup(&mut g, ["kin", "sal", "ark", "roc"], &[]);
    let ev = run(&mut g, "play p12; take 1");
    assert!(has(
        &ev,
        &Event::GateOpened {
            seat: RED,
            region: Region::Kin,
            disc: 10
        }
    ));
    // A skipped bonus changes nothing else.
    let mut g = new(3, &[]);
    at_turn(&mut g, RED, Mode::Sane);
    scrolls(
        &mut g,
        &[
            (Scroll::Mandate, true),
            (Scroll::Keeper, false),
            (Scroll::Relic, false),
        ],
    );
    give(&mut g, RED, &["p12", "x01", "x02", "x03", "x04"]);
    let ev = run(&mut g, "play p12; skip");
    assert!(has(&ev, &Event::BuildSkipped { seat: RED }));
    assert_eq!(kind(&g), "play_card");
}

#[test]
fn r30_r31_end_of_turn_draws_two() {
    let mut g = new(3, &[]);
    at_turn(&mut g, RED, Mode::Sane);
    give(&mut g, RED, &["x01", "x03", "x05", "x07", "x09"]);
    let before = g.deck.len();
    run(
        &mut g,
        "play x01; send inn; play x03; send inn; send sal; end",
    );
    assert_eq!(g.player(RED).hand.len(), 5);
    assert_eq!(g.deck.len(), before - 2);
}

#[test]
fn r32_swap_discards_may_include_drawn_cards() {
    let mut g = new(3, &[]);
    at_turn(&mut g, RED, Mode::Sane);
    give(&mut g, RED, &["x01", "x02", "x03", "x04", "x05"]);
    set_despair(&mut g, RED, 2);
    deck_top(&mut g, &["x11", "x12"]);
    run(&mut g, "despair swap");
    refuse(&mut g, RED, "despair flip", RuleError::DespairNotNow);
    refuse(&mut g, RED, "play x11", RuleError::WrongPrompt);
    run(&mut g, "discard x11; discard x12");
    assert_eq!(g.player(RED).hand.len(), 5);
    assert_eq!(g.discard, vec![c("x11"), c("x12")]);
}

#[test]
fn r33_refresh_keeps_slot_order_under_the_deck() {
    let mut g = new(3, &[]);
    at_turn(&mut g, RED, Mode::Sane);
    set_despair(&mut g, RED, 3);
    gate_deck_exact(&mut g, ["inn", "sal", "ark", "kin"], &["roc", "roc"]);
    run(&mut g, "despair refresh");
    assert_eq!(
        g.pool,
        [
            Some(r("roc")),
            Some(r("roc")),
            Some(r("inn")),
            Some(r("sal"))
        ]
    );
    assert_eq!(g.gate_deck, regions(&["ark", "kin"]));
}

#[test]
fn r34_discard_is_public_and_filed_cards_stay() {
    let mut g = new(3, &[]);
    at_turn(&mut g, RED, Mode::Sane);
    give(&mut g, RED, &["p03", "x01", "x02", "x03", "x04"]);
    run(&mut g, "play p03; play x01; send inn");
    let v = g.public_view();
    assert_eq!(v.discard, vec!["x01".to_string()]);
    assert_eq!(v.players[0].pages, vec![3]);
}

#[test]
fn r35_r36_r37_collections() {
    assert_eq!(rules::page_points(&[1, 2, 3, 7, 9, 10, 20]), 24);
    assert_eq!(rules::blueprint_points([3, 2, 2, 1]), 20);
    let table: Vec<i64> = (0..12).map(rules::rune_points).collect();
    assert_eq!(table, vec![0, 1, 2, 4, 8, 16, 17, 18, 20, 24, 32, 33]);
    assert_eq!(rules::page_points(&[20]), 2);
}

#[test]
fn r38_the_end_stops_everything() {
    let mut g = s6();
    run(&mut g, "play p07; take 1; take 2; open kin");
    for line in ["play x01", "end", "despair score", "mode sane"] {
        refuse(&mut g, RED, line, RuleError::GameOver);
    }
}

#[test]
fn r39_stall_ends_the_game() {
    let mut g = new(3, &[]);
    at_turn(&mut g, RED, Mode::Sane);
    g.turn.cards_played = 2;
    g.pool = [None; 4];
    let cards: Vec<Region> = g.gate_deck.drain(..).collect();
    let _ = cards;
    let ev = run(&mut g, "end");
    assert!(has(
        &ev,
        &Event::GameEnded {
            reason: EndReason::NoGateCards
        }
    ));
}

#[test]
fn r40_round_limit() {
    let mut g = new(2, &[("round_limit", "1")]);
    run(&mut g, "mode sane");
    g.turn.cards_played = 2;
    run(&mut g, "end");
    g.turn.cards_played = 2;
    let ev = run(&mut g, "end");
    assert!(has(
        &ev,
        &Event::GameEnded {
            reason: EndReason::RoundLimit
        }
    ));
    assert!(g.outcome.is_some());
}

#[test]
fn r41_despair_only_breaks_ties() {
    let mut g = s12();
    set_despair(&mut g, BLUE, 18);
    let f = rules::final_scores(&g);
    assert_eq!(f[1].total, 60);
}

#[test]
fn r42_r43_scores_are_integers_and_turns_counted() {
    let mut g = new(3, &[]);
    run(&mut g, "mode sane");
    assert_eq!(g.player(RED).turns_started, 1);
    assert_eq!(g.player(BLUE).turns_started, 0);
}

#[test]
fn confirm_end_keeps_the_end_prompt() {
    let mut g = new(3, &[("confirm_end", "true")]);
    at_turn(&mut g, RED, Mode::Sane);
    give(&mut g, RED, &["x01", "x03", "x05", "x07", "x09"]);
    run(
        &mut g,
        "play x01; send inn; play x05; send inn; despair refresh",
    );
    assert_eq!((kind(&g), opts(&g)), ("end_turn", strs(&["end"])));
    let mut g = new(3, &[]);
    at_turn(&mut g, RED, Mode::Sane);
    give(&mut g, RED, &["x01", "x03", "x05", "x07", "x09"]);
    let ev = run(
        &mut g,
        "play x01; send inn; play x05; send inn; despair refresh",
    );
    assert!(has(
        &ev,
        &Event::Auto {
            seat: RED,
            notation: "end".into()
        }
    ));
    assert_eq!(g.active, BLUE);
}

// ---------------------------------------------------------------- notation and texts

#[test]
fn notation_round_trips_and_reports_forms() {
    let g = new(3, &[]);
    for line in [
        "mode sane",
        "play p07",
        "discard x20",
        "send kin",
        "from inn",
        "to roc",
        "convert kin blue",
        "with sal",
        "take 3",
        "take deck",
        "open roc",
        "despair swap",
        "despair refresh",
        "despair flip",
        "despair score",
        "skip",
        "end",
    ] {
        let a = parse1(&g, line);
        assert_eq!(Game::notation(&g, &a), line);
    }
    assert_eq!(parse1(&g, "SEND   Kingsport"), Action::Send(Region::Kin));
    assert_eq!(parse1(&g, "play P7"), Action::Play(c("p07")));
    for bad in [
        "",
        "play",
        "play p21",
        "play q01",
        "send mars",
        "take 5",
        "convert kin pink",
        "despair nap",
        "end now",
        "xyzzy",
    ] {
        assert!(Game::parse(&g, RED, bad).is_err(), "`{bad}` accepted");
    }
}

#[test]
fn texts_are_localized_and_summaries_name_everything() {
    let mut g = s1();
    let ev = run(&mut g, "play r01; send kin; despair flip; play p01; take 2");
    let ctx = crate::engine::RenderCtx {
        lang: Lang::Fr,
        names: strs(&["Mandy", "Jordan", "Vert", "Jaune"]),
        stopped: false,
        number: None,
    };
    for e in &ev {
        for lang in Lang::ALL {
            let s = Game::event_text(&g, e).render_with(lang, &ctx.names);
            assert!(!s.contains("gates."), "untranslated: {s}");
            assert!(!s.contains('{'), "unfilled: {s}");
        }
    }
    let s = <Gates as Present>::public_summary(&g.public_view(), &ctx);
    assert!(s.contains("Kingsport") && s.contains("Mandy"), "{s}");
    let p = <Gates as Present>::private_summary(&g.private_view(RED).unwrap(), &ctx);
    assert!(p.contains("Vos choix"), "{p}");
    for k in 0..22 {
        let _ = k;
    }
    let e = RuleError::NotEnoughDespair.text().render(Lang::En);
    assert!(e.contains("despair"), "{e}");
}

/// The board's header at the end says who won, by how much and why, naming the tie-break rule
/// that decided (spec section 8: points, then despair left, then fewer turns started).
#[test]
fn the_final_header_says_who_won_by_how_much_and_why() {
    use crate::render::frame::Status;
    let (g, _) = playouts::playout(3, &TODAY, 11, false);
    let v = g.public_view();
    let said = |totals: [i64; 3], despair: [u8; 3], turns: [u32; 3], lang: Lang| {
        let mut v = v.clone();
        let e = v.ending.as_mut().unwrap();
        for i in 0..3 {
            e.scores[i].total = totals[i];
            e.scores[i].despair = despair[i];
            e.scores[i].turns_started = turns[i];
        }
        e.winners = rules::winners(&e.scores, v.options.fewer_turns);
        let ctx = crate::engine::RenderCtx {
            lang,
            names: strs(&["Mandy", "Jordan", "Sam"]),
            stopped: false,
            number: Some(7),
        };
        match super::render::header_status(&v, &ctx) {
            Status::Over {
                headline, detail, ..
            } => format!("{headline} | {detail}"),
            other => panic!("not a result: {other:?}"),
        }
    };
    let clear = said([40, 52, 47], [0, 0, 0], [9, 9, 9], Lang::En);
    assert_eq!(clear, "Jordan wins | 52 to 47 pts · most points");
    let despair = said([52, 52, 47], [1, 3, 0], [9, 9, 9], Lang::En);
    assert_eq!(
        despair,
        "Jordan wins | tied on 52 pts · tie-break: more despair left (3◆ to 1◆)"
    );
    let turns = said([52, 52, 47], [3, 3, 0], [9, 8, 9], Lang::En);
    assert!(
        turns.starts_with("Jordan wins | tied on 52 pts · tie-break: despair equal, fewer turns"),
        "{turns}"
    );
    let fr = said([52, 52, 47], [1, 3, 0], [9, 9, 9], Lang::Fr);
    assert!(
        fr.contains("Jordan gagne") && fr.contains("départage"),
        "{fr}"
    );
    let shared = said([52, 52, 47], [3, 3, 0], [9, 9, 9], Lang::En);
    assert!(
        shared.starts_with("Shared win: Mandy, Jordan | 52 to 47 pts")
            && shared.contains("a shared win"),
        "{shared}"
    );
}

// ---------------------------------------------------------------- playouts

mod playouts {
    use super::*;
    use crate::engine::GameRng;

    fn public_json(g: &Gates) -> String {
        serde_json::to_string(&g.public_view()).unwrap()
    }

    /// Every string value (not key) of a JSON document.
    fn strings(v: &serde_json::Value, out: &mut Vec<String>) {
        match v {
            serde_json::Value::String(s) => out.push(s.clone()),
            serde_json::Value::Array(a) => a.iter().for_each(|x| strings(x, out)),
            serde_json::Value::Object(m) => m.values().for_each(|x| strings(x, out)),
            _ => {}
        }
    }

    /// No hand card, gate-deck order or face-down scroll in anything public.
    fn no_leak(g: &Gates) {
        let json = public_json(g);
        let mut values = Vec::new();
        strings(&serde_json::to_value(g.public_view()).unwrap(), &mut values);
        let d = components::data().unwrap();
        for p in &g.players {
            // A card played earlier this turn stays in the public list of this turn's cards even
            // if a reshuffle brought it back into a hand: that play was public.
            for &x in p
                .hand
                .iter()
                .filter(|x| !g.turn.played.iter().any(|(c, _)| c == *x))
            {
                let id = &d.card(x).id;
                assert!(!values.contains(id), "hand card {id} in the public view");
            }
        }
        for s in g
            .scrolls
            .iter()
            .filter(|s| !s.revealed)
            .map(|s| s.scroll)
            .chain(g.out_scrolls.iter().copied())
        {
            assert!(
                !values.iter().any(|v| v == s.code()),
                "face-down scroll {s:?} in the public view"
            );
        }
        assert!(
            !json.contains("gate_deck\":["),
            "gate deck order in the public view"
        );
        // Another seat's private view never holds this seat's hand.
        for s in g.seat_ids() {
            let other = g.private_view(s.next(Game::seat_count(g))).unwrap();
            if g.seats > 1 {
                for &x in &g.player(s).hand {
                    assert!(!other.hand.iter().any(|h| h.id == d.card(x).id));
                }
            }
        }
    }

    /// The step from `before` to `after` is marked `revealed` whenever something hidden or
    /// random came out, judged from the state and not from the events that set it: a
    /// card drawn (the deck shrank, a hand grew), a card of a hand shown (a hand shrank), a
    /// gate card turned up (the gate deck shrank, the pool changed), a scroll turned, the
    /// end; and a reveal is always a barrier.
    fn check_revealed(
        before: &Gates,
        after: &Gates,
        pick: Action,
        applied: &crate::engine::Applied<Event>,
    ) {
        let hands = |g: &Gates| g.players.iter().map(|p| p.hand.clone()).collect::<Vec<_>>();
        let turned = |g: &Gates| g.scrolls.iter().filter(|s| s.revealed).count();
        let seen = after.deck.len() < before.deck.len()
            || after.discard.len() < before.discard.len()
            || hands(after) != hands(before)
            || after.gate_deck.len() < before.gate_deck.len()
            || after.pool != before.pool
            || turned(after) > turned(before)
            || (after.ending.is_some() && before.ending.is_none());
        assert!(!seen || applied.revealed, "{pick:?}: {:?}", applied.events);
        assert!(!applied.revealed || applied.barrier, "{pick:?}");
        // Whatever shows a hidden card or draws says so in a public event.
        for e in &applied.events {
            if matches!(
                e,
                Event::CardsDrawn { count: 1.., .. }
                    | Event::DeckReshuffled { .. }
                    | Event::ScrollRevealed { .. }
                    | Event::CardPlayed { .. }
                    | Event::PoolRefilled { .. }
            ) {
                assert!(applied.revealed, "{e:?}");
            }
        }
    }

    pub fn playout(
        seats: usize,
        pairs: &[(&str, &str)],
        seed: u64,
        heavy: bool,
    ) -> (Gates, EndReason) {
        let o = options(pairs);
        let mut g = Gates::setup(&o, seats, seed).unwrap();
        let mut rng = GameRng::seed_from_u64(seed ^ 0xD00D);
        let mut log: Vec<(Seat, Action)> = Vec::new();
        for step in 0..30_000 {
            let Some(p) = Game::prompt(&g) else {
                let reason = g.ending.as_ref().unwrap().reason;
                let totals: Vec<i64> = g
                    .ending
                    .as_ref()
                    .unwrap()
                    .scores
                    .iter()
                    .map(|f| f.total)
                    .collect();
                assert_eq!(totals, independent_totals(&g), "final totals");
                assert_eq!(g.outcome.as_ref().unwrap().scores, totals);
                if heavy {
                    let mut replay = Gates::setup(&o, seats, seed).unwrap();
                    for (s, a) in &log {
                        Game::apply(&mut replay, *s, a).unwrap();
                    }
                    assert_eq!(
                        AnyGame::to_json(&replay),
                        AnyGame::to_json(&g),
                        "replay diverged"
                    );
                }
                return (g, reason);
            };
            assert!(
                !p.options.is_empty() && p.options.len() <= 25,
                "{} options at {}",
                p.options.len(),
                p.kind
            );
            let pick = p.options[rng.gen_range(0..p.options.len())];
            if heavy || step % 7 == 0 {
                let before = AnyGame::to_json(&g);
                // Another seat is refused.
                let other = p.seat.next(seats);
                assert_eq!(
                    Game::apply(&mut g, other, &pick).unwrap_err(),
                    RuleError::NotYourTurn
                );
                // An option of another prompt is refused.
                for foreign in [
                    Action::End,
                    Action::Skip,
                    Action::Mode(Mode::Sane),
                    Action::Take(Source::Deck),
                    Action::Open(Region::Inn),
                    Action::With(Region::Roc),
                ] {
                    if !p.options.contains(&foreign) {
                        assert!(
                            Game::apply(&mut g, p.seat, &foreign).is_err(),
                            "{foreign:?} at {}",
                            p.kind
                        );
                    }
                }
                assert_eq!(AnyGame::to_json(&g), before);
                // Notation round trip.
                for o in &p.options {
                    let n = Game::notation(&g, o);
                    assert_eq!(Game::parse(&g, p.seat, &n).unwrap(), vec![*o]);
                }
            }
            let before = g.clone();
            let applied = Game::apply(&mut g, p.seat, &pick)
                .unwrap_or_else(|e| panic!("listed {pick:?} refused: {e:?} (seed {seed})"));
            check_revealed(&before, &g, pick, &applied);
            log.push((p.seat, pick));
            for e in &applied.events {
                if let Event::TurnEnded { seat } = e {
                    let h = g.player(*seat).hand.len();
                    assert!(
                        h == 5 || (g.deck.is_empty() && g.discard.is_empty()),
                        "hand {h}"
                    );
                }
                if heavy {
                    let t = Game::event_text(&g, e).render(Lang::En);
                    assert!(!t.contains("gates."), "{t}");
                }
            }
            invariants(&g);
            if heavy || step % 5 == 0 {
                no_leak(&g);
            }
        }
        panic!("no end after 30000 steps (seed {seed})");
    }

    #[test]
    fn seeded_random_playouts_keep_every_invariant() {
        let variants: [&[(&str, &str)]; 4] = [
            &TODAY,
            &[
                ("scroll_ties", "none"),
                ("final_tiebreak", "shared"),
                TODAY[0],
                TODAY[1],
            ],
            // The rules before issue 25 (stored games still play them).
            &[("score3_cost", "4"), ("confirm_end", "true")],
            &[
                ("score3_cost", "6"),
                ("round_limit", "12"),
                TODAY[0],
                TODAY[1],
            ],
        ];
        let mut reasons = std::collections::BTreeMap::new();
        let mut games = 0;
        for seats in 2..=4 {
            for (vi, v) in variants.iter().enumerate() {
                for k in 0..170u64 {
                    let seed = (seats as u64) * 100_000 + (vi as u64) * 1000 + k;
                    let (_, reason) = playout(seats, v, seed, k < 4);
                    *reasons.entry(format!("{seats}:{reason:?}")).or_insert(0) += 1;
                    games += 1;
                }
            }
        }
        assert_eq!(games, 2040);
        assert!(
            reasons.keys().any(|k| k.ends_with("LastMonstrosity")),
            "{reasons:?}"
        );
        assert!(
            reasons.keys().any(|k| k.ends_with("NoGateCards")),
            "{reasons:?}"
        );
        assert!(
            reasons.keys().any(|k| k.ends_with("RoundLimit")),
            "{reasons:?}"
        );
    }

    /// Permutes every card hidden from the public (the deck order and the other seats' hands)
    /// while the public information stays equal: views, images and event texts must match.
    #[test]
    fn hidden_cards_never_reach_the_public() {
        let ctx = crate::engine::RenderCtx {
            lang: Lang::En,
            names: strs(&["Ann", "Bob", "Cid", "Dee"]),
            stopped: false,
            number: None,
        };
        for seats in 2..=4 {
            let mut g = Gates::setup(&options(&[]), seats, 77).unwrap();
            let mut rng = GameRng::seed_from_u64(5);
            for _ in 0..(40 * seats) {
                let Some(p) = Game::prompt(&g) else { break };
                let pick = p.options[rng.gen_range(0..p.options.len())];
                Game::apply(&mut g, p.seat, &pick).unwrap();
            }
            let Some(p) = Game::prompt(&g) else { continue };
            let mut h = g.clone();
            // Pool every hidden card of the non-active seats and the deck, shuffle, deal back.
            let mut hidden: Vec<CardId> = h.deck.clone();
            for s in h.seat_ids() {
                if s != p.seat {
                    hidden.extend(h.player(s).hand.iter().copied());
                }
            }
            use crate::engine::rng::SliceDraw;
            hidden.shuffle(&mut rng);
            let mut it = hidden.into_iter();
            for s in h.seat_ids() {
                if s != p.seat {
                    let n = h.player(s).hand.len();
                    h.player_mut(s).hand = it.by_ref().take(n).collect();
                    h.player_mut(s).last_drawn.clear();
                }
            }
            h.deck = it.collect();
            for s in g.seat_ids() {
                if s != p.seat {
                    g.player_mut(s).last_drawn.clear();
                }
            }
            assert_eq!(public_json(&g), public_json(&h));
            assert_eq!(
                <Gates as Present>::public_summary(&g.public_view(), &ctx),
                <Gates as Present>::public_summary(&h.public_view(), &ctx)
            );
            assert_eq!(
                <Gates as Present>::render_public(&g.public_view(), &ctx),
                <Gates as Present>::render_public(&h.public_view(), &ctx)
            );
            assert_eq!(
                AnyGame::prompt(&g).map(|x| x.text),
                AnyGame::prompt(&h).map(|x| x.text)
            );
            // The same options give the same public texts (draws excluded: they reveal to the drawer only).
            for o in Game::prompt(&g).unwrap().options {
                let (mut a, mut b) = (g.clone(), h.clone());
                let ea = Game::apply(&mut a, p.seat, &o).unwrap().events;
                let eb = Game::apply(&mut b, p.seat, &o).unwrap().events;
                let ta: Vec<String> = ea
                    .iter()
                    .map(|e| Game::event_text(&a, e).render(Lang::En))
                    .collect();
                let tb: Vec<String> = eb
                    .iter()
                    .map(|e| Game::event_text(&b, e).render(Lang::En))
                    .collect();
                if ta.iter().any(|t| {
                    t.contains("draws") || t.contains("shuffled") || t.contains("(only choice")
                }) {
                    continue;
                }
                assert_eq!(ta, tb, "event texts differ for {o:?}");
            }
        }
    }

    #[test]
    fn a_typed_line_stops_at_its_first_illegal_option_and_keeps_the_rest() {
        // Spec §10: options are applied one at a time; the first illegal one is reported
        // and those before it stay applied.
        let mut g = new(3, &[]);
        let first = opts(&g)[0].clone();
        let mut alone = g.clone();
        AnyGame::apply_notation(&mut alone, RED, &first).unwrap();
        let line = format!("{first}; open nowhere");
        let err = AnyGame::play_line(&mut g, RED, &line).unwrap_err();
        let PlayError::Stopped {
            kept,
            played_through,
            refused,
        } = err
        else {
            panic!("expected the line to stop after part 1, got {err:?}");
        };
        assert_eq!(played_through, 1);
        assert_eq!(kept.len(), 1);
        assert_eq!(kept[0].notation, first);
        assert!(
            matches!(
                *refused,
                PlayError::Parse { segment: 2, .. } | PlayError::Illegal { segment: 2, .. }
            ),
            "{refused:?}"
        );
        assert_eq!(AnyGame::to_json(&g), AnyGame::to_json(&alone));
        // A refused first part changes nothing.
        let before = AnyGame::to_json(&g);
        assert!(!matches!(
            AnyGame::play_line(&mut g, RED, "open nowhere; end"),
            Ok(_) | Err(PlayError::Stopped { .. })
        ));
        assert_eq!(AnyGame::to_json(&g), before);
    }

    #[test]
    fn a_typed_line_never_runs_into_a_new_turn_of_the_same_seat() {
        // Spec §10: in 2p the first seat of a new round may be the seat that just ended the
        // last turn of the round; a line typed for that turn stops at its end.
        let mut found = false;
        'seeds: for seed in 0..40u64 {
            let mut g = Gates::setup(&options(&[]), 2, seed).unwrap();
            let mut rng = GameRng::seed_from_u64(seed);
            for _ in 0..400 {
                let Some(p) = AnyGame::prompt(&g) else {
                    continue 'seeds;
                };
                if p.options.iter().any(|o| o == "end") {
                    let mut after = g.clone();
                    AnyGame::apply_notation(&mut after, p.seat, "end").unwrap();
                    let next = AnyGame::prompt(&after);
                    if after.round != g.round && next.as_ref().is_some_and(|n| n.seat == p.seat) {
                        let next = next.unwrap().options[0].clone();
                        let line = format!("end; {next}");
                        let err = AnyGame::play_line(&mut g, p.seat, &line).unwrap_err();
                        let PlayError::Stopped { kept, refused, .. } = err else {
                            panic!("expected a stop after `end`, got {err:?}");
                        };
                        assert_eq!(kept.len(), 1, "{kept:?}");
                        assert_eq!(kept[0].notation, "end");
                        assert!(
                            matches!(&*refused, PlayError::Illegal { segment: 2, reason, .. } if *reason == crate::i18n::Text::new("core.error.turn_over")),
                            "{refused:?}"
                        );
                        assert_eq!(AnyGame::to_json(&g), AnyGame::to_json(&after));
                        found = true;
                        break 'seeds;
                    }
                }
                let pick = p.options[rng.gen_range(0..p.options.len())].clone();
                AnyGame::apply_notation(&mut g, p.seat, &pick).unwrap();
            }
        }
        assert!(
            found,
            "no seed reached a round where the same seat plays on"
        );
    }

    mod prop {
        use super::*;
        use proptest::prelude::*;

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(300))]
            #[test]
            fn random_input_never_panics_nor_changes_state(s in "[ -~]{0,30}", words in proptest::collection::vec("(play|send|take|convert|despair|mode|open|with|from|to|skip|end|discard|p01|x20|kin|red|neutral|deck|4|sane|swap|;)", 0..6)) {
                let mut g = new(3, &[]);
                run(&mut g, "mode insane");
                let before = AnyGame::to_json(&g);
                let line = format!("{s} {}", words.join(" "));
                let mut copy = g.clone();
                match AnyGame::play_line(&mut copy, RED, &line) {
                    // §10: the parts before the refused one stand, as if sent one by one.
                    Err(PlayError::Stopped { kept, .. }) => {
                        let mut alone = g.clone();
                        for m in &kept {
                            AnyGame::apply_notation(&mut alone, RED, &m.notation).unwrap();
                        }
                        prop_assert_eq!(AnyGame::to_json(&copy), AnyGame::to_json(&alone));
                    }
                    Err(_) => prop_assert_eq!(AnyGame::to_json(&copy), before),
                    Ok(_) => {}
                }
                let _ = AnyGame::play_line(&mut g, BLUE, &line).map(|_| panic!("blue moved"));
            }
        }
    }
}

// ---------------------------------------------------------------- bot players

mod bot {
    use super::*;
    use crate::ai::{BotPlayer, Level, Method};
    use crate::engine::rng::SliceDraw;
    use crate::engine::rng_from_seed;

    /// A game after `steps` seeded random options (fewer if it ends first).
    fn random_position(seats: usize, seed: u64, steps: usize) -> Gates {
        let mut g = Gates::setup(&options(&[]), seats, seed).unwrap();
        let mut rng = rng_from_seed(seed ^ 0xB07);
        for _ in 0..steps {
            let Some(p) = Game::prompt(&g) else { break };
            let pick = p.options[rng.gen_range(0..p.options.len())];
            Game::apply(&mut g, p.seat, &pick).unwrap();
        }
        g
    }

    /// Every imagined game shows the seat exactly what the real one shows it (public view,
    /// its private view, the prompt) and keeps every card of the box exactly once.
    #[test]
    fn imagined_games_match_what_the_seat_sees() {
        let mut rng = rng_from_seed(9);
        let mut checked = 0;
        for seats in 2..=4 {
            let mut g = Gates::setup(&options(&[]), seats, 31 + seats as u64).unwrap();
            let mut step = 0;
            while let Some(p) = Game::prompt(&g) {
                step += 1;
                if step % 3 == 0 {
                    let public = g.public_view();
                    // The deciding seat and a seat waiting for its turn.
                    for seat in [p.seat, p.seat.next(seats)] {
                        let private = g.private_view(seat);
                        let imagined = Gates::imagine(&public, private.as_ref(), seat, &mut rng)
                            .unwrap_or_else(|| panic!("no imagined game at step {step}"));
                        assert_eq!(imagined.public_view(), public, "step {step}");
                        assert_eq!(imagined.private_view(seat), private, "step {step}");
                        // Its options may name the active seat's cards: only that seat's
                        // imagined prompt is whole.
                        let prompt = Game::prompt(&imagined).unwrap();
                        assert_eq!((prompt.seat, prompt.kind), (p.seat, p.kind));
                        if seat == p.seat {
                            assert_eq!(prompt, p);
                        }
                        invariants(&imagined);
                        checked += 1;
                    }
                }
                let pick = p.options[rng.gen_range(0..p.options.len())];
                Game::apply(&mut g, p.seat, &pick).unwrap();
            }
            // Over: nothing to imagine.
            let private = g.private_view(RED);
            assert!(Gates::imagine(&g.public_view(), private.as_ref(), RED, &mut rng).is_none());
        }
        assert!(checked > 100, "{checked}");
    }

    /// Another seat's view is refused: a bot imagines only from its own hand.
    #[test]
    fn imagine_needs_the_seats_own_view() {
        let g = random_position(3, 4, 10);
        let mut rng = rng_from_seed(1);
        let public = g.public_view();
        let blue = g.private_view(BLUE);
        assert!(Gates::imagine(&public, blue.as_ref(), RED, &mut rng).is_none());
        assert!(Gates::imagine(&public, None, RED, &mut rng).is_none());
    }

    /// Bots at every seat play whole decisions through the engine: each answer is one of the
    /// listed options, and most come from the search (the rest are an easy bot's slips).
    #[test]
    fn the_bot_only_picks_listed_options() {
        for (seats, seed) in [(2, 1u64), (4, 2)] {
            let mut g = Gates::setup(&options(&[]), seats, seed).unwrap();
            let mut searched = 0;
            for step in 0..40u64 {
                let Some(p) = AnyGame::prompt(&g) else { break };
                let m = BotPlayer::bot_option(&g, Level::Easy, seed * 1000 + step).unwrap();
                assert_eq!(m.seat, p.seat);
                assert!(p.options.contains(&m.notation), "{} not listed", m.notation);
                if m.method == Method::Search {
                    searched += 1;
                }
                AnyGame::apply_notation(&mut g, p.seat, &m.notation).unwrap();
            }
            assert!(searched >= 5, "{searched} searched decisions");
        }
    }

    /// Honesty: dealing the other hands, the action deck, the gate deck, the face-down
    /// scrolls and the RNG differently, while everything the seat sees stays equal, leaves
    /// the bot's choice unchanged.
    #[test]
    fn the_bot_ignores_what_it_cannot_see() {
        let mut compared = 0;
        for (seats, seed, steps) in [(2, 3u64, 30), (3, 5, 45), (4, 8, 70), (2, 13, 90)] {
            let g = random_position(seats, seed, steps);
            let Some(p) = Game::prompt(&g) else { continue };
            let mut h = g.clone();
            let mut rng = rng_from_seed(seed);
            let mut hidden: Vec<CardId> = h.deck.clone();
            for s in h.seat_ids().filter(|&s| s != p.seat) {
                hidden.extend(h.player(s).hand.iter().copied());
            }
            hidden.shuffle(&mut rng);
            let mut it = hidden.into_iter();
            for s in h.seat_ids().filter(|&s| s != p.seat) {
                let n = h.player(s).hand.len();
                h.player_mut(s).hand = it.by_ref().take(n).collect();
                h.player_mut(s).last_drawn.clear();
            }
            h.deck = it.collect();
            h.gate_deck.shuffle(&mut rng);
            let mut face_down: Vec<Scroll> = h
                .scrolls
                .iter()
                .filter(|s| !s.revealed)
                .map(|s| s.scroll)
                .chain(h.out_scrolls.iter().copied())
                .collect();
            face_down.shuffle(&mut rng);
            for slot in h.scrolls.iter_mut().filter(|s| !s.revealed) {
                slot.scroll = face_down.pop().unwrap();
            }
            h.out_scrolls = face_down;
            h.rng = rng_from_seed(seed + 99);
            assert_ne!(AnyGame::to_json(&g), AnyGame::to_json(&h));
            assert_eq!(g.public_view(), h.public_view());
            assert_eq!(g.private_view(p.seat), h.private_view(p.seat));
            for decision in 0..3 {
                let a = BotPlayer::bot_option(&g, Level::Easy, decision).unwrap();
                let b = BotPlayer::bot_option(&h, Level::Easy, decision).unwrap();
                assert_eq!(a, b, "seats {seats}, seed {seed}");
                compared += 1;
            }
        }
        assert!(compared >= 9);
    }

    /// The last monstrosity is left, the bot trails, and its Kingsport gate lacks one card
    /// that lies in the pool (the rival's Kingsport gate lacks one too): taking that card
    /// opens the gate and wins at once. The bot takes it, whatever the seed.
    #[test]
    fn the_bot_takes_the_card_that_wins() {
        let mut g = new(2, &[]);
        at_turn(&mut g, RED, Mode::Insane);
        give(&mut g, RED, &["p01", "x01", "x03", "x05", "x07"]);
        let opened = |region, cards, disc| Gate {
            region,
            cards,
            state: GateState::Opened { disc },
        };
        g.discs = vec![15];
        g.players[0].gates = vec![opened(Region::Ark, 6, 12), opened(Region::Sal, 6, 14)];
        g.players[1].gates = vec![opened(Region::Inn, 7, 13)];
        building(&mut g, RED, "kin", 4);
        building(&mut g, BLUE, "kin", 4);
        g.players[0].score = 26;
        g.players[1].score = 30;
        gates_setup(&mut g, ["sal", "inn", "kin", "ark"], &["roc", "sal"]);
        invariants(&g);
        run(&mut g, "play p01");
        assert_eq!(kind(&g), "take_gate_card");
        for seed in 1..=3 {
            let m = BotPlayer::bot_option(&g, Level::Normal, seed).unwrap();
            assert_eq!(m.notation, "take 3", "seed {seed}");
            assert_eq!(m.method, Method::Search);
        }
    }

    /// The estimate counts what the journals will score, not only the running score.
    #[test]
    fn the_estimate_values_journals_before_the_end() {
        let mut g = new(2, &[]);
        at_turn(&mut g, RED, Mode::Sane);
        for id in ["p03", "p04", "p05"] {
            remove_everywhere(&mut g, c(id));
            g.player_mut(RED).filed.push(c(id));
        }
        assert_eq!(Game::scores(&g), vec![0, 0]);
        let e = BotHooks::estimate(&g);
        assert!(e[0] > 0.75 && e[1] < 0.25, "{e:?}");
    }
}

// ---------------------------------------------------------------- image budget

/// The busiest boards (4 players at the end of seeded random games, where journals, gates and
/// the final score lines are all full; French labels run longest) stay within the 200 KB
/// budget (issue 21: a board uploads in a fifth of a second at 1 MB/s) once encoded by the
/// service.
#[test]
fn late_four_player_boards_fit_the_png_budget() {
    for seed in [3u64, 4] {
        let mut g = Gates::setup(&GameOptions::new(), 4, seed).unwrap();
        let mut rng = crate::engine::GameRng::seed_from_u64(seed);
        let mut before_end = g.clone();
        while let Some(p) = Game::prompt(&g) {
            before_end = g.clone();
            let pick = p.options[rng.gen_range(0..p.options.len())];
            Game::apply(&mut g, p.seat, &pick).unwrap();
        }
        for position in [&before_end, &g] {
            for lang in [Lang::En, Lang::Fr] {
                let ctx = crate::engine::RenderCtx {
                    lang,
                    names: strs(&["Mandy", "Jordan", "Sam", "Alex"]),
                    stopped: false,
                    number: None,
                };
                let img = <Gates as Present>::render_public(&position.public_view(), &ctx);
                let png = crate::service::encode_png(&img);
                assert!(
                    png.len() <= 200_000,
                    "seed {seed}, {lang:?}: {} bytes",
                    png.len()
                );
            }
        }
    }
}

// ---------------------------------------------------------------- issue 25: the rulebook's words

/// Item 1: the rulebook files every card that shows an artifact, whichever half was played
/// ("always"; its collection pages and worked examples say nothing against it). Old (spec
/// Q2, kept as `filing = played_half`): only when the artifact half was played.
#[test]
fn issue25_a_card_showing_an_artifact_is_always_filed() {
    let setup = |pairs: &[(&str, &str)]| {
        let mut g = new(3, pairs);
        at_turn(&mut g, RED, Mode::Insane);
        give(&mut g, RED, &["p06", "r03", "x01", "x02", "x03"]);
        gates_setup(&mut g, ["kin", "sal", "ark", "roc"], &[]);
        g
    };
    // New: page 6 played on its build half builds, then goes to the journal.
    let mut g = setup(&TODAY);
    let ev = run(&mut g, "play p06; take 1");
    assert!(has(
        &ev,
        &Event::ArtifactCollected {
            seat: RED,
            card: c("p06"),
            artifact: components::Effect::Page { page: 6 },
        }
    ));
    assert!(!ev.iter().any(|e| matches!(e, Event::CardToDiscard { .. })));
    assert_eq!(g.player(RED).filed, vec![c("p06")]);
    assert_eq!(g.player(RED).pages(), vec![6]);
    assert!(g.discard.is_empty());
    assert_eq!(g.player(RED).gates.len(), 1, "the build half still built");
    invariants(&g);
    // The same in a sane round with a rune card played on its send half.
    at_turn(&mut g, RED, Mode::Sane);
    run(&mut g, "play r03; send inn");
    assert_eq!(g.player(RED).filed, vec![c("p06"), c("r03")]);
    assert_eq!(g.player(RED).runes(), 1);
    // A plain card shows no artifact: discarded as before.
    run(&mut g, "play x01; send inn; send inn");
    assert_eq!(g.discard, vec![c("x01")]);
    invariants(&g);
    // Old: the build half of p06 sends the card to the discard pile, page 6 not collected.
    let mut g = setup(&[("filing", "played_half")]);
    let ev = run(&mut g, "play p06; take 1");
    assert!(has(
        &ev,
        &Event::CardToDiscard {
            seat: RED,
            card: c("p06")
        }
    ));
    assert!(g.player(RED).filed.is_empty());
    assert_eq!(g.discard, vec![c("p06")]);
    invariants(&g);
}

/// Item 1, the card data: with every artifact card filed, the strong actions moved to the
/// plain cards (see `action_cards.toml`); `filing = played_half` plays the old halves, and
/// both sets keep every total of spec section 3.2.
#[test]
fn issue25_card_halves_follow_the_filing_rule() {
    use components::Effect::{Build, Convert, Send};
    let data = components::data().unwrap();
    let send = |i, d| Send {
        investigators: i,
        despair: d,
    };
    let build = |s, d| Build {
        sections: s,
        despair: d,
    };
    let new = Gates::setup(&GameOptions::new(), 2, 1).unwrap();
    let old = Gates::setup(&options(&[]), 2, 1).unwrap();
    for (id, half, now, before) in [
        ("r02", Mode::Sane, send(1, 1), send(2, 1)),
        ("x01", Mode::Sane, send(2, 1), send(1, 1)),
        ("p07", Mode::Insane, Convert, build(2, 1)),
        ("b12", Mode::Insane, Convert, build(2, 1)),
        ("x03", Mode::Insane, build(2, 1), Convert),
        ("p01", Mode::Insane, build(1, 1), build(1, 1)),
    ] {
        assert_eq!(new.card_effect(c(id), half), now, "{id}");
        assert_eq!(old.card_effect(c(id), half), before, "{id}");
    }
    // Per half, the totals of every effect are the same in both sets.
    for half in [Mode::Sane, Mode::Insane] {
        let tally = |g: &Gates| {
            let mut v: Vec<String> = (0..80u8)
                .map(|i| g.card_effect(CardId(i), half).code())
                .collect();
            v.sort();
            v
        };
        assert_eq!(tally(&new), tally(&old), "{half:?}");
    }
    // Artifacts never moved: they are what the journal scores.
    for def in &data.cards {
        assert_eq!(
            def.artifact(),
            [def.old_sane, def.old_insane]
                .into_iter()
                .find(|e| e.is_artifact())
        );
    }
    // The private hand shows the halves of the game's set.
    let mut g = new.clone();
    give(&mut g, RED, &["x01", "x02", "x03", "x04", "x05"]);
    let hand = g.private_view(RED).unwrap().hand;
    assert_eq!(hand[0].sane, send(2, 1));
}

/// Item 2: a neutral converted while the converter's supply is empty simply leaves the board
/// (the rulebook's two-player page; nothing in the rulebook asks for the swap, whose
/// empty-supply passage speaks of rival investigators). Old (HOUSE, kept as
/// `neutral_convert = swap`): it was swapped with one of the converter's investigators.
#[test]
fn issue25_a_neutral_converted_with_an_empty_supply_is_removed() {
    let setup = |pairs: &[(&str, &str)]| {
        let mut g = new(2, pairs);
        at_turn(&mut g, RED, Mode::Insane);
        give(&mut g, RED, &["p05", "x02", "x04", "x06", "x08"]);
        put(&mut g, "inn", Owner::Red, 7);
        put(&mut g, "sal", Owner::Red, 3);
        assert_eq!(g.player(RED).supply, 0);
        g
    };
    // New: the neutral leaves Kingsport, Red's investigators stay where they are.
    let mut g = setup(&TODAY);
    run(&mut g, "play p05");
    assert!(opts(&g).contains(&"convert kin neutral".to_string()));
    let ev = run(&mut g, "convert kin neutral");
    assert!(has(
        &ev,
        &Event::NeutralRemoved {
            seat: RED,
            region: Region::Kin
        }
    ));
    assert_eq!(count(&g, "kin", Owner::Neutral), 0);
    assert_eq!(count(&g, "kin", Owner::Red), 0);
    assert_eq!(
        (count(&g, "inn", Owner::Red), count(&g, "sal", Owner::Red)),
        (7, 3)
    );
    assert_eq!(kind(&g), "play_card", "the card is finished");
    invariants(&g);
    // A rival is still swapped when the supply is empty.
    at_turn(&mut g, RED, Mode::Insane);
    put(&mut g, "ark", Owner::Blue, 1);
    give(&mut g, RED, &["p10", "x02", "x04", "x06", "x08"]);
    run(&mut g, "play p10; convert ark blue");
    assert_eq!(kind(&g), "convert_swap_with");
    // All ten of Red's in Kingsport: nothing to swap with, yet its neutral can go (new);
    // the old rule refused that target.
    for (pairs, legal) in [(&TODAY[..], true), (&[][..], false)] {
        let mut g = new(2, pairs);
        at_turn(&mut g, RED, Mode::Insane);
        give(&mut g, RED, &["p05", "x02", "x04", "x06", "x08"]);
        put(&mut g, "kin", Owner::Red, 10);
        run(&mut g, "play p05");
        assert_eq!(
            opts(&g).contains(&"convert kin neutral".to_string()),
            legal,
            "{pairs:?}"
        );
        if !legal {
            refuse(&mut g, RED, "convert kin neutral", RuleError::NothingToSwap);
        }
    }
    // Old: the neutral changes places with one of Red's investigators.
    let mut g = setup(&[("neutral_convert", "swap")]);
    run(&mut g, "play p05; convert kin neutral");
    assert_eq!(kind(&g), "convert_swap_with");
    let ev = run(&mut g, "with inn");
    assert!(has(
        &ev,
        &Event::Converted {
            seat: RED,
            region: Region::Kin,
            victim: Owner::Neutral,
            swap_with: Some(Region::Inn)
        }
    ));
    assert_eq!(
        (
            count(&g, "kin", Owner::Red),
            count(&g, "inn", Owner::Neutral)
        ),
        (1, 4)
    );
    invariants(&g);
}

/// Stored games replay as they were played: a state written before issue 25 has neither
/// rule field, reads as the old rules and card halves, and a replay from seed today takes
/// them back (`keep_rules_of`), byte for byte.
#[test]
fn issue25_games_stored_before_keep_their_rules() {
    let today = Gates::setup(&GameOptions::new(), 2, 9).unwrap();
    assert!(today.opts.file_always && today.opts.neutral_remove);
    let json = AnyGame::to_json(&today);
    assert!(json.contains("\"file_always\":true") && json.contains("\"neutral_remove\":true"));
    let old = Gates::setup(&options(&[("first_player", "random")]), 2, 9).unwrap();
    let stored = AnyGame::to_json(&old);
    assert!(!stored.contains("file_always") && !stored.contains("neutral_remove"));
    let mut replayed = Gates::setup(&GameOptions::new(), 2, 9).unwrap();
    replayed.keep_rules_of_json(&stored);
    assert_eq!(AnyGame::to_json(&replayed), stored);
    assert!(!replayed.opts.file_always && !replayed.opts.neutral_remove);
}
