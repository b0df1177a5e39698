//! The lobby part of the store (seats joining and leaving, start, thread, seat cap), on SQLite
//! and on PostgreSQL when `TEST_DATABASE_URL` is set (same harness as `tests/suite/store.rs`).
#![allow(dead_code)]

use croupier::engine::{GameId, GameKind, GameOptions, Seat, Version};
use croupier::store::{
    DmStatus, GameStatus, JobKind, JoinOutcome, LeaveOutcome, NewGame, NewJob, NewRematch, NewSeat,
    RematchOutcome, StoreError,
};

use crate::store_db::Db;

on_backends!(join_fills_seats_in_order_up_to_the_cap, memory);
on_backends!(leave_renumbers_the_seats_after, memory);
on_backends!(start_checks_version_and_status, memory);
on_backends!(thread_and_cap_are_stored, memory);
on_backends!(concurrent_joins_never_overfill);
on_backends!(a_rematch_opens_once_and_keeps_seats_for_the_invited);

fn lobby(host: i64) -> NewGame {
    NewGame {
        kind: GameKind::Cortexcape,
        options: GameOptions::new(),
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

/// Issue 22: the start time and a resignation are recorded; a rematch opens once even when two
/// players ask at the same moment, with the old seats in order, the invited ones kept until
/// they confirm, and the old game's cap and bots.
async fn a_rematch_opens_once_and_keeps_seats_for_the_invited(db: &Db) {
    let store = db.connect().await;
    let g = store.create_game(&lobby(100)).await.unwrap();
    store.lobby_join(g, 101, "b", 4, 11).await.unwrap();
    let v = store.start_lobby(g, Version(1), "{}", 20).await.unwrap();
    let ending = store.ending(g).await.unwrap();
    assert_eq!(
        (ending.started_at, ending.resigned, ending.rematch),
        (Some(20), None, None)
    );
    let mut new = lobby(101);
    new.seats = vec![
        NewSeat {
            user: Some(100),
            name: "a".into(),
            is_bot: false,
        },
        NewSeat {
            user: Some(101),
            name: "b".into(),
            is_bot: false,
        },
        NewSeat {
            user: None,
            name: "bot".into(),
            is_bot: true,
        },
    ];
    let rematch = NewRematch {
        game: new,
        invited: vec![0],
        max_seats: Some(4),
        bot_level: croupier::ai::Level::Hard,
        bot_delay: 5,
        idle: NewJob {
            due_at: 99,
            kind: JobKind::Lobby,
            game: None,
            user: None,
            payload: String::new(),
        },
    };
    assert_eq!(
        store.open_rematch(g, &rematch).await.unwrap(),
        RematchOutcome::NotFinished(GameStatus::Active)
    );
    store.resign_game(g, v, Seat(1), &[], 30).await.unwrap();
    assert_eq!(store.game(g).await.unwrap().status, GameStatus::Finished);
    assert_eq!(store.ending(g).await.unwrap().resigned, Some(Seat(1)));
    // Two clicks at once: one opens it, the other finds it.
    let (x, y) = tokio::join!(
        store.open_rematch(g, &rematch),
        store.open_rematch(g, &rematch)
    );
    let (r, other) = match (x.unwrap(), y.unwrap()) {
        (RematchOutcome::Opened(r), o) | (o, RematchOutcome::Opened(r)) => (r, o),
        other => panic!("nobody opened it: {other:?}"),
    };
    assert_eq!(other, RematchOutcome::Exists(r));
    assert_eq!(store.ending(g).await.unwrap().rematch, Some(r));
    let rec = store.game(r).await.unwrap();
    assert_eq!(rec.status, GameStatus::Lobby);
    let seats: Vec<(Option<i64>, bool, bool)> = rec
        .seats
        .iter()
        .map(|s| (s.user, s.is_bot, s.vacant))
        .collect();
    assert_eq!(
        seats,
        [
            (Some(100), false, true),
            (Some(101), false, false),
            (None, true, false)
        ]
    );
    assert_eq!((rec.bot_level.id(), rec.bot_delay), ("hard", 5));
    assert_eq!(store.max_seats(r).await.unwrap(), Some(4));
    let jobs = store.jobs_for_game(r).await.unwrap();
    assert_eq!(jobs.len(), 1);
    assert_eq!((jobs[0].kind.as_str(), jobs[0].due_at), ("lobby", 99));
    // Someone else joins a free seat and leaves: the invitation stays kept.
    assert_eq!(
        store.lobby_join(r, 102, "c", 4, 40).await.unwrap(),
        JoinOutcome::Joined(Seat(3))
    );
    store.lobby_leave(r, 102, 41).await.unwrap();
    assert!(store.game(r).await.unwrap().seats[0].vacant);
    // Ann never confirmed: her kept seat is dropped, the others move up.
    assert_eq!(
        store.lobby_drop_unconfirmed(r, 42).await.unwrap(),
        LeaveOutcome::Left
    );
    let users: Vec<Option<i64>> = store
        .game(r)
        .await
        .unwrap()
        .seats
        .iter()
        .map(|s| s.user)
        .collect();
    assert_eq!(users, [Some(101), None]);
    assert_eq!(
        store.lobby_drop_unconfirmed(r, 43).await.unwrap(),
        LeaveOutcome::NotSeated
    );
    // An invited player joining confirms their kept seat (a fresh rematch of another game).
    let h = store.create_game(&lobby(200)).await.unwrap();
    store.lobby_join(h, 201, "b", 4, 11).await.unwrap();
    let v = store.start_lobby(h, Version(1), "{}", 20).await.unwrap();
    store.resign_game(h, v, Seat(0), &[], 30).await.unwrap();
    let mut again = rematch.clone();
    again.game.seats.truncate(2);
    let RematchOutcome::Opened(s) = store.open_rematch(h, &again).await.unwrap() else {
        panic!("a second game's rematch opens");
    };
    assert_eq!(
        store.lobby_join(s, 100, "a", 4, 50).await.unwrap(),
        JoinOutcome::Joined(Seat(0))
    );
    assert!(!store.game(s).await.unwrap().seats[0].vacant);
    assert_eq!(
        store.lobby_join(s, 100, "a", 4, 51).await.unwrap(),
        JoinOutcome::AlreadySeated(Seat(0))
    );
}
