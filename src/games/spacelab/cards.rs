//! The data file (spec section 3.10): agencies, specialties, station geometry, capsules,
//! Validation tiles, Lab card templates and cards, Project cards and objective tiles. Checked
//! at load time (counts, ids, references) with clear errors.

use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashSet};
use std::sync::OnceLock;

use super::state::{Agency, Row, Specialty, CAPSULES, LAB_CARDS, PROJECT_CARDS, SLOTS};

/// The shipped data set `house-v1`.
pub const SOURCE: &str = include_str!("../../../assets/games/spacelab/house-v1.toml");

/// What a Lab card does: an instant gain or an end-game condition (spec 3.10 vocabulary).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "code")]
pub enum LabEffect {
    Flat { vp: i64 },
    InRow { row: Row, vp: i64 },
    SameAgencyInRow { vp: i64 },
    SameSpecialtyInStation { vp: i64 },
    PerProject { vp: i64 },
    PerValidated { vp: i64 },
    DistinctAgenciesInRow { vp: i64 },
    DrawLab { n: u8 },
    DrawProject { n: u8 },
}

impl LabEffect {
    pub fn instant(self) -> bool {
        matches!(
            self,
            LabEffect::DrawLab { .. } | LabEffect::DrawProject { .. }
        )
    }
}

/// What a bottom slot does when the placed card's specialty matches the objective.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "code")]
pub enum BottomEffect {
    LabsPerBottomCard,
    ProjectsCostPlusOne,
    RecruitOwnAgency,
    BottomRowPoints { vp: i64 },
}

impl BottomEffect {
    pub fn id(self) -> &'static str {
        match self {
            BottomEffect::LabsPerBottomCard => "labs_per_bottom_card",
            BottomEffect::ProjectsCostPlusOne => "projects_cost_plus_one",
            BottomEffect::RecruitOwnAgency => "recruit_own_agency",
            BottomEffect::BottomRowPoints { .. } => "bottom_row_points",
        }
    }
}

