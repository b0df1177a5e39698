//! What the command and click files share: reaching a game from a command (by id or by
//! place, with who may), moderator rights, refusals kept with names, the arguments every
//! command reads (game, clock, timeout policy, bot level, language) and their autocomplete,
//! and editing a click's message. The other files of `bot/` import from here and never from
//! each other in a cycle (`tests/suite/tidy.rs` checks).

use poise::serenity_prelude as serenity;

use serenity::{ComponentInteraction, EditInteractionResponse};

use super::retry::editing_as;
use super::send::author_id;
use super::{id_i64, is_moderator, lang_of, Context, Error};
use crate::ai::Level;
use crate::clock::parse_duration;
use crate::engine::{GameId, GameKind};
use crate::i18n::{Lang, Text};
use crate::model::TimeoutPolicy;
use crate::service::Reach;

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
            .find()
            .game_here(id_i64(ctx.channel_id().get()), author_id(ctx))
            .await?);
    };
    let game = GameId(id);
    // Unknown game: the command itself reports it.
    let Ok(view) = ctx.data().service.lobbies().lobby(game).await else {
        return Ok(game);
    };
    may_reach(ctx, game, &view.reach()).map_err(Error::User)?;
    Ok(game)
}

/// Whether the member may reach `game` (at `reach`) by its id from here.
pub(super) fn may_reach(ctx: Context<'_>, game: GameId, reach: &Reach) -> Result<(), Text> {
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
    let Ok(view) = ctx.data().service.lobbies().lobby(game).await else {
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
                .lobbies()
                .lobby(game)
                .await
                .map(|v| v.names())
                .unwrap_or_default();
            Err(Error::InGame(e, names))
        }
    }
}

/// The name a member shows under (their display name, else their user name): how a seat
/// they take is called.
pub(super) fn author_name(ctx: Context<'_>) -> String {
    user_name(ctx.author())
}

