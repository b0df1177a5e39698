//! The service layer over a real store: SQLite always, PostgreSQL when TEST_DATABASE_URL is set.

use crate::store_db::backends;
use croupier::engine::{GameKind, GameOptions, PlayError, Seat};
use croupier::i18n::Lang;
use croupier::service::{
    Actor, Place, PlayLine, Player, Service, ServiceError, StartGame, UndoScope,
};

fn players(n: usize) -> Vec<Player> {
    (0..n)
        .map(|i| Player {
            user: Some(1000 + i as i64),
            name: format!("P{}", i + 1),
            is_bot: false,
        })
        .collect()
}

fn start(seed: u64, n: usize) -> StartGame {
    StartGame {
        kind: GameKind::Cortexcape,
        options: GameOptions::new(),
        players: players(n),
        seed,
        place: Place::default(),
        host: Some(1000),
        clock_secs: None,
    }
}

fn line(game: croupier::engine::GameId, user: i64, text: &str) -> PlayLine {
    PlayLine {
        game,
        actor: Actor::User(user),
        line: text.into(),
        seen: None,
    }
}

#[tokio::test]
async fn moves_are_stored_and_replay_equals_the_snapshot() {
    for (backend, store, _dir) in backends().await {
        let svc = Service::new(store);
        let (id, first) = svc
            .lobbies()
            .start(start(11, 3), Lang::En, 1)
            .await
            .unwrap();
        assert!(!first.board.png.is_empty(), "{backend}");
        let mut out = first;
        for i in 0..60 {
            let Some(p) = out.board.prompt.clone() else {
                break;
            };
            let user = 1000 + i64::from(p.seat.0);
            let pick = p.options[i % p.options.len()].clone();
            out = svc
                .moves()
                .play(line(id, user, &pick), Lang::En, 2)
                .await
                .unwrap();
        }
        let loaded = svc.load(id).await.unwrap();
        let replayed = svc.records().replay(id).await.unwrap();
        assert_eq!(
            replayed.to_json(),
            loaded.game.to_json(),
            "{backend}: replay"
        );
        assert_eq!(loaded.record.version, out.board.version, "{backend}");
    }
}

#[tokio::test]
async fn refused_input_changes_nothing_and_says_why() {
    for (backend, store, _dir) in backends().await {
        let svc = Service::new(store);
        let (id, out) = svc.lobbies().start(start(3, 2), Lang::En, 1).await.unwrap();
        let p = out.board.prompt.clone().unwrap();
        let other = 1000 + i64::from((p.seat.0 + 1) % 2);
        let before = svc.load(id).await.unwrap();
        // Wrong seat.
        let err = svc
            .moves()
            .play(line(id, other, &p.options[0]), Lang::En, 2)
            .await
            .unwrap_err();
        assert!(
            matches!(err, ServiceError::Play(PlayError::NotYourTurn { .. })),
            "{backend}: {err}"
        );
        // A stranger.
        let err = svc
            .moves()
            .play(line(id, 42, &p.options[0]), Lang::En, 2)
            .await
            .unwrap_err();
        assert!(matches!(err, ServiceError::NotSeated), "{backend}");
        assert!(err.is_user_error());
        // Garbage.
        let me = 1000 + i64::from(p.seat.0);
        let err = svc
            .moves()
            .play(line(id, me, "fly away"), Lang::Fr, 2)
            .await
            .unwrap_err();
        assert!(
            matches!(err, ServiceError::Play(PlayError::Parse { .. })),
            "{backend}"
        );
        // A click on an old board.
        let mut stale = line(id, me, &p.options[0]);
        stale.seen = Some(croupier::engine::Version(before.record.version.0 + 5));
        let err = svc.moves().play(stale, Lang::En, 2).await.unwrap_err();
        assert!(
            matches!(err, ServiceError::Play(PlayError::Stale { .. })),
            "{backend}"
        );
        let after = svc.load(id).await.unwrap();
        assert_eq!(after.record.version, before.record.version, "{backend}");
        assert_eq!(after.game.to_json(), before.game.to_json(), "{backend}");
    }
}

