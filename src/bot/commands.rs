//! The slash commands. Each one decodes its arguments, calls the service, and sends the
//! outputs; none holds game logic. Names and descriptions come from the catalogs
//! (`assets/i18n/*/bot.toml`), English by default with French localizations.

use poise::serenity_prelude as serenity;
use serenity::EditInteractionResponse;

use super::common::{
    autocomplete_game, bot_may_host_here, defer, filled, may_reach, moderator_of, named,
    parse_kind, resolve_game, suggest,
};
use super::ids;
use super::layout::content;
use super::send::{self, author_id};
use super::{fresh_seed, id_i64, lang_of, Context, Error};
use crate::ai::Level;
use crate::engine::{GameId, GameKind, GameOptions, PlayError};
use crate::i18n::Text;
use crate::service::{Chosen, OpenLobby, Place, PlayLine, Player, ServiceError, UndoScope};

/// `key=value` pairs separated by spaces or commas. A word without `=` after a pair carries
/// on its value as a list (`colours=red,blue green` is Portal's seat order `red,blue,green`);
/// a word without `=` before any pair is refused.
pub fn parse_options(s: &str) -> Result<GameOptions, Text> {
    let mut out = GameOptions::new();
    let mut last: Option<String> = None;
    for word in s.split([' ', ',']).map(str::trim).filter(|w| !w.is_empty()) {
        match (word.split_once('='), &last) {
            (Some((k, v)), _) => {
                let key = k.trim().to_string();
                out.insert(key.clone(), v.trim().to_string());
                last = Some(key);
            }
            (None, Some(key)) => {
                if let Some(value) = out.get_mut(key) {
                    value.push(',');
                    value.push_str(word);
                }
            }
            (None, None) => {
                return Err(Text::new("bot.error.options").arg("input", word.to_string()));
            }
        }
    }
    Ok(out)
}

/// Every `key=value` of every game, for the options field (the last typed pair completes).
async fn autocomplete_options(
    _ctx: Context<'_>,
    partial: &str,
) -> serenity::CreateAutocompleteResponse {
    let (done, last) = match partial.rfind(' ') {
        Some(i) => (&partial[..=i], &partial[i + 1..]),
        None => ("", partial),
    };
    let mut out: Vec<String> = GameKind::ALL
        .iter()
        .flat_map(|k| k.option_specs())
        .flat_map(|s| {
            s.values
                .iter()
                .map(move |v| format!("{}={v}", s.key))
                .collect::<Vec<_>>()
        })
        .filter(|kv| kv.starts_with(last))
        .map(|kv| format!("{done}{kv}"))
        .filter(|s| s.len() <= 100)
        .collect();
    out.dedup();
    out.truncate(25);
    suggest(out)
}

/// The options of the user's decision; each value carries the prompt's version (see
/// `ids::move_value`).
async fn autocomplete_move(
    ctx: Context<'_>,
    partial: &str,
) -> serenity::CreateAutocompleteResponse {
    super::common::in_time(move_choices(ctx, partial)).await
}

/// [`autocomplete_move`]'s answer, however long the database takes.
async fn move_choices(ctx: Context<'_>, partial: &str) -> serenity::CreateAutocompleteResponse {
    let service = &ctx.data().service;
    let user = author_id(ctx);
    // The same reach as the command itself: from its server, by its players or in its place.
    // What one answer needs, per keystroke: which game is here (unless named), then that game
    // read once, with who may reach it.
    let game = match filled(ctx, "game") {
        Some(serenity::ResolvedValue::Integer(id)) => GameId(*id),
        _ => match service
            .find()
            .game_here(id_i64(ctx.channel_id().get()), user)
            .await
        {
            Ok(game) => game,
            Err(_) => return suggest(Vec::<String>::new()),
        },
    };
    let Ok(choices) = service.moves().choices(game, user, partial).await else {
        return suggest(Vec::<String>::new());
    };
    if may_reach(ctx, game, &choices.reach).is_err() {
        return suggest(Vec::<String>::new());
    }
    suggest(
        choices
            .options
            .iter()
            .filter(|o| o.len() <= ids::MAX_CHOICE_VALUE)
            .take(25)
            .map(|o| {
                serenity::AutocompleteChoice::new(o.as_str(), ids::move_value(o, choices.version))
            })
            .collect(),
    )
}

