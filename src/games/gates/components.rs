//! The data files (spec section 3.10): action cards, regions, monstrosity discs, scrolls and
//! the game's numbers, embedded from `assets/games/gates/` and checked once at load time.

use serde::{Deserialize, Serialize};
use std::sync::OnceLock;

const CARDS_SRC: &str = include_str!("../../../assets/games/gates/action_cards.toml");
const REGIONS_SRC: &str = include_str!("../../../assets/games/gates/regions.toml");
const DISCS_SRC: &str = include_str!("../../../assets/games/gates/discs.toml");
const SCROLLS_SRC: &str = include_str!("../../../assets/games/gates/scrolls.toml");
const RULES_SRC: &str = include_str!("../../../assets/games/gates/rules.toml");

/// The five town regions, in display order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Region {
    Inn,
    Sal,
    Ark,
    Kin,
    Roc,
}

impl Region {
    pub const ALL: [Region; 5] = [
        Region::Inn,
        Region::Sal,
        Region::Ark,
        Region::Kin,
        Region::Roc,
    ];

    pub fn index(self) -> usize {
        self as usize
    }

    pub fn code(self) -> &'static str {
        match self {
            Region::Inn => "inn",
            Region::Sal => "sal",
            Region::Ark => "ark",
            Region::Kin => "kin",
            Region::Roc => "roc",
        }
    }

    /// The town's name (a proper noun, the same in both languages).
    pub fn name(self) -> &'static str {
        match self {
            Region::Inn => "Innsmouth",
            Region::Sal => "Salem",
            Region::Ark => "Arkham",
            Region::Kin => "Kingsport",
            Region::Roc => "Rockport",
        }
    }

    /// Reads `inn` or `innsmouth` (lower case).
    pub fn parse(s: &str) -> Option<Region> {
        Region::ALL
            .into_iter()
            .find(|r| r.code() == s || r.name().eq_ignore_ascii_case(s))
    }
}

/// Blueprint quadrants.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum Quadrant {
    Nw,
    Ne,
    Sw,
    Se,
}

impl Quadrant {
    pub const ALL: [Quadrant; 4] = [Quadrant::Nw, Quadrant::Ne, Quadrant::Sw, Quadrant::Se];

    pub fn index(self) -> usize {
        self as usize
    }

    pub fn code(self) -> &'static str {
        match self {
            Quadrant::Nw => "NW",
            Quadrant::Ne => "NE",
            Quadrant::Sw => "SW",
            Quadrant::Se => "SE",
        }
    }
}

/// What one half of an action card does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Effect {
    Page { page: u8 },
    Blueprint { quadrant: Quadrant },
    Rune,
    Send { investigators: u8, despair: u8 },
    Build { sections: u8, despair: u8 },
    Convert,
}

impl Effect {
    /// Page, blueprint and rune halves are filed in the journal when played.
    pub fn is_artifact(self) -> bool {
        matches!(
            self,
            Effect::Page { .. } | Effect::Blueprint { .. } | Effect::Rune
        )
    }

    /// Whether two versions of a half differ in an artifact (only actions may change).
    fn artifact_differs(self, other: Effect) -> bool {
        (self.is_artifact() || other.is_artifact()) && self != other
    }

    /// Short English-free code used in notation-like summaries: `page 7`, `bp NW`, `send 1 +1`.
    pub fn code(self) -> String {
        match self {
            Effect::Page { page } => format!("page {page}"),
            Effect::Blueprint { quadrant } => format!("bp {}", quadrant.code()),
            Effect::Rune => "rune".into(),
            Effect::Send {
                investigators,
                despair,
            } => format!("send {investigators} +{despair}"),
            Effect::Build { sections, despair } => format!("build {sections} +{despair}"),
            Effect::Convert => "convert".into(),
        }
    }
}

/// One action card.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CardDef {
    pub id: String,
    pub sane: Effect,
    pub insane: Effect,
    /// The halves games with `filing = played_half` use (the card set before issue 25).
    pub old_sane: Effect,
    pub old_insane: Effect,
}

impl CardDef {
    /// The card's half `half`, under the filing rule of the game (`file_always`).
    pub fn half(&self, half: super::state::Mode, file_always: bool) -> Effect {
        match (half, file_always) {
            (super::state::Mode::Sane, true) => self.sane,
            (super::state::Mode::Insane, true) => self.insane,
            (super::state::Mode::Sane, false) => self.old_sane,
            (super::state::Mode::Insane, false) => self.old_insane,
        }
    }