#[tokio::test]
async fn undo_takes_back_own_options_only() {
    for (backend, store, _dir) in backends().await {
        let svc = Service::new(store);
        let (id, out) = svc.lobbies().start(start(5, 2), Lang::En, 1).await.unwrap();
        let p = out.board.prompt.clone().unwrap();
        let me = 1000 + i64::from(p.seat.0);
        let before = svc.load(id).await.unwrap().game.to_json();
        // Nothing to undo yet.
        assert!(svc
            .moves()
            .undo(id, Actor::User(me), UndoScope::Last, Lang::En, 2)
            .await
            .is_err());
        // Two non-barrier options (the first `put` choices of the configure step).
        let first = p
            .options
            .iter()
            .find(|o| o.starts_with("put"))
            .unwrap()
            .clone();
        let out = svc
            .moves()
            .play(line(id, me, &first), Lang::En, 2)
            .await
            .unwrap();
        let second = out
            .board
            .prompt
            .unwrap()
            .options
            .iter()
            .find(|o| o.starts_with("put"))
            .unwrap()
            .clone();
        svc.moves()
            .play(line(id, me, &second), Lang::En, 2)
            .await
            .unwrap();
        // The other seat may not undo them.
        let other = 1000 + i64::from((p.seat.0 + 1) % 2);
        assert!(svc
            .moves()
            .undo(id, Actor::User(other), UndoScope::Last, Lang::En, 3)
            .await
            .is_err());
        let undone = svc
            .moves()
            .undo(id, Actor::User(me), UndoScope::ToBarrier, Lang::En, 3)
            .await
            .unwrap();
        assert_eq!(undone.board.prompt.unwrap().options, p.options, "{backend}");
        assert_eq!(
            svc.load(id).await.unwrap().game.to_json(),
            before,
            "{backend}"
        );
        assert!(
            svc.store().moves(id).await.unwrap().is_empty(),
            "{backend}: undone moves are not live"
        );
        // `random` is a barrier: it cannot be undone.
        svc.moves()
            .play(line(id, me, "random"), Lang::En, 4)
            .await
            .unwrap();
        let err = svc
            .moves()
            .undo(id, Actor::User(me), UndoScope::Last, Lang::En, 5)
            .await
            .unwrap_err();
        assert!(
            matches!(err, ServiceError::Play(PlayError::CannotUndo { .. })),
            "{backend}"
        );
        let replayed = svc.records().replay(id).await.unwrap();
        assert_eq!(
            replayed.to_json(),
            svc.load(id).await.unwrap().game.to_json(),
            "{backend}"
        );
    }
}

#[tokio::test]
async fn two_writers_one_wins() {
    for (backend, store, _dir) in backends().await {
        let svc = Service::new(store);
        let (id, out) = svc.lobbies().start(start(8, 2), Lang::En, 1).await.unwrap();
        let p = out.board.prompt.clone().unwrap();
        let me = 1000 + i64::from(p.seat.0);
        let seen = Some(out.board.version);
        let a = PlayLine {
            seen,
            ..line(id, me, &p.options[0])
        };
        let b = PlayLine {
            seen,
            ..line(id, me, &p.options[1])
        };
        let (ra, rb) = tokio::join!(
            svc.moves().play(a, Lang::En, 2),
            svc.moves().play(b, Lang::En, 2)
        );
        let wins = [ra.is_ok(), rb.is_ok()].iter().filter(|x| **x).count();
        assert_eq!(wins, 1, "{backend}: exactly one writer lands");
        let loser = match (ra, rb) {
            (Ok(_), Err(e)) | (Err(e), Ok(_)) => e,
            _ => unreachable!("exactly one landed"),
        };
        assert!(
            matches!(loser, ServiceError::Play(PlayError::Stale { .. })),
            "{backend}: {loser}"
        );
        assert_eq!(svc.store().moves(id).await.unwrap().len(), 1, "{backend}");
        let _ = Seat(0);
    }
}

