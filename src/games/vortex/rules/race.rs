//! Race and Crossing in play: turning towers, placing routers, the turn's end, and how a side wins or the game is drawn.

use crate::games::vortex::board::tower_letter;

use super::*;

impl Vortex {
    pub(super) fn rotate(&mut self, tower: u8, dir: Dir) -> Vec<Moved> {
        let ring = *geo().ring(tower);
        let old: Vec<_> = ring.iter().map(|s| self.cell(*s)).collect();
        let mut moves = Vec::new();
        for (k, s) in ring.iter().enumerate() {
            let to = Self::dest(tower, dir, *s);
            *self.cell_mut(to) = old[k];
            if let Some(r) = old[k] {
                moves.push(Moved {
                    from: *s,
                    to,
                    colour: r.colour,
                    ctrl: r.ctrl,
                });
            }
        }
        self.last_moved = moves.iter().map(|m| m.to).collect();
        self.this_turn.steps.push(Step {
            tower,
            dir,
            minority: false,
        });
        moves
    }

    pub(super) fn race_apply(&mut self, side: usize, action: Action, ev: &mut Vec<Event>) {
        let seat = self.sides[side].seat;
        self.skips = 0;
        match action {
            Action::Rot { tower, dir } | Action::Min { tower, dir } => {
                let minority = matches!(action, Action::Min { .. });
                if minority {
                    let left = self.sides[side].minority_left - 1;
                    self.sides[side].minority_left = left;
                    ev.push(Event::MinoritySpent { seat, left });
                }
                let moves = self.rotate(tower, dir);
                if let Some(last) = self.this_turn.steps.last_mut() {
                    last.minority = minority;
                }
                ev.push(Event::Rotated {
                    seat,
                    tower,
                    dir,
                    minority,
                    moves,
                });
                self.finish_check(side, ev);
                if self.ending.is_some() {
                    return;
                }
            }
            Action::Claim { tower, from } => {
                if let Some(r) = self.cell_mut(from) {
                    r.ctrl = false;
                }
                let prev = self.claims[usize::from(tower)];
                self.claims[usize::from(tower)] = Some(self.sides[side].colour);
                let victim = prev.and_then(|c| self.side_of(c));
                ev.push(Event::Claimed {
                    seat,
                    tower,
                    from,
                    captured_from: victim.map(|v| self.sides[v].seat),
                });
                self.this_turn
                    .other
                    .push(format!("claim {} {from}", tower_letter(tower)));
                if let Some(v) = victim {
                    let chooser = if self.rules.victim_places { v } else { side };
                    // With one space left, the engine places it (`forced_placement`).
                    self.pending = Some(Pending {
                        victim: v,
                        chooser,
                        capturer: side,
                    });
                    return;
                }
            }
            Action::Ctrl { from, to } => {
                if let Some(r) = self.cell_mut(from) {
                    r.ctrl = false;
                }
                if let Some(r) = self.cell_mut(to) {
                    r.ctrl = true;
                }
                ev.push(Event::ControllerMoved { seat, from, to });
                self.this_turn.other.push(format!("ctrl {from} {to}"));
            }
            Action::Recall { tower, to } => {
                self.claims[usize::from(tower)] = None;
                if let Some(r) = self.cell_mut(to) {
                    r.ctrl = true;
                }
                ev.push(Event::Recalled { seat, tower, to });
                self.this_turn
                    .other
                    .push(format!("recall {} {to}", tower_letter(tower)));
                self.end_turn(EndReason::Recall, ev);
                return;
            }
            Action::End => {
                self.this_turn.other.push("end".into());
                self.end_turn(EndReason::Passed, ev);
                return;
            }
            Action::Place(_) => return,
        }
        self.after_action(ev);
    }

    pub(super) fn place_apply(&mut self, action: Action, ev: &mut Vec<Event>) {
        let (Some(p), Action::Place(space)) = (self.pending, action) else {
            return;
        };
        if let Some(r) = self.cell_mut(space) {
            r.ctrl = true;
        }
        self.pending = None;
        ev.push(Event::ControllerPlaced {
            owner: self.sides[p.victim].seat,
            space,
            chosen_by: self.sides[p.chooser].seat,
        });
        self.after_action(ev);
    }

    /// Steps 3-6 of "after each action" (spec section 6.2).
    fn after_action(&mut self, ev: &mut Vec<Event>) {
        self.used += 1;
        if self.used >= self.allowance {
            if !self.rules.confirm_end {
                self.end_turn(EndReason::AllowanceUsed, ev);
            }
        } else if !self.rules.confirm_end
            && !self.has_action_besides_end(Ask::Action(self.current()))
        {
            self.end_turn(EndReason::NoMoreActions, ev);
        }
    }

