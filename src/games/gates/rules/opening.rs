//! Gates opening in completion order, and the regions they score.

use super::*;

impl Gates {
    /// Opens pending gates in completion order while discs suffice; asks when they do not.
    pub(super) fn after_opening(&mut self, ev: &mut Vec<Event>) {
        while !self.turn.pending.is_empty() && self.outcome.is_none() {
            if self.discs.len() < self.turn.pending.len() {
                self.turn.step = Step::ChooseOpen;
                return;
            }
            let g = self.turn.pending.remove(0);
            self.open_gate(g, ev);
        }
        if self.outcome.is_none() {
            self.finish_card(ev);
        }
    }

    pub(super) fn open_gate(&mut self, g: usize, ev: &mut Vec<Event>) {
        let seat = self.active;
        if self.discs.is_empty() {
            return;
        }
        let disc = self.discs.remove(0);
        let region = {
            let p = self.player_mut(seat);
            p.gates[g].state = GateState::Opened { disc };
            p.score += i64::from(disc);
            p.gates[g].region
        };
        ev.push(Event::GateOpened { seat, region, disc });
        ev.push(Event::PointsScored {
            seat,
            points: i64::from(disc),
            reason: PointsReason::Disc,
        });
        if d().disc(disc).is_some_and(|x| x.scroll_icon) {
            if let Some(i) = self.scrolls.iter().position(|s| !s.revealed) {
                self.scrolls[i].revealed = true;
                ev.push(Event::ScrollRevealed {
                    slot: i as u8 + 1,
                    scroll: self.scrolls[i].scroll,
                });
            }
        }
        self.score_region(region, ev);
        if self.discs.is_empty() {
            let left: Vec<usize> = std::mem::take(&mut self.turn.pending);
            for i in left {
                if let Some(gate) = self.player_mut(seat).gates.get_mut(i) {
                    gate.state = GateState::Unopened;
                    let region = gate.region;
                    ev.push(Event::GateLeftUnopened { seat, region });
                }
            }
            self.finish_game(EndReason::LastMonstrosity, ev);
        }
    }

    /// R25-R27.
    pub(super) fn score_region(&mut self, region: Region, ev: &mut Vec<Event>) {
        let def = d().region(region);
        let values = if self.duel {
            def.score_duel
        } else {
            def.score_standard
        };
        let counts = self.board[region.index()];
        let entries = rank_region(&counts, values);
        for e in &entries {
            if let Some(s) = e.owner.seat() {
                self.player_mut(s).score += e.points;
            }
        }
        ev.push(Event::RegionScored { region, entries });
        let mut returned = Vec::new();
        for o in Owner::ALL {
            let n = counts[o.index()];
            if n == 0 {
                continue;
            }
            match o.seat() {
                Some(s) => {
                    self.player_mut(s).supply += n;
                    returned.push((o, n));
                }
                None => ev.push(Event::NeutralsRemoved { region, count: n }),
            }
        }
        if !returned.is_empty() {
            ev.push(Event::InvestigatorsReturned {
                region,
                counts: returned,
            });
        }
        self.board[region.index()] = [0; OWNERS];
        self.last_scored.push(region);
    }
}
