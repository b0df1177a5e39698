//! The bot's first words in a server that just added it, and its presence (issue 41).
//!
//! **Welcome.** One message, when a server adds the bot: in the server's system channel, or
//! else the first text channel the bot may post in, with the three commands to start and the
//! permissions checklist for the admins (each right ticked as the bot has it there). Only a
//! fresh join counts: the GUILD_CREATE of a guild not in the cache (serenity's `is_new`, false
//! for the guilds READY announces) whose `joined_at` is minutes old, so a restart or a
//! reconnection never greets again; the nonce `w<guild>` makes a second process or a retry
//! within Discord's nonce window hand back the same message.
//!
//! **Presence.** "Playing N games · /help", read from the database (every process's games)
//! and sent only when N changed, at most once per [`PRESENCE_EVERY`] per shard: Discord allows
//! 120 gateway events a minute per connection and disconnects past it (`events/gateway.mdx`,
//! rate limiting); heartbeats take one every 41 s.

use std::sync::Arc;
use std::time::Duration;

use poise::serenity_prelude as serenity;
use serenity::{ChannelType, CreateMessage, Permissions};

use super::help::mention;
use super::mentions::nobody;
use super::retry::{code_of, posting};
use super::send::{MISSING_ACCESS, MISSING_PERMISSIONS};
use super::Data;
use crate::i18n::{Lang, Text};

/// How recent a join must be for its GUILD_CREATE to be greeted.
const FRESH_JOIN: i64 = 10 * 60;
/// Channels tried at most, when the cache cannot tell where the bot may post.
const TRIES: usize = 3;
/// How often the presence is looked at (and sent if the count changed).
pub const PRESENCE_EVERY: Duration = Duration::from_secs(60);

/// The rights the checklist names, each with its catalog key.
const CHECKLIST: [(Permissions, &str); 7] = [
    (Permissions::VIEW_CHANNEL, "view"),
    (Permissions::SEND_MESSAGES, "send"),
    (Permissions::SEND_MESSAGES_IN_THREADS, "send_threads"),
    (Permissions::CREATE_PUBLIC_THREADS, "threads"),
    (Permissions::CREATE_PRIVATE_THREADS, "private_threads"),
    (Permissions::ATTACH_FILES, "files"),
    (Permissions::READ_MESSAGE_HISTORY, "history"),
];

/// A GUILD_CREATE: greets the server if it just added the bot.
pub async fn on_guild_create(
    ctx: &serenity::Context,
    data: &Data,
    guild: &serenity::Guild,
    is_new: Option<bool>,
) {
    let age = serenity::Timestamp::now().unix_timestamp() - guild.joined_at.unix_timestamp();
    if is_new != Some(true) || !(0..=FRESH_JOIN).contains(&age) {
        return;
    }
    let me = ctx.cache.current_user().id;
    let member = guild.members.get(&me);
    let mut tried = 0;
    for channel in candidates(guild) {
        let rights = member.map(|m| guild.user_permissions_in(channel, m));
        if rights
            .is_some_and(|r| !r.contains(Permissions::VIEW_CHANNEL | Permissions::SEND_MESSAGES))
        {
            continue;
        }
        if tried == TRIES {
            break;
        }
        tried += 1;
        let text = message(data, guild, rights);
        let msg = CreateMessage::new()
            .content(super::layout::content(&text))
            .allowed_mentions(nobody())
            .nonce(serenity::Nonce::String(format!("w{}", guild.id)))
            .enforce_nonce(true);
        let sent = posting(&data.pace, "post a welcome", || {
            channel.id.send_message(&ctx.http, msg.clone())
        })
        .await;
        match sent {
            Ok(_) => {
                tracing::info!(guild = %guild.id, channel = %channel.id, "welcomed a new server");
                return;
            }
            // The cache did not know: try the next channel.
            Err(e) if matches!(code_of(&e), Some(MISSING_ACCESS | MISSING_PERMISSIONS)) => {}
            Err(e) => {
                tracing::warn!(guild = %guild.id, error = %e, "could not welcome a new server");
                return;
            }
        }
    }
    tracing::info!(guild = %guild.id, "no channel to welcome a new server in");
}

