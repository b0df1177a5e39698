//! Space Lab tests: the data file, one test per rule of spec section 7 (r01..r30), one per
//! scenario of section 12 (t01..t15), seeded random playouts with the invariants, a leak test,
//! parser property tests and an independent scoring model.
use crate::engine::GameRng;

use super::cards::{data, load, Data, SOURCE};
use super::moves::{Action, BonusKind, EndReason, Event};
use super::state::{
    Agency, Breakdown, FinalRound, Phase, Source, SpaceLab, LAB_CARDS, PROJECT_CARDS, SLOTS,
};
use super::RuleError;
use crate::engine::{
    AnyGame, BotHooks, Game, GameOptions, PlayError, Present, Reject, RenderCtx, Seat,
};

// ---- helpers ----------------------------------------------------------------------------

fn d() -> &'static Data {
    data().unwrap()
}

fn lab(id: &str) -> u8 {
    d().find_lab(id).unwrap_or_else(|| panic!("no card {id}"))
}

fn labs(ids: &[&str]) -> Vec<u8> {
    ids.iter().map(|i| lab(i)).collect()
}

fn obj(id: &str) -> u8 {
    d().find_objective(id).unwrap()
}

fn slot(id: &str) -> usize {
    usize::from(d().find_slot(id).unwrap())
}

fn kind(code: &str) -> u8 {
    d().find_kind(code).unwrap()
}

/// Project cards of the given codes, each a different physical card.
fn projects(codes: &[&str]) -> Vec<u8> {
    let mut used: Vec<u8> = Vec::new();
    codes
        .iter()
        .map(|c| {
            let k = kind(c);
            let card = (0..24u8)
                .find(|&i| d().kind_of(i) == k && !used.contains(&i))
                .unwrap_or_else(|| panic!("no more {c}"));
            used.push(card);
            card
        })
        .collect()
}

fn opts(pairs: &[(&str, &str)]) -> GameOptions {
    pairs
        .iter()
        .map(|(k, v)| ((*k).to_string(), (*v).to_string()))
        .collect()
}

/// A game of `n` seats with seat 0 first and objectives dealt, then emptied: every Lab and
/// Project card in its deck in id order, no objectives, the first turn not started yet.
fn blank_with(n: usize, extra: &[(&str, &str)]) -> SpaceLab {
    let mut o = opts(&[
        ("first_player", "host_choice"),
        ("first_seat", "0"),
        ("objective_setup", "dealt"),
    ]);
    for (k, v) in extra {
        o.insert((*k).to_string(), (*v).to_string());
    }
    let mut g = SpaceLab::setup(&o, n, 1).unwrap();
    g.lab_deck = (0..60).collect();
    g.lab_discard.clear();
    g.centre = Default::default();
    g.revealed.clear();
    g.project_deck = (0..24).collect();
    g.piles = [0, 1, 2].map(|c| d().capsules[c].pile.clone());
    for p in &mut g.players {
        p.hand.clear();
        p.projects.clear();
        p.station = [None; SLOTS];
        p.validated = [None; 3];
        p.objectives = Some([obj("o12"), obj("o12"), obj("o12")]);
        p.drawn.clear();
        p.returned.clear();
    }
    // Every other seat holds one free card, so its turns ask (reveal or place) instead of
    // resolving by themselves.
    for (s, c) in ["red05", "blu05", "gld04"].iter().enumerate().take(n - 1) {
        g.players[s + 1].hand = labs(&[c]);
    }
    g.current = Seat(0);
    g.turn_no = 1;
    g.end = None;
    g.consecutive_passes = 0;
    g.phase = Phase::ChooseAction;
    g
}

fn blank(n: usize) -> SpaceLab {
    blank_with(n, &[])
}

/// Removes the cards a test placed from the decks (each card lives in one place only).
fn tidy(g: &mut SpaceLab) {
    let mut used: Vec<u8> = Vec::new();
    used.extend(&g.lab_discard);
    used.extend(g.centre.iter().flatten());
    used.extend(&g.revealed);
    for p in &g.players {
        used.extend(&p.hand);
        used.extend(p.station.iter().flatten());
    }
    let deck_top: Vec<u8> = g
        .lab_deck
        .iter()
        .copied()
        .filter(|c| !used.contains(c))
        .collect();
    g.lab_deck = deck_top;
    let mut pused: Vec<u8> = Vec::new();
    for p in &g.players {
        pused.extend(&p.projects);
    }
    g.project_deck.retain(|c| !pused.contains(c));
}

/// Puts `top` on top of the Lab deck (after `tidy`).
fn deck_top(g: &mut SpaceLab, top: &[&str]) {
    let top = labs(top);
    g.lab_deck.retain(|c| !top.contains(c));
    let mut deck = top;
    deck.extend(g.lab_deck.iter().copied());
    g.lab_deck = deck;
}

fn project_top(g: &mut SpaceLab, codes: &[&str]) {
    let top = projects(codes);
    g.project_deck.retain(|c| !top.contains(c));
    let mut deck = top;
    deck.extend(g.project_deck.iter().copied());
    g.project_deck = deck;
}

fn set_objectives(g: &mut SpaceLab, s: usize, o: [&str; 3]) {
    g.players[s].objectives = Some(o.map(obj));
    g.players[s].dealt = o.map(obj);
}

fn put(g: &mut SpaceLab, s: usize, pairs: &[(&str, &str)]) {
    for (sl, c) in pairs {
        g.players[s].station[slot(sl)] = Some(lab(c));
    }
}

/// Starts the current seat's turn as the engine would (automatic steps included).
fn start(g: &mut SpaceLab) -> Vec<Event> {
    tidy(g);
    let mut ctx = super::rules::Ctx::default();
    g.start_turn(&mut ctx);
    let actor = g.current;
    let mut applied = ctx.applied();
    crate::engine::take_forced(g, Some(actor), &mut applied);
    applied.events
}

/// Plays a typed line for `seat` through the game's own parser and `apply`, all or nothing.
fn act(g: &mut SpaceLab, seat: u8, line: &str) -> Result<Vec<Event>, RuleError> {
    let mut work = g.clone();
    let mut events = Vec::new();
    for seg in line.split(';').map(str::trim).filter(|s| !s.is_empty()) {
        let actions = match Game::parse(&work, Seat(seat), seg) {
            Ok(a) => a,
            Err(Reject::Rule { error, .. }) => return Err(error),
            Err(Reject::Parse(e)) => panic!("parse error in `{seg}`: {e}"),
        };
        for a in actions {
            events.extend(Game::apply(&mut work, Seat(seat), &a)?.events);
        }
    }
    *g = work;
    Ok(events)
}

fn ok(g: &mut SpaceLab, seat: u8, line: &str) -> Vec<Event> {
    act(g, seat, line).unwrap_or_else(|e| panic!("`{line}` refused: {e}"))
}

fn notations(g: &SpaceLab) -> Vec<String> {
    g.options().iter().map(|a| Game::notation(g, a)).collect()
}

fn hand(g: &SpaceLab, s: usize) -> Vec<String> {
    let mut h: Vec<String> = g.players[s].hand.iter().map(|&c| d().lab_id(c)).collect();
    h.sort();
    h
}

fn sorted(ids: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = ids.iter().map(|s| (*s).to_string()).collect();
    v.sort();
    v
}

fn ids(v: &[u8]) -> Vec<String> {
    v.iter().map(|&c| d().lab_id(c)).collect()
}

fn has(events: &[Event], f: impl Fn(&Event) -> bool) -> bool {
    events.iter().any(f)
}

fn pos(events: &[Event], f: impl Fn(&Event) -> bool) -> usize {
    events.iter().position(f).unwrap_or(usize::MAX)
}

// ---- data -------------------------------------------------------------------------------

#[test]
fn data_file_loads_with_the_spec_counts() {
    let d = d();
    assert_eq!(d.version, "house-v1");
    assert!(!d.official, "house-v1 is a HOUSE table");
    assert_eq!(d.labs.len(), 60);
    assert_eq!(d.project_kind.len(), 24);
    assert_eq!(d.objectives.len(), 12);
    assert_eq!(d.tiles.len(), 12);
    assert_eq!(d.slots.len(), 10);
    let costs = [0u8, 1, 2, 3].map(|c| d.labs.iter().filter(|l| l.cost == c).count());
    assert_eq!(costs, [20, 16, 12, 12]);
    assert_eq!(d.labs.iter().filter(|l| l.effect.instant()).count(), 16);
    for s in super::state::Specialty::ALL {
        assert_eq!(d.labs.iter().filter(|l| l.specialty == s).count(), 15);
    }
    let red13 = d.lab(lab("red13")).unwrap();
    assert_eq!((red13.cost, red13.name.as_str()), (3, "Veteran"));
    assert_eq!(
        d.lab(lab("gld03")).unwrap().specialty,
        super::state::Specialty::Pilot
    );
    let total: i64 = d.tiles.iter().map(|t| t.value).sum();
    assert_eq!(total, 46);
    assert_eq!(d.find_lab("red7"), d.find_lab("red07"));
    assert_eq!(d.find_objective("o4"), d.find_objective("o04"));
}

#[test]
fn broken_data_files_are_refused_with_clear_errors() {
    let cases = [
        ("id = \"red01\"", "id = \"red02\"", "listed twice"),
        (
            "copies = 3\nscoring = { code = \"per_specialty\", specialty = \"doctor\"",
            "copies = 4\nscoring = { code = \"per_specialty\", specialty = \"doctor\"",
            "24 Project cards",
        ),
        ("template = 13\n", "template = 99\n", "unknown template"),
        ("row = \"top\"", "row = \"roof\"", "bad row"),
        ("id = \"o01\"", "id = \"o02\"", "listed twice"),
        (
            "code = \"flat\", vp = 1",
            "code = \"flatter\", vp = 1",
            "unknown effect",
        ),
    ];
    for (from, to, want) in cases {
        let src = SOURCE.replacen(from, to, 1);
        assert_ne!(src, SOURCE, "{from}");
        let err = load(&src).unwrap_err().to_string();
        assert!(err.contains(want), "{from}: {err}");
    }
    assert!(load("not toml [").is_err());
}

// ---- spec section 7: one test per rule -----------------------------------------------------

#[test]
fn r01_hand_limit_counts_lab_cards_only_and_projects_never_pay() {
    let mut g = blank(2);
    g.players[0].hand = labs(&["red13", "blu01", "grn01", "gld01"]);
    g.players[0].projects = projects(&["medbay", "flight", "joint"]);
    g.centre[0] = labs(&["red02"]);
    start(&mut g);
    // 4 Lab cards: Reveal and Recruit stay legal whatever the Project count.
    assert_eq!(notations(&g), ["reveal", "recruit", "place"]);
    // The three other Lab cards pay (automatically: exactly as many as due); Projects stay.
    ok(&mut g, 0, "place; card red13; slot m0");
    assert_eq!(ids(&g.lab_discard), ["blu01", "grn01", "gld01"]);
    assert_eq!(g.players[0].projects.len(), 3);
    assert!(g.lab_discard.iter().all(|&c| usize::from(c) < LAB_CARDS));
}

#[test]
fn r02_five_cards_force_place_then_end_is_allowed() {
    let mut g = blank(2);
    g.players[0].hand = labs(&["red01", "red02", "blu01", "gld01", "grn01"]);
    let ev = start(&mut g);
    assert!(has(&ev, |e| matches!(
        e,
        Event::TurnStarted {
            forced_place: true,
            ..
        }
    )));
    assert!(has(&ev, |e| matches!(
        e,
        Event::ActionChosen {
            action: Action::Place,
            auto: true,
            ..
        }
    )));
    assert!(!notations(&g).contains(&"end".to_string()));
    ok(&mut g, 0, "card red01; slot m0");
    assert!(notations(&g).contains(&"end".to_string()));
}

