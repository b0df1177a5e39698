//! A game's life around its boards, end to end through the fake Discord (issue 22): everyone
//! in the thread, deadlines in each reader's own time, one live board whatever path posted
//! the last one, and "are you sure?" before a step that ends a game for everyone.

use std::time::Duration;

use crate::bot_play::*;
use crate::fake_discord::*;
use crate::store_db::{decider, status, Db};
use croupier::clock::{unix_now, Clock, HOUR};
use croupier::engine::GameId;
use croupier::store::GameStatus;

const CAROL: u64 = 1_100_000_000_000_000_103;

/// The bot on a SQLite store whose clock the test moves; the fake's clock follows it.
async fn world() -> World {
    world_on(Db::sqlite_file()).await
}

/// The bot on `db` (SQLite, or a scratch PostgreSQL schema), on a clock the test moves.
async fn world_on(db: Db) -> World {
    World::owning(db)
        .clock(unix_now())
        .user(CAROL, "Carol")
        .start()
        .await
}

/// The lobby message of a game started by `start_game` (the thread takes its id).
fn lobby_of(fake: &FakeDiscord, thread: u64) -> Message {
    fake.message(thread).expect("the lobby message")
}

/// A command answered privately after a deferral: the answer as it is once written.
async fn private_answer(fake: &FakeDiscord, user: u64, channel: u64, name: &str) -> Message {
    ask(fake, user, channel, Push::command(name, vec![])).await
}

#[tokio::test]
async fn every_player_is_in_the_thread_and_spectators_follow_it() {
    let w = world().await;
    let fake = &w.fake;
    let (_game, thread) = start_game(fake).await;
    // Both seated players were added to the thread when it opened.
    let members = fake
        .wait_until("the players in the thread", |st| {
            let m = st.thread_members.get(&thread)?;
            (m.len() == 2).then(|| m.clone())
        })
        .await;
    assert_eq!(members.into_iter().collect::<Vec<_>>(), [ALICE, BOB]);
    // The lobby message now offers Follow, and only that.
    let lobby = lobby_of(fake, thread);
    let ids = custom_ids(&lobby.components);
    assert_eq!(ids.len(), 1, "{ids:?}");
    assert!(ids[0].ends_with(":follow"), "{ids:?}");
    // A spectator follows, even after the thread fell asleep: the bot wakes it first.
    fake.archive_thread(thread, false);
    let p = fake
        .push(
            Push::button(lobby.id, &ids[0])
                .by(CAROL)
                .in_channel(lobby.channel_id),
        )
        .await;
    let cb = fake.wait_for_callback(p.id).await;
    assert_eq!(cb.kind, 5, "Follow answers privately: {cb:?}");
    assert!(cb.ephemeral());
    let answer = answer_of(fake, p.id).await;
    assert!(answer.content.contains("You follow"), "{}", answer.content);
    assert!(
        answer.content.contains(&format!("<#{thread}>")),
        "{}",
        answer.content
    );
    fake.wait_until("Carol in the thread", |st| {
        st.thread_members
            .get(&thread)?
            .contains(&CAROL)
            .then_some(())
    })
    .await;
    // The lobby message itself did not change.
    assert_eq!(fake.message(lobby.id).expect("lobby").edits, lobby.edits);
    finish(fake).await;
}

#[tokio::test]
async fn one_board_has_buttons_whichever_way_the_last_one_came() {
    let w = world().await;
    let fake = &w.fake;
    let (game, thread) = start_game(fake).await;
    let first = latest_board_after(fake, thread, 0).await;
    assert!(!first.components.is_empty(), "{first:?}");

    // A /move: the new board is posted, the old one loses its buttons.
    let mover = mentioned(&first).expect("a mention");
    let option = legal_options(&w.service, game).await.remove(0);
    let typed = send_move(fake, mover, thread, &option).await;
    let second = latest_board_after(fake, thread, first.id).await;
    // The command's own answer comes after the board: wait for it before a day goes by (its
    // token lasts 15 minutes of the fake's clock).
    answer_of(fake, typed.id).await;
    let retired = fake
        .wait_until("the first board retired", |st| {
            let m = st.message(first.id)?;
            m.components.is_empty().then(|| m.clone())
        })
        .await;
    assert_eq!(retired.attachments.len(), 1, "the picture stays");

    // A timeout: the board the clock posts retires the one before it.
    let board = second;
    w.clock().advance(25 * HOUR);
    let after_timeout = fake
        .wait_until("the board after the timeout", |st| {
            newer_board(st, thread, board.id).filter(|m| m.content.contains("ran out of time"))
        })
        .await;
    fake.wait_until("the timed-out board retired", |st| {
        st.message(board.id)?.components.is_empty().then_some(())
    })
    .await;
    // Exactly one board in the thread has buttons, and /games links to it.
    let live: Vec<u64> = fake
        .messages(thread)
        .iter()
        .filter(|m| is_board(m) && !m.components.is_empty())
        .map(|m| m.id)
        .collect();
    assert_eq!(live, [after_timeout.id]);
    let games = private_answer(fake, ALICE, CHANNEL_ID, "games").await;
    assert!(
        games.content.contains(&format!(
            "https://discord.com/channels/{GUILD_ID}/{thread}/{}",
            after_timeout.id
        )),
        "{}",
        games.content
    );
    finish(fake).await;
}

