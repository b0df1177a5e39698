//! The rules (spec sections 6-8): which options are legal, what they do, and how turns flow.
//! Every option is checked first (pure) and only then executed, so a refused option changes
//! nothing.

use super::board::geo;
use super::moves::{Action, Dir, DrawReason, EndReason, Event, Moved, WinReason};
use super::state::{Colour, Ending, Mode, Pending, Step, TurnLog, Vortex, SOLO_LIMIT};
use crate::engine::{Applied, Outcome, Seat};
use crate::i18n::Text;

/// A rule refuses the option (spec section 6.7). Fieldless, so messages never leak anything.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RuleError {
    #[error("you have no router at that tower")]
    NoRouterAtTower,
    #[error("you are outnumbered at that tower")]
    Outnumbered,
    #[error("another player has claimed that tower")]
    TowerClaimed,
    #[error("minority rotations are off in this game")]
    MinorityOff,
    #[error("you have no minority controller left")]
    NoMinorityControllerLeft,
    #[error("you may rotate that tower normally")]
    MinorityNotNeeded,
    #[error("no controller of yours rides on that space")]
    NoControllerThere,
    #[error("you need a majority at that tower to claim it")]
    NoMajority,
    #[error("that tower is already yours")]
    AlreadyYourTower,
    #[error("that space does not hold one of your routers")]
    NotYourRouter,
    #[error("that router already carries a controller")]
    DestinationHasController,
    #[error("your routers do not link those two spaces")]
    NotConnected,
    #[error("you have no controller on that tower")]
    NotYourTower,
    #[error("a recall must be the first action of a 4-action turn")]
    RecallNeedsFullTurn,
    #[error("play at least one action before ending the turn")]
    MustActFirst,
    #[error("your turn has no actions left")]
    NoActionsLeft,
    #[error("that option does not exist in this mode")]
    NotInThisMode,
    #[error("two or more cats guard that tower")]
    TooManyCats,
    #[error("the mouse is not at that tower")]
    MouseNotAtTower,
    #[error("the mouse was already there this turn")]
    RepeatedPosition,
    #[error("no cat stands at that tower")]
    NoCatAtTower,
    #[error("the cats may not undo the mouse's last move")]
    UndoesMouseMove,
    #[error("the captured controller cannot go there")]
    NotAPlacementSpace,
    #[error("place the captured controller first")]
    PlaceFirst,
    #[error("there is no captured controller to place")]
    NothingToPlace,
    #[error("with recall_to=tower the controller must land at that tower")]
    NotAtThatTower,
}

impl RuleError {
    pub fn code(self) -> &'static str {
        match self {
            RuleError::NoRouterAtTower => "no_router_at_tower",
            RuleError::Outnumbered => "outnumbered",
            RuleError::TowerClaimed => "tower_claimed",
            RuleError::MinorityOff => "minority_off",
            RuleError::NoMinorityControllerLeft => "no_minority_left",
            RuleError::MinorityNotNeeded => "minority_not_needed",
            RuleError::NoControllerThere => "no_controller_there",
            RuleError::NoMajority => "no_majority",
            RuleError::AlreadyYourTower => "already_your_tower",
            RuleError::NotYourRouter => "not_your_router",
            RuleError::DestinationHasController => "destination_has_controller",
            RuleError::NotConnected => "not_connected",
            RuleError::NotYourTower => "not_your_tower",
            RuleError::RecallNeedsFullTurn => "recall_needs_full_turn",
            RuleError::MustActFirst => "must_act_first",
            RuleError::NoActionsLeft => "no_actions_left",
            RuleError::NotInThisMode => "not_in_this_mode",
            RuleError::TooManyCats => "too_many_cats",
            RuleError::MouseNotAtTower => "mouse_not_at_tower",
            RuleError::RepeatedPosition => "repeated_position",
            RuleError::NoCatAtTower => "no_cat_at_tower",
            RuleError::UndoesMouseMove => "undoes_mouse_move",
            RuleError::NotAPlacementSpace => "not_a_placement_space",
            RuleError::PlaceFirst => "place_first",
            RuleError::NothingToPlace => "nothing_to_place",
            RuleError::NotAtThatTower => "not_at_that_tower",
        }
    }

    pub fn text(self) -> Text {
        Text::new(format!("vortex.error.{}", self.code()))
    }
}

