//! The gateway and time as Discord has them (issue 19, A8, A9 and Part B's sharding), end to
//! end: the real bot against the fake Discord. Automatic sharding past one shard's guilds, a
//! dropped connection resumed without missing an event, and a whole game over a network that
//! takes 150 ms each way. Every scenario ends with `finish` (every interaction answered once,
//! in time, no violation, no 429).

use std::time::Duration;

use crate::bot_play::*;
use crate::fake_discord::*;
use crate::store_db::{status, Db};
use croupier::bot::{run_with_service, BotConfig};
use croupier::secret::Token;
use croupier::service::Service;
use croupier::store::{GameStatus, Store};
use tokio::sync::oneshot;

/// The bot on a runtime of its own. After a 4011, serenity 0.12.5's shard runner reads its
/// closed socket in a loop that never waits (100% of a core) and cannot be shut down: on the
/// test's runtime it would hang the test. Here a bot that does not stop is left behind
/// (`shutdown_background`) and the test fails instead of hanging; a bot that stops cleanly
/// leaves nothing.
struct OwnRuntimeBot {
    runtime: Option<tokio::runtime::Runtime>,
    stop: Option<oneshot::Sender<()>>,
    ended: Option<oneshot::Receiver<anyhow::Result<()>>>,
}

impl OwnRuntimeBot {
    fn start(config: BotConfig, database_url: String) -> OwnRuntimeBot {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .expect("the bot's runtime");
        let (stop, stopped) = oneshot::channel::<()>();
        let (done, ended) = oneshot::channel();
        runtime.spawn(async move {
            let run = async {
                let store = Store::connect(&database_url).await?;
                run_with_service(config, Service::new(store), async {
                    stopped.await.ok();
                })
                .await
            };
            let _ = done.send(run.await);
        });
        OwnRuntimeBot {
            runtime: Some(runtime),
            stop: Some(stop),
            ended: Some(ended),
        }
    }

    /// Stops the bot: it must end cleanly within 20 s (10 s of it are the bot's own grace).
    async fn stop(mut self) {
        if let Some(tx) = self.stop.take() {
            let _ = tx.send(());
        }
        let ended = self.ended.take().expect("not stopped yet");
        match tokio::time::timeout(Duration::from_secs(20), ended).await {
            Ok(Ok(Ok(()))) => {}
            other => panic!("the bot did not stop cleanly: {other:?}"),
        }
    }
}

impl Drop for OwnRuntimeBot {
    fn drop(&mut self) {
        if let Some(runtime) = self.runtime.take() {
            runtime.shutdown_background();
        }
    }
}

/// How a bot that must start again ends (within 30 s).
async fn ends(mut bot: OwnRuntimeBot, fake: &FakeDiscord) -> croupier::bot::NeedsMoreShards {
    let ended = bot.ended.take().expect("running");
    match tokio::time::timeout(Duration::from_secs(30), ended).await {
        Ok(Ok(Err(e))) => *e
            .downcast_ref::<croupier::bot::NeedsMoreShards>()
            .unwrap_or_else(|| panic!("another error: {e:#}")),
        other => {
            let asked: Vec<String> = fake
                .requests()
                .iter()
                .map(|r| format!("{} {:?} {}", r.method, r.route, r.status))
                .collect();
            panic!("the bot did not end for its shards: {other:?}; requests: {asked:#?}")
        }
    }
}

/// Issue 37: a bot that outgrows its shard count ends, for its supervisor to start it again
/// with the count Discord recommends (`NeedsMoreShards`, exit code 75). Started automatically
/// on one shard, it asks `GET /gateway/bot` again as time goes (a day in production), finds the
/// guilds grew past one shard, and ends before a shard re-identifies into Discord's 4011.
/// (A shard already refused with 4011 starves the runtime, so nothing of this watch runs; the
/// binary ends at serenity's log of it: `a_shard_refused_with_4011_ends_the_process_...`.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_that_outgrows_its_shards_ends_to_be_started_again() {
    use croupier::bot::NeedsMoreShards;
    // One shard is enough at first; then the bot joins more guilds than one shard may hold.
    let fake = FakeDiscord::start().await;
    let db = Db::sqlite_file();
    let automatic = BotConfig {
        dev_guild: None,
        shard_watch: Duration::from_millis(200),
        shard_recount: Duration::from_secs(1),
        ..config(Token::new(TOKEN), &fake, None, None)
    };
    let bot = OwnRuntimeBot::start(automatic, db.url.clone());
    fake.wait_until("one shard connected", |st| {
        (st.sessions.iter().filter(|s| s.tx.is_some()).count() == 1).then_some(())
    })
    .await;
    fake.set_shard_guild_limit(2);
    fake.add_guilds(2);
    assert_eq!(
        ends(bot, &fake).await,
        NeedsMoreShards {
            running: 1,
            recommended: 2
        }
    );
}

