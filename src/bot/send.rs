//! Turning the service's outputs into Discord messages: board posts with their components,
//! lobby messages, DMs of private posts (with the closed-DM fallback), ephemeral answers.

use poise::serenity_prelude as serenity;
use serenity::{
    ButtonStyle, CreateActionRow, CreateAttachment, CreateButton, CreateMessage, CreateSelectMenu,
    CreateSelectMenuKind, CreateSelectMenuOption, EditInteractionResponse,
};

use super::ids::{CustomId, LobbyAction};
use super::layout::{content, prompt_components, subset_components, PromptComponents, MAX_ROWS};
use super::mentions::{allowed, nobody};
use super::retry::{editing, posting};
use super::{id_i64, id_u64, Context, Data, Error};
use crate::engine::{GameId, PromptInfo, Version};
use crate::i18n::{Lang, Text};
use crate::model::GameStatus;
use crate::service::{BoardPost, LobbyView, LostPlace, Notice, Outputs, PrivatePost, ZoomPost};

/// Discord's JSON error code for "Cannot send messages to this user".
pub const CLOSED_DMS: isize = 50007;
/// "Cannot send messages to this user due to having no mutual guilds": they left the server.
pub const NO_MUTUAL_GUILD: isize = 50278;

pub const BOARD_FILE: &str = "board.png";
pub const RESULT_FILE: &str = "result.png";
/// The animated replay attached to a result.
pub const REPLAY_GIF_FILE: &str = "replay.gif";
pub const HAND_FILE: &str = "hand.png";
pub const ZOOM_FILE: &str = "zoom.png";

/// The board image, with its text summary as the alt text.
pub fn board_file(board: &BoardPost) -> CreateAttachment {
    CreateAttachment::bytes(board.png.clone(), BOARD_FILE).description(alt(&board.alt))
}

/// A Zoom answer's image, described by the board's summary.
pub fn zoom_file(zoom: &ZoomPost) -> CreateAttachment {
    CreateAttachment::bytes(zoom.png.clone(), ZOOM_FILE).description(alt(&zoom.alt))
}

/// A hand image, described by the private summary (it only goes to its owner).
pub fn hand_file(post: &PrivatePost) -> CreateAttachment {
    CreateAttachment::bytes(post.png.clone(), HAND_FILE).description(alt(&post.text))
}

/// Discord keeps at most 1024 characters of an attachment's description.
fn alt(s: &str) -> String {
    const MAX: usize = 1024;
    if s.chars().count() <= MAX {
        return s.to_string();
    }
    let mut out: String = s.chars().take(MAX - 1).collect();
    out.push('…');
    out
}

/// The rows for a board: the prompt's buttons or menu, then a last row with "Show my hand"
/// when the game has hidden hands, and "Zoom" (the parts that matter to the clicker at full
/// size, for phones).
pub fn board_rows(board: &BoardPost, hands: bool, lang: Lang) -> Vec<CreateActionRow> {
    let mut rows = Vec::new();
    if let Some(prompt) = board.prompt.as_ref().filter(|p| !p.private) {
        rows = option_rows(board.game, board.version, prompt, lang);
    }
    let mut last = Vec::new();
    if hands && board.outcome.is_none() {
        let key = if board.prompt.as_ref().is_some_and(|p| p.private) {
            "bot.turn.show_hand_choose"
        } else {
            "bot.turn.show_hand"
        };
        last.push(
            CreateButton::new(CustomId::Hand { game: board.game }.encode())
                .label(Text::new(key).render(lang))
                .style(ButtonStyle::Primary),
        );
    }
    last.push(
        CreateButton::new(CustomId::Zoom { game: board.game }.encode())
            .label(Text::new("bot.turn.zoom").render(lang))
            .style(ButtonStyle::Secondary),
    );
    // Once something was played in a running game: ask the others to take a turn back.
    if board.outcome.is_none() && board.prompt.is_some() && board.version.0 > 0 {
        last.push(
            CreateButton::new(
                CustomId::Takeback {
                    game: board.game,
                    button: super::ids::TakebackButton::Ask,
                }
                .encode(),
            )
            .label(Text::new("bot.takeback.ask_button").render(lang))
            .style(ButtonStyle::Secondary),
        );
    }
    rows.push(CreateActionRow::Buttons(last));
    rows
}

/// The buttons or menus for a prompt's options. Public boards show them unless the options
/// are private; private ones go only in the deciding player's ephemeral reply.
pub fn option_rows(
    game: GameId,
    version: Version,
    prompt: &PromptInfo,
    lang: Lang,
) -> Vec<CreateActionRow> {
    component_rows(prompt_components(game, version, &prompt.options), lang)
}

/// The rows for one group of a long prompt (its private panel; every row is free).
pub fn group_rows(
    game: GameId,
    version: Version,
    prompt: &PromptInfo,
    indices: &[usize],
    lang: Lang,
) -> Vec<CreateActionRow> {
    component_rows(
        subset_components(game, version, &prompt.options, indices, MAX_ROWS),
        lang,
    )
}

fn component_rows(components: PromptComponents, lang: Lang) -> Vec<CreateActionRow> {
    let menu = |id: String, options: Vec<(String, String)>, placeholder: &str| {
        let options = options
            .into_iter()
            .map(|(value, label)| CreateSelectMenuOption::new(label, value))
            .collect();
        CreateActionRow::SelectMenu(
            CreateSelectMenu::new(id, CreateSelectMenuKind::String { options })
                .placeholder(Text::new(placeholder).render(lang)),
        )
    };
    match components {
        PromptComponents::Buttons(buttons) => buttons
            .into_iter()
            .map(|row| {
                CreateActionRow::Buttons(
                    row.into_iter()
                        .map(|(id, label)| {
                            CreateButton::new(id)
                                .label(label)
                                .style(ButtonStyle::Secondary)
                        })
                        .collect(),
                )
            })
            .collect(),
        PromptComponents::Menus(menus) => menus
            .into_iter()
            .map(|(id, options)| menu(id, options, "bot.turn.menu"))
            .collect(),
        PromptComponents::Groups { id, groups } => vec![menu(id, groups, "bot.turn.groups")],
        PromptComponents::None => Vec::new(),
    }
}

/// A player's hand, only to them: the image and text and, when they must choose among cards
/// of that hand now, the option buttons (or menu) too.
pub async fn hand_reply(
    data: &Data,
    game: GameId,
    user: i64,
    lang: Lang,
) -> Result<EditInteractionResponse, Error> {
    let (post, prompt) = data
        .service
        .moves()
        .hand_with_options(game, user, lang)
        .await?;
    let Some(p) = post else {
        return Ok(EditInteractionResponse::new()
            .content(Text::new("bot.hand.none").render(lang))
            .allowed_mentions(nobody()));
    };
    let rows = prompt.map_or_else(Vec::new, |(version, prompt)| {
        option_rows(game, version, &prompt, lang)
    });
    Ok(EditInteractionResponse::new()
        .content(content(&p.text))
        .allowed_mentions(nobody())
        .new_attachment(hand_file(&p))
        .components(rows))
}

/// The message text of a board: first whom it pings and whose turn it is (or the result),
/// with a hint to type `/move` when the options do not fit in components; then what just
/// happened. A phone's notification and a glance at the thread read the first line.
pub fn board_content(board: &BoardPost, lang: Lang) -> String {
    // The service's text is its events, then the turn line (or the result).
    let joined = board.events.join("\n");
    let (headline, events): (&str, &[String]) = match board.text.strip_prefix(joined.as_str()) {
        Some(rest) => (rest.trim_start_matches('\n'), &board.events),
        // Not the service's shape: shown whole, as the headline.
        None => (board.text.as_str(), &[]),
    };
    let mut head = String::new();
    if let Some(user) = board.mention {
        head.push_str(&format!("<@{}> ", id_u64(user)));
    }
    head.push_str(headline);
    if let Some(deadline) = board.deadline.filter(|_| board.outcome.is_none()) {
        head.push('\n');
        head.push_str(
            &Text::new("bot.turn.due")
                .arg("due", crate::service::due(deadline))
                .render(lang),
        );
    }
    if let Some(p) = &board.prompt {
        if p.private && board.outcome.is_none() {
            head.push('\n');
            head.push_str(&Text::new("bot.turn.private_options").render(lang));
        } else if matches!(
            prompt_components(board.game, board.version, &p.options),
            PromptComponents::None
        ) {
            head.push('\n');
            head.push_str(&Text::new("bot.turn.use_move").render(lang));
        }
    }
    fit_keeping_head(head.trim(), events)
}

