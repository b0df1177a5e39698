//! Single-observer information-set MCTS: one tree of decisions shared by every imagined game.
//! Edges keep an availability count, since an option exists only in some imagined games.

use crate::engine::rng::SliceDraw;

use crate::engine::{BotHooks, GameRng, Seat};

/// What a search may spend on one decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Tree iterations (each: imagine, descend, play out, back up).
    pub iterations: u32,
    /// Effort a game's expert may spend on one root decision (its own unit, e.g. layouts tried).
    pub effort: u32,
    /// Atomic options a playout may take before the estimate scores it.
    pub playout_depth: u32,
}

/// What the search needs from a game. Every game with [`BotHooks`] is searchable; tests use tiny games.
pub trait Searchable: Clone {
    type Action: Clone + PartialEq;
    /// Who decides now and every legal option, or `None` when the game is over.
    fn to_move(&self) -> Option<(Seat, Vec<Self::Action>)>;
    /// Who decides now, without the options.
    fn mover(&self) -> Option<Seat> {
        self.to_move().map(|(s, _)| s)
    }
    /// Applies a listed option; false if the game refused it (then the playout stops).
    /// Applies an option; false if the game refused it (nothing changed then).
    fn play(&mut self, seat: Seat, action: &Self::Action) -> bool;
    /// A value in [0, 1] per seat: from the final ranking when over, else an estimate.
    fn value(&self) -> Vec<f64>;
    /// A cheap good option for playouts, if the game knows one.
    fn hint(&self, rng: &mut GameRng) -> Option<Self::Action>;
}

impl<G: BotHooks> Searchable for G {
    type Action = G::Action;

    fn to_move(&self) -> Option<(Seat, Vec<G::Action>)> {
        self.prompt().map(|p| (p.seat, p.options))
    }

    fn mover(&self) -> Option<Seat> {
        self.deciding_seat()
    }

    fn play(&mut self, seat: Seat, action: &G::Action) -> bool {
        self.apply(seat, action).is_ok()
    }

    fn value(&self) -> Vec<f64> {
        match self.outcome() {
            Some(o) if o.ranks.len() > 1 => value_from_ranks(&o.ranks),
            _ => self.estimate(),
        }
    }

    fn hint(&self, rng: &mut GameRng) -> Option<G::Action> {
        self.expert_option(0, rng)
    }
}

/// 1 for sole first place, 0 for sole last; shared places split the difference.
pub fn value_from_ranks(ranks: &[u8]) -> Vec<f64> {
    let n = ranks.len();
    if n < 2 {
        return vec![1.0; n];
    }
    ranks
        .iter()
        .map(|&r| {
            let ahead = ranks.iter().filter(|&&o| o < r).count();
            let tied = ranks.iter().filter(|&&o| o == r).count();
            #[allow(clippy::cast_precision_loss)]
            let place = (ahead as f64 + (tied as f64 - 1.0) / 2.0) / (n as f64 - 1.0);
            1.0 - place
        })
        .collect()
}

/// UCB1 exploration constant for values in [0, 1].
const EXPLORE: f64 = 0.7;

struct Edge<A> {
    action: A,
    child: usize,
    visits: u32,
    avail: u32,
    total: f64,
}

struct Node<A> {
    edges: Vec<Edge<A>>,
}

/// Runs the search and returns the index in `legal` of the most visited root option, or
/// `None` if no imagined game could be built.
pub fn best_root_option<S: Searchable>(
    imagine: impl FnMut(&mut GameRng) -> Option<S>,
    seat: Seat,
    legal: &[S::Action],
    budget: Budget,
    rng: &mut GameRng,
) -> Option<usize> {
    let nodes = grow(imagine, seat, legal, budget, rng)?;
    let root = &nodes[0];
    let best = root
        .edges
        .iter()
        .max_by(|a, b| {
            a.visits
                .cmp(&b.visits)
                .then_with(|| mean(a).total_cmp(&mean(b)))
        })?
        .action
        .clone();
    legal.iter().position(|a| *a == best)
}

/// What the search learnt of one root option: how often it was tried, and the deciding
/// seat's mean value over those tries (in [0, 1]; 0 when never tried).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RootStat {
    pub visits: u32,
    pub mean: f64,
}

/// Runs the search and returns, for each option of `legal` in its order, what the search
/// learnt of it at the root; `None` if no imagined game could be built.
pub fn root_stats<S: Searchable>(
    imagine: impl FnMut(&mut GameRng) -> Option<S>,
    seat: Seat,
    legal: &[S::Action],
    budget: Budget,
    rng: &mut GameRng,
) -> Option<Vec<RootStat>> {
    let nodes = grow(imagine, seat, legal, budget, rng)?;
    let root = &nodes[0];
    Some(
        legal
            .iter()
            .map(|a| {
                root.edges.iter().find(|e| e.action == *a).map_or(
                    RootStat {
                        visits: 0,
                        mean: 0.0,
                    },
                    |e| RootStat {
                        visits: e.visits,
                        mean: mean(e),
                    },
                )
            })
            .collect(),
    )
}

