//! The one handler for every button and menu, keyed by custom id (see `ids`). Nothing lives in
//! memory: a click carries game, version and option, so it works after a restart, and a click
//! on an old board is answered "the board changed".

use poise::serenity_prelude as serenity;
use serenity::{
    ComponentInteraction, ComponentInteractionDataKind, CreateInteractionResponse,
    CreateInteractionResponseFollowup, CreateInteractionResponseMessage, EditInteractionResponse,
};

use super::common::edit_click;
use super::ids::{CustomId, LobbyAction};
use super::layout::{content, group_options};
use super::mentions::nobody;
use super::retry::{acknowledging, editing, posting};
use super::send;
use super::{id_i64, is_moderator, user_message, Data, Error};
use crate::engine::PlayError;
use crate::i18n::{Lang, Text};
use crate::model::GameStatus;
use crate::service::{Chosen, LobbyView, Player, Rematch, ServiceError};

/// How a click was acknowledged, which decides how an error is shown afterwards.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ack {
    /// Deferred update (type 6): the clicked message is edited later; errors are follow-ups.
    Update,
    /// Deferred ephemeral reply (type 5): the reply is filled in by editing it.
    Deferred,
}

/// Routes one click. Errors are shown to the clicker; nothing is returned to poise.
pub async fn handle(ctx: &serenity::Context, click: &ComponentInteraction, data: &Data) {
    let arrived = std::time::Instant::now();
    let Some(id) = CustomId::decode(&click.data.custom_id) else {
        tracing::debug!(custom_id = %click.data.custom_id, "ignoring a foreign component");
        return;
    };
    // A redelivery to this process: dropped before a second acknowledgement.
    if !data.take(click.id.get()) {
        tracing::debug!(interaction = %click.id, "dropping a click delivered twice");
        return;
    }
    tracing::debug!(interaction = %click.id, custom_id = %click.data.custom_id, "a click");
    // Refusals and private answers are in the clicker's language. What goes public (boards,
    // the lobby, notices, the result) is in the game's own, chosen when its lobby opened: the
    // service and the views carry it, so a click never switches a game's language.
    let lang = Lang::from_locale(&click.locale);
    let http = ctx.http.as_ref();
    // Every click is acknowledged before any database work, so a slow or busy database never
    // costs Discord's 3 s: the clicked message is edited later (lobby and boards), or a private
    // answer is filled in (a hand, a group of options).
    let ack = match id {
        // A follower is answered privately; the lobby message stays as it is. So is a rematch:
        // its lobby is a new message.
        CustomId::Lobby {
            action: LobbyAction::Follow | LobbyAction::Rematch,
            ..
        } => Ack::Deferred,
        CustomId::Choose { .. } | CustomId::Menu { .. } | CustomId::Lobby { .. } => Ack::Update,
        CustomId::Hand { .. }
        | CustomId::Zoom { .. }
        | CustomId::Group { .. }
        | CustomId::Analyse { .. }
        | CustomId::Takeback { .. }
        // A rollback's answer is private; the thread is told with a message of its own.
        | CustomId::Rollback { .. } => Ack::Deferred,
        // The private question is rewritten as what happened; a replay shows the next step.
        CustomId::Confirm { .. }
        | CustomId::Play { .. }
        | CustomId::PlayLine { .. }
        | CustomId::Replay { .. } => Ack::Update,
    };
    let acked = match ack {
        Ack::Update => {
            acknowledging("acknowledge a click", || {
                click.create_response(http, CreateInteractionResponse::Acknowledge)
            })
            .await
        }
        Ack::Deferred => {
            let defer = CreateInteractionResponse::Defer(
                CreateInteractionResponseMessage::new().ephemeral(true),
            );
            acknowledging("acknowledge a click", || {
                click.create_response(http, defer.clone())
            })
            .await
        }
    };
    if let Err(e) = acked {
        tracing::warn!(error = %e, "could not acknowledge a click");
        return;
    }
    metrics::histogram!(crate::ops::ACK_SECONDS, "kind" => "click")
        .record(arrived.elapsed().as_secs_f64());
    // A click delivered twice (several processes, a replayed gateway event) is handled once:
    // its second acknowledgement met 40060, which counts as done, and the row says it is seen.
    if !super::first_seen(&data.service, click.id.get()).await {
        return;
    }
    let result = match id {
        CustomId::Choose {
            game,
            version,
            index,
        } => choose(http, click, data, game, version, index, lang)
            .await
            .inspect(|()| board_out(arrived)),
        CustomId::Menu { game, version, .. } => match selected(click) {
            Some(index) => choose(http, click, data, game, version, index, lang)
                .await
                .inspect(|()| board_out(arrived)),
            None => Err(Error::Service(
                crate::service::LobbyError::NoSuchChoice.into(),
            )),
        },
        CustomId::Group { game, version } => match selected(click) {
            Some(group) => group_panel(http, click, data, game, version, group, lang).await,
            None => Err(Error::Service(
                crate::service::LobbyError::NoSuchChoice.into(),
            )),
        },
        CustomId::Lobby { game, action } => lobby(http, click, data, game, action, lang).await,
        CustomId::Hand { game } => hand(http, click, data, game, lang).await,
        CustomId::Zoom { game } => zoom(http, click, data, game, lang).await,
        CustomId::Confirm { game, action } => {
            super::confirm::answer(http, click, data, game, action, lang).await
        }
        CustomId::Replay { game, step, .. } => {
            super::replay::click(http, click, data, game, step, lang).await
        }
        CustomId::Analyse { game } => super::analysis::click(http, click, data, game, lang).await,
        CustomId::Takeback { game, button } => {
            super::takeback::click(http, click, data, game, button, lang).await
        }
        CustomId::Rollback {
            game,
            version,
            keep,
            yes,
        } => super::rollback::answer(http, click, data, game, (version, keep, yes), lang).await,
        CustomId::Play {
            game,
            version,
            index,
        } => {
            let what = super::confirm::Confirmed::Option(index);
            super::confirm::play(http, click, data, game, version, what, lang).await
        }
        CustomId::PlayLine { game, version } => {
            match super::ids::confirmed_line(&click.data.custom_id) {
                Some(line) => {
                    let what = super::confirm::Confirmed::Line(line);
                    super::confirm::play(http, click, data, game, version, what, lang).await
                }
                None => Err(Error::Service(
                    crate::service::LobbyError::NoSuchChoice.into(),
                )),
            }
        }
    };
    if let Err(e) = result {
        tracing::debug!(interaction = %click.id, error = %e, "a click refused");
        // Seats in the message are shown by the players' names.
        let unavailable = matches!(&e, Error::Service(s) if s.is_unavailable());
        let stale = match &e {
            Error::Service(ServiceError::Play(PlayError::Stale { found, .. })) => Some(*found),
            _ => None,
        };
        let names: Vec<String> = match id.game() {
            // The database is away: asking it for the names would only keep the user waiting.
            // An old board's answer names nobody: no read (clicks may be spammed).
            // A refusal of the bot's own (too fast) names no seat.
            Some(_) if unavailable || stale.is_some() || matches!(e, Error::User(_)) => Vec::new(),
            Some(g) => data
                .service
                .lobbies()
                .lobby(g)
                .await
                .map(|v| v.names())
                .unwrap_or_default(),
            None => Vec::new(),
        };
        // An old board: the answer says so and shows the current one (only to the clicker),
        // once per version: clicking old buttons again gets the text alone, with no render.
        if let (Some(found), Some(game), Ack::Update) = (stale, id.game(), ack) {
            if !data.first_stale_view(click.user.id.get(), game.0, found.0) {
                let text = crate::i18n::Text::new("bot.error.stale_again").render(lang);
                show_error(http, &data.pace, click, ack, &text).await;
                return;
            }
            if let Ok(now) = data.service.boards().show(game, lang).await {
                let followup = CreateInteractionResponseFollowup::new()
                    .content(content(&user_message(&e, lang, &names)))
                    .allowed_mentions(nobody())
                    .add_file(send::board_file(&now.board))
                    .ephemeral(true);
                match click.create_followup(http, followup).await {
                    Ok(_) => return,
                    Err(err) => tracing::warn!(error = %err, "could not show the current board"),
                }
            }
        }
        show_error(
            http,
            &data.pace,
            click,
            ack,
            &user_message(&e, lang, &names),
        )
        .await;
    }
}

