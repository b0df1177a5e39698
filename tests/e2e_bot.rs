//! End to end: the real bot (in-process) against the fake Discord on loopback, on a real store.
//! Every scenario ends with `finish`: every interaction answered once, in time, and no
//! OpenAPI or limit violation.

#[path = "support/fake_discord/mod.rs"]
mod fake_discord;

use croupier::bot::{run_with_service, BotConfig};
use croupier::config::Token;
use croupier::engine::GameId;
use croupier::i18n::Lang;
use croupier::service::Service;
use croupier::store::{GameStatus, Store};
use fake_discord::*;
use serde_json::Value;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

/// The bot running in a task, stopped on drop or with `stop`.
struct Bot {
    stop: Option<oneshot::Sender<()>>,
    task: Option<JoinHandle<anyhow::Result<()>>>,
}

impl Bot {
    async fn start(fake: &FakeDiscord, service: Service) -> Bot {
        let config = BotConfig {
            token: Token::new(TOKEN),
            database_url: String::new(),
            dev_guild: Some(GUILD_ID),
            api_base: Some(fake.api_base()),
        };
        let (tx, rx) = oneshot::channel::<()>();
        let task = tokio::spawn(run_with_service(config, service, async {
            rx.await.ok();
        }));
        let before = fake.identifies().len();
        // Ready once a new session is identified and the commands are registered.
        fake.wait_until("the bot's session and commands", |st| {
            (st.sessions.len() > before
                && st.sessions.iter().any(|s| s.tx.is_some())
                && st.commands.iter().any(|c| c.guild_id == Some(GUILD_ID)))
            .then_some(())
        })
        .await;
        Bot {
            stop: Some(tx),
            task: Some(task),
        }
    }

    async fn stop(mut self) {
        if let Some(tx) = self.stop.take() {
            let _ = tx.send(());
        }
        if let Some(task) = self.task.take() {
            let ended = task.await.expect("bot task");
            assert!(ended.is_ok(), "bot ended with {ended:?}");
        }
    }
}

impl Drop for Bot {
    fn drop(&mut self) {
        if let Some(t) = &self.task {
            t.abort();
        }
    }
}

/// A real SQLite store in a temporary directory (kept alive by the returned guard).
async fn sqlite() -> (Store, tempfile::TempDir) {
    let dir = tempfile::tempdir().expect("temp dir");
    let url = format!("sqlite://{}/e2e.db", dir.path().display());
    (Store::connect(&url).await.expect("sqlite store"), dir)
}

/// PostgreSQL too when TEST_DATABASE_URL is set.
async fn postgres() -> Option<Store> {
    match std::env::var("TEST_DATABASE_URL") {
        Ok(url) if !url.is_empty() => Some(Store::connect(&url).await.expect("postgres store")),
        _ => None,
    }
}

struct World {
    fake: FakeDiscord,
    service: Service,
    bot: Bot,
    _dir: Option<tempfile::TempDir>,
}

async fn world_on(store: Store, dir: Option<tempfile::TempDir>) -> World {
    let fake = FakeDiscord::start().await;
    let service = Service::new(store);
    let bot = Bot::start(&fake, service.clone()).await;
    World {
        fake,
        service,
        bot,
        _dir: dir,
    }
}

async fn world() -> World {
    let (store, dir) = sqlite().await;
    world_on(store, Some(dir)).await
}

/// Every interaction answered exactly once (a second is a violation), within the deadline
/// (a late one is a violation), and nothing else wrong.
async fn finish(fake: &FakeDiscord) {
    fake.wait_until("every interaction answered", |st| {
        st.interactions
            .values()
            .all(|i| i.callback.is_some())
            .then_some(())
    })
    .await;
    fake.assert_clean();
}

/// Every custom id in a message's component rows.
fn custom_ids(components: &[Value]) -> Vec<String> {
    let mut out = Vec::new();
    for row in components {
        for c in row["components"].as_array().into_iter().flatten() {
            if let Some(id) = c["custom_id"].as_str() {
                out.push(id.to_string());
            }
        }
    }
    out
}

/// The label of each button and the (value, label) of each select option.
fn component(components: &[Value], custom_id: &str) -> Option<Value> {
    components
        .iter()
        .flat_map(|row| row["components"].as_array().cloned().unwrap_or_default())
        .find(|c| c["custom_id"] == custom_id)
}

