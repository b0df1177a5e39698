//! What the table sees (spec section 9) and what one seat sees besides. The public view has
//! no field for any hand, the deck orders or a face-down scroll; the private view holds the
//! seat's own hand (both halves of each card) and, on its own prompt, the options.

use serde::Serialize;

use super::components::{CardId, Effect, Region, Scroll};
use super::notation::{card_str, notation};
use super::rules::{d, rune_points, Ask};
use super::state::{Ending, Gate, Gates, Mode, Opts, Step, OWNERS};
use crate::engine::{RenderCtx, Seat};
use crate::i18n::Text;

/// A card shown face up: its id, the half it was played on and that half's effect.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PlayedView {
    pub id: String,
    pub half: Mode,
    pub effect: Effect,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RegionView {
    pub region: Region,
    pub gate_size: u8,
    /// 1st / 2nd / 3rd place values.
    pub values: [i64; 3],
    /// Investigators per owner: red blue green yellow neutral.
    pub counts: [u8; OWNERS],
    pub tint: u32,
    /// Scored by the last option.
    pub scored: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PlayerView {
    pub score: i64,
    pub despair: u8,
    pub supply: u8,
    pub on_board: u8,
    pub hand_size: usize,
    pub turns_started: u32,
    pub pages: Vec<u8>,
    /// NW NE SW SE.
    pub fragments: [usize; 4],
    pub runes: usize,
    pub rune_points: i64,
    pub gates: Vec<Gate>,
    /// The journal's cards in filing order: each was played face up.
    pub filed: Vec<String>,
}

/// Everything a spectator may see.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PublicView {
    pub seats: u8,
    pub duel: bool,
    pub round: u32,
    pub round_limit: u32,
    pub first: Seat,
    /// The seat deciding now; `None` when over.
    pub to_act: Option<Seat>,
    pub prompt_kind: Option<&'static str>,
    pub mode: Option<Mode>,
    pub cards_played: u8,
    pub played: Vec<PlayedView>,
    pub in_play: Option<PlayedView>,
    pub regions: Vec<RegionView>,
    /// Remaining monstrosity discs, top first: value and scroll icon.
    pub discs: Vec<(u8, bool)>,
    /// Scroll slots: `None` while face down.
    pub scrolls: Vec<Option<Scroll>>,
    pub pool: [Option<Region>; 4],
    pub gate_deck: usize,
    pub deck: usize,
    /// Face up, bottom first.
    pub discard: Vec<String>,
    pub despair_supply: u8,
    /// Current costs of swap, refresh, flip, score.
    pub costs: [u8; 4],
    pub players: Vec<PlayerView>,
    pub ending: Option<Ending>,
    /// The table options, chosen in the open at `/play`.
    pub options: Opts,
    /// Where the card being resolved stands (left sends and builds, the convert in progress),
    /// the swap discards still owed and the complete gates waiting to open: all played in
    /// the open. A bot rebuilds the turn from them.
    pub step: Step,
    pub swap_discards_left: u8,
    pub pending: Vec<usize>,
}

/// One hand card with both halves.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct HandCard {
    pub id: String,
    pub sane: Effect,
    pub insane: Effect,
    /// Drawn by the last draw.
    pub new: bool,
}

/// What one seat sees besides the public view.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PrivateView {
    pub seat: Seat,
    pub mode: Option<Mode>,
    pub hand: Vec<HandCard>,
    /// The prompt kind and its options in notation, when this seat decides now.
    pub prompt_kind: Option<&'static str>,
    pub options: Vec<String>,
    pub despair: u8,
    /// The game has ended (the hand image says so instead of "waiting").
    pub over: bool,
}

fn played(c: CardId, half: Mode, file_always: bool) -> PlayedView {
    let def = d().card(c);
    PlayedView {
        id: def.id.clone(),
        half,
        effect: def.half(half, file_always),
    }
}

