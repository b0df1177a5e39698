//! The options of each prompt, listed from the state.

use super::super::moves::Action;
use super::super::state::{Cortexcape, Piece, Place, Start};
use super::*;

impl Cortexcape {
    /// Legal tower destinations for the tower now on `from` (R4), ascending.
    pub(super) fn tower_destinations(&self) -> Vec<u8> {
        (1..=20u8)
            .filter(|&d| !self.is_tower(d) && !self.prev_towers.contains(&d))
            .collect()
    }

    /// Every legal option at `ask`, in canonical order.
    pub fn options(&self, ask: Ask) -> Vec<Action> {
        match ask {
            Ask::PlaceCylinder(door) => {
                let mut v: Vec<Action> = Piece::ALL
                    .into_iter()
                    .filter(|k| self.pool[k.index()] > 0)
                    .map(|kind| Action::Put { door, kind })
                    .collect();
                v.push(Action::Random);
                v
            }
            Ask::MoveTower(from) => {
                let mut v: Vec<Action> = self
                    .tower_destinations()
                    .into_iter()
                    .map(|to| Action::Tower { from, to })
                    .collect();
                v.push(Action::Random);
                v
            }
            Ask::ConfirmLayout => {
                if !self.short || self.any_legal_pair() {
                    vec![Action::Done, Action::Reset]
                } else {
                    vec![Action::Reset]
                }
            }
            Ask::ChooseExit => (1..=12u8)
                .filter(|&x| self.exit_free(x))
                .filter(|&x| !self.short || !self.legal_partners(x).is_empty())
                .map(Action::Exit)
                .collect(),
            Ask::ChooseStartDoor => {
                let legal = self
                    .target
                    .map(|x| self.legal_corridors(x))
                    .unwrap_or_default();
                (1..=20u8)
                    .filter(|&d| {
                        legal
                            .iter()
                            .any(|&(a, b)| a == Place::Door(d) || b == Place::Door(d))
                    })
                    .map(Action::From)
                    .collect()
            }
            Ask::ChooseStartCorridor(door) => {
                let legal = self
                    .target
                    .map(|x| self.legal_corridors(x))
                    .unwrap_or_default();
                let here = Place::Door(door);
                // Door-door corridors by the other door, then the exit corridor: the canonical
                // sort puts doors before exits, so sorting by the other end gives that order.
                let mut v: Vec<(Place, (Place, Place))> = legal
                    .into_iter()
                    .filter_map(|(a, b)| {
                        if a == here {
                            Some((b, (a, b)))
                        } else if b == here {
                            Some((a, (a, b)))
                        } else {
                            None
                        }
                    })
                    .collect();
                v.sort();
                v.into_iter()
                    .map(|(_, (a, b))| Action::Start(Start::Corridor(a, b)))
                    .collect()
            }
            Ask::ChooseStartExit => self
                .target
                .map(|x| self.legal_partners(x))
                .unwrap_or_default()
                .into_iter()
                .map(|k| Action::Start(Start::Exit(k)))
                .collect(),
            Ask::ConfirmChallenge | Ask::ConfirmPath => vec![Action::Done],
            Ask::Step => self
                .step_candidates()
                .into_iter()
                .filter(|&q| self.check_step(q).is_ok())
                .map(Action::Step)
                .collect(),
        }
    }

    /// Places a step may name at all: ends of the start, or neighbours of the last place.
    pub(super) fn step_candidates(&self) -> Vec<Place> {
        let mut v: Vec<Place> = match self.path.last() {
            None => match self.start {
                Some(Start::Corridor(a, b)) => vec![a, b],
                Some(Start::Exit(k)) => self
                    .data()
                    .exit_door(k)
                    .map(|d| vec![Place::Door(d)])
                    .unwrap_or_default(),
                None => Vec::new(),
            },
            Some(p) => self
                .lab_data()
                .neighbours(p.idx())
                .iter()
                .map(|&i| Place::from_idx(i))
                .collect(),
        };
        v.sort();
        v.dedup();
        v
    }
}
