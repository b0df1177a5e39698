//! End to end: the real bot (in-process) against the fake Discord on loopback, on a real store.
//! Every scenario ends with `finish`: every interaction answered once, in time, and no
//! OpenAPI or limit violation.

use crate::{bot_play, store_db};

use std::time::Duration;

use crate::bot_play::*;
use crate::fake_discord::*;
use crate::store_db::{status, Db};
use croupier::bot::ShardRange;
use croupier::engine::GameId;
use croupier::i18n::Lang;
use croupier::service::Service;
use croupier::store::{GameStatus, Store};
use serde_json::Value;

/// The lobby: `/play` by Alice; returns the game, the lobby message and the thread.
async fn open_lobby(fake: &FakeDiscord, options: &str, locale: &str) -> (GameId, Message, u64) {
    open_lobby_of(fake, "cortexcape", options, locale).await
}

/// The lobby of any game, opened by Alice.
async fn open_lobby_of(
    fake: &FakeDiscord,
    game: &str,
    options: &str,
    locale: &str,
) -> (GameId, Message, u64) {
    let mut opts = vec![opt::string("game", game)];
    if !options.is_empty() {
        opts.push(opt::string("options", options));
    }
    let cmd = fake.push(Push::command("play", opts).locale(locale)).await;
    let lobby = play_answer(fake, cmd.id).await.expect("a public lobby");
    let game = game_of(&lobby);
    let ids = custom_ids(&lobby.components);
    assert_eq!(
        ids,
        ["join", "leave", "start", "cancel", "bot"].map(|a| format!("l:{}:{a}", game.0))
    );
    // A lobby opens no thread; the game's thread opens from the lobby message when it starts,
    // and a thread started from a message takes the message's id.
    assert!(fake
        .threads()
        .iter()
        .all(|t| t.from_message != Some(lobby.id)));
    (game, lobby.clone(), lobby.id)
}

/// Clicks a button and waits for its acknowledgement.
async fn click(
    fake: &FakeDiscord,
    message: u64,
    custom_id: &str,
    user: u64,
    channel: u64,
) -> Callback {
    let p = fake
        .push(
            Push::button(message, custom_id)
                .by(user)
                .in_channel(channel),
        )
        .await;
    fake.wait_for_callback(p.id).await
}

/// The latest message in `channel` with board components, once there is a new one (id > after).
fn assert_png(m: &Message) {
    let a = m
        .attachments
        .iter()
        .find(|a| a.filename == "board.png")
        .unwrap_or_else(|| panic!("no board.png on {m:?}"));
    assert_eq!(a.content_type.as_deref(), Some("image/png"));
    let (w, h) = a.dimensions.expect("the fake decoded the PNG");
    assert!(w > 100 && h > 100, "{w}x{h}");
    let img = image::load_from_memory(&a.bytes).expect("valid PNG");
    assert_eq!((img.width(), img.height()), (w, h));
}

/// Plays the decision on `board` with its first button or first menu option, by whoever is
/// mentioned; returns the board to decide on next.
async fn decide_first(fake: &FakeDiscord, board: &Message) -> Message {
    let p = click_first(fake, board).await;
    let cb = fake.wait_for_callback(p.id).await;
    assert_eq!(cb.kind, 6, "{cb:?}");
    let next = board_after(fake, board).await;
    assert!(
        fake.followups(p.id).is_empty(),
        "a legal click got an answer: {:?}",
        fake.followups(p.id)
    );
    next
}

// ----- 1. a whole 2-player game through interactions -----

#[tokio::test]
async fn two_player_short_game_through_buttons_menus_and_move() {
    // No grace after the end: the scheduler archives the thread at once (game_life moves a
    // clock through the grace).
    let timers = croupier::service::Timers {
        archive_grace_secs: 0,
        ..Default::default()
    };
    let w = World::sqlite().timers(timers).start().await;
    let fake = &w.fake;
    let (game, lobby, thread) = open_lobby(fake, "short=true", "en-US").await;
    join_and_start(fake, &lobby, &[BOB], ALICE).await;
    let mut board = latest_board_after(fake, thread, 0).await;
    assert_eq!(status(&w.service, game).await, GameStatus::Active);
    // The lobby loses its buttons once started, but for Follow (spectators join the thread).
    let lobby_now = fake.message(lobby.id).expect("lobby");
    assert_eq!(
        custom_ids(&lobby_now.components),
        [format!("l:{}:follow", game.0)],
        "{lobby_now:?}"
    );
    assert_png(&board);
    let mut clicks = 0;
    let mut typed = 0;
    while status(&w.service, game).await == GameStatus::Active {
        assert!(clicks + typed < 400, "the game does not end");
        // Every third decision goes through /move with autocomplete.
        if (clicks + typed) % 3 == 2 {
            board = decide_with_move(fake, &w.service, game, thread, &board).await;
            typed += 1;
        } else {
            board = decide_first(fake, &board).await;
            clicks += 1;
        }
        assert_png(&board);
    }
    assert!(clicks > 0 && typed > 0, "{clicks} clicks, {typed} moves");
    assert_eq!(status(&w.service, game).await, GameStatus::Finished);
    let last = fake
        .messages(thread)
        .into_iter()
        .rev()
        .find(is_board)
        .expect("final board");
    // Only Zoom stays: the final position, readable on a phone.
    assert_eq!(
        custom_ids(&last.components),
        [format!("z:{}", game.0)],
        "{last:?}"
    );
    assert_png(&last);
    assert_names_winner(&w.service, game, &last).await;
    // The finished game's thread is archived by the scheduler after the grace (it no longer
    // counts against the server's cap).
    // The stale /move sent after the end came from the thread, which the player's client
    // unarchived to send it (as Discord's clients do): what counts is that the bot archived it.
    let path = format!("/api/v10/channels/{thread}");
    fake.wait_until("the thread archived", |st| {
        st.requests
            .iter()
            .any(|r| {
                r.method == "PATCH"
                    && r.uri == path
                    && r.status == 200
                    && r.body.as_ref().is_some_and(|b| b["archived"] == true)
            })
            .then_some(())
    })
    .await;
    eprintln!("{clicks} clicks, {typed} moves");
    finish(fake).await;
    w.bot.stop().await;
}

/// The final board says who won, by name.
async fn assert_names_winner(service: &Service, game: GameId, last: &Message) {
    let outcome = service
        .boards()
        .show(game, Lang::En)
        .await
        .expect("final board")
        .board
        .outcome
        .expect("an outcome");
    let seats = service.lobbies().lobby(game).await.expect("game").seats;
    let winners: Vec<String> = outcome
        .winners
        .iter()
        .map(|s| seats[usize::from(s.0)].name.clone())
        .collect();
    // The seed is fresh in each game: a tie for everyone can happen.
    if winners.is_empty() {
        assert!(outcome.draw, "{outcome:?}");
        assert!(
            last.content.contains("Game over: everyone tied. Scores: "),
            "{}",
            last.content
        );
        return;
    }
    let start = "Game over. Lowest score: ";
    let at = last
        .content
        .find(start)
        .unwrap_or_else(|| panic!("no result in {}", last.content));
    let rest = &last.content[at + start.len()..];
    let named = &rest[..rest.find(". Scores: ").expect("scores")];
    for w in &winners {
        assert!(named.contains(w.as_str()), "{w} not in {named}");
    }
    let losers = seats.iter().filter(|s| !winners.contains(&s.name));
    for l in losers {
        assert!(!named.contains(l.name.as_str()), "{} in {named}", l.name);
    }
}

/// Decides through `/move`: autocomplete lists the legal options, filtered by what is typed,
/// and the chosen one is played.
async fn decide_with_move(
    fake: &FakeDiscord,
    service: &Service,
    game: GameId,
    thread: u64,
    board: &Message,
) -> Message {
    let user = mentioned(board).expect("someone to play");
    let legal = legal_options(service, game).await;
    let shown = |typed: &str| -> Vec<String> {
        let words: Vec<String> = typed.split_whitespace().map(str::to_lowercase).collect();
        let mut v: Vec<String> = legal
            .iter()
            .filter(|o| words.iter().all(|w| o.to_lowercase().contains(w.as_str())))
            .filter(|o| o.len() <= 100)
            .cloned()
            .collect();
        v.truncate(25);
        v
    };
    let picked = autocomplete_move(fake, user, thread, "").await;
    let all = names(&picked);
    assert_eq!(all, shown(""));
    assert!(!all.is_empty());
    // Each value carries the version the option belongs to.
    let version = service.lobbies().lobby(game).await.expect("game").version;
    for (name, value) in &picked {
        assert_eq!(value, &format!("{name} #v{}", version.0));
    }
    // Typing the last word of an option narrows the list to the options containing it.
    let first = all[0].clone();
    let typed = first
        .split_whitespace()
        .last()
        .expect("a word")
        .to_uppercase();
    let filtered = names(&autocomplete_move(fake, user, thread, &typed).await);
    assert_eq!(filtered, shown(&typed));
    assert!(filtered.contains(&first), "{filtered:?} lacks {first}");
    // The other player is offered nothing: it is not their decision.
    let other_user = if user == ALICE { BOB } else { ALICE };
    assert!(autocomplete_move(fake, other_user, thread, "")
        .await
        .is_empty());
    let cmd = send_move(fake, user, thread, &picked[0].1).await;
    let cb = fake.wait_for_callback(cmd.id).await;
    assert_eq!(cb.kind, 5, "{cb:?}");
    assert!(cb.ephemeral());
    assert_eq!(answer_of(fake, cmd.id).await.content, "✅ Played.");
    let after = latest_board_after(fake, thread, board.id).await;
    // The same pick sent again (a retry of an answer that seemed lost) plays nothing: it
    // belongs to the version before the move, and the player sees the board as it is.
    let moved = service.lobbies().lobby(game).await.expect("game").version;
    let again = send_move(fake, user, thread, &picked[0].1).await;
    let answer = answer_of(fake, again.id).await;
    if status(service, game).await == GameStatus::Active {
        assert!(
            answer.content.starts_with("Nothing was played"),
            "{}",
            answer.content
        );
        assert_eq!(answer.attachments.len(), 1, "the current board");
    } else {
        // That move ended the game: the thread has no game running any more.
        assert!(answer.content.starts_with("There is no game running here"));
    }
    assert_eq!(
        service.lobbies().lobby(game).await.expect("game").version,
        moved
    );
    after
}

fn croupier_user(id: u64) -> i64 {
    i64::from_ne_bytes(id.to_ne_bytes())
}

/// What autocomplete offers for `/move option:<partial>`: (shown name, value sent).
async fn autocomplete_move(
    fake: &FakeDiscord,
    user: u64,
    channel: u64,
    partial: &str,
) -> Vec<(String, String)> {
    let p = fake
        .push(
            Push::autocomplete("move", vec![opt::focused("option", partial)])
                .by(user)
                .in_channel(channel),
        )
        .await;
    let cb = fake.wait_for_callback(p.id).await;
    assert_eq!(cb.kind, 8, "{cb:?}");
    cb.data["choices"]
        .as_array()
        .expect("choices")
        .iter()
        .map(|c| {
            let text = |k: &str| c[k].as_str().unwrap_or_default().to_string();
            (text("name"), text("value"))
        })
        .collect()
}

fn names(choices: &[(String, String)]) -> Vec<String> {
    choices.iter().map(|(name, _)| name.clone()).collect()
}

/// A started 2-player game (Alice hosts, Bob joins) and its first board.
async fn started(fake: &FakeDiscord, options: &str) -> (GameId, u64, Message) {
    let (game, lobby, thread) = open_lobby(fake, options, "en-US").await;
    join_and_start(fake, &lobby, &[BOB], ALICE).await;
    let board = latest_board_after(fake, thread, 0).await;
    (game, thread, board)
}

/// What everyone sees in a channel (ephemeral answers left out).
fn public(fake: &FakeDiscord, channel: u64) -> Vec<Message> {
    fake.messages(channel)
        .into_iter()
        .filter(|m| !m.ephemeral())
        .collect()
}

fn first_decision(board: &Message) -> String {
    custom_ids(&board.components)
        .into_iter()
        .find(|i| i.starts_with("g:"))
        .unwrap_or_else(|| panic!("no button on {board:?}"))
}

fn other(user: u64) -> u64 {
    if user == ALICE {
        BOB
    } else {
        ALICE
    }
}

/// The only follow-up of a click, which must be ephemeral.
async fn ephemeral_followup(fake: &FakeDiscord, interaction: u64) -> Message {
    let m = fake
        .wait_until("the ephemeral answer", |st| {
            let i = st.interactions.get(&interaction)?;
            (i.followups.len() == 1)
                .then(|| st.message(i.followups[0]).cloned())
                .flatten()
        })
        .await;
    assert!(m.ephemeral(), "{m:?}");
    m
}

// ----- 3. stale and foreign clicks -----

#[tokio::test]
async fn stale_and_foreign_clicks_are_refused_privately() {
    for db in Db::each("e2e_stale").await {
        stale_and_foreign(&db).await;
        db.finish().await;
    }
}

