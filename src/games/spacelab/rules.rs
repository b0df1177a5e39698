//! The rules: prompts and their options, checks (pure), execution (events), the placement
//! resolution order, turn flow, final round and scoring. Every `apply` checks first and
//! mutates only after the check passed.

use crate::engine::rng::SliceDraw;

use super::cards::{data, BottomEffect, Data, LabEffect, ProjectScoring};
use super::moves::{Action, BonusKind, EndReason, Event};
use super::state::{
    Agency, Breakdown, EndState, FinalRound, Phase, Player, Resolving, Row, Source, SpaceLab,
    Specialty, CAPSULES, SLOTS,
};
use crate::engine::{Applied, Outcome, Seat};
use crate::i18n::Text;

/// Why a decision is not legal here.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
pub enum RuleError {
    #[error("that option belongs to another step of the game")]
    WrongPrompt,
    #[error("it is not your turn")]
    NotYourTurn,
    #[error("the game is over")]
    GameOver,
    #[error("those are not the three tiles you were dealt")]
    NotYourTiles,
    #[error("with 5 or more Lab cards in hand you must place")]
    HandTooFull,
    #[error("the Lab deck and the discard pile are empty")]
    NothingToReveal,
    #[error("the Recruitment Centre is empty")]
    CentreEmpty,
    #[error("no card in your hand can be paid for")]
    NothingAffordable,
    #[error("no card of that agency is on offer")]
    AgencyNotOffered,
    #[error("that card is not in your hand")]
    NotInHand,
    #[error("you do not hold enough other cards to pay for that card")]
    CannotAfford,
    #[error("that slot already holds a card")]
    SlotTaken,
    #[error("that card cannot pay: it is not in your hand, is the card being placed, or is already paid")]
    CannotPayWith,
    #[error("place at least one card before ending")]
    MustPlaceFirst,
    #[error("no Project card of that kind was drawn")]
    ProjectNotDrawn,
    #[error("that deck is empty")]
    DeckEmpty,
    #[error("there are few enough choices: no filter is needed")]
    NoFilterNeeded,
}

impl RuleError {
    pub fn key(self) -> &'static str {
        match self {
            RuleError::WrongPrompt => "wrong_prompt",
            RuleError::NotYourTurn => "not_your_turn",
            RuleError::GameOver => "game_over",
            RuleError::NotYourTiles => "not_your_tiles",
            RuleError::HandTooFull => "hand_too_full",
            RuleError::NothingToReveal => "nothing_to_reveal",
            RuleError::CentreEmpty => "centre_empty",
            RuleError::NothingAffordable => "nothing_affordable",
            RuleError::AgencyNotOffered => "agency_not_offered",
            RuleError::NotInHand => "not_in_hand",
            RuleError::CannotAfford => "cannot_afford",
            RuleError::SlotTaken => "slot_taken",
            RuleError::CannotPayWith => "cannot_pay_with",
            RuleError::MustPlaceFirst => "must_place_first",
            RuleError::ProjectNotDrawn => "project_not_drawn",
            RuleError::DeckEmpty => "deck_empty",
            RuleError::NoFilterNeeded => "no_filter_needed",
        }
    }

    pub fn text(self) -> Text {
        Text::new(format!("spacelab.error.{}", self.key()))
    }
}

/// Largest option list a prompt shows before a filter step (Discord's limit).
pub const MAX_OPTIONS: usize = 25;

/// Events and the barrier flag gathered while one option resolves.
#[derive(Default)]
pub struct Ctx {
    pub events: Vec<Event>,
    pub barrier: bool,
}

pub(crate) fn seat(i: u8) -> Seat {
    Seat(i)
}

fn u8_of(i: usize) -> u8 {
    u8::try_from(i).unwrap_or(u8::MAX)
}