#[tokio::test]
async fn deadlines_read_in_each_players_own_time() {
    let w = world().await;
    let fake = &w.fake;
    let (game, thread) = start_game(fake).await;
    let board = latest_board_after(fake, thread, 0).await;
    // The default clock: a day from the start (the test's clock has not moved).
    let deadline = Clock::now(w.clock()) + 24 * HOUR;
    assert_eq!(status(&w.service, game).await, GameStatus::Active);
    // The board's turn line: the ping and the turn first, then when the time runs out.
    let due = format!("<t:{deadline}:R> (<t:{deadline}:f>)");
    let lines: Vec<&str> = board.content.lines().collect();
    assert!(lines[0].starts_with("<@"), "{}", board.content);
    assert_eq!(
        lines[1],
        format!("⏳ Time runs out {due}."),
        "{}",
        board.content
    );
    // The reminder DM and /games say the same, never a duration that goes stale.
    let mover = mentioned(&board).expect("a mention");
    w.clock().advance(12 * HOUR);
    let dm = fake
        .wait_until("the reminder", |st| {
            let dm = st
                .channels
                .values()
                .find(|c| c.recipient == Some(mover))?
                .id;
            st.messages
                .iter()
                .find(|m| m.channel_id == dm && m.content.contains("your time runs out"))
                .cloned()
        })
        .await;
    assert!(dm.content.contains(&due), "{}", dm.content);
    assert!(!dm.content.contains(" left"), "{}", dm.content);
    let games = private_answer(fake, mover, CHANNEL_ID, "games").await;
    assert!(games.content.contains(&due), "{}", games.content);
    finish(fake).await;
}

#[tokio::test]
async fn resign_and_cancel_ask_before_ending_a_game() {
    let w = world().await;
    let fake = &w.fake;
    let (game, thread) = start_game(fake).await;
    let board = latest_board_after(fake, thread, 0).await;

    // /resign asks first, privately; "Keep playing" changes nothing.
    let question = private_answer(fake, BOB, thread, "resign").await;
    assert!(
        question.content.contains("cannot be undone"),
        "{}",
        question.content
    );
    let ids = custom_ids(&question.components);
    assert_eq!(
        ids,
        [format!("k:{}:resign", game.0), format!("k:{}:keep", game.0)]
    );
    let kept = click_private(fake, &question, &ids[1], BOB).await;
    assert!(kept.content.contains("Nothing changed"), "{}", kept.content);
    assert!(kept.components.is_empty());
    assert_eq!(status(&w.service, game).await, GameStatus::Active);

    // /cancel by a player who is neither host nor moderator asks them to agree to cancel
    // (issue 36: the game stops with no rating once every player agrees); "Keep playing".
    fake.set_member_permissions(BOB, perms::PLAIN_MEMBER);
    let agree = private_answer(fake, BOB, thread, "cancel").await;
    assert_eq!(
        custom_ids(&agree.components),
        [format!("k:{}:agree", game.0), format!("k:{}:keep", game.0)]
    );
    assert!(
        agree.content.starts_with("🤝 Agree to cancel"),
        "{}",
        agree.content
    );
    click_private(fake, &agree, &format!("k:{}:keep", game.0), BOB).await;
    assert_eq!(status(&w.service, game).await, GameStatus::Active);

    // /resign confirmed: the game ends, the thread is told, the board loses its buttons.
    let question = private_answer(fake, BOB, thread, "resign").await;
    let done = click_private(fake, &question, &format!("k:{}:resign", game.0), BOB).await;
    assert_eq!(done.content, "You resigned.");
    assert_eq!(status(&w.service, game).await, GameStatus::Finished);
    fake.wait_until("the resignation in the thread", |st| {
        st.messages
            .iter()
            .find(|m| m.channel_id == thread && m.content.contains("resigned"))
            .map(|_| ())
    })
    .await;
    fake.wait_until("the board retired", |st| {
        st.message(board.id)?.components.is_empty().then_some(())
    })
    .await;

    // A second lobby, cancelled by its host after the question.
    let lobby = play(fake, ALICE, "vortex").await.expect("a lobby");
    let other: i64 = custom_ids(&lobby.components)[0]
        .split(':')
        .nth(1)
        .and_then(|g| g.parse().ok())
        .expect("game id");
    let question = private_answer(fake, ALICE, CHANNEL_ID, "cancel").await;
    assert!(
        question.content.contains("Cancel Vortex"),
        "{}",
        question.content
    );
    let done = click_private(fake, &question, &format!("k:{other}:cancel"), ALICE).await;
    assert_eq!(done.content, "The game is cancelled.");
    assert_eq!(
        status(&w.service, GameId(other)).await,
        GameStatus::Cancelled
    );
    finish(fake).await;
}

