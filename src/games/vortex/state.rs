//! The game state (spec sections 3 and 5): one board of 54 spaces, the claims on the 19
//! towers, the seats in turn order, the turn counters and the mode extras.

use serde::{Deserialize, Serialize};

use super::moves::{Dir, DrawReason, WinReason};
use crate::engine::{GameRng, Outcome, Seat};

pub const TOWERS: usize = 19;
pub const SPACES: usize = 54;
/// A Solitaire stored before issue 25 ended unsolved after this many rotations (a HOUSE limit,
/// gone since: the rulebook lets the player turn towers as often as they like, and a player
/// who gives up resigns). Only those stored games keep it ([`Rules::solo_limit`]).
pub const SOLO_LIMIT: u32 = 1000;

/// The rank of an unsolved Solitaire: below every solve, which ranks 1 (issue 25).
pub const UNSOLVED_RANK: u8 = 2;

/// A piece colour (spec section 3.2). The mouse is red; cats are black pieces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Colour {
    Blue,
    Green,
    Orange,
    Yellow,
    Black,
    Grey,
    Red,
}

impl Colour {
    pub const ALL: [Colour; 7] = [
        Colour::Blue,
        Colour::Green,
        Colour::Orange,
        Colour::Yellow,
        Colour::Black,
        Colour::Grey,
        Colour::Red,
    ];

    pub fn key(self) -> &'static str {
        match self {
            Colour::Blue => "blue",
            Colour::Green => "green",
            Colour::Orange => "orange",
            Colour::Yellow => "yellow",
            Colour::Black => "black",
            Colour::Grey => "grey",
            Colour::Red => "red",
        }
    }

    pub fn from_key(s: &str) -> Option<Colour> {
        Colour::ALL.into_iter().find(|c| c.key() == s)
    }

    /// The ASCII board initial (spec section 10.3).
    pub fn initial(self) -> char {
        match self {
            Colour::Blue => 'b',
            Colour::Green => 'g',
            Colour::Orange => 'o',
            Colour::Yellow => 'y',
            Colour::Black => 'k',
            Colour::Grey => 'e',
            Colour::Red => 'm',
        }
    }

    pub fn index(self) -> usize {
        self as usize
    }
}

/// A router on a space, with the controller riding on it, if any.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Router {
    pub colour: Colour,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub ctrl: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    Crossing,
    Advanced,
    Catmouse,
    Solitaire,
}

impl Mode {
    pub fn key(self) -> &'static str {
        match self {
            Mode::Crossing => "crossing",
            Mode::Advanced => "advanced",
            Mode::Catmouse => "catmouse",
            Mode::Solitaire => "solitaire",
        }
    }

    /// Crossing or Crossing Advanced.
    pub fn is_race(self) -> bool {
        matches!(self, Mode::Crossing | Mode::Advanced)
    }
}

/// The rule switches of spec section 2, resolved for the chosen mode.
#[allow(
    clippy::struct_excessive_bools,
    reason = "one flag per on/off option of the spec"
)]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rules {
    /// `rotate_rule=half` (else `no_minority`).
    pub half: bool,
    pub empty_rotation: bool,
    pub goal_count: u8,
    pub minority: bool,
    pub controllers: u8,
    /// `claim_majority=absolute` (else `plurality`).
    pub absolute: bool,
    /// `owner_rotate=free`.
    pub owner_free: bool,
    /// `capture_place=victim`.
    pub victim_places: bool,
    /// `ctrl_link=tower`.
    pub link_tower: bool,
    /// `recall_to=tower`.
    pub recall_tower: bool,
    pub teams: bool,
    /// `team_counts=pooled`.
    pub pooled: bool,
    /// `team_finish=together`.
    pub together: bool,
    pub confirm_end: bool,
    /// 0 = no limit.
    pub max_rounds: u32,
    pub solo_undo: bool,
    /// Solitaire ends unsolved at [`SOLO_LIMIT`] rotations. Only games stored before issue 25,
    /// whose states lack the field, keep that limit; a new game writes `false`.
    #[serde(default = "limited", skip_serializing_if = "is_limited")]
    pub solo_limit: bool,
}

fn limited() -> bool {
    true
}

#[allow(
    clippy::trivially_copy_pass_by_ref,
    reason = "serde's skip_serializing_if signature"
)]
fn is_limited(b: &bool) -> bool {
    *b
}

/// One seat's role, in turn order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Side {
    pub seat: Seat,
    pub colour: Colour,
    /// Start and goal towers (race modes; Solitaire: the target tower in `goal`).
    pub start: u8,
    pub goal: u8,
    pub start_spaces: [u8; 6],
    pub goal_spaces: [u8; 6],
    pub team: Option<u8>,
    pub minority_left: u8,
    pub finished: bool,
}

