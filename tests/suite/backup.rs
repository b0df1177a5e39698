//! `croupier backup` (issue 26): a copy of a live SQLite database taken while moves are being
//! written opens as a database of its own, and every game in it replays from seed and moves to
//! exactly its stored snapshot.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;

use crate::store_db::Playout;
use croupier::engine::{GameKind, GameOptions};
use croupier::i18n::Lang;
use croupier::service::{Place, Player, Service, StartGame};
use croupier::store::{Store, StoreError};

fn start(seed: u64) -> StartGame {
    StartGame {
        kind: GameKind::Cortexcape,
        options: GameOptions::new(),
        players: (0..3)
            .map(|i| Player {
                user: Some(1000 + i),
                name: format!("P{}", i + 1),
                is_bot: false,
            })
            .collect(),
        seed,
        place: Place::default(),
        host: Some(1000),
        clock_secs: None,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_backup_taken_while_moves_are_written_replays_every_game() {
    let dir = tempfile::tempdir().unwrap();
    let live = Store::connect(&format!("sqlite://{}/live.db", dir.path().display()))
        .await
        .unwrap();
    let svc = Arc::new(Service::new(live.clone()));
    let mut games = Vec::new();
    for seed in 0..6 {
        games.push(
            svc.lobbies()
                .start(start(seed), Lang::En, 1)
                .await
                .unwrap()
                .0,
        );
    }

    // A writer plays round the games without pause until told to stop.
    let (stop, played) = (
        Arc::new(AtomicBool::new(false)),
        Arc::new(AtomicUsize::new(0)),
    );
    let writer = {
        let (svc, games, stop, played) = (svc.clone(), games.clone(), stop.clone(), played.clone());
        tokio::spawn(async move {
            let mut i = 0usize;
            while !stop.load(Ordering::Relaxed) {
                // One option for whoever must decide (nothing once the game is over).
                let game = games[i % games.len()];
                if Playout::new(&svc, game)
                    .nth(i / 7)
                    .at(2)
                    .one()
                    .await
                    .is_some()
                {
                    played.fetch_add(1, Ordering::Relaxed);
                }
                i += 1;
            }
        })
    };
    while played.load(Ordering::Relaxed) < 30 {
        tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    }
    let copy = dir.path().join("copy.db");
    let before = played.load(Ordering::Relaxed);
    live.backup_to(&copy).await.unwrap();
    let during = played.load(Ordering::Relaxed);
    // Let the writer go on a little: the copy must not see what comes after it.
    while played.load(Ordering::Relaxed) < during + 10 {
        tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    }
    stop.store(true, Ordering::Relaxed);
    writer.await.unwrap();

    let restored = Service::new(
        Store::connect(&format!("sqlite://{}", copy.display()))
            .await
            .unwrap(),
    );
    let mut moves_in_copy = 0usize;
    for &id in &games {
        let loaded = restored.load(id).await.unwrap();
        let replayed = restored.records().replay(id).await.unwrap();
        assert_eq!(replayed.to_json(), loaded.game.to_json(), "game {id}");
        moves_in_copy += restored.store().moves(id).await.unwrap().len();
    }
    assert!(
        // (The writer counts a move just after storing it: one may be stored, not counted.)
        (before..=during + 1).contains(&moves_in_copy),
        "the copy holds {moves_in_copy} moves; {before} were stored before it began, \
         {during} when it ended"
    );
    // The live database went on after the copy.
    let mut moves_live = 0usize;
    for &id in &games {
        moves_live += svc.store().moves(id).await.unwrap().len();
    }
    assert!(moves_live > moves_in_copy);

    // Nothing is overwritten: a second backup to the same file is refused, the copy intact.
    let err = live.backup_to(&copy).await.unwrap_err();
    assert!(
        matches!(err, StoreError::Invalid(ref m) if m.contains("already exists")),
        "{err}"
    );
    assert!(restored.load(games[0]).await.is_ok());
}

#[tokio::test]
async fn postgres_backups_point_to_pg_dump() {
    let Ok(url) = std::env::var("TEST_DATABASE_URL") else {
        return;
    };
    let store = Store::connect(&url).await.unwrap();
    let dir = tempfile::tempdir().unwrap();
    let err = store.backup_to(&dir.path().join("x.db")).await.unwrap_err();
    assert!(err.to_string().contains("pg_dump"), "{err}");
    assert!(!dir.path().join("x.db").exists());
}

/// Issue 37, through the binary as an operator runs it: `croupier backup` copies the database
/// as it is (no migration runs on it, no file is created where none was) into a file only its
/// owner may read; and with no token and nobody at a terminal (a container), `croupier` prints
/// the set-up help and fails instead of starting a table game in that database.
#[tokio::test]
async fn backups_and_token_less_starts_leave_the_database_as_it_is() {
    use std::os::unix::fs::PermissionsExt;
    use std::process::{Command, Stdio};
    let dir = tempfile::tempdir().unwrap();
    let old = dir.path().join("old.db");
    sqlx::any::install_default_drivers();
    let pool = sqlx::AnyPool::connect(&format!("sqlite://{}?mode=rwc", old.display()))
        .await
        .unwrap();
    sqlx::query("CREATE TABLE kept (x INTEGER)")
        .execute(&pool)
        .await
        .unwrap();
    sqlx::query("INSERT INTO kept VALUES (42)")
        .execute(&pool)
        .await
        .unwrap();
    pool.close().await;
    let croupier = |db: &std::path::Path, args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_croupier"))
            .args(args)
            .env("DATABASE_URL", format!("sqlite://{}", db.display()))
            .env_remove("DISCORD_TOKEN")
            .env_remove("DISCORD_TOKEN_FILE")
            .stdin(Stdio::null())
            .output()
            .unwrap()
    };
    let tables = |db: &std::path::Path| {
        let url = format!("sqlite://{}?mode=ro", db.display());
        async move {
            let pool = sqlx::AnyPool::connect(&url).await.unwrap();
            let rows: Vec<(String,)> =
                sqlx::query_as("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
                    .fetch_all(&pool)
                    .await
                    .unwrap();
            pool.close().await;
            rows.into_iter().map(|r| r.0).collect::<Vec<_>>()
        }
    };
    let copy = dir.path().join("copy.db");
    let out = croupier(&old, &["backup", copy.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        tables(&old).await,
        ["kept"],
        "the backup migrated the database"
    );
    assert_eq!(tables(&copy).await, ["kept"]);
    let mode = std::fs::metadata(&copy).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600, "the copy is readable by others: {mode:o}");

    // A database that is not there is not made by a backup.
    let missing = dir.path().join("missing.db");
    let out = croupier(
        &missing,
        &["backup", dir.path().join("c2.db").to_str().unwrap()],
    );
    assert!(!out.status.success());
    assert!(!missing.exists() && !dir.path().join("c2.db").exists());

    // No token, no terminal: help on stderr, a failure, and no database touched or made.
    let out = croupier(&old, &[]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("DISCORD_TOKEN"), "{err}");
    assert_eq!(tables(&old).await, ["kept"]);
    let fresh = dir.path().join("fresh.db");
    assert!(!croupier(&fresh, &[]).status.success());
    assert!(
        !fresh.exists(),
        "a table game was started in the bot's database"
    );
}
