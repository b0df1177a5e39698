//! What the service hands to a front end after a change: the board post and private posts.

use image::RgbaImage;
use serde::Serialize;

use super::{render_ctx, text_ctx, Loaded, LobbyView};
use crate::engine::{AnyGame, AppliedMove, GameId, Outcome, PromptInfo, Seat, Version};
use crate::i18n::{Lang, Text};
use crate::store::GameStatus;

/// The public message for the game's channel or thread.
#[derive(Clone, Debug, Serialize)]
pub struct BoardPost {
    pub game: GameId,
    pub version: Version,
    /// The turn clock's revision: a board posted again at the same version after a seat
    /// changed hands (`/replace`) is a new board, not a repeat of the first.
    #[serde(skip)]
    pub clock_rev: i64,
    /// What just happened, one line per event.
    pub events: Vec<String>,
    /// Events, whose turn, and the prompt: the message text.
    pub text: String,
    /// The pending decision (options as notation), `None` when over.
    pub prompt: Option<PromptInfo>,
    /// The front-end user to ping, if the seat that must decide has one.
    pub mention: Option<i64>,
    /// That user turned pings off (`/settings pings`): the board goes out without a ping.
    pub silent: bool,
    /// That user muted this game (`/settings game_pings:mute`): named, never pinged.
    pub muted: bool,
    /// When the turn's clock runs out (unix seconds), if a clock runs.
    pub deadline: Option<i64>,
    pub scores: Vec<i64>,
    pub outcome: Option<Outcome>,
    /// The board image as PNG.
    #[serde(skip)]
    pub png: Vec<u8>,
    /// Text summary of the image (alt text).
    pub alt: String,
}

/// The Zoom answer (phones): the parts of the current board that matter to one member, cut at
/// full size. Only what the public board shows, so anyone may ask for it.
#[derive(Clone, Debug)]
pub struct ZoomPost {
    pub png: Vec<u8>,
    /// What each part shows, top to bottom.
    pub parts: Vec<String>,
    /// Text summary of the board (alt text).
    pub alt: String,
}

/// A private message for one seat (hidden hands). Never shown in the channel.
#[derive(Clone, Debug, Serialize)]
pub struct PrivatePost {
    pub seat: Seat,
    /// The game and the version this hand is of (a DM's nonce, so a retried DM is sent once).
    #[serde(skip)]
    pub game: GameId,
    #[serde(skip)]
    pub version: Version,
    pub user: Option<i64>,
    pub text: String,
    #[serde(skip)]
    pub png: Vec<u8>,
    /// The player keeps hand DMs on (`/settings hand_dms`); otherwise they pull it themselves.
    pub by_dm: bool,
}

#[derive(Clone, Debug, Serialize)]
pub struct Outputs {
    pub board: BoardPost,
    /// Private posts of the seats whose private view changed (hands to DM).
    pub private: Vec<PrivatePost>,
    /// The game has hidden hands at all (boards then offer "Show my hand").
    pub hands: bool,
    /// For the actor only: why the end of their typed line was refused while its start was
    /// played ([`crate::engine::PlayError::Stopped`]).
    pub refused: Option<Text>,
    /// The game as this change left it: its place, its seats (names, users, DM states) and its
    /// live board message, so a front end posts everything without reading the game again.
    #[serde(skip)]
    pub table: LobbyView,
    /// The language the posts are written in (the one asked for when they were made).
    #[serde(skip)]
    pub lang: Lang,
    /// A player's move after which the same seat decides again (an intermediate step of
    /// their turn: a front end updates the board in place). Always false for other changes.
    pub same_decider: bool,
}

