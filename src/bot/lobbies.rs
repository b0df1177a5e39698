//! `/lobbies`: the open lobbies of this server a member may join, in channels they can see,
//! each with its game, players, clock and language, a link, and a Join button (issue 41).
//! Only the member sees the list; a Join from it seats them as the lobby's own button would
//! and updates the lobby message where it stands.

use poise::serenity_prelude as serenity;
use serenity::{ButtonStyle, CreateActionRow, CreateButton, EditInteractionResponse};

use super::commands::first_lines_that_fit;
use super::common::{autocomplete_game, defer, parse_kind};
use super::ids::{CustomId, LobbyAction};
use super::layout::content;
use super::send::{author_id, lobby_link};
use super::{id_i64, id_u64, lang_of, send, Context, Error};
use crate::i18n::{Lang, Text};
use crate::service::LobbyView;

/// Lobbies listed at most: two rows of five Join buttons.
const LISTED: usize = 10;

/// The open lobbies of this server you may join.
#[poise::command(slash_command, guild_only)]
pub async fn lobbies(
    ctx: Context<'_>,
    #[autocomplete = "autocomplete_game"] game: Option<String>,
) -> Result<(), Error> {
    defer(ctx).await?;
    let lang = lang_of(ctx);
    let kind = match game.as_deref().map(parse_kind).transpose() {
        Ok(kind) => kind,
        Err(text) => return send::reply_text(ctx, &text.render(lang)).await,
    };
    let Some(guild) = ctx.guild_id() else {
        return Ok(());
    };
    let found = ctx
        .data()
        .service
        .lobbies()
        .joinable(id_i64(guild.get()), kind, author_id(ctx), LISTED * 2)
        .await?;
    let mut shown: Vec<LobbyView> = found.into_iter().filter(|v| may_see(ctx, v)).collect();
    shown.truncate(LISTED);
    if shown.is_empty() {
        let key = if kind.is_some() {
            "bot.lobbies.none_of_game"
        } else {
            "bot.lobbies.none"
        };
        return send::reply_text(ctx, &Text::new(key).render(lang)).await;
    }
    let mut lines = vec![Text::new("bot.lobbies.title")
        .arg("n", shown.len())
        .render(lang)];
    lines.extend(shown.iter().map(|v| line(v, lang)));
    let text = first_lines_that_fit(&lines, 2000, |n| {
        Text::new("bot.games.more").arg("n", n).render(lang)
    });
    let buttons: Vec<CreateButton> = shown
        .iter()
        .map(|v| {
            CreateButton::new(
                CustomId::Lobby {
                    game: v.game,
                    action: LobbyAction::Join,
                }
                .encode(),
            )
            .label(
                Text::new("bot.lobbies.join")
                    .arg("id", v.game.0)
                    .render(lang),
            )
            .style(ButtonStyle::Success)
        })
        .collect();
    let rows: Vec<CreateActionRow> = buttons
        .chunks(5)
        .map(|c| CreateActionRow::Buttons(c.to_vec()))
        .collect();
    send::edit(
        ctx,
        EditInteractionResponse::new()
            .content(content(&text))
            .components(rows),
    )
    .await
}

/// One lobby as the list shows it: game and number, seats, clock, language, where.
fn line(v: &LobbyView, lang: Lang) -> String {
    let clock = match v.clock_secs {
        Some(secs) => crate::service::human_duration(secs, lang),
        None => Text::new("bot.lobbies.no_clock").render(lang),
    };
    Text::new("bot.lobbies.line")
        .arg("game", v.kind.display_name())
        .arg("id", v.game.0)
        .arg("seated", v.seats.len())
        .arg("max", v.max)
        .arg("clock", clock)
        .arg(
            "language",
            Text::new(format!("core.lang.{}", v.lang.code())),
        )
        .arg("link", lobby_link(v))
        .render(lang)
}

/// Whether the member may see the lobby's channel, from the cache (the server's roles, the
/// member's, the channel's overwrites): a lobby in a channel they cannot see is not theirs to
/// find. Unknown to the cache: not shown.
fn may_see(ctx: Context<'_>, view: &LobbyView) -> bool {
    let Context::Application(a) = ctx else {
        return false;
    };
    let (Some(member), Some(channel)) = (a.interaction.member.as_deref(), view.channel) else {
        return false;
    };
    let Some(guild) = ctx.guild() else {
        return false;
    };
    guild
        .channels
        .get(&serenity::ChannelId::new(id_u64(channel).max(1)))
        .is_some_and(|c| guild.user_permissions_in(c, member).view_channel())
}
