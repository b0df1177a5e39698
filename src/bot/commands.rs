//! The slash commands. Each one decodes its arguments, calls the service, and sends the
//! outputs; none holds game logic. Names and descriptions come from the catalogs
//! (`assets/i18n/*/bot.toml`), English by default with French localizations.

use poise::serenity_prelude as serenity;
use serenity::EditInteractionResponse;

use super::ids;
use super::layout::content;
use super::send::{self, author_id};
use super::{fresh_seed, id_i64, is_moderator, lang_of, Context, Data, Error};
use crate::ai::Level;
use crate::engine::{GameId, GameKind, GameOptions, PlayError};
use crate::i18n::{lookup, Lang, Text};
use crate::service::{OpenLobby, Place, PlayLine, Player, Reach, ServiceError, UndoScope};

type Command = poise::Command<Data, Error>;

pub fn all() -> Vec<Command> {
    vec![
        play(),
        move_(),
        hand(),
        board(),
        undo(),
        history(),
        resign(),
        cancel(),
        rules(),
        games(),
        super::clocks::clock(),
        super::clocks::settings(),
        super::clocks::replace(),
        super::clocks::kick(),
        super::clocks::stats(),
        super::replay::replay(),
        super::replay::export(),
    ]
}

/// Per-member cooldowns of the commands that write, in seconds: a member cannot flood a server
/// with lobbies or the database with moves. Reading commands have none.
const COOLDOWNS: [(&str, u64); 10] = [
    ("play", 10),
    ("move", 2),
    ("undo", 2),
    ("resign", 3),
    ("cancel", 3),
    ("clock", 3),
    ("settings", 3),
    ("replace", 3),
    ("kick", 3),
    ("stats", 3),
];

/// Gives the writing commands their per-member cooldowns ([`COOLDOWNS`]).
pub fn set_cooldowns(commands: &mut [Command]) {
    for cmd in commands {
        let Some((_, secs)) = COOLDOWNS.iter().find(|(name, _)| *name == cmd.name) else {
            continue;
        };
        let config = poise::CooldownConfig {
            user: Some(std::time::Duration::from_secs(*secs)),
            ..Default::default()
        };
        cmd.cooldown_config = std::sync::RwLock::new(config);
    }
}

/// Sets every command's and parameter's description from the catalogs (English), with French
/// names and descriptions as Discord localizations. Keys: `bot.cmd.<command>.name|desc` and
/// `bot.cmd.<command>.<param>.name|desc`.
pub fn localize(commands: &mut [Command]) {
    for cmd in commands {
        let base = format!("bot.cmd.{}", cmd.name);
        cmd.description = Some(lookup(Lang::En, &format!("{base}.desc")).to_string().into());
        cmd.name_localizations.to_mut().push((
            "fr".into(),
            lookup(Lang::Fr, &format!("{base}.name")).to_string().into(),
        ));
        cmd.description_localizations.to_mut().push((
            "fr".into(),
            lookup(Lang::Fr, &format!("{base}.desc")).to_string().into(),
        ));
        for p in &mut cmd.parameters {
            let key = format!("{base}.{}", p.name);
            p.description = Some(lookup(Lang::En, &format!("{key}.desc")).to_string().into());
            p.name_localizations.to_mut().push((
                "fr".into(),
                lookup(Lang::Fr, &format!("{key}.name")).to_string().into(),
            ));
            p.description_localizations.to_mut().push((
                "fr".into(),
                lookup(Lang::Fr, &format!("{key}.desc")).to_string().into(),
            ));
        }
    }
}

pub(super) async fn defer(ctx: Context<'_>) -> Result<(), Error> {
    ctx.defer_ephemeral().await?;
    Ok(())
}