/// Hidden hands are DMed only to the seats whose private view changed, after every kind of
/// change (a hidden-hand game played at random through the service).
#[tokio::test]
async fn private_posts_go_only_to_seats_whose_hand_changed() {
    for (name, store, _dir) in backends().await {
        let svc = Service::new(store);
        let mut cmd = start(77, 3);
        cmd.kind = GameKind::Gates;
        let (game, first) = svc.lobbies().start(cmd, Lang::En, 0).await.unwrap();
        assert!(first.hands, "{name}: Gates has hidden hands");
        let mut quiet = 0;
        for step in 0..60u64 {
            let before = svc.load(game).await.unwrap();
            let Some(prompt) = before.game.prompt() else {
                break;
            };
            let pick = prompt.options[(step as usize * 7) % prompt.options.len()].clone();
            let out = svc
                .moves()
                .play(
                    PlayLine {
                        game,
                        actor: Actor::Seat(prompt.seat),
                        line: pick,
                        seen: None,
                    },
                    Lang::En,
                    step as i64,
                )
                .await
                .unwrap();
            let after = svc.load(game).await.unwrap();
            let changed: Vec<Seat> = (0..3u8)
                .map(Seat)
                .filter(|&s| before.game.private_view_json(s) != after.game.private_view_json(s))
                .collect();
            let sent: Vec<Seat> = out.private.iter().map(|p| p.seat).collect();
            assert_eq!(sent, changed, "{name}: step {step}");
            assert!(out.hands);
            if sent.is_empty() {
                quiet += 1;
            }
        }
        assert!(
            quiet > 0,
            "{name}: some options change no hand and send nothing"
        );
    }
}

#[tokio::test]
async fn the_first_board_tells_how_the_game_was_set_up() {
    for (name, store, _dir) in backends().await {
        let svc = Service::new(store);
        let mut cmd = start(5, 2);
        cmd.kind = GameKind::SpaceLab;
        let (_, first) = svc.lobbies().start(cmd, Lang::En, 0).await.unwrap();
        assert_eq!(
            first.board.events.len(),
            2,
            "{name}: {:?}",
            first.board.events
        );
        assert!(
            first.board.events[0].starts_with("Space Lab for 2 players: P"),
            "{name}: {:?}",
            first.board.events
        );
        assert!(
            first.board.events[1].starts_with("Objective tiles dealt face up: "),
            "{name}: {:?}",
            first.board.events
        );
        assert!(first.board.text.contains("Objective tiles dealt"), "{name}");
        let mut cmd = start(5, 2);
        cmd.kind = GameKind::Gates;
        let (_, first) = svc.lobbies().start(cmd, Lang::Fr, 0).await.unwrap();
        assert_eq!(
            first.board.events.len(),
            1,
            "{name}: {:?}",
            first.board.events
        );
        // Cortexcape announces its first round like the later ones (issue 38).
        let (_, first) = svc.lobbies().start(start(5, 2), Lang::En, 0).await.unwrap();
        assert_eq!(
            first.board.events.len(),
            1,
            "{name}: {:?}",
            first.board.events
        );
        assert!(
            first.board.events[0].starts_with("Round 1: "),
            "{name}: {:?}",
            first.board.events
        );
        // Vortex's first board says who plays first and with how many actions.
        let mut cmd = start(5, 2);
        cmd.kind = GameKind::Vortex;
        let (_, first) = svc.lobbies().start(cmd, Lang::En, 0).await.unwrap();
        assert_eq!(
            first.board.events.len(),
            1,
            "{name}: {:?}",
            first.board.events
        );
        assert!(
            first.board.events[0].contains(" plays, 1 action this turn"),
            "{name}: {:?}",
            first.board.events
        );
    }
}
