//! The store, the same suite on every backend: SQLite in a temp file (and in memory where a
//! test needs no second connection), and PostgreSQL when `TEST_DATABASE_URL` is set.
//!
//! Each PostgreSQL test gets a fresh schema in that database (dropped at the end), reached
//! through `search_path`, so tests and runs never see each other's rows. Without the variable
//! the PostgreSQL tests return quietly, unless `CROUPIER_REQUIRE_POSTGRES=1` (CI), where they
//! fail.

use std::collections::BTreeSet;

use croupier::engine::{GameId, GameKind, GameOptions, Seat, Version};
use croupier::i18n::Lang;
use croupier::store::{
    Backend, DmStatus, GameStatus, JobKind, NewGame, NewJob, NewMove, NewSeat, Store, StoreError,
    TimeoutPolicy, TurnClock, UserSettings,
};

use crate::store_db::Db;

on_backends!(migrations_run_twice_idempotently);
on_backends!(games_round_trip, memory);
on_backends!(concurrent_writers_one_wins);
on_backends!(moves_keep_order_and_undo_marks_rows);
on_backends!(status_changes_and_listings, memory);
on_backends!(seats_and_dm_status, memory);
on_backends!(jobs_lease_complete_cancel, memory);
on_backends!(jobs_claimed_once_by_concurrent_claimers);
on_backends!(jobs_of_an_unknown_kind_are_left_alone);
on_backends!(interactions_first_seen_once, memory);
on_backends!(user_settings_round_trip, memory);
on_backends!(a_servers_language_round_trip, memory);
on_backends!(foreign_keys_are_enforced, memory);
on_backends!(a_write_waits_out_a_lock_held_longer_than_five_seconds);
on_backends!(corrupt_rows_are_errors_not_panics);
on_backends!(unposted_boards_are_listed_claimed_once_and_cleared);

fn seat(user: Option<i64>, name: &str, is_bot: bool) -> NewSeat {
    NewSeat {
        user,
        name: name.into(),
        is_bot,
    }
}

fn new_game(channel: i64, users: &[i64]) -> NewGame {
    NewGame {
        kind: GameKind::Cortexcape,
        options: GameOptions::from([("variant".into(), "basic".into())]),
        seed: 7,
        state: r#"{"turn":0}"#.into(),
        status: GameStatus::Active,
        guild: Some(11),
        channel: Some(channel),
        thread: None,
        host: users.first().copied(),
        seats: users
            .iter()
            .map(|u| seat(Some(*u), &format!("player {u}"), false))
            .collect(),
        clock_secs: Some(86_400),
        policy: TimeoutPolicy::Bot,
        lang: Some(Lang::Fr),
        now: 1_000,
    }
}

fn mv(s: u8, notation: &str, barrier: bool) -> NewMove {
    NewMove {
        seat: Seat(s),
        notation: notation.into(),
        barrier,
        revealed: false,
    }
}

async fn unposted_boards_are_listed_claimed_once_and_cleared(db: &Db) {
    let store = db.connect().await;
    let g = store.create_game(&new_game(5, &[1, 2])).await.unwrap();
    let mut lobby = new_game(5, &[1, 2]);
    lobby.status = GameStatus::Lobby;
    let l = store.create_game(&lobby).await.unwrap();
    // A lobby's joins change its version but it has no board.
    store.lobby_join(l, 3, "Cy", 4, 1_100).await.unwrap();
    assert_eq!(store.unposted_boards(2_000, 10).await.unwrap(), vec![]);
    let v1 = store
        .record_moves(
            g,
            Version(0),
            &[mv(0, "a", true)],
            "{}",
            GameStatus::Active,
            1_500,
        )
        .await
        .unwrap();
    assert_eq!(
        store.unposted_boards(2_000, 10).await.unwrap(),
        vec![(g, v1)]
    );
    // One claimer wins; while its claim runs the game is not listed.
    assert!(store.claim_board(g, v1, 2_000, 300).await.unwrap());
    assert!(!store.claim_board(g, v1, 2_001, 300).await.unwrap());
    assert_eq!(store.unposted_boards(2_100, 10).await.unwrap(), vec![]);
    // The claim lapses: listed and claimable again; an older version is not.
    assert_eq!(
        store.unposted_boards(2_300, 10).await.unwrap(),
        vec![(g, v1)]
    );
    assert!(!store.claim_board(g, Version(0), 2_300, 300).await.unwrap());
    assert!(store.claim_board(g, v1, 2_300, 300).await.unwrap());
    // Posted: gone, and an older version's mark does not undo it.
    // The first board has nothing to replace; an older version's post replaces nothing.
    assert_eq!(store.mark_posted(g, v1, Some(501)).await.unwrap(), None);
    assert_eq!(
        store.mark_posted(g, Version(0), Some(500)).await.unwrap(),
        None
    );
    assert_eq!(store.game(g).await.unwrap().board_message, Some(501));
    assert_eq!(store.unposted_boards(9_000, 10).await.unwrap(), vec![]);
    assert!(!store.claim_board(g, v1, 9_000, 300).await.unwrap());
    // The next move's board is missing until it is posted; a resignation has no board.
    let v2 = store
        .record_moves(g, v1, &[mv(1, "b", true)], "{}", GameStatus::Active, 3_000)
        .await
        .unwrap();
    assert_eq!(
        store.unposted_boards(9_000, 10).await.unwrap(),
        vec![(g, v2)]
    );
    // Its board becomes the live one and names the board it replaces, once.
    assert_eq!(
        store.mark_posted(g, v2, Some(502)).await.unwrap(),
        Some(501)
    );
    assert_eq!(store.mark_posted(g, v2, Some(502)).await.unwrap(), None);
    assert_eq!(store.game(g).await.unwrap().board_message, Some(502));
    let v2 = store
        .record_moves(g, v2, &[mv(2, "c", true)], "{}", GameStatus::Active, 3_050)
        .await
        .unwrap();
    // The sweeper's mark without a message keeps the live board.
    assert_eq!(store.mark_posted(g, v2, None).await.unwrap(), None);
    assert_eq!(store.game(g).await.unwrap().board_message, Some(502));
    store
        .set_status(g, v2, GameStatus::Finished, 3_100)
        .await
        .unwrap();
    assert_eq!(store.unposted_boards(9_000, 10).await.unwrap(), vec![]);
}

