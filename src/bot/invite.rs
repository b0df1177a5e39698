//! `/play … invite:@a @b`: the members a host invites, read from one text option of mentions
//! (Discord has no option taking several users; see DECISIONS.md, "Invitations: one option of
//! mentions"). Each is looked up as a member of the server: someone who is not one, or who
//! cannot see the lobby's channel, is refused by name before anything is opened. What an
//! invitation is (a seat kept, Accept or Decline, `open:false`) is the service's.

use poise::serenity_prelude as serenity;

use super::{id_i64, Context, Error};
use crate::i18n::Text;
use crate::service::Player;

/// Members invited at most in one `/play` (more is refused: no game seats more besides its
/// host, and a ping to a crowd is not an invitation).
const MOST: usize = 24;

/// The user ids of `typed`: mentions (`<@id>` or `<@!id>`, as Discord writes a member picked
/// after `@`), separated by spaces or commas, each once. Anything else is refused, named.
pub fn parse_mentions(typed: &str) -> Result<Vec<u64>, Text> {
    let mut out = Vec::new();
    let mut rest = typed.trim_start_matches(|c: char| c.is_whitespace() || c == ',');
    while !rest.is_empty() {
        let end = rest
            .find(|c: char| c.is_whitespace() || c == ',' || c == '>')
            .map_or(rest.len(), |i| {
                if rest[i..].starts_with('>') {
                    i + 1
                } else {
                    i
                }
            });
        let word = &rest[..end];
        let id = word
            .strip_prefix("<@")
            .and_then(|w| w.strip_suffix('>'))
            .map(|w| w.strip_prefix('!').unwrap_or(w))
            .and_then(|w| w.parse::<u64>().ok())
            .filter(|id| *id > 0);
        let Some(id) = id else {
            let shown: String = word.chars().take(40).collect();
            return Err(Text::new("bot.invite.not_mention").arg("input", shown));
        };
        if !out.contains(&id) {
            out.push(id);
        }
        if out.len() > MOST {
            return Err(Text::new("bot.invite.too_many_named").arg("max", MOST));
        }
        rest = rest[end..].trim_start_matches(|c: char| c.is_whitespace() || c == ',');
    }
    Ok(out)
}

/// The members `typed` invites, as players (a bot account is marked so: the service refuses
/// it). Refused: anything but mentions, someone who is not a member of this server, and a
/// member who cannot see this channel (they could neither read the lobby nor play).
pub async fn invitees(ctx: Context<'_>, typed: &str) -> Result<Vec<Player>, Error> {
    let ids = parse_mentions(typed).map_err(Error::User)?;
    let Some(guild) = ctx.guild_id() else {
        return Ok(Vec::new());
    };
    let mut members = Vec::new();
    for id in ids {
        let user = serenity::UserId::new(id);
        let cached = ctx.guild().and_then(|g| g.members.get(&user).cloned());
        let member = match cached {
            Some(m) => m,
            None => match guild.member(ctx.http(), user).await {
                Ok(m) => m,
                Err(e) => {
                    tracing::debug!(user = id, error = %e, "an invitee is not a member");
                    return Err(Error::User(
                        Text::new("bot.invite.not_member").arg("who", format!("<@{id}>")),
                    ));
                }
            },
        };
        members.push(member);
    }
    if let Some(hidden) = members.iter().find(|m| !m.user.bot && !sees_here(ctx, m)) {
        return Err(Error::User(
            Text::new("bot.invite.cannot_see").arg("who", format!("<@{}>", hidden.user.id.get())),
        ));
    }
    Ok(members
        .iter()
        .map(|m| Player {
            user: Some(id_i64(m.user.id.get())),
            name: super::common::user_name(&m.user),
            is_bot: m.user.bot,
        })
        .collect())
}

/// Whether `member` may see the channel `/play` was used in, from the cache (the server's
/// roles, the member's, the channel's overwrites; a thread's are its parent's, and a private
/// thread is seen only by its members, which the cache does not hold: refused). A channel
/// unknown to the cache is not held against anyone.
fn sees_here(ctx: Context<'_>, member: &serenity::Member) -> bool {
    let Some(guild) = ctx.guild() else {
        return true;
    };
    let here = ctx.channel_id();
    let channel = match guild.channels.get(&here) {
        Some(c) => c,
        None => match guild.threads.iter().find(|t| t.id == here) {
            Some(t) if t.kind == serenity::ChannelType::PrivateThread => return false,
            Some(t) => match t.parent_id.and_then(|p| guild.channels.get(&p)) {
                Some(parent) => parent,
                None => return true,
            },
            None => return true,
        },
    };
    guild.user_permissions_in(channel, member).view_channel()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mentions_are_read_each_once_and_anything_else_is_refused() {
        assert_eq!(parse_mentions(""), Ok(Vec::new()));
        assert_eq!(parse_mentions("<@12> <@!34>,<@12>"), Ok(vec![12, 34]));
        assert_eq!(parse_mentions("<@12><@34>"), Ok(vec![12, 34]));
        for bad in [
            "@ann",
            "<@&5>",
            "<#9>",
            "<@>",
            "<@0>",
            "ann <@12>",
            "<@12> bob",
        ] {
            assert!(parse_mentions(bad).is_err(), "{bad}");
        }
        let many: String = (1..=30).map(|i| format!("<@{i}> ")).collect();
        assert!(parse_mentions(&many).is_err());
    }
}