#[test]
fn r03_reveal_and_recruit_refused_above_four_cards() {
    let mut g = blank(2);
    g.players[0].hand = labs(&["red01", "red02", "blu01", "gld01", "grn01"]);
    g.centre[1] = labs(&["blu02"]);
    start(&mut g);
    let mut ph = g.clone();
    ph.phase = Phase::ChooseAction;
    assert_eq!(ph.check(&Action::Reveal), Err(RuleError::HandTooFull));
    assert_eq!(ph.check(&Action::Recruit), Err(RuleError::HandTooFull));
    // With 4 cards a reveal may bring the hand to 7.
    let mut g = blank(2);
    g.players[0].hand = labs(&["blu13", "blu14", "blu15", "grn13"]);
    start(&mut g);
    deck_top(&mut g, &["red03", "red11", "red02"]);
    ok(&mut g, 0, "reveal");
    assert_eq!(g.players[0].hand.len(), 7);
}

#[test]
fn r04_affordability_is_rechecked_with_the_current_hand() {
    let mut g = blank(2);
    set_objectives(&mut g, 0, ["o05", "o08", "o12"]);
    g.players[0].hand = labs(&["grn04", "red10", "blu01"]);
    start(&mut g);
    deck_top(&mut g, &["gld02"]);
    // red10 (cost 2) has 2 other cards: affordable; after grn04's draw it still is.
    ok(&mut g, 0, "place; card grn04; slot m0");
    assert!(notations(&g).contains(&"card red10".to_string()));
    // A full station has nothing affordable.
    let mut g = blank(2);
    for (i, c) in [
        "red01", "red02", "red03", "red06", "red07", "red09", "red10", "red12", "red13", "red14",
    ]
    .iter()
    .enumerate()
    {
        g.players[0].station[i] = Some(lab(c));
    }
    g.players[0].hand = labs(&["blu01"]);
    tidy(&mut g);
    assert!(g.affordable().is_empty());
}

#[test]
fn r05_payment_goes_to_the_discard_never_the_centre() {
    let mut g = blank(2);
    g.players[0].hand = labs(&["red06", "blu01"]);
    start(&mut g);
    let ev = ok(&mut g, 0, "place; card red06; slot m0");
    assert_eq!(ids(&g.lab_discard), ["blu01"]);
    assert!(g.centre.iter().all(Vec::is_empty));
    assert!(has(
        &ev,
        |e| matches!(e, Event::LabPaid { ids, .. } if ids == &labs(&["blu01"]))
    ));
}

#[test]
fn r06_several_cards_in_one_place_action() {
    let mut g = blank(2);
    g.players[0].hand = labs(&["red01", "red02", "blu01"]);
    start(&mut g);
    ok(
        &mut g,
        0,
        "place; card red01; slot m0; card red02; slot m3; card blu01; slot t1",
    );
    assert_eq!(g.players[0].filled(), 3);
    assert_eq!(
        g.current,
        Seat(1),
        "the empty hand ended the action automatically"
    );
}

#[test]
fn r07_a_slot_holds_one_card_forever() {
    let mut g = blank(2);
    put(&mut g, 0, &[("m0", "gld01")]);
    g.players[0].hand = labs(&["red01", "red02"]);
    start(&mut g);
    ok(&mut g, 0, "place; card red01");
    assert!(!notations(&g).contains(&"slot m0".to_string()));
    assert_eq!(act(&mut g, 0, "slot m0"), Err(RuleError::SlotTaken));
}

#[test]
fn r08_reveal_keeps_one_agency_and_never_the_centre() {
    let mut g = blank(2);
    g.players[0].hand = labs(&["gld01", "gld02"]);
    g.centre[1] = labs(&["blu02"]);
    start(&mut g);
    deck_top(&mut g, &["red03", "blu07", "red11"]);
    ok(&mut g, 0, "reveal");
    assert_eq!(notations(&g), ["take red", "take blue"]);
    ok(&mut g, 0, "take blue");
    assert_eq!(hand(&g, 0), sorted(&["gld01", "gld02", "blu07"]));
    assert_eq!(ids(&g.centre[1]), ["blu02"]);
    assert_eq!(ids(&g.centre[0]), ["red03", "red11"]);
}

#[test]
fn r09_recruit_takes_the_whole_pile() {
    let mut g = blank(2);
    g.centre[3] = labs(&["gld06", "gld09", "gld14"]);
    g.centre[0] = labs(&["red02"]);
    start(&mut g);
    ok(&mut g, 0, "recruit; take gold");
    assert_eq!(hand(&g, 0), sorted(&["gld06", "gld09", "gld14"]));
    assert!(g.centre[3].is_empty());
}

#[test]
fn r10_instant_gain_fires_in_any_slot_before_the_slot_effect() {
    for s in ["t1", "m0", "b1"] {
        let mut g = blank(2);
        g.players[0].hand = labs(&["red08", "blu01"]);
        start(&mut g);
        project_top(&mut g, &["crew", "joint"]);
        let ev = ok(
            &mut g,
            0,
            &format!("place; card red08; slot {s}; pay blu01"),
        );
        let i = pos(&ev, |e| {
            matches!(
                e,
                Event::ProjectsDrawn {
                    source: Source::Instant,
                    ..
                }
            )
        });
        assert!(i < usize::MAX, "{s}");
        let top = pos(&ev, |e| {
            matches!(
                e,
                Event::ProjectsDrawn {
                    source: Source::Top,
                    ..
                }
            )
        });
        if s == "t1" {
            assert!(i < top);
        }
    }
}

#[test]
fn r11_top_slot_draws_cost_projects_and_cost_zero_draws_none() {
    let mut g = blank(2);
    g.players[0].hand = labs(&["blu01", "red01"]);
    start(&mut g);
    let ev = ok(&mut g, 0, "place; card blu01; slot t1");
    assert!(!has(&ev, |e| matches!(e, Event::ProjectsDrawn { .. })));
    assert_eq!(g.project_deck.len(), 24);
}

#[test]
fn r12_short_project_deck_draws_what_is_there() {
    let mut g = blank(2);
    g.players[0].hand = labs(&["gld13", "red01", "red02", "red03"]);
    start(&mut g);
    g.project_deck = projects(&["crew", "joint"]);
    ok(
        &mut g,
        0,
        "place; card gld13; slot t3; pay red01; pay red02; pay red03",
    );
    assert_eq!(notations(&g), ["keep crew", "keep joint"]);
}

#[test]
fn r13_middle_slots_have_no_effect_and_inner_ones_touch_two_capsules() {
    assert_eq!(d().slots[slot("m1")].capsules, [0, 1]);
    assert_eq!(d().slots[slot("m2")].capsules, [1, 2]);
    assert_eq!(d().slots[slot("m0")].capsules, [0]);
    let mut g = blank(2);
    g.players[0].hand = labs(&["red06", "blu01"]);
    start(&mut g);
    let before = g.project_deck.len();
    let ev = ok(&mut g, 0, "place; card red06; slot m1; pay blu01");
    assert_eq!(g.project_deck.len(), before);
    assert!(!has(&ev, |e| matches!(
        e,
        Event::BottomEffect { .. } | Event::ProjectsDrawn { .. }
    )));
}

#[test]
fn r14_bottom_effect_checks_specialty_not_agency() {
    // o03: researcher -> recruit own agency. red07 is a researcher; red06 a pilot.
    let mut g = blank(2);
    set_objectives(&mut g, 0, ["o12", "o12", "o03"]);
    g.players[0].hand = labs(&["red06", "gld01"]);
    g.centre[0] = labs(&["red10"]);
    start(&mut g);
    let ev = ok(&mut g, 0, "place; card red06; slot b3; pay gld01");
    assert!(!has(&ev, |e| matches!(e, Event::BottomEffect { .. })));
    assert_eq!(ids(&g.centre[0]), ["red10"]);
}

#[test]
fn r15_validation_needs_two_x_and_one_y_among_four_slots() {
    let mut g = blank(2);
    set_objectives(&mut g, 0, ["o04", "o12", "o12"]); // 2 blue + 1 red around c1
    put(&mut g, 0, &[("t1", "blu06"), ("m0", "blu07")]);
    g.players[0].hand = labs(&["grn01", "red01"]);
    start(&mut g);
    let ev = ok(&mut g, 0, "place; card grn01; slot b1");
    assert!(!has(&ev, |e| matches!(e, Event::ObjectiveValidated { .. })));
    let ev = ok(&mut g, 0, "card red01; slot m1");
    assert!(has(&ev, |e| matches!(
        e,
        Event::ObjectiveValidated {
            capsule: 0,
            value: 5,
            ..
        }
    )));
}

#[test]
fn r16_each_capsule_validates_once_with_the_pile_top() {
    let mut g = blank(2);
    set_objectives(&mut g, 0, ["o04", "o12", "o12"]);
    put(
        &mut g,
        0,
        &[("t1", "blu06"), ("m0", "blu07"), ("b1", "red01")],
    );
    g.players[0].validated[0] = Some(g.piles[0].remove(0));
    g.players[0].hand = labs(&["blu02"]);
    start(&mut g);
    let ev = ok(&mut g, 0, "place; card blu02; slot m1");
    assert!(!has(&ev, |e| matches!(
        e,
        Event::ObjectiveValidated { capsule: 0, .. }
    )));
    assert_eq!(g.piles[0].len(), 3);
}

#[test]
fn r17_two_capsules_resolve_c1_before_c2() {
    let mut g = t07_position();
    let ev = ok(&mut g, 0, "place; card blu01; slot m1");
    assert!(matches!(g.phase, Phase::Bonus));
    let c1 = pos(&ev, |e| {
        matches!(e, Event::ObjectiveValidated { capsule: 0, .. })
    });
    assert!(c1 < usize::MAX);
    let ev = ok(&mut g, 0, "bonus project");
    let c2 = pos(&ev, |e| {
        matches!(e, Event::ObjectiveValidated { capsule: 1, .. })
    });
    assert!(c2 < usize::MAX, "c2 resolves after c1's bonus");
}

#[test]
fn r18_first_tile_of_each_pile_gives_a_bonus_draw() {
    let mut g = t07_position();
    ok(&mut g, 0, "place; card blu01; slot m1");
    assert_eq!(notations(&g), ["bonus lab", "bonus project"]);
    // With the option off, no bonus prompt at all.
    let mut g = t07_position();
    g.opts.validation_bonus = false;
    let ev = ok(&mut g, 0, "place; card blu01; slot m1");
    assert!(!has(&ev, |e| matches!(e, Event::ValidationBonus { .. })));
    assert_eq!(g.players[0].validated_count(), 2);
    assert_eq!(
        g.current,
        Seat(1),
        "gld13 is not affordable: the action ended by itself"
    );
}

#[test]
fn r19_an_empty_pile_still_validates_for_zero() {
    let mut g = blank(2);
    set_objectives(&mut g, 0, ["o04", "o12", "o12"]);
    put(&mut g, 0, &[("t1", "blu06"), ("m0", "blu07")]);
    g.piles[0].clear();
    g.players[0].hand = labs(&["red01"]);
    start(&mut g);
    let ev = ok(&mut g, 0, "place; card red01; slot m1");
    assert!(has(&ev, |e| matches!(
        e,
        Event::ObjectiveValidated {
            capsule: 0,
            value: 0,
            ..
        }
    )));
    assert_eq!(g.players[0].validated_count(), 1);
}

#[test]
fn r20_resolution_order_is_pay_place_instant_slot_validation() {
    let (mut g, _) = t08a_position();
    let ev = ok(
        &mut g,
        0,
        "place; card grn11; slot b2; pay red01; pay blu01",
    );
    let order = [
        pos(&ev, |e| matches!(e, Event::LabPaid { .. })),
        pos(&ev, |e| matches!(e, Event::LabPlaced { .. })),
        pos(&ev, |e| {
            matches!(
                e,
                Event::LabsDrawn {
                    source: Source::Instant,
                    ..
                }
            )
        }),
        pos(&ev, |e| {
            matches!(
                e,
                Event::ProjectsDrawn {
                    source: Source::Bottom,
                    ..
                }
            )
        }),
    ];
    assert!(order.windows(2).all(|w| w[0] < w[1]), "{order:?}");
    assert_eq!(g.prompt_kind(), Some("keep_project"));
}

#[test]
fn r21_trigger_finishes_the_placement_then_ends_the_turn() {
    let mut g = t09_position(&[("trigger_ends_turn", "true")]);
    let ev = ok(&mut g, 1, "place; card gld02; slot m2");
    assert!(has(
        &ev,
        |e| matches!(e, Event::EndTriggered { reasons, .. } if reasons == &vec![EndReason::ThreeObjectives])
    ));
    assert_eq!(g.current, Seat(2));
    assert_eq!(g.players[1].hand.len(), 3, "cards left in hand are kept");
}

