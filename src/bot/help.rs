//! `/help`: what the bot does and every command, grouped by what a member wants to do, each
//! with one example, in the member's language and only for them (issue 41). poise 0.7 has no
//! built-in help any more; this one is written from the catalogs so it can never list a
//! command the bot does not register (a test checks both ways).

use poise::serenity_prelude as serenity;
use serenity::{CreateEmbed, EditInteractionResponse};

use super::common::defer;
use super::{lang_of, send, Context, Data, Error};
use crate::i18n::{lookup, Lang, Text};

/// The groups of `/help`, in order: a catalog key `bot.help.group.<name>` each, with the
/// commands it lists (each has `bot.help.cmd.<command>`: what it does, then an example).
pub const GROUPS: [(&str, &[&str]); 7] = [
    ("start", &["play", "lobbies", "games", "help"]),
    ("turn", &["move", "hand", "board", "undo", "history"]),
    ("rules", &["learn", "rules"]),
    ("end", &["resign", "cancel"]),
    ("you", &["settings", "stats", "sub"]),
    ("after", &["replay", "export"]),
    ("hosts", &["clock", "replace", "kick", "rollback"]),
];

/// What the bot does and how to start, then every command.
#[poise::command(slash_command)]
pub async fn help(ctx: Context<'_>) -> Result<(), Error> {
    defer(ctx).await?;
    let embed = page(ctx.data(), lang_of(ctx));
    send::edit(ctx, EditInteractionResponse::new().embed(embed)).await
}

/// The help page in `lang`, commands as clickable mentions where their ids are known.
pub fn page(data: &Data, lang: Lang) -> CreateEmbed {
    let mut embed = CreateEmbed::new()
        .title(Text::new("bot.help.title").render(lang))
        .description(Text::new("bot.help.intro").render(lang))
        .colour(0x005F_B8A5);
    for (group, commands) in GROUPS {
        let lines: Vec<String> = commands
            .iter()
            .map(|name| {
                Text::new(format!("bot.help.cmd.{name}"))
                    .arg("cmd", mention(data, name, lang))
                    .render(lang)
            })
            .collect();
        embed = embed.field(
            Text::new(format!("bot.help.group.{group}")).render(lang),
            lines.join("\n"),
            false,
        );
    }
    embed.footer(serenity::CreateEmbedFooter::new(
        Text::new("bot.help.footer").render(lang),
    ))
}

/// A command as members see it in `lang`: Discord's clickable `</name:id>` once the
/// command's id is known (from its registration), else `/name`.
pub fn mention(data: &Data, command: &str, lang: Lang) -> String {
    let name = lookup(lang, &format!("bot.cmd.{command}.name")).to_string();
    match data.command_id(command) {
        Some(id) => format!("</{name}:{id}>"),
        None => format!("/{name}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn help_lists_every_registered_command_once() {
        let registered: Vec<String> = super::super::registry::all()
            .into_iter()
            .map(|c| c.name.to_string())
            .collect();
        let listed: Vec<&str> = GROUPS.iter().flat_map(|(_, c)| c.iter().copied()).collect();
        for name in &registered {
            assert_eq!(
                listed.iter().filter(|l| **l == name).count(),
                1,
                "/{name} is listed once in /help"
            );
        }
        for name in &listed {
            assert!(
                registered.iter().any(|r| r == name),
                "/{name} is registered"
            );
        }
    }

    #[test]
    fn every_line_has_an_example_in_both_languages() {
        for lang in [Lang::En, Lang::Fr] {
            for (group, commands) in GROUPS {
                let title = Text::new(format!("bot.help.group.{group}")).render(lang);
                assert!(!title.starts_with("bot."), "{title}");
                for name in commands {
                    let line = Text::new(format!("bot.help.cmd.{name}"))
                        .arg("cmd", "X")
                        .render(lang);
                    assert!(line.starts_with('X'), "{lang:?} {name}: {line}");
                    // One example, in code, in the member's language.
                    let cmd = lookup(lang, &format!("bot.cmd.{name}.name")).to_string();
                    assert!(
                        line.contains(&format!("`/{cmd}")),
                        "{lang:?} {name}: no example of /{cmd}: {line}"
                    );
                }
            }
        }
    }
}
