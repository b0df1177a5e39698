//! The commands of games over days: `/clock`, `/settings`, `/replace`, `/kick`, `/stats`.
//! Each decodes its arguments, calls the service and sends the notices it returns.

use poise::serenity_prelude as serenity;

use super::common::{
    autocomplete_clock, autocomplete_lang, bot_may_host_here, defer, moderator_of, named,
    parse_kind, read_duration, read_lang, resolve_game, suggest,
};
use super::send::{self, author_id};
use super::{id_i64, lang_of, Context, Error};
use crate::clock::{hhmm, Date, Quiet, Zone};
use crate::i18n::Text;
use crate::service::{
    parse_reminders, ClockAction, GamePings, LobbyError, NewPlace, Newcomer, ReminderChoice,
    Replaced, SettingsChange,
};

const CLOCK_ACTIONS: [&str; 4] = ["pause", "resume", "extend", "change"];

async fn autocomplete_action(
    _ctx: Context<'_>,
    partial: &str,
) -> serenity::CreateAutocompleteResponse {
    starting_with(&CLOCK_ACTIONS, partial)
}

/// The words of `words` that start with what was typed so far.
fn starting_with(words: &[&str], partial: &str) -> serenity::CreateAutocompleteResponse {
    let p = partial.trim().to_lowercase();
    suggest(
        words
            .iter()
            .filter(|a| a.starts_with(&p))
            .map(|a| (*a).to_string())
            .collect(),
    )
}

async fn autocomplete_zone(
    _ctx: Context<'_>,
    partial: &str,
) -> serenity::CreateAutocompleteResponse {
    suggest(
        Zone::search(partial, 25)
            .into_iter()
            .map(str::to_string)
            .collect(),
    )
}

/// Pause, resume, extend or change the clock of a game (host or moderators).
#[poise::command(slash_command, guild_only)]
pub async fn clock(
    ctx: Context<'_>,
    #[autocomplete = "autocomplete_action"] action: String,
    #[autocomplete = "autocomplete_clock"] time: Option<String>,
    game: Option<i64>,
) -> Result<(), Error> {
    defer(ctx).await?;
    let lang = lang_of(ctx);
    let game = resolve_game(ctx, game).await?;
    let time = time
        .as_deref()
        .map(read_duration)
        .transpose()
        .map_err(Error::User)?;
    let need_time = || Error::User(Text::new("bot.error.clock_time"));
    let action = match action.trim().to_lowercase().as_str() {
        "pause" => ClockAction::Pause,
        "resume" => ClockAction::Resume,
        "extend" => ClockAction::Extend(time.flatten().ok_or_else(need_time)?),
        "change" => ClockAction::Change(time.ok_or_else(need_time)?),
        other => {
            return Err(Error::User(
                Text::new("bot.error.clock_action")
                    .arg("input", other.to_string())
                    .arg("known", CLOCK_ACTIONS.join(", ")),
            ))
        }
    };
    let service = &ctx.data().service;
    if action == ClockAction::Resume && service.lobbies().lobby(game).await.is_ok_and(|v| v.lost) {
        return resume_here(ctx, game).await;
    }
    let notice = service
        .clocks()
        .clock(
            game,
            author_id(ctx),
            moderator_of(ctx, game).await?,
            action,
            service.now(),
        )
        .await;
    let notice = named(ctx, game, notice).await?;
    send::deliver_notices(ctx.http(), ctx.data(), vec![notice]).await;
    send::reply_text(ctx, &Text::new("bot.done.clock").render(lang)).await
}