/// Past one shard's guilds (the fake's limit set to 2, three guilds), the bot started without
/// `--shards` on SQLite asks `GET /gateway/bot`, starts the two shards it recommends, and
/// serves `/play` in a guild of each shard. Before: one shard, closed by Discord with 4011
/// (and serenity's runner then spun on the closed socket), no guild served.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn past_one_shards_guilds_the_bot_starts_the_recommended_shards_and_serves_them_all() {
    let fake = FakeDiscord::start().await;
    fake.set_shard_guild_limit(2);
    let extra = fake.add_guilds(2);
    let db = Db::sqlite_file();
    // Commands registered globally, as in production: every guild has them.
    let config = BotConfig {
        dev_guild: None,
        ..config(Token::new(TOKEN), &fake, None, None)
    };
    let bot = OwnRuntimeBot::start(config, db.url.clone());
    let refused = fake
        .wait_until("two shards connected, or one refused", |st| {
            let connected = st.sessions.iter().filter(|s| s.tx.is_some()).count();
            let registered = st.commands.iter().any(|c| c.guild_id.is_none());
            if !st.sharding_required.is_empty() {
                return Some(st.sharding_required.clone());
            }
            (connected == 2 && registered).then(Vec::new)
        })
        .await;
    assert!(
        refused.is_empty(),
        "Discord closed the bot's shards {refused:?} with 4011 (Sharding required): 3 guilds, \
         2 a shard"
    );
    assert_eq!(fake.connected_shards(), [[0, 2], [1, 2]]);

    let places = [(GUILD_ID, CHANNEL_ID, ALICE)].into_iter().chain(
        extra
            .iter()
            .zip([BOB, OWNER_ID])
            .map(|((g, c), u)| (*g, *c, u)),
    );
    let mut shards_served = Vec::new();
    for (guild, channel, user) in places {
        let cmd = fake
            .push(
                Push::command("play", vec![opt::string("game", "cortexcape")])
                    .by(user)
                    .in_channel(channel),
            )
            .await;
        let lobby = play_answer(&fake, cmd.id)
            .await
            .unwrap_or_else(|e| panic!("/play in guild {guild} refused: {e}"));
        assert_eq!(lobby.channel_id, channel);
        let shard = [(guild >> 22) % 2, 2];
        let rec = fake.interaction(cmd.id).expect("the interaction");
        assert_eq!(rec.delivered_to, [shard], "guild {guild}");
        shards_served.push(shard[0]);
    }
    shards_served.sort_unstable();
    shards_served.dedup();
    assert_eq!(shards_served, [0, 1], "a guild served on every shard");
    assert!(fake.sharding_required().is_empty());
    bot.stop().await;
    finish(&fake).await;
}

/// The gateway drops (no close frame) and stays away while a player clicks: Discord keeps the
/// click for the session, and the bot, resuming, gets it and plays it; no second IDENTIFY.
/// The RESUME must go to READY's `resume_gateway_url`: the fake refuses one on the connect URL
/// (op 9), as Discord may. Before (serenity 0.12.5 alone resumes on the URL it connected to):
/// refused, the bot identified again (a second IDENTIFY of the day's budget) and the click was
/// lost, never acknowledged. Now the bot hands READY's URL to serenity (`bot::ResumeUrl`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_click_sent_while_the_gateway_was_down_is_played_after_the_resume() {
    let (fake, service, bot, _db) = World::sqlite().tick(None).start().await.parts();
    let (game, thread) = start_game(&fake).await;
    let board = latest_board_after(&fake, thread, 0).await;
    let version = service.load(game).await.expect("game").record.version.0;
    let user = mentioned(&board).expect("someone decides");
    let id = custom_ids(&board.components)
        .into_iter()
        .find(|i| i.starts_with("g:"))
        .expect("a decision button");

    fake.hold_gateway();
    fake.drop_gateway();
    let click = fake.push_now(Push::button(board.id, &id).by(user).in_channel(thread));
    assert!(fake.connected_shards().is_empty(), "the session is away");
    assert!(fake
        .interaction(click.id)
        .expect("rec")
        .delivered_to
        .is_empty());
    fake.release_gateway();

    fake.wait_until("the bot back on the gateway", |st| {
        st.sessions.iter().any(|s| s.tx.is_some()).then_some(())
    })
    .await;
    assert_eq!(
        (fake.resumes_refused(), fake.identifies().len()),
        (0, 1),
        "a RESUME refused on the connect URL, then an IDENTIFY: the click is lost"
    );
    assert_eq!(fake.wait_for_callback(click.id).await.kind, 6);
    board_after(&fake, &board).await;
    assert!(service.load(game).await.expect("game").record.version.0 > version);
    assert_eq!(fake.identifies().len(), 1, "resumed, not identified again");
    assert!(fake.resumes_on_resume_url() >= 1 && fake.replayed() >= 1);
    finish(&fake).await;
    bot.stop().await;
}

