//! The end of a game: when it started, who resigned, and its rematch (a new lobby with the
//! same seats and options, opened once per game).

use super::games::insert_game;
use super::{
    bool_i64, get, get_status, GameId, GameStatus, Level, NewGame, NewJob, Seat, Store, StoreError,
};

/// What the result card and the Rematch button read besides the game's record.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EndingRecord {
    /// When the game started (`None`: a game started before this was recorded).
    pub started_at: Option<i64>,
    /// The seat that resigned, if the game ended that way.
    pub resigned: Option<Seat>,
    /// The rematch's lobby, once opened.
    pub rematch: Option<GameId>,
}

/// A rematch asked for: the lobby to open, with the seats of the old game in their order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewRematch {
    /// The lobby (status `lobby`, every old seat in order, the opener as host).
    pub game: NewGame,
    /// Seats kept for invited players until they confirm (indices into `game.seats`).
    pub invited: Vec<usize>,
    /// The old game's seat cap, bot level and bot delay.
    pub max_seats: Option<i64>,
    pub bot_level: Level,
    pub bot_delay: i64,
    /// The job that closes the lobby if it stays idle (its game is filled in here).
    pub idle: NewJob,
}

/// What asking for a rematch did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RematchOutcome {
    /// This call opened it.
    Opened(GameId),
    /// It was open already (another player asked first): nothing was written.
    Exists(GameId),
    /// The game has not finished (or was cancelled): nothing was written.
    NotFinished(GameStatus),
}

impl Store {
    /// The start, resignation and rematch of a game.
    pub async fn ending(&self, game: GameId) -> Result<EndingRecord, StoreError> {
        let row = sqlx::query("SELECT started_at, resigned_seat, rematch FROM games WHERE id = $1")
            .bind(game.0)
            .fetch_optional(&self.pool)
            .await?
            .ok_or(StoreError::NotFound(game))?;
        let resigned: Option<i64> = get(&row, "resigned_seat")?;
        let resigned = match resigned {
            Some(s) => Some(
                Seat::try_at(s)
                    .ok_or_else(|| StoreError::Corrupt(format!("game {game} resigned seat {s}")))?,
            ),
            None => None,
        };
        let rematch: Option<i64> = get(&row, "rematch")?;
        Ok(EndingRecord {
            started_at: get(&row, "started_at")?,
            resigned,
            rematch: rematch.filter(|r| *r > 0).map(GameId),
        })
    }

    /// Ends a running game by a resignation: status `finished`, version+1, the resigning seat
    /// recorded, and the game's jobs replaced by `jobs` (the thread's archive), in one
    /// transaction guarded by the version.
    pub async fn resign_game(
        &self,
        game: GameId,
        expected: super::Version,
        seat: Seat,
        jobs: &[NewJob],
        now: i64,
    ) -> Result<super::Version, StoreError> {
        let next = super::next_version(expected)?;
        let mut tx = self.pool.begin().await?;
        let done = sqlx::query(
            "UPDATE games SET status = $1, version = $2, posted_version = $2, updated_at = $3, \
             resigned_seat = $4 WHERE id = $5 AND version = $6 AND status = $7",
        )
        .bind(GameStatus::Finished.as_str())
        .bind(super::version_i64(next))
        .bind(now)
        .bind(i64::from(seat.0))
        .bind(game.0)
        .bind(super::version_i64(expected))
        .bind(GameStatus::Active.as_str())
        .execute(&mut *tx)
        .await?;
        if done.rows_affected() == 0 {
            let err = super::games::why_not_updated(&mut tx, game, expected).await;
            tx.rollback().await?;
            return Err(err);
        }
        // The resigning member abandoned it; everyone else finished it.
        super::conduct::note_seat(&mut tx, game, seat, super::conduct::Deed::Abandoned, now)
            .await?;
        super::conduct::note_finished(&mut tx, game, Some(seat), now).await?;
        sqlx::query("DELETE FROM jobs WHERE game = $1")
            .bind(game.0)
            .execute(&mut *tx)
            .await?;
        for job in jobs {
            super::clocks::insert_job(&mut tx, job).await?;
        }
        tx.commit().await?;
        Ok(next)
    }

