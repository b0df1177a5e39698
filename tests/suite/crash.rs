//! Crash safety (RELIABILITY.md): the real `croupier` binary runs as a child process against
//! the fake Discord of this process, on SQLite (and PostgreSQL with `TEST_DATABASE_URL`). A
//! game is played by `/move` interactions and the child is killed with SIGKILL at seeded
//! random moments, then started again. After every restart: every acknowledged move is in the
//! store, none twice, the snapshot equals the replay of seed + moves, and play goes on to the
//! end of the game. `CRASH_SEED=n` replays a run.

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::bot_play::*;
use crate::fake_discord::*;
use crate::store_db::{decider, moves, Db};
use croupier::engine::GameId;
use croupier::service::Service;
use croupier::store::GameStatus;

/// Kills per game: enough moments to hit every stage of a move, few enough to stay quick.
const KILLS: u32 = 6;

/// The bot binary, started fresh against the fake and the database.
struct BotProcess {
    child: Child,
}

impl BotProcess {
    async fn start(fake: &FakeDiscord, database_url: &str, dir: &std::path::Path) -> BotProcess {
        let before = fake.identifies().len();
        let log = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(dir.join("bot.log"))
            .expect("bot log");
        let child = Command::new(env!("CARGO_BIN_EXE_croupier"))
            .arg("serve")
            // No `.env` of the developer's: the environment below is all the bot gets.
            .current_dir(dir)
            .env_clear()
            .env("DISCORD_TOKEN", TOKEN)
            .env("DISCORD_API_BASE", fake.api_base())
            .env("DISCORD_DEV_GUILD", GUILD_ID.to_string())
            .env("DATABASE_URL", database_url)
            // The scheduler re-posts a board the kill kept from going out.
            .env("SCHEDULER_TICK_SECS", "1")
            // The test sends /move faster than a person: no per-member cooldown.
            .env("COMMAND_COOLDOWNS", "off")
            .env("BOARD_GRACE_SECS", "5")
            .env("RUST_LOG", "warn,croupier=info")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .expect("start the croupier binary");
        wait_ready(fake, before).await;
        BotProcess { child }
    }

    /// SIGKILL: no shutdown code runs, whatever the bot was doing.
    fn kill(mut self) {
        self.child.kill().expect("SIGKILL the bot");
        self.child.wait().expect("reap the bot");
    }
}

