//! Scoring (spec section 8): each seat's score by part and its Projects' points.

use crate::games::spacelab::cards::LabCard;

use super::*;

impl SpaceLab {
    /// The score of seat `s` by part, from the current position.
    pub fn breakdown(&self, s: Seat) -> Breakdown {
        let d = self.data();
        let p = self.player(s);
        let cards: Vec<(usize, &LabCard)> = p
            .station
            .iter()
            .enumerate()
            .filter_map(|(i, c)| c.and_then(|c| d.lab(c)).map(|l| (i, l)))
            .collect();
        let mut sp = [0i64; 4];
        for (_, l) in &cards {
            sp[l.specialty.index()] += 1;
        }
        let projects = i64::try_from(p.projects.len()).unwrap_or(0);
        let validated = i64::try_from(p.validated_count()).unwrap_or(0);
        let count = |f: &dyn Fn(usize, &LabCard) -> bool| {
            i64::try_from(cards.iter().filter(|(i, l)| f(*i, l)).count()).unwrap_or(0)
        };
        let mut lab_end = 0;
        for &(i, l) in &cards {
            let row = d.slot_row(i);
            lab_end += match l.effect {
                LabEffect::Flat { vp } => vp,
                LabEffect::InRow { row: r, vp } => {
                    if r == row {
                        vp
                    } else {
                        0
                    }
                }
                LabEffect::SameAgencyInRow { vp } => {
                    vp * count(&|j, m| d.slot_row(j) == row && m.agency == l.agency)
                }
                LabEffect::SameSpecialtyInStation { vp } => vp * sp[l.specialty.index()],
                LabEffect::PerProject { vp } => vp * projects,
                LabEffect::PerValidated { vp } => vp * validated,
                LabEffect::DistinctAgenciesInRow { vp } => {
                    let n = Agency::ALL
                        .into_iter()
                        .filter(|&a| count(&|j, m| d.slot_row(j) == row && m.agency == a) > 0)
                        .count();
                    vp * i64::try_from(n).unwrap_or(0)
                }
                LabEffect::DrawLab { .. } | LabEffect::DrawProject { .. } => 0,
            };
        }
        let bottom_cards = count(&|j, _| d.slot_row(j) == Row::Bottom);
        let mut bottom_end = 0;
        if let Some(objs) = p.objectives {
            for (c, cap) in d.capsules.iter().enumerate() {
                let Some(obj) = d.objective(objs[c]) else {
                    continue;
                };
                if let BottomEffect::BottomRowPoints { vp } = obj.effect {
                    let placed = p.station[cap.bottom].and_then(|x| d.lab(x));
                    if placed.is_some_and(|l| l.specialty == obj.specialty) {
                        bottom_end += vp * bottom_cards;
                    }
                }
            }
        }
        let validation = p
            .validated
            .iter()
            .flatten()
            .filter_map(|&t| d.tile(t))
            .map(|t| t.value)
            .sum();
        let proj = self.project_scores(s).iter().map(|x| x.2).sum();
        Breakdown {
            lab_end,
            bottom_end,
            validation,
            projects: proj,
        }
    }

    /// Held Project kinds of seat `s`: (kind, copies held, VP for this station), in kind order.
    pub fn project_scores(&self, s: Seat) -> Vec<(u8, i64, i64)> {
        let d = self.data();
        let p = self.player(s);
        let mut sp = [0i64; 4];
        let mut ag = [0i64; 4];
        for l in p.station.iter().flatten().filter_map(|&c| d.lab(c)) {
            sp[l.specialty.index()] += 1;
            ag[l.agency.index()] += 1;
        }
        let mut held = vec![0i64; d.kinds.len()];
        for &c in &p.projects {
            if let Some(h) = held.get_mut(usize::from(d.kind_of(c))) {
                *h += 1;
            }
        }
        let mut out = Vec::new();
        for (k, kind) in d.kinds.iter().enumerate() {
            let c = held[k];
            if c == 0 {
                continue;
            }
            let vp = match &kind.scoring {
                ProjectScoring::PerSpecialty { specialty, vp } => c * vp * sp[specialty.index()],
                ProjectScoring::SetTable { table } => {
                    let i = usize::try_from(c)
                        .unwrap_or(0)
                        .min(table.len().saturating_sub(1));
                    table.get(i).copied().unwrap_or(0)
                }
                ProjectScoring::Pairs { pair_vp, single_vp } => {
                    pair_vp * (c / 2) + single_vp * (c % 2)
                }
                ProjectScoring::AgenciesWithMinCards { min_cards, vp } => {
                    let m = i64::try_from(*min_cards).unwrap_or(i64::MAX);
                    c * vp * i64::try_from(ag.iter().filter(|&&x| x >= m).count()).unwrap_or(0)
                }
                ProjectScoring::SpecialtySets { vp } => {
                    c * vp
                        * Specialty::ALL
                            .iter()
                            .map(|s| sp[s.index()])
                            .min()
                            .unwrap_or(0)
                }
            };
            out.push((u8_of(k), c, vp));
        }
        out
    }
}
