//! Pings on your terms (issue 40 item 4): how each game pings a member (`all`, `my_turn`,
//! `mute`), and reminders at the points of a turn a member chooses.
//!
//! How it combines with the rest:
//! - A game's mode says whether a mention of the member pings at all. A mention that needs them
//!   (the board of their turn, a question put to them, a reminder's fallback) pings under
//!   `all` and `my_turn`; any other (a result, clock or seat news) only under `all`. Under
//!   `mute` nothing of the game pings: the name is still written, Discord is told not to ping.
//! - The global `/settings pings` then says how a ping that goes arrives: off, it is silent
//!   (no notification, the mention badge only).
//! - A muted game's reminders are not sent, except the last call: a missed deadline costs the
//!   member their turn (skipped, played by a bot or their seat opened) and counts in their
//!   record, and `/settings reminders:off` turns even that off for those who want nothing.
//! - Vacation still pauses every clock and names the member in each game; that names, and
//!   never pings.

use super::{LobbyError, Players, ServiceError};
use crate::engine::GameId;
use crate::model::GamePings;

/// At most this many reminder points per turn.
pub const MAX_REMINDER_POINTS: usize = 3;
/// Each point is between these percents of the turn's time left.
pub const REMINDER_PCT: std::ops::RangeInclusive<u8> = 5..=95;
/// Two points are at least this many percents apart.
pub const MIN_POINT_GAP_PCT: u8 = 5;
/// Two reminders of one turn are at least this far apart (seconds): the scheduler's spacing.
pub const MIN_REMINDER_GAP_SECS: i64 = 60;

/// A member's reminders as `/settings reminders:` reads them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReminderChoice {
    /// The server's plan (`default`).
    Server,
    /// No reminder at all, the last call included (`off`).
    Off,
    /// Percents of the turn's time left, largest first.
    At(Vec<u8>),
}

impl ReminderChoice {
    /// As stored with the member's settings.
    pub fn stored(&self) -> Option<Vec<u8>> {
        match self {
            ReminderChoice::Server => None,
            ReminderChoice::Off => Some(Vec::new()),
            ReminderChoice::At(points) => Some(points.clone()),
        }
    }

    /// From the member's settings.
    pub fn of(stored: Option<&[u8]>) -> ReminderChoice {
        match stored {
            None => ReminderChoice::Server,
            Some([]) => ReminderChoice::Off,
            Some(points) => ReminderChoice::At(points.to_vec()),
        }
    }
}

/// Reads `/settings reminders:`: `off`, `default`, or up to three percents of the turn's time
/// left ("50% 10%", "50, 10"), each within [`REMINDER_PCT`] and [`MIN_POINT_GAP_PCT`] apart.
pub fn parse_reminders(input: &str) -> Result<ReminderChoice, LobbyError> {
    let text = input.trim().to_lowercase();
    match text.as_str() {
        "off" | "none" | "non" | "aucun" | "aucuns" => return Ok(ReminderChoice::Off),
        "default" | "server" | "défaut" | "defaut" | "serveur" => {
            return Ok(ReminderChoice::Server)
        }
        _ => {}
    }
    let unread = || LobbyError::RemindersUnread(input.trim().chars().take(40).collect());
    let mut points = Vec::new();
    for word in text
        .split(|c: char| c.is_whitespace() || c == ',' || c == ';')
        .filter(|w| !w.is_empty())
    {
        let digits = word.trim_end_matches('%').trim();
        if digits.is_empty() || !digits.chars().all(|c| c.is_ascii_digit()) {
            return Err(unread());
        }
        let pct: u32 = digits.parse().map_err(|_| unread())?;
        let pct = u8::try_from(pct)
            .ok()
            .filter(|p| REMINDER_PCT.contains(p))
            .ok_or(LobbyError::RemindersRange)?;
        points.push(pct);
        if points.len() > MAX_REMINDER_POINTS {
            return Err(LobbyError::RemindersTooMany);
        }
    }
    if points.is_empty() {
        return Err(unread());
    }
    points.sort_unstable_by(|a, b| b.cmp(a));
    if points.windows(2).any(|w| w[0] - w[1] < MIN_POINT_GAP_PCT) {
        return Err(LobbyError::RemindersTooClose);
    }
    Ok(ReminderChoice::At(points))
}