async fn stale_and_foreign(db: &Db) {
    let w = World::on(db).start().await;
    let fake = &w.fake;
    let (game, thread, board) = started(fake, "short=true").await;
    let player = mentioned(&board).expect("who decides");
    let id = first_decision(&board);

    // Foreign: the other player clicks; only they are told, and nothing changes.
    let version = w.service.lobbies().lobby(game).await.expect("game").version;
    let p = fake
        .push(
            Push::button(board.id, &id)
                .by(other(player))
                .in_channel(thread),
        )
        .await;
    assert_eq!(fake.wait_for_callback(p.id).await.kind, 6);
    let answer = ephemeral_followup(fake, p.id).await;
    let seats = w.service.lobbies().lobby(game).await.expect("game").seats;
    let name = seats
        .iter()
        .find(|s| s.user == Some(croupier_user(player)))
        .map(|s| s.name.clone())
        .expect("the player's seat");
    assert_eq!(
        answer.content,
        format!("It is not your turn: {name} must decide now.")
    );
    assert_eq!(
        w.service.lobbies().lobby(game).await.expect("game").version,
        version
    );
    assert_eq!(
        fake.message(board.id).expect("board").components,
        board.components
    );

    // The player moves with /move: the board with the buttons is now an older one. Its
    // buttons stay only where the bot could not take them off (Discord refused the edit):
    // otherwise the click below would race the edit, and a client cannot click a button
    // that is gone.
    fake.fail_next(
        "PATCH /channels/{channel_id}/messages/{message_id}",
        1,
        403,
        50013,
    );
    let options = w
        .service
        .moves()
        .choices(game, croupier_user(player), "")
        .await
        .expect("choices")
        .options;
    let cmd = send_move(fake, player, thread, &options[0]).await;
    fake.wait_for_callback(cmd.id).await;
    let newer = latest_board_after(fake, thread, board.id).await;
    let version = w.service.lobbies().lobby(game).await.expect("game").version;
    let boards = public(fake, thread).len();

    // Stale: a button of the older board; the clicker sees the current board, privately.
    let p = fake
        .push(Push::button(board.id, &id).by(player).in_channel(thread))
        .await;
    assert_eq!(fake.wait_for_callback(p.id).await.kind, 6);
    let answer = ephemeral_followup(fake, p.id).await;
    assert_eq!(
        answer.content,
        "The board changed since you looked at it. Here is the current one."
    );
    assert_png(&answer);
    assert_eq!(
        w.service.lobbies().lobby(game).await.expect("game").version,
        version
    );
    assert_eq!(public(fake, thread).len(), boards);
    assert_eq!(
        fake.message(newer.id).expect("board").components,
        newer.components
    );
    finish(fake).await;
    w.bot.stop().await;
}

// ----- 5. a restart in the middle of a game -----

#[tokio::test]
async fn buttons_posted_before_a_restart_still_work() {
    for db in Db::each("e2e_restart").await {
        restart_mid_game(&db).await;
        db.finish().await;
    }
}

async fn restart_mid_game(db: &Db) {
    let w = World::on(db).start().await;
    let fake = &w.fake;
    let (game, _, board) = started(fake, "short=true").await;
    let board = decide_first(fake, &board).await;
    w.bot.stop().await;

    let store = w.service.store().clone();
    let bot = Bot::start_ticking(fake, Service::new(store), Some(TICK)).await;
    let version = w.service.lobbies().lobby(game).await.expect("game").version;
    let next = decide_first(fake, &board).await;
    assert!(w.service.lobbies().lobby(game).await.expect("game").version > version);
    assert_png(&next);
    finish(fake).await;
    bot.stop().await;
}

// ----- 6. two games in one channel -----

#[tokio::test]
async fn two_games_in_one_channel_keep_apart() {
    let w = World::sqlite().start().await;
    let fake = &w.fake;
    let (g1, t1, b1) = started(fake, "short=true").await;
    let (g2, t2, b2) = started(fake, "short=true").await;
    assert_ne!(g1, g2);
    assert_ne!(t1, t2);
    assert_eq!(fake.threads().len(), 2);
    let v2 = w.service.lobbies().lobby(g2).await.expect("game").version;
    let in_t2: Vec<(u64, u32)> = fake.messages(t2).iter().map(|m| (m.id, m.edits)).collect();

    let next1 = decide_first(fake, &b1).await;
    assert_eq!(next1.channel_id, t1);
    assert!(w.service.lobbies().lobby(g1).await.expect("game").version > b1_version(&b1));
    // Game 2 did not move, nothing was posted in its thread.
    assert_eq!(
        w.service.lobbies().lobby(g2).await.expect("game").version,
        v2
    );
    let now_t2: Vec<(u64, u32)> = fake.messages(t2).iter().map(|m| (m.id, m.edits)).collect();
    assert_eq!(now_t2, in_t2);

    // A /move typed in game 2's thread plays game 2 only.
    let v1 = w.service.lobbies().lobby(g1).await.expect("game").version;
    let player = mentioned(&b2).expect("who decides");
    let options = w
        .service
        .moves()
        .choices(g2, croupier_user(player), "")
        .await
        .expect("choices")
        .options;
    let cmd = send_move(fake, player, t2, &options[0]).await;
    fake.wait_for_callback(cmd.id).await;
    let next2 = latest_board_after(fake, t2, b2.id).await;
    assert_eq!(next2.channel_id, t2);
    assert!(w.service.lobbies().lobby(g2).await.expect("game").version > v2);
    assert_eq!(
        w.service.lobbies().lobby(g1).await.expect("game").version,
        v1
    );
    finish(fake).await;
    w.bot.stop().await;
}

/// The version a board's buttons were made for (`g:<game>:<version>:<index>`).
fn b1_version(board: &Message) -> croupier::engine::Version {
    let id = first_decision(board);
    let v = id
        .split(':')
        .nth(2)
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("no version in {id}"));
    croupier::engine::Version(v)
}

// ----- 8. /cancel -----

/// View, send and read: no Manage Threads, Manage Channels or Administrator.
const PLAIN_MEMBER: u64 = (1 << 10) | (1 << 11) | (1 << 16) | (1 << 38);

#[tokio::test]
async fn cancel_by_a_non_host_is_refused_and_by_the_host_works() {
    for db in Db::each("e2e_cancel").await {
        cancel_scenario(&db).await;
        db.finish().await;
    }
}

async fn cancel_scenario(db: &Db) {
    let w = World::on(db).start().await;
    let fake = &w.fake;
    fake.set_member_permissions(BOB, PLAIN_MEMBER);
    let (game, lobby, thread) = open_lobby(fake, "short=true", "en-US").await;
    join_and_start(fake, &lobby, &[BOB], ALICE).await;
    latest_board_after(fake, thread, 0).await;
    let posted = public(fake, thread).len();

    // Bob plays but does not host: his /cancel asks him to agree to cancel (issue 36), and
    // changes nothing until he does.
    let agree = cancel(fake, BOB, thread).await;
    assert!(agree.starts_with("🤝 Agree to cancel"), "{agree}");
    assert_eq!(status(&w.service, game).await, GameStatus::Active);
    assert_eq!(public(fake, thread).len(), posted);
    let asked = fake
        .messages(thread)
        .into_iter()
        .rev()
        .find(|m| m.content == agree)
        .expect("the question");
    click(fake, asked.id, &format!("k:{}:agree", game.0), BOB, thread).await;
    fake.wait_until("Bob's agreement told", |st| {
        st.messages
            .iter()
            .find(|m| m.channel_id == thread && m.content.starts_with("🤝 bob agrees"))
            .map(|_| ())
    })
    .await;
    assert_eq!(status(&w.service, game).await, GameStatus::Active);

    // The host is asked first (tests/suite/game_life.rs has the whole exchange), then confirms.
    let question = cancel(fake, ALICE, thread).await;
    assert!(question.contains("cannot be undone"), "{question}");
    assert_eq!(status(&w.service, game).await, GameStatus::Active);
    let asked = fake
        .messages(thread)
        .into_iter()
        .rev()
        .find(|m| m.content == question)
        .expect("the question");
    let cb = click(
        fake,
        asked.id,
        &format!("k:{}:cancel", game.0),
        ALICE,
        thread,
    )
    .await;
    assert_eq!(cb.kind, 6, "{cb:?}");
    let done = fake
        .wait_until("the confirmed answer", |st| {
            let m = st.message(asked.id)?;
            (m.content != question).then(|| m.content.clone())
        })
        .await;
    assert_eq!(done, "The game is cancelled.");
    assert_eq!(status(&w.service, game).await, GameStatus::Cancelled);
    let notice = public(fake, thread).pop().expect("notice");
    assert_eq!(
        notice.content,
        format!("🛑 Cortexcape game {} was cancelled.", game.0)
    );
    finish(fake).await;
    w.bot.stop().await;
}

/// `/cancel` in the game's thread; returns the ephemeral answer.
async fn cancel(fake: &FakeDiscord, user: u64, thread: u64) -> String {
    ask(fake, user, thread, "cancel", vec![]).await
}

/// A command answered ephemerally after a deferral; returns the answer.
async fn ask(
    fake: &FakeDiscord,
    user: u64,
    channel: u64,
    name: &str,
    options: Vec<Value>,
) -> String {
    let cmd = fake
        .push(Push::command(name, options).by(user).in_channel(channel))
        .await;
    let cb = fake.wait_for_callback(cmd.id).await;
    assert_eq!(cb.kind, 5, "/{name}: {cb:?}");
    assert!(cb.ephemeral());
    fake.wait_until(&format!("the /{name} answer"), |st| {
        let i = st.interactions.get(&cmd.id)?;
        let m = st.message(i.original?)?;
        (!m.content.is_empty()).then(|| m.content.clone())
    })
    .await
}

// ----- 7. /rules in English and French; public messages in the guild's language -----

#[tokio::test]
async fn rules_in_english_and_french() {
    use croupier::bot::layout::{content, label};
    use croupier::engine::GameKind;
    let w = World::sqlite().start().await;
    let fake = &w.fake;
    let mut seen = Vec::new();
    for (locale, lang) in [("en-US", Lang::En), ("fr", Lang::Fr)] {
        let topics = croupier::rules::topics(GameKind::Cortexcape, lang);
        assert!(topics.len() > 1);
        // Typing a word of a title narrows the topics, in the user's language.
        let word = topics[1]
            .title
            .split_whitespace()
            .max_by_key(|w| w.chars().count())
            .expect("a word")
            .to_string();
        let expected: Vec<(String, String)> =
            croupier::rules::search(GameKind::Cortexcape, lang, &word)
                .into_iter()
                .take(25)
                .map(|t| (label(&t.title), t.id.to_string()))
                .collect();
        assert!(
            expected.iter().any(|(_, id)| id == topics[1].id),
            "{expected:?}"
        );
        let p = fake
            .push(
                Push::autocomplete(
                    "rules",
                    vec![
                        opt::focused("topic", &word),
                        opt::string("game", "cortexcape"),
                    ],
                )
                .locale(locale),
            )
            .await;
        let cb = fake.wait_for_callback(p.id).await;
        assert_eq!(cb.kind, 8);
        let got: Vec<(String, String)> = cb.data["choices"]
            .as_array()
            .expect("choices")
            .iter()
            .map(|c| {
                (
                    c["name"].as_str().unwrap_or_default().to_string(),
                    c["value"].as_str().unwrap_or_default().to_string(),
                )
            })
            .collect();
        assert_eq!(got, expected);

        // The page itself, ephemeral, in the user's language.
        let id = topics[1].id;
        let cmd = fake
            .push(
                Push::command(
                    "rules",
                    vec![opt::string("topic", id), opt::string("game", "cortexcape")],
                )
                .locale(locale),
            )
            .await;
        let cb = fake.wait_for_callback(cmd.id).await;
        assert_eq!(cb.kind, 5);
        assert!(cb.ephemeral());
        let page = fake
            .wait_until("the rules page", |st| {
                let m = st.message(st.interactions.get(&cmd.id)?.original?)?;
                (!m.content.is_empty()).then(|| m.content.clone())
            })
            .await;
        let want = croupier::rules::page(GameKind::Cortexcape, id, lang).expect("page");
        assert_eq!(page, content(want));
        seen.push(page);
    }
    assert_ne!(seen[0], seen[1], "the French page is not the English one");
    finish(fake).await;
    w.bot.stop().await;
}

#[tokio::test]
async fn a_french_lobby_stays_french_when_an_english_user_joins() {
    let w = World::sqlite().start().await;
    let fake = &w.fake;
    fake.set_guild_locale("fr");
    fake.set_member_permissions(BOB, PLAIN_MEMBER);
    let (game, lobby, _thread) = open_lobby(fake, "short=true", "fr").await;
    let view = w.service.lobbies().lobby(game).await.expect("lobby");
    assert_eq!(lobby.content, content_of(&view.text(Lang::Fr)));
    // Bob's client is in English: the shared lobby stays in the guild's French.
    let edits = fake.message(lobby.id).expect("lobby").edits;
    let p = fake
        .push(
            Push::button(lobby.id, &format!("l:{}:join", game.0))
                .by(BOB)
                .locale("en-US"),
        )
        .await;
    assert_eq!(fake.wait_for_callback(p.id).await.kind, 6);
    fake.wait_until("the lobby updated", |st| {
        (st.message(lobby.id)?.edits > edits).then_some(())
    })
    .await;
    let view = w.service.lobbies().lobby(game).await.expect("lobby");
    assert_eq!(view.seats.len(), 2);
    let now = fake.message(lobby.id).expect("lobby");
    assert_eq!(now.content, content_of(&view.text(Lang::Fr)));
    assert_ne!(now.content, content_of(&view.text(Lang::En)));
    // A refusal is only for Bob: in his English.
    let p = fake
        .push(
            Push::button(lobby.id, &format!("l:{}:start", game.0))
                .by(BOB)
                .locale("en-US"),
        )
        .await;
    assert_eq!(fake.wait_for_callback(p.id).await.kind, 6);
    let answer = ephemeral_followup(fake, p.id).await;
    assert_eq!(
        answer.content,
        "Only the host or a member who can manage threads or channels can do that."
    );
    finish(fake).await;
    w.bot.stop().await;
}

