//! Proves the fake Discord with serenity's own client (no bot code): REST calls to
//! `https://discord.com` answered by the fake, serenity's rate limiter on, a gateway `Client` that gets READY and an
//! interaction, and the violations the fake must catch.

use crate::fake_discord::*;
use serde_json::json;
use serenity::all::{
    ChannelId, ChannelType, Command, CommandOptionType, ComponentInteractionDataKind, Context,
    CreateActionRow, CreateAttachment, CreateAutocompleteResponse, CreateButton, CreateCommand,
    CreateCommandOption, CreateEmbed, CreateInteractionResponse, CreateInteractionResponseFollowup,
    CreateInteractionResponseMessage, CreateMessage, CreateSelectMenu, CreateSelectMenuKind,
    CreateSelectMenuOption, CreateThread, EditInteractionResponse, EditMessage, EventHandler,
    GatewayIntents, GetMessages, GuildId, Interaction, InteractionId, Ready, ResolvedValue, UserId,
};
use serenity::builder::Builder as _;
use serenity::http::{HttpError, LightMethod, Request, Route};
use std::io::Cursor;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::sync::mpsc;

/// A small valid PNG.
fn png(width: u32, height: u32) -> Vec<u8> {
    let img = image::RgbaImage::from_pixel(width, height, image::Rgba([200, 30, 30, 255]));
    let mut out = Cursor::new(Vec::new());
    img.write_to(&mut out, image::ImageFormat::Png)
        .expect("encode PNG");
    out.into_inner()
}

/// The Discord error code inside a serenity error, if it is an unsuccessful request.
fn discord_error(e: &serenity::Error) -> Option<(u16, isize, String)> {
    match e {
        serenity::Error::Http(HttpError::UnsuccessfulRequest(r)) => Some((
            r.status_code.as_u16(),
            r.error.code,
            r.error.message.clone(),
        )),
        _ => None,
    }
}

/// Every request reached the fake, as `discord.com` over its TLS port (the client resolves the
/// name to loopback and trusts only the fake's test authority).
fn assert_all_local(fake: &FakeDiscord, expected_requests: usize) {
    let requests = fake.requests();
    assert_eq!(requests.len(), expected_requests, "{requests:#?}");
    assert!(
        requests
            .iter()
            .all(|r| r.host == "discord.com" && r.uri.starts_with("/api/v10/")),
        "{requests:#?}"
    );
}

#[tokio::test]
async fn message_with_embed_components_and_png_attachment() {
    let fake = FakeDiscord::start().await;
    let http = fake.http();
    assert!(
        http.proxy.is_none(),
        "serenity's own URLs, its rate limiter on"
    );
    let board = png(6, 4);
    let sent = ChannelId::new(CHANNEL_ID)
        .send_message(
            &http,
            CreateMessage::new()
                .content("Game 1: Alice to play")
                .embed(CreateEmbed::new().title("Cortexcape").description("Turn 3"))
                .components(vec![CreateActionRow::Buttons(vec![
                    CreateButton::new("join:1").label("Join"),
                    CreateButton::new("leave:1").label("Leave"),
                ])])
                .add_file(CreateAttachment::bytes(board.clone(), "board.png")),
        )
        .await
        .expect("send message");
    assert_eq!(sent.content, "Game 1: Alice to play");
    assert_eq!(sent.attachments.len(), 1);
    assert_eq!(sent.attachments[0].filename, "board.png");
    assert_eq!(sent.attachments[0].size as usize, board.len());
    assert_eq!(
        (sent.attachments[0].width, sent.attachments[0].height),
        (Some(6), Some(4))
    );
    assert_eq!(sent.embeds[0].title.as_deref(), Some("Cortexcape"));
    assert_eq!(sent.components[0].components.len(), 2);

    let stored = fake.messages(CHANNEL_ID);
    assert_eq!(stored.len(), 1);
    assert_eq!(stored[0].attachments[0].bytes, board);
    assert_eq!(
        stored[0].attachments[0].content_type.as_deref(),
        Some("image/png")
    );
    assert_eq!(
        stored[0].components[0]["components"][1]["custom_id"],
        "leave:1"
    );
    assert_eq!(stored[0].embeds[0]["description"], "Turn 3");

    // Editing keeps the attachment and replaces the content; the message reads back the same.
    let edited = ChannelId::new(CHANNEL_ID)
        .edit_message(
            &http,
            sent.id,
            EditMessage::new().content("Game 1: Bob to play"),
        )
        .await
        .expect("edit message");
    assert_eq!(edited.content, "Game 1: Bob to play");
    let read = ChannelId::new(CHANNEL_ID)
        .message(&http, sent.id)
        .await
        .expect("get message");
    assert_eq!(read.attachments.len(), 1);
    assert!(read.edited_timestamp.is_some());
    ChannelId::new(CHANNEL_ID)
        .broadcast_typing(&http)
        .await
        .expect("typing");
    let channel = ChannelId::new(CHANNEL_ID)
        .to_channel(&http)
        .await
        .expect("get channel");
    assert_eq!(channel.guild().map(|g| g.name), Some("games".to_string()));
    let member = GuildId::new(GUILD_ID)
        .member(&http, UserId::new(ALICE))
        .await
        .expect("get member");
    assert_eq!(member.user.name, "alice");

    let listed = ChannelId::new(CHANNEL_ID)
        .messages(&http, GetMessages::new().limit(10))
        .await
        .expect("list messages");
    assert_eq!(listed.iter().map(|m| m.id).collect::<Vec<_>>(), [sent.id]);

    assert_all_local(&fake, 7);
    fake.assert_clean();
}

#[tokio::test]
async fn dms_open_and_closed() {
    let fake = FakeDiscord::start().await;
    let http = fake.http();
    let dm = UserId::new(ALICE)
        .create_dm_channel(&http)
        .await
        .expect("open DM");
    assert_eq!(dm.recipient.id.get(), ALICE);
    dm.id
        .say(&http, "Your turn in game 1")
        .await
        .expect("send DM");
    assert_eq!(
        fake.dms(ALICE)
            .iter()
            .map(|m| m.content.as_str())
            .collect::<Vec<_>>(),
        ["Your turn in game 1"]
    );

    fake.close_dms(BOB);
    let closed = UserId::new(BOB)
        .create_dm_channel(&http)
        .await
        .expect("opening still works");
    let err = closed
        .id
        .say(&http, "Your turn")
        .await
        .expect_err("closed DMs refuse");
    assert_eq!(
        discord_error(&err),
        Some((403, 50007, "Cannot send messages to this user".to_string()))
    );
    assert!(fake.dms(BOB).is_empty());
    // Refused DMs are the bot's to handle, not a violation.
    assert_all_local(&fake, 4);
    fake.assert_clean();
}

#[tokio::test]
async fn interaction_deferred_then_edited_followed_up_and_threaded() {
    let fake = FakeDiscord::start().await;
    let http = fake.http();
    let pushed = fake.register_interaction(Push::command(
        "play",
        vec![opt::string("game", "cortexcape")],
    ));
    let ctx = (InteractionId::new(pushed.id), pushed.token.as_str());
    CreateInteractionResponse::Defer(CreateInteractionResponseMessage::new().ephemeral(true))
        .execute(&http, ctx)
        .await
        .expect("defer");
    let thinking = fake
        .original_response(pushed.id)
        .expect("deferred original");
    assert_eq!((thinking.flags, thinking.content.as_str()), (64 | 128, ""));

    let board = png(3, 3);
    let original = EditInteractionResponse::new()
        .content("Game 7 created")
        .new_attachment(CreateAttachment::bytes(board.clone(), "board.png"))
        .execute(&http, &pushed.token)
        .await
        .expect("edit original");
    assert_eq!(original.content, "Game 7 created");
    let stored = fake.original_response(pushed.id).expect("original");
    assert_eq!(
        (stored.flags, stored.content.as_str()),
        (64, "Game 7 created")
    );
    assert_eq!(stored.attachments[0].bytes, board);

    let follow = CreateInteractionResponseFollowup::new()
        .content("Invite sent")
        .execute(&http, (None, &pushed.token))
        .await
        .expect("follow-up");
    assert_eq!(
        fake.followups(pushed.id)
            .iter()
            .map(|m| m.id)
            .collect::<Vec<_>>(),
        [follow.id.get()]
    );
    http.delete_followup_message(&pushed.token, follow.id)
        .await
        .expect("delete follow-up");
    assert!(fake.followups(pushed.id).is_empty());

    let callback = fake
        .interaction(pushed.id)
        .and_then(|i| i.callback)
        .expect("callback");
    assert_eq!((callback.kind, callback.ephemeral()), (5, true));

    // Threads: one from a channel message, one private.
    let msg = ChannelId::new(CHANNEL_ID)
        .say(&http, "Game 7")
        .await
        .expect("message");
    let public = ChannelId::new(CHANNEL_ID)
        .create_thread_from_message(&http, msg.id, CreateThread::new("game-7"))
        .await
        .expect("thread from message");
    assert_eq!(
        (public.id.get(), public.kind),
        (msg.id.get(), ChannelType::PublicThread)
    );
    // A private thread needs Create Private Threads, which the invite does not give (the
    // fake's `@everyone` does: narrowed to a plain member's rights here).
    fake.set_everyone_permissions(perms::PLAIN_MEMBER);
    let secret = || CreateThread::new("game-7-secret").kind(ChannelType::PrivateThread);
    let refused = ChannelId::new(CHANNEL_ID)
        .create_thread(&http, secret())
        .await
        .expect_err("no Create Private Threads");
    assert_eq!(
        discord_error(&refused).map(|(status, code, _)| (status, code)),
        Some((403, 50013))
    );
    fake.set_bot_role_permissions(BOT_INVITE_PERMISSIONS | perms::CREATE_PRIVATE_THREADS);
    let private = ChannelId::new(CHANNEL_ID)
        .create_thread(&http, secret())
        .await
        .expect("private thread");
    assert_eq!(private.kind, ChannelType::PrivateThread);
    // Seen by its members (the bot made it) and moderators only.
    assert_eq!(fake.thread_members(private.id.get()), [BOT_USER_ID]);
    assert!(!fake.can_view(ALICE, private.id.get()));
    assert!(fake.can_view(ALICE, public.id.get()));
    let names: Vec<String> = fake.threads().into_iter().map(|t| t.name).collect();
    assert_eq!(names, ["game-7", "game-7-secret"]);
    public
        .id
        .say(&http, "Moves go here")
        .await
        .expect("post in thread");
    assert_eq!(fake.messages(public.id.get())[0].content, "Moves go here");
    fake.assert_clean();
}

