//! The only module that knows SQL: games, seats, the move log, jobs, user settings and
//! interaction ids, in SQLite (default) or PostgreSQL (several processes).
//!
//! # Why the `Any` driver
//! One set of runtime queries serves both backends: sqlx's SQLite driver accepts the `$N`
//! placeholders PostgreSQL needs, both support `RETURNING`, `ON CONFLICT` and the same types once
//! the schema sticks to BIGINT and TEXT. Only three things differ per backend and are switched
//! on [`Backend`]: the migration files, the advisory lock taken while migrating, and
//! `FOR UPDATE SKIP LOCKED` when claiming jobs. Separate typed pools would have doubled every
//! query (or needed a generic layer with heavy trait bounds) for no gain.
//!
//! Caveats of `Any` we work around:
//! - Every `sqlite::memory:` connection is a new, empty database, so a memory store keeps a
//!   single connection that never expires.
//! - SQLite pragmas cannot go in an `Any` URL. WAL is set once at connect (it is stored in the
//!   file); sqlx's SQLite defaults already turn foreign keys on (checked by the store tests),
//!   and each new connection sets its busy timeout (`SQLITE_BUSY_TIMEOUT`, not sqlx's 5 s).
//! - Decoding works on `i64` and `String` only (booleans are 0/1 BIGINT), so every value read is
//!   checked and converted here; a value that does not fit gives [`StoreError::Corrupt`].
//!
//! # Concurrency
//! Every write to a game is `UPDATE games … WHERE id = $ AND version = $` as the FIRST statement
//! of its transaction: on PostgreSQL it takes the row lock (a concurrent writer waits, then
//! sees the new version and fails with `Conflict`); on SQLite it takes the write lock before
//! any read, so a deferred transaction never has to upgrade a stale read snapshot (which SQLite
//! refuses with `SQLITE_BUSY` instead of waiting).
//!
//! Seeds are `u64` in the engine and BIGINT here: the service bit casts them (`as` both ways,
//! lossless); the store keeps the `i64` as given.

mod backup;
mod clocks;
mod conduct;
mod ending;
mod games;
mod lobby;
mod migrate;
mod misc;
mod ratings;
mod rollbacks;
mod takeback;

use std::time::Duration;

use sqlx::any::{AnyPoolOptions, AnyRow};
use sqlx::{AnyPool, Row};

pub use crate::engine::{GameId, GameKind, GameOptions, Seat, Version};
pub use crate::model::{
    DmStatus, GamePings, GameStatus, JobKind, Lang, Level, SeatRecord, TimeoutPolicy,
};
pub use clocks::{Attendance, GameStats, SeatChange, TurnPlan};
pub use conduct::{Conduct, Deed};
pub use ending::{EndingRecord, NewRematch, RematchOutcome};
pub use lobby::{JoinOutcome, LeaveOutcome, SeatRequest};
pub use migrate::{Migration, MIGRATIONS_POSTGRES, MIGRATIONS_SQLITE};
pub use ratings::{Entrant, RatingChange, RatingRow, SeatedGame, Skill};
pub use rollbacks::{RollbackRecord, RollbackRequest};
pub use takeback::TakebackRequest;

/// Which database a [`Store`] talks to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

/// Why a store call failed. Messages never contain a password (URLs are redacted).
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// Someone else changed the game first: reload and tell the user the board changed.
    #[error("the game changed meanwhile (expected version {expected}, found {found})")]
    Conflict { expected: Version, found: Version },
    #[error("no game {0}")]
    NotFound(GameId),
    /// The game's clock changed (a new turn, a pause...) since it was read: reload.
    #[error("the clock of game {0} changed meanwhile")]
    ClockChanged(GameId),
    /// A stored value this program cannot read (tampering, or a newer program wrote it).
    #[error("corrupt data: {0}")]
    Corrupt(String),
    /// The caller asked for something impossible (a bug in the caller, not in the data).
    #[error("invalid request: {0}")]
    Invalid(String),
    #[error("database error: {0}")]
    Db(#[source] sqlx::Error),
    #[error("cannot connect to {url}: {source}")]
    Connect {
        /// The URL with any password replaced by `***`.
        url: String,
        #[source]
        source: sqlx::Error,
    },
    #[error("migration {migration} failed: {source}")]
    Migrate {
        migration: String,
        #[source]
        source: sqlx::Error,
    },
    /// The database's schema history does not match this program's migrations.
    #[error("database schema does not match this program: {0}")]
    Schema(String),
}