/// The game's options played one at a time by whoever must decide, with `/move`, until it
/// ends. Each change of turn comes most of a day later (the clock per turn is a day), so the
/// game lasts days of the fake's clock. Returns the number of options played.
async fn play_to_the_end(w: &World, game: GameId, thread: u64) -> usize {
    let mut last_seat = None;
    for played in 0..3_000 {
        let Some(d) = decider(&w.service, game).await else {
            return played;
        };
        if last_seat.is_some() && last_seat != Some(d.seat) {
            w.clock().advance(20 * HOUR);
        }
        last_seat = Some(d.seat);
        let typed = send_move(&w.fake, d.member(), thread, &d.options[0]).await;
        let answer = answer_of(&w.fake, typed.id).await;
        assert_eq!(answer.content, "✅ Played.", "{answer:?}");
    }
    panic!("the game did not end");
}

#[tokio::test]
async fn a_real_ending_result_archive_and_rematch_on_sqlite() {
    a_real_ending_result_archive_and_rematch(world().await).await;
}

#[tokio::test]
async fn a_real_ending_result_archive_and_rematch_on_postgres() {
    if let Some(db) = Db::postgres("game_life_ending").await {
        a_real_ending_result_archive_and_rematch(world_on(db).await).await;
    }
}

/// Issue 22, item 4, through the fake Discord over simulated days: a whole game to its end,
/// the result card, the lobby message turned into the result, the thread archived after the
/// grace, and a rematch with the same seats and options.
async fn a_real_ending_result_archive_and_rematch(w: World) {
    let fake = &w.fake;
    let started = Clock::now(w.clock());
    let (game, thread) = start_game(fake).await;
    let lobby = lobby_of(fake, thread);
    let played = play_to_the_end(&w, game, thread).await;
    assert!(played > 10, "{played}");
    assert_eq!(status(&w.service, game).await, GameStatus::Finished);

    // The result card in the thread: image and text, every player mentioned (and pinged)
    // once, ranks with each game's breakdown, turns and length.
    let result = result_card(fake, thread).await;
    for user in [ALICE, BOB] {
        assert_eq!(
            result.content.matches(&format!("<@{user}>")).count(),
            1,
            "{}",
            result.content
        );
    }
    let mut pinged = result.pinged_users.clone();
    pinged.sort_unstable();
    assert_eq!(pinged, [ALICE, BOB]);
    assert!(
        result
            .content
            .contains(&format!("**Cortexcape #{}** is over", game.0)),
        "{}",
        result.content
    );
    assert!(
        result.content.contains("Fewest steps"),
        "{}",
        result.content
    );
    assert!(result.content.contains("(round 1: "), "{}", result.content);
    let days = (Clock::now(w.clock()) - started) / (24 * HOUR);
    assert!(days >= 2, "the game lasted {days} days of the fake's clock");
    assert!(
        result.content.contains(&format!("played over {days} d ")),
        "{}",
        result.content
    );
    let card = &result.attachments[0];
    assert_eq!(card.dimensions.map(|d| d.0), Some(640), "{card:?}");
    // Nobody else was pinged by the end: the final board pings no one.
    let final_board = latest_board_after(fake, thread, 0).await;
    // Only Zoom stays on the final board (the final position, readable on a phone).
    assert_eq!(
        custom_ids(&final_board.components),
        [format!("z:{}", game.0)]
    );
    assert!(final_board.pinged_users.is_empty(), "{final_board:?}");

    // The lobby message in the channel is the result now, with a link to the card and Rematch.
    let lobby = fake
        .wait_until("the lobby turned into the result", |st| {
            let m = st.message(lobby.id)?;
            m.content.contains("is over").then(|| m.clone())
        })
        .await;
    let link = format!(
        "https://discord.com/channels/{GUILD_ID}/{thread}/{}",
        result.id
    );
    assert!(lobby.content.contains(&link), "{}", lobby.content);
    assert_eq!(
        custom_ids(&lobby.components),
        [format!("l:{}:rematch", game.0)]
    );

    // The thread stays open for the players' last words, then the scheduler archives it.
    assert!(!fake.channel(thread).expect("thread").archived);
    w.clock().advance(23 * HOUR);
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(!fake.channel(thread).expect("thread").archived);
    w.clock().advance(2 * HOUR);
    fake.wait_until("the thread archived after the grace", |st| {
        st.channels.get(&thread)?.archived.then_some(())
    })
    .await;

    // A spectator cannot ask for the rematch.
    let rematch_id = format!("l:{}:rematch", game.0);
    let refused = click_rematch(fake, &lobby, &rematch_id, CAROL).await;
    assert!(
        refused.content.starts_with("Only the players"),
        "{}",
        refused.content
    );
    // Bob asks: a new lobby in the channel, with the same seats and options; Alice is pinged
    // once and her seat kept for her.
    let opened = click_rematch(fake, &lobby, &rematch_id, BOB).await;
    assert!(opened.content.contains("Rematch #"), "{}", opened.content);
    let new_lobby = fake
        .wait_until("the rematch's lobby", |st| {
            st.messages
                .iter()
                .rev()
                .find(|m| {
                    m.channel_id == CHANNEL_ID
                        && m.id > lobby.id
                        && custom_ids(&m.components)
                            .iter()
                            .any(|c| c.ends_with(":join"))
                })
                .cloned()
        })
        .await;
    assert_eq!(new_lobby.pinged_users, [ALICE]);
    assert!(
        new_lobby
            .content
            .contains(&format!("<@{ALICE}> (invited, not confirmed yet)")),
        "{}",
        new_lobby.content
    );
    assert!(
        new_lobby.content.contains("Rules: Short game"),
        "{}",
        new_lobby.content
    );
    let r: i64 = custom_ids(&new_lobby.components)[0]
        .split(':')
        .nth(1)
        .and_then(|g| g.parse().ok())
        .expect("game id");
    let rematch = GameId(r);
    assert_eq!(
        w.service
            .lobbies()
            .lobby(rematch)
            .await
            .expect("rematch")
            .host,
        Some(i64::try_from(BOB).expect("id"))
    );
    // The result links the rematch and keeps its button for the others.
    let linked = fake.message(lobby.id).expect("the result");
    assert!(
        linked.content.contains(&format!("Rematch: game #{r}")),
        "{}",
        linked.content
    );
    assert_eq!(
        custom_ids(&linked.components),
        std::slice::from_ref(&rematch_id)
    );
    // Bob cannot start before anyone confirmed; Alice confirms with Rematch.
    let too_few = click_lobby(fake, &new_lobby, "start", BOB).await;
    assert!(too_few.is_err(), "{too_few:?}");
    let confirmed = click_rematch(fake, &linked, &rematch_id, ALICE).await;
    assert!(
        confirmed.content.contains("is confirmed"),
        "{}",
        confirmed.content
    );
    fake.wait_until("Alice's seat confirmed on the lobby", |st| {
        let m = st.message(new_lobby.id)?;
        (!m.content.contains("invited")).then_some(())
    })
    .await;
    click_lobby(fake, &new_lobby, "start", BOB)
        .await
        .expect("Bob starts the rematch");
    let second = thread_of(fake, new_lobby.id).await;
    latest_board_after(fake, second, 0).await;
    let view = w.service.lobbies().lobby(rematch).await.expect("rematch");
    assert_eq!(view.status, GameStatus::Active);
    assert_eq!(view.options.get("short").map(String::as_str), Some("true"));
    let seats: Vec<Option<i64>> = view.seats.iter().map(|s| s.user).collect();
    assert_eq!(
        seats,
        [
            Some(i64::try_from(ALICE).expect("id")),
            Some(i64::try_from(BOB).expect("id"))
        ]
    );
    finish(fake).await;
    w.stop().await;
}