/// Where to greet, best first: the system channel, then the text channels in their order.
fn candidates(guild: &serenity::Guild) -> Vec<&serenity::GuildChannel> {
    let mut text: Vec<&serenity::GuildChannel> = guild
        .channels
        .values()
        .filter(|c| c.kind == ChannelType::Text)
        .collect();
    text.sort_by_key(|c| (c.position, c.id));
    let system = guild.system_channel_id;
    text.sort_by_key(|c| Some(c.id) != system);
    text
}

/// The welcome in the server's language (a Community server's), else in English then French:
/// other servers all say en-US, whatever their members speak.
fn message(data: &Data, guild: &serenity::Guild, rights: Option<Permissions>) -> String {
    let community = guild.features.iter().any(|f| f == "COMMUNITY");
    let lang = Lang::from_locale(&guild.preferred_locale);
    if community || lang != Lang::En {
        in_lang(data, rights, lang)
    } else {
        [Lang::En, Lang::Fr]
            .map(|l| in_lang(data, rights, l))
            .join("\n\n")
    }
}

fn in_lang(data: &Data, rights: Option<Permissions>, lang: Lang) -> String {
    let checklist: Vec<String> = CHECKLIST
        .iter()
        .map(|(right, key)| {
            let mark = match rights {
                Some(r) if r.contains(*right) => "✅ ",
                Some(_) => "❌ ",
                None => "• ",
            };
            format!(
                "{mark}{}",
                Text::new(format!("bot.welcome.right.{key}")).render(lang)
            )
        })
        .collect();
    Text::new("bot.welcome.text")
        .arg("play", mention(data, "play", lang))
        .arg("help", mention(data, "help", lang))
        .arg("rules", mention(data, "rules", lang))
        .arg("settings", mention(data, "settings", lang))
        .arg("checklist", checklist.join("\n"))
        .render(lang)
}

/// What the presence says for `games` running games.
pub fn activity(games: i64) -> String {
    Text::new("bot.welcome.presence")
        .arg("n", games)
        .render(Lang::En)
}

/// The presence of a shard that just got READY (so it is connected and identified): the
/// running games, as [`presence_loop`] keeps it.
pub async fn on_ready(ctx: &serenity::Context, data: &Data) {
    match data.service.clocks().games_running().await {
        Ok(games) => ctx.set_activity(Some(serenity::ActivityData::playing(activity(games)))),
        Err(e) => tracing::warn!(error = %e, "could not count the running games"),
    }
}

/// Sets every shard's presence of this process to the running games, whenever their count
/// changes (looked at every `every`).
///
/// Only a connected shard is told: serenity sends an activity at once on the shard's socket,
/// and a shard still between its Hello and its IDENTIFY would send Discord a payload before
/// identifying, which Discord answers with close code 4003 ("Not authenticated"). A shard
/// that is not connected yet is told at a later look.
pub async fn presence_loop(
    service: crate::service::Service,
    shards: Arc<serenity::ShardManager>,
    every: Duration,
) {
    let mut shown: std::collections::HashMap<serenity::ShardId, i64> = Default::default();
    let mut tick = tokio::time::interval(every);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    // A shard still connecting is looked at again soon, not a whole `every` later.
    let mut connecting = false;
    loop {
        if connecting {
            tokio::time::sleep(every.min(Duration::from_secs(1))).await;
        } else {
            tick.tick().await;
        }
        let games = match service.clocks().games_running().await {
            Ok(n) => n,
            Err(e) => {
                tracing::warn!(error = %e, "could not count the running games");
                continue;
            }
        };
        let runners = shards.runners.lock().await;
        // A shard is told again only when the count changes: a resumed session keeps its
        // presence, and a new one is told at its READY (`on_ready`).
        shown.retain(|id, _| runners.contains_key(id));
        let text = activity(games);
        connecting = false;
        for (id, info) in runners.iter() {
            let connected = matches!(info.stage, serenity::ConnectionStage::Connected);
            connecting |= !connected;
            if connected && shown.get(id) != Some(&games) {
                info.runner_tx
                    .set_activity(Some(serenity::ActivityData::playing(text.clone())));
                shown.insert(*id, games);
            }
        }
    }
}