/// The value picked in a select menu, as a number (an option or a group index).
fn selected(click: &ComponentInteraction) -> Option<usize> {
    match &click.data.kind {
        ComponentInteractionDataKind::StringSelect { values } => {
            values.first().and_then(|v| v.parse::<usize>().ok())
        }
        _ => None,
    }
}

/// A group of a long prompt picked from its menu: that group's options, only to the player
/// who decides (the click came from a board or from their own private panel).
async fn group_panel(
    http: &serenity::Http,
    click: &ComponentInteraction,
    data: &Data,
    game: crate::engine::GameId,
    version: crate::engine::Version,
    group: usize,
    lang: Lang,
) -> Result<(), Error> {
    let user = id_i64(click.user.id.get());
    let prompt = data.service.moves().prompt_for(game, user, version).await?;
    let groups = group_options(&prompt.options).unwrap_or_default();
    let Some(picked) = groups.get(group) else {
        return Err(Error::Service(
            crate::service::LobbyError::NoSuchChoice.into(),
        ));
    };
    let text = crate::i18n::Text::new("bot.turn.group_panel")
        .arg("group", picked.label.clone())
        .render(lang);
    let rows = send::group_rows(game, version, &prompt, &picked.indices, lang);
    let edit = EditInteractionResponse::new()
        .content(content(&text))
        .allowed_mentions(nobody())
        .components(rows);
    edit_click(http, &data.pace, click, "show a group", edit).await?;
    Ok(())
}