#[test]
fn r22_others_once_gives_every_other_seat_one_turn() {
    let mut g = t09_position(&[("trigger_ends_turn", "true")]);
    ok(&mut g, 1, "place; card gld02; slot m2");
    let mut seen = Vec::new();
    while g.phase != Phase::Over {
        seen.push(g.current.0);
        let o = g.options()[0];
        let n = Game::notation(&g, &o);
        let who = g.to_act().unwrap();
        ok(&mut g, who.0, &n);
        if seen.len() > 100 {
            panic!("no end");
        }
    }
    seen.dedup();
    assert_eq!(seen, [2, 3, 0]);
}

#[test]
fn r23_equal_turns_stops_before_the_first_player() {
    let mut g = t09_position(&[("final_round", "equal_turns")]);
    let ev = ok(&mut g, 1, "place; card gld02; slot m2");
    assert!(has(
        &ev,
        |e| matches!(e, Event::EndTriggered { still_to_play, .. } if still_to_play == &vec![Seat(2), Seat(3)])
    ));
    // Trigger just before the first player: the game ends at once.
    let mut g = t10_position(&[("final_round", "equal_turns")]);
    let ev = ok(&mut g, 3, "place; card red01; slot b1");
    assert!(has(&ev, |e| matches!(e, Event::GameOver { .. })));
    assert_eq!(g.phase, Phase::Over);
}

#[test]
fn r24_no_new_trigger_in_the_final_round() {
    let mut g = t10_position(&[]);
    ok(&mut g, 3, "place; card red01; slot b1");
    assert_eq!(g.current, Seat(0));
    // A fills its 10th slot in its final turn: nothing new happens and the turn goes on.
    for (i, c) in [
        "red03", "red06", "red07", "red09", "red10", "red12", "red13", "red14", "red15",
    ]
    .iter()
    .enumerate()
    {
        g.players[0].station[i] = Some(lab(c));
    }
    g.phase = Phase::ChooseAction;
    tidy(&mut g);
    let ev = ok(&mut g, 0, "place; card blu02; slot b3");
    assert_eq!(g.players[0].filled(), 10);
    assert!(!has(&ev, |e| matches!(e, Event::EndTriggered { .. })));
    assert_eq!(g.current, Seat(1));
}

#[test]
fn r25_no_legal_action_passes_and_n_passes_stall() {
    let mut g = blank(2);
    g.lab_deck.clear();
    g.players[0].hand = labs(&["red13"]);
    g.players[1].hand = labs(&["blu13"]);
    g.lab_deck.clear();
    let mut ctx = super::rules::Ctx::default();
    g.start_turn(&mut ctx);
    assert!(has(&ctx.events, |e| matches!(
        e,
        Event::TurnPassed { seat: Seat(0) }
    )));
    assert!(has(&ctx.events, |e| matches!(
        e,
        Event::TurnPassed { seat: Seat(1) }
    )));
    assert!(has(&ctx.events, |e| matches!(
        e,
        Event::GameOver { stall: true, .. }
    )));
    assert_eq!(g.phase, Phase::Over);
}

#[test]
fn r26_empty_lab_deck_reshuffles_the_discard() {
    let mut g = blank(2);
    g.players[0].hand.clear();
    tidy(&mut g);
    let rest: Vec<u8> = g
        .lab_deck
        .drain(..)
        .filter(|&c| c != lab("red01"))
        .collect();
    g.lab_deck = labs(&["red01"]);
    g.lab_discard = labs(&["blu01", "blu02", "gld05"]);
    let _ = rest;
    let ev = start(&mut g);
    let r = pos(&ev, |e| matches!(e, Event::LabDeckReshuffled { count: 3 }));
    let v = pos(&ev, |e| matches!(e, Event::LabsRevealed { .. }));
    assert!(r < v);
    assert!(g.lab_discard.is_empty());
}

#[test]
fn r27_returned_projects_go_under_the_deck_and_are_never_reshuffled() {
    let mut g = t05_position();
    ok(
        &mut g,
        0,
        "card red13; slot t2; pay blu01; pay grn04; pay gld02; keep medbay",
    );
    let n = g.project_deck.len();
    let bottom: Vec<u8> = g.project_deck[n - 2..]
        .iter()
        .map(|&c| d().kind_of(c))
        .collect();
    assert_eq!(bottom, [kind("flight"), kind("programme")]);
    assert_eq!(n + g.players[0].projects.len(), PROJECT_CARDS);
}

#[test]
fn r28_public_view_holds_counts_not_hands() {
    let mut g = blank(2);
    g.players[0].hand = labs(&["red13", "blu01"]);
    g.players[0].projects = projects(&["crew"]);
    g.lab_discard = labs(&["gld05"]);
    tidy(&mut g);
    let v = g.build_public();
    assert_eq!(v.stations[0].hand, 2);
    assert_eq!(v.stations[0].projects, 1);
    assert_eq!(v.discard.len(), 1);
    let json = serde_json::to_string(&v).unwrap();
    assert!(!json.contains("red13") && !json.contains("crew"), "{json}");
}

#[test]
fn r29_stations_only_change_on_their_owners_turn() {
    let mut g = blank(2);
    g.players[0].hand = labs(&["red01"]);
    g.players[1].hand = labs(&["blu01"]);
    start(&mut g);
    assert_eq!(act(&mut g, 1, "place"), Err(RuleError::NotYourTurn));
    let before = g.players[1].station;
    ok(&mut g, 0, "place; card red01; slot m0");
    assert_eq!(g.players[1].station, before);
}

#[test]
fn r30_unused_objectives_never_appear() {
    let g = SpaceLab::setup(&GameOptions::new(), 2, 5).unwrap();
    let v = serde_json::to_string(&g.build_public()).unwrap();
    let dealt: Vec<String> = g
        .players
        .iter()
        .flat_map(|p| p.dealt)
        .map(|o| d().objective_id(o))
        .collect();
    for o in &d().objectives {
        assert_eq!(
            v.contains(&format!("\"{}\"", o.id)),
            dealt.contains(&o.id),
            "{}",
            o.id
        );
    }
}

// ---- spec section 12 scenarios ------------------------------------------------------------

#[test]
fn t01_setup_three_players() {
    let g = SpaceLab::setup(&opts(&[("first_player", "host_choice")]), 3, 9).unwrap();
    assert_eq!(g.lab_deck.len(), 60);
    assert_eq!(g.project_deck.len(), 24);
    assert!(g.lab_discard.is_empty() && g.centre.iter().all(Vec::is_empty));
    let mut all: Vec<u8> = g.players.iter().flat_map(|p| p.dealt).collect();
    all.sort_unstable();
    all.dedup();
    assert_eq!(all.len(), 9);
    let vals: Vec<Vec<i64>> = g
        .piles
        .iter()
        .map(|p| p.iter().map(|&t| d().tile(t).unwrap().value).collect())
        .collect();
    assert_eq!(vals, [vec![5, 4, 3, 2], vec![6, 5, 4, 3], vec![5, 4, 3, 2]]);
    assert_eq!(g.prompt_kind(), Some("arrange_objectives"));
    assert_eq!(g.options().len(), 6);
    let mut g = g;
    for s in 0..3u8 {
        let a = Game::notation(&g, &g.options()[0]);
        let ev = ok(&mut g, s, &a);
        if s == 2 {
            assert!(has(&ev, |e| matches!(
                e,
                Event::ActionChosen {
                    action: Action::Reveal,
                    auto: true,
                    ..
                }
            )));
        }
    }
}

#[test]
fn t02_action_legality_and_the_hand_limit() {
    // (a)
    let mut g = blank(2);
    g.players[0].hand = labs(&["red13", "blu01", "grn04", "gld02"]);
    g.centre[1] = labs(&["blu07"]);
    start(&mut g);
    assert_eq!(notations(&g), ["reveal", "recruit", "place"]);
    ok(&mut g, 0, "place");
    assert_eq!(
        notations(&g),
        ["card red13", "card blu01", "card grn04", "card gld02"]
    );
    // (b)
    let mut g = blank(2);
    g.players[0].hand = labs(&["red13", "blu13", "gld13"]);
    let ev = start(&mut g);
    assert!(has(&ev, |e| matches!(
        e,
        Event::ActionChosen {
            action: Action::Reveal,
            auto: true,
            ..
        }
    )));
    // (c)
    let mut g = blank(2);
    g.players[0].hand = labs(&["red01", "red02", "blu01", "gld01", "grn01"]);
    start(&mut g);
    assert_eq!(notations(&g).len(), 5);
    ok(&mut g, 0, "card red01; slot m0");
    assert_eq!(
        notations(&g),
        [
            "card red02",
            "card blu01",
            "card grn01",
            "card gld01",
            "end"
        ]
    );
    ok(&mut g, 0, "end");
    assert_eq!(g.players[0].hand.len(), 4);
    // (d)
    let mut g = blank(2);
    g.players[0].hand = labs(&["blu13", "blu14", "blu15", "grn13"]);
    g.players[1].hand = labs(&["gld01"]);
    start(&mut g);
    deck_top(&mut g, &["red03", "red11", "red02"]);
    ok(&mut g, 0, "reveal");
    assert_eq!(g.players[0].hand.len(), 7);
    ok(&mut g, 1, "place; card gld01; slot m0");
    assert!(
        matches!(g.phase, Phase::PlaceCard { .. }),
        "forced place for A"
    );
}

#[test]
fn t03_reveal_with_a_choice() {
    let mut g = blank(2);
    g.players[0].hand = labs(&["gld01", "gld02"]);
    g.centre[1] = labs(&["blu02"]);
    start(&mut g);
    deck_top(&mut g, &["red03", "blu07", "red11"]);
    let applied = Game::apply(&mut g, Seat(0), &Action::Reveal).unwrap();
    assert!(applied.barrier, "B1");
    assert!(applied.events.contains(&Event::LabsRevealed {
        ids: labs(&["red03", "blu07", "red11"])
    }));
    assert_eq!(notations(&g), ["take red", "take blue"]);
    ok(&mut g, 0, "take red");
    assert_eq!(hand(&g, 0), sorted(&["gld01", "gld02", "red03", "red11"]));
    assert_eq!(ids(&g.centre[1]), ["blu02", "blu07"]);
    assert_eq!(g.current, Seat(1));
}

#[test]
fn t04_recruit_and_single_colour_reveal() {
    let mut g = blank(2);
    g.centre[0] = labs(&["red02"]);
    g.centre[3] = labs(&["gld06", "gld09", "gld14"]);
    g.players[0].hand = labs(&["blu01", "blu02", "blu03", "blu04"]);
    start(&mut g);
    ok(&mut g, 0, "recruit; take gold");
    assert_eq!(g.players[0].hand.len(), 7);
    assert!(g.centre[3].is_empty());
    assert_eq!(ids(&g.centre[0]), ["red02"]);
    // (b)
    let mut g = blank(2);
    start(&mut g);
    let mut g2 = blank(2);
    tidy(&mut g2);
    deck_top(&mut g2, &["gld01", "gld05", "gld12"]);
    let ev = start(&mut g2);
    assert!(has(&ev, |e| matches!(
        e,
        Event::Auto {
            action: Action::Take(Agency::Gold),
            ..
        }
    )));
    assert_eq!(hand(&g2, 0), sorted(&["gld01", "gld05", "gld12"]));
    assert!(g2.centre.iter().all(Vec::is_empty));
    let _ = g;
}

fn t05_position() -> SpaceLab {
    let mut g = blank(2);
    set_objectives(&mut g, 0, ["o04", "o01", "o10"]);
    g.players[0].hand = labs(&["red13", "blu01", "grn04", "gld02", "red06"]);
    start(&mut g);
    project_top(&mut g, &["flight", "programme", "medbay"]);
    g
}

