//! The rules: prompts and their options, checks (pure), execution (events), path search.
//! Every `apply` checks first and mutates only after every check passed.

use super::lab::{data, Data, Lab};
use super::moves::{Action, Event, HindsightInfo};
use super::state::{Cortexcape, Piece, Place, RoundRecord, Stage, Start, DOORS, PLACES};
use crate::engine::{Applied, Outcome, Seat};
use crate::i18n::Text;

/// Why a decision is not legal here (spec section 6.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
pub enum RuleError {
    #[error("that option belongs to another step of the game")]
    WrongPrompt,
    #[error("it is not your turn")]
    NotYourTurn,
    #[error("that is not the door being asked about")]
    WrongDoor,
    #[error("the owner holds no piece of that kind")]
    KindNotInPool,
    #[error("a tower already stands on that door")]
    HoldsTower,
    #[error("that door was blocked last round; a tower may not go back there")]
    BlockedLastRound,
    #[error("no start and exit would leave a path: change the layout")]
    NoLegalChallenge,
    #[error("a layout can only be typed before any other choice of this step")]
    LayoutNotAtStart,
    #[error("the layout names a door twice")]
    LayoutDoorTwice,
    #[error("the layout names a door that was not emptied last round")]
    NotAnEmptiedDoor,
    #[error("the layout does not use exactly the pieces in hand")]
    LayoutCountMismatch,
    #[error("that exit already holds a marble")]
    ExitClosed,
    #[error("no other free exit can be joined to that exit")]
    NoLegalPartner,
    #[error("there is no such corridor in this lab")]
    NotACorridor,
    #[error("no path leads from that start to the exit")]
    NoPathFromStart,
    #[error("that corridor does not touch the chosen door")]
    CorridorNotAtDoor,
    #[error("start and exit must be two different exits")]
    SameExit,
    #[error("that place is not next to where the path stands")]
    NotAdjacent,
    #[error("that exit is not the one to reach")]
    WrongExit,
    #[error("a tower blocks that door")]
    TowerDoor,
    #[error("the path already passed that place")]
    AlreadyVisited,
    #[error("from there the exit can no longer be reached")]
    DeadEnd,
    #[error("the path already reached the exit")]
    PathAlreadyComplete,
}

impl RuleError {
    /// Catalog key under `cortexcape.error.`.
    pub fn key(self) -> &'static str {
        match self {
            RuleError::WrongPrompt => "wrong_prompt",
            RuleError::NotYourTurn => "not_your_turn",
            RuleError::WrongDoor => "wrong_door",
            RuleError::KindNotInPool => "kind_not_in_pool",
            RuleError::HoldsTower => "holds_tower",
            RuleError::BlockedLastRound => "blocked_last_round",
            RuleError::NoLegalChallenge => "no_legal_challenge",
            RuleError::LayoutNotAtStart => "layout_not_at_start",
            RuleError::LayoutDoorTwice => "layout_door_twice",
            RuleError::NotAnEmptiedDoor => "not_an_emptied_door",
            RuleError::LayoutCountMismatch => "layout_count_mismatch",
            RuleError::ExitClosed => "exit_closed",
            RuleError::NoLegalPartner => "no_legal_partner",
            RuleError::NotACorridor => "not_a_corridor",
            RuleError::NoPathFromStart => "no_path_from_start",
            RuleError::CorridorNotAtDoor => "corridor_not_at_door",
            RuleError::SameExit => "same_exit",
            RuleError::NotAdjacent => "not_adjacent",
            RuleError::WrongExit => "wrong_exit",
            RuleError::TowerDoor => "tower_door",
            RuleError::AlreadyVisited => "already_visited",
            RuleError::DeadEnd => "dead_end",
            RuleError::PathAlreadyComplete => "path_already_complete",
        }
    }

    pub fn text(self) -> Text {
        Text::new(format!("cortexcape.error.{}", self.key()))
    }
}

/// The pending prompt, derived from the state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ask {
    PlaceCylinder(u8),
    MoveTower(u8),
    ConfirmLayout,
    ChooseExit,
    ChooseStartDoor,
    ChooseStartCorridor(u8),
    ChooseStartExit,
    ConfirmChallenge,
    Step,
    ConfirmPath,
}

impl Ask {
    pub fn kind(self) -> &'static str {
        match self {
            Ask::PlaceCylinder(_) => "place_cylinder",
            Ask::MoveTower(_) => "move_tower",
            Ask::ConfirmLayout => "confirm_layout",
            Ask::ChooseExit => "choose_exit",
            Ask::ChooseStartDoor => "choose_start_door",
            Ask::ChooseStartCorridor(_) => "choose_start_corridor",
            Ask::ChooseStartExit => "choose_start_exit",
            Ask::ConfirmChallenge => "confirm_challenge",
            Ask::Step => "step",
            Ask::ConfirmPath => "confirm_path",
        }
    }
}

/// Cost of an unreachable place in path searches.
pub const INF: i64 = i64::MAX / 4;

