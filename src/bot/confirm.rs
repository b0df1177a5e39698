//! "Are you sure?" before a step that ends a game for everyone (`/resign`, `/cancel`): the
//! command runs the step's checks, changes nothing and asks privately with buttons; the click
//! takes the step. One mistaken command can no longer end a game.
//!
//! `/cancel` of a running game says what it means for the ratings first (issue 36): the host
//! is warned that cancelling without every other player's agreement counts as their
//! resignation, and may ask the others instead; another player is asked to agree. Each button
//! names what it does, and the click checks again: a cancel clicked as "no rating" is refused
//! if an agreement expired meanwhile, rather than turned into a resignation.

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
use crate::service::{CancelCheck, CancelKind, LobbyView};

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
        _ => ("bot.confirm.cancel", "bot.confirm.cancel_button"),
    };
    let text = Text::new(question)
        .arg("game", view.kind.display_name())
        .arg("id", view.game.0)
        .render(lang);
    ask_with(
        ctx,
        view,
        &text,
        &[(action, yes, ButtonStyle::Danger)],
        lang,
    )
    .await
}

/// Asks what a `/cancel` would do (its checks passed): a lobby, a moderator's cancel or a game
/// everyone agreed to stop as before; the host of a running game is warned that it counts as
/// their resignation and offered to ask the others; another player is asked to agree.
pub async fn ask_cancel(ctx: Context<'_>, check: &CancelCheck, lang: Lang) -> Result<(), Error> {
    let view = &check.view;
    let (text, buttons) = match &check.kind {
        CancelKind::Neutral | CancelKind::Agreed => (
            Text::new(if check.kind == CancelKind::Agreed {
                "bot.confirm.cancel_agreed"
            } else {
                "bot.confirm.cancel"
            }),
            vec![(
                Confirm::Cancel,
                "bot.confirm.cancel_button",
                ButtonStyle::Danger,
            )],
        ),
        CancelKind::Resignation { waiting, .. } => (
            Text::new("bot.confirm.cancel_resigns").arg(
                "waiting",
                waiting
                    .iter()
                    .map(|u| format!("<@{u}>"))
                    .collect::<Vec<_>>()
                    .join(", "),
            ),
            vec![
                (
                    Confirm::Agree,
                    "bot.confirm.ask_button",
                    ButtonStyle::Primary,
                ),
                (
                    Confirm::CancelResigning,
                    "bot.confirm.resign_cancel_button",
                    ButtonStyle::Danger,
                ),
            ],
        ),
        CancelKind::Agree { agreed, of } => (
            Text::new("bot.confirm.agree")
                .arg("agreed", *agreed)
                .arg("of", *of),
            vec![(
                Confirm::Agree,
                "bot.confirm.agree_button",
                ButtonStyle::Primary,
            )],
        ),
    };
    let text = text
        .arg("game", view.kind.display_name())
        .arg("id", view.game.0)
        .render(lang);
    ask_with(ctx, view, &text, &buttons, lang).await
}

/// The private question with its buttons, then "Keep playing".
async fn ask_with(
    ctx: Context<'_>,
    view: &LobbyView,
    text: &str,
    buttons: &[(Confirm, &str, ButtonStyle)],
    lang: Lang,
) -> Result<(), Error> {
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
    let mut row: Vec<CreateButton> = buttons
        .iter()
        .map(|(action, key, style)| button(*action, key, *style))
        .collect();
    row.push(button(
        Confirm::Keep,
        "bot.confirm.keep_button",
        ButtonStyle::Secondary,
    ));
    // Private: the mentions in the question are names, not pings.
    let edit = EditInteractionResponse::new()
        .content(content(text))
        .allowed_mentions(nobody())
        .components(vec![CreateActionRow::Buttons(row)]);
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
        Confirm::Keep => Text::new("bot.done.kept"),
        Confirm::Resign => {
            resign(http, data, game, user, lang).await?;
            Text::new("bot.done.resigned")
        }
        Confirm::Cancel | Confirm::CancelResigning => {
            // Moderator rights count in the game's own channel or thread only, as for the
            // command (the question was asked where the command was typed).
            let view = data.service.lobbies().lobby(game).await?;
            let here = Some(id_i64(click.channel_id.get()));
            let in_place = here == view.channel || here == view.thread;
            let moderator = in_place && is_moderator(click.member.as_ref());
            let resigning = action == Confirm::CancelResigning;
            Text::new(
                if cancel(http, data, game, user, moderator, resigning).await? {
                    "bot.done.cancelled_resigned"
                } else {
                    "bot.done.cancelled"
                },
            )
        }
        Confirm::Agree => {
            let agreed = data
                .service
                .lobbies()
                .agree_cancel(game, user, data.service.now())
                .await?;
            agree(http, data, &agreed, user).await?;
            if agreed.cancelled {
                Text::new("bot.done.cancelled")
            } else {
                Text::new("bot.done.agreed")
                    .arg("agreed", agreed.agreed)
                    .arg("of", agreed.of)
            }
        }
    };
    let edit = EditInteractionResponse::new()
        .content(content(&done.render(lang)))
        .allowed_mentions(nobody())
        .components(Vec::new());
    tracing::debug!(interaction = %click.id, ?action, "a confirmation taken; rewriting its question");
    super::common::edit_click(http, &data.pace, click, "answer a confirmation", edit).await?;
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
        .moves()
        .resign(game, user, lang, data.service.now())
        .await?;
    let view = data.service.lobbies().lobby(game).await?;
    if let (Some(place), Some(board)) = (send::place_of(&view), view.board_message) {
        send::retire_board(http, &data.pace, place, board).await;
    }
    send::announce_result(http, data, &view, view.lang).await;
    Ok(())
}

