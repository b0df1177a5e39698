//! `/learn game:<g>`: a guided first game against an easy bot, in a private thread of the
//! channel (issue 41 item 3). The lesson is a game of the service's (`Service::lessons`):
//! this file only finds it a place, posts its boards and answers the learner privately.
//!
//! The thread is private so the lesson is the learner's alone: only its members (the learner
//! and the bot) and moderators (Manage Threads) see it. That needs Create Private Threads;
//! where the bot lacks it, or `/learn` is used in a thread, the learner is told so and nothing
//! is stored.

use poise::serenity_prelude as serenity;

use super::common::{autocomplete_game, defer, parse_kind};
use super::retry::posting;
use super::send::{self, author_id};
use super::{id_i64, id_u64, lang_of, Context, Error};
use crate::engine::GameKind;
use crate::i18n::{Lang, Text};
use crate::service::{Place, Player};

/// A guided first game against a bot, in a private thread; again to resume it.
#[poise::command(slash_command, guild_only)]
pub async fn learn(
    ctx: Context<'_>,
    #[autocomplete = "autocomplete_game"] game: String,
    leave: Option<bool>,
) -> Result<(), Error> {
    defer(ctx).await?;
    let lang = lang_of(ctx);
    let kind = parse_kind(&game).map_err(Error::User)?;
    let user = author_id(ctx);
    let service = &ctx.data().service;
    let open = service.lessons().open_lesson(user, kind).await?;
    if leave == Some(true) {
        return leave_lesson(ctx, kind, open, lang).await;
    }
    if let Some(game) = open {
        // Resumed: its current board (with its hint) again at the bottom of its thread.
        let outputs = service.lessons().resume(game, lang, service.now()).await?;
        send::deliver(ctx.http(), ctx.data(), &outputs).await?;
        let text = Text::new("learn.resumed")
            .arg("game", kind.display_name())
            .arg("thread", thread_mention(outputs.table.thread))
            .render(lang);
        return send::reply_text(ctx, &text).await;
    }
    let Some(channel) = private_thread_parent(ctx) else {
        return Err(Error::User(Text::new("learn.not_here")));
    };
    // Asked first from what Discord says of the bot's rights here, so that no refused request
    // is spent (Discord counts those against the bot).
    if !may_open_private_threads(ctx) {
        return Err(Error::User(Text::new("learn.no_private_threads")));
    }
    let thread = match open_private_thread(ctx, channel, kind, lang).await {
        Ok(thread) => thread,
        Err(e) if super::retry::code_of(&e) == Some(send::MISSING_PERMISSIONS) => {
            return Err(Error::User(Text::new("learn.no_private_threads")));
        }
        Err(e) => return Err(e.into()),
    };
    let learner = Player {
        user: Some(user),
        name: super::common::author_name(ctx),
        is_bot: false,
    };
    let place = Place {
        guild: ctx.guild_id().map(|g| id_i64(g.get())),
        channel: Some(id_i64(channel.get())),
        thread: Some(id_i64(thread.get())),
    };
    let (_, outputs) = service
        .lessons()
        .start(kind, learner, place, lang, service.now())
        .await?;
    send::deliver(ctx.http(), ctx.data(), &outputs).await?;
    let text = Text::new("learn.started")
        .arg("game", kind.display_name())
        .arg("thread", thread_mention(Some(id_i64(thread.get()))))
        .render(lang);
    send::reply_text(ctx, &text).await
}