    /// Cancels a lobby or a running game: status `cancelled`, version+1, guarded by the
    /// version, and its cancel agreements dropped (its jobs do nothing once it is cancelled). `forfeit`: the host's seat
    /// when the host cancelled a running game alone, recorded as its resignation (the ratings
    /// rate such a game).
    pub async fn cancel_game(
        &self,
        game: GameId,
        expected: super::Version,
        forfeit: Option<Seat>,
        now: i64,
    ) -> Result<super::Version, StoreError> {
        let next = super::next_version(expected)?;
        let mut tx = self.pool.begin().await?;
        let done = sqlx::query(
            "UPDATE games SET status = $1, version = $2, posted_version = $2, updated_at = $3, \
             resigned_seat = $4 WHERE id = $5 AND version = $6 AND status IN ($7, $8)",
        )
        .bind(GameStatus::Cancelled.as_str())
        .bind(super::version_i64(next))
        .bind(now)
        .bind(forfeit.map(|s| i64::from(s.0)))
        .bind(game.0)
        .bind(super::version_i64(expected))
        .bind(GameStatus::Lobby.as_str())
        .bind(GameStatus::Active.as_str())
        .execute(&mut *tx)
        .await?;
        if done.rows_affected() == 0 {
            let err = super::games::why_not_updated(&mut tx, game, expected).await;
            tx.rollback().await?;
            return Err(err);
        }
        // A host's cancel counted as a resignation abandons the game (a lobby has no forfeit).
        if let Some(seat) = forfeit {
            super::conduct::note_seat(&mut tx, game, seat, super::conduct::Deed::Abandoned, now)
                .await?;
        }
        sqlx::query("DELETE FROM cancel_votes WHERE game = $1")
            .bind(game.0)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(next)
    }

    /// Records that `user` asks (or agrees) to cancel running game `game`, at `now`; asking
    /// again refreshes the time.
    pub async fn vote_cancel(&self, game: GameId, user: i64, now: i64) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO cancel_votes (game, user_id, at) VALUES ($1, $2, $3) \
             ON CONFLICT (game, user_id) DO UPDATE SET at = excluded.at",
        )
        .bind(game.0)
        .bind(user)
        .bind(now)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// The members who asked or agreed to cancel `game` at `since` or later.
    pub async fn cancel_votes(&self, game: GameId, since: i64) -> Result<Vec<i64>, StoreError> {
        let rows = sqlx::query(
            "SELECT user_id FROM cancel_votes WHERE game = $1 AND at >= $2 ORDER BY user_id",
        )
        .bind(game.0)
        .bind(since)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(|r| get(r, "user_id")).collect()
    }

    /// Opens the rematch of finished game `old`, once: the first caller creates the lobby
    /// (seats in the old order, invited ones kept until confirmed) and records it on the old
    /// game in the same transaction; later callers get the lobby already open.
    pub async fn open_rematch(
        &self,
        old: GameId,
        rematch: &NewRematch,
    ) -> Result<RematchOutcome, StoreError> {
        let mut tx = self.pool.begin().await?;
        // The guarded UPDATE first (row lock / write lock): a concurrent twin waits here, then
        // finds the rematch recorded.
        let claimed = sqlx::query(
            "UPDATE games SET rematch = 0 WHERE id = $1 AND status = $2 AND rematch IS NULL",
        )
        .bind(old.0)
        .bind(GameStatus::Finished.as_str())
        .execute(&mut *tx)
        .await?;
        if claimed.rows_affected() == 0 {
            let row = sqlx::query("SELECT status, rematch FROM games WHERE id = $1")
                .bind(old.0)
                .fetch_optional(&mut *tx)
                .await?
                .ok_or(StoreError::NotFound(old))?;
            tx.rollback().await?;
            let status = get_status(&row, "status")?;
            let existing: Option<i64> = get(&row, "rematch")?;
            return Ok(match existing.filter(|r| *r > 0) {
                Some(id) => RematchOutcome::Exists(GameId(id)),
                None => RematchOutcome::NotFinished(status),
            });
        }
        let id = insert_game(&mut tx, &rematch.game).await?;
        for &i in &rematch.invited {
            sqlx::query("UPDATE seats SET vacant = $1 WHERE game = $2 AND seat = $3")
                .bind(bool_i64(true))
                .bind(id.0)
                .bind(i64::try_from(i).unwrap_or(i64::MAX))
                .execute(&mut *tx)
                .await?;
        }
        sqlx::query(
            "UPDATE games SET max_seats = $1, bot_level = $2, bot_delay = $3 WHERE id = $4",
        )
        .bind(rematch.max_seats)
        .bind(rematch.bot_level.id())
        .bind(rematch.bot_delay)
        .bind(id.0)
        .execute(&mut *tx)
        .await?;
        sqlx::query("UPDATE games SET rematch = $1 WHERE id = $2")
            .bind(id.0)
            .bind(old.0)
            .execute(&mut *tx)
            .await?;
        let idle = NewJob {
            game: Some(id),
            ..rematch.idle.clone()
        };
        super::clocks::insert_job(&mut tx, &idle).await?;
        tx.commit().await?;
        Ok(RematchOutcome::Opened(id))
    }
}
