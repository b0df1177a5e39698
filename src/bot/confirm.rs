//! "Are you sure?" before a step that ends a game for everyone (`/resign`, `/cancel`): the
//! command runs the step's checks, changes nothing and asks privately with two buttons; the
//! click on the first one takes the step. One mistaken command can no longer end a game.

use poise::serenity_prelude as serenity;
use serenity::{
    ButtonStyle, ComponentInteraction, CreateActionRow, CreateButton, EditInteractionResponse,
};

use super::ids::{Confirm, CustomId};
use super::layout::content;
use super::mentions::nobody;
use super::retry::posting;
use super::{id_i64, is_moderator, send, Context, Data, Error};
use crate::engine::GameId;
use crate::i18n::{Lang, Text};
use crate::service::LobbyView;

/// Asks whether to take `action` on the game (whose checks passed) in the command's deferred
/// private answer: the step's button, then "Keep playing".
pub async fn ask(
    ctx: Context<'_>,
    view: &LobbyView,
    action: Confirm,
    lang: Lang,
) -> Result<(), Error> {
    let (question, yes) = match action {
        Confirm::Resign => ("bot.confirm.resign", "bot.confirm.resign_button"),
        Confirm::Cancel | Confirm::Keep => ("bot.confirm.cancel", "bot.confirm.cancel_button"),
    };
    let button = |action: Confirm, key: &str, style: ButtonStyle| {
        CreateButton::new(
            CustomId::Confirm {
                game: view.game,
                action,
            }
            .encode(),
        )
        .label(Text::new(key).render(lang))
        .style(style)
    };
    let text = Text::new(question)
        .arg("game", view.kind.display_name())
        .arg("id", view.game.0)
        .render(lang);
    let edit = EditInteractionResponse::new()
        .content(content(&text))
        .components(vec![CreateActionRow::Buttons(vec![
            button(action, yes, ButtonStyle::Danger),
            button(
                Confirm::Keep,
                "bot.confirm.keep_button",
                ButtonStyle::Secondary,
            ),
        ])]);
    send::edit(ctx, edit).await
}

/// The click on a confirmation (acknowledged as an update of its private message): takes the
/// step, or not, then rewrites the question as what happened, without buttons. `lang` is the
/// clicker's; what the game's place is told is in the game's language.
pub async fn answer(
    http: &serenity::Http,
    click: &ComponentInteraction,
    data: &Data,
    game: GameId,
    action: Confirm,
    lang: Lang,
) -> Result<(), Error> {
    let user = id_i64(click.user.id.get());
    let done = match action {
        Confirm::Keep => "bot.done.kept",
        Confirm::Resign => {
            resign(http, data, game, user, lang).await?;
            "bot.done.resigned"
        }
        Confirm::Cancel => {
            // Moderator rights count in the game's own channel or thread only, as for the
            // command (the question was asked where the command was typed).
            let view = data.service.lobby(game).await?;
            let here = Some(id_i64(click.channel_id.get()));
            let in_place = here == view.channel || here == view.thread;
            let moderator = in_place && is_moderator(click.member.as_ref());
            cancel(http, data, game, user, moderator).await?;
            "bot.done.cancelled"
        }
    };
    let edit = EditInteractionResponse::new()
        .content(content(&Text::new(done).render(lang)))
        .allowed_mentions(nobody())
        .components(Vec::new());
    super::components::edit_click(http, &data.pace, click, "answer a confirmation", edit).await?;
    Ok(())
}

/// `user` resigns: the game ends, the live board loses its buttons and the result (which says
/// who resigned) goes out as for any ending, in the game's language; the thread is archived
/// after the grace. `lang` (the resigning player's) counts only for a game stored without one.
async fn resign(
    http: &serenity::Http,
    data: &Data,
    game: GameId,
    user: i64,
    lang: Lang,
) -> Result<(), Error> {
    data.service
        .resign(game, user, lang, data.service.now())
        .await?;
    let view = data.service.lobby(game).await?;
    if let (Some(place), Some(board)) = (send::place_of(&view), view.board_message) {
        send::retire_board(http, &data.pace, place, board).await;
    }
    send::announce_result(http, data, &view, view.lang).await;
    Ok(())
}

/// The host or a moderator cancels: the game stops with no result, its thread archived at once.
async fn cancel(
    http: &serenity::Http,
    data: &Data,
    game: GameId,
    user: i64,
    moderator: bool,
) -> Result<(), Error> {
    let view = data
        .service
        .cancel(game, user, moderator, data.service.now())
        .await?;
    let text = Text::new("bot.cancelled")
        .arg("game", view.kind.display_name())
        .arg("id", view.game.0)
        .render(view.lang);
    announce(http, data, &view, &text).await
}

/// Tells the game's place it was cancelled, retires its live board and archives its thread.
async fn announce(
    http: &serenity::Http,
    data: &Data,
    view: &LobbyView,
    text: &str,
) -> Result<(), Error> {
    let what = "announce a cancellation";
    if let Some(place) = send::place_of(view) {
        let msg = send::text_message(text);
        posting(&data.pace, what, || place.send_message(http, msg.clone())).await?;
        if let Some(board) = view.board_message {
            send::retire_board(http, &data.pace, place, board).await;
        }
    }
    send::archive_thread(http, &data.pace, view).await;
    Ok(())
}