fn content_of(s: &str) -> String {
    croupier::bot::layout::content(s)
}

// ----- 4. closed DMs -----

#[tokio::test]
async fn closed_dms_are_remembered_and_noticed_once_without_the_hand() {
    use croupier::bot::{send_private, Data};
    use croupier::engine::Seat;
    use croupier::service::PrivatePost;
    use croupier::store::DmStatus;
    let w = World::sqlite().start().await;
    let fake = &w.fake;
    fake.close_dms(BOB);
    fake.set_member_permissions(BOB, PLAIN_MEMBER);
    let (game, thread, _board) = started(fake, "short=true").await;
    let before = public(fake, thread).len();
    let png = fake
        .messages(thread)
        .into_iter()
        .find(is_board)
        .expect("board")
        .attachments[0]
        .bytes
        .clone();
    let secret = "Your hand: the blue key and the red key.";
    let posts: Vec<PrivatePost> = [(0u8, ALICE), (1, BOB)]
        .into_iter()
        .map(|(seat, user)| PrivatePost {
            seat: Seat(seat),
            game,
            version: croupier::engine::Version(1),
            user: Some(croupier_user(user)),
            text: secret.into(),
            png: png.clone(),
            by_dm: true,
        })
        .collect();
    let data = Data::new(w.service.clone());
    let http = fake.http();
    let view = w.service.lobbies().lobby(game).await.expect("game");
    send_private(&http, &data, &view, &posts, None, Lang::En).await;

    // Alice got her DM; Bob's refusal is stored and told once in the thread.
    let dms = fake.dms(ALICE);
    assert_eq!(dms.len(), 1);
    assert!(dms[0].content.ends_with(secret), "{}", dms[0].content);
    assert_eq!(dms[0].attachments[0].filename, "hand.png");
    assert!(fake.dms(BOB).is_empty());
    let seats = w.service.lobbies().lobby(game).await.expect("game").seats;
    let status_of = |u: u64| {
        seats
            .iter()
            .find(|s| s.user == Some(croupier_user(u)))
            .map(|s| s.dm_status)
    };
    assert_eq!(status_of(ALICE), Some(DmStatus::Open));
    assert_eq!(status_of(BOB), Some(DmStatus::Closed));
    let notices: Vec<Message> = public(fake, thread).split_off(before);
    assert_eq!(notices.len(), 1, "{notices:?}");
    assert_eq!(
        notices[0].content,
        format!(
            "<@{BOB}>, I cannot send you direct messages. Nothing is lost: use /hand or the \
             \"Show my hand\" button to see your hand privately. To get it by DM, allow direct \
             messages from server members (Privacy settings)."
        )
    );
    assert!(notices[0].attachments.is_empty());

    // Known closed: the next hand is not retried and nothing more is said.
    let dm_requests = |fake: &FakeDiscord| {
        fake.requests()
            .iter()
            .filter(|r| r.route.as_deref() == Some("/users/@me/channels"))
            .count()
    };
    let asked = dm_requests(fake);
    let view = w.service.lobbies().lobby(game).await.expect("game");
    send_private(&http, &data, &view, &posts[1..], None, Lang::En).await;
    assert_eq!(dm_requests(fake), asked);
    assert_eq!(public(fake, thread).len(), before + 1);

    // /hand answers Bob privately.
    let cmd = fake
        .push(Push::command("hand", vec![]).by(BOB).in_channel(thread))
        .await;
    let cb = fake.wait_for_callback(cmd.id).await;
    assert_eq!(cb.kind, 5);
    assert!(cb.ephemeral());
    let answer = fake
        .wait_until("the /hand answer", |st| {
            let m = st.message(st.interactions.get(&cmd.id)?.original?)?;
            (!m.content.is_empty()).then(|| m.content.clone())
        })
        .await;
    assert_eq!(
        answer,
        "You have nothing hidden in this game: everything is on the board."
    );
    finish(fake).await;
    w.bot.stop().await;
}

/// Issue 37: a member's DM channel is opened once and kept (in the store: another process or
/// a restart opens none); a DM whose answer was lost in a 5xx is retried under its nonce and
/// arrives once; an open Discord refuses with 40003 (another process on the token opened a
/// burst) is waited out, and the DM goes.
#[tokio::test]
async fn dm_channels_are_opened_once_and_each_dm_arrives_once() {
    use croupier::bot::{send_private, Data};
    use croupier::engine::{Seat, Version};
    use croupier::service::PrivatePost;
    const CAROL: u64 = 1_100_000_000_000_000_103;
    let w = World::sqlite().start().await;
    let fake = &w.fake;
    fake.add_user(CAROL, "Carol");
    let (game, thread, _board) = started(fake, "short=true").await;
    let png = fake
        .messages(thread)
        .into_iter()
        .find(is_board)
        .expect("board")
        .attachments[0]
        .bytes
        .clone();
    let post = |user: u64, v: u32| PrivatePost {
        seat: Seat(0),
        game,
        version: Version(v),
        user: Some(croupier_user(user)),
        text: format!("Hand number {v}."),
        png: png.clone(),
        by_dm: true,
    };
    let opens = |fake: &FakeDiscord| {
        fake.requests()
            .iter()
            .filter(|r| r.route.as_deref() == Some("/users/@me/channels"))
            .count()
    };
    let hands = |user: u64| {
        fake.dms(user)
            .iter()
            .filter(|m| m.content.contains("Hand number"))
            .map(|m| m.content.lines().last().unwrap_or_default().to_string())
            .collect::<Vec<_>>()
    };
    let http = fake.http();
    let view = w.service.lobbies().lobby(game).await.expect("game");
    let data = Data::new(w.service.clone());
    let before = opens(fake);
    send_private(
        &http,
        &data,
        &view,
        &[post(ALICE, 1), post(BOB, 1)],
        None,
        Lang::En,
    )
    .await;
    let first = opens(fake) - before;
    assert!(first <= 2, "{first} opens for two members");
    send_private(
        &http,
        &data,
        &view,
        &[post(ALICE, 2), post(BOB, 2)],
        None,
        Lang::En,
    )
    .await;
    // Another process (or this one after a restart) finds the channels kept.
    let other = Data::new(w.service.clone());
    send_private(
        &http,
        &other,
        &view,
        &[post(ALICE, 3), post(BOB, 3)],
        None,
        Lang::En,
    )
    .await;
    assert_eq!(opens(fake) - before, first, "no channel opened twice");
    for user in [ALICE, BOB] {
        assert_eq!(
            hands(user),
            ["Hand number 1.", "Hand number 2.", "Hand number 3."]
        );
    }

    // Discord made the DM but the answer was lost: the retry gets it back, no second DM.
    fake.fail_after("POST /channels/{channel_id}/messages", 1, 502);
    send_private(&http, &data, &view, &[post(ALICE, 4)], None, Lang::En).await;
    assert!(fake.pending_faults().is_empty());
    assert_eq!(hands(ALICE).len(), 4, "{:?}", hands(ALICE));

    // So far no 429 of any kind.
    finish(fake).await;

    // A burst of opens by another process: Carol's open meets 40003, waits, and goes.
    fake.rate_limits(|r| r.crowd_dm_opens(Duration::from_secs(3)));
    send_private(&http, &data, &view, &[post(CAROL, 5)], None, Lang::En).await;
    fake.rate_limits(|r| {
        assert!(r.dm_refused >= 1, "the open was refused first");
        assert_eq!(r.limited, r.dm_refused, "no other 429");
    });
    assert_eq!(hands(CAROL), ["Hand number 5."]);
    fake.assert_clean();
    w.bot.stop().await;
}

// ----- 2. a whole 3-player standard game with typed lines -----

/// One whole turn of the player to decide, as a typed `/move` line: on a copy of the game,
/// `random` where offered (the layout), else the first option, until someone else decides.
async fn plan_turn(service: &Service, game: GameId) -> Option<(u8, String)> {
    let mut copy = service.load(game).await.expect("game").game;
    let seat = copy.prompt()?.seat;
    let mut line = Vec::new();
    while let Some(p) = copy.prompt() {
        if p.seat != seat || line.len() > 200 {
            break;
        }
        let pick = p
            .options
            .iter()
            .find(|o| o.as_str() == "random")
            .or(p.options.first())
            .expect("an option")
            .clone();
        copy.apply_notation(seat, &pick)
            .expect("a listed option applies");
        line.push(pick);
    }
    Some((seat.0, line.join("; ")))
}

#[tokio::test]
async fn three_player_standard_game_with_typed_lines() {
    const CAROL: u64 = 1_100_000_000_000_000_103;
    let w = World::sqlite().start().await;
    let fake = &w.fake;
    fake.add_user(CAROL, "carol");
    let (game, lobby, thread) = open_lobby(fake, "", "en-US").await;
    join_and_start(fake, &lobby, &[BOB, CAROL], ALICE).await;
    let mut board = latest_board_after(fake, thread, 0).await;
    let seats = w.service.lobbies().lobby(game).await.expect("game").seats;
    assert_eq!(seats.len(), 3);
    let mut turns = 0;
    while let Some((seat, line)) = plan_turn(&w.service, game).await {
        assert!(turns < 100, "the game does not end");
        let user = seats[usize::from(seat)]
            .user
            .map(|u| u as u64)
            .expect("a user");
        assert_eq!(mentioned(&board), Some(user), "the board names who decides");
        let cmd = send_move(fake, user, thread, &line).await;
        assert_eq!(fake.wait_for_callback(cmd.id).await.kind, 5);
        board = latest_board_after(fake, thread, board.id).await;
        turns += 1;
    }
    // Twelve rounds of owner layout, setter, owner path.
    assert_eq!(turns, 36);
    assert_eq!(status(&w.service, game).await, GameStatus::Finished);
    assert_eq!(custom_ids(&board.components), [format!("z:{}", game.0)]);
    assert_png(&board);
    assert_names_winner(&w.service, game, &board).await;
    finish(fake).await;
    w.bot.stop().await;
}

// ----- 11. games over days: reminders, a timeout, the clock, absent players -----

/// Waits for a public message in `channel` that contains `needle`.
async fn said(fake: &FakeDiscord, channel: u64, needle: &str) -> Message {
    fake.wait_until(&format!("a message with {needle:?}"), |st| {
        st.messages
            .iter()
            .find(|m| m.channel_id == channel && !m.deleted && m.content.contains(needle))
            .cloned()
    })
    .await
}

/// Waits for a DM to `user` that contains `needle`.
async fn dm_said(fake: &FakeDiscord, user: u64, needle: &str) -> Message {
    fake.wait_until(&format!("a DM with {needle:?}"), |st| {
        let dm = st.channels.values().find(|c| c.recipient == Some(user))?.id;
        st.messages
            .iter()
            .find(|m| m.channel_id == dm && m.content.contains(needle))
            .cloned()
    })
    .await
}

/// A player who left the server shares no guild with the bot: Discord refuses their DMs with
/// 50278. The reminder becomes a mention in the game's thread, as for closed DMs, and the
/// failure is remembered (no second DM is tried).
#[tokio::test]
async fn a_player_who_left_the_server_is_reminded_in_the_thread() {
    use croupier::clock::{unix_now, HOUR};
    let w = World::sqlite().service_clock(unix_now()).start().await;
    let clock = w.clock().clone();
    let fake = &w.fake;
    let (game, thread, board) = started(fake, "short=true").await;
    let mover = mentioned(&board).expect("a mention");
    fake.leave_guild(mover);
    clock.advance(12 * HOUR);
    said(fake, thread, &format!("<@{mover}>, it is your turn")).await;
    assert!(fake.dms(mover).is_empty());
    let seats = w.service.lobbies().lobby(game).await.expect("game").seats;
    let seat = seats
        .iter()
        .find(|s| s.user == Some(croupier_user(mover)))
        .expect("seat");
    assert_eq!(seat.dm_status, croupier::store::DmStatus::Closed);
    finish(fake).await;
    w.bot.stop().await;
}