    /// The artifact the card shows, if any (the same in both card sets).
    pub fn artifact(&self) -> Option<Effect> {
        [self.sane, self.insane]
            .into_iter()
            .find(|e| e.is_artifact())
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RegionDef {
    pub region: Region,
    pub gate_size: u8,
    pub deck_count: u8,
    pub score_standard: [i64; 3],
    pub score_duel: [i64; 3],
    pub neutrals_duel: u8,
    pub tint: u32,
    pub letter: char,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DiscDef {
    pub value: u8,
    pub scroll_icon: bool,
    pub in_duel: bool,
}

/// The seven scrolls, by effect.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Scroll {
    Mandate,
    Cartographer,
    DarkHours,
    Artisan,
    Recruiter,
    Relic,
    Keeper,
}

impl Scroll {
    pub const ALL: [Scroll; 7] = [
        Scroll::Mandate,
        Scroll::Cartographer,
        Scroll::DarkHours,
        Scroll::Artisan,
        Scroll::Recruiter,
        Scroll::Relic,
        Scroll::Keeper,
    ];

    pub fn code(self) -> &'static str {
        match self {
            Scroll::Mandate => "mandate",
            Scroll::Cartographer => "cartographer",
            Scroll::DarkHours => "dark_hours",
            Scroll::Artisan => "artisan",
            Scroll::Recruiter => "recruiter",
            Scroll::Relic => "relic",
            Scroll::Keeper => "keeper",
        }
    }

    fn kind(self) -> &'static str {
        match self {
            Scroll::Mandate => "bonus_build_on_page",
            Scroll::Cartographer => "bonus_build_on_blueprint",
            Scroll::DarkHours => "cost_minus_one",
            Scroll::Artisan => "end_most_incomplete_gates",
            Scroll::Recruiter => "end_most_investigators",
            Scroll::Relic => "bonus_send_on_rune",
            Scroll::Keeper => "end_most_pages",
        }
    }

    /// Scrolls scored at the end of the game.
    pub fn is_end_scoring(self) -> bool {
        matches!(self, Scroll::Artisan | Scroll::Recruiter | Scroll::Keeper)
    }
}