async fn migrations_run_twice_idempotently(db: &Db) {
    // Two processes starting at once on an empty database.
    let (a, b) = tokio::join!(Store::connect(&db.url), Store::connect(&db.url));
    let a = a.unwrap();
    b.unwrap();
    let id = a.create_game(&new_game(5, &[1, 2])).await.unwrap();
    // And once more later: nothing is applied again, nothing is lost.
    let c = db.connect().await;
    assert_eq!(c.game(id).await.unwrap().seats.len(), 2);
    let known = match db.backend {
        Backend::Sqlite => croupier::store::MIGRATIONS_SQLITE.len(),
        Backend::Postgres => croupier::store::MIGRATIONS_POSTGRES.len(),
    };
    assert_eq!(
        db.raw_i64("SELECT COUNT(*) FROM schema_migrations").await,
        i64::try_from(known).unwrap()
    );
    // A database migrated by a program that knows more migrations is refused.
    db.raw("INSERT INTO schema_migrations (version, name, applied_at) VALUES (999, 'future', 0)")
        .await;
    let err = Store::connect(&db.url).await.unwrap_err();
    assert!(
        matches!(&err, StoreError::Schema(m) if m.contains("999")),
        "{err}"
    );
}

async fn games_round_trip(db: &Db) {
    let store = db.connect().await;
    let mut g = new_game(5, &[]);
    // Seeds are the engine's u64 bit cast: the high bit must survive.
    g.seed = i64::MIN + 5;
    g.thread = Some(99);
    g.status = GameStatus::Lobby;
    g.seats = vec![
        seat(Some(1), "Ada", false),
        seat(None, "Bot Babbage", true),
        seat(Some(i64::MAX), "Grace", false),
    ];
    let id = store.create_game(&g).await.unwrap();
    let r = store.game(id).await.unwrap();
    assert_eq!(r.id, id);
    assert_eq!(r.kind, GameKind::Cortexcape);
    assert_eq!(
        r.options,
        GameOptions::from([("variant".into(), "basic".into())])
    );
    assert_eq!(r.seed, i64::MIN + 5);
    assert_eq!(r.state, r#"{"turn":0}"#);
    assert_eq!(r.version, Version(0));
    assert_eq!(r.status, GameStatus::Lobby);
    assert_eq!(
        (r.guild, r.channel, r.thread, r.host),
        (Some(11), Some(5), Some(99), None)
    );
    assert_eq!(r.clock_secs, Some(86_400));
    assert_eq!(r.policy, TimeoutPolicy::Bot);
    assert_eq!(r.lang, Some(Lang::Fr));
    assert_eq!(r.clock, TurnClock::default());
    assert!(r.seats.iter().all(|s| !s.vacant && s.final_rank.is_none()));
    assert_eq!((r.created_at, r.updated_at), (1_000, 1_000));
    let seats: Vec<_> = r
        .seats
        .iter()
        .map(|s| (s.seat, s.user, s.name.as_str(), s.is_bot, s.dm_status))
        .collect();
    assert_eq!(
        seats,
        vec![
            (Seat(0), Some(1), "Ada", false, DmStatus::Unknown),
            (Seat(1), None, "Bot Babbage", true, DmStatus::Unknown),
            (Seat(2), Some(i64::MAX), "Grace", false, DmStatus::Unknown),
        ]
    );
    assert_eq!(store.seats(id).await.unwrap(), r.seats);
    // Ids are distinct; an unknown id is NotFound.
    let other = store.create_game(&new_game(5, &[1])).await.unwrap();
    assert_ne!(other, id);
    let missing = GameId(other.0 + 1000);
    assert!(matches!(store.game(missing).await, Err(StoreError::NotFound(m)) if m == missing));
}

async fn concurrent_writers_one_wins(db: &Db) {
    // Two pools, as two processes would have (one for `sqlite::memory:` is not shared).
    let a = db.connect().await;
    let b = db.connect().await;
    let id = a.create_game(&new_game(5, &[1, 2])).await.unwrap();
    let v0 = Version(0);
    let ma = [mv(0, "move a", false)];
    let mb = [mv(0, "move b1", false), mv(0, "move b2", false)];
    let (ra, rb) = tokio::join!(
        a.record_moves(id, v0, &ma, "state-a", GameStatus::Active, 2_000),
        b.record_moves(id, v0, &mb, "state-b", GameStatus::Active, 2_000),
    );
    let (winner_state, winner_moves) = match (&ra, &rb) {
        (Ok(Version(1)), Err(StoreError::Conflict { expected, found })) => {
            assert_eq!((*expected, *found), (v0, Version(1)));
            ("state-a", vec!["move a"])
        }
        (Err(StoreError::Conflict { expected, found }), Ok(Version(1))) => {
            assert_eq!((*expected, *found), (v0, Version(1)));
            ("state-b", vec!["move b1", "move b2"])
        }
        other => panic!("expected one winner and one conflict, got {other:?}"),
    };
    let r = a.game(id).await.unwrap();
    assert_eq!((r.version, r.state.as_str()), (Version(1), winner_state));
    let moves: Vec<_> = b
        .moves(id)
        .await
        .unwrap()
        .into_iter()
        .map(|m| m.notation)
        .collect();
    assert_eq!(moves, winner_moves);
    // Every guarded write checks the version; an unknown game is NotFound.
    assert!(matches!(
        a.set_status(id, v0, GameStatus::Cancelled, 3_000).await,
        Err(StoreError::Conflict {
            expected: Version(0),
            found: Version(1)
        })
    ));
    assert!(matches!(
        a.undo_moves(id, Version(7), 1, "s", 3_000).await,
        Err(StoreError::Conflict {
            expected: Version(7),
            found: Version(1)
        })
    ));
    let missing = GameId(id.0 + 1000);
    assert!(matches!(
        a.record_moves(missing, v0, &ma, "s", GameStatus::Active, 3_000).await,
        Err(StoreError::NotFound(m)) if m == missing
    ));
    // Nothing the losers tried changed anything.
    assert_eq!(a.game(id).await.unwrap().status, GameStatus::Active);
    assert_eq!(a.moves(id).await.unwrap().len(), winner_moves.len());
}

async fn moves_keep_order_and_undo_marks_rows(db: &Db) {
    let store = db.connect().await;
    let id = store.create_game(&new_game(5, &[1, 2])).await.unwrap();
    let v1 = store
        .record_moves(
            id,
            Version(0),
            &[
                mv(0, "a1", false),
                NewMove {
                    revealed: true,
                    ..mv(0, "a2", true)
                },
                mv(0, "a3", true),
            ],
            "s1",
            GameStatus::Active,
            100,
        )
        .await
        .unwrap();
    let v2 = store
        .record_moves(
            id,
            v1,
            &[mv(1, "b1", false), mv(1, "b2", false)],
            "s2",
            GameStatus::Active,
            200,
        )
        .await
        .unwrap();
    assert_eq!((v1, v2), (Version(1), Version(2)));
    let live = |moves: Vec<croupier::store::MoveRecord>| -> Vec<(i64, u8, String, bool, i64)> {
        moves
            .into_iter()
            .map(|m| (m.seq, m.seat.0, m.notation, m.barrier, m.at))
            .collect()
    };
    let stored = store.moves(id).await.unwrap();
    // A reveal is stored apart from a barrier that only ended a turn (migration 0020).
    assert_eq!(
        stored
            .iter()
            .map(|m| (m.barrier, m.revealed))
            .collect::<Vec<_>>(),
        vec![
            (false, false),
            (true, true),
            (true, false),
            (false, false),
            (false, false)
        ]
    );
    assert_eq!(
        live(stored),
        vec![
            (1, 0, "a1".into(), false, 100),
            (2, 0, "a2".into(), true, 100),
            (3, 0, "a3".into(), true, 100),
            (4, 1, "b1".into(), false, 200),
            (5, 1, "b2".into(), false, 200),
        ]
    );
    let v3 = store.undo_moves(id, v2, 2, "s-undone", 300).await.unwrap();
    assert_eq!(v3, Version(3));
    let r = store.game(id).await.unwrap();
    assert_eq!((r.state.as_str(), r.updated_at), ("s-undone", 300));
    assert_eq!(
        live(store.moves(id).await.unwrap())
            .iter()
            .map(|m| m.0)
            .collect::<Vec<_>>(),
        vec![1, 2, 3]
    );
    // Undo never deletes: the rows are marked, and seq numbers are never reused.
    assert_eq!(
        db.raw_i64("SELECT COUNT(*) FROM moves WHERE undone_at = 300")
            .await,
        2
    );
    let v4 = store
        .record_moves(
            id,
            v3,
            &[mv(1, "b1'", false)],
            "s4",
            GameStatus::Active,
            400,
        )
        .await
        .unwrap();
    assert_eq!(
        live(store.moves(id).await.unwrap()).last(),
        Some(&(6, 1, "b1'".into(), false, 400))
    );
    // Asking to undo more than is live changes nothing.
    assert!(matches!(
        store.undo_moves(id, v4, 5, "bad", 500).await,
        Err(StoreError::Invalid(_))
    ));
    let r = store.game(id).await.unwrap();
    assert_eq!((r.version, r.state.as_str()), (v4, "s4"));
    assert_eq!(store.moves(id).await.unwrap().len(), 4);
    assert_eq!(db.raw_i64("SELECT COUNT(*) FROM moves").await, 6);
    // Games do not share logs.
    let other = store.create_game(&new_game(5, &[3])).await.unwrap();
    assert_eq!(store.moves(other).await.unwrap(), vec![]);
}

async fn status_changes_and_listings(db: &Db) {
    let store = db.connect().await;
    let mut lobby = new_game(5, &[1, 2]);
    lobby.status = GameStatus::Lobby;
    let g1 = store.create_game(&lobby).await.unwrap();
    let mut threaded = new_game(6, &[2, 3]);
    threaded.thread = Some(60);
    threaded.now = 2_000;
    let g2 = store.create_game(&threaded).await.unwrap();
    let g3 = store.create_game(&new_game(5, &[3])).await.unwrap();

    let v = store
        .set_status(g1, Version(0), GameStatus::Active, 3_000)
        .await
        .unwrap();
    assert_eq!(v, Version(1));
    let v = store
        .set_status(g1, v, GameStatus::Finished, 4_000)
        .await
        .unwrap();
    let r = store.game(g1).await.unwrap();
    assert_eq!(
        (r.status, r.version, r.updated_at),
        (GameStatus::Finished, v, 4_000)
    );
    assert_eq!(v, Version(2));

    let ids = |games: Vec<croupier::store::GameRecord>| -> Vec<GameId> {
        games.into_iter().map(|g| g.id).collect()
    };
    // Most recently changed first.
    assert_eq!(
        ids(store.games_by_status(GameStatus::Active, 10).await.unwrap()),
        vec![g2, g3]
    );
    assert_eq!(
        ids(store.games_by_status(GameStatus::Active, 1).await.unwrap()),
        vec![g2]
    );
    assert_eq!(
        ids(store
            .games_by_status(GameStatus::Finished, 10)
            .await
            .unwrap()),
        vec![g1]
    );
    assert_eq!(
        ids(store.games_by_status(GameStatus::Lobby, 10).await.unwrap()),
        vec![]
    );
    assert_eq!(
        ids(store.games_in_channel(5, None, 10).await.unwrap()),
        vec![g1, g3]
    );
    assert_eq!(
        ids(store
            .games_in_channel(5, Some(GameStatus::Active), 10)
            .await
            .unwrap()),
        vec![g3]
    );
    // A thread id finds the game played in that thread.
    assert_eq!(
        ids(store.games_in_channel(60, None, 10).await.unwrap()),
        vec![g2]
    );
    assert_eq!(
        ids(store.games_of_user(2, None, 10).await.unwrap()),
        vec![g1, g2]
    );
    assert_eq!(
        ids(store
            .games_of_user(2, Some(GameStatus::Active), 10)
            .await
            .unwrap()),
        vec![g2]
    );
    assert_eq!(
        ids(store.games_of_user(42, None, 10).await.unwrap()),
        vec![]
    );
    // Listings carry the seats, as `game` does.
    let listed = store.games_of_user(3, None, 10).await.unwrap();
    assert_eq!(listed.len(), 2);
    for g in listed {
        assert_eq!(g, store.game(g.id).await.unwrap());
    }
}

async fn seats_and_dm_status(db: &Db) {
    let store = db.connect().await;
    let g1 = store.create_game(&new_game(5, &[1, 2])).await.unwrap();
    let g2 = store.create_game(&new_game(5, &[2])).await.unwrap();
    let done = store.create_game(&new_game(5, &[2])).await.unwrap();
    store
        .set_status(done, Version(0), GameStatus::Finished, 2_000)
        .await
        .unwrap();

    // Replace seat 0 with a bot, then seat 0 of g2 with another user.
    store
        .set_seat_user(g1, Seat(0), None, "Bot", true)
        .await
        .unwrap();
    let seats = store.seats(g1).await.unwrap();
    assert_eq!(
        (seats[0].user, seats[0].name.as_str(), seats[0].is_bot),
        (None, "Bot", true)
    );
    assert_eq!((seats[1].user, seats[1].is_bot), (Some(2), false));
    // Replacing does not move the version: the engine state did not change.
    assert_eq!(store.game(g1).await.unwrap().version, Version(0));

    assert_eq!(store.set_dm_status(g1, 2, DmStatus::Open).await.unwrap(), 1);
    assert_eq!(store.seats(g1).await.unwrap()[1].dm_status, DmStatus::Open);
    assert_eq!(
        store.seats(g2).await.unwrap()[0].dm_status,
        DmStatus::Unknown
    );
    // Everywhere the user plays, but finished games keep their history.
    assert_eq!(
        store.set_user_dm_status(2, DmStatus::Closed).await.unwrap(),
        2
    );
    assert_eq!(
        store.seats(g1).await.unwrap()[1].dm_status,
        DmStatus::Closed
    );
    assert_eq!(
        store.seats(g2).await.unwrap()[0].dm_status,
        DmStatus::Closed
    );
    assert_eq!(
        store.seats(done).await.unwrap()[0].dm_status,
        DmStatus::Unknown
    );

    assert!(matches!(
        store.set_seat_user(g1, Seat(7), Some(9), "X", false).await,
        Err(StoreError::Invalid(_))
    ));
    let missing = GameId(done.0 + 1000);
    assert!(matches!(
        store.set_seat_user(missing, Seat(0), Some(9), "X", false).await,
        Err(StoreError::NotFound(m)) if m == missing
    ));
    assert_eq!(store.seats(missing).await.unwrap(), vec![]);
}

async fn jobs_lease_complete_cancel(db: &Db) {
    let store = db.connect().await;
    let g = store.create_game(&new_game(5, &[1])).await.unwrap();
    let job = |due_at, kind: &str, game| NewJob {
        due_at,
        kind: JobKind::parse(kind).unwrap(),
        game,
        user: None,
        payload: format!("{{\"due\":{due_at}}}"),
    };
    let late = store
        .schedule_job(&job(200, "remind", Some(g)))
        .await
        .unwrap();
    let early = store
        .schedule_job(&job(100, "deadline", Some(g)))
        .await
        .unwrap();
    let digest = store.schedule_job(&job(150, "digest", None)).await.unwrap();

    assert_eq!(
        store.claim_due_jobs(99, 10, "w1", 60).await.unwrap(),
        vec![]
    );
    let claimed = store.claim_due_jobs(150, 10, "w1", 60).await.unwrap();
    let got: Vec<_> = claimed
        .iter()
        .map(|j| (j.id, j.due_at, j.kind.as_str(), j.game, j.attempts))
        .collect();
    assert_eq!(
        got,
        vec![
            (early, 100, "deadline", Some(g), 1),
            (digest, 150, "digest", None, 1)
        ]
    );
    assert_eq!(claimed[0].payload, "{\"due\":100}");
    // Leased until 210: nobody else gets them, the later job is now due.
    let claimed = store.claim_due_jobs(209, 10, "w2", 60).await.unwrap();
    assert_eq!(claimed.iter().map(|j| j.id).collect::<Vec<_>>(), vec![late]);
    assert!(store.complete_job(digest).await.unwrap());
    assert!(!store.complete_job(digest).await.unwrap());
    // w1 died holding `early`: when its lease expires, it comes back.
    let claimed = store.claim_due_jobs(210, 10, "w2", 60).await.unwrap();
    let got: Vec<_> = claimed.iter().map(|j| (j.id, j.attempts)).collect();
    assert_eq!(got, vec![(early, 2)]);

    assert_eq!(
        store
            .jobs_for_game(g)
            .await
            .unwrap()
            .iter()
            .map(|j| j.id)
            .collect::<Vec<_>>(),
        vec![early, late]
    );
    assert_eq!(
        store
            .cancel_jobs_for_game(g, JobKind::Remind)
            .await
            .unwrap(),
        1
    );
    assert_eq!(
        store
            .cancel_jobs_for_game(g, JobKind::Remind)
            .await
            .unwrap(),
        0
    );
    assert_eq!(
        store
            .jobs_for_game(g)
            .await
            .unwrap()
            .iter()
            .map(|j| j.id)
            .collect::<Vec<_>>(),
        vec![early]
    );
    assert!(matches!(
        store.claim_due_jobs(1_000, 10, "w", 0).await,
        Err(StoreError::Invalid(_))
    ));
}

async fn jobs_claimed_once_by_concurrent_claimers(db: &Db) {
    // Two pools, as two processes would have.
    let a = db.connect().await;
    let b = db.connect().await;
    let mut all = BTreeSet::new();
    for i in 0..200 {
        let id = a
            .schedule_job(&NewJob {
                due_at: i % 7,
                kind: JobKind::Remind,
                game: None,
                user: None,
                payload: String::new(),
            })
            .await
            .unwrap();
        all.insert(id);
    }
    let drain = |store: Store, worker: &'static str, limit: u32| {
        tokio::spawn(async move {
            let mut got = Vec::new();
            loop {
                let jobs = store
                    .claim_due_jobs(100, limit, worker, 3_600)
                    .await
                    .unwrap();
                if jobs.is_empty() {
                    return got;
                }
                got.extend(jobs.into_iter().map(|j| (j.id, j.attempts)));
            }
        })
    };
    // Two claimers per pool, small batches: many chances to collide.
    let tasks = [
        drain(a.clone(), "a1", 1),
        drain(b.clone(), "b1", 1),
        drain(a.clone(), "a2", 3),
        drain(b.clone(), "b2", 3),
    ];
    let mut claimed: Vec<(i64, i64)> = Vec::new();
    for task in tasks {
        claimed.extend(task.await.unwrap());
    }
    let ids: BTreeSet<i64> = claimed.iter().map(|c| c.0).collect();
    assert_eq!(ids.len(), claimed.len(), "a job was claimed twice");
    assert_eq!(ids, all);
    assert!(claimed.iter().all(|c| c.1 == 1));
    assert_eq!(
        db.raw_i64("SELECT COUNT(*) FROM jobs WHERE attempts <> 1")
            .await,
        0
    );
}

