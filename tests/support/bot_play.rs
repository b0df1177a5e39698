//! Playing through the fake Discord, for the suites that run the bot: a `World` (a database,
//! the service on it, the fake Discord and the bot in-process, built by `WorldBuilder`), a
//! lobby opened and started by interactions, boards found and clicked.
//! Include after `fake_discord` and `store_db` with `#[path = "../support/bot_play.rs"] mod
//! bot_play;`.
#![allow(dead_code)]

use std::sync::Arc;
use std::time::Duration;

use croupier::bot::ids::CustomId;
use croupier::bot::{run_with_service, BotConfig, ShardRange};
use croupier::clock::{Clock, ManualClock};
use croupier::engine::GameId;
use croupier::secret::Token;
use croupier::service::{Service, Timers};
use serde_json::Value;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

use super::fake_discord::*;
use super::store_db::Db;

/// The scheduler's pace in a `World` unless its builder says otherwise.
pub const TICK: Duration = Duration::from_millis(50);

/// The bot in-process on a database, against a fresh fake Discord.
pub struct World {
    pub fake: FakeDiscord,
    pub service: Service,
    pub bot: Bot,
    clock: Option<ManualClock>,
    /// The database, when the world owns it (`World::sqlite`, `World::owning`).
    pub db: Option<Db>,
}

impl World {
    /// On a fresh SQLite file, kept as long as the world.
    pub fn sqlite() -> WorldBuilder<'static> {
        World::owning(Db::sqlite_file())
    }

    /// On `db`, kept as long as the world (`stop` finishes it).
    pub fn owning(db: Db) -> WorldBuilder<'static> {
        WorldBuilder::new(Source::Owned(db))
    }

    /// On `db`, which the caller keeps (and finishes).
    pub fn on(db: &Db) -> WorldBuilder<'_> {
        WorldBuilder::new(Source::Borrowed(db))
    }

    /// The service's manual clock (`WorldBuilder::clock` or `service_clock`).
    pub fn clock(&self) -> &ManualClock {
        self.clock
            .as_ref()
            .expect("a world built without a manual clock")
    }

    /// The fake, the service, the bot and the database the world owns (to keep for the test).
    pub fn parts(self) -> (FakeDiscord, Service, Bot, Option<Db>) {
        (self.fake, self.service, self.bot, self.db)
    }

    /// Stops the bot (it must end cleanly), then finishes the database the world owns.
    pub async fn stop(self) {
        self.bot.stop().await;
        if let Some(db) = self.db {
            db.finish().await;
        }
    }
}

enum Source<'a> {
    Owned(Db),
    Borrowed(&'a Db),
}

/// How a `World` starts: the service on the database, on a manual clock if asked (the fake's
/// following it or not), with `timers`; the fake Discord, made ready by `fake` steps and given
/// extra `user`s; then the bot, its scheduler ticking at `tick` (`TICK` unless told; `None`:
/// no scheduler), per-member cooldowns off unless asked, its configuration changed by `config`
/// steps.
pub struct WorldBuilder<'a> {
    db: Source<'a>,
    clock: Option<(i64, bool)>,
    timers: Timers,
    tick: Option<Duration>,
    cooldowns: bool,
    prepare: Vec<FakeStep>,
    users: Vec<(u64, String)>,
    configure: Vec<ConfigStep>,
}

type FakeStep = Box<dyn FnOnce(&FakeDiscord)>;
type ConfigStep = Box<dyn FnOnce(&mut BotConfig)>;

impl<'a> WorldBuilder<'a> {
    fn new(db: Source<'a>) -> WorldBuilder<'a> {
        WorldBuilder {
            db,
            clock: None,
            timers: Timers::default(),
            tick: Some(TICK),
            cooldowns: false,
            prepare: Vec::new(),
            users: Vec::new(),
            configure: Vec::new(),
        }
    }

    /// The service on a manual clock set at `at`, which the fake's clock follows.
    pub fn clock(mut self, at: i64) -> WorldBuilder<'a> {
        self.clock = Some((at, true));
        self
    }

