//! `croupier backup` (issue 26): a copy of a live SQLite database taken while moves are being
//! written opens as a database of its own, and every game in it replays from seed and moves to
//! exactly its stored snapshot.

#[allow(unused_macros)]
#[path = "support/store_db.rs"]
mod store_db;

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;

use croupier::engine::{GameKind, GameOptions};
use croupier::i18n::Lang;
use croupier::service::{Place, Player, Service, StartGame};
use croupier::store::{Store, StoreError};
use store_db::Playout;

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
        games.push(svc.start(start(seed), Lang::En, 1).await.unwrap().0);
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
        let replayed = restored.replay(id).await.unwrap();
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