impl StoreError {
    /// The database could not be reached or dropped the connection (down, restarting, network
    /// cut): nothing was written, and the same request can succeed a moment later.
    pub fn is_unavailable(&self) -> bool {
        let (StoreError::Db(e) | StoreError::Connect { source: e, .. }) = self else {
            return false;
        };
        match e {
            sqlx::Error::Io(_)
            | sqlx::Error::Tls(_)
            | sqlx::Error::PoolTimedOut
            | sqlx::Error::PoolClosed
            | sqlx::Error::WorkerCrashed => true,
            // SQLSTATE class 08 (connection exception) and 57P01-57P03 (shutdown, restart).
            sqlx::Error::Database(d) => d
                .code()
                .is_some_and(|c| c.starts_with("08") || matches!(&*c, "57P01" | "57P02" | "57P03")),
            _ => false,
        }
    }
}

impl From<sqlx::Error> for StoreError {
    fn from(e: sqlx::Error) -> Self {
        let error = match e {
            // A stored value of the wrong type (SQLite is dynamically typed) is bad data.
            sqlx::Error::ColumnDecode { index, source } => {
                StoreError::Corrupt(format!("column {index}: {source}"))
            }
            sqlx::Error::Decode(source) => StoreError::Corrupt(source.to_string()),
            other => StoreError::Db(other),
        };
        // Every error the database answered passes here (`croupier_store_errors_total`).
        let kind = if error.is_unavailable() {
            "unavailable"
        } else if matches!(error, StoreError::Corrupt(_)) {
            "corrupt"
        } else {
            "other"
        };
        metrics::counter!(crate::ops::STORE_ERRORS, "kind" => kind).increment(1);
        error
    }
}

/// The running clock of a game: who is waited on since when, and until when.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TurnClock {
    /// Grows with every change of the clock; jobs carry the revision they were planned for.
    pub rev: i64,
    /// The seat waited on (`None`: nobody, the game is over or not started).
    pub seat: Option<Seat>,
    pub started_at: Option<i64>,
    /// When the time runs out; `None` when no clock runs (none chosen, paused, open seat).
    pub deadline_at: Option<i64>,
    /// Seconds left when the host paused the clock.
    pub paused_left: Option<i64>,
}

/// A player taking a seat in a new game; seats are numbered in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewSeat {
    pub user: Option<i64>,
    pub name: String,
    pub is_bot: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewGame {
    pub kind: GameKind,
    /// Stored as a JSON object.
    pub options: GameOptions,
    /// The engine's u64 seed, bit cast.
    pub seed: i64,
    pub state: String,
    pub status: GameStatus,
    pub guild: Option<i64>,
    pub channel: Option<i64>,
    pub thread: Option<i64>,
    pub host: Option<i64>,
    pub seats: Vec<NewSeat>,
    pub clock_secs: Option<i64>,
    pub policy: TimeoutPolicy,
    /// The language of public messages: scheduled notices have no interaction to take it from.
    pub lang: Option<Lang>,
    pub now: i64,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    pub id: GameId,
    pub kind: GameKind,
    pub options: GameOptions,
    pub seed: i64,
    pub state: String,
    pub version: Version,
    pub status: GameStatus,
    pub guild: Option<i64>,
    pub channel: Option<i64>,
    pub thread: Option<i64>,
    pub host: Option<i64>,
    pub clock_secs: Option<i64>,
    pub policy: TimeoutPolicy,
    /// `None` for a game stored before games kept their language (read as English).
    pub lang: Option<Lang>,
    /// How hard the game's bot seats think (an unknown stored word reads as the default).
    pub bot_level: Level,
    /// Seconds a bot seat waits before playing, so people can follow.
    pub bot_delay: i64,
    /// The front end's lobby message (to close an idle lobby).
    pub lobby_message: Option<i64>,
    /// The message of the game's current board (the one with live buttons), once posted.
    pub board_message: Option<i64>,
    /// When the game lost its place (a locked thread, the bot's rights taken away, a deleted
    /// channel): paused, nothing posted, until the host or a moderator gives it one again.
    pub lost_at: Option<i64>,
    /// The last move a person played (not a bot, not a timeout).
    pub human_move_at: Option<i64>,
    /// When its thread was archived because nobody played (see [`GameRecord::idle`]).
    pub idle_at: Option<i64>,
    pub clock: TurnClock,
    pub created_at: i64,
    pub updated_at: i64,
    /// Opened with `rated:false`: the game moves no rating.
    pub casual: bool,
    /// `/play … reliable:`: the lowest reliability (0-100) a member needs to join.
    pub min_reliable: Option<u8>,
    /// A learner's lesson (`/learn`): it never counts (ratings, stats, profiles, presence).
    pub lesson: bool,
    /// `/play … invite:`: the members the host invited (their seats are kept until they
    /// answer: `SeatRecord::vacant`); still listed once they accepted or declined.
    pub invitees: Vec<i64>,
    /// `/play … open:false`: only the host's invitees may take a seat.
    pub invite_only: bool,
    /// In seat order.
    pub seats: Vec<SeatRecord>,
}

