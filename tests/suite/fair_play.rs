//! Fair play and abuse, tried as a hostile member would through the real bot and the fake
//! Discord, on SQLite and PostgreSQL: no seat can be taken to read its hand, moderator rights
//! count only in the game's own channel, games in private channels are not readable by id,
//! display names cannot ping or format, and one member cannot flood a server with lobbies,
//! threads or repeated commands. RELIABILITY.md ("Who may do what", "Abuse") lists each.

use crate::bot_play;

use crate::bot_play::{ask, click_private, custom_ids, game_of, is_board, join_and_start, World};
use crate::fake_discord::perms::{self, Overwrite, Target};
use crate::fake_discord::*;
use crate::store_db::Db;
use croupier::clock::HOUR;
use croupier::engine::{GameId, GameKind, GameOptions};
use croupier::i18n::{escape_markdown, Lang, Text};
use croupier::service::{Service, Timers};
use croupier::store::GameStatus;
use serde_json::Value;

on_backends!(a_seat_still_in_play_cannot_change_hands);
on_backends!(moderator_rights_count_only_in_the_games_own_channel);
on_backends!(games_in_private_channels_are_not_readable_by_id);
on_backends!(display_names_ping_nobody_and_read_as_written);
on_backends!(one_member_cannot_flood_a_server);
on_backends!(repeated_commands_and_clicks_cost_next_to_nothing);
on_backends!(every_interaction_is_acknowledged_before_any_database_work);
on_backends!(a_host_cannot_dodge_a_loss_by_cancelling);
on_backends!(a_locked_thread_pauses_the_game_until_the_host_or_a_moderator_resumes_it);
on_backends!(a_place_the_bot_may_no_longer_post_in_pauses_the_game_and_tells_the_host_once);
on_backends!(a_hidden_hand_reaches_a_newcomer_only_when_the_seat_is_open_or_everyone_agrees);
on_backends!(running_games_count_in_the_caps_and_solo_games_hold_no_thread_for_long);
on_backends!(a_thread_nobody_plays_in_for_days_is_archived_and_says_so);
on_backends!(pings_off_silences_every_message_that_mentions_only_such_players);
on_backends!(a_turn_is_taken_back_only_when_every_other_player_agrees);
on_backends!(a_rollback_takes_a_game_back_as_it_was);

/// View, send, history, commands, threads: a member without Manage Threads or Channels.
const PLAIN: u64 = perms::VIEW_CHANNEL
    | perms::SEND_MESSAGES
    | perms::READ_MESSAGE_HISTORY
    | perms::USE_APPLICATION_COMMANDS
    | perms::SEND_MESSAGES_IN_THREADS
    | perms::CREATE_PUBLIC_THREADS
    | perms::ATTACH_FILES
    | perms::EMBED_LINKS;
const CAROL: u64 = 7_000_000_000_000_003;
const DAVE: u64 = 7_000_000_000_000_004;
const MOD: u64 = 7_000_000_000_000_005;
const MODS_CHANNEL: u64 = 1_100_000_000_000_000_030;
const STAFF_CHANNEL: u64 = 1_100_000_000_000_000_031;
const MOD_ROLE: u64 = 1_100_000_000_000_000_040;
const SOME_ROLE: u64 = 1_100_000_000_000_000_041;
/// 2026-09-21 00:00 UTC.
const T0: i64 = 1_789_948_800;

/// The bot on `db` against a fresh fake whose members are plain (no moderator right
/// anywhere) unless a test gives them one; Carol, Dave and a moderator-to-be exist. The
/// service's clock is a manual one at `T0`; the fake keeps the wall clock.
async fn world(db: &Db, timers: Timers, cooldowns: bool) -> World {
    World::on(db)
        .service_clock(T0)
        .timers(timers)
        .fake(|fake| fake.set_everyone_permissions(PLAIN))
        .user(CAROL, "carol")
        .user(DAVE, "dave")
        .user(MOD, "mod")
        .tick(Some(std::time::Duration::from_millis(200)))
        .cooldowns(cooldowns)
        .start()
        .await
}

fn uid(user: u64) -> i64 {
    i64::try_from(user).unwrap()
}

fn en(key: &str) -> String {
    Text::new(key).render(Lang::En)
}

/// A running game of `kind` between `players` (the first hosts) in `channel`.
async fn start(svc: &Service, kind: GameKind, players: &[(u64, &str)], channel: u64) -> GameId {
    bot_play::start_direct(svc, kind, GameOptions::new(), players, channel, 5).await
}

fn with_game(mut options: Vec<Value>, game: GameId) -> Vec<Value> {
    options.push(opt::integer("game", game.0));
    options
}

/// Who holds each seat, the game's version and its state: what a refusal must not change.
async fn snapshot(svc: &Service, game: GameId) -> (Vec<Option<i64>>, u32, String) {
    let l = svc.load(game).await.unwrap();
    let seats = l.record.seats.iter().map(|s| s.user).collect();
    (seats, l.record.version.0, l.game.to_json())
}

/// `/replace seat:<seat> user:<to>` by `by` in the games channel: the private answer.
async fn replace_as(fake: &FakeDiscord, by: u64, seat: i64, to: u64) -> String {
    let options = vec![opt::integer("seat", seat), opt::user("user", to)];
    ask(fake, by, CHANNEL_ID, Push::command("replace", options))
        .await
        .content
}

/// A moderator role (Manage Threads) for `members`, everywhere.
fn moderators(fake: &FakeDiscord, members: &[u64]) {
    fake.add_role(MOD_ROLE, PLAIN | perms::MANAGE_THREADS, members);
}

async fn a_seat_still_in_play_cannot_change_hands(db: &Db) {
    let w = world(db, Timers::default(), false).await;
    let fake = &w.fake;
    // Gates of Delirium: every seat holds a hidden hand, sent by DM to whoever holds it.
    let game = start(
        &w.service,
        GameKind::Gates,
        &[(ALICE, "Alice"), (BOB, "Bob")],
        CHANNEL_ID,
    )
    .await;
    let before = snapshot(&w.service, game).await;
    let in_play = Text::new("bot.error.seat_in_play")
        .arg("n", 2_usize)
        .render(Lang::En);

    // Alice hosts and plays: every way of taking Bob's seat (to an account of hers, to a
    // bot she could watch, or opening it to take it next) is refused and changes nothing.
    for (name, options) in [
        (
            "replace",
            vec![opt::integer("seat", 2), opt::user("user", CAROL)],
        ),
        (
            "replace",
            vec![opt::integer("seat", 2), opt::boolean("bot", true)],
        ),
        ("kick", vec![opt::integer("seat", 2)]),
    ] {
        let answer = ask(fake, ALICE, CHANNEL_ID, Push::command(name, options)).await;
        assert_eq!(answer.content, in_play, "/{name}");
        assert_eq!(snapshot(&w.service, game).await, before, "/{name}");
    }
    // A moderator who plays in the game is no better placed than the host.
    moderators(fake, &[BOB]);
    let answer = replace_as(fake, BOB, 1, DAVE).await;
    assert_eq!(
        answer,
        Text::new("bot.error.seat_in_play")
            .arg("n", 1_usize)
            .render(Lang::En)
    );
    assert_eq!(snapshot(&w.service, game).await, before);
    assert!(
        fake.dms(CAROL).is_empty() && fake.dms(DAVE).is_empty(),
        "no hand went to another account"
    );

    // Giving up one's own seat is allowed: Alice hands hers to Carol. Still the host but no
    // longer seated and no moderator, she cannot take Bob's seat either.
    let answer = replace_as(fake, ALICE, 1, CAROL).await;
    assert_eq!(answer, en("bot.done.replaced"));
    let answer = replace_as(fake, ALICE, 2, ALICE).await;
    assert_eq!(answer, in_play);
    assert!(fake.dms(ALICE).iter().all(|m| m.attachments.is_empty()));

    // A moderator who holds no seat may hand a seat over at any time (an absent player).
    moderators(fake, &[MOD]);
    let answer = replace_as(fake, MOD, 2, DAVE).await;
    assert_eq!(answer, en("bot.done.replaced"));
    let seats = snapshot(&w.service, game).await.0;
    assert_eq!(seats, vec![Some(uid(CAROL)), Some(uid(DAVE))]);
    // The hands went to their new holders only.
    fake.wait_until("Dave's hand", |st| {
        st.messages
            .iter()
            .any(|m| {
                m.attachments.iter().any(|a| a.filename == "hand.png")
                    && st.channels.get(&m.channel_id).and_then(|c| c.recipient) == Some(DAVE)
            })
            .then_some(())
    })
    .await;
    for user in [ALICE, BOB, MOD] {
        assert!(
            fake.dms(user).iter().all(|m| m.attachments.is_empty()),
            "no hand reached {user}"
        );
    }
    w.bot.stop_clean(fake).await;
}

async fn moderator_rights_count_only_in_the_games_own_channel(db: &Db) {
    let w = world(db, Timers::default(), false).await;
    let fake = &w.fake;
    // Bob and a moderator may manage threads in #mods only.
    let manage = Overwrite {
        target: Target::Member(0),
        allow: perms::MANAGE_THREADS,
        deny: 0,
    };
    fake.add_channel(
        MODS_CHANNEL,
        "mods",
        [BOB, MOD]
            .iter()
            .map(|u| Overwrite {
                target: Target::Member(*u),
                ..manage
            })
            .collect(),
    );
    assert_ne!(
        fake.permissions_in(BOB, MODS_CHANNEL) & perms::MANAGE_THREADS,
        0
    );
    assert_eq!(
        fake.permissions_in(BOB, CHANNEL_ID) & perms::MANAGE_THREADS,
        0
    );
    let game = start(
        &w.service,
        GameKind::Cortexcape,
        &[(ALICE, "Alice"), (BOB, "Bob")],
        CHANNEL_ID,
    )
    .await;
    let before = snapshot(&w.service, game).await;

    // Bob (a player, not the host) from #mods: his rights there do not count for the game;
    // he is told where to run the command.
    let there = Text::new("bot.error.moderate_there")
        .arg("place", format!("<#{CHANNEL_ID}>"))
        .render(Lang::En);
    for (name, options) in [
        ("cancel", vec![]),
        ("kick", vec![opt::integer("seat", 1)]),
        ("clock", vec![opt::string("action", "pause")]),
    ] {
        let answer = ask(
            fake,
            BOB,
            MODS_CHANNEL,
            Push::command(name, with_game(options, game)),
        )
        .await;
        assert_eq!(answer.content, there, "/{name} from #mods");
        assert_eq!(snapshot(&w.service, game).await, before, "/{name}");
    }
    // The moderator holds no seat: from #mods the game is not even within reach.
    let answer = ask(
        fake,
        MOD,
        MODS_CHANNEL,
        Push::command("cancel", with_game(vec![], game)),
    )
    .await;
    assert_eq!(
        answer.content,
        Text::new("bot.error.not_here")
            .arg("id", game.0)
            .render(Lang::En)
    );
    // In the game's channel, without the right there: only the host may.
    let answer = ask(
        fake,
        MOD,
        CHANNEL_ID,
        Push::command("cancel", with_game(vec![], game)),
    )
    .await;
    assert_eq!(answer.content, en("bot.error.not_host"));
    assert_eq!(snapshot(&w.service, game).await, before);
    // Given the right in the game's channel, the moderator may.
    fake.overwrite(
        CHANNEL_ID,
        Overwrite {
            target: Target::Member(MOD),
            ..manage
        },
    );
    let answer = ask(
        fake,
        MOD,
        CHANNEL_ID,
        Push::command(
            "clock",
            with_game(vec![opt::string("action", "pause")], game),
        ),
    )
    .await;
    assert_eq!(answer.content, en("bot.done.clock"));
    w.bot.stop_clean(fake).await;
}