/// The game a command is about: the one given, else the one played here.
///
/// A game named by id is reached only from its own server, and there only by its players or
/// from its own channel or thread: ids are sequential, and a game in a channel a member cannot
/// see must not be readable by guessing its number.
pub(super) async fn resolve_game(ctx: Context<'_>, game: Option<i64>) -> Result<GameId, Error> {
    let Some(id) = game else {
        return Ok(ctx
            .data()
            .service
            .game_here(id_i64(ctx.channel_id().get()), author_id(ctx))
            .await?);
    };
    let game = GameId(id);
    // Unknown game: the command itself reports it.
    let Ok(view) = ctx.data().service.lobby(game).await else {
        return Ok(game);
    };
    may_reach(ctx, game, &view.reach()).map_err(Error::User)?;
    Ok(game)
}

/// Whether the member may reach `game` (at `reach`) by its id from here.
fn may_reach(ctx: Context<'_>, game: GameId, reach: &Reach) -> Result<(), Text> {
    // A game belongs to its server. Discord only delivers a server's commands from its
    // members, so asking from that server is the membership check: from a DM or another
    // server (a player who left, a stranger) the game is out of reach.
    let here = ctx.guild_id().map(|g| id_i64(g.get()));
    if reach.guild.is_some() && reach.guild != here {
        return Err(Text::new("bot.error.other_server"));
    }
    let author = author_id(ctx);
    if reach.players.contains(&author) || reach.host == Some(author) || in_place(ctx, reach) {
        Ok(())
    } else {
        Err(Text::new("bot.error.not_here").arg("id", game.0))
    }
}

/// Whether the command comes from the game's own channel or thread.
fn in_place(ctx: Context<'_>, reach: &Reach) -> bool {
    let here = Some(id_i64(ctx.channel_id().get()));
    here == reach.channel || here == reach.thread
}

/// Moderator rights for `game`: Manage Threads or Manage Channels as Discord computed them for
/// the channel the command comes from, and only when that is the game's own channel or
/// thread, since a member may moderate one channel and not another. A moderator elsewhere who
/// is not the host is told where to run the command.
pub(super) async fn moderator_of(ctx: Context<'_>, game: GameId) -> Result<bool, Error> {
    let member = match ctx {
        Context::Application(a) => a.interaction.member.as_deref(),
        Context::Prefix(_) => None,
    };
    if !is_moderator(member) {
        return Ok(false);
    }
    let Ok(view) = ctx.data().service.lobby(game).await else {
        return Ok(false);
    };
    if in_place(ctx, &view.reach()) {
        return Ok(true);
    }
    if view.host == Some(author_id(ctx)) {
        // The host's own rights do not depend on the channel.
        return Ok(false);
    }
    let place = view.thread.or(view.channel).map(super::id_u64).unwrap_or(0);
    Err(Error::User(
        Text::new("bot.error.moderate_there").arg("place", format!("<#{place}>")),
    ))
}

/// A refusal about `game`, kept with its players' names so seats read as names.
pub(super) async fn named<T>(
    ctx: Context<'_>,
    game: GameId,
    result: Result<T, crate::service::ServiceError>,
) -> Result<T, Error> {
    match result {
        Ok(v) => Ok(v),
        Err(e) => {
            let names = ctx
                .data()
                .service
                .lobby(game)
                .await
                .map(|v| v.names())
                .unwrap_or_default();
            Err(Error::InGame(e, names))
        }
    }
}

/// A game named by a user, or a friendly refusal listing the games.
pub(super) fn parse_kind(g: &str) -> Result<GameKind, Text> {
    GameKind::parse(g).ok_or_else(|| {
        let known: Vec<&str> = GameKind::ALL.iter().map(|k| k.id()).collect();
        Text::new("bot.error.unknown_game")
            .arg("game", g.to_string())
            .arg("known", known.join(", "))
    })
}

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

/// An autocomplete answer. Discord shows at most 25 suggestions and refuses an answer with
/// more; poise 0.7 sends what it is given, so the cap is ours.
pub(super) fn suggest<C: Into<serenity::AutocompleteChoice>>(
    choices: Vec<C>,
) -> serenity::CreateAutocompleteResponse {
    serenity::CreateAutocompleteResponse::new()
        .set_choices(choices.into_iter().take(25).map(Into::into).collect())
}

