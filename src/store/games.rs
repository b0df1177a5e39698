//! Games, their seats and their move log.

use std::collections::HashMap;

use sqlx::any::AnyRow;
use sqlx::{AnyConnection, AssertSqlSafe};

use super::{
    bool_i64, get, get_bool, get_kind, get_lang, get_level, get_options, get_seat, get_status,
    get_version, next_version, options_json, version_i64, DmStatus, GameId, GameRecord, GameStatus,
    Lang, MoveRecord, NewGame, NewMove, Seat, SeatRecord, Store, StoreError, TimeoutPolicy,
    TurnClock, TurnPlan, Version,
};

/// The columns of a game row, as a literal so queries stay `&'static str` (`concat!`).
macro_rules! game_columns {
    () => {
        "id, kind, options_json, seed, state, version, status, guild, channel, thread, host, \
         clock_secs, policy, lang, clock_rev, turn_seat, turn_started_at, deadline_at, \
         paused_left, bot_level, bot_delay, lobby_message, board_message, created_at, updated_at, \
         casual, lost_at, human_move_at, idle_at, min_reliable, lesson"
    };
}

macro_rules! seat_columns {
    () => {
        "game, seat, user_id, name, is_bot, dm_status, vacant, final_rank, timeouts"
    };
}

impl Store {
    pub async fn create_game(&self, g: &NewGame) -> Result<GameId, StoreError> {
        let mut tx = self.pool.begin().await?;
        let id = insert_game(&mut tx, g).await?;
        tx.commit().await?;
        Ok(id)
    }

    pub async fn game(&self, id: GameId) -> Result<GameRecord, StoreError> {
        let row = sqlx::query(concat!(
            "SELECT ",
            game_columns!(),
            " FROM games WHERE id = $1"
        ))
        .bind(id.0)
        .fetch_optional(&self.pool)
        .await?
        .ok_or(StoreError::NotFound(id))?;
        let seats = self.seats(id).await?;
        game_from_row(&row, seats)
    }

    /// The seats of a game, in order (empty for an unknown game).
    pub async fn seats(&self, game: GameId) -> Result<Vec<SeatRecord>, StoreError> {
        let rows = sqlx::query(concat!(
            "SELECT ",
            seat_columns!(),
            " FROM seats WHERE game = $1 ORDER BY seat"
        ))
        .bind(game.0)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(seat_from_row).collect()
    }

    /// Puts a user (or a bot, `user` None) in an existing seat; the game's version is unchanged
    /// since the engine state is not.
    pub async fn set_seat_user(
        &self,
        game: GameId,
        seat: Seat,
        user: Option<i64>,
        name: &str,
        is_bot: bool,
    ) -> Result<(), StoreError> {
        let done = sqlx::query(
            "UPDATE seats SET user_id = $1, name = $2, is_bot = $3, dm_status = $4, vacant = 0 \
             WHERE game = $5 AND seat = $6",
        )
        .bind(user)
        .bind(name)
        .bind(bool_i64(is_bot))
        .bind(DmStatus::Unknown.as_str())
        .bind(game.0)
        .bind(i64::from(seat.0))
        .execute(&self.pool)
        .await?;
        if done.rows_affected() == 0 {
            return Err(self.missing_seat(game, seat).await);
        }
        Ok(())
    }

