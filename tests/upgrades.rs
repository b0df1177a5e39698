//! Upgrades: a database made by the previous release (commit 3aa3593, the Discord bot: schema
//! migrations 0001 and 0002, Cortexcape the only game) migrates forward when the store starts,
//! and its games stay playable; stored states of an older or unknown schema version fail with a
//! clear error, never a panic. SQLite always, PostgreSQL when `TEST_DATABASE_URL` is set.

#[macro_use]
#[allow(unused_macros)]
#[path = "support/store_db.rs"]
mod store_db;

use croupier::engine::{GameId, GameKind, GameOptions, Seat};
use croupier::i18n::Lang;
use croupier::service::{seed_to_i64, Actor, PlayLine, Player, Service, ServiceError};
use croupier::store::{Backend, GameStatus, MIGRATIONS_POSTGRES, MIGRATIONS_SQLITE};
use store_db::Db;

/// Migrations the previous release shipped (`git log -- migrations/`: 0003 came after it).
const OLD_RELEASE_MIGRATIONS: usize = 2;
const SEED: u64 = 2026;
const ALICE: i64 = 501;
const BOB: i64 = 502;

fn q(s: &str) -> String {
    format!("'{}'", s.replace('\'', "''"))
}

/// Builds the database as the previous release left it: its migrations with their history rows,
/// then rows as its store wrote them (no column a later migration added).
async fn old_release_database(db: &Db) -> (GameId, GameId, Vec<(Seat, String)>) {
    let migrations = match db.backend {
        Backend::Sqlite => MIGRATIONS_SQLITE,
        Backend::Postgres => MIGRATIONS_POSTGRES,
    };
    if let Some(path) = db.url.strip_prefix("sqlite://") {
        // The store creates its file; the old release's raw connection below does not.
        std::fs::File::create(path).unwrap();
    }
    db.raw(
        "CREATE TABLE schema_migrations (version BIGINT PRIMARY KEY, name TEXT NOT NULL, \
         applied_at BIGINT NOT NULL)",
    )
    .await;
    for m in &migrations[..OLD_RELEASE_MIGRATIONS] {
        db.raw(m.sql).await;
        db.raw(&format!(
            "INSERT INTO schema_migrations (version, name, applied_at) VALUES ({}, {}, 1)",
            m.version,
            q(m.name)
        ))
        .await;
    }
    // An active two-player Cortexcape game 30 options in (Cortexcape's state type has not
    // changed since that release, so today's engine writes the same snapshot it did).
    let mut game = GameKind::Cortexcape
        .setup(&GameOptions::new(), 2, SEED)
        .unwrap();
    let mut log = Vec::new();
    for i in 0..30 {
        let p = game.prompt().unwrap();
        let pick = p.options[i % p.options.len()].clone();
        let moved = game.apply_notation(p.seat, &pick).unwrap();
        log.push((p.seat, pick, moved.barrier));
    }
    db.raw(&format!(
        "INSERT INTO games (kind, options_json, seed, state, version, status, guild, channel, \
         thread, host, clock_secs, created_at, updated_at, max_seats) VALUES ('cortexcape', '{{}}', \
         {}, {}, {}, 'active', 1, 2, 3, {ALICE}, NULL, 10, 20, NULL)",
        seed_to_i64(SEED),
        q(&game.to_json()),
        log.len()
    ))
    .await;
    let active = GameId(db.raw_i64("SELECT MAX(id) FROM games").await);
    for (seat, user, name) in [(0, ALICE, "Alice"), (1, BOB, "Bob")] {
        db.raw(&format!(
            "INSERT INTO seats (game, seat, user_id, name, is_bot, dm_status) \
             VALUES ({}, {seat}, {user}, {}, 0, 'open')",
            active.0,
            q(name)
        ))
        .await;
    }
    for (i, (seat, notation, barrier)) in log.iter().enumerate() {
        db.raw(&format!(
            "INSERT INTO moves (game, seq, seat, notation, barrier, at, undone_at) \
             VALUES ({}, {}, {}, {}, {}, {}, NULL)",
            active.0,
            i + 1,
            seat.0,
            q(notation),
            i64::from(*barrier),
            100 + i
        ))
        .await;
    }
    // A lobby waiting for a second player: empty state, as that release stored lobbies.
    db.raw(&format!(
        "INSERT INTO games (kind, options_json, seed, state, version, status, guild, channel, \
         thread, host, clock_secs, created_at, updated_at, max_seats) VALUES ('cortexcape', \
         '{{\"short\":\"true\"}}', 77, '', 0, 'lobby', 1, 2, NULL, {ALICE}, NULL, 30, 30, 3)"
    ))
    .await;
    let lobby = GameId(db.raw_i64("SELECT MAX(id) FROM games").await);
    db.raw(&format!(
        "INSERT INTO seats (game, seat, user_id, name, is_bot, dm_status) \
         VALUES ({}, 0, {ALICE}, 'Alice', 0, 'unknown')",
        lobby.0
    ))
    .await;
    let log = log.into_iter().map(|(s, n, _)| (s, n)).collect();
    (active, lobby, log)
}

