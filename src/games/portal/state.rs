//! The state of a Portal game and its basic types (spec sections 3.7 and 4).

use serde::{Deserialize, Serialize};
use std::fmt;

use super::moves::Icon;
use crate::engine::{GameRng, Outcome, Seat};

/// Most seats a game can have; per-seat piece counts are fixed arrays of this size.
pub const MAX_SEATS: usize = 4;

/// A floor of the Lab.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Floor {
    Top,
    Mid,
    Bot,
}

impl Floor {
    pub const ALL: [Floor; 3] = [Floor::Top, Floor::Mid, Floor::Bot];

    pub fn index(self) -> usize {
        match self {
            Floor::Top => 0,
            Floor::Mid => 1,
            Floor::Bot => 2,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Floor::Top => "top",
            Floor::Mid => "mid",
            Floor::Bot => "bot",
        }
    }

    pub fn letter(self) -> char {
        match self {
            Floor::Top => 't',
            Floor::Mid => 'm',
            Floor::Bot => 'b',
        }
    }

    pub fn from_name(s: &str) -> Option<Floor> {
        match s {
            "top" => Some(Floor::Top),
            "mid" | "middle" => Some(Floor::Mid),
            "bot" | "bottom" => Some(Floor::Bot),
            _ => None,
        }
    }

    pub fn from_letter(c: char) -> Option<Floor> {
        Floor::ALL.into_iter().find(|f| f.letter() == c)
    }

    /// Top and bot never touch; mid touches both.
    pub fn touches(self, other: Floor) -> bool {
        self.index().abs_diff(other.index()) == 1
    }
}

/// A chamber name: floor letter plus arrival column (`t10`, `m9`), spec 4.2.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Ch {
    pub f: Floor,
    pub c: u16,
}

impl Ch {
    pub const fn new(f: Floor, c: u16) -> Ch {
        Ch { f, c }
    }

    /// Physical adjacency from the names alone (spec 4.3).
    pub fn touches(self, o: Ch) -> bool {
        (self.f == o.f && self.c.abs_diff(o.c) == 2)
            || (self.f.touches(o.f) && self.c.abs_diff(o.c) == 1)
    }
}

impl fmt::Display for Ch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.f.letter(), self.c)
    }
}

/// Which face of a panel is up.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Face {
    A,
    B,
}

impl Face {
    pub fn other(self) -> Face {
        match self {
            Face::A => Face::B,
            Face::B => Face::A,
        }
    }
}

/// One chamber of the Lab.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Chamber {
    pub c: u16,
    /// Index into the panel table (0-based). Hidden from the public (spec 9).
    pub panel: u8,
    pub face: Face,
    /// Subjects per seat.
    pub subj: [u8; MAX_SEATS],
    /// Cake slices per colour (= seat).
    pub cake: [u8; MAX_SEATS],
}

impl Chamber {
    pub fn subjects(&self) -> u8 {
        self.subj.iter().sum()
    }
    pub fn cakes(&self) -> u8 {
        self.cake.iter().sum()
    }
}

/// The Aperture/Character cards (spec 3.4), in table order. The slug is the notation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Card {
    Chell,
    Wheatley,
    Cave,
    Caroline,
    Potatos,
    Atlas,
    Pbody,
    Doug,
    Space,
    Fact,
    Curiosity,
    Morality,
    Oracle,
    Opera,
    Greg,
    Defective,
    Franken,
    Announcer,
    Bird,
    Anger,
}

impl Card {
    pub const ALL: [Card; 20] = [
        Card::Chell,
        Card::Wheatley,
        Card::Cave,
        Card::Caroline,
        Card::Potatos,
        Card::Atlas,
        Card::Pbody,
        Card::Doug,
        Card::Space,
        Card::Fact,
        Card::Curiosity,
        Card::Morality,
        Card::Oracle,
        Card::Opera,
        Card::Greg,
        Card::Defective,
        Card::Franken,
        Card::Announcer,
        Card::Bird,
        Card::Anger,
    ];

    pub fn slug(self) -> &'static str {
        match self {
            Card::Chell => "chell",
            Card::Wheatley => "wheatley",
            Card::Cave => "cave",
            Card::Caroline => "caroline",
            Card::Potatos => "potatos",
            Card::Atlas => "atlas",
            Card::Pbody => "pbody",
            Card::Doug => "doug",
            Card::Space => "space",
            Card::Fact => "fact",
            Card::Curiosity => "curiosity",
            Card::Morality => "morality",
            Card::Oracle => "oracle",
            Card::Opera => "opera",
            Card::Greg => "greg",
            Card::Defective => "defective",
            Card::Franken => "franken",
            Card::Announcer => "announcer",
            Card::Bird => "bird",
            Card::Anger => "anger",
        }
    }

    /// The number printed in the table (1..=20), also accepted as `c01`..`c20`.
    pub fn number(self) -> u8 {
        Card::ALL
            .iter()
            .position(|&c| c == self)
            .and_then(|i| u8::try_from(i + 1).ok())
            .unwrap_or(0)
    }

    pub fn from_slug(s: &str) -> Option<Card> {
        if let Some(n) = s.strip_prefix('c').and_then(|d| {
            (d.len() == 2 && d.bytes().all(|b| b.is_ascii_digit()))
                .then(|| d.parse::<usize>().ok())
                .flatten()
        }) {
            return n.checked_sub(1).and_then(|i| Card::ALL.get(i)).copied();
        }
        Card::ALL.into_iter().find(|c| c.slug() == s)
    }
}