/// Each game by its name and how many play it (the value sent is its id).
pub(super) async fn autocomplete_game(
    ctx: Context<'_>,
    partial: &str,
) -> serenity::CreateAutocompleteResponse {
    let p = partial.to_lowercase();
    let lang = lang_of(ctx);
    suggest(
        GameKind::ALL
            .iter()
            .filter(|k| k.id().contains(&p) || k.display_name().to_lowercase().contains(&p))
            .map(|k| {
                let (min, max) = k.seat_range();
                let name = Text::new("bot.play.game_choice")
                    .arg("game", k.display_name())
                    .arg("min", min)
                    .arg("max", max)
                    .render(lang);
                serenity::AutocompleteChoice::new(name, k.id())
            })
            .collect(),
    )
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

/// Another option already filled in while one is being completed (`game` in `/move`).
fn filled<'a>(ctx: Context<'a>, name: &str) -> Option<&'a serenity::ResolvedValue<'a>> {
    match ctx {
        Context::Application(a) => a.args.iter().find(|o| o.name == name).map(|o| &o.value),
        Context::Prefix(_) => None,
    }
}

/// The options of the user's decision; each value carries the prompt's version (see
/// `ids::move_value`).
async fn autocomplete_move(
    ctx: Context<'_>,
    partial: &str,
) -> serenity::CreateAutocompleteResponse {
    let service = &ctx.data().service;
    let user = author_id(ctx);
    // The same reach as the command itself: from its server, by its players or in its place.
    // What one answer needs, per keystroke: which game is here (unless named), then that game
    // read once, with who may reach it.
    let game = match filled(ctx, "game") {
        Some(serenity::ResolvedValue::Integer(id)) => GameId(*id),
        _ => match service
            .game_here(id_i64(ctx.channel_id().get()), user)
            .await
        {
            Ok(game) => game,
            Err(_) => return suggest(Vec::<String>::new()),
        },
    };
    let Ok(choices) = service.choices(game, user, partial).await else {
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
        None => ctx
            .data()
            .service
            .kind_here(id_i64(ctx.channel_id().get()))
            .await
            .ok()
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

/// Refuses `/play` at once, privately and before anything is stored, where Discord says the bot
/// lacks a permission it needs to post boards here (the interaction's `app_permissions`, which
/// Discord computes for this channel): the lobby would open and its boards never arrive.
pub(super) fn bot_may_host_here(ctx: Context<'_>) -> Result<(), Text> {
    use serenity::Permissions as P;
    let Context::Application(a) = ctx else {
        return Ok(());
    };
    let Some(have) = a.interaction.app_permissions else {
        return Ok(());
    };
    let in_thread = a.interaction.channel.as_ref().is_some_and(|c| {
        matches!(
            c.kind,
            serenity::ChannelType::PublicThread | serenity::ChannelType::PrivateThread
        )
    });
    let mut needed = vec![
        (P::VIEW_CHANNEL, "view_channel"),
        (P::ATTACH_FILES, "attach_files"),
    ];
    if in_thread {
        needed.push((P::SEND_MESSAGES_IN_THREADS, "send_in_threads"));
    } else {
        needed.push((P::SEND_MESSAGES, "send_messages"));
        // Boards go to the game's thread when the bot may open one.
        if have.contains(P::CREATE_PUBLIC_THREADS) {
            needed.push((P::SEND_MESSAGES_IN_THREADS, "send_in_threads"));
        }
    }
    let lang = lang_of(ctx);
    let missing: Vec<String> = needed
        .iter()
        .filter(|(p, _)| !have.contains(*p))
        .map(|(_, key)| Text::new(format!("bot.perm.{key}")).render(lang))
        .collect();
    if missing.is_empty() {
        return Ok(());
    }
    Err(Text::new("bot.error.bot_lacks").arg("perms", missing.join(", ")))
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
    #[autocomplete = "super::clocks::autocomplete_clock"] clock: Option<String>,
    #[autocomplete = "super::clocks::autocomplete_policy"] timeout: Option<String>,
    #[autocomplete = "super::clocks::autocomplete_level"] bots: Option<String>,
    #[min = 0]
    #[max = 60]
    bot_delay: Option<u32>,
    #[autocomplete = "super::clocks::autocomplete_lang"] lang: Option<String>,
    rated: Option<bool>,
) -> Result<(), Error> {
    bot_may_host_here(ctx).map_err(Error::User)?;
    let asked = lang
        .as_deref()
        .map(super::clocks::read_lang)
        .transpose()
        .map_err(Error::User)?
        .flatten();
    let bot_level = bots
        .as_deref()
        .map(super::clocks::read_level)
        .transpose()
        .map_err(Error::User)?
        .unwrap_or_default();
    let clock_secs = match clock.as_deref() {
        Some(c) => super::clocks::read_duration(c).map_err(Error::User)?,
        None => Some(ctx.data().service.timers().default_clock_secs),
    };
    let policy = timeout
        .as_deref()
        .map(super::clocks::read_policy)
        .transpose()
        .map_err(Error::User)?
        .unwrap_or_default();
    let kind = parse_kind(&game).map_err(Error::User)?;
    let options = parse_options(options.as_deref().unwrap_or("")).map_err(Error::User)?;
    let author = ctx.author();
    let host = Player {
        user: Some(id_i64(author.id.get())),
        name: author
            .global_name
            .clone()
            .unwrap_or_else(|| author.name.clone()),
        is_bot: false,
    };
    let place = Place {
        guild: ctx.guild_id().map(|g| id_i64(g.get())),
        channel: Some(id_i64(ctx.channel_id().get())),
        thread: None,
    };
    // Options read: acknowledged publicly (the lobby will fill that answer in) before any
    // database work.
    if !super::begin(ctx, false).await? {
        return Ok(());
    }
    let service = &ctx.data().service;
    // The server's own language is read only when the host did not ask for one.
    let server = match (asked, place.guild) {
        (None, Some(guild)) => service.server_lang(guild).await?,
        _ => None,
    };
    let plang = super::public_lang(asked, server, ctx.locale(), super::guild_locale_of(ctx));
    let view = service
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
            },
            ctx.data().service.now(),
        )
        .await?;
    let view = if bot_level != Level::default() || bot_delay.unwrap_or(0) > 0 {
        service
            .set_bots(view.game, bot_level, i64::from(bot_delay.unwrap_or(0)))
            .await?;
        service.lobby(view.game).await?
    } else {
        view
    };
    let lobby = EditInteractionResponse::new()
        .content(content(&view.text(plang)))
        .allowed_mentions(super::mentions::nobody())
        .components(send::lobby_rows(&view, plang));
    // The game's thread opens when it starts (from this message), so lobbies nobody joins
    // leave no threads behind; the message is kept to close the lobby if it stays idle.
    let msg = send::edit_public(ctx, lobby).await?;
    service
        .set_lobby_message(view.game, id_i64(msg.id.get()))
        .await?;
    if crate::service::Service::has_hidden_hands(kind) {
        let view = service.lobby(view.game).await?;
        send::check_dm(ctx.http(), ctx.data(), &view, author_id(ctx), plang).await;
    }
    Ok(())
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
        .play(
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
        let now = ctx.data().service.show(game, lang).await;
        let now = named(ctx, game, now).await?;
        let text = format!(
            "{}\n{}",
            Text::new("bot.error.move_stale").render(lang),
            send::board_content(&now.board, lang)
        );
        let edit = send::board_edit(&now.board, now.hands, lang).content(content(&text));
        return send::edit(ctx, edit).await;
    }
    let outputs = named(ctx, game, outputs).await?;
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
    let outputs = ctx.data().service.show(game, lang).await;
    let outputs = named(ctx, game, outputs).await?;
    send::edit(ctx, send::board_edit(&outputs.board, outputs.hands, lang)).await
}