impl SpaceLab {
    pub(crate) fn data(&self) -> &'static Data {
        // `setup` refuses to build a game when the data file is broken.
        match data() {
            Ok(d) => d,
            Err(e) => unreachable!("spacelab data checked at setup: {e}"),
        }
    }

    pub(crate) fn player(&self, s: u8) -> &Player {
        &self.players[usize::from(s)]
    }

    fn me(&mut self) -> &mut Player {
        let c = usize::from(self.current);
        &mut self.players[c]
    }

    /// The seat that must decide now.
    pub fn to_act(&self) -> Option<u8> {
        match self.phase {
            Phase::Over => None,
            Phase::Arrange(s) => Some(s),
            _ => Some(self.current),
        }
    }

    /// Stable prompt kind of the current phase.
    pub fn prompt_kind(&self) -> Option<&'static str> {
        Some(match &self.phase {
            Phase::Over => return None,
            Phase::Arrange(_) => "arrange_objectives",
            Phase::ChooseAction => "choose_action",
            Phase::TakeRevealed => "take_revealed",
            Phase::TakeCentre => "take_centre",
            Phase::PlaceCard { filter } => {
                if filter.is_none() && self.card_filter_needed() {
                    "place_filter"
                } else {
                    "place_card"
                }
            }
            Phase::PlaceSlot { .. } => "place_slot",
            Phase::PlacePay { filter, .. } => {
                if filter.is_none() && self.pay_candidates().len() > MAX_OPTIONS {
                    "pay_filter"
                } else {
                    "place_pay"
                }
            }
            Phase::KeepProject { .. } => "keep_project",
            Phase::Bonus => "validation_bonus",
        })
    }

    // ---- queries ------------------------------------------------------------------------

    /// Hand cards of the current seat it could place now, in card order.
    pub fn affordable(&self) -> Vec<u8> {
        self.affordable_for(self.current)
    }

    pub fn affordable_for(&self, s: u8) -> Vec<u8> {
        let p = self.player(s);
        if p.filled() >= SLOTS {
            return Vec::new();
        }
        let h = p.hand.len();
        let d = self.data();
        let mut out: Vec<u8> = p
            .hand
            .iter()
            .copied()
            .filter(|&c| usize::from(d.cost(c)) < h)
            .collect();
        out.sort_unstable();
        out
    }

    /// Reveal, Recruit, Place: the legal actions at the start of the current turn.
    pub fn legal_actions(&self) -> Vec<Action> {
        let p = self.player(self.current);
        let small = p.hand.len() <= 4;
        let mut out = Vec::new();
        if small && self.lab_deck.len() + self.lab_discard.len() > 0 {
            out.push(Action::Reveal);
        }
        if small && self.centre.iter().any(|c| !c.is_empty()) {
            out.push(Action::Recruit);
        }
        if !self.affordable().is_empty() {
            out.push(Action::Place);
        }
        out
    }

    fn card_filter_needed(&self) -> bool {
        let end = usize::from(self.player(self.current).placed_this_action >= 1);
        self.affordable().len() + end > MAX_OPTIONS
    }

    /// Hand cards that may still pay for the card being placed, in card order.
    pub fn pay_candidates(&self) -> Vec<u8> {
        let Phase::PlacePay { card, paid, .. } = &self.phase else {
            return Vec::new();
        };
        let mut out: Vec<u8> = self
            .player(self.current)
            .hand
            .iter()
            .copied()
            .filter(|c| c != card && !paid.contains(c))
            .collect();
        out.sort_unstable();
        out
    }

    fn agencies_of(&self, cards: &[u8]) -> Vec<Agency> {
        let d = self.data();
        Agency::ALL
            .into_iter()
            .filter(|a| {
                cards
                    .iter()
                    .any(|&c| d.lab(c).map(|l| l.agency) == Some(*a))
            })
            .collect()
    }

    /// Every legal option of the current prompt, in canonical order.
    pub fn options(&self) -> Vec<Action> {
        let d = self.data();
        let agency = |c: u8| d.lab(c).map(|l| l.agency);
        match &self.phase {
            Phase::Over => Vec::new(),
            Phase::Arrange(s) => {
                let t = self.player(*s).dealt;
                const PERMS: [[usize; 3]; 6] = [
                    [0, 1, 2],
                    [0, 2, 1],
                    [1, 0, 2],
                    [1, 2, 0],
                    [2, 0, 1],
                    [2, 1, 0],
                ];
                PERMS
                    .iter()
                    .map(|p| Action::Arrange([t[p[0]], t[p[1]], t[p[2]]]))
                    .collect()
            }
            Phase::ChooseAction => self.legal_actions(),
            Phase::TakeRevealed => self
                .agencies_of(&self.revealed)
                .into_iter()
                .map(Action::Take)
                .collect(),
            Phase::TakeCentre => Agency::ALL
                .into_iter()
                .filter(|a| !self.centre[a.index()].is_empty())
                .map(Action::Take)
                .collect(),
            Phase::PlaceCard { filter } => {
                let aff = self.affordable();
                let end = self.player(self.current).placed_this_action >= 1;
                let mut out: Vec<Action> = if filter.is_none() && self.card_filter_needed() {
                    self.agencies_of(&aff)
                        .into_iter()
                        .map(Action::From)
                        .collect()
                } else {
                    aff.into_iter()
                        .filter(|&c| filter.is_none() || agency(c) == *filter)
                        .map(Action::Card)
                        .collect()
                };
                if end {
                    out.push(Action::End);
                }
                out
            }
            Phase::PlaceSlot { .. } => self
                .player(self.current)
                .station
                .iter()
                .enumerate()
                .filter(|(_, s)| s.is_none())
                .map(|(i, _)| Action::Slot(u8_of(i)))
                .collect(),
            Phase::PlacePay { filter, .. } => {
                let cands = self.pay_candidates();
                if filter.is_none() && cands.len() > MAX_OPTIONS {
                    self.agencies_of(&cands)
                        .into_iter()
                        .map(Action::From)
                        .collect()
                } else {
                    cands
                        .into_iter()
                        .filter(|&c| filter.is_none() || agency(c) == *filter)
                        .map(Action::Pay)
                        .collect()
                }
            }
            Phase::KeepProject { drawn, .. } => {
                let mut kinds: Vec<u8> = Vec::new();
                for &c in drawn {
                    let k = d.kind_of(c);
                    if !kinds.contains(&k) {
                        kinds.push(k);
                    }
                }
                kinds.into_iter().map(Action::Keep).collect()
            }
            Phase::Bonus => {
                let mut out = Vec::new();
                if self.lab_deck.len() + self.lab_discard.len() > 0 {
                    out.push(Action::Bonus(BonusKind::Lab));
                }
                if !self.project_deck.is_empty() {
                    out.push(Action::Bonus(BonusKind::Project));
                }
                out
            }
        }
    }

    /// Why `action` is not legal now (`Ok` when it is). Never changes anything.
    pub fn check(&self, action: &Action) -> Result<(), RuleError> {
        let d = self.data();
        let hand = &self.player(self.current).hand;
        match (&self.phase, *action) {
            (Phase::Over, _) => Err(RuleError::GameOver),
            (Phase::Arrange(s), Action::Arrange(t)) => {
                let mut a = self.player(*s).dealt;
                let mut b = t;
                a.sort_unstable();
                b.sort_unstable();
                if a == b {
                    Ok(())
                } else {
                    Err(RuleError::NotYourTiles)
                }
            }
            (Phase::ChooseAction, a @ (Action::Reveal | Action::Recruit | Action::Place)) => {
                if self.legal_actions().contains(&a) {
                    return Ok(());
                }
                Err(match a {
                    Action::Place => RuleError::NothingAffordable,
                    _ if hand.len() > 4 => RuleError::HandTooFull,
                    Action::Reveal => RuleError::NothingToReveal,
                    _ => RuleError::CentreEmpty,
                })
            }
            (Phase::TakeRevealed | Phase::TakeCentre, Action::Take(_)) => {
                if self.options().contains(action) {
                    Ok(())
                } else {
                    Err(RuleError::AgencyNotOffered)
                }
            }
            (Phase::PlaceCard { .. }, Action::Card(c)) => {
                if !hand.contains(&c) {
                    Err(RuleError::NotInHand)
                } else if self.affordable().contains(&c) {
                    Ok(())
                } else {
                    Err(RuleError::CannotAfford)
                }
            }
            (Phase::PlaceCard { .. }, Action::End) => {
                if self.player(self.current).placed_this_action >= 1 {
                    Ok(())
                } else {
                    Err(RuleError::MustPlaceFirst)
                }
            }
            (Phase::PlaceCard { filter }, Action::From(_)) => {
                if filter.is_some() || !self.card_filter_needed() {
                    Err(RuleError::NoFilterNeeded)
                } else if self.options().contains(action) {
                    Ok(())
                } else {
                    Err(RuleError::AgencyNotOffered)
                }
            }
            (Phase::PlaceSlot { .. }, Action::Slot(s)) => {
                match self.player(self.current).station.get(usize::from(s)) {
                    Some(None) => Ok(()),
                    _ => Err(RuleError::SlotTaken),
                }
            }
            (Phase::PlacePay { .. }, Action::Pay(c)) => {
                if self.pay_candidates().contains(&c) {
                    Ok(())
                } else {
                    Err(RuleError::CannotPayWith)
                }
            }
            (Phase::PlacePay { filter, .. }, Action::From(_)) => {
                if filter.is_some() || self.pay_candidates().len() <= MAX_OPTIONS {
                    Err(RuleError::NoFilterNeeded)
                } else if self.options().contains(action) {
                    Ok(())
                } else {
                    Err(RuleError::AgencyNotOffered)
                }
            }
            (Phase::KeepProject { drawn, .. }, Action::Keep(k)) => {
                if drawn.iter().any(|&c| d.kind_of(c) == k) {
                    Ok(())
                } else {
                    Err(RuleError::ProjectNotDrawn)
                }
            }
            (Phase::Bonus, Action::Bonus(_)) => {
                if self.options().contains(action) {
                    Ok(())
                } else {
                    Err(RuleError::DeckEmpty)
                }
            }
            _ => Err(RuleError::WrongPrompt),
        }
    }

    // ---- applying -----------------------------------------------------------------------

    /// Applies one option for `seat`: checks, executes, then resolves every forced step.
    pub fn play(&mut self, seat: Seat, action: &Action) -> Result<Applied<Event>, RuleError> {
        let Some(to_act) = self.to_act() else {
            return Err(RuleError::GameOver);
        };
        if seat.0 != to_act {
            return Err(RuleError::NotYourTurn);
        }
        self.check(action)?;
        let mut ctx = Ctx::default();
        self.last_auto.clear();
        self.setup_log.clear();
        self.exec(*action, false, &mut ctx);
        self.settle(seat.0, &mut ctx);
        Ok(Applied {
            events: ctx.events,
            barrier: ctx.barrier,
        })
    }

    /// Applies every prompt that has a single option (spec 6.6), and automatic payments.
    pub(crate) fn settle(&mut self, actor: u8, ctx: &mut Ctx) {
        // Each automatic step fills a slot, moves cards or ends a turn; the game is finite.
        for _ in 0..100_000 {
            let Some(who) = self.to_act() else { return };
            let forced = if let Phase::PlacePay { card, paid, .. } = &self.phase {
                let due = usize::from(self.data().cost(*card)).saturating_sub(paid.len());
                let cands = self.pay_candidates();
                (cands.len() == due).then(|| cands.first().copied().map(Action::Pay))
            } else {
                None
            };
            let next = match forced {
                Some(a) => a,
                None => {
                    let opts = self.options();
                    if opts.len() == 1 {
                        Some(opts[0])
                    } else {
                        None
                    }
                }
            };
            let Some(a) = next else { return };
            if who == actor && self.current == actor {
                self.last_auto.push((who, a));
            }
            if !matches!(a, Action::Reveal | Action::Recruit | Action::Place) {
                ctx.events.push(Event::Auto {
                    seat: seat(who),
                    action: a,
                });
            }
            self.exec(a, true, ctx);
        }
    }

    fn exec(&mut self, action: Action, auto: bool, ctx: &mut Ctx) {
        let s = seat(self.current);
        match action {
            Action::Arrange(tiles) => {
                let who = match self.phase {
                    Phase::Arrange(w) => w,
                    _ => self.current,
                };
                self.players[usize::from(who)].objectives = Some(tiles);
                ctx.events.push(Event::ObjectivesArranged {
                    seat: seat(who),
                    tiles,
                });
                let next = (who + 1) % self.n;
                if next == self.first {
                    self.start_turn(ctx);
                } else {
                    self.phase = Phase::Arrange(next);
                }
            }
            Action::Reveal | Action::Recruit | Action::Place => {
                ctx.events.push(Event::ActionChosen {
                    seat: s,
                    action,
                    auto,
                });
                match action {
                    Action::Reveal => {
                        let drawn = self.draw_labs(3, ctx);
                        self.revealed = drawn.clone();
                        ctx.events.push(Event::LabsRevealed { ids: drawn });
                        ctx.barrier = true;
                        self.phase = Phase::TakeRevealed;
                    }
                    Action::Recruit => self.phase = Phase::TakeCentre,
                    _ => {
                        self.me().placed_this_action = 0;
                        self.phase = Phase::PlaceCard { filter: None };
                    }
                }
            }
            Action::Take(agency) => {
                if self.phase == Phase::TakeRevealed {
                    let d = self.data();
                    let (mine, rest): (Vec<u8>, Vec<u8>) = std::mem::take(&mut self.revealed)
                        .into_iter()
                        .partition(|&c| d.lab(c).map(|l| l.agency) == Some(agency));
                    self.me().hand.extend(mine.iter().copied());
                    ctx.events.push(Event::LabsTaken {
                        seat: s,
                        agency,
                        ids: mine,
                    });
                    if !rest.is_empty() {
                        for &c in &rest {
                            if let Some(l) = d.lab(c) {
                                self.centre[l.agency.index()].push(c);
                            }
                        }
                        ctx.events.push(Event::CentreAdded { ids: rest });
                    }
                } else {
                    let ids = std::mem::take(&mut self.centre[agency.index()]);
                    self.me().hand.extend(ids.iter().copied());
                    ctx.events.push(Event::Recruited {
                        seat: s,
                        agency,
                        ids,
                    });
                }
                self.end_turn(ctx);
            }
            Action::Card(card) => self.phase = Phase::PlaceSlot { card },
            Action::From(a) => match &mut self.phase {
                Phase::PlaceCard { filter } | Phase::PlacePay { filter, .. } => *filter = Some(a),
                _ => {}
            },
            Action::Slot(slot) => {
                let Phase::PlaceSlot { card } = self.phase else {
                    return;
                };
                if self.data().cost(card) == 0 {
                    self.commit(card, slot, Vec::new(), ctx);
                } else {
                    self.phase = Phase::PlacePay {
                        card,
                        slot,
                        paid: Vec::new(),
                        filter: None,
                    };
                }
            }
            Action::Pay(c) => {
                let Phase::PlacePay {
                    card,
                    slot,
                    mut paid,
                    ..
                } = self.phase.clone()
                else {
                    return;
                };
                paid.push(c);
                if paid.len() >= usize::from(self.data().cost(card)) {
                    self.commit(card, slot, paid, ctx);
                } else {
                    self.phase = Phase::PlacePay {
                        card,
                        slot,
                        paid,
                        filter: None,
                    };
                }
            }
            Action::End => {
                let placed = self.player(self.current).placed_this_action;
                ctx.events.push(Event::PlaceEnded { seat: s, placed });
                self.end_turn(ctx);
            }
            Action::Keep(kind) => {
                let Phase::KeepProject { drawn, .. } = self.phase.clone() else {
                    return;
                };
                let d = self.data();
                let pos = drawn
                    .iter()
                    .position(|&c| d.kind_of(c) == kind)
                    .unwrap_or(0);
                let mut rest = drawn;
                let kept = rest.remove(pos);
                self.me().projects.push(kept);
                ctx.events.push(Event::ProjectKept { seat: s, kind });
                let kinds: Vec<u8> = rest.iter().map(|&c| d.kind_of(c)).collect();
                self.project_deck.extend(rest);
                if !kinds.is_empty() {
                    self.me().returned = kinds.clone();
                    ctx.events.push(Event::ProjectsReturned { seat: s, kinds });
                }
                self.resume(ctx);
            }
            Action::Bonus(kind) => {
                ctx.barrier = true;
                let card = match kind {
                    BonusKind::Lab => {
                        let got = self.draw_labs(1, ctx);
                        self.me().hand.extend(got.iter().copied());
                        self.me().drawn.extend(got.iter().copied());
                        got.first().copied()
                    }
                    BonusKind::Project => {
                        if self.project_deck.is_empty() {
                            None
                        } else {
                            let c = self.project_deck.remove(0);
                            self.me().projects.push(c);
                            Some(c)
                        }
                    }
                };
                if let Some(card) = card {
                    ctx.events.push(Event::ValidationBonus {
                        seat: s,
                        kind,
                        card,
                    });
                }
                self.resume(ctx);
            }
        }
    }

    /// Draws up to `k` Lab cards from the top, reshuffling the discard when the deck runs out.
    fn draw_labs(&mut self, k: usize, ctx: &mut Ctx) -> Vec<u8> {
        let mut out = Vec::with_capacity(k);
        for _ in 0..k {
            if self.lab_deck.is_empty() {
                if self.lab_discard.is_empty() {
                    break;
                }
                let mut fresh = std::mem::take(&mut self.lab_discard);
                fresh.shuffle(&mut self.rng);
                ctx.events
                    .push(Event::LabDeckReshuffled { count: fresh.len() });
                ctx.barrier = true;
                self.lab_deck = fresh;
            }
            out.push(self.lab_deck.remove(0));
        }
        out
    }

    /// Draws face down into the current hand.
    fn draw_to_hand(&mut self, k: usize, source: Source, ctx: &mut Ctx) {
        let ids = self.draw_labs(k, ctx);
        ctx.barrier = true;
        self.me().hand.extend(ids.iter().copied());
        self.me().drawn.extend(ids.iter().copied());
        ctx.events.push(Event::LabsDrawn {
            seat: seat(self.current),
            source,
            ids,
        });
    }

    /// Draws up to `k` Project cards and opens P7 (settled automatically when one kind).
    /// Returns whether anything was drawn.
    fn draw_projects(&mut self, k: usize, source: Source, ctx: &mut Ctx) -> bool {
        let k = k.min(self.project_deck.len());
        if k == 0 {
            return false;
        }
        let drawn: Vec<u8> = self.project_deck.drain(..k).collect();
        ctx.barrier = true;
        let d = self.data();
        ctx.events.push(Event::ProjectsDrawn {
            seat: seat(self.current),
            source,
            kinds: drawn.iter().map(|&c| d.kind_of(c)).collect(),
        });
        self.phase = Phase::KeepProject { drawn, source };
        true
    }

    /// Pays, places, then resolves the placement (spec 6.4).
    fn commit(&mut self, card: u8, slot: u8, paid: Vec<u8>, ctx: &mut Ctx) {
        let s = seat(self.current);
        let p = self.me();
        p.hand.retain(|c| *c != card && !paid.contains(c));
        p.station[usize::from(slot)] = Some(card);
        p.placed_this_action += 1;
        if !paid.is_empty() {
            self.lab_discard.extend(paid.iter().copied());
            ctx.events.push(Event::LabPaid { seat: s, ids: paid });
        }
        ctx.events.push(Event::LabPlaced {
            seat: s,
            card,
            slot,
        });
        self.resolving = Some(Resolving {
            card,
            slot,
            step: 0,
        });
        self.resume(ctx);
    }

    /// Whether capsule `c` of player `p` has its requirement around it.
    pub fn meets(&self, p: &Player, c: usize) -> bool {
        let d = self.data();
        let Some(obj) = p.objectives.and_then(|o| d.objective(o[c])) else {
            return false;
        };
        let mut counts = [0u8; 4];
        for (i, g) in d.slots.iter().enumerate() {
            if g.capsules.contains(&c) {
                if let Some(l) = p.station[i].and_then(|x| d.lab(x)) {
                    counts[l.agency.index()] += 1;
                }
            }
        }
        obj.need.iter().all(|&(a, n)| counts[a.index()] >= n)
    }

    /// Continues the placement being resolved until a prompt is needed or it is done.
    fn resume(&mut self, ctx: &mut Ctx) {
        let d = self.data();
        let s = seat(self.current);
        while let Some(r) = self.resolving {
            let card = d.lab(r.card).cloned();
            let slot = usize::from(r.slot);
            let Some(card) = card else {
                self.resolving = None;
                break;
            };
            let mut next = r;
            next.step += 1;
            self.resolving = Some(next);
            match r.step {
                0 => {
                    let paused = match card.effect {
                        LabEffect::DrawLab { n } => {
                            self.draw_to_hand(usize::from(n), Source::Instant, ctx);
                            false
                        }
                        LabEffect::DrawProject { n } => {
                            self.draw_projects(usize::from(n), Source::Instant, ctx)
                        }
                        _ => false,
                    };
                    if paused {
                        return;
                    }
                }
                1 => match d.slot_row(slot) {
                    Row::Top => {
                        if self.draw_projects(usize::from(card.cost), Source::Top, ctx) {
                            return;
                        }
                    }
                    Row::Middle => {}
                    Row::Bottom => {
                        let Some(c) = d.capsules.iter().position(|k| k.bottom == slot) else {
                            continue;
                        };
                        let p = self.player(self.current);
                        let Some(obj) = p.objectives.and_then(|o| d.objective(o[c])) else {
                            continue;
                        };
                        if obj.specialty != card.specialty {
                            continue;
                        }
                        let capsule = u8_of(c);
                        match obj.effect {
                            BottomEffect::LabsPerBottomCard => {
                                let k = (0..SLOTS)
                                    .filter(|&i| {
                                        d.slot_row(i) == Row::Bottom && p.station[i].is_some()
                                    })
                                    .count();
                                ctx.events.push(Event::BottomEffect {
                                    seat: s,
                                    capsule,
                                    taken: Vec::new(),
                                    effect: obj.effect.id().into(),
                                });
                                self.draw_to_hand(k, Source::Bottom, ctx);
                            }
                            BottomEffect::ProjectsCostPlusOne => {
                                ctx.events.push(Event::BottomEffect {
                                    seat: s,
                                    capsule,
                                    taken: Vec::new(),
                                    effect: obj.effect.id().into(),
                                });
                                let k = usize::from(card.cost) + 1;
                                if self.draw_projects(k, Source::Bottom, ctx) {
                                    return;
                                }
                            }
                            BottomEffect::RecruitOwnAgency => {
                                let taken = std::mem::take(&mut self.centre[card.agency.index()]);
                                self.me().hand.extend(taken.iter().copied());
                                ctx.events.push(Event::BottomEffect {
                                    seat: s,
                                    capsule,
                                    taken,
                                    effect: obj.effect.id().into(),
                                });
                            }
                            BottomEffect::BottomRowPoints { .. } => {
                                ctx.events
                                    .push(Event::BottomBonusArmed { seat: s, capsule });
                            }
                        }
                    }
                },
                2..=4 => {
                    let c = usize::from(r.step - 2);
                    let touches = d.slots.get(slot).is_some_and(|g| g.capsules.contains(&c));
                    let p = self.player(self.current);
                    if !touches || p.validated[c].is_some() || !self.meets(p, c) {
                        continue;
                    }
                    let objective = p.objectives.map_or(0, |o| o[c]);
                    let tile = if self.piles[c].is_empty() {
                        u8::MAX
                    } else {
                        self.piles[c].remove(0)
                    };
                    self.me().validated[c] = Some(tile);
                    let (value, bonus) = d.tile(tile).map_or((0, false), |t| (t.value, t.bonus));
                    ctx.events.push(Event::ObjectiveValidated {
                        seat: s,
                        capsule: u8_of(c),
                        objective,
                        tile,
                        value,
                        bonus,
                    });
                    let can_draw = self.lab_deck.len() + self.lab_discard.len() > 0
                        || !self.project_deck.is_empty();
                    if bonus && self.opts.validation_bonus && can_draw {
                        self.phase = Phase::Bonus;
                        return;
                    }
                }
                5 => {
                    let p = self.player(self.current);
                    if self.end.is_some() {
                        continue;
                    }
                    let mut reasons = Vec::new();
                    if p.filled() >= SLOTS {
                        reasons.push(EndReason::TenCards);
                    }
                    if p.validated_count() >= CAPSULES {
                        reasons.push(EndReason::ThreeObjectives);
                    }
                    if reasons.is_empty() {
                        continue;
                    }
                    let t = self.current;
                    let remaining: Vec<u8> = match self.opts.final_round {
                        FinalRound::OthersOnce => (1..self.n).map(|k| (t + k) % self.n).collect(),
                        FinalRound::EqualTurns => (1..self.n)
                            .map(|k| (t + k) % self.n)
                            .take_while(|&x| x != self.first)
                            .collect(),
                    };
                    ctx.events.push(Event::EndTriggered {
                        seat: s,
                        reasons,
                        still_to_play: remaining.iter().map(|&x| seat(x)).collect(),
                    });
                    self.end = Some(EndState {
                        trigger: t,
                        remaining,
                    });
                    if self.opts.trigger_ends_turn {
                        self.resolving = None;
                        self.end_turn(ctx);
                        return;
                    }
                }
                _ => {
                    self.resolving = None;
                    self.phase = Phase::PlaceCard { filter: None };
                }
            }
        }
    }

    /// Ends the current turn and starts the next one (or ends the game).
    fn end_turn(&mut self, ctx: &mut Ctx) {
        ctx.barrier = true;
        self.resolving = None;
        self.revealed.clear();
        self.me().placed_this_action = 0;
        if let Some(end) = &mut self.end {
            if end.remaining.is_empty() {
                self.game_over(false, ctx);
                return;
            }
            self.current = end.remaining.remove(0);
        } else if self.consecutive_passes >= self.n {
            self.game_over(true, ctx);
            return;
        } else {
            self.current = (self.current + 1) % self.n;
        }
        self.turn_no += 1;
        self.start_turn(ctx);
    }

    /// Turn start (spec 6.2): no legal action passes; otherwise P1 (settled when single).
    pub(crate) fn start_turn(&mut self, ctx: &mut Ctx) {
        let s = seat(self.current);
        self.me().drawn.clear();
        let legal = self.legal_actions();
        let p = self.player(self.current);
        ctx.events.push(Event::TurnStarted {
            seat: s,
            turn_no: self.turn_no,
            hand: p.hand.len(),
            projects: p.projects.len(),
            forced_place: p.hand.len() >= 5 && !legal.is_empty(),
        });
        if legal.is_empty() {
            ctx.events.push(Event::TurnPassed { seat: s });
            self.consecutive_passes = self.consecutive_passes.saturating_add(1);
            self.end_turn(ctx);
        } else {
            self.consecutive_passes = 0;
            self.phase = Phase::ChooseAction;
        }
    }

    fn game_over(&mut self, stall: bool, ctx: &mut Ctx) {
        let scores: Vec<Breakdown> = (0..self.n).map(|s| self.breakdown(s)).collect();
        let keys: Vec<(i64, usize)> = scores
            .iter()
            .zip(&self.players)
            .map(|(b, p)| (b.total(), p.projects.len()))
            .collect();
        let ranks: Vec<u8> = keys
            .iter()
            .map(|k| u8_of(keys.iter().filter(|o| *o > k).count() + 1))
            .collect();
        let winners: Vec<Seat> = ranks
            .iter()
            .enumerate()
            .filter(|(_, &r)| r == 1)
            .map(|(i, _)| seat(u8_of(i)))
            .collect();
        let draw = self.n > 1 && winners.len() == usize::from(self.n);
        self.outcome = Some(Outcome {
            scores: scores.iter().map(Breakdown::total).collect(),
            ranks: ranks.clone(),
            winners: if draw { Vec::new() } else { winners },
            draw,
        });
        ctx.events.push(Event::GameOver {
            scores: scores.clone(),
            ranks,
            stall,
        });
        self.final_scores = Some(scores);
        self.phase = Phase::Over;
        self.resolving = None;
    }

    // ---- scoring (spec section 8) -------------------------------------------------------

    /// The score of seat `s` by part, from the current position.
    pub fn breakdown(&self, s: u8) -> Breakdown {
        let d = self.data();
        let p = self.player(s);
        let cards: Vec<(usize, &super::cards::LabCard)> = p
            .station
            .iter()
            .enumerate()
            .filter_map(|(i, c)| c.and_then(|c| d.lab(c)).map(|l| (i, l)))
            .collect();
        let mut sp = [0i64; 4];
        for (_, l) in &cards {
            sp[l.specialty.index()] += 1;
        }
        let projects = i64::try_from(p.projects.len()).unwrap_or(0);
        let validated = i64::try_from(p.validated_count()).unwrap_or(0);
        let count = |f: &dyn Fn(usize, &super::cards::LabCard) -> bool| {
            i64::try_from(cards.iter().filter(|(i, l)| f(*i, l)).count()).unwrap_or(0)
        };
        let mut lab_end = 0;
        for &(i, l) in &cards {
            let row = d.slot_row(i);
            lab_end += match l.effect {
                LabEffect::Flat { vp } => vp,
                LabEffect::InRow { row: r, vp } => {
                    if r == row {
                        vp
                    } else {
                        0
                    }
                }
                LabEffect::SameAgencyInRow { vp } => {
                    vp * count(&|j, m| d.slot_row(j) == row && m.agency == l.agency)
                }
                LabEffect::SameSpecialtyInStation { vp } => vp * sp[l.specialty.index()],
                LabEffect::PerProject { vp } => vp * projects,
                LabEffect::PerValidated { vp } => vp * validated,
                LabEffect::DistinctAgenciesInRow { vp } => {
                    let n = Agency::ALL
                        .into_iter()
                        .filter(|&a| count(&|j, m| d.slot_row(j) == row && m.agency == a) > 0)
                        .count();
                    vp * i64::try_from(n).unwrap_or(0)
                }
                LabEffect::DrawLab { .. } | LabEffect::DrawProject { .. } => 0,
            };
        }
        let bottom_cards = count(&|j, _| d.slot_row(j) == Row::Bottom);
        let mut bottom_end = 0;
        if let Some(objs) = p.objectives {
            for (c, cap) in d.capsules.iter().enumerate() {
                let Some(obj) = d.objective(objs[c]) else {
                    continue;
                };
                if let BottomEffect::BottomRowPoints { vp } = obj.effect {
                    let placed = p.station[cap.bottom].and_then(|x| d.lab(x));
                    if placed.is_some_and(|l| l.specialty == obj.specialty) {
                        bottom_end += vp * bottom_cards;
                    }
                }
            }
        }
        let validation = p
            .validated
            .iter()
            .flatten()
            .filter_map(|&t| d.tile(t))
            .map(|t| t.value)
            .sum();
        let proj = self.project_scores(s).iter().map(|x| x.2).sum();
        Breakdown {
            lab_end,
            bottom_end,
            validation,
            projects: proj,
        }
    }

    /// Held Project kinds of seat `s`: (kind, copies held, VP for this station), in kind order.
    pub fn project_scores(&self, s: u8) -> Vec<(u8, i64, i64)> {
        let d = self.data();
        let p = self.player(s);
        let mut sp = [0i64; 4];
        let mut ag = [0i64; 4];
        for l in p.station.iter().flatten().filter_map(|&c| d.lab(c)) {
            sp[l.specialty.index()] += 1;
            ag[l.agency.index()] += 1;
        }
        let mut held = vec![0i64; d.kinds.len()];
        for &c in &p.projects {
            if let Some(h) = held.get_mut(usize::from(d.kind_of(c))) {
                *h += 1;
            }
        }
        let mut out = Vec::new();
        for (k, kind) in d.kinds.iter().enumerate() {
            let c = held[k];
            if c == 0 {
                continue;
            }
            let vp = match &kind.scoring {
                ProjectScoring::PerSpecialty { specialty, vp } => c * vp * sp[specialty.index()],
                ProjectScoring::SetTable { table } => {
                    let i = usize::try_from(c)
                        .unwrap_or(0)
                        .min(table.len().saturating_sub(1));
                    table.get(i).copied().unwrap_or(0)
                }
                ProjectScoring::Pairs { pair_vp, single_vp } => {
                    pair_vp * (c / 2) + single_vp * (c % 2)
                }
                ProjectScoring::AgenciesWithMinCards { min_cards, vp } => {
                    let m = i64::try_from(*min_cards).unwrap_or(i64::MAX);
                    c * vp * i64::try_from(ag.iter().filter(|&&x| x >= m).count()).unwrap_or(0)
                }
                ProjectScoring::SpecialtySets { vp } => {
                    c * vp
                        * Specialty::ALL
                            .iter()
                            .map(|s| sp[s.index()])
                            .min()
                            .unwrap_or(0)
                }
            };
            out.push((u8_of(k), c, vp));
        }
        out
    }
}