impl GameRecord {
    /// Its thread was archived because nobody played for days, and nobody has since: the
    /// boards the scheduler makes are not posted (they would reopen it).
    pub fn idle(&self) -> bool {
        self.idle_at
            .is_some_and(|at| self.human_move_at.is_none_or(|h| h < at))
    }
}

/// One atomic option to append to a game's log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewMove {
    pub seat: Seat,
    pub notation: String,
    /// Randomness or hidden information was revealed, or the seat's turn ended: undo stops
    /// here.
    pub barrier: bool,
    /// Randomness or hidden information was revealed: nothing goes back past it, not even
    /// by agreement (implies `barrier`).
    pub revealed: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveRecord {
    /// 1, 2, 3… per game; undone moves keep theirs, so live moves may skip numbers.
    pub seq: i64,
    pub seat: Seat,
    pub notation: String,
    pub barrier: bool,
    /// See [`NewMove::revealed`]; rows older than migration 0020 say `barrier` here.
    pub revealed: bool,
    pub at: i64,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewJob {
    pub due_at: i64,
    pub kind: JobKind,
    pub game: Option<GameId>,
    /// A job about a user rather than a game (the daily digest).
    pub user: Option<i64>,
    pub payload: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JobRecord {
    pub id: i64,
    pub due_at: i64,
    pub kind: JobKind,
    pub game: Option<GameId>,
    pub user: Option<i64>,
    pub payload: String,
    /// How many times it has been claimed, this claim included.
    pub attempts: i64,
}

/// A user's preferences. A user never seen has the defaults.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UserSettings {
    pub locale: Option<String>,
    /// An IANA name such as `Europe/Paris`; not checked here.
    pub timezone: Option<String>,
    /// Quiet hours, in minutes after local midnight (0..1440); may wrap past midnight.
    pub quiet_start: Option<u16>,
    pub quiet_end: Option<u16>,
    /// Unix seconds; the player's clock is paused until then.
    pub vacation_until: Option<i64>,
    pub dm_enabled: bool,
    /// Opted in to the daily digest of games waiting for them.
    pub digest: bool,
    /// Boards that mention them notify (off: sent silently; reminders still notify).
    pub pings: bool,
    /// Their hidden hand comes by DM when it changes (off: they pull it with "Show my hand").
    pub hand_dms: bool,
    /// An option that would end their turn is asked about privately before it is played.
    pub confirm_moves: bool,
    /// Their own reminder points, as percents of a turn's time still left, largest first
    /// (`/settings reminders:`); `None` keeps the server's plan, empty is no reminders.
    pub reminders: Option<Vec<u8>>,
}

impl Default for UserSettings {
    fn default() -> Self {
        UserSettings {
            locale: None,
            timezone: None,
            quiet_start: None,
            quiet_end: None,
            vacation_until: None,
            dm_enabled: true,
            digest: false,
            pings: true,
            hand_dms: true,
            confirm_moves: false,
            reminders: None,
        }
    }
}

/// The database. Cheap to clone: a pool inside.
#[derive(Clone, Debug)]
pub struct Store {
    pool: AnyPool,
    backend: Backend,
}

impl Store {
    /// Opens `sqlite://data/croupier.db` (creating the folder and file; WAL, foreign keys,
    /// busy timeout), `sqlite::memory:` (tests), or `postgres://…`, and runs the migrations.
    pub async fn connect(url: &str) -> Result<Store, StoreError> {
        Store::open(url, &Open::default()).await
    }

    /// [`Store::connect`] as `how` says: the pool's size, and whether to migrate (a backup
    /// reads the database as it is: it neither creates the file nor changes its schema).
    pub async fn open(url: &str, how: &Open) -> Result<Store, StoreError> {
        sqlx::any::install_default_drivers();
        let redacted = redact_url(url);
        let connect_err = |source| StoreError::Connect {
            url: redacted.clone(),
            source,
        };
        let (backend, url, options) = if url.starts_with("sqlite:") {
            let (url, memory) = sqlite_url(url, how.migrate).await.map_err(connect_err)?;
            let options = if memory {
                // One connection, never recycled: each new one would be an empty database.
                AnyPoolOptions::new()
                    .max_connections(1)
                    .min_connections(1)
                    .idle_timeout(None)
                    .max_lifetime(None)
            } else {
                AnyPoolOptions::new().max_connections(how.pool_size.unwrap_or(4))
            };
            // A writer waits for the write lock up to `SQLITE_BUSY_TIMEOUT` (sqlx's default is
            // 5 s): every click is acknowledged before any database work and has 15 minutes
            // to be answered, so a burst of writes on a slow disk should wait, not fail.
            let options = options.after_connect(|conn, _| {
                Box::pin(async move {
                    let pragma =
                        format!("PRAGMA busy_timeout = {}", SQLITE_BUSY_TIMEOUT.as_millis());
                    sqlx::raw_sql(sqlx::AssertSqlSafe(pragma))
                        .execute(conn)
                        .await?;
                    Ok(())
                })
            });
            (Backend::Sqlite, url, options)
        } else if url.starts_with("postgres:") || url.starts_with("postgresql:") {
            let options = AnyPoolOptions::new()
                .max_connections(how.pool_size.unwrap_or(8))
                // A user waits for this when the server is out of reach: short enough that
                // their "try again in a moment" comes soon, long enough for a busy pool.
                .acquire_timeout(Duration::from_secs(5));
            (Backend::Postgres, url.to_string(), options)
        } else {
            return Err(connect_err(sqlx::Error::Configuration(
                "the database URL must start with sqlite: or postgres:".into(),
            )));
        };
        let pool = options.connect(&url).await.map_err(connect_err)?;
        let store = Store { pool, backend };
        if how.migrate {
            if backend == Backend::Sqlite {
                use_wal(&store.pool).await?;
            }
            migrate::run(&store.pool, backend).await?;
        }
        Ok(store)
    }

    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// Closes the pool (waits for connections in use to come back). A SQLite file first gets
    /// its write-ahead log folded in, so the file alone holds everything after a clean exit.
    pub async fn close(&self) {
        if self.backend == Backend::Sqlite {
            // Best effort: a busy file keeps its log, which SQLite reads back next time.
            if let Err(e) = sqlx::query("PRAGMA wal_checkpoint(TRUNCATE)")
                .fetch_optional(&self.pool)
                .await
            {
                tracing::warn!(error = %e, "the SQLite log was not folded into its file");
            }
        }
        self.pool.close().await;
    }
}

/// How long a SQLite connection waits for another's write lock before it gives up.
pub const SQLITE_BUSY_TIMEOUT: Duration = Duration::from_secs(30);

/// How [`Store::open`] opens a database.
#[derive(Clone, Debug)]
pub struct Open {
    /// Connections kept at most (`None`: 4 for a SQLite file, 8 for PostgreSQL).
    pub pool_size: Option<u32>,
    /// Create a missing SQLite file and bring the schema up to date (the bot, the table);
    /// `false` opens an existing database as it is (a backup).
    pub migrate: bool,
}

impl Default for Open {
    fn default() -> Open {
        Open {
            pool_size: None,
            migrate: true,
        }
    }
}

/// Puts a SQLite file in WAL mode. WAL is a property of the file, so once is enough (a memory
/// database keeps its own mode); the answer is a row, fetched so the statement runs whole.
/// Switching into WAL needs an exclusive lock that SQLite does not wait for on the busy timeout
/// (two processes opening a new file at once: one gets "database is locked" at once), so a busy
/// answer is retried here for as long as the busy timeout would have waited.
async fn use_wal(pool: &AnyPool) -> Result<(), StoreError> {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
    loop {
        match sqlx::query("PRAGMA journal_mode = WAL")
            .fetch_optional(pool)
            .await
        {
            Ok(_) => return Ok(()),
            Err(sqlx::Error::Database(e))
                if e.code().as_deref() == Some("5") && tokio::time::Instant::now() < deadline =>
            {
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
            Err(e) => return Err(e.into()),
        }
    }
}

/// Turns a `sqlite:` URL into one sqlx opens read-write-create, creating the parent folder
/// (with `create` false: read-write, and a missing file is an error). Returns whether it is
/// an in-memory database.
async fn sqlite_url(url: &str, create: bool) -> Result<(String, bool), sqlx::Error> {
    let rest = url
        .strip_prefix("sqlite://")
        .or_else(|| url.strip_prefix("sqlite:"))
        .unwrap_or(url);
    let (path, params) = match rest.split_once('?') {
        Some((p, q)) => (p, Some(q)),
        None => (rest, None),
    };
    let memory =
        path == ":memory:" || params.is_some_and(|q| q.split('&').any(|kv| kv == "mode=memory"));
    if memory {
        return Ok((url.to_string(), true));
    }
    if path.is_empty() {
        return Err(sqlx::Error::Configuration(
            "the SQLite URL names no file".into(),
        ));
    }
    if !create && !std::path::Path::new(path).is_file() {
        return Err(sqlx::Error::Configuration(
            format!("there is no database file at {path}").into(),
        ));
    }
    if let Some(dir) = std::path::Path::new(path).parent() {
        if create && !dir.as_os_str().is_empty() {
            tokio::fs::create_dir_all(dir).await?;
        }
    }
    let mode = if create { "rwc" } else { "rw" };
    let has_mode = params.is_some_and(|q| q.split('&').any(|kv| kv.starts_with("mode=")));
    let url = match (params, has_mode) {
        (_, true) => url.to_string(),
        (Some(_), false) => format!("{url}&mode={mode}"),
        (None, false) => format!("{url}?mode={mode}"),
    };
    Ok((url, false))
}

/// The URL with its password (if any) replaced by `***`, for messages and logs.
pub fn redact_url(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_string();
    };
    let authority_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let (authority, tail) = rest.split_at(authority_end);
    let authority = match authority.rsplit_once('@') {
        Some((userinfo, host)) => match userinfo.split_once(':') {
            Some((user, _password)) => format!("{user}:***@{host}"),
            None => authority.to_string(),
        },
        None => authority.to_string(),
    };
    format!("{scheme}://{authority}{}", redact_query(tail))
}

/// `?password=…` (and any parameter whose name holds `pass`, such as `sslpassword`) keeps its
/// name and loses its value; the rest of the path and query is kept for diagnosis.
fn redact_query(tail: &str) -> String {
    let Some((path, query)) = tail.split_once('?') else {
        return tail.to_string();
    };
    let (query, fragment) = match query.split_once('#') {
        Some((q, f)) => (q, Some(f)),
        None => (query, None),
    };
    let params: Vec<String> = query
        .split('&')
        .map(|pair| match pair.split_once('=') {
            Some((key, _)) if key.to_ascii_lowercase().contains("pass") => format!("{key}=***"),
            _ => pair.to_string(),
        })
        .collect();
    let fragment = fragment.map(|f| format!("#{f}")).unwrap_or_default();
    format!("{path}?{}{fragment}", params.join("&"))
}

// Row decoding: `Any` gives i64/String; every narrowing is checked.

fn get<'r, T>(row: &'r AnyRow, col: &str) -> Result<T, StoreError>
where
    T: sqlx::Decode<'r, sqlx::Any> + sqlx::Type<sqlx::Any>,
{
    row.try_get::<T, _>(col).map_err(StoreError::from)
}