    /// The service on a manual clock set at `at`; the fake keeps the wall clock.
    pub fn service_clock(mut self, at: i64) -> WorldBuilder<'a> {
        self.clock = Some((at, false));
        self
    }

    pub fn timers(mut self, timers: Timers) -> WorldBuilder<'a> {
        self.timers = timers;
        self
    }

    pub fn tick(mut self, tick: Option<Duration>) -> WorldBuilder<'a> {
        self.tick = tick;
        self
    }

    pub fn cooldowns(mut self, on: bool) -> WorldBuilder<'a> {
        self.cooldowns = on;
        self
    }

    /// A step on the fake before the bot starts (permissions, channels, a network delay).
    pub fn fake(mut self, step: impl FnOnce(&FakeDiscord) + 'static) -> WorldBuilder<'a> {
        self.prepare.push(Box::new(step));
        self
    }

    /// A change to the bot's configuration (see `config`) before it starts.
    pub fn config(mut self, step: impl FnOnce(&mut BotConfig) + 'static) -> WorldBuilder<'a> {
        self.configure.push(Box::new(step));
        self
    }

    /// A member of the fake's guild besides Alice and Bob.
    pub fn user(mut self, id: u64, name: &str) -> WorldBuilder<'a> {
        self.users.push((id, name.to_string()));
        self
    }

    pub async fn start(self) -> World {
        log_when_asked();
        let (db, owned) = match self.db {
            Source::Owned(db) => (None, Some(db)),
            Source::Borrowed(db) => (Some(db), None),
        };
        let store = db.or(owned.as_ref()).expect("a database").connect().await;
        let clock = self.clock.map(|(at, _)| ManualClock::new(at));
        let mut service = Service::new(store).with_timers(self.timers);
        if let Some(clock) = &clock {
            service = service.with_clock(Arc::new(clock.clone()));
        }
        let fake = FakeDiscord::start().await;
        if let (Some(clock), Some((_, true))) = (&clock, self.clock) {
            let follow = clock.clone();
            fake.follow_clock(move || Clock::now(&follow));
        }
        for step in self.prepare {
            step(&fake);
        }
        for (id, name) in &self.users {
            fake.add_user(*id, name);
        }
        let mut config = config(Token::new(TOKEN), &fake, None, self.tick);
        config.cooldowns = self.cooldowns;
        for step in self.configure {
            step(&mut config);
        }
        let bot = Bot::start_with(&fake, service.clone(), config).await;
        World {
            fake,
            service,
            bot,
            clock,
            db: owned,
        }
    }
}

/// With `RUST_LOG` set, the bot's log lines go to the test's captured output (shown when it
/// fails): how a rare failure is read after the fact.
fn log_when_asked() {
    if std::env::var_os("RUST_LOG").is_some() {
        let _ = tracing_subscriber::fmt()
            .with_env_filter(tracing_subscriber::EnvFilter::from_default_env())
            .with_test_writer()
            .try_init();
    }
}

/// The bot running in a task of this process, stopped on drop.
pub struct Bot {
    stop: Option<oneshot::Sender<()>>,
    task: Option<JoinHandle<anyhow::Result<()>>>,
}

impl Bot {
    pub async fn start(fake: &FakeDiscord, service: Service) -> Bot {
        Bot::start_shards(fake, service, None, None).await
    }

    /// With `tick`, the process also runs the scheduler (timers, lost boards) at that pace.
    pub async fn start_ticking(
        fake: &FakeDiscord,
        service: Service,
        tick: Option<std::time::Duration>,
    ) -> Bot {
        Bot::start_shards(fake, service, None, tick).await
    }

    /// As `croupier serve --shards <range> --total <n>`: ready once every shard is identified.
    pub async fn start_shards(
        fake: &FakeDiscord,
        service: Service,
        shards: Option<ShardRange>,
        tick: Option<std::time::Duration>,
    ) -> Bot {
        let config = config(Token::new(TOKEN), fake, shards, tick);
        Bot::start_with(fake, service, config).await
    }

    /// With a configuration of the test's own (see `config`).
    pub async fn start_with(fake: &FakeDiscord, service: Service, config: BotConfig) -> Bot {
        let wanted = config.shards.map_or(1, |r| r.last - r.first + 1) as usize;
        let (tx, rx) = oneshot::channel::<()>();
        let before = fake.identifies().len();
        let task = tokio::spawn(run_with_service(config, service, async {
            rx.await.ok();
        }));
        wait_sessions(fake, before, wanted).await;
        Bot {
            stop: Some(tx),
            task: Some(task),
        }
    }

