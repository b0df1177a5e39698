//! The Space Lab bot. A seat sees every station, the Recruitment Centre, the discard and the
//! Validation piles, its own hand and Projects; it does not see the other hands, the other
//! Projects or the order of either deck. `imagine` rebuilds a whole game from the views and
//! deals what is unknown at random (the 60 Lab and 24 Project cards are conserved: the unseen
//! ones fill the other hands to their public counts, the rest forms the decks), with a fresh
//! RNG. Playouts follow a cheap greedy policy (`playout_option`), and a stopped playout is scored
//! by potential: points on the station, objectives close to validation, cards in hand.

use crate::engine::rng::SliceDraw;

use super::cards::{data, Data};
use super::moves::Action;
use super::state::{
    EndState, Phase, Player, Resolving, SpaceLab, CAPSULES, LAB_CARDS, PROJECT_CARDS, SLOTS,
};
use super::view::{CardView, PrivateView, PublicView, TileView};
use crate::engine::{rng_from_seed, GameRng, Seat};

/// A game consistent with what `seat` sees. `None` when the views are not those of a running
/// game, or when another seat is deciding inside a placement (its card and payments are
/// hand cards this seat cannot see; the bot is never asked to decide then).
pub(crate) fn imagine(
    public: &PublicView,
    private: Option<&PrivateView>,
    seat: Seat,
    rng: &mut GameRng,
) -> Option<SpaceLab> {
    let d = data().ok()?;
    let to_act = public.to_act?;
    let n = u8::try_from(public.stations.len()).ok()?;
    let mine = private.filter(|p| p.seat == seat);
    let pending = mine.and_then(|p| p.pending.as_ref());
    let mut lab_used = [false; LAB_CARDS];
    let mut take_lab = |c: u8| -> Option<u8> {
        let slot = lab_used.get_mut(usize::from(c))?;
        // A card lives in one place only: a view naming it twice is not a real one.
        if *slot {
            return None;
        }
        *slot = true;
        Some(c)
    };
    let mut known = |cards: &[CardView]| -> Option<Vec<u8>> {
        cards.iter().map(|c| take_lab(d.find_lab(&c.id)?)).collect()
    };
    let lab_discard = known(&public.discard)?;
    let mut centre: [Vec<u8>; 4] = Default::default();
    for (pile, cards) in centre.iter_mut().zip(&public.centre) {
        *pile = known(cards)?;
    }
    let revealed = known(&public.revealed)?;
    let mut players = Vec::with_capacity(usize::from(n));
    for st in &public.stations {
        let mut station = [None; SLOTS];
        for (slot, card) in station.iter_mut().zip(&st.slots) {
            if let Some(c) = card {
                *slot = Some(known(std::slice::from_ref(c))?[0]);
            }
        }
        let objective = |id: &str| d.find_objective(id);
        let dealt: Vec<u8> = st
            .dealt
            .iter()
            .map(|o| objective(&o.id))
            .collect::<Option<_>>()?;
        let objectives = match &st.objectives {
            Some(v) => {
                let o: Vec<u8> = v.iter().map(|o| objective(&o.id)).collect::<Option<_>>()?;
                Some(<[u8; CAPSULES]>::try_from(o).ok()?)
            }
            None => None,
        };
        let mut validated = [None; CAPSULES];
        for (v, t) in validated.iter_mut().zip(&st.validated) {
            *v = t.as_ref().map(|t| tile_index(d, t));
        }
        players.push(Player {
            hand: Vec::new(),
            projects: Vec::new(),
            station,
            dealt: <[u8; CAPSULES]>::try_from(dealt).ok()?,
            objectives,
            validated,
            placed_this_action: 0,
            drawn: Vec::new(),
            returned: Vec::new(),
        });
    }
    let current = public.current;
    players.get_mut(current.index())?.placed_this_action = public.placed_this_action;

    // The seat's own cards.
    let mut project_used = [false; PROJECT_CARDS];
    let mut take_kind = |kind: u8| -> Option<u8> {
        let card = (0..PROJECT_CARDS)
            .find(|&c| !project_used[c] && d.kind_of(u8::try_from(c).unwrap_or(u8::MAX)) == kind)?;
        project_used[card] = true;
        u8::try_from(card).ok()
    };
    if let Some(p) = mine {
        let me = players.get_mut(seat.index())?;
        for h in &p.hand {
            let c = known(std::slice::from_ref(&h.card))?[0];
            me.hand.push(c);
            if h.drawn {
                me.drawn.push(c);
            }
        }
        for pv in &p.projects {
            let kind = d.find_kind(&pv.code)?;
            for _ in 0..pv.held {
                me.projects.push(take_kind(kind)?);
            }
        }
        me.returned = p
            .returned
            .iter()
            .map(|code| d.find_kind(code))
            .collect::<Option<_>>()?;
    }

    let phase = match public.prompt_kind? {
        "arrange_objectives" => Phase::Arrange(to_act),
        "choose_action" => Phase::ChooseAction,
        "take_revealed" => Phase::TakeRevealed,
        "take_centre" => Phase::TakeCentre,
        kind => {
            // Inside a placement: only the placing seat knows its choices.
            let pv = pending.filter(|_| to_act == seat)?;
            let lab = |id: &Option<String>| id.as_deref().and_then(|i| d.find_lab(i));
            let slot = || pv.slot.as_deref().and_then(|i| d.find_slot(i));
            match kind {
                "place_filter" | "place_card" => Phase::PlaceCard { filter: pv.filter },
                "place_slot" => Phase::PlaceSlot {
                    card: lab(&pv.card)?,
                },
                "place_pay" | "pay_filter" => Phase::PlacePay {
                    card: lab(&pv.card)?,
                    slot: slot()?,
                    paid: pv
                        .paid
                        .iter()
                        .map(|i| d.find_lab(i))
                        .collect::<Option<_>>()?,
                    filter: pv.filter,
                },
                "keep_project" => Phase::KeepProject {
                    drawn: pv
                        .drawn
                        .iter()
                        .map(|code| take_kind(d.find_kind(code)?))
                        .collect::<Option<_>>()?,
                    source: pv.source?,
                },
                "validation_bonus" => Phase::Bonus,
                _ => return None,
            }
        }
    };
    let resolving = match pending.and_then(|p| p.resolving.as_ref()) {
        Some((card, slot, step)) => Some(Resolving {
            card: d.find_lab(card)?,
            slot: d.find_slot(slot)?,
            step: *step,
        }),
        None => None,
    };

    // Everything unseen, dealt at random to the other hands and the decks.
    let mut unseen_labs: Vec<u8> = (0..LAB_CARDS)
        .filter(|&c| !lab_used[c])
        .filter_map(|c| u8::try_from(c).ok())
        .collect();
    let mut unseen_projects: Vec<u8> = (0..PROJECT_CARDS)
        .filter(|&c| !project_used[c])
        .filter_map(|c| u8::try_from(c).ok())
        .collect();
    unseen_labs.shuffle(rng);
    unseen_projects.shuffle(rng);
    for (s, (p, st)) in players.iter_mut().zip(&public.stations).enumerate() {
        if mine.is_some() && s == seat.index() {
            if p.hand.len() != st.hand || p.projects.len() != st.projects {
                return None;
            }
            continue;
        }
        let h = unseen_labs.len().checked_sub(st.hand)?;
        p.hand = unseen_labs.split_off(h);
        let k = unseen_projects.len().checked_sub(st.projects)?;
        p.projects = unseen_projects.split_off(k);
    }
    if unseen_labs.len() != public.lab_deck || unseen_projects.len() != public.project_deck {
        return None;
    }

    let end = match public.end_trigger {
        Some(trigger) => {
            let mut remaining: Vec<Seat> = public.final_round.clone()?;
            // The view lists the seat playing now first, unless it is the trigger seat.
            if current != trigger && !remaining.is_empty() {
                remaining.remove(0);
            }
            Some(EndState { trigger, remaining })
        }
        None => None,
    };
    Some(SpaceLab {
        opts: public.rules,
        n,
        first: public.first,
        current,
        turn_no: public.turn_no,
        rng: rng_from_seed(rng.next_u64()),
        lab_deck: unseen_labs,
        lab_discard,
        centre,
        revealed,
        project_deck: unseen_projects,
        piles: {
            let mut piles: [Vec<u8>; CAPSULES] = Default::default();
            for (p, v) in piles.iter_mut().zip(&public.piles) {
                *p = v.iter().map(|t| tile_index(d, t)).collect();
            }
            piles
        },
        players,
        phase,
        resolving,
        end,
        consecutive_passes: 0,
        last_auto: Vec::new(),
        setup_log: Vec::new(),
        final_scores: None,
        outcome: None,
        last: public.last.iter().cloned().collect(),
        records_last: true,
    })
}