fn get_bool(row: &AnyRow, col: &str) -> Result<bool, StoreError> {
    match get::<i64>(row, col)? {
        0 => Ok(false),
        1 => Ok(true),
        n => Err(StoreError::Corrupt(format!("{col} = {n}, expected 0 or 1"))),
    }
}

fn get_seat(row: &AnyRow, col: &str) -> Result<Seat, StoreError> {
    let n = get::<i64>(row, col)?;
    u8::try_from(n)
        .map(Seat)
        .map_err(|_| StoreError::Corrupt(format!("{col} = {n} is not a seat number")))
}

fn get_version(row: &AnyRow, col: &str) -> Result<Version, StoreError> {
    let n = get::<i64>(row, col)?;
    u32::try_from(n)
        .map(Version)
        .map_err(|_| StoreError::Corrupt(format!("{col} = {n} is not a version")))
}

fn get_status(row: &AnyRow, col: &str) -> Result<GameStatus, StoreError> {
    let s = get::<String>(row, col)?;
    GameStatus::parse(&s).ok_or_else(|| StoreError::Corrupt(format!("{col} = {s:?} is unknown")))
}

fn get_kind(row: &AnyRow, col: &str) -> Result<GameKind, StoreError> {
    let s = get::<String>(row, col)?;
    GameKind::parse(&s).ok_or_else(|| StoreError::Corrupt(format!("{col} = {s:?} is no game")))
}

