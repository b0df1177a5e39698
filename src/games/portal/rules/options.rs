//! The options of each prompt (spec 6), in canonical order, and why an option not listed is refused.

use super::*;

impl Portal {
    // ----- options of each prompt -----

    /// Every legal option of a prompt step, in canonical order (spec 10.4).
    pub fn options(&self, step: &Step) -> Vec<Action> {
        let me = self.active;
        match step {
            Step::HandLimit => {
                let hand = &self.seat(me).hand;
                if hand.len() > self.hand_limit() {
                    hand.iter().map(|h| Action::Discard(h.card)).collect()
                } else {
                    Vec::new()
                }
            }
            Step::Deploy => self.deploy_options(),
            Step::PortalPlace { first, allow_old } => self
                .all_chambers()
                .into_iter()
                .filter(|&c| (*allow_old || !self.is_old_edge(c)) && Some(c) != *first)
                .map(Action::Portal)
                .collect(),
            Step::MoveSource(mode) => {
                let mut v: Vec<Action> = self
                    .chambers_where(|x| x.subj[me.index()] > 0)
                    .into_iter()
                    .filter(|&c| {
                        let m = if *mode == MoveMode::Group {
                            MoveMode::Group
                        } else {
                            MoveMode::Chell
                        };
                        !self.destinations(c, m).is_empty()
                    })
                    .map(|c| match mode {
                        MoveMode::Atlas { .. } => Action::From(c),
                        _ => Action::Move(c),
                    })
                    .collect();
                match mode {
                    MoveMode::Group => {
                        if self.is_char(Card::Announcer) {
                            v.push(Action::Pass);
                        }
                    }
                    _ => v.push(Action::Stop),
                }
                v
            }
            Step::MoveCount { from, .. } => {
                (1..=self.subj_at(*from, me)).map(Action::Count).collect()
            }
            Step::MoveDest { from, mode, .. } => {
                let m = if *mode == MoveMode::Group {
                    MoveMode::Group
                } else {
                    MoveMode::Chell
                };
                self.destinations(*from, m)
                    .into_iter()
                    .map(Action::To)
                    .collect()
            }
            Step::Carry {
                from,
                count,
                picked,
                ..
            } => {
                let cap = usize::from(self.carry_per_subject()) * usize::from(*count);
                let Some(src) = self.chamber(*from) else {
                    return Vec::new();
                };
                if cap == 0 || src.cakes() == 0 {
                    return Vec::new();
                }
                let mut v = Vec::new();
                if picked.len() < cap {
                    for s in self.seat_ids() {
                        let taken = picked.iter().filter(|&&p| p == s).count();
                        if usize::from(src.cake[s.index()]) > taken {
                            v.push(Action::Carry(s));
                        }
                    }
                }
                v.push(Action::CarryDone);
                v
            }
            Step::Bonus => {
                let mut v: Vec<Action> = if self.seat(me).subject_supply > 0 {
                    Floor::ALL
                        .into_iter()
                        .filter(|&f| self.new_edge(f).is_some_and(|c| self.can_enter(c)))
                        .map(Action::BonusFloor)
                        .collect()
                } else {
                    Vec::new()
                };
                if !self.is_char(Card::Fact) && self.hand_has_room(me) && self.can_draw() {
                    v.push(Action::BonusCard);
                }
                v
            }
            Step::Activate => self
                .activatable()
                .into_iter()
                .map(Action::Activate)
                .collect(),
            Step::Reward => self.reward_options(),
            Step::RecycleFloor => self
                .lifted
                .as_ref()
                .map(|l| self.recycle_floors(l.from))
                .unwrap_or_default()
                .into_iter()
                .map(Action::Recycle)
                .collect(),
            Step::Deliver { piece, owner, .. } => {
                let s = self.seat(*owner);
                let supply = match piece {
                    Piece::Subject => s.subject_supply,
                    Piece::Cake => s.cake_supply,
                };
                if supply == 0 {
                    return Vec::new();
                }
                Floor::ALL
                    .into_iter()
                    .filter(|&f| {
                        self.new_edge(f)
                            .is_some_and(|c| *piece == Piece::Cake || self.can_enter(c))
                    })
                    .map(Action::ToFloor)
                    .collect()
            }
            Step::WheatleyFrom => self
                .chambers_where(|x| x.subjects() > 0)
                .into_iter()
                .filter(|&c| !self.destinations(c, MoveMode::Chell).is_empty())
                .map(Action::From)
                .collect(),
            Step::WheatleyTo { from } => self
                .destinations(*from, MoveMode::Chell)
                .into_iter()
                .map(Action::To)
                .collect(),
            Step::CarolineFrom => self
                .chambers_where(|x| x.cake[me.index()] > 0)
                .into_iter()
                .map(Action::From)
                .collect(),
            Step::CarolineTo { .. } => Floor::ALL.into_iter().map(Action::ToFloor).collect(),
            Step::Kill { own, .. } => self
                .chambers_where(|x| {
                    if *own {
                        x.subj[me.index()] > 0
                    } else {
                        x.subjects() > 0
                    }
                })
                .into_iter()
                .map(Action::Kill)
                .collect(),
            Step::KillColour { at, .. } | Step::MoralityColour { from: at } => self
                .seat_ids()
                .filter(|&s| self.subj_at(*at, s) > 0)
                .map(Action::Colour)
                .collect(),
            Step::DougColour { from: at } | Step::AngerColour { at } => self
                .seat_ids()
                .filter(|&s| self.cake_at(*at, s) > 0)
                .map(Action::Colour)
                .collect(),
            Step::DougFrom => self
                .chambers_where(|x| x.cakes() > 0)
                .into_iter()
                .map(Action::From)
                .collect(),
            Step::DougTo { from, .. } => {
                self.neighbours(*from).into_iter().map(Action::To).collect()
            }
            Step::SpaceTo => {
                let mut v: Vec<Action> = self
                    .all_chambers()
                    .into_iter()
                    .filter(|&c| Some(c) != self.cube)
                    .map(Action::To)
                    .collect();
                if self.cube.is_some() {
                    v.push(Action::Remove);
                }
                v
            }
            Step::CuriosityTo { served, .. } => {
                if self.seat(me).subject_supply == 0 {
                    return Vec::new();
                }
                let mut v: Vec<Action> = self
                    .all_chambers()
                    .into_iter()
                    .filter(|c| self.portals.contains(c) && !served.contains(c))
                    .filter(|&c| self.can_enter(c))
                    .map(Action::To)
                    .collect();
                v.push(Action::Stop);
                v
            }
            Step::MoralityFrom => self
                .chambers_where(|x| x.subjects() > 0)
                .into_iter()
                .filter(|&c| !self.destinations(c, MoveMode::Chell).is_empty())
                .map(Action::From)
                .collect(),
            Step::OracleFlip => self.all_chambers().into_iter().map(Action::Flip).collect(),
            Step::OperaTurret => match self.turret {
                None => Floor::ALL.into_iter().map(Action::ToFloor).collect(),
                Some(t) => {
                    let mut v = Vec::new();
                    for i in self.turret_neighbours(t) {
                        v.push(i);
                        v.extend(self.turret_neighbours(i));
                    }
                    v.retain(|&c| c != t);
                    self.sort_canonical(&mut v);
                    v.into_iter().map(Action::To).collect()
                }
            },
            Step::GregPick => self
                .discard
                .iter()
                .rev()
                .map(|&c| Action::Pick(c))
                .collect(),
            Step::DefectiveRemove => {
                let mut v = Vec::new();
                if self.turret.is_some() {
                    v.push(Action::RemoveTurret);
                }
                if self.cube.is_some() {
                    v.push(Action::RemoveCube);
                }
                v
            }
            Step::FrankenMove => {
                let mut v: Vec<Action> = self
                    .turret
                    .map(|t| self.turret_neighbours(t))
                    .unwrap_or_default()
                    .into_iter()
                    .map(Action::Turret)
                    .collect();
                if let Some(q) = self.cube {
                    v.extend(self.physical_neighbours(q).into_iter().map(Action::Cube));
                }
                v
            }
            Step::AngerBurn => Floor::ALL
                .into_iter()
                .filter_map(|f| self.old_edge(f))
                .filter(|&c| self.chamber(c).is_some_and(|x| x.cakes() > 0))
                .map(Action::Burn)
                .collect(),
            Step::OperaBurn { .. } => self
                .chambers_where(|x| x.cake[me.index()] > 0)
                .into_iter()
                .map(Action::Burn)
                .collect(),
            Step::Vote => {
                let Some(v) = &self.vote else {
                    return Vec::new();
                };
                let mut o: Vec<Action> = v.tied.iter().map(|&s| Action::Vote(s)).collect();
                o.push(Action::Abstain);
                o
            }
            _ => Vec::new(),
        }
    }