impl Gates {
    pub fn build_public(&self) -> PublicView {
        let ask = self.ask();
        let costs = super::moves::Desperate::ALL.map(|a| self.cost(a));
        PublicView {
            seats: self.seats,
            duel: self.duel,
            round: self.round,
            round_limit: self.opts.round_limit,
            first: self.first,
            to_act: ask.map(|_| self.active),
            prompt_kind: ask.map(Ask::kind),
            mode: self.mode,
            cards_played: self.turn.cards_played,
            played: self
                .turn
                .played
                .iter()
                .map(|&(c, h)| played(c, h, self.opts.file_always))
                .collect(),
            in_play: self
                .turn
                .in_play
                .map(|(c, h)| played(c, h, self.opts.file_always)),
            regions: Region::ALL
                .into_iter()
                .map(|r| {
                    let def = d().region(r);
                    RegionView {
                        region: r,
                        gate_size: def.gate_size,
                        values: if self.duel {
                            def.score_duel
                        } else {
                            def.score_standard
                        },
                        counts: self.board[r.index()],
                        tint: def.tint,
                        scored: self.last_scored.contains(&r),
                    }
                })
                .collect(),
            discs: self
                .discs
                .iter()
                .map(|&v| (v, d().disc(v).is_some_and(|x| x.scroll_icon)))
                .collect(),
            scrolls: self
                .scrolls
                .iter()
                .map(|s| s.revealed.then_some(s.scroll))
                .collect(),
            pool: self.pool,
            gate_deck: self.gate_deck.len(),
            deck: self.deck.len(),
            discard: self.discard.iter().map(|&c| card_str(c)).collect(),
            despair_supply: self.despair_supply,
            costs,
            players: self
                .seat_ids()
                .map(|s| {
                    let p = self.player(s);
                    PlayerView {
                        score: p.score,
                        despair: p.despair,
                        supply: p.supply,
                        on_board: self.on_board(s),
                        hand_size: p.hand.len(),
                        turns_started: p.turns_started,
                        pages: p.pages(),
                        fragments: p.fragments(),
                        runes: p.runes(),
                        rune_points: rune_points(p.runes()),
                        gates: p.gates.clone(),
                        filed: p.filed.iter().map(|&c| card_str(c)).collect(),
                    }
                })
                .collect(),
            ending: self.ending.clone(),
            options: self.opts,
            step: self.turn.step,
            swap_discards_left: self.turn.swap_discards_left,
            pending: self.turn.pending.clone(),
        }
    }

    pub fn build_private(&self, seat: Seat) -> Option<PrivateView> {
        let p = self.players.get(seat.index())?;
        let ask = self.ask().filter(|_| self.active == seat);
        Some(PrivateView {
            seat,
            mode: self.mode,
            hand: p
                .hand
                .iter()
                .map(|&c| {
                    let def = d().card(c);
                    HandCard {
                        id: def.id.clone(),
                        sane: def.half(Mode::Sane, self.opts.file_always),
                        insane: def.half(Mode::Insane, self.opts.file_always),
                        new: p.last_drawn.contains(&c),
                    }
                })
                .collect(),
            prompt_kind: ask.map(Ask::kind),
            options: ask
                .map(|a| self.options(a).iter().map(notation).collect())
                .unwrap_or_default(),
            despair: p.despair,
            over: self.ending.is_some(),
        })
    }
}

/// The text of one half: "Send 2 (+1◆)", "Page 7".
pub fn effect_text(e: Effect) -> Text {
    let t = |k: &str| Text::new(format!("gates.effect.{k}"));
    match e {
        Effect::Page { page } => t("page").arg("n", i64::from(page)),
        Effect::Blueprint { quadrant } => t("blueprint").arg(
            "q",
            Text::new(format!("gates.quadrant.{}", quadrant.code().to_lowercase())),
        ),
        Effect::Rune => t("rune"),
        Effect::Send {
            investigators,
            despair,
        } => t("send")
            .arg("n", i64::from(investigators))
            .arg("d", i64::from(despair)),
        Effect::Build { sections, despair } => t("build")
            .arg("n", i64::from(sections))
            .arg("d", i64::from(despair)),
        Effect::Convert => t("convert"),
    }
}

pub fn mode_text(m: Option<Mode>) -> Text {
    Text::new(format!("gates.mode.{}", m.map_or("unset", |m| m.code())))
}

pub fn scroll_text(s: Scroll) -> Text {
    Text::new(format!("gates.scroll.{}", s.code()))
}

pub fn scroll_effect_text(s: Scroll) -> Text {
    Text::new(format!("gates.scroll_effect.{}", s.code()))
}

fn gate_str(g: &Gate) -> String {
    use super::state::GateState;
    let size = d().region(g.region).gate_size;
    match g.state {
        GateState::Building | GateState::Complete => {
            format!("{} {}/{}", g.region.code(), g.cards, size)
        }
        GateState::Opened { disc } => format!("{} ({disc})", g.region.code()),
        GateState::Unopened => format!("{} {}/{}!", g.region.code(), g.cards, size),
    }
}