fn get_options(row: &AnyRow, col: &str) -> Result<GameOptions, StoreError> {
    let s = get::<String>(row, col)?;
    serde_json::from_str(&s).map_err(|e| StoreError::Corrupt(format!("{col}: {e}")))
}

fn options_json(options: &GameOptions) -> String {
    // A map of strings always serializes.
    serde_json::to_string(options).unwrap_or_else(|_| "{}".into())
}

/// A game's language, as the service always read it: a code, anything but French is English.
fn get_lang(row: &AnyRow, col: &str) -> Result<Option<Lang>, StoreError> {
    Ok(get::<Option<String>>(row, col)?.map(|s| Lang::from_locale(&s)))
}

/// A bot level, as the service always read it: an unknown word is the default level.
fn get_level(row: &AnyRow, col: &str) -> Result<Level, StoreError> {
    Ok(Level::parse(&get::<String>(row, col)?).unwrap_or_default())
}

fn get_job_kind(row: &AnyRow, col: &str) -> Result<JobKind, StoreError> {
    let s = get::<String>(row, col)?;
    JobKind::parse(&s).ok_or_else(|| StoreError::Corrupt(format!("{col} = {s:?} is unknown")))
}

fn bool_i64(b: bool) -> i64 {
    i64::from(b)
}