/// A bot in miniature: answers `/play` with a button, the button by updating the message, and
/// autocomplete with one choice.
struct Handler {
    events: mpsc::UnboundedSender<String>,
}

#[serenity::async_trait]
impl EventHandler for Handler {
    async fn ready(&self, _ctx: Context, ready: Ready) {
        let _ = self
            .events
            .send(format!("ready {} {}", ready.user.name, ready.guilds.len()));
    }

    async fn interaction_create(&self, ctx: Context, interaction: Interaction) {
        let result = match &interaction {
            Interaction::Command(cmd) => {
                let game = cmd
                    .data
                    .options
                    .first()
                    .and_then(|o| o.value.as_str())
                    .unwrap_or("?");
                let text = format!("{} {game} ({})", cmd.data.name, cmd.locale);
                let row = CreateActionRow::Buttons(vec![CreateButton::new("join:7").label("Join")]);
                let colours = vec![
                    CreateSelectMenuOption::new("Red", "red"),
                    CreateSelectMenuOption::new("Blue", "blue"),
                ];
                let menu = CreateSelectMenu::new(
                    "colour:7",
                    CreateSelectMenuKind::String { options: colours },
                );
                let rows = vec![row, CreateActionRow::SelectMenu(menu)];
                let reply = CreateInteractionResponseMessage::new()
                    .content(text)
                    .components(rows);
                cmd.create_response(&ctx.http, CreateInteractionResponse::Message(reply))
                    .await
            }
            Interaction::Component(c) => {
                let picked = match &c.data.kind {
                    ComponentInteractionDataKind::StringSelect { values } => values.join(","),
                    _ => c.data.custom_id.clone(),
                };
                let text = format!("{} picked {picked}", c.user.name);
                let reply = CreateInteractionResponseMessage::new().content(text);
                c.create_response(&ctx.http, CreateInteractionResponse::UpdateMessage(reply))
                    .await
            }
            Interaction::Autocomplete(a) => {
                let choices =
                    CreateAutocompleteResponse::new().add_string_choice("Cortexcape", "cortexcape");
                a.create_response(&ctx.http, CreateInteractionResponse::Autocomplete(choices))
                    .await
            }
            _ => Ok(()),
        };
        let _ = self.events.send(format!("answered {}", result.is_ok()));
    }
}

/// The handler's next report; a hang guard shows the fake's violations instead of hanging.
async fn next_event(
    fake: &FakeDiscord,
    events: &mut mpsc::UnboundedReceiver<String>,
) -> Option<String> {
    match tokio::time::timeout(Duration::from_secs(10), events.recv()).await {
        Ok(e) => e,
        Err(_) => panic!(
            "the client handler reported nothing; violations: {:#?}",
            fake.violations()
        ),
    }
}

#[tokio::test]
async fn serenity_client_gets_ready_and_answers_pushed_interactions() {
    let fake = FakeDiscord::start().await;
    let (tx, mut events) = mpsc::unbounded_channel();
    let mut client =
        serenity::client::ClientBuilder::new_with_http(fake.http(), GatewayIntents::GUILDS)
            .event_handler(Handler { events: tx })
            .await
            .expect("client");
    let shards = client.shard_manager.clone();
    tokio::spawn(async move { client.start().await });

    assert_eq!(
        next_event(&fake, &mut events).await.as_deref(),
        Some("ready Croupier 1")
    );
    assert_eq!(
        fake.identifies()[0]["token"]
            .as_str()
            .map(|t| t.trim_start_matches("Bot ")),
        Some(TOKEN)
    );

    let cmd = fake
        .push(Push::command("play", vec![opt::string("game", "cortexcape")]).locale("fr"))
        .await;
    assert_eq!(
        next_event(&fake, &mut events).await.as_deref(),
        Some("answered true")
    );
    let answer = fake.wait_for_callback(cmd.id).await;
    assert_eq!(
        (answer.kind, answer.content()),
        (4, Some("play cortexcape (fr)"))
    );
    let message = fake.original_response(cmd.id).expect("original response");

    let click = fake.push(Push::button(message.id, "join:7").by(BOB)).await;
    assert_eq!(
        next_event(&fake, &mut events).await.as_deref(),
        Some("answered true")
    );
    assert_eq!(fake.wait_for_callback(click.id).await.kind, 7);
    assert_eq!(
        fake.message(message.id).map(|m| m.content),
        Some("bob picked join:7".to_string())
    );

    let typed = fake
        .push(Push::autocomplete(
            "play",
            vec![opt::focused("game", "cor")],
        ))
        .await;
    assert_eq!(
        next_event(&fake, &mut events).await.as_deref(),
        Some("answered true")
    );
    let choices = fake.wait_for_callback(typed.id).await;
    assert_eq!(
        choices.data["choices"],
        json!([{"name": "Cortexcape", "value": "cortexcape"}])
    );

    // op 7 RECONNECT: bare serenity 0.12.5 resumes on the connect URL (it never reads
    // READY's `resume_gateway_url`), is refused (op 9), identifies again and keeps receiving.
    fake.ask_reconnect();
    fake.wait_until("a second session after a refused resume", |st| {
        let refused = st.sessions.iter().map(|s| s.resumes_refused).sum::<u32>();
        (refused == 1 && st.sessions.len() == 2 && st.sessions[1].tx.is_some()).then_some(())
    })
    .await;
    assert_eq!(
        next_event(&fake, &mut events).await.as_deref(),
        Some("ready Croupier 1"),
        "a new session: READY again"
    );
    let pick = fake
        .push(Push::select(message.id, "colour:7", &["blue"]))
        .await;
    assert_eq!(
        next_event(&fake, &mut events).await.as_deref(),
        Some("answered true")
    );
    assert_eq!(
        fake.wait_for_callback(pick.id).await.content(),
        Some("alice picked blue")
    );
    assert_eq!(fake.identifies().len(), 2);
    assert_eq!(fake.resumes(), 0);

    shards.shutdown_all().await;
    let requests: Vec<String> = fake
        .requests()
        .iter()
        .map(|r| format!("{} {}", r.method, r.route.clone().unwrap_or_default()))
        .collect();
    assert_eq!(requests[0], "GET /gateway");
    fake.assert_clean();
}

#[tokio::test]
async fn violations_are_caught_with_route_and_pointer() {
    let fake = FakeDiscord::start().await;
    let http = fake.http();
    let channel = ChannelId::new(CHANNEL_ID);

    // Raw bodies: serenity's builders would refuse some of these before sending.
    let long = "x".repeat(2001);
    let err = http
        .send_message(channel, vec![], &json!({"content": long}))
        .await;
    assert!(
        err.is_ok(),
        "within the spec's 4000, so Discord's 2000 limit is the fake's check"
    );
    let id = "c".repeat(101);
    let row = json!([{"type": 1, "components": [{"type": 2, "style": 1, "label": "Go", "custom_id": id}]}]);
    let err = http
        .send_message(
            channel,
            vec![],
            &json!({"content": "hi", "components": row}),
        )
        .await
        .expect_err("schema");
    assert_eq!(discord_error(&err).map(|e| e.1), Some(50035));
    let six: Vec<_> = (0..6)
        .map(|i| json!({"type": 2, "style": 1, "label": "b", "custom_id": format!("b{i}")}))
        .collect();
    let _ = http
        .send_message(
            channel,
            vec![],
            &json!({"components": [{"type": 1, "components": six}]}),
        )
        .await;
    let err = http
        .send_message(channel, vec![], &json!({"content": 5}))
        .await
        .expect_err("type");
    assert_eq!(discord_error(&err).map(|e| e.0), Some(400));
    let broken = CreateAttachment::bytes(b"not a png".to_vec(), "board.png");
    http.send_message(channel, vec![broken], &json!({"content": "board"}))
        .await
        .expect("sent");
    let huge = CreateAttachment::bytes(vec![0; 10 * 1024 * 1024 + 1], "replay.bin");
    http.send_message(channel, vec![huge], &json!({"content": "replay"}))
        .await
        .expect("sent");

    // One acknowledgement per interaction.
    let once = fake.register_interaction(Push::command("play", vec![]));
    let reply =
        CreateInteractionResponse::Message(CreateInteractionResponseMessage::new().content("ok"));
    http.create_interaction_response(InteractionId::new(once.id), &once.token, &reply, vec![])
        .await
        .expect("first");
    let err = http
        .create_interaction_response(InteractionId::new(once.id), &once.token, &reply, vec![])
        .await
        .expect_err("second");
    assert_eq!(
        discord_error(&err),
        Some((
            400,
            40060,
            "Interaction has already been acknowledged.".to_string()
        ))
    );

    // Late: with a zero deadline every acknowledgement is late.
    fake.set_ack_deadline(Duration::ZERO);
    let late = fake.register_interaction(Push::command("play", vec![]));
    let err = http
        .create_interaction_response(InteractionId::new(late.id), &late.token, &reply, vec![])
        .await
        .expect_err("late");
    assert_eq!(
        discord_error(&err),
        Some((404, 10062, "Unknown interaction".to_string()))
    );

    // A route Discord does not have.
    let bogus = Request::new(
        Route::Channel {
            channel_id: channel,
        },
        LightMethod::Put,
    );
    let err = http.request(bogus).await.expect_err("no such method");
    assert_eq!(discord_error(&err).map(|e| e.0), Some(405));

    let violations = fake.violations();
    let summary: Vec<(String, String)> = violations
        .iter()
        .map(|v| (v.route.clone(), v.pointer.clone()))
        .collect();
    let post = "POST /channels/{channel_id}/messages".to_string();
    let callback = "POST /interactions/{interaction_id}/{interaction_token}/callback".to_string();
    assert_eq!(
        summary,
        vec![
            (post.clone(), "/content".to_string()),
            (
                post.clone(),
                "/components/0/components/0/custom_id".to_string()
            ),
            (post.clone(), "/components/0/components".to_string()),
            (post.clone(), "/content".to_string()),
            (post.clone(), "files[0]".to_string()),
            (post.clone(), "files[0]".to_string()),
            (callback.clone(), String::new()),
            (callback, String::new()),
            (format!("PUT /api/v10/channels/{CHANNEL_ID}"), String::new()),
        ],
        "{violations:#?}"
    );
    assert_eq!(
        violations[0].message,
        "content of 2001 characters, at most 2000"
    );
    assert_eq!(violations[5].message, "10485761 bytes, at most 10485760");
    assert_eq!(
        violations[6].message,
        "second acknowledgement of the same interaction"
    );
    assert!(
        violations[7].message.starts_with("acknowledged after "),
        "{}",
        violations[7].message
    );

    let report =
        catch_unwind(AssertUnwindSafe(|| fake.assert_clean())).expect_err("assert_clean must fail");
    let text = report.downcast_ref::<String>().cloned().unwrap_or_default();
    assert!(
        text.starts_with("fake Discord saw 9 violation(s):"),
        "{text}"
    );
    assert!(text.contains("custom_id"), "{text}");
}

