//! What tests push: slash commands (with options and locale), component clicks, autocomplete,
//! modal submits, built into INTERACTION_CREATE payloads.

use super::payloads;
use super::state::{ChannelKind, InteractionKind, State, ALICE, CHANNEL_ID};
use serde_json::{json, Map, Value};

/// Option values for a slash command (`opt::string("game", "cortexcape")`).
pub mod opt {
    use serde_json::{json, Value};

    pub fn string(name: &str, value: &str) -> Value {
        json!({"name": name, "type": 3, "value": value})
    }
    pub fn integer(name: &str, value: i64) -> Value {
        json!({"name": name, "type": 4, "value": value})
    }
    pub fn boolean(name: &str, value: bool) -> Value {
        json!({"name": name, "type": 5, "value": value})
    }
    /// A user option; the fake adds the user to `resolved`.
    pub fn user(name: &str, id: u64) -> Value {
        json!({"name": name, "type": 6, "value": id.to_string()})
    }
    pub fn number(name: &str, value: f64) -> Value {
        json!({"name": name, "type": 10, "value": value})
    }
    pub fn sub(name: &str, options: Vec<Value>) -> Value {
        json!({"name": name, "type": 1, "options": options})
    }
    pub fn group(name: &str, subs: Vec<Value>) -> Value {
        json!({"name": name, "type": 2, "options": subs})
    }
    /// The option being typed, for autocomplete.
    pub fn focused(name: &str, partial: &str) -> Value {
        json!({"name": name, "type": 3, "value": partial, "focused": true})
    }
}

/// Who does it, where, in which language.
#[derive(Clone, Debug)]
pub struct Actor {
    pub user: u64,
    pub channel: u64,
    pub locale: String,
}

impl Default for Actor {
    fn default() -> Self {
        Actor {
            user: ALICE,
            channel: CHANNEL_ID,
            locale: "en-US".into(),
        }
    }
}

/// An interaction to push.
#[derive(Clone, Debug)]
pub enum Push {
    /// `/name options...`
    Command {
        name: String,
        options: Vec<Value>,
        actor: Actor,
    },
    /// Typing in an option (one option marked with `opt::focused`).
    Autocomplete {
        name: String,
        options: Vec<Value>,
        actor: Actor,
    },
    /// A button click on a message the bot sent.
    Button {
        message_id: u64,
        custom_id: String,
        actor: Actor,
    },
    /// A string select choice on a message the bot sent.
    Select {
        message_id: u64,
        custom_id: String,
        values: Vec<String>,
        actor: Actor,
    },
    /// A modal submitted: (text input custom_id, value) pairs.
    Modal {
        custom_id: String,
        fields: Vec<(String, String)>,
        actor: Actor,
    },
}

impl Push {
    pub fn command(name: &str, options: Vec<Value>) -> Push {
        Push::Command {
            name: name.into(),
            options,
            actor: Actor::default(),
        }
    }
    pub fn autocomplete(name: &str, options: Vec<Value>) -> Push {
        Push::Autocomplete {
            name: name.into(),
            options,
            actor: Actor::default(),
        }
    }
    pub fn button(message_id: u64, custom_id: &str) -> Push {
        Push::Button {
            message_id,
            custom_id: custom_id.into(),
            actor: Actor::default(),
        }
    }
    pub fn select(message_id: u64, custom_id: &str, values: &[&str]) -> Push {
        Push::Select {
            message_id,
            custom_id: custom_id.into(),
            values: values.iter().map(|v| v.to_string()).collect(),
            actor: Actor::default(),
        }
    }
    pub fn modal(custom_id: &str, fields: &[(&str, &str)]) -> Push {
        Push::Modal {
            custom_id: custom_id.into(),
            fields: fields
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
            actor: Actor::default(),
        }
    }