/// Shows an error to the clicker only, in the way the acknowledgement allows.
async fn show_error(
    http: &serenity::Http,
    pace: &super::pace::Pace,
    click: &ComponentInteraction,
    ack: Ack,
    text: &str,
) {
    let text = content(text);
    let shown = match ack {
        Ack::Update => click
            .create_followup(
                http,
                CreateInteractionResponseFollowup::new()
                    .content(text)
                    .allowed_mentions(nobody())
                    .ephemeral(true),
            )
            .await
            .map(|_| ()),
        Ack::Deferred => edit_click(
            http,
            pace,
            click,
            "show an error",
            EditInteractionResponse::new()
                .content(text)
                .allowed_mentions(nobody()),
        )
        .await
        .map(|_| ()),
    };
    if let Err(e) = shown {
        tracing::warn!(error = %e, "could not show an error to the user");
    }
}

/// A decision clicked on a board (or a private panel). `lang` is the clicker's, for what only
/// they see; the boards go out in the game's language (`outputs.lang`).
async fn choose(
    http: &serenity::Http,
    click: &ComponentInteraction,
    data: &Data,
    game: crate::engine::GameId,
    version: crate::engine::Version,
    index: usize,
    lang: Lang,
) -> Result<(), Error> {
    let user = id_i64(click.user.id.get());
    let outputs = match data
        .service
        .moves()
        .choose_or_ask(game, user, version, index, lang, data.service.now())
        .await?
    {
        Chosen::Played(outputs) => *outputs,
        // `/settings confirm_moves`: the option would end the turn; the clicked message stays
        // as it is and only the clicker is asked.
        Chosen::Confirm(ask) => {
            return super::confirm::ask_move_after_click(http, click, data, &ask, lang).await;
        }
    };
    // The same player decides again: an intermediate step of their turn.
    // A lesson past its script's steps is not: its board goes out whole, and the lesson ends
    // there.
    let same_turn = outputs.same_decider
        && !(outputs.table.lesson
            && crate::service::past_script(outputs.table.kind, outputs.board.version.0));
    let hands = outputs.hands;
    let from_private = click
        .message
        .flags
        .is_some_and(|f| f.contains(serenity::MessageFlags::EPHEMERAL));
    if from_private {
        // A click in the player's own hand reply: the table gets a new board; the reply shows
        // the hand again, with the next private options if this player still decides.
        send::deliver(http, data, &outputs).await?;
        if !hands {
            // A group panel of a game without hands: its options are on the new board.
            let done = crate::i18n::Text::new("bot.turn.played").render(lang);
            let edit = EditInteractionResponse::new()
                .content(content(&done))
                .allowed_mentions(nobody())
                .components(Vec::new());
            edit_click(http, &data.pace, click, "close a panel", edit).await?;
            return Ok(());
        }
        let mut edit = send::hand_reply(data, game, user, lang).await?;
        if !same_turn {
            edit = edit
                .content(content(
                    &crate::i18n::Text::new("bot.turn.played_privately").render(lang),
                ))
                .allowed_mentions(nobody());
        }
        edit_click(http, &data.pace, click, "refresh a hand", edit).await?;
    } else if same_turn {
        // An intermediate step of the same player's turn: update the board in place.
        let edit = send::board_edit(&outputs.board, hands, outputs.lang);
        let board = edit_click(http, &data.pace, click, "update a board", edit)
            .await
            .map_err(|e| Error::Undelivered(Box::new(e.into())))?;
        // The edited board is this version's board: the sweeper must not post it again.
        let place = board.channel_id;
        send::record_posted(
            http,
            data,
            game,
            outputs.board.version,
            Some((&board, place)),
            None,
        )
        .await;
        send::send_private(
            http,
            data,
            &outputs.table,
            &outputs.private,
            None,
            outputs.lang,
        )
        .await;
    } else {
        // The old board keeps its picture but loses its buttons; the new one is posted even
        // if the old one could not be changed (its buttons then answer "the board changed").
        let retired = edit_click(
            http,
            &data.pace,
            click,
            "retire a board",
            EditInteractionResponse::new().components(Vec::new()),
        )
        .await;
        let done = retired.as_ref().ok().map(|_| click.message.id);
        send::deliver_after(http, data, &outputs, done).await?;
        if let Err(e) = retired {
            tracing::warn!(%game, error = %e, "could not take the buttons off an old board");
        }
    }
    Ok(())
}