/// Which prompt is pending.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ask {
    Action(usize),
    Place(usize),
    Mouse,
    Cats,
    Solo,
}

impl Ask {
    pub fn kind(self) -> &'static str {
        match self {
            Ask::Action(_) => "action",
            Ask::Place(_) => "place",
            Ask::Mouse => "mouse",
            Ask::Cats => "cats",
            Ask::Solo => "solo",
        }
    }
}

type Res = Result<(), RuleError>;

const DIRS: [Dir; 2] = [Dir::Cw, Dir::Ccw];

impl Vortex {
    pub fn ask(&self) -> Option<Ask> {
        if self.ending.is_some() {
            return None;
        }
        Some(match self.mode {
            Mode::Crossing | Mode::Advanced => match self.pending {
                Some(p) => Ask::Place(p.chooser),
                None => Ask::Action(self.current()),
            },
            Mode::Catmouse => {
                if self.catmouse.as_ref().is_some_and(|c| c.mouse_to_move) {
                    Ask::Mouse
                } else {
                    Ask::Cats
                }
            }
            Mode::Solitaire => Ask::Solo,
        })
    }

    pub fn ask_seat(&self, ask: Ask) -> Seat {
        match ask {
            Ask::Action(i) | Ask::Place(i) => self.sides[i].seat,
            Ask::Mouse => self.sides[0].seat,
            Ask::Cats => self.sides[1].seat,
            Ask::Solo => Seat(0),
        }
    }

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