/// `head` then `events` within Discord's 2,000 characters. When they do not fit, the oldest
/// events give way, whole, behind a "…": the ping, the turn line and the hints always go out,
/// so a long list of events can never cut them.
fn fit_keeping_head(head: &str, events: &[String]) -> String {
    const MAX: usize = 2000;
    // The head, each event with its newline, and room for the "…" line.
    let mut total: usize =
        head.chars().count() + events.iter().map(|l| l.chars().count() + 1).sum::<usize>() + 2;
    let mut first = 0;
    while first < events.len() && total > MAX {
        total -= events[first].chars().count() + 1;
        first += 1;
    }
    let mut out = head.to_string();
    if first > 0 {
        out.push_str("\n…");
    }
    for line in &events[first..] {
        if !out.is_empty() {
            out.push('\n');
        }
        out.push_str(line);
    }
    content(&out)
}

pub fn board_message(board: &BoardPost, hands: bool, lang: Lang) -> CreateMessage {
    let text = board_content(board, lang);
    // A member who muted this game is named on their turn's board, not pinged.
    let pings = if board.muted {
        nobody()
    } else {
        allowed(&text)
    };
    CreateMessage::new()
        .allowed_mentions(pings)
        .content(text)
        .add_file(board_file(board))
        .components(board_rows(board, hands, lang))
}

pub fn board_edit(board: &BoardPost, hands: bool, lang: Lang) -> EditInteractionResponse {
    // An edit never notifies anyone, and ephemeral answers reuse it: nobody.
    EditInteractionResponse::new()
        .allowed_mentions(nobody())
        .content(board_content(board, lang))
        .clear_attachments()
        .new_attachment(board_file(board))
        .components(board_rows(board, hands, lang))
}

/// Join / Leave / Start / Cancel while the game is a lobby; Follow (its thread) while it is
/// played in one; Rematch once it is over; nothing once cancelled.
pub fn lobby_rows(view: &LobbyView, lang: Lang) -> Vec<CreateActionRow> {
    let button = |action: LobbyAction, key: &str, style: ButtonStyle| {
        CreateButton::new(
            CustomId::Lobby {
                game: view.game,
                action,
            }
            .encode(),
        )
        .label(Text::new(key).render(lang))
        .style(style)
    };
    match view.status {
        GameStatus::Lobby => {}
        GameStatus::Active if view.thread.is_some() => {
            return vec![CreateActionRow::Buttons(vec![button(
                LobbyAction::Follow,
                "bot.lobby.follow",
                ButtonStyle::Secondary,
            )])];
        }
        GameStatus::Finished => return vec![rematch_row(view.game, lang)],
        _ => return Vec::new(),
    }
    let mut rows = vec![CreateActionRow::Buttons(vec![
        button(LobbyAction::Join, "bot.lobby.join", ButtonStyle::Success),
        button(
            LobbyAction::Leave,
            "bot.lobby.leave",
            ButtonStyle::Secondary,
        ),
        button(LobbyAction::Start, "bot.lobby.start", ButtonStyle::Primary),
        button(LobbyAction::Cancel, "bot.lobby.cancel", ButtonStyle::Danger),
    ])];
    // Bots fill empty chairs (host or moderator); shown only when they apply.
    let mut bots = Vec::new();
    if view.can_add_bot() {
        bots.push(button(
            LobbyAction::AddBot,
            "bot.lobby.add_bot",
            ButtonStyle::Secondary,
        ));
    }
    if view.has_bot() {
        bots.push(button(
            LobbyAction::RemoveBot,
            "bot.lobby.remove_bot",
            ButtonStyle::Secondary,
        ));
    }
    if !bots.is_empty() {
        rows.push(CreateActionRow::Buttons(bots));
    }
    // Invited members answer (a rematch's players too): Accept takes the kept seat, Decline
    // frees it.
    if !view.invited().is_empty() {
        rows.push(CreateActionRow::Buttons(vec![
            button(
                LobbyAction::Accept,
                "bot.invite.accept",
                ButtonStyle::Success,
            ),
            button(
                LobbyAction::Decline,
                "bot.invite.decline",
                ButtonStyle::Secondary,
            ),
        ]));
    }
    rows
}

/// The Rematch button of a finished game: on its lobby message and on its result card.
pub fn rematch_row(game: GameId, lang: Lang) -> CreateActionRow {
    CreateActionRow::Buttons(vec![CreateButton::new(
        CustomId::Lobby {
            game,
            action: LobbyAction::Rematch,
        }
        .encode(),
    )
    .label(Text::new("bot.rematch.button").render(lang))
    .style(ButtonStyle::Primary)])
}

/// The result card's buttons: Rematch, and each player's private analysis.
fn result_row(game: GameId, lang: Lang) -> CreateActionRow {
    match rematch_row(game, lang) {
        CreateActionRow::Buttons(mut buttons) => {
            // Here, not in `analysis`, so that `send` imports no handler (no import cycle).
            buttons.push(
                CreateButton::new(super::ids::CustomId::Analyse { game }.encode())
                    .label(Text::new("analysis.button").render(lang))
                    .style(ButtonStyle::Secondary),
            );
            CreateActionRow::Buttons(buttons)
        }
        other => other,
    }
}

/// Where a game's messages go: its thread, else its channel; nowhere while its place is lost.
pub fn place_of(view: &LobbyView) -> Option<serenity::ChannelId> {
    if view.lost {
        return None;
    }
    view.thread
        .or(view.channel)
        .map(|c| serenity::ChannelId::new(id_u64(c).max(1)))
}

/// A board as a silent message (Discord's `@silent`, the SUPPRESS_NOTIFICATIONS flag): it
/// still marks the mention for the player it calls, but no phone or desktop notification goes
/// out. For boards that call a player who turned pings off.
pub fn silenced(msg: CreateMessage, silent: bool) -> CreateMessage {
    if silent {
        msg.flags(serenity::MessageFlags::SUPPRESS_NOTIFICATIONS)
    } else {
        msg
    }
}

/// Whom a message of `game` mentioning people pings, and whether it goes out silently
/// (`@silent`): see `service::pings`. `needed`: the members it needs (their turn, a question to
/// them), pinged unless they muted the game; the others only where the game pings them for
/// everything. Silent when every member it pings turned `/settings pings` off.
pub async fn pings_of(
    data: &Data,
    game: Option<GameId>,
    text: &str,
    needed: &[i64],
) -> (serenity::CreateAllowedMentions, bool) {
    let mentioned: Vec<i64> = super::mentions::mentioned_users(text)
        .into_iter()
        .map(id_i64)
        .collect();
    let (pinged, silent) = data
        .service
        .players()
        .pinged(game, &mentioned, needed)
        .await;
    let allowed = nobody().users(
        pinged
            .into_iter()
            .map(|u| serenity::UserId::new(id_u64(u).max(1))),
    );
    (allowed, silent)
}

/// A plain message in a game's place ([`text_message`]) pinging only whom [`pings_of`] says,
/// so `/settings pings` and `game_pings` hold for every message that names a player.
pub async fn place_message(
    data: &Data,
    game: Option<GameId>,
    text: &str,
    needed: &[i64],
) -> CreateMessage {
    let (allowed, quiet) = pings_of(data, game, &content(text), needed).await;
    silenced(text_message(text), quiet).allowed_mentions(allowed)
}