/// Take back your last choice (or all of this turn's).
#[poise::command(slash_command)]
pub async fn undo(ctx: Context<'_>, all: Option<bool>, game: Option<i64>) -> Result<(), Error> {
    defer(ctx).await?;
    let lang = lang_of(ctx);
    let game = resolve_game(ctx, game).await?;
    let scope = if all.unwrap_or(false) {
        UndoScope::ToBarrier
    } else {
        UndoScope::Last
    };
    let outputs = ctx
        .data()
        .service
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
    let view = ctx.data().service.check_resign(game, author_id(ctx)).await;
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
    let lines = ctx.data().service.games_of_user(author_id(ctx), 20).await?;
    let text = if lines.is_empty() {
        Text::new("bot.games.none").render(lang)
    } else {
        lines
            .iter()
            .map(|l| l.text(lang))
            .collect::<Vec<_>>()
            .join("\n")
    };
    send::reply_text(ctx, &text).await
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::borrow::Cow;

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
    fn history_keeps_the_latest_lines() {
        let lines: Vec<String> = (1..=5).map(|i| format!("{i}. x")).collect();
        assert_eq!(last_lines_that_fit(&lines, 100), lines.join("\n"));
        assert_eq!(last_lines_that_fit(&lines, 10), "…\n4. x\n5. x");
    }

    /// Discord refuses a command whose names are not lower-case words of at most 32 characters
    /// or whose descriptions are empty or longer than 100.
    #[test]
    fn every_command_is_localized_within_discord_limits() {
        let mut cmds = all();
        localize(&mut cmds);
        let name_ok = |n: &str| {
            !n.is_empty()
                && n.chars().count() <= 32
                && n.chars()
                    .all(|c| c == '-' || c == '_' || c.is_alphanumeric())
                && n.to_lowercase() == n
        };
        let desc_ok = |d: &str| !d.is_empty() && d.chars().count() <= 100 && !d.starts_with("bot.");
        let fr = |l: &[(Cow<'static, str>, Cow<'static, str>)]| {
            let mut fr = l.iter().filter(|(lang, _)| lang == "fr");
            let one = fr.next().map(|(_, v)| v.to_string()).unwrap_or_default();
            assert!(fr.next().is_none(), "one French localization");
            one
        };
        for c in &cmds {
            assert!(name_ok(&c.name), "{}", c.name);
            let name = fr(&c.name_localizations);
            assert!(name_ok(&name), "{name}");
            assert!(
                desc_ok(c.description.as_deref().unwrap_or("")),
                "{}",
                c.name
            );
            assert!(desc_ok(&fr(&c.description_localizations)), "{}", c.name);
            for p in &c.parameters {
                assert!(name_ok(&fr(&p.name_localizations)), "{} {}", c.name, p.name);
                assert!(
                    desc_ok(p.description.as_deref().unwrap_or("")),
                    "{} {}",
                    c.name,
                    p.name
                );
                assert!(
                    desc_ok(&fr(&p.description_localizations)),
                    "{} {}",
                    c.name,
                    p.name
                );
            }
        }
        // What is sent to Discord at registration carries the French names.
        let json = serde_json::to_value(poise::builtins::create_application_commands(&cmds))
            .unwrap_or_default();
        assert_eq!(json[0]["name"], "play");
        assert_eq!(json[0]["name_localizations"]["fr"], "jouer");
        assert_eq!(json[0]["options"][0]["name_localizations"]["fr"], "jeu");
        assert_eq!(json[0]["options"][0]["autocomplete"], true);
        assert_eq!(json[8]["name_localizations"]["fr"], "règles");
        let names: Vec<&str> = cmds.iter().map(|c| c.name.as_ref()).collect();
        assert_eq!(
            names,
            [
                "play", "move", "hand", "board", "undo", "history", "resign", "cancel", "rules",
                "games", "clock", "settings", "replace", "kick", "stats", "replay", "export"
            ]
        );
    }
}