#[test]
fn t05_paying_top_slot_keep_one_of_three() {
    let mut g = t05_position();
    assert_eq!(g.prompt_kind(), Some("place_card"));
    let ev = ok(
        &mut g,
        0,
        "card red13; slot t2; pay blu01; pay grn04; pay gld02",
    );
    assert_eq!(ids(&g.lab_discard), ["blu01", "grn04", "gld02"]);
    assert_eq!(g.players[0].station[slot("t2")], Some(lab("red13")));
    assert!(has(
        &ev,
        |e| matches!(e, Event::ProjectsDrawn { source: Source::Top, kinds, .. } if kinds.len() == 3)
    ));
    assert_eq!(
        notations(&g),
        ["keep flight", "keep programme", "keep medbay"]
    );
    let ev = ok(&mut g, 0, "keep medbay");
    assert_eq!(
        g.players[0]
            .projects
            .iter()
            .map(|&c| d().kind_of(c))
            .collect::<Vec<_>>(),
        [kind("medbay")]
    );
    assert_eq!(g.players[0].validated_count(), 0);
    assert!(has(&ev, |e| matches!(
        e,
        Event::Auto {
            action: Action::End,
            ..
        }
    )));
    assert_eq!(hand(&g, 0), ["red06"]);
    assert_eq!(g.current, Seat(1));
    // 5b: cost 0 on top draws nothing.
    let mut g = t05_position();
    let applied = Game::apply(&mut g, Seat(0), &Action::Card(lab("blu01"))).unwrap();
    assert!(!applied.barrier);
    let a = Game::apply(&mut g, Seat(0), &Action::Slot(0)).unwrap();
    assert!(!a.barrier, "no draw, no barrier");
    assert_eq!(
        notations(&g),
        [
            "card red06",
            "card red13",
            "card grn04",
            "card gld02",
            "end"
        ]
    );
    // 5c: cost 1 on top draws 1, kept automatically.
    let mut g = t05_position();
    let ev = ok(&mut g, 0, "card red06; slot t1; pay blu01");
    assert!(has(
        &ev,
        |e| matches!(e, Event::Auto { action: Action::Keep(k), .. } if *k == kind("flight"))
    ));
    assert_eq!(notations(&g), ["card grn04", "card gld02", "end"]);
    // 5d: all one code.
    let mut g = t05_position();
    project_top(&mut g, &["programme", "programme", "programme"]);
    let drawn: Vec<u8> = g.project_deck[..3].to_vec();
    ok(
        &mut g,
        0,
        "card red13; slot t2; pay blu01; pay grn04; pay gld02",
    );
    assert_eq!(g.players[0].projects, [drawn[0]]);
    let n = g.project_deck.len();
    assert_eq!(g.project_deck[n - 2..], drawn[1..]);
}

#[test]
fn t06_instant_refill_keeps_the_place_action_going() {
    let mut g = blank(2);
    set_objectives(&mut g, 0, ["o05", "o08", "o12"]);
    g.players[0].hand = labs(&["grn04", "red10", "blu01"]);
    start(&mut g);
    deck_top(&mut g, &["gld02"]);
    let applied_ev = ok(&mut g, 0, "place; card grn04; slot m0");
    assert!(has(
        &applied_ev,
        |e| matches!(e, Event::LabsDrawn { source: Source::Instant, ids, .. } if ids == &labs(&["gld02"]))
    ));
    assert_eq!(
        notations(&g),
        ["card red10", "card blu01", "card gld02", "end"]
    );
    let ev = ok(&mut g, 0, "card red10; slot m3");
    assert!(has(
        &ev,
        |e| matches!(e, Event::Auto { action: Action::Pay(c), .. } if *c == lab("blu01"))
    ));
    assert!(has(
        &ev,
        |e| matches!(e, Event::Auto { action: Action::Pay(c), .. } if *c == lab("gld02"))
    ));
    assert_eq!(g.players[0].station[slot("m3")], Some(lab("red10")));
    assert!(g.players[0].hand.is_empty());
    assert_eq!(g.players[0].validated_count(), 0);
    assert_eq!(g.current, Seat(1));
}

fn t07_position() -> SpaceLab {
    let mut g = blank(2);
    set_objectives(&mut g, 0, ["o04", "o05", "o12"]);
    put(
        &mut g,
        0,
        &[
            ("t1", "blu06"),
            ("m0", "red06"),
            ("t2", "blu10"),
            ("b2", "grn06"),
        ],
    );
    g.players[0].hand = labs(&["blu01", "gld13"]);
    start(&mut g);
    deck_top(&mut g, &["red01"]);
    project_top(&mut g, &["joint"]);
    g
}

#[test]
fn t07_one_card_validates_two_capsules_with_bonus_tiles() {
    let mut g = t07_position();
    let ev = ok(&mut g, 0, "place; card blu01; slot m1");
    assert!(has(&ev, |e| matches!(
        e,
        Event::ObjectiveValidated {
            capsule: 0,
            value: 5,
            bonus: true,
            ..
        }
    )));
    let ev = ok(&mut g, 0, "bonus project");
    assert!(has(&ev, |e| matches!(
        e,
        Event::ValidationBonus {
            kind: BonusKind::Project,
            ..
        }
    )));
    assert!(has(&ev, |e| matches!(
        e,
        Event::ObjectiveValidated {
            capsule: 1,
            value: 6,
            bonus: true,
            ..
        }
    )));
    let ev = ok(&mut g, 0, "bonus lab");
    assert!(has(
        &ev,
        |e| matches!(e, Event::ValidationBonus { kind: BonusKind::Lab, card, .. } if *card == lab("red01"))
    ));
    assert!(!has(&ev, |e| matches!(e, Event::EndTriggered { .. })));
    assert_eq!(notations(&g), ["card red01", "end"]);
    ok(&mut g, 0, "end");
    let vals: Vec<usize> = g.piles.iter().map(Vec::len).collect();
    assert_eq!(vals, [3, 3, 4]);
    assert_eq!(g.breakdown(Seat(0)).validation, 11);
    assert_eq!(
        g.players[0]
            .projects
            .iter()
            .map(|&c| d().kind_of(c))
            .collect::<Vec<_>>(),
        [kind("joint")]
    );
}

fn t08a_position() -> (SpaceLab, ()) {
    let mut g = blank(2);
    set_objectives(&mut g, 0, ["o12", "o05", "o12"]);
    put(&mut g, 0, &[("t2", "blu06"), ("m1", "blu10")]);
    g.players[0].hand = labs(&["grn11", "red01", "blu01", "gld06"]);
    start(&mut g);
    deck_top(&mut g, &["red02", "red03", "red04"]);
    project_top(&mut g, &["crew", "joint", "flight"]);
    (g, ())
}

#[test]
fn t08_bottom_slot_effects() {
    // (a)
    let (mut g, ()) = t08a_position();
    let ev = ok(
        &mut g,
        0,
        "place; card grn11; slot b2; pay red01; pay blu01",
    );
    assert!(has(
        &ev,
        |e| matches!(e, Event::LabsDrawn { source: Source::Instant, ids, .. } if ids == &labs(&["red02", "red03"]))
    ));
    assert_eq!(notations(&g), ["keep crew", "keep joint", "keep flight"]);
    let ev = ok(&mut g, 0, "keep crew");
    assert!(has(&ev, |e| matches!(
        e,
        Event::ObjectiveValidated {
            capsule: 1,
            value: 6,
            ..
        }
    )));
    let n = g.project_deck.len();
    assert_eq!(
        g.project_deck[n - 2..]
            .iter()
            .map(|&c| d().kind_of(c))
            .collect::<Vec<_>>(),
        [kind("joint"), kind("flight")]
    );
    ok(&mut g, 0, "bonus lab");
    assert_eq!(hand(&g, 0), sorted(&["gld06", "red02", "red03", "red04"]));
    assert_eq!(
        notations(&g),
        [
            "card red02",
            "card red03",
            "card red04",
            "card gld06",
            "end"
        ]
    );
    // (b)
    let (mut g, ()) = t08a_position();
    g.players[0].hand = labs(&["grn10", "red01", "blu01", "gld06"]);
    tidy(&mut g);
    let ev = ok(
        &mut g,
        0,
        "place; card grn10; slot b2; pay red01; pay blu01",
    );
    assert!(!has(&ev, |e| matches!(
        e,
        Event::LabsDrawn { .. } | Event::ProjectsDrawn { .. } | Event::BottomEffect { .. }
    )));
    assert!(has(&ev, |e| matches!(
        e,
        Event::ObjectiveValidated { capsule: 1, .. }
    )));
    assert_eq!(g.prompt_kind(), Some("validation_bonus"));
    // (c)
    let mut g = blank(2);
    set_objectives(&mut g, 0, ["o12", "o12", "o03"]);
    g.centre[0] = labs(&["red10", "red14"]);
    g.centre[1] = labs(&["blu03"]);
    g.players[0].hand = labs(&["red07", "gld01"]);
    start(&mut g);
    let applied_before = g.clone();
    let mut seq = Vec::new();
    for a in [
        Action::Place,
        Action::Card(lab("red07")),
        Action::Slot(u8::try_from(slot("b3")).unwrap()),
    ] {
        let r = Game::apply(&mut g, Seat(0), &a).unwrap();
        seq.push(r.barrier);
        if matches!(a, Action::Slot(_)) {
            assert!(r.events.iter().any(|e| matches!(e, Event::BottomEffect { taken, .. } if taken == &labs(&["red10", "red14"]))));
            assert!(r.barrier, "the turn ended (auto end)");
        }
    }
    assert_eq!(seq, [false, false, true]);
    assert!(g.centre[0].is_empty());
    assert_eq!(ids(&g.centre[1]), ["blu03"]);
    assert_eq!(g.players[0].validated_count(), 0);
    let _ = applied_before;
    // (d)
    let mut g = blank(2);
    set_objectives(&mut g, 0, ["o01", "o12", "o12"]);
    put(&mut g, 0, &[("b2", "red06"), ("b3", "gld10")]);
    g.players[0].hand = labs(&["blu04"]);
    start(&mut g);
    deck_top(&mut g, &["red01", "red02", "red03", "red04"]);
    assert_eq!(notations(&g), ["reveal", "place"]);
    let ev = ok(&mut g, 0, "place; slot b1");
    let i = pos(
        &ev,
        |e| matches!(e, Event::LabsDrawn { source: Source::Instant, ids, .. } if ids == &labs(&["red01"])),
    );
    let b = pos(
        &ev,
        |e| matches!(e, Event::LabsDrawn { source: Source::Bottom, ids, .. } if ids == &labs(&["red02", "red03", "red04"])),
    );
    assert!(i < b && b < usize::MAX, "{ev:?}");
    assert_eq!(
        notations(&g),
        [
            "card red01",
            "card red02",
            "card red03",
            "card red04",
            "end"
        ]
    );
}

fn t09_position(extra: &[(&str, &str)]) -> SpaceLab {
    let mut g = blank_with(4, extra);
    set_objectives(&mut g, 1, ["o12", "o10", "o12"]);
    put(&mut g, 1, &[("t2", "gld10"), ("m1", "red09")]);
    let t0 = g.piles[0].remove(0);
    let t2 = g.piles[2].remove(0);
    g.players[1].validated = [Some(t0), None, Some(t2)];
    g.piles[1].drain(..2);
    g.players[1].hand = labs(&["gld02", "red13", "blu01", "grn04"]);
    g.players[0].hand = labs(&["red05"]);
    g.current = Seat(1);
    start(&mut g);
    g
}

#[test]
fn t09_end_by_third_objective_final_round() {
    let mut g = t09_position(&[("trigger_ends_turn", "true")]);
    let ev = ok(&mut g, 1, "place; card gld02; slot m2");
    assert!(has(&ev, |e| matches!(
        e,
        Event::ObjectiveValidated {
            capsule: 1,
            value: 4,
            bonus: false,
            ..
        }
    )));
    assert!(has(
        &ev,
        |e| matches!(e, Event::EndTriggered { still_to_play, .. } if still_to_play == &vec![Seat(2), Seat(3), Seat(0)])
    ));
    assert_eq!(g.current, Seat(2));
    // The default since issue 25 (trigger_ends_turn = false): the player goes on placing.
    let mut g = t09_position(&[]);
    ok(&mut g, 1, "place; card gld02; slot m2");
    assert_eq!(g.current, Seat(1));
    assert_eq!(notations(&g), ["card blu01", "card grn04", "end"]);
}

