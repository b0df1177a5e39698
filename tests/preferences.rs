//! What each player controls, end to end through the fake Discord on SQLite and PostgreSQL
//! (issue 22): `/settings pings` (boards that call a player who turned them off go out as
//! Discord's silent messages; reminders still notify), `/settings hand_dms` (no hand by DM; the
//! "Show my hand" button and `/hand` give it privately), and lobbies that say their options
//! in words, in the lobby's language.

#[path = "support/fake_discord/mod.rs"]
mod fake_discord;

#[path = "support/bot_play.rs"]
mod bot_play;

#[macro_use]
#[path = "support/store_db.rs"]
mod store_db;

use bot_play::*;
use croupier::clock::HOUR;
use croupier::engine::GameId;
use croupier::store::GameStatus;
use fake_discord::*;
use store_db::{decider, Db};

on_backends!(pings_off_sends_the_boards_that_call_a_player_silently_for_a_week);
on_backends!(hand_dms_off_sends_no_hand_by_dm_and_the_hand_comes_on_request);
on_backends!(the_lobby_says_its_options_in_words);

const CAROL: u64 = 1_100_000_000_000_000_103;
/// 2026-09-21 00:00 UTC.
const T0: i64 = 1_789_948_800;

/// The bot on `db`, its scheduler ticking, on a clock the test moves (the fake's follows it).
async fn world(db: &Db) -> World {
    World::on(db).clock(T0).user(CAROL, "Carol").start().await
}

fn uid(user: u64) -> i64 {
    i64::try_from(user).expect("a user id")
}

/// `/settings` with `options` by `user`: its private answer.
async fn settings(fake: &FakeDiscord, user: u64, options: Vec<serde_json::Value>) -> String {
    ask(fake, user, CHANNEL_ID, Push::command("settings", options))
        .await
        .content
}

/// The decider plays the first legal option with `/move`; returns the board it brought, once
/// the command's own answer is in too (so no interaction is left open when the clock moves).
async fn play_one(w: &World, game: GameId, thread: u64, after: u64) -> Message {
    let d = decider(&w.service, game).await.expect("a prompt");
    let typed = send_move(&w.fake, d.member(), thread, &d.options[0]).await;
    let board = latest_board_after(&w.fake, thread, after).await;
    answer_of(&w.fake, typed.id).await;
    board
}

/// A game of `kind` opened by `host`, joined by `guest` and started: the game and its thread.
async fn start(fake: &FakeDiscord, host: u64, kind: &str, guest: u64) -> (GameId, u64) {
    let lobby = play(fake, host, kind).await.expect("a lobby");
    let thread = join_and_start(fake, &lobby, &[guest], host).await;
    (game_of(&lobby), thread)
}

/// The reminders `user` got by DM so far.
fn reminders(fake: &FakeDiscord, user: u64) -> Vec<Message> {
    fake.dms(user)
        .into_iter()
        .filter(|m| m.content.contains("your time runs out"))
        .collect()
}