#[tokio::test]
async fn startup_registers_commands_like_poise() {
    let fake = FakeDiscord::start().await;
    let http = fake.http();
    let app = http
        .get_current_application_info()
        .await
        .expect("application info");
    assert_eq!(app.id.get(), APPLICATION_ID);
    assert_eq!(app.owner.map(|o| o.id.get()), Some(OWNER_ID));

    let game = CreateCommandOption::new(CommandOptionType::String, "game", "Which game")
        .required(true)
        .set_autocomplete(true);
    let opponent = CreateCommandOption::new(CommandOptionType::User, "opponent", "Who to play");
    let play = CreateCommand::new("play")
        .description("Start a game")
        .name_localized("fr", "jouer")
        .description_localized("fr", "Lancer une partie")
        .add_option(game)
        .add_option(opponent);
    let which = CreateCommandOption::new(CommandOptionType::String, "game", "Which game")
        .add_string_choice("Cortexcape", "cortexcape");
    let rules = CreateCommand::new("rules")
        .description("Read the rules")
        .add_option(which);
    let global = Command::set_global_commands(&http, vec![play, rules])
        .await
        .expect("global commands");
    assert_eq!(
        global.iter().map(|c| c.name.as_str()).collect::<Vec<_>>(),
        ["play", "rules"]
    );
    let admin = CreateCommand::new("admin").description("Admin tools");
    let guild = GuildId::new(GUILD_ID)
        .set_commands(&http, vec![admin])
        .await
        .expect("guild commands");
    assert_eq!(guild[0].guild_id.map(|g| g.get()), Some(GUILD_ID));
    assert_eq!(fake.commands(None)[0]["name_localizations"]["fr"], "jouer");
    assert_eq!(fake.commands(Some(GUILD_ID)).len(), 1);
    assert_eq!(
        Command::get_global_commands(&http)
            .await
            .expect("list")
            .len(),
        2
    );

    // A pushed command carries the registered id and resolves its user option.
    let options = vec![
        opt::string("game", "cortexcape"),
        opt::user("opponent", BOB),
    ];
    let pushed = fake.register_interaction(Push::command("play", options).locale("fr"));
    let payload = fake.interaction(pushed.id).expect("recorded").payload;
    assert_eq!(payload["data"]["id"], global[0].id.to_string());
    let interaction: Interaction = serde_json::from_value(payload).expect("serenity parses it");
    let cmd = interaction.command().expect("a command");
    let resolved = cmd.data.options();
    assert!(matches!(resolved[1].value, ResolvedValue::User(u, Some(_)) if u.id.get() == BOB));
    assert_eq!(cmd.guild_id.map(|g| g.get()), Some(GUILD_ID));

    // In a DM the interaction has a user and no guild.
    let dm = fake.dm_channel(ALICE);
    let pushed = fake.register_interaction(Push::command("rules", vec![]).in_channel(dm));
    let payload = fake.interaction(pushed.id).expect("recorded").payload;
    let interaction: Interaction = serde_json::from_value(payload).expect("serenity parses it");
    let cmd = interaction.command().expect("a command");
    assert_eq!((cmd.user.id.get(), cmd.guild_id), (ALICE, None));

    assert_all_local(&fake, 4);
    fake.assert_clean();
}

/// Sends a raw HTTP/1.1 GET and returns the status line.
async fn raw_get(fake: &FakeDiscord, host: &str, path: &str) -> String {
    let addr = fake.api_base().trim_start_matches("http://").to_string();
    let mut stream = tokio::net::TcpStream::connect(addr).await.expect("connect");
    let request = format!(
        "GET {path} HTTP/1.1\r\nHost: {host}\r\nAuthorization: Bot {TOKEN}\r\nConnection: close\r\n\r\n"
    );
    stream.write_all(request.as_bytes()).await.expect("write");
    let mut answer = String::new();
    stream.read_to_string(&mut answer).await.expect("read");
    answer.lines().next().unwrap_or("").to_string()
}

#[tokio::test]
async fn unknown_routes_and_foreign_hosts_are_violations() {
    let fake = FakeDiscord::start().await;
    let host = fake.api_base().trim_start_matches("http://").to_string();
    assert_eq!(
        raw_get(&fake, &host, "/api/v10/games/1").await,
        "HTTP/1.1 404 Not Found"
    );
    assert_eq!(
        raw_get(&fake, &host, "/attachments/1/board.png").await,
        "HTTP/1.1 404 Not Found"
    );
    assert_eq!(
        raw_get(&fake, "discord.com", "/api/v10/users/@me").await,
        "HTTP/1.1 200 OK"
    );
    let not_an_id = raw_get(&fake, &host, "/api/v10/channels/abc").await;
    assert_eq!(not_an_id, "HTTP/1.1 400 Bad Request");
    let too_many = format!("/api/v10/channels/{CHANNEL_ID}/messages?limit=500&before=7");
    assert_eq!(
        raw_get(&fake, &host, &too_many).await,
        "HTTP/1.1 400 Bad Request"
    );
    let unknown = raw_get(&fake, &host, "/api/v10/users/@me?with_everything=true").await;
    assert_eq!(unknown, "HTTP/1.1 400 Bad Request");
    let seen: Vec<String> = fake.violations().iter().map(|v| v.to_string()).collect();
    assert_eq!(
        seen,
        [
            "GET /api/v10/games/1: no such route in Discord's API".to_string(),
            "GET /attachments/1/board.png: not under /api/v10".to_string(),
            "GET /api/v10/users/@me: Host header \"discord.com\", expected \"HOST\""
                .replace("HOST", &host),
            "GET /channels/{channel_id} at {channel_id}: \"abc\" is not a snowflake".to_string(),
            "GET /channels/{channel_id}/messages at ?limit: 500 is above the maximum 100"
                .to_string(),
            "GET /users/@me at ?with_everything: unknown query parameter".to_string(),
        ]
    );
    assert_eq!(fake.requests().len(), 6);
}

#[tokio::test]
async fn component_and_modal_interactions_parse_and_take_files() {
    let fake = FakeDiscord::start().await;
    let http = fake.http();
    let menu = json!([{"type": 1, "components": [{"type": 3, "custom_id": "seat", "options": [
        {"label": "North", "value": "n"}, {"label": "South", "value": "s"}
    ]}]}, {"type": 1, "components": [{"type": 2, "style": 1, "label": "Ready", "custom_id": "ready"}]}]);
    let msg = http
        .send_message(
            ChannelId::new(CHANNEL_ID),
            vec![],
            &json!({"content": "Pick a seat", "components": menu}),
        )
        .await
        .expect("message with a menu");

    let pick = fake.register_interaction(Push::select(msg.id.get(), "seat", &["s"]).by(BOB));
    let payload = fake.interaction(pick.id).expect("recorded").payload;
    let Ok(Interaction::Component(c)) = serde_json::from_value::<Interaction>(payload) else {
        panic!("not a component interaction");
    };
    assert!(
        matches!(&c.data.kind, ComponentInteractionDataKind::StringSelect { values } if values == &["s"])
    );
    assert_eq!((c.user.id.get(), c.message.id), (BOB, msg.id));

    // The answer updates the clicked message and carries a PNG (multipart callback).
    let board = png(2, 2);
    let update = CreateInteractionResponseMessage::new()
        .content("Bob sits South")
        .add_file(CreateAttachment::bytes(board.clone(), "seats.png"));
    CreateInteractionResponse::UpdateMessage(update)
        .execute(&http, (InteractionId::new(pick.id), pick.token.as_str()))
        .await
        .expect("update");
    let updated = fake.message(msg.id.get()).expect("message");
    assert_eq!(updated.content, "Bob sits South");
    assert_eq!(
        updated
            .attachments
            .iter()
            .map(|a| a.bytes.clone())
            .collect::<Vec<_>>(),
        [board]
    );
    let callback = fake.wait_for_callback(pick.id).await;
    assert_eq!((callback.kind, callback.files.len()), (7, 1));

    let click = fake.register_interaction(Push::button(msg.id.get(), "ready"));
    let payload = fake.interaction(click.id).expect("recorded").payload;
    assert!(matches!(
        serde_json::from_value::<Interaction>(payload),
        Ok(Interaction::Component(_))
    ));

    let modal = fake.register_interaction(Push::modal("rename", &[("name", "Table 1")]));
    let payload = fake.interaction(modal.id).expect("recorded").payload;
    let Ok(Interaction::Modal(m)) = serde_json::from_value::<Interaction>(payload) else {
        panic!("not a modal submit");
    };
    assert_eq!(m.data.custom_id, "rename");
    fake.assert_clean();
}

/// The repository's own copy of Discord's OpenAPI description is the one the fake loads; when
/// the team's `shared/` folder sits beside the checkout, the two must be the same document.
#[test]
fn the_vendored_openapi_spec_is_loaded_and_current() {
    use crate::fake_discord::openapi;
    assert_eq!(
        openapi::spec_path().filter(|_| std::env::var("DISCORD_API_SPEC").is_err()),
        Some(openapi::vendored_spec_path())
    );
    let Some(shared) = openapi::shared_spec_path() else {
        println!("no shared/discord-api-spec beside the checkout: nothing to compare");
        return;
    };
    let read = |p: &std::path::Path| -> serde_json::Value {
        serde_json::from_str(&std::fs::read_to_string(p).expect("read spec")).expect("JSON spec")
    };
    assert!(
        read(&openapi::vendored_spec_path()) == read(&shared),
        "tests/support/discord-api-spec/openapi.json differs from {}: copy the newer one over it",
        shared.display()
    );
}

