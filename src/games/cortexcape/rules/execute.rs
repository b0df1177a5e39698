//! Execution: an option that passed its checks changes the state and says what happened.

use super::super::moves::{Action, Event};
use super::super::state::{Cortexcape, Piece, Stage, DOORS};
use super::*;

impl Cortexcape {
    pub(super) fn execute(&mut self, ask: Ask, action: Action, ev: &mut Vec<Event>) {
        match action {
            Action::Put { door, kind } => {
                // The pool's last kind, placed by the engine, is no choice of the owner's.
                self.touched |= self.forced_put() != Some(action);
                self.place(door, kind, ev);
            }
            Action::Tower { from, to } => {
                self.touched = true;
                self.move_tower(from, to, ev);
            }
            Action::Random => {
                self.touched = true;
                self.random_fill(ev);
            }
            Action::Reset => {
                self.board = self.snap_board;
                self.pool = self.snap_pool;
                self.towers_moved = 0;
                self.touched = false;
                ev.push(Event::LayoutReset);
            }
            Action::Done => match ask {
                Ask::ConfirmLayout => {
                    ev.push(Event::LayoutConfirmed {
                        layout: self.layout_string(),
                    });
                    self.stage = Stage::ChooseExit;
                }
                Ask::ConfirmChallenge => {
                    ev.push(Event::ChallengeConfirmed);
                    self.path.clear();
                    self.stage = Stage::Escape;
                }
                _ => self.end_round(ev),
            },
            Action::Exit(x) => {
                self.target = Some(x);
                ev.push(Event::ExitChosen { exit: x });
                self.stage = if self.short {
                    Stage::ChooseStartExit
                } else {
                    Stage::ChooseStartDoor
                };
            }
            Action::From(d) => self.stage = Stage::ChooseStartCorridor(d),
            Action::Start(s) => {
                self.start = Some(s);
                ev.push(Event::StartChosen { start: s });
                self.stage = Stage::ConfirmChallenge;
            }
            Action::Step(q) => {
                self.path.push(q);
                ev.push(Event::Stepped {
                    place: q,
                    running_cost: self.running_cost(),
                });
            }
        }
    }

    /// Puts a piece of the pool on a door (`auto` is set when the engine took it:
    /// `Game::apply_forced`).
    pub(super) fn place(&mut self, door: u8, kind: Piece, ev: &mut Vec<Event>) {
        if let Some(slot) = self.board.get_mut(usize::from(door).wrapping_sub(1)) {
            *slot = Some(kind);
            self.pool[kind.index()] = self.pool[kind.index()].saturating_sub(1);
            ev.push(Event::CylinderPlaced {
                door,
                kind,
                auto: false,
            });
        }
    }

    pub(super) fn move_tower(&mut self, from: u8, to: u8, ev: &mut Vec<Event>) {
        let (fi, ti) = (
            usize::from(from).wrapping_sub(1),
            usize::from(to).wrapping_sub(1),
        );
        // `check` guarantees both doors exist; a corrupt state only skips the swap.
        if fi >= DOORS || ti >= DOORS {
            return;
        }
        let displaced = self.board[ti].unwrap_or(Piece::White);
        self.board.swap(fi, ti);
        self.towers_moved += 1;
        ev.push(Event::TowerMoved {
            from,
            to,
            displaced,
        });
    }

    /// Doors of this Configure step still waiting for a piece, ascending.
    pub(crate) fn empty_targets(&self) -> Vec<u8> {
        self.targets
            .iter()
            .copied()
            .filter(|&d| self.piece(d).is_none())
            .collect()
    }

    /// When the pool holds one kind only, the next empty target door gets it: nobody is
    /// asked (the engine takes it, `Game::forced`, until every such door is filled).
    pub(crate) fn forced_put(&self) -> Option<Action> {
        let Some(Ask::PlaceCylinder(door)) = self.ask() else {
            return None;
        };
        let mut kinds = Piece::ALL.into_iter().filter(|k| self.pool[k.index()] > 0);
        match (kinds.next(), kinds.next()) {
            (Some(kind), None) => Some(Action::Put { door, kind }),
            _ => None,
        }
    }

    /// `random`: a Fisher-Yates permutation of the pool onto the empty target doors, then
    /// each remaining tower to a uniform legal destination.
    pub(super) fn random_fill(&mut self, ev: &mut Vec<Event>) {
        let mut bag: Vec<Piece> = Vec::new();
        for k in Piece::ALL {
            for _ in 0..self.pool[k.index()] {
                bag.push(k);
            }
        }
        for i in (1..bag.len()).rev() {
            let j = self.rng.gen_range(0..=u32::try_from(i).unwrap_or(0));
            bag.swap(i, usize::try_from(j).unwrap_or(0));
        }
        let empty: Vec<u8> = self.empty_targets();
        for (d, k) in empty.into_iter().zip(bag) {
            self.place(d, k, ev);
        }
        while let Some(&from) = self.prev_towers.get(self.towers_moved) {
            let dests = self.tower_destinations();
            if dests.is_empty() {
                break;
            }
            let n = u32::try_from(dests.len()).unwrap_or(1);
            let j = usize::try_from(self.rng.gen_range(0..n)).unwrap_or(0);
            let to = dests.get(j).copied().unwrap_or(dests[0]);
            self.move_tower(from, to, ev);
        }
    }
}