/// A whole game where every REST request and gateway frame takes 150 ms each way: every
/// interaction is acknowledged within Discord's 3 s counted from its dispatch (a late one is a
/// violation, which `finish` reports), each having lost at least 300 ms on the way.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_whole_game_meets_every_deadline_with_150_ms_each_way() {
    let delay = Duration::from_millis(150);
    let (fake, service, bot, _db) = World::sqlite()
        .tick(None)
        .fake(move |fake| fake.set_network_delay(delay))
        .start()
        .await
        .parts();
    let (game, thread) = start_game(&fake).await;
    let mut board = latest_board_after(&fake, thread, 0).await;
    let mut clicks = 0;
    while status(&service, game).await == GameStatus::Active {
        assert!(clicks < 400, "the game does not end");
        let p = click_first(&fake, &board).await;
        assert_eq!(fake.wait_for_callback(p.id).await.kind, 6);
        board = board_after(&fake, &board).await;
        clicks += 1;
    }
    assert_eq!(status(&service, game).await, GameStatus::Finished);
    finish(&fake).await;
    let answered: Vec<Duration> = fake
        .wait_until("every callback", |st| {
            st.interactions
                .values()
                .map(|i| i.callback.as_ref().map(|c| c.after))
                .collect()
        })
        .await;
    assert!(answered.len() > clicks, "{} interactions", answered.len());
    assert!(
        answered.iter().all(|after| *after >= delay * 2),
        "each callback took both ways: {answered:?}"
    );
    eprintln!("{clicks} clicks, {} interactions", answered.len());
    bot.stop().await;
}

/// Issue 37: a shard Discord closes with 4011 when it identifies again (its session ended while
/// the bot outgrew its shards) ends the process with the restart code (`EXIT_NEEDS_MORE_SHARDS`,
/// 75), even with logging off. Before: serenity 0.12.5's runner spun on the closed socket and
/// starved the runtime; the process never ended (nothing of the bot's own could run to notice).
/// The real binary, on one shard (three guilds, two a shard, once it is running).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_shard_refused_with_4011_ends_the_process_with_the_restart_code() {
    use std::process::{Command, Stdio};
    let fake = FakeDiscord::start().await;
    let db = Db::sqlite_file();
    let dir = tempfile::tempdir().expect("temp dir");
    let log = dir.path().join("bot.log");
    let mut child = Command::new(env!("CARGO_BIN_EXE_croupier"))
        .arg("serve")
        .current_dir(dir.path())
        .env_clear()
        .env("DISCORD_TOKEN", TOKEN)
        .env("DISCORD_API_BASE", fake.api_base())
        .env("DISCORD_DEV_GUILD", GUILD_ID.to_string())
        .env("DATABASE_URL", &db.url)
        .env("RUST_LOG", "off")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(&log).expect("log file"))
        .spawn()
        .expect("start the croupier binary");
    wait_ready(&fake, 0).await;
    assert_eq!(fake.connected_shards(), [[0, 1]]);
    fake.set_shard_guild_limit(2);
    fake.add_guilds(2);
    // Discord ends the session: the shard identifies again and is refused with 4011.
    fake.invalidate_sessions();
    // A hang guard, not a timing check.
    let mut status = None;
    for _ in 0..300 {
        status = child.try_wait().expect("the child");
        if status.is_some() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    if status.is_none() {
        let _ = child.kill();
        let _ = child.wait();
    }
    let said = std::fs::read_to_string(&log).unwrap_or_default();
    assert_eq!(fake.sharding_required(), [[0, 1]], "{said}");
    assert_eq!(
        status.and_then(|s| s.code()),
        Some(i32::from(croupier::bot::EXIT_NEEDS_MORE_SHARDS)),
        "the process did not end with the restart code: {status:?}; stderr: {said}"
    );
    assert!(said.contains("4011"), "{said}");
}