    /// Stops the bot (it must end cleanly), then `finish`.
    pub async fn stop_clean(self, fake: &FakeDiscord) {
        self.stop().await;
        finish(fake).await;
    }

    pub async fn stop(mut self) {
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

/// The bot's configuration against the fake, reached as `https://discord.com` with serenity's
/// rate limiter on.
pub fn config(
    token: Token,
    fake: &FakeDiscord,
    shards: Option<ShardRange>,
    tick: Option<std::time::Duration>,
) -> BotConfig {
    BotConfig {
        token,
        database_url: String::new(),
        dev_guild: Some(GUILD_ID),
        api_base: None,
        http_client: Some(fake.discord_client()),
        shards,
        tick,
        cooldowns: false,
        global_limit: croupier::bot::DISCORD_GLOBAL_LIMIT,
        metrics_addr: None,
        metrics_token: None,
        pool_size: None,
        shard_watch: croupier::bot::SHARD_WATCH,
        shard_recount: croupier::bot::SHARD_RECOUNT,
        presence_every: croupier::bot::PRESENCE_EVERY,
    }
}

/// Every interaction answered exactly once (a second is a violation), within the deadline
/// (a late one is a violation), and nothing else wrong.
pub async fn finish(fake: &FakeDiscord) {
    fake.wait_until("every interaction answered", |st| {
        st.interactions
            .values()
            .all(|i| i.callback.is_some())
            .then_some(())
    })
    .await;
    fake.assert_clean();
    // serenity's rate limiter read the fake's headers: a normal game never meets a 429.
    assert_eq!(fake.rate_limited(), 0, "the bot met Discord's rate limits");
}

/// Waits for a session identified after `before` others, and the guild's commands.
pub async fn wait_ready(fake: &FakeDiscord, before: usize) {
    wait_sessions(fake, before, 1).await;
}

/// Waits for `wanted` sessions identified after `before` others, and the guild's commands.
async fn wait_sessions(fake: &FakeDiscord, before: usize, wanted: usize) {
    fake.wait_until("the bot's sessions and commands", |st| {
        (st.sessions.len() >= before + wanted
            && st.sessions.iter().any(|s| s.tx.is_some())
            && st.commands.iter().any(|c| c.guild_id == Some(GUILD_ID)))
        .then_some(())
    })
    .await;
}

/// Every custom id in a message's component rows.
pub fn custom_ids(components: &[Value]) -> Vec<String> {
    components
        .iter()
        .flat_map(|row| row["components"].as_array().cloned().unwrap_or_default())
        .filter_map(|c| c["custom_id"].as_str().map(str::to_string))
        .collect()
}

/// A component of a message's rows by its custom id.
pub fn component(components: &[Value], custom_id: &str) -> Option<Value> {
    components
        .iter()
        .flat_map(|row| row["components"].as_array().cloned().unwrap_or_default())
        .find(|c| c["custom_id"] == custom_id)
}

/// A public board (an answer shown only to one player, such as `/board`, is not one).
pub fn is_board(m: &Message) -> bool {
    !m.ephemeral() && m.attachments.iter().any(|a| a.filename == "board.png")
}

/// The user mentioned last in a board's text (who decides now).
pub fn mentioned(m: &Message) -> Option<u64> {
    let at = m.content.rfind("<@")?;
    let rest = &m.content[at + 2..];
    let end = rest.find('>')?;
    rest[..end].parse().ok()
}

/// `/play cortexcape short=true` by Alice in the games channel, Bob joins, Alice starts:
/// returns the game and its thread once the first board is there.
pub async fn start_game(fake: &FakeDiscord) -> (GameId, u64) {
    let cmd = fake
        .push(Push::command(
            "play",
            vec![
                opt::string("game", "cortexcape"),
                opt::string("options", "short=true"),
            ],
        ))
        .await;
    let lobby = play_answer(fake, cmd.id).await.expect("a lobby");
    let thread = join_and_start(fake, &lobby, &[BOB], ALICE).await;
    (game_of(&lobby), thread)
}

/// The game of a lobby message, read from its buttons.
pub fn game_of(lobby: &Message) -> GameId {
    let ids = custom_ids(&lobby.components);
    ids.first()
        .and_then(|id| id.strip_prefix("l:"))
        .and_then(|rest| rest.split(':').next())
        .and_then(|g| g.parse().ok())
        .map(GameId)
        .unwrap_or_else(|| panic!("no lobby buttons: {ids:?}"))
}

/// `joiners` join `lobby` (each click updates it) and `host` starts it: the game's thread
/// (started from the lobby message, it takes its id), once its first board is there.
pub async fn join_and_start(
    fake: &FakeDiscord,
    lobby: &Message,
    joiners: &[u64],
    host: u64,
) -> u64 {
    for user in joiners {
        let updated = click_lobby(fake, lobby, "join", *user).await;
        assert!(updated.is_ok(), "join updates the lobby: {updated:?}");
    }
    let started = click_lobby(fake, lobby, "start", host).await;
    assert!(started.is_ok(), "start: {started:?}");
    let thread = thread_of(fake, lobby.id).await;
    assert_eq!(thread, lobby.id);
    latest_board_after(fake, thread, 0).await;
    thread
}

/// A running game started through the service (no lobby, nothing posted): `players` in seat
/// order, the first hosts, a day per turn, played in `channel` of the fake's guild.
pub async fn start_direct(
    service: &Service,
    kind: croupier::engine::GameKind,
    options: croupier::engine::GameOptions,
    players: &[(u64, &str)],
    channel: u64,
    seed: u64,
) -> GameId {
    use croupier::service::{Place, Player, StartGame};
    let id = |u: u64| i64::from_ne_bytes(u.to_ne_bytes());
    let (game, _) = service
        .lobbies()
        .start(
            StartGame {
                kind,
                options,
                players: players
                    .iter()
                    .map(|(u, n)| Player {
                        user: Some(id(*u)),
                        name: (*n).into(),
                        is_bot: false,
                    })
                    .collect(),
                seed,
                place: Place {
                    guild: Some(id(GUILD_ID)),
                    channel: Some(id(channel)),
                    thread: None,
                },
                host: players.first().map(|(u, _)| id(*u)),
                clock_secs: Some(86_400),
            },
            croupier::i18n::Lang::En,
            service.now(),
        )
        .await
        .expect("a game starts");
    game
}

/// The thread a game opened from its lobby message when it started (games may be opened side
/// by side in one channel).
pub async fn thread_of(fake: &FakeDiscord, lobby: u64) -> u64 {
    fake.wait_until("the game's thread", |st| {
        st.channels
            .values()
            .find(|c| c.from_message == Some(lobby))
            .map(|c| c.id)
    })
    .await
}

/// The newest board in `channel` with an id above `after`.
pub async fn latest_board_after(fake: &FakeDiscord, channel: u64, after: u64) -> Message {
    fake.wait_until("a new board", |st| newer_board(st, channel, after))
        .await
}

/// Clicks the first option of `board` (button, or first entry of its menu) as `user`.
pub async fn click_first_as(fake: &FakeDiscord, board: &Message, user: u64) -> Pushed {
    let id = custom_ids(&board.components)
        .into_iter()
        .find(|i| i.starts_with("g:") || i.starts_with("s:"))
        .unwrap_or_else(|| panic!("no decision on {board:?}"));
    let push = if id.starts_with("s:") {
        let menu = component(&board.components, &id).expect("menu");
        let value = menu["options"][0]["value"].as_str().expect("value");
        Push::select(board.id, &id, &[value])
    } else {
        Push::button(board.id, &id)
    };
    fake.push(push.by(user).in_channel(board.channel_id)).await
}

/// Clicks the first option of `board` as the player it mentions.
pub async fn click_first(fake: &FakeDiscord, board: &Message) -> Pushed {
    let user = mentioned(board).unwrap_or_else(|| panic!("nobody to play on {board:?}"));
    click_first_as(fake, board, user).await
}

/// The board after a click: edited in place with new buttons (same player again), or a new
/// one posted below it.
pub async fn board_after(fake: &FakeDiscord, board: &Message) -> Message {
    let old = custom_ids(&board.components);
    fake.wait_until("the board after a click", |st| {
        let m = st.message(board.id)?;
        let now = custom_ids(&m.components);
        // Either way the clicked board changes first: edited with new buttons, or stripped
        // of them before the next board is posted (only then is a scan worth it).
        if now == old {
            return None;
        }
        if !now.is_empty() {
            return Some(m.clone());
        }
        newer_board(st, board.channel_id, board.id)
    })
    .await
}

/// The newest board in `channel` above id `after`. Ids only grow, so the scan from the end
/// stops at `after` (cheap with thousands of games in the fake).
pub fn newer_board(st: &State, channel: u64, after: u64) -> Option<Message> {
    st.messages
        .iter()
        .rev()
        .take_while(|m| m.id > after)
        .find(|m| m.channel_id == channel && !m.deleted && is_board(m))
        .cloned()
}

/// `/move option:<option>` sent by `user` in `channel`.
pub async fn send_move(fake: &FakeDiscord, user: u64, channel: u64, option: &str) -> Pushed {
    fake.push(
        Push::command("move", vec![opt::string("option", option)])
            .by(user)
            .in_channel(channel),
    )
    .await
}

/// A command answered privately after a deferral (an ephemeral acknowledgement, then the
/// answer written into it); returns the answer.
pub async fn ask(fake: &FakeDiscord, user: u64, channel: u64, push: Push) -> Message {
    let cmd = fake.push(push.by(user).in_channel(channel)).await;
    let cb = fake.wait_for_callback(cmd.id).await;
    assert_eq!(cb.kind, 5, "{cb:?}");
    assert!(cb.ephemeral(), "a private answer must be ephemeral");
    answer_of(fake, cmd.id).await
}

/// What the bot answered to a deferred command, once it has written it.
pub async fn answer_of(fake: &FakeDiscord, interaction: u64) -> Message {
    fake.wait_until("the command's answer", |st| {
        let m = st.message(st.interactions.get(&interaction)?.original?)?;
        (!m.content.is_empty()).then(|| m.clone())
    })
    .await
}

/// The options of the game's current prompt, from the game itself.
pub async fn legal_options(service: &Service, game: GameId) -> Vec<String> {
    service
        .load(game)
        .await
        .expect("game")
        .game
        .prompt()
        .expect("a prompt")
        .options
}

/// Whether `board` offers the decision of `game` at `version` (a button or a menu of it).
pub fn offers_version(board: &Message, game: GameId, version: u32) -> bool {
    custom_ids(&board.components)
        .iter()
        .filter_map(|id| CustomId::decode(id))
        .any(|id| match id {
            CustomId::Choose {
                game: g,
                version: v,
                ..
            }
            | CustomId::Menu {
                game: g,
                version: v,
                ..
            }
            | CustomId::Group {
                game: g,
                version: v,
            } => g == game && v.0 == version,
            CustomId::Lobby { .. }
            | CustomId::Hand { .. }
            | CustomId::Zoom { .. }
            | CustomId::Confirm { .. }
            | CustomId::Replay { .. }
            | CustomId::Analyse { .. }
            | CustomId::Takeback { .. }
            | CustomId::Play { .. }
            | CustomId::PlayLine { .. }
            | CustomId::Rollback { .. } => false,
        })
}

/// What `/play` answered: its lobby (`Ok`), an ordinary message in the channel that the
/// private answer links to, or the private answer's refusal (`Err`). `/play` never answers in
/// public: a refusal is an edit of its private deferral (or, for a cooldown, a private reply).
pub async fn play_answer(fake: &FakeDiscord, interaction: u64) -> Result<Message, String> {
    fake.wait_until("/play's answer", |st| {
        let rec = st.interactions.get(&interaction)?;
        let cb = rec.callback.as_ref()?;
        assert!(cb.ephemeral(), "/play answers privately: {cb:?}");
        if cb.kind == 4 {
            return Some(Err(cb.content().unwrap_or_default().to_string()));
        }
        assert_eq!(cb.kind, 5, "/play defers: {cb:?}");
        assert!(rec.followups.is_empty(), "/play edits its answer: {rec:?}");
        let answer = st.message(rec.original?)?;
        if answer.content.is_empty() {
            return None;
        }
        assert!(
            answer.components.is_empty(),
            "the private answer has no buttons"
        );
        let lobby = linked_message(&answer.content).and_then(|id| st.message(id));
        Some(match lobby {
            Some(m) if !m.components.is_empty() => {
                assert!(!m.ephemeral(), "the lobby is public: {m:?}");
                Ok(m.clone())
            }
            _ => Err(answer.content.clone()),
        })
    })
    .await
}

/// The message a `https://discord.com/channels/<guild>/<channel>/<message>` link in `text`
/// points to.
pub fn linked_message(text: &str) -> Option<u64> {
    let rest = &text[text.find("https://discord.com/channels/")?..];
    let link = rest.split_whitespace().next()?;
    link.trim_end_matches(['.', ',', ')'])
        .split('/')
        .nth(6)?
        .parse()
        .ok()
}

/// `/play game:<game>` by `user` in the games channel: its lobby, or its refusal.
pub async fn play(fake: &FakeDiscord, user: u64, game: &str) -> Result<Message, String> {
    let cmd = fake
        .push(Push::command("play", vec![opt::string("game", game)]).by(user))
        .await;
    play_answer(fake, cmd.id).await
}

/// `/play game:<game> options:<options>` by `user` in the games channel: the lobby, or the
/// refusal's text.
pub async fn play_with(
    fake: &FakeDiscord,
    user: u64,
    game: &str,
    options: &str,
) -> Result<Message, String> {
    let push = Push::command(
        "play",
        vec![opt::string("game", game), opt::string("options", options)],
    );
    let cmd = fake.push(push.by(user)).await;
    play_answer(fake, cmd.id).await
}

/// The result card (`result.png`) posted in `channel`.
pub async fn result_card(fake: &FakeDiscord, channel: u64) -> Message {
    fake.wait_until("the result card", |st| {
        st.messages
            .iter()
            .find(|m| {
                m.channel_id == channel && m.attachments.iter().any(|a| a.filename == "result.png")
            })
            .cloned()
    })
    .await
}

/// A lobby button clicked by `user`: acknowledged first (a deferred update), then the lobby
/// message rewritten (`Ok`, as it now reads) or a private refusal (`Err`).
pub async fn click_lobby(
    fake: &FakeDiscord,
    lobby: &Message,
    action: &str,
    user: u64,
) -> Result<Message, String> {
    let game = custom_ids(&lobby.components)
        .first()
        .and_then(|id| id.split(':').nth(1))
        .map(str::to_string)
        .expect("a lobby button");
    let edits = fake.message(lobby.id).map_or(0, |m| m.edits);
    let p = fake
        .push(
            Push::button(lobby.id, &format!("l:{game}:{action}"))
                .by(user)
                .in_channel(lobby.channel_id),
        )
        .await;
    let cb = fake.wait_for_callback(p.id).await;
    assert_eq!(cb.kind, 6, "a lobby click is a deferred update: {cb:?}");
    fake.wait_until("the lobby click's answer", |st| {
        let rec = st.interactions.get(&p.id)?;
        if let Some(f) = rec.followups.first().and_then(|f| st.message(*f)) {
            return Some(Err(f.content.clone()));
        }
        let m = st.message(lobby.id)?;
        (m.edits > edits).then(|| Ok(m.clone()))
    })
    .await
}

/// Clicks `custom_id` on a private answer (a confirmation's button: a deferred update), then
/// waits until the answer was rewritten; returns it.
pub async fn click_private(
    fake: &FakeDiscord,
    answer: &Message,
    custom_id: &str,
    user: u64,
) -> Message {
    let edits = answer.edits;
    let p = fake
        .push(
            Push::button(answer.id, custom_id)
                .by(user)
                .in_channel(answer.channel_id),
        )
        .await;
    let cb = fake.wait_for_callback(p.id).await;
    assert_eq!(
        cb.kind, 6,
        "a confirmation click updates its message: {cb:?}"
    );
    fake.wait_until("the rewritten answer", |st| {
        let m = st.message(answer.id)?;
        (m.edits > edits).then(|| m.clone())
    })
    .await
}
