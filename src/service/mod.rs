//! The service layer: plain commands in, plain outputs out. It joins the pure engine and the
//! store and knows neither Discord wire types nor SQL. Every front end (the local table, the
//! Discord bot, tests) drives games through it.
//!
//! Flow of a move: load the game (store) -> find the actor's seat -> check the version ->
//! play the line on the engine (all or nothing) -> one store transaction (moves appended, new
//! snapshot, version+1) -> outputs (board post with image and text, private views).

mod analysis;
mod boards;
mod clocks;
mod core;
mod export;
mod finder;
mod learn;
mod lobby;
mod moves;
mod output;
mod pings;
mod players;
mod profile;
mod ratings;
mod reliability;
mod replay;
mod result;
mod rollback;
mod substitutes;
mod takeback;

pub use crate::model::GamePings;
pub use crate::model::JobKind;
/// For front ends that print a database URL (the bot's `Debug`): never its password.
pub use crate::store::redact_url;
pub use crate::store::Conduct;
pub use analysis::{
    board as analysis_board, positions as analysis_positions, present as present_analysis,
    weigh as weigh_analysis, AnalysisError, AnalysisPost, Position, Weighed,
};
pub use clocks::{
    ClockAction, JobDone, JobsRun, LostPlace, NewPlace, Timers, DEFAULT_SCHEDULER_CONCURRENCY,
};
pub use export::{FileMove, GameFile, FILE_FORMAT, FILE_VERSION};
pub use finder::{SavedGame, SavedState};
pub use learn::{
    past_script, script as lesson_script, LessonEnd, Script as LessonScript, SCRIPTS as LESSONS,
};
pub use lobby::{
    filter_choices, has_hidden_hands, Agreed, CancelCheck, CancelKind, Cancelled, Choices,
    GameLine, LineClock, LobbyError, LobbyView, OpenLobby, Reach, Rematch, Resigned,
    CANCEL_AGREEMENT_SECS,
};
pub use moves::{ends_turn, revealed_since, Chosen, ConfirmMove};
pub use output::{
    board_text, due, duration_text, encode_indexed, encode_png, encode_rgb, human_duration,
    outcome_text, BoardPost, Notice, Outputs, PrivatePost, ZoomPost,
};
pub use pings::{
    parse_reminders, ReminderChoice, MAX_REMINDER_POINTS, MIN_POINT_GAP_PCT, MIN_REMINDER_GAP_SECS,
    REMINDER_PCT,
};
pub use players::{Newcomer, Replaced, SettingsChange};
pub use profile::{Profile, PROFILE_GAMES};
pub use ratings::{
    bot_key, entrants, games_to_place, ordered, ordinal, provisional, replay_history,
    start as rating_start, update as rating_update, user_key, PROVISIONAL_SIGMA,
};
pub use reliability::{figure_text, record_since, record_text, reliability, RECORD_DAYS};
pub use replay::{replay_frames, replay_gif, turn_bounds, ReplayStep};
pub use result::{
    count_turns, result_card, result_image, result_lines, standings, Ending, GameResult,
};
pub use rollback::{
    RollbackError, RollbackStep, RollbackWait, Rollbacks, RolledBack, TurnChoice, ROLLBACK_ASK_SECS,
};
pub use takeback::{last_turn_start, Takeback};

use std::sync::Arc;

pub(crate) use self::core::Core;

use crate::clock::{Clock, SystemClock};

use crate::engine::{
    AnyGame, AppliedMove, GameId, GameKind, GameOptions, LoadError, PlayError, RenderCtx, Seat,
    SetupError, Version,
};
use crate::i18n::{Lang, Text};
use crate::store::{GameRecord, GameStatus, Store, StoreError};

/// How long a process keeps the re-post of a lost board before another may try again.
pub const BOARD_LEASE_SECS: i64 = 300;

/// Who is acting.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Actor {
    /// The local table: the terminal plays every seat, so it names the seat.
    Seat(Seat),
    /// A front-end user (a Discord user id), mapped to a seat through the seats table.
    User(i64),
}

