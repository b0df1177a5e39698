//! The placement resolution order, the end of a turn, the next turn, the final round and the end of the game.

use super::*;

impl SpaceLab {
    /// Continues the placement being resolved until a prompt is needed or it is done.
    pub(super) fn resume(&mut self, ctx: &mut Ctx) {
        let d = self.data();
        let s = self.current;
        while let Some(r) = self.resolving {
            let card = d.lab(r.card).cloned();
            let slot = usize::from(r.slot);
            let Some(card) = card else {
                self.resolving = None;
                break;
            };
            let mut next = r;
            next.step += 1;
            self.resolving = Some(next);
            match r.step {
                0 => {
                    let paused = match card.effect {
                        LabEffect::DrawLab { n } => {
                            self.draw_to_hand(usize::from(n), Source::Instant, ctx);
                            false
                        }
                        LabEffect::DrawProject { n } => {
                            self.draw_projects(usize::from(n), Source::Instant, ctx)
                        }
                        _ => false,
                    };
                    if paused {
                        return;
                    }
                }
                1 => match d.slot_row(slot) {
                    Row::Top => {
                        if self.draw_projects(usize::from(card.cost), Source::Top, ctx) {
                            return;
                        }
                    }
                    Row::Middle => {}
                    Row::Bottom => {
                        let Some(c) = d.capsules.iter().position(|k| k.bottom == slot) else {
                            continue;
                        };
                        let p = self.player(self.current);
                        let Some(obj) = p.objectives.and_then(|o| d.objective(o[c])) else {
                            continue;
                        };
                        if obj.specialty != card.specialty {
                            continue;
                        }
                        let capsule = u8_of(c);
                        match obj.effect {
                            BottomEffect::LabsPerBottomCard => {
                                let k = (0..SLOTS)
                                    .filter(|&i| {
                                        d.slot_row(i) == Row::Bottom && p.station[i].is_some()
                                    })
                                    .count();
                                ctx.events.push(Event::BottomEffect {
                                    seat: s,
                                    capsule,
                                    taken: Vec::new(),
                                    effect: obj.effect.id().into(),
                                });
                                self.draw_to_hand(k, Source::Bottom, ctx);
                            }
                            BottomEffect::ProjectsCostPlusOne => {
                                ctx.events.push(Event::BottomEffect {
                                    seat: s,
                                    capsule,
                                    taken: Vec::new(),
                                    effect: obj.effect.id().into(),
                                });
                                let k = usize::from(card.cost) + 1;
                                if self.draw_projects(k, Source::Bottom, ctx) {
                                    return;
                                }
                            }
                            BottomEffect::RecruitOwnAgency => {
                                let taken = std::mem::take(&mut self.centre[card.agency.index()]);
                                self.me().hand.extend(taken.iter().copied());
                                ctx.events.push(Event::BottomEffect {
                                    seat: s,
                                    capsule,
                                    taken,
                                    effect: obj.effect.id().into(),
                                });
                            }
                            BottomEffect::BottomRowPoints { .. } => {
                                ctx.events
                                    .push(Event::BottomBonusArmed { seat: s, capsule });
                            }
                        }
                    }
                },
                2..=4 => {
                    let c = usize::from(r.step - 2);
                    let touches = d.slots.get(slot).is_some_and(|g| g.capsules.contains(&c));
                    let p = self.player(self.current);
                    if !touches || p.validated[c].is_some() || !self.meets(p, c) {
                        continue;
                    }
                    let objective = p.objectives.map_or(0, |o| o[c]);
                    let tile = if self.piles[c].is_empty() {
                        u8::MAX
                    } else {
                        self.piles[c].remove(0)
                    };
                    self.me().validated[c] = Some(tile);
                    let (value, bonus) = d.tile(tile).map_or((0, false), |t| (t.value, t.bonus));
                    ctx.events.push(Event::ObjectiveValidated {
                        seat: s,
                        capsule: u8_of(c),
                        objective,
                        tile,
                        value,
                        bonus,
                    });
                    let can_draw = self.lab_deck.len() + self.lab_discard.len() > 0
                        || !self.project_deck.is_empty();
                    if bonus && self.opts.validation_bonus && can_draw {
                        self.phase = Phase::Bonus;
                        return;
                    }
                }
                5 => {
                    let p = self.player(self.current);
                    if self.end.is_some() {
                        continue;
                    }
                    let mut reasons = Vec::new();
                    if p.filled() >= SLOTS {
                        reasons.push(EndReason::TenCards);
                    }
                    if p.validated_count() >= CAPSULES {
                        reasons.push(EndReason::ThreeObjectives);
                    }
                    if reasons.is_empty() {
                        continue;
                    }
                    let t = self.current;
                    let remaining: Vec<Seat> = match self.opts.final_round {
                        FinalRound::OthersOnce => {
                            (1..self.n).map(|k| Seat((t.0 + k) % self.n)).collect()
                        }
                        FinalRound::EqualTurns => (1..self.n)
                            .map(|k| Seat((t.0 + k) % self.n))
                            .take_while(|&x| x != self.first)
                            .collect(),
                    };
                    ctx.events.push(Event::EndTriggered {
                        seat: s,
                        reasons,
                        still_to_play: remaining.clone(),
                    });
                    self.end = Some(EndState {
                        trigger: t,
                        remaining,
                    });
                    if self.opts.trigger_ends_turn {
                        self.resolving = None;
                        self.end_turn(ctx);
                        return;
                    }
                }
                _ => {
                    self.resolving = None;
                    self.phase = Phase::PlaceCard { filter: None };
                }
            }
        }
    }

