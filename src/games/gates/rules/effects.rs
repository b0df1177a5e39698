//! What a checked option does: the cards' halves, taking, building, sending investigators.

use super::*;

impl Gates {
    /// Executes a checked option; returns whether it is an undo barrier.
    pub(super) fn exec(&mut self, action: Action, ev: &mut Vec<Event>) -> bool {
        let seat = self.active;
        match action {
            Action::Mode(m) => {
                self.mode = Some(m);
                ev.push(Event::ModeChosen { seat, mode: m });
                self.start_turn(ev);
                false
            }
            Action::Play(c) => {
                self.play_card(c, ev);
                true
            }
            Action::Discard(c) => {
                let p = self.player_mut(seat);
                p.hand.retain(|&x| x != c);
                self.discard.push(c);
                self.turn.swap_discards_left -= 1;
                ev.push(Event::CardDiscarded { seat, card: c });
                true
            }
            Action::Send(r) => {
                self.player_mut(seat).supply -= 1;
                self.board[r.index()][Owner::of(seat).index()] += 1;
                ev.push(Event::InvestigatorSent { seat, region: r });
                self.send_done_one(ev);
                false
            }
            Action::From(r) => {
                if let Step::Send { left, bonus } = self.turn.step {
                    self.turn.step = Step::SendMoveTo {
                        from: r,
                        left,
                        bonus,
                    };
                }
                false
            }
            Action::To(to) => {
                if let Step::SendMoveTo { from, left, bonus } = self.turn.step {
                    let o = Owner::of(seat).index();
                    self.board[from.index()][o] -= 1;
                    self.board[to.index()][o] += 1;
                    ev.push(Event::InvestigatorMoved { seat, from, to });
                    self.turn.step = Step::Send { left, bonus };
                    self.send_done_one(ev);
                }
                false
            }
            Action::Skip => {
                match self.turn.step {
                    Step::Send { left, .. } => {
                        ev.push(Event::SendSkipped { seat, left });
                        self.finish_card(ev);
                    }
                    _ => {
                        ev.push(Event::BuildSkipped { seat });
                        self.end_build(ev);
                    }
                }
                false
            }
            Action::Convert(r, o) => {
                let me = Owner::of(seat);
                if self.player(seat).supply > 0 {
                    self.board[r.index()][o.index()] -= 1;
                    if let Some(s) = o.seat() {
                        self.player_mut(s).supply += 1;
                    }
                    self.board[r.index()][me.index()] += 1;
                    self.player_mut(seat).supply -= 1;
                    ev.push(Event::Converted {
                        seat,
                        region: r,
                        victim: o,
                        swap_with: None,
                    });
                    self.finish_card(ev);
                } else if self.neutral_simply_removed(o, 0) {
                    self.board[r.index()][o.index()] -= 1;
                    ev.push(Event::NeutralRemoved { seat, region: r });
                    self.finish_card(ev);
                } else {
                    self.turn.step = Step::ConvertSwap {
                        region: r,
                        victim: o,
                    };
                }
                false
            }
            Action::With(u) => {
                if let Step::ConvertSwap { region, victim } = self.turn.step {
                    let me = Owner::of(seat).index();
                    self.board[region.index()][victim.index()] -= 1;
                    self.board[u.index()][victim.index()] += 1;
                    self.board[u.index()][me] -= 1;
                    self.board[region.index()][me] += 1;
                    ev.push(Event::Converted {
                        seat,
                        region,
                        victim,
                        swap_with: Some(u),
                    });
                    self.finish_card(ev);
                }
                false
            }
            Action::Take(src) => {
                self.take(src, ev);
                true
            }
            Action::Open(r) => {
                let p = self.player(seat);
                if let Some(pos) = self
                    .turn
                    .pending
                    .iter()
                    .position(|&i| p.gates.get(i).is_some_and(|g| g.region == r))
                {
                    let g = self.turn.pending.remove(pos);
                    self.open_gate(g, ev);
                    self.after_opening(ev);
                }
                true
            }
            Action::Despair(a) => self.despair(a, ev),
            Action::End => {
                self.end_turn(ev);
                true
            }
        }
    }

    pub(super) fn start_turn(&mut self, ev: &mut Vec<Event>) {
        let seat = self.active;
        self.turn = TurnState::new();
        self.player_mut(seat).turns_started += 1;
        ev.push(Event::TurnStarted { seat });
    }

    pub(super) fn gain_despair(&mut self, wanted: u8, ev: &mut Vec<Event>) {
        let seat = self.active;
        let got = wanted.min(self.despair_supply);
        self.despair_supply -= got;
        self.player_mut(seat).despair += got;
        ev.push(Event::DespairGained { seat, wanted, got });
    }

