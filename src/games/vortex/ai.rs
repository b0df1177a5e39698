//! The Vortex bot. Nothing is hidden in Vortex but the RNG (which no rule uses after setup), so
//! a bot rebuilds the whole game from the public view and lets the shared search
//! (`crate::ai`) play it out. What the game adds:
//! - distances: the rotations one piece needs between two spaces (BFS over the edge graph);
//! - the estimate: in the races, how far each side's routers are from its goal (with the
//!   actions the side to move still has); in Cat & Mouse, what it costs the mouse to reach the
//!   pantry past the cats and how close the cats are to trapping it; in Solitaire, the
//!   rotations spent plus those still needed;
//! - a cheap greedy playout policy with the same measures, and an immediate win at the root.

use std::sync::OnceLock;

use crate::engine::rng::SliceDraw;

use super::board::geo;
use super::moves::{Action, Dir};
use super::rules::Ask;
use super::state::{Colour, Ending, Mode, Pending, Router, Side, Vortex, SPACES, TOWERS};
use super::view::PublicView;
use crate::engine::{rng_from_seed, Game, GameOptions, GameRng, Seat};

/// Chance that a playout step is a plain random option, so playouts explore.
const PLAYOUT_NOISE: f64 = 0.1;
/// Race estimate: how many distance steps one action is worth for the side to move.
const TEMPO: f64 = 1.5;
/// Race estimate: the distance gap that makes one side about e times as likely to win.
const RACE_SCALE: f64 = 4.0;
/// Solitaire estimate: rotations at which the value halves.
const SOLO_SCALE: f64 = 100.0;

/// Rotations needed to carry one piece from space `a` to space `b` on an otherwise idle board:
/// one rotation moves a piece across one triangle edge.
pub(crate) fn distance(a: u8, b: u8) -> u8 {
    static TABLE: OnceLock<Vec<[u8; SPACES]>> = OnceLock::new();
    let table = TABLE.get_or_init(|| {
        let g = geo();
        (1..=54u8)
            .map(|from| {
                let mut d = [u8::MAX; SPACES];
                d[usize::from(from - 1)] = 0;
                let mut queue = vec![from];
                let mut i = 0;
                while i < queue.len() {
                    let s = queue[i];
                    i += 1;
                    let next = d[usize::from(s - 1)] + 1;
                    for n in &g.space(s).edges {
                        let slot = &mut d[usize::from(*n - 1)];
                        if *slot == u8::MAX {
                            *slot = next;
                            queue.push(*n);
                        }
                    }
                }
                d
            })
            .collect()
    });
    table[usize::from(a - 1)][usize::from(b - 1)]
}

/// Where the piece on `space` goes when `tower` turns.
fn moved_to(tower: u8, dir: Dir, space: u8) -> u8 {
    Vortex::dest(tower, dir, space)
}

/// A board after one rotation, without touching the game.
fn rotated(board: &[Option<Router>], tower: u8, dir: Dir) -> Vec<Option<Router>> {
    let mut out = board.to_vec();
    for s in geo().ring(tower) {
        out[usize::from(moved_to(tower, dir, *s) - 1)] = board[usize::from(*s - 1)];
    }
    out
}