/// Something the scheduler or a clock, seat or settings change asks a front end to send. Texts
/// are rendered already (in the game's language, or the user's for a DM).
#[derive(Clone, Debug)]
pub enum Notice {
    /// A new board after the scheduler played for a seat; its text starts with why.
    Board(Box<Outputs>),
    /// A message in the game's place (thread, else channel). The members it mentions are
    /// pinged only where their game pings them for everything (`/settings game_pings:all`).
    Place { game: GameId, text: String },
    /// A message in the game's place that needs `users` (a question put to them, their turn's
    /// reminder): they are pinged unless they muted the game; others it mentions as in `Place`.
    Call {
        game: GameId,
        users: Vec<i64>,
        text: String,
    },
    /// A direct message. If the user's DMs are closed, `fallback` (which mentions them) is
    /// posted in the game's place instead, when there is a game.
    Dm {
        user: i64,
        game: Option<GameId>,
        text: String,
        fallback: Option<String>,
    },
    /// A seat's hidden hand for its new holder, by DM.
    Private { game: GameId, post: PrivatePost },
    /// A lobby closed by the scheduler: its message becomes `text`, without buttons.
    LobbyClosed { game: GameId, text: String },
    /// A finished game's grace is over: its thread is archived.
    Archive { game: GameId },
}

/// A duration for people: `3 d 4 h`, `5 h 20 min`, `12 min`.
pub fn human_duration(secs: i64, lang: Lang) -> String {
    duration_text(secs).render(lang)
}

/// A length in words as a text to render in the reader's language ("1 d 2 h", "1 j 2 h"),
/// to its largest two units, at least a minute.
pub fn duration_text(secs: i64) -> Text {
    use crate::clock::{DAY, HOUR, MINUTE};
    let secs = secs.max(0);
    let (d, h, m) = (secs / DAY, secs % DAY / HOUR, secs % HOUR / MINUTE);
    match (d, h) {
        (0, 0) => Text::new("core.duration.m").arg("m", m.max(1)),
        (0, _) if m > 0 => Text::new("core.duration.h_m").arg("h", h).arg("m", m),
        (0, _) => Text::new("core.duration.h").arg("h", h),
        (_, 0) => Text::new("core.duration.d").arg("d", d),
        _ => Text::new("core.duration.d_h").arg("d", d).arg("h", h),
    }
}

/// Encodes a board image as an indexed PNG: the board reduced to 256 colours (every colour
/// that covers a patch kept exactly, see `render::quantize`), one byte per pixel, zlib level 1
/// without row filters (flat fills and text compress best unfiltered; higher levels cost 3-5x
/// the time for little). Against the RGB PNG of before, about half the bytes in less time,
/// which is what a board costs to upload at 1 MB/s (figures in BENCHMARKS.md, issue 21).
pub fn encode_png(img: &RgbaImage) -> Vec<u8> {
    encode_indexed(
        img,
        png::DeflateCompression::Level(1),
        png::Filter::NoFilter,
    )
}

/// The board as 256 colours with another deflate or filter (the render bench compares them).
pub fn encode_indexed(
    img: &RgbaImage,
    compression: png::DeflateCompression,
    filter: png::Filter,
) -> Vec<u8> {
    let indexed = crate::render::quantize::quantize(img);
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, indexed.width, indexed.height);
    encoder.set_color(png::ColorType::Indexed);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_palette(indexed.palette.concat());
    encoder.set_deflate_compression(compression);
    encoder.set_filter(filter);
    // Writing a header and one buffer of the declared size to memory cannot fail.
    if let Ok(mut writer) = encoder.write_header() {
        let _ = writer.write_image_data(&indexed.indices);
    }
    out
}

/// The board as a lossless RGB PNG (what golden files are stored as; the bench's reference).
pub fn encode_rgb(
    img: &RgbaImage,
    compression: image::codecs::png::CompressionType,
    filter: image::codecs::png::FilterType,
) -> Vec<u8> {
    use image::ImageEncoder;
    let rgb: Vec<u8> = img
        .as_raw()
        .chunks_exact(4)
        .flat_map(|px| [px[0], px[1], px[2]])
        .collect();
    let mut out = Vec::new();
    // Encoding a buffer of the declared size to memory cannot fail.
    let _ = image::codecs::png::PngEncoder::new_with_quality(&mut out, compression, filter)
        .write_image(
            &rgb,
            img.width(),
            img.height(),
            image::ExtendedColorType::Rgb8,
        );
    out
}

