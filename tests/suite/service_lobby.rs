//! The service's lobby and game-life commands over a real store: SQLite always, PostgreSQL when
//! TEST_DATABASE_URL is set. These are what the Discord bot calls; the bot itself only decodes
//! interactions and sends what these return.

use crate::store_db::backends;
use croupier::engine::{GameId, GameKind, GameOptions, PlayError, SetupError, Version};
use croupier::i18n::Lang;
use croupier::service::{
    Actor, LobbyError, OpenLobby, Place, PlayLine, Player, Service, ServiceError, UndoScope,
};
use croupier::store::{DmStatus, GameStatus, TimeoutPolicy};

fn player(user: i64) -> Player {
    Player {
        user: Some(user),
        name: format!("P{user}"),
        is_bot: false,
    }
}

/// A fresh channel id per call, so PostgreSQL runs (which share one database) never mix.
fn channel() -> i64 {
    use std::sync::atomic::{AtomicI64, Ordering};
    static NEXT: AtomicI64 = AtomicI64::new(0);
    let pid = i64::from(std::process::id());
    (pid << 20) + NEXT.fetch_add(1, Ordering::Relaxed)
}

fn open(host: i64, channel: i64, max: Option<usize>) -> OpenLobby {
    OpenLobby {
        kind: GameKind::Cortexcape,
        options: GameOptions::new(),
        host: player(host),
        max_players: max,
        seed: 42,
        place: Place {
            guild: Some(1),
            channel: Some(channel),
            thread: None,
        },
        clock_secs: None,
        policy: TimeoutPolicy::Skip,
        lang: Lang::En,
        rated: true,
        min_reliable: None,
        invited: Vec::new(),
        invite_only: false,
    }
}

fn lobby_err(r: Result<impl std::fmt::Debug, ServiceError>) -> LobbyError {
    match r {
        Err(ServiceError::Lobby(e)) => e,
        other => panic!("expected a lobby error, got {other:?}"),
    }
}

/// A game keeps the language its lobby chose (issue 38): whoever starts it or plays, and
/// whatever language their click comes in, its public posts stay in it.
#[tokio::test]
async fn a_game_speaks_the_language_its_lobby_chose() {
    for (backend, store, _dir) in backends().await {
        let svc = Service::new(store);
        // A host of its own: hosts' open lobbies are counted across the shared database.
        let host = 9_001;
        let lobby = OpenLobby {
            lang: Lang::Fr,
            ..open(host, channel(), None)
        };
        let view = svc.lobbies().open_lobby(lobby, 10).await.unwrap();
        assert_eq!(view.lang, Lang::Fr, "{backend}");
        assert!(view.text(Lang::Fr).contains("Langue : français"));
        let g = view.game;
        let view = svc.lobbies().add_bot(g, host, false, 11).await.unwrap();
        assert_eq!(view.seats[1].name, "🤖 Robot 1", "{backend}");
        svc.lobbies().remove_bot(g, host, false, 11).await.unwrap();
        let view = svc.lobbies().join(g, player(2), 12).await.unwrap();
        // Started by a moderator whose client is in English: the first board is French.
        let out = svc
            .lobbies()
            .start_lobby(g, 77, true, Lang::En, 13)
            .await
            .unwrap();
        assert_eq!(out.lang, Lang::Fr, "{backend}");
        let turn = svc.boards().show(g, Lang::Fr).await.unwrap().board.text;
        assert_ne!(
            turn,
            svc.boards().show(g, Lang::En).await.unwrap().board.text
        );
        assert!(out.board.text.ends_with(&turn), "{}", out.board.text);
        // A click from an English client: still French.
        let prompt = out.board.prompt.clone().expect("a prompt");
        let mover = view.seats[prompt.seat.index()].user.expect("a member");
        let out = svc
            .moves()
            .choose(g, mover, out.board.version, 0, Lang::En, 14)
            .await
            .unwrap();
        assert_eq!(out.lang, Lang::Fr, "{backend}");
        let turn = svc.boards().show(g, Lang::Fr).await.unwrap().board.text;
        assert!(out.board.text.ends_with(&turn), "{}", out.board.text);
    }
}