/// The host or a moderator cancels: the game stops with no result, its thread archived at once.
/// A host's cancel without everyone's agreement (`resigning`: they were warned) counts as
/// their resignation: the place is told so, with the ratings it moved. True in that case.
async fn cancel(
    http: &serenity::Http,
    data: &Data,
    game: GameId,
    user: i64,
    moderator: bool,
    resigning: bool,
) -> Result<bool, Error> {
    let done = data
        .service
        .lobbies()
        .cancel_with(game, user, moderator, resigning, data.service.now())
        .await?;
    let view = &done.view;
    let text = match done.resigned {
        Some(seat) => {
            let mut lines = vec![Text::new("bot.cancelled_resigned")
                .arg("game", view.kind.display_name())
                .arg("id", view.game.0)
                .arg("seat", seat)
                .render_with(view.lang, &view.names())];
            match data.service.records().rating_lines(game, view.lang).await {
                Ok(r) if !r.is_empty() => {
                    lines.push(Text::new("ratings.result_title").render(view.lang));
                    lines.extend(r);
                }
                Ok(_) => {}
                Err(e) => tracing::warn!(%game, error = %e, "could not rate a cancelled game"),
            }
            lines.join("\n")
        }
        None => Text::new("bot.cancelled")
            .arg("game", view.kind.display_name())
            .arg("id", view.game.0)
            .render(view.lang),
    };
    announce(http, data, view, &text).await?;
    Ok(done.resigned.is_some())
}

/// A player asked or agreed to cancel: the game's place is told who agrees and who is still
/// asked (pinged once), or that the game is cancelled when everyone agreed.
async fn agree(
    http: &serenity::Http,
    data: &Data,
    agreed: &crate::service::Agreed,
    user: i64,
) -> Result<(), Error> {
    let view = &agreed.view;
    if agreed.cancelled {
        let text = Text::new("bot.cancelled_agreed")
            .arg("game", view.kind.display_name())
            .arg("id", view.game.0)
            .render(view.lang);
        return announce(http, data, view, &text).await;
    }
    let Some(place) = send::place_of(view) else {
        return Ok(());
    };
    let who = view
        .seats
        .iter()
        .position(|s| s.user == Some(user))
        .and_then(|i| view.names().get(i).cloned())
        .unwrap_or_default();
    let text = Text::new("bot.cancel_asked")
        .arg("who", who)
        .arg("game", view.kind.display_name())
        .arg("id", view.game.0)
        .arg("agreed", agreed.agreed)
        .arg("of", agreed.of)
        .arg(
            "waiting",
            agreed
                .waiting
                .iter()
                .map(|u| format!("<@{u}>"))
                .collect::<Vec<_>>()
                .join(", "),
        )
        .render(view.lang);
    let msg = send::text_message(&text);
    posting(&data.pace, "ask the players to agree to cancel", || {
        place.send_message(http, msg.clone())
    })
    .await?;
    Ok(())
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
        let msg = send::place_message(data, text).await;
        posting(&data.pace, what, || place.send_message(http, msg.clone())).await?;
        if let Some(board) = view.board_message {
            send::retire_board(http, &data.pace, place, board).await;
        }
    }
    send::archive_thread(http, &data.pace, view).await;
    Ok(())
}