/// A Validation tile by its view; an empty pile's tile (`-`) is the engine's "none" index.
fn tile_index(d: &Data, t: &TileView) -> u8 {
    d.tiles
        .iter()
        .position(|x| x.id == t.id)
        .and_then(|i| u8::try_from(i).ok())
        .unwrap_or(u8::MAX)
}

impl SpaceLab {
    /// A cheap, sensible option for playouts: place when the hand is big, take the biggest
    /// group of cards, and put a card where it validates an objective. `None` where a random
    /// option is as good a guess (payments, Project keeps, bonus draws).
    pub(crate) fn playout_option(&self, rng: &mut GameRng) -> Option<Action> {
        let d = self.data();
        let p = self.player(self.current);
        match &self.phase {
            Phase::ChooseAction => {
                let legal = self.legal_actions();
                let has = |a: Action| legal.contains(&a);
                let biggest = self.centre.iter().map(Vec::len).max().unwrap_or(0);
                if has(Action::Place) && (p.hand.len() >= 4 || rng.gen_bool(0.5)) {
                    Some(Action::Place)
                } else if has(Action::Recruit) && biggest >= 2 {
                    Some(Action::Recruit)
                } else if has(Action::Reveal) {
                    Some(Action::Reveal)
                } else {
                    legal.first().copied()
                }
            }
            Phase::TakeRevealed | Phase::TakeCentre => {
                let count = |a: &Action| match (a, &self.phase) {
                    (Action::Take(g), Phase::TakeCentre) => self.centre[g.index()].len(),
                    (Action::Take(g), _) => self
                        .revealed
                        .iter()
                        .filter(|&&c| d.lab(c).map(|l| l.agency) == Some(*g))
                        .count(),
                    _ => 0,
                };
                self.options().into_iter().max_by_key(count)
            }
            Phase::PlaceCard { .. } => {
                let opts = self.options();
                if opts.contains(&Action::End) && p.hand.len() <= 2 {
                    return Some(Action::End);
                }
                let cards: Vec<Action> = opts
                    .into_iter()
                    .filter(|a| matches!(a, Action::Card(_)))
                    .collect();
                cards.choose(rng).copied()
            }
            Phase::PlaceSlot { card } => {
                let empty: Vec<u8> = (0..SLOTS)
                    .filter(|&i| p.station[i].is_none())
                    .filter_map(|i| u8::try_from(i).ok())
                    .collect();
                empty
                    .iter()
                    .copied()
                    .find(|&s| self.validates(p, *card, s) > 0)
                    .or_else(|| empty.choose(rng).copied())
                    .map(Action::Slot)
            }
            _ => None,
        }
    }