/// A message in a game's place that may ping only `asked` (the members it asks something of,
/// so needed: pinged unless they muted the game, and silent when all of them turned pings
/// off), whoever else it names (the member who asked, for one).
pub async fn place_message_asking(
    data: &Data,
    game: GameId,
    text: &str,
    asked: &[i64],
) -> CreateMessage {
    let (pinged, quiet) = data
        .service
        .players()
        .pinged(Some(game), asked, asked)
        .await;
    let allowed = nobody().users(
        pinged
            .into_iter()
            .map(|u| serenity::UserId::new(id_u64(u).max(1))),
    );
    silenced(text_message(text), quiet).allowed_mentions(allowed)
}

/// Whether `user` gets their hand by DM (`/settings hand_dms`); yes when it cannot be read.
async fn wants_hand_dms(data: &Data, user: i64) -> bool {
    match data.service.players().settings_of(user).await {
        Ok(s) => s.hand_dms,
        Err(e) => {
            tracing::warn!(error = %e, "could not read a player's hand_dms setting");
            true
        }
    }
}

/// Posts a board in the game's place (silently when `silent`); returns the message.
pub async fn post_board(
    http: &serenity::Http,
    pace: &super::pace::Pace,
    place: serenity::ChannelId,
    outputs: &Outputs,
    lang: Lang,
    silent: bool,
) -> Result<serenity::Message, Error> {
    // One board per version, even when Discord posted it and the answer was lost: a retry
    // with the same nonce gets the message already made (Discord keeps nonces a few minutes).
    // The clock's revision too: after `/replace` the same version is posted again as a new
    // board, which a bare version's nonce would hand back as the old one.
    let nonce = format!(
        "b{}v{}r{}",
        outputs.board.game.0, outputs.board.version.0, outputs.board.clock_rev
    );
    let msg = silenced(board_message(&outputs.board, outputs.hands, lang), silent)
        .nonce(serenity::Nonce::String(nonce))
        .enforce_nonce(true);
    Ok(posting(pace, "post a board", || {
        place.send_message(http, msg.clone())
    })
    .await?)
}

/// DMs every private post, except to players who turned hand DMs off (they pull their hand
/// with "Show my hand" or `/hand`); on a closed DM (50007) the service remembers it and, the
/// first time, the player is told in the game's place (nothing about the hand itself).
pub async fn send_private(
    http: &serenity::Http,
    data: &Data,
    view: &LobbyView,
    posts: &[PrivatePost],
    jump: Option<String>,
    lang: Lang,
) {
    for post in posts {
        let Some(user) = post.user else { continue };
        // Known closed: the player reads the hand with /hand; retrying only collects 403s.
        if view.dm_closed(user) || !post.by_dm {
            continue;
        }
        let header = Text::new("bot.dm.header")
            .arg("game", view.kind.display_name())
            .arg("id", view.game.0)
            .arg("link", jump.clone().unwrap_or_default())
            .render(lang);
        let msg = text_message(&format!("{header}\n{}", post.text)).add_file(hand_file(post));
        let key = format!(
            "hand {} {} {} {user}",
            post.game.0, post.version.0, post.seat.0
        );
        let sent = dm(http, data, user, msg, &key).await;
        tell_if_closed(http, data, view, user, sent, lang).await;
    }
}

/// Whether a DM could be sent: `Ok(true)` sent, `Ok(false)` closed (50007). `key` names the
/// DM (the same DM, the same key): it becomes the message's nonce, so a retry after an answer
/// lost in a 5xx gets the DM already made instead of a second one.
async fn dm(
    http: &serenity::Http,
    data: &Data,
    user: i64,
    msg: CreateMessage,
    key: &str,
) -> Result<bool, Error> {
    let msg = msg
        .nonce(serenity::Nonce::String(dm_nonce(key)))
        .enforce_nonce(true);
    // A kept channel that Discord no longer knows is opened again, once.
    let mut fresh = false;
    loop {
        let channel = match dm_channel(http, data, user, fresh).await {
            Ok(c) => c,
            Err(e) if is_closed_dm(&e) => return Ok(false),
            Err(e) => return Err(e.into()),
        };
        match posting(&data.pace, "send a DM", || {
            channel.send_message(http, msg.clone())
        })
        .await
        {
            Ok(_) => return Ok(true),
            Err(e) if is_closed_dm(&e) => return Ok(false),
            Err(e) if !fresh && super::retry::code_of(&e) == Some(UNKNOWN_CHANNEL) => {
                tracing::info!("a kept DM channel is unknown; opening it again");
                fresh = true;
            }
            Err(e) => return Err(e.into()),
        }
    }
}

/// A nonce for a DM: `d` and a 64-bit FNV-1a hash of its key in hex (17 characters; Discord
/// takes 25 at most). Stable across processes and restarts, unlike std's hasher.
fn dm_nonce(key: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in key.bytes() {
        h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
    }
    format!("d{h:016x}")
}

/// A text DM to `user`, keyed by its words.
async fn dm_text(http: &serenity::Http, data: &Data, user: i64, text: &str) -> Result<bool, Error> {
    dm(
        http,
        data,
        user,
        text_message(text),
        &format!("text {user} {text}"),
    )
    .await
}

/// Discord's "You are opening direct messages too fast".
const DM_OPENS_TOO_FAST: isize = 40003;

/// `user`'s DM channel: the one kept in the store (unless `fresh`), else opened once and
/// kept. Opens wait their turn in the pace's DM-open rate; a 40003 is waited out and tried
/// again, with longer waits than a passing error's (Discord says nothing of when it lifts).
async fn dm_channel(
    http: &serenity::Http,
    data: &Data,
    user: i64,
    fresh: bool,
) -> Result<serenity::ChannelId, serenity::Error> {
    let players = data.service.players();
    if !fresh {
        match players.dm_channel(user).await {
            Ok(Some(channel)) => return Ok(serenity::ChannelId::new(id_u64(channel).max(1))),
            Ok(None) => {}
            // The store out of reach costs one open, not the DM.
            Err(e) => tracing::warn!(error = %e, "could not read a kept DM channel"),
        }
    }
    let member = serenity::UserId::new(id_u64(user).max(1));
    let mut wait = DM_OPEN_BACKOFF;
    let channel = loop {
        let opened = super::retry::retrying("open a DM", || async {
            data.pace.dm_open().await;
            member.create_dm_channel(http).await
        })
        .await;
        match opened {
            Err(e)
                if super::retry::code_of(&e) == Some(DM_OPENS_TOO_FAST)
                    && wait <= DM_OPEN_BACKOFF_MAX =>
            {
                tracing::info!(?wait, "Discord refused a DM open as too fast; waiting");
                tokio::time::sleep(wait).await;
                wait *= 2;
            }
            opened => break opened?,
        }
    };
    let id = i64::try_from(channel.id.get()).unwrap_or(i64::MAX);
    if let Err(e) = players.keep_dm_channel(user, Some(id)).await {
        tracing::warn!(error = %e, "could not keep a DM channel");
    }
    Ok(channel.id)
}

/// The first wait after a 40003, doubled each time up to the last.
const DM_OPEN_BACKOFF: std::time::Duration = std::time::Duration::from_secs(2);
const DM_OPEN_BACKOFF_MAX: std::time::Duration = std::time::Duration::from_secs(16);

/// Checks at join time that the bot can DM a player of a game with hidden hands (not for a
/// player who takes their hand with "Show my hand": no hand will come by DM).
pub async fn check_dm(http: &serenity::Http, data: &Data, view: &LobbyView, user: i64, lang: Lang) {
    if !wants_hand_dms(data, user).await {
        return;
    }
    let text = Text::new("bot.dm.joined")
        .arg("game", view.kind.display_name())
        .arg("id", view.game.0)
        .render(lang);
    // A second join within minutes gets the first DM back: the check is the same.
    let sent = dm_text(http, data, user, &text).await;
    tell_if_closed(http, data, view, user, sent, lang).await;
}