/// Issue 25, item 3: the help page stops nothing after the trigger, so by default the
/// triggering player finishes the Place action (old: the turn stopped at once, kept as
/// `trigger_ends_turn = true`); a game stored under the old default replays under it.
#[test]
fn issue25_triggering_player_finishes_placing_by_default() {
    // New: the end is triggered, the player places another affordable card, then ends.
    let mut g = t09_position(&[]);
    let ev = ok(&mut g, 1, "place; card gld02; slot m2");
    assert!(has(&ev, |e| matches!(e, Event::EndTriggered { .. })));
    assert_eq!((g.current, g.prompt_kind()), (Seat(1), Some("place_card")));
    ok(&mut g, 1, "card blu01; slot m0; end");
    assert_eq!(g.current, Seat(2));
    assert_eq!(g.players[1].hand, labs(&["red13", "grn04"]));
    // Old: the same placement ends the turn with both cards still in hand.
    let mut g = t09_position(&[("trigger_ends_turn", "true")]);
    ok(&mut g, 1, "place; card gld02; slot m2");
    assert_eq!(g.current, Seat(2));
    assert_eq!(g.players[1].hand, labs(&["red13", "blu01", "grn04"]));
    // A game set up under the old default keeps it when replayed from seed today.
    let old = SpaceLab::setup(&opts(&[("trigger_ends_turn", "true")]), 3, 7).unwrap();
    let mut replayed = SpaceLab::setup(&GameOptions::new(), 3, 7).unwrap();
    assert!(!replayed.opts.trigger_ends_turn);
    replayed.keep_rules_of_json(&old.to_json());
    assert!(replayed.opts.trigger_ends_turn);
    assert_eq!(replayed.to_json(), old.to_json());
}

fn t10_position(extra: &[(&str, &str)]) -> SpaceLab {
    let mut g = blank_with(4, extra);
    set_objectives(&mut g, 3, ["o04", "o12", "o12"]);
    let cards = [
        "grn01", "grn13", "grn15", "grn05", "grn06", "grn07", "grn09", "grn10", "grn12",
    ];
    let slots = ["t1", "t2", "t3", "m0", "m1", "m2", "m3", "b2", "b3"];
    for (s, c) in slots.iter().zip(cards) {
        g.players[3].station[slot(s)] = Some(lab(c));
    }
    g.players[3].validated[2] = Some(g.piles[2].remove(0));
    g.players[3].hand = labs(&["red01", "red02"]);
    g.players[0].hand = labs(&["blu02", "blu03"]);
    g.current = Seat(3);
    start(&mut g);
    g
}

#[test]
fn t10_end_by_tenth_card_seat_before_first() {
    let mut g = t10_position(&[]);
    let ev = ok(&mut g, 3, "place; card red01; slot b1");
    assert!(has(
        &ev,
        |e| matches!(e, Event::EndTriggered { reasons, still_to_play, .. }
        if reasons == &vec![EndReason::TenCards] && still_to_play == &vec![Seat(0), Seat(1), Seat(2)])
    ));
    assert_eq!(g.current, Seat(0));
}

fn t11_players() -> SpaceLab {
    let mut g = blank(3);
    set_objectives(&mut g, 0, ["o01", "o10", "o07"]);
    put(
        &mut g,
        0,
        &[
            ("t1", "red13"),
            ("t2", "gld12"),
            ("t3", "grn14"),
            ("m0", "red02"),
            ("m1", "blu01"),
            ("m2", "gld03"),
            ("m3", "grn09"),
            ("b1", "blu04"),
            ("b2", "red06"),
            ("b3", "red07"),
        ],
    );
    let tile = |id: &str| u8::try_from(d().tiles.iter().position(|t| t.id == id).unwrap()).unwrap();
    g.players[0].validated = [Some(tile("vy1")), Some(tile("vv2")), Some(tile("vp2"))];
    set_objectives(&mut g, 1, ["o06", "o11", "o04"]);
    put(
        &mut g,
        1,
        &[
            ("t1", "blu13"),
            ("t3", "blu15"),
            ("m0", "blu03"),
            ("m1", "blu02"),
            ("m2", "gld09"),
            ("b1", "gld14"),
            ("b3", "blu06"),
        ],
    );
    g.players[1].validated = [Some(tile("vy2")), None, None];
    let all = projects(&[
        "medbay",
        "medbay",
        "programme",
        "joint",
        "crew",
        "programme",
        "programme",
        "joint",
        "joint",
        "joint",
        "diplomacy",
        "flight",
    ]);
    g.players[0].projects = all[..5].to_vec();
    g.players[1].projects = all[5..].to_vec();
    tidy(&mut g);
    g
}

#[test]
fn t11_full_final_scoring() {
    let g = t11_players();
    assert_eq!(
        g.breakdown(Seat(0)),
        Breakdown {
            lab_end: 32,
            bottom_end: 12,
            validation: 14,
            projects: 18
        }
    );
    assert_eq!(g.breakdown(Seat(0)).total(), 76);
    assert_eq!(
        g.breakdown(Seat(1)),
        Breakdown {
            lab_end: 20,
            bottom_end: 0,
            validation: 4,
            projects: 21
        }
    );
    assert_eq!(g.breakdown(Seat(1)).total(), 45);
    assert_eq!(model_score(&g, 0), 76);
    assert_eq!(model_score(&g, 1), 45);
}

#[test]
fn t12_tie_break_by_project_count_then_shared() {
    let mut g = blank(3);
    // Three Interns in the middle row = 3 VP each way; Projects decide.
    put(&mut g, 0, &[("m0", "red01")]);
    put(&mut g, 1, &[("m0", "blu01")]);
    g.players[0].projects = projects(&["joint", "joint"]);
    g.players[1].projects = projects(&["programme"]);
    tidy(&mut g);
    // Scores: A 1 + 7 = 8 (2 Projects), B 1 + 3 = 4 ... adjust B to tie at 8 with 1 Project.
    put(&mut g, 1, &[("m1", "blu09")]); // Mentor: pilot count 2 -> 2 VP; B = 1+2+3 = 6
    put(&mut g, 1, &[("m2", "blu02")]); // Duty officer middle: 2 -> B = 8
    tidy(&mut g);
    let mut ctx = super::rules::Ctx::default();
    assert_eq!(g.breakdown(Seat(0)).total(), 8);
    assert_eq!(g.breakdown(Seat(1)).total(), 8);
    let mut g2 = g.clone();
    g.end = Some(super::state::EndState {
        trigger: Seat(0),
        remaining: vec![],
    });
    g.phase = Phase::PlaceCard { filter: None };
    g.players[0].placed_this_action = 1;
    g.play(Seat(0), &Action::End).unwrap();
    let o = g.outcome.clone().unwrap();
    assert_eq!(o.ranks, [1, 2, 3]);
    // (b) equal Project counts share the rank.
    g2.players[1].projects = projects(&["programme", "crew"]);
    g2.players[1].station[slot("m2")] = None;
    g2.players[1].station[slot("m1")] = None;
    g2.players[1].station[slot("m0")] = Some(lab("blu01"));
    tidy(&mut g2);
    // B: 1 + 3 + crew 0 = 4; give B Duty Officer + Specialist to reach 8.
    put(&mut g2, 1, &[("m1", "blu02"), ("t1", "blu06")]);
    tidy(&mut g2);
    assert_eq!(g2.breakdown(Seat(1)).total(), 8);
    g2.end = Some(super::state::EndState {
        trigger: Seat(0),
        remaining: vec![],
    });
    g2.phase = Phase::PlaceCard { filter: None };
    g2.players[0].placed_this_action = 1;
    g2.play(Seat(0), &Action::End).unwrap();
    let o = g2.outcome.clone().unwrap();
    assert_eq!(o.ranks, [1, 1, 3]);
    let _ = &mut ctx;
}

#[test]
fn t13_deck_exhaustion_and_stall() {
    // (a) is r26. Payments of the same placement are reshuffled too: 1 in deck + 2 paid.
    let mut g = blank(2);
    g.players[0].hand = labs(&["grn11", "red01", "blu01"]);
    tidy(&mut g);
    g.lab_deck = labs(&["gld01"]);
    start(&mut g);
    let ev = ok(
        &mut g,
        0,
        "place; card grn11; slot m0; pay red01; pay blu01",
    );
    assert!(
        has(&ev, |e| matches!(e, Event::LabDeckReshuffled { count: 2 })),
        "{ev:?}"
    );
    assert!(
        has(
            &ev,
            |e| matches!(e, Event::LabsDrawn { ids, .. } if ids.len() == 2)
        ),
        "{ev:?}"
    );
    // (c) A draw of 3 with one card left in deck + discard gives 1, without error.
    let mut g = blank(2);
    set_objectives(&mut g, 0, ["o01", "o12", "o12"]);
    put(&mut g, 0, &[("b2", "red06"), ("b3", "gld10")]);
    g.players[0].hand = labs(&["red01", "grn01"]);
    tidy(&mut g);
    g.lab_deck = labs(&["gld01"]);
    start(&mut g);
    let ev = ok(&mut g, 0, "place; card red01; slot b1");
    assert!(
        has(
            &ev,
            |e| matches!(e, Event::LabsDrawn { source: Source::Bottom, ids, .. } if ids.len() == 1)
        ),
        "{ev:?}"
    );
    // (b) is r25.
}

#[test]
fn t14_short_project_deck() {
    let mut g = blank(2);
    g.players[0].hand = labs(&[
        "gld13", "red01", "red02", "red03", "red10", "blu01", "blu02", "red06", "blu03", "grn01",
    ]);
    start(&mut g);
    g.project_deck = projects(&["crew", "joint"]);
    ok(
        &mut g,
        0,
        "card gld13; slot t3; pay red01; pay red02; pay red03; keep crew",
    );
    assert_eq!(
        g.project_deck
            .iter()
            .map(|&c| d().kind_of(c))
            .collect::<Vec<_>>(),
        [kind("joint")]
    );
    let ev = ok(&mut g, 0, "card red10; slot t1; pay blu01; pay blu02");
    assert!(has(&ev, |e| matches!(
        e,
        Event::Auto {
            action: Action::Keep(_),
            ..
        }
    )));
    assert!(g.project_deck.is_empty());
    Game::apply(&mut g, Seat(0), &Action::Card(lab("red06"))).unwrap();
    Game::apply(&mut g, Seat(0), &Action::Slot(1)).unwrap();
    let applied = Game::apply(&mut g, Seat(0), &Action::Pay(lab("blu03"))).unwrap();
    assert!(!applied.barrier, "empty deck: nothing drawn, no barrier");
    assert!(!applied
        .events
        .iter()
        .any(|e| matches!(e, Event::ProjectsDrawn { .. })));
}

#[test]
fn t15_notation_round_trip_and_barriers() {
    let mut g = t05_position();
    // The forced place is auto; the typed line may repeat it.
    let mut any: Box<dyn AnyGame> = Box::new(g.clone());
    let moves = any
        .play_line(
            Seat(0),
            "place; card red13; slot t2; pay blu01; pay grn04; pay gld02; keep medbay",
        )
        .unwrap();
    ok(
        &mut g,
        0,
        "card red13; slot t2; pay blu01; pay grn04; pay gld02; keep medbay",
    );
    assert_eq!(any.to_json(), AnyGame::to_json(&g));
    let texts: Vec<String> = moves
        .iter()
        .flat_map(|m| m.events.iter().map(|t| t.render(Default::default())))
        .collect();
    let log = texts.join("\n");
    assert!(
        log.contains("red13") && log.contains("t2") && log.contains("blu01"),
        "{log}"
    );
    assert!(!log.contains("medbay") && !log.contains("Orbital"), "{log}");
    assert!(log.contains("end (auto)"), "{log}");
    // Lenient ids.
    let g = t05_position();
    assert_eq!(
        Game::parse(&g, Seat(0), "card red7").unwrap(),
        [Action::Card(lab("red07"))]
    );
    // An illegal token before any barrier rejects the whole line.
    let mut g = t05_position();
    put(&mut g, 0, &[("t2", "gld15")]);
    tidy(&mut g);
    let mut any: Box<dyn AnyGame> = Box::new(g.clone());
    let before = any.to_json();
    assert!(any.play_line(Seat(0), "card red13; slot t2").is_err());
    assert_eq!(any.to_json(), before);
}

