//! The checks (pure): what a tower holds, who may turn it, and why an option is refused, in every mode.

use super::*;

impl Vortex {
    /// The grouping key of a colour for counts: its team when counts are pooled.
    fn key(&self, colour: Colour) -> usize {
        if self.rules.pooled && self.rules.teams {
            if let Some(t) = self.side_of(colour).and_then(|i| self.sides[i].team) {
                return 8 + usize::from(t);
            }
        }
        colour.index()
    }

    /// Router counts at a tower by key, and the total.
    fn counts(&self, tower: u8) -> ([u8; 12], u8) {
        let mut c = [0u8; 12];
        let mut total = 0;
        for s in geo().ring(tower) {
            if let Some(r) = self.cell(*s) {
                c[self.key(r.colour)] += 1;
                total += 1;
            }
        }
        (c, total)
    }

    pub(super) fn colour_at(&self, tower: u8, colour: Colour) -> u8 {
        let n = geo()
            .ring(tower)
            .iter()
            .filter(|s| self.cell(**s).is_some_and(|r| r.colour == colour))
            .count();
        u8::try_from(n).unwrap_or(0)
    }

    fn claimed_by_other(&self, side: usize, tower: u8) -> bool {
        let me = self.sides[side].colour;
        self.claims[usize::from(tower)].is_some_and(|c| self.key(c) != self.key(me))
    }

    fn owns(&self, side: usize, tower: u8) -> bool {
        let me = self.sides[side].colour;
        self.claims[usize::from(tower)].is_some_and(|c| self.key(c) == self.key(me))
    }

    /// Normal rotation right (R5-R8).
    fn rot_right(&self, side: usize, tower: u8) -> Res {
        if self.mode == Mode::Advanced && self.claimed_by_other(side, tower) {
            return Err(RuleError::TowerClaimed);
        }
        let me = self.key(self.sides[side].colour);
        let (c, total) = self.counts(tower);
        let own = c[me];
        if own == 0 {
            return if self.rules.empty_rotation && total == 0 {
                Ok(())
            } else {
                Err(RuleError::NoRouterAtTower)
            };
        }
        if self.mode == Mode::Advanced && self.rules.owner_free && self.owns(side, tower) {
            return Ok(());
        }
        let ok = if self.rules.half {
            2 * own >= total
        } else {
            c.iter().enumerate().all(|(k, n)| k == me || *n <= own)
        };
        if ok {
            Ok(())
        } else {
            Err(RuleError::Outnumbered)
        }
    }

    pub(super) fn race_check(&self, side: usize, action: &Action) -> Res {
        let advanced = self.mode == Mode::Advanced;
        if let Some(p) = self.pending {
            return match *action {
                Action::Place(s) => {
                    let v = self.sides[p.victim].colour;
                    match self.cell(s) {
                        Some(r) if r.colour == v && !r.ctrl => Ok(()),
                        _ => Err(RuleError::NotAPlacementSpace),
                    }
                }
                _ => Err(RuleError::PlaceFirst),
            };
        }
        let spent = self.used >= self.allowance;
        match *action {
            Action::End => {
                if self.used == 0 {
                    Err(RuleError::MustActFirst)
                } else {
                    Ok(())
                }
            }
            _ if spent => Err(RuleError::NoActionsLeft),
            Action::Place(_) => Err(RuleError::NothingToPlace),
            Action::Rot { tower, .. } => self.rot_right(side, tower),
            Action::Min { tower, .. } => {
                if !self.rules.minority {
                    return Err(RuleError::MinorityOff);
                }
                if self.sides[side].minority_left == 0 {
                    return Err(RuleError::NoMinorityControllerLeft);
                }
                if self.colour_at(tower, self.sides[side].colour) == 0 {
                    return Err(RuleError::NoRouterAtTower);
                }
                match self.rot_right(side, tower) {
                    Ok(()) => Err(RuleError::MinorityNotNeeded),
                    Err(RuleError::Outnumbered | RuleError::TowerClaimed) => Ok(()),
                    Err(e) => Err(e),
                }
            }
            Action::Claim { tower, from } => {
                if !advanced {
                    return Err(RuleError::NotInThisMode);
                }
                if self.owns(side, tower) {
                    return Err(RuleError::AlreadyYourTower);
                }
                let me = self.sides[side].colour;
                let rides = self.cell(from).is_some_and(|r| r.colour == me && r.ctrl);
                if !rides || !geo().ring(tower).contains(&from) {
                    return Err(RuleError::NoControllerThere);
                }
                let k = self.key(me);
                let (c, total) = self.counts(tower);
                let own = c[k];
                let ok = if self.rules.absolute {
                    2 * own > total
                } else {
                    c.iter().enumerate().all(|(j, n)| j == k || *n < own)
                };
                if ok {
                    Ok(())
                } else {
                    Err(RuleError::NoMajority)
                }
            }
            Action::Ctrl { from, to } => {
                if !advanced {
                    return Err(RuleError::NotInThisMode);
                }
                let me = self.sides[side].colour;
                if !self.cell(from).is_some_and(|r| r.colour == me && r.ctrl) {
                    return Err(RuleError::NoControllerThere);
                }
                self.free_router(me, to)?;
                if self.linked(me, from).contains(&to) {
                    Ok(())
                } else {
                    Err(RuleError::NotConnected)
                }
            }
            Action::Recall { tower, to } => {
                if !advanced {
                    return Err(RuleError::NotInThisMode);
                }
                let me = self.sides[side].colour;
                if self.claims[usize::from(tower)] != Some(me) {
                    return Err(RuleError::NotYourTower);
                }
                if self.used != 0 || self.allowance < 4 {
                    return Err(RuleError::RecallNeedsFullTurn);
                }
                self.free_router(me, to)?;
                if self.rules.recall_tower && !geo().ring(tower).contains(&to) {
                    return Err(RuleError::NotAtThatTower);
                }
                Ok(())
            }
        }
    }

