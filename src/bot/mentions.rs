//! Who a message may ping. Discord pings every user, role and `@everyone` a message mentions
//! unless `allowed_mentions` says otherwise, and display names are chosen by members: a name
//! holding `<@&role>` or `@everyone` would ping the whole server on every board. So every
//! message and edit names exactly the users it means to ping, which are the `<@id>` the bot
//! itself wrote (names are escaped before they go into text, so a name cannot add one), and
//! never roles, `@everyone` or a replied-to author.

use poise::serenity_prelude as serenity;
use serenity::{CreateAllowedMentions, UserId};

/// The users `text` mentions, by `<@id>` or `<@!id>` not escaped with a backslash.
pub fn mentioned_users(text: &str) -> Vec<u64> {
    let mut out = Vec::new();
    for (at, _) in text.match_indices("<@") {
        if text[..at].ends_with('\\') {
            continue;
        }
        let after = &text[at + 2..];
        let digits = after.strip_prefix('!').unwrap_or(after);
        let end = digits
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(digits.len());
        let id = digits[..end].parse::<u64>().ok();
        if let Some(id) = id.filter(|_| digits[end..].starts_with('>')) {
            if !out.contains(&id) {
                out.push(id);
            }
        }
    }
    out
}

/// Pings exactly the users `text` mentions.
pub fn allowed(text: &str) -> CreateAllowedMentions {
    CreateAllowedMentions::new()
        .users(
            mentioned_users(text)
                .into_iter()
                .filter(|id| *id != 0)
                .map(UserId::new),
        )
        .replied_user(false)
}

/// Pings nobody: lobbies, ephemeral answers and edits.
pub fn nobody() -> CreateAllowedMentions {
    CreateAllowedMentions::new().replied_user(false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_unescaped_user_mentions_count() {
        assert_eq!(
            mentioned_users("<@12> and <@!34>, <@12> again"),
            vec![12, 34]
        );
        assert!(mentioned_users(r"\<@12> <@&56> @everyone <@> <@x>").is_empty());
        assert_eq!(mentioned_users("a\\b <@7>"), vec![7]);
    }
}