/// A captured controller waiting to be placed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pending {
    /// Side index of the victim.
    pub victim: usize,
    /// Side index of who chooses.
    pub chooser: usize,
    /// Side index of the capturer, whose turn continues.
    pub capturer: usize,
}

/// One step of a turn, for the image arrows and the channel line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Step {
    pub tower: u8,
    pub dir: Dir,
    pub minority: bool,
}

/// What a side did in one turn.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TurnLog {
    pub side: usize,
    pub steps: Vec<Step>,
    /// Notation of the non-rotation options (claims, moves, recalls, `end`).
    pub other: Vec<String>,
}

/// Cat & Mouse extras.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CatMouse {
    pub pantry: Vec<u8>,
    pub markers: Vec<u8>,
    pub mouse_to_move: bool,
    /// Spaces the mouse stood on during this turn.
    pub visited: Vec<u8>,
    pub rotations: u8,
    /// The final rotation of the mouse's current turn so far.
    pub turn_last: Option<(u8, Dir)>,
    /// The final rotation of the mouse's last completed turn (banned inverse for the cats).
    pub last_mouse: Option<(u8, Dir)>,
}

/// How the game ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Ending {
    Won {
        sides: Vec<usize>,
        reason: WinReason,
    },
    Drawn(DrawReason),
}

/// A game of Vortex.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Vortex {
    pub mode: Mode,
    pub rules: Rules,
    pub layout: String,
    /// Non-default options, `key=value`, for the image's options line.
    pub shown_options: Vec<String>,
    pub seed: u64,
    pub rng: GameRng,
    pub seats: u8,
    /// 54 cells, index = space - 1.
    pub board: Vec<Option<Router>>,
    /// 19 towers: the colour whose controller sits on top.
    pub claims: Vec<Option<Colour>>,
    /// Turn order (race modes), [mouse, cats] (Cat & Mouse) or one per colour (Solitaire, all
    /// played by seat 1).
    pub sides: Vec<Side>,
    pub turn_index: u32,
    pub used: u8,
    pub allowance: u8,
    pub skips: u8,
    pub pending: Option<Pending>,
    pub catmouse: Option<CatMouse>,
    pub rotations: u32,
    pub this_turn: TurnLog,
    pub prev_turn: Option<TurnLog>,
    /// Spaces whose contents the last rotation moved.
    pub last_moved: Vec<u8>,
    /// The seat whose turn just ended by itself (a trailing typed `end` is then dropped).
    pub auto_ended: Option<Seat>,
    pub ending: Option<Ending>,
    pub outcome: Option<Outcome>,
    /// What setup's start of the first turn reported, for the first board's log (issue 25);
    /// dropped by the first option played.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub setup_log: Vec<super::moves::Event>,
}

impl Vortex {
    pub fn cell(&self, s: u8) -> Option<Router> {
        self.board[usize::from(s - 1)]
    }

    pub fn cell_mut(&mut self, s: u8) -> &mut Option<Router> {
        &mut self.board[usize::from(s - 1)]
    }

    /// The side whose turn it is.
    pub fn current(&self) -> usize {
        match self.mode {
            Mode::Crossing | Mode::Advanced => {
                usize::try_from(self.turn_index).unwrap_or(0) % self.sides.len()
            }
            Mode::Catmouse => usize::from(!self.catmouse.as_ref().is_some_and(|c| c.mouse_to_move)),
            Mode::Solitaire => 0,
        }
    }

    /// The side index of a colour.
    pub fn side_of(&self, colour: Colour) -> Option<usize> {
        self.sides.iter().position(|s| s.colour == colour)
    }

    /// Spaces holding a colour.
    pub fn spaces_of(&self, colour: Colour) -> Vec<u8> {
        (1..=54u8)
            .filter(|s| self.cell(*s).is_some_and(|r| r.colour == colour))
            .collect()
    }

    /// How many routers of a colour are on its goal spaces.
    pub fn in_goal(&self, side: usize) -> u8 {
        let s = &self.sides[side];
        if !self.mode.is_race() && self.mode != Mode::Solitaire {
            return 0;
        }
        let n = s
            .goal_spaces
            .iter()
            .filter(|x| self.cell(**x).is_some_and(|r| r.colour == s.colour))
            .count();
        u8::try_from(n).unwrap_or(0)
    }

    /// The round shown to players (1-based).
    pub fn round(&self) -> u32 {
        let n = match self.mode {
            Mode::Solitaire => return 1,
            Mode::Catmouse => 2,
            _ => u32::try_from(self.sides.len()).unwrap_or(1),
        };
        self.turn_index / n + 1
    }
}