/// `/clock resume` for a game whose place was lost (a locked thread, the bot's rights taken
/// away, a deleted channel): the host or a moderator gives it this place. In a thread the game
/// goes on in that thread; in a channel, in a new thread of it (or in the channel itself when
/// no thread can be opened). The board is posted there first: a place that refuses it changes
/// nothing, and the game stays paused.
async fn resume_here(ctx: Context<'_>, game: crate::engine::GameId) -> Result<(), Error> {
    let lang = lang_of(ctx);
    let data = ctx.data();
    let service = &data.service;
    let user = author_id(ctx);
    let is_moderator = moderator_of(ctx, game).await?;
    named(
        ctx,
        game,
        service
            .clocks()
            .may_resume_in(game, user, is_moderator)
            .await,
    )
    .await?;
    bot_may_host_here(ctx).map_err(Error::User)?;
    let view = service.lobbies().lobby(game).await?;
    let plang = service.clocks().game_lang(game).await?;
    let here = ctx.channel_id();
    let parent = match ctx {
        Context::Application(a) => a.interaction.channel.as_ref().and_then(|c| {
            matches!(
                c.kind,
                serenity::ChannelType::PublicThread | serenity::ChannelType::PrivateThread
            )
            .then_some(c.parent_id)
            .flatten()
        }),
        Context::Prefix(_) => None,
    };
    let outputs = service.boards().show_to_post(game, plang).await?;
    let http = ctx.http();
    // In a thread: that thread, unless it refuses (a moderator's lock): then a new thread of
    // its channel. In a channel: a new thread of it.
    let mut posted = None;
    if let Some(parent) = parent {
        match send::post_board(
            http,
            &data.pace,
            here,
            &outputs,
            plang,
            outputs.board.silent,
        )
        .await
        {
            Ok(msg) => posted = Some((parent, Some(here), msg)),
            Err(e) => {
                tracing::info!(%game, error = %e, "the thread refused the board; opening a new one")
            }
        }
    }
    if posted.is_none() {
        let channel = parent.unwrap_or(here);
        let place = send::open_game_thread(http, data, &view, channel, plang).await;
        let thread = place.filter(|t| *t != channel);
        let target = thread.unwrap_or(channel);
        let sent = send::post_board(
            http,
            &data.pace,
            target,
            &outputs,
            plang,
            outputs.board.silent,
        )
        .await;
        match sent {
            Ok(msg) => posted = Some((channel, thread, msg)),
            Err(e) => {
                tracing::info!(%game, error = %e, "the place asked for refused the board");
                return Err(Error::User(Text::new("bot.error.place_refused")));
            }
        }
    }
    let Some((channel, thread, msg)) = posted else {
        return Err(Error::User(Text::new("bot.error.place_refused")));
    };
    let notice = service
        .clocks()
        .resume_in(
            game,
            user,
            is_moderator,
            NewPlace {
                channel: id_i64(channel.get()),
                thread: thread.map(|t| id_i64(t.get())),
                board: id_i64(msg.id.get()),
            },
            service.now(),
        )
        .await;
    let notice = named(ctx, game, notice).await?;
    // Its version is out (a move may have been played while it was paused).
    send::record_posted(http, data, game, outputs.board.version, None, None).await;
    // The new board is the live one now; the board it replaces, in the old place, loses its
    // buttons there (unless that place is gone, or it is the same message).
    let old_place = view.thread.or(view.channel);
    if let (Some(place), Some(old)) = (old_place, view.board_message) {
        if old != id_i64(msg.id.get()) {
            let place = serenity::ChannelId::new(super::id_u64(place).max(1));
            send::retire_board(http, &data.pace, place, old).await;
        }
    }
    send::deliver_notices(http, data, vec![notice]).await;
    send::reply_text(ctx, &Text::new("bot.done.resumed_here").render(lang)).await
}

