//! `/rollback game:N to:<turn>` (issue 40 item 6): a moderator takes a running game back to
//! the start of an earlier turn; the host (or a moderator who plays in it, or anyone whose
//! rollback would take back a reveal) asks, and the game's thread shows the request with
//! Confirm and Refuse buttons that only its seated players may use. The rollback goes through
//! on the last confirmation. The rules are the service's (`service::rollback`).

use poise::serenity_prelude as serenity;
use serenity::{
    ButtonStyle, ComponentInteraction, CreateActionRow, CreateButton, EditInteractionResponse,
};

use super::common::{
    defer, edit_click, filled, in_time, may_reach, moderator_of, named, resolve_game, suggest,
};
use super::ids::CustomId;
use super::layout::content;
use super::mentions::nobody;
use super::retry::posting;
use super::send::{self, author_id};
use super::{id_i64, lang_of, Context, Data, Error};
use crate::engine::{GameId, Version};
use crate::i18n::{Lang, Text};
use crate::service::{RollbackStep, RollbackWait};

async fn autocomplete_turn(
    ctx: Context<'_>,
    partial: &str,
) -> serenity::CreateAutocompleteResponse {
    in_time(turn_choices(ctx, partial)).await
}

/// The game's turns, last first, whose number starts with what was typed: "Turn 3: Bob (2
/// moves)". Only for a member who may reach the game.
async fn turn_choices(ctx: Context<'_>, partial: &str) -> serenity::CreateAutocompleteResponse {
    let none = || suggest(Vec::<serenity::AutocompleteChoice>::new());
    let service = &ctx.data().service;
    let game = match filled(ctx, "game") {
        Some(serenity::ResolvedValue::Integer(id)) => GameId(*id),
        _ => match service
            .find()
            .game_here(id_i64(ctx.channel_id().get()), author_id(ctx))
            .await
        {
            Ok(game) => game,
            Err(_) => return none(),
        },
    };
    let Ok(view) = service.lobbies().lobby(game).await else {
        return none();
    };
    if may_reach(ctx, game, &view.reach()).is_err() {
        return none();
    }
    let Ok((turns, names)) = service.rollbacks().turns(game).await else {
        return none();
    };
    let typed = partial.trim();
    let lang = lang_of(ctx);
    suggest(
        turns
            .iter()
            .filter(|t| t.number.to_string().starts_with(typed))
            .take(25)
            .map(|t| {
                let name = Text::new("bot.rollback.turn_choice")
                    .arg("n", t.number)
                    .arg("seat", t.seat)
                    .arg("count", t.moves)
                    .render_with(lang, &names);
                let name: String = name.chars().take(100).collect();
                serenity::AutocompleteChoice::new(name, u64::try_from(t.number).unwrap_or(0))
            })
            .collect(),
    )
}

/// Take a game back to the start of an earlier turn (moderators, or the host if every player
/// confirms).
#[poise::command(slash_command, guild_only)]
pub async fn rollback(
    ctx: Context<'_>,
    #[min = 1]
    #[max = 100000]
    #[autocomplete = "autocomplete_turn"]
    to: u32,
    game: Option<i64>,
) -> Result<(), Error> {
    defer(ctx).await?;
    let lang = lang_of(ctx);
    let game = resolve_game(ctx, game).await?;
    let service = &ctx.data().service;
    let is_moderator = moderator_of(ctx, game).await?;
    let step = service
        .rollbacks()
        .rollback(
            game,
            author_id(ctx),
            is_moderator,
            usize::try_from(to).unwrap_or(usize::MAX),
            service.now(),
        )
        .await;
    let step = named(ctx, game, step).await?;
    let reply = tell(ctx.http(), ctx.data(), step, None).await?;
    send::reply_text(ctx, &reply.render(lang)).await
}

/// A seated player's Confirm or Refuse under a rollback request (acknowledged as a deferred
/// private answer, filled in here). A settled request's message loses its buttons.
pub async fn answer(
    http: &serenity::Http,
    click: &ComponentInteraction,
    data: &Data,
    game: GameId,
    (version, keep, yes): (Version, usize, bool),
    lang: Lang,
) -> Result<(), Error> {
    let user = id_i64(click.user.id.get());
    let step = data
        .service
        .rollbacks()
        .answer(game, version, keep, user, yes, data.service.now())
        .await?;
    let settled = !matches!(step, RollbackStep::Waiting(_));
    let reply = tell(http, data, step, Some(user)).await?;
    if settled {
        send::retire_board(
            http,
            &data.pace,
            click.channel_id,
            id_i64(click.message.id.get()),
        )
        .await;
    }
    let edit = EditInteractionResponse::new()
        .content(content(&reply.render(lang)))
        .allowed_mentions(nobody());
    edit_click(http, &data.pace, click, "answer a rollback", edit).await?;
    Ok(())
}

