//! Who may do what, through the real bot against the fake Discord: host/moderator commands
//! checked against the member's Discord permissions, only the deciding seat moves, private
//! answers are ephemeral and hand DMs reach only their owner, a game is out of reach from
//! outside its server (a DM, or a player who left it), unknown locales answer in English and an
//! oversize `/move` changes nothing.

use crate::bot_play;

use crate::bot_play::World;
use crate::fake_discord::*;
use croupier::engine::{GameId, GameKind, GameOptions};
use croupier::i18n::{Lang, Text};
use croupier::service::{Actor, PlayLine, Service};
use croupier::store::GameStatus;
use serde_json::Value;

/// Send and view messages, read history, use slash commands: no Manage Threads/Channels.
const PLAIN_MEMBER: u64 = (1 << 10) | (1 << 11) | (1 << 16) | (1 << 38);
const CAROL: u64 = 7_000_000_000_000_003;

fn uid(user: u64) -> i64 {
    i64::try_from(user).unwrap()
}

async fn start_game(svc: &Service, kind: GameKind, options: GameOptions) -> GameId {
    let players = [(ALICE, "Alice"), (BOB, "Bob")];
    bot_play::start_direct(svc, kind, options, &players, CHANNEL_ID, 12).await
}

/// A command answered ephemerally after a deferral; returns the answer.
async fn ask(fake: &FakeDiscord, user: u64, channel: u64, push: Push) -> String {
    bot_play::ask(fake, user, channel, push).await.content
}

fn with_game(mut options: Vec<Value>, game: GameId) -> Vec<Value> {
    options.push(opt::integer("game", game.0));
    options
}

fn en(key: &str) -> String {
    Text::new(key).render(Lang::En)
}

/// What must not change when a command is refused.
async fn snapshot(svc: &Service, game: GameId) -> (GameStatus, u32, String, usize) {
    let l = svc.load(game).await.unwrap();
    let moves = svc.store().moves(game).await.unwrap().len();
    (l.record.status, l.record.version.0, l.game.to_json(), moves)
}

#[tokio::test]
async fn who_may_do_what() {
    let (fake, svc, bot, _db) = World::sqlite()
        .tick(None)
        .user(CAROL, "carol")
        .fake(|fake| fake.set_member_permissions(BOB, PLAIN_MEMBER))
        .start()
        .await
        .parts();

    let game = start_game(&svc, GameKind::Cortexcape, GameOptions::new()).await;
    let before = snapshot(&svc, game).await;

    // Host/moderator commands by a plain member who is not the host: refused, nothing changes.
    // (Bob's /cancel asks him to agree to cancel instead: tests/suite/fair_play.rs.)
    let not_host = en("bot.error.not_host");
    for (name, options) in [
        ("kick", vec![opt::integer("seat", 1)]),
        (
            "replace",
            vec![opt::integer("seat", 1), opt::boolean("bot", true)],
        ),
        ("clock", vec![opt::string("action", "pause")]),
    ] {
        let answer = ask(
            &fake,
            BOB,
            CHANNEL_ID,
            Push::command(name, with_game(options, game)),
        )
        .await;
        assert_eq!(answer, not_host, "/{name} by a plain member");
        assert_eq!(snapshot(&svc, game).await, before, "/{name}");
    }
    // A member who may manage threads (Carol, not seated) may pause the clock.
    let answer = ask(
        &fake,
        CAROL,
        CHANNEL_ID,
        Push::command(
            "clock",
            with_game(vec![opt::string("action", "pause")], game),
        ),
    )
    .await;
    assert_eq!(answer, en("bot.done.clock"));

    // Only the deciding seat moves: the other one is told whose turn it is.
    let prompt = svc.load(game).await.unwrap().game.prompt().unwrap();
    let (decider, waiting) = if prompt.seat.0 == 0 {
        (ALICE, BOB)
    } else {
        (BOB, ALICE)
    };
    let version = svc.load(game).await.unwrap().record.version.0;
    let line = prompt.options[0].clone();
    let answer = ask(
        &fake,
        waiting,
        CHANNEL_ID,
        Push::command("move", with_game(vec![opt::string("option", &line)], game)),
    )
    .await;
    let name = if decider == ALICE { "Alice" } else { "Bob" };
    assert_eq!(
        answer,
        format!("It is not your turn: {name} must decide now.")
    );
    // Carol has no seat: her /move and /hand are refused, privately.
    for push in [
        Push::command("move", with_game(vec![opt::string("option", &line)], game)),
        Push::command("hand", with_game(vec![], game)),
    ] {
        let answer = ask(&fake, CAROL, CHANNEL_ID, push).await;
        assert_eq!(answer, en("core.error.not_seated"));
    }

    // From a DM (as a player who left the server would be): the game is out of reach.
    let dm = fake.dm_channel(decider);
    for push in [
        Push::command("move", with_game(vec![opt::string("option", &line)], game)),
        Push::command("hand", with_game(vec![], game)),
        Push::command("board", with_game(vec![], game)),
    ] {
        let answer = ask(&fake, decider, dm, push).await;
        assert_eq!(answer, en("bot.error.other_server"));
    }
    let ac = fake
        .push(
            Push::autocomplete(
                "move",
                vec![opt::focused("option", ""), opt::integer("game", game.0)],
            )
            .by(decider)
            .in_channel(dm),
        )
        .await;
    let cb = fake.wait_for_callback(ac.id).await;
    assert_eq!(
        cb.data["choices"].as_array().map(Vec::len),
        Some(0),
        "no options offered outside the server: {cb:?}"
    );
    assert_eq!(svc.load(game).await.unwrap().record.version.0, version);

    // An unknown locale answers in English; a 10 KB line is refused whole.
    for (typed, locale) in [
        ("zz top".to_string(), "xx-YY"),
        ("x".repeat(10_240), "en-US"),
    ] {
        let answer = ask(
            &fake,
            decider,
            CHANNEL_ID,
            Push::command("move", with_game(vec![opt::string("option", &typed)], game))
                .locale(locale),
        )
        .await;
        let refused = svc
            .moves()
            .play(
                PlayLine {
                    game,
                    actor: Actor::User(uid(decider)),
                    line: typed.clone(),
                    seen: None,
                },
                Lang::En,
                svc.now(),
            )
            .await
            .map(|_| ())
            .unwrap_err();
        let expected = refused.text().render(Lang::En);
        assert!(
            answer.chars().count() <= 2000 && expected.starts_with(answer.trim_end_matches('…')),
            "{locale}: {answer:.200}"
        );
        assert_eq!(svc.load(game).await.unwrap().record.version.0, version);
    }
    // The decider's own move, from the server, works.
    let answer = ask(
        &fake,
        decider,
        CHANNEL_ID,
        Push::command("move", with_game(vec![opt::string("option", &line)], game)),
    )
    .await;
    assert_eq!(answer, en("bot.done.played"));

    // Hidden hands: each hand DM goes to its owner only, and says what that seat holds.
    let mut portal = GameOptions::new();
    portal.insert("hands".into(), "hidden".into());
    let pgame = start_game(&svc, GameKind::Portal, portal).await;
    let p = svc.load(pgame).await.unwrap().game.prompt().unwrap();
    let mover = if p.seat.0 == 0 { ALICE } else { BOB };
    ask(
        &fake,
        mover,
        CHANNEL_ID,
        Push::command(
            "move",
            with_game(vec![opt::string("option", &p.options[0])], pgame),
        ),
    )
    .await;
    let hand = ask(
        &fake,
        mover,
        CHANNEL_ID,
        Push::command("hand", with_game(vec![], pgame)),
    )
    .await;
    assert!(!hand.is_empty());
    let mut dms = 0;
    for user in [ALICE, BOB] {
        let own = svc
            .moves()
            .hand(pgame, uid(user), Lang::En)
            .await
            .unwrap()
            .expect("a hand")
            .text;
        // Messages the bot sent (answers to commands typed in the DM channel are not DMs).
        let sent: Vec<_> = fake
            .dms(user)
            .into_iter()
            .filter(|m| m.interaction_id.is_none())
            .collect();
        dms += sent.len();
        for m in sent {
            assert!(
                m.content.ends_with(&own),
                "{user}: a DM not of their own hand:\n{}\n---\n{own}",
                m.content
            );
        }
    }
    assert!(dms > 0, "no hand was sent by DM");
    assert!(fake.dms(CAROL).is_empty());

    bot.stop_clean(&fake).await;
}

