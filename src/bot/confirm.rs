//! "Are you sure?" before a step that ends a game for everyone (`/resign`, `/cancel`): the
//! command runs the step's checks, changes nothing and asks privately with buttons; the click
//! takes the step. One mistaken command can no longer end a game.
//!
//! `/cancel` of a running game says what it means for the ratings first (issue 36): the host
//! is warned that cancelling without every other player's agreement counts as their
//! resignation, and may ask the others instead; another player is asked to agree. Each button
//! names what it does, and the click checks again: a cancel clicked as "no rating" is refused
//! if an agreement expired meanwhile, rather than turned into a resignation.
//!
//! A member who turned `/settings confirm_moves` on is asked the same way before an option
//! that would end their turn (issue 40): "Play …? Confirm / Back", privately, whether the
//! option was clicked on a board, in their hand or typed with `/move`. Confirm plays it on the
//! version asked about, so a board that changed meanwhile is refused, kindly; Back plays
//! nothing. The question costs no state: the button carries the option and the version.

use poise::serenity_prelude as serenity;
use serenity::{
    ButtonStyle, ComponentInteraction, CreateActionRow, CreateButton,
    CreateInteractionResponseFollowup, EditInteractionResponse,
};

use super::ids::{self, Confirm, CustomId};
use super::layout::content;
use super::mentions::nobody;
use super::retry::posting;
use super::{id_i64, is_moderator, send, Context, Data, Error};
use crate::engine::{GameId, PlayError, Version};
use crate::i18n::{Lang, Text};
use crate::service::{
    Actor, CancelCheck, CancelKind, ConfirmMove, LobbyView, PlayLine, ServiceError,
};

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
        let msg = send::place_message(data, Some(view.game), text, &[]).await;
        posting(&data.pace, what, || place.send_message(http, msg.clone())).await?;
        if let Some(board) = view.board_message {
            send::retire_board(http, &data.pace, place, board).await;
        }
    }
    send::archive_thread(http, &data.pace, view).await;
    Ok(())
}

/// The text and the buttons of "Play …?": Confirm (the option, or the typed line, at the
/// version asked about) and Back. A typed line too long for a button's id is refused instead.
fn move_question(ask: &ConfirmMove, lang: Lang) -> Result<(String, CreateActionRow), Box<Error>> {
    let confirm = match ask.index {
        Some(index) => CustomId::Play {
            game: ask.game,
            version: ask.version,
            index,
        }
        .encode(),
        None => ids::play_line_id(ask.game, ask.version, &ask.line)
            .ok_or_else(|| Box::new(Error::User(Text::new("bot.confirm_move.too_long"))))?,
    };
    let text = Text::new("bot.confirm_move.question")
        .arg("option", ask.line.clone())
        .render(lang);
    let row = CreateActionRow::Buttons(vec![
        CreateButton::new(confirm)
            .label(Text::new("bot.confirm_move.confirm").render(lang))
            .style(ButtonStyle::Primary),
        CreateButton::new(
            CustomId::Confirm {
                game: ask.game,
                action: Confirm::Keep,
            }
            .encode(),
        )
        .label(Text::new("bot.confirm_move.back").render(lang))
        .style(ButtonStyle::Secondary),
    ]);
    Ok((text, row))
}

/// Asks "Play …?" in the deferred private answer of `/move`.
pub async fn ask_move(ctx: Context<'_>, ask: &ConfirmMove, lang: Lang) -> Result<(), Error> {
    let (text, row) = move_question(ask, lang).map_err(|e| *e)?;
    let edit = EditInteractionResponse::new()
        .content(content(&text))
        .allowed_mentions(nobody())
        .components(vec![row]);
    send::edit(ctx, edit).await
}

/// Asks "Play …?" after a click on a board or a private panel (acknowledged as an update of
/// that message, which stays as it is): a private follow-up only the clicker sees.
pub async fn ask_move_after_click(
    http: &serenity::Http,
    click: &ComponentInteraction,
    data: &Data,
    ask: &ConfirmMove,
    lang: Lang,
) -> Result<(), Error> {
    let (text, row) = move_question(ask, lang).map_err(|e| *e)?;
    let followup = CreateInteractionResponseFollowup::new()
        .content(content(&text))
        .allowed_mentions(nobody())
        .components(vec![row])
        .ephemeral(true);
    posting(&data.pace, "ask to confirm a move", || {
        click.create_followup(http, followup.clone())
    })
    .await?;
    Ok(())
}

/// What a "Confirm" under "Play …?" plays.
#[derive(Clone, Copy, Debug)]
pub enum Confirmed<'a> {
    /// The `index`-th option of the prompt asked about.
    Option(usize),
    /// A typed line.
    Line(&'a str),
}

/// The click on "Confirm": plays the move on the version asked about and posts the new board
/// as any move does; the question becomes "Played." (or why the end of a line was not), or,
/// when the board changed since, says so and plays nothing.
pub async fn play(
    http: &serenity::Http,
    click: &ComponentInteraction,
    data: &Data,
    game: GameId,
    version: Version,
    what: Confirmed<'_>,
    lang: Lang,
) -> Result<(), Error> {
    let user = id_i64(click.user.id.get());
    let now = data.service.now();
    let moves = data.service.moves();
    let played = match what {
        Confirmed::Option(index) => moves.choose(game, user, version, index, lang, now).await,
        Confirmed::Line(line) => {
            let cmd = PlayLine {
                game,
                actor: Actor::User(user),
                line: line.to_string(),
                seen: Some(version),
            };
            moves.play(cmd, lang, now).await
        }
    };
    let done = match played {
        Ok(outputs) => {
            send::deliver(http, data, &outputs).await?;
            // Only the player sees why the end of their line was refused: it may name cards.
            outputs
                .refused
                .unwrap_or_else(|| Text::new("bot.done.played"))
        }
        // The game moved on since the question: nothing is played onto a board the player
        // did not see; the live board is in the game's place.
        Err(ServiceError::Play(PlayError::Stale { .. })) => Text::new("bot.confirm_move.stale"),
        Err(e) => return Err(e.into()),
    };
    let edit = EditInteractionResponse::new()
        .content(content(&done.render(lang)))
        .allowed_mentions(nobody())
        .components(Vec::new());
    super::common::edit_click(
        http,
        &data.pace,
        click,
        "answer a move's confirmation",
        edit,
    )
    .await?;
    Ok(())
}