async fn tell_if_closed(
    http: &serenity::Http,
    data: &Data,
    view: &LobbyView,
    user: i64,
    sent: Result<bool, Error>,
    lang: Lang,
) {
    let ok = match sent {
        Ok(ok) => ok,
        Err(e) => {
            tracing::warn!(game = %view.game, error = %e, "DM failed");
            return;
        }
    };
    match data.service.players().record_dm(view.game, user, ok).await {
        Ok(true) => {
            if let Some(place) = place_of(view) {
                let text = Text::new("bot.dm.closed")
                    .arg("user", format!("<@{}>", id_u64(user)))
                    .render(lang);
                let msg = place_message(data, Some(view.game), &text, &[]).await;
                data.pace.counted().await;
                if let Err(e) = place.send_message(http, msg).await {
                    tracing::warn!(game = %view.game, error = %e, "could not post the DM notice");
                }
            }
        }
        Ok(false) => {}
        Err(e) => tracing::warn!(game = %view.game, error = %e, "could not record DM status"),
    }
}

/// A DM Discord refuses for good: closed DMs, or no server in common any more.
pub fn is_closed_dm(e: &serenity::Error) -> bool {
    matches!(
        e,
        serenity::Error::Http(serenity::HttpError::UnsuccessfulRequest(r))
            if r.error.code == CLOSED_DMS || r.error.code == NO_MUTUAL_GUILD
    )
}

/// A jump link to a message in a guild.
pub fn jump_link(guild: Option<i64>, msg: &serenity::Message) -> Option<String> {
    guild.map(|g| {
        format!(
            "https://discord.com/channels/{}/{}/{}",
            id_u64(g),
            msg.channel_id,
            msg.id
        )
    })
}

/// Everything after a stored change: the board in the game's place, then the DMs. A board
/// that does not go out is [`Error::Undelivered`]: the change stands, and the scheduler's
/// board sweeper posts it later.
pub async fn deliver(http: &serenity::Http, data: &Data, outputs: &Outputs) -> Result<(), Error> {
    deliver_after(http, data, outputs, None).await
}

/// [`deliver`] after a click already took the buttons off the board message `retired`.
pub async fn deliver_after(
    http: &serenity::Http,
    data: &Data,
    outputs: &Outputs,
    retired: Option<serenity::MessageId>,
) -> Result<(), Error> {
    // The outputs say which game and in which language they were made.
    let (game, lang) = (outputs.board.game, outputs.lang);
    // A lesson past its script's steps ends with this board: shown without options.
    let stopped;
    let mut lesson_over = outputs.table.lesson && outputs.board.outcome.is_some();
    let outputs = if outputs.table.lesson
        && outputs.board.outcome.is_none()
        && crate::service::past_script(outputs.table.kind, outputs.board.version.0)
    {
        match data
            .service
            .lessons()
            .end_if_done(game, data.service.now())
            .await
        {
            Ok(Some(_)) => {
                let mut last = outputs.clone();
                // What happened stays; the turn line and its hint go with the options.
                last.board.text = last.board.events.join("\n");
                last.board.prompt = None;
                last.board.deadline = None;
                last.board.mention = None;
                lesson_over = true;
                stopped = last;
                &stopped
            }
            // Another board of the lesson ended it (or will): nothing more to show.
            Ok(None) => return Ok(()),
            Err(e) => return Err(Error::Undelivered(Box::new(e.into()))),
        }
    } else {
        outputs
    };
    let undelivered = |e: Error| Error::Undelivered(Box::new(e));
    // The game as the change left it: no second read.
    let mut view = outputs.table.clone();
    // Where the live board is (a place that refused the post keeps it: retiring it there
    // fails quietly).
    let previous = place_of(&view);
    let silent = outputs.board.silent;
    // A refusal for good of the game's place: the game is paused, but the hands still go.
    let mut refused = None;
    let msg = match previous {
        Some(place) => match post_board(http, &data.pace, place, outputs, lang, silent).await {
            Ok(msg) => Some(msg),
            // The thread was deleted: the game moves on to a new thread of its channel.
            Err(Error::Discord(e)) if super::retry::code_of(&e) == Some(UNKNOWN_CHANNEL) => {
                match relocate(http, data, &view, lang)
                    .await
                    .map_err(undelivered)?
                {
                    Some(place) => {
                        view = data
                            .service
                            .lobbies()
                            .lobby(game)
                            .await
                            .map_err(|e| undelivered(e.into()))?;
                        Some(
                            post_board(http, &data.pace, place, outputs, lang, silent)
                                .await
                                .map_err(undelivered)?,
                        )
                    }
                    None => None,
                }
            }
            // A moderator locked the thread, or the bot lost its rights there: paused until
            // the host or a moderator gives the game a place again.
            Err(Error::Discord(e)) if lost_place(&e).is_some() => {
                if let Some(why) = lost_place(&e) {
                    lose(http, data, game, why).await;
                }
                view.lost = true;
                refused = Some(Error::Discord(e));
                None
            }
            Err(e) => return Err(undelivered(e)),
        },
        None => None,
    };
    // Out (or nowhere to go): the scheduler's board sweeper will not post this version again.
    let posted = msg.as_ref().zip(previous);
    record_posted(http, data, game, outputs.board.version, posted, retired).await;
    // A lesson over says so at once, and sends no hand: nothing is left to play, and hand
    // DMs (paced per member) must not hold back its closing word.
    if lesson_over && refused.is_none() {
        if let Some(place) = msg.as_ref().map(|m| m.channel_id) {
            end_lesson(
                http,
                data,
                &view,
                place,
                outputs.board.outcome.is_some(),
                lang,
            )
            .await;
        }
        return Ok(());
    }
    // A game paused without a place still gives each player their hand.
    let jump = msg.as_ref().and_then(|m| jump_link(view.guild, m));
    send_private(http, data, &view, &outputs.private, jump, lang).await;
    if let Some(e) = refused {
        return Err(undelivered(e));
    }
    if msg.is_some() && outputs.board.outcome.is_some() {
        // The thread stays open for the players' last words: the scheduler archives it after
        // the grace (a stored job, planned with the last move).
        announce_result(http, data, &view, lang).await;
    }
    Ok(())
}

/// A lesson is over (the game ended, or its script's steps are taken): a word in its thread
/// that suggests a real game with `/play` (a clickable mention once the command's id is
/// known). No result card, no Rematch: a lesson never counts. A failure is logged.
async fn end_lesson(
    http: &serenity::Http,
    data: &Data,
    view: &LobbyView,
    place: serenity::ChannelId,
    finished: bool,
    lang: Lang,
) {
    let name = crate::i18n::lookup(lang, "bot.cmd.play.name").to_string();
    let play = match data.command_id("play") {
        Some(id) => format!("</{name}:{id}>"),
        None => format!("/{name}"),
    };
    let text = Text::new("learn.end")
        .arg(
            "why",
            Text::new(if finished {
                "learn.end_finished"
            } else {
                "learn.end_steps"
            }),
        )
        .arg("game", view.kind.display_name())
        .arg("id", view.kind.id())
        .arg("play", play)
        .render(lang);
    let msg = place_message(data, Some(view.game), &text, &[]).await;
    if let Err(e) = posting(&data.pace, "end a lesson", || {
        place.send_message(http, msg.clone())
    })
    .await
    {
        tracing::warn!(game = %view.game, error = %e, "could not post a lesson's end");
    }
}