    fn deploy_options(&self) -> Vec<Action> {
        let me = self.active;
        let hand = &self.seat(me).hand;
        let ready: Vec<Card> = hand.iter().filter(|h| !h.fresh).map(|h| h.card).collect();
        let mut v: Vec<Action> = ready.iter().map(|&c| Action::Play(c)).collect();
        v.extend(ready.iter().map(|&c| Action::Gun(c)));
        if self.is_char(Card::Cave) && !self.turn.cave_used {
            v.extend(
                self.chambers_where(|x| x.cake[me.index()] > 0)
                    .into_iter()
                    .map(Action::Burn),
            );
        }
        if self.is_char(Card::Greg) {
            v.extend(ready.iter().map(|&c| Action::Trade(c)));
        }
        if self.finale_ready() {
            v.push(Action::Opera);
        }
        v.push(Action::Done);
        v
    }

    fn finale_ready(&self) -> bool {
        self.is_char(Card::Opera)
            && self.cake_in_lab(self.active) >= 2
            && self.subjects_in_lab(self.active) >= 1
    }

    fn reward_options(&self) -> Vec<Action> {
        let Some(r) = self.turn.recipient else {
            return Vec::new();
        };
        let pending = &self.turn.pending;
        let has = |i: Icon| pending.contains(&i);
        let s = self.seat(r);
        let mut v = Vec::new();
        if has(Icon::Subject) && s.subject_supply > 0 {
            v.extend(
                Floor::ALL
                    .into_iter()
                    .filter(|&f| self.new_edge(f).is_some_and(|c| self.can_enter(c)))
                    .map(Action::Subject),
            );
        }
        if has(Icon::Cake) && s.cake_supply > 0 {
            v.extend(Floor::ALL.into_iter().map(Action::Cake));
        }
        if has(Icon::Card) && self.hand_has_room(r) && self.can_draw() {
            v.push(Action::TakeCard);
        }
        if has(Icon::Cube) {
            v.extend(self.all_chambers().into_iter().map(Action::Cube));
        }
        if has(Icon::Turret) {
            match self.turret {
                Some(t) => {
                    v.push(Action::TurretStay);
                    v.extend(self.turret_neighbours(t).into_iter().map(Action::Turret));
                }
                None => v.extend(Floor::ALL.into_iter().map(Action::TurretFloor)),
            }
        }
        v
    }

