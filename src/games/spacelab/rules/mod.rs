//! The rules: prompts and their options, checks (pure), execution (events), the placement
//! resolution order, turn flow, final round and scoring. Every `apply` checks first and
//! mutates only after the check passed.

mod effects;
mod options;
mod scoring;
mod turn;

use crate::engine::rng::SliceDraw;

use super::cards::{data, BottomEffect, Data, LabEffect, ProjectScoring};
use super::moves::{Action, BonusKind, EndReason, Event};
use super::state::{
    Agency, Breakdown, EndState, FinalRound, LastTurn, Phase, Player, Resolving, Row, Source,
    SpaceLab, Specialty, CAPSULES, SLOTS,
};
use crate::engine::{Applied, Forced, Outcome, Seat};

crate::engine::notation::rule_errors! {
    /// Why a decision is not legal here.
    pub enum RuleError in "spacelab.error" {
        WrongPrompt = "wrong_prompt": "that option belongs to another step of the game",
        NotYourTurn = core "not_your_turn": "it is not your turn",
        GameOver = core "game_over": "the game is over",
        NotYourTiles = "not_your_tiles": "those are not the three tiles you were dealt",
        HandTooFull = "hand_too_full": "with 5 or more Lab cards in hand you must place",
        NothingToReveal = "nothing_to_reveal": "the Lab deck and the discard pile are empty",
        CentreEmpty = "centre_empty": "the Recruitment Centre is empty",
        NothingAffordable = "nothing_affordable": "no card in your hand can be paid for",
        AgencyNotOffered = "agency_not_offered": "no card of that agency is on offer",
        NotInHand = core "not_in_hand": "that card is not in your hand",
        CannotAfford = "cannot_afford": "you do not hold enough other cards to pay for that card",
        SlotTaken = "slot_taken": "that slot already holds a card",
        CannotPayWith = "cannot_pay_with": "that card cannot pay: it is not in your hand, is the card being placed, or is already paid",
        MustPlaceFirst = "must_place_first": "place at least one card before ending",
        ProjectNotDrawn = "project_not_drawn": "no Project card of that kind was drawn",
        DeckEmpty = "deck_empty": "that deck is empty",
        NoFilterNeeded = "no_filter_needed": "there are few enough choices: no filter is needed",
    }
}

/// Largest option list a prompt shows before a filter step (Discord's limit).
pub const MAX_OPTIONS: usize = 25;

/// Events and the barrier and reveal flags gathered while one option resolves.
#[derive(Default)]
pub struct Ctx {
    pub events: Vec<Event>,
    pub barrier: bool,
    /// Randomness or hidden information came out (a draw, a reveal, a reshuffle, the end's
    /// Projects): [`crate::engine::Applied::revealed`]. Set with `barrier`.
    pub revealed: bool,
}

impl Ctx {
    /// Something hidden or random came out: a barrier that nothing crosses.
    pub(crate) fn reveal(&mut self) {
        self.barrier = true;
        self.revealed = true;
    }

    /// What the option did, for the engine.
    pub(crate) fn applied(self) -> Applied<Event> {
        Applied::new(self.events, self.barrier, self.revealed)
    }
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

    pub fn seat_ids(&self) -> impl Iterator<Item = Seat> {
        (0..self.n).map(Seat)
    }

    pub(crate) fn player(&self, s: Seat) -> &Player {
        &self.players[s.index()]
    }

    fn me(&mut self) -> &mut Player {
        let c = self.current.index();
        &mut self.players[c]
    }

    /// The seat that must decide now.
    pub fn to_act(&self) -> Option<Seat> {
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

    // ---- applying -----------------------------------------------------------------------

    /// Applies one option for `seat`: checks, then executes. The forced steps that follow
    /// are the engine's to take (`forced_option`, `play_forced`).
    pub fn play(&mut self, seat: Seat, action: &Action) -> Result<Applied<Event>, RuleError> {
        let Some(to_act) = self.to_act() else {
            return Err(RuleError::GameOver);
        };
        if seat != to_act {
            return Err(RuleError::NotYourTurn);
        }
        self.check(action)?;
        let mut ctx = Ctx::default();
        self.last_auto.clear();
        self.setup_log.clear();
        self.exec(*action, false, &mut ctx);
        self.note_last(&ctx.events);
        Ok(ctx.applied())
    }

    /// Keeps what the latest turns did in public ([`LastTurn`]), from an option's events: a
    /// chosen action (or a pass, or arranged objectives) starts a turn's record, the cards
    /// taken, placed and the objectives validated add to it. The turn before is kept too.
    fn note_last(&mut self, events: &[Event]) {
        if !self.records_last {
            return;
        }
        for e in events {
            let fresh = match e {
                Event::ActionChosen { seat, .. } => Some(LastTurn::new(*seat)),
                Event::TurnPassed { seat } => Some(LastTurn {
                    passed: true,
                    ..LastTurn::new(*seat)
                }),
                Event::ObjectivesArranged { seat, .. } => Some(LastTurn {
                    arranged: true,
                    ..LastTurn::new(*seat)
                }),
                _ => None,
            };
            if let Some(turn) = fresh {
                if self.last.len() >= 2 {
                    self.last.remove(0);
                }
                self.last.push(turn);
                continue;
            }
            let Some(last) = self.last.last_mut() else {
                continue;
            };
            match e {
                Event::LabsTaken { seat, agency, ids } if *seat == last.seat => {
                    last.took = Some((*agency, u8_of(ids.len()), false));
                }
                Event::Recruited { seat, agency, ids } if *seat == last.seat => {
                    last.took = Some((*agency, u8_of(ids.len()), true));
                }
                Event::LabPlaced { seat, slot, .. } if *seat == last.seat => {
                    last.placed.push(*slot);
                }
                Event::ObjectiveValidated { seat, capsule, .. } if *seat == last.seat => {
                    last.validated.push(*capsule);
                }
                _ => {}
            }
        }
    }

    /// The step nobody is asked for, and its seat: a prompt with a single option (spec 6.6),
    /// or a payment when the candidates are exactly the cards still due (each pays, the
    /// first one first).
    pub fn forced_option(&self) -> Option<(Seat, Action)> {
        let who = self.to_act()?;
        let pay = if let Phase::PlacePay { card, paid, .. } = &self.phase {
            let due = usize::from(self.data().cost(*card)).saturating_sub(paid.len());
            let cands = self.pay_candidates();
            (cands.len() == due).then(|| cands.first().copied().map(Action::Pay))
        } else {
            None
        };
        let next = match pay {
            Some(a) => a,
            None => match self.options()[..] {
                [only] => Some(only),
                _ => None,
            },
        };
        next.map(|a| (who, a))
    }

    /// Takes a forced step. It is remembered for the parser when it is the acting seat's, in
    /// its own turn (`last_auto`: a typed line may repeat it), and announced by an `Auto`
    /// event before its own, in words that hide hand contents (a chosen action says `auto`
    /// itself).
    pub fn play_forced(&mut self, forced: &Forced<Action>) -> Applied<Event> {
        let (who, a) = (forced.seat, forced.action);
        if forced.actor == Some(who) && self.current == who {
            self.last_auto.push((who, a));
        }
        let mut ctx = Ctx::default();
        if !matches!(a, Action::Reveal | Action::Recruit | Action::Place) {
            ctx.events.push(Event::Auto {
                seat: who,
                action: a,
            });
        }
        self.exec(a, true, &mut ctx);
        self.note_last(&ctx.events);
        ctx.applied()
    }
}