async fn games_in_private_channels_are_not_readable_by_id(db: &Db) {
    let w = world(db, Timers::default(), false).await;
    let fake = &w.fake;
    // #staff: hidden from everyone but Alice and Bob.
    let see = |u: u64| Overwrite {
        target: Target::Member(u),
        allow: perms::VIEW_CHANNEL,
        deny: 0,
    };
    fake.add_channel(
        STAFF_CHANNEL,
        "staff",
        vec![
            Overwrite {
                target: Target::Role(GUILD_ID),
                allow: 0,
                deny: perms::VIEW_CHANNEL,
            },
            see(ALICE),
            see(BOB),
        ],
    );
    assert_eq!(fake.permissions_in(CAROL, STAFF_CHANNEL), 0);
    let game = start(
        &w.service,
        GameKind::Gates,
        &[(ALICE, "Alice"), (BOB, "Bob")],
        STAFF_CHANNEL,
    )
    .await;
    let before = snapshot(&w.service, game).await;
    let prompt = w.service.load(game).await.unwrap().game.prompt().unwrap();
    let options = prompt.options.clone();

    // Carol guesses the id from #games: nothing about the game reaches her.
    let not_here = Text::new("bot.error.not_here")
        .arg("id", game.0)
        .render(Lang::En);
    for (name, opts) in [
        ("board", vec![]),
        ("history", vec![]),
        ("hand", vec![]),
        ("move", vec![opt::string("option", &options[0])]),
        ("undo", vec![]),
        ("resign", vec![]),
    ] {
        let answer = ask(
            fake,
            CAROL,
            CHANNEL_ID,
            Push::command(name, with_game(opts, game)),
        )
        .await;
        assert_eq!(answer.content, not_here, "/{name}");
        assert!(answer.attachments.is_empty(), "/{name}");
    }
    assert_eq!(snapshot(&w.service, game).await, before);
    // Nor do /move's suggestions (a named game is read once per keystroke); the player
    // whose turn it is gets them from anywhere in the server.
    let decider = match prompt.seat.index() {
        0 => ALICE,
        _ => BOB,
    };
    for (user, expect_any) in [(CAROL, false), (decider, true)] {
        let p = fake
            .push(
                Push::autocomplete(
                    "move",
                    vec![opt::integer("game", game.0), opt::focused("option", "")],
                )
                .by(user),
            )
            .await;
        let cb = fake.wait_for_callback(p.id).await;
        let choices = cb.data["choices"].as_array().map_or(0, Vec::len);
        assert_eq!(choices > 0, expect_any, "{user}: {cb:?}");
    }
    // A player may look from anywhere in the server.
    let answer = ask(
        fake,
        BOB,
        CHANNEL_ID,
        Push::command("board", with_game(vec![], game)),
    )
    .await;
    assert!(
        answer.attachments.iter().any(|a| a.filename == "board.png"),
        "{answer:?}"
    );
    w.bot.stop_clean(fake).await;
}

async fn display_names_ping_nobody_and_read_as_written(db: &Db) {
    let w = world(db, Timers::default(), false).await;
    let fake = &w.fake;
    // A member whose display name holds a role mention, @everyone, a masked link and bold.
    let evil_name = "<@&1100000000000000041> @everyone [free](https://evil.example) **x**";
    fake.add_role(SOME_ROLE, PLAIN, &[BOB]);
    fake.add_user(CAROL + 100, evil_name);
    let evil = CAROL + 100;
    // Through the lobby: the evil member opens it, Bob joins, the evil member starts.
    let lobby = bot_play::play_with(fake, evil, "cortexcape", "short=true")
        .await
        .expect("lobby");
    let thread = join_and_start(fake, &lobby, &[BOB], evil).await;
    // Turns until the member with that name has played twice, each click a new board.
    let mut board = bot_play::latest_board_after(fake, thread, 0).await;
    let mut evil_moves = 0;
    for _ in 0..80 {
        if evil_moves == 2 {
            break;
        }
        evil_moves += usize::from(bot_play::mentioned(&board) == Some(evil));
        let click = bot_play::click_first(fake, &board).await;
        fake.wait_for_callback(click.id).await;
        board = bot_play::board_after(fake, &board).await;
    }
    assert_eq!(evil_moves, 2, "both players played");
    let escaped = escape_markdown(evil_name);
    for m in fake
        .messages(CHANNEL_ID)
        .into_iter()
        .chain(fake.messages(thread))
    {
        assert!(m.pinged_roles.is_empty(), "a role was pinged: {m:?}");
        assert!(!m.pinged_everyone, "everyone was pinged: {m:?}");
        assert!(
            m.pinged_users.iter().all(|u| [evil, BOB].contains(u)),
            "{m:?}"
        );
        assert!(
            !m.content.contains("<@&"),
            "an unescaped role mention: {m:?}"
        );
        assert!(
            !m.content.contains("](https://evil"),
            "a masked link: {m:?}"
        );
        // A new board pings exactly the player who decides now.
        if is_board(&m) && m.edits == 0 {
            let decider = bot_play::mentioned(&m);
            assert_eq!(
                m.pinged_users,
                decider.into_iter().collect::<Vec<_>>(),
                "{m:?}"
            );
        }
    }
    // The history names every mover: there too the name reads as written, escaped.
    let history = ask(fake, BOB, thread, Push::command("history", vec![])).await;
    assert!(history.content.contains(&escaped), "{}", history.content);
    w.bot.stop_clean(fake).await;
}

async fn one_member_cannot_flood_a_server(db: &Db) {
    let timers = Timers {
        lobbies_per_member: 2,
        lobbies_per_channel: 3,
        ..Timers::default()
    };
    let w = world(db, timers, false).await;
    let fake = &w.fake;
    let play = |user: u64| bot_play::play(fake, user, "cortexcape");
    // Two lobbies each for Alice; the third is refused, privately.
    let mut lobbies = Vec::new();
    for _ in 0..2 {
        lobbies.push(play(ALICE).await.expect("a lobby"));
    }
    assert_eq!(
        play(ALICE).await.expect_err("refused"),
        Text::new("bot.error.lobbies_member")
            .arg("max", 2_i64)
            .render(Lang::En)
    );
    // Bob opens the channel's third; Carol's would be a fourth.
    lobbies.push(play(BOB).await.expect("a lobby"));
    assert_eq!(
        play(CAROL).await.expect_err("refused"),
        Text::new("bot.error.lobbies_channel")
            .arg("max", 3_i64)
            .render(Lang::En)
    );
    // Lobbies open no thread: only a game that starts does.
    assert!(fake.threads().is_empty());
    let started = game_of(&lobbies[0]);
    let thread = join_and_start(fake, &lobbies[0], &[CAROL], ALICE).await;
    assert_eq!(fake.threads().len(), 1);

    // A day without activity closes the other lobbies; their messages say so.
    w.clock().set(T0 + 24 * HOUR + 60);
    for lobby in &lobbies[1..] {
        let id = game_of(lobby);
        let closed = fake
            .wait_until("the idle lobby closed", |st| {
                let m = st.message(lobby.id)?;
                m.components.is_empty().then(|| m.content.clone())
            })
            .await;
        assert!(closed.starts_with("💤"), "{closed}");
        assert!(closed.contains(&format!("#{}", id.0)), "{closed}");
        assert_eq!(
            w.service.lobbies().lobby(id).await.unwrap().status,
            GameStatus::Cancelled
        );
    }
    assert_eq!(
        w.service.lobbies().lobby(started).await.unwrap().status,
        GameStatus::Active,
        "a started game is no lobby"
    );
    // Cancelling the running game archives its thread, freeing the server's thread cap.
    let question = ask(fake, ALICE, thread, Push::command("cancel", vec![])).await;
    // Carol never agreed: Alice is warned, and cancels as her resignation (issue 36).
    let answer = click_private(fake, &question, &format!("k:{}:forfeit", started.0), ALICE).await;
    assert_eq!(answer.content, en("bot.done.cancelled_resigned"));
    fake.wait_until("the thread archived", |st| {
        st.channels.get(&thread).filter(|c| c.archived).map(|_| ())
    })
    .await;
    // Alice's lobbies are all closed: she may open new ones.
    play(ALICE).await.expect("a lobby");
    w.bot.stop_clean(fake).await;
}

