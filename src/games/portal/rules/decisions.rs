//! What a chosen option does: the turn's own steps, then the cards' and characters' scripts.

use super::*;

impl Portal {
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
            // The cards' and characters' own steps.
            _ => self.exec_script(step, action, log),
        }
    }

    /// Executes an option of a card's or a character's script step.
    fn exec_script(&mut self, step: &Step, action: Action, log: &mut Log) {
        let me = self.active;
        match (step, action) {
            (Step::WheatleyFrom, Action::From(from)) => {
                self.agenda.push(Step::WheatleyTo { from });
            }
            (Step::WheatleyTo { from }, Action::To(to)) => {
                let n = self.n();
                let owners: Vec<Seat> = (0..n)
                    .map(|k| self.seat_after(me, k))
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
            _ => {}
        }
    }

    fn move_cake(&mut self, colour: Seat, from: Ch, to: Ch, cause: Card, log: &mut Log) {
        let c = colour.index();
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
    pub(super) fn activate(&mut self, x: Ch, log: &mut Log) {
        self.turn.activated = Some(x);
        self.touch(x);
        log.push(Ev::Activated {
            seat: self.active,
            chamber: x,
        });
        let Some(chamber) = self.chamber(x).cloned() else {
            return;
        };
        let counts: Vec<u8> = self.seat_ids().map(|s| chamber.subj[s.index()]).collect();
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
    pub(crate) fn reward_recipient(&self, x: Ch, chamber: &Chamber) -> (Option<Seat>, Majority) {
        let counts: Vec<u8> = self.seat_ids().map(|s| chamber.subj[s.index()]).collect();
        let max = counts.iter().copied().max().unwrap_or(0);
        let at_max: Vec<Seat> = self
            .seat_ids()
            .filter(|&s| counts[s.index()] == max)
            .collect();
        if self.cube == Some(x) && !self.is_char(Card::Space) {
            (None, Majority::CubeBlocked)
        } else if self.is_char(Card::Oracle) {
            let min = counts.iter().copied().filter(|&c| c > 0).min();
            match min {
                None => (None, Majority::Empty),
                Some(m) => {
                    let at: Vec<Seat> = self
                        .seat_ids()
                        .filter(|&s| counts[s.index()] == m)
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
