//! The data files (spec section 3.3): the board geometry (`board.toml`, DERIVED from the axial
//! model of spec section 4) and the start layouts, palette and Solitaire targets
//! (`layouts.toml`, HOUSE). Both are embedded, read once and checked at load with clear errors.

use serde::Deserialize;
use std::collections::BTreeMap;
use std::sync::OnceLock;

use super::state::{Colour, SPACES, TOWERS};

/// The shipped geometry.
pub const BOARD_SOURCE: &str = include_str!("../../../assets/games/vortex/board.toml");
/// The shipped layouts.
pub const LAYOUTS_SOURCE: &str = include_str!("../../../assets/games/vortex/layouts.toml");

/// Why a data file was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DataError {
    #[error("vortex {file}: cannot read the file: {msg}")]
    Toml { file: &'static str, msg: String },
    #[error("vortex {0}: schema is not supported (expected 1)")]
    Schema(&'static str),
    #[error("vortex board.toml: needs 19 towers a-s in order, found {0}")]
    Towers(String),
    #[error("vortex board.toml: needs 54 spaces 1-54 in order, found {0}")]
    Spaces(String),
    #[error("vortex board.toml: tower {tower}: {msg}")]
    Ring { tower: char, msg: String },
    #[error("vortex board.toml: space {space}: {msg}")]
    Space { space: u8, msg: String },
    #[error("vortex layouts.toml: {0}")]
    Layout(String),
}

/// One tower: lattice coordinates and its ring, clockwise from 12 o'clock.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TowerData {
    pub q: i32,
    pub r: i32,
    /// Space ids 1-54: N, NE, SE, S, SW, NW.
    pub ring: [u8; 6],
}

impl TowerData {
    /// Centre in doubled-x / sixfold-y units (exact integers).
    pub fn x2(&self) -> i32 {
        2 * self.q + self.r
    }
    pub fn y6(&self) -> i32 {
        3 * self.r
    }
}

/// One triangular space.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpaceData {
    pub x2: i32,
    pub y6: i32,
    /// True when the triangle points up.
    pub up: bool,
    /// Tower indices 0-18 whose ring holds this space.
    pub towers: Vec<u8>,
    /// Spaces (1-54) sharing a triangle edge.
    pub edges: Vec<u8>,
}