#[tokio::test]
async fn reminders_a_timeout_the_clock_and_absent_players_over_days() {
    use croupier::clock::{unix_now, Clock, DAY, HOUR};
    const CAROL: u64 = 1_100_000_000_000_000_103;
    let w = World::sqlite().service_clock(unix_now()).start().await;
    let clock = w.clock().clone();
    let fake = &w.fake;
    fake.set_member_permissions(BOB, PLAIN_MEMBER);
    fake.add_user(CAROL, "Carol");
    let (game, thread, board) = started(fake, "short=true").await;
    let mover = mentioned(&board).expect("a mention");
    let waiting = other(mover);

    // Half the default 24 h: a DM with a link to the game.
    clock.advance(12 * HOUR);
    let start = clock.now() - 12 * HOUR;
    let due = |at: i64| format!("<t:{at}:R> (<t:{at}:f>)");
    let dm = dm_said(
        fake,
        mover,
        &format!("it is your turn; your time runs out {}", due(start + DAY)),
    )
    .await;
    assert!(dm.content.contains(&format!("/{thread}")), "{}", dm.content);
    // DMs closed before the last call: the reminder becomes a mention in the thread.
    fake.close_dms(mover);
    clock.advance(10 * HOUR);
    said(
        fake,
        thread,
        &format!(
            "<@{mover}>, it is your turn; your time runs out {}.",
            due(start + DAY)
        ),
    )
    .await;
    // Time is up: a bot plays the turn (Cortexcape has no pass); the thread is told.
    clock.advance(2 * HOUR);
    let timeout = said(fake, thread, "ran out of time").await;
    assert!(is_board(&timeout), "{timeout:?}");
    assert_eq!(mentioned(&timeout), Some(waiting));

    // /games: whose turn, time left, a jump link.
    let games = ask(fake, waiting, CHANNEL_ID, "games", vec![]).await;
    assert!(
        games.contains(&format!(
            "your turn!, time runs out {}",
            due(start + 2 * DAY)
        )),
        "{games}"
    );
    assert!(
        games.contains(&format!("https://discord.com/channels/{GUILD_ID}/{thread}")),
        "{games}"
    );
    // The clock: host only; pause, then resume.
    let refused = ask(
        fake,
        BOB,
        thread,
        "clock",
        vec![opt::string("action", "pause")],
    )
    .await;
    assert!(refused.starts_with("Only the host"), "{refused}");
    let done = ask(
        fake,
        ALICE,
        thread,
        "clock",
        vec![opt::string("action", "pause")],
    )
    .await;
    assert_eq!(done, "✅ Clock updated.");
    said(fake, thread, "The host paused the clock").await;
    clock.advance(3 * DAY);
    let done = ask(
        fake,
        ALICE,
        thread,
        "clock",
        vec![opt::string("action", "resume")],
    )
    .await;
    assert_eq!(done, "✅ Clock updated.");
    said(
        fake,
        thread,
        &format!(
            "The clock runs again: this turn's time runs out {}.",
            due(clock.now() + DAY)
        ),
    )
    .await;
    // Settings, in the player's own words.
    let settings = ask(
        fake,
        BOB,
        thread,
        "settings",
        vec![
            opt::string("timezone", "europe/paris"),
            opt::string("quiet_hours", "22:00-07:00"),
            opt::boolean("digest", true),
        ],
    )
    .await;
    assert!(settings.contains("Time zone: Europe/Paris"), "{settings}");
    assert!(settings.contains("Quiet hours: 22:00-07:00"), "{settings}");
    assert!(settings.contains("Daily digest: on"), "{settings}");
    let bad = ask(
        fake,
        BOB,
        thread,
        "settings",
        vec![opt::string("timezone", "Mars/Base")],
    )
    .await;
    assert!(bad.contains("Mars/Base"), "{bad}");
    // The player who ran out of time is kicked by the host (a seat still being played could
    // not be); Carol takes the seat.
    let refused = ask(fake, BOB, thread, "kick", vec![opt::integer("seat", 1)]).await;
    assert!(refused.starts_with("Only the host"), "{refused}");
    let (absent, name) = if mover == ALICE {
        (1, "alice")
    } else {
        (2, "bob")
    };
    let done = ask(
        fake,
        ALICE,
        thread,
        "kick",
        vec![opt::integer("seat", absent)],
    )
    .await;
    assert_eq!(done, "✅ Seat opened.");
    said(fake, thread, &format!("Seat {absent} ({name}) is open")).await;
    let done = ask(
        fake,
        ALICE,
        thread,
        "replace",
        vec![opt::integer("seat", absent), opt::user("user", CAROL)],
    )
    .await;
    assert_eq!(done, "✅ Seat handed over.");
    said(fake, thread, &format!("is replaced by <@{CAROL}>")).await;
    let seats = w.service.lobbies().lobby(game).await.expect("game").seats;
    let absent = usize::try_from(absent).expect("a seat");
    assert_eq!(seats[absent - 1].user, Some(croupier_user(CAROL)));
    // Her turn: the board is posted again, a new message that calls her (at the same version
    // as the last board; Discord would hand back that board for a reused nonce).
    let loaded = w.service.load(game).await.expect("game");
    if loaded
        .game
        .prompt()
        .is_some_and(|p| p.seat.index() == absent - 1)
    {
        fake.wait_until("a board for Carol", |st| {
            st.messages
                .iter()
                .any(|m| m.channel_id == thread && is_board(m) && m.pinged_users.contains(&CAROL))
                .then_some(())
        })
        .await;
    }
    // /stats: nothing finished yet.
    let stats = ask(fake, ALICE, thread, "stats", vec![]).await;
    assert_eq!(
        stats,
        "No rated game here yet: ratings start when a game ends."
    );
    finish(fake).await;
    w.bot.stop().await;
}

// ----- 12. two processes on one PostgreSQL database -----

#[tokio::test]
async fn two_processes_on_one_postgres_apply_each_interaction_and_job_once() {
    use croupier::clock::{unix_now, ManualClock, DAY};
    let Some(db) = store_db::Db::postgres("e2e_two_processes").await else {
        return;
    };
    let clock = ManualClock::new(unix_now());
    let fake = FakeDiscord::start().await;
    let mut services = Vec::new();
    let mut bots = Vec::new();
    for _ in 0..2 {
        let store = Store::connect(&db.url).await.expect("postgres store");
        let service = Service::new(store).with_clock(std::sync::Arc::new(clock.clone()));
        bots.push(Bot::start_ticking(&fake, service.clone(), Some(TICK)).await);
        services.push(service);
    }
    // Every interaction reaches both processes; each is answered once (a second answer
    // would be a violation), and the lobby, the seat and the start happen once.
    let (game, thread, board) = started(&fake, "short=true").await;
    assert_eq!(fake.threads().len(), 1);
    let seats = services[0].lobbies().lobby(game).await.expect("game").seats;
    assert_eq!(seats.len(), 2);
    // Two clicks on the same option at once: one move lands, the other click is told.
    let mover = mentioned(&board).expect("a mention");
    let id = first_decision(&board);
    let (a, b) = tokio::join!(
        fake.push(Push::button(board.id, &id).by(mover).in_channel(thread)),
        fake.push(Push::button(board.id, &id).by(mover).in_channel(thread))
    );
    for p in [&a, &b] {
        assert_eq!(fake.wait_for_callback(p.id).await.kind, 6);
    }
    fake.wait_until("one click refused", |st| {
        let n: usize = [a.id, b.id]
            .iter()
            .filter_map(|i| st.interactions.get(i))
            .map(|i| i.followups.len())
            .sum();
        (n == 1).then_some(())
    })
    .await;
    let moves = services[1].store().moves(game).await.expect("moves");
    assert_eq!(moves.len(), 1, "{moves:?}");
    // The deadline: both schedulers look, one fires.
    clock.advance(DAY);
    deadline_fired_once_then_stop(&fake, thread, services, bots, db).await;
}

/// After the clock passed a turn's deadline: its notice is posted once, no process finds the
/// job due again; then the bots stop and the database is dropped.
async fn deadline_fired_once_then_stop(
    fake: &FakeDiscord,
    thread: u64,
    services: Vec<Service>,
    bots: Vec<Bot>,
    db: store_db::Db,
) {
    said(fake, thread, "ran out of time").await;
    for (i, s) in services.iter().enumerate() {
        let late = s
            .clocks()
            .run_due_jobs(&format!("probe{i}"), 100)
            .await
            .expect("jobs");
        assert!(late.is_empty(), "fired again: {} notices", late.len());
    }
    let timeouts = fake
        .messages(thread)
        .iter()
        .filter(|m| m.content.contains("ran out of time"))
        .count();
    assert_eq!(timeouts, 1);
    finish(fake).await;
    for bot in bots {
        bot.stop().await;
    }
    for s in &services {
        s.store().close().await;
    }
    db.finish().await;
}

// ----- 13. shard ranges across processes -----

/// `serve --shards 0-1 --total 4` and `--shards 2-3 --total 4` on one PostgreSQL database:
/// each process identifies its own shards, Discord routes the guild's interactions to the one
/// shard that owns it (3, in the second process), the game plays through that process, and
/// the deadline job fires once from the first process, whose cache never saw the guild (here
/// the only one running a scheduler, so the test does not depend on who claims the job).
#[tokio::test]
async fn shard_ranges_split_the_gateway_between_processes() {
    use croupier::clock::{unix_now, ManualClock, DAY};
    let Some(db) = store_db::Db::postgres("e2e_shards").await else {
        return;
    };
    let clock = ManualClock::new(unix_now());
    let fake = FakeDiscord::start().await;
    let mut services = Vec::new();
    let mut bots = Vec::new();
    for (range, scheduler) in [("0-1", true), ("2-3", false)] {
        let shards = ShardRange::parse(range, 4).expect("a shard range");
        let store = Store::connect(&db.url).await.expect("postgres store");
        let service = Service::new(store).with_clock(std::sync::Arc::new(clock.clone()));
        bots.push(
            Bot::start_shards(
                &fake,
                service.clone(),
                Some(shards),
                scheduler.then_some(TICK),
            )
            .await,
        );
        services.push(service);
    }
    let mut identified: Vec<Value> = fake
        .identifies()
        .iter()
        .map(|d| d["shard"].clone())
        .collect();
    identified.sort_by_key(Value::to_string);
    assert_eq!(
        identified,
        [[0, 4], [1, 4], [2, 4], [3, 4]].map(|s| serde_json::json!(s))
    );
    let (game, thread, board) = started(&fake, "short=true").await;
    decide_first(&fake, &board).await;
    assert_eq!(
        services[0].store().moves(game).await.expect("moves").len(),
        1
    );
    // The commands are written once, by the process holding shard 0 (the other process has
    // answered clicks, so its set-up is over).
    let registrations = fake
        .requests()
        .iter()
        .filter(|r| {
            r.method == "PUT"
                && r.route.as_deref().is_some_and(|t| {
                    t.starts_with("/applications/{application_id}/") && t.ends_with("/commands")
                })
        })
        .count();
    assert_eq!(registrations, 1);
    // Every interaction reached one session: the guild's shard, held by the second process.
    let guild_shard = [(GUILD_ID >> 22) % 4, 4];
    assert_eq!(guild_shard, [3, 4]);
    let routes: Vec<Vec<[u64; 2]>> = fake
        .wait_until("the interactions", |st| {
            Some(
                st.interactions
                    .values()
                    .map(|i| i.delivered_to.clone())
                    .collect(),
            )
        })
        .await;
    assert!(routes.len() >= 3, "{routes:?}");
    assert!(routes.iter().all(|r| r == &[guild_shard]), "{routes:?}");
    clock.advance(DAY);
    deadline_fired_once_then_stop(&fake, thread, services, bots, db).await;
}

/// An option whose value is a list (Portal's seat order of colours) passes `/play`, written
/// with commas as its help says, and the game starts with it.
#[tokio::test]
async fn a_list_option_passes_play_and_the_game_starts_with_it() {
    let w = World::sqlite().start().await;
    let fake = &w.fake;
    let (game, lobby, _thread) = open_lobby_of(fake, "portal", "colours=green,red", "en-US").await;
    join_and_start(fake, &lobby, &[BOB], ALICE).await;
    let view = w.service.lobbies().lobby(game).await.expect("the game");
    assert_eq!(view.status, GameStatus::Active);
    assert_eq!(
        view.options.get("colours").map(String::as_str),
        Some("green,red")
    );
}

/// Hidden hands: a choice that names cards of a hand is never a public button. The deciding
/// player gets the options in their own "My hand and options" reply; a click there posts the
/// next board for everyone.
#[tokio::test]
async fn private_options_reach_only_the_deciding_player() {
    let w = World::sqlite().start().await;
    let fake = &w.fake;
    let (game, lobby, thread) = open_lobby_of(fake, "gates", "", "en-US").await;
    join_and_start(fake, &lobby, &[BOB], ALICE).await;
    let mut board = latest_board_after(fake, thread, 0).await;
    let mut steps = 0;
    let prompt = loop {
        let loaded = w.service.load(game).await.expect("the game");
        let prompt = loaded.game.prompt().expect("a running game");
        if prompt.private {
            break prompt;
        }
        board = decide_first(fake, &board).await;
        steps += 1;
        assert!(steps < 40, "no private choice came");
    };
    // Nothing public names an option of the hand: no buttons, no text.
    let ids = custom_ids(&board.components);
    assert!(
        ids.iter()
            .all(|i| !i.starts_with("g:") && !i.starts_with("s:")),
        "{ids:?}"
    );
    let hand_button = format!("h:{}", game.0);
    assert!(ids.contains(&hand_button), "{ids:?}");
    for m in public(fake, thread) {
        for o in &prompt.options {
            assert!(!m.content.contains(o.as_str()), "`{o}` in {:?}", m.content);
        }
    }
    let user = mentioned(&board).expect("someone decides");
    let p = fake
        .push(
            Push::button(board.id, &hand_button)
                .by(user)
                .in_channel(thread),
        )
        .await;
    let cb = fake.wait_for_callback(p.id).await;
    assert!(cb.ephemeral(), "{cb:?}");
    let reply = fake
        .wait_until("the hand with its options", |st| {
            let mid = st.interactions.get(&p.id)?.original?;
            let m = st.message(mid)?;
            (!custom_ids(&m.components).is_empty()).then(|| m.clone())
        })
        .await;
    assert!(reply.ephemeral(), "{reply:?}");
    assert!(reply.attachments.iter().any(|a| a.filename == "hand.png"));
    let before = w.service.load(game).await.expect("the game").record.version;
    let next = decide_on_private_reply(fake, thread, &reply, user).await;
    assert!(next.id > board.id, "a new public board");
    assert_png(&next);
    let after = w.service.load(game).await.expect("the game").record.version;
    assert!(after > before, "the click moved the game");
    finish(fake).await;
    w.bot.stop().await;
}