/// The Zoom answer of the current board for `user` (their own area first when seated).
pub fn zoom_post(loaded: &Loaded, user: i64, lang: Lang) -> Option<ZoomPost> {
    let viewer = loaded.seat_of_user(user);
    let (img, parts) = timed("zoom", || {
        loaded.game.render_zoom(&render_ctx(loaded, lang), viewer)
    })?;
    Some(ZoomPost {
        png: encode_timed(&img),
        parts,
        alt: loaded.game.public_summary(&text_ctx(loaded, lang)),
    })
}

/// Runs a render, its time recorded (`croupier_render_seconds`, by `what`).
fn timed<T>(what: &'static str, render: impl FnOnce() -> T) -> T {
    let started = std::time::Instant::now();
    let out = render();
    metrics::histogram!(crate::ops::RENDER_SECONDS, "what" => what)
        .record(started.elapsed().as_secs_f64());
    out
}

/// [`encode_png`], its time recorded (`croupier_encode_seconds`).
fn encode_timed(img: &RgbaImage) -> Vec<u8> {
    let started = std::time::Instant::now();
    let png = encode_png(img);
    metrics::histogram!(crate::ops::ENCODE_SECONDS).record(started.elapsed().as_secs_f64());
    png
}

/// The message text: what happened, then whose turn and what is asked (or the result).
pub fn board_text(loaded: &Loaded, events: &[String], lang: Lang) -> String {
    let names = loaded.names();
    let mut lines: Vec<String> = events.to_vec();
    match (loaded.game.prompt(), loaded.game.outcome()) {
        (Some(p), _) => {
            lines.push(
                Text::new("core.turn")
                    .arg("seat", p.seat)
                    .arg("ask", p.text.clone())
                    .render_with(lang, &names),
            );
            // A lesson's hint for the learner's step (`/learn`).
            if let Some(hint) = super::learn::hint(loaded, &p, lang) {
                lines.push(hint);
            }
        }
        // The game's own end event already says it when the end has just happened.
        (None, Some(outcome)) if events.is_empty() => {
            lines.push(outcome_text(&outcome).render_with(lang, &names));
        }
        (None, _) => {}
    }
    lines.join("\n")
}

/// "Game over. Winner: Ann (6)." or a draw.
pub fn outcome_text(outcome: &Outcome) -> Text {
    let standings: Vec<Text> = {
        let mut order: Vec<usize> = (0..outcome.scores.len()).collect();
        order.sort_by_key(|&i| (outcome.ranks[i], i));
        order
            .into_iter()
            .map(|i| {
                Text::new("core.standing")
                    .arg("rank", outcome.ranks[i])
                    .arg("seat", Seat::at(i))
                    .arg("score", outcome.scores[i])
            })
            .collect()
    };
    if outcome.draw {
        Text::new("core.outcome.draw").arg("standings", standings)
    } else if outcome.winners.is_empty() {
        // An unsolved or given-up puzzle.
        Text::new("core.outcome.nobody").arg("standings", standings)
    } else {
        let winners: Vec<Text> = outcome
            .winners
            .iter()
            .map(|s| Text::new("core.raw").arg("s", *s))
            .collect();
        Text::new("core.outcome.win")
            .arg("winners", winners)
            .arg("standings", standings)
    }
}

/// Every seat's private view, to compare before and after a change.
pub(super) fn private_views(game: &dyn AnyGame) -> Vec<Option<serde_json::Value>> {
    (0..game.seat_count())
        .map(|i| game.private_view_json(Seat::at(i)))
        .collect()
}

pub(super) fn after_change(loaded: &Loaded, applied: &[AppliedMove], lang: Lang) -> Outputs {
    build(loaded, applied, lang, None)
}

/// The first board of a game: its setup's public events (the game started, the first round)
/// head the board text.
pub(super) fn first_board(loaded: &Loaded, lang: Lang) -> Outputs {
    let mut out = build(loaded, &[], lang, None);
    let names = loaded.names();
    let events: Vec<String> = loaded
        .game
        .setup_texts()
        .iter()
        .map(|t| t.render_with(lang, &names))
        .collect();
    if !events.is_empty() {
        out.board.text = board_text(loaded, &events, lang);
        out.board.events = events;
    }
    out
}