/// A game is over: the result card goes to its place, mentioning every seated player once,
/// with the Rematch button, and the lobby message in the channel becomes the result, with a
/// link to the card and the Rematch button too. A failure is logged: the final board already
/// says who won.
pub async fn announce_result(http: &serenity::Http, data: &Data, view: &LobbyView, lang: Lang) {
    let game = view.game;
    let result = match data.service.records().result(game, lang).await {
        Ok(r) => r,
        Err(e) => {
            tracing::warn!(%game, error = %e, "could not build a finished game's result");
            return;
        }
    };
    let mut link = None;
    if let Some(place) = place_of(view) {
        let text = content(&result.text);
        // A result needs nobody: it pings only those whose game pings them for everything.
        let (pings, quiet) = pings_of(data, Some(game), &text, &[]).await;
        let mut msg = silenced(CreateMessage::new(), quiet)
            .allowed_mentions(pings)
            .content(text)
            .add_file(
                CreateAttachment::bytes(result.png.clone(), RESULT_FILE)
                    .description(alt(&result.alt)),
            )
            .components(vec![result_row(game, lang)]);
        // The animated replay (issue 24), when it could be built, described for screen readers.
        if let Some(gif) = &result.gif {
            let described = Text::new("bot.result.replay_alt")
                .arg("summary", result.summary.replace("**", ""))
                .render(lang);
            msg = msg.add_file(
                CreateAttachment::bytes(gif.clone(), REPLAY_GIF_FILE).description(alt(&described)),
            );
        }
        let msg = msg
            .nonce(serenity::Nonce::String(format!("r{}", game.0)))
            .enforce_nonce(true);
        match posting(&data.pace, "post a result", || {
            place.send_message(http, msg.clone())
        })
        .await
        {
            Ok(m) => link = jump_link(view.guild, &m),
            Err(e) => tracing::warn!(%game, error = %e, "could not post a finished game's result"),
        }
    }
    let (Some(channel), Some(message)) = (view.channel, view.lobby_message) else {
        return;
    };
    let text = format!(
        "{}\n{}",
        Text::new("bot.result.lobby")
            .arg("summary", result.summary.clone())
            .arg("link", link.unwrap_or_default())
            .render(lang),
        Text::new("bot.result.rematch_hint").render(lang)
    );
    let edit = serenity::EditMessage::new()
        .content(content(&text))
        .allowed_mentions(nobody())
        .components(lobby_rows(view, lang));
    let channel = serenity::ChannelId::new(id_u64(channel).max(1));
    let message = serenity::MessageId::new(id_u64(message).max(1));
    data.pace.counted().await;
    if let Err(e) = editing(
        http,
        &data.pace,
        channel,
        "show a result in the lobby",
        || channel.edit_message(http, message, edit.clone()),
    )
    .await
    {
        tracing::info!(%game, error = %e, "could not turn the lobby message into the result");
    }
}

/// Discord's "Unknown Channel": the thread or channel was deleted.
pub const UNKNOWN_CHANNEL: isize = 10003;
/// "Thread is locked": a moderator locked the game's thread (the bot may not post there).
pub const THREAD_LOCKED: isize = 160005;

/// "Missing Access": the bot may no longer see the channel.
pub const MISSING_ACCESS: isize = 50001;
/// "Missing Permissions": the bot may no longer post there (or attach the board).
pub const MISSING_PERMISSIONS: isize = 50013;

/// A post refused because a moderator's act took the game's place away for good, short of a
/// deletion: its thread locked, or the bot's rights there taken away.
pub fn lost_place(e: &serenity::Error) -> Option<LostPlace> {
    match super::retry::code_of(e) {
        Some(THREAD_LOCKED) => Some(LostPlace::Locked),
        Some(MISSING_ACCESS | MISSING_PERMISSIONS) => Some(LostPlace::NoAccess),
        _ => None,
    }
}

/// Pauses a game whose place was lost and tells whom the service names, by DM (only the first
/// report of a loss names anyone). Failures are logged.
pub async fn lose(http: &serenity::Http, data: &Data, game: GameId, why: LostPlace) {
    tracing::info!(%game, ?why, "the game lost its place; pausing it");
    let notices = match data
        .service
        .clocks()
        .lose_place(game, why, data.service.now())
        .await
    {
        Ok(n) => n,
        Err(e) => {
            tracing::warn!(%game, error = %e, "could not pause a game that lost its place");
            return;
        }
    };
    for notice in notices {
        if let Notice::Dm { user, text, .. } = notice {
            match dm_text(http, data, user, &text).await {
                Ok(sent) => {
                    if let Err(e) = data.service.players().record_dm(game, user, sent).await {
                        tracing::warn!(%game, error = %e, "could not record DM status");
                    }
                }
                Err(e) => {
                    tracing::warn!(%game, error = %e, "could not DM a paused game's player")
                }
            }
        }
    }
}

/// A moderator locked a thread (THREAD_UPDATE): the games played in it pause at once.
pub async fn thread_locked(http: &serenity::Http, data: &Data, thread: i64) {
    let games = match data.service.find().games_shown_in(thread).await {
        Ok((threads, _)) => threads,
        Err(e) => {
            tracing::warn!(error = %e, "could not look up the games of a locked thread");
            return;
        }
    };
    for game in games {
        match data.service.lobbies().lobby(game).await {
            Ok(view) if view.status == GameStatus::Active => {
                lose(http, data, game, LostPlace::Locked).await;
            }
            Ok(_) => {}
            Err(e) => tracing::warn!(%game, error = %e, "could not load a locked thread's game"),
        }
    }
}

/// The game's place was deleted. When it was a thread, the game goes on in a new thread of its
/// channel, recorded by the service, and its players are told there (pinged, which also adds
/// them to the thread). When the channel is gone too, the game is paused and its players told
/// by DM. Returns the new place, if there is one.
pub async fn relocate(
    http: &serenity::Http,
    data: &Data,
    view: &LobbyView,
    lang: Lang,
) -> Result<Option<serenity::ChannelId>, Error> {
    if let (Some(_), Some(channel)) = (view.thread, view.channel) {
        let channel = serenity::ChannelId::new(id_u64(channel).max(1));
        match create_game_thread(http, data, view, channel, lang).await {
            Ok(thread) => {
                data.service
                    .lobbies()
                    .set_thread(view.game, id_i64(thread.get()))
                    .await?;
                tracing::info!(game = %view.game, %thread, "the game moved to a new thread");
                let players: Vec<String> = view
                    .seats
                    .iter()
                    .filter(|s| !s.is_bot)
                    .filter_map(|s| s.user)
                    .map(|u| format!("<@{}>", id_u64(u)))
                    .collect();
                let text = Text::new("bot.place.moved")
                    .arg("game", view.kind.display_name())
                    .arg("id", view.game.0)
                    .arg("players", players.join(" "))
                    .render(lang);
                let msg = place_message(data, Some(view.game), &text, &[]).await;
                if let Err(e) = posting(&data.pace, "announce a new thread", || {
                    thread.send_message(http, msg.clone())
                })
                .await
                {
                    tracing::warn!(game = %view.game, error = %e, "could not announce the new thread");
                }
                return Ok(Some(thread));
            }
            Err(e) if super::retry::code_of(&e) == Some(UNKNOWN_CHANNEL) => {}
            Err(e) => return Err(e.into()),
        }
    }
    // No channel to go on in: paused, and the players hear it by DM.
    lose(http, data, view.game, LostPlace::Deleted).await;
    Ok(None)
}

/// A game's thread: its name, and how long it stays active after its last message. A game
/// with one person (alone, or against bots) keeps it only an hour, so it never holds a place
/// among the server's active threads for days; others a week. For the thread opened at Start
/// and for one opened again later (a deleted thread, a resume).
pub fn game_thread(view: &LobbyView, lang: Lang) -> serenity::CreateThread<'static> {
    let name = thread_name(view, lang);
    let people = view
        .seats
        .iter()
        .filter(|s| !s.is_bot && s.user.is_some())
        .count();
    let idle = if people <= 1 {
        serenity::AutoArchiveDuration::OneHour
    } else {
        serenity::AutoArchiveDuration::OneWeek
    };
    serenity::CreateThread::new(name).auto_archive_duration(idle)
}