/// Zoom (phones): every board offers it; a player gets the parts of the board that matter to
/// them (their own station first) at full size, a spectator the shared parts, both privately,
/// and the game does not move.
#[tokio::test]
async fn zoom_answers_privately_with_the_parts_that_matter() {
    let w = World::sqlite().start().await;
    let fake = &w.fake;
    let (game, lobby, thread) = open_lobby_of(fake, "spacelab", "", "en-US").await;
    join_and_start(fake, &lobby, &[BOB], ALICE).await;
    let board = latest_board_after(fake, thread, 0).await;
    let zoom = format!("z:{}", game.0);
    let ids = custom_ids(&board.components);
    assert!(ids.contains(&zoom), "{ids:?}");
    let before = w.service.load(game).await.expect("the game").record.version;
    for (user, seated) in [(BOB, true), (OWNER_ID, false)] {
        // Zoom answers privately: an ephemeral deferral, then the answer written into it.
        let reply = bot_play::ask(fake, user, thread, Push::button(board.id, &zoom)).await;
        assert!(reply.ephemeral(), "{reply:?}");
        let a = reply
            .attachments
            .iter()
            .find(|a| a.filename == "zoom.png")
            .unwrap_or_else(|| panic!("no zoom.png on {reply:?}"));
        let (width, height) = a.dimensions.expect("the fake decoded the PNG");
        assert!(width <= 700 && height > 300, "{width}x{height}");
        // Space Lab: the clicker's own station comes first, named as theirs.
        assert_eq!(reply.content.contains("(you)"), seated, "{}", reply.content);
        assert!(
            reply.content.contains("Recruitment Centre"),
            "{}",
            reply.content
        );
    }
    let after = w.service.load(game).await.expect("the game").record.version;
    assert_eq!(after, before, "a zoom changes nothing");
    finish(fake).await;
    w.bot.stop().await;
}

/// Clicks the first option of a private reply; returns the public board posted after it.
async fn decide_on_private_reply(
    fake: &FakeDiscord,
    channel: u64,
    reply: &Message,
    user: u64,
) -> Message {
    let ids = custom_ids(&reply.components);
    let id = ids
        .iter()
        .find(|i| i.starts_with("g:") || i.starts_with("s:"))
        .unwrap_or_else(|| panic!("no option in {ids:?}"))
        .clone();
    let p = if id.starts_with("s:") {
        let menu = component(&reply.components, &id).expect("menu");
        let value = menu["options"][0]["value"]
            .as_str()
            .expect("value")
            .to_string();
        fake.push(
            Push::select(reply.id, &id, &[value.as_str()])
                .by(user)
                .in_channel(channel),
        )
        .await
    } else {
        fake.push(Push::button(reply.id, &id).by(user).in_channel(channel))
            .await
    };
    let cb = fake.wait_for_callback(p.id).await;
    assert_eq!(cb.kind, 6, "{cb:?}");
    latest_board_after(fake, channel, reply.id).await
}

// ----- long prompts: a menu of groups, then a private panel -----

#[tokio::test]
async fn a_long_prompt_opens_a_private_group_panel_for_its_player() {
    let w = World::sqlite().start().await;
    let fake = &w.fake;
    // Vortex alone is Solitaire: every tower turns both ways, far more than 25 options.
    let (game, lobby, thread) = open_lobby_of(fake, "vortex", "", "en-US").await;
    join_and_start(fake, &lobby, &[], ALICE).await;
    let board = latest_board_after(fake, thread, 0).await;
    let loaded = w.service.load(game).await.expect("the game");
    let prompt = loaded.game.prompt().expect("a running game");
    assert!(prompt.options.len() > 25, "{:?}", prompt.options);
    let group_id = format!("o:{}:{}", game.0, loaded.record.version.0);
    let menu = component(&board.components, &group_id)
        .unwrap_or_else(|| panic!("no group menu in {:?}", custom_ids(&board.components)));
    let groups = menu["options"].as_array().expect("groups").clone();
    assert!(groups.len() <= 25 && groups.len() > 1, "{groups:?}");
    assert!(!board.content.contains("/move"), "{}", board.content);
    // Someone else may not open the deciding player's panel.
    let p = fake
        .push(
            Push::select(board.id, &group_id, &["0"])
                .by(BOB)
                .in_channel(thread),
        )
        .await;
    let cb = fake.wait_for_callback(p.id).await;
    assert!(cb.ephemeral(), "{cb:?}");
    let refusal = fake
        .wait_until("the refusal", |st| {
            let m = st.message(st.interactions.get(&p.id)?.original?)?;
            (!m.content.is_empty()).then(|| m.clone())
        })
        .await;
    assert!(custom_ids(&refusal.components).is_empty(), "{refusal:?}");
    // Alice picks the first group: a panel only she sees, with that group's options.
    let label = groups[0]["label"].as_str().expect("label").to_string();
    let p = fake
        .push(
            Push::select(board.id, &group_id, &["0"])
                .by(ALICE)
                .in_channel(thread),
        )
        .await;
    let cb = fake.wait_for_callback(p.id).await;
    assert!(cb.ephemeral(), "{cb:?}");
    let panel = fake
        .wait_until("the group panel", |st| {
            let m = st.message(st.interactions.get(&p.id)?.original?)?;
            (!custom_ids(&m.components).is_empty()).then(|| m.clone())
        })
        .await;
    assert!(panel.ephemeral());
    assert!(panel.content.contains(&label), "{}", panel.content);
    let ids = custom_ids(&panel.components);
    let tower = label.split(' ').next().expect("a tower");
    let picked: Vec<&str> = ids
        .iter()
        .filter_map(|id| id.rsplit(':').next()?.parse::<usize>().ok())
        .map(|i| prompt.options[i].as_str())
        .collect();
    assert!(!picked.is_empty());
    assert!(
        picked
            .iter()
            .all(|o| o.split(' ').nth(1).is_some_and(|t| t == tower)),
        "{picked:?} are not all about {tower}"
    );
    // Her click plays the option and posts the new board.
    let before = loaded.record.version;
    let next = decide_on_private_reply(fake, thread, &panel, ALICE).await;
    assert!(next.id > board.id);
    assert_png(&next);
    let after = w.service.load(game).await.expect("the game");
    assert!(after.record.version > before);
    let played = fake
        .wait_until("the panel says played", |st| {
            let m = st.message(panel.id)?;
            custom_ids(&m.components).is_empty().then(|| m.clone())
        })
        .await;
    assert!(played.content.contains("Played"), "{}", played.content);
    finish(fake).await;
    w.bot.stop().await;
}

// ----- bot seats: added in the lobby, they play their turns by themselves -----

#[tokio::test]
async fn a_bot_added_in_the_lobby_plays_its_turns() {
    let w = World::sqlite().start().await;
    let fake = &w.fake;
    fake.set_member_permissions(BOB, PLAIN_MEMBER);
    let cmd = fake
        .push(Push::command(
            "play",
            vec![
                opt::string("game", "cortexcape"),
                opt::string("options", "short=true"),
                opt::integer("players", 2),
                opt::string("bots", "easy"),
            ],
        ))
        .await;
    let lobby = play_answer(fake, cmd.id).await.expect("a lobby");
    let game = w
        .service
        .find()
        .games_of_user(croupier_user(ALICE), 10)
        .await
        .expect("games")
        .first()
        .map(|g| g.game)
        .expect("the lobby");
    // The game's thread will open from the lobby message, and take its id.
    let thread = lobby.id;
    // Only the host (or a moderator) may seat a bot.
    let add = format!("l:{}:bot", game.0);
    let refused = click_lobby(fake, &lobby, "bot", BOB).await;
    assert!(refused.is_err(), "a refusal for Bob: {refused:?}");
    let lobby = click_lobby(fake, &lobby, "bot", ALICE)
        .await
        .expect("the lobby is updated");
    assert!(lobby.content.contains("🤖 Bot 1"), "{}", lobby.content);
    assert!(lobby.content.contains("level easy"), "{}", lobby.content);
    let ids = custom_ids(&lobby.components);
    assert!(ids.contains(&format!("l:{}:unbot", game.0)), "{ids:?}");
    assert!(!ids.contains(&add), "two seats, both taken: {ids:?}");
    let view = w.service.lobbies().lobby(game).await.expect("lobby");
    assert!(view.seats[1].is_bot && view.seats[1].user.is_none());
    let cb = click(
        fake,
        lobby.id,
        &format!("l:{}:start", game.0),
        ALICE,
        CHANNEL_ID,
    )
    .await;
    assert_eq!(cb.kind, 6);
    // Alice plays her decisions; the bot plays its own without anyone clicking.
    let mut board = latest_board_after(fake, thread, 0).await;
    let mut bot_moves = 0;
    for _ in 0..60 {
        let moves = w.service.store().moves(game).await.expect("moves");
        bot_moves = moves.iter().filter(|m| m.seat.index() == 1).count();
        if bot_moves >= 2 || status(&w.service, game).await != GameStatus::Active {
            break;
        }
        let loaded = w.service.load(game).await.expect("the game");
        match loaded.game.prompt() {
            Some(p) if p.seat.index() == 0 && mentioned(&board) == Some(ALICE) => {
                board = decide_first(fake, &board).await;
            }
            _ => {
                // The bot's turn: wait for the board it posts.
                board = latest_board_after(fake, thread, board.id).await;
            }
        }
    }
    assert!(bot_moves >= 2, "the bot did not play");
    finish(fake).await;
    w.bot.stop().await;
}

// ----- threads over days: archived, locked, deleted -----

/// Alice opens a short Cortexcape with a turn clock of `clock`, Bob joins, Alice starts:
/// the game, its thread and its first board.
async fn started_with_clock(fake: &FakeDiscord, clock: &str) -> (GameId, u64, Message) {
    let cmd = fake
        .push(Push::command(
            "play",
            vec![
                opt::string("game", "cortexcape"),
                opt::string("options", "short=true"),
                opt::string("clock", clock),
            ],
        ))
        .await;
    let lobby = play_answer(fake, cmd.id).await.expect("a lobby");
    let game = game_of(&lobby);
    join_and_start(fake, &lobby, &[BOB], ALICE).await;
    let board = latest_board_after(fake, lobby.id, 0).await;
    (game, lobby.id, board)
}

fn is_archived(fake: &FakeDiscord, thread: u64) -> bool {
    fake.channel(thread).expect("the thread").archived
}

/// A game's thread archives after a week without a message (the bot opens it so); a turn
/// may last longer. The player must still be able to play on, by a button or by `/move`,
/// whatever their client does with the archived thread.
#[tokio::test]
async fn a_game_goes_on_after_its_thread_archived_during_a_long_turn() {
    use croupier::clock::{unix_now, DAY};
    // The fake's clock follows the service's.
    let w = World::sqlite().clock(unix_now()).start().await;
    let clock = w.clock().clone();
    let fake = &w.fake;
    // The longest clock: the player's turn spans all three archivings (day 24) and must not
    // run out under the last /move (a shorter one would race the timeout against it).
    let (game, thread, board) = started_with_clock(fake, "30d").await;

    // Eight days without a message: the thread archived. The player's client unarchives it
    // before sending the click (Discord's web and mobile clients do).
    clock.advance(8 * DAY);
    assert!(is_archived(fake, thread));
    let pushed = click_first(fake, &board).await;
    fake.wait_for_callback(pushed.id).await;
    let board = board_after(fake, &board).await;
    assert!(!is_archived(fake, thread));

    // Eight more days; this time the click arrives while the thread stays archived (as some
    // clients send it). Discord refuses the edits of the board (50083): the bot unarchives
    // its thread and edits again, so the old board loses its buttons and the new one comes.
    fake.set_behaviour(Behaviour::ClientUnarchivesForInteractions, false);
    clock.advance(8 * DAY);
    assert!(is_archived(fake, thread));
    let version = w.service.load(game).await.expect("game").record.version;
    let pushed = click_first(fake, &board).await;
    fake.wait_for_callback(pushed.id).await;
    let next = board_after(fake, &board).await;
    let after = w.service.load(game).await.expect("game").record.version;
    assert!(after > version, "the click was played");
    let old = fake.message(board.id).expect("the old board");
    if next.id != board.id {
        assert!(
            old.components.is_empty(),
            "old board kept its buttons: {old:?}"
        );
    }
    // The next decision's buttons, or the final board's Zoom alone.
    let only_zoom = custom_ids(&next.components) == [format!("z:{}", game.0)];
    assert!(offers_version(&next, game, after.0) || only_zoom);
    // Unarchived by the bot after a refused edit, or reopened by the new board's post when that
    // went first (a message reopens an archived thread): both orders happen under load, and
    // a board edited in place can only have come through the unarchive.
    let unarchived = fake.requests().iter().any(|r| {
        r.method == "PATCH"
            && r.route.as_deref() == Some("/channels/{channel_id}")
            && r.body.as_ref().is_some_and(|b| b["archived"] == false)
    });
    assert!(unarchived || next.id != board.id, "{next:?}");
    assert!(!is_archived(fake, thread));

    // Eight more days, and the player types /move in the archived thread.
    clock.advance(8 * DAY);
    assert!(is_archived(fake, thread));
    let decider = mentioned(&next).expect("who decides");
    let option = legal_options(&w.service, game).await[0].clone();
    let pushed = send_move(fake, decider, thread, &option).await;
    let answer = answer_of(fake, pushed.id).await;
    assert!(answer.content.contains("Played"), "{}", answer.content);
    let last = latest_board_after(fake, thread, next.id).await;
    assert!(last.id > next.id);
    assert!(!is_archived(fake, thread));
    finish(fake).await;
    w.bot.stop().await;
}

