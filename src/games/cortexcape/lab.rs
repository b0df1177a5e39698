//! The data file (spec section 3): pieces, marbles, geometry and the four labs, checked at load
//! time with the invariants of spec section 4.4. Adjacency is precomputed here once.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::OnceLock;

use super::state::{canonical, Piece, Place, DOORS, EXITS, PLACES};

/// The shipped data file.
pub const SOURCE: &str = include_str!("../../../assets/games/cortexcape/cortexcape.toml");

/// Which of the four labs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LabId {
    Blue,
    Green,
    Red,
    Black,
}

impl LabId {
    pub const ALL: [LabId; 4] = [LabId::Blue, LabId::Green, LabId::Red, LabId::Black];

    /// Option value and data-file key.
    pub fn key(self) -> &'static str {
        match self {
            LabId::Blue => "blue",
            LabId::Green => "green",
            LabId::Red => "red",
            LabId::Black => "black",
        }
    }

    pub fn from_key(s: &str) -> Option<LabId> {
        LabId::ALL.into_iter().find(|l| l.key() == s)
    }

    fn index(self) -> usize {
        match self {
            LabId::Blue => 0,
            LabId::Green => 1,
            LabId::Red => 2,
            LabId::Black => 3,
        }
    }
}

/// Why the data file was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DataError {
    #[error("cortexcape.toml: cannot read the file: {0}")]
    Toml(String),
    #[error("cortexcape.toml: schema {0} is not supported (expected 1)")]
    Schema(u32),
    #[error("cortexcape.toml: pieces: {0}")]
    Pieces(String),
    #[error("cortexcape.toml: marbles: {0}")]
    Marbles(String),
    #[error("cortexcape.toml: geometry needs 20 doors, found {0}")]
    DoorCount(usize),
    #[error("cortexcape.toml: geometry needs 12 exits, found {0}")]
    ExitCount(usize),
    #[error("cortexcape.toml: door {door} is not at its grid place (col {col}, row {row})")]
    DoorPlace { door: usize, col: i32, row: i32 },
    #[error("cortexcape.toml: exit {0} is malformed (id out of order, unknown door, door shared, or not next to its door outside the rim)")]
    ExitPlace(usize),
    #[error("cortexcape.toml: lab `{0}` is missing")]
    MissingLab(&'static str),
    #[error("cortexcape.toml: lab `{lab}`: `{corridor}` is not a corridor between two doors 1-20")]
    BadCorridor { lab: &'static str, corridor: String },
    #[error("cortexcape.toml: lab `{lab}`: corridor `{corridor}` joins doors that are not grid neighbours")]
    NotNeighbours { lab: &'static str, corridor: String },
    #[error("cortexcape.toml: lab `{lab}`: corridor `{corridor}` is listed twice")]
    Duplicate { lab: &'static str, corridor: String },
    #[error("cortexcape.toml: lab `{lab}`: place {place} cannot be reached from door 1")]
    Disconnected { lab: &'static str, place: String },
    #[error(
        "cortexcape.toml: lab `{lab}`: door {door} has {degree} corridor(s), at least 2 are needed"
    )]
    Degree {
        lab: &'static str,
        door: usize,
        degree: usize,
    },
}

#[derive(Deserialize)]
struct RawFile {
    schema: u32,
    piece: Vec<RawPiece>,
    marbles: RawMarbles,
    geometry: RawGeometry,
    lab: BTreeMap<String, RawLab>,
}

#[derive(Deserialize)]
struct RawPiece {
    code: String,
    count: u8,
    value: i64,
    blocks: bool,
}

#[derive(Deserialize)]
struct RawMarbles {
    per_seat: BTreeMap<String, u8>,
    colours: Vec<String>,
}

#[derive(Deserialize)]
struct RawGeometry {
    doors: Vec<[i32; 2]>,
    exits: Vec<RawExit>,
}

#[derive(Deserialize)]
struct RawExit {
    id: usize,
    col: i32,
    row: i32,
    door: usize,
}

#[derive(Deserialize)]
struct RawLab {
    name: String,
    level: u8,
    #[serde(default = "default_true")]
    official: bool,
    corridors: Vec<String>,
}

fn default_true() -> bool {
    true
}

/// One exit: grid place and the rim door its corridor joins.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExitGeo {
    pub id: u8,
    pub col: i32,
    pub row: i32,
    pub door: u8,
}

/// One lab, with its adjacency precomputed over the 32 places.
#[derive(Clone, Debug)]
pub struct Lab {
    pub id: LabId,
    pub name: String,
    pub level: u8,
    /// False for HOUSE designs (all four today: the rulebook's drawings are missing).
    pub official: bool,
    /// Every corridor, canonical and sorted (door-door first by lower end, door-exit after).
    pub corridors: Vec<(Place, Place)>,
    /// Neighbour place indices of every place, ascending.
    pub adj: Vec<Vec<usize>>,
    /// `conn[a][b]`: a corridor joins places a and b.
    conn: Vec<[bool; PLACES]>,
}

impl Lab {
    pub fn is_corridor(&self, a: Place, b: Place) -> bool {
        self.conn
            .get(a.idx())
            .and_then(|row| row.get(b.idx()))
            .copied()
            .unwrap_or(false)
    }

    pub fn neighbours(&self, i: usize) -> &[usize] {
        self.adj.get(i).map_or(&[], Vec::as_slice)
    }
}

/// The whole data file, checked.
#[derive(Clone, Debug)]
pub struct Data {
    /// Door i+1 at (col, row).
    pub doors: Vec<(i32, i32)>,
    /// Exit i+1.
    pub exits: Vec<ExitGeo>,
    /// Marble colour per seat.
    pub colours: Vec<String>,
    /// Marbles per seat for 2, 3, 4 players.
    pub per_seat: [u8; 3],
    /// Piece counts in the order w g y r t.
    pub counts: [u8; 5],
    labs: Vec<Lab>,
}

impl Data {
    pub fn lab(&self, id: LabId) -> &Lab {
        // `load` builds exactly one lab per id, in LabId order.
        &self.labs[id.index()]
    }

    /// The door of exit `x` (1..=12), if it exists.
    pub fn exit_door(&self, x: u8) -> Option<u8> {
        self.exits
            .get(usize::from(x).wrapping_sub(1))
            .map(|e| e.door)
    }

    pub fn marbles_per_seat(&self, seats: usize) -> u8 {
        self.per_seat
            .get(seats.wrapping_sub(2))
            .copied()
            .unwrap_or(0)
    }
}

/// The shipped data, loaded and checked once.
pub fn data() -> Result<&'static Data, &'static DataError> {
    static DATA: OnceLock<Result<Data, DataError>> = OnceLock::new();
    DATA.get_or_init(|| load(SOURCE)).as_ref()
}

fn parse_door(s: &str) -> Option<u8> {
    let n: u8 = s.trim().parse().ok()?;
    (1..=20).contains(&n).then_some(n)
}

/// Reads and checks a data file.
pub fn load(src: &str) -> Result<Data, DataError> {
    let raw: RawFile = toml::from_str(src).map_err(|e| DataError::Toml(e.to_string()))?;
    if raw.schema != 1 {
        return Err(DataError::Schema(raw.schema));
    }

    // Pieces: exactly the five known codes, with the values and blocking the rules use.
    let mut counts = [0u8; 5];
    let mut seen = [false; 5];
    for p in &raw.piece {
        let mut chars = p.code.chars();
        let (Some(c), None) = (chars.next(), chars.next()) else {
            return Err(DataError::Pieces(format!("bad code `{}`", p.code)));
        };
        let Some(piece) = Piece::from_code(c) else {
            return Err(DataError::Pieces(format!("unknown code `{}`", p.code)));
        };
        if seen[piece.index()] {
            return Err(DataError::Pieces(format!("code `{}` listed twice", p.code)));
        }
        if p.value != piece.value() || p.blocks != (piece == Piece::Tower) {
            return Err(DataError::Pieces(format!(
                "`{}` must have value {} and blocks = {}",
                p.code,
                piece.value(),
                piece == Piece::Tower
            )));
        }
        seen[piece.index()] = true;
        counts[piece.index()] = p.count;
    }
    if seen.iter().any(|s| !s) {
        return Err(DataError::Pieces("every code w g y r t is needed".into()));
    }
    let total: usize = counts.iter().map(|&c| usize::from(c)).sum();
    if total != DOORS {
        return Err(DataError::Pieces(format!("{total} pieces for 20 doors")));
    }

    let mut per_seat = [0u8; 3];
    for (i, n) in ["2", "3", "4"].iter().enumerate() {
        let m = raw.marbles.per_seat.get(*n).copied().unwrap_or(0);
        if usize::from(m) * (i + 2) > EXITS || m == 0 {
            return Err(DataError::Marbles(format!("{m} marbles for {n} players")));
        }
        per_seat[i] = m;
    }
    if raw.marbles.colours.len() < 4 {
        return Err(DataError::Marbles("4 colours are needed".into()));
    }

    if raw.geometry.doors.len() != DOORS {
        return Err(DataError::DoorCount(raw.geometry.doors.len()));
    }
    let mut doors = Vec::with_capacity(DOORS);
    for (i, [col, row]) in raw.geometry.doors.iter().copied().enumerate() {
        // The grid is fixed by the notation (door k in reading order), so the file must agree.
        let want = (
            i32::try_from(i % 5).unwrap_or(0) + 1,
            i32::try_from(i / 5).unwrap_or(0) + 1,
        );
        if (col, row) != want {
            return Err(DataError::DoorPlace {
                door: i + 1,
                col,
                row,
            });
        }
        doors.push((col, row));
    }
    if raw.geometry.exits.len() != EXITS {
        return Err(DataError::ExitCount(raw.geometry.exits.len()));
    }
    let mut exits = Vec::with_capacity(EXITS);
    let mut door_used = [false; DOORS];
    for (i, e) in raw.geometry.exits.iter().enumerate() {
        let Some(&(dc, dr)) = doors.get(e.door.wrapping_sub(1)) else {
            return Err(DataError::ExitPlace(i + 1));
        };
        let step = (e.col - dc).abs() + (e.row - dr).abs();
        let outside = e.col == 0 || e.col == 6 || e.row == 0 || e.row == 5;
        if e.id != i + 1 || step != 1 || !outside || door_used[e.door - 1] {
            return Err(DataError::ExitPlace(i + 1));
        }
        door_used[e.door - 1] = true;
        exits.push(ExitGeo {
            id: u8::try_from(e.id).unwrap_or(0),
            col: e.col,
            row: e.row,
            door: u8::try_from(e.door).unwrap_or(0),
        });
    }

    let mut labs = Vec::with_capacity(4);
    for id in LabId::ALL {
        let raw_lab = raw
            .lab
            .get(id.key())
            .ok_or(DataError::MissingLab(id.key()))?;
        labs.push(build_lab(id, raw_lab, &doors, &exits)?);
    }
    Ok(Data {
        doors,
        exits,
        colours: raw.marbles.colours,
        per_seat,
        counts,
        labs,
    })
}

fn build_lab(
    id: LabId,
    raw: &RawLab,
    doors: &[(i32, i32)],
    exits: &[ExitGeo],
) -> Result<Lab, DataError> {
    let lab = id.key();
    let mut corridors = Vec::new();
    for c in &raw.corridors {
        let bad = || DataError::BadCorridor {
            lab,
            corridor: c.clone(),
        };
        let (a, b) = c.split_once('-').ok_or_else(bad)?;
        let (a, b) = (
            parse_door(a).ok_or_else(bad)?,
            parse_door(b).ok_or_else(bad)?,
        );
        if a == b {
            return Err(bad());
        }
        let (ca, ra) = doors[usize::from(a) - 1];
        let (cb, rb) = doors[usize::from(b) - 1];
        if (ca - cb).abs() > 1 || (ra - rb).abs() > 1 {
            return Err(DataError::NotNeighbours {
                lab,
                corridor: c.clone(),
            });
        }
        let pair = canonical(Place::Door(a), Place::Door(b));
        if corridors.contains(&pair) {
            return Err(DataError::Duplicate {
                lab,
                corridor: c.clone(),
            });
        }
        corridors.push(pair);
    }
    for e in exits {
        corridors.push((Place::Door(e.door), Place::Exit(e.id)));
    }
    corridors.sort();

    let mut conn = vec![[false; PLACES]; PLACES];
    let mut adj = vec![Vec::new(); PLACES];
    for &(a, b) in &corridors {
        let (i, j) = (a.idx(), b.idx());
        conn[i][j] = true;
        conn[j][i] = true;
        adj[i].push(j);
        adj[j].push(i);
    }
    for list in &mut adj {
        list.sort_unstable();
    }
    for (d, list) in adj.iter().enumerate().take(DOORS) {
        if list.len() < 2 {
            return Err(DataError::Degree {
                lab,
                door: d + 1,
                degree: list.len(),
            });
        }
    }
    // Connected: every place reachable from door 1.
    let mut seen = [false; PLACES];
    let mut stack = vec![0usize];
    seen[0] = true;
    while let Some(u) = stack.pop() {
        for &v in &adj[u] {
            if !seen[v] {
                seen[v] = true;
                stack.push(v);
            }
        }
    }
    if let Some(i) = seen.iter().position(|s| !s) {
        return Err(DataError::Disconnected {
            lab,
            place: Place::from_idx(i).notation(),
        });
    }
    Ok(Lab {
        id,
        name: raw.name.clone(),
        level: raw.level,
        official: raw.official,
        corridors,
        adj,
        conn,
    })
}
