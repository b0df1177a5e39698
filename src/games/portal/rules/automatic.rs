//! The steps no one decides: turn start and end, recycling, a card's last step.

use crate::games::portal::state::TurnState;

use super::*;

impl Portal {
    // ----- automatic steps -----

    pub(super) fn exec_auto(&mut self, step: &Step, log: &mut Log) {
        let me = self.active;
        match step {
            Step::TurnStart => {
                for h in &mut self.seat_mut(me).hand {
                    h.fresh = false;
                }
                self.turn = TurnState::default();
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
                let next = me.next(self.n());
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
    pub(super) fn recycle(&mut self, log: &mut Log) {
        let Some(x) = self.turn.activated else {
            return;
        };
        let Some(chamber) = self.chamber(x).cloned() else {
            return;
        };
        if !self.is_char(Card::Wheatley) {
            for s in self.seat_ids().collect::<Vec<_>>() {
                self.destroy(x, s, chamber.subj[s.index()], Death::Recycle, log);
            }
        }
        let caroline = self.is_char(Card::Caroline);
        for s in self.seat_ids().collect::<Vec<_>>() {
            let count = chamber.cake[s.index()];
            if count == 0 {
                continue;
            }
            if let Some(c) = self.chamber_mut(x) {
                c.cake[s.index()] = 0;
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
    pub(super) fn apply_move(&mut self, step: &Step, log: &mut Log) {
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
        let o = owner.index();
        if let Some(x) = self.chamber_mut(from) {
            x.subj[o] = x.subj[o].saturating_sub(count);
            for &p in &picked {
                x.cake[p.index()] = x.cake[p.index()].saturating_sub(1);
            }
        }
        if let Some(x) = self.chamber_mut(to) {
            x.subj[o] += count;
            for &p in &picked {
                x.cake[p.index()] += 1;
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
}