#[tokio::test]
async fn lobby_fills_and_only_the_host_or_a_moderator_starts() {
    for (backend, store, _dir) in backends().await {
        let svc = Service::new(store);
        let ch = channel();
        let view = svc
            .lobbies()
            .open_lobby(open(1, ch, Some(3)), 10)
            .await
            .unwrap();
        assert_eq!((view.min, view.max), (2, 3), "{backend}");
        assert_eq!(view.status, GameStatus::Lobby);
        assert_eq!(view.seats.len(), 1);
        let g = view.game;
        // The host's reliability shows beside them (this database is shared by the tests,
        // so their record is read rather than assumed).
        assert_eq!(view.records.len(), 1);
        let figure = croupier::service::figure_text(&view.records[0].1, Lang::En);
        assert_eq!(
            view.text(Lang::En),
            format!(
                "🎲 **Cortexcape**: game {} is looking for players\n⚙️ Rules: standard\n\
                 🗣️ Language: English (another one: `lang:` at `/play`)\n\
                 Players 1/3 (at least 2):\n\
                 1. <@1> · {figure} (host)\nPress Join to take a seat. The host can start once \
                 2 players are seated.",
                g.0
            )
        );
        // A lobby has no board yet.
        assert!(matches!(
            svc.boards().show(g, Lang::En).await,
            Err(ServiceError::Lobby(LobbyError::NotStarted(id))) if id == g
        ));
        assert_eq!(
            lobby_err(svc.lobbies().start_lobby(g, 1, false, Lang::En, 11).await),
            LobbyError::TooFew { min: 2, found: 1 }
        );
        svc.lobbies().join(g, player(2), 12).await.unwrap();
        assert_eq!(
            lobby_err(svc.lobbies().join(g, player(2), 12).await),
            LobbyError::AlreadySeated
        );
        let view = svc.lobbies().join(g, player(3), 13).await.unwrap();
        assert!(view.can_start());
        assert_eq!(
            lobby_err(svc.lobbies().join(g, player(4), 14).await),
            LobbyError::Full { max: 3 }
        );
        assert_eq!(
            lobby_err(svc.lobbies().leave(g, 1, 14).await),
            LobbyError::HostLeaves
        );
        assert_eq!(
            lobby_err(svc.lobbies().leave(g, 9, 14).await),
            LobbyError::NotSeated
        );
        let view = svc.lobbies().leave(g, 3, 15).await.unwrap();
        let seated: Vec<Option<i64>> = view.seats.iter().map(|s| s.user).collect();
        assert_eq!(seated, vec![Some(1), Some(2)]);
        // A seated non-host cannot start; a moderator who is not seated can.
        assert_eq!(
            lobby_err(svc.lobbies().start_lobby(g, 2, false, Lang::En, 16).await),
            LobbyError::NotHost
        );
        let out = svc
            .lobbies()
            .start_lobby(g, 77, true, Lang::En, 17)
            .await
            .unwrap();
        let prompt = out.board.prompt.clone().expect("a prompt at the start");
        let first = view.seats[prompt.seat.index()].user;
        assert_eq!(out.board.mention, first, "{backend}");
        assert!(!out.board.png.is_empty());
        assert_eq!(
            lobby_err(svc.lobbies().join(g, player(5), 18).await),
            LobbyError::NotLobby(g)
        );
        assert_eq!(
            lobby_err(svc.lobbies().start_lobby(g, 1, false, Lang::En, 18).await),
            LobbyError::NotLobby(g)
        );
        assert_eq!(
            svc.lobbies().lobby(g).await.unwrap().status,
            GameStatus::Active
        );
    }
}

#[tokio::test]
async fn bad_options_and_seat_caps_are_refused_at_open() {
    for (backend, store, _dir) in backends().await {
        let svc = Service::new(store);
        let mut cmd = open(1, channel(), None);
        cmd.options.insert("colour".into(), "red".into());
        assert!(
            matches!(
                svc.lobbies().open_lobby(cmd, 1).await,
                Err(ServiceError::Setup(SetupError::UnknownOption { ref key, .. })) if key == "colour"
            ),
            "{backend}"
        );
        assert!(matches!(
            svc.lobbies()
                .open_lobby(open(1, channel(), Some(5)), 1)
                .await,
            Err(ServiceError::Setup(SetupError::SeatCount { found: 5, .. }))
        ));
        let view = svc
            .lobbies()
            .open_lobby(open(1, channel(), None), 1)
            .await
            .unwrap();
        assert_eq!(view.max, 4, "no cap: the game's maximum");
    }
}