#[test]
fn t15_a_line_refused_after_a_draw_keeps_the_draw() {
    // T6's position: placing grn04 in m0 draws gld02 (a barrier). The rest of the line is
    // legal up to `card blu13`, which is not in hand: the blu01 placement is rolled back, the
    // grn04 placement and its draw stand.
    let mut g = blank(2);
    set_objectives(&mut g, 0, ["o05", "o08", "o12"]);
    g.players[0].hand = labs(&["grn04", "red10", "blu01"]);
    start(&mut g);
    deck_top(&mut g, &["gld02"]);
    let mut any: Box<dyn AnyGame> = Box::new(g.clone());
    let err = any
        .play_line(
            Seat(0),
            "place; card grn04; slot m0; card blu01; slot m1; card blu13",
        )
        .unwrap_err();
    let PlayError::Stopped {
        kept,
        played_through,
        refused,
    } = err
    else {
        panic!("expected a refusal after the draw, got {err:?}");
    };
    assert_eq!(played_through, 3, "the draw happened in part 3 (`slot m0`)");
    assert!(kept.last().is_some_and(|m| m.barrier));
    assert!(
        matches!(*refused, PlayError::Illegal { segment: 6, .. }),
        "{refused:?}"
    );
    // The kept part equals playing it alone.
    ok(&mut g, 0, "place; card grn04; slot m0");
    assert_eq!(any.to_json(), AnyGame::to_json(&g));
    assert_eq!(g.players[0].station[slot("m0")], Some(lab("grn04")));
    assert_eq!(g.players[0].station[slot("m1")], None);
    assert_eq!(g.players[0].hand, labs(&["red10", "blu01", "gld02"]));
    assert_eq!(
        notations(&g),
        ["card red10", "card blu01", "card gld02", "end"]
    );
}

// ---- playouts, invariants, leak ----------------------------------------------------------

/// An independent scoring model written from spec section 8 (template rows, not effect codes).
fn model_score(g: &SpaceLab, s: usize) -> i64 {
    let d = d();
    let p = &g.players[s];
    let row = |i: usize| match i {
        0..=2 => 0,
        3..=6 => 1,
        _ => 2,
    };
    let cards: Vec<(usize, u8)> = (0..10)
        .filter_map(|i| p.station[i].map(|c| (i, c)))
        .collect();
    let ag = |c: u8| usize::from(c) / 15;
    let k = |c: u8| usize::from(c) % 15 + 1;
    let sp = |c: u8| (k(c) - 1 + ag(c)) % 4;
    let nsp = |x: usize| cards.iter().filter(|(_, c)| sp(*c) == x).count() as i64;
    let nag = |x: usize| cards.iter().filter(|(_, c)| ag(*c) == x).count() as i64;
    let pi = p.projects.len() as i64;
    let v = p.validated.iter().flatten().count() as i64;
    let mut total = 0;
    for &(i, c) in &cards {
        let r = row(i);
        let in_row: Vec<u8> = cards
            .iter()
            .filter(|(j, _)| row(*j) == r)
            .map(|x| x.1)
            .collect();
        total += match k(c) {
            1 => 1,
            2 if r == 1 => 2,
            3 => in_row.iter().filter(|&&y| ag(y) == ag(c)).count() as i64,
            6 => 2,
            7 if r == 2 => 3,
            9 => nsp(sp(c)),
            10 => 4,
            12 => pi,
            13 => 6,
            14 => 3 * v,
            15 => {
                let mut a: Vec<usize> = in_row.iter().map(|&y| ag(y)).collect();
                a.sort_unstable();
                a.dedup();
                2 * a.len() as i64
            }
            _ => 0,
        };
    }
    let bottom = cards.iter().filter(|(i, _)| *i >= 7).count() as i64;
    if let Some(objs) = p.objectives {
        for (c, &o) in objs.iter().enumerate() {
            let o = usize::from(o);
            // o04, o07, o10 score 2 per bottom card; specialties T, R, P.
            let want = match o {
                3 => Some(3),
                6 => Some(2),
                9 => Some(1),
                _ => None,
            };
            if let (Some(w), Some(card)) = (want, p.station[7 + c]) {
                if sp(card) == w {
                    total += 2 * bottom;
                }
            }
        }
    }
    total += p
        .validated
        .iter()
        .flatten()
        .filter_map(|&t| d.tile(t))
        .map(|t| t.value)
        .sum::<i64>();
    let mut held = [0i64; 8];
    for &c in &p.projects {
        held[usize::from(d.kind_of(c))] += 1;
    }
    for (x, h) in held.iter().enumerate().take(4) {
        total += h * 2 * nsp(x);
    }
    total += [0, 3, 7, 12, 18, 25][held[4].min(5) as usize];
    total += 7 * (held[5] / 2) + 2 * (held[5] % 2);
    total += held[6] * 3 * (0..4).filter(|&a| nag(a) >= 3).count() as i64;
    total += held[7] * 5 * (0..4).map(nsp).min().unwrap_or(0);
    total
}

fn conserved(g: &SpaceLab) {
    let mut all: Vec<u8> = Vec::new();
    all.extend(&g.lab_deck);
    all.extend(&g.lab_discard);
    all.extend(g.centre.iter().flatten());
    all.extend(&g.revealed);
    for p in &g.players {
        all.extend(&p.hand);
        all.extend(p.station.iter().flatten());
    }
    all.sort_unstable();
    assert_eq!(all, (0..60).collect::<Vec<u8>>(), "Lab cards conserved");
    let mut pj: Vec<u8> = g.project_deck.clone();
    for p in &g.players {
        pj.extend(&p.projects);
    }
    if let Phase::KeepProject { drawn, .. } = &g.phase {
        pj.extend(drawn);
    }
    pj.sort_unstable();
    assert_eq!(pj, (0..24).collect::<Vec<u8>>(), "Project cards conserved");
}

const OPTION_SETS: [&[(&str, &str)]; 6] = [
    &[],
    &[("objective_setup", "dealt")],
    &[("final_round", "equal_turns")],
    &[("trigger_ends_turn", "false")],
    &[
        ("validation_bonus", "off"),
        ("first_player", "host_choice"),
        ("first_seat", "1"),
    ],
    &[
        ("objective_setup", "dealt"),
        ("final_round", "equal_turns"),
        ("trigger_ends_turn", "false"),
    ],
];

const GARBLE: [&str; 8] = [
    "card zzz01",
    "slot t9",
    "take purple",
    "keep nothing",
    "bonus cake",
    "arrange o1 o1",
    "from",
    "pay",
];

/// One seeded random game with every invariant checked after every step.
fn playout(
    n: usize,
    extra: &[(&str, &str)],
    seed: u64,
    deep: bool,
) -> (SpaceLab, Vec<(u8, Action)>) {
    let o = opts(extra);
    let mut g = SpaceLab::setup(&o, n, seed).unwrap();
    let mut rng = GameRng::seed_from_u64(seed);
    let mut log = Vec::new();
    let mut steps = 0;
    while let Some(p) = Game::prompt(&g) {
        steps += 1;
        assert!(steps < 3000, "game did not end (seed {seed})");
        assert!(!p.options.is_empty() && p.options.len() <= 25);
        let s = p.seat.0;
        // Invariant: a player with 5+ cards at turn start places.
        if p.kind == "choose_action" {
            assert!(
                g.players[usize::from(s)].hand.len() <= 4,
                "5+ cards must place"
            );
        }
        let pick = p.options[rng.gen_range(0..p.options.len())];
        if deep {
            let before = g.clone();
            // parse(notation(o)) == [o].
            for a in &p.options {
                let text = Game::notation(&g, a);
                assert_eq!(Game::parse(&g, p.seat, &text).unwrap(), vec![*a], "{text}");
            }
            // Other seats, other prompts and garbled text are refused without change.
            let other = Seat((s + 1) % u8::try_from(n).unwrap());
            assert_eq!(
                Game::apply(&mut g, other, &pick),
                Err(RuleError::NotYourTurn)
            );
            for wrong in [
                Action::End,
                Action::Reveal,
                Action::Bonus(BonusKind::Lab),
                Action::Keep(0),
                Action::Slot(0),
            ] {
                if !p.options.contains(&wrong) && g.check(&wrong).is_err() {
                    assert!(Game::apply(&mut g, p.seat, &wrong).is_err());
                }
            }
            let mut any: Box<dyn AnyGame> = Box::new(g.clone());
            for junk in GARBLE {
                assert!(any.play_line(p.seat, junk).is_err(), "{junk}");
            }
            assert_eq!(g, before);
        }
        let validated_before: Vec<Vec<Option<u8>>> =
            g.players.iter().map(|p| p.validated.to_vec()).collect();
        let piles_before: Vec<usize> = g.piles.iter().map(Vec::len).collect();
        let before = g.clone();
        let applied = Game::apply(&mut g, p.seat, &pick)
            .unwrap_or_else(|e| panic!("listed option refused: {e}"));
        // `revealed` whenever something hidden or random came out, judged from the state: a
        // Lab card drawn or revealed (the deck shrank, or the seat drew face down), a
        // reshuffle (the discard shrank), a Project drawn, the end (every Project shown).
        let drawn = |g: &SpaceLab| g.players.iter().map(|p| p.drawn.len()).sum::<usize>();
        let seen = g.lab_deck.len() < before.lab_deck.len()
            || g.lab_discard.len() < before.lab_discard.len()
            || g.project_deck.len() < before.project_deck.len()
            || drawn(&g) > drawn(&before)
            || (g.outcome.is_some() && before.outcome.is_none());
        assert!(!seen || applied.revealed, "{pick:?}: {:?}", applied.events);
        assert!(!applied.revealed || applied.barrier, "{pick:?}");
        log.push((s, pick));
        conserved(&g);
        for (i, p) in g.players.iter().enumerate() {
            for (c, before) in validated_before[i].iter().enumerate() {
                if before.is_some() {
                    assert_eq!(p.validated[c], *before, "validated stays");
                }
            }
        }
        for (pile, before) in g.piles.iter().zip(&piles_before) {
            assert!(pile.len() <= *before);
        }
    }
    let o = g.outcome.clone().unwrap();
    for s in 0..n {
        assert_eq!(o.scores[s], model_score(&g, s), "seed {seed} seat {s}");
    }
    (g, log)
}

#[test]
fn random_playouts_keep_every_invariant() {
    let mut games = 0;
    for n in 2..=4 {
        for (i, set) in OPTION_SETS.iter().enumerate() {
            for k in 0..40u64 {
                let seed = k * 131 + i as u64 * 7 + n as u64;
                let (g, log) = playout(n, set, seed, k < 3);
                games += 1;
                if k < 5 {
                    let mut r = SpaceLab::setup(&opts(set), n, seed).unwrap();
                    for (s, a) in &log {
                        Game::apply(&mut r, Seat(*s), a).unwrap();
                    }
                    assert_eq!(r, g, "replay");
                    let back: SpaceLab =
                        serde_json::from_str(&serde_json::to_string(&g).unwrap()).unwrap();
                    assert_eq!(back, g);
                }
            }
        }
    }
    assert!(games >= 700);
}