    fn actor_mut(&mut self) -> &mut Actor {
        match self {
            Push::Command { actor, .. }
            | Push::Autocomplete { actor, .. }
            | Push::Button { actor, .. }
            | Push::Select { actor, .. }
            | Push::Modal { actor, .. } => actor,
        }
    }
    pub fn by(mut self, user: u64) -> Push {
        self.actor_mut().user = user;
        self
    }
    pub fn in_channel(mut self, channel: u64) -> Push {
        self.actor_mut().channel = channel;
        self
    }
    pub fn locale(mut self, locale: &str) -> Push {
        self.actor_mut().locale = locale.into();
        self
    }

    pub fn kind(&self) -> InteractionKind {
        match self {
            Push::Command { .. } => InteractionKind::Command,
            Push::Autocomplete { .. } => InteractionKind::Autocomplete,
            Push::Button { .. } | Push::Select { .. } => InteractionKind::Component,
            Push::Modal { .. } => InteractionKind::ModalSubmit,
        }
    }

    pub fn actor(&self) -> &Actor {
        match self {
            Push::Command { actor, .. }
            | Push::Autocomplete { actor, .. }
            | Push::Button { actor, .. }
            | Push::Select { actor, .. }
            | Push::Modal { actor, .. } => actor,
        }
    }

    pub fn message_id(&self) -> Option<u64> {
        match self {
            Push::Button { message_id, .. } | Push::Select { message_id, .. } => Some(*message_id),
            _ => None,
        }
    }
}

/// The `data` object of the interaction.
pub fn data(st: &State, push: &Push, fallback_id: u64) -> Result<Value, String> {
    Ok(match push {
        Push::Command { name, options, .. } | Push::Autocomplete { name, options, .. } => {
            let guild = st
                .channels
                .get(&push.actor().channel)
                .and_then(|c| c.guild_id);
            let registered = st
                .commands
                .iter()
                .filter(|c| c.body.get("name").and_then(Value::as_str) == Some(name.as_str()))
                .find(|c| c.guild_id.is_none() || c.guild_id == guild);
            let mut d = json!({
                // An unregistered command still needs a non-zero id.
                "id": registered.map_or(fallback_id, |c| c.id).to_string(),
                "name": name,
                "type": 1,
                "options": options,
            });
            if let Some(g) = registered.and_then(|c| c.guild_id) {
                d["guild_id"] = json!(g.to_string());
            }
            let resolved = resolved_users(st, options, guild, Some(push.actor().channel))?;
            if let Some(r) = resolved {
                d["resolved"] = r;
            }
            d
        }
        Push::Button { custom_id, .. } => json!({"custom_id": custom_id, "component_type": 2}),
        Push::Select {
            custom_id, values, ..
        } => {
            json!({"custom_id": custom_id, "component_type": 3, "values": values})
        }
        Push::Modal {
            custom_id, fields, ..
        } => {
            let rows: Vec<Value> = fields
                .iter()
                .map(|(id, value)| json!({"type": 1, "components": [{"type": 4, "custom_id": id, "value": value}]}))
                .collect();
            json!({"custom_id": custom_id, "components": rows})
        }
    })
}

/// `resolved.users`/`members` for the user options anywhere in the tree.
fn resolved_users(
    st: &State,
    options: &[Value],
    guild: Option<u64>,
    channel: Option<u64>,
) -> Result<Option<Value>, String> {
    let mut ids = Vec::new();
    collect_user_ids(options, &mut ids);
    if ids.is_empty() {
        return Ok(None);
    }
    let mut users = Map::new();
    let mut members = Map::new();
    for id in ids {
        let u = st
            .users
            .get(&id)
            .ok_or(format!("user option names unknown user {id}"))?;
        users.insert(id.to_string(), payloads::user(u));
        if guild.is_some() {
            let mut m = payloads::member(u);
            if let Some(o) = m.as_object_mut() {
                o.remove("user");
                o.remove("deaf");
                o.remove("mute");
            }
            let p = channel.map_or(payloads::ALL_TEXT_PERMISSIONS_BITS, |c| {
                st.channel_permissions(id, c)
            });
            m["permissions"] = json!(p.to_string());
            m["roles"] = json!(member_roles(st, id));
            members.insert(id.to_string(), m);
        }
    }
    let mut r = json!({"users": users});
    if guild.is_some() {
        r["members"] = Value::Object(members);
    }
    Ok(Some(r))
}