    pub(super) fn play_card(&mut self, c: CardId, ev: &mut Vec<Event>) {
        let seat = self.active;
        let half = self.mode.unwrap_or(Mode::Sane);
        self.player_mut(seat).hand.retain(|&x| x != c);
        self.turn.in_play = Some((c, half));
        let effect = self.card_effect(c, half);
        ev.push(Event::CardPlayed {
            seat,
            card: c,
            half,
            effect,
        });
        match effect {
            Effect::Page { .. } | Effect::Blueprint { .. } | Effect::Rune => {
                self.player_mut(seat).filed.push(c);
                ev.push(Event::ArtifactCollected {
                    seat,
                    card: c,
                    artifact: effect,
                });
                let bonus = match effect {
                    Effect::Page { .. } => self.revealed(Scroll::Mandate),
                    Effect::Blueprint { .. } => self.revealed(Scroll::Cartographer),
                    _ => false,
                };
                if bonus && self.gate_source_exists() {
                    self.turn.step = Step::Build {
                        left: 1,
                        bonus: true,
                    };
                } else if effect == Effect::Rune && self.revealed(Scroll::Relic) {
                    self.turn.step = Step::Send {
                        left: 1,
                        bonus: true,
                    };
                } else {
                    self.finish_card(ev);
                }
            }
            Effect::Send {
                investigators,
                despair,
            } => {
                self.gain_despair(despair, ev);
                self.turn.step = Step::Send {
                    left: investigators,
                    bonus: false,
                };
            }
            Effect::Build { sections, despair } => {
                self.gain_despair(despair, ev);
                if self.gate_source_exists() {
                    self.turn.step = Step::Build {
                        left: sections,
                        bonus: false,
                    };
                } else {
                    for _ in 0..sections {
                        ev.push(Event::SectionLost { seat });
                    }
                    self.finish_card(ev);
                }
            }
            Effect::Convert => {
                if self.convert_targets().is_empty() {
                    ev.push(Event::ConvertFizzled { seat });
                    self.finish_card(ev);
                } else {
                    self.turn.step = Step::Convert;
                }
            }
        }
    }

    pub(super) fn send_done_one(&mut self, ev: &mut Vec<Event>) {
        if let Step::Send { left, bonus } = self.turn.step {
            if left <= 1 {
                self.finish_card(ev);
            } else {
                self.turn.step = Step::Send {
                    left: left - 1,
                    bonus,
                };
            }
        }
    }

    /// Spec section 6.6.
    pub(super) fn finish_card(&mut self, ev: &mut Vec<Event>) {
        let seat = self.active;
        if let Some((c, half)) = self.turn.in_play.take() {
            let artifact = d().card(c).artifact();
            if self.card_effect(c, half).is_artifact() {
                // Filed when played (play_card).
            } else if let Some(artifact) = artifact.filter(|_| self.opts.file_always) {
                // The rulebook: a card showing an artifact always goes to the journal, after
                // the action of whichever half was played (issue 25). No scroll bonus: that
                // rewards collecting, the artifact half's own action.
                self.player_mut(seat).filed.push(c);
                ev.push(Event::ArtifactCollected {
                    seat,
                    card: c,
                    artifact,
                });
            } else {
                self.discard.push(c);
                ev.push(Event::CardToDiscard { seat, card: c });
            }
            self.turn.played.push((c, half));
            self.turn.cards_played += 1;
        }
        self.turn.step = Step::Idle;
    }

    pub(super) fn take(&mut self, src: Source, ev: &mut Vec<Event>) {
        let seat = self.active;
        let region = match src {
            Source::Slot(k) => {
                let i = usize::from(k - 1);
                let Some(region) = self.pool[i].take() else {
                    return;
                };
                ev.push(Event::GateCardTaken {
                    seat,
                    source: src,
                    region,
                });
                if self.gate_deck.is_empty() {
                    ev.push(Event::PoolSlotEmpty { slot: k });
                } else {
                    let r = self.gate_deck.remove(0);
                    self.pool[i] = Some(r);
                    ev.push(Event::PoolRefilled { slot: k, region: r });
                }
                region
            }
            Source::Deck => {
                let region = self.gate_deck.remove(0);
                ev.push(Event::GateCardTaken {
                    seat,
                    source: src,
                    region,
                });
                region
            }
        };
        self.place_section(region, ev);
        if let Step::Build { left, bonus } = self.turn.step {
            if left <= 1 || !self.gate_source_exists() {
                if left > 1 {
                    for _ in 1..left {
                        ev.push(Event::SectionLost { seat });
                    }
                }
                self.end_build(ev);
            } else {
                self.turn.step = Step::Build {
                    left: left - 1,
                    bonus,
                };
            }
        }
    }

    /// R16, R17.
    pub(super) fn place_section(&mut self, region: Region, ev: &mut Vec<Event>) {
        let seat = self.active;
        let size = d().region(region).gate_size;
        let p = self.player_mut(seat);
        let (i, new_gate) = match p
            .gates
            .iter()
            .position(|g| g.region == region && g.state == GateState::Building)
        {
            Some(i) => (i, false),
            None => {
                p.gates.push(Gate {
                    region,
                    cards: 0,
                    state: GateState::Building,
                });
                (p.gates.len() - 1, true)
            }
        };
        let g = &mut p.gates[i];
        g.cards += 1;
        let cards = g.cards;
        let complete = cards >= size;
        if complete {
            g.state = GateState::Complete;
        }
        ev.push(Event::SectionPlaced {
            seat,
            region,
            cards,
            size,
            new_gate,
        });
        if complete {
            self.turn.pending.push(i);
            ev.push(Event::GateCompleted { seat, region });
        }
    }

    /// The end of a build step: openings (spec section 6.7), then the card is finished.
    pub(super) fn end_build(&mut self, ev: &mut Vec<Event>) {
        self.turn.step = Step::Idle;
        self.after_opening(ev);
    }
}