/// The name of a game's thread ("Cortexcape #12").
fn thread_name(view: &LobbyView, lang: Lang) -> String {
    Text::new("bot.lobby.thread")
        .arg("game", view.kind.display_name())
        .arg("id", view.game.0)
        .render(lang)
}

/// Opens a public thread for `view`'s game in `channel` ([`game_thread`]). Discord takes no
/// nonce for a thread, so a retry after a server error first looks among the server's active
/// threads for the one the failed attempt may have made: a game never gets two threads.
async fn create_game_thread(
    http: &serenity::Http,
    data: &Data,
    view: &LobbyView,
    channel: serenity::ChannelId,
    lang: Lang,
) -> Result<serenity::ChannelId, serenity::Error> {
    let create = game_thread(view, lang).kind(serenity::ChannelType::PublicThread);
    let name = thread_name(view, lang);
    let look = || async {
        let guild = serenity::GuildId::new(id_u64(view.guild?).max(1));
        let active = guild.get_active_threads(http).await.ok()?;
        active
            .threads
            .into_iter()
            .find(|t| t.parent_id == Some(channel) && t.name == name)
            .map(|t| t.id)
    };
    super::retry::creating(
        &data.pace,
        "open a new thread",
        || async { Ok(channel.create_thread(http, create.clone()).await?.id) },
        look,
    )
    .await
}

/// A thread for a game given a new place in `channel`; `None` (the game is then played in the
/// channel itself) when Discord refuses one. Its players are added to it.
pub async fn open_game_thread(
    http: &serenity::Http,
    data: &Data,
    view: &LobbyView,
    channel: serenity::ChannelId,
    lang: Lang,
) -> Option<serenity::ChannelId> {
    match create_game_thread(http, data, view, channel, lang).await {
        Ok(thread) => Some(thread),
        Err(e) => {
            tracing::info!(game = %view.game, error = %e, "no thread; the game goes on in the channel");
            None
        }
    }
}

/// A thread or channel was deleted (THREAD_DELETE, CHANNEL_DELETE): the games shown there
/// move to a new thread with their current board, or pause, as when a post finds it gone.
pub async fn place_deleted(http: &serenity::Http, data: &Data, place: i64) {
    let (threads, channels) = match data.service.find().games_shown_in(place).await {
        Ok(found) => found,
        Err(e) => {
            tracing::warn!(error = %e, "could not look up the games of a deleted place");
            return;
        }
    };
    for game in threads.into_iter().chain(channels) {
        if let Err(e) = replace_place(http, data, game, place).await {
            tracing::warn!(%game, error = %e, "could not move a game out of a deleted place");
        }
    }
}

/// The bot was removed from a guild (GUILD_DELETE): every game there is paused and its
/// players told by DM (Discord refuses the DMs of players who share no other server with the
/// bot; that is remembered like closed DMs).
pub async fn guild_left(http: &serenity::Http, data: &Data, guild: i64) {
    let games = match data.service.find().games_of_guild(guild).await {
        Ok(g) => g,
        Err(e) => {
            tracing::warn!(error = %e, "could not look up the games of a server the bot left");
            return;
        }
    };
    for game in games {
        match data.service.lobbies().lobby(game).await {
            Ok(mut view) => {
                // Nothing there can be posted to: straight to the pause.
                view.channel = None;
                view.thread = None;
                let lang = data
                    .service
                    .clocks()
                    .game_lang(game)
                    .await
                    .unwrap_or(Lang::En);
                if let Err(e) = relocate(http, data, &view, lang).await {
                    tracing::warn!(%game, error = %e, "could not pause a game of a server the bot left");
                }
            }
            Err(e) => {
                tracing::warn!(%game, error = %e, "could not load a game of a server the bot left")
            }
        }
    }
}

async fn replace_place(
    http: &serenity::Http,
    data: &Data,
    game: GameId,
    deleted: i64,
) -> Result<(), Error> {
    let mut view = data.service.lobbies().lobby(game).await?;
    if view.channel == Some(deleted) {
        // Its threads went with the channel.
        view.thread = None;
    }
    if view.status != GameStatus::Active {
        // A lobby's message went with its place: it cannot be joined any more.
        data.service
            .clocks()
            .place_lost(game, data.service.now())
            .await?;
        return Ok(());
    }
    if view.lost {
        // Paused already: the host or a moderator gives it a place. A deleted channel is
        // forgotten (nobody is told twice).
        if view.channel == Some(deleted) {
            lose(http, data, game, LostPlace::Deleted).await;
        }
        return Ok(());
    }
    let lang = data.service.clocks().game_lang(game).await?;
    if let Some(place) = relocate(http, data, &view, lang).await? {
        let outputs = data.service.boards().show_to_post(game, lang).await?;
        let silent = outputs.board.silent;
        let msg = silenced(board_message(&outputs.board, outputs.hands, lang), silent);
        let posted = posting(&data.pace, "post a board", || {
            place.send_message(http, msg.clone())
        })
        .await?;
        // The old board went with its place: retiring it there fails quietly.
        let old = serenity::ChannelId::new(id_u64(deleted).max(1));
        record_posted(
            http,
            data,
            game,
            outputs.board.version,
            Some((&posted, old)),
            None,
        )
        .await;
    }
    Ok(())
}

/// A game that ended or was cancelled archives its thread: it leaves the server's active
/// threads (Discord caps them per server) and stays readable. A failure is only logged.
pub async fn archive_thread(http: &serenity::Http, pace: &super::pace::Pace, view: &LobbyView) {
    let Some(thread) = view.thread else { return };
    let thread = serenity::ChannelId::new(id_u64(thread).max(1));
    pace.counted().await;
    if let Err(e) = thread
        .edit_thread(http, serenity::EditThread::new().archived(true))
        .await
    {
        tracing::warn!(game = %view.game, error = %e, "could not archive a finished game's thread");
    }
}

/// Records that `version`'s board is out (a failure only risks a late duplicate: logged). The
/// `posted` message becomes the game's live board, and the board it replaces, in the place
/// given with it, loses its buttons (unless the click that led here already took them off
/// `retired`): whatever path posted the new board (a click, `/move`, a timeout, a bot, a
/// re-post), only one board has buttons.
pub async fn record_posted(
    http: &serenity::Http,
    data: &Data,
    game: GameId,
    version: Version,
    posted: Option<(&serenity::Message, serenity::ChannelId)>,
    retired: Option<serenity::MessageId>,
) {
    let message = posted.map(|(m, _)| id_i64(m.id.get()));
    match data
        .service
        .boards()
        .board_posted(game, version, message)
        .await
    {
        Ok(Some(old)) => {
            let Some((_, place)) = posted else { return };
            if retired.map(|r| id_i64(r.get())) != Some(old) {
                retire_board(http, &data.pace, place, old).await;
            }
        }
        Ok(None) => {}
        Err(e) => tracing::warn!(%game, error = %e, "could not record a posted board"),
    }
}

/// Takes the buttons off an old board (it keeps its picture and text). A failure is only
/// logged: the old board's buttons then answer that the board changed.
pub async fn retire_board(
    http: &serenity::Http,
    pace: &super::pace::Pace,
    channel: serenity::ChannelId,
    message: i64,
) {
    let message = serenity::MessageId::new(id_u64(message).max(1));
    let edit = serenity::EditMessage::new().components(Vec::new());
    pace.counted().await;
    if let Err(e) = editing(http, pace, channel, "retire an old board", || {
        channel.edit_message(http, message, edit.clone())
    })
    .await
    {
        tracing::info!(%channel, %message, error = %e, "could not take the buttons off an old board");
    }
}

/// Sends what the scheduler or a clock, seat or settings change produced. A failure is logged
/// and the others still go: the change itself is already stored.
pub async fn deliver_notices(http: &serenity::Http, data: &Data, notices: Vec<Notice>) {
    for notice in notices {
        if let Err(e) = deliver_notice(http, data, notice).await {
            tracing::warn!(error = %e, "could not send a notice");
        }
    }
}

