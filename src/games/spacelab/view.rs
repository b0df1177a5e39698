//! What the table sees and what one seat sees (spec section 9). The public view has no field
//! for any hand content, deck order, face-down draw or kept Project before game over: only
//! counts. The private view adds that seat's hand, Projects and projected score.

use serde::Serialize;

use super::cards::{BottomEffect, Data, LabEffect, ProjectScoring};
use super::state::{Agency, Breakdown, LastTurn, Opts, Phase, Row, Source, SpaceLab, Specialty};
use crate::engine::{RenderCtx, Seat};
use crate::i18n::{Lang, Text};

/// A face-up Lab card, with everything drawn on it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CardView {
    pub id: String,
    /// The data file's (English) name; players read [`card_name`].
    pub name: String,
    /// The card's template row (1..=15) naming it in the catalogs, 0 for a card of its own.
    pub template: u8,
    pub agency: Agency,
    pub specialty: Specialty,
    pub cost: u8,
    pub effect: LabEffect,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ObjectiveView {
    pub id: String,
    pub need: Vec<(Agency, u8)>,
    pub specialty: Specialty,
    pub effect: BottomEffect,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TileView {
    pub id: String,
    pub value: i64,
    pub bonus: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SlotView {
    pub id: String,
    pub row: Row,
    /// Capsule indices it touches.
    pub capsules: Vec<usize>,
    pub grid: (i32, i32),
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct StationView {
    pub hand: usize,
    pub projects: usize,
    /// Lab END + bottom END + Validation (public information only).
    pub visible: i64,
    pub slots: Vec<Option<CardView>>,
    /// The three tiles dealt face up, before they are arranged.
    pub dealt: Vec<ObjectiveView>,
    /// On c1 c2 c3 once arranged.
    pub objectives: Option<Vec<ObjectiveView>>,
    pub validated: Vec<Option<TileView>>,
}

/// One seat's final result (after game over: Projects revealed).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FinalView {
    pub breakdown: Breakdown,
    pub total: i64,
    pub rank: u8,
    /// Project codes held, with copies.
    pub projects: Vec<(String, i64)>,
    pub project_count: usize,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PublicView {
    pub data_version: String,
    pub turn_no: u32,
    pub first: Seat,
    pub current: Seat,
    /// The seat to decide now; `None` when the game is over.
    pub to_act: Option<Seat>,
    pub prompt_kind: Option<&'static str>,
    pub lab_deck: usize,
    pub discard: Vec<CardView>,
    /// By agency red, blue, green, gold.
    pub centre: Vec<Vec<CardView>>,
    /// The reveal area (only while `take_revealed` is pending).
    pub revealed: Vec<CardView>,
    pub project_deck: usize,
    /// c1 c2 c3 piles, top first.
    pub piles: Vec<Vec<TileView>>,
    pub capsule_colours: Vec<String>,
    pub slots: Vec<SlotView>,
    pub stations: Vec<StationView>,
    /// Seats still to play in the final round, once it is triggered.
    pub final_round: Option<Vec<Seat>>,
    pub finals: Option<Vec<FinalView>>,
    /// The options that change play (chosen at setup, known to all).
    pub rules: Opts,
    /// Cards the current seat placed in its Place action so far (each placement was public).
    pub placed_this_action: u8,
    /// The seat whose station triggered the end, once triggered.
    pub end_trigger: Option<Seat>,
    /// What the latest turn that did something public did (the board marks it).
    pub last: Option<LastTurn>,
}

/// A card in the private hand.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct HandCard {
    pub card: CardView,
    pub affordable: bool,
    /// Drawn face down this turn.
    pub drawn: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ProjectView {
    pub code: String,
    pub name: String,
    pub copies: u8,
    pub held: i64,
    pub scoring: ProjectScoring,
    /// What these copies score for the station as it stands.
    pub value: i64,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PrivateView {
    pub seat: Seat,
    /// Sorted by agency, then cost, then id.
    pub hand: Vec<HandCard>,
    pub projects: Vec<ProjectView>,
    pub visible: i64,
    pub projected: i64,
    pub returned: Vec<String>,
    /// Tiles to arrange (during setup) or on c1 c2 c3.
    pub objectives: Vec<ObjectiveView>,
    /// This seat's placement in progress, while it is the one deciding inside it.
    pub pending: Option<PendingView>,
}

/// The choices of a placement not committed yet and the draw being resolved: shown to the
/// placing seat only (the card and its payments are still hand cards).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PendingView {
    /// The agency filter of a long hand (`from`), if chosen.
    pub filter: Option<Agency>,
    /// The card chosen and its slot, once chosen.
    pub card: Option<String>,
    pub slot: Option<String>,
    /// Payments chosen so far.
    pub paid: Vec<String>,
    /// Project codes just drawn, in draw order, and where the draw came from (keep prompt).
    pub drawn: Vec<String>,
    pub source: Option<Source>,
    /// The committed placement still resolving (its card, slot and next step), if paused.
    pub resolving: Option<(String, String, u8)>,
}

pub fn card_view(d: &Data, c: u8) -> Option<CardView> {
    let l = d.lab(c)?;
    Some(CardView {
        id: l.id.clone(),
        name: l.name.clone(),
        template: l.template,
        agency: l.agency,
        specialty: l.specialty,
        cost: l.cost,
        effect: l.effect,
    })
}

fn cards(d: &Data, ids: &[u8]) -> Vec<CardView> {
    ids.iter().filter_map(|&c| card_view(d, c)).collect()
}

fn objective_view(d: &Data, o: u8) -> Option<ObjectiveView> {
    let x = d.objective(o)?;
    Some(ObjectiveView {
        id: x.id.clone(),
        need: x.need.clone(),
        specialty: x.specialty,
        effect: x.effect,
    })
}

fn tile_view(d: &Data, t: u8) -> TileView {
    d.tile(t).map_or(
        TileView {
            id: "-".into(),
            value: 0,
            bonus: false,
        },
        |x| TileView {
            id: x.id.clone(),
            value: x.value,
            bonus: x.bonus,
        },
    )
}

impl SpaceLab {
    pub fn build_public(&self) -> PublicView {
        let d = self.data();
        let stations = self
            .seat_ids()
            .map(|s| {
                let p = self.player(s);
                StationView {
                    hand: p.hand.len(),
                    projects: p.projects.len(),
                    visible: self.breakdown(s).visible(),
                    slots: p
                        .station
                        .iter()
                        .map(|c| c.and_then(|c| card_view(d, c)))
                        .collect(),
                    dealt: p
                        .dealt
                        .iter()
                        .filter_map(|&o| objective_view(d, o))
                        .collect(),
                    objectives: p
                        .objectives
                        .map(|o| o.iter().filter_map(|&x| objective_view(d, x)).collect()),
                    validated: p
                        .validated
                        .iter()
                        .map(|v| v.map(|t| tile_view(d, t)))
                        .collect(),
                }
            })
            .collect();
        let finals = self.final_scores.as_ref().map(|scores| {
            let ranks = self
                .outcome
                .as_ref()
                .map(|o| o.ranks.clone())
                .unwrap_or_default();
            scores
                .iter()
                .enumerate()
                .map(|(i, b)| FinalView {
                    breakdown: *b,
                    total: b.total(),
                    rank: ranks.get(i).copied().unwrap_or(0),
                    projects: self
                        .project_scores(Seat::at(i))
                        .iter()
                        .map(|&(k, c, _)| (d.kind_code(k), c))
                        .collect(),
                    project_count: self.players[i].projects.len(),
                })
                .collect()
        });
        PublicView {
            data_version: d.version.clone(),
            turn_no: self.turn_no,
            first: self.first,
            current: self.current,
            to_act: self.to_act(),
            prompt_kind: self.prompt_kind(),
            lab_deck: self.lab_deck.len(),
            discard: cards(d, &self.lab_discard),
            centre: self.centre.iter().map(|c| cards(d, c)).collect(),
            revealed: if self.phase == Phase::TakeRevealed {
                cards(d, &self.revealed)
            } else {
                Vec::new()
            },
            project_deck: self.project_deck.len(),
            piles: self
                .piles
                .iter()
                .map(|p| p.iter().map(|&t| tile_view(d, t)).collect())
                .collect(),
            capsule_colours: d.capsules.iter().map(|c| c.colour.clone()).collect(),
            slots: d
                .slots
                .iter()
                .map(|g| SlotView {
                    id: g.id.clone(),
                    row: g.row,
                    capsules: g.capsules.clone(),
                    grid: g.grid,
                })
                .collect(),
            stations,
            final_round: self.end.as_ref().map(|e| {
                let mut v: Vec<Seat> = Vec::new();
                if self.phase != Phase::Over && self.current != e.trigger {
                    v.push(self.current);
                }
                v.extend(e.remaining.iter().copied());
                v
            }),
            finals,
            rules: self.opts,
            placed_this_action: self.player(self.current).placed_this_action,
            end_trigger: self.end.as_ref().map(|e| e.trigger),
            last: self.last.iter().rev().find(|l| l.shows()).cloned(),
        }
    }

    /// The placement in progress of seat `s`, when it is the seat deciding inside one.
    fn pending_view(&self, s: Seat) -> Option<PendingView> {
        if s != self.current {
            return None;
        }
        let d = self.data();
        let mut v = PendingView {
            filter: None,
            card: None,
            slot: None,
            paid: Vec::new(),
            drawn: Vec::new(),
            source: None,
            resolving: self
                .resolving
                .map(|r| (d.lab_id(r.card), d.slot_id(r.slot), r.step)),
        };
        match &self.phase {
            Phase::PlaceCard { filter } => v.filter = *filter,
            Phase::PlaceSlot { card } => v.card = Some(d.lab_id(*card)),
            Phase::PlacePay {
                card,
                slot,
                paid,
                filter,
            } => {
                v.card = Some(d.lab_id(*card));
                v.slot = Some(d.slot_id(*slot));
                v.paid = paid.iter().map(|&c| d.lab_id(c)).collect();
                v.filter = *filter;
            }
            Phase::KeepProject { drawn, source } => {
                v.drawn = drawn.iter().map(|&c| d.kind_code(d.kind_of(c))).collect();
                v.source = Some(*source);
            }
            Phase::Bonus => {}
            _ => return None,
        }
        Some(v)
    }

    pub fn build_private(&self, s: Seat) -> Option<PrivateView> {
        let d = self.data();
        let p = self.players.get(s.index())?;
        let affordable = if self.phase != Phase::Over {
            self.affordable_for(s)
        } else {
            Vec::new()
        };
        let mut hand: Vec<HandCard> = p
            .hand
            .iter()
            .filter_map(|&c| {
                Some(HandCard {
                    card: card_view(d, c)?,
                    affordable: affordable.contains(&c),
                    drawn: p.drawn.contains(&c),
                })
            })
            .collect();
        hand.sort_by(|a, b| {
            (a.card.agency, a.card.cost, &a.card.id).cmp(&(b.card.agency, b.card.cost, &b.card.id))
        });
        let projects: Vec<ProjectView> = self
            .project_scores(s)
            .into_iter()
            .filter_map(|(k, held, value)| {
                let kind = d.kinds.get(usize::from(k))?;
                Some(ProjectView {
                    code: kind.code.clone(),
                    name: kind.name.clone(),
                    copies: kind.copies,
                    held,
                    scoring: kind.scoring.clone(),
                    value,
                })
            })
            .collect();
        let b = self.breakdown(s);
        let objectives = p
            .objectives
            .unwrap_or(p.dealt)
            .iter()
            .filter_map(|&o| objective_view(d, o))
            .collect();
        Some(PrivateView {
            seat: s,
            hand,
            projects,
            visible: b.visible(),
            projected: b.total(),
            returned: p.returned.iter().map(|&k| d.kind_code(k)).collect(),
            objectives,
            pending: self.pending_view(s),
        })
    }
}

fn tr(ctx: &RenderCtx, key: &str) -> Text {
    let _ = ctx;
    Text::new(format!("spacelab.{key}"))
}

/// A Lab card's name in `lang`: its template's catalog name, else the data file's.
pub fn card_name(c: &CardView, lang: Lang) -> String {
    let key = format!("spacelab.card_name.t{}", c.template);
    if c.template > 0 && crate::i18n::has_key(&key) {
        crate::i18n::tr(lang, &key)
    } else {
        c.name.clone()
    }
}

/// A Project's name in `lang`: its catalog name, else the data file's.
pub fn project_name(p: &ProjectView, lang: Lang) -> String {
    let key = format!("spacelab.project_name.{}", p.code);
    if crate::i18n::has_key(&key) {
        crate::i18n::tr(lang, &key)
    } else {
        p.name.clone()
    }
}

/// Card id, cost and short effect, e.g. `red13 (3, D, 6)`.
pub fn card_line(c: &CardView, ctx: &RenderCtx) -> String {
    format!(
        "{} ({}, {}, {})",
        c.id,
        c.cost,
        c.specialty.letter(),
        effect_short(&c.effect).render(ctx.lang)
    )
}

/// The short effect text drawn on mini-cards (spec section 11).
pub fn effect_short(e: &LabEffect) -> Text {
    effect_text("short", e)
}

/// The full effect text of the private hand.
pub fn effect_long(e: &LabEffect) -> Text {
    effect_text("long", e)
}

fn effect_text(table: &str, e: &LabEffect) -> Text {
    let k = |key: &str| Text::new(format!("spacelab.{table}.{key}"));
    match *e {
        LabEffect::Flat { vp } => k("flat").arg("vp", vp),
        LabEffect::InRow { row, vp } => k(match row {
            Row::Top => "in_top",
            Row::Middle => "in_middle",
            Row::Bottom => "in_bottom",
        })
        .arg("vp", vp),
        LabEffect::SameAgencyInRow { vp } => k("same_agency").arg("vp", vp),
        LabEffect::SameSpecialtyInStation { vp } => k("same_specialty").arg("vp", vp),
        LabEffect::PerProject { vp } => k("per_project").arg("vp", vp),
        LabEffect::PerValidated { vp } => k("per_validated").arg("vp", vp),
        LabEffect::DistinctAgenciesInRow { vp } => k("distinct_agencies").arg("vp", vp),
        LabEffect::DrawLab { n } => k("draw_lab").arg("n", n),
        LabEffect::DrawProject { n } => k("draw_project").arg("n", n),
    }
}

pub fn bottom_short(e: &BottomEffect) -> Text {
    Text::new(format!("spacelab.bottom_short.{}", e.id()))
}

pub fn scoring_text(s: &ProjectScoring) -> Text {
    let k = |key: &str| Text::new(format!("spacelab.scoring.{key}"));
    match s {
        ProjectScoring::PerSpecialty { specialty, vp } => k("per_specialty").arg("vp", *vp).arg(
            "specialty",
            Text::new(format!("spacelab.specialty.{}", specialty.id())),
        ),
        ProjectScoring::SetTable { table } => k("set_table").arg(
            "table",
            table
                .iter()
                .enumerate()
                .skip(1)
                .map(|(i, v)| format!("{i}→{v}"))
                .collect::<Vec<_>>()
                .join(", "),
        ),
        ProjectScoring::Pairs { pair_vp, single_vp } => {
            k("pairs").arg("pair", *pair_vp).arg("single", *single_vp)
        }
        ProjectScoring::AgenciesWithMinCards { min_cards, vp } => {
            k("agencies_min").arg("vp", *vp).arg("min", *min_cards)
        }
        ProjectScoring::SpecialtySets { vp } => k("specialty_sets").arg("vp", *vp),
    }
}

fn need_text(o: &ObjectiveView) -> String {
    o.need
        .iter()
        .map(|(a, n)| format!("{n}{}", a.letter()))
        .collect::<Vec<_>>()
        .join("+")
}

/// Text summary of the public view (alt text, the table's `board` command).
pub fn public_summary(v: &PublicView, ctx: &RenderCtx) -> String {
    let mut out = Vec::new();
    let head = match v.to_act {
        Some(s) => tr(ctx, "summary.head")
            .arg("turn", v.turn_no)
            .arg("seat", s),
        None => tr(ctx, "summary.head_over"),
    };
    out.push(head.render_with(ctx.lang, &ctx.names));
    out.push(
        tr(ctx, "summary.supply")
            .arg("deck", v.lab_deck)
            .arg("discard", v.discard.len())
            .arg("projects", v.project_deck)
            .render(ctx.lang),
    );
    let centre: Vec<String> = Agency::ALL
        .iter()
        .zip(&v.centre)
        .map(|(a, cs)| {
            let ids: Vec<&str> = cs.iter().map(|c| c.id.as_str()).collect();
            format!("{} [{}]", a.letter(), ids.join(" "))
        })
        .collect();
    out.push(
        tr(ctx, "summary.centre")
            .arg("centre", centre.join(" · "))
            .render(ctx.lang),
    );
    if !v.revealed.is_empty() {
        let ids: Vec<&str> = v.revealed.iter().map(|c| c.id.as_str()).collect();
        out.push(
            tr(ctx, "summary.revealed")
                .arg("ids", ids.join(" "))
                .render(ctx.lang),
        );
    }
    let piles: Vec<String> = v
        .piles
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let vals: Vec<String> = p
                .iter()
                .map(|t| format!("{}{}", t.value, if t.bonus { "★" } else { "" }))
                .collect();
            format!("c{} [{}]", i + 1, vals.join(" "))
        })
        .collect();
    out.push(
        tr(ctx, "summary.piles")
            .arg("piles", piles.join(" · "))
            .render(ctx.lang),
    );
    if let Some(still) = &v.final_round {
        let names: Vec<String> = still.iter().map(|&s| ctx.name(s)).collect();
        out.push(
            tr(ctx, "summary.final_round")
                .arg("seats", names.join(", "))
                .render(ctx.lang),
        );
    }
    for (i, st) in v.stations.iter().enumerate() {
        let s = Seat::at(i);
        let slots: Vec<String> = st
            .slots
            .iter()
            .zip(&v.slots)
            .filter_map(|(c, g)| c.as_ref().map(|c| format!("{}={}", g.id, c.id)))
            .collect();
        let objs = match &st.objectives {
            Some(os) => os
                .iter()
                .enumerate()
                .map(|(c, o)| {
                    let tile = st.validated.get(c).and_then(Option::as_ref);
                    format!(
                        "c{}:{} {}{}",
                        c + 1,
                        o.id,
                        need_text(o),
                        tile.map_or_else(String::new, |t| format!(" ✓{}", t.value))
                    )
                })
                .collect::<Vec<_>>()
                .join(", "),
            None => st
                .dealt
                .iter()
                .map(|o| o.id.clone())
                .collect::<Vec<_>>()
                .join(" "),
        };
        out.push(
            tr(ctx, "summary.station")
                .arg("seat", s)
                .arg("hand", st.hand)
                .arg("projects", st.projects)
                .arg("vp", st.visible)
                .arg("objectives", objs)
                .arg(
                    "slots",
                    if slots.is_empty() {
                        "-".into()
                    } else {
                        slots.join(" ")
                    },
                )
                .render_with(ctx.lang, &ctx.names),
        );
    }
    if let Some(finals) = &v.finals {
        for (i, f) in finals.iter().enumerate() {
            let s = Seat::at(i);
            let projs: Vec<String> = f.projects.iter().map(|(c, n)| format!("{c}×{n}")).collect();
            out.push(
                tr(ctx, "summary.final")
                    .arg("seat", s)
                    .arg("rank", f.rank)
                    .arg("total", f.total)
                    .arg("lab", f.breakdown.lab_end)
                    .arg("bottom", f.breakdown.bottom_end)
                    .arg("validation", f.breakdown.validation)
                    .arg("projects", f.breakdown.projects)
                    .arg("list", projs.join(" "))
                    .render_with(ctx.lang, &ctx.names),
            );
        }
    }
    out.join("\n")
}

/// Text summary of one seat's private view.
pub fn private_summary(v: &PrivateView, ctx: &RenderCtx) -> String {
    let mut out = Vec::new();
    let hand: Vec<String> = v
        .hand
        .iter()
        .map(|h| {
            format!(
                "{}{}{}",
                card_line(&h.card, ctx),
                if h.affordable { " ✓" } else { "" },
                if h.drawn { " ★" } else { "" }
            )
        })
        .collect();
    out.push(
        tr(ctx, "summary.hand")
            .arg("count", v.hand.len())
            .arg(
                "cards",
                if hand.is_empty() {
                    "-".into()
                } else {
                    hand.join(", ")
                },
            )
            .render(ctx.lang),
    );
    let projects: Vec<String> = v
        .projects
        .iter()
        .map(|p| format!("{}×{} = {}", p.code, p.held, p.value))
        .collect();
    out.push(
        tr(ctx, "summary.projects")
            .arg(
                "list",
                if projects.is_empty() {
                    "-".into()
                } else {
                    projects.join(", ")
                },
            )
            .arg("visible", v.visible)
            .arg("projected", v.projected)
            .render(ctx.lang),
    );
    if !v.returned.is_empty() {
        out.push(
            tr(ctx, "summary.returned")
                .arg("list", v.returned.join(" "))
                .render(ctx.lang),
        );
    }
    out.join("\n")
}