async fn repeated_commands_and_clicks_cost_next_to_nothing(db: &Db) {
    let w = world(db, Timers::default(), true).await;
    let fake = &w.fake;
    // Typing in /play's options asks for suggestions at every keystroke: each is answered,
    // and none starts the command's cooldown (nor records an interaction).
    for typed in ["c", "co", "cor"] {
        let suggest = fake
            .push(Push::autocomplete("play", vec![opt::focused("game", typed)]).by(ALICE))
            .await;
        assert_eq!(fake.wait_for_callback(suggest.id).await.kind, 8);
    }
    // A second /play within the cooldown is refused before anything is stored.
    let first = fake
        .push(Push::command("play", vec![opt::string("game", "cortexcape")]).by(ALICE))
        .await;
    let lobby = bot_play::play_answer(fake, first.id)
        .await
        .expect("the first /play opens a lobby");
    let again = fake
        .push(Push::command("play", vec![opt::string("game", "cortexcape")]).by(ALICE))
        .await;
    let cb = fake.wait_for_callback(again.id).await;
    assert!(cb.ephemeral());
    let wait = cb.content().unwrap_or_default();
    assert!(
        (1..=10_i64).any(|s| wait
            == Text::new("bot.error.slow_down")
                .arg("secs", s)
                .render(Lang::En)),
        "{wait}"
    );
    let games = w
        .service
        .store()
        .games_of_user(uid(ALICE), None, 10)
        .await
        .unwrap();
    assert_eq!(games.len(), 1, "nothing stored for the refused /play");

    // Five clicks at once on one option (a player hammering a button): one plays, and of
    // the four told the board changed, one sees the current board and the rest a short text
    // (one render, not four).
    let game = game_of(&lobby);
    let thread = join_and_start(fake, &lobby, &[BOB], ALICE).await;
    let board = bot_play::latest_board_after(fake, thread, 0).await;
    let mover = bot_play::mentioned(&board).expect("a decider");
    let id = custom_ids(&board.components)
        .into_iter()
        .find(|i| i.starts_with("g:"))
        .expect("an option button");
    let click = || fake.push(Push::button(board.id, &id).by(mover).in_channel(thread));
    let (a, b, c, d, e) = tokio::join!(click(), click(), click(), click(), click());
    let clicks = [a, b, c, d, e];
    for p in &clicks {
        assert_eq!(fake.wait_for_callback(p.id).await.kind, 6);
    }
    let refused: Vec<Message> = fake
        .wait_until("four clicks refused", |st| {
            let answers: Vec<Message> = clicks
                .iter()
                .filter_map(|p| st.interactions.get(&p.id)?.followups.first().copied())
                .filter_map(|m| st.message(m).cloned())
                .collect();
            (answers.len() == 4).then_some(answers)
        })
        .await;
    assert_eq!(w.service.store().moves(game).await.unwrap().len(), 1);
    let with_board: Vec<&Message> = refused
        .iter()
        .filter(|m| !m.attachments.is_empty())
        .collect();
    assert_eq!(with_board.len(), 1, "{refused:?}");
    assert_eq!(with_board[0].content, en("core.error.stale"));
    for m in refused.iter().filter(|m| m.attachments.is_empty()) {
        assert_eq!(m.content, en("bot.error.stale_again"));
    }

    // Sixteen Zoom clicks at once by one spectator: a budget of renders is answered with the
    // image, the rest are told to wait (no render); another member is not held up by them.
    let zoom = format!("z:{}", game.0);
    let zoom_by =
        |user: u64| fake.push_now(Push::button(board.id, &zoom).by(user).in_channel(thread));
    let spam: Vec<Pushed> = (0..16).map(|_| zoom_by(DAVE)).collect();
    let answers: Vec<Message> = fake
        .wait_until("every zoom answered", |st| {
            spam.iter()
                .map(|p| st.message(st.interactions.get(&p.id)?.original?))
                .map(|m| m.filter(|m| !m.content.is_empty()).cloned())
                .collect()
        })
        .await;
    let shown = answers.iter().filter(|m| !m.attachments.is_empty()).count();
    let slowed: Vec<&Message> = answers
        .iter()
        .filter(|m| m.attachments.is_empty())
        .collect();
    assert!(shown >= 8, "a reader's budget: {shown}");
    assert!(!slowed.is_empty(), "sixteen zooms at once are throttled");
    for m in &slowed {
        assert!(m.content.starts_with("Easy there"), "{}", m.content);
    }
    let other = zoom_by(CAROL);
    let answer = fake
        .wait_until("Carol's zoom", |st| {
            let m = st.message(st.interactions.get(&other.id)?.original?)?;
            (!m.content.is_empty()).then(|| m.clone())
        })
        .await;
    assert!(!answer.attachments.is_empty(), "{}", answer.content);
    w.bot.stop_clean(fake).await;
}

/// Discord shows an autocomplete answer only within 3 s. With PostgreSQL holding the games
/// table (a long migration, a stuck transaction), `/move`'s and `/rules`' autocompletes, which
/// read it, answer in time with what they have (no option; the rules of the first game), and
/// fill in again once the database answers. PostgreSQL only: SQLite's readers do not wait for
/// a writer (WAL), so nothing there makes a read wait.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn autocomplete_answers_in_time_while_the_database_is_held() {
    let Some(db) = Db::postgres("fair_play_autocomplete_held").await else {
        return;
    };
    let w = world(&db, Timers::default(), false).await;
    let fake = &w.fake;
    let (_game, thread) = bot_play::start_game(fake).await;
    let board = bot_play::latest_board_after(fake, thread, 0).await;
    let decider = bot_play::mentioned(&board).expect("someone decides");
    let typing = |fake: &FakeDiscord, command: &str, option: &str| {
        fake.push_now(
            Push::autocomplete(command, vec![opt::focused(option, "")])
                .by(decider)
                .in_channel(thread),
        )
    };
    let choices = |cb: &Callback| cb.data["choices"].as_array().map_or(0, Vec::len);
    let asked = typing(fake, "move", "option");
    let cb = fake.wait_for_callback(asked.id).await;
    let decider_sees = choices(&cb);
    assert!(decider_sees > 0, "{cb:?}");

    let held = db.hold_writes().await;
    let (moves, rules) = (
        typing(fake, "move", "option"),
        typing(fake, "rules", "topic"),
    );
    let (moves, rules) = (
        fake.wait_for_callback(moves.id).await,
        fake.wait_for_callback(rules.id).await,
    );
    held.release().await;
    assert_eq!((moves.kind, choices(&moves)), (8, 0), "{moves:?}");
    assert_eq!(rules.kind, 8);
    assert!(choices(&rules) > 0, "the first game's rules: {rules:?}");
    // Once the database answers, so does the autocomplete (as before the hold).
    let again = typing(fake, "move", "option");
    assert_eq!(
        choices(&fake.wait_for_callback(again.id).await),
        decider_sees
    );
    bot_play::finish(fake).await;
    w.bot.stop().await;
    db.finish().await;
}

/// Discord gives an interaction 3 s for its acknowledgement. With the database holding every
/// write for longer than that (a long transaction, a slow disk), commands and lobby clicks are
/// still acknowledged in time (deferred before any database work) and carried out once the
/// database answers. The fake refuses a late acknowledgement (10062) and reports it.
async fn every_interaction_is_acknowledged_before_any_database_work(db: &Db) {
    let w = world(db, Timers::default(), false).await;
    let fake = &w.fake;
    let names = |m: &Message| m.content.clone();
    let l1 = bot_play::play(fake, ALICE, "cortexcape")
        .await
        .expect("lobby");
    let l2 = bot_play::play(fake, BOB, "cortexcape")
        .await
        .expect("lobby");
    bot_play::click_lobby(fake, &l2, "join", CAROL)
        .await
        .expect("Carol joins");
    let l3 = bot_play::play(fake, DAVE, "cortexcape")
        .await
        .expect("lobby");
    /// Longer than Discord's 3 s.
    const HOLD: std::time::Duration = std::time::Duration::from_millis(3_500);

    // Round one: a join, a leave, a bot added, a /play, and a private command.
    let held = db.hold_writes().await;
    let (join, leave, bot, play, games, ()) = tokio::join!(
        bot_play::click_lobby(fake, &l1, "join", BOB),
        bot_play::click_lobby(fake, &l2, "leave", CAROL),
        bot_play::click_lobby(fake, &l3, "bot", DAVE),
        async {
            let opened = async {
                let cmd = fake
                    .push(Push::command("play", vec![opt::string("game", "portal")]).by(CAROL))
                    .await;
                bot_play::play_answer(fake, cmd.id).await
            };
            let (opened, ()) = tokio::join!(opened, tokio::time::sleep(HOLD));
            opened
        },
        ask(fake, ALICE, CHANNEL_ID, Push::command("games", vec![])),
        // The lock goes once every acknowledgement had to be in.
        async {
            tokio::time::sleep(HOLD).await;
            held.release().await;
        },
    );
    let join = join.expect("Bob joins");
    assert!(
        names(&join).contains(&format!("<@{BOB}>")),
        "{}",
        join.content
    );
    let leave = leave.expect("Carol leaves");
    assert!(
        !names(&leave).contains(&format!("<@{CAROL}>")),
        "{}",
        leave.content
    );
    let bot = bot.expect("a bot seat");
    assert!(bot.content.contains("🤖"), "{}", bot.content);
    play.expect("Carol's lobby");
    assert!(!games.content.is_empty());

    // Round two: the game starts, a lobby is cancelled, a bot seat removed.
    let held = db.hold_writes().await;
    let (start, cancel, unbot, ()) = tokio::join!(
        bot_play::click_lobby(fake, &l1, "start", ALICE),
        bot_play::click_lobby(fake, &l2, "cancel", BOB),
        bot_play::click_lobby(fake, &l3, "unbot", DAVE),
        async {
            tokio::time::sleep(HOLD).await;
            held.release().await;
        },
    );
    start.expect("started");
    let thread = bot_play::thread_of(fake, l1.id).await;
    bot_play::latest_board_after(fake, thread, 0).await;
    let cancel = cancel.expect("cancelled");
    assert!(cancel.components.is_empty(), "{cancel:?}");
    let unbot = unbot.expect("the bot seat removed");
    assert!(!unbot.content.contains("🤖"), "{}", unbot.content);
    assert_eq!(
        w.service
            .lobbies()
            .lobby(game_of(&l2))
            .await
            .unwrap()
            .status,
        GameStatus::Cancelled
    );
    w.bot.stop_clean(fake).await;
}

/// `k:<game>:<action>`, a confirmation button.
fn k(game: GameId, action: &str) -> String {
    format!("k:{}:{action}", game.0)
}

/// A click on a confirmation that the bot refuses: acknowledged, then a private follow-up
/// says why (the question is left as it was).
async fn refused_click(fake: &FakeDiscord, question: &Message, id: &str, user: u64) -> String {
    let p = fake
        .push(
            Push::button(question.id, id)
                .by(user)
                .in_channel(question.channel_id),
        )
        .await;
    fake.wait_for_callback(p.id).await;
    fake.wait_until("the refusal", |st| {
        let rec = st.interactions.get(&p.id)?;
        let f = st.message(*rec.followups.first()?)?;
        Some(f.content.clone())
    })
    .await
}

/// The newest message in `channel` that contains `text`.
async fn posted(fake: &FakeDiscord, channel: u64, text: &str) -> Message {
    fake.wait_until("a message in the game's place", |st| {
        st.messages
            .iter()
            .rev()
            .find(|m| m.channel_id == channel && !m.ephemeral() && m.content.contains(text))
            .cloned()
    })
    .await
}