fn logistic(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

impl Vortex {
    /// The whole game rebuilt from its public view, with a fresh RNG. `None` when the view is
    /// not one of a running game.
    pub(crate) fn from_view(view: &PublicView, rng: &mut GameRng) -> Option<Vortex> {
        if view.ending.is_some() {
            return None;
        }
        let turn_side = view.turn_side?;
        let seats = view.sides.iter().map(|s| s.seat.index() + 1).max()?;
        let mut options = GameOptions::new();
        options.insert("mode".into(), view.mode.key().into());
        if !view.layout.is_empty() {
            options.insert("layout".into(), view.layout.clone());
        }
        for kv in &view.options {
            let (k, v) = kv.split_once('=')?;
            options.insert(k.into(), v.into());
        }
        let mut g = Vortex::build(&options, seats, view.seed).ok()?;
        g.rng = rng_from_seed(rng.next_u64());
        g.board.clone_from(&view.board);
        g.claims.clone_from(&view.claims);
        g.sides = view
            .sides
            .iter()
            .map(|s| Side {
                seat: s.seat,
                colour: s.colour,
                start: s.start,
                goal: s.goal,
                start_spaces: s.start_spaces,
                goal_spaces: s.goal_spaces,
                team: s.team,
                minority_left: s.minority_left,
                finished: s.finished,
            })
            .collect();
        let per_round = match view.mode {
            Mode::Solitaire => 0,
            Mode::Catmouse => 2,
            Mode::Crossing | Mode::Advanced => u32::try_from(g.sides.len()).ok()?,
        };
        g.turn_index = view.round.saturating_sub(1) * per_round + u32::try_from(turn_side).ok()?;
        g.used = view.used;
        g.allowance = view.allowance;
        g.rotations = view.rotations;
        g.this_turn = view.this_turn.clone();
        g.prev_turn.clone_from(&view.prev_turn);
        g.last_moved.clone_from(&view.last_moved);
        g.auto_ended = None;
        if view.prompt == Some("place") {
            // The captured controller is the one neither riding nor on a tower.
            let victim = view.sides.iter().position(|s| {
                s.riding + u8::try_from(s.towers.len()).unwrap_or(0) < g.rules.controllers
            })?;
            g.pending = Some(Pending {
                victim,
                chooser: if g.rules.victim_places {
                    victim
                } else {
                    turn_side
                },
                capturer: turn_side,
            });
        }
        if view.mode == Mode::Catmouse {
            let mouse_to_move = turn_side == 0;
            let mut m = g.mouse_space();
            let steps = &view.this_turn.steps;
            let cm = g.catmouse.as_mut()?;
            cm.mouse_to_move = mouse_to_move;
            cm.rotations = view.mouse_rotations;
            if mouse_to_move {
                // Walk this turn's rotations back to where the mouse started, then forward:
                // those are the spaces it may not return to.
                for s in steps.iter().rev() {
                    m = moved_to(s.tower, s.dir.flip(), m);
                }
                cm.visited = vec![m];
                for s in steps {
                    m = moved_to(s.tower, s.dir, m);
                    cm.visited.push(m);
                }
                cm.turn_last = steps.last().map(|s| (s.tower, s.dir));
                cm.last_mouse = None;
            } else {
                cm.visited = vec![m];
                cm.last_mouse = view.banned.map(|(t, d)| (t, d.flip()));
                cm.turn_last = cm.last_mouse;
            }
        }
        Some(g)
    }

    /// Rotations a side's routers still need: each router's distance to the nearest goal
    /// space, the `goal_count` smallest summed (0 once a team-mate is latched as finished).
    fn remaining(&self, side: usize) -> u32 {
        let s = &self.sides[side];
        if s.finished {
            return 0;
        }
        let mut d: Vec<u32> = (1..=54u8)
            .filter(|x| self.cell(*x).is_some_and(|r| r.colour == s.colour))
            .map(|x| u32::from(self.goal_distance(side, x)))
            .collect();
        d.sort_unstable();
        d.iter()
            .take(usize::from(self.rules.goal_count.max(1)))
            .sum()
    }

    fn goal_distance(&self, side: usize, space: u8) -> u8 {
        self.sides[side]
            .goal_spaces
            .iter()
            .map(|g| distance(space, *g))
            .min()
            .unwrap_or(0)
    }

    /// Race value per seat: a softmax over the sides' (or teams') remaining distances.
    fn race_estimate(&self) -> Vec<f64> {
        let n = self.sides.len();
        let mut rem: Vec<f64> = (0..n).map(|i| f64::from(self.remaining(i))).collect();
        if let Some(Ask::Action(side)) = self.ask() {
            rem[side] -= TEMPO * f64::from(self.allowance.saturating_sub(self.used));
        }
        // A team is as far as both its members together.
        let team_rem: Vec<f64> = (0..n)
            .map(|i| match self.sides[i].team {
                Some(t) => (0..n)
                    .filter(|j| self.sides[*j].team == Some(t))
                    .map(|j| rem[j])
                    .sum(),
                None => rem[i],
            })
            .collect();
        let best = team_rem.iter().copied().fold(f64::MAX, f64::min);
        let weight: Vec<f64> = team_rem
            .iter()
            .map(|r| (-(r - best) / RACE_SCALE).exp())
            .collect();
        // Team-mates share one weight: count each team once.
        let total: f64 = (0..n)
            .filter(|i| {
                self.sides[*i].team.is_none()
                    || !(0..*i).any(|j| self.sides[j].team == self.sides[*i].team)
            })
            .map(|i| weight[i])
            .sum();
        let mut out = vec![0.0; usize::from(self.seats)];
        for (i, s) in self.sides.iter().enumerate() {
            if let Some(v) = out.get_mut(s.seat.index()) {
                *v = weight[i] / total;
            }
        }
        out
    }

    /// Solitaire: 1 when solved at once, falling with the rotations spent and still needed.
    fn solo_value(&self) -> f64 {
        let needed: u32 = (0..self.sides.len()).map(|i| self.remaining(i)).sum();
        let cost = f64::from(self.rotations) + 2.0 * f64::from(needed);
        1.0 / (1.0 + cost / SOLO_SCALE)
    }

    /// The bot's value per seat of a position (see the module comment).
    pub(crate) fn bot_estimate(&self) -> Vec<f64> {
        match self.mode {
            Mode::Crossing | Mode::Advanced => self.race_estimate(),
            Mode::Solitaire => vec![self.solo_value()],
            Mode::Catmouse => {
                let mouse = match &self.ending {
                    Some(Ending::Won { sides, .. }) => {
                        if sides.contains(&0) {
                            1.0
                        } else {
                            0.0
                        }
                    }
                    Some(Ending::Drawn(_)) => 0.5,
                    None => mouse_value(&self.board, self.pantry()),
                };
                let (ms, cs) = (self.sides[0].seat, self.sides[1].seat);
                if ms == cs {
                    // One person plays both sides: the result is the mouse's.
                    return vec![mouse];
                }
                let mut out = vec![0.0; usize::from(self.seats)];
                out[ms.index()] = mouse;
                out[cs.index()] = 1.0 - mouse;
                out
            }
        }
    }

    fn pantry(&self) -> &[u8] {
        self.catmouse.as_ref().map_or(&[], |c| c.pantry.as_slice())
    }

    /// The option that wins the game at once for the deciding seat, if any.
    fn winning_option(&self) -> Option<Action> {
        let p = self.prompt()?;
        p.options.into_iter().find(|a| {
            let mut g = self.clone();
            g.apply(p.seat, a).is_ok()
                && g.outcome.as_ref().is_some_and(|o| {
                    // Solitaire: solving now is the fewest rotations it can take.
                    o.winners.contains(&p.seat)
                        && (o.winners.len() < usize::from(self.seats) || self.seats == 1)
                })
        })
    }

    /// The bot's own answer: an immediate win at the root (effort > 0), else in playouts
    /// (effort 0) a greedy option by the estimate's measures, now and then a random one.
    pub(crate) fn expert(&self, effort: u32, rng: &mut GameRng) -> Option<Action> {
        if effort > 0 {
            let win = self.winning_option();
            if win.is_none() && self.mode == Mode::Solitaire {
                return self.solo_lookahead(effort, rng);
            }
            return win;
        }
        if rng.gen_bool(PLAYOUT_NOISE) {
            return None;
        }
        let ask = self.ask()?;
        // Scored before they are checked: only the best few are checked for legality (see
        // `best_legal`), which saves most of a playout step.
        let options = self.candidates(ask);
        let scored: Vec<(Action, f64)> = match ask {
            Ask::Action(side) => options
                .iter()
                .filter_map(|a| self.race_step_score(side, *a).map(|v| (*a, v)))
                .collect(),
            Ask::Solo => options
                .iter()
                .filter_map(|a| match *a {
                    Action::Rot { tower, dir } => Some((*a, self.solo_step_score(tower, dir))),
                    _ => None,
                })
                .collect(),
            Ask::Mouse => options
                .iter()
                .map(|a| (*a, self.mouse_step_score(*a)))
                .collect(),
            Ask::Cats => options
                .iter()
                .filter_map(|a| match *a {
                    Action::Rot { tower, dir } => {
                        let after = rotated(&self.board, tower, dir);
                        Some((*a, 1.0 - mouse_value(&after, self.pantry())))
                    }
                    _ => None,
                })
                .collect(),
            Ask::Place(_) => return None,
        };
        self.best_legal(ask, scored, rng)
    }

    /// The legal option with the best score, ties broken at random: as `best_of` over the
    /// legal options, but checking legality from the best score down, stopping at the first
    /// score that has a legal option.
    fn best_legal(
        &self,
        ask: Ask,
        scored: Vec<(Action, f64)>,
        rng: &mut GameRng,
    ) -> Option<Action> {
        let mut order: Vec<usize> = (0..scored.len()).collect();
        order.sort_by(|a, b| scored[*b].1.total_cmp(&scored[*a].1));
        let mut top: Vec<usize> = Vec::new();
        let mut best = f64::MIN;
        for i in order {
            let (action, value) = scored[i];
            if !top.is_empty() && value < best - 1e-9 {
                break;
            }
            if self.check(ask, &action).is_ok() {
                if top.is_empty() {
                    best = value;
                }
                top.push(i);
            }
        }
        // Canonical order, so the random pick is the one `best_of` would make.
        top.sort_unstable();
        top.choose(rng).map(|i| scored[*i].0)
    }

    /// Race playouts: how much a rotation brings the side's routers closer (a team-mate's
    /// count too) and the opponents' less close; `end` scores 0 (stop when nothing helps).
    /// Higher is better; `None` for options the policy leaves to chance.
    fn race_step_score(&self, side: usize, action: Action) -> Option<f64> {
        let (tower, dir, minority) = match action {
            Action::Rot { tower, dir } => (tower, dir, false),
            Action::Min { tower, dir } => (tower, dir, true),
            Action::End => return Some(0.0),
            _ => return None,
        };
        let me = &self.sides[side];
        let mut gain = 0.0;
        for s in geo().ring(tower) {
            let Some(r) = self.cell(*s) else {
                continue;
            };
            let Some(owner) = self.side_of(r.colour) else {
                continue;
            };
            let to = moved_to(tower, dir, *s);
            let closer =
                f64::from(self.goal_distance(owner, *s)) - f64::from(self.goal_distance(owner, to));
            let o = &self.sides[owner];
            let ally = owner == side || (me.team.is_some() && o.team == me.team);
            gain += if ally { closer } else { -0.5 * closer };
        }
        // A minority controller is single use: spend it only for a real gain.
        Some(if minority { gain - 1.5 } else { gain - 0.1 })
    }

    fn solo_step_score(&self, tower: u8, dir: Dir) -> f64 {
        geo()
            .ring(tower)
            .iter()
            .filter_map(|s| {
                let r = self.cell(*s)?;
                let owner = self.side_of(r.colour)?;
                let to = moved_to(tower, dir, *s);
                Some(
                    f64::from(self.goal_distance(owner, *s))
                        - f64::from(self.goal_distance(owner, to)),
                )
            })
            .sum()
    }

    /// Mouse playouts: the mouse's value after the option, counting the cats' best reply
    /// when the option hands them the turn.
    fn mouse_step_score(&self, action: Action) -> f64 {
        let pantry = self.pantry();
        let (board, cats_next) = match action {
            Action::Rot { tower, dir } => {
                let cat_moved = geo()
                    .ring(tower)
                    .iter()
                    .any(|s| self.cell(*s).is_some_and(|r| r.colour == Colour::Black));
                (rotated(&self.board, tower, dir), cat_moved)
            }
            _ => (self.board.clone(), true),
        };
        let m = mouse_on(&board);
        if pantry.contains(&m) {
            return 2.0;
        }
        if trapped(&board, m) {
            return -1.0;
        }
        if cats_next && cats_can_trap(&board) {
            return -0.5;
        }
        mouse_value(&board, pantry)
    }
}

impl Vortex {
    /// Solitaire at the root: the rotation that opens the best sequence of `depth` rotations by
    /// the distance still needed (depth 1 to 3 with the effort), then the best at once; never
    /// the exact undo of the previous rotation.
    fn solo_lookahead(&self, effort: u32, rng: &mut GameRng) -> Option<Action> {
        let depth = match effort {
            0..=20 => 1,
            21..=200 => 2,
            _ => 3,
        };
        let undo = self.this_turn.steps.last().map(|s| Action::Rot {
            tower: s.tower,
            dir: s.dir.flip(),
        });
        let scored: Vec<(Action, f64)> = all_rotations()
            .filter(|a| Some(*a) != undo)
            .map(|a| {
                let Action::Rot { tower, dir } = a else {
                    return (a, f64::MIN);
                };
                let mut g = self.clone();
                g.board = rotated(&self.board, tower, dir);
                let now = f64::from(g.solo_needed());
                let best = f64::from(g.solo_best_after(depth - 1));
                (a, -(best * 100.0 + now))
            })
            .collect();
        best_of(&scored, rng)
    }

    fn solo_needed(&self) -> u32 {
        (0..self.sides.len()).map(|i| self.remaining(i)).sum()
    }

    /// The least distance still needed within `depth` more rotations.
    fn solo_best_after(&self, depth: u32) -> u32 {
        let now = self.solo_needed();
        if depth == 0 || now == 0 {
            return now;
        }
        let mut g = self.clone();
        all_rotations()
            .map(|a| {
                let Action::Rot { tower, dir } = a else {
                    return now;
                };
                g.board = rotated(&self.board, tower, dir);
                g.solo_best_after(depth - 1)
            })
            .min()
            .unwrap_or(now)
            .min(now)
    }
}

fn all_rotations() -> impl Iterator<Item = Action> {
    (0..TOWERS as u8)
        .flat_map(|tower| [Dir::Cw, Dir::Ccw].map(move |dir| Action::Rot { tower, dir }))
}

/// The best-scored option, ties broken at random.
fn best_of(scored: &[(Action, f64)], rng: &mut GameRng) -> Option<Action> {
    let best = scored.iter().map(|(_, v)| *v).fold(f64::MIN, f64::max);
    let top: Vec<Action> = scored
        .iter()
        .filter(|(_, v)| *v >= best - 1e-9)
        .map(|(a, _)| *a)
        .collect();
    top.choose(rng).copied()
}

fn mouse_on(board: &[Option<Router>]) -> u8 {
    (1..=54u8)
        .find(|s| board[usize::from(s - 1)].is_some_and(|r| r.colour == Colour::Red))
        .unwrap_or(1)
}

fn cats_at(board: &[Option<Router>], tower: u8) -> u8 {
    let n = geo()
        .ring(tower)
        .iter()
        .filter(|s| board[usize::from(**s - 1)].is_some_and(|r| r.colour == Colour::Black))
        .count();
    u8::try_from(n).unwrap_or(0)
}

/// Every tower at the mouse's space holds two cats or more.
fn trapped(board: &[Option<Router>], mouse: u8) -> bool {
    geo()
        .space(mouse)
        .towers
        .iter()
        .all(|t| cats_at(board, *t) >= 2)
}

/// Whether one cat rotation could trap the mouse (the cats' ban on undoing
/// the mouse's last rotation is ignored: a cautious mouse).
fn cats_can_trap(board: &[Option<Router>]) -> bool {
    (0..TOWERS as u8).any(|t| {
        cats_at(board, t) > 0
            && [Dir::Cw, Dir::Ccw].into_iter().any(|d| {
                let after = rotated(board, t, d);
                let m = mouse_on(&after);
                trapped(&after, m)
            })
    })
}

/// What it costs the mouse to reach the pantry: a step through a tower without cats is cheap
/// (the turn goes on), one cat ends the turn, two cats block it until they leave.
fn mouse_cost(board: &[Option<Router>], pantry: &[u8]) -> f64 {
    let g = geo();
    let step: Vec<f64> = (0..TOWERS as u8)
        .map(|t| match cats_at(board, t) {
            0 => 0.3,
            1 => 1.0,
            _ => 3.0,
        })
        .collect();
    let mut cost = [f64::MAX; SPACES];
    let mut done = [false; SPACES];
    cost[usize::from(mouse_on(board) - 1)] = 0.0;
    loop {
        let Some(i) = (0..SPACES)
            .filter(|i| !done[*i] && cost[*i] < f64::MAX)
            .min_by(|a, b| cost[*a].total_cmp(&cost[*b]))
        else {
            return 20.0;
        };
        let s = u8::try_from(i + 1).unwrap_or(1);
        if pantry.contains(&s) {
            return cost[i];
        }
        done[i] = true;
        for t in &g.space(s).towers {
            for d in [Dir::Cw, Dir::Ccw] {
                let n = usize::from(moved_to(*t, d, s) - 1);
                let c = cost[i] + step[usize::from(*t)];
                if c < cost[n] {
                    cost[n] = c;
                }
            }
        }
    }
}

/// The mouse's chances in a running Cat & Mouse: near the pantry is good, towers at its space
/// already guarded by two cats are bad.
fn mouse_value(board: &[Option<Router>], pantry: &[u8]) -> f64 {
    let m = mouse_on(board);
    let towers = &geo().space(m).towers;
    let guarded = towers.iter().filter(|t| cats_at(board, **t) >= 2).count();
    #[allow(clippy::cast_precision_loss)]
    let danger = guarded as f64 / towers.len().max(1) as f64;
    // Centred on the start position's cost (about 5), so the search sees differences there.
    logistic(0.8 * (5.0 - mouse_cost(board, pantry)) - 1.5 * danger)
}

/// Rebuilds the game a seat sees (every seat sees it all).
pub(crate) fn imagine(view: &PublicView, seat: Seat, rng: &mut GameRng) -> Option<Vortex> {
    let g = Vortex::from_view(view, rng)?;
    (g.prompt()?.seat == seat).then_some(g)
}
