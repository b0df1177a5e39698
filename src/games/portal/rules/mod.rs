//! The rules: hooks of the active character, geometry, the agenda of steps, the options of
//! every prompt (spec section 6), their effects and events, and the end of the game.
//!
//! The pending work is a stack of [`Step`]s. `settle` executes automatic steps until a prompt
//! has options; a prompt with a single option is taken by the engine's turn flow
//! (`forced_option`, `play_forced`). A decision is legal exactly when it is one of the listed
//! options; `why` explains a refused one.

mod automatic;
mod decisions;
mod end;
mod geometry;
mod options;
mod pieces;

use super::components::{shipped, Data};
use super::moves::{Action, Death, DeployMode, Ev, Event, Icon, LostReason, Majority, SkipReason};
use super::state::{
    AutoRec, Card, Cause, Ch, Chamber, EndReason, Floor, Lifted, MoveMode, Piece, Portal, Step,
    VoteState,
};
use crate::engine::{take_forced, Applied, Forced, Outcome, Seat};

crate::engine::notation::rule_errors! {
    /// Why a decision is not legal here (spec 6.13).
    #[derive(serde::Serialize, serde::Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum RuleError in "portal.error" {
        NotThisPrompt = "not_this_prompt": "that option belongs to another step",
        NoSuchChamber = "no_such_chamber": "there is no such chamber in the Lab",
        NoSuchCard = "no_such_card": "there is no such card there",
        CardNotInHand = "card_not_in_hand": "that card is not in your hand",
        CardIsFresh = "card_is_fresh": "that card was gained this turn",
        NoOwnSubjects = "no_own_subjects": "you have no subject there",
        CountOutOfRange = "count_out_of_range": "that many subjects are not there",
        NotAdjacent = "not_adjacent": "that chamber is not within reach",
        CannotEnter = "cannot_enter": "no subject may enter that chamber now",
        CarryLimit = "carry_limit": "the subjects cannot carry more cake",
        NoSuchCake = "no_such_cake": "there is no such cake there",
        NotOldEdge = "not_old_edge": "that chamber is not on the old edge",
        WouldSplitLab = "would_split_lab": "recycling that chamber would split the Lab",
        MustActivateOccupied = "must_activate_occupied": "an occupied old-edge chamber must be activated",
        PortalOnOldEdge = "portal_on_old_edge": "portals cannot be shot onto the old edge",
        SamePortalChamber = "same_portal_chamber": "the two portals need two different chambers",
        FloorMustBeRefilled = "floor_must_be_refilled": "the floor that lost the chamber must take it back",
        FloorWouldSplit = "floor_would_split": "that floor would leave the Lab split",
        HandFull = "hand_full": "your hand is full",
        DeckEmpty = "deck_empty": "no card can be drawn",
        NoSupply = "no_supply": "your supply is empty",
        AlreadyUsedThisTurn = "already_used_this_turn": "already used this turn",
        FinaleRequirementsUnmet = "finale_requirements_unmet": "the finale needs 2 of your slices and 1 of your subjects in the Lab",
        MustDiscard = "must_discard": "discard down to the hand limit first",
        NotAllowedNow = "not_allowed_now": "that is not allowed now",
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

    // ----- the agenda -----

    /// Who answers `step`.
    pub fn step_seat(&self, step: &Step) -> Seat {
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

    /// Runs the automatic steps on top of the agenda (and drops prompts with no option)
    /// until a prompt has options. A prompt with one option is the engine's to take
    /// (`forced_option`, `play_forced`).
    pub(crate) fn settle(&mut self, log: &mut Log) {
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
            } else if self.options(&step).is_empty() {
                self.agenda.pop();
                self.skip_empty(&step, log);
            } else {
                break;
            }
        }
    }

    /// Runs the agenda until a decision is needed, the forced options included, as setup
    /// does (nobody's option came before).
    pub(crate) fn run(&mut self, log: &mut Log) {
        self.settle(log);
        let mut applied = Applied::new(std::mem::take(&mut log.events), false, false);
        take_forced(self, None, &mut applied);
        log.events = applied.events;
    }

    /// The prompt with a single option, which nobody is asked, and its seat.
    pub fn forced_option(&self) -> Option<(Seat, Action)> {
        let step = self.current()?;
        match self.options(step)[..] {
            [only] => Some((self.step_seat(step), only)),
            _ => None,
        }
    }

    /// Takes a forced option: its events say `auto` (not those of the automatic steps after
    /// it), and it is remembered with the errors its prompt's other options would have had
    /// (spec 6.13 rule 3, read by the parser). Its barrier is what its events reveal: whose
    /// seat it is counts only for the option played (`play`).
    pub fn play_forced(&mut self, forced: &Forced<Action>) -> Applied<Event> {
        let mut log = Log::default();
        let (seat, action) = (forced.seat, forced.action);
        if let Some(step) = self.current().cloned() {
            let (default_err, errs) = self.candidate_errors(&step, action);
            self.agenda.pop();
            log.auto = true;
            self.exec(&step, action, &mut log);
            log.auto = false;
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
        self.settle(&mut log);
        let revealed = self.reveals(&log.events);
        let barrier = revealed || self.ends_turn(&log.events);
        Applied::new(log.events, barrier, revealed)
    }

    /// Checks, then executes one decision for `seat`, and the automatic steps after it.
    pub fn play(&mut self, seat: Seat, action: &Action) -> Result<Applied<Event>, RuleError> {
        let Some(step) = self.current().cloned() else {
            return Err(RuleError::NotAllowedNow);
        };
        if self.step_seat(&step) != seat {
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
        self.autos.retain(|r| r.seat != seat);
        self.touched.clear();
        self.setup_log.clear();
        let mut log = Log::default();
        self.agenda.pop();
        self.exec(&step, *action, &mut log);
        self.settle(&mut log);
        // A decision out of the active seat's turn (a vote, a carry) is a barrier too.
        let revealed = self.reveals(&log.events);
        let barrier = seat != active_before || revealed || self.ends_turn(&log.events);
        Ok(Applied::new(log.events, barrier, revealed))
    }

    /// Whether these events pass a barrier that reveals nothing: a turn passed, a sealed vote
    /// cast (nobody saw it; the last vote reveals them all, [`Ev::VotesRevealed`]).
    fn ends_turn(&self, events: &[Event]) -> bool {
        events
            .iter()
            .any(|e| matches!(e.ev, Ev::TurnStarted { .. } | Ev::VoteCast { .. }))
    }

    /// Whether these events reveal randomness or hidden information: a card drawn (and the
    /// next top card), a reshuffle, the votes, the end; a panel's back when backs are hidden;
    /// a card of a hidden hand.
    fn reveals(&self, events: &[Event]) -> bool {
        let hidden_reveal = self.opts.hidden_hands;
        events.iter().any(|e| match &e.ev {
            Ev::CardTaken { .. }
            | Ev::DeckTopRevealed { .. }
            | Ev::DeckReshuffled { .. }
            | Ev::VotesRevealed { .. }
            | Ev::GameEnded { .. } => true,
            Ev::PanelFlipped { .. } => !self.opts.show_backs,
            Ev::CardDeployed { .. } | Ev::CardTraded { .. } | Ev::HandDiscarded { .. } => {
                hidden_reveal
            }
            _ => false,
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
}