async fn deliver_notice(http: &serenity::Http, data: &Data, notice: Notice) -> Result<(), Error> {
    match notice {
        Notice::Board(mut outputs) => {
            // A game whose thread was archived for idleness: the boards of timeouts and bots
            // would reopen it; the hands still go, and a person's move posts again.
            if outputs.table.idle {
                outputs.table.lost = true;
            }
            deliver(http, data, &outputs).await
        }
        Notice::Place { game, text } => {
            let view = data.service.lobbies().lobby(game).await?;
            post_in_place(http, data, &view, &text, &[]).await
        }
        Notice::Call { game, users, text } => {
            let view = data.service.lobbies().lobby(game).await?;
            post_in_place(http, data, &view, &text, &users).await
        }
        Notice::LobbyClosed { game, text } => {
            let view = data.service.lobbies().lobby(game).await?;
            let (Some(channel), Some(message)) = (view.channel, view.lobby_message) else {
                return Ok(());
            };
            let edit = serenity::EditMessage::new()
                .content(content(&text))
                .allowed_mentions(nobody())
                .components(Vec::new());
            data.pace.counted().await;
            serenity::ChannelId::new(id_u64(channel).max(1))
                .edit_message(http, serenity::MessageId::new(id_u64(message).max(1)), edit)
                .await?;
            Ok(())
        }
        Notice::Archive { game } => {
            let view = data.service.lobbies().lobby(game).await?;
            archive_thread(http, &data.pace, &view).await;
            Ok(())
        }
        Notice::Private { game, post } => {
            let lang = data.service.clocks().game_lang(game).await?;
            let view = data.service.lobbies().lobby(game).await?;
            send_private(http, data, &view, &[post], None, lang).await;
            Ok(())
        }
        Notice::Dm {
            user,
            game,
            text,
            fallback,
        } => {
            let view = match game {
                Some(g) => Some(data.service.lobbies().lobby(g).await?),
                None => None,
            };
            let known_closed = view.as_ref().is_some_and(|v| v.dm_closed(user));
            // A DM that fails for any reason still leaves the mention in the game's place.
            let sent = if known_closed {
                false
            } else {
                dm_text(http, data, user, &text).await.unwrap_or_else(|e| {
                    tracing::warn!(error = %e, "a DM failed; mentioning in the game instead");
                    false
                })
            };
            if let Some(v) = &view {
                if !known_closed {
                    data.service.players().record_dm(v.game, user, sent).await?;
                }
                if let (false, Some(fallback)) = (sent, fallback) {
                    // The fallback stands for the DM: it needs its member.
                    post_in_place(http, data, v, &fallback, &[user]).await?;
                }
            }
            Ok(())
        }
    }
}

/// A plain message in a game's place (silent when everyone it mentions turned pings off).
async fn post_in_place(
    http: &serenity::Http,
    data: &Data,
    view: &LobbyView,
    text: &str,
    needed: &[i64],
) -> Result<(), Error> {
    if let Some(place) = place_of(view) {
        let msg = place_message(data, Some(view.game), text, needed).await;
        data.pace.counted().await;
        place.send_message(http, msg).await?;
    }
    Ok(())
}

/// Answers a command with a short ephemeral text: edits the deferred response, or replies.
/// After a public deferral (a shared `/rules`) the text is the asker's alone: the
/// public "thinking…" goes away and a private follow-up says it. (A follow-up sent straight
/// after a deferral would instead fill in the public one, ephemeral flag ignored: Discord's
/// backward-compatible behaviour.)
pub async fn reply_text(ctx: Context<'_>, text: &str) -> Result<(), Error> {
    if let Context::Application(actx) = ctx {
        if actx
            .has_sent_initial_response
            .load(std::sync::atomic::Ordering::SeqCst)
        {
            if ctx.invocation_data::<super::PublicAnswer>().await.is_some() {
                actx.interaction.delete_response(ctx.http()).await?;
                actx.interaction
                    .create_followup(
                        ctx.http(),
                        serenity::CreateInteractionResponseFollowup::new()
                            .content(content(text))
                            .allowed_mentions(nobody())
                            .ephemeral(true),
                    )
                    .await?;
                return Ok(());
            }
            actx.interaction
                .edit_response(
                    ctx.http(),
                    EditInteractionResponse::new()
                        .content(content(text))
                        .allowed_mentions(nobody()),
                )
                .await?;
            return Ok(());
        }
    }
    ctx.send(
        poise::CreateReply::default()
            .content(content(text))
            .allowed_mentions(nobody())
            .ephemeral(true),
    )
    .await?;
    Ok(())
}

/// Edits the deferred (ephemeral) response of a command; it pings nobody.
pub async fn edit(ctx: Context<'_>, edit: EditInteractionResponse) -> Result<(), Error> {
    if let Context::Application(actx) = ctx {
        let edit = edit.allowed_mentions(nobody());
        actx.interaction.edit_response(ctx.http(), edit).await?;
    }
    Ok(())
}

/// Posts a lobby in its channel as an ordinary message (paced, under the nonce `l{game}` so a
/// retry after a lost answer cannot post it twice), pinging only `invited` (a rematch's
/// players; nobody for `/play`), and records it as the lobby's message.
pub async fn post_lobby(
    http: &serenity::Http,
    data: &Data,
    view: LobbyView,
    invited: &[i64],
) -> Result<LobbyView, Error> {
    let lang = view.lang;
    let Some(channel) = view.channel else {
        return Ok(view);
    };
    let channel = serenity::ChannelId::new(id_u64(channel).max(1));
    // The invited members are asked to come back: the lobby needs them.
    let mention_text: String = invited
        .iter()
        .map(|u| format!("<@{}> ", id_u64(*u)))
        .collect();
    let (pings, quiet) = pings_of(data, Some(view.game), &mention_text, invited).await;
    let msg = silenced(CreateMessage::new(), quiet)
        .content(content(&view.text(lang)))
        .allowed_mentions(pings)
        .components(lobby_rows(&view, lang))
        .nonce(serenity::Nonce::String(format!("l{}", view.game.0)))
        .enforce_nonce(true);
    let posted = posting(&data.pace, "post a lobby", || {
        channel.send_message(http, msg.clone())
    })
    .await?;
    data.service
        .lobbies()
        .set_lobby_message(view.game, id_i64(posted.id.get()))
        .await?;
    Ok(data.service.lobbies().lobby(view.game).await?)
}

/// A link to a lobby's message (or its channel).
pub fn lobby_link(view: &LobbyView) -> String {
    match (view.guild, view.channel, view.lobby_message) {
        (Some(g), Some(c), Some(m)) => format!(
            "https://discord.com/channels/{}/{}/{}",
            id_u64(g),
            id_u64(c),
            id_u64(m)
        ),
        (_, Some(c), _) => format!("<#{}>", id_u64(c)),
        _ => String::new(),
    }
}

/// A plain message (cut to Discord's limit) that pings exactly the users it mentions.
pub fn text_message(text: &str) -> CreateMessage {
    let text = content(text);
    CreateMessage::new()
        .allowed_mentions(allowed(&text))
        .content(text)
}

