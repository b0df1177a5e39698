//! The service layer: plain commands in, plain outputs out. It joins the pure engine and the
//! store and knows neither Discord wire types nor SQL. Every front end (the local table, the
//! Discord bot, tests) drives games through it.
//!
//! Flow of a move: load the game (store) -> find the actor's seat -> check the version ->
//! play the line on the engine (all or nothing) -> one store transaction (moves appended, new
//! snapshot, version+1) -> outputs (board post with image and text, private views).

mod clocks;
mod export;
mod lobby;
mod moves;
mod output;
mod players;
mod ratings;
mod replay;
mod result;

pub use crate::model::JobKind;
/// For front ends that print a database URL (the bot's `Debug`): never its password.
pub use crate::store::redact_url;
pub use clocks::{
    due, ClockAction, JobDone, JobsRun, LostPlace, NewPlace, Timers, DEFAULT_SCHEDULER_CONCURRENCY,
};
pub use export::{FileMove, GameFile, FILE_FORMAT, FILE_VERSION};
pub use lobby::{
    filter_choices, Agreed, CancelCheck, CancelKind, Cancelled, Choices, GameLine, LineClock,
    LobbyError, LobbyView, OpenLobby, Reach, Resigned, CANCEL_AGREEMENT_SECS,
};
pub use output::{
    board_text, encode_indexed, encode_png, encode_rgb, outcome_text, BoardPost, Notice, Outputs,
    PrivatePost, ZoomPost,
};
pub use players::{Newcomer, Replaced, SettingsChange};
pub use ratings::{
    bot_key, entrants, games_to_place, ordered, ordinal, provisional, replay_history,
    start as rating_start, update as rating_update, user_key, PROVISIONAL_SIGMA,
};
pub use replay::{replay_frames, replay_gif, turn_bounds, ReplayStep};
pub use result::{
    count_turns, length, result_card, result_image, result_lines, standings, Ending, GameResult,
    Rematch,
};

use std::sync::Arc;

use crate::clock::{Clock, SystemClock};

use crate::engine::{
    AnyGame, AppliedMove, GameId, GameKind, GameOptions, LoadError, PlayError, RenderCtx, Seat,
    SetupError, Version,
};
use crate::i18n::{Lang, Text};
use crate::store::{GameRecord, GameStatus, NewGame, NewSeat, Store, StoreError, TimeoutPolicy};

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
/// the bot's voice; the local table shows names as typed. Images always draw them as written.
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
        name.to_string()
    }
}

/// The service. Cheap to clone.
#[derive(Clone)]
pub struct Service {
    store: Store,
    clock: Arc<dyn Clock>,
    timers: Timers,
    /// Woken when a job becomes due now (a bot seat to play), so the scheduler need not wait
    /// for its next tick.
    wake: Arc<tokio::sync::Notify>,
}

impl Service {
    /// On the wall clock with the default timers.
    pub fn new(store: Store) -> Service {
        Service {
            store,
            clock: Arc::new(SystemClock),
            timers: Timers::default(),
            wake: Arc::new(tokio::sync::Notify::new()),
        }
    }

    /// Reads time from `clock` (tests inject a [`crate::clock::ManualClock`]).
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

    pub fn with_clock(mut self, clock: Arc<dyn Clock>) -> Service {
        self.clock = clock;
        self
    }

    pub fn with_timers(mut self, timers: Timers) -> Service {
        self.timers = timers;
        self
    }

    pub fn store(&self) -> &Store {
        &self.store
    }

    /// The current time, from the injected clock.
    pub fn now(&self) -> i64 {
        self.clock.now()
    }

    pub fn timers(&self) -> &Timers {
        &self.timers
    }

    /// Resolves when a job was planned due now (the scheduler then runs at once).
    pub async fn woken(&self) {
        self.wake.notified().await;
    }

    /// Creates and starts a game; returns its first board post.
    pub async fn start(
        &self,
        cmd: StartGame,
        lang: Lang,
        now: i64,
    ) -> Result<(GameId, Outputs), ServiceError> {
        self.start_with_policy(cmd, TimeoutPolicy::default(), lang, now)
            .await
    }

    /// [`Service::start`] with what happens when a turn's time runs out.
    pub async fn start_with_policy(
        &self,
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
        let id = self.store.create_game(&new).await?;
        let mut loaded = self.load(id).await?;
        self.start_clock(&mut loaded, now).await?;
        let outputs = self.with_settings(output::first_board(&loaded, lang)).await;
        Ok((id, outputs))
    }

    /// Loads a game and its engine state from the snapshot.
    pub async fn load(&self, id: GameId) -> Result<Loaded, ServiceError> {
        let record = self.store.game(id).await?;
        if record.status == GameStatus::Lobby {
            return Err(LobbyError::NotStarted(id).into());
        }
        let game = GameKind::load(&record.state)
            .map_err(|error| ServiceError::Load { game: id, error })?;
        Ok(Loaded { record, game })
    }