/// Permissions are computed per channel as Discord documents them, and the bot's requests are
/// refused as Discord refuses them: 50001 without View Channel, 50013 without the permission
/// the request needs (send, attach, start a thread).
#[tokio::test]
async fn permissions_follow_roles_and_overwrites_and_refuse_like_discord() {
    use crate::fake_discord::perms::{self, Overwrite, Target};
    let fake = FakeDiscord::start().await;
    let http = fake.http();
    let plain = perms::VIEW_CHANNEL | perms::SEND_MESSAGES | perms::SEND_MESSAGES_IN_THREADS;
    fake.set_everyone_permissions(plain);
    // The server took back what the invite gave the bot.
    fake.set_bot_role_permissions(0);
    fake.add_role(77, perms::MANAGE_THREADS, &[ALICE]);
    // #quiet: nobody may send but Alice's role; the bot may view but neither send nor attach.
    let quiet = 1_100_000_000_000_000_050;
    fake.add_channel(
        quiet,
        "quiet",
        vec![
            Overwrite {
                target: Target::Role(GUILD_ID),
                allow: 0,
                deny: perms::SEND_MESSAGES,
            },
            Overwrite {
                target: Target::Role(77),
                allow: perms::SEND_MESSAGES,
                deny: 0,
            },
            Overwrite {
                target: Target::Member(BOB),
                allow: 0,
                deny: perms::VIEW_CHANNEL,
            },
        ],
    );
    assert_eq!(fake.permissions_in(BOB, CHANNEL_ID), plain);
    assert_eq!(
        fake.permissions_in(BOB, quiet),
        0,
        "no View Channel, no permission"
    );
    assert_eq!(
        fake.permissions_in(ALICE, quiet),
        plain | perms::MANAGE_THREADS,
        "a role's allow beats @everyone's deny"
    );
    assert_eq!(
        fake.permissions_in(OWNER_ID, quiet),
        perms::ALL,
        "the owner has everything"
    );
    let no_send = fake.permissions_in(BOT_USER_ID, quiet);
    assert_eq!(no_send & perms::SEND_MESSAGES, 0);

    let refused = ChannelId::new(quiet)
        .send_message(&http, CreateMessage::new().content("hello"))
        .await
        .expect_err("no Send Messages");
    assert_eq!(
        discord_error(&refused).map(|e| (e.0, e.1)),
        Some((403, 50013))
    );
    // Attaching needs Attach Files, which @everyone here lacks.
    let refused = ChannelId::new(CHANNEL_ID)
        .send_message(
            &http,
            CreateMessage::new().add_file(CreateAttachment::bytes(png(4, 4), "a.png")),
        )
        .await
        .expect_err("no Attach Files");
    assert_eq!(
        discord_error(&refused).map(|e| (e.0, e.1)),
        Some((403, 50013))
    );
    // A thread needs Create Public Threads.
    let msg = ChannelId::new(CHANNEL_ID)
        .send_message(&http, CreateMessage::new().content("lobby"))
        .await
        .expect("send");
    let refused = ChannelId::new(CHANNEL_ID)
        .create_thread_from_message(&http, msg.id, CreateThread::new("game"))
        .await
        .expect_err("no Create Public Threads");
    assert_eq!(
        discord_error(&refused).map(|e| (e.0, e.1)),
        Some((403, 50013))
    );
    // Hidden from the bot: 50001.
    fake.overwrite(
        quiet,
        Overwrite {
            target: Target::Member(BOT_USER_ID),
            allow: 0,
            deny: perms::VIEW_CHANNEL,
        },
    );
    let refused = ChannelId::new(quiet)
        .send_message(&http, CreateMessage::new().content("hello"))
        .await
        .expect_err("no View Channel");
    assert_eq!(
        discord_error(&refused).map(|e| (e.0, e.1)),
        Some((403, 50001))
    );
    fake.assert_clean();
}

/// Without `allowed_mentions` every user, role and everyone written pings; with it, only what
/// it lists; an escaped mention is text. Edits ping nobody.
#[tokio::test]
async fn mentions_ping_as_allowed_mentions_say() {
    use serenity::all::CreateAllowedMentions;
    let fake = FakeDiscord::start().await;
    let http = fake.http();
    let text = format!("<@{ALICE}> <@!{BOB}> <@&77> @everyone \\<@{OWNER_ID}>");
    let channel = ChannelId::new(CHANNEL_ID);
    let open = channel
        .send_message(&http, CreateMessage::new().content(&text))
        .await
        .expect("send");
    let only_alice = channel
        .send_message(
            &http,
            CreateMessage::new()
                .content(&text)
                .allowed_mentions(CreateAllowedMentions::new().users([UserId::new(ALICE)])),
        )
        .await
        .expect("send");
    let open = fake.message(open.id.get()).expect("stored");
    assert_eq!(open.pinged_users, vec![ALICE, BOB]);
    assert_eq!(open.pinged_roles, vec![77]);
    assert!(open.pinged_everyone);
    let only_alice = fake.message(only_alice.id.get()).expect("stored");
    assert_eq!(only_alice.pinged_users, vec![ALICE]);
    assert!(only_alice.pinged_roles.is_empty() && !only_alice.pinged_everyone);
    let edited = channel
        .edit_message(
            &http,
            serenity::all::MessageId::new(only_alice.id),
            EditMessage::new().content(format!("<@{BOB}>")),
        )
        .await
        .expect("edit");
    assert_eq!(
        fake.message(edited.id.get()).expect("stored").pinged_users,
        vec![ALICE]
    );
    fake.assert_clean();
}

/// A raw request to the fake as `https://discord.com`, no rate limiter in between: the status,
/// the headers and the JSON body.
async fn raw_discord(
    client: &reqwest::Client,
    method: reqwest::Method,
    path: &str,
    body: Option<serde_json::Value>,
) -> (u16, reqwest::header::HeaderMap, serde_json::Value) {
    let mut req = client
        .request(method, format!("https://discord.com/api/v10{path}"))
        .header("authorization", format!("Bot {TOKEN}"));
    if let Some(b) = body {
        req = req
            .header("content-type", "application/json")
            .body(b.to_string());
    }
    let res = req.send().await.expect("request");
    let status = res.status().as_u16();
    let headers = res.headers().clone();
    let bytes = res.bytes().await.unwrap_or_default();
    let body = serde_json::from_slice(&bytes).unwrap_or(serde_json::Value::Null);
    (status, headers, body)
}

fn header<'a>(h: &'a reqwest::header::HeaderMap, name: &str) -> &'a str {
    h.get(name).and_then(|v| v.to_str().ok()).unwrap_or("")
}

/// Per-route buckets as Discord answers them: headers on every answer, the sixth message in
/// five seconds to one channel refused with 429 and `retry_after` (another channel unaffected),
/// every refusal counted as an invalid request; serenity's limiter, reading the headers, sends
/// as many messages as it likes and never meets a 429.
#[tokio::test]
async fn per_route_limits_answer_with_headers_and_429() {
    let fake = FakeDiscord::start().await;
    fake.add_channel(CHANNEL_ID + 1, "other", Vec::new());
    let client = fake.discord_client();
    let post = |channel: u64| {
        let client = client.clone();
        async move {
            let path = format!("/channels/{channel}/messages");
            let hello = Some(json!({"content": "hello"}));
            raw_discord(&client, reqwest::Method::POST, &path, hello).await
        }
    };
    for i in 0..5u32 {
        let (status, h, _) = post(CHANNEL_ID).await;
        assert_eq!(status, 200);
        assert_eq!(header(&h, "x-ratelimit-limit"), "5");
        assert_eq!(header(&h, "x-ratelimit-remaining"), (4 - i).to_string());
        let after: f64 = header(&h, "x-ratelimit-reset-after").parse().unwrap();
        assert!(after > 0.0 && after <= 5.0, "{after}");
        assert!(!header(&h, "x-ratelimit-bucket").is_empty());
        let reset: f64 = header(&h, "x-ratelimit-reset").parse().unwrap();
        assert!(reset > 1.7e9, "epoch seconds: {reset}");
    }
    let (status, h, body) = post(CHANNEL_ID).await;
    assert_eq!(status, 429, "{body}");
    assert_eq!(body["global"], false);
    assert!(body["retry_after"].as_f64().unwrap() > 0.0, "{body}");
    assert_eq!(header(&h, "x-ratelimit-scope"), "user");
    assert_eq!(header(&h, "x-ratelimit-remaining"), "0");
    assert!(header(&h, "retry-after").parse::<u64>().unwrap() >= 1);
    // The refused message was not posted; another channel has its own bucket.
    assert_eq!(fake.messages(CHANNEL_ID).len(), 5);
    assert_eq!(post(CHANNEL_ID + 1).await.0, 200);
    assert_eq!((fake.rate_limited(), fake.invalid_requests()), (1, 1));

    // serenity's limiter waits for the window instead (shrunk to 0.2 s to keep the test short).
    let fake = FakeDiscord::start().await;
    fake.rate_limits(|r| r.time_scale = 0.04);
    let http = fake.http();
    for i in 0..12 {
        ChannelId::new(CHANNEL_ID)
            .say(&http, format!("message {i}"))
            .await
            .expect("send");
    }
    assert_eq!(fake.messages(CHANNEL_ID).len(), 12);
    assert_eq!(fake.rate_limited(), 0, "serenity honoured the headers");
    fake.assert_clean();
}

/// The invalid-request ban (Discord's "Invalid Request Limit aka Cloudflare bans": 10,000 401,
/// 403 or 429 answers per 10 minutes; here 4 per 60 s of the fake's clock): a 429 with
/// `X-RateLimit-Scope: shared` does not count, the answer that reaches the limit starts the
/// ban, every request is then refused with 403 (a good one, an interaction callback) and
/// nothing is done, until the window has passed; invalid answers outside one window do not add
/// up.
#[tokio::test]
async fn past_the_invalid_requests_limit_every_request_is_refused_until_the_window_passes() {
    let fake = FakeDiscord::start().await;
    // A clock that moves only by `advance`, so the window's edge is exact.
    fake.follow_clock(|| 1_800_000_000);
    fake.set_invalid_ban(4, Duration::from_secs(60));
    let client = fake.discord_client();
    let get = |path: String| {
        let client = client.clone();
        async move {
            raw_discord(&client, reqwest::Method::GET, &path, None)
                .await
                .0
        }
    };
    let channel = format!("/channels/{CHANNEL_ID}");
    let route = "GET /channels/{channel_id}";
    // Three invalid answers, then a minute passes: they fall out of the window.
    fake.fail_next(route, 2, 403, 50001);
    fake.rate_limit_next(route, 1, 0.01);
    for want in [403, 403, 429] {
        assert_eq!(get(channel.clone()).await, want);
    }
    fake.advance(60);
    // Shared-scope 429s are not counted, however many.
    fake.rate_limit_next_shared(route, 5, 0.01);
    for _ in 0..5 {
        assert_eq!(get(channel.clone()).await, 429);
    }
    assert_eq!(fake.invalid_requests(), 3);
    // Four in the window: 401 (a wrong token), 403, 404 (not counted), 429, 403.
    fake.fail_next(route, 1, 401, 0);
    fake.fail_next(route, 1, 403, 50013);
    fake.fail_next(route, 1, 404, 10003);
    fake.rate_limit_next(route, 1, 0.01);
    fake.fail_next(route, 1, 403, 50001);
    for want in [401, 403, 404, 429] {
        assert_eq!(get(channel.clone()).await, want);
    }
    assert_eq!(fake.banned(), (0, 0), "three in the window, not banned yet");
    assert_eq!(get(channel.clone()).await, 403);
    assert_eq!(fake.banned(), (0, 1), "the fourth starts the ban");

    // Banned: a request that would pass, a post and an interaction callback are all refused,
    // and nothing is done.
    assert_eq!(get(channel.clone()).await, 403);
    let posted = raw_discord(
        &client,
        reqwest::Method::POST,
        &format!("/channels/{CHANNEL_ID}/messages"),
        Some(json!({"content": "hello"})),
    )
    .await;
    assert_eq!(posted.0, 403, "{}", posted.2);
    assert!(fake.messages(CHANNEL_ID).is_empty());
    let cmd = fake.register_interaction(Push::command("rules", vec![]));
    let callback = raw_discord(
        &client,
        reqwest::Method::POST,
        &format!("/interactions/{}/{}/callback", cmd.id, cmd.token),
        Some(json!({"type": 5})),
    )
    .await;
    assert_eq!(callback.0, 403);
    assert!(fake.interaction(cmd.id).expect("rec").callback.is_none());
    assert_eq!(fake.banned(), (3, 1));
    assert_eq!(
        fake.invalid_requests(),
        7,
        "the ban's own refusals are not counted"
    );

    // 59 s later still banned; at 60 s the ban is over.
    fake.advance(59);
    assert_eq!(get(channel.clone()).await, 403);
    fake.advance(1);
    assert_eq!(get(channel.clone()).await, 200);
    assert_eq!(fake.banned(), (4, 1));
    assert!(fake.pending_faults().is_empty());
    fake.assert_clean();
}