/// A player taking a seat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Player {
    pub user: Option<i64>,
    pub name: String,
    pub is_bot: bool,
}

/// Where a game is played (all `None` for the local table).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Place {
    pub guild: Option<i64>,
    pub channel: Option<i64>,
    pub thread: Option<i64>,
}

/// Open and start a game.
#[derive(Clone, Debug)]
pub struct StartGame {
    pub kind: GameKind,
    pub options: GameOptions,
    pub players: Vec<Player>,
    /// Seeds the game's RNG; front ends draw it (the table from the clock, or `--seed`).
    pub seed: u64,
    pub place: Place,
    pub host: Option<i64>,
    pub clock_secs: Option<i64>,
}

/// A typed line (or a clicked option) from an actor.
#[derive(Clone, Debug)]
pub struct PlayLine {
    pub game: GameId,
    pub actor: Actor,
    pub line: String,
    /// The version the actor saw (buttons carry it); `None` for typed input.
    pub seen: Option<Version>,
}

/// How far to undo.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UndoScope {
    /// The actor's last option.
    Last,
    /// Every option of the actor back to the last barrier.
    ToBarrier,
}

/// Why a command failed. `text()` is what the user sees; nothing changed.
#[derive(Debug, thiserror::Error)]
pub enum ServiceError {
    #[error(transparent)]
    Play(#[from] PlayError),
    #[error(transparent)]
    Setup(#[from] SetupError),
    #[error("you are not seated in this game")]
    NotSeated,
    #[error("game {0} is not running")]
    NotActive(GameId),
    #[error("no game {0}")]
    NoGame(GameId),
    #[error(transparent)]
    Lobby(#[from] LobbyError),
    #[error(transparent)]
    Analysis(#[from] AnalysisError),
    #[error(transparent)]
    Rollback(#[from] RollbackError),
    #[error("stored game {game} cannot be read: {error}")]
    Load { game: GameId, error: LoadError },
    #[error("replay of game {game} diverged at move {seq}: {error}")]
    Replay {
        game: GameId,
        seq: i64,
        error: PlayError,
    },
    #[error("storage: {0}")]
    Store(StoreError),
    /// A worker thread (a bot thinking) stopped before answering.
    #[error("a background task failed: {0}")]
    Task(String),
}

impl From<StoreError> for ServiceError {
    fn from(e: StoreError) -> Self {
        match e {
            StoreError::NotFound(id) => ServiceError::NoGame(id),
            StoreError::Conflict { expected, found } => {
                ServiceError::Play(PlayError::Stale { expected, found })
            }
            // A new turn or a clock change landed first: the board the user saw is old.
            StoreError::ClockChanged(_) => ServiceError::Play(PlayError::Stale {
                expected: crate::engine::Version(0),
                found: crate::engine::Version(0),
            }),
            other => ServiceError::Store(other),
        }
    }
}

impl ServiceError {
    /// The message for the user. Internal failures get a short apology; details go to the log.
    pub fn text(&self) -> Text {
        match self {
            ServiceError::Play(e) => e.text(),
            ServiceError::Setup(e) => e.text(),
            ServiceError::NotSeated => Text::new("core.error.not_seated"),
            ServiceError::NotActive(_) => Text::new("core.error.not_active"),
            ServiceError::NoGame(id) => Text::new("core.error.no_game").arg("id", id.0),
            ServiceError::Lobby(e) => e.text(),
            ServiceError::Analysis(e) => e.text(),
            ServiceError::Rollback(e) => e.text(),
            ServiceError::Store(e) if e.is_unavailable() => Text::new("core.error.unavailable"),
            ServiceError::Load { .. }
            | ServiceError::Replay { .. }
            | ServiceError::Store(_)
            | ServiceError::Task(_) => Text::new("core.error.internal"),
        }
    }

    /// The database is out of reach for now: worth trying again in a moment.
    pub fn is_unavailable(&self) -> bool {
        matches!(self, ServiceError::Store(e) if e.is_unavailable())
    }

    /// Whether the user caused it (shown as is) or the system did (logged, apology shown).
    pub fn is_user_error(&self) -> bool {
        !matches!(
            self,
            ServiceError::Load { .. }
                | ServiceError::Replay { .. }
                | ServiceError::Store(_)
                | ServiceError::Task(_)
        )
    }
}

/// A loaded game: its record and live engine state.
pub struct Loaded {
    pub record: GameRecord,
    pub game: Box<dyn AnyGame>,
}

impl Loaded {
    /// Seat names for text (see [`text_names`]).
    pub fn names(&self) -> Vec<String> {
        text_names(&self.record)
    }

    /// Seat names as written, for images.
    pub fn drawn_names(&self) -> Vec<String> {
        self.record.seats.iter().map(|s| s.name.clone()).collect()
    }
}

/// The people seated in a game (bots and open seats left out), each once, in seat order.
pub(crate) fn players(record: &GameRecord) -> Vec<i64> {
    let mut out: Vec<i64> = Vec::new();
    for user in record
        .seats
        .iter()
        .filter(|s| !s.is_bot)
        .filter_map(|s| s.user)
    {
        if !out.contains(&user) {
            out.push(user);
        }
    }
    out
}

/// Seat names as they go into message text. A game on Discord (it has a server) gets its
/// members' display names escaped for markdown, so a name cannot mention, link or format in
/// the bot's voice; the local table shows names as typed less the characters a terminal would
/// obey (a name from a game file cannot clear the screen or start a line of its own). Images
/// always draw them as written.
pub fn text_names(record: &GameRecord) -> Vec<String> {
    record
        .seats
        .iter()
        .map(|s| text_name(record, &s.name))
        .collect()
}

/// One name as it goes into message text (see [`text_names`]).
pub fn text_name(record: &GameRecord, name: &str) -> String {
    text_name_in(record.guild, name)
}

/// A name as it goes into the text of a game in `guild` (`None`: the local table).
fn text_name_in(guild: Option<i64>, name: &str) -> String {
    if guild.is_some() {
        crate::i18n::escape_markdown(name)
    } else {
        crate::i18n::terminal_safe(name, false)
    }
}

/// The service: the use cases a front end drives, each a small type handed out here over one
/// shared [`Core`] (the store, the clock, the timers). Cheap to clone.
///
/// A front end never holds the store: what it needs besides the use cases (interaction
/// de-duplication, a health check) has its own handle.
#[derive(Clone)]
pub struct Service {
    core: Core,
}

impl Service {
    /// On the wall clock with the default timers.
    pub fn new(store: Store) -> Service {
        Service {
            core: Core {
                store,
                clock: Arc::new(SystemClock),
                timers: Timers::default(),
                wake: Arc::new(tokio::sync::Notify::new()),
            },
        }
    }

    /// Opens the store at `url` (SQLite or PostgreSQL, migrated) and serves it: a front end
    /// starts here and never names the store.
    pub async fn connect(url: &str) -> Result<Service, ServiceError> {
        Ok(Service::new(Store::connect(url).await?))
    }

    /// [`Service::connect`] with at most `pool_size` database connections (`None`: the
    /// backend's default).
    pub async fn open(url: &str, pool_size: Option<u32>) -> Result<Service, ServiceError> {
        let how = crate::store::Open {
            pool_size,
            ..crate::store::Open::default()
        };
        Ok(Service::new(Store::open(url, &how).await?))
    }

    /// Reads time from `clock` (tests inject a [`crate::clock::ManualClock`]).
    pub fn with_clock(mut self, clock: Arc<dyn Clock>) -> Service {
        self.core.clock = clock;
        self
    }

    pub fn with_timers(mut self, timers: Timers) -> Service {
        self.core.timers = timers;
        self
    }

    /// The store itself, for tests that check what was written. Front ends use the use cases
    /// and handles below; `tests/suite/tidy.rs` fails on a call from anywhere else in `src/`.
    #[doc(hidden)]
    pub fn store(&self) -> &Store {
        &self.core.store
    }

    /// The current time, from the injected clock.
    pub fn now(&self) -> i64 {
        self.core.now()
    }

    pub fn timers(&self) -> &Timers {
        &self.core.timers
    }

    /// Resolves when a job was planned due now (the scheduler then runs at once).
    pub async fn woken(&self) {
        self.core.wake.notified().await;
    }

    /// Loads a game and its engine state (every front end reads games this way).
    pub async fn load(&self, id: GameId) -> Result<Loaded, ServiceError> {
        self.core.load(id).await
    }

    /// Playing: lines, clicks, undo, resign, and what a seat needs to decide.
    pub fn moves(&self) -> Moves<'_> {
        Moves { core: &self.core }
    }

    /// A table's life before and around play: lobbies, seats, bots, start, cancel, rematch.
    pub fn lobbies(&self) -> Lobbies<'_> {
        Lobbies { core: &self.core }
    }

    /// Turn clocks and timed jobs: deadlines, reminders, bot turns, lost places.
    pub fn clocks(&self) -> Clocks<'_> {
        Clocks { core: &self.core }
    }

    /// Members and servers: settings, languages, replacing and kicking players, digests.
    pub fn players(&self) -> Players<'_> {
        Players { core: &self.core }
    }

    /// What stays after play: results, ratings, replays, export and import.
    pub fn records(&self) -> Records<'_> {
        Records { core: &self.core }
    }

