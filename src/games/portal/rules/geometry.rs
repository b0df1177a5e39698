//! The Lab's shape (spec 4): chambers, neighbours through walls and portals, which floors may go.

use super::*;

impl Portal {
    // ----- geometry (spec 4) -----

    pub fn exists(&self, ch: Ch) -> bool {
        self.chamber(ch).is_some()
    }

    /// Physically adjacent chambers in canonical order.
    pub fn physical_neighbours(&self, ch: Ch) -> Vec<Ch> {
        self.all_chambers()
            .into_iter()
            .filter(|&o| o.touches(ch))
            .collect()
    }

    fn other_portal(&self, ch: Ch) -> Option<Ch> {
        let [a, b] = self.portals;
        let o = if a == ch {
            b
        } else if b == ch {
            a
        } else {
            return None;
        };
        self.exists(o).then_some(o)
    }

    fn with_link(&self, ch: Ch, link: bool) -> Vec<Ch> {
        let mut v = self.physical_neighbours(ch);
        if link {
            if let Some(o) = self.other_portal(ch) {
                if !v.contains(&o) {
                    v.push(o);
                }
            }
        }
        v
    }

    /// Neighbours for moving subjects and Doug's cake: the portal link counts while open.
    pub fn neighbours(&self, ch: Ch) -> Vec<Ch> {
        self.with_link(ch, self.portals_open())
    }

    /// Neighbours for the Turret.
    pub fn turret_neighbours(&self, ch: Ch) -> Vec<Ch> {
        self.with_link(ch, self.opts.turret_portals && self.portals_open())
    }

    pub(super) fn sort_canonical(&self, v: &mut Vec<Ch>) {
        let order = self.all_chambers();
        v.sort_by_key(|c| order.iter().position(|o| o == c).unwrap_or(usize::MAX));
        v.dedup();
    }

    /// Whether a set of chambers is physically connected.
    pub fn connected(set: &[Ch]) -> bool {
        let Some(&first) = set.first() else {
            return true;
        };
        let mut seen = vec![false; set.len()];
        seen[0] = true;
        let mut stack = vec![first];
        while let Some(x) = stack.pop() {
            for (i, &y) in set.iter().enumerate() {
                if !seen[i] && x.touches(y) {
                    seen[i] = true;
                    stack.push(y);
                }
            }
        }
        seen.iter().all(|&s| s)
    }

    /// The id a panel gets when attached to floor `g`, with `x` already lifted out.
    pub(super) fn attach_id(&self, g: Floor, lifted: Option<Ch>) -> Ch {
        let max = self
            .floor(g)
            .iter()
            .map(|x| x.c)
            .filter(|&c| lifted != Some(Ch::new(g, c)))
            .max()
            .unwrap_or(if g == Floor::Mid { 1 } else { 0 });
        Ch::new(g, max + 2)
    }

    /// Floors the panel lifted from `x` may go to (C3), with the split rule.
    pub(super) fn recycle_floors(&self, x: Ch) -> Vec<Floor> {
        let rest: Vec<Ch> = self
            .all_chambers()
            .into_iter()
            .filter(|&c| c != x)
            .collect();
        let left = rest.iter().filter(|c| c.f == x.f).count();
        let cands: Vec<Floor> = if left < 3 {
            vec![x.f]
        } else {
            Floor::ALL.to_vec()
        };
        if !self.opts.split_final {
            return cands;
        }
        cands
            .into_iter()
            .filter(|&g| {
                let mut s = rest.clone();
                s.push(self.attach_id(g, Some(x)));
                Self::connected(&s)
            })
            .collect()
    }

    /// Whether old-edge chamber `x` passes the split rule (spec 4.6).
    pub fn passes_split(&self, x: Ch) -> bool {
        let rest: Vec<Ch> = self
            .all_chambers()
            .into_iter()
            .filter(|&c| c != x)
            .collect();
        if self.opts.split_final {
            !self.recycle_floors(x).is_empty()
        } else {
            Self::connected(&rest)
        }
    }

    /// Floors whose old edge may be activated now (A1).
    pub fn activatable(&self) -> Vec<Floor> {
        let legal: Vec<Floor> = Floor::ALL
            .into_iter()
            .filter(|&f| self.old_edge(f).is_some_and(|x| self.passes_split(x)))
            .collect();
        let legal = if legal.is_empty() {
            // Never happens (spec 4.6 proof); any old edge is the documented fallback.
            Floor::ALL.to_vec()
        } else {
            legal
        };
        if self.is_char(Card::Morality) {
            let occupied: Vec<Floor> = legal
                .iter()
                .copied()
                .filter(|&f| {
                    self.old_edge(f)
                        .and_then(|x| self.chamber(x))
                        .is_some_and(|c| c.subjects() > 0)
                })
                .collect();
            if !occupied.is_empty() {
                return occupied;
            }
        }
        legal
    }
}