/// The text summary of the public view (alt text, the table's `board`).
pub fn public_summary(v: &PublicView, ctx: &RenderCtx) -> String {
    let lang = ctx.lang;
    let mut lines = Vec::new();
    lines.push(
        Text::new("gates.summary.head")
            .arg("round", i64::from(v.round))
            .arg("first", ctx.name(v.first))
            .arg("mode", mode_text(v.mode))
            .render(lang),
    );
    for r in &v.regions {
        let counts: Vec<String> = (0..usize::from(v.seats))
            .map(|i| format!("{} {}", ctx.name(Seat::at(i)), r.counts[i]))
            .chain(v.duel.then(|| {
                format!(
                    "{} {}",
                    Text::new("gates.colour.neutral").render(lang),
                    r.counts[4]
                )
            }))
            .collect();
        lines.push(format!(
            "{} [{}/{}/{}]: {}",
            r.region.name(),
            r.values[0],
            r.values[1],
            r.values[2],
            counts.join(", ")
        ));
    }
    let pool: Vec<&str> = v.pool.iter().map(|p| p.map_or("-", |r| r.code())).collect();
    let discs: Vec<String> = v
        .discs
        .iter()
        .map(|(x, icon)| {
            if *icon {
                format!("{x}*")
            } else {
                x.to_string()
            }
        })
        .collect();
    let scrolls: Vec<String> = v
        .scrolls
        .iter()
        .map(|s| s.map_or("?".to_string(), |s| scroll_text(s).render(lang)))
        .collect();
    lines.push(
        Text::new("gates.summary.table")
            .arg("pool", pool.join(" "))
            .arg("gate_deck", v.gate_deck as i64)
            .arg("discs", discs.join(" "))
            .arg("scrolls", scrolls.join(", "))
            .arg("deck", v.deck as i64)
            .arg("discard", v.discard.len() as i64)
            .arg("supply", i64::from(v.despair_supply))
            .render(lang),
    );
    for (i, p) in v.players.iter().enumerate() {
        let gates: Vec<String> = p.gates.iter().map(gate_str).collect();
        let pages: Vec<String> = p.pages.iter().map(u8::to_string).collect();
        lines.push(
            Text::new("gates.summary.player")
                .arg("name", ctx.name(Seat::at(i)))
                .arg("score", p.score)
                .arg("despair", i64::from(p.despair))
                .arg("supply", i64::from(p.supply))
                .arg("hand", p.hand_size as i64)
                .arg("pages", pages.join(","))
                .arg(
                    "bp",
                    format!(
                        "{}/{}/{}/{}",
                        p.fragments[0], p.fragments[1], p.fragments[2], p.fragments[3]
                    ),
                )
                .arg("runes", p.runes as i64)
                .arg("gates", gates.join(" "))
                .render(lang),
        );
    }
    if let Some(e) = &v.ending {
        let w: Vec<String> = e.winners.iter().map(|&s| ctx.name(s)).collect();
        lines.push(
            Text::new("gates.summary.winners")
                .arg("count", w.len() as i64)
                .arg("winners", w.join(", "))
                .render(lang),
        );
    } else if let Some(s) = v.to_act {
        lines.push(
            Text::new("gates.summary.to_act")
                .arg("name", ctx.name(s))
                .arg(
                    "kind",
                    Text::new(format!("gates.kind.{}", v.prompt_kind.unwrap_or(""))),
                )
                .render(lang),
        );
    }
    lines.join("\n")
}

/// The text summary of a seat's hand.
pub fn private_summary(v: &PrivateView, ctx: &RenderCtx) -> String {
    let lang = ctx.lang;
    let mut lines = vec![Text::new("gates.summary.hand_head")
        .arg("mode", mode_text(v.mode))
        .render(lang)];
    for c in &v.hand {
        lines.push(format!(
            "{}{}: {} / {}",
            c.id,
            if c.new { "*" } else { "" },
            effect_text(c.sane).render(lang),
            effect_text(c.insane).render(lang)
        ));
    }
    if !v.options.is_empty() {
        lines.push(
            Text::new("gates.summary.options")
                .arg("options", v.options.join(" | "))
                .render(lang),
        );
    }
    lines.join("\n")
}