    /// The board of a game: shown, posted, re-posted, zoomed.
    pub fn boards(&self) -> Boards<'_> {
        Boards { core: &self.core }
    }

    /// Lessons (`/learn`): a guided first game against a bot, that never counts.
    pub fn lessons(&self) -> Lessons<'_> {
        Lessons { core: &self.core }
    }

    /// A moderator's rollback: a running game taken back to one of its turns.
    pub fn rollbacks(&self) -> Rollbacks<'_> {
        Rollbacks { core: &self.core }
    }

    /// Which games: in a channel, of a member, of a server.
    pub fn find(&self) -> Finder<'_> {
        Finder { core: &self.core }
    }

    /// Redelivered interactions, recognised so a click is handled once.
    pub fn interactions(&self) -> Interactions<'_> {
        Interactions { core: &self.core }
    }

    /// Whether the store answers (the health endpoint).
    pub async fn ping(&self) -> Result<(), ServiceError> {
        Ok(self.core.store.ping().await?)
    }

    /// Records that this bot process (`id`) is alive at `now` (wall-clock seconds) and says
    /// how many are alive on this database, this one included: they share the token's limits.
    pub async fn heartbeat(&self, id: &str, now: i64) -> Result<u32, ServiceError> {
        Ok(self
            .core
            .store
            .heartbeat(id, now, now - PROCESS_STALE_SECS)
            .await?)
    }

    /// This process stops: the others take its share at once.
    pub async fn leave(&self, id: &str) -> Result<(), ServiceError> {
        Ok(self.core.store.forget_process(id).await?)
    }

    /// Closes the store's connections (a clean exit: SQLite's log is folded into its file).
    pub async fn close(&self) {
        self.core.store.close().await;
    }
}

