//! The lobby part of the store (seats joining and leaving, start, thread, seat cap), on SQLite
//! and on PostgreSQL when `TEST_DATABASE_URL` is set (same harness as `tests/store.rs`).
#![allow(dead_code)]

use croupier::engine::{GameId, Seat, Version};
use croupier::store::{
    DmStatus, GameStatus, JoinOutcome, LeaveOutcome, NewGame, NewSeat, StoreError,
};

#[macro_use]
#[path = "support/store_db.rs"]
mod store_db;
use store_db::Db;

on_backends!(join_fills_seats_in_order_up_to_the_cap, memory);
on_backends!(leave_renumbers_the_seats_after, memory);
on_backends!(start_checks_version_and_status, memory);
on_backends!(thread_and_cap_are_stored, memory);
on_backends!(concurrent_joins_never_overfill);

fn lobby(host: i64) -> NewGame {
    NewGame {
        kind: "cortexcape".into(),
        options_json: "{}".into(),
        seed: -5,
        state: String::new(),
        status: GameStatus::Lobby,
        guild: Some(1),
        channel: Some(2),
        thread: None,
        host: Some(host),
        seats: vec![NewSeat {
            user: Some(host),
            name: format!("u{host}"),
            is_bot: false,
        }],
        clock_secs: None,
        policy: Default::default(),
        lang: None,
        now: 10,
    }
}

fn users(seats: &[croupier::store::SeatRecord]) -> Vec<(u8, Option<i64>)> {
    seats.iter().map(|s| (s.seat.0, s.user)).collect()
}

async fn join_fills_seats_in_order_up_to_the_cap(db: &Db) {
    let store = db.connect().await;
    let g = store.create_game(&lobby(100)).await.unwrap();
    assert_eq!(
        store.lobby_join(g, 101, "b", 3, 11).await.unwrap(),
        JoinOutcome::Joined(Seat(1))
    );
    assert_eq!(
        store.lobby_join(g, 101, "b", 3, 12).await.unwrap(),
        JoinOutcome::AlreadySeated(Seat(1))
    );
    assert_eq!(
        store.lobby_join(g, 102, "c", 3, 13).await.unwrap(),
        JoinOutcome::Joined(Seat(2))
    );
    assert_eq!(
        store.lobby_join(g, 103, "d", 3, 14).await.unwrap(),
        JoinOutcome::Full
    );
    let rec = store.game(g).await.unwrap();
    assert_eq!(
        users(&rec.seats),
        vec![(0, Some(100)), (1, Some(101)), (2, Some(102))]
    );
    assert_eq!(rec.seats[1].name, "b");
    // Two successful joins, each version+1; refused ones change nothing.
    assert_eq!(rec.version, Version(2));
    assert_eq!(rec.updated_at, 13);
    // Not a lobby any more: refused, unknown game: an error.
    store
        .set_status(g, rec.version, GameStatus::Cancelled, 20)
        .await
        .unwrap();
    assert_eq!(
        store.lobby_join(g, 104, "e", 9, 21).await.unwrap(),
        JoinOutcome::NotLobby(GameStatus::Cancelled)
    );
    assert!(matches!(
        store.lobby_join(GameId(9999), 1, "x", 9, 21).await,
        Err(StoreError::NotFound(GameId(9999)))
    ));
}

async fn leave_renumbers_the_seats_after(db: &Db) {
    let store = db.connect().await;
    let g = store.create_game(&lobby(100)).await.unwrap();
    for u in [101, 102, 103] {
        store.lobby_join(g, u, "x", 4, 11).await.unwrap();
    }
    store.set_dm_status(g, 103, DmStatus::Closed).await.unwrap();
    assert_eq!(
        store.lobby_leave(g, 101, 12).await.unwrap(),
        LeaveOutcome::Left
    );
    let rec = store.game(g).await.unwrap();
    assert_eq!(
        users(&rec.seats),
        vec![(0, Some(100)), (1, Some(102)), (2, Some(103))]
    );
    // What a seat knew moves with it.
    assert_eq!(rec.seats[2].dm_status, DmStatus::Closed);
    assert_eq!(
        store.lobby_leave(g, 101, 13).await.unwrap(),
        LeaveOutcome::NotSeated
    );
    let v = store.game(g).await.unwrap().version;
    store
        .set_status(g, v, GameStatus::Active, 14)
        .await
        .unwrap();
    assert_eq!(
        store.lobby_leave(g, 102, 15).await.unwrap(),
        LeaveOutcome::NotLobby(GameStatus::Active)
    );
}

async fn start_checks_version_and_status(db: &Db) {
    let store = db.connect().await;
    let g = store.create_game(&lobby(100)).await.unwrap();
    store.lobby_join(g, 101, "b", 4, 11).await.unwrap();
    let seen = store.game(g).await.unwrap().version;
    // Someone joined after the seats were counted: the start is refused.
    store.lobby_join(g, 102, "c", 4, 12).await.unwrap();
    assert!(matches!(
        store.start_lobby(g, seen, "{}", 13).await,
        Err(StoreError::Conflict { expected, found }) if expected == seen && found == seen.next()
    ));
    let now = store.game(g).await.unwrap().version;
    assert_eq!(
        store.start_lobby(g, now, r#"{"s":1}"#, 14).await.unwrap(),
        now.next()
    );
    let rec = store.game(g).await.unwrap();
    assert_eq!(rec.status, GameStatus::Active);
    assert_eq!(rec.state, r#"{"s":1}"#);
    // Started games do not start again, even at their current version.
    assert!(matches!(
        store.start_lobby(g, rec.version, "{}", 15).await,
        Err(StoreError::Conflict { .. })
    ));
}

async fn thread_and_cap_are_stored(db: &Db) {
    let store = db.connect().await;
    let g = store.create_game(&lobby(100)).await.unwrap();
    assert_eq!(store.max_seats(g).await.unwrap(), None);
    store.set_max_seats(g, Some(3)).await.unwrap();
    store.set_thread(g, Some(555)).await.unwrap();
    assert_eq!(store.max_seats(g).await.unwrap(), Some(3));
    let rec = store.game(g).await.unwrap();
    assert_eq!((rec.thread, rec.version), (Some(555), Version(0)));
    assert_eq!(
        store.games_in_channel(555, None, 10).await.unwrap()[0].id,
        g
    );
    assert!(matches!(
        store.set_thread(GameId(777), Some(1)).await,
        Err(StoreError::NotFound(GameId(777)))
    ));
}

async fn concurrent_joins_never_overfill(db: &Db) {
    let a = db.connect().await;
    let b = db.connect().await;
    let g = a.create_game(&lobby(100)).await.unwrap();
    let mut tasks = Vec::new();
    for u in 0..6 {
        let s = if u % 2 == 0 { a.clone() } else { b.clone() };
        tasks.push(tokio::spawn(async move {
            s.lobby_join(g, 200 + u, "p", 4, 11).await.unwrap()
        }));
    }
    let mut joined = 0;
    for t in tasks {
        if matches!(t.await.unwrap(), JoinOutcome::Joined(_)) {
            joined += 1;
        }
    }
    assert_eq!(joined, 3);
    let rec = a.game(g).await.unwrap();
    assert_eq!(rec.seats.len(), 4);
    let numbers: Vec<u8> = rec.seats.iter().map(|s| s.seat.0).collect();
    assert_eq!(numbers, vec![0, 1, 2, 3]);
}
