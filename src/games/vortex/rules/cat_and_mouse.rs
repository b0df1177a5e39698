//! Cat & Mouse in play: the mouse's and the cats' turns and the end checks after each rotation.

use super::*;

impl Vortex {
    /// R27 then R28, after every Cat & Mouse rotation. True when the game ended.
    fn catmouse_end_check(&mut self, ev: &mut Vec<Event>) -> bool {
        let m = self.mouse_space();
        let pantry = self
            .catmouse
            .as_ref()
            .is_some_and(|c| c.pantry.contains(&m));
        if pantry {
            ev.push(Event::MouseReachedPantry { space: m });
            self.win(vec![0], WinReason::Pantry, ev);
            return true;
        }
        let trapped = geo().space(m).towers.iter().all(|t| self.cats_at(*t) >= 2);
        if trapped {
            ev.push(Event::MouseTrapped { space: m });
            self.win(vec![1], WinReason::Trapped, ev);
            return true;
        }
        false
    }

    pub(super) fn mouse_apply(&mut self, action: Action, ev: &mut Vec<Event>) {
        let seat = self.sides[0].seat;
        match action {
            Action::Rot { tower, dir } => {
                let moves = self.rotate(tower, dir);
                let cat_moved = moves.iter().any(|m| m.colour == Colour::Black);
                ev.push(Event::Rotated {
                    seat,
                    tower,
                    dir,
                    minority: false,
                    moves,
                });
                if let Some(cm) = self.catmouse.as_mut() {
                    cm.rotations += 1;
                    cm.turn_last = Some((tower, dir));
                }
                if self.catmouse_end_check(ev) {
                    return;
                }
                if cat_moved {
                    self.end_mouse_turn(EndReason::CatMoved, ev);
                    return;
                }
                let m = self.mouse_space();
                if let Some(cm) = self.catmouse.as_mut() {
                    cm.visited.push(m);
                }
                if !self.has_action_besides_end(Ask::Mouse) {
                    self.end_mouse_turn(EndReason::NoMoreActions, ev);
                }
            }
            Action::End => {
                self.this_turn.other.push("end".into());
                self.end_mouse_turn(EndReason::Passed, ev);
            }
            _ => {}
        }
    }

    fn end_mouse_turn(&mut self, reason: EndReason, ev: &mut Vec<Event>) {
        let seat = self.sides[0].seat;
        ev.push(Event::TurnEnded { seat, reason });
        if reason != EndReason::Passed {
            self.auto_ended = Some(seat);
        }
        if let Some(cm) = self.catmouse.as_mut() {
            cm.last_mouse = cm.turn_last;
            cm.mouse_to_move = false;
        }
        self.prev_turn = Some(std::mem::take(&mut self.this_turn));
        self.this_turn.side = 1;
        self.turn_index += 1;
        ev.push(Event::TurnStarted {
            seat: self.sides[1].seat,
            allowance: 1,
        });
    }

    pub(super) fn cats_apply(&mut self, action: Action, ev: &mut Vec<Event>) {
        let Action::Rot { tower, dir } = action else {
            return;
        };
        let seat = self.sides[1].seat;
        let moves = self.rotate(tower, dir);
        ev.push(Event::Rotated {
            seat,
            tower,
            dir,
            minority: false,
            moves,
        });
        if self.catmouse_end_check(ev) {
            return;
        }
        ev.push(Event::TurnEnded {
            seat,
            reason: EndReason::CatsMoved,
        });
        self.auto_ended = Some(seat);
        self.prev_turn = Some(std::mem::take(&mut self.this_turn));
        self.turn_index += 1;
        self.start_mouse_turn(ev);
    }

    /// A round starts with the mouse (spec section 6.3); the round limit is checked here.
    pub fn start_mouse_turn(&mut self, ev: &mut Vec<Event>) {
        if self.rules.max_rounds > 0 && self.turn_index >= 2 * self.rules.max_rounds {
            self.draw(DrawReason::RoundLimit, ev);
            return;
        }
        let m = self.mouse_space();
        if let Some(cm) = self.catmouse.as_mut() {
            cm.mouse_to_move = true;
            cm.visited = vec![m];
            cm.rotations = 0;
            cm.turn_last = None;
        }
        self.this_turn = TurnLog::default();
        ev.push(Event::TurnStarted {
            seat: self.sides[0].seat,
            allowance: 0,
        });
    }
}