    /// Why `action` is refused at `step` (it is not among the options).
    pub fn why(&self, step: &Step, action: Action) -> RuleError {
        let me = self.active;
        let names_chamber = match action {
            Action::Burn(c)
            | Action::Portal(c)
            | Action::Move(c)
            | Action::To(c)
            | Action::Cube(c)
            | Action::Turret(c)
            | Action::From(c)
            | Action::Kill(c)
            | Action::Flip(c) => Some(c),
            _ => None,
        };
        if let Some(c) = names_chamber {
            if !self.exists(c) {
                return RuleError::NoSuchChamber;
            }
        }
        let in_hand = |c: Card| self.seat(me).hand.iter().find(|h| h.card == c).copied();
        match (step, action) {
            (Step::HandLimit, Action::Discard(_)) => RuleError::CardNotInHand,
            (Step::Deploy, Action::Play(c) | Action::Gun(c) | Action::Trade(c)) => {
                match in_hand(c) {
                    None => RuleError::CardNotInHand,
                    Some(h) if h.fresh => RuleError::CardIsFresh,
                    _ => RuleError::NotAllowedNow,
                }
            }
            (Step::Deploy, Action::Burn(c)) => {
                if !self.is_char(Card::Cave) {
                    RuleError::NotAllowedNow
                } else if self.turn.cave_used {
                    RuleError::AlreadyUsedThisTurn
                } else if self.cake_at(c, me) == 0 {
                    RuleError::NoSuchCake
                } else {
                    RuleError::NotAllowedNow
                }
            }
            (Step::Deploy, Action::Opera) => {
                if self.is_char(Card::Opera) {
                    RuleError::FinaleRequirementsUnmet
                } else {
                    RuleError::NotAllowedNow
                }
            }
            (Step::PortalPlace { first, .. }, Action::Portal(c)) => {
                if Some(c) == *first {
                    RuleError::SamePortalChamber
                } else {
                    RuleError::PortalOnOldEdge
                }
            }
            (Step::MoveSource(_), Action::Move(c) | Action::From(c)) => {
                if self.subj_at(c, me) == 0 {
                    RuleError::NoOwnSubjects
                } else {
                    RuleError::CannotEnter
                }
            }
            (Step::MoveCount { .. }, Action::Count(_)) => RuleError::CountOutOfRange,
            (
                Step::MoveDest { from, .. } | Step::WheatleyTo { from } | Step::DougTo { from, .. },
                Action::To(c),
            ) => {
                if self.neighbours(*from).contains(&c) || *from == c {
                    if *from == c {
                        RuleError::NotAdjacent
                    } else {
                        RuleError::CannotEnter
                    }
                } else {
                    RuleError::NotAdjacent
                }
            }
            (Step::Carry { .. }, Action::Carry(_)) => {
                if let Step::Carry { count, picked, .. } = step {
                    let cap = usize::from(self.carry_per_subject()) * usize::from(*count);
                    if picked.len() >= cap {
                        return RuleError::CarryLimit;
                    }
                }
                RuleError::NoSuchCake
            }
            (Step::Bonus, Action::BonusFloor(f)) => {
                if self.seat(me).subject_supply == 0 {
                    RuleError::NoSupply
                } else if self.new_edge(f).is_some_and(|c| !self.can_enter(c)) {
                    RuleError::CannotEnter
                } else {
                    RuleError::NotAllowedNow
                }
            }
            (Step::Bonus, Action::BonusCard) => {
                if self.is_char(Card::Fact) {
                    RuleError::NotAllowedNow
                } else if !self.hand_has_room(me) {
                    RuleError::HandFull
                } else {
                    RuleError::DeckEmpty
                }
            }
            (Step::Activate, Action::Activate(f)) => match self.old_edge(f) {
                Some(x) if !self.passes_split(x) => RuleError::WouldSplitLab,
                Some(_) => RuleError::MustActivateOccupied,
                None => RuleError::NoSuchChamber,
            },
            (Step::Reward, a) => self.why_reward(a),
            (Step::RecycleFloor, Action::Recycle(_)) => match &self.lifted {
                Some(l) if self.floor(l.from.f).len() < 3 => RuleError::FloorMustBeRefilled,
                _ => RuleError::FloorWouldSplit,
            },
            (Step::Deliver { owner, piece, .. }, Action::ToFloor(f)) => {
                let s = self.seat(*owner);
                let supply = match piece {
                    Piece::Subject => s.subject_supply,
                    Piece::Cake => s.cake_supply,
                };
                if supply == 0 {
                    RuleError::NoSupply
                } else if self.new_edge(f).is_some_and(|c| !self.can_enter(c)) {
                    RuleError::CannotEnter
                } else {
                    RuleError::NotAllowedNow
                }
            }
            (Step::Kill { own: true, .. }, Action::Kill(_)) => RuleError::NoOwnSubjects,
            (
                Step::CarolineFrom | Step::OperaBurn { .. } | Step::DougFrom | Step::AngerBurn,
                Action::From(c) | Action::Burn(c),
            ) => {
                if matches!(step, Step::AngerBurn) && !self.is_old_edge(c) {
                    RuleError::NotOldEdge
                } else {
                    RuleError::NoSuchCake
                }
            }
            (Step::DougColour { .. } | Step::AngerColour { .. }, Action::Colour(_)) => {
                RuleError::NoSuchCake
            }
            (Step::KillColour { .. } | Step::MoralityColour { .. }, Action::Colour(_)) => {
                RuleError::NoOwnSubjects
            }
            (Step::CuriosityTo { .. }, Action::To(c)) => {
                if self.portals.contains(&c) {
                    RuleError::CannotEnter
                } else {
                    RuleError::NotAdjacent
                }
            }
            (
                Step::OperaTurret | Step::FrankenMove,
                Action::To(_) | Action::Turret(_) | Action::Cube(_),
            ) => RuleError::NotAdjacent,
            (Step::GregPick, Action::Pick(_)) => RuleError::NoSuchCard,
            _ => RuleError::NotAllowedNow,
        }
    }

