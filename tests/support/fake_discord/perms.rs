//! Permissions and mentions as Discord computes them.
//!
//! Permissions (Discord's "Permissions" page, "Permission Hierarchy"): a member's base
//! permissions are the `@everyone` role's (its id is the guild's) OR-ed with each of their
//! roles'; the guild owner and `ADMINISTRATOR` have everything. In a channel, overwrites then
//! apply in order: `@everyone`'s deny then allow, all the member's roles' denies then allows
//! (combined), then the member's own deny then allow. A thread takes its parent channel's
//! overwrites ("Inherited Permissions"). Without `VIEW_CHANNEL` a member has no permission in
//! the channel at all, and without the right to send (`SEND_MESSAGES`, in a thread
//! `SEND_MESSAGES_IN_THREADS`) they cannot mention everyone, embed or attach ("Implicit
//! Permissions").
//!
//! Mentions (the "Message Resource" page, "Allowed Mentions Object"): without
//! `allowed_mentions`, every user, role and `@everyone`/`@here` written in the content pings;
//! with it, `parse` lists the kinds that ping from the content, and `users` / `roles` list
//! the only ones of that kind that may ping. A mention escaped with `\` is plain text.

use serde_json::Value;

use super::state::{ChannelKind, State};

pub const CREATE_INSTANT_INVITE: u64 = 1 << 0;
pub const ADMINISTRATOR: u64 = 1 << 3;
pub const MANAGE_CHANNELS: u64 = 1 << 4;
pub const MANAGE_GUILD: u64 = 1 << 5;
pub const ADD_REACTIONS: u64 = 1 << 6;
pub const VIEW_CHANNEL: u64 = 1 << 10;
pub const SEND_MESSAGES: u64 = 1 << 11;
pub const MANAGE_MESSAGES: u64 = 1 << 13;
pub const EMBED_LINKS: u64 = 1 << 14;
pub const ATTACH_FILES: u64 = 1 << 15;
pub const READ_MESSAGE_HISTORY: u64 = 1 << 16;
pub const MENTION_EVERYONE: u64 = 1 << 17;
pub const USE_APPLICATION_COMMANDS: u64 = 1 << 31;
pub const MANAGE_THREADS: u64 = 1 << 34;
pub const CREATE_PUBLIC_THREADS: u64 = 1 << 35;
pub const CREATE_PRIVATE_THREADS: u64 = 1 << 36;
pub const SEND_MESSAGES_IN_THREADS: u64 = 1 << 38;
pub const ALL: u64 = (1 << 51) - 1;
/// A member with no moderator rights: sees, reads and writes in channels and threads.
pub const PLAIN_MEMBER: u64 =
    VIEW_CHANNEL | SEND_MESSAGES | READ_MESSAGE_HISTORY | SEND_MESSAGES_IN_THREADS;

/// Who an overwrite is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    Role(u64),
    Member(u64),
}

/// A channel's permission overwrite.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Overwrite {
    pub target: Target,
    pub allow: u64,
    pub deny: u64,
}

impl Overwrite {
    /// As in a channel object's `permission_overwrites`.
    pub fn to_json(self) -> Value {
        let (id, kind) = match self.target {
            Target::Role(id) => (id, 0),
            Target::Member(id) => (id, 1),
        };
        serde_json::json!({
            "id": id.to_string(),
            "type": kind,
            "allow": self.allow.to_string(),
            "deny": self.deny.to_string(),
        })
    }
}

impl State {
    /// The member's permissions in the guild, before any channel overwrite.
    pub fn base_permissions(&self, user: u64) -> u64 {
        if user == self.owner_id {
            return ALL;
        }
        let everyone = self.roles.get(&self.guild_id).copied().unwrap_or(0);
        let own = self
            .member_roles
            .get(&user)
            .into_iter()
            .flatten()
            .filter_map(|r| self.roles.get(r))
            .fold(everyone, |p, r| p | r);
        if own & ADMINISTRATOR != 0 {
            ALL
        } else {
            own
        }
    }

    /// Whether `user` sees `channel`: View Channel there, and for a private thread, being its
    /// member or having Manage Threads.
    pub fn can_view(&self, user: u64, channel: u64) -> bool {
        let have = self.channel_permissions(user, channel);
        let Some(c) = self.channels.get(&channel) else {
            return true;
        };
        if c.kind == ChannelKind::PrivateThread {
            return have & MANAGE_THREADS != 0
                || self
                    .thread_members
                    .get(&channel)
                    .is_some_and(|m| m.contains(&user));
        }
        true
    }