async fn autocomplete_topic(
    ctx: Context<'_>,
    partial: &str,
) -> serenity::CreateAutocompleteResponse {
    let lang = lang_of(ctx);
    let given = match filled(ctx, "game") {
        Some(serenity::ResolvedValue::String(g)) => GameKind::parse(g),
        _ => None,
    };
    let here = match given {
        Some(k) => Some(k),
        // The game played here, if the database says so in time; else the first game.
        None => tokio::time::timeout(
            super::common::AUTOCOMPLETE_WAIT,
            ctx.data()
                .service
                .find()
                .kind_here(id_i64(ctx.channel_id().get())),
        )
        .await
        .ok()
        .and_then(Result::ok)
        .flatten(),
    };
    let kind = here
        .or_else(|| GameKind::ALL.first().copied())
        .unwrap_or(GameKind::Cortexcape);
    suggest(
        crate::rules::search(kind, lang, partial)
            .into_iter()
            .take(25)
            .map(|t| serenity::AutocompleteChoice::new(super::layout::label(&t.title), t.id))
            .collect(),
    )
}

/// Open a lobby for a game.
#[poise::command(slash_command, guild_only)]
// Each slash-command option is a parameter of the function (poise), so the count is Discord's.
#[allow(clippy::too_many_arguments)]
pub async fn play(
    ctx: Context<'_>,
    #[autocomplete = "autocomplete_game"] game: String,
    #[autocomplete = "autocomplete_options"] options: Option<String>,
    #[min = 1]
    #[max = 25]
    players: Option<u32>,
    #[autocomplete = "super::common::autocomplete_clock"] clock: Option<String>,
    #[autocomplete = "super::common::autocomplete_policy"] timeout: Option<String>,
    #[autocomplete = "super::common::autocomplete_level"] bots: Option<String>,
    #[min = 0]
    #[max = 60]
    bot_delay: Option<u32>,
    #[autocomplete = "super::common::autocomplete_lang"] lang: Option<String>,
    rated: Option<bool>,
    #[min = 0]
    #[max = 100]
    reliable: Option<u8>,
    invite: Option<String>,
    open: Option<bool>,
) -> Result<(), Error> {
    bot_may_host_here(ctx).map_err(Error::User)?;
    let asked = lang
        .as_deref()
        .map(super::common::read_lang)
        .transpose()
        .map_err(Error::User)?
        .flatten();
    let bot_level = bots
        .as_deref()
        .map(super::common::read_level)
        .transpose()
        .map_err(Error::User)?
        .unwrap_or_default();
    let clock_secs = match clock.as_deref() {
        Some(c) => super::common::read_duration(c).map_err(Error::User)?,
        None => Some(ctx.data().service.timers().default_clock_secs),
    };
    let policy = timeout
        .as_deref()
        .map(super::common::read_policy)
        .transpose()
        .map_err(Error::User)?
        .unwrap_or_default();
    let kind = parse_kind(&game).map_err(Error::User)?;
    let options = parse_options(options.as_deref().unwrap_or("")).map_err(Error::User)?;
    let host = Player {
        user: Some(id_i64(ctx.author().id.get())),
        name: super::common::author_name(ctx),
        is_bot: false,
    };
    let place = Place {
        guild: ctx.guild_id().map(|g| id_i64(g.get())),
        channel: Some(id_i64(ctx.channel_id().get())),
        thread: None,
    };
    let service = &ctx.data().service;
    refuse_in_a_games_thread(ctx).await?;
    let invited = match invite.as_deref() {
        Some(typed) => super::invite::invitees(ctx, typed).await?,
        None => Vec::new(),
    };
    let invited_ids: Vec<i64> = invited.iter().filter_map(|p| p.user).collect();
    // The server's own language is read only when the host did not ask for one.
    let server = match (asked, place.guild) {
        (None, Some(guild)) => service.players().server_lang(guild).await?,
        _ => None,
    };
    let plang = super::public_lang(asked, server, ctx.locale(), super::guild_locale_of(ctx));
    let view = service
        .lobbies()
        .open_lobby(
            OpenLobby {
                kind,
                options,
                host,
                max_players: players.and_then(|n| usize::try_from(n).ok()),
                seed: fresh_seed(ctx.id()),
                place,
                clock_secs,
                policy,
                lang: plang,
                rated: rated.unwrap_or(true),
                min_reliable: reliable.filter(|m| *m > 0),
                invited,
                invite_only: open == Some(false),
            },
            ctx.data().service.now(),
        )
        .await?;
    let view = if bot_level != Level::default() || bot_delay.unwrap_or(0) > 0 {
        service
            .lobbies()
            .set_bots(view.game, bot_level, i64::from(bot_delay.unwrap_or(0)))
            .await?;
        service.lobbies().lobby(view.game).await?
    } else {
        view
    };
    // The game's thread opens when it starts (from this message), so lobbies nobody joins
    // leave no threads behind; the message is kept to close the lobby if it stays idle.
    let game = view.game;
    // The invited members are pinged once, by the lobby message itself (only them).
    let view = match send::post_lobby(ctx.http(), ctx.data(), view, &invited_ids).await {
        Ok(posted) => posted,
        Err(e) => {
            // No lobby message, no lobby: nobody could join it, and it would hold one of
            // the host's and the channel's open lobbies until it went idle.
            let now = service.now();
            if let Err(c) = service
                .lobbies()
                .cancel(game, author_id(ctx), false, now)
                .await
            {
                tracing::warn!(%game, error = %c, "could not cancel an unposted lobby");
            }
            return Err(e);
        }
    };
    let answer = Text::new("bot.lobby.opened")
        .arg("game", view.kind.display_name())
        .arg("id", view.game.0)
        .arg("link", send::lobby_link(&view))
        .render(lang_of(ctx));
    send::edit(
        ctx,
        EditInteractionResponse::new().content(content(&answer)),
    )
    .await?;
    if crate::service::has_hidden_hands(kind) {
        send::check_dm(ctx.http(), ctx.data(), &view, author_id(ctx), plang).await;
    }
    Ok(())
}