#[tokio::test]
async fn cancel_needs_the_host_or_a_moderator() {
    for (backend, store, _dir) in backends().await {
        let svc = Service::new(store);
        let g = svc
            .lobbies()
            .open_lobby(open(1, channel(), None), 1)
            .await
            .unwrap()
            .game;
        svc.lobbies().join(g, player(2), 2).await.unwrap();
        assert_eq!(
            lobby_err(svc.lobbies().cancel(g, 2, false, 3).await),
            LobbyError::NotHost,
            "{backend}"
        );
        let view = svc.lobbies().cancel(g, 2, true, 4).await.unwrap();
        assert_eq!(view.status, GameStatus::Cancelled);
        assert!(matches!(
            svc.lobbies().cancel(g, 1, false, 5).await,
            Err(ServiceError::NotActive(id)) if id == g
        ));
        assert_eq!(
            lobby_err(svc.lobbies().join(g, player(3), 6).await),
            LobbyError::NotLobby(g)
        );
    }
}

/// A started two-player game in a fresh channel: (game, channel).
async fn started(svc: &Service) -> (GameId, i64) {
    let ch = channel();
    let g = svc
        .lobbies()
        .open_lobby(open(1, ch, None), 1)
        .await
        .unwrap()
        .game;
    svc.lobbies().join(g, player(2), 2).await.unwrap();
    svc.lobbies()
        .start_lobby(g, 1, false, Lang::En, 3)
        .await
        .unwrap();
    (g, ch)
}

/// The user whose turn it is, and the other one.
async fn turn(svc: &Service, g: GameId) -> (i64, i64, Version) {
    let out = svc.boards().show(g, Lang::En).await.unwrap();
    let mover = out.board.mention.expect("someone must decide");
    (mover, if mover == 1 { 2 } else { 1 }, out.board.version)
}

#[tokio::test]
async fn clicks_check_version_turn_and_index() {
    for (backend, store, _dir) in backends().await {
        let svc = Service::new(store);
        let (g, _) = started(&svc).await;
        let (mover, other, v) = turn(&svc, g).await;
        assert!(
            matches!(
                svc.moves().choose(g, other, v, 0, Lang::En, 4).await,
                Err(ServiceError::Play(PlayError::NotYourTurn { .. }))
            ),
            "{backend}"
        );
        assert!(matches!(
            svc.moves().choose(g, mover, Version(v.0 + 7), 0, Lang::En, 4).await,
            Err(ServiceError::Play(PlayError::Stale { expected, found }))
                if expected == Version(v.0 + 7) && found == v
        ));
        assert_eq!(
            lobby_err(svc.moves().choose(g, mover, v, 10_000, Lang::En, 4).await),
            LobbyError::NoSuchChoice
        );
        assert!(matches!(
            svc.moves().choose(g, 99, v, 0, Lang::En, 4).await,
            Err(ServiceError::NotSeated)
        ));
        let out = svc
            .moves()
            .choose(g, mover, v, 0, Lang::En, 5)
            .await
            .unwrap();
        assert_eq!(out.board.version, v.next());
        // The same click again is now on an old board.
        assert!(matches!(
            svc.moves().choose(g, mover, v, 0, Lang::En, 6).await,
            Err(ServiceError::Play(PlayError::Stale { .. }))
        ));
    }
}

