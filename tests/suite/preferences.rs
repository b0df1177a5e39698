//! What each player controls, end to end through the fake Discord on SQLite and PostgreSQL
//! (issue 22): `/settings pings` (boards that call a player who turned them off go out as
//! Discord's silent messages; reminders still notify), `/settings hand_dms` (no hand by DM; the
//! "Show my hand" button and `/hand` give it privately), lobbies that say their options
//! in words, in the lobby's language, and the language of a server's games (issue 38: the
//! server's setting, else the host's, never Discord's en-US default for servers that are not
//! Community servers), and `/settings confirm_moves` (issue 40: an option that would end the
//! member's turn is asked about privately first, clicked or typed) and reliability (issue 40:
//! a member's record over 30 days in `/stats user:` and beside their name in a lobby, and
//! `/play … reliable:` refusing members under it), and pings on your terms (issue 40 item 4:
//! `/settings game_pings:` mutes one game or keeps only what needs the member; bad input
//! changes nothing).

use crate::bot_play::*;
use crate::fake_discord::*;
use crate::store_db::{decider, Db};
use croupier::clock::HOUR;
use croupier::engine::GameId;
use croupier::service::Timers;
use croupier::store::GameStatus;

on_backends!(pings_off_sends_the_boards_that_call_a_player_silently_for_a_week);
on_backends!(hand_dms_off_sends_no_hand_by_dm_and_the_hand_comes_on_request);
on_backends!(the_lobby_says_its_options_in_words);
on_backends!(a_servers_language_is_its_own_not_discords_default);
on_backends!(confirm_moves_asks_before_a_click_ends_the_turn);
on_backends!(confirm_moves_asks_before_a_typed_move_ends_the_turn);
on_backends!(reliability_shows_in_stats_and_lobbies_and_reliable_refuses_members_under_it);
on_backends!(a_week_at_one_table_with_confirmed_moves_a_substitute_and_reliability);
on_backends!(a_muted_game_pings_nobody_and_my_turn_pings_only_the_turn_for_days);

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
    // A week of timeouts with nobody playing would archive the thread as idle after
    // `IDLE_ARCHIVE_DAYS` (7, tested in fair_play): this test is about pings, so it waits longer.
    let timers = Timers {
        idle_archive_secs: 30 * 24 * HOUR,
        ..Timers::default()
    };
    let w = World::on(db)
        .clock(T0)
        .user(CAROL, "Carol")
        .timers(timers)
        .start()
        .await;
    let fake = &w.fake;
    let answer = settings(fake, BOB, vec![opt::boolean("pings", false)]).await;
    assert!(answer.contains("Pings on your turn: off"), "{answer}");
    assert!(answer.contains("Hand by DM: on"), "{answer}");
    assert!(answer.contains("arrive silently"), "{answer}");
    assert!(
        !w.service
            .players()
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
        if w.service.lobbies().lobby(game).await.expect("game").status != GameStatus::Active {
            break;
        }
        board = play_one(&w, game, thread, board.id).await;
    }
    // ...then over days where nobody plays: reminders, then the clock plays for them.
    let mut days = 0;
    while days < 7
        && w.service.lobbies().lobby(game).await.expect("game").status == GameStatus::Active
    {
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
        if w.service.lobbies().lobby(game).await.expect("game").status != GameStatus::Active {
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
        if w.service.lobbies().lobby(game).await.expect("game").status != GameStatus::Active {
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
        if hands(BOB) > 0
            || w.service.lobbies().lobby(game).await.expect("game").status != GameStatus::Active
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

/// A role that may manage the server (Discord's Manage Server), besides a member's usual rights.
const ADMIN_ROLE: u64 = 1_100_000_000_000_000_050;

/// `/play` with `options` by `user` in `locale`: its answer (the lobby, or a refusal).
async fn play_in(
    fake: &FakeDiscord,
    user: u64,
    options: Vec<serde_json::Value>,
    locale: &str,
) -> Result<Message, String> {
    let cmd = fake
        .push(Push::command("play", options).by(user).locale(locale))
        .await;
    play_answer(fake, cmd.id).await
}

async fn a_servers_language_is_its_own_not_discords_default(db: &Db) {
    use croupier::i18n::Lang;
    let w = world(db).await;
    let fake = &w.fake;
    let lobby_text = |view: &croupier::service::LobbyView, lang: Lang| {
        croupier::bot::layout::content(&view.text(lang))
    };
    // A private server of a French group: not a Community server, so Discord sends en-US as
    // its `guild_locale` although every member's client is in French.
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
            .locale("fr"),
        )
        .await;
    let lobby = play_answer(fake, cmd.id).await.expect("a lobby");
    let sent = fake.interaction(cmd.id).expect("the interaction").payload;
    assert_eq!(sent["guild_locale"], "en-US");
    assert_eq!(sent["locale"], "fr");
    let game = game_of(&lobby);
    let view = w.service.lobbies().lobby(game).await.expect("lobby");
    assert_eq!(view.lang, Lang::Fr);
    assert_eq!(lobby.content, lobby_text(&view, Lang::Fr));
    assert!(
        lobby.content.contains("🗣️ Langue : français"),
        "{}",
        lobby.content
    );
    // Bob joins from an English client: the lobby, the thread and the boards stay French.
    let joined = click_lobby(fake, &lobby, "join", BOB)
        .await
        .expect("joined");
    assert!(
        joined.content.contains("Langue : français"),
        "{}",
        joined.content
    );
    let started = click_lobby(fake, &lobby, "start", ALICE)
        .await
        .expect("started");
    assert!(
        started.content.contains("La partie a commencé"),
        "{}",
        started.content
    );
    let thread = thread_of(fake, lobby.id).await;
    let name = fake.channel(thread).expect("the thread").name;
    assert!(name.contains("n°"), "{name}");
    let mut board = latest_board_after(fake, thread, 0).await;
    let french =
        |m: &Message| m.content.contains("Le temps expire") && !m.content.contains("Time runs out");
    assert!(french(&board), "{}", board.content);
    // Whoever clicks (here an English client), the next boards are the game's: French.
    for _ in 0..3 {
        let who = mentioned(&board).expect("someone decides");
        click_first_as(fake, &board, who).await;
        board = board_after(fake, &board).await;
        assert!(french(&board), "{}", board.content);
    }
    // The result, too.
    let question = ask(
        fake,
        BOB,
        thread,
        Push::command("resign", vec![]).locale("en-US"),
    )
    .await;
    let done = click_private(fake, &question, &format!("k:{}:resign", game.0), BOB).await;
    assert_eq!(
        done.content, "You resigned.",
        "Bob's own answer is in his language"
    );
    let result = result_card(fake, thread).await;
    assert!(
        result.content.contains("est terminée"),
        "{}",
        result.content
    );

    // Bob cannot manage the server: his choice of a server language is refused, in his own
    // language, privately, and nothing changes (not even his own settings).
    let guild = i64::try_from(GUILD_ID).expect("a guild id");
    let refused = ask(
        fake,
        BOB,
        CHANNEL_ID,
        Push::command(
            "settings",
            vec![
                opt::string("server_language", "en"),
                opt::string("timezone", "Europe/Paris"),
            ],
        )
        .locale("fr"),
    )
    .await;
    assert!(refused.ephemeral());
    assert!(
        refused
            .content
            .starts_with("Seul un membre qui peut gérer ce serveur"),
        "{}",
        refused.content
    );
    assert_eq!(
        w.service.players().server_lang(guild).await.expect("read"),
        None
    );
    let bob = w
        .service
        .players()
        .settings_of(uid(BOB))
        .await
        .expect("settings");
    assert_eq!(bob.timezone, None, "nothing of Bob's changed either");
    // A typo is refused the same way.
    let typo = settings(fake, CAROL, vec![opt::string("server_language", "klingon")]).await;
    assert!(
        typo.contains("I do not know the language `klingon`"),
        "{typo}"
    );

    // Carol may manage the server (a role with Manage Server): the server's language is
    // English from now on, whatever the host's client says.
    fake.add_role(
        ADMIN_ROLE,
        perms::PLAIN_MEMBER | perms::MANAGE_GUILD,
        &[CAROL],
    );
    let set = settings(fake, CAROL, vec![opt::string("server_language", "en")]).await;
    assert!(
        set.contains("🗣️ This server's lobbies, boards and results: English"),
        "{set}"
    );
    assert_eq!(
        w.service.players().server_lang(guild).await.expect("read"),
        Some(Lang::En)
    );
    let lobby = play_in(fake, ALICE, vec![opt::string("game", "vortex")], "fr")
        .await
        .expect("a lobby");
    let view = w
        .service
        .lobbies()
        .lobby(game_of(&lobby))
        .await
        .expect("lobby");
    assert_eq!(view.lang, Lang::En);
    assert_eq!(lobby.content, lobby_text(&view, Lang::En));
    assert!(
        lobby.content.contains("🗣️ Language: English"),
        "{}",
        lobby.content
    );
    // ...unless the host asks for another at /play.
    let lobby = play_in(
        fake,
        ALICE,
        vec![opt::string("game", "gates"), opt::string("lang", "fr")],
        "en-US",
    )
    .await
    .expect("a lobby");
    let view = w
        .service
        .lobbies()
        .lobby(game_of(&lobby))
        .await
        .expect("lobby");
    assert_eq!(view.lang, Lang::Fr);
    assert_eq!(lobby.content, lobby_text(&view, Lang::Fr));
    // `auto` gives each host their own language back.
    let set = settings(fake, CAROL, vec![opt::string("server_language", "auto")]).await;
    assert!(set.contains("each host's language"), "{set}");
    assert_eq!(
        w.service.players().server_lang(guild).await.expect("read"),
        None
    );
    let lobby = play_in(fake, BOB, vec![opt::string("game", "spacelab")], "fr")
        .await
        .expect("a lobby");
    assert_eq!(
        w.service
            .lobbies()
            .lobby(game_of(&lobby))
            .await
            .expect("lobby")
            .lang,
        Lang::Fr
    );
    finish(fake).await;
    w.bot.stop().await;
}

/// An option offered on a board: the component to use (a button, or a menu and its value)
/// and the option it plays.
struct Offered {
    custom_id: String,
    value: Option<String>,
    option: String,
}

/// The options of the decision offered on `board`, split into those that would end the
/// decider's turn and those that would not (`ends_turn`, on the game as it is).
async fn offered(w: &World, game: GameId, board: &Message) -> (Vec<Offered>, Vec<Offered>) {
    let loaded = w.service.load(game).await.expect("game");
    let prompt = loaded.game.prompt().expect("a prompt");
    let mut split = (Vec::new(), Vec::new());
    for id in custom_ids(&board.components) {
        let picks: Vec<(Option<String>, usize)> = if id.starts_with("g:") {
            let index = id.rsplit(':').next().and_then(|i| i.parse().ok());
            index.map(|i| (None, i)).into_iter().collect()
        } else if id.starts_with("s:") {
            let menu = component(&board.components, &id).expect("menu");
            menu["options"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|o| o["value"].as_str())
                .filter_map(|v| Some((Some(v.to_string()), v.parse().ok()?)))
                .collect()
        } else {
            Vec::new()
        };
        for (value, index) in picks {
            let option = prompt.options[index].clone();
            let o = Offered {
                custom_id: id.clone(),
                value,
                option,
            };
            if croupier::service::ends_turn(loaded.game.as_ref(), prompt.seat, &o.option) {
                split.0.push(o);
            } else {
                split.1.push(o);
            }
        }
    }
    split
}

/// `user` clicks `what` on `board`; the click is acknowledged as an update of the board.
async fn click_offered(fake: &FakeDiscord, board: &Message, what: &Offered, user: u64) -> Pushed {
    let push = match &what.value {
        Some(v) => Push::select(board.id, &what.custom_id, &[v.as_str()]),
        None => Push::button(board.id, &what.custom_id),
    };
    let p = fake.push(push.by(user).in_channel(board.channel_id)).await;
    assert_eq!(fake.wait_for_callback(p.id).await.kind, 6);
    p
}

/// The private question a click got as a follow-up.
async fn question_after(fake: &FakeDiscord, click: u64) -> Message {
    fake.wait_until("a private question", |st| {
        let rec = st.interactions.get(&click)?;
        st.message(*rec.followups.first()?).cloned()
    })
    .await
}

async fn version_of(w: &World, game: GameId) -> u32 {
    w.service.load(game).await.expect("game").record.version.0
}

/// The question's Confirm and Back buttons.
fn confirm_and_back(q: &Message) -> (String, String) {
    let ids = custom_ids(&q.components);
    let confirm = ids
        .iter()
        .find(|i| i.starts_with("m:") || i.starts_with("t:"))
        .unwrap_or_else(|| panic!("a Confirm button: {q:?}"))
        .clone();
    let back = ids
        .iter()
        .find(|i| i.starts_with("k:") && i.ends_with(":keep"))
        .unwrap_or_else(|| panic!("a Back button: {q:?}"))
        .clone();
    (confirm, back)
}

async fn confirm_moves_asks_before_a_click_ends_the_turn(db: &Db) {
    let w = world(db).await;
    let fake = &w.fake;
    let answer = settings(fake, BOB, vec![opt::boolean("confirm_moves", true)]).await;
    assert!(
        answer.contains("Confirm the end of your turn: on"),
        "{answer}"
    );
    assert!(answer.contains("Back plays nothing"), "{answer}");
    assert!(
        w.service
            .players()
            .settings_of(uid(BOB))
            .await
            .expect("settings")
            .confirm_moves
    );
    // A Vortex race: Alice (the setting off) against Bob (on).
    let (game, thread) = start(fake, ALICE, "vortex", BOB).await;
    let mut board = latest_board_after(fake, thread, 0).await;
    let (mut plain, mut back, mut stale, mut confirmed) = (false, false, false, false);
    for _ in 0..80 {
        if (plain && confirmed)
            || w.service.lobbies().lobby(game).await.expect("game").status != GameStatus::Active
        {
            break;
        }
        let d = decider(&w.service, game).await.expect("a prompt");
        if d.member() != BOB {
            // Alice left the setting off: whatever she plays, ending her turn or not, plays
            // at once (`play_one` waits for the board it brings).
            board = play_one(&w, game, thread, board.id).await;
            continue;
        }
        let (ending, going_on) = offered(&w, game, &board).await;
        // An option that keeps Bob's turn plays at once, with no question; so does the only
        // option of a prompt (nothing to pick by mistake).
        let single = ending.len() + going_on.len() == 1;
        if let Some(o) = going_on
            .first()
            .filter(|_| !plain || ending.is_empty())
            .or(ending.first().filter(|_| single))
        {
            let p = click_offered(fake, &board, o, BOB).await;
            board = board_after(fake, &board).await;
            assert!(
                fake.followups(p.id).is_empty(),
                "no question for `{}`",
                o.option
            );
            plain |= !single;
            continue;
        }
        let o = ending.first().expect("an option on Bob's board");
        let before = version_of(&w, game).await;
        let p = click_offered(fake, &board, o, BOB).await;
        let q = question_after(fake, p.id).await;
        assert!(q.ephemeral(), "the question is private: {q:?}");
        assert!(
            q.content
                .contains(&format!("Play `{}`? It ends your turn.", o.option)),
            "{q:?}"
        );
        assert_eq!(version_of(&w, game).await, before, "nothing played yet");
        let live = fake.message(board.id).expect("the board");
        assert_eq!(
            custom_ids(&live.components),
            custom_ids(&board.components),
            "the board keeps its buttons"
        );
        let (confirm, back_id) = confirm_and_back(&q);
        if !back {
            // Back: nothing is played; the question says so and loses its buttons.
            let a = click_private(fake, &q, &back_id, BOB).await;
            assert!(a.content.contains("Nothing changed"), "{a:?}");
            assert!(a.components.is_empty(), "{a:?}");
            assert_eq!(version_of(&w, game).await, before);
            back = true;
            continue;
        }
        if !stale {
            // Bob waits a day: his time runs out and the clock plays his turn. His question
            // is about a board that is gone: Confirm plays nothing and says why.
            w.clock().advance(25 * HOUR);
            board = fake
                .wait_until("the board after a timeout", |st| {
                    newer_board(st, thread, board.id)
                        .filter(|m| m.content.contains("ran out of time"))
                })
                .await;
            let after_timeout = version_of(&w, game).await;
            assert!(after_timeout > before);
            let a = click_private(fake, &q, &confirm, BOB).await;
            assert!(
                a.content.contains("The board changed since you were asked"),
                "{a:?}"
            );
            assert!(a.components.is_empty(), "{a:?}");
            assert_eq!(version_of(&w, game).await, after_timeout, "nothing played");
            stale = true;
            continue;
        }
        // Confirm: played, and the game moves on to the next board.
        let a = click_private(fake, &q, &confirm, BOB).await;
        assert!(a.content.contains("Played"), "{a:?}");
        assert!(a.components.is_empty(), "{a:?}");
        board = latest_board_after(fake, thread, board.id).await;
        assert!(version_of(&w, game).await > before, "played");
        assert_ne!(
            decider(&w.service, game).await.map(|d| d.user),
            Some(Some(uid(BOB))),
            "Bob's turn ended"
        );
        confirmed = true;
    }
    assert!(
        plain && back && stale && confirmed,
        "covered: plain {plain}, back {back}, stale {stale}, confirmed {confirmed}"
    );
    finish(fake).await;
    w.bot.stop().await;
}

async fn confirm_moves_asks_before_a_typed_move_ends_the_turn(db: &Db) {
    let w = world(db).await;
    let fake = &w.fake;
    settings(fake, BOB, vec![opt::boolean("confirm_moves", true)]).await;
    // Cortexcape: Alice (the setting off) against Bob (on), moves typed with /move.
    let (game, thread) = start(fake, ALICE, "cortexcape", BOB).await;
    let mut board = latest_board_after(fake, thread, 0).await;
    let mut confirmed = false;
    for _ in 0..80 {
        if confirmed
            || w.service.lobbies().lobby(game).await.expect("game").status != GameStatus::Active
        {
            break;
        }
        let d = decider(&w.service, game).await.expect("a prompt");
        if d.member() != BOB {
            board = play_one(&w, game, thread, board.id).await;
            continue;
        }
        let loaded = w.service.load(game).await.expect("game");
        let ends = |o: &String| croupier::service::ends_turn(loaded.game.as_ref(), d.seat, o);
        // A prompt of one option is never asked about (nothing to pick by mistake).
        let Some(o) = d
            .options
            .iter()
            .find(|o| d.options.len() > 1 && ends(o))
            .cloned()
        else {
            // Nothing ends Bob's turn yet (or there is one thing to do): a typed option
            // plays at once.
            let typed = send_move(fake, BOB, thread, &d.options[0]).await;
            board = latest_board_after(fake, thread, board.id).await;
            let a = answer_of(fake, typed.id).await;
            assert!(a.content.contains("Played"), "{a:?}");
            continue;
        };
        let before = version_of(&w, game).await;
        let typed = send_move(fake, BOB, thread, &o).await;
        let q = answer_of(fake, typed.id).await;
        assert!(q.ephemeral(), "{q:?}");
        assert!(
            q.content
                .contains(&format!("Play `{o}`? It ends your turn.")),
            "{q:?}"
        );
        assert_eq!(version_of(&w, game).await, before, "nothing played yet");
        let (confirm, _) = confirm_and_back(&q);
        let a = click_private(fake, &q, &confirm, BOB).await;
        assert!(a.content.contains("Played"), "{a:?}");
        board = latest_board_after(fake, thread, board.id).await;
        assert!(version_of(&w, game).await > before, "played");
        confirmed = true;
    }
    assert!(confirmed, "Bob confirmed a typed move");
    // Alice's and Bob's boards were all posted; nothing private reached the thread.
    assert!(fake
        .messages(thread)
        .iter()
        .all(|m| !m.content.contains("It ends your turn")));
    let _ = board;
    finish(fake).await;
    w.bot.stop().await;
}

async fn reliability_shows_in_stats_and_lobbies_and_reliable_refuses_members_under_it(db: &Db) {
    let w = world(db).await;
    let fake = &w.fake;
    // A Vortex race over days: Alice plays every turn; Bob plays his first turn, then lets
    // his deadline pass twice (the clock plays for him).
    let (game, thread) = start(fake, ALICE, "vortex", BOB).await;
    let mut board = latest_board_after(fake, thread, 0).await;
    let (mut bob_played, mut bob_missed) = (0, 0);
    for _ in 0..60 {
        if bob_missed == 2 {
            break;
        }
        assert_eq!(
            w.service.lobbies().lobby(game).await.expect("game").status,
            GameStatus::Active
        );
        let d = decider(&w.service, game).await.expect("a prompt");
        if d.member() == ALICE {
            board = play_one(&w, game, thread, board.id).await;
            continue;
        }
        if bob_played == 0 {
            // His whole turn, option by option, until it passes to Alice.
            while decider(&w.service, game).await.map(|d| d.member()) == Some(BOB) {
                board = play_one(&w, game, thread, board.id).await;
            }
            bob_played += 1;
            continue;
        }
        w.clock().advance(25 * HOUR);
        board = fake
            .wait_until("the board after a timeout", |st| {
                newer_board(st, thread, board.id).filter(|m| m.content.contains("ran out of time"))
            })
            .await;
        bob_missed += 1;
    }
    assert_eq!((bob_played, bob_missed), (1, 2));
    let now = w.service.now();
    let bob = w
        .service
        .players()
        .record(uid(BOB), now)
        .await
        .expect("record");
    assert_eq!((bob.met, bob.missed, bob.abandoned), (1, 2, 0), "{bob:?}");
    let alice = w
        .service
        .players()
        .record(uid(ALICE), now)
        .await
        .expect("record");
    assert!(alice.met >= 2 && alice.missed == 0, "{alice:?}");

    // `/stats user:@Bob`: his record and his figure, 1 turn in time out of 3 due.
    let stats = ask(
        fake,
        CAROL,
        CHANNEL_ID,
        Push::command("stats", vec![opt::user("user", BOB)]),
    )
    .await;
    assert!(
        stats
            .content
            .contains("Reliability over the last 30 days: **33%**. 1 turn played in time, 2 deadlines missed, 0 games abandoned, 0 games finished."),
        "{stats:?}"
    );
    let mine = ask(
        fake,
        CAROL,
        CHANNEL_ID,
        Push::command("stats", vec![opt::user("user", CAROL)]),
    )
    .await;
    assert!(
        mine.content
            .contains("Reliability over the last 30 days: **new**"),
        "{mine:?}"
    );

    // Carol, new here, opens a lobby that asks for 50 %: it says so, and she shows as new.
    let cmd = fake
        .push(
            Push::command(
                "play",
                vec![
                    opt::string("game", "cortexcape"),
                    opt::integer("reliable", 50),
                ],
            )
            .by(CAROL),
        )
        .await;
    let lobby = play_answer(fake, cmd.id).await.expect("a lobby");
    assert!(
        lobby
            .content
            .contains("Joining needs a reliability of at least 50%"),
        "{lobby:?}"
    );
    assert!(
        lobby
            .content
            .contains(&format!("1. <@{CAROL}> · new (host)")),
        "{lobby:?}"
    );
    // Bob is refused, privately and kindly, with his figure and the minimum; nothing changes.
    let refused = click_lobby(fake, &lobby, "join", BOB)
        .await
        .expect_err("Bob is under the minimum");
    assert!(
        refused.contains("at least 50%, and yours is 33% over the last 30 days"),
        "{refused}"
    );
    let lobby_game = game_of(&lobby);
    let seats = w
        .service
        .lobbies()
        .lobby(lobby_game)
        .await
        .expect("lobby")
        .seats;
    assert_eq!(seats.len(), 1, "Bob was not seated");
    // Alice, always on time, joins; the lobby shows her figure beside her name.
    let joined = click_lobby(fake, &lobby, "join", ALICE)
        .await
        .expect("Alice joins");
    assert!(
        joined.content.contains(&format!("2. <@{ALICE}> · 100%")),
        "{joined:?}"
    );
    // Nothing of this reached the game's thread or the channel in public but the lobby.
    assert!(!fake
        .messages(CHANNEL_ID)
        .iter()
        .any(|m| !m.ephemeral() && m.content.contains("yours is")));
    finish(fake).await;
    w.bot.stop().await;
}

/// Issue 40: "a week of simulated play with two of them combined". A Cortexcape over a week of
/// the fake's clock, a day per turn, seats of absent players opened (`timeout:open`): Bob asks
/// to confirm the end of each turn (item 5) and confirms his first two, then goes away; his
/// seat opens, Carol, a substitute for Cortexcape (item 7), is told first by DM and takes it,
/// and plays on to the end. Then the record (item 3): Bob's missed deadline and Carol's finished
/// game show in `/stats`, and a lobby asking for 90 % refuses Bob. Every turn waits half a day.
async fn a_week_at_one_table_with_confirmed_moves_a_substitute_and_reliability(db: &Db) {
    let timers = Timers {
        idle_archive_secs: 30 * 24 * HOUR,
        ..Timers::default()
    };
    let w = World::on(db)
        .clock(T0)
        .user(CAROL, "Carol")
        .timers(timers)
        .start()
        .await;
    let fake = &w.fake;
    settings(fake, BOB, vec![opt::boolean("confirm_moves", true)]).await;
    let offer = opt::sub("offer", vec![opt::string("game", "cortexcape")]);
    let offered = ask(fake, CAROL, CHANNEL_ID, Push::command("sub", vec![offer])).await;
    assert!(
        offered.content.contains("substitute for Cortexcape"),
        "{offered:?}"
    );

    let cmd = fake
        .push(
            Push::command(
                "play",
                vec![
                    opt::string("game", "cortexcape"),
                    opt::string("options", "short=true"),
                    opt::string("clock", "1d"),
                    opt::string("timeout", "open"),
                ],
            )
            .by(ALICE),
        )
        .await;
    let lobby = play_answer(fake, cmd.id).await.expect("a lobby");
    let game = game_of(&lobby);
    let thread = join_and_start(fake, &lobby, &[BOB], ALICE).await;
    let started = w.service.now();
    let mut board = latest_board_after(fake, thread, 0).await;
    let (mut turn_of, mut confirmed, mut bob_seat, mut carol_took) = (None, 0, None, false);
    for _ in 0..400 {
        if w.service.lobbies().lobby(game).await.expect("game").status != GameStatus::Active {
            break;
        }
        let d = decider(&w.service, game).await.expect("a prompt");
        if turn_of != Some(d.seat) {
            // A new turn: its player comes back half a day later.
            w.clock().advance(12 * HOUR - 60);
            turn_of = Some(d.seat);
        }
        if d.member() != BOB {
            board = play_one(&w, game, thread, board.id).await;
            continue;
        }
        if confirmed == 2 {
            // Bob is away: a day passes, his seat opens, Carol is told first and takes it.
            bob_seat = Some(d.seat);
            w.clock().advance(13 * HOUR);
            let opened = fake
                .wait_until("Bob's seat opens", |st| {
                    st.messages
                        .iter()
                        .find(|m| m.channel_id == thread && m.content.contains("ran out of time"))
                        .cloned()
                })
                .await;
            assert!(
                opened.content.contains("was told first"),
                "{}",
                opened.content
            );
            let dm = fake
                .wait_until("Carol's DM", |st| {
                    let dm = st
                        .channels
                        .values()
                        .find(|c| c.recipient == Some(CAROL))?
                        .id;
                    st.messages
                        .iter()
                        .find(|m| m.channel_id == dm && m.content.contains("A seat is open"))
                        .cloned()
                })
                .await;
            assert!(
                dm.content.contains(&format!("#{}", game.0)),
                "{}",
                dm.content
            );
            let take = opt::sub("take", vec![]);
            let took = ask(fake, CAROL, thread, Push::command("sub", vec![take])).await;
            assert!(took.content.starts_with("✅ The seat is yours"), "{took:?}");
            carol_took = true;
            // Her seat decides now: the board that calls her.
            board = fake
                .wait_until("the board that calls Carol", |st| {
                    st.messages
                        .iter()
                        .rev()
                        .find(|m| m.channel_id == thread && is_board(m))
                        .filter(|m| mentioned(m) == Some(CAROL))
                        .cloned()
                })
                .await;
            continue;
        }
        // Bob's options: one that ends his turn is asked about first, privately.
        let loaded = w.service.load(game).await.expect("game");
        let o = d.options[0].clone();
        let ends =
            d.options.len() > 1 && croupier::service::ends_turn(loaded.game.as_ref(), d.seat, &o);
        let typed = send_move(fake, BOB, thread, &o).await;
        let mut a = answer_of(fake, typed.id).await;
        if ends {
            assert!(a.content.contains("It ends your turn"), "{a:?}");
            assert!(a.ephemeral(), "{a:?}");
            let (confirm, _) = confirm_and_back(&a);
            a = click_private(fake, &a, &confirm, BOB).await;
            confirmed += 1;
        }
        assert!(a.content.contains("Played"), "{a:?}");
        board = latest_board_after(fake, thread, board.id).await;
    }
    let record = w.service.lobbies().lobby(game).await.expect("game");
    assert_eq!(record.status, GameStatus::Finished, "the game ended");
    assert!(carol_took, "Carol took Bob's seat");
    let seat = bob_seat.expect("Bob's seat");
    assert_eq!(record.seats[seat.index()].user, Some(uid(CAROL)));
    let days = (w.service.now() - started) / (24 * HOUR);
    assert!(days >= 7, "the game lasted {days} days");
    result_card(fake, thread).await;
    // Nothing private reached the thread: no question, no DM's text.
    assert!(fake
        .messages(thread)
        .iter()
        .all(|m| m.ephemeral() || !m.content.contains("It ends your turn")));

    // The record: Bob played his turns in time, then left a game whose seat had to open (an
    // opened seat counts as a game abandoned, not as a deadline missed); Carol finished it.
    let now = w.service.now();
    let bob = w
        .service
        .players()
        .record(uid(BOB), now)
        .await
        .expect("record");
    assert_eq!((bob.missed, bob.abandoned), (0, 1), "{bob:?}");
    assert!(bob.met >= 2, "{bob:?}");
    let carol = w
        .service
        .players()
        .record(uid(CAROL), now)
        .await
        .expect("record");
    assert_eq!((carol.missed, carol.finished), (0, 1), "{carol:?}");
    let stats = ask(
        fake,
        ALICE,
        CHANNEL_ID,
        Push::command("stats", vec![opt::user("user", BOB)]),
    )
    .await;
    assert!(
        stats
            .content
            .contains("0 deadlines missed, 1 game abandoned"),
        "{stats:?}"
    );
    // A host who asks for 90 % does not get Bob.
    let cmd = fake
        .push(
            Push::command(
                "play",
                vec![opt::string("game", "vortex"), opt::integer("reliable", 90)],
            )
            .by(CAROL),
        )
        .await;
    let lobby = play_answer(fake, cmd.id).await.expect("a lobby");
    let refused = click_lobby(fake, &lobby, "join", BOB)
        .await
        .expect_err("Bob is under 90 %");
    assert!(refused.contains("at least 90%"), "{refused}");
    finish(fake).await;
    w.bot.stop().await;
}

/// Pings on your terms, over days of play in two games at once: Bob mutes game A (its boards
/// still call him by name, but ping nobody) while game B still pings him; Alice keeps only her
/// turn in game A (her boards ping her, Bob's resignation's result card does not). Bad input is
/// refused with a clear answer and changes nothing.
async fn a_muted_game_pings_nobody_and_my_turn_pings_only_the_turn_for_days(db: &Db) {
    use croupier::service::GamePings;
    let w = world(db).await;
    let fake = &w.fake;
    let (a, thread_a) = start(fake, ALICE, "vortex", BOB).await;
    let (b, thread_b) = start(fake, CAROL, "vortex", BOB).await;
    let players = w.service.players();
    let mode = |game: GameId, user: u64| {
        let players = w.service.players();
        async move { players.game_pings(game, uid(user)).await.expect("pings") }
    };

    // Bad input: a member not seated in A, an unknown mode, reminders out of bounds.
    let game_a = opt::integer("game", a.0);
    let answer = settings(
        fake,
        CAROL,
        vec![opt::string("game_pings", "mute"), game_a.clone()],
    )
    .await;
    assert!(answer.contains("do not have a seat"), "{answer}");
    let answer = settings(
        fake,
        BOB,
        vec![opt::string("game_pings", "loud"), game_a.clone()],
    )
    .await;
    assert!(answer.contains("is not a way to ping you"), "{answer}");
    for (input, says) in [
        ("50 40 30 20", "At most 3"),
        ("99%", "between 5% and 95%"),
        ("50 48", "at least 5% apart"),
        ("soon", "I cannot read"),
    ] {
        let answer = settings(
            fake,
            BOB,
            vec![
                opt::string("reminders", input),
                opt::string("game_pings", "mute"),
                game_a.clone(),
            ],
        )
        .await;
        assert!(answer.contains(says), "{input}: {answer}");
    }
    assert_eq!(mode(a, CAROL).await, GamePings::All);
    assert_eq!(mode(a, BOB).await, GamePings::All, "nothing changed");
    assert_eq!(
        players
            .settings_of(uid(BOB))
            .await
            .expect("settings")
            .reminders,
        None
    );

    // Bob mutes A; Alice keeps only her turn in A. Each answer says the choice.
    let answer = settings(
        fake,
        BOB,
        vec![opt::string("game_pings", "mute"), game_a.clone()],
    )
    .await;
    assert!(
        answer.contains(&format!("Pings from game #{}: muted", a.0)),
        "{answer}"
    );
    let answer = settings(
        fake,
        ALICE,
        vec![opt::string("game_pings", "my_turn"), game_a.clone()],
    )
    .await;
    assert!(answer.contains("my turn only"), "{answer}");
    assert_eq!(mode(a, BOB).await, GamePings::Mute);
    assert_eq!(mode(a, ALICE).await, GamePings::MyTurn);
    assert_eq!(mode(b, BOB).await, GamePings::All, "only game A");

    // Days of play in both games, a move every five hours (no reminder, no timeout).
    let mut boards = [
        latest_board_after(fake, thread_a, 0).await,
        latest_board_after(fake, thread_b, 0).await,
    ];
    let first = [boards[0].id, boards[1].id];
    for _ in 0..10 {
        for (i, (game, thread)) in [(a, thread_a), (b, thread_b)].into_iter().enumerate() {
            if w.service.lobbies().lobby(game).await.expect("game").status == GameStatus::Active {
                boards[i] = play_one(&w, game, thread, boards[i].id).await;
            }
        }
        w.clock().advance(5 * HOUR);
    }
    let mut called = [(0, 0), (0, 0)];
    for (i, thread) in [thread_a, thread_b].into_iter().enumerate() {
        // The boards posted since the choices (the first ones came before them).
        for m in fake
            .messages(thread)
            .iter()
            .filter(|m| is_board(m) && m.id > first[i])
        {
            match (i, mentioned(m)) {
                // Game A: Bob is named on his turn, never pinged; Alice is pinged on hers.
                (0, Some(BOB)) => {
                    assert!(m.pinged_users.is_empty(), "{m:?}");
                    called[0].1 += 1;
                }
                (0, Some(ALICE)) => {
                    assert_eq!(m.notified_users(), [ALICE], "{m:?}");
                    called[0].0 += 1;
                }
                // Game B pings Bob as before.
                (1, Some(BOB)) => {
                    assert_eq!(m.notified_users(), [BOB], "{m:?}");
                    called[1].1 += 1;
                }
                (1, Some(CAROL)) => {
                    assert_eq!(m.notified_users(), [CAROL], "{m:?}");
                    called[1].0 += 1;
                }
                _ => assert!(m.pinged_users.is_empty(), "{m:?}"),
            }
        }
    }
    assert!(
        called.iter().all(|(x, y)| *x > 0 && *y > 0),
        "boards called each player: {called:?}"
    );

    // Bob resigns both games: A's result names Alice and Bob and pings neither (it needs
    // nobody: Alice keeps only her turn, Bob muted A); B's pings Carol and Bob.
    for (game, thread) in [(a, thread_a), (b, thread_b)] {
        let question = ask(fake, BOB, thread, Push::command("resign", vec![])).await;
        click_private(fake, &question, &format!("k:{}:resign", game.0), BOB).await;
    }
    let card_a = result_card(fake, thread_a).await;
    assert!(
        card_a.content.contains(&format!("<@{ALICE}>")),
        "{card_a:?}"
    );
    assert!(card_a.content.contains(&format!("<@{BOB}>")), "{card_a:?}");
    assert!(card_a.pinged_users.is_empty(), "{card_a:?}");
    let card_b = result_card(fake, thread_b).await;
    let mut pinged = card_b.notified_users();
    pinged.sort_unstable();
    let mut both = vec![BOB, CAROL];
    both.sort_unstable();
    assert_eq!(pinged, both, "{card_b:?}");

    // Back to all: the choice is shown and stored as no choice.
    let answer = settings(
        fake,
        BOB,
        vec![opt::string("game_pings", "all"), game_a.clone()],
    )
    .await;
    assert!(answer.contains("all (every message"), "{answer}");
    assert_eq!(mode(a, BOB).await, GamePings::All);
    finish(fake).await;
    w.bot.stop().await;
}