async fn pings_off_sends_the_boards_that_call_a_player_silently_for_a_week(db: &Db) {
    let w = world(db).await;
    let fake = &w.fake;
    let answer = settings(fake, BOB, vec![opt::boolean("pings", false)]).await;
    assert!(answer.contains("Pings on your turn: off"), "{answer}");
    assert!(answer.contains("Hand by DM: on"), "{answer}");
    assert!(answer.contains("arrive silently"), "{answer}");
    assert!(
        !w.service
            .settings_of(uid(BOB))
            .await
            .expect("settings")
            .pings,
        "stored"
    );

    // A Vortex race between Alice (pings on) and Bob (pings off), played for a while...
    let (game, thread) = start(fake, ALICE, "vortex", BOB).await;
    let mut board = latest_board_after(fake, thread, 0).await;
    for _ in 0..12 {
        if w.service.lobby(game).await.expect("game").status != GameStatus::Active {
            break;
        }
        board = play_one(&w, game, thread, board.id).await;
    }
    // ...then over days where nobody plays: reminders, then the clock plays for them.
    let mut days = 0;
    while days < 7 && w.service.lobby(game).await.expect("game").status == GameStatus::Active {
        let who = mentioned(&board).expect("someone decides");
        let before = reminders(fake, who).len();
        w.clock().advance(12 * HOUR);
        let dm = fake
            .wait_until("a reminder", |st| {
                let dm = st.channels.values().find(|c| c.recipient == Some(who))?.id;
                let got: Vec<&Message> = st
                    .messages
                    .iter()
                    .filter(|m| m.channel_id == dm && m.content.contains("your time runs out"))
                    .collect();
                (got.len() > before).then(|| got[got.len() - 1].clone())
            })
            .await;
        // Reminders notify whatever the pings setting: they are what a player relies on.
        assert!(!dm.silent(), "a reminder is never silent: {dm:?}");
        w.clock().advance(13 * HOUR);
        board = fake
            .wait_until("the board after a timeout", |st| {
                newer_board(st, thread, board.id).filter(|m| m.content.contains("ran out of time"))
            })
            .await;
        days += 1;
    }
    assert!(days >= 3, "the game lasted {days} day(s) of timeouts");
    assert!(!reminders(fake, BOB).is_empty(), "Bob was reminded");

    // Every board that called Bob was silent for him (his mention badge, no push); every
    // board that called Alice notified her.
    let mut called = (0, 0);
    for m in fake.messages(thread).iter().filter(|m| is_board(m)) {
        match mentioned(m) {
            Some(BOB) => {
                assert!(m.silent(), "{m:?}");
                assert_eq!(m.pinged_users, [BOB], "{m:?}");
                assert!(m.notified_users().is_empty(), "{m:?}");
                called.1 += 1;
            }
            Some(ALICE) => {
                assert!(!m.silent(), "{m:?}");
                assert_eq!(m.notified_users(), [ALICE], "{m:?}");
                called.0 += 1;
            }
            _ => assert!(!m.silent(), "{m:?}"),
        }
    }
    assert!(
        called.0 > 0 && called.1 > 0,
        "boards for Alice and Bob: {called:?}"
    );

    // Turned back on: the next board that calls Bob notifies him.
    let answer = settings(fake, BOB, vec![opt::boolean("pings", true)]).await;
    assert!(answer.contains("Pings on your turn: on"), "{answer}");
    assert!(!answer.contains("arrive silently"), "{answer}");
    let mut loud = None;
    for _ in 0..12 {
        if w.service.lobby(game).await.expect("game").status != GameStatus::Active {
            break;
        }
        board = play_one(&w, game, thread, board.id).await;
        if mentioned(&board) == Some(BOB) {
            loud = Some(board.clone());
            break;
        }
    }
    let b = loud.expect("a board called Bob again");
    assert!(!b.silent(), "{b:?}");
    assert_eq!(b.notified_users(), [BOB]);
    finish(fake).await;
    w.bot.stop().await;
}

