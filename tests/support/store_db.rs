//! The database harness shared by the suites: a fresh database per test on SQLite (a temp
//! file, or memory where a test needs no second connection) and on PostgreSQL when
//! `TEST_DATABASE_URL` is set (a scratch schema, dropped at the end). Without the variable the
//! PostgreSQL tests return quietly, unless `CROUPIER_REQUIRE_POSTGRES=1` (CI), where they fail.
//! Below it, the service on such a database: small queries (status, version, moves, who
//! decides) and `Playout`, which plays a game through the service one legal option at a time.
//! Include with `#[path = "../support/store_db.rs"] mod store_db;` (`#[macro_use]` for
//! `on_backends!`).
#![allow(dead_code)]

use std::sync::atomic::{AtomicU32, Ordering};

use croupier::engine::{GameId, Seat};
use croupier::i18n::Lang;
use croupier::service::{Actor, PlayLine, Service};
use croupier::store::{redact_url, Backend, GameStatus, Store};

/// A fresh database for one test.
pub struct Db {
    pub url: String,
    pub backend: Backend,
    /// Whether a second connection sees the same data (not so for `sqlite::memory:`).
    pub shared: bool,
    pub _dir: Option<tempfile::TempDir>,
    /// PostgreSQL: the server URL and the scratch schema to drop.
    pub pg: Option<(String, String)>,
}

impl Db {
    pub fn sqlite_file() -> Db {
        let dir = tempfile::tempdir().unwrap();
        let url = format!("sqlite://{}", dir.path().join("store.db").display());
        Db {
            url,
            backend: Backend::Sqlite,
            shared: true,
            _dir: Some(dir),
            pg: None,
        }
    }

    pub fn sqlite_memory() -> Db {
        Db {
            url: "sqlite::memory:".into(),
            backend: Backend::Sqlite,
            shared: false,
            _dir: None,
            pg: None,
        }
    }

    /// A SQLite file, then PostgreSQL when configured: for a suite that runs a scenario on
    /// each in turn (`finish` each after its scenario).
    pub async fn each(test: &str) -> Vec<Db> {
        let mut out = vec![Db::sqlite_file()];
        out.extend(Db::postgres(test).await);
        out
    }

    /// `None`: no PostgreSQL configured, and none required.
    pub async fn postgres(test: &str) -> Option<Db> {
        let Ok(base) = std::env::var("TEST_DATABASE_URL") else {
            assert!(
                std::env::var("CROUPIER_REQUIRE_POSTGRES").as_deref() != Ok("1"),
                "CROUPIER_REQUIRE_POSTGRES=1 but TEST_DATABASE_URL is not set: \
                 the PostgreSQL half of the store tests cannot run"
            );
            return None;
        };
        static NEXT: AtomicU32 = AtomicU32::new(0);
        let schema = format!(
            "croupier_t{}_{}_{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed),
            test
        );
        raw(&base, &format!("CREATE SCHEMA {schema}")).await;
        let sep = if base.contains('?') { '&' } else { '?' };
        let url = format!("{base}{sep}options[search_path]={schema}");
        println!(
            "store test {test}: running on PostgreSQL at {} (schema {schema})",
            redact_url(&base)
        );
        Some(Db {
            url,
            backend: Backend::Postgres,
            shared: true,
            _dir: None,
            pg: Some((base, schema)),
        })
    }

    pub async fn connect(&self) -> Store {
        let store = Store::connect(&self.url).await.unwrap();
        assert_eq!(store.backend(), self.backend);
        store
    }

    /// Runs SQL behind the store's back (to corrupt rows, or look at what it wrote).
    pub async fn raw(&self, sql: &str) {
        assert!(self.shared, "raw SQL needs a shared database");
        raw(&self.url, sql).await;
    }

    pub async fn raw_i64(&self, sql: &str) -> i64 {
        assert!(self.shared, "raw SQL needs a shared database");
        sqlx::any::install_default_drivers();
        let pool = sqlx::AnyPool::connect(&self.url).await.unwrap();
        // Tests write their own SQL (fixtures, corruption on purpose): no input reaches it.
        let row = sqlx::query(sqlx::AssertSqlSafe(sql.to_string()))
            .fetch_one(&pool)
            .await
            .unwrap();
        pool.close().await;
        sqlx::Row::try_get(&row, 0).unwrap()
    }