    fn end_turn(&mut self, reason: EndReason, ev: &mut Vec<Event>) {
        let side = self.current();
        let seat = self.sides[side].seat;
        ev.push(Event::TurnEnded { seat, reason });
        if reason != EndReason::Passed && reason != EndReason::Recall {
            self.auto_ended = Some(seat);
        }
        self.prev_turn = Some(std::mem::take(&mut self.this_turn));
        self.turn_index += 1;
        self.start_turn(ev);
    }

    /// Turn start (spec section 6.2): round limit, allowance, skips.
    pub fn start_turn(&mut self, ev: &mut Vec<Event>) {
        loop {
            let n = u32::try_from(self.sides.len()).unwrap_or(1);
            if self.rules.max_rounds > 0 && self.turn_index >= self.rules.max_rounds * n {
                self.draw(DrawReason::RoundLimit, ev);
                return;
            }
            self.allowance = u8::try_from((self.turn_index + 1).min(4)).unwrap_or(4);
            self.used = 0;
            let side = self.current();
            self.this_turn = TurnLog {
                side,
                ..TurnLog::default()
            };
            let seat = self.sides[side].seat;
            if self.has_action_besides_end(Ask::Action(side)) {
                ev.push(Event::TurnStarted {
                    seat,
                    allowance: self.allowance,
                });
                return;
            }
            ev.push(Event::TurnSkipped { seat });
            self.skips += 1;
            if usize::from(self.skips) >= self.sides.len() {
                self.draw(DrawReason::Deadlock, ev);
                return;
            }
            self.turn_index += 1;
        }
    }

    fn complete(&self, side: usize) -> bool {
        self.in_goal(side) >= self.rules.goal_count
    }

    /// R19-R22: after every rotation, whoever made it.
    fn finish_check(&mut self, mover: usize, ev: &mut Vec<Event>) {
        let n = self.sides.len();
        if !self.rules.teams {
            let done: Vec<usize> = (0..n).filter(|i| self.complete(*i)).collect();
            if done.is_empty() {
                return;
            }
            let winners = if done.contains(&mover) {
                vec![mover]
            } else {
                done
            };
            self.win(winners, WinReason::Goal, ev);
            return;
        }
        if !self.rules.together {
            for i in 0..n {
                if !self.sides[i].finished && self.complete(i) {
                    self.sides[i].finished = true;
                    ev.push(Event::PlayerFinished {
                        seat: self.sides[i].seat,
                    });
                }
            }
        }
        let team_done = |t: u8| {
            self.sides
                .iter()
                .enumerate()
                .filter(|(_, s)| s.team == Some(t))
                .all(|(i, s)| {
                    if self.rules.together {
                        self.complete(i)
                    } else {
                        s.finished
                    }
                })
        };
        let mut teams: Vec<u8> = self.sides.iter().filter_map(|s| s.team).collect();
        teams.dedup();
        let done: Vec<u8> = teams.into_iter().filter(|t| team_done(*t)).collect();
        if done.is_empty() {
            return;
        }
        let mt = self.sides[mover].team;
        let win_teams: Vec<u8> = match mt {
            Some(t) if done.contains(&t) => vec![t],
            _ => done,
        };
        let winners = (0..n)
            .filter(|i| self.sides[*i].team.is_some_and(|t| win_teams.contains(&t)))
            .collect();
        self.win(winners, WinReason::Goal, ev);
    }

    pub(super) fn win(&mut self, sides: Vec<usize>, reason: WinReason, ev: &mut Vec<Event>) {
        let mut seats: Vec<Seat> = sides.iter().map(|i| self.sides[*i].seat).collect();
        seats.sort();
        seats.dedup();
        ev.push(Event::GameWon {
            seats: seats.clone(),
            reason,
        });
        self.outcome = Some(if self.mode == Mode::Solitaire {
            Outcome {
                scores: vec![i64::from(self.rotations)],
                ranks: vec![1],
                winners: vec![Seat(0)],
                draw: false,
            }
        } else if self.seats == 1 {
            // Cat & Mouse played alone (both sides): the result is the mouse's.
            let mouse = reason == WinReason::Pantry;
            Outcome {
                scores: vec![i64::from(mouse)],
                ranks: vec![1],
                winners: if mouse { vec![Seat(0)] } else { Vec::new() },
                draw: false,
            }
        } else {
            let scores = (0..self.seats)
                .map(|s| i64::from(seats.contains(&Seat(s))))
                .collect();
            Outcome::from_scores(scores, false)
        });
        self.ending = Some(Ending::Won { sides, reason });
        self.pending = None;
    }

    pub(super) fn draw(&mut self, reason: DrawReason, ev: &mut Vec<Event>) {
        ev.push(Event::GameDrawn { reason });
        self.outcome = Some(if self.seats == 1 {
            Outcome {
                scores: vec![0],
                ranks: vec![1],
                winners: Vec::new(),
                draw: self.mode != Mode::Solitaire,
            }
        } else {
            let mut o = Outcome::from_scores(vec![0; usize::from(self.seats)], false);
            o.draw = true;
            o.winners.clear();
            o
        });
        self.ending = Some(Ending::Drawn(reason));
    }
}