/// The global limit: 50 requests a second for the bot token across routes, answered with a
/// global 429 (`X-RateLimit-Global`); interaction callbacks do not count against it; switched
/// off, nothing is limited.
#[tokio::test]
async fn the_global_limit_counts_bot_requests_but_not_interaction_callbacks() {
    let fake = FakeDiscord::start().await;
    // A long window so the burst surely falls inside it on a busy machine.
    fake.rate_limits(|r| r.time_scale = 20.0);
    let client = fake.discord_client();
    for c in 0..50u64 {
        fake.add_channel(CHANNEL_ID + 100 + c, "c", Vec::new());
    }
    for c in 0..50u64 {
        let path = format!("/channels/{}", CHANNEL_ID + 100 + c);
        let (status, _, body) = raw_discord(&client, reqwest::Method::GET, &path, None).await;
        assert_eq!(status, 200, "{body}");
    }
    let (status, h, body) = raw_discord(
        &client,
        reqwest::Method::GET,
        &format!("/channels/{CHANNEL_ID}"),
        None,
    )
    .await;
    assert_eq!(status, 429, "{body}");
    assert_eq!(body["global"], true);
    assert_eq!(header(&h, "x-ratelimit-global"), "true");
    assert_eq!(header(&h, "x-ratelimit-scope"), "global");
    // An interaction's callback still goes through.
    let pushed = fake.register_interaction(Push::command("play", vec![]));
    let (status, _, body) = raw_discord(
        &client,
        reqwest::Method::POST,
        &format!("/interactions/{}/{}/callback", pushed.id, pushed.token),
        Some(json!({"type": 5, "data": {"flags": 64}})),
    )
    .await;
    assert_eq!(status, 204, "{body}");
    assert_eq!(fake.rate_limited(), 1);

    let fake = FakeDiscord::start().await;
    fake.rate_limits(|r| r.on = false);
    let client = fake.discord_client();
    for _ in 0..60 {
        let path = format!("/channels/{CHANNEL_ID}");
        let (status, h, _) = raw_discord(&client, reqwest::Method::GET, &path, None).await;
        assert_eq!(status, 200);
        assert!(h.get("x-ratelimit-limit").is_none());
    }
}

/// Registration rules the OpenAPI schema does not carry (names, locales, distinct localized
/// option names, required options first) and autocomplete answers of at most 25 choices of
/// 1 to 100 characters: each broken rule is a violation at its place.
#[tokio::test]
async fn registration_and_autocomplete_rules_the_schema_does_not_carry() {
    let fake = FakeDiscord::start().await;
    let client = fake.discord_client();
    let bad = json!([{
        "name": "Play",
        "description": "Open a game",
        "name_localizations": {"fr": "jouer", "french": "jouer"},
        "options": [
            {"type": 3, "name": "mode", "description": "a mode",
             "name_localizations": {"fr": "jeu"}},
            {"type": 3, "name": "game", "description": "which game", "required": true,
             "name_localizations": {"fr": "jeu"}},
            {"type": 3, "name": "game", "description": "again"}
        ]
    }]);
    let path = format!("/applications/{APPLICATION_ID}/guilds/{GUILD_ID}/commands");
    let (status, _, body) = raw_discord(&client, reqwest::Method::PUT, &path, Some(bad)).await;
    assert_eq!(status, 200, "{body}");
    let seen: Vec<String> = fake
        .take_violations()
        .iter()
        .map(|v| v.to_string())
        .collect();
    for expected in [
        "/0/name: \"Play\" is not a valid name",
        "/0/name_localizations/french: not one of Discord's locales",
        "/0/options/1/name_localizations/fr: localized option name \"jeu\" twice",
        "/0/options/1/required: a required option after an optional one",
        "/0/options/2/name: option \"game\" twice",
    ] {
        assert!(
            seen.iter().any(|s| s.ends_with(expected)),
            "{expected} not in {seen:#?}"
        );
    }

    let pushed =
        fake.register_interaction(Push::autocomplete("play", vec![opt::focused("game", "")]));
    // (More than 25 choices the schema refuses already.)
    let choices = json!([{"name": "long", "value": "x".repeat(101)}, {"name": "ok", "value": "y"}]);
    raw_discord(
        &client,
        reqwest::Method::POST,
        &format!("/interactions/{}/{}/callback", pushed.id, pushed.token),
        Some(json!({"type": 8, "data": {"choices": choices}})),
    )
    .await;
    let seen: Vec<String> = fake
        .take_violations()
        .iter()
        .map(|v| v.to_string())
        .collect();
    assert!(
        seen.iter().any(|s| s.contains("/data/choices/0/value")),
        "{seen:#?}"
    );
    assert!(
        !seen.iter().any(|s| s.contains("/data/choices/1/")),
        "{seen:#?}"
    );
}

/// A board with one option button (`g:1:1:0`) posted in `channel`.
async fn board_with_a_button(
    http: &serenity::http::Http,
    channel: ChannelId,
) -> serenity::all::Message {
    let button = CreateButton::new("g:1:1:0").label("Play");
    channel
        .send_message(
            http,
            CreateMessage::new()
                .content("board")
                .components(vec![CreateActionRow::Buttons(vec![button])]),
        )
        .await
        .expect("board")
}

/// A thread from a fresh message in the games channel, archiving after `minutes` idle.
async fn thread(fake: &FakeDiscord, http: &serenity::http::Http, minutes: u16) -> ChannelId {
    let _ = fake;
    let msg = ChannelId::new(CHANNEL_ID)
        .say(http, "Game")
        .await
        .expect("message");
    let duration = match minutes {
        60 => serenity::all::AutoArchiveDuration::OneHour,
        1440 => serenity::all::AutoArchiveDuration::OneDay,
        4320 => serenity::all::AutoArchiveDuration::ThreeDays,
        _ => serenity::all::AutoArchiveDuration::OneWeek,
    };
    ChannelId::new(CHANNEL_ID)
        .create_thread_from_message(
            http,
            msg.id,
            CreateThread::new("game").auto_archive_duration(duration),
        )
        .await
        .expect("thread")
        .id
}

/// `@everyone` keeps its rights but Manage Threads (the moderators' right).
fn without_manage_threads(fake: &FakeDiscord) {
    let everyone = fake.permissions_in(ALICE, CHANNEL_ID);
    fake.set_everyone_permissions(everyone & !perms::MANAGE_THREADS);
    assert_eq!(
        fake.permissions_in(ALICE, CHANNEL_ID) & perms::MANAGE_THREADS,
        0
    );
    assert_eq!(
        fake.permissions_in(BOT_USER_ID, CHANNEL_ID) & perms::MANAGE_THREADS,
        0
    );
}

fn archived(fake: &FakeDiscord, thread: ChannelId) -> bool {
    fake.channel(thread.get()).expect("thread").archived
}

#[tokio::test]
async fn threads_archive_after_their_idle_time_on_the_fakes_clock() {
    let fake = FakeDiscord::start().await;
    let http = fake.http();
    let t = thread(&fake, &http, 60).await;
    fake.advance(59 * 60);
    assert!(!archived(&fake, t));
    // A message is activity: the hour starts again.
    t.say(&http, "move").await.expect("post");
    fake.advance(59 * 60);
    assert!(!archived(&fake, t));
    fake.advance(60);
    assert!(archived(&fake, t), "idle for its auto-archive duration");
    let updates = fake.dispatched("THREAD_UPDATE");
    assert_eq!(updates.len(), 1, "{updates:?}");
    assert_eq!(updates[0]["thread_metadata"]["archived"], true);
    assert_eq!(updates[0]["id"], t.get().to_string());

    // The service's clock can drive it: a week-long thread, a test clock moved by eight days.
    let test_clock = std::sync::Arc::new(std::sync::atomic::AtomicI64::new(fake.now()));
    let c = std::sync::Arc::clone(&test_clock);
    fake.follow_clock(move || c.load(std::sync::atomic::Ordering::SeqCst));
    let week = thread(&fake, &http, 10080).await;
    test_clock.fetch_add(6 * 86_400, std::sync::atomic::Ordering::SeqCst);
    assert!(!archived(&fake, week));
    test_clock.fetch_add(2 * 86_400, std::sync::atomic::Ordering::SeqCst);
    assert!(archived(&fake, week));

    // Switched off, nothing archives by itself.
    let fake = FakeDiscord::start().await;
    let http = fake.http();
    fake.set_behaviour(Behaviour::AutoArchive, false);
    let t = thread(&fake, &http, 60).await;
    fake.advance(30 * 86_400);
    assert!(!archived(&fake, t));
    fake.assert_clean();
}