    /// Records whether `user` can be DMed, on their seats in `game`. Returns the seats changed.
    pub async fn set_dm_status(
        &self,
        game: GameId,
        user: i64,
        status: DmStatus,
    ) -> Result<u64, StoreError> {
        let done = sqlx::query("UPDATE seats SET dm_status = $1 WHERE game = $2 AND user_id = $3")
            .bind(status.as_str())
            .bind(game.0)
            .bind(user)
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected())
    }

    /// Records whether `user` can be DMed, on all their seats in unfinished games.
    pub async fn set_user_dm_status(&self, user: i64, status: DmStatus) -> Result<u64, StoreError> {
        let done = sqlx::query(
            "UPDATE seats SET dm_status = $1 WHERE user_id = $2 AND game IN \
             (SELECT id FROM games WHERE status IN ('lobby', 'active'))",
        )
        .bind(status.as_str())
        .bind(user)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected())
    }

    /// One transaction: version check, append the moves after the last seq, save the new
    /// state and status, version+1. Returns the new version.
    pub async fn record_moves(
        &self,
        id: GameId,
        expected: Version,
        moves: &[NewMove],
        state: &str,
        status: GameStatus,
        now: i64,
    ) -> Result<Version, StoreError> {
        self.record_moves_planned(id, expected, moves, state, status, now, None, &[])
            .await
    }

    /// [`Store::record_moves`], and in the same transaction: the game's new clock and jobs
    /// (`plan`, refused with [`StoreError::ClockChanged`] if the clock moved since it was
    /// read), and the final rank of each seat when the game ended (`ranks`, empty otherwise).
    #[allow(
        clippy::too_many_arguments,
        reason = "one transaction, each part optional"
    )]
    pub async fn record_moves_planned(
        &self,
        id: GameId,
        expected: Version,
        moves: &[NewMove],
        state: &str,
        status: GameStatus,
        now: i64,
        plan: Option<&TurnPlan>,
        ranks: &[u8],
    ) -> Result<Version, StoreError> {
        let next = next_version(expected)?;
        let mut tx = self.pool.begin().await?;
        // First statement: takes the row lock (PostgreSQL) or the write lock (SQLite).
        let done = sqlx::query(
            "UPDATE games SET state = $1, status = $2, version = $3, updated_at = $4 \
             WHERE id = $5 AND version = $6",
        )
        .bind(state)
        .bind(status.as_str())
        .bind(version_i64(next))
        .bind(now)
        .bind(id.0)
        .bind(version_i64(expected))
        .execute(&mut *tx)
        .await?;
        if done.rows_affected() == 0 {
            let err = why_not_updated(&mut tx, id, expected).await;
            tx.rollback().await?;
            return Err(err);
        }
        let row = sqlx::query("SELECT COALESCE(MAX(seq), 0) AS last FROM moves WHERE game = $1")
            .bind(id.0)
            .fetch_one(&mut *tx)
            .await?;
        let last: i64 = get(&row, "last")?;
        for (seq, m) in (last + 1..).zip(moves) {
            sqlx::query(
                "INSERT INTO moves (game, seq, seat, notation, barrier, revealed, at) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7)",
            )
            .bind(id.0)
            .bind(seq)
            .bind(i64::from(m.seat.0))
            .bind(&m.notation)
            .bind(bool_i64(m.barrier || m.revealed))
            .bind(bool_i64(m.revealed))
            .bind(now)
            .execute(&mut *tx)
            .await?;
        }
        for (seat, rank) in ranks.iter().enumerate() {
            sqlx::query("UPDATE seats SET final_rank = $1 WHERE game = $2 AND seat = $3")
                .bind(i64::from(*rank))
                .bind(id.0)
                .bind(i64::try_from(seat).unwrap_or(i64::MAX))
                .execute(&mut *tx)
                .await?;
        }
        if status == GameStatus::Finished {
            super::conduct::note_finished(&mut tx, id, None, now).await?;
        }
        if let Some(plan) = plan {
            if !super::clocks::apply_plan(&mut tx, id, plan, now).await? {
                tx.rollback().await?;
                return Err(StoreError::ClockChanged(id));
            }
        }
        tx.commit().await?;
        Ok(next)
    }

    /// The live (not undone) moves, in order.
    pub async fn moves(&self, id: GameId) -> Result<Vec<MoveRecord>, StoreError> {
        let rows = sqlx::query(
            "SELECT seq, seat, notation, barrier, revealed, at FROM moves \
             WHERE game = $1 AND undone_at IS NULL ORDER BY seq",
        )
        .bind(id.0)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| {
                Ok(MoveRecord {
                    seq: get(row, "seq")?,
                    seat: get_seat(row, "seat")?,
                    notation: get(row, "notation")?,
                    barrier: get_bool(row, "barrier")?,
                    revealed: get_bool(row, "revealed")?,
                    at: get(row, "at")?,
                })
            })
            .collect()
    }

    /// One transaction: version check, mark the last `count` live moves undone (rows stay),
    /// save the state, version+1. `Invalid` if fewer than `count` moves are live.
    pub async fn undo_moves(
        &self,
        id: GameId,
        expected: Version,
        count: usize,
        state: &str,
        now: i64,
    ) -> Result<Version, StoreError> {
        let next = next_version(expected)?;
        let count =
            i64::try_from(count).map_err(|_| StoreError::Invalid(format!("undo {count} moves")))?;
        let mut tx = self.pool.begin().await?;
        let done = sqlx::query(
            "UPDATE games SET state = $1, version = $2, updated_at = $3 \
             WHERE id = $4 AND version = $5",
        )
        .bind(state)
        .bind(version_i64(next))
        .bind(now)
        .bind(id.0)
        .bind(version_i64(expected))
        .execute(&mut *tx)
        .await?;
        if done.rows_affected() == 0 {
            let err = why_not_updated(&mut tx, id, expected).await;
            tx.rollback().await?;
            return Err(err);
        }
        let marked = sqlx::query(
            "UPDATE moves SET undone_at = $1 WHERE game = $2 AND seq IN \
             (SELECT seq FROM moves WHERE game = $2 AND undone_at IS NULL \
              ORDER BY seq DESC LIMIT $3)",
        )
        .bind(now)
        .bind(id.0)
        .bind(count)
        .execute(&mut *tx)
        .await?
        .rows_affected();
        if i64::try_from(marked).ok() != Some(count) {
            tx.rollback().await?;
            return Err(StoreError::Invalid(format!(
                "undo {count} moves of game {id}, but only {marked} are live"
            )));
        }
        tx.commit().await?;
        Ok(next)
    }

    /// Changes the status (cancel, resign) with the version check; version+1. Such a change
    /// is announced by its own message, not a board: the new version counts as posted.
    pub async fn set_status(
        &self,
        id: GameId,
        expected: Version,
        status: GameStatus,
        now: i64,
    ) -> Result<Version, StoreError> {
        let next = next_version(expected)?;
        let mut tx = self.pool.begin().await?;
        let done = sqlx::query(
            "UPDATE games SET status = $1, version = $2, posted_version = $2, updated_at = $3 \
             WHERE id = $4 AND version = $5",
        )
        .bind(status.as_str())
        .bind(version_i64(next))
        .bind(now)
        .bind(id.0)
        .bind(version_i64(expected))
        .execute(&mut *tx)
        .await?;
        if done.rows_affected() == 0 {
            let err = why_not_updated(&mut tx, id, expected).await;
            tx.rollback().await?;
            return Err(err);
        }
        tx.commit().await?;
        Ok(next)
    }

    /// Notes that the board of `version` went out: the board sweeper leaves the game alone
    /// until a newer version is stored. With the board's `message`, it becomes the game's live
    /// board; returns the message it replaced, whose buttons the front end takes off.
    pub async fn mark_posted(
        &self,
        id: GameId,
        version: Version,
        message: Option<i64>,
    ) -> Result<Option<i64>, StoreError> {
        // The board it replaces, read first: only the front end that made a newer board live
        // retires the old one (a race between two posts leaves at worst an old board's buttons,
        // which then answer "the board changed").
        let before: Option<i64> = sqlx::query("SELECT board_message FROM games WHERE id = $1")
            .bind(id.0)
            .fetch_optional(&self.pool)
            .await?
            .map(|row| get(&row, "board_message"))
            .transpose()?
            .flatten();
        let done = sqlx::query(
            "UPDATE games SET posted_version = $1, board_retry_at = NULL, \
             board_message = COALESCE($3, board_message) \
             WHERE id = $2 AND posted_version < $1",
        )
        .bind(version_i64(version))
        .bind(id.0)
        .bind(message)
        .execute(&self.pool)
        .await?;
        Ok(match message {
            Some(new) if done.rows_affected() == 1 && before != Some(new) => before,
            _ => None,
        })
    }

    /// Started or finished games whose current version has no posted board yet, and that no
    /// process is re-posting now (`board_retry_at` past), oldest change first. Right after a
    /// change this includes the boards on their way: callers wait before re-posting.
    pub async fn unposted_boards(
        &self,
        now: i64,
        limit: u32,
    ) -> Result<Vec<(GameId, Version)>, StoreError> {
        let rows = sqlx::query(
            "SELECT id, version FROM games WHERE posted_version < version \
             AND status IN ($1, $2) AND (board_retry_at IS NULL OR board_retry_at <= $3) \
             ORDER BY updated_at, id LIMIT $4",
        )
        .bind(GameStatus::Active.as_str())
        .bind(GameStatus::Finished.as_str())
        .bind(now)
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| Ok((GameId(get(r, "id")?), get_version(r, "version")?)))
            .collect()
    }

    /// Claims the re-post of `version`'s board for `lease_secs`, if it is still the game's
    /// version, still unposted, and nobody else holds the claim. One process wins.
    pub async fn claim_board(
        &self,
        id: GameId,
        version: Version,
        now: i64,
        lease_secs: i64,
    ) -> Result<bool, StoreError> {
        let done = sqlx::query(
            "UPDATE games SET board_retry_at = $1 WHERE id = $2 AND version = $3 \
             AND posted_version < version AND (board_retry_at IS NULL OR board_retry_at <= $4)",
        )
        .bind(now.saturating_add(lease_secs))
        .bind(id.0)
        .bind(version_i64(version))
        .bind(now)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Games with this status, most recently changed first.
    pub async fn games_by_status(
        &self,
        status: GameStatus,
        limit: u32,
    ) -> Result<Vec<GameRecord>, StoreError> {
        let rows = sqlx::query(concat!(
            "SELECT ",
            game_columns!(),
            " FROM games WHERE status = $1 ORDER BY updated_at DESC, id DESC LIMIT $2"
        ))
        .bind(status.as_str())
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?;
        self.with_seats(rows).await
    }

    /// Started games of the local table (no server, channel or thread), most recently
    /// changed first.
    pub async fn local_games(&self, limit: u32) -> Result<Vec<GameRecord>, StoreError> {
        let rows = sqlx::query(concat!(
            "SELECT ",
            game_columns!(),
            " FROM games WHERE guild IS NULL AND channel IS NULL AND thread IS NULL \
             AND status <> 'lobby' ORDER BY updated_at DESC, id DESC LIMIT $1"
        ))
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?;
        self.with_seats(rows).await
    }

    /// Deletes a game of the local table (no server, channel or thread) with its seats, moves
    /// and jobs; `false` when there is no such game.
    pub async fn delete_local_game(&self, id: GameId) -> Result<bool, StoreError> {
        let mut tx = self.pool.begin().await?;
        let done = sqlx::query(
            "DELETE FROM games WHERE id = $1 AND guild IS NULL AND channel IS NULL \
             AND thread IS NULL",
        )
        .bind(id.0)
        .execute(&mut *tx)
        .await?;
        // The one table that names a game without a foreign key.
        sqlx::query("DELETE FROM seat_requests WHERE game = $1")
            .bind(id.0)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(done.rows_affected() == 1)
    }

    /// Games played in a channel or in a thread (the id is matched against both), optionally
    /// only those with `status`, most recently changed first.
    pub async fn games_in_channel(
        &self,
        channel: i64,
        status: Option<GameStatus>,
        limit: u32,
    ) -> Result<Vec<GameRecord>, StoreError> {
        let rows = sqlx::query(concat!(
            "SELECT ",
            game_columns!(),
            " FROM games WHERE (channel = $1 OR thread = $1) \
             AND ($2 IS NULL OR status = $2) ORDER BY updated_at DESC, id DESC LIMIT $3"
        ))
        .bind(channel)
        .bind(status.map(GameStatus::as_str))
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?;
        self.with_seats(rows).await
    }

    /// Lobbies and running games of a guild (the bot was removed from it).
    pub async fn live_games_in_guild(
        &self,
        guild: i64,
        limit: u32,
    ) -> Result<Vec<GameId>, StoreError> {
        let rows = sqlx::query(
            "SELECT id FROM games WHERE guild = $1 AND status IN ('lobby', 'active') \
             ORDER BY id LIMIT $2",
        )
        .bind(guild)
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| get::<i64>(r, "id").map(GameId))
            .collect()
    }

    /// Games where `user` holds a seat, optionally only those with `status`, most recently
    /// changed first.
    pub async fn games_of_user(
        &self,
        user: i64,
        status: Option<GameStatus>,
        limit: u32,
    ) -> Result<Vec<GameRecord>, StoreError> {
        let rows = sqlx::query(concat!(
            "SELECT ",
            game_columns!(),
            " FROM games WHERE id IN (SELECT game FROM seats WHERE user_id = $1) \
             AND ($2 IS NULL OR status = $2) ORDER BY updated_at DESC, id DESC LIMIT $3"
        ))
        .bind(user)
        .bind(status.map(GameStatus::as_str))
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?;
        self.with_seats(rows).await
    }

    /// Game rows plus their seats, fetched in one query.
    pub(super) async fn with_seats(
        &self,
        rows: Vec<AnyRow>,
    ) -> Result<Vec<GameRecord>, StoreError> {
        if rows.is_empty() {
            return Ok(Vec::new());
        }
        let ids = rows
            .iter()
            .map(|r| get::<i64>(r, "id"))
            .collect::<Result<Vec<_>, _>>()?;
        let placeholders: Vec<String> = (1..=ids.len()).map(|i| format!("${i}")).collect();
        let sql = format!(
            concat!(
                "SELECT ",
                seat_columns!(),
                " FROM seats WHERE game IN ({}) ORDER BY game, seat"
            ),
            placeholders.join(", ")
        );
        // Safe: our column list and `$1, $2, …` placeholders; the ids are bound, not written.
        let mut query = sqlx::query(AssertSqlSafe(sql));
        for id in &ids {
            query = query.bind(*id);
        }
        let mut seats: HashMap<i64, Vec<SeatRecord>> = HashMap::new();
        for row in query.fetch_all(&self.pool).await? {
            let game: i64 = get(&row, "game")?;
            seats.entry(game).or_default().push(seat_from_row(&row)?);
        }
        rows.iter()
            .zip(ids)
            .map(|(row, id)| game_from_row(row, seats.remove(&id).unwrap_or_default()))
            .collect()
    }

    /// Why `set_seat_user` changed nothing.
    async fn missing_seat(&self, game: GameId, seat: Seat) -> StoreError {
        match self.game(game).await {
            Ok(_) => StoreError::Invalid(format!("game {game} has no {seat}")),
            Err(e) => e,
        }
    }
}