/// A member's role ids as strings.
fn member_roles(st: &State, user: u64) -> Vec<String> {
    st.member_roles
        .get(&user)
        .into_iter()
        .flatten()
        .map(u64::to_string)
        .collect()
}

fn collect_user_ids(options: &[Value], out: &mut Vec<u64>) {
    for o in options {
        if o["type"] == 6 {
            if let Some(id) = o["value"].as_str().and_then(|v| v.parse().ok()) {
                out.push(id);
            }
        }
        if let Some(inner) = o["options"].as_array() {
            collect_user_ids(inner, out);
        }
    }
}

/// The whole INTERACTION_CREATE `d`.
pub fn payload(st: &State, push: &Push, id: u64, token: &str, base: &str) -> Result<Value, String> {
    let actor = push.actor();
    let channel = st
        .channels
        .get(&actor.channel)
        .ok_or(format!("unknown channel {}", actor.channel))?;
    let user = st
        .users
        .get(&actor.user)
        .ok_or(format!("unknown user {}", actor.user))?;
    let mut v = json!({
        "id": id.to_string(),
        "application_id": st.application_id.to_string(),
        "type": push.kind().code(),
        "data": data(st, push, id + 1)?,
        "channel_id": channel.id.to_string(),
        "channel": payloads::channel(channel, st),
        "token": token,
        "version": 1,
        // What the bot may do in this channel, as Discord computes it.
        "app_permissions": match channel.guild_id {
            Some(_) => st.channel_permissions(st.bot_user_id, channel.id).to_string(),
            None => payloads::ALL_TEXT_PERMISSIONS.to_string(),
        },
        "locale": actor.locale,
        "entitlements": [],
        "attachment_size_limit": super::checks::MAX_FILE,
    });
    match channel.guild_id {
        Some(g) => {
            v["guild_id"] = json!(g.to_string());
            v["guild_locale"] = json!(st.guild_locale);
            v["member"] = payloads::interaction_member(user, g);
            // The invoker's permissions in the channel the interaction comes from.
            v["member"]["permissions"] =
                json!(st.channel_permissions(user.id, channel.id).to_string());
            v["member"]["roles"] = json!(member_roles(st, user.id));
            v["authorizing_integration_owners"] = json!({"0": g.to_string()});
            v["context"] = json!(0);
        }
        None => {
            if channel.kind != ChannelKind::Dm || channel.recipient != Some(actor.user) {
                return Err("a DM interaction must come from the DM's recipient".into());
            }
            v["user"] = payloads::user(user);
            v["authorizing_integration_owners"] = json!({"0": "0"});
            v["context"] = json!(1);
        }
    }
    if let Some(mid) = push.message_id() {
        let m = st
            .message(mid)
            .filter(|m| m.channel_id == channel.id)
            .ok_or(format!(
                "no message {mid} in channel {} to click on",
                channel.id
            ))?;
        if let Push::Button { custom_id, .. } | Push::Select { custom_id, .. } = push {
            if !has_component(&m.components, custom_id) {
                return Err(format!("message {mid} has no component {custom_id:?}"));
            }
        }
        v["message"] = payloads::message(m, st, base);
    }
    Ok(v)
}

fn has_component(components: &[Value], custom_id: &str) -> bool {
    components.iter().any(|c| {
        c.get("custom_id").and_then(Value::as_str) == Some(custom_id)
            || c.get("components")
                .and_then(Value::as_array)
                .is_some_and(|inner| has_component(inner, custom_id))
    })
}
