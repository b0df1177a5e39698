//! JSON objects the fake sends (REST answers and gateway dispatches), each checked to parse as
//! serenity's own model type so a typo fails a test instead of vanishing.

use super::state::{Attachment, ChannelKind, ChannelRec, Message, State, UserRec};
use serde::de::DeserializeOwned;
use serde_json::{json, Value};

/// A fixed timestamp: nothing in the tests depends on the date.
pub const TIMESTAMP: &str = "2026-01-01T00:00:00.000000+00:00";

/// Parses `value` as the serenity type `T`; the error names what was built.
pub fn check_model<T: DeserializeOwned>(what: &str, value: &Value) -> Result<(), String> {
    serde_json::from_value::<T>(value.clone())
        .map(|_| ())
        .map_err(|e| {
            format!(
                "{what} does not parse as {}: {e}",
                std::any::type_name::<T>()
            )
        })
}

pub fn user(u: &UserRec) -> Value {
    json!({
        "id": u.id.to_string(),
        "username": u.name,
        "global_name": u.name,
        "discriminator": "0",
        "avatar": null,
        "bot": u.bot,
        "public_flags": 0,
    })
}

pub fn member(u: &UserRec) -> Value {
    json!({
        "user": user(u),
        "nick": null,
        "avatar": null,
        "roles": [],
        "joined_at": TIMESTAMP,
        "premium_since": null,
        "deaf": false,
        "mute": false,
        "flags": 0,
        "pending": false,
        "communication_disabled_until": null,
    })
}

/// An interaction's `member`: a member plus the invoker's permissions.
pub fn interaction_member(u: &UserRec, guild_id: u64) -> Value {
    let mut m = member(u);
    m["permissions"] = json!(ALL_TEXT_PERMISSIONS);
    m["guild_id"] = json!(guild_id.to_string());
    m
}

/// View, send, embed, attach, read history, threads: what a bot in a games channel has.
pub const ALL_TEXT_PERMISSIONS: &str = "395137215552";
pub const ALL_TEXT_PERMISSIONS_BITS: u64 = 395_137_215_552;

pub fn channel(c: &ChannelRec, state: &State) -> Value {
    let mut v = json!({
        "id": c.id.to_string(),
        "type": c.kind.code(),
    });
    match c.kind {
        ChannelKind::Dm => {
            let recipient = c.recipient.and_then(|r| state.users.get(&r));
            v["recipients"] = json!(recipient.map(user).into_iter().collect::<Vec<_>>());
            v["last_message_id"] = Value::Null;
            v["flags"] = json!(0);
        }
        ChannelKind::Text | ChannelKind::PublicThread | ChannelKind::PrivateThread => {
            v["guild_id"] = json!(c.guild_id.unwrap_or(state.guild_id).to_string());
            v["name"] = json!(c.name);
            v["position"] = json!(0);
            let overwrites: Vec<Value> = c.overwrites.iter().map(|o| o.to_json()).collect();
            v["permission_overwrites"] = json!(overwrites);
            v["nsfw"] = json!(false);
            v["flags"] = json!(0);
            v["last_message_id"] = Value::Null;
            v["rate_limit_per_user"] = json!(0);
            if let Some(parent) = c.parent_id {
                v["parent_id"] = json!(parent.to_string());
            }
            if c.kind != ChannelKind::Text {
                v["owner_id"] = json!(state.bot_user_id.to_string());
                v["member_count"] = json!(1);
                v["message_count"] = json!(0);
                v["thread_metadata"] = json!({
                    "archived": c.archived,
                    "auto_archive_duration": c.auto_archive_duration,
                    "archive_timestamp": TIMESTAMP,
                    "locked": c.locked,
                    "invitable": c.invitable,
                    "create_timestamp": TIMESTAMP,
                });
                v["total_message_sent"] = json!(0);
            } else {
                v["topic"] = Value::Null;
            }
        }
    }
    v
}

pub fn attachment(a: &Attachment, base: &str) -> Value {
    let mut v = json!({
        "id": a.id.to_string(),
        "filename": a.filename,
        "size": a.bytes.len(),
        "url": format!("{base}/attachments/{}/{}", a.id, a.filename),
        "proxy_url": format!("{base}/attachments/{}/{}", a.id, a.filename),
    });
    if let Some(ct) = &a.content_type {
        v["content_type"] = json!(ct);
    }
    if let Some((w, h)) = a.dimensions {
        v["width"] = json!(w);
        v["height"] = json!(h);
    }
    if let Some(d) = &a.description {
        v["description"] = json!(d);
    }
    v
}

pub fn message(m: &Message, state: &State, base: &str) -> Value {
    let author = state
        .users
        .get(&m.author_id)
        .map(user)
        .unwrap_or_else(|| json!({"id": m.author_id.to_string(), "username": "unknown", "discriminator": "0", "avatar": null}));
    let mut v = json!({
        "id": m.id.to_string(),
        "channel_id": m.channel_id.to_string(),
        "author": author,
        "content": m.content,
        "timestamp": TIMESTAMP,
        "edited_timestamp": if m.edits > 0 { json!(TIMESTAMP) } else { Value::Null },
        "tts": false,
        "mention_everyone": false,
        "mentions": [],
        "mention_roles": [],
        "attachments": m.attachments.iter().map(|a| attachment(a, base)).collect::<Vec<_>>(),
        "embeds": m.embeds,
        "components": m.components,
        "pinned": false,
        "type": if m.interaction_id.is_some() { 20 } else { 0 },
        "flags": m.flags,
    });
    if let Some(guild) = state.channels.get(&m.channel_id).and_then(|c| c.guild_id) {
        v["guild_id"] = json!(guild.to_string());
    }
    if let Some(w) = m.webhook_id {
        v["webhook_id"] = json!(w.to_string());
        v["application_id"] = json!(state.application_id.to_string());
    }
    v
}