/// A guarded UPDATE changed nothing: the game is missing, or its version moved on.
pub(super) async fn why_not_updated(
    tx: &mut AnyConnection,
    id: GameId,
    expected: Version,
) -> StoreError {
    let row = sqlx::query("SELECT version FROM games WHERE id = $1")
        .bind(id.0)
        .fetch_optional(&mut *tx)
        .await;
    match row {
        Ok(None) => StoreError::NotFound(id),
        Ok(Some(row)) => match get_version(&row, "version") {
            Ok(found) => StoreError::Conflict { expected, found },
            Err(e) => e,
        },
        Err(e) => e.into(),
    }
}

pub(super) fn game_from_row(
    row: &AnyRow,
    seats: Vec<SeatRecord>,
) -> Result<GameRecord, StoreError> {
    let id = GameId(get(row, "id")?);
    game_fields(row, id, seats).map_err(|e| match e {
        StoreError::Corrupt(m) => StoreError::Corrupt(format!("game {id}: {m}")),
        other => other,
    })
}

fn game_fields(row: &AnyRow, id: GameId, seats: Vec<SeatRecord>) -> Result<GameRecord, StoreError> {
    // The service maps a seat's position in this list to its number: they must agree.
    if let Some((i, s)) = seats.iter().enumerate().find(|(i, s)| s.seat.index() != *i) {
        return Err(StoreError::Corrupt(format!(
            "seats are not numbered 0, 1, 2…: position {i} holds {}",
            s.seat
        )));
    }
    Ok(GameRecord {
        id,
        kind: get_kind(row, "kind")?,
        options: get_options(row, "options_json")?,
        seed: get(row, "seed")?,
        state: get(row, "state")?,
        version: get_version(row, "version")?,
        status: get_status(row, "status")?,
        guild: get(row, "guild")?,
        channel: get(row, "channel")?,
        thread: get(row, "thread")?,
        host: get(row, "host")?,
        clock_secs: get(row, "clock_secs")?,
        policy: match get::<Option<String>>(row, "policy")? {
            None => TimeoutPolicy::default(),
            Some(p) => TimeoutPolicy::parse(&p)
                .ok_or_else(|| StoreError::Corrupt(format!("policy = {p:?} is unknown")))?,
        },
        lang: get_lang(row, "lang")?,
        bot_level: get_level(row, "bot_level")?,
        bot_delay: get(row, "bot_delay")?,
        lobby_message: get(row, "lobby_message")?,
        board_message: get(row, "board_message")?,
        lost_at: get(row, "lost_at")?,
        human_move_at: get(row, "human_move_at")?,
        idle_at: get(row, "idle_at")?,
        clock: TurnClock {
            rev: get(row, "clock_rev")?,
            seat: match get::<Option<i64>>(row, "turn_seat")? {
                None => None,
                Some(_) => Some(get_seat(row, "turn_seat")?),
            },
            started_at: get(row, "turn_started_at")?,
            deadline_at: get(row, "deadline_at")?,
            paused_left: get(row, "paused_left")?,
        },
        created_at: get(row, "created_at")?,
        updated_at: get(row, "updated_at")?,
        casual: get::<i64>(row, "casual")? != 0,
        min_reliable: get::<Option<i64>>(row, "min_reliable")?
            .map(|m| u8::try_from(m.clamp(0, 100)).unwrap_or(100)),
        lesson: get::<i64>(row, "lesson")? != 0,
        seats,
    })
}

