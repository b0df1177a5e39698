//! The migration runner: the backend's SQL files, embedded, applied in order at connect.
//!
//! Each migration runs in its own transaction together with its `schema_migrations` row, so
//! it is applied whole or not at all, and a second run skips it. On PostgreSQL every
//! transaction first takes a transaction-scoped advisory lock, so processes starting together
//! wait for each other instead of racing (`CREATE TABLE IF NOT EXISTS` itself is not safe
//! against a concurrent twin there).

use sqlx::{AnyPool, Row};

use super::{get, Backend, StoreError};

/// One embedded migration file.
pub struct Migration {
    pub version: i64,
    pub name: &'static str,
    pub sql: &'static str,
}

pub const MIGRATIONS_SQLITE: &[Migration] = &[
    Migration {
        version: 1,
        name: "initial",
        sql: include_str!("../../migrations/sqlite/0001_initial.sql"),
    },
    Migration {
        version: 2,
        name: "lobby",
        sql: include_str!("../../migrations/sqlite/0002_lobby.sql"),
    },
    Migration {
        version: 3,
        name: "clocks",
        sql: include_str!("../../migrations/sqlite/0003_clocks.sql"),
    },
    Migration {
        version: 4,
        name: "bots",
        sql: include_str!("../../migrations/sqlite/0004_bots.sql"),
    },
    Migration {
        version: 5,
        name: "boards",
        sql: include_str!("../../migrations/sqlite/0005_boards.sql"),
    },
    Migration {
        version: 6,
        name: "fair_play",
        sql: include_str!("../../migrations/sqlite/0006_fair_play.sql"),
    },
    Migration {
        version: 7,
        name: "ending",
        sql: include_str!("../../migrations/sqlite/0007_ending.sql"),
    },
    Migration {
        version: 8,
        name: "notifications",
        sql: include_str!("../../migrations/sqlite/0008_notifications.sql"),
    },
    Migration {
        version: 9,
        name: "ratings",
        sql: include_str!("../../migrations/sqlite/0009_ratings.sql"),
    },
    Migration {
        version: 10,
        name: "guild_settings",
        sql: include_str!("../../migrations/sqlite/0010_guild_settings.sql"),
    },
    Migration {
        version: 11,
        name: "fair_ratings",
        sql: include_str!("../../migrations/sqlite/0011_fair_ratings.sql"),
    },
    Migration {
        version: 12,
        name: "moderation",
        sql: include_str!("../../migrations/sqlite/0012_moderation.sql"),
    },
    Migration {
        version: 13,
        name: "dm_channels",
        sql: include_str!("../../migrations/sqlite/0013_dm_channels.sql"),
    },
    Migration {
        version: 14,
        name: "confirm_moves",
        sql: include_str!("../../migrations/sqlite/0014_confirm_moves.sql"),
    },
    Migration {
        version: 15,
        name: "reliability",
        sql: include_str!("../../migrations/sqlite/0015_reliability.sql"),
    },
    Migration {
        version: 16,
        name: "substitutes",
        sql: include_str!("../../migrations/sqlite/0016_substitutes.sql"),
    },
    Migration {
        version: 17,
        name: "lessons",
        sql: include_str!("../../migrations/sqlite/0017_lessons.sql"),
    },
    Migration {
        version: 18,
        name: "invitations",
        sql: include_str!("../../migrations/sqlite/0018_invitations.sql"),
    },
    Migration {
        version: 19,
        name: "pings",
        sql: include_str!("../../migrations/sqlite/0019_pings.sql"),
    },
    Migration {
        version: 20,
        name: "takeback",
        sql: include_str!("../../migrations/sqlite/0020_takeback.sql"),
    },
    Migration {
        version: 21,
        name: "rollbacks",
        sql: include_str!("../../migrations/sqlite/0021_rollbacks.sql"),
    },
];