#[tokio::test]
async fn history_choices_games_and_resign() {
    for (backend, store, _dir) in backends().await {
        let svc = Service::new(store);
        let (g, ch) = started(&svc).await;
        assert!(svc
            .records()
            .history(g, None, Lang::En)
            .await
            .unwrap()
            .is_empty());
        let (mover, other, v) = turn(&svc, g).await;
        let offered = svc.moves().choices(g, mover, "").await.unwrap();
        assert_eq!(offered.version, v, "{backend}");
        let all = offered.options;
        assert!(!all.is_empty(), "{backend}");
        assert!(svc
            .moves()
            .choices(g, other, "")
            .await
            .unwrap()
            .options
            .is_empty());
        let first = all[0].clone();
        let typed = first.split_whitespace().next().unwrap_or("");
        let filtered = svc.moves().choices(g, mover, typed).await.unwrap().options;
        assert!(filtered.contains(&first));
        assert!(filtered.iter().all(|o| o.contains(typed)));
        svc.moves()
            .choose(g, mover, v, 0, Lang::En, 5)
            .await
            .unwrap();
        let lines = svc.records().history(g, None, Lang::En).await.unwrap();
        assert_eq!(lines, vec![format!("1. P{mover}: {first}")]);
        // /games: this game, with whose turn it is.
        let (now_mover, now_other, _) = turn(&svc, g).await;
        let mine = svc.find().games_of_user(now_mover, 10).await.unwrap();
        let line = mine.iter().find(|l| l.game == g).unwrap();
        assert!(line.your_turn);
        assert_eq!(line.place, Some(ch));
        let theirs = svc.find().games_of_user(now_other, 10).await.unwrap();
        assert!(!theirs.iter().find(|l| l.game == g).unwrap().your_turn);
        // Cortexcape hides nothing: no hand to show.
        assert!(svc.moves().hand(g, 1, Lang::En).await.unwrap().is_none());
        assert!(matches!(
            svc.moves().hand(g, 99, Lang::En).await,
            Err(ServiceError::NotSeated)
        ));
        // Resigning ends the game for everyone.
        let r = svc.moves().resign(g, 2, Lang::En, 9).await.unwrap();
        assert_eq!(r.text, format!("🏳️ P2 resigned: game {} is over.", g.0));
        assert_eq!(
            svc.lobbies().lobby(g).await.unwrap().status,
            GameStatus::Finished
        );
        assert!(matches!(
            svc.moves().resign(g, 1, Lang::En, 10).await,
            Err(ServiceError::NotActive(_))
        ));
        assert!(matches!(
            svc.moves()
                .undo(g, Actor::User(1), UndoScope::Last, Lang::En, 10)
                .await,
            Err(ServiceError::NotActive(_))
        ));
    }
}

#[tokio::test]
async fn the_game_here_is_the_threads_or_the_users_only_one() {
    for (backend, store, _dir) in backends().await {
        let svc = Service::new(store);
        let ch = channel();
        let a = svc
            .lobbies()
            .open_lobby(open(1, ch, None), 1)
            .await
            .unwrap()
            .game;
        assert_eq!(svc.find().game_here(ch, 1).await.unwrap(), a, "{backend}");
        let b = svc
            .lobbies()
            .open_lobby(open(3, ch, None), 1)
            .await
            .unwrap()
            .game;
        // Each host finds their own game in the shared channel; a stranger must choose.
        assert_eq!(svc.find().game_here(ch, 1).await.unwrap(), a);
        assert_eq!(svc.find().game_here(ch, 3).await.unwrap(), b);
        match lobby_err(svc.find().game_here(ch, 50).await) {
            LobbyError::SeveralGames(mut ids) => {
                ids.sort();
                assert_eq!(ids, vec![a, b]);
            }
            other => panic!("{other:?}"),
        }
        // In a game's thread, that game.
        let thread = channel();
        svc.lobbies().set_thread(b, thread).await.unwrap();
        assert_eq!(svc.find().game_here(thread, 50).await.unwrap(), b);
        assert_eq!(
            svc.find().kind_here(thread).await.unwrap(),
            Some(GameKind::Cortexcape)
        );
        assert_eq!(svc.find().kind_here(channel()).await.unwrap(), None);
        assert_eq!(
            lobby_err(svc.find().game_here(channel(), 1).await),
            LobbyError::NoGameHere
        );
        // Lines typed in a lobby are refused with a clear error.
        assert!(matches!(
            svc.moves()
                .play(
                    PlayLine {
                        game: a,
                        actor: Actor::User(1),
                        line: "x".into(),
                        seen: None
                    },
                    Lang::En,
                    2
                )
                .await,
            Err(ServiceError::Lobby(LobbyError::NotStarted(_)))
        ));
    }
}

#[tokio::test]
async fn closed_dms_are_told_once() {
    for (backend, store, _dir) in backends().await {
        let svc = Service::new(store.clone());
        let (g, _) = started(&svc).await;
        assert!(
            svc.players().record_dm(g, 2, false).await.unwrap(),
            "{backend}"
        );
        assert!(!svc.players().record_dm(g, 2, false).await.unwrap());
        let seats = store.seats(g).await.unwrap();
        assert_eq!(seats[1].dm_status, DmStatus::Closed);
        assert!(!svc.players().record_dm(g, 1, true).await.unwrap());
        assert_eq!(store.seats(g).await.unwrap()[0].dm_status, DmStatus::Open);
        // Opened again, then closed again: told again.
        assert!(!svc.players().record_dm(g, 2, true).await.unwrap());
        assert!(svc.players().record_dm(g, 2, false).await.unwrap());
        // Someone not seated is never told.
        assert!(!svc.players().record_dm(g, 99, false).await.unwrap());
    }
}