/// The numbers of the game (`rules.toml`).
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub struct Numbers {
    pub hand_size: u8,
    pub cards_per_turn: u8,
    pub end_draw: u8,
    pub despair_supply: u8,
    pub investigators_per_player: u8,
    pub pool_size: u8,
    pub scroll_slots: SlotCounts,
    pub end_scroll_bonus: i64,
    pub rune_set_points: [i64; 6],
    pub page_run_points: i64,
    pub page_single_points: i64,
    pub blueprint_set_points: i64,
    pub blueprint_single_points: i64,
    pub desperate: Costs,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
pub struct SlotCounts {
    pub standard: u8,
    pub duel: u8,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
pub struct Costs {
    pub swap: u8,
    pub refresh: u8,
    pub flip: u8,
    pub score: u8,
    pub score_points: i64,
}

/// Everything loaded from the data files.
#[derive(Clone, Debug)]
pub struct Data {
    pub cards: Vec<CardDef>,
    pub regions: Vec<RegionDef>,
    pub discs: Vec<DiscDef>,
    pub numbers: Numbers,
}

impl Data {
    pub fn card(&self, id: CardId) -> &CardDef {
        &self.cards[usize::from(id.0)]
    }

    pub fn card_by_name(&self, s: &str) -> Option<CardId> {
        self.cards
            .iter()
            .position(|c| c.id == s)
            .and_then(|i| u8::try_from(i).ok())
            .map(CardId)
    }

    pub fn region(&self, r: Region) -> &RegionDef {
        &self.regions[r.index()]
    }

    pub fn disc(&self, value: u8) -> Option<&DiscDef> {
        self.discs.iter().find(|d| d.value == value)
    }
}

/// An action card: its index in the canonical order of `action_cards.toml`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct CardId(pub u8);

/// Why a data file was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DataError {
    #[error("gates/{file}: cannot read the file: {reason}")]
    Toml { file: &'static str, reason: String },
    #[error("gates/action_cards.toml: {0}")]
    Cards(String),
    #[error("gates/regions.toml: {0}")]
    Regions(String),
    #[error("gates/discs.toml: {0}")]
    Discs(String),
    #[error("gates/scrolls.toml: {0}")]
    Scrolls(String),
    #[error("gates/rules.toml: {0}")]
    Numbers(String),
}

#[derive(Deserialize)]
struct RawCards {
    #[allow(dead_code)]
    official: bool,
    card: Vec<RawCard>,
}

#[derive(Deserialize)]
struct RawCard {
    id: String,
    sane: Effect,
    insane: Effect,
    /// A half as it was before issue 25, where it changed (`filing = played_half`).
    old_sane: Option<Effect>,
    old_insane: Option<Effect>,
}

#[derive(Deserialize)]
struct RawRegions {
    #[allow(dead_code)]
    official: bool,
    region: Vec<RawRegion>,
}

#[derive(Deserialize)]
struct RawRegion {
    id: String,
    #[allow(dead_code)]
    name: String,
    gate_size: u8,
    deck_count: u8,
    score_standard: [i64; 3],
    score_duel: [i64; 3],
    neutrals_duel: u8,
    tint: String,
    letter: char,
}

#[derive(Deserialize)]
struct RawDiscs {
    #[allow(dead_code)]
    official: bool,
    disc: Vec<RawDisc>,
}

#[derive(Deserialize)]
struct RawDisc {
    value: u8,
    scroll_icon: bool,
    in_duel: bool,
}

#[derive(Deserialize)]
struct RawScrolls {
    #[allow(dead_code)]
    official: bool,
    scroll: Vec<RawScroll>,
}

#[derive(Deserialize)]
struct RawScroll {
    id: String,
    kind: String,
}

#[derive(Deserialize)]
struct RawNumbers {
    #[allow(dead_code)]
    official: bool,
    #[serde(flatten)]
    numbers: Numbers,
}

fn toml_of<T: serde::de::DeserializeOwned>(file: &'static str, src: &str) -> Result<T, DataError> {
    toml::from_str(src).map_err(|e| DataError::Toml {
        file,
        reason: e.to_string(),
    })
}

/// The prefix letter and the artifact a card id promises (`p07` is page 7, `b..` a fragment,
/// `r..` a rune, `x..` nothing).
fn check_card(i: usize, c: &RawCard) -> Result<(), DataError> {
    let group = ["p", "b", "r", "x"][i / 20];
    let want = format!("{group}{:02}", i % 20 + 1);
    if c.id != want {
        return Err(DataError::Cards(format!(
            "card {} is `{}`, expected `{want}` (canonical order p01..x20)",
            i + 1,
            c.id
        )));
    }
    let bad = |why: &str| Err(DataError::Cards(format!("card `{}`: {why}", c.id)));
    if c.sane.is_artifact() && c.insane.is_artifact() {
        return bad("both halves are artifacts");
    }
    match (group, c.sane, c.insane) {
        ("p", Effect::Page { page }, _) if usize::from(page) == i % 20 + 1 => {}
        ("p", _, _) => return bad("a page card's sane half must be its own page number"),
        ("b", Effect::Blueprint { .. }, _) => {}
        ("b", _, _) => return bad("a blueprint card's sane half must be a fragment"),
        ("r", _, Effect::Rune) => {}
        ("r", _, _) => return bad("a rune card's insane half must be a rune"),
        ("x", s, n) if !s.is_artifact() && !n.is_artifact() => {}
        ("x", _, _) => return bad("a plain card carries no artifact"),
        _ => {}
    }
    for (half, e) in [("sane", c.sane), ("insane", c.insane)] {
        let sane_only = matches!(
            e,
            Effect::Page { .. } | Effect::Blueprint { .. } | Effect::Send { .. }
        );
        if sane_only != (half == "sane") {
            return bad(&format!("`{}` cannot be a {half} half", e.code()));
        }
        match e {
            Effect::Send {
                investigators,
                despair,
            } if !(1..=2).contains(&investigators) || !(1..=2).contains(&despair) => {
                return bad("send needs 1-2 investigators and 1-2 despair")
            }
            Effect::Build { sections, despair }
                if !(1..=2).contains(&sections) || !(1..=2).contains(&despair) =>
            {
                return bad("build needs 1-2 sections and 1-2 despair")
            }
            _ => {}
        }
    }
    Ok(())
}

fn parse_tint(s: &str) -> Option<u32> {
    let hex = s.strip_prefix('#')?;
    (hex.len() == 6).then_some(())?;
    u32::from_str_radix(hex, 16).ok()
}

/// The shipped files, in the order `load_from` takes them.
pub const SOURCES: [&str; 5] = [CARDS_SRC, REGIONS_SRC, DISCS_SRC, SCROLLS_SRC, RULES_SRC];

/// Reads and checks the shipped data files.
pub fn load() -> Result<Data, DataError> {
    load_from(SOURCES)
}

/// Reads and checks data files given as text: cards, regions, discs, scrolls, rules.
pub fn load_from(src: [&str; 5]) -> Result<Data, DataError> {
    let [cards_src, regions_src, discs_src, scrolls_src, rules_src] = src;
    let raw: RawCards = toml_of("action_cards.toml", cards_src)?;
    if raw.card.len() != 80 {
        return Err(DataError::Cards(format!(
            "80 cards expected, found {}",
            raw.card.len()
        )));
    }
    for (i, c) in raw.card.iter().enumerate() {
        check_card(i, c)?;
        let old = RawCard {
            id: c.id.clone(),
            sane: c.old_sane.unwrap_or(c.sane),
            insane: c.old_insane.unwrap_or(c.insane),
            old_sane: None,
            old_insane: None,
        };
        check_card(i, &old)?;
        if old.sane.artifact_differs(c.sane) || old.insane.artifact_differs(c.insane) {
            return Err(DataError::Cards(format!(
                "card `{}`: an old half may change an action, never the artifact",
                c.id
            )));
        }
    }
    let cards: Vec<CardDef> = raw
        .card
        .into_iter()
        .map(|c| CardDef {
            id: c.id,
            sane: c.sane,
            insane: c.insane,
            old_sane: c.old_sane.unwrap_or(c.sane),
            old_insane: c.old_insane.unwrap_or(c.insane),
        })
        .collect();

    let raw: RawRegions = toml_of("regions.toml", regions_src)?;
    if raw.region.len() != 5 {
        return Err(DataError::Regions(format!(
            "5 regions expected, found {}",
            raw.region.len()
        )));
    }
    let mut regions = Vec::new();
    for (r, raw) in Region::ALL.into_iter().zip(raw.region) {
        if raw.id != r.code() {
            return Err(DataError::Regions(format!(
                "region `{}` found where `{}` was expected (order inn sal ark kin roc)",
                raw.id,
                r.code()
            )));
        }
        let Some(tint) = parse_tint(&raw.tint) else {
            return Err(DataError::Regions(format!(
                "region `{}`: tint `{}` is not #rrggbb",
                raw.id, raw.tint
            )));
        };
        if raw.gate_size < 2 || !(1..=3).contains(&raw.neutrals_duel) {
            return Err(DataError::Regions(format!(
                "region `{}`: gate size >= 2 and 1-3 neutrals expected",
                raw.id
            )));
        }
        regions.push(RegionDef {
            region: r,
            gate_size: raw.gate_size,
            deck_count: raw.deck_count,
            score_standard: raw.score_standard,
            score_duel: raw.score_duel,
            neutrals_duel: raw.neutrals_duel,
            tint,
            letter: raw.letter,
        });
    }
    let total: u32 = regions.iter().map(|r| u32::from(r.deck_count)).sum();
    if total != 90 {
        return Err(DataError::Regions(format!(
            "90 gate cards expected, found {total}"
        )));
    }

    let raw: RawDiscs = toml_of("discs.toml", discs_src)?;
    let discs: Vec<DiscDef> = raw
        .disc
        .iter()
        .map(|d| DiscDef {
            value: d.value,
            scroll_icon: d.scroll_icon,
            in_duel: d.in_duel,
        })
        .collect();
    if discs.len() != 6 || discs.windows(2).any(|w| w[0].value >= w[1].value) {
        return Err(DataError::Discs(
            "6 discs expected, in increasing value order".into(),
        ));
    }

    let raw: RawScrolls = toml_of("scrolls.toml", scrolls_src)?;
    if raw.scroll.len() != 7 {
        return Err(DataError::Scrolls(format!(
            "7 scrolls expected, found {}",
            raw.scroll.len()
        )));
    }
    for (s, raw) in Scroll::ALL.into_iter().zip(&raw.scroll) {
        if raw.id != s.code() || raw.kind != s.kind() {
            return Err(DataError::Scrolls(format!(
                "scroll `{}` ({}) found where `{}` ({}) was expected",
                raw.id,
                raw.kind,
                s.code(),
                s.kind()
            )));
        }
    }

    let raw: RawNumbers = toml_of("rules.toml", rules_src)?;
    let numbers = raw.numbers;
    let d = numbers.desperate;
    if [d.swap, d.refresh, d.flip, d.score].iter().any(|&c| c < 2) {
        return Err(DataError::Numbers(
            "every desperate action must cost at least 2 (Dark Hours takes 1 off)".into(),
        ));
    }
    if numbers.hand_size != 5 || numbers.pool_size != 4 || numbers.cards_per_turn != 2 {
        return Err(DataError::Numbers(
            "hand size 5, pool size 4 and 2 cards a turn are built into the rules".into(),
        ));
    }
    let icons = |duel: bool| {
        discs
            .iter()
            .filter(|x| x.scroll_icon && (!duel || x.in_duel))
            .count()
    };
    if icons(false) > usize::from(numbers.scroll_slots.standard)
        || icons(true) > usize::from(numbers.scroll_slots.duel)
        || numbers.scroll_slots.standard > 7
    {
        return Err(DataError::Numbers(
            "more scroll icons than scroll slots".into(),
        ));
    }
    Ok(Data {
        cards,
        regions,
        discs,
        numbers,
    })
}

/// The checked data, loaded once.
pub fn data() -> Result<&'static Data, DataError> {
    static DATA: OnceLock<Result<Data, DataError>> = OnceLock::new();
    DATA.get_or_init(load).as_ref().map_err(Clone::clone)
}