/// The author as the store keeps them.
pub fn author_id(ctx: Context<'_>) -> i64 {
    id_i64(ctx.author().id.get())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{PromptInfo, Seat, Version};

    fn board(options: usize, mention: Option<i64>) -> BoardPost {
        BoardPost {
            game: GameId(7),
            version: Version(3),
            clock_rev: 0,
            events: Vec::new(),
            text: "➡️ Ann: pick".into(),
            prompt: Some(PromptInfo {
                seat: Seat(0),
                kind: "pick",
                text: Text::raw("pick"),
                options: (0..options).map(|i| format!("opt {i}")).collect(),
                private: false,
                secrecy: crate::engine::Secrecy::Public,
            }),
            mention,
            silent: false,
            muted: false,
            deadline: None,
            scores: vec![0, 0],
            outcome: None,
            png: vec![1, 2, 3],
            alt: "a board".into(),
        }
    }

    fn ids(rows: &[CreateActionRow]) -> Vec<Vec<String>> {
        let json = serde_json::to_value(rows).unwrap_or_default();
        json.as_array()
            .map(|rows| {
                rows.iter()
                    .map(|r| {
                        r["components"]
                            .as_array()
                            .map(|cs| {
                                cs.iter()
                                    .map(|c| c["custom_id"].as_str().unwrap_or("?").to_string())
                                    .collect()
                            })
                            .unwrap_or_default()
                    })
                    .collect()
            })
            .unwrap_or_default()
    }

    #[test]
    fn board_buttons_carry_game_version_and_index() {
        let rows = ids(&board_rows(&board(6, Some(5)), false, Lang::En));
        assert_eq!(
            rows,
            vec![
                vec!["g:7:3:0", "g:7:3:1", "g:7:3:2", "g:7:3:3", "g:7:3:4"],
                vec!["g:7:3:5"],
                vec!["z:7", "b:7:ask"]
            ]
        );
        // With hidden hands, the last row has "Show my hand" before Zoom, then "Ask to take
        // back".
        let rows = ids(&board_rows(&board(6, Some(5)), true, Lang::En));
        assert_eq!(
            rows.last(),
            Some(&vec![
                "h:7".to_string(),
                "z:7".to_string(),
                "b:7:ask".to_string()
            ])
        );
        assert_eq!(
            board_content(&board(6, Some(5)), Lang::En),
            "<@5> ➡️ Ann: pick"
        );
    }

    #[test]
    fn the_ping_and_the_turn_line_come_first_and_a_long_event_list_never_cuts_them() {
        let mut b = board(3, Some(5));
        b.events = vec!["Bob played 7.".into(), "Cy drew.".into()];
        b.text = format!("{}\n➡️ Ann: pick", b.events.join("\n"));
        assert_eq!(
            board_content(&b, Lang::En),
            "<@5> ➡️ Ann: pick\nBob played 7.\nCy drew."
        );
        b.events = (0..300)
            .map(|i| format!("event {i}: something happened"))
            .collect();
        b.text = format!("{}\n➡️ Ann: pick", b.events.join("\n"));
        let shown = board_content(&b, Lang::En);
        assert!(shown.chars().count() <= 2000, "{}", shown.len());
        assert!(shown.starts_with("<@5> ➡️ Ann: pick\n…\nevent "), "{shown}");
        assert!(shown.ends_with("event 299: something happened"), "{shown}");
        assert!(!shown.contains("event 0:"));
        // A game over: the result first, nobody pinged.
        let mut over = board(0, None);
        over.prompt = None;
        over.events = vec!["Ann wins.".into()];
        over.text = "Ann wins.".into();
        assert_eq!(board_content(&over, Lang::En), "Ann wins.");
    }

    #[test]
    fn many_options_become_a_menu_then_a_hint() {
        let menu =
            serde_json::to_value(board_rows(&board(25, None), false, Lang::Fr)).unwrap_or_default();
        assert_eq!(menu[0]["components"][0]["custom_id"], "s:7:3");
        assert_eq!(
            menu[0]["components"][0]["placeholder"],
            "Choisissez une option"
        );
        assert_eq!(
            menu[0]["components"][0]["options"].as_array().map(Vec::len),
            Some(25)
        );
        // 26 to 100 options that do not group: one menu per 25.
        let menus = ids(&board_rows(&board(26, None), false, Lang::En));
        assert_eq!(
            menus,
            [vec!["s:7:3"], vec!["s:7:3:1"], vec!["z:7", "b:7:ask"]]
        );
        let too_many = board(101, None);
        assert_eq!(
            ids(&board_rows(&too_many, false, Lang::En)),
            [vec!["z:7", "b:7:ask"]]
        );
        assert!(board_content(&too_many, Lang::En).ends_with("type /move and pick from the list."));
    }

    #[test]
    fn long_prompts_that_group_get_a_group_menu() {
        let mut b = board(0, None);
        if let Some(p) = b.prompt.as_mut() {
            p.options = ('a'..='s')
                .flat_map(|t| [format!("rot {t} cw"), format!("rot {t} ccw")])
                .collect();
        }
        let rows = serde_json::to_value(board_rows(&b, false, Lang::En)).unwrap_or_default();
        let menu = &rows[0]["components"][0];
        assert_eq!(menu["custom_id"], "o:7:3");
        assert_eq!(menu["placeholder"], "Choose what to act on");
        assert_eq!(menu["options"].as_array().map(Vec::len), Some(19));
        assert_eq!(menu["options"][9]["label"], "j · rot");
        assert!(!board_content(&b, Lang::En).contains("/move"));
    }

    #[test]
    fn lobby_buttons_until_the_game_starts_then_follow() {
        let mut view = LobbyView {
            game: GameId(4),
            kind: crate::engine::GameKind::Cortexcape,
            options: Default::default(),
            host: Some(1),
            seats: Vec::new(),
            min: 2,
            max: 4,
            status: GameStatus::Lobby,
            version: Version(0),
            guild: None,
            channel: Some(10),
            thread: None,
            bot_level: crate::ai::Level::Normal,
            bot_delay: 0,
            lobby_message: None,
            board_message: None,
            lang: Lang::En,
            casual: false,
            lesson: false,
            lost: false,
            clock_secs: None,
            idle: false,
            min_reliable: None,
            records: Vec::new(),
            invitees: Vec::new(),
            invite_only: false,
        };
        assert_eq!(
            ids(&lobby_rows(&view, Lang::En)),
            vec![
                vec!["l:4:join", "l:4:leave", "l:4:start", "l:4:cancel"],
                vec!["l:4:bot"]
            ]
        );
        assert_eq!(place_of(&view), Some(serenity::ChannelId::new(10)));
        view.thread = Some(11);
        assert_eq!(place_of(&view), Some(serenity::ChannelId::new(11)));
        // Started in a thread: spectators may follow it; played in the channel, or cancelled:
        // nothing.
        view.status = GameStatus::Active;
        assert_eq!(ids(&lobby_rows(&view, Lang::En)), vec![vec!["l:4:follow"]]);
        view.thread = None;
        assert!(lobby_rows(&view, Lang::En).is_empty());
        view.thread = Some(11);
        view.status = GameStatus::Cancelled;
        assert!(lobby_rows(&view, Lang::En).is_empty());
        // Over: a rematch, with or without a thread.
        view.status = GameStatus::Finished;
        assert_eq!(ids(&lobby_rows(&view, Lang::En)), vec![vec!["l:4:rematch"]]);
    }

    #[test]
    fn a_silent_board_carries_discords_silent_flag_and_keeps_its_mention() {
        let b = board(3, Some(5));
        let loud = serde_json::to_value(silenced(board_message(&b, false, Lang::En), false))
            .unwrap_or_default();
        assert!(loud.get("flags").is_none(), "{loud}");
        let quiet = serde_json::to_value(silenced(board_message(&b, false, Lang::En), true))
            .unwrap_or_default();
        assert_eq!(quiet["flags"], 1 << 12);
        // Still a mention (the player's badge), only without a push.
        assert_eq!(quiet["allowed_mentions"]["users"], serde_json::json!(["5"]));
        assert_eq!(quiet["content"], loud["content"]);
    }

    #[test]
    fn a_finished_board_keeps_only_zoom() {
        let mut b = board(3, None);
        b.prompt = None;
        b.outcome = Some(crate::engine::Outcome::from_scores(vec![1, 2], true));
        assert_eq!(ids(&board_rows(&b, true, Lang::En)), [vec!["z:7"]]);
    }
}
