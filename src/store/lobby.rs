//! Lobbies: a game with status `lobby` whose seats fill and empty before it starts.
//!
//! Every lobby write is one transaction whose FIRST statement is a guarded `UPDATE games`
//! (status still `lobby`; version+1), for the same locking reason as the game writes (see the
//! module doc of `store`). Seats stay numbered 0, 1, 2… after someone leaves.

use sqlx::{AnyConnection, AssertSqlSafe};

use super::{
    bool_i64, get, get_status, next_version, version_i64, DmStatus, GameId, GameStatus, Level,
    Seat, Store, StoreError, Version,
};

/// What happened to a join.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JoinOutcome {
    Joined(Seat),
    /// The user already had this seat; nothing changed.
    AlreadySeated(Seat),
    /// Every seat is taken; nothing changed.
    Full,
    /// The game is no longer a lobby; nothing changed.
    NotLobby(GameStatus),
}

/// What happened to a leave.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LeaveOutcome {
    Left,
    NotSeated,
    NotLobby(GameStatus),
}

/// A seat kept while the others are renumbered.
struct KeptSeat {
    user: Option<i64>,
    name: String,
    is_bot: bool,
    dm_status: String,
    /// Kept for an invited player who has not confirmed (a rematch).
    vacant: bool,
}

impl Store {
    /// The seat cap chosen when the lobby opened (`None`: the game's maximum).
    pub async fn max_seats(&self, game: GameId) -> Result<Option<i64>, StoreError> {
        let row = sqlx::query("SELECT max_seats FROM games WHERE id = $1")
            .bind(game.0)
            .fetch_optional(&self.pool)
            .await?
            .ok_or(StoreError::NotFound(game))?;
        get(&row, "max_seats")
    }

    /// Sets the seat cap (right after creating the lobby). No version change.
    pub async fn set_max_seats(&self, game: GameId, max: Option<i64>) -> Result<(), StoreError> {
        self.set_game_column(game, "max_seats", max).await
    }

    /// Marks a game casual (it moves no rating) or rated.
    pub async fn set_casual(&self, game: GameId, casual: bool) -> Result<(), StoreError> {
        self.set_game_column(game, "casual", Some(i64::from(casual)))
            .await
    }

    /// Sets one nullable number of a game's row, with no version change. `column` is always
    /// one of the constant names passed in this module and `clocks.rs`, never user input.
    pub(super) async fn set_game_column(
        &self,
        game: GameId,
        column: &'static str,
        value: Option<i64>,
    ) -> Result<(), StoreError> {
        // Safe: `column` is a `&'static str` named in this module or `clocks.rs`, never input.
        let sql = format!("UPDATE games SET {column} = $1 WHERE id = $2");
        let done = sqlx::query(AssertSqlSafe(sql))
            .bind(value)
            .bind(game.0)
            .execute(&self.pool)
            .await?;
        if done.rows_affected() == 0 {
            return Err(StoreError::NotFound(game));
        }
        Ok(())
    }

    /// Sets how the game's bot seats play: their level and their delay in seconds.
    pub async fn set_bots(&self, game: GameId, level: Level, delay: i64) -> Result<(), StoreError> {
        let done = sqlx::query("UPDATE games SET bot_level = $1, bot_delay = $2 WHERE id = $3")
            .bind(level.id())
            .bind(delay)
            .bind(game.0)
            .execute(&self.pool)
            .await?;
        if done.rows_affected() == 0 {
            return Err(StoreError::NotFound(game));
        }
        Ok(())
    }

    /// Records the thread the bot opened for a game. No version change.
    pub async fn set_thread(&self, game: GameId, thread: Option<i64>) -> Result<(), StoreError> {
        self.set_game_column(game, "thread", thread).await
    }

    /// Forgets where a game is shown (its channel and thread were deleted): nothing is posted
    /// for it until it has a place again. No version change.
    pub async fn clear_place(&self, game: GameId) -> Result<(), StoreError> {
        self.set_game_column(game, "thread", None).await?;
        self.set_game_column(game, "channel", None).await
    }

    /// Records the front end's lobby message. No version change.
    pub async fn set_lobby_message(&self, game: GameId, message: i64) -> Result<(), StoreError> {
        self.set_game_column(game, "lobby_message", Some(message))
            .await
    }