/// One seat slot of a Crossing layout.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Slot {
    pub colour: Colour,
    pub start: u8,
    pub goal: u8,
    pub start_spaces: [u8; 6],
    pub goal_spaces: [u8; 6],
    pub controllers: Vec<u8>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CrossingLayout {
    pub id: String,
    pub slots: Vec<Slot>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CatMouseLayout {
    pub id: String,
    pub mouse: u8,
    pub cats4: Vec<u8>,
    pub cats5: Vec<u8>,
    pub pantry: Vec<u8>,
    pub markers: Vec<u8>,
}

/// Everything loaded from the two files.
#[derive(Clone, Debug)]
pub struct Data {
    /// Colour -> (fill, text) as 0xRRGGBB.
    pub palette: BTreeMap<Colour, (u32, u32)>,
    pub towers: Vec<TowerData>,
    pub spaces: Vec<SpaceData>,
    pub crossing: Vec<CrossingLayout>,
    pub catmouse: Vec<CatMouseLayout>,
    pub solo_colours: Vec<Colour>,
    /// `far` / `close` -> colour count -> target towers.
    pub solo_far: BTreeMap<usize, Vec<u8>>,
    pub solo_close: BTreeMap<usize, Vec<u8>>,
    /// Whether each file is official (board: DERIVED = true; layouts: HOUSE = false).
    pub layouts_official: bool,
}

impl Data {
    #[inline]
    pub fn ring(&self, tower: u8) -> &[u8; 6] {
        &self.towers[usize::from(tower)].ring
    }

    pub fn space(&self, s: u8) -> &SpaceData {
        &self.spaces[usize::from(s - 1)]
    }

    /// Whether two towers are neighbours (share two spaces).
    pub fn adjacent(&self, a: u8, b: u8) -> bool {
        a != b
            && self
                .ring(a)
                .iter()
                .filter(|s| self.ring(b).contains(s))
                .count()
                == 2
    }

    pub fn crossing_layout(&self, id: &str) -> Option<&CrossingLayout> {
        self.crossing.iter().find(|l| l.id == id)
    }

    pub fn catmouse_layout(&self, id: &str) -> Option<&CatMouseLayout> {
        self.catmouse.iter().find(|l| l.id == id)
    }
}

#[derive(Deserialize)]
struct RawBoard {
    schema: u32,
    tower: Vec<RawTower>,
    space: Vec<RawSpace>,
}

#[derive(Deserialize)]
struct RawTower {
    id: String,
    q: i32,
    r: i32,
    ring: Vec<u8>,
}

#[derive(Deserialize)]
struct RawSpace {
    id: u8,
    x2: i32,
    y6: i32,
    apex: String,
    towers: Vec<String>,
    edges: Vec<u8>,
}

#[derive(Deserialize)]
struct RawLayouts {
    schema: u32,
    official: bool,
    palette: BTreeMap<String, RawPaint>,
    crossing: Vec<RawCrossing>,
    catmouse: Vec<RawCatMouse>,
    solitaire: RawSolitaire,
}

#[derive(Deserialize)]
struct RawPaint {
    fill: String,
    text: String,
}

#[derive(Deserialize)]
struct RawCrossing {
    id: String,
    slots: Vec<RawSlot>,
}

#[derive(Deserialize)]
struct RawSlot {
    colour: String,
    start: String,
    goal: String,
    controllers: Vec<u8>,
    start_spaces: Option<Vec<u8>>,
    goal_spaces: Option<Vec<u8>>,
}

#[derive(Deserialize)]
struct RawCatMouse {
    id: String,
    mouse: u8,
    cats4: Vec<u8>,
    cats5: Vec<u8>,
    pantry: Vec<u8>,
    markers: Vec<String>,
}

#[derive(Deserialize)]
struct RawSolitaire {
    colours: Vec<String>,
    far: BTreeMap<String, Vec<String>>,
    close: BTreeMap<String, Vec<String>>,
}

/// Tower letter `a`-`s` to index 0-18.
pub fn tower_index(s: &str) -> Option<u8> {
    let mut c = s.chars();
    match (c.next(), c.next()) {
        (Some(ch @ 'a'..='s'), None) => Some(ch as u8 - b'a'),
        _ => None,
    }
}

pub fn tower_letter(t: u8) -> char {
    char::from(b'a' + t)
}

fn lerr(msg: impl Into<String>) -> DataError {
    DataError::Layout(msg.into())
}

/// Reads and checks `board.toml`.
pub fn load_board(src: &str) -> Result<(Vec<TowerData>, Vec<SpaceData>), DataError> {
    let raw: RawBoard = toml::from_str(src).map_err(|e| DataError::Toml {
        file: "board.toml",
        msg: e.to_string(),
    })?;
    if raw.schema != 1 {
        return Err(DataError::Schema("board.toml"));
    }
    let ids: Vec<String> = raw.tower.iter().map(|t| t.id.clone()).collect();
    if raw.tower.len() != TOWERS
        || ids
            .iter()
            .enumerate()
            .any(|(i, id)| tower_index(id) != u8::try_from(i).ok())
    {
        return Err(DataError::Towers(ids.join(",")));
    }
    if raw.space.len() != SPACES
        || raw
            .space
            .iter()
            .enumerate()
            .any(|(i, s)| usize::from(s.id) != i + 1)
    {
        return Err(DataError::Spaces(format!("{} spaces", raw.space.len())));
    }
    let mut towers = Vec::with_capacity(TOWERS);
    for t in &raw.tower {
        let letter = t.id.chars().next().unwrap_or('?');
        let ring: [u8; 6] = t.ring.clone().try_into().map_err(|_| DataError::Ring {
            tower: letter,
            msg: "a ring needs 6 spaces".into(),
        })?;
        for (k, s) in ring.iter().enumerate() {
            if !(1..=54).contains(s) || ring[..k].contains(s) {
                return Err(DataError::Ring {
                    tower: letter,
                    msg: format!("space {s} is out of range or repeated"),
                });
            }
        }
        towers.push(TowerData {
            q: t.q,
            r: t.r,
            ring,
        });
    }
    let mut spaces = Vec::with_capacity(SPACES);
    for s in &raw.space {
        let up = match s.apex.as_str() {
            "up" => true,
            "down" => false,
            other => {
                return Err(DataError::Space {
                    space: s.id,
                    msg: format!("apex `{other}` is neither up nor down"),
                })
            }
        };
        let mut ts = Vec::new();
        for name in &s.towers {
            let t = tower_index(name).ok_or_else(|| DataError::Space {
                space: s.id,
                msg: format!("unknown tower `{name}`"),
            })?;
            if !towers[usize::from(t)].ring.contains(&s.id) {
                return Err(DataError::Space {
                    space: s.id,
                    msg: format!("tower `{name}` does not ring it"),
                });
            }
            ts.push(t);
        }
        let ringing = towers.iter().filter(|t| t.ring.contains(&s.id)).count();
        if ringing != ts.len() || ts.is_empty() {
            return Err(DataError::Space {
                space: s.id,
                msg: "its tower list does not match the rings".into(),
            });
        }
        if s.edges.iter().any(|e| !(1..=54).contains(e) || *e == s.id) {
            return Err(DataError::Space {
                space: s.id,
                msg: "an edge names a bad space".into(),
            });
        }
        spaces.push(SpaceData {
            x2: s.x2,
            y6: s.y6,
            up,
            towers: ts,
            edges: s.edges.clone(),
        });
    }
    // Edges must be symmetric.
    for (i, s) in spaces.iter().enumerate() {
        for e in &s.edges {
            let id = u8::try_from(i + 1).unwrap_or(0);
            if !spaces[usize::from(*e - 1)].edges.contains(&id) {
                return Err(DataError::Space {
                    space: id,
                    msg: format!("edge to {e} is not listed back"),
                });
            }
        }
    }
    Ok((towers, spaces))
}

fn colour(name: &str) -> Result<Colour, DataError> {
    Colour::from_key(name).ok_or_else(|| lerr(format!("unknown colour `{name}`")))
}

fn tower(name: &str) -> Result<u8, DataError> {
    tower_index(name).ok_or_else(|| lerr(format!("unknown tower `{name}`")))
}

fn six(v: Option<Vec<u8>>, ring: [u8; 6], what: &str) -> Result<[u8; 6], DataError> {
    match v {
        None => Ok(ring),
        Some(v) => {
            let arr: [u8; 6] = v
                .try_into()
                .map_err(|_| lerr(format!("{what} needs exactly 6 spaces")))?;
            if arr.iter().any(|s| !(1..=54).contains(s)) {
                return Err(lerr(format!("{what} names a space outside 1-54")));
            }
            Ok(arr)
        }
    }
}

/// Reads and checks `layouts.toml` against the board.
pub fn load_all(board: &str, layouts: &str) -> Result<Data, DataError> {
    let (towers, spaces) = load_board(board)?;
    let raw: RawLayouts = toml::from_str(layouts).map_err(|e| DataError::Toml {
        file: "layouts.toml",
        msg: e.to_string(),
    })?;
    if raw.schema != 1 {
        return Err(DataError::Schema("layouts.toml"));
    }
    let hex = |v: &str| {
        v.strip_prefix('#')
            .filter(|h| h.len() == 6)
            .and_then(|h| u32::from_str_radix(h, 16).ok())
            .ok_or_else(|| lerr(format!("palette: `{v}` is not a #rrggbb colour")))
    };
    let mut palette = BTreeMap::new();
    for (key, paint) in &raw.palette {
        let c = Colour::from_key(key)
            .ok_or_else(|| lerr(format!("palette: unknown colour `{key}`")))?;
        palette.insert(c, (hex(&paint.fill)?, hex(&paint.text)?));
    }
    if Colour::ALL.iter().any(|c| !palette.contains_key(c)) {
        return Err(lerr("palette: every colour needs a fill and a text colour"));
    }
    let mut crossing = Vec::new();
    for c in raw.crossing {
        if c.slots.len() < 2 || c.slots.len() > 6 {
            return Err(lerr(format!("{}: needs 2 to 6 slots", c.id)));
        }
        let mut slots = Vec::new();
        for s in c.slots {
            let start = tower(&s.start)?;
            let goal = tower(&s.goal)?;
            let start_spaces = six(s.start_spaces, towers[usize::from(start)].ring, "start")?;
            let goal_spaces = six(s.goal_spaces, towers[usize::from(goal)].ring, "goal")?;
            if s.controllers.is_empty()
                || s.controllers.len() > 2
                || s.controllers.iter().any(|x| !start_spaces.contains(x))
            {
                return Err(lerr(format!(
                    "{}: {}: controllers must be 1 or 2 of the start spaces",
                    c.id, s.colour
                )));
            }
            slots.push(Slot {
                colour: colour(&s.colour)?,
                start,
                goal,
                start_spaces,
                goal_spaces,
                controllers: s.controllers,
            });
        }
        for (i, a) in slots.iter().enumerate() {
            for b in &slots[..i] {
                if a.colour == b.colour || a.start_spaces.iter().any(|x| b.start_spaces.contains(x))
                {
                    return Err(lerr(format!(
                        "{}: two slots share a colour or a start space",
                        c.id
                    )));
                }
            }
        }
        crossing.push(CrossingLayout { id: c.id, slots });
    }
    let mut catmouse = Vec::new();
    for c in raw.catmouse {
        let ok = |v: &[u8]| v.iter().all(|s| (1..=54).contains(s));
        let mut all = c.cats5.clone();
        all.push(c.mouse);
        let distinct = all.iter().enumerate().all(|(i, s)| !all[..i].contains(s));
        if c.cats4.len() != 4
            || c.cats5.len() != 5
            || c.pantry.len() != 7
            || !ok(&c.cats4)
            || !ok(&c.cats5)
            || !ok(&c.pantry)
            || !(1..=54).contains(&c.mouse)
            || !distinct
            || c.cats4.iter().any(|s| !c.cats5.contains(s))
            || c.pantry.contains(&c.mouse)
        {
            return Err(lerr(format!(
                "{}: needs 4 and 5 distinct cat spaces, a mouse space and 7 pantry spaces",
                c.id
            )));
        }
        let markers = c
            .markers
            .iter()
            .map(|m| tower(m))
            .collect::<Result<Vec<_>, _>>()?;
        catmouse.push(CatMouseLayout {
            id: c.id,
            mouse: c.mouse,
            cats4: c.cats4,
            cats5: c.cats5,
            pantry: c.pantry,
            markers,
        });
    }
    let solo_colours = raw
        .solitaire
        .colours
        .iter()
        .map(|c| colour(c))
        .collect::<Result<Vec<_>, _>>()?;
    if solo_colours.len() != 6 {
        return Err(lerr("solitaire: needs 6 colours"));
    }
    let targets = |m: &BTreeMap<String, Vec<String>>,
                   name: &str|
     -> Result<BTreeMap<usize, Vec<u8>>, DataError> {
        let mut out = BTreeMap::new();
        for n in 2..=6usize {
            let list = m
                .get(&n.to_string())
                .ok_or_else(|| lerr(format!("solitaire {name}: no list for {n} colours")))?;
            let ts = list
                .iter()
                .map(|t| tower(t))
                .collect::<Result<Vec<_>, _>>()?;
            if ts.len() != n {
                return Err(lerr(format!("solitaire {name} {n}: needs {n} towers")));
            }
            for (i, a) in ts.iter().enumerate() {
                for b in &ts[..i] {
                    let share = towers[usize::from(*a)]
                        .ring
                        .iter()
                        .any(|s| towers[usize::from(*b)].ring.contains(s));
                    if share {
                        return Err(lerr(format!("solitaire {name} {n}: target rings overlap")));
                    }
                }
            }
            out.insert(n, ts);
        }
        Ok(out)
    };
    let solo_far = targets(&raw.solitaire.far, "far")?;
    let solo_close = targets(&raw.solitaire.close, "close")?;
    Ok(Data {
        palette,
        towers,
        spaces,
        crossing,
        catmouse,
        solo_colours,
        solo_far,
        solo_close,
        layouts_official: raw.official,
    })
}

/// The shipped data, loaded once.
#[inline]
pub fn data() -> Result<&'static Data, DataError> {
    static DATA: OnceLock<Result<Data, DataError>> = OnceLock::new();
    DATA.get_or_init(|| load_all(BOARD_SOURCE, LAYOUTS_SOURCE))
        .as_ref()
        .map_err(Clone::clone)
}

/// The shipped data for a running game. Setup refuses to build a game when the data does not
/// load (and the tests load it), so a live game always finds it.
#[inline]
pub fn geo() -> &'static Data {
    match data() {
        Ok(d) => d,
        Err(e) => panic!("{e}"),
    }
}

/// The ring of a tower (0-18).
pub fn geo_ring(tower: u8) -> &'static [u8; 6] {
    geo().ring(tower)
}