async fn interactions_first_seen_once(db: &Db) {
    let store = db.connect().await;
    let id = 1_234_567_890_123_456_789;
    assert!(store.first_seen(id, 100).await.unwrap());
    assert!(!store.first_seen(id, 101).await.unwrap());
    assert!(store.first_seen(id + 1, 200).await.unwrap());
    // Concurrent duplicates: exactly one is first.
    let (x, y) = tokio::join!(store.first_seen(7, 300), store.first_seen(7, 300));
    assert_eq!([x.unwrap(), y.unwrap()].iter().filter(|f| **f).count(), 1);
    assert_eq!(store.forget_interactions_before(200).await.unwrap(), 1);
    assert!(store.first_seen(id, 400).await.unwrap());
    assert!(!store.first_seen(id + 1, 400).await.unwrap());
}

/// A server's language (`/settings server_language`): none until set, set, replaced, cleared;
/// one server's choice is not another's.
async fn a_servers_language_round_trip(db: &Db) {
    let store = db.connect().await;
    assert_eq!(store.guild_lang(7).await.unwrap(), None);
    store.set_guild_lang(7, Some(Lang::Fr), 100).await.unwrap();
    assert_eq!(store.guild_lang(7).await.unwrap(), Some(Lang::Fr));
    assert_eq!(store.guild_lang(8).await.unwrap(), None);
    store.set_guild_lang(7, Some(Lang::En), 200).await.unwrap();
    assert_eq!(store.guild_lang(7).await.unwrap(), Some(Lang::En));
    store.set_guild_lang(7, None, 300).await.unwrap();
    assert_eq!(store.guild_lang(7).await.unwrap(), None);
}