#[test]
fn leak_permuting_hidden_cards_changes_no_public_output() {
    for seed in 0..12u64 {
        let n = 2 + (seed as usize % 3);
        let mut g = SpaceLab::setup(&opts(&[("objective_setup", "dealt")]), n, seed).unwrap();
        let mut rng = GameRng::seed_from_u64(seed + 100);
        for _ in 0..(20 + seed * 7) {
            let Some(p) = Game::prompt(&g) else { break };
            let a = p.options[rng.gen_range(0..p.options.len())];
            Game::apply(&mut g, p.seat, &a).unwrap();
        }
        if g.phase == Phase::Over {
            continue;
        }
        // Swap a hand card with a deck card, permute the decks and every Project hand.
        let mut h = g.clone();
        let s = (0..n).find(|&s| !h.players[s].hand.is_empty());
        if let (Some(s), Some(&top)) = (s, h.lab_deck.first()) {
            let x = h.players[s].hand[0];
            h.players[s].hand[0] = top;
            h.lab_deck[0] = x;
        }
        h.lab_deck.reverse();
        h.project_deck.reverse();
        if let Some(p) = h.players.iter_mut().find(|p| !p.projects.is_empty()) {
            let c = p.projects[0];
            if let Some(&other) = h.project_deck.first() {
                p.projects[0] = other;
                h.project_deck[0] = c;
            }
        }
        let ctx = RenderCtx::default();
        let (vg, vh) = (g.build_public(), h.build_public());
        assert_eq!(
            serde_json::to_string(&vg).unwrap(),
            serde_json::to_string(&vh).unwrap(),
            "seed {seed}"
        );
        assert_eq!(
            <SpaceLab as Present>::public_summary(&vg, &ctx),
            <SpaceLab as Present>::public_summary(&vh, &ctx)
        );
        if seed < 3 {
            assert_eq!(
                <SpaceLab as Present>::render_public(&vg, &ctx),
                <SpaceLab as Present>::render_public(&vh, &ctx)
            );
        }
        // The same public decisions from both give the same event texts.
        for _ in 0..6 {
            let (Some(pg), Some(ph)) = (Game::prompt(&g), Game::prompt(&h)) else {
                break;
            };
            if !matches!(
                pg.kind,
                "choose_action" | "take_revealed" | "take_centre" | "arrange_objectives"
            ) {
                break;
            }
            let a = pg.options[0];
            if !ph.options.contains(&a) {
                break;
            }
            let eg = Game::apply(&mut g, pg.seat, &a).unwrap();
            let eh = Game::apply(&mut h, ph.seat, &a).unwrap();
            let tg: Vec<String> = eg
                .events
                .iter()
                .map(|e| g.event_text(e).render(Default::default()))
                .collect();
            let th: Vec<String> = eh
                .events
                .iter()
                .map(|e| h.event_text(e).render(Default::default()))
                .collect();
            // Draw events name counts only; face-up cards differ only when they were face up.
            for (x, y) in tg.iter().zip(&th) {
                if x.contains("draws") || x.contains("keeps") || x.contains("under the deck") {
                    assert_eq!(x, y);
                }
            }
        }
    }
}

#[test]
fn hidden_draw_texts_never_name_cards() {
    let g = blank(2);
    let e = Event::LabsDrawn {
        seat: Seat(0),
        source: Source::Instant,
        ids: labs(&["red13", "blu02"]),
    };
    let t = g.event_text(&e).render(Default::default());
    assert!(!t.contains("red13") && t.contains('2'), "{t}");
    let e = Event::ProjectsDrawn {
        seat: Seat(0),
        source: Source::Top,
        kinds: vec![kind("medbay")],
    };
    assert!(!g
        .event_text(&e)
        .render(Default::default())
        .contains("medbay"));
    let e = Event::ProjectKept {
        seat: Seat(0),
        kind: kind("crew"),
    };
    assert!(!g.event_text(&e).render(Default::default()).contains("crew"));
    let e = Event::ProjectsReturned {
        seat: Seat(0),
        kinds: vec![kind("crew")],
    };
    assert!(!g.event_text(&e).render(Default::default()).contains("crew"));
    let e = Event::ValidationBonus {
        seat: Seat(0),
        kind: BonusKind::Lab,
        card: lab("red13"),
    };
    assert!(!g
        .event_text(&e)
        .render(Default::default())
        .contains("red13"));
    let e = Event::Auto {
        seat: Seat(0),
        action: Action::Card(lab("red13")),
    };
    assert!(!g
        .event_text(&e)
        .render(Default::default())
        .contains("red13"));
    // The prompt text goes to the channel: it never names the card being placed.
    let mut g2 = t05_position();
    ok(&mut g2, 0, "card red13");
    let p = Game::prompt(&g2).unwrap();
    assert!(!p.text.render(Default::default()).contains("red13"));
    ok(&mut g2, 0, "slot t2");
    let p = Game::prompt(&g2).unwrap();
    assert!(!p.text.render(Default::default()).contains("red13"));
    let e = Event::Auto {
        seat: Seat(0),
        action: Action::Keep(kind("crew")),
    };
    assert!(!g.event_text(&e).render(Default::default()).contains("crew"));
}

#[test]
fn parser_never_panics_on_random_strings() {
    let g = SpaceLab::setup(&GameOptions::new(), 3, 4).unwrap();
    let mut rng = GameRng::seed_from_u64(77);
    let alphabet: Vec<char> = "abcdefgiklmnoprstuvy0123456789 ;é🙂-".chars().collect();
    let words = [
        "card", "slot", "pay", "take", "keep", "bonus", "from", "arrange", "red07", "t2", "o04",
        "gold", "end",
    ];
    for _ in 0..3000 {
        let mut s = String::new();
        for _ in 0..rng.gen_range(0..4) {
            s.push_str(words[rng.gen_range(0..words.len())]);
            s.push(' ');
        }
        for _ in 0..rng.gen_range(0..8) {
            s.push(alphabet[rng.gen_range(0..alphabet.len())]);
        }
        let mut any: Box<dyn AnyGame> = Box::new(g.clone());
        let before = any.to_json();
        let seat = Seat(rng.gen_range(0..3));
        if any.play_line(seat, &s).is_err() {
            assert_eq!(any.to_json(), before, "{s}");
        }
    }
}

#[test]
fn long_hands_are_split_by_an_agency_filter() {
    let mut g = blank(2);
    // 27 cost-0/1 cards: 27 affordable > 25 options, 26 payment candidates.
    let mut h = Vec::new();
    for a in ["red", "blu", "grn", "gld"] {
        for k in [1, 2, 3, 4, 5, 6, 7] {
            h.push(format!("{a}{k:02}"));
        }
    }
    h.truncate(27);
    g.players[0].hand = h.iter().map(|s| lab(s)).collect();
    start(&mut g);
    assert_eq!(g.prompt_kind(), Some("place_filter"));
    assert_eq!(
        notations(&g),
        ["from red", "from blue", "from green", "from gold"]
    );
    // A card may be typed straight through the filter.
    ok(&mut g, 0, "card blu06; slot m0");
    assert_eq!(g.prompt_kind(), Some("pay_filter"));
    assert_eq!(
        notations(&g),
        ["from red", "from blue", "from green", "from gold"]
    );
    ok(&mut g, 0, "from gold");
    assert!(notations(&g).iter().all(|o| o.starts_with("pay gld")));
    ok(&mut g, 0, "pay gld01");
    assert!(matches!(g.phase, Phase::PlaceCard { .. }));
    // 25 cards left: still 26 options with `end`, so the filter comes back; once chosen,
    // another filter is refused.
    assert_eq!(g.prompt_kind(), Some("place_filter"));
    ok(&mut g, 0, "from red");
    assert!(notations(&g)
        .iter()
        .all(|o| o.starts_with("card red") || o == "end"));
    assert_eq!(
        act(&mut g, 0, "from blue").err(),
        Some(RuleError::NoFilterNeeded)
    );
}

#[test]
fn images_are_within_limits_and_names_are_drawn() {
    let (g, _) = playout(4, &[], 3, false);
    let ctx = RenderCtx {
        lang: crate::i18n::Lang::En,
        names: vec!["Ann".into(), "Bob".into(), "Cy".into(), "Di".into()],
        stopped: false,
        number: None,
    };
    let img = <SpaceLab as Present>::render_public(&g.build_public(), &ctx);
    assert!(
        img.width() <= 1600 && img.height() <= 1200,
        "{:?}",
        img.dimensions()
    );
    let p = g.build_private(Seat(0)).unwrap();
    let img = <SpaceLab as Present>::render_private(&p, &ctx);
    assert!(
        img.width() <= 1200 && img.height() <= 800,
        "{:?}",
        img.dimensions()
    );
    let s = <SpaceLab as Present>::public_summary(&g.build_public(), &ctx);
    assert!(s.contains("Ann") && s.contains("#"), "{s}");
    let _ = FinalRound::OthersOnce;
    let _ = PROJECT_CARDS;
}

// ---- setup events (spec 6.8) ------------------------------------------------------------

#[test]
fn setup_emits_game_started_then_objectives_dealt_all_public() {
    use super::state::Opts;
    let o = opts(&[
        ("first_player", "host_choice"),
        ("first_seat", "1"),
        ("final_round", "equal_turns"),
        ("validation_bonus", "off"),
    ]);
    let g = SpaceLab::setup(&o, 3, 5).unwrap();
    // Dealt in turn order from the first player: seat 1, then 2, then 0, three each.
    let mut objs: Vec<u8> = (0..12).collect();
    let mut rng = crate::engine::rng_from_seed(5);
    {
        use crate::engine::rng::SliceDraw;
        let mut labs: Vec<u8> = (0..60).collect();
        labs.shuffle(&mut rng);
        let mut pj: Vec<u8> = (0..24).collect();
        pj.shuffle(&mut rng);
        objs.shuffle(&mut rng);
    }
    let dealt = vec![
        [objs[6], objs[7], objs[8]],
        [objs[0], objs[1], objs[2]],
        [objs[3], objs[4], objs[5]],
    ];
    assert_eq!(
        g.setup_events(),
        vec![
            Event::GameStarted {
                seats: 3,
                first: Seat(1),
                options: Opts {
                    choose_objectives: true,
                    final_round: FinalRound::EqualTurns,
                    trigger_ends_turn: false,
                    validation_bonus: false,
                },
            },
            Event::ObjectivesDealt {
                tiles: dealt.clone()
            },
        ]
    );
    let texts: Vec<String> = g
        .setup_events()
        .iter()
        .map(|e| g.event_text(e).render(crate::i18n::Lang::En))
        .collect();
    let id = |o: u8| d().objective_id(o);
    assert_eq!(
        texts,
        vec![
            "Space Lab for 3 players: seat 2 starts. Options: objectives choose, final round \
             equal_turns, trigger ends the turn false, validation bonus off."
                .to_string(),
            format!(
                "Objective tiles dealt face up: seat 1 gets {}, {} and {}, seat 2 gets {}, {} \
                 and {}, seat 3 gets {}, {} and {}.",
                id(dealt[0][0]),
                id(dealt[0][1]),
                id(dealt[0][2]),
                id(dealt[1][0]),
                id(dealt[1][1]),
                id(dealt[1][2]),
                id(dealt[2][0]),
                id(dealt[2][1]),
                id(dealt[2][2]),
            ),
        ]
    );
    let fr = g
        .event_text(&g.setup_events()[0])
        .render(crate::i18n::Lang::Fr);
    assert!(fr.starts_with("Space Lab à 3 joueurs"), "{fr}");
    // The same events whatever is hidden: the decks and the set-aside tiles.
    let mut h = g.clone();
    h.lab_deck.reverse();
    h.project_deck.reverse();
    assert_eq!(h.setup_events(), g.setup_events());
    // With `dealt` the tiles are the same dealt ones, and the options say so.
    let g = SpaceLab::setup(&opts(&[("objective_setup", "dealt")]), 2, 9).unwrap();
    let ev = g.setup_events();
    assert!(matches!(
        &ev[0],
        Event::GameStarted { seats: 2, options, .. } if !options.choose_objectives
    ));
    let tiles: Vec<[u8; 3]> = g.players.iter().map(|p| p.objectives.unwrap()).collect();
    assert_eq!(ev[1], Event::ObjectivesDealt { tiles });
}

