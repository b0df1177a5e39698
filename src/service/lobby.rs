//! The lobbies use case ([`Lobbies`]): a table's life around the moves: open, join, leave,
//! bots, start (also straight from the table), cancel with its agreement, rematch.
//!
//! A lobby is a stored game with status `lobby` and an empty state: seats fill and empty, then
//! `start_lobby` sets the game up with the stored seed and makes it `active`.

use super::core::{check_clock_len, MAX_BOT_DELAY};
use super::output::{self, Notice, Outputs};
use super::{seed_to_i64, Loaded, Lobbies, Place, Player, ServiceError, StartGame};
use crate::ai::Level;
use crate::engine::{GameId, GameKind, GameOptions, Seat, Version};
use crate::i18n::{Lang, Text};

use crate::store::{
    DmStatus, GameRecord, GameStatus, JobKind, JoinOutcome, LeaveOutcome, NewGame, NewJob,
    NewRematch, NewSeat, RematchOutcome, SeatRecord, StoreError, TimeoutPolicy,
};

/// Why a lobby or game-life command was refused. Nothing changed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LobbyError {
    #[error("already seated")]
    AlreadySeated,
    #[error("the lobby is full ({max} seats)")]
    Full { max: usize },
    #[error("not seated in this lobby")]
    NotSeated,
    #[error("no bot in this lobby")]
    NoBot,
    #[error("game {0} is not a lobby any more")]
    NotLobby(GameId),
    #[error("game {0} has not started yet")]
    NotStarted(GameId),
    #[error("{found} players, {min} needed")]
    TooFew { min: usize, found: usize },
    #[error("only the host or a moderator may do that")]
    NotHost,
    #[error("the host cannot leave; cancel instead")]
    HostLeaves,
    #[error("no running game here")]
    NoGameHere,
    #[error("several games here")]
    SeveralGames(Vec<GameId>),
    #[error("no such choice")]
    NoSuchChoice,
    #[error("the clock is already paused")]
    ClockPaused,
    #[error("the clock is not paused")]
    ClockNotPaused,
    #[error("no clock is running for this turn")]
    ClockNotRunning,
    #[error("no seat {0}")]
    NoSuchSeat(usize),
    #[error("already seated in this game")]
    AlreadyInGame,
    #[error("seat {0} is already open")]
    SeatOpen(usize),
    #[error("unknown time zone {0}")]
    UnknownZone(String),
    #[error("the date has passed")]
    PastDate,
    #[error("reminder points not understood: {0}")]
    RemindersUnread(String),
    #[error("too many reminder points")]
    RemindersTooMany,
    #[error("a reminder point out of range")]
    RemindersRange,
    #[error("reminder points too close")]
    RemindersTooClose,
    #[error("unknown pings choice {0}")]
    UnknownPings(String),
    #[error("{open} lobbies open already (at most {max} per member)")]
    TooManyLobbiesOfMember { open: i64, max: u32 },
    #[error("{open} lobbies open already (at most {max} per channel)")]
    TooManyLobbiesHere { open: i64, max: u32 },
    #[error("{open} games already (at most {max} per member)")]
    TooManyGamesOfMember { open: i64, max: u32 },
    #[error("{open} games already (at most {max} per channel)")]
    TooManyGamesHere { open: i64, max: u32 },
    #[error("seat {0} is still being played")]
    SeatInPlay(usize),
    #[error("seat {0} holds a hidden hand in play")]
    HandInPlay(usize),
    #[error("no request waits for seat {0}")]
    NoSeatRequest(usize),
    #[error("a turn's clock must be between one minute and {max_days} days")]
    ClockRange { max_days: i64 },
    #[error("only the players of game {0} may ask for its rematch")]
    RematchNotPlayer(GameId),
    #[error("game {0} has not finished")]
    RematchNotFinished(GameId),
    #[error("the rematch {0} has started or closed")]
    RematchClosed(GameId),
    #[error("only the players of running game {0} may replay it")]
    ReplayNotAPlayer(GameId),
    #[error("game {0} is still running: its record is exported once it is over")]
    ExportRunning(GameId),
    #[error("this game file cannot be replayed")]
    ImportBad(Text),
    #[error("only a member who can manage the server may choose its language")]
    NotServerManager,
    #[error("a server's language is chosen in that server")]
    NoServer,
    #[error("not every player agrees to cancel game {0} any more")]
    CancelNotAgreed(GameId),
    #[error("only a seated player may agree to cancel game {0}")]
    CancelNotPlayer(GameId),
    #[error("not a substitute for {0:?} on this server")]
    NotSubstitute(GameKind),
    #[error("no seat of game {0} is open")]
    NoOpenSeat(GameId),
    #[error("seat {0} is not open")]
    SeatNotOpen(usize),
    #[error("this lobby asks for a reliability of {min}%, the member has {figure}%")]
    Unreliable { figure: u8, min: u8 },
    #[error("the host is seated already and cannot invite themselves")]
    InviteSelf,
    #[error("a bot account cannot be invited")]
    InviteBot,
    #[error("{invited} invited, but only {free} seats are free besides the host's")]
    TooManyInvited { invited: usize, free: usize },
    #[error("a lobby closed to others needs invited members")]
    ClosedWithoutInvites,
    #[error("only the invited members may join this lobby")]
    InviteOnly,
    #[error("the free seats are kept for invited members")]
    SeatsReserved,
    #[error("no invitation waits for this member here")]
    NotInvited,
}