async fn user_settings_round_trip(db: &Db) {
    let store = db.connect().await;
    assert_eq!(
        store.user_settings(5).await.unwrap(),
        UserSettings::default()
    );
    assert!(UserSettings::default().dm_enabled);
    // Boards ping and hands come by DM unless the player turns them off.
    assert!(UserSettings::default().pings && UserSettings::default().hand_dms);
    let s = UserSettings {
        locale: Some("fr".into()),
        timezone: Some("Europe/Paris".into()),
        quiet_start: Some(22 * 60),
        quiet_end: Some(7 * 60 + 30),
        vacation_until: Some(1_900_000_000),
        dm_enabled: false,
        digest: true,
        pings: false,
        hand_dms: false,
        confirm_moves: true,
    };
    store.save_user_settings(5, &s, 100).await.unwrap();
    assert_eq!(store.user_settings(5).await.unwrap(), s);
    // Saving again replaces every field, including back to None.
    let back = UserSettings {
        locale: Some("en-GB".into()),
        ..UserSettings::default()
    };
    store.save_user_settings(5, &back, 200).await.unwrap();
    assert_eq!(store.user_settings(5).await.unwrap(), back);
    assert_eq!(
        store.user_settings(6).await.unwrap(),
        UserSettings::default()
    );
    let bad = UserSettings {
        quiet_end: Some(24 * 60),
        ..UserSettings::default()
    };
    assert!(matches!(
        store.save_user_settings(5, &bad, 300).await,
        Err(StoreError::Invalid(_))
    ));
    assert_eq!(store.user_settings(5).await.unwrap(), back);
}

