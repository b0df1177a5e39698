//! The plain words of a stored game that every layer above the store reads: its status, a
//! seat as stored, a seat's DM state, a clock's timeout policy. They sit below the store (which
//! writes them as TEXT) so that the front ends read them without knowing the store: no store
//! type reaches the bot (`tests/suite/tidy.rs`).

use serde::{Deserialize, Serialize};

use crate::ids::Seat;

/// Where a game stands. Stored as TEXT.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameStatus {
    Lobby,
    Active,
    Finished,
    Cancelled,
}

impl GameStatus {
    pub const ALL: [GameStatus; 4] = [
        GameStatus::Lobby,
        GameStatus::Active,
        GameStatus::Finished,
        GameStatus::Cancelled,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            GameStatus::Lobby => "lobby",
            GameStatus::Active => "active",
            GameStatus::Finished => "finished",
            GameStatus::Cancelled => "cancelled",
        }
    }

    pub fn parse(s: &str) -> Option<GameStatus> {
        GameStatus::ALL.into_iter().find(|g| g.as_str() == s)
    }
}

/// Whether the bot can DM a seated user. Stored as TEXT.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum DmStatus {
    /// Not tried yet.
    #[default]
    Unknown,
    Open,
    /// Discord refused (error 50007): use ephemeral fallbacks.
    Closed,
}

impl DmStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            DmStatus::Unknown => "unknown",
            DmStatus::Open => "open",
            DmStatus::Closed => "closed",
        }
    }

    pub fn parse(s: &str) -> Option<DmStatus> {
        [DmStatus::Unknown, DmStatus::Open, DmStatus::Closed]
            .into_iter()
            .find(|d| d.as_str() == s)
    }
}

/// What happens when a turn's time runs out. Stored as TEXT (NULL reads as `Skip`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum TimeoutPolicy {
    /// Skip the turn where the game allows it, else play a random legal option.
    #[default]
    Skip,
    /// Play random legal options for the seat until its turn ends.
    Bot,
    /// Open the seat: the clock stops until the host or a moderator gives it to someone.
    Open,
}

impl TimeoutPolicy {
    pub const ALL: [TimeoutPolicy; 3] =
        [TimeoutPolicy::Skip, TimeoutPolicy::Bot, TimeoutPolicy::Open];

    pub fn as_str(self) -> &'static str {
        match self {
            TimeoutPolicy::Skip => "skip",
            TimeoutPolicy::Bot => "bot",
            TimeoutPolicy::Open => "open",
        }
    }

    pub fn parse(s: &str) -> Option<TimeoutPolicy> {
        let s = s.trim().to_ascii_lowercase();
        TimeoutPolicy::ALL.into_iter().find(|p| p.as_str() == s)
    }
}

/// How one game pings one member (`/settings game_pings:`). Stored as TEXT; no row is `All`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum GamePings {
    /// Every mention of them in this game pings (what every game did before).
    #[default]
    All,
    /// Only what needs them: their turn (a move, a vote, a private pick, a confirmation), a
    /// question put to them, a reminder. Results, clock and seat news name them silently.
    MyTurn,
    /// Nothing from this game pings them; its reminders are not sent, except the last call.
    Mute,
}

impl GamePings {
    pub const ALL: [GamePings; 3] = [GamePings::All, GamePings::MyTurn, GamePings::Mute];

    pub fn as_str(self) -> &'static str {
        match self {
            GamePings::All => "all",
            GamePings::MyTurn => "my_turn",
            GamePings::Mute => "mute",
        }
    }

    pub fn parse(s: &str) -> Option<GamePings> {
        let s = s.trim().to_lowercase().replace([' ', '-'], "_");
        GamePings::ALL.into_iter().find(|p| p.as_str() == s)
    }

    /// Whether a mention of the member pings them: `needed` when it needs them (their turn,
    /// a question to them).
    pub fn pings(self, needed: bool) -> bool {
        match self {
            GamePings::All => true,
            GamePings::MyTurn => needed,
            GamePings::Mute => false,
        }
    }
}

/// A seat of a stored game: who holds it and how they are doing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatRecord {
    pub seat: Seat,
    pub user: Option<i64>,
    pub name: String,
    pub is_bot: bool,
    pub dm_status: DmStatus,
    /// The player timed out or was kicked: the seat waits for `/replace`.
    pub vacant: bool,
    /// Set when the game ended with an outcome: 1 = won.
    pub final_rank: Option<i64>,
    /// Deadlines missed since the seat's player last played (0 while they play).
    pub timeouts: i64,
}

/// A language croupier speaks. Stored as TEXT (its code) with a game, for the notices that have
/// no interaction to take a language from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Lang {
    #[default]
    En,
    Fr,
}

impl Lang {
    pub const ALL: [Lang; 2] = [Lang::En, Lang::Fr];

    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Fr => "fr",
        }
    }

    /// From a Discord locale (`fr`, `en-US`, ...) or a plain code; anything else is English.
    pub fn from_locale(locale: &str) -> Lang {
        if locale.to_ascii_lowercase().starts_with("fr") {
            Lang::Fr
        } else {
            Lang::En
        }
    }
}

/// How hard a bot thinks. Stored as TEXT (`easy`, `normal`, `hard`); what each level spends
/// (counted in playouts, not seconds) is `ai`'s business.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Level {
    Easy,
    #[default]
    Normal,
    Hard,
}

impl Level {
    pub const ALL: [Level; 3] = [Level::Easy, Level::Normal, Level::Hard];

    pub fn id(self) -> &'static str {
        match self {
            Level::Easy => "easy",
            Level::Normal => "normal",
            Level::Hard => "hard",
        }
    }

    pub fn parse(s: &str) -> Option<Level> {
        let s = s.trim().to_ascii_lowercase();
        Level::ALL.into_iter().find(|l| l.id() == s)
    }
}

/// What a scheduled job does when it comes due. Stored as TEXT.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum JobKind {
    /// A turn's time ran out.
    Deadline,
    /// A reminder to the player whose turn it is.
    Remind,
    /// A bot seat's turn (played after the game's bot delay).
    Bot,
    /// A user's daily digest of the games waiting for them.
    Digest,
    /// A lobby left idle closes.
    Lobby,
    /// A finished game's thread is archived.
    Archive,
}

impl JobKind {
    pub const ALL: [JobKind; 6] = [
        JobKind::Deadline,
        JobKind::Remind,
        JobKind::Bot,
        JobKind::Digest,
        JobKind::Lobby,
        JobKind::Archive,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            JobKind::Deadline => "deadline",
            JobKind::Remind => "remind",
            JobKind::Bot => "bot",
            JobKind::Digest => "digest",
            JobKind::Lobby => "lobby",
            JobKind::Archive => "archive",
        }
    }

    pub fn parse(s: &str) -> Option<JobKind> {
        JobKind::ALL.into_iter().find(|k| k.as_str() == s)
    }
}

impl std::fmt::Display for JobKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}