impl LobbyError {
    pub fn text(&self) -> Text {
        match self {
            LobbyError::AlreadySeated => Text::new("bot.error.already_seated"),
            LobbyError::Full { max } => Text::new("bot.error.full").arg("max", *max),
            LobbyError::Unreliable { figure, min } => Text::new("bot.error.unreliable")
                .arg("figure", *figure)
                .arg("min", *min)
                .arg("days", super::RECORD_DAYS),
            LobbyError::NotSeated => Text::new("bot.error.not_in_lobby"),
            LobbyError::InviteSelf => Text::new("bot.invite.self"),
            LobbyError::InviteBot => Text::new("bot.invite.bot"),
            LobbyError::TooManyInvited { invited, free } => Text::new("bot.invite.too_many")
                .arg("invited", *invited)
                .arg("free", *free),
            LobbyError::ClosedWithoutInvites => Text::new("bot.invite.closed_empty"),
            LobbyError::InviteOnly => Text::new("bot.invite.only"),
            LobbyError::SeatsReserved => Text::new("bot.invite.reserved"),
            LobbyError::NotInvited => Text::new("bot.invite.not_invited"),
            LobbyError::NotLobby(_) => Text::new("bot.error.not_lobby"),
            LobbyError::NotStarted(_) => Text::new("bot.error.not_started"),
            LobbyError::TooFew { min, found } => Text::new("bot.error.too_few")
                .arg("min", *min)
                .arg("found", *found),
            LobbyError::NotHost => Text::new("bot.error.not_host"),
            LobbyError::NoBot => Text::new("bot.error.no_bot"),
            LobbyError::HostLeaves => Text::new("bot.error.host_leaves"),
            LobbyError::NoGameHere => Text::new("bot.error.no_game_here"),
            LobbyError::SeveralGames(ids) => Text::new("bot.error.several_games").arg(
                "ids",
                ids.iter()
                    .map(|g| g.0.to_string())
                    .collect::<Vec<_>>()
                    .join(", "),
            ),
            LobbyError::NoSuchChoice => Text::new("bot.error.no_such_choice"),
            LobbyError::ClockPaused => Text::new("bot.error.clock_paused"),
            LobbyError::ClockNotPaused => Text::new("bot.error.clock_not_paused"),
            LobbyError::ClockNotRunning => Text::new("bot.error.clock_not_running"),
            LobbyError::NoSuchSeat(n) => Text::new("bot.error.no_such_seat").arg("n", *n),
            LobbyError::AlreadyInGame => Text::new("bot.error.already_in_game"),
            LobbyError::SeatOpen(n) => Text::new("bot.error.seat_open").arg("n", *n),
            LobbyError::NotSubstitute(kind) => {
                Text::new("bot.error.not_substitute").arg("game", kind.display_name())
            }
            LobbyError::NoOpenSeat(game) => Text::new("bot.error.no_open_seat").arg("id", game.0),
            LobbyError::SeatNotOpen(n) => Text::new("bot.error.seat_not_open").arg("n", *n),
            LobbyError::UnknownZone(z) => {
                Text::new("bot.error.unknown_zone").arg("zone", z.clone())
            }
            LobbyError::PastDate => Text::new("bot.error.past_date"),
            LobbyError::RemindersUnread(input) => {
                Text::new("bot.error.reminders_unread").arg("input", input.clone())
            }
            LobbyError::RemindersTooMany => Text::new("bot.error.reminders_too_many")
                .arg("max", super::pings::MAX_REMINDER_POINTS),
            LobbyError::RemindersRange => Text::new("bot.error.reminders_range")
                .arg("min", *super::pings::REMINDER_PCT.start())
                .arg("max", *super::pings::REMINDER_PCT.end()),
            LobbyError::RemindersTooClose => Text::new("bot.error.reminders_too_close")
                .arg("gap", super::pings::MIN_POINT_GAP_PCT),
            LobbyError::UnknownPings(input) => {
                Text::new("bot.error.unknown_pings").arg("input", input.clone())
            }
            LobbyError::TooManyLobbiesOfMember { max, .. } => {
                Text::new("bot.error.lobbies_member").arg("max", i64::from(*max))
            }
            LobbyError::TooManyLobbiesHere { max, .. } => {
                Text::new("bot.error.lobbies_channel").arg("max", i64::from(*max))
            }
            LobbyError::TooManyGamesOfMember { max, .. } => {
                Text::new("bot.error.games_member").arg("max", i64::from(*max))
            }
            LobbyError::TooManyGamesHere { max, .. } => {
                Text::new("bot.error.games_channel").arg("max", i64::from(*max))
            }
            LobbyError::SeatInPlay(n) => Text::new("bot.error.seat_in_play").arg("n", *n),
            LobbyError::HandInPlay(n) => Text::new("bot.error.hand_in_play").arg("n", *n),
            LobbyError::NoSeatRequest(n) => Text::new("bot.error.no_seat_request").arg("n", *n),
            LobbyError::ClockRange { max_days } => {
                Text::new("bot.error.clock_range").arg("max", *max_days)
            }
            LobbyError::RematchNotPlayer(g) => Text::new("bot.rematch.not_player").arg("id", g.0),
            LobbyError::RematchNotFinished(g) => {
                Text::new("bot.rematch.not_finished").arg("id", g.0)
            }
            LobbyError::RematchClosed(g) => Text::new("bot.rematch.closed").arg("id", g.0),
            LobbyError::ReplayNotAPlayer(g) => Text::new("replay.not_player").arg("id", g.0),
            LobbyError::ExportRunning(g) => Text::new("replay.export_running").arg("id", g.0),
            LobbyError::ImportBad(why) => why.clone(),
            LobbyError::NotServerManager => Text::new("bot.error.not_server_manager"),
            LobbyError::NoServer => Text::new("bot.error.no_server"),
            LobbyError::CancelNotAgreed(g) => {
                Text::new("bot.error.cancel_not_agreed").arg("id", g.0)
            }
            LobbyError::CancelNotPlayer(g) => {
                Text::new("bot.error.cancel_not_player").arg("id", g.0)
            }
        }
    }
}

impl LobbyError {
    /// The refusal of a clock length (or time left) past the limits.
    pub(super) fn clock_range() -> LobbyError {
        LobbyError::ClockRange {
            max_days: crate::clock::MAX_TURN_SECS / crate::clock::DAY,
        }
    }
}

/// Open a lobby.
#[derive(Clone, Debug)]
pub struct OpenLobby {
    pub kind: GameKind,
    pub options: GameOptions,
    /// The host, who takes seat 1.
    pub host: Player,
    /// Seat cap (`None`: the game's maximum).
    pub max_players: Option<usize>,
    pub seed: u64,
    pub place: Place,
    pub clock_secs: Option<i64>,
    pub policy: TimeoutPolicy,
    /// The language of the game's public messages.
    pub lang: Lang,
    /// `false` (`/play ... rated:false`): a casual game, which moves no rating.
    pub rated: bool,
    /// `/play … reliable:`: the lowest reliability (0-100) a member needs to join.
    pub min_reliable: Option<u8>,
    /// `/play … invite:`: members whose seats are kept for them until they accept or decline
    /// (each once; never the host or a bot account: refused).
    pub invited: Vec<Player>,
    /// `/play … open:false`: only the invited members may join.
    pub invite_only: bool,
}

/// What `/move` autocomplete offers: options of the prompt at `version`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Choices {
    pub version: Version,
    pub options: Vec<String>,
    /// Who may reach the game, read with it: the front end's access check needs no second
    /// read for each keystroke.
    pub reach: Reach,
}

/// Where a game is played and who plays it: what decides who may reach it by its id.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Reach {
    pub guild: Option<i64>,
    pub channel: Option<i64>,
    pub thread: Option<i64>,
    pub host: Option<i64>,
    /// The members seated in it.
    pub players: Vec<i64>,
}

impl Reach {
    pub(super) fn of(record: &GameRecord) -> Reach {
        Reach {
            guild: record.guild,
            channel: record.channel,
            thread: record.thread,
            host: record.host,
            players: record.seats.iter().filter_map(|s| s.user).collect(),
        }
    }
}

/// A lobby (or a game that was one) as a front end shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LobbyView {
    pub game: GameId,
    pub kind: GameKind,
    pub options: GameOptions,
    pub host: Option<i64>,
    pub seats: Vec<SeatRecord>,
    pub min: usize,
    pub max: usize,
    pub status: GameStatus,
    pub version: Version,
    pub guild: Option<i64>,
    pub channel: Option<i64>,
    pub thread: Option<i64>,
    /// How the game's bot seats play.
    pub bot_level: Level,
    pub bot_delay: i64,
    /// The lobby message in the channel, once the front end posted it.
    pub lobby_message: Option<i64>,
    /// The game's live board (the one with buttons), once posted.
    pub board_message: Option<i64>,
    /// The language of the game's public messages, chosen when its lobby opened.
    pub lang: Lang,
    /// A casual game (`rated:false`): it moves no rating.
    pub casual: bool,
    /// A learner's lesson (`/learn`): its end is the lesson's, with no result card.
    pub lesson: bool,
    /// Its place refused the bot for good (a locked thread, rights taken away): nothing is
    /// posted there until the host or a moderator gives it a place again.
    pub lost: bool,
    /// Time per turn, in seconds (`None`: no clock).
    pub clock_secs: Option<i64>,
    /// Its thread was archived because nobody played for days: boards the scheduler makes
    /// are not posted until a person plays.
    pub idle: bool,
    /// `/play … reliable:`: the lowest reliability a member needs to join.
    pub min_reliable: Option<u8>,
    /// The seated members' records, shown beside their names while it is a lobby (filled
    /// by `Lobbies::lobby`; empty elsewhere).
    pub records: Vec<(i64, crate::store::Conduct)>,
    /// `/play … invite:`: the members the host invited (answered or not; none for a rematch,
    /// whose kept seats are its old players').
    pub invitees: Vec<i64>,
    /// `/play … open:false`: only the invited members may join.
    pub invite_only: bool,
}