/// A lobby button. `lang` is the clicker's; the lobby message, the thread's name and the first
/// board are in the game's language (the view's).
async fn lobby(
    http: &serenity::Http,
    click: &ComponentInteraction,
    data: &Data,
    game: crate::engine::GameId,
    action: LobbyAction,
    lang: Lang,
) -> Result<(), Error> {
    let user = id_i64(click.user.id.get());
    let service = &data.service;
    let moderator = is_moderator(click.member.as_ref());
    match action {
        LobbyAction::Join | LobbyAction::Accept => {
            // Accept is a Join that only a member whose seat is kept may press.
            let (lobbies, now) = (service.lobbies(), data.service.now());
            let view = if action == LobbyAction::Accept {
                lobbies.accept(game, clicker(click), now).await?
            } else {
                lobbies.join(game, clicker(click), now).await?
            };
            update_lobby(http, data, click, &view, lang).await?;
            if crate::service::has_hidden_hands(view.kind) {
                send::check_dm(http, data, &view, user, view.lang).await;
            }
        }
        LobbyAction::Leave => {
            let view = service
                .lobbies()
                .leave(game, user, data.service.now())
                .await?;
            update_lobby(http, data, click, &view, lang).await?;
        }
        LobbyAction::Decline => {
            let view = service
                .lobbies()
                .decline(game, user, data.service.now())
                .await?;
            update_lobby(http, data, click, &view, lang).await?;
        }
        LobbyAction::Start => {
            let mut outputs = service
                .lobbies()
                .start_lobby(game, user, moderator, lang, data.service.now())
                .await?;
            // The board goes where the game is played: the thread just opened, if any.
            if let Some(thread) = open_thread(http, click, data, game).await {
                outputs.table.thread = Some(thread);
            }
            // The game has started: its first board goes out even if the lobby message
            // cannot be updated (its buttons then answer that the game is under way).
            let updated = match service.lobbies().lobby(game).await {
                Ok(view) => update_lobby(http, data, click, &view, lang).await,
                Err(e) => Err(e.into()),
            };
            send::deliver(http, data, &outputs).await?;
            if let Err(e) = updated {
                tracing::warn!(%game, error = %e, "could not update a started game's lobby");
            }
        }
        LobbyAction::Cancel => {
            let view = service
                .lobbies()
                .cancel(game, user, moderator, data.service.now())
                .await?;
            update_lobby(http, data, click, &view, lang).await?;
        }
        LobbyAction::AddBot => {
            let view = service
                .lobbies()
                .add_bot(game, user, moderator, data.service.now())
                .await?;
            update_lobby(http, data, click, &view, lang).await?;
        }
        LobbyAction::RemoveBot => {
            let view = service
                .lobbies()
                .remove_bot(game, user, moderator, data.service.now())
                .await?;
            update_lobby(http, data, click, &view, lang).await?;
        }
        LobbyAction::Follow => follow(http, click, data, game).await?,
        LobbyAction::Rematch => rematch(http, click, data, game, lang).await?,
    }
    Ok(())
}