/// A hand card and whether it was gained this turn (R27).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HandCard {
    pub card: Card,
    pub fresh: bool,
}

/// Per-seat bookkeeping.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatState {
    /// Index into the colour list (0 blue, 1 red, 2 yellow, 3 green).
    pub colour: u8,
    pub subject_supply: u8,
    pub cake_supply: u8,
    pub incinerated: u8,
    pub hand: Vec<HandCard>,
}

/// Resolved game options (spec section 2).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Opts {
    pub characters: bool,
    pub hidden_hands: bool,
    pub show_backs: bool,
    /// `split_rule = final`.
    pub split_final: bool,
    pub turret_portals: bool,
    pub vote: bool,
    pub max_rounds: u16,
    pub host_first: bool,
}

/// How a group of subjects is being moved.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MoveMode {
    /// The Move step (M1-M6), with the single-subject bonus.
    Group,
    /// Chell's extra move: 1 step, `stop` instead of `pass`, no bonus.
    Chell,
    /// Atlas: one subject per step, `left` steps still allowed after this one.
    Atlas { left: u8 },
    /// Morality Core: one subject of any colour (its owner carries).
    Morality,
}

/// What kind of piece a delivery brings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Piece {
    Subject,
    Cake,
}

/// Why a subject or slice was delivered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Cause {
    Setup,
    Bonus,
    Reward,
    Card(Card),
    Burn,
    Trade,
}

/// One pending unit of work. The agenda is a stack: the last step runs next. Steps that need a
/// decision are prompts (their options come from `rules::options`); the others run at once.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Step {
    TurnStart,
    HandLimit,
    Deploy,
    MainOrder,
    /// M1 of a group move, Chell's extra move, or an Atlas step (`from`).
    MoveSource(MoveMode),
    MoveCount {
        from: Ch,
        mode: MoveMode,
    },
    MoveDest {
        from: Ch,
        count: u8,
        mode: MoveMode,
        owner: Seat,
    },
    /// M4: the owner picks carried cake; then the move applies.
    Carry {
        owner: Seat,
        from: Ch,
        to: Ch,
        count: u8,
        picked: Vec<Seat>,
        mode: MoveMode,
        wheatley: Vec<Seat>,
    },
    Bonus,
    /// Fact Core's "both": after the subject part, the card is taken.
    BonusCard,
    Activate,
    Reward,
    Recycle,
    RecycleFloor,
    AfterCycle,
    TurnEnd,
    Deliver {
        piece: Piece,
        owner: Seat,
        cause: Cause,
    },
    PortalPlace {
        first: Option<Ch>,
        allow_old: bool,
    },
    /// The card in `turn.resolving` goes on top of the discard pile.
    FinishCard {
        pick: Option<Card>,
    },
    WheatleyFrom,
    WheatleyTo {
        from: Ch,
    },
    CarolineFrom,
    CarolineTo {
        from: Ch,
    },
    /// PotatOS, Opera's finale and Bird: destroy one subject (own or any colour).
    Kill {
        own: bool,
        cause: Card,
    },
    /// Bird: which colour dies in the chosen chamber.
    KillColour {
        at: Ch,
        cause: Card,
    },
    DougFrom,
    DougColour {
        from: Ch,
    },
    DougTo {
        from: Ch,
        colour: Seat,
    },
    SpaceTo,
    CuriosityTo {
        served: Vec<Ch>,
        left: u8,
    },
    MoralityFrom,
    MoralityColour {
        from: Ch,
    },
    OracleFlip,
    OperaTurret,
    GregPick,
    DefectiveRemove,
    FrankenMove,
    AngerBurn,
    AngerColour {
        at: Ch,
    },
    /// Opera's finale payment: burn one own slice (`left` burns still due after this one).
    OperaBurn {
        left: u8,
    },
    OperaEnd,
    Vote,
}

/// Per-turn flags.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TurnState {
    pub extra_activations: u8,
    pub cave_used: bool,
    /// The card being deployed (out of the hand, not yet on the pile).
    pub resolving: Option<Card>,
    /// GLaDOS: the chamber being activated.
    pub activated: Option<Ch>,
    pub recipient: Option<Seat>,
    pub pending: Vec<Icon>,
    /// PotatOS order: the Move step comes after the cycle.
    pub move_last: bool,
}

/// A panel lifted out of the Lab while its floor is chosen (C3).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Lifted {
    pub from: Ch,
    pub chamber: Chamber,
}

