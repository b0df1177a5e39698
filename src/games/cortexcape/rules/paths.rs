//! Path search: the reverse Dijkstra towards an exit, the cheapest start, the corridors and
//! partners that leave a legal challenge, and the running cost of the path being drawn.

use super::super::state::{Cortexcape, Piece, Place, Start, DOORS, PLACES};

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
    pub(super) fn value_at(&self, i: usize) -> i64 {
        self.board.get(i).copied().flatten().map_or(0, Piece::value)
    }

    /// A door without a tower, or the target exit.
    pub(super) fn passable(&self, i: usize, target: usize) -> bool {
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

    pub(super) fn any_legal_pair(&self) -> bool {
        (1..=12u8).any(|x| !self.legal_partners(x).is_empty())
    }

    /// The running cost of the path walked so far.
    pub fn running_cost(&self) -> i64 {
        self.path.iter().map(|p| self.value_at(p.idx())).sum()
    }
}