async fn foreign_keys_are_enforced(db: &Db) {
    let store = db.connect().await;
    let job = NewJob {
        due_at: 1,
        kind: JobKind::Remind,
        game: Some(GameId(424_242)),
        user: None,
        payload: String::new(),
    };
    assert!(matches!(
        store.schedule_job(&job).await,
        Err(StoreError::Db(_))
    ));
}

/// A writer waits out another connection's write lock held past sqlx's 5 s default (the
/// store's `SQLITE_BUSY_TIMEOUT`) instead of failing with "database is locked": a burst of
/// clicks on a slow disk waits, it is not refused.
async fn a_write_waits_out_a_lock_held_longer_than_five_seconds(db: &Db) {
    let store = db.connect().await;
    let held = db.hold_writes().await;
    let release = async {
        tokio::time::sleep(std::time::Duration::from_secs(6)).await;
        held.release().await;
    };
    let game = new_game(5, &[1]);
    let (made, ()) = tokio::join!(store.create_game(&game), release);
    made.expect("the write waited for the lock");
}

/// A job of a kind this program does not know (a newer process on the same PostgreSQL wrote
/// it) is neither claimed nor listed, and stays for a program that can run it.
async fn jobs_of_an_unknown_kind_are_left_alone(db: &Db) {
    let store = db.connect().await;
    let g = store.create_game(&new_game(5, &[1])).await.unwrap();
    db.raw(&format!(
        "INSERT INTO jobs (due_at, kind, game, user_id, payload) VALUES (10, 'tournament', {g}, 77, '')"
    ))
    .await;
    let known = store
        .schedule_job(&NewJob {
            due_at: 20,
            kind: JobKind::Remind,
            game: Some(g),
            user: Some(77),
            payload: String::new(),
        })
        .await
        .unwrap();
    let claimed = store.claim_due_jobs(100, 10, "w1", 60).await.unwrap();
    assert_eq!(claimed.iter().map(|j| j.id).collect::<Vec<_>>(), [known]);
    assert_eq!(store.jobs_for_game(g).await.unwrap().len(), 1);
    assert_eq!(store.jobs_for_user(77).await.unwrap().len(), 1);
    assert!(store.complete_job(known).await.unwrap());
    assert_eq!(
        store.claim_due_jobs(200, 10, "w2", 60).await.unwrap(),
        vec![]
    );
    assert_eq!(store.job_queue(200).await.unwrap(), (1, 1), "still there");
}