/// A player of a finished game presses Rematch (on its result in the channel): the first
/// press opens the rematch's lobby as a new message there, pinging the other players once;
/// a later press by one of them confirms their seat. Answered privately in the clicker's
/// `lang`; the rematch's lobby keeps the finished game's language (its view's).
async fn rematch(
    http: &serenity::Http,
    click: &ComponentInteraction,
    data: &Data,
    game: crate::engine::GameId,
    lang: Lang,
) -> Result<(), Error> {
    let seed = crate::clock::fresh_seed(click.id.get());
    let done = data
        .service
        .lobbies()
        .rematch(game, clicker(click), seed, data.service.now())
        .await?;
    let (key, view) = match done {
        Rematch::Opened { view, invited } => {
            let plang = view.lang;
            let view = send::post_lobby(http, data, view, &invited).await?;
            // The result keeps its Rematch button (others confirm with it) and links the lobby.
            let line = crate::i18n::Text::new("bot.rematch.link")
                .arg("id", view.game.0)
                .arg("link", send::lobby_link(&view))
                .render(plang);
            let edit = serenity::EditMessage::new()
                .content(content(&format!("{}\n{line}", click.message.content)))
                .allowed_mentions(nobody());
            data.pace.counted().await;
            let linked = editing(http, &data.pace, click.channel_id, "link a rematch", || {
                click
                    .channel_id
                    .edit_message(http, click.message.id, edit.clone())
            })
            .await;
            if let Err(e) = linked {
                tracing::info!(%game, error = %e, "could not link the rematch from the result");
            }
            ("bot.rematch.opened", view)
        }
        Rematch::Confirmed(view) => {
            refresh_lobby(http, data, &view).await;
            ("bot.rematch.confirmed", view)
        }
        Rematch::Seated(view) => ("bot.rematch.seated", view),
    };
    let text = crate::i18n::Text::new(key)
        .arg("id", view.game.0)
        .arg("link", send::lobby_link(&view))
        .render(lang);
    answer_privately(http, data, click, "answer a rematch", &text).await
}

/// The member who clicked, as a player taking a seat (by their display name).
fn clicker(click: &ComponentInteraction) -> Player {
    Player {
        user: Some(id_i64(click.user.id.get())),
        name: super::common::user_name(&click.user),
        is_bot: false,
    }
}

/// Fills in a click's deferred private answer with `text` (it pings nobody).
async fn answer_privately(
    http: &serenity::Http,
    data: &Data,
    click: &ComponentInteraction,
    what: &str,
    text: &str,
) -> Result<(), Error> {
    let edit = EditInteractionResponse::new()
        .content(content(text))
        .allowed_mentions(nobody());
    edit_click(http, &data.pace, click, what, edit).await?;
    Ok(())
}