impl LobbyView {
    pub fn reach(&self) -> Reach {
        Reach {
            guild: self.guild,
            channel: self.channel,
            thread: self.thread,
            host: self.host,
            players: self.seats.iter().filter_map(|s| s.user).collect(),
        }
    }

    /// The view of a game just loaded or changed, with no second read: a started game's seat
    /// cap is its kind's (only a lobby's cap, read by [`Lobbies::lobby`], can be lower).
    pub(super) fn of_loaded(loaded: &super::Loaded) -> LobbyView {
        LobbyView::from_record(loaded.record.clone(), None)
    }

    pub(super) fn from_record(record: GameRecord, cap: Option<i64>) -> LobbyView {
        let kind = record.kind;
        let (min, kind_max) = kind.seat_range();
        let max = cap
            .and_then(|c| usize::try_from(c).ok())
            .map_or(kind_max, |c| c.clamp(min, kind_max));
        let idle = record.idle();
        LobbyView {
            game: record.id,
            kind,
            options: record.options,
            host: record.host,
            seats: record.seats,
            min,
            max,
            status: record.status,
            version: record.version,
            guild: record.guild,
            channel: record.channel,
            thread: record.thread,
            bot_level: record.bot_level,
            bot_delay: record.bot_delay,
            lobby_message: record.lobby_message,
            board_message: record.board_message,
            lang: record.lang.unwrap_or_default(),
            casual: record.casual,
            lesson: record.lesson,
            lost: record.lost_at.is_some(),
            clock_secs: record.clock_secs,
            idle,
            min_reliable: record.min_reliable,
            records: Vec::new(),
            invitees: record.invitees,
            invite_only: record.invite_only,
        }
    }

    /// Whether Discord refused `user`'s DMs for this game before (error 50007): their hand
    /// and notices then wait for them to ask, as retrying only collects refusals.
    pub fn dm_closed(&self, user: i64) -> bool {
        self.seats
            .iter()
            .any(|s| s.user == Some(user) && s.dm_status == DmStatus::Closed)
    }

    /// Seat names as they go into message text (see [`super::text_names`]).
    pub fn names(&self) -> Vec<String> {
        self.seats
            .iter()
            .map(|s| super::text_name_in(self.guild, &s.name))
            .collect()
    }

    /// Whether another bot could sit down now.
    pub fn can_add_bot(&self) -> bool {
        self.status == GameStatus::Lobby && self.seats.len() < self.max
    }

    /// Whether a bot sits in the lobby.
    pub fn has_bot(&self) -> bool {
        self.status == GameStatus::Lobby && self.seats.iter().any(|s| s.is_bot)
    }

    /// Whether the host could start now (seats kept for invited players who have not
    /// confirmed do not count: they are left out at the start).
    pub fn can_start(&self) -> bool {
        self.status == GameStatus::Lobby && self.confirmed() >= self.min
    }

    /// Seats taken for good: everyone but the invited players who have not confirmed.
    pub fn confirmed(&self) -> usize {
        self.seats.iter().filter(|s| !s.vacant).count()
    }

    /// Invited players (of a rematch, or of `/play … invite:`) who have not answered yet.
    pub fn invited(&self) -> Vec<i64> {
        self.seats
            .iter()
            .filter(|s| s.vacant && self.status == GameStatus::Lobby)
            .filter_map(|s| s.user)
            .collect()
    }

    /// The lobby message: game, options, seats, and what to do next.
    pub fn text(&self, lang: Lang) -> String {
        let mut lines = vec![Text::new("bot.lobby.title")
            .arg("game", self.kind.display_name())
            .arg("id", self.game.0)
            .render(lang)];
        let invited = self.invited();
        if !invited.is_empty() {
            let who: Vec<String> = invited.iter().map(|u| super::output::mention(*u)).collect();
            // `/play … invite:` keeps its list; a rematch's kept seats are its old players'.
            let key = if self.invitees.is_empty() {
                "bot.rematch.invitation"
            } else {
                "bot.invite.invitation"
            };
            lines.push(Text::new(key).arg("invited", who.join(", ")).render(lang));
        }
        if self.invite_only && self.status == GameStatus::Lobby {
            lines.push(Text::new("bot.invite.closed").render(lang));
        }
        // The options in words, only those that change the standard rules.
        let words: Vec<String> = crate::engine::option_words(self.kind, &self.options)
            .iter()
            .map(|t| t.render(lang))
            .collect();
        lines.push(if words.is_empty() {
            Text::new("bot.lobby.standard").render(lang)
        } else {
            Text::new("bot.lobby.options")
                .arg("options", words.join(" · "))
                .render(lang)
        });
        // The language every public message of the game will use, and how to pick another.
        lines.push(
            Text::new("bot.lobby.language")
                .arg(
                    "language",
                    Text::new(format!("core.lang.{}", self.lang.code())),
                )
                .render(lang),
        );
        if self.casual {
            lines.push(Text::new("bot.lobby.casual").render(lang));
        }
        if let Some(min) = self.min_reliable {
            lines.push(Text::new("bot.lobby.reliable").arg("min", min).render(lang));
        }
        lines.push(
            Text::new("bot.lobby.seats")
                .arg("count", self.confirmed())
                .arg("min", self.min)
                .arg("max", self.max)
                .render(lang),
        );
        for s in &self.seats {
            let mut who = match s.user {
                Some(u) => format!("<@{u}>"),
                None => s.name.clone(),
            };
            // The member's reliability beside their name (a bot has none).
            if let Some((_, c)) = self.records.iter().find(|(u, _)| Some(*u) == s.user) {
                who = format!("{who} · {}", super::figure_text(c, lang));
            }
            let key = if s.user.is_some() && s.user == self.host {
                "bot.lobby.seat_host"
            } else if s.vacant && self.status == GameStatus::Lobby && !self.invitees.is_empty() {
                "bot.invite.seat_invited"
            } else if s.vacant && self.status == GameStatus::Lobby {
                "bot.rematch.seat_invited"
            } else {
                "bot.lobby.seat"
            };
            lines.push(
                Text::new(key)
                    .arg("n", s.seat.index() + 1)
                    .arg("who", who)
                    .render(lang),
            );
        }
        if self.seats.iter().any(|s| s.is_bot) {
            let level = Text::new(format!("core.level.{}", self.bot_level.id()));
            let key = if self.bot_delay > 0 {
                "bot.lobby.bots_delay"
            } else {
                "bot.lobby.bots"
            };
            lines.push(
                Text::new(key)
                    .arg("level", level)
                    .arg("secs", self.bot_delay)
                    .render(lang),
            );
        }
        let footer = match self.status {
            GameStatus::Lobby if self.can_start() => "bot.lobby.ready",
            GameStatus::Lobby => "bot.lobby.waiting",
            GameStatus::Active => "bot.lobby.started",
            GameStatus::Finished => "bot.lobby.finished",
            GameStatus::Cancelled => "bot.lobby.cancelled",
        };
        lines.push(Text::new(footer).arg("min", self.min).render(lang));
        lines.join("\n")
    }
}