impl Players<'_> {
    /// How `game` pings `user`.
    pub async fn game_pings(self, game: GameId, user: i64) -> Result<GamePings, ServiceError> {
        Ok(self.core.store.game_pings(game, user).await?)
    }

    /// Whether `user` may choose how `game` pings them: they hold one of its seats. Changes
    /// nothing.
    pub async fn may_set_game_pings(self, game: GameId, user: i64) -> Result<(), ServiceError> {
        let record = self.core.store.game(game).await?;
        if !record.seats.iter().any(|s| s.user == Some(user)) {
            return Err(ServiceError::NotSeated);
        }
        Ok(())
    }

    /// `/settings game_pings:`: how `game` pings `user`, one of its seated players. Anyone
    /// else, or a game that does not exist, is refused and nothing changes.
    pub async fn set_game_pings(
        self,
        game: GameId,
        user: i64,
        mode: GamePings,
        now: i64,
    ) -> Result<GamePings, ServiceError> {
        self.may_set_game_pings(game, user).await?;
        self.core
            .store
            .set_game_pings(game, user, mode, now)
            .await?;
        Ok(mode)
    }

    /// Of the members a message in `game` mentions, those it pings, and whether it goes out
    /// silently (every one of them turned `/settings pings` off). `needed`: the members it
    /// needs (their turn, a question to them); the others are pinged only by a game left at
    /// `all`. A setting that cannot be read pings: a missed preference is better than a
    /// missed turn.
    pub async fn pinged(
        self,
        game: Option<GameId>,
        mentioned: &[i64],
        needed: &[i64],
    ) -> (Vec<i64>, bool) {
        let mut pinged = Vec::new();
        let mut silent = true;
        for &user in mentioned {
            let mode = match game {
                Some(g) => self.core.store.game_pings(g, user).await.unwrap_or_else(|e| {
                    tracing::warn!(game = %g, error = %e, "could not read a member's game pings");
                    GamePings::All
                }),
                None => GamePings::All,
            };
            if !mode.pings(needed.contains(&user)) {
                continue;
            }
            pinged.push(user);
            match self.core.store.user_settings(user).await {
                Ok(s) if !s.pings => {}
                Ok(_) => silent = false,
                Err(e) => {
                    tracing::warn!(error = %e, "could not read a player's pings setting");
                    silent = false;
                }
            }
        }
        let silent = silent && !pinged.is_empty();
        (pinged, silent)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reminder_points_are_read_within_limits() {
        let at = |v: &[u8]| Ok(ReminderChoice::At(v.to_vec()));
        assert_eq!(parse_reminders("50% 10%"), at(&[50, 10]));
        assert_eq!(parse_reminders(" 10, 50 ,25% "), at(&[50, 25, 10]));
        assert_eq!(parse_reminders("OFF"), Ok(ReminderChoice::Off));
        assert_eq!(parse_reminders("défaut"), Ok(ReminderChoice::Server));
        assert_eq!(
            parse_reminders("50 40 30 20"),
            Err(LobbyError::RemindersTooMany)
        );
        assert_eq!(parse_reminders("99%"), Err(LobbyError::RemindersRange));
        assert_eq!(parse_reminders("4"), Err(LobbyError::RemindersRange));
        assert_eq!(parse_reminders("1000000"), Err(LobbyError::RemindersRange));
        assert_eq!(parse_reminders("50 48"), Err(LobbyError::RemindersTooClose));
        assert_eq!(parse_reminders("50 50"), Err(LobbyError::RemindersTooClose));
        for bad in ["", "half", "-5", "5.5%", "%", "12h"] {
            assert!(
                matches!(parse_reminders(bad), Err(LobbyError::RemindersUnread(_))),
                "{bad}"
            );
        }
    }

    #[test]
    fn a_stored_choice_reads_back() {
        for choice in [
            ReminderChoice::Server,
            ReminderChoice::Off,
            ReminderChoice::At(vec![60, 20]),
        ] {
            assert_eq!(ReminderChoice::of(choice.stored().as_deref()), choice);
        }
    }
}