/// `/play` in a game's thread is refused, naming that game and the channel to open a new one
/// in: a lobby there would mix two games in one thread (and its game could not have a thread
/// of its own: Discord starts none inside a thread). Only threads are looked up.
async fn refuse_in_a_games_thread(ctx: Context<'_>) -> Result<(), Error> {
    let in_thread = match ctx {
        Context::Application(a) => a
            .interaction
            .channel
            .as_ref()
            .is_none_or(|c| super::common::is_thread(c.kind)),
        Context::Prefix(_) => true,
    };
    if !in_thread {
        return Ok(());
    }
    let service = &ctx.data().service;
    let here = id_i64(ctx.channel_id().get());
    let Some(game) = service.find().game_of_thread(here).await? else {
        return Ok(());
    };
    let view = service.lobbies().lobby(game).await?;
    let channel = view
        .channel
        .map(|c| format!("<#{}>", super::id_u64(c)))
        .unwrap_or_default();
    Err(Error::User(
        Text::new("bot.error.play_in_game_thread")
            .arg("game", view.kind.display_name())
            .arg("id", game.0)
            .arg("channel", channel),
    ))
}

/// Play an option (or several, separated by `;`).
#[poise::command(slash_command, rename = "move")]
pub async fn move_(
    ctx: Context<'_>,
    #[autocomplete = "autocomplete_move"] option: String,
    game: Option<i64>,
) -> Result<(), Error> {
    defer(ctx).await?;
    let lang = lang_of(ctx);
    let game = resolve_game(ctx, game).await?;
    let (line, seen) = ids::split_move_value(&option);
    let outputs = ctx
        .data()
        .service
        .moves()
        .play_or_ask(
            PlayLine {
                game,
                actor: crate::service::Actor::User(author_id(ctx)),
                line: line.to_string(),
                seen,
            },
            // The boards go out in the game's language; this is for a game without one.
            lang,
            ctx.data().service.now(),
        )
        .await;
    // Picked from an older list (or sent twice): nothing is played; show the board as it is.
    if let Err(ServiceError::Play(PlayError::Stale { .. })) = &outputs {
        let now = ctx.data().service.boards().show(game, lang).await;
        let now = named(ctx, game, now).await?;
        let text = format!(
            "{}\n{}",
            Text::new("bot.error.move_stale").render(lang),
            send::board_content(&now.board, lang)
        );
        let edit = send::board_edit(&now.board, now.hands, lang).content(content(&text));
        return send::edit(ctx, edit).await;
    }
    let outputs = match named(ctx, game, outputs).await? {
        Chosen::Played(outputs) => *outputs,
        // `/settings confirm_moves`: the line would end the turn; nothing is played yet.
        Chosen::Confirm(ask) => return super::confirm::ask_move(ctx, &ask, lang).await,
    };
    send::deliver(ctx.http(), ctx.data(), &outputs).await?;
    // Only the player sees why the end of their line was refused: it may name their cards.
    let reply = match &outputs.refused {
        Some(why) => why.render(lang),
        None => Text::new("bot.done.played").render(lang),
    };
    send::reply_text(ctx, &reply).await
}

/// Show your hidden hand, only to you.
#[poise::command(slash_command)]
pub async fn hand(ctx: Context<'_>, game: Option<i64>) -> Result<(), Error> {
    defer(ctx).await?;
    let lang = lang_of(ctx);
    let game = resolve_game(ctx, game).await?;
    let reply = send::hand_reply(ctx.data(), game, author_id(ctx), lang).await?;
    send::edit(ctx, reply).await
}

