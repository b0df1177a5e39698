//! The Portal bot. The Lab, supplies, discard pile, deck top and the engine's pending steps are
//! public; what a seat cannot see is the other hidden hands, the deck below its top, which
//! panel shows which face (hence every back face and the set-aside panels) and the RNG. A bot
//! rebuilds ("imagines") a whole game from its views with those parts sampled:
//! - panels: every chamber gets a panel whose visible face matches (and whose back matches too
//!   with `show_backs`), each panel used once; the rest are set aside;
//! - cards: the cards nobody has seen are dealt to the hidden hands (their sizes and fresh
//!   counts are public) and the rest go under the deck top in random order.
//!
//! Playouts follow cheap greedy habits ([`Portal::playout_option`]): activate the old-edge
//! chamber that pays best, take cake first, carry one's own cake, keep cards for the search.
//! Positions a playout stops at are scored by cake plus the cake's prospects
//! ([`Portal::potential`]).

use crate::engine::rng::SliceDraw;

use super::components::shipped;
use super::moves::{Action, Icon};
use super::notation::parse_chamber;
use super::state::{
    Card, Ch, Chamber, Face, Floor, HandCard, Lifted, MoveMode, Portal, SeatState, Step, MAX_SEATS,
};
use super::view::{ChamberView, HandView, PrivateView, PublicView};
use super::COLOURS;
use crate::engine::{rng_from_seed, GameRng, Seat};

/// How much a reward icon is worth to its recipient, in cake slices.
fn icon_value(i: Icon) -> f64 {
    match i {
        Icon::Cake => 1.0,
        Icon::Card => 0.45,
        Icon::Subject => 0.35,
        Icon::Turret => 0.3,
        Icon::Cube => 0.25,
    }
}

fn face_value(icons: &[Icon]) -> f64 {
    icons.iter().map(|&i| icon_value(i)).sum()
}

/// A chamber's pieces from its view (the panel is chosen later).
fn chamber_from(x: &ChamberView) -> Chamber {
    let mut subj = [0; MAX_SEATS];
    let mut cake = [0; MAX_SEATS];
    for (slot, &n) in subj.iter_mut().zip(&x.subjects) {
        *slot = n;
    }
    for (slot, &n) in cake.iter_mut().zip(&x.cake) {
        *slot = n;
    }
    Chamber {
        c: x.c,
        panel: 0,
        face: Face::A,
        subj,
        cake,
    }
}

/// A panel and face for every chamber view, each panel used once, drawn at random among the
/// assignments that show the same icons (and the same backs when they are public).
fn assign_panels(views: &[&ChamberView], rng: &mut GameRng) -> Option<Vec<(u8, Face)>> {
    let panels = &shipped().panels;
    let candidates: Vec<Vec<(u8, Face)>> = views
        .iter()
        .map(|x| {
            let mut v: Vec<(u8, Face)> = Vec::new();
            for (i, p) in panels.iter().enumerate() {
                for f in [Face::A, Face::B] {
                    let back_ok = x.back.as_ref().is_none_or(|b| p.face(f.other()) == b);
                    if p.face(f) == x.icons.as_slice() && back_ok {
                        v.push((u8::try_from(i).ok()?, f));
                    }
                }
            }
            v.shuffle(rng);
            Some(v)
        })
        .collect::<Option<_>>()?;
    // A perfect matching of chambers to panels by augmenting paths (Kuhn), in random order.
    fn augment(
        slot: usize,
        candidates: &[Vec<(u8, Face)>],
        seen: &mut [bool],
        owner: &mut [Option<usize>],
        out: &mut [(u8, Face)],
    ) -> bool {
        for &(p, f) in &candidates[slot] {
            let p_i = usize::from(p);
            if seen[p_i] {
                continue;
            }
            seen[p_i] = true;
            let free = match owner[p_i] {
                None => true,
                Some(other) => augment(other, candidates, seen, owner, out),
            };
            if free {
                owner[p_i] = Some(slot);
                out[slot] = (p, f);
                return true;
            }
        }
        false
    }
    let mut order: Vec<usize> = (0..views.len()).collect();
    order.shuffle(rng);
    let mut owner: Vec<Option<usize>> = vec![None; panels.len()];
    let mut out = vec![(0u8, Face::A); views.len()];
    for slot in order {
        let mut seen = vec![false; panels.len()];
        if !augment(slot, &candidates, &mut seen, &mut owner, &mut out) {
            return None;
        }
    }
    Some(out)
}