async fn previous_release_database_migrates_and_plays_on(db: &Db) {
    let (active, lobby, log) = old_release_database(db).await;
    let store = db.connect().await;
    let latest = match db.backend {
        Backend::Sqlite => MIGRATIONS_SQLITE.len(),
        Backend::Postgres => MIGRATIONS_POSTGRES.len(),
    };
    assert_eq!(
        db.raw_i64("SELECT COUNT(*) FROM schema_migrations").await,
        latest as i64,
        "the missing migrations were applied"
    );
    // Boards of the old release count as posted: the upgrade posts no old board again.
    assert_eq!(store.unposted_boards(i64::MAX, 10).await.unwrap(), vec![]);
    let svc = Service::new(store);
    // The old game: replay from seed + the old move rows equals its old snapshot.
    let loaded = svc.load(active).await.unwrap();
    assert_eq!(
        svc.replay(active).await.unwrap().to_json(),
        loaded.game.to_json()
    );
    assert_eq!(svc.store().moves(active).await.unwrap().len(), log.len());
    // ... and it plays to the end through the service, by the right users only.
    let mut moves = 0;
    loop {
        let game = svc.load(active).await.unwrap().game;
        let Some(p) = game.prompt() else { break };
        let user = if p.seat == Seat(0) { ALICE } else { BOB };
        let wrong = if user == ALICE { BOB } else { ALICE };
        let line = |actor| PlayLine {
            game: active,
            actor: Actor::User(actor),
            line: p.options[moves % p.options.len()].clone(),
            seen: None,
        };
        assert!(svc.play(line(wrong), Lang::En, 1_000).await.is_err());
        svc.play(line(user), Lang::En, 1_000).await.unwrap();
        moves += 1;
        assert!(moves < 2_000, "the upgraded game does not end");
    }
    assert_eq!(
        svc.load(active).await.unwrap().record.status,
        GameStatus::Finished
    );
    // The old lobby takes a player and starts with its stored seed and options.
    svc.join(
        lobby,
        Player {
            user: Some(BOB),
            name: "Bob".into(),
            is_bot: false,
        },
        2_000,
    )
    .await
    .unwrap();
    let started = svc
        .start_lobby(lobby, ALICE, false, Lang::Fr, 2_001)
        .await
        .unwrap();
    assert!(started.board.prompt.is_some());
    let expected = GameKind::Cortexcape
        .setup(&[("short".to_string(), "true".to_string())].into(), 2, 77)
        .unwrap();
    assert_eq!(
        svc.load(lobby).await.unwrap().game.to_json(),
        expected.to_json()
    );
}

on_backends!(previous_release_database_migrates_and_plays_on);

/// States written under another schema version, or damaged: the service answers with a clear
/// error that is not the user's fault (logged, apology shown), and changes nothing.
async fn unknown_schema_states_fail_clearly(db: &Db) {
    let store = db.connect().await;
    let svc = Service::new(store);
    let (id, _) = svc
        .start(
            croupier::service::StartGame {
                kind: GameKind::Cortexcape,
                options: GameOptions::new(),
                players: [ALICE, BOB]
                    .iter()
                    .map(|u| Player {
                        user: Some(*u),
                        name: format!("u{u}"),
                        is_bot: false,
                    })
                    .collect(),
                seed: 5,
                place: Default::default(),
                host: Some(ALICE),
                clock_secs: None,
            },
            Lang::En,
            1,
        )
        .await
        .unwrap();
    let good = svc.load(id).await.unwrap().game.to_json();
    let cases = [
        (good.replacen("\"schema\":1", "\"schema\":0", 1), "schema 0"),
        (good.replacen("\"schema\":1", "\"schema\":7", 1), "schema 7"),
        (
            good.replacen("\"kind\":\"cortexcape\"", "\"kind\":\"chess\"", 1),
            "unknown game kind",
        ),
        (good[..good.len() / 2].to_string(), "corrupt"),
        (String::new(), "corrupt"),
    ];
    for (state, expect) in cases {
        db.raw(&format!(
            "UPDATE games SET state = {} WHERE id = {}",
            q(&state),
            id.0
        ))
        .await;
        let e = match svc.load(id).await {
            Ok(_) => panic!("{expect}: loaded"),
            Err(e) => e,
        };
        assert!(matches!(e, ServiceError::Load { .. }), "{expect}: {e}");
        assert!(e.to_string().contains(expect), "{expect}: {e}");
        assert!(!e.is_user_error());
        let p = svc
            .play(
                PlayLine {
                    game: id,
                    actor: Actor::User(ALICE),
                    line: "pass".into(),
                    seen: None,
                },
                Lang::En,
                2,
            )
            .await
            .map(|_| ())
            .unwrap_err();
        assert!(matches!(p, ServiceError::Load { .. }), "{expect}: {p}");
        assert_eq!(svc.store().moves(id).await.unwrap().len(), 0, "{expect}");
    }
}

on_backends!(unknown_schema_states_fail_clearly);