/// A process not seen for this long (wall-clock seconds) is no longer counted among those
/// that share the token's limits (it heartbeats every `bot::HEARTBEAT`, two seconds).
pub const PROCESS_STALE_SECS: i64 = 10;

/// See [`Service::moves`].
#[derive(Clone, Copy)]
pub struct Moves<'a> {
    core: &'a Core,
}

/// See [`Service::lobbies`].
#[derive(Clone, Copy)]
pub struct Lobbies<'a> {
    core: &'a Core,
}

/// See [`Service::clocks`].
#[derive(Clone, Copy)]
pub struct Clocks<'a> {
    core: &'a Core,
}

/// See [`Service::players`].
#[derive(Clone, Copy)]
pub struct Players<'a> {
    core: &'a Core,
}

/// See [`Service::records`].
#[derive(Clone, Copy)]
pub struct Records<'a> {
    core: &'a Core,
}

/// See [`Service::boards`].
#[derive(Clone, Copy)]
pub struct Boards<'a> {
    core: &'a Core,
}

/// See [`Service::lessons`].
#[derive(Clone, Copy)]
pub struct Lessons<'a> {
    core: &'a Core,
}

/// See [`Service::find`].
#[derive(Clone, Copy)]
pub struct Finder<'a> {
    core: &'a Core,
}

