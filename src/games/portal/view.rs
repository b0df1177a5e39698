//! What the table sees (spec section 9) and what one seat sees. The public view has no field
//! for hidden hands (with `hands = hidden`), the deck below its top, panel ids, back faces
//! (unless `show_backs`), the set-aside panels or the RNG.

use serde::Serialize;

use super::moves::Icon;
use super::state::{Card, Ch, EndReason, Floor, Opts, Portal, Step, TurnState};
use crate::engine::{RenderCtx, Seat};
use crate::i18n::Text;

/// One chamber, ready to draw.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ChamberView {
    pub id: String,
    pub floor: Floor,
    pub c: u16,
    pub icons: Vec<Icon>,
    /// The face-down side, only with `show_backs = true`.
    pub back: Option<Vec<Icon>>,
    /// Subjects per seat.
    pub subjects: Vec<u8>,
    /// Cake slices per colour (seat).
    pub cake: Vec<u8>,
    pub portal: bool,
    pub turret: bool,
    pub cube: bool,
    /// GLaDOS sits here (being activated).
    pub glados: bool,
    pub new_edge: bool,
    pub old_edge: bool,
    /// An old-edge chamber that may not be activated now (split rule or Morality Core).
    pub locked: bool,
    /// Touched by the last decision.
    pub touched: bool,
}

/// A hand as the table sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum HandView {
    /// `hands = open`: the cards and their freshness.
    Open(Vec<(Card, bool)>),
    /// `hands = hidden`: only how many cards, and how many are fresh.
    Hidden { size: u8, fresh: u8 },
}

impl HandView {
    pub fn size(&self) -> usize {
        match self {
            HandView::Open(v) => v.len(),
            HandView::Hidden { size, .. } => usize::from(*size),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SeatView {
    /// `blue`, `red`, `yellow` or `green`.
    pub colour: &'static str,
    /// Cake in the Lab: the score.
    pub cake: u32,
    pub lab: u32,
    pub supply: u8,
    pub cake_supply: u8,
    pub incinerated: u8,
    pub hand: HandView,
    /// In the Vote phase: this seat has voted (not for whom).
    pub voted: bool,
}

/// The final result, for the banner.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct EndView {
    pub reason: Text,
    pub winners: Vec<Seat>,
    /// The tie-break that decided: 0 cake, 1 subjects, 2 shared or vote.
    pub tiebreak: u8,
}

/// Everything a player may see, in drawing-ready form.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PublicView {
    pub chambers: Vec<ChamberView>,
    /// The panel lifted out while its floor is chosen: old id, face, tokens.
    pub lifted: Option<ChamberView>,
    pub seats: Vec<SeatView>,
    pub round: u16,
    pub max_rounds: u16,
    pub active: Seat,
    /// Who must decide now; `None` when the game is over.
    pub to_act: Option<Seat>,
    pub prompt_kind: Option<&'static str>,
    pub prompt_text: Option<Text>,
    pub deck_size: u8,
    pub deck_top: Option<Card>,
    /// Bottom to top.
    pub discard: Vec<Card>,
    pub character: Option<Card>,
    pub characters_on: bool,
    pub portals: [String; 2],
    pub turret: Option<String>,
    pub cube: Option<String>,
    /// Reward icons still to resolve.
    pub pending: Vec<Icon>,
    pub extra_activations: u8,
    pub cave_used: bool,
    pub card_in_play: Option<Card>,
    pub last_move: Option<(String, String)>,
    pub end: Option<EndView>,
    pub hands_hidden: bool,
    pub engine: EngineView,
}

/// The engine's bookkeeping, all of it known at the table: the options, who started, the
/// pending steps (what the rules will ask or do next) and the turn's flags. Bots rebuild a
/// running game from it ([`super::ai`]). Nothing here depends on a hand, the deck order, a
/// back face or a secret vote.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct EngineView {
    pub opts: Opts,
    pub first: Seat,
    /// Last = next.
    pub agenda: Vec<Step>,
    pub turn: TurnState,
    /// Set while the final vote is open (the game is decided but not yet concluded).
    pub ended: Option<EndReason>,
}

/// One of the seat's own cards.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CardView {
    pub card: Card,
    pub fresh: bool,
}

/// What one seat sees besides the public view.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PrivateView {
    pub seat: Seat,
    pub colour: &'static str,
    pub hand: Vec<CardView>,
    /// In the Vote phase: this seat's own vote (`Some(None)` = abstained).
    pub vote: Option<Option<Seat>>,
    /// The seat's pending options, as notation (empty when it is not asked).
    pub options: Vec<String>,
    pub prompt_text: Option<Text>,
}