    fn colour_at(&self, tower: u8, colour: Colour) -> u8 {
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

    fn race_check(&self, side: usize, action: &Action) -> Res {
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

    pub(super) fn mouse_space(&self) -> u8 {
        (1..=54u8)
            .find(|s| self.cell(*s).is_some_and(|r| r.colour == Colour::Red))
            .unwrap_or(1)
    }

    fn cats_at(&self, tower: u8) -> u8 {
        self.colour_at(tower, Colour::Black)
    }

    /// Where the contents of `space` go when `tower` turns (the space itself if not on it).
    pub(super) fn dest(tower: u8, dir: Dir, space: u8) -> u8 {
        let ring = geo().ring(tower);
        match ring.iter().position(|s| *s == space) {
            Some(k) => match dir {
                Dir::Cw => ring[(k + 1) % 6],
                Dir::Ccw => ring[(k + 5) % 6],
            },
            None => space,
        }
    }

    fn catmouse_check(&self, ask: Ask, action: &Action) -> Res {
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

    /// Checks an option for the pending prompt without changing anything.
    pub fn check(&self, ask: Ask, action: &Action) -> Res {
        match ask {
            Ask::Action(side) | Ask::Place(side) => self.race_check(side, action),
            Ask::Mouse | Ask::Cats => self.catmouse_check(ask, action),
            Ask::Solo => match action {
                Action::Rot { .. } => Ok(()),
                _ => Err(RuleError::NotInThisMode),
            },
        }
    }

    /// Every candidate option of a prompt, in canonical order.
    pub(super) fn candidates(&self, ask: Ask) -> Vec<Action> {
        let rots = |min: bool| {
            (0..19u8).flat_map(move |tower| {
                DIRS.into_iter().map(move |dir| {
                    if min {
                        Action::Min { tower, dir }
                    } else {
                        Action::Rot { tower, dir }
                    }
                })
            })
        };
        match ask {
            Ask::Place(_) => (1..=54u8).map(Action::Place).collect(),
            Ask::Mouse => {
                let mut v: Vec<Action> = rots(false).collect();
                v.push(Action::End);
                v
            }
            Ask::Cats | Ask::Solo => rots(false).collect(),
            Ask::Action(side) => {
                let mut v: Vec<Action> = rots(false).collect();
                if self.rules.minority {
                    v.extend(rots(true));
                }
                if self.mode == Mode::Advanced {
                    let me = self.sides[side].colour;
                    let mine = self.spaces_of(me);
                    let riding: Vec<u8> = mine
                        .iter()
                        .copied()
                        .filter(|s| self.cell(*s).is_some_and(|r| r.ctrl))
                        .collect();
                    for tower in 0..19u8 {
                        for from in geo().ring(tower) {
                            if riding.contains(from) {
                                v.push(Action::Claim { tower, from: *from });
                            }
                        }
                    }
                    for from in &riding {
                        for to in &mine {
                            v.push(Action::Ctrl {
                                from: *from,
                                to: *to,
                            });
                        }
                    }
                    for tower in 0..19u8 {
                        if self.claims[usize::from(tower)] == Some(me) {
                            for to in &mine {
                                v.push(Action::Recall { tower, to: *to });
                            }
                        }
                    }
                }
                v.push(Action::End);
                v
            }
        }
    }

    /// Every legal option of a prompt, in canonical order.
    pub fn options(&self, ask: Ask) -> Vec<Action> {
        self.candidates(ask)
            .into_iter()
            .filter(|a| self.check(ask, a).is_ok())
            .collect()
    }

    fn has_action_besides_end(&self, ask: Ask) -> bool {
        self.candidates(ask)
            .iter()
            .any(|a| *a != Action::End && self.check(ask, a).is_ok())
    }

    /// Applies one option for `seat`; on error nothing changed.
    pub fn play(&mut self, seat: Seat, action: &Action) -> Result<Applied<Event>, RuleError> {
        let Some(ask) = self.ask() else {
            return Err(RuleError::NoActionsLeft);
        };
        if self.ask_seat(ask) != seat {
            return Err(RuleError::NoActionsLeft);
        }
        self.check(ask, action)?;
        let mut events = Vec::new();
        let turn_before = self.turn_index;
        self.auto_ended = None;
        self.setup_log.clear();
        match ask {
            Ask::Action(side) => self.race_apply(side, *action, &mut events),
            Ask::Place(_) => self.place_apply(*action, &mut events),
            Ask::Mouse => self.mouse_apply(*action, &mut events),
            Ask::Cats => self.cats_apply(*action, &mut events),
            Ask::Solo => self.solo_apply(*action, &mut events),
        }
        // Undo stops at a turn's end (B2), at a victim's placement (B3) and, in Solitaire
        // without undo, at every rotation.
        let turn_over = self.ending.is_some() || self.turn_index != turn_before;
        let barrier = match ask {
            Ask::Solo => turn_over || !self.rules.solo_undo,
            Ask::Place(_) => turn_over || self.rules.victim_places,
            _ => turn_over,
        };
        Ok(Applied { events, barrier })
    }

    fn rotate(&mut self, tower: u8, dir: Dir) -> Vec<Moved> {
        let ring = *geo().ring(tower);
        let old: Vec<_> = ring.iter().map(|s| self.cell(*s)).collect();
        let mut moves = Vec::new();
        for (k, s) in ring.iter().enumerate() {
            let to = Self::dest(tower, dir, *s);
            *self.cell_mut(to) = old[k];
            if let Some(r) = old[k] {
                moves.push(Moved {
                    from: *s,
                    to,
                    colour: r.colour,
                    ctrl: r.ctrl,
                });
            }
        }
        self.last_moved = moves.iter().map(|m| m.to).collect();
        self.this_turn.steps.push(Step {
            tower,
            dir,
            minority: false,
        });
        moves
    }

    fn race_apply(&mut self, side: usize, action: Action, ev: &mut Vec<Event>) {
        let seat = self.sides[side].seat;
        self.skips = 0;
        match action {
            Action::Rot { tower, dir } | Action::Min { tower, dir } => {
                let minority = matches!(action, Action::Min { .. });
                if minority {
                    let left = self.sides[side].minority_left - 1;
                    self.sides[side].minority_left = left;
                    ev.push(Event::MinoritySpent { seat, left });
                }
                let moves = self.rotate(tower, dir);
                if let Some(last) = self.this_turn.steps.last_mut() {
                    last.minority = minority;
                }
                ev.push(Event::Rotated {
                    seat,
                    tower,
                    dir,
                    minority,
                    moves,
                });
                self.finish_check(side, ev);
                if self.ending.is_some() {
                    return;
                }
            }
            Action::Claim { tower, from } => {
                if let Some(r) = self.cell_mut(from) {
                    r.ctrl = false;
                }
                let prev = self.claims[usize::from(tower)];
                self.claims[usize::from(tower)] = Some(self.sides[side].colour);
                let victim = prev.and_then(|c| self.side_of(c));
                ev.push(Event::Claimed {
                    seat,
                    tower,
                    from,
                    captured_from: victim.map(|v| self.sides[v].seat),
                });
                self.this_turn.other.push(format!(
                    "claim {} {from}",
                    super::board::tower_letter(tower)
                ));
                if let Some(v) = victim {
                    let chooser = if self.rules.victim_places { v } else { side };
                    self.pending = Some(Pending {
                        victim: v,
                        chooser,
                        capturer: side,
                    });
                    let only = self.options(Ask::Place(chooser));
                    if only.len() == 1 {
                        self.place_apply(only[0], ev);
                    }
                    return;
                }
            }
            Action::Ctrl { from, to } => {
                if let Some(r) = self.cell_mut(from) {
                    r.ctrl = false;
                }
                if let Some(r) = self.cell_mut(to) {
                    r.ctrl = true;
                }
                ev.push(Event::ControllerMoved { seat, from, to });
                self.this_turn.other.push(format!("ctrl {from} {to}"));
            }
            Action::Recall { tower, to } => {
                self.claims[usize::from(tower)] = None;
                if let Some(r) = self.cell_mut(to) {
                    r.ctrl = true;
                }
                ev.push(Event::Recalled { seat, tower, to });
                self.this_turn
                    .other
                    .push(format!("recall {} {to}", super::board::tower_letter(tower)));
                self.end_turn(EndReason::Recall, ev);
                return;
            }
            Action::End => {
                self.this_turn.other.push("end".into());
                self.end_turn(EndReason::Passed, ev);
                return;
            }
            Action::Place(_) => return,
        }
        self.after_action(ev);
    }

    fn place_apply(&mut self, action: Action, ev: &mut Vec<Event>) {
        let (Some(p), Action::Place(space)) = (self.pending, action) else {
            return;
        };
        if let Some(r) = self.cell_mut(space) {
            r.ctrl = true;
        }
        self.pending = None;
        ev.push(Event::ControllerPlaced {
            owner: self.sides[p.victim].seat,
            space,
            chosen_by: self.sides[p.chooser].seat,
        });
        self.after_action(ev);
    }

    /// Steps 3-6 of "after each action" (spec section 6.2).
    fn after_action(&mut self, ev: &mut Vec<Event>) {
        self.used += 1;
        if self.used >= self.allowance {
            if !self.rules.confirm_end {
                self.end_turn(EndReason::AllowanceUsed, ev);
            }
        } else if !self.rules.confirm_end
            && !self.has_action_besides_end(Ask::Action(self.current()))
        {
            self.end_turn(EndReason::NoMoreActions, ev);
        }
    }

    fn end_turn(&mut self, reason: EndReason, ev: &mut Vec<Event>) {
        let side = self.current();
        let seat = self.sides[side].seat;
        ev.push(Event::TurnEnded { seat, reason });
        if reason != EndReason::Passed && reason != EndReason::Recall {
            self.auto_ended = Some(seat);
        }
        self.prev_turn = Some(std::mem::take(&mut self.this_turn));
        self.turn_index += 1;
        self.start_turn(ev);
    }

    /// Turn start (spec section 6.2): round limit, allowance, skips.
    pub fn start_turn(&mut self, ev: &mut Vec<Event>) {
        loop {
            let n = u32::try_from(self.sides.len()).unwrap_or(1);
            if self.rules.max_rounds > 0 && self.turn_index >= self.rules.max_rounds * n {
                self.draw(DrawReason::RoundLimit, ev);
                return;
            }
            self.allowance = u8::try_from((self.turn_index + 1).min(4)).unwrap_or(4);
            self.used = 0;
            let side = self.current();
            self.this_turn = TurnLog {
                side,
                ..TurnLog::default()
            };
            let seat = self.sides[side].seat;
            if self.has_action_besides_end(Ask::Action(side)) {
                ev.push(Event::TurnStarted {
                    seat,
                    allowance: self.allowance,
                });
                return;
            }
            ev.push(Event::TurnSkipped { seat });
            self.skips += 1;
            if usize::from(self.skips) >= self.sides.len() {
                self.draw(DrawReason::Deadlock, ev);
                return;
            }
            self.turn_index += 1;
        }
    }

    fn complete(&self, side: usize) -> bool {
        self.in_goal(side) >= self.rules.goal_count
    }

    /// R19-R22: after every rotation, whoever made it.
    fn finish_check(&mut self, mover: usize, ev: &mut Vec<Event>) {
        let n = self.sides.len();
        if !self.rules.teams {
            let done: Vec<usize> = (0..n).filter(|i| self.complete(*i)).collect();
            if done.is_empty() {
                return;
            }
            let winners = if done.contains(&mover) {
                vec![mover]
            } else {
                done
            };
            self.win(winners, WinReason::Goal, ev);
            return;
        }
        if !self.rules.together {
            for i in 0..n {
                if !self.sides[i].finished && self.complete(i) {
                    self.sides[i].finished = true;
                    ev.push(Event::PlayerFinished {
                        seat: self.sides[i].seat,
                    });
                }
            }
        }
        let team_done = |t: u8| {
            self.sides
                .iter()
                .enumerate()
                .filter(|(_, s)| s.team == Some(t))
                .all(|(i, s)| {
                    if self.rules.together {
                        self.complete(i)
                    } else {
                        s.finished
                    }
                })
        };
        let mut teams: Vec<u8> = self.sides.iter().filter_map(|s| s.team).collect();
        teams.dedup();
        let done: Vec<u8> = teams.into_iter().filter(|t| team_done(*t)).collect();
        if done.is_empty() {
            return;
        }
        let mt = self.sides[mover].team;
        let win_teams: Vec<u8> = match mt {
            Some(t) if done.contains(&t) => vec![t],
            _ => done,
        };
        let winners = (0..n)
            .filter(|i| self.sides[*i].team.is_some_and(|t| win_teams.contains(&t)))
            .collect();
        self.win(winners, WinReason::Goal, ev);
    }

    fn win(&mut self, sides: Vec<usize>, reason: WinReason, ev: &mut Vec<Event>) {
        let mut seats: Vec<Seat> = sides.iter().map(|i| self.sides[*i].seat).collect();
        seats.sort();
        seats.dedup();
        ev.push(Event::GameWon {
            seats: seats.clone(),
            reason,
        });
        self.outcome = Some(if self.mode == Mode::Solitaire {
            Outcome {
                scores: vec![i64::from(self.rotations)],
                ranks: vec![1],
                winners: vec![Seat(0)],
                draw: false,
            }
        } else if self.seats == 1 {
            // Cat & Mouse played alone (both sides): the result is the mouse's.
            let mouse = reason == WinReason::Pantry;
            Outcome {
                scores: vec![i64::from(mouse)],
                ranks: vec![1],
                winners: if mouse { vec![Seat(0)] } else { Vec::new() },
                draw: false,
            }
        } else {
            let scores = (0..self.seats)
                .map(|s| i64::from(seats.contains(&Seat(s))))
                .collect();
            Outcome::from_scores(scores, false)
        });
        self.ending = Some(Ending::Won { sides, reason });
        self.pending = None;
    }

    fn draw(&mut self, reason: DrawReason, ev: &mut Vec<Event>) {
        ev.push(Event::GameDrawn { reason });
        self.outcome = Some(if self.seats == 1 {
            Outcome {
                scores: vec![0],
                ranks: vec![1],
                winners: Vec::new(),
                draw: self.mode != Mode::Solitaire,
            }
        } else {
            let mut o = Outcome::from_scores(vec![0; usize::from(self.seats)], false);
            o.draw = true;
            o.winners.clear();
            o
        });
        self.ending = Some(Ending::Drawn(reason));
    }

    /// R27 then R28, after every Cat & Mouse rotation. True when the game ended.
    fn catmouse_end_check(&mut self, ev: &mut Vec<Event>) -> bool {
        let m = self.mouse_space();
        let pantry = self
            .catmouse
            .as_ref()
            .is_some_and(|c| c.pantry.contains(&m));
        if pantry {
            ev.push(Event::MouseReachedPantry { space: m });
            self.win(vec![0], WinReason::Pantry, ev);
            return true;
        }
        let trapped = geo().space(m).towers.iter().all(|t| self.cats_at(*t) >= 2);
        if trapped {
            ev.push(Event::MouseTrapped { space: m });
            self.win(vec![1], WinReason::Trapped, ev);
            return true;
        }
        false
    }

    fn mouse_apply(&mut self, action: Action, ev: &mut Vec<Event>) {
        let seat = self.sides[0].seat;
        match action {
            Action::Rot { tower, dir } => {
                let moves = self.rotate(tower, dir);
                let cat_moved = moves.iter().any(|m| m.colour == Colour::Black);
                ev.push(Event::Rotated {
                    seat,
                    tower,
                    dir,
                    minority: false,
                    moves,
                });
                if let Some(cm) = self.catmouse.as_mut() {
                    cm.rotations += 1;
                    cm.turn_last = Some((tower, dir));
                }
                if self.catmouse_end_check(ev) {
                    return;
                }
                if cat_moved {
                    self.end_mouse_turn(EndReason::CatMoved, ev);
                    return;
                }
                let m = self.mouse_space();
                if let Some(cm) = self.catmouse.as_mut() {
                    cm.visited.push(m);
                }
                if !self.has_action_besides_end(Ask::Mouse) {
                    self.end_mouse_turn(EndReason::NoMoreActions, ev);
                }
            }
            Action::End => {
                self.this_turn.other.push("end".into());
                self.end_mouse_turn(EndReason::Passed, ev);
            }
            _ => {}
        }
    }

    fn end_mouse_turn(&mut self, reason: EndReason, ev: &mut Vec<Event>) {
        let seat = self.sides[0].seat;
        ev.push(Event::TurnEnded { seat, reason });
        if reason != EndReason::Passed {
            self.auto_ended = Some(seat);
        }
        if let Some(cm) = self.catmouse.as_mut() {
            cm.last_mouse = cm.turn_last;
            cm.mouse_to_move = false;
        }
        self.prev_turn = Some(std::mem::take(&mut self.this_turn));
        self.this_turn.side = 1;
        self.turn_index += 1;
        ev.push(Event::TurnStarted {
            seat: self.sides[1].seat,
            allowance: 1,
        });
    }

    fn cats_apply(&mut self, action: Action, ev: &mut Vec<Event>) {
        let Action::Rot { tower, dir } = action else {
            return;
        };
        let seat = self.sides[1].seat;
        let moves = self.rotate(tower, dir);
        ev.push(Event::Rotated {
            seat,
            tower,
            dir,
            minority: false,
            moves,
        });
        if self.catmouse_end_check(ev) {
            return;
        }
        ev.push(Event::TurnEnded {
            seat,
            reason: EndReason::CatsMoved,
        });
        self.auto_ended = Some(seat);
        self.prev_turn = Some(std::mem::take(&mut self.this_turn));
        self.turn_index += 1;
        self.start_mouse_turn(ev);
    }

    /// A round starts with the mouse (spec section 6.3); the round limit is checked here.
    pub fn start_mouse_turn(&mut self, ev: &mut Vec<Event>) {
        if self.rules.max_rounds > 0 && self.turn_index >= 2 * self.rules.max_rounds {
            self.draw(DrawReason::RoundLimit, ev);
            return;
        }
        let m = self.mouse_space();
        if let Some(cm) = self.catmouse.as_mut() {
            cm.mouse_to_move = true;
            cm.visited = vec![m];
            cm.rotations = 0;
            cm.turn_last = None;
        }
        self.this_turn = TurnLog::default();
        ev.push(Event::TurnStarted {
            seat: self.sides[0].seat,
            allowance: 0,
        });
    }

    fn solo_apply(&mut self, action: Action, ev: &mut Vec<Event>) {
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