    /// How many objectives of `p` putting `card` in `slot` would validate now.
    fn validates(&self, p: &Player, card: u8, slot: u8) -> usize {
        let d = self.data();
        let Some(geo) = d.slots.get(usize::from(slot)) else {
            return 0;
        };
        let mut after = p.clone();
        after.station[usize::from(slot)] = Some(card);
        geo.capsules
            .iter()
            .filter(|&&c| p.validated[c].is_none() && self.meets(&after, c))
            .count()
    }

    /// What seat `s` may still expect besides its points now: each open objective's pile top
    /// in proportion to the cards it still needs (when the free slots around it suffice), and
    /// a little for every Lab card in hand (future placements and payments).
    fn potential(&self, s: Seat) -> f64 {
        let d = self.data();
        let p = self.player(s);
        let mut extra = 0.0;
        if let Some(objs) = p.objectives {
            for (c, &o) in objs.iter().enumerate() {
                if p.validated[c].is_some() {
                    continue;
                }
                let Some(obj) = d.objective(o) else { continue };
                let mut counts = [0u8; 4];
                let mut free = 0u8;
                for (i, g) in d.slots.iter().enumerate() {
                    if !g.capsules.contains(&c) {
                        continue;
                    }
                    match p.station[i].and_then(|x| d.lab(x)) {
                        Some(l) => counts[l.agency.index()] += 1,
                        None => free += 1,
                    }
                }
                let need: u8 = obj.need.iter().map(|&(_, k)| k).sum();
                let missing: u8 = obj
                    .need
                    .iter()
                    .map(|&(a, k)| k.saturating_sub(counts[a.index()]))
                    .sum();
                if missing > free || need == 0 {
                    continue;
                }
                let top = self.piles[c]
                    .first()
                    .and_then(|&t| d.tile(t))
                    .map_or(0, |t| t.value);
                let done = f64::from(need - missing) / f64::from(need);
                #[allow(clippy::cast_precision_loss)]
                let value = top as f64;
                extra += value * 0.7 * done * done;
            }
        }
        let room = SLOTS - p.filled();
        #[allow(clippy::cast_precision_loss)]
        let hand = p.hand.len().min(room + 3) as f64;
        extra + 0.8 * hand
    }

    /// Per-seat value of a position a playout stopped at: the final score so far (Projects
    /// included) plus potential, compared with the best other seat through a logistic.
    pub(crate) fn bot_estimate(&self) -> Vec<f64> {
        let totals: Vec<f64> = self
            .seat_ids()
            .map(|s| {
                #[allow(clippy::cast_precision_loss)]
                let now = self.breakdown(s).total() as f64;
                now + self.potential(s)
            })
            .collect();
        (0..totals.len())
            .map(|i| {
                let best_other = totals
                    .iter()
                    .enumerate()
                    .filter(|&(j, _)| j != i)
                    .map(|(_, &v)| v)
                    .fold(f64::MIN, f64::max);
                if best_other == f64::MIN {
                    return 0.5;
                }
                1.0 / (1.0 + (-(totals[i] - best_other) / 6.0).exp())
            })
            .collect()
    }
}