    /// Holds the write lock of the database (PostgreSQL: every access to the games and the
    /// interaction ids) until `release`: the store's writes wait, as behind a long transaction
    /// or a slow disk.
    pub async fn hold_writes(&self) -> Held {
        use sqlx::Connection;
        assert!(self.shared, "holding a lock needs a shared database");
        sqlx::any::install_default_drivers();
        let mut conn = sqlx::AnyConnection::connect(&self.url).await.unwrap();
        let lock = match self.backend {
            Backend::Sqlite => "BEGIN IMMEDIATE",
            Backend::Postgres => "BEGIN; LOCK TABLE games, interactions IN ACCESS EXCLUSIVE MODE",
        };
        sqlx::raw_sql(lock).execute(&mut conn).await.unwrap();
        Held(conn)
    }

    pub async fn finish(self) {
        if let Some((base, schema)) = &self.pg {
            raw(base, &format!("DROP SCHEMA {schema} CASCADE")).await;
        }
    }
}

/// A store on a SQLite file, and on the PostgreSQL database of `TEST_DATABASE_URL` as it is
/// (its public schema) when set: for the service suites, whose games are made fresh and never
/// collide. Each comes with its name and the guard that keeps the SQLite file.
pub async fn backends() -> Vec<(&'static str, Store, Option<tempfile::TempDir>)> {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}/store.db", dir.path().display());
    let mut out = vec![("sqlite", Store::connect(&url).await.unwrap(), Some(dir))];
    match std::env::var("TEST_DATABASE_URL") {
        Ok(pg) if !pg.is_empty() => {
            out.push(("postgres", Store::connect(&pg).await.unwrap(), None));
        }
        _ => {
            assert!(
                std::env::var("CROUPIER_REQUIRE_POSTGRES").as_deref() != Ok("1"),
                "CROUPIER_REQUIRE_POSTGRES=1 but TEST_DATABASE_URL is not set"
            );
        }
    }
    out
}

pub async fn raw(url: &str, sql: &str) {
    sqlx::any::install_default_drivers();
    let pool = sqlx::AnyPool::connect(url).await.unwrap();
    // Tests write their own SQL (fixtures, schemas, corruption on purpose).
    sqlx::raw_sql(sqlx::AssertSqlSafe(sql.to_string()))
        .execute(&pool)
        .await
        .unwrap();
    pool.close().await;
}

/// Generates one `#[tokio::test]` per backend for an `async fn(&Db)`: `file` and `postgres`
/// always, `memory` too when listed.
macro_rules! on_backends {
    ($check:ident) => {
        on_backends!(@tests $check {});
    };
    ($check:ident, memory) => {
        on_backends!(@tests $check {
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn sqlite_memory() {
                let db = super::Db::sqlite_memory();
                super::$check(&db).await;
                db.finish().await;
            }
        });
    };
    (@tests $check:ident { $($extra:tt)* }) => {
        mod $check {
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn sqlite_file() {
                let db = super::Db::sqlite_file();
                super::$check(&db).await;
                db.finish().await;
            }

            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn postgres() {
                if let Some(db) = super::Db::postgres(stringify!($check)).await {
                    super::$check(&db).await;
                    db.finish().await;
                }
            }

            $($extra)*
        }
    };
}

/// A database lock taken by `Db::hold_writes`.
pub struct Held(sqlx::AnyConnection);

impl Held {
    pub async fn release(mut self) {
        sqlx::raw_sql("ROLLBACK")
            .execute(&mut self.0)
            .await
            .unwrap();
    }
}

// ----- the service on the database: small queries -----

/// A game's status, as its lobby view reads it (a lobby has one too).
pub async fn status(service: &Service, game: GameId) -> GameStatus {
    service.lobbies().lobby(game).await.expect("game").status
}

/// A started game's version: how many options it has taken.
pub async fn version(service: &Service, game: GameId) -> u32 {
    service.load(game).await.expect("game").record.version.0
}

/// How many live moves the store holds for a game.
pub async fn move_count(service: &Service, game: GameId) -> usize {
    service.store().moves(game).await.expect("moves").len()
}

/// The store's live moves of a game, as (seat, notation).
pub async fn moves(service: &Service, game: GameId) -> Vec<(u8, String)> {
    service
        .store()
        .moves(game)
        .await
        .expect("moves")
        .into_iter()
        .map(|m| (m.seat.0, m.notation))
        .collect()
}

/// Who must decide in a game now, and what they are offered.
pub struct Decider {
    pub seat: Seat,
    /// The user holding the seat (`None`: a bot seat).
    pub user: Option<i64>,
    pub options: Vec<String>,
}

impl Decider {
    /// The deciding member's Discord id (stored as the same 64 bits, signed).
    pub fn member(&self) -> u64 {
        let user = self.user.expect("a member decides");
        u64::from_ne_bytes(user.to_ne_bytes())
    }
}

