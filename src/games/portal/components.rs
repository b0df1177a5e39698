//! The data files (spec 3.6): box numbers, the 18 two-sided panels and the 20 cards, embedded
//! in the binary and checked once at load with clear errors.

use serde::Deserialize;
use std::sync::LazyLock;

use super::moves::Icon;
use super::state::{Card, Face};

pub const GAME_SOURCE: &str = include_str!("../../../assets/games/portal/game.toml");
pub const PANELS_SOURCE: &str = include_str!("../../../assets/games/portal/panels.toml");
pub const CARDS_SOURCE: &str = include_str!("../../../assets/games/portal/cards.toml");

/// Why a data file was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DataError {
    #[error("portal {file}: cannot read the file: {msg}")]
    Toml { file: &'static str, msg: String },
    #[error("portal game.toml: {0}")]
    Game(String),
    #[error("portal panels.toml: expected {expected} panels, found {found}")]
    PanelCount { expected: usize, found: usize },
    #[error("portal panels.toml: panel #{index} should be `{expected}`, found `{found}`")]
    PanelId {
        index: usize,
        expected: String,
        found: String,
    },
    #[error("portal panels.toml: panel {id}: unknown icon `{icon}` (known: subject, cake, card, cube, turret)")]
    UnknownIcon { id: String, icon: String },
    #[error("portal panels.toml: panel {id}: {msg}")]
    BadFace { id: String, msg: String },
    #[error("portal cards.toml: expected 20 cards, found {0}")]
    CardCount(usize),
    #[error("portal cards.toml: card #{index}: expected id {index} with slug `{expected}`, found id {id} `{found}` (every slug needs a card script)")]
    CardSlug {
        index: usize,
        expected: &'static str,
        id: usize,
        found: String,
    },
    #[error("portal {file}: set `{found}` is not supported (expected house-v1)")]
    Set { file: &'static str, found: String },
}

#[derive(Deserialize)]
struct RawGame {
    players: RawRange,
    colours: Vec<String>,
    subjects_per_player: u8,
    cake_per_player: u8,
    start_delivery: RawStart,
    floors: u8,
    floor_width: u8,
    panels_total: usize,
    panels_out: usize,
    hand_limit: u8,
    incinerated_limit: u8,
    portal_start: Vec<String>,
}

#[derive(Deserialize)]
struct RawRange {
    min: usize,
    max: usize,
}

#[derive(Deserialize)]
struct RawStart {
    top: u8,
    mid: u8,
    bot: u8,
}

#[derive(Deserialize)]
struct RawPanels {
    official: bool,
    set: String,
    panel: Vec<RawPanel>,
}

#[derive(Deserialize)]
struct RawPanel {
    id: String,
    a: Vec<String>,
    b: Vec<String>,
}

#[derive(Deserialize)]
struct RawCards {
    official: bool,
    set: String,
    card: Vec<RawCard>,
}

#[derive(Deserialize)]
struct RawCard {
    id: usize,
    slug: String,
    name: String,
}

/// One panel: its id (hidden in play) and both faces.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PanelData {
    pub id: String,
    pub a: Vec<Icon>,
    pub b: Vec<Icon>,
}

impl PanelData {
    pub fn face(&self, f: Face) -> &[Icon] {
        match f {
            Face::A => &self.a,
            Face::B => &self.b,
        }
    }
}

/// Everything the engine reads from the data files.
#[derive(Clone, Debug)]
pub struct Data {
    pub min_players: usize,
    pub max_players: usize,
    pub colours: Vec<String>,
    pub subjects: u8,
    pub cake: u8,
    /// Start delivery per floor (top, mid, bot).
    pub start: [u8; 3],
    pub floor_width: u8,
    pub panels_out: usize,
    pub hand_limit: u8,
    pub incinerated_limit: u8,
    pub panels: Vec<PanelData>,
    pub panels_official: bool,
    /// Display names, in `Card::ALL` order.
    pub card_names: Vec<String>,
    pub cards_official: bool,
}

fn toml_err(file: &'static str) -> impl Fn(toml::de::Error) -> DataError {
    move |e| DataError::Toml {
        file,
        msg: e.to_string(),
    }
}

fn icons(id: &str, raw: &[String]) -> Result<Vec<Icon>, DataError> {
    raw.iter()
        .map(|s| {
            Icon::from_name(s).ok_or_else(|| DataError::UnknownIcon {
                id: id.to_string(),
                icon: s.clone(),
            })
        })
        .collect()
}

