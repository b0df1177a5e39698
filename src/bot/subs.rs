//! `/sub`: substitutes (issue 40 item 7). A member offers to step into a server's games of one
//! kind; when a seat of such a game opens (a timeout under the `open` policy, or `/kick`), the
//! service tells them first by DM and the first to `/sub take` gets the seat.

use super::common::{autocomplete_game, defer, named, parse_kind, resolve_game};
use super::send::{self, author_id};
use super::{id_i64, lang_of, Context, Error};
use crate::i18n::Text;

/// Substitutes: offer to step into games whose seats open on this server.
#[poise::command(
    slash_command,
    guild_only,
    subcommands("offer", "withdraw", "take", "list"),
    subcommand_required
)]
pub async fn sub(_ctx: Context<'_>) -> Result<(), Error> {
    Ok(())
}

/// Be told first when a seat of this game opens on this server.
#[poise::command(slash_command, guild_only)]
async fn offer(
    ctx: Context<'_>,
    #[autocomplete = "autocomplete_game"] game: String,
) -> Result<(), Error> {
    on_the_list(ctx, &game, true).await
}

/// Stop being a substitute for this game here.
#[poise::command(slash_command, guild_only)]
async fn withdraw(
    ctx: Context<'_>,
    #[autocomplete = "autocomplete_game"] game: String,
) -> Result<(), Error> {
    on_the_list(ctx, &game, false).await
}

/// Puts the member on the list of `game`'s substitutes here, or takes them off it.
async fn on_the_list(ctx: Context<'_>, game: &str, on: bool) -> Result<(), Error> {
    defer(ctx).await?;
    let lang = lang_of(ctx);
    let kind = parse_kind(game).map_err(Error::User)?;
    let service = &ctx.data().service;
    let players = service.players();
    let (user, guild) = (author_id(ctx), guild_of(ctx));
    let key = match on {
        true if players
            .offer_substitute(guild, kind, user, service.now())
            .await? =>
        {
            "bot.done.sub_offered"
        }
        true => "bot.done.sub_already",
        false if players.withdraw_substitute(guild, kind, user).await? => "bot.done.sub_withdrawn",
        false => "bot.done.sub_not",
    };
    let text = Text::new(key).arg("game", kind.display_name()).render(lang);
    send::reply_text(ctx, &text).await
}

/// Take an open seat of a game (substitutes of its game).
#[poise::command(slash_command, guild_only)]
async fn take(
    ctx: Context<'_>,
    game: Option<i64>,
    #[min = 1]
    #[max = 25]
    seat: Option<u32>,
) -> Result<(), Error> {
    defer(ctx).await?;
    let lang = lang_of(ctx);
    let game = resolve_game(ctx, game).await?;
    let name = super::common::author_name(ctx);
    let service = &ctx.data().service;
    let taken = service
        .players()
        .take_open_seat(
            game,
            author_id(ctx),
            name,
            seat.map(|n| usize::try_from(n).unwrap_or(usize::MAX)),
            service.now(),
        )
        .await;
    let notices = named(ctx, game, taken).await?;
    send::deliver_notices(ctx.http(), ctx.data(), notices).await;
    send::reply_text(ctx, &Text::new("bot.done.sub_took").render(lang)).await
}

/// The games you substitute for on this server.
#[poise::command(slash_command, guild_only)]
async fn list(ctx: Context<'_>) -> Result<(), Error> {
    defer(ctx).await?;
    let lang = lang_of(ctx);
    let games = ctx
        .data()
        .service
        .players()
        .substitute_games(guild_of(ctx), author_id(ctx))
        .await?;
    let text = if games.is_empty() {
        Text::new("bot.done.sub_none").render(lang)
    } else {
        let names: Vec<&str> = games.iter().map(|k| k.display_name()).collect();
        Text::new("bot.done.sub_list")
            .arg("games", names.join(", "))
            .render(lang)
    };
    send::reply_text(ctx, &text).await
}

fn guild_of(ctx: Context<'_>) -> Option<i64> {
    ctx.guild_id().map(|g| id_i64(g.get()))
}
