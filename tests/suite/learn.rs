//! `/learn game:<g>` (issue 41 item 3) through the fake Discord: for each of the five games a
//! lesson opens in a private thread with the learner in it, every board that asks the learner
//! carries a hint, the lesson is played by clicking (the hint's idea when it is a button) to
//! its end, which suggests `/play`. Resume and leave; the refusals (no Create Private Threads,
//! another member); lessons count nowhere (/stats, ratings, the presence count). SQLite and
//! PostgreSQL.

use std::time::Duration;

use crate::bot_play::*;
use crate::fake_discord::*;
use crate::store_db::Db;
use croupier::engine::{GameId, GameKind};
use croupier::service::Service;
use croupier::store::GameStatus;

fn signed(u: u64) -> i64 {
    i64::from_ne_bytes(u.to_ne_bytes())
}

/// A bot on `db` against the fake (its scheduler playing the bot seats), allowed private
/// threads (or not) in the games channel. Members are plain members (no Manage Threads, so a
/// private thread is theirs only when they are in it); the owner is the moderator.
async fn world(db: &Db, private_threads: bool) -> (FakeDiscord, Service, Bot) {
    let service = Service::new(db.connect().await);
    let fake = FakeDiscord::start().await;
    fake.set_everyone_permissions(perms::PLAIN_MEMBER | perms::ATTACH_FILES | perms::EMBED_LINKS);
    if private_threads {
        fake.set_bot_role_permissions(BOT_INVITE_PERMISSIONS | perms::CREATE_PRIVATE_THREADS);
    }
    let bot = Bot::start_ticking(&fake, service.clone(), Some(Duration::from_millis(50))).await;
    (fake, service, bot)
}

/// `/learn game:<kind>` by `user` in the games channel (plus `extra` options): its private
/// answer.
async fn learn(
    fake: &FakeDiscord,
    user: u64,
    kind: GameKind,
    extra: Vec<serde_json::Value>,
) -> Message {
    let mut options = vec![opt::string("game", kind.id())];
    options.extend(extra);
    ask(fake, user, CHANNEL_ID, Push::command("learn", options)).await
}

/// The channel a `<#id>` in `text` names.
fn channel_named(text: &str) -> u64 {
    let at = text
        .find("<#")
        .unwrap_or_else(|| panic!("no channel in {text}"));
    let rest = &text[at + 2..];
    rest[..rest.find('>').expect("closed")]
        .parse()
        .expect("a channel id")
}

/// The learner's running lesson of `kind`.
async fn lesson_of(service: &Service, user: u64, kind: GameKind) -> GameId {
    service
        .lessons()
        .open_lesson(signed(user), kind)
        .await
        .expect("store")
        .unwrap_or_else(|| panic!("{kind}: no lesson running"))
}

/// The newest lesson board in `thread` that asks the learner at `version` (its hint names the
/// step: version + 1). Its options are buttons or a menu of that version, or, when they are a
/// hand's or too many, not on the board at all.
async fn board_at(fake: &FakeDiscord, thread: u64, game: GameId, version: u32) -> Message {
    let step = format!("💡 **Lesson, step {} of", version + 1);
    let board = fake
        .wait_until("the learner's board", |st| {
            st.messages
                .iter()
                .rev()
                .filter(|m| m.channel_id == thread && !m.deleted && is_board(m))
                .find(|m| m.content.contains(&step))
                .cloned()
        })
        .await;
    let ids = custom_ids(&board.components);
    assert!(
        offers_version(&board, game, version) || !ids.iter().any(|i| i.starts_with("g:")),
        "{game}: the board of step {} offers another version: {ids:?}",
        version + 1
    );
    board
}