/// `/play` where the bot may not post a board (a channel that denies its role Attach Files,
/// then one that hides itself from the bot's role too) is refused at once, privately, naming
/// what is missing, and opens nothing; where it may, the lobby opens.
#[tokio::test]
async fn play_is_refused_where_the_bot_cannot_post_boards() {
    use crate::fake_discord::perms::{self, Overwrite, Target};
    const NO_FILES: u64 = 1_100_000_000_000_000_060;
    let deny = |what: u64| Overwrite {
        target: Target::Role(BOT_ROLE_ID),
        allow: 0,
        deny: what,
    };
    let (fake, svc, bot, _db) = World::sqlite()
        .tick(None)
        .fake(move |fake| fake.add_channel(NO_FILES, "no-files", vec![deny(perms::ATTACH_FILES)]))
        .start()
        .await
        .parts();
    let play = |channel: u64| {
        fake.push(
            Push::command("play", vec![opt::string("game", "cortexcape")])
                .by(ALICE)
                .in_channel(channel),
        )
    };
    let cmd = play(NO_FILES).await;
    // Refused in /play's private answer (`play_answer` checks it is private).
    let refused = bot_play::play_answer(&fake, cmd.id)
        .await
        .expect_err("refused");
    assert_eq!(
        refused,
        Text::new("bot.error.bot_lacks")
            .arg("perms", "Attach Files")
            .render(Lang::En)
    );
    // Denied Send Messages as well, both are named, in the member's language.
    fake.overwrite(NO_FILES, deny(perms::ATTACH_FILES | perms::SEND_MESSAGES));
    let cmd = fake
        .push(
            Push::command("play", vec![opt::string("game", "cortexcape")])
                .by(ALICE)
                .in_channel(NO_FILES)
                .locale("fr"),
        )
        .await;
    let shown = bot_play::play_answer(&fake, cmd.id)
        .await
        .expect_err("refused");
    assert!(
        shown.contains("Joindre des fichiers") && shown.contains("Envoyer des messages"),
        "{shown}"
    );
    let opened = svc
        .store()
        .games_of_user(uid(ALICE), None, 10)
        .await
        .unwrap();
    assert!(opened.is_empty(), "nothing was stored: {opened:?}");
    // In the games channel the bot has what it needs.
    let cmd = play(CHANNEL_ID).await;
    let lobby = bot_play::play_answer(&fake, cmd.id).await.expect("a lobby");
    assert!(!lobby.ephemeral(), "{lobby:?}");
    bot.stop_clean(&fake).await;
}