/// Why the game ended (spec 8.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EndReason {
    NoSubjects(Seat),
    Incinerated(Seat),
    Finale(Seat),
    RoundLimit,
}

/// The final vote (`final_tie = vote`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct VoteState {
    pub tied: Vec<Seat>,
    pub voters: Vec<Seat>,
    /// One entry per voter who has voted: `Some(seat)` or `None` (abstain).
    pub votes: Vec<Option<Seat>>,
}

/// An option the engine applied by itself for a seat (spec 6.13 rule 3).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AutoRec {
    pub seat: Seat,
    pub step: Step,
    pub action: super::moves::Action,
    /// The error most other options of that prompt would have had.
    pub default_err: super::rules::RuleError,
    /// The other options whose error differs from `default_err`.
    pub errs: Vec<(super::moves::Action, super::rules::RuleError)>,
}

/// The whole game state. Plain data; serialized as is.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Portal {
    pub(crate) rng: GameRng,
    pub(crate) opts: Opts,
    pub(crate) seats: Vec<SeatState>,
    pub(crate) first: Seat,
    pub(crate) round: u16,
    pub(crate) active: Seat,
    /// Each floor from the new edge (largest column) to the old edge.
    pub(crate) floors: [Vec<Chamber>; 3],
    pub(crate) portals: [Ch; 2],
    pub(crate) turret: Option<Ch>,
    pub(crate) cube: Option<Ch>,
    /// Set-aside panels with their faces; never shown.
    pub(crate) set_aside: Vec<(u8, Face)>,
    /// Last = top.
    pub(crate) deck: Vec<Card>,
    /// Last = top = active character.
    pub(crate) discard: Vec<Card>,
    pub(crate) turn: TurnState,
    pub(crate) lifted: Option<Lifted>,
    pub(crate) agenda: Vec<Step>,
    pub(crate) autos: Vec<AutoRec>,
    pub(crate) vote: Option<VoteState>,
    pub(crate) ended: Option<EndReason>,
    pub(crate) outcome: Option<Outcome>,
    /// Chambers touched by the last decision, and the last move (for the image).
    pub(crate) touched: Vec<Ch>,
    pub(crate) last_move: Option<(Ch, Ch)>,
    /// What setup's start of the first turn did (its turn start and any step it applied by
    /// itself), for the first board's log (issue 25); dropped by the first option played.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) setup_log: Vec<super::moves::Event>,
}

impl Portal {
    pub fn floor(&self, f: Floor) -> &[Chamber] {
        &self.floors[f.index()]
    }

    pub fn chamber(&self, ch: Ch) -> Option<&Chamber> {
        self.floors[ch.f.index()].iter().find(|x| x.c == ch.c)
    }

    pub fn chamber_mut(&mut self, ch: Ch) -> Option<&mut Chamber> {
        self.floors[ch.f.index()].iter_mut().find(|x| x.c == ch.c)
    }

    /// Every chamber id in canonical order (t, m, b; new edge to old edge).
    pub fn all_chambers(&self) -> Vec<Ch> {
        Floor::ALL
            .into_iter()
            .flat_map(|f| self.floor(f).iter().map(move |x| Ch::new(f, x.c)))
            .collect()
    }

    pub fn new_edge(&self, f: Floor) -> Option<Ch> {
        self.floor(f).first().map(|x| Ch::new(f, x.c))
    }

    pub fn old_edge(&self, f: Floor) -> Option<Ch> {
        self.floor(f).last().map(|x| Ch::new(f, x.c))
    }

    pub fn is_old_edge(&self, ch: Ch) -> bool {
        self.old_edge(ch.f) == Some(ch)
    }

    pub fn is_new_edge(&self, ch: Ch) -> bool {
        self.new_edge(ch.f) == Some(ch)
    }

    pub fn n(&self) -> usize {
        self.seats.len()
    }

    pub fn seat_ids(&self) -> impl Iterator<Item = Seat> {
        Seat::all(self.seats.len())
    }

    /// The seat `k` places after `s` in turn order.
    pub fn seat_after(&self, s: Seat, k: usize) -> Seat {
        Seat::at((s.index() + k) % self.n())
    }

    pub fn subjects_in_lab(&self, s: Seat) -> u32 {
        self.floors
            .iter()
            .flatten()
            .map(|x| u32::from(x.subj[s.index()]))
            .sum::<u32>()
            + self
                .lifted
                .as_ref()
                .map_or(0, |l| u32::from(l.chamber.subj[s.index()]))
    }

    pub fn cake_in_lab(&self, s: Seat) -> u32 {
        self.floors
            .iter()
            .flatten()
            .map(|x| u32::from(x.cake[s.index()]))
            .sum::<u32>()
            + self
                .lifted
                .as_ref()
                .map_or(0, |l| u32::from(l.chamber.cake[s.index()]))
    }

    pub fn seat(&self, s: Seat) -> &SeatState {
        &self.seats[s.index()]
    }

    pub fn seat_mut(&mut self, s: Seat) -> &mut SeatState {
        &mut self.seats[s.index()]
    }
}