fn seat_from_row(row: &AnyRow) -> Result<SeatRecord, StoreError> {
    let dm: String = get(row, "dm_status")?;
    Ok(SeatRecord {
        seat: get_seat(row, "seat")?,
        user: get(row, "user_id")?,
        name: get(row, "name")?,
        is_bot: get_bool(row, "is_bot")?,
        dm_status: DmStatus::parse(&dm)
            .ok_or_else(|| StoreError::Corrupt(format!("dm_status = {dm:?} is unknown")))?,
        vacant: get_bool(row, "vacant")?,
        final_rank: get(row, "final_rank")?,
        timeouts: get(row, "timeouts")?,
    })
}

/// Inserts a game and its seats inside `tx` (a new game, or a rematch with its old game's
/// row). A game created already running records its start.
pub(super) async fn insert_game(tx: &mut AnyConnection, g: &NewGame) -> Result<GameId, StoreError> {
    if g.seats.len() > usize::from(u8::MAX) + 1 {
        return Err(StoreError::Invalid(format!("{} seats", g.seats.len())));
    }
    let row = sqlx::query(
        "INSERT INTO games (kind, options_json, seed, state, version, status, guild, channel, \
         thread, host, clock_secs, policy, lang, created_at, updated_at, started_at) \
         VALUES ($1, $2, $3, $4, 0, $5, $6, $7, $8, $9, $10, $12, $13, $11, $11, $14) RETURNING id",
    )
    .bind(g.kind.id())
    .bind(options_json(&g.options))
    .bind(g.seed)
    .bind(&g.state)
    .bind(g.status.as_str())
    .bind(g.guild)
    .bind(g.channel)
    .bind(g.thread)
    .bind(g.host)
    .bind(g.clock_secs)
    .bind(g.now)
    .bind(g.policy.as_str())
    .bind(g.lang.map(Lang::code))
    .bind((g.status == GameStatus::Active).then_some(g.now))
    .fetch_one(&mut *tx)
    .await?;
    let id = GameId(get(&row, "id")?);
    for (i, seat) in g.seats.iter().enumerate() {
        sqlx::query(
            "INSERT INTO seats (game, seat, user_id, name, is_bot, dm_status) \
             VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(id.0)
        .bind(i64::try_from(i).unwrap_or(i64::MAX))
        .bind(seat.user)
        .bind(&seat.name)
        .bind(bool_i64(seat.is_bot))
        .bind(DmStatus::Unknown.as_str())
        .execute(&mut *tx)
        .await?;
    }
    Ok(id)
}