/// Issue 36: cancelled games were never rated, so a host about to lose could `/cancel` the
/// game away. Once a game has started, a host's cancel counts as the host's resignation unless
/// every other seated member agrees (each with `/cancel`, within a day); the host is warned
/// before it happens and may ask the others instead; a click that meant "no rating" is refused
/// when an agreement lapsed meanwhile; a moderator's cancel stays neutral.
async fn a_host_cannot_dodge_a_loss_by_cancelling(db: &Db) {
    let w = world(db, Timers::default(), false).await;
    let fake = &w.fake;
    let svc = &w.service;
    let cancel = |user: u64, game: GameId| {
        ask(
            fake,
            user,
            CHANNEL_ID,
            Push::command("cancel", with_game(vec![], game)),
        )
    };
    let players = [(ALICE, "Alice"), (BOB, "Bob")];

    // 1. The host alone: a clear warning first, naming who has not agreed, pinging nobody.
    let game = start(svc, GameKind::Cortexcape, &players, CHANNEL_ID).await;
    let before = snapshot(svc, game).await;
    let question = cancel(ALICE, game).await;
    assert!(
        question.content.contains("counts as your resignation"),
        "{}",
        question.content
    );
    assert!(question.content.contains(&format!("<@{BOB}>")));
    assert!(question.pinged_users.is_empty(), "{question:?}");
    assert_eq!(
        custom_ids(&question.components),
        [k(game, "agree"), k(game, "forfeit"), k(game, "keep")]
    );
    // The "no rating" button is not offered (Discord accepts clicks only on a message's own
    // buttons; a stale one is refused below, in 3).
    assert_eq!(snapshot(svc, game).await, before);
    // Cancelling anyway: the game stops, and the ratings count it as Alice's resignation.
    let done = click_private(fake, &question, &k(game, "forfeit"), ALICE).await;
    assert_eq!(done.content, en("bot.done.cancelled_resigned"));
    assert_eq!(
        svc.lobbies().lobby(game).await.unwrap().status,
        GameStatus::Cancelled
    );
    let notice = posted(fake, CHANNEL_ID, "counts as Alice's resignation").await;
    assert!(notice.content.contains("📈"), "{}", notice.content);
    let changes = svc.store().rating_changes_of_game(game).await.unwrap();
    let of = |u: u64| {
        changes
            .iter()
            .find(|c| c.player == format!("u:{}", uid(u)))
            .unwrap_or_else(|| panic!("{u} rated: {changes:?}"))
    };
    assert!(of(BOB).won && !of(ALICE).won, "{changes:?}");
    assert!(of(ALICE).rank > of(BOB).rank);
    assert!(of(ALICE).after.mu < of(ALICE).before.mu);

    // 2. Every other player agrees: the cancel is neutral. Alice asks the others (her
    // agreement), Bob is pinged once; his /cancel asks him to agree, and his click stops it.
    let game = start(svc, GameKind::Cortexcape, &players, CHANNEL_ID).await;
    let question = cancel(ALICE, game).await;
    let done = click_private(fake, &question, &k(game, "agree"), ALICE).await;
    assert!(done.content.contains("1 of 2"), "{}", done.content);
    assert_eq!(
        svc.lobbies().lobby(game).await.unwrap().status,
        GameStatus::Active
    );
    let asked = posted(fake, CHANNEL_ID, &format!("game {} with no rating", game.0)).await;
    assert_eq!(asked.pinged_users, vec![BOB], "{asked:?}");
    let question = cancel(BOB, game).await;
    assert!(
        question.content.contains("Agree to cancel"),
        "{}",
        question.content
    );
    assert_eq!(
        custom_ids(&question.components),
        [k(game, "agree"), k(game, "keep")]
    );
    let done = click_private(fake, &question, &k(game, "agree"), BOB).await;
    assert_eq!(done.content, en("bot.done.cancelled"));
    assert_eq!(
        svc.lobbies().lobby(game).await.unwrap().status,
        GameStatus::Cancelled
    );
    posted(fake, CHANNEL_ID, "every player agreed").await;
    svc.records()
        .settle_ratings(Some(uid(GUILD_ID)))
        .await
        .unwrap();
    assert!(svc
        .store()
        .rating_changes_of_game(game)
        .await
        .unwrap()
        .is_empty());

    // 3. Bob agrees first, then the host cancels: asked as a plain cancel, no rating.
    let game = start(svc, GameKind::Cortexcape, &players, CHANNEL_ID).await;
    let question = cancel(BOB, game).await;
    click_private(fake, &question, &k(game, "agree"), BOB).await;
    let question = cancel(ALICE, game).await;
    assert!(
        question.content.contains("Every other player agreed"),
        "{}",
        question.content
    );
    assert_eq!(
        custom_ids(&question.components),
        [k(game, "cancel"), k(game, "keep")]
    );
    // ... but a day later Bob's agreement has lapsed: the old "no rating" click is refused
    // rather than turned into a resignation, and a new /cancel warns again.
    w.clock().set(T0 + 25 * HOUR);
    let refused = refused_click(fake, &question, &k(game, "cancel"), ALICE).await;
    assert!(refused.contains("24 hours"), "{refused}");
    assert_eq!(
        svc.lobbies().lobby(game).await.unwrap().status,
        GameStatus::Active
    );
    let question = cancel(ALICE, game).await;
    assert!(
        question.content.contains("counts as your resignation"),
        "{}",
        question.content
    );
    click_private(fake, &question, &k(game, "keep"), ALICE).await;

    // 4. Someone who is neither seated, host nor moderator cannot agree for the players.
    let answer = cancel(CAROL, game).await;
    assert_eq!(answer.content, en("bot.error.not_host"));
    assert!(answer.components.is_empty());

    // 5. A moderator who plays in the game is held to the host's rule: Bob, made one, is
    // warned that his cancel would count as his resignation.
    moderators(fake, &[MOD, BOB]);
    let question = cancel(BOB, game).await;
    assert!(
        question.content.contains("counts as your resignation"),
        "{}",
        question.content
    );
    assert_eq!(
        custom_ids(&question.components),
        [k(game, "agree"), k(game, "forfeit"), k(game, "keep")]
    );
    click_private(fake, &question, &k(game, "keep"), BOB).await;

    // 6. A moderator who plays no seat cancels for nobody, whoever agreed.
    let question = cancel(MOD, game).await;
    assert_eq!(
        custom_ids(&question.components),
        [k(game, "cancel"), k(game, "keep")]
    );
    let done = click_private(fake, &question, &k(game, "cancel"), MOD).await;
    assert_eq!(done.content, en("bot.done.cancelled"));
    assert_eq!(
        svc.lobbies().lobby(game).await.unwrap().status,
        GameStatus::Cancelled
    );
    svc.records()
        .settle_ratings(Some(uid(GUILD_ID)))
        .await
        .unwrap();
    assert!(svc
        .store()
        .rating_changes_of_game(game)
        .await
        .unwrap()
        .is_empty());
}

/// DMs to `user` in the fake's state (for `wait_until`, which holds the state).
fn dms_in(st: &State, user: u64) -> Vec<&Message> {
    let Some(dm) = st.channels.values().find(|c| c.recipient == Some(user)) else {
        return Vec::new();
    };
    st.messages
        .iter()
        .filter(|m| m.channel_id == dm.id)
        .collect()
}

/// A hand image (`hand.png`).
fn is_hand(m: &Message) -> bool {
    m.attachments.iter().any(|a| a.filename == "hand.png")
}

/// A DM that says a game is paused ("⏸️ …").
fn is_pause(m: &Message) -> bool {
    m.content.starts_with("⏸️")
}

/// Hands DMed to `user`, in the fake's state.
fn hands_in(st: &State, user: u64) -> usize {
    dms_in(st, user).into_iter().filter(|m| is_hand(m)).count()
}

/// Pause DMs to `user`, in the fake's state.
fn pauses_in(st: &State, user: u64) -> usize {
    dms_in(st, user).into_iter().filter(|m| is_pause(m)).count()
}

/// DMs to `user` that say a game is paused ("⏸️ …").
fn pause_dms(fake: &FakeDiscord, user: u64) -> usize {
    fake.dms(user).iter().filter(|m| is_pause(m)).count()
}

/// Hands (`hand.png`) DMed to `user` so far.
fn hand_dms(fake: &FakeDiscord, user: u64) -> usize {
    fake.dms(user).iter().filter(|m| is_hand(m)).count()
}

/// The member who decides in `game` now.
async fn decider(svc: &Service, game: GameId) -> u64 {
    let l = svc.load(game).await.unwrap();
    let seat = l.game.prompt().expect("a prompt").seat;
    let user = l.record.seats[seat.index()].user.expect("a person decides");
    u64::try_from(user).unwrap()
}

/// Whoever decides plays the first legal option with `/move game:<id>` typed in the games
/// channel; returns the private answer.
async fn move_from_the_channel(w: &World, game: GameId) -> Message {
    let option = bot_play::legal_options(&w.service, game).await[0].clone();
    let user = decider(&w.service, game).await;
    let options = with_game(vec![opt::string("option", &option)], game);
    ask(&w.fake, user, CHANNEL_ID, Push::command("move", options)).await
}

/// `/clock action:resume` by `user` in `channel`, naming `game` when given; the private answer.
async fn resume_as(fake: &FakeDiscord, user: u64, channel: u64, game: Option<GameId>) -> Message {
    let mut options = vec![opt::string("action", "resume")];
    if let Some(game) = game {
        options = with_game(options, game);
    }
    ask(fake, user, channel, Push::command("clock", options)).await
}