pub const MIGRATIONS_POSTGRES: &[Migration] = &[
    Migration {
        version: 1,
        name: "initial",
        sql: include_str!("../../migrations/postgres/0001_initial.sql"),
    },
    Migration {
        version: 2,
        name: "lobby",
        sql: include_str!("../../migrations/postgres/0002_lobby.sql"),
    },
    Migration {
        version: 3,
        name: "clocks",
        sql: include_str!("../../migrations/postgres/0003_clocks.sql"),
    },
    Migration {
        version: 4,
        name: "bots",
        sql: include_str!("../../migrations/postgres/0004_bots.sql"),
    },
    Migration {
        version: 5,
        name: "boards",
        sql: include_str!("../../migrations/postgres/0005_boards.sql"),
    },
    Migration {
        version: 6,
        name: "fair_play",
        sql: include_str!("../../migrations/postgres/0006_fair_play.sql"),
    },
    Migration {
        version: 7,
        name: "ending",
        sql: include_str!("../../migrations/postgres/0007_ending.sql"),
    },
    Migration {
        version: 8,
        name: "notifications",
        sql: include_str!("../../migrations/postgres/0008_notifications.sql"),
    },
    Migration {
        version: 9,
        name: "ratings",
        sql: include_str!("../../migrations/postgres/0009_ratings.sql"),
    },
    Migration {
        version: 10,
        name: "guild_settings",
        sql: include_str!("../../migrations/postgres/0010_guild_settings.sql"),
    },
    Migration {
        version: 11,
        name: "fair_ratings",
        sql: include_str!("../../migrations/postgres/0011_fair_ratings.sql"),
    },
    Migration {
        version: 12,
        name: "moderation",
        sql: include_str!("../../migrations/postgres/0012_moderation.sql"),
    },
    Migration {
        version: 13,
        name: "dm_channels",
        sql: include_str!("../../migrations/postgres/0013_dm_channels.sql"),
    },
    Migration {
        version: 14,
        name: "confirm_moves",
        sql: include_str!("../../migrations/postgres/0014_confirm_moves.sql"),
    },
    Migration {
        version: 15,
        name: "reliability",
        sql: include_str!("../../migrations/postgres/0015_reliability.sql"),
    },
    Migration {
        version: 16,
        name: "substitutes",
        sql: include_str!("../../migrations/postgres/0016_substitutes.sql"),
    },
    Migration {
        version: 17,
        name: "lessons",
        sql: include_str!("../../migrations/postgres/0017_lessons.sql"),
    },
    Migration {
        version: 18,
        name: "invitations",
        sql: include_str!("../../migrations/postgres/0018_invitations.sql"),
    },
    Migration {
        version: 19,
        name: "pings",
        sql: include_str!("../../migrations/postgres/0019_pings.sql"),
    },
    Migration {
        version: 20,
        name: "takeback",
        sql: include_str!("../../migrations/postgres/0020_takeback.sql"),
    },
    Migration {
        version: 21,
        name: "rollbacks",
        sql: include_str!("../../migrations/postgres/0021_rollbacks.sql"),
    },
];

/// Any fixed number; only croupier processes on the same database take it.
const LOCK_KEY: i64 = 0x0063_726f_7570_6965; // "croupie"

const CREATE_TABLE: &str = "CREATE TABLE IF NOT EXISTS schema_migrations (
    version    BIGINT PRIMARY KEY,
    name       TEXT   NOT NULL,
    applied_at BIGINT NOT NULL
)";