/// The lobby: `/play` by Alice; returns the game, the lobby message and the thread.
async fn open_lobby(fake: &FakeDiscord, options: &str, locale: &str) -> (GameId, Message, u64) {
    let mut opts = vec![opt::string("game", "cortexcape")];
    if !options.is_empty() {
        opts.push(opt::string("options", options));
    }
    let threads_before = fake.threads().len();
    let cmd = fake.push(Push::command("play", opts).locale(locale)).await;
    let cb = fake.wait_for_callback(cmd.id).await;
    assert_eq!(cb.kind, 4, "{cb:?}");
    assert!(!cb.ephemeral());
    let thread = fake
        .wait_until("the game's thread", |st| {
            let threads: Vec<_> = st
                .channels
                .values()
                .filter(|c| c.kind == ChannelKind::PublicThread)
                .collect();
            (threads.len() > threads_before).then(|| threads[threads.len() - 1].id)
        })
        .await;
    let lobby = fake.original_response(cmd.id).expect("lobby message");
    let ids = custom_ids(&lobby.components);
    let game = ids
        .first()
        .and_then(|id| id.strip_prefix("l:"))
        .and_then(|rest| rest.split(':').next())
        .and_then(|g| g.parse().ok())
        .map(GameId)
        .unwrap_or_else(|| panic!("no lobby buttons: {ids:?}"));
    assert_eq!(
        ids,
        ["join", "leave", "start", "cancel"].map(|a| format!("l:{}:{a}", game.0))
    );
    // The thread hangs off the lobby message; the store knows it.
    let view = fake_thread_owner(fake, thread);
    assert_eq!(view, Some(lobby.id));
    (game, lobby, thread)
}