/// Your time zone, quiet hours, vacation, daily digest and notifications.
// And, for members who can manage the server, the server's language (`server_language`).
#[poise::command(slash_command)]
// Each slash-command option is a parameter of the function (poise), so the count is Discord's.
#[allow(clippy::too_many_arguments)]
pub async fn settings(
    ctx: Context<'_>,
    #[autocomplete = "autocomplete_zone"] timezone: Option<String>,
    quiet_hours: Option<String>,
    vacation: Option<String>,
    digest: Option<bool>,
    pings: Option<bool>,
    hand_dms: Option<bool>,
    confirm_moves: Option<bool>,
    reminders: Option<String>,
    #[autocomplete = "autocomplete_game_pings"] game_pings: Option<String>,
    game: Option<i64>,
    #[autocomplete = "autocomplete_lang"] server_language: Option<String>,
) -> Result<(), Error> {
    defer(ctx).await?;
    let lang = lang_of(ctx);
    let server_language = server_language
        .as_deref()
        .map(read_lang)
        .transpose()
        .map_err(Error::User)?;
    // Everything is read and checked before anything changes: bad input changes nothing.
    let reminders = reminders
        .as_deref()
        .map(parse_reminders)
        .transpose()
        .map_err(|e| Error::User(e.text()))?;
    let game_pings = game_pings
        .as_deref()
        .map(|p| {
            GamePings::parse(p)
                .ok_or_else(|| LobbyError::UnknownPings(p.chars().take(40).collect()).text())
        })
        .transpose()
        .map_err(Error::User)?;
    let pings_game = match (game_pings, game) {
        (None, None) => None,
        _ => Some(resolve_game(ctx, game).await?),
    };
    if let (Some(g), Some(_)) = (pings_game, game_pings) {
        let may = ctx
            .data()
            .service
            .players()
            .may_set_game_pings(g, author_id(ctx))
            .await;
        named(ctx, g, may).await?;
    }
    let off = |s: &str| {
        matches!(
            s.trim().to_lowercase().as_str(),
            "off" | "none" | "non" | "aucune"
        )
    };
    let quiet = match quiet_hours.as_deref() {
        None => None,
        Some(s) if off(s) => Some(None),
        Some(s) => Some(Some(Quiet::parse(s).ok_or_else(|| {
            Error::User(Text::new("bot.error.quiet").arg("input", s.to_string()))
        })?)),
    };
    let vacation = match vacation.as_deref() {
        None => None,
        Some(s) if off(s) => Some(None),
        Some(s) => Some(Some(Date::parse(s).ok_or_else(|| {
            Error::User(Text::new("bot.error.date").arg("input", s.to_string()))
        })?)),
    };
    let change = SettingsChange {
        timezone,
        quiet,
        vacation,
        digest,
        pings,
        hand_dms,
        confirm_moves,
        reminders,
        locale: ctx.locale().map(str::to_string),
    };
    let service = &ctx.data().service;
    let guild = ctx.guild_id().map(|g| id_i64(g.get()));
    // The server's language first: a member who may not choose it is refused before anything
    // of theirs changes.
    if let Some(chosen) = server_language {
        let member = match ctx {
            Context::Application(a) => a.interaction.member.as_deref(),
            Context::Prefix(_) => None,
        };
        service
            .players()
            .set_server_lang(guild, chosen, super::manages_server(member), service.now())
            .await?;
    }
    let (s, notices) = service
        .players()
        .update_settings(author_id(ctx), change, service.now())
        .await?;
    send::deliver_notices(ctx.http(), ctx.data(), notices).await;
    let game_line = match pings_game {
        Some(g) => {
            let players = service.players();
            let mode = match game_pings {
                Some(mode) => {
                    players
                        .set_game_pings(g, author_id(ctx), mode, service.now())
                        .await
                }
                None => players.game_pings(g, author_id(ctx)).await,
            };
            let mode = named(ctx, g, mode).await?;
            Some(
                Text::new("bot.settings.game_pings")
                    .arg("id", g.0)
                    .arg(
                        "mode",
                        Text::new(format!("bot.settings.pings_{}", mode.as_str())),
                    )
                    .render(lang),
            )
        }
        None => None,
    };
    let none = Text::new("bot.settings.none").render(lang);
    let quiet = match (s.quiet_start, s.quiet_end) {
        (Some(a), Some(b)) => format!("{}-{}", hhmm(a), hhmm(b)),
        _ => none.clone(),
    };
    let zone = Zone::of(s.timezone.as_deref());
    let away = s
        .vacation_until
        .filter(|v| *v > service.now())
        .map_or(none, |v| zone.date(v).to_string());
    let on_off = |on: bool| {
        Text::new(if on {
            "bot.settings.on"
        } else {
            "bot.settings.off"
        })
    };
    let mut text = Text::new("bot.settings.summary")
        .arg("zone", s.timezone.unwrap_or_else(|| "UTC".into()))
        .arg("quiet", quiet)
        .arg("vacation", away)
        .arg("digest", on_off(s.digest))
        .arg("pings", on_off(s.pings))
        .arg("hand_dms", on_off(s.hand_dms))
        .arg("confirm_moves", on_off(s.confirm_moves))
        .arg("reminders", reminders_text(s.reminders.as_deref()))
        .render(lang);
    // The server's language, where there is a server.
    if let Some(guild) = guild {
        let chosen = service.players().server_lang(guild).await?;
        let language = match chosen {
            Some(l) => Text::new(format!("core.lang.{}", l.code())),
            None => Text::new("bot.settings.server_auto"),
        };
        text.push('\n');
        text.push_str(
            &Text::new("bot.settings.server_lang")
                .arg("language", language)
                .render(lang),
        );
    }
    // What "off" means, said where it is chosen.
    for (on, key) in [
        (s.pings, "bot.settings.pings_off"),
        (s.hand_dms, "bot.settings.hand_dms_off"),
    ] {
        if !on {
            text.push('\n');
            text.push_str(&Text::new(key).render(lang));
        }
    }
    if s.confirm_moves {
        text.push('\n');
        text.push_str(&Text::new("bot.settings.confirm_moves_on").render(lang));
    }
    if let Some(line) = game_line {
        text.push('\n');
        text.push_str(&line);
    }
    send::reply_text(ctx, &text).await
}

/// A member's reminder points in words: the server's, none, or at which shares of the time left.
fn reminders_text(stored: Option<&[u8]>) -> Text {
    match ReminderChoice::of(stored) {
        ReminderChoice::Server => Text::new("bot.settings.reminders_server"),
        ReminderChoice::Off => Text::new("bot.settings.reminders_off"),
        ReminderChoice::At(points) => Text::new("bot.settings.reminders_at").arg(
            "points",
            points
                .iter()
                .map(|p| format!("{p}%"))
                .collect::<Vec<_>>()
                .join(", "),
        ),
    }
}

