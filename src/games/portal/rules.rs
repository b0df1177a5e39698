//! The rules: hooks of the active character, geometry, the agenda of steps, the options of
//! every prompt (spec section 6), their effects and events, and the end of the game.
//!
//! The pending work is a stack of [`Step`]s. `run` executes automatic steps and auto-applies
//! prompts with a single option until a real decision is needed. A decision is legal exactly
//! when it is one of the listed options; `why` explains a refused one.

use super::components::{shipped, Data};
use super::moves::{Action, Death, DeployMode, Ev, Event, Icon, LostReason, Majority, SkipReason};
use super::state::{
    AutoRec, Card, Cause, Ch, Chamber, EndReason, Floor, Lifted, MoveMode, Piece, Portal, Step,
    VoteState,
};
use crate::engine::{Applied, Outcome, Seat};
use crate::i18n::Text;

/// Why a decision is not legal here (spec 6.13).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum RuleError {
    #[error("that option belongs to another step")]
    NotThisPrompt,
    #[error("there is no such chamber in the Lab")]
    NoSuchChamber,
    #[error("there is no such card there")]
    NoSuchCard,
    #[error("that card is not in your hand")]
    CardNotInHand,
    #[error("that card was gained this turn")]
    CardIsFresh,
    #[error("you have no subject there")]
    NoOwnSubjects,
    #[error("that many subjects are not there")]
    CountOutOfRange,
    #[error("that chamber is not within reach")]
    NotAdjacent,
    #[error("no subject may enter that chamber now")]
    CannotEnter,
    #[error("the subjects cannot carry more cake")]
    CarryLimit,
    #[error("there is no such cake there")]
    NoSuchCake,
    #[error("that chamber is not on the old edge")]
    NotOldEdge,
    #[error("recycling that chamber would split the Lab")]
    WouldSplitLab,
    #[error("an occupied old-edge chamber must be activated")]
    MustActivateOccupied,
    #[error("portals cannot be shot onto the old edge")]
    PortalOnOldEdge,
    #[error("the two portals need two different chambers")]
    SamePortalChamber,
    #[error("the floor that lost the chamber must take it back")]
    FloorMustBeRefilled,
    #[error("that floor would leave the Lab split")]
    FloorWouldSplit,
    #[error("your hand is full")]
    HandFull,
    #[error("no card can be drawn")]
    DeckEmpty,
    #[error("your supply is empty")]
    NoSupply,
    #[error("already used this turn")]
    AlreadyUsedThisTurn,
    #[error("the finale needs 2 of your slices and 1 of your subjects in the Lab")]
    FinaleRequirementsUnmet,
    #[error("discard down to the hand limit first")]
    MustDiscard,
    #[error("that is not allowed now")]
    NotAllowedNow,
}

impl RuleError {
    pub fn key(self) -> &'static str {
        match self {
            RuleError::NotThisPrompt => "not_this_prompt",
            RuleError::NoSuchChamber => "no_such_chamber",
            RuleError::NoSuchCard => "no_such_card",
            RuleError::CardNotInHand => "card_not_in_hand",
            RuleError::CardIsFresh => "card_is_fresh",
            RuleError::NoOwnSubjects => "no_own_subjects",
            RuleError::CountOutOfRange => "count_out_of_range",
            RuleError::NotAdjacent => "not_adjacent",
            RuleError::CannotEnter => "cannot_enter",
            RuleError::CarryLimit => "carry_limit",
            RuleError::NoSuchCake => "no_such_cake",
            RuleError::NotOldEdge => "not_old_edge",
            RuleError::WouldSplitLab => "would_split_lab",
            RuleError::MustActivateOccupied => "must_activate_occupied",
            RuleError::PortalOnOldEdge => "portal_on_old_edge",
            RuleError::SamePortalChamber => "same_portal_chamber",
            RuleError::FloorMustBeRefilled => "floor_must_be_refilled",
            RuleError::FloorWouldSplit => "floor_would_split",
            RuleError::HandFull => "hand_full",
            RuleError::DeckEmpty => "deck_empty",
            RuleError::NoSupply => "no_supply",
            RuleError::AlreadyUsedThisTurn => "already_used_this_turn",
            RuleError::FinaleRequirementsUnmet => "finale_requirements_unmet",
            RuleError::MustDiscard => "must_discard",
            RuleError::NotAllowedNow => "not_allowed_now",
        }
    }

    pub fn text(self) -> Text {
        Text::new(format!("portal.error.{}", self.key()))
    }
}

/// Collects events; `auto` marks those of options the engine chose.
#[derive(Default)]
pub struct Log {
    pub events: Vec<Event>,
    pub auto: bool,
}

impl Log {
    pub fn push(&mut self, ev: Ev) {
        self.events.push(Event {
            ev,
            auto: self.auto,
        });
    }
}

/// Most auto-applied prompts remembered for spec 6.13 rule 3.
const AUTO_MEMORY: usize = 8;

impl Step {
    /// Whether this step waits for a decision.
    pub fn is_prompt(&self) -> bool {
        !matches!(
            self,
            Step::TurnStart
                | Step::MainOrder
                | Step::Recycle
                | Step::AfterCycle
                | Step::TurnEnd
                | Step::FinishCard { .. }
                | Step::BonusCard
                | Step::OperaEnd
        )
    }

    /// Stable snake_case prompt kind.
    pub fn kind(&self) -> &'static str {
        match self {
            Step::HandLimit => "hand_limit",
            Step::Deploy => "deploy",
            Step::MoveSource(MoveMode::Group) => "move_source",
            Step::MoveSource(MoveMode::Chell) => "chell_move",
            Step::MoveSource(_) => "atlas_from",
            Step::MoveCount { .. } => "move_count",
            Step::MoveDest { .. } => "move_dest",
            Step::Carry { .. } => "carry",
            Step::Bonus => "bonus",
            Step::Activate => "activate",
            Step::Reward => "reward",
            Step::RecycleFloor => "recycle_floor",
            Step::Deliver { .. } => "deliver",
            Step::PortalPlace { .. } => "portal_place",
            Step::WheatleyFrom => "wheatley_from",
            Step::WheatleyTo { .. } => "wheatley_to",
            Step::CarolineFrom => "caroline_from",
            Step::CarolineTo { .. } => "caroline_to",
            Step::Kill { .. } => "kill",
            Step::KillColour { .. } => "kill_colour",
            Step::DougFrom => "doug_from",
            Step::DougColour { .. } => "doug_colour",
            Step::DougTo { .. } => "doug_to",
            Step::SpaceTo => "space_to",
            Step::CuriosityTo { .. } => "curiosity_to",
            Step::MoralityFrom => "morality_from",
            Step::MoralityColour { .. } => "morality_colour",
            Step::OracleFlip => "oracle_flip",
            Step::OperaTurret => "opera_turret",
            Step::GregPick => "greg_pick",
            Step::DefectiveRemove => "defective_remove",
            Step::FrankenMove => "franken_move",
            Step::AngerBurn => "anger_burn",
            Step::AngerColour { .. } => "anger_colour",
            Step::OperaBurn { .. } => "opera_burn",
            Step::Vote => "vote",
            _ => "auto",
        }
    }

    /// The verbs this prompt answers (spec 6.13 rule 2), whatever its options are now.
    pub fn verbs(&self) -> &'static [&'static str] {
        match self {
            Step::HandLimit => &["discard"],
            Step::Deploy => &["play", "gun", "burn", "trade", "opera", "done"],
            Step::PortalPlace { .. } => &["portal"],
            Step::MoveSource(MoveMode::Group) => &["move", "pass"],
            Step::MoveSource(MoveMode::Chell) => &["move", "stop"],
            Step::MoveSource(_) => &["from", "stop"],
            Step::MoveCount { .. } => &["count"],
            Step::MoveDest { .. }
            | Step::WheatleyTo { .. }
            | Step::CarolineTo { .. }
            | Step::DougTo { .. }
            | Step::Deliver { .. }
            | Step::OperaTurret => &["to"],
            Step::SpaceTo => &["to", "remove"],
            Step::CuriosityTo { .. } => &["to", "stop"],
            Step::Carry { .. } => &["carry"],
            Step::Bonus => &["bonus"],
            Step::Activate => &["activate"],
            Step::Reward => &["subject", "cake", "card", "cube", "turret"],
            Step::RecycleFloor => &["recycle"],
            Step::WheatleyFrom | Step::CarolineFrom | Step::DougFrom | Step::MoralityFrom => {
                &["from"]
            }
            Step::Kill { .. } => &["kill"],
            Step::KillColour { .. }
            | Step::DougColour { .. }
            | Step::MoralityColour { .. }
            | Step::AngerColour { .. } => &["colour"],
            Step::OracleFlip => &["flip"],
            Step::GregPick => &["pick"],
            Step::DefectiveRemove => &["remove"],
            Step::FrankenMove => &["turret", "cube"],
            Step::AngerBurn | Step::OperaBurn { .. } => &["burn"],
            Step::Vote => &["vote", "abstain"],
            _ => &[],
        }
    }
}