/// Issue 25, item 4: with `objective_setup = dealt`, setup plays the first turn's automatic
/// Reveal (no hand, empty Centre). Its events now reach the first board like any step's:
/// "Turn 1" and the three revealed cards (old: dropped, though the board showed the cards).
/// They are public, and the first option played drops them from the state.
#[test]
fn issue25_setup_reports_its_automatic_first_reveal() {
    let g = SpaceLab::setup(&opts(&[("objective_setup", "dealt")]), 2, 9).unwrap();
    assert_eq!(g.revealed.len(), 3, "setup revealed three cards");
    let ev = g.setup_events();
    assert_eq!(ev.len(), 5, "{ev:?}");
    assert_eq!(
        ev[2],
        Event::TurnStarted {
            seat: g.first,
            turn_no: 1,
            hand: 0,
            projects: 0,
            forced_place: false,
        }
    );
    assert!(matches!(
        ev[3],
        Event::ActionChosen {
            action: Action::Reveal,
            auto: true,
            ..
        }
    ));
    assert_eq!(
        ev[4],
        Event::LabsRevealed {
            ids: g.revealed.clone()
        }
    );
    // The texts a player reads: whose turn 1 it is and which cards were revealed.
    let texts: Vec<String> = AnyGame::setup_texts(&g)
        .iter()
        .map(|t| t.render(crate::i18n::Lang::En))
        .collect();
    let all = texts.join("\n");
    assert!(all.contains("Turn 1"), "{all}");
    for &c in &g.revealed {
        assert!(all.contains(&d().lab_id(c)), "{all}");
    }
    // Nothing hidden: the same events whatever the face-down decks hold.
    let mut h = g.clone();
    h.lab_deck.reverse();
    h.project_deck.reverse();
    assert_eq!(h.setup_events(), g.setup_events());
    // The first option drops them; `choose` (no automatic step) has none to keep.
    let mut g2 = g.clone();
    let p = Game::prompt(&g2).unwrap();
    let o = p.options[0];
    g2.apply(p.seat, &o).unwrap();
    assert!(g2.setup_log.is_empty());
    assert_eq!(g2.setup_events().len(), 2);
    let chosen = SpaceLab::setup(&opts(&[]), 2, 9).unwrap();
    assert_eq!(chosen.setup_events().len(), 2);
    assert!(!chosen.to_json().contains("setup_log"));
}

// ---- bot players (issue 9) --------------------------------------------------------------

mod bot {
    use super::*;
    use crate::ai::{choose, Level, Method};
    use crate::engine::rng_from_seed;

    fn views(
        g: &SpaceLab,
        s: Seat,
    ) -> (
        super::super::view::PublicView,
        super::super::view::PrivateView,
    ) {
        (g.build_public(), g.build_private(s).unwrap())
    }

    /// Random games in every option set; at every prompt the deciding seat imagines: the
    /// imagined game shows exactly the same public view and the same private view, every
    /// card exists once, and the imagined game accepts the same options.
    #[test]
    fn imagined_games_match_the_views_and_conserve_the_cards() {
        let mut checked = 0;
        for (i, set) in OPTION_SETS.iter().enumerate() {
            let n = 2 + i % 3;
            let seed = 40 + i as u64;
            let mut g = SpaceLab::setup(&opts(set), n, seed).unwrap();
            let mut rng = GameRng::seed_from_u64(seed);
            let mut irng = rng_from_seed(seed);
            while let Some(p) = Game::prompt(&g) {
                let s = p.seat;
                let (public, private) = views(&g, s);
                let im = SpaceLab::imagine(&public, Some(&private), p.seat, &mut irng)
                    .unwrap_or_else(|| panic!("no imagined game at {} (seed {seed})", p.kind));
                assert_eq!(im.build_public(), public, "public view, {}", p.kind);
                assert_eq!(im.build_private(s).unwrap(), private, "private view");
                conserved(&im);
                assert_eq!(im.options(), g.options());
                // Another seat imagines too, except inside this seat's placement.
                let o = Seat((s.0 + 1) % u8::try_from(n).unwrap());
                let other = g.build_private(o).unwrap();
                if let Some(im) = SpaceLab::imagine(&public, Some(&other), o, &mut irng) {
                    assert_eq!(im.build_public(), public);
                    assert_eq!(im.build_private(o).unwrap(), other);
                    conserved(&im);
                } else {
                    assert!(
                        !matches!(
                            p.kind,
                            "choose_action"
                                | "take_revealed"
                                | "take_centre"
                                | "arrange_objectives"
                        ),
                        "{}",
                        p.kind
                    );
                }
                checked += 1;
                let a = p.options[rng.gen_range(0..p.options.len())];
                Game::apply(&mut g, p.seat, &a).unwrap();
            }
        }
        assert!(checked > 300, "{checked}");
    }

    /// Easy bots play whole games against each other: every choice is a listed option.
    #[test]
    fn bots_only_pick_listed_options() {
        for seed in 0..2u64 {
            let mut g = SpaceLab::setup(&GameOptions::new(), 2, seed).unwrap();
            let mut decisions = 0;
            while let Some(p) = Game::prompt(&g) {
                let (public, private) = views(&g, p.seat);
                let c = choose::<SpaceLab>(
                    &public,
                    Some(&private),
                    p.seat,
                    &p.options,
                    Level::Easy,
                    seed * 7919 + decisions,
                )
                .unwrap();
                assert!(c.index < p.options.len());
                if p.options.len() > 1 && c.method != Method::Random {
                    assert_eq!(c.method, Method::Search);
                }
                Game::apply(&mut g, p.seat, &p.options[c.index]).unwrap();
                decisions += 1;
                assert!(decisions < 2000);
            }
            assert!(g.outcome.is_some());
        }
    }

    /// Honesty: swapping the other seat's hidden cards with deck cards, shuffling both decks
    /// and swapping its Projects changes neither view of the deciding seat, so the bot's
    /// choice is the same (same seed).
    #[test]
    fn hidden_cards_of_others_do_not_change_the_choice() {
        let mut compared = 0;
        for seed in 0..30u64 {
            let mut g = SpaceLab::setup(&GameOptions::new(), 2, seed).unwrap();
            let mut rng = GameRng::seed_from_u64(seed);
            for _ in 0..(30 + seed * 3) {
                let Some(p) = Game::prompt(&g) else { break };
                let a = p.options[rng.gen_range(0..p.options.len())];
                Game::apply(&mut g, p.seat, &a).unwrap();
            }
            let Some(p) = Game::prompt(&g) else { continue };
            if p.options.len() < 2 {
                continue;
            }
            let me = p.seat.0;
            let other = usize::from(1 - me);
            let mut h = g.clone();
            for k in 0..h.players[other].hand.len().min(h.lab_deck.len()) {
                std::mem::swap(&mut h.players[other].hand[k], &mut h.lab_deck[k]);
            }
            h.lab_deck.reverse();
            if let (Some(x), Some(y)) = (
                h.players[other].projects.first_mut(),
                h.project_deck.first_mut(),
            ) {
                std::mem::swap(x, y);
            }
            h.project_deck.reverse();
            h.rng = rng_from_seed(seed + 1000);
            assert_ne!(g, h);
            let (pg, vg) = views(&g, Seat(me));
            let (ph, vh) = views(&h, Seat(me));
            assert_eq!(pg, ph);
            assert_eq!(vg, vh);
            let pick = |public, private| {
                choose::<SpaceLab>(public, Some(private), p.seat, &p.options, Level::Easy, seed)
                    .unwrap()
            };
            assert_eq!(pick(&pg, &vg), pick(&ph, &vh), "seed {seed}");
            compared += 1;
        }
        assert!(compared >= 10, "{compared}");
    }

    /// The last turn of the game: one slot validates the violet capsule (6 VP) and wins, every
    /// other slot loses. The bot (choosing the slot of a card it already picked) finds it.
    #[test]
    fn bot_places_the_card_that_validates_and_wins() {
        let mut g = blank_with(2, &[("validation_bonus", "off")]);
        // o12 asks for 2 gold and 1 green around a capsule.
        set_objectives(&mut g, 0, ["o12", "o12", "o12"]);
        set_objectives(&mut g, 1, ["o12", "o12", "o12"]);
        let free_gold = |used: &[u8]| {
            (0..60u8)
                .find(|&c| {
                    let l = d().lab(c).unwrap();
                    l.agency == Agency::Gold
                        && l.cost == 0
                        && !l.effect.instant()
                        && l.specialty != super::super::state::Specialty::Technician
                        && !used.contains(&c)
                })
                .unwrap()
        };
        let a = free_gold(&[]);
        let x = free_gold(&[a]);
        let green = (0..60u8)
            .find(|&c| d().lab(c).unwrap().agency == Agency::Green)
            .unwrap();
        g.players[0].station[slot("t2")] = Some(a);
        g.players[0].station[slot("b2")] = Some(green);
        g.players[0].hand = vec![x];
        g.players[1].hand.clear();
        tidy(&mut g);
        // Seat 1 triggered the end; seat 0 plays the last turn, about to choose a slot.
        g.end = Some(super::super::state::EndState {
            trigger: Seat(1),
            remaining: Vec::new(),
        });
        g.phase = Phase::PlaceSlot { card: x };
        let finish = |slot_id: &str| {
            let mut t = g.clone();
            Game::apply(
                &mut t,
                Seat(0),
                &Action::Slot(u8::try_from(slot(slot_id)).unwrap()),
            )
            .unwrap();
            t.outcome.clone().unwrap().scores[0]
        };
        let winning = ["m1", "m2"];
        let best_other = ["t1", "t3", "m0", "m3", "b1", "b3"]
            .iter()
            .map(|s| finish(s))
            .max()
            .unwrap();
        let worst_win = winning.iter().map(|s| finish(s)).min().unwrap();
        assert!(worst_win >= best_other + 2, "{worst_win} vs {best_other}");
        // Seat 1 scores in between with flat-point cards (no objective of its own).
        let target = best_other + 1;
        let mut score = 0;
        let mut slot_ix = 0;
        for c in 0..60u8 {
            let l = d().lab(c).unwrap();
            let super::super::cards::LabEffect::Flat { vp } = l.effect else {
                continue;
            };
            let in_use = g.players.iter().any(|p| p.station.contains(&Some(c)));
            if in_use || l.agency == Agency::Gold || score + vp > target || slot_ix >= 9 {
                continue;
            }
            g.players[1].station[slot_ix] = Some(c);
            slot_ix += 1;
            score += vp;
        }
        assert_eq!(score, target);
        tidy(&mut g);
        assert!(worst_win > target && best_other < target);
        let p = Game::prompt(&g).unwrap();
        assert_eq!(p.kind, "place_slot");
        let (public, private) = views(&g, Seat(0));
        let c = choose::<SpaceLab>(
            &public,
            Some(&private),
            Seat(0),
            &p.options,
            Level::Normal,
            3,
        )
        .unwrap();
        assert_eq!(c.method, Method::Search);
        let chosen = Game::notation(&g, &p.options[c.index]);
        assert!(chosen == "slot m1" || chosen == "slot m2", "{chosen}");
    }
}

/// The board's header at the end says who won, by how much and why: the final table's 13/13
/// tie is explained by its rule (more Project cards), and a tie on both shares the place.
#[test]
fn the_final_header_says_who_won_by_how_much_and_why() {
    use crate::render::frame::Status;
    let (g, _) = playout(3, &[], 8, false);
    let v = g.public_view();
    let said = |totals: [i64; 3], projects: [usize; 3], lang: crate::i18n::Lang| {
        let mut v = v.clone();
        let f = v.finals.as_mut().expect("the game is over");
        for i in 0..3 {
            f[i].total = totals[i];
            f[i].project_count = projects[i];
        }
        // Ranks as the rules give them: points, then Project cards.
        let keys: Vec<(i64, usize)> = (0..3).map(|i| (totals[i], projects[i])).collect();
        for i in 0..3 {
            f[i].rank = keys.iter().filter(|k| **k > keys[i]).count() as u8 + 1;
        }
        let ctx = RenderCtx {
            lang,
            names: ["Ada", "Bruno", "Chloé"].map(String::from).to_vec(),
            stopped: false,
            number: Some(3),
        };
        match super::render::header_status(&v, &ctx) {
            Status::Over {
                headline, detail, ..
            } => format!("{headline} | {detail}"),
            other => panic!("not a result: {other:?}"),
        }
    };
    use crate::i18n::Lang;
    assert_eq!(
        said([13, 24, 27], [2, 3, 3], Lang::En),
        "Chloé wins | 27 to 24 VP · most points"
    );
    assert_eq!(
        said([13, 13, 9], [2, 3, 1], Lang::En),
        "Bruno wins | tied on 13 VP · tie-break: more Project cards (3 to 2)"
    );
    let fr = said([13, 13, 9], [2, 3, 1], Lang::Fr);
    assert!(
        fr.starts_with("Bruno gagne | égalité à 13 PV · départage"),
        "{fr}"
    );
    let shared = said([13, 13, 9], [3, 3, 1], Lang::En);
    assert_eq!(
        shared,
        "Shared win: Ada, Bruno | 13 to 9 VP · most points · equal Project cards too (3): the place is shared"
    );
}
