//! The rules (spec sections 6-8): which options are legal, what they do, and how turns flow.
//! Every option is checked first (pure) and only then executed, so a refused option changes
//! nothing.

mod cat_and_mouse;
mod checks;
mod race;
mod solitaire;

use super::board::geo;
use super::moves::{Action, Dir, DrawReason, EndReason, Event, Moved, WinReason};
use super::state::{Colour, Ending, Mode, Pending, Step, TurnLog, Vortex, SOLO_LIMIT};
use crate::engine::{Applied, Outcome, Seat};

crate::engine::notation::rule_errors! {
    /// A rule refuses the option (spec section 6.7). Fieldless, so messages never leak anything.
    pub enum RuleError in "vortex.error" {
        NoRouterAtTower = "no_router_at_tower": "you have no router at that tower",
        Outnumbered = "outnumbered": "you are outnumbered at that tower",
        TowerClaimed = "tower_claimed": "another player has claimed that tower",
        MinorityOff = "minority_off": "minority rotations are off in this game",
        NoMinorityControllerLeft = "no_minority_left": "you have no minority controller left",
        MinorityNotNeeded = "minority_not_needed": "you may rotate that tower normally",
        NoControllerThere = "no_controller_there": "no controller of yours rides on that space",
        NoMajority = "no_majority": "you need a majority at that tower to claim it",
        AlreadyYourTower = "already_your_tower": "that tower is already yours",
        NotYourRouter = "not_your_router": "that space does not hold one of your routers",
        DestinationHasController = "destination_has_controller": "that router already carries a controller",
        NotConnected = "not_connected": "your routers do not link those two spaces",
        NotYourTower = "not_your_tower": "you have no controller on that tower",
        RecallNeedsFullTurn = "recall_needs_full_turn": "a recall must be the first action of a 4-action turn",
        MustActFirst = "must_act_first": "play at least one action before ending the turn",
        NoActionsLeft = "no_actions_left": "your turn has no actions left",
        NotInThisMode = "not_in_this_mode": "that option does not exist in this mode",
        TooManyCats = "too_many_cats": "two or more cats guard that tower",
        MouseNotAtTower = "mouse_not_at_tower": "the mouse is not at that tower",
        RepeatedPosition = "repeated_position": "the mouse was already there this turn",
        NoCatAtTower = "no_cat_at_tower": "no cat stands at that tower",
        UndoesMouseMove = "undoes_mouse_move": "the cats may not undo the mouse's last move",
        NotAPlacementSpace = "not_a_placement_space": "the captured controller cannot go there",
        PlaceFirst = "place_first": "place the captured controller first",
        NothingToPlace = "nothing_to_place": "there is no captured controller to place",
        NotAtThatTower = "not_at_that_tower": "with recall_to=tower the controller must land at that tower",
    }
}

/// Which prompt is pending.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ask {
    Action(usize),
    Place(usize),
    Mouse,
    Cats,
    Solo,
}

impl Ask {
    pub fn kind(self) -> &'static str {
        match self {
            Ask::Action(_) => "action",
            Ask::Place(_) => "place",
            Ask::Mouse => "mouse",
            Ask::Cats => "cats",
            Ask::Solo => "solo",
        }
    }
}

type Res = Result<(), RuleError>;

const DIRS: [Dir; 2] = [Dir::Cw, Dir::Ccw];

impl Vortex {
    pub fn ask(&self) -> Option<Ask> {
        if self.ending.is_some() {
            return None;
        }
        Some(match self.mode {
            Mode::Crossing | Mode::Advanced => match self.pending {
                Some(p) => Ask::Place(p.chooser),
                None => Ask::Action(self.current()),
            },
            Mode::Catmouse => {
                if self.catmouse.as_ref().is_some_and(|c| c.mouse_to_move) {
                    Ask::Mouse
                } else {
                    Ask::Cats
                }
            }
            Mode::Solitaire => Ask::Solo,
        })
    }

    pub fn ask_seat(&self, ask: Ask) -> Seat {
        match ask {
            Ask::Action(i) | Ask::Place(i) => self.sides[i].seat,
            Ask::Mouse => self.sides[0].seat,
            Ask::Cats => self.sides[1].seat,
            Ask::Solo => Seat(0),
        }
    }

    /// Checks an option for the pending prompt without changing anything.
    pub fn check(&self, ask: Ask, action: &Action) -> Res {
        match ask {
            Ask::Action(side) | Ask::Place(side) => self.race_check(side, action),
            Ask::Mouse | Ask::Cats => self.catmouse_check(ask, action),
            Ask::Solo => match action {
                Action::Rot { .. } => Ok(()),
                _ => Err(RuleError::NotInThisMode),
            },
        }
    }

