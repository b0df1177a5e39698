//! The Cortexcape bot. Nothing is hidden in Cortexcape but the RNG, so a bot rebuilds the game
//! from the public view and then answers most prompts exactly:
//! - the walk is the cheapest path (Dijkstra towards the exit, `to_target`);
//! - the setter's challenge is the one that costs the owner most (`setter_best`: every free
//!   exit, every start, the owner's cheapest answer);
//! - the layout is a local search over whole layouts (which piece on which empty door, where
//!   each tower goes), scored by the strongest challenge the setter could answer with.

use crate::engine::rng::SliceDraw;

use super::lab::LabId;
use super::moves::Action;
use super::rules::Ask;
use super::state::{Cortexcape, Piece, Place, RoundRecord, Stage, Start, DOORS, EXITS};
use super::view::PublicView;
use crate::engine::{rng_from_seed, Game, GameRng, Seat};

impl Cortexcape {
    /// The whole game rebuilt from its public view, with a fresh RNG (the one thing a player
    /// cannot see). `None` when the view is not one of a running game.
    pub(crate) fn from_view(view: &PublicView, rng: &mut GameRng) -> Option<Cortexcape> {
        let lab = LabId::from_key(view.lab)?;
        let n = u8::try_from(view.seats.len()).ok()?;
        if n == 0 || view.step == Stage::Over {
            return None;
        }
        // The owner of round r is seat (first + r - 1) mod n.
        let back = u8::try_from((view.round.saturating_sub(1)) % u32::from(n)).ok()?;
        let first = Seat((view.owner.0 + n - back) % n);
        let mut board = [None; DOORS];
        for (slot, piece) in board.iter_mut().zip(&view.pieces) {
            *slot = *piece;
        }
        let mut pool = [0u8; 5];
        for (piece, count) in &view.pool {
            pool[piece.index()] = *count;
        }
        let mut marbles = [None; EXITS];
        for e in &view.exits {
            if let Some(slot) = marbles.get_mut(usize::from(e.id).wrapping_sub(1)) {
                *slot = e.marble;
            }
        }
        let configuring = view.step == Stage::Configure;
        let prev_towers = view.blocked_last_round.clone();
        let towers_moved = if configuring {
            prev_towers.len().saturating_sub(view.towers_to_move.len())
        } else {
            0
        };
        Some(Cortexcape {
            lab,
            short: view.short,
            hindsight: view.hindsight,
            seats: n,
            first,
            rng: rng_from_seed(rng.next_u64()),
            round: view.round,
            total_rounds: view.total_rounds,
            board,
            pool,
            targets: view.refill.clone(),
            prev_towers,
            towers_moved,
            touched: true,
            snap_board: board,
            snap_pool: pool,
            marbles,
            marbles_left: view.seats.iter().map(|s| s.marbles_left).collect(),
            stage: view.step,
            target: view.target,
            start: view.start,
            path: view.path.clone(),
            scores: view.seats.iter().map(|s| s.score).collect(),
            history: history_from(view),
            outcome: None,
            setup_log: Vec::new(),
        })
    }

    /// The bot's answer at the pending prompt; `effort` bounds the layout search (0: none).
    pub(crate) fn expert(&self, effort: u32, rng: &mut GameRng) -> Option<Action> {
        let ask = self.ask()?;
        let listed = self.options(ask);
        let pick = match ask {
            Ask::PlaceCylinder(_) | Ask::MoveTower(_) => {
                if effort == 0 {
                    return None;
                }
                self.best_layout_move(ask, effort, rng)?
            }
            Ask::ConfirmLayout | Ask::ConfirmChallenge | Ask::ConfirmPath => Action::Done,
            Ask::ChooseExit => Action::Exit(self.setter_best()?.2),
            Ask::ChooseStartDoor => match self.best_start()? {
                Start::Corridor(Place::Door(d), _) | Start::Corridor(_, Place::Door(d)) => {
                    Action::From(d)
                }
                _ => return None,
            },
            Ask::ChooseStartCorridor(_) | Ask::ChooseStartExit => Action::Start(self.best_start()?),
            Ask::Step => self.cheapest_step(&listed)?,
        };
        listed.contains(&pick).then_some(pick)
    }

    /// The setter's best start for the chosen exit, among the starts still open at this
    /// prompt (after `from <door>`, only corridors at that door).
    fn best_start(&self) -> Option<Start> {
        let x = self.target?;
        let tt = self.to_target(x);
        let starts: Vec<Start> = match self.stage {
            Stage::ChooseStartExit => self
                .legal_partners(x)
                .into_iter()
                .map(Start::Exit)
                .collect(),
            Stage::ChooseStartCorridor(d) => self
                .legal_corridors(x)
                .into_iter()
                .filter(|&(a, b)| a == Place::Door(d) || b == Place::Door(d))
                .map(|(a, b)| Start::Corridor(a, b))
                .collect(),
            _ => self
                .legal_corridors(x)
                .into_iter()
                .map(|(a, b)| Start::Corridor(a, b))
                .collect(),
        };
        // First of the most expensive, in canonical order (ties: the lowest start).
        let mut best: Option<(i64, Start)> = None;
        for s in starts {
            if let Some((c, _)) = self.start_cost(&tt, s) {
                if best.is_none_or(|(b, _)| c > b) {
                    best = Some((c, s));
                }
            }
        }
        best.map(|(_, s)| s)
    }

    /// The next place of a cheapest path from where the walk stands.
    fn cheapest_step(&self, listed: &[Action]) -> Option<Action> {
        let tt = self.to_target(self.target?);
        listed
            .iter()
            .filter_map(|a| match a {
                Action::Step(q) => Some((tt.dist.get(q.idx()).copied()?, *a)),
                _ => None,
            })
            .min_by_key(|(d, _)| *d)
            .map(|(_, a)| a)
    }