impl Drop for BotProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn seed() -> u64 {
    std::env::var("CRASH_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(20_261_124)
}

/// The snapshot the bot stored is exactly what seed + moves give.
async fn assert_snapshot_is_replay(service: &Service, game: GameId) {
    let stored = service.load(game).await.expect("load").game.to_json();
    let replayed = service
        .records()
        .replay(game)
        .await
        .expect("replay")
        .to_json();
    assert!(stored == replayed, "the snapshot differs from the replay");
}

async fn crash_and_resume(database_url: &str, reader: Service, label: &str) {
    let dir = tempfile::tempdir().expect("temp dir");
    let fake = FakeDiscord::start().await;
    // The binary runs with DISCORD_API_BASE: behind a REST proxy, which does the rate limiting
    // (serenity's limiter is off on that path), so the fake plays that proxy's part.
    fake.rate_limits(|r| r.on = false);
    let seed = seed();
    let mut rng = croupier::engine::GameRng::seed_from_u64(seed);
    let mut bot = BotProcess::start(&fake, database_url, dir.path()).await;
    let (game, thread) = start_game(&fake).await;
    let mut committed: Vec<(u8, String)> = moves(&reader, game).await;
    let (mut steps, mut kills, mut acknowledged) = (0, 0, 0);
    // Kills that left the move out of the store, and those that stored it unanswered.
    let (mut lost_unanswered, mut stored_unanswered) = (0, 0);
    let mut durations: Vec<Duration> = Vec::new();
    while reader.load(game).await.expect("game").record.status == GameStatus::Active {
        steps += 1;
        assert!(steps < 400, "the game does not end");
        let prompt = decider(&reader, game)
            .await
            .expect("an active game asks someone");
        let option = prompt.options[rng.gen_range(0..prompt.options.len())].clone();
        let cmd = send_move(&fake, prompt.member(), thread, &option).await;
        // A few moves first, to learn how long one takes on this machine.
        let kill_now = steps > 3 && kills < KILLS && rng.gen_bool(0.25);
        let sent = Instant::now();
        let acked = if kill_now {
            // Anywhere from before the acknowledgement to just after the answer.
            let typical = durations[durations.len() / 2];
            tokio::time::sleep(typical.mul_f64(rng.gen_range(0.0..1.2))).await;
            let acked = fake
                .wait_until("a look", |st| Some(played(st, cmd.id)))
                .await;
            bot.kill();
            kills += 1;
            bot = BotProcess::start(&fake, database_url, dir.path()).await;
            acked
        } else {
            fake.wait_until("the /move answer", |st| played(st, cmd.id).then_some(()))
                .await;
            durations.push(sent.elapsed());
            durations.sort();
            true
        };
        acknowledged += u32::from(acked);
        let now = moves(&reader, game).await;
        // Nothing lost, nothing twice: the log is the old one plus at most this move.
        assert!(
            now.len() >= committed.len() && now[..committed.len()] == committed[..],
            "{label}: step {steps}: earlier moves changed"
        );
        let added = &now[committed.len()..];
        match added {
            [] => {
                assert!(
                    !acked,
                    "{label}: step {steps}: acknowledged `{option}` is lost"
                );
                lost_unanswered += 1;
            }
            [(seat, played)] => {
                assert_eq!((*seat, played.as_str()), (prompt.seat.0, option.as_str()));
                stored_unanswered += u32::from(!acked);
            }
            more => panic!("{label}: step {steps}: `{option}` stored as {more:?}"),
        }
        assert_snapshot_is_replay(&reader, game).await;
        committed = now;
        if kill_now {
            current_board_shown(&fake, &reader, game, thread).await;
        }
    }
    // The end is shown: `/board` answers with the final board.
    let cmd = fake
        .push(
            Push::command("board", vec![opt::integer("game", game.0)])
                .by(ALICE)
                .in_channel(thread),
        )
        .await;
    let last = fake
        .wait_until("the final board", |st| {
            let m = st.message(st.interactions.get(&cmd.id)?.original?)?;
            (m.edits > 0).then(|| m.clone())
        })
        .await;
    assert!(last.content.contains("Game over"), "{}", last.content);
    assert!(kills > 0, "no kill happened: change CRASH_SEED");
    eprintln!(
        "{label}: seed {seed}: {steps} moves sent, {kills} kills ({lost_unanswered} before the \
         move was stored, {stored_unanswered} stored but unanswered, the rest after the answer), \
         {acknowledged} acknowledged, game over"
    );
    fake.assert_clean();
    bot.kill();
}

/// The thread's newest board offers the options of the game's current version (or says the
/// game is over): a board the kill kept from going out has been posted since the restart.
async fn current_board_shown(fake: &FakeDiscord, reader: &Service, game: GameId, thread: u64) {
    let loaded = reader.load(game).await.expect("game");
    let v = loaded.record.version.0;
    let active = loaded.record.status == GameStatus::Active;
    fake.wait_until("the board of the game's current version", |st| {
        let board = newer_board(st, thread, 0)?;
        let shown = if active {
            offers_version(&board, game, v)
        } else {
            board.content.contains("Game over")
        };
        shown.then_some(())
    })
    .await;
}

/// Whether the bot answered "Played" to a `/move` (only after the move is stored).
fn played(st: &State, interaction: u64) -> bool {
    st.interactions
        .get(&interaction)
        .and_then(|i| i.original)
        .and_then(|m| st.message(m))
        .is_some_and(|m| m.content == "✅ Played.")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigkill_at_random_moments_loses_nothing_on_sqlite() {
    let db = Db::sqlite_file();
    let reader = Service::new(db.connect().await);
    crash_and_resume(&db.url, reader, "sqlite").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigkill_at_random_moments_loses_nothing_on_postgres() {
    let Some(db) = Db::postgres("crash").await else {
        eprintln!("TEST_DATABASE_URL is not set: skipping the PostgreSQL crash test");
        return;
    };
    let reader = Service::new(db.connect().await);
    crash_and_resume(&db.url, reader, "postgres").await;
    db.finish().await;
}