/// One of a user's games, for `/games`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameLine {
    pub game: GameId,
    pub kind: GameKind,
    pub status: GameStatus,
    pub guild: Option<i64>,
    /// Where it is played: the thread if any, else the channel.
    pub place: Option<i64>,
    /// Its live board there, once posted.
    pub board: Option<i64>,
    /// Whether the user must decide now.
    pub your_turn: bool,
    /// The name of the player who must decide (a running game).
    pub turn: Option<String>,
    /// Where the turn's clock stands.
    pub clock: LineClock,
}

/// The clock of a game in `/games`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineClock {
    /// No clock, or not running.
    None,
    /// Runs out at this time (unix seconds).
    Due(i64),
    Paused,
    /// The seat waits for a new player.
    OpenSeat,
}

impl GameLine {
    pub fn text(&self, lang: Lang) -> String {
        let link = super::output::link(self.guild, self.place, self.board);
        let key = match self.status {
            GameStatus::Lobby => "bot.games.lobby",
            GameStatus::Active if self.your_turn => "bot.games.your_turn",
            GameStatus::Active => "bot.games.waiting",
            GameStatus::Finished => "bot.games.finished",
            GameStatus::Cancelled => "bot.games.cancelled",
        };
        let clock = match (self.status, self.clock) {
            (GameStatus::Active, LineClock::Due(deadline)) => Text::new("bot.games.left")
                .arg("due", super::output::due(deadline))
                .render(lang),
            (GameStatus::Active, LineClock::Paused) => Text::new("bot.games.paused").render(lang),
            (GameStatus::Active, LineClock::OpenSeat) => {
                Text::new("bot.games.open_seat").render(lang)
            }
            _ => String::new(),
        };
        Text::new(key)
            .arg("game", self.kind.display_name())
            .arg("id", self.game.0)
            .arg("link", link)
            .arg("who", self.turn.clone().unwrap_or_default())
            .arg("clock", clock)
            .render(lang)
    }
}

/// How long a member's agreement to cancel a running game holds: the others have a day to
/// agree too, and an old agreement cannot be kept for the moment the host starts losing.
pub const CANCEL_AGREEMENT_SECS: i64 = 24 * 3600;

/// How many times a cancel reads the game again when a turn landed under it.
const CANCEL_TRIES: u32 = 3;

/// What a `/cancel` would do, told before it is confirmed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CancelKind {
    /// The game stops and moves no rating: a lobby, the cancel of a moderator (or a host) who
    /// plays no seat in it, or a game whose other seats hold no member.
    Neutral,
    /// The host cancels a running game every other seated member agreed to stop: no rating.
    Agreed,
    /// The host (or a moderator who plays in it) cancels a running game that not every other
    /// seated member agreed to stop: it counts as their resignation (`seat`) in the ratings.
    /// `waiting`: the members who have not agreed.
    Resignation { seat: Seat, waiting: Vec<i64> },
    /// A seated member who is not the host may agree to cancel: the game stops with no rating
    /// once every seated member has. `agreed` of `of` have so far.
    Agree { agreed: usize, of: usize },
}

/// The checks of a `/cancel` passed: the game, and what the cancel would mean.
#[derive(Clone, Debug)]
pub struct CancelCheck {
    pub view: LobbyView,
    pub kind: CancelKind,
}

/// What a cancel did.
#[derive(Clone, Debug)]
pub struct Cancelled {
    pub view: LobbyView,
    /// The host's seat when the cancel counts as their resignation.
    pub resigned: Option<Seat>,
}

/// What an agreement to cancel did.
#[derive(Clone, Debug)]
pub struct Agreed {
    pub view: LobbyView,
    /// Seated members who agree now, of all of them.
    pub agreed: usize,
    pub of: usize,
    /// The members still to agree.
    pub waiting: Vec<i64>,
    /// Everyone agreed: the game is cancelled, with no rating.
    pub cancelled: bool,
}

/// What a click on Rematch did.
#[derive(Clone, Debug)]
pub enum Rematch {
    /// The rematch's lobby was opened by this click: post it (its `invited` are pinged).
    Opened { view: LobbyView, invited: Vec<i64> },
    /// The clicker confirmed their seat in the rematch already open.
    Confirmed(LobbyView),
    /// The clicker was already seated in it: nothing changed.
    Seated(LobbyView),
}

/// What resigning did.
#[derive(Clone, Debug)]
pub struct Resigned {
    pub seat: Seat,
    /// The message for the game's channel.
    pub text: String,
}

