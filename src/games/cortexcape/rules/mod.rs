//! The rules: prompts (here), their options (`options`), checks (pure, `checks`), execution
//! (events, `execute`), the end of a round (`round`) and path search (`paths`).
//! Every `apply` checks first and mutates only after every check passed.

mod checks;
mod execute;
mod options;
mod paths;
mod round;

pub use paths::{ToTarget, INF};

use super::lab::{data, Data, Lab};
use super::moves::{Action, Event};
use super::state::{Cortexcape, Place, Stage};
use crate::engine::{Applied, Seat};
use crate::i18n::Text;

/// Why a decision is not legal here (spec section 6.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
pub enum RuleError {
    #[error("that option belongs to another step of the game")]
    WrongPrompt,
    #[error("it is not your turn")]
    NotYourTurn,
    #[error("that is not the door being asked about")]
    WrongDoor,
    #[error("the owner holds no piece of that kind")]
    KindNotInPool,
    #[error("a tower already stands on that door")]
    HoldsTower,
    #[error("that door was blocked last round; a tower may not go back there")]
    BlockedLastRound,
    #[error("no start and exit would leave a path: change the layout")]
    NoLegalChallenge,
    #[error("a layout can only be typed before any other choice of this step")]
    LayoutNotAtStart,
    #[error("the layout names a door twice")]
    LayoutDoorTwice,
    #[error("the layout names a door that was not emptied last round")]
    NotAnEmptiedDoor,
    #[error("the layout does not use exactly the pieces in hand")]
    LayoutCountMismatch,
    #[error("that exit already holds a marble")]
    ExitClosed,
    #[error("no other free exit can be joined to that exit")]
    NoLegalPartner,
    #[error("there is no such corridor in this lab")]
    NotACorridor,
    #[error("no path leads from that start to the exit")]
    NoPathFromStart,
    #[error("that corridor does not touch the chosen door")]
    CorridorNotAtDoor,
    #[error("start and exit must be two different exits")]
    SameExit,
    #[error("that place is not next to where the path stands")]
    NotAdjacent,
    #[error("that exit is not the one to reach")]
    WrongExit,
    #[error("a tower blocks that door")]
    TowerDoor,
    #[error("the path already passed that place")]
    AlreadyVisited,
    #[error("from there the exit can no longer be reached")]
    DeadEnd,
    #[error("the path already reached the exit")]
    PathAlreadyComplete,
}

impl RuleError {
    /// Catalog key under `cortexcape.error.`.
    pub fn key(self) -> &'static str {
        match self {
            RuleError::WrongPrompt => "wrong_prompt",
            RuleError::NotYourTurn => "not_your_turn",
            RuleError::WrongDoor => "wrong_door",
            RuleError::KindNotInPool => "kind_not_in_pool",
            RuleError::HoldsTower => "holds_tower",
            RuleError::BlockedLastRound => "blocked_last_round",
            RuleError::NoLegalChallenge => "no_legal_challenge",
            RuleError::LayoutNotAtStart => "layout_not_at_start",
            RuleError::LayoutDoorTwice => "layout_door_twice",
            RuleError::NotAnEmptiedDoor => "not_an_emptied_door",
            RuleError::LayoutCountMismatch => "layout_count_mismatch",
            RuleError::ExitClosed => "exit_closed",
            RuleError::NoLegalPartner => "no_legal_partner",
            RuleError::NotACorridor => "not_a_corridor",
            RuleError::NoPathFromStart => "no_path_from_start",
            RuleError::CorridorNotAtDoor => "corridor_not_at_door",
            RuleError::SameExit => "same_exit",
            RuleError::NotAdjacent => "not_adjacent",
            RuleError::WrongExit => "wrong_exit",
            RuleError::TowerDoor => "tower_door",
            RuleError::AlreadyVisited => "already_visited",
            RuleError::DeadEnd => "dead_end",
            RuleError::PathAlreadyComplete => "path_already_complete",
        }
    }

    pub fn text(self) -> Text {
        Text::new(format!("cortexcape.error.{}", self.key()))
    }
}

/// The pending prompt, derived from the state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ask {
    PlaceCylinder(u8),
    MoveTower(u8),
    ConfirmLayout,
    ChooseExit,
    ChooseStartDoor,
    ChooseStartCorridor(u8),
    ChooseStartExit,
    ConfirmChallenge,
    Step,
    ConfirmPath,
}

impl Ask {
    pub fn kind(self) -> &'static str {
        match self {
            Ask::PlaceCylinder(_) => "place_cylinder",
            Ask::MoveTower(_) => "move_tower",
            Ask::ConfirmLayout => "confirm_layout",
            Ask::ChooseExit => "choose_exit",
            Ask::ChooseStartDoor => "choose_start_door",
            Ask::ChooseStartCorridor(_) => "choose_start_corridor",
            Ask::ChooseStartExit => "choose_start_exit",
            Ask::ConfirmChallenge => "confirm_challenge",
            Ask::Step => "step",
            Ask::ConfirmPath => "confirm_path",
        }
    }
}

impl Cortexcape {
    pub(crate) fn data(&self) -> &'static Data {
        // `setup` refuses to build a game when the data file is broken, so a live state
        // always has its data.
        match data() {
            Ok(d) => d,
            Err(e) => unreachable!("cortexcape data checked at setup: {e}"),
        }
    }

    pub(crate) fn lab_data(&self) -> &'static Lab {
        self.data().lab(self.lab)
    }

    /// The pending prompt.
    pub fn ask(&self) -> Option<Ask> {
        Some(match self.stage {
            Stage::Configure => {
                if let Some(&d) = self.targets.iter().find(|&&d| self.piece(d).is_none()) {
                    Ask::PlaceCylinder(d)
                } else if let Some(&t) = self.prev_towers.get(self.towers_moved) {
                    Ask::MoveTower(t)
                } else {
                    Ask::ConfirmLayout
                }
            }
            Stage::ChooseExit => Ask::ChooseExit,
            Stage::ChooseStartDoor => Ask::ChooseStartDoor,
            Stage::ChooseStartCorridor(d) => Ask::ChooseStartCorridor(d),
            Stage::ChooseStartExit => Ask::ChooseStartExit,
            Stage::ConfirmChallenge => Ask::ConfirmChallenge,
            Stage::Escape => {
                let t = self.target.map(Place::Exit);
                if t.is_some() && self.path.last().copied() == t {
                    Ask::ConfirmPath
                } else {
                    Ask::Step
                }
            }
            Stage::Over => return None,
        })
    }

    /// Who decides at `ask`.
    pub fn ask_seat(&self, ask: Ask) -> Seat {
        match ask {
            Ask::ChooseExit
            | Ask::ChooseStartDoor
            | Ask::ChooseStartCorridor(_)
            | Ask::ChooseStartExit
            | Ask::ConfirmChallenge => self.setter(),
            _ => self.owner(),
        }
    }

    /// Checks, then executes one action for `seat`.
    pub fn play(&mut self, seat: Seat, action: &Action) -> Result<Applied<Event>, RuleError> {
        let Some(ask) = self.ask() else {
            return Err(RuleError::WrongPrompt);
        };
        if self.ask_seat(ask) != seat {
            return Err(RuleError::NotYourTurn);
        }
        self.check(ask, action)?;
        self.setup_log.clear();
        let mut events = Vec::new();
        let barrier = matches!(action, Action::Done | Action::Random);
        self.execute(ask, *action, &mut events);
        Ok(Applied { events, barrier })
    }
}
