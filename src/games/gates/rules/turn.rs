//! Drawing, the desperate actions, the end of a turn and of the game.

use super::scoring::outcome;
use super::*;

impl Gates {
    /// Draws one card, reshuffling the discard pile into the deck when needed (R31).
    pub(super) fn draw_one(&mut self, ev: &mut Vec<Event>) -> Option<CardId> {
        if self.deck.is_empty() {
            if self.discard.is_empty() {
                return None;
            }
            let mut pile = std::mem::take(&mut self.discard);
            pile.shuffle(&mut self.rng);
            ev.push(Event::DeckReshuffled {
                count: pile.len() as u8,
            });
            self.deck = pile;
        }
        Some(self.deck.remove(0))
    }

    pub(super) fn draw(&mut self, n: usize, refill_to: usize, ev: &mut Vec<Event>) {
        let seat = self.active;
        let mut drawn = Vec::new();
        while drawn.len() < n || self.player(seat).hand.len() < refill_to {
            let Some(c) = self.draw_one(ev) else { break };
            self.player_mut(seat).hand.push(c);
            drawn.push(c);
        }
        ev.push(Event::CardsDrawn {
            seat,
            count: drawn.len() as u8,
        });
        self.player_mut(seat).last_drawn = drawn;
    }

    pub(super) fn despair(&mut self, a: Desperate, ev: &mut Vec<Event>) -> bool {
        let seat = self.active;
        let cost = self.cost(a);
        self.player_mut(seat).despair -= cost;
        self.despair_supply += cost;
        ev.push(Event::DespairSpent {
            seat,
            action: a,
            cost,
        });
        match a {
            Desperate::Swap => {
                self.draw(2, 0, ev);
                self.turn.swap_discards_left = self.player(seat).hand.len().min(2) as u8;
                true
            }
            Desperate::Refresh => {
                for slot in &mut self.pool {
                    if let Some(r) = slot.take() {
                        self.gate_deck.push(r);
                    }
                }
                for slot in &mut self.pool {
                    if !self.gate_deck.is_empty() {
                        *slot = Some(self.gate_deck.remove(0));
                    }
                }
                ev.push(Event::PoolRefreshed { pool: self.pool });
                true
            }
            Desperate::Flip => {
                let m = self.mode.unwrap_or(Mode::Sane).flipped();
                self.mode = Some(m);
                ev.push(Event::SanityFlipped { seat, mode: m });
                false
            }
            Desperate::Score => {
                let pts = d().numbers.desperate.score_points;
                self.player_mut(seat).score += pts;
                ev.push(Event::PointsScored {
                    seat,
                    points: pts,
                    reason: PointsReason::Despair,
                });
                false
            }
        }
    }

    pub(super) fn end_turn(&mut self, ev: &mut Vec<Event>) {
        let seat = self.active;
        let n = &d().numbers;
        self.draw(usize::from(n.end_draw), usize::from(n.hand_size), ev);
        ev.push(Event::TurnEnded { seat });
        // R39: no gate card anywhere.
        if !self.gate_source_exists() {
            self.finish_game(EndReason::NoGateCards, ev);
            return;
        }
        let next = seat.next(usize::from(self.seats));
        if next == self.first {
            ev.push(Event::RoundEnded { round: self.round });
            if self.round >= self.opts.round_limit {
                self.finish_game(EndReason::RoundLimit, ev);
                return;
            }
            self.round += 1;
            self.first = self.first.next(usize::from(self.seats));
            self.active = self.first;
            self.mode = None;
            self.turn = TurnState::new();
            ev.push(Event::RoundStarted {
                round: self.round,
                first: self.first,
            });
        } else {
            self.active = next;
            self.start_turn(ev);
        }
    }

    /// Final scoring (spec section 8) and the outcome.
    pub(super) fn finish_game(&mut self, reason: EndReason, ev: &mut Vec<Event>) {
        let scores = final_scores(self);
        let winners = winners(&scores, self.opts.fewer_turns);
        ev.push(Event::GameEnded { reason });
        ev.push(Event::FinalScores {
            scores: scores.clone(),
            winners: winners.clone(),
        });
        self.outcome = Some(outcome(&scores, &winners, self.opts.fewer_turns));
        self.turn.step = Step::Idle;
        self.turn.swap_discards_left = 0;
        self.ending = Some(Ending {
            reason,
            scores,
            winners,
        });
    }

    /// Running score per seat: final totals once over.
    pub fn running_scores(&self) -> Vec<i64> {
        match &self.ending {
            Some(e) => e.scores.iter().map(|s| s.total).collect(),
            None => self.players.iter().map(|p| p.score).collect(),
        }
    }
}