async fn hand_dms_off_sends_no_hand_by_dm_and_the_hand_comes_on_request(db: &Db) {
    let w = world(db).await;
    let fake = &w.fake;
    let answer = settings(fake, BOB, vec![opt::boolean("hand_dms", false)]).await;
    assert!(answer.contains("Hand by DM: off"), "{answer}");
    assert!(answer.contains("Show my hand"), "{answer}");
    assert!(answer.contains("Pings on your turn: on"), "{answer}");

    // Gates (hidden hands): Alice hosts, Bob joins and Alice starts.
    let (game, thread) = start(fake, ALICE, "gates", BOB).await;
    let mut board = latest_board_after(fake, thread, 0).await;
    for _ in 0..10 {
        if w.service.lobby(game).await.expect("game").status != GameStatus::Active {
            break;
        }
        board = play_one(&w, game, thread, board.id).await;
    }
    // Alice's hand came by DM (from the start, and as it changed); Bob got no DM at all, not
    // even the "your hidden cards will be sent here" check when he joined.
    let hands = |user: u64| {
        fake.dms(user)
            .into_iter()
            .filter(|m| m.attachments.iter().any(|a| a.filename == "hand.png"))
            .count()
    };
    assert!(hands(ALICE) >= 1, "{:?}", fake.dms(ALICE));
    assert!(fake.dms(BOB).is_empty(), "{:?}", fake.dms(BOB));

    // The board's "Show my hand" gives it to him, privately.
    let hand_button = format!("h:{}", game.0);
    assert!(
        custom_ids(&board.components).contains(&hand_button),
        "{board:?}"
    );
    let p = fake
        .push(
            Push::button(board.id, &hand_button)
                .by(BOB)
                .in_channel(thread),
        )
        .await;
    let cb = fake.wait_for_callback(p.id).await;
    assert!(cb.ephemeral(), "{cb:?}");
    let reply = fake
        .wait_until("Bob's hand", |st| {
            let m = st.message(st.interactions.get(&p.id)?.original?)?;
            (!m.attachments.is_empty()).then(|| m.clone())
        })
        .await;
    assert!(reply.ephemeral());
    assert!(reply.attachments.iter().any(|a| a.filename == "hand.png"));
    // So does /hand.
    let hand = ask(fake, BOB, thread, Push::command("hand", vec![])).await;
    assert!(hand.attachments.iter().any(|a| a.filename == "hand.png"));
    assert_eq!(hand.content, reply.content, "the same hand both ways");
    assert!(fake.dms(BOB).is_empty(), "still nothing by DM");

    // Back on: his hand comes by DM again when it changes.
    settings(fake, BOB, vec![opt::boolean("hand_dms", true)]).await;
    for _ in 0..20 {
        if hands(BOB) > 0 || w.service.lobby(game).await.expect("game").status != GameStatus::Active
        {
            break;
        }
        board = play_one(&w, game, thread, board.id).await;
    }
    assert!(
        hands(BOB) > 0,
        "Bob's hand by DM once he asked for it again"
    );
    finish(fake).await;
    w.bot.stop().await;
}

async fn the_lobby_says_its_options_in_words(db: &Db) {
    let w = world(db).await;
    let fake = &w.fake;
    let open = |user: u64, game: &str, options: &str, locale: &str| {
        let mut opts = vec![opt::string("game", game)];
        if !options.is_empty() {
            opts.push(opt::string("options", options));
        }
        Push::command("play", opts).by(user).locale(locale)
    };
    // Options that change the rules, in the lobby's language, in words.
    let cmd = fake
        .push(open(
            ALICE,
            "vortex",
            "goal_count=3 teams=off seating=host",
            "en-US",
        ))
        .await;
    let lobby = play_answer(fake, cmd.id).await.expect("a lobby");
    assert!(
        lobby.content.contains(
            "⚙️ Rules: Every player for themselves · Turn order as players joined · \
             3 routers home to finish"
        ),
        "{}",
        lobby.content
    );
    assert!(!lobby.content.contains('='), "{}", lobby.content);
    // A French server: its lobbies are in French.
    fake.set_guild_locale("fr");
    let cmd = fake
        .push(open(BOB, "spacelab", "objective_setup=dealt", "fr"))
        .await;
    let lobby = play_answer(fake, cmd.id).await.expect("a lobby");
    fake.set_guild_locale("en-US");
    assert!(
        lobby
            .content
            .contains("⚙️ Règles : Objectifs distribués à la mise en place"),
        "{}",
        lobby.content
    );
    // None, or only the defaults spelled out: the standard rules.
    let cmd = fake
        .push(open(CAROL, "cortexcape", "short=false lab=blue", "en-US"))
        .await;
    let lobby = play_answer(fake, cmd.id).await.expect("a lobby");
    assert!(
        lobby.content.contains("⚙️ Rules: standard"),
        "{}",
        lobby.content
    );
    // The words stay once the game has started (the lobby message is rewritten then).
    let cmd = fake
        .push(open(CAROL, "gates", "round_limit=100", "en-US"))
        .await;
    let lobby = play_answer(fake, cmd.id).await.expect("a lobby");
    click_lobby(fake, &lobby, "join", ALICE)
        .await
        .expect("Alice joins");
    let started = click_lobby(fake, &lobby, "start", CAROL)
        .await
        .expect("Carol starts");
    assert!(
        started
            .content
            .contains("⚙️ Rules: The game ends after 100 rounds at most"),
        "{}",
        started.content
    );
    finish(fake).await;
    w.bot.stop().await;
}