/// The search itself: `budget.iterations` times, imagine a game, descend, play out, back up.
/// The tree, or `None` if no imagined game could be built.
fn grow<S: Searchable>(
    mut imagine: impl FnMut(&mut GameRng) -> Option<S>,
    seat: Seat,
    legal: &[S::Action],
    budget: Budget,
    rng: &mut GameRng,
) -> Option<Vec<Node<S::Action>>> {
    let mut nodes: Vec<Node<S::Action>> = vec![Node { edges: Vec::new() }];
    let mut any = false;
    for _ in 0..budget.iterations {
        let Some(mut state) = imagine(rng) else {
            continue;
        };
        // The imagined game must be waiting for the same seat as the real one.
        if state.to_move().map(|(s, _)| s) != Some(seat) {
            continue;
        }
        any = true;
        let trail = descend(&mut nodes, &mut state, legal, rng);
        playout(&mut state, budget.playout_depth, rng);
        let value = state.value();
        for (node, edge, mover) in trail {
            let e = &mut nodes[node].edges[edge];
            e.visits += 1;
            e.total += value.get(mover.index()).copied().unwrap_or(0.0);
        }
    }
    any.then_some(nodes)
}

fn mean<A>(e: &Edge<A>) -> f64 {
    if e.visits == 0 {
        0.0
    } else {
        e.total / f64::from(e.visits)
    }
}

/// Selection and expansion: walks the tree on `state`, adds one node, returns the trail of
/// (node, edge, seat that chose) to back up.
fn descend<S: Searchable>(
    nodes: &mut Vec<Node<S::Action>>,
    state: &mut S,
    legal: &[S::Action],
    rng: &mut GameRng,
) -> Vec<(usize, usize, Seat)> {
    let mut trail = Vec::new();
    let mut node = 0;
    while let Some((mover, mut options)) = state.to_move() {
        if node == 0 {
            // At the root only the real options count: the imagined game may differ.
            options.retain(|o| legal.contains(o));
        }
        if options.is_empty() {
            break;
        }
        for e in &mut nodes[node].edges {
            if options.contains(&e.action) {
                e.avail += 1;
            }
        }
        let untried: Vec<&S::Action> = options
            .iter()
            .filter(|o| !nodes[node].edges.iter().any(|e| e.action == **o))
            .collect();
        if let Some(&action) = untried.choose(rng) {
            let action = action.clone();
            if !state.play(mover, &action) {
                break;
            }
            let child = nodes.len();
            nodes.push(Node { edges: Vec::new() });
            nodes[node].edges.push(Edge {
                action,
                child,
                visits: 0,
                avail: 1,
                total: 0.0,
            });
            trail.push((node, nodes[node].edges.len() - 1, mover));
            break;
        }
        let Some(pick) = select(&nodes[node], &options) else {
            break;
        };
        let action = nodes[node].edges[pick].action.clone();
        if !state.play(mover, &action) {
            break;
        }
        trail.push((node, pick, mover));
        node = nodes[node].edges[pick].child;
    }
    trail
}

/// UCB1 with availability counts among the edges legal in this imagined game.
fn select<A: PartialEq>(node: &Node<A>, options: &[A]) -> Option<usize> {
    node.edges
        .iter()
        .enumerate()
        .filter(|(_, e)| options.contains(&e.action))
        .map(|(i, e)| {
            let visits = f64::from(e.visits.max(1));
            let avail = f64::from(e.avail.max(1));
            (i, mean(e) + EXPLORE * (avail.ln() / visits).sqrt())
        })
        .max_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(i, _)| i)
}

/// Plays on with the game's hints (else at random) for at most `depth` options. A hint is
/// played straight away (the game refuses it if illegal, changing nothing): listing every
/// option at every step is most of a playout's cost in games with many options.
fn playout<S: Searchable>(state: &mut S, depth: u32, rng: &mut GameRng) {
    for _ in 0..depth {
        let Some(mover) = state.mover() else {
            return;
        };
        if let Some(hint) = state.hint(rng) {
            if state.play(mover, &hint) {
                continue;
            }
        }
        let Some((mover, options)) = state.to_move() else {
            return;
        };
        let Some(action) = options.get(rng.gen_range(0..options.len().max(1))).cloned() else {
            return;
        };
        if !state.play(mover, &action) {
            return;
        }
    }
}
