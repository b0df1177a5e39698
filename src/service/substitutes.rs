//! Substitutes (issue 40 item 7): members who offer to step into a game of a server when one
//! of its seats opens, by a timeout under the `open` policy or by `/kick`. They are told first,
//! each by DM, and the first of them to ask takes the seat (`/sub take`); the host or a
//! moderator may still give it with `/replace` meanwhile. An open seat needs nobody's
//! agreement (`players::must_agree`), so a substitute gets it, hand and all, at once. A game
//! opened with `reliable:` asks a substitute the same figure as a player joining its lobby.

use super::core::game_lang;
use super::core::Core;
use super::output::{mention, place_link, Notice};
use super::players::{seat_index, Newcomer};
use super::{Actor, LobbyError, Players, ServiceError};
use crate::engine::{GameId, GameKind, Seat};
use crate::i18n::{Lang, Text};
use crate::store::GameRecord;

/// Substitutes told when a seat opens, the longest waiting first: a DM each, so a server's
/// large pool costs a handful of requests, not one per member.
pub const TOLD_AT_MOST: usize = 5;

impl Players<'_> {
    /// `/sub offer`: `user` becomes a substitute for `kind` on `guild`. False when they were
    /// one already.
    pub async fn offer_substitute(
        self,
        guild: Option<i64>,
        kind: GameKind,
        user: i64,
        now: i64,
    ) -> Result<bool, ServiceError> {
        let guild = guild.ok_or(LobbyError::NoServer)?;
        Ok(self
            .core
            .store
            .add_substitute(guild, kind, user, now)
            .await?)
    }

    /// `/sub withdraw`: `user` is no substitute for `kind` on `guild` any more. False when
    /// they were not one.
    pub async fn withdraw_substitute(
        self,
        guild: Option<i64>,
        kind: GameKind,
        user: i64,
    ) -> Result<bool, ServiceError> {
        let guild = guild.ok_or(LobbyError::NoServer)?;
        Ok(self.core.store.remove_substitute(guild, kind, user).await?)
    }

    /// The games `user` substitutes for on `guild`.
    pub async fn substitute_games(
        self,
        guild: Option<i64>,
        user: i64,
    ) -> Result<Vec<GameKind>, ServiceError> {
        let guild = guild.ok_or(LobbyError::NoServer)?;
        Ok(self.core.store.substitute_kinds(guild, user).await?)
    }

    /// `/sub take`: a substitute for the game's kind on its server takes an open seat of it
    /// (`seat_number`, else the first open one), and leaves that game's pool: one offer, one
    /// seat. The seat's turn, if it is its turn, starts again with a full clock.
    pub async fn take_open_seat(
        self,
        game: GameId,
        user: i64,
        name: String,
        seat_number: Option<usize>,
        now: i64,
    ) -> Result<Vec<Notice>, ServiceError> {
        let loaded = self.core.load_active(game, None).await?;
        let record = &loaded.record;
        let (guild, kind) = (record.guild.ok_or(LobbyError::NoServer)?, record.kind);
        if self.core.seat_of(&loaded, Actor::User(user)).is_ok() {
            return Err(LobbyError::AlreadyInGame.into());
        }
        let seat = match seat_number {
            Some(n) => {
                let seat = seat_index(&record.seats, n)?;
                if !record.seats[seat.index()].vacant {
                    return Err(LobbyError::SeatNotOpen(n).into());
                }
                seat
            }
            None => record
                .seats
                .iter()
                .position(|s| s.vacant)
                .map(Seat::at)
                .ok_or(LobbyError::NoOpenSeat(game))?,
        };
        if !self
            .core
            .store
            .substitute_kinds(guild, user)
            .await?
            .contains(&kind)
        {
            return Err(LobbyError::NotSubstitute(kind).into());
        }
        // A game opened with `reliable:` asks a substitute what it asked its players.
        if let Some(min) = record.min_reliable {
            super::reliability::require(self.core, user, min, now).await?;
        }
        let notices = self
            .hand_over(loaded, seat, Newcomer::User { id: user, name }, now)
            .await?;
        self.core.store.remove_substitute(guild, kind, user).await?;
        Ok(notices)
    }
}

/// What opening `seat` of `record` tells its server's substitutes for the game: a DM each
/// (in their own language; a mention in the game's place when their DMs are closed), none
/// to a member seated in it or away on vacation, and a line for the place saying how many
/// were told (`None` when nobody was).
pub(super) async fn tell_substitutes(
    core: &Core,
    record: &GameRecord,
    seat: Seat,
    now: i64,
) -> Result<(Option<String>, Vec<Notice>), ServiceError> {
    let Some(guild) = record.guild else {
        return Ok((None, Vec::new()));
    };
    // A few more than told, so that those seated here or away do not shrink the offer.
    let pool = core
        .store
        .substitutes(guild, record.kind, TOLD_AT_MOST + record.seats.len())
        .await?;
    let mut told = Vec::new();
    for user in pool {
        if told.len() == TOLD_AT_MOST {
            break;
        }
        if record
            .seats
            .iter()
            .any(|s| s.user == Some(user) && !s.vacant)
        {
            continue;
        }
        let settings = core.store.user_settings(user).await?;
        if settings.vacation_until.is_some_and(|v| v > now) {
            continue;
        }
        let lang = settings
            .locale
            .as_deref()
            .map_or_else(|| game_lang(record), Lang::from_locale);
        let offer = |lang| {
            Text::new("bot.sub.offer")
                .arg("game", record.kind.display_name())
                .arg("id", record.id.0)
                .arg("n", seat.index() + 1)
                .arg("link", place_link(record))
                .render(lang)
        };
        let fallback = Text::new("bot.sub.offer_here")
            .arg("user", mention(user))
            .arg("id", record.id.0)
            .render(game_lang(record));
        told.push(if settings.dm_enabled {
            Notice::Dm {
                user,
                game: Some(record.id),
                text: offer(lang),
                fallback: Some(fallback),
            }
        } else {
            Notice::Call {
                game: record.id,
                users: vec![user],
                text: fallback,
            }
        });
    }
    if told.is_empty() {
        return Ok((None, told));
    }
    let line = Text::new("bot.sub.told")
        .arg("count", told.len())
        .arg("game", record.kind.display_name())
        .arg("id", record.id.0)
        .render(game_lang(record));
    Ok((Some(line), told))
}