async fn autocomplete_game_pings(
    _ctx: Context<'_>,
    partial: &str,
) -> serenity::CreateAutocompleteResponse {
    starting_with(&GamePings::ALL.map(GamePings::as_str), partial)
}

/// Give a seat to another player or to a bot (host or moderators).
#[poise::command(slash_command, guild_only)]
pub async fn replace(
    ctx: Context<'_>,
    #[min = 1]
    #[max = 25]
    seat: u32,
    user: Option<serenity::User>,
    bot: Option<bool>,
    game: Option<i64>,
) -> Result<(), Error> {
    defer(ctx).await?;
    let lang = lang_of(ctx);
    let game = resolve_game(ctx, game).await?;
    let newcomer = match (user, bot.unwrap_or(false)) {
        (Some(u), false) if !u.bot => Newcomer::User {
            id: id_i64(u.id.get()),
            name: u.global_name.clone().unwrap_or_else(|| u.name.clone()),
        },
        (None, true) => Newcomer::Bot,
        _ => return Err(Error::User(Text::new("bot.error.replace_who"))),
    };
    let service = &ctx.data().service;
    // A player agreeing to a request is no moderator: only the host's or a moderator's own
    // rights are checked where they count.
    let is_moderator = match moderator_of(ctx, game).await {
        Ok(m) => m,
        Err(Error::User(_)) => false,
        Err(e) => return Err(e),
    };
    let done = service
        .players()
        .replace_asking(
            game,
            author_id(ctx),
            is_moderator,
            usize::try_from(seat).unwrap_or(usize::MAX),
            newcomer,
            service.now(),
        )
        .await;
    let (done, notices) = named(ctx, game, done).await?;
    send::deliver_notices(ctx.http(), ctx.data(), notices).await;
    let key = match done {
        Replaced::Done => "bot.done.replaced",
        Replaced::Asked => "bot.done.replace_asked",
        Replaced::Agreed => "bot.done.replace_agreed",
    };
    send::reply_text(ctx, &Text::new(key).render(lang)).await
}

/// Open a player's seat for someone else (host or moderators).
#[poise::command(slash_command, guild_only)]
pub async fn kick(
    ctx: Context<'_>,
    #[min = 1]
    #[max = 25]
    seat: u32,
    game: Option<i64>,
) -> Result<(), Error> {
    defer(ctx).await?;
    let lang = lang_of(ctx);
    let game = resolve_game(ctx, game).await?;
    let service = &ctx.data().service;
    let notices = service
        .players()
        .kick(
            game,
            author_id(ctx),
            moderator_of(ctx, game).await?,
            usize::try_from(seat).unwrap_or(usize::MAX),
            service.now(),
        )
        .await;
    let notices = named(ctx, game, notices).await?;
    send::deliver_notices(ctx.http(), ctx.data(), notices).await;
    send::reply_text(ctx, &Text::new("bot.done.kicked").render(lang)).await
}

/// Leaderboards of this server (ratings, games finished, turn times), or one member's ratings.
#[poise::command(slash_command, guild_only)]
pub async fn stats(
    ctx: Context<'_>,
    #[autocomplete = "super::common::autocomplete_game"] game: Option<String>,
    user: Option<serenity::User>,
) -> Result<(), Error> {
    defer(ctx).await?;
    let lang = lang_of(ctx);
    let kind = game
        .as_deref()
        .map(parse_kind)
        .transpose()
        .map_err(Error::User)?;
    let guild = ctx.guild_id().map(|g| id_i64(g.get()));
    let service = &ctx.data().service;
    let text = match user {
        Some(u) => {
            let name = u.global_name.clone().unwrap_or_else(|| u.name.clone());
            let records = service.records();
            let user = id_i64(u.id.get());
            let ratings = records.profile_text(guild, user, &name, lang).await?;
            // Their reliability: the same record whatever the server (a member's conduct
            // follows them), and nothing hidden in it.
            let conduct = service.players().record(user, service.now()).await?;
            let ratings = format!("{ratings}\n{}", crate::service::record_text(&conduct, lang));
            let profile = records
                .profile(guild, user, &name, author_id(ctx), lang)
                .await?;
            let text = format!("{ratings}\n{}", profile.lines.join("\n"));
            let card = serenity::CreateAttachment::bytes(profile.card, "stats.png");
            return send::edit(
                ctx,
                serenity::EditInteractionResponse::new()
                    .content(super::layout::content(&text))
                    .new_attachment(card),
            )
            .await;
        }
        None => {
            service
                .records()
                .stats_board(guild, kind, Some(author_id(ctx)), lang)
                .await?
        }
    };
    send::reply_text(ctx, &text).await
}