/// Who must decide in `game` now; `None` once no one must (the game is over).
pub async fn decider(service: &Service, game: GameId) -> Option<Decider> {
    let loaded = service.load(game).await.expect("game");
    let prompt = loaded.game.prompt()?;
    Some(Decider {
        seat: prompt.seat,
        user: loaded.record.seats[prompt.seat.index()].user,
        options: prompt.options,
    })
}

// ----- the service on the database: playouts -----

/// Whom a playout's options are played as.
#[derive(Clone, Copy, Debug)]
pub enum By {
    /// The deciding seat itself, as the local table plays.
    Seat,
    /// The member holding the deciding seat.
    Member,
    /// This user, whoever decides.
    User(i64),
}

/// A game played through the service one legal option at a time, for whoever must decide:
/// the `pick`th option of each prompt (modulo their number; the first unless told), as `by`
/// (the deciding member unless told), at the service's time (or `at`), at most `cap` options
/// (2000 unless told), then a panic.
pub struct Playout<'a> {
    service: &'a Service,
    game: GameId,
    pick: Box<dyn Fn(usize) -> usize + Send + Sync + 'a>,
    by: By,
    at: Option<i64>,
    cap: usize,
}

impl<'a> Playout<'a> {
    pub fn new(service: &'a Service, game: GameId) -> Playout<'a> {
        Playout {
            service,
            game,
            pick: Box::new(|_| 0),
            by: By::Member,
            at: None,
            cap: 2_000,
        }
    }

    /// The `n`th option of every prompt (modulo their number).
    pub fn nth(self, n: usize) -> Playout<'a> {
        self.pick(move |_| n)
    }

    /// The option of the `i`th step (from 0) is `pick(i)` (modulo their number).
    pub fn pick(mut self, pick: impl Fn(usize) -> usize + Send + Sync + 'a) -> Playout<'a> {
        self.pick = Box::new(pick);
        self
    }

    pub fn by(mut self, by: By) -> Playout<'a> {
        self.by = by;
        self
    }

    /// Every option played at this time instead of the service's.
    pub fn at(mut self, now: i64) -> Playout<'a> {
        self.at = Some(now);
        self
    }

    pub fn cap(mut self, cap: usize) -> Playout<'a> {
        self.cap = cap;
        self
    }

    /// One option; `None` (nothing played) once the game is over.
    pub async fn one(self) -> Option<(Seat, String)> {
        let d = decider(self.service, self.game).await?;
        Some(self.play(0, d).await)
    }

    /// Until no one must decide (the game must then be finished): the options played.
    pub async fn until_the_end(self) -> Vec<(Seat, String)> {
        let game = self.game;
        let played = self.until(|_| false, "the end").await;
        let loaded = self.service.load(game).await.expect("game");
        assert_eq!(loaded.record.status, GameStatus::Finished);
        played
    }

    /// Until another seat than the one deciding now must decide, or the game ends.
    pub async fn turn(self) -> Vec<(Seat, String)> {
        let Some(first) = decider(self.service, self.game).await else {
            return Vec::new();
        };
        self.until(move |d| d.seat != first.seat, "the end of the turn")
            .await
    }

    /// Until the seat of `user` must decide (the game must not end first).
    pub async fn until_turn_of(self, user: i64) -> Vec<(Seat, String)> {
        let what = format!("the turn of {user}");
        let game = self.game;
        let played = self.until(|d| d.user == Some(user), &what).await;
        assert!(
            decider(self.service, game).await.is_some(),
            "game {game} ended before {what}"
        );
        played
    }

    /// Plays until `stop` says so of who decides, or no one must.
    async fn until(&self, stop: impl Fn(&Decider) -> bool, what: &str) -> Vec<(Seat, String)> {
        let mut played = Vec::new();
        loop {
            let Some(d) = decider(self.service, self.game).await else {
                return played;
            };
            if stop(&d) {
                return played;
            }
            assert!(
                played.len() < self.cap,
                "game {}: {what} not reached in {} options",
                self.game,
                self.cap
            );
            played.push(self.play(played.len(), d).await);
        }
    }

    async fn play(&self, step: usize, d: Decider) -> (Seat, String) {
        let line = d.options[(self.pick)(step) % d.options.len()].clone();
        let actor = match self.by {
            By::Seat => Actor::Seat(d.seat),
            By::Member => Actor::User(d.user.expect("a member decides")),
            By::User(user) => Actor::User(user),
        };
        let play = PlayLine {
            game: self.game,
            actor,
            line: line.clone(),
            seen: None,
        };
        let at = self.at.unwrap_or_else(|| self.service.now());
        if let Err(e) = self.service.moves().play(play, Lang::En, at).await {
            panic!(
                "game {}: {line:?} by seat {} refused: {e}",
                self.game, d.seat.0
            );
        }
        (d.seat, line)
    }
}