    /// Rebuilds a game from its seed and live moves (the snapshot is not read).
    pub async fn replay(&self, id: GameId) -> Result<Box<dyn AnyGame>, ServiceError> {
        let record = self.store.game(id).await?;
        let moves = self.store.moves(id).await?;
        let notations: Vec<(Seat, String)> =
            moves.iter().map(|m| (m.seat, m.notation.clone())).collect();
        rebuild(&record, &notations).map_err(|(i, error)| ServiceError::Replay {
            game: id,
            seq: moves.get(i).map_or(-1, |m| m.seq),
            error,
        })
    }

    /// The current board (and the viewer's private post, if any) without changing anything,
    /// to show to one member: the players' settings are not read (nothing is posted).
    pub async fn show(&self, game: GameId, lang: Lang) -> Result<Outputs, ServiceError> {
        let loaded = self.load(game).await?;
        Ok(output::after_change(&loaded, &[], lang))
    }

    /// The board of a game ended by a resignation or a cancel: no prompt, and the final
    /// standings ([`standings`]: the resigning seat last, a resigned puzzle unsolved) after
    /// `note`.
    pub async fn show_ended(
        &self,
        game: GameId,
        note: &str,
        lang: Lang,
    ) -> Result<Outputs, ServiceError> {
        let loaded = self.load(game).await?;
        let mut out = output::after_change(&loaded, &[], lang);
        let resigned = self.store.ending(game).await?.resigned;
        let outcome = standings(loaded.game.as_ref(), resigned);
        let board = &mut out.board;
        board.prompt = None;
        board.deadline = None;
        board.mention = None;
        board.text = format!(
            "{note}\n{}",
            outcome_text(&outcome).render_with(lang, &loaded.names())
        );
        board.scores.clone_from(&outcome.scores);
        board.outcome = Some(outcome);
        Ok(out)
    }

    /// [`Service::show`] to post again in the game's place: with what the players' settings
    /// say about pings and hand DMs.
    pub async fn show_to_post(&self, game: GameId, lang: Lang) -> Result<Outputs, ServiceError> {
        Ok(self.with_settings(self.show(game, lang).await?).await)
    }

    /// The Zoom answer for `user` (a player or a spectator): the parts of the current board that
    /// matter to them, at full size, in the board's language (the game's; `lang` only for a game
    /// stored without one). `None` if the game has no part
    /// to show (no board yet).
    pub async fn zoom(
        &self,
        game: GameId,
        user: i64,
        lang: Lang,
    ) -> Result<Option<ZoomPost>, ServiceError> {
        let loaded = self.load(game).await?;
        let lang = clocks::public_lang(&loaded.record, lang);
        Ok(output::zoom_post(&loaded, user, lang))
    }

    /// Notes that the board of `version` went out, so nobody posts it again. With its message,
    /// that board becomes the live one; returns the board message it replaced (to retire).
    pub async fn board_posted(
        &self,
        game: GameId,
        version: Version,
        message: Option<i64>,
    ) -> Result<Option<i64>, ServiceError> {
        Ok(self.store.mark_posted(game, version, message).await?)
    }

    /// Started or finished games whose current version has no board out yet, with that
    /// version. Boards on their way are among them: re-post only what stays here a while.
    pub async fn unposted_boards(
        &self,
        limit: u32,
    ) -> Result<Vec<(GameId, Version)>, ServiceError> {
        Ok(self.store.unposted_boards(self.now(), limit).await?)
    }

    /// The current board of a game whose board of `version` never went out, if this process
    /// wins the re-post (for [`BOARD_LEASE_SECS`]; then it retries) and the game is still at
    /// `version`. In the game's language, with every hand again: those DMs were lost with it.
    pub async fn repost(
        &self,
        game: GameId,
        version: Version,
    ) -> Result<Option<Outputs>, ServiceError> {
        if !self
            .store
            .claim_board(game, version, self.now(), BOARD_LEASE_SECS)
            .await?
        {
            return Ok(None);
        }
        let loaded = self.load(game).await?;
        if loaded.record.version != version {
            return Ok(None);
        }
        let lang = clocks::game_lang(&loaded.record);
        let mut out = self
            .with_settings(output::after_change(&loaded, &[], lang))
            .await;
        // Said as the board's event: the ping and the turn line still lead.
        out.board.events = vec![Text::new("bot.turn.reposted").render(lang)];
        out.board.text = output::board_text(&loaded, &out.board.events, lang);
        Ok(Some(out))
    }

    pub(crate) fn seat_of(&self, loaded: &Loaded, actor: Actor) -> Result<Seat, ServiceError> {
        match actor {
            Actor::Seat(seat) if seat.index() < loaded.game.seat_count() => Ok(seat),
            Actor::Seat(_) => Err(ServiceError::NotSeated),
            Actor::User(user) => loaded
                .record
                .seats
                .iter()
                .position(|s| s.user == Some(user))
                .map(Seat::at)
                .ok_or(ServiceError::NotSeated),
        }
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
    }
}

/// Renders text (summaries, events) with the names as they go into messages.
pub fn text_ctx(loaded: &Loaded, lang: Lang) -> RenderCtx {
    RenderCtx {
        lang,
        names: loaded.names(),
    }
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
