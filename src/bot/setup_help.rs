//! What `croupier serve` says when it has no token: how to get one and invite the bot.

use poise::serenity_prelude::Permissions;

use crate::i18n::{Lang, Text};

/// The permissions the bot asks for at invite time, each for a reason the message explains.
pub fn permissions() -> Permissions {
    Permissions::VIEW_CHANNEL
        | Permissions::SEND_MESSAGES
        | Permissions::SEND_MESSAGES_IN_THREADS
        | Permissions::CREATE_PUBLIC_THREADS
        | Permissions::ATTACH_FILES
        | Permissions::READ_MESSAGE_HISTORY
}

/// The invite link for an application.
pub fn invite_url(application_id: u64) -> String {
    format!(
        "https://discord.com/oauth2/authorize?client_id={application_id}&scope=bot+applications.commands&permissions={}",
        permissions().bits()
    )
}

/// The whole message, with the invite link when the application id is known.
pub fn no_token_message(application_id: Option<u64>, lang: Lang) -> String {
    let invite = match application_id {
        Some(id) => Text::new("bot.setup.invite")
            .arg("url", invite_url(id))
            .render(lang),
        None => Text::new("bot.setup.invite_later")
            .arg("permissions", permissions().bits().to_string())
            .render(lang),
    };
    Text::new("bot.setup.no_token")
        .arg("invite", invite)
        .render(lang)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn invite_asks_for_exactly_what_the_bot_uses() {
        // View, send, send in threads, create public threads, attach files, read history.
        assert_eq!(permissions().bits(), 309_237_746_688);
        assert_eq!(
            invite_url(42),
            "https://discord.com/oauth2/authorize?client_id=42&scope=bot+applications.commands&permissions=309237746688"
        );
    }

    #[test]
    fn no_token_message_says_where_and_what() {
        for lang in Lang::ALL {
            let with = no_token_message(Some(42), lang);
            assert!(
                with.contains("https://discord.com/developers/applications"),
                "{with}"
            );
            assert!(with.contains("DISCORD_TOKEN"), "{with}");
            assert!(with.contains("bot applications.commands"), "{with}");
            assert!(with.contains("client_id=42"), "{with}");
            let without = no_token_message(None, lang);
            assert!(without.contains("DISCORD_APPLICATION_ID"), "{without}");
            assert!(without.contains("309237746688"), "{without}");
            assert!(!without.contains('{'), "{without}");
        }
    }
}