async fn corrupt_rows_are_errors_not_panics(db: &Db) {
    let store = db.connect().await;
    let id = store.create_game(&new_game(5, &[1, 2])).await.unwrap();
    store
        .record_moves(
            id,
            Version(0),
            &[mv(0, "a", false)],
            "s",
            GameStatus::Active,
            10,
        )
        .await
        .unwrap();
    let corrupt = |r: Result<_, StoreError>| matches!(r, Err(StoreError::Corrupt(_)));

    db.raw(&format!(
        "UPDATE games SET status = 'paused' WHERE id = {id}"
    ))
    .await;
    assert!(corrupt(store.game(id).await.map(|_| ())));
    assert!(corrupt(
        store.games_in_channel(5, None, 10).await.map(|_| ())
    ));
    db.raw(&format!(
        "UPDATE games SET status = 'active', version = -1 WHERE id = {id}"
    ))
    .await;
    assert!(corrupt(store.game(id).await.map(|_| ())));
    // A guarded write that finds a corrupt version reports it too.
    assert!(corrupt(
        store
            .set_status(id, Version(1), GameStatus::Finished, 20)
            .await
            .map(|_| ())
    ));
    db.raw(&format!("UPDATE games SET version = 1 WHERE id = {id}"))
        .await;
    assert_eq!(store.game(id).await.unwrap().version, Version(1));

    // The typed words of a game: an unknown kind or options that are no JSON map are corrupt;
    // a language or a bot level reads as the service always read it.
    db.raw(&format!("UPDATE games SET kind = 'chess' WHERE id = {id}"))
        .await;
    assert!(corrupt(store.game(id).await.map(|_| ())));
    db.raw(&format!(
        "UPDATE games SET kind = 'cortexcape', options_json = '[1]' WHERE id = {id}"
    ))
    .await;
    assert!(corrupt(store.game(id).await.map(|_| ())));
    db.raw(&format!(
        "UPDATE games SET options_json = '{{}}', lang = 'fr-CA', bot_level = 'genius' \
         WHERE id = {id}"
    ))
    .await;
    let read = store.game(id).await.unwrap();
    assert_eq!(
        (read.lang, read.bot_level),
        (Some(Lang::Fr), croupier::ai::Level::Normal)
    );

    db.raw(&format!("UPDATE moves SET seat = 300 WHERE game = {id}"))
        .await;
    assert!(corrupt(store.moves(id).await.map(|_| ())));
    db.raw(&format!(
        "UPDATE moves SET seat = 0, barrier = 2 WHERE game = {id}"
    ))
    .await;
    assert!(corrupt(store.moves(id).await.map(|_| ())));

    db.raw(&format!(
        "UPDATE seats SET dm_status = 'maybe' WHERE game = {id}"
    ))
    .await;
    assert!(corrupt(store.seats(id).await.map(|_| ())));
    db.raw(&format!(
        "UPDATE seats SET dm_status = 'open', seat = 5 WHERE game = {id} AND seat = 1"
    ))
    .await;
    // A gap in seat numbers would map users to the wrong seats.
    assert!(corrupt(store.game(id).await.map(|_| ())));

    store
        .save_user_settings(8, &UserSettings::default(), 1)
        .await
        .unwrap();
    db.raw("UPDATE users SET quiet_start = 5000 WHERE id = 8")
        .await;
    assert!(corrupt(store.user_settings(8).await.map(|_| ())));

    if db.backend == Backend::Sqlite {
        // SQLite keeps any type in any column: text where a number belongs.
        let other = store.create_game(&new_game(6, &[1])).await.unwrap();
        db.raw(&format!("UPDATE games SET seed = 'abc' WHERE id = {other}"))
            .await;
        assert!(corrupt(store.game(other).await.map(|_| ())));
    }
}

