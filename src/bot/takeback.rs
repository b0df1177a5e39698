//! Undo by request (issue 40 item 1): "Ask to take back" on a board or `/undo request:true`
//! posts the request in the game's thread, naming who asks and pinging every other human
//! player once, with Accept and Refuse buttons that only they can use (the click checks the
//! clicker against the request's seats); each answer is posted there too, and the agreed
//! take-back posts the board as it is again (hands re-sent as they were). Bots accept, so a
//! game with no other human goes back at once. `service::takeback` holds the rules.

use poise::serenity_prelude as serenity;
use serenity::{
    ButtonStyle, ComponentInteraction, CreateActionRow, CreateButton, EditInteractionResponse,
};

use super::common::edit_click;
use super::ids::{CustomId, TakebackButton};
use super::layout::content;
use super::mentions::nobody;
use super::retry::posting;
use super::{id_i64, send, Data, Error};
use crate::engine::{GameId, Seat};
use crate::i18n::{Lang, Text};
use crate::service::Takeback;

/// `user` asks to take back their last turn in `game`; the text for their private answer.
pub async fn ask(
    http: &serenity::Http,
    data: &Data,
    game: GameId,
    user: i64,
    lang: Lang,
) -> Result<String, Error> {
    let asked = data
        .service
        .moves()
        .request_takeback(game, user, lang, data.service.now())
        .await?;
    let view = &asked.view;
    let names = view.names();
    let who = name_of(&names, asked.asker);
    if let Some(outputs) = &asked.done {
        let text = Text::new("bot.takeback.bots_accept")
            .arg("who", who)
            .arg("count", asked.count)
            .render(view.lang);
        post(http, data, view, &text, false).await?;
        send::deliver(http, data, outputs).await?;
        return Ok(Text::new("bot.done.taken_back").render(lang));
    }
    let text = Text::new("bot.takeback.asked")
        .arg("who", who)
        .arg("count", asked.count)
        .arg("waiting", pings(&asked))
        .render(view.lang);
    post(http, data, view, &text, true).await?;
    Ok(Text::new("bot.done.takeback_asked").render(lang))
}

/// A take-back button: ask (from a board), or answer the pending request. The answer is
/// private to the clicker; what changed goes to the thread.
pub async fn click(
    http: &serenity::Http,
    click: &ComponentInteraction,
    data: &Data,
    game: GameId,
    button: TakebackButton,
    lang: Lang,
) -> Result<(), Error> {
    let user = id_i64(click.user.id.get());
    let text = match button {
        TakebackButton::Ask => ask(http, data, game, user, lang).await?,
        TakebackButton::Accept | TakebackButton::Refuse => {
            let accept = button == TakebackButton::Accept;
            answer(http, data, game, user, accept, lang).await?
        }
    };
    let edit = EditInteractionResponse::new()
        .content(content(&text))
        .allowed_mentions(nobody());
    edit_click(http, &data.pace, click, "answer a take-back button", edit).await?;
    Ok(())
}

/// `user` accepts or refuses; the thread is told, and the game goes back once all agreed.
async fn answer(
    http: &serenity::Http,
    data: &Data,
    game: GameId,
    user: i64,
    accept: bool,
    lang: Lang,
) -> Result<String, Error> {
    let (answered, seat) = data
        .service
        .moves()
        .answer_takeback(game, user, accept, lang, data.service.now())
        .await?;
    let view = &answered.view;
    let names = view.names();
    let who = name_of(&names, seat);
    let asker = name_of(&names, answered.asker);
    let text = if !accept {
        Text::new("bot.takeback.refused")
            .arg("who", who)
            .arg("asker", asker)
    } else if answered.done.is_some() {
        Text::new("bot.takeback.done")
            .arg("who", who)
            .arg("asker", asker)
            .arg("count", answered.count)
    } else {
        Text::new("bot.takeback.accepted")
            .arg("who", who)
            .arg("waiting", pings(&answered))
    };
    post(http, data, view, &text.render(view.lang), false).await?;
    if let Some(outputs) = &answered.done {
        send::deliver(http, data, outputs).await?;
    }
    Ok(Text::new(if accept {
        "bot.done.takeback_accepted"
    } else {
        "bot.done.takeback_refused"
    })
    .render(lang))
}

/// A seat's name as the thread shows it.
fn name_of(names: &[String], seat: Seat) -> String {
    names.get(seat.index()).cloned().unwrap_or_default()
}

/// The members still asked, as mentions.
fn pings(t: &Takeback) -> String {
    t.waiting
        .iter()
        .map(|(_, u)| format!("<@{u}>"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Posts `text` in the game's place, with the Accept and Refuse buttons when `buttons`.
async fn post(
    http: &serenity::Http,
    data: &Data,
    view: &crate::service::LobbyView,
    text: &str,
    buttons: bool,
) -> Result<(), Error> {
    let Some(place) = send::place_of(view) else {
        return Ok(());
    };
    // The players asked to answer are needed (they ping even on `game_pings:my_turn`); an
    // answer or a result names players who need do nothing.
    let needed: Vec<i64> = if buttons {
        super::mentions::mentioned_users(text)
            .into_iter()
            .filter_map(|u| i64::try_from(u).ok())
            .collect()
    } else {
        Vec::new()
    };
    let mut msg = send::place_message(data, Some(view.game), text, &needed).await;
    if buttons {
        let button = |b: TakebackButton, key: &str, style: ButtonStyle| {
            CreateButton::new(
                CustomId::Takeback {
                    game: view.game,
                    button: b,
                }
                .encode(),
            )
            .label(Text::new(key).render(view.lang))
            .style(style)
        };
        msg = msg.components(vec![CreateActionRow::Buttons(vec![
            button(
                TakebackButton::Accept,
                "bot.takeback.accept",
                ButtonStyle::Success,
            ),
            button(
                TakebackButton::Refuse,
                "bot.takeback.refuse",
                ButtonStyle::Danger,
            ),
        ])]);
    }
    posting(&data.pace, "post a take-back request", || {
        place.send_message(http, msg.clone())
    })
    .await?;
    Ok(())
}