/// Rewrites a lobby message from its view (a seat taken elsewhere than on it: a rematch's
/// confirmation, a Join from `/lobbies`). Logged
/// on failure: the lobby itself changed already.
async fn refresh_lobby(http: &serenity::Http, data: &Data, view: &LobbyView) {
    let lang = view.lang;
    let (Some(channel), Some(message)) = (view.channel, view.lobby_message) else {
        return;
    };
    let channel = serenity::ChannelId::new(super::id_u64(channel).max(1));
    let message = serenity::MessageId::new(super::id_u64(message).max(1));
    let edit = serenity::EditMessage::new()
        .content(content(&view.text(lang)))
        .allowed_mentions(nobody())
        .components(send::lobby_rows(view, lang));
    data.pace.counted().await;
    if let Err(e) = editing(http, &data.pace, channel, "update a lobby", || {
        channel.edit_message(http, message, edit.clone())
    })
    .await
    {
        tracing::info!(game = %view.game, error = %e, "could not update a lobby message");
    }
}

/// Every seated player joins the new game's thread, so it is in their list and its boards
/// notify them as the thread's members (without a ping on each board). A failure is logged:
/// the first board's mention still brings the deciding player in.
async fn add_players_to_thread(
    http: &serenity::Http,
    data: &Data,
    view: &LobbyView,
    thread: serenity::ChannelId,
) {
    let game = view.game;
    for user in view
        .seats
        .iter()
        .filter(|s| !s.is_bot)
        .filter_map(|s| s.user)
    {
        let user = serenity::UserId::new(super::id_u64(user).max(1));
        let added = posting(&data.pace, "add a player to a thread", || {
            thread.add_thread_member(http, user)
        })
        .await;
        if let Err(e) = added {
            tracing::info!(%game, error = %e, "could not add a player to the game's thread");
        }
    }
}

/// A spectator follows a running game: they join its thread (unarchived first if it slept),
/// and are told privately where it is.
async fn follow(
    http: &serenity::Http,
    click: &ComponentInteraction,
    data: &Data,
    game: crate::engine::GameId,
) -> Result<(), Error> {
    let lang = Lang::from_locale(&click.locale);
    let view = data.service.lobbies().lobby(game).await?;
    let text = match view.thread.filter(|_| view.status == GameStatus::Active) {
        Some(thread) => {
            let channel = serenity::ChannelId::new(super::id_u64(thread).max(1));
            data.pace.counted().await;
            editing(http, &data.pace, channel, "add a follower", || {
                channel.add_thread_member(http, click.user.id)
            })
            .await?;
            crate::i18n::Text::new("bot.lobby.following")
                .arg("game", view.kind.display_name())
                .arg("id", game.0)
                .arg("thread", format!("<#{}>", super::id_u64(thread)))
        }
        None => crate::i18n::Text::new("bot.lobby.nothing_to_follow"),
    };
    answer_privately(http, data, click, "answer a follower", &text.render(lang)).await
}

/// A started game gets its thread, from the lobby message, so several games share a channel
/// without mixing. Without the permission it stays where it is. A lobby inside a thread (one a
/// member started) is played in that thread: Discord starts no thread inside a thread (400 /
/// 50024), so none is asked for. Its players are added to whichever thread it is played in; the
/// game's own thread, if it got one, is returned.
async fn open_thread(
    http: &serenity::Http,
    click: &ComponentInteraction,
    data: &Data,
    game: crate::engine::GameId,
) -> Option<i64> {
    let view = data.service.lobbies().lobby(game).await.ok()?;
    let lang = view.lang;
    if let Some(thread) = view.thread {
        let id = serenity::ChannelId::new(super::id_u64(thread).max(1));
        add_players_to_thread(http, data, &view, id).await;
        return Some(thread);
    }
    // The thread is the member's, not the game's: it is not archived or renamed for the game.
    if click
        .channel
        .as_ref()
        .is_some_and(|c| super::common::is_thread(c.kind))
    {
        add_players_to_thread(http, data, &view, click.channel_id).await;
        return None;
    }
    // A server's active threads are capped for everyone: past the bot's share, the game is
    // played in its channel.
    match data.service.lobbies().thread_room(view.guild).await {
        Ok(true) => {}
        Ok(false) => {
            tracing::info!(%game, "the server holds the bot's share of threads; playing in the channel");
            return None;
        }
        Err(e) => tracing::warn!(%game, error = %e, "could not count the server's game threads"),
    }
    let thread = send::game_thread(&view, lang);
    data.pace.counted().await;
    match click
        .channel_id
        .create_thread_from_message(http, click.message.id, thread)
        .await
    {
        Ok(thread) => {
            if let Err(e) = data
                .service
                .lobbies()
                .set_thread(game, id_i64(thread.id.get()))
                .await
            {
                tracing::warn!(%game, error = %e, "could not record the game's thread");
                // Unrecorded, the game stays in the channel (where a restart would look).
                return None;
            }
            add_players_to_thread(http, data, &view, thread.id).await;
            Some(id_i64(thread.id.get()))
        }
        Err(e) => {
            tracing::info!(%game, error = %e, "no thread; playing in the channel");
            None
        }
    }
}