#[tokio::test]
async fn archived_threads_refuse_edits_and_reopen_on_a_message_unless_locked() {
    let fake = FakeDiscord::start().await;
    let http = fake.http();
    let t = thread(&fake, &http, 1440).await;
    let board = t.say(&http, "board").await.expect("post");
    fake.advance(86_400);
    assert!(archived(&fake, t));
    let edit = t
        .edit_message(&http, board.id, EditMessage::new().content("new board"))
        .await
        .expect_err("an edit in an archived thread");
    assert_eq!(
        discord_error(&edit),
        Some((400, 50083, "Thread is archived".into()))
    );
    // Deleting stays possible ("the only operation that should happen" there).
    let doomed = {
        fake.set_behaviour(Behaviour::AutoArchive, false);
        t.say(&http, "doomed").await.expect("post reopens")
    };
    assert!(!archived(&fake, t), "a message unarchives the thread");
    fake.archive_thread(t.get(), false);
    t.delete_message(&http, doomed.id).await.expect("delete");
    // The bot unarchives its own thread; the edit then goes through.
    t.edit_thread(&http, serenity::all::EditThread::new().archived(false))
        .await
        .expect("unarchive");
    t.edit_message(&http, board.id, EditMessage::new().content("new board"))
        .await
        .expect("edit in an active thread");

    // Locked by a moderator: no message, no edit; the creator may unarchive it but still
    // not post; only Manage Threads may lock or unlock.
    without_manage_threads(&fake);
    fake.archive_thread(t.get(), true);
    let post = t.say(&http, "hello").await.expect_err("locked");
    assert_eq!(
        discord_error(&post),
        Some((403, 160005, "Thread is locked".into()))
    );
    t.edit_thread(&http, serenity::all::EditThread::new().archived(false))
        .await
        .expect("the creator unarchives a locked thread");
    let post = t.say(&http, "hello").await.expect_err("still locked");
    assert_eq!(discord_error(&post).map(|e| e.1), Some(160005));
    let edit = t
        .edit_message(&http, board.id, EditMessage::new().content("x"))
        .await
        .expect_err("edit in a locked thread");
    assert_eq!(discord_error(&edit).map(|e| e.1), Some(160005));
    let unlock = t
        .edit_thread(&http, serenity::all::EditThread::new().locked(false))
        .await
        .expect_err("unlocking needs Manage Threads");
    assert_eq!(discord_error(&unlock).map(|e| e.1), Some(50013));

    // Switched off, an archived thread takes edits.
    let fake = FakeDiscord::start().await;
    let http = fake.http();
    fake.set_behaviour(Behaviour::ArchivedThreadsRefuseEdits, false);
    let t = thread(&fake, &http, 60).await;
    let m = t.say(&http, "board").await.expect("post");
    fake.archive_thread(t.get(), false);
    t.edit_message(&http, m.id, EditMessage::new().content("edited"))
        .await
        .expect("edits allowed with the behaviour off");
    fake.assert_clean();
}

#[tokio::test]
async fn interactions_from_archived_threads_are_sent_as_clients_send_them() {
    let fake = FakeDiscord::start().await;
    let http = fake.http();
    let t = thread(&fake, &http, 60).await;
    let board = board_with_a_button(&http, t).await;
    fake.advance(3600);
    assert!(archived(&fake, t));
    // The member's client unarchives the thread first, then sends the click.
    let click = fake
        .try_register_interaction(Push::button(board.id.get(), "g:1:1:0").in_channel(t.get()))
        .expect("sent");
    assert!(!archived(&fake, t), "the client unarchived it");
    CreateInteractionResponse::Acknowledge
        .execute(&http, (InteractionId::new(click.id), click.token.as_str()))
        .await
        .expect("ack");
    EditInteractionResponse::new()
        .content("played")
        .execute(&http, &click.token)
        .await
        .expect("edit in an active thread");

    // Locked: a member without Manage Threads cannot unarchive it, so nothing is sent.
    without_manage_threads(&fake);
    fake.archive_thread(t.get(), true);
    let refused =
        fake.try_register_interaction(Push::button(board.id.get(), "g:1:1:0").in_channel(t.get()));
    assert!(refused.is_err(), "{refused:?}");

    // A client that sends the click while the thread stays archived: the answer's edits are
    // refused (50083) until the bot unarchives the thread.
    let fake = FakeDiscord::start().await;
    let http = fake.http();
    fake.set_behaviour(Behaviour::ClientUnarchivesForInteractions, false);
    let t = thread(&fake, &http, 60).await;
    let board = board_with_a_button(&http, t).await;
    fake.advance(3600);
    let click =
        fake.register_interaction(Push::button(board.id.get(), "g:1:1:0").in_channel(t.get()));
    assert!(archived(&fake, t));
    let ctx = (InteractionId::new(click.id), click.token.as_str());
    let update = CreateInteractionResponse::UpdateMessage(
        CreateInteractionResponseMessage::new().content("played"),
    )
    .execute(&http, ctx)
    .await
    .expect_err("an update is an edit");
    assert_eq!(discord_error(&update).map(|e| e.1), Some(50083));
    CreateInteractionResponse::Acknowledge
        .execute(&http, ctx)
        .await
        .expect("a deferred update edits nothing");
    let edit = EditInteractionResponse::new()
        .content("played")
        .execute(&http, &click.token)
        .await
        .expect_err("edit of the board");
    assert_eq!(discord_error(&edit).map(|e| e.1), Some(50083));
    t.edit_thread(&http, serenity::all::EditThread::new().archived(false))
        .await
        .expect("unarchive");
    EditInteractionResponse::new()
        .content("played")
        .execute(&http, &click.token)
        .await
        .expect("edit once unarchived");
    fake.assert_clean();
}

#[tokio::test]
async fn deleted_threads_and_channels_are_unknown_and_announced() {
    let fake = FakeDiscord::start().await;
    let http = fake.http();
    let t = thread(&fake, &http, 10080).await;
    let m = t.say(&http, "board").await.expect("post");
    fake.delete_thread(t.get());
    for e in [
        t.say(&http, "x").await.map(|_| ()).expect_err("post"),
        t.edit_message(&http, m.id, EditMessage::new().content("x"))
            .await
            .map(|_| ())
            .expect_err("edit"),
        t.to_channel(&http).await.map(|_| ()).expect_err("get"),
        t.edit_thread(&http, serenity::all::EditThread::new().archived(false))
            .await
            .map(|_| ())
            .expect_err("unarchive"),
    ] {
        assert_eq!(
            discord_error(&e),
            Some((404, 10003, "Unknown Channel".into()))
        );
    }
    let gone = fake.dispatched("THREAD_DELETE");
    assert_eq!(gone.len(), 1);
    assert_eq!(gone[0]["id"], t.get().to_string());
    assert_eq!(gone[0]["parent_id"], CHANNEL_ID.to_string());
    assert!(fake
        .try_register_interaction(Push::command("board", vec![]).in_channel(t.get()))
        .is_err());

    // A channel takes its threads with it.
    let other = thread(&fake, &http, 10080).await;
    fake.delete_channel(CHANNEL_ID);
    for c in [ChannelId::new(CHANNEL_ID), other] {
        let e = c.say(&http, "x").await.expect_err("gone");
        assert_eq!(discord_error(&e).map(|e| e.1), Some(10003));
    }
    let gone = fake.dispatched("CHANNEL_DELETE");
    assert_eq!(gone.len(), 1);
    assert_eq!(gone[0]["id"], CHANNEL_ID.to_string());

    // Removed from the guild: GUILD_DELETE without `unavailable`, then Missing Access.
    let fake = FakeDiscord::start().await;
    let http = fake.http();
    fake.remove_bot_from_guild();
    let gone = fake.dispatched("GUILD_DELETE");
    assert_eq!(gone, [json!({"id": GUILD_ID.to_string()})]);
    let e = ChannelId::new(CHANNEL_ID)
        .say(&http, "x")
        .await
        .expect_err("kicked");
    assert_eq!(
        discord_error(&e),
        Some((403, 50001, "Missing Access".into()))
    );
    // Nobody shares a guild with the bot any more: DMs answer 50278.
    let dm = UserId::new(ALICE)
        .create_dm_channel(&http)
        .await
        .expect("DM channel");
    let e = dm.id.say(&http, "x").await.expect_err("no mutual guild");
    assert_eq!(discord_error(&e).map(|e| e.1), Some(50278));
    fake.assert_clean();
}

#[tokio::test]
async fn a_guild_holds_a_capped_number_of_active_threads() {
    let fake = FakeDiscord::start().await;
    let http = fake.http();
    fake.set_active_thread_cap(2);
    let first = thread(&fake, &http, 60).await;
    thread(&fake, &http, 10080).await;
    let msg = ChannelId::new(CHANNEL_ID)
        .say(&http, "third")
        .await
        .expect("msg");
    let e = ChannelId::new(CHANNEL_ID)
        .create_thread_from_message(&http, msg.id, CreateThread::new("third"))
        .await
        .expect_err("cap");
    assert_eq!(
        discord_error(&e),
        Some((
            400,
            160006,
            "Maximum number of active threads reached".into()
        ))
    );
    // An archived thread leaves room, and cannot come back while the cap is full.
    fake.advance(3600);
    assert!(archived(&fake, first));
    ChannelId::new(CHANNEL_ID)
        .create_thread_from_message(&http, msg.id, CreateThread::new("third"))
        .await
        .expect("room again");
    let e = first.say(&http, "back").await.expect_err("full");
    assert_eq!(discord_error(&e).map(|e| e.1), Some(160006));
    fake.set_behaviour(Behaviour::ActiveThreadCap, false);
    first.say(&http, "back").await.expect("no cap");
    fake.assert_clean();
}

/// Discord's backward-compatible follow-up: straight after a deferred answer
/// (DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE), a follow-up fills in that answer and its ephemeral
/// flag is ignored, so a "private" follow-up after a public deferral is public. Deprecated:
/// the fake does it and reports it. Once the deferred answer is gone or filled in, a
/// follow-up is a message of its own.
#[tokio::test]
async fn a_follow_up_straight_after_a_deferral_fills_in_the_deferred_answer() {
    let fake = FakeDiscord::start().await;
    let http = fake.http();
    let pushed = fake.register_interaction(Push::command(
        "play",
        vec![opt::string("game", "cortexcape")],
    ));
    let ctx = (InteractionId::new(pushed.id), pushed.token.as_str());
    CreateInteractionResponse::Defer(CreateInteractionResponseMessage::new())
        .execute(&http, ctx)
        .await
        .expect("public defer");
    let private = CreateInteractionResponseFollowup::new()
        .content("only for you")
        .ephemeral(true)
        .execute(&http, (None, &pushed.token))
        .await
        .expect("follow-up");
    let original = fake.original_response(pushed.id).expect("original");
    assert_eq!(
        private.id.get(),
        original.id,
        "the deferred answer was filled in"
    );
    assert_eq!(
        (original.content.as_str(), original.flags & (64 | 128)),
        ("only for you", 0),
        "public, not thinking any more"
    );
    assert!(fake.followups(pushed.id).is_empty());
    let v = fake.take_violations();
    assert!(v.len() == 1 && v[0].message.contains("deprecated"), "{v:?}");

    // Deleting the public deferral first, then following up: a private message of its own.
    let pushed = fake.register_interaction(Push::command(
        "play",
        vec![opt::string("game", "cortexcape")],
    ));
    let ctx = (InteractionId::new(pushed.id), pushed.token.as_str());
    CreateInteractionResponse::Defer(CreateInteractionResponseMessage::new())
        .execute(&http, ctx)
        .await
        .expect("public defer");
    http.delete_original_interaction_response(&pushed.token)
        .await
        .expect("delete the deferred answer");
    let private = CreateInteractionResponseFollowup::new()
        .content("only for you")
        .ephemeral(true)
        .execute(&http, (None, &pushed.token))
        .await
        .expect("follow-up");
    let followups = fake.followups(pushed.id);
    assert_eq!(followups.len(), 1);
    assert_eq!(
        (followups[0].id, followups[0].flags & 64),
        (private.id.get(), 64)
    );
    fake.assert_clean();
}

