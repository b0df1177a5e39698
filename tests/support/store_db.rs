//! The database harness shared by the store test suites: a fresh database per test on SQLite
//! (a temp file, or memory where a test needs no second connection) and on PostgreSQL when
//! `TEST_DATABASE_URL` is set (a scratch schema, dropped at the end). Without the variable the
//! PostgreSQL tests return quietly, unless `CROUPIER_REQUIRE_POSTGRES=1` (CI), where they fail.
#![allow(dead_code)]

use std::sync::atomic::{AtomicU32, Ordering};

use croupier::store::{redact_url, Backend, Store};

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