/// See [`Service::interactions`].
#[derive(Clone, Copy)]
pub struct Interactions<'a> {
    core: &'a Core,
}

impl Interactions<'_> {
    /// Whether interaction `id` is seen here for the first time (it is then remembered).
    pub async fn first_seen(self, id: i64) -> Result<bool, ServiceError> {
        Ok(self.core.store.first_seen(id, self.core.now()).await?)
    }

    /// Forgets interactions seen before `before` (Discord stops redelivering long before);
    /// returns how many.
    pub async fn forget_before(self, before: i64) -> Result<u64, ServiceError> {
        Ok(self.core.store.forget_interactions_before(before).await?)
    }
}

/// Setup from the record's options and seed, then every move in order. On failure: the index of
/// the move that did not apply.
pub fn rebuild(
    record: &GameRecord,
    moves: &[(Seat, String)],
) -> Result<Box<dyn AnyGame>, (usize, PlayError)> {
    let mut game = record
        .kind
        .setup(
            &record.options,
            record.seats.len(),
            seed_from_i64(record.seed),
        )
        .map_err(|e| (0, PlayError::CannotUndo { reason: e.text() }))?;
    // The rules the stored game was played under, where they changed since (issue 25).
    game.keep_rules_of_json(&record.state);
    for (i, (seat, notation)) in moves.iter().enumerate() {
        game.apply_notation(*seat, notation).map_err(|e| (i, e))?;
    }
    Ok(game)
}

/// Seeds are u64 in the engine and BIGINT in SQL: a lossless bit cast both ways.
pub fn seed_to_i64(seed: u64) -> i64 {
    i64::from_ne_bytes(seed.to_ne_bytes())
}

pub fn seed_from_i64(seed: i64) -> u64 {
    u64::from_ne_bytes(seed.to_ne_bytes())
}

/// Renders images with a record's seat names as written.
pub fn render_ctx(loaded: &Loaded, lang: Lang) -> RenderCtx {
    RenderCtx {
        lang,
        names: loaded.drawn_names(),
        stopped: stopped(loaded),
        number: Some(loaded.record.id.0),
    }
}

/// Renders text (summaries, events) with the names as they go into messages.
pub fn text_ctx(loaded: &Loaded, lang: Lang) -> RenderCtx {
    RenderCtx {
        lang,
        names: loaded.names(),
        stopped: stopped(loaded),
        number: Some(loaded.record.id.0),
    }
}

/// A game stopped before its own end, by a resignation or a cancel: over, though its last
/// position may still ask a seat to decide. Nothing shows that as anyone's turn.
pub fn stopped(loaded: &Loaded) -> bool {
    matches!(
        loaded.record.status,
        GameStatus::Finished | GameStatus::Cancelled
    ) && loaded.game.outcome().is_none()
}

/// Applied moves, flattened to their event texts.
pub fn event_texts(applied: &[AppliedMove], lang: Lang, names: &[String]) -> Vec<String> {
    applied
        .iter()
        .flat_map(|m| m.events.iter().map(|t| t.render_with(lang, names)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_survive_the_bigint_round_trip() {
        for s in [0, 1, u64::MAX, 1 << 63, 12_345_678_901_234] {
            assert_eq!(seed_from_i64(seed_to_i64(s)), s);
        }
    }
}