#[test]
fn cortexcape_has_no_hidden_hands() {
    assert!(!croupier::service::has_hidden_hands(GameKind::Cortexcape));
}

/// Issue 22: a game ends (here by a resignation), its result names everyone once and says how
/// it ended, its thread's archive is a stored job, and Rematch opens one lobby with the same
/// seats in order and the same options: the opener hosts, the others' seats wait for them
/// until they confirm; anyone may take a free seat; the host starts with those who confirmed.
#[tokio::test]
async fn a_finished_game_gives_its_result_and_one_rematch_with_the_same_seats() {
    for (backend, store, _dir) in backends().await {
        let svc = Service::new(store);
        let ch = channel();
        // Users unique to this run: PostgreSQL runs share one database.
        let (a, b, c, d) = (ch * 10 + 1, ch * 10 + 2, ch * 10 + 3, ch * 10 + 4);
        let mut cmd = open(a, ch, None);
        cmd.options.insert("short".into(), "true".into());
        cmd.clock_secs = Some(3_600);
        let g = svc.lobbies().open_lobby(cmd, 100).await.unwrap().game;
        svc.lobbies().join(g, player(b), 101).await.unwrap();
        svc.lobbies().join(g, player(c), 102).await.unwrap();
        svc.lobbies()
            .start_lobby(g, a, false, Lang::En, 1_000)
            .await
            .unwrap();
        assert_eq!(
            lobby_err(svc.lobbies().rematch(g, player(b), 7, 1_500).await),
            LobbyError::RematchNotFinished(g),
            "{backend}"
        );
        svc.moves()
            .resign(g, c, Lang::En, 1_000 + 2 * 86_400)
            .await
            .unwrap();
        // The thread is archived by a job after the grace, not at once.
        let jobs = svc.store().jobs_for_game(g).await.unwrap();
        let kinds: Vec<(&str, i64)> = jobs.iter().map(|j| (j.kind.as_str(), j.due_at)).collect();
        assert_eq!(
            kinds,
            [("archive", 1_000 + 3 * 86_400)],
            "{backend}: only the archive is left"
        );
        let result = svc.records().result(g, Lang::En).await.unwrap();
        assert_eq!(result.users, [a, b, c], "{backend}");
        for u in [a, b, c] {
            assert_eq!(
                result.text.matches(&format!("<@{u}>")).count(),
                1,
                "{}",
                result.text
            );
        }
        assert!(result.text.contains("resigned"), "{}", result.text);
        assert!(
            result.text.contains("0 turns, played over 2 d."),
            "{}",
            result.text
        );
        assert!(
            result.summary.contains(&format!("#{}** is over", g.0)),
            "{}",
            result.summary
        );
        // The resigning seat (3rd) ranks last.
        assert!(
            result.text.contains(&format!("3. P{c}: 0")),
            "{}",
            result.text
        );
        assert!(result.png.starts_with(b"\x89PNG"));

        // Only a player asks for the rematch; Bob's click opens it, once.
        assert_eq!(
            lobby_err(svc.lobbies().rematch(g, player(d), 7, 2_000).await),
            LobbyError::RematchNotPlayer(g)
        );
        let croupier::service::Rematch::Opened { view, invited } =
            svc.lobbies().rematch(g, player(b), 7, 2_000).await.unwrap()
        else {
            panic!("{backend}: the first click opens the rematch");
        };
        let r = view.game;
        assert_ne!(r, g);
        assert_eq!(invited, [a, c]);
        assert_eq!(view.host, Some(b));
        assert_eq!(view.status, GameStatus::Lobby);
        assert_eq!(view.options.get("short").map(String::as_str), Some("true"));
        assert_eq!(svc.store().game(r).await.unwrap().clock_secs, Some(3_600));
        let seats: Vec<(Option<i64>, bool)> =
            view.seats.iter().map(|s| (s.user, s.vacant)).collect();
        assert_eq!(seats, [(Some(a), true), (Some(b), false), (Some(c), true)]);
        assert_eq!(view.confirmed(), 1);
        assert!(!view.can_start());
        let text = view.text(Lang::En);
        assert!(
            text.contains(&format!(
                "🔁 A rematch: <@{a}>, <@{c}>, press Accept (or Join"
            )),
            "{text}"
        );
        assert!(
            text.contains(&format!("1. <@{a}> (invited, not confirmed yet)")),
            "{text}"
        );
        // Ann confirms with Rematch; Bob's second click changes nothing.
        let croupier::service::Rematch::Confirmed(view) =
            svc.lobbies().rematch(g, player(a), 8, 2_100).await.unwrap()
        else {
            panic!("{backend}: a later click confirms");
        };
        assert_eq!(view.confirmed(), 2);
        assert!(view.can_start());
        assert!(matches!(
            svc.lobbies().rematch(g, player(b), 9, 2_200).await.unwrap(),
            croupier::service::Rematch::Seated(_)
        ));
        // Anyone may take a free seat, as in any lobby; Chloé never confirms.
        svc.lobbies().join(r, player(d), 2_300).await.unwrap();
        // Only the host starts; Chloé's kept seat is left out, the others keep their order.
        assert_eq!(
            lobby_err(
                svc.lobbies()
                    .start_lobby(r, a, false, Lang::En, 2_400)
                    .await
            ),
            LobbyError::NotHost
        );
        svc.lobbies()
            .start_lobby(r, b, false, Lang::En, 2_400)
            .await
            .unwrap();
        let started = svc.lobbies().lobby(r).await.unwrap();
        let seats: Vec<Option<i64>> = started.seats.iter().map(|s| s.user).collect();
        assert_eq!(seats, [Some(a), Some(b), Some(d)], "{backend}");
        assert!(started.seats.iter().all(|s| !s.vacant));
        assert_eq!(svc.load(r).await.unwrap().game.seat_count(), 3);
        // The rematch has started: a late click is told so.
        assert_eq!(
            lobby_err(svc.lobbies().rematch(g, player(c), 9, 2_500).await),
            LobbyError::RematchClosed(r)
        );
    }
}