/// `/learn game:<g> leave:True`: the running lesson is cancelled, with a word in its thread.
async fn leave_lesson(
    ctx: Context<'_>,
    kind: GameKind,
    open: Option<crate::engine::GameId>,
    lang: Lang,
) -> Result<(), Error> {
    let service = &ctx.data().service;
    let Some(game) = open else {
        return Err(Error::User(
            Text::new("learn.none_to_leave").arg("game", kind.display_name()),
        ));
    };
    let view = service.lobbies().lobby(game).await?;
    if !service
        .lessons()
        .leave(game, author_id(ctx), service.now())
        .await?
    {
        return Err(Error::User(
            Text::new("learn.none_to_leave").arg("game", kind.display_name()),
        ));
    }
    if let Some(thread) = view.thread {
        let place = serenity::ChannelId::new(id_u64(thread).max(1));
        let text = Text::new("learn.left_thread").render(lang);
        let data = ctx.data();
        let msg = send::place_message(data, Some(view.game), &text, &[]).await;
        if let Some(live) = view.board_message {
            // The lesson's live board loses its buttons: nothing is left to play.
            let board = serenity::MessageId::new(id_u64(live).max(1));
            let bare = serenity::EditMessage::new().components(Vec::new());
            let _ = posting(&data.pace, "retire a lesson's board", || {
                place.edit_message(ctx.http(), board, bare.clone())
            })
            .await;
        }
        if let Err(e) = posting(&data.pace, "close a lesson", || {
            place.send_message(ctx.http(), msg.clone())
        })
        .await
        {
            tracing::info!(%game, error = %e, "could not say in its thread that a lesson ended");
        }
        // Archived like a finished game's: a left lesson leaves the server's active threads
        // (Discord caps them), so a member who starts and leaves lessons again and again does
        // not fill them. It stays readable.
        send::archive_thread(ctx.http(), &data.pace, &view).await;
    }
    let text = Text::new("learn.left")
        .arg("game", kind.display_name())
        .render(lang);
    send::reply_text(ctx, &text).await
}

/// The text channel a lesson's private thread can open in: the one `/learn` was used in,
/// unless that is a thread (Discord starts no thread inside a thread).
fn private_thread_parent(ctx: Context<'_>) -> Option<serenity::ChannelId> {
    let Context::Application(a) = ctx else {
        return None;
    };
    let channel = a.interaction.channel.as_ref()?;
    (channel.kind == serenity::ChannelType::Text).then_some(ctx.channel_id())
}

/// Whether the interaction's `app_permissions` (the bot's rights in this channel, computed by
/// Discord) let it open a private thread and post the lesson's boards in it. Unknown: yes
/// (Discord then answers the request itself).
fn may_open_private_threads(ctx: Context<'_>) -> bool {
    use serenity::Permissions as P;
    let Context::Application(a) = ctx else {
        return true;
    };
    a.interaction.app_permissions.is_none_or(|have| {
        have.contains(
            P::CREATE_PRIVATE_THREADS
                | P::SEND_MESSAGES_IN_THREADS
                | P::VIEW_CHANNEL
                | P::ATTACH_FILES,
        )
    })
}

/// Opens the lesson's private thread in `channel` with the learner in it. Discord refuses it
/// without Create Private Threads (403 / 50013).
async fn open_private_thread(
    ctx: Context<'_>,
    channel: serenity::ChannelId,
    kind: GameKind,
    lang: Lang,
) -> Result<serenity::ChannelId, serenity::Error> {
    let data = ctx.data();
    let name = Text::new("learn.thread")
        .arg("game", kind.display_name())
        .arg("name", ctx.author().name.clone())
        .render(lang);
    let name: String = name.chars().take(100).collect();
    let create = serenity::CreateThread::new(name)
        .kind(serenity::ChannelType::PrivateThread)
        .invitable(false)
        .auto_archive_duration(serenity::AutoArchiveDuration::OneDay);
    let thread = posting(&data.pace, "open a lesson's thread", || {
        channel.create_thread(ctx.http(), create.clone())
    })
    .await?
    .id;
    let learner = ctx.author().id;
    posting(&data.pace, "add the learner to the lesson", || {
        thread.add_thread_member(ctx.http(), learner)
    })
    .await?;
    Ok(thread)
}

fn thread_mention(thread: Option<i64>) -> String {
    thread.map_or_else(String::new, |t| format!("<#{}>", id_u64(t)))
}