impl Portal {
    fn chamber_view(
        &self,
        f: Floor,
        x: &super::state::Chamber,
        id: Ch,
        lifted: bool,
    ) -> ChamberView {
        let data = self.data();
        let panel = &data.panels[usize::from(x.panel)];
        let n = self.n();
        let legal = self.activatable();
        let old = !lifted && self.is_old_edge(id);
        ChamberView {
            id: id.to_string(),
            floor: f,
            c: id.c,
            icons: panel.face(x.face).to_vec(),
            back: self
                .opts
                .show_backs
                .then(|| panel.face(x.face.other()).to_vec()),
            subjects: x.subj[..n].to_vec(),
            cake: x.cake[..n].to_vec(),
            portal: self.portals.contains(&id),
            turret: self.turret == Some(id),
            cube: self.cube == Some(id),
            glados: self.turn.activated == Some(id),
            new_edge: !lifted && self.is_new_edge(id),
            old_edge: old,
            locked: old && self.outcome.is_none() && !legal.contains(&f),
            touched: self.touched.contains(&id),
        }
    }

    /// The public view.
    pub fn build_public(&self) -> PublicView {
        let mut chambers = Vec::new();
        for f in Floor::ALL {
            for x in self.floor(f) {
                chambers.push(self.chamber_view(f, x, Ch::new(f, x.c), false));
            }
        }
        let lifted = self
            .lifted
            .as_ref()
            .map(|l| self.chamber_view(l.from.f, &l.chamber, l.from, true));
        let voted: Vec<Seat> = self
            .vote
            .as_ref()
            .map(|v| v.voters.iter().take(v.votes.len()).copied().collect())
            .unwrap_or_default();
        let seats = self
            .seat_ids()
            .map(|s| {
                let st = self.seat(s);
                let hand = if self.opts.hidden_hands {
                    HandView::Hidden {
                        size: u8::try_from(st.hand.len()).unwrap_or(u8::MAX),
                        fresh: u8::try_from(st.hand.iter().filter(|h| h.fresh).count())
                            .unwrap_or(u8::MAX),
                    }
                } else {
                    HandView::Open(st.hand.iter().map(|h| (h.card, h.fresh)).collect())
                };
                SeatView {
                    colour: self.colour_name(s),
                    cake: self.cake_in_lab(s),
                    lab: self.subjects_in_lab(s),
                    supply: st.subject_supply,
                    cake_supply: st.cake_supply,
                    incinerated: st.incinerated,
                    hand,
                    voted: voted.contains(&s),
                }
            })
            .collect();
        let step = self.current();
        let end = self.outcome.as_ref().map(|o| {
            let key = |s: Seat| (self.cake_in_lab(s), self.subjects_in_lab(s));
            let w0 = o.winners.first().copied().unwrap_or(Seat(0));
            let tiebreak = if o.winners.len() > 1 || self.vote.is_some() {
                2
            } else if self.seat_ids().any(|s| s != w0 && key(s).0 == key(w0).0) {
                1
            } else {
                0
            };
            EndView {
                reason: self.ended.map_or(Text::raw(""), |r| self.end_text(r)),
                winners: o.winners.clone(),
                tiebreak,
            }
        });
        PublicView {
            chambers,
            lifted,
            seats,
            round: self.round,
            max_rounds: self.opts.max_rounds,
            active: self.active,
            to_act: step.map(|s| self.step_seat(s)),
            prompt_kind: step.map(super::state::Step::kind),
            prompt_text: step.map(|s| self.prompt_text_pub(s)),
            deck_size: u8::try_from(self.deck.len()).unwrap_or(u8::MAX),
            deck_top: self.deck.last().copied(),
            discard: self.discard.clone(),
            character: self.character(),
            characters_on: self.opts.characters,
            portals: self.portals.map(|p| p.to_string()),
            turret: self.turret.map(|t| t.to_string()),
            cube: self.cube.map(|t| t.to_string()),
            pending: self.turn.pending.clone(),
            extra_activations: self.turn.extra_activations,
            cave_used: self.turn.cave_used,
            card_in_play: self.turn.resolving,
            last_move: self.last_move.map(|(a, b)| (a.to_string(), b.to_string())),
            end,
            hands_hidden: self.opts.hidden_hands,
            engine: EngineView {
                opts: self.opts.clone(),
                first: self.first,
                agenda: self.agenda.clone(),
                turn: self.turn.clone(),
                ended: self.ended,
            },
        }
    }

    /// The private view of `seat`.
    pub fn build_private(&self, seat: Seat) -> Option<PrivateView> {
        let st = self.seats.get(seat.index())?;
        let step = self.current();
        let mine = step.is_some_and(|s| self.step_seat(s) == seat);
        let vote = self.vote.as_ref().and_then(|v| {
            v.voters
                .iter()
                .position(|&x| x == seat)
                .and_then(|i| v.votes.get(i).copied())
        });
        Some(PrivateView {
            seat,
            colour: self.colour_name(seat),
            hand: st
                .hand
                .iter()
                .map(|h| CardView {
                    card: h.card,
                    fresh: h.fresh,
                })
                .collect(),
            vote,
            options: match step {
                Some(s) if mine => self
                    .options(s)
                    .iter()
                    .map(|a| super::notation::notation(self, a))
                    .collect(),
                _ => Vec::new(),
            },
            prompt_text: step.filter(|_| mine).map(|s| self.prompt_text_pub(s)),
        })
    }
}