/// How a Project code scores at game end.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "code")]
pub enum ProjectScoring {
    PerSpecialty { specialty: Specialty, vp: i64 },
    SetTable { table: Vec<i64> },
    Pairs { pair_vp: i64, single_vp: i64 },
    AgenciesWithMinCards { min_cards: usize, vp: i64 },
    SpecialtySets { vp: i64 },
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LabCard {
    pub id: String,
    pub name: String,
    pub agency: Agency,
    pub specialty: Specialty,
    pub cost: u8,
    pub effect: LabEffect,
    /// Template row (1..=15) for the name key; 0 when the card carries its own fields.
    pub template: u8,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProjectKind {
    pub code: String,
    pub name: String,
    pub copies: u8,
    pub scoring: ProjectScoring,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Objective {
    pub id: String,
    /// (agency, count) in the file's order: 2 of the first, 1 of the second in house-v1.
    pub need: Vec<(Agency, u8)>,
    pub specialty: Specialty,
    pub effect: BottomEffect,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SlotGeo {
    pub id: String,
    pub row: Row,
    /// Capsule indices 0..3 this slot touches.
    pub capsules: Vec<usize>,
    pub grid: (i32, i32),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tile {
    pub id: String,
    pub value: i64,
    pub bonus: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Capsule {
    pub id: String,
    pub colour: String,
    /// Tile indices, top first.
    pub pile: Vec<u8>,
    /// The capsule's top slot and bottom slot.
    pub top: usize,
    pub bottom: usize,
}

/// The whole data file, checked.
#[derive(Clone, Debug)]
pub struct Data {
    pub version: String,
    pub official: bool,
    pub agency_names: [String; 4],
    pub agency_prefix: [String; 4],
    pub specialty_names: [String; 4],
    pub slots: Vec<SlotGeo>,
    pub capsules: Vec<Capsule>,
    pub tiles: Vec<Tile>,
    pub labs: Vec<LabCard>,
    pub kinds: Vec<ProjectKind>,
    /// Project card i has kind `project_kind[i]`; cards are numbered pj01.. in kind order.
    pub project_kind: Vec<u8>,
    pub objectives: Vec<Objective>,
}

impl Data {
    pub fn lab(&self, i: u8) -> Option<&LabCard> {
        self.labs.get(usize::from(i))
    }

    pub fn lab_id(&self, i: u8) -> String {
        self.lab(i)
            .map_or_else(|| format!("?{i}"), |c| c.id.clone())
    }

    pub fn cost(&self, i: u8) -> u8 {
        self.lab(i).map_or(0, |c| c.cost)
    }

    /// A Lab card by id, leniently: `red7` is `red07`.
    pub fn find_lab(&self, s: &str) -> Option<u8> {
        let split = s.find(|c: char| c.is_ascii_digit())?;
        let (prefix, num) = s.split_at(split);
        if num.len() > 2 || !num.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let n: u32 = num.parse().ok()?;
        let canon = format!("{prefix}{n:02}");
        self.labs
            .iter()
            .position(|c| c.id == canon)
            .and_then(|i| u8::try_from(i).ok())
    }

    pub fn kind_of(&self, card: u8) -> u8 {
        self.project_kind
            .get(usize::from(card))
            .copied()
            .unwrap_or(0)
    }

    pub fn kind_code(&self, kind: u8) -> String {
        self.kinds
            .get(usize::from(kind))
            .map_or_else(String::new, |k| k.code.clone())
    }

    pub fn find_kind(&self, s: &str) -> Option<u8> {
        self.kinds
            .iter()
            .position(|k| k.code == s)
            .and_then(|i| u8::try_from(i).ok())
    }

    /// An objective tile by id, leniently: `o4` is `o04`.
    pub fn find_objective(&self, s: &str) -> Option<u8> {
        let num = s.strip_prefix('o')?;
        if num.is_empty() || num.len() > 2 || !num.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let n: u32 = num.parse().ok()?;
        let canon = format!("o{n:02}");
        self.objectives
            .iter()
            .position(|o| o.id == canon)
            .and_then(|i| u8::try_from(i).ok())
    }

    pub fn objective_id(&self, i: u8) -> String {
        self.objectives
            .get(usize::from(i))
            .map_or_else(String::new, |o| o.id.clone())
    }

    pub fn find_slot(&self, s: &str) -> Option<u8> {
        self.slots
            .iter()
            .position(|g| g.id == s)
            .and_then(|i| u8::try_from(i).ok())
    }

    pub fn slot_id(&self, i: u8) -> String {
        self.slots
            .get(usize::from(i))
            .map_or_else(String::new, |g| g.id.clone())
    }

    pub fn slot_row(&self, i: usize) -> Row {
        self.slots.get(i).map_or(Row::Middle, |g| g.row)
    }

    pub fn tile(&self, i: u8) -> Option<&Tile> {
        self.tiles.get(usize::from(i))
    }

    pub fn objective(&self, i: u8) -> Option<&Objective> {
        self.objectives.get(usize::from(i))
    }
}

/// Why the data file was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DataError {
    #[error("spacelab data: cannot read the file: {0}")]
    Toml(String),
    #[error("spacelab data: {0}")]
    Invalid(String),
}

fn bad<T>(msg: impl Into<String>) -> Result<T, DataError> {
    Err(DataError::Invalid(msg.into()))
}

#[derive(Deserialize)]
struct RawFile {
    data_version: String,
    #[serde(default = "default_true")]
    official: bool,
    agency: Vec<RawAgency>,
    specialty: Vec<RawSpecialty>,
    slot: Vec<RawSlot>,
    capsule: Vec<RawCapsule>,
    validation: Vec<RawTile>,
    lab_template: Vec<RawTemplate>,
    lab: Vec<RawLab>,
    project: Vec<RawProject>,
    objective: Vec<RawObjective>,
}

fn default_true() -> bool {
    true
}

#[derive(Deserialize)]
struct RawAgency {
    id: String,
    name: String,
    card_prefix: String,
}

#[derive(Deserialize)]
struct RawSpecialty {
    id: String,
    name: String,
}

#[derive(Deserialize)]
struct RawSlot {
    id: String,
    row: String,
    capsules: Vec<String>,
    grid: [i32; 2],
}

#[derive(Deserialize)]
struct RawTopEffect {
    code: String,
}

#[derive(Deserialize)]
struct RawCapsule {
    id: String,
    colour: String,
    top_effect: RawTopEffect,
    pile: Vec<String>,
}

#[derive(Deserialize)]
struct RawTile {
    id: String,
    value: i64,
    bonus: bool,
}

#[derive(Deserialize)]
struct RawEffect {
    kind: String,
    code: String,
    vp: Option<i64>,
    n: Option<u8>,
    row: Option<String>,
}

#[derive(Deserialize)]
struct RawTemplate {
    k: u8,
    name: String,
    cost: u8,
    effect: RawEffect,
}

#[derive(Deserialize)]
struct RawLab {
    id: String,
    agency: String,
    specialty: String,
    template: Option<u8>,
    name: Option<String>,
    cost: Option<u8>,
    effect: Option<RawEffect>,
}

#[derive(Deserialize)]
struct RawScoring {
    code: String,
    specialty: Option<String>,
    vp: Option<i64>,
    table: Option<Vec<i64>>,
    pair_vp: Option<i64>,
    single_vp: Option<i64>,
    min_cards: Option<usize>,
}

#[derive(Deserialize)]
struct RawProject {
    code: String,
    name: String,
    copies: u8,
    scoring: RawScoring,
}

#[derive(Deserialize)]
struct RawObjective {
    id: String,
    need: BTreeMap<String, u8>,
    bottom_specialty: String,
    bottom_effect: RawEffect,
}

fn lab_effect(e: &RawEffect, what: &str) -> Result<LabEffect, DataError> {
    let vp = || {
        e.vp.ok_or_else(|| DataError::Invalid(format!("{what}: `vp` missing")))
    };
    let n = || {
        e.n.filter(|&n| n > 0)
            .ok_or_else(|| DataError::Invalid(format!("{what}: `n` missing or 0")))
    };
    let effect = match e.code.as_str() {
        "flat" => LabEffect::Flat { vp: vp()? },
        "in_row" => {
            let row = e.row.as_deref().and_then(Row::from_id).ok_or_else(|| {
                DataError::Invalid(format!("{what}: `row` must be top, middle or bottom"))
            })?;
            LabEffect::InRow { row, vp: vp()? }
        }
        "same_agency_in_row" => LabEffect::SameAgencyInRow { vp: vp()? },
        "same_specialty_in_station" => LabEffect::SameSpecialtyInStation { vp: vp()? },
        "per_project" => LabEffect::PerProject { vp: vp()? },
        "per_validated" => LabEffect::PerValidated { vp: vp()? },
        "distinct_agencies_in_row" => LabEffect::DistinctAgenciesInRow { vp: vp()? },
        "draw_lab" => LabEffect::DrawLab { n: n()? },
        "draw_project" => LabEffect::DrawProject { n: n()? },
        other => return bad(format!("{what}: unknown effect code `{other}`")),
    };
    let want = if effect.instant() { "instant" } else { "end" };
    if e.kind != want {
        return bad(format!(
            "{what}: effect `{}` must have kind = \"{want}\"",
            e.code
        ));
    }
    Ok(effect)
}

fn bottom_effect(e: &RawEffect, what: &str) -> Result<BottomEffect, DataError> {
    let (effect, want) = match e.code.as_str() {
        "labs_per_bottom_card" => (BottomEffect::LabsPerBottomCard, "instant"),
        "projects_cost_plus_one" => (BottomEffect::ProjectsCostPlusOne, "instant"),
        "recruit_own_agency" => (BottomEffect::RecruitOwnAgency, "instant"),
        "bottom_row_points" => (
            BottomEffect::BottomRowPoints {
                vp: e.vp.unwrap_or(2),
            },
            "end",
        ),
        other => return bad(format!("{what}: unknown bottom effect `{other}`")),
    };
    if e.kind != want {
        return bad(format!(
            "{what}: effect `{}` must have kind = \"{want}\"",
            e.code
        ));
    }
    Ok(effect)
}

fn scoring(s: &RawScoring, what: &str) -> Result<ProjectScoring, DataError> {
    let need = |v: Option<i64>, f: &str| {
        v.ok_or_else(|| DataError::Invalid(format!("{what}: `{f}` missing")))
    };
    Ok(match s.code.as_str() {
        "per_specialty" => ProjectScoring::PerSpecialty {
            specialty: s
                .specialty
                .as_deref()
                .and_then(Specialty::from_id)
                .ok_or_else(|| DataError::Invalid(format!("{what}: unknown specialty")))?,
            vp: need(s.vp, "vp")?,
        },
        "set_table" => ProjectScoring::SetTable {
            table: s
                .table
                .clone()
                .filter(|t| !t.is_empty())
                .ok_or_else(|| DataError::Invalid(format!("{what}: `table` missing")))?,
        },
        "pairs" => ProjectScoring::Pairs {
            pair_vp: need(s.pair_vp, "pair_vp")?,
            single_vp: need(s.single_vp, "single_vp")?,
        },
        "agencies_with_min_cards" => ProjectScoring::AgenciesWithMinCards {
            min_cards: s
                .min_cards
                .ok_or_else(|| DataError::Invalid(format!("{what}: `min_cards` missing")))?,
            vp: need(s.vp, "vp")?,
        },
        "specialty_sets" => ProjectScoring::SpecialtySets {
            vp: need(s.vp, "vp")?,
        },
        other => return bad(format!("{what}: unknown scoring code `{other}`")),
    })
}

fn unique<'a>(ids: impl Iterator<Item = &'a String>, what: &str) -> Result<(), DataError> {
    let mut seen = HashSet::new();
    for id in ids {
        if !seen.insert(id.as_str()) {
            return bad(format!("{what} `{id}` is listed twice"));
        }
    }
    Ok(())
}

/// Reads and checks a data file.
pub fn load(src: &str) -> Result<Data, DataError> {
    let raw: RawFile = toml::from_str(src).map_err(|e| DataError::Toml(e.to_string()))?;

    // Agencies and specialties: exactly the four known ids, in the known order.
    if raw.agency.len() != 4
        || raw
            .agency
            .iter()
            .zip(Agency::ALL)
            .any(|(r, a)| r.id != a.id())
    {
        return bad("agencies must be red, blue, green, gold in that order");
    }
    unique(raw.agency.iter().map(|a| &a.card_prefix), "card prefix")?;
    if raw.specialty.len() != 4
        || raw
            .specialty
            .iter()
            .zip(Specialty::ALL)
            .any(|(r, s)| r.id != s.id())
    {
        return bad("specialties must be doctor, pilot, researcher, technician in that order");
    }
    let agency_names = [0, 1, 2, 3].map(|i| raw.agency[i].name.clone());
    let agency_prefix = [0, 1, 2, 3].map(|i| raw.agency[i].card_prefix.clone());
    let specialty_names = [0, 1, 2, 3].map(|i| raw.specialty[i].name.clone());

    // Geometry.
    if raw.capsule.len() != CAPSULES {
        return bad(format!(
            "{CAPSULES} capsules are needed, found {}",
            raw.capsule.len()
        ));
    }
    unique(raw.capsule.iter().map(|c| &c.id), "capsule")?;
    if raw.slot.len() != SLOTS {
        return bad(format!(
            "{SLOTS} slots are needed, found {}",
            raw.slot.len()
        ));
    }
    unique(raw.slot.iter().map(|s| &s.id), "slot")?;
    let mut slots = Vec::with_capacity(SLOTS);
    for s in &raw.slot {
        let row = Row::from_id(&s.row)
            .ok_or_else(|| DataError::Invalid(format!("slot `{}`: bad row `{}`", s.id, s.row)))?;
        let mut capsules = Vec::new();
        for c in &s.capsules {
            let Some(i) = raw.capsule.iter().position(|k| &k.id == c) else {
                return bad(format!("slot `{}`: unknown capsule `{c}`", s.id));
            };
            capsules.push(i);
        }
        if capsules.is_empty() {
            return bad(format!("slot `{}` touches no capsule", s.id));
        }
        slots.push(SlotGeo {
            id: s.id.clone(),
            row,
            capsules,
            grid: (s.grid[0], s.grid[1]),
        });
    }

    // Validation tiles and capsules.
    unique(raw.validation.iter().map(|t| &t.id), "validation tile")?;
    let tiles: Vec<Tile> = raw
        .validation
        .iter()
        .map(|t| Tile {
            id: t.id.clone(),
            value: t.value,
            bonus: t.bonus,
        })
        .collect();
    if tiles.len() != 12 {
        return bad(format!(
            "12 validation tiles are needed, found {}",
            tiles.len()
        ));
    }
    let mut capsules = Vec::with_capacity(CAPSULES);
    let mut used_tiles = HashSet::new();
    for (ci, c) in raw.capsule.iter().enumerate() {
        if c.top_effect.code != "draw_projects_equal_cost" {
            return bad(format!(
                "capsule `{}`: unknown top effect `{}`",
                c.id, c.top_effect.code
            ));
        }
        let touching: Vec<usize> = (0..SLOTS)
            .filter(|&s| slots[s].capsules.contains(&ci))
            .collect();
        let of_row = |r: Row| -> Vec<usize> {
            touching
                .iter()
                .copied()
                .filter(|&s| slots[s].row == r)
                .collect()
        };
        let (top, bottom) = (of_row(Row::Top), of_row(Row::Bottom));
        if touching.len() != 4 || top.len() != 1 || bottom.len() != 1 {
            return bad(format!(
                "capsule `{}` needs 4 slots with exactly one top and one bottom",
                c.id
            ));
        }
        let mut pile = Vec::new();
        for t in &c.pile {
            let Some(i) = tiles.iter().position(|x| &x.id == t) else {
                return bad(format!("capsule `{}`: unknown tile `{t}`", c.id));
            };
            if !used_tiles.insert(i) {
                return bad(format!("tile `{t}` is in two piles"));
            }
            pile.push(u8::try_from(i).unwrap_or(0));
        }
        if pile.len() < 4 {
            return bad(format!("capsule `{}`: its pile needs 4 tiles", c.id));
        }
        capsules.push(Capsule {
            id: c.id.clone(),
            colour: c.colour.clone(),
            pile,
            top: top[0],
            bottom: bottom[0],
        });
    }

    // Lab cards.
    let mut templates = BTreeMap::new();
    for t in &raw.lab_template {
        let effect = lab_effect(&t.effect, &format!("template {}", t.k))?;
        if t.cost > 3 {
            return bad(format!("template {}: cost {} is over 3", t.k, t.cost));
        }
        if templates
            .insert(t.k, (t.name.clone(), t.cost, effect))
            .is_some()
        {
            return bad(format!("template {} is listed twice", t.k));
        }
    }
    if raw.lab.len() != LAB_CARDS {
        return bad(format!(
            "{LAB_CARDS} Lab cards are needed, found {}",
            raw.lab.len()
        ));
    }
    unique(raw.lab.iter().map(|l| &l.id), "Lab card")?;
    let mut labs = Vec::with_capacity(LAB_CARDS);
    for l in &raw.lab {
        let agency = Agency::from_id(&l.agency).ok_or_else(|| {
            DataError::Invalid(format!(
                "Lab card `{}`: unknown agency `{}`",
                l.id, l.agency
            ))
        })?;
        let specialty = Specialty::from_id(&l.specialty).ok_or_else(|| {
            DataError::Invalid(format!(
                "Lab card `{}`: unknown specialty `{}`",
                l.id, l.specialty
            ))
        })?;
        let prefix = &agency_prefix[agency.index()];
        let digits = l.id.strip_prefix(prefix.as_str()).unwrap_or("");
        if digits.len() != 2 || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return bad(format!(
                "Lab card `{}`: ids are the agency prefix `{prefix}` and two digits",
                l.id
            ));
        }
        let base = match l.template {
            Some(k) => Some(templates.get(&k).cloned().ok_or_else(|| {
                DataError::Invalid(format!("Lab card `{}`: unknown template {k}", l.id))
            })?),
            None => None,
        };
        let name = l
            .name
            .clone()
            .or_else(|| base.as_ref().map(|b| b.0.clone()));
        let cost = l.cost.or_else(|| base.as_ref().map(|b| b.1));
        let effect = match &l.effect {
            Some(e) => Some(lab_effect(e, &format!("Lab card `{}`", l.id))?),
            None => base.as_ref().map(|b| b.2),
        };
        let (Some(name), Some(cost), Some(effect)) = (name, cost, effect) else {
            return bad(format!(
                "Lab card `{}` needs a template or its own name, cost and effect",
                l.id
            ));
        };
        if cost > 3 {
            return bad(format!("Lab card `{}`: cost {cost} is over 3", l.id));
        }
        labs.push(LabCard {
            id: l.id.clone(),
            name,
            agency,
            specialty,
            cost,
            effect,
            template: l.template.unwrap_or(0),
        });
    }

    // Project cards.
    unique(raw.project.iter().map(|p| &p.code), "Project code")?;
    let mut kinds = Vec::new();
    let mut project_kind = Vec::new();
    for (i, p) in raw.project.iter().enumerate() {
        if p.code.is_empty() || !p.code.bytes().all(|b| b.is_ascii_lowercase()) {
            return bad(format!(
                "Project code `{}` must be lower-case letters",
                p.code
            ));
        }
        let s = scoring(&p.scoring, &format!("Project `{}`", p.code))?;
        if let ProjectScoring::SetTable { table } = &s {
            if table.len() <= usize::from(p.copies) {
                return bad(format!(
                    "Project `{}`: the table needs copies + 1 entries",
                    p.code
                ));
            }
        }
        kinds.push(ProjectKind {
            code: p.code.clone(),
            name: p.name.clone(),
            copies: p.copies,
            scoring: s,
        });
        project_kind.extend(std::iter::repeat_n(
            u8::try_from(i).unwrap_or(0),
            p.copies.into(),
        ));
    }
    if project_kind.len() != PROJECT_CARDS {
        return bad(format!(
            "{PROJECT_CARDS} Project cards are needed, found {}",
            project_kind.len()
        ));
    }

    // Objectives.
    if raw.objective.len() != 12 {
        return bad(format!(
            "12 objective tiles are needed, found {}",
            raw.objective.len()
        ));
    }
    unique(raw.objective.iter().map(|o| &o.id), "objective")?;
    let mut objectives = Vec::with_capacity(12);
    for o in &raw.objective {
        let what = format!("objective `{}`", o.id);
        if !o.id.starts_with('o') {
            return bad(format!("{what}: ids start with `o`"));
        }
        let mut need = Vec::new();
        for (a, &c) in &o.need {
            let agency = Agency::from_id(a)
                .ok_or_else(|| DataError::Invalid(format!("{what}: unknown agency `{a}`")))?;
            need.push((agency, c));
        }
        // Two of X first, then one of Y (display order).
        need.sort_by_key(|&(a, c)| (std::cmp::Reverse(c), a));
        let total: u32 = need.iter().map(|&(_, c)| u32::from(c)).sum();
        if total == 0 || total > 4 {
            return bad(format!("{what}: a requirement needs 1 to 4 cards"));
        }
        objectives.push(Objective {
            id: o.id.clone(),
            need,
            specialty: Specialty::from_id(&o.bottom_specialty)
                .ok_or_else(|| DataError::Invalid(format!("{what}: unknown specialty")))?,
            effect: bottom_effect(&o.bottom_effect, &what)?,
        });
    }

    Ok(Data {
        version: raw.data_version,
        official: raw.official,
        agency_names,
        agency_prefix,
        specialty_names,
        slots,
        capsules,
        tiles,
        labs,
        kinds,
        project_kind,
        objectives,
    })
}

/// The shipped data, loaded and checked once.
pub fn data() -> Result<&'static Data, &'static DataError> {
    static DATA: OnceLock<Result<Data, DataError>> = OnceLock::new();
    DATA.get_or_init(|| load(SOURCE)).as_ref()
}
