//! Lobbies: a game with status `lobby` whose seats fill and empty before it starts.
//!
//! Every lobby write is one transaction whose FIRST statement is a guarded `UPDATE games`
//! (status still `lobby`; version+1), for the same locking reason as the game writes (see the
//! module doc of `store`). Seats stay numbered 0, 1, 2… after someone leaves.

use sqlx::{AnyConnection, AssertSqlSafe};

use super::{
    bool_i64, get, get_status, next_version, version_i64, DmStatus, GameId, GameKind, GameStatus,
    Level, Seat, Store, StoreError, Version,
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

/// A seat of a running game asked for a newcomer who would receive its hidden hand, waiting for
/// every other seated person to agree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatRequest {
    pub game: GameId,
    pub seat: Seat,
    pub newcomer: i64,
    pub name: String,
    pub asked_by: i64,
    pub by_moderator: bool,
    /// Who agreed so far (the asker first).
    pub agreed: Vec<i64>,
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

    /// Marks a game as a learner's lesson (`/learn`): it never counts. It is also stored
    /// looked at by the ratings with nothing to rate (`rated` = 0) and casual, so a rating
    /// query that forgets the `lesson` column still passes it by.
    pub async fn mark_lesson(&self, game: GameId) -> Result<(), StoreError> {
        let done = sqlx::query("UPDATE games SET lesson = 1, rated = 0, casual = 1 WHERE id = $1")
            .bind(game.0)
            .execute(&self.pool)
            .await?;
        if done.rows_affected() == 0 {
            return Err(StoreError::NotFound(game));
        }
        Ok(())
    }

    /// The running lesson of `kind` (`kind.id()`) that `user` sits in, if any (the newest).
    pub async fn open_lesson(&self, user: i64, kind: &str) -> Result<Option<GameId>, StoreError> {
        let row = sqlx::query(
            "SELECT id FROM games WHERE lesson = 1 AND status = $1 AND kind = $2 \
             AND id IN (SELECT game FROM seats WHERE user_id = $3) ORDER BY id DESC LIMIT 1",
        )
        .bind(GameStatus::Active.as_str())
        .bind(kind)
        .bind(user)
        .fetch_optional(&self.pool)
        .await?;
        row.map(|r| Ok(GameId(get(&r, "id")?))).transpose()
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

    /// Marks a running game's place as lost at `now`, keeping where it was (a moderator there
    /// may give it a place again). `false` when it was already lost or is not running: whoever
    /// marks it first tells the players, once. No version change.
    pub async fn mark_lost(&self, game: GameId, now: i64) -> Result<bool, StoreError> {
        let done = sqlx::query(
            "UPDATE games SET lost_at = $1 WHERE id = $2 AND status = $3 AND lost_at IS NULL",
        )
        .bind(now)
        .bind(game.0)
        .bind(GameStatus::Active.as_str())
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Gives a game whose place was lost a new one (its channel and thread, if any) and the
    /// board posted there as its live board. `false` when it had not lost its place (someone
    /// else gave it one first). No version change: the board shows the same position again,
    /// which `mark_posted` (newer versions only) would not record.
    pub async fn found_place(
        &self,
        game: GameId,
        channel: i64,
        thread: Option<i64>,
        board: i64,
    ) -> Result<bool, StoreError> {
        let done = sqlx::query(
            "UPDATE games SET lost_at = NULL, channel = $1, thread = $2, board_message = $3 \
             WHERE id = $4 AND lost_at IS NOT NULL",
        )
        .bind(channel)
        .bind(thread)
        .bind(board)
        .bind(game.0)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Running games shown in a thread that no person played in since `cutoff` (nor since
    /// their thread was last archived for it), oldest first.
    pub async fn idle_games(&self, cutoff: i64, limit: u32) -> Result<Vec<GameId>, StoreError> {
        let rows = sqlx::query(
            "SELECT id FROM games WHERE status = $1 AND thread IS NOT NULL AND lost_at IS NULL \
             AND COALESCE(human_move_at, started_at, created_at) < $2 \
             AND (idle_at IS NULL OR idle_at < COALESCE(human_move_at, 0)) \
             ORDER BY id LIMIT $3",
        )
        .bind(GameStatus::Active.as_str())
        .bind(cutoff)
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(|r| get(r, "id").map(GameId)).collect()
    }

    /// Marks a game's thread archived for idleness at `now`; `false` when it already is (another
    /// process did it).
    pub async fn mark_idle(&self, game: GameId, now: i64) -> Result<bool, StoreError> {
        let done = sqlx::query(
            "UPDATE games SET idle_at = $1 WHERE id = $2 \
             AND (idle_at IS NULL OR idle_at < COALESCE(human_move_at, 0))",
        )
        .bind(now)
        .bind(game.0)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Records that a person (not a bot, not a timeout) just played in `game`.
    pub async fn set_human_move_at(&self, game: GameId, at: i64) -> Result<(), StoreError> {
        self.set_game_column(game, "human_move_at", Some(at)).await
    }

    /// Stores a request for a seat (replacing any earlier one for that seat).
    pub async fn put_seat_request(&self, r: &SeatRequest, now: i64) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        sqlx::query("DELETE FROM seat_requests WHERE game = $1 AND seat = $2")
            .bind(r.game.0)
            .bind(i64::from(r.seat.0))
            .execute(&mut *tx)
            .await?;
        sqlx::query(
            "INSERT INTO seat_requests (game, seat, newcomer, name, asked_by, by_moderator, \
             agreed, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
        )
        .bind(r.game.0)
        .bind(i64::from(r.seat.0))
        .bind(r.newcomer)
        .bind(&r.name)
        .bind(r.asked_by)
        .bind(bool_i64(r.by_moderator))
        .bind(agreed_text(&r.agreed))
        .bind(now)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(())
    }

    /// The request waiting for a seat, if any.
    pub async fn seat_request(
        &self,
        game: GameId,
        seat: Seat,
    ) -> Result<Option<SeatRequest>, StoreError> {
        let row = sqlx::query(
            "SELECT newcomer, name, asked_by, by_moderator, agreed FROM seat_requests \
             WHERE game = $1 AND seat = $2",
        )
        .bind(game.0)
        .bind(i64::from(seat.0))
        .fetch_optional(&self.pool)
        .await?;
        let Some(row) = row else { return Ok(None) };
        let agreed: String = get(&row, "agreed")?;
        Ok(Some(SeatRequest {
            game,
            seat,
            newcomer: get(&row, "newcomer")?,
            name: get(&row, "name")?,
            asked_by: get(&row, "asked_by")?,
            by_moderator: get::<i64>(&row, "by_moderator")? != 0,
            agreed: users_of_text(&agreed),
        }))
    }

    /// Records who agreed to a request so far. `false` when the request is gone.
    pub async fn set_seat_agreed(
        &self,
        game: GameId,
        seat: Seat,
        agreed: &[i64],
    ) -> Result<bool, StoreError> {
        let done =
            sqlx::query("UPDATE seat_requests SET agreed = $1 WHERE game = $2 AND seat = $3")
                .bind(agreed_text(agreed))
                .bind(game.0)
                .bind(i64::from(seat.0))
                .execute(&self.pool)
                .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Removes a seat's request; `false` when there was none (someone else completed it).
    pub async fn drop_seat_request(&self, game: GameId, seat: Seat) -> Result<bool, StoreError> {
        let done = sqlx::query("DELETE FROM seat_requests WHERE game = $1 AND seat = $2")
            .bind(game.0)
            .bind(i64::from(seat.0))
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Records the front end's lobby message. No version change.
    pub async fn set_lobby_message(&self, game: GameId, message: i64) -> Result<(), StoreError> {
        self.set_game_column(game, "lobby_message", Some(message))
            .await
    }

    /// The open lobbies of `guild` (of `kind` only, if given) whose message is posted and
    /// whose place is not lost, newest first, at most `limit`.
    pub async fn open_lobbies_of_guild(
        &self,
        guild: i64,
        kind: Option<GameKind>,
        limit: i64,
    ) -> Result<Vec<GameId>, StoreError> {
        let rows = sqlx::query(
            "SELECT id FROM games WHERE status = $1 AND guild = $2 \
             AND lobby_message IS NOT NULL AND lost_at IS NULL AND ($3 = '' OR kind = $3) \
             ORDER BY id DESC LIMIT $4",
        )
        .bind(GameStatus::Lobby.as_str())
        .bind(guild)
        .bind(kind.map_or("", GameKind::id))
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(|r| Ok(GameId(get(r, "id")?))).collect()
    }

    /// Lobbies and running games hosted by `host`, and in `channel` (0 for `None`).
    pub async fn live_games(
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
                .bind(GameStatus::Active.as_str())
                .bind(value)
                .fetch_one(&self.pool)
                .await?;
            get::<i64>(&row, "n")
        };
        let by_host = "SELECT COUNT(*) AS n FROM games WHERE status IN ($1, $2) AND host = $3 \
             AND lesson = 0";
        let in_channel = "SELECT COUNT(*) AS n FROM games WHERE status IN ($1, $2) \
             AND channel = $3 AND lesson = 0";
        Ok((
            count(by_host, host).await?,
            count(in_channel, channel).await?,
        ))
    }

    /// Running games of `guild` shown in a thread of their own (its place not lost).
    pub async fn games_with_threads(&self, guild: i64) -> Result<i64, StoreError> {
        let row = sqlx::query(
            "SELECT COUNT(*) AS n FROM games WHERE guild = $1 AND status = $2 \
             AND thread IS NOT NULL AND lost_at IS NULL",
        )
        .bind(guild)
        .bind(GameStatus::Active.as_str())
        .fetch_one(&self.pool)
        .await?;
        get::<i64>(&row, "n")
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

    /// Invites members to a lobby just opened (`/play … invite:`): a seat is kept for each,
    /// after the seats taken (as a rematch keeps its players' seats: `vacant` until they
    /// accept), the list is recorded, and `invite_only` closes the lobby to everyone else.
    /// `false` when it is not a lobby any more; the caller checked there is room.
    pub async fn invite_to_lobby(
        &self,
        game: GameId,
        invited: &[(i64, String)],
        invite_only: bool,
        now: i64,
    ) -> Result<bool, StoreError> {
        let mut tx = self.pool.begin().await?;
        if touch_lobby(&mut tx, game, now).await?.is_some() {
            tx.rollback().await?;
            return Ok(false);
        }
        let taken = seat_users(&mut tx, game).await?.len();
        for (i, (user, name)) in invited.iter().enumerate() {
            sqlx::query(
                "INSERT INTO seats (game, seat, user_id, name, is_bot, dm_status, vacant) \
                 VALUES ($1, $2, $3, $4, 0, $5, 1)",
            )
            .bind(game.0)
            .bind(i64::from(seat_at(taken + i)?.0))
            .bind(*user)
            .bind(name)
            .bind(DmStatus::Unknown.as_str())
            .execute(&mut *tx)
            .await?;
        }
        let users: Vec<i64> = invited.iter().map(|(u, _)| *u).collect();
        sqlx::query("UPDATE games SET invitees = $1, invite_only = $2 WHERE id = $3")
            .bind(agreed_text(&users))
            .bind(bool_i64(invite_only))
            .bind(game.0)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(true)
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

/// Users as a row stores them (a seat request's agreements, a lobby's invitees): `,1,2,`.
fn agreed_text(users: &[i64]) -> String {
    let mut out = String::from(",");
    for u in users {
        out.push_str(&u.to_string());
        out.push(',');
    }
    out
}

/// The users of a `,1,2,` list ([`agreed_text`]); anything else in it is passed over.
pub(super) fn users_of_text(text: &str) -> Vec<i64> {
    text.split(',')
        .filter_map(|p| p.parse::<i64>().ok())
        .collect()
}