impl Portal {
    /// A whole game consistent with `seat`'s views, hidden parts sampled from `rng`. `None`
    /// when the views are not those of a running game.
    pub(crate) fn imagine_from(
        public: &PublicView,
        private: Option<&PrivateView>,
        seat: Seat,
        rng: &mut GameRng,
    ) -> Option<Portal> {
        if public.end.is_some() {
            return None;
        }
        let n = public.seats.len();
        let own = private.filter(|p| p.seat == seat);
        let engine = &public.engine;

        // The Lab, with panels drawn to match the visible faces.
        let lifted_view = public.lifted.as_ref();
        let views: Vec<&ChamberView> = public.chambers.iter().chain(lifted_view).collect();
        let panels = assign_panels(&views, rng)?;
        let mut floors: [Vec<Chamber>; 3] = Default::default();
        for (x, &(panel, face)) in public.chambers.iter().zip(&panels) {
            let mut chamber = chamber_from(x);
            chamber.panel = panel;
            chamber.face = face;
            floors[x.floor.index()].push(chamber);
        }
        let lifted = match lifted_view {
            Some(x) => {
                let &(panel, face) = panels.last()?;
                let mut chamber = chamber_from(x);
                chamber.panel = panel;
                chamber.face = face;
                Some(Lifted {
                    from: parse_chamber(&x.id)?,
                    chamber,
                })
            }
            None => None,
        };
        let total = u8::try_from(shipped().panels.len()).ok()?;
        let set_aside = (0..total)
            .filter(|p| !panels.iter().any(|(q, _)| q == p))
            .map(|p| (p, if rng.gen_bool(0.5) { Face::A } else { Face::B }))
            .collect();

        // Cards: what this seat has seen is fixed, the rest is dealt at random.
        let mut seen: Vec<Card> = public.discard.clone();
        seen.extend(public.deck_top);
        seen.extend(public.card_in_play);
        let mut hands: Vec<Option<Vec<HandCard>>> = Vec::with_capacity(n);
        for (s, sv) in public.seats.iter().enumerate() {
            let known: Option<Vec<HandCard>> = match &sv.hand {
                HandView::Open(cards) => Some(
                    cards
                        .iter()
                        .map(|&(card, fresh)| HandCard { card, fresh })
                        .collect(),
                ),
                HandView::Hidden { .. } => own.filter(|p| p.seat.index() == s).map(|p| {
                    p.hand
                        .iter()
                        .map(|h| HandCard {
                            card: h.card,
                            fresh: h.fresh,
                        })
                        .collect()
                }),
            };
            if let Some(h) = &known {
                if h.len() != sv.hand.size() {
                    return None;
                }
                seen.extend(h.iter().map(|h| h.card));
            }
            hands.push(known);
        }
        let mut unseen: Vec<Card> = Card::ALL
            .into_iter()
            .filter(|c| !seen.contains(c))
            .collect();
        unseen.shuffle(rng);
        let mut seats = Vec::with_capacity(n);
        for (sv, known) in public.seats.iter().zip(hands) {
            let hand = match (known, &sv.hand) {
                (Some(h), _) => h,
                (None, HandView::Hidden { size, fresh }) => {
                    let size = usize::from(*size);
                    if unseen.len() < size {
                        return None;
                    }
                    let stale = size.saturating_sub(usize::from(*fresh));
                    // Fresh cards were taken this turn, so they sit at the end of a hand.
                    unseen
                        .split_off(unseen.len() - size)
                        .into_iter()
                        .enumerate()
                        .map(|(i, card)| HandCard {
                            card,
                            fresh: i >= stale,
                        })
                        .collect()
                }
                (None, HandView::Open(_)) => return None,
            };
            seats.push(SeatState {
                colour: u8::try_from(COLOURS.iter().position(|&c| c == sv.colour)?).ok()?,
                subject_supply: sv.supply,
                cake_supply: sv.cake_supply,
                incinerated: sv.incinerated,
                hand,
            });
        }
        let mut deck = unseen;
        deck.extend(public.deck_top);
        if deck.len() != usize::from(public.deck_size) {
            return None;
        }

        let [p0, p1] = &public.portals;
        let touched: Vec<Ch> = views
            .iter()
            .filter(|x| x.touched)
            .filter_map(|x| parse_chamber(&x.id))
            .collect();
        let mut game = Portal {
            rng: rng_from_seed(rng.next_u64()),
            opts: engine.opts.clone(),
            seats,
            first: engine.first,
            round: public.round,
            active: public.active,
            floors,
            portals: [parse_chamber(p0)?, parse_chamber(p1)?],
            turret: match &public.turret {
                Some(t) => Some(parse_chamber(t)?),
                None => None,
            },
            cube: match &public.cube {
                Some(q) => Some(parse_chamber(q)?),
                None => None,
            },
            set_aside,
            deck,
            discard: public.discard.clone(),
            turn: engine.turn.clone(),
            lifted,
            agenda: engine.agenda.clone(),
            autos: Vec::new(),
            vote: None,
            ended: engine.ended,
            outcome: None,
            touched,
            last_move: match &public.last_move {
                Some((a, b)) => Some((parse_chamber(a)?, parse_chamber(b)?)),
                None => None,
            },
            setup_log: Vec::new(),
        };
        if game.ended.is_some() {
            // The final vote: ballots cast so far are secret but for this seat's own.
            let mut vote = game.vote_to_open()?;
            let cast = public.seats.iter().filter(|s| s.voted).count();
            for &voter in vote.voters.iter().take(cast) {
                let ballot = match own.and_then(|p| p.vote) {
                    Some(mine) if voter == seat => mine,
                    _ => {
                        let k = rng.gen_range(0..=vote.tied.len());
                        vote.tied.get(k).copied()
                    }
                };
                vote.votes.push(ballot);
            }
            game.vote = Some(vote);
        }
        Some(game)
    }