/// Show the current board, only to you.
#[poise::command(slash_command)]
pub async fn board(ctx: Context<'_>, game: Option<i64>) -> Result<(), Error> {
    defer(ctx).await?;
    let lang = lang_of(ctx);
    let game = resolve_game(ctx, game).await?;
    let outputs = ctx.data().service.boards().show(game, lang).await;
    let outputs = named(ctx, game, outputs).await?;
    send::edit(ctx, send::board_edit(&outputs.board, outputs.hands, lang)).await
}

/// Take back your last choice, or ask the others to take back your last turn
#[poise::command(slash_command)]
pub async fn undo(
    ctx: Context<'_>,
    all: Option<bool>,
    request: Option<bool>,
    game: Option<i64>,
) -> Result<(), Error> {
    defer(ctx).await?;
    let lang = lang_of(ctx);
    let game = resolve_game(ctx, game).await?;
    if request.unwrap_or(false) {
        let text = super::takeback::ask(ctx.http(), ctx.data(), game, author_id(ctx), lang).await?;
        return send::reply_text(ctx, &text).await;
    }
    let scope = if all.unwrap_or(false) {
        UndoScope::ToBarrier
    } else {
        UndoScope::Last
    };
    let outputs = ctx
        .data()
        .service
        .moves()
        .undo(
            game,
            crate::service::Actor::User(author_id(ctx)),
            scope,
            lang,
            ctx.data().service.now(),
        )
        .await;
    let outputs = named(ctx, game, outputs).await?;
    send::deliver(ctx.http(), ctx.data(), &outputs).await?;
    send::reply_text(ctx, &Text::new("bot.done.undone").render(lang)).await
}

/// The moves played so far.
#[poise::command(slash_command)]
pub async fn history(ctx: Context<'_>, game: Option<i64>) -> Result<(), Error> {
    defer(ctx).await?;
    let lang = lang_of(ctx);
    let game = resolve_game(ctx, game).await?;
    let lines = ctx
        .data()
        .service
        .records()
        .history(game, Some(author_id(ctx)), lang)
        .await?;
    let text = if lines.is_empty() {
        Text::new("bot.history_empty").render(lang)
    } else {
        last_lines_that_fit(&lines, 1900)
    };
    send::reply_text(ctx, &text).await
}

/// The most recent lines within `max` characters, with "…" when earlier ones are left out.
pub fn last_lines_that_fit(lines: &[String], max: usize) -> String {
    let mut kept: Vec<&str> = Vec::new();
    let mut size = 0;
    for line in lines.iter().rev() {
        let len = line.chars().count() + 1;
        if size + len > max {
            break;
        }
        size += len;
        kept.push(line);
    }
    kept.reverse();
    let mut out = String::new();
    if kept.len() < lines.len() {
        out.push_str("…\n");
    }
    out.push_str(&kept.join("\n"));
    out
}

/// Give up: the game ends (you are asked to confirm first).
#[poise::command(slash_command)]
pub async fn resign(ctx: Context<'_>, game: Option<i64>) -> Result<(), Error> {
    defer(ctx).await?;
    let lang = lang_of(ctx);
    let game = resolve_game(ctx, game).await?;
    let view = ctx
        .data()
        .service
        .moves()
        .check_resign(game, author_id(ctx))
        .await;
    let view = named(ctx, game, view).await?;
    super::confirm::ask(ctx, &view, ids::Confirm::Resign, lang).await
}

// Once a game runs, the host's cancel counts as their resignation in the ratings unless every
// other player agrees (each with /cancel); a seatless moderator's counts for nobody.
/// Cancel a lobby or a game (host, or Manage Threads/Channels; you are asked to confirm first).
#[poise::command(slash_command)]
pub async fn cancel(ctx: Context<'_>, game: Option<i64>) -> Result<(), Error> {
    defer(ctx).await?;
    let lang = lang_of(ctx);
    let game = resolve_game(ctx, game).await?;
    let moderator = moderator_of(ctx, game).await?;
    let check = ctx
        .data()
        .service
        .lobbies()
        .check_cancel(game, author_id(ctx), moderator, ctx.data().service.now())
        .await;
    let check = named(ctx, game, check).await?;
    super::confirm::ask_cancel(ctx, &check, lang).await
}