/// Clicks Rematch on a result as `user`: answered privately (deferred), then written.
async fn click_rematch(
    fake: &FakeDiscord,
    result: &Message,
    custom_id: &str,
    user: u64,
) -> Message {
    let p = fake
        .push(
            Push::button(result.id, custom_id)
                .by(user)
                .in_channel(result.channel_id),
        )
        .await;
    let cb = fake.wait_for_callback(p.id).await;
    assert_eq!(cb.kind, 5, "Rematch answers privately: {cb:?}");
    assert!(cb.ephemeral());
    answer_of(fake, p.id).await
}

/// `user` resigns with `/resign` in the game's thread and confirms.
async fn resign(fake: &FakeDiscord, user: u64, game: GameId, thread: u64) {
    let question = private_answer(fake, user, thread, "resign").await;
    let done = click_private(fake, &question, &format!("k:{}:resign", game.0), user).await;
    assert_eq!(done.content, "You resigned.");
}

/// The result card carries Rematch too (issue 37, item 6): a click there opens the rematch in
/// the channel, the card then links it and keeps its button, and another player confirms
/// their seat from it.
#[tokio::test]
async fn rematch_from_the_result_card() {
    let w = world().await;
    let fake = &w.fake;
    let (game, thread) = start_game(fake).await;
    resign(fake, BOB, game, thread).await;
    let card = result_card(fake, thread).await;
    let rematch_id = format!("l:{}:rematch", game.0);
    // Rematch, and each player's own analysis (issue 41, item 5).
    let buttons = [rematch_id.clone(), format!("a:{}", game.0)];
    assert_eq!(custom_ids(&card.components), buttons);
    let opened = click_rematch(fake, &card, &rematch_id, BOB).await;
    assert!(opened.content.contains("Rematch #"), "{}", opened.content);
    let new_lobby = fake
        .wait_until("the rematch's lobby", |st| {
            st.messages
                .iter()
                .rev()
                .find(|m| {
                    m.channel_id == CHANNEL_ID
                        && custom_ids(&m.components)
                            .iter()
                            .any(|c| c.ends_with(":join"))
                })
                .cloned()
        })
        .await;
    assert_eq!(new_lobby.pinged_users, [ALICE]);
    let r = game_of(&new_lobby);
    let linked = fake.message(card.id).expect("the card");
    assert!(
        linked.content.contains(&format!("Rematch: game #{}", r.0)),
        "{}",
        linked.content
    );
    assert_eq!(custom_ids(&linked.components), buttons);
    assert_eq!(linked.attachments.len(), card.attachments.len());
    let confirmed = click_rematch(fake, &linked, &rematch_id, ALICE).await;
    assert!(
        confirmed.content.contains("is confirmed"),
        "{}",
        confirmed.content
    );
    finish(fake).await;
    w.stop().await;
}

/// The animated replay on the result card has alt text (issue 37, item 6), within Discord's
/// 1,024 characters of an attachment's description, in the game's language.
#[tokio::test]
async fn the_replay_gif_has_alt_text() {
    let w = world().await;
    let fake = &w.fake;
    let (game, thread) = start_game(fake).await;
    let board = latest_board_after(fake, thread, 0).await;
    let p = click_first(fake, &board).await;
    fake.wait_for_callback(p.id).await;
    board_after(fake, &board).await;
    resign(fake, ALICE, game, thread).await;
    let card = result_card(fake, thread).await;
    let gif = card
        .attachments
        .iter()
        .find(|a| a.filename == "replay.gif")
        .unwrap_or_else(|| panic!("no replay on {card:?}"));
    let alt = gif.description.as_deref().expect("alt text on the replay");
    assert!(alt.chars().count() <= 1024, "{alt}");
    assert!(alt.contains("replay"), "{alt}");
    assert!(alt.contains(&format!("Cortexcape #{}", game.0)), "{alt}");
    assert!(!alt.contains("**"), "{alt}");
    finish(fake).await;
    w.stop().await;
}