    /// Local search over the rest of this Configure step: the pieces in hand on the empty
    /// doors, then each tower still to move. A layout scores the owner's cheapest cost under
    /// the setter's strongest challenge (lower is better); `effort` layouts are tried.
    fn best_layout_move(&self, ask: Ask, effort: u32, rng: &mut GameRng) -> Option<Action> {
        let empty: Vec<u8> = self.empty_targets();
        let mut bag: Vec<Piece> = Vec::new();
        for k in Piece::ALL {
            bag.extend(std::iter::repeat_n(k, usize::from(self.pool[k.index()])));
        }
        let movers: Vec<u8> = self
            .prev_towers
            .get(self.towers_moved..)
            .map(<[u8]>::to_vec)
            .unwrap_or_default();
        bag.shuffle(rng);
        let mut plan = Plan {
            pieces: bag,
            towers: movers.iter().map(|_| 0).collect(),
        };
        for i in 0..plan.towers.len() {
            plan.towers[i] = self.random_tower_dest(&movers, &plan, i, rng)?;
        }
        let mut best_cost = self.plan_cost(&empty, &movers, &plan);
        for _ in 0..effort {
            let mut next = plan.clone();
            let swap_pieces =
                next.towers.is_empty() || (next.pieces.len() > 1 && rng.gen_bool(0.7));
            if swap_pieces {
                let (i, j) = (
                    rng.gen_range(0..next.pieces.len()),
                    rng.gen_range(0..next.pieces.len()),
                );
                if next.pieces[i] == next.pieces[j] {
                    continue;
                }
                next.pieces.swap(i, j);
            } else {
                let i = rng.gen_range(0..next.towers.len());
                next.towers[i] = self.random_tower_dest(&movers, &next, i, rng)?;
            }
            let cost = self.plan_cost(&empty, &movers, &next);
            // Sideways moves too: plateaus are wide when many layouts cost the same.
            if cost <= best_cost {
                best_cost = cost;
                plan = next;
            }
        }
        match ask {
            Ask::PlaceCylinder(door) => {
                let at = empty.iter().position(|&d| d == door)?;
                Some(Action::Put {
                    door,
                    kind: *plan.pieces.get(at)?,
                })
            }
            Ask::MoveTower(from) => {
                let at = movers.iter().position(|&d| d == from)?;
                Some(Action::Tower {
                    from,
                    to: *plan.towers.get(at)?,
                })
            }
            _ => None,
        }
    }

    /// A destination for tower `i` of `movers`: not a door blocked last round, not a door
    /// holding a tower now, not another planned destination.
    fn random_tower_dest(
        &self,
        movers: &[u8],
        plan: &Plan,
        i: usize,
        rng: &mut GameRng,
    ) -> Option<u8> {
        let taken: Vec<u8> = plan
            .towers
            .iter()
            .enumerate()
            .filter(|&(j, _)| j != i && j < movers.len())
            .map(|(_, &d)| d)
            .collect();
        let dests: Vec<u8> = (1..=20u8)
            .filter(|&d| {
                !self.prev_towers.contains(&d) && !taken.contains(&d) && {
                    // Towers placed this step (round 1's `t` pieces) stand still.
                    self.piece(d) != Some(Piece::Tower)
                }
            })
            .collect();
        dests.choose(rng).copied()
    }

    /// Plays `plan` on a copy through the rules and scores it.
    fn plan_cost(&self, empty: &[u8], movers: &[u8], plan: &Plan) -> i64 {
        const WORST: i64 = i64::MAX / 8;
        let mut g = self.clone();
        let owner = g.owner();
        for (&door, &kind) in empty.iter().zip(&plan.pieces) {
            // A last kind fills itself (auto-fill), so a door may already hold it.
            if g.piece(door).is_none() && g.apply(owner, &Action::Put { door, kind }).is_err() {
                return WORST;
            }
        }
        for (&from, &to) in movers.iter().zip(&plan.towers) {
            if g.apply(owner, &Action::Tower { from, to }).is_err() {
                return WORST;
            }
        }
        if g.short && !(1..=12u8).any(|x| !g.legal_partners(x).is_empty()) {
            return WORST;
        }
        g.setter_best().map_or(WORST, |(cost, _, _)| cost)
    }
}

/// The rounds played, from each seat's costs; only the last round's record is whole in the
/// view, the older ones keep what the view shows (round, owner, cost).
fn history_from(view: &PublicView) -> Vec<RoundRecord> {
    let mut rounds: Vec<RoundRecord> = view
        .seats
        .iter()
        .enumerate()
        .flat_map(|(i, s)| {
            let owner = Seat::at(i);
            s.costs.iter().map(move |&(round, cost)| RoundRecord {
                round,
                owner,
                setter: owner,
                start: Start::Exit(0),
                target: 0,
                path: Vec::new(),
                cost,
                cheapest: None,
                setter_best: None,
            })
        })
        .collect();
    rounds.sort_by_key(|r| r.round);
    if let (Some(last), Some(whole)) = (rounds.last_mut(), &view.last_round) {
        *last = whole.clone();
    }
    rounds
}

/// The rest of a Configure step: pieces for the empty doors (in door order) and a destination
/// per tower still to move.
#[derive(Clone)]
struct Plan {
    pieces: Vec<Piece>,
    towers: Vec<u8>,
}

/// Used by the engine's bot entry point (`BotHooks::imagine`).
pub(crate) fn imagine(view: &PublicView, _seat: Seat, rng: &mut GameRng) -> Option<Cortexcape> {
    Cortexcape::from_view(view, rng)
}