/// Answers a lobby click by rewriting the lobby message (the click was acknowledged first; an
/// edit may be repeated safely).
async fn update_lobby(
    http: &serenity::Http,
    data: &Data,
    click: &ComponentInteraction,
    view: &LobbyView,
    clicker_lang: Lang,
) -> Result<(), Error> {
    let (lang, pace) = (view.lang, &data.pace);
    let on_lobby = view
        .lobby_message
        .is_none_or(|m| super::id_u64(m) == click.message.id.get());
    if on_lobby {
        let edit = EditInteractionResponse::new()
            .allowed_mentions(nobody())
            .content(content(&view.text(lang)))
            .components(send::lobby_rows(view, lang));
        edit_click(http, pace, click, "update a lobby", edit).await?;
        return Ok(());
    }
    // A Join from `/lobbies`' private list: the lobby message is updated where it stands,
    // then the list says where to go.
    refresh_lobby(http, data, view).await;
    let done = crate::i18n::Text::new("bot.lobbies.joined")
        .arg("game", view.kind.display_name())
        .arg("id", view.game.0)
        .arg("link", send::lobby_link(view))
        .render(clicker_lang);
    let edit = EditInteractionResponse::new()
        .allowed_mentions(nobody())
        .content(content(&done))
        .components(Vec::new());
    edit_click(http, pace, click, "answer a join from the list", edit).await?;
    Ok(())
}

async fn hand(
    http: &serenity::Http,
    click: &ComponentInteraction,
    data: &Data,
    game: crate::engine::GameId,
    lang: Lang,
) -> Result<(), Error> {
    data.may_render(click.user.id.get()).map_err(Error::User)?;
    let user = id_i64(click.user.id.get());
    let edit = send::hand_reply(data, game, user, lang).await?;
    edit_click(http, &data.pace, click, "show a hand", edit).await?;
    Ok(())
}

/// The parts of the current board that matter to the clicker, at full size, only to them: the
/// image in the board's language (the game's), the line naming its parts in theirs.
async fn zoom(
    http: &serenity::Http,
    click: &ComponentInteraction,
    data: &Data,
    game: crate::engine::GameId,
    lang: Lang,
) -> Result<(), Error> {
    data.may_render(click.user.id.get()).map_err(Error::User)?;
    let user = id_i64(click.user.id.get());
    let edit = match data.service.boards().zoom(game, user, lang).await? {
        Some(zoom) => EditInteractionResponse::new()
            .content(content(
                &Text::new("bot.zoom.parts")
                    .arg("parts", zoom.parts.join(" · "))
                    .render(lang),
            ))
            .new_attachment(send::zoom_file(&zoom)),
        None => EditInteractionResponse::new().content(Text::new("bot.zoom.none").render(lang)),
    };
    edit_click(http, &data.pace, click, "show a zoom", edit).await?;
    Ok(())
}

/// A move's new board is out: the time since its click arrived.
fn board_out(arrived: std::time::Instant) {
    metrics::histogram!(crate::ops::CLICK_TO_BOARD_SECONDS).record(arrived.elapsed().as_secs_f64());
}
