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

crate::engine::notation::rule_errors! {
    /// Why a decision is not legal here (spec section 6.6).
    pub enum RuleError in "cortexcape.error" {
        WrongPrompt = "wrong_prompt": "that option belongs to another step of the game",
        NotYourTurn = "not_your_turn": "it is not your turn",
        WrongDoor = "wrong_door": "that is not the door being asked about",
        KindNotInPool = "kind_not_in_pool": "the owner holds no piece of that kind",
        HoldsTower = "holds_tower": "a tower already stands on that door",
        BlockedLastRound = "blocked_last_round": "that door was blocked last round; a tower may not go back there",
        NoLegalChallenge = "no_legal_challenge": "no start and exit would leave a path: change the layout",
        LayoutNotAtStart = "layout_not_at_start": "a layout can only be typed before any other choice of this step",
        LayoutDoorTwice = "layout_door_twice": "the layout names a door twice",
        NotAnEmptiedDoor = "not_an_emptied_door": "the layout names a door that was not emptied last round",
        LayoutCountMismatch = "layout_count_mismatch": "the layout does not use exactly the pieces in hand",
        ExitClosed = "exit_closed": "that exit already holds a marble",
        NoLegalPartner = "no_legal_partner": "no other free exit can be joined to that exit",
        NotACorridor = "not_a_corridor": "there is no such corridor in this lab",
        NoPathFromStart = "no_path_from_start": "no path leads from that start to the exit",
        CorridorNotAtDoor = "corridor_not_at_door": "that corridor does not touch the chosen door",
        SameExit = "same_exit": "start and exit must be two different exits",
        NotAdjacent = "not_adjacent": "that place is not next to where the path stands",
        WrongExit = "wrong_exit": "that exit is not the one to reach",
        TowerDoor = "tower_door": "a tower blocks that door",
        AlreadyVisited = "already_visited": "the path already passed that place",
        DeadEnd = "dead_end": "from there the exit can no longer be reached",
        PathAlreadyComplete = "path_already_complete": "the path already reached the exit",
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
        // The random fill resolves randomness; nothing else here is hidden or random (ending
        // an arrangement with `done` only ends a turn).
        let revealed = matches!(action, Action::Random);
        self.execute(ask, *action, &mut events);
        Ok(Applied::new(events, barrier, revealed))
    }
}
