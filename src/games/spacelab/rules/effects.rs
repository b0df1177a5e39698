//! What a checked option does: placing and paying, drawing Lab and Project cards, committing a card to a slot.

use super::*;

impl SpaceLab {
    pub(super) fn exec(&mut self, action: Action, auto: bool, ctx: &mut Ctx) {
        let s = self.current;
        match action {
            Action::Arrange(tiles) => {
                let who = match self.phase {
                    Phase::Arrange(w) => w,
                    _ => self.current,
                };
                self.players[who.index()].objectives = Some(tiles);
                ctx.events
                    .push(Event::ObjectivesArranged { seat: who, tiles });
                let next = who.next(usize::from(self.n));
                if next == self.first {
                    self.start_turn(ctx);
                } else {
                    self.phase = Phase::Arrange(next);
                }
            }
            Action::Reveal | Action::Recruit | Action::Place => {
                ctx.events.push(Event::ActionChosen {
                    seat: s,
                    action,
                    auto,
                });
                match action {
                    Action::Reveal => {
                        let drawn = self.draw_labs(3, ctx);
                        self.revealed = drawn.clone();
                        ctx.events.push(Event::LabsRevealed { ids: drawn });
                        ctx.reveal();
                        self.phase = Phase::TakeRevealed;
                    }
                    Action::Recruit => self.phase = Phase::TakeCentre,
                    _ => {
                        self.me().placed_this_action = 0;
                        self.phase = Phase::PlaceCard { filter: None };
                    }
                }
            }
            Action::Take(agency) => {
                if self.phase == Phase::TakeRevealed {
                    let d = self.data();
                    let (mine, rest): (Vec<u8>, Vec<u8>) = std::mem::take(&mut self.revealed)
                        .into_iter()
                        .partition(|&c| d.lab(c).map(|l| l.agency) == Some(agency));
                    self.me().hand.extend(mine.iter().copied());
                    ctx.events.push(Event::LabsTaken {
                        seat: s,
                        agency,
                        ids: mine,
                    });
                    if !rest.is_empty() {
                        for &c in &rest {
                            if let Some(l) = d.lab(c) {
                                self.centre[l.agency.index()].push(c);
                            }
                        }
                        ctx.events.push(Event::CentreAdded { ids: rest });
                    }
                } else {
                    let ids = std::mem::take(&mut self.centre[agency.index()]);
                    self.me().hand.extend(ids.iter().copied());
                    ctx.events.push(Event::Recruited {
                        seat: s,
                        agency,
                        ids,
                    });
                }
                self.end_turn(ctx);
            }
            Action::Card(card) => self.phase = Phase::PlaceSlot { card },
            Action::From(a) => match &mut self.phase {
                Phase::PlaceCard { filter } | Phase::PlacePay { filter, .. } => *filter = Some(a),
                _ => {}
            },
            Action::Slot(slot) => {
                let Phase::PlaceSlot { card } = self.phase else {
                    return;
                };
                if self.data().cost(card) == 0 {
                    self.commit(card, slot, Vec::new(), ctx);
                } else {
                    self.phase = Phase::PlacePay {
                        card,
                        slot,
                        paid: Vec::new(),
                        filter: None,
                    };
                }
            }
            Action::Pay(c) => {
                let Phase::PlacePay {
                    card,
                    slot,
                    mut paid,
                    ..
                } = self.phase.clone()
                else {
                    return;
                };
                paid.push(c);
                if paid.len() >= usize::from(self.data().cost(card)) {
                    self.commit(card, slot, paid, ctx);
                } else {
                    self.phase = Phase::PlacePay {
                        card,
                        slot,
                        paid,
                        filter: None,
                    };
                }
            }
            Action::End => {
                let placed = self.player(self.current).placed_this_action;
                ctx.events.push(Event::PlaceEnded { seat: s, placed });
                self.end_turn(ctx);
            }
            Action::Keep(kind) => {
                let Phase::KeepProject { drawn, .. } = self.phase.clone() else {
                    return;
                };
                let d = self.data();
                let pos = drawn
                    .iter()
                    .position(|&c| d.kind_of(c) == kind)
                    .unwrap_or(0);
                let mut rest = drawn;
                let kept = rest.remove(pos);
                self.me().projects.push(kept);
                ctx.events.push(Event::ProjectKept { seat: s, kind });
                let kinds: Vec<u8> = rest.iter().map(|&c| d.kind_of(c)).collect();
                self.project_deck.extend(rest);
                if !kinds.is_empty() {
                    self.me().returned = kinds.clone();
                    ctx.events.push(Event::ProjectsReturned { seat: s, kinds });
                }
                self.resume(ctx);
            }
            Action::Bonus(kind) => {
                ctx.barrier = true;
                let card = match kind {
                    BonusKind::Lab => {
                        let got = self.draw_labs(1, ctx);
                        self.me().hand.extend(got.iter().copied());
                        self.me().drawn.extend(got.iter().copied());
                        got.first().copied()
                    }
                    BonusKind::Project => {
                        if self.project_deck.is_empty() {
                            None
                        } else {
                            let c = self.project_deck.remove(0);
                            self.me().projects.push(c);
                            Some(c)
                        }
                    }
                };
                if let Some(card) = card {
                    // A card drawn, even face down into one's own hand, is out.
                    ctx.reveal();
                    ctx.events.push(Event::ValidationBonus {
                        seat: s,
                        kind,
                        card,
                    });
                }
                self.resume(ctx);
            }
        }
    }