/// Tells the game's place what a step came to: the board as it was (and every hand, by DM)
/// once done; the request with its buttons (asked by the command: `clicked` is `None`), or
/// who confirmed or refused (a click). Returns the private answer for the member who acted.
async fn tell(
    http: &serenity::Http,
    data: &Data,
    step: RollbackStep,
    clicked: Option<i64>,
) -> Result<Text, Error> {
    match step {
        RollbackStep::Done(done) => {
            send::deliver(http, data, &done.outputs).await?;
            Ok(Text::new("bot.rollback.done_reply")
                .arg("id", done.outputs.board.game.0)
                .arg("turn", done.turn))
        }
        RollbackStep::Waiting(wait) => {
            let first = clicked.is_none();
            let text = waiting_text(&wait, clicked);
            post(http, data, &wait, text, first, &wait.waiting).await?;
            Ok(Text::new(if first {
                "bot.rollback.asked_reply"
            } else {
                "bot.rollback.confirmed_reply"
            }))
        }
        RollbackStep::Refused { wait, by } => {
            let text = Text::new("bot.rollback.refused")
                .arg("who", mention(by))
                .arg("id", wait.view.game.0)
                .arg("turn", wait.turn);
            post(http, data, &wait, text, false, &[wait.asked_by]).await?;
            Ok(Text::new("bot.rollback.refused_reply"))
        }
    }
}

/// The request, or one more confirmation (by `clicked`), in words.
fn waiting_text(wait: &RollbackWait, clicked: Option<i64>) -> Text {
    let waiting = wait
        .waiting
        .iter()
        .map(|u| mention(*u))
        .collect::<Vec<_>>()
        .join(", ");
    let Some(who) = clicked else {
        return Text::new("bot.rollback.asked")
            .arg("by", mention(wait.asked_by))
            .arg("game", wait.view.kind.display_name())
            .arg("id", wait.view.game.0)
            .arg("turn", wait.turn)
            .arg("count", wait.undone)
            .arg("agreed", wait.agreed)
            .arg("of", wait.of)
            .arg("waiting", waiting);
    };
    Text::new("bot.rollback.confirmed")
        .arg("who", mention(who))
        .arg("id", wait.view.game.0)
        .arg("turn", wait.turn)
        .arg("agreed", wait.agreed)
        .arg("of", wait.of)
        .arg("waiting", waiting)
}

fn mention(user: i64) -> String {
    format!("<@{}>", super::id_u64(user))
}

/// Posts `text` where the game is played, in its language, with the Confirm and Refuse
/// buttons when `buttons`; of the members it names, only `pinged` may be pinged (those asked,
/// or the asker told of a refusal), as their `/settings pings` and `game_pings` allow.
async fn post(
    http: &serenity::Http,
    data: &Data,
    wait: &RollbackWait,
    text: Text,
    buttons: bool,
    pinged: &[i64],
) -> Result<(), Error> {
    let Some(place) = send::place_of(&wait.view) else {
        return Ok(());
    };
    let lang = wait.view.lang;
    let mut text = text.render_with(lang, &wait.view.names());
    if buttons && wait.revealed {
        text = format!(
            "{text}\n{}",
            Text::new("bot.rollback.asked_revealed").render(lang)
        );
    }
    let mut msg = send::place_message_asking(data, wait.view.game, &text, pinged).await;
    if buttons {
        let button = |yes: bool, key: &str, style: ButtonStyle| {
            CreateButton::new(
                CustomId::Rollback {
                    game: wait.view.game,
                    version: wait.version,
                    keep: wait.keep,
                    yes,
                }
                .encode(),
            )
            .label(Text::new(key).render(lang))
            .style(style)
        };
        msg = msg.components(vec![CreateActionRow::Buttons(vec![
            button(true, "bot.rollback.confirm_button", ButtonStyle::Primary),
            button(false, "bot.rollback.refuse_button", ButtonStyle::Secondary),
        ])]);
    }
    posting(&data.pace, "ask the players to confirm a rollback", || {
        place.send_message(http, msg.clone())
    })
    .await?;
    Ok(())
}
