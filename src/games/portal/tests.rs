//! Portal rules, scenario by scenario (spec sections 7 and 12), random playouts with the
//! invariants of 4.9, replay, hidden-information leaks and the parser.
use crate::engine::GameRng;

use super::components::{self, data};
use super::moves::{Action, Death, Ev, Icon, Majority};
use super::notation::{parse_chamber, play_line};
use super::rules::{Log, RuleError};
use super::state::{Card, Ch, Chamber, EndReason, Face, Floor, HandCard, Portal, Step, MAX_SEATS};
use crate::engine::{BotHooks, Game, GameOptions, Present, Reject, RenderCtx, Seat};

const B: Seat = Seat(0);
const R: Seat = Seat(1);

fn ch(s: &str) -> Ch {
    parse_chamber(s).unwrap_or_else(|| panic!("bad chamber {s}"))
}

/// A position in the spec's builder conventions (section 12).
#[derive(Default)]
struct Pos {
    seats: usize,
    opts: Vec<(&'static str, &'static str)>,
    floors: Option<[Vec<u16>; 3]>,
    faces: Vec<(&'static str, u8, Face)>,
    subj: Vec<(Seat, &'static str, u8)>,
    cake: Vec<(Seat, &'static str, u8)>,
    inc: Vec<(Seat, u8)>,
    hands: Vec<(Seat, Vec<Card>)>,
    deck_top: Vec<Card>,
    deck_exact: Option<Vec<Card>>,
    discard: Vec<Card>,
    turret: Option<&'static str>,
    cube: Option<&'static str>,
    portals: Option<[&'static str; 2]>,
    activate: bool,
    seed: u64,
}

impl Pos {
    fn new() -> Pos {
        Pos {
            seats: 2,
            seed: 7,
            ..Pos::default()
        }
    }
    /// Initial subjects for the given seats: t10:1, m9:2, b10:1.
    fn initial(mut self, seats: &[Seat]) -> Pos {
        for &s in seats {
            self.subj
                .extend([(s, "t10", 1), (s, "m9", 2), (s, "b10", 1)]);
        }
        self
    }
    fn s(mut self, seat: Seat, at: &'static str, n: u8) -> Pos {
        self.subj.push((seat, at, n));
        self
    }
    fn c(mut self, seat: Seat, at: &'static str, n: u8) -> Pos {
        self.cake.push((seat, at, n));
        self
    }
    fn face(mut self, at: &'static str, panel: u8, f: Face) -> Pos {
        self.faces.push((at, panel, f));
        self
    }
    fn hand(mut self, seat: Seat, cards: &[Card]) -> Pos {
        self.hands.push((seat, cards.to_vec()));
        self
    }
    fn discard(mut self, cards: &[Card]) -> Pos {
        self.discard = cards.to_vec();
        self
    }
    fn deck(mut self, top_first: &[Card]) -> Pos {
        self.deck_top = top_first.to_vec();
        self
    }
    fn opt(mut self, k: &'static str, v: &'static str) -> Pos {
        self.opts.push((k, v));
        self
    }
    fn build(self) -> Portal {
        let mut options = GameOptions::new();
        options.insert("first_player".into(), "host".into());
        for (k, v) in &self.opts {
            options.insert((*k).into(), (*v).into());
        }
        let (opts, colours) = Portal::read_options(&options, self.seats).unwrap();
        let mut g = Portal::build(opts, &colours, self.seats, self.seed);
        let cols = self.floors.clone().unwrap_or([
            vec![10, 8, 6, 4, 2],
            vec![9, 7, 5, 3, 1],
            vec![10, 8, 6, 4, 2],
        ]);
        let named: Vec<u8> = self.faces.iter().map(|f| f.1 - 1).collect();
        let mut free = (0..18u8).filter(|p| !named.contains(p));
        for f in Floor::ALL {
            g.floors[f.index()] = cols[f.index()]
                .iter()
                .map(|&c| {
                    let id = Ch::new(f, c).to_string();
                    let (panel, face) = match self.faces.iter().find(|x| x.0 == id) {
                        Some(x) => (x.1 - 1, x.2),
                        None => (free.next().unwrap(), Face::B),
                    };
                    Chamber {
                        c,
                        panel,
                        face,
                        subj: [0; MAX_SEATS],
                        cake: [0; MAX_SEATS],
                    }
                })
                .collect();
        }
        g.set_aside = free.map(|p| (p, Face::A)).collect();
        for s in 0..self.seats {
            let st = &mut g.seats[s];
            st.subject_supply = 8;
            st.cake_supply = 8;
            st.incinerated = 0;
            st.hand.clear();
        }
        for &(s, at, n) in &self.subj {
            g.chamber_mut(ch(at)).unwrap().subj[s.index()] += n;
            g.seats[s.index()].subject_supply -= n;
        }
        for &(s, at, n) in &self.cake {
            g.chamber_mut(ch(at)).unwrap().cake[s.index()] += n;
            g.seats[s.index()].cake_supply -= n;
        }
        for &(s, n) in &self.inc {
            g.seats[s.index()].incinerated = n;
            g.seats[s.index()].cake_supply -= n;
        }
        let mut used: Vec<Card> = self.discard.clone();
        for (s, cards) in &self.hands {
            g.seats[s.index()].hand = cards
                .iter()
                .map(|&card| HandCard { card, fresh: false })
                .collect();
            used.extend(cards);
        }
        let mut deck: Vec<Card> = match &self.deck_exact {
            Some(d) => d.clone(),
            None => {
                let mut d = self.deck_top.clone();
                d.extend(
                    Card::ALL
                        .into_iter()
                        .filter(|c| !used.contains(c) && !self.deck_top.contains(c)),
                );
                d
            }
        };
        deck.reverse();
        g.deck = deck;
        g.discard = self.discard.clone();
        g.turret = self.turret.map(ch);
        g.cube = self.cube.map(ch);
        if let Some([a, b]) = self.portals {
            g.portals = [ch(a), ch(b)];
        } else {
            g.portals = [ch("t2"), ch("b2")];
        }
        g.first = Seat(0);
        g.active = Seat(0);
        g.agenda = if self.activate {
            vec![
                Step::TurnEnd,
                Step::AfterCycle,
                Step::Recycle,
                Step::Activate,
            ]
        } else {
            vec![Step::TurnStart]
        };
        let mut log = Log::default();
        g.run(&mut log);
        g
    }
}

fn play(g: &mut Portal, seat: Seat, line: &str) -> Vec<Ev> {
    match play_line(g, seat, line) {
        Ok(log) => log.events.into_iter().map(|e| e.ev).collect(),
        Err((i, e)) => panic!("`{line}` refused at part {i}: {e:?}"),
    }
}

fn refused(g: &mut Portal, seat: Seat, line: &str) -> RuleError {
    let before = serde_json::to_string(g).unwrap();
    let err = match play_line(g, seat, line) {
        Ok(_) => panic!("`{line}` was accepted"),
        Err((_, Reject::Rule { error, .. })) => error,
        Err((_, Reject::Parse(p))) => panic!("`{line}` parse error {p:?}"),
    };
    assert_eq!(
        serde_json::to_string(g).unwrap(),
        before,
        "`{line}` changed the state"
    );
    err
}

fn options(g: &Portal) -> Vec<String> {
    g.prompt()
        .map(|p| p.options.iter().map(|o| g.notation(o)).collect())
        .unwrap_or_default()
}

fn kind(g: &Portal) -> &'static str {
    g.prompt().map_or("none", |p| p.kind)
}

fn subj(g: &Portal, s: Seat, at: &str) -> u8 {
    g.chamber(ch(at)).map_or(0, |x| x.subj[s.index()])
}

fn cake(g: &Portal, s: Seat, at: &str) -> u8 {
    g.chamber(ch(at)).map_or(0, |x| x.cake[s.index()])
}

fn ids(g: &Portal, f: Floor) -> Vec<String> {
    g.floor(f)
        .iter()
        .map(|x| Ch::new(f, x.c).to_string())
        .collect()
}

fn hand(g: &Portal, s: Seat) -> Vec<(Card, bool)> {
    g.seat(s).hand.iter().map(|h| (h.card, h.fresh)).collect()
}

fn strs(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| (*s).to_string()).collect()
}

/// Every invariant of spec 4.9 that holds between decisions.
fn check_invariants(g: &Portal) {
    let d = data().unwrap();
    let all = g.all_chambers();
    let pending_floor = g.lifted.is_some();
    assert_eq!(all.len() + usize::from(pending_floor), 15, "I1");
    for f in Floor::ALL {
        let fl = g.floor(f);
        assert!(
            fl.len() >= 3 - usize::from(pending_floor && g.lifted.as_ref().unwrap().from.f == f),
            "I2 floor size"
        );
        for w in fl.windows(2) {
            assert_eq!(w[0].c, w[1].c + 2, "I2 contiguous");
        }
        for x in fl {
            assert_eq!(x.c % 2 == 1, f == Floor::Mid, "I2 parity");
        }
    }
    if !(pending_floor && g.opts.split_final) {
        assert!(Portal::connected(&all), "I3 connected");
    }
    assert_ne!(g.portals[0], g.portals[1], "I4");
    for s in g.seat_ids() {
        let st = g.seat(s);
        assert_eq!(
            g.subjects_in_lab(s) + u32::from(st.subject_supply),
            u32::from(d.subjects),
            "I6 subjects"
        );
        assert_eq!(
            g.cake_in_lab(s) + u32::from(st.cake_supply) + u32::from(st.incinerated),
            u32::from(d.cake),
            "I6 cake"
        );
    }
    let cards = g.deck.len()
        + g.discard.len()
        + g.seats.iter().map(|s| s.hand.len()).sum::<usize>()
        + usize::from(g.turn.resolving.is_some());
    assert_eq!(cards, 20, "I7");
    let mut seen: Vec<Card> = g.deck.clone();
    seen.extend(&g.discard);
    seen.extend(g.seats.iter().flat_map(|s| s.hand.iter().map(|h| h.card)));
    seen.extend(g.turn.resolving);
    seen.sort();
    seen.dedup();
    assert_eq!(seen.len(), 20, "cards unique");
    let mut panels: Vec<u8> = g.floors.iter().flatten().map(|x| x.panel).collect();
    panels.extend(g.set_aside.iter().map(|p| p.0));
    panels.extend(g.lifted.as_ref().map(|l| l.chamber.panel));
    panels.sort_unstable();
    panels.dedup();
    assert_eq!(panels.len(), 18, "panels");
    for p in g.portals {
        assert!(
            g.exists(p) || g.lifted.as_ref().is_some_and(|l| l.from == p),
            "portal off the Lab"
        );
    }
    if let Some(p) = g.prompt() {
        assert!(!p.options.is_empty());
        assert!(
            p.options.len() <= 25,
            "menu over 25: {} {}",
            p.kind,
            p.options.len()
        );
    }
    // I8: a hand goes over 3 only through Curiosity Core (limit 5).
    for s in &g.seats {
        assert!(s.hand.len() <= 5, "I8 hand size");
    }
}

// ---------------------------------------------------------------- data

#[test]
fn data_files_load_and_match_the_spec_tables() {
    let d = data().unwrap();
    assert_eq!(d.panels.len(), 18);
    assert_eq!(d.card_names.len(), 20);
    assert!(!d.panels_official && !d.cards_official);
    let count = |i: Icon| {
        d.panels
            .iter()
            .map(|p| p.a.iter().chain(&p.b).filter(|&&x| x == i).count())
            .sum::<usize>()
    };
    assert_eq!(
        [
            count(Icon::Subject),
            count(Icon::Cake),
            count(Icon::Card),
            count(Icon::Turret),
            count(Icon::Cube)
        ],
        [39, 20, 15, 5, 4]
    );
    assert!(d
        .panels
        .iter()
        .all(|p| p.a.contains(&Icon::Cake) && !p.b.contains(&Icon::Cake)));
    for c in Card::ALL {
        assert_eq!(Card::from_slug(c.slug()), Some(c));
        assert_eq!(Card::from_slug(&format!("c{:02}", c.number())), Some(c));
    }
    assert_eq!(d.card_name(Card::Opera), "Opera Turret");
}

#[test]
fn broken_data_files_give_clear_errors() {
    let g = components::GAME_SOURCE;
    let p = components::PANELS_SOURCE;
    let c = components::CARDS_SOURCE;
    let e = components::load(g, &p.replace("\"card\"]", "\"pie\"]"), c).unwrap_err();
    assert!(e.to_string().contains("unknown icon `pie`"), "{e}");
    let e = components::load(g, &p.replace("P05", "P50"), c).unwrap_err();
    assert!(e.to_string().contains("P05"), "{e}");
    let e = components::load(g, p, &c.replace("\"greg\"", "\"gregory\"")).unwrap_err();
    assert!(e.to_string().contains("gregory"), "{e}");
    let e = components::load(&g.replace("hand_limit = 3", "hand_limit = 0"), p, c).unwrap_err();
    assert!(e.to_string().contains("hand_limit"), "{e}");
    let e = components::load("players = 3", p, c).unwrap_err();
    assert!(e.to_string().contains("game.toml"), "{e}");
}

// ---------------------------------------------------------------- playouts

const VARIANTS: [&[(&str, &str)]; 8] = [
    &[],
    &[("characters", "off")],
    &[("hands", "open"), ("show_backs", "true")],
    &[("split_rule", "final")],
    &[("turret_portals", "true")],
    &[("final_tie", "vote"), ("max_rounds", "10")],
    &[("first_player", "host"), ("max_rounds", "0")],
    &[
        ("colours", "green,yellow,red,blue"),
        ("split_rule", "final"),
        ("turret_portals", "true"),
    ],
];

fn options_of(v: &[(&str, &str)]) -> GameOptions {
    v.iter()
        .map(|(k, val)| ((*k).to_string(), (*val).to_string()))
        .collect()
}

/// One random game: every listed option applies, other seats and garbled input are refused
/// without change, the invariants hold; returns the final state and its log.
fn random_game(
    opts: &GameOptions,
    seats: usize,
    seed: u64,
    thorough: bool,
) -> (Portal, Vec<(Seat, Action)>) {
    let mut g = Portal::setup(opts, seats, seed).unwrap();
    let mut rng = GameRng::seed_from_u64(seed ^ 0xfeed);
    let mut log = Vec::new();
    for _ in 0..6000 {
        check_invariants(&g);
        let Some(p) = g.prompt() else {
            assert!(g.outcome().is_some());
            return (g, log);
        };
        let pick = p.options[rng.gen_range(0..p.options.len())];
        let text = g.notation(&pick);
        assert_eq!(
            g.parse(p.seat, &text).unwrap(),
            vec![pick],
            "notation round trip `{text}`"
        );
        if thorough {
            let before = serde_json::to_string(&g).unwrap();
            let other = Seat((p.seat.0 + 1) % u8::try_from(seats).unwrap());
            assert!(g.clone().apply(other, &pick).is_err());
            for junk in [
                "move",
                "to t999",
                "carry purple",
                "play xyz",
                "count 0",
                "x y z",
                "activate m99",
            ] {
                assert!(
                    play_line(&mut g, p.seat, junk).is_err(),
                    "`{junk}` accepted"
                );
            }
            // An option of another prompt kind is refused.
            let foreign = if p.kind == "vote" {
                Action::Done
            } else {
                Action::Vote(Seat(0))
            };
            assert!(g.clone().apply(p.seat, &foreign).is_err());
            assert_eq!(serde_json::to_string(&g).unwrap(), before);
        }
        let before = g.clone();
        let applied = g
            .apply(p.seat, &pick)
            .unwrap_or_else(|e| panic!("listed `{text}` refused: {e}"));
        check_revealed(&before, &g, &text, &applied);
        log.push((p.seat, pick));
    }
    panic!("game did not end (seed {seed}, {seats} seats)");
}

/// The step from `before` to `after` is marked `revealed` exactly when something hidden or
/// random came out (Portal's events say it all), judged from the state rather than from the events that set it: a card
/// taken from the deck (its next top shows), a reshuffle, a panel's face changed while backs
/// are hidden, a card leaving a hidden hand, the end (the votes with it). A turn passed or a
/// sealed vote cast reveals nothing, though it is a barrier.
fn check_revealed(
    before: &Portal,
    after: &Portal,
    text: &str,
    applied: &crate::engine::Applied<super::moves::Event>,
) {
    let faces = |g: &Portal| {
        let mut v: Vec<(u8, Face)> = g
            .floors
            .iter()
            .flatten()
            .chain(g.lifted.as_ref().map(|l| &l.chamber))
            .map(|c| (c.panel, c.face))
            .collect();
        v.sort_by_key(|(p, _)| *p);
        v
    };
    let left_a_hand = before.seats.iter().zip(&after.seats).any(|(b, a)| {
        b.hand.iter().any(|c| {
            let n = |h: &Vec<HandCard>| h.iter().filter(|x| x.card == c.card).count();
            n(&b.hand) > n(&a.hand)
        })
    });
    let seen = after.deck.len() < before.deck.len()
        || after.discard.len() < before.discard.len() && after.deck.len() > before.deck.len()
        || (!before.opts.show_backs && faces(after) != faces(before))
        || (before.opts.hidden_hands && left_a_hand)
        || (after.outcome.is_some() && before.outcome.is_none());
    assert_eq!(applied.revealed, seen, "`{text}`: {:?}", applied.events);
    assert!(!applied.revealed || applied.barrier, "`{text}`");
    // A turn passed or a vote cast alone stays a barrier.
    let ends = applied
        .events
        .iter()
        .any(|e| matches!(e.ev, Ev::TurnStarted { .. } | Ev::VoteCast { .. }));
    assert!(!ends || applied.barrier, "`{text}`");
}

#[test]
fn random_playouts_every_variant_and_player_count() {
    let mut games = 0;
    let mut reasons = std::collections::BTreeMap::new();
    for (vi, v) in VARIANTS.iter().enumerate() {
        let opts = options_of(v);
        for seats in 2..=4 {
            for k in 0..40u64 {
                let seed = (vi as u64) * 10_000 + (seats as u64) * 100 + k;
                let (g, log) = random_game(&opts, seats, seed, k < 3);
                games += 1;
                *reasons
                    .entry(format!("{:?}", g.ended.map(|r| std::mem::discriminant(&r))))
                    .or_insert(0) += 1;
                let o = g.outcome().unwrap();
                assert_eq!(o.scores, g.scores());
                assert!(!o.winners.is_empty());
                if k < 3 {
                    let mut replay = Portal::setup(&opts, seats, seed).unwrap();
                    for (s, a) in &log {
                        replay.apply(*s, a).unwrap();
                    }
                    assert_eq!(
                        serde_json::to_string(&replay).unwrap(),
                        serde_json::to_string(&g).unwrap()
                    );
                }
            }
        }
    }
    assert!(games >= 960);
    assert!(reasons.len() >= 2, "{reasons:?}");
}

// ---------------------------------------------------------------- scenarios (spec 12)

fn s1() -> Portal {
    Pos::new()
        .face("m1", 1, Face::A)
        .discard(&[Card::Space])
        .deck(&[Card::Fact])
        .hand(B, &[Card::Bird])
        .s(B, "t10", 1)
        .s(B, "b10", 1)
        .s(B, "m3", 2)
        .s(R, "t10", 1)
        .s(R, "m9", 2)
        .s(R, "m1", 1)
        .build()
}

#[test]
fn s1_the_rulebook_turn_step_by_step() {
    let mut g = s1();
    assert_eq!(options(&g), strs(&["play bird", "gun bird", "done"]));
    play(&mut g, B, "done");
    play(&mut g, B, "move m3");
    assert_eq!(options(&g), strs(&["count 1", "count 2"]));
    play(&mut g, B, "count 2");
    assert_eq!(
        options(&g),
        strs(&["to t4", "to t2", "to m5", "to m1", "to b4", "to b2"])
    );
    play(&mut g, B, "to m1");
    assert_eq!(
        options(&g),
        strs(&["activate top", "activate mid", "activate bot"])
    );
    let ev = play(&mut g, B, "activate mid");
    assert!(ev.contains(&Ev::MajorityResolved {
        chamber: ch("m1"),
        counts: vec![2, 1],
        recipient: Some(B),
        reason: Majority::Majority
    }));
    assert_eq!(g.prompt().unwrap().seat, B);
    play(&mut g, B, "subject top");
    play(&mut g, B, "subject mid");
    let ev = play(&mut g, B, "cake top");
    assert!(ev.contains(&Ev::SubjectsDestroyed {
        chamber: ch("m1"),
        owner: B,
        count: 2,
        cause: Death::Recycle
    }));
    assert!(ev.contains(&Ev::SubjectsDestroyed {
        chamber: ch("m1"),
        owner: R,
        count: 1,
        cause: Death::Recycle
    }));
    assert!(ev.contains(&Ev::PanelFlipped {
        chamber: ch("m1"),
        face: vec![Icon::Subject, Icon::Card]
    }));
    assert_eq!(kind(&g), "recycle_floor");
    let ev = play(&mut g, B, "recycle bot");
    assert!(ev.contains(&Ev::ChamberRecycled {
        from: ch("m1"),
        to: ch("b12"),
        floor: Floor::Bot
    }));
    check_s1_end(&g);
}

fn check_s1_end(g: &Portal) {
    assert_eq!(
        (subj(g, B, "t10"), subj(g, B, "m9"), subj(g, B, "b10")),
        (2, 1, 1)
    );
    assert_eq!((g.subjects_in_lab(B), g.seat(B).subject_supply), (4, 4));
    assert_eq!(
        (cake(g, B, "t10"), g.cake_in_lab(B), g.seat(B).cake_supply),
        (1, 1, 7)
    );
    assert_eq!(
        (
            subj(g, R, "t10"),
            subj(g, R, "m9"),
            g.subjects_in_lab(R),
            g.seat(R).subject_supply
        ),
        (1, 2, 3, 5)
    );
    assert_eq!(ids(g, Floor::Mid), strs(&["m9", "m7", "m5", "m3"]));
    assert_eq!(
        ids(g, Floor::Bot),
        strs(&["b12", "b10", "b8", "b6", "b4", "b2"])
    );
    assert_eq!(g.physical_neighbours(ch("b12")), vec![ch("b10")]);
    assert_eq!(hand(g, B), vec![(Card::Bird, false)]);
    assert_eq!(g.prompt().unwrap().seat, R);
    assert_eq!(options(g), strs(&["move t10", "move m9"]));
}

#[test]
fn s1_as_one_chain_and_the_text_version_with_bird() {
    let mut g = s1();
    play(
        &mut g,
        B,
        "done; move m3 2 m1; activate mid; subject top; subject mid; cake top; recycle bot",
    );
    check_s1_end(&g);

    let mut g = s1();
    play(&mut g, B, "play bird");
    assert_eq!(
        options(&g),
        strs(&["kill t10", "kill m9", "kill m3", "kill m1", "kill b10"])
    );
    let ev = play(&mut g, B, "kill m9");
    assert!(ev.contains(&Ev::SubjectsDestroyed {
        chamber: ch("m9"),
        owner: R,
        count: 1,
        cause: Death::Card(Card::Bird)
    }));
    assert!(ev.contains(&Ev::CharacterChanged {
        card: Some(Card::Bird)
    }));
    assert_eq!(kind(&g), "move_source");
    let ev = play(
        &mut g,
        B,
        "move m3 2 m1; activate mid; subject top; subject mid; cake top",
    );
    assert!(!ev.iter().any(|e| matches!(e, Ev::PanelFlipped { .. })));
    play(&mut g, B, "recycle bot");
    assert_eq!(
        (
            subj(&g, B, "t10"),
            subj(&g, B, "m9"),
            subj(&g, B, "b10"),
            g.subjects_in_lab(B)
        ),
        (2, 1, 1, 4)
    );
    assert_eq!(cake(&g, B, "t10"), 1);
    assert_eq!(
        (
            subj(&g, R, "t10"),
            subj(&g, R, "m9"),
            g.subjects_in_lab(R),
            g.seat(R).subject_supply
        ),
        (1, 1, 2, 6)
    );
    let b12 = g.chamber(ch("b12")).unwrap();
    assert_eq!((b12.panel, b12.face), (0, Face::A));
    assert_eq!(g.discard, vec![Card::Space, Card::Bird]);
    assert!(hand(&g, B).is_empty());
    assert_eq!(options(&g), strs(&["move t10", "move m9"]));
}

#[test]
fn s2_setup() {
    let g = Portal::setup(&GameOptions::new(), 3, 7).unwrap();
    assert_eq!(ids(&g, Floor::Top), strs(&["t10", "t8", "t6", "t4", "t2"]));
    assert_eq!(ids(&g, Floor::Mid), strs(&["m9", "m7", "m5", "m3", "m1"]));
    assert_eq!(ids(&g, Floor::Bot), strs(&["b10", "b8", "b6", "b4", "b2"]));
    assert_eq!(g.set_aside.len(), 3);
    check_invariants(&g);
    for s in (0..3).map(Seat) {
        assert_eq!(
            (subj(&g, s, "t10"), subj(&g, s, "m9"), subj(&g, s, "b10")),
            (1, 2, 1)
        );
        let st = g.seat(s);
        assert_eq!(
            (
                st.subject_supply,
                st.cake_supply,
                st.incinerated,
                st.hand.len()
            ),
            (4, 8, 0, 0)
        );
    }
    assert_eq!(g.portals, [ch("t2"), ch("b2")]);
    assert_eq!(
        (
            g.turret,
            g.cube,
            g.discard.len(),
            g.character(),
            g.deck.len()
        ),
        (None, None, 0, None, 20)
    );
    let p = g.prompt().unwrap();
    assert_eq!(p.seat, g.first);
    assert_eq!(options(&g), strs(&["move t10", "move m9", "move b10"]));
    let again = Portal::setup(&GameOptions::new(), 3, 7).unwrap();
    assert_eq!(
        serde_json::to_string(&g).unwrap(),
        serde_json::to_string(&again).unwrap()
    );
    let public = serde_json::to_string(&g.public_view()).unwrap();
    assert!(!public.contains("P0") && !public.contains("P1") && !public.contains("panel"));
    assert!(
        !public.contains("back\":["),
        "no back face without show_backs"
    );
    let top = g.deck.last().unwrap().slug();
    for c in Card::ALL.iter().filter(|c| c.slug() != top) {
        assert!(
            !public.contains(&format!("\"{}\"", c.slug())),
            "{} leaked",
            c.slug()
        );
    }
}

#[test]
fn s3_fact_core_fresh_cards_and_the_both_bonus() {
    let mut g = Pos::new()
        .initial(&[B, R])
        .hand(B, &[Card::Fact])
        .deck(&[Card::Bird, Card::Greg, Card::Oracle, Card::Chell])
        .build();
    let mut any = g.clone();
    let applied = g.apply(B, &Action::Play(Card::Fact)).unwrap();
    assert!(applied.barrier);
    let ev: Vec<Ev> = applied.events.into_iter().map(|e| e.ev).collect();
    assert!(ev.contains(&Ev::CardTaken {
        seat: B,
        card: Card::Bird
    }));
    assert!(ev.contains(&Ev::CardTaken {
        seat: B,
        card: Card::Greg
    }));
    assert!(ev.contains(&Ev::DeckTopRevealed {
        card: Some(Card::Oracle)
    }));
    assert!(ev.contains(&Ev::CharacterChanged {
        card: Some(Card::Fact)
    }));
    assert_eq!(kind(&g), "move_source");
    play(&mut g, B, "move m9; count 1");
    assert_eq!(
        options(&g),
        strs(&["to t10", "to t8", "to m7", "to b10", "to b8"])
    );
    play(&mut g, B, "to m7");
    assert_eq!(options(&g), strs(&["bonus top", "bonus mid", "bonus bot"]));
    let ev = play(&mut g, B, "bonus mid");
    assert!(ev.contains(&Ev::CardTaken {
        seat: B,
        card: Card::Oracle
    }));
    assert_eq!(
        hand(&g, B),
        vec![(Card::Bird, true), (Card::Greg, true), (Card::Oracle, true)]
    );
    assert_eq!(
        (
            subj(&g, B, "t10"),
            subj(&g, B, "m9"),
            subj(&g, B, "m7"),
            subj(&g, B, "b10")
        ),
        (1, 2, 1, 1)
    );
    assert_eq!((g.subjects_in_lab(B), g.seat(B).subject_supply), (5, 3));
    assert_eq!(g.discard, vec![Card::Fact]);
    assert_eq!(g.deck.last(), Some(&Card::Chell));
    assert_eq!(refused(&mut g, B, "play bird"), RuleError::NotThisPrompt);
    // The whole turn through the engine face: the bonus take is a barrier.
    let line = "play fact; move m9 1 m7; bonus mid";
    let moves = crate::engine::AnyGame::play_line(&mut any, B, line).unwrap();
    assert!(moves.last().unwrap().barrier);
    // Next turn of blue: fresh marks are gone.
    play(&mut g, B, "activate top; recycle top");
    let r_turn = "move t10 1 t8; bonus top; activate top";
    play(&mut g, R, r_turn);
    if kind(&g) == "recycle_floor" {
        play(&mut g, R, "recycle top");
    }
    assert_eq!(g.prompt().unwrap().seat, B);
    assert_eq!(
        options(&g),
        strs(&[
            "play bird",
            "play greg",
            "play oracle",
            "gun bird",
            "gun greg",
            "gun oracle",
            "done"
        ])
    );
}

#[test]
fn s4_no_rewards_on_a_tie_or_with_the_cube() {
    let mut g = Pos::new()
        .face("m1", 1, Face::A)
        .s(B, "t10", 1)
        .s(B, "m9", 1)
        .s(B, "b10", 1)
        .s(B, "m1", 1)
        .s(R, "t10", 1)
        .s(R, "m9", 1)
        .s(R, "b10", 1)
        .s(R, "m1", 1)
        .build();
    play(&mut g, B, "move t10 1 t8");
    assert_eq!(
        options(&g),
        strs(&["bonus top", "bonus mid", "bonus bot", "bonus card"])
    );
    play(&mut g, B, "bonus bot");
    let ev = play(&mut g, B, "activate mid");
    assert!(ev.contains(&Ev::MajorityResolved {
        chamber: ch("m1"),
        counts: vec![1, 1],
        recipient: None,
        reason: Majority::Tie
    }));
    assert_eq!(kind(&g), "recycle_floor");
    play(&mut g, B, "recycle mid");
    assert_eq!(ids(&g, Floor::Mid), strs(&["m11", "m9", "m7", "m5", "m3"]));
    assert_eq!(
        (
            subj(&g, B, "t8"),
            subj(&g, B, "m9"),
            subj(&g, B, "b10"),
            g.subjects_in_lab(B)
        ),
        (1, 1, 2, 4)
    );
    assert_eq!(
        (
            subj(&g, R, "t10"),
            subj(&g, R, "m9"),
            subj(&g, R, "b10"),
            g.seat(R).subject_supply
        ),
        (1, 1, 1, 5)
    );
    assert_eq!(g.floors.iter().flatten().map(Chamber::cakes).sum::<u8>(), 0);

    let mut g = Pos::new()
        .face("m1", 1, Face::A)
        .s(B, "t10", 1)
        .s(B, "m9", 1)
        .s(B, "b10", 1)
        .s(B, "m1", 2)
        .s(R, "t10", 1)
        .s(R, "m9", 2)
        .s(R, "b10", 1)
        .build();
    g.cube = Some(ch("m1"));
    let ev = play(&mut g, B, "move t10 1 t8; bonus bot; activate mid");
    assert!(ev.contains(&Ev::MajorityResolved {
        chamber: ch("m1"),
        counts: vec![2, 0],
        recipient: None,
        reason: Majority::CubeBlocked
    }));
    play(&mut g, B, "recycle top");
    assert_eq!(g.cube, Some(ch("t12")));
    assert_eq!(g.chamber(ch("t12")).unwrap().face, Face::B);
    assert_eq!(
        (
            subj(&g, B, "t8"),
            subj(&g, B, "m9"),
            subj(&g, B, "b10"),
            g.subjects_in_lab(B)
        ),
        (1, 1, 2, 4)
    );
    assert_eq!(g.subjects_in_lab(R), 4);
}

fn split_pos(split: &'static str, floors: [Vec<u16>; 3]) -> Portal {
    let mut p = Pos::new()
        .opt("split_rule", split)
        .s(B, "m5", 1)
        .s(R, "m5", 1);
    p.floors = Some(floors);
    p.activate = true;
    p.build()
}

#[test]
fn s5_the_split_rule_both_readings() {
    let floors = || {
        [
            vec![16, 14, 12, 10],
            vec![9, 7, 5, 3, 1],
            vec![12, 10, 8, 6, 4, 2],
        ]
    };
    let mut g = split_pos("removal", floors());
    assert_eq!(options(&g), strs(&["activate mid", "activate bot"]));
    assert_eq!(refused(&mut g, B, "activate top"), RuleError::WouldSplitLab);
    let v = g.public_view();
    assert!(v.chambers.iter().any(|c| c.id == "t10" && c.locked));

    let mut g = split_pos("final", floors());
    assert_eq!(
        options(&g),
        strs(&["activate top", "activate mid", "activate bot"])
    );
    let ev = play(&mut g, B, "activate top");
    assert!(ev.contains(&Ev::ChamberRecycled {
        from: ch("t10"),
        to: ch("m11"),
        floor: Floor::Mid
    }));
    assert!(Portal::connected(&g.all_chambers()));
    let n = g.physical_neighbours(ch("m11"));
    assert!(n.contains(&ch("t12")) && n.contains(&ch("m9")));
}

#[test]
fn s6_a_short_floor_takes_its_panel_back() {
    let floors = || {
        [
            vec![10, 8, 6],
            vec![9, 7, 5, 3, 1],
            vec![14, 12, 10, 8, 6, 4, 2],
        ]
    };
    let mut g = split_pos("removal", floors());
    let mut chain = g.clone();
    let ev = play(&mut g, B, "activate top");
    assert!(ev.contains(&Ev::ChamberRecycled {
        from: ch("t6"),
        to: ch("t12"),
        floor: Floor::Top
    }));
    assert_eq!(ids(&g, Floor::Top), strs(&["t12", "t10", "t8"]));
    assert_eq!(
        refused(&mut chain, B, "activate top; recycle bot"),
        RuleError::FloorMustBeRefilled
    );
    // Rule 3 would make the same forced option a no-op, but the turn has passed to red, and
    // the engine contract refuses every input from a seat that is not asked.
    let mut again = split_pos("removal", floors());
    let mut any: Box<dyn crate::engine::AnyGame> = Box::new(again.clone());
    assert!(any.play_line(B, "activate top; recycle top").is_err());
    // Within the seat's own turn it is a no-op: the count was automatic.
    play(&mut again, B, "activate top");
    let mut g = std2();
    play(&mut g, B, "move t10; count 1; to t8");
    assert_eq!(kind(&g), "bonus");
}

#[test]
fn s7_portal_gun_moving_through_portals_and_bird() {
    let mut g = Pos::new()
        .initial(&[B, R])
        .hand(B, &[Card::Bird])
        .deck(&[Card::Chell])
        .build();
    play(&mut g, B, "gun bird");
    assert_eq!(options(&g).len(), 12);
    assert_eq!(refused(&mut g, B, "portal m1"), RuleError::PortalOnOldEdge);
    play(&mut g, B, "portal t10");
    assert_eq!(options(&g).len(), 11);
    assert_eq!(
        refused(&mut g, B, "portal t10"),
        RuleError::SamePortalChamber
    );
    let ev = play(&mut g, B, "portal b6");
    assert!(ev.contains(&Ev::PortalsPlaced {
        a: ch("t10"),
        b: ch("b6")
    }));
    assert_eq!(g.character(), Some(Card::Bird));
    assert_eq!(kind(&g), "move_source");
    play(&mut g, B, "move t10");
    assert_eq!(options(&g), strs(&["to t8", "to m9", "to b6"]));
    play(&mut g, B, "to b6");
    let ev = play(&mut g, B, "bonus card");
    assert!(ev.contains(&Ev::CardTaken {
        seat: B,
        card: Card::Chell
    }));
    let t2 = g.chamber(ch("t2")).unwrap().clone();
    let ev = play(&mut g, B, "activate top");
    assert!(!ev.iter().any(|e| matches!(e, Ev::PanelFlipped { .. })));
    play(&mut g, B, "recycle top");
    assert_eq!(g.portals, [ch("t10"), ch("b6")]);
    assert_eq!(
        (subj(&g, B, "m9"), subj(&g, B, "b10"), subj(&g, B, "b6")),
        (2, 1, 1)
    );
    assert_eq!(hand(&g, B), vec![(Card::Chell, true)]);
    assert_eq!(ids(&g, Floor::Top), strs(&["t12", "t10", "t8", "t6", "t4"]));
    let t12 = g.chamber(ch("t12")).unwrap();
    assert_eq!((t12.panel, t12.face), (t2.panel, t2.face));
}

#[test]
fn s8_the_turret_delivered_kills_and_keeps_cake() {
    let mut g = Pos::new()
        .face("m1", 3, Face::B)
        .s(B, "t10", 1)
        .s(B, "b10", 1)
        .s(B, "m3", 2)
        .c(B, "t10", 1)
        .s(R, "t10", 1)
        .s(R, "m9", 2)
        .s(R, "b10", 1)
        .build();
    play(&mut g, B, "move m3 2 m1; activate mid");
    assert_eq!(
        options(&g),
        strs(&[
            "subject top",
            "subject mid",
            "subject bot",
            "turret top",
            "turret mid",
            "turret bot"
        ])
    );
    play(&mut g, B, "subject top");
    let ev = play(&mut g, B, "turret mid");
    assert!(ev.contains(&Ev::TurretPlaced { to: ch("m9") }));
    assert!(ev.contains(&Ev::SubjectsDestroyed {
        chamber: ch("m9"),
        owner: R,
        count: 2,
        cause: Death::Turret
    }));
    assert!(ev.contains(&Ev::PanelFlipped {
        chamber: ch("m1"),
        face: vec![Icon::Subject, Icon::Subject, Icon::Cake]
    }));
    play(&mut g, B, "recycle mid");
    assert_eq!(
        (
            subj(&g, B, "t10"),
            subj(&g, B, "b10"),
            g.seat(B).subject_supply
        ),
        (2, 1, 5)
    );
    assert_eq!(
        (
            subj(&g, R, "t10"),
            subj(&g, R, "b10"),
            g.seat(R).subject_supply
        ),
        (1, 1, 6)
    );
    assert_eq!(g.turret, Some(ch("m9")));
    play(&mut g, R, "move t10");
    assert_eq!(options(&g), strs(&["to t8", "to m11", "to m9"]));
    play(&mut g, R, "to m9");
    assert_eq!(options(&g), strs(&["carry blue", "carry done"]));
    let ev = play(&mut g, R, "carry blue");
    assert!(ev.contains(&Ev::SubjectsMoved {
        owner: R,
        from: ch("t10"),
        to: ch("m9"),
        count: 1,
        carried: vec![B]
    }));
    assert!(ev.contains(&Ev::SubjectsDestroyed {
        chamber: ch("m9"),
        owner: R,
        count: 1,
        cause: Death::Turret
    }));
    play(&mut g, R, "bonus top");
    assert_eq!((subj(&g, R, "t10"), subj(&g, R, "b10")), (1, 1));
    assert_eq!(cake(&g, B, "m9"), 1);
    assert_eq!(g.scores()[0], 1);
}

#[test]
fn s9_last_subject_lost_ends_the_game_with_the_subject_tiebreak() {
    let mut g = Pos::new()
        .face("m1", 7, Face::B)
        .s(B, "t10", 1)
        .s(B, "m3", 2)
        .c(B, "t10", 2)
        .s(R, "m1", 1)
        .c(R, "b10", 2)
        .build();
    let ev = play(
        &mut g,
        B,
        "move m3 2 m1; activate mid; subject top; subject top; subject bot",
    );
    assert!(ev.iter().any(|e| matches!(
        e,
        Ev::GameEnded {
            reason: EndReason::NoSubjects(Seat(1)),
            ..
        }
    )));
    assert!(!ev.iter().any(|e| matches!(e, Ev::PanelFlipped { .. })));
    assert_eq!(g.scores(), vec![2, 2]);
    assert_eq!(
        (subj(&g, B, "t10"), subj(&g, B, "b10"), g.subjects_in_lab(B)),
        (3, 1, 4)
    );
    assert_eq!(g.outcome().unwrap().winners, vec![B]);
    assert!(g.prompt().is_none());
}

#[test]
fn s10_eight_incinerated_slices_end_the_game() {
    let mut p = Pos::new().initial(&[B, R]).c(B, "t10", 2).c(R, "m1", 1);
    p.inc = vec![(R, 7)];
    let mut g = p.build();
    let ev = play(&mut g, B, "move m9 1 m7; bonus mid; activate mid");
    assert!(ev.contains(&Ev::MajorityResolved {
        chamber: ch("m1"),
        counts: vec![0, 0],
        recipient: None,
        reason: Majority::Empty
    }));
    assert!(ev.contains(&Ev::CakeIncinerated {
        colour: R,
        chamber: ch("m1"),
        count: 1,
        cause: None
    }));
    assert!(ev.iter().any(|e| matches!(
        e,
        Ev::GameEnded {
            reason: EndReason::Incinerated(Seat(1)),
            ..
        }
    )));
    assert_eq!(g.scores(), vec![2, 0]);
    assert_eq!(g.outcome().unwrap().winners, vec![B]);
}

#[test]
fn s11_reshuffling_the_deck() {
    let mut p = Pos::new()
        .initial(&[B, R])
        .hand(R, &[Card::Chell, Card::Doug, Card::Atlas]);
    p.deck_exact = Some(vec![Card::Oracle]);
    let others: Vec<Card> = Card::ALL
        .into_iter()
        .filter(|c| {
            ![
                Card::Chell,
                Card::Doug,
                Card::Atlas,
                Card::Oracle,
                Card::Space,
            ]
            .contains(c)
        })
        .chain([Card::Space])
        .collect();
    let mut g = p.discard(&others).build();
    play(&mut g, B, "move m9 1 m7");
    assert_eq!(
        options(&g),
        strs(&["bonus top", "bonus mid", "bonus bot", "bonus card"])
    );
    let applied = g.apply(B, &Action::BonusCard).unwrap();
    assert!(applied.barrier);
    let ev: Vec<Ev> = applied.events.into_iter().map(|e| e.ev).collect();
    assert_eq!(
        ev[0],
        Ev::CardTaken {
            seat: B,
            card: Card::Oracle
        }
    );
    assert_eq!(ev[1], Ev::DeckReshuffled { count: 15 });
    assert!(matches!(ev[2], Ev::DeckTopRevealed { card: Some(_) }));
    assert_eq!(g.discard, vec![Card::Space]);
    assert_eq!(g.deck.len(), 15);
    assert_eq!(hand(&g, B), vec![(Card::Oracle, true)]);
}

#[test]
fn s12_wheatley_subjects_ride_along() {
    let mut g = Pos::new()
        .face("m1", 1, Face::A)
        .discard(&[Card::Wheatley])
        .s(B, "t10", 1)
        .s(B, "b10", 1)
        .s(B, "m1", 2)
        .s(R, "t10", 1)
        .s(R, "m9", 2)
        .s(R, "m1", 1)
        .c(R, "m1", 1)
        .build();
    let ev = play(
        &mut g,
        B,
        "move t10 1 t8; bonus bot; activate mid; subject top; subject mid; cake top",
    );
    assert!(!ev.iter().any(|e| matches!(e, Ev::SubjectsDestroyed { .. })));
    assert!(ev.contains(&Ev::CakeIncinerated {
        colour: R,
        chamber: ch("m1"),
        count: 1,
        cause: None
    }));
    play(&mut g, B, "recycle top");
    assert_eq!((subj(&g, B, "t12"), subj(&g, R, "t12")), (2, 1));
    assert_eq!(
        (
            subj(&g, B, "t8"),
            subj(&g, B, "b10"),
            subj(&g, B, "t10"),
            subj(&g, B, "m9")
        ),
        (1, 2, 1, 1)
    );
    assert_eq!(
        (
            g.subjects_in_lab(B),
            g.subjects_in_lab(R),
            g.seat(R).incinerated
        ),
        (7, 4, 1)
    );
    assert_eq!(cake(&g, B, "t10"), 1);
}

#[test]
fn s13_greg_brings_back_opera_and_the_finale_ends_the_game() {
    let mut g = Pos::new()
        .hand(B, &[Card::Greg])
        .discard(&[Card::Opera, Card::Chell])
        .s(B, "t10", 1)
        .s(B, "m9", 2)
        .s(B, "b10", 1)
        .c(B, "t10", 3)
        .c(B, "m9", 2)
        .initial(&[R])
        .c(R, "b10", 2)
        .build();
    play(&mut g, B, "play greg");
    assert_eq!(options(&g), strs(&["pick chell", "pick opera"]));
    let ev = play(&mut g, B, "pick opera");
    assert_eq!(g.discard, vec![Card::Chell, Card::Greg, Card::Opera]);
    assert_eq!(
        ev.iter()
            .filter(|e| matches!(e, Ev::CharacterChanged { .. }))
            .count(),
        1
    );
    assert!(ev.contains(&Ev::CharacterChanged {
        card: Some(Card::Opera)
    }));
    assert_eq!(options(&g), strs(&["opera", "done"]));
    play(&mut g, B, "opera");
    assert_eq!(options(&g), strs(&["burn t10", "burn m9"]));
    play(&mut g, B, "burn t10; burn t10");
    assert_eq!(options(&g), strs(&["kill t10", "kill m9", "kill b10"]));
    let ev = play(&mut g, B, "kill b10");
    assert!(ev.iter().any(|e| matches!(
        e,
        Ev::GameEnded {
            reason: EndReason::Finale(Seat(0)),
            ..
        }
    )));
    assert_eq!(
        (
            g.cake_in_lab(B),
            g.seat(B).incinerated,
            g.subjects_in_lab(B)
        ),
        (3, 2, 3)
    );
    assert_eq!(g.outcome().unwrap().winners, vec![B]);
}

#[test]
fn s14_the_announcer_two_cycles_in_one_turn() {
    let mut g = Pos::new()
        .initial(&[B, R])
        .hand(B, &[Card::Announcer])
        .build();
    let ev = play(&mut g, B, "play announcer");
    assert!(ev.contains(&Ev::ExtraActivationGranted));
    assert_eq!(g.character(), Some(Card::Announcer));
    assert_eq!(
        options(&g),
        strs(&["move t10", "move m9", "move b10", "pass"])
    );
    play(&mut g, B, "pass; activate top; recycle top");
    assert_eq!(
        options(&g),
        strs(&["activate top", "activate mid", "activate bot"])
    );
    assert_eq!(g.old_edge(Floor::Top), Some(ch("t4")));
    play(&mut g, B, "activate bot; recycle bot");
    assert_eq!(ids(&g, Floor::Top), strs(&["t12", "t10", "t8", "t6", "t4"]));
    assert_eq!(ids(&g, Floor::Bot), strs(&["b12", "b10", "b8", "b6", "b4"]));
    assert_eq!(ids(&g, Floor::Mid), strs(&["m9", "m7", "m5", "m3", "m1"]));
    assert_eq!(g.portals, [ch("t12"), ch("b12")]);
    assert_eq!(g.prompt().unwrap().seat, R);
}

#[test]
fn s15_hand_over_the_limit_and_anger_core_closes_portals() {
    let mut g = Pos::new()
        .discard(&[Card::Curiosity, Card::Chell])
        .hand(
            B,
            &[Card::Doug, Card::Anger, Card::Bird, Card::Fact, Card::Space],
        )
        .s(B, "t10", 1)
        .s(B, "m9", 2)
        .s(B, "t2", 1)
        .initial(&[R])
        .build();
    assert_eq!(kind(&g), "hand_limit");
    assert_eq!(
        options(&g),
        strs(&[
            "discard doug",
            "discard anger",
            "discard bird",
            "discard fact",
            "discard space"
        ])
    );
    assert_eq!(refused(&mut g, B, "done"), RuleError::MustDiscard);
    play(&mut g, B, "discard doug; discard anger");
    assert_eq!(g.character(), Some(Card::Anger));
    assert_eq!(
        options(&g),
        strs(&[
            "play bird",
            "play fact",
            "play space",
            "gun bird",
            "gun fact",
            "gun space",
            "done"
        ])
    );
    play(&mut g, B, "done; move t2");
    assert_eq!(options(&g), strs(&["to t4", "to m3", "to m1"]));
    assert_eq!(
        g.discard,
        vec![Card::Curiosity, Card::Chell, Card::Doug, Card::Anger]
    );
    assert_eq!(
        hand(&g, B),
        vec![
            (Card::Bird, false),
            (Card::Fact, false),
            (Card::Space, false)
        ]
    );
}

#[test]
fn quick_rule_error_checks() {
    let std = || Pos::new().initial(&[B, R]).build();
    let mut g = std();
    assert_eq!(refused(&mut g, B, "move m5"), RuleError::NoOwnSubjects);
    assert_eq!(
        refused(&mut g, B, "move m9; count 3"),
        RuleError::CountOutOfRange
    );
    assert_eq!(
        refused(&mut g, B, "move m9; count 1; to t6"),
        RuleError::NotAdjacent
    );
    assert_eq!(refused(&mut g, B, "play bird"), RuleError::CardNotInHand);
    play(&mut g, B, "move m9 1 m7; bonus top");
    assert_eq!(refused(&mut g, B, "activate m3"), RuleError::NotOldEdge);
    assert_eq!(refused(&mut g, B, "move t10"), RuleError::NotThisPrompt);
    // Fact Core draws bird: fresh.
    let mut g = Pos::new()
        .initial(&[B, R])
        .hand(B, &[Card::Fact, Card::Chell])
        .deck(&[Card::Bird])
        .build();
    play(&mut g, B, "play fact");
    assert_eq!(refused(&mut g, B, "gun bird"), RuleError::CardIsFresh);
    // Carry cap 1: the second pick is refused.
    let mut g = Pos::new()
        .s(B, "t10", 1)
        .s(B, "m9", 2)
        .c(B, "t10", 1)
        .c(R, "t10", 1)
        .initial(&[R])
        .build();
    assert_eq!(
        refused(&mut g, B, "move t10; to t8; carry blue; carry red"),
        RuleError::CarryLimit
    );
    // Frankenturret: the Cube's chamber cannot be entered.
    let mut g = Pos::new()
        .initial(&[B, R])
        .discard(&[Card::Franken])
        .build();
    g.cube = Some(ch("t8"));
    assert_eq!(
        refused(&mut g, B, "move t10; to t8"),
        RuleError::CannotEnter
    );
}

// ---------------------------------------------------------------- rules (spec 7)

fn std2() -> Portal {
    Pos::new().initial(&[B, R]).build()
}

#[test]
fn r01_edges_and_deliveries_target_new_edges() {
    let mut g = std2();
    assert_eq!(
        (g.old_edge(Floor::Top), g.new_edge(Floor::Mid)),
        (Some(ch("t2")), Some(ch("m9")))
    );
    let ev = play(&mut g, B, "move m9 1 m7; bonus bot");
    assert!(ev.contains(&Ev::SubjectDelivered {
        owner: B,
        chamber: ch("b10"),
        cause: super::state::Cause::Bonus
    }));
    assert_eq!(refused(&mut g, B, "activate b10"), RuleError::NotOldEdge);
}

#[test]
fn r02_top_and_bot_never_touch() {
    let g = std2();
    for t in ids(&g, Floor::Top) {
        for b in ids(&g, Floor::Bot) {
            assert!(!ch(&t).touches(ch(&b)));
        }
    }
    assert_eq!(g.physical_neighbours(ch("t10")), vec![ch("t8"), ch("m9")]);
    assert_eq!(g.physical_neighbours(ch("m7")).len(), 6);
}

#[test]
fn r03_portal_link_for_subjects_only_while_open() {
    let g = Pos::new().initial(&[B, R]).s(B, "t2", 1).build();
    assert!(g.neighbours(ch("t2")).contains(&ch("b2")));
    assert!(!g.turret_neighbours(ch("t2")).contains(&ch("b2")));
    let g = Pos::new()
        .initial(&[B, R])
        .opt("turret_portals", "true")
        .build();
    assert!(g.turret_neighbours(ch("t2")).contains(&ch("b2")));
    let g = Pos::new().initial(&[B, R]).discard(&[Card::Anger]).build();
    assert!(!g.neighbours(ch("t2")).contains(&ch("b2")));
}

#[test]
fn r04_the_move_is_mandatory_one_group_one_destination() {
    let g = std2();
    assert!(!options(&g).contains(&"pass".to_string()));
    let mut g = std2();
    assert_eq!(refused(&mut g, B, "pass"), RuleError::NotAllowedNow);
}

#[test]
fn r05_r06_any_number_of_pieces_and_carry_any_colour() {
    let mut g = Pos::new()
        .s(B, "t10", 3)
        .s(B, "m9", 1)
        .c(R, "t10", 2)
        .initial(&[R])
        .build();
    play(&mut g, B, "move t10 2 t8");
    assert_eq!(options(&g), strs(&["carry red", "carry done"]));
    let ev = play(&mut g, B, "carry red; carry red");
    assert!(ev.contains(&Ev::SubjectsMoved {
        owner: B,
        from: ch("t10"),
        to: ch("t8"),
        count: 2,
        carried: vec![R, R]
    }));
    assert_eq!(cake(&g, R, "t8"), 2);
}

#[test]
fn r07_bonus_only_for_one_subject_in_the_move_step() {
    let mut g = std2();
    play(&mut g, B, "move m9 2 m7");
    assert_eq!(kind(&g), "activate");
    let mut g = Pos::new().initial(&[B, R]).hand(B, &[Card::Chell]).build();
    play(&mut g, B, "play chell; move t10; to t8");
    assert_eq!(kind(&g), "move_source", "no bonus after Chell's move");
    // Bonus lost when neither gain is possible.
    let mut g = Pos::new()
        .s(B, "t10", 1)
        .s(B, "m9", 7)
        .initial(&[R])
        .build();
    g.deck.clear();
    let ev = play(&mut g, B, "move t10 1 t8");
    assert!(ev.contains(&Ev::BonusLost { seat: B }));
}

#[test]
fn r08_r09_supply_and_turret_deaths() {
    let mut g = Pos::new().initial(&[B, R]).build();
    g.turret = Some(ch("t8"));
    let ev = play(&mut g, B, "move t10 1 t8");
    assert!(ev.contains(&Ev::SubjectsDestroyed {
        chamber: ch("t8"),
        owner: B,
        count: 1,
        cause: Death::Turret
    }));
    let ev = play(&mut g, B, "bonus top");
    assert!(ev.contains(&Ev::SubjectDelivered {
        owner: B,
        chamber: ch("t10"),
        cause: super::state::Cause::Bonus
    }));
    let mut g = Pos::new().initial(&[B, R]).build();
    g.turret = Some(ch("t10"));
    let ev = play(&mut g, B, "move m9 1 m7; bonus top");
    assert!(ev.contains(&Ev::SubjectsDestroyed {
        chamber: ch("t10"),
        owner: B,
        count: 1,
        cause: Death::Turret
    }));
}

#[test]
fn r10_chell_two_step_range() {
    let mut g = Pos::new().initial(&[B, R]).discard(&[Card::Chell]).build();
    play(&mut g, B, "move t10");
    let o = options(&g);
    assert!(
        o.contains(&"to t6".to_string())
            && o.contains(&"to m7".to_string())
            && o.contains(&"to b8".to_string())
    );
    assert!(!o.contains(&"to t10".to_string()));
    g.turret = Some(ch("t8"));
    let mut g2 = Pos::new().initial(&[B, R]).discard(&[Card::Chell]).build();
    g2.turret = Some(ch("t8"));
    play(&mut g2, B, "move t10");
    assert!(
        !options(&g2).contains(&"to t6".to_string()),
        "the Turret's chamber cannot be walked through"
    );
}

#[test]
fn r11_r12_majority_and_modifiers() {
    let atlas = |c: Card| {
        let mut p = Pos::new()
            .initial(&[B, R])
            .s(B, "m1", 1)
            .s(R, "m1", 1)
            .discard(&[c]);
        p.activate = true;
        p.build()
    };
    let mut g = atlas(Card::Atlas);
    let ev = play(&mut g, B, "activate mid");
    assert!(ev.iter().any(|e| matches!(
        e,
        Ev::MajorityResolved {
            recipient: Some(Seat(0)),
            reason: Majority::ActiveWinsTie,
            ..
        }
    )));
    let mut p = Pos::new()
        .initial(&[B, R])
        .s(B, "m1", 2)
        .s(R, "m1", 1)
        .discard(&[Card::Oracle]);
    p.activate = true;
    let mut g = p.build();
    let ev = play(&mut g, B, "activate mid");
    assert!(ev.iter().any(|e| matches!(
        e,
        Ev::MajorityResolved {
            recipient: Some(Seat(1)),
            reason: Majority::Fewest,
            ..
        }
    )));
    assert_eq!(
        g.prompt().unwrap().seat,
        R,
        "the recipient resolves the rewards"
    );
}

#[test]
fn r13_cube_blocks_unless_space_core() {
    let mut p = Pos::new()
        .initial(&[B, R])
        .s(B, "m1", 1)
        .discard(&[Card::Space]);
    p.activate = true;
    let mut g = p.build();
    g.cube = Some(ch("m1"));
    let ev = play(&mut g, B, "activate mid");
    assert!(ev.iter().any(|e| matches!(
        e,
        Ev::MajorityResolved {
            recipient: Some(Seat(0)),
            ..
        }
    )));
}

#[test]
fn r14_r15_rewards_in_any_order_and_lost_at_the_hand_limit() {
    let mut p = Pos::new()
        .initial(&[B, R])
        .face("m1", 8, Face::B)
        .s(B, "m1", 1)
        .hand(B, &[Card::Chell, Card::Doug]);
    p.activate = true;
    let mut g = p.build();
    let top = *g.deck.last().unwrap();
    let ev = play(&mut g, B, "activate mid; card");
    assert!(ev.iter().any(|e| matches!(
        e,
        Ev::RewardLost {
            icon: Icon::Card,
            reason: super::moves::LostReason::HandFull,
            ..
        }
    )));
    assert_eq!(
        hand(&g, B).last(),
        Some(&(top, true)),
        "the first A takes the top card"
    );
    let taken = ev
        .iter()
        .filter(|e| matches!(e, Ev::CardTaken { .. }))
        .count();
    assert_eq!(taken, 1, "the second A is lost, no card taken for it");
    assert_eq!(g.seat(B).hand.len(), 3);
}

#[test]
fn r16_turret_reward_steps_physically_or_stays() {
    let mut p = Pos::new()
        .initial(&[B, R])
        .face("m1", 3, Face::B)
        .s(B, "m1", 1);
    p.activate = true;
    let mut g = p.build();
    g.turret = Some(ch("t2"));
    play(&mut g, B, "activate mid; subject top");
    assert_eq!(
        options(&g),
        strs(&["turret stay", "turret t4", "turret m3", "turret m1"])
    );
}

#[test]
fn r17_recipient_fixed_even_if_killed_by_the_turret() {
    let mut p = Pos::new()
        .initial(&[B, R])
        .face("m1", 10, Face::A)
        .s(B, "m1", 1);
    p.activate = true;
    let mut g = p.build();
    g.turret = Some(ch("m3"));
    play(&mut g, B, "activate mid; turret m1");
    assert_eq!(subj(&g, B, "m1"), 0);
    assert_eq!(g.prompt().unwrap().kind, "reward");
    play(&mut g, B, "cake top");
    assert_eq!(cake(&g, B, "t10"), 1);
}

#[test]
fn r19_r20_r21_always_recycled_tokens_travel() {
    let mut p = Pos::new().initial(&[B, R]).c(R, "t2", 2);
    p.activate = true;
    let mut g = p.build();
    g.turret = Some(ch("t2"));
    let ev = play(&mut g, B, "activate top; recycle mid");
    assert!(ev.contains(&Ev::CakeIncinerated {
        colour: R,
        chamber: ch("t2"),
        count: 2,
        cause: None
    }));
    assert_eq!(
        (g.turret, g.portals[0], g.seat(R).incinerated),
        (Some(ch("m11")), ch("m11"), 2)
    );
    let mut p = Pos::new()
        .initial(&[B, R])
        .c(R, "t2", 2)
        .discard(&[Card::Caroline]);
    p.activate = true;
    let mut g = p.build();
    let ev = play(&mut g, B, "activate top; recycle top");
    assert!(ev.contains(&Ev::CakeReturned {
        colour: R,
        chamber: ch("t2"),
        count: 2
    }));
    assert_eq!((g.seat(R).cake_supply, g.seat(R).incinerated), (8, 0));
}

#[test]
fn r22_defective_turret_harms_nobody() {
    let mut g = Pos::new()
        .initial(&[B, R])
        .discard(&[Card::Defective])
        .build();
    g.turret = Some(ch("t8"));
    let ev = play(&mut g, B, "move t10 1 t8");
    assert!(!ev.iter().any(|e| matches!(e, Ev::SubjectsDestroyed { .. })));
    assert_eq!(subj(&g, B, "t8"), 1);
}

#[test]
fn r23_r24_r25_floor_choice_and_flip() {
    let mut p = Pos::new().initial(&[B, R]).face("t2", 5, Face::A);
    p.activate = true;
    let mut g = p.build();
    let ev = play(&mut g, B, "activate top");
    assert!(ev.contains(&Ev::PanelFlipped {
        chamber: ch("t2"),
        face: vec![Icon::Subject, Icon::Card]
    }));
    assert_eq!(
        options(&g),
        strs(&["recycle top", "recycle mid", "recycle bot"])
    );
    play(&mut g, B, "recycle bot");
    assert_eq!(g.new_edge(Floor::Bot), Some(ch("b12")));
}

#[test]
fn r26_r28_character_applies_at_once_for_everybody() {
    let mut g = Pos::new()
        .initial(&[B, R])
        .hand(B, &[Card::Doug])
        .c(B, "t10", 1)
        .build();
    play(&mut g, B, "play doug; from t10; to t8");
    assert_eq!(g.character(), Some(Card::Doug));
    play(&mut g, B, "move t10 1 t8");
    assert_eq!(kind(&g), "bonus", "Doug's character: nobody carries cake");
}

#[test]
fn r27_gained_cards_are_fresh_until_the_next_turn() {
    let mut g = std2();
    play(&mut g, B, "move m9 1 m7; bonus card");
    assert!(g.seat(B).hand[0].fresh);
}

#[test]
fn r29_hand_over_limit_discards_become_characters() {
    let g = Pos::new()
        .initial(&[B, R])
        .discard(&[Card::Chell])
        .hand(B, &[Card::Doug, Card::Bird, Card::Fact, Card::Space])
        .build();
    assert_eq!(kind(&g), "hand_limit");
}

#[test]
fn r30_portal_gun_cannot_target_the_old_edge() {
    let mut g = Pos::new().initial(&[B, R]).hand(B, &[Card::Pbody]).build();
    play(&mut g, B, "play pbody");
    assert_eq!(options(&g).len(), 15, "P-Body may use the old edge");
    play(&mut g, B, "portal m1; portal t2");
    assert_eq!(g.portals, [ch("m1"), ch("t2")]);
}

#[test]
fn r31_r32_drawing_with_an_empty_deck() {
    let mut p = Pos::new().initial(&[B, R]).discard(&[Card::Space]);
    p.deck_exact = Some(Vec::new());
    let mut g = p.build();
    g.deck.clear();
    assert!(!g.can_draw());
    play(&mut g, B, "move m9 1 m7");
    assert_eq!(options(&g), strs(&["bonus top", "bonus mid", "bonus bot"]));
}

#[test]
fn r33_greg_trade_and_r34_cave_once_per_turn() {
    let mut g = Pos::new()
        .initial(&[B, R])
        .discard(&[Card::Greg])
        .hand(B, &[Card::Bird])
        .build();
    let ev = play(&mut g, B, "trade bird; to top; to mid");
    assert!(ev.contains(&Ev::CardTraded {
        seat: B,
        card: Card::Bird
    }));
    assert_eq!((g.character(), g.subjects_in_lab(B)), (Some(Card::Bird), 6));
    let mut g = Pos::new()
        .initial(&[B, R])
        .discard(&[Card::Cave])
        .c(B, "t10", 2)
        .build();
    play(&mut g, B, "burn t10; to top");
    assert!(!options(&g).iter().any(|o| o.starts_with("burn")));
    assert_eq!(
        refused(&mut g, B, "burn t10"),
        RuleError::AlreadyUsedThisTurn
    );
}

#[test]
fn r35_finale_requirements() {
    let mut g = Pos::new()
        .initial(&[B, R])
        .discard(&[Card::Opera])
        .c(B, "t10", 1)
        .build();
    assert_eq!(
        refused(&mut g, B, "opera"),
        RuleError::FinaleRequirementsUnmet
    );
}

#[test]
fn r36_potatos_moves_after_the_cycle() {
    let mut g = Pos::new()
        .initial(&[B, R])
        .discard(&[Card::Potatos])
        .build();
    assert_eq!(kind(&g), "activate");
    play(&mut g, B, "activate mid; recycle mid");
    assert_eq!(kind(&g), "move_source");
}

#[test]
fn r37_franken_and_r38_anger() {
    let mut g = Pos::new()
        .initial(&[B, R])
        .discard(&[Card::Franken])
        .build();
    g.cube = Some(ch("b10"));
    play(&mut g, B, "move t10 1 t8");
    assert_eq!(options(&g), strs(&["bonus top", "bonus mid", "bonus card"]));
}

#[test]
fn r39_characters_off_keeps_every_default() {
    let g = Pos::new()
        .initial(&[B, R])
        .opt("characters", "off")
        .discard(&[Card::Potatos])
        .build();
    assert_eq!((g.character(), kind(&g)), (None, "move_source"));
}

#[test]
fn r40_r43_turn_order_and_round_limit() {
    let mut g = Pos::new().initial(&[B, R]).opt("max_rounds", "10").build();
    assert_eq!(
        kind(&g),
        "move_source",
        "R43: first turn starts at the Move source"
    );
    g.round = 10;
    g.active = R;
    g.agenda = vec![Step::TurnEnd];
    let mut log = Log::default();
    g.run(&mut log);
    assert!(log.events.iter().any(|e| matches!(
        e.ev,
        Ev::GameEnded {
            reason: EndReason::RoundLimit,
            ..
        }
    )));
}

#[test]
fn r41_r42_end_after_a_whole_recycle() {
    let mut p = Pos::new().s(B, "m1", 1).s(R, "m1", 1);
    p.activate = true;
    let mut g = p.build();
    let ev = play(&mut g, B, "activate mid");
    let ends: Vec<&Ev> = ev
        .iter()
        .filter(|e| matches!(e, Ev::GameEnded { .. }))
        .collect();
    assert_eq!(ends.len(), 1);
    assert!(matches!(
        ends[0],
        Ev::GameEnded {
            reason: EndReason::NoSubjects(Seat(0)),
            ..
        }
    ));
    assert_eq!(g.outcome().unwrap().winners, vec![B, R], "shared win");
}

#[test]
fn final_tie_vote_is_secret_until_the_last_ballot() {
    let mut p = Pos::new()
        .opt("final_tie", "vote")
        .s(B, "t10", 1)
        .c(B, "t10", 2)
        .s(R, "m9", 1)
        .c(R, "m9", 2)
        .s(Seat(2), "b10", 3);
    p.seats = 3;
    let mut g = p.build();
    let mut log = Log::default();
    g.finish(EndReason::RoundLimit, &mut log);
    assert!(g.outcome().is_none());
    let prompt = g.prompt().unwrap();
    assert_eq!((prompt.seat, prompt.kind), (Seat(2), "vote"));
    assert_eq!(options(&g), strs(&["vote blue", "vote red", "abstain"]));
    let ev = play(&mut g, Seat(2), "vote red");
    assert!(ev.contains(&Ev::VotesRevealed {
        tally: vec![0, 1, 0]
    }));
    assert_eq!(g.outcome().unwrap().winners, vec![R]);
    assert_eq!(g.private_view(Seat(2)).unwrap().vote, Some(Some(R)));
    // With `shared`, the same tie is a shared win.
    let mut p = Pos::new()
        .s(B, "t10", 1)
        .c(B, "t10", 2)
        .s(R, "m9", 1)
        .c(R, "m9", 2)
        .s(Seat(2), "b10", 3);
    p.seats = 3;
    let mut g = p.build();
    g.finish(EndReason::RoundLimit, &mut Log::default());
    assert_eq!(g.outcome().unwrap().winners, vec![B, R]);
}

#[test]
fn leak_hidden_hands_deck_and_backs_do_not_reach_the_public() {
    let mut rng = GameRng::seed_from_u64(5);
    for seed in 0..40u64 {
        let mut g = Portal::setup(&GameOptions::new(), 3, 500 + seed).unwrap();
        let steps = rng.gen_range(5..80);
        for _ in 0..steps {
            let Some(p) = g.prompt() else { break };
            let a = p.options[rng.gen_range(0..p.options.len())];
            g.apply(p.seat, &a).unwrap();
        }
        let mut h = g.clone();
        // Permute what the public may not see: the deck below its top, hand cards with the
        // same freshness, set-aside panels and panels showing the same face icons.
        let n = h.deck.len();
        if n > 2 {
            h.deck[..n - 1].reverse();
        }
        let mut pool: Vec<Card> = h.deck[..n.saturating_sub(1)].to_vec();
        for s in &mut h.seats {
            for c in &mut s.hand {
                if let Some(x) = pool.pop() {
                    pool.insert(0, c.card);
                    c.card = x;
                }
            }
        }
        let keep = n.saturating_sub(1);
        h.deck.splice(..keep, pool.into_iter().take(keep));
        let d = data().unwrap();
        let chambers: Vec<(usize, usize)> = (0..3)
            .flat_map(|f| (0..h.floors[f].len()).map(move |i| (f, i)))
            .collect();
        for &(f, i) in &chambers {
            let x = h.floors[f][i].clone();
            let icons = d.panels[usize::from(x.panel)].face(x.face).to_vec();
            if let Some(k) = h
                .set_aside
                .iter()
                .position(|(p, _)| d.panels[usize::from(*p)].a == icons)
            {
                let (p, _) = h.set_aside[k];
                h.set_aside[k] = (x.panel, Face::A);
                h.floors[f][i].panel = p;
                h.floors[f][i].face = Face::A;
            }
        }
        let ctx = RenderCtx::default();
        assert_eq!(
            serde_json::to_string(&g.public_view()).unwrap(),
            serde_json::to_string(&h.public_view()).unwrap()
        );
        assert_eq!(
            Portal::public_summary(&g.public_view(), &ctx),
            Portal::public_summary(&h.public_view(), &ctx)
        );
        assert_eq!(
            Portal::render_public(&g.public_view(), &ctx),
            Portal::render_public(&h.public_view(), &ctx)
        );
        // The next decisions' event texts are identical when the same public option is taken.
        for _ in 0..6 {
            let (Some(pg), Some(ph)) = (g.prompt(), h.prompt()) else {
                break;
            };
            let shared: Vec<Action> = pg
                .options
                .iter()
                .filter(|o| ph.options.contains(o))
                .copied()
                .collect();
            let Some(&a) = shared.first() else { break };
            if matches!(
                a,
                Action::Play(_) | Action::Gun(_) | Action::Discard(_) | Action::Trade(_)
            ) {
                break;
            }
            let eg = g.apply(pg.seat, &a).unwrap();
            let eh = h.apply(ph.seat, &a).unwrap();
            let tg: Vec<String> = eg
                .events
                .iter()
                .map(|e| g.event_text(e).render(crate::i18n::Lang::En))
                .collect();
            let th: Vec<String> = eh
                .events
                .iter()
                .map(|e| h.event_text(e).render(crate::i18n::Lang::En))
                .collect();
            if eg.events.iter().any(|e| {
                matches!(
                    e.ev,
                    Ev::PanelFlipped { .. }
                        | Ev::DeckTopRevealed { .. }
                        | Ev::DeckReshuffled { .. }
                )
            }) {
                break;
            }
            assert_eq!(tg, th);
        }
    }
}

#[test]
fn parser_survives_random_strings() {
    let g = std2();
    let mut rng = GameRng::seed_from_u64(11);
    let alphabet: Vec<char> = "abcdefghijklmnopqrstuvwxyz0123456789 ;-é🙂"
        .chars()
        .collect();
    let words = [
        "move", "to", "t10", "m9", "carry", "count", "play", "gun", "bonus", "activate", "top",
        "1", "2", "done",
    ];
    for _ in 0..3000 {
        let s: String = if rng.gen_bool(0.5) {
            (0..rng.gen_range(0..20))
                .map(|_| alphabet[rng.gen_range(0..alphabet.len())])
                .collect()
        } else {
            (0..rng.gen_range(1..6))
                .map(|_| words[rng.gen_range(0..words.len())])
                .collect::<Vec<_>>()
                .join(" ")
        };
        let mut h = g.clone();
        let before = serde_json::to_string(&h).unwrap();
        if play_line(&mut h, B, &s).is_err() {
            assert_eq!(serde_json::to_string(&h).unwrap(), before);
        }
        let _ = g.parse(R, &s);
    }
}

// ---------------------------------------------------------------- bot players (issue 9)

mod bot {
    use super::*;
    use crate::ai::{choose, Level};

    /// Plays `steps` seeded random options, then returns the game (still running, if it is).
    fn reach(opts: &GameOptions, seats: usize, seed: u64, steps: usize) -> Portal {
        let mut g = Portal::setup(opts, seats, seed).unwrap();
        let mut rng = GameRng::seed_from_u64(seed ^ 0xb07);
        for _ in 0..steps {
            let Some(p) = g.prompt() else { break };
            if p.seat.0 == 0 && rng.gen_bool(0.3) {
                // Stop at many kinds of prompt, including seat 0's.
                break;
            }
            let a = p.options[rng.gen_range(0..p.options.len())];
            g.apply(p.seat, &a).unwrap();
        }
        g
    }

    fn bot_choice(g: &Portal, level: Level, seed: u64) -> Option<usize> {
        let p = g.prompt()?;
        let public = g.public_view();
        let private = g.private_view(p.seat);
        choose::<Portal>(&public, private.as_ref(), p.seat, &p.options, level, seed)
            .map(|c| c.index)
    }

    #[test]
    fn imagined_games_show_the_same_views_and_conserve_every_piece() {
        let variants: [&[(&str, &str)]; 3] = [
            &[],
            &[("hands", "open"), ("show_backs", "true")],
            &[("final_tie", "vote"), ("split_rule", "final")],
        ];
        let mut rng = GameRng::seed_from_u64(41);
        let mut checked = 0;
        for (vi, v) in variants.iter().enumerate() {
            for seats in 2..=4 {
                for k in 0..6u64 {
                    let seed = 900 + 100 * vi as u64 + 10 * seats as u64 + k;
                    let g = reach(&options_of(v), seats, seed, rng.gen_range(0..150));
                    let Some(p) = g.prompt() else { continue };
                    let public = g.public_view();
                    let private = g.private_view(p.seat);
                    for _ in 0..3 {
                        let im = Portal::imagine(&public, private.as_ref(), p.seat, &mut rng)
                            .expect("a running game can be imagined");
                        assert_eq!(im.public_view(), public, "seed {seed}");
                        assert_eq!(im.private_view(p.seat), private, "seed {seed}");
                        assert_eq!(im.prompt().unwrap().options, p.options);
                        check_invariants(&im);
                        let mut cards: Vec<Card> = im.deck.clone();
                        cards.extend(&im.discard);
                        cards.extend(im.turn.resolving);
                        for s in &im.seats {
                            cards.extend(s.hand.iter().map(|h| h.card));
                        }
                        cards.sort();
                        assert_eq!(cards, Card::ALL.to_vec(), "every card once");
                        let mut panels: Vec<u8> = im
                            .floors
                            .iter()
                            .flatten()
                            .chain(im.lifted.iter().map(|l| &l.chamber))
                            .map(|x| x.panel)
                            .chain(im.set_aside.iter().map(|(p, _)| *p))
                            .collect();
                        panels.sort_unstable();
                        assert_eq!(panels, (0..18).collect::<Vec<u8>>(), "every panel once");
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked >= 100, "{checked}");
    }

    #[test]
    fn imagined_vote_keeps_the_voters_own_ballot() {
        let mut p = Pos::new()
            .opt("final_tie", "vote")
            .s(B, "t10", 1)
            .c(B, "t10", 2)
            .s(R, "m9", 1)
            .c(R, "m9", 2)
            .s(Seat(2), "b10", 3)
            .s(Seat(3), "b8", 1);
        p.seats = 4;
        let mut g = p.build();
        g.finish(EndReason::RoundLimit, &mut Log::default());
        play(&mut g, Seat(2), "vote red");
        let prompt = g.prompt().unwrap();
        assert_eq!((prompt.seat, prompt.kind), (Seat(3), "vote"));
        let mut rng = GameRng::seed_from_u64(3);
        // Seat 2 watches seat 3 vote: its own ballot is kept, seat 3's prompt is the same.
        let im = Portal::imagine(
            &g.public_view(),
            g.private_view(Seat(2)).as_ref(),
            Seat(2),
            &mut rng,
        )
        .unwrap();
        assert_eq!(im.vote.as_ref().unwrap().votes, vec![Some(R)]);
        assert_eq!(im.public_view(), g.public_view());
        assert_eq!(im.private_view(Seat(2)), g.private_view(Seat(2)));
        // Seat 3 cannot see seat 2's ballot: it is sampled, and the views still agree.
        for _ in 0..5 {
            let im = Portal::imagine(
                &g.public_view(),
                g.private_view(Seat(3)).as_ref(),
                Seat(3),
                &mut rng,
            )
            .unwrap();
            assert_eq!(im.public_view(), g.public_view());
            assert_eq!(im.private_view(Seat(3)), g.private_view(Seat(3)));
        }
    }

    #[test]
    fn bots_only_pick_listed_options() {
        for (seats, seed) in [(2usize, 71u64), (3, 72)] {
            let mut g = Portal::setup(&GameOptions::new(), seats, seed).unwrap();
            for step in 0..40u64 {
                let Some(p) = g.prompt() else { break };
                let i = bot_choice(&g, Level::Easy, seed * 1000 + step).unwrap();
                assert!(i < p.options.len());
                g.apply(p.seat, &p.options[i]).unwrap();
            }
        }
    }

    #[test]
    fn the_bot_is_blind_to_hidden_cards_deck_order_and_panels() {
        let mut compared = 0;
        for seed in 0..12u64 {
            let g = reach(&GameOptions::new(), 3, 300 + seed, 40 + 5 * seed as usize);
            let Some(p) = g.prompt() else { continue };
            let me = usize::from(p.seat.0);
            // Another game the seat cannot tell apart: the other hands and the deck under its
            // top trade cards (freshness kept), and panels showing the same face trade places
            // with set-aside panels carrying that face.
            let mut h = g.clone();
            let under = h.deck.len().saturating_sub(1);
            let mut pool: Vec<Card> = h.deck[..under].to_vec();
            for (s, st) in h.seats.iter().enumerate() {
                if s != me {
                    pool.extend(st.hand.iter().map(|c| c.card));
                }
            }
            let shift = 1.min(pool.len());
            pool.rotate_left(shift);
            let mut next = pool.into_iter();
            for c in &mut h.deck[..under] {
                *c = next.next().unwrap();
            }
            for (s, st) in h.seats.iter_mut().enumerate() {
                if s != me {
                    for c in &mut st.hand {
                        c.card = next.next().unwrap();
                    }
                }
            }
            let d = data().unwrap();
            for f in 0..3 {
                for i in 0..h.floors[f].len() {
                    let x = h.floors[f][i].clone();
                    let icons = d.panels[usize::from(x.panel)].face(x.face);
                    if let Some(k) = h.set_aside.iter().position(|&(q, qf)| {
                        d.panels[usize::from(q)].face(qf) == icons
                            || d.panels[usize::from(q)].face(qf.other()) == icons
                    }) {
                        let (q, qf) = h.set_aside[k];
                        let face = if d.panels[usize::from(q)].face(qf) == icons {
                            qf
                        } else {
                            qf.other()
                        };
                        h.set_aside[k] = (x.panel, x.face);
                        h.floors[f][i].panel = q;
                        h.floors[f][i].face = face;
                    }
                }
            }
            assert_ne!(
                serde_json::to_string(&g).unwrap(),
                serde_json::to_string(&h).unwrap()
            );
            assert_eq!(g.public_view(), h.public_view());
            assert_eq!(g.private_view(p.seat), h.private_view(p.seat));
            // Normal on a few positions only: it is the slow one in debug builds.
            let levels: &[Level] = if seed < 3 {
                &[Level::Easy, Level::Normal]
            } else {
                &[Level::Easy]
            };
            for &level in levels {
                assert_eq!(
                    bot_choice(&g, level, seed),
                    bot_choice(&h, level, seed),
                    "seed {seed}"
                );
            }
            compared += 1;
        }
        assert!(compared >= 8, "{compared}");
    }

    #[test]
    fn the_bot_recycles_the_last_enemy_subject_when_it_wins() {
        // Red's only subject sits on the top old edge t2 (a card-only face, so red earns no
        // subject there); blue leads on cake. Activating top ends the game with blue ahead;
        // mid and bot are empty and let the game go on.
        let mut p = Pos::new()
            .s(B, "t10", 1)
            .s(B, "m9", 2)
            .s(B, "b10", 1)
            .s(R, "t2", 1)
            .c(B, "m9", 2)
            .c(R, "t8", 1)
            .face("t2", 8, Face::B);
        p.activate = true;
        let g = p.build();
        assert_eq!(kind(&g), "activate");
        let prompt = g.prompt().unwrap();
        let i = bot_choice(&g, Level::Normal, 5).unwrap();
        assert_eq!(g.notation(&prompt.options[i]), "activate top");
    }
}

/// Issue 25, item 4: setup starts the first turn by itself; what that did ("turn 1 starts"
/// and any step applied alone) now reaches the first board's log like any step's events
/// (old: dropped, Portal had no setup events at all). The first option drops them.
#[test]
fn issue25_setup_reports_the_first_turn_start() {
    for seats in 2..=4 {
        let mut g = Portal::setup(&options_of(&[]), seats, 3).unwrap();
        let ev = Game::setup_events(&g);
        assert_eq!(
            ev.first().map(|e| e.ev.clone()),
            Some(Ev::TurnStarted {
                seat: g.active,
                round: 1
            }),
            "{seats} seats"
        );
        let text = crate::engine::AnyGame::setup_texts(&g);
        assert_eq!(text.len(), ev.len());
        let p = Game::prompt(&g).unwrap();
        g.apply(p.seat, &p.options[0]).unwrap();
        assert!(Game::setup_events(&g).is_empty());
    }
}