impl Lobbies<'_> {
    /// Opens a lobby with the host in seat 1. The options are checked now, not at start.
    pub async fn open_lobby(self, cmd: OpenLobby, now: i64) -> Result<LobbyView, ServiceError> {
        let (min, max) = cmd.kind.seat_range();
        if let Some(n) = cmd.max_players {
            if n < min || n > max {
                return Err(crate::engine::SetupError::SeatCount {
                    kind: cmd.kind,
                    min,
                    max,
                    found: n,
                }
                .into());
            }
        }
        if let Some(secs) = cmd.clock_secs {
            check_clock_len(secs)?;
        }
        let invited = check_invitations(&cmd, cmd.max_players.unwrap_or(max))?;
        self.check_lobby_limits(cmd.host.user, cmd.place.channel)
            .await?;
        // Rejects unknown options and bad values early. Some options fit only some table
        // sizes (Vortex's Crossing needs two players, Solitaire one), so the options are good
        // if the game sets up at any size the lobby allows; else the most telling refusal.
        let top = cmd.max_players.unwrap_or(max);
        let mut refusal = None;
        for seats in min..=top {
            match cmd.kind.setup(&cmd.options, seats, cmd.seed) {
                Ok(_) => {
                    refusal = None;
                    break;
                }
                Err(e) => {
                    let telling = !matches!(e, crate::engine::SetupError::SeatCount { .. });
                    if refusal.is_none() || telling {
                        refusal = Some(e);
                    }
                }
            }
        }
        if let Some(e) = refusal {
            return Err(e.into());
        }
        let new = NewGame {
            kind: cmd.kind,
            options: cmd.options.clone(),
            seed: super::seed_to_i64(cmd.seed),
            state: String::new(),
            status: GameStatus::Lobby,
            guild: cmd.place.guild,
            channel: cmd.place.channel,
            thread: cmd.place.thread,
            host: cmd.host.user,
            seats: vec![NewSeat {
                user: cmd.host.user,
                name: cmd.host.name.clone(),
                is_bot: cmd.host.is_bot,
            }],
            clock_secs: cmd.clock_secs,
            policy: cmd.policy,
            lang: Some(cmd.lang),
            now,
        };
        let id = self.core.store.create_game(&new).await?;
        let cap = cmd.max_players.and_then(|n| i64::try_from(n).ok());
        self.core.store.set_max_seats(id, cap).await?;
        if !cmd.rated {
            self.core.store.set_casual(id, true).await?;
        }
        if cmd.min_reliable.is_some() {
            self.core
                .store
                .set_min_reliable(id, cmd.min_reliable.map(|m| m.min(100)))
                .await?;
        }
        if !invited.is_empty() {
            self.core
                .store
                .invite_to_lobby(id, &invited, cmd.invite_only, now)
                .await?;
        }
        // An idle lobby closes by itself; the start replaces every job of the game.
        self.core
            .store
            .schedule_job(&NewJob {
                due_at: now.saturating_add(self.core.timers.lobby_idle_secs),
                kind: JobKind::Lobby,
                game: Some(id),
                user: None,
                payload: String::new(),
            })
            .await?;
        self.lobby(id).await
    }

    /// One member, or one busy channel, cannot fill a server with lobbies (and threads).
    pub(super) async fn check_lobby_limits(
        self,
        host: Option<i64>,
        channel: Option<i64>,
    ) -> Result<(), ServiceError> {
        let (mine, here) = self.core.store.open_lobbies(host, channel).await?;
        let t = &self.core.timers;
        if host.is_some() && mine >= i64::from(t.lobbies_per_member) {
            return Err(LobbyError::TooManyLobbiesOfMember {
                open: mine,
                max: t.lobbies_per_member,
            }
            .into());
        }
        if channel.is_some() && here >= i64::from(t.lobbies_per_channel) {
            return Err(LobbyError::TooManyLobbiesHere {
                open: here,
                max: t.lobbies_per_channel,
            }
            .into());
        }
        self.check_game_limits(host, channel, 0).await
    }

    /// Running games count too: each holds a thread and pings its players for days. `this`
    /// is how many of the counted games are the one being checked (a lobby at its start).
    pub(super) async fn check_game_limits(
        self,
        host: Option<i64>,
        channel: Option<i64>,
        this: i64,
    ) -> Result<(), ServiceError> {
        let (mine, here) = self.core.store.live_games(host, channel).await?;
        let t = &self.core.timers;
        let (mine, here) = (mine - this, here - this);
        if host.is_some() && mine >= i64::from(t.games_per_member) {
            return Err(LobbyError::TooManyGamesOfMember {
                open: mine,
                max: t.games_per_member,
            }
            .into());
        }
        if channel.is_some() && here >= i64::from(t.games_per_channel) {
            return Err(LobbyError::TooManyGamesHere {
                open: here,
                max: t.games_per_channel,
            }
            .into());
        }
        Ok(())
    }

    /// Archives the threads of games nobody played in for `IDLE_ARCHIVE_DAYS` (bots and
    /// timeouts do not count): each is told so, then archived. Returns what to send.
    pub async fn idle_threads(self, now: i64) -> Result<Vec<Notice>, ServiceError> {
        let cutoff = now.saturating_sub(self.core.timers.idle_archive_secs);
        let mut notices = Vec::new();
        for game in self.core.store.idle_games(cutoff, 100).await? {
            if !self.core.store.mark_idle(game, now).await? {
                continue;
            }
            let record = self.core.store.game(game).await?;
            let lang = super::core::game_lang(&record);
            let days = self.core.timers.idle_archive_secs / (24 * 3600);
            let text = Text::new("bot.place.idle")
                .arg("game", record.kind.display_name())
                .arg("id", game.0)
                .arg("days", days.max(1))
                .render(lang);
            notices.push(Notice::Place { game, text });
            notices.push(Notice::Archive { game });
        }
        Ok(notices)
    }

    /// Whether a game starting in `guild` may have a thread of its own: fewer running games
    /// there have one than `MAX_THREADS_PER_SERVER`. Beyond, it is played in its channel.
    pub async fn thread_room(self, guild: Option<i64>) -> Result<bool, ServiceError> {
        let Some(guild) = guild else { return Ok(true) };
        let used = self.core.store.games_with_threads(guild).await?;
        Ok(used < i64::from(self.core.timers.threads_per_server))
    }

    /// Records the lobby message the front end posted.
    pub async fn set_lobby_message(self, game: GameId, message: i64) -> Result<(), ServiceError> {
        Ok(self.core.store.set_lobby_message(game, message).await?)
    }

    /// A lobby (or a game that was one) as it stands.
    pub async fn lobby(self, game: GameId) -> Result<LobbyView, ServiceError> {
        let record = self.core.store.game(game).await?;
        let cap = self.core.store.max_seats(game).await?;
        let mut view = LobbyView::from_record(record, cap);
        // While it gathers players, each seated member's reliability shows beside them.
        if view.status == GameStatus::Lobby {
            let since = super::record_since(self.core.now());
            // Invited players of a rematch who have not confirmed are not seated yet.
            for s in view.seats.iter().filter(|s| !s.is_bot && !s.vacant) {
                if let Some(user) = s.user {
                    let c = self.core.store.conduct(user, since).await?;
                    view.records.push((user, c));
                }
            }
        }
        Ok(view)
    }

    /// The open lobbies of `guild` (of `kind` only, if given) that `user` could join now:
    /// posted, with a free seat, not theirs already; newest first, at most `limit`. Which
    /// channels the member may see is the front end's to say.
    pub async fn joinable(
        self,
        guild: i64,
        kind: Option<GameKind>,
        user: i64,
        limit: usize,
    ) -> Result<Vec<LobbyView>, ServiceError> {
        // Read a few more than asked: some are full or the member's own.
        let ids = self
            .core
            .store
            .open_lobbies_of_guild(guild, kind, i64::try_from(limit * 3).unwrap_or(i64::MAX))
            .await?;
        let mut views = Vec::new();
        for id in ids {
            let view = self.lobby(id).await?;
            let seated = view.seats.iter().any(|s| s.user == Some(user));
            // A lobby closed to others is listed only for its invited members.
            let welcome = !view.invite_only || view.invitees.contains(&user);
            if !seated && welcome && view.seats.len() < view.max && view.status == GameStatus::Lobby
            {
                views.push(view);
            }
            if views.len() == limit {
                break;
            }
        }
        Ok(views)
    }

    /// Records the thread opened for a game.
    pub async fn set_thread(self, game: GameId, thread: i64) -> Result<(), ServiceError> {
        Ok(self.core.store.set_thread(game, Some(thread)).await?)
    }

    /// Takes the next free seat.
    pub async fn join(
        self,
        game: GameId,
        player: Player,
        now: i64,
    ) -> Result<LobbyView, ServiceError> {
        let Some(user) = player.user else {
            return Err(LobbyError::NotSeated.into());
        };
        let view = self.lobby(game).await?;
        let lobby = view.status == GameStatus::Lobby;
        // A seat kept for them (invited, or a rematch's player): joining accepts it.
        let kept = view.invited().contains(&user);
        if lobby && !kept && view.host != Some(user) {
            if view.invite_only && !view.invitees.contains(&user) {
                return Err(LobbyError::InviteOnly.into());
            }
            // Every seat left is kept for someone else: they may watch once it starts.
            let taken = view.seats.iter().any(|s| s.user == Some(user));
            if !taken && view.seats.len() >= view.max && !view.invited().is_empty() {
                return Err(LobbyError::SeatsReserved.into());
            }
        }
        // `reliable:`: a member under the lobby's figure is refused; a member with no record
        // yet is welcome (everyone starts somewhere), and so are the host and the members the
        // host invited by name.
        if let Some(min) = view.min_reliable.filter(|_| lobby) {
            if !player.is_bot && view.host != Some(user) && !kept {
                super::reliability::require(self.core, user, min, now).await?;
            }
        }
        match self
            .core
            .store
            .lobby_join(game, user, &player.name, view.max, now)
            .await?
        {
            JoinOutcome::Joined(_) => self.lobby(game).await,
            JoinOutcome::AlreadySeated(_) => Err(LobbyError::AlreadySeated.into()),
            JoinOutcome::Full => Err(LobbyError::Full { max: view.max }.into()),
            JoinOutcome::NotLobby(_) => Err(LobbyError::NotLobby(game).into()),
        }
    }

    /// An invited member takes the seat kept for them (the lobby's Accept button).
    pub async fn accept(
        self,
        game: GameId,
        player: Player,
        now: i64,
    ) -> Result<LobbyView, ServiceError> {
        let user = player.user.ok_or(LobbyError::NotInvited)?;
        self.waiting_invitation(game, user).await?;
        self.join(game, player, now).await
    }

    /// An invited member declines: the seat kept for them is freed (for anyone, unless the
    /// lobby is closed to others: then for nobody but the other invited members). In a closed
    /// lobby they stay on the list, so they may change their mind while a seat is free.
    pub async fn decline(
        self,
        game: GameId,
        user: i64,
        now: i64,
    ) -> Result<LobbyView, ServiceError> {
        self.waiting_invitation(game, user).await?;
        self.leave(game, user, now).await
    }

    /// A lobby where a seat is kept for `user`, who has not answered yet; else why not.
    async fn waiting_invitation(self, game: GameId, user: i64) -> Result<(), ServiceError> {
        let view = self.lobby(game).await?;
        if view.status != GameStatus::Lobby {
            return Err(LobbyError::NotLobby(game).into());
        }
        if !view.invited().contains(&user) {
            return Err(LobbyError::NotInvited.into());
        }
        Ok(())
    }

    /// Gives a seat back. The host cancels instead.
    pub async fn leave(self, game: GameId, user: i64, now: i64) -> Result<LobbyView, ServiceError> {
        let view = self.lobby(game).await?;
        if view.host == Some(user) && view.status == GameStatus::Lobby {
            return Err(LobbyError::HostLeaves.into());
        }
        match self.core.store.lobby_leave(game, user, now).await? {
            LeaveOutcome::Left => self.lobby(game).await,
            LeaveOutcome::NotSeated => Err(LobbyError::NotSeated.into()),
            LeaveOutcome::NotLobby(_) => Err(LobbyError::NotLobby(game).into()),
        }
    }

    /// A lobby, if `user` hosts it or moderates.
    async fn hosted_lobby(
        self,
        game: GameId,
        user: i64,
        is_moderator: bool,
    ) -> Result<LobbyView, ServiceError> {
        let view = self.lobby(game).await?;
        if view.host != Some(user) && !is_moderator {
            return Err(LobbyError::NotHost.into());
        }
        Ok(view)
    }

    /// Seats a bot in the next free seat (host or moderator).
    pub async fn add_bot(
        self,
        game: GameId,
        user: i64,
        is_moderator: bool,
        now: i64,
    ) -> Result<LobbyView, ServiceError> {
        let view = self.hosted_lobby(game, user, is_moderator).await?;
        let bots = view.seats.iter().filter(|s| s.is_bot).count();
        // The seat's name shows in the game's public messages: in the game's language.
        let name = Text::new("bot.lobby.bot_name")
            .arg("n", bots + 1)
            .render(view.lang);
        match self
            .core
            .store
            .lobby_add_bot(game, &name, view.max, now)
            .await?
        {
            JoinOutcome::Joined(_) | JoinOutcome::AlreadySeated(_) => self.lobby(game).await,
            JoinOutcome::Full => Err(LobbyError::Full { max: view.max }.into()),
            JoinOutcome::NotLobby(_) => Err(LobbyError::NotLobby(game).into()),
        }
    }

    /// Takes the last bot out of the lobby (host or moderator).
    pub async fn remove_bot(
        self,
        game: GameId,
        user: i64,
        is_moderator: bool,
        now: i64,
    ) -> Result<LobbyView, ServiceError> {
        self.hosted_lobby(game, user, is_moderator).await?;
        match self.core.store.lobby_remove_bot(game, now).await? {
            LeaveOutcome::Left => self.lobby(game).await,
            LeaveOutcome::NotSeated => Err(LobbyError::NoBot.into()),
            LeaveOutcome::NotLobby(_) => Err(LobbyError::NotLobby(game).into()),
        }
    }

    /// How the game's bot seats play: level, and seconds they wait before each decision so
    /// people can follow (at most a minute).
    pub async fn set_bots(
        self,
        game: GameId,
        level: Level,
        delay_secs: i64,
    ) -> Result<(), ServiceError> {
        let delay = delay_secs.clamp(0, MAX_BOT_DELAY);
        Ok(self.core.store.set_bots(game, level, delay).await?)
    }

    /// Starts a lobby (host or moderator, enough players): sets the game up with the stored
    /// seed and returns the first board post.
    pub async fn start_lobby(
        self,
        game: GameId,
        user: i64,
        is_moderator: bool,
        lang: Lang,
        now: i64,
    ) -> Result<Outputs, ServiceError> {
        let mut view = self.lobby(game).await?;
        if view.status != GameStatus::Lobby {
            return Err(LobbyError::NotLobby(game).into());
        }
        if view.host != Some(user) && !is_moderator {
            return Err(LobbyError::NotHost.into());
        }
        // Lobbies opened under the caps may still start past them (a rematch, lowered caps).
        self.check_game_limits(view.host, view.channel, 1).await?;
        if view.confirmed() < view.min {
            return Err(LobbyError::TooFew {
                min: view.min,
                found: view.confirmed(),
            }
            .into());
        }
        if view.confirmed() < view.seats.len() {
            // A rematch started without the invited players who never confirmed: their
            // seats go, the others keep their order.
            self.core.store.lobby_drop_unconfirmed(game, now).await?;
            view = self.lobby(game).await?;
        }
        let record = self.core.store.game(game).await?;
        let state = view.kind.setup(
            &view.options,
            view.seats.len(),
            super::seed_from_i64(record.seed),
        )?;
        self.core
            .store
            .start_lobby(game, view.version, &state.to_json(), now)
            .await?;
        let mut loaded = self.core.load(game).await?;
        self.core.start_clock(&mut loaded, now).await?;
        let lang = super::core::public_lang(&loaded.record, lang);
        let board = super::core::rendering(move || output::first_board(&loaded, lang)).await?;
        Ok(self.core.with_settings(board).await)
    }

    /// Cancels a lobby or a running game (host or moderator) when that moves no rating: a
    /// lobby, a moderator's cancel, or a running game every other seated member agreed to
    /// stop. A host's cancel that would count as their resignation is refused
    /// ([`LobbyError::CancelNotAgreed`]): that takes [`Lobbies::cancel_with`].
    pub async fn cancel(
        self,
        game: GameId,
        user: i64,
        is_moderator: bool,
        now: i64,
    ) -> Result<LobbyView, ServiceError> {
        Ok(self
            .cancel_with(game, user, is_moderator, false, now)
            .await?
            .view)
    }

    /// Cancels a lobby or a running game (host or moderator). Once a game has started, the
    /// host's cancel counts as the host's resignation for the ratings unless every other
    /// seated member agreed within [`CANCEL_AGREEMENT_SECS`]; `as_resignation` says the host
    /// was told so and went on (else such a cancel is refused and nothing changes). A
    /// moderator's cancel never counts for anyone.
    pub async fn cancel_with(
        self,
        game: GameId,
        user: i64,
        is_moderator: bool,
        as_resignation: bool,
        now: i64,
    ) -> Result<Cancelled, ServiceError> {
        // A cancel does not depend on the board its author saw: a turn that lands between the
        // read and the write (a timeout, a bot, another player) makes it read and check again,
        // rather than refuse it as an old board.
        let mut tries = 0;
        loop {
            let record = self.core.store.game(game).await?;
            let forfeit = match self.cancel_kind(&record, user, is_moderator, now).await? {
                CancelKind::Neutral | CancelKind::Agreed => None,
                CancelKind::Resignation { seat, .. } if as_resignation => Some(seat),
                CancelKind::Resignation { .. } => {
                    return Err(LobbyError::CancelNotAgreed(game).into())
                }
                CancelKind::Agree { .. } => return Err(LobbyError::NotHost.into()),
            };
            match self
                .core
                .store
                .cancel_game(game, record.version, forfeit, now)
                .await
            {
                Err(StoreError::Conflict { .. }) if tries < CANCEL_TRIES => tries += 1,
                done => {
                    done?;
                    return Ok(Cancelled {
                        view: self.lobby(game).await?,
                        resigned: forfeit,
                    });
                }
            }
        }
    }

    /// The checks of [`Lobbies::cancel`], changing nothing: asked before "are you sure?",
    /// with what the cancel would mean for the ratings.
    pub async fn check_cancel(
        self,
        game: GameId,
        user: i64,
        is_moderator: bool,
        now: i64,
    ) -> Result<CancelCheck, ServiceError> {
        let record = self.core.store.game(game).await?;
        let kind = self.cancel_kind(&record, user, is_moderator, now).await?;
        let cap = self.core.store.max_seats(game).await?;
        Ok(CancelCheck {
            view: LobbyView::from_record(record, cap),
            kind,
        })
    }

    /// A seated member of a running game asks, or agrees, to cancel it with no rating. Once
    /// every seated member has (each within [`CANCEL_AGREEMENT_SECS`]), the game is cancelled.
    pub async fn agree_cancel(
        self,
        game: GameId,
        user: i64,
        now: i64,
    ) -> Result<Agreed, ServiceError> {
        let record = self.core.store.game(game).await?;
        if record.status != GameStatus::Active {
            return Err(ServiceError::NotActive(game));
        }
        let members = seated_members(&record);
        if !members.contains(&user) {
            return Err(LobbyError::CancelNotPlayer(game).into());
        }
        self.core.store.vote_cancel(game, user, now).await?;
        let agreed = self.agreed(&record, now).await?;
        let waiting: Vec<i64> = members
            .iter()
            .copied()
            .filter(|m| !agreed.contains(m))
            .collect();
        let cancelled = waiting.is_empty();
        if cancelled {
            self.core
                .store
                .cancel_game(game, record.version, None, now)
                .await?;
        }
        Ok(Agreed {
            view: self.lobby(game).await?,
            agreed: agreed.len(),
            of: members.len(),
            waiting,
            cancelled,
        })
    }

    /// The seated members of `record` who asked or agreed to cancel it lately.
    async fn agreed(self, record: &GameRecord, now: i64) -> Result<Vec<i64>, ServiceError> {
        let members = seated_members(record);
        let since = now.saturating_sub(CANCEL_AGREEMENT_SECS);
        Ok(self
            .core
            .store
            .cancel_votes(record.id, since)
            .await?
            .into_iter()
            .filter(|u| members.contains(u))
            .collect())
    }

    /// What `user`'s cancel of `record` would be (see [`CancelKind`]), or why they may not.
    async fn cancel_kind(
        self,
        record: &GameRecord,
        user: i64,
        is_moderator: bool,
        now: i64,
    ) -> Result<CancelKind, ServiceError> {
        if !matches!(record.status, GameStatus::Lobby | GameStatus::Active) {
            return Err(ServiceError::NotActive(record.id));
        }
        if record.status == GameStatus::Lobby {
            may_cancel(record, user, is_moderator)?;
            return Ok(CancelKind::Neutral);
        }
        let members = seated_members(record);
        let agreed = self.agreed(record, now).await?;
        if record.host == Some(user) || is_moderator {
            // A moderator, or a host, who plays no seat dodges nothing; one who plays is
            // held to the rule like any host.
            let Some(seat) = record
                .seats
                .iter()
                .find(|s| !s.is_bot && s.user == Some(user))
            else {
                return Ok(CancelKind::Neutral);
            };
            let waiting: Vec<i64> = members
                .iter()
                .copied()
                .filter(|m| *m != user && !agreed.contains(m))
                .collect();
            if waiting.is_empty() {
                return Ok(if members.len() > 1 {
                    CancelKind::Agreed
                } else {
                    CancelKind::Neutral
                });
            }
            return Ok(CancelKind::Resignation {
                seat: seat.seat,
                waiting,
            });
        }
        if members.contains(&user) {
            return Ok(CancelKind::Agree {
                agreed: agreed.len(),
                of: members.len(),
            });
        }
        Err(LobbyError::NotHost.into())
    }

    /// Creates and starts a game; returns its first board post.
    pub async fn start(
        self,
        cmd: StartGame,
        lang: Lang,
        now: i64,
    ) -> Result<(GameId, Outputs), ServiceError> {
        self.start_with_policy(cmd, TimeoutPolicy::default(), lang, now)
            .await
    }

    /// [`Lobbies::start`] with what happens when a turn's time runs out.
    pub async fn start_with_policy(
        self,
        cmd: StartGame,
        policy: TimeoutPolicy,
        lang: Lang,
        now: i64,
    ) -> Result<(GameId, Outputs), ServiceError> {
        let game = cmd.kind.setup(&cmd.options, cmd.players.len(), cmd.seed)?;
        let new = NewGame {
            kind: cmd.kind,
            options: cmd.options.clone(),
            seed: seed_to_i64(cmd.seed),
            state: game.to_json(),
            status: GameStatus::Active,
            guild: cmd.place.guild,
            channel: cmd.place.channel,
            thread: cmd.place.thread,
            host: cmd.host,
            seats: cmd
                .players
                .iter()
                .map(|p| NewSeat {
                    user: p.user,
                    name: p.name.clone(),
                    is_bot: p.is_bot,
                })
                .collect(),
            clock_secs: cmd.clock_secs,
            policy,
            lang: Some(lang),
            now,
        };
        let id = self.core.store.create_game(&new).await?;
        let mut loaded = self.core.load(id).await?;
        self.core.start_clock(&mut loaded, now).await?;
        let board = super::core::rendering(move || output::first_board(&loaded, lang)).await?;
        Ok((id, self.core.with_settings(board).await))
    }

    /// A player of finished game `old` clicks Rematch. The first click opens a lobby in the
    /// same channel with the same game, options, clock and bots, its seats in the old order:
    /// the clicker hosts and is seated, bots are seated, every other player's seat is kept
    /// for them until they confirm (Join, or Rematch again). Later clicks by old players
    /// confirm their seat. Anyone else may take a free seat with Join, as in any lobby.
    pub async fn rematch(
        self,
        old: GameId,
        player: Player,
        seed: u64,
        now: i64,
    ) -> Result<Rematch, ServiceError> {
        let record = self.core.store.game(old).await?;
        let Some(user) = player.user else {
            return Err(LobbyError::RematchNotPlayer(old).into());
        };
        if record.status != GameStatus::Finished {
            return Err(LobbyError::RematchNotFinished(old).into());
        }
        if !record
            .seats
            .iter()
            .any(|s| !s.is_bot && s.user == Some(user))
        {
            return Err(LobbyError::RematchNotPlayer(old).into());
        }
        if let Some(existing) = self.core.store.ending(old).await?.rematch {
            return self
                .confirm_rematch(existing, user, &player.name, now)
                .await;
        }
        self.check_lobby_limits(Some(user), record.channel).await?;
        let seats: Vec<NewSeat> = record
            .seats
            .iter()
            .map(|s| NewSeat {
                user: if s.is_bot { None } else { s.user },
                name: if s.user == Some(user) {
                    player.name.clone()
                } else {
                    s.name.clone()
                },
                is_bot: s.is_bot,
            })
            .collect();
        // Seats of people other than the opener wait for them; an opened seat (its player
        // timed out and nobody took it) has nobody to ask and is left out.
        let mut invited = Vec::new();
        let mut seats_kept = Vec::new();
        let mut invited_users = Vec::new();
        for (s, new) in record.seats.iter().zip(seats) {
            if !s.is_bot && s.user.is_none() {
                continue;
            }
            if !s.is_bot && s.user != Some(user) {
                if s.user.is_some_and(|u| invited_users.contains(&u)) {
                    continue;
                }
                invited.push(seats_kept.len());
                invited_users.extend(s.user);
            }
            seats_kept.push(new);
        }
        // One seat per person: a player who held two seats gets one.
        let mut opener_seated = false;
        seats_kept.retain(|s| {
            if s.user == Some(user) {
                let keep = !opener_seated;
                opener_seated = true;
                keep
            } else {
                true
            }
        });
        let new = NewRematch {
            game: NewGame {
                kind: record.kind,
                options: record.options.clone(),
                seed: super::seed_to_i64(seed),
                state: String::new(),
                status: GameStatus::Lobby,
                guild: record.guild,
                channel: record.channel,
                thread: None,
                host: Some(user),
                seats: seats_kept,
                clock_secs: record.clock_secs,
                policy: record.policy,
                lang: record.lang,
                now,
            },
            invited,
            max_seats: self.core.store.max_seats(old).await?,
            bot_level: record.bot_level,
            bot_delay: record.bot_delay,
            idle: NewJob {
                due_at: now.saturating_add(self.core.timers.lobby_idle_secs),
                kind: JobKind::Lobby,
                game: None,
                user: None,
                payload: String::new(),
            },
        };
        match self.core.store.open_rematch(old, &new).await? {
            RematchOutcome::Opened(id) => Ok(Rematch::Opened {
                view: {
                    // A casual game's rematch is casual too.
                    if record.casual {
                        self.core.store.set_casual(id, true).await?;
                    }
                    // So does its `reliable:`.
                    if record.min_reliable.is_some() {
                        self.core
                            .store
                            .set_min_reliable(id, record.min_reliable)
                            .await?;
                    }
                    self.lobby(id).await?
                },
                invited: invited_users,
            }),
            RematchOutcome::Exists(id) => self.confirm_rematch(id, user, &player.name, now).await,
            RematchOutcome::NotFinished(_) => Err(LobbyError::RematchNotFinished(old).into()),
        }
    }

    /// An old player's click on Rematch once it is open: confirms their kept seat.
    async fn confirm_rematch(
        self,
        rematch: GameId,
        user: i64,
        name: &str,
        now: i64,
    ) -> Result<Rematch, ServiceError> {
        let view = self.lobby(rematch).await?;
        if view.status != GameStatus::Lobby {
            return Err(LobbyError::RematchClosed(rematch).into());
        }
        match self
            .core
            .store
            .lobby_join(rematch, user, name, view.max, now)
            .await?
        {
            JoinOutcome::Joined(_) => Ok(Rematch::Confirmed(self.lobby(rematch).await?)),
            JoinOutcome::AlreadySeated(_) => Ok(Rematch::Seated(view)),
            JoinOutcome::Full => Err(LobbyError::Full { max: view.max }.into()),
            JoinOutcome::NotLobby(_) => Err(LobbyError::RematchClosed(rematch).into()),
        }
    }
}

