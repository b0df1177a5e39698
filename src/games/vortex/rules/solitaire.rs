//! Solitaire in play: a rotation, and whether the puzzle is solved.

use super::*;

impl Vortex {
    pub(super) fn solo_apply(&mut self, action: Action, ev: &mut Vec<Event>) {
        let Action::Rot { tower, dir } = action else {
            return;
        };
        let moves = self.rotate(tower, dir);
        ev.push(Event::Rotated {
            seat: Seat(0),
            tower,
            dir,
            minority: false,
            moves,
        });
        self.rotations += 1;
        if self.solved() {
            ev.push(Event::PuzzleSolved {
                rotations: self.rotations,
            });
            self.win(vec![0], WinReason::Solved, ev);
        } else if self.rules.solo_limit && self.rotations >= SOLO_LIMIT {
            self.draw(DrawReason::RotationLimit, ev);
        }
    }

    /// R31: every router of colour i on the ring of target tower i.
    pub fn solved(&self) -> bool {
        self.sides
            .iter()
            .all(|s| self.colour_at(s.goal, s.colour) == 6)
    }
}
