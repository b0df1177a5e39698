//! `/replay`: a game turn by turn in a private answer, with ⏮ ◀ ▶ ⏭ buttons. Each click
//! carries the step it shows (`ids::CustomId::Replay`), so nothing is kept in memory and the
//! buttons work after a restart; the service rebuilds that step from the log.

use poise::serenity_prelude as serenity;
use serenity::{
    ButtonStyle, ComponentInteraction, CreateActionRow, CreateAttachment, CreateButton,
    EditInteractionResponse,
};

use super::common::{defer, resolve_game};
use super::ids::{CustomId, ReplayButton};
use super::layout::content;
use super::mentions::nobody;
use super::send::{self, author_id};
use super::{id_i64, lang_of, Context, Data, Error};
use crate::engine::GameId;
use crate::i18n::{Lang, Text};
use crate::service::ReplayStep;

/// The image's file name in a replay message.
pub const REPLAY_FILE: &str = "replay.png";

/// Discord keeps at most 1024 characters of an attachment's description.
fn alt(s: &str) -> String {
    s.chars().take(1024).collect()
}

/// ⏮ ◀ ▶ ⏭ for a step: each names the step it shows; those that would not move are off.
pub fn replay_rows(step: &ReplayStep) -> Vec<CreateActionRow> {
    let last = u32::try_from(step.steps).unwrap_or(u32::MAX);
    let at = u32::try_from(step.step).unwrap_or(u32::MAX);
    let button = |b: ReplayButton, label: &str, to: u32, off: bool| {
        CreateButton::new(
            CustomId::Replay {
                game: step.game,
                step: to,
                button: b,
            }
            .encode(),
        )
        .label(label)
        .style(ButtonStyle::Secondary)
        .disabled(off)
    };
    vec![CreateActionRow::Buttons(vec![
        button(ReplayButton::First, "⏮", 0, at == 0),
        button(ReplayButton::Back, "◀", at.saturating_sub(1), at == 0),
        button(
            ReplayButton::Next,
            "▶",
            at.saturating_add(1).min(last),
            at >= last,
        ),
        button(ReplayButton::Last, "⏭", last, at >= last),
    ])]
}

/// A step as the edit of a private answer: text, board image, buttons.
pub fn replay_edit(step: &ReplayStep) -> EditInteractionResponse {
    EditInteractionResponse::new()
        .allowed_mentions(nobody())
        .content(content(&step.text))
        .clear_attachments()
        .new_attachment(
            CreateAttachment::bytes(step.png.clone(), REPLAY_FILE).description(alt(&step.alt)),
        )
        .components(replay_rows(step))
}

/// The game given, else the one whose thread this is (finished ones too), else the one
/// running here.
async fn game_meant(ctx: Context<'_>, game: Option<i64>) -> Result<GameId, Error> {
    if game.is_none() {
        let here = id_i64(ctx.channel_id().get());
        if let Some(g) = ctx.data().service.find().game_of_thread(here).await? {
            return Ok(g);
        }
    }
    resolve_game(ctx, game).await
}

/// Replay a game turn by turn (finished games; your own running game up to now).
#[poise::command(slash_command)]
pub async fn replay(
    ctx: Context<'_>,
    game: Option<i64>,
    #[min = 0]
    #[max = 100000]
    turn: Option<u32>,
) -> Result<(), Error> {
    defer(ctx).await?;
    let lang = lang_of(ctx);
    let game = game_meant(ctx, game).await?;
    let step = ctx
        .data()
        .service
        .records()
        .replay_step(
            game,
            Some(author_id(ctx)),
            usize::try_from(turn.unwrap_or(0)).unwrap_or(usize::MAX),
            lang,
        )
        .await?;
    send::edit(ctx, replay_edit(&step)).await
}

/// A finished game's record as a file: seed, options, seats and every move.
///
/// To study it, or replay it with `croupier table --import`.
#[poise::command(slash_command)]
pub async fn export(ctx: Context<'_>, game: Option<i64>) -> Result<(), Error> {
    defer(ctx).await?;
    let lang = lang_of(ctx);
    let game = game_meant(ctx, game).await?;
    let file = ctx.data().service.records().export(game).await?;
    let name = file.file_name();
    let bytes = serde_json::to_vec_pretty(&file).unwrap_or_default();
    let text = Text::new("replay.export_done")
        .arg("id", game.0)
        .arg("file", name.clone())
        .render(lang);
    send::edit(
        ctx,
        EditInteractionResponse::new()
            .content(content(&text))
            .new_attachment(CreateAttachment::bytes(bytes, name)),
    )
    .await
}

/// A click on a replay's button (acknowledged already as a deferred update): the private
/// answer becomes the step the button names.
pub async fn click(
    http: &serenity::Http,
    click: &ComponentInteraction,
    data: &Data,
    game: GameId,
    step: u32,
    lang: Lang,
) -> Result<(), Error> {
    data.may_render(click.user.id.get()).map_err(Error::User)?;
    let viewer = id_i64(click.user.id.get());
    let step = data
        .service
        .records()
        .replay_step(
            game,
            Some(viewer),
            usize::try_from(step).unwrap_or(usize::MAX),
            lang,
        )
        .await?;
    super::common::edit_click(
        http,
        &data.pace,
        click,
        "show a replay step",
        replay_edit(&step),
    )
    .await?;
    Ok(())
}