    // ----- evaluation -----

    /// Who would earn old-edge chamber `x`'s rewards now, and what recycling it would cost
    /// each seat: a value per seat in cake slices (positive is good for that seat).
    fn cycle_gain(&self, x: Ch) -> [f64; MAX_SEATS] {
        let mut gain = [0.0; MAX_SEATS];
        let Some(chamber) = self.chamber(x) else {
            return gain;
        };
        if let (Some(r), _) = self.reward_recipient(x, chamber) {
            let icons = self.data().panels[usize::from(chamber.panel)].face(chamber.face);
            gain[r.index()] += face_value(icons);
        }
        let burns = !self.is_char(Card::Caroline);
        let kills = !self.is_char(Card::Wheatley);
        for (s, g) in gain.iter_mut().enumerate().take(self.n()) {
            if burns {
                *g -= f64::from(chamber.cake[s]);
            }
            if kills {
                *g -= 0.3 * f64::from(chamber.subj[s]);
            }
        }
        gain
    }

    /// A seat's prospects in cake slices: its cake in the Lab, less what the old edges
    /// threaten, plus what it would earn there, its subjects (tie-break and the next
    /// majorities) and its cards.
    pub(crate) fn potential(&self, s: Seat) -> f64 {
        let st = self.seat(s);
        let mut p = f64::from(self.cake_in_lab(s));
        for f in Floor::ALL {
            if let Some(x) = self.old_edge(f) {
                // Roughly one old edge in three is recycled before its owner can react.
                p += 0.35 * self.cycle_gain(x)[s.index()];
            }
        }
        p += 0.12 * f64::from(self.subjects_in_lab(s));
        p += 0.05 * f64::from(st.cake_supply);
        // Cards in hand are future actions.
        #[allow(clippy::cast_precision_loss)]
        let cards = st.hand.len() as f64;
        p += 0.2 * cards;
        p
    }

    /// Each seat's chance to win from the potentials: a logistic of its lead over the best
    /// other seat.
    pub(crate) fn bot_estimate(&self) -> Vec<f64> {
        let pots: Vec<f64> = self.seat_ids().map(|s| self.potential(s)).collect();
        pots.iter()
            .enumerate()
            .map(|(i, &p)| {
                let best_other = pots
                    .iter()
                    .enumerate()
                    .filter(|&(j, _)| j != i)
                    .map(|(_, &q)| q)
                    .fold(f64::MIN, f64::max);
                1.0 / (1.0 + (-(p - best_other) / 1.5).exp())
            })
            .collect()
    }

    // ----- playout habits -----