/// Waits until `game` is past `version` (a click was played) or no longer running.
async fn moved_on(service: &Service, game: GameId, version: u32) {
    for _ in 0..3000 {
        let record = service.store().game(game).await.expect("game");
        if record.version.0 > version || record.status != GameStatus::Active {
            return;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("{game}: still at version {version}");
}

/// The idea a hint names (`A good first idea: \`x\``), if any.
fn idea(text: &str) -> Option<String> {
    let at = text.find("A good first idea: `")? + "A good first idea: `".len();
    let rest = &text[at..];
    Some(rest[..rest.find('`')?].to_string())
}

/// Plays the learner's lesson in `thread` to its end by clicking: each time the learner is
/// asked, the board must carry a hint; the hint's idea is clicked when it is a button, else the
/// first option. Returns the lesson's closing message and how many boards asked the learner.
async fn play_lesson(
    fake: &FakeDiscord,
    service: &Service,
    game: GameId,
    thread: u64,
) -> (Message, usize) {
    let mut asked = 0;
    // Bounded by time, not by turns: the bot's turns take what they take on a busy machine.
    let deadline = std::time::Instant::now() + Duration::from_secs(300);
    while std::time::Instant::now() < deadline {
        let loaded = service.load(game).await.expect("game");
        let record = &loaded.record;
        if record.status != GameStatus::Active {
            break;
        }
        let Some(prompt) = loaded.game.prompt() else {
            break;
        };
        if record.seats[prompt.seat.index()].is_bot {
            tokio::time::sleep(Duration::from_millis(20)).await;
            continue;
        }
        let version = record.version.0;
        if croupier::service::past_script(record.kind, version) {
            // This board ends the lesson: shown without options.
            break;
        }
        // Found by its hint: a board that asks the learner without one is never found.
        let board = board_at(fake, thread, game, version).await;
        asked += 1;
        let chosen = idea(&board.content)
            .and_then(|idea| prompt.options.iter().position(|o| *o == idea))
            .map(|i| format!("g:{}:{}:{}", game.0, version, i))
            .filter(|id| custom_ids(&board.components).contains(id));
        match chosen {
            Some(id) => {
                fake.push(Push::button(board.id, &id).by(ALICE).in_channel(thread))
                    .await;
            }
            None if offers_version(&board, game, version) => {
                click_first_as(fake, &board, ALICE).await;
            }
            None => {
                // Options of a hidden hand: typed, as the hint says they are offered privately.
                send_move(fake, ALICE, thread, &prompt.options[0]).await;
            }
        }
        moved_on(service, game, version).await;
    }
    let end = fake
        .wait_until("the lesson's end", |st| {
            st.messages
                .iter()
                .find(|m| m.channel_id == thread && m.content.contains("Lesson over"))
                .cloned()
        })
        .await;
    (end, asked)
}

/// One game's lesson from `/learn` to its end.
async fn lesson_to_the_end(db: &Db, kind: GameKind) {
    let (fake, service, bot) = world(db, true).await;
    let answer = learn(&fake, ALICE, kind, vec![]).await;
    assert!(
        answer.content.contains("lesson is ready in"),
        "{}",
        answer.content
    );
    let thread = channel_named(&answer.content);
    let channel = fake.channel(thread).expect("the lesson's thread");
    assert_eq!(channel.kind, ChannelKind::PrivateThread);
    assert_eq!(channel.parent_id, Some(CHANNEL_ID));
    assert!(fake.thread_members(thread).contains(&ALICE));
    assert!(fake.can_view(ALICE, thread));
    assert!(!fake.can_view(BOB, thread), "a lesson is private");
    let game = lesson_of(&service, ALICE, kind).await;
    // The first board opens the lesson with its intro and the first hint.
    let first = board_at(&fake, thread, game, 0).await;
    assert!(first.content.contains("🎓 **Your"), "{}", first.content);
    assert!(
        first.content.contains("💡 **Lesson, step 1 of"),
        "{}",
        first.content
    );

    let (end, asked) = play_lesson(&fake, &service, game, thread).await;
    assert!(asked >= 3, "{kind}: the learner was asked {asked} times");
    assert!(end.content.contains("play"), "{}", end.content);
    assert!(
        end.content.contains(&format!("`game:{}`", kind.id())),
        "{}",
        end.content
    );
    let record = service.store().game(game).await.expect("game");
    assert_ne!(
        record.status,
        GameStatus::Active,
        "{kind}: the lesson is over"
    );
    // Its thread leaves the server's active threads after the grace, whether the game or the
    // script ended it (Discord caps a server's active threads).
    let jobs = service.store().jobs_for_game(game).await.expect("jobs");
    assert!(
        jobs.iter()
            .any(|j| j.kind == croupier::model::JobKind::Archive),
        "{kind}: the thread's archive is planned: {jobs:?}"
    );
    // No result card, no rematch: a lesson never counts.
    assert!(fake
        .messages(thread)
        .iter()
        .all(|m| m.attachments.iter().all(|a| a.filename != "result.png")));
    fake.assert_clean();
    bot.stop().await;
}

async fn portal(db: &Db) {
    lesson_to_the_end(db, GameKind::Portal).await;
}
async fn vortex(db: &Db) {
    lesson_to_the_end(db, GameKind::Vortex).await;
}
async fn spacelab(db: &Db) {
    lesson_to_the_end(db, GameKind::SpaceLab).await;
}
async fn cortexcape(db: &Db) {
    lesson_to_the_end(db, GameKind::Cortexcape).await;
}

/// Gates of Delirium's lesson plays to the game's own end; then nothing of it counts:
/// /stats, the server's figures, the ratings and the running games' count are as before.
async fn gates_to_the_end_counts_nowhere(db: &Db) {
    let (fake, service, bot) = world(db, true).await;
    let guild = Some(signed(GUILD_ID));
    let before = ask(&fake, ALICE, CHANNEL_ID, Push::command("stats", vec![])).await;
    assert!(
        before.content.starts_with("No rated game here yet"),
        "{}",
        before.content
    );

    let answer = learn(&fake, ALICE, GameKind::Gates, vec![]).await;
    let thread = channel_named(&answer.content);
    let game = lesson_of(&service, ALICE, GameKind::Gates).await;
    // A running lesson is no running game for the presence.
    assert!(service
        .store()
        .live_games_by_kind()
        .await
        .expect("store")
        .is_empty());
    let (end, asked) = play_lesson(&fake, &service, game, thread).await;
    assert!(asked >= 3, "the learner was asked {asked} times");
    assert!(
        end.content.contains("The game came to its end"),
        "{}",
        end.content
    );
    let record = service.store().game(game).await.expect("game");
    assert_eq!(record.status, GameStatus::Finished);
    assert!(record.lesson);

    let after = ask(&fake, ALICE, CHANNEL_ID, Push::command("stats", vec![])).await;
    assert_eq!(
        after.content, before.content,
        "a lesson shows nowhere in /stats"
    );
    let store = service.store();
    assert!(store
        .stats(signed(GUILD_ID))
        .await
        .expect("stats")
        .is_empty());
    assert!(store
        .ratings_of_kind(guild, GameKind::Gates)
        .await
        .expect("ratings")
        .is_empty());
    assert!(store
        .rating_changes_of_game(game)
        .await
        .expect("changes")
        .is_empty());
    assert!(store
        .seated_games_with_moves(guild, signed(ALICE), 50)
        .await
        .expect("profile")
        .is_empty());
    // Nor in her reliability: a lesson is no game played.
    let conduct = store.conduct(signed(ALICE), 0).await.expect("conduct");
    assert_eq!(conduct, Default::default(), "{conduct:?}");
    let profile = ask(
        &fake,
        ALICE,
        CHANNEL_ID,
        Push::command("stats", vec![opt::user("user", ALICE)]),
    )
    .await;
    assert!(!profile.content.contains("Gates"), "{}", profile.content);
    fake.assert_clean();
    bot.stop().await;
}

/// A step played, `/learn` again resumes at the same step (the board posted again in the
/// thread); `leave:True` closes it, and /stats shows nothing.
async fn resume_and_leave(db: &Db) {
    let (fake, service, bot) = world(db, true).await;
    let kind = GameKind::Vortex;
    let answer = learn(&fake, ALICE, kind, vec![]).await;
    let thread = channel_named(&answer.content);
    let game = lesson_of(&service, ALICE, kind).await;
    let first = board_at(&fake, thread, game, 0).await;
    click_first_as(&fake, &first, ALICE).await;
    moved_on(&service, game, 0).await;
    // Wait for the learner's turn again (the bot may have played).
    let mut version = 0;
    for _ in 0..3000 {
        let loaded = service.load(game).await.expect("game");
        let p = loaded.game.prompt().expect("running");
        if !loaded.record.seats[p.seat.index()].is_bot {
            version = loaded.record.version.0;
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(version >= 1);
    let live = board_at(&fake, thread, game, version).await;

    let again = learn(&fake, ALICE, kind, vec![]).await;
    assert!(again.content.contains("goes on in"), "{}", again.content);
    assert_eq!(channel_named(&again.content), thread);
    assert_eq!(
        lesson_of(&service, ALICE, kind).await,
        game,
        "the same lesson"
    );
    let reposted = fake
        .wait_until("the board posted again", |st| {
            st.messages
                .iter()
                .rev()
                .find(|m| m.channel_id == thread && m.id > live.id && is_board(m))
                .cloned()
        })
        .await;
    assert!(offers_version(&reposted, game, version), "the same step");
    assert!(
        reposted.content.contains("💡 **Lesson, step"),
        "{}",
        reposted.content
    );
    assert_eq!(
        service.store().game(game).await.expect("game").version.0,
        version
    );

    let left = learn(&fake, ALICE, kind, vec![opt::boolean("leave", true)]).await;
    assert!(
        left.content.contains("lesson is closed"),
        "{}",
        left.content
    );
    let record = service.store().game(game).await.expect("game");
    assert_eq!(record.status, GameStatus::Cancelled);
    // Leaving a lesson is no game abandoned.
    let conduct = service
        .store()
        .conduct(signed(ALICE), 0)
        .await
        .expect("conduct");
    assert_eq!(conduct, Default::default(), "{conduct:?}");
    fake.wait_until("the word in the thread", |st| {
        st.messages
            .iter()
            .find(|m| m.channel_id == thread && m.content.contains("The lesson was left"))
            .map(|_| ())
    })
    .await;
    // And the thread is archived: left lessons do not fill the server's active threads.
    fake.wait_until("the left lesson's thread archived", |st| {
        st.channels.get(&thread).filter(|c| c.archived).map(|_| ())
    })
    .await;
    // Nothing to leave any more; nothing in /stats.
    let none = learn(&fake, ALICE, kind, vec![opt::boolean("leave", true)]).await;
    assert!(
        none.content.contains("no Vortex lesson running"),
        "{}",
        none.content
    );
    let stats = ask(&fake, ALICE, CHANNEL_ID, Push::command("stats", vec![])).await;
    assert!(
        stats.content.starts_with("No rated game here yet"),
        "{}",
        stats.content
    );
    assert!(service
        .store()
        .stats(signed(GUILD_ID))
        .await
        .expect("stats")
        .is_empty());
    fake.assert_clean();
    bot.stop().await;
}

/// Without Create Private Threads the learner is told so, and nothing is stored; another
/// member cannot see a lesson's thread, and a moderator who can is not seated in it.
async fn refusals(db: &Db) {
    let (fake, service, bot) = world(db, false).await;
    let kind = GameKind::Cortexcape;
    let answer = learn(&fake, ALICE, kind, vec![]).await;
    assert!(
        answer.content.contains("Create Private Threads"),
        "{}",
        answer.content
    );
    assert!(service
        .lessons()
        .open_lesson(signed(ALICE), kind)
        .await
        .expect("store")
        .is_none());
    assert!(fake.threads().is_empty(), "no thread was made");
    let _ = fake.take_violations();

    fake.set_bot_role_permissions(BOT_INVITE_PERMISSIONS | perms::CREATE_PRIVATE_THREADS);
    let answer = learn(&fake, ALICE, kind, vec![]).await;
    let thread = channel_named(&answer.content);
    let game = lesson_of(&service, ALICE, kind).await;
    let board = board_at(&fake, thread, game, 0).await;
    let id = custom_ids(&board.components)
        .into_iter()
        .find(|i| i.starts_with("g:") || i.starts_with("s:"))
        .expect("options");
    // Bob does not see the thread: his client cannot click there.
    let bob = fake
        .try_push(Push::button(board.id, &id).by(BOB).in_channel(thread))
        .await;
    assert!(bob.is_err(), "Bob cannot see the lesson");
    // The owner (a moderator) sees it, but is not the learner: refused, nothing played.
    let owner = fake
        .push(Push::button(board.id, &id).by(OWNER_ID).in_channel(thread))
        .await;
    fake.wait_for_callback(owner.id).await;
    let refusal = fake
        .wait_until("the refusal", |st| {
            let rec = st.interactions.get(&owner.id)?;
            let f = rec.followups.first()?;
            st.message(*f).cloned()
        })
        .await;
    assert!(refusal.ephemeral(), "{refusal:?}");
    assert_eq!(service.store().game(game).await.expect("game").version.0, 0);
    // `/learn` inside a thread is refused kindly.
    let inside = ask(
        &fake,
        ALICE,
        thread,
        Push::command("learn", vec![opt::string("game", "vortex")]),
    )
    .await;
    assert!(
        inside.content.contains("not in a thread"),
        "{}",
        inside.content
    );
    bot.stop().await;
}

on_backends!(portal);
on_backends!(vortex);
on_backends!(gates_to_the_end_counts_nowhere);
on_backends!(spacelab);
on_backends!(cortexcape);
on_backends!(resume_and_leave);
on_backends!(refusals);