/// Parses and checks the three files.
pub fn load(game: &str, panels: &str, cards: &str) -> Result<Data, DataError> {
    let g: RawGame = toml::from_str(game).map_err(toml_err("game.toml"))?;
    let bad = |m: &str| Err(DataError::Game(m.to_string()));
    if g.players.min != 2 || g.players.max != 4 || g.colours.len() < g.players.max {
        return bad("players must be 2 to 4, with a colour for each seat");
    }
    if g.floors != 3 || g.floor_width < 3 {
        return bad("the Lab needs 3 floors of at least 3 chambers");
    }
    if g.panels_total != usize::from(g.floors) * usize::from(g.floor_width) + g.panels_out {
        return bad("panels_total must equal floors x floor_width + panels_out");
    }
    let start = [
        g.start_delivery.top,
        g.start_delivery.mid,
        g.start_delivery.bot,
    ];
    if start.iter().map(|&x| u16::from(x)).sum::<u16>() > u16::from(g.subjects_per_player)
        || start.contains(&0)
    {
        return bad("the start delivery must put at least 1 subject per floor, within the supply");
    }
    if g.hand_limit == 0 || g.incinerated_limit == 0 || g.cake_per_player == 0 {
        return bad("hand_limit, incinerated_limit and cake_per_player must be positive");
    }
    if g.portal_start != ["top", "bot"] {
        return bad("portal_start must be [\"top\", \"bot\"]");
    }
    let p: RawPanels = toml::from_str(panels).map_err(toml_err("panels.toml"))?;
    if p.set != "house-v1" {
        return Err(DataError::Set {
            file: "panels.toml",
            found: p.set,
        });
    }
    if p.panel.len() != g.panels_total {
        return Err(DataError::PanelCount {
            expected: g.panels_total,
            found: p.panel.len(),
        });
    }
    let mut out_panels = Vec::new();
    for (i, raw) in p.panel.iter().enumerate() {
        let expected = format!("P{:02}", i + 1);
        if raw.id != expected {
            return Err(DataError::PanelId {
                index: i + 1,
                expected,
                found: raw.id.clone(),
            });
        }
        let a = icons(&raw.id, &raw.a)?;
        let b = icons(&raw.id, &raw.b)?;
        for face in [&a, &b] {
            if face.is_empty() || face.len() > 4 {
                return Err(DataError::BadFace {
                    id: raw.id.clone(),
                    msg: "a face carries 1 to 4 icons".into(),
                });
            }
            if face.contains(&Icon::Cube) && face.contains(&Icon::Turret) {
                return Err(DataError::BadFace {
                    id: raw.id.clone(),
                    msg: "a face may not carry both the Cube and the Turret (menu size)".into(),
                });
            }
        }
        out_panels.push(PanelData {
            id: raw.id.clone(),
            a,
            b,
        });
    }
    let c: RawCards = toml::from_str(cards).map_err(toml_err("cards.toml"))?;
    if c.set != "house-v1" {
        return Err(DataError::Set {
            file: "cards.toml",
            found: c.set,
        });
    }
    if c.card.len() != Card::ALL.len() {
        return Err(DataError::CardCount(c.card.len()));
    }
    let mut names = Vec::new();
    for (i, (raw, card)) in c.card.iter().zip(Card::ALL).enumerate() {
        if raw.id != i + 1 || raw.slug != card.slug() {
            return Err(DataError::CardSlug {
                index: i + 1,
                expected: card.slug(),
                id: raw.id,
                found: raw.slug.clone(),
            });
        }
        names.push(raw.name.clone());
    }
    Ok(Data {
        min_players: g.players.min,
        max_players: g.players.max,
        colours: g.colours,
        subjects: g.subjects_per_player,
        cake: g.cake_per_player,
        start,
        floor_width: g.floor_width,
        panels_out: g.panels_out,
        hand_limit: g.hand_limit,
        incinerated_limit: g.incinerated_limit,
        panels: out_panels,
        panels_official: p.official,
        card_names: names,
        cards_official: c.official,
    })
}

static DATA: LazyLock<Result<Data, DataError>> =
    LazyLock::new(|| load(GAME_SOURCE, PANELS_SOURCE, CARDS_SOURCE));

/// The shipped data, checked.
pub fn data() -> Result<&'static Data, DataError> {
    DATA.as_ref().map_err(Clone::clone)
}

/// The shipped data for a running game (setup refuses to start without it).
pub fn shipped() -> &'static Data {
    match data() {
        Ok(d) => d,
        Err(e) => unreachable!("portal data checked at setup: {e}"),
    }
}

impl Data {
    pub fn card_name(&self, card: Card) -> &str {
        self.card_names
            .get(usize::from(card.number()).saturating_sub(1))
            .map_or("", String::as_str)
    }
}