/// Waits until `game`'s place is marked lost; returns its record.
async fn paused(w: &World, game: GameId) -> croupier::store::GameRecord {
    for _ in 0..200 {
        let record = w.service.load(game).await.unwrap().record;
        if record.lost_at.is_some() {
            return record;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    panic!("game {game} was not paused");
}

/// The board of `game` the bot posts in `place` (any board of it there).
async fn board_in(fake: &FakeDiscord, place: u64) -> Message {
    bot_play::latest_board_after(fake, place, 0).await
}

/// A moderator locks a game's thread (issue 36): the game pauses at once, its host and players
/// are told once by DM, and it does not open a thread of its own. Moves still count and hands
/// still come by DM. It goes on only where the host or a moderator asks, with `/clock resume`.
async fn a_locked_thread_pauses_the_game_until_the_host_or_a_moderator_resumes_it(db: &Db) {
    let w = world(db, Timers::default(), false).await;
    let fake = &w.fake;
    moderators(fake, &[MOD]);
    // Gates: every seat has a hidden hand, DMed on each change.
    let lobby = bot_play::play(fake, ALICE, "gates").await.expect("a lobby");
    let game = game_of(&lobby);
    let thread = join_and_start(fake, &lobby, &[BOB], ALICE).await;
    let hands_before = hand_dms(fake, ALICE) + hand_dms(fake, BOB);
    let record = w.service.load(game).await.unwrap().record;
    let left = record.clock.deadline_at.expect("a clock runs") - T0;

    fake.archive_thread(thread, true);
    let record = paused(&w, game).await;
    assert_eq!(record.clock.deadline_at, None, "the clock stopped");
    assert_eq!(record.clock.paused_left, Some(left));
    for user in [ALICE, BOB] {
        fake.wait_until("the pause DM", |st| (pauses_in(st, user) > 0).then_some(()))
            .await;
    }

    // The decider plays from the channel: the move counts, the hands come, no thread opens.
    let version = w.service.load(game).await.unwrap().record.version;
    let answer = move_from_the_channel(&w, game).await;
    assert!(!answer.content.is_empty());
    assert!(w.service.load(game).await.unwrap().record.version > version);
    fake.wait_until("a hand after the move", |st| {
        (hands_in(st, ALICE) + hands_in(st, BOB) > hands_before).then_some(())
    })
    .await;
    assert_eq!(fake.threads().len(), 1, "no thread of the bot's own");
    let boards = |place: u64| fake.messages(place).into_iter().filter(is_board).count();
    assert_eq!(boards(thread), 1, "nothing more in the locked thread");
    assert_eq!(boards(CHANNEL_ID), 0);
    assert_eq!(
        w.service.load(game).await.unwrap().record.clock.deadline_at,
        None,
        "still paused"
    );

    // Only the host or a moderator gives it a place again.
    for user in [BOB, CAROL] {
        let answer = resume_as(fake, user, CHANNEL_ID, Some(game)).await;
        assert_eq!(answer.content, en("bot.error.not_host"), "{user}");
    }
    assert!(w.service.load(game).await.unwrap().record.lost_at.is_some());
    let answer = resume_as(fake, MOD, CHANNEL_ID, Some(game)).await;
    assert_eq!(answer.content, en("bot.done.resumed_here"));
    let view = w.service.lobbies().lobby(game).await.unwrap();
    let second = view.thread.expect("a new thread") as u64;
    assert_ne!(second, thread);
    assert!(!view.lost);
    board_in(fake, second).await;
    let record = w.service.load(game).await.unwrap().record;
    assert!(record.clock.deadline_at.is_some(), "the clock runs again");
    let notice = fake
        .messages(second)
        .into_iter()
        .find(|m| m.content.starts_with("▶️"))
        .expect("the game says it goes on");
    assert!(notice.pinged_users.contains(&ALICE) && notice.pinged_users.contains(&BOB));

    // Locked again: paused again, one more DM each; the host resumes it from the channel.
    fake.archive_thread(second, true);
    paused(&w, game).await;
    for user in [ALICE, BOB] {
        fake.wait_until("the second pause DM", |st| {
            (pauses_in(st, user) == 2).then_some(())
        })
        .await;
    }
    let answer = resume_as(fake, ALICE, CHANNEL_ID, Some(game)).await;
    assert_eq!(answer.content, en("bot.done.resumed_here"));
    let third = w
        .service
        .lobbies()
        .lobby(game)
        .await
        .unwrap()
        .thread
        .expect("a thread") as u64;
    assert!(third != thread && third != second);
    let board = board_in(fake, third).await;
    assert!(!board.components.is_empty(), "its buttons play on there");
    for user in [ALICE, BOB] {
        assert_eq!(pause_dms(fake, user), 2, "told once per lock");
    }
    w.bot.stop_clean(fake).await;
}

/// The bot loses the right to post in a game's thread (issue 36): the board it cannot post
/// pauses the game and its host (only) is told, once; moves still count. Once the right is
/// back, the host resumes it in the same thread.
async fn a_place_the_bot_may_no_longer_post_in_pauses_the_game_and_tells_the_host_once(db: &Db) {
    let w = world(db, Timers::default(), false).await;
    let fake = &w.fake;
    let lobby = bot_play::play(fake, ALICE, "cortexcape")
        .await
        .expect("a lobby");
    let game = game_of(&lobby);
    let thread = join_and_start(fake, &lobby, &[BOB], ALICE).await;
    let board = board_in(fake, thread).await;
    // An admin denies the bot Send Messages in Threads in #games.
    let deny = Overwrite {
        target: Target::Member(BOT_USER_ID),
        allow: 0,
        deny: perms::SEND_MESSAGES_IN_THREADS,
    };
    fake.overwrite(CHANNEL_ID, deny);
    let _ = board;
    move_from_the_channel(&w, game).await;
    let record = paused(&w, game).await;
    assert_eq!(record.clock.deadline_at, None, "the clock stopped");
    fake.wait_until("the host's DM", |st| {
        (pauses_in(st, ALICE) == 1).then_some(())
    })
    .await;
    // Another move (typed in the channel): it counts, and nobody is told again.
    let version = w.service.load(game).await.unwrap().record.version;
    move_from_the_channel(&w, game).await;
    assert!(w.service.load(game).await.unwrap().record.version > version);
    assert_eq!(pause_dms(fake, ALICE), 1, "the host is told once");
    assert_eq!(pause_dms(fake, BOB), 0, "the players are not");
    assert!(w.service.load(game).await.unwrap().record.lost_at.is_some());
    // Asked in the thread while the bot still may not post there: nothing changes.
    let answer = resume_as(fake, ALICE, thread, None).await;
    assert_ne!(
        answer.content,
        en("bot.done.resumed_here"),
        "{}",
        answer.content
    );
    assert!(w.service.load(game).await.unwrap().record.lost_at.is_some());
    // The right is back: the host resumes it in that thread.
    fake.overwrite(CHANNEL_ID, Overwrite { deny: 0, ..deny });
    let before = fake.messages(thread).len();
    let answer = resume_as(fake, ALICE, thread, None).await;
    assert_eq!(answer.content, en("bot.done.resumed_here"));
    let view = w.service.lobbies().lobby(game).await.unwrap();
    assert_eq!(view.thread, Some(thread as i64));
    assert!(!view.lost);
    assert!(fake.messages(thread)[before..].iter().any(is_board));
    assert!(w
        .service
        .load(game)
        .await
        .unwrap()
        .record
        .clock
        .deadline_at
        .is_some());
    w.bot.stop_clean(fake).await;
}

/// `/kick seat:<seat>` by `by` in the games channel: the private answer.
async fn kick_as(fake: &FakeDiscord, by: u64, seat: i64, game: GameId) -> String {
    let options = with_game(vec![opt::integer("seat", seat)], game);
    ask(fake, by, CHANNEL_ID, Push::command("kick", options))
        .await
        .content
}

/// The first option of the current prompt, played by whoever decides, until `seat` decides.
async fn play_until_seat(svc: &Service, game: GameId, seat: u8) {
    use croupier::service::{Actor, PlayLine};
    for _ in 0..60 {
        let l = svc.load(game).await.unwrap();
        let prompt = l.game.prompt().expect("a prompt");
        if prompt.seat.0 == seat {
            return;
        }
        let user = l.record.seats[prompt.seat.index()].user.expect("a person");
        svc.moves()
            .play(
                PlayLine {
                    game,
                    actor: Actor::User(user),
                    line: prompt.options[0].clone(),
                    seen: None,
                },
                Lang::En,
                svc.now(),
            )
            .await
            .expect("played");
    }
    panic!("seat {seat} never decided");
}

/// Every sequence a host could try to read a hand through `/replace` and `/kick` (issue 36):
/// a bot's seat and a seat that missed one deadline still hold a hand in play, so the host may
/// hand them to an account of theirs only once every other seated player agreed (each typing
/// the same `/replace`), and may not open them with `/kick`; a moderator with no seat may do
/// either; an open seat goes to whoever the host names.
async fn a_hidden_hand_reaches_a_newcomer_only_when_the_seat_is_open_or_everyone_agrees(db: &Db) {
    use croupier::service::{Place, Player, StartGame};
    let w = world(db, Timers::default(), false).await;
    let fake = &w.fake;
    moderators(fake, &[MOD]);
    // Gates: Alice hosts, Bob plays, a bot holds seat 3.
    let person = |u: u64, name: &str| Player {
        user: Some(uid(u)),
        name: name.into(),
        is_bot: false,
    };
    let (game, _) = w
        .service
        .lobbies()
        .start(
            StartGame {
                kind: GameKind::Gates,
                options: GameOptions::new(),
                players: vec![
                    person(ALICE, "Alice"),
                    person(BOB, "Bob"),
                    Player {
                        user: None,
                        name: "Bot".into(),
                        is_bot: true,
                    },
                ],
                seed: 11,
                place: Place {
                    guild: Some(uid(GUILD_ID)),
                    channel: Some(uid(CHANNEL_ID)),
                    thread: None,
                },
                host: Some(uid(ALICE)),
                clock_secs: Some(24 * HOUR),
            },
            Lang::En,
            T0,
        )
        .await
        .unwrap();
    let replace = |by: u64, seat: i64, to: u64| {
        let options = with_game(
            vec![opt::integer("seat", seat), opt::user("user", to)],
            game,
        );
        async move {
            ask(fake, by, CHANNEL_ID, Push::command("replace", options))
                .await
                .content
        }
    };
    let svc = &w.service;
    let holder = |seat: usize| async move {
        let r = svc.load(game).await.unwrap().record;
        (r.seats[seat - 1].user, r.seats[seat - 1].is_bot)
    };
    let hand_in_play = |n: usize| {
        Text::new("bot.error.hand_in_play")
            .arg("n", n)
            .render(Lang::En)
    };

    // The bot's seat: Alice asks to give it to Carol (an account of hers). It stays the bot's
    // until Bob agrees; Carol gets no hand.
    assert_eq!(replace(ALICE, 3, CAROL).await, en("bot.done.replace_asked"));
    assert_eq!(holder(3).await, (None, true));
    let asked = fake
        .messages(CHANNEL_ID)
        .into_iter()
        .find(|m| m.content.starts_with("🤝"))
        .expect("the others are asked");
    assert!(asked.pinged_users.contains(&BOB), "{asked:?}");
    // Opening it to take it next, or Carol answering for Bob, or Bob agreeing to someone
    // else: refused, nothing changes.
    assert_eq!(kick_as(fake, ALICE, 3, game).await, hand_in_play(3));
    assert_eq!(replace(CAROL, 3, CAROL).await, en("bot.error.not_host"));
    assert_eq!(replace(BOB, 3, DAVE).await, en("bot.error.not_host"));
    assert_eq!(holder(3).await, (None, true));
    assert_eq!(hand_dms(fake, CAROL), 0);
    // Bob agrees: Carol takes the seat and its hand.
    assert_eq!(replace(BOB, 3, CAROL).await, en("bot.done.replaced"));
    assert_eq!(holder(3).await, (Some(uid(CAROL)), false));
    fake.wait_until("Carol's hand", |st| (hands_in(st, CAROL) > 0).then_some(()))
        .await;

    // Bob misses a deadline (the turn is skipped): his seat holds his hand still.
    play_until_seat(&w.service, game, 1).await;
    let deadline = w
        .service
        .load(game)
        .await
        .unwrap()
        .record
        .clock
        .deadline_at
        .expect("a clock");
    w.clock().set(deadline);
    for _ in 0..200 {
        if w.service.load(game).await.unwrap().record.seats[1].timeouts > 0 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert_eq!(
        w.service.load(game).await.unwrap().record.seats[1].timeouts,
        1
    );
    // Alice asks for Dave; Carol agrees; Bob does not: it stays his. Nor may she open it.
    assert_eq!(replace(ALICE, 2, DAVE).await, en("bot.done.replace_asked"));
    assert_eq!(replace(CAROL, 2, DAVE).await, en("bot.done.replace_agreed"));
    assert_eq!(kick_as(fake, ALICE, 2, game).await, hand_in_play(2));
    assert_eq!(holder(2).await, (Some(uid(BOB)), false));
    assert_eq!(hand_dms(fake, DAVE), 0, "no hand before everyone agreed");

    // A moderator who holds no seat gives it at once.
    assert_eq!(replace(MOD, 2, DAVE).await, en("bot.done.replaced"));
    assert_eq!(holder(2).await, (Some(uid(DAVE)), false));
    fake.wait_until("Dave's hand", |st| (hands_in(st, DAVE) > 0).then_some(()))
        .await;
    // Bob's late agreement to the old request does nothing.
    assert_ne!(replace(BOB, 2, DAVE).await, en("bot.done.replaced"));
    // The moderator opens Dave's seat; an open seat goes to whoever the host names.
    assert_eq!(kick_as(fake, MOD, 2, game).await, en("bot.done.kicked"));
    assert_eq!(replace(ALICE, 2, BOB).await, en("bot.done.replaced"));
    assert_eq!(holder(2).await, (Some(uid(BOB)), false));
    assert_eq!(hand_dms(fake, MOD), 0, "the moderator reads no hand");
    w.bot.stop_clean(fake).await;
}

/// Issue 36: `/play vortex` (one seat) then Start, again and again, used to open a thread and
/// a ping each time, each living on for days. Running games now count in the per-member and
/// per-channel caps, a game with one person keeps its thread active only an hour after its
/// last message, and past the bot's share of a server's threads a game is played in its
/// channel.
async fn running_games_count_in_the_caps_and_solo_games_hold_no_thread_for_long(db: &Db) {
    let timers = Timers {
        games_per_member: 3,
        games_per_channel: 4,
        threads_per_server: 2,
        ..Timers::default()
    };
    let w = world(db, timers, false).await;
    let fake = &w.fake;
    // Alice plays alone, three times: two threads, then the channel.
    for n in 0..3 {
        let lobby = bot_play::play(fake, ALICE, "vortex")
            .await
            .expect("a lobby");
        let started = bot_play::click_lobby(fake, &lobby, "start", ALICE).await;
        assert!(started.is_ok(), "{started:?}");
        if n < 2 {
            let thread = bot_play::thread_of(fake, lobby.id).await;
            board_in(fake, thread).await;
            let c = fake.channel(thread).expect("the thread");
            assert_eq!(c.auto_archive_duration, 60, "one person: an hour");
        } else {
            fake.wait_until("a board in the channel", |st| {
                st.messages
                    .iter()
                    .any(|m| m.channel_id == CHANNEL_ID && is_board(m))
                    .then_some(())
            })
            .await;
        }
    }
    assert_eq!(fake.threads().len(), 2, "the bot's share of threads");
    // Her fourth game is refused, privately, though she has no lobby open.
    assert_eq!(
        bot_play::play(fake, ALICE, "vortex")
            .await
            .expect_err("refused"),
        Text::new("bot.error.games_member")
            .arg("max", 3_i64)
            .render(Lang::En)
    );
    // The channel's fourth game is Bob's; Carol's would be a fifth.
    bot_play::play(fake, BOB, "cortexcape")
        .await
        .expect("a lobby");
    assert_eq!(
        bot_play::play(fake, CAROL, "cortexcape")
            .await
            .expect_err("refused"),
        Text::new("bot.error.games_channel")
            .arg("max", 4_i64)
            .render(Lang::En)
    );
    // A game of two people gets a thread for the week (room freed: one solo game ends).
    let first = w
        .service
        .store()
        .games_of_user(uid(ALICE), None, 10)
        .await
        .unwrap()
        .into_iter()
        .map(|g| g.id)
        .min()
        .unwrap();
    w.service
        .lobbies()
        .cancel(first, uid(ALICE), false, T0)
        .await
        .unwrap();
    let lobby = bot_play::play(fake, CAROL, "cortexcape")
        .await
        .expect("a lobby");
    let thread = join_and_start(fake, &lobby, &[DAVE], CAROL).await;
    assert_eq!(fake.channel(thread).unwrap().auto_archive_duration, 10_080);
    w.bot.stop_clean(fake).await;
}

/// Issue 36: a game nobody plays in keeps its thread among the server's active ones through
/// its daily timeouts. After `IDLE_ARCHIVE_DAYS` without a person's move its thread is
/// archived with a word; timeouts then post nothing there; a move brings the board back.
async fn a_thread_nobody_plays_in_for_days_is_archived_and_says_so(db: &Db) {
    let timers = Timers {
        idle_archive_secs: 3 * 24 * HOUR,
        ..Timers::default()
    };
    let w = world(db, timers, false).await;
    let fake = &w.fake;
    let lobby = bot_play::play(fake, ALICE, "cortexcape")
        .await
        .expect("a lobby");
    let game = game_of(&lobby);
    let thread = join_and_start(fake, &lobby, &[BOB], ALICE).await;
    // Three days and a bit: nobody played.
    w.clock().set(T0 + 3 * 24 * HOUR + 60);
    let said = fake
        .wait_until("the thread archived with a word", |st| {
            let c = st.channels.get(&thread)?;
            let m = st
                .messages
                .iter()
                .find(|m| m.channel_id == thread && m.content.starts_with("💤"))?;
            c.archived.then(|| m.clone())
        })
        .await;
    assert!(
        said.content.contains(&format!("#{}", game.0)),
        "{}",
        said.content
    );
    let record = w.service.load(game).await.unwrap().record;
    assert!(record.idle_at.is_some());
    // Another day: the timeout plays, its board does not reopen the thread.
    let version = record.version;
    let deadline = record.clock.deadline_at.expect("a clock");
    w.clock().set(deadline + 60);
    for _ in 0..200 {
        if w.service.load(game).await.unwrap().record.version > version {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert!(w.service.load(game).await.unwrap().record.version > version);
    assert!(fake.channel(thread).unwrap().archived, "still archived");
    // A person plays: the board comes back to the thread.
    let decider = match w
        .service
        .load(game)
        .await
        .unwrap()
        .game
        .prompt()
        .unwrap()
        .seat
        .0
    {
        0 => ALICE,
        _ => BOB,
    };
    let before = fake.messages(thread).len();
    let option = bot_play::legal_options(&w.service, game).await[0].clone();
    ask(
        fake,
        decider,
        CHANNEL_ID,
        Push::command(
            "move",
            with_game(vec![opt::string("option", &option)], game),
        ),
    )
    .await;
    fake.wait_until("the board back in the thread", |st| {
        st.messages
            .iter()
            .filter(|m| m.channel_id == thread)
            .skip(before)
            .any(is_board)
            .then_some(())
    })
    .await;
    assert!(!fake.channel(thread).unwrap().archived);
    w.bot.stop_clean(fake).await;
}

/// Issue 36: `/settings pings:off` held for boards only. Every message that mentions players
/// who all turned pings off now goes out silent (the mention stays, no notification): the
/// hand-over notice, "the game goes on here", the result card.
async fn pings_off_silences_every_message_that_mentions_only_such_players(db: &Db) {
    let w = world(db, Timers::default(), false).await;
    let fake = &w.fake;
    moderators(fake, &[MOD]);
    for user in [ALICE, BOB, CAROL] {
        let answer = ask(
            fake,
            user,
            CHANNEL_ID,
            Push::command("settings", vec![opt::boolean("pings", false)]),
        )
        .await;
        assert!(!answer.content.is_empty());
    }
    let lobby = bot_play::play_with(fake, ALICE, "cortexcape", "short=true")
        .await
        .expect("a lobby");
    let game = game_of(&lobby);
    let thread = join_and_start(fake, &lobby, &[BOB], ALICE).await;
    // Alice gives her own seat to Carol (a notice mentioning Carol).
    let answer = ask(
        fake,
        ALICE,
        thread,
        Push::command(
            "replace",
            vec![opt::integer("seat", 1), opt::user("user", CAROL)],
        ),
    )
    .await;
    assert_eq!(answer.content, en("bot.done.replaced"));
    fake.wait_until("the hand-over notice", |st| {
        st.messages
            .iter()
            .any(|m| m.channel_id == thread && m.content.starts_with("🔁"))
            .then_some(())
    })
    .await;
    // A moderator locks the thread, then resumes the game in the channel: a new thread, whose
    // "goes on here" notice mentions the players.
    fake.archive_thread(thread, true);
    paused(&w, game).await;
    let answer = resume_as(fake, MOD, CHANNEL_ID, Some(game)).await;
    assert_eq!(answer.content, en("bot.done.resumed_here"));
    let place = w
        .service
        .lobbies()
        .lobby(game)
        .await
        .unwrap()
        .thread
        .expect("a new thread") as u64;
    assert_ne!(place, thread);
    // Played to the end by `/move` in the thread: every board and the result card mention
    // players who all turned pings off.
    for _ in 0..200 {
        if w.service.load(game).await.unwrap().record.status != GameStatus::Active {
            break;
        }
        let option = bot_play::legal_options(&w.service, game).await[0].clone();
        let typed =
            bot_play::send_move(fake, decider(&w.service, game).await, place, &option).await;
        let answer = bot_play::answer_of(fake, typed.id).await;
        assert_eq!(answer.content, "✅ Played.", "{answer:?}");
    }
    fake.wait_until("the result card", |st| {
        st.messages
            .iter()
            .any(|m| {
                m.channel_id == place && m.attachments.iter().any(|a| a.filename == "result.png")
            })
            .then_some(())
    })
    .await;
    let mut mentioning = 0;
    for m in [CHANNEL_ID, thread, place]
        .into_iter()
        .flat_map(|c| fake.messages(c))
        .filter(|m| !m.pinged_users.is_empty())
    {
        mentioning += 1;
        assert!(m.silent(), "pinged with pings off: {m:?}");
    }
    assert!(mentioning >= 3, "{mentioning}");
    let all: Vec<Message> = [thread, place]
        .into_iter()
        .flat_map(|c| fake.messages(c))
        .collect();
    assert!(all
        .iter()
        .any(|m| m.content.starts_with("🔁") && m.silent()));
    assert!(all
        .iter()
        .any(|m| m.attachments.iter().any(|a| a.filename == "result.png") && m.silent()));
    w.bot.stop_clean(fake).await;
}

/// `user` plays the first listed option of the game's prompt (their seat must decide).
async fn play_first(svc: &Service, game: GameId, user: u64) {
    let g = svc.load(game).await.unwrap().game;
    let p = g.prompt().expect("a prompt");
    let cmd = croupier::service::PlayLine {
        game,
        actor: croupier::service::Actor::User(uid(user)),
        line: p.options[0].clone(),
        seen: None,
    };
    svc.moves().play(cmd, Lang::En, svc.now()).await.unwrap();
}

/// `user` plays first options until the game asks another seat.
async fn play_turn(svc: &Service, game: GameId, user: u64) {
    loop {
        let l = svc.load(game).await.unwrap();
        let p = l.game.prompt().expect("a prompt");
        if l.record.seats[p.seat.index()].user != Some(uid(user)) {
            return;
        }
        play_first(svc, game, user).await;
    }
}

/// `/undo request:True` by `user` for `game`: the private answer's text.
async fn ask_takeback(fake: &FakeDiscord, user: u64, game: GameId) -> String {
    let options = with_game(vec![opt::boolean("request", true)], game);
    ask(fake, user, CHANNEL_ID, Push::command("undo", options))
        .await
        .content
}

/// A click on a take-back button of `message` by `user`: the private answer's text.
async fn takeback_click(fake: &FakeDiscord, message: &Message, id: &str, user: u64) -> String {
    ask(fake, user, message.channel_id, Push::button(message.id, id))
        .await
        .content
}

/// Issue 40 item 1: a player asks to take back their last turn and what followed; every other
/// human player answers with buttons only they can use; everyone sees who asked and each
/// answer; a refusal is final for that turn; one request at a time; a move played ends it;
/// nothing is taken back across a reveal; bots accept at once.
async fn a_turn_is_taken_back_only_when_every_other_player_agrees(db: &Db) {
    let w = world(db, Timers::default(), false).await;
    let fake = &w.fake;
    let svc = &w.service;
    let players = [(ALICE, "Alice"), (BOB, "Bob")];
    let b = |game: GameId, what: &str| format!("b:{}:{what}", game.0);

    // Nothing played yet by Alice: nothing to take back. Carol is not seated. Seats in join
    // order: Alice plays first.
    let mut host_first = GameOptions::new();
    host_first.insert("seating".into(), "host".into());
    let game =
        bot_play::start_direct(svc, GameKind::Vortex, host_first, &players, CHANNEL_ID, 5).await;
    assert_eq!(
        ask_takeback(fake, ALICE, game).await,
        en("core.error.takeback_nothing")
    );
    assert_eq!(
        ask_takeback(fake, CAROL, game).await,
        en("core.error.not_seated")
    );
    // Alice plays her turn, Bob one option of his.
    play_turn(svc, game, ALICE).await;
    play_first(svc, game, BOB).await;
    let before = snapshot(svc, game).await;
    let moves_before = svc.store().moves(game).await.unwrap().len();

    // 1. Alice asks: the place names her and pings Bob only, with Accept and Refuse.
    assert_eq!(
        ask_takeback(fake, ALICE, game).await,
        en("bot.done.takeback_asked")
    );
    let asked = posted(fake, CHANNEL_ID, "asks to take back their last turn").await;
    assert!(asked.content.contains("Alice"), "{}", asked.content);
    assert_eq!(asked.pinged_users, vec![BOB], "{asked:?}");
    assert_eq!(
        custom_ids(&asked.components),
        [b(game, "yes"), b(game, "no")]
    );
    // One request at a time; only Bob may answer; nothing changed meanwhile.
    assert_eq!(
        ask_takeback(fake, ALICE, game).await,
        en("core.error.takeback_pending")
    );
    assert_eq!(
        takeback_click(fake, &asked, &b(game, "yes"), ALICE).await,
        en("core.error.takeback_not_asked")
    );
    assert_eq!(
        takeback_click(fake, &asked, &b(game, "yes"), CAROL).await,
        en("core.error.not_seated")
    );
    assert_eq!(snapshot(svc, game).await, before);

    // 2. Bob refuses: everyone sees it, nothing changes, and the same turn cannot be asked
    // about again.
    assert_eq!(
        takeback_click(fake, &asked, &b(game, "no"), BOB).await,
        en("bot.done.takeback_refused")
    );
    let refused = posted(fake, CHANNEL_ID, "Bob refuses").await;
    assert!(
        refused.content.contains("Alice's turn stands"),
        "{}",
        refused.content
    );
    assert_eq!(snapshot(svc, game).await, before);
    assert_eq!(
        ask_takeback(fake, ALICE, game).await,
        en("core.error.takeback_refused_before")
    );
    assert_eq!(
        takeback_click(fake, &asked, &b(game, "yes"), BOB).await,
        en("core.error.takeback_none")
    );

    // 3. A later turn: Bob accepts, the game is back at the start of Alice's turn and the
    // board is posted again.
    play_turn(svc, game, BOB).await;
    let start_of_turn = snapshot(svc, game).await;
    let kept = svc.store().moves(game).await.unwrap().len();
    assert!(kept > moves_before);
    play_turn(svc, game, ALICE).await;
    play_first(svc, game, BOB).await;
    assert_eq!(
        ask_takeback(fake, ALICE, game).await,
        en("bot.done.takeback_asked")
    );
    let asked = posted(fake, CHANNEL_ID, "asks to take back their last turn").await;
    assert_eq!(
        takeback_click(fake, &asked, &b(game, "yes"), BOB).await,
        en("bot.done.takeback_accepted")
    );
    posted(fake, CHANNEL_ID, "everyone agreed").await;
    posted(
        fake,
        CHANNEL_ID,
        "As everyone agreed, Alice's last turn was taken back",
    )
    .await;
    assert_eq!(svc.store().moves(game).await.unwrap().len(), kept);
    let now = snapshot(svc, game).await;
    assert_eq!((&now.0, &now.2), (&start_of_turn.0, &start_of_turn.2));

    // 4. A move played ends a pending request: Bob's late click is told it lapsed.
    play_turn(svc, game, ALICE).await;
    assert_eq!(
        ask_takeback(fake, ALICE, game).await,
        en("bot.done.takeback_asked")
    );
    let asked = posted(fake, CHANNEL_ID, "asks to take back their last turn").await;
    play_first(svc, game, BOB).await;
    assert_eq!(
        takeback_click(fake, &asked, &b(game, "yes"), BOB).await,
        en("core.error.takeback_expired")
    );

    // 5. Nothing is taken back across a reveal: in Gates, playing a card shows it.
    let gates = start(svc, GameKind::Gates, &players, CHANNEL_ID).await;
    let first = svc.load(gates).await.unwrap();
    let p = first.game.prompt().unwrap();
    let opener = if first.record.seats[p.seat.index()].user == Some(uid(ALICE)) {
        ALICE
    } else {
        BOB
    };
    play_turn(svc, gates, opener).await;
    let before = snapshot(svc, gates).await;
    assert_eq!(
        ask_takeback(fake, opener, gates).await,
        en("core.error.takeback_reveal")
    );
    assert_eq!(snapshot(svc, gates).await, before);

    // 6. Against bots only, the bots accept at once.
    use croupier::service::{Place, Player, StartGame};
    let (solo, _) = svc
        .lobbies()
        .start(
            StartGame {
                kind: GameKind::Vortex,
                options: GameOptions::new(),
                players: vec![
                    Player {
                        user: Some(uid(CAROL)),
                        name: "Carol".into(),
                        is_bot: false,
                    },
                    Player {
                        user: None,
                        name: "Bot".into(),
                        is_bot: true,
                    },
                ],
                seed: 7,
                place: Place {
                    guild: Some(uid(GUILD_ID)),
                    channel: Some(uid(CHANNEL_ID)),
                    thread: None,
                },
                host: Some(uid(CAROL)),
                clock_secs: Some(86_400),
            },
            Lang::En,
            svc.now(),
        )
        .await
        .unwrap();
    let first = svc.load(solo).await.unwrap();
    let seat = first.game.prompt().unwrap().seat;
    if first.record.seats[seat.index()].user == Some(uid(CAROL)) {
        play_turn(svc, solo, CAROL).await;
        let before = svc.store().moves(solo).await.unwrap().len();
        assert_eq!(
            ask_takeback(fake, CAROL, solo).await,
            en("bot.done.taken_back")
        );
        posted(fake, CHANNEL_ID, "bots accept a take-back").await;
        assert!(svc.store().moves(solo).await.unwrap().len() < before);
    }
}

/// Whether playing `line` for `seat` would reveal something (a card drawn, a vote shown).
fn would_reveal(
    game: &dyn croupier::engine::AnyGame,
    seat: croupier::engine::Seat,
    line: &str,
) -> bool {
    let mut probe = game.clone_box();
    probe
        .play_line(seat, line)
        .map_or(true, |applied| applied.iter().any(|m| m.revealed))
}

/// Plays `game` on through the service, an option that reveals nothing whenever there is
/// one, until `turns` more turns began (a turn: a run of options by one seat, as `/replay`
/// and `/rollback` count them); returns the state when each of them began.
async fn play_turns_quietly(svc: &Service, game: GameId, turns: usize) -> Vec<String> {
    use croupier::service::{Actor, PlayLine};
    let mut began = Vec::new();
    let mut last_seat = None;
    for _ in 0..400 {
        let l = svc.load(game).await.unwrap();
        let p = l.game.prompt().expect("the game goes on");
        if last_seat != Some(p.seat) {
            if began.len() == turns {
                return began;
            }
            began.push(l.game.to_json());
            last_seat = Some(p.seat);
        }
        let line = p
            .options
            .iter()
            .find(|o| !would_reveal(l.game.as_ref(), p.seat, o))
            .unwrap_or_else(|| panic!("every option of {:?} reveals something", p.options))
            .clone();
        let cmd = PlayLine {
            game,
            actor: Actor::Seat(p.seat),
            line,
            seen: None,
        };
        svc.moves().play(cmd, Lang::En, svc.now()).await.unwrap();
    }
    panic!("{turns} turns were not played");
}

/// How many turns `game` has begun (the last one may be under way).
async fn turns_of(svc: &Service, game: GameId) -> usize {
    croupier::service::turn_bounds(&svc.store().moves(game).await.unwrap()).len()
}

/// Clicks `custom_id` on a message of the game's place (a rollback's Confirm or Refuse) as
/// `user`: acknowledged privately, then answered there; returns the answer.
async fn click_public(fake: &FakeDiscord, msg: &Message, custom_id: &str, user: u64) -> Message {
    let p = fake
        .push(
            Push::button(msg.id, custom_id)
                .by(user)
                .in_channel(msg.channel_id),
        )
        .await;
    let cb = fake.wait_for_callback(p.id).await;
    assert_eq!(cb.kind, 5, "a private answer: {cb:?}");
    bot_play::answer_of(fake, p.id).await
}

/// Issue 40 item 6: `/rollback`. A seatless moderator takes a Portal game (hidden hands) two
/// turns back at once: the board, each hand (by DM, to its owner), the turn's clock and
/// `/history` are as they should be. The host's rollback waits for every seated player and
/// goes through on the last confirmation; a second one meanwhile is refused. One that would
/// take back a reveal waits for everyone even from a moderator, says plainly that the players
/// have seen what comes, and a refusal drops it. Members who may not, an unknown game, a turn
/// out of range and a finished game are refused kindly, changing nothing.
async fn a_rollback_takes_a_game_back_as_it_was(db: &Db) {
    let w = world(db, Timers::default(), false).await;
    let fake = &w.fake;
    let svc = &w.service;
    moderators(fake, &[MOD]);
    let players = [(ALICE, "Alice"), (BOB, "Bob")];
    // Cortexcape: most options reveal nothing, and `random` (a random placement) does. It has
    // no hidden hand; that the hands go again, each to its holder only, is the leak twins'
    // part (`leaks::rollbacks_show_nothing_of_what_they_take_back`, every hidden game).
    let game = bot_play::start_direct(
        svc,
        GameKind::Cortexcape,
        GameOptions::new(),
        &players,
        CHANNEL_ID,
        7,
    )
    .await;
    let rollback = |user: u64, to: i64, game: GameId| {
        ask(
            fake,
            user,
            CHANNEL_ID,
            Push::command("rollback", with_game(vec![opt::integer("to", to)], game)),
        )
    };
    let began = play_turns_quietly(svc, game, 4).await;
    let turns = turns_of(svc, game).await;
    assert_eq!(turns, 4);

    // Refused, changing nothing: a player who is not the host, a member, a turn out of
    // range, an unknown game.
    let before = snapshot(svc, game).await;
    let not_moderator = Text::new("bot.rollback.error.not_moderator")
        .arg("id", game.0)
        .render(Lang::En);
    assert_eq!(rollback(BOB, 1, game).await.content, not_moderator);
    assert_eq!(rollback(CAROL, 1, game).await.content, not_moderator);
    let out_of_range = rollback(MOD, 99, game).await.content;
    assert!(
        out_of_range.contains("there is no turn 99"),
        "{out_of_range}"
    );
    let unknown = rollback(MOD, 1, GameId(987_654)).await.content;
    assert!(unknown.contains("987654"), "{unknown}");
    assert_eq!(snapshot(svc, game).await, before);

    // 1. The moderator, two turns back (turns 3 and 4), at once.
    let (alice_hands, bob_hands) = (hand_dms(fake, ALICE), hand_dms(fake, BOB));
    w.clock().set(T0 + 5 * HOUR);
    let to = turns - 1;
    let answer = rollback(MOD, i64::try_from(to).unwrap(), game).await;
    assert_eq!(
        answer.content,
        Text::new("bot.rollback.done_reply")
            .arg("id", game.0)
            .arg("turn", to)
            .render(Lang::En)
    );
    let l = svc.load(game).await.unwrap();
    assert_eq!(
        l.game.to_json(),
        began[to - 1],
        "the board as turn {to} began"
    );
    assert_eq!(turns_of(svc, game).await, to - 1);
    let seat = l.game.prompt().unwrap().seat;
    assert_eq!(l.record.clock.seat, Some(seat));
    assert_eq!(
        l.record.clock.deadline_at,
        Some(T0 + 5 * HOUR + 86_400),
        "the turn's clock starts again"
    );
    let board = posted(fake, CHANNEL_ID, "took the game back to the start of turn").await;
    assert!(
        board.content.contains(&format!("<@{MOD}>")),
        "{}",
        board.content
    );
    assert!(bot_play::is_board(&board), "{board:?}");
    // No hand in Cortexcape: nobody got one.
    assert_eq!(
        (hand_dms(fake, ALICE), hand_dms(fake, BOB)),
        (alice_hands, bob_hands)
    );
    assert_eq!(hand_dms(fake, MOD) + hand_dms(fake, CAROL), 0);
    let history = ask(
        fake,
        ALICE,
        CHANNEL_ID,
        Push::command("history", with_game(vec![], game)),
    )
    .await;
    assert!(
        history
            .content
            .contains(&format!("Rolled back to turn {to} by <@{MOD}>")),
        "{}",
        history.content
    );

    // 2. The host asks: it waits for Bob, then goes through on his confirmation.
    let began = play_turns_quietly(svc, game, 2).await;
    let turns = turns_of(svc, game).await;
    let before = snapshot(svc, game).await;
    let to = turns;
    let asked = rollback(ALICE, i64::try_from(to).unwrap(), game).await;
    assert_eq!(asked.content, en("bot.rollback.asked_reply"));
    assert_eq!(snapshot(svc, game).await, before, "nothing yet");
    let request = posted(fake, CHANNEL_ID, "asks to take").await;
    assert_eq!(request.pinged_users, vec![BOB], "{request:?}");
    let moves = svc.store().moves(game).await.unwrap();
    let keep = croupier::service::turn_bounds(&moves).last().unwrap().0;
    let version = before.1;
    let (yes, no) = (
        format!("r:{}:{version}:{keep}:y", game.0),
        format!("r:{}:{version}:{keep}:n", game.0),
    );
    assert_eq!(custom_ids(&request.components), [yes.clone(), no]);
    // One request at a time, even for a moderator; Carol may not answer for the players.
    let pending = rollback(MOD, 1, game).await.content;
    assert!(pending.contains("already waits"), "{pending}");
    let carol = click_public(fake, &request, &yes, CAROL).await;
    assert!(
        carol.content.contains("Only the players"),
        "{}",
        carol.content
    );
    assert_eq!(snapshot(svc, game).await, before);
    let done = click_public(fake, &request, &yes, BOB).await;
    assert_eq!(
        done.content,
        Text::new("bot.rollback.done_reply")
            .arg("id", game.0)
            .arg("turn", to)
            .render(Lang::En)
    );
    assert_eq!(
        svc.load(game).await.unwrap().game.to_json(),
        began[began.len() - 1]
    );
    fake.wait_until("the request's buttons gone", |st| {
        st.message(request.id)
            .filter(|m| m.components.is_empty())
            .map(|_| ())
    })
    .await;
    // Its buttons are gone: nobody can click them again (Discord delivers no click on a
    // button a message no longer has; the fake refuses it too).

    // 3. Across a reveal: even the moderator's waits for every player; a refusal drops it.
    play_turns_quietly(svc, game, 1).await;
    let keep = svc.store().moves(game).await.unwrap().len();
    // The turn about to begin, which the reveal is played in (or after).
    let turns = turns_of(svc, game).await + 1;
    let mut revealed = false;
    for _ in 0..200 {
        let l = svc.load(game).await.unwrap();
        let p = l.game.prompt().expect("the game goes on");
        let line = p
            .options
            .iter()
            .find(|o| would_reveal(l.game.as_ref(), p.seat, o))
            .unwrap_or(&p.options[0])
            .clone();
        revealed |= would_reveal(l.game.as_ref(), p.seat, &line);
        let cmd = croupier::service::PlayLine {
            game,
            actor: croupier::service::Actor::Seat(p.seat),
            line,
            seen: None,
        };
        svc.moves().play(cmd, Lang::En, svc.now()).await.unwrap();
        if revealed {
            break;
        }
    }
    assert!(revealed, "a reveal was played");
    assert!(croupier::service::revealed_since(
        &svc.store().moves(game).await.unwrap(),
        keep
    ));
    let before = snapshot(svc, game).await;
    let asked = rollback(MOD, i64::try_from(turns).unwrap(), game).await;
    assert_eq!(asked.content, en("bot.rollback.asked_reply"));
    let request = posted(fake, CHANNEL_ID, "you have all seen what comes next").await;
    let mut pinged = request.pinged_users.clone();
    pinged.sort_unstable();
    let mut both = vec![ALICE, BOB];
    both.sort_unstable();
    assert_eq!(pinged, both);
    let ids = custom_ids(&request.components);
    let refused = click_public(fake, &request, &ids[1], BOB).await;
    assert_eq!(refused.content, en("bot.rollback.refused_reply"));
    posted(fake, CHANNEL_ID, &format!("<@{BOB}> refused")).await;
    assert_eq!(snapshot(svc, game).await, before);
    // Asked again, both confirm: it goes through and says what the players have seen.
    // Alice muted this game: the request names her but pings only Bob.
    svc.players()
        .set_game_pings(
            game,
            uid(ALICE),
            croupier::service::GamePings::Mute,
            svc.now(),
        )
        .await
        .unwrap();
    rollback(MOD, i64::try_from(turns).unwrap(), game).await;
    let request = posted(fake, CHANNEL_ID, "asks to take").await;
    assert!(
        request.content.contains(&format!("<@{ALICE}>")),
        "{request:?}"
    );
    assert_eq!(request.pinged_users, vec![BOB], "{request:?}");
    let ids = custom_ids(&request.components);
    let one = click_public(fake, &request, &ids[0], ALICE).await;
    assert_eq!(one.content, en("bot.rollback.confirmed_reply"));
    click_public(fake, &request, &ids[0], BOB).await;
    let board = posted(fake, CHANNEL_ID, "Every player confirmed it").await;
    assert!(bot_play::is_board(&board), "{board:?}");
    assert_eq!(turns_of(svc, game).await, turns - 1);
    assert_eq!(svc.store().moves(game).await.unwrap().len(), keep);

    // 4. A finished game is not rolled back.
    svc.moves()
        .resign(game, uid(BOB), Lang::En, svc.now())
        .await
        .unwrap();
    let before = snapshot(svc, game).await;
    let finished = rollback(MOD, 1, game).await.content;
    assert_eq!(
        finished,
        Text::new("core.error.not_active").render(Lang::En)
    );
    assert_eq!(snapshot(svc, game).await, before);
    w.bot.stop_clean(fake).await;
}