/// A moderator deletes the game's thread. The game goes on in a new thread of its channel,
/// recorded in the store, with its current board, and the players are pinged there. (A locked
/// thread pauses the game instead, until the host or a moderator resumes it: `tests/suite/fair_play.rs`.)
#[tokio::test]
async fn a_game_whose_thread_is_deleted_goes_on_in_a_new_thread() {
    let w = World::sqlite().start().await;
    let fake = &w.fake;
    let (game, thread, board) = started(fake, "short=true").await;
    // Discord makes the new thread but the answer is lost (issue 37): the bot looks before it
    // tries again, and the game gets one thread, not two.
    fake.fail_after("POST /channels/{channel_id}/threads", 1, 502);
    fake.delete_thread(thread);
    let moved = fake
        .wait_until("a second thread", |st| {
            st.channels
                .values()
                .find(|c| c.parent_id == Some(CHANNEL_ID) && c.id != thread)
                .map(|c| c.id)
        })
        .await;
    let notice = said(fake, moved, "goes on in this thread").await;
    assert!(notice.pinged_users.contains(&ALICE) && notice.pinged_users.contains(&BOB));
    let again = latest_board_after(fake, moved, 0).await;
    let version = w.service.load(game).await.expect("game").record.version;
    assert!(offers_version(&again, game, version.0), "{again:?}");
    assert_eq!(custom_ids(&again.components), custom_ids(&board.components));
    let view = w.service.lobbies().lobby(game).await.expect("game");
    assert_eq!(view.thread, Some(moved as i64));
    assert!(fake.pending_faults().is_empty());
    let threads = fake
        .threads()
        .iter()
        .filter(|c| c.parent_id == Some(CHANNEL_ID) && c.id != thread)
        .count();
    assert_eq!(threads, 1, "one new thread");
    // And the game plays on there.
    let pushed = click_first(fake, &again).await;
    fake.wait_for_callback(pushed.id).await;
    board_after(fake, &again).await;
    finish(fake).await;
    w.bot.stop().await;
}

/// The game's channel is deleted, with its thread: nothing can show the game, so it is paused
/// (its clock stopped) and its players are told by DM.
#[tokio::test]
async fn a_game_whose_channel_is_deleted_is_paused_and_its_players_told() {
    let w = World::sqlite().start().await;
    let fake = &w.fake;
    let (game, _thread, _board) = started(fake, "short=true").await;
    let before = w.service.load(game).await.expect("game").record;
    assert!(before.clock.deadline_at.is_some());
    fake.delete_channel(CHANNEL_ID);
    for user in [ALICE, BOB] {
        dm_said(fake, user, "is paused: its Discord channel was deleted").await;
    }
    let record = w.service.load(game).await.expect("game").record;
    assert!(record.clock.paused_left.is_some(), "{:?}", record.clock);
    assert_eq!(record.clock.deadline_at, None);
    let view = w.service.lobbies().lobby(game).await.expect("game");
    assert_eq!((view.channel, view.thread), (None, None));
    finish(fake).await;
    w.bot.stop().await;
}

/// A board Discord refuses for good (here a permission taken away: 403 / 50013) is not
/// retried by the sweeper, so the player must not be promised it.
#[tokio::test]
async fn a_board_refused_for_good_is_not_promised() {
    let w = World::sqlite().start().await;
    let fake = &w.fake;
    let (game, thread, board) = started(fake, "short=true").await;
    fake.fail_next("POST /channels/{channel_id}/messages", 1, 403, 50013);
    let decider = mentioned(&board).expect("who decides");
    let option = legal_options(&w.service, game).await[0].clone();
    let pushed = send_move(fake, decider, thread, &option).await;
    let answer = answer_of(fake, pushed.id).await;
    assert!(
        fake.pending_faults().is_empty(),
        "the board post was refused"
    );
    assert!(
        answer
            .content
            .contains("so it will not be posted by itself. /board shows it to you."),
        "{}",
        answer.content
    );
    assert!(
        !answer.content.contains("in a minute"),
        "{}",
        answer.content
    );
    finish(fake).await;
    w.bot.stop().await;
}

