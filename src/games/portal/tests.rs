//! Portal rules, scenario by scenario (spec sections 7 and 12), random playouts with the
//! invariants of 4.9, replay, hidden-information leaks and the parser.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::components::{self, data};
use super::moves::{Action, Death, Ev, Icon, Majority};
use super::notation::{parse_chamber, play_line};
use super::rules::{Log, RuleError};
use super::state::{Card, Ch, Chamber, EndReason, Face, Floor, HandCard, Portal, Step, MAX_SEATS};
use crate::engine::{Game, GameOptions, Reject, RenderCtx, Seat};

const B: u8 = 0;
const R: u8 = 1;

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
    subj: Vec<(u8, &'static str, u8)>,
    cake: Vec<(u8, &'static str, u8)>,
    inc: Vec<(u8, u8)>,
    hands: Vec<(u8, Vec<Card>)>,
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
    fn initial(mut self, seats: &[u8]) -> Pos {
        for &s in seats {
            self.subj.extend([(s, "t10", 1), (s, "m9", 2), (s, "b10", 1)]);
        }
        self
    }
    fn s(mut self, seat: u8, at: &'static str, n: u8) -> Pos {
        self.subj.push((seat, at, n));
        self
    }
    fn c(mut self, seat: u8, at: &'static str, n: u8) -> Pos {
        self.cake.push((seat, at, n));
        self
    }
    fn face(mut self, at: &'static str, panel: u8, f: Face) -> Pos {
        self.faces.push((at, panel, f));
        self
    }
    fn hand(mut self, seat: u8, cards: &[Card]) -> Pos {
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
            g.chamber_mut(ch(at)).unwrap().subj[usize::from(s)] += n;
            g.seats[usize::from(s)].subject_supply -= n;
        }
        for &(s, at, n) in &self.cake {
            g.chamber_mut(ch(at)).unwrap().cake[usize::from(s)] += n;
            g.seats[usize::from(s)].cake_supply -= n;
        }
        for &(s, n) in &self.inc {
            g.seats[usize::from(s)].incinerated = n;
            g.seats[usize::from(s)].cake_supply -= n;
        }
        let mut used: Vec<Card> = self.discard.clone();
        for (s, cards) in &self.hands {
            g.seats[usize::from(*s)].hand = cards
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
        g.first = 0;
        g.active = 0;
        g.agenda = if self.activate {
            vec![Step::TurnEnd, Step::AfterCycle, Step::Recycle, Step::Activate]
        } else {
            vec![Step::TurnStart]
        };
        let mut log = Log::default();
        g.run(&mut log);
        g
    }
}

fn play(g: &mut Portal, seat: u8, line: &str) -> Vec<Ev> {
    match play_line(g, Seat(seat), line) {
        Ok(log) => log.events.into_iter().map(|e| e.ev).collect(),
        Err((i, e)) => panic!("`{line}` refused at part {i}: {e:?}"),
    }
}

fn refused(g: &mut Portal, seat: u8, line: &str) -> RuleError {
    let before = serde_json::to_string(g).unwrap();
    let err = match play_line(g, Seat(seat), line) {
        Ok(_) => panic!("`{line}` was accepted"),
        Err((_, Reject::Rule { error, .. })) => error,
        Err((_, Reject::Parse(p))) => panic!("`{line}` parse error {p:?}"),
    };
    assert_eq!(serde_json::to_string(g).unwrap(), before, "`{line}` changed the state");
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

fn subj(g: &Portal, s: u8, at: &str) -> u8 {
    g.chamber(ch(at)).map_or(0, |x| x.subj[usize::from(s)])
}

fn cake(g: &Portal, s: u8, at: &str) -> u8 {
    g.chamber(ch(at)).map_or(0, |x| x.cake[usize::from(s)])
}

fn ids(g: &Portal, f: Floor) -> Vec<String> {
    g.floor(f)
        .iter()
        .map(|x| Ch::new(f, x.c).to_string())
        .collect()
}

fn hand(g: &Portal, s: u8) -> Vec<(Card, bool)> {
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
        assert!(fl.len() >= 3 - usize::from(pending_floor && g.lifted.as_ref().unwrap().from.f == f), "I2 floor size");
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
        assert_eq!(g.subjects_in_lab(s) + u32::from(st.subject_supply), u32::from(d.subjects), "I6 subjects");
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
        assert!(g.exists(p) || g.lifted.as_ref().is_some_and(|l| l.from == p), "portal off the Lab");
    }
    if let Some(p) = g.prompt() {
        assert!(!p.options.is_empty());
        assert!(p.options.len() <= 25, "menu over 25: {} {}", p.kind, p.options.len());
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
    let count = |i: Icon| d.panels.iter().map(|p| p.a.iter().chain(&p.b).filter(|&&x| x == i).count()).sum::<usize>();
    assert_eq!(
        [count(Icon::Subject), count(Icon::Cake), count(Icon::Card), count(Icon::Turret), count(Icon::Cube)],
        [39, 20, 15, 5, 4]
    );
    assert!(d.panels.iter().all(|p| p.a.contains(&Icon::Cake) && !p.b.contains(&Icon::Cake)));
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
    &[("colours", "green,yellow,red,blue"), ("split_rule", "final"), ("turret_portals", "true")],
];

fn options_of(v: &[(&str, &str)]) -> GameOptions {
    v.iter().map(|(k, val)| ((*k).to_string(), (*val).to_string())).collect()
}

/// One random game: every listed option applies, other seats and garbled input are refused
/// without change, the invariants hold; returns the final state and its log.
fn random_game(opts: &GameOptions, seats: usize, seed: u64, thorough: bool) -> (Portal, Vec<(Seat, Action)>) {
    let mut g = Portal::setup(opts, seats, seed).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0xfeed);
    let mut log = Vec::new();
    for _ in 0..6000 {
        check_invariants(&g);
        let Some(p) = g.prompt() else {
            assert!(g.outcome().is_some());
            return (g, log);
        };
        let pick = p.options[rng.gen_range(0..p.options.len())];
        let text = g.notation(&pick);
        assert_eq!(g.parse(p.seat, &text).unwrap(), vec![pick], "notation round trip `{text}`");
        if thorough {
            let before = serde_json::to_string(&g).unwrap();
            let other = Seat((p.seat.0 + 1) % u8::try_from(seats).unwrap());
            assert!(g.clone().apply(other, &pick).is_err());
            for junk in ["move", "to t999", "carry purple", "play xyz", "count 0", "x y z", "activate m99"] {
                assert!(play_line(&mut g, p.seat, junk).is_err(), "`{junk}` accepted");
            }
            // An option of another prompt kind is refused.
            let foreign = if p.kind == "vote" { Action::Done } else { Action::Vote(0) };
            assert!(g.clone().apply(p.seat, &foreign).is_err());
            assert_eq!(serde_json::to_string(&g).unwrap(), before);
        }
        g.apply(p.seat, &pick).unwrap_or_else(|e| panic!("listed `{text}` refused: {e}"));
        log.push((p.seat, pick));
    }
    panic!("game did not end (seed {seed}, {seats} seats)");
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
                *reasons.entry(format!("{:?}", g.ended.map(|r| std::mem::discriminant(&r)))).or_insert(0) += 1;
                let o = g.outcome().unwrap();
                assert_eq!(o.scores, g.scores());
                assert!(!o.winners.is_empty());
                if k < 3 {
                    let mut replay = Portal::setup(&opts, seats, seed).unwrap();
                    for (s, a) in &log {
                        replay.apply(*s, a).unwrap();
                    }
                    assert_eq!(serde_json::to_string(&replay).unwrap(), serde_json::to_string(&g).unwrap());
                }
            }
        }
    }
    assert!(games >= 960);
    assert!(reasons.len() >= 2, "{reasons:?}");
}