impl Portal {
    pub(crate) fn data(&self) -> &'static Data {
        shipped()
    }

    // ----- hooks of the active character (spec 3.5) -----

    /// The active character: the top of the discard pile, unless characters are off.
    pub fn character(&self) -> Option<Card> {
        if self.opts.characters {
            self.discard.last().copied()
        } else {
            None
        }
    }

    pub(crate) fn is_char(&self, c: Card) -> bool {
        self.character() == Some(c)
    }

    pub fn hand_limit(&self) -> usize {
        if self.is_char(Card::Curiosity) {
            5
        } else {
            usize::from(self.data().hand_limit)
        }
    }

    pub fn portals_open(&self) -> bool {
        !self.is_char(Card::Anger)
    }

    pub fn can_enter(&self, ch: Ch) -> bool {
        !(self.is_char(Card::Franken) && self.cube == Some(ch))
    }

    pub fn turret_lethal(&self) -> bool {
        !self.is_char(Card::Defective)
    }

    fn carry_per_subject(&self) -> u8 {
        match self.character() {
            Some(Card::Pbody) => 2,
            Some(Card::Doug) => 0,
            _ => 1,
        }
    }

    // ----- geometry (spec 4) -----

    pub fn exists(&self, ch: Ch) -> bool {
        self.chamber(ch).is_some()
    }

    /// Physically adjacent chambers in canonical order.
    pub fn physical_neighbours(&self, ch: Ch) -> Vec<Ch> {
        self.all_chambers()
            .into_iter()
            .filter(|&o| o.touches(ch))
            .collect()
    }

    fn other_portal(&self, ch: Ch) -> Option<Ch> {
        let [a, b] = self.portals;
        let o = if a == ch {
            b
        } else if b == ch {
            a
        } else {
            return None;
        };
        self.exists(o).then_some(o)
    }

    fn with_link(&self, ch: Ch, link: bool) -> Vec<Ch> {
        let mut v = self.physical_neighbours(ch);
        if link {
            if let Some(o) = self.other_portal(ch) {
                if !v.contains(&o) {
                    v.push(o);
                }
            }
        }
        v
    }

    /// Neighbours for moving subjects and Doug's cake: the portal link counts while open.
    pub fn neighbours(&self, ch: Ch) -> Vec<Ch> {
        self.with_link(ch, self.portals_open())
    }

    /// Neighbours for the Turret.
    pub fn turret_neighbours(&self, ch: Ch) -> Vec<Ch> {
        self.with_link(ch, self.opts.turret_portals && self.portals_open())
    }

    fn sort_canonical(&self, v: &mut Vec<Ch>) {
        let order = self.all_chambers();
        v.sort_by_key(|c| order.iter().position(|o| o == c).unwrap_or(usize::MAX));
        v.dedup();
    }

    /// Whether a set of chambers is physically connected.
    pub fn connected(set: &[Ch]) -> bool {
        let Some(&first) = set.first() else {
            return true;
        };
        let mut seen = vec![false; set.len()];
        seen[0] = true;
        let mut stack = vec![first];
        while let Some(x) = stack.pop() {
            for (i, &y) in set.iter().enumerate() {
                if !seen[i] && x.touches(y) {
                    seen[i] = true;
                    stack.push(y);
                }
            }
        }
        seen.iter().all(|&s| s)
    }

    /// The id a panel gets when attached to floor `g`, with `x` already lifted out.
    fn attach_id(&self, g: Floor, lifted: Option<Ch>) -> Ch {
        let max = self
            .floor(g)
            .iter()
            .map(|x| x.c)
            .filter(|&c| lifted != Some(Ch::new(g, c)))
            .max()
            .unwrap_or(if g == Floor::Mid { 1 } else { 0 });
        Ch::new(g, max + 2)
    }

    /// Floors the panel lifted from `x` may go to (C3), with the split rule.
    fn recycle_floors(&self, x: Ch) -> Vec<Floor> {
        let rest: Vec<Ch> = self
            .all_chambers()
            .into_iter()
            .filter(|&c| c != x)
            .collect();
        let left = rest.iter().filter(|c| c.f == x.f).count();
        let cands: Vec<Floor> = if left < 3 {
            vec![x.f]
        } else {
            Floor::ALL.to_vec()
        };
        if !self.opts.split_final {
            return cands;
        }
        cands
            .into_iter()
            .filter(|&g| {
                let mut s = rest.clone();
                s.push(self.attach_id(g, Some(x)));
                Self::connected(&s)
            })
            .collect()
    }

    /// Whether old-edge chamber `x` passes the split rule (spec 4.6).
    pub fn passes_split(&self, x: Ch) -> bool {
        let rest: Vec<Ch> = self
            .all_chambers()
            .into_iter()
            .filter(|&c| c != x)
            .collect();
        if self.opts.split_final {
            !self.recycle_floors(x).is_empty()
        } else {
            Self::connected(&rest)
        }
    }

    /// Floors whose old edge may be activated now (A1).
    pub fn activatable(&self) -> Vec<Floor> {
        let legal: Vec<Floor> = Floor::ALL
            .into_iter()
            .filter(|&f| self.old_edge(f).is_some_and(|x| self.passes_split(x)))
            .collect();
        let legal = if legal.is_empty() {
            // Never happens (spec 4.6 proof); any old edge is the documented fallback.
            Floor::ALL.to_vec()
        } else {
            legal
        };
        if self.is_char(Card::Morality) {
            let occupied: Vec<Floor> = legal
                .iter()
                .copied()
                .filter(|&f| {
                    self.old_edge(f)
                        .and_then(|x| self.chamber(x))
                        .is_some_and(|c| c.subjects() > 0)
                })
                .collect();
            if !occupied.is_empty() {
                return occupied;
            }
        }
        legal
    }

    // ----- cards -----

    /// R31: the deck has a card, or a reshuffle would give one.
    pub fn can_draw(&self) -> bool {
        !self.deck.is_empty() || self.discard.len() >= 2
    }

    fn hand_has_room(&self, s: u8) -> bool {
        self.seat(s).hand.len() < self.hand_limit()
    }

    fn reshuffle(&mut self, log: &mut Log) {
        if self.discard.len() < 2 {
            return;
        }
        let top = self.discard.pop();
        let mut cards = std::mem::take(&mut self.discard);
        for i in (1..cards.len()).rev() {
            let j = self.rng.gen_range(0..=i);
            cards.swap(i, j);
        }
        let count = u8::try_from(cards.len()).unwrap_or(u8::MAX);
        self.deck = cards;
        self.discard.extend(top);
        log.push(Ev::DeckReshuffled { count });
    }

    /// Takes the top card into `s`'s hand (fresh), with the reshuffle of R32. The caller has
    /// checked the hand limit.
    fn take_card(&mut self, s: u8, log: &mut Log) {
        if self.deck.is_empty() {
            self.reshuffle(log);
        }
        let Some(card) = self.deck.pop() else {
            log.push(Ev::CardGainLost {
                seat: s,
                reason: LostReason::DeckEmpty,
            });
            return;
        };
        self.seat_mut(s)
            .hand
            .push(super::state::HandCard { card, fresh: true });
        log.push(Ev::CardTaken { seat: s, card });
        if self.deck.is_empty() {
            self.reshuffle(log);
        }
        log.push(Ev::DeckTopRevealed {
            card: self.deck.last().copied(),
        });
    }

    /// An automatic take (Fact Core, `burn`, the Fact bonus): limit and R31 apply.
    fn auto_take(&mut self, s: u8, log: &mut Log) {
        if !self.hand_has_room(s) {
            log.push(Ev::CardGainLost {
                seat: s,
                reason: LostReason::HandFull,
            });
        } else if !self.can_draw() {
            log.push(Ev::CardGainLost {
                seat: s,
                reason: LostReason::DeckEmpty,
            });
        } else {
            self.take_card(s, log);
        }
    }

    fn character_changed(&self, log: &mut Log) {
        log.push(Ev::CharacterChanged {
            card: self.discard.last().copied(),
        });
    }

    // ----- pieces -----

    fn touch(&mut self, ch: Ch) {
        if !self.touched.contains(&ch) {
            self.touched.push(ch);
        }
    }

    fn destroy(&mut self, ch: Ch, owner: u8, count: u8, cause: Death, log: &mut Log) {
        if count == 0 {
            return;
        }
        let o = usize::from(owner);
        if let Some(x) = self.chamber_mut(ch) {
            x.subj[o] = x.subj[o].saturating_sub(count);
        }
        let s = self.seat_mut(owner);
        s.subject_supply = s.subject_supply.saturating_add(count);
        self.touch(ch);
        log.push(Ev::SubjectsDestroyed {
            chamber: ch,
            owner,
            count,
            cause,
        });
    }

    /// Subjects of `owner` arriving in `ch`: the Turret kills them (R9b).
    fn turret_check(&mut self, ch: Ch, owner: u8, count: u8, log: &mut Log) {
        if self.turret == Some(ch) && self.turret_lethal() {
            self.destroy(ch, owner, count, Death::Turret, log);
        }
    }

    /// The Turret arrives in `ch`: every subject there dies (R9a).
    fn turret_arrives(&mut self, ch: Ch, log: &mut Log) {
        self.turret = Some(ch);
        self.touch(ch);
        if !self.turret_lethal() {
            return;
        }
        let counts = self.chamber(ch).map(|x| x.subj).unwrap_or_default();
        for s in self.seat_ids().collect::<Vec<_>>() {
            self.destroy(ch, s, counts[usize::from(s)], Death::Turret, log);
        }
    }

    fn deliver_subject(&mut self, owner: u8, ch: Ch, cause: Cause, log: &mut Log) {
        let s = self.seat_mut(owner);
        s.subject_supply = s.subject_supply.saturating_sub(1);
        if let Some(x) = self.chamber_mut(ch) {
            x.subj[usize::from(owner)] += 1;
        }
        self.touch(ch);
        log.push(Ev::SubjectDelivered {
            owner,
            chamber: ch,
            cause,
        });
        self.turret_check(ch, owner, 1, log);
    }

    fn deliver_cake(&mut self, owner: u8, ch: Ch, cause: Cause, log: &mut Log) {
        let s = self.seat_mut(owner);
        s.cake_supply = s.cake_supply.saturating_sub(1);
        if let Some(x) = self.chamber_mut(ch) {
            x.cake[usize::from(owner)] += 1;
        }
        self.touch(ch);
        log.push(Ev::CakeDelivered {
            owner,
            chamber: ch,
            cause,
        });
    }

    fn incinerate(&mut self, colour: u8, ch: Ch, cause: Option<Card>, log: &mut Log) {
        if let Some(x) = self.chamber_mut(ch) {
            x.cake[usize::from(colour)] = x.cake[usize::from(colour)].saturating_sub(1);
        }
        self.seat_mut(colour).incinerated += 1;
        self.touch(ch);
        log.push(Ev::CakeIncinerated {
            colour,
            chamber: ch,
            count: 1,
            cause,
        });
    }

    fn subj_at(&self, ch: Ch, s: u8) -> u8 {
        self.chamber(ch).map_or(0, |x| x.subj[usize::from(s)])
    }

    fn cake_at(&self, ch: Ch, s: u8) -> u8 {
        self.chamber(ch).map_or(0, |x| x.cake[usize::from(s)])
    }

    fn chambers_where(&self, f: impl Fn(&Chamber) -> bool) -> Vec<Ch> {
        Floor::ALL
            .into_iter()
            .flat_map(|fl| {
                self.floor(fl)
                    .iter()
                    .filter(|x| f(x))
                    .map(move |x| Ch::new(fl, x.c))
                    .collect::<Vec<_>>()
            })
            .collect()
    }

    /// Destinations of a move from `from` (M3), in canonical order.
    pub fn destinations(&self, from: Ch, mode: MoveMode) -> Vec<Ch> {
        let one = self.neighbours(from);
        let mut out: Vec<Ch> = one.clone();
        if mode == MoveMode::Group && self.is_char(Card::Chell) {
            for i in one {
                if self.turret == Some(i) {
                    continue;
                }
                out.extend(self.neighbours(i).into_iter().filter(|&d| d != from));
            }
        }
        out.retain(|&d| self.can_enter(d));
        self.sort_canonical(&mut out);
        out
    }

    // ----- end of game (spec 8) -----

    /// End checks after an atomic effect. Returns true when the game is over.
    pub(crate) fn check_end(&mut self, log: &mut Log) -> bool {
        if self.ended.is_some() {
            return true;
        }
        let limit = self.data().incinerated_limit;
        let reason = self
            .seat_ids()
            .find(|&s| self.subjects_in_lab(s) == 0)
            .map(EndReason::NoSubjects)
            .or_else(|| {
                self.seat_ids()
                    .find(|&s| self.seat(s).incinerated >= limit)
                    .map(EndReason::Incinerated)
            });
        match reason {
            Some(r) => {
                self.finish(r, log);
                true
            }
            None => false,
        }
    }

    /// The game ends now: pending work is dropped, then scoring (and maybe the vote).
    pub(crate) fn finish(&mut self, reason: EndReason, log: &mut Log) {
        self.ended = Some(reason);
        self.agenda.clear();
        if let Some(c) = self.turn.resolving.take() {
            self.discard.push(c);
        }
        if let Some(vote) = self.vote_to_open() {
            self.vote = Some(vote);
            self.agenda.push(Step::Vote);
            return;
        }
        self.conclude(log);
    }

    /// The final vote the current position calls for (`final_tie = vote`, a tie for first
    /// place with someone outside it), before any ballot.
    pub(crate) fn vote_to_open(&self) -> Option<VoteState> {
        let key = |s: u8| (self.cake_in_lab(s), self.subjects_in_lab(s));
        let best = self.seat_ids().map(key).max().unwrap_or((0, 0));
        let tied: Vec<u8> = self.seat_ids().filter(|&s| key(s) == best).collect();
        if !(self.opts.vote && tied.len() > 1 && tied.len() < self.n()) {
            return None;
        }
        let n = self.n();
        let voters: Vec<u8> = (1..=n)
            .map(|k| u8::try_from((usize::from(self.active) + k) % n).unwrap_or(0))
            .filter(|s| !tied.contains(s))
            .collect();
        Some(VoteState {
            tied,
            voters,
            votes: Vec::new(),
        })
    }

    /// Ranks the seats and records the outcome.
    fn conclude(&mut self, log: &mut Log) {
        let mut tally = vec![0u8; self.n()];
        if let Some(v) = &self.vote {
            for s in v.votes.iter().flatten() {
                if let Some(t) = tally.get_mut(usize::from(*s)) {
                    *t += 1;
                }
            }
            log.push(Ev::VotesRevealed {
                tally: tally.clone(),
            });
        }
        let key = |s: u8| {
            (
                self.cake_in_lab(s),
                self.subjects_in_lab(s),
                tally[usize::from(s)],
            )
        };
        let keys: Vec<_> = self.seat_ids().map(key).collect();
        let ranks: Vec<u8> = keys
            .iter()
            .map(|k| u8::try_from(keys.iter().filter(|o| *o > k).count() + 1).unwrap_or(u8::MAX))
            .collect();
        let winners: Vec<u8> = self
            .seat_ids()
            .filter(|&s| ranks[usize::from(s)] == 1)
            .collect();
        let scores: Vec<i64> = self
            .seat_ids()
            .map(|s| i64::from(self.cake_in_lab(s)))
            .collect();
        log.push(Ev::GameEnded {
            reason: self.ended.unwrap_or(EndReason::RoundLimit),
            scores: scores.clone(),
            winners: winners.clone(),
        });
        self.agenda.clear();
        self.outcome = Some(Outcome {
            scores,
            ranks,
            winners: winners.into_iter().map(Seat).collect(),
            draw: false,
        });
    }

    // ----- the agenda -----

    /// Who answers `step`.
    pub fn step_seat(&self, step: &Step) -> u8 {
        match step {
            Step::Carry { owner, .. } | Step::Deliver { owner, .. } => *owner,
            Step::Reward => self.turn.recipient.unwrap_or(self.active),
            Step::Vote => self
                .vote
                .as_ref()
                .and_then(|v| v.voters.get(v.votes.len()).copied())
                .unwrap_or(self.active),
            _ => self.active,
        }
    }

    /// The pending prompt step, if any (the agenda is always settled between decisions).
    pub fn current(&self) -> Option<&Step> {
        if self.outcome.is_some() {
            return None;
        }
        self.agenda.last()
    }

    /// Runs automatic steps and single-option prompts until a decision is needed.
    pub(crate) fn run(&mut self, log: &mut Log) {
        let mut guard = 0u32;
        while self.outcome.is_none() {
            guard += 1;
            if guard > 10_000 {
                break;
            }
            let Some(step) = self.agenda.last().cloned() else {
                break;
            };
            if !step.is_prompt() {
                self.agenda.pop();
                self.exec_auto(&step, log);
                continue;
            }
            let options = self.options(&step);
            match options.len() {
                0 => {
                    self.agenda.pop();
                    self.skip_empty(&step, log);
                }
                1 => {
                    let action = options[0];
                    let seat = self.step_seat(&step);
                    let (default_err, errs) = self.candidate_errors(&step, action);
                    self.agenda.pop();
                    let was = log.auto;
                    log.auto = true;
                    self.exec(&step, action, log);
                    log.auto = was;
                    self.autos.push(AutoRec {
                        seat,
                        step,
                        action,
                        default_err,
                        errs,
                    });
                    if self.autos.len() > AUTO_MEMORY {
                        self.autos.remove(0);
                    }
                }
                _ => break,
            }
        }
    }

    /// Checks, then executes one decision for `seat`.
    pub fn play(&mut self, seat: Seat, action: &Action) -> Result<Applied<Event>, RuleError> {
        let Some(step) = self.current().cloned() else {
            return Err(RuleError::NotAllowedNow);
        };
        if self.step_seat(&step) != seat.0 {
            return Err(RuleError::NotThisPrompt);
        }
        let options = self.options(&step);
        if !options.contains(action) {
            return Err(
                if step.verbs().contains(&action.verb())
                    || (matches!(action, Action::Colour(_)) && step.verbs().contains(&"colour"))
                {
                    self.why(&step, *action)
                } else if step == Step::HandLimit {
                    if Step::Deploy.verbs().contains(&action.verb()) {
                        RuleError::MustDiscard
                    } else {
                        RuleError::NotThisPrompt
                    }
                } else {
                    RuleError::NotThisPrompt
                },
            );
        }
        let active_before = self.active;
        self.autos.retain(|r| r.seat != seat.0);
        self.touched.clear();
        self.setup_log.clear();
        let mut log = Log::default();
        self.agenda.pop();
        self.exec(&step, *action, &mut log);
        self.run(&mut log);
        let hidden_reveal = self.opts.hidden_hands;
        let barrier = seat.0 != active_before
            || log.events.iter().any(|e| match &e.ev {
                Ev::TurnStarted { .. }
                | Ev::CardTaken { .. }
                | Ev::DeckReshuffled { .. }
                | Ev::GameEnded { .. }
                | Ev::VoteCast { .. } => true,
                Ev::PanelFlipped { .. } => !self.opts.show_backs,
                Ev::CardDeployed { .. } | Ev::CardTraded { .. } | Ev::HandDiscarded { .. } => {
                    hidden_reveal
                }
                _ => false,
            });
        Ok(Applied {
            events: log.events,
            barrier,
        })
    }

    /// Errors of the other options of a prompt being auto-applied (spec 6.13 rule 3).
    fn candidate_errors(
        &self,
        step: &Step,
        chosen: Action,
    ) -> (RuleError, Vec<(Action, RuleError)>) {
        let floors = Floor::ALL;
        let cands: Vec<Action> = match step {
            Step::MoveCount { .. } => (1..=8).map(Action::Count).collect(),
            Step::RecycleFloor => floors.into_iter().map(Action::Recycle).collect(),
            Step::Activate => floors.into_iter().map(Action::Activate).collect(),
            Step::Carry { .. } => self
                .seat_ids()
                .map(Action::Carry)
                .chain([Action::CarryDone])
                .collect(),
            Step::Bonus => floors
                .into_iter()
                .map(Action::BonusFloor)
                .chain([Action::BonusCard])
                .collect(),
            Step::Deploy => Card::ALL
                .into_iter()
                .flat_map(|c| [Action::Play(c), Action::Gun(c), Action::Trade(c)])
                .chain([Action::Opera])
                .chain(self.all_chambers().into_iter().map(Action::Burn))
                .collect(),
            Step::Deliver { .. } | Step::CarolineTo { .. } => {
                floors.into_iter().map(Action::ToFloor).collect()
            }
            _ => {
                let verbs = step.verbs();
                let mut v: Vec<Action> = self
                    .all_chambers()
                    .into_iter()
                    .flat_map(|c| {
                        [
                            Action::To(c),
                            Action::From(c),
                            Action::Kill(c),
                            Action::Portal(c),
                            Action::Move(c),
                            Action::Burn(c),
                            Action::Flip(c),
                            Action::Cube(c),
                            Action::Turret(c),
                        ]
                    })
                    .filter(|a| verbs.contains(&a.verb()))
                    .collect();
                if verbs.contains(&"colour") {
                    v.extend(self.seat_ids().map(Action::Colour));
                }
                v
            }
        };
        let all: Vec<(Action, RuleError)> = cands
            .into_iter()
            .filter(|&a| a != chosen)
            .map(|a| (a, self.why(step, a)))
            .collect();
        let mut counts: Vec<(RuleError, usize)> = Vec::new();
        for (_, e) in &all {
            match counts.iter_mut().find(|(k, _)| k == e) {
                Some(c) => c.1 += 1,
                None => counts.push((*e, 1)),
            }
        }
        let default = counts
            .iter()
            .max_by_key(|(_, n)| *n)
            .map_or(RuleError::NotAllowedNow, |(e, _)| *e);
        (
            default,
            all.into_iter().filter(|(_, e)| *e != default).collect(),
        )
    }

    // ----- options of each prompt -----

    /// Every legal option of a prompt step, in canonical order (spec 10.4).
    pub fn options(&self, step: &Step) -> Vec<Action> {
        let me = self.active;
        match step {
            Step::HandLimit => {
                let hand = &self.seat(me).hand;
                if hand.len() > self.hand_limit() {
                    hand.iter().map(|h| Action::Discard(h.card)).collect()
                } else {
                    Vec::new()
                }
            }
            Step::Deploy => self.deploy_options(),
            Step::PortalPlace { first, allow_old } => self
                .all_chambers()
                .into_iter()
                .filter(|&c| (*allow_old || !self.is_old_edge(c)) && Some(c) != *first)
                .map(Action::Portal)
                .collect(),
            Step::MoveSource(mode) => {
                let mut v: Vec<Action> = self
                    .chambers_where(|x| x.subj[usize::from(me)] > 0)
                    .into_iter()
                    .filter(|&c| {
                        let m = if *mode == MoveMode::Group {
                            MoveMode::Group
                        } else {
                            MoveMode::Chell
                        };
                        !self.destinations(c, m).is_empty()
                    })
                    .map(|c| match mode {
                        MoveMode::Atlas { .. } => Action::From(c),
                        _ => Action::Move(c),
                    })
                    .collect();
                match mode {
                    MoveMode::Group => {
                        if self.is_char(Card::Announcer) {
                            v.push(Action::Pass);
                        }
                    }
                    _ => v.push(Action::Stop),
                }
                v
            }
            Step::MoveCount { from, .. } => {
                (1..=self.subj_at(*from, me)).map(Action::Count).collect()
            }
            Step::MoveDest { from, mode, .. } => {
                let m = if *mode == MoveMode::Group {
                    MoveMode::Group
                } else {
                    MoveMode::Chell
                };
                self.destinations(*from, m)
                    .into_iter()
                    .map(Action::To)
                    .collect()
            }
            Step::Carry {
                from,
                count,
                picked,
                ..
            } => {
                let cap = usize::from(self.carry_per_subject()) * usize::from(*count);
                let Some(src) = self.chamber(*from) else {
                    return Vec::new();
                };
                if cap == 0 || src.cakes() == 0 {
                    return Vec::new();
                }
                let mut v = Vec::new();
                if picked.len() < cap {
                    for s in self.seat_ids() {
                        let taken = picked.iter().filter(|&&p| p == s).count();
                        if usize::from(src.cake[usize::from(s)]) > taken {
                            v.push(Action::Carry(s));
                        }
                    }
                }
                v.push(Action::CarryDone);
                v
            }
            Step::Bonus => {
                let mut v: Vec<Action> = if self.seat(me).subject_supply > 0 {
                    Floor::ALL
                        .into_iter()
                        .filter(|&f| self.new_edge(f).is_some_and(|c| self.can_enter(c)))
                        .map(Action::BonusFloor)
                        .collect()
                } else {
                    Vec::new()
                };
                if !self.is_char(Card::Fact) && self.hand_has_room(me) && self.can_draw() {
                    v.push(Action::BonusCard);
                }
                v
            }
            Step::Activate => self
                .activatable()
                .into_iter()
                .map(Action::Activate)
                .collect(),
            Step::Reward => self.reward_options(),
            Step::RecycleFloor => self
                .lifted
                .as_ref()
                .map(|l| self.recycle_floors(l.from))
                .unwrap_or_default()
                .into_iter()
                .map(Action::Recycle)
                .collect(),
            Step::Deliver { piece, owner, .. } => {
                let s = self.seat(*owner);
                let supply = match piece {
                    Piece::Subject => s.subject_supply,
                    Piece::Cake => s.cake_supply,
                };
                if supply == 0 {
                    return Vec::new();
                }
                Floor::ALL
                    .into_iter()
                    .filter(|&f| {
                        self.new_edge(f)
                            .is_some_and(|c| *piece == Piece::Cake || self.can_enter(c))
                    })
                    .map(Action::ToFloor)
                    .collect()
            }
            Step::WheatleyFrom => self
                .chambers_where(|x| x.subjects() > 0)
                .into_iter()
                .filter(|&c| !self.destinations(c, MoveMode::Chell).is_empty())
                .map(Action::From)
                .collect(),
            Step::WheatleyTo { from } => self
                .destinations(*from, MoveMode::Chell)
                .into_iter()
                .map(Action::To)
                .collect(),
            Step::CarolineFrom => self
                .chambers_where(|x| x.cake[usize::from(me)] > 0)
                .into_iter()
                .map(Action::From)
                .collect(),
            Step::CarolineTo { .. } => Floor::ALL.into_iter().map(Action::ToFloor).collect(),
            Step::Kill { own, .. } => self
                .chambers_where(|x| {
                    if *own {
                        x.subj[usize::from(me)] > 0
                    } else {
                        x.subjects() > 0
                    }
                })
                .into_iter()
                .map(Action::Kill)
                .collect(),
            Step::KillColour { at, .. } | Step::MoralityColour { from: at } => self
                .seat_ids()
                .filter(|&s| self.subj_at(*at, s) > 0)
                .map(Action::Colour)
                .collect(),
            Step::DougColour { from: at } | Step::AngerColour { at } => self
                .seat_ids()
                .filter(|&s| self.cake_at(*at, s) > 0)
                .map(Action::Colour)
                .collect(),
            Step::DougFrom => self
                .chambers_where(|x| x.cakes() > 0)
                .into_iter()
                .map(Action::From)
                .collect(),
            Step::DougTo { from, .. } => {
                self.neighbours(*from).into_iter().map(Action::To).collect()
            }
            Step::SpaceTo => {
                let mut v: Vec<Action> = self
                    .all_chambers()
                    .into_iter()
                    .filter(|&c| Some(c) != self.cube)
                    .map(Action::To)
                    .collect();
                if self.cube.is_some() {
                    v.push(Action::Remove);
                }
                v
            }
            Step::CuriosityTo { served, .. } => {
                if self.seat(me).subject_supply == 0 {
                    return Vec::new();
                }
                let mut v: Vec<Action> = self
                    .all_chambers()
                    .into_iter()
                    .filter(|c| self.portals.contains(c) && !served.contains(c))
                    .filter(|&c| self.can_enter(c))
                    .map(Action::To)
                    .collect();
                v.push(Action::Stop);
                v
            }
            Step::MoralityFrom => self
                .chambers_where(|x| x.subjects() > 0)
                .into_iter()
                .filter(|&c| !self.destinations(c, MoveMode::Chell).is_empty())
                .map(Action::From)
                .collect(),
            Step::OracleFlip => self.all_chambers().into_iter().map(Action::Flip).collect(),
            Step::OperaTurret => match self.turret {
                None => Floor::ALL.into_iter().map(Action::ToFloor).collect(),
                Some(t) => {
                    let mut v = Vec::new();
                    for i in self.turret_neighbours(t) {
                        v.push(i);
                        v.extend(self.turret_neighbours(i));
                    }
                    v.retain(|&c| c != t);
                    self.sort_canonical(&mut v);
                    v.into_iter().map(Action::To).collect()
                }
            },
            Step::GregPick => self
                .discard
                .iter()
                .rev()
                .map(|&c| Action::Pick(c))
                .collect(),
            Step::DefectiveRemove => {
                let mut v = Vec::new();
                if self.turret.is_some() {
                    v.push(Action::RemoveTurret);
                }
                if self.cube.is_some() {
                    v.push(Action::RemoveCube);
                }
                v
            }
            Step::FrankenMove => {
                let mut v: Vec<Action> = self
                    .turret
                    .map(|t| self.turret_neighbours(t))
                    .unwrap_or_default()
                    .into_iter()
                    .map(Action::Turret)
                    .collect();
                if let Some(q) = self.cube {
                    v.extend(self.physical_neighbours(q).into_iter().map(Action::Cube));
                }
                v
            }
            Step::AngerBurn => Floor::ALL
                .into_iter()
                .filter_map(|f| self.old_edge(f))
                .filter(|&c| self.chamber(c).is_some_and(|x| x.cakes() > 0))
                .map(Action::Burn)
                .collect(),
            Step::OperaBurn { .. } => self
                .chambers_where(|x| x.cake[usize::from(me)] > 0)
                .into_iter()
                .map(Action::Burn)
                .collect(),
            Step::Vote => {
                let Some(v) = &self.vote else {
                    return Vec::new();
                };
                let mut o: Vec<Action> = v.tied.iter().map(|&s| Action::Vote(s)).collect();
                o.push(Action::Abstain);
                o
            }
            _ => Vec::new(),
        }
    }

    fn deploy_options(&self) -> Vec<Action> {
        let me = self.active;
        let hand = &self.seat(me).hand;
        let ready: Vec<Card> = hand.iter().filter(|h| !h.fresh).map(|h| h.card).collect();
        let mut v: Vec<Action> = ready.iter().map(|&c| Action::Play(c)).collect();
        v.extend(ready.iter().map(|&c| Action::Gun(c)));
        if self.is_char(Card::Cave) && !self.turn.cave_used {
            v.extend(
                self.chambers_where(|x| x.cake[usize::from(me)] > 0)
                    .into_iter()
                    .map(Action::Burn),
            );
        }
        if self.is_char(Card::Greg) {
            v.extend(ready.iter().map(|&c| Action::Trade(c)));
        }
        if self.finale_ready() {
            v.push(Action::Opera);
        }
        v.push(Action::Done);
        v
    }

    fn finale_ready(&self) -> bool {
        self.is_char(Card::Opera)
            && self.cake_in_lab(self.active) >= 2
            && self.subjects_in_lab(self.active) >= 1
    }

    fn reward_options(&self) -> Vec<Action> {
        let Some(r) = self.turn.recipient else {
            return Vec::new();
        };
        let pending = &self.turn.pending;
        let has = |i: Icon| pending.contains(&i);
        let s = self.seat(r);
        let mut v = Vec::new();
        if has(Icon::Subject) && s.subject_supply > 0 {
            v.extend(
                Floor::ALL
                    .into_iter()
                    .filter(|&f| self.new_edge(f).is_some_and(|c| self.can_enter(c)))
                    .map(Action::Subject),
            );
        }
        if has(Icon::Cake) && s.cake_supply > 0 {
            v.extend(Floor::ALL.into_iter().map(Action::Cake));
        }
        if has(Icon::Card) && self.hand_has_room(r) && self.can_draw() {
            v.push(Action::TakeCard);
        }
        if has(Icon::Cube) {
            v.extend(self.all_chambers().into_iter().map(Action::Cube));
        }
        if has(Icon::Turret) {
            match self.turret {
                Some(t) => {
                    v.push(Action::TurretStay);
                    v.extend(self.turret_neighbours(t).into_iter().map(Action::Turret));
                }
                None => v.extend(Floor::ALL.into_iter().map(Action::TurretFloor)),
            }
        }
        v
    }

    /// Why `action` is refused at `step` (it is not among the options).
    pub fn why(&self, step: &Step, action: Action) -> RuleError {
        let me = self.active;
        let names_chamber = match action {
            Action::Burn(c)
            | Action::Portal(c)
            | Action::Move(c)
            | Action::To(c)
            | Action::Cube(c)
            | Action::Turret(c)
            | Action::From(c)
            | Action::Kill(c)
            | Action::Flip(c) => Some(c),
            _ => None,
        };
        if let Some(c) = names_chamber {
            if !self.exists(c) {
                return RuleError::NoSuchChamber;
            }
        }
        let in_hand = |c: Card| self.seat(me).hand.iter().find(|h| h.card == c).copied();
        match (step, action) {
            (Step::HandLimit, Action::Discard(_)) => RuleError::CardNotInHand,
            (Step::Deploy, Action::Play(c) | Action::Gun(c) | Action::Trade(c)) => {
                match in_hand(c) {
                    None => RuleError::CardNotInHand,
                    Some(h) if h.fresh => RuleError::CardIsFresh,
                    _ => RuleError::NotAllowedNow,
                }
            }
            (Step::Deploy, Action::Burn(c)) => {
                if !self.is_char(Card::Cave) {
                    RuleError::NotAllowedNow
                } else if self.turn.cave_used {
                    RuleError::AlreadyUsedThisTurn
                } else if self.cake_at(c, me) == 0 {
                    RuleError::NoSuchCake
                } else {
                    RuleError::NotAllowedNow
                }
            }
            (Step::Deploy, Action::Opera) => {
                if self.is_char(Card::Opera) {
                    RuleError::FinaleRequirementsUnmet
                } else {
                    RuleError::NotAllowedNow
                }
            }
            (Step::PortalPlace { first, .. }, Action::Portal(c)) => {
                if Some(c) == *first {
                    RuleError::SamePortalChamber
                } else {
                    RuleError::PortalOnOldEdge
                }
            }
            (Step::MoveSource(_), Action::Move(c) | Action::From(c)) => {
                if self.subj_at(c, me) == 0 {
                    RuleError::NoOwnSubjects
                } else {
                    RuleError::CannotEnter
                }
            }
            (Step::MoveCount { .. }, Action::Count(_)) => RuleError::CountOutOfRange,
            (
                Step::MoveDest { from, .. } | Step::WheatleyTo { from } | Step::DougTo { from, .. },
                Action::To(c),
            ) => {
                if self.neighbours(*from).contains(&c) || *from == c {
                    if *from == c {
                        RuleError::NotAdjacent
                    } else {
                        RuleError::CannotEnter
                    }
                } else {
                    RuleError::NotAdjacent
                }
            }
            (Step::Carry { .. }, Action::Carry(_)) => {
                if let Step::Carry { count, picked, .. } = step {
                    let cap = usize::from(self.carry_per_subject()) * usize::from(*count);
                    if picked.len() >= cap {
                        return RuleError::CarryLimit;
                    }
                }
                RuleError::NoSuchCake
            }
            (Step::Bonus, Action::BonusFloor(f)) => {
                if self.seat(me).subject_supply == 0 {
                    RuleError::NoSupply
                } else if self.new_edge(f).is_some_and(|c| !self.can_enter(c)) {
                    RuleError::CannotEnter
                } else {
                    RuleError::NotAllowedNow
                }
            }
            (Step::Bonus, Action::BonusCard) => {
                if self.is_char(Card::Fact) {
                    RuleError::NotAllowedNow
                } else if !self.hand_has_room(me) {
                    RuleError::HandFull
                } else {
                    RuleError::DeckEmpty
                }
            }
            (Step::Activate, Action::Activate(f)) => match self.old_edge(f) {
                Some(x) if !self.passes_split(x) => RuleError::WouldSplitLab,
                Some(_) => RuleError::MustActivateOccupied,
                None => RuleError::NoSuchChamber,
            },
            (Step::Reward, a) => self.why_reward(a),
            (Step::RecycleFloor, Action::Recycle(_)) => match &self.lifted {
                Some(l) if self.floor(l.from.f).len() < 3 => RuleError::FloorMustBeRefilled,
                _ => RuleError::FloorWouldSplit,
            },
            (Step::Deliver { owner, piece, .. }, Action::ToFloor(f)) => {
                let s = self.seat(*owner);
                let supply = match piece {
                    Piece::Subject => s.subject_supply,
                    Piece::Cake => s.cake_supply,
                };
                if supply == 0 {
                    RuleError::NoSupply
                } else if self.new_edge(f).is_some_and(|c| !self.can_enter(c)) {
                    RuleError::CannotEnter
                } else {
                    RuleError::NotAllowedNow
                }
            }
            (Step::Kill { own: true, .. }, Action::Kill(_)) => RuleError::NoOwnSubjects,
            (
                Step::CarolineFrom | Step::OperaBurn { .. } | Step::DougFrom | Step::AngerBurn,
                Action::From(c) | Action::Burn(c),
            ) => {
                if matches!(step, Step::AngerBurn) && !self.is_old_edge(c) {
                    RuleError::NotOldEdge
                } else {
                    RuleError::NoSuchCake
                }
            }
            (Step::DougColour { .. } | Step::AngerColour { .. }, Action::Colour(_)) => {
                RuleError::NoSuchCake
            }
            (Step::KillColour { .. } | Step::MoralityColour { .. }, Action::Colour(_)) => {
                RuleError::NoOwnSubjects
            }
            (Step::CuriosityTo { .. }, Action::To(c)) => {
                if self.portals.contains(&c) {
                    RuleError::CannotEnter
                } else {
                    RuleError::NotAdjacent
                }
            }
            (
                Step::OperaTurret | Step::FrankenMove,
                Action::To(_) | Action::Turret(_) | Action::Cube(_),
            ) => RuleError::NotAdjacent,
            (Step::GregPick, Action::Pick(_)) => RuleError::NoSuchCard,
            _ => RuleError::NotAllowedNow,
        }
    }

    fn why_reward(&self, a: Action) -> RuleError {
        let Some(r) = self.turn.recipient else {
            return RuleError::NotAllowedNow;
        };
        let has = |i: Icon| self.turn.pending.contains(&i);
        let s = self.seat(r);
        match a {
            Action::Subject(_) if has(Icon::Subject) && s.subject_supply == 0 => {
                RuleError::NoSupply
            }
            Action::Subject(_) if has(Icon::Subject) => RuleError::CannotEnter,
            Action::Cake(_) if has(Icon::Cake) => RuleError::NoSupply,
            Action::TakeCard if has(Icon::Card) && !self.hand_has_room(r) => RuleError::HandFull,
            Action::TakeCard if has(Icon::Card) => RuleError::DeckEmpty,
            Action::Turret(_) if has(Icon::Turret) => RuleError::NotAdjacent,
            _ => RuleError::NotAllowedNow,
        }
    }

    /// A prompt with no option: what happens instead (the "as far as possible" rule).
    fn skip_empty(&mut self, step: &Step, log: &mut Log) {
        let me = self.active;
        match step {
            Step::MoveSource(MoveMode::Group) => log.push(Ev::MoveSkipped {
                seat: me,
                reason: SkipReason::NoLegalMove,
            }),
            Step::Carry { .. } => self.apply_move(step, log),
            Step::Bonus => {
                if self.is_char(Card::Fact) {
                    self.auto_take(me, log);
                } else {
                    log.push(Ev::BonusLost { seat: me });
                }
            }
            Step::Reward => {
                let r = self.turn.recipient.unwrap_or(me);
                for icon in std::mem::take(&mut self.turn.pending) {
                    let reason = match icon {
                        Icon::Card if !self.hand_has_room(r) => LostReason::HandFull,
                        Icon::Card => LostReason::DeckEmpty,
                        Icon::Subject if self.seat(r).subject_supply > 0 => LostReason::NoRoom,
                        _ => LostReason::NoSupply,
                    };
                    log.push(Ev::RewardLost {
                        seat: r,
                        icon,
                        reason,
                    });
                }
            }
            _ => {}
        }
    }

    // ----- automatic steps -----

    fn exec_auto(&mut self, step: &Step, log: &mut Log) {
        let me = self.active;
        match step {
            Step::TurnStart => {
                for h in &mut self.seat_mut(me).hand {
                    h.fresh = false;
                }
                self.turn = super::state::TurnState::default();
                log.push(Ev::TurnStarted {
                    seat: me,
                    round: self.round,
                });
                self.agenda.extend([
                    Step::TurnEnd,
                    Step::MainOrder,
                    Step::Deploy,
                    Step::HandLimit,
                ]);
            }
            Step::MainOrder => {
                self.turn.move_last = self.is_char(Card::Potatos);
                if self.turn.move_last {
                    self.agenda.push(Step::MoveSource(MoveMode::Group));
                }
                self.agenda
                    .extend([Step::AfterCycle, Step::Recycle, Step::Activate]);
                if !self.turn.move_last {
                    self.agenda.push(Step::MoveSource(MoveMode::Group));
                }
            }
            Step::Recycle => self.recycle(log),
            Step::AfterCycle if self.turn.extra_activations > 0 => {
                self.turn.extra_activations -= 1;
                self.agenda
                    .extend([Step::AfterCycle, Step::Recycle, Step::Activate]);
            }
            Step::TurnEnd => {
                let next = u8::try_from((usize::from(me) + 1) % self.n()).unwrap_or(0);
                if next == self.first {
                    self.round += 1;
                    if self.opts.max_rounds > 0 && self.round > self.opts.max_rounds {
                        self.round -= 1;
                        self.finish(EndReason::RoundLimit, log);
                        return;
                    }
                }
                self.active = next;
                self.agenda.push(Step::TurnStart);
            }
            Step::FinishCard { pick } => {
                if let Some(c) = self.turn.resolving.take() {
                    self.discard.push(c);
                }
                if let Some(p) = pick {
                    if let Some(i) = self.discard.iter().position(|c| c == p) {
                        let c = self.discard.remove(i);
                        self.discard.push(c);
                    }
                }
                self.character_changed(log);
            }
            Step::BonusCard => self.auto_take(me, log),
            Step::OperaEnd => self.finish(EndReason::Finale(me), log),
            _ => {}
        }
    }

    /// C1 and C2: clear the activated chamber, lift and flip its panel.
    fn recycle(&mut self, log: &mut Log) {
        let Some(x) = self.turn.activated else {
            return;
        };
        let Some(chamber) = self.chamber(x).cloned() else {
            return;
        };
        if !self.is_char(Card::Wheatley) {
            for s in self.seat_ids().collect::<Vec<_>>() {
                self.destroy(x, s, chamber.subj[usize::from(s)], Death::Recycle, log);
            }
        }
        let caroline = self.is_char(Card::Caroline);
        for s in self.seat_ids().collect::<Vec<_>>() {
            let count = chamber.cake[usize::from(s)];
            if count == 0 {
                continue;
            }
            if let Some(c) = self.chamber_mut(x) {
                c.cake[usize::from(s)] = 0;
            }
            if caroline {
                self.seat_mut(s).cake_supply += count;
                log.push(Ev::CakeReturned {
                    colour: s,
                    chamber: x,
                    count,
                });
            } else {
                self.seat_mut(s).incinerated += count;
                log.push(Ev::CakeIncinerated {
                    colour: s,
                    chamber: x,
                    count,
                    cause: None,
                });
            }
        }
        if self.check_end(log) {
            return;
        }
        let fl = &mut self.floors[x.f.index()];
        let Some(i) = fl.iter().position(|c| c.c == x.c) else {
            return;
        };
        let mut lifted = fl.remove(i);
        if !self.is_char(Card::Bird) {
            lifted.face = lifted.face.other();
            let icons = self.data().panels[usize::from(lifted.panel)]
                .face(lifted.face)
                .to_vec();
            log.push(Ev::PanelFlipped {
                chamber: x,
                face: icons,
            });
        }
        self.lifted = Some(Lifted {
            from: x,
            chamber: lifted,
        });
        self.agenda.push(Step::RecycleFloor);
    }

    /// M5: the group (and carried cake) goes; Turret deaths; then the bonus or the next step.
    fn apply_move(&mut self, step: &Step, log: &mut Log) {
        let Step::Carry {
            owner,
            from,
            to,
            count,
            picked,
            mode,
            wheatley,
        } = step.clone()
        else {
            return;
        };
        let o = usize::from(owner);
        if let Some(x) = self.chamber_mut(from) {
            x.subj[o] = x.subj[o].saturating_sub(count);
            for &p in &picked {
                x.cake[usize::from(p)] = x.cake[usize::from(p)].saturating_sub(1);
            }
        }
        if let Some(x) = self.chamber_mut(to) {
            x.subj[o] += count;
            for &p in &picked {
                x.cake[usize::from(p)] += 1;
            }
        }
        self.touch(from);
        self.touch(to);
        self.last_move = Some((from, to));
        log.push(Ev::SubjectsMoved {
            owner,
            from,
            to,
            count,
            carried: picked,
        });
        self.turret_check(to, owner, count, log);
        if let Some((&next, rest)) = wheatley.split_first() {
            self.agenda.push(Step::Carry {
                owner: next,
                from,
                to,
                count: self.subj_at(from, next),
                picked: Vec::new(),
                mode,
                wheatley: rest.to_vec(),
            });
            return;
        }
        if self.check_end(log) {
            return;
        }
        match mode {
            MoveMode::Group if count == 1 => self.agenda.push(Step::Bonus),
            MoveMode::Atlas { left } if left > 0 => {
                self.agenda
                    .push(Step::MoveSource(MoveMode::Atlas { left: left - 1 }));
            }
            _ => {}
        }
    }

    // ----- decisions -----

    /// Executes a listed option of `step` (already popped from the agenda).
    pub(crate) fn exec(&mut self, step: &Step, action: Action, log: &mut Log) {
        let me = self.active;
        match (step, action) {
            (Step::HandLimit, Action::Discard(c)) => {
                self.seat_mut(me).hand.retain(|h| h.card != c);
                self.discard.push(c);
                log.push(Ev::HandDiscarded { seat: me, card: c });
                self.character_changed(log);
                self.agenda.push(Step::HandLimit);
            }
            (Step::Deploy, Action::Done) => {}
            (Step::Deploy, Action::Play(c) | Action::Gun(c)) => {
                self.seat_mut(me).hand.retain(|h| h.card != c);
                self.turn.resolving = Some(c);
                let gun = matches!(action, Action::Gun(_));
                log.push(Ev::CardDeployed {
                    seat: me,
                    card: c,
                    mode: if gun {
                        DeployMode::Gun
                    } else {
                        DeployMode::Action
                    },
                });
                self.agenda.push(Step::Deploy);
                self.agenda.push(Step::FinishCard { pick: None });
                if gun {
                    self.agenda.push(Step::PortalPlace {
                        first: None,
                        allow_old: false,
                    });
                } else {
                    self.start_script(c, log);
                }
            }
            (Step::Deploy, Action::Burn(ch)) => {
                self.incinerate(me, ch, Some(Card::Cave), log);
                self.turn.cave_used = true;
                if self.check_end(log) {
                    return;
                }
                self.auto_take(me, log);
                self.agenda.push(Step::Deploy);
                self.agenda.push(Step::Deliver {
                    piece: Piece::Subject,
                    owner: me,
                    cause: Cause::Burn,
                });
            }
            (Step::Deploy, Action::Trade(c)) => {
                self.seat_mut(me).hand.retain(|h| h.card != c);
                log.push(Ev::CardTraded { seat: me, card: c });
                self.discard.push(c);
                self.character_changed(log);
                self.agenda.push(Step::Deploy);
                for _ in 0..2 {
                    self.agenda.push(Step::Deliver {
                        piece: Piece::Subject,
                        owner: me,
                        cause: Cause::Trade,
                    });
                }
            }
            (Step::Deploy, Action::Opera) => {
                self.agenda.extend([
                    Step::OperaEnd,
                    Step::Kill {
                        own: true,
                        cause: Card::Opera,
                    },
                    Step::OperaBurn { left: 0 },
                    Step::OperaBurn { left: 1 },
                ]);
            }
            (
                Step::PortalPlace {
                    first: None,
                    allow_old,
                },
                Action::Portal(c),
            ) => {
                self.agenda.push(Step::PortalPlace {
                    first: Some(c),
                    allow_old: *allow_old,
                });
            }
            (Step::PortalPlace { first: Some(a), .. }, Action::Portal(b)) => {
                self.portals = [*a, b];
                self.touch(*a);
                self.touch(b);
                log.push(Ev::PortalsPlaced { a: *a, b });
            }
            (Step::MoveSource(MoveMode::Group), Action::Pass) => log.push(Ev::MoveSkipped {
                seat: me,
                reason: SkipReason::Passed,
            }),
            (Step::MoveSource(_), Action::Stop) => {}
            (Step::MoveSource(mode), Action::Move(from)) => {
                self.agenda.push(Step::MoveCount { from, mode: *mode });
            }
            (Step::MoveSource(mode), Action::From(from)) => {
                self.agenda.push(Step::MoveDest {
                    from,
                    count: 1,
                    mode: *mode,
                    owner: me,
                });
            }
            (Step::MoveCount { from, mode }, Action::Count(count)) => {
                self.agenda.push(Step::MoveDest {
                    from: *from,
                    count,
                    mode: *mode,
                    owner: me,
                });
            }
            (
                Step::MoveDest {
                    from,
                    count,
                    mode,
                    owner,
                },
                Action::To(to),
            ) => {
                self.agenda.push(Step::Carry {
                    owner: *owner,
                    from: *from,
                    to,
                    count: *count,
                    picked: Vec::new(),
                    mode: *mode,
                    wheatley: Vec::new(),
                });
            }
            (Step::Carry { .. }, Action::CarryDone) => self.apply_move(step, log),
            (Step::Carry { .. }, Action::Carry(c)) => {
                let mut next = step.clone();
                if let Step::Carry { picked, .. } = &mut next {
                    picked.push(c);
                }
                self.agenda.push(next);
            }
            (Step::Bonus, Action::BonusFloor(f)) => {
                if let Some(ch) = self.new_edge(f) {
                    self.deliver_subject(me, ch, Cause::Bonus, log);
                }
                if self.check_end(log) {
                    return;
                }
                if self.is_char(Card::Fact) {
                    self.agenda.push(Step::BonusCard);
                }
            }
            (Step::Bonus, Action::BonusCard) => self.take_card(me, log),
            (Step::Activate, Action::Activate(f)) => {
                if let Some(x) = self.old_edge(f) {
                    self.activate(x, log);
                }
            }
            (Step::Reward, a) => self.exec_reward(a, log),
            (Step::RecycleFloor, Action::Recycle(g)) => self.attach(g, log),
            (
                Step::Deliver {
                    piece,
                    owner,
                    cause,
                },
                Action::ToFloor(f),
            ) => {
                if let Some(ch) = self.new_edge(f) {
                    match piece {
                        Piece::Subject => self.deliver_subject(*owner, ch, *cause, log),
                        Piece::Cake => self.deliver_cake(*owner, ch, *cause, log),
                    }
                }
                self.check_end(log);
            }
            (Step::WheatleyFrom, Action::From(from)) => {
                self.agenda.push(Step::WheatleyTo { from });
            }
            (Step::WheatleyTo { from }, Action::To(to)) => {
                let n = self.n();
                let owners: Vec<u8> = (0..n)
                    .map(|k| u8::try_from((usize::from(me) + k) % n).unwrap_or(0))
                    .filter(|&s| self.subj_at(*from, s) > 0)
                    .collect();
                if let Some((&first, rest)) = owners.split_first() {
                    self.agenda.push(Step::Carry {
                        owner: first,
                        from: *from,
                        to,
                        count: self.subj_at(*from, first),
                        picked: Vec::new(),
                        mode: MoveMode::Chell,
                        wheatley: rest.to_vec(),
                    });
                }
            }
            (Step::CarolineFrom, Action::From(from)) => {
                self.agenda.push(Step::CarolineTo { from });
            }
            (Step::CarolineTo { from }, Action::ToFloor(f)) => {
                if let Some(to) = self.new_edge(f) {
                    self.move_cake(me, *from, to, Card::Caroline, log);
                }
            }
            (Step::Kill { own: true, cause }, Action::Kill(ch)) => {
                let death = if *cause == Card::Opera {
                    Death::Finale
                } else {
                    Death::Card(*cause)
                };
                self.destroy(ch, me, 1, death, log);
                self.check_end(log);
            }
            (Step::Kill { own: false, cause }, Action::Kill(at)) => {
                self.agenda.push(Step::KillColour { at, cause: *cause });
            }
            (Step::KillColour { at, cause }, Action::Colour(s)) => {
                self.destroy(*at, s, 1, Death::Card(*cause), log);
                self.check_end(log);
            }
            (Step::DougFrom, Action::From(from)) => self.agenda.push(Step::DougColour { from }),
            (Step::DougColour { from }, Action::Colour(colour)) => {
                self.agenda.push(Step::DougTo {
                    from: *from,
                    colour,
                });
            }
            (Step::DougTo { from, colour }, Action::To(to)) => {
                self.move_cake(*colour, *from, to, Card::Doug, log);
            }
            (Step::SpaceTo, Action::To(to)) => self.place_cube(to, log),
            (Step::SpaceTo, Action::Remove) | (Step::DefectiveRemove, Action::RemoveCube) => {
                if let Some(q) = self.cube.take() {
                    self.touch(q);
                }
                log.push(Ev::CubeRemoved);
            }
            (Step::DefectiveRemove, Action::RemoveTurret) => {
                if let Some(t) = self.turret.take() {
                    self.touch(t);
                }
                log.push(Ev::TurretRemoved);
            }
            (Step::CuriosityTo { .. }, Action::Stop) => {}
            (Step::CuriosityTo { served, left }, Action::To(ch)) => {
                self.deliver_subject(me, ch, Cause::Card(Card::Curiosity), log);
                if self.check_end(log) {
                    return;
                }
                if *left > 1 {
                    let mut served = served.clone();
                    served.push(ch);
                    self.agenda.push(Step::CuriosityTo {
                        served,
                        left: left - 1,
                    });
                }
            }
            (Step::MoralityFrom, Action::From(from)) => {
                self.agenda.push(Step::MoralityColour { from });
            }
            (Step::MoralityColour { from }, Action::Colour(s)) => {
                self.agenda.push(Step::MoveDest {
                    from: *from,
                    count: 1,
                    mode: MoveMode::Morality,
                    owner: s,
                });
            }
            (Step::OracleFlip, Action::Flip(ch)) => {
                let mut icons = Vec::new();
                if let Some(x) = self.chamber_mut(ch) {
                    x.face = x.face.other();
                    let (p, f) = (x.panel, x.face);
                    icons = shipped().panels[usize::from(p)].face(f).to_vec();
                }
                self.touch(ch);
                log.push(Ev::PanelFlipped {
                    chamber: ch,
                    face: icons,
                });
            }
            (Step::OperaTurret, Action::ToFloor(f)) => {
                if let Some(ch) = self.new_edge(f) {
                    log.push(Ev::TurretPlaced { to: ch });
                    self.turret_arrives(ch, log);
                    self.check_end(log);
                }
            }
            (Step::OperaTurret, Action::To(ch)) | (Step::FrankenMove, Action::Turret(ch)) => {
                if let Some(from) = self.turret {
                    log.push(Ev::TurretMoved { from, to: ch });
                }
                self.turret_arrives(ch, log);
                self.check_end(log);
            }
            (Step::FrankenMove, Action::Cube(ch)) => self.place_cube(ch, log),
            (Step::GregPick, Action::Pick(c)) => {
                if let Some(Step::FinishCard { pick }) = self.agenda.last_mut() {
                    *pick = Some(c);
                }
            }
            (Step::AngerBurn, Action::Burn(at)) => self.agenda.push(Step::AngerColour { at }),
            (Step::AngerColour { at }, Action::Colour(s)) => {
                self.incinerate(s, *at, Some(Card::Anger), log);
                self.check_end(log);
            }
            (Step::OperaBurn { .. }, Action::Burn(ch)) => {
                self.incinerate(me, ch, Some(Card::Opera), log);
                self.check_end(log);
            }
            (Step::Vote, a) => {
                let pick = match a {
                    Action::Vote(s) => Some(s),
                    _ => None,
                };
                let voter = self.step_seat(step);
                let done = match &mut self.vote {
                    Some(v) => {
                        v.votes.push(pick);
                        v.votes.len() >= v.voters.len()
                    }
                    None => true,
                };
                log.push(Ev::VoteCast { voter });
                if done {
                    self.conclude(log);
                } else {
                    self.agenda.push(Step::Vote);
                }
            }
            _ => {}
        }
    }

    fn move_cake(&mut self, colour: u8, from: Ch, to: Ch, cause: Card, log: &mut Log) {
        let c = usize::from(colour);
        if let Some(x) = self.chamber_mut(from) {
            x.cake[c] = x.cake[c].saturating_sub(1);
        }
        if let Some(x) = self.chamber_mut(to) {
            x.cake[c] += 1;
        }
        self.touch(from);
        self.touch(to);
        log.push(Ev::CakeMoved {
            colour,
            from,
            to,
            cause,
        });
    }

    fn place_cube(&mut self, to: Ch, log: &mut Log) {
        match self.cube {
            None => log.push(Ev::CubePlaced { to }),
            Some(f) if f == to => log.push(Ev::CubeStayed),
            Some(f) => log.push(Ev::CubeMoved { from: f, to }),
        }
        self.cube = Some(to);
        self.touch(to);
    }

    /// A1 + A2: GLaDOS on `x`, then who earns the rewards.
    fn activate(&mut self, x: Ch, log: &mut Log) {
        self.turn.activated = Some(x);
        self.touch(x);
        log.push(Ev::Activated {
            seat: self.active,
            chamber: x,
        });
        let Some(chamber) = self.chamber(x).cloned() else {
            return;
        };
        let counts: Vec<u8> = self
            .seat_ids()
            .map(|s| chamber.subj[usize::from(s)])
            .collect();
        let (recipient, reason) = self.reward_recipient(x, &chamber);
        log.push(Ev::MajorityResolved {
            chamber: x,
            counts,
            recipient,
            reason,
        });
        if let Some(r) = recipient {
            self.turn.recipient = Some(r);
            self.turn.pending = self.data().panels[usize::from(chamber.panel)]
                .face(chamber.face)
                .to_vec();
            self.agenda.push(Step::Reward);
        }
    }

    /// A2: who would earn the rewards of old-edge chamber `x` (holding `chamber`) now.
    pub(crate) fn reward_recipient(&self, x: Ch, chamber: &Chamber) -> (Option<u8>, Majority) {
        let counts: Vec<u8> = self
            .seat_ids()
            .map(|s| chamber.subj[usize::from(s)])
            .collect();
        let max = counts.iter().copied().max().unwrap_or(0);
        let at_max: Vec<u8> = self
            .seat_ids()
            .filter(|&s| counts[usize::from(s)] == max)
            .collect();
        if self.cube == Some(x) && !self.is_char(Card::Space) {
            (None, Majority::CubeBlocked)
        } else if self.is_char(Card::Oracle) {
            let min = counts.iter().copied().filter(|&c| c > 0).min();
            match min {
                None => (None, Majority::Empty),
                Some(m) => {
                    let at: Vec<u8> = self
                        .seat_ids()
                        .filter(|&s| counts[usize::from(s)] == m)
                        .collect();
                    if at.len() == 1 {
                        (Some(at[0]), Majority::Fewest)
                    } else {
                        (None, Majority::Tie)
                    }
                }
            }
        } else if max == 0 {
            (None, Majority::Empty)
        } else if at_max.len() == 1 {
            (Some(at_max[0]), Majority::Majority)
        } else if self.is_char(Card::Atlas) && at_max.contains(&self.active) {
            (Some(self.active), Majority::ActiveWinsTie)
        } else {
            (None, Majority::Tie)
        }
    }

    fn exec_reward(&mut self, a: Action, log: &mut Log) {
        let r = self.turn.recipient.unwrap_or(self.active);
        let icon = match a {
            Action::Subject(_) => Icon::Subject,
            Action::Cake(_) => Icon::Cake,
            Action::TakeCard => Icon::Card,
            Action::Cube(_) => Icon::Cube,
            _ => Icon::Turret,
        };
        if let Some(i) = self.turn.pending.iter().position(|&p| p == icon) {
            self.turn.pending.remove(i);
        }
        match a {
            Action::Subject(f) => {
                if let Some(ch) = self.new_edge(f) {
                    self.deliver_subject(r, ch, Cause::Reward, log);
                }
            }
            Action::Cake(f) => {
                if let Some(ch) = self.new_edge(f) {
                    self.deliver_cake(r, ch, Cause::Reward, log);
                }
            }
            Action::TakeCard => self.take_card(r, log),
            Action::Cube(ch) => self.place_cube(ch, log),
            Action::TurretStay => log.push(Ev::TurretStayed),
            Action::Turret(ch) => {
                if let Some(from) = self.turret {
                    log.push(Ev::TurretMoved { from, to: ch });
                }
                self.turret_arrives(ch, log);
            }
            Action::TurretFloor(f) => {
                if let Some(ch) = self.new_edge(f) {
                    log.push(Ev::TurretPlaced { to: ch });
                    self.turret_arrives(ch, log);
                }
            }
            _ => {}
        }
        if self.check_end(log) {
            return;
        }
        if !self.turn.pending.is_empty() {
            self.agenda.push(Step::Reward);
        }
    }

    /// C4: the lifted panel joins floor `g` at its new edge with its tokens.
    fn attach(&mut self, g: Floor, log: &mut Log) {
        let Some(lifted) = self.lifted.take() else {
            return;
        };
        let to = self.attach_id(g, None);
        let mut chamber = lifted.chamber;
        chamber.c = to.c;
        self.floors[g.index()].insert(0, chamber);
        let from = lifted.from;
        for p in &mut self.portals {
            if *p == from {
                *p = to;
            }
        }
        if self.turret == Some(from) {
            self.turret = Some(to);
        }
        if self.cube == Some(from) {
            self.cube = Some(to);
        }
        self.turn.activated = None;
        self.touch(to);
        log.push(Ev::ChamberRecycled { from, to, floor: g });
    }

    /// The Aperture action of `card` (spec 6.9), run under the previous character.
    fn start_script(&mut self, card: Card, log: &mut Log) {
        let me = self.active;
        let no_effect = |log: &mut Log| log.push(Ev::NoEffect { card });
        let has = |g: &Portal, s: Step| !g.options(&s).is_empty();
        match card {
            Card::Chell => self.agenda.push(Step::MoveSource(MoveMode::Chell)),
            Card::Wheatley => {
                if has(self, Step::WheatleyFrom) {
                    self.agenda.push(Step::WheatleyFrom);
                } else {
                    no_effect(log);
                }
            }
            Card::Cave => {
                if self.seat(me).subject_supply == 0 {
                    no_effect(log);
                } else {
                    for _ in 0..2 {
                        self.agenda.push(Step::Deliver {
                            piece: Piece::Subject,
                            owner: me,
                            cause: Cause::Card(Card::Cave),
                        });
                    }
                }
            }
            Card::Caroline => {
                if self.cake_in_lab(me) > 0 {
                    self.agenda.push(Step::CarolineFrom);
                } else {
                    no_effect(log);
                }
            }
            Card::Potatos => {
                if self.seat(me).cake_supply >= 1 && self.subjects_in_lab(me) >= 2 {
                    let kill = Step::Kill {
                        own: true,
                        cause: Card::Potatos,
                    };
                    self.agenda.extend([
                        kill.clone(),
                        kill,
                        Step::Deliver {
                            piece: Piece::Cake,
                            owner: me,
                            cause: Cause::Card(Card::Potatos),
                        },
                    ]);
                } else {
                    no_effect(log);
                }
            }
            Card::Atlas => self
                .agenda
                .push(Step::MoveSource(MoveMode::Atlas { left: 2 })),
            Card::Pbody => self.agenda.push(Step::PortalPlace {
                first: None,
                allow_old: true,
            }),
            Card::Doug => {
                if has(self, Step::DougFrom) {
                    self.agenda.push(Step::DougFrom);
                } else {
                    no_effect(log);
                }
            }
            Card::Space => self.agenda.push(Step::SpaceTo),
            Card::Fact => {
                self.auto_take(me, log);
                self.auto_take(me, log);
            }
            Card::Curiosity => {
                if self.seat(me).subject_supply == 0 {
                    no_effect(log);
                } else {
                    self.agenda.push(Step::CuriosityTo {
                        served: Vec::new(),
                        left: 2,
                    });
                }
            }
            Card::Morality => {
                if has(self, Step::MoralityFrom) {
                    self.agenda.push(Step::MoralityFrom);
                } else {
                    no_effect(log);
                }
            }
            Card::Oracle => self.agenda.push(Step::OracleFlip),
            Card::Opera => self.agenda.push(Step::OperaTurret),
            Card::Greg => {
                if self.discard.is_empty() {
                    no_effect(log);
                } else {
                    self.agenda.push(Step::GregPick);
                }
            }
            Card::Defective => {
                if self.turret.is_some() || self.cube.is_some() {
                    self.agenda.push(Step::DefectiveRemove);
                } else {
                    no_effect(log);
                }
            }
            Card::Franken => {
                if self.turret.is_some() || self.cube.is_some() {
                    self.agenda.push(Step::FrankenMove);
                } else {
                    no_effect(log);
                }
            }
            Card::Announcer => {
                self.turn.extra_activations += 1;
                log.push(Ev::ExtraActivationGranted);
            }
            Card::Bird => {
                if has(
                    self,
                    Step::Kill {
                        own: false,
                        cause: Card::Bird,
                    },
                ) {
                    self.agenda.push(Step::Kill {
                        own: false,
                        cause: Card::Bird,
                    });
                } else {
                    no_effect(log);
                }
            }
            Card::Anger => {
                if has(self, Step::AngerBurn) {
                    self.agenda.push(Step::AngerBurn);
                } else {
                    no_effect(log);
                }
            }
        }
    }
}