    /// Ends the current turn and starts the next one (or ends the game).
    pub(super) fn end_turn(&mut self, ctx: &mut Ctx) {
        ctx.barrier = true;
        self.resolving = None;
        self.revealed.clear();
        self.me().placed_this_action = 0;
        if let Some(end) = &mut self.end {
            if end.remaining.is_empty() {
                self.game_over(false, ctx);
                return;
            }
            self.current = end.remaining.remove(0);
        } else if self.consecutive_passes >= self.n {
            self.game_over(true, ctx);
            return;
        } else {
            self.current = self.current.next(usize::from(self.n));
        }
        self.turn_no += 1;
        self.start_turn(ctx);
    }

    /// Turn start (spec 6.2): no legal action passes; otherwise P1 (settled when single).
    pub(crate) fn start_turn(&mut self, ctx: &mut Ctx) {
        let s = self.current;
        self.me().drawn.clear();
        let legal = self.legal_actions();
        let p = self.player(self.current);
        ctx.events.push(Event::TurnStarted {
            seat: s,
            turn_no: self.turn_no,
            hand: p.hand.len(),
            projects: p.projects.len(),
            forced_place: p.hand.len() >= 5 && !legal.is_empty(),
        });
        if legal.is_empty() {
            ctx.events.push(Event::TurnPassed { seat: s });
            self.consecutive_passes = self.consecutive_passes.saturating_add(1);
            self.end_turn(ctx);
        } else {
            self.consecutive_passes = 0;
            self.phase = Phase::ChooseAction;
        }
    }

    pub(super) fn game_over(&mut self, stall: bool, ctx: &mut Ctx) {
        // The end shows every Project.
        ctx.reveal();
        let scores: Vec<Breakdown> = self.seat_ids().map(|s| self.breakdown(s)).collect();
        let keys: Vec<(i64, usize)> = scores
            .iter()
            .zip(&self.players)
            .map(|(b, p)| (b.total(), p.projects.len()))
            .collect();
        let ranks: Vec<u8> = keys
            .iter()
            .map(|k| u8_of(keys.iter().filter(|o| *o > k).count() + 1))
            .collect();
        let winners: Vec<Seat> = ranks
            .iter()
            .enumerate()
            .filter(|(_, &r)| r == 1)
            .map(|(i, _)| Seat(u8_of(i)))
            .collect();
        let draw = self.n > 1 && winners.len() == usize::from(self.n);
        self.outcome = Some(Outcome {
            scores: scores.iter().map(Breakdown::total).collect(),
            ranks: ranks.clone(),
            winners: if draw { Vec::new() } else { winners },
            draw,
        });
        ctx.events.push(Event::GameOver {
            scores: scores.clone(),
            ranks,
            stall,
        });
        self.final_scores = Some(scores);
        self.phase = Phase::Over;
        self.resolving = None;
    }
}