// ----- the gateway and time as Discord has them (issue 19, A8 and A9) -----

type RawGateway = tokio_tungstenite::WebSocketStream<tokio::net::TcpStream>;

/// A bare websocket client on one of the fake's gateway URLs (no serenity: each frame is seen).
async fn raw_gateway(url: &str) -> RawGateway {
    let addr = url.trim_start_matches("ws://");
    let tcp = tokio::net::TcpStream::connect(addr)
        .await
        .expect("gateway port");
    let (ws, _) = tokio_tungstenite::client_async(format!("{url}/?v=10&encoding=json"), tcp)
        .await
        .expect("websocket handshake");
    ws
}

/// The next payload, or how the connection ended: `Err(Some(close code))`, `Err(None)`.
async fn next_frame(ws: &mut RawGateway) -> Result<serde_json::Value, Option<u16>> {
    use futures_util::StreamExt;
    use tokio_tungstenite::tungstenite::Message as Ws;
    loop {
        let frame = tokio::time::timeout(Duration::from_secs(10), ws.next())
            .await
            .expect("a gateway frame within 10 s");
        match frame {
            Some(Ok(Ws::Text(t))) => return Ok(serde_json::from_str(&t).expect("JSON")),
            Some(Ok(Ws::Close(c))) => return Err(c.map(|c| u16::from(c.code))),
            Some(Ok(_)) => continue,
            Some(Err(_)) | None => return Err(None),
        }
    }
}

async fn send_frame(ws: &mut RawGateway, payload: serde_json::Value) {
    use futures_util::SinkExt;
    ws.send(tokio_tungstenite::tungstenite::Message::Text(
        payload.to_string(),
    ))
    .await
    .expect("send a gateway frame");
}

fn identify(shard: Option<[u64; 2]>) -> serde_json::Value {
    let mut d = json!({
        "token": TOKEN,
        "intents": 1,
        "properties": {"os": "linux", "browser": "selftest", "device": "selftest"},
    });
    if let Some(s) = shard {
        d["shard"] = json!(s);
    }
    json!({"op": 2, "d": d})
}

fn resume(session: &str, seq: u64) -> serde_json::Value {
    json!({"op": 6, "d": {"token": TOKEN, "session_id": session, "seq": seq}})
}

/// A RESUME on a new connection to `url`, answered op 9 (`d: false`: not resumable).
async fn resume_refused(url: &str, session: &str, seq: u64) {
    let mut ws = raw_gateway(url).await;
    next_frame(&mut ws).await.expect("HELLO");
    send_frame(&mut ws, resume(session, seq)).await;
    let refused = next_frame(&mut ws).await.expect("op 9");
    assert_eq!(
        (refused["op"].as_u64(), refused["d"].as_bool()),
        (Some(9), Some(false))
    );
}

/// `(event, sequence, interaction id)` of a dispatch.
fn dispatch(v: &serde_json::Value) -> (String, u64, String) {
    (
        v["t"].as_str().unwrap_or("").to_string(),
        v["s"].as_u64().unwrap_or(0),
        v["d"]["id"].as_str().unwrap_or("").to_string(),
    )
}

/// READY names a `resume_gateway_url` other than the connect URL. A session cut without a close
/// frame keeps its dispatches; a RESUME on the resume URL replays every dispatch after the
/// client's sequence number, in order and with their numbers, then RESUMED. A RESUME on the
/// connect URL (where bare serenity 0.12.5 resumes: it never reads `resume_gateway_url`) is
/// refused with op 9 (false) and ends the session, as Discord may. An unknown session and one
/// the client closed with 1000 are not resumable (op 9, false).
#[tokio::test]
async fn a_resume_replays_what_the_session_missed_on_the_resume_url_only() {
    let fake = FakeDiscord::start().await;
    assert_ne!(fake.gateway_url(), fake.resume_gateway_url());
    let mut ws = raw_gateway(&fake.gateway_url()).await;
    assert_eq!(next_frame(&mut ws).await.expect("HELLO")["op"], 10);
    send_frame(&mut ws, identify(None)).await;
    let ready = next_frame(&mut ws).await.expect("READY");
    assert_eq!(dispatch(&ready).0, "READY");
    assert_eq!(ready["s"], 1);
    assert_eq!(ready["d"]["resume_gateway_url"], fake.resume_gateway_url());
    let session = ready["d"]["session_id"]
        .as_str()
        .expect("session")
        .to_string();
    let guild = next_frame(&mut ws).await.expect("GUILD_CREATE");
    assert_eq!(
        (dispatch(&guild).0.as_str(), guild["s"].as_u64()),
        ("GUILD_CREATE", Some(2))
    );

    // Cut: two interactions come while the session is away.
    fake.drop_gateway();
    assert_eq!(next_frame(&mut ws).await, Err(None), "no close frame");
    let first = fake.push_now(Push::command("rules", vec![]));
    let second = fake.push_now(Push::command("games", vec![]));

    let mut ws = raw_gateway(&fake.resume_gateway_url()).await;
    assert_eq!(next_frame(&mut ws).await.expect("HELLO")["op"], 10);
    send_frame(&mut ws, resume(&session, 2)).await;
    let mut got = Vec::new();
    for _ in 0..3 {
        got.push(dispatch(
            &next_frame(&mut ws).await.expect("a replayed event"),
        ));
    }
    assert_eq!(
        got,
        [
            ("INTERACTION_CREATE".into(), 3, first.id.to_string()),
            ("INTERACTION_CREATE".into(), 4, second.id.to_string()),
            ("RESUMED".into(), 5, String::new()),
        ]
    );

    // Cut again; this client read only up to 3: the resume URL replays 4 and 5 as well.
    fake.drop_gateway();
    assert_eq!(next_frame(&mut ws).await, Err(None));
    let mut ws = raw_gateway(&fake.resume_gateway_url()).await;
    next_frame(&mut ws).await.expect("HELLO");
    send_frame(&mut ws, resume(&session, 3)).await;
    let mut got = Vec::new();
    for _ in 0..3 {
        got.push(dispatch(
            &next_frame(&mut ws).await.expect("a replayed event"),
        ));
    }
    let seqs: Vec<(&str, u64)> = got.iter().map(|(t, s, _)| (t.as_str(), *s)).collect();
    assert_eq!(
        seqs,
        [("INTERACTION_CREATE", 4), ("RESUMED", 5), ("RESUMED", 6)]
    );
    assert_eq!((fake.resumes(), fake.resumes_on_resume_url()), (2, 2));
    assert_eq!(fake.replayed(), 2 + 2);
    // Both interactions reached the one shard: each counted once.
    for p in [&first, &second] {
        assert_eq!(fake.interaction(p.id).expect("rec").delivered_to, [[0, 1]]);
    }

    // Closed by the client with 1000: the session is over.
    let normal = tokio_tungstenite::tungstenite::protocol::CloseFrame {
        code: tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode::Normal,
        reason: "".into(),
    };
    ws.close(Some(normal)).await.expect("close");
    assert!(next_frame(&mut ws).await.is_err(), "the fake hangs up");
    let mut ws = raw_gateway(&fake.resume_gateway_url()).await;
    next_frame(&mut ws).await.expect("HELLO");
    send_frame(&mut ws, resume(&session, 6)).await;
    let refused = next_frame(&mut ws).await.expect("op 9");
    assert_eq!(
        (refused["op"].as_u64(), refused["d"].as_bool()),
        (Some(9), Some(false))
    );
    send_frame(&mut ws, resume("no-such-session", 0)).await;
    let refused = next_frame(&mut ws).await.expect("op 9");
    assert_eq!(
        (refused["op"].as_u64(), refused["d"].as_bool()),
        (Some(9), Some(false))
    );
    // A new session, cut while an interaction comes: a RESUME on the connect URL is refused
    // and the session is over; not even the resume URL takes it afterwards: the click is lost.
    let mut ws = raw_gateway(&fake.gateway_url()).await;
    next_frame(&mut ws).await.expect("HELLO");
    send_frame(&mut ws, identify(None)).await;
    let ready = next_frame(&mut ws).await.expect("READY");
    let session = ready["d"]["session_id"]
        .as_str()
        .expect("session")
        .to_string();
    next_frame(&mut ws).await.expect("GUILD_CREATE");
    fake.drop_gateway();
    assert_eq!(next_frame(&mut ws).await, Err(None));
    let missed = fake.push_now(Push::command("rules", vec![]));
    resume_refused(&fake.gateway_url(), &session, 2).await;
    assert_eq!(fake.resumes_refused(), 1);
    resume_refused(&fake.resume_gateway_url(), &session, 2).await;
    assert!(fake
        .interaction(missed.id)
        .expect("rec")
        .delivered_to
        .is_empty());
    assert_eq!(fake.resumes(), 2);
    fake.assert_clean();
}

