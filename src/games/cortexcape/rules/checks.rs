//! The checks (pure): whether an option is legal here, and why not.

use super::super::moves::Action;
use super::super::state::{Cortexcape, Place, Start, PLACES};
use super::*;

impl Cortexcape {
    /// R11 order: adjacency, wrong exit, tower, visited, dead end.
    pub(super) fn check_step(&self, q: Place) -> Result<(), RuleError> {
        let target = self.target.map(Place::Exit);
        if target.is_some() && self.path.last().copied() == target {
            return Err(RuleError::PathAlreadyComplete);
        }
        if q.idx() >= PLACES || !self.step_candidates().contains(&q) {
            return Err(RuleError::NotAdjacent);
        }
        if q.is_exit() && Some(q) != target {
            return Err(RuleError::WrongExit);
        }
        if let Place::Door(d) = q {
            if self.is_tower(d) {
                return Err(RuleError::TowerDoor);
            }
        }
        if self.path.contains(&q) {
            return Err(RuleError::AlreadyVisited);
        }
        if Some(q) != target && !self.reaches_target(q) {
            return Err(RuleError::DeadEnd);
        }
        Ok(())
    }

    /// Rule (e): the target is reachable from `q` avoiding towers, the path and other exits.
    pub(super) fn reaches_target(&self, q: Place) -> bool {
        let Some(x) = self.target else {
            return false;
        };
        let t = Place::Exit(x).idx();
        let lab = self.lab_data();
        let mut seen = [false; PLACES];
        for p in &self.path {
            if let Some(s) = seen.get_mut(p.idx()) {
                *s = true;
            }
        }
        let start = q.idx();
        if start >= PLACES {
            return false;
        }
        seen[start] = true;
        let mut stack = vec![start];
        while let Some(u) = stack.pop() {
            for &v in lab.neighbours(u) {
                if v == t {
                    return true;
                }
                if !seen[v] && self.passable(v, t) {
                    seen[v] = true;
                    stack.push(v);
                }
            }
        }
        false
    }

    /// Checks `action` at `ask` without changing anything.
    pub fn check(&self, ask: Ask, action: &Action) -> Result<(), RuleError> {
        match (ask, *action) {
            (Ask::PlaceCylinder(d), Action::Put { door, kind }) => {
                if door != d {
                    Err(RuleError::WrongDoor)
                } else if self.pool[kind.index()] == 0 {
                    Err(RuleError::KindNotInPool)
                } else {
                    Ok(())
                }
            }
            (Ask::MoveTower(f), Action::Tower { from, to }) => {
                if from != f {
                    Err(RuleError::WrongDoor)
                } else if self.is_tower(to) {
                    Err(RuleError::HoldsTower)
                } else if self.prev_towers.contains(&to) {
                    Err(RuleError::BlockedLastRound)
                } else if !(1..=20).contains(&to) {
                    Err(RuleError::WrongDoor)
                } else {
                    Ok(())
                }
            }
            (Ask::PlaceCylinder(_) | Ask::MoveTower(_), Action::Random)
            | (Ask::ConfirmLayout, Action::Reset)
            | (Ask::ConfirmChallenge | Ask::ConfirmPath, Action::Done) => Ok(()),
            (Ask::ConfirmLayout, Action::Done) => {
                if self.short && !self.any_legal_pair() {
                    Err(RuleError::NoLegalChallenge)
                } else {
                    Ok(())
                }
            }
            (Ask::ChooseExit, Action::Exit(x)) => {
                if !self.exit_free(x) {
                    Err(RuleError::ExitClosed)
                } else if self.short && self.legal_partners(x).is_empty() {
                    Err(RuleError::NoLegalPartner)
                } else {
                    Ok(())
                }
            }
            (Ask::ChooseStartDoor, Action::From(d)) => {
                if self.options(ask).contains(&Action::From(d)) {
                    Ok(())
                } else {
                    Err(RuleError::NoPathFromStart)
                }
            }
            (
                Ask::ChooseStartDoor | Ask::ChooseStartCorridor(_),
                Action::Start(Start::Corridor(a, b)),
            ) => {
                if !self.lab_data().is_corridor(a, b) {
                    return Err(RuleError::NotACorridor);
                }
                match ask {
                    Ask::ChooseStartCorridor(d) if a != Place::Door(d) && b != Place::Door(d) => {
                        return Err(RuleError::CorridorNotAtDoor)
                    }
                    // A typed `start a-b` at P5 arrives as `from` + `start`; alone it is early.
                    Ask::ChooseStartDoor => return Err(RuleError::WrongPrompt),
                    _ => {}
                }
                self.check_corridor(a, b)
            }
            (Ask::ChooseStartExit, Action::Start(Start::Exit(k))) => {
                if !self.exit_free(k) {
                    Err(RuleError::ExitClosed)
                } else if Some(k) == self.target {
                    Err(RuleError::SameExit)
                } else if self.legal_partners(self.target.unwrap_or(0)).contains(&k) {
                    Ok(())
                } else {
                    Err(RuleError::NoPathFromStart)
                }
            }
            (Ask::Step, Action::Step(q)) => self.check_step(q),
            (Ask::ConfirmPath, Action::Step(_)) => Err(RuleError::PathAlreadyComplete),
            _ => Err(RuleError::WrongPrompt),
        }
    }

    /// A typed start corridor: it exists in this lab and leaves a path to the target.
    pub(crate) fn check_corridor(&self, a: Place, b: Place) -> Result<(), RuleError> {
        if !self.lab_data().is_corridor(a, b) {
            return Err(RuleError::NotACorridor);
        }
        let Some(x) = self.target else {
            return Err(RuleError::WrongPrompt);
        };
        let tt = self.to_target(x);
        if self.start_cost(&tt, Start::Corridor(a, b)).is_none() {
            return Err(RuleError::NoPathFromStart);
        }
        Ok(())
    }
}