    /// Space `s` holds a router of `colour` that carries no controller.
    fn free_router(&self, colour: Colour, s: u8) -> Res {
        match self.cell(s) {
            Some(r) if r.colour == colour && r.ctrl => Err(RuleError::DestinationHasController),
            Some(r) if r.colour == colour => Ok(()),
            _ => Err(RuleError::NotYourRouter),
        }
    }

    /// Spaces joined to `from` by a chain of routers of `colour` (R16).
    fn linked(&self, colour: Colour, from: u8) -> Vec<u8> {
        let g = geo();
        let mut seen = vec![from];
        let mut i = 0;
        while i < seen.len() {
            let s = seen[i];
            i += 1;
            let near: Vec<u8> = if self.rules.link_tower {
                g.space(s)
                    .towers
                    .iter()
                    .flat_map(|t| g.ring(*t).iter().copied())
                    .collect()
            } else {
                g.space(s).edges.clone()
            };
            for n in near {
                if !seen.contains(&n) && self.cell(n).is_some_and(|r| r.colour == colour) {
                    seen.push(n);
                }
            }
        }
        seen
    }

    pub(in crate::games::vortex) fn mouse_space(&self) -> u8 {
        (1..=54u8)
            .find(|s| self.cell(*s).is_some_and(|r| r.colour == Colour::Red))
            .unwrap_or(1)
    }

    pub(super) fn cats_at(&self, tower: u8) -> u8 {
        self.colour_at(tower, Colour::Black)
    }

    /// Where the contents of `space` go when `tower` turns (the space itself if not on it).
    pub(in crate::games::vortex) fn dest(tower: u8, dir: Dir, space: u8) -> u8 {
        let ring = geo().ring(tower);
        match ring.iter().position(|s| *s == space) {
            Some(k) => match dir {
                Dir::Cw => ring[(k + 1) % 6],
                Dir::Ccw => ring[(k + 5) % 6],
            },
            None => space,
        }
    }

    pub(super) fn catmouse_check(&self, ask: Ask, action: &Action) -> Res {
        let Some(cm) = &self.catmouse else {
            return Err(RuleError::NotInThisMode);
        };
        match (*action, ask) {
            (Action::End, Ask::Mouse) => {
                if cm.rotations == 0 {
                    Err(RuleError::MustActFirst)
                } else {
                    Ok(())
                }
            }
            (Action::End, _) => Err(RuleError::MustActFirst),
            (Action::Rot { tower, dir }, Ask::Mouse) => {
                let m = self.mouse_space();
                if !geo().ring(tower).contains(&m) {
                    return Err(RuleError::MouseNotAtTower);
                }
                let cats = self.cats_at(tower);
                if cats > 1 {
                    return Err(RuleError::TooManyCats);
                }
                if cats == 0 && cm.visited.contains(&Self::dest(tower, dir, m)) {
                    return Err(RuleError::RepeatedPosition);
                }
                Ok(())
            }
            (Action::Rot { tower, dir }, _) => {
                if self.cats_at(tower) == 0 {
                    return Err(RuleError::NoCatAtTower);
                }
                if cm.last_mouse == Some((tower, dir.flip())) {
                    return Err(RuleError::UndoesMouseMove);
                }
                Ok(())
            }
            _ => Err(RuleError::NotInThisMode),
        }
    }
}