/// Result of a reverse Dijkstra towards one exit: `dist[i]` = cheapest cost of a path that
/// starts at place i (its value included) and ends at the target; `next[i]` = where it goes.
pub struct ToTarget {
    pub dist: [i64; PLACES],
    next: [usize; PLACES],
}

impl ToTarget {
    /// The cheapest path from place `from` (inclusive) to the target, if any.
    pub fn path_from(&self, from: usize) -> Option<Vec<Place>> {
        if self.dist.get(from).copied().unwrap_or(INF) >= INF {
            return None;
        }
        let mut out = vec![Place::from_idx(from)];
        let mut at = from;
        while self.next[at] != at {
            at = self.next[at];
            out.push(Place::from_idx(at));
            if out.len() > PLACES {
                return None;
            }
        }
        Some(out)
    }
}

impl Cortexcape {
    pub(crate) fn data(&self) -> &'static Data {
        // `setup` refuses to build a game when the data file is broken, so a live state
        // always has its data.
        match data() {
            Ok(d) => d,
            Err(e) => unreachable!("cortexcape data checked at setup: {e}"),
        }
    }

    pub(crate) fn lab_data(&self) -> &'static Lab {
        self.data().lab(self.lab)
    }

    fn value_at(&self, i: usize) -> i64 {
        self.board.get(i).copied().flatten().map_or(0, Piece::value)
    }

    /// A door without a tower, or the target exit.
    fn passable(&self, i: usize, target: usize) -> bool {
        if i < DOORS {
            self.board.get(i).copied().flatten() != Some(Piece::Tower)
        } else {
            i == target
        }
    }

    /// Reverse Dijkstra with node weights from exit `x` (spec 4.6). Values are 0..=3 and the
    /// whole board holds 16 points, so a bucket queue (Dial's algorithm) does it in O(E).
    pub fn to_target(&self, x: u8) -> ToTarget {
        let lab = self.lab_data();
        let t = Place::Exit(x).idx();
        let mut dist = [INF; PLACES];
        let mut next = [0usize; PLACES];
        if t >= PLACES {
            return ToTarget { dist, next };
        }
        let mut value = [0i64; PLACES];
        let mut open = [false; PLACES];
        let mut total = 0i64;
        for (i, p) in self.board.iter().enumerate() {
            value[i] = p.map_or(0, Piece::value);
            open[i] = *p != Some(Piece::Tower);
            total += value[i];
        }
        open[t] = true;
        let mut buckets: Vec<Vec<usize>> =
            vec![Vec::new(); usize::try_from(total).unwrap_or(0) + 1];
        dist[t] = 0;
        next[t] = t;
        buckets[0].push(t);
        let mut level = 0usize;
        while level < buckets.len() {
            let Some(u) = buckets[level].pop() else {
                level += 1;
                continue;
            };
            if usize::try_from(dist[u]).ok() != Some(level) {
                continue;
            }
            for &v in lab.neighbours(u) {
                if !open[v] {
                    continue;
                }
                let nd = dist[u] + value[v];
                if nd < dist[v] {
                    dist[v] = nd;
                    next[v] = u;
                    if let Some(b) = usize::try_from(nd).ok().and_then(|i| buckets.get_mut(i)) {
                        b.push(v);
                    }
                }
            }
        }
        ToTarget { dist, next }
    }

    /// Cheapest cost from a start to exit `x`, given its search (None: no path), with the
    /// end it leaves from. Ties go to the lower end.
    pub(crate) fn start_cost(&self, tt: &ToTarget, start: Start) -> Option<(i64, usize)> {
        let (a, b) = match start {
            Start::Corridor(a, b) => (a.idx(), b.idx()),
            Start::Exit(k) => {
                let door = self.data().exit_door(k)?;
                let i = Place::Door(door).idx();
                (i, i)
            }
        };
        let da = tt.dist.get(a).copied().unwrap_or(INF);
        let db = tt.dist.get(b).copied().unwrap_or(INF);
        let best = if (db, b) < (da, a) { (db, b) } else { (da, a) };
        (best.0 < INF).then_some(best)
    }

    /// Cheapest cost and one cheapest path for a challenge (hindsight; never shown before
    /// `ConfirmPath`, R23).
    pub fn cheapest_for(&self, start: Start, x: u8) -> Option<(i64, Vec<Place>)> {
        let tt = self.to_target(x);
        let (c, from) = self.start_cost(&tt, start)?;
        Some((c, tt.path_from(from)?))
    }

    /// Legal start corridors for exit `x` (R8), canonical order.
    pub fn legal_corridors(&self, x: u8) -> Vec<(Place, Place)> {
        let tt = self.to_target(x);
        self.lab_data()
            .corridors
            .iter()
            .copied()
            .filter(|&(a, b)| self.start_cost(&tt, Start::Corridor(a, b)).is_some())
            .collect()
    }

    /// Short game: legal start exits for target `x` (R17), ascending.
    pub fn legal_partners(&self, x: u8) -> Vec<u8> {
        if !self.exit_free(x) {
            return Vec::new();
        }
        let tt = self.to_target(x);
        (1..=12u8)
            .filter(|&k| k != x && self.exit_free(k))
            .filter(|&k| self.start_cost(&tt, Start::Exit(k)).is_some())
            .collect()
    }

    fn any_legal_pair(&self) -> bool {
        (1..=12u8).any(|x| !self.legal_partners(x).is_empty())
    }

    /// The running cost of the path walked so far.
    pub fn running_cost(&self) -> i64 {
        self.path.iter().map(|p| self.value_at(p.idx())).sum()
    }

    /// The pending prompt.
    pub fn ask(&self) -> Option<Ask> {
        Some(match self.stage {
            Stage::Configure => {
                if let Some(&d) = self.targets.iter().find(|&&d| self.piece(d).is_none()) {
                    Ask::PlaceCylinder(d)
                } else if let Some(&t) = self.prev_towers.get(self.towers_moved) {
                    Ask::MoveTower(t)
                } else {
                    Ask::ConfirmLayout
                }
            }
            Stage::ChooseExit => Ask::ChooseExit,
            Stage::ChooseStartDoor => Ask::ChooseStartDoor,
            Stage::ChooseStartCorridor(d) => Ask::ChooseStartCorridor(d),
            Stage::ChooseStartExit => Ask::ChooseStartExit,
            Stage::ConfirmChallenge => Ask::ConfirmChallenge,
            Stage::Escape => {
                let t = self.target.map(Place::Exit);
                if t.is_some() && self.path.last().copied() == t {
                    Ask::ConfirmPath
                } else {
                    Ask::Step
                }
            }
            Stage::Over => return None,
        })
    }

    /// Who decides at `ask`.
    pub fn ask_seat(&self, ask: Ask) -> Seat {
        match ask {
            Ask::ChooseExit
            | Ask::ChooseStartDoor
            | Ask::ChooseStartCorridor(_)
            | Ask::ChooseStartExit
            | Ask::ConfirmChallenge => self.setter(),
            _ => self.owner(),
        }
    }

    /// Legal tower destinations for the tower now on `from` (R4), ascending.
    fn tower_destinations(&self) -> Vec<u8> {
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
    fn step_candidates(&self) -> Vec<Place> {
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

    /// R11 order: adjacency, wrong exit, tower, visited, dead end.
    fn check_step(&self, q: Place) -> Result<(), RuleError> {
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
    fn reaches_target(&self, q: Place) -> bool {
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

    /// Checks, then executes one action for `seat`.
    pub fn play(&mut self, seat: Seat, action: &Action) -> Result<Applied<Event>, RuleError> {
        let Some(ask) = self.ask() else {
            return Err(RuleError::WrongPrompt);
        };
        if self.ask_seat(ask) != seat {
            return Err(RuleError::NotYourTurn);
        }
        self.check(ask, action)?;
        self.setup_log.clear();
        let mut events = Vec::new();
        let barrier = matches!(action, Action::Done | Action::Random);
        self.execute(ask, *action, &mut events);
        Ok(Applied { events, barrier })
    }

    fn execute(&mut self, ask: Ask, action: Action, ev: &mut Vec<Event>) {
        match action {
            Action::Put { door, kind } => {
                self.touched = true;
                self.place(door, kind, false, ev);
                self.auto_fill(ev);
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
                self.auto_fill(ev);
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

    fn place(&mut self, door: u8, kind: Piece, auto: bool, ev: &mut Vec<Event>) {
        if let Some(slot) = self.board.get_mut(usize::from(door).wrapping_sub(1)) {
            *slot = Some(kind);
            self.pool[kind.index()] = self.pool[kind.index()].saturating_sub(1);
            ev.push(Event::CylinderPlaced { door, kind, auto });
        }
    }

    fn move_tower(&mut self, from: u8, to: u8, ev: &mut Vec<Event>) {
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

    /// When the pool holds one kind only, every empty target door gets it (forced).
    pub(crate) fn auto_fill(&mut self, ev: &mut Vec<Event>) {
        let kinds: Vec<Piece> = Piece::ALL
            .into_iter()
            .filter(|k| self.pool[k.index()] > 0)
            .collect();
        if let [kind] = kinds[..] {
            let empty: Vec<u8> = self.empty_targets();
            for d in empty {
                self.place(d, kind, true, ev);
            }
        }
    }

    /// `random`: a Fisher-Yates permutation of the pool onto the empty target doors, then
    /// each remaining tower to a uniform legal destination.
    fn random_fill(&mut self, ev: &mut Vec<Event>) {
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
            self.place(d, k, false, ev);
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

    /// R24: the cheapest cost and path of the actual challenge, and the setter's best.
    fn hindsight_info(&self) -> Option<HindsightInfo> {
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
    fn end_round(&mut self, ev: &mut Vec<Event>) {
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
        self.auto_fill(ev);
    }
}