/// The bot is removed from the server (GUILD_DELETE, not an outage): its games there can
/// show nothing, so they pause; the DMs fail (no server in common any more) and are
/// remembered as closed.
#[tokio::test]
async fn the_games_of_a_server_the_bot_left_are_paused() {
    let w = World::sqlite().start().await;
    let fake = &w.fake;
    let (game, _thread, _board) = started(fake, "short=true").await;
    fake.remove_bot_from_guild();
    let mut paused = None;
    for _ in 0..200 {
        let record = w.service.load(game).await.expect("game").record;
        if record.clock.paused_left.is_some() {
            paused = Some(record);
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let record = paused.expect("the game paused");
    assert_eq!((record.channel, record.thread), (None, None));
    assert!(fake
        .dms(ALICE)
        .iter()
        .all(|m| !m.content.contains("is paused")));
    finish(fake).await;
    w.bot.stop().await;
}

// ----- issue 37, item 6: the small ones -----

/// A member in many games, against a player whose name is as long as Discord allows (32
/// characters, each `_` escaped in the text): `/games` keeps whole lines within Discord's
/// 2,000 characters and says how many it left out, never a line cut in its middle.
#[tokio::test]
async fn games_keeps_whole_lines_within_two_thousand_characters() {
    let w = World::sqlite().start().await;
    let fake = &w.fake;
    let long = "_".repeat(32);
    for seed in 0..20 {
        start_direct(
            &w.service,
            croupier::engine::GameKind::Cortexcape,
            croupier::engine::GameOptions::new(),
            &[(BOB, long.as_str()), (ALICE, "Alice")],
            CHANNEL_ID,
            seed,
        )
        .await;
    }
    let answer = bot_play::ask(fake, ALICE, CHANNEL_ID, Push::command("games", vec![])).await;
    let text = &answer.content;
    assert!(text.chars().count() <= 2000, "{}", text.chars().count());
    let lines: Vec<&str> = text.lines().collect();
    let (last, games) = lines.split_last().expect("lines");
    assert!(games.len() >= 5 && games.len() < 20, "{text}");
    // Each game's line ends with its link (these games have no board message yet).
    for line in games {
        assert!(
            line.ends_with(&format!("/{GUILD_ID}/{CHANNEL_ID}")),
            "a cut line: {line}"
        );
    }
    assert!(
        last.contains(&format!("{} more", 20 - games.len())),
        "{last}"
    );
    finish(fake).await;
    w.bot.stop().await;
}

/// After a resignation the game is over: `/board` and Zoom name nobody's turn and offer no
/// option (Space Lab's Zoom names the seat to play when a game runs).
#[tokio::test]
async fn a_resigned_games_board_and_zoom_show_no_turn() {
    let w = World::sqlite().start().await;
    let fake = &w.fake;
    let (game, lobby, thread) = open_lobby_of(fake, "spacelab", "", "en-US").await;
    join_and_start(fake, &lobby, &[BOB], ALICE).await;
    let board = latest_board_after(fake, thread, 0).await;
    let mover = mentioned(&board).expect("a player to act");
    let other = if mover == ALICE { BOB } else { ALICE };
    let zoom = format!("z:{}", game.0);
    // While it runs, /board names the turn (and has the Zoom button).
    let mut shown = Vec::new();
    for user in [mover, other] {
        let answer = bot_play::ask(fake, user, thread, Push::command("board", vec![])).await;
        assert!(answer.content.contains("➡️"), "{}", answer.content);
        assert!(custom_ids(&answer.components).contains(&zoom));
        shown.push((user, answer));
    }
    let question = bot_play::ask(fake, other, thread, Push::command("resign", vec![])).await;
    click_private(fake, &question, &format!("k:{}:resign", game.0), other).await;
    assert_eq!(status(&w.service, game).await, GameStatus::Finished);
    for (user, before) in &shown {
        // Zoom, from the answer each had before the resignation.
        let zoomed = bot_play::ask(fake, *user, thread, Push::button(before.id, &zoom)).await;
        assert!(
            zoomed.attachments.iter().any(|a| a.filename == "zoom.png"),
            "{zoomed:?}"
        );
        for turn in ["to play", "your turn"] {
            assert!(!zoomed.content.contains(turn), "{}", zoomed.content);
        }
        // A finished game is named (in its thread, only a running one is found by itself).
        let named = Push::command("board", vec![opt::integer("game", game.0)]);
        let now = bot_play::ask(fake, *user, thread, named).await;
        assert!(now.content.contains("resigned"), "{}", now.content);
        for turn in ["➡️", "<@", "Time runs out"] {
            assert!(!now.content.contains(turn), "{}", now.content);
        }
        assert_eq!(custom_ids(&now.components), std::slice::from_ref(&zoom));
    }
    finish(fake).await;
    w.bot.stop().await;
}

/// `/play` in a thread a member started (not a game's): the lobby opens there and Start plays
/// the game there, without asking Discord for a thread inside the thread (400 / 50024).
#[tokio::test]
async fn a_lobby_in_a_members_thread_is_played_there() {
    let w = World::sqlite().start().await;
    let fake = &w.fake;
    let talk = fake.member_thread(CHANNEL_ID, "game night");
    let cmd = fake
        .push(
            Push::command(
                "play",
                vec![
                    opt::string("game", "cortexcape"),
                    opt::string("options", "short=true"),
                ],
            )
            .by(ALICE)
            .in_channel(talk),
        )
        .await;
    let lobby = play_answer(fake, cmd.id).await.expect("a lobby");
    assert_eq!(lobby.channel_id, talk);
    click_lobby(fake, &lobby, "join", BOB)
        .await
        .expect("Bob joins");
    click_lobby(fake, &lobby, "start", ALICE)
        .await
        .expect("Alice starts");
    let board = latest_board_after(fake, talk, lobby.id).await;
    assert!(!board.components.is_empty(), "{board:?}");
    // No thread was asked for: the member's thread is the only one.
    assert_eq!(
        fake.threads().iter().map(|t| t.id).collect::<Vec<_>>(),
        [talk]
    );
    // The players are in the thread their game is played in.
    fake.wait_until("the players in the thread", |st| {
        let m = st.thread_members.get(&talk)?;
        (m.contains(&ALICE) && m.contains(&BOB)).then_some(())
    })
    .await;
    decide_first(fake, &board).await;
    finish(fake).await;
    w.bot.stop().await;
}

/// `/play` in a game's thread is refused privately, naming that game and where to open a new
/// one, in the member's language; nothing is opened there.
#[tokio::test]
async fn play_in_a_games_thread_names_that_game() {
    let w = World::sqlite().start().await;
    let fake = &w.fake;
    let (game, thread) = start_game(fake).await;
    for (locale, named) in [
        ("en-US", format!("Cortexcape #{}", game.0)),
        ("fr", format!("Cortexcape n°{}", game.0)),
    ] {
        let cmd = fake
            .push(
                Push::command("play", vec![opt::string("game", "vortex")])
                    .by(BOB)
                    .in_channel(thread)
                    .locale(locale),
            )
            .await;
        let refused = play_answer(fake, cmd.id)
            .await
            .expect_err("refused in a game's thread");
        assert!(refused.contains(&named), "{refused}");
        assert!(refused.contains(&format!("<#{CHANNEL_ID}>")), "{refused}");
    }
    assert!(
        fake.messages(thread)
            .iter()
            .all(|m| !custom_ids(&m.components)
                .iter()
                .any(|c| c.ends_with(":join"))),
        "a lobby was opened in the game's thread"
    );
    finish(fake).await;
    w.bot.stop().await;
}

/// `/play` answers privately and the lobby is an ordinary message in the channel: the
/// answer (in the member's language) links to it, a post whose answer is lost comes once
/// (its nonce), a refusal shows nothing in the channel (no public "thinking…" to take back),
/// and a lobby Discord refuses to post is cancelled, not left holding the host's lobbies.
#[tokio::test]
async fn play_answers_privately_and_posts_its_lobby_in_the_channel() {
    const POST: &str = "POST /channels/{channel_id}/messages";
    let w = World::sqlite().start().await;
    let fake = &w.fake;
    let public = |fake: &FakeDiscord| {
        fake.messages(CHANNEL_ID)
            .into_iter()
            .filter(|m| !m.ephemeral())
            .map(|m| m.id)
            .collect::<Vec<_>>()
    };

    fake.fail_after(POST, 1, 502);
    let cmd = fake
        .push(Push::command("play", vec![opt::string("game", "vortex")]).locale("fr"))
        .await;
    let lobby = play_answer(fake, cmd.id).await.expect("a lobby");
    let answer = fake.original_response(cmd.id).expect("the private answer");
    assert!(answer.ephemeral());
    assert_eq!(linked_message(&answer.content), Some(lobby.id));
    assert!(
        answer.content.contains("salon d'attente Vortex"),
        "{}",
        answer.content
    );
    assert_eq!((lobby.channel_id, lobby.interaction_id), (CHANNEL_ID, None));
    assert_eq!(
        public(fake),
        [lobby.id],
        "one lobby, posted once, nothing else"
    );

    // Refused (an unknown game; the host's own lobby in a game's thread is another test):
    // nothing public appears or flashes.
    let cmd = fake
        .push(Push::command("play", vec![opt::string("game", "chess")]).by(BOB))
        .await;
    play_answer(fake, cmd.id).await.expect_err("no such game");
    assert_eq!(public(fake), [lobby.id]);
    assert!(fake.messages(CHANNEL_ID).iter().all(|m| !m.deleted));

    // Discord refuses the lobby's post for good: the member is told, and no lobby stays open.
    fake.fail_next(POST, 1, 403, 50013);
    let cmd = fake
        .push(Push::command("play", vec![opt::string("game", "gates")]).by(BOB))
        .await;
    let refused = play_answer(fake, cmd.id).await.expect_err("not posted");
    assert!(!refused.is_empty());
    let games = w
        .service
        .find()
        .games_of_user(i64::try_from(BOB).unwrap(), 10)
        .await
        .expect("games");
    assert!(
        games.iter().all(|g| g.status != GameStatus::Lobby),
        "the unposted lobby was cancelled: {games:?}"
    );
    assert!(fake.pending_faults().is_empty());
    assert_eq!(public(fake), [lobby.id]);
    finish(fake).await;
    w.bot.stop().await;
}

/// A clock typed long (a valid duration of 179 characters): autocomplete offers it in its
/// short form, never a choice over Discord's 100 characters.
#[tokio::test]
async fn clock_autocomplete_never_offers_over_100_characters() {
    let w = World::sqlite().start().await;
    let fake = &w.fake;
    let typed = ["1h"; 60].join(" ");
    assert!(typed.chars().count() > 100);
    let p = fake
        .push(
            Push::autocomplete(
                "play",
                vec![
                    opt::string("game", "cortexcape"),
                    opt::focused("clock", &typed),
                ],
            )
            .by(ALICE),
        )
        .await;
    let cb = fake.wait_for_callback(p.id).await;
    assert_eq!(cb.kind, 8, "{cb:?}");
    let choices: Vec<(String, String)> = cb.data["choices"]
        .as_array()
        .cloned()
        .unwrap_or_default()
        .iter()
        .map(|c| {
            let text = |k: &str| c[k].as_str().unwrap_or_default().to_string();
            (text("name"), text("value"))
        })
        .collect();
    assert_eq!(choices, [("2d12h".to_string(), "2d12h".to_string())]);
    finish(fake).await;
    w.bot.stop().await;
}

/// `/help` answers only the member, in their language: what the bot does, then every
/// registered command grouped, each a mention members can click (its id from the
/// registration) with an example, within Discord's embed limits (the fake checks them).
#[tokio::test]
async fn help_lists_every_command_privately_in_the_members_language() {
    let w = World::sqlite().start().await;
    let fake = &w.fake;
    let ids = fake.command_ids();
    assert!(ids.iter().any(|(name, _)| name == "help"), "{ids:?}");
    let help = |locale: &'static str| async move {
        let cmd = fake
            .push(
                Push::command("help", vec![])
                    .by(BOB)
                    .in_channel(CHANNEL_ID)
                    .locale(locale),
            )
            .await;
        let cb = fake.wait_for_callback(cmd.id).await;
        assert!(cb.kind == 5 && cb.ephemeral(), "{cb:?}");
        fake.wait_until("the help page", |st| {
            let m = st.message(st.interactions.get(&cmd.id)?.original?)?;
            (!m.embeds.is_empty()).then(|| m.clone())
        })
        .await
    };
    for (locale, title, play, example) in [
        ("en-US", "board games", "play", "`/play game:vortex"),
        ("fr", "jeux de plateau", "jouer", "`/jouer jeu:vortex"),
    ] {
        let page = help(locale).await;
        assert!(page.ephemeral());
        assert!(page.pinged_users.is_empty());
        let embed = &page.embeds[0];
        let text = embed.to_string();
        assert!(
            embed["title"].as_str().unwrap_or_default().contains(title),
            "{text}"
        );
        assert_eq!(embed["fields"].as_array().map(Vec::len), Some(7), "{text}");
        assert!(text.contains(example), "{text}");
        let play_id = ids.iter().find(|(n, _)| n == "play").unwrap().1;
        assert!(text.contains(&format!("</{play}:{play_id}>")), "{text}");
        // Every registered command, clickable.
        for (name, id) in &ids {
            assert!(text.contains(&format!(":{id}>")), "/{name} missing: {text}");
        }
    }
    finish(fake).await;
    w.bot.stop().await;
}

/// A server that adds the bot gets one welcome: in its system channel, else in the first
/// channel the bot may post in (the cache says where: no refused request), in English then
/// French (a server that is not a Community server says en-US whatever it speaks), with the
/// commands to start and the rights ticked. The servers READY announces, and a new session
/// after a restart, are never greeted. The presence counts the running games of every
/// process and is sent only when the count changes.
#[tokio::test]
async fn a_new_server_is_welcomed_once_and_the_presence_counts_the_games() {
    let w = World::sqlite()
        .config(|c| c.presence_every = Duration::from_millis(200))
        .start()
        .await;
    let fake = &w.fake;
    // The connected session's activity (read from the state `wait_until` holds).
    let activity = |st: &State| {
        st.sessions
            .iter()
            .find(|s| s.tx.is_some())
            .and_then(|s| s.presence.as_ref())
            .and_then(|p| p["activities"][0]["name"].as_str().map(str::to_string))
    };
    fake.wait_until("the presence", |st| {
        (activity(st).as_deref() == Some("0 games · /help")).then_some(())
    })
    .await;

    let welcomes = |channel: u64| {
        fake.messages(channel)
            .into_iter()
            .filter(|m| m.content.contains("Thanks for adding croupier"))
            .collect::<Vec<_>>()
    };
    let welcomed = |st: &State, channel: u64| {
        st.messages
            .iter()
            .any(|m| m.channel_id == channel && m.content.contains("Thanks for adding"))
            .then_some(())
    };
    // With a system channel.
    let (_, rules, general) = fake.join_guild(true);
    fake.wait_until("the welcome", |st| welcomed(st, general))
        .await;
    let welcome = &welcomes(general)[0];
    let play_id = fake
        .command_ids()
        .into_iter()
        .find(|(n, _)| n == "play")
        .unwrap()
        .1;
    for part in [
        format!("</play:{play_id}>"),
        format!("</jouer:{play_id}>"),
        "Merci d'avoir ajouté croupier".to_string(),
        "✅ Attach Files".to_string(),
        "✅ Create Public Threads".to_string(),
        "Create Private Threads (/learn".to_string(),
        "Créer des fils privés (les leçons de /apprendre".to_string(),
    ] {
        assert!(
            welcome.content.contains(&part),
            "{part}: {}",
            welcome.content
        );
    }
    assert!(welcome.pinged_users.is_empty() && !welcome.pinged_everyone);
    // Without one: `rules` comes first but the bot may not post there; nothing is tried there.
    let (_, rules2, general2) = fake.join_guild(false);
    fake.wait_until("the second welcome", |st| welcomed(st, general2))
        .await;
    for channel in [rules, rules2] {
        assert!(fake.messages(channel).is_empty());
        let tried = format!("/channels/{channel}/messages");
        assert!(
            !fake.requests().iter().any(|r| r.uri.contains(&tried)),
            "a post was tried in a channel the bot may not post in"
        );
    }

    // A new session (as after a restart) announces every guild again: no second welcome.
    let sessions = fake.identifies().len();
    fake.invalidate_sessions();
    fake.wait_until("a new session", |st| {
        (st.sessions.len() > sessions && st.sessions.last().is_some_and(|s| s.tx.is_some()))
            .then_some(())
    })
    .await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(welcomes(general).len() + welcomes(general2).len(), 2);

    // Two games start: the presence says so, once.
    let players = [(ALICE, "Alice"), (BOB, "Bob")];
    for seed in [1, 2] {
        let options = croupier::engine::GameOptions::new();
        let kind = croupier::engine::GameKind::Cortexcape;
        bot_play::start_direct(&w.service, kind, options, &players, CHANNEL_ID, seed).await;
    }
    fake.wait_until("the presence", |st| {
        (activity(st).as_deref() == Some("2 games · /help")).then_some(())
    })
    .await;
    let updates = fake.presences()[0].2;
    tokio::time::sleep(Duration::from_millis(1000)).await;
    assert_eq!(fake.presences()[0].2, updates, "no change, nothing sent");

    // A shard between its connection and its IDENTIFY is not told: Discord would close it
    // (4003, a payload before identifying). Here the new connection after an invalidated
    // session gets no HELLO for a while (serenity starts the new shard 5 s after the last),
    // and a third game starts meanwhile; the presence comes once the shard is back.
    fake.hold_gateway();
    fake.invalidate_sessions();
    fake.wait_until("the new connection, held", |st| {
        (st.held_connections > 0).then_some(())
    })
    .await;
    let options = croupier::engine::GameOptions::new();
    let kind = croupier::engine::GameKind::Cortexcape;
    bot_play::start_direct(&w.service, kind, options, &players, CHANNEL_ID, 3).await;
    tokio::time::sleep(Duration::from_millis(1000)).await;
    fake.release_gateway();
    fake.wait_until("the presence after the new session", |st| {
        (activity(st).as_deref() == Some("3 games · /help")).then_some(())
    })
    .await;
    // A new session with the count unchanged is told too (at its READY): a new session
    // starts with no activity.
    let sessions = fake.identifies().len();
    fake.invalidate_sessions();
    fake.wait_until("the presence of one more session", |st| {
        (st.sessions.len() > sessions && activity(st).as_deref() == Some("3 games · /help"))
            .then_some(())
    })
    .await;
    finish(fake).await;
    w.bot.stop().await;
}

/// `/lobbies` lists, only to the member, the open lobbies of the server they may join: not
/// their own, not full, not in a channel they cannot see; `game:` filters. Join from the list
/// seats them, updates the lobby message in its channel, and the list says where to go.
#[tokio::test]
async fn lobbies_lists_what_a_member_may_join_and_joins_from_the_list() {
    const CAROL: u64 = 1_100_000_000_000_000_103;
    const STAFF: u64 = 1_100_000_000_000_000_031;
    let w = World::sqlite().user(CAROL, "carol").start().await;
    let fake = &w.fake;
    // #staff: only Bob and the bot see it.
    let see = |target| perms::Overwrite {
        target,
        allow: perms::VIEW_CHANNEL | perms::SEND_MESSAGES,
        deny: 0,
    };
    fake.add_channel(
        STAFF,
        "staff",
        vec![
            perms::Overwrite {
                target: perms::Target::Role(GUILD_ID),
                allow: 0,
                deny: perms::VIEW_CHANNEL,
            },
            see(perms::Target::Member(BOB)),
            see(perms::Target::Member(BOT_USER_ID)),
        ],
    );
    let open = |user: u64, channel: u64, game: &'static str| async move {
        let cmd = fake
            .push(
                Push::command("play", vec![opt::string("game", game)])
                    .by(user)
                    .in_channel(channel),
            )
            .await;
        play_answer(fake, cmd.id).await.expect("a lobby")
    };
    let vortex = open(ALICE, CHANNEL_ID, "vortex").await;
    let gates = open(BOB, STAFF, "gates").await;
    let list = |user: u64, locale: &'static str, options: Vec<Value>| async move {
        bot_play::ask(
            fake,
            user,
            CHANNEL_ID,
            Push::command("lobbies", options).locale(locale),
        )
        .await
    };

    // Carol cannot see #staff: only Alice's Vortex lobby, with its link and a Join button.
    let carol = list(CAROL, "en-US", vec![]).await;
    assert!(carol.content.contains("Vortex #"), "{}", carol.content);
    assert!(!carol.content.contains("Gates"), "{}", carol.content);
    assert!(
        carol
            .content
            .contains(&format!("/{CHANNEL_ID}/{}", vortex.id)),
        "{}",
        carol.content
    );
    assert_eq!(custom_ids(&carol.components).len(), 1);
    // Alice's own lobby is not hers to join; Bob's in #staff is hidden from her too.
    let alice = list(ALICE, "fr", vec![]).await;
    assert!(
        alice.content.starts_with("Aucun salon"),
        "{}",
        alice.content
    );
    // Bob sees both but is seated in his own; `game:` filters.
    let bob = list(BOB, "en-US", vec![opt::string("game", "gates")]).await;
    assert!(
        bob.content.starts_with("No open lobby of that game"),
        "{}",
        bob.content
    );

    // Once #staff is opened to her (CHANNEL_UPDATE), Bob's Gates lobby is listed too.
    fake.overwrite(STAFF, see(perms::Target::Member(CAROL)));
    let both = list(CAROL, "fr", vec![]).await;
    assert!(
        both.content.starts_with("🎲 2 salons d'attente"),
        "{}",
        both.content
    );
    assert!(
        both.content.contains(&format!("/{STAFF}/{}", gates.id)),
        "{}",
        both.content
    );
    assert_eq!(custom_ids(&both.components).len(), 2);

    // Carol joins from her first list: the lobby in the channel names her, the list links
    // to it.
    let join = custom_ids(&carol.components)[0].clone();
    let done = click_private(fake, &carol, &join, CAROL).await;
    assert!(
        done.content.starts_with("✅ You joined Vortex"),
        "{}",
        done.content
    );
    assert!(done.components.is_empty());
    let lobby = fake
        .messages(CHANNEL_ID)
        .into_iter()
        .find(|m| m.id == vortex.id)
        .unwrap();
    assert!(
        lobby.content.contains(&format!("<@{CAROL}>")),
        "{}",
        lobby.content
    );
    assert!(lobby.edits > vortex.edits);
    // Now seated: her list is empty.
    let again = list(CAROL, "en-US", vec![opt::string("game", "vortex")]).await;
    assert!(
        again.content.starts_with("No open lobby"),
        "{}",
        again.content
    );
    finish(fake).await;
    w.bot.stop().await;
}

// ----- 13. substitutes (issue 40 item 7) -----

/// A member offers to substitute for Cortexcape; a game under the `open` timeout policy runs
/// out of time for one seat: the seat opens, the thread says the substitutes were told, the
/// substitute gets a DM with a link and takes the seat with `/sub take` (hand and turn), and
/// leaves the pool. A member who is no substitute is refused kindly and changes nothing; so is
/// a second taker once the seat is gone. `/kick` offers its seat the same way.
#[tokio::test]
async fn substitutes_are_told_first_and_take_an_open_seat() {
    for db in Db::each("e2e_substitutes").await {
        substitutes(&db).await;
        db.finish().await;
    }
}