    /// A cheap good option at the pending prompt, or `None` to let the playout pick at
    /// random. Never clones the state.
    pub(crate) fn playout_option(&self, rng: &mut GameRng) -> Option<Action> {
        let step = self.current()?;
        let me = self.step_seat(step);
        let options = self.options(step);
        if options.len() < 2 || rng.gen_bool(0.1) {
            return None;
        }
        let best_by = |score: &dyn Fn(&Action) -> f64| -> Option<Action> {
            options
                .iter()
                .map(|a| (*a, score(a)))
                .max_by(|a, b| a.1.total_cmp(&b.1))
                .map(|(a, _)| a)
        };
        match step {
            Step::Deploy => rng.gen_bool(0.8).then_some(Action::Done),
            Step::Activate => best_by(&|a| match a {
                Action::Activate(f) => self.old_edge(*f).map_or(f64::MIN, |x| {
                    let gain = self.cycle_gain(x);
                    self.lead_in(&gain, me)
                }),
                _ => f64::MIN,
            }),
            Step::Reward => best_by(&|a| self.reward_score(*a, me)),
            Step::Carry { to, .. } => best_by(&|a| match a {
                Action::Carry(c) if *c == me => 2.0,
                // Someone else's cake is worth pushing onto a chamber about to burn.
                Action::Carry(_) if self.is_old_edge(*to) => 1.0,
                Action::CarryDone => 0.5,
                _ => 0.0,
            }),
            Step::MoveSource(MoveMode::Group) => best_by(&|a| match a {
                Action::Move(x) => self.at_risk(*x, me),
                _ => -1.0,
            }),
            Step::MoveDest { from, .. } => {
                let carries = self.chamber(*from).is_some_and(|c| c.cakes() > 0);
                best_by(&|a| match a {
                    Action::To(d) => self.destination_score(*d, me, carries),
                    _ => f64::MIN,
                })
            }
            Step::Bonus => best_by(&|a| match a {
                Action::BonusCard => 0.5,
                Action::BonusFloor(f) => 0.4 + 0.01 * self.floor_len(*f),
                _ => 0.0,
            }),
            _ => None,
        }
    }

    /// `gain[me]` less the best other seat's gain.
    fn lead_in(&self, gain: &[f64; MAX_SEATS], me: Seat) -> f64 {
        let best_other = (0..self.n())
            .filter(|&s| s != me.index())
            .map(|s| gain[s])
            .fold(f64::MIN, f64::max);
        gain[me.index()] - best_other
    }

    #[allow(clippy::cast_precision_loss)]
    fn floor_len(&self, f: Floor) -> f64 {
        self.floor(f).len() as f64
    }

    /// How much `me` has to lose in chamber `x` if it is recycled soon.
    fn at_risk(&self, x: Ch, me: Seat) -> f64 {
        if !self.is_old_edge(x) {
            return 0.0;
        }
        self.chamber(x).map_or(0.0, |c| {
            f64::from(c.cake[me.index()]) + 0.3 * f64::from(c.subj[me.index()])
        })
    }

    /// A destination for `me`'s group: winning an old-edge majority is good, bringing cake
    /// onto the old edge is bad, the Turret is deadly.
    fn destination_score(&self, d: Ch, me: Seat, carries: bool) -> f64 {
        if self.turret == Some(d) && self.turret_lethal() {
            return -2.0;
        }
        if !self.is_old_edge(d) {
            return 0.0;
        }
        let mut v = if carries { -0.5 } else { 0.0 };
        if let Some(c) = self.chamber(d) {
            let icons = self.data().panels[usize::from(c.panel)].face(c.face);
            let mine = c.subj[me.index()];
            let others = (0..self.n())
                .filter(|&s| s != me.index())
                .map(|s| c.subj[s])
                .max()
                .unwrap_or(0);
            if mine <= others {
                v += 0.5 * face_value(icons);
            }
        }
        v
    }

    /// A reward option for its recipient `me`: cake first, then cards, then subjects; the
    /// Turret goes where it kills most of the others, the Cube where it blocks them.
    fn reward_score(&self, a: Action, me: Seat) -> f64 {
        let subjects_of_others = |x: Ch| -> f64 {
            self.chamber(x).map_or(0.0, |c| {
                let mine = f64::from(c.subj[me.index()]);
                f64::from(c.subjects()) - 2.0 * mine
            })
        };
        match a {
            Action::Cake(f) => 10.0 + 0.01 * self.floor_len(f),
            Action::TakeCard => 8.0,
            Action::Subject(f) => 6.0 + 0.01 * self.floor_len(f),
            Action::TurretStay => 3.0,
            Action::Turret(x) => 3.0 + subjects_of_others(x),
            Action::TurretFloor(f) => self.new_edge(f).map_or(0.0, subjects_of_others),
            Action::Cube(x) => {
                if !self.is_old_edge(x) {
                    return 0.0;
                }
                let gain = self.cycle_gain(x);
                -self.lead_in(&gain, me)
            }
            _ => 0.0,
        }
    }
}