fn fake_thread_owner(fake: &FakeDiscord, thread: u64) -> Option<u64> {
    fake.threads()
        .into_iter()
        .find(|t| t.id == thread)
        .and_then(|t| t.from_message)
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

/// Bob joins Alice's lobby and Alice starts it: the first board is posted in the thread.
async fn join_and_start(fake: &FakeDiscord, game: GameId, lobby: &Message, joiners: &[u64]) {
    for user in joiners {
        let cb = click(
            fake,
            lobby.id,
            &format!("l:{}:join", game.0),
            *user,
            CHANNEL_ID,
        )
        .await;
        assert_eq!(cb.kind, 7, "join updates the lobby: {cb:?}");
    }
    let cb = click(
        fake,
        lobby.id,
        &format!("l:{}:start", game.0),
        ALICE,
        CHANNEL_ID,
    )
    .await;
    assert_eq!(cb.kind, 6, "start is a deferred update: {cb:?}");
}

/// The latest message in `channel` with board components, once there is a new one (id > after).
async fn next_board(fake: &FakeDiscord, channel: u64, after: u64) -> Message {
    fake.wait_until("a new board", |st| {
        st.messages
            .iter()
            .rev()
            .find(|m| m.channel_id == channel && !m.deleted && m.id > after && is_board(m))
            .cloned()
    })
    .await
}

fn is_board(m: &Message) -> bool {
    m.attachments.iter().any(|a| a.filename == "board.png")
}

/// The user mentioned last in a board's text (who decides now).
fn mentioned(m: &Message) -> Option<u64> {
    let at = m.content.rfind("<@")?;
    let rest = &m.content[at + 2..];
    let end = rest.find('>')?;
    rest[..end].parse().ok()
}

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

async fn status(service: &Service, game: GameId) -> GameStatus {
    service.lobby(game).await.expect("game").status
}

/// Waits until the clicked board has been dealt with: edited in place with new components
/// (same player again) or stripped of its components and followed by a new board.
async fn after_click(fake: &FakeDiscord, channel: u64, board: &Message) -> Message {
    let old = custom_ids(&board.components);
    fake.wait_until("the board after a click", |st| {
        let m = st.message(board.id)?;
        let now = custom_ids(&m.components);
        if !now.is_empty() && now != old {
            return Some(m.clone());
        }
        if now.is_empty() {
            return st
                .messages
                .iter()
                .rev()
                .find(|n| n.channel_id == channel && n.id > board.id && is_board(n))
                .cloned();
        }
        None
    })
    .await
}

/// Plays the decision on `board` with its first button or first menu option, by whoever is
/// mentioned; returns the board to decide on next.
async fn decide_first(fake: &FakeDiscord, channel: u64, board: &Message) -> Message {
    let user = mentioned(board).unwrap_or_else(|| panic!("nobody to play on {board:?}"));
    let ids = custom_ids(&board.components);
    let id = ids
        .iter()
        .find(|i| i.starts_with("g:") || i.starts_with("s:"))
        .unwrap_or_else(|| panic!("no decision on {board:?}"))
        .clone();
    let p = if id.starts_with("s:") {
        let menu = component(&board.components, &id).expect("menu");
        let value = menu["options"][0]["value"]
            .as_str()
            .expect("option value")
            .to_string();
        fake.push(
            Push::select(board.id, &id, &[value.as_str()])
                .by(user)
                .in_channel(channel),
        )
        .await
    } else {
        fake.push(Push::button(board.id, &id).by(user).in_channel(channel))
            .await
    };
    let cb = fake.wait_for_callback(p.id).await;
    assert_eq!(cb.kind, 6, "{cb:?}");
    let next = after_click(fake, channel, board).await;
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
    let w = world().await;
    let fake = &w.fake;
    let (game, lobby, thread) = open_lobby(fake, "short=true", "en-US").await;
    join_and_start(fake, game, &lobby, &[BOB]).await;
    let mut board = next_board(fake, thread, 0).await;
    assert_eq!(status(&w.service, game).await, GameStatus::Active);
    // The lobby loses its buttons once started.
    let lobby_now = fake.message(lobby.id).expect("lobby");
    assert!(lobby_now.components.is_empty(), "{lobby_now:?}");
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
            board = decide_first(fake, thread, &board).await;
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
    assert!(last.components.is_empty(), "{last:?}");
    assert_png(&last);
    assert_names_winner(&w.service, game, &last).await;
    eprintln!("{clicks} clicks, {typed} moves");
    finish(fake).await;
    w.bot.stop().await;
}

/// The final board says who won, by name.
async fn assert_names_winner(service: &Service, game: GameId, last: &Message) {
    let outcome = service
        .show(game, Lang::En)
        .await
        .expect("final board")
        .board
        .outcome
        .expect("an outcome");
    let seats = service.lobby(game).await.expect("game").seats;
    let winners: Vec<String> = outcome
        .winners
        .iter()
        .map(|s| seats[s.0 as usize].name.clone())
        .collect();
    assert_eq!(winners.len(), 1, "{outcome:?}");
    let said = format!("Game over. Lowest score: {}.", winners[0]);
    assert!(
        last.content.contains(&said),
        "{said} not in {}",
        last.content
    );
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
    let all = autocomplete_move(fake, user, thread, "").await;
    let legal = service
        .choices(game, croupier_user(user), "")
        .await
        .expect("choices");
    let mut expected = legal.clone();
    expected.retain(|o| o.len() <= 100);
    expected.truncate(25);
    assert_eq!(all, expected);
    assert!(!all.is_empty());
    // Typing a part of the first option narrows the list to the options containing it.
    let first = all[0].clone();
    let typed: String = first.chars().take(3).collect();
    let filtered = autocomplete_move(fake, user, thread, &typed).await;
    assert!(filtered.contains(&first), "{filtered:?} lacks {first}");
    assert!(filtered.len() <= all.len());
    let cmd = fake
        .push(
            Push::command("move", vec![opt::string("option", &first)])
                .by(user)
                .in_channel(thread),
        )
        .await;
    let cb = fake.wait_for_callback(cmd.id).await;
    assert_eq!(cb.kind, 5, "{cb:?}");
    assert!(cb.ephemeral());
    let done = fake
        .wait_until("the /move answer", |st| {
            let i = st.interactions.get(&cmd.id)?;
            let m = st.message(i.original?)?;
            (m.edits > 0 || !m.content.is_empty()).then(|| m.content.clone())
        })
        .await;
    assert_eq!(done, "✅ Played.");
    fake.wait_until("the board after /move", |st| {
        st.messages
            .iter()
            .rev()
            .find(|n| n.channel_id == thread && n.id > board.id && is_board(n))
            .cloned()
    })
    .await
}

fn croupier_user(id: u64) -> i64 {
    i64::from_ne_bytes(id.to_ne_bytes())
}

/// What autocomplete offers for `/move option:<partial>`.
async fn autocomplete_move(
    fake: &FakeDiscord,
    user: u64,
    channel: u64,
    partial: &str,
) -> Vec<String> {
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
        .map(|c| c["value"].as_str().unwrap_or_default().to_string())
        .collect()
}