/// Options that fit only some table sizes open a lobby (Vortex's Crossing needs two players,
/// the fewest Vortex takes is one, for Solitaire); a bad value is still refused at once.
#[tokio::test]
async fn options_for_larger_tables_open_a_lobby() {
    for (backend, store, _dir) in backends().await {
        let svc = Service::new(store);
        let mut cmd = open(10, channel(), None);
        cmd.kind = GameKind::Vortex;
        cmd.options = [("mode".to_string(), "crossing".to_string())]
            .into_iter()
            .collect();
        let view = svc.lobbies().open_lobby(cmd.clone(), 1).await;
        assert!(view.is_ok(), "{backend}: {view:?}");
        cmd.options = [("mode".to_string(), "sideways".to_string())]
            .into_iter()
            .collect();
        let err = svc.lobbies().open_lobby(cmd, 1).await.unwrap_err();
        assert!(
            matches!(
                err,
                ServiceError::Setup(croupier::engine::SetupError::BadValue { .. })
            ),
            "{backend}: {err:?}"
        );
    }
}

/// `/play … invite:` (issue 40 item 2): invited members' seats are kept for them until they
/// accept or decline; an outsider cannot take a kept seat; bad invitations are refused with
/// nothing opened; `open:false` lets only the invited sit; a start before they answer leaves
/// the unanswered out.
#[tokio::test]
async fn invitations_keep_seats_until_answered() {
    for (backend, store, _dir) in backends().await {
        let svc = Service::new(store.clone());
        let (host, ann, bob, out) = (9_301, 9_302, 9_303, 9_304);
        let invite = |host: i64, users: &[i64], max: Option<usize>| OpenLobby {
            invited: users.iter().map(|u| player(*u)).collect(),
            ..open(host, channel(), max)
        };
        // Refused, nothing opened: the host, a bot account, more members than seats, a closed
        // lobby for nobody.
        let refusals = [
            (invite(host, &[ann, host], None), LobbyError::InviteSelf),
            (
                OpenLobby {
                    invited: vec![Player {
                        is_bot: true,
                        ..player(ann)
                    }],
                    ..open(host, channel(), None)
                },
                LobbyError::InviteBot,
            ),
            (
                invite(host, &[ann, bob], Some(2)),
                LobbyError::TooManyInvited {
                    invited: 2,
                    free: 1,
                },
            ),
            (
                OpenLobby {
                    invite_only: true,
                    ..open(host, channel(), None)
                },
                LobbyError::ClosedWithoutInvites,
            ),
        ];
        for (cmd, want) in refusals {
            let got = lobby_err(svc.lobbies().open_lobby(cmd, 10).await);
            assert_eq!(got, want, "{backend}");
        }
        let (hosted, _) = store.open_lobbies(Some(host), None).await.unwrap();
        assert_eq!(hosted, 0, "{backend}: nothing was opened");
        // Ann and Bob (Ann named twice: invited once) in a lobby of three: every seat is taken
        // or kept.
        let view = svc
            .lobbies()
            .open_lobby(invite(host, &[ann, bob, ann], Some(3)), 10)
            .await
            .unwrap();
        let g = view.game;
        assert_eq!(view.invited(), [ann, bob], "{backend}");
        assert_eq!((view.seats.len(), view.confirmed()), (3, 1));
        assert!(view.text(Lang::En).contains("Invited by the host"));
        assert!(view
            .text(Lang::En)
            .contains("(invited, has not answered yet)"));
        // An outsider may not take a kept seat, nor answer someone else's invitation.
        let err = lobby_err(svc.lobbies().join(g, player(out), 11).await);
        assert_eq!(err, LobbyError::SeatsReserved, "{backend}");
        let err = lobby_err(svc.lobbies().accept(g, player(out), 11).await);
        assert_eq!(err, LobbyError::NotInvited);
        let err = lobby_err(svc.lobbies().decline(g, out, 11).await);
        assert_eq!(err, LobbyError::NotInvited);
        // Ann accepts (once); Bob declines, which frees his seat for anyone.
        let view = svc.lobbies().accept(g, player(ann), 12).await.unwrap();
        assert_eq!((view.confirmed(), view.invited()), (2, vec![bob]));
        let err = lobby_err(svc.lobbies().accept(g, player(ann), 12).await);
        assert_eq!(err, LobbyError::NotInvited, "{backend}: answered already");
        let view = svc.lobbies().decline(g, bob, 13).await.unwrap();
        assert_eq!(view.seats.len(), 2, "{backend}");
        assert!(view.invited().is_empty());
        let view = svc.lobbies().join(g, player(out), 14).await.unwrap();
        assert_eq!(view.confirmed(), 3, "{backend}");

        // `open:false`: only the invited sit, even on a free seat; a member who declined may
        // change their mind while a seat is free.
        let closed = OpenLobby {
            invite_only: true,
            ..invite(host + 10, &[ann], None)
        };
        let view = svc.lobbies().open_lobby(closed, 20).await.unwrap();
        let c = view.game;
        assert!(
            view.text(Lang::En).contains("By invitation only"),
            "{backend}"
        );
        let err = lobby_err(svc.lobbies().join(c, player(out), 21).await);
        assert_eq!(err, LobbyError::InviteOnly, "{backend}");
        svc.lobbies().decline(c, ann, 22).await.unwrap();
        let err = lobby_err(svc.lobbies().join(c, player(out), 23).await);
        assert_eq!(
            err,
            LobbyError::InviteOnly,
            "{backend}: declining opens nothing"
        );
        let view = svc.lobbies().join(c, player(ann), 24).await.unwrap();
        assert_eq!(view.confirmed(), 2, "{backend}");

        // The host starts before Bob answered: he is left out, Ann plays.
        let view = svc
            .lobbies()
            .open_lobby(invite(host + 20, &[ann, bob], None), 30)
            .await
            .unwrap();
        let s = view.game;
        svc.lobbies().accept(s, player(ann), 31).await.unwrap();
        svc.lobbies()
            .start_lobby(s, host + 20, false, Lang::En, 32)
            .await
            .unwrap();
        let view = svc.lobbies().lobby(s).await.unwrap();
        assert_eq!(view.status, GameStatus::Active, "{backend}");
        let seated: Vec<Option<i64>> = view.seats.iter().map(|s| s.user).collect();
        assert_eq!(seated, [Some(host + 20), Some(ann)], "{backend}");
        let err = lobby_err(svc.lobbies().accept(s, player(bob), 33).await);
        assert_eq!(err, LobbyError::NotLobby(s), "{backend}");
    }
}