/// `sqlite://` in a folder that does not exist yet: the folder and the file are created, in WAL
/// mode, and the data is still there after a reconnect.
#[tokio::test]
async fn sqlite_file_is_created_in_a_missing_folder() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("data").join("nested").join("croupier.db");
    assert!(!path.parent().unwrap().exists());
    let url = format!("sqlite://{}", path.display());
    let store = Store::connect(&url).await.unwrap();
    assert!(path.is_file());
    let id = store.create_game(&new_game(5, &[1])).await.unwrap();
    store.close().await;
    let again = Store::connect(&url).await.unwrap();
    assert_eq!(again.game(id).await.unwrap().seats.len(), 1);
    sqlx::any::install_default_drivers();
    let pool = sqlx::AnyPool::connect(&url).await.unwrap();
    let row = sqlx::query("PRAGMA journal_mode")
        .fetch_one(&pool)
        .await
        .unwrap();
    let mode: String = sqlx::Row::try_get(&row, 0).unwrap();
    assert_eq!(mode, "wal");
    pool.close().await;
    // The short form `sqlite:path` works the same.
    let short = dir.path().join("other").join("c.db");
    let store = Store::connect(&format!("sqlite:{}", short.display()))
        .await
        .unwrap();
    assert!(short.is_file());
    assert_eq!(store.backend(), Backend::Sqlite);
}

#[tokio::test]
async fn unknown_schemes_are_refused_without_leaking_passwords() {
    let err = Store::connect("mysql://root:hunter2@localhost/db")
        .await
        .unwrap_err();
    let text = err.to_string();
    assert!(matches!(err, StoreError::Connect { .. }), "{text}");
    assert!(!text.contains("hunter2"), "{text}");
    assert!(text.contains("mysql://root:***@localhost/db"), "{text}");
}