/// The invited members of a lobby about to open, each once, as their kept seats: refused for
/// the host (seated already), a bot account, a closed lobby with nobody invited, and more
/// members than seats besides the host's (`max`: the lobby's cap).
fn check_invitations(cmd: &OpenLobby, max: usize) -> Result<Vec<(i64, String)>, LobbyError> {
    let mut out: Vec<(i64, String)> = Vec::new();
    for p in &cmd.invited {
        if p.is_bot {
            return Err(LobbyError::InviteBot);
        }
        let Some(user) = p.user else {
            return Err(LobbyError::InviteBot);
        };
        if cmd.host.user == Some(user) {
            return Err(LobbyError::InviteSelf);
        }
        // The same member named twice is invited once.
        if !out.iter().any(|(u, _)| *u == user) {
            out.push((user, p.name.clone()));
        }
    }
    if cmd.invite_only && out.is_empty() {
        return Err(LobbyError::ClosedWithoutInvites);
    }
    let free = max.saturating_sub(1);
    if out.len() > free {
        return Err(LobbyError::TooManyInvited {
            invited: out.len(),
            free,
        });
    }
    Ok(out)
}

/// Whether a game has any private information for a seat (so the bot checks DMs at join).
pub fn has_hidden_hands(kind: GameKind) -> bool {
    // A game with private views renders them from setup on; try the fewest players.
    let (min, _) = kind.seat_range();
    kind.setup(&GameOptions::new(), min, 0)
        .is_ok_and(|g| Seat::all(g.seat_count()).any(|s| g.private_view_json(s).is_some()))
}