    fn why_reward(&self, a: Action) -> RuleError {
        let Some(r) = self.turn.recipient else {
            return RuleError::NotAllowedNow;
        };
        let has = |i: Icon| self.turn.pending.contains(&i);
        let s = self.seat(r);
        match a {
            Action::Subject(_) if has(Icon::Subject) && s.subject_supply == 0 => {
                RuleError::NoSupply
            }
            Action::Subject(_) if has(Icon::Subject) => RuleError::CannotEnter,
            Action::Cake(_) if has(Icon::Cake) => RuleError::NoSupply,
            Action::TakeCard if has(Icon::Card) && !self.hand_has_room(r) => RuleError::HandFull,
            Action::TakeCard if has(Icon::Card) => RuleError::DeckEmpty,
            Action::Turret(_) if has(Icon::Turret) => RuleError::NotAdjacent,
            _ => RuleError::NotAllowedNow,
        }
    }

    /// A prompt with no option: what happens instead (the "as far as possible" rule).
    pub(super) fn skip_empty(&mut self, step: &Step, log: &mut Log) {
        let me = self.active;
        match step {
            Step::MoveSource(MoveMode::Group) => log.push(Ev::MoveSkipped {
                seat: me,
                reason: SkipReason::NoLegalMove,
            }),
            Step::Carry { .. } => self.apply_move(step, log),
            Step::Bonus => {
                if self.is_char(Card::Fact) {
                    self.auto_take(me, log);
                } else {
                    log.push(Ev::BonusLost { seat: me });
                }
            }
            Step::Reward => {
                let r = self.turn.recipient.unwrap_or(me);
                for icon in std::mem::take(&mut self.turn.pending) {
                    let reason = match icon {
                        Icon::Card if !self.hand_has_room(r) => LostReason::HandFull,
                        Icon::Card => LostReason::DeckEmpty,
                        Icon::Subject if self.seat(r).subject_supply > 0 => LostReason::NoRoom,
                        _ => LostReason::NoSupply,
                    };
                    log.push(Ev::RewardLost {
                        seat: r,
                        icon,
                        reason,
                    });
                }
            }
            _ => {}
        }
    }
}