    /// The member's permissions in `channel` (a thread counts as its parent), as Discord
    /// computes them; `member_permissions` set by a test replaces the computation.
    pub fn channel_permissions(&self, user: u64, channel: u64) -> u64 {
        if let Some(p) = self
            .member_permissions
            .get(&user)
            .and_then(|p| p.parse().ok())
        {
            return p;
        }
        let base = self.base_permissions(user);
        if base == ALL {
            return ALL;
        }
        let Some(c) = self.channels.get(&channel) else {
            return 0;
        };
        let in_thread = c.kind != ChannelKind::Text;
        let c = match c.parent_id.and_then(|p| self.channels.get(&p)) {
            Some(parent) if in_thread => parent,
            _ => c,
        };
        let mut p = base;
        let roles = self.member_roles.get(&user).cloned().unwrap_or_default();
        let (mut role_allow, mut role_deny) = (0, 0);
        let mut member = None;
        for o in &c.overwrites {
            match o.target {
                Target::Role(r) if r == self.guild_id => p = (p & !o.deny) | o.allow,
                Target::Role(r) if roles.contains(&r) => {
                    role_allow |= o.allow;
                    role_deny |= o.deny;
                }
                Target::Member(m) if m == user => member = Some(*o),
                _ => {}
            }
        }
        p = (p & !role_deny) | role_allow;
        if let Some(o) = member {
            p = (p & !o.deny) | o.allow;
        }
        if p & VIEW_CHANNEL == 0 {
            return 0;
        }
        // Sending is the base of attaching, embedding and mentioning everyone; in a thread
        // sending is SEND_MESSAGES_IN_THREADS (SEND_MESSAGES is not inherited).
        let send = if in_thread {
            SEND_MESSAGES_IN_THREADS
        } else {
            SEND_MESSAGES
        };
        if p & send == 0 {
            p &= !(MENTION_EVERYONE | EMBED_LINKS | ATTACH_FILES);
        }
        p
    }
}

/// What a bot message pings: (users, roles, everyone), given its content and
/// `allowed_mentions` (absent: everything written pings).
pub fn pings(content: &str, allowed: Option<&Value>) -> (Vec<u64>, Vec<u64>, bool) {
    let written = written_mentions(content);
    let Some(allowed) = allowed else {
        return (written.users, written.roles, written.everyone);
    };
    let parse: Vec<&str> = allowed
        .get("parse")
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let listed = |key: &str| -> Vec<u64> {
        allowed
            .get(key)
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(|v| match v {
                        Value::String(s) => s.parse().ok(),
                        Value::Number(n) => n.as_u64(),
                        _ => None,
                    })
                    .collect()
            })
            .unwrap_or_default()
    };
    let (users, roles) = (listed("users"), listed("roles"));
    let pick = |written: Vec<u64>, kind: &str, listed: &[u64]| -> Vec<u64> {
        written
            .into_iter()
            .filter(|id| parse.contains(&kind) || listed.contains(id))
            .collect()
    };
    (
        pick(written.users, "users", &users),
        pick(written.roles, "roles", &roles),
        written.everyone && parse.contains(&"everyone"),
    )
}

/// Mentions written in a message's content.
#[derive(Debug, Default)]
pub struct Written {
    pub users: Vec<u64>,
    pub roles: Vec<u64>,
    pub everyone: bool,
}

/// `<@id>`, `<@!id>`, `<@&id>`, `@everyone` and `@here` not escaped with a backslash.
pub fn written_mentions(content: &str) -> Written {
    let mut w = Written::default();
    let bytes = content.as_bytes();
    let escaped = |i: usize| i > 0 && bytes[i - 1] == b'\\';
    for (i, _) in content.match_indices("<@") {
        if escaped(i) {
            continue;
        }
        let rest = &content[i + 2..];
        let (role, rest) = match rest.strip_prefix('&') {
            Some(r) => (true, r),
            None => (false, rest.strip_prefix('!').unwrap_or(rest)),
        };
        let end = rest
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(rest.len());
        if end == 0 || !rest[end..].starts_with('>') {
            continue;
        }
        let Ok(id) = rest[..end].parse::<u64>() else {
            continue;
        };
        let list = if role { &mut w.roles } else { &mut w.users };
        if !list.contains(&id) {
            list.push(id);
        }
    }
    for word in ["@everyone", "@here"] {
        if content.match_indices(word).any(|(i, _)| !escaped(i)) {
            w.everyone = true;
        }
    }
    w
}
