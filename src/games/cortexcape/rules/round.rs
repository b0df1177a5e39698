//! The end of a round: the hindsight of the cheapest path, the setter's best challenge, the
//! scores and the next round.

use super::super::moves::{Event, HindsightInfo};
use super::super::state::{Cortexcape, Place, RoundRecord, Stage, Start};
use crate::engine::Outcome;

impl Cortexcape {
    /// R24: the cheapest cost and path of the actual challenge, and the setter's best.
    pub(super) fn hindsight_info(&self) -> Option<HindsightInfo> {
        let (x, start) = (self.target?, self.start?);
        let tt = self.to_target(x);
        let (cheapest, from) = self.start_cost(&tt, start)?;
        let cheapest_path = tt.path_from(from)?;
        let (best, best_start, best_exit) = self.setter_best()?;
        Some(HindsightInfo {
            cheapest,
            cheapest_path,
            matched: cheapest == self.running_cost(),
            best,
            best_start,
            best_exit,
        })
    }

    /// The strongest challenge on the current layout, first in R24 order among ties.
    pub fn setter_best(&self) -> Option<(i64, Start, u8)> {
        let mut best: Option<(i64, Start, u8)> = None;
        for x in (1..=12u8).filter(|&x| self.exit_free(x)) {
            let tt = self.to_target(x);
            let starts: Vec<Start> = if self.short {
                (1..=12u8)
                    .filter(|&k| k != x && self.exit_free(k))
                    .map(Start::Exit)
                    .collect()
            } else {
                self.lab_data()
                    .corridors
                    .iter()
                    .map(|&(a, b)| Start::Corridor(a, b))
                    .collect()
            };
            for s in starts {
                if let Some((c, _)) = self.start_cost(&tt, s) {
                    if best.is_none_or(|(b, _, _)| c > b) {
                        best = Some((c, s, x));
                    }
                }
            }
        }
        best
    }

    /// Everything after `ConfirmPath` (spec P9), then the next round or the end.
    pub(super) fn end_round(&mut self, ev: &mut Vec<Event>) {
        let owner = self.owner();
        let setter = self.setter();
        let cost = self.running_cost();
        let places = self.path.clone();
        ev.push(Event::PathConfirmed {
            places: places.clone(),
            cost,
        });
        let hind = if self.hindsight {
            self.hindsight_info()
        } else {
            None
        };

        let mut doors = Vec::new();
        let mut kinds = Vec::new();
        let mut pool = [0u8; 5];
        for p in &places {
            if let Place::Door(d) = *p {
                if let Some(k) = self
                    .board
                    .get_mut(usize::from(d).wrapping_sub(1))
                    .and_then(Option::take)
                {
                    doors.push(d);
                    kinds.push(k);
                    pool[k.index()] += 1;
                }
            }
        }
        ev.push(Event::CylindersCollected {
            doors: doors.clone(),
            kinds,
        });

        let o = owner.index();
        if let Some(s) = self.scores.get_mut(o) {
            *s += cost;
        }
        ev.push(Event::ScoreAdded {
            seat: owner,
            points: cost,
            total: self.scores.get(o).copied().unwrap_or(0),
        });

        let target = self.target.unwrap_or(0);
        let start = self.start.unwrap_or(Start::Exit(0));
        let mut closed = vec![target];
        if let Start::Exit(k) = start {
            closed.push(k);
        }
        for x in closed {
            if let Some(m) = self.marbles.get_mut(usize::from(x).wrapping_sub(1)) {
                *m = Some(owner);
                if let Some(left) = self.marbles_left.get_mut(o) {
                    *left = left.saturating_sub(1);
                }
                ev.push(Event::MarblePlaced {
                    exit: x,
                    seat: owner,
                });
            }
        }
        ev.push(Event::ConesRemoved);
        if let Some(h) = &hind {
            ev.push(Event::Hindsight(h.clone()));
        }
        ev.push(Event::RoundEnded { round: self.round });
        self.history.push(RoundRecord {
            round: self.round,
            owner,
            setter,
            start,
            target,
            path: places,
            cost,
            cheapest: hind.as_ref().map(|h| (h.cheapest, h.cheapest_path.clone())),
            setter_best: hind.map(|h| (h.best, h.best_start, h.best_exit)),
        });
        self.target = None;
        self.start = None;
        self.path.clear();
        // The collected cylinders go to the next owner's hand (kept at the end too, so the
        // 20 pieces are always on the board or in hand).
        self.pool = pool;
        doors.sort_unstable();
        self.targets = doors;

        if self.round >= self.total_rounds {
            let outcome = Outcome::from_scores(self.scores.clone(), true);
            ev.push(Event::GameEnded {
                scores: self.scores.clone(),
                winners: outcome.winners.clone(),
            });
            self.outcome = Some(outcome);
            self.stage = Stage::Over;
            return;
        }
        self.round += 1;
        self.prev_towers = (1..=20u8).filter(|&d| self.is_tower(d)).collect();
        self.towers_moved = 0;
        self.snap_board = self.board;
        self.snap_pool = self.pool;
        self.touched = false;
        self.stage = Stage::Configure;
        ev.push(Event::RoundStarted {
            round: self.round,
            owner: self.owner(),
            setter: self.setter(),
        });
    }
}