    /// Every candidate option of a prompt, in canonical order.
    pub(super) fn candidates(&self, ask: Ask) -> Vec<Action> {
        let rots = |min: bool| {
            (0..19u8).flat_map(move |tower| {
                DIRS.into_iter().map(move |dir| {
                    if min {
                        Action::Min { tower, dir }
                    } else {
                        Action::Rot { tower, dir }
                    }
                })
            })
        };
        match ask {
            Ask::Place(_) => (1..=54u8).map(Action::Place).collect(),
            Ask::Mouse => {
                let mut v: Vec<Action> = rots(false).collect();
                v.push(Action::End);
                v
            }
            Ask::Cats | Ask::Solo => rots(false).collect(),
            Ask::Action(side) => {
                let mut v: Vec<Action> = rots(false).collect();
                if self.rules.minority {
                    v.extend(rots(true));
                }
                if self.mode == Mode::Advanced {
                    let me = self.sides[side].colour;
                    let mine = self.spaces_of(me);
                    let riding: Vec<u8> = mine
                        .iter()
                        .copied()
                        .filter(|s| self.cell(*s).is_some_and(|r| r.ctrl))
                        .collect();
                    for tower in 0..19u8 {
                        for from in geo().ring(tower) {
                            if riding.contains(from) {
                                v.push(Action::Claim { tower, from: *from });
                            }
                        }
                    }
                    for from in &riding {
                        for to in &mine {
                            v.push(Action::Ctrl {
                                from: *from,
                                to: *to,
                            });
                        }
                    }
                    for tower in 0..19u8 {
                        if self.claims[usize::from(tower)] == Some(me) {
                            for to in &mine {
                                v.push(Action::Recall { tower, to: *to });
                            }
                        }
                    }
                }
                v.push(Action::End);
                v
            }
        }
    }

    /// Every legal option of a prompt, in canonical order.
    pub fn options(&self, ask: Ask) -> Vec<Action> {
        self.candidates(ask)
            .into_iter()
            .filter(|a| self.check(ask, a).is_ok())
            .collect()
    }

    fn has_action_besides_end(&self, ask: Ask) -> bool {
        self.candidates(ask)
            .iter()
            .any(|a| *a != Action::End && self.check(ask, a).is_ok())
    }

    /// A captured controller with one space to go to: the placement nobody is asked for
    /// (the engine takes it, `Game::forced`).
    pub fn forced_placement(&self) -> Option<(Seat, Action)> {
        let ask @ Ask::Place(_) = self.ask()? else {
            return None;
        };
        match self.options(ask)[..] {
            [only] => Some((self.ask_seat(ask), only)),
            _ => None,
        }
    }

    /// Applies one option for `seat`; on error nothing changed.
    pub fn play(&mut self, seat: Seat, action: &Action) -> Result<Applied<Event>, RuleError> {
        let Some(ask) = self.ask() else {
            return Err(RuleError::NoActionsLeft);
        };
        if self.ask_seat(ask) != seat {
            return Err(RuleError::NoActionsLeft);
        }
        self.check(ask, action)?;
        // Nobody chose a forced placement: it is no barrier of its own (B3).
        let chosen = !matches!(ask, Ask::Place(_)) || self.forced_placement().is_none();
        let mut events = Vec::new();
        let turn_before = self.turn_index;
        self.auto_ended = None;
        self.setup_log.clear();
        match ask {
            Ask::Action(side) => self.race_apply(side, *action, &mut events),
            Ask::Place(_) => self.place_apply(*action, &mut events),
            Ask::Mouse => self.mouse_apply(*action, &mut events),
            Ask::Cats => self.cats_apply(*action, &mut events),
            Ask::Solo => self.solo_apply(*action, &mut events),
        }
        // Undo stops at a turn's end (B2), at a victim's placement (B3) and, in Solitaire
        // without undo, at every rotation.
        let turn_over = self.ending.is_some() || self.turn_index != turn_before;
        let barrier = match ask {
            Ask::Solo => turn_over || !self.rules.solo_undo,
            Ask::Place(_) => turn_over || (self.rules.victim_places && chosen),
            _ => turn_over,
        };
        // Nothing is hidden and no randomness is drawn after setup: nothing is revealed.
        Ok(Applied::new(events, barrier, false))
    }
}