/// Read the rules of a game.
#[poise::command(slash_command)]
pub async fn rules(
    ctx: Context<'_>,
    #[autocomplete = "autocomplete_topic"] topic: String,
    #[autocomplete = "autocomplete_game"] game: Option<String>,
    share: Option<bool>,
) -> Result<(), Error> {
    // Ephemeral unless the asker shares the page with the channel.
    if share.unwrap_or(false) {
        ctx.defer().await?;
    } else {
        ctx.defer_ephemeral().await?;
    }
    let lang = lang_of(ctx);
    let kind = match game.as_deref() {
        Some(g) => parse_kind(g).map_err(Error::User)?,
        None => ctx
            .data()
            .service
            .find()
            .kind_here(id_i64(ctx.channel_id().get()))
            .await?
            .or_else(|| GameKind::ALL.first().copied())
            .unwrap_or(GameKind::Cortexcape),
    };
    let page = crate::rules::page(kind, &topic, lang).map(str::to_string);
    let text = match page {
        Some(p) => p,
        None => {
            let topics: Vec<String> = crate::rules::topics(kind, lang)
                .into_iter()
                .map(|t| t.id.to_string())
                .collect();
            Text::new("bot.error.no_topic")
                .arg("topic", topic.clone())
                .arg("topics", topics.join(", "))
                .render(lang)
        }
    };
    send::edit(ctx, EditInteractionResponse::new().content(content(&text))).await
}

/// Your games, and where it is your turn.
#[poise::command(slash_command)]
pub async fn games(ctx: Context<'_>) -> Result<(), Error> {
    defer(ctx).await?;
    let lang = lang_of(ctx);
    let lines = ctx
        .data()
        .service
        .find()
        .games_of_user(author_id(ctx), 20)
        .await?;
    let text = if lines.is_empty() {
        Text::new("bot.games.none").render(lang)
    } else {
        let lines: Vec<String> = lines.iter().map(|l| l.text(lang)).collect();
        first_lines_that_fit(&lines, 2000, |n| {
            Text::new("bot.games.more").arg("n", n).render(lang)
        })
    };
    send::reply_text(ctx, &text).await
}

/// The first lines within `max` characters, whole: when they do not all fit, as many as fit
/// with `more(n)` for the `n` left out on a last line.
pub fn first_lines_that_fit(
    lines: &[String],
    max: usize,
    more: impl Fn(usize) -> String,
) -> String {
    let all = lines.join("\n");
    if all.chars().count() <= max {
        return all;
    }
    // Room for the note at its longest (a count only shrinks as lines are kept).
    let room = max.saturating_sub(more(lines.len()).chars().count() + 1);
    let mut out = String::new();
    let mut size = 0;
    let mut kept = 0;
    for line in lines {
        let len = line.chars().count() + usize::from(kept > 0);
        if size + len > room {
            break;
        }
        if kept > 0 {
            out.push('\n');
        }
        out.push_str(line);
        size += len;
        kept += 1;
    }
    if kept > 0 {
        out.push('\n');
    }
    out.push_str(&more(lines.len() - kept));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_parse_as_pairs() {
        let o = parse_options("short=true, lab=red").unwrap();
        assert_eq!(o.get("short").map(String::as_str), Some("true"));
        assert_eq!(o.get("lab").map(String::as_str), Some("red"));
        assert!(parse_options("").unwrap().is_empty());
        assert_eq!(
            parse_options("short").unwrap_err(),
            Text::new("bot.error.options").arg("input", "short")
        );
        // A list value: Portal's seat order, with commas or spaces between its colours.
        let o = parse_options("colours=red,blue, green max_rounds=20").unwrap();
        assert_eq!(o.get("colours").map(String::as_str), Some("red,blue,green"));
        assert_eq!(o.get("max_rounds").map(String::as_str), Some("20"));
        let o = parse_options("colours=Yellow,red").unwrap();
        assert!(crate::engine::GameKind::Portal.setup(&o, 2, 1).is_ok());
    }

    #[test]
    fn games_keep_whole_lines() {
        let lines: Vec<String> = (1..=5).map(|i| format!("{i}. xxxxxxxx")).collect();
        let more = |n: usize| format!("+{n}");
        assert_eq!(first_lines_that_fit(&lines, 100, more), lines.join("\n"));
        assert_eq!(
            first_lines_that_fit(&lines, 30, more),
            "1. xxxxxxxx\n2. xxxxxxxx\n+3"
        );
        assert_eq!(first_lines_that_fit(&lines, 5, more), "+5");
    }

    #[test]
    fn history_keeps_the_latest_lines() {
        let lines: Vec<String> = (1..=5).map(|i| format!("{i}. x")).collect();
        assert_eq!(last_lines_that_fit(&lines, 100), lines.join("\n"));
        assert_eq!(last_lines_that_fit(&lines, 10), "…\n4. x\n5. x");
    }
}