    /// Open lobbies hosted by `host`, and open lobbies in `channel` (0 for `None`).
    pub async fn open_lobbies(
        &self,
        host: Option<i64>,
        channel: Option<i64>,
    ) -> Result<(i64, i64), StoreError> {
        let count = |sql: &'static str, value: Option<i64>| async move {
            let Some(value) = value else {
                return Ok::<i64, StoreError>(0);
            };
            let row = sqlx::query(sql)
                .bind(GameStatus::Lobby.as_str())
                .bind(value)
                .fetch_one(&self.pool)
                .await?;
            get::<i64>(&row, "n")
        };
        let by_host = "SELECT COUNT(*) AS n FROM games WHERE status = $1 AND host = $2";
        let in_channel = "SELECT COUNT(*) AS n FROM games WHERE status = $1 AND channel = $2";
        Ok((
            count(by_host, host).await?,
            count(in_channel, channel).await?,
        ))
    }

    /// Seats `user` at the next free seat of a lobby if fewer than `max` are taken.
    pub async fn lobby_join(
        &self,
        game: GameId,
        user: i64,
        name: &str,
        max: usize,
        now: i64,
    ) -> Result<JoinOutcome, StoreError> {
        self.lobby_seat(game, Some(user), name, max, now).await
    }

    /// Seats a bot in the next free seat of a lobby.
    pub async fn lobby_add_bot(
        &self,
        game: GameId,
        name: &str,
        max: usize,
        now: i64,
    ) -> Result<JoinOutcome, StoreError> {
        self.lobby_seat(game, None, name, max, now).await
    }

    /// Takes the next free seat for a user, or for a bot (`user` None).
    async fn lobby_seat(
        &self,
        game: GameId,
        user: Option<i64>,
        name: &str,
        max: usize,
        now: i64,
    ) -> Result<JoinOutcome, StoreError> {
        let mut tx = self.pool.begin().await?;
        if let Some(status) = touch_lobby(&mut tx, game, now).await? {
            tx.rollback().await?;
            return Ok(JoinOutcome::NotLobby(status));
        }
        let users = seat_users(&mut tx, game).await?;
        if let Some(i) = users.iter().position(|(u, _)| user.is_some() && *u == user) {
            let seat = seat_at(i)?;
            if users[i].1 {
                // A seat kept for them in a rematch: joining confirms it.
                sqlx::query("UPDATE seats SET vacant = 0 WHERE game = $1 AND seat = $2")
                    .bind(game.0)
                    .bind(i64::from(seat.0))
                    .execute(&mut *tx)
                    .await?;
                tx.commit().await?;
                return Ok(JoinOutcome::Joined(seat));
            }
            tx.rollback().await?;
            return Ok(JoinOutcome::AlreadySeated(seat));
        }
        if users.len() >= max {
            tx.rollback().await?;
            return Ok(JoinOutcome::Full);
        }
        let seat = seat_at(users.len())?;
        sqlx::query(
            "INSERT INTO seats (game, seat, user_id, name, is_bot, dm_status) \
             VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(game.0)
        .bind(i64::from(seat.0))
        .bind(user)
        .bind(name)
        .bind(bool_i64(user.is_none()))
        .bind(DmStatus::Unknown.as_str())
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(JoinOutcome::Joined(seat))
    }

    /// Frees `user`'s seat in a lobby; later seats move up one.
    pub async fn lobby_leave(
        &self,
        game: GameId,
        user: i64,
        now: i64,
    ) -> Result<LeaveOutcome, StoreError> {
        self.lobby_free(game, now, |seats| {
            seats
                .iter()
                .position(|s| s.user == Some(user))
                .into_iter()
                .collect()
        })
        .await
    }

    /// Frees the last bot's seat in a lobby (`NotSeated` if there is no bot).
    pub async fn lobby_remove_bot(
        &self,
        game: GameId,
        now: i64,
    ) -> Result<LeaveOutcome, StoreError> {
        self.lobby_free(game, now, |seats| {
            seats.iter().rposition(|s| s.is_bot).into_iter().collect()
        })
        .await
    }

    /// Frees every seat still waiting for its invited player to confirm (a rematch about to
    /// start without them); the others move up. `NotSeated` if there was none.
    pub async fn lobby_drop_unconfirmed(
        &self,
        game: GameId,
        now: i64,
    ) -> Result<LeaveOutcome, StoreError> {
        self.lobby_free(game, now, |seats| {
            seats
                .iter()
                .enumerate()
                .filter(|(_, s)| s.vacant)
                .map(|(i, _)| i)
                .collect()
        })
        .await
    }

    /// Frees the seats `pick` finds among a lobby's seats; later seats move up.
    async fn lobby_free(
        &self,
        game: GameId,
        now: i64,
        pick: impl Fn(&[KeptSeat]) -> Vec<usize>,
    ) -> Result<LeaveOutcome, StoreError> {
        let mut tx = self.pool.begin().await?;
        if let Some(status) = touch_lobby(&mut tx, game, now).await? {
            tx.rollback().await?;
            return Ok(LeaveOutcome::NotLobby(status));
        }
        let rows = sqlx::query(
            "SELECT user_id, name, is_bot, dm_status, vacant FROM seats WHERE game = $1 \
             ORDER BY seat",
        )
        .bind(game.0)
        .fetch_all(&mut *tx)
        .await?;
        let mut kept = Vec::with_capacity(rows.len());
        for row in &rows {
            kept.push(KeptSeat {
                user: get(row, "user_id")?,
                name: get(row, "name")?,
                is_bot: get::<i64>(row, "is_bot")? != 0,
                dm_status: get(row, "dm_status")?,
                vacant: get::<i64>(row, "vacant")? != 0,
            });
        }
        let gone = pick(&kept);
        if gone.is_empty() {
            tx.rollback().await?;
            return Ok(LeaveOutcome::NotSeated);
        }
        let mut i = 0;
        kept.retain(|_| {
            i += 1;
            !gone.contains(&(i - 1))
        });
        // Rewrite the seats whole: renumbering in place could collide on the primary key.
        sqlx::query("DELETE FROM seats WHERE game = $1")
            .bind(game.0)
            .execute(&mut *tx)
            .await?;
        for (i, s) in kept.iter().enumerate() {
            sqlx::query(
                "INSERT INTO seats (game, seat, user_id, name, is_bot, dm_status, vacant) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7)",
            )
            .bind(game.0)
            .bind(i64::from(seat_at(i)?.0))
            .bind(s.user)
            .bind(&s.name)
            .bind(bool_i64(s.is_bot))
            .bind(&s.dm_status)
            .bind(bool_i64(s.vacant))
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(LeaveOutcome::Left)
    }

    /// Starts a lobby: saves the set-up state, status `active`, version+1, if the lobby is still
    /// at version `expected` (so nobody joined or left since the seats were counted).
    pub async fn start_lobby(
        &self,
        game: GameId,
        expected: Version,
        state: &str,
        now: i64,
    ) -> Result<Version, StoreError> {
        let next = next_version(expected)?;
        let done = sqlx::query(
            "UPDATE games SET state = $1, status = $2, version = $3, updated_at = $4, \
             started_at = $4 WHERE id = $5 AND version = $6 AND status = $7",
        )
        .bind(state)
        .bind(GameStatus::Active.as_str())
        .bind(version_i64(next))
        .bind(now)
        .bind(game.0)
        .bind(version_i64(expected))
        .bind(GameStatus::Lobby.as_str())
        .execute(&self.pool)
        .await?;
        if done.rows_affected() == 0 {
            let row = sqlx::query("SELECT version FROM games WHERE id = $1")
                .bind(game.0)
                .fetch_optional(&self.pool)
                .await?
                .ok_or(StoreError::NotFound(game))?;
            let found: i64 = get(&row, "version")?;
            return Err(StoreError::Conflict {
                expected,
                found: Version(u32::try_from(found).unwrap_or(u32::MAX)),
            });
        }
        Ok(next)
    }
}

/// Version+1 on a lobby, as the first statement of `tx`. `Some(status)` if it is not a lobby.
async fn touch_lobby(
    tx: &mut AnyConnection,
    game: GameId,
    now: i64,
) -> Result<Option<GameStatus>, StoreError> {
    let done = sqlx::query(
        "UPDATE games SET version = version + 1, updated_at = $1 WHERE id = $2 AND status = $3",
    )
    .bind(now)
    .bind(game.0)
    .bind(GameStatus::Lobby.as_str())
    .execute(&mut *tx)
    .await?;
    if done.rows_affected() == 1 {
        return Ok(None);
    }
    let row = sqlx::query("SELECT status FROM games WHERE id = $1")
        .bind(game.0)
        .fetch_optional(&mut *tx)
        .await?
        .ok_or(StoreError::NotFound(game))?;
    Ok(Some(get_status(&row, "status")?))
}

/// Each seat's user and whether it is only kept for them (a rematch's invitation).
async fn seat_users(
    tx: &mut AnyConnection,
    game: GameId,
) -> Result<Vec<(Option<i64>, bool)>, StoreError> {
    let rows = sqlx::query("SELECT user_id, vacant FROM seats WHERE game = $1 ORDER BY seat")
        .bind(game.0)
        .fetch_all(&mut *tx)
        .await?;
    rows.iter()
        .map(|r| Ok((get(r, "user_id")?, get::<i64>(r, "vacant")? != 0)))
        .collect()
}

fn seat_at(i: usize) -> Result<Seat, StoreError> {
    u8::try_from(i)
        .map(Seat)
        .map_err(|_| StoreError::Invalid(format!("seat {i}")))
}