impl Loaded {
    /// The seat of a front-end user, if seated.
    pub fn seat_of_user(&self, user: i64) -> Option<Seat> {
        self.record
            .seats
            .iter()
            .position(|s| s.user == Some(user))
            .and_then(|i| u8::try_from(i).ok())
            .map(Seat)
    }
}

/// Options matching what was typed: each typed word must occur in the option (case-folded).
/// The full list when nothing was typed.
pub fn filter_choices(options: &[String], typed: &str) -> Vec<String> {
    let words: Vec<String> = typed.split_whitespace().map(str::to_lowercase).collect();
    options
        .iter()
        .filter(|o| {
            let o = o.to_lowercase();
            words.iter().all(|w| o.contains(w.as_str()))
        })
        .cloned()
        .collect()
}

/// The members seated in a game (each once; bots and open seats are nobody).
pub(super) fn seated_members(record: &GameRecord) -> Vec<i64> {
    let mut out: Vec<i64> = Vec::new();
    for s in &record.seats {
        if let (false, false, Some(u)) = (s.is_bot, s.vacant, s.user) {
            if !out.contains(&u) {
                out.push(u);
            }
        }
    }
    out
}

/// Who may cancel: the host, or a moderator; only a lobby or a running game.
fn may_cancel(record: &GameRecord, user: i64, is_moderator: bool) -> Result<(), ServiceError> {
    if !matches!(record.status, GameStatus::Lobby | GameStatus::Active) {
        return Err(ServiceError::NotActive(record.id));
    }
    if record.host != Some(user) && !is_moderator {
        return Err(LobbyError::NotHost.into());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn choices_filter_by_every_typed_word() {
        let opts: Vec<String> = ["put 1 g", "put 2 g", "move 13 14", "pass"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(filter_choices(&opts, ""), opts);
        assert_eq!(filter_choices(&opts, "PUT 2"), vec!["put 2 g".to_string()]);
        assert_eq!(filter_choices(&opts, "14"), vec!["move 13 14".to_string()]);
        assert!(filter_choices(&opts, "zzz").is_empty());
    }
}