/// Like [`after_change`], but renders and sends a hand only to the seats whose private view
/// differs from `before` ([`private_views`] taken before the change), so a player is not sent
/// the same hand again after every option someone else takes.
pub(super) fn after_change_since(
    loaded: &Loaded,
    applied: &[AppliedMove],
    lang: Lang,
    before: &[Option<serde_json::Value>],
) -> Outputs {
    build(loaded, applied, lang, Some(before))
}

/// One seat's private post (its hand image and text), if the game gives it one.
pub(super) fn private_post(loaded: &Loaded, seat: Seat, lang: Lang) -> Option<PrivatePost> {
    let img = timed("hand", || {
        loaded.game.render_private(seat, &render_ctx(loaded, lang))
    })?;
    Some(PrivatePost {
        seat,
        game: loaded.record.id,
        version: loaded.record.version,
        user: loaded.record.seats.get(seat.index()).and_then(|s| s.user),
        text: loaded.game.private_summary(seat, &text_ctx(loaded, lang))?,
        png: encode_timed(&img),
        by_dm: true,
    })
}

fn build(
    loaded: &Loaded,
    applied: &[AppliedMove],
    lang: Lang,
    before: Option<&[Option<serde_json::Value>]>,
) -> Outputs {
    let ctx = text_ctx(loaded, lang);
    let events = super::event_texts(applied, lang, &ctx.names);
    let prompt = loaded.game.prompt();
    let mention = prompt
        .as_ref()
        .and_then(|p| loaded.record.seats.get(p.seat.index()))
        .and_then(|s| s.user);
    let board = BoardPost {
        game: loaded.record.id,
        version: loaded.record.version,
        clock_rev: loaded.record.clock.rev,
        text: board_text(loaded, &events, lang),
        events,
        deadline: prompt
            .as_ref()
            .and(loaded.record.clock.deadline_at)
            .filter(|_| loaded.record.status == GameStatus::Active),
        prompt,
        mention,
        silent: false,
        muted: false,
        scores: loaded.game.scores(),
        outcome: loaded.game.outcome(),
        png: encode_timed(&timed("board", || {
            loaded.game.render_public(&render_ctx(loaded, lang))
        })),
        alt: loaded.game.public_summary(&ctx),
    };
    let views = private_views(loaded.game.as_ref());
    let hands = views.iter().any(Option::is_some);
    let private = views
        .iter()
        .enumerate()
        .filter(|(i, now)| before.is_none_or(|b| b.get(*i) != Some(*now)))
        .filter_map(|(i, _)| private_post(loaded, Seat::try_at(i)?, lang))
        .collect();
    Outputs {
        board,
        private,
        hands,
        refused: None,
        table: LobbyView::of_loaded(loaded),
        lang,
        same_decider: false,
    }
}

/// Where a game is played, as a link: to its live board when it has one (empty when the game
/// has no place).
pub(super) fn place_link(record: &crate::store::GameRecord) -> String {
    link(
        record.guild,
        record.thread.or(record.channel),
        record.board_message,
    )
}

/// A link to `message` in `place` (or to the place), in `guild`.
pub(super) fn link(guild: Option<i64>, place: Option<i64>, message: Option<i64>) -> String {
    match (guild, place, message) {
        (Some(g), Some(c), Some(m)) => format!(
            "https://discord.com/channels/{}/{}/{}",
            id_u64(g),
            id_u64(c),
            id_u64(m)
        ),
        (Some(g), Some(c), None) => {
            format!("https://discord.com/channels/{}/{}", id_u64(g), id_u64(c))
        }
        (None, Some(c), _) => format!("<#{}>", id_u64(c)),
        _ => String::new(),
    }
}

/// A deadline as Discord shows it to each reader in their own time zone and language: how
/// far off it is ("in 5 hours"), then the date and time.
pub fn due(deadline: i64) -> String {
    format!("<t:{deadline}:R> (<t:{deadline}:f>)")
}

pub(super) fn mention(user: i64) -> String {
    format!("<@{}>", id_u64(user))
}

/// Front-end ids are u64 stored as i64 (same bits).
pub(super) fn id_u64(id: i64) -> u64 {
    u64::from_ne_bytes(id.to_ne_bytes())
}