async fn substitutes(db: &Db) {
    use croupier::clock::{unix_now, DAY};
    const CAROL: u64 = 1_100_000_000_000_000_103;
    const DAVE: u64 = 1_100_000_000_000_000_104;
    let w = World::on(db).service_clock(unix_now()).start().await;
    let clock = w.clock().clone();
    let fake = &w.fake;
    fake.add_user(CAROL, "Carol");
    fake.add_user(DAVE, "Dave");
    let cortexcape = || vec![opt::string("game", "cortexcape")];

    // Carol offers for Cortexcape (twice: the second says so), and lists it.
    let offered = sub(fake, CAROL, CHANNEL_ID, "offer", cortexcape()).await;
    assert!(
        offered.starts_with("🪑 You are a substitute for Cortexcape"),
        "{offered}"
    );
    let again = sub(fake, CAROL, CHANNEL_ID, "offer", cortexcape()).await;
    assert!(again.contains("already a substitute"), "{again}");
    let listed = sub(fake, CAROL, CHANNEL_ID, "list", vec![]).await;
    assert_eq!(listed, "🪑 You are a substitute here for: Cortexcape.");
    let bad = sub(
        fake,
        DAVE,
        CHANNEL_ID,
        "offer",
        vec![opt::string("game", "chess")],
    )
    .await;
    assert!(bad.contains("chess"), "{bad}");

    // A game whose players run out of time open their seat.
    let cmd = fake
        .push(Push::command(
            "play",
            vec![
                opt::string("game", "cortexcape"),
                opt::string("options", "short=true"),
                opt::string("clock", "1d"),
                opt::string("timeout", "open"),
            ],
        ))
        .await;
    let lobby = play_answer(fake, cmd.id).await.expect("a lobby");
    let game = game_of(&lobby);
    join_and_start(fake, &lobby, &[BOB], ALICE).await;
    let thread = lobby.id;
    let board = latest_board_after(fake, thread, 0).await;
    let late = mentioned(&board).expect("who decides");
    let seat = if late == ALICE { 1 } else { 2 };

    // Nobody may take a seat still played.
    let early = sub(fake, CAROL, thread, "take", vec![]).await;
    assert_eq!(early, format!("No seat of game {} is open now.", game.0));

    clock.advance(DAY + 60);
    let opened = said(fake, thread, "ran out of time").await;
    assert!(
        opened.content.contains(&format!("seat {seat} is open")),
        "{}",
        opened.content
    );
    assert!(
        opened
            .content
            .contains("1 substitute for Cortexcape on this server was told first"),
        "{}",
        opened.content
    );
    let dm = dm_said(fake, CAROL, "A seat is open in Cortexcape").await;
    assert!(
        dm.content.contains(&format!("#{} (seat {seat})", game.0)),
        "{}",
        dm.content
    );
    assert!(
        dm.content.contains(&format!("/{thread}")),
        "a link: {}",
        dm.content
    );
    // Carol's DMs are open: no mention of her in the thread.
    assert!(fake
        .messages(thread)
        .iter()
        .all(|m| !m.content.contains("offered to substitute")));

    // Dave is no substitute: refused, nothing changes.
    let seats_before = w.service.lobbies().lobby(game).await.expect("game").seats;
    let refused = sub(fake, DAVE, thread, "take", vec![]).await;
    assert!(
        refused.starts_with("Open seats go first to this server's substitutes for Cortexcape"),
        "{refused}"
    );
    assert_eq!(
        w.service.lobbies().lobby(game).await.expect("game").seats,
        seats_before
    );
    // A seated player cannot take a second seat.
    let seated = sub(fake, other(late), thread, "take", vec![]).await;
    assert_eq!(seated, "That player already has a seat in this game.");

    // Carol takes it: the thread says so, and the board calls her if it is her turn.
    let took = sub(fake, CAROL, thread, "take", vec![]).await;
    assert!(took.starts_with("✅ The seat is yours"), "{took}");
    said(fake, thread, &format!("is replaced by <@{CAROL}>")).await;
    let seats = w.service.lobbies().lobby(game).await.expect("game").seats;
    assert_eq!(seats[seat - 1].user, Some(CAROL as i64));
    assert!(!seats[seat - 1].vacant);
    // One offer, one seat: she left the pool.
    let listed = sub(fake, CAROL, CHANNEL_ID, "list", vec![]).await;
    assert!(
        listed.starts_with("You are no substitute on this server"),
        "{listed}"
    );
    let gone = sub(fake, DAVE, thread, "take", vec![]).await;
    assert_eq!(gone, format!("No seat of game {} is open now.", game.0));

    // /kick opens a seat the same way: Dave offers, a moderator who plays no seat opens
    // Carol's seat (a seat still played may not change hands otherwise), Dave is told.
    const MODERATOR: u64 = 1_100_000_000_000_000_105;
    fake.add_user(MODERATOR, "Mod");
    sub(fake, DAVE, CHANNEL_ID, "offer", cortexcape()).await;
    let kicked = ask(
        fake,
        MODERATOR,
        thread,
        "kick",
        vec![opt::integer("seat", seat as i64)],
    )
    .await;
    assert_eq!(kicked, "✅ Seat opened.");
    let line = said(fake, thread, &format!("Seat {seat} (")).await;
    assert!(line.content.contains("was told first"), "{}", line.content);
    dm_said(fake, DAVE, "A seat is open in Cortexcape").await;
    let withdrawn = sub(fake, DAVE, CHANNEL_ID, "withdraw", cortexcape()).await;
    assert!(
        withdrawn.starts_with("✅ You are no longer a substitute"),
        "{withdrawn}"
    );
    let refused = sub(fake, DAVE, thread, "take", vec![]).await;
    assert!(refused.starts_with("Open seats go first"), "{refused}");
    w.bot.stop().await;
}

/// `/sub <what>` by `user` in `channel`: the private answer.
async fn sub(
    fake: &FakeDiscord,
    user: u64,
    channel: u64,
    what: &str,
    options: Vec<Value>,
) -> String {
    ask(fake, user, channel, "sub", vec![opt::sub(what, options)]).await
}

// ----- invitations: `/play … invite:@a @b`, `open:false` (issue 40 item 2) -----

/// Alice invites Bob and Carol to a three-seat Cortexcape: one message pings exactly them, a
/// stranger is refused a kept seat (and may follow the game once it starts), Bob accepts,
/// Carol declines and her seat is free for anyone. Bad invitations are refused, nothing
/// opened. A lobby closed to others (`open:false`) refuses everyone else, and an invitation
/// nobody answers lapses with the lobby a day later.
#[tokio::test]
async fn invitations_keep_seats_ping_once_and_lapse_with_the_lobby() {
    for db in Db::each("e2e_invitations").await {
        invitations(&db).await;
        db.finish().await;
    }
}

async fn invitations(db: &Db) {
    use crate::fake_discord::perms::{Overwrite, Target, VIEW_CHANNEL};
    use croupier::clock::{unix_now, HOUR};
    use croupier::i18n::Text;
    const CAROL: u64 = 1_100_000_000_000_000_103;
    const DAVE: u64 = 1_100_000_000_000_000_104;
    const ERIN: u64 = 1_100_000_000_000_000_105;
    const FRANK: u64 = 1_100_000_000_000_000_106;
    let w = World::on(db).service_clock(unix_now()).start().await;
    let fake = &w.fake;
    for (id, name) in [
        (CAROL, "Carol"),
        (DAVE, "Dave"),
        (ERIN, "Erin"),
        (FRANK, "Frank"),
    ] {
        fake.add_user(id, name);
    }
    // Erin may not see the games channel.
    fake.overwrite(
        CHANNEL_ID,
        Overwrite {
            target: Target::Member(ERIN),
            allow: 0,
            deny: VIEW_CHANNEL,
        },
    );
    let en = |t: Text| t.render(Lang::En);
    let play = |extra: Vec<Value>| async move {
        let mut opts = vec![opt::string("game", "cortexcape")];
        opts.extend(extra);
        let cmd = fake.push(Push::command("play", opts)).await;
        play_answer(fake, cmd.id).await
    };
    let invite = |who: &str| opt::string("invite", who);

    // Refused, each plainly, and nothing opened.
    let refusals = [
        (
            vec![invite("bob")],
            en(Text::new("bot.invite.not_mention").arg("input", "bob")),
        ),
        (
            vec![invite(&format!("<@{ALICE}>"))],
            en(Text::new("bot.invite.self")),
        ),
        (
            vec![invite(&format!("<@{BOT_USER_ID}>"))],
            en(Text::new("bot.invite.bot")),
        ),
        (
            vec![invite(&format!("<@{ERIN}>"))],
            en(Text::new("bot.invite.cannot_see").arg("who", format!("<@{ERIN}>"))),
        ),
        (
            vec![invite("<@1100000000000000999>")],
            en(Text::new("bot.invite.not_member").arg("who", "<@1100000000000000999>")),
        ),
        (
            vec![
                opt::integer("players", 2),
                invite(&format!("<@{BOB}> <@{CAROL}>")),
            ],
            en(Text::new("bot.invite.too_many")
                .arg("invited", 2_usize)
                .arg("free", 1_usize)),
        ),
        (
            vec![opt::boolean("open", false)],
            en(Text::new("bot.invite.closed_empty")),
        ),
    ];
    for (opts, want) in refusals {
        assert_eq!(play(opts).await.expect_err("refused"), want);
    }
    let lobbies = fake
        .messages(CHANNEL_ID)
        .iter()
        .filter(|m| {
            custom_ids(&m.components)
                .iter()
                .any(|c| c.starts_with("l:"))
        })
        .count();
    assert_eq!(lobbies, 0, "no lobby was posted");

    // Bob and Carol (Bob named twice) are invited: one message, pinging only them.
    let lobby = play(vec![
        opt::integer("players", 3),
        invite(&format!("<@{BOB}>, <@{CAROL}> <@!{BOB}>")),
    ])
    .await
    .expect("a lobby");
    let game = game_of(&lobby);
    let mut pinged = lobby.pinged_users.clone();
    pinged.sort_unstable();
    assert_eq!(pinged, [BOB, CAROL], "{lobby:?}");
    assert!(
        lobby.content.contains("Invited by the host"),
        "{}",
        lobby.content
    );
    assert!(
        lobby
            .content
            .contains(&format!("<@{CAROL}> (invited, has not answered yet)")),
        "{}",
        lobby.content
    );
    let ids = custom_ids(&lobby.components);
    for action in ["accept", "decline"] {
        assert!(ids.contains(&format!("l:{}:{action}", game.0)), "{ids:?}");
    }
    // Frank, a stranger, cannot take a kept seat, nor answer for Bob.
    let refused = click_lobby(fake, &lobby, "join", FRANK).await;
    assert_eq!(
        refused.expect_err("refused"),
        en(Text::new("bot.invite.reserved"))
    );
    let refused = click_lobby(fake, &lobby, "accept", FRANK).await;
    assert_eq!(
        refused.expect_err("refused"),
        en(Text::new("bot.invite.not_invited"))
    );
    // Bob accepts; Carol declines, freeing her seat; Dave takes it.
    let accepted = click_lobby(fake, &lobby, "accept", BOB).await.expect("Bob");
    assert!(
        !accepted.content.contains(&format!("<@{BOB}> (invited")),
        "{}",
        accepted.content
    );
    let declined = click_lobby(fake, &lobby, "decline", CAROL)
        .await
        .expect("Carol");
    assert!(
        !declined.content.contains(&format!("<@{CAROL}>")),
        "{}",
        declined.content
    );
    assert!(
        custom_ids(&declined.components)
            .iter()
            .all(|c| !c.ends_with(":accept")),
        "no invitation is left to answer"
    );
    click_lobby(fake, &lobby, "join", DAVE).await.expect("Dave");
    click_lobby(fake, &lobby, "start", ALICE)
        .await
        .expect("starts");
    let thread = thread_of(fake, lobby.id).await;
    latest_board_after(fake, thread, 0).await;
    // Frank may watch: Follow puts him in the thread.
    let follow = click(
        fake,
        lobby.id,
        &format!("l:{}:follow", game.0),
        FRANK,
        CHANNEL_ID,
    )
    .await;
    assert_eq!(follow.kind, 5, "{follow:?}");
    fake.wait_until("Frank follows", |st| {
        st.thread_members
            .get(&thread)?
            .contains(&FRANK)
            .then_some(())
    })
    .await;
    // The invitation pinged once: no other message of the channel pinged Bob or Carol.
    let pings: Vec<u64> = fake
        .messages(CHANNEL_ID)
        .iter()
        .filter(|m| m.pinged_users.contains(&BOB) || m.pinged_users.contains(&CAROL))
        .map(|m| m.id)
        .collect();
    assert_eq!(pings, [lobby.id]);

    // `open:false`: only Bob may sit; Dave is told it is by invitation.
    let closed = play(vec![
        invite(&format!("<@{BOB}>")),
        opt::boolean("open", false),
    ])
    .await
    .expect("a closed lobby");
    assert_eq!(closed.pinged_users, [BOB]);
    assert!(
        closed.content.contains("By invitation only"),
        "{}",
        closed.content
    );
    let refused = click_lobby(fake, &closed, "join", DAVE).await;
    assert_eq!(
        refused.expect_err("refused"),
        en(Text::new("bot.invite.only"))
    );
    // Nobody answers: a day later the lobby closes, and the invitation with it.
    let closed_game = game_of(&closed);
    w.clock().advance(24 * HOUR + 60);
    fake.wait_until("the idle lobby closed", |st| {
        st.message(closed.id)?.components.is_empty().then_some(())
    })
    .await;
    assert_eq!(
        w.service
            .lobbies()
            .lobby(closed_game)
            .await
            .expect("lobby")
            .status,
        GameStatus::Cancelled
    );
    w.bot.stop().await;
}