pub fn current_user(state: &State) -> Value {
    let bot = state
        .users
        .get(&state.bot_user_id)
        .map(user)
        .unwrap_or(Value::Null);
    let mut v = bot;
    v["verified"] = json!(true);
    v["mfa_enabled"] = json!(false);
    v["flags"] = json!(0);
    v["bot"] = json!(true);
    v
}

pub fn application(state: &State) -> Value {
    let owner = state
        .users
        .get(&state.owner_id)
        .map(user)
        .unwrap_or(Value::Null);
    json!({
        "id": state.application_id.to_string(),
        "name": state.application_name,
        "icon": null,
        "description": "",
        "bot_public": true,
        "bot_require_code_grant": false,
        "owner": owner,
        "summary": "",
        "verify_key": "0000",
        "team": null,
        "flags": 0,
        "bot": current_user(state),
    })
}

pub fn guild_create(state: &State) -> Value {
    guild_create_of(state, state.guild_id)
}

/// GUILD_CREATE for one of the bot's guilds (the main one or one of `extra_guilds`).
pub fn guild_create_of(state: &State, guild: u64) -> Value {
    let channels: Vec<Value> = state
        .channels
        .values()
        .filter(|c| c.kind == ChannelKind::Text && c.guild_id == Some(guild))
        .map(|c| channel(c, state))
        .collect();
    let threads: Vec<Value> = state
        .channels
        .values()
        .filter(|c| c.kind != ChannelKind::Text && c.guild_id == Some(guild))
        .map(|c| channel(c, state))
        .collect();
    // The bot's own member comes with every GUILD_CREATE, whatever its intents.
    let me = UserRec {
        id: state.bot_user_id,
        name: "Croupier".into(),
        bot: true,
        dms_closed: false,
        left_guild: false,
    };
    let members: Vec<Value> = state
        .users
        .values()
        .chain(std::iter::once(&me))
        .map(|u| {
            let mut m = member(u);
            let roles = state.member_roles.get(&u.id).cloned().unwrap_or_default();
            m["roles"] = json!(roles.iter().map(u64::to_string).collect::<Vec<_>>());
            m
        })
        .collect();
    let joined_at = state.joined_at.get(&guild).map_or_else(
        || TIMESTAMP.to_string(),
        |at| {
            serenity::model::Timestamp::from_unix_timestamp(*at)
                .map_or_else(|_| TIMESTAMP.to_string(), |t| t.to_string())
        },
    );
    let system_channel = state.system_channels.get(&guild).map(u64::to_string);
    // The roles the fake enforces (the guild's id is @everyone), so a bot reading its cache
    // sees the rights the REST side checks.
    let role = |id: u64, perms: u64, position: usize| {
        json!({
            "id": if id == state.guild_id { guild } else { id }.to_string(),
            "name": if id == state.guild_id { "@everyone".to_string() } else { format!("role-{id}") },
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": null, "tertiary_color": null},
            "hoist": false,
            "icon": null,
            "unicode_emoji": null,
            "position": position,
            "permissions": perms.to_string(),
            "managed": false,
            "mentionable": false,
            "flags": 0,
        })
    };
    let mut roles = vec![role(
        state.guild_id,
        state.roles.get(&state.guild_id).copied().unwrap_or(0),
        0,
    )];
    roles.extend(
        state
            .roles
            .iter()
            .filter(|(id, _)| **id != state.guild_id)
            .enumerate()
            .map(|(i, (id, p))| role(*id, *p, i + 1)),
    );
    let name = if guild == state.guild_id {
        "Croupier test guild".to_string()
    } else {
        format!("Guild {guild}")
    };
    let guild_id = guild.to_string();
    json!({
        "id": guild_id,
        "name": name,
        "icon": null,
        "icon_hash": null,
        "splash": null,
        "discovery_splash": null,
        "owner_id": state.owner_id.to_string(),
        "afk_channel_id": null,
        "afk_timeout": 300,
        "verification_level": 0,
        "default_message_notifications": 0,
        "explicit_content_filter": 0,
        "roles": roles,
        "emojis": [],
        "features": if state.community { vec!["COMMUNITY"] } else { Vec::new() },
        "mfa_level": 0,
        "application_id": null,
        "system_channel_id": system_channel,
        "system_channel_flags": 0,
        "rules_channel_id": null,
        "vanity_url_code": null,
        "description": null,
        "banner": null,
        "premium_tier": 0,
        "preferred_locale": state.guild_locale,
        "public_updates_channel_id": null,
        "nsfw_level": 0,
        "stickers": [],
        "premium_progress_bar_enabled": false,
        "safety_alerts_channel_id": null,
        "joined_at": joined_at,
        "large": false,
        "unavailable": false,
        "member_count": members.len(),
        "voice_states": [],
        "members": members,
        "channels": channels,
        "threads": threads,
        "presences": [],
        "stage_instances": [],
        "guild_scheduled_events": [],
    })
}

pub fn command(c: &super::state::CommandRec, application_id: u64) -> Value {
    let mut v = c.body.clone();
    v["id"] = json!(c.id.to_string());
    v["application_id"] = json!(application_id.to_string());
    v["version"] = json!(c.id.to_string());
    if let Some(g) = c.guild_id {
        v["guild_id"] = json!(g.to_string());
    }
    if v.get("type").is_none() {
        v["type"] = json!(1);
    }
    if v.get("description").is_none() {
        v["description"] = json!("");
    }
    v["default_member_permissions"] = v
        .get("default_member_permissions")
        .cloned()
        .unwrap_or(Value::Null);
    v
}