fn team(view: &PublicView, s: Seat) -> Text {
    Text::new("portal.team").arg("seat", s).arg(
        "colour",
        Text::new(format!(
            "portal.colour.{}",
            view.seats.get(s.index()).map_or("blue", |x| x.colour)
        )),
    )
}

fn card_name(c: Card) -> Text {
    Text::new(format!("portal.card.{}.name", c.slug()))
}

fn icons(v: &[Icon]) -> String {
    v.iter()
        .map(|i| i.code().to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The text board of spec 11.3, localized headers.
pub fn public_summary(view: &PublicView, ctx: &RenderCtx) -> String {
    let r = |t: Text| t.render_with(ctx.lang, &ctx.names);
    let mut lines = Vec::new();
    let head = match (&view.end, view.to_act) {
        (Some(end), _) => {
            let w: Vec<Text> = end.winners.iter().map(|&s| team(view, s)).collect();
            Text::new("portal.summary.over")
                .arg("reason", end.reason.clone())
                .arg("count", w.len() as i64)
                .arg("winners", w)
        }
        (None, Some(s)) => Text::new("portal.summary.turn")
            .arg("round", u32::from(view.round))
            .arg("team", team(view, view.active))
            .arg("waiting", team(view, s))
            .arg(
                "prompt",
                view.prompt_text.clone().unwrap_or_else(|| Text::raw("")),
            ),
        (None, None) => Text::raw(""),
    };
    lines.push(r(head));
    let character = match view.character {
        Some(c) => card_name(c),
        None => Text::new("portal.summary.no_character"),
    };
    let top = match view.deck_top {
        Some(c) => card_name(c),
        None => Text::new("portal.summary.empty"),
    };
    lines.push(r(Text::new("portal.summary.cards")
        .arg("character", character)
        .arg("deck", u32::from(view.deck_size))
        .arg("top", top)
        .arg("discard", view.discard.len())));
    for f in Floor::ALL {
        let mut parts = Vec::new();
        for x in view.chambers.iter().filter(|x| x.floor == f) {
            let mut pieces = Vec::new();
            for (s, &n) in x.subjects.iter().enumerate() {
                if n > 0 {
                    let letter = view.seats[s].colour.chars().next().unwrap_or('?');
                    pieces.push(format!("{}{n}", letter.to_ascii_uppercase()));
                }
            }
            for (s, &n) in x.cake.iter().enumerate() {
                if n > 0 {
                    let letter = view.seats[s].colour.chars().next().unwrap_or('?');
                    pieces.push(format!("c{}{n}", letter.to_ascii_uppercase()));
                }
            }
            if x.portal {
                pieces.push("P".into());
            }
            if x.turret {
                pieces.push("T".into());
            }
            if x.cube {
                pieces.push("Q".into());
            }
            if x.glados {
                pieces.push("@".into());
            }
            parts.push(format!(
                "{}{{{}}}[{}]",
                x.id,
                icons(&x.icons),
                pieces.join(" ")
            ));
        }
        let indent = if f == Floor::Mid { "   " } else { "" };
        lines.push(format!("{:<4}{indent}{} <OLD", f.name(), parts.join("  ")));
    }
    if let Some(l) = &view.lifted {
        lines.push(r(Text::new("portal.summary.lifted")
            .arg("from", l.id.clone())
            .arg("face", icons(&l.icons))));
    }
    for (i, s) in view.seats.iter().enumerate() {
        let hand = match &s.hand {
            HandView::Open(cards) => cards
                .iter()
                .map(|(c, f)| format!("{}{}", c.slug(), if *f { "*" } else { "" }))
                .collect::<Vec<_>>()
                .join(" "),
            HandView::Hidden { size, .. } => format!("{size}"),
        };
        lines.push(r(Text::new("portal.summary.seat")
            .arg("team", team(view, Seat::at(i)))
            .arg("cake", s.cake)
            .arg("lab", s.lab)
            .arg("supply", u32::from(s.supply))
            .arg("cake_supply", u32::from(s.cake_supply))
            .arg("inc", u32::from(s.incinerated))
            .arg("hand", hand)));
    }
    lines.join("\n")
}

/// The seat's hand and options as text.
pub fn private_summary(view: &PrivateView, ctx: &RenderCtx) -> String {
    let r = |t: Text| t.render_with(ctx.lang, &ctx.names);
    let mut lines = vec![r(
        Text::new("portal.summary.your_hand").arg("count", view.hand.len())
    )];
    for h in &view.hand {
        let base = format!("portal.card.{}", h.card.slug());
        lines.push(format!(
            "{}{} · {} / {}",
            r(Text::new(format!("{base}.name"))),
            if h.fresh { " ★" } else { "" },
            r(Text::new(format!("{base}.aperture"))),
            r(Text::new(format!("{base}.character"))),
        ));
    }
    if let Some(t) = &view.prompt_text {
        lines.push(r(t.clone()));
        lines.push(view.options.join(" | "));
    }
    lines.join("\n")
}

impl Portal {
    /// Prompt text for the public: never names cards in a hidden hand.
    pub(crate) fn prompt_text_pub(&self, step: &super::state::Step) -> Text {
        self.prompt_text_for(step)
    }
}