/// A user's display name (their global name, else their username), as a seat is named.
pub(super) fn user_name(user: &serenity::User) -> String {
    user.global_name
        .clone()
        .unwrap_or_else(|| user.name.clone())
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

/// An autocomplete answer. Discord shows at most 25 suggestions and refuses an answer with
/// more; poise 0.7 sends what it is given, so the cap is ours.
pub(super) fn suggest<C: Into<serenity::AutocompleteChoice>>(
    choices: Vec<C>,
) -> serenity::CreateAutocompleteResponse {
    serenity::CreateAutocompleteResponse::new()
        .set_choices(choices.into_iter().take(25).map(Into::into).collect())
}

/// Discord shows an autocomplete answer only if it comes within 3 s: one that needs the
/// database answers no choice once this has passed (the next keystroke asks again).
pub(super) const AUTOCOMPLETE_WAIT: std::time::Duration = std::time::Duration::from_secs(2);

/// `choices`, or no choice if they take longer than [`AUTOCOMPLETE_WAIT`].
pub(super) async fn in_time(
    choices: impl std::future::Future<Output = serenity::CreateAutocompleteResponse>,
) -> serenity::CreateAutocompleteResponse {
    tokio::time::timeout(AUTOCOMPLETE_WAIT, choices)
        .await
        .unwrap_or_else(|_| suggest(Vec::<String>::new()))
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

/// Another option already filled in while one is being completed (`game` in `/move`).
pub(super) fn filled<'a>(ctx: Context<'a>, name: &str) -> Option<&'a serenity::ResolvedValue<'a>> {
    match ctx {
        Context::Application(a) => a.args.iter().find(|o| o.name == name).map(|o| &o.value),
        Context::Prefix(_) => None,
    }
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

/// A duration typed by a user: `24h`, `3d`, `none`.
pub fn read_duration(s: &str) -> Result<Option<i64>, Text> {
    parse_duration(s).ok_or_else(|| Text::new("bot.error.duration").arg("input", s.to_string()))
}

pub fn read_policy(s: &str) -> Result<TimeoutPolicy, Text> {
    TimeoutPolicy::parse(s).ok_or_else(|| {
        Text::new("bot.error.policy")
            .arg("input", s.to_string())
            .arg("known", "skip, bot, open")
    })
}

/// A bot level typed at `/play`.
pub fn read_level(s: &str) -> Result<Level, Text> {
    Level::parse(s).ok_or_else(|| {
        Text::new("bot.error.level")
            .arg("input", s.to_string())
            .arg("known", "easy, normal, hard")
    })
}

/// A language typed at `/play lang:` or `/settings server_language:`: `Some` a language,
/// `None` for `auto` (no choice: the server's, else the host's).
pub fn read_lang(s: &str) -> Result<Option<Lang>, Text> {
    match s.trim().to_lowercase().as_str() {
        "en" | "english" | "anglais" => Ok(Some(Lang::En)),
        "fr" | "french" | "français" | "francais" => Ok(Some(Lang::Fr)),
        "auto" | "off" | "none" | "aucune" => Ok(None),
        _ => Err(Text::new("bot.error.language")
            .arg("input", s.to_string())
            .arg("known", "en, fr, auto")),
    }
}

/// The languages, each named in itself (the value sent is its code), and `auto`.
pub async fn autocomplete_lang(
    _ctx: Context<'_>,
    partial: &str,
) -> serenity::CreateAutocompleteResponse {
    let p = partial.trim().to_lowercase();
    suggest(
        [
            ("en", "en · English"),
            ("fr", "fr · français"),
            ("auto", "auto"),
        ]
        .into_iter()
        .filter(|(code, name)| code.starts_with(&p) || name.to_lowercase().contains(&p))
        .map(|(code, name)| serenity::AutocompleteChoice::new(name, code))
        .collect::<Vec<_>>(),
    )
}

pub async fn autocomplete_level(
    _ctx: Context<'_>,
    partial: &str,
) -> serenity::CreateAutocompleteResponse {
    let p = partial.trim().to_lowercase();
    suggest(
        Level::ALL
            .iter()
            .map(|l| l.id().to_string())
            .filter(|l| l.starts_with(&p))
            .collect(),
    )
}

pub async fn autocomplete_clock(
    _ctx: Context<'_>,
    partial: &str,
) -> serenity::CreateAutocompleteResponse {
    let p = partial.trim().to_lowercase();
    let mut out: Vec<String> = CLOCK_CHOICES
        .iter()
        .filter(|c| c.starts_with(&p))
        .map(|c| (*c).to_string())
        .collect();
    // What the member typed, when it reads as a length; past Discord's 100 characters for a
    // choice's name and value, in its short form (`1h 1h …` sixty times is `2d12h`).
    if out.is_empty() {
        match parse_duration(&p) {
            Some(_) if p.chars().count() <= MAX_CHOICE => out.push(p),
            Some(Some(secs)) => out.push(crate::clock::compact_duration(secs)),
            Some(None) => out.push("none".to_string()),
            None => {}
        }
    }
    suggest(out)
}

/// Discord's longest autocomplete choice: its name and its string value, 100 characters each.
pub const MAX_CHOICE: usize = 100;

/// Whether a channel is a thread (where Discord starts no thread: 400 / 50024).
pub fn is_thread(kind: serenity::ChannelType) -> bool {
    matches!(
        kind,
        serenity::ChannelType::PublicThread
            | serenity::ChannelType::PrivateThread
            | serenity::ChannelType::NewsThread
    )
}

pub async fn autocomplete_policy(
    _ctx: Context<'_>,
    partial: &str,
) -> serenity::CreateAutocompleteResponse {
    let p = partial.trim().to_lowercase();
    suggest(
        TimeoutPolicy::ALL
            .iter()
            .map(|t| t.as_str().to_string())
            .filter(|t| t.starts_with(&p))
            .collect(),
    )
}

/// Edits the click's message or reply: retried when Discord fails for a passing reason, and
/// after unarchiving the thread when the click came from an archived one (50083).
pub(super) async fn edit_click(
    http: &serenity::Http,
    pace: &super::pace::Pace,
    click: &ComponentInteraction,
    what: &str,
    edit: EditInteractionResponse,
) -> Result<serenity::Message, serenity::Error> {
    let class = "interaction_edit";
    editing_as(class, http, pace, click.channel_id, what, || {
        click.edit_response(http, edit.clone())
    })
    .await
}

/// Durations offered for `/play clock` and `/clock time`.
pub const CLOCK_CHOICES: [&str; 6] = ["12h", "24h", "2d", "3d", "7d", "none"];