    /// Draws up to `k` Lab cards from the top, reshuffling the discard when the deck runs out.
    fn draw_labs(&mut self, k: usize, ctx: &mut Ctx) -> Vec<u8> {
        let mut out = Vec::with_capacity(k);
        for _ in 0..k {
            if self.lab_deck.is_empty() {
                if self.lab_discard.is_empty() {
                    break;
                }
                let mut fresh = std::mem::take(&mut self.lab_discard);
                fresh.shuffle(&mut self.rng);
                ctx.events
                    .push(Event::LabDeckReshuffled { count: fresh.len() });
                ctx.reveal();
                self.lab_deck = fresh;
            }
            out.push(self.lab_deck.remove(0));
        }
        out
    }

    /// Draws face down into the current hand.
    pub(super) fn draw_to_hand(&mut self, k: usize, source: Source, ctx: &mut Ctx) {
        let ids = self.draw_labs(k, ctx);
        ctx.barrier = true;
        if !ids.is_empty() {
            ctx.reveal();
        }
        self.me().hand.extend(ids.iter().copied());
        self.me().drawn.extend(ids.iter().copied());
        ctx.events.push(Event::LabsDrawn {
            seat: self.current,
            source,
            ids,
        });
    }

    /// Draws up to `k` Project cards and opens P7 (settled automatically when one kind).
    /// Returns whether anything was drawn.
    pub(super) fn draw_projects(&mut self, k: usize, source: Source, ctx: &mut Ctx) -> bool {
        let k = k.min(self.project_deck.len());
        if k == 0 {
            return false;
        }
        let drawn: Vec<u8> = self.project_deck.drain(..k).collect();
        ctx.reveal();
        let d = self.data();
        ctx.events.push(Event::ProjectsDrawn {
            seat: self.current,
            source,
            kinds: drawn.iter().map(|&c| d.kind_of(c)).collect(),
        });
        self.phase = Phase::KeepProject { drawn, source };
        true
    }

    /// Pays, places, then resolves the placement (spec 6.4).
    fn commit(&mut self, card: u8, slot: u8, paid: Vec<u8>, ctx: &mut Ctx) {
        let s = self.current;
        let p = self.me();
        p.hand.retain(|c| *c != card && !paid.contains(c));
        p.station[usize::from(slot)] = Some(card);
        p.placed_this_action += 1;
        if !paid.is_empty() {
            self.lab_discard.extend(paid.iter().copied());
            ctx.events.push(Event::LabPaid { seat: s, ids: paid });
        }
        ctx.events.push(Event::LabPlaced {
            seat: s,
            card,
            slot,
        });
        self.resolving = Some(Resolving {
            card,
            slot,
            step: 0,
        });
        self.resume(ctx);
    }

    /// Whether capsule `c` of player `p` has its requirement around it.
    pub fn meets(&self, p: &Player, c: usize) -> bool {
        let d = self.data();
        let Some(obj) = p.objectives.and_then(|o| d.objective(o[c])) else {
            return false;
        };
        let mut counts = [0u8; 4];
        for (i, g) in d.slots.iter().enumerate() {
            if g.capsules.contains(&c) {
                if let Some(l) = p.station[i].and_then(|x| d.lab(x)) {
                    counts[l.agency.index()] += 1;
                }
            }
        }
        obj.need.iter().all(|&(a, n)| counts[a.index()] >= n)
    }
}