fn version_i64(v: Version) -> i64 {
    i64::from(v.0)
}

/// The version after `v`, or `Invalid` at the (unreachable in practice) u32 limit.
fn next_version(v: Version) -> Result<Version, StoreError> {
    v.0.checked_add(1)
        .map(Version)
        .ok_or_else(|| StoreError::Invalid(format!("version {v} cannot grow")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passwords_never_reach_messages() {
        assert_eq!(
            redact_url("postgres://bot:s3cret@db.example:5432/croupier?sslmode=require"),
            "postgres://bot:***@db.example:5432/croupier?sslmode=require"
        );
        assert_eq!(
            redact_url("postgres://postgres@127.0.0.1/test"),
            "postgres://postgres@127.0.0.1/test"
        );
        assert_eq!(
            redact_url("sqlite://data/croupier.db"),
            "sqlite://data/croupier.db"
        );
        assert_eq!(redact_url("sqlite::memory:"), "sqlite::memory:");
        // An '@' in the path is not userinfo.
        assert_eq!(redact_url("sqlite://data/a@b.db"), "sqlite://data/a@b.db");
    }

    #[test]
    fn passwords_in_the_query_are_redacted_too() {
        assert_eq!(
            redact_url("postgres://db.example/croupier?user=bot&password=s3cret&sslmode=require"),
            "postgres://db.example/croupier?user=bot&password=***&sslmode=require"
        );
        assert_eq!(
            redact_url("postgres://bot:a@db/c?sslpassword=k3y#frag"),
            "postgres://bot:***@db/c?sslpassword=***#frag"
        );
        for url in [
            "postgres://u:s3cret@h/d?password=s3cret",
            "postgres://h/d?PASSWORD=s3cret",
        ] {
            assert!(!redact_url(url).contains("s3cret"), "{url}");
        }
    }

    #[test]
    fn statuses_round_trip_as_text() {
        for s in GameStatus::ALL {
            assert_eq!(GameStatus::parse(s.as_str()), Some(s));
        }
        assert_eq!(GameStatus::parse("Active"), None);
        for d in [DmStatus::Unknown, DmStatus::Open, DmStatus::Closed] {
            assert_eq!(DmStatus::parse(d.as_str()), Some(d));
        }
    }

    #[test]
    fn versions_stop_at_the_limit() {
        assert_eq!(next_version(Version(6)).unwrap(), Version(7));
        assert!(matches!(
            next_version(Version(u32::MAX)),
            Err(StoreError::Invalid(_))
        ));
    }
}