/// Applies the migrations this database lacks; returns how many it applied.
pub(super) async fn run(pool: &AnyPool, backend: Backend) -> Result<usize, StoreError> {
    let migrations = match backend {
        Backend::Sqlite => MIGRATIONS_SQLITE,
        Backend::Postgres => MIGRATIONS_POSTGRES,
    };
    check_history(pool, backend, migrations).await?;
    let mut applied = 0;
    for m in migrations {
        let label = format!("{:04}_{}", m.version, m.name);
        let fail = |source| StoreError::Migrate {
            migration: label.clone(),
            source,
        };
        let mut tx = pool.begin().await?;
        lock(&mut tx, backend).await?;
        let done = sqlx::query("SELECT version FROM schema_migrations WHERE version = $1")
            .bind(m.version)
            .fetch_optional(&mut *tx)
            .await?;
        if done.is_some() {
            tx.commit().await?;
            continue;
        }
        // raw_sql: a migration file holds several statements.
        sqlx::raw_sql(m.sql).execute(&mut *tx).await.map_err(fail)?;
        sqlx::query(
            "INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)",
        )
        .bind(m.version)
        .bind(m.name)
        .bind(crate::clock::unix_now())
        .execute(&mut *tx)
        .await
        .map_err(fail)?;
        tx.commit().await.map_err(fail)?;
        tracing::info!(migration = %label, "applied database migration");
        applied += 1;
    }
    Ok(applied)
}

/// Creates the history table if needed, and refuses a database whose history this program does
/// not know (a newer program migrated it, or a file was renamed): running on would corrupt it.
async fn check_history(
    pool: &AnyPool,
    backend: Backend,
    migrations: &[Migration],
) -> Result<(), StoreError> {
    let mut tx = pool.begin().await?;
    // On SQLite the CREATE (a write, or a no-op) comes first, so no read is upgraded.
    if backend == Backend::Postgres {
        lock_pg(&mut tx).await?;
    }
    sqlx::query(CREATE_TABLE).execute(&mut *tx).await?;
    let rows = sqlx::query("SELECT version, name FROM schema_migrations ORDER BY version")
        .fetch_all(&mut *tx)
        .await?;
    tx.commit().await?;
    for row in rows {
        let version: i64 = get(&row, "version")?;
        let name: String = row.try_get("name")?;
        match migrations.iter().find(|m| m.version == version) {
            Some(m) if m.name == name => {}
            Some(m) => {
                return Err(StoreError::Schema(format!(
                    "migration {version} is {name:?} in the database but {:?} here",
                    m.name
                )))
            }
            None => {
                return Err(StoreError::Schema(format!(
                    "migration {version} ({name}) is unknown to this program: is it older than the database?"
                )))
            }
        }
    }
    Ok(())
}

/// Serializes migrating processes. PostgreSQL: a transaction-scoped advisory lock. SQLite: a
/// no-op write as the first statement takes the write lock (waiting on the busy timeout), so
/// the transaction never has to upgrade a read, which SQLite refuses without waiting.
async fn lock(tx: &mut sqlx::AnyConnection, backend: Backend) -> Result<(), StoreError> {
    match backend {
        Backend::Postgres => lock_pg(tx).await,
        Backend::Sqlite => {
            sqlx::query("UPDATE schema_migrations SET name = name WHERE version IS NULL")
                .execute(&mut *tx)
                .await?;
            Ok(())
        }
    }
}

async fn lock_pg(tx: &mut sqlx::AnyConnection) -> Result<(), StoreError> {
    sqlx::query("SELECT pg_advisory_xact_lock($1)")
        .bind(LOCK_KEY)
        .execute(&mut *tx)
        .await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The two flavours differ only where they must: the auto-increment ids. Anything else
    /// (a column added to one file only) fails here rather than on one backend in production.
    #[test]
    fn both_backends_have_the_same_schema() {
        assert_eq!(MIGRATIONS_SQLITE.len(), MIGRATIONS_POSTGRES.len());
        for (s, p) in MIGRATIONS_SQLITE.iter().zip(MIGRATIONS_POSTGRES) {
            assert_eq!((s.version, s.name), (p.version, p.name));
            let body = |sql: &'static str| -> String {
                let start = sql.find("CREATE").unwrap_or(0);
                sql[start..]
                    .replace("INTEGER PRIMARY KEY AUTOINCREMENT", "<auto id>")
                    .replace(
                        "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY",
                        "<auto id>",
                    )
            };
            assert_eq!(body(s.sql), body(p.sql), "migration {}", s.name);
        }
    }
}