/// Past the fake's guilds per shard (Discord: 2,500), `GET /gateway/bot` recommends
/// `ceil(guilds / limit)` shards, an IDENTIFY for a shard that would hold too many guilds is
/// closed with 4011 (no session is made), and with the recommended count every shard gets
/// READY with its own guilds (`(guild_id >> 22) % num_shards`) and their GUILD_CREATEs.
#[tokio::test]
async fn a_shard_holding_too_many_guilds_is_closed_with_4011() {
    let fake = FakeDiscord::start().await;
    let http = fake.http();
    assert_eq!(http.get_bot_gateway().await.expect("gateway/bot").shards, 1);
    fake.set_shard_guild_limit(2);
    let added = fake.add_guilds(2);
    assert_eq!(added.len(), 2);
    assert_eq!(http.get_bot_gateway().await.expect("gateway/bot").shards, 2);

    let mut ws = raw_gateway(&fake.gateway_url()).await;
    next_frame(&mut ws).await.expect("HELLO");
    send_frame(&mut ws, identify(None)).await;
    assert_eq!(next_frame(&mut ws).await, Err(Some(4011)));
    assert_eq!(fake.sharding_required(), [[0, 1]]);
    assert!(
        fake.identifies().is_empty(),
        "no session for a refused shard"
    );

    let mut all: Vec<u64> = Vec::new();
    for shard in 0..2u64 {
        let mut ws = raw_gateway(&fake.gateway_url()).await;
        next_frame(&mut ws).await.expect("HELLO");
        send_frame(&mut ws, identify(Some([shard, 2]))).await;
        let ready = next_frame(&mut ws).await.expect("READY");
        let listed: Vec<u64> = ready["d"]["guilds"]
            .as_array()
            .expect("guilds")
            .iter()
            .filter_map(|g| g["id"].as_str()?.parse().ok())
            .collect();
        assert!(!listed.is_empty() && listed.len() <= 2, "{listed:?}");
        for g in &listed {
            assert_eq!((g >> 22) % 2, shard);
            let created = next_frame(&mut ws).await.expect("GUILD_CREATE");
            assert_eq!(created["t"], "GUILD_CREATE");
            assert_eq!(created["d"]["id"], g.to_string());
        }
        all.extend(listed);
    }
    all.sort_unstable();
    let mut expected: Vec<u64> = added.iter().map(|(g, _)| *g).chain([GUILD_ID]).collect();
    expected.sort_unstable();
    assert_eq!(all, expected, "every guild on exactly one shard");
    assert_eq!(fake.sharding_required(), [[0, 1]]);
    fake.assert_clean();
}

/// An interaction's token lasts 15 minutes on the fake's clock: edits and follow-ups until then,
/// 401 / 50027 "Invalid Webhook Token" after (and a violation: the bot should know).
#[tokio::test]
async fn interaction_tokens_expire_after_fifteen_minutes() {
    let fake = FakeDiscord::start().await;
    let http = fake.http();
    let pushed = fake.register_interaction(Push::command("rules", vec![]));
    let ctx = (InteractionId::new(pushed.id), pushed.token.as_str());
    CreateInteractionResponse::Defer(CreateInteractionResponseMessage::new().ephemeral(true))
        .execute(&http, ctx)
        .await
        .expect("defer");
    fake.advance(14 * 60 + 59);
    EditInteractionResponse::new()
        .content("still in time")
        .execute(&http, &pushed.token)
        .await
        .expect("an edit within 15 minutes");
    fake.advance(1);
    let late = EditInteractionResponse::new()
        .content("too late")
        .execute(&http, &pushed.token)
        .await
        .expect_err("an edit after 15 minutes");
    assert_eq!(
        discord_error(&late),
        Some((401, 50027, "Invalid Webhook Token".into()))
    );
    let late = CreateInteractionResponseFollowup::new()
        .content("too late")
        .execute(&http, (None, &pushed.token))
        .await
        .expect_err("a follow-up after 15 minutes");
    assert_eq!(discord_error(&late).map(|e| e.1), Some(50027));
    assert_eq!(
        fake.original_response(pushed.id).map(|m| m.content),
        Some("still in time".into())
    );
    let v = fake.take_violations();
    assert_eq!(v.len(), 2, "{v:#?}");
    assert!(v.iter().all(|v| v.message.contains("15 minutes")), "{v:#?}");
}

/// A network delay each way: the interaction reaches the client a delay after its dispatch, and
/// the callback reaches the fake a delay after it left, so the 3 s (here 1 s), counted from the
/// dispatch, lose both. A callback the client sends 0.8 s after it got the interaction arrives
/// past 1 s and is refused (10062), where without the delay it would have been in time.
#[tokio::test]
async fn a_network_delay_each_way_counts_against_the_deadline() {
    let fake = FakeDiscord::start().await;
    let delay = Duration::from_millis(150);
    fake.set_network_delay(delay);
    fake.set_ack_deadline(Duration::from_secs(1));
    let client = fake.discord_client();
    let mut ws = raw_gateway(&fake.gateway_url()).await;
    next_frame(&mut ws).await.expect("HELLO");
    send_frame(&mut ws, identify(None)).await;
    next_frame(&mut ws).await.expect("READY");
    next_frame(&mut ws).await.expect("GUILD_CREATE");

    let callback = |p: &Pushed| format!("/interactions/{}/{}/callback", p.id, p.token);
    let pushed_at = std::time::Instant::now();
    let on_time = fake.push_now(Push::command("rules", vec![]));
    let got = next_frame(&mut ws).await.expect("INTERACTION_CREATE");
    assert_eq!(got["d"]["id"], on_time.id.to_string());
    assert!(pushed_at.elapsed() >= delay, "delivered after the delay");
    let (status, _, _) = raw_discord(
        &client,
        reqwest::Method::POST,
        &callback(&on_time),
        Some(json!({"type": 5, "data": {"flags": 64}})),
    )
    .await;
    assert_eq!(status, 204);
    let cb = fake
        .interaction(on_time.id)
        .and_then(|i| i.callback)
        .expect("callback");
    assert!(cb.after >= delay * 2, "both ways count: {:?}", cb.after);

    let late = fake.push_now(Push::command("rules", vec![]));
    next_frame(&mut ws).await.expect("INTERACTION_CREATE");
    tokio::time::sleep(Duration::from_millis(800)).await;
    let (status, _, body) = raw_discord(
        &client,
        reqwest::Method::POST,
        &callback(&late),
        Some(json!({"type": 5, "data": {"flags": 64}})),
    )
    .await;
    assert_eq!((status, body["code"].as_u64()), (404, Some(10062)));
    let v = fake.take_violations();
    assert_eq!(v.len(), 1, "{v:#?}");
    assert!(v[0].message.contains("deadline"), "{v:#?}");
}

// ----- silent messages (issue 22: players who turn pings off) -----

/// Discord's `@silent`: SUPPRESS_NOTIFICATIONS is taken where Discord takes it (a channel
/// message, an interaction's answer, a follow-up) and tests see it; the users it mentions are
/// pinged (their badge) but not notified; an edit cannot change it, either way; a flag a route
/// does not take is refused as Discord refuses an invalid body.
#[tokio::test]
async fn silent_messages_are_seen_and_flags_are_taken_only_where_discord_takes_them() {
    use serenity::all::{CreateAllowedMentions, InteractionResponseFlags, MessageFlags, MessageId};
    let fake = FakeDiscord::start().await;
    let http = fake.http();
    let channel = ChannelId::new(CHANNEL_ID);
    let text = format!("<@{ALICE}> your turn");
    let to_alice = || {
        CreateMessage::new()
            .content(&text)
            .allowed_mentions(CreateAllowedMentions::new().users([UserId::new(ALICE)]))
    };
    let silent = channel
        .send_message(
            &http,
            to_alice().flags(MessageFlags::SUPPRESS_NOTIFICATIONS),
        )
        .await
        .expect("a silent message");
    assert!(silent
        .flags
        .is_some_and(|f| f.contains(MessageFlags::SUPPRESS_NOTIFICATIONS)));
    let stored = fake.message(silent.id.get()).expect("stored");
    assert!(stored.silent());
    assert_eq!(stored.flags, 1 << 12);
    assert_eq!(stored.pinged_users, vec![ALICE], "the mention badge stays");
    assert!(stored.notified_users().is_empty(), "no push");
    let loud = channel
        .send_message(&http, to_alice())
        .await
        .expect("a message");
    let loud = fake.message(loud.id.get()).expect("stored");
    assert!(!loud.silent());
    assert_eq!(loud.notified_users(), vec![ALICE]);

    // Edits ignore it (Discord: unsupported flag changes are ignored without error).
    channel
        .edit_message(
            &http,
            MessageId::new(silent.id.get()),
            EditMessage::new()
                .content("edited")
                .flags(MessageFlags::empty()),
        )
        .await
        .expect("an edit");
    channel
        .edit_message(
            &http,
            MessageId::new(loud.id),
            EditMessage::new().flags(MessageFlags::SUPPRESS_NOTIFICATIONS),
        )
        .await
        .expect("an edit");
    assert!(fake.message(silent.id.get()).expect("stored").silent());
    assert!(!fake.message(loud.id).expect("stored").silent());
    fake.assert_clean();

    // EPHEMERAL is an interaction's, not a channel message's: refused.
    let e = channel
        .send_message(&http, to_alice().flags(MessageFlags::EPHEMERAL))
        .await
        .expect_err("refused");
    assert_eq!(discord_error(&e).map(|e| (e.0, e.1)), Some((400, 50035)));
    let v = fake.take_violations();
    assert!(
        v.len() == 1 && v[0].pointer == "/flags" && v[0].message.contains("0x40"),
        "{v:?}"
    );

    // An interaction's answer and its follow-up may be silent; a deferral may not.
    let pushed = fake.register_interaction(Push::command("board", vec![]));
    let ctx = (InteractionId::new(pushed.id), pushed.token.as_str());
    CreateInteractionResponse::Message(
        CreateInteractionResponseMessage::new()
            .content(&text)
            .flags(InteractionResponseFlags::SUPPRESS_NOTIFICATIONS),
    )
    .execute(&http, ctx)
    .await
    .expect("a silent answer");
    assert!(fake.original_response(pushed.id).expect("answer").silent());
    CreateInteractionResponseFollowup::new()
        .content(&text)
        .flags(MessageFlags::SUPPRESS_NOTIFICATIONS)
        .execute(&http, (None, &pushed.token))
        .await
        .expect("a silent follow-up");
    assert!(fake.followups(pushed.id)[0].silent());
    fake.assert_clean();
    let pushed = fake.register_interaction(Push::command("board", vec![]));
    let ctx = (InteractionId::new(pushed.id), pushed.token.as_str());
    let e = CreateInteractionResponse::Defer(
        CreateInteractionResponseMessage::new()
            .flags(InteractionResponseFlags::SUPPRESS_NOTIFICATIONS),
    )
    .execute(&http, ctx)
    .await
    .expect_err("a deferral takes only EPHEMERAL");
    assert_eq!(discord_error(&e).map(|e| (e.0, e.1)), Some((400, 50035)));
    let v = fake.take_violations();
    assert!(v.len() == 1 && v[0].pointer == "/data/flags", "{v:?}");
    fake.assert_clean();
}
